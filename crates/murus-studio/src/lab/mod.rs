//! The Lab panel: self-play in the background with live charts (win rates
//! per seat and per colour with 95% intervals, a game-length histogram),
//! the balance report, exports, any finished game one click from Play, and
//! a history of runs.
//!
//! Runs use murus-lab's one runner ([`murus_lab::spawn`]) and are kept on
//! disk game by game in the runs folder ([`runs`]): after a crash or a
//! restart the panel offers to resume an unfinished run, which then ends
//! with exactly the report of a run never interrupted.
//!
//! [`LabModel`] holds the state and every action without egui (tests drive
//! it directly); [`LabPanel`] adds the view.

pub mod model;
pub mod runs;
mod view;

use std::time::Duration;

use murus_engine::Variant;

pub use model::{
    Export, FROM_RULES, LabModel, LabSaved, REPORT_EVERY, RowKind, Source, WinRow, default_runs_dir,
};
pub use runs::{PastRun, RunState};

/// What the view needs of the chosen variant.
#[derive(Clone, Debug)]
struct Chosen {
    players: usize,
    name: String,
    source: String,
}

/// The Lab panel: its model, and what the view remembers between frames.
#[derive(Debug)]
pub struct LabPanel {
    pub model: LabModel,
    /// The chosen variant's number of players, name and source (or why it
    /// has none), for the key it was worked out for: compiling a file
    /// every frame would cost too much.
    chosen: Option<(String, Result<Chosen, String>)>,
}

impl LabPanel {
    /// The panel as a start-up finds it ([`LabModel::new`]).
    pub fn new(saved: LabSaved) -> LabPanel {
        LabPanel {
            model: LabModel::new(saved),
            chosen: None,
        }
    }

    /// Whether a batch is going on.
    pub fn is_running(&self) -> bool {
        self.model.is_running()
    }

    /// Finished share of the run, 0 to 1.
    pub fn progress(&self) -> f32 {
        self.model.progress()
    }

    /// Starts a run with the current settings ([`LabModel::start`]).
    pub fn start(&mut self, ctx: &egui::Context, from_rules: Option<&Variant>) {
        self.model.start(from_rules);
        ctx.request_repaint();
    }

    /// Asks the run to stop ([`LabModel::cancel`]).
    pub fn cancel(&mut self) {
        self.model.cancel();
    }

    /// Collects finished games and reports, and keeps frames coming while
    /// a run goes on.
    pub fn poll(&mut self, ctx: &egui::Context) {
        self.model.poll();
        if self.model.is_running() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
    }
}
