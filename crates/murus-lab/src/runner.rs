//! The one self-play runner: worker threads claim game numbers, play them,
//! and hand each finished game to its destinations (the run's statistics,
//! a callback, a [`RunDir`], a list), in the foreground ([`run`]) or on a
//! background thread ([`spawn`]).

use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use murus_ai::BotSpec;
use murus_engine::Variant;

use crate::play::{GameResult, play_game};
use crate::report::{GameStats, Report};
use crate::rundir::RunDir;
use crate::{Config, LabError};

/// Shared state of a running batch: cancel it, watch its progress, read the
/// statistics of its finished games.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to stop: games in progress are dropped, finished ones kept.
    pub cancel: Arc<AtomicBool>,
    /// Statistics of the finished games (in finishing order).
    stats: Mutex<Vec<GameStats>>,
    done: AtomicU64,
    /// The first error that stopped the run (a game that could not be saved).
    error: Mutex<Option<LabError>>,
}

impl Control {
    /// A control whose cancel flag is `cancel` (shared with what sets it).
    pub fn with_cancel(cancel: Arc<AtomicBool>) -> Control {
        Control {
            cancel,
            ..Control::default()
        }
    }
    /// Games finished so far (counted in batches, at most 50 ms late).
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }
    /// The statistics records of the games finished so far, in finishing
    /// order (a copy of small records, never of the games' moves).
    pub fn stats(&self) -> Vec<GameStats> {
        lock(&self.stats).clone()
    }
    /// Asks the run to stop.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
    /// Counts games finished before the run started (a resumed run's).
    pub(crate) fn preload(&self, done: &[GameStats]) {
        lock(&self.stats).extend_from_slice(done);
        self.done.fetch_add(done.len() as u64, Ordering::Relaxed);
    }
    /// The records added since there were `from`.
    pub(crate) fn stats_since(&self, from: usize) -> Vec<GameStats> {
        lock(&self.stats).get(from..).unwrap_or_default().to_vec()
    }
    pub(crate) fn stats_len(&self) -> usize {
        lock(&self.stats).len()
    }
    /// Stops the run on `error` (the first one is kept).
    fn fail(&self, error: LabError) {
        lock(&self.error).get_or_insert(error);
        self.cancel();
    }
    /// The error that stopped the run, if one did.
    pub(crate) fn take_error(&self) -> Option<LabError> {
        lock(&self.error).take()
    }
}

/// Locks `m`, going on after a panic elsewhere (the data are records that
/// are whole or absent).
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Where finished games go besides the run's statistics.
#[derive(Default)]
pub(crate) struct Deliver<'a> {
    /// Appended to the run's folder as each finishes.
    pub dir: Option<&'a Mutex<RunDir>>,
    /// Handed each game on the worker thread as it finishes.
    pub on_game: Option<&'a (dyn Fn(GameResult) + Sync)>,
    /// Collected (for [`run`]).
    pub keep: Option<&'a Mutex<Vec<GameResult>>>,
}

/// How often workers hand finished games' records over at the latest.
const FLUSH_EVERY: Duration = Duration::from_millis(50);

/// Plays the run's games numbered `config.game_number(j)` for `j` in
/// `range`, except those in `skip` (sorted), on `config.threads` threads.
/// Stops early when `control` is cancelled; games in progress then are
/// dropped.
pub(crate) fn play_range(
    variant: &Variant,
    config: &Config,
    control: &Control,
    range: Range<u64>,
    skip: &[u64],
    deliver: &Deliver,
) {
    let count = range.end.saturating_sub(range.start);
    let threads = (config.threads as u64).min(count).max(1) as usize;
    let next = AtomicU64::new(range.start);
    // Workers claim a few games at a time, so that fast games do not fight
    // over one counter; few enough that slow games still share out evenly.
    let chunk = (count / (threads as u64 * 64)).clamp(1, 16);
    // Only searching bots poll the cancel flag; random and greedy games are
    // too short to need it, and cloning the shared `Arc` for every game
    // would make threads fight over its reference count.
    let searching = config.bots.iter().any(BotSpec::searches);
    let work = || {
        let mut stats: Vec<GameStats> = Vec::new();
        let mut games: Vec<GameResult> = Vec::new();
        // Finished games reach `Control` (and its count) in batches, cheap
        // for fast games, or at least every 50 ms for slow ones; batching
        // never changes the results.
        let mut flushed = Instant::now();
        let flush = |stats: &mut Vec<GameStats>, games: &mut Vec<GameResult>| {
            let n = stats.len() as u64;
            lock(&control.stats).append(stats);
            control.done.fetch_add(n, Ordering::Relaxed);
            if let Some(keep) = deliver.keep {
                lock(keep).append(games);
            }
        };
        'claims: loop {
            let first = next.fetch_add(chunk, Ordering::Relaxed);
            for j in first..(first + chunk).min(range.end) {
                if control.is_cancelled() {
                    break 'claims;
                }
                let index = config.game_number(j);
                if skip.binary_search(&index).is_ok() {
                    continue;
                }
                let stop = searching.then(|| control.cancel.clone());
                let g = match play_game(variant, &config.setup(index), stop) {
                    Ok(g) => g,
                    Err(e) => {
                        control.fail(e);
                        break 'claims;
                    }
                };
                if control.is_cancelled() {
                    break 'claims; // its bots may have been cut short
                }
                let record = g.stats;
                if let Some(dir) = deliver.dir
                    && let Err(e) = lock(dir).append(&g)
                {
                    control.fail(e);
                    break 'claims;
                }
                stats.push(record);
                match (deliver.on_game, deliver.keep.is_some()) {
                    (Some(f), true) => {
                        f(g.clone());
                        games.push(g);
                    }
                    (Some(f), false) => f(g),
                    (None, true) => games.push(g),
                    (None, false) => {}
                }
                if stats.len() >= 64 || flushed.elapsed() >= FLUSH_EVERY {
                    flush(&mut stats, &mut games);
                    flushed = Instant::now();
                }
            }
            if first + chunk >= range.end {
                break;
            }
        }
        flush(&mut stats, &mut games);
    };
    std::thread::scope(|scope| {
        // Helpers on named threads; this thread works too, so a failure to
        // start a thread only makes the run slower.
        for t in 1..threads {
            let _ = std::thread::Builder::new()
                .name(format!("murus-lab-{t}"))
                .spawn_scoped(scope, work);
        }
        work();
    });
}

/// How a sequential run ended ([`play_sequential`]).
pub(crate) struct Sequential {
    /// The games judged, in number order: a gapless prefix `0..n`; after a
    /// run stopped short, every finished game, in number order.
    pub played: Vec<GameStats>,
    /// Whether `decide` stopped the run (rather than the last game, or a
    /// cancel).
    pub decided: bool,
    /// The first game number not judged.
    pub next: u64,
}

/// Plays the games numbered `0..games` of an unsharded run in chunks and
/// judges them in number order: after each `step` games (a pair, say) it
/// asks `decide` about the prefix played so far and stops at the first
/// prefix that decides. So which games count depends neither on the
/// threads nor on interruptions. `resumed` are games already finished (a
/// resumed run's): they are not played again. A run that stops short (a
/// cancel, an error) keeps every finished game.
pub(crate) fn play_sequential(
    variant: &Variant,
    config: &Config,
    control: &Control,
    resumed: &[GameStats],
    deliver: &Deliver,
    step: u64,
    mut decide: impl FnMut(&[GameStats]) -> bool,
) -> Sequential {
    let games = config.games;
    let step = step.max(1);
    let mut pool: std::collections::BTreeMap<u64, GameStats> =
        resumed.iter().map(|g| (g.index, *g)).collect();
    let mut played = Vec::new();
    let chunk = (config.threads as u64 * 8).max(16);
    let mut next = 0;
    let mut decided = false;
    'judge: loop {
        while let Some(g) = pool.remove(&next) {
            played.push(g);
            next += 1;
            if played.len() as u64 % step == 0 && decide(&played) {
                decided = true;
                break 'judge;
            }
        }
        if next >= games || control.is_cancelled() {
            break;
        }
        let end = (next + chunk).min(games);
        let skip: Vec<u64> = pool.range(next..end).map(|(&i, _)| i).collect();
        let before = control.stats_len();
        play_range(variant, config, control, next..end, &skip, deliver);
        pool.extend(
            control
                .stats_since(before)
                .into_iter()
                .map(|g| (g.index, g)),
        );
        if control.is_cancelled() && !pool.contains_key(&next) {
            break;
        }
    }
    if !decided {
        played.extend(pool.into_values());
    }
    Sequential {
        played,
        decided,
        next,
    }
}

/// Plays the run's games on `config.threads` threads and returns the
/// finished games sorted by number. Cancelling keeps finished games; their
/// statistics stay in `control` for [`Config::report_after`]. To watch a
/// run, keep it on disk or resume it, use [`spawn`].
pub fn run(variant: &Variant, config: &Config, control: &Control) -> Vec<GameResult> {
    let kept = Mutex::new(Vec::new());
    let deliver = Deliver {
        keep: Some(&kept),
        ..Deliver::default()
    };
    play_range(variant, config, control, 0..config.planned(), &[], &deliver);
    let mut games = kept.into_inner().unwrap_or_else(PoisonError::into_inner);
    games.sort_by_key(|g| g.stats.index);
    games
}

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
/// Results are those of [`run`] with the same configuration. Fails when
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
