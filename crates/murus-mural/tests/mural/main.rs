//! The mural crate's tests, through its public API: one test binary (it
//! links once), one module a subject, and the helpers they share in
//! `util`. The error cases are files under `errors/`, their diagnostics
//! snapshotted in `snapshots/`.

mod util;

mod brute_force;
mod collection;
mod engine;
mod equation;
mod errors;
mod format;
mod generate;
mod handler;
mod playout;
mod puzzle1;
mod refute;
mod typed_errors;
