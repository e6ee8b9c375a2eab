//! Game-quality metrics: is the game decisive, dramatic, clear, of the
//! right length? Each figure follows Ludii's evaluation metrics
//! (`Evaluation/src/metrics` in Ludeme/Ludii) and Browne's thesis
//! *Automatic Generation and Evaluation of Recombination Games* (2008);
//! `docs/metrics.md` gives each formula, its source and its cost.
//!
//! Three layers, so that every formula is a pure function that tests can
//! feed hand-made games:
//!
//! * [`Trace`]: what a game leaves behind, one [`Ply`] a ply (legal moves,
//!   the players' evaluation at the start of each round, on some plies how
//!   many moves were near the best) and its end. [`Recorder`] writes it
//!   while the lab plays, cheaply, from the variant's own evaluation.
//! * [`GameMetrics`]: one game's figures, computed from its trace by the
//!   metric functions ([`drama`], [`lead_change`], …): a small `Copy`
//!   record kept in each game's line of `games.jsonl`
//!   ([`crate::record::GameStats::metrics`]).
//! * [`Metrics`]: a run's figures, aggregated from its games' records: the
//!   `metrics` section of `report.json`.
//!
//! What is where: `trace` holds the trace and the metric functions of one
//! game (and [`GameMetrics::of`]); `run` a run's aggregate
//! ([`metrics_of`]; the [`Metrics`] record and its verdict words are
//! `murus_report`'s); `recorder` the [`Recorder`] the game loop feeds. The
//! per-game record itself ([`GameMetrics`], [`Fixed`]) lives with the lab's other
//! records ([`crate::record`]), below everything that reads it.
//!
//! ```
//! use murus_lab::metrics::{End, Ply, Trace, drama, lead_change};
//!
//! // Two rounds of a two-player game that the first player led throughout
//! // and won.
//! let values = |a: f32| Some([a, -a, 0.0, 0.0]);
//! let ply = |moves, v| Ply { moves, values: v, near_best: None };
//! let t = Trace {
//!     players: 2,
//!     plies: vec![ply(10, values(0.2)), ply(9, None), ply(8, values(0.5)), ply(7, None)],
//!     end: End::Won(0),
//!     covered: 20,
//!     cells: 56,
//!     repeated: 0,
//! };
//! assert_eq!(drama(&t), Some(0.0)); // the winner never trailed
//! assert_eq!(lead_change(&t), Some(0.0));
//! ```

mod recorder;
mod run;
mod trace;

pub use crate::record::{Fixed, GameMetrics};
pub use recorder::Recorder;
pub use run::{
    BranchingMetrics, DECIDED_EARLY, DRAMA_LOW, DURATION_FAR, Duration, FEW_DECISIONS, Metrics,
    REPETITIVE, SMALL_COVERAGE, UNCLEAR, metrics_of,
};
pub use trace::{
    End, Ply, Trace, board_coverage, branching_mean, branching_trend, clarity, clarity_plies,
    completion, count_repeats, decision_moves, decisiveness_moves, decisiveness_threshold, drama,
    drawishness, duration_score, ideal_band, lead_change, near_best, repetition, stability,
    timeout, tree_digits,
};

/// The most players a variant has (the rules language's limit).
pub const MAX_PLAYERS: usize = murus_dsl::rules::MAX_PLAYERS;

/// Centi-stones of evaluation per unit of `tanh`: a lead of `x`
/// centi-stones is worth `tanh(x / 800)`, which is `2·σ(x / 400) − 1`, the
/// expected score on the scale the project's MCTS and networks use (400
/// centi-stones per unit of the logistic), stretched to `-1..=1` as
/// Ludii's state evaluations are.
pub const EVAL_SCALE: f64 = 800.0;

/// Ludii's narrowness threshold: a move is near the best when its value is
/// at least `mean + 0.75 · (best − mean)` of the position's moves
/// (`ClarityNarrowness`).
pub const NARROWNESS: f64 = 0.75;

/// In games where no bot searches (random and greedy bots) or a seat plays
/// at random, the legal moves are valued at one ply in this many (drawn
/// from the game's seed): a random ply costs about 0.2 µs and valuing a
/// ply's moves about 0.1 µs a move, which is what a greedy bot spends on
/// its own ply. Where bots search (alpha-beta, MCTS, external engines)
/// they are valued at every ply, which costs little beside their
/// thinking. The sample is uniform over plies, so a run's clarity is
/// unbiased.
pub const CLARITY_SAMPLE: u64 = 64;

/// In runs of random bots alone, the games of the first
/// [`RANDOM_FULL_ROUNDS`] rounds and then of one round in this many (a
/// round: the games that rotate the colours among the seats, numbered
/// `players · r` to `players · r + players − 1`) are measured, the others
/// only counted (their end, length and branching): measuring a random game
/// costs about as much as playing it. Rounds `0, 1, …, F − 1`, then the
/// multiples of N, so shards and resumed runs measure the same games.
pub const RANDOM_ROUNDS: u64 = 64;

/// The rounds a run of random bots alone measures whole before it samples
/// ([`RANDOM_ROUNDS`]): a small run (a balance check's level, a studio run
/// of a hundred games) has the metrics of all its games.
pub const RANDOM_FULL_ROUNDS: u64 = 64;

/// The band of ideal game length, in decimal digits of the game tree along
/// one game (the sum over its plies of `log10` of the legal moves): from
/// Connect Four's (about 10^21) to chess's (about 10^123), in Allis's
/// table of game-tree complexities (*Searching for Solutions in Games and
/// Artificial Intelligence*, 1994). Below, a game is over before it has
/// offered as many choices as the simplest of the well-known deep games;
/// above, it asks more than chess. [`ideal_band`] turns it into plies.
pub const IDEAL_TREE_DIGITS: [f64; 2] = [20.0, 120.0];

/// The value of a lead of `cp` centi-stones, in `-1..=1`:
/// `tanh(cp / 800)`.
pub fn squash(cp: i32) -> f64 {
    // `tanh x = 1 − 2 / (e^2x + 1)`: one `exp`, several times faster than
    // the library's `tanh`, and within 1e-15 of it (±1 in the limits).
    let x = f64::from(cp) / EVAL_SCALE;
    1.0 - 2.0 / ((2.0 * x).exp() + 1.0)
}
