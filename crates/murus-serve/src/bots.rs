//! The bots' figures beside a playtest summary: from the balance check the
//! server ran of a rules version ([`crate::checks`]), the same figures as
//! the people's (games, the first player's rate of the decided games with
//! its Wilson 95% interval, lengths, how games ended), and whether people
//! and bots agree on the first player's rate.

use std::collections::BTreeMap;

use murus_lab::balance::BalanceReport;
use serde::Serialize;

use crate::store::BotCheckRow;

/// The first player's share of the decided games, with its Wilson 95%
/// interval (as the people's, [`crate::summary::Rate`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotRate {
    pub wins: u64,
    pub decided: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

/// The bots' games' lengths in plies.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotLengths {
    pub mean: f64,
    pub median: u32,
    pub p5: u32,
    pub p95: u32,
}

/// The bots' figures of a finished check (its strongest level played).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotFigures {
    /// The bot level whose self-play games these are.
    pub level: String,
    pub games: u64,
    pub first_player: Option<BotRate>,
    pub draws: u64,
    pub lengths: BotLengths,
    /// How the games ended (`breakthrough-sow`, `ply-cap`, …) and how many.
    pub endings: BTreeMap<String, u64>,
}

/// A rules version's bots' check as the API shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotCheck {
    /// `running`, `done` or `failed`.
    pub state: String,
    /// What it plays, in words.
    pub settings: String,
    pub started_ms: i64,
    pub finished_ms: Option<i64>,
    /// The figures, once done.
    pub figures: Option<BotFigures>,
    /// Why it failed.
    pub error: Option<String>,
}

impl BotCheck {
    /// The check as kept.
    pub fn of(row: &BotCheckRow) -> BotCheck {
        let report: Option<BalanceReport> = row
            .report
            .as_deref()
            .and_then(|r| serde_json::from_str(r).ok());
        let figures = report.as_ref().and_then(figures);
        let error = match (&row.error, row.state.as_str(), &figures) {
            (Some(e), _, _) => Some(e.clone()),
            (None, "done", None) => Some("the kept report does not read".to_string()),
            _ => None,
        };
        BotCheck {
            state: row.state.clone(),
            settings: row.settings.clone(),
            started_ms: row.started_ms,
            finished_ms: row.finished_ms,
            figures,
            error,
        }
    }
}

/// The figures of `report`'s strongest level that played games.
pub fn figures(report: &BalanceReport) -> Option<BotFigures> {
    let level = report.levels.iter().rev().find(|l| l.report.games > 0)?;
    let r = &level.report;
    let draws = r.draws.count;
    let decided = r.games.saturating_sub(draws);
    let wins = r.first_player_advantage.wins;
    let first_player = (decided > 0).then(|| {
        let (low, high) = murus_lab::stats::wilson(wins, decided);
        BotRate {
            wins,
            decided,
            rate: wins as f64 / decided as f64,
            low,
            high,
        }
    });
    Some(BotFigures {
        level: level.level.clone(),
        games: r.games,
        first_player,
        draws,
        lengths: BotLengths {
            mean: r.length.mean,
            median: r.length.median,
            p5: r.length.p5,
            p95: r.length.p95,
        },
        endings: r.end_reasons.clone(),
    })
}

/// The fewest decided people's games that tell anything against the bots.
pub const MIN_PEOPLES_GAMES: u64 = 10;

/// Whether people and bots agree on the first player's rate: a
/// two-proportion z-test (pooled) at 95% (|z| > 1.96 disagrees), in one
/// line; "too few games to tell" under [`MIN_PEOPLES_GAMES`] decided
/// people's games (or with no decided bots' game).
pub fn agreement(people: Option<(u64, u64)>, bots: Option<(u64, u64)>) -> String {
    let (k1, n1) = people.unwrap_or((0, 0));
    let (k2, n2) = bots.unwrap_or((0, 0));
    if n1 < MIN_PEOPLES_GAMES || n2 == 0 {
        return format!(
            "too few games to tell whether people and bots agree on the first player's rate ({n1} people's decided games; {MIN_PEOPLES_GAMES} needed)"
        );
    }
    let (p1, p2) = (k1 as f64 / n1 as f64, k2 as f64 / n2 as f64);
    let pooled = (k1 + k2) as f64 / (n1 + n2) as f64;
    let se = (pooled * (1.0 - pooled) * (1.0 / n1 as f64 + 1.0 / n2 as f64)).sqrt();
    let z = if se > 0.0 { (p1 - p2) / se } else { 0.0 };
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    if z.abs() > 1.96 {
        format!(
            "people and bots disagree on the first player's rate: {} for people, {} for bots (two-proportion test at 95%, z = {z:.2})",
            pct(p1),
            pct(p2)
        )
    } else {
        format!(
            "people and bots agree on the first player's rate: {} for people, {} for bots (two-proportion test at 95%, z = {z:.2})",
            pct(p1),
            pct(p2)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verdict_says_agree_disagree_or_too_few() {
        assert!(agreement(Some((5, 9)), Some((50, 100))).starts_with("too few games"));
        assert!(agreement(None, Some((50, 100))).starts_with("too few games"));
        assert!(agreement(Some((11, 20)), Some((52, 100))).starts_with("people and bots agree"));
        assert!(agreement(Some((19, 20)), Some((50, 100))).starts_with("people and bots disagree"));
        assert!(agreement(Some((1, 20)), Some((50, 100))).contains("disagree"));
        // All wins on both sides: no spread, no disagreement.
        assert!(agreement(Some((20, 20)), Some((100, 100))).contains(" agree"));
    }
}
