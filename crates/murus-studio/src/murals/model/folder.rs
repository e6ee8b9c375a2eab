//! The model's file actions: opening a file or a shipped puzzle,
//! generating and saving, each after the question the [`super::MuralFiles`] ask
//! when work or a file would be lost.

use std::path::{Path, PathBuf};

use super::{MuralsModel, Pending, Tool};
use crate::dialog::Answer;
use crate::files::{self, PickRequest};
use crate::murals::{Snapshot, shipped_text};

impl MuralsModel {
    /// Does `action` after asking when unsaved work would be lost; opening
    /// the puzzle already open, unchanged, does nothing, and a file that
    /// cannot be opened fails first, before any question.
    pub fn request(&mut self, action: Pending) {
        let doc = self.editor.document();
        match &action {
            Pending::Open(path) if doc.is_file(path) && !doc.is_dirty() => return,
            Pending::OpenShipped(name) if doc.is_shipped(name) && !doc.is_dirty() => return,
            Pending::Open(path) => {
                if let Err(e) = std::fs::metadata(path) {
                    self.feedback
                        .error(format!("{}: {e}", files::absolute(path).display()));
                    return;
                }
            }
            _ => {}
        }
        if let Some(action) = self.files.ask(action, doc) {
            self.perform(action);
        }
    }

    /// Applies the answer to the pending question.
    pub fn answer(&mut self, answer: Answer<Pending>) {
        if let Some(action) = self.files.answer(answer) {
            self.perform(action);
        }
    }

    /// Does `action` at once, without asking. A file or shipped puzzle
    /// opens as an undoable edit, ready to play; a file opened belongs to
    /// its full path from then on, a shipped puzzle to no file (Save asks
    /// where to save a copy).
    pub fn perform(&mut self, action: Pending) {
        match action {
            Pending::Open(path) => match std::fs::read_to_string(&path) {
                Ok(text) => {
                    let full = files::absolute(&path).display().to_string();
                    let snapshot = Snapshot {
                        text: text.clone(),
                        path: full.clone(),
                    };
                    self.take(snapshot, text);
                    self.files.shelf_mut().used(&path);
                    self.feedback.info(format!("opened {full}"));
                }
                Err(e) => self.feedback.error(format!("{}: {e}", path.display())),
            },
            Pending::OpenShipped(name) => {
                let Some(text) = shipped_text(&name) else {
                    self.feedback.error(format!("no shipped puzzle `{name}`"));
                    return;
                };
                let snapshot = Snapshot {
                    text: text.to_string(),
                    path: String::new(),
                };
                self.take(snapshot, text.to_string());
                self.feedback.info(format!(
                    "opened the shipped puzzle {} (Save asks where to save a copy)",
                    name.trim_end_matches(".toml")
                ));
            }
            Pending::Generate => {
                if let Err(busy) = self.tasks.generate() {
                    self.feedback.error(busy.to_string());
                }
            }
            Pending::Overwrite(path) => self.save_to_chosen(&path),
        }
    }

    /// Opens `after` as an undoable edit, ready to play; `disk_text` is
    /// its file's text (empty for a puzzle in no file yet).
    pub(super) fn take(&mut self, after: Snapshot, disk_text: String) {
        self.editor.open(after, disk_text);
        self.changed_puzzle();
        self.play.set_tool(Tool::Play);
    }

    /// Saves to the puzzle's file, after asking when that would replace a
    /// shipped puzzle or changes made to the file elsewhere. An untitled
    /// puzzle has no file yet: the dialog that asks for one comes back
    /// (hand its path to [`MuralsModel::save_to_chosen`]).
    pub fn save(&mut self) -> Option<PickRequest> {
        let doc = self.editor.document();
        if let Err(why) = doc.why_not_save() {
            self.feedback.error(why);
            return None;
        }
        if doc.path().is_empty() {
            return Some(self.files.shelf().save_as_request(doc));
        }
        let path = PathBuf::from(doc.path());
        if let Some(path) = self.files.ask_overwrite(path, doc) {
            self.save_to_chosen(&path);
        }
        None
    }

    /// Saves to `path`, a file the user chose in a Save dialog (which asked
    /// before replacing a file) or agreed to replace, which the puzzle
    /// belongs to from then on. Recorded figures found before the edits
    /// are left out (an undoable edit), as they may no longer hold.
    pub fn save_to_chosen(&mut self, path: &Path) {
        self.feedback.changed();
        if let Err(why) = self.editor.document().why_not_save() {
            self.feedback.error(why);
            return;
        }
        let path = files::absolute(path);
        let stale = self.editor.drop_stale_figures();
        if stale {
            self.changed_puzzle();
        }
        match self.editor.write_to(&path) {
            Ok(mut done) => {
                if stale {
                    done.text.push_str(
                        "; optimal and difficulty were left out, found before your edits (Count solutions to record them again)",
                    );
                }
                self.feedback.set(done);
                let path = Path::new(self.editor.document().path()).to_path_buf();
                self.files.shelf_mut().used(&path);
            }
            Err(e) => self.feedback.set(e),
        }
    }
}
