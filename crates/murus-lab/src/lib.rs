//! The balance lab: batch self-play that is reproducible from a seed,
//! whatever the number of threads, with reports a designer can trust.
//!
//! * Every game has its own seed, derived from the run's seed and the game's
//!   number, and its bots are created afresh, so a game's moves depend on
//!   nothing else: threads only change the order games finish in, and the
//!   report sorts them back.
//! * Seats rotate: with `P` players, seat `s` plays colour `(s + i) mod P` in
//!   game `i`, so each bot plays each colour equally often. A pie-rule swap
//!   exchanges the colours of seats 0 and 1; results are counted both ways.
//! * A shard `K/N` plays the games whose number is `K-1 mod N`; merging the
//!   shards' game files gives exactly the report of the whole run.
//!
//! ```
//! use murus_lab::{Config, Control, run};
//! use murus_engine::Variant;
//!
//! let variant = Variant::standard();
//! let config = Config::new(&variant, vec!["random".parse().unwrap()], 20, 7);
//! let control = Control::default();
//! let games = run(&variant, &config, &control);
//! let report = config.report(&games);
//! assert_eq!(report.games, 20);
//! ```
//!
//! The studio runs a batch on a background thread with [`spawn`], which
//! returns a [`Batch`]: progress, partial reports, cancel, join.

pub mod play;
pub mod report;
pub mod stats;

use std::path::Path;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use murus_ai::BotSpec;
use murus_engine::Variant;
use sha2::{Digest, Sha256};

pub use play::{GameResult, GameSetup, game_seed, play_game};
pub use report::{Provenance, Report, VariantId};
pub use stats::{Wdl, wilson};

/// A self-play run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Bot per seat (a shorter list repeats to fill every seat).
    pub bots: Vec<BotSpec>,
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub max_plies: u32,
    /// `(k, n)`: play only games with `index % n == k - 1`.
    pub shard: Option<(u64, u64)>,
    /// Write every game's moves down (default); off, games keep only their
    /// statistics, which is faster.
    pub record_moves: bool,
    provenance: Provenance,
}

/// Errors of the lab's inputs and files.
#[derive(Debug, thiserror::Error)]
pub enum LabError {
    #[error("{0}")]
    Invalid(String),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {message}")]
    Parse {
        path: String,
        line: usize,
        message: String,
    },
}

/// The SHA-256 of a variant's source, in hex.
pub fn source_sha256(source: &str) -> String {
    let digest = Sha256::digest(source.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

impl Config {
    /// A run of `games` games of `variant` by `bots`, seeded, one thread per
    /// core, capped at the variant's ply cap (or 1 000 plies).
    pub fn new(variant: &Variant, bots: Vec<BotSpec>, games: u64, seed: u64) -> Config {
        let players = variant.player_count();
        let bots: Vec<BotSpec> = (0..players).map(|s| bots[s % bots.len().max(1)]).collect();
        let max_plies = variant.rules().draw.ply_cap.unwrap_or(1000);
        Config {
            provenance: Provenance {
                variant: VariantId {
                    name: variant.name().to_string(),
                    source_sha256: source_sha256(variant.source()),
                },
                engine_version: env!("CARGO_PKG_VERSION").to_string(),
                bots: bots.iter().map(ToString::to_string).collect(),
                seed,
                requested: games,
                max_plies,
                shard: None,
                players: (0..players).map(|p| variant.letter(p)).collect(),
            },
            bots,
            games,
            seed,
            threads: std::thread::available_parallelism().map_or(1, usize::from),
            max_plies,
            shard: None,
            record_moves: true,
        }
    }

    /// Caps games at `plies` plies.
    pub fn with_max_plies(mut self, plies: u32) -> Config {
        self.max_plies = plies;
        self.provenance.max_plies = plies;
        self
    }

    /// Plays only shard `k` of `n` (1-based).
    pub fn with_shard(mut self, k: u64, n: u64) -> Result<Config, LabError> {
        if n == 0 || k == 0 || k > n {
            return Err(LabError::Invalid(format!(
                "shard {k}/{n}: K must be from 1 to N"
            )));
        }
        self.shard = Some((k, n));
        self.provenance.shard = Some(format!("{k}/{n}"));
        Ok(self)
    }

    pub fn with_threads(mut self, threads: usize) -> Config {
        self.threads = threads.max(1);
        self
    }

    /// The game numbers this run plays.
    pub fn indices(&self) -> Vec<u64> {
        (0..self.games)
            .filter(|i| self.shard.is_none_or(|(k, n)| i % n == k - 1))
            .collect()
    }

    /// The setup of game `index`.
    pub fn setup(&self, index: u64) -> GameSetup {
        let players = self.bots.len();
        GameSetup {
            index,
            seed: game_seed(self.seed, index),
            seats: self.bots.clone(),
            colour_of_seat: (0..players)
                .map(|s| (s + index as usize) % players)
                .collect(),
            max_plies: self.max_plies,
            record_moves: self.record_moves,
        }
    }

    pub fn provenance(&self) -> &Provenance {
        &self.provenance
    }

    /// Games this run plays (its shard's share): `indices().len()`.
    pub fn planned(&self) -> u64 {
        match self.shard {
            None => self.games,
            Some((k, n)) if self.games >= k => (self.games - k) / n + 1,
            Some(_) => 0,
        }
    }

    /// The report of finished games of this run.
    pub fn report(&self, games: &[GameResult]) -> Report {
        report::build(&self.provenance, games)
    }

    /// The report of a run watched by `control`, marked
    /// [`interrupted`](Report::interrupted) when the run was cancelled before
    /// all its games finished.
    pub fn report_after(&self, games: &[GameResult], control: &Control) -> Report {
        let mut r = self.report(games);
        r.interrupted = control.is_cancelled() && (games.len() as u64) < self.planned();
        r
    }
}

/// Shared state of a running batch: cancel it, watch it, read finished games.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to stop: games in progress are dropped, finished ones kept.
    pub cancel: Arc<AtomicBool>,
    finished: Mutex<Vec<GameResult>>,
    done: AtomicU64,
}

impl Control {
    /// Games finished so far (counted in batches, at most 50 ms late).
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }
    /// A copy of the finished games (in finishing order).
    pub fn snapshot(&self) -> Vec<GameResult> {
        self.finished.lock().expect("lab lock").clone()
    }
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// Plays the run's games on `config.threads` threads and returns the
/// finished games sorted by number. Cancelling keeps finished games. The
/// games move out of `control` (its `snapshot` is empty afterwards); watch a
/// run with [`run_with`] or [`spawn`].
pub fn run(variant: &Variant, config: &Config, control: &Control) -> Vec<GameResult> {
    let indices = config.indices();
    run_indices(variant, config, control, &indices)
}

/// [`run`], calling `on_game` on the worker thread as each game finishes (in
/// finishing order, which depends on the threads; the returned games and the
/// report do not). For progress bars and live charts.
pub fn run_with(
    variant: &Variant,
    config: &Config,
    control: &Control,
    on_game: &(dyn Fn(&GameResult) + Sync),
) -> Vec<GameResult> {
    let indices = config.indices();
    run_indices_with(variant, config, control, &indices, Some(on_game))
}

fn run_indices(
    variant: &Variant,
    config: &Config,
    control: &Control,
    indices: &[u64],
) -> Vec<GameResult> {
    run_indices_with(variant, config, control, indices, None)
}

fn run_indices_with(
    variant: &Variant,
    config: &Config,
    control: &Control,
    indices: &[u64],
    on_game: Option<&(dyn Fn(&GameResult) + Sync)>,
) -> Vec<GameResult> {
    let next = AtomicU64::new(0);
    let threads = config.threads.min(indices.len().max(1));
    // Workers claim a few games at a time, so that fast games do not fight
    // over one counter; few enough that slow games still share out evenly.
    let chunk = (indices.len() / (threads * 64)).clamp(1, 16) as u64;
    // Only searching bots poll the cancel flag; random and greedy games are
    // too short to need it, and cloning the shared `Arc` for every game
    // would make threads fight over its reference count.
    let searching = config
        .bots
        .iter()
        .any(|b| matches!(b, BotSpec::AlphaBeta { .. } | BotSpec::Mcts { .. }));
    // Room for every game up front: no copying of a growing list under the
    // lock while the workers wait.
    control
        .finished
        .lock()
        .expect("lab lock")
        .reserve(indices.len());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut local = Vec::new();
                // Finished games reach `Control` (and its count) in batches,
                // cheap for fast games, or at least every 50 ms, fresh
                // partial reports for slow ones; batching never changes the
                // results.
                let mut flushed = Instant::now();
                let flush = |local: &mut Vec<GameResult>| {
                    let n = local.len() as u64;
                    control.finished.lock().expect("lab lock").append(local);
                    control.done.fetch_add(n, Ordering::Relaxed);
                };
                'claims: loop {
                    let first = next.fetch_add(chunk, Ordering::Relaxed);
                    for i in first..first + chunk {
                        if control.is_cancelled() {
                            break 'claims;
                        }
                        let Some(&index) = indices.get(i as usize) else {
                            break 'claims;
                        };
                        let setup = config.setup(index);
                        let stop = searching.then(|| control.cancel.clone());
                        let g = play_game(variant, &setup, stop);
                        if control.is_cancelled() {
                            break 'claims; // its bots may have been cut short
                        }
                        if let Some(f) = on_game {
                            f(&g);
                        }
                        local.push(g);
                        if local.len() >= 64 || flushed.elapsed() >= FLUSH_EVERY {
                            flush(&mut local);
                            flushed = Instant::now();
                        }
                    }
                }
                flush(&mut local);
            });
        }
    });
    let mut games = if on_game.is_some() {
        // A watched run ([`run_with`], [`Batch`]): the list stays for
        // partial reports.
        control.snapshot()
    } else {
        // Taking the list instead of copying it keeps the serial tail of a
        // big run short.
        std::mem::take(&mut *control.finished.lock().expect("lab lock"))
    };
    games.sort_by_key(|g| g.index);
    games
}

const FLUSH_EVERY: Duration = Duration::from_millis(50);

/// A self-play run on a background thread (for the studio): watch its
/// progress, read a report of the games finished so far, cancel it, and
/// collect the final report. Dropping it cancels the run.
///
/// ```
/// use murus_engine::Variant;
/// use murus_lab::{Config, spawn};
///
/// let variant = Variant::standard();
/// let config = Config::new(&variant, vec!["greedy".parse().unwrap()], 8, 3).with_threads(2);
/// let batch = spawn(&variant, config, |_game| { /* e.g. send on a channel, request a repaint */ })
///     .expect("a thread");
/// let partial = batch.partial_report(); // any time: the games finished so far
/// assert!(partial.games <= 8);
/// let (report, games) = batch.join();
/// assert_eq!((report.games, games.len()), (8, 8));
/// ```
#[derive(Debug)]
pub struct Batch {
    control: Arc<Control>,
    config: Config,
    total: u64,
    handle: Option<JoinHandle<Vec<GameResult>>>,
}

/// Starts `config`'s run on a thread named `murus-lab` (workers
/// `murus-lab-N`); `on_game` is called on a worker as each game finishes.
/// Results are those of [`run`] with the same configuration.
pub fn spawn(
    variant: &Variant,
    config: Config,
    on_game: impl Fn(&GameResult) + Send + Sync + 'static,
) -> Result<Batch, LabError> {
    let control = Arc::new(Control::default());
    let total = config.indices().len() as u64;
    let (v, c, ctl) = (variant.clone(), config.clone(), control.clone());
    let handle = std::thread::Builder::new()
        .name("murus-lab".into())
        .spawn(move || run_with(&v, &c, &ctl, &on_game))
        .map_err(|source| LabError::Io {
            path: "(thread murus-lab)".into(),
            source,
        })?;
    Ok(Batch {
        control,
        config,
        total,
        handle: Some(handle),
    })
}

impl Batch {
    /// Games this run plays (its shard's share).
    pub fn total(&self) -> u64 {
        self.total
    }
    /// Games finished so far.
    pub fn done(&self) -> u64 {
        self.control.done()
    }
    /// Asks the run to stop: games in progress are dropped (their bots return
    /// at once), finished ones are kept.
    pub fn cancel(&self) {
        self.control.cancel.store(true, Ordering::Relaxed);
    }
    /// The shared cancel flag.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.control.cancel.clone()
    }
    pub fn is_cancelled(&self) -> bool {
        self.control.is_cancelled()
    }
    /// Whether every worker has stopped (finished or cancelled).
    pub fn is_finished(&self) -> bool {
        self.handle.as_ref().is_none_or(JoinHandle::is_finished)
    }
    /// The run's configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// The report of the games finished so far (all of them once
    /// [`Batch::is_finished`]); after a cancel that cut the run short it is
    /// marked [`interrupted`](Report::interrupted).
    pub fn partial_report(&self) -> Report {
        self.config
            .report_after(&self.control.snapshot(), &self.control)
    }
    /// Waits for the run and returns its report and games, sorted by number
    /// (after a cancel: the finished ones, and the report is marked
    /// [`interrupted`](Report::interrupted)).
    pub fn join(mut self) -> (Report, Vec<GameResult>) {
        let games = match self.handle.take().map(JoinHandle::join) {
            Some(Ok(games)) => games,
            // A worker panicked: keep what reached the shared list.
            _ => {
                let mut g = self.control.snapshot();
                g.sort_by_key(|g| g.index);
                g
            }
        };
        (self.config.report_after(&games, &self.control), games)
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        if self.handle.is_some() {
            self.cancel();
        }
    }
}

/// The result of a match between two bots.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MatchResult {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub score: f64,
    /// Bot A's Elo advantage. A perfect score (every game won, or every
    /// game lost) has no finite Elo: `±inf` here, `null` in JSON.
    pub elo: f64,
    /// The 95% interval of `elo`. A bound the data cannot limit is infinite
    /// (`null` in JSON): after 12 wins in 12 games the interval is
    /// `[+198, +inf]`, not a finite number chosen by a clamp.
    pub elo_ci95: [f64; 2],
    /// `null`, or the SPRT decision with its log-likelihood ratio.
    pub sprt: Option<Sprt>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// `H1` (accept elo1), `H0` (accept elo0) or `undecided`.
    pub decision: String,
    pub llr: f64,
    pub bounds: [f64; 2],
    /// The most games the test could play: when it ends `undecided` with
    /// `games` equal to this, it ran out of games, not evidence.
    pub max_games: u64,
}

/// A match between two bots.
#[derive(Clone, Copy, Debug)]
pub struct MatchConfig {
    pub a: BotSpec,
    pub b: BotSpec,
    /// Games (rounded up to whole pairs); with `sprt`, the most to play.
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    /// `(elo0, elo1)` for a sequential test with α = β = 0.05.
    pub sprt: Option<(f64, f64)>,
}

/// Plays a match of bot A against bot B in paired games with seats swapped
/// (two-player variants). With `sprt`, plays pairs until the test decides
/// (or `games` are played) and stops at the first pair that decides it.
pub fn run_match(
    variant: &Variant,
    m: &MatchConfig,
    control: &Control,
) -> Result<(MatchResult, Vec<GameResult>), LabError> {
    let MatchConfig {
        a,
        b,
        games,
        seed,
        threads,
        sprt,
    } = *m;
    if variant.player_count() != 2 {
        return Err(LabError::Invalid(format!(
            "a match needs a two-player variant; `{}` has {} players (use selfplay)",
            variant.name(),
            variant.player_count()
        )));
    }
    let games = games + games % 2;
    let config = Config::new(variant, vec![a, b], games, seed).with_threads(threads);
    let tally = |played: &[GameResult]| {
        let mut w = Wdl::default();
        for g in played {
            match g.winner_seat {
                Some(0) => w.wins += 1,
                Some(_) => w.losses += 1,
                None => w.draws += 1,
            }
        }
        w
    };
    let (lo, hi) = stats::sprt_bounds(0.05, 0.05);
    let mut played: Vec<GameResult> = Vec::new();
    let mut decision = None;
    match sprt {
        None => played = run(variant, &config, control),
        Some((e0, e1)) => {
            let chunk = (config.threads as u64 * 8).max(16);
            let mut start = 0;
            'outer: while start < games && !control.is_cancelled() {
                let end = (start + chunk).min(games);
                let idx: Vec<u64> = (start..end).collect();
                let sub = Control {
                    cancel: control.cancel.clone(),
                    ..Control::default()
                };
                let mut batch = run_indices(variant, &config, &sub, &idx);
                control
                    .done
                    .fetch_add(batch.len() as u64, Ordering::Relaxed);
                batch.sort_by_key(|g| g.index);
                for g in batch {
                    played.push(g);
                    if played.len() % 2 == 0 {
                        let llr = tally(&played).llr(e0, e1);
                        if llr >= hi || llr <= lo {
                            decision = Some(if llr >= hi { "H1" } else { "H0" });
                            break 'outer;
                        }
                    }
                }
                start = end;
            }
        }
    }
    let w = tally(&played);
    let (elo, (elo_lo, elo_hi)) = w.elo();
    let r = |x: f64| (x * 100.0).round() / 100.0;
    Ok((
        MatchResult {
            games: w.games(),
            wins: w.wins,
            draws: w.draws,
            losses: w.losses,
            score: (w.score() * 1e6).round() / 1e6,
            elo: r(elo),
            elo_ci95: [r(elo_lo), r(elo_hi)],
            sprt: sprt.map(|(e0, e1)| Sprt {
                elo0: e0,
                elo1: e1,
                decision: decision.unwrap_or("undecided").to_string(),
                llr: r(w.llr(e0, e1)),
                bounds: [r(lo), r(hi)],
                max_games: games,
            }),
        },
        played,
    ))
}

/// Writes a run's outputs to `dir`: `games.jsonl`, `report.json`,
/// `report.csv` and `report.svg`.
pub fn write_outputs(dir: &Path, report: &Report, games: &[GameResult]) -> Result<(), LabError> {
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| LabError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut lines = String::new();
    for g in games {
        lines.push_str(&serde_json::to_string(g).expect("a game serialises"));
        lines.push('\n');
    }
    let files = [
        ("games.jsonl", lines),
        ("report.json", report.to_json()),
        ("report.csv", report.to_csv()),
        ("report.svg", report.to_svg()),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(io(&path))?;
    }
    Ok(())
}

/// Reads a run's games and provenance back from `dir`.
pub fn read_outputs(dir: &Path) -> Result<(Provenance, Vec<GameResult>), LabError> {
    let (report, games) = read_report(dir)?;
    Ok((report.provenance(), games))
}

/// Reads a run's report and games back from `dir`.
fn read_report(dir: &Path) -> Result<(Report, Vec<GameResult>), LabError> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path).map_err(|source| LabError::Io {
            path: path.display().to_string(),
            source,
        })
    };
    let report_path = dir.join("report.json").display().to_string();
    let report: Report =
        serde_json::from_str(&read("report.json")?).map_err(|e| LabError::Parse {
            path: report_path,
            line: e.line(),
            message: e.to_string(),
        })?;
    let games_path = dir.join("games.jsonl").display().to_string();
    let mut games = Vec::new();
    for (i, line) in read("games.jsonl")?.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        games.push(serde_json::from_str(line).map_err(|e| LabError::Parse {
            path: games_path.clone(),
            line: i + 1,
            message: e.to_string(),
        })?);
    }
    Ok((report, games))
}

/// Merges shard outputs into the report of the whole run. The shards must
/// come from the same run (variant, bots, seed, games, ply cap); a game
/// present twice counts once. The merge is marked
/// [`interrupted`](Report::interrupted) when a shard's report was.
pub fn merge(dirs: &[&Path]) -> Result<(Report, Vec<GameResult>), LabError> {
    let mut base: Option<Provenance> = None;
    let mut all: Vec<GameResult> = Vec::new();
    let mut interrupted = false;
    for dir in dirs {
        let (report, games) = read_report(dir)?;
        interrupted |= report.interrupted;
        let mut prov = report.provenance();
        prov.shard = None;
        match &base {
            None => base = Some(prov),
            Some(b) if *b != prov => {
                return Err(LabError::Invalid(format!(
                    "{}: not a shard of the same run (variant, bots, seed, games and ply cap must match)",
                    dir.display()
                )));
            }
            Some(_) => {}
        }
        all.extend(games);
    }
    let Some(prov) = base else {
        return Err(LabError::Invalid("nothing to merge".into()));
    };
    all.sort_by_key(|g| g.index);
    all.dedup_by_key(|g| g.index);
    let mut report = report::build(&prov, &all);
    report.interrupted = interrupted;
    Ok((report, all))
}
