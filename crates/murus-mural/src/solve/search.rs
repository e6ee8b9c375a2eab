//! The search behind [`super::solve`]: exact cover where it applies, then
//! iterative deepening for the shortest solution, or a quick deepening and
//! an exhaustive pass for any solution.

use murus_engine::job::Handler;

use super::cover::{CoverSearch, cover_problem, order_cover};
use super::ctx::{Ctx, KeyMap};
use super::equation::{Answer, Equation, another, sequence};
use super::ida::{Ida, any_solution};
use super::potential::Potential;
use super::{Mode, Progress, Solution, Status, finish};
use crate::board::{MuralMove, State};
use crate::bound::lower_bound;
use crate::puzzle::Puzzle;

/// Nodes the "any solution" mode first spends on iterative deepening.
pub(super) const ANY_IDA_NODES: u64 = 200_000;

/// Linear programs the state equation's branch and bound may solve.
const EQUATION_NODES: u32 = 2_000;

/// Multisets of sowings of the equation's least size tried in turn.
const EQUATION_TRIES: usize = 8;

/// Positions the search for an order of the equation's sowings may visit.
const SEQUENCE_NODES: u32 = 20_000;

/// [`solve`] on a position that is not solved and passed [`refute`].
pub(super) fn search(
    p: &Puzzle,
    state: &State,
    mode: Mode,
    budget: u64,
    handler: &dyn Handler<Progress>,
) -> Solution {
    let mut ctx = Ctx::new(p, budget, handler);
    let start_bound = lower_bound(p, state);
    let cover = cover_problem(p, state);
    if let Some(c) = &cover {
        let mut cs = CoverSearch::new(c, &mut ctx, 1);
        cs.run(0);
        if let Some(chosen) = cs.found.first() {
            let moves = order_cover(c, chosen);
            return finish(Status::Solved, moves, ctx.nodes, true);
        }
        if ctx.out_of_budget {
            return finish(Status::Unproven, Vec::new(), ctx.nodes, true);
        }
        // No cover: any solution is longer than the tower count.
    }
    if mode == Mode::Any {
        // Iterative deepening finds short solutions fastest; the exhaustive
        // depth-first pass takes over when it does not succeed quickly, and
        // is what proves a mural unsolvable.
        let quick = search(p, state, Mode::Optimal, budget.min(ANY_IDA_NODES), handler);
        ctx.nodes += quick.nodes;
        if quick.status != Status::Unproven || ctx.nodes >= budget {
            return finish(quick.status, quick.moves, ctx.nodes, quick.exact_cover);
        }
        let found = any_solution(&mut ctx, state);
        let status = match (&found, ctx.out_of_budget) {
            (Some(_), _) => Status::Solved,
            (None, true) => Status::Unproven,
            (None, false) => Status::Unsolvable,
        };
        return finish(status, found.unwrap_or_default(), ctx.nodes, false);
    }
    // The state equation (`equation`): its least integer solution bounds
    // the length, and when its sowings can be played in some order they are
    // an optimal solution.
    let mut balanced = 0;
    let equation = Equation::new(p);
    if let Some(eq) = &equation {
        match balance(eq, &mut ctx, state) {
            Ok(Some(moves)) => return finish(Status::Solved, moves, ctx.nodes, false),
            Ok(None) => {}
            Err(v) => balanced = v,
        }
        if ctx.out_of_budget || !ctx.tick() {
            return finish(Status::Unproven, Vec::new(), ctx.nodes, false);
        }
    }
    // Stone conservation (`potential`) often bounds far above the counting
    // bound when stones must travel; all three are lower bounds, so the
    // first iteration is their maximum (the cover's failure only raises the
    // counting one).
    let potential = Potential::new(p, state);
    let conserved = potential
        .as_ref()
        .map_or(0, |q| q.bound(state))
        .max(balanced);
    let mut bound = if cover.is_some() {
        start_bound + 1
    } else {
        start_bound
    }
    .max(conserved);
    let start_bound = start_bound.max(conserved);
    let mut checked_solvable = false;
    let mut above = KeyMap::default();
    loop {
        ctx.bound = bound;
        let mut ida = Ida {
            ctx: &mut ctx,
            seen: KeyMap::default(),
            path: Vec::new(),
            buffers: Vec::new(),
            cut: false,
            potential: potential.as_ref(),
            equation: equation.as_ref(),
            above: &mut above,
            duals: Vec::new(),
            roots: Vec::new(),
        };
        let mut s = state.clone();
        if ida.dfs(&mut s, 0, start_bound, bound, None) {
            let moves = std::mem::take(&mut ida.path);
            return finish(Status::Solved, moves, ctx.nodes, false);
        }
        let cut = ida.cut;
        if ctx.out_of_budget {
            return finish(Status::Unproven, Vec::new(), ctx.nodes, false);
        }
        // Nothing at this bound, and the bound cut nothing: every reachable
        // state was searched, so there is no solution at all.
        if !cut {
            return finish(Status::Unsolvable, Vec::new(), ctx.nodes, false);
        }
        // Deep bounds on an unsolvable mural would repeat the whole space
        // at every depth: one exhaustive pass settles solvability first.
        if !checked_solvable && bound >= start_bound + 4 {
            checked_solvable = true;
            if any_solution(&mut ctx, state).is_none() {
                let status = if ctx.out_of_budget {
                    Status::Unproven
                } else {
                    Status::Unsolvable
                };
                return finish(status, Vec::new(), ctx.nodes, false);
            }
        }
        bound += 1;
    }
}

/// The state equation's least size (`Err`) and, when some multiset of
/// sowings of that size (the first few the branch and bound finds) can be
/// played in order, the optimal solution it makes (`Ok(Some)`). Its linear
/// programs and the positions of its orderings count as nodes; `Ok(None)`
/// when the budget ran out or the handler stopped it, or when the equation
/// settled nothing.
fn balance(eq: &Equation, ctx: &mut Ctx<'_>, state: &State) -> Result<Option<Vec<MuralMove>>, u32> {
    let p = ctx.p;
    let room = |ctx: &Ctx<'_>, most: u32| {
        u32::try_from(ctx.budget.saturating_sub(ctx.nodes)).map_or(most, |r| r.min(most))
    };
    if !ctx.tick() {
        return Ok(None);
    }
    let first = eq.least(p, state, room(ctx, EQUATION_NODES));
    ctx.nodes += u64::from(first.programs);
    let Answer::Least(v, mut counts) = first.answer else {
        return Ok(None);
    };
    // Other multisets of `v` sowings, while they come: any that can be
    // played in order is optimal.
    let mut cuts = Vec::new();
    for _ in 0..EQUATION_TRIES {
        if !ctx.tick() {
            return Ok(None);
        }
        let (order, tried) = sequence(eq, p, state, &counts, room(ctx, SEQUENCE_NODES));
        ctx.nodes += u64::from(tried);
        if let Some(moves) = order {
            return Ok(Some(moves));
        }
        cuts.push(another(&counts, v));
        let next = eq.least_within(p, state, &cuts, Some(v), room(ctx, EQUATION_NODES), None);
        ctx.nodes += u64::from(next.programs);
        match next.answer {
            Answer::Least(_, c) => counts = c,
            _ => break,
        }
    }
    Err(v)
}
