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
//! Its "Balance" mode runs murus-lab's balance check
//! ([`murus_lab::balance`]: is the variant fair at every level of play?) in
//! the background, kept in the runs folder too ([`checks`]) so that a
//! restart reopens or resumes it; "Compare variants" puts two or more rules
//! files, balance-checked alike, or the rows of a sweep's results side by
//! side ([`compare`]).
//!
//! [`LabModel`], [`BalanceModel`] and [`CompareModel`] hold the state and
//! every action without egui (tests drive them directly); [`LabPanel`]
//! adds the view.

pub mod balance;
mod balance_view;
pub mod checks;
pub mod compare;
pub mod model;
pub mod runs;
mod view;

use std::time::Duration;

use murus_engine::Variant;

pub use balance::{BalanceModel, BalanceSaved};
pub use compare::{CompareModel, CompareSaved};
pub use model::{
    Export, FROM_RULES, LabMode, LabModel, LabSaved, REPORT_EVERY, RowKind, Source, WinRow,
    default_runs_dir,
};
pub use runs::{PastRun, RunState};

use crate::worker::repaint_waker;

/// What the view needs of the chosen variant.
#[derive(Clone, Debug)]
struct Chosen {
    players: usize,
    name: String,
    source: String,
}

/// The Lab panel: its models, and what the view remembers between frames.
#[derive(Debug)]
pub struct LabPanel {
    /// Self-play, and the settings of every mode.
    pub model: LabModel,
    /// The balance check.
    pub balance: BalanceModel,
    /// Variants compared.
    pub compare: CompareModel,
    /// The chosen variant's number of players, name and source (or why it
    /// has none), for the key it was worked out for: compiling a file
    /// every frame would cost too much.
    chosen: Option<(String, Result<Chosen, String>)>,
}

impl LabPanel {
    /// The panel as a start-up finds it ([`LabModel::new`]).
    pub fn new(saved: LabSaved) -> LabPanel {
        let model = LabModel::new(saved);
        let balance = BalanceModel::new(&model.runs_dir());
        LabPanel {
            model,
            balance,
            compare: CompareModel::default(),
            chosen: None,
        }
    }

    /// Whether lab work is going on: a batch, a balance check or the
    /// checks of a comparison.
    pub fn is_running(&self) -> bool {
        self.model.is_running() || self.balance.is_running() || self.compare.is_running()
    }

    /// Finished share of the lab work going on, 0 to 1 (of a balance
    /// check: of its stage under way).
    pub fn progress(&self) -> f32 {
        if self.model.is_running() {
            self.model.progress()
        } else if let Some(s) = self.balance.status().or_else(|| self.compare.status()) {
            s.fraction
        } else {
            self.model.progress()
        }
    }

    /// Starts a balance check of the chosen variant with the balance
    /// settings ([`BalanceModel::start`]).
    pub fn start_balance(&mut self, ctx: &egui::Context, from_rules: Option<&Variant>) {
        let variant = self.model.resolve_variant(from_rules);
        let saved = &self.model.saved;
        self.balance.start(
            variant,
            &saved.variant,
            &saved.balance.settings(),
            repaint_waker(ctx),
        );
        ctx.request_repaint();
    }

    /// Compares the rules files chosen, balance-checked with the balance
    /// settings ([`CompareModel::compare_files`]).
    pub fn start_compare(&mut self, ctx: &egui::Context) {
        let saved = &self.model.saved;
        let files: Vec<std::path::PathBuf> = saved
            .compare
            .files
            .iter()
            .map(std::path::PathBuf::from)
            .collect();
        self.compare.compare_files(
            &files,
            &saved.balance.settings(),
            &self.model.runs_dir(),
            repaint_waker(ctx),
        );
        self.balance.rescan();
        ctx.request_repaint();
    }

    /// Starts a run with the current settings ([`LabModel::start`]).
    pub fn start(&mut self, ctx: &egui::Context, from_rules: Option<&Variant>) {
        self.model.start(from_rules);
        ctx.request_repaint();
    }

    /// Asks the lab work going on to stop ([`LabModel::cancel`],
    /// [`BalanceModel::cancel`], [`CompareModel::cancel`]).
    pub fn cancel(&mut self) {
        self.model.cancel();
        self.balance.cancel();
        self.compare.cancel();
    }

    /// Collects finished games, reports and checks, and keeps frames coming
    /// while work goes on (a balance check's progress is read, not sent).
    pub fn poll(&mut self, ctx: &egui::Context) {
        self.model.poll();
        // The runs folder may have been set on the self-play model.
        self.balance.set_runs_dir(&self.model.runs_dir());
        self.balance.poll();
        let comparing = self.compare.is_running();
        self.compare.poll();
        if comparing && !self.compare.is_running() {
            // Its checks are Balance's too.
            self.balance.rescan();
        }
        if self.is_running() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
    }
}
