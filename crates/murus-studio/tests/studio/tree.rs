//! The move list as a tree: variations, promote, delete, the keys that
//! move through them, glyphs and comments, driven as a user would.

use egui::{Key, Modifiers};
use egui_kittest::kittest::NodeT;

use super::*;

fn click(h: &mut Harness<'_, StudioApp>, label: &str) {
    h.get_by_label(label).click();
    steps(h, 2);
}

fn click_move(h: &mut Harness<'_, StudioApp>, from: &str, to: &str) {
    click(h, &format!("cell {from}"));
    click(h, &format!("cell {to}"));
}

fn press(h: &mut Harness<'_, StudioApp>, key: Key) {
    h.key_press_modifiers(Modifiers::NONE, key);
    steps(h, 2);
}

fn shows(h: &Harness<'_, StudioApp>, label: &str) -> bool {
    h.query_by_label(label).is_some()
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
    assert!(is_current(&h, "(2. g d7-d5"));
    // The main line is all there.
    for label in ["1. r b1-b3", "2. g c7-c5", "3. r e1-e3"] {
        assert!(shows(&h, label), "{label} was dropped");
    }
    click(&mut h, "3. r e1-e3");
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
    assert!(is_current(&h, "2. g c7-c5"));
    press(&mut h, Key::ArrowRight);
    assert_eq!(shown(&mut h), ["b1-b3", "c7-c5", "e1-e3"]);
    press(&mut h, Key::ArrowLeft);
    press(&mut h, Key::ArrowDown);
    assert!(is_current(&h, "(2. g d7-d5"));
    press(&mut h, Key::ArrowDown);
    assert!(is_current(&h, "(2. g d7-d5"), "no variation after the last");
    press(&mut h, Key::ArrowLeft);
    assert_eq!(shown(&mut h), ["b1-b3"]);
}

#[test]
fn promote_makes_the_variation_the_main_line_and_delete_drops_it() {
    let mut h = with_a_variation();
    click(&mut h, "Promote");
    assert!(shows(&h, "2. g d7-d5"), "now on the main line");
    assert!(
        shows(&h, "(2. g c7-c5"),
        "the old main move is the variation"
    );
    assert!(shows(&h, "3. r e1-e3"), "with its moves");
    let tree = h.state_mut().saved().play.tree.unwrap();
    assert_eq!(tree.moves[1].text, "d7-d5");
    // Delete the move shown: back to the move before it.
    click(&mut h, "Delete");
    assert_eq!(shown(&mut h), ["b1-b3"]);
    assert!(!shows(&h, "2. g d7-d5"));
    assert!(shows(&h, "2. g c7-c5"), "the other line stays");
    assert!(shows(&h, "3. r e1-e3"));
    // A variation's moves count as unsaved work until deleted.
    click(&mut h, "2. g c7-c5");
    click_move(&mut h, "h1", "h3");
    assert!(shows(&h, "(3. r h1-h3"));
}

#[test]
fn a_glyph_and_a_comment_show_in_the_list_and_are_saved() {
    let mut h = with_a_variation();
    click(&mut h, "!?");
    assert!(is_current(&h, "(2. g d7-d5 !?"));
    let field = h.get_by(|n| n.placeholder() == Some("comment on the move shown"));
    field.focus();
    steps(&mut h, 1);
    #[expect(clippy::redundant_closure_for_method_calls)]
    h.get_by(|n| n.is_focused()).type_text("holds the centre");
    steps(&mut h, 2);
    assert!(
        shows(&h, "holds the centre"),
        "the comment shows in the list"
    );
    // Another glyph replaces it; the same one again removes it.
    click(&mut h, "??");
    assert!(shows(&h, "(2. g d7-d5 ??"));
    click(&mut h, "??");
    assert!(shows(&h, "(2. g d7-d5"));
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
