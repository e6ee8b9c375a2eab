//! Mural boards: any board the rules language describes, with the lines a
//! tower sows along and the neighbours it may sacrifice against, computed
//! once. Beneath the puzzle format and every search:
//!
//! * `state`: the stones on a board ([`State`]) and their exact packed key;
//! * `moves`: the tower moves ([`MuralMove`]), generated and played (the
//!   solver's copy of the engine's sowing, checked against the engine by a
//!   property test, `tests/mural/engine.rs`);
//! * `symmetry`: the board's symmetries that keep the targets in place;
//! * `weights`: weightings of the cells modulo 3 that no sowing changes.

mod moves;
mod state;
mod symmetry;
pub(crate) mod weights;

use murus_dsl::Geometry;

pub use moves::MuralMove;
pub use state::{Key, Stack, State};
pub use symmetry::{Symmetry, symmetries};

use crate::rules::{board_statement, rules_source};
use weights::{Tri, line_invariants};

/// A mural board: the geometry, with the lines a tower sows along and the
/// neighbours a tower may sacrifice against, precomputed.
#[derive(Clone, Debug)]
pub struct Board {
    /// The board as written in the puzzle (`5x5`, `hex 3`, …).
    pub text: String,
    pub geometry: Geometry,
    /// Per slot: `(c1, c2)` for each direction whose two steps exist.
    lines: Vec<Vec<(u8, u8)>>,
    /// Per slot: the adjacent cells.
    adjacent: Vec<Vec<u8>>,
    /// Per slot: the cells its sowing lines land on, as a bit set (empty on
    /// boards over [`MAX_SLOTS`]).
    landings: Vec<u64>,
    /// A basis of the weightings of the cells modulo 3 under which every
    /// sowing line's three cells weigh 0 together (see `weights`).
    invariants: Vec<Tri>,
}

impl Board {
    /// Parses board text (`5x5`, `rect 6 x 5 without cells a1`, `hex 3`).
    /// The error is the rules compiler's message, or says that the board is
    /// too large for a mural.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        // Checked first, as the rules compiler allows larger boards and
        // would name its own limit.
        if let Some(slots) = grid_size(&board_statement(text)) {
            if slots > MAX_SLOTS {
                return Err(BoardError::TooLarge { slots });
            }
        }
        let source = rules_source(text, &['r'], false);
        let rules = match murus_dsl::compile(&source) {
            Ok(c) => c.rules,
            Err(diags) => {
                let d = diags
                    .iter()
                    .find(|d| d.is_error())
                    .or(diags.first())
                    .expect("a failed compile reports something");
                return Err(BoardError::Rules {
                    message: d.message.clone(),
                    note: d.notes.first().cloned(),
                });
            }
        };
        if rules.geometry.slots() > MAX_SLOTS {
            return Err(BoardError::TooLarge {
                slots: rules.geometry.slots(),
            });
        }
        Ok(Board::from_geometry(text.trim(), rules.geometry))
    }

    pub fn from_geometry(text: &str, geometry: Geometry) -> Board {
        let slots = geometry.slots();
        let mut lines = vec![Vec::new(); slots];
        let mut adjacent = vec![Vec::new(); slots];
        for s in geometry.cells() {
            for &d in geometry.directions() {
                if let Some(a) = geometry.step(s, d, 1) {
                    adjacent[s].push(a as u8);
                    if let Some(b) = geometry.step(s, d, 2) {
                        lines[s].push((a as u8, b as u8));
                    }
                }
            }
        }
        let landings = if slots <= MAX_SLOTS {
            lines
                .iter()
                .map(|l: &Vec<(u8, u8)>| l.iter().fold(0u64, |m, &(a, b)| m | 1 << a | 1 << b))
                .collect()
        } else {
            vec![0; slots]
        };
        let mut board = Board {
            text: text.to_string(),
            geometry,
            lines,
            adjacent,
            landings,
            invariants: Vec::new(),
        };
        board.invariants = line_invariants(&board);
        board
    }

    pub fn slots(&self) -> usize {
        self.geometry.slots()
    }

    /// The sowing lines from `slot`.
    pub fn lines(&self, slot: usize) -> &[(u8, u8)] {
        &self.lines[slot]
    }

    pub fn adjacent(&self, slot: usize) -> &[u8] {
        &self.adjacent[slot]
    }

    /// The cells the sowing lines from `slot` land on, as a bit set.
    pub(crate) fn landings(&self, slot: usize) -> u64 {
        self.landings[slot]
    }

    /// A basis of the cell weightings modulo 3 that no sowing changes the
    /// stones' total of (see `weights`); each vanishes on the first
    /// cell, so the constant weighting, which only counts stones, is left out.
    pub(crate) fn invariants(&self) -> &[Tri] {
        &self.invariants
    }

    pub fn name(&self, slot: usize) -> String {
        self.geometry.name(slot)
    }

    pub fn parse_cell(&self, name: &str) -> Option<usize> {
        self.geometry.parse_cell(name.trim())
    }
}

/// The largest bounding grid a mural board may have: states pack into a
/// [`Key`] of 64 four-bit cells.
pub const MAX_SLOTS: usize = 64;

/// Why a board whose bounding grid has `slots` cells is refused.
/// Why board text is no mural board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The bounding grid has more than [`MAX_SLOTS`] cells.
    #[error(
        "murals allow boards whose bounding grid has at most {MAX_SLOTS} cells (8x8, 16x4, hex 4); this one has {slots}"
    )]
    TooLarge { slots: usize },
    /// The rules compiler refuses the board statement: its message, and its
    /// first note.
    #[error("{message}{}", note.as_ref().map_or(String::new(), |n| format!(" ({n})")))]
    Rules {
        message: String,
        note: Option<String>,
    },
}

/// The bounding grid's cell count of a plain board statement (`rect 20 x 20`,
/// `hex 7`, with or without `without …`), before compiling it; `None` for
/// anything else.
fn grid_size(statement: &str) -> Option<usize> {
    let shape = statement.split("without").next()?.trim();
    if let Some(side) = shape.strip_prefix("hex") {
        let n: usize = side.trim().parse().ok()?;
        let w = (2 * n).checked_sub(1)?;
        return w.checked_mul(w);
    }
    let dims = shape.strip_prefix("rect")?;
    let (w, h) = dims.split_once(['x', 'X', '×'])?;
    let (w, h): (usize, usize) = (w.trim().parse().ok()?, h.trim().parse().ok()?);
    w.checked_mul(h)
}
