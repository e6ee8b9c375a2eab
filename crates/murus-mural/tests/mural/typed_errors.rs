//! The errors of the crate's functions are types: each names what went
//! wrong and where (row and column of a grid, the ply of a replay), and
//! says it in the words the command line and the studio print.

use std::error::Error;

use murus_mural::engine::{EngineError, replay_with_engine};
use murus_mural::generate::{GenerateError, Options, generate};
use murus_mural::{Board, BoardError, GridError, MoveError, Puzzle, ReplayError, replay};

use crate::util::mural;

/// The crate's doc example: 5x1, `1r2r22`, two towers.
fn leapfrog() -> Puzzle {
    mural("5x1", "r", false, "1r2r22", &["a1", "c1", "d1", "e1"])
}

#[test]
fn a_grid_error_names_its_row_and_column() {
    let p = Puzzle::from_toml(
        "title = \"t\"\nboard = \"3x2\"\nstart = \"3/r22\"\ntargets = [\"b1\", \"c1\"]\n",
    )
    .unwrap();
    let e = p.parse_grid("3/1g2").unwrap_err();
    assert_eq!(
        e,
        GridError::NotAColour {
            row: 2,
            column: 2,
            letter: 'g'
        }
    );
    assert_eq!(e.to_string(), "row 2: `g` is not a colour of this puzzle");
    let e = p.parse_grid("r2r3/3").unwrap_err();
    assert_eq!(
        e,
        GridError::NoHeight {
            row: 1,
            column: 3,
            letter: 'r'
        }
    );
    let e = p.parse_grid("2r2r2/3").unwrap_err();
    assert_eq!(e, GridError::TooManyCells { row: 1, column: 4 });
    assert_eq!(e.to_string(), "row 1: more cells than the rank has");
    assert_eq!(
        p.parse_grid("3").unwrap_err(),
        GridError::RowCount {
            expected: 2,
            found: 1
        }
    );
    assert_eq!(
        p.parse_grid("r2/3").unwrap_err().to_string(),
        "row 1 describes 1 cells; the rank has 3"
    );
}

#[test]
fn a_replay_error_names_the_ply_and_keeps_the_move_error_as_its_cause() {
    let p = leapfrog();
    let moves = ["c1-e1".to_string(), "e1-c1".to_string()];
    let e: ReplayError = replay(&p, &moves).unwrap_err();
    assert_eq!(e.ply, 2);
    let MoveError::Illegal { text, legal } = &e.source else {
        panic!("{e:?}")
    };
    assert_eq!(text, "e1-c1");
    assert_eq!(legal, &["b1-d1"]);
    assert_eq!(
        e.to_string(),
        "move 2: `e1-c1` is not legal here; legal moves: b1-d1"
    );
    assert_eq!(
        e.source().map(ToString::to_string).as_deref(),
        Some("`e1-c1` is not legal here; legal moves: b1-d1")
    );
}

#[test]
fn an_engine_replay_error_names_the_ply() {
    let p = leapfrog();
    let e = replay_with_engine(&p, &["c1-e1".into(), "a1-c1".into()]).unwrap_err();
    let EngineError::AtMove { ply: 2, source } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(
        **source,
        EngineError::NoStack {
            text: "a1-c1".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "move 2: no stack on the first cell of `a1-c1`"
    );
}

#[test]
fn a_board_error_says_why_and_generate_keeps_it_as_its_cause() {
    assert_eq!(
        Board::parse("rect 20 x 20").unwrap_err(),
        BoardError::TooLarge { slots: 400 }
    );
    let opts = Options {
        board: "rect 20 x 20".into(),
        colours: 1,
        sacrifice: false,
        difficulty: None,
        seed: 1,
        budget: 1000,
    };
    let e = generate(&opts, 1, &()).unwrap_err();
    assert!(
        matches!(&e, GenerateError::Board { board, source: BoardError::TooLarge { .. } } if board == "rect 20 x 20")
    );
    assert!(
        e.to_string()
            .starts_with("bad board `rect 20 x 20`: murals allow boards"),
        "{e}"
    );
    assert!(e.source().is_some());
    let bad = Options {
        colours: 4,
        ..opts.clone()
    };
    assert_eq!(
        generate(&bad, 1, &()).unwrap_err(),
        GenerateError::Colours(4)
    );
}
