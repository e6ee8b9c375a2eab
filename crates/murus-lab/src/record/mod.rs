//! The lab's records, at the bottom of the crate: what one finished game
//! leaves ([`GameStats`], [`GameResult`], its [`GameMetrics`]) and where a
//! run comes from ([`Provenance`]). Everything above reads them; they read
//! nothing of the lab but the opening book's identity.
//!
//! * `game`: a game's statistics record and its line of `games.jsonl`.
//! * `quality`: a game's game-quality figures as its line keeps them.
//! * a run's variant, engine, bots, seed and settings ([`Provenance`]),
//!   from the report types' crate.

mod game;
mod quality;

pub(crate) use game::reason_key;
pub use game::{GameResult, GameStats, stats_of};
/// A run's provenance lives with the report types (`murus_report::record`):
/// every report holds one.
pub use murus_report::record::{
    LEGACY_EVALUATIONS, Provenance, VariantId, short_evaluation, source_sha256,
};
pub use quality::{Fixed, GameMetrics};
