//! The lab's report types, and the report of a run built from its games'
//! records. They sit below everything that plays games or keeps them on
//! disk, and the writers of JSON, CSV and SVG ([`crate::write`]) read them
//! and nothing else of the lab.
//!
//! * `run`: the report of a run of games ([`Report`], `report.json`) and
//!   how it is built from the games' [`crate::GameStats`] ([`build`]).
//! * a balance check's report ([`BalanceReport`], `balance.json`), from
//!   the report types' crate (`murus_report::balance`), as the run's
//!   report's types are.
//! * `sweep`: a sweep's report ([`SweepReport`], `sweep.json`).

mod run;
mod stopping;
mod sweep;

pub use murus_report::balance::{BalanceReport, LevelResult, SkillGap, StopReason, strongest};
pub use run::{
    Bin, Branching, ColourResult, Evaluation, FirstPlayer, Length, Rate, Report, SeatResult, build,
    evaluations_text,
};
pub use stopping::{MIN_GAMES_FOR_EDGE, Stopping, Z_EDGE};
pub use sweep::{FORMAT, Skipped, SweepReport, SweepRow, SweepSpec, Tier};

// The figures' wording, at the path it had before it had a module of its
// own (the command line and the studio use it).
pub use crate::text::{grouped, percent};
