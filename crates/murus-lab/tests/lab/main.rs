//! murus-lab's tests, one binary (after ripgrep's `tests/tests.rs`): a
//! module per subject, `util` for what they share. Run one subject with
//! `cargo test -p murus-lab --test lab book::`; the slow ones are ignored
//! (`ladder::each_rung`, `skill_ladder::depth`: run with `--release --
//! --ignored`).

mod util;

mod book;
mod designer;
mod folders;
mod identity;
mod ladder;
mod modules;
mod progress;
mod report_page;
mod report_svg;
mod rundir;
mod runs;
mod skill_ladder;
