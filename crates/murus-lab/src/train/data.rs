//! The training data's folder: its spec (`train.json`) and its games, one a
//! line of `data.jsonl`, played by worker threads and kept as they finish.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use murus_ai::{Bot, BotSpec, Evaluation};
use murus_engine::job::Handler;
use murus_engine::{Engine, EngineTask, Move, Pos, Variant, Word};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::progress::TrainProgress;
use crate::error::LabError;
use crate::folder::lines::{self, Appender};
use crate::folder::{Differences, Mode, Opened, RunFolder, Settings, Spec};
use crate::play::{Players, Watcher, play_loop};
use crate::record::{VariantId, short_evaluation, source_sha256};
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
    /// The key of the variant's rules ([`murus_dsl::RulesKey`], in hex):
    /// data resumes across a comment or a new title in the rules file.
    /// Left out of files written before it (compared by `variant_sha256`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_key: Option<String>,
    /// The bot that plays the games and scores the positions (kept as its
    /// spec's text, `alphabeta:2000`).
    #[serde(with = "crate::folder::as_text")]
    pub bot: BotSpec,
    /// The evaluation its search scores positions with
    /// ([`murus_ai::Evaluation::id`]): always the generic features, so that
    /// the data does not depend on the evaluation it is to replace. Files
    /// written before it was recorded were played so too.
    #[serde(default = "generic")]
    pub evaluation: String,
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
    /// The positions of each of those games, in order.
    pub per_game: Vec<u64>,
}

impl DataFound {
    /// The positions and the games that a run asking for `positions`
    /// trains on, as far as the data goes ([`DataDir::prefix`]: the games
    /// from game 0 whose positions first reach it): what its outcome says
    /// it learned from.
    pub fn toward(&self, positions: u64) -> (u64, u64) {
        let n = reaching(self.per_game.iter().copied(), positions);
        (self.per_game[..n].iter().sum(), n as u64)
    }
}

/// How many of the games with `counts` positions, in order, first reach
/// `positions` (all of them, if they do not reach it).
fn reaching(counts: impl Iterator<Item = u64>, positions: u64) -> usize {
    let mut total = 0;
    counts
        .take_while(|n| {
            let more = total < positions;
            total += n;
            more
        })
        .count()
}

/// The games of the data file at `path` by number (none if there is no
/// file), and the length of its whole lines ([`lines::read`]).
fn read_games<T: DeserializeOwned>(
    path: &Path,
    number: impl Fn(&T) -> u64,
) -> Result<(BTreeMap<u64, T>, u64), LabError> {
    let (records, whole) = lines::read::<T>(path, "not a game's data")?;
    let games = records.into_iter().map(|(_, g)| (number(&g), g)).collect();
    Ok((games, whole))
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

/// The id of the generic evaluation: what the data's bot scores with.
fn generic() -> String {
    Evaluation::Generic.id()
}

impl DataSpec {
    /// The spec of a run on `variant`.
    pub fn new(variant: &Variant, bot: &BotSpec, seed: u64) -> DataSpec {
        DataSpec {
            format: FORMAT,
            variant: variant.name().to_string(),
            variant_sha256: source_sha256(variant.source()),
            rules_key: Some(variant.rules_key().to_hex()),
            bot: bot.clone(),
            evaluation: generic(),
            seed,
            openings: 8,
            max_plies: 300,
        }
    }
}

impl DataSpec {
    /// The evaluation the data's bot scores with, in words: `generic
    /// features`, or `trained, sha256:1a2b3c4d5e6f…`.
    pub fn evaluation_summary(&self) -> String {
        if self.evaluation == generic() {
            Evaluation::Generic.summary()
        } else {
            format!("trained, {}", short_evaluation(&self.evaluation))
        }
    }
}

/// What decides a run's data: a run resumes only with the same.
impl Settings for DataSpec {
    const WHAT: &'static str = "training run";

    fn differences(&self, asked: &DataSpec, here: &'static str) -> Vec<String> {
        let id = |s: &DataSpec| VariantId {
            name: s.variant.clone(),
            source_sha256: s.variant_sha256.clone(),
            rules_key: s.rules_key.clone(),
        };
        let mut d = Differences::new(here);
        d.rules(&id(self), &id(asked));
        d.add("bot", &self.bot, &asked.bot);
        if self.evaluation != asked.evaluation {
            d.add(
                "the bot's evaluation",
                short_evaluation(&self.evaluation),
                short_evaluation(&asked.evaluation),
            );
        }
        d.add("seed", self.seed, asked.seed);
        d.add("openings", self.openings, asked.openings);
        d.add("ply cap", self.max_plies, asked.max_plies);
        d.add("format", self.format, asked.format);
        d.finish()
    }
}

impl Spec for DataSpec {
    const FILE: &'static str = SPEC_FILE;
    const FILES: &'static [&'static str] = &[DATA_FILE];
    const OUTPUTS: &'static [&'static str] = &[];
}

/// A folder of training data.
#[derive(Debug)]
pub struct DataDir {
    folder: RunFolder<DataSpec>,
    /// `data.jsonl`, open for appending.
    log: Appender,
    /// Finished games by number.
    games: BTreeMap<u64, GameData>,
}

impl DataDir {
    /// Opens `path` for `spec` ([`RunFolder::open`]): a new run
    /// ([`Mode::New`]) refuses a folder that keeps data; a resumed one
    /// keeps the games there (a torn last line is cut off), or starts
    /// afresh where there are none, and refuses data of other settings.
    pub fn open(path: &Path, spec: &DataSpec, mode: Mode) -> Result<DataDir, LabError> {
        let folder = RunFolder::open(path, spec, mode)?;
        let data_path = path.join(DATA_FILE);
        let (games, whole) = match folder.opened() {
            Opened::Started => (BTreeMap::new(), None),
            Opened::Resumed => {
                let (games, whole) = read_games(&data_path, |g: &GameData| g.game)?;
                (games, Some(whole))
            }
        };
        let log = Appender::open(&data_path, whole)?;
        Ok(DataDir { folder, log, games })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.folder.path()
    }

    /// The spec of its data, as its `train.json` holds it.
    pub fn spec(&self) -> &DataSpec {
        self.folder.spec()
    }

    /// The games `0..g` whose positions first reach `positions` (all the
    /// games without gaps from 0, if they do not reach it yet).
    pub fn prefix(&self, positions: u64) -> Vec<&GameData> {
        let counts = gapless(&self.games).map(|g| g.positions.len() as u64);
        let n = reaching(counts, positions);
        gapless(&self.games).take(n).collect()
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
        let Some(spec) = RunFolder::<DataSpec>::read_spec(path)? else {
            return Ok(None);
        };
        let (games, _) = read_games(&path.join(DATA_FILE), |g: &Counted| g.game)?;
        let per_game: Vec<u64> = gapless(&games).map(|g| g.positions.len() as u64).collect();
        Ok(Some(DataFound {
            positions: per_game.iter().sum(),
            games: per_game.len() as u64,
            seed: spec.seed,
            bot: spec.bot.to_string(),
            per_game,
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
    /// threads. `handler` hears the data grow ([`TrainProgress::Data`]) and
    /// may stop it before the next game (what was finished is kept).
    pub fn generate(
        &mut self,
        variant: &Variant,
        positions: u64,
        threads: usize,
        handler: &dyn Handler<TrainProgress>,
    ) -> Result<(), LabError> {
        let bot = self.folder.spec().bot.clone();
        let (have, games) = self.contiguous_positions();
        let news = |positions_now, games| {
            handler.progress(&TrainProgress::Data {
                positions: positions_now,
                games,
                of: positions,
            });
        };
        news(have, games);
        if have >= positions {
            return Ok(());
        }
        let spec = self.folder.spec().clone();
        let shared = Mutex::new(Shared {
            dir: self,
            next: 0,
            prefix: (games, have),
            error: None,
        });
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    loop {
                        if done.load(Ordering::Relaxed) || handler.stop() {
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
                        let game = match game {
                            Ok(game) => game,
                            Err(e) => {
                                s.error = Some(e);
                                done.store(true, Ordering::Relaxed);
                                return;
                            }
                        };
                        if let Err(e) = s.dir.log.append(&game) {
                            s.error = Some(e);
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
                        news(have, games);
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
    next: u64,
    /// Games and positions of the games without gaps from game 0.
    prefix: (u64, u64),
    error: Option<LabError>,
}

/// Scores are kept within this many centi-stones (proven wins and losses
/// are far beyond it).
const SCORE_CAP: i32 = 3_000;

/// What the training data keeps of a game as the loop plays it: each
/// position a bot chose its move in, with the search's score.
struct Positions<'a> {
    variant: &'a Variant,
    positions: Vec<(String, i32)>,
}

impl<B: Word> Watcher<B> for Positions<'_> {
    fn chose(&mut self, pos: &Pos<B>, moves: &[Move], bot: &Bot) {
        if moves.len() > 1 {
            let score = bot.last_value.clamp(-SCORE_CAP, SCORE_CAP);
            let text = self.variant.position_string(&B::wrap(*pos));
            self.positions.push((text, score));
        }
    }
}

/// Plays game `index` of a run and keeps its positions: the lab's game
/// loop ([`crate::play_game`]'s), each colour played by its own `bot`
/// (never swapped), with the generic evaluation, after the spec's random
/// opening plies. Fails only where a game can (an external engine).
pub fn play_game(
    variant: &Variant,
    spec: &DataSpec,
    bot: &BotSpec,
    index: u64,
) -> Result<GameData, LabError> {
    struct Task<'a> {
        variant: &'a Variant,
        spec: &'a DataSpec,
        bot: &'a BotSpec,
        index: u64,
    }
    impl EngineTask for Task<'_> {
        type Output = Result<GameData, LabError>;
        fn run<B: Word>(self, e: &Engine<B>) -> Self::Output {
            let seed = game_seed(self.spec.seed, self.index);
            let players = e.players();
            let game = Players {
                index: self.index,
                bots: (0..players)
                    .map(|p| {
                        let mut bot = Bot::new(self.bot.clone(), mix(seed ^ (p as u64 + 1)));
                        bot.set_evaluation(Evaluation::Generic);
                        bot
                    })
                    .collect(),
                stop: None,
                seat_of: (0..players).collect(),
                swap_seats: false,
                openings: self.spec.openings,
                opening_seed: seed,
                book_line: &[],
                max_plies: self.spec.max_plies,
                keep_moves: false,
            };
            let mut kept = Positions {
                variant: self.variant,
                positions: Vec::new(),
            };
            let outcome = play_loop(e, self.variant, game, &mut kept)?.outcome;
            let result = (0..players)
                .map(|p| match outcome.winner {
                    Some(w) if w == p => 1.0,
                    Some(_) => 0.0,
                    None => 1.0 / players as f32,
                })
                .collect();
            Ok(GameData {
                game: self.index,
                result,
                positions: kept.positions,
            })
        }
    }
    variant.run(Task {
        variant,
        spec,
        bot,
        index,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_a_run_learns_from_is_the_games_whose_positions_first_reach_its_target() {
        let counts = [4, 5, 3];
        assert_eq!(reaching(counts.into_iter(), 0), 0);
        assert_eq!(reaching(counts.into_iter(), 1), 1);
        assert_eq!(reaching(counts.into_iter(), 4), 1);
        assert_eq!(reaching(counts.into_iter(), 5), 2);
        assert_eq!(reaching(counts.into_iter(), 100), 3);
        let found = DataFound {
            positions: 12,
            games: 3,
            seed: 1,
            bot: "alphabeta:100".into(),
            per_game: counts.to_vec(),
        };
        assert_eq!(found.toward(6), (9, 2));
        assert_eq!(found.toward(12), (12, 3));
    }
}
