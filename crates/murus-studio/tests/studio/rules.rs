//! The Rules panel.

use super::*;

#[test]
fn an_error_typed_into_the_rules_editor_is_listed_with_line_and_column() {
    let mut h = harness(app(Tab::Rules));
    steps(&mut h, 3);
    until(&mut h, 20, "the first compilation", |h| {
        h.query_by_label_contains("No problems").is_some()
    });
    h.get_by_label("New").click();
    steps(&mut h, 2);
    assert!(h.state().rules.saved.text.is_empty());

    let broken = "variant \"x\"\nboard rect 8 x 7\nplayer \"A\" {\n    letter 7\n}\n";
    let editor = h.get_by_label("Rule file");
    editor.focus();
    steps(&mut h, 1);
    h.get_by_label("Rule file").type_text(broken);
    steps(&mut h, 2);
    assert_eq!(
        h.state().rules.saved.text,
        broken,
        "the editor keeps what was typed"
    );

    let diags = murus_dsl::compile(broken).expect_err("the text is broken");
    let (line, col) = diags[0].line_col(broken);
    let expected = format!("{line}:{col}: error: {}", diags[0].message);
    until(&mut h, 20, "the diagnostic", |h| {
        h.query_by_label(&expected).is_some()
    });
    // Clicking the diagnostic jumps to it and leaves the text alone.
    h.get_by_label(&expected).click();
    steps(&mut h, 3);
    assert_eq!(h.state().rules.saved.text, broken);
    assert!(h.state().rules.is_dirty() || h.state().rules.saved.path.is_empty());
}

#[test]
fn play_this_variant_opens_the_edited_rules_in_play() {
    let mut h = harness(app(Tab::Rules));
    steps(&mut h, 2);
    h.state_mut().rules.load_builtin("hex");
    until(&mut h, 20, "the hex compilation", |h| {
        h.state()
            .rules
            .compiled_variant()
            .is_some_and(|v| v.name() == "hex")
    });
    h.get_by_label("Run perft").click();
    until(&mut h, 30, "perft", |h| {
        h.state().rules.perft_lines.len() >= 3
    });
    h.get_by_label("Play this variant").click();
    steps(&mut h, 3);
    assert_eq!(h.state().tab, Tab::Play);
    assert_eq!(h.state().play.model().variant().name(), "hex");
    // Hex cells are reachable by name too.
    let g = h.state().play.model().variant().geometry().clone();
    let first = h.state().play.model().game().legal_moves()[0];
    let from = g.name(first.origin().expect("a sowing"));
    let to = g.name(first.targets().next().expect("a target"));
    h.get_by_label(&format!("cell {from}")).click();
    steps(&mut h, 1);
    h.get_by_label(&format!("cell {to}")).click();
    steps(&mut h, 2);
    assert_eq!(h.state().play.model().game().ply(), 1);
}
