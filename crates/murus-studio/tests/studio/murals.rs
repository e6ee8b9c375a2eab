//! The Murals panel.

use super::*;

#[test]
fn solve_a_puzzle_and_step_through_the_solution() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    assert!(h.query_by_label("Valid puzzle").is_some());
    h.get_by_label("Solve").click();
    until(&mut h, 60, "the solver", |h| {
        h.state().murals.solution.is_some()
    });
    let len = h.state().murals.solution.as_ref().unwrap().moves.len();
    assert_eq!(len, 5);
    assert!(h.query_by_label(&format!("step 0 of {len}")).is_some());
    h.get_by_label("Step forward").click();
    steps(&mut h, 1);
    h.get_by_label("Step forward").click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.step, 2);
    assert!(h.query_by_label(&format!("step 2 of {len}")).is_some());
    h.get_by_label("Step back").click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.step, 1);
    h.get_by_label("Last").click();
    steps(&mut h, 2);
    assert!(h.query_by_label(&format!("step {len} of {len}")).is_some());
}

#[test]
fn editing_a_target_cell_changes_the_validation() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    assert!(h.query_by_label("Valid puzzle").is_some());
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 1);
    h.get_by_label("cell b1").click();
    steps(&mut h, 2);
    assert!(h.query_by_label("Valid puzzle").is_none());
    assert!(
        h.query_by_label_contains("5 targets for 4 stones")
            .is_some()
    );
    assert!(
        h.state().murals.saved.text.contains("\"b1\""),
        "the text follows the board"
    );
    // Toggle it back: valid again.
    h.get_by_label("cell b1").click();
    steps(&mut h, 2);
    assert!(h.query_by_label("Valid puzzle").is_some());
}

#[test]
fn puzzle_edits_undo_and_redo() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    let original = h.state().murals.saved.text.clone();
    assert!(!h.state().murals.can_undo());
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 1);
    h.get_by_label("cell b1").click();
    steps(&mut h, 2);
    let edited = h.state().murals.saved.text.clone();
    assert_ne!(edited, original);
    assert!(h.query_by_label("Valid puzzle").is_none());

    h.get_by_label("Undo edit").click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.saved.text, original);
    assert!(h.query_by_label("Valid puzzle").is_some());

    h.get_by_label("Redo edit").click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.saved.text, edited);
    assert!(h.query_by_label("Valid puzzle").is_none());

    // Opening another puzzle is undoable too: the edited text comes back.
    let first = root().join("puzzles/01-puzzle-one.toml");
    h.state_mut().murals.open(&first);
    steps(&mut h, 2);
    assert!(h.state().murals.saved.text.contains("Puzzle 1"));
    h.get_by_label("Undo edit").click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.saved.text, edited);
    assert!(h.state().murals.saved.path.is_empty());
}

#[test]
fn a_broken_puzzle_file_shows_its_problem_and_keeps_the_text() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    let broken = "title = \"x\"\nboard = \"5x\"\nstart = \"\"\ntargets = []\n";
    h.state_mut().murals.saved.text = broken.into();
    h.state_mut().murals.validate();
    steps(&mut h, 2);
    assert!(h.query_by_label_contains(": error: ").is_some());
    assert_eq!(h.state().murals.saved.text, broken);
    // Painting is refused rather than overwriting the user's text.
    h.get_by_label("Solve").click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.saved.text, broken);
}

#[test]
fn play_a_mural_by_hand_with_undo_and_hint() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("Play by hand").click();
    steps(&mut h, 2);
    assert_eq!(
        h.state().murals.tool,
        murus_studio::murals::Tool::Play,
        "{:?}",
        h.state().murals.message
    );
    h.get_by_label("Hint").click();
    until(&mut h, 30, "a hint", |h| h.state().murals.hint.is_some());
    let hint = h.state().murals.hint.unwrap();
    let board = h.state().murals.model.as_ref().unwrap().board.clone();
    let text = hint.notation(&board);
    let (from, to) = text.split_once('-').unwrap();
    h.get_by_label(&format!("cell {from}")).click();
    steps(&mut h, 1);
    h.get_by_label(&format!("cell {to}")).click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.played.len(), 1);
    h.get_by_label("Undo move").click();
    steps(&mut h, 2);
    assert!(h.state().murals.played.is_empty());
}
