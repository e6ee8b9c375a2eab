//! The solver: shortest solutions, any solution, counting minimal solutions,
//! hints — with node budgets, progress and cancellation.
//!
//! Every entry point first checks the cheap necessary conditions of
//! [`crate::refute`], which prove many unsolvable murals without a search
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
//! * **IDA\*** otherwise, with an admissible bound: every move vacates at
//!   most one cell (two with a sacrifice), and every occupied non-target
//!   cell and every tower on a target needs such a move; every tower needs
//!   a move; a sowing fills at most two empty targets. A table of states
//!   already reached at a lower depth prunes repeats. Counting walks the
//!   optimal depth with sleep sets (one ordering per class of commuting
//!   moves) and a table of dead states, and counts orderings by dynamic
//!   programming over (state, moves left).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::{Key, MuralMove, Stack, State, Symmetry, symmetries};
use crate::puzzle::Puzzle;
use crate::refute::{Reason, refute};

/// The solver's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Solved,
    Unsolvable,
    /// The budget ran out (or the search was cancelled) first.
    Unproven,
}

/// Progress reports and cancellation, for interfaces.
#[derive(Clone, Copy, Default)]
pub struct Hooks<'a> {
    pub cancel: Option<&'a AtomicBool>,
    /// Called every few thousand nodes with (nodes so far, current bound).
    pub progress: Option<&'a (dyn Fn(u64, u32) + Sync)>,
}

impl std::fmt::Debug for Hooks<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hooks").finish_non_exhaustive()
    }
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

/// What to search for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Optimal,
    Any,
}

struct Ctx<'a> {
    p: &'a Puzzle,
    syms: Vec<Symmetry>,
    budget: u64,
    nodes: u64,
    hooks: Hooks<'a>,
    out_of_budget: bool,
    bound: u32,
}

impl<'a> Ctx<'a> {
    fn new(p: &'a Puzzle, budget: u64, hooks: Hooks<'a>) -> Ctx<'a> {
        Ctx {
            p,
            syms: symmetries(&p.board, &p.targets),
            budget,
            nodes: 0,
            hooks,
            out_of_budget: false,
            bound: 0,
        }
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.budget {
            self.out_of_budget = true;
        }
        if self.nodes & 0xfff == 0 {
            if let Some(f) = self.hooks.progress {
                f(self.nodes, self.bound);
            }
        }
        // A cancel already set before the search starts is honoured at once.
        if (self.nodes & 0xfff == 0 || self.nodes == 1)
            && self.hooks.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
        {
            self.out_of_budget = true;
        }
        !self.out_of_budget
    }
}

// ---------------------------------------------------------------------------
// Exact cover
// ---------------------------------------------------------------------------

struct Cover {
    towers: Vec<usize>,
    /// Per option: tower index, move, item mask, towers that must go first.
    options: Vec<(usize, MuralMove, u128, u64)>,
    /// Per item: the options covering it.
    by_item: Vec<Vec<usize>>,
    items: usize,
}

fn cover_problem(p: &Puzzle, s: &State) -> Option<Cover> {
    let slots = p.board.slots();
    let mut towers = Vec::new();
    let mut item_of = vec![usize::MAX; slots];
    let mut items = 0;
    let mut stones = 0;
    #[allow(clippy::needless_range_loop)] // `slot` indexes the state, targets and items alike
    for slot in 0..slots {
        match s.get(slot) {
            Some((_, 2)) => {
                towers.push(slot);
                stones += 2;
            }
            Some(_) if !p.targets[slot] => return None,
            Some(_) => stones += 1,
            None => {}
        }
        if p.targets[slot] && s.get(slot).is_none_or(|(_, h)| h == 2) {
            item_of[slot] = items;
            items += 1;
        }
    }
    let targets = p.targets.iter().filter(|&&t| t).count();
    if stones != targets || items + towers.len() > 128 || towers.len() > 64 {
        return None;
    }
    let tower_index: HashMap<usize, usize> =
        towers.iter().enumerate().map(|(i, &t)| (t, i)).collect();
    let mut options = Vec::new();
    for (k, &t) in towers.iter().enumerate() {
        for &(a, b) in p.board.lines(t) {
            let (ia, ib) = (item_of[a as usize], item_of[b as usize]);
            if ia == usize::MAX || ib == usize::MAX {
                continue;
            }
            let mut before = 0u64;
            for x in [a, b] {
                if let Some(&u) = tower_index.get(&(x as usize)) {
                    before |= 1 << u;
                }
            }
            let mask = (1u128 << ia) | (1u128 << ib) | (1u128 << (items + k));
            let m = MuralMove::Sow {
                from: t as u8,
                near: a,
                far: b,
            };
            options.push((k, m, mask, before));
        }
    }
    let mut by_item = vec![Vec::new(); items + towers.len()];
    for (i, o) in options.iter().enumerate() {
        for (item, list) in by_item.iter_mut().enumerate() {
            if o.2 & (1u128 << item) != 0 {
                list.push(i);
            }
        }
    }
    Some(Cover {
        towers,
        options,
        by_item,
        items,
    })
}

/// Whether `to` is reachable from `from` along "must come before" edges.
fn reaches(succ: &[u64], from: usize, to: u64) -> bool {
    let mut seen = 1u64 << from;
    let mut frontier = 1u64 << from;
    while frontier != 0 {
        let mut next = 0;
        let mut f = frontier;
        while f != 0 {
            let u = f.trailing_zeros() as usize;
            f &= f - 1;
            next |= succ[u];
        }
        if next & to != 0 {
            return true;
        }
        frontier = next & !seen;
        seen |= next;
    }
    false
}

struct CoverSearch<'c, 'a> {
    c: &'c Cover,
    ctx: &'c mut Ctx<'a>,
    chosen: Vec<usize>,
    /// `succ[u]`: towers that must come after tower `u`.
    succ: Vec<u64>,
    all: u128,
    stop_at: u64,
    found: Vec<Vec<usize>>,
    count: u64,
    orderings: Option<u128>,
    /// Options that appear in some cover.
    used: Vec<bool>,
}

impl<'c, 'a> CoverSearch<'c, 'a> {
    fn new(c: &'c Cover, ctx: &'c mut Ctx<'a>, stop_at: u64) -> CoverSearch<'c, 'a> {
        let n = c.items + c.towers.len();
        CoverSearch {
            c,
            ctx,
            chosen: Vec::new(),
            succ: vec![0; c.towers.len()],
            all: if n == 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            },
            stop_at,
            found: Vec::new(),
            count: 0,
            orderings: (stop_at == u64::MAX).then_some(0),
            used: vec![false; c.options.len()],
        }
    }

    fn run(&mut self, covered: u128) {
        if !self.ctx.tick() || self.count >= self.stop_at {
            return;
        }
        if covered == self.all {
            self.count += 1;
            for &o in &self.chosen {
                self.used[o] = true;
            }
            if self.found.len() < 2 {
                self.found.push(self.chosen.clone());
            }
            if let Some(o) = self.orderings {
                self.orderings = linear_extensions(&self.succ, self.c.towers.len()).map(|n| o + n);
            }
            return;
        }
        // The uncovered item with the fewest compatible options.
        let mut best: Option<(usize, usize)> = None;
        for item in 0..self.c.by_item.len() {
            if covered & (1u128 << item) != 0 {
                continue;
            }
            let n = self.c.by_item[item]
                .iter()
                .filter(|&&o| self.c.options[o].2 & covered == 0)
                .count();
            if best.is_none_or(|(_, b)| n < b) {
                best = Some((item, n));
                if n <= 1 {
                    break;
                }
            }
        }
        let Some((item, n)) = best else { return };
        if n == 0 {
            return;
        }
        for &o in &self.c.by_item[item] {
            let (k, _, mask, before) = self.c.options[o];
            if mask & covered != 0 {
                continue;
            }
            // Adding u -> k for each u in `before` must not close a cycle.
            if before != 0 && reaches(&self.succ, k, before) {
                continue;
            }
            let saved = self.succ.clone();
            let mut b = before;
            while b != 0 {
                let u = b.trailing_zeros() as usize;
                b &= b - 1;
                self.succ[u] |= 1 << k;
            }
            self.chosen.push(o);
            self.run(covered | mask);
            self.chosen.pop();
            self.succ = saved;
            if self.ctx.out_of_budget || self.count >= self.stop_at {
                return;
            }
        }
    }
}

/// The number of orders of `n` towers respecting `succ`, if `n` is small
/// enough to count by subsets.
fn linear_extensions(succ: &[u64], n: usize) -> Option<u128> {
    if n > 20 {
        return None;
    }
    let mut pred = vec![0u64; n];
    for (u, &s) in succ.iter().enumerate().take(n) {
        let mut s = s;
        while s != 0 {
            let v = s.trailing_zeros() as usize;
            s &= s - 1;
            pred[v] |= 1 << u;
        }
    }
    let mut f = vec![0u128; 1 << n];
    f[0] = 1;
    for mask in 0..(1usize << n) {
        if f[mask] == 0 {
            continue;
        }
        for (k, &p) in pred.iter().enumerate() {
            if mask & (1 << k) == 0 && (p as usize) & !mask == 0 {
                f[mask | (1 << k)] += f[mask];
            }
        }
    }
    Some(f[(1 << n) - 1])
}

/// Orders a cover's moves so each is legal when played.
fn order_cover(c: &Cover, chosen: &[usize]) -> Vec<MuralMove> {
    let mut pending: Vec<usize> = chosen.to_vec();
    let mut done = 0u64;
    let mut out = Vec::new();
    while !pending.is_empty() {
        let i = pending
            .iter()
            .position(|&o| c.options[o].3 & !done == 0)
            .expect("an acyclic cover has a tower free to go");
        let o = pending.remove(i);
        done |= 1 << c.options[o].0;
        out.push(c.options[o].1);
    }
    out
}

// ---------------------------------------------------------------------------
// IDA*
// ---------------------------------------------------------------------------

/// Whether some tower of `s` can never move again, so `s` can never be
/// solved (see [`stuck_towers`]).
pub fn dead(p: &Puzzle, s: &State) -> bool {
    stuck_towers(p, s, p.sacrifice && p.colours.len() > 1) != 0
}

/// The towers of `s` that can never move again, as a bit set over slots;
/// `sacrifice` says whether a sacrifice may still be played. Towers are
/// never landed on or sacrificed against, so a tower moves only when one of
/// its lines has both cells free of towers that are themselves stuck (or,
/// with sacrifice, when a neighbour may one day be another colour's wall).
/// This is the greatest fixed point of "stuck": start with every tower,
/// drop those with a way out, repeat.
pub(crate) fn stuck_towers(p: &Puzzle, s: &State, sacrifice: bool) -> u64 {
    let mut stuck = 0u64;
    for t in s.towers() {
        stuck |= 1 << t;
    }
    if stuck == 0 {
        return 0;
    }
    let free = |x: u8, stuck: u64| stuck & (1 << x) == 0;
    loop {
        let mut next = stuck;
        let mut m = stuck;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            let out = p
                .board
                .lines(t)
                .iter()
                .any(|&(a, b)| free(a, stuck) && free(b, stuck))
                || (sacrifice && p.board.adjacent(t).iter().any(|&a| free(a, stuck)));
            if out {
                next &= !(1 << t);
            }
        }
        if next == stuck {
            return stuck;
        }
        stuck = next;
    }
}

/// A lower bound on the moves left (see the module docs).
pub fn lower_bound(p: &Puzzle, s: &State) -> u32 {
    let (mut towers, mut fix, mut empty_targets) = (0u32, 0u32, 0u32);
    for slot in p.board.geometry.cells() {
        match (s.get(slot), p.targets[slot]) {
            (Some((_, 2)), t) => {
                towers += 1;
                fix += 1;
                let _ = t;
            }
            (Some(_), false) => fix += 1,
            (None, true) => empty_targets += 1,
            _ => {}
        }
    }
    let fix = if p.sacrifice { fix.div_ceil(2) } else { fix };
    let base = fix.max(towers).max(empty_targets.div_ceil(2));
    if p.sacrifice || p.board.slots() > 64 {
        return base;
    }
    // Without sacrifice `fix` is the tower count plus the non-target walls.
    base.max(fix + bad_landings(p, s))
}

/// Without sacrifice, the moves left are exactly the towers plus the
/// non-target walls plus the bad landings, where a bad landing is a sowing
/// onto an empty non-target cell or onto a wall on a target: every move
/// removes one tower, and only a landing on a wall makes one; every wall on
/// a non-target must be landed on (a wall leaves only as a tower), once for
/// each time it is made. So the base bound (towers and non-target walls,
/// `fix`) is exact up to the bad landings, and this returns a lower bound
/// on those.
///
/// A cell is *bad now* when it is an empty non-target, a tower on a
/// non-target (it leaves an empty non-target behind) or a wall on a target;
/// a bad-now cell becomes fit to land on for free only after a bad landing
/// on it (empty non-target -> wall; target wall -> tower -> empty target),
/// while the other cells need nothing. Every tower and every non-target wall
/// (a tower to be) must still sow from its cell, along some line: each
/// bad-now cell on that line costs one bad landing on that cell, at or
/// before the sowing. So a mover whose every line holds `c` bad-now cells
/// needs `c` bad landings among the bad-now cells of its lines; movers whose
/// sets of such cells are disjoint need distinct ones, and their needs add
/// up (a greedy packing).
fn bad_landings(p: &Puzzle, s: &State) -> u32 {
    let (bad, movers) = bad_and_movers(p, s);
    // (need, cells) per mover with a need.
    let mut needs: [(u32, u64); 64] = [(0, 0); 64];
    let mut n = 0;
    let mut m = movers;
    while m != 0 {
        let t = m.trailing_zeros() as usize;
        m &= m - 1;
        let mut need = u32::MAX;
        let mut cells = 0u64;
        for &(a, b) in p.board.lines(t) {
            let line = bad & ((1u64 << a) | (1u64 << b));
            need = need.min(line.count_ones());
            cells |= line;
        }
        if need != u32::MAX && need > 0 {
            needs[n] = (need, cells);
            n += 1;
        }
    }
    let needs = &mut needs[..n];
    // Greatest need first, then the fewest cells.
    needs.sort_unstable_by_key(|&(need, cells)| (std::cmp::Reverse(need), cells.count_ones()));
    let (mut used, mut total) = (0u64, 0u32);
    for &(need, cells) in needs.iter() {
        if cells & used == 0 {
            used |= cells;
            total += need;
        }
    }
    total
}

/// The bad-now cells and the movers (towers and non-target walls) of `s`,
/// as bit sets (see [`bad_landings`]).
fn bad_and_movers(p: &Puzzle, s: &State) -> (u64, u64) {
    let mut bad = 0u64;
    let mut movers = 0u64;
    for slot in p.board.geometry.cells() {
        let target = p.targets[slot];
        match s.get(slot) {
            Some((_, 2)) => {
                movers |= 1 << slot;
                if !target {
                    bad |= 1 << slot;
                }
            }
            Some(_) if target => bad |= 1 << slot,
            Some(_) => movers |= 1 << slot,
            None if !target => bad |= 1 << slot,
            None => {}
        }
    }
    (bad, movers)
}

/// A fast hasher for packed state keys (already well mixed words; the
/// table compares whole keys, so the hash only spreads them).
#[derive(Default, Clone, Copy)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        let x = (self.0 ^ (self.0 >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x ^ (x >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        for &b in chunks.remainder() {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

type KeyMap<V> = HashMap<Key, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// Whether the bad landings (see [`bad_landings`]) can fit in `slack`
/// moves beyond the towers and non-target walls, or the search for a proof
/// that they cannot ran too long.
///
/// A relaxation, so `false` is a proof: let `F` be the set of cells that get
/// a bad landing in a solution (at most one per bad landing). Every mover
/// sows along a line whose bad-now cells lie in `F`; and every cell of `F`
/// becomes a mover itself (a landing on an empty non-target makes a wall
/// that must leave as a tower; one on a target wall makes a tower), whose
/// line needs the same. So `F` is a closed set; this searches for one of at
/// most `slack - movers` cells, branching on the lines of the mover with
/// the fewest ways out.
fn bad_landings_fit(p: &Puzzle, s: &State, slack: u32) -> bool {
    if p.sacrifice || p.board.slots() > 64 {
        return true;
    }
    let (bad, movers) = bad_and_movers(p, s);
    let Some(budget) = slack.checked_sub(movers.count_ones()) else {
        return false;
    };
    let mut steps = 0u32;
    closed_within(p, bad, movers, 0, budget, &mut steps)
}

fn closed_within(p: &Puzzle, bad: u64, movers: u64, f: u64, budget: u32, steps: &mut u32) -> bool {
    *steps += 1;
    if *steps > 256 {
        return true;
    }
    let mut m = movers | f;
    // The unsatisfied mover with the fewest affordable lines.
    let mut best: Option<(usize, u32)> = None;
    while m != 0 {
        let t = m.trailing_zeros() as usize;
        m &= m - 1;
        let mut options = 0u32;
        let mut satisfied = false;
        for &(a, b) in p.board.lines(t) {
            let need = (bad & !f & ((1u64 << a) | (1u64 << b))).count_ones();
            if need == 0 {
                satisfied = true;
                break;
            }
            if need <= budget {
                options += 1;
            }
        }
        if satisfied || p.board.lines(t).is_empty() {
            continue;
        }
        if options == 0 {
            return false;
        }
        if best.is_none_or(|(_, o)| options < o) {
            best = Some((t, options));
        }
    }
    let Some((t, _)) = best else { return true };
    for &(a, b) in p.board.lines(t) {
        let add = bad & !f & ((1u64 << a) | (1u64 << b));
        let need = add.count_ones();
        if need <= budget && closed_within(p, bad, movers, f | add, budget - need, steps) {
            return true;
        }
    }
    false
}

struct Ida<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    /// Transposition table: canonical key -> the smallest depth at which the
    /// state was searched in this iteration.
    seen: KeyMap<u32>,
    path: Vec<MuralMove>,
    buffers: Vec<Vec<(u32, MuralMove)>>,
    /// Whether the bound cut any branch in this iteration.
    cut: bool,
}

/// The colour of the tower that plays `m`, and the stack a sacrifice
/// removes, for [`State::undo`].
fn undo_info(s: &State, m: MuralMove) -> (u8, Stack) {
    let (colour, _) = s.get(m.from()).expect("a move starts on a tower");
    let removed = match m {
        MuralMove::Sacrifice { target, .. } => s.get(target as usize),
        MuralMove::Sow { .. } => None,
    };
    (colour, removed)
}

impl Ida<'_, '_> {
    fn dfs(&mut self, s: &mut State, g: u32, h: u32, bound: u32) -> bool {
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
            let hc = lower_bound(p, s);
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
            let (colour, removed) = undo_info(s, m);
            s.apply(m);
            self.path.push(m);
            found = self.dfs(s, g + 1, hc, bound);
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
fn any_solution(ctx: &mut Ctx<'_>, state: &State) -> Option<Vec<MuralMove>> {
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

/// Nodes the "any solution" mode first spends on iterative deepening.
const ANY_IDA_NODES: u64 = 200_000;

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
pub fn solve(p: &Puzzle, state: &State, mode: Mode, budget: u64, hooks: Hooks<'_>) -> Solution {
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
    search(p, state, mode, budget, hooks)
}

/// [`solve`] on a position that is not solved and passed [`refute`].
fn search(p: &Puzzle, state: &State, mode: Mode, budget: u64, hooks: Hooks<'_>) -> Solution {
    let mut ctx = Ctx::new(p, budget, hooks);
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
        let quick = search(p, state, Mode::Optimal, budget.min(ANY_IDA_NODES), hooks);
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
    let mut bound = if cover.is_some() {
        start_bound + 1
    } else {
        start_bound
    };
    let mut checked_solvable = false;
    loop {
        ctx.bound = bound;
        let mut ida = Ida {
            ctx: &mut ctx,
            seen: KeyMap::default(),
            path: Vec::new(),
            buffers: Vec::new(),
            cut: false,
        };
        let mut s = state.clone();
        if ida.dfs(&mut s, 0, lower_bound(p, state), bound) {
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
pub fn count(p: &Puzzle, state: &State, budget: u64, hooks: Hooks<'_>) -> Count {
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
    let mut ctx = Ctx::new(p, budget, hooks);
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
        search(p, state, Mode::Optimal, budget, hooks)
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
/// `Err(Status::Unproven)` when the budget ran out.
pub fn hint_for(p: &Puzzle, state: &State, budget: u64) -> Result<Hint, Status> {
    if state.is_solved(&p.targets) {
        return Ok(Hint::Solved);
    }
    let s = solve(p, state, Mode::Optimal, budget, Hooks::default());
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
    hint_for(p, state, budget).map(|h| match h {
        Hint::Move(m) => Some(m),
        Hint::Solved | Hint::Unsolvable(_) => None,
    })
}
