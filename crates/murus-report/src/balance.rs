//! The balance check's report (`balance.json`): each level's self-play
//! report and why it stopped, the skill trace of adjacent levels' matches,
//! and the verdict (written by `murus_lab::balance::verdict`).

use serde::{Deserialize, Serialize};

use crate::record::{BookId, VariantId};
use crate::run::Report;
use crate::shard::Shard;

/// Why a level stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// The interval reached the asked precision.
    Precision,
    /// The first player's edge (or handicap) is clear.
    ClearEdge,
    /// It played all the games it may.
    Games,
    /// The check was stopped (Ctrl-C, a cancel) first.
    Interrupted,
}

impl StopReason {
    /// The reason in words: `precision reached`, `clear edge`, ….
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::Precision => "precision reached",
            StopReason::ClearEdge => "clear edge",
            StopReason::Games => "all its games",
            StopReason::Interrupted => "interrupted",
        }
    }
}

/// One level's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelResult {
    pub level: String,
    pub bot: String,
    pub stopped: StopReason,
    /// The self-play report of the level's games: the first player's and
    /// each colour's rates, draws, ply-cap stops, length, endings.
    pub report: Report,
}

/// The strength one level adds over the level below, from their match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkillGap {
    pub upper: String,
    pub lower: String,
    pub games: u64,
    /// The upper level's score.
    pub score: f64,
    /// The upper level's Elo advantage and its 95% interval (infinite
    /// bounds as `null`).
    pub elo: Option<f64>,
    pub elo_ci95: [Option<f64>; 2],
}

impl SkillGap {
    /// The interval's lower bound, `-inf` where unbounded.
    pub fn lo(&self) -> f64 {
        self.elo_ci95[0].unwrap_or(f64::NEG_INFINITY)
    }

    /// The Elo advantage and its interval in words: `+80 [+21, +142]`.
    pub fn elo_text(&self) -> String {
        let bound = |b: Option<f64>, inf: &str| b.map_or(inf.to_string(), |x| format!("{x:+.0}"));
        format!(
            "{} [{}, {}]",
            self.elo.map_or_else(
                || if self.score >= 0.5 {
                    "+inf".into()
                } else {
                    "-inf".into()
                },
                |e| format!("{e:+.0}")
            ),
            bound(self.elo_ci95[0], "-inf"),
            bound(self.elo_ci95[1], "+inf")
        )
    }
}

/// The balance report (`balance.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BalanceReport {
    pub variant: VariantId,
    pub engine_version: String,
    pub seed: u64,
    pub openings: u32,
    /// The opening book every level's and match's games open from; left
    /// out when none (reports written before books load as none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<BookId>,
    /// The stopping rule: `precision 0.03 up to 2000 games` or `games N`.
    pub stopping: String,
    pub shard: Option<Shard>,
    /// Whether the variant has the pie rule.
    pub pie_rule: bool,
    pub levels: Vec<LevelResult>,
    /// Adjacent levels' matches, weakest pair first (two players only).
    pub skill: Vec<SkillGap>,
    /// The verdict, a sentence a line (`murus_lab::balance::verdict`).
    pub verdict: Vec<String>,
    pub interrupted: bool,
    /// The shards (`K/N`) a merge lacked, when it was asked to merge the
    /// shards present (`--allow-partial`): the report covers their games
    /// only. Left out of the JSON of a whole run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_shards: Vec<String>,
}

impl BalanceReport {
    /// The report as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("reports serialise") + "\n"
    }
}

/// The strongest level of a check that played games: the one the sweep's
/// heat map and table's headline figures show.
pub fn strongest(b: &BalanceReport) -> Option<&LevelResult> {
    b.levels.iter().rev().find(|l| l.report.games > 0)
}
