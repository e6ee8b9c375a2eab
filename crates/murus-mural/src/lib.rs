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
pub mod puzzle;
pub mod refute;
pub mod rules;
pub mod solve;

pub use board::{Board, MuralMove, State};
pub use engine::replay_with_engine;
pub use puzzle::{Draft, Puzzle};
pub use refute::{Reason, refute};
pub use solve::{
    Count, Hint, Mode, Progress, Solution, Status, count, hint, hint_for, solve, verdict,
};

/// Parses a move in notation (`a1-c3`, `b4xc5`) among the legal moves of
/// `state`.
pub fn parse_move(p: &Puzzle, state: &State, text: &str) -> Result<MuralMove, String> {
    let mut moves = Vec::new();
    state.moves(&p.board, p.sacrifice, &mut moves);
    let text = text.trim();
    moves
        .iter()
        .copied()
        .find(|m| m.notation(&p.board) == text)
        .ok_or_else(|| {
            let legal: Vec<String> = moves.iter().map(|m| m.notation(&p.board)).collect();
            if legal.is_empty() {
                format!("`{text}` is not legal: no move is left")
            } else {
                format!(
                    "`{text}` is not legal here; legal moves: {}",
                    legal.join(" ")
                )
            }
        })
}

/// Plays `moves` (notation) from the start; the error names the ply.
pub fn replay(p: &Puzzle, moves: &[String]) -> Result<State, String> {
    let mut s = p.start.clone();
    for (i, text) in moves.iter().enumerate() {
        let m = parse_move(p, &s, text).map_err(|e| format!("move {}: {e}", i + 1))?;
        s.apply(m);
    }
    Ok(s)
}
