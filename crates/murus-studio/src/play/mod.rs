//! The Play panel: humans and bots, click-to-move, move list, undo/redo,
//! records and positions, and a set-up mode that explains what is wrong.
//!
//! [`PlayModel`] holds the state and every action (tests drive it without
//! egui); [`PlayPanel`] adds the view: text buffers, the bot's background
//! thread, the confirmation dialog, and the drawing in `view.rs`.
//!
//! # Moving through a game
//! Undo (button, Ctrl+Z) steps back to the last ply where a human is to
//! move; Redo (button, Ctrl+Shift+Z or Ctrl+Y) forward to the next one; ←
//! and → step one ply; a click on the move list jumps to that ply. The keys
//! act only while no text field has focus (a text field keeps its own undo
//! and cursor keys). The moves ahead stay in the list (greyed) until a
//! different move is played from the ply shown. Bots wait while the board
//! is not at the end of the line; "Play on from here" drops the moves ahead
//! and lets them play.
//!
//! # Analysis
//! The "Analysis" toggle searches the position shown in the background:
//! an evaluation bar beside the board, the best line drawn on it, every
//! legal move's score in the cells' hover texts. "Analyze game" searches
//! every position of the line, graphs the evaluation and lists the
//! blunders. See [`analysis`] for budgets and points of view.

pub mod analysis;
mod analysis_view;
mod model;
mod view;

use murus_engine::Variant;
use serde::{Deserialize, Serialize};

pub use analysis::Analysis;
pub use model::{BotReply, BotTurn, PlayModel, Seat, SetupEdit, Thinking, possessive};

use crate::dialog::Confirm;
use crate::worker::{Job, repaint_waker};

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
    /// The file "Save record" and "Open record" use.
    pub record_path: String,
    /// Seeds the bots; bumped for every bot move.
    pub seed: u64,
    /// Whether the live analysis is on.
    pub analysis: bool,
}

impl Default for PlaySaved {
    fn default() -> Self {
        PlaySaved {
            variant_source: Variant::standard().source().to_string(),
            seats: vec!["human".into(), "easy".into()],
            start: None,
            moves: Vec::new(),
            flipped: false,
            record_path: "game.json".into(),
            seed: 1,
            analysis: false,
        }
    }
}

/// What would replace the game in progress, waiting for the user's answer.
#[derive(Clone, Debug)]
enum Replace {
    /// A new game of this variant.
    Variant(Variant),
    /// A game given as moves (from the lab).
    Moves {
        variant: Variant,
        moves: Vec<String>,
        label: String,
    },
}

/// A bot searching on a background thread for the model's turn `token`.
#[derive(Debug)]
struct BotJob {
    token: u64,
    job: Job<BotReply>,
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
    /// The ply the move list last scrolled to.
    list_ply: Option<usize>,
    bot: Option<BotJob>,
    /// The live analysis and the game review.
    analysis: Analysis,
    /// A question before the game in progress is replaced.
    pending: Option<Confirm<Replace>>,
}

impl PlayPanel {
    /// The panel of a saved state.
    pub fn new(saved: PlaySaved) -> PlayPanel {
        let model = PlayModel::new(&saved);
        let mut analysis = Analysis::default();
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
            list_ply: None,
            bot: None,
            pending: None,
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
        self.request(Replace::Variant(variant));
    }

    /// Opens a game given as moves in notation (the Lab's "Open #N"), after
    /// asking when moves of the game in progress would be lost. The seats
    /// stay as they are.
    pub fn open_moves(&mut self, variant: Variant, moves: &[String], label: &str) {
        self.request(Replace::Moves {
            variant,
            moves: moves.to_vec(),
            label: label.to_string(),
        });
    }

    fn request(&mut self, replace: Replace) {
        if !self.model.is_dirty() {
            self.replace(replace);
            return;
        }
        let (what, go) = match &replace {
            Replace::Variant(v) => (
                format!("Switching to {} starts a new game", v.name()),
                "Discard and switch",
            ),
            Replace::Moves { label, .. } => {
                (format!("Opening {label} replaces it"), "Discard and open")
            }
        };
        let text = format!(
            "The {} moves of this {} game are not saved. {what}; save the record first to keep them.",
            self.model.line_len(),
            self.model.variant().name(),
        );
        self.pending = Some(Confirm::new(
            "Discard the game in progress?",
            text,
            go,
            "Keep playing",
            replace,
        ));
    }

    fn replace(&mut self, replace: Replace) {
        match replace {
            Replace::Variant(v) => self.model.set_variant(v),
            Replace::Moves {
                variant,
                moves,
                label,
            } => self.model.open_moves(variant, &moves, &label),
        }
    }

    /// Whether a bot is thinking.
    pub fn is_thinking(&self) -> bool {
        self.bot.is_some()
    }

    /// Whether the analysis or a game review is searching.
    pub fn is_analysing(&self) -> bool {
        self.analysis.is_searching() || self.analysis.is_reviewing()
    }

    /// Example content for screenshots: analysis on and the game reviewed.
    pub fn demo_analysis(&mut self, ctx: &egui::Context) {
        self.analysis.set_on(true);
        self.analysis
            .start_review(&self.model, &crate::worker::repaint_waker(ctx));
    }

    /// Receives bot moves and starts bots whose turn it is, on a background
    /// thread, then collects and starts the analysis the state calls for
    /// (called every frame by the app, whichever panel is shown).
    pub fn drive_bots(&mut self, ctx: &egui::Context) {
        self.bots(ctx);
        self.analysis.drive(&self.model, &repaint_waker(ctx));
        if self.analysis.is_searching() || self.analysis.is_reviewing() {
            // Keep the spinner turning.
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    fn bots(&mut self, ctx: &egui::Context) {
        let waited_for = self.model.thinking().map(|t| t.token);
        if self
            .bot
            .as_ref()
            .is_some_and(|b| Some(b.token) != waited_for)
        {
            self.bot = None; // dropping the job stops its search
        }
        if let Some(b) = &mut self.bot {
            let token = b.token;
            if let Some(reply) = b.job.poll().into_iter().next() {
                self.bot = None;
                self.model.bot_replied(token, reply);
                ctx.request_repaint(); // the next turn may be a bot's too
            } else if b.job.is_finished() {
                self.bot = None;
                self.model.bot_failed(token);
            } else {
                // Keep the spinner turning.
                ctx.request_repaint_after(std::time::Duration::from_millis(50));
            }
            return;
        }
        if let Some(turn) = self.model.start_bot() {
            let token = turn.token;
            let job = Job::spawn("murus-bot", ctx, move |r| {
                let reply = turn.think(r.cancel_flag());
                r.send(reply);
            });
            self.bot = Some(BotJob { token, job });
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
