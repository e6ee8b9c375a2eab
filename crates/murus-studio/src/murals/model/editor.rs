//! The puzzle being edited: its document, the history of its edits, the
//! brush, the board field and whether the notes show.

use std::path::Path;

use murus_mural::puzzle::MAX_COLOURS;
use murus_mural::{Puzzle, State};

use crate::feedback::Message;
use crate::files;
use crate::history::History;
use crate::murals::{MuralDocument, Snapshot};

/// Letters offered for new colours.
pub const LETTERS: [char; MAX_COLOURS] = ['r', 'g', 'b'];

/// An edit of the puzzle: each is one step that Undo edit takes back (a
/// run of typing is one step).
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Replaces the whole text.
    Replace(String),
    /// The text as typed at `now` (seconds): a run of typing without a
    /// pause of a second is one step.
    Type { text: String, now: f64 },
    /// Takes back the last edit (text, board, file opened).
    Undo,
    /// Makes again the last edit undone.
    Redo,
    /// Adds the next unused colour.
    AddColour,
    /// Allows or forbids sacrifices.
    Sacrifice(bool),
    /// Changes the board to the board field's, keeping stacks and targets
    /// on cells that still exist.
    ApplyBoard,
    /// Paints `cell` with the brush (`erase`: empties it).
    Paint { cell: usize, erase: bool },
    /// Makes `cell` a target, or no longer one.
    ToggleTarget(usize),
}

/// The puzzle being edited: the [`MuralDocument`], the undo history of its
/// edits, the brush stacks are painted with, the board field as typed (it
/// follows the puzzle's board after each edit) and whether the puzzle's
/// notes show (hidden for each puzzle opened). The document changes only
/// through an edit, which the history records.
#[derive(Debug)]
pub struct MuralEditor {
    doc: MuralDocument,
    history: History<Snapshot>,
    /// `None` erases; `Some((colour, height))` paints.
    brush: Option<(u8, u8)>,
    board_text: String,
    show_notes: bool,
}

impl MuralEditor {
    /// The editor of `doc`, nothing to undo; `board_text` is the board
    /// field as typed before a restart (empty: the puzzle's board).
    pub(super) fn new(doc: MuralDocument, board_text: String) -> MuralEditor {
        let mut e = MuralEditor {
            doc,
            history: History::default(),
            brush: Some((0, 2)),
            board_text: String::new(),
            show_notes: false,
        };
        e.sync_board_text();
        if !board_text.is_empty() {
            e.board_text = board_text;
        }
        e
    }

    /// The puzzle's text and file, and what the text reads as.
    pub fn document(&self) -> &MuralDocument {
        &self.doc
    }

    /// Whether there is an edit to undo / to redo.
    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }
    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// The brush: `None` erases, `Some((colour, height))` paints.
    pub fn brush(&self) -> Option<(u8, u8)> {
        self.brush
    }

    /// Chooses the brush (the model also takes the stack painting tool).
    pub(super) fn set_brush(&mut self, brush: Option<(u8, u8)>) {
        self.brush = brush;
    }

    /// Whether a colour can be added (a mural has at most three).
    pub fn can_add_colour(&self) -> bool {
        self.doc.can_paint()
            && self
                .doc
                .puzzle()
                .is_some_and(|p| p.colours.len() < MAX_COLOURS)
    }

    /// The board field's text.
    pub fn board_text_mut(&mut self) -> &mut String {
        &mut self.board_text
    }

    /// The board field to keep across a restart: empty when it is the
    /// puzzle's board.
    pub(super) fn saved_board_text(&self) -> String {
        if self
            .doc
            .puzzle()
            .is_some_and(|p| p.board.text == self.board_text)
        {
            String::new()
        } else {
            self.board_text.clone()
        }
    }

    /// Whether the puzzle's notes (which may give the solution away) show.
    pub fn show_notes(&self) -> bool {
        self.show_notes
    }
    pub fn set_show_notes(&mut self, on: bool) {
        self.show_notes = on;
    }

    /// Makes `edit`. Returns whether the document changed (or was set
    /// again), or why nothing was done.
    pub(super) fn apply(&mut self, edit: Edit) -> Result<bool, String> {
        match edit {
            Edit::Replace(text) => {
                let mut s = self.doc.snapshot();
                s.text = text;
                self.replace(s, None);
                Ok(true)
            }
            Edit::Type { text, now } => Ok(self.type_text(text, now)),
            Edit::Undo => Ok(self.undo()),
            Edit::Redo => Ok(self.redo()),
            Edit::AddColour => {
                let letter = self
                    .doc
                    .puzzle()
                    .filter(|_| self.can_add_colour())
                    .and_then(|p| LETTERS.iter().copied().find(|l| !p.colours.contains(l)));
                match letter {
                    Some(letter) => self.edit_puzzle(|p| p.colours.push(letter)),
                    None => Ok(false),
                }
            }
            Edit::Sacrifice(on) => self.edit_puzzle(|p| p.sacrifice = on),
            Edit::ApplyBoard => self.apply_board(),
            Edit::Paint { cell, erase } => {
                let brush = if erase { None } else { self.brush };
                self.edit_puzzle(|m| m.start.set(cell, brush))
            }
            Edit::ToggleTarget(cell) => self.edit_puzzle(|m| {
                if let Some(t) = m.targets.get_mut(cell) {
                    *t = !*t;
                }
            }),
        }
    }

    /// Makes the document `after` as one undoable edit; `disk_text` is the
    /// new file's text when the file changes (`None`: read it).
    pub(super) fn replace(&mut self, after: Snapshot, disk_text: Option<String>) {
        let before = self.doc.snapshot();
        if after != before {
            self.history.record(before);
        }
        self.doc.set(after, disk_text);
        self.sync_board_text();
    }

    /// Opens `after`, a file's text (`disk_text`) or a puzzle made for the
    /// user, as one undoable edit: its recorded figures are trusted and its
    /// notes hidden.
    pub(super) fn open(&mut self, after: Snapshot, disk_text: String) {
        self.replace(after, Some(disk_text));
        self.doc.trust_figures();
        self.show_notes = false;
    }

    /// Writes the count's `optimal` length and `difficulty` into the puzzle
    /// (one edit) and trusts them.
    pub(super) fn write_figures(
        &mut self,
        optimal: u32,
        difficulty: String,
    ) -> Result<bool, String> {
        let changed = self.edit_puzzle(|p| {
            p.optimal = Some(optimal);
            p.difficulty = Some(difficulty);
        });
        self.doc.trust_figures();
        changed
    }

    /// Trusts the puzzle's recorded figures (a count confirmed them).
    pub(super) fn trust_figures(&mut self) {
        self.doc.trust_figures();
    }

    /// Leaves out recorded figures found before the edits, as they may no
    /// longer hold (an undoable edit). Returns whether there were any.
    pub(super) fn drop_stale_figures(&mut self) -> bool {
        let stale = self.doc.figures_stale();
        if stale {
            let mut s = self.doc.snapshot();
            s.text = Puzzle::text_without_figures(&s.text);
            self.replace(s, None);
        }
        stale
    }

    /// Writes the text to `path`, which it belongs to from then on (a
    /// step that Undo edit takes back when the file is another: the file
    /// stays written). Returns the message saying so, or why not.
    pub(super) fn write_to(&mut self, path: &Path) -> Result<Message, Message> {
        let done = files::write(path, self.doc.text())?;
        let path = files::absolute(path).display().to_string();
        if path != self.doc.path() {
            self.history.record(self.doc.snapshot());
        }
        self.doc.saved_to(path);
        Ok(done)
    }

    /// The text as typed at `now`; whether it changed.
    fn type_text(&mut self, text: String, now: f64) -> bool {
        if text == self.doc.text() {
            return false;
        }
        let before = self.doc.snapshot();
        self.history.typing(before.clone(), now);
        self.doc.set(
            Snapshot {
                text,
                path: before.path,
            },
            None,
        );
        self.sync_board_text();
        true
    }

    fn undo(&mut self) -> bool {
        let Some(before) = self.history.undo(self.doc.snapshot()) else {
            return false;
        };
        self.doc.set(before, None);
        self.sync_board_text();
        true
    }

    fn redo(&mut self) -> bool {
        let Some(after) = self.history.redo(self.doc.snapshot()) else {
            return false;
        };
        self.doc.set(after, None);
        self.sync_board_text();
        true
    }

    /// Changes the board's puzzle and writes it as the text (one edit).
    fn edit_puzzle(&mut self, change: impl FnOnce(&mut Puzzle)) -> Result<bool, String> {
        if !self.doc.can_paint() {
            return Err("fix the text's errors before painting".into());
        }
        let Some(mut p) = self.doc.puzzle().cloned() else {
            return Ok(false);
        };
        change(&mut p);
        let mut s = self.doc.snapshot();
        s.text = p.to_toml();
        self.replace(s, None);
        Ok(true)
    }

    fn apply_board(&mut self) -> Result<bool, String> {
        let text = self.board_text.trim().to_string();
        let b = murus_mural::Board::parse(&text).map_err(|e| format!("board `{text}`: {e}"))?;
        self.edit_puzzle(|m| {
            let mut start = State::empty(b.slots());
            let mut targets = vec![false; b.slots()];
            for s in m.board.geometry.cells() {
                if let Some(t) = b.parse_cell(&m.board.name(s)) {
                    start.set(t, m.start.get(s));
                    targets[t] = m.targets[s];
                }
            }
            m.board = b;
            m.start = start;
            m.targets = targets;
        })
    }

    /// The board field follows the puzzle's board (not while the text does
    /// not read).
    fn sync_board_text(&mut self) {
        if let Some(p) = self.doc.puzzle().filter(|_| self.doc.can_paint()) {
            self.board_text = p.board.text.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::murals::EXAMPLE;

    fn editor(text: &str, board_text: &str) -> MuralEditor {
        let doc = MuralDocument::new(text.into(), String::new(), String::new());
        MuralEditor::new(doc, board_text.into())
    }

    #[test]
    fn an_edit_that_cannot_be_made_says_why_and_records_nothing() {
        let mut e = editor("title = \"x\"\nboard = \"5x\"\n", "");
        assert_eq!(
            e.apply(Edit::Paint {
                cell: 0,
                erase: false
            }),
            Err("fix the text's errors before painting".into())
        );
        let mut e = editor(EXAMPLE, "");
        *e.board_text_mut() = "5y".into();
        let why = e.apply(Edit::ApplyBoard).unwrap_err();
        assert!(why.starts_with("board `5y`: "), "{why}");
        assert_eq!(e.document().text(), EXAMPLE);
        assert!(!e.can_undo());
    }

    #[test]
    fn the_board_field_follows_the_puzzle_and_keeps_a_board_typed_before_a_restart() {
        let mut e = editor(EXAMPLE, "6x1");
        assert_eq!(e.saved_board_text(), "6x1");
        assert_eq!(e.board_text_mut().as_str(), "6x1");
        e.apply(Edit::ApplyBoard).unwrap();
        assert!(e.document().text().contains("board = \"6x1\""));
        assert_eq!(e.saved_board_text(), "", "it is the puzzle's board now");
        e.apply(Edit::Undo).unwrap();
        assert_eq!(
            e.board_text_mut().as_str(),
            "5x1",
            "undo brings the board field back"
        );
    }

    #[test]
    fn a_puzzle_opened_hides_its_notes_and_undo_takes_it_back() {
        let mut e = editor(EXAMPLE, "");
        e.set_show_notes(true);
        let other = EXAMPLE.replace("Leapfrog", "Other");
        let snapshot = Snapshot {
            text: other.clone(),
            path: String::new(),
        };
        e.open(snapshot, other.clone());
        assert!(!e.show_notes() && !e.document().is_dirty());
        assert_eq!(e.apply(Edit::Undo), Ok(true));
        assert_eq!(e.document().text(), EXAMPLE);
        assert_eq!(e.apply(Edit::Undo), Ok(false), "nothing more to undo");
    }
}
