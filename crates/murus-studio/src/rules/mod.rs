//! The Rules panel: a rule-file editor with line numbers and syntax
//! colouring, live compilation off the UI thread, diagnostics shown over
//! their spans and in a clickable list, a start-position preview, a quick
//! perft, "Play this variant" and "Train bot" (an evaluation learned for
//! the rules being edited, see [`crate::training`]).
//!
//! [`RulesModel`] (model.rs) holds the panel's state in owned parts, each
//! with its own worker where it has background work: [`RulesEditor`]
//! (editor.rs: the text, its file and its compilation), [`RulesShelf`]
//! (shelf.rs: the folders and the user's files), [`RulesPerft`] (perft.rs),
//! [`RulesSheet`] (sheet.rs: the rules sheet, written on a worker) and
//! [`Training`] (train.rs: "Train bot", its runs on the lab's job panel);
//! the model keeps the question
//! waiting for an answer, the message, and the actions that tie parts
//! together. None needs egui: tests drive them directly. compile.rs has the
//! jobs themselves (compiling, perft). [`RulesPanel`] (view.rs) draws the
//! model and turns clicks and keys into [`Action`]s, applied after the
//! frame; files to open or save are asked for with [`Command::Pick`].
//!
//! ```
//! use murus_studio::rules::{FileAction, RulesModel, RulesSaved};
//!
//! let mut rules = RulesModel::new(RulesSaved::default());
//! rules.request(FileAction::CopyBuiltin("hex".into()));
//! assert_eq!(rules.editor().title(), "untitled (copy of hex)");
//! rules.compile_now();
//! assert_eq!(rules.editor().compiled_variant().map(|v| v.name()), Some("hex"));
//! ```

mod compile;
mod editor;
mod model;
mod perft;
mod sheet;
mod shelf;
mod train;
mod view;

use murus_engine::Variant;

pub use compile::{CompileRequest, Compiled, DiagView, PerftRequest};
pub use editor::{DEBOUNCE_S, RulesEditor};
pub use model::{FileAction, RulesModel, RulesSaved};
pub use perft::{MAX_PERFT_DEPTH, RulesPerft};
pub use sheet::RulesSheet;
pub use shelf::RulesShelf;
pub use train::{Found, KeptTraining, TrainJob, Training};

use crate::dialog::Answer;
use crate::training::TrainSaved;
use crate::worker::Waker;
use crate::{Command, Then};

/// What the user asked for in the Rules panel, applied after the frame.
#[derive(Clone, Debug)]
pub enum Action {
    /// A file action (asks first when it would drop unsaved edits).
    File(FileAction),
    /// The answer to the question asked.
    Answer(Answer<FileAction>),
    /// Save the text to its file (Ctrl+S); an untitled text asks for one.
    Save,
    /// Save the text to a file chosen in a dialog.
    SaveAs,
    /// Open a file chosen in a dialog.
    OpenDialog,
    /// The text was edited at this time (seconds).
    Edited(f64),
    SetPerftDepth(u32),
    RunPerft,
    CancelPerft,
    /// New options for "Train bot".
    SetTrainSettings(TrainSaved),
    StartTraining,
    CancelTraining,
    /// Play the compiled variant.
    Play(Variant),
    /// Make the designer's report of the compiled variant (in the Lab).
    Report(Variant),
    /// Share the compiled variant for playtesting.
    Share(Variant),
    /// Write the rules sheet to a file chosen in a dialog.
    Sheet,
}

/// The Rules panel: the model, and the view's own state.
#[derive(Debug)]
pub struct RulesPanel {
    model: RulesModel,
    /// A byte to move the editor's cursor to (a clicked diagnostic).
    jump_to: Option<usize>,
}

impl RulesPanel {
    /// The panel of a saved state, its background work waking nobody.
    pub fn new(saved: RulesSaved) -> RulesPanel {
        RulesPanel::with_waker(saved, crate::worker::no_waker())
    }

    /// The panel of a saved state, its background work calling `waker`
    /// when it reports.
    pub fn with_waker(saved: RulesSaved, waker: Waker) -> RulesPanel {
        RulesPanel {
            model: RulesModel::with_waker(saved, waker),
            jump_to: None,
        }
    }

    /// The panel's state and actions.
    pub fn model(&self) -> &RulesModel {
        &self.model
    }

    /// The panel's state and actions, to change.
    pub fn model_mut(&mut self) -> &mut RulesModel {
        &mut self.model
    }

    /// Whether a compilation, perft, rules sheet or training is waiting
    /// or running.
    pub fn is_busy(&self) -> bool {
        self.model.editor().is_compiling()
            || self.model.perft().is_running()
            || self.model.sheet().is_running()
            || self.model.training().is_busy()
    }

    /// Collects what background work sent and starts the compilation due at
    /// `now` (seconds); returns how long until the UI should look again
    /// (a compilation waiting, a training run's progress).
    pub fn poll(&mut self, now: f64) -> Option<std::time::Duration> {
        let wait = self.model.poll(now).map(|w| w + 0.01);
        // The progress bar reads the training run's counters.
        let training = self.model.training().is_running().then_some(0.2);
        wait.into_iter()
            .chain(training)
            .reduce(f64::min)
            .map(std::time::Duration::from_secs_f64)
    }

    /// Does what the user asked for; files to pick become commands.
    pub fn apply(&mut self, action: Action, commands: &mut Vec<Command>) {
        let m = &mut self.model;
        match action {
            Action::File(a) => m.request(a),
            Action::Answer(a) => m.answer(a),
            Action::Save => {
                if let Some(request) = m.save() {
                    commands.push(Command::Pick {
                        request,
                        then: Then::SaveRules,
                    });
                }
            }
            Action::SaveAs => commands.push(Command::Pick {
                request: m.save_as_request(),
                then: Then::SaveRules,
            }),
            Action::Sheet => {
                // Checked first, so that no dialog opens for nothing.
                if let Some(request) = m.sheet_request() {
                    commands.push(Command::Pick {
                        request,
                        then: Then::RulesSheet,
                    });
                }
            }
            Action::OpenDialog => commands.push(Command::Pick {
                request: m.shelf().open_request(),
                then: Then::OpenRules,
            }),
            Action::Edited(now) => m.edited(now),
            Action::SetPerftDepth(d) => m.perft_mut().set_depth(d),
            Action::RunPerft => {
                // The button is shown only while none runs.
                let _ = m.start_perft();
            }
            Action::CancelPerft => m.perft_mut().cancel(),
            Action::SetTrainSettings(s) => *m.training_mut().settings_mut() = s,
            Action::StartTraining => m.start_training(),
            Action::CancelTraining => m.training_mut().cancel(),
            Action::Play(v) => commands.push(Command::PlayVariant(v)),
            Action::Report(v) => commands.push(Command::ReportVariant(v)),
            Action::Share(v) => commands.push(Command::Share(v)),
        }
    }
}
