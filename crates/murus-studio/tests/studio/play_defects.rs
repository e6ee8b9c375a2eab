//! The Play panel's defects found when a designer walked through the studio
//! as a new user (issue 38): a record's result, messages that outlived what
//! they described, errors that could not be read, a seat spec that moved
//! the panel. Each test is named after its defect.

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::NodeT;

use super::play::{
    app_with_gauls, board_corners, luminance, most_common, pixels, ply, press, started, submit_move,
};
use super::tree::{fill_record_field, magazine};
use super::*;

/// The magazine's game (Gauls won by resignation), pasted as printed.
fn resigned() -> Harness<'static, StudioApp> {
    let mut h = started(app(Tab::Play));
    fill_record_field(&mut h, &magazine());
    click(&mut h, "Paste game text");
    assert_eq!(ply(&mut h), 34);
    h
}

#[test]
fn a_records_resignation_was_lost_and_the_game_stayed_playable() {
    let mut h = resigned();
    // Looking around does not lose it: it is the game's end, not a message.
    press(&mut h, Modifiers::NONE, Key::ArrowLeft);
    press(&mut h, Modifiers::NONE, Key::ArrowRight);
    let said = h
        .query_all_by_label_contains("Gauls won by resignation")
        .count();
    assert!(said >= 2, "the status and the move list say it ({said})");
    // No further move.
    let legal = {
        let m = h.state().play.model();
        m.game()
            .cursor()
            .variant()
            .move_to_string(m.game().cursor().game().legal_moves()[0])
    };
    submit_move(&mut h, &legal);
    assert_eq!(ply(&mut h), 34, "the game is over");
    assert!(shows(&h, "the game is over"));
    // Saved with its result.
    let text = h.state().play.model().game().record_text();
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    assert!(text.contains("[Termination \"resignation\"]"), "{text}");
    assert_eq!(
        h.state_mut()
            .saved()
            .play
            .tree
            .unwrap()
            .result
            .unwrap()
            .reason,
        "resignation"
    );
    // Deleting the last move of the main line drops it, says how to get it
    // back, and Undo does.
    click(&mut h, "Delete");
    assert!(shows(&h, "Ctrl+Z"), "the message says Undo brings it back");
    let text = h.state().play.model().game().record_text();
    assert!(text.contains("[Result \"*\"]"), "{text}");
    click(&mut h, "Undo");
    let text = h.state().play.model().game().record_text();
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    assert_eq!(ply(&mut h), 34);
}

#[test]
fn a_records_resignation_was_lost_on_a_restart() {
    let mut h = resigned();
    let saved = h.state_mut().saved();
    let mut h = harness(StudioApp::from_saved(saved));
    steps(&mut h, 2);
    assert!(shows(&h, "Gauls won by resignation"));
    let text = h.state().play.model().game().record_text();
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
}

#[test]
fn the_bots_move_line_stayed_after_undo() {
    let mut h = started(app_with_gauls("random"));
    click_move(&mut h, "b1", "b3");
    until(&mut h, 30, "the bot's reply", |h| {
        h.state().play.model().game().cursor().game().ply() == 2
    });
    steps(&mut h, 2);
    assert!(shows(&h, "Gauls (random): "), "the bot's move is described");
    click(&mut h, "Undo");
    assert_eq!(ply(&mut h), 0);
    assert!(
        !shows(&h, "Gauls (random): "),
        "the board no longer shows the bot's move"
    );
}

#[test]
fn a_paste_error_stayed_after_its_text_was_changed() {
    let mut h = started(app(Tab::Play));
    fill_record_field(&mut h, "1. h1-h3, d7-f5 2. f1-d3, a7-a9");
    click(&mut h, "Paste game text");
    assert!(shows(&h, "the game text:1:"));
    // Fixing the text: the error was about the text as it was.
    let field = h
        .get_all_by_role(Role::MultilineTextInput)
        .find(|n| n.value().is_some_and(|v| v.contains("a7-a9")))
        .expect("the record field");
    field.focus();
    steps(&mut h, 1);
    #[expect(clippy::redundant_closure_for_method_calls)]
    h.get_by(|n| n.is_focused()).type_text(" ");
    steps(&mut h, 2);
    assert!(!shows(&h, "the game text:1:"));
}

/// The text and rectangle of the label whose text contains each of
/// `needles`.
fn label_with(h: &Harness<'_, StudioApp>, needles: &[&str]) -> (String, egui::Rect) {
    // A label's text is its value.
    let text_of = |n: &egui_kittest::Node<'_>| n.accesskit_node().value().unwrap_or_default();
    let node = h
        .get_all_by_role(Role::Label)
        .find(|n| needles.iter().all(|x| text_of(n).contains(x)))
        .unwrap_or_else(|| panic!("no label with {needles:?}"));
    (text_of(&node).to_string(), node.rect())
}

#[test]
fn a_paste_errors_caret_was_cut_off() {
    let mut h = started(app(Tab::Play));
    fill_record_field(&mut h, "1. h1-h3, d7-f5 2. f1-d3, a7-a9");
    click(&mut h, "Paste game text");
    let (text, rect) = label_with(&h, &["the game text:1:", "^"]);
    // All its rows are on screen, unwrapped (the caret under the mistake;
    // a long line scrolls sideways), and nothing covers it.
    assert!(
        rect.min.x >= 0.0 && rect.min.x < 1280.0,
        "{rect:?} is off screen"
    );
    assert!(
        rect.min.y >= 0.0 && rect.max.y <= 860.0,
        "{rect:?} is off screen"
    );
    let rows = text.lines().count() as f32;
    let row = rect.height() / rows;
    assert!(
        (10.0..20.0).contains(&row),
        "{rect:?} for {rows} rows: wrapped"
    );
    let covered: Vec<String> = h
        .query_all_by(|n| {
            matches!(
                n.role(),
                Role::Button | Role::TextInput | Role::MultilineTextInput | Role::CheckBox
            )
        })
        .filter(|n| n.rect().intersects(rect))
        .map(|n| n.accesskit_node().label().unwrap_or_default().to_string())
        .collect();
    assert!(covered.is_empty(), "the error lies under {covered:?}");
    // Each of its rows is drawn: none is clipped away.
    let img = h.render().expect("a picture of the window");
    let band = rect.height() / rows;
    for i in 0..text.lines().count() {
        let top = rect.top() + band * i as f32;
        let line = egui::Rect::from_min_max(
            egui::pos2(rect.left(), top),
            egui::pos2(rect.right(), top + band),
        );
        let px = pixels(&img, line);
        let back = most_common(&px);
        let inked = px
            .iter()
            .filter(|(_, _, p)| (luminance(*p) - luminance(back)).abs() > 0.15)
            .count();
        assert!(inked > 0, "row {} of the error is not drawn: {text}", i + 1);
    }
}

#[test]
fn a_long_seat_spec_moved_the_buttons() {
    let mut h = started(app_with_gauls("greedy"));
    let new_game = h.get_by_label("New game").rect();
    let board = board_corners(&h);
    let field = h.get_by(|n| n.value().as_deref() == Some("greedy") && n.role() == Role::TextInput);
    field.focus();
    steps(&mut h, 1);
    #[expect(clippy::redundant_closure_for_method_calls)]
    h.get_by(|n| n.is_focused())
        .set_text_value_accesskit(LONG_SPEC);
    steps(&mut h, 3);
    assert!(
        h.state_mut().saved().play.seats[1].starts_with("ugi:"),
        "the spec is taken"
    );
    assert_eq!(h.get_by_label("New game").rect(), new_game);
    assert_eq!(board_corners(&h), board, "the panels keep their widths");
}

/// A bot spec longer than the seat field: an external engine with its
/// options.
pub const LONG_SPEC: &str =
    "ugi:/opt/engines/murus-engine-experimental/bin/engine --threads 4 --hash 256 --book none";
