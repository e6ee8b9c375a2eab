//! The Play panel: humans and bots, click-to-move, move list, undo/redo,
//! records and positions, and a set-up mode that explains what is wrong.
//!
//! [`PlayModel`] (model/) holds the state, in parts that own theirs, and
//! the actions that need several of them; tests drive it without egui.
//! The parts: [`GameCursor`] (cursor.rs: the variant, the move tree, the
//! node shown and the game up to it, moving through the tree, the move
//! list), [`PlayGame`] (game/: the cursor with the record's notes, the
//! saved state, the tree's edits and their undo history), [`PlaySeats`]
//! (seats.rs: who plays each colour, the bots' searches on their worker),
//! [`BoardPick`] (model/clicks.rs: the selection and the move chooser) and
//! [`SetupEdit`] (setup.rs: the position editor). [`Replacement`]
//! (model/records.rs) is a game read to replace the one in progress.
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
mod cursor;
mod export;
mod game;
mod model;
mod seats;
mod setup;
mod tree_view;
mod view;

use std::path::Path;

use murus_engine::{Glyph, Move, NodeId, Phase, Variant};
use serde::{Deserialize, Serialize};

pub use analysis::Analysis;
pub use cursor::{GameCursor, ListEntry};
pub use export::{DiagramJob, EXPORT_ARROWS, ExportMsg, Exports, GifJob};
pub use game::{BETTER_LINE, PlayGame, SavedHistory, SavedStep, TreeUndo, result_words};
pub use model::{BoardPick, PlayModel, Replacement, describe_move, possessive};
pub use seats::{BotReply, BotTurn, PlaySeats, Seat, Thinking};
pub use setup::SetupEdit;

use crate::dialog::Answer;
use crate::files::PickRequest;
use crate::worker::{Waker, no_waker};
use crate::{Command, Then, files};

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
    /// Open "Share for playtesting…" for the variant played.
    Share,
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
        let game = self.model.game();
        let record = game.cursor().game().record();
        let seats = self
            .model
            .seats()
            .all()
            .iter()
            .enumerate()
            .map(|(i, seat)| match self.seat_text.get(i) {
                // The text as typed ("easy"), when it is what the seat is.
                Some(text) if text.parse::<Seat>().as_ref() == Ok(seat) => text.trim().to_string(),
                _ => seat.to_string(),
            })
            .collect();
        PlaySaved {
            variant_source: game.cursor().variant().source().to_string(),
            seats,
            start: record.start,
            moves: record.moves,
            flipped: self.flipped,
            record_path: self.record_path.clone(),
            seed: self.model.seats().seed(),
            analysis: self.analysis.is_on(),
            kept: Vec::new(),
            tree: Some(game.record()),
            kept_tree: Some(game.kept_record()),
            history: game.history().saved(game.cursor()),
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
        self.model.open(|_| Ok(Replacement::switch(variant)));
    }

    /// Opens a game given as moves in notation (the Lab's "Open #N"), after
    /// asking when moves of the game in progress would be lost. The seats
    /// stay as they are.
    pub fn open_moves(&mut self, variant: Variant, moves: &[String], label: &str) {
        self.model
            .open(|_| Replacement::moves(variant, moves, label));
    }

    /// Opens the record at `path` (a file picked), after asking when moves
    /// would be lost.
    pub fn open_record(&mut self, path: &Path) {
        if self.model.open(|v| Replacement::record_file(v, path)) {
            self.record_path = path.display().to_string();
        }
    }

    /// Saves the record of the game to `path` (a file picked).
    pub fn save_record(&mut self, path: &Path) {
        if self.model.act(|g| g.save_record(path)) {
            self.record_path = path.display().to_string();
        }
    }

    /// Loads the position held in the file at `path`, after asking when
    /// moves would be lost.
    pub fn open_position(&mut self, path: &Path) {
        self.model.open(|v| Replacement::position_file(v, path));
    }

    /// Saves the position string of what the board shows to `path`.
    pub fn save_position(&mut self, path: &Path) {
        match self.model.position_text() {
            Ok(text) => {
                let said =
                    files::write(path, &format!("{text}\n")).unwrap_or_else(crate::Message::from);
                self.model.feedback_mut().set(said);
            }
            Err(why) => self.model.feedback_mut().error(why),
        }
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
            self.model.feedback_mut().error(e.to_string());
        }
    }

    /// Starts exporting the line shown as an animated GIF to `path`; the
    /// frames done show as it goes, its message comes when it is written.
    pub fn export_gif(&mut self, path: &Path) {
        let started = GifJob::of(&self.model).and_then(|job| self.exports.gif(job, path));
        if let Err(e) = started {
            self.model.feedback_mut().error(e.to_string());
        }
    }

    /// The exports (the one being written, and whether diagrams have
    /// arrows).
    pub fn exports(&self) -> &Exports {
        &self.exports
    }

    /// Whether a bot is thinking.
    pub fn is_thinking(&self) -> bool {
        self.model.seats().thinking().is_some()
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
            Some(Ok(said)) => self.model.feedback_mut().info(said),
            Some(Err(e)) => self.model.feedback_mut().error(e.to_string()),
            None => {}
        }
    }

    /// Does what the user asked for; files to pick become commands.
    pub fn apply(&mut self, action: Action, commands: &mut Vec<Command>) {
        let m = &mut self.model;
        match action {
            Action::Answer(a) => m.answer(*a),
            Action::NewGame => {
                m.open(|v| Ok(Replacement::new_game(v)));
            }
            Action::SwitchVariant(v) => {
                m.open(|_| Ok(Replacement::switch(v)));
            }
            Action::Undo => m.undo(),
            Action::Redo => m.redo(),
            Action::Back => {
                m.act(|g| g.cursor_mut().back());
            }
            Action::Forward => {
                m.act(|g| g.cursor_mut().forward());
            }
            Action::JumpTo(ply) => m.act(|g| g.cursor_mut().jump_to(ply)),
            Action::GoTo(node) => m.act(|g| g.cursor_mut().go_to(node)),
            Action::SwitchVariation(step) => {
                m.act(|g| g.cursor_mut().switch_variation(step));
            }
            Action::Promote(node) => {
                m.act(|g| g.promote(node));
            }
            Action::DeleteFrom(node) => m.act(|g| g.delete_from(node)),
            Action::SetGlyph(node, glyph) => m.act(|g| g.set_glyph(node, glyph)),
            Action::SetComment(node) => m.act(|g| g.set_comment(node, &self.comment_text)),
            Action::PlayOn => m.act(PlayGame::play_on_from_here),
            Action::Flip => self.flipped = !self.flipped,
            Action::SetSeat(p, seat) => m.set_seat(p, seat),
            Action::SetPaused(p) => m.set_paused(p),
            Action::MoveNow => m.move_now(),
            Action::Click(c) => m.click(c),
            Action::Erase(c) => m.edit_setup(|e, v| e.paint(v, c, None)),
            Action::Play(mv) => {
                m.act(|g| g.play(mv));
            }
            Action::PlayTyped => {
                if m.act(|g| g.play_text(&self.move_text)) {
                    self.move_text.clear();
                }
            }
            Action::Choose(mv) => {
                if m.pick().offers(mv) {
                    m.act(|g| g.play(mv));
                }
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
            Action::FieldEdited => m.feedback_mut().changed(),
            // The text stays as typed when it is wrong, so it can be fixed.
            Action::LoadPosition => {
                m.open(|v| Replacement::position(v, &self.position_text));
            }
            Action::LoadRecordText => {
                m.open(|v| Replacement::record(v, &self.record_text));
            }
            Action::LoadPrintedText => {
                m.open(|v| Replacement::printed(v, &self.record_text));
            }
            // Copied by the view, which has the clipboard.
            Action::CopyPosition | Action::CopyRecord => {}
            Action::Pick(request, then) => commands.push(Command::Pick { request, then }),
            Action::Share => {
                let v = self.model.game().cursor().variant().clone();
                commands.push(Command::Share(v));
            }
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
                self.model.act(|g| g.mark_blunders(&marks));
            }
        }
    }

    /// Keeps the seat fields in step with the model: a field whose text is a
    /// valid spec other than its seat (the model changed) shows the seat; a
    /// field being typed (not a valid spec yet) is left alone.
    fn sync_seat_text(&mut self) {
        let seats = self.model.seats().all();
        self.seat_text.resize(seats.len(), "human".into());
        for (text, seat) in self.seat_text.iter_mut().zip(seats) {
            if text.parse::<Seat>().is_ok_and(|s| s != *seat) {
                *text = seat.to_string();
            }
        }
    }
}
