//! What the strongest level's games show, as the report keeps it: a
//! representative game with its scores ([`GameSection`]) and the tactics
//! harvested from every game ([`TacticsSection`]). `murus_lab::designer`
//! plays and searches them.

use murus_engine::Record;
use serde::{Deserialize, Serialize};

/// A proven win in the scores, in centi-stones (a proven loss is its
/// negative).
pub const PROVEN_CP: i32 = 100_000;

/// A game is clear once the eventual winner's score stays at least this
/// high (two stones) to the end.
pub const CLEAR_CP: i32 = 200;

/// The representative game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSection {
    pub answer: String,
    /// The level whose games it is one of, and its number there.
    pub level: String,
    pub game: u64,
    /// The start, as a position string, and the moves in notation (the
    /// first `openings` of them random, as every game of the check opens).
    pub start: String,
    pub moves: Vec<String>,
    pub openings: u32,
    pub winner: Option<char>,
    pub reason: String,
    /// The score of each position (the start first), from the first
    /// player's point of view, in centi-stones (a proven win
    /// ±[`PROVEN_CP`]); `None` where not searched.
    pub scores: Vec<Option<i32>>,
    /// The depth each position's search reached (the start first; 0 where
    /// the game is over).
    #[serde(default)]
    pub depths: Vec<u32>,
    /// The game as `murus analyze --game` annotates it: the score after
    /// each move with its depth, `??` on each blunder with the better line.
    #[serde(default)]
    pub record: Option<Record>,
    /// The nodes each position's search had.
    pub nodes: u64,
    /// The ply after which the winner's score stayed at least
    /// [`CLEAR_CP`] to the end.
    pub clear_at: Option<usize>,
}

/// One puzzle harvested from the games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleEntry {
    pub position: String,
    /// The side to move's letter.
    pub mover: char,
    /// Win within this many of its moves (and not fewer).
    pub n: u32,
    /// The one winning first move.
    pub solution: String,
    /// Where it was found: the game's number and the ply.
    pub game: u64,
    pub ply: usize,
}

/// The tactics of the strongest level's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TacticsSection {
    pub answer: String,
    pub level: String,
    /// Wins within at most this many moves were looked for.
    pub most_n: u32,
    pub positions: u64,
    /// Puzzles found, and the hardest of them (most moves first).
    pub found: u64,
    pub puzzles: Vec<PuzzleEntry>,
    /// Decisive games, and those in which the loser, to move, had a forced
    /// win within `most_n` moves at least once and lost anyway.
    pub decisive: u64,
    pub missed: u64,
}
