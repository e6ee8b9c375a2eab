//! The row of buttons that starts, stops and resumes a lab job, the same in
//! every mode: each button always shown in its own place, enabled when it
//! applies, so that no button changes role under the pointer (issue 38: a
//! click meant for Cancel started a run when Cancel turned into Run in the
//! same place).

use egui::Ui;

/// The buttons of one kind of job, and what applies now.
pub(crate) struct JobButtons<'a> {
    /// The start button's label: `Run`, `Run balance check`, `Make report`.
    pub start: &'a str,
    /// What a start does, on hover.
    pub start_hover: &'a str,
    /// The cancel button's label.
    pub cancel: &'a str,
    /// The resume button's label and what it resumes, on hover; `None`
    /// where the job cannot be resumed.
    pub resume: Option<(&'a str, &'a str)>,
    /// Whether this job is going on.
    pub running: bool,
    /// Whether it was asked to stop and has not stopped yet.
    pub cancelling: bool,
    /// Whether the job shown can go on.
    pub resumable: bool,
    /// Why nothing can start now (lab work going on), if so.
    pub busy: Option<String>,
    /// Cancel before the start: where the start's label changes with the
    /// state ("Resume training (1 200 positions so far)"), so that Cancel
    /// keeps its place all the same.
    pub cancel_first: bool,
}

/// Which button was clicked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pressed {
    Start,
    Cancel,
    Resume,
}

impl JobButtons<'_> {
    /// Draws the row: start, cancel and resume (where there is one), each
    /// in the place it always has; the button clicked, if any.
    pub(crate) fn show(&self, ui: &mut Ui) -> Option<Pressed> {
        let mut pressed = None;
        // Wrapped at the panel's edge rather than widening the panel.
        ui.horizontal_wrapped(|ui| {
            if self.cancel_first {
                self.cancel_button(ui, &mut pressed);
                self.start_button(ui, &mut pressed);
            } else {
                self.start_button(ui, &mut pressed);
                self.cancel_button(ui, &mut pressed);
            }
            if let Some((label, hover)) = self.resume {
                let can_resume = self.resumable && self.busy.is_none();
                let resume = ui
                    .add_enabled(can_resume, egui::Button::new(label))
                    .on_hover_text(hover);
                let resume = match &self.busy {
                    Some(b) => resume.on_disabled_hover_text(b),
                    None => resume.on_disabled_hover_text("the one shown has nothing left to play"),
                };
                if resume.clicked() {
                    pressed = Some(Pressed::Resume);
                }
            }
        });
        pressed
    }

    fn start_button(&self, ui: &mut Ui, pressed: &mut Option<Pressed>) {
        let start = ui.add_enabled(self.busy.is_none(), egui::Button::new(self.start));
        let start = match &self.busy {
            Some(b) => start.on_disabled_hover_text(b),
            None if !self.start_hover.is_empty() => start.on_hover_text(self.start_hover),
            None => start,
        };
        if start.clicked() {
            *pressed = Some(Pressed::Start);
        }
    }

    fn cancel_button(&self, ui: &mut Ui, pressed: &mut Option<Pressed>) {
        let can_cancel = self.running && !self.cancelling;
        let cancel = ui
            .add_enabled(can_cancel, egui::Button::new(self.cancel))
            .on_hover_text("stops it; what it finished is kept, and it can be resumed")
            .on_disabled_hover_text(if self.cancelling {
                "stopping after the work under way"
            } else {
                "nothing of this kind is going on"
            });
        if cancel.clicked() {
            *pressed = Some(Pressed::Cancel);
        }
    }
}
