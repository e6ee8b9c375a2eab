//! A run on a background thread ([`Batch`]): its progress, its reports,
//! cancel and join.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use murus_engine::Variant;

use super::config::Config;
use super::play::{Control, Deliver, lock, play_range};
use crate::error::LabError;
use crate::record::GameResult;
use crate::report::Report;
use crate::rundir::RunDir;

/// The report callback of [`Options::reports`].
type OnReport = Box<dyn Fn(&Report) + Send>;

/// How [`spawn`] runs a batch besides its configuration.
#[derive(Default)]
pub struct Options {
    dir: Option<RunDir>,
    reports: Option<(Duration, OnReport)>,
    cancel: Option<Arc<AtomicBool>>,
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("dir", &self.dir)
            .field("report_every", &self.reports.as_ref().map(|r| r.0))
            .field("cancel", &self.cancel)
            .finish()
    }
}

impl Options {
    /// Keeps the run in `dir` ([`RunDir::create`] for a new run,
    /// [`RunDir::open_for_resume`] to continue one): each game is appended
    /// as it finishes, games already there are not played again and count
    /// in the reports, and the report files are written when the run ends
    /// (marked interrupted after a cancel that cut it short).
    pub fn dir(mut self, dir: RunDir) -> Options {
        self.dir = Some(dir);
        self
    }

    /// Stops the run when `flag` is set, as [`Batch::cancel`] does; a flag
    /// made before the run starts (a Ctrl-C handler's) so that no signal
    /// falls between starting the run and taking its flag.
    pub fn cancel(mut self, flag: Arc<AtomicBool>) -> Options {
        self.cancel = Some(flag);
        self
    }

    /// Rebuilds the report on the run's own thread at most every `every`
    /// while games finish, keeps it for [`Batch::latest_report`] and hands it
    /// to `on_report` (to send it on a channel or ask for a repaint). The
    /// final report is handed over too.
    pub fn reports(
        mut self,
        every: Duration,
        on_report: impl Fn(&Report) + Send + 'static,
    ) -> Options {
        self.reports = Some((every, Box::new(on_report)));
        self
    }
}

/// What the run's thread shares with its [`Batch`].
#[derive(Debug, Default)]
struct Shared {
    control: Control,
    latest: Mutex<Option<Report>>,
}

/// A self-play run on a background thread: watch its progress, read its
/// reports, cancel it, and collect the final report. Dropping it cancels
/// the run (its folder, if any, is still finished, marked interrupted).
///
/// ```
/// use std::sync::mpsc;
/// use std::time::Duration;
/// use murus_engine::Variant;
/// use murus_lab::{Config, Options, RunDir, spawn};
///
/// let variant = Variant::standard();
/// let config = Config::new(&variant, vec!["greedy".parse().unwrap()], 8, 3).with_threads(2);
/// # let folder = std::env::temp_dir().join(format!("murus-doc-batch-{}", std::process::id()));
/// # let _ = std::fs::remove_dir_all(&folder);
/// // Keep the run on disk, game by game (RunDir::open_for_resume continues it).
/// let dir = RunDir::create(&folder, &config.run_spec()).unwrap();
/// let (games, arrived) = mpsc::channel();
/// let options = Options::default()
///     .dir(dir)
///     .reports(Duration::from_millis(250), |report| {
///         // On the run's thread: e.g. ask the UI for a repaint.
///         assert!(report.games <= 8);
///     });
/// // Each finished game, with its moves, on a worker thread.
/// let batch = spawn(&variant, config, options, move |game| {
///     let _ = games.send(game);
/// })
/// .unwrap();
/// while !batch.is_finished() {
///     let _progress = (batch.done(), batch.total());
///     let _latest = batch.latest_report(); // built on the run's thread
///     std::thread::sleep(Duration::from_millis(10));
/// }
/// let report = batch.join().unwrap();
/// assert_eq!(report.games, 8);
/// assert!(!report.interrupted);
/// assert_eq!(arrived.try_iter().count(), 8);
/// assert!(folder.join("report.json").is_file());
/// # std::fs::remove_dir_all(&folder).unwrap();
/// ```
#[derive(Debug)]
pub struct Batch {
    shared: Arc<Shared>,
    config: Config,
    total: u64,
    handle: Option<JoinHandle<Result<Report, LabError>>>,
}

/// Starts `config`'s run on a thread named `murus-lab` (workers
/// `murus-lab-N`); `on_game` is handed each game, with its moves, on a
/// worker as it finishes, in finishing order (which depends on the threads; the reports do not).
/// Results are those of [`crate::run`] with the same configuration. Fails when
/// `options`' folder holds a different run, or no thread can be started.
pub fn spawn(
    variant: &Variant,
    mut config: Config,
    options: Options,
    on_game: impl Fn(GameResult) + Send + Sync + 'static,
) -> Result<Batch, LabError> {
    let mut shared = Shared::default();
    if let Some(flag) = &options.cancel {
        shared.control.cancel = flag.clone();
    }
    let shared = Arc::new(shared);
    if let Some(dir) = &options.dir {
        dir.check(&config.run_spec())?;
        config.record_moves = true;
        shared.control.preload(dir.done());
    }
    let total = config.planned();
    let (v, c, s) = (variant.clone(), config.clone(), shared.clone());
    let handle = std::thread::Builder::new()
        .name("murus-lab".into())
        .spawn(move || run_batch(&v, &c, &s, options, &on_game))
        .map_err(|source| LabError::Io {
            path: "(thread murus-lab)".into(),
            source,
        })?;
    Ok(Batch {
        shared,
        config,
        total,
        handle: Some(handle),
    })
}

/// The body of a [`Batch`]'s thread.
fn run_batch(
    variant: &Variant,
    config: &Config,
    shared: &Shared,
    options: Options,
    on_game: &(dyn Fn(GameResult) + Sync),
) -> Result<Report, LabError> {
    let control = &shared.control;
    let Options { dir, reports, .. } = options;
    let skip: Vec<u64> = dir
        .as_ref()
        .map(|d| d.done().iter().map(|g| g.index).collect())
        .unwrap_or_default();
    let dir = dir.map(Mutex::new);
    let deliver = Deliver {
        dir: dir.as_ref(),
        on_game: Some(on_game),
        keep: None,
    };
    let publish = |report: &Report| {
        *lock(&shared.latest) = Some(report.clone());
        if let Some((_, f)) = &reports {
            f(report);
        }
    };
    let over = AtomicBool::new(false);
    let me = std::thread::current();
    let played = std::thread::scope(|scope| {
        let workers = scope.spawn(|| {
            play_range(
                variant,
                config,
                control,
                0..config.planned(),
                &skip,
                &deliver,
            );
            over.store(true, Ordering::Release);
            me.unpark();
        });
        if let Some((every, _)) = &reports {
            let mut reported = None;
            loop {
                std::thread::park_timeout(*every);
                if over.load(Ordering::Acquire) {
                    break;
                }
                let done = control.done();
                if reported != Some(done) {
                    reported = Some(done);
                    publish(&config.report_after(control));
                }
            }
        }
        workers.join()
    });
    if let Err(panic) = played {
        let why = panic
            .downcast_ref::<&str>()
            .map(ToString::to_string)
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        return Err(LabError::Panicked(why));
    }
    if let Some(e) = control.take_error() {
        return Err(e);
    }
    let report = config.report_after(control);
    if let Some(dir) = dir {
        dir.into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .finish(&report)?;
    }
    publish(&report);
    Ok(report)
}

impl Batch {
    /// Games this run plays (its shard's share), including those a resumed
    /// run found done.
    pub fn total(&self) -> u64 {
        self.total
    }
    /// Games finished so far, including those a resumed run found done.
    pub fn done(&self) -> u64 {
        self.shared.control.done()
    }
    /// Asks the run to stop: games in progress are dropped (their bots return
    /// at once), finished ones are kept.
    pub fn cancel(&self) {
        self.shared.control.cancel();
    }
    /// The shared cancel flag (for a Ctrl-C handler).
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.shared.control.cancel.clone()
    }
    pub fn is_cancelled(&self) -> bool {
        self.shared.control.is_cancelled()
    }
    /// Whether the run has ended (finished, cancelled or failed) and its
    /// folder, if any, is written.
    pub fn is_finished(&self) -> bool {
        self.handle.as_ref().is_none_or(JoinHandle::is_finished)
    }
    /// The run's configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// The report of the games finished so far, built now on the caller's
    /// thread from the games' statistics records (their moves are not
    /// copied); marked [`interrupted`](Report::interrupted) after a cancel
    /// that cut the run short.
    pub fn partial_report(&self) -> Report {
        self.config.report_after(&self.shared.control)
    }
    /// The report the run's thread built last ([`Options::reports`]), and
    /// once the run is over its final report; `None` before either.
    pub fn latest_report(&self) -> Option<Report> {
        lock(&self.shared.latest).clone()
    }
    /// Waits for the run and returns its report (after a cancel: of the
    /// finished games, marked [`interrupted`](Report::interrupted)). Fails
    /// when a game could not be saved to the run's folder, or a worker
    /// panicked.
    pub fn join(mut self) -> Result<Report, LabError> {
        match self.handle.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(LabError::Panicked("the lab thread".into())),
            None => Err(LabError::Invalid("the batch was already joined".into())),
        }
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        if self.handle.is_some() {
            self.cancel();
        }
    }
}
