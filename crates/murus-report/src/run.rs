//! The report of a run of games (`report.json`): its provenance, each
//! seat's and colour's results with their intervals, draws, length,
//! branching, the evaluation's view of the games and their game-quality
//! metrics, and the report in labelled lines. The lab builds it from its
//! games' records (`murus_lab::report::build`), so shards merge into
//! exactly the report of a single run.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::metrics::Metrics;
use crate::record::{GENERIC_EVALUATION, Provenance, short_evaluation};
use crate::text::{grouped, percent, percent_interval};

/// A count with its rate and 95% Wilson interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    pub count: u64,
    pub rate: f64,
    pub ci95: [f64; 2],
}

/// A seat's wins, their share of the games and its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatResult {
    pub seat: usize,
    pub bot: String,
    pub wins: u64,
    pub rate: f64,
    pub ci95: [f64; 2],
}

/// A colour's wins, their share of the games and its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColourResult {
    pub wins: u64,
    pub rate: f64,
    pub ci95: [f64; 2],
}

/// The first player's wins against the fair share of a game of equals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirstPlayer {
    pub wins: u64,
    pub rate: f64,
    pub ci95: [f64; 2],
    /// The rate a fair game would give: 1 / players.
    pub fair: f64,
    /// `rate - fair`.
    pub advantage: f64,
}

/// A bar of the game-length histogram: games of `from` to `to` plies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bin {
    pub from: u32,
    pub to: u32,
    pub count: u64,
}

/// Game length in plies: mean, order statistics and histogram.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Length {
    pub mean: f64,
    pub median: u32,
    pub p5: u32,
    pub p95: u32,
    pub histogram: Vec<Bin>,
}

/// Legal moves a ply, over all the games' plies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Branching {
    pub mean: f64,
    pub max: u32,
    pub forced_share: f64,
}

/// How the evaluation's view of the game matched its end, over the games
/// measured (those with a game-quality metrics record; every game in files
/// written before the metrics).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Mean number of times the evaluation's leader changed per game.
    pub lead_changes_mean: f64,
    /// Share of decisive games whose winner the evaluation already favoured
    /// three quarters into the game, with its interval.
    pub decisiveness: Rate,
}

/// `123 wins, 61.5% [54.6, 68.0]` (`1 win, …`).
fn wins(wins: u64, rate: f64, ci: [f64; 2]) -> String {
    format!(
        "{} {}, {}",
        grouped(wins),
        murus_engine::text::noun(wins, "win"),
        percent_interval(rate, ci)
    )
}

/// The report of a run of games (`report.json`). It holds no timings, so equal runs
/// give equal bytes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Where the games come from: variant, engine, bots, seed, games
    /// asked for, ply cap, openings, shard and players (its fields sit at
    /// the top of the JSON).
    #[serde(flatten)]
    pub provenance: Provenance,
    /// Games in this report.
    pub games: u64,
    /// Whether the run was stopped (Ctrl-C, a cancel) before all its games
    /// were played: the report then covers the finished games only. A
    /// complete run always says `false`, so equal runs still give equal
    /// bytes. A merge is interrupted when one of its shards was.
    #[serde(default)]
    pub interrupted: bool,
    /// The shards (`K/N`) a merge lacked, when it was asked to merge the
    /// shards present (`--allow-partial`): the report covers their games
    /// only. Left out of the JSON of a whole run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_shards: Vec<String>,
    pub by_seat: Vec<SeatResult>,
    pub by_colour: BTreeMap<String, ColourResult>,
    pub draws: Rate,
    pub ply_cap: Rate,
    pub first_player_advantage: FirstPlayer,
    /// Reason → count: `breakthrough-sow`, `breakthrough-throw`,
    /// `breakthrough-delayed`, `stalemate`, `elimination`, `repetition`,
    /// `ply-cap`.
    pub end_reasons: BTreeMap<String, u64>,
    pub length: Length,
    pub branching: Branching,
    pub evaluation: Evaluation,
    /// Game-quality metrics ([`crate::metrics`], `docs/metrics.md`); zero
    /// in reports written before them.
    #[serde(default)]
    pub metrics: Metrics,
}

impl Report {
    /// The report as labelled lines, in the one wording every front end
    /// uses (the terminal's summary, the studio's table), from
    /// `("Seat 1 (greedy)", "123 wins, 61.5% [54.6–68.0]")` to the end
    /// reasons. `colour` names a colour by its letter (`colour r`, or the
    /// player's name).
    pub fn summary(&self, colour: impl Fn(char) -> String) -> Vec<(String, String)> {
        let mut lines = Vec::new();
        for s in &self.by_seat {
            lines.push((
                format!("Seat {} ({})", s.seat + 1, s.bot),
                wins(s.wins, s.rate, s.ci95),
            ));
        }
        if let Some(text) = evaluations_text(&self.provenance) {
            lines.push(("Evaluation".into(), text));
        }
        for (c, x) in &self.by_colour {
            let name = c.chars().next().map_or_else(|| c.clone(), &colour);
            lines.push((name, wins(x.wins, x.rate, x.ci95)));
        }
        let f = &self.first_player_advantage;
        lines.push((
            "First player".into(),
            format!(
                "{}, fair {}, advantage {:+.1} points",
                percent_interval(f.rate, f.ci95),
                percent(f.fair),
                f.advantage * 100.0
            ),
        ));
        for (label, rate) in [("Draws", &self.draws), ("Hit the ply cap", &self.ply_cap)] {
            lines.push((
                label.into(),
                format!("{} ({})", grouped(rate.count), percent(rate.rate)),
            ));
        }
        let l = &self.length;
        lines.push((
            "Length".into(),
            format!(
                "mean {:.1}, median {}, 5–95% {}–{} plies",
                l.mean, l.median, l.p5, l.p95
            ),
        ));
        let b = &self.branching;
        lines.push((
            "Branching".into(),
            format!(
                "mean {:.1}, max {}, forced moves {}",
                b.mean,
                b.max,
                percent(b.forced_share)
            ),
        ));
        let e = &self.evaluation;
        lines.push((
            "Decisiveness".into(),
            format!(
                "the winner led at 3/4 in {} of decisive games; {:.2} lead changes a game",
                percent(e.decisiveness.rate),
                e.lead_changes_mean
            ),
        ));
        lines.extend(self.metrics.summary());
        let endings: Vec<String> = self
            .end_reasons
            .iter()
            .map(|(k, v)| format!("{k} {}", grouped(*v)))
            .collect();
        lines.push(("Endings".into(), endings.join(", ")));
        lines
    }
}

/// Which evaluation the bots were given, in words: `generic features`,
/// `trained, sha256:1a2b3c4d5e6f…`, or seat by seat where they differ
/// (`seat 1 trained, sha256:…; seat 2 generic features`); `None` for a
/// report that records none (written before evaluations were recorded).
pub fn evaluations_text(p: &Provenance) -> Option<String> {
    let words = |id: &str| {
        if id == GENERIC_EVALUATION {
            "generic features".to_string()
        } else {
            format!("trained, {}", short_evaluation(id))
        }
    };
    let first = p.evaluations.first()?;
    if p.evaluations.iter().all(|e| e == first) {
        return Some(words(first));
    }
    let seats: Vec<String> = p
        .evaluations
        .iter()
        .enumerate()
        .map(|(s, e)| format!("seat {} {}", s + 1, words(e)))
        .collect();
    Some(seats.join("; "))
}

impl Report {
    /// The report as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a report serialises");
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_win_is_not_one_wins() {
        assert_eq!(wins(1, 0.5, [0.1, 0.9]), "1 win, 50.0% [10.0, 90.0]");
        assert!(wins(1_234, 0.5, [0.4, 0.6]).starts_with(&format!("{} wins, ", grouped(1_234))));
    }
}
