//! The Murals panel's model: the puzzle being authored (text and board kept
//! in sync, validated live, with an edit history), hand play, the solver's
//! answers and the background work that finds them, and the panel's one
//! [`Feedback`]. Nothing here draws: the view ([`super::MuralsPanel`]) shows
//! the model and turns clicks and keys into its actions, and tests drive it
//! without egui.
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

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui::util::undoer::Undoer;
use murus_engine::job::{Handler, HandlerExt};
use murus_mural::generate::{self, Options, Rating};
use murus_mural::{Count, Mode, MuralMove, Progress, Puzzle, Solution, State, Status};

use super::{EXAMPLE, MuralsSaved};
use crate::dialog::{Answer, Confirm};
use crate::feedback::Feedback;
use crate::files;
use crate::worker::{Job, Waker, no_waker};

/// Letters offered for new colours.
pub const LETTERS: [char; 4] = ['r', 'g', 'b', 'y'];

/// How long a pause in typing ends one undo step of typing (seconds).
const TYPING_PAUSE: f64 = 1.0;

/// Seconds between two steps of an animated solution.
const ANIMATION_STEP: f64 = 0.6;

/// The generator's budget is capped: each candidate puzzle is counted.
const GENERATOR_BUDGET: u64 = 2_000_000;

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

/// A diagnostic of the puzzle text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub col: usize,
    pub message: String,
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

/// Background work of the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    Solve,
    Count,
    Hint,
    Generate,
}

impl Work {
    /// What the progress line says.
    pub fn label(self) -> &'static str {
        match self {
            Work::Solve => "solving",
            Work::Count => "counting",
            Work::Hint => "looking for a hint",
            Work::Generate => "generating",
        }
    }
}

/// An action that waits for the user to confirm that unsaved work may go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Open this puzzle file.
    Open(PathBuf),
    /// Generate a puzzle.
    Generate,
    /// Save the puzzle over this existing file.
    Overwrite(PathBuf),
}

/// The puzzle's recorded `optimal` and `difficulty`, and whether they were
/// found for the puzzle as it is now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figures {
    pub optimal: Option<u32>,
    pub difficulty: Option<String>,
    /// The puzzle was edited since they were found (by the file's author,
    /// the generator or a count): they may no longer hold.
    pub stale: bool,
}

#[derive(Debug)]
enum Msg {
    Progress(u64, u32),
    Solved(Solution),
    Counted(Count, Option<Rating>),
    /// The optimal solution from the hand-played position.
    Hint(Solution),
    Generated(Result<Vec<(Puzzle, Rating)>, String>),
}

#[derive(Debug)]
struct Running {
    work: Work,
    job: Job<Msg>,
    progress: (u64, u32),
}

/// What an edit changes and undo restores: the text, the board painted
/// (which may be invalid: painting shows the board it produced), and the
/// file the text belongs to (opening another puzzle is undoable too).
#[derive(Clone, Debug)]
struct Doc {
    text: String,
    puzzle: Option<Puzzle>,
    path: String,
}

impl PartialEq for Doc {
    fn eq(&self, other: &Doc) -> bool {
        // A puzzle is all in its TOML (`Puzzle` has no `PartialEq`).
        self.text == other.text
            && self.path == other.path
            && self.puzzle.as_ref().map(Puzzle::to_toml)
                == other.puzzle.as_ref().map(Puzzle::to_toml)
    }
}

/// Hand play from the puzzle's start.
#[derive(Clone, Debug, Default)]
struct HandPlay {
    played: Vec<MuralMove>,
    /// Moves taken back, the next to replay last.
    undone: Vec<MuralMove>,
    state: Option<State>,
    selected: Option<usize>,
    hint: Option<MuralMove>,
}

/// The Murals panel's state and actions.
pub struct MuralsModel {
    /// The puzzle text, its file and that file's text as last read or
    /// written, and the settings: what is persisted.
    saved: MuralsSaved,
    /// The puzzle on the board: the text's, or the last one painted.
    puzzle: Option<Puzzle>,
    problems: Vec<Problem>,
    /// The edit history (egui's `Undoer`, fed explicitly: each paint or
    /// file change is one step, a run of typing is one step).
    history: Undoer<Doc>,
    /// When the current run of typing last changed the text.
    typing_since: Option<f64>,
    /// The mural (board, stacks, targets, rules) the recorded `optimal` and
    /// `difficulty` were found for.
    figures_for: Option<String>,
    tool: Tool,
    /// `None` erases; `Some((colour, height))` paints.
    brush: Option<(u8, u8)>,
    board_text: String,
    play: HandPlay,
    solution: Option<Solution>,
    step: usize,
    animating: bool,
    last_anim: f64,
    count: Option<(Count, Option<Rating>)>,
    running: Option<Running>,
    waker: Waker,
    feedback: Feedback,
    pending: Option<Confirm<Pending>>,
    show_notes: bool,
    dir: PathBuf,
    files: Vec<PathBuf>,
    /// Example mode: show a solution half played.
    demo: bool,
}

impl std::fmt::Debug for MuralsModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MuralsModel")
            .field("path", &self.saved.path)
            .field("tool", &self.tool)
            .field("problems", &self.problems)
            .field("feedback", &self.feedback)
            .finish_non_exhaustive()
    }
}

/// The mural without its title, author, notes and recorded figures: what
/// `optimal` and `difficulty` depend on.
fn mural_key(p: &Puzzle) -> String {
    let mut bare = p.clone();
    bare.title.clear();
    bare.author.clear();
    bare.notes = None;
    bare.optimal = None;
    bare.difficulty = None;
    bare.to_toml()
}

/// The cell a click plays a move to: a sowing's far cell, a sacrifice's target.
pub fn move_target(m: MuralMove) -> usize {
    match m {
        MuralMove::Sow { far, .. } => far as usize,
        MuralMove::Sacrifice { target, .. } => target as usize,
    }
}

/// "1 move", "5 moves".
pub fn moves_text(n: usize) -> String {
    if n == 1 {
        "1 move".into()
    } else {
        format!("{n} moves")
    }
}

impl MuralsModel {
    /// The model as saved; the puzzle folder is `puzzles/`.
    pub fn new(saved: MuralsSaved) -> MuralsModel {
        let mut m = MuralsModel {
            saved,
            puzzle: None,
            problems: Vec::new(),
            history: Undoer::default(),
            typing_since: None,
            figures_for: None,
            tool: Tool::Play,
            brush: Some((0, 2)),
            board_text: String::new(),
            play: HandPlay::default(),
            solution: None,
            step: 0,
            animating: false,
            last_anim: 0.0,
            count: None,
            running: None,
            waker: no_waker(),
            feedback: Feedback::default(),
            pending: None,
            show_notes: false,
            dir: PathBuf::from("puzzles"),
            files: Vec::new(),
            demo: false,
        };
        m.refresh_files();
        m.revalidate();
        if !m.is_dirty() {
            // Unsaved edits from before a restart: whether the figures
            // still hold is unknown, so they are not trusted.
            m.trust_figures();
        }
        m.start_play();
        m
    }

    /// Everything to persist.
    pub fn saved(&self) -> &MuralsSaved {
        &self.saved
    }

    /// Sets what background work calls to wake the UI.
    pub fn set_waker(&mut self, waker: Waker) {
        self.waker = waker;
    }

    // ----- files --------------------------------------------------------

    /// Browses puzzles in `dir`.
    pub fn set_dir(&mut self, dir: PathBuf) {
        self.dir = dir;
        self.refresh_files();
    }

    /// The folder puzzles are browsed in and saved to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Re-reads the list of puzzles in [`MuralsModel::dir`].
    pub fn refresh_files(&mut self) {
        self.files = files::list(&self.dir, "toml");
    }

    /// The puzzle files of the folder, sorted.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// The file the puzzle belongs to (empty: never saved).
    pub fn path(&self) -> &str {
        &self.saved.path
    }

    /// Whether the puzzle has changes that are not in a file (the example,
    /// untouched, has nothing to lose).
    pub fn is_dirty(&self) -> bool {
        self.saved.text != self.saved.disk_text
            && !(self.saved.path.is_empty() && self.saved.text == EXAMPLE)
    }

    /// Opens `path`, after asking when unsaved work would be lost.
    pub fn request_open(&mut self, path: &Path) {
        if self.saved.path == path.display().to_string() && !self.is_dirty() {
            return;
        }
        self.ask_or_do(Pending::Open(path.to_path_buf()));
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
        let what = match self.puzzle.as_ref().filter(|_| self.saved.path.is_empty()) {
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
            Pending::Generate => self.start_generate(),
            Pending::Overwrite(path) => self.save_to(path),
        }
    }

    /// Opens a puzzle file at once (an undoable edit), ready to play.
    pub fn open(&mut self, path: &Path) {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let path_text = path.display().to_string();
                self.saved.disk_text = text.clone();
                self.edit(|d| {
                    d.text = text;
                    d.path = path_text;
                    d.puzzle = None;
                });
                self.trust_figures();
                self.tool = Tool::Play;
                self.show_notes = false;
                self.start_play();
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                self.feedback.info(format!("opened {name}"));
            }
            Err(e) => self.feedback.error(format!("{}: {e}", path.display())),
        }
    }

    /// Saves to the puzzle's file.
    pub fn save(&mut self) {
        if let Err(why) = self.why_not_save() {
            self.feedback.error(why);
            return;
        }
        if self.saved.path.is_empty() {
            self.feedback
                .error("the puzzle has no file yet: use Save puzzle as");
            return;
        }
        self.save_to(PathBuf::from(&self.saved.path));
    }

    /// Saves under [`MuralsModel::save_name_mut`]'s name in the puzzle folder.
    pub fn save_as(&mut self) {
        if let Err(why) = self.why_not_save() {
            self.feedback.error(why);
            return;
        }
        match files::save_as_path(&self.dir, &self.saved.save_name, "toml", "my-mural.toml") {
            Ok(path) if path.exists() && path.display().to_string() != self.saved.path => {
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                self.pending = Some(Confirm::new(
                    "Replace the file?",
                    format!("{name} already exists in the puzzle folder. Saving replaces it."),
                    "Replace",
                    "Keep the file",
                    Pending::Overwrite(path.clone()),
                ));
            }
            Ok(path) => self.save_to(path),
            Err(e) => self.feedback.set(e),
        }
    }

    /// Why the puzzle cannot be saved now, if it cannot.
    pub fn why_not_save(&self) -> Result<(), String> {
        match self.problems.len() {
            0 => Ok(()),
            1 => Err("fix the puzzle's problem before saving".into()),
            n => Err(format!("fix the puzzle's {n} problems before saving")),
        }
    }

    fn save_to(&mut self, path: PathBuf) {
        match files::write(&path, &self.saved.text) {
            Ok(done) => {
                self.saved.disk_text = self.saved.text.clone();
                let path = path.display().to_string();
                if path != self.saved.path {
                    // "Save as" ties the text to another file: a step that
                    // undo can take back (the file stays written).
                    self.history.add_undo(&self.doc());
                    self.saved.path = path;
                    self.history.add_undo(&self.doc());
                }
                self.feedback.set(done);
                self.refresh_files();
            }
            Err(e) => self.feedback.set(e),
        }
    }

    // ----- the puzzle ---------------------------------------------------

    /// The puzzle text.
    pub fn text(&self) -> &str {
        &self.saved.text
    }

    /// The puzzle on the board: the text's, or the last one painted (which
    /// may be invalid).
    pub fn puzzle(&self) -> Option<&Puzzle> {
        self.puzzle.as_ref()
    }

    /// Problems of the current text (empty: valid).
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// Whether the text is a valid puzzle.
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty() && self.puzzle.is_some()
    }

    /// Whether the board can be painted: the text is valid, or it is what
    /// the board writes (so painting never overwrites a text with its own
    /// errors).
    pub fn can_paint(&self) -> bool {
        self.problems.is_empty()
            || self
                .puzzle
                .as_ref()
                .is_some_and(|p| p.to_toml() == self.saved.text)
    }

    /// The recorded `optimal` and `difficulty`, if the puzzle has either.
    pub fn figures(&self) -> Option<Figures> {
        let p = self.puzzle.as_ref().filter(|_| self.problems.is_empty())?;
        if p.optimal.is_none() && p.difficulty.is_none() {
            return None;
        }
        Some(Figures {
            optimal: p.optimal,
            difficulty: p.difficulty.clone(),
            stale: self.figures_for.as_deref() != Some(mural_key(p).as_str()),
        })
    }

    /// Takes the puzzle's recorded figures as found for it (a file's or the
    /// generator's).
    fn trust_figures(&mut self) {
        self.figures_for = self
            .puzzle
            .as_ref()
            .filter(|_| self.problems.is_empty())
            .map(mural_key);
    }

    /// Whether the finished count's figures differ from the recorded ones.
    pub fn counted_figures_differ(&self) -> bool {
        let (Some(p), Some((c, Some(r)))) = (&self.puzzle, &self.count) else {
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
        self.trust_figures();
        self.count = count;
        self.feedback
            .success("optimal and difficulty updated from the count");
    }

    /// Replaces the whole text (one edit).
    pub fn replace_text(&mut self, text: impl Into<String>) {
        let text = text.into();
        self.edit(|d| d.text = text);
    }

    /// The text as typed at `now` (seconds): a run of typing without a
    /// pause of a second is one undo step.
    pub fn type_text(&mut self, text: impl Into<String>, now: f64) {
        let text = text.into();
        if text == self.saved.text {
            return;
        }
        let in_run = self.typing_since.is_some_and(|t| now - t < TYPING_PAUSE);
        if !in_run {
            self.history.add_undo(&self.doc());
        }
        self.typing_since = Some(now);
        self.saved.text = text;
        if !self.tool.edits() {
            // Typing is editing (the text shows outside editing only while
            // it has errors): keep it shown once they are fixed.
            self.tool = Tool::Stacks;
        }
        self.changed_puzzle();
    }

    /// The document as the history keeps it.
    fn doc(&self) -> Doc {
        Doc {
            text: self.saved.text.clone(),
            puzzle: self.puzzle.clone(),
            path: self.saved.path.clone(),
        }
    }

    fn set_doc(&mut self, doc: Doc) {
        self.saved.text = doc.text;
        self.saved.path = doc.path;
        self.puzzle = doc.puzzle;
    }

    /// Records an edit of the document as one undo step.
    fn edit(&mut self, change: impl FnOnce(&mut Doc)) {
        let mut doc = self.doc();
        self.history.add_undo(&doc);
        change(&mut doc);
        self.set_doc(doc);
        if !self.text_is_puzzle() {
            self.puzzle = None;
        }
        self.changed_puzzle();
        self.history.add_undo(&self.doc());
        self.typing_since = None;
    }

    fn text_is_puzzle(&self) -> bool {
        self.puzzle
            .as_ref()
            .is_some_and(|p| p.to_toml() == self.saved.text)
    }

    /// Changes the board's puzzle and writes it as the text (one edit).
    fn edit_puzzle(&mut self, change: impl FnOnce(&mut Puzzle)) {
        let Some(mut p) = self.puzzle.clone() else {
            return;
        };
        change(&mut p);
        self.edit(|d| {
            d.text = p.to_toml();
            d.puzzle = Some(p);
        });
    }

    /// After any change of the document: problems, runs and messages of
    /// the old puzzle go.
    fn changed_puzzle(&mut self) {
        self.revalidate();
        self.reset_runs();
        self.feedback.changed();
        if self.tool == Tool::Solution {
            self.tool = Tool::Play;
        }
        self.start_play();
    }

    /// Re-reads the text: problems, and the puzzle when it is valid (an
    /// invalid text keeps the last puzzle: the board painting produced).
    fn revalidate(&mut self) {
        match Puzzle::from_toml(&self.saved.text) {
            Ok(p) => {
                self.problems.clear();
                self.board_text = p.board.text.clone();
                self.puzzle = Some(p);
            }
            Err(diags) => {
                let text = &self.saved.text;
                self.problems = diags
                    .iter()
                    .map(|d| {
                        let (line, col) = d.line_col(text);
                        Problem {
                            line,
                            col,
                            message: d.message.clone(),
                        }
                    })
                    .collect();
            }
        }
    }

    fn reset_runs(&mut self) {
        self.running = None;
        self.solution = None;
        self.count = None;
        self.step = 0;
        self.animating = false;
        self.play = HandPlay::default();
    }

    /// Whether there is an edit to undo / to redo.
    pub fn can_undo(&self) -> bool {
        self.history.has_undo(&self.doc())
    }
    pub fn can_redo(&self) -> bool {
        self.history.has_redo(&self.doc())
    }

    /// Takes back the last edit of the puzzle (text, board, file opened),
    /// restoring the board it had.
    pub fn undo_edit(&mut self) {
        if let Some(prev) = self.history.undo(&self.doc()).cloned() {
            self.restore(prev);
        }
    }

    /// Makes again the last edit undone.
    pub fn redo_edit(&mut self) {
        if let Some(next) = self.history.redo(&self.doc()).cloned() {
            self.restore(next);
        }
    }

    /// Puts back a document of the history, with the board it had (an
    /// invalid text keeps the board that painting produced).
    fn restore(&mut self, doc: Doc) {
        if doc.path != self.saved.path {
            self.saved.disk_text = std::fs::read_to_string(&doc.path).unwrap_or_default();
        }
        self.set_doc(doc);
        self.typing_since = None;
        self.changed_puzzle();
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

    /// Adds the next unused colour.
    pub fn add_colour(&mut self) {
        let Some(letter) = self
            .puzzle
            .as_ref()
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
        self.play.selected = None;
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
        if !self.can_paint() {
            self.feedback.error("fix the text's errors before painting");
            return;
        }
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
        let (Some(p), Some(state)) = (self.puzzle.clone(), self.play.state.clone()) else {
            self.feedback.error("fix the puzzle's problems first");
            return;
        };
        let name = p.board.name(cell);
        let mut moves = Vec::new();
        state.moves(&p.board, p.sacrifice, &mut moves);
        if let Some(sel) = self.play.selected {
            if let Some(&m) = moves
                .iter()
                .find(|m| m.from() == sel && move_target(**m) == cell)
            {
                self.play_move(m);
                return;
            }
            if sel == cell {
                self.play.selected = None;
                self.feedback.changed();
                return;
            }
            if !moves.iter().any(|m| m.from() == cell) {
                let from = p.board.name(sel);
                self.feedback.info(format!(
                    "{name} is not a move of {from}: click a dotted cell, or {from} again to let go"
                ));
                return;
            }
        }
        if moves.iter().any(|m| m.from() == cell) {
            self.play.selected = Some(cell);
            self.feedback.changed();
            return;
        }
        let why = if state.is_solved(&p.targets) {
            "the mural is solved: Restart to play it again".to_string()
        } else {
            match state.get(cell) {
                None => format!("{name} is empty: click a tower (a stack of two) to move it"),
                Some((_, 1)) => format!("{name} is a wall: only towers move"),
                Some(_) if p.sacrifice => format!(
                    "{name} cannot move: each sowing line is blocked and no wall of another colour is beside it"
                ),
                Some(_) => format!(
                    "{name} cannot move: each sowing line is blocked by a tower, another colour or the edge"
                ),
            }
        };
        self.feedback.info(why);
    }

    // ----- hand play ----------------------------------------------------

    /// Starts hand play from the puzzle's start.
    pub fn play_by_hand(&mut self) {
        if !self.is_valid() {
            self.feedback.error("fix the puzzle's problems first");
            return;
        }
        self.tool = Tool::Play;
        self.start_play();
        self.feedback.changed();
    }

    fn start_play(&mut self) {
        self.cancel_work(Work::Hint);
        self.play = HandPlay {
            state: self
                .puzzle
                .as_ref()
                .filter(|_| self.problems.is_empty())
                .map(|p| p.start.clone()),
            ..HandPlay::default()
        };
    }

    fn cancel_work(&mut self, work: Work) {
        if self.running.as_ref().is_some_and(|r| r.work == work) {
            self.running = None;
        }
    }

    /// Plays a legal move of the hand-played position.
    pub fn play_move(&mut self, m: MuralMove) {
        let Some(state) = &mut self.play.state else {
            return;
        };
        state.apply(m);
        self.play.played.push(m);
        self.play.undone.clear();
        self.after_move();
    }

    fn after_move(&mut self) {
        self.play.selected = None;
        self.play.hint = None;
        self.cancel_work(Work::Hint);
        self.feedback.changed();
    }

    fn replay(&mut self) {
        let Some(p) = &self.puzzle else { return };
        let mut s = p.start.clone();
        for &m in &self.play.played {
            s.apply(m);
        }
        self.play.state = Some(s);
        self.after_move();
    }

    /// Takes back the last move played by hand.
    pub fn undo_move(&mut self) {
        if let Some(m) = self.play.played.pop() {
            self.play.undone.push(m);
            self.replay();
        }
    }

    /// Plays again the last move taken back.
    pub fn redo_move(&mut self) {
        if let Some(m) = self.play.undone.pop() {
            self.play.played.push(m);
            self.replay();
        }
    }

    /// Back to the start, all moves forgotten.
    pub fn restart(&mut self) {
        if self.puzzle.is_none() {
            return;
        }
        self.play.played.clear();
        self.play.undone.clear();
        self.replay();
    }

    /// The moves played by hand.
    pub fn played(&self) -> &[MuralMove] {
        &self.play.played
    }

    /// Whether a move taken back can be played again.
    pub fn can_redo_move(&self) -> bool {
        !self.play.undone.is_empty()
    }

    /// The hand-played position.
    pub fn play_state(&self) -> Option<&State> {
        self.play.state.as_ref()
    }

    /// The tower selected to move.
    pub fn selected(&self) -> Option<usize> {
        self.play.selected
    }

    /// The hinted move, shown on the board.
    pub fn hint(&self) -> Option<MuralMove> {
        self.play.hint
    }

    /// Whether the hand-played position is solved; whether no move is left.
    pub fn play_outcome(&self) -> (bool, bool) {
        let (Some(p), Some(s)) = (&self.puzzle, &self.play.state) else {
            return (false, false);
        };
        let mut moves = Vec::new();
        s.moves(&p.board, p.sacrifice, &mut moves);
        (s.is_solved(&p.targets), moves.is_empty())
    }

    /// Cells a click plays to: the selected tower's moves and the hint's.
    pub fn move_targets(&self) -> Vec<usize> {
        let mut out = Vec::new();
        if self.tool != Tool::Play {
            return out;
        }
        if let (Some(p), Some(s), Some(sel)) = (&self.puzzle, &self.play.state, self.play.selected)
        {
            let mut moves = Vec::new();
            s.moves(&p.board, p.sacrifice, &mut moves);
            out.extend(
                moves
                    .into_iter()
                    .filter(|m| m.from() == sel)
                    .map(move_target),
            );
        }
        out.extend(self.play.hint.map(move_target));
        out
    }

    /// The position to draw and the move that led to it.
    pub fn shown_state(&self) -> Option<(State, Option<MuralMove>)> {
        let p = self.puzzle.as_ref()?;
        Some(match self.tool {
            Tool::Solution => {
                let mut s = p.start.clone();
                let mut last = None;
                if let Some(sol) = &self.solution {
                    for &m in sol.moves.iter().take(self.step) {
                        s.apply(m);
                        last = Some(m);
                    }
                }
                (s, last)
            }
            Tool::Play => (
                self.play.state.clone().unwrap_or_else(|| p.start.clone()),
                self.play.played.last().copied(),
            ),
            Tool::Stacks | Tool::Targets => (p.start.clone(), None),
        })
    }

    // ----- the solution ---------------------------------------------------

    /// The solver's last answer for this puzzle.
    pub fn solution(&self) -> Option<&Solution> {
        self.solution.as_ref()
    }

    /// How many moves of the solution the board shows.
    pub fn step(&self) -> usize {
        self.step
    }

    fn solution_len(&self) -> usize {
        self.solution
            .as_ref()
            .filter(|s| s.status == Status::Solved)
            .map_or(0, |s| s.moves.len())
    }

    /// Shows the position after `step` moves of the solution.
    pub fn set_step(&mut self, step: usize) {
        // The solver's message describes the whole solution: it stays.
        self.step = step.min(self.solution_len());
        self.animating = false;
    }

    /// One move forward / back in the solution.
    pub fn step_forward(&mut self) {
        self.set_step(self.step + 1);
    }
    pub fn step_back(&mut self) {
        self.set_step(self.step.saturating_sub(1));
    }
    /// The last position of the solution.
    pub fn step_last(&mut self) {
        self.set_step(self.solution_len());
    }

    /// Whether the solution plays itself.
    pub fn animating(&self) -> bool {
        self.animating
    }

    /// Starts or stops the animation (from the start when at the end).
    pub fn toggle_animation(&mut self) {
        self.animating = !self.animating;
        if self.animating && self.step == self.solution_len() {
            self.step = 0;
        }
    }

    /// The finished count of minimal solutions, with its rating.
    pub fn count(&self) -> Option<&(Count, Option<Rating>)> {
        self.count.as_ref()
    }

    // ----- notes ----------------------------------------------------------

    /// Whether the puzzle's notes (which may give the solution away) show.
    pub fn show_notes(&self) -> bool {
        self.show_notes
    }
    pub fn set_show_notes(&mut self, on: bool) {
        self.show_notes = on;
    }

    // ----- background work ----------------------------------------------

    /// The solver's budget in nodes.
    pub fn budget_mut(&mut self) -> &mut u64 {
        &mut self.saved.budget
    }

    /// The file name "Save puzzle as" writes in the puzzle folder.
    pub fn save_name_mut(&mut self) -> &mut String {
        &mut self.saved.save_name
    }

    /// The generator's settings: board, colours, sacrifice, difficulty
    /// ("any" or a band) and seed.
    pub fn generator_mut(&mut self) -> Generator<'_> {
        let s = &mut self.saved;
        Generator {
            board: &mut s.gen_board,
            colours: &mut s.gen_colours,
            sacrifice: &mut s.gen_sacrifice,
            difficulty: &mut s.gen_difficulty,
            seed: &mut s.gen_seed,
        }
    }

    /// Whether background work is running.
    pub fn is_busy(&self) -> bool {
        self.running.is_some()
    }

    /// The work running and its progress (nodes, depth).
    pub fn work(&self) -> Option<(Work, (u64, u32))> {
        self.running.as_ref().map(|r| (r.work, r.progress))
    }

    /// Stops the running work (a generation's result is dropped).
    pub fn cancel(&mut self) {
        let Some(r) = &self.running else { return };
        if r.work == Work::Generate {
            // The generator polls no cancel flag: forget its result.
            self.running = None;
            self.feedback.info("generation cancelled");
        } else {
            r.job.cancel();
        }
    }

    fn valid_puzzle(&mut self) -> Option<Puzzle> {
        if !self.is_valid() {
            self.feedback.error("fix the puzzle's problems first");
            return None;
        }
        if self.running.is_some() {
            self.feedback
                .error("wait for the running work, or cancel it");
            return None;
        }
        self.puzzle.clone()
    }

    /// Runs a search of the solver's on a worker thread, with its progress
    /// and cancel hooks wired to the model.
    fn spawn_search(
        &mut self,
        work: Work,
        thread: &str,
        p: Puzzle,
        run: impl FnOnce(&Puzzle, &dyn Handler<Progress>) -> Msg + Send + 'static,
    ) {
        let job = Job::spawn_waking(thread, self.waker.clone(), move |r| {
            let cancel = r.cancel_flag();
            let handler = cancel.on_progress(|p: &Progress| {
                r.send(Msg::Progress(p.nodes, p.bound));
            });
            r.send(run(&p, &handler));
        });
        self.running = Some(Running {
            work,
            job,
            progress: (0, 0),
        });
    }

    /// Solves the puzzle from its start in the background.
    pub fn start_solve(&mut self) {
        let Some(p) = self.valid_puzzle() else { return };
        let budget = self.saved.budget;
        self.solution = None;
        self.step = 0;
        self.set_tool(Tool::Solution);
        self.spawn_search(Work::Solve, "murus-solve", p, move |p, hooks| {
            Msg::Solved(murus_mural::solve(
                p,
                &p.start,
                Mode::Optimal,
                budget,
                hooks,
            ))
        });
    }

    /// Counts the minimal solutions and rates the puzzle in the background.
    pub fn start_count(&mut self) {
        let Some(p) = self.valid_puzzle() else { return };
        let budget = self.saved.budget;
        self.count = None;
        self.spawn_search(Work::Count, "murus-count", p, move |p, hooks| {
            let c = murus_mural::count(p, &p.start, budget, hooks);
            let rating = generate::rate(p, &c);
            Msg::Counted(c, rating)
        });
    }

    /// Looks for the next move of an optimal solution from the hand-played
    /// position in the background.
    pub fn start_hint(&mut self) {
        let Some(state) = self.play.state.clone() else {
            return;
        };
        let Some(p) = self.valid_puzzle() else { return };
        let budget = self.saved.budget;
        self.play.hint = None;
        self.feedback.changed();
        // `murus_mural::hint_for` takes no hooks; the solve it runs does, so
        // the hint can show progress and be cancelled.
        self.spawn_search(Work::Hint, "murus-hint", p, move |p, hooks| {
            Msg::Hint(murus_mural::solve(p, &state, Mode::Optimal, budget, hooks))
        });
    }

    fn start_generate(&mut self) {
        if self.running.is_some() {
            self.feedback
                .error("wait for the running work, or cancel it");
            return;
        }
        let s = &self.saved;
        let opts = Options {
            board: s.gen_board.trim().to_string(),
            colours: s.gen_colours,
            sacrifice: s.gen_sacrifice,
            difficulty: (s.gen_difficulty != "any").then(|| s.gen_difficulty.clone()),
            seed: s.gen_seed,
            budget: s.budget.min(GENERATOR_BUDGET),
        };
        let job = Job::spawn_waking("murus-generate", self.waker.clone(), move |r| {
            r.send(Msg::Generated(generate::generate(&opts, 1, &())));
        });
        self.running = Some(Running {
            work: Work::Generate,
            job,
            progress: (0, 0),
        });
    }

    /// Collects background results and advances an animation, at `now`
    /// (seconds). Returns when to be called again if nothing wakes the UI
    /// before (work running, an animation playing).
    pub fn poll(&mut self, now: f64) -> Option<Duration> {
        let mut again = None;
        if let Some(r) = &mut self.running {
            let msgs = r.job.poll();
            let finished = r.job.is_finished();
            let cancelled = r.job.is_cancelled();
            for m in msgs {
                self.receive(m, cancelled);
            }
            if finished {
                self.running = None;
            } else {
                again = Some(Duration::from_millis(100));
            }
        }
        if self.animating {
            if now - self.last_anim > ANIMATION_STEP {
                self.last_anim = now;
                if self.step < self.solution_len() {
                    self.step += 1;
                } else {
                    self.animating = false;
                }
            }
            again = Some(Duration::from_millis(100));
        }
        again
    }

    fn receive(&mut self, m: Msg, cancelled: bool) {
        match m {
            Msg::Progress(n, b) => {
                if let Some(r) = &mut self.running {
                    r.progress = (n, b);
                }
            }
            Msg::Solved(s) => {
                match s.status {
                    Status::Solved => self.feedback.success(format!(
                        "solved in {} ({} nodes)",
                        moves_text(s.moves.len()),
                        s.nodes
                    )),
                    Status::Unsolvable => self.feedback.error(s.verdict()),
                    Status::Unproven if cancelled => self
                        .feedback
                        .warning(format!("cancelled after {} nodes", s.nodes)),
                    Status::Unproven => self.feedback.error(format!(
                        "no answer within {} nodes: raise the budget",
                        s.nodes
                    )),
                }
                self.step = if self.demo { s.moves.len() / 2 } else { 0 };
                self.solution = Some(s);
            }
            Msg::Counted(c, r) => {
                let figures_agree = self.count_agrees(&c, r.as_ref());
                self.count = Some((c, r));
                if figures_agree {
                    self.trust_figures();
                }
                if cancelled {
                    self.feedback.warning("count cancelled");
                }
            }
            Msg::Hint(s) => self.receive_hint(&s, cancelled),
            Msg::Generated(g) => self.receive_generated(g),
        }
    }

    /// Whether a finished count confirms the recorded figures.
    fn count_agrees(&self, c: &Count, r: Option<&Rating>) -> bool {
        let (Some(p), Some(r)) = (&self.puzzle, r) else {
            return false;
        };
        c.status == Status::Solved
            && p.optimal.is_none_or(|o| o == r.length)
            && p.difficulty.as_deref().is_none_or(|d| d == r.band)
    }

    fn receive_hint(&mut self, s: &Solution, cancelled: bool) {
        let name = |m: MuralMove, p: &Option<Puzzle>| {
            p.as_ref().map(|p| m.notation(&p.board)).unwrap_or_default()
        };
        match (s.status, s.moves.first()) {
            (Status::Solved, Some(&m)) => {
                self.play.hint = Some(m);
                let n = name(m, &self.puzzle);
                self.feedback.info(format!("hint: {n}"));
            }
            (Status::Solved, None) => self.feedback.info("solved: no move is left to play"),
            (Status::Unsolvable, _) => self.feedback.error(format!(
                "this position cannot be solved any more: undo some moves ({})",
                s.verdict()
            )),
            (Status::Unproven, _) if cancelled => self.feedback.warning("hint cancelled"),
            (Status::Unproven, _) => self.feedback.error(format!(
                "no hint within {} nodes: raise the budget",
                s.nodes
            )),
        }
    }

    fn receive_generated(&mut self, g: Result<Vec<(Puzzle, Rating)>, String>) {
        match g {
            Ok(mut list) if !list.is_empty() => {
                let (mut p, rating) = list.remove(0);
                let seed = self.saved.gen_seed;
                p.title = format!("Generated {} {}, seed {seed}", p.board.text, rating.band);
                self.saved.disk_text.clear();
                self.edit(|d| {
                    d.text = p.to_toml();
                    d.puzzle = Some(p);
                    d.path.clear();
                });
                self.trust_figures();
                self.tool = Tool::Play;
                self.start_play();
                self.show_notes = false;
                self.feedback.success(format!(
                    "generated a {} puzzle ({}), seed {seed}",
                    rating.band,
                    moves_text(rating.length as usize)
                ));
                self.saved.gen_seed += 1;
            }
            Ok(_) => self.feedback.error("nothing generated"),
            Err(e) => self.feedback.error(e),
        }
    }

    // ----- feedback -------------------------------------------------------

    /// The panel's message about the current state.
    pub fn feedback(&self) -> &Feedback {
        &self.feedback
    }

    /// Example content for screenshots: the first puzzle, solved, the
    /// solution shown half played.
    pub fn demo(&mut self) {
        if let Some(f) = self.files.first().cloned() {
            self.open(&f);
        }
        self.demo = true;
        self.start_solve();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> MuralsModel {
        let mut m = MuralsModel::new(MuralsSaved::default());
        m.set_dir(PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../puzzles"
        )));
        m
    }

    fn finish(m: &mut MuralsModel) {
        let t = std::time::Instant::now();
        while m.is_busy() {
            assert!(t.elapsed().as_secs() < 60, "background work did not end");
            std::thread::sleep(Duration::from_millis(5));
            m.poll(0.0);
        }
    }

    fn cell(m: &MuralsModel, name: &str) -> usize {
        m.puzzle().unwrap().board.parse_cell(name).unwrap()
    }

    #[test]
    fn undo_restores_the_board_painting_produced_even_when_invalid() {
        let mut m = model();
        m.set_tool(Tool::Stacks);
        m.set_brush(Some((0, 1)));
        m.click(cell(&m, "e1"), false); // an extra wall: invalid
        assert!(!m.problems().is_empty());
        let walled = m.puzzle().unwrap().to_toml();
        m.set_tool(Tool::Targets);
        m.click(cell(&m, "b1"), false); // one more target: valid again
        assert!(m.is_valid());
        m.undo_edit();
        assert_eq!(m.puzzle().unwrap().to_toml(), walled);
        assert!(!m.problems().is_empty());
        assert!(m.can_paint(), "painting goes on from the restored board");
        m.undo_edit();
        assert_eq!(m.text(), EXAMPLE);
        assert!(!m.can_undo());
        m.redo_edit();
        assert_eq!(m.puzzle().unwrap().to_toml(), walled);
    }

    #[test]
    fn a_run_of_typing_is_one_undo_step() {
        let mut m = model();
        let a = EXAMPLE.replace("Leapfrog", "Leapfro");
        let b = EXAMPLE.replace("Leapfrog", "Leapfr");
        m.type_text(a.clone(), 10.0);
        m.type_text(b.clone(), 10.5);
        m.type_text(EXAMPLE.replace("Leapfrog", "Leap"), 12.0);
        assert_eq!(m.tool(), Tool::Stacks, "typing is editing");
        m.undo_edit();
        assert_eq!(m.text(), b, "the pause ended the first run");
        m.undo_edit();
        assert_eq!(m.text(), EXAMPLE);
    }

    #[test]
    fn figures_go_stale_on_an_edit_and_fresh_on_undo_or_a_count() {
        let mut m = model();
        let f = m.files()[1].clone();
        m.open(&f);
        assert_eq!(m.figures().map(|f| f.stale), Some(false));
        m.set_tool(Tool::Targets);
        m.click(cell(&m, "a1"), false);
        m.click(cell(&m, "a5"), false);
        assert!(m.is_valid());
        assert_eq!(m.figures().map(|f| f.stale), Some(true));
        m.undo_edit();
        m.undo_edit();
        assert_eq!(m.figures().map(|f| f.stale), Some(false));
        // Another mural with figures typed in: stale until a count agrees.
        m.replace_text(format!("{FORK}optimal = 1\n"));
        assert_eq!(m.figures().map(|f| f.stale), Some(true));
        m.start_count();
        finish(&mut m);
        assert_eq!(
            m.figures().map(|f| f.stale),
            Some(false),
            "the count agrees"
        );
        assert!(
            m.counted_figures_differ(),
            "it can add the missing difficulty"
        );
        // A count that disagrees offers its figures.
        m.replace_text(format!("{FORK}optimal = 3\n"));
        m.start_count();
        finish(&mut m);
        assert!(m.counted_figures_differ());
        m.use_counted_figures();
        let f = m.figures().unwrap();
        assert_eq!((f.optimal, f.stale), (Some(1), false));
        assert!(m.text().contains("optimal = 1"));
    }

    #[test]
    fn save_as_over_an_existing_file_asks_first() {
        let dir = std::env::temp_dir().join(format!("murus-murals-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut m = model();
        m.set_dir(dir.clone());
        *m.save_name_mut() = "mine".into();
        m.save_as();
        assert!(m.pending().is_none(), "a new file is just written");
        assert_eq!(
            std::fs::read_to_string(dir.join("mine.toml")).unwrap(),
            EXAMPLE
        );
        assert!(!m.is_dirty());
        m.replace_text(FORK);
        *m.save_name_mut() = "other".into();
        m.save_as();
        *m.save_name_mut() = "mine".into();
        m.replace_text(FORK.replace("Fork", "Fork 2"));
        m.save_as();
        assert!(
            m.pending().is_some(),
            "mine.toml exists and is not the puzzle's file"
        );
        m.answer(Answer::Keep);
        assert_eq!(
            std::fs::read_to_string(dir.join("mine.toml")).unwrap(),
            EXAMPLE
        );
        m.save_as();
        let go = m.pending().unwrap().action.clone();
        m.answer(Answer::Go(go));
        assert!(
            std::fs::read_to_string(dir.join("mine.toml"))
                .unwrap()
                .contains("Fork 2")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// One tower on c1 of a 5x1 board: `c1-a1` solves it.
    const FORK: &str =
        "title = \"Fork\"\nboard = \"5x1\"\nstart = \"2r22\"\ntargets = [\"a1\", \"b1\"]\n";

    #[test]
    fn messages_belong_to_the_state_they_describe() {
        let mut m = model();
        let f = m.files()[0].clone();
        m.open(&f);
        assert!(m.feedback().text().unwrap().starts_with("opened"));
        m.click(cell(&m, "b1"), false);
        assert_eq!(
            m.feedback().text(),
            Some("b1 is empty: click a tower (a stack of two) to move it")
        );
        m.restart();
        assert_eq!(m.feedback().text(), None);
        m.start_hint();
        finish(&mut m);
        assert!(m.feedback().text().unwrap().starts_with("hint: "));
        m.restart();
        assert_eq!(m.feedback().text(), None, "restart clears the hint");
        assert_eq!(m.hint(), None);
    }

    #[test]
    fn opening_over_unsaved_work_asks_and_keeping_keeps_it() {
        let mut m = model();
        let files = m.files().to_vec();
        m.request_open(&files[0]);
        assert!(m.pending().is_none(), "the untouched example is no loss");
        m.set_tool(Tool::Targets);
        m.click(cell(&m, "c3"), false);
        let edited = m.text().to_string();
        m.request_open(&files[1]);
        assert!(m.pending().is_some());
        m.answer(Answer::Keep);
        assert_eq!(m.text(), edited);
        m.request_open(&files[1]);
        let go = m.pending().unwrap().action.clone();
        m.answer(Answer::Go(go));
        assert_eq!(m.path(), files[1].display().to_string());
        assert_eq!(m.tool(), Tool::Play, "opened ready to play");
    }

    #[test]
    fn a_proven_unsolvable_mural_reads_as_such() {
        let mut m = model();
        // Every cell a target, although the last move always empties a cell.
        m.replace_text(
            "title = \"Full\"\nboard = \"4x1\"\nstart = \"r2r22\"\ntargets = [\"a1\", \"b1\", \"c1\", \"d1\"]\n",
        );
        assert!(m.is_valid(), "{:?}", m.problems());
        m.start_solve();
        finish(&mut m);
        let msg = m.feedback().current().unwrap();
        assert!(msg.is_error());
        assert!(
            msg.text
                .starts_with(&murus_mural::verdict(Status::Unsolvable, None)),
            "{}",
            msg.text
        );
        assert!(!msg.text.contains("budget"));
    }
}
