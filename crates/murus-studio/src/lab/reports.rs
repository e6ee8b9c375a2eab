//! The designer's report in the Lab ("Report" mode, and the Rules panel's
//! "Report" button): murus-lab's report ([`murus_lab::designer`]) made on
//! a worker, its stages in a progress bar, its sections shown when it ends,
//! its page (`index.html`) one click from the system browser.
//!
//! A report lives in `<runs folder>/reports/<time>-<variant>/`: murus-lab's
//! run folder (each stage kept as it ends, so a stopped report resumes
//! where it stopped), the page and its puzzles as `murus report` writes
//! them, and the rules it reports on (`variant.mg`). The folder is the
//! history of reports, listed like the runs and checks.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use murus_engine::Variant;
use murus_engine::job::Handler;
use murus_lab::designer::{Budget, DesignerReport, ReportConfig, ReportProgress, run_report};
use murus_lab::folder::Mode;

use crate::feedback::Feedback;
use crate::worker::{Busy, Reporter, Waker, Worker, no_waker};

/// The folder of the runs folder that keeps reports.
pub const REPORTS_FOLDER: &str = "reports";
/// The rules a report is of, kept in its folder.
pub const RULES_FILE: &str = "variant.mg";
/// What the worker calls its task.
const A_REPORT: &str = "a report";

/// Opens a file in the system's browser (tests record the call instead).
pub type Opener = Arc<dyn Fn(&Path) -> Result<(), String> + Send + Sync>;

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
        c.arg(path)
            .spawn()
            .map(|_| ())
            .map_err(|e| format!("cannot open {}: {e}", path.display()))
    })
}

/// A message of the report's worker.
#[derive(Debug)]
pub enum ReportMsg {
    Progress(ReportProgress),
    Ended(Result<Box<DesignerReport>, String>),
}

/// A report kept in the runs folder.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptReport {
    pub folder: PathBuf,
    /// The folder's name: when and of what.
    pub name: String,
    /// Its page was written: the report ended.
    pub finished: bool,
}

/// The report shown: its folder, its rules and, once it ended, its figures.
#[derive(Debug)]
pub struct ShownReport {
    pub folder: PathBuf,
    pub variant: Variant,
    pub report: Option<DesignerReport>,
}

/// The Lab's reports.
pub struct ReportModel {
    runs: PathBuf,
    worker: Worker<ReportMsg>,
    progress: Option<ReportProgress>,
    /// The sections finished so far by the report going on: title, answer.
    sections: Vec<(String, String)>,
    ended: Option<Result<Box<DesignerReport>, String>>,
    shown: Option<ShownReport>,
    history: Vec<KeptReport>,
    feedback: Feedback,
    opener: Opener,
}

impl std::fmt::Debug for ReportModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReportModel")
            .field("runs", &self.runs)
            .field("progress", &self.progress)
            .field("history", &self.history)
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
        let mut m = ReportModel {
            runs: runs.to_path_buf(),
            worker: Worker::new(waker),
            progress: None,
            sections: Vec::new(),
            ended: None,
            shown: None,
            history: Vec::new(),
            feedback: Feedback::default(),
            opener: system_opener(),
        };
        m.rescan();
        m
    }

    /// Opens pages with `opener` instead of the system's browser.
    pub fn set_opener(&mut self, opener: Opener) {
        self.opener = opener;
    }

    pub fn set_runs_dir(&mut self, runs: &Path) {
        if runs != self.runs {
            self.runs = runs.to_path_buf();
            self.rescan();
        }
    }

    /// Reads the list of kept reports again, newest first.
    pub fn rescan(&mut self) {
        let dir = self.runs.join(REPORTS_FOLDER);
        let mut history: Vec<KeptReport> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().join(RULES_FILE).is_file())
            .map(|e| KeptReport {
                folder: e.path(),
                name: e.file_name().to_string_lossy().into_owned(),
                finished: e.path().join("index.html").is_file(),
            })
            .collect();
        history.sort_by(|a, b| b.name.cmp(&a.name));
        self.history = history;
    }

    pub fn history(&self) -> &[KeptReport] {
        &self.history
    }

    pub fn feedback(&self) -> &Feedback {
        &self.feedback
    }

    pub fn is_running(&self) -> bool {
        self.worker.is_running()
    }

    pub fn busy(&self) -> Option<Busy> {
        self.worker.ready().err()
    }

    /// The stage under way, while a report is made.
    pub fn progress(&self) -> Option<&ReportProgress> {
        self.progress.as_ref().filter(|_| self.is_running())
    }

    /// Finished share of the report going on, 0 to 1, by stages.
    pub fn fraction(&self) -> f32 {
        self.progress().map_or(0.0, |p| {
            let within = if p.total > 0 {
                p.done as f32 / p.total as f32
            } else {
                0.0
            };
            (p.index as f32 + within.min(1.0)) / p.of.max(1) as f32
        })
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
    pub fn start(&mut self, variant: Result<Variant, String>, budget: Budget, seed: u64) {
        self.feedback.changed();
        if let Err(busy) = self.worker.ready() {
            self.feedback.error(busy.to_string());
            return;
        }
        let prepared = variant.and_then(|v| {
            let stamp = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let folder = self
                .runs
                .join(REPORTS_FOLDER)
                .join(format!("{stamp}-{}", v.name()));
            std::fs::create_dir_all(&folder)
                .and_then(|()| std::fs::write(folder.join(RULES_FILE), v.source()))
                .map_err(|e| format!("{}: {e}", folder.display()))?;
            Ok((v, folder))
        });
        match prepared {
            Ok((v, folder)) => self.launch(v, folder, budget, seed),
            Err(e) => self.feedback.error(e),
        }
    }

    /// Goes on with the report kept in `folder` (its own settings).
    pub fn resume(&mut self, folder: &Path) {
        self.feedback.changed();
        match read_kept(folder) {
            Ok((v, spec)) => self.launch(v, folder.to_path_buf(), spec.0, spec.1),
            Err(e) => self.feedback.error(e),
        }
    }

    /// Shows the report kept in `folder` (its figures when it ended).
    pub fn open(&mut self, folder: &Path) {
        self.feedback.changed();
        match read_kept(folder) {
            Ok((variant, _)) => {
                let report = std::fs::read_to_string(folder.join("report.json"))
                    .ok()
                    .and_then(|t| serde_json::from_str(&t).ok());
                self.shown = Some(ShownReport {
                    folder: folder.to_path_buf(),
                    variant,
                    report,
                });
            }
            Err(e) => self.feedback.error(e),
        }
    }

    fn launch(&mut self, variant: Variant, folder: PathBuf, budget: Budget, seed: u64) {
        let v = variant.clone();
        let dir = folder.clone();
        let work = move |r: Reporter<ReportMsg>| {
            let config = ReportConfig::new(budget, seed, super::model::threads());
            let made = run_report(
                &v,
                v.name(),
                &config,
                Some((&dir, Mode::Resume)),
                &Forward(&r),
            )
            .map_err(|e| e.to_string())
            .and_then(|report| {
                murus_publish::write_report(&dir, &v, &report, None).map_err(|e| e.to_string())?;
                Ok(Box::new(report))
            });
            r.send(ReportMsg::Ended(made));
        };
        if let Err(busy) = self.worker.start(A_REPORT, work) {
            self.feedback.error(busy.to_string());
            return;
        }
        self.shown = Some(ShownReport {
            folder,
            variant,
            report: None,
        });
        self.progress = None;
        self.sections.clear();
        self.ended = None;
        self.rescan();
    }

    /// The sections the report going on (or the last one made) finished,
    /// in order: title and answer.
    pub fn sections(&self) -> &[(String, String)] {
        &self.sections
    }

    /// Asks the report to stop; its finished stages are kept.
    pub fn cancel(&mut self) {
        self.worker.stop();
    }

    /// Collects the progress and the end of the report going on.
    pub fn poll(&mut self) {
        for m in self.worker.poll() {
            match m {
                ReportMsg::Progress(mut p) => {
                    if let Some(section) = p.section.take() {
                        self.sections.push(section);
                    }
                    self.progress = Some(p);
                }
                ReportMsg::Ended(r) => self.ended = Some(r),
            }
        }
        if self.worker.is_running() {
            return;
        }
        let Some(ended) = self.ended.take() else {
            return;
        };
        self.feedback.changed();
        match ended {
            Ok(report) => {
                self.feedback
                    .success("report finished: Open in browser shows its page".to_string());
                if let Some(s) = &mut self.shown {
                    s.report = Some(*report);
                }
            }
            Err(e) if e.contains("stopped") => self
                .feedback
                .info("report stopped; its finished stages are kept: Resume report goes on"),
            Err(e) => self.feedback.error(e),
        }
        self.rescan();
    }

    /// Opens the shown report's page in the browser.
    pub fn open_in_browser(&mut self) {
        self.feedback.changed();
        match self.page() {
            Some(page) => {
                if let Err(e) = (self.opener)(&page) {
                    self.feedback.error(e);
                }
            }
            None => self
                .feedback
                .error("no finished report to open".to_string()),
        }
    }

    /// Waits for the report going on to end (tests).
    pub fn settle(&mut self) {
        self.worker.wait();
        self.poll();
    }
}

/// The rules and settings of a kept report.
fn read_kept(folder: &Path) -> Result<(Variant, (Budget, u64)), String> {
    let rules = std::fs::read_to_string(folder.join(RULES_FILE))
        .map_err(|e| format!("{}: {e}", folder.join(RULES_FILE).display()))?;
    let variant = Variant::compile(&rules)
        .map_err(|_| format!("{}: the rules do not compile", folder.display()))?;
    let spec: Option<murus_lab::designer::ReportSpec> =
        std::fs::read_to_string(folder.join("report-run.json"))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok());
    let settings = spec.map_or((Budget::Quick, 1), |s| (s.budget, s.seed));
    Ok((variant, settings))
}
