//! The Rules panel's state, without egui: its owned parts (the text and
//! its compilation, the folders, perft, the rules sheet, "Train bot"), the
//! question waiting for an answer and the message, and the actions that
//! need more than one part.

use std::path::{Path, PathBuf};

use murus_engine::Variant;
use serde::{Deserialize, Serialize};

use super::editor::RulesEditor;
use super::perft::RulesPerft;
use super::sheet::{RulesSheet, SheetError};
use super::shelf::RulesShelf;
use super::train::Training;
use crate::Feedback;
use crate::dialog::{Answer, Confirm};
use crate::files::{self, PickRequest};
use crate::places::Places;
use crate::training::TrainSaved;
use crate::worker::{Busy, Waker, no_waker};

/// What Rules keeps across restarts: the text itself, so unsaved work
/// survives a restart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RulesSaved {
    pub text: String,
    /// The file the text belongs to (empty: untitled, not saved yet).
    pub path: String,
    /// The text as last read from or written to `path` (for an untitled
    /// copy of a built-in: the built-in's text).
    pub disk_text: String,
    pub perft_depth: u32,
    /// The built-in an untitled text was copied from (empty: none).
    pub copy_of: String,
    /// "Train bot"'s options.
    pub train: TrainSaved,
    /// The folder last opened from or saved to (empty: the data folder's
    /// `variants`).
    pub dir: String,
}

impl Default for RulesSaved {
    fn default() -> Self {
        // The shipped standard game, as a copy: it is read-only, and the
        // studio may run from any folder (no `variants/` beside it).
        let standard = Variant::standard();
        let text = standard.source().to_string();
        RulesSaved {
            disk_text: text.clone(),
            text,
            path: String::new(),
            perft_depth: 3,
            copy_of: standard.name().to_string(),
            train: TrainSaved::default(),
            dir: String::new(),
        }
    }
}

/// An action on the panel's file that may need a question answered first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileAction {
    /// Open a rule file.
    Open(PathBuf),
    /// Start an untitled copy of a built-in variant.
    CopyBuiltin(String),
    /// Start an empty untitled file.
    New,
    /// Read the file back from disk, dropping the edits.
    Revert,
}

/// The Rules panel's state and actions, without egui: each part owns its
/// state ([`RulesEditor`], [`RulesShelf`], [`RulesPerft`], [`RulesSheet`],
/// [`Training`]); the model keeps what ties them together.
#[derive(Debug)]
pub struct RulesModel {
    editor: RulesEditor,
    shelf: RulesShelf,
    perft: RulesPerft,
    sheet: RulesSheet,
    training: Training,
    question: Option<Confirm<FileAction>>,
    feedback: Feedback,
}

impl RulesModel {
    /// The model of a restored panel, opening files from the user's data
    /// folder and the folder last used, its background work waking nobody
    /// (tests drive it).
    pub fn new(saved: RulesSaved) -> RulesModel {
        RulesModel::with_waker(saved, no_waker())
    }

    /// The model of a restored panel whose background work calls `waker`
    /// when it reports.
    pub fn with_waker(saved: RulesSaved, waker: Waker) -> RulesModel {
        let RulesSaved {
            text,
            path,
            disk_text,
            perft_depth,
            copy_of,
            train,
            dir,
        } = saved;
        RulesModel {
            editor: RulesEditor::new(text, path, disk_text, copy_of, waker.clone()),
            shelf: RulesShelf::new(Places::user(), &dir),
            perft: RulesPerft::new(perft_depth, waker.clone()),
            sheet: RulesSheet::new(waker.clone()),
            training: Training::with_waker(train, waker),
            question: None,
            feedback: Feedback::default(),
        }
    }

    /// Everything to persist.
    pub fn saved(&self) -> RulesSaved {
        let [text, path, disk_text, copy_of] = self.editor.to_saved();
        RulesSaved {
            text,
            path,
            disk_text,
            perft_depth: self.perft.depth(),
            copy_of,
            train: self.training.settings().clone(),
            dir: self.shelf.saved_dir().to_string(),
        }
    }

    /// The text, its file and its compilation.
    pub fn editor(&self) -> &RulesEditor {
        &self.editor
    }

    /// The folders files are opened from and saved to, and the user's
    /// files.
    pub fn shelf(&self) -> &RulesShelf {
        &self.shelf
    }

    /// The folders, to change.
    pub fn shelf_mut(&mut self) -> &mut RulesShelf {
        &mut self.shelf
    }

    /// The quick perft.
    pub fn perft(&self) -> &RulesPerft {
        &self.perft
    }

    /// The quick perft, to change (its depth, Cancel).
    pub fn perft_mut(&mut self) -> &mut RulesPerft {
        &mut self.perft
    }

    /// The rules sheet being written, if any.
    pub fn sheet(&self) -> &RulesSheet {
        &self.sheet
    }

    /// "Train bot": its options, the run, its outcome and what the data
    /// folder holds.
    pub fn training(&self) -> &Training {
        &self.training
    }

    /// "Train bot", to change (its options, [`Training::tuning`], Cancel).
    pub fn training_mut(&mut self) -> &mut Training {
        &mut self.training
    }

    /// The message about the current state, if any.
    pub fn feedback(&self) -> &Feedback {
        &self.feedback
    }

    /// The question waiting for an answer, if any.
    pub fn question(&self) -> Option<&Confirm<FileAction>> {
        self.question.as_ref()
    }

    /// Replaces the text, as typing would, at `now` (seconds).
    pub fn set_text(&mut self, text: impl Into<String>, now: f64) {
        *self.editor.text_mut() = text.into();
        self.edited(now);
    }

    /// The text and its compilation, to change: the editor widget's text
    /// (call [`RulesModel::edited`] after changing it), compilations run by
    /// hand (tests).
    pub fn editor_mut(&mut self) -> &mut RulesEditor {
        &mut self.editor
    }

    /// Notes an edit of the text at `now` (seconds): compilation follows
    /// after [`super::DEBOUNCE_S`] of quiet, and messages about the old
    /// text go.
    pub fn edited(&mut self, now: f64) {
        self.editor.edited(now);
        self.feedback.changed();
    }

    /// Compiles the current text now, on this thread.
    pub fn compile_now(&mut self) {
        self.editor.compile_now();
        self.perft.poll(self.editor.compiled_variant());
    }

    /// Asks for `action`: done at once, or after a question when it would
    /// drop unsaved edits.
    pub fn request(&mut self, action: FileAction) {
        // A file that cannot be opened fails first: asking to discard the
        // edits for nothing would lose them to no purpose.
        if let FileAction::Open(path) = &action
            && let Err(e) = std::fs::metadata(path)
        {
            self.feedback
                .error(format!("{}: {e}", files::absolute(path).display()));
            return;
        }
        if self.editor.is_dirty() {
            self.question = Some(Confirm::new(
                "Unsaved changes",
                format!(
                    "{} has changes that are not saved. Discard them?",
                    self.editor.title()
                ),
                "Discard changes",
                "Keep editing",
                action,
            ));
        } else {
            self.run(action);
        }
    }

    /// Takes the answer to [`RulesModel::question`].
    pub fn answer(&mut self, answer: Answer<FileAction>) {
        self.question = None;
        if let Answer::Go(action) = answer {
            self.run(action);
        }
    }

    fn run(&mut self, action: FileAction) {
        match action {
            FileAction::Open(path) => self.open(&path),
            FileAction::CopyBuiltin(name) => {
                match murus_engine::BUILTIN.iter().find(|(n, _)| *n == name) {
                    Some((n, src)) => {
                        self.editor.untitled(src.to_string(), n.to_string());
                        self.feedback.changed();
                    }
                    None => self.feedback.error(format!("no built-in variant `{name}`")),
                }
            }
            FileAction::New => {
                self.editor.untitled(String::new(), String::new());
                self.feedback.changed();
            }
            FileAction::Revert => match self.editor.path().map(Path::to_path_buf) {
                Some(p) => self.open(&p),
                None => {
                    self.editor.revert_untitled();
                    self.feedback.changed();
                }
            },
        }
    }

    fn open(&mut self, path: &Path) {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                self.editor.opened(text, path);
                self.feedback.changed();
                self.shelf.used(path);
                self.feedback
                    .info(format!("opened {}", files::absolute(path).display()));
            }
            Err(e) => self.feedback.error(format!("{}: {e}", path.display())),
        }
    }

    /// Saves the text to its file. An untitled text has none yet: the
    /// dialog that asks for one comes back (hand its path to
    /// [`RulesModel::save_to`]).
    pub fn save(&mut self) -> Option<PickRequest> {
        match self.editor.path().map(Path::to_path_buf) {
            Some(p) => {
                self.save_to(&p);
                None
            }
            None => Some(self.save_as_request()),
        }
    }

    /// The "Save as" dialog: in the file's folder (or the shelf's),
    /// proposing its name (or the built-in's it copies).
    pub fn save_as_request(&self) -> PickRequest {
        let request = PickRequest::save("Save the rules as", "Rules", &["mg"]);
        match self.editor.path() {
            Some(p) => request.near(p),
            None => request
                .in_dir(&self.shelf.save_dir(None))
                .named(self.editor.untitled_name()),
        }
    }

    /// Saves the text to `path`, a file the user chose (its dialog asked
    /// before replacing one), which the text belongs to from then on.
    pub fn save_to(&mut self, path: &Path) {
        match files::write(path, self.editor.text()) {
            Ok(done) => {
                self.editor.saved_to(path);
                self.shelf.used(path);
                self.feedback.changed();
                self.feedback.set(done);
            }
            Err(e) => self.feedback.set(e),
        }
    }

    /// The Save dialog of the rules sheet, beside the rules file, named
    /// after the variant; `None` (and the reason in the message row) when
    /// the current text does not compile or a sheet is being written.
    pub fn sheet_request(&mut self) -> Option<PickRequest> {
        let why = match self.editor.fresh_variant() {
            Err(_) => Some(SheetError::NotCompiled),
            Ok(_) => self.sheet.busy(),
        };
        if let Some(why) = why {
            self.feedback.error(why.to_string());
            return None;
        }
        let name = self
            .editor
            .compiled_variant()
            .map_or("rules".to_string(), |v| v.name().to_string());
        let dir = self.shelf.save_dir(self.editor.path());
        Some(
            PickRequest::save("Save the rules sheet", "HTML page", &["html"])
                .in_dir(&dir)
                .named(format!("{name}-rules.html")),
        )
    }

    /// Starts writing the rules sheet of the current text to `path` (a
    /// file picked in a Save dialog, which asked before replacing one) on
    /// the sheet's worker; its message comes when it is written.
    pub fn write_sheet(&mut self, path: &Path) {
        let started = match self.editor.fresh_variant() {
            Ok(v) => self.sheet.start(v.clone(), path),
            Err(_) => Err(SheetError::NotCompiled),
        };
        if let Err(e) = started {
            self.feedback.error(e.to_string());
        }
    }

    /// Collects what background work sent (compilations, perft lines, the
    /// rules sheet, training) and starts the compilation that is due at
    /// `now` (seconds). Returns how long until a compilation is due, if one
    /// waits (the UI should look again then). Called every frame; never
    /// waits.
    pub fn poll(&mut self, now: f64) -> Option<f64> {
        let wait = self.editor.poll(now);
        self.perft.poll(self.editor.compiled_variant());
        match self.sheet.poll() {
            Some(Ok(done)) => self.feedback.info(done),
            Some(Err(e)) => self.feedback.error(e.to_string()),
            None => {}
        }
        self.training.drive(self.editor.compiled_variant());
        wait
    }

    /// Waits for all background work going on (the compilation, the
    /// perft, the rules sheet, the training run and the read of its data)
    /// to end and takes their results in (tests and scripts: the UI polls).
    pub fn settle(&mut self) {
        while self.editor.is_running() || self.perft.is_running() || self.sheet.is_running() {
            self.editor.wait();
            self.perft.wait();
            self.sheet.wait();
            self.poll(f64::NEG_INFINITY);
        }
        self.training.settle(self.editor.compiled_variant());
    }

    /// Starts counting the start position's moves of the compiled variant
    /// on a background thread. Refused while one runs; nothing to count
    /// while nothing compiles.
    pub fn start_perft(&mut self) -> Result<(), Busy> {
        match self.editor.compiled_variant() {
            Some(v) => self.perft.start(v.clone()),
            None => Ok(()),
        }
    }

    /// Starts training the current text on a background thread; when it
    /// cannot start, the reason becomes its outcome.
    pub fn start_training(&mut self) {
        let file = self.editor.path().map(Path::to_path_buf);
        self.training
            .start(self.editor.fresh_variant(), file.as_deref());
    }
}
