//! The designer's report in the Lab ("Report" mode, and the Rules panel's
//! "Report" button): murus-lab's report ([`murus_lab::designer`]) made on
//! a worker, its stages in a progress bar, its sections shown when it ends,
//! its page (`index.html`) one click from the system browser.
//!
//! A report lives in `<runs folder>/reports/<variant>-<date>-<time>/`
//! (`standard-2026-11-29-0312`, UTC; `-2`, `-3`, … after a name already
//! taken): murus-lab's
//! run folder (each stage kept as it ends, so a stopped report resumes
//! where it stopped), the page and its puzzles as `murus report` writes
//! them, and the rules it reports on (`variant.mg`). The folder is the
//! history of reports, listed like the runs and checks.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use murus_engine::Variant;
use murus_engine::job::Handler;
use murus_lab::LabError;
use murus_lab::designer::{
    Budget, DesignerReport, ReportConfig, ReportProgress, ReportSpec, run_report,
};
use murus_lab::folder::Mode;
use murus_lab::rundir::Holding;

use super::job::{JobError, JobKind, JobPanel, Kept as KeptJob};
use super::notes;
use super::progress::Advance;
use crate::feedback::Feedback;
use crate::worker::{Busy, Reporter, Waker, no_waker};

/// The folder of the runs folder that keeps reports.
pub const REPORTS_FOLDER: &str = "reports";
/// The rules a report is of, kept in its folder.
pub const RULES_FILE: &str = "variant.mg";
/// What the worker calls its task.
const A_REPORT: &str = "a report";

/// Opens a file in the system's browser (tests record the call instead).
pub type Opener = Arc<dyn Fn(&Path) -> Result<(), OpenError> + Send + Sync>;

/// A page the system's browser could not be asked to open.
#[derive(Debug, thiserror::Error)]
#[error("cannot open {}: {source}", path.display())]
pub struct OpenError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

/// The system's way of opening a file: `xdg-open` (Linux and the BSDs),
/// `open` (macOS), `start` (Windows).
pub fn system_opener() -> Opener {
    Arc::new(|path: &Path| {
        let mut c = if cfg!(target_os = "macos") {
            std::process::Command::new("open")
        } else if cfg!(windows) {
            let mut c = std::process::Command::new("cmd");
            c.args(["/C", "start", ""]);
            c
        } else {
            std::process::Command::new("xdg-open")
        };
        c.arg(path).spawn().map(|_| ()).map_err(|source| OpenError {
            path: path.to_path_buf(),
            source,
        })
    })
}

/// A message of the report's worker.
#[derive(Debug)]
pub enum ReportMsg {
    Progress(ReportProgress),
    Ended(Result<Box<DesignerReport>, JobError>),
}

/// A report kept in the runs folder.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptReport {
    pub folder: PathBuf,
    /// The folder's name: when and of what.
    pub name: String,
    /// Its page was written: the report ended.
    pub finished: bool,
    /// When it started (seconds since 1970): when its rules were written.
    pub started: u64,
}

impl KeptReport {
    /// One line for the list: `standard-2026-11-29-0312`, and
    /// `, unfinished` for a report that never ended.
    pub fn summary(&self) -> String {
        if self.finished {
            self.name.clone()
        } else {
            format!("{}, unfinished", self.name)
        }
    }
}

/// The folder name of a report of `variant` started at `secs` (seconds
/// since 1970): `standard-2026-11-29-0312` (UTC).
pub fn folder_name(secs: u64, variant: &str) -> String {
    let when = notes::date_time(secs).replace([' ', ':'], "-");
    // `2026-11-29-03-12`: the time's colon goes, the date's dashes stay.
    let when = match when.rsplit_once('-') {
        Some((head, minutes)) => format!("{head}{minutes}"),
        None => when,
    };
    format!("{}-{when}", notes::file_safe(variant))
}

/// A new folder in `reports` for a report of `variant` started at `secs`,
/// named by [`folder_name`]; `-2`, `-3`, … after a name already taken.
fn new_folder(reports: &Path, variant: &str, secs: u64) -> PathBuf {
    let base = folder_name(secs, variant);
    let mut folder = reports.join(&base);
    let mut n = 1;
    while folder.exists() {
        n += 1;
        folder = reports.join(format!("{base}-{n}"));
    }
    folder
}

/// The report shown: its folder, its rules and, once it ended, its figures.
#[derive(Debug)]
pub struct ShownReport {
    pub folder: PathBuf,
    pub variant: Variant,
    pub report: Option<DesignerReport>,
}

/// The designer's reports as a kind of lab job
/// ([`JobPanel`](super::job::JobPanel)).
#[derive(Debug)]
pub struct ReportJob;

impl JobKind for ReportJob {
    type Msg = ReportMsg;
    type Kept = KeptReport;
    const WHAT: &'static str = A_REPORT;
    const DISCARDED: &'static str = "the unfinished report stays in the list";

    /// The reports kept in `runs`, newest first.
    fn list(runs: &Path) -> Vec<KeptReport> {
        let dir = runs.join(REPORTS_FOLDER);
        let mut history: Vec<KeptReport> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().join(RULES_FILE).is_file())
            .map(|e| KeptReport {
                folder: e.path(),
                name: e.file_name().to_string_lossy().into_owned(),
                finished: e.path().join("index.html").is_file(),
                started: notes::written_at(&e.path().join(RULES_FILE)),
            })
            .collect();
        history.sort_by(|a, b| (b.started, &b.name).cmp(&(a.started, &a.name)));
        history
    }

    /// Reports keep no note: a stopped one is never offered, only listed.
    fn set_stopped_by_user(_: &Path, _: bool) -> Result<(), JobError> {
        Ok(())
    }
}

impl KeptJob for KeptReport {
    fn folder(&self) -> &Path {
        &self.folder
    }

    fn resumable(&self) -> bool {
        !self.finished
    }

    fn offered(&self) -> bool {
        false
    }

    fn mark_running(&mut self) {}
}

/// The Lab's reports.
pub struct ReportModel {
    /// The reports kept in the runs folder, the one going on, and the
    /// panel's message.
    jobs: JobPanel<ReportJob>,
    progress: Option<ReportProgress>,
    /// How far the report going on has gone: its bar never goes back.
    advance: Advance,
    /// The sections finished so far by the report going on: title, answer.
    sections: Vec<(String, String)>,
    ended: Option<Result<Box<DesignerReport>, JobError>>,
    shown: Option<ShownReport>,
    opener: Opener,
}

impl std::fmt::Debug for ReportModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReportModel")
            .field("jobs", &self.jobs)
            .field("progress", &self.progress)
            .finish_non_exhaustive()
    }
}

/// The report's handler: stops when the worker is cancelled, sends each
/// progress.
struct Forward<'a>(&'a Reporter<ReportMsg>);

impl Handler<ReportProgress> for Forward<'_> {
    fn stop(&self) -> bool {
        self.0.cancelled()
    }
    fn progress(&self, p: &ReportProgress) {
        self.0.send(ReportMsg::Progress(p.clone()));
    }
}

impl ReportModel {
    /// The reports of `runs`, their work waking nobody (tests).
    pub fn new(runs: &Path) -> ReportModel {
        ReportModel::with_waker(runs, no_waker())
    }

    pub fn with_waker(runs: &Path, waker: Waker) -> ReportModel {
        ReportModel {
            jobs: JobPanel::new(runs, waker),
            progress: None,
            advance: Advance::new(),
            sections: Vec::new(),
            ended: None,
            shown: None,
            opener: system_opener(),
        }
    }

    /// Opens pages with `opener` instead of the system's browser.
    pub fn set_opener(&mut self, opener: Opener) {
        self.opener = opener;
    }

    /// Keeps reports in `runs` from now on.
    pub fn set_runs_dir(&mut self, runs: &Path) {
        self.jobs.set_runs_dir(runs);
    }

    /// Reads the list of kept reports again, newest first.
    pub fn rescan(&mut self) {
        self.jobs.rescan();
    }

    /// The reports kept, newest first.
    pub fn history(&self) -> &[KeptReport] {
        self.jobs.history()
    }

    /// The panel's message.
    pub fn feedback(&self) -> &Feedback {
        self.jobs.feedback()
    }

    /// Whether a report is being made.
    pub fn is_running(&self) -> bool {
        self.jobs.is_running()
    }

    /// The work under way, when nothing can start now.
    pub fn busy(&self) -> Option<Busy> {
        self.jobs.busy()
    }

    /// Whether it was asked to stop and has not stopped yet.
    pub fn is_cancelling(&self) -> bool {
        self.jobs.is_cancelling()
    }

    /// Whether the report shown stopped short and can go on.
    pub fn shown_resumable(&self) -> bool {
        !self.is_running()
            && self
                .shown
                .as_ref()
                .is_some_and(|s| s.report.is_none() && self.jobs.resumable(&s.folder))
    }

    /// The stage under way, while a report is made.
    pub fn progress(&self) -> Option<&ReportProgress> {
        self.progress.as_ref().filter(|_| self.is_running())
    }

    /// Finished share of the report going on, 0 to 1, by stages; it never
    /// goes back ([`Advance`]).
    pub fn fraction(&self) -> f32 {
        if self.is_running() {
            self.advance.fraction()
        } else {
            0.0
        }
    }

    pub fn shown(&self) -> Option<&ShownReport> {
        self.shown.as_ref()
    }

    /// The shown report's page, once written.
    pub fn page(&self) -> Option<PathBuf> {
        let s = self.shown.as_ref()?;
        let page = s.folder.join("index.html");
        (s.report.is_some() && page.is_file()).then_some(page)
    }

    /// Starts a report of `variant` (or says why there is none) with
    /// `budget`, in a new folder of the runs folder.
    pub fn start(&mut self, variant: Result<Variant, JobError>, budget: Budget, seed: u64) {
        if !self.jobs.ready() {
            return;
        }
        let prepared = variant.and_then(|v| {
            let reports = self.jobs.runs_dir().join(REPORTS_FOLDER);
            let folder = new_folder(&reports, v.name(), notes::now());
            std::fs::create_dir_all(&folder).map_err(JobError::io(&folder))?;
            murus_engine::util::write_atomic(&folder.join(RULES_FILE), v.source())
                .map_err(JobError::Write)?;
            Ok((v, folder))
        });
        match prepared {
            Ok((v, folder)) => self.launch(v, folder, budget, seed),
            Err(e) => self.jobs.feedback_mut().error(e.to_string()),
        }
    }

    /// Goes on with the report kept in `folder` (its own settings).
    pub fn resume(&mut self, folder: &Path) {
        if !self.jobs.ready() {
            return;
        }
        match read_kept(folder) {
            Ok(k) => self.launch(k.variant, folder.to_path_buf(), k.budget, k.seed),
            Err(e) => self.jobs.feedback_mut().error(e.to_string()),
        }
    }

    /// Shows the report kept in `folder` (its figures when it ended).
    pub fn open(&mut self, folder: &Path) {
        if !self.jobs.ready() {
            return;
        }
        match read_kept(folder) {
            Ok(k) => {
                self.shown = Some(ShownReport {
                    folder: folder.to_path_buf(),
                    variant: k.variant,
                    report: k.report,
                });
            }
            Err(e) => self.jobs.feedback_mut().error(e.to_string()),
        }
    }

    fn launch(&mut self, variant: Variant, folder: PathBuf, budget: Budget, seed: u64) {
        let v = variant.clone();
        let dir = folder.clone();
        let work = move |r: Reporter<ReportMsg>| {
            let config = ReportConfig::new(budget, seed, super::job::threads());
            let made = match run_report(
                &v,
                v.name(),
                &config,
                Some((&dir, Mode::Resume)),
                &Forward(&r),
            ) {
                // The lab stops a report the user cancelled with an error.
                Err(_) if r.cancelled() => Err(JobError::Stopped),
                Err(e) => Err(e.into()),
                Ok(report) => murus_publish::write_report(&dir, &v, &report, None)
                    .map(|()| Box::new(report))
                    .map_err(JobError::Write),
            };
            r.send(ReportMsg::Ended(made));
        };
        if !self.jobs.start(&folder, work) {
            return;
        }
        self.shown = Some(ShownReport {
            folder,
            variant,
            report: None,
        });
        self.progress = None;
        self.advance = Advance::new();
        self.sections.clear();
        self.ended = None;
    }

    /// The sections the report going on (or the last one made) finished,
    /// in order: title and answer.
    pub fn sections(&self) -> &[(String, String)] {
        &self.sections
    }

    /// Asks the report to stop; its finished stages are kept.
    pub fn cancel(&mut self) {
        self.jobs.cancel();
    }

    /// Collects the progress and the end of the report going on.
    pub fn poll(&mut self) {
        for m in self.jobs.poll() {
            match m {
                ReportMsg::Progress(mut p) => {
                    if let Some(section) = p.section.take() {
                        self.sections.push(section);
                    }
                    // Word of a stage that ended names it no more.
                    if self.advance.hear(p.index, p.of, p.done, p.total) {
                        self.progress = Some(p);
                    }
                }
                ReportMsg::Ended(r) => self.ended = Some(r),
            }
        }
        if self.jobs.ended().is_none() {
            return;
        }
        let Some(ended) = self.ended.take() else {
            return;
        };
        let feedback = self.jobs.feedback_mut();
        feedback.changed();
        match ended {
            Ok(report) => {
                feedback.success("report finished: Open in browser shows its page".to_string());
                if let Some(s) = &mut self.shown {
                    s.report = Some(*report);
                }
            }
            Err(JobError::Stopped) => {
                feedback
                    .info("report stopped; its finished stages are kept: Resume report goes on");
            }
            Err(e) => feedback.error(e.to_string()),
        }
    }

    /// Opens the shown report's page in the browser.
    pub fn open_in_browser(&mut self) {
        let page = self.page();
        let feedback = self.jobs.feedback_mut();
        feedback.changed();
        match page {
            Some(page) => {
                if let Err(e) = (self.opener)(&page) {
                    feedback.error(e.to_string());
                }
            }
            None => feedback.error("no finished report to open".to_string()),
        }
    }

    /// Waits for the report going on to end (tests).
    pub fn settle(&mut self) {
        self.jobs.wait();
        self.poll();
    }
}

/// A kept report: its rules, its settings and, once it ended, its
/// figures ([`Holding`]: the studio reads none of the lab's files itself).
struct Kept {
    variant: Variant,
    budget: Budget,
    seed: u64,
    report: Option<DesignerReport>,
}

/// Reads the report kept in `folder`. A report stopped before the lab
/// wrote its spec resumes as a quick one of seed 1.
fn read_kept(folder: &Path) -> Result<Kept, JobError> {
    let path = folder.join(RULES_FILE);
    let rules = std::fs::read_to_string(&path).map_err(JobError::io(&path))?;
    let variant = JobError::compile(&path.display().to_string(), &rules)?;
    let (budget, seed, report) = match Holding::<ReportSpec>::read(folder) {
        Ok(h) => (h.spec.budget, h.spec.seed, h.report),
        Err(LabError::NoRun { .. }) => (Budget::Quick, 1, None),
        Err(e) => return Err(e.into()),
    };
    Ok(Kept {
        variant,
        budget,
        seed,
        report,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reports_folder_is_named_by_its_variant_and_a_readable_utc_time() {
        // 2000-02-29 12:34:56 UTC.
        assert_eq!(folder_name(951_827_696, "small"), "small-2000-02-29-1234");
        assert_eq!(folder_name(0, "my variant"), "my_variant-1970-01-01-0000");
        let dir =
            std::env::temp_dir().join(format!("murus-studio-report-names-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = new_folder(&dir, "small", 951_827_696);
        std::fs::create_dir_all(&first).unwrap();
        let second = new_folder(&dir, "small", 951_827_696);
        assert_eq!(first.file_name().unwrap(), "small-2000-02-29-1234");
        assert_eq!(second.file_name().unwrap(), "small-2000-02-29-1234-2");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
