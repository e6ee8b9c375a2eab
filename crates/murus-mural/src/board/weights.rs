//! Weightings of the cells modulo 3 that no sowing changes: a sowing from
//! `s` onto `a` and `b` changes the stones' total weight by
//! `w(a) + w(b) - 2 w(s)`, which is 0 modulo 3 exactly when the line's three
//! cells weigh 0 together. The refuter compares such totals now and at the
//! end.

use super::{Board, MAX_SLOTS};

/// A vector over the integers modulo 3 indexed by slot (at most 64): bit
/// `i` of `one` is set when entry `i` is 1, of `two` when it is 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tri {
    pub(crate) one: u64,
    pub(crate) two: u64,
}

impl Tri {
    pub(crate) fn get(self, i: usize) -> u8 {
        u8::from(self.one >> i & 1 == 1) + 2 * u8::from(self.two >> i & 1 == 1)
    }

    pub(crate) fn set(&mut self, i: usize, v: u8) {
        self.one &= !(1 << i);
        self.two &= !(1 << i);
        match v % 3 {
            1 => self.one |= 1 << i,
            2 => self.two |= 1 << i,
            _ => {}
        }
    }

    /// Entry-wise sum modulo 3 (bit-sliced).
    pub(crate) fn add(self, o: Tri) -> Tri {
        let t = (self.one | o.two) ^ (self.two | o.one);
        Tri {
            one: (self.two | o.two) ^ t,
            two: (self.one | o.one) ^ t,
        }
    }

    /// `k` times this vector.
    pub(crate) fn scale(self, k: u8) -> Tri {
        match k % 3 {
            0 => Tri::default(),
            1 => self,
            _ => Tri {
                one: self.two,
                two: self.one,
            },
        }
    }

    pub(crate) fn is_zero(self) -> bool {
        self.one | self.two == 0
    }

    /// The total weight of the stones of `walls` (one stone a cell) and
    /// `towers` (two), modulo 3.
    pub(crate) fn weigh(self, walls: u64, towers: u64) -> u8 {
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
pub(crate) fn is_invariant(board: &Board, w: Tri) -> bool {
    board.geometry.cells().all(|s| {
        board
            .lines(s)
            .iter()
            .all(|&(a, b)| (w.get(s) + w.get(a as usize) + w.get(b as usize)) % 3 == 0)
    })
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
