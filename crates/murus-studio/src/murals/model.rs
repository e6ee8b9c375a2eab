//! The Murals panel's model: the coordinator of parts that each own one
//! job. The [`MuralEditor`] owns the document and its edits, [`MuralPlay`]
//! what a click does, hand play and the solution shown, the [`MuralTasks`]
//! the background work and its settings, the [`MuralFiles`] the shelf of
//! puzzles and the question asked before work is lost. The model keeps the
//! panel's one [`Feedback`] and makes the calls that need several parts:
//! an edit resets play and the answers of the old puzzle, a move drops a
//! hint being looked for, an answer that arrives changes the part it is
//! for. Nothing here draws: the view ([`super::MuralsPanel`]) reads the
//! parts, changes them through the model, and tests drive it without egui.
//!
//! ```
//! use murus_studio::murals::{MuralsModel, MuralsSaved, Tool};
//!
//! let mut m = MuralsModel::new(MuralsSaved::default());
//! assert_eq!(m.play().tool(), Tool::Play, "a puzzle opens ready to play");
//! m.click(2, false); // select the tower on c1
//! m.click(4, false); // sow it to e1
//! assert_eq!(m.play().hand().played().len(), 1);
//! assert!(!m.editor().can_undo(), "playing is no edit");
//! ```

use std::path::PathBuf;

use crate::feedback::Feedback;
use crate::murals::{Click, MuralDocument, MuralShelf, MuralsSaved};

mod editor;
mod files;
mod folder;
mod play;
mod tasks;
mod work;

pub use editor::{Edit, LETTERS, MuralEditor};
pub use files::{MuralFiles, Pending};
pub use play::{HandMove, MuralPlay, Tool};
pub use tasks::{Done, Generator, MuralTasks, Progress, Work};
pub use work::Task;

/// The Murals panel's state and actions.
pub struct MuralsModel {
    editor: MuralEditor,
    play: MuralPlay,
    tasks: MuralTasks,
    files: MuralFiles,
    feedback: Feedback,
}

impl std::fmt::Debug for MuralsModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let doc = self.editor.document();
        f.debug_struct("MuralsModel")
            .field("path", &doc.path())
            .field("tool", &self.play.tool())
            .field("problems", &doc.problems())
            .field("feedback", &self.feedback)
            .finish_non_exhaustive()
    }
}

impl MuralsModel {
    /// The model as saved; the user's puzzles are those of the data folder
    /// ([`crate::places::Places::user`]) and of the folder last used. Its
    /// background work wakes nobody until [`MuralTasks::set_waker`].
    pub fn new(saved: MuralsSaved) -> MuralsModel {
        let tasks = MuralTasks::new(&saved);
        let MuralsSaved {
            text,
            path,
            disk_text,
            dir,
            board_text,
            ..
        } = saved;
        let editor = MuralEditor::new(MuralDocument::new(text, path, disk_text), board_text);
        let shelf = MuralShelf::new(
            crate::places::Places::user(),
            (!dir.is_empty()).then(|| PathBuf::from(dir)),
        );
        MuralsModel {
            play: MuralPlay::new(editor.document()),
            editor,
            tasks,
            files: MuralFiles::new(shelf),
            feedback: Feedback::default(),
        }
    }

    /// Everything to persist.
    pub fn saved(&self) -> MuralsSaved {
        let doc = self.editor.document();
        let mut saved = MuralsSaved {
            text: doc.text().to_string(),
            path: doc.path().to_string(),
            disk_text: doc.disk_text().to_string(),
            dir: self.files.shelf().dir().display().to_string(),
            board_text: self.editor.saved_board_text(),
            ..MuralsSaved::default()
        };
        self.tasks.save(&mut saved);
        saved
    }

    // ----- the parts --------------------------------------------------------

    /// The puzzle being edited: its document (text, file, problems,
    /// figures), undo, the brush and the board field.
    pub fn editor(&self) -> &MuralEditor {
        &self.editor
    }

    /// The editor's settings that change nothing else (the board field,
    /// the notes shown); edits go through [`MuralsModel::edit`].
    pub fn editor_mut(&mut self) -> &mut MuralEditor {
        &mut self.editor
    }

    /// The puzzle's document (the editor's).
    pub fn document(&self) -> &MuralDocument {
        self.editor.document()
    }

    /// What a click does, hand play and the solution shown.
    pub fn play(&self) -> &MuralPlay {
        &self.play
    }

    /// Play, to step through the solution; moves go through
    /// [`MuralsModel::play_hand`].
    pub fn play_mut(&mut self) -> &mut MuralPlay {
        &mut self.play
    }

    /// The background work, its settings and the last count.
    pub fn tasks(&self) -> &MuralTasks {
        &self.tasks
    }

    /// The work's settings, and Cancel; work starts through
    /// [`MuralsModel::start`].
    pub fn tasks_mut(&mut self) -> &mut MuralTasks {
        &mut self.tasks
    }

    /// The shelf of puzzles and the question waiting for an answer.
    pub fn files(&self) -> &MuralFiles {
        &self.files
    }

    /// The shelf's folders and the question, for the dialog that shows it.
    pub fn files_mut(&mut self) -> &mut MuralFiles {
        &mut self.files
    }

    /// The panel's message about the current state.
    pub fn feedback(&self) -> &Feedback {
        &self.feedback
    }

    // ----- edits and clicks ---------------------------------------------------

    /// Makes `edit` (one undoable step); it resets play and the answers
    /// of the old puzzle. Typing is editing: it leaves play.
    pub fn edit(&mut self, edit: Edit) {
        let typed = matches!(edit, Edit::Type { .. });
        match self.editor.apply(edit) {
            Ok(true) => {
                if typed && !self.play.tool().edits() {
                    // The text shows outside editing only while it has
                    // errors: keep it shown once they are fixed.
                    self.play.set_tool(Tool::Stacks);
                }
                self.changed_puzzle();
            }
            Ok(false) => {}
            Err(why) => self.feedback.error(why),
        }
    }

    /// Writes the finished count's optimal length and difficulty into the
    /// puzzle (one edit); the count stays, agreeing now.
    pub fn use_counted_figures(&mut self) {
        let Some((_, Some(r))) = self.tasks.counted() else {
            return;
        };
        let (length, band) = (r.length, r.band.clone());
        let counted = self.tasks.take_counted();
        match self.editor.write_figures(length, band) {
            Ok(true) => self.changed_puzzle(),
            Ok(false) => {}
            Err(why) => self.feedback.error(why),
        }
        self.tasks.set_counted(counted);
        self.feedback
            .success("optimal and difficulty updated from the count");
    }

    /// After any change of the document: the work and answers of the old
    /// puzzle go, and play starts afresh.
    fn changed_puzzle(&mut self) {
        self.tasks.drop_all();
        self.tasks.set_counted(None);
        self.play.changed(self.editor.document());
        self.feedback.changed();
    }

    /// Switches what a click does (painting is entered on purpose).
    pub fn set_tool(&mut self, tool: Tool) {
        if self.play.set_tool(tool) {
            self.feedback.changed();
        }
    }

    /// Chooses a brush (and the stack painting tool).
    pub fn set_brush(&mut self, brush: Option<(u8, u8)>) {
        self.editor.set_brush(brush);
        self.set_tool(Tool::Stacks);
    }

    /// A click on a board cell (`erase`: the secondary button).
    pub fn click(&mut self, cell: usize, erase: bool) {
        match self.play.tool() {
            Tool::Stacks => self.edit(Edit::Paint { cell, erase }),
            Tool::Targets => self.edit(Edit::ToggleTarget(cell)),
            Tool::Solution => self
                .feedback
                .info("this is the solver's solution: press Play by hand to move"),
            Tool::Play => match self.play.click(self.editor.document(), cell) {
                Some(Click::Played(_)) => self.after_move(),
                Some(Click::Selected(_)) => self.feedback.changed(),
                Some(Click::Nothing(why)) => self.feedback.info(why),
                None => self.feedback.error("fix the puzzle's problems first"),
            },
        }
    }

    // ----- play by hand -------------------------------------------------------

    /// Plays by hand, from where hand play stands (the moves played before a
    /// Solve are kept; Restart starts over).
    pub fn play_by_hand(&mut self) {
        if self.play.play_by_hand(self.editor.document()) {
            self.feedback.changed();
        } else {
            self.feedback.error("fix the puzzle's problems first");
        }
    }

    /// Plays, takes back or replays a move by hand, or starts over.
    pub fn play_hand(&mut self, m: HandMove) {
        if self.play.act(m, self.editor.document()) {
            self.after_move();
        }
    }

    fn after_move(&mut self) {
        self.tasks.drop_work(Work::Hint);
        self.feedback.changed();
    }
}

#[cfg(test)]
mod tests;
