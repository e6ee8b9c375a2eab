//! The training data's folder: its spec (`train.json`) and its games, one a
//! line of `data.jsonl`, played by worker threads and kept as they finish.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use murus_ai::{Bot, BotSpec};
use murus_engine::{DrawTracker, Engine, EngineTask, Variant, Word};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::error::LabError;
use crate::record::source_sha256;
use crate::runner::lock;
use crate::seeds::{game_seed, mix};

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
            variant_sha256: source_sha256(variant.source()),
            bot: bot.to_string(),
            seed,
            openings: 8,
            max_plies: 300,
        }
    }
}

pub(super) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> LabError + use<> {
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
