//! The Play panel under the layout harness.

use egui::{Key, Modifiers};

use super::*;
use crate::play_defects::LONG_SPEC;
use crate::tree::magazine;

fn open() -> H {
    harness(app(Tab::Play))
}

/// Types `spec` into the Gauls' seat field.
fn gauls_seat(h: &mut H, spec: &str) {
    let field = h
        .query_all(egui_kittest::kittest::by().label("Gauls"))
        .find(|n| n.accesskit_node().role() == egui::accesskit::Role::TextInput)
        .expect("the Gauls' seat field");
    field.focus();
    steps(h, 1);
    #[expect(clippy::redundant_closure_for_method_calls)]
    h.get_by(|n| n.is_focused()).set_text_value_accesskit(spec);
    steps(h, 2);
    // Out of the field, so that the keys reach the game.
    click(h, "cell d4");
}

/// Puts `text` in the record field, replacing what it held.
fn record_field(h: &mut H, text: &str) {
    // The second text area (the first is the position's).
    h.get_all_by_role(egui::accesskit::Role::MultilineTextInput)
        .nth(1)
        .expect("the record field")
        .set_text_value_accesskit(text);
    steps(h, 2);
}

#[test]
fn the_play_panels_buttons_keep_their_places() {
    check(Panel {
        name: "Play",
        open,
        buttons: &[
            "New game",
            "Flip board",
            "Play move",
            "Undo",
            "Redo",
            "Promote",
            "Delete",
            "Copy position",
            "Load record text",
            "Paste game text",
            "Export diagram…",
            "Export GIF…",
        ],
        changes: vec![
            Change::new("a move", |h| click_move(h, "b1", "b3")),
            Change::new("a reply", |h| click_move(h, "c7", "c5")),
            Change::new("undo", |h| {
                h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
            }),
            Change::new("redo", |h| {
                h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
            }),
            Change::new("a long seat spec", |h| gauls_seat(h, LONG_SPEC)),
            Change::new("a seat spec that does not parse", |h| {
                gauls_seat(h, "alphabeta:lots and lots of nodes, as many as it takes");
            }),
            Change::new("a human seat again", |h| gauls_seat(h, "human")),
            Change::new("a paste error", |h| {
                record_field(h, "1. h1-h3, d7-f5 2. f1-d3, a7-a9");
                click(h, "Paste game text");
            }),
            Change::new("game over by resignation", |h| {
                record_field(h, &magazine());
                click(h, "Paste game text");
                steps(h, 2);
                if h.query_by_label("Discard and open").is_some() {
                    click(h, "Discard and open");
                }
            }),
            Change::new("the result dropped by a delete", |h| click(h, "Delete")),
            Change::new("the result back by undo", |h| click(h, "Undo")),
        ],
    });
}
