//! Murals: the solitaire puzzles of Murus Gallicus.
//!
//! A mural is a board, a start of stacks (walls and towers of one or more
//! colours) and target cells. Towers are sown by the tower rules, by any
//! colour at any time; optionally a tower may sacrifice against an adjacent
//! wall of another colour. The mural is solved when exactly the targets
//! hold one stone each and no tower is left.
//!
//! ```
//! use murus_mural::{Puzzle, solve::{solve, Mode, Status}};
//!
//! let text = r#"
//! title = "Leapfrog"
//! board = "5x1"
//! start = "1r2r22"
//! targets = ["a1", "c1", "d1", "e1"]
//! "#;
//! let p = Puzzle::from_toml(text).unwrap();
//! // `&()`: nothing stops the search early and nobody hears its progress.
//! let s = solve(&p, &p.start, Mode::Optimal, 10_000, &());
//! assert_eq!(s.status, Status::Solved);
//! let moves: Vec<String> = s.moves.iter().map(|m| m.notation(&p.board)).collect();
//! // Two towers, but five moves: stones must land on own walls, making
//! // towers that are sown again.
//! assert_eq!(moves, ["c1-e1", "b1-d1", "d1-b1", "c1-a1", "b1-d1"]);
//! assert_eq!(murus_mural::replay(&p, &moves).unwrap().is_solved(&p.targets), true);
//! ```

pub mod board;
mod bound;
pub mod collection;
pub mod difficulty;
pub mod engine;
pub mod generate;
pub mod playout;
pub mod puzzle;
pub mod refute;
pub mod rules;
pub mod solve;

pub use board::{Board, BoardError, MuralMove, State};
pub use engine::replay_with_engine;
pub use puzzle::{Draft, GridError, Puzzle};
pub use refute::{Reason, refute};
pub use solve::{
    Count, Hint, Mode, Progress, Solution, Status, count, hint, hint_for, solve, verdict,
};

/// A move that is not one of the legal moves where it is played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// No move is legal there at all.
    #[error("`{text}` is not legal: no move is left")]
    NoMoveLeft { text: String },
    /// Not one of `legal` (in notation).
    #[error("`{text}` is not legal here; legal moves: {}", legal.join(" "))]
    Illegal { text: String, legal: Vec<String> },
}

/// A move of a replay that is not legal: its ply (from 1) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {ply}: {source}")]
pub struct ReplayError {
    pub ply: usize,
    pub source: MoveError,
}

/// Parses a move in notation (`a1-c3`, `b4xc5`) among the legal moves of
/// `state`.
pub fn parse_move(p: &Puzzle, state: &State, text: &str) -> Result<MuralMove, MoveError> {
    let mut moves = Vec::new();
    state.moves(&p.board, p.sacrifice, &mut moves);
    let text = text.trim();
    moves
        .iter()
        .copied()
        .find(|m| m.notation(&p.board) == text)
        .ok_or_else(|| {
            let legal: Vec<String> = moves.iter().map(|m| m.notation(&p.board)).collect();
            let text = text.to_string();
            if legal.is_empty() {
                MoveError::NoMoveLeft { text }
            } else {
                MoveError::Illegal { text, legal }
            }
        })
}

/// Plays `moves` (notation) from the start; the error names the ply.
pub fn replay(p: &Puzzle, moves: &[String]) -> Result<State, ReplayError> {
    let mut s = p.start.clone();
    for (i, text) in moves.iter().enumerate() {
        let m = parse_move(p, &s, text).map_err(|source| ReplayError { ply: i + 1, source })?;
        s.apply(m);
    }
    Ok(s)
}
