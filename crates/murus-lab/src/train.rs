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

use murus_ai::nnue::{Example, Shape};
use murus_ai::{Bot, BotSpec};
use murus_engine::{DrawTracker, Engine, EngineTask, Variant, Word};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::LabError;
use crate::runner::lock;

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
const SPEC: &str = "train.json";
const DATA: &str = "data.jsonl";

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
        let spec_path = path.join(SPEC);
        let data_path = path.join(DATA);
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
                let tmp = path.join(format!("{SPEC}.tmp"));
                std::fs::write(&tmp, text + "\n").map_err(io(&tmp))?;
                std::fs::rename(&tmp, &spec_path).map_err(io(&spec_path))?;
                // Data without its spec is from no known run.
                let _ = std::fs::remove_file(&data_path);
            }
            Err(e) => return Err(io(&spec_path)(e)),
        }
        let mut games = BTreeMap::new();
        match File::open(&data_path) {
            Ok(f) => {
                let mut good = 0u64;
                let mut reader = BufReader::new(f);
                let mut line = String::new();
                let mut number = 0;
                loop {
                    line.clear();
                    let n = reader.read_line(&mut line).map_err(io(&data_path))?;
                    number += 1;
                    if n == 0 {
                        break;
                    }
                    let whole = line.ends_with('\n');
                    match serde_json::from_str::<GameData>(line.trim_end()) {
                        Ok(g) if whole => {
                            good += n as u64;
                            games.insert(g.game, g);
                        }
                        // A kill can cut only the last line.
                        _ if !whole => break,
                        Ok(_) => unreachable!(),
                        Err(e) => {
                            return Err(LabError::Parse {
                                path: data_path.display().to_string(),
                                line: number,
                                message: e.to_string(),
                            });
                        }
                    }
                }
                let f = OpenOptions::new()
                    .write(true)
                    .open(&data_path)
                    .map_err(io(&data_path))?;
                f.set_len(good).map_err(io(&data_path))?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(&data_path)(e)),
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
        let mut out = Vec::new();
        let mut total = 0;
        for (i, (&n, g)) in self.games.iter().enumerate() {
            if n != i as u64 || total >= positions {
                break;
            }
            total += g.positions.len() as u64;
            out.push(g);
        }
        out
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
        let data_path = self.path.join(DATA);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&data_path)
            .map_err(io(&data_path))?;
        let shared = Mutex::new(Shared {
            dir: self,
            file,
            next: 0,
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
                        let path = s.dir.path.join(DATA);
                        let written = writeln!(s.file, "{line}").and_then(|()| s.file.flush());
                        if let Err(e) = written {
                            s.error = Some(io(&path)(e));
                            done.store(true, Ordering::Relaxed);
                            return;
                        }
                        s.dir.games.insert(index, game);
                        let (have, games) = s.dir.contiguous_positions();
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
    error: Option<LabError>,
}

/// SplitMix64's finaliser: a game's seeds from the run's.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
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
            let seed = mix(self.spec.seed ^ mix(self.index));
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
                        .choose_fast(e, &pos, &line, &moves)
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

/// The training examples of `games` for a network of `shape`: each
/// position's target is [`SCORE_SHARE`] of the logistic of its score and
/// the rest its side to move's result.
pub fn examples(variant: &Variant, games: &[&GameData]) -> Result<Vec<Example>, LabError> {
    struct Task<'a> {
        variant: &'a Variant,
        games: &'a [&'a GameData],
    }
    impl EngineTask for Task<'_> {
        type Output = Result<Vec<Example>, LabError>;
        fn run<B: Word>(self, e: &Engine<B>) -> Self::Output {
            let shape = Shape::of(e);
            let mut out = Vec::new();
            for g in self.games {
                for (text, score) in &g.positions {
                    let position = self.variant.parse_position(text).map_err(|err| {
                        LabError::Invalid(format!("game {}: position `{text}`: {err}", g.game))
                    })?;
                    let pos = B::unwrap(&position).expect("a position of this variant");
                    let stm = pos.turn();
                    let result = g.result.get(stm).copied().unwrap_or(0.5);
                    let eval = 1.0 / (1.0 + (-(*score as f32) / 400.0).exp());
                    out.push(Example {
                        inputs: shape.active(pos),
                        stm: stm as u8,
                        target: SCORE_SHARE * eval + (1.0 - SCORE_SHARE) * result,
                    });
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
            epochs: 30,
            batch: 256,
            rate: 0.002,
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
