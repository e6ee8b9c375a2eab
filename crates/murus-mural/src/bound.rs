//! What is left to do in a mural position: lower bounds on the moves left,
//! and towers that can never move again. The refuter and the solver both
//! read them.

use crate::board::State;
use crate::puzzle::Puzzle;

/// Whether some tower of `s` can never move again, so `s` can never be
/// solved (see `stuck_towers`).
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
pub(crate) fn bad_landings(p: &Puzzle, s: &State) -> u32 {
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
pub(crate) fn bad_and_movers(p: &Puzzle, s: &State) -> (u64, u64) {
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
pub(crate) fn bad_landings_fit(p: &Puzzle, s: &State, slack: u32) -> bool {
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

pub(crate) fn closed_within(
    p: &Puzzle,
    bad: u64,
    movers: u64,
    f: u64,
    budget: u32,
    steps: &mut u32,
) -> bool {
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
