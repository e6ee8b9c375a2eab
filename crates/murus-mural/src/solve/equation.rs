//! The state equation: with `x(line)` the times a tower sows along `line`,
//! every solution keeps, per cell, `stones + landed − 2·sown = goal`; the
//! least integer `Σ x` is a lower bound on the moves left, and on the
//! random murals of the bench it is the optimum itself four times in five.
//! Its solution is also a multiset of moves that often can be played in
//! some order, which then is an optimal solution found without a search.
//!
//! One colour, no sacrifice (the equation per colour would need the
//! colours' lines apart, and a sacrifice removes stones).

use super::simplex::{Kind, Row, minimise};
use crate::board::{MuralMove, State};
use crate::puzzle::Puzzle;

/// The integer program's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Answer {
    /// The least number of sowings and one multiset of sowings reaching it,
    /// as counts per line (see [`Equation::line`]).
    Least(u32, Vec<u32>),
    /// No multiset of sowings balances the stones: no solution.
    None,
    /// The branch and bound ran out of nodes.
    Unknown,
}

/// The lines of a board and the program's fixed rows.
pub(super) struct Equation {
    /// `(from, a, b)` slots.
    lines: Vec<(usize, usize, usize)>,
    cells: Vec<usize>,
}

struct Branch {
    /// Per cell (index into `cells`): bounds on the sowings from it.
    out_lo: Vec<u32>,
    out_hi: Vec<u32>,
    /// Per line: bounds on its count.
    x_lo: Vec<u32>,
    x_hi: Vec<u32>,
}

impl Equation {
    /// `None` where the equation does not apply (several colours, or
    /// sacrifice).
    pub(super) fn new(p: &Puzzle) -> Option<Equation> {
        if p.sacrifice || p.colours.len() != 1 {
            return None;
        }
        let cells: Vec<usize> = p.board.geometry.cells().collect();
        let mut lines = Vec::new();
        for &u in &cells {
            for &(a, b) in p.board.lines(u) {
                lines.push((u, a as usize, b as usize));
            }
        }
        Some(Equation { lines, cells })
    }

    /// The sowing of line `j`.
    pub(super) fn line(&self, j: usize) -> MuralMove {
        let (u, a, b) = self.lines[j];
        MuralMove::Sow {
            from: u as u8,
            near: a as u8,
            far: b as u8,
        }
    }

    /// The least integer number of sowings from `s`, by branch and bound
    /// over the linear program (branching first on a cell's sowings, then
    /// on a line's, deepening on the value), within `max_nodes` programs;
    /// also the programs solved.
    pub(super) fn least(&self, p: &Puzzle, s: &State, max_nodes: u32) -> (Answer, u32) {
        self.least_within(p, s, &[], None, max_nodes)
    }

    /// [`Self::least`] with rows `cuts` added, and with `exactly`, a single
    /// pass for a solution of at most that many sowings.
    pub(super) fn least_within(
        &self,
        p: &Puzzle,
        s: &State,
        cuts: &[Row],
        exactly: Option<u32>,
        max_nodes: u32,
    ) -> (Answer, u32) {
        let nc = self.cells.len();
        let mut row_of = vec![usize::MAX; p.board.slots()];
        for (i, &c) in self.cells.iter().enumerate() {
            row_of[c] = i;
        }
        let mut base = Vec::with_capacity(nc);
        for &c in &self.cells {
            let h = s.get(c).map_or(0, |(_, h)| i64::from(h));
            let g = i64::from(p.targets[c]);
            let mut entries = Vec::new();
            for (j, &(u, a, b)) in self.lines.iter().enumerate() {
                let v = if u == c {
                    -2.0
                } else if a == c || b == c {
                    1.0
                } else {
                    continue;
                };
                entries.push((j, v));
            }
            base.push(Row {
                entries,
                kind: Kind::Eq,
                rhs: (g - h) as f64,
            });
        }
        let conserving = base.len();
        base.extend_from_slice(cuts);
        let mut out_lo = vec![0u32; nc];
        for (i, &c) in self.cells.iter().enumerate() {
            let mover = match s.get(c) {
                Some((_, 2)) => true,
                Some(_) => !p.targets[c],
                None => false,
            };
            out_lo[i] = u32::from(mover);
        }
        let n = self.lines.len();
        let branch = Branch {
            out_lo,
            out_hi: vec![u32::MAX; nc],
            x_lo: vec![0; n],
            x_hi: vec![u32::MAX; n],
        };
        let mut search = Bb {
            eq: self,
            base: &base,
            conserving,
            row_of: &row_of,
            best: None,
            nodes: 0,
            max_nodes,
            out_of_nodes: false,
            cutoff: u32::MAX,
            cut: false,
            next: u32::MAX,
        };
        // Deepening on the value: each pass looks for a solution of at most
        // `cutoff` sowings and stops at the first; a pass that cut nothing
        // proves there is none at all.
        search.cutoff = exactly.unwrap_or(0);
        loop {
            search.cut = false;
            search.next = u32::MAX;
            search.go(&branch);
            if search.best.is_some() || search.out_of_nodes || !search.cut || exactly.is_some() {
                break;
            }
            search.cutoff = search.next.max(search.cutoff + 1);
        }
        let answer = match (search.best, search.out_of_nodes) {
            (Some((v, x)), false) => Answer::Least(v, x),
            (None, false) => Answer::None,
            (_, true) => Answer::Unknown,
        };
        (answer, search.nodes)
    }
}

struct Bb<'e> {
    eq: &'e Equation,
    base: &'e [Row],
    /// The conservation rows, first in `base`.
    conserving: usize,
    row_of: &'e [usize],
    best: Option<(u32, Vec<u32>)>,
    nodes: u32,
    max_nodes: u32,
    out_of_nodes: bool,
    /// The pass's largest value wanted, whether it cut a branch above it,
    /// and the least value cut.
    cutoff: u32,
    cut: bool,
    next: u32,
}

impl Bb<'_> {
    fn go(&mut self, br: &Branch) {
        if self.best.is_some() {
            return;
        }
        if self.nodes >= self.max_nodes {
            self.out_of_nodes = true;
            return;
        }
        self.nodes += 1;
        let eq = self.eq;
        let n = eq.lines.len();
        let mut rows = self.base.to_vec();
        for (i, &c) in eq.cells.iter().enumerate() {
            let from: Vec<(usize, f64)> = eq
                .lines
                .iter()
                .enumerate()
                .filter(|(_, l)| l.0 == c)
                .map(|(j, _)| (j, 1.0))
                .collect();
            if from.is_empty() {
                if br.out_lo[i] > 0 {
                    return;
                }
                continue;
            }
            if br.out_lo[i] > 0 {
                rows.push(Row {
                    entries: from.clone(),
                    kind: Kind::Ge,
                    rhs: f64::from(br.out_lo[i]),
                });
            }
            if br.out_hi[i] != u32::MAX {
                rows.push(Row {
                    entries: from,
                    kind: Kind::Le,
                    rhs: f64::from(br.out_hi[i]),
                });
            }
        }
        for j in 0..n {
            if br.x_lo[j] > 0 {
                rows.push(Row {
                    entries: vec![(j, 1.0)],
                    kind: Kind::Ge,
                    rhs: f64::from(br.x_lo[j]),
                });
            }
            if br.x_hi[j] != u32::MAX {
                rows.push(Row {
                    entries: vec![(j, 1.0)],
                    kind: Kind::Le,
                    rhs: f64::from(br.x_hi[j]),
                });
            }
        }
        let Some((value, x)) = minimise(&vec![1.0; n], &rows) else {
            return;
        };
        let floor = (value - 1e-6).ceil().max(0.0) as u32;
        if floor > self.cutoff {
            self.cut = true;
            self.next = self.next.min(floor);
            return;
        }
        // The most fractional cell, else the most fractional line.
        let frac = |v: f64| (v - v.round()).abs();
        let mut out = vec![0.0; eq.cells.len()];
        for (j, &(u, _, _)) in eq.lines.iter().enumerate() {
            out[self.row_of[u]] += x[j];
        }
        let cell = (0..out.len())
            .filter(|&i| frac(out[i]) > 1e-6)
            .max_by(|&a, &b| frac(out[a]).total_cmp(&frac(out[b])));
        if let Some(i) = cell {
            let f = out[i].floor() as u32;
            let mut up = clone(br);
            up.out_lo[i] = f + 1;
            self.go(&up);
            let mut down = clone(br);
            down.out_hi[i] = f;
            if down.out_hi[i] >= down.out_lo[i] {
                self.go(&down);
            }
            return;
        }
        let line = (0..n)
            .filter(|&j| frac(x[j]) > 1e-6)
            .max_by(|&a, &b| frac(x[a]).total_cmp(&frac(x[b])));
        if let Some(j) = line {
            let f = x[j].floor() as u32;
            let mut up = clone(br);
            up.x_lo[j] = f + 1;
            self.go(&up);
            let mut down = clone(br);
            down.x_hi[j] = f;
            if down.x_hi[j] >= down.x_lo[j] {
                self.go(&down);
            }
            return;
        }
        let counts: Vec<u32> = x.iter().map(|v| v.round() as u32).collect();
        if !self.balances(&counts) {
            // Rounding went wrong: trust nothing from here.
            self.out_of_nodes = true;
            return;
        }
        let total: u32 = counts.iter().sum();
        if total <= self.cutoff {
            self.best = Some((total, counts));
        } else {
            self.cut = true;
            self.next = self.next.min(total);
        }
    }
}

impl Bb<'_> {
    /// Whether `counts` balances every cell exactly (integers).
    fn balances(&self, counts: &[u32]) -> bool {
        self.base[..self.conserving].iter().all(|r| {
            let sum: f64 = r
                .entries
                .iter()
                .map(|&(j, v)| v * f64::from(counts[j]))
                .sum();
            sum == r.rhs
        })
    }
}

fn clone(b: &Branch) -> Branch {
    Branch {
        out_lo: b.out_lo.clone(),
        out_hi: b.out_hi.clone(),
        x_lo: b.x_lo.clone(),
        x_hi: b.x_hi.clone(),
    }
}

/// A row that no multiset of sowings with the support of `counts` and
/// `total` sowings meets: a way to ask for another multiset (it excludes
/// more than `counts`, so it only serves to look for more candidates, never
/// in a proof).
pub(super) fn another(counts: &[u32], total: u32) -> Row {
    Row {
        entries: counts
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .map(|(j, _)| (j, 1.0))
            .collect(),
        kind: Kind::Le,
        rhs: f64::from(total) - 1.0,
    }
}

/// An order in which the sowings `counts` (per line) can be played from
/// `s`, if there is one: a depth-first search over the multiset, each
/// position once.
pub(super) fn sequence(
    eq: &Equation,
    p: &Puzzle,
    s: &State,
    counts: &[u32],
    max_nodes: u32,
) -> (Option<Vec<MuralMove>>, u32) {
    let mut left = counts.to_vec();
    let mut seen = std::collections::HashSet::new();
    let mut path = Vec::new();
    let mut nodes = 0;
    let mut state = s.clone();
    let found = order(
        eq, p, &mut state, &mut left, &mut seen, &mut path, &mut nodes, max_nodes,
    );
    (found.then_some(path), nodes)
}

#[allow(clippy::too_many_arguments)]
fn order(
    eq: &Equation,
    p: &Puzzle,
    s: &mut State,
    left: &mut [u32],
    seen: &mut std::collections::HashSet<crate::board::Key>,
    path: &mut Vec<MuralMove>,
    nodes: &mut u32,
    max_nodes: u32,
) -> bool {
    if left.iter().all(|&c| c == 0) {
        return s.is_solved(&p.targets);
    }
    *nodes += 1;
    if *nodes > max_nodes || !seen.insert(s.key()) {
        return false;
    }
    for j in 0..left.len() {
        if left[j] == 0 {
            continue;
        }
        let (u, a, b) = eq.lines[j];
        let ok = matches!(s.get(u), Some((_, 2)))
            && s.get(a).is_none_or(|(_, h)| h < 2)
            && s.get(b).is_none_or(|(_, h)| h < 2);
        if !ok {
            continue;
        }
        let m = eq.line(j);
        let (colour, _) = s.get(u).expect("a tower");
        s.apply(m);
        left[j] -= 1;
        path.push(m);
        if order(eq, p, s, left, seen, path, nodes, max_nodes) {
            return true;
        }
        path.pop();
        left[j] += 1;
        s.undo(m, colour, None);
    }
    false
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::board::Board;

    fn doc_example() -> Puzzle {
        Puzzle::from_toml(
            "title = \"t\"\nboard = \"5x1\"\nstart = \"1r2r22\"\ntargets = [\"a1\", \"c1\", \"d1\", \"e1\"]\n",
        )
        .unwrap()
    }

    /// The crate's doc example: the least multiset has the optimum's five
    /// sowings, and played in order they solve it.
    #[test]
    fn the_doc_example_balances_in_five_and_plays() {
        let p = doc_example();
        let eq = Equation::new(&p).expect("one colour, no sacrifice");
        let (answer, programs) = eq.least(&p, &p.start, 1000);
        assert!(programs >= 1);
        let Answer::Least(v, counts) = answer else {
            panic!("{answer:?}")
        };
        assert_eq!(v, 5);
        assert_eq!(counts.iter().sum::<u32>(), 5);
        let (moves, _) = sequence(&eq, &p, &p.start, &counts, 1000);
        let moves = moves.expect("an order exists");
        let mut s = p.start.clone();
        for m in &moves {
            s.apply(*m);
        }
        assert!(s.is_solved(&p.targets));
        // A cut that excludes its support leaves no other multiset of five.
        let cut = another(&counts, v);
        let (next, _) = eq.least_within(&p, &p.start, &[cut], Some(v), 1000);
        assert!(!matches!(next, Answer::Least(5, _)), "{next:?}");
    }

    /// Several colours or sacrifice: the equation does not apply.
    #[test]
    fn it_applies_to_one_colour_without_sacrifice() {
        let mut p = doc_example();
        p.sacrifice = true;
        assert!(Equation::new(&p).is_none());
        let mut p = doc_example();
        p.colours = vec!['r', 'g'];
        assert!(Equation::new(&p).is_none());
    }

    /// Random playouts on 5x5, their end the goal: the least multiset is
    /// never longer than the playout, and its sowings, when they can be
    /// ordered, solve the mural in that many moves.
    #[test]
    fn the_least_size_never_exceeds_a_playout_and_its_orders_solve() {
        let board = Board::parse("5x5").unwrap();
        let mut rng = SmallRng::seed_from_u64(11);
        let (mut checked, mut ordered) = (0, 0);
        while checked < 40 {
            let mut start = State::empty(board.slots());
            for _ in 0..rng.random_range(3..9) {
                let c = rng.random_range(0..25);
                start.set(c, Some((0, rng.random_range(1..=2))));
            }
            let mut s = start.clone();
            let mut moves = Vec::new();
            let mut played = 0u32;
            loop {
                s.moves(&board, false, &mut moves);
                if moves.is_empty() {
                    break;
                }
                s.apply(moves[rng.random_range(0..moves.len())]);
                played += 1;
            }
            if s.towers().next().is_some() || played == 0 {
                continue;
            }
            let p = Puzzle {
                title: String::new(),
                author: String::new(),
                board: board.clone(),
                colours: vec!['r'],
                sacrifice: false,
                start: start.clone(),
                targets: (0..25).map(|c| s.get(c).is_some()).collect(),
                notes: None,
                optimal: None,
                difficulty: None,
            };
            let eq = Equation::new(&p).unwrap();
            let Answer::Least(v, counts) = eq.least(&p, &start, 5000).0 else {
                panic!("a played mural balances\n{}", p.to_toml())
            };
            assert!(v <= played, "{v} > {played}\n{}", p.to_toml());
            if let (Some(order), _) = sequence(&eq, &p, &start, &counts, 100_000) {
                assert_eq!(order.len() as u32, v);
                let mut t = start.clone();
                for m in order {
                    t.apply(m);
                }
                assert!(t.is_solved(&p.targets));
                ordered += 1;
            }
            checked += 1;
        }
        assert!(ordered > 20, "only {ordered} of 40 ordered");
    }
}
