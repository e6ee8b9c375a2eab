//! The numbers every report's figures are written with: the 95% interval's
//! z and rounding to a fixed number of decimals (the lab's statistics,
//! `murus_lab::stats`, use the same).

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// `x` rounded to `digits` decimals (figures written to reports).
pub fn round_to(x: f64, digits: i32) -> f64 {
    let s = 10f64.powi(digits);
    (x * s).round() / s
}
