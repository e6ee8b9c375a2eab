//! Cheap proofs that a mural can never be solved: necessary conditions,
//! checked in microseconds before any search, each with a reason a person
//! can read.
//!
//! Every condition below is *necessary*: it holds in every position from
//! which some sequence of moves reaches the solved position, so a position
//! that fails one is unsolvable. Each check carries its one-line proof. A
//! condition that cannot be decided cheaply is skipped, never guessed.
//!
//! Facts the proofs use (from the rules, `RULES.md` "Murals"):
//! * A sowing lifts a tower's two stones and drops them on the next two
//!   cells of a line, each empty or a wall of the tower's colour; a
//!   sacrifice turns a tower into a wall and removes an adjacent wall of
//!   another colour. No move adds a stone or changes a stone's colour.
//! * So a sowing keeps the stone count, and a sacrifice removes exactly two
//!   stones, of two different colours. The solved position holds exactly
//!   one stone on each target: a solution from `N` stones to `T` targets
//!   plays exactly `(N - T) / 2` sacrifices.
//! * A stone of colour `c` arrives on a cell only by a sowing of a `c`
//!   tower along a line through it, and a `c` tower appears only where a
//!   `c` stone lands on a `c` wall.
//!
//! ```
//! use murus_mural::{Puzzle, refute::refute};
//!
//! // Every cell is a target, but the last move always empties a cell.
//! let p = Puzzle::from_toml(r#"
//! title = "Full house"
//! board = "3x3"
//! start = "r2r2r1/r2r21/3"
//! targets = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
//! "#).unwrap();
//! let reason = refute(&p, &p.start).expect("proven unsolvable");
//! assert!(reason.to_string().starts_with("every cell is a target"));
//! ```

use std::fmt;

use crate::board::{Board, MAX_SLOTS, State};
use crate::puzzle::Puzzle;
use crate::solve::stuck_towers;

/// Why a mural position can never be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Fewer stones than targets: no move adds a stone.
    TooFewStones { stones: u32, targets: u32 },
    /// More stones than targets, and no stone can leave: sacrifice is not
    /// allowed, or (`one_colour`) it is but only one colour has stones.
    StonesLeftOver {
        stones: u32,
        targets: u32,
        one_colour: bool,
    },
    /// With sacrifice: the stones exceed the targets by an odd number.
    OddExcess { stones: u32, targets: u32 },
    /// The sacrifices needed cannot be shared out among the colours: each
    /// takes one stone from each of two colours that can meet.
    Pairing {
        sacrifices: u32,
        /// Stones per colour letter.
        stones: Vec<(char, u32)>,
        /// Pairs of colours whose tower and wall can never stand side by
        /// side.
        apart: Vec<(char, char)>,
    },
    /// No move can be the last one: it must empty a cell that is no target.
    NoLastMove {
        /// Whether every cell of the board is a target.
        all_targets: bool,
        /// Whether a last sacrifice was considered.
        sacrifice: bool,
    },
    /// Targets no stone can ever reach.
    Unreachable { cells: Vec<String> },
    /// A wall on a cell that is no target, which can never leave it.
    StrandedWall {
        cell: String,
        colour: char,
        /// Whether sacrifices happen in a solution (so one against this
        /// wall was considered).
        sacrifice: bool,
    },
    /// Towers that can never move again.
    StuckTowers {
        cells: Vec<String>,
        /// Whether sacrifices happen in a solution.
        sacrifice: bool,
    },
    /// Some colours have more stones than targets they can ever reach.
    Crowded {
        colours: Vec<char>,
        stones: u32,
        targets: Vec<String>,
    },
    /// A weighting of the cells modulo 3 that no sowing changes gives the
    /// stones and the targets different totals.
    Weights {
        weighing: Weighing,
        stones: u8,
        targets: u8,
    },
    /// Each colour's weights modulo 3 stay the same on their own, and no
    /// way of sharing the targets among the colours matches them all.
    ColourWeights,
    /// The search visited every reachable position and none is solved.
    Searched,
}

/// A weighting of the cells modulo 3, as shown in [`Reason::Weights`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Weighing {
    /// A cell weighs its file number (a = 1, b = 2, …).
    Files,
    /// A cell weighs its rank number.
    Ranks,
    /// The cells listed weigh 1 and 2, the others 0.
    Cells { one: Vec<String>, two: Vec<String> },
}

/// `a1`, `a1 and b2`, `a1, b2 and c3`.
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn plural(n: u32, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::TooFewStones { stones, targets } => write!(
                f,
                "{} cannot cover {}: no move ever adds a stone",
                plural(*stones, "stone"),
                plural(*targets, "target")
            ),
            Reason::StonesLeftOver {
                stones,
                targets,
                one_colour,
            } => write!(
                f,
                "{} for {}: {}, so no stone ever leaves the board, and the end holds one stone on each target",
                plural(*stones, "stone"),
                plural(*targets, "target"),
                if *one_colour {
                    "a sacrifice needs stones of two colours and only one colour is left"
                } else {
                    "without sacrifice"
                }
            ),
            Reason::OddExcess { stones, targets } => write!(
                f,
                "{} for {}: a sacrifice removes exactly two stones and no other move removes any, so the stones must exceed the targets by an even number",
                plural(*stones, "stone"),
                plural(*targets, "target")
            ),
            Reason::Pairing {
                sacrifices,
                stones,
                apart,
            } => {
                let counts: Vec<String> = stones.iter().map(|(c, n)| format!("{c} {n}")).collect();
                write!(
                    f,
                    "{} needed (one for every two stones over the targets), each removing one stone of each of two colours, but the stones ({}) cannot be paired off that often",
                    if *sacrifices == 1 {
                        "1 sacrifice is".to_string()
                    } else {
                        format!("{sacrifices} sacrifices are")
                    },
                    counts.join(", ")
                )?;
                if !apart.is_empty() {
                    let pairs: Vec<String> =
                        apart.iter().map(|(a, b)| format!("{a} and {b}")).collect();
                    write!(
                        f,
                        " ({} can never stand side by side as tower and wall)",
                        list(&pairs)
                    )?;
                }
                Ok(())
            }
            Reason::NoLastMove {
                all_targets: true,
                sacrifice,
            } => write!(
                f,
                "every cell is a target, but the last move always leaves a cell empty ({})",
                if *sacrifice {
                    "a sowing its tower's cell, a sacrifice the wall's cell"
                } else {
                    "the cell of the tower it sows"
                }
            ),
            Reason::NoLastMove {
                all_targets: false,
                sacrifice,
            } => {
                write!(
                    f,
                    "no move can be the last one: a last sowing must start from a tower on a cell that is no target and land on two targets"
                )?;
                if *sacrifice {
                    write!(
                        f,
                        ", a last sacrifice must remove a wall from a cell that is no target beside a tower on a target"
                    )?;
                }
                write!(f, ", and no cell allows it")
            }
            Reason::Unreachable { cells } => write!(
                f,
                "no stone can ever reach {} {}: a stone moves only when a tower sows it one or two cells along a line, and no tower can ever stand in line with {}",
                if cells.len() == 1 {
                    "target"
                } else {
                    "targets"
                },
                list(cells),
                if cells.len() == 1 { "it" } else { "them" }
            ),
            Reason::StrandedWall {
                cell,
                colour,
                sacrifice,
            } => {
                write!(
                    f,
                    "the {colour} wall on {cell} is not on a target and can never leave: no {colour} tower can ever land on it to lift it"
                )?;
                if *sacrifice {
                    write!(
                        f,
                        ", and no tower of another colour can ever stand beside it to sacrifice against it"
                    )?;
                }
                Ok(())
            }
            Reason::StuckTowers { cells, sacrifice } => {
                if let [one] = cells.as_slice() {
                    write!(
                        f,
                        "the tower on {one} can never move: it has no sowing line on the board"
                    )?;
                    if *sacrifice {
                        write!(f, " and no neighbour to sacrifice against")?;
                    }
                } else {
                    write!(
                        f,
                        "the towers on {} can never move: every sowing line of each runs through another of them, and nothing ever lands on a tower",
                        list(cells)
                    )?;
                    if *sacrifice {
                        write!(
                            f,
                            "; nor can they sacrifice, as they have only each other beside them"
                        )?;
                    }
                }
                Ok(())
            }
            Reason::Crowded {
                colours,
                stones,
                targets,
            } => {
                let names: Vec<String> = colours.iter().map(char::to_string).collect();
                write!(
                    f,
                    "the {} stones ({stones}) must all end on targets, one each, but only {} can ever hold one of them{}{}",
                    list(&names),
                    plural(targets.len() as u32, "target"),
                    if targets.is_empty() { "" } else { ": " },
                    list(targets)
                )
            }
            Reason::Weights {
                weighing,
                stones,
                targets,
            } => {
                let what = match weighing {
                    Weighing::Files => {
                        "the sum of the stones' file numbers (a = 1, b = 2, …)".to_string()
                    }
                    Weighing::Ranks => "the sum of the stones' rank numbers".to_string(),
                    Weighing::Cells { one, two } => {
                        let mut parts = Vec::new();
                        for (cells, w) in [(one, 1), (two, 2)] {
                            if !cells.is_empty() {
                                parts.push(format!("{} {w}", list(cells)));
                            }
                        }
                        parts.push("every other cell 0".into());
                        format!(
                            "the stones' total weight, weighing {} (so that every line's three cells weigh 0 together)",
                            list(&parts)
                        )
                    }
                };
                write!(
                    f,
                    "a sowing moves two stones one and two cells along a line, which never changes {what}, modulo 3: the stones give {stones}, one stone on each target would give {targets}"
                )
            }
            Reason::ColourWeights => write!(
                f,
                "each colour keeps its own stones, and no sowing changes the sum of their file numbers or of their rank numbers modulo 3 (nor other such weights); no way of sharing the targets among the colours gives every colour as many targets as it has stones with the same sums"
            ),
            Reason::Searched => write!(
                f,
                "no sequence of moves solves it: every reachable position was searched"
            ),
        }
    }
}

/// A vector over the integers modulo 3 indexed by slot (at most 64): bit
/// `i` of `one` is set when entry `i` is 1, of `two` when it is 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tri {
    one: u64,
    two: u64,
}

impl Tri {
    fn get(self, i: usize) -> u8 {
        u8::from(self.one >> i & 1 == 1) + 2 * u8::from(self.two >> i & 1 == 1)
    }

    fn set(&mut self, i: usize, v: u8) {
        self.one &= !(1 << i);
        self.two &= !(1 << i);
        match v % 3 {
            1 => self.one |= 1 << i,
            2 => self.two |= 1 << i,
            _ => {}
        }
    }

    /// Entry-wise sum modulo 3 (bit-sliced).
    fn add(self, o: Tri) -> Tri {
        let t = (self.one | o.two) ^ (self.two | o.one);
        Tri {
            one: (self.two | o.two) ^ t,
            two: (self.one | o.one) ^ t,
        }
    }

    /// `k` times this vector.
    fn scale(self, k: u8) -> Tri {
        match k % 3 {
            0 => Tri::default(),
            1 => self,
            _ => Tri {
                one: self.two,
                two: self.one,
            },
        }
    }

    fn is_zero(self) -> bool {
        self.one | self.two == 0
    }

    /// The total weight of the stones of `walls` (one stone a cell) and
    /// `towers` (two), modulo 3.
    fn weigh(self, walls: u64, towers: u64) -> u8 {
        let w = |m: u64| (m & self.one).count_ones() + 2 * (m & self.two).count_ones();
        ((w(walls) + 2 * w(towers)) % 3) as u8
    }
}

/// A basis of the weightings `w` of the cells modulo 3 with
/// `w(s) + w(a) + w(b) = 0` on every sowing line `s, a, b` and `w = 0` on
/// the first cell. A sowing from `s` onto `a` and `b` changes the stones'
/// total weight by `w(a) + w(b) - 2 w(s) = w(s) + w(a) + w(b) = 0` (mod 3),
/// so without sacrifice each such total is fixed; the constant weighting
/// (also fixed) only counts the stones and is left out by the second
/// condition.
pub(crate) fn line_invariants(board: &Board) -> Vec<Tri> {
    if board.slots() > MAX_SLOTS {
        return Vec::new();
    }
    let cells: Vec<usize> = board.geometry.cells().collect();
    let Some(&first) = cells.first() else {
        return Vec::new();
    };
    // Gauss-Jordan elimination: (pivot, row) with a 1 in the pivot column
    // and 0 in every other row's pivot column.
    let mut rows: Vec<(usize, Tri)> = Vec::new();
    let mut add_row = |mut r: Tri| {
        for &(p, row) in &rows {
            r = r.add(row.scale(3 - r.get(p)));
        }
        if r.is_zero() {
            return;
        }
        let p = (r.one | r.two).trailing_zeros() as usize;
        r = r.scale(r.get(p));
        for (_, row) in &mut rows {
            *row = row.add(r.scale(3 - row.get(p)));
        }
        rows.push((p, r));
    };
    let mut pin = Tri::default();
    pin.set(first, 1);
    add_row(pin);
    for &s in &cells {
        for &(a, b) in board.lines(s) {
            let mut r = Tri::default();
            for x in [s, a as usize, b as usize] {
                r.set(x, 1);
            }
            add_row(r);
        }
    }
    let pivots: u64 = rows.iter().fold(0, |m, &(p, _)| m | 1 << p);
    cells
        .iter()
        .filter(|&&j| pivots & 1 << j == 0)
        .map(|&j| {
            let mut v = Tri::default();
            v.set(j, 1);
            for &(p, row) in &rows {
                v.set(p, 3 - row.get(j));
            }
            v
        })
        .collect()
}

/// Whether `w` weighs every sowing line's three cells 0 together.
fn is_invariant(board: &Board, w: Tri) -> bool {
    board.geometry.cells().all(|s| {
        board
            .lines(s)
            .iter()
            .all(|&(a, b)| (w.get(s) + w.get(a as usize) + w.get(b as usize)) % 3 == 0)
    })
}

/// The stones of one position, as bit sets per colour.
struct Stones {
    /// Per colour: cells holding a wall, cells holding a tower.
    walls: Vec<u64>,
    towers: Vec<u64>,
    /// Per colour: the stone count.
    count: Vec<u32>,
    /// Per colour: the cells that may ever hold a tower of that colour
    /// (a superset): the start's towers and every cell a line from such a
    /// cell lands on, closed.
    may_tower: Vec<u64>,
    /// Per colour: the cells that may ever hold a stone of that colour.
    may_stone: Vec<u64>,
}

impl Stones {
    fn new(p: &Puzzle, s: &State) -> Stones {
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

    fn colours(&self) -> usize {
        self.count.len()
    }

    fn present(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.colours()).filter(|&k| self.count[k] > 0)
    }

    /// Whether a `j` tower and a `k` wall, or a `k` tower and a `j` wall,
    /// may ever stand side by side.
    fn may_meet(&self, b: &Board, j: usize, k: usize) -> bool {
        around(b, self.may_tower[j]) & self.may_stone[k] != 0
            || around(b, self.may_tower[k]) & self.may_stone[j] != 0
    }
}

/// The cells the lines from the cells of `from` land on.
fn landings(b: &Board, from: u64) -> u64 {
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
fn around(b: &Board, from: u64) -> u64 {
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

fn names(b: &Board, mut m: u64) -> Vec<String> {
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
fn pairable(st: &Stones, b: &Board, k: u32) -> Option<bool> {
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
fn allowed_colours(st: &Stones, t: usize) -> u8 {
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
fn colours_share(st: &Stones, b: &Board, targets: &[usize], allowed: &[u8]) -> Option<bool> {
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

/// The first cheap necessary condition for solving `s` that it fails, as a
/// proof that `s` can never be solved; `None` when every one holds (which
/// proves nothing). Call it on positions that are not solved yet.
pub fn refute(p: &Puzzle, s: &State) -> Option<Reason> {
    let b = &p.board;
    if b.slots() > MAX_SLOTS || p.targets.len() < b.slots() {
        return None;
    }
    let cells = b.geometry.cells().fold(0u64, |m, c| m | 1 << c);
    let targets = b
        .geometry
        .cells()
        .filter(|&c| p.targets[c])
        .fold(0u64, |m, c| m | 1 << c);
    let n_targets = targets.count_ones();
    let stones = s.stones();
    let st = Stones::new(p, s);
    let letter = |k: usize| p.colours.get(k).copied().unwrap_or('?');
    // Stone counts. No move adds a stone, so a solution needs N >= T.
    if stones < n_targets {
        return Some(Reason::TooFewStones {
            stones,
            targets: n_targets,
        });
    }
    // Only a sacrifice removes stones, and it needs a tower and a wall of
    // two different colours: without that, N = T.
    let can_sacrifice = p.sacrifice && st.present().count() >= 2;
    if stones > n_targets && !can_sacrifice {
        return Some(Reason::StonesLeftOver {
            stones,
            targets: n_targets,
            one_colour: p.sacrifice,
        });
    }
    // A sacrifice removes exactly two stones: N - T = 2k for k sacrifices.
    if (stones - n_targets) % 2 == 1 {
        return Some(Reason::OddExcess {
            stones,
            targets: n_targets,
        });
    }
    let k = (stones - n_targets) / 2;
    // Each of the k sacrifices removes one stone of each of two colours
    // whose tower and wall stand side by side at that moment.
    if k > 0 && pairable(&st, b, k) == Some(false) {
        let present: Vec<usize> = st.present().collect();
        let mut apart = Vec::new();
        for (i, &x) in present.iter().enumerate() {
            for &y in &present[i + 1..] {
                if !st.may_meet(b, x, y) {
                    apart.push((letter(x), letter(y)));
                }
            }
        }
        return Some(Reason::Pairing {
            sacrifices: k,
            stones: present.iter().map(|&x| (letter(x), st.count[x])).collect(),
            apart,
        });
    }
    // From here on, `sacrifice` says whether a solution plays any (exactly
    // k of them).
    let sacrifice = k > 0;
    // The last move: a sowing leaves its tower's cell empty, so that cell is
    // no target, and lands on two cells that end with one stone each, so
    // two targets; a sacrifice empties its wall's cell (no target) and
    // leaves a wall on its tower's cell (a target).
    let any_tower = st.may_tower.iter().fold(0, |m, t| m | t);
    let last_sowing = {
        let mut m = any_tower & cells & !targets;
        let mut found = false;
        while m != 0 && !found {
            let from = m.trailing_zeros() as usize;
            m &= m - 1;
            found = b
                .lines(from)
                .iter()
                .any(|&(x, y)| targets & 1 << x != 0 && targets & 1 << y != 0);
        }
        found
    };
    let last_sacrifice = sacrifice
        && (0..st.colours()).any(|x| {
            (0..st.colours()).any(|y| {
                x != y
                    && around(b, st.may_tower[x] & targets) & st.may_stone[y] & cells & !targets
                        != 0
            })
        });
    if !last_sowing && !last_sacrifice {
        return Some(Reason::NoLastMove {
            all_targets: cells & !targets == 0,
            sacrifice,
        });
    }
    // Every target ends with a stone, which some colour must bring there.
    let any_stone = st.may_stone.iter().fold(0, |m, t| m | t);
    if targets & !any_stone != 0 {
        return Some(Reason::Unreachable {
            cells: names(b, targets & !any_stone),
        });
    }
    // A wall on a cell that is no target must leave: it leaves only as a
    // tower (a stone of its colour lands on it) or by a sacrifice against
    // it (a tower of another colour beside it).
    for x in 0..st.colours() {
        let mut stranded = st.walls[x] & !targets & !st.may_tower[x];
        if sacrifice {
            let others = (0..st.colours())
                .filter(|&y| y != x)
                .fold(0, |m, y| m | st.may_tower[y]);
            stranded &= !around(b, others);
        }
        if stranded != 0 {
            return Some(Reason::StrandedWall {
                cell: b.name(stranded.trailing_zeros() as usize),
                colour: letter(x),
                sacrifice,
            });
        }
    }
    // Every tower must leave its cell in a solution (no tower is left at
    // the end); see `stuck_towers` for why these never can.
    let stuck = stuck_towers(p, s, sacrifice);
    if stuck != 0 {
        return Some(Reason::StuckTowers {
            cells: names(b, stuck),
            sacrifice,
        });
    }
    if sacrifice {
        return None;
    }
    // Without sacrifice every stone stays, keeps its colour and ends alone
    // on a target, so each colour needs as many targets it may reach as it
    // has stones; together (Hall's condition) for every set of colours.
    let target_list: Vec<usize> = b.geometry.cells().filter(|&c| p.targets[c]).collect();
    let mut allowed = vec![0u8; b.slots()];
    for &t in &target_list {
        allowed[t] = allowed_colours(&st, t);
    }
    let present: Vec<usize> = st.present().collect();
    for set in 1u32..(1 << present.len()) {
        let chosen: Vec<usize> = (0..present.len())
            .filter(|i| set & 1 << i != 0)
            .map(|i| present[i])
            .collect();
        let mask = chosen.iter().fold(0u8, |m, &k| m | 1 << k);
        let need: u32 = chosen.iter().map(|&k| st.count[k]).sum();
        let room: Vec<usize> = target_list
            .iter()
            .copied()
            .filter(|&t| allowed[t] & mask != 0)
            .collect();
        if need > room.len() as u32 {
            return Some(Reason::Crowded {
                colours: chosen.iter().map(|&k| letter(k)).collect(),
                stones: need,
                targets: room.iter().map(|&t| b.name(t)).collect(),
            });
        }
    }
    // Weights modulo 3 that no sowing changes (see `line_invariants`): the
    // stones' total now equals the targets' total at the end. Files and
    // ranks first, as they are easy to read.
    let all_walls = st.walls.iter().fold(0, |m, w| m | w);
    let all_towers = st.towers.iter().fold(0, |m, t| m | t);
    let g = &b.geometry;
    let by = |f: &dyn Fn(usize) -> usize| {
        let mut w = Tri::default();
        for c in g.cells() {
            w.set(c, (f(c) % 3) as u8);
        }
        w
    };
    let files = by(&|c| g.coords(c).0 + 1);
    let ranks = by(&|c| g.coords(c).1 + 1);
    let candidates = [
        (Some(Weighing::Files), files),
        (Some(Weighing::Ranks), ranks),
    ]
    .into_iter()
    .filter(|&(_, w)| is_invariant(b, w))
    .chain(b.invariants().iter().map(|&w| (None, w)));
    for (weighing, w) in candidates {
        let (now, end) = (w.weigh(all_walls, all_towers), w.weigh(targets, 0));
        if now != end {
            let weighing = weighing.unwrap_or_else(|| Weighing::Cells {
                one: names(b, w.one),
                two: names(b, w.two),
            });
            return Some(Reason::Weights {
                weighing,
                stones: now,
                targets: end,
            });
        }
    }
    // The same for each colour on its own, as a colour's sowings move only
    // its stones, with every colour's count and allowed targets.
    if present.len() >= 2 && colours_share(&st, b, &target_list, &allowed) == Some(false) {
        return Some(Reason::ColourWeights);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tri_addition_is_addition_modulo_3() {
        for x in 0..3 {
            for y in 0..3 {
                let mut a = Tri::default();
                let mut b = Tri::default();
                a.set(5, x);
                b.set(5, y);
                assert_eq!(a.add(b).get(5), (x + y) % 3, "{x} + {y}");
                assert_eq!(a.scale(y).get(5), (x * y) % 3, "{x} * {y}");
            }
        }
    }

    #[test]
    fn line_invariants_weigh_every_line_zero_and_span_files_and_ranks() {
        for text in [
            "5x5",
            "3x3",
            "8x7",
            "hex 3",
            "5x1",
            "rect 6 x 5 without cells a1",
        ] {
            let b = Board::parse(text).expect("board");
            let inv = b.invariants();
            for &w in inv {
                assert!(is_invariant(&b, w), "{text}");
                assert!(!w.is_zero(), "{text}");
            }
            // Files and ranks (shifted to vanish on the first cell) lie in
            // the span: adding them to the basis leaves its rank unchanged.
            let first = b.geometry.cells().next().expect("a cell");
            let (x0, y0) = b.geometry.coords(first);
            for f in [0, 1] {
                let mut w = Tri::default();
                for c in b.geometry.cells() {
                    let (x, y) = b.geometry.coords(c);
                    let v = if f == 0 {
                        3 + x - x0 % 3
                    } else {
                        3 + y - y0 % 3
                    };
                    w.set(c, (v % 3) as u8);
                }
                assert!(is_invariant(&b, w), "{text}");
                assert!(
                    in_span(inv, w),
                    "{text}: {}",
                    if f == 0 { "files" } else { "ranks" }
                );
            }
        }
        // A full rectangle has no others.
        assert_eq!(Board::parse("5x5").expect("board").invariants().len(), 2);
    }

    /// Whether `w` is a combination of `basis` (brute force over the
    /// coefficients; small bases only).
    fn in_span(basis: &[Tri], w: Tri) -> bool {
        let n = basis.len();
        assert!(n <= 8);
        (0..3usize.pow(n as u32)).any(|mut code| {
            let mut v = Tri::default();
            for &b in basis {
                v = v.add(b.scale((code % 3) as u8));
                code /= 3;
            }
            v == w
        })
    }
}
