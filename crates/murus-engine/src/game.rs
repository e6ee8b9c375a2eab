//! Games: a start position and the moves played, with the variant's draw
//! rules, undo, and records.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::draw::DrawTracker;
use crate::moves::Move;
use crate::notation::MoveError;
use crate::outcome::Outcome;
use crate::position_string::PositionError;
use crate::variant::{Position, Variant};

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    /// `positions[0]` is the start; `positions[i + 1]` follows `moves[i]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// The draw rules along the game (repetition since the last capture,
    /// the ply cap).
    line: DrawTracker,
}

/// Why a record cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("the record is for variant `{record}`, not `{variant}`")]
    WrongVariant { record: String, variant: String },
    #[error("the record's start position: {0}")]
    Start(#[from] PositionError),
    #[error("ply {ply}: {error}")]
    Move { ply: usize, error: MoveError },
    #[error("ply {ply}: `{text}` comes after the game ended")]
    AfterEnd { ply: usize, text: String },
    #[error("the record is not valid JSON: {0}")]
    Json(String),
}

/// A game as stored: moves in notation, so records stay readable and
/// survive engine changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Variant name.
    pub variant: String,
    /// Start position string, when not the variant's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// Moves in notation.
    pub moves: Vec<String>,
    /// The result, when the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<RecordResult>,
    /// Free-form tags (players, bots, seed, date, …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, String>,
}

/// A finished game's result in a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordResult {
    /// The winner's letter; `None` for a draw.
    pub winner: Option<char>,
    /// `breakthrough`, `stalemate`, `elimination`, `repetition`, `ply-cap`.
    pub reason: String,
    /// For a breakthrough: `sow`, `throw` or `delayed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// The winner's seat (0 for whoever sat at the first colour when the game
    /// began), which differs from its colour after a pie-rule `swap`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner_seat: Option<usize>,
}

impl Game {
    /// A game from the variant's start position.
    pub fn new(variant: &Variant) -> Game {
        Game::from_position(variant, variant.start())
    }

    /// A game from any position of the variant.
    pub fn from_position(variant: &Variant, start: Position) -> Game {
        Game {
            line: DrawTracker::new(variant.rules().draw, variant.hash(&start)),
            variant: variant.clone(),
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    pub fn variant(&self) -> &Variant {
        &self.variant
    }
    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }
    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }
    /// Moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// Every position from the start to the current one.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }
    /// Plies played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The legal moves now (none once the game is over, draws included).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome().is_some() {
            Vec::new()
        } else {
            self.variant.legal_moves(self.position())
        }
    }

    /// The result, if the game is over: by the rules of play, or drawn by
    /// the variant's repetition limit or ply cap.
    pub fn outcome(&self) -> Option<Outcome> {
        self.variant.end_of_game(self.position(), &self.line)
    }

    /// The draw rules along the game so far, for searches that must see
    /// repetitions and the ply cap.
    pub fn draw_tracker(&self) -> &DrawTracker {
        &self.line
    }

    /// Plays a legal move. Returns `false` (and changes nothing) when the
    /// move is not legal or the game is over.
    pub fn play(&mut self, m: Move) -> bool {
        if self.outcome().is_some() || !self.variant.is_legal(self.position(), m) {
            return false;
        }
        self.push(m);
        true
    }

    fn push(&mut self, m: Move) {
        let pos = *self.position();
        let capture = self.variant.is_capture(&pos, m);
        let next = self.variant.play(&pos, m);
        self.line.push(self.variant.hash(&next), capture);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Plays a move given in notation.
    pub fn play_str(&mut self, text: &str) -> Result<Move, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::Illegal {
                text: text.trim().to_string(),
                legal: Vec::new(),
            });
        }
        let m = self.variant.parse_move(self.position(), text)?;
        self.push(m);
        Ok(m)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.line.pop();
        Some(m)
    }

    /// The seat playing colour `player` now. Seats are numbered by the
    /// colours they held at the start; each pie-rule `swap` exchanges the
    /// first two.
    pub fn seat_of(&self, player: usize) -> usize {
        let swaps = self
            .moves
            .iter()
            .filter(|m| m.kind == crate::MoveKind::Swap)
            .count();
        if swaps % 2 == 1 && player < 2 {
            1 - player
        } else {
            player
        }
    }

    /// The game as a record.
    pub fn record(&self) -> GameRecord {
        let start = self.start();
        GameRecord {
            variant: self.variant.name().to_string(),
            start: (*start != self.variant.start()).then(|| self.variant.position_string(start)),
            moves: self
                .moves
                .iter()
                .map(|&m| self.variant.move_to_string(m))
                .collect(),
            result: self.outcome().map(|o| RecordResult {
                winner: o.winner.map(|w| self.variant.letter(w)),
                reason: o.reason.as_str().to_string(),
                by: o.reason.by().map(str::to_string),
                winner_seat: o.winner.map(|w| self.seat_of(w)),
            }),
            tags: BTreeMap::new(),
        }
    }

    /// Replays a record, checking every move.
    pub fn from_record(variant: &Variant, record: &GameRecord) -> Result<Game, RecordError> {
        if record.variant != variant.name() {
            return Err(RecordError::WrongVariant {
                record: record.variant.clone(),
                variant: variant.name().to_string(),
            });
        }
        let start = match &record.start {
            Some(s) => variant.parse_position(s)?,
            None => variant.start(),
        };
        let mut game = Game::from_position(variant, start);
        for (i, text) in record.moves.iter().enumerate() {
            if game.outcome().is_some() {
                return Err(RecordError::AfterEnd {
                    ply: i + 1,
                    text: text.clone(),
                });
            }
            game.play_str(text)
                .map_err(|error| RecordError::Move { ply: i + 1, error })?;
        }
        Ok(game)
    }
}

impl GameRecord {
    /// Reads a record from JSON.
    pub fn from_json(text: &str) -> Result<GameRecord, RecordError> {
        serde_json::from_str(text).map_err(|e| RecordError::Json(e.to_string()))
    }
    /// The record as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("records serialise")
    }
}
