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

mod reason;
mod stones;

use crate::board::weights::{Tri, is_invariant};
use crate::board::{MAX_SLOTS, State};
use crate::bound::stuck_towers;
use crate::puzzle::Puzzle;

pub use reason::{Reason, Weighing};
use stones::{Stones, allowed_colours, around, colours_share, names, pairable};

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
