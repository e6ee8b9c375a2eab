//! Speed and size, as the report keeps them: random playouts' figures
//! ([`Playouts`]) and the distributions they are made of
//! ([`Distribution`]). `murus_lab::designer` plays them.

use murus_engine::util::percentile;
use serde::{Deserialize, Serialize};

use crate::numbers::round_to as round;

/// A distribution of whole numbers: mean, median, 5th and 95th
/// percentiles, largest, and a histogram of up to 12 equal bins.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Distribution {
    pub mean: f64,
    pub median: u32,
    pub p5: u32,
    pub p95: u32,
    pub max: u32,
    /// `(from, to, count)`: values from `from` to `to`, both included.
    pub histogram: Vec<(u32, u32, u64)>,
}

impl Distribution {
    /// The distribution of `values` (not empty).
    pub fn of(values: &[u32]) -> Distribution {
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        let n = sorted.len().max(1);
        let mean = sorted.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64;
        let max = sorted.last().copied().unwrap_or(0);
        let lo = sorted.first().copied().unwrap_or(0);
        let width = (max - lo) / 12 + 1;
        let mut histogram: Vec<(u32, u32, u64)> = Vec::new();
        for &v in &sorted {
            let from = lo + (v - lo) / width * width;
            match histogram.last_mut() {
                Some(b) if b.0 == from => b.2 += 1,
                _ => histogram.push((from, from + width - 1, 1)),
            }
        }
        Distribution {
            mean: round(mean, 2),
            median: percentile(&sorted, 50.0),
            p5: percentile(&sorted, 5.0),
            p95: percentile(&sorted, 95.0),
            max,
            histogram,
        }
    }
}

/// What random playouts of a variant show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Playouts {
    pub games: u64,
    /// Plies a game.
    pub length: Distribution,
    /// Legal moves a position, over every position of every game.
    pub branching: Distribution,
    /// Share of games won by the first player, ended by a draw rule.
    pub first_player_wins: f64,
    pub draws: f64,
    /// log10 of the estimated number of positions: over every distinct
    /// material seen in the games (stacks of each height of each player),
    /// the ways to place that material on the board, times the players who
    /// may be to move. An estimate from above of the positions play
    /// reaches (not every placement is reachable), as Allis's estimates of
    /// state spaces are.
    pub state_space_log10: f64,
    /// log10 of the game-tree size b^d, with b the mean branching factor and
    /// d the mean length.
    pub game_tree_log10: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_distribution_has_its_percentiles_and_bins() {
        let d = Distribution::of(&[1, 2, 3, 4, 100]);
        assert_eq!(d.median, 3);
        assert_eq!((d.p5, d.p95), (1, 100));
        assert_eq!(d.max, 100);
        assert_eq!(d.histogram.iter().map(|b| b.2).sum::<u64>(), 5);
        assert_eq!(d.histogram[0].0, 1);
    }
}
