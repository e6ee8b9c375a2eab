//! The Play panel.
//!
//! The regression tests of issue 10 (part 3) drive the panel as a user
//! would (clicks, typed text, keys) and assert on what the user sees; each
//! is named after the defect it guards.

use egui::{Key, Modifiers, Rect};
use murus_studio::files::Picked;

use super::*;
use murus_studio::play::Replacement;

/// Standard, Romans to move, a Roman tower on d5: `d5-d7` breaks through.
const ONE_MOVE_FROM_A_WIN: &str = "g2g2g21g2g2g2g2/8/3r24/8/8/8/r2r2r21r2r2r2r2 r";
/// Advanced, Romans to move: the tower on e4 can sacrifice against the
/// catapult on d4 in two ways (`e4xd4` loses one stone, `e4xxd4` both).
const TWO_SACRIFICES: &str = "g2g2g2g2g2g22/8/8/3g3r23/8/8/r2r2r2r2r2r2r21 r";
/// The start of the error about the illegal move the tests type.
const ILLEGAL: &str = "`a1-a9` is not";

/// A harness on `app`, its first frames drawn.
pub fn started(app: StudioApp) -> Harness<'static, StudioApp> {
    let mut h = harness(app);
    steps(&mut h, 2);
    h
}

/// Presses a key (with modifiers) and steps.
pub fn press(h: &mut Harness<'_, StudioApp>, modifiers: Modifiers, key: Key) {
    h.key_press_modifiers(modifiers, key);
    steps(h, 2);
}

/// The plies played, as the saved state has them.
pub fn ply(h: &mut Harness<'_, StudioApp>) -> usize {
    h.state_mut().saved().play.moves.len()
}

/// Types `text` into the move field (found by its hint).
pub fn type_move(h: &mut Harness<'_, StudioApp>, text: &str) {
    let field = h.get_by(|n| n.placeholder() == Some("type a move, e.g. a1-a3"));
    field.focus();
    steps(h, 1);
    type_into_focused(h, text);
}

/// Types `text` into the move field and presses "Play move".
pub fn submit_move(h: &mut Harness<'_, StudioApp>, text: &str) {
    type_move(h, text);
    click(h, "Play move");
}

/// Types into whichever field has focus.
pub fn type_into_focused(h: &mut Harness<'_, StudioApp>, text: &str) {
    // (A closure: the method path is not general enough over lifetimes.)
    #[expect(clippy::redundant_closure_for_method_calls)]
    h.get_by(|n| n.is_focused()).type_text(text);
    steps(h, 2);
}

/// A fresh app on Play whose Gauls are played by `bot` (set as a saved
/// state would have it).
pub fn app_with_gauls(bot: &str) -> StudioApp {
    let mut a = app(Tab::Play);
    let mut saved = a.saved();
    saved.play.seats = vec!["human".into(), bot.into()];
    a.play = murus_studio::play::PlayPanel::new(saved.play);
    a
}

/// Loads a position string through the Position field and its button.
fn load_position(h: &mut Harness<'_, StudioApp>, text: &str) {
    let field = h
        .get_all_by_role(egui::accesskit::Role::MultilineTextInput)
        .next()
        .expect("the position field");
    field.set_text_value_accesskit(text);
    steps(h, 2);
    click(h, "Load position");
}

/// The advanced game at [`TWO_SACRIFICES`].
fn two_sacrifices() -> Harness<'static, StudioApp> {
    let mut h = started(app(Tab::Play));
    click(&mut h, "advanced");
    load_position(&mut h, TWO_SACRIFICES);
    h
}

/// Opens a game as the Lab's "Open #N" does.
/// Runs two games of random bots in the Lab and opens game #2 in Play with
/// the Lab's "Open #2" button, as a user does; returns the game's moves.
fn open_lab_game_2(h: &mut Harness<'static, StudioApp>) -> Vec<String> {
    h.state_mut().tab = Tab::Lab;
    h.state_mut().lab.edit(|s| {
        s.variant = "standard".into();
        s.bots = vec!["random".into()];
        s.games = 2;
    });
    steps(h, 2);
    h.get_by_label("Run").click();
    steps(h, 2);
    until(h, 120, "the lab run", |h| !h.state().lab.is_running());
    steps(h, 2);
    h.get_by_label("Open #2").click();
    steps(h, 2);
    assert_eq!(h.state().tab, Tab::Play);
    let game = h
        .state()
        .lab
        .model
        .games()
        .iter()
        .find(|g| g.stats.index == 1);
    let moves = game.expect("game #2").moves.clone();
    assert_eq!(ply(h), moves.len());
    moves
}

/// The text of the seat field of `player` ("Romans", "Gauls") on screen.
fn seat_shown(h: &Harness<'_, StudioApp>, player: &str) -> String {
    use egui::accesskit::Role;
    use egui_kittest::kittest::{NodeT, by};
    h.query_all(by().label(player))
        .find(|n| n.accesskit_node().role() == Role::TextInput)
        .unwrap_or_else(|| panic!("no seat field for {player}"))
        .accesskit_node()
        .value()
        .unwrap_or_default()
        .to_string()
}

/// The first and the last cell of the board: both corners stay put when
/// the board neither moves nor shrinks.
pub fn board_corners(h: &Harness<'_, StudioApp>) -> (Rect, Rect) {
    let rect = |name: &str| h.get_by_label(&format!("cell {name}")).rect();
    (rect("a1"), rect("h7"))
}

#[test]
fn play_a_move_by_clicking_two_cells_then_undo_and_redo_it() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 3);
    assert!(h.query_by_label("no moves yet").is_some());

    h.get_by_label("cell b1").click();
    steps(&mut h, 2);
    let b1 = h
        .state()
        .play
        .model()
        .game()
        .cursor()
        .variant()
        .geometry()
        .parse_cell("b1");
    assert_eq!(
        h.state().play.model().pick().selected(),
        b1,
        "clicking a tower selects it"
    );

    h.get_by_label("cell b3").click();
    steps(&mut h, 2);
    assert_eq!(h.state().play.model().game().cursor().game().ply(), 1);
    assert!(
        is_current(&h, "1. r b1-b3"),
        "the move list shows the move as the current one"
    );

    h.get_by_label("Undo").click();
    steps(&mut h, 2);
    assert_eq!(h.state().play.model().game().cursor().game().ply(), 0);
    assert!(
        !is_current(&h, "1. r b1-b3") && is_current(&h, "start"),
        "after undo the move is one ahead, no longer the current one"
    );

    h.get_by_label("Redo").click();
    steps(&mut h, 2);
    assert_eq!(h.state().play.model().game().cursor().game().ply(), 1);
    assert!(is_current(&h, "1. r b1-b3"));
}

#[test]
fn a_bot_answers_on_a_background_thread() {
    let mut a = app(Tab::Play);
    a.play.model_mut().set_seat(1, "random".parse().unwrap());
    let mut h = harness(a);
    steps(&mut h, 2);
    h.get_by_label("cell c1").click();
    steps(&mut h, 1);
    h.get_by_label("cell c3").click();
    until(&mut h, 30, "the bot's reply", |h| {
        h.state().play.model().game().cursor().game().ply() == 2
    });
    assert!(h.query_by_label_contains("1... g ").is_some());
    // Undo takes back the bot's move and the human's, back to a human turn.
    h.get_by_label("Undo").click();
    steps(&mut h, 2);
    assert_eq!(h.state().play.model().game().cursor().game().ply(), 0);
    // The bot waits while its move is ahead in the line.
    steps(&mut h, 5);
    assert!(!h.state().play.is_thinking());
    assert_eq!(h.state().play.model().game().cursor().game().ply(), 0);
}

#[test]
fn a_malformed_position_string_shows_a_message_and_keeps_the_text() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    let bad = "r2r2/8/zz w";
    load_position(&mut h, bad);
    assert!(
        h.query_by_label_contains("invalid position string")
            .is_some()
    );
    assert_eq!(position_field_text(&h), bad);
    assert_eq!(h.state().play.model().game().cursor().game().ply(), 0);
}

#[test]
fn setup_mode_reports_what_is_wrong() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    h.get_by_label("Set up a position").click();
    steps(&mut h, 2);
    assert!(h.query_by_label("Set-up is legal").is_some());
    // Paint a Roman tower on the Gauls' home rank: the game is already won.
    h.get_by_label("Romans tower").click();
    steps(&mut h, 1);
    h.get_by_label("Clear board").click();
    steps(&mut h, 1);
    h.get_by_label("cell a7").click();
    steps(&mut h, 2);
    assert!(h.query_by_label("Set-up is legal").is_none());
    let model = h.state().play.model();
    let edit = model.setup().expect("set-up mode");
    let problems: Vec<String> = edit
        .problems()
        .iter()
        .map(|p| p.message().to_string())
        .collect();
    let a7 = model
        .game()
        .cursor()
        .variant()
        .geometry()
        .parse_cell("a7")
        .unwrap();
    assert!(
        matches!(
            edit.problems()[0].kind(),
            murus_engine::SetupErrorKind::SideToMoveOnGoal { player: 0, .. }
        ),
        "{problems:?}"
    );
    assert_eq!(edit.problem_cells(), [a7], "the board flags the cell");
    assert!(h.query_by_label_contains("impossible position").is_some());
    assert!(h.query_by_label("Start from this set-up").is_some());
    // Give the move to the Gauls: legal, but already won, and reported so.
    h.state_mut()
        .play
        .model_mut()
        .edit_setup(|e, v| e.set_turn(v, 1));
    steps(&mut h, 2);
    assert!(
        h.query_by_label_contains("the game is already over: Romans win by breakthrough")
            .is_some()
    );
    assert!(h.state().play.model().setup().unwrap().position().is_some());
    h.get_by_label("Start from this set-up").click();
    steps(&mut h, 2);
    assert!(h.state().play.model().setup().is_none());
    assert!(h.query_by_label_contains("Romans win").is_some());
}

/// Where taking stones wins, the status line shows each player's count, and
/// set-up mode edits it: a count the board cannot explain is reported.
#[test]
fn setup_mode_edits_the_stones_taken_where_captures_win() {
    let source = murus_engine::Variant::builtin("attrition")
        .unwrap()
        .source()
        .replace("reduced to 8 stones", "capture 6 stones");
    let race = murus_engine::Variant::compile(&source).unwrap();
    let mut a = app(Tab::Play);
    a.play.model_mut().open(|_| Ok(Replacement::switch(race)));
    let mut h = harness(a);
    steps(&mut h, 2);
    assert!(
        h.query_by_label_contains("stones taken: Romans 0 of 6, Gauls 0 of 6")
            .is_some()
    );
    h.get_by_label("Set up a position").click();
    steps(&mut h, 2);
    assert!(h.query_by_label("Set-up is legal").is_some());
    // One stone taken from a full board: no stone is missing.
    h.state_mut()
        .play
        .model_mut()
        .edit_setup(|e, v| e.set_taken(v, 0, 1));
    steps(&mut h, 2);
    assert!(
        h.query_by_label_contains("the Romans have taken 1 enemy stone, but only 0 are missing")
            .is_some()
    );
    let setup = h.state().play.model().setup().expect("set-up mode");
    assert_eq!(setup.setup().taken(0), 1);
    // The field is there, labelled with the player's name.
    assert!(h.query_by_label("Romans:").is_some());
}

/// Whether the move list marks `label` as the ply shown.
fn is_current(h: &Harness<'_, StudioApp>, label: &str) -> bool {
    use egui_kittest::kittest::NodeT;
    h.get_by_label(label).accesskit_node().toggled() == Some(egui::accesskit::Toggled::True)
}

/// The text of the Position field.
fn position_field_text(h: &Harness<'_, StudioApp>) -> String {
    h.get_all_by_role(egui::accesskit::Role::MultilineTextInput)
        .next()
        .expect("the position field")
        .value()
        .unwrap_or_default()
}

// --- Stale messages -----------------------------------------------------

#[test]
fn illegal_move_error_clears_after_a_legal_move() {
    let mut h = started(app(Tab::Play));
    submit_move(&mut h, "a1-a9");
    assert!(shows(&h, ILLEGAL), "the error shows");
    click_move(&mut h, "b1", "b3");
    assert_eq!(ply(&mut h), 1);
    assert!(
        !shows(&h, ILLEGAL),
        "the error about the old position is gone"
    );
}

#[test]
fn illegal_move_error_clears_when_the_game_ends() {
    let mut h = started(app(Tab::Play));
    load_position(&mut h, ONE_MOVE_FROM_A_WIN);
    submit_move(&mut h, "a1-a9");
    assert!(shows(&h, ILLEGAL));
    click_move(&mut h, "d5", "d7");
    assert!(shows(&h, "Romans win"));
    assert!(!shows(&h, ILLEGAL));
}

#[test]
fn illegal_move_error_clears_after_switching_variants() {
    let mut h = started(app(Tab::Play));
    submit_move(&mut h, "a1-a9");
    assert!(shows(&h, ILLEGAL));
    click(&mut h, "hex");
    assert_eq!(
        h.state_mut().saved().play.variant_source,
        murus_engine::Variant::builtin("hex").unwrap().source()
    );
    assert!(!shows(&h, ILLEGAL));
}

#[test]
fn position_loaded_message_clears_after_the_next_move() {
    let mut h = started(app(Tab::Play));
    load_position(&mut h, ONE_MOVE_FROM_A_WIN);
    assert!(shows(&h, "position loaded"));
    click_move(&mut h, "b1", "b3");
    assert_eq!(ply(&mut h), 1);
    assert!(!shows(&h, "position loaded"));
}

#[test]
fn opened_lab_game_message_clears_after_the_next_move() {
    let mut h = started(app(Tab::Play));
    let moves = open_lab_game_2(&mut h);
    assert!(shows(&h, "opened lab game #2"));
    // Step back a move and play it again from the board's move field.
    press(&mut h, Modifiers::NONE, Key::ArrowLeft);
    assert_eq!(ply(&mut h), moves.len() - 1);
    submit_move(&mut h, moves.last().unwrap());
    assert_eq!(ply(&mut h), moves.len());
    assert!(!shows(&h, "opened lab game #2"));
}

// --- Layout that moves under the pointer ----------------------------------

#[test]
fn an_error_message_does_not_move_the_board() {
    let mut h = started(app(Tab::Play));
    let before = board_corners(&h);
    submit_move(&mut h, "a1-a9");
    assert!(shows(&h, ILLEGAL));
    assert_eq!(board_corners(&h), before);
}

#[test]
fn a_result_banner_does_not_move_the_board() {
    let mut h = started(app(Tab::Play));
    load_position(&mut h, ONE_MOVE_FROM_A_WIN);
    let before = board_corners(&h);
    click_move(&mut h, "d5", "d7");
    assert!(shows(&h, "Romans win"));
    assert_eq!(board_corners(&h), before);
}

#[test]
fn the_move_chooser_does_not_move_the_board() {
    let mut h = two_sacrifices();
    let before = board_corners(&h);
    click_move(&mut h, "e4", "d4");
    assert!(shows(&h, "e4xxd4"), "the chooser offers both sacrifices");
    assert_eq!(board_corners(&h), before);
}

#[test]
fn a_bot_spec_error_does_not_move_the_fields_below_it() {
    let mut h = started(app_with_gauls("greedy"));
    let pause = h.get_by_label("Pause bots").rect();
    let new_game = h.get_by_label("New game").rect();
    let board = board_corners(&h);
    let field = h.get_by(|n| {
        n.value().as_deref() == Some("greedy") && n.role() == egui::accesskit::Role::TextInput
    });
    field.focus();
    steps(&mut h, 1);
    type_into_focused(&mut h, ":x");
    assert!(shows(&h, "takes no budget"), "the spec error shows");
    assert_eq!(h.get_by_label("Pause bots").rect(), pause);
    assert_eq!(h.get_by_label("New game").rect(), new_game);
    assert_eq!(board_corners(&h), board, "the panels keep their widths");
}

// --- Work lost without a word ----------------------------------------------

#[test]
fn switching_variant_mid_game_asks_before_discarding_the_game() {
    let mut h = started(app(Tab::Play));
    click_move(&mut h, "b1", "b3");
    assert_eq!(ply(&mut h), 1);
    click(&mut h, "hex");
    steps(&mut h, 2); // the dialog's first frame only measures it
    assert_eq!(
        ply(&mut h),
        1,
        "the game is still there while the question is asked"
    );
    click(&mut h, "Keep playing");
    assert_eq!(ply(&mut h), 1);
    assert!(h.query_by_label("1. r b1-b3").is_some());
    // Asked again and answered the other way, the switch happens.
    click(&mut h, "hex");
    steps(&mut h, 2);
    click(&mut h, "Discard and switch");
    assert_eq!(ply(&mut h), 0);
    assert_eq!(
        h.state_mut().saved().play.variant_source,
        murus_engine::Variant::builtin("hex").unwrap().source()
    );
}

#[test]
fn opening_a_lab_game_keeps_the_seats() {
    let mut h = started(app_with_gauls("greedy"));
    assert_eq!(seat_shown(&h, "Gauls"), "greedy");
    open_lab_game_2(&mut h);
    assert_eq!(seat_shown(&h, "Romans"), "human");
    assert_eq!(seat_shown(&h, "Gauls"), "greedy");
    assert_eq!(h.state_mut().saved().play.seats, ["human", "greedy"]);
}

// --- Input people expect ------------------------------------------------------

#[test]
fn enter_plays_the_typed_move() {
    let mut h = started(app(Tab::Play));
    type_move(&mut h, "b1-b3");
    press(&mut h, Modifiers::NONE, Key::Enter);
    assert_eq!(ply(&mut h), 1);
    assert!(h.query_by_label("1. r b1-b3").is_some());
}

#[test]
fn ctrl_z_undoes_and_ctrl_shift_z_or_ctrl_y_redoes() {
    let mut h = started(app(Tab::Play));
    click_move(&mut h, "b1", "b3");
    assert_eq!(ply(&mut h), 1);
    press(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(ply(&mut h), 0, "Ctrl+Z undoes");
    press(&mut h, Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    assert_eq!(ply(&mut h), 1, "Ctrl+Shift+Z redoes");
    press(&mut h, Modifiers::COMMAND, Key::Z);
    press(&mut h, Modifiers::COMMAND, Key::Y);
    assert_eq!(ply(&mut h), 1, "Ctrl+Y redoes");
}

#[test]
fn ctrl_z_in_a_text_field_leaves_the_game_alone() {
    let mut h = started(app(Tab::Play));
    click_move(&mut h, "b1", "b3");
    type_move(&mut h, "c7");
    press(&mut h, Modifiers::COMMAND, Key::Z);
    press(&mut h, Modifiers::NONE, Key::ArrowLeft);
    assert_eq!(
        ply(&mut h),
        1,
        "the text field keeps its own undo and cursor keys"
    );
}

#[test]
fn arrow_keys_step_through_the_game() {
    let mut h = started(app(Tab::Play));
    click_move(&mut h, "b1", "b3");
    click_move(&mut h, "c7", "c5");
    assert_eq!(ply(&mut h), 2);
    press(&mut h, Modifiers::NONE, Key::ArrowLeft);
    assert_eq!(ply(&mut h), 1);
    press(&mut h, Modifiers::NONE, Key::ArrowLeft);
    assert_eq!(ply(&mut h), 0);
    press(&mut h, Modifiers::NONE, Key::ArrowRight);
    press(&mut h, Modifiers::NONE, Key::ArrowRight);
    assert_eq!(ply(&mut h), 2);
}

#[test]
fn clicking_a_move_in_the_list_jumps_to_that_ply() {
    let mut h = started(app(Tab::Play));
    click_move(&mut h, "b1", "b3");
    click_move(&mut h, "c7", "c5");
    click_move(&mut h, "e1", "e3");
    assert_eq!(ply(&mut h), 3);
    click(&mut h, "1. r b1-b3");
    assert_eq!(ply(&mut h), 1, "the position after the first move");
    click(&mut h, "2. r e1-e3");
    assert_eq!(ply(&mut h), 3, "and forward again");
}

#[test]
fn a_click_that_does_nothing_says_why() {
    let mut h = started(app(Tab::Play));
    click(&mut h, "cell d4");
    assert!(shows(&h, "d4 is empty"), "an empty cell, nothing selected");
    click(&mut h, "cell d7");
    assert!(shows(&h, "d7 holds a Gauls tower"), "an enemy stack");
    // Walls do not move in the standard game.
    click_move(&mut h, "b1", "b3");
    click_move(&mut h, "c7", "c5");
    click(&mut h, "cell b2");
    assert!(shows(&h, "wall on b2"), "a wall");
    click_move(&mut h, "e1", "e5");
    assert!(shows(&h, "e1 cannot"), "a cell that is no target");
}

#[test]
fn the_move_chooser_says_what_each_choice_does() {
    let mut h = two_sacrifices();
    click_move(&mut h, "e4", "d4");
    assert!(shows(&h, "lose 1 stone"));
    assert!(shows(&h, "lose both"));
}

#[test]
fn hover_text_names_the_players() {
    let mut h = started(app(Tab::Play));
    h.get_by_label("cell b1").hover();
    steps(&mut h, 40); // the tooltip's delay
    assert!(
        h.query_by_label("b1: Romans tower").is_some(),
        "the tooltip names the Romans"
    );
}

/// Budgets small enough for tests: two plies or 50 000 nodes a position
/// live, 5 000 nodes a position in a review.
fn small_analysis(h: &mut Harness<'_, StudioApp>) {
    use murus_studio::play::analysis::LiveBudget;
    let a = h.state_mut().play.analysis_mut();
    a.live_budget = LiveBudget {
        max_depth: 2,
        time: None,
        nodes: Some(50_000),
        proof_nodes: 20_000,
        threads: 1,
    };
    a.review_limits.nodes = Some(5_000);
}

#[test]
fn the_analysis_toggle_shows_the_evaluation_the_best_line_and_scores_on_hover() {
    let mut h = started(app(Tab::Play));
    small_analysis(&mut h);
    load_position(&mut h, ONE_MOVE_FROM_A_WIN);
    assert!(!shows(&h, "Evaluation"), "no bar while analysis is off");
    click(&mut h, "Analysis");
    until(&mut h, 120, "the analysis of the position", |h| {
        let play = &h.state().play;
        play.analysis()
            .current(play.model())
            .is_some_and(|e| e.done)
    });
    steps(&mut h, 2);
    assert!(
        h.query_by_label("Evaluation Romans win in 1 ply").is_some(),
        "the bar's label gives the score"
    );
    assert!(shows(&h, "Best line: d5-d7"));
    assert!(
        shows(&h, "Depth 1"),
        "a proven win ends the search at depth 1"
    );
    // The proof search that follows settles the position's value.
    assert!(
        shows(&h, "Proven: Romans win with perfect play"),
        "the proof search's value is shown"
    );
    // The selected tower's moves carry their scores on their targets.
    click(&mut h, "cell d5");
    h.get_by_label("cell d7").hover();
    steps(&mut h, 40); // the tooltip's delay
    assert!(shows(&h, "d5-d7: Romans win in 1 ply"));
    // Off again: no bar, the search gone.
    click(&mut h, "Analysis");
    assert!(!shows(&h, "Evaluation"));
    assert!(!h.state().play.analysis().is_searching());
}

#[test]
fn analyze_game_graphs_the_evaluation_lists_the_blunder_and_the_lists_jump() {
    let mut h = started(app(Tab::Play));
    small_analysis(&mut h);
    load_position(&mut h, ONE_MOVE_FROM_A_WIN);
    // The Romans let the breakthrough go.
    submit_move(&mut h, "d5-d3");
    submit_move(&mut h, "c7-c5");
    assert_eq!(ply(&mut h), 2);
    click(&mut h, "Analyze game");
    until(&mut h, 120, "the review", |h| {
        !h.state().play.analysis().is_reviewing()
    });
    steps(&mut h, 2);
    // The reply may count as a blunder too, by however the evaluation
    // values it; the first move always does.
    assert!(
        h.query_by_label_contains("Evaluation graph: 3 positions, ")
            .is_some(),
        "the graph"
    );
    assert!(h.query_by_label_contains("Blunders (").is_some());
    // The move list marks the blunder; its moves jump.
    click(&mut h, "1. r d5-d3 ??");
    assert_eq!(ply(&mut h), 1);
    h.get_by_label_contains("1... g c7-c5").click();
    steps(&mut h, 2);
    assert_eq!(ply(&mut h), 2);
    // The blunder list shows the position before the blunder.
    h.get_by_label_contains("Blunder 1. r d5-d3: from Romans win in 1 ply (depth 1) to ")
        .click();
    steps(&mut h, 2);
    assert_eq!(ply(&mut h), 0);
}

#[test]
fn mark_in_the_move_list_puts_the_reviews_blunders_and_better_lines_in_the_tree() {
    // Tall enough for the button under the blunder list.
    let a = app(Tab::Play);
    let mut h = Harness::builder()
        .with_size([1280.0, 1200.0])
        .build_eframe(move |_cc| a);
    steps(&mut h, 2);
    review_a_missed_win(&mut h);
    click(&mut h, "Mark in the move list");
    // The blunder has its glyph, and the win it let go is a variation.
    let tree = h.state_mut().saved().play.tree.unwrap();
    assert_eq!(tree.moves[0].glyph, Some(murus_engine::Glyph::Blunder));
    assert_eq!(tree.moves[0].variations[0][0].text, "d5-d7");
    assert!(
        h.query_by_label("(1. r d5-d7)").is_some(),
        "shown in the list"
    );
    assert!(h.query_by_label_contains("marked ??").is_some());
    assert_eq!(ply(&mut h), 2, "the board stays where it was");
}

// ---- Regression tests of issue 22 (part 3) ----

/// A record of the standard game with six moves.
const SIX_MOVES: &str =
    r#"{"variant":"standard","moves":["b1-b3","c7-c5","e1-e3","f7-f5","d1-d3","e7-e5"]}"#;

/// Pastes `json` into the record field and presses "Load record text".
fn load_record_text(h: &mut Harness<'_, StudioApp>, json: &str) {
    let field = h
        .get_all_by_role(egui::accesskit::Role::MultilineTextInput)
        .nth(1)
        .expect("the record field");
    field.set_text_value_accesskit(json);
    steps(h, 2);
    click(h, "Load record text");
}

/// The text of the question before the game is replaced, if one is asked.
fn question(h: &Harness<'_, StudioApp>) -> Option<String> {
    use egui_kittest::kittest::{NodeT, by};
    // The question's texts label its window: asked for with the labels.
    let text = |t: &str| {
        h.query_all(by().label_contains(t).include_labels())
            .next()
            .and_then(|n| n.accesskit_node().value())
    };
    text("Discard the game in progress?")?;
    text(" not saved")
}

#[test]
fn new_game_load_position_and_open_record_ask_before_discarding_the_game() {
    let mut h = started(app(Tab::Play));
    let record = scratch_dir("open-record").join("game.json");
    std::fs::write(&record, SIX_MOVES).unwrap();
    let (picker, _) = picker(vec![Picked::Path(record.clone()), Picked::Path(record)]);
    h.state_mut().set_picker(picker);
    click_move(&mut h, "b1", "b3");
    click_move(&mut h, "c7", "c5");
    let open_record = |h: &mut Harness<'static, StudioApp>| {
        click(h, "Open record…");
        answered(h);
    };
    type Ask<'a> = &'a dyn Fn(&mut Harness<'static, StudioApp>);
    let asks: [(&str, Ask<'_>); 4] = [
        ("New game", &|h| click(h, "New game")),
        ("Load position", &|h| load_position(h, ONE_MOVE_FROM_A_WIN)),
        ("Open record", &open_record),
        ("Load record text", &|h| load_record_text(h, SIX_MOVES)),
    ];
    for (what, ask) in asks {
        ask(&mut h);
        steps(&mut h, 2); // the dialog's first frame only measures it
        assert_eq!(ply(&mut h), 2, "{what}: the game is there while asked");
        let q = question(&h).unwrap_or_else(|| panic!("{what} asks first"));
        assert!(
            q.contains("2 moves of this standard game are not saved"),
            "{what}: {q}"
        );
        click(&mut h, "Keep playing");
        assert_eq!(ply(&mut h), 2, "{what}: kept");
        assert!(h.query_by_label("1... g c7-c5").is_some());
    }
    // Answered the other way, the new game starts.
    click(&mut h, "New game");
    steps(&mut h, 2);
    click(&mut h, "Discard and start");
    assert_eq!(ply(&mut h), 0);
    // Nothing unsaved: no question.
    load_position(&mut h, ONE_MOVE_FROM_A_WIN);
    assert!(question(&h).is_none());
    assert!(shows(&h, "position loaded"));
}

#[test]
fn the_unsaved_moves_counted_are_those_played_since_the_game_was_loaded() {
    let mut h = started(app(Tab::Play));
    load_record_text(&mut h, SIX_MOVES);
    assert_eq!(ply(&mut h), 6);
    assert!(question(&h).is_none(), "nothing to lose yet");
    click_move(&mut h, "c1", "c3");
    click_move(&mut h, "d7", "d5");
    click(&mut h, "hex");
    steps(&mut h, 2);
    let q = question(&h).expect("the switch asks");
    assert!(
        q.contains("2 moves of this standard game are not saved"),
        "it said 8 for 2: {q}"
    );
}

#[test]
fn the_bots_line_goes_with_new_game_load_position_and_a_variant_switch() {
    let mut h = started(app_with_gauls("random"));
    let bot_line = |h: &Harness<'_, StudioApp>| shows(h, "Gauls (random): ");
    let bot_moved = |h: &mut Harness<'static, StudioApp>| {
        click_move(h, "b1", "b3");
        until(h, 30, "the bot's reply", |h| {
            h.state().play.model().game().cursor().game().ply() == 2
        });
        steps(h, 2);
        assert!(bot_line(h), "the bot's move is described");
    };
    let discard = |h: &mut Harness<'static, StudioApp>, go: &str| {
        steps(h, 2);
        click(h, go);
    };
    bot_moved(&mut h);
    click(&mut h, "New game");
    discard(&mut h, "Discard and start");
    assert_eq!(ply(&mut h), 0);
    assert!(!bot_line(&h), "after New game");
    bot_moved(&mut h);
    load_position(&mut h, ONE_MOVE_FROM_A_WIN);
    discard(&mut h, "Discard and load");
    assert!(shows(&h, "position loaded"));
    assert!(!bot_line(&h), "after Load position");
    click(&mut h, "standard"); // no move played: a new game at once
    bot_moved(&mut h);
    click(&mut h, "hex");
    discard(&mut h, "Discard and switch");
    assert!(!bot_line(&h), "after a variant switch");
}

#[test]
fn the_bots_line_shows_its_tooltip_once() {
    let mut h = started(app_with_gauls("alphabeta:20000"));
    click_move(&mut h, "b1", "b3");
    until(&mut h, 60, "the bot's reply", |h| {
        h.state().play.model().game().cursor().game().ply() == 2
    });
    steps(&mut h, 2);
    let text = h
        .state()
        .play
        .model()
        .seats()
        .last_bot(h.state().play.model().game().cursor())
        .expect("the bot's line")
        .to_string();
    assert!(
        text.len() > 40,
        "long enough to be elided in the side panel: {text}"
    );
    h.get_by_label(&text).hover();
    steps(&mut h, 40); // the tooltip's delay
    let shown = h.query_all_by_label(&text).count();
    assert_eq!(shown, 2, "the line and one tooltip");
}

/// Steps one frame and returns the text copied to the clipboard in it.
fn copied(h: &mut Harness<'_, StudioApp>) -> Option<String> {
    h.step();
    h.output()
        .platform_output
        .commands
        .iter()
        .find_map(|c| match c {
            egui::OutputCommand::CopyText(t) => Some(t.clone()),
            _ => None,
        })
}

#[test]
fn copy_position_in_set_up_mode_copies_the_set_up() {
    let mut h = started(app(Tab::Play));
    h.get_by_label("Copy position").click();
    let start = copied(&mut h).expect("the start position copied");
    assert_eq!(
        start,
        murus_engine::Variant::standard()
            .position_string(&murus_engine::Variant::standard().start())
    );
    steps(&mut h, 1);
    click(&mut h, "Set up a position");
    click(&mut h, "Brush: erase");
    click(&mut h, "cell a1");
    let edit = h.state().play.model().setup().expect("set-up mode");
    let painted = edit.position().expect("a legal set-up");
    let expected = murus_engine::Variant::standard().position_string(&painted);
    assert_ne!(expected, start);
    h.get_by_label("Copy position").click();
    assert_eq!(
        copied(&mut h),
        Some(expected.clone()),
        "what the board shows"
    );
    steps(&mut h, 1);
    assert_eq!(position_field_text(&h), expected, "and the field shows it");
    // A set-up that is no position yet: nothing copied, and why.
    click(&mut h, "Clear board");
    click(&mut h, "Romans tower");
    click(&mut h, "cell a7");
    assert!(h.state().play.model().setup().unwrap().position().is_none());
    h.get_by_label("Copy position").click();
    assert_eq!(copied(&mut h), None);
    steps(&mut h, 2);
    assert!(shows(&h, "the set-up is not a position yet"));
}

#[test]
fn records_and_positions_open_and_save_through_file_dialogs_with_full_paths() {
    let dir = scratch_dir("play-files");
    let record = dir.join("mine.json");
    let position = dir.join("mine.pos");
    let mut h = started(app(Tab::Play));
    let (picker, asked) = picker(vec![
        Picked::Path(record.clone()),
        Picked::Path(position.clone()),
        Picked::Path(position.clone()),
    ]);
    h.state_mut().set_picker(picker);
    click_move(&mut h, "b1", "b3");
    click_move(&mut h, "c7", "c5");
    // Back one ply: the record still holds the whole line.
    press(&mut h, Modifiers::NONE, Key::ArrowLeft);
    click(&mut h, "Save record…");
    answered(&mut h);
    let saved =
        murus_engine::Record::from_json(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let moves: Vec<&str> = saved.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["b1-b3", "c7-c5"]);
    assert!(shows(&h, &format!("saved {}", record.display())));
    // Saved: a new game asks nothing.
    click(&mut h, "Save position…");
    answered(&mut h);
    let text = std::fs::read_to_string(&position).unwrap();
    let v = murus_engine::Variant::standard();
    assert_eq!(
        text.trim(),
        v.position_string(h.state().play.model().game().cursor().game().position())
    );
    click(&mut h, "Open position…");
    answered(&mut h);
    assert!(
        question(&h).is_none(),
        "the record was saved: nothing to lose"
    );
    assert!(shows(&h, "position loaded"));
    assert_eq!(ply(&mut h), 0);
    let asked = asked.lock().unwrap().clone();
    assert_eq!(
        asked.iter().map(|r| r.save).collect::<Vec<_>>(),
        [true, true, false]
    );
    assert!(
        asked
            .iter()
            .all(|r| r.dir.as_ref().is_some_and(|d| d.is_absolute()))
    );
}

// --- Layout that moves under the pointer (issue 22) -------------------------

/// The rects of widgets a misclick would hit: the game buttons, the
/// position's buttons, and the board's corners.
fn still_widgets(h: &Harness<'_, StudioApp>) -> Vec<(String, Rect)> {
    let mut out: Vec<(String, Rect)> = ["New game", "Flip board", "Load position", "Copy record"]
        .iter()
        .map(|l| ((*l).to_string(), h.get_by_label(l).rect()))
        .collect();
    let (a1, h7) = board_corners(h);
    out.push(("cell a1".into(), a1));
    out.push(("cell h7".into(), h7));
    out
}

#[test]
fn the_analysis_status_line_does_not_move_the_widgets() {
    let mut h = started(app(Tab::Play));
    small_analysis(&mut h);
    load_position(&mut h, ONE_MOVE_FROM_A_WIN);
    click(&mut h, "Analysis");
    let searching = still_widgets(&h);
    let analyze = h.get_by_label("Analyze game").rect();
    until(&mut h, 120, "the analysis of the position", |h| {
        let play = &h.state().play;
        play.analysis()
            .current(play.model())
            .is_some_and(|e| e.done)
    });
    steps(&mut h, 2);
    assert!(shows(&h, "Best line: d5-d7"));
    assert_eq!(still_widgets(&h), searching, "once the results are in");
    assert_eq!(h.get_by_label("Analyze game").rect(), analyze);
}

#[test]
fn turning_analysis_on_does_not_move_the_board_or_the_buttons() {
    let mut h = started(app(Tab::Play));
    small_analysis(&mut h);
    let off = still_widgets(&h);
    click(&mut h, "Analysis");
    steps(&mut h, 2);
    assert!(
        h.query_by_label_contains("Evaluation").is_some(),
        "the bar shows"
    );
    assert_eq!(still_widgets(&h), off);
}

#[test]
fn a_long_pasted_position_does_not_move_the_buttons_below() {
    let mut h = started(app(Tab::Play));
    let before = still_widgets(&h);
    let field = h
        .get_all_by_role(egui::accesskit::Role::MultilineTextInput)
        .next()
        .expect("the position field");
    field.set_text_value_accesskit(&"g2g2g2g2g2g2g2g2/".repeat(12));
    steps(&mut h, 3);
    assert_eq!(still_widgets(&h), before);
}

#[test]
fn a_wrapped_variant_title_does_not_move_the_game_buttons() {
    let mut h = started(app(Tab::Play));
    let before = still_widgets(&h);
    let long = murus_engine::Variant::standard().source().replace(
        "title \"Murus Gallicus\"",
        "title \"Murus Gallicus, as the Romans and the Gauls played it on a long winter evening\"",
    );
    let v = murus_engine::Variant::compile(&long).expect("the long title compiles");
    h.state_mut().play.request_variant(v);
    steps(&mut h, 3);
    assert!(shows(&h, "Variant: Murus Gallicus, as the Romans"));
    assert_eq!(still_widgets(&h), before);
}

#[test]
fn the_best_moves_text_is_never_cut_off() {
    let mut h = started(app(Tab::Play));
    small_analysis(&mut h);
    load_position(&mut h, ONE_MOVE_FROM_A_WIN);
    click(&mut h, "Analysis");
    until(&mut h, 120, "the analysis of the position", |h| {
        let play = &h.state().play;
        play.analysis()
            .current(play.model())
            .is_some_and(|e| e.done)
    });
    steps(&mut h, 2);
    // However narrow the panel, the whole row (move, score and its line)
    // can be read on hover.
    h.get_by_label("d5-d7  Romans win in 1 ply").hover();
    steps(&mut h, 40); // the tooltip's delay
    assert!(
        h.query_by_label_contains("d5-d7  Romans win in 1 ply\nline: d5-d7")
            .is_some(),
        "the whole text on hover"
    );
    h.get_by_label_contains("Best line: d5-d7").hover();
    steps(&mut h, 40);
    assert!(
        h.query_by_label_contains("Best line: d5-d7\nscores from")
            .is_some()
    );
}

// --- The review's chart (issue 22) ------------------------------------------

/// The review of a game whose first move lets a win go.
fn reviewed() -> Harness<'static, StudioApp> {
    let mut h = started(app(Tab::Play));
    review_a_missed_win(&mut h);
    h
}

/// Plays a game whose first move lets a win go in `h` and reviews it.
fn review_a_missed_win(h: &mut Harness<'_, StudioApp>) {
    small_analysis(h);
    load_position(h, ONE_MOVE_FROM_A_WIN);
    submit_move(h, "d5-d3");
    submit_move(h, "c7-c5");
    click(h, "Analyze game");
    until(h, 120, "the review", |h| {
        !h.state().play.analysis().is_reviewing()
    });
    steps(h, 3);
}

/// Relative luminance (WCAG) of an sRGB pixel.
pub fn luminance(p: image::Rgba<u8>) -> f64 {
    let lin = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(p[0]) + 0.7152 * lin(p[1]) + 0.0722 * lin(p[2])
}

/// The pixels of `rect` (in points; the harness draws one pixel a point).
pub fn pixels(img: &image::RgbaImage, rect: Rect) -> Vec<(u32, u32, image::Rgba<u8>)> {
    let mut out = Vec::new();
    for y in rect.top().max(0.0) as u32..(rect.bottom() as u32).min(img.height()) {
        for x in rect.left().max(0.0) as u32..(rect.right() as u32).min(img.width()) {
            out.push((x, y, *img.get_pixel(x, y)));
        }
    }
    out
}

/// The most common colour of some pixels (a background).
pub fn most_common(px: &[(u32, u32, image::Rgba<u8>)]) -> image::Rgba<u8> {
    let mut counts = std::collections::HashMap::new();
    for (_, _, p) in px {
        *counts.entry(p.0).or_insert(0) += 1;
    }
    let (best, _) = counts.into_iter().max_by_key(|(_, n)| *n).expect("pixels");
    image::Rgba(best)
}

#[test]
fn the_review_charts_y_axis_has_a_scale() {
    let mut h = reviewed();
    let graph = h.get_by_label_contains("Evaluation graph:").rect();
    let img = h.render().expect("a picture of the window");
    // The tick labels sit left of the plot's frame: count the rows of text
    // there.
    let axis = Rect::from_min_max(
        egui::pos2(graph.left() - 40.0, graph.top()),
        egui::pos2(graph.left() - 1.0, graph.bottom()),
    );
    let px = pixels(&img, axis);
    let back = most_common(&px);
    let inked: std::collections::BTreeSet<u32> = px
        .iter()
        .filter(|(_, _, p)| (luminance(*p) - luminance(back)).abs() > 0.15)
        .map(|(_, y, _)| *y)
        .collect();
    let mut labels = 0;
    let mut last = None;
    for y in inked {
        if last.is_none_or(|l| y > l + 1) {
            labels += 1;
        }
        last = Some(y);
    }
    assert!(
        labels >= 3,
        "the y-axis shows {labels} label(s); a scale needs at least 3"
    );
}

#[test]
fn the_selected_blunder_reads_on_the_selection_colour() {
    let mut h = reviewed();
    h.get_by_label_contains("Blunder 1. r d5-d3: from Romans win in 1 ply (depth 1) to ")
        .click();
    steps(&mut h, 3);
    assert_eq!(ply(&mut h), 0, "the blunder is selected");
    // The pointer away, so that its arrow is not in the picture.
    h.hover_at(egui::pos2(600.0, 850.0));
    steps(&mut h, 2);
    let rect = h
        .get_by_label_contains("Blunder 1. r d5-d3: from Romans win in 1 ply (depth 1) to ")
        .rect();
    let img = h.render().expect("a picture of the window");
    let px = pixels(&img, rect.shrink(1.0));
    let back = most_common(&px);
    let lb = luminance(back);
    let text = px
        .iter()
        .map(|(_, _, p)| luminance(*p))
        .max_by(|a, b| (a - lb).abs().total_cmp(&(b - lb).abs()))
        .expect("pixels");
    let contrast = (lb.max(text) + 0.05) / (lb.min(text) + 0.05);
    assert!(
        contrast >= 3.0,
        "the selected blunder's text has a contrast of {contrast:.2} on its background"
    );
}
