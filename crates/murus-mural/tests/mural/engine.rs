//! The solver's own move generator (`State::moves`, `State::apply`) against
//! the game engine's, on random mural states: random boards (rectangles up
//! to the murals' 64 cells and hexagons, some with cells removed), random
//! walls and towers of one to three colours, with and without sacrifice.
//! For each colour, the engine's legal moves with that colour to move and
//! the mural moves of that colour's towers are the same set in notation,
//! and each leads to the same state.
//!
//! The solver keeps its copy because it moves towers of any colour and
//! reads every position as a mural `State` (see `board/moves.rs`); this is
//! what keeps the copy honest. It also found that the engine refused murals
//! with more stones than cells (the rules' setup gave one stone a cell).

use std::collections::{BTreeMap, BTreeSet};

use murus_mural::{Board, Puzzle, State, engine};
use proptest::prelude::*;
use proptest::strategy::ValueTree;

use crate::util::built;

/// A board as the rules language writes it.
fn board_text() -> impl Strategy<Value = String> {
    let rect = (1u32..=8, 1u32..=8).prop_map(|(w, h)| format!("rect {w} x {h}"));
    let hex = (2u32..=4).prop_map(|n| format!("hex {n}"));
    prop_oneof![3 => rect, 1 => hex]
}

/// A random mural: a board with up to three cells removed, stacks from
/// `codes` (one per slot: empty, or a wall or tower of some colour), the
/// number of colours and whether sacrifice is allowed.
#[derive(Debug, Clone)]
struct Case {
    board: String,
    removed: Vec<usize>,
    codes: Vec<u8>,
    colours: usize,
    sacrifice: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        board_text(),
        prop::collection::vec(0usize..64, 0..=3),
        prop::collection::vec(0u8..16, 64),
        1usize..=3,
        any::<bool>(),
    )
        .prop_map(|(board, removed, codes, colours, sacrifice)| Case {
            board,
            removed,
            codes,
            colours,
            sacrifice,
        })
}

/// The case as a puzzle (targets do not matter to moves), or `None` when
/// removing the cells leaves too little board.
fn puzzle(c: &Case) -> Option<Puzzle> {
    let full = Board::parse(&c.board).expect("a mural board");
    let cells: Vec<usize> = full.geometry.cells().collect();
    let mut removed: BTreeSet<String> = BTreeSet::new();
    if cells.len() > 4 {
        for &r in &c.removed {
            removed.insert(full.name(cells[r % cells.len()]));
        }
    }
    let text = if removed.is_empty() {
        c.board.clone()
    } else {
        let names: Vec<String> = removed.into_iter().collect();
        format!("{} without cells {}", c.board, names.join(" "))
    };
    let board = Board::parse(&text).ok()?;
    let mut start = State::empty(board.slots());
    for (i, s) in board.geometry.cells().enumerate() {
        // 0-5 empty, then walls and towers of each colour in turn.
        let code = c.codes[i % c.codes.len()];
        if code >= 6 {
            let k = code - 6;
            start.set(s, Some((k % c.colours as u8, 1 + (k / 3) % 2)));
        }
    }
    let slots = board.slots();
    Some(built(
        board,
        c.colours,
        c.sacrifice,
        start,
        vec![false; slots],
    ))
}

/// The mural moves of `colour`'s towers, in notation, each with the state
/// it leads to.
fn mural_moves(p: &Puzzle, state: &State, colour: u8) -> BTreeMap<String, String> {
    let mut moves = Vec::new();
    state.moves(&p.board, p.sacrifice, &mut moves);
    let mut out = BTreeMap::new();
    for m in moves {
        if state.get(m.from()).map(|(c, _)| c) != Some(colour) {
            continue;
        }
        let mut next = state.clone();
        next.apply(m);
        let before = out.insert(m.notation(&p.board), p.grid(&next));
        assert!(
            before.is_none(),
            "two mural moves written {}",
            m.notation(&p.board)
        );
    }
    out
}

/// Checks one state: for every colour, the same moves, the same results.
fn same_moves(p: &Puzzle, v: &murus_engine::Variant, state: &State) -> Result<(), TestCaseError> {
    for colour in 0..p.colours.len() as u8 {
        let ours = mural_moves(p, state, colour);
        let theirs: BTreeMap<String, String> = engine::moves(p, v, state, colour)
            .map_err(|e| TestCaseError::fail(e.to_string()))?
            .into_iter()
            .map(|(m, s)| (m, p.grid(&s)))
            .collect();
        let ours_set: BTreeSet<&String> = ours.keys().collect();
        let theirs_set: BTreeSet<&String> = theirs.keys().collect();
        prop_assert_eq!(
            &ours_set,
            &theirs_set,
            "{} to move in {} on {} (sacrifice {})",
            p.colours[colour as usize],
            p.grid(state),
            p.board.text,
            p.sacrifice
        );
        for (m, after) in &ours {
            prop_assert_eq!(after, &theirs[m], "after {} in {}", m, p.grid(state));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn mural_moves_are_the_engines_moves(c in case()) {
        let Some(p) = puzzle(&c) else { return Ok(()) };
        let v = engine::variant(&p).map_err(|e| TestCaseError::fail(e.to_string()))?;
        same_moves(&p, &v, &p.start)?;
        // And one step on: the states the moves lead to.
        let mut moves = Vec::new();
        p.start.moves(&p.board, p.sacrifice, &mut moves);
        for m in moves.into_iter().take(4) {
            let mut next = p.start.clone();
            next.apply(m);
            same_moves(&p, &v, &next)?;
        }
    }
}

/// The generated states do reach sowing onto own walls, blocked lines and
/// sacrifices, so the property above is not vacuous.
#[test]
fn random_murals_have_every_kind_of_move() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut sow_onto_wall, mut sacrifices, mut no_moves) = (0, 0, 0);
    for _ in 0..256 {
        let c = case().new_tree(&mut runner).expect("a case").current();
        let Some(p) = puzzle(&c) else { continue };
        let mut moves = Vec::new();
        p.start.moves(&p.board, p.sacrifice, &mut moves);
        for m in &moves {
            match *m {
                murus_mural::MuralMove::Sow { near, far, .. } => {
                    if [near, far]
                        .iter()
                        .any(|&x| p.start.get(x as usize).is_some())
                    {
                        sow_onto_wall += 1;
                    }
                }
                murus_mural::MuralMove::Sacrifice { .. } => sacrifices += 1,
            }
        }
        if moves.is_empty() && p.start.towers().next().is_some() {
            no_moves += 1;
        }
    }
    assert!(sow_onto_wall > 50, "{sow_onto_wall} sowings onto a wall");
    assert!(sacrifices > 50, "{sacrifices} sacrifices");
    assert!(no_moves > 0, "no position with towers and no move");
}
