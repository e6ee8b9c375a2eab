//! The designer report as data: the types of `report.json`, written by
//! `murus_lab`'s report run and read by `murus_publish` to write its page,
//! with the self-play, balance and ladder reports it holds, and the words
//! every front end shows them in.
//!
//! The types carry their serde attributes (what the files hold is this
//! crate's), plain accessors and pure helpers that need nothing but the
//! types (`to_json`, a report's answers and summary lines, a ladder's
//! sentence, a comparison of two reports). What plays games, searches,
//! keeps run folders or draws charts is the lab's: it builds these types
//! with free functions of its own and re-exports them at their old paths
//! (`murus_lab::designer::DesignerReport`, `murus_lab::report::Report`, …).
//!
//! # Layers
//!
//! A module reads only the layers below it:
//!
//! 1. **Helpers**: [`text`] (figures in words), [`numbers`] (the 95% z,
//!    rounding), [`svg`] (text width), [`shard`] (`K/N`).
//! 2. **Records**: [`record`] (a run's provenance, a variant's and a
//!    book's identity), [`metrics`] (a run's game-quality figures).
//! 3. **Reports**: [`run`] (a run of games), [`balance`] (a balance
//!    check), [`ladder`] (the skill ladder).
//! 4. **The designer's report**: [`designer`].

pub mod balance;
pub mod designer;
pub mod ladder;
pub mod metrics;
pub mod numbers;
pub mod record;
pub mod run;
pub mod shard;
pub mod svg;
pub mod text;

pub use designer::DesignerReport;
