//! The designer's report as data ([`DesignerReport`], `report.json`): one
//! answer a section, each a line in words with the figures behind it.
//! `murus_lab::designer` makes it (the report run: self-play, the ladder,
//! the proof search); `murus_publish` renders it as a page.
//!
//! `docs/report.md` describes each section's method.

mod compare;
mod games;
mod openings;
mod plays;
mod sections;
mod speed;

use serde::{Deserialize, Serialize};

pub use crate::text::reason_words;
pub use compare::{Comparison, Row, compare};
pub use games::{CLEAR_CP, GameSection, PROVEN_CP, PuzzleEntry, TacticsSection};
pub use openings::{OpeningMove, OpeningsSection};
pub use plays::{
    Band, BoardSection, CurvesSection, Ending, EndingsSection, FirstMove, LevelEndings,
    MIN_FIRST_GAMES, MIN_GOING,
};
pub use sections::{
    DesignerReport, FairnessSection, LadderSection, QualitySection, RulesSection, SolvedSection,
    SpeedSection, Timing,
};
pub use speed::{Distribution, Playouts};

/// The layout of `report.json` this version writes.
pub const FORMAT: u32 = 1;

/// How much a report may spend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Budget {
    /// Under 3 minutes on two cores for the standard game.
    #[default]
    Quick,
    /// Under 30 minutes.
    Standard,
    /// As long as it takes.
    Deep,
}

impl Budget {
    pub const ALL: [Budget; 3] = [Budget::Quick, Budget::Standard, Budget::Deep];

    pub fn name(self) -> &'static str {
        match self {
            Budget::Quick => "quick",
            Budget::Standard => "standard",
            Budget::Deep => "deep",
        }
    }

    /// What each stage gets.
    pub fn plan(self) -> Plan {
        match self {
            Budget::Quick => Plan {
                playouts: 5_000,
                levels: "random,easy,medium,hard",
                games: 100,
                ladder_games: 60,
                ladder_block: 10,
                ladder_most_nodes: 1 << 12,
                solve_nodes: 2_000_000,
                review_nodes: 20_000,
                tactics_moves: 2,
                openings_level: "medium",
                train_positions: 20_000,
            },
            Budget::Standard => Plan {
                playouts: 20_000,
                levels: "random,easy,medium,hard",
                games: 400,
                ladder_games: 200,
                ladder_block: 10,
                ladder_most_nodes: 1 << 16,
                solve_nodes: 50_000_000,
                review_nodes: 200_000,
                tactics_moves: 2,
                openings_level: "hard",
                train_positions: 200_000,
            },
            Budget::Deep => Plan {
                playouts: 100_000,
                levels: "random,easy,medium,hard,expert",
                games: 1_000,
                ladder_games: 400,
                ladder_block: 20,
                ladder_most_nodes: 1 << 20,
                solve_nodes: 1_000_000_000,
                review_nodes: 1_000_000,
                tactics_moves: 3,
                openings_level: "hard",
                train_positions: 400_000,
            },
        }
    }
}

/// The most cells of a board whose proof search a report attempts: the
/// largest board the proof search has solved (6×5, the standard rules,
/// `docs/solving.md`) within far more nodes than a report's budget. A
/// larger board (the standard game's 8×7 has 56) is not attempted, and the
/// section says so; `murus solve` tries it on a budget of its own.
pub const SOLVE_MOST_CELLS: usize = 30;

/// A budget's share for each stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Random playouts for speed and size.
    pub playouts: u64,
    /// The balance check's levels.
    pub levels: &'static str,
    /// Games at each level.
    pub games: u64,
    /// The most games of each ladder match.
    pub ladder_games: u64,
    /// Games between two looks of a ladder match's sequential test (five
    /// pairs, at most ten: a lopsided match stops after 10 games, where
    /// blocks of 20 to 80 played on to their end; each block is a run
    /// folder, the unit a ladder resumes and shards by).
    pub ladder_block: u64,
    /// The ladder's largest budget, in nodes.
    pub ladder_most_nodes: u64,
    /// The proof search's nodes.
    pub solve_nodes: u64,
    /// Nodes of the search of each position of the representative game.
    pub review_nodes: u64,
    /// Tactics: forced wins within at most this many moves.
    pub tactics_moves: u32,
    /// The level whose games rank the first moves.
    pub openings_level: &'static str,
    /// With `--train`: positions of self-play to train an evaluation on.
    pub train_positions: u64,
}
