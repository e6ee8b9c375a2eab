//! A run on a background thread ([`Batch`]), kept in a folder or not: its
//! handler hears its games as they finish and may stop it; join it for its
//! report.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use murus_engine::Variant;
use murus_engine::job::Handler;

use super::config::Config;
use super::play::{Deliver, RunProgress, Tally, play_range};
use crate::error::LabError;
use crate::folder::RunDir;
use crate::report::Report;

/// A self-play run on a background thread: join it for its report.
/// Dropping it stops the run (its folder, if any, is still finished,
/// marked interrupted).
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use murus_engine::Variant;
/// use murus_engine::job::{Cancel, HandlerExt};
/// use murus_lab::{Config, Mode, RunDir, RunProgress, spawn};
///
/// let variant = Variant::standard();
/// let config = Config::new(&variant, vec!["greedy".parse().unwrap()], 8, 3).with_threads(2);
/// # let folder = std::env::temp_dir().join(format!("murus-doc-batch-{}", std::process::id()));
/// # let _ = std::fs::remove_dir_all(&folder);
/// // Keep the run on disk, game by game (Mode::Resume continues it).
/// let (dir, _) = RunDir::open(&folder, &config.run_spec(), Mode::New).unwrap();
/// // A Cancel button (or Ctrl-C) stops it; each batch of finished games,
/// // with their moves, arrives on a worker thread.
/// let cancel = Cancel::new();
/// let arrived = Arc::new(AtomicU64::new(0));
/// let seen = arrived.clone();
/// let handler = cancel.clone().on_progress(move |p: &RunProgress| {
///     seen.fetch_add(p.games.len() as u64, Ordering::Relaxed);
///     assert!(p.done <= p.total);
/// });
/// let batch = spawn(&variant, config, Some(dir), handler).unwrap();
/// let report = batch.join().unwrap();
/// assert_eq!(report.games, 8);
/// assert!(!report.interrupted);
/// assert_eq!(arrived.load(Ordering::Relaxed), 8);
/// assert!(folder.join("report.json").is_file());
/// # std::fs::remove_dir_all(&folder).unwrap();
/// ```
#[derive(Debug)]
pub struct Batch {
    config: Config,
    total: u64,
    /// Raised when the batch is dropped: the run stops.
    dropped: Arc<AtomicBool>,
    handle: Option<JoinHandle<Result<Report, LabError>>>,
}

/// The caller's handler, stopped too when the [`Batch`] is dropped.
struct Guarded<H> {
    inner: H,
    dropped: Arc<AtomicBool>,
}

impl<H: Handler<RunProgress>> Handler<RunProgress> for Guarded<H> {
    fn stop(&self) -> bool {
        self.dropped.load(Ordering::Relaxed) || self.inner.stop()
    }
    fn progress(&self, progress: &RunProgress) {
        self.inner.progress(progress);
    }
}

/// Starts `config`'s run on a thread named `murus-lab` (workers
/// `murus-lab-N`), kept in `dir` when given ([`RunDir::open`], new or to
/// continue: each game is appended as it finishes, games already there
/// are not played again and count in the reports, and the report files
/// are written when the run ends). `handler` hears each batch of games as
/// it finishes, with their moves, in finishing order (which depends on the
/// threads; the reports do not), and may stop the run: its finished games
/// are kept and its report is marked
/// [`interrupted`](Report::interrupted). Results are those of
/// [`crate::run`] with the same configuration. Fails when `dir` holds a
/// different run, or no thread can be started.
pub fn spawn(
    variant: &Variant,
    mut config: Config,
    dir: Option<RunDir>,
    handler: impl Handler<RunProgress> + Send + 'static,
) -> Result<Batch, LabError> {
    if let Some(dir) = &dir {
        dir.check(&config.run_spec())?;
        config.record_moves = true;
    }
    let total = config.planned();
    let dropped = Arc::new(AtomicBool::new(false));
    let handler = Guarded {
        inner: handler,
        dropped: dropped.clone(),
    };
    let (v, c) = (variant.clone(), config.clone());
    let handle = std::thread::Builder::new()
        .name("murus-lab".into())
        .spawn(move || run_batch(&v, &c, dir, &handler))
        .map_err(|source| LabError::Io {
            path: "(thread murus-lab)".into(),
            source,
        })?;
    Ok(Batch {
        config,
        total,
        dropped,
        handle: Some(handle),
    })
}

/// The body of a [`Batch`]'s thread.
fn run_batch(
    variant: &Variant,
    config: &Config,
    dir: Option<RunDir>,
    handler: &dyn Handler<RunProgress>,
) -> Result<Report, LabError> {
    let resumed = dir.as_ref().map(|d| d.done().to_vec()).unwrap_or_default();
    let skip: Vec<u64> = resumed.iter().map(|g| g.index).collect();
    let dir = dir.map(Mutex::new);
    let deliver = Deliver {
        dir: dir.as_ref(),
        keep: None,
    };
    let tally = Tally::new(handler, config.planned(), &resumed);
    let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        play_range(
            variant,
            config,
            &tally,
            0..config.planned(),
            &skip,
            &deliver,
        );
    }));
    if let Err(panic) = played {
        let why = panic
            .downcast_ref::<&str>()
            .map(ToString::to_string)
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        return Err(LabError::Panicked(why));
    }
    if let Some(e) = tally.take_error() {
        return Err(e);
    }
    let stopped = tally.stopped();
    let report = config.report_interrupted(&tally.take_stats(), stopped);
    if let Some(dir) = dir {
        dir.into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .finish(&report)?;
    }
    Ok(report)
}

impl Batch {
    /// Games this run plays (its shard's share), including those a resumed
    /// run found done.
    pub fn total(&self) -> u64 {
        self.total
    }
    /// Whether the run has ended (finished, stopped or failed) and its
    /// folder, if any, is written.
    pub fn is_finished(&self) -> bool {
        self.handle.as_ref().is_none_or(JoinHandle::is_finished)
    }
    /// The run's configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// Waits for the run and returns its report (after its handler stopped
    /// it: of the finished games, marked
    /// [`interrupted`](Report::interrupted)). Fails when a game could not
    /// be played or saved to the run's folder, or a worker panicked.
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
            self.dropped.store(true, Ordering::Relaxed);
        }
    }
}
