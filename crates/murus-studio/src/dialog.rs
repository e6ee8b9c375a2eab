//! Questions that must be answered before work is lost or overwritten:
//! "discard the game in progress?", "replace the existing file?".
//!
//! A panel keeps an `Option<Confirm<A>>` where `A` is the action waiting
//! for the answer, and calls [`show`] every frame; the action comes back
//! when the user confirms it.

/// A question waiting for an answer, and the action it guards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confirm<A> {
    /// The heading ("Unsaved changes").
    pub title: String,
    /// What will be lost, in a sentence.
    pub text: String,
    /// The button that goes ahead ("Discard and switch").
    pub go: String,
    /// The button that keeps everything as it is ("Keep playing").
    pub keep: String,
    /// What happens on [`Confirm::go`].
    pub action: A,
}

impl<A> Confirm<A> {
    pub fn new(
        title: impl Into<String>,
        text: impl Into<String>,
        go: impl Into<String>,
        keep: impl Into<String>,
        action: A,
    ) -> Confirm<A> {
        Confirm {
            title: title.into(),
            text: text.into(),
            go: go.into(),
            keep: keep.into(),
            action,
        }
    }
}

/// What the user answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<A> {
    /// Go ahead with the action.
    Go(A),
    /// Keep things as they are (the question is closed).
    Keep,
}

/// Shows `pending` as a modal dialog, if any. Returns the answer in the
/// frame it is given, and closes the dialog then; Escape keeps.
pub fn show<A: Clone>(
    ctx: &egui::Context,
    id: &str,
    pending: &mut Option<Confirm<A>>,
) -> Option<Answer<A>> {
    let q = pending.as_ref()?;
    let mut answer = None;
    let modal = egui::Modal::new(egui::Id::unique(("confirm", id))).show(ctx, |ui| {
        ui.set_max_width(420.0);
        ui.heading(&q.title);
        ui.add(egui::Label::new(&q.text).wrap());
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            if ui.button(&q.go).clicked() {
                answer = Some(Answer::Go(q.action.clone()));
            }
            if ui.button(&q.keep).clicked() {
                answer = Some(Answer::Keep);
            }
        });
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(Answer::Keep);
    }
    if answer.is_some() {
        *pending = None;
    }
    answer
}
