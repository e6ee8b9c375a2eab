//! Iterative deepening A* with a table of states reached at a lower depth,
//! and the exhaustive depth-first search that finds any solution or proves
//! there is none.
//!
//! Where the state equation applies, a node is searched only when some
//! multiset of sowings balances it within the moves left: a child reached
//! by a sowing of its parent's multiset inherits the rest of it (no program
//! needed); any other node solves its own, warm-started from the nearest
//! ancestor's tableau (all states' programs share their rows, so only the
//! right-hand sides change). The duals of recent programs bound every
//! child at the cost of a sum before any program is solved.

use std::collections::HashSet;

use super::ctx::{Ctx, KeyHasher, KeyMap};
use super::equation::{Answer, Dual, Equation};
use super::potential::Potential;
use super::simplex::Root;
use crate::board::{Key, MuralMove, Stack, State};
use crate::bound::{bad_landings_fit, dead, lower_bound};

pub(super) struct Ida<'c, 'a> {
    pub(super) ctx: &'c mut Ctx<'a>,
    /// Transposition table: canonical key -> the smallest depth at which the
    /// state was searched in this iteration.
    pub(super) seen: KeyMap<u32>,
    pub(super) path: Vec<MuralMove>,
    pub(super) buffers: Vec<Vec<(u32, MuralMove)>>,
    /// Whether the bound cut any branch in this iteration.
    pub(super) cut: bool,
    /// The stone-conservation bound, where its program solved.
    pub(super) potential: Option<&'c Potential>,
    /// The state equation, where it applies: a node is searched only when
    /// some multiset of sowings that balances it fits in the moves left.
    pub(super) equation: Option<&'c Equation>,
    /// Per canonical key: a size the state's least multiset is known to
    /// exceed (kept across iterations).
    pub(super) above: &'c mut KeyMap<u32>,
    /// The duals of the equation's recent programs (see
    /// [`super::equation::Dual`]), each a lower bound at every state.
    pub(super) duals: Vec<Dual>,
    /// Per depth along the path: the equation's solved program there.
    pub(super) roots: Vec<Option<Root>>,
}

/// Duals kept.
const DUALS: usize = 8;

/// Linear programs the equation may take at one node.
const NODE_PROGRAMS: u32 = 200;

/// The colour of the tower that plays `m`, and the stack a sacrifice
/// removes, for [`State::undo`].
pub(super) fn undo_info(s: &State, m: MuralMove) -> (u8, Stack) {
    let (colour, _) = s.get(m.from()).expect("a move starts on a tower");
    let removed = match m {
        MuralMove::Sacrifice { target, .. } => s.get(target as usize),
        MuralMove::Sow { .. } => None,
    };
    (colour, removed)
}

impl Ida<'_, '_> {
    /// `multiset`: sowings that balance `s` within the moves left, when the
    /// parent's multiset held the move that led here (so no program is
    /// needed to know that one exists).
    pub(super) fn dfs(
        &mut self,
        s: &mut State,
        g: u32,
        h: u32,
        bound: u32,
        multiset: Option<Vec<u32>>,
    ) -> bool {
        if !self.ctx.tick() {
            return false;
        }
        let p = self.ctx.p;
        if h == 0 && s.is_solved(&p.targets) {
            return true;
        }
        if g + h > bound {
            self.cut = true;
            return false;
        }
        let key = s.canonical_key(&self.ctx.syms);
        match self.seen.get(&key) {
            Some(&g0) if g0 <= g => return false,
            _ => {
                self.seen.insert(key, g);
            }
        }
        let multiset = match (self.equation, multiset) {
            (Some(eq), None) => {
                let room = bound - g;
                if self.above.get(&key).is_some_and(|&a| a >= room) {
                    self.cut = true;
                    return false;
                }
                // Start the program from the nearest ancestor's.
                let depth = g as usize;
                self.roots.truncate(depth);
                let warm = self.roots.iter().rev().flatten().next();
                let least = eq.least_within(p, s, &[], Some(room), NODE_PROGRAMS, warm);
                self.ctx.nodes += u64::from(least.programs);
                self.roots.resize(depth, None);
                self.roots.push(least.root);
                if let Some(d) = least.dual {
                    if self.duals.len() == DUALS {
                        self.duals.remove(0);
                    }
                    self.duals.push(d);
                }
                match least.answer {
                    Answer::Least(_, x) => Some(x),
                    Answer::None => {
                        let a = self.above.entry(key).or_insert(room);
                        *a = (*a).max(room);
                        self.cut = true;
                        return false;
                    }
                    Answer::Unknown => None,
                }
            }
            (_, m) => m,
        };
        let depth = g as usize;
        if self.buffers.len() <= depth {
            self.buffers.push(Vec::new());
        }
        let mut children = std::mem::take(&mut self.buffers[depth]);
        children.clear();
        let mut moves = Vec::new();
        s.moves(&p.board, p.sacrifice, &mut moves);
        for &m in &moves {
            let (colour, removed) = undo_info(s, m);
            s.apply(m);
            let mut hc = lower_bound(p, s).max(self.potential.map_or(0, |q| q.bound(s)));
            if let Some(eq) = self.equation {
                for d in &self.duals {
                    hc = hc.max(eq.dual_bound(p, s, d));
                }
            }
            let is_dead = hc > 0 && dead(p, s);
            // The closed-set test only where the cheap bound leaves room.
            let fits = is_dead || g + 1 + hc > bound || bad_landings_fit(p, s, bound - g - 1);
            s.undo(m, colour, removed);
            if is_dead {
                continue;
            }
            if g + 1 + hc > bound || !fits {
                self.cut = true;
                continue;
            }
            children.push((hc, m));
        }
        // Most promising first: it matters for the last iteration only.
        children.sort_by_key(|&(hc, _)| hc);
        let mut found = false;
        for &(hc, m) in &children {
            let rest = match (&multiset, self.equation.and_then(|eq| eq.index(p, m))) {
                (Some(x), Some(j)) if x[j] > 0 => {
                    let mut rest = x.clone();
                    rest[j] -= 1;
                    Some(rest)
                }
                _ => None,
            };
            let (colour, removed) = undo_info(s, m);
            s.apply(m);
            self.path.push(m);
            found = self.dfs(s, g + 1, hc, bound, rest);
            if !found {
                self.path.pop();
            }
            s.undo(m, colour, removed);
            if found || self.ctx.out_of_budget {
                break;
            }
        }
        self.buffers[depth] = children;
        found
    }
}

/// Depth-first search over every reachable state, each once, most
/// promising moves first: a solution (not necessarily the shortest) or a
/// proof that none exists.
pub(super) fn any_solution(ctx: &mut Ctx<'_>, state: &State) -> Option<Vec<MuralMove>> {
    let p = ctx.p;
    let mut seen: HashSet<Key, std::hash::BuildHasherDefault<KeyHasher>> = HashSet::default();
    seen.insert(state.canonical_key(&ctx.syms));
    // Explicit stack of (state, ordered moves, next index).
    let mut stack: Vec<(State, Vec<MuralMove>, usize)> = Vec::new();
    let ordered = |s: &State| {
        let mut moves = Vec::new();
        s.moves(&p.board, p.sacrifice, &mut moves);
        let mut scored: Vec<(u32, MuralMove)> = moves
            .into_iter()
            .map(|m| {
                let mut c = s.clone();
                c.apply(m);
                (lower_bound(p, &c), m)
            })
            .collect();
        scored.sort_by_key(|&(h, _)| h);
        scored.into_iter().map(|(_, m)| m).collect::<Vec<_>>()
    };
    if state.is_solved(&p.targets) {
        return Some(Vec::new());
    }
    stack.push((state.clone(), ordered(state), 0));
    while let Some((s, moves, i)) = stack.last_mut() {
        if !ctx.tick() {
            return None;
        }
        let Some(&m) = moves.get(*i) else {
            stack.pop();
            continue;
        };
        *i += 1;
        let mut child = s.clone();
        child.apply(m);
        if dead(p, &child) {
            continue;
        }
        if child.is_solved(&p.targets) {
            let mut path: Vec<MuralMove> = stack.iter().map(|(_, ms, i)| ms[*i - 1]).collect();
            debug_assert_eq!(path.last(), Some(&m));
            path.truncate(stack.len());
            return Some(path);
        }
        if !seen.insert(child.canonical_key(&ctx.syms)) {
            continue;
        }
        let next = ordered(&child);
        stack.push((child, next, 0));
    }
    None
}
