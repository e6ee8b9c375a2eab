//! A run's game-quality metrics, aggregated from its games' records
//! ([`metrics_of`]); the figures and the words that judge them are the
//! report types' ([`Metrics`], `murus_report::metrics`).

use murus_engine::Reason;

use super::trace::{duration_score, ideal_band};
use crate::record::{Fixed, GameMetrics, GameStats};

pub use murus_report::metrics::{
    BranchingMetrics, DECIDED_EARLY, DRAMA_LOW, DURATION_FAR, Duration, FEW_DECISIONS, Metrics,
    REPETITIVE, SMALL_COVERAGE, UNCLEAR,
};

/// `x` to six decimals, as the report's other figures.
fn round(x: f64) -> f64 {
    crate::stats::round_to(x, 6)
}

/// The mean of `xs`, `None` when empty.
fn mean(xs: impl Iterator<Item = f64>) -> Option<f64> {
    let (s, n) = xs.fold((0.0, 0u64), |(s, n), x| (s + x, n + 1));
    (n > 0).then(|| round(s / n as f64))
}

/// The metrics of `games` (in any order).
pub fn metrics_of(games: &[GameStats]) -> Metrics {
    // Sums of floating-point numbers depend on their order: the games
    // are summed in number order, so that a run's report is the same
    // to the bit whatever order its games finished in.
    let mut sorted: Vec<&GameStats> = games.iter().collect();
    sorted.sort_by_key(|g| g.index);
    let games: Vec<&GameStats> = sorted;
    let n = games.len() as u64;
    // One pass over every game for the figures that count them all,
    // each sum taken in number order (a run of random games has
    // millions of records).
    let (mut won, mut drawn, mut capped) = (0u64, 0u64, 0u64);
    let (mut plies_sum, mut decisions_sum, mut branching_sum) = (0.0, 0.0, 0.0);
    let mut played = 0u64;
    let mut plies: Vec<u32> = Vec::with_capacity(games.len());
    let mut measured: Vec<(&GameStats, &GameMetrics)> = Vec::new();
    for &g in &games {
        if g.winner.is_some() {
            won += 1;
        } else if g.reason == Reason::PlyCap {
            capped += 1;
        } else {
            drawn += 1;
        }
        plies_sum += f64::from(g.plies);
        plies.push(g.plies);
        if g.plies > 0 {
            played += 1;
            decisions_sum += f64::from(g.plies - g.forced.min(g.plies)) / f64::from(g.plies);
            branching_sum += g.branching_sum as f64 / f64::from(g.plies);
        }
        if let Some(m) = &g.metrics {
            measured.push((g, m));
        }
    }
    let share = |count: u64| {
        if n == 0 {
            0.0
        } else {
            round(count as f64 / n as f64)
        }
    };
    let of_all = |sum: f64, count: u64| (count > 0).then(|| round(sum / count as f64));
    let of = |f: fn(&GameMetrics) -> Option<Fixed>| {
        mean(measured.iter().filter_map(|(_, m)| f(m)).map(Fixed::get))
    };
    let (digits, measured_plies) = measured.iter().fold((0.0, 0u64), |(d, p), (g, m)| {
        (d + m.tree_digits.get(), p + u64::from(g.plies))
    });
    let per_ply = (measured_plies > 0).then(|| digits / measured_plies as f64);
    let ideal = per_ply.map(ideal_band);
    let (clarity_sum, clarity_plies) = measured.iter().fold((0.0, 0u64), |(s, k), (_, m)| {
        let c = m.clarity.map_or(0.0, Fixed::get);
        (
            s + c * f64::from(m.clarity_plies),
            k + u64::from(m.clarity_plies),
        )
    });
    let covered = mean(
        measured
            .iter()
            .filter(|(_, m)| m.cells > 0)
            .map(|(_, m)| f64::from(m.covered) / f64::from(m.cells)),
    );
    Metrics {
        games: n,
        measured: measured.len() as u64,
        completion: share(won),
        drawishness: share(drawn),
        timeouts: share(capped),
        duration: Duration {
            mean: of_all(plies_sum, n).unwrap_or(0.0),
            ideal: ideal.map(|b| b.map(round)),
            score: ideal.and_then(|b| mean(plies.iter().map(|&p| duration_score(f64::from(p), b)))),
        },
        decisiveness_threshold: of(|m| m.decisiveness_threshold),
        decisiveness_moves: of(|m| m.decisiveness_moves),
        drama: of(|m| m.drama),
        lead_change: of(|m| m.lead_change),
        stability: of(|m| m.stability),
        clarity: (clarity_plies > 0).then(|| round(clarity_sum / clarity_plies as f64)),
        decision_moves: of_all(decisions_sum, played),
        branching: BranchingMetrics {
            mean: of_all(branching_sum, played).unwrap_or(0.0),
            geometric_mean: per_ply.map(|d| round(10f64.powf(d))),
            trend: of(|m| m.branching_trend),
        },
        board_coverage: covered,
        repetition: mean(
            measured
                .iter()
                .map(|(g, m)| f64::from(m.repeated) / (f64::from(g.plies) + 1.0)),
        ),
    }
}
