//! The state equation: with `x(line)` the times a tower sows along `line`,
//! every solution keeps, per cell, `stones + landed − 2·sown = goal`; the
//! least integer `Σ x` is a lower bound on the moves left, and on the
//! random murals of the bench it is the optimum itself four times in five.
//! Its solution is also a multiset of moves that often can be played in
//! some order, which then is an optimal solution found without a search.
//!
//! One colour, no sacrifice (the equation per colour would need the
//! colours' lines apart, and a sacrifice removes stones).

use super::simplex::{Fail, Kind, Root, Row, Tableau};
use crate::board::{MuralMove, State};
use crate::puzzle::Puzzle;

/// The largest board the equation is used on: its programs grow with the
/// board (a row per cell and per mover, a column per line: on 8x7 a tableau
/// ten times 5x5's, and degenerate on a sparse mural), while the search
/// alone solves the larger boards' murals in milliseconds.
const MAX_CELLS: usize = 36;

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
    /// Per slot: the index of its first line.
    first: Vec<usize>,
    /// Per cell (index into `cells`): its lines.
    from: Vec<Vec<usize>>,
    /// Per cell: its balance row's entries (`-2` on its lines, `1` on the
    /// lines that land on it).
    conservation: Vec<Vec<(usize, f64)>>,
    /// Per slot: its index in `cells`.
    row_of: Vec<usize>,
}

/// What [`Equation::least_within`] found: the answer, the programs it
/// solved, and, when it had no cuts, its first program solved (for the next
/// call to start from) and that program's dual (see [`Dual`]).
pub(super) struct Least {
    pub(super) answer: Answer,
    pub(super) programs: u32,
    pub(super) root: Option<Root>,
    pub(super) dual: Option<Dual>,
}

/// Whether the stack on `c` must still sow: a tower, or a wall off a target.
fn is_mover(p: &Puzzle, s: &State, c: usize) -> bool {
    match s.get(c) {
        Some((_, 2)) => true,
        Some(_) => !p.targets[c],
        None => false,
    }
}

impl Equation {
    /// `None` where the equation does not apply (several colours, or
    /// sacrifice).
    pub(super) fn new(p: &Puzzle) -> Option<Equation> {
        if p.sacrifice || p.colours.len() != 1 || p.board.geometry.cells().count() > MAX_CELLS {
            return None;
        }
        let cells: Vec<usize> = p.board.geometry.cells().collect();
        let mut lines = Vec::new();
        let mut first = vec![0; p.board.slots()];
        for &u in &cells {
            first[u] = lines.len();
            for &(a, b) in p.board.lines(u) {
                lines.push((u, a as usize, b as usize));
            }
        }
        let from = cells
            .iter()
            .map(|&c| (first[c]..first[c] + p.board.lines(c).len()).collect())
            .collect();
        let conservation = cells
            .iter()
            .map(|&c| {
                lines
                    .iter()
                    .enumerate()
                    .filter_map(|(j, &(u, a, b))| {
                        if u == c {
                            Some((j, -2.0))
                        } else if a == c || b == c {
                            Some((j, 1.0))
                        } else {
                            None
                        }
                    })
                    .collect()
            })
            .collect();
        let mut row_of = vec![usize::MAX; p.board.slots()];
        for (i, &c) in cells.iter().enumerate() {
            row_of[c] = i;
        }
        Some(Equation {
            lines,
            cells,
            first,
            from,
            conservation,
            row_of,
        })
    }

    /// A program's row duals as a [`Dual`], if they are feasible (to a
    /// hair: rounding could otherwise make the bound too high).
    fn dual(&self, duals: &[f64], movers: &[(usize, usize)]) -> Option<Dual> {
        let slots = self.row_of.len();
        let mut w = vec![0.0; slots];
        let mut mover = vec![0.0; slots];
        for (i, &c) in self.cells.iter().enumerate() {
            w[c] = duals[i];
        }
        for &(r, c) in movers {
            mover[c] = duals[r].max(0.0);
        }
        for &(u, a, b) in &self.lines {
            if w[a] + w[b] - 2.0 * w[u] + mover[u] > 1.0 + 1e-9 {
                return None;
            }
        }
        Some(Dual { w, mover })
    }

    /// A lower bound on the least multiset at `s`, from a dual.
    pub(super) fn dual_bound(&self, p: &Puzzle, s: &State, d: &Dual) -> u32 {
        let mut v = 0.0;
        for &c in &self.cells {
            let h = s.get(c).map_or(0, |(_, h)| h);
            v += d.w[c] * (f64::from(u8::from(p.targets[c])) - f64::from(h));
            if is_mover(p, s, c) {
                v += d.mover[c];
            }
        }
        (v - 1e-6).ceil().max(0.0) as u32
    }

    /// The line of sowing `m` (`None` for a sacrifice).
    pub(super) fn index(&self, p: &Puzzle, m: MuralMove) -> Option<usize> {
        let MuralMove::Sow { from, near, far } = m else {
            return None;
        };
        let at = p
            .board
            .lines(from as usize)
            .iter()
            .position(|&l| l == (near, far))?;
        Some(self.first[from as usize] + at)
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
    pub(super) fn least(&self, p: &Puzzle, s: &State, max_nodes: u32) -> Least {
        self.least_within(p, s, &[], None, max_nodes, None)
    }

    /// [`Self::least`] with rows `cuts` added, with `exactly`, a single
    /// pass for a solution of at most that many sowings, and without cuts
    /// started from `warm`, another state's first program solved.
    pub(super) fn least_within(
        &self,
        p: &Puzzle,
        s: &State,
        cuts: &[Row],
        exactly: Option<u32>,
        max_nodes: u32,
        warm: Option<&Root>,
    ) -> Least {
        let settled = |answer, programs| Least {
            answer,
            programs,
            root: None,
            dual: None,
        };
        let rhs_conserving: Vec<f64> = self
            .cells
            .iter()
            .map(|&c| {
                let h = s.get(c).map_or(0, |(_, h)| i64::from(h));
                (i64::from(p.targets[c]) - h) as f64
            })
            .collect();
        // The root program: every tower and every wall off a target sows
        // at least once (a row per cell, `≥ 0` for the others, so that
        // every state's program has the same rows and the last one's
        // tableau solves the next by a few dual pivots).
        let mut rhs = rhs_conserving.clone();
        rhs.extend(cuts.iter().map(|r| r.rhs));
        let mut movers = Vec::new();
        for (i, &c) in self.cells.iter().enumerate() {
            let mover = is_mover(p, s, c);
            if self.from[i].is_empty() {
                if mover {
                    return settled(Answer::None, 0);
                }
                continue;
            }
            movers.push((rhs.len(), c));
            rhs.push(f64::from(u8::from(mover)));
        }
        if max_nodes == 0 {
            return settled(Answer::Unknown, 0);
        }
        let n = self.lines.len();
        let cost = vec![1.0; n];
        let warm = warm.filter(|_| cuts.is_empty()).map(|w| w.resolve(&rhs));
        let solved = match warm {
            Some(Ok(root)) => Ok(root),
            Some(Err(Fail::Infeasible)) => Err(Fail::Infeasible),
            // Cold, when there is nothing to start from or the warm start
            // gave up.
            _ => {
                let mut rows: Vec<Row> = self
                    .conservation
                    .iter()
                    .zip(&rhs_conserving)
                    .map(|(e, &b)| Row {
                        entries: e.clone(),
                        kind: Kind::Eq,
                        rhs: b,
                    })
                    .collect();
                rows.extend_from_slice(cuts);
                for &(r, c) in &movers {
                    rows.push(Row {
                        entries: self.from[self.row_of[c]]
                            .iter()
                            .map(|&j| (j, 1.0))
                            .collect(),
                        kind: Kind::Ge,
                        rhs: rhs[r],
                    });
                }
                Root::solve(&cost, &rows)
            }
        };
        let root = match solved {
            Ok(root) => root,
            Err(Fail::Infeasible) => return settled(Answer::None, 1),
            Err(Fail::GaveUp) => return settled(Answer::Unknown, 1),
        };
        let optimum = root.optimum();
        let (root, dual) = if cuts.is_empty() {
            (Some(root), self.dual(&optimum.duals, &movers))
        } else {
            (None, None)
        };
        let mut search = Bb {
            eq: self,
            rhs: &rhs_conserving,
            best: None,
            nodes: 1,
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
            search.go(&optimum.tableau);
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
        Least {
            answer,
            programs: search.nodes,
            root,
            dual,
        }
    }
}

struct Bb<'e> {
    eq: &'e Equation,
    /// The conservation rows' right-hand sides.
    rhs: &'e [f64],
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

/// A dual solution of the state equation's program at some state: a weight
/// per cell on its balance and one per cell on its "sows at least once"
/// row. It stays feasible at every state (a cell that is no mover there
/// just drops its row), so it bounds every state's least multiset from
/// below at the cost of a sum.
#[derive(Clone, Debug)]
pub(super) struct Dual {
    /// Per slot.
    w: Vec<f64>,
    mover: Vec<f64>,
}

impl Bb<'_> {
    /// Searches below a node whose program `tab` solved.
    fn go(&mut self, tab: &Tableau) {
        if self.best.is_some() {
            return;
        }
        let eq = self.eq;
        let x = tab.x();
        let value: f64 = x.iter().sum();
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
            out[eq.row_of[u]] += x[j];
        }
        let cell = (0..out.len())
            .filter(|&i| frac(out[i]) > 1e-6)
            .max_by(|&a, &b| frac(out[a]).total_cmp(&frac(out[b])));
        if let Some(i) = cell {
            let f = out[i].floor();
            let from: Vec<(usize, f64)> = eq.from[i].iter().map(|&j| (j, 1.0)).collect();
            self.child(tab, &from, Kind::Ge, f + 1.0);
            self.child(tab, &from, Kind::Le, f);
            return;
        }
        let line = (0..x.len())
            .filter(|&j| frac(x[j]) > 1e-6)
            .max_by(|&a, &b| frac(x[a]).total_cmp(&frac(x[b])));
        if let Some(j) = line {
            let f = x[j].floor();
            self.child(tab, &[(j, 1.0)], Kind::Ge, f + 1.0);
            self.child(tab, &[(j, 1.0)], Kind::Le, f);
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

    /// The branch with one more row, warm-started from `tab`.
    fn child(&mut self, tab: &Tableau, entries: &[(usize, f64)], kind: Kind, rhs: f64) {
        if self.best.is_some() || self.out_of_nodes {
            return;
        }
        if self.nodes >= self.max_nodes {
            self.out_of_nodes = true;
            return;
        }
        self.nodes += 1;
        match tab.with_row(entries, kind, rhs) {
            Ok(t) => self.go(&t),
            Err(Fail::Infeasible) => {}
            // Nothing known about this branch: no proof either way.
            Err(Fail::GaveUp) => self.out_of_nodes = true,
        }
    }
}

impl Bb<'_> {
    /// Whether `counts` balances every cell exactly (integers).
    fn balances(&self, counts: &[u32]) -> bool {
        self.eq.conservation.iter().zip(self.rhs).all(|(e, &b)| {
            let sum: f64 = e.iter().map(|&(j, v)| v * f64::from(counts[j])).sum();
            sum == b
        })
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
        let Some((colour, 2)) = s.get(u) else {
            continue;
        };
        if !(s.takes(a as u8, colour) && s.takes(b as u8, colour)) {
            continue;
        }
        let m = eq.line(j);
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
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    use super::*;

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
        let Least {
            answer, programs, ..
        } = eq.least(&p, &p.start, 1000);
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
        let next = eq
            .least_within(&p, &p.start, &[cut], Some(v), 1000, None)
            .answer;
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
        let mut rng = SmallRng::seed_from_u64(11);
        let (mut checked, mut ordered) = (0, 0);
        while checked < 40 {
            let Some((p, path)) = super::super::playout_mural(&mut rng) else {
                continue;
            };
            let (start, played) = (p.start.clone(), path.len() as u32 - 1);
            let eq = Equation::new(&p).unwrap();
            let Answer::Least(v, counts) = eq.least(&p, &start, 5000).answer else {
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
