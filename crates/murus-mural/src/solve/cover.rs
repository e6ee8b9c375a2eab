//! Exact cover: when every stone is a tower or a wall already on a target
//! and there is one stone per target, an optimal solution sows each tower
//! once onto empty cells: a choice of one line per tower covering the
//! targets still to fill, with no cycle in the order the towers must leave.

use std::collections::HashMap;

use super::ctx::Ctx;
use crate::board::{MuralMove, State};
use crate::puzzle::Puzzle;

pub(super) struct Cover {
    pub(super) towers: Vec<usize>,
    /// Per option: tower index, move, item mask, towers that must go first.
    pub(super) options: Vec<(usize, MuralMove, u128, u64)>,
    /// Per item: the options covering it.
    pub(super) by_item: Vec<Vec<usize>>,
    pub(super) items: usize,
}

pub(super) fn cover_problem(p: &Puzzle, s: &State) -> Option<Cover> {
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
pub(super) fn reaches(succ: &[u64], from: usize, to: u64) -> bool {
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

pub(super) struct CoverSearch<'c, 'a> {
    pub(super) c: &'c Cover,
    pub(super) ctx: &'c mut Ctx<'a>,
    pub(super) chosen: Vec<usize>,
    /// `succ[u]`: towers that must come after tower `u`.
    pub(super) succ: Vec<u64>,
    pub(super) all: u128,
    pub(super) stop_at: u64,
    pub(super) found: Vec<Vec<usize>>,
    pub(super) count: u64,
    pub(super) orderings: Option<u128>,
    /// Options that appear in some cover.
    pub(super) used: Vec<bool>,
}

impl<'c, 'a> CoverSearch<'c, 'a> {
    pub(super) fn new(c: &'c Cover, ctx: &'c mut Ctx<'a>, stop_at: u64) -> CoverSearch<'c, 'a> {
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

    pub(super) fn run(&mut self, covered: u128) {
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
pub(super) fn linear_extensions(succ: &[u64], n: usize) -> Option<u128> {
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
pub(super) fn order_cover(c: &Cover, chosen: &[usize]) -> Vec<MuralMove> {
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
