//! The Murals panel.

use egui::{Key, Modifiers, Rect};
use egui_kittest::kittest::NodeT;

use super::*;

#[test]
fn solve_a_puzzle_and_step_through_the_solution() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    assert!(h.query_by_label("Valid puzzle").is_some());
    h.get_by_label("Solve").click();
    until(&mut h, 60, "the solver", |h| {
        h.state()
            .murals
            .model()
            .play()
            .player()
            .solution()
            .is_some()
    });
    let len = h
        .state()
        .murals
        .model()
        .play()
        .player()
        .solution()
        .unwrap()
        .moves
        .len();
    assert_eq!(len, 5);
    assert!(h.query_by_label(&format!("step 0 of {len}")).is_some());
    h.get_by_label("Step forward").click();
    steps(&mut h, 1);
    h.get_by_label("Step forward").click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.model().play().player().step(), 2);
    assert!(h.query_by_label(&format!("step 2 of {len}")).is_some());
    h.get_by_label("Step back").click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.model().play().player().step(), 1);
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
        h.state()
            .murals
            .model()
            .document()
            .text()
            .contains("\"b1\""),
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
    let original = h.state().murals.model().document().text().to_string();
    assert!(!h.state().murals.model().editor().can_undo());
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 1);
    h.get_by_label("cell b1").click();
    steps(&mut h, 2);
    let edited = h.state().murals.model().document().text().to_string();
    assert_ne!(edited, original);
    assert!(h.query_by_label("Valid puzzle").is_none());

    h.get_by_label("Undo edit").click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.model().document().text(), original);
    assert!(h.query_by_label("Valid puzzle").is_some());

    h.get_by_label("Redo edit").click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.model().document().text(), edited);
    assert!(h.query_by_label("Valid puzzle").is_none());

    // Opening another puzzle is undoable too: the edited text comes back.
    let first = root().join("puzzles/01-puzzle-one.toml");
    h.state_mut()
        .murals
        .model_mut()
        .perform(murus_studio::murals::Pending::Open(first.clone()));
    steps(&mut h, 2);
    assert!(
        h.state()
            .murals
            .model()
            .document()
            .text()
            .contains("Puzzle 1")
    );
    h.get_by_label("Undo edit").click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.model().document().text(), edited);
    assert!(h.state().murals.model().document().path().is_empty());
}

#[test]
fn a_broken_puzzle_file_shows_its_problem_and_keeps_the_text() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    let broken = "title = \"x\"\nboard = \"5x\"\nstart = \"\"\ntargets = []\n";
    h.state_mut()
        .murals
        .model_mut()
        .edit(murus_studio::murals::Edit::Replace(broken.into()));
    steps(&mut h, 2);
    assert!(h.query_by_label_contains(": error: ").is_some());
    assert_eq!(h.state().murals.model().document().text(), broken);
    // Painting is refused rather than overwriting the user's text.
    h.get_by_label("Solve").click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.model().document().text(), broken);
}

#[test]
fn play_a_mural_by_hand_with_undo_and_hint() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("Play by hand").click();
    steps(&mut h, 2);
    assert_eq!(
        h.state().murals.model().play().tool(),
        murus_studio::murals::Tool::Play,
        "{:?}",
        h.state().murals.model().feedback()
    );
    h.get_by_label("Hint").click();
    until(&mut h, 30, "a hint", |h| {
        h.state().murals.model().play().hand().hint().is_some()
    });
    let hint = h.state().murals.model().play().hand().hint().unwrap();
    let board = h
        .state()
        .murals
        .model()
        .document()
        .puzzle()
        .unwrap()
        .board
        .clone();
    let text = hint.notation(&board);
    let (from, to) = text.split_once('-').unwrap();
    h.get_by_label(&format!("cell {from}")).click();
    steps(&mut h, 1);
    h.get_by_label(&format!("cell {to}")).click();
    steps(&mut h, 2);
    assert_eq!(h.state().murals.model().play().hand().played().len(), 1);
    h.get_by_label("Undo move").click();
    steps(&mut h, 2);
    assert!(h.state().murals.model().play().hand().played().is_empty());
}

// ---------------------------------------------------------------------------
// Regression tests of issue 10, named after the defect they guard. They drive
// the panel as a user does: labels, clicks, keys, typed text.

/// One tower on c1 of a 5x1 board: `c1-a1` solves it, `c1-e1` leaves two
/// walls off the targets and no move.
const FORK: &str =
    "title = \"Fork\"\nboard = \"5x1\"\nstart = \"2r22\"\ntargets = [\"a1\", \"b1\"]\n";

type H<'a> = Harness<'a, StudioApp>;

/// The puzzle text the panel holds.
fn text(h: &H<'_>) -> String {
    h.state().murals.model().document().text().to_string()
}

/// The button called `label` (headings may share its text).
fn button<'h>(h: &'h H<'_>, label: &'h str) -> egui_kittest::Node<'h> {
    h.get_by_role_and_label(egui::accesskit::Role::Button, label)
}

fn rect(h: &H<'_>, label: &str) -> Rect {
    h.get_by_label(label).rect()
}

fn is_disabled(h: &H<'_>, label: &str) -> bool {
    h.get_by_label(label).accesskit_node().is_disabled()
}

/// Enters editing on purpose and types `puzzle` over the whole text.
fn type_puzzle(h: &mut H<'_>, puzzle: &str) {
    h.get_by_label("Paint stacks").click();
    steps(h, 2);
    replace_text(h, puzzle);
}

/// Types `puzzle` over the whole text (the text editor must be shown).
fn replace_text(h: &mut H<'_>, puzzle: &str) {
    h.get_by_label("Puzzle text").focus();
    steps(h, 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    steps(h, 1);
    h.get_by_label("Puzzle text").type_text(puzzle);
    steps(h, 1);
    h.key_press(Key::Escape);
    steps(h, 2);
    assert_eq!(text(h), puzzle, "the typed text is the puzzle");
}

fn click_cells(h: &mut H<'_>, cells: &[&str]) {
    for c in cells {
        h.get_by_label(&format!("cell {c}")).click();
        steps(h, 2);
    }
}

fn play_moves(h: &mut H<'_>, moves: &[&str]) {
    for m in moves {
        let (from, to) = m.split_once('-').unwrap();
        click_cells(h, &[from, to]);
    }
}

/// Leapfrog's (the example's) shortest solution.
const LEAPFROG: [&str; 5] = ["c1-e1", "b1-d1", "d1-b1", "c1-a1", "b1-d1"];

#[test]
fn a_lost_position_notice_clears_when_the_move_is_taken_back() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    type_puzzle(&mut h, FORK);
    h.get_by_label("Play by hand").click();
    steps(&mut h, 2);
    play_moves(&mut h, &["c1-e1"]);
    h.get_by_label("Hint").click();
    until(&mut h, 30, "the hint", |h| shows(h, "cannot be solved"));
    h.get_by_label("Undo move").click();
    steps(&mut h, 2);
    assert!(
        !shows(&h, "cannot be solved"),
        "the notice described the position before the undo"
    );
    play_moves(&mut h, &["c1-a1"]);
    assert!(shows(&h, "Solved in 1 move"));
    assert!(!shows(&h, "cannot be solved"), "never beside the banner");
}

#[test]
fn an_old_hint_clears_on_restart() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("Play by hand").click();
    steps(&mut h, 2);
    play_moves(&mut h, &["c1-e1"]);
    h.get_by_label("Hint").click();
    until(&mut h, 30, "the hint", |h| shows(h, "hint: b1-d1"));
    h.get_by_label("Restart").click();
    steps(&mut h, 2);
    assert!(!shows(&h, "hint:"), "the hint was for the position before");
}

#[test]
fn a_budget_notice_clears_after_undoing_the_edit_that_made_it_hard() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("Budget").set_value_accesskit(1000.0);
    steps(&mut h, 2);
    // Puzzle 32 needs more than 2000 nodes.
    let hard = std::fs::read_to_string(root().join("puzzles/32-6x6-hard.toml")).unwrap();
    type_puzzle(&mut h, &hard);
    h.get_by_label("Solve").click();
    until(&mut h, 30, "the solver", |h| shows(h, "no answer within"));
    h.get_by_label("Undo edit").click();
    steps(&mut h, 2);
    assert!(text(&h).contains("Leapfrog"), "back on the example");
    assert!(
        !shows(&h, "no answer within"),
        "the notice was about the puzzle before the undo"
    );
}

#[test]
fn an_opened_notice_clears_after_an_edit() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("02-5x5-easy").click();
    steps(&mut h, 2);
    assert!(shows(&h, "opened"));
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 1);
    click_cells(&mut h, &["a1"]);
    assert!(
        !shows(&h, "opened"),
        "the notice was about the file as opened"
    );
}

#[test]
fn the_board_stays_put_when_the_result_shows() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("Play by hand").click();
    steps(&mut h, 2);
    let before = (rect(&h, "cell a1"), rect(&h, "Hint"), rect(&h, "Restart"));
    play_moves(&mut h, &LEAPFROG);
    assert!(shows(&h, "Solved in 5 moves"));
    assert_eq!(
        (rect(&h, "cell a1"), rect(&h, "Hint"), rect(&h, "Restart")),
        before,
        "the banner pushed the board"
    );
    // A dead end's notice does not push it either.
    type_puzzle(&mut h, FORK);
    h.get_by_label("Play by hand").click();
    steps(&mut h, 2);
    let before = rect(&h, "cell a1");
    play_moves(&mut h, &["c1-e1"]);
    assert!(shows(&h, "No move left"));
    assert_eq!(rect(&h, "cell a1"), before, "the notice pushed the board");
}

/// Eight towers in the middle of a 6x6 board, to end as walls on the first
/// and last ranks and the ends of the second and fifth: no cheap condition
/// settles it, and the solver searches for seconds (3 000 000 nodes take
/// about 12 s in a debug build).
const LONG_SEARCH: &str = "title = \"Long search\"\nboard = \"6x6\"\nstart = \"6/6/1r2r2r2r21/1r2r2r2r21/6/6\"\ntargets = [\"a1\", \"b1\", \"c1\", \"d1\", \"e1\", \"f1\", \"a6\", \"b6\", \"c6\", \"d6\", \"e6\", \"f6\", \"a2\", \"f2\", \"a5\", \"f5\"]\n";

#[test]
fn hint_and_restart_stay_put_while_the_solver_works_and_reports() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    type_puzzle(&mut h, LONG_SEARCH);
    h.get_by_label("Play by hand").click();
    steps(&mut h, 2);
    let controls = |h: &H<'_>| (rect(h, "Hint"), rect(h, "Restart"), rect(h, "cell a1"));
    let before = controls(&h);
    // The hint's progress line (its node count grows) once widened the
    // left panel and moved Restart under the pointer meant for Hint.
    h.get_by_label("Hint").click();
    steps(&mut h, 1);
    let t = Instant::now();
    let mut progress = 0;
    while progress < 3 {
        assert!(
            t.elapsed() < Duration::from_secs(60) && h.state().murals.is_busy(),
            "the hint's search showed no progress"
        );
        steps(&mut h, 1);
        if shows(&h, "nodes, depth") {
            progress += 1;
        }
        assert_eq!(controls(&h), before, "the hint's progress moved them");
    }
    h.get_by_label("Cancel").click();
    until(&mut h, 30, "the cancel", |h| !h.state().murals.is_busy());
    steps(&mut h, 2);
    assert_eq!(controls(&h), before, "the cancelled hint moved them");
    // An answer: no hint within a small budget.
    h.get_by_label("Budget").set_value_accesskit(20_000.0);
    steps(&mut h, 2);
    h.get_by_label("Hint").click();
    steps(&mut h, 1);
    until(&mut h, 60, "the hint's answer", |h| {
        !h.state().murals.is_busy()
    });
    steps(&mut h, 2);
    assert!(shows(&h, "no hint within 20 000 nodes"));
    assert_eq!(controls(&h), before, "the hint's answer moved them");
}

#[test]
fn tools_and_save_buttons_stay_put_when_the_text_has_errors() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("Paint stacks").click();
    steps(&mut h, 2);
    let before = (rect(&h, "Solve"), rect(&h, "Save puzzle as…"));
    replace_text(
        &mut h,
        "title = \"x\"\nboard = \"5x\"\nstart = \"\"\ntargets = [\"z9\", \"z8\"]\nsacrifice = 3\n",
    );
    assert!(shows(&h, ": error: "));
    assert_eq!(
        (rect(&h, "Solve"), rect(&h, "Save puzzle as…")),
        before,
        "the errors pushed the tools"
    );
}

#[test]
fn opening_a_puzzle_over_an_unsaved_generated_one_asks_first() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    generate(&mut h);
    let generated = text(&h);
    assert!(!generated.contains("Leapfrog"));
    h.get_by_label("01-puzzle-one").click();
    steps(&mut h, 3);
    assert_eq!(text(&h), generated, "nothing is dropped before the answer");
    h.get_by_label("Keep the puzzle").click();
    steps(&mut h, 2);
    assert_eq!(text(&h), generated);
    h.get_by_label("01-puzzle-one").click();
    steps(&mut h, 3);
    h.get_by_label("Discard and open").click();
    steps(&mut h, 2);
    assert!(text(&h).contains("Puzzle 1"));
}

#[test]
fn opening_a_puzzle_over_unsaved_edits_asks_first() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("02-5x5-easy").click();
    steps(&mut h, 2);
    // Opening another puzzle over a saved one asks nothing.
    h.get_by_label("03-5x5-easy").click();
    steps(&mut h, 2);
    assert!(text(&h).contains("4 moves"), "03 is open");
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 1);
    click_cells(&mut h, &["a1"]);
    let edited = text(&h);
    h.get_by_label("02-5x5-easy").click();
    steps(&mut h, 3);
    assert_eq!(text(&h), edited, "the edits are kept until the answer");
    assert!(h.query_by_label("Discard and open").is_some());
    h.get_by_label("Keep the puzzle").click();
    steps(&mut h, 2);
    assert_eq!(text(&h), edited);
}

#[test]
fn save_puzzle_is_disabled_on_an_invalid_puzzle() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("02-5x5-easy").click();
    steps(&mut h, 2);
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 2);
    assert!(!is_disabled(&h, "Save puzzle"));
    click_cells(&mut h, &["a5"]);
    assert!(shows(&h, "11 targets"), "the edit broke the puzzle");
    assert!(
        is_disabled(&h, "Save puzzle"),
        "an invalid puzzle is not saved"
    );
    assert!(is_disabled(&h, "Save puzzle as…"));
}

#[test]
fn optimal_and_difficulty_are_flagged_stale_after_an_edit() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("02-5x5-easy").click();
    steps(&mut h, 2);
    assert!(!shows(&h, "stale"));
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 2);
    // Move a target from a1 to a5: still valid, but another puzzle.
    click_cells(&mut h, &["a1", "a5"]);
    assert!(shows(&h, "Valid puzzle"));
    assert!(
        shows(&h, "stale"),
        "optimal = 5 and difficulty = easy were found for the puzzle before the edit"
    );
}

#[test]
fn ctrl_z_and_ctrl_shift_z_undo_and_redo_puzzle_edits() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    let original = text(&h);
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 1);
    click_cells(&mut h, &["b1"]);
    let edited = text(&h);
    assert_ne!(edited, original);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    assert_eq!(text(&h), original, "Ctrl+Z undoes the edit");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    steps(&mut h, 2);
    assert_eq!(text(&h), edited, "Ctrl+Shift+Z redoes it");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    steps(&mut h, 2);
    assert_eq!(text(&h), edited, "Ctrl+Y redoes it too");
}

#[test]
fn ctrl_z_and_ctrl_y_take_back_and_replay_hand_played_moves() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("Play by hand").click();
    steps(&mut h, 2);
    play_moves(&mut h, &LEAPFROG[..2]);
    assert!(shows(&h, "2 moves"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    assert!(shows(&h, "1 move"), "Ctrl+Z takes back a move in play");
    assert!(text(&h).contains("Leapfrog"), "and leaves the puzzle alone");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    steps(&mut h, 2);
    assert!(shows(&h, "2 moves"), "Ctrl+Y plays it again");
}

#[test]
fn arrow_keys_step_through_the_solution() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("Solve").click();
    until(&mut h, 60, "the solver", |h| shows(h, "step 0 of 5"));
    h.key_press(Key::ArrowRight);
    steps(&mut h, 1);
    h.key_press(Key::ArrowRight);
    steps(&mut h, 2);
    assert!(shows(&h, "step 2 of 5"));
    h.key_press(Key::ArrowLeft);
    steps(&mut h, 2);
    assert!(shows(&h, "step 1 of 5"));
}

#[test]
fn a_click_that_does_nothing_says_why() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("Play by hand").click();
    steps(&mut h, 2);
    click_cells(&mut h, &["a1"]);
    assert!(
        shows(&h, "a1 is empty"),
        "an empty cell with nothing selected"
    );
    click_cells(&mut h, &["b1"]);
    assert!(
        shows(&h, "b1 cannot move"),
        "a tower whose lines are blocked"
    );
    click_cells(&mut h, &["c1", "d1"]);
    assert!(
        shows(&h, "d1 is not a move of c1"),
        "a cell the selected tower cannot reach"
    );
    click_cells(&mut h, &["e1"]); // c1 is still selected: c1-e1
    assert!(shows(&h, "1 move"));
    click_cells(&mut h, &["e1"]);
    assert!(shows(&h, "e1 is a wall"), "walls do not move");
    // Toggling targets: a click outside the board's cells is impossible, but
    // painting over a text with errors says why too (kept from before).
}

#[test]
fn opening_a_puzzle_is_ready_to_play_and_painting_is_a_mode_you_enter() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    let example = text(&h);
    // A new user's first clicks play.
    play_moves(&mut h, &["c1-e1"]);
    assert_eq!(text(&h), example, "the first click edited the puzzle");
    assert!(shows(&h, "1 move"));
    // So do clicks on a puzzle just opened.
    h.get_by_label("02-5x5-easy").click();
    steps(&mut h, 2);
    let opened = text(&h);
    play_moves(&mut h, &["e5-e3"]);
    assert_eq!(text(&h), opened, "a click on an opened puzzle edited it");
    assert!(shows(&h, "1 move"));
    // Painting is a mode entered on purpose.
    h.get_by_label("Paint stacks").click();
    steps(&mut h, 2);
    click_cells(&mut h, &["a1"]);
    assert_ne!(text(&h), opened);
}

#[test]
fn notes_that_give_the_solution_away_stay_hidden_until_asked() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("01-puzzle-one").click();
    steps(&mut h, 2);
    assert!(
        !shows(&h, "The designer's question"),
        "the notes tell the answer"
    );
    h.get_by_label("Show notes").click();
    steps(&mut h, 2);
    assert!(shows(&h, "The designer's question"));
}

/// Presses Generate (confirming that an unsaved puzzle may go) and waits
/// for the puzzle.
fn generate(h: &mut H<'_>) {
    button(h, "Generate").click();
    steps(h, 3); // a question takes a frame to size itself
    if h.query_by_label("Discard and generate").is_some() {
        h.get_by_label("Discard and generate").click();
        steps(h, 2);
    }
    until(h, 60, "the generator", |h| !h.state().murals.is_busy());
}

#[test]
fn generated_puzzles_get_distinct_titles_and_a_seed_field() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    let mut titles = Vec::new();
    for _ in 0..2 {
        generate(&mut h);
        titles.push(text(&h).lines().next().unwrap().to_string());
    }
    assert_ne!(titles[0], titles[1], "two generated puzzles, one title");
    h.get_by_label("Seed").set_value_accesskit(42.0);
    steps(&mut h, 2);
    generate(&mut h);
    let title = text(&h).lines().next().unwrap().to_string();
    assert!(title.contains("seed 42"), "{title}");
}

#[test]
fn undo_after_painting_on_a_generated_puzzle_restores_its_board() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    generate(&mut h);
    let generated = text(&h);
    let empty = ["a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2"]
        .into_iter()
        .find(|c| {
            !generated.contains(&format!("\"{c}\"")) && {
                let p = murus_mural::Puzzle::from_toml(&generated).unwrap();
                p.start.get(p.board.parse_cell(c).unwrap()).is_none()
            }
        })
        .expect("an empty cell that is no target");
    // Paint an extra wall: one stone too many for the targets.
    h.get_by_label("Paint stacks").click();
    steps(&mut h, 1);
    h.get_by_label("r wall").click();
    steps(&mut h, 1);
    click_cells(&mut h, &[empty]);
    let walled = text(&h);
    assert_ne!(walled, generated, "the wall was painted");
    assert!(shows(&h, "targets for"), "{walled}");
    // Make its cell a target: valid again.
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 1);
    click_cells(&mut h, &[empty]);
    assert!(shows(&h, "Valid puzzle"));
    // Undo back to the generated puzzle with the extra wall: the board that
    // painting produced, still paintable.
    h.get_by_label("Undo edit").click();
    steps(&mut h, 2);
    assert_eq!(text(&h), walled);
    assert!(
        h.query_by_label("cell a1").is_some(),
        "undo blanked the board"
    );
    assert!(!shows(&h, "fix the text's errors"));
    // Undo once more: the generated puzzle itself.
    h.get_by_label("Undo edit").click();
    steps(&mut h, 2);
    assert_eq!(text(&h), generated, "undo restores the generated puzzle");
    assert!(shows(&h, "Valid puzzle"));
    h.get_by_label("Paint stacks").click();
    steps(&mut h, 1);
    click_cells(&mut h, &[empty]);
    assert_ne!(text(&h), generated, "painting still works");
    assert!(!shows(&h, "fix the text's errors"), "painting was blocked");
}

#[test]
fn clicking_a_move_of_the_solution_jumps_to_it() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("Solve").click();
    until(&mut h, 60, "the solver", |h| shows(h, "step 0 of 5"));
    h.get_by_label("3. d1-b1").click();
    steps(&mut h, 2);
    assert!(shows(&h, "step 3 of 5"));
    h.get_by_label("1. c1-e1").click();
    steps(&mut h, 2);
    assert!(shows(&h, "step 1 of 5"));
}

#[test]
fn hover_text_names_the_colour_not_a_player_number() {
    // The example puzzle (Leapfrog) has towers of colour r on b1 and c1.
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 3);
    h.get_by_label("cell b1").hover();
    steps(&mut h, 40); // the tooltip's delay
    assert!(h.query_by_label("b1: colour r tower").is_some());
    assert!(h.query_by_label_contains("player 1").is_none());
}

#[test]
fn a_mural_no_sowing_can_finish_is_proven_unsolvable_at_once() {
    // Every cell a target, although the last move always empties a cell:
    // the solver used to spend its whole budget (15 s) and say "raise the
    // budget".
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    let full = r#"title = "Every cell a target"
board = "5x5"
start = "r2r2r2r2r1/r2r2r2r2r1/r2r2r21r1/5/5"
targets = ["a1","b1","c1","d1","e1","a2","b2","c2","d2","e2","a3","b3","c3","d3","e3",
           "a4","b4","c4","d4","e4","a5","b5","c5","d5","e5"]
"#;
    type_puzzle(&mut h, full);
    steps(&mut h, 2);
    assert!(
        h.state().murals.model().document().is_valid(),
        "{:?}",
        h.state().murals.model().document().problems()
    );
    h.get_by_label("Solve").click();
    // A generous wait for a loaded machine: what shows it took no search
    // is the reason, which only the cheap conditions give, and no budget.
    until(&mut h, 60, "the proof", |h| shows(h, "unsolvable: "));
    assert!(
        shows(&h, "every cell is a target"),
        "the answer gives its reason"
    );
    assert!(!shows(&h, "budget"));
}

// ---------------------------------------------------------------------------
// Regression tests of issue 22 ("the studio never drops work"), named after
// the defect they guard.

fn is_enabled(h: &H<'_>, label: &str) -> bool {
    !h.get_by_role_and_label(egui::accesskit::Role::Button, label)
        .accesskit_node()
        .is_disabled()
}

#[test]
fn redo_edit_is_cleared_by_a_new_edit_and_by_a_new_puzzle() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 1);
    click_cells(&mut h, &["b1"]);
    let old = text(&h);
    h.get_by_label("Undo edit").click();
    steps(&mut h, 2);
    assert!(is_enabled(&h, "Redo edit"));
    // A new edit: the edit undone is gone for good.
    click_cells(&mut h, &["e1"]);
    let new = text(&h);
    assert!(!is_enabled(&h, "Redo edit"), "Redo survived a new edit");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    steps(&mut h, 2);
    assert_eq!(text(&h), new, "Redo brought back the old board {old}");
    // The same after opening another puzzle.
    h.get_by_label("Undo edit").click();
    steps(&mut h, 2);
    assert!(is_enabled(&h, "Redo edit"));
    h.state_mut()
        .murals
        .model_mut()
        .perform(murus_studio::murals::Pending::Open(
            root().join("puzzles/02-5x5-easy.toml"),
        ));
    steps(&mut h, 2);
    let opened = text(&h);
    assert!(!is_enabled(&h, "Redo edit"), "Redo survived a new puzzle");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    steps(&mut h, 2);
    assert_eq!(text(&h), opened, "Redo brought back the old puzzle");
}

#[test]
fn save_puzzle_asks_before_overwriting_a_shipped_puzzle_and_drops_stale_figures() {
    // A copy of the shipped puzzle, so that the repository's stays as it is.
    let dir = scratch_dir("shipped");
    let file = dir.join("02-5x5-easy.toml");
    let shipped = std::fs::read_to_string(root().join("puzzles/02-5x5-easy.toml")).unwrap();
    std::fs::write(&file, &shipped).unwrap();
    let mut a = app(Tab::Murals);
    a.murals
        .model_mut()
        .files_mut()
        .shelf_mut()
        .set_dir(dir.clone());
    let mut h = harness(a);
    steps(&mut h, 2);
    h.get_by_label("02-5x5-easy").click();
    steps(&mut h, 2);
    // Move a target from a1 to a5: still valid, but the recorded optimal
    // and difficulty were found for the puzzle before.
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 2);
    click_cells(&mut h, &["a1", "a5"]);
    assert!(shows(&h, "Valid puzzle") && shows(&h, "stale"));
    button(&h, "Save puzzle").click();
    steps(&mut h, 3);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        shipped,
        "the shipped puzzle was overwritten without asking"
    );
    assert!(shows(&h, "shipped"), "the question says why it asks");
    h.get_by_label("Keep the file").click();
    steps(&mut h, 2);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), shipped);
    button(&h, "Save puzzle").click();
    steps(&mut h, 3);
    h.get_by_label("Replace").click();
    steps(&mut h, 2);
    let written = std::fs::read_to_string(&file).unwrap();
    assert_ne!(written, shipped, "Replace saves");
    assert!(
        !written.contains("optimal") && !written.contains("difficulty"),
        "stale figures were written:\n{written}"
    );
    assert_eq!(text(&h), written, "the text shown is the file's");
    assert!(!shows(&h, "(unsaved)"));
}

#[test]
fn an_unsaved_mural_with_a_count_error_can_be_painted_after_a_restart() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    // Paint an extra wall: five stones for four targets.
    h.get_by_label("Paint stacks").click();
    steps(&mut h, 1);
    h.get_by_label("r wall").click();
    steps(&mut h, 1);
    click_cells(&mut h, &["a1"]);
    assert!(shows(&h, "4 targets for 5 stones"));
    let painted = text(&h);
    // Restart the studio with what it saved.
    let saved = h.state_mut().saved();
    let mut again = murus_studio::StudioApp::from_saved(saved);
    again
        .murals
        .model_mut()
        .files_mut()
        .shelf_mut()
        .set_dir(root().join("puzzles"));
    let mut h = harness(again);
    steps(&mut h, 2);
    assert_eq!(text(&h), painted);
    assert!(shows(&h, "4 targets for 5 stones"), "the count error shows");
    h.get_by_label("Paint stacks").click();
    steps(&mut h, 1);
    h.get_by_label("r wall").click();
    steps(&mut h, 1);
    // A sixth stone on a new target: painting goes on from the saved board.
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 1);
    click_cells(&mut h, &["b1"]);
    assert_ne!(text(&h), painted, "the board could not be painted");
    assert!(!shows(&h, "fix the text's errors"), "painting was locked");
    assert!(shows(&h, "5 targets for 5 stones") || shows(&h, "Valid puzzle"));
}

#[test]
fn solve_keeps_the_moves_played_by_hand_and_solves_from_them() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("Play by hand").click();
    steps(&mut h, 2);
    play_moves(&mut h, &LEAPFROG[..2]);
    assert!(shows(&h, "2 moves"));
    h.get_by_label("Solve").click();
    until(&mut h, 60, "the solver", |h| {
        h.state()
            .murals
            .model()
            .play()
            .player()
            .solution()
            .is_some()
    });
    steps(&mut h, 2);
    let sol = h
        .state()
        .murals
        .model()
        .play()
        .player()
        .solution()
        .unwrap()
        .clone();
    let board = h
        .state()
        .murals
        .model()
        .document()
        .puzzle()
        .unwrap()
        .board
        .clone();
    let moves: Vec<String> = sol.moves.iter().map(|m| m.notation(&board)).collect();
    assert_eq!(
        moves,
        LEAPFROG[2..],
        "solved from the position reached by hand"
    );
    assert!(shows(&h, "step 0 of 3"));
    h.get_by_label("Play by hand").click();
    steps(&mut h, 2);
    assert_eq!(
        h.state().murals.model().play().hand().played().len(),
        2,
        "Solve discarded the moves played by hand"
    );
    assert!(shows(&h, "2 moves"));
}

#[test]
fn a_hint_is_no_selection_and_clicking_its_target_plays_it() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.get_by_label("Play by hand").click();
    steps(&mut h, 2);
    h.get_by_label("Hint").click();
    until(&mut h, 30, "a hint", |h| {
        h.state().murals.model().play().hand().hint().is_some()
    });
    steps(&mut h, 2);
    let hint = h.state().murals.model().play().hand().hint().unwrap();
    let board = h
        .state()
        .murals
        .model()
        .document()
        .puzzle()
        .unwrap()
        .board
        .clone();
    let text = hint.notation(&board);
    let (from, to) = text.split_once('-').unwrap();
    assert_eq!(h.state().murals.model().play().hand().selected(), None);
    // The board says what the marks are.
    h.get_by_label(&format!("cell {to}")).hover();
    steps(&mut h, 40); // the tooltip's delay
    assert!(
        h.query_by_label_contains(&format!("{to}\nthe hint, {text}: click to play it"))
            .is_some(),
        "the hint's target does not say it is one"
    );
    // One click on the hinted cell plays the hint.
    h.get_by_label(&format!("cell {to}")).click();
    steps(&mut h, 2);
    assert!(!shows(&h, &format!("{to} is empty")));
    assert_eq!(
        h.state().murals.model().play().hand().played(),
        [hint],
        "clicking the hint's target did not play it (from {from})"
    );
}

/// Issue 22: Murals typed file names relative to its puzzle folder; Open
/// and Save ask with the desktop's file dialogs (a fake one here) and name
/// the file in full, wherever it is.
#[test]
fn murals_open_and_save_ask_for_files_with_dialogs_and_keep_full_paths() {
    use murus_studio::files::Picked;
    let dir = scratch_dir("murals-dialogs");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let fork = "title = \"Fork\"\nboard = \"5x1\"\nstart = \"2r22\"\ntargets = [\"a1\", \"b1\"]\n";
    std::fs::write(elsewhere.join("fork.toml"), fork).unwrap();
    let saved = dir.join("kept").join("my fork.toml");
    let copy = dir.join("kept").join("untitled.toml");
    let (picker, asked) = picker(vec![
        Picked::Path(copy.clone()),
        Picked::Path(elsewhere.join("fork.toml")),
        Picked::Path(saved.clone()),
    ]);
    let mut a = app(Tab::Murals);
    a.set_picker(picker);
    let mut h = harness(a);
    steps(&mut h, 2);
    assert!(
        h.state().murals.model().document().path().is_empty(),
        "untitled"
    );
    // Save on an untitled puzzle asks where, proposing its title's name.
    button(&h, "Save puzzle").click();
    steps(&mut h, 1);
    answered(&mut h);
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), text(&h));
    {
        let asked = asked.lock().unwrap();
        let r = &asked[0];
        assert!(r.save);
        assert_eq!(r.name.as_deref(), Some("leapfrog.toml"));
        assert_eq!(
            r.dir.as_deref(),
            Some(murus_studio::files::absolute(&root().join("puzzles")).as_path())
        );
    }
    // Open, from outside the puzzle folder.
    h.get_by_label("Open…").click();
    steps(&mut h, 1);
    answered(&mut h);
    assert_eq!(text(&h), fork);
    let path = h.state().murals.model().document().path().to_string();
    assert!(std::path::Path::new(&path).is_absolute(), "{path}");
    assert!(path.ends_with("elsewhere/fork.toml"), "{path}");
    assert!(shows(&h, &path), "the file is named in full");
    assert!(!asked.lock().unwrap()[1].save);
    // Save as, beside it by default, to a name of the user's.
    button(&h, "Save puzzle as…").click();
    steps(&mut h, 1);
    answered(&mut h);
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), fork);
    let r = asked.lock().unwrap()[2].clone();
    assert_eq!(r.name.as_deref(), Some("fork.toml"));
    assert_eq!(r.dir.as_deref(), Some(elsewhere.as_path()));
    assert_eq!(
        h.state().murals.model().document().path(),
        murus_studio::files::absolute(&saved).display().to_string()
    );
    assert!(!shows(&h, "(unsaved)"));
    // No field for a file name relative to the folder is left.
    assert!(h.query_by_label_contains("file name in puzzles/").is_none());
}

// ---- Issue 38: minor defects ----

#[test]
fn a_board_typed_and_not_applied_is_kept_on_restart() {
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    click(&mut h, "Paint stacks");
    let board = field(&h, "Board");
    board.focus();
    steps(&mut h, 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    steps(&mut h, 1);
    field(&h, "Board").type_text("7x6");
    steps(&mut h, 2);
    assert_eq!(
        h.state_mut()
            .murals
            .model_mut()
            .editor_mut()
            .board_text_mut(),
        "7x6"
    );
    let saved = h.state_mut().saved();
    let mut again = StudioApp::from_saved(saved);
    assert_eq!(
        again.murals.model_mut().editor_mut().board_text_mut(),
        "7x6",
        "the typed board was lost on restart"
    );
    assert_eq!(
        again.murals.model().document().puzzle().unwrap().board.text,
        "5x1"
    );
}

#[test]
fn long_messages_in_murals_end_in_an_ellipsis_and_read_whole_on_hover() {
    let long = scratch_dir("murals-long").join(format!("{}.toml", "a-long-name-".repeat(30)));
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 2);
    h.state_mut()
        .murals
        .model_mut()
        .request(murus_studio::murals::Pending::Open(long.clone()));
    steps(&mut h, 2);
    let message = h
        .state()
        .murals
        .model()
        .feedback()
        .text()
        .unwrap()
        .to_string();
    assert!(message.len() > 300, "{message}");
    let label = h.get_by_label(&message);
    let row = h.ctx.style_of(h.ctx.theme()).text_styles[&egui::TextStyle::Body].size * 1.6;
    assert!(
        label.rect().height() <= 2.0 * row,
        "the message runs past its two rows, cut off unseen: {:?}",
        label.rect()
    );
    label.hover();
    // Hovering the shortened message shows it whole (after the tooltip's
    // delay).
    until(&mut h, 20, "the whole message on hover", |h| {
        h.query_all_by_label(&message).count() >= 2
    });
}

#[test]
fn node_counts_set_their_thousands_apart_and_agree_with_their_noun() {
    let mut a = app(Tab::Murals);
    a.murals
        .model_mut()
        .edit(murus_studio::murals::Edit::Replace(LONG_SEARCH.into()));
    *a.murals.model_mut().tasks_mut().budget_mut() = 20_000;
    let mut h = harness(a);
    steps(&mut h, 2);
    click(&mut h, "Play by hand");
    h.get_by_label("Solve").click();
    steps(&mut h, 1);
    until(&mut h, 60, "the solver's answer", |h| {
        !h.state().murals.is_busy()
    });
    steps(&mut h, 2);
    // The solver stops just past its budget: "20 001 nodes", not "20001".
    let said = h
        .state()
        .murals
        .model()
        .feedback()
        .text()
        .unwrap_or_default()
        .to_string();
    assert!(
        said.starts_with("no answer within 20 0") && said.ends_with(" nodes: raise the budget"),
        "{said}"
    );
    assert!(shows(&h, &said));
}
