//! One game's game-quality metrics as its line of `games.jsonl` keeps them
//! (the figures themselves are computed by [`crate::metrics`]).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A figure kept to four decimals, as a whole number of ten-thousandths:
/// a game file read back gives exactly the numbers that were written
/// (JSON's floating-point numbers need not), so a resumed run reports to
/// the bit what an uninterrupted one does. Written as a decimal number
/// (`0.1234`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fixed(i32);

impl Fixed {
    /// Ten-thousandths in one.
    pub const SCALE: f64 = 10_000.0;

    /// `x` to the nearest ten-thousandth (saturating; NaN is 0).
    pub fn new(x: f64) -> Fixed {
        Fixed((x * Fixed::SCALE).round() as i32)
    }

    pub fn get(self) -> f64 {
        f64::from(self.0) / Fixed::SCALE
    }
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.4}", self.get())
    }
}

impl Serialize for Fixed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.get())
    }
}

impl<'de> Deserialize<'de> for Fixed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Fixed, D::Error> {
        f64::deserialize(d).map(Fixed::new)
    }
}

/// One game's metrics, kept in its line of `games.jsonl` as `metrics`
/// (lines written before the metrics have none). Figures that a game
/// cannot have (drama without a winner) are left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameMetrics {
    /// Positions evaluated: one a round.
    pub evaluated: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drama: Option<Fixed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lead_change: Option<Fixed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stability: Option<Fixed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decisiveness_threshold: Option<Fixed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decisiveness_moves: Option<Fixed>,
    /// [`crate::metrics::clarity`] and the plies it was measured on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clarity: Option<Fixed>,
    pub clarity_plies: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branching_trend: Option<Fixed>,
    /// [`crate::metrics::tree_digits`].
    pub tree_digits: Fixed,
    pub covered: u32,
    pub cells: u32,
    pub repeated: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_figures_read_back_exactly() {
        for x in [0.0, 0.1234, -0.5, 1.0 / 3.0, 12.34567] {
            let f = Fixed::new(x);
            let text = serde_json::to_string(&f).unwrap();
            let back: Fixed = serde_json::from_str(&text).unwrap();
            assert_eq!(back, f, "{x} → {text}");
        }
        assert_eq!(
            serde_json::to_string(&Fixed::new(0.12344)).unwrap(),
            "0.1234"
        );
        assert_eq!(Fixed::new(f64::NAN), Fixed::default());
    }
}
