//! The report's sections, as `report.json` holds them: each with its answer
//! in a line and the figures behind it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{
    BoardSection, Budget, Comparison, CurvesSection, EndingsSection, GameSection, OpeningsSection,
    Playouts, TacticsSection,
};
use crate::balance::BalanceReport;
use crate::ladder::Ladder;
use crate::metrics::Metrics;
use crate::record::VariantId;

/// The rules: what they are and what the bots evaluate them with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesSection {
    pub answer: String,
    pub variant: VariantId,
    pub title: String,
    pub players: usize,
    pub cells: u32,
    /// The start, as a position string.
    pub start: String,
    /// The evaluation every searching bot used: `generic`, or a trained
    /// one's digest, with a line about it.
    pub evaluation: String,
    pub evaluation_summary: String,
}

/// Speed and size: random playouts of the variant, and of the standard
/// game for comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedSection {
    pub answer: String,
    pub command: String,
    pub playouts: Playouts,
    /// The standard game's figures (left out for the standard game).
    pub standard: Option<Playouts>,
}

/// Fairness by level: the balance check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FairnessSection {
    pub answer: String,
    pub command: String,
    pub balance: BalanceReport,
}

/// Depth: the skill ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderSection {
    pub answer: String,
    pub command: String,
    pub ladder: Ladder,
    /// Where one colour's edge decides the ladder's matches (over 90% of a
    /// match's games won by the first player, or by the second): what that
    /// means ([`Ladder::colour_warning`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// The proof search's answer on the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolvedSection {
    pub answer: String,
    pub command: String,
    /// `win` (the first player wins), `loss`, `draw`, or `unknown` within
    /// the budget.
    pub value: String,
    pub winner: Option<char>,
    /// The first player's winning first moves, in notation.
    pub winning: Vec<String>,
    pub nodes: u64,
    pub budget_nodes: u64,
    /// When proved: whether the strongest level's balance verdict agrees
    /// (a significant edge for the winner, or none for a draw).
    pub balance_agrees: Option<bool>,
    /// The value shown is the game's with its ply cap, ended there as the
    /// rules say (the rules decide a game at the cap: `adjudicate …`);
    /// otherwise the game's without the cap, endless play a draw.
    #[serde(default)]
    pub with_cap: bool,
    /// The rules' ply cap, when the value is the game's with it.
    #[serde(default)]
    pub ply_cap: Option<u32>,
    /// The board's cells, where the search was not attempted: more than
    /// [`SOLVE_MOST_CELLS`](super::SOLVE_MOST_CELLS), hopeless within a
    /// report's budget (`value` is then `unknown`, `nodes` 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_attempted: Option<usize>,
}

/// Game quality: the metrics of the strongest level's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QualitySection {
    pub answer: String,
    pub level: String,
    pub metrics: Metrics,
    /// The figures outside their usual range, in words.
    pub flags: Vec<String>,
}

/// What depends on the machine: seconds per stage and the playouts' rate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub playouts_per_second: f64,
    pub standard_playouts_per_second: Option<f64>,
    /// Stage → seconds it took (in the run that played it).
    pub seconds: BTreeMap<String, f64>,
}

/// The designer's report (`report.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DesignerReport {
    pub format: u32,
    pub budget: Budget,
    pub seed: u64,
    /// The command that makes the whole report again.
    pub command: String,
    pub rules: RulesSection,
    pub speed: SpeedSection,
    pub fairness: FairnessSection,
    /// `None` for games of more than two players.
    pub ladder: Option<LadderSection>,
    pub solved: Option<SolvedSection>,
    pub quality: QualitySection,
    /// From the strongest level's games (`None` without a run folder, where
    /// the games are not kept).
    pub game: Option<GameSection>,
    pub tactics: Option<TacticsSection>,
    /// Two players only.
    pub openings: Option<OpeningsSection>,
    /// The strongest level's games by ply: moves, material and score
    /// (`None` without a run folder, as `game`; and in reports written
    /// before it).
    #[serde(default)]
    pub curves: Option<CurvesSection>,
    /// The strongest level's games on the board: heat maps.
    #[serde(default)]
    pub board: Option<BoardSection>,
    /// How games end at each level, by reason and winner.
    #[serde(default)]
    pub endings: Option<EndingsSection>,
    /// With another variant (its own report is in `compare/NAME/`).
    pub comparison: Option<Comparison>,
    /// With `--train`: the evaluation trained for this report, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub training: Option<String>,
    pub timing: Timing,
}

impl DesignerReport {
    /// Each section's title and answer, in the page's order (the sections
    /// the report has).
    pub fn answers(&self) -> Vec<(&'static str, &str)> {
        let mut out = vec![("The rules", self.rules.answer.as_str())];
        if let Some(g) = &self.game {
            out.push(("A representative game", &g.answer));
        }
        out.push(("Speed and size", &self.speed.answer));
        out.push(("Fairness by level", &self.fairness.answer));
        if let Some(l) = &self.ladder {
            out.push(("Depth: the skill ladder", &l.answer));
        }
        if let Some(s) = &self.solved {
            out.push(("Solved?", &s.answer));
        }
        out.push(("Game quality", &self.quality.answer));
        if let Some(c) = &self.curves {
            out.push(("The course of play", &c.answer));
        }
        if let Some(b) = &self.board {
            out.push(("On the board", &b.answer));
        }
        if let Some(e) = &self.endings {
            out.push(("How games end", &e.answer));
        }
        if let Some(o) = &self.openings {
            out.push(("Openings", &o.answer));
        }
        if let Some(t) = &self.tactics {
            out.push(("Tactics", &t.answer));
        }
        if let Some(c) = &self.comparison {
            out.push(("Comparison", &c.answer));
        }
        out
    }
}
