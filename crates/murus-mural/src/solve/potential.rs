//! A lower bound from stone conservation: a weighting `w` of the cells
//! under which no move raises the stones' total `Φ = Σ w(c)·stones(c)` by
//! more than `step`, so a position needs at least `⌈(Φ(goal) − Φ) / step⌉`
//! moves more.
//!
//! The weighting is the dual of a linear program over the search's start:
//! with `x(u, line)` the times the stack on `u` sows along `line`, every
//! solution keeps, per cell, `stones + landed − 2·sown = goal`; the least
//! `Σ x` over non-negative reals bounds the moves left, and an optimal dual
//! `y` (`y(a) + y(b) − 2·y(u) ≤ 1` on every line) reaches it as a
//! potential. Stones must travel to far targets through towers made on the
//! way, which the counting bound of `crate::bound` does not see.
//!
//! Nothing here needs the linear program to be right: the weights are
//! rounded to integers and `step` is then measured exactly over every move
//! the board allows (sowings, and sacrifices, which lose two stones), so
//! the bound is admissible for any weighting whatever, and merely weak for
//! a poor one.

use crate::board::State;
use crate::puzzle::Puzzle;

/// Integer weights per slot, the goal's total and the largest rise a move
/// can make.
pub(super) struct Potential {
    weights: Vec<i64>,
    goal: i64,
    step: i64,
}

/// Weights are the dual's times this, rounded.
const SCALE: f64 = 120.0;

impl Potential {
    /// The potential of the linear program at `s`; `None` when the program
    /// does not solve or its weighting bounds nothing.
    pub(super) fn new(p: &Puzzle, s: &State) -> Option<Potential> {
        let cells: Vec<usize> = p.board.geometry.cells().collect();
        let mut row = vec![usize::MAX; p.board.slots()];
        for (i, &c) in cells.iter().enumerate() {
            row[c] = i;
        }
        let mut columns = Vec::new();
        for &u in &cells {
            for &(a, b) in p.board.lines(u) {
                columns.push([
                    (row[u], -2.0),
                    (row[a as usize], 1.0),
                    (row[b as usize], 1.0),
                ]);
            }
        }
        let goal_of = |c: usize| i64::from(p.targets[c]);
        let rhs: Vec<f64> = cells
            .iter()
            .map(|&c| (goal_of(c) - height(s, c)) as f64)
            .collect();
        let dual = dual_of_cheapest(cells.len(), &columns, &rhs)?;
        let mut weights = vec![0i64; p.board.slots()];
        for (i, &c) in cells.iter().enumerate() {
            weights[c] = (dual[i] * SCALE).round() as i64;
        }
        // The largest rise of the total over every move the board allows.
        let mut step = i64::MIN;
        for &u in &cells {
            for &(a, b) in p.board.lines(u) {
                step = step.max(weights[a as usize] + weights[b as usize] - 2 * weights[u]);
            }
            if p.sacrifice {
                for &t in p.board.adjacent(u) {
                    step = step.max(-weights[u] - weights[t as usize]);
                }
            }
        }
        if step <= 0 {
            return None;
        }
        let goal = cells.iter().map(|&c| weights[c] * goal_of(c)).sum();
        Some(Potential {
            weights,
            goal,
            step,
        })
    }

    /// At least this many moves are left from `s`.
    pub(super) fn bound(&self, s: &State) -> u32 {
        let now: i64 = s
            .raw()
            .iter()
            .zip(&self.weights)
            .map(|(&v, &w)| w * i64::from(v & 3))
            .sum();
        let rise = self.goal - now;
        if rise <= 0 {
            0
        } else {
            u32::try_from((rise + self.step - 1) / self.step).unwrap_or(u32::MAX)
        }
    }
}

fn height(s: &State, c: usize) -> i64 {
    s.get(c).map_or(0, |(_, h)| i64::from(h))
}

/// An optimal dual of `min Σ x` subject to `A x = rhs`, `x ≥ 0`, where each
/// column of `A` is given by its non-zero entries: a dense two-phase
/// simplex with Bland's rule (so it ends). `None` when infeasible or when
/// it takes too many pivots.
fn dual_of_cheapest(rows: usize, columns: &[[(usize, f64); 3]], rhs: &[f64]) -> Option<Vec<f64>> {
    const EPS: f64 = 1e-9;
    let n = columns.len();
    let width = n + rows + 1;
    let last = width - 1;
    let mut t = vec![vec![0.0; width]; rows + 1];
    let sign: Vec<f64> = rhs
        .iter()
        .map(|&b| if b < 0.0 { -1.0 } else { 1.0 })
        .collect();
    for (j, col) in columns.iter().enumerate() {
        for &(i, v) in col {
            t[i][j] += v * sign[i];
        }
    }
    let mut basis = vec![0usize; rows];
    for i in 0..rows {
        t[i][n + i] = 1.0;
        t[i][last] = rhs[i] * sign[i];
        basis[i] = n + i;
    }
    let pivot = |t: &mut Vec<Vec<f64>>, r: usize, col: usize| {
        let pv = t[r][col];
        for v in t[r].iter_mut() {
            *v /= pv;
        }
        let pivot_row = t[r].clone();
        for (i, line) in t.iter_mut().enumerate() {
            let f = line[col];
            if i != r && f.abs() > 1e-12 {
                for (v, &pr) in line.iter_mut().zip(&pivot_row) {
                    *v -= f * pr;
                }
            }
        }
    };
    let max_pivots = 50 * (rows + n);
    let run = |t: &mut Vec<Vec<f64>>, basis: &mut Vec<usize>, entering: usize| -> bool {
        for _ in 0..max_pivots {
            let Some(col) = (0..entering).find(|&j| t[rows][j] < -EPS) else {
                return true;
            };
            let mut best: Option<(f64, usize)> = None;
            for i in 0..rows {
                if t[i][col] > EPS {
                    let ratio = t[i][last] / t[i][col];
                    let better = match best {
                        None => true,
                        Some((r, q)) => {
                            ratio < r - 1e-12 || (ratio < r + 1e-12 && basis[i] < basis[q])
                        }
                    };
                    if better {
                        best = Some((ratio, i));
                    }
                }
            }
            let Some((_, r)) = best else {
                return false;
            };
            pivot(t, r, col);
            basis[r] = col;
        }
        false
    };
    // Phase one: drive the artificial variables out.
    let (constraints, objective) = t.split_at_mut(rows);
    for line in constraints.iter() {
        for (v, &l) in objective[0].iter_mut().zip(line) {
            *v -= l;
        }
    }
    for i in 0..rows {
        t[rows][n + i] = 0.0;
    }
    if !run(&mut t, &mut basis, n + rows) || -t[rows][last] > 1e-6 {
        return None;
    }
    // Phase two: cost 1 a column; artificial columns never enter again but
    // keep their reduced costs, which are minus the dual.
    for v in t[rows].iter_mut() {
        *v = 0.0;
    }
    for v in &mut t[rows][..n] {
        *v = 1.0;
    }
    for i in 0..rows {
        if basis[i] < n {
            let line = t[i].clone();
            for (v, &l) in t[rows].iter_mut().zip(&line) {
                *v -= l;
            }
        }
    }
    if !run(&mut t, &mut basis, n) {
        return None;
    }
    Some((0..rows).map(|i| -t[rows][n + i] * sign[i]).collect())
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    use super::*;

    /// Random playouts on 5x5 (the bench's murals), their end the goal:
    /// from every position on the way, the bound never exceeds the moves
    /// the playout still took, and it is often above the counting bound.
    #[test]
    fn the_bound_never_exceeds_the_moves_a_playout_took() {
        let mut rng = SmallRng::seed_from_u64(5);
        let (mut checked, mut above) = (0, 0);
        for _ in 0..300 {
            let Some((p, path)) = super::super::playout_mural(&mut rng) else {
                continue;
            };
            let start = p.start.clone();
            let Some(q) = Potential::new(&p, &start) else {
                continue;
            };
            for (i, s) in path.iter().enumerate() {
                let left = (path.len() - 1 - i) as u32;
                assert!(
                    q.bound(s) <= left,
                    "{} > {left}\n{}",
                    q.bound(s),
                    p.to_toml()
                );
                checked += 1;
            }
            above += usize::from(q.bound(&start) > crate::bound::lower_bound(&p, &start));
        }
        assert!(checked > 500, "{checked} positions checked");
        assert!(above > 0, "the bound never beats the counting bound");
    }

    /// The crate's doc example (optimum 5): the bound is admissible at the
    /// start and zero at the goal.
    #[test]
    fn the_goal_needs_no_move() {
        let p = Puzzle::from_toml(
            "title = \"t\"\nboard = \"5x1\"\nstart = \"1r2r22\"\ntargets = [\"a1\", \"c1\", \"d1\", \"e1\"]\n",
        )
        .unwrap();
        let q = Potential::new(&p, &p.start).expect("the program solves");
        let b = q.bound(&p.start);
        assert!((1..=5).contains(&b), "bound {b}, optimum 5");
        let mut goal = State::empty(p.board.slots());
        for c in p.board.geometry.cells() {
            if p.targets[c] {
                goal.set(c, Some((0, 1)));
            }
        }
        assert_eq!(q.bound(&goal), 0);
    }
}
