//! The Rules panel under the layout harness.

use murus_engine::Variant;

use super::*;
use crate::training::{own_small_rules, tiny_training};

fn open() -> H {
    let mut h = harness(app(Tab::Rules));
    until(&mut h, 30, "the first compilation", |h| {
        shows(h, "No problems")
    });
    h
}

/// Replaces the rules text and waits for its compilation.
fn set_text(h: &mut H, text: &str, done: &'static str) {
    h.state_mut().rules.model_mut().set_text(text, 0.0);
    until(h, 30, done, |h| shows(h, done));
}

/// Issue 38: rules that stop compiling (diagnostics appear, the preview
/// has no board) moved the start position's buttons and Train bot's; the
/// rules sheet written on a worker says so in the message row, and a
/// training run shows its progress and its outcome, none of which may move
/// a button.
#[test]
fn the_rules_panels_buttons_keep_their_places_when_the_rules_stop_compiling() {
    check(Panel {
        name: "Rules",
        open,
        buttons: &[
            "Open…",
            "New",
            "Save",
            "Save as…",
            "Revert",
            "Rules sheet…",
            "Play this variant",
            "Report",
            "Run perft",
            "Cancel training",
        ],
        changes: vec![
            Change::new("the rules stop compiling", |h| {
                let broken = format!("{}\nnonsense here\n", Variant::standard().source());
                set_text(h, &broken, "error");
            }),
            Change::new("the rules compile again", |h| {
                set_text(h, Variant::standard().source(), "No problems");
            }),
            Change::new("a perft ran", |h| {
                h.state_mut().rules.model_mut().perft_mut().set_depth(3);
                click(h, "Run perft");
                until(h, 30, "perft 3", |h| shows(h, "perft 3:"));
            }),
            Change::new("a rules sheet is being written", |h| {
                let sheet = scratch_dir("layout-rules-sheet").join("standard-rules.html");
                h.state_mut().rules.model_mut().write_sheet(&sheet);
            }),
            Change::new("the rules sheet is written", |h| {
                until(h, 60, "the rules sheet", |h| {
                    shows(h, "rules sheet written")
                });
            }),
            Change::new("a training run starts", |h| {
                let text = own_small_rules("layout_rules_training");
                let dir = scratch_dir("layout-rules-training");
                let m = h.state_mut().rules.model_mut();
                m.set_text(text, 0.0);
                m.compile_now();
                tiny_training(m, &dir);
                m.start_training();
                assert!(m.training().is_running(), "the training run started");
            }),
            Change::new("the training run ends", |h| {
                until(h, 120, "the training outcome", |h| {
                    !h.state().rules.model().training().is_running()
                });
            }),
            Change::new("the rules stop compiling after a perft", |h| {
                set_text(h, "variant \"x\"\n", "error");
            }),
            Change::new("a file that is not there", |h| {
                let missing = scratch_dir("layout-rules").join("gone.mg");
                h.state_mut()
                    .rules
                    .model_mut()
                    .request(murus_studio::rules::FileAction::Open(missing));
            }),
        ],
    });
}
