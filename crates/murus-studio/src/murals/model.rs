//! The Murals panel's model, composed of parts that each do one job: the
//! [`Document`] (the puzzle's text, its file and what it reads as), its
//! [`History`] of edits, [`HandPlay`], the [`SolutionPlayer`] and the
//! background [`Tasks`]. The model ties them together (an edit resets play
//! and answers, a move drops a hint being looked for), asks before work is
//! lost, and keeps the panel's one [`Feedback`]. Nothing here draws: the
//! view ([`super::MuralsPanel`]) shows the model and turns clicks and keys
//! into its actions, and tests drive it without egui.
//!
//! ```
//! use murus_studio::murals::{MuralsModel, MuralsSaved, Tool};
//!
//! let mut m = MuralsModel::new(MuralsSaved::default());
//! assert_eq!(m.tool(), Tool::Play, "a puzzle opens ready to play");
//! m.click(2, false); // select the tower on c1
//! m.click(4, false); // sow it to e1
//! assert_eq!(m.played().len(), 1);
//! assert!(!m.can_undo(), "playing is no edit");
//! ```

use std::path::PathBuf;

use murus_mural::generate::Rating;
use murus_mural::puzzle::MAX_COLOURS;
use murus_mural::{Count, Puzzle, State, Status};

use super::MuralsSaved;
use super::document::{Document, Figures, Problem, Snapshot};
use super::hand::{Click, HandPlay};
use super::player::SolutionPlayer;
use super::shelf::Shelf;
use super::tasks::{Tasks, Work};
use crate::dialog::Confirm;
use crate::feedback::Feedback;
use crate::history::History;
use crate::worker::Waker;

/// Letters offered for new colours.
pub const LETTERS: [char; MAX_COLOURS] = ['r', 'g', 'b'];

/// What a click on the board does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Play by hand (the mode a puzzle opens in).
    Play,
    /// Step through the solver's solution.
    Solution,
    /// Paint stacks with the brush (editing, entered on purpose).
    Stacks,
    /// Toggle target cells (editing, entered on purpose).
    Targets,
}

impl Tool {
    /// Whether clicks edit the puzzle.
    pub fn edits(self) -> bool {
        matches!(self, Tool::Stacks | Tool::Targets)
    }
}

/// The generator's settings, to edit.
#[derive(Debug)]
pub struct Generator<'a> {
    pub board: &'a mut String,
    pub colours: &'a mut usize,
    pub sacrifice: &'a mut bool,
    /// "any" or a band.
    pub difficulty: &'a mut String,
    pub seed: &'a mut u64,
}

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

/// The settings persisted beside the document.
#[derive(Clone, Debug)]
struct Settings {
    budget: u64,
    gen_board: String,
    gen_colours: usize,
    gen_sacrifice: bool,
    gen_difficulty: String,
    gen_seed: u64,
}

/// The Murals panel's state and actions.
pub struct MuralsModel {
    doc: Document,
    history: History<Snapshot>,
    settings: Settings,
    hand: HandPlay,
    player: SolutionPlayer,
    /// The finished count of minimal solutions, with its rating.
    count: Option<(Count, Option<Rating>)>,
    tasks: Tasks,
    tool: Tool,
    /// `None` erases; `Some((colour, height))` paints.
    brush: Option<(u8, u8)>,
    /// The board field's text.
    board_text: String,
    feedback: Feedback,
    pending: Option<Confirm<Pending>>,
    show_notes: bool,
    /// The puzzles offered (shipped and the user's) and the folder saved
    /// to.
    shelf: Shelf,
    /// Example mode: show a solution half played.
    demo: bool,
}

impl std::fmt::Debug for MuralsModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MuralsModel")
            .field("path", &self.doc.path())
            .field("tool", &self.tool)
            .field("problems", &self.doc.problems())
            .field("feedback", &self.feedback)
            .finish_non_exhaustive()
    }
}

impl MuralsModel {
    /// The model as saved; the user's puzzles are those of the data folder
    /// ([`crate::places::Places::user`]) and of the folder last used. Its
    /// background work wakes nobody until [`MuralsModel::set_waker`].
    pub fn new(saved: MuralsSaved) -> MuralsModel {
        let MuralsSaved {
            text,
            path,
            disk_text,
            budget,
            gen_board,
            gen_colours,
            gen_sacrifice,
            gen_difficulty,
            gen_seed,
            dir,
            board_text,
        } = saved;
        let mut m = MuralsModel {
            doc: Document::new(text, path, disk_text),
            history: History::default(),
            settings: Settings {
                budget,
                gen_board,
                gen_colours,
                gen_sacrifice,
                gen_difficulty,
                gen_seed,
            },
            hand: HandPlay::default(),
            player: SolutionPlayer::default(),
            count: None,
            tasks: Tasks::default(),
            tool: Tool::Play,
            brush: Some((0, 2)),
            board_text: String::new(),
            feedback: Feedback::default(),
            pending: None,
            show_notes: false,
            shelf: Shelf::new(
                crate::places::Places::user(),
                (!dir.is_empty()).then(|| PathBuf::from(dir)),
            ),
            demo: false,
        };
        m.sync_board_text();
        // A board typed and not applied before the restart is kept.
        if !board_text.is_empty() {
            m.board_text = board_text;
        }
        m.start_play();
        m
    }

    /// Everything to persist.
    pub fn saved(&self) -> MuralsSaved {
        let s = &self.settings;
        MuralsSaved {
            text: self.doc.text().to_string(),
            path: self.doc.path().to_string(),
            disk_text: self.doc.disk_text().to_string(),
            budget: s.budget,
            gen_board: s.gen_board.clone(),
            gen_colours: s.gen_colours,
            gen_sacrifice: s.gen_sacrifice,
            gen_difficulty: s.gen_difficulty.clone(),
            gen_seed: s.gen_seed,
            dir: self.shelf.dir().display().to_string(),
            board_text: if self
                .doc
                .puzzle()
                .is_some_and(|p| p.board.text == self.board_text)
            {
                String::new()
            } else {
                self.board_text.clone()
            },
        }
    }

    /// Gives the background work what wakes the UI: once, before any work
    /// starts (the panel does it when it is made). Returns whether it was
    /// taken (not while work goes on: try again once it is done).
    pub fn set_waker(&mut self, waker: Waker) -> bool {
        let idle = !self.tasks.is_busy();
        if idle {
            self.tasks = Tasks::new(waker);
        }
        idle
    }

    // ----- the puzzle ---------------------------------------------------

    /// The puzzle text.
    pub fn text(&self) -> &str {
        self.doc.text()
    }

    /// The puzzle on the board: the text's (even when it is wrong as a
    /// whole), or while the text does not read, the last one that did.
    pub fn puzzle(&self) -> Option<&Puzzle> {
        self.doc.puzzle()
    }

    /// Problems of the current text (empty: valid).
    pub fn problems(&self) -> &[Problem] {
        self.doc.problems()
    }

    /// Whether the text is a valid puzzle.
    pub fn is_valid(&self) -> bool {
        self.doc.is_valid()
    }

    /// Whether the board can be painted: it shows the text's puzzle (a text
    /// that does not read is never overwritten by painting).
    pub fn can_paint(&self) -> bool {
        self.doc.can_paint()
    }

    /// The recorded `optimal` and `difficulty`, if the puzzle has either.
    pub fn figures(&self) -> Option<Figures> {
        self.doc.figures()
    }

    /// Whether the finished count's figures differ from the recorded ones.
    pub fn counted_figures_differ(&self) -> bool {
        let (Some(p), Some((c, Some(r)))) = (self.doc.puzzle(), &self.count) else {
            return false;
        };
        c.status == Status::Solved
            && (p.optimal != Some(r.length) || p.difficulty.as_deref() != Some(r.band.as_str()))
    }

    /// Writes the count's optimal length and difficulty into the puzzle.
    pub fn use_counted_figures(&mut self) {
        let Some((_, Some(r))) = &self.count else {
            return;
        };
        let (length, band) = (r.length, r.band.clone());
        let count = self.count.take();
        self.edit_puzzle(|p| {
            p.optimal = Some(length);
            p.difficulty = Some(band);
        });
        self.doc.trust_figures();
        self.count = count;
        self.feedback
            .success("optimal and difficulty updated from the count");
    }

    /// Replaces the whole text (one edit).
    pub fn replace_text(&mut self, text: impl Into<String>) {
        let mut s = self.doc.snapshot();
        s.text = text.into();
        self.edit_to(s, None);
    }

    /// The text as typed at `now` (seconds): a run of typing without a
    /// pause of a second is one undo step.
    pub fn type_text(&mut self, text: impl Into<String>, now: f64) {
        let text = text.into();
        if text == self.doc.text() {
            return;
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
        if !self.tool.edits() {
            // Typing is editing (the text shows outside editing only while
            // it has errors): keep it shown once they are fixed.
            self.tool = Tool::Stacks;
        }
        self.changed_puzzle();
    }

    /// Makes the document `after` as one undoable edit; `disk_text` is the
    /// new file's text when the file changes (`None`: read it).
    fn edit_to(&mut self, after: Snapshot, disk_text: Option<String>) {
        let before = self.doc.snapshot();
        if after != before {
            self.history.record(before);
        }
        self.doc.set(after, disk_text);
        self.changed_puzzle();
    }

    /// Changes the board's puzzle and writes it as the text (one edit).
    fn edit_puzzle(&mut self, change: impl FnOnce(&mut Puzzle)) {
        if !self.doc.can_paint() {
            self.feedback.error("fix the text's errors before painting");
            return;
        }
        let Some(mut p) = self.doc.puzzle().cloned() else {
            return;
        };
        change(&mut p);
        let mut s = self.doc.snapshot();
        s.text = p.to_toml();
        self.edit_to(s, None);
    }

    /// After any change of the document: runs and messages of the old
    /// puzzle go, and play starts afresh.
    fn changed_puzzle(&mut self) {
        self.sync_board_text();
        self.tasks.drop_all();
        self.player.clear();
        self.count = None;
        self.feedback.changed();
        if self.tool == Tool::Solution {
            self.tool = Tool::Play;
        }
        self.start_play();
    }

    fn sync_board_text(&mut self) {
        if let Some(p) = self.doc.puzzle().filter(|_| self.doc.can_paint()) {
            self.board_text = p.board.text.clone();
        }
    }

    /// Whether there is an edit to undo / to redo.
    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }
    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// Takes back the last edit of the puzzle (text, board, file opened).
    pub fn undo_edit(&mut self) {
        if let Some(before) = self.history.undo(self.doc.snapshot()) {
            self.doc.set(before, None);
            self.changed_puzzle();
        }
    }

    /// Makes again the last edit undone.
    pub fn redo_edit(&mut self) {
        if let Some(after) = self.history.redo(self.doc.snapshot()) {
            self.doc.set(after, None);
            self.changed_puzzle();
        }
    }

    // ----- painting -----------------------------------------------------

    /// The brush: `None` erases, `Some((colour, height))` paints.
    pub fn brush(&self) -> Option<(u8, u8)> {
        self.brush
    }

    /// Chooses a brush (and the stack painting tool).
    pub fn set_brush(&mut self, brush: Option<(u8, u8)>) {
        self.brush = brush;
        self.set_tool(Tool::Stacks);
    }

    /// Whether a colour can be added (a mural has at most three).
    pub fn can_add_colour(&self) -> bool {
        self.doc.can_paint()
            && self
                .doc
                .puzzle()
                .is_some_and(|p| p.colours.len() < MAX_COLOURS)
    }

    /// Adds the next unused colour.
    pub fn add_colour(&mut self) {
        let Some(letter) = self
            .doc
            .puzzle()
            .filter(|_| self.can_add_colour())
            .and_then(|p| LETTERS.iter().copied().find(|l| !p.colours.contains(l)))
        else {
            return;
        };
        self.edit_puzzle(|p| p.colours.push(letter));
    }

    /// Allows or forbids sacrifices.
    pub fn set_sacrifice(&mut self, on: bool) {
        self.edit_puzzle(|p| p.sacrifice = on);
    }

    /// The board field's text.
    pub fn board_text_mut(&mut self) -> &mut String {
        &mut self.board_text
    }

    /// Changes the board to the board field's, keeping stacks and targets on
    /// cells that still exist.
    pub fn apply_board(&mut self) {
        let text = self.board_text.trim().to_string();
        match murus_mural::Board::parse(&text) {
            Ok(b) => self.edit_puzzle(|m| {
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
            }),
            Err(e) => self.feedback.error(format!("board `{text}`: {e}")),
        }
    }

    // ----- tools and clicks ---------------------------------------------

    /// What a click on the board does now.
    pub fn tool(&self) -> Tool {
        self.tool
    }

    /// Switches what a click does (painting is entered on purpose).
    pub fn set_tool(&mut self, tool: Tool) {
        if tool == self.tool {
            return;
        }
        self.tool = tool;
        self.hand.unselect();
        self.feedback.changed();
    }

    /// A click on a board cell (`erase`: the secondary button).
    pub fn click(&mut self, cell: usize, erase: bool) {
        match self.tool {
            Tool::Stacks | Tool::Targets => self.paint(cell, erase),
            Tool::Play => self.play_click(cell),
            Tool::Solution => self
                .feedback
                .info("this is the solver's solution: press Play by hand to move"),
        }
    }

    fn paint(&mut self, cell: usize, erase: bool) {
        let brush = if erase { None } else { self.brush };
        if self.tool == Tool::Stacks {
            self.edit_puzzle(|m| m.start.set(cell, brush));
        } else {
            self.edit_puzzle(|m| {
                if let Some(t) = m.targets.get_mut(cell) {
                    *t = !*t;
                }
            });
        }
    }

    fn play_click(&mut self, cell: usize) {
        let Some(p) = self.doc.puzzle().filter(|_| self.doc.is_valid()).cloned() else {
            self.feedback.error("fix the puzzle's problems first");
            return;
        };
        match self.hand.click(&p, cell) {
            Click::Played(_) => self.after_move(),
            Click::Selected(_) => self.feedback.changed(),
            Click::Nothing(why) => self.feedback.info(why),
        }
    }

    // ----- notes ----------------------------------------------------------

    /// Whether the puzzle's notes (which may give the solution away) show.
    pub fn show_notes(&self) -> bool {
        self.show_notes
    }
    pub fn set_show_notes(&mut self, on: bool) {
        self.show_notes = on;
    }

    // ----- feedback -------------------------------------------------------

    /// The panel's message about the current state.
    pub fn feedback(&self) -> &Feedback {
        &self.feedback
    }

    /// Example content for screenshots: the first puzzle, solved, the
    /// solution shown half played.
    pub fn demo(&mut self) {
        if let Some(f) = self.shelf.files().first().cloned() {
            self.open(&f);
        } else if let Some(name) = self.shelf.shipped().first() {
            self.open_shipped(name);
        }
        self.demo = true;
        self.start_solve();
    }
}

mod folder;
mod play;
mod work;

#[cfg(test)]
mod tests;
