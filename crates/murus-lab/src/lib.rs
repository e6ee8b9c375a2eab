//! The balance lab: batch self-play that is reproducible from a seed,
//! whatever the number of threads, with reports a designer can trust, and
//! runs kept on disk game by game so that a killed run loses nothing.
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
//! * A [`RunDir`] keeps a run on disk: its configuration first, then each
//!   game as it finishes; a run resumed from it plays only the missing games
//!   and ends with exactly the files of a run never interrupted.
//!
//! ```
//! use murus_lab::{Config, Control, run};
//! use murus_engine::Variant;
//!
//! let variant = Variant::standard();
//! let config = Config::new(&variant, vec!["random".parse().unwrap()], 20, 7);
//! let control = Control::default();
//! let games = run(&variant, &config, &control);
//! assert_eq!(games.len(), 20);
//! let report = config.report_after(&control);
//! assert_eq!(report.games, 20);
//! ```
//!
//! Programs that keep working while a batch runs (the studio, the command
//! line's progress bar) start it with [`spawn`], which returns a [`Batch`]:
//! progress, reports, cancel, join.

pub mod balance;
pub mod book;
pub mod charts;
pub mod matches;
pub mod metrics;
pub mod play;
pub mod report;
pub mod rundir;
pub mod runner;
pub mod stats;
pub mod sweep;
pub mod train;

use std::sync::Arc;

use murus_ai::BotSpec;
use murus_engine::Variant;
use sha2::{Digest, Sha256};

pub use book::{Book, BookId};
pub use matches::{MatchConfig, MatchResult, Sprt, run_match};
pub use play::{GameResult, GameSetup, game_seed, play_game};
pub use report::{GameStats, Provenance, Report, VariantId, stats_of};
pub use rundir::{RunDir, RunSpec, merge, read_outputs, write_outputs};
pub use runner::{Batch, Control, Options, run, spawn};
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
    /// statistics, which is faster. A run kept in a [`RunDir`] always
    /// writes them.
    pub record_moves: bool,
    /// The opening book that opens every round of games, if any.
    book: Option<Arc<Book>>,
    provenance: Provenance,
}

/// Errors of the lab's inputs and files.
#[derive(Debug, thiserror::Error)]
pub enum LabError {
    /// An input the lab cannot use (a bad shard, a match of three players).
    #[error("{0}")]
    Invalid(String),
    /// A file or folder could not be read or written.
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// A file's content is not what the lab wrote.
    #[error("{path}:{line}: {message}")]
    Parse {
        path: String,
        line: usize,
        message: String,
    },
    /// An opening book ([`Book::parse`]) with lines that cannot open a
    /// game: the first bad move's place and problem, as
    /// ``book.txt:2:7: `d7-d6` is not legal at ply 2 (g to move; 20 legal moves)``,
    /// and how many lines are bad.
    #[error("{path}:{line}:{column}: {message}{}", more_errors(*.errors))]
    Book {
        path: String,
        /// The line (from 1) and column (from 1, in characters) of the first
        /// bad move.
        line: usize,
        column: usize,
        message: String,
        /// Bad lines in the book (each reported at its first problem).
        errors: usize,
        /// Every bad line's diagnostic as rustc renders its own: the
        /// header, the line with a caret under the move, notes (the legal
        /// moves).
        rendered: String,
    },
    /// A new run was asked to start in a folder that already holds one.
    #[error("{path} already holds a run ({file}); resume it, or choose another folder")]
    RunExists { path: String, file: String },
    /// A run was asked to resume from a folder that holds none.
    #[error("{path}: no run to resume: {why}")]
    NoRun { path: String, why: String },
    /// A run was asked to resume from a folder that holds a different run.
    #[error("{path} holds a different run: {}", .differences.join("; "))]
    Mismatch {
        path: String,
        /// One sentence per differing setting: `seed 4 there, 5 asked`.
        differences: Vec<String>,
    },
    /// A self-play worker panicked (a bug); the games it finished are kept.
    #[error("a self-play worker stopped on an internal error: {0}")]
    Panicked(String),
    /// An external engine failed (it did not start, exited, timed out or
    /// named an illegal move) in game `game` (counted from 1); the games
    /// finished before are kept.
    #[error("game {game}: {error}")]
    Engine {
        game: u64,
        error: murus_ai::ExternalError,
    },
}

/// The end of a book error's message: how many more lines are bad.
fn more_errors(errors: usize) -> String {
    match errors {
        0 | 1 => String::new(),
        2 => " (and 1 more error in the book)".into(),
        n => format!(" (and {} more errors in the book)", n - 1),
    }
}

/// Separates the openings' random moves from the games' own seeds.
const OPENING_SALT: u64 = 0x6f70_656e_696e_6773;

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
        let bots: Vec<BotSpec> = (0..players)
            .map(|s| bots[s % bots.len().max(1)].clone())
            .collect();
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
                openings: 0,
                book: None,
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
            book: None,
        }
    }

    /// Opens each game with `plies` random legal moves, the same for the
    /// games of a colour-swapped round (seeded by the run's seed), so that
    /// deterministic bots play varied games. A run with a book
    /// ([`Config::with_book`]) opens from it and plays no random plies.
    pub fn with_openings(mut self, plies: u32) -> Config {
        if self.book.is_none() {
            self.provenance.openings = plies;
        }
        self
    }

    /// Opens the games from `book` instead of random plies: game `index`
    /// plays line `(index / players) % lines` of the book (every game of a
    /// colour-rotated round opens alike, as with random openings, and the
    /// rounds take the lines in turn), then the bots play. The book wins
    /// over [`Config::with_openings`], in either order: the run plays no
    /// random plies and its provenance records the book
    /// ([`Provenance::book`]) and 0 openings. The book must have been read
    /// for this run's variant (a move it cannot play stops the run with an
    /// error).
    pub fn with_book(mut self, book: Arc<Book>) -> Config {
        self.provenance.openings = 0;
        self.provenance.book = Some(book.id().clone());
        self.book = Some(book);
        self
    }

    /// The book the games open from, if any.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
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

    /// The number of the run's `j`-th game (`j < planned()`), in order.
    pub fn game_number(&self, j: u64) -> u64 {
        match self.shard {
            None => j,
            Some((k, n)) => k - 1 + j * n,
        }
    }

    /// The game numbers this run plays, in order, one at a time (a run of
    /// a hundred million games allocates nothing for them).
    pub fn game_numbers(&self) -> impl Iterator<Item = u64> + Clone + use<> {
        let (first, step) = self.shard.map_or((0, 1), |(k, n)| (k - 1, n));
        (0..self.planned()).map(move |j| first + j * step)
    }

    /// Whether game `index` is one of this run's (its shard's share).
    pub fn plays(&self, index: u64) -> bool {
        index < self.games && self.shard.is_none_or(|(k, n)| index % n == k - 1)
    }

    /// The setup of game `index`.
    pub fn setup(&self, index: u64) -> GameSetup {
        let players = self.bots.len();
        let round = index / players as u64;
        GameSetup {
            index,
            seed: game_seed(self.seed, index),
            seats: self.bots.clone(),
            colour_of_seat: (0..players)
                .map(|s| (s + index as usize) % players)
                .collect(),
            max_plies: self.max_plies,
            openings: self.provenance.openings,
            // Every game of a round (the players' colour rotations) opens alike.
            opening_seed: game_seed(self.seed ^ OPENING_SALT, round),
            book_line: self.book.as_ref().map(|b| b.line_of_round(round)),
            record_moves: self.record_moves,
        }
    }

    pub fn provenance(&self) -> &Provenance {
        &self.provenance
    }

    /// Games this run plays (its shard's share).
    pub fn planned(&self) -> u64 {
        match self.shard {
            None => self.games,
            Some((k, n)) if self.games >= k => (self.games - k) / n + 1,
            Some(_) => 0,
        }
    }

    /// The report of finished games of this run, from their statistics
    /// records (see [`stats_of`] for games).
    pub fn report(&self, games: &[GameStats]) -> Report {
        report::build(&self.provenance, games)
    }

    /// The report of finished games, marked [`interrupted`](Report::interrupted)
    /// when `cancelled` cut the run short of its planned games.
    pub fn report_interrupted(&self, games: &[GameStats], cancelled: bool) -> Report {
        let mut r = self.report(games);
        r.interrupted = cancelled && (games.len() as u64) < self.planned();
        r
    }

    /// The report of the games a run watched by `control` finished, marked
    /// [`interrupted`](Report::interrupted) when it was cancelled before all
    /// its games finished.
    pub fn report_after(&self, control: &Control) -> Report {
        self.report_interrupted(&control.stats(), control.is_cancelled())
    }

    /// What determines this run's games, as [`RunDir`] keeps it.
    pub fn run_spec(&self) -> RunSpec {
        RunSpec::new("selfplay", &self.provenance, None)
    }
}
