//! What the mural tests share: the shipped puzzles, and murals built
//! directly, without the file format's own checks (which reject some of
//! the murals the tests need at load time already).

use std::path::PathBuf;

use murus_mural::Puzzle;
use murus_mural::board::{Board, State};

/// The folder of the shipped puzzles (`puzzles/`).
pub fn puzzles_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../puzzles")
}

/// The shipped puzzle `puzzles/FILE`; a puzzle that does not load fails
/// the test with its diagnostics.
pub fn shipped(file: &str) -> Puzzle {
    let path = puzzles_dir().join(file);
    let text = std::fs::read_to_string(&path).expect("readable");
    Puzzle::from_toml(&text).unwrap_or_else(|d| {
        panic!(
            "{}",
            murus_dsl::render_all(&d, &path.display().to_string(), &text)
        )
    })
}

/// A mural built directly on `board` with the first `colours` of r, g, b.
pub fn built(
    board: Board,
    colours: usize,
    sacrifice: bool,
    start: State,
    targets: Vec<bool>,
) -> Puzzle {
    Puzzle {
        title: "test".into(),
        author: String::new(),
        board,
        colours: ['r', 'g', 'b'][..colours].to_vec(),
        sacrifice,
        start,
        targets,
        notes: None,
        optimal: None,
        difficulty: None,
    }
}

/// A mural built directly from board text, colour letters, a start grid
/// (`r22/…`, rows from the top) and target cells.
pub fn mural(board: &str, colours: &str, sacrifice: bool, grid: &str, targets: &[&str]) -> Puzzle {
    let board = Board::parse(board).expect("board");
    let slots = board.slots();
    let mut p = built(board, 1, sacrifice, State::empty(slots), vec![false; slots]);
    p.colours = colours.chars().collect();
    p.start = p.parse_grid(grid).expect("grid");
    for t in targets {
        let c = p.board.parse_cell(t).expect("target cell");
        p.targets[c] = true;
    }
    p
}
