//! The Murals panel under the layout harness.

use super::*;

fn open() -> H {
    harness(app(Tab::Murals))
}

#[test]
fn the_murals_panels_buttons_keep_their_places() {
    check(Panel {
        name: "Murals",
        open,
        buttons: &[
            "Open…",
            "Paint stacks",
            "Toggle targets",
            "Undo edit",
            "Redo edit",
            "Solve",
            "Count solutions",
            "Play by hand",
            "Save puzzle",
            "Save puzzle as…",
            "Generate",
        ],
        changes: vec![
            Change::new("a solve starts", |h| {
                h.state_mut().murals.model_mut().start_solve();
            }),
            Change::new("a solve ends", |h| {
                until(h, 60, "the solution", |h| {
                    h.state().murals.model().solution().is_some()
                        && !h.state().murals.model().is_busy()
                });
            }),
            Change::new("a count ends", |h| {
                h.state_mut().murals.model_mut().start_count();
                until(h, 60, "the count", |h| {
                    h.state().murals.model().count().is_some()
                });
            }),
            Change::new("the text stops reading (problems listed)", |h| {
                h.state_mut()
                    .murals
                    .model_mut()
                    .replace_text("title = \"x\"\nboard = \"5x\"\n");
            }),
            Change::new("the text reads again", |h| {
                h.state_mut().murals.model_mut().undo_edit();
            }),
            Change::new("a long message", |h| {
                let long = scratch_dir("layout-murals").join(format!("{}.toml", "long".repeat(60)));
                h.state_mut().murals.model_mut().request_open(&long);
            }),
            Change::new("an unsolvable mural's proof", |h| {
                h.state_mut().murals.model_mut().replace_text(
                    "title = \"Full\"\nboard = \"4x1\"\nstart = \"r2r22\"\ntargets = [\"a1\", \"b1\", \"c1\", \"d1\"]\n",
                );
                h.state_mut().murals.model_mut().start_solve();
                until(h, 60, "the proof", |h| shows(h, "unsolvable"));
            }),
        ],
    });
}
