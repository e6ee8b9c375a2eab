//! Counting the minimal solutions: as sets of moves and as orderings.

use std::collections::{HashMap, HashSet};

use murus_engine::job::Handler;

use super::cover::{CoverSearch, cover_problem, order_cover};
use super::ctx::Ctx;
use super::search::search;
use super::{Mode, Progress, Status, finish};
use crate::board::{Key, MuralMove, State};
use crate::bound::{bad_landings_fit, dead, lower_bound};
use crate::puzzle::Puzzle;
use crate::refute::{Reason, refute};

/// Minimal solutions counted.
///
/// The counts are proven only when `status` is [`Status::Solved`]; when the
/// budget ran out first (`Unproven`), `sets` holds only the solutions found
/// so far (a lower bound) and `orderings` is `None`. Use
/// [`Count::proven_sets`] and [`Count::proven_orderings`] to read them
/// safely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    pub status: Status,
    /// The optimal length, when proven (it may be known even when the
    /// count itself ran out of budget).
    pub length: Option<u32>,
    /// Distinct minimal solutions as sets of moves (a lower bound unless
    /// `status` is `Solved`).
    pub sets: u64,
    /// Orderings of all minimal solutions (`None` when too many to count,
    /// or when the count is not proven).
    pub orderings: Option<u128>,
    /// One minimal solution.
    pub example: Vec<MuralMove>,
    pub nodes: u64,
    /// Legal first moves that start no minimal solution.
    pub dead_first_moves: u32,
    pub first_moves: u32,
    /// Why the mural cannot be solved, exactly when `status` is
    /// [`Status::Unsolvable`].
    pub reason: Option<Reason>,
}

impl Count {
    /// The verdict in words (see [`super::verdict`]).
    pub fn verdict(&self) -> String {
        super::verdict(self.status, self.reason.as_ref())
    }

    /// The number of distinct minimal solutions, when the count is complete.
    /// Zero for an unsolvable position.
    pub fn proven_sets(&self) -> Option<u64> {
        match self.status {
            Status::Solved => Some(self.sets),
            Status::Unsolvable => Some(0),
            Status::Unproven => None,
        }
    }

    /// The number of orderings, when the count is complete and small enough.
    pub fn proven_orderings(&self) -> Option<u128> {
        match self.status {
            Status::Solved => self.orderings,
            Status::Unsolvable => Some(0),
            Status::Unproven => None,
        }
    }
}

struct Counter<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    /// (state, moves left) -> number of solution sequences.
    memo: HashMap<(Key, u32), u128>,
    sets: HashSet<Vec<MuralMove>>,
    path: Vec<MuralMove>,
}

impl Counter<'_, '_> {
    /// Sequences of exactly `left` moves from `s` that solve it.
    fn orderings(&mut self, s: &mut State, left: u32) -> u128 {
        let p = self.ctx.p;
        if left == 0 {
            return u128::from(s.is_solved(&p.targets));
        }
        if lower_bound(p, s) > left
            || !self.ctx.tick()
            || dead(p, s)
            || !bad_landings_fit(p, s, left)
        {
            return 0;
        }
        let key = (s.canonical_key(&self.ctx.syms), left);
        if let Some(&n) = self.memo.get(&key) {
            return n;
        }
        let mut moves = Vec::new();
        s.moves(&p.board, p.sacrifice, &mut moves);
        let mut total = 0u128;
        for m in moves {
            let (colour, _) = s.get(m.from()).expect("a tower");
            let removed = match m {
                MuralMove::Sacrifice { target, .. } => s.get(target as usize),
                MuralMove::Sow { .. } => None,
            };
            s.apply(m);
            total = total.saturating_add(self.orderings(s, left - 1));
            s.undo(m, colour, removed);
        }
        if !self.ctx.out_of_budget {
            self.memo.insert(key, total);
        }
        total
    }

    /// Walks productive sequences once per class of commuting moves and
    /// records their move sets.
    fn sets(&mut self, s: &mut State, left: u32, sleep: &[MuralMove]) {
        if self.ctx.out_of_budget {
            return;
        }
        if left == 0 {
            let mut set = self.path.clone();
            set.sort_unstable();
            self.sets.insert(set);
            return;
        }
        let p = self.ctx.p;
        let mut moves = Vec::new();
        s.moves(&p.board, p.sacrifice, &mut moves);
        let mut explored: Vec<MuralMove> = Vec::new();
        for m in moves {
            if sleep.contains(&m) {
                continue;
            }
            let (colour, _) = s.get(m.from()).expect("a tower");
            let removed = match m {
                MuralMove::Sacrifice { target, .. } => s.get(target as usize),
                MuralMove::Sow { .. } => None,
            };
            s.apply(m);
            if self.orderings(s, left - 1) > 0 {
                let child_sleep: Vec<MuralMove> = sleep
                    .iter()
                    .chain(explored.iter())
                    .copied()
                    .filter(|z| z.independent(m))
                    .collect();
                self.path.push(m);
                self.sets(s, left - 1, &child_sleep);
                self.path.pop();
            }
            s.undo(m, colour, removed);
            explored.push(m);
        }
    }
}

/// Counts the minimal solutions of `state`: distinct sets of moves, and
/// orderings.
pub fn count(p: &Puzzle, state: &State, budget: u64, handler: &dyn Handler<Progress>) -> Count {
    let mut first_moves = Vec::new();
    state.moves(&p.board, p.sacrifice, &mut first_moves);
    let unsolvable = |reason: Option<Reason>, nodes: u64| Count {
        status: Status::Unsolvable,
        length: None,
        sets: 0,
        orderings: Some(0),
        example: Vec::new(),
        nodes,
        dead_first_moves: first_moves.len() as u32,
        first_moves: first_moves.len() as u32,
        reason,
    };
    let solved = state.is_solved(&p.targets);
    if let Some(reason) = refute(p, state).filter(|_| !solved) {
        return unsolvable(Some(reason), 0);
    }
    let mut ctx = Ctx::new(p, budget, handler);
    if let Some(c) = cover_problem(p, state) {
        let mut cs = CoverSearch::new(&c, &mut ctx, u64::MAX);
        cs.run(0);
        let (count, orderings) = (cs.count, cs.orderings);
        let used = std::mem::take(&mut cs.used);
        let example = cs
            .found
            .first()
            .map(|ch| order_cover(&c, ch))
            .unwrap_or_default();
        if ctx.out_of_budget {
            return Count {
                status: Status::Unproven,
                length: None,
                sets: count,
                orderings: None,
                example,
                nodes: ctx.nodes,
                dead_first_moves: 0,
                first_moves: first_moves.len() as u32,
                reason: None,
            };
        }
        if count > 0 {
            // A first move begins a minimal solution when it is an option of
            // some cover that needs no tower to leave before it.
            let live: HashSet<MuralMove> = c
                .options
                .iter()
                .zip(&used)
                .filter(|(o, used)| **used && o.3 == 0)
                .map(|(o, _)| o.1)
                .collect();
            let dead = first_moves.iter().filter(|m| !live.contains(m)).count() as u32;
            return Count {
                status: Status::Solved,
                length: Some(c.towers.len() as u32),
                sets: count,
                orderings,
                example,
                nodes: ctx.nodes,
                dead_first_moves: dead,
                first_moves: first_moves.len() as u32,
                reason: None,
            };
        }
    }
    // General: find the optimal length, then count at that length.
    let best = if solved {
        finish(Status::Solved, Vec::new(), 0, false)
    } else {
        search(p, state, Mode::Optimal, budget, handler)
    };
    ctx.nodes += best.nodes;
    match best.status {
        Status::Solved => {}
        Status::Unsolvable => return unsolvable(best.reason, ctx.nodes),
        Status::Unproven => {
            return Count {
                status: Status::Unproven,
                orderings: None,
                reason: None,
                ..unsolvable(None, ctx.nodes)
            };
        }
    }
    let length = best.moves.len() as u32;
    let mut counter = Counter {
        ctx: &mut ctx,
        memo: HashMap::new(),
        sets: HashSet::new(),
        path: Vec::new(),
    };
    let mut s = state.clone();
    let orderings = counter.orderings(&mut s, length);
    counter.sets(&mut s, length, &[]);
    let sets = counter.sets.len() as u64;
    let mut dead = 0;
    for &m in &first_moves {
        let mut child = state.clone();
        child.apply(m);
        if counter.orderings(&mut child, length - 1) == 0 {
            dead += 1;
        }
    }
    let status = if ctx.out_of_budget {
        Status::Unproven
    } else {
        Status::Solved
    };
    Count {
        status,
        // The length is proven by the optimal solve, even when the count
        // below it ran out of budget.
        length: Some(length),
        sets,
        orderings: (status == Status::Solved).then_some(orderings),
        example: best.moves,
        nodes: ctx.nodes,
        dead_first_moves: dead,
        first_moves: first_moves.len() as u32,
        reason: None,
    }
}
