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

/// The least `c·x` and an `x` reaching it; `None` when infeasible,
/// unbounded or when the pivots run out.
pub(super) fn minimise(cost: &[f64], rows: &[Row]) -> Option<(f64, Vec<f64>)> {
    let n = cost.len();
    let m = rows.len();
    let slacks = rows.iter().filter(|r| r.kind != Kind::Eq).count();
    // Columns: structural, slacks, one artificial a row, right-hand side.
    let art0 = n + slacks;
    let width = art0 + m + 1;
    let last = width - 1;
    let mut t = vec![0.0; (m + 1) * width];
    let mut basis = vec![0usize; m];
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
    if !run(&mut t, &mut basis, m, width, art0) || -t[m * width + last] > 1e-7 {
        return None;
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
        return None;
    }
    let mut x = vec![0.0; n];
    for i in 0..m {
        if basis[i] < n {
            x[basis[i]] = t[i * width + last];
        }
    }
    let value = cost.iter().zip(&x).map(|(c, v)| c * v).sum();
    Some((value, x))
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
    use super::*;

    #[test]
    fn a_small_program() {
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
        let (v, x) = minimise(&[1.0, 1.0], &rows).unwrap();
        assert!((v - 3.0).abs() < 1e-9, "{v} {x:?}");
        let infeasible = vec![Row {
            entries: vec![(0, 1.0)],
            kind: Kind::Le,
            rhs: -1.0,
        }];
        assert!(minimise(&[1.0], &infeasible).is_none());
    }
}
