//! Murals through the game engine: a puzzle's rules as a rules-language
//! variant ([`Puzzle::rules_source`]: stack limit 2, sowing onto empty cells
//! and own walls, sacrifice when allowed, no way to win) that the engine
//! compiles, and mural positions and moves played by it. The solver keeps
//! its own fast move generator ([`crate::board::MuralMove`]); this is what
//! tests check it against (`tests/mural/engine.rs`).
//!
//! A mural lets every colour move at any time, and the engine lets one
//! side move: so a mural position is the engine's position once per colour,
//! that colour to move.

use murus_engine::{Position, PositionError, Variant};

use crate::board::State;
use crate::puzzle::{GridError, Puzzle};

/// Why a mural does not go through the game engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The rules compiler refuses the puzzle's rules: its report, rendered
    /// like rustc's against `mural.mg`.
    #[error("{rendered}")]
    Rules { rendered: String },
    #[error("colour {colour} is not one of the puzzle's")]
    NoColour { colour: u8 },
    /// The engine does not read the position string of a mural state.
    #[error("the engine rejects `{position}`: {source}")]
    Position {
        position: String,
        source: PositionError,
    },
    /// The engine's position string does not read back as a mural state.
    #[error(transparent)]
    Grid(#[from] GridError),
    #[error("`{text}` does not start on a cell")]
    NoCell { text: String },
    #[error("no stack on the first cell of `{text}`")]
    NoStack { text: String },
    #[error("engine rejects `{text}`: {source}")]
    Move {
        text: String,
        source: murus_engine::MoveError,
    },
    /// What went wrong at a replay's move `ply` (from 1).
    #[error("move {ply}: {source}")]
    AtMove {
        ply: usize,
        source: Box<EngineError>,
    },
}

impl EngineError {
    /// This error at a replay's move `ply`.
    fn at(self, ply: usize) -> EngineError {
        EngineError::AtMove {
            ply,
            source: Box::new(self),
        }
    }
}

/// The puzzle's rules, compiled by the engine. The error is the rules
/// compiler's report.
pub fn variant(p: &Puzzle) -> Result<Variant, EngineError> {
    let text = p.rules_source();
    Variant::compile(&text).map_err(|d| EngineError::Rules {
        rendered: murus_dsl::render_all(&d, "mural.mg", &text),
    })
}

/// The engine's position of `state` with the towers of `colour` to move.
pub fn position(
    p: &Puzzle,
    v: &Variant,
    state: &State,
    colour: u8,
) -> Result<Position, EngineError> {
    let letter = p
        .colours
        .get(colour as usize)
        .ok_or(EngineError::NoColour { colour })?;
    let position = format!("{} {letter}", p.grid(state));
    v.parse_position(&position)
        .map_err(|source| EngineError::Position { position, source })
}

/// The mural state of an engine position (its position string's grid).
pub fn state_of(p: &Puzzle, v: &Variant, pos: &Position) -> Result<State, EngineError> {
    let text = v.position_string(pos);
    Ok(p.parse_grid(text.split_whitespace().next().unwrap_or_default())?)
}

/// The engine's legal moves for the towers of `colour` in `state`, in
/// notation, each with the state it leads to.
pub fn moves(
    p: &Puzzle,
    v: &Variant,
    state: &State,
    colour: u8,
) -> Result<Vec<(String, State)>, EngineError> {
    let pos = position(p, v, state, colour)?;
    v.legal_moves(&pos)
        .into_iter()
        .map(|m| Ok((v.move_to_string(m), state_of(p, v, &v.play(&pos, m))?)))
        .collect()
}

/// Replays `moves` with the game engine instead of the mural move
/// generator, each from the current position with the moving tower's
/// colour to move. Returns the final position as a mural grid (`r1/2/…`).
pub fn replay_with_engine(p: &Puzzle, moves: &[String]) -> Result<String, EngineError> {
    let v = variant(p)?;
    let mut state = p.start.clone();
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let from = text
            .split(['-', 'x'])
            .next()
            .and_then(|c| p.board.parse_cell(c))
            .ok_or_else(|| EngineError::NoCell { text: text.clone() }.at(ply))?;
        let (colour, _) = state
            .get(from)
            .ok_or_else(|| EngineError::NoStack { text: text.clone() }.at(ply))?;
        let pos = position(p, &v, &state, colour).map_err(|e| e.at(ply))?;
        let m = v.parse_move(&pos, text).map_err(|source| {
            EngineError::Move {
                text: text.clone(),
                source,
            }
            .at(ply)
        })?;
        // The variant has no breakthrough, so nobody wins; whether the next
        // side could move is irrelevant, as each move is set up afresh.
        state = state_of(p, &v, &v.play(&pos, m)).map_err(|e| e.at(ply))?;
    }
    Ok(p.grid(&state))
}
