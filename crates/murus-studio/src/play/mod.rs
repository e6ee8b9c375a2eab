//! The Play panel: humans and bots, click-to-move, move list, undo/redo,
//! records and positions, and a set-up mode that explains what is wrong.
//!
//! [`PlayModel`] holds the state and every action, split by job (model.rs:
//! the game and moving through it; bots.rs: seats and the bots' searches on
//! its worker; clicks.rs; records.rs: positions, records and replacing the
//! game; setup.rs: the position editor); tests drive it without egui.
//! [`Analysis`] (analysis.rs) is the live analysis and the game review, on
//! workers of their own. [`Exports`] (export.rs) draws and writes diagrams
//! and GIFs on a worker of its own. [`PlayPanel`] adds the view (view.rs,
//! analysis_view.rs): text buffers, the drawing, and the [`Action`]s the
//! user asks for, applied after the frame.
//!
//! # Moving through a game
//! The game is a tree of moves: a different move from an earlier ply opens
//! a variation, shown indented after the move it replaces, and nothing is
//! dropped. The list numbers the moves as the record does (`1.`, `1...`)
//! and brackets each variation. ← and → step one ply along the line, ↑ and
//! ↓ go to the previous and next move played instead at this ply; a click
//! on the move list goes to that move, and its context menu (or the
//! buttons under the list) promotes its variation or deletes it and what
//! follows. The glyph buttons and the comment field under the list
//! annotate the move shown.
//!
//! Every change to the tree is a step of one undo history (edits.rs),
//! kept across restarts: Undo (the button under the list, Ctrl+Z) takes
//! back the last move played (on back to a ply where a human is to move;
//! the move stays ahead in the tree), deletion, promotion, glyph, comment
//! or the review's marks; Redo (Ctrl+Shift+Z or Ctrl+Y) makes it again.
//! The keys act only while no text field has focus (a text field keeps its
//! own undo and cursor keys). Bots wait while the board is not at the end
//! of the line; "Play on from here" lets them play, their move opening a
//! variation.
//!
//! # Results
//! A record's result that the rules do not give (a resignation, a draw
//! agreed) is part of the game: at the end of the main line the game is
//! over (status, move list, no further move), the record saves it, and an
//! edit that changes the main line drops it with a message, undoably.
//!
//! # Analysis
//! The "Analysis" toggle searches the position shown in the background:
//! an evaluation bar beside the board, the best line drawn on it, every
//! legal move's score in the cells' hover texts. "Analyze game" searches
//! every position of the line, graphs the evaluation and lists the
//! blunders. See [`analysis`] for budgets and points of view.

pub mod analysis;
mod analysis_view;
mod bots;
mod clicks;
mod edits;
mod export;
mod model;
mod records;
mod setup;
mod tree_view;
mod variations;
mod view;

use std::path::Path;

use murus_engine::{Glyph, Move, NodeId, Phase, Variant};
use serde::{Deserialize, Serialize};

pub use analysis::Analysis;
pub use bots::{BotReply, BotTurn, Seat, Thinking};
pub use edits::{SavedHistory, SavedStep};
pub use export::{DiagramJob, EXPORT_ARROWS, ExportMsg, Exports, GifJob};
pub use model::{PlayModel, possessive};
pub use records::Replacement;
pub use setup::SetupEdit;
pub use variations::ListEntry;

use crate::dialog::Answer;
use crate::files::PickRequest;
use crate::worker::{Waker, no_waker};
use crate::{Command, Then};

/// Seat choices offered in the seat menus (any other spec can be typed).
pub const SEAT_CHOICES: [&str; 9] = [
    "human",
    "easy",
    "medium",
    "hard",
    "expert",
    "random",
    "greedy",
    "alphabeta:20000",
    "mcts",
];

/// What Play keeps across restarts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlaySaved {
    /// Source of the variant being played.
    pub variant_source: String,
    /// Per seat (colour at the start): `human` or a bot spec, as typed.
    pub seats: Vec<String>,
    /// The start position string, when not the variant's start.
    pub start: Option<String>,
    /// The moves played, in notation.
    pub moves: Vec<String>,
    /// Whether the board is turned by 180°.
    pub flipped: bool,
    /// The record file last opened or saved (the dialogs start there).
    pub record_path: String,
    /// Seeds the bots; bumped for every bot move.
    pub seed: u64,
    /// Whether the live analysis is on.
    pub analysis: bool,
    /// The moves of the game as last started, loaded or saved (the moves
    /// after them are unsaved work), as older versions saved them.
    pub kept: Vec<String>,
    /// Every move with its variations, glyphs and comments (older versions
    /// saved only `moves`).
    pub tree: Option<murus_engine::Record>,
    /// The tree as last started, loaded or saved: what it lacks of `tree`
    /// is unsaved work.
    pub kept_tree: Option<murus_engine::Record>,
    /// The move tree's undo history.
    pub history: SavedHistory,
}

impl Default for PlaySaved {
    fn default() -> Self {
        PlaySaved {
            variant_source: Variant::standard().source().to_string(),
            seats: vec!["human".into(), "easy".into()],
            start: None,
            moves: Vec::new(),
            flipped: false,
            record_path: "game.mgn".into(),
            seed: 1,
            analysis: false,
            kept: Vec::new(),
            tree: None,
            kept_tree: None,
            history: SavedHistory::default(),
        }
    }
}

/// What the user asked for in the Play panel, applied after the frame.
#[derive(Clone, Debug)]
pub enum Action {
    /// The answer to the question before the game is replaced.
    Answer(Box<Answer<Replacement>>),
    NewGame,
    SwitchVariant(Variant),
    Undo,
    Redo,
    /// One ply back (←).
    Back,
    /// One ply forward (→).
    Forward,
    /// Show the position after this many plies of the line.
    JumpTo(usize),
    /// Show the position after this move of the tree.
    GoTo(NodeId),
    /// The previous (-1) or next (1) variation at the ply shown (↑, ↓).
    SwitchVariation(isize),
    /// Move this move's variation one place up.
    Promote(NodeId),
    /// Delete this move and the moves after it.
    DeleteFrom(NodeId),
    SetGlyph(NodeId, Option<Glyph>),
    /// Set the comment of the move shown to the comment field's text.
    SetComment(NodeId),
    /// Drop the moves ahead so that bots play on.
    PlayOn,
    Flip,
    SetSeat(usize, Seat),
    SetPaused(bool),
    /// The bot thinking plays its best move so far.
    MoveNow,
    Click(usize),
    /// A right click: erases in set-up mode.
    Erase(usize),
    Play(Move),
    /// Play the move typed in the move field.
    PlayTyped,
    Choose(Move),
    StartSetup,
    CancelSetup,
    FinishSetup,
    SetBrush(Option<(usize, u8)>),
    SetSetupTurn(usize),
    SetSetupPhase(Phase),
    SetSetupOut(usize, bool),
    SetSetupTaken(usize, u32),
    ClearSetup,
    ResetSetup,
    /// The user changed the text of the position or record field: a
    /// message about the text as it was goes.
    FieldEdited,
    /// Load the position typed in the position field.
    LoadPosition,
    /// Load the record pasted in the record field.
    LoadRecordText,
    /// Read the record field as a game as printed.
    LoadPrintedText,
    CopyPosition,
    CopyRecord,
    /// Ask for a file and do `Then` with it.
    Pick(PickRequest, Then),
    SetAnalysis(bool),
    StartReview,
    CancelReview,
    /// Mark the review's blunders in the move tree.
    MarkBlunders,
    /// Stop the export being written.
    CancelExport,
}

/// The Play panel: the model plus what only the view needs.
#[derive(Debug)]
pub struct PlayPanel {
    model: PlayModel,
    /// Per seat, the text of its spec field (a spec being typed becomes the
    /// seat once it parses).
    seat_text: Vec<String>,
    move_text: String,
    position_text: String,
    /// The position `position_text` was last written from.
    position_shown: Option<murus_engine::Position>,
    record_text: String,
    record_path: String,
    flipped: bool,
    /// Diagrams and GIFs, written in the background.
    exports: Exports,
    /// The node the move list last scrolled to.
    list_node: Option<NodeId>,
    /// The comment field, and the node it edits.
    comment_text: String,
    comment_node: Option<NodeId>,
    /// The live analysis and the game review.
    analysis: Analysis,
}

impl PlayPanel {
    /// The panel of a saved state, its background work waking nobody
    /// (tests step its frames).
    pub fn new(saved: PlaySaved) -> PlayPanel {
        PlayPanel::with_waker(saved, no_waker())
    }

    /// The panel of a saved state, its background work (bots, analysis)
    /// calling `waker` when it reports.
    pub fn with_waker(saved: PlaySaved, waker: Waker) -> PlayPanel {
        let model = PlayModel::with_waker(&saved, waker.clone());
        let exports = Exports::new(waker.clone());
        let mut analysis = Analysis::new(waker);
        analysis.set_on(saved.analysis);
        PlayPanel {
            analysis,
            seat_text: saved.seats.clone(),
            move_text: String::new(),
            position_text: String::new(),
            position_shown: None,
            record_text: String::new(),
            record_path: saved.record_path,
            flipped: saved.flipped,
            list_node: None,
            exports,
            comment_text: String::new(),
            comment_node: None,
            model,
        }
    }

    /// The state and its actions.
    pub fn model(&self) -> &PlayModel {
        &self.model
    }
    /// The state and its actions, to change.
    pub fn model_mut(&mut self) -> &mut PlayModel {
        &mut self.model
    }

    /// Everything to persist now.
    pub fn saved(&self) -> PlaySaved {
        let record = self.model.game().record();
        let seats = self
            .model
            .seats()
            .iter()
            .enumerate()
            .map(|(i, seat)| match self.seat_text.get(i) {
                // The text as typed ("easy"), when it is what the seat is.
                Some(text) if text.parse::<Seat>().as_ref() == Ok(seat) => text.trim().to_string(),
                _ => seat.to_string(),
            })
            .collect();
        PlaySaved {
            variant_source: self.model.variant().source().to_string(),
            seats,
            start: record.start,
            moves: record.moves,
            flipped: self.flipped,
            record_path: self.record_path.clone(),
            seed: self.model.seed(),
            analysis: self.analysis.is_on(),
            kept: Vec::new(),
            tree: Some(self.model.record()),
            kept_tree: Some(self.model.kept_record()),
            history: self.model.saved_history(),
        }
    }

    /// The analysis (live and review).
    pub fn analysis(&self) -> &Analysis {
        &self.analysis
    }
    /// The analysis, to change (its budgets, in tests).
    pub fn analysis_mut(&mut self) -> &mut Analysis {
        &mut self.analysis
    }

    /// A new game of `variant`, after asking when moves of the game in
    /// progress would be lost.
    pub fn request_variant(&mut self, variant: Variant) {
        self.model.set_variant(variant);
    }

    /// Opens a game given as moves in notation (the Lab's "Open #N"), after
    /// asking when moves of the game in progress would be lost. The seats
    /// stay as they are.
    pub fn open_moves(&mut self, variant: Variant, moves: &[String], label: &str) {
        self.model.open_moves(variant, moves, label);
    }

    /// Opens the record at `path` (a file picked), after asking when moves
    /// would be lost.
    pub fn open_record(&mut self, path: &Path) {
        if self.model.open_record(path) {
            self.record_path = path.display().to_string();
        }
    }

    /// Saves the record of the game to `path` (a file picked).
    pub fn save_record(&mut self, path: &Path) {
        if self.model.save_record(path) {
            self.record_path = path.display().to_string();
        }
    }

    /// Loads the position held in the file at `path`, after asking when
    /// moves would be lost.
    pub fn open_position(&mut self, path: &Path) {
        self.model.open_position(path);
    }

    /// Saves the position string of what the board shows to `path`.
    pub fn save_position(&mut self, path: &Path) {
        self.model.save_position(path);
    }

    /// Starts exporting the diagram of the board to `path` (SVG or PNG),
    /// with the numbered arrows of the analysis' best line when asked and
    /// shown; its message comes when it is written.
    pub fn export_diagram(&mut self, path: &Path) {
        let line = if self.exports.with_arrows() {
            self.analysis
                .current(&self.model)
                .map(|e| e.pv().to_vec())
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let job = DiagramJob::of(&self.model, &line);
        if let Err(e) = self.exports.diagram(job, path) {
            self.model.feedback.error(e);
        }
    }

    /// Starts exporting the line shown as an animated GIF to `path`; the
    /// frames done show as it goes, its message comes when it is written.
    pub fn export_gif(&mut self, path: &Path) {
        let started = GifJob::of(&self.model).and_then(|job| self.exports.gif(job, path));
        if let Err(e) = started {
            self.model.feedback.error(e);
        }
    }

    /// The exports (the one being written, and whether diagrams have
    /// arrows).
    pub fn exports(&self) -> &Exports {
        &self.exports
    }

    /// Whether a bot is thinking.
    pub fn is_thinking(&self) -> bool {
        self.model.thinking().is_some()
    }

    /// Whether the analysis or a game review is searching.
    pub fn is_analysing(&self) -> bool {
        self.analysis.is_searching() || self.analysis.is_reviewing()
    }

    /// Example content for screenshots: analysis on and the game reviewed.
    pub fn demo_analysis(&mut self) {
        self.analysis.set_on(true);
        self.analysis.start_review(&self.model);
    }

    /// Takes in the bots' moves and starts bots whose turn it is, then
    /// collects and starts the analysis the state calls for (called every
    /// frame by the app, whichever panel is shown; never waits).
    pub fn poll(&mut self) {
        self.model.poll_bots();
        self.analysis.drive(&self.model);
        match self.exports.poll() {
            Some(Ok(said)) => self.model.feedback.info(said),
            Some(Err(e)) => self.model.feedback.error(e),
            None => {}
        }
    }

    /// Does what the user asked for; files to pick become commands.
    pub fn apply(&mut self, action: Action, commands: &mut Vec<Command>) {
        let m = &mut self.model;
        match action {
            Action::Answer(a) => m.answer(*a),
            Action::NewGame => m.new_game(),
            Action::SwitchVariant(v) => m.set_variant(v),
            Action::Undo => m.undo(),
            Action::Redo => m.redo(),
            Action::Back => {
                m.back();
            }
            Action::Forward => {
                m.forward();
            }
            Action::JumpTo(ply) => m.jump_to(ply),
            Action::GoTo(node) => m.go_to(node),
            Action::SwitchVariation(step) => {
                m.switch_variation(step);
            }
            Action::Promote(node) => {
                m.promote(node);
            }
            Action::DeleteFrom(node) => m.delete_from(node),
            Action::SetGlyph(node, glyph) => m.set_glyph(node, glyph),
            Action::SetComment(node) => m.set_comment(node, &self.comment_text),
            Action::PlayOn => m.play_on_from_here(),
            Action::Flip => self.flipped = !self.flipped,
            Action::SetSeat(p, seat) => m.set_seat(p, seat),
            Action::SetPaused(p) => m.set_paused(p),
            Action::MoveNow => m.move_now(),
            Action::Click(c) => m.click(c),
            Action::Erase(c) => m.edit_setup(|e, v| e.paint(v, c, None)),
            Action::Play(mv) => {
                m.play(mv);
            }
            Action::PlayTyped => {
                if m.play_text(&self.move_text) {
                    self.move_text.clear();
                }
            }
            Action::Choose(mv) => {
                m.choose(mv);
            }
            Action::StartSetup => m.start_setup(),
            Action::CancelSetup => m.cancel_setup(),
            Action::FinishSetup => {
                m.finish_setup();
            }
            Action::SetBrush(b) => m.edit_setup(|e, _| e.set_brush(b)),
            Action::SetSetupTurn(p) => m.edit_setup(|e, v| e.set_turn(v, p)),
            Action::SetSetupPhase(ph) => m.edit_setup(|e, v| e.set_phase(v, ph)),
            Action::SetSetupOut(p, out) => m.edit_setup(|e, v| e.set_out(v, p, out)),
            Action::SetSetupTaken(p, n) => m.edit_setup(|e, v| e.set_taken(v, p, n)),
            Action::ClearSetup => m.edit_setup(SetupEdit::clear),
            Action::ResetSetup => m.edit_setup(SetupEdit::reset),
            Action::FieldEdited => m.field_edited(),
            // The text stays as typed when it is wrong, so it can be fixed.
            Action::LoadPosition => {
                m.load_position(&self.position_text);
            }
            Action::LoadRecordText => {
                m.load_record(&self.record_text);
            }
            Action::LoadPrintedText => {
                m.load_printed(&self.record_text);
            }
            // Copied by the view, which has the clipboard.
            Action::CopyPosition | Action::CopyRecord => {}
            Action::Pick(request, then) => commands.push(Command::Pick { request, then }),
            Action::SetAnalysis(on) => self.analysis.set_on(on),
            Action::StartReview => self.analysis.start_review(&self.model),
            Action::CancelReview => self.analysis.cancel_review(),
            Action::CancelExport => self.exports.cancel(),
            Action::MarkBlunders => {
                let marks: Vec<(usize, Vec<Move>)> = self
                    .analysis
                    .review(&self.model)
                    .map(|r| {
                        r.blunders()
                            .iter()
                            .map(|b| (b.index, r.best_line(b.index).to_vec()))
                            .collect()
                    })
                    .unwrap_or_default();
                self.model.mark_blunders(&marks);
            }
        }
    }

    /// Keeps the seat fields in step with the model: a field whose text is a
    /// valid spec other than its seat (the model changed) shows the seat; a
    /// field being typed (not a valid spec yet) is left alone.
    fn sync_seat_text(&mut self) {
        let seats = self.model.seats();
        self.seat_text.resize(seats.len(), "human".into());
        for (text, seat) in self.seat_text.iter_mut().zip(seats) {
            if text.parse::<Seat>().is_ok_and(|s| s != *seat) {
                *text = seat.to_string();
            }
        }
    }
}
