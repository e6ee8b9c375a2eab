//! Late move reductions: how many plies a late quiet move is searched
//! less deep.

/// How many plies a late quiet move is reduced by: the logarithmic rule of
/// most modern engines (Chess Programming Wiki, "Late Move Reductions"),
/// at least one.
pub(super) fn reduction(depth: u32, index: usize) -> u32 {
    // The common depths and move numbers from a table made once (a
    // logarithm a late move cost a few per cent of the search's time).
    static TABLE: std::sync::LazyLock<Box<[[u8; REDUCTION_TABLE]; REDUCTION_TABLE]>> =
        std::sync::LazyLock::new(|| {
            let mut t = Box::new([[0u8; REDUCTION_TABLE]; REDUCTION_TABLE]);
            for (d, row) in t.iter_mut().enumerate() {
                for (i, r) in row.iter_mut().enumerate() {
                    *r = reduction_formula(d as u32, i) as u8;
                }
            }
            t
        });
    // (Not at 0, whose logarithm is infinite: the formula's saturated
    // value does not fit a byte.)
    if (1..REDUCTION_TABLE).contains(&(depth as usize)) && (1..REDUCTION_TABLE).contains(&index) {
        u32::from(TABLE[depth as usize][index])
    } else {
        reduction_formula(depth, index)
    }
}

/// Depths and move numbers below this come from [`reduction`]'s table.
const REDUCTION_TABLE: usize = 64;

fn reduction_formula(depth: u32, index: usize) -> u32 {
    let r = (f64::from(depth).ln() * (index as f64).ln() / 2.0) as u32;
    r.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_move_reductions_read_from_the_table_are_the_formulas() {
        for depth in 0..REDUCTION_TABLE as u32 + 3 {
            for index in 0..REDUCTION_TABLE + 3 {
                assert_eq!(
                    reduction(depth, index),
                    reduction_formula(depth, index),
                    "depth {depth}, move {index}"
                );
            }
        }
        assert_eq!(reduction(8, 20), 3);
    }
}
