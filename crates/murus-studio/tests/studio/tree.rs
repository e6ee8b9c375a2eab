//! The move list as a tree: variations, promote, delete, the keys that
//! move through them, glyphs and comments, driven as a user would.

use egui::{Key, Modifiers};
use egui_kittest::kittest::NodeT;

use super::*;
use murus_studio::play::Replacement;

fn press(h: &mut Harness<'_, StudioApp>, key: Key) {
    h.key_press_modifiers(Modifiers::NONE, key);
    steps(h, 2);
}

fn is_current(h: &Harness<'_, StudioApp>, label: &str) -> bool {
    h.get_by_label(label).accesskit_node().toggled() == Some(egui::accesskit::Toggled::True)
}

/// The moves the board shows, as the saved state has them.
fn shown(h: &mut Harness<'_, StudioApp>) -> Vec<String> {
    h.state_mut().saved().play.moves
}

/// b1-b3 c7-c5 e1-e3, then back to ply 1 and d7-d5: a variation.
fn with_a_variation() -> Harness<'static, StudioApp> {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    click_move(&mut h, "b1", "b3");
    click_move(&mut h, "c7", "c5");
    click_move(&mut h, "e1", "e3");
    click(&mut h, "1. r b1-b3");
    click_move(&mut h, "d7", "d5");
    h
}

#[test]
fn a_different_move_from_an_earlier_ply_opens_a_variation_and_keeps_the_line() {
    let mut h = with_a_variation();
    assert_eq!(shown(&mut h), ["b1-b3", "d7-d5"]);
    assert!(is_current(&h, "(1... g d7-d5)"));
    // The main line is all there.
    for label in ["1. r b1-b3", "1... g c7-c5", "2. r e1-e3"] {
        assert!(shows_exactly(&h, label), "{label} was dropped");
    }
    click(&mut h, "2. r e1-e3");
    assert_eq!(shown(&mut h), ["b1-b3", "c7-c5", "e1-e3"]);
    // The tree survives a restart.
    let saved = h.state_mut().saved();
    let tree = saved.play.tree.expect("the tree is saved");
    assert_eq!(tree.moves.len(), 3);
    assert_eq!(tree.moves[1].variations[0][0].text, "d7-d5");
}

#[test]
fn up_and_down_go_to_the_other_moves_at_this_ply_and_left_right_along_the_line() {
    let mut h = with_a_variation();
    press(&mut h, Key::ArrowUp);
    assert!(is_current(&h, "1... g c7-c5"));
    press(&mut h, Key::ArrowRight);
    assert_eq!(shown(&mut h), ["b1-b3", "c7-c5", "e1-e3"]);
    press(&mut h, Key::ArrowLeft);
    press(&mut h, Key::ArrowDown);
    assert!(is_current(&h, "(1... g d7-d5)"));
    press(&mut h, Key::ArrowDown);
    assert!(
        is_current(&h, "(1... g d7-d5)"),
        "no variation after the last"
    );
    press(&mut h, Key::ArrowLeft);
    assert_eq!(shown(&mut h), ["b1-b3"]);
}

#[test]
fn promote_makes_the_variation_the_main_line_and_delete_drops_it() {
    let mut h = with_a_variation();
    click(&mut h, "Promote");
    assert!(shows_exactly(&h, "1... g d7-d5"), "now on the main line");
    assert!(
        shows_exactly(&h, "(1... g c7-c5"),
        "the old main move is the variation"
    );
    assert!(shows_exactly(&h, "2. r e1-e3)"), "with its moves");
    let tree = h.state_mut().saved().play.tree.unwrap();
    assert_eq!(tree.moves[1].text, "d7-d5");
    // Delete the move shown: back to the move before it.
    click(&mut h, "Delete");
    assert_eq!(shown(&mut h), ["b1-b3"]);
    assert!(!shows_exactly(&h, "1... g d7-d5"));
    assert!(shows_exactly(&h, "1... g c7-c5"), "the other line stays");
    assert!(shows_exactly(&h, "2. r e1-e3"));
    // A variation's moves count as unsaved work until deleted.
    click(&mut h, "1... g c7-c5");
    click_move(&mut h, "h1", "h3");
    assert!(shows_exactly(&h, "(2. r h1-h3)"));
}

#[test]
fn a_glyph_and_a_comment_show_in_the_list_and_are_saved() {
    let mut h = with_a_variation();
    click(&mut h, "!?");
    assert!(is_current(&h, "(1... g d7-d5 !?)"));
    let field = h.get_by(|n| n.placeholder() == Some("comment on the move shown"));
    field.focus();
    steps(&mut h, 1);
    #[expect(clippy::redundant_closure_for_method_calls)]
    h.get_by(|n| n.is_focused()).type_text("holds the centre");
    steps(&mut h, 2);
    assert!(
        shows_exactly(&h, "holds the centre"),
        "the comment shows in the list"
    );
    // Another glyph replaces it; the same one again removes it.
    click(&mut h, "??");
    assert!(shows_exactly(&h, "(1... g d7-d5 ??)"));
    click(&mut h, "??");
    assert!(shows_exactly(&h, "(1... g d7-d5)"));
    click(&mut h, "?!");
    let tree = h.state_mut().saved().play.tree.unwrap();
    let m = &tree.moves[1].variations[0][0];
    assert_eq!(m.glyph, Some(murus_engine::Glyph::Dubious));
    assert_eq!(m.comment.as_deref(), Some("holds the centre"));
    // Another move shows its own (empty) comment.
    click(&mut h, "1. r b1-b3");
    let field = h.get_by(|n| n.placeholder() == Some("comment on the move shown"));
    assert_eq!(field.value().unwrap_or_default(), "");
}

// --- Records ---------------------------------------------------------------

pub fn magazine() -> String {
    std::fs::read_to_string(root().join("crates/murus-engine/tests/data/records/magazine.txt"))
        .unwrap()
}

/// Types `text` into the record field (found by its hint).
pub fn fill_record_field(h: &mut Harness<'_, StudioApp>, text: &str) {
    let field = h.get_by(|n| n.placeholder() == Some("paste a record, or a game as printed, here"));
    field.focus();
    steps(h, 1);
    #[expect(clippy::redundant_closure_for_method_calls)]
    h.get_by(|n| n.is_focused()).type_text(text);
    steps(h, 2);
}

#[test]
fn paste_game_text_reads_a_game_as_printed_with_its_comments_and_the_resignation() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    fill_record_field(&mut h, &magazine());
    click(&mut h, "Paste game text");
    assert_eq!(shown(&mut h).len(), 34);
    assert!(
        h.query_all_by_label_contains("Gauls won by resignation")
            .next()
            .is_some(),
        "the result is said"
    );
    // The comments are on their moves, the glyphs in the list.
    assert!(shows_exactly(&h, "3... g b7-d5 !?"));
    assert!(h.query_by_label_contains("race for the centre").is_some());
    assert!(shows_exactly(&h, "17. r c4-e4 ??"));
    // Saved as a record, the resignation is kept.
    let record = h.state().play.model().game().record();
    assert_eq!(record.result.unwrap().reason, "resignation");
    // A misprint is an error at its line and column; the game stays.
    let mut h2 = harness(app(Tab::Play));
    steps(&mut h2, 2);
    fill_record_field(&mut h2, "1. h1-h3, d7-f5 2. f1-d3, a7-a9");
    click(&mut h2, "Paste game text");
    assert!(shown(&mut h2).is_empty());
    assert!(
        h2.query_all_by_label_contains("the game text:1:")
            .next()
            .is_some(),
        "an error at its line and column"
    );
}

#[test]
fn a_record_saves_with_its_variations_and_notes_and_opens_again() {
    let dir = scratch_dir("tree-record");
    let file = dir.join("game.mgn");
    let (picker, _) = picker(vec![
        murus_studio::files::Picked::Path(file.clone()),
        murus_studio::files::Picked::Path(file.clone()),
    ]);
    let mut h = with_a_variation();
    h.state_mut().set_picker(picker);
    click(&mut h, "!?");
    click(&mut h, "Save record…");
    answered(&mut h);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("[Variant \"standard\"]") && text.contains("(1... d7-d5!?)"),
        "{text}"
    );
    click(&mut h, "New game");
    assert!(shown(&mut h).is_empty(), "saved: a new game asks nothing");
    click(&mut h, "Open record…");
    answered(&mut h);
    assert_eq!(shown(&mut h), ["b1-b3", "c7-c5", "e1-e3"]);
    assert!(
        shows_exactly(&h, "(1... g d7-d5 !?)"),
        "the variation and its glyph are back"
    );
}

#[test]
fn a_record_of_a_custom_variant_embeds_its_rules_and_opens_it_anywhere() {
    let source = std::fs::read_to_string(root().join("variants/small.mg"))
        .unwrap()
        .replace("variant \"small\"", "variant \"my-small\"");
    let custom = murus_engine::Variant::compile(&source).unwrap();
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    h.state_mut()
        .play
        .model_mut()
        .open(|_| Ok(Replacement::switch(custom)));
    steps(&mut h, 2);
    click_move(&mut h, "b1", "b3");
    let text = h.state().play.model().game().record_text();
    assert!(
        text.contains("%rules") && text.contains("my-small"),
        "{text}"
    );
    // A fresh studio playing the standard game opens it.
    let mut other = harness(app(Tab::Play));
    steps(&mut other, 2);
    other
        .state_mut()
        .play
        .model_mut()
        .open(|v| Replacement::record(v, &text));
    steps(&mut other, 2);
    assert_eq!(
        other.state().play.model().game().cursor().variant().name(),
        "my-small"
    );
    assert_eq!(shown(&mut other), ["b1-b3"]);
}

// --- Issue 38: the move tree's undo history, numbers and brackets -----------

fn press_with(h: &mut Harness<'_, StudioApp>, modifiers: Modifiers, key: Key) {
    h.key_press_modifiers(modifiers, key);
    steps(h, 2);
}

/// Whether the move list has a row whose label contains `text`.
fn listed(h: &Harness<'_, StudioApp>, text: &str) -> bool {
    h.query_by_label_contains(text).is_some()
}

fn enabled(h: &Harness<'_, StudioApp>, label: &str) -> bool {
    !h.get_by_label(label).accesskit_node().is_disabled()
}

#[test]
fn delete_on_a_main_line_move_dropped_the_rest_of_the_game_with_no_undo() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    assert!(
        !enabled(&h, "Undo") && !enabled(&h, "Redo"),
        "nothing to undo"
    );
    let mut h = with_a_variation();
    h.get_by_label_contains("c7-c5").click();
    steps(&mut h, 2);
    click(&mut h, "Delete");
    assert!(!listed(&h, "e1-e3"), "the rest of the main line went");
    assert!(enabled(&h, "Undo"));
    press_with(&mut h, Modifiers::COMMAND, Key::Z);
    assert!(listed(&h, "e1-e3"), "Ctrl+Z brings the deleted moves back");
    assert_eq!(
        shown(&mut h),
        ["b1-b3", "c7-c5"],
        "and shows the move again"
    );
    press_with(&mut h, Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    assert!(!listed(&h, "e1-e3"), "Ctrl+Shift+Z deletes them again");
    click(&mut h, "Undo");
    assert!(listed(&h, "e1-e3"), "so does the Undo button");
    assert!(enabled(&h, "Redo"));
    press_with(&mut h, Modifiers::COMMAND, Key::Y);
    assert!(!listed(&h, "e1-e3"), "Ctrl+Y redoes");
    click(&mut h, "Undo");
    assert!(listed(&h, "e1-e3"));
}

#[test]
fn glyphs_comments_and_promotions_could_not_be_undone() {
    let mut h = with_a_variation();
    let tree = |h: &mut Harness<'_, StudioApp>| h.state_mut().saved().play.tree.unwrap();
    click(&mut h, "!?");
    assert!(listed(&h, "d7-d5 !?"));
    press_with(&mut h, Modifiers::COMMAND, Key::Z);
    assert!(!listed(&h, "d7-d5 !?"), "the glyph is undone");
    press_with(&mut h, Modifiers::COMMAND, Key::Y);
    assert!(listed(&h, "d7-d5 !?"), "and redone");
    // A run of typing in the comment field is one step.
    let field = h.get_by(|n| n.placeholder() == Some("comment on the move shown"));
    field.focus();
    steps(&mut h, 1);
    #[expect(clippy::redundant_closure_for_method_calls)]
    h.get_by(|n| n.is_focused()).type_text("holds the centre");
    steps(&mut h, 2);
    click(&mut h, "Promote");
    assert_eq!(tree(&mut h).moves[1].text, "d7-d5");
    click(&mut h, "Undo");
    assert_eq!(
        tree(&mut h).moves[1].text,
        "c7-c5",
        "the promotion is undone"
    );
    click(&mut h, "Undo");
    let t = tree(&mut h);
    assert_eq!(t.moves[1].variations[0][0].comment, None, "the comment");
    assert_eq!(
        t.moves[1].variations[0][0].glyph,
        Some(murus_engine::Glyph::Interesting)
    );
    click(&mut h, "Undo");
    assert_eq!(tree(&mut h).moves[1].variations[0][0].glyph, None);
}

#[test]
fn the_move_trees_undo_history_was_lost_on_a_restart() {
    let mut h = with_a_variation();
    h.get_by_label_contains("c7-c5").click();
    steps(&mut h, 2);
    click(&mut h, "Delete");
    let saved = h.state_mut().saved();
    let mut h = harness(StudioApp::from_saved(saved));
    steps(&mut h, 2);
    assert!(!listed(&h, "e1-e3"));
    click(&mut h, "Undo");
    assert!(
        listed(&h, "e1-e3"),
        "the deletion is undone after a restart"
    );
    assert_eq!(shown(&mut h), ["b1-b3", "c7-c5"]);
    click(&mut h, "Redo");
    assert!(!listed(&h, "e1-e3"));
}

#[test]
fn the_move_list_numbered_plies_unlike_the_record_and_left_variations_open() {
    let mut h = with_a_variation();
    click_move(&mut h, "a1", "a3");
    // As the record numbers them: the second player's move is `1...`; each
    // variation closes after its last move.
    for label in [
        "1. r b1-b3",
        "1... g c7-c5",
        "(1... g d7-d5",
        "2. r a1-a3)",
        "2. r e1-e3",
    ] {
        assert!(shows_exactly(&h, label), "no row {label:?}");
    }
    let record = h.state().play.model().game().record_text();
    assert!(
        record.contains("1. b1-b3 c7-c5 (1... d7-d5 2. a1-a3) 2. e1-e3"),
        "{record}"
    );
    // A variation of a variation closes both.
    click(&mut h, "(1... g d7-d5");
    click_move(&mut h, "h1", "h3");
    assert!(shows_exactly(&h, "(2. r h1-h3))"), "both brackets close");
}
