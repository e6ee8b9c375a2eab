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
//! [`LabModel`], [`BalanceModel`], [`CompareModel`] and the
//! [`reports::ReportModel`] hold the state and every action without egui
//! (tests drive them directly). What every kind of job shares is written
//! once, in one generic job panel (`job::JobPanel`, over a `job::JobKind`:
//! the worker given the UI's waker once, the history of the runs folder,
//! the job a crash cut short offered for resuming, starting, cancelling,
//! resuming and discarding, the message); the studio reads no file of
//! murus-lab's itself, but asks what a run folder holds
//! ([`murus_lab::rundir::Holding`]). Every mode shows its start, Cancel and
//! Resume buttons side by side, each always in its place and enabled when
//! it applies (`controls`), and its progress only goes forward
//! ([`progress::Advance`]). [`LabPanel`] adds the view, which draws them and returns
//! [`LabAction`]s, applied after the frame. The settings of every mode
//! ([`LabSaved`]) are the self-play model's, changed only by
//! [`LabPanel::set_settings`] (the view's edits come back as
//! [`LabAction::Settings`]): each model whose settings changed drops its
//! messages about the old ones.

pub mod balance;
mod balance_view;
pub mod checks;
pub mod compare;
pub(crate) mod controls;
pub mod export;
pub(crate) mod job;
pub mod model;
pub mod notes;
pub mod progress;
mod report_view;
pub mod reports;
pub mod runs;
pub mod settings;
mod view;

use std::path::PathBuf;

use murus_engine::Variant;

pub use balance::{BalanceModel, BalanceSaved};
pub use compare::{CompareModel, CompareSaved};
pub use export::LabExports;
pub use job::JobError;
pub use model::{Export, LabModel, REPORT_EVERY, RowKind, WinRow};
pub use runs::{PastRun, RunState};
pub use settings::{FROM_RULES, LabMode, LabSaved, Source, default_runs_dir};

use crate::worker::{Busy, Waker, no_waker};

/// What the view needs of the chosen variant.
#[derive(Clone, Debug)]
struct Chosen {
    players: usize,
    /// The rules (their trained bot is looked up by them).
    variant: Variant,
}

/// What the user asked for in the Lab, applied after the frame
/// ([`LabPanel::apply`]).
#[derive(Clone, Debug, PartialEq)]
pub enum LabAction {
    /// New settings (any mode's).
    Settings(Box<LabSaved>),
    /// Read the variants folder again (its list was opened).
    RefreshFiles,
    /// Start self-play with the settings.
    Run,
    /// Go on with the kept run in this folder.
    ResumeRun(PathBuf),
    /// Stop the run going on.
    CancelRun,
    /// Show the kept run in this folder.
    OpenRun(PathBuf),
    /// Resume the run offered after a crash.
    ResumeOffer,
    /// Keep the run offered after a crash in the history, and stop asking.
    DiscardOffer,
    /// Write the shown report (on the exports' worker).
    Export(Export),
    /// Stop the export going on.
    CancelExport,
    /// Start a balance check with the settings.
    RunCheck,
    /// Go on with the kept check in this folder.
    ResumeCheck(PathBuf),
    /// Stop the check going on.
    CancelCheck,
    /// Show the kept check in this folder.
    OpenCheck(PathBuf),
    /// Resume the check offered after a crash.
    ResumeCheckOffer,
    /// Keep the check offered after a crash, and stop asking.
    DiscardCheckOffer,
    /// Compare the rules files chosen.
    Compare,
    /// Stop the comparison's checks.
    CancelCompare,
    /// Show the sweep's results of the settings' sweep file.
    LoadSweep,
    /// Make the designer's report of the chosen variant.
    RunReport,
    /// Stop the report going on.
    CancelReport,
    /// Go on with the kept report in this folder.
    ResumeReport(PathBuf),
    /// Show the kept report in this folder.
    OpenReport(PathBuf),
    /// Open the shown report's page in the browser.
    OpenReportPage,
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
    /// The designer's reports.
    pub report: reports::ReportModel,
    /// The shown run's exports, written on a worker of their own.
    pub exports: LabExports,
    /// The chosen variant and its number of players (or why there is
    /// none), for the choice it was worked out for: compiling a file every
    /// frame would cost too much.
    chosen: Option<(String, Result<Chosen, String>)>,
}

impl LabPanel {
    /// The panel as a start-up finds it, its work waking nobody (tests
    /// drive it).
    pub fn new(saved: LabSaved) -> LabPanel {
        LabPanel::with_waker(saved, no_waker())
    }

    /// The panel as a start-up finds it ([`LabModel::with_waker`],
    /// [`BalanceModel::with_waker`]); its work calls `waker` when it
    /// reports.
    pub fn with_waker(saved: LabSaved, waker: Waker) -> LabPanel {
        let model = LabModel::with_waker(saved, waker.clone());
        let balance = BalanceModel::with_waker(&model.runs_dir(), waker.clone());
        let report = reports::ReportModel::with_waker(&model.runs_dir(), waker.clone());
        let compare = CompareModel::with_waker(&model.runs_dir(), waker.clone());
        LabPanel {
            model,
            balance,
            compare,
            report,
            exports: LabExports::new(waker),
            chosen: None,
        }
    }

    /// Whether lab work is under way: a batch, a balance check or the
    /// checks of a comparison.
    pub fn is_running(&self) -> bool {
        self.model.is_running()
            || self.balance.is_running()
            || self.compare.is_running()
            || self.report.is_running()
    }

    /// The lab work going on, if any: the Lab runs one at a time.
    pub fn busy(&self) -> Option<Busy> {
        self.model
            .busy()
            .or_else(|| self.balance.busy())
            .or_else(|| self.compare.busy())
            .or_else(|| self.report.busy())
    }

    /// Finished share of the lab work going on, 0 to 1 (of a balance
    /// check: of its stage under way).
    pub fn progress(&self) -> f32 {
        if self.model.is_running() {
            self.model.progress()
        } else if self.report.is_running() {
            self.report.fraction()
        } else if let Some(s) = self.balance.status().or_else(|| self.compare.status()) {
            s.fraction
        } else {
            self.model.progress()
        }
    }

    /// Takes new settings (any mode's): each model whose settings changed
    /// drops its messages about the old ones, and a new runs folder is read
    /// by self-play and the balance checks alike.
    pub fn set_settings(&mut self, settings: LabSaved) {
        let old = self.model.saved().clone();
        if settings == old {
            return;
        }
        let check = |s: &LabSaved| (s.variant.clone(), s.balance.clone());
        if check(&old) != check(&settings) {
            self.balance.settings_changed();
        }
        let compared =
            |s: &LabSaved| (s.variants_dir.clone(), s.compare.clone(), s.balance.clone());
        if compared(&old) != compared(&settings) {
            self.compare.settings_changed();
        }
        if old.variant != settings.variant || old.variants_dir != settings.variants_dir {
            self.chosen = None;
        }
        self.model.set_settings(settings);
        self.balance.set_runs_dir(&self.model.runs_dir());
        self.report.set_runs_dir(&self.model.runs_dir());
        self.compare.set_runs_dir(&self.model.runs_dir());
    }

    /// Changes the settings with `edit` ([`LabPanel::set_settings`]).
    pub fn edit(&mut self, edit: impl FnOnce(&mut LabSaved)) {
        let mut s = self.model.saved().clone();
        edit(&mut s);
        self.set_settings(s);
    }

    /// Does what the user asked for; `from_rules` is what the Rules editor
    /// compiled.
    pub fn apply(&mut self, action: LabAction, from_rules: Option<&Variant>) {
        match action {
            LabAction::Settings(s) => self.set_settings(*s),
            LabAction::RefreshFiles => {
                self.model.refresh_files();
                self.chosen = None;
            }
            LabAction::Run => self.model.start(from_rules),
            LabAction::ResumeRun(f) => self.model.resume(&f),
            LabAction::CancelRun => self.model.cancel(),
            LabAction::OpenRun(f) => self.model.open_run(&f),
            LabAction::ResumeOffer => self.model.resume_offer(),
            LabAction::DiscardOffer => self.model.discard_offer(),
            LabAction::Export(what) => self.exports.start(self.model.export_job(what)),
            LabAction::CancelExport => self.exports.cancel(),
            LabAction::RunCheck => self.start_balance(from_rules),
            LabAction::ResumeCheck(f) => {
                self.balance.resume(&f);
                self.adopt_shown_check();
            }
            LabAction::CancelCheck => self.balance.cancel(),
            LabAction::OpenCheck(f) => {
                self.balance.open(&f);
                self.adopt_shown_check();
            }
            LabAction::ResumeCheckOffer => {
                self.balance.resume_offer();
                self.adopt_shown_check();
            }
            LabAction::DiscardCheckOffer => self.balance.discard_offer(),
            LabAction::Compare => self.start_compare(),
            LabAction::CancelCompare => self.compare.cancel(),
            LabAction::LoadSweep => {
                let path = PathBuf::from(&self.model.saved().compare.sweep);
                self.compare.load_sweep(&path);
            }
            LabAction::RunReport => self.start_report(from_rules),
            LabAction::CancelReport => self.report.cancel(),
            LabAction::ResumeReport(f) => self.report.resume(&f),
            LabAction::OpenReport(f) => self.report.open(&f),
            LabAction::OpenReportPage => self.report.open_in_browser(),
        }
    }

    /// Shows the settings of the check shown in the Balance setup, its own
    /// (and its variant, where the variant it came from still holds its
    /// rules), so that what is shown is what "Resume check" plays. The
    /// check's messages stay: they are about it.
    fn adopt_shown_check(&mut self) {
        let Some(check) = self.balance.shown() else {
            return;
        };
        let mut s = self.model.saved().clone();
        if let Some(settings) = &check.settings {
            s.balance.adopt(settings);
        }
        if let Some(variant) = settings::origin_of(&check.note.origin, &check.spec.variant) {
            s.variant = variant;
            self.chosen = None;
        }
        self.model.set_settings(s);
    }

    /// Shows `mode`.
    pub fn show(&mut self, mode: LabMode) {
        self.edit(|s| s.mode = mode);
    }

    /// Starts a balance check of the chosen variant with the balance
    /// settings ([`BalanceModel::start`]).
    pub fn start_balance(&mut self, from_rules: Option<&Variant>) {
        let variant = self.model.resolve_variant(from_rules);
        let saved = self.model.saved();
        self.balance
            .start(variant, &saved.variant, &saved.balance.settings());
    }

    /// Starts the designer's report of the chosen variant
    /// ([`reports::ReportModel::start`]).
    pub fn start_report(&mut self, from_rules: Option<&Variant>) {
        let variant = self.model.resolve_variant(from_rules);
        let saved = self.model.saved();
        self.report.start(variant, saved.report_budget, saved.seed);
    }

    /// Compares the rules files chosen, balance-checked with the balance
    /// settings ([`CompareModel::compare_files`]).
    pub fn start_compare(&mut self) {
        let saved = self.model.saved();
        let files: Vec<PathBuf> = saved.compare.files.iter().map(PathBuf::from).collect();
        self.compare
            .compare_files(&files, &saved.balance.settings());
        self.balance.rescan();
    }

    /// Starts a run with the current settings ([`LabModel::start`]).
    pub fn start(&mut self, from_rules: Option<&Variant>) {
        self.model.start(from_rules);
    }

    /// Asks the lab work going on to stop ([`LabModel::cancel`],
    /// [`BalanceModel::cancel`], [`CompareModel::cancel`]).
    pub fn cancel(&mut self) {
        self.model.cancel();
        self.balance.cancel();
        self.compare.cancel();
        self.report.cancel();
    }

    /// Collects finished games, reports and checks (each frame; never
    /// waits).
    pub fn poll(&mut self) {
        self.model.poll();
        self.exports.poll();
        self.balance.poll();
        self.report.poll();
        let comparing = self.compare.is_running();
        self.compare.poll();
        if comparing && !self.compare.is_running() {
            // Its checks are Balance's too.
            self.balance.rescan();
        }
    }
}
