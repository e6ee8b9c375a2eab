//! Training data for evaluations learned per variant (`murus train`):
//! positions from self-play, each labelled with the search's score and the
//! game's result, kept in a folder game by game so that a killed run
//! resumes where it stopped.
//!
//! * Game `i` depends only on the run's seed and `i` (its bots' seeds and
//!   its random opening plies), so threads change only the order in which
//!   games finish; the data is read back sorted by game.
//! * The run needs the games `0..g`, where `g` is the fewest whose
//!   positions reach the target. Workers take game numbers in order and
//!   stop once the games finished so far, counted without gaps from game 0,
//!   reach it; a game beyond `g` that finished meanwhile stays in the file
//!   and is never read.
//! * `data.jsonl` gets one line per finished game, flushed as it is
//!   written; a line cut short by a kill is dropped on resume.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use murus_ai::eval::{Features, Weights, features};
use murus_ai::nnue::{CP_PER_UNIT, Example, Shape};
use murus_ai::{Bot, BotSpec, EvalFile, Trained};
use murus_engine::{DrawTracker, Engine, EngineTask, Variant, Word};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::Config;
use crate::LabError;
use crate::balance::{MIN_GAMES_FOR_EDGE, Z_EDGE};
use crate::matches::{MatchConfig, MatchResult, run_match};
use crate::play::{game_seed, mix};
use crate::report::GameStats;
use crate::runner::{Control, Deliver, lock, play_sequential};
use crate::stats::wilson_z;

/// What determines a run's data, kept in `train.json`: a run resumes only
/// with the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataSpec {
    /// The layout of this file (1).
    pub format: u32,
    pub variant: String,
    /// SHA-256 of the variant's source, in hex.
    pub variant_sha256: String,
    /// The bot that plays the games and scores the positions.
    pub bot: String,
    pub seed: u64,
    /// Random plies that open each game.
    pub openings: u32,
    /// The ply cap of the games.
    pub max_plies: u32,
}

const FORMAT: u32 = 1;
/// The files of a data folder: the spec, then one game a line.
pub const SPEC_FILE: &str = "train.json";
pub const DATA_FILE: &str = "data.jsonl";

/// What a data folder holds ([`DataDir::inspect`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFound {
    /// Positions in the games finished without gaps from game 0 (those a
    /// resumed run keeps).
    pub positions: u64,
    pub games: u64,
    /// The seed and the bot the data was played with: a run resumes only
    /// with the same.
    pub seed: u64,
    pub bot: String,
}

/// A line of the data file, known by its game's number.
trait Numbered {
    fn number(&self) -> u64;
}

impl Numbered for GameData {
    fn number(&self) -> u64 {
        self.game
    }
}

/// The games of a data file by number (none if there is no file), and the
/// length of its whole lines when the last line is torn (a kill can cut
/// only the last line; any other line that does not read is an error).
fn read_games<T: serde::de::DeserializeOwned + Numbered>(
    path: &Path,
) -> Result<(BTreeMap<u64, T>, Option<u64>), LabError> {
    let mut games = BTreeMap::new();
    let f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((games, None)),
        Err(e) => return Err(io(path)(e)),
    };
    let mut good = 0u64;
    let mut reader = BufReader::new(f);
    let mut line = String::new();
    for number in 1.. {
        line.clear();
        let n = reader.read_line(&mut line).map_err(io(path))?;
        if n == 0 {
            break;
        }
        if !line.ends_with('\n') {
            return Ok((games, Some(good)));
        }
        let g: T = serde_json::from_str(line.trim_end()).map_err(|e| LabError::Parse {
            path: path.display().to_string(),
            line: number,
            message: e.to_string(),
        })?;
        good += n as u64;
        games.insert(g.number(), g);
    }
    Ok((games, None))
}

/// The games without gaps from game 0, in order.
fn gapless<T>(games: &BTreeMap<u64, T>) -> impl Iterator<Item = &T> {
    games
        .iter()
        .enumerate()
        .take_while(|(i, (n, _))| **n == *i as u64)
        .map(|(_, (_, g))| g)
}

/// One game's positions: each position string with the search's score for
/// its side to move (centi-stones), and the game's result for each player
/// (1 a win, ½ a draw, 0 a loss).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameData {
    pub game: u64,
    pub result: Vec<f32>,
    pub positions: Vec<(String, i32)>,
}

/// Progress of the data's generation.
#[derive(Debug, Default)]
pub struct DataProgress {
    /// Positions in the games finished without gaps from game 0.
    pub positions: AtomicU64,
    pub games: AtomicU64,
    pub cancel: AtomicBool,
}

impl DataSpec {
    /// The spec of a run on `variant`.
    pub fn new(variant: &Variant, bot: &BotSpec, seed: u64) -> DataSpec {
        DataSpec {
            format: FORMAT,
            variant: variant.name().to_string(),
            variant_sha256: crate::source_sha256(variant.source()),
            bot: bot.to_string(),
            seed,
            openings: 8,
            max_plies: 300,
        }
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> LabError + use<> {
    let path = path.display().to_string();
    move |source| LabError::Io { path, source }
}

/// A folder of training data.
#[derive(Debug)]
pub struct DataDir {
    path: PathBuf,
    spec: DataSpec,
    /// Finished games by number.
    games: BTreeMap<u64, GameData>,
}

impl DataDir {
    /// Opens `path` for `spec`: a new folder (or one without data) starts
    /// afresh; one with data must hold the same spec, and its games are
    /// kept (a torn last line is cut off).
    pub fn open(path: &Path, spec: &DataSpec) -> Result<DataDir, LabError> {
        std::fs::create_dir_all(path).map_err(io(path))?;
        let spec_path = path.join(SPEC_FILE);
        let data_path = path.join(DATA_FILE);
        match std::fs::read_to_string(&spec_path) {
            Ok(text) => {
                let found: DataSpec = serde_json::from_str(&text).map_err(|e| LabError::Parse {
                    path: spec_path.display().to_string(),
                    line: e.line(),
                    message: e.to_string(),
                })?;
                if &found != spec {
                    let mut differences = Vec::new();
                    let mut differ = |what: &str, a: String, b: String| {
                        if a != b {
                            differences.push(format!("{what} {a} there, {b} asked"));
                        }
                    };
                    differ("variant", found.variant.clone(), spec.variant.clone());
                    differ(
                        "variant source",
                        found.variant_sha256[..12.min(found.variant_sha256.len())].to_string(),
                        spec.variant_sha256[..12].to_string(),
                    );
                    differ("bot", found.bot.clone(), spec.bot.clone());
                    differ("seed", found.seed.to_string(), spec.seed.to_string());
                    differ(
                        "openings",
                        found.openings.to_string(),
                        spec.openings.to_string(),
                    );
                    differ(
                        "ply cap",
                        found.max_plies.to_string(),
                        spec.max_plies.to_string(),
                    );
                    differ("format", found.format.to_string(), spec.format.to_string());
                    return Err(LabError::Mismatch {
                        path: path.display().to_string(),
                        differences,
                    });
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let text = serde_json::to_string_pretty(spec).expect("a spec serialises");
                let tmp = path.join(format!("{SPEC_FILE}.tmp"));
                std::fs::write(&tmp, text + "\n").map_err(io(&tmp))?;
                std::fs::rename(&tmp, &spec_path).map_err(io(&spec_path))?;
                // Data without its spec is from no known run.
                let _ = std::fs::remove_file(&data_path);
            }
            Err(e) => return Err(io(&spec_path)(e)),
        }
        let (games, good) = read_games::<GameData>(&data_path)?;
        if let Some(good) = good {
            let f = OpenOptions::new()
                .write(true)
                .open(&data_path)
                .map_err(io(&data_path))?;
            // Cut a line torn by a kill, so that appending starts clean.
            f.set_len(good).map_err(io(&data_path))?;
        }
        Ok(DataDir {
            path: path.to_path_buf(),
            spec: spec.clone(),
            games,
        })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The games `0..g` whose positions first reach `positions` (all the
    /// games without gaps from 0, if they do not reach it yet).
    pub fn prefix(&self, positions: u64) -> Vec<&GameData> {
        let mut total = 0;
        gapless(&self.games)
            .take_while(|g| {
                let more = total < positions;
                total += g.positions.len() as u64;
                more
            })
            .collect()
    }

    /// What the folder at `path` holds, read without changing anything
    /// (a torn last line is left in place, and not counted): `None` when
    /// it holds no run. Reads the whole data file.
    pub fn inspect(path: &Path) -> Result<Option<DataFound>, LabError> {
        /// A game's line with its positions skipped, only counted.
        #[derive(Deserialize)]
        struct Counted {
            game: u64,
            positions: Vec<serde::de::IgnoredAny>,
        }
        impl Numbered for Counted {
            fn number(&self) -> u64 {
                self.game
            }
        }
        let spec_path = path.join(SPEC_FILE);
        let text = match std::fs::read_to_string(&spec_path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io(&spec_path)(e)),
        };
        let spec: DataSpec = serde_json::from_str(&text).map_err(|e| LabError::Parse {
            path: spec_path.display().to_string(),
            line: e.line(),
            message: e.to_string(),
        })?;
        let (games, _) = read_games::<Counted>(&path.join(DATA_FILE))?;
        let prefix: Vec<&Counted> = gapless(&games).collect();
        Ok(Some(DataFound {
            positions: prefix.iter().map(|g| g.positions.len() as u64).sum(),
            games: prefix.len() as u64,
            seed: spec.seed,
            bot: spec.bot,
        }))
    }

    /// Positions in [`DataDir::prefix`] of an unbounded target.
    fn contiguous_positions(&self) -> (u64, u64) {
        let p = self.prefix(u64::MAX);
        (
            p.iter().map(|g| g.positions.len() as u64).sum(),
            p.len() as u64,
        )
    }

    /// Plays games until the data reaches `positions`, on `threads`
    /// threads; stops early when `progress.cancel` is set (what was
    /// finished is kept).
    pub fn generate(
        &mut self,
        variant: &Variant,
        positions: u64,
        threads: usize,
        progress: &DataProgress,
    ) -> Result<(), LabError> {
        let bot: BotSpec = self
            .spec
            .bot
            .parse()
            .map_err(|e: murus_ai::SpecError| LabError::Invalid(e.to_string()))?;
        let (have, games) = self.contiguous_positions();
        progress.positions.store(have, Ordering::Relaxed);
        progress.games.store(games, Ordering::Relaxed);
        if have >= positions {
            return Ok(());
        }
        let spec = self.spec.clone();
        let data_path = self.path.join(DATA_FILE);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&data_path)
            .map_err(io(&data_path))?;
        let shared = Mutex::new(Shared {
            dir: self,
            file,
            next: 0,
            prefix: (games, have),
            error: None,
        });
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    loop {
                        if done.load(Ordering::Relaxed) || progress.cancel.load(Ordering::Relaxed) {
                            return;
                        }
                        let index = {
                            let mut s = lock(&shared);
                            while s.dir.games.contains_key(&s.next) {
                                s.next += 1;
                            }
                            s.next += 1;
                            s.next - 1
                        };
                        let game = play_game(variant, &spec, &bot, index);
                        let mut s = lock(&shared);
                        let line = serde_json::to_string(&game).expect("a game serialises");
                        let path = s.dir.path.join(DATA_FILE);
                        let written = writeln!(s.file, "{line}").and_then(|()| s.file.flush());
                        if let Err(e) = written {
                            s.error = Some(io(&path)(e));
                            done.store(true, Ordering::Relaxed);
                            return;
                        }
                        s.dir.games.insert(index, game);
                        // Extend the gapless prefix past the games now in.
                        let (mut games, mut have) = s.prefix;
                        while let Some(g) = s.dir.games.get(&games) {
                            have += g.positions.len() as u64;
                            games += 1;
                        }
                        s.prefix = (games, have);
                        progress.positions.store(have, Ordering::Relaxed);
                        progress.games.store(games, Ordering::Relaxed);
                        if have >= positions {
                            done.store(true, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        let s = shared
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match s.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

struct Shared<'a> {
    dir: &'a mut DataDir,
    file: File,
    next: u64,
    /// Games and positions of the games without gaps from game 0.
    prefix: (u64, u64),
    error: Option<LabError>,
}

/// Scores are kept within this many centi-stones (proven wins and losses
/// are far beyond it).
const SCORE_CAP: i32 = 3_000;

/// Plays game `index` of a run and keeps its positions.
pub fn play_game(variant: &Variant, spec: &DataSpec, bot: &BotSpec, index: u64) -> GameData {
    struct Task<'a> {
        variant: &'a Variant,
        spec: &'a DataSpec,
        bot: &'a BotSpec,
        index: u64,
    }
    impl EngineTask for Task<'_> {
        type Output = GameData;
        fn run<B: Word>(self, e: &Engine<B>) -> GameData {
            let seed = game_seed(self.spec.seed, self.index);
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut bots: Vec<Bot> = (0..e.players())
                .map(|p| Bot::new(self.bot.clone(), mix(seed ^ (p as u64 + 1))))
                .collect();
            let mut pos = e.start();
            let mut line = DrawTracker::new(e.rules().draw, pos.hash())
                .with_ply_cap(Some(self.spec.max_plies));
            let mut moves = e.move_list();
            let mut positions = Vec::new();
            let outcome = loop {
                moves.clear();
                e.legal_moves(&pos, &mut moves);
                if let Some(end) = e.judge(&pos, moves.len(), &line) {
                    break end;
                }
                let m = if line.plies() < self.spec.openings {
                    moves[rng.random_range(0..moves.len())]
                } else {
                    let bot = &mut bots[pos.turn()];
                    let m = bot
                        .choose_fast(e, &pos, &line, &moves, &())
                        .expect("moves exist");
                    if moves.len() > 1 {
                        let score = bot.last_value.clamp(-SCORE_CAP, SCORE_CAP);
                        let text = self.variant.position_string(&B::wrap(pos));
                        positions.push((text, score));
                    }
                    m
                };
                let capture = e.is_capture(&pos, m);
                e.apply(&mut pos, m);
                line.push(pos.hash(), capture);
            };
            let players = e.players();
            let result = (0..players)
                .map(|p| match outcome.winner {
                    Some(w) if w == p => 1.0,
                    Some(_) => 0.0,
                    None => 1.0 / players as f32,
                })
                .collect();
            GameData {
                game: self.index,
                result,
                positions,
            }
        }
    }
    variant.run(Task {
        variant,
        spec,
        bot,
        index,
    })
}

/// How much of a position's target is the search's score (the rest is the
/// game's result).
pub const SCORE_SHARE: f32 = 0.5;

/// The positions of `games`, each parsed once, as both fits read them.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// For the network: the active inputs, the output row, the target.
    pub examples: Vec<Example>,
    /// For a network correcting the features: each example's base, the
    /// features' value (default weights) of its row's player, in units of
    /// the logistic.
    pub bases: Vec<f32>,
    /// For the weights: the side to move's features less the other's, and
    /// the target.
    pub differences: Vec<([f64; 8], f64)>,
}

/// The samples of `games`: each position's target is [`SCORE_SHARE`] of
/// the logistic of its score and the rest its side to move's result.
pub fn samples(variant: &Variant, games: &[&GameData]) -> Result<Samples, LabError> {
    struct Task<'a> {
        variant: &'a Variant,
        games: &'a [&'a GameData],
    }
    impl EngineTask for Task<'_> {
        type Output = Result<Samples, LabError>;
        fn run<B: Word>(self, e: &Engine<B>) -> Self::Output {
            let shape = Shape::of(e);
            let start = Weights::for_engine(e);
            let players = e.players();
            let mut out = Samples::default();
            for g in self.games {
                for (text, score) in &g.positions {
                    let position = self.variant.parse_position(text).map_err(|err| {
                        LabError::Invalid(format!("game {}: position `{text}`: {err}", g.game))
                    })?;
                    let pos = B::unwrap(&position).expect("a position of this variant");
                    let stm = pos.turn();
                    let result = |p: usize| g.result.get(p).copied().unwrap_or(0.5);
                    let target = target(*score, result(stm), players);
                    let inputs = shape.active(pos);
                    // Each player's features once: the network's bases and
                    // the weights' differences both read them.
                    let own: Vec<Features> =
                        (0..players).map(|q| features(e, pos, q, true)).collect();
                    let score = |q: usize| start.apply(&own[q]);
                    // `p`'s score less the best other player's still in
                    // the game (`murus_ai::eval::evaluate`).
                    let lead = |p: usize| {
                        let best_other = (0..players)
                            .filter(|&q| q != p && !pos.is_out(q))
                            .map(score)
                            .max()
                            .unwrap_or(0);
                        score(p) - best_other
                    };
                    // With more players, every player's row learns that
                    // player's result; the side to move's also the search's
                    // score. (Results alone for every row played worse on
                    // escape4: docs/ai.md.)
                    for p in (0..players).filter(|&p| players > 2 || p == stm) {
                        out.examples.push(Example {
                            inputs: inputs.clone(),
                            row: shape.output(stm, p) as u8,
                            target: if p == stm { target } else { result(p) },
                            base: 0.0,
                        });
                        out.bases.push(lead(p) as f32 / CP_PER_UNIT as f32);
                    }
                    // The evaluation is the side to move's score less the
                    // best other player's: with three or four players, the
                    // other is the one the default weights rank first.
                    let rival = (0..players)
                        .filter(|&q| q != stm && !pos.is_out(q))
                        .max_by_key(|&q| (score(q), std::cmp::Reverse(q)))
                        .unwrap_or((stm + 1) % players);
                    let (mine, other) = (own[stm].to_array(), own[rival].to_array());
                    out.differences.push((
                        std::array::from_fn(|i| f64::from(mine[i] - other[i])),
                        f64::from(target),
                    ));
                }
            }
            Ok(out)
        }
    }
    variant.run(Task { variant, games })
}

/// How a fit went: the mean squared error on the held-out positions
/// before and after, and the epochs run.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    pub training: usize,
    pub held_out: usize,
    pub error_before: f64,
    pub error_after: f64,
    pub epochs: usize,
}

/// Settings of a network's fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitSettings {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub rate: f32,
    pub seed: u64,
}

impl Default for FitSettings {
    fn default() -> Self {
        FitSettings {
            hidden: 32,
            epochs: 10,
            batch: 256,
            rate: 0.0005,
            seed: 1,
        }
    }
}

/// Fits a network of `shape` to `data`: a tenth of the positions (by game,
/// so no game is on both sides) held out, mini-batches in a seeded order,
/// and the network of the epoch with the least held-out error kept.
/// `on_epoch` hears each epoch's number and held-out error; it returns
/// false to stop.
pub fn fit_network(
    shape: Shape,
    data: &[Example],
    settings: FitSettings,
    on_epoch: &mut dyn FnMut(usize, f64) -> bool,
) -> (murus_ai::nnue::Network, FitReport) {
    use murus_ai::nnue::Trainer;
    let split = data.len() - data.len() / 10;
    let (train, held) = data.split_at(split);
    let mut trainer = Trainer::new(shape, settings.hidden, settings.seed);
    let error_before = trainer.error(held);
    let mut best = (error_before, trainer.quantize());
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = SmallRng::seed_from_u64(settings.seed);
    let mut batch = Vec::with_capacity(settings.batch);
    let mut epochs = 0;
    for epoch in 1..=settings.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for chunk in order.chunks(settings.batch.max(1)) {
            batch.clear();
            batch.extend(chunk.iter().map(|&i| train[i].clone()));
            trainer.step(&batch, settings.rate);
        }
        epochs = epoch;
        let error = trainer.error(held);
        if error < best.0 {
            best = (error, trainer.quantize());
        }
        if !on_epoch(epoch, error) {
            break;
        }
    }
    let report = FitReport {
        training: train.len(),
        held_out: held.len(),
        error_before,
        error_after: best.0,
        epochs,
    };
    (best.1, report)
}

/// The generic features' weights fitted to `data` ([`Samples::differences`];
/// Texel tuning): least squares between each position's target and the
/// logistic of the evaluation, with Adam from `start`. Returns the weights
/// and the mean squared error before and after.
pub fn fit_weights(data: &[([f64; 8], f64)], start: Weights) -> (Weights, f64, f64) {
    let error = |w: &[f64; 8]| -> f64 {
        let sum: f64 = data
            .iter()
            .map(|(d, t)| {
                let e: f64 = d.iter().zip(w).map(|(x, w)| x * w).sum();
                (1.0 / (1.0 + (-e / 400.0).exp()) - t).powi(2)
            })
            .sum();
        sum / data.len().max(1) as f64
    };
    let mut w = start.to_array().map(f64::from);
    let before = error(&w);
    let (mut m1, mut m2) = ([0.0f64; 8], [0.0f64; 8]);
    let n = data.len().max(1) as f64;
    for t in 1..=500 {
        let mut grad = [0.0; 8];
        for (d, target) in data {
            let e: f64 = d.iter().zip(&w).map(|(x, w)| x * w).sum();
            let p = 1.0 / (1.0 + (-e / 400.0).exp());
            let g = 2.0 * (p - target) * p * (1.0 - p) / 400.0 / n;
            for i in 0..8 {
                grad[i] += g * d[i];
            }
        }
        for i in 0..8 {
            m1[i] = 0.9 * m1[i] + 0.1 * grad[i];
            m2[i] = 0.999 * m2[i] + 0.001 * grad[i] * grad[i];
            let mh = m1[i] / (1.0 - 0.9f64.powi(t));
            let vh = m2[i] / (1.0 - 0.999f64.powi(t));
            w[i] -= mh / (vh.sqrt() + 1e-12);
        }
    }
    let after = error(&w);
    (
        Weights::from_array(w.map(|x| x.round() as i32)),
        before,
        after,
    )
}

/// A position's target: [`SCORE_SHARE`] of the logistic of the search's
/// score, the rest its side to move's result. The score counts from an
/// even position, worth the fair share `1 / players`.
fn target(score: i32, result: f32, players: usize) -> f32 {
    let score = score - murus_ai::nnue::fair_offset(players);
    let eval = 1.0 / (1.0 + (-(score as f32) / 400.0).exp());
    SCORE_SHARE * eval + (1.0 - SCORE_SHARE) * result
}

/// How a candidate is checked against the evaluation in force before it is
/// kept: a match at equal nodes, stopped by a sequential test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Validation {
    /// Alpha-beta's nodes a move, for both sides.
    pub nodes: u64,
    /// The most games (the test is `undecided` after them: not kept).
    pub max_games: u64,
    /// The test's hypotheses, `(elo0, elo1)`.
    pub elo: (f64, f64),
}

impl Default for Validation {
    fn default() -> Self {
        Validation {
            nodes: 20_000,
            max_games: 400,
            elo: (0.0, 30.0),
        }
    }
}

/// What `murus train` does: how much data, on how many threads, from which
/// seed, with which bot; how to fit; whether to validate.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub positions: u64,
    /// Data generation stops here even short of `positions` (`--minutes`;
    /// the data is then the games finished by the time, which depends on
    /// the machine).
    pub deadline: Option<std::time::Instant>,
    pub threads: usize,
    pub seed: u64,
    pub bot: BotSpec,
    pub fit: FitSettings,
    /// `None`: keep the network without a match.
    pub validate: Option<Validation>,
}

/// Which step a training run is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Data = 0,
    Fit = 1,
    Validate = 2,
}

/// Progress of a training run, read by progress bars and the studio; set
/// `data.cancel` to stop it (the data so far is kept for `--resume`).
#[derive(Debug, Default)]
pub struct TrainProgress {
    pub data: DataProgress,
    pub step: std::sync::atomic::AtomicU8,
    pub epoch: AtomicU64,
    /// Games of the validation match played so far.
    pub match_games: AtomicU64,
}

impl TrainProgress {
    /// The step under way.
    pub fn step(&self) -> Step {
        match self.step.load(Ordering::Relaxed) {
            0 => Step::Data,
            1 => Step::Fit,
            _ => Step::Validate,
        }
    }
}

/// A candidate's validation.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// `network` or `weights`.
    pub candidate: String,
    pub result: CheckResult,
}

/// How a candidate fared against the evaluation in force.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckResult {
    /// Two players: a match under a sequential test.
    Match(MatchResult),
    /// Three or four players: the candidate in one seat, the evaluation in
    /// force in every other, seats rotating through the colours; the
    /// candidate wins when its seat's share of wins is clearly above the
    /// fair share (its interval at z = 3 above `1 / players`, after at
    /// least 100 games), and loses when it is clearly not above it.
    Seat {
        games: u64,
        wins: u64,
        fair: f64,
        /// The 95% interval of the seat's share.
        ci95: [f64; 2],
        /// `H1` (better), `H0` (not better) or `undecided`.
        decision: String,
    },
}

impl CheckResult {
    /// Whether the candidate won.
    pub fn won(&self) -> bool {
        match self {
            CheckResult::Match(r) => r.sprt.as_ref().is_some_and(|s| s.decision == "H1"),
            CheckResult::Seat { decision, .. } => decision == "H1",
        }
    }

    /// The test's decision: `H1`, `H0` or `undecided`.
    pub fn decision(&self) -> &str {
        match self {
            CheckResult::Match(r) => r.sprt.as_ref().map_or("undecided", |s| &s.decision),
            CheckResult::Seat { decision, .. } => decision,
        }
    }

    /// The figures in words: `120 games, score 61.3%, Elo +80 [+21, +142]`
    /// or `300 games, its seat won 31.0% [25.9–36.5] (fair 25.0%)`.
    pub fn describe(&self) -> String {
        match self {
            CheckResult::Match(r) => format!(
                "{} games, score {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}]",
                r.games,
                100.0 * r.score,
                r.elo,
                r.elo_ci95[0],
                r.elo_ci95[1]
            ),
            CheckResult::Seat {
                games,
                wins,
                fair,
                ci95,
                ..
            } => format!(
                "{games} games, its seat won {:.1}% [{:.1}–{:.1}] (fair {:.1}%)",
                100.0 * *wins as f64 / (*games).max(1) as f64,
                100.0 * ci95[0],
                100.0 * ci95[1],
                100.0 * fair
            ),
        }
    }
}

/// What a training run found.
#[derive(Clone, Debug)]
pub struct TrainOutcome {
    pub games: usize,
    pub positions: usize,
    /// The network's fit.
    pub network: FitReport,
    /// The fit of the same network on top of the generic features.
    pub correction: FitReport,
    /// The fitted weights and the error before and after.
    pub weights: (Weights, f64, f64),
    /// The validation matches, in the order played.
    pub matches: Vec<Checked>,
    /// The evaluation to write: the first candidate that won its match (or
    /// the network, unvalidated), `None` if none did.
    pub kept: Option<EvalFile>,
}

/// Trains an evaluation for `variant`, keeping its data in `dir`: plays
/// the games missing from `dir` (all of them in a new folder), fits a
/// network, the same network as a correction on top of the generic
/// features, and the features' weights to the positions, and checks them
/// in that order against the evaluation in force for the variant
/// ([`murus_ai::Evaluation::for_source`]); the first to win its match is
/// kept. `Ok(None)`: cancelled (the data so far is kept).
pub fn train(
    variant: &Variant,
    options: &TrainOptions,
    dir: &Path,
    progress: &TrainProgress,
) -> Result<Option<TrainOutcome>, LabError> {
    if !matches!(options.bot, BotSpec::AlphaBeta { .. }) {
        return Err(LabError::Invalid(
            "the data's bot must be alpha-beta (its scores label the positions)".into(),
        ));
    }
    let spec = DataSpec::new(variant, &options.bot, options.seed);
    let mut data = DataDir::open(dir, &spec)?;
    progress.step.store(Step::Data as u8, Ordering::Relaxed);
    let finished = std::sync::atomic::AtomicBool::new(false);
    let finished = &finished;
    std::thread::scope(|s| {
        if let Some(deadline) = options.deadline {
            s.spawn(move || {
                while !finished.load(Ordering::Relaxed) {
                    if std::time::Instant::now() >= deadline {
                        progress.data.cancel.store(true, Ordering::Relaxed);
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
            });
        }
        let r = data.generate(variant, options.positions, options.threads, &progress.data);
        finished.store(true, Ordering::Relaxed);
        r
    })?;
    let out_of_time = options
        .deadline
        .is_some_and(|d| std::time::Instant::now() >= d);
    if progress.data.cancel.load(Ordering::Relaxed) && !out_of_time {
        return Ok(None);
    }
    progress.data.cancel.store(false, Ordering::Relaxed);
    let games = data.prefix(options.positions);
    if games.is_empty() {
        return Err(LabError::Invalid(
            "no game finished in the time given: give more minutes".into(),
        ));
    }
    progress.step.store(Step::Fit as u8, Ordering::Relaxed);
    let mut samples = samples(variant, &games)?;
    let positions = samples.differences.len();
    let shape = variant.run(ShapeOf);
    let mut on_epoch = |epoch, _| {
        progress.epoch.store(epoch as u64, Ordering::Relaxed);
        !progress.data.cancel.load(Ordering::Relaxed)
    };
    let (net, fit) = fit_network(shape, &samples.examples, options.fit, &mut on_epoch);
    if progress.data.cancel.load(Ordering::Relaxed) {
        return Ok(None);
    }
    // The same network on top of the features: it learns what they miss.
    // The plain network is fitted, so its examples take their bases in
    // place.
    for (x, &base) in samples.examples.iter_mut().zip(&samples.bases) {
        x.base = base;
    }
    let (correction, hybrid_fit) =
        fit_network(shape, &samples.examples, options.fit, &mut on_epoch);
    if progress.data.cancel.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let start = variant.run(DefaultWeights);
    let weights = fit_weights(&samples.differences, start);
    let digest = murus_ai::evalfile::rules_digest(variant);
    let note = |what: &str| {
        format!(
            "murus train {}: {what}, fitted to {} positions of {} self-play (seed {})",
            variant.name(),
            positions,
            spec.bot,
            options.seed
        )
    };
    let hidden = net.hidden;
    let mut candidates = vec![
        (
            "network",
            EvalFile {
                variant_sha256: digest,
                note: note(&format!("a network of {hidden} hidden units")),
                trained: Trained::Network(net),
            },
        ),
        (
            "correction",
            EvalFile {
                variant_sha256: digest,
                note: note(&format!(
                    "a network of {hidden} hidden units correcting the generic features"
                )),
                trained: Trained::Hybrid(start, correction),
            },
        ),
    ];
    candidates.push((
        "weights",
        EvalFile {
            variant_sha256: digest,
            note: note("the generic features' weights"),
            trained: Trained::Weights(weights.0),
        },
    ));
    let mut outcome = TrainOutcome {
        games: games.len(),
        positions,
        network: fit,
        correction: hybrid_fit,
        weights,
        matches: Vec::new(),
        kept: None,
    };
    let Some(validation) = options.validate else {
        outcome.kept = Some(candidates[0].1.clone());
        return Ok(Some(outcome));
    };
    progress.step.store(Step::Validate as u8, Ordering::Relaxed);
    for (name, file) in candidates {
        let path = dir.join(format!("candidate-{name}.eval"));
        std::fs::write(&path, file.to_bytes()).map_err(io(&path))?;
        let spec = |eval: Option<murus_ai::EvalRef>| BotSpec::AlphaBeta {
            nodes: validation.nodes,
            eval,
        };
        let candidate = spec(Some(murus_ai::EvalRef::new(&path.to_string_lossy())));
        let control = Control::default();
        let done = std::sync::atomic::AtomicBool::new(false);
        let result = std::thread::scope(|s| {
            s.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    progress
                        .match_games
                        .store(control.done(), Ordering::Relaxed);
                    if progress.data.cancel.load(Ordering::Relaxed) {
                        control.cancel();
                    }
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
            });
            let r = if variant.player_count() == 2 {
                let m = MatchConfig {
                    a: candidate,
                    b: spec(None),
                    games: validation.max_games,
                    seed: options.seed,
                    threads: options.threads,
                    sprt: Some(validation.elo),
                    openings: 4,
                    book: None,
                };
                run_match(variant, &m, &control, None).map(|(r, _)| CheckResult::Match(r))
            } else {
                check_seat(
                    variant,
                    candidate,
                    spec(None),
                    &validation,
                    options,
                    &control,
                )
            };
            done.store(true, Ordering::Relaxed);
            r
        })?;
        if progress.data.cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let won = result.won();
        outcome.matches.push(Checked {
            candidate: name.to_string(),
            result,
        });
        if won {
            outcome.kept = Some(file);
            break;
        }
    }
    Ok(Some(outcome))
}

/// A multi-player candidate's validation ([`CheckResult::Seat`]): the
/// candidate in seat 0, the evaluation in force in the others, colours
/// rotating, judged after each round in game order.
fn check_seat(
    variant: &Variant,
    candidate: BotSpec,
    current: BotSpec,
    validation: &Validation,
    options: &TrainOptions,
    control: &Control,
) -> Result<CheckResult, LabError> {
    let players = variant.player_count();
    let fair = 1.0 / players as f64;
    let mut bots = vec![current; players];
    bots[0] = candidate;
    let games = validation.max_games.div_ceil(players as u64) * players as u64;
    let mut config = Config::new(variant, bots, games, options.seed)
        .with_threads(options.threads)
        .with_openings(4);
    config.record_moves = false;
    let wins = |p: &[GameStats]| p.iter().filter(|g| g.winner_seat == Some(0)).count() as u64;
    let mut decision = "undecided";
    let run = play_sequential(
        variant,
        &config,
        control,
        &[],
        &Deliver::default(),
        players as u64,
        |p| {
            let n = p.len() as u64;
            let (lo, hi) = wilson_z(wins(p), n, Z_EDGE);
            if n >= MIN_GAMES_FOR_EDGE && lo > fair {
                decision = "H1";
            } else if n >= MIN_GAMES_FOR_EDGE && hi <= fair {
                decision = "H0";
            }
            decision != "undecided"
        },
    );
    if let Some(e) = control.take_error() {
        return Err(e);
    }
    let n = run.played.len() as u64;
    let w = wins(&run.played);
    let (lo, hi) = crate::stats::wilson(w, n);
    Ok(CheckResult::Seat {
        games: n,
        wins: w,
        fair,
        ci95: [lo, hi],
        decision: decision.to_string(),
    })
}

struct ShapeOf;

impl EngineTask for ShapeOf {
    type Output = Shape;
    fn run<B: Word>(self, e: &Engine<B>) -> Shape {
        Shape::of(e)
    }
}

struct DefaultWeights;

impl EngineTask for DefaultWeights {
    type Output = Weights;
    fn run<B: Word>(self, e: &Engine<B>) -> Weights {
        Weights::for_engine(e)
    }
}
