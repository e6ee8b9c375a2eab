//! Murals through the game engine: a puzzle's rules as a rules-language
//! variant ([`crate::rules`]) that the engine compiles, and mural moves
//! replayed by it. The solver keeps its own fast move generator
//! ([`crate::board::MuralMove`]); this is how tests check it against the
//! engine's.

use crate::puzzle::Puzzle;

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
