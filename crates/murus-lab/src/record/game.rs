//! One finished game: its statistics record ([`GameStats`], what reports
//! count) and its whole line of `games.jsonl` ([`GameResult`]: the record,
//! its seed, seats, colours and moves).

use std::sync::Arc;

use murus_engine::Reason;
use serde::{Deserialize, Serialize};

use super::quality::GameMetrics;

/// What a report needs of one finished game: a small `Copy` record, the
/// part of a [`GameResult`] without its moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameStats {
    /// Game number within the run (0-based).
    pub index: u64,
    /// Winner's colour letter, or `None` for a draw.
    pub winner: Option<char>,
    /// Winner's seat (differs from the colour's start seat after a pie swap).
    pub winner_seat: Option<usize>,
    /// Why the game ended, written as `reason` (`breakthrough`,
    /// `stalemate`, `elimination`, `repetition`, `ply-cap`, …; in a
    /// playtest run, also the endings people give: `resignation`,
    /// `agreement`, `time`) and `by` (for a breakthrough: `sow`, `throw`
    /// or `delayed`; else `null`).
    #[serde(flatten, with = "end_reason")]
    pub reason: Reason,
    pub plies: u32,
    /// Sum and maximum over plies of the number of legal moves.
    pub branching_sum: u64,
    pub branching_max: u32,
    /// Plies with exactly one legal move.
    pub forced: u32,
    /// How often the evaluation's leader changed during the game, measured
    /// after each full round (every `players` plies).
    pub lead_changes: u32,
    /// The colour the evaluation favoured after the last full round within
    /// the first three quarters of the game.
    pub leader_at_three_quarters: Option<char>,
    /// The game-quality metrics of the game ([`crate::metrics`]); `None`
    /// in lines written before them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<Box<GameMetrics>>,
}

/// An end reason as the two fields `reason` and `by` of a game line.
mod end_reason {
    use murus_engine::Reason;
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Fields {
        reason: String,
        #[serde(default)]
        by: Option<String>,
    }

    pub fn serialize<S: Serializer>(reason: &Reason, s: S) -> Result<S::Ok, S::Error> {
        Fields {
            reason: reason.as_str().to_string(),
            by: reason.by().map(str::to_string),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Reason, D::Error> {
        let f = Fields::deserialize(d)?;
        Reason::from_parts(&f.reason, f.by.as_deref()).ok_or_else(|| {
            D::Error::custom(format!(
                "unknown end reason `{}`{}",
                f.reason,
                f.by.map_or(String::new(), |by| format!(" by `{by}`"))
            ))
        })
    }
}

/// The key of an end reason in [`Report::end_reasons`]: `breakthrough-sow`,
/// `stalemate`, ….
pub(crate) fn reason_key(reason: Reason) -> String {
    match reason.by() {
        Some(by) => format!("{}-{by}", reason.as_str()),
        None => reason.as_str().to_string(),
    }
}

/// The statistics records of `games`.
pub fn stats_of(games: &[GameResult]) -> Vec<GameStats> {
    games.iter().map(|g| g.stats.clone()).collect()
}

/// One finished game, as written to `games.jsonl` (one JSON object a line:
/// the statistics' fields, then `seed`, `seats`, `colours` and `moves`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// What reports count: the game's number, winner, end and figures.
    #[serde(flatten)]
    pub stats: GameStats,
    /// The game's own seed.
    pub seed: u64,
    /// Bot spec per seat (shared by the games of a run: a thread's games
    /// of the same bots hold one copy).
    pub seats: Arc<[String]>,
    /// Letter of the colour each seat started with.
    pub colours: Vec<char>,
    /// The moves in notation.
    pub moves: Vec<String>,
}
