//! The worker threads of a run: they claim game numbers, play them and
//! hand each finished game over; and the sequential judging of games in
//! number order that the balance check's and the match's tests need.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use murus_ai::BotSpec;
use murus_engine::Variant;
use murus_engine::job::Handler;

use super::config::Config;
use crate::error::LabError;
use crate::folder::RunDir;
use crate::play::{GameSetup, play_game};
use crate::record::{GameResult, GameStats};

/// Where a run of games stands: what its [`Handler`] hears, at least every
/// 50 ms while games finish (from the worker threads, each with its own
/// news), and once when the run starts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunProgress {
    /// Games finished so far, those a resumed run found done included.
    pub done: u64,
    /// Games the run plays (its shard's share; a sequential test's most).
    pub total: u64,
    /// The games finished since the last news, in finishing order (which
    /// depends on the threads; the reports do not), with their moves when
    /// the run writes them down.
    pub games: Vec<GameResult>,
}

/// A run under way: its handler, and what its workers share.
pub(crate) struct Tally<'h> {
    handler: &'h dyn Handler<RunProgress>,
    total: u64,
    /// Set once the run must stop (its handler said so, or a game failed):
    /// the workers stop, and searching bots poll it.
    halt: Arc<AtomicBool>,
    /// Statistics of the finished games (in finishing order).
    stats: Mutex<Vec<GameStats>>,
    done: AtomicU64,
    /// The first error that stopped the run (a game that could not be
    /// played or saved).
    error: Mutex<Option<LabError>>,
}

impl<'h> Tally<'h> {
    /// A run of `total` games heard by `handler`, `resumed` of them
    /// finished before it started; the handler hears of them at once.
    pub(crate) fn new(
        handler: &'h dyn Handler<RunProgress>,
        total: u64,
        resumed: &[GameStats],
    ) -> Tally<'h> {
        let tally = Tally {
            handler,
            total,
            halt: Arc::new(AtomicBool::new(false)),
            stats: Mutex::new({
                // Room for every record at once: a run of random games
                // otherwise spends a tenth of its time growing the list.
                let mut all = Vec::with_capacity(total.min(1 << 24) as usize);
                all.extend_from_slice(resumed);
                all
            }),
            done: AtomicU64::new(resumed.len() as u64),
            error: Mutex::new(None),
        };
        handler.progress(&RunProgress {
            done: tally.done(),
            total,
            games: Vec::new(),
        });
        tally
    }

    /// Whether the run must stop: a game failed, or the handler says so.
    pub(crate) fn stopped(&self) -> bool {
        if self.halt.load(Ordering::Relaxed) {
            return true;
        }
        let stop = self.handler.stop();
        if stop {
            self.halt.store(true, Ordering::Relaxed);
        }
        stop
    }

    /// Games finished so far.
    pub(crate) fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// The statistics records of the games finished so far, in finishing
    /// order (a copy of small records, never of the games' moves).
    pub(crate) fn stats(&self) -> Vec<GameStats> {
        lock(&self.stats).clone()
    }

    /// The statistics records of the games finished, taken out (a run
    /// that has ended reports on them without copying them).
    pub(crate) fn take_stats(&self) -> Vec<GameStats> {
        std::mem::take(&mut *lock(&self.stats))
    }

    /// The records added since there were `from`.
    fn stats_since(&self, from: usize) -> Vec<GameStats> {
        lock(&self.stats).get(from..).unwrap_or_default().to_vec()
    }

    fn stats_len(&self) -> usize {
        lock(&self.stats).len()
    }

    /// Stops the workers because a sequential test decided: no game is
    /// started, and the games in progress are cut short and not kept.
    fn cut(&self) {
        self.halt.store(true, Ordering::Relaxed);
    }

    /// Stops the run on `error` (the first one is kept).
    fn fail(&self, error: LabError) {
        lock(&self.error).get_or_insert(error);
        self.halt.store(true, Ordering::Relaxed);
    }

    /// The error that stopped the run, if one did.
    pub(crate) fn take_error(&self) -> Option<LabError> {
        lock(&self.error).take()
    }

    /// Counts a worker's finished games and tells the handler; keeps the
    /// games in `keep` when given.
    fn flush(
        &self,
        stats: &mut Vec<GameStats>,
        games: &mut Vec<GameResult>,
        keep: Option<&Mutex<Vec<GameResult>>>,
    ) {
        if stats.is_empty() {
            return;
        }
        let done = {
            let mut all = lock(&self.stats);
            all.append(stats);
            all.len() as u64
        };
        self.done.fetch_max(done, Ordering::Relaxed);
        let news = RunProgress {
            done,
            total: self.total,
            games: std::mem::take(games),
        };
        self.handler.progress(&news);
        if let Some(keep) = keep {
            lock(keep).extend(news.games);
        }
    }
}

/// Locks `m`, going on after a panic elsewhere (the data are records that
/// are whole or absent).
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Where finished games go besides the run's statistics and its handler.
#[derive(Default)]
pub(crate) struct Deliver<'a> {
    /// Appended to the run's folder as each finishes.
    pub dir: Option<&'a Mutex<RunDir>>,
    /// Collected (for [`run`]).
    pub keep: Option<&'a Mutex<Vec<GameResult>>>,
}

/// Replays the games a resumed folder kept before any game is played or
/// judged ([`RunDir::check_games`], once per folder); a game that does not
/// replay stops the run with its error. Returns whether the run may go on.
fn check_kept(variant: &Variant, tally: &Tally, deliver: &Deliver) -> bool {
    match deliver.dir.map(|d| lock(d).check_games(variant)) {
        Some(Err(e)) => {
            tally.fail(e);
            false
        }
        _ => true,
    }
}

/// How often workers hand finished games' records over at the latest.
const FLUSH_EVERY: Duration = Duration::from_millis(50);

/// Plays the run's games numbered `config.game_number(j)` for `j` in
/// `range`, except those in `skip` (sorted), on `config.threads` threads.
/// Stops early when `tally` says so; games in progress then are dropped.
pub(crate) fn play_range(
    variant: &Variant,
    config: &Config,
    tally: &Tally,
    range: Range<u64>,
    skip: &[u64],
    deliver: &Deliver,
) {
    if !check_kept(variant, tally, deliver) {
        return;
    }
    let count = range.end.saturating_sub(range.start);
    let threads = (config.threads as u64).min(count).max(1) as usize;
    let next = AtomicU64::new(range.start);
    // Only searching bots poll the stop flag (while they think, a watcher
    // thread asks the handler for them); random and greedy games are too
    // short to need it, and cloning the shared `Arc` for every game would
    // make threads fight over its reference count.
    let searching = config.bots.iter().any(BotSpec::searches);
    // Workers claim a few fast games at a time, so that they do not fight
    // over one counter; searching games one at a time, so that a run ends
    // with at most one game on one thread while the others have none left
    // (claims of three left a balance check's hard level up to three hard
    // games on one thread at its end).
    let chunk = if searching {
        1
    } else {
        (count / (threads as u64 * 64)).clamp(1, 16)
    };
    let work = || {
        let mut stats: Vec<GameStats> = Vec::new();
        let mut games: Vec<GameResult> = Vec::new();
        // Finished games reach the tally (and the handler) in batches,
        // cheap for fast games, or at least every 50 ms for slow ones;
        // batching never changes the results.
        let mut flushed = Instant::now();
        let mut setup: Option<GameSetup> = None;
        'claims: loop {
            let first = next.fetch_add(chunk, Ordering::Relaxed);
            for j in first..(first + chunk).min(range.end) {
                if tally.stopped() {
                    break 'claims;
                }
                let index = config.game_number(j);
                if skip.binary_search(&index).is_ok() {
                    continue;
                }
                let stop = searching.then(|| tally.halt.clone());
                let setup = match &mut setup {
                    Some(s) => {
                        config.setup_into(index, s);
                        s
                    }
                    None => setup.insert(config.setup(index)),
                };
                let g = match play_game(variant, setup, stop) {
                    Ok(g) => g,
                    Err(e) => {
                        tally.fail(e);
                        break 'claims;
                    }
                };
                if tally.stopped() {
                    break 'claims; // its bots may have been cut short
                }
                if let Some(dir) = deliver.dir
                    && let Err(e) = lock(dir).append(&g)
                {
                    tally.fail(e);
                    break 'claims;
                }
                stats.push(g.stats.clone());
                games.push(g);
                // The clock read for slow games, and every 8 fast ones.
                if stats.len() >= 64
                    || (searching || stats.len() % 8 == 0) && flushed.elapsed() >= FLUSH_EVERY
                {
                    tally.flush(&mut stats, &mut games, deliver.keep);
                    flushed = Instant::now();
                }
            }
            if first + chunk >= range.end {
                break;
            }
        }
        tally.flush(&mut stats, &mut games, deliver.keep);
    };
    let over = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // Asks the handler whether to stop while bots think, and raises the
        // flag they poll.
        let watcher = searching.then(|| {
            scope.spawn(|| {
                while !over.load(Ordering::Acquire) && !tally.stopped() {
                    std::thread::park_timeout(WATCH_EVERY);
                }
            })
        });
        // Helpers on named threads; this thread works too, so a failure to
        // start a thread only makes the run slower.
        let helpers: Vec<_> = (1..threads)
            .filter_map(|t| {
                std::thread::Builder::new()
                    .name(format!("murus-lab-{t}"))
                    .spawn_scoped(scope, work)
                    .ok()
            })
            .collect();
        work();
        let panics: Vec<_> = helpers.into_iter().filter_map(|h| h.join().err()).collect();
        over.store(true, Ordering::Release);
        if let Some(w) = watcher {
            w.thread().unpark();
        }
        if let Some(panic) = panics.into_iter().next() {
            std::panic::resume_unwind(panic);
        }
    });
}

/// How often a run asks its handler whether to stop while searching bots
/// think.
const WATCH_EVERY: Duration = Duration::from_millis(10);

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

/// Plays the games numbered `0..games` of an unsharded run and judges them
/// in number order as they finish: after each `step` games (a pair, say)
/// it asks `decide` about the prefix played so far and stops at the first
/// prefix that decides. So which games count depends neither on the
/// threads nor on interruptions. The workers play on while the judge
/// waits for the prefix to fill (no thread idles at a chunk's end); once
/// it decides, no game is started and the games in progress are cut short
/// and dropped, like the finished games past the prefix. `resumed` are
/// games already finished (a resumed run's): they are not played again. A
/// run that stops short (a cancel, an error) keeps every finished game.
pub(crate) fn play_sequential(
    variant: &Variant,
    config: &Config,
    tally: &Tally,
    resumed: &[GameStats],
    deliver: &Deliver,
    step: u64,
    mut decide: impl FnMut(&[GameStats]) -> bool,
) -> Sequential {
    let games = config.games;
    let step = step.max(1);
    if !check_kept(variant, tally, deliver) {
        return Sequential {
            played: Vec::new(),
            decided: false,
            next: 0,
        };
    }
    let mut pool: std::collections::BTreeMap<u64, GameStats> =
        resumed.iter().map(|g| (g.index, g.clone())).collect();
    let mut played = Vec::new();
    let mut next = 0;
    // Takes the games of the prefix out of the pool, judging it after each
    // step; true once it decides.
    let mut judge = |pool: &mut std::collections::BTreeMap<u64, GameStats>, next: &mut u64| {
        while let Some(g) = pool.remove(next) {
            played.push(g);
            *next += 1;
            if played.len() as u64 % step == 0 && decide(&played) {
                return true;
            }
        }
        false
    };
    let mut decided = judge(&mut pool, &mut next);
    if !decided && next < games && !tally.stopped() {
        let skip: Vec<u64> = pool.range(next..games).map(|(&i, _)| i).collect();
        let mut seen = tally.stats_len();
        let from = next;
        std::thread::scope(|scope| {
            let players =
                scope.spawn(|| play_range(variant, config, tally, from..games, &skip, deliver));
            loop {
                let over = players.is_finished();
                let news = tally.stats_since(seen);
                seen += news.len();
                pool.extend(news.into_iter().map(|g| (g.index, g)));
                if judge(&mut pool, &mut next) {
                    decided = true;
                    tally.cut();
                    break;
                }
                if over {
                    break;
                }
                std::thread::park_timeout(JUDGE_EVERY);
            }
            if let Err(panic) = players.join() {
                std::panic::resume_unwind(panic);
            }
        });
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

/// How often a sequential run's judge looks at the games finished.
const JUDGE_EVERY: Duration = Duration::from_millis(5);

/// Plays the run's games on `config.threads` threads and returns the
/// finished games sorted by number. `handler` hears each batch of games as
/// it finishes and may stop the run: the finished games are kept (their
/// report: [`Config::report_interrupted`]). Fails when a game cannot be
/// played (an external engine failed); to keep a run on disk or resume
/// it, use [`crate::spawn`].
pub fn run(
    variant: &Variant,
    config: &Config,
    handler: &dyn Handler<RunProgress>,
) -> Result<Vec<GameResult>, LabError> {
    let kept = Mutex::new(Vec::new());
    let deliver = Deliver {
        keep: Some(&kept),
        ..Deliver::default()
    };
    let tally = Tally::new(handler, config.planned(), &[]);
    play_range(variant, config, &tally, 0..config.planned(), &[], &deliver);
    if let Some(e) = tally.take_error() {
        return Err(e);
    }
    let mut games = kept.into_inner().unwrap_or_else(PoisonError::into_inner);
    games.sort_by_key(|g| g.stats.index);
    Ok(games)
}
