//! The one self-play runner: worker threads claim game numbers, play them,
//! and hand each finished game to its destinations (the run's statistics,
//! a [`RunDir`](crate::RunDir), a list) and to the run's
//! [`Handler`](murus_engine::job::Handler), which hears its progress
//! ([`RunProgress`]) and may stop it; in the foreground ([`run`]) or on a
//! background thread ([`spawn`]).
//!
//! What is where: `config` holds a run's settings ([`Config`]: bots,
//! games, seed, shard, openings) and the setup of each game; `play` the
//! worker threads and the sequential judging of games in number order;
//! `batch` a run on a background thread ([`Batch`]).

mod batch;
mod config;
mod play;

pub use batch::{Batch, spawn};
pub use config::Config;
pub(crate) use play::{Deliver, Tally, lock, play_range, play_sequential};
pub use play::{RunProgress, run};
