//! The balance check: is a variant fair, and does the answer depend on how
//! well it is played?
//!
//! At each level (random, easy, medium, hard, expert: [`murus_ai::LEVELS`])
//! equal bots play each other in colour-rotated rounds from varied openings,
//! until the first player's share of wins is known well enough
//! ([`Stopping`]); adjacent levels then play a match, which measures how
//! much skill each step adds (the *skill trace*). [`verdict`] turns the
//! figures into sentences, each by a documented rule (`docs/balance.md`).
//!
//! Every game is one of a self-play run or a match and is kept on disk like
//! theirs (`OUT/levels/LEVEL`, `OUT/skill/UPPER-vs-LOWER`): a killed check
//! resumes where it stopped, and a sharded check (a fixed number of games)
//! merges like selfplay.
//!
//! What is where: `config` holds the levels, the stopping rule and the
//! check's settings ([`BalanceConfig`]); `spec` what of them decides its
//! games, as its folder keeps it ([`BalanceSpec`]); `run` plays a check
//! ([`run_balance`]); `verdict` words the figures; `merge` puts the shards
//! of a sharded check back together ([`merge_balance`]). The report itself
//! is one of the lab's report types ([`crate::report::BalanceReport`]).

mod config;
mod merge;
mod run;
mod spec;
mod verdict;

pub use crate::report::{BalanceReport, LevelResult, SkillGap, StopReason};
pub use crate::write::balance_csv as to_csv;
pub use config::{
    BalanceConfig, Level, MIN_GAMES_FOR_EDGE, Stopping, Z_EDGE, level_names, levels_named,
    parse_levels,
};
pub use merge::{merge_balance, read_balance};
pub use run::{CheckProgress, Stage, run_balance, write_balance};
pub use spec::BalanceSpec;
pub use verdict::{CAPPED, DOMINANT_ENDING, DRAWISH, verdict};

#[cfg(test)]
mod tests;
