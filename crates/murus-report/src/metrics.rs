//! A run's game-quality metrics (`report.json`'s `metrics`), and the words
//! that judge them. The lab aggregates them from its games' records
//! (`murus_lab::metrics`, whose `docs/metrics.md` gives each formula).

use serde::{Deserialize, Serialize};

/// Game length against its ideal band.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Duration {
    /// Mean plies a game (Ludii `DurationTurns`, in plies).
    pub mean: f64,
    /// The ideal band in plies for the run's branching (`murus_lab::metrics::ideal_band`);
    /// `None` without games.
    pub ideal: Option<[f64; 2]>,
    /// The mean over games of `murus_lab::metrics::duration_score` against the band: 1 when
    /// every game's length is inside it.
    pub score: Option<f64>,
}

/// Legal moves a ply.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BranchingMetrics {
    /// The mean over games of the game's mean (`murus_lab::metrics::branching_mean`).
    pub mean: f64,
    /// The geometric mean over all plies: `10^(digits / plies)`, which sets
    /// the ideal band.
    pub geometric_mean: Option<f64>,
    /// The mean over games of `murus_lab::metrics::branching_trend` (moves a ply).
    pub trend: Option<f64>,
}

/// A run's game-quality metrics (`report.json`'s `metrics`). Each figure is
/// the mean over games of the per-game metric of the same name (clarity:
/// over all valued plies); completion, drawishness, timeouts, duration,
/// decision moves and the mean branching count every game, the others the
/// games with a metrics record (`measured`), and those of them where the
/// figure exists (drama and decisiveness: games with a winner).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Games of the report.
    pub games: u64,
    /// Games with a metrics record (older game files have none).
    pub measured: u64,
    pub completion: f64,
    pub drawishness: f64,
    pub timeouts: f64,
    pub duration: Duration,
    pub decisiveness_threshold: Option<f64>,
    pub decisiveness_moves: Option<f64>,
    pub drama: Option<f64>,
    pub lead_change: Option<f64>,
    pub stability: Option<f64>,
    pub clarity: Option<f64>,
    pub decision_moves: Option<f64>,
    pub branching: BranchingMetrics,
    pub board_coverage: Option<f64>,
    pub repetition: Option<f64>,
}

/// Games shorter than half the ideal band's lower end, or longer than
/// twice its upper end, are "far" outside it.
pub const DURATION_FAR: f64 = 2.0;
/// Drama below this is flagged: the eventual winner (almost) never trails.
pub const DRAMA_LOW: f64 = 0.01;
/// Decisiveness moves below this are flagged: the winner is clear early
/// and the rest of the game may drag.
pub const DECIDED_EARLY: f64 = 0.3;
/// Decision moves below this are flagged: most plies offer no choice.
pub const FEW_DECISIONS: f64 = 0.5;
/// Clarity (narrowness) above this is flagged: most moves look as good as
/// the best.
pub const UNCLEAR: f64 = 0.5;
/// Board coverage below this is flagged.
pub const SMALL_COVERAGE: f64 = 0.5;
/// Repetition above this is flagged.
pub const REPETITIVE: f64 = 0.1;

impl Metrics {
    /// The figures outside their documented bounds, each as the end of a
    /// sentence ("games use only 42.0% of the board"), in this order:
    ///
    /// 1. mean length below the ideal band's lower end or above its upper
    ///    end ("far" beyond [`DURATION_FAR`] times);
    /// 2. drama below [`DRAMA_LOW`];
    /// 3. decisiveness moves below [`DECIDED_EARLY`];
    /// 4. decision moves below [`FEW_DECISIONS`];
    /// 5. clarity above [`UNCLEAR`];
    /// 6. board coverage below [`SMALL_COVERAGE`];
    /// 7. repetition above [`REPETITIVE`].
    ///
    /// Figures the games did not have are not judged.
    pub fn extremes(&self) -> Vec<String> {
        let mut out = Vec::new();
        let pct = crate::text::percent;
        if let Some([lo, hi]) = self.duration.ideal
            && self.games > 0
        {
            let mean = self.duration.mean;
            let side = if mean < lo {
                Some(if mean * DURATION_FAR < lo {
                    "far below"
                } else {
                    "below"
                })
            } else if mean > hi {
                Some(if mean > hi * DURATION_FAR {
                    "far above"
                } else {
                    "above"
                })
            } else {
                None
            };
            if let Some(side) = side {
                out.push(format!(
                    "games last {mean:.1} plies on average, {side} the ideal band of {lo:.0}–{hi:.0} plies for their branching"
                ));
            }
        }
        if let Some(d) = self.drama.filter(|&d| d < DRAMA_LOW) {
            out.push(format!(
                "drama is {d:.3}: the eventual winner almost never trails, so games have no comebacks"
            ));
        }
        if let Some(x) = self.decisiveness_moves.filter(|&x| x < DECIDED_EARLY) {
            out.push(format!(
                "the winner is clear {} of the way into a game on average: the rest may drag",
                pct(x)
            ));
        }
        if let Some(x) = self.decision_moves.filter(|&x| x < FEW_DECISIONS) {
            out.push(format!("only {} of plies offer a choice of moves", pct(x)));
        }
        if let Some(c) = self.clarity.filter(|&c| c > UNCLEAR) {
            out.push(format!(
                "{} of the legal moves look as good as the best: choices are hard to tell apart",
                pct(c)
            ));
        }
        if let Some(c) = self.board_coverage.filter(|&c| c < SMALL_COVERAGE) {
            out.push(format!("games use only {} of the board", pct(c)));
        }
        if let Some(r) = self.repetition.filter(|&r| r > REPETITIVE) {
            out.push(format!("{} of positions repeat an earlier one", pct(r)));
        }
        out
    }

    /// Labelled lines for [`crate::run::Report::summary`] (none when no game
    /// has a metrics record): "Game quality" and "Game shape".
    pub fn summary(&self) -> Vec<(String, String)> {
        if self.measured == 0 {
            return Vec::new();
        }
        let pct = crate::text::percent;
        let opt = |x: Option<f64>, digits: usize| {
            x.map_or_else(|| "–".to_string(), |x| format!("{x:.digits$}"))
        };
        let decided = match (self.decisiveness_threshold, self.decisiveness_moves) {
            (Some(t), Some(m)) => format!(
                "decisiveness threshold {t:.2} passed {} into a game",
                pct(m)
            ),
            _ => "decisiveness –".into(),
        };
        let band = self.duration.ideal.map_or_else(
            || "–".to_string(),
            |[lo, hi]| format!("{lo:.0}–{hi:.0} plies"),
        );
        vec![
            (
                "Game quality".into(),
                format!(
                    "drama {}, lead change {}, stability {}, {decided}, clarity {}",
                    opt(self.drama, 3),
                    opt(self.lead_change, 2),
                    opt(self.stability, 3),
                    opt(self.clarity, 2),
                ),
            ),
            (
                "Game shape".into(),
                format!(
                    "ideal length {band} (score {}), decision moves {}, branching trend {} a ply, board coverage {}, repetition {}",
                    opt(self.duration.score, 2),
                    self.decision_moves.map_or_else(|| "–".into(), pct),
                    self.branching
                        .trend
                        .map_or_else(|| "–".into(), |t| format!("{t:+.2}")),
                    self.board_coverage.map_or_else(|| "–".into(), pct),
                    self.repetition.map_or_else(|| "–".into(), pct),
                ),
            ),
        ]
    }

    /// `(key, value)` pairs for tables, in the order of `docs/metrics.md`;
    /// a figure the games did not have is an empty string.
    pub fn rows(&self) -> Vec<(&'static str, String)> {
        let opt = |x: Option<f64>| x.map_or_else(String::new, |x| x.to_string());
        let band = self.duration.ideal;
        vec![
            ("measured", self.measured.to_string()),
            ("completion", self.completion.to_string()),
            ("drawishness", self.drawishness.to_string()),
            ("timeouts", self.timeouts.to_string()),
            ("duration_mean", self.duration.mean.to_string()),
            ("duration_ideal_lo", opt(band.map(|b| b[0]))),
            ("duration_ideal_hi", opt(band.map(|b| b[1]))),
            ("duration_score", opt(self.duration.score)),
            ("decisiveness_threshold", opt(self.decisiveness_threshold)),
            ("decisiveness_moves", opt(self.decisiveness_moves)),
            ("drama", opt(self.drama)),
            ("lead_change", opt(self.lead_change)),
            ("stability", opt(self.stability)),
            ("clarity", opt(self.clarity)),
            ("decision_moves", opt(self.decision_moves)),
            ("branching_mean", self.branching.mean.to_string()),
            (
                "branching_geometric_mean",
                opt(self.branching.geometric_mean),
            ),
            ("branching_trend", opt(self.branching.trend)),
            ("board_coverage", opt(self.board_coverage)),
            ("repetition", opt(self.repetition)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Metrics inside every bound.
    fn fine() -> Metrics {
        Metrics {
            games: 100,
            measured: 100,
            completion: 1.0,
            duration: Duration {
                mean: 50.0,
                ideal: Some([20.0, 120.0]),
                score: Some(1.0),
            },
            drama: Some(0.1),
            decisiveness_moves: Some(0.8),
            decision_moves: Some(0.99),
            clarity: Some(0.2),
            board_coverage: Some(0.8),
            repetition: Some(0.0),
            ..Metrics::default()
        }
    }

    #[test]
    fn extremes_are_flagged_by_their_documented_thresholds() {
        assert_eq!(fine().extremes(), Vec::<String>::new());
        let with = |f: &dyn Fn(&mut Metrics)| {
            let mut m = fine();
            f(&mut m);
            m.extremes()
        };
        assert_eq!(
            with(&|m| m.duration.mean = 12.0),
            [
                "games last 12.0 plies on average, below the ideal band of 20–120 plies for their branching"
            ]
        );
        assert_eq!(
            with(&|m| m.duration.mean = 9.9),
            [
                "games last 9.9 plies on average, far below the ideal band of 20–120 plies for their branching"
            ]
        );
        assert_eq!(
            with(&|m| m.duration.mean = 250.0),
            [
                "games last 250.0 plies on average, far above the ideal band of 20–120 plies for their branching"
            ]
        );
        assert!(with(&|m| m.duration.mean = 130.0)[0].contains(", above the ideal"));
        assert_eq!(
            with(&|m| m.drama = Some(0.0)),
            ["drama is 0.000: the eventual winner almost never trails, so games have no comebacks"]
        );
        assert_eq!(
            with(&|m| m.decisiveness_moves = Some(0.25)),
            ["the winner is clear 25.0% of the way into a game on average: the rest may drag"]
        );
        assert_eq!(
            with(&|m| m.decision_moves = Some(0.4)),
            ["only 40.0% of plies offer a choice of moves"]
        );
        assert_eq!(
            with(&|m| m.clarity = Some(0.6)),
            ["60.0% of the legal moves look as good as the best: choices are hard to tell apart"]
        );
        assert_eq!(
            with(&|m| m.board_coverage = Some(0.42)),
            ["games use only 42.0% of the board"]
        );
        assert_eq!(
            with(&|m| m.repetition = Some(0.15)),
            ["15.0% of positions repeat an earlier one"]
        );
        // At the thresholds themselves, nothing is said.
        assert_eq!(
            with(&|m| {
                m.duration.mean = 20.0;
                m.drama = Some(DRAMA_LOW);
                m.decisiveness_moves = Some(DECIDED_EARLY);
                m.decision_moves = Some(FEW_DECISIONS);
                m.clarity = Some(UNCLEAR);
                m.board_coverage = Some(SMALL_COVERAGE);
                m.repetition = Some(REPETITIVE);
            }),
            Vec::<String>::new()
        );
        // Figures the games lacked are not judged.
        assert_eq!(Metrics::default().extremes(), Vec::<String>::new());
    }

    #[test]
    fn the_summary_has_two_lines_once_a_game_is_measured() {
        assert_eq!(Metrics::default().summary(), Vec::new());
        let lines = fine().summary();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].0, "Game quality");
        assert!(
            lines[0].1.starts_with("drama 0.100, lead change –"),
            "{lines:?}"
        );
        assert_eq!(lines[1].0, "Game shape");
        assert!(
            lines[1]
                .1
                .starts_with("ideal length 20–120 plies (score 1.00), decision moves 99.0%"),
            "{lines:?}"
        );
    }
}
