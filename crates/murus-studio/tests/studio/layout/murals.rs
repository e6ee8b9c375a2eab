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
                h.state_mut()
                    .murals
                    .model_mut()
                    .start(murus_studio::murals::Task::Solve);
            }),
            Change::new("a solve ends", |h| {
                until(h, 60, "the solution", |h| {
                    h.state()
                        .murals
                        .model()
                        .play()
                        .player()
                        .solution()
                        .is_some()
                        && !h.state().murals.model().tasks().is_busy()
                });
            }),
            Change::new("a count ends", |h| {
                h.state_mut()
                    .murals
                    .model_mut()
                    .start(murus_studio::murals::Task::Count);
                until(h, 60, "the count", |h| {
                    h.state().murals.model().tasks().counted().is_some()
                });
            }),
            Change::new("the text stops reading (problems listed)", |h| {
                h.state_mut()
                    .murals
                    .model_mut()
                    .edit(murus_studio::murals::Edit::Replace(
                        "title = \"x\"\nboard = \"5x\"\n".into(),
                    ));
            }),
            Change::new("the text reads again", |h| {
                h.state_mut()
                    .murals
                    .model_mut()
                    .edit(murus_studio::murals::Edit::Undo);
            }),
            Change::new("a long message", |h| {
                let long = scratch_dir("layout-murals").join(format!("{}.toml", "long".repeat(60)));
                h.state_mut()
                    .murals
                    .model_mut()
                    .request(murus_studio::murals::Pending::Open(long.clone()));
            }),
            Change::new("an unsolvable mural's proof", |h| {
                h.state_mut().murals.model_mut().edit(murus_studio::murals::Edit::Replace("title = \"Full\"\nboard = \"4x1\"\nstart = \"r2r22\"\ntargets = [\"a1\", \"b1\", \"c1\", \"d1\"]\n".into()));
                h.state_mut()
                    .murals
                    .model_mut()
                    .start(murus_studio::murals::Task::Solve);
                until(h, 60, "the proof", |h| shows(h, "unsolvable"));
            }),
        ],
    });
}
