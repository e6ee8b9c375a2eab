//! The worker threads of a run: they claim game numbers, play them and
//! hand each finished game over; and the sequential judging of games in
//! number order that the balance check's and the match's tests need.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use murus_ai::BotSpec;
use murus_engine::Variant;

use super::config::Config;
use crate::error::LabError;
use crate::play::play_game;
use crate::record::{GameResult, GameStats};
use crate::rundir::RunDir;

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
/// run, keep it on disk or resume it, use [`crate::spawn`].
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
