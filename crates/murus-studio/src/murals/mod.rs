//! The Murals panel: browse the shipped puzzles and the user's own, play a puzzle by hand with undo and
//! hints, solve, count and generate in the background, and edit a puzzle on
//! the board or as text (the two stay in sync, validated live).
//!
//! [`MuralsModel`] holds the state and the actions that need several of its
//! parts, each a struct that owns one job: the [`MuralEditor`] (the
//! [`MuralDocument`] and its edits), [`MuralPlay`] (what a click does, the
//! moves played by hand and the solution shown), the [`MuralTasks`]
//! (solving, counting, hints, generating and their settings) and the
//! [`MuralFiles`] (the [`MuralShelf`] of puzzles and the question asked
//! before work is lost); [`MuralsPanel`] is the thin view that draws it. A puzzle opens ready to play; painting stacks
//! and targets is a mode entered on purpose ("Paint stacks", "Toggle
//! targets"), and the text (with notes that may give the solution away)
//! shows while editing.
//!
//! Keys: Ctrl+Z undoes and Ctrl+Shift+Z or Ctrl+Y redo — moves while playing
//! by hand, edits of the puzzle otherwise; ← and → step through the solution
//! (and take back / replay moves while playing by hand).

mod document;
mod hand;
mod model;
mod player;
mod shelf;
mod view;

pub use document::{Figures, MuralDocument, Problem, Snapshot};
pub use hand::{Click, HandPlay, move_target};
pub use model::{
    Done, Edit, Generator, HandMove, LETTERS, MuralEditor, MuralFiles, MuralPlay, MuralTasks,
    MuralsModel, Pending, Progress, Task, Tool, Work,
};
pub use player::SolutionPlayer;
pub use shelf::MuralShelf;
pub use view::MuralsPanel;

use serde::{Deserialize, Serialize};

/// Display colours of mural colours, by index (as the mural crate's rules).
pub const PALETTE: [u32; 4] = [0xe8dcc0, 0x5b3a29, 0x3a6ea5, 0xa53a3a];

/// The puzzle shown before any file is opened.
pub const EXAMPLE: &str = r#"title = "Leapfrog"
author = "Murus Studio"
board = "5x1"
colours = ["r"]
sacrifice = false
start = "1r2r22"
targets = ["a1", "c1", "d1", "e1"]
"#;

/// What Murals keeps across restarts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MuralsSaved {
    pub text: String,
    /// File the text belongs to (empty: not saved).
    pub path: String,
    pub disk_text: String,
    /// Solver budget in nodes.
    pub budget: u64,
    pub gen_board: String,
    pub gen_colours: usize,
    pub gen_sacrifice: bool,
    pub gen_difficulty: String,
    pub gen_seed: u64,
    /// The folder last opened from or saved to (empty: the data folder's
    /// `puzzles`).
    pub dir: String,
    /// The board field as typed (not applied yet: empty when it is the
    /// puzzle's board).
    pub board_text: String,
}

impl Default for MuralsSaved {
    fn default() -> Self {
        MuralsSaved {
            text: EXAMPLE.into(),
            path: String::new(),
            disk_text: String::new(),
            budget: 5_000_000,
            gen_board: "5x5".into(),
            gen_colours: 1,
            gen_sacrifice: false,
            gen_difficulty: "any".into(),
            gen_seed: 1,
            dir: String::new(),
            board_text: String::new(),
        }
    }
}

/// The text of the shipped puzzle `name` (`02-5x5-easy.toml`, or without
/// its `.toml`).
pub fn shipped_text(name: &str) -> Option<&'static str> {
    murus_mural::collection::shipped(name)
        .or_else(|| murus_mural::collection::shipped(&format!("{name}.toml")))
}

/// "1 move", "5 moves".
pub fn moves_text(n: usize) -> String {
    if n == 1 {
        "1 move".into()
    } else {
        format!("{n} moves")
    }
}
