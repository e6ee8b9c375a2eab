//! A small dense simplex for the state equation's linear programs: minimise
//! `c·x` over `x ≥ 0` subject to rows `a·x (=, ≤, ≥) b`. Two phases,
//! Dantzig's rule with Bland's as a fallback once pivots stop improving (so
//! it ends). Sized for boards of at most 64 cells: a few dozen rows and a
//! few hundred columns.

/// How a row bounds `a·x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Eq,
    Le,
    Ge,
}

/// A row: its non-zero entries, its kind and its right-hand side.
#[derive(Clone, Debug)]
pub(super) struct Row {
    pub(super) entries: Vec<(usize, f64)>,
    pub(super) kind: Kind,
    pub(super) rhs: f64,
}

const EPS: f64 = 1e-9;

/// A program's optimum: the dual value of each row (`c − Aᵀy ≥ 0` up to rounding; `y ≥ 0` on `≥` rows,
/// `≤ 0` on `≤` rows).
pub(super) struct Optimum {
    pub(super) duals: Vec<f64>,
    /// The final tableau, for programs with one more row.
    pub(super) tableau: Tableau,
}

/// An optimal tableau without its artificial columns: rows, then the
/// objective row (reduced costs, all `≥ 0`); the last column is the
/// right-hand side.
#[derive(Clone, Debug)]
pub(super) struct Tableau {
    t: Vec<f64>,
    m: usize,
    width: usize,
    n: usize,
    basis: Vec<usize>,
}

/// Why a program has no optimum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fail {
    /// No point meets the rows: a proof.
    Infeasible,
    /// The pivots ran out (or the program is unbounded): nothing is known.
    GaveUp,
}

/// An optimal tableau that keeps its artificial columns, which hold the
/// basis inverse: a program with the same rows and other right-hand sides
/// is solved again from it by the dual simplex (the reduced costs do not
/// depend on the right-hand sides, so the basis stays dual feasible).
#[derive(Clone, Debug)]
pub(super) struct Root {
    t: Vec<f64>,
    m: usize,
    width: usize,
    n: usize,
    art0: usize,
    basis: Vec<usize>,
    /// Rows entered negated (their right-hand side was negative).
    flipped: Vec<bool>,
    /// The right-hand sides as entered (negated where flipped).
    b: Vec<f64>,
}

impl Root {
    /// Solves from scratch (two phases).
    pub(super) fn solve(cost: &[f64], rows: &[Row]) -> Result<Root, Fail> {
        let n = cost.len();
        let m = rows.len();
        let slacks = rows.iter().filter(|r| r.kind != Kind::Eq).count();
        // Columns: structural, slacks, one artificial a row, right-hand side.
        let art0 = n + slacks;
        let width = art0 + m + 1;
        let last = width - 1;
        let mut t = vec![0.0; (m + 1) * width];
        let mut basis = vec![0usize; m];
        let mut flipped = vec![false; m];
        let mut slack = n;
        for (i, r) in rows.iter().enumerate() {
            let line = &mut t[i * width..(i + 1) * width];
            for &(j, v) in &r.entries {
                line[j] += v;
            }
            match r.kind {
                Kind::Eq => {}
                Kind::Le => {
                    line[slack] = 1.0;
                    slack += 1;
                }
                Kind::Ge => {
                    line[slack] = -1.0;
                    slack += 1;
                }
            }
            line[last] = r.rhs;
            if r.rhs < 0.0 {
                flipped[i] = true;
                for v in line.iter_mut() {
                    *v = -*v;
                }
            }
            line[art0 + i] = 1.0;
            basis[i] = art0 + i;
        }
        // Phase one: minimise the artificials' sum.
        for i in 0..m {
            for j in 0..width {
                let v = t[i * width + j];
                t[m * width + j] -= v;
            }
        }
        for i in 0..m {
            t[m * width + art0 + i] = 0.0;
        }
        if !run(&mut t, &mut basis, m, width, art0) {
            return Err(Fail::GaveUp);
        }
        if -t[m * width + last] > 1e-7 {
            return Err(Fail::Infeasible);
        }
        // Artificials still basic at zero: pivot them out where a real column
        // can take their place (else the row is redundant and stays).
        for i in 0..m {
            if basis[i] >= art0 {
                if let Some(j) = (0..art0).find(|&j| t[i * width + j].abs() > 1e-7) {
                    pivot(&mut t, width, i, j);
                    basis[i] = j;
                }
            }
        }
        // Phase two.
        for j in 0..width {
            t[m * width + j] = if j < n { cost[j] } else { 0.0 };
        }
        for i in 0..m {
            let b = basis[i];
            let cb = t[m * width + b];
            if cb != 0.0 {
                for j in 0..width {
                    let v = t[i * width + j];
                    t[m * width + j] -= cb * v;
                }
            }
        }
        if !run(&mut t, &mut basis, m, width, art0) {
            return Err(Fail::GaveUp);
        }
        let b = rows
            .iter()
            .zip(&flipped)
            .map(|(r, &f)| if f { -r.rhs } else { r.rhs })
            .collect();
        Ok(Root {
            t,
            m,
            width,
            n,
            art0,
            basis,
            flipped,
            b,
        })
    }

    /// The optimum of the same rows with right-hand sides `rhs`, by the
    /// dual simplex from this one.
    pub(super) fn resolve(&self, rhs: &[f64]) -> Result<Root, Fail> {
        let (m, w) = (self.m, self.width);
        let last = w - 1;
        let mut r = self.clone();
        // The change of the right-hand side, through the basis inverse.
        let delta: Vec<f64> = rhs
            .iter()
            .enumerate()
            .map(|(i, &b)| (if self.flipped[i] { -b } else { b }) - self.b[i])
            .collect();
        for k in 0..=m {
            let mut add = 0.0;
            for (i, &d) in delta.iter().enumerate() {
                if d != 0.0 {
                    add += d * self.t[k * w + self.art0 + i];
                }
            }
            r.t[k * w + last] += add;
        }
        for (i, &b) in rhs.iter().enumerate() {
            r.b[i] = if self.flipped[i] { -b } else { b };
        }
        dual_run(&mut r.t, &mut r.basis, m, w, r.art0)?;
        Ok(r)
    }

    /// The optimum: value, solution, duals and the tableau without its
    /// artificial columns.
    pub(super) fn optimum(&self) -> Optimum {
        let (m, width, art0, n) = (self.m, self.width, self.art0, self.n);
        let t = &self.t;
        let last = width - 1;
        // An artificial column's reduced cost is minus its row's dual.
        let duals = (0..m)
            .map(|i| {
                let y = -t[m * width + art0 + i];
                if self.flipped[i] { -y } else { y }
            })
            .collect();
        // Drop the artificial columns, and the rows whose artificial stayed
        // (redundant: no real column has a non-zero there).
        let keep: Vec<usize> = (0..m).filter(|&i| self.basis[i] < art0).collect();
        let w2 = art0 + 1;
        let mut t2 = Vec::with_capacity((keep.len() + 1) * w2);
        for &i in keep.iter().chain(std::iter::once(&m)) {
            t2.extend_from_slice(&t[i * width..i * width + art0]);
            t2.push(t[i * width + last]);
        }
        let tableau = Tableau {
            t: t2,
            m: keep.len(),
            width: w2,
            n,
            basis: keep.iter().map(|&i| self.basis[i]).collect(),
        };
        Optimum { duals, tableau }
    }
}

impl Tableau {
    /// The structural variables' values.
    pub(super) fn x(&self) -> Vec<f64> {
        let mut x = vec![0.0; self.n];
        for (i, &b) in self.basis.iter().enumerate() {
            if b < self.n {
                x[b] = self.t[i * self.width + self.width - 1];
            }
        }
        x
    }

    /// The optimum with the row `a·x ≤ rhs` (or `≥`) added, by the dual
    /// simplex from this one.
    pub(super) fn with_row(
        &self,
        entries: &[(usize, f64)],
        kind: Kind,
        rhs: f64,
    ) -> Result<Tableau, Fail> {
        let sign = match kind {
            Kind::Le => 1.0,
            Kind::Ge => -1.0,
            Kind::Eq => unreachable!("bounds only"),
        };
        let (m, w) = (self.m, self.width);
        let w2 = w + 1;
        let mut t = Vec::with_capacity((m + 2) * w2);
        for i in 0..m {
            t.extend_from_slice(&self.t[i * w..i * w + w - 1]);
            t.push(0.0);
            t.push(self.t[i * w + w - 1]);
        }
        // The new row, in terms of the non-basic columns.
        let mut row = vec![0.0; w2];
        for &(j, v) in entries {
            row[j] += sign * v;
        }
        row[w - 1] = 1.0;
        row[w] = sign * rhs;
        for (i, &b) in self.basis.iter().enumerate() {
            let f = row[b];
            if f != 0.0 {
                for (v, &r) in row.iter_mut().zip(&t[i * w2..(i + 1) * w2]) {
                    *v -= f * r;
                }
            }
        }
        t.extend_from_slice(&row);
        t.extend_from_slice(&self.t[m * w..m * w + w - 1]);
        t.push(0.0);
        t.push(self.t[m * w + w - 1]);
        let mut basis = self.basis.clone();
        basis.push(w - 1);
        let m = m + 1;
        let last = w2 - 1;
        // Dual simplex: the reduced costs stay non-negative.
        dual_run(&mut t, &mut basis, m, w2, last)?;
        Ok(Tableau {
            t,
            m,
            width: w2,
            n: self.n,
            basis,
        })
    }
}

/// The dual simplex: pivots a row whose basic value is negative (the most
/// negative; rows whose basic column is not below `entering`, artificials
/// kept for their inverse, are left alone) out against the column below
/// `entering` with the least ratio of reduced cost, until every value is
/// non-negative. The reduced costs must be non-negative to start with.
fn dual_run(
    t: &mut [f64],
    basis: &mut [usize],
    m: usize,
    width: usize,
    entering: usize,
) -> Result<(), Fail> {
    let last = width - 1;
    for _ in 0..20 * (m + width) {
        let leave = (0..m)
            .filter(|&i| basis[i] < entering && t[i * width + last] < -1e-9)
            .min_by(|&a, &b| t[a * width + last].total_cmp(&t[b * width + last]));
        let Some(row) = leave else {
            return Ok(());
        };
        let mut best: Option<(f64, usize)> = None;
        for j in 0..entering {
            let a = t[row * width + j];
            if a < -1e-9 {
                let ratio = t[m * width + j].max(0.0) / -a;
                if best.is_none_or(|(q, _)| ratio < q - 1e-12) {
                    best = Some((ratio, j));
                }
            }
        }
        let (_, col) = best.ok_or(Fail::Infeasible)?;
        pivot(t, width, row, col);
        basis[row] = col;
    }
    Err(Fail::GaveUp)
}

fn pivot(t: &mut [f64], width: usize, r: usize, col: usize) {
    let pv = t[r * width + col];
    for v in &mut t[r * width..(r + 1) * width] {
        *v /= pv;
    }
    let (before, rest) = t.split_at_mut(r * width);
    let (pivot_row, after) = rest.split_at_mut(width);
    for line in before
        .chunks_exact_mut(width)
        .chain(after.chunks_exact_mut(width))
    {
        let f = line[col];
        if f.abs() > 1e-12 {
            for (v, &p) in line.iter_mut().zip(pivot_row.iter()) {
                *v -= f * p;
            }
        }
    }
}

/// Pivots until no column below `entering` has a negative reduced cost.
fn run(t: &mut [f64], basis: &mut [usize], m: usize, width: usize, entering: usize) -> bool {
    let last = width - 1;
    let max_pivots = 20 * (m + width);
    let mut stalled = 0;
    for _ in 0..max_pivots {
        let obj = &t[m * width..(m + 1) * width];
        let bland = stalled > 2 * m;
        let col = if bland {
            (0..entering).find(|&j| obj[j] < -EPS)
        } else {
            (0..entering)
                .filter(|&j| obj[j] < -EPS)
                .min_by(|&a, &b| obj[a].total_cmp(&obj[b]))
        };
        let Some(col) = col else {
            return true;
        };
        let mut best: Option<(f64, usize)> = None;
        for i in 0..m {
            let a = t[i * width + col];
            if a > EPS {
                let ratio = t[i * width + last] / a;
                let better = match best {
                    None => true,
                    Some((r, q)) => ratio < r - 1e-12 || (ratio < r + 1e-12 && basis[i] < basis[q]),
                };
                if better {
                    best = Some((ratio, i));
                }
            }
        }
        let Some((ratio, r)) = best else {
            return false;
        };
        if ratio < 1e-12 {
            stalled += 1;
        } else {
            stalled = 0;
        }
        pivot(t, width, r, col);
        basis[r] = col;
    }
    false
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    fn value(t: &Tableau, cost: &[f64]) -> f64 {
        t.x().iter().zip(cost).map(|(x, c)| x * c).sum()
    }

    #[test]
    fn a_small_program_its_duals_and_a_row_more() {
        // min x + y with x + 2y >= 4, 3x + y >= 6, x = y: x = y = 1.5.
        let rows = vec![
            Row {
                entries: vec![(0, 1.0), (1, 2.0)],
                kind: Kind::Ge,
                rhs: 4.0,
            },
            Row {
                entries: vec![(0, 3.0), (1, 1.0)],
                kind: Kind::Ge,
                rhs: 6.0,
            },
            Row {
                entries: vec![(0, 1.0), (1, -1.0)],
                kind: Kind::Eq,
                rhs: 0.0,
            },
        ];
        let cost = [1.0, 1.0];
        let o = Root::solve(&cost, &rows).unwrap().optimum();
        assert!((value(&o.tableau, &cost) - 3.0).abs() < 1e-9);
        // Strong duality, and the duals are feasible.
        let by: f64 = rows.iter().zip(&o.duals).map(|(r, y)| r.rhs * y).sum();
        assert!((by - 3.0).abs() < 1e-9, "{:?}", o.duals);
        for j in 0..2 {
            let aty: f64 = rows
                .iter()
                .zip(&o.duals)
                .map(|(r, y)| {
                    let a: f64 = r.entries.iter().filter(|e| e.0 == j).map(|e| e.1).sum();
                    a * y
                })
                .sum();
            assert!(aty <= 1.0 + 1e-9);
        }
        assert!(o.duals[0] >= -1e-9 && o.duals[1] >= -1e-9);
        // x >= 2 as well: x = y = 2.
        let t = o.tableau.with_row(&[(0, 1.0)], Kind::Ge, 2.0).unwrap();
        assert!((value(&t, &cost) - 4.0).abs() < 1e-9, "{:?}", t.x());
        // x <= 1 contradicts 3x + y >= 6 with x = y.
        assert_eq!(
            o.tableau.with_row(&[(0, 1.0)], Kind::Le, 1.0).err(),
            Some(Fail::Infeasible)
        );
        let infeasible = vec![Row {
            entries: vec![(0, 1.0)],
            kind: Kind::Le,
            rhs: -1.0,
        }];
        assert_eq!(
            Root::solve(&[1.0], &infeasible).err(),
            Some(Fail::Infeasible)
        );
    }

    /// Random programs of the state equation's shape (equalities whose
    /// columns sum to zero, and `≥` rows): solving again from another
    /// right-hand side's tableau gives the value of a solve from scratch,
    /// and says infeasible exactly when it is.
    #[test]
    fn a_warm_solve_agrees_with_a_cold_one() {
        let mut rng = SmallRng::seed_from_u64(3);
        let (mut agreed, mut feasible) = (0, 0);
        for _ in 0..200 {
            let (m, n) = (6, 14);
            let mut rows: Vec<Row> = (0..m)
                .map(|_| Row {
                    entries: Vec::new(),
                    kind: Kind::Eq,
                    rhs: 0.0,
                })
                .collect();
            for j in 0..n {
                // -2 on one row, +1 on two others, like a sowing.
                let u = rng.random_range(0..m);
                let mut a = rng.random_range(0..m);
                while a == u {
                    a = rng.random_range(0..m);
                }
                let mut b = rng.random_range(0..m);
                while b == u || b == a {
                    b = rng.random_range(0..m);
                }
                rows[u].entries.push((j, -2.0));
                rows[a].entries.push((j, 1.0));
                rows[b].entries.push((j, 1.0));
            }
            for i in 0..3 {
                let from: Vec<(usize, f64)> = rows[i]
                    .entries
                    .iter()
                    .filter(|e| e.1 < 0.0)
                    .map(|e| (e.0, 1.0))
                    .collect();
                rows.push(Row {
                    entries: from,
                    kind: Kind::Ge,
                    rhs: 0.0,
                });
            }
            let cost = vec![1.0; n];
            let random_rhs = |rng: &mut SmallRng, rows: &mut Vec<Row>| {
                let mut total = 0.0;
                for r in rows.iter_mut().take(m - 1) {
                    r.rhs = f64::from(rng.random_range(-2i32..=1));
                    total += r.rhs;
                }
                rows[m - 1].rhs = -total;
                for r in rows.iter_mut().skip(m) {
                    r.rhs = f64::from(rng.random_range(0u8..=1));
                }
            };
            random_rhs(&mut rng, &mut rows);
            let Ok(first) = Root::solve(&cost, &rows) else {
                continue;
            };
            random_rhs(&mut rng, &mut rows);
            let rhs: Vec<f64> = rows.iter().map(|r| r.rhs).collect();
            let cold = Root::solve(&cost, &rows);
            let warm = first.resolve(&rhs);
            assert_eq!(cold.as_ref().err(), warm.as_ref().err(), "{rows:?}");
            if let (Ok(c), Ok(w)) = (cold, warm) {
                let (c, w) = (c.optimum(), w.optimum());
                let (vc, vw) = (value(&c.tableau, &cost), value(&w.tableau, &cost));
                assert!((vc - vw).abs() < 1e-7, "{vc} {vw}");
                // The warm solution meets the rows.
                let x = w.tableau.x();
                for r in &rows {
                    let ax: f64 = r.entries.iter().map(|&(j, v)| v * x[j]).sum();
                    match r.kind {
                        Kind::Eq => assert!((ax - r.rhs).abs() < 1e-7),
                        Kind::Ge => assert!(ax >= r.rhs - 1e-7),
                        Kind::Le => assert!(ax <= r.rhs + 1e-7),
                    }
                }
                feasible += 1;
            }
            agreed += 1;
        }
        assert!(agreed > 100 && feasible > 20, "{agreed} {feasible}");
    }
}
