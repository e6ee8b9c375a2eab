//! Openings, as the report keeps them: the first moves ranked by the
//! results and scores of strong play, with intervals and best replies, and
//! the first moves strong play never chooses. `murus_lab::designer`
//! studies them.

use serde::{Deserialize, Serialize};

/// One first move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningMove {
    #[serde(rename = "move")]
    pub first: String,
    /// Its score for the first player, in centi-stones (a proven win
    /// ±[`PROVEN_CP`]).
    pub score: Option<i32>,
    pub games: u64,
    pub first_wins: u64,
    pub draws: u64,
    /// The first player's share of the games' wins, and its 95% interval.
    pub rate: f64,
    pub ci95: [f64; 2],
    /// The best replies by the search, best first, each with its score for
    /// the first player.
    pub replies: Vec<(String, Option<i32>)>,
    /// The depth the search of the replies reached (0: not searched, the
    /// move ending the game).
    #[serde(default)]
    pub replies_depth: u32,
    /// The strongest bot chose it at least once.
    pub chosen: bool,
}

/// The openings section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningsSection {
    pub answer: String,
    /// The level whose games give the rates, and the bot that was asked.
    pub level: String,
    pub asked: String,
    pub search_nodes: u64,
    /// The depth the search of the first moves reached.
    #[serde(default)]
    pub search_depth: u32,
    /// Ranked, best for the first player first.
    pub moves: Vec<OpeningMove>,
    /// First moves the strongest bot never chose.
    pub never: Vec<String>,
    /// Legal first moves in all (more than studied with a pie rule).
    pub legal: usize,
    /// The games are the balance check's at `level` (each game's first
    /// move is one of its random opening plies), not games of their own
    /// opening with the search's best replies.
    #[serde(default)]
    pub from_balance: bool,
}
