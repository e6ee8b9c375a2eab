//! Murals: the solitaire puzzles of Murus Gallicus.
//!
//! A mural is a board, a start of stacks (walls and towers of one or more
//! colours) and target cells. Towers are sown by the tower rules, by any
//! colour at any time; optionally a tower may sacrifice against an adjacent
//! wall of another colour. The mural is solved when exactly the targets
//! hold one stone each and no tower is left.
//!
//! ```
//! use murus_mural::{Puzzle, solve::{solve, Mode, Hooks, Status}};
//!
//! let text = r#"
//! title = "Leapfrog"
//! board = "5x1"
//! start = "1r2r22"
//! targets = ["a1", "c1", "d1", "e1"]
//! "#;
//! let p = Puzzle::from_toml(text).unwrap();
//! let s = solve(&p, &p.start, Mode::Optimal, 10_000, Hooks::default());
//! assert_eq!(s.status, Status::Solved);
//! let moves: Vec<String> = s.moves.iter().map(|m| m.notation(&p.board)).collect();
//! // Two towers, but five moves: stones must land on own walls, making
//! // towers that are sown again.
//! assert_eq!(moves, ["c1-e1", "b1-d1", "d1-b1", "c1-a1", "b1-d1"]);
//! assert_eq!(murus_mural::replay(&p, &moves).unwrap().is_solved(&p.targets), true);
//! ```

pub mod board;
pub mod generate;
pub mod puzzle;
pub mod refute;
pub mod solve;

pub use board::{Board, MuralMove, State};
pub use puzzle::Puzzle;
pub use refute::{Reason, refute};
pub use solve::{Count, Hint, Hooks, Mode, Solution, Status, count, hint, hint_for, solve};

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

/// Replays `moves` with the game engine instead of the mural move
/// generator: the puzzle's rules are written as a rules-language variant
/// ([`Puzzle::rules_source`]: stack limit 2, sowing onto empty cells and own
/// walls, sacrifice when allowed, no way to win), and each move is played
/// from the current position with the moving tower's colour to move.
/// Returns the final position as a mural grid (`r1/2/…`).
pub fn replay_with_engine(p: &Puzzle, moves: &[String]) -> Result<String, String> {
    use murus_engine::Variant;
    let v = Variant::compile(&p.rules_source()).map_err(|d| {
        let text = p.rules_source();
        murus_dsl::render_all(&d, "mural.mg", &text)
    })?;
    let mut grid = p.grid(&p.start);
    for (i, text) in moves.iter().enumerate() {
        let from = text
            .split(['-', 'x'])
            .next()
            .and_then(|c| p.board.parse_cell(c))
            .ok_or_else(|| format!("move {}: `{text}` does not start on a cell", i + 1))?;
        let state = p.parse_grid(&grid)?;
        let (colour, _) = state
            .get(from)
            .ok_or_else(|| format!("move {}: no stack on the first cell of `{text}`", i + 1))?;
        let position = format!("{grid} {}", p.colours[colour as usize]);
        let pos = v
            .parse_position(&position)
            .map_err(|e| format!("move {}: engine rejects `{position}`: {e}", i + 1))?;
        let m = v
            .parse_move(&pos, text)
            .map_err(|e| format!("move {}: engine rejects `{text}`: {e}", i + 1))?;
        // The variant has no breakthrough, so nobody wins; whether the next
        // side could move is irrelevant, as each move is set up afresh.
        let next = v.play(&pos, m);
        let s = v.position_string(&next);
        grid = s.split_whitespace().next().unwrap_or_default().to_string();
    }
    Ok(grid)
}
