//! The model's files: the puzzle folder, opening, saving, and the questions
//! asked before work or a file is lost.

use std::path::{Path, PathBuf};

use murus_mural::Puzzle;

use super::{MuralsModel, Pending, Tool};
use crate::dialog::{Answer, Confirm};
use crate::files::{self, PickRequest};
use crate::murals::Shelf;
use crate::murals::Snapshot;

impl MuralsModel {
    /// The puzzles offered and the folder saved to.
    pub fn shelf(&self) -> &Shelf {
        &self.shelf
    }

    /// The puzzles offered, to change (the folder browsed, the data
    /// folder).
    pub fn shelf_mut(&mut self) -> &mut Shelf {
        &mut self.shelf
    }

    /// Whether the puzzle is the shipped puzzle `name` as shipped (opened
    /// from the list, not saved anywhere yet).
    pub fn is_shipped(&self, name: &str) -> bool {
        self.doc.path().is_empty()
            && crate::murals::shipped_text(name).is_some_and(|t| t == self.doc.disk_text())
    }

    /// The file the puzzle belongs to (empty: never saved).
    pub fn path(&self) -> &str {
        self.doc.path()
    }

    /// Whether the puzzle has changes that are not in a file.
    pub fn is_dirty(&self) -> bool {
        self.doc.is_dirty()
    }

    /// Whether the puzzle belongs to the file `path` (however either is
    /// written: relative to the working folder or in full).
    pub fn is_file(&self, path: &Path) -> bool {
        !self.doc.path().is_empty()
            && files::absolute(Path::new(self.doc.path())) == files::absolute(path)
    }

    /// Opens `path`, after asking when unsaved work would be lost.
    pub fn request_open(&mut self, path: &Path) {
        if self.is_file(path) && !self.is_dirty() {
            return;
        }
        // A file that cannot be opened fails first, before any question.
        if let Err(e) = std::fs::metadata(path) {
            self.feedback
                .error(format!("{}: {e}", files::absolute(path).display()));
            return;
        }
        self.ask_or_do(Pending::Open(path.to_path_buf()));
    }

    /// Opens the shipped puzzle `name` (read-only: saving it asks where to
    /// save a copy), after asking when unsaved work would be lost.
    pub fn request_open_shipped(&mut self, name: &str) {
        if self.is_shipped(name) && !self.is_dirty() {
            return;
        }
        self.ask_or_do(Pending::OpenShipped(name.to_string()));
    }

    /// Generates a puzzle, after asking when unsaved work would be lost.
    pub fn request_generate(&mut self) {
        self.ask_or_do(Pending::Generate);
    }

    fn ask_or_do(&mut self, action: Pending) {
        if !self.is_dirty() {
            self.perform(action);
            return;
        }
        let what = match self.doc.puzzle().filter(|_| self.doc.path().is_empty()) {
            Some(p) => format!("The puzzle \u{201c}{}\u{201d} is not saved.", p.title),
            None => "The puzzle has unsaved changes.".to_string(),
        };
        let (verb, go) = match &action {
            Pending::Open(path) => (
                format!(
                    "Opening {} replaces it",
                    path.file_stem().unwrap_or_default().to_string_lossy()
                ),
                "Discard and open",
            ),
            Pending::OpenShipped(name) => (
                format!("Opening {} replaces it", name.trim_end_matches(".toml")),
                "Discard and open",
            ),
            Pending::Generate => ("Generating replaces it".to_string(), "Discard and generate"),
            Pending::Overwrite(path) => (format!("Saving replaces {}", path.display()), "Replace"),
        };
        self.pending = Some(Confirm::new(
            "Unsaved puzzle",
            format!("{what} {verb} (Undo edit brings it back while the studio runs)."),
            go,
            "Keep the puzzle",
            action,
        ));
    }

    /// The question waiting for an answer, if any (the view shows it).
    pub fn pending(&self) -> Option<&Confirm<Pending>> {
        self.pending.as_ref()
    }

    /// The question, for [`crate::dialog::show`].
    pub fn pending_mut(&mut self) -> &mut Option<Confirm<Pending>> {
        &mut self.pending
    }

    /// Applies the answer to the pending question.
    pub fn answer(&mut self, answer: Answer<Pending>) {
        self.pending = None;
        if let Answer::Go(action) = answer {
            self.perform(action);
        }
    }

    fn perform(&mut self, action: Pending) {
        match action {
            Pending::Open(path) => self.open(&path),
            Pending::OpenShipped(name) => self.open_shipped(&name),
            Pending::Generate => self.start_generate(),
            Pending::Overwrite(path) => self.save_to(path),
        }
    }

    /// Opens a puzzle file at once (an undoable edit), ready to play; the
    /// puzzle belongs to its full path from then on.
    pub fn open(&mut self, path: &Path) {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let snapshot = Snapshot {
                    text: text.clone(),
                    path: files::absolute(path).display().to_string(),
                };
                self.edit_to(snapshot, Some(text));
                self.doc.trust_figures();
                self.tool = Tool::Play;
                self.show_notes = false;
                self.shelf.used(path);
                self.feedback
                    .info(format!("opened {}", files::absolute(path).display()));
            }
            Err(e) => self.feedback.error(format!("{}: {e}", path.display())),
        }
    }

    /// Opens the shipped puzzle `name` at once (an undoable edit), ready to
    /// play. It belongs to no file: Save asks where to save a copy.
    pub fn open_shipped(&mut self, name: &str) {
        let Some(text) = crate::murals::shipped_text(name) else {
            self.feedback.error(format!("no shipped puzzle `{name}`"));
            return;
        };
        let snapshot = Snapshot {
            text: text.to_string(),
            path: String::new(),
        };
        self.edit_to(snapshot, Some(text.to_string()));
        self.doc.trust_figures();
        self.tool = Tool::Play;
        self.show_notes = false;
        self.feedback.info(format!(
            "opened the shipped puzzle {} (Save asks where to save a copy)",
            name.trim_end_matches(".toml")
        ));
    }

    /// Saves to the puzzle's file, after asking when that would replace a
    /// shipped puzzle or changes made to the file elsewhere. An untitled
    /// puzzle has no file yet: the dialog that asks for one comes back
    /// (hand its path to [`MuralsModel::save_to_chosen`]).
    pub fn save(&mut self) -> Option<PickRequest> {
        if let Err(why) = self.why_not_save() {
            self.feedback.error(why);
            return None;
        }
        if self.doc.path().is_empty() {
            return Some(self.save_as_request());
        }
        self.save_checked(PathBuf::from(self.doc.path()));
        None
    }

    /// The "Save puzzle as" dialog: beside the puzzle's file, proposing its
    /// name; for an untitled puzzle (or a shipped one), in the folder last
    /// used (at first the data folder's `puzzles`, created then), proposing
    /// a name made of its title.
    pub fn save_as_request(&self) -> PickRequest {
        let request = PickRequest::save("Save the puzzle as", "Murals", &["toml"]);
        if !self.doc.path().is_empty() {
            return request.near(Path::new(self.doc.path()));
        }
        let title = self
            .doc
            .puzzle()
            .map(|p| p.title.clone())
            .unwrap_or_default();
        let name: String = title
            .to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        let name = if name.is_empty() {
            "my-mural".into()
        } else {
            name
        };
        request
            .in_dir(&self.shelf.save_dir())
            .named(format!("{name}.toml"))
    }

    /// The "Open a puzzle" dialog, in the folder last used.
    pub fn open_request(&self) -> PickRequest {
        PickRequest::open("Open a puzzle", "Murals", &["toml"]).in_dir(&self.shelf.save_dir())
    }

    /// Saves to `path`, a file the user chose in a Save dialog (which asked
    /// before replacing a file), which the puzzle belongs to from then on.
    pub fn save_to_chosen(&mut self, path: &Path) {
        self.feedback.changed();
        if let Err(why) = self.why_not_save() {
            self.feedback.error(why);
            return;
        }
        self.save_to(files::absolute(path));
    }

    /// Why the puzzle cannot be saved now, if it cannot.
    pub fn why_not_save(&self) -> Result<(), String> {
        match self.doc.problems().len() {
            0 => Ok(()),
            1 => Err("fix the puzzle's problem before saving".into()),
            n => Err(format!("fix the puzzle's {n} problems before saving")),
        }
    }

    /// Saves to `path`, or asks first: when it holds a shipped puzzle as
    /// shipped, another file than the puzzle's, or the puzzle's file changed
    /// elsewhere since it was read.
    fn save_checked(&mut self, path: PathBuf) {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let ours = self.is_file(&path);
        let question = match std::fs::read_to_string(&path) {
            Ok(t) if murus_mural::collection::is_shipped(&name, &t) => Some((
                "Replace a shipped puzzle?",
                format!(
                    "{name} is one of the puzzles shipped with Murus. Saving replaces it; Save puzzle as… writes your version elsewhere."
                ),
            )),
            Ok(_) if !ours => Some((
                "Replace the file?",
                format!("{name} already exists in the puzzle folder. Saving replaces it."),
            )),
            Ok(t) if t != self.doc.disk_text() => Some((
                "Replace the file?",
                format!(
                    "{name} changed on disk since the studio read it. Saving replaces those changes."
                ),
            )),
            _ => None,
        };
        match question {
            Some((title, text)) => {
                self.pending = Some(Confirm::new(
                    title,
                    text,
                    "Replace",
                    "Keep the file",
                    Pending::Overwrite(path),
                ));
            }
            None => self.save_to(path),
        }
    }

    /// Writes the puzzle to `path`; recorded figures found before the edits
    /// are left out (an undoable edit), as they may no longer hold.
    fn save_to(&mut self, path: PathBuf) {
        let stale = self.doc.figures_stale();
        if stale {
            let mut s = self.doc.snapshot();
            s.text = Puzzle::text_without_figures(&s.text);
            self.edit_to(s, None);
        }
        match files::write(&path, self.doc.text()) {
            Ok(mut done) => {
                let path = files::absolute(&path).display().to_string();
                if path != self.doc.path() {
                    // "Save as" ties the text to another file: a step that
                    // undo can take back (the file stays written).
                    self.history.record(self.doc.snapshot());
                }
                self.doc.saved_to(path);
                if stale {
                    done.text.push_str(
                        "; optimal and difficulty were left out, found before your edits (Count solutions to record them again)",
                    );
                }
                self.feedback.set(done);
                self.shelf.used(Path::new(self.doc.path()));
            }
            Err(e) => self.feedback.set(e),
        }
    }
}
