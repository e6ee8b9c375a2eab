//! The puzzle files: the shelf of puzzles offered, and the question asked
//! before unsaved work or a file would be replaced.

use std::path::PathBuf;

use crate::dialog::{Answer, Confirm};
use crate::murals::{MuralDocument, MuralShelf};

/// An action that waits for the user to confirm that work may be lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Open this puzzle file.
    Open(PathBuf),
    /// Generate a puzzle.
    Generate,
    /// Save the puzzle over this existing file.
    Overwrite(PathBuf),
    /// Open the shipped puzzle of this file name.
    OpenShipped(String),
}

/// The puzzle files: the [`MuralShelf`] (the puzzles offered and the folder
/// saved to) and the question waiting for an answer before an action
/// replaces unsaved work or a file (at most one at a time).
#[derive(Debug)]
pub struct MuralFiles {
    shelf: MuralShelf,
    question: Option<Confirm<Pending>>,
}

impl MuralFiles {
    pub(super) fn new(shelf: MuralShelf) -> MuralFiles {
        MuralFiles {
            shelf,
            question: None,
        }
    }

    /// The puzzles offered and the folder saved to.
    pub fn shelf(&self) -> &MuralShelf {
        &self.shelf
    }

    /// The puzzles offered, to change (the folder browsed, the data
    /// folder).
    pub fn shelf_mut(&mut self) -> &mut MuralShelf {
        &mut self.shelf
    }

    /// The question waiting for an answer, if any (the view shows it).
    pub fn pending(&self) -> Option<&Confirm<Pending>> {
        self.question.as_ref()
    }

    /// The question, for [`crate::dialog::show`].
    pub fn pending_mut(&mut self) -> &mut Option<Confirm<Pending>> {
        &mut self.question
    }

    /// `action`, to do at once when `doc` has nothing to lose; otherwise
    /// asks first (and returns `None`).
    pub(super) fn ask(&mut self, action: Pending, doc: &MuralDocument) -> Option<Pending> {
        if !doc.is_dirty() {
            return Some(action);
        }
        let what = match doc.puzzle().filter(|_| doc.path().is_empty()) {
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
        self.question = Some(Confirm::new(
            "Unsaved puzzle",
            format!("{what} {verb} (Undo edit brings it back while the studio runs)."),
            go,
            "Keep the puzzle",
            action,
        ));
        None
    }

    /// Saving `doc` to `path`, to do at once, or asks first (and returns
    /// `None`): when the file holds a shipped puzzle as shipped, when it is
    /// another file than `doc`'s, or when `doc`'s file changed elsewhere
    /// since it was read.
    pub(super) fn ask_overwrite(&mut self, path: PathBuf, doc: &MuralDocument) -> Option<PathBuf> {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let question = match std::fs::read_to_string(&path) {
            Ok(t) if murus_mural::collection::is_shipped(&name, &t) => Some((
                "Replace a shipped puzzle?",
                format!(
                    "{name} is one of the puzzles shipped with Murus. Saving replaces it; Save puzzle as… writes your version elsewhere."
                ),
            )),
            Ok(_) if !doc.is_file(&path) => Some((
                "Replace the file?",
                format!("{name} already exists in the puzzle folder. Saving replaces it."),
            )),
            Ok(t) if t != doc.disk_text() => Some((
                "Replace the file?",
                format!(
                    "{name} changed on disk since the studio read it. Saving replaces those changes."
                ),
            )),
            _ => None,
        };
        let Some((title, text)) = question else {
            return Some(path);
        };
        self.question = Some(Confirm::new(
            title,
            text,
            "Replace",
            "Keep the file",
            Pending::Overwrite(path),
        ));
        None
    }

    /// Takes the answer to the question: the action to do, if the user
    /// chose to go on.
    pub(super) fn answer(&mut self, answer: Answer<Pending>) -> Option<Pending> {
        self.question = None;
        match answer {
            Answer::Go(action) => Some(action),
            Answer::Keep => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::murals::EXAMPLE;
    use crate::places::Places;

    fn files() -> MuralFiles {
        let data = std::env::temp_dir().join(format!("murus-mural-files-{}", std::process::id()));
        MuralFiles::new(MuralShelf::new(Places::at(&data), None))
    }

    #[test]
    fn nothing_to_lose_goes_at_once_and_unsaved_work_is_asked_about() {
        let mut f = files();
        let clean = MuralDocument::new(EXAMPLE.into(), String::new(), String::new());
        assert_eq!(f.ask(Pending::Generate, &clean), Some(Pending::Generate));
        assert!(f.pending().is_none());
        let dirty = MuralDocument::new(
            EXAMPLE.replace("Leapfrog", "Mine"),
            String::new(),
            String::new(),
        );
        assert_eq!(f.ask(Pending::Generate, &dirty), None);
        let q = f.pending().expect("a question");
        assert!(
            q.text
                .starts_with("The puzzle \u{201c}Mine\u{201d} is not saved."),
            "{}",
            q.text
        );
        assert_eq!(f.answer(Answer::Keep), None);
        assert!(f.pending().is_none(), "the answer closes the question");
        f.ask(Pending::Generate, &dirty);
        assert_eq!(
            f.answer(Answer::Go(Pending::Generate)),
            Some(Pending::Generate)
        );
    }

    #[test]
    fn saving_over_another_file_asks_and_a_new_file_does_not() {
        let dir = std::env::temp_dir().join(format!("murus-mural-over-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let theirs = dir.join("theirs.toml");
        std::fs::write(&theirs, EXAMPLE).unwrap();
        let mut f = files();
        let doc = MuralDocument::new(EXAMPLE.into(), String::new(), String::new());
        let new = dir.join("new.toml");
        assert_eq!(f.ask_overwrite(new.clone(), &doc), Some(new));
        assert_eq!(f.ask_overwrite(theirs.clone(), &doc), None);
        assert_eq!(
            f.pending().map(|q| q.action.clone()),
            Some(Pending::Overwrite(theirs))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
