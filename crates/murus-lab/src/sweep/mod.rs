//! Variant sweeps: the balance check of every combination of a rule file's
//! parameters, ranked by a tiered fitness (`docs/balance.md`, "Sweeps").
//!
//! A rule file that declares parameters (`param files = 7..9`) is a family
//! of variants. A sweep compiles each combination of their values (the
//! declared ones, or those a `--set` gives: [`space`]), runs the balance
//! check ([`crate::balance::run_balance`]) of every one that compiles, and
//! ranks them: unplayable < broken < unbalanced < playable ([`Tier`]), then
//! by a score within the tier ([`assess`]). Combinations that do not
//! compile are kept with their diagnostic ([`Skipped`]).
//!
//! The results are a [`SweepReport`] (`sweep.json`), a table (`sweep.csv`,
//! [`to_csv`]) and a heat map (`sweep.svg`,
//! [`crate::write::svg::sweep_svg`]). With a folder, each combination's check
//! is kept in `combos/NAME=VALUE,…/` as `murus balance --out` keeps one, so
//! a killed sweep resumes; `shard` plays every N-th combination, and
//! [`merge_sweeps`] puts shards back together.
//!
//! What is where: `space` enumerates the combinations of a file's
//! parameters; `rank` assesses and ranks them; `run` plays a sweep
//! ([`run_sweep`]); `merge` reads sweeps back and puts shards together
//! ([`merge_sweeps`]). The report is one of the lab's report types
//! ([`crate::report::SweepReport`]).
//!
//! ```
//! use murus_lab::balance::{BalanceConfig, Stopping, parse_levels};
//! use murus_lab::sweep::{SweepConfig, Tier, run_sweep};
//!
//! let source = murus_engine::Variant::standard()
//!     .source()
//!     .replace("board rect 8 x 7", "param files = 7, 8\nboard rect $files x 7");
//! let config = SweepConfig {
//!     set: Vec::new(),
//!     balance: BalanceConfig {
//!         levels: parse_levels("random").unwrap(),
//!         stopping: Stopping::Games(4),
//!         openings: 0,
//!         seed: 1,
//!         threads: 1,
//!         shard: None,
//!         skill_games: 0,
//!         max_plies: None,
//!         book: None,
//!     },
//!     shard: None,
//!     train: None,
//! };
//! let report = run_sweep("files.mg", &source, &config, None, &()).unwrap();
//! assert_eq!(report.spec.parameters, ["files"]);
//! assert_eq!(report.rows.len(), 2);
//! assert_eq!(report.rows[0].rank, 1);
//! assert!(report.rows[0].tier >= report.rows[1].tier);
//! # let _ = Tier::Playable;
//! ```

mod merge;
mod rank;
mod run;
mod space;

use murus_dsl::Diagnostic;

use crate::error::LabError;

pub use crate::report::{FORMAT, Skipped, SweepReport, SweepRow, SweepSpec, Tier, strongest};
pub use crate::write::sweep_csv as to_csv;
pub use merge::{merge_sweeps, read_sweep, write_sweep};
pub use rank::{
    Assessment, FULL_FITNESS, IDEAL_PLIES, PLIES_PER_POINT, assess, ideal_band, rank, row_of,
};
pub use run::{COMBOS, SPEC_FILE, SweepConfig, SweepProgress, SweepStage, run_sweep, spec_of};
pub use space::{MAX_COMBINATIONS, Space, label, parse_values, space};

// ---------------------------------------------------------------------------
// Errors.

/// Why a sweep cannot run, or its shards cannot merge.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// The rule file's parameter declarations, or a setting for them, are
    /// wrong: diagnostics pointing into the file (render them with
    /// [`murus_dsl::render_all`]).
    #[error("{}", .0.iter().map(|d| d.message.as_str()).collect::<Vec<_>>().join("; "))]
    Source(Vec<Diagnostic>),
    /// An option the sweep cannot use.
    #[error("{0}")]
    Invalid(String),
    /// The balance check of a combination, or the sweep's files, failed.
    #[error(transparent)]
    Lab(#[from] LabError),
}

#[cfg(test)]
mod tests;
