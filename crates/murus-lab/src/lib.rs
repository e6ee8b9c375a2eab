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
//!   and ends with exactly the files of a run never interrupted. Balance
//!   checks, sweeps and training data keep theirs by the same protocol
//!   ([`RunFolder`]: started new or resumed, refused when a folder keeps
//!   another run).
//! * Every long job (a run, a match, a balance check, a sweep, training)
//!   takes one [`Handler`](murus_engine::job::Handler): it may stop the
//!   job (a Cancel button, Ctrl-C, a deadline) and hears its progress, a
//!   plain value per job ([`RunProgress`], [`balance::CheckProgress`],
//!   [`sweep::SweepProgress`], [`train::TrainProgress`]).
//!
//! ```
//! use murus_lab::{Config, run, stats_of};
//! use murus_engine::Variant;
//!
//! let variant = Variant::standard();
//! let config = Config::new(&variant, vec!["random".parse().unwrap()], 20, 7);
//! // `()`: nothing stops the run, its progress goes nowhere.
//! let games = run(&variant, &config, &()).unwrap();
//! assert_eq!(games.len(), 20);
//! let report = config.report(&stats_of(&games));
//! assert_eq!(report.games, 20);
//! ```
//!
//! Programs that keep working while a batch runs (the studio, the command
//! line's progress bar) start it with [`spawn`], which returns a [`Batch`]
//! to join.
//!
//! # Layers
//!
//! The crate is built in layers; a module reads only the layers below it
//! (`tests/lab/modules.rs` fails on an import cycle):
//!
//! 1. **Records and small helpers**: [`error`] (the one error type),
//!    [`record`] (a finished game's records, a run's provenance),
//!    [`book`] (opening books), [`seeds`], [`shard`] (`K/N`), [`stats`] (intervals, Elo, the
//!    sequential test), [`text`] (figures in words) and
//!    [`watch`] (a job's handler watched from another thread).
//! 2. **One game**: [`metrics`] (the game-quality metrics and their
//!    recorder) and [`play`] (the game loop).
//! 3. **Report types**: [`report`] (a run's report built from its games'
//!    records; the balance check's and the sweep's reports). The types of
//!    `report.json` and the reports it holds are `murus_report`'s (so that
//!    `murus_publish` reads them without the lab), re-exported here and in
//!    [`designer`], [`ladder`], [`metrics`] and [`record`] at their old
//!    paths; the lab builds them with free functions
//!    ([`report::build`], [`metrics::metrics_of`]).
//! 4. **Writers**: [`write`](mod@write) (the reports as JSON, CSV and SVG text),
//!    reading report types only.
//! 5. **Runs**: [`runner`] (worker threads, a run's configuration, a run in
//!    the background) and [`folder`] (the one protocol of run folders, and
//!    the folder of a run of games).
//! 6. **Jobs**: [`matches`](mod@matches), [`balance`], [`ladder`] (the skill
//!    ladder), [`sweep`] and [`train`]; then [`designer`] (the designer's
//!    report), which runs a balance check and a ladder.
//! 7. **What a folder holds**: [`rundir`] reads a kept run's spec, report,
//!    games and configuration in one call, for programs that show or
//!    resume kept runs.
//!
//! The report types and their writers sit below the runner and the run
//! folders rather than above them: a run folder ends with its report
//! files, so what keeps runs on disk writes reports, and the writers must
//! be beneath it.

pub mod balance;
pub mod book;
pub mod designer;
pub mod error;
pub mod folder;
pub mod ladder;
pub mod matches;
pub mod metrics;
pub mod play;
pub mod record;
pub mod report;
pub mod rundir;
pub mod runner;
pub mod seeds;
pub mod shard;
pub mod stats;
pub mod sweep;
pub mod text;
pub mod train;
pub mod watch;
pub mod write;

pub use book::{Book, BookId};
pub use error::LabError;
pub use folder::{
    Mode, Opened, Partial, RunDir, RunFolder, RunSpec, Shard, merge, read_outputs, write_outputs,
};
pub use matches::{MatchConfig, MatchResult, Sprt, run_match, run_match_until};
pub use play::{GameSetup, Measure, play_game};
pub use record::{GameResult, GameStats, Provenance, VariantId, source_sha256, stats_of};
pub use report::Report;
pub use runner::{Batch, Config, RunProgress, run, spawn};
pub use seeds::game_seed;
pub use stats::{Wdl, wilson};
pub use watch::Watch;
/// The SVG charts, at the path they had before the writers had a module of
/// their own.
pub use write::svg as charts;
