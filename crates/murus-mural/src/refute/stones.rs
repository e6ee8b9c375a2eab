//! What a position's stones may ever do: the cells each colour's towers and
//! stones may reach, whether two colours may meet, how sacrifices may be
//! shared out, and how targets may be shared among the colours.

use crate::board::{Board, State};
use crate::puzzle::Puzzle;

/// The stones of one position, as bit sets per colour.
pub(super) struct Stones {
    /// Per colour: cells holding a wall, cells holding a tower.
    pub(super) walls: Vec<u64>,
    pub(super) towers: Vec<u64>,
    /// Per colour: the stone count.
    pub(super) count: Vec<u32>,
    /// Per colour: the cells that may ever hold a tower of that colour
    /// (a superset): the start's towers and every cell a line from such a
    /// cell lands on, closed.
    pub(super) may_tower: Vec<u64>,
    /// Per colour: the cells that may ever hold a stone of that colour.
    pub(super) may_stone: Vec<u64>,
}

impl Stones {
    pub(super) fn new(p: &Puzzle, s: &State) -> Stones {
        let b = &p.board;
        let colours = b
            .geometry
            .cells()
            .filter_map(|c| s.get(c).map(|(k, _)| k as usize + 1))
            .max()
            .unwrap_or(0)
            .max(p.colours.len());
        let mut st = Stones {
            walls: vec![0; colours],
            towers: vec![0; colours],
            count: vec![0; colours],
            may_tower: vec![0; colours],
            may_stone: vec![0; colours],
        };
        for c in b.geometry.cells() {
            if let Some((k, h)) = s.get(c) {
                let k = k as usize;
                st.count[k] += u32::from(h);
                if h == 2 {
                    st.towers[k] |= 1 << c;
                } else {
                    st.walls[k] |= 1 << c;
                }
            }
        }
        // A `c` tower appears only where a `c` stone lands, that is on a
        // landing cell of a line from a cell that held a `c` tower; a `c`
        // stone appears only there too. So, by induction over the moves,
        // towers stay within the least closed set holding the start's
        // towers, and stones within the start's stones plus its landings.
        for k in 0..colours {
            let mut t = st.towers[k];
            loop {
                let next = t | landings(b, t);
                if next == t {
                    break;
                }
                t = next;
            }
            st.may_tower[k] = t;
            st.may_stone[k] = st.walls[k] | st.towers[k] | landings(b, t);
        }
        st
    }

    pub(super) fn colours(&self) -> usize {
        self.count.len()
    }

    pub(super) fn present(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.colours()).filter(|&k| self.count[k] > 0)
    }

    /// Whether a `j` tower and a `k` wall, or a `k` tower and a `j` wall,
    /// may ever stand side by side.
    pub(super) fn may_meet(&self, b: &Board, j: usize, k: usize) -> bool {
        around(b, self.may_tower[j]) & self.may_stone[k] != 0
            || around(b, self.may_tower[k]) & self.may_stone[j] != 0
    }
}

/// The cells the lines from the cells of `from` land on.
pub(super) fn landings(b: &Board, from: u64) -> u64 {
    let mut out = 0;
    let mut m = from;
    while m != 0 {
        let s = m.trailing_zeros() as usize;
        m &= m - 1;
        out |= b.landings(s);
    }
    out
}

/// The cells adjacent to some cell of `from`.
pub(super) fn around(b: &Board, from: u64) -> u64 {
    let mut out = 0;
    let mut m = from;
    while m != 0 {
        let s = m.trailing_zeros() as usize;
        m &= m - 1;
        for &a in b.adjacent(s) {
            out |= 1 << a;
        }
    }
    out
}

pub(super) fn names(b: &Board, mut m: u64) -> Vec<String> {
    let mut out = Vec::new();
    while m != 0 {
        let s = m.trailing_zeros() as usize;
        m &= m - 1;
        out.push(b.name(s));
    }
    out
}

/// Whether `k` sacrifices can be shared out among pairs of colours that
/// may meet, each taking one stone of each colour of its pair, within each
/// colour's stones. `None` when there are too many colours to check cheaply.
pub(super) fn pairable(st: &Stones, b: &Board, k: u32) -> Option<bool> {
    let present: Vec<usize> = st.present().collect();
    if present.len() > 3 {
        return None;
    }
    let mut pairs = Vec::new();
    for (i, &x) in present.iter().enumerate() {
        for &y in &present[i + 1..] {
            if st.may_meet(b, x, y) {
                pairs.push((x, y));
            }
        }
    }
    fn share(pairs: &[(usize, usize)], k: u32, caps: &mut [u32]) -> bool {
        if k == 0 {
            return true;
        }
        let Some((&(x, y), rest)) = pairs.split_first() else {
            return false;
        };
        for n in 0..=k.min(caps[x]).min(caps[y]) {
            caps[x] -= n;
            caps[y] -= n;
            let ok = share(rest, k - n, caps);
            caps[x] += n;
            caps[y] += n;
            if ok {
                return true;
            }
        }
        false
    }
    let mut caps = st.count.clone();
    Some(share(&pairs, k, &mut caps))
}

/// Which colours may hold each target's stone at the end, without
/// sacrifice: a colour whose stones may reach it, or only the colour of a
/// wall that can never leave it (no tower of its colour can land on it, and
/// no other colour's stone can land on a wall).
pub(super) fn allowed_colours(st: &Stones, t: usize) -> u8 {
    for k in 0..st.colours() {
        if st.walls[k] & 1 << t != 0 && st.may_tower[k] & 1 << t == 0 {
            return 1 << k;
        }
    }
    (0..st.colours())
        .filter(|&k| st.may_stone[k] & 1 << t != 0)
        .fold(0, |m, k| m | 1 << k)
}

/// Whether the targets can be shared among the colours so that each colour
/// gets as many targets as it has stones, each among its allowed ones, with
/// the same weights modulo 3 as its stones under every invariant
/// weighting. Dynamic programming over the targets: per (weights of every
/// colour but the first two, counts of every colour but the first two) a
/// bit set over the first colour's count; the second colour's count and
/// weights follow from the rest. `None` when that is too much work.
pub(super) fn colours_share(
    st: &Stones,
    b: &Board,
    targets: &[usize],
    allowed: &[u8],
) -> Option<bool> {
    let present: Vec<usize> = st.present().collect();
    let inv = b.invariants();
    let r = inv.len();
    let (first, rest) = present.split_first()?;
    let others = &rest[..rest.len().saturating_sub(1)];
    // Sum vectors of the first colour and the `others`, as base-3 digits.
    let digits = r * (1 + others.len());
    if digits > 8 || present.len() > 3 {
        return None;
    }
    let sums = 3usize.pow(digits as u32);
    let count_dim: usize = others.iter().map(|&k| st.count[k] as usize + 1).product();
    if sums * count_dim * targets.len() * present.len() > 200_000 || st.count[*first] > 127 {
        return None;
    }
    let weights_of = |k: usize| -> Vec<u8> {
        inv.iter()
            .map(|w| w.weigh(st.walls[k], st.towers[k]))
            .collect()
    };
    let cell_weights = |t: usize| -> Vec<u8> { inv.iter().map(|w| w.get(t)).collect() };
    // Index: sums digit block for colour slot `i` (0 = first, 1.. = others).
    let add = |idx: usize, slot: usize, w: &[u8]| -> usize {
        let mut out = idx;
        for (d, &wd) in w.iter().enumerate() {
            let place = 3usize.pow((slot * r + d) as u32);
            let cur = (idx / place) % 3;
            let new = (cur + wd as usize) % 3;
            out = out - cur * place + new * place;
        }
        out
    };
    let mut dp = vec![0u128; sums * count_dim];
    dp[0] = 1;
    for &t in targets {
        let w = cell_weights(t);
        let mut next = vec![0u128; sums * count_dim];
        for (i, &bits) in dp.iter().enumerate() {
            if bits == 0 {
                continue;
            }
            let (sum, counts) = (i % sums, i / sums);
            for (slot, &k) in present.iter().enumerate() {
                if allowed[t] & 1 << k == 0 {
                    continue;
                }
                if slot == 0 {
                    let j = add(sum, 0, &w) + counts * sums;
                    next[j] |= bits << 1;
                } else if slot == present.len() - 1 {
                    next[i] |= bits;
                } else {
                    // Colour slot `slot` among the others: bump its count.
                    let o = slot - 1;
                    let mut place = 1;
                    for &ko in &others[..o] {
                        place *= st.count[ko] as usize + 1;
                    }
                    let c = (counts / place) % (st.count[k] as usize + 1);
                    if c == st.count[k] as usize {
                        continue;
                    }
                    let j = add(sum, slot, &w) + (counts + place) * sums;
                    next[j] |= bits;
                }
            }
        }
        dp = next;
    }
    // The goal: every colour's count and weights as in the start.
    let mut goal_sum = 0;
    for (slot, &k) in std::iter::once(first).chain(others).enumerate() {
        goal_sum = add(goal_sum, slot, &weights_of(k));
    }
    let mut goal_counts = 0;
    let mut place = 1;
    for &k in others {
        goal_counts += st.count[k] as usize * place;
        place *= st.count[k] as usize + 1;
    }
    let bits = dp[goal_sum + goal_counts * sums];
    Some(bits >> st.count[*first] & 1 == 1)
}
