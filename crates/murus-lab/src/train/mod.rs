//! Training data for evaluations learned per variant (`murus train`):
//! positions from self-play, each labelled with the search's score and the
//! game's result, kept in a folder game by game so that a killed run
//! resumes where it stopped.
//!
//! * Game `i` depends only on the run's seed and `i` (its bots' seeds and
//!   its random opening plies), so threads change only the order in which
//!   games finish; the data is read back sorted by game.
//! * The run needs the games `0..g`, where `g` is the fewest whose
//!   positions reach the target. Workers take game numbers in order and
//!   stop once the games finished so far, counted without gaps from game 0,
//!   reach it; a game beyond `g` that finished meanwhile stays in the file
//!   and is never read.
//! * `data.jsonl` gets one line per finished game, flushed as it is
//!   written; a line cut short by a kill is dropped on resume.
//!
//! What is where: `data` keeps the self-play data in its folder and plays
//! it ([`DataDir`]); `fit` turns it into samples and fits a network and
//! the features' weights; `validate` checks a candidate against the
//! evaluation in force; `run` is the whole of `murus train` ([`train`]);
//! `outcome` what it found in words, and the evaluation kept written;
//! `progress` what the run's handler hears, beneath them all. A module
//! reads only those before it in this list, `progress` aside:
//! `data`, `fit`, `validate`, `outcome`, `run`, `first`.

mod data;
mod first;
mod fit;
mod outcome;
mod progress;
mod run;
mod validate;

pub use data::{DATA_FILE, DataDir, DataFound, DataSpec, GameData, SPEC_FILE, play_game};
pub use first::train_if_generic;
pub use fit::{FitReport, FitSettings, SCORE_SHARE, Samples, fit_network, fit_weights, samples};
pub use outcome::{TrainOutcome, describe_trained, save_evaluation};
pub use progress::TrainProgress;
pub use run::{TrainOptions, train};
pub use validate::{CheckResult, Checked, Validation};
