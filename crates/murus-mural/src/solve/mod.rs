//! The solver: shortest solutions, any solution, counting minimal solutions,
//! hints — with node budgets, progress and cancellation.
//!
//! Every entry point first checks the cheap necessary conditions of
//! [`mod@crate::refute`], which prove many unsolvable murals without a search
//! and say why. Then two methods:
//!
//! * **Exact cover**, when every stone is a tower or a wall already on a
//!   target and there is exactly one stone per target (no sacrifice can
//!   help). Then each tower must be sown at least once, so a solution that
//!   sows each tower exactly once, onto empty cells only, is optimal: it is a
//!   choice of one sowing line per tower whose landing cells cover every
//!   target still to fill exactly once, and whose order constraints (a tower
//!   must leave before a stone lands on its cell) have no cycle. Counting
//!   covers counts minimal solutions as sets of moves; counting linear
//!   extensions of the order constraints counts their orderings.
//! * **The state equation** (`equation`, one colour without sacrifice, at
//!   most 36 cells): the least integer number of sowings `Σ x(line)` that
//!   balances every cell (`stones + landed − 2·sown = goal`), by branch and
//!   bound over a small simplex (`simplex`), bounds the length from below;
//!   when the sowings of such a least multiset (the first few found) can be
//!   played in some order, that order is an optimal solution, found without
//!   searching the positions at all.
//! * **IDA\*** otherwise (starting at the equation's bound, which also
//!   prunes every node: see `ida`), with an admissible bound: every move vacates at
//!   most one cell (two with a sacrifice), and every occupied non-target
//!   cell and every tower on a target needs such a move; every tower needs
//!   a move; a sowing fills at most two empty targets; and stone
//!   conservation (`potential`): a weighting of the cells, the dual of a
//!   linear program over the start, that no move raises by more than a
//!   measured step. A table of states already reached at a lower depth
//!   prunes repeats. Counting walks the
//!   optimal depth with sleep sets (one ordering per class of commuting
//!   moves) and a table of dead states, and counts orderings by dynamic
//!   programming over (state, moves left).

mod count;
mod cover;
mod ctx;
mod equation;
mod ida;
mod potential;
mod search;
mod simplex;

use murus_engine::job::Handler;

use crate::board::{MuralMove, State};
use crate::puzzle::Puzzle;
use crate::refute::{Reason, refute};

pub use crate::bound::{dead, lower_bound};
pub use count::{Count, count};

/// The solver's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Solved,
    Unsolvable,
    /// The budget ran out (or the search was cancelled) first.
    Unproven,
}

/// Where a search stands, reported to its [`Handler`] every few thousand
/// nodes. A search also asks its handler whether to stop as often; a
/// stopped search ends as [`Status::Unproven`], like one out of budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// The current bound on the solution's length (iterative deepening's
    /// depth; 0 before it starts).
    pub bound: u32,
}

/// A solution search's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub status: Status,
    /// The moves, when solved.
    pub moves: Vec<MuralMove>,
    pub nodes: u64,
    /// Whether the exact-cover method was used.
    pub exact_cover: bool,
    /// Why the mural cannot be solved, exactly when `status` is
    /// [`Status::Unsolvable`].
    pub reason: Option<Reason>,
}

/// The solver's verdict in words, the one wording the CLI and the studio
/// show: `solved`, `unsolvable: ` and the [`Reason`] (or `unsolvable` alone
/// when none is known), `unproven: no answer within the budget`.
pub fn verdict(status: Status, reason: Option<&Reason>) -> String {
    match (status, reason) {
        (Status::Solved, _) => "solved".into(),
        (Status::Unsolvable, Some(r)) => format!("unsolvable: {r}"),
        (Status::Unsolvable, None) => "unsolvable".into(),
        (Status::Unproven, _) => "unproven: no answer within the budget".into(),
    }
}

impl Solution {
    /// The verdict in words (see [`verdict`]).
    pub fn verdict(&self) -> String {
        verdict(self.status, self.reason.as_ref())
    }
}

/// What to search for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Optimal,
    Any,
}

/// A search's result; an `Unsolvable` one was proven by searching every
/// reachable position.
fn finish(status: Status, moves: Vec<MuralMove>, nodes: u64, exact_cover: bool) -> Solution {
    Solution {
        status,
        moves,
        nodes,
        exact_cover,
        reason: (status == Status::Unsolvable).then_some(Reason::Searched),
    }
}

/// Solves `state` of puzzle `p`: the shortest solution (`Mode::Optimal`) or
/// any solution, within `budget` nodes. Cheap necessary conditions
/// ([`refute`]) are checked first, so many unsolvable murals are proven so
/// without any search (in 0 nodes), with a [`Reason`].
pub fn solve(
    p: &Puzzle,
    state: &State,
    mode: Mode,
    budget: u64,
    handler: &dyn Handler<Progress>,
) -> Solution {
    if state.is_solved(&p.targets) {
        return finish(Status::Solved, Vec::new(), 0, false);
    }
    if let Some(reason) = refute(p, state) {
        return Solution {
            status: Status::Unsolvable,
            moves: Vec::new(),
            nodes: 0,
            exact_cover: false,
            reason: Some(reason),
        };
    }
    search::search(p, state, mode, budget, handler)
}

/// What a hint says about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// The next move of an optimal solution.
    Move(MuralMove),
    /// The position is already solved: there is nothing left to play.
    Solved,
    /// The position cannot be solved any more, and why.
    Unsolvable(Reason),
}

/// The next move of an optimal solution from `state`, or whether the
/// position is already solved or cannot be solved any more;
/// `Err(Status::Unproven)` when the budget ran out or `handler` stopped the
/// search.
pub fn hint_for(
    p: &Puzzle,
    state: &State,
    budget: u64,
    handler: &dyn Handler<Progress>,
) -> Result<Hint, Status> {
    if state.is_solved(&p.targets) {
        return Ok(Hint::Solved);
    }
    let s = solve(p, state, Mode::Optimal, budget, handler);
    match s.status {
        Status::Solved => Ok(s.moves.first().copied().map_or(Hint::Solved, Hint::Move)),
        Status::Unsolvable => Ok(Hint::Unsolvable(s.reason.unwrap_or(Reason::Searched))),
        Status::Unproven => Err(Status::Unproven),
    }
}

/// The next move of an optimal solution from `state`; `Ok(None)` when there
/// is none: the position cannot be solved any more, *or* it is already
/// solved (use [`hint_for`] to tell the two apart); `Err(Status::Unproven)`
/// when the budget ran out.
pub fn hint(p: &Puzzle, state: &State, budget: u64) -> Result<Option<MuralMove>, Status> {
    hint_for(p, state, budget, &()).map(|h| match h {
        Hint::Move(m) => Some(m),
        Hint::Solved | Hint::Unsolvable(_) => None,
    })
}

/// For tests: a random 5x5 mural of one colour without sacrifice, made by
/// [`crate::playout::playout_mural`], with every position of the playout,
/// start first.
#[cfg(test)]
pub(crate) fn playout_mural(rng: &mut rand::rngs::SmallRng) -> Option<(Puzzle, Vec<State>)> {
    let how = crate::playout::Playout {
        towers: 2..=5,
        walls: 1..=4,
        ..crate::playout::Playout::bench()
    };
    crate::playout::playout_mural(&how, rng).map(|p| (p.puzzle, p.path))
}
