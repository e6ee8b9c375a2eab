//! What every lab job shares, written once: a [`JobPanel`] over a kind of
//! job ([`JobKind`]: self-play runs, balance checks, the checks of a
//! comparison, reports) holds the worker that plays it, the folder of the
//! one going on, the history of those kept in the runs folder, the one a
//! crash cut short offered for resuming, and the panel's message; it says whether something is busy,
//! starts, cancels, offers, resumes and discards alike for every kind. The
//! models add what is their own: what a job shows and how it ends.

use std::path::{Path, PathBuf};

use murus_ai::SpecError;
use murus_engine::Variant;
use murus_lab::LabError;

use crate::Feedback;
use crate::worker::{Busy, Reporter, Waker, Worker};

/// What went wrong in a lab job's files or work, each naming the file at
/// fault where there is one: the message the panel shows is its text, and
/// the cause (murus-lab's error, the system's) stays its source.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// murus-lab refused or failed (its error names the file).
    #[error(transparent)]
    Lab(#[from] LabError),
    /// A file or folder of the studio's own (a note, the rules kept, a
    /// run's folder) could not be read or made.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file written whole or not at all was not (the system's error
    /// names the file).
    #[error("{0}")]
    Write(#[source] std::io::Error),
    /// Rules that do not compile: the file (as shown), where, and why.
    #[error("{file}:{line}:{column}: {message}")]
    Rules {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// A bot spec that does not read.
    #[error(transparent)]
    Bot(#[from] SpecError),
    /// Settings, rules or a folder that make no job: what to change.
    #[error("{0}")]
    Refused(String),
    /// The error of a part of the job: `seat 2: …`, `cannot resume: …`.
    #[error("{what}: {source}")]
    In { what: String, source: Box<JobError> },
    /// Another job goes on.
    #[error(transparent)]
    Busy(#[from] Busy),
    /// The user stopped it.
    #[error("stopped")]
    Stopped,
}

impl JobError {
    /// A refusal saying `why`.
    pub fn refused(why: impl Into<String>) -> JobError {
        JobError::Refused(why.into())
    }

    /// This error as the error of `what`, a part of the job.
    pub fn within(self, what: impl Into<String>) -> JobError {
        JobError::In {
            what: what.into(),
            source: Box::new(self),
        }
    }

    /// The error of the system's `source` about `path`.
    pub fn io(path: &Path) -> impl FnOnce(std::io::Error) -> JobError + '_ {
        move |source| JobError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The rules `source`, shown as `file`, compiled: the variant, or where
    /// and why they do not compile (their first error).
    pub fn compile(file: &str, source: &str) -> Result<Variant, JobError> {
        Variant::compile(source).map_err(|d| match d.first() {
            Some(d) => {
                let (line, column) = d.line_col(source);
                JobError::Rules {
                    file: file.to_string(),
                    line,
                    column,
                    message: d.message.clone(),
                }
            }
            None => JobError::refused(format!("{file}: the rules do not compile")),
        })
    }
}

/// The threads a lab job uses: all the CPUs the studio may run on
/// ([`murus_engine::util::default_threads`]) but one, kept for the UI.
pub(crate) fn threads() -> usize {
    murus_engine::util::default_threads()
        .saturating_sub(1)
        .max(1)
}

/// A job kept in the runs folder, as a history lists it.
pub trait Kept: Clone {
    /// Its folder.
    fn folder(&self) -> &Path;
    /// Whether resuming it would play more.
    fn resumable(&self) -> bool;
    /// Whether a start-up should offer to resume it: a crash or a restart
    /// cut it short, not the user.
    fn offered(&self) -> bool;
    /// Marks it as being played now.
    fn mark_running(&mut self);
}

/// A kind of lab job.
pub trait JobKind {
    /// What its worker tells the model.
    type Msg: Send + 'static;
    /// A kept job, as the history lists it.
    type Kept: Kept;
    /// What the job is called while it goes on (`a lab run`).
    const WHAT: &'static str;
    /// What declining the offer to resume one says.
    const DISCARDED: &'static str;
    /// The jobs of this kind kept in the runs folder `runs`, newest first.
    fn list(runs: &Path) -> Vec<Self::Kept>;
    /// Records in `folder` whether the user stopped its job (such a job is
    /// not offered after a restart).
    fn set_stopped_by_user(folder: &Path, stopped: bool) -> Result<(), JobError>;
}

/// The part of a lab model that every kind of job shares.
pub struct JobPanel<K: JobKind> {
    /// The runs folder.
    runs: PathBuf,
    worker: Worker<K::Msg>,
    /// The folder of the job going on.
    live: Option<PathBuf>,
    history: Vec<K::Kept>,
    /// The folder of a job a crash cut short, offered for resuming.
    offer: Option<PathBuf>,
    feedback: Feedback,
}

impl<K: JobKind> std::fmt::Debug for JobPanel<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobPanel")
            .field("what", &K::WHAT)
            .field("runs", &self.runs)
            .field("live", &self.live)
            .field("offer", &self.offer)
            .finish_non_exhaustive()
    }
}

impl<K: JobKind> JobPanel<K> {
    /// The jobs kept in `runs`, the newest one a crash cut short offered;
    /// its work calls `waker` when it reports.
    pub fn new(runs: &Path, waker: Waker) -> JobPanel<K> {
        let mut p = JobPanel {
            runs: runs.to_path_buf(),
            worker: Worker::new(waker),
            live: None,
            history: Vec::new(),
            offer: None,
            feedback: Feedback::default(),
        };
        p.rescan();
        p.find_offer();
        p
    }

    /// The runs folder.
    pub fn runs_dir(&self) -> &Path {
        &self.runs
    }

    /// Keeps jobs in `runs` from now on (nothing happens when it is the
    /// folder already used): reads its history and its offer.
    pub fn set_runs_dir(&mut self, runs: &Path) {
        if self.runs != runs {
            self.runs = runs.to_path_buf();
            self.rescan();
            self.find_offer();
        }
    }

    /// Reads the history from the runs folder again, the job going on
    /// marked running.
    pub fn rescan(&mut self) {
        self.history = K::list(&self.runs);
        if let Some(live) = self.live.clone().filter(|_| self.is_running()) {
            for k in &mut self.history {
                if k.folder() == live {
                    k.mark_running();
                }
            }
        }
    }

    /// Offers the newest job a crash cut short (none while one goes on).
    pub fn find_offer(&mut self) {
        self.offer = if self.is_running() {
            None
        } else {
            self.history
                .iter()
                .find(|k| k.offered())
                .map(|k| k.folder().to_path_buf())
        };
    }

    /// The jobs kept, newest first.
    pub fn history(&self) -> &[K::Kept] {
        &self.history
    }

    /// The history, to update the job going on's entry.
    pub fn history_mut(&mut self) -> &mut [K::Kept] {
        &mut self.history
    }

    /// The job offered for resuming, if any.
    pub fn offer(&self) -> Option<&K::Kept> {
        let folder = self.offer.as_ref()?;
        self.history.iter().find(|k| k.folder() == folder)
    }

    /// Takes the offer, to resume it.
    pub fn take_offer(&mut self) -> Option<PathBuf> {
        self.offer.take()
    }

    /// Declines the offer: the job stays in the history, and is not
    /// offered again.
    pub fn discard_offer(&mut self) {
        let Some(folder) = self.offer.take() else {
            return;
        };
        self.feedback.changed();
        match K::set_stopped_by_user(&folder, true) {
            Ok(()) => self.feedback.info(K::DISCARDED),
            Err(e) => self.feedback.error(e.to_string()),
        }
        self.rescan();
    }

    /// Whether the kept job in `folder` stopped short and can go on (and
    /// nothing goes on now).
    pub fn resumable(&self, folder: &Path) -> bool {
        !self.is_running()
            && self
                .history
                .iter()
                .any(|k| k.folder() == folder && k.resumable())
    }

    /// The panel's message.
    pub fn feedback(&self) -> &Feedback {
        &self.feedback
    }

    /// The panel's message, to set.
    pub fn feedback_mut(&mut self) -> &mut Feedback {
        &mut self.feedback
    }

    /// Whether a job is under way.
    pub fn is_running(&self) -> bool {
        self.worker.is_running()
    }

    /// Whether it was asked to stop and has not stopped yet.
    pub fn is_cancelling(&self) -> bool {
        self.is_running() && self.worker.is_cancelled()
    }

    /// The work under way, when nothing can start now.
    pub fn busy(&self) -> Option<Busy> {
        self.worker.ready().err()
    }

    /// Whether a job can start now: the old message goes, and while a job
    /// goes on the message says so (`false`).
    pub fn ready(&mut self) -> bool {
        self.feedback.changed();
        match self.worker.ready() {
            Ok(()) => true,
            Err(busy) => {
                self.feedback.error(busy.to_string());
                false
            }
        }
    }

    /// Plays `work` on the worker, kept in `folder`: it is no longer
    /// offered, and it shows as running in the history. `false` (and a
    /// message) when a job goes on already.
    pub fn start(
        &mut self,
        folder: &Path,
        work: impl FnOnce(Reporter<K::Msg>) + Send + 'static,
    ) -> bool {
        if let Err(busy) = self.worker.start(K::WHAT, work) {
            self.feedback.error(busy.to_string());
            return false;
        }
        self.live = Some(folder.to_path_buf());
        self.offer = None;
        self.rescan();
        true
    }

    /// The job going on has moved on to the kept job in `folder` (a
    /// comparison's next check): a cancel now stops that one.
    pub fn moved_on(&mut self, folder: &Path) {
        if self.is_running() {
            self.live = Some(folder.to_path_buf());
        }
    }

    /// Goes on with the kept job in `folder` (the user no longer stopped
    /// it); a note that cannot be written is a warning.
    pub fn resuming(&mut self, folder: &Path) {
        if let Err(e) = K::set_stopped_by_user(folder, false) {
            self.feedback.warning(e.to_string());
        }
    }

    /// Asks the job going on to stop; what it finished is kept, and the
    /// user's stop is noted in its folder (it is not offered again).
    pub fn cancel(&mut self) {
        if !self.is_running() {
            return;
        }
        self.worker.stop();
        if let Some(folder) = &self.live
            && let Err(e) = K::set_stopped_by_user(folder, true)
        {
            self.feedback.warning(e.to_string());
        }
    }

    /// The job going on's messages since the last call.
    pub fn poll(&mut self) -> Vec<K::Msg> {
        self.worker.poll()
    }

    /// Once the job going on has ended and its last message is read: its
    /// folder (once). The history is read again.
    pub fn ended(&mut self) -> Option<PathBuf> {
        if self.is_running() {
            return None;
        }
        let folder = self.live.take()?;
        self.rescan();
        Some(folder)
    }

    /// Waits for the job going on to end (tests and scripts).
    pub fn wait(&mut self) {
        self.worker.wait();
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    #[test]
    fn a_job_error_names_the_file_and_keeps_its_cause() {
        let folder = std::env::temp_dir().join(format!(
            "murus-studio-job-error-{}/no-such-folder",
            std::process::id()
        ));
        let e = crate::lab::runs::set_stopped_by_user(&folder, true).unwrap_err();
        assert!(matches!(e, JobError::Write(_)), "{e:?}");
        assert!(e.to_string().contains("no-such-folder/studio.json"), "{e}");
        assert!(e.source().is_some(), "the system's error is its source");
        let e = e.within("cannot resume");
        assert!(e.to_string().starts_with("cannot resume: "), "{e}");
        assert!(e.source().and_then(|s| s.source()).is_some(), "a chain");
        let e = JobError::compile("bad.mg", "variant \"bad\"\nboard rect 0 x 0\n").unwrap_err();
        assert!(
            matches!(&e, JobError::Rules { file, line: 1, column: 1, .. } if file == "bad.mg"),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "bad.mg:1:1: missing `player`");
        let lab = murus_lab::balance::parse_levels("grandmaster").unwrap_err();
        let e = JobError::from(lab);
        assert!(matches!(e, JobError::Lab(_)));
        assert!(
            e.to_string().starts_with("unknown level `grandmaster`"),
            "{e}"
        );
    }
}
