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
//!   ([`GameStats::metrics`]).
//! * [`Metrics`]: a run's figures, aggregated from its games' records: the
//!   `metrics` section of `report.json`.
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

use std::fmt;

use murus_ai::Evaluation;
use murus_ai::eval::{Weights, evaluate, score};
use murus_ai::nnue::Network;
use murus_engine::{Bits, DrawTracker, Engine, Move, Outcome, Pos, Reason};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::play::mix;
use crate::report::GameStats;

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

/// In games where a seat plays random moves, the legal moves are valued at
/// one ply in this many (drawn from the game's seed), so that random
/// self-play stays within about 1.5 times its speed without metrics (a
/// random ply costs about 0.3 µs; valuing a ply's moves, about 0.1 µs a
/// move). With bots that choose (greedy, searches, external engines) they
/// are valued at every ply, which costs little beside their own thinking.
pub const CLARITY_SAMPLE_RANDOM: u64 = 64;

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

// ---------------------------------------------------------------------------
// The trace of a game.

/// How a game ended, for the metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The player of this colour (its number in turn order) won.
    Won(usize),
    /// A draw by the rules: repetition, a stalemate that draws.
    Drawn,
    /// Stopped by the ply cap (Ludii's "timeout").
    Capped,
}

impl End {
    /// The end of a game with outcome `o`.
    pub fn of(o: &Outcome) -> End {
        match (o.winner, o.reason) {
            (Some(w), _) => End::Won(w),
            (None, Reason::PlyCap) => End::Capped,
            (None, _) => End::Drawn,
        }
    }
}

/// One ply of a game, as the metrics see it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ply {
    /// Legal moves of the position before the ply.
    pub moves: u32,
    /// Each player's value of the position before the ply, in `-1..=1`
    /// (colours in turn order; entries past the players are unused), when
    /// the position was evaluated: at the start of each round (every
    /// `players` plies), so that every evaluation sees the same side to
    /// move.
    pub values: Option<[f32; MAX_PLAYERS]>,
    /// When the legal moves were valued (a sample of plies): how many were
    /// near the best ([`near_best`]).
    pub near_best: Option<u32>,
}

/// What the metrics need of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub players: usize,
    /// One entry a ply played.
    pub plies: Vec<Ply>,
    pub end: End,
    /// Cells that held a stone at some time in the game, start included.
    pub covered: u32,
    /// Cells of the board.
    pub cells: u32,
    /// Positions (the start and one after each ply) that repeat an earlier
    /// position of the game, side to move included ([`count_repeats`]).
    pub repeated: u32,
}

impl Trace {
    /// The evaluated positions: the ply before which each was evaluated,
    /// and the players' values.
    fn evaluations(&self) -> impl Iterator<Item = (usize, &[f32])> + '_ {
        let n = self.players.min(MAX_PLAYERS);
        self.plies
            .iter()
            .enumerate()
            .filter_map(move |(i, p)| p.values.as_ref().map(|v| (i, &v[..n])))
    }

    fn winner(&self) -> Option<usize> {
        match self.end {
            End::Won(w) if w < self.players.min(MAX_PLAYERS) => Some(w),
            _ => None,
        }
    }
}

/// The highest value in `values`.
fn best(values: &[f32]) -> f32 {
    values.iter().copied().fold(f32::NEG_INFINITY, f32::max)
}

// ---------------------------------------------------------------------------
// One game's metrics: pure functions of its trace.

/// 1 when the game has a winner, else 0 (Ludii `Completion`).
pub fn completion(t: &Trace) -> f64 {
    f64::from(u8::from(matches!(t.end, End::Won(_))))
}

/// 1 when the game was drawn by the rules, not stopped by the ply cap,
/// else 0 (Ludii `Drawishness`).
pub fn drawishness(t: &Trace) -> f64 {
    f64::from(u8::from(t.end == End::Drawn))
}

/// 1 when the ply cap stopped the game, else 0 (Ludii `Timeouts`).
pub fn timeout(t: &Trace) -> f64 {
    f64::from(u8::from(t.end == End::Capped))
}

/// Ludii `DramaAverage` (Browne's *drama*): over the evaluated positions,
/// the mean of how far the eventual winner's value lies below the best
/// player's (0 where the winner leads). 0: the winner never trailed.
/// `None` for a game without a winner or without an evaluated position.
pub fn drama(t: &Trace) -> Option<f64> {
    let w = t.winner()?;
    let (sum, n) = t.evaluations().fold((0.0, 0u32), |(s, n), (_, v)| {
        (s + f64::from(best(v) - v[w]), n + 1)
    });
    (n > 0).then(|| sum / f64::from(n))
}

/// Ludii `LeadChange` (Browne's *lead change*): the share of successive
/// evaluated positions (one a round) whose leaders (the players of the
/// highest value) differ from the previous position's. Ludii counts the
/// first position as a change and divides by the plies; here a game whose
/// leader never changes scores 0, and one that changes every round 1.
/// `None` with fewer than two evaluated positions.
pub fn lead_change(t: &Trace) -> Option<f64> {
    let leaders = |v: &[f32]| {
        let top = best(v);
        v.iter()
            .enumerate()
            .filter(|(_, x)| **x == top)
            .fold(0u8, |m, (p, _)| m | 1 << p)
    };
    let mut previous = None;
    let (mut changes, mut steps) = (0u32, 0u32);
    for (_, v) in t.evaluations() {
        let now = leaders(v);
        if let Some(before) = previous {
            steps += 1;
            changes += u32::from(before != now);
        }
        previous = Some(now);
    }
    (steps > 0).then(|| f64::from(changes) / f64::from(steps))
}

/// Ludii `Stability`: the sum over players of the variance of the
/// player's value across the evaluated positions. 0: the evaluation never
/// moved. `None` without an evaluated position.
pub fn stability(t: &Trace) -> Option<f64> {
    let players = t.players.min(MAX_PLAYERS);
    let (mut sum, mut squares, mut n) = ([0.0f64; MAX_PLAYERS], [0.0f64; MAX_PLAYERS], 0u32);
    for (_, v) in t.evaluations() {
        for (p, &x) in v.iter().enumerate() {
            sum[p] += f64::from(x);
            squares[p] += f64::from(x) * f64::from(x);
        }
        n += 1;
    }
    if n == 0 {
        return None;
    }
    let n = f64::from(n);
    // Values lie in -1..=1: E[x²] − E[x]² loses nothing that matters.
    let total = (0..players)
        .map(|p| (squares[p] / n - (sum[p] / n).powi(2)).max(0.0))
        .sum();
    Some(total)
}

/// Ludii `DecisivenessThreshold`: the highest value any player other than
/// the winner reached. `None` for a game without a winner or without an
/// evaluated position.
pub fn decisiveness_threshold(t: &Trace) -> Option<f64> {
    let w = t.winner()?;
    t.evaluations()
        .flat_map(|(_, v)| v.iter().enumerate().filter(move |(p, _)| *p != w))
        .map(|(_, x)| f64::from(*x))
        .reduce(f64::max)
}

/// Ludii `DecisivenessMoves`: how far into the game (a share of its plies)
/// the winner's value first rose above [`decisiveness_threshold`], a level
/// no other player ever reached: the game was decided from there. 1 when
/// it never did (decided only by the last move). Small values mean the
/// game dragged on after it was decided. `None` for a game without a
/// winner or without an evaluated position.
pub fn decisiveness_moves(t: &Trace) -> Option<f64> {
    let w = t.winner()?;
    let threshold = decisiveness_threshold(t)?;
    let plies = t.plies.len() as f64;
    let first = t
        .evaluations()
        .find(|(_, v)| f64::from(v[w]) > threshold)
        .map_or(plies, |(i, _)| i as f64);
    Some(first / plies)
}

/// How many of a position's move `values` are near the best: at least
/// `mean + 0.75 · (best − mean)` ([`NARROWNESS`]; Ludii counts the moves
/// strictly above, so that a position whose moves are all worth the same
/// would count none, reading as perfectly clear; here it counts them all).
pub fn near_best(values: &[f64]) -> u32 {
    if values.is_empty() {
        return 0;
    }
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // A hair below, so that equal values are near themselves whatever the
    // rounding of the mean.
    let threshold = mean + NARROWNESS * (top - mean) - 1e-9;
    values.iter().filter(|&&v| v >= threshold).count() as u32
}

/// Ludii `ClarityNarrowness`: over the plies whose moves were valued, the
/// mean share of the legal moves near the best ([`near_best`]). Small: a
/// few moves stand out, the choice is clear; 1: every move looks as good
/// as the best. `None` when no ply was valued.
pub fn clarity(t: &Trace) -> Option<f64> {
    let (sum, n) = t
        .plies
        .iter()
        .filter_map(|p| {
            p.near_best
                .map(|k| f64::from(k) / f64::from(p.moves.max(1)))
        })
        .fold((0.0, 0u32), |(s, n), x| (s + x, n + 1));
    (n > 0).then(|| sum / f64::from(n))
}

/// The plies whose moves were valued for [`clarity`].
pub fn clarity_plies(t: &Trace) -> u32 {
    t.plies.iter().filter(|p| p.near_best.is_some()).count() as u32
}

/// Ludii `DecisionMoves`: the share of plies with more than one legal
/// move. `None` for a game of no plies.
pub fn decision_moves(t: &Trace) -> Option<f64> {
    let n = t.plies.len();
    (n > 0).then(|| t.plies.iter().filter(|p| p.moves > 1).count() as f64 / n as f64)
}

/// Ludii `BranchingFactorAverage`: the mean number of legal moves a ply.
/// `None` for a game of no plies.
pub fn branching_mean(t: &Trace) -> Option<f64> {
    let n = t.plies.len();
    (n > 0).then(|| t.plies.iter().map(|p| f64::from(p.moves)).sum::<f64>() / n as f64)
}

/// Ludii `BranchingFactorChangeLineBestFit`: the slope of the least-squares
/// line through the legal moves of each ply against the ply's number, in
/// moves a ply: above 0 the game opens up, below 0 it narrows. `None` with
/// fewer than two plies.
pub fn branching_trend(t: &Trace) -> Option<f64> {
    let n = t.plies.len();
    if n < 2 {
        return None;
    }
    let (mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0);
    for (i, p) in t.plies.iter().enumerate() {
        let (x, y) = (i as f64, f64::from(p.moves));
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    let n = n as f64;
    Some((n * sxy - sx * sy) / (n * sxx - sx * sx))
}

/// The decimal digits of the game tree along this game: the sum over its
/// plies of `log10` of the legal moves (for a game of `d` plies of `b`
/// moves each, `d · log10 b`, the game-tree complexity's exponent).
pub fn tree_digits(t: &Trace) -> f64 {
    // One logarithm per 200 digits rather than one a ply.
    let (mut digits, mut product) = (0.0, 1.0f64);
    for p in &t.plies {
        product *= f64::from(p.moves.max(1));
        if product > 1e200 {
            digits += product.log10();
            product = 1.0;
        }
    }
    digits + product.log10()
}

/// Ludii `BoardCoverageDefault`: the share of the board's cells that held
/// a stone at some time in the game. `None` for a board of no cells.
pub fn board_coverage(t: &Trace) -> Option<f64> {
    (t.cells > 0).then(|| f64::from(t.covered) / f64::from(t.cells))
}

/// Ludii `PositionalRepetition`: `1 − distinct / all` over the game's
/// positions (the start and one after each ply).
pub fn repetition(t: &Trace) -> f64 {
    f64::from(t.repeated) / (t.plies.len() + 1) as f64
}

/// How many of `hashes` repeat an earlier one (sorts them).
pub fn count_repeats(hashes: &mut [u64]) -> u32 {
    hashes.sort_unstable();
    hashes.windows(2).filter(|w| w[0] == w[1]).count() as u32
}

/// The ideal band of game length in plies, for games whose plies offer
/// `10^digits_per_ply` legal moves on average (geometric mean):
/// [`IDEAL_TREE_DIGITS`] divided by `digits_per_ply` (at least `log10 2`,
/// so that games of forced moves get a finite band).
pub fn ideal_band(digits_per_ply: f64) -> [f64; 2] {
    let d = digits_per_ply.max(2f64.log10());
    IDEAL_TREE_DIGITS.map(|x| x / d)
}

/// Ludii `IdealDuration`'s score of a game of `plies` plies against the
/// band `[lo, hi]`: 1 inside, `plies / lo` below, falling linearly from 1 at
/// `hi` to 0 at `2 · hi` above.
pub fn duration_score(plies: f64, [lo, hi]: [f64; 2]) -> f64 {
    if plies < lo {
        plies / lo
    } else if plies > hi {
        1.0 - ((plies - hi) / hi).min(1.0)
    } else {
        1.0
    }
}

// ---------------------------------------------------------------------------
// One game's record.

/// A figure kept to four decimals, as a whole number of ten-thousandths:
/// a game file read back gives exactly the numbers that were written
/// (JSON's floating-point numbers need not), so a resumed run reports to
/// the bit what an uninterrupted one does. Written as a decimal number
/// (`0.1234`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fixed(i32);

impl Fixed {
    /// Ten-thousandths in one.
    pub const SCALE: f64 = 10_000.0;

    /// `x` to the nearest ten-thousandth (saturating; NaN is 0).
    pub fn new(x: f64) -> Fixed {
        Fixed((x * Fixed::SCALE).round() as i32)
    }

    pub fn get(self) -> f64 {
        f64::from(self.0) / Fixed::SCALE
    }
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.4}", self.get())
    }
}

impl Serialize for Fixed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.get())
    }
}

impl<'de> Deserialize<'de> for Fixed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Fixed, D::Error> {
        f64::deserialize(d).map(Fixed::new)
    }
}

/// One game's metrics, kept in its line of `games.jsonl` as `metrics`
/// (lines written before the metrics have none). Figures that a game
/// cannot have (drama without a winner) are left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameMetrics {
    /// Positions evaluated: one a round.
    pub evaluated: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drama: Option<Fixed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lead_change: Option<Fixed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stability: Option<Fixed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decisiveness_threshold: Option<Fixed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decisiveness_moves: Option<Fixed>,
    /// [`clarity`] and the plies it was measured on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clarity: Option<Fixed>,
    pub clarity_plies: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branching_trend: Option<Fixed>,
    /// [`tree_digits`].
    pub tree_digits: Fixed,
    pub covered: u32,
    pub cells: u32,
    pub repeated: u32,
}

impl GameMetrics {
    /// The record of the game traced by `t`.
    pub fn of(t: &Trace) -> GameMetrics {
        let fixed = |x: Option<f64>| x.map(Fixed::new);
        GameMetrics {
            evaluated: t.evaluations().count() as u32,
            drama: fixed(drama(t)),
            lead_change: fixed(lead_change(t)),
            stability: fixed(stability(t)),
            decisiveness_threshold: fixed(decisiveness_threshold(t)),
            decisiveness_moves: fixed(decisiveness_moves(t)),
            clarity: fixed(clarity(t)),
            clarity_plies: clarity_plies(t),
            branching_trend: fixed(branching_trend(t)),
            tree_digits: Fixed::new(tree_digits(t)),
            covered: t.covered,
            cells: t.cells,
            repeated: t.repeated,
        }
    }
}

// ---------------------------------------------------------------------------
// A run's metrics.

/// Game length against its ideal band.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Duration {
    /// Mean plies a game (Ludii `DurationTurns`, in plies).
    pub mean: f64,
    /// The ideal band in plies for the run's branching ([`ideal_band`]);
    /// `None` without games.
    pub ideal: Option<[f64; 2]>,
    /// The mean over games of [`duration_score`] against the band: 1 when
    /// every game's length is inside it.
    pub score: Option<f64>,
}

/// Legal moves a ply.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BranchingMetrics {
    /// The mean over games of the game's mean ([`branching_mean`]).
    pub mean: f64,
    /// The geometric mean over all plies: `10^(digits / plies)`, which sets
    /// the ideal band.
    pub geometric_mean: Option<f64>,
    /// The mean over games of [`branching_trend`] (moves a ply).
    pub trend: Option<f64>,
}

/// A run's game-quality metrics (`report.json`'s `metrics`). Each figure is
/// the mean over games of the per-game metric of the same name (clarity:
/// over all valued plies); completion, drawishness, timeouts, duration,
/// decision moves and the mean branching count every game, the others the
/// games with a metrics record (`measured`), and those of them where the
/// figure exists (drama and decisiveness: games with a winner).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Games of the report.
    pub games: u64,
    /// Games with a metrics record (older game files have none).
    pub measured: u64,
    pub completion: f64,
    pub drawishness: f64,
    pub timeouts: f64,
    pub duration: Duration,
    pub decisiveness_threshold: Option<f64>,
    pub decisiveness_moves: Option<f64>,
    pub drama: Option<f64>,
    pub lead_change: Option<f64>,
    pub stability: Option<f64>,
    pub clarity: Option<f64>,
    pub decision_moves: Option<f64>,
    pub branching: BranchingMetrics,
    pub board_coverage: Option<f64>,
    pub repetition: Option<f64>,
}

/// Games shorter than half the ideal band's lower end, or longer than
/// twice its upper end, are "far" outside it.
pub const DURATION_FAR: f64 = 2.0;
/// Drama below this is flagged: the eventual winner (almost) never trails.
pub const DRAMA_LOW: f64 = 0.01;
/// Decisiveness moves below this are flagged: the winner is clear early
/// and the rest of the game may drag.
pub const DECIDED_EARLY: f64 = 0.3;
/// Decision moves below this are flagged: most plies offer no choice.
pub const FEW_DECISIONS: f64 = 0.5;
/// Clarity (narrowness) above this is flagged: most moves look as good as
/// the best.
pub const UNCLEAR: f64 = 0.5;
/// Board coverage below this is flagged.
pub const SMALL_COVERAGE: f64 = 0.5;
/// Repetition above this is flagged.
pub const REPETITIVE: f64 = 0.1;

/// `x` to six decimals, as the report's other figures.
fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The mean of `xs`, `None` when empty.
fn mean(xs: impl Iterator<Item = f64>) -> Option<f64> {
    let (s, n) = xs.fold((0.0, 0u64), |(s, n), x| (s + x, n + 1));
    (n > 0).then(|| round(s / n as f64))
}

impl Metrics {
    /// The metrics of `games` (in any order).
    pub fn of(games: &[GameStats]) -> Metrics {
        // Sums of floating-point numbers depend on their order: the games
        // are summed in number order, so that a run's report is the same
        // to the bit whatever order its games finished in.
        let mut sorted: Vec<&GameStats> = games.iter().collect();
        sorted.sort_by_key(|g| g.index);
        let games: Vec<&GameStats> = sorted;
        let n = games.len() as u64;
        let share = |f: &dyn Fn(&GameStats) -> bool| {
            if n == 0 {
                0.0
            } else {
                round(games.iter().filter(|g| f(g)).count() as f64 / n as f64)
            }
        };
        let measured: Vec<(&GameStats, &GameMetrics)> = games
            .iter()
            .filter_map(|&g| g.metrics.as_ref().map(|m| (g, m)))
            .collect();
        let of = |f: fn(&GameMetrics) -> Option<Fixed>| {
            mean(measured.iter().filter_map(|(_, m)| f(m)).map(Fixed::get))
        };
        let (digits, plies) = measured.iter().fold((0.0, 0u64), |(d, p), (g, m)| {
            (d + m.tree_digits.get(), p + u64::from(g.plies))
        });
        let per_ply = (plies > 0).then(|| digits / plies as f64);
        let ideal = per_ply.map(ideal_band);
        let played: Vec<&GameStats> = games.iter().copied().filter(|g| g.plies > 0).collect();
        let (clarity_sum, clarity_plies) = measured.iter().fold((0.0, 0u64), |(s, k), (_, m)| {
            let c = m.clarity.map_or(0.0, Fixed::get);
            (
                s + c * f64::from(m.clarity_plies),
                k + u64::from(m.clarity_plies),
            )
        });
        let covered = mean(
            measured
                .iter()
                .filter(|(_, m)| m.cells > 0)
                .map(|(_, m)| f64::from(m.covered) / f64::from(m.cells)),
        );
        Metrics {
            games: n,
            measured: measured.len() as u64,
            completion: share(&|g| g.winner.is_some()),
            drawishness: share(&|g| g.winner.is_none() && g.reason != Reason::PlyCap),
            timeouts: share(&|g| g.reason == Reason::PlyCap),
            duration: Duration {
                mean: mean(games.iter().map(|g| f64::from(g.plies))).unwrap_or(0.0),
                ideal: ideal.map(|b| b.map(round)),
                score: ideal.and_then(|b| {
                    mean(games.iter().map(|g| duration_score(f64::from(g.plies), b)))
                }),
            },
            decisiveness_threshold: of(|m| m.decisiveness_threshold),
            decisiveness_moves: of(|m| m.decisiveness_moves),
            drama: of(|m| m.drama),
            lead_change: of(|m| m.lead_change),
            stability: of(|m| m.stability),
            clarity: (clarity_plies > 0).then(|| round(clarity_sum / clarity_plies as f64)),
            decision_moves: mean(
                played
                    .iter()
                    .map(|g| f64::from(g.plies - g.forced.min(g.plies)) / f64::from(g.plies)),
            ),
            branching: BranchingMetrics {
                mean: mean(
                    played
                        .iter()
                        .map(|g| g.branching_sum as f64 / f64::from(g.plies)),
                )
                .unwrap_or(0.0),
                geometric_mean: per_ply.map(|d| round(10f64.powf(d))),
                trend: of(|m| m.branching_trend),
            },
            board_coverage: covered,
            repetition: mean(
                measured
                    .iter()
                    .map(|(g, m)| f64::from(m.repeated) / (f64::from(g.plies) + 1.0)),
            ),
        }
    }

    /// The figures outside their documented bounds, each as the end of a
    /// sentence ("games use only 42.0% of the board"), in this order:
    ///
    /// 1. mean length below the ideal band's lower end or above its upper
    ///    end ("far" beyond [`DURATION_FAR`] times);
    /// 2. drama below [`DRAMA_LOW`];
    /// 3. decisiveness moves below [`DECIDED_EARLY`];
    /// 4. decision moves below [`FEW_DECISIONS`];
    /// 5. clarity above [`UNCLEAR`];
    /// 6. board coverage below [`SMALL_COVERAGE`];
    /// 7. repetition above [`REPETITIVE`].
    ///
    /// Figures the games did not have are not judged.
    pub fn extremes(&self) -> Vec<String> {
        let mut out = Vec::new();
        let pct = crate::report::percent;
        if let Some([lo, hi]) = self.duration.ideal
            && self.games > 0
        {
            let mean = self.duration.mean;
            let side = if mean < lo {
                Some(if mean * DURATION_FAR < lo {
                    "far below"
                } else {
                    "below"
                })
            } else if mean > hi {
                Some(if mean > hi * DURATION_FAR {
                    "far above"
                } else {
                    "above"
                })
            } else {
                None
            };
            if let Some(side) = side {
                out.push(format!(
                    "games last {mean:.1} plies on average, {side} the ideal band of {lo:.0}–{hi:.0} plies for their branching"
                ));
            }
        }
        if let Some(d) = self.drama.filter(|&d| d < DRAMA_LOW) {
            out.push(format!(
                "drama is {d:.3}: the eventual winner almost never trails, so games have no comebacks"
            ));
        }
        if let Some(x) = self.decisiveness_moves.filter(|&x| x < DECIDED_EARLY) {
            out.push(format!(
                "the winner is clear {} of the way into a game on average: the rest may drag",
                pct(x)
            ));
        }
        if let Some(x) = self.decision_moves.filter(|&x| x < FEW_DECISIONS) {
            out.push(format!("only {} of plies offer a choice of moves", pct(x)));
        }
        if let Some(c) = self.clarity.filter(|&c| c > UNCLEAR) {
            out.push(format!(
                "{} of the legal moves look as good as the best: choices are hard to tell apart",
                pct(c)
            ));
        }
        if let Some(c) = self.board_coverage.filter(|&c| c < SMALL_COVERAGE) {
            out.push(format!("games use only {} of the board", pct(c)));
        }
        if let Some(r) = self.repetition.filter(|&r| r > REPETITIVE) {
            out.push(format!("{} of positions repeat an earlier one", pct(r)));
        }
        out
    }

    /// Labelled lines for [`crate::Report::summary`] (none when no game
    /// has a metrics record): "Game quality" and "Game shape".
    pub fn summary(&self) -> Vec<(String, String)> {
        if self.measured == 0 {
            return Vec::new();
        }
        let pct = crate::report::percent;
        let opt = |x: Option<f64>, digits: usize| {
            x.map_or_else(|| "–".to_string(), |x| format!("{x:.digits$}"))
        };
        let decided = match (self.decisiveness_threshold, self.decisiveness_moves) {
            (Some(t), Some(m)) => format!(
                "decisiveness threshold {t:.2} passed {} into a game",
                pct(m)
            ),
            _ => "decisiveness –".into(),
        };
        let band = self.duration.ideal.map_or_else(
            || "–".to_string(),
            |[lo, hi]| format!("{lo:.0}–{hi:.0} plies"),
        );
        vec![
            (
                "Game quality".into(),
                format!(
                    "drama {}, lead change {}, stability {}, {decided}, clarity {}",
                    opt(self.drama, 3),
                    opt(self.lead_change, 2),
                    opt(self.stability, 3),
                    opt(self.clarity, 2),
                ),
            ),
            (
                "Game shape".into(),
                format!(
                    "ideal length {band} (score {}), decision moves {}, branching trend {} a ply, board coverage {}, repetition {}",
                    opt(self.duration.score, 2),
                    self.decision_moves.map_or_else(|| "–".into(), pct),
                    self.branching
                        .trend
                        .map_or_else(|| "–".into(), |t| format!("{t:+.2}")),
                    self.board_coverage.map_or_else(|| "–".into(), pct),
                    self.repetition.map_or_else(|| "–".into(), pct),
                ),
            ),
        ]
    }

    /// `(key, value)` pairs for tables, in the order of `docs/metrics.md`;
    /// a figure the games did not have is an empty string.
    pub fn rows(&self) -> Vec<(&'static str, String)> {
        let opt = |x: Option<f64>| x.map_or_else(String::new, |x| x.to_string());
        let band = self.duration.ideal;
        vec![
            ("measured", self.measured.to_string()),
            ("completion", self.completion.to_string()),
            ("drawishness", self.drawishness.to_string()),
            ("timeouts", self.timeouts.to_string()),
            ("duration_mean", self.duration.mean.to_string()),
            ("duration_ideal_lo", opt(band.map(|b| b[0]))),
            ("duration_ideal_hi", opt(band.map(|b| b[1]))),
            ("duration_score", opt(self.duration.score)),
            ("decisiveness_threshold", opt(self.decisiveness_threshold)),
            ("decisiveness_moves", opt(self.decisiveness_moves)),
            ("drama", opt(self.drama)),
            ("lead_change", opt(self.lead_change)),
            ("stability", opt(self.stability)),
            ("clarity", opt(self.clarity)),
            ("decision_moves", opt(self.decision_moves)),
            ("branching_mean", self.branching.mean.to_string()),
            (
                "branching_geometric_mean",
                opt(self.branching.geometric_mean),
            ),
            ("branching_trend", opt(self.branching.trend)),
            ("board_coverage", opt(self.board_coverage)),
            ("repetition", opt(self.repetition)),
        ]
    }
}

// ---------------------------------------------------------------------------
// Recording a game as the lab plays it.

/// Writes a game's [`Trace`] as the lab plays it, from the variant's own
/// evaluation as the bots see it: its network where it has one that fits,
/// else the generic features with its weights (trained or default),
/// without mobility (the one feature that costs a move count).
///
/// Each ply costs the recorder a push; each round (every `players`
/// plies) one evaluation of the position (one network pass, or one
/// feature count per player); on the sampled plies ([`Recorder::new`]'s
/// `one_in`), one evaluation per legal move.
#[derive(Debug)]
pub struct Recorder<'a, B: Bits> {
    e: &'a Engine<B>,
    evaluation: Evaluation,
    /// Whether to value positions with the evaluation's network: it has
    /// one and it fits.
    network: bool,
    /// Whether the network's accumulator is kept and updated (two players:
    /// one pass values both); with more players each is valued from
    /// scratch.
    incremental: bool,
    weights: Weights,
    players: usize,
    plies: Vec<Ply>,
    hashes: Vec<u64>,
    covered: B,
    seed: u64,
    /// A ply is sampled when its draw is at most this: `u64::MAX / one_in`
    /// (a comparison, where a remainder would divide).
    sample_below: u64,
    /// The ply that starts the next round.
    next_round: usize,
    values: Vec<f64>,
    /// The network accumulator of `synced`, brought up to the position
    /// being valued when needed (from the last position valued: a few
    /// cells change a round, where a pass from scratch reads every stack),
    /// and room for another.
    synced: Pos<B>,
    acc: Vec<i32>,
    child_acc: Vec<i32>,
}

impl<'a, B: Bits> Recorder<'a, B> {
    /// A recorder of a game from `start`, valuing positions with
    /// `evaluation` and the legal moves at one ply in `one_in` (at least
    /// 1: every ply), the plies drawn from `seed`.
    pub fn new(
        e: &'a Engine<B>,
        evaluation: Evaluation,
        start: &Pos<B>,
        seed: u64,
        one_in: u64,
    ) -> Recorder<'a, B> {
        let weights = evaluation
            .weights()
            .unwrap_or_else(|| Weights::for_engine(e));
        let players = e.players().min(MAX_PLAYERS);
        let net = evaluation.network().filter(|net| net.fits(e));
        let incremental = net.is_some() && players == 2;
        let mut acc = Vec::new();
        if let Some(net) = net.filter(|_| incremental) {
            acc.resize(net.hidden, 0);
            net.refresh(start, &mut acc);
        }
        let mut r = Recorder {
            e,
            network: net.is_some(),
            incremental,
            child_acc: acc.clone(),
            acc,
            evaluation,
            weights,
            players,
            plies: Vec::with_capacity(64),
            hashes: Vec::with_capacity(65),
            covered: B::EMPTY,
            seed,
            sample_below: u64::MAX / one_in.max(1),
            next_round: 0,
            values: Vec::new(),
            synced: *start,
        };
        r.note(start);
        r
    }

    /// The network, when positions are valued with it.
    fn net(&self) -> Option<&Network> {
        self.evaluation.network().filter(|_| self.network)
    }

    /// What a network correcting the features adds to its own value: the
    /// features' lead of `p` (0 for a network alone).
    fn features_added(&self, pos: &Pos<B>, p: usize) -> i32 {
        if self.evaluation.adds_features() {
            evaluate(self.e, &self.weights, pos, p, false)
        } else {
            0
        }
    }

    /// Notes the ply about to be played from `pos` (reached along `line`,
    /// not over), whose legal moves are `moves`.
    pub fn before(&mut self, pos: &Pos<B>, moves: &[Move], line: &DrawTracker) {
        let ply = self.plies.len();
        let round = ply == self.next_round;
        if round {
            self.next_round += self.players.max(1);
        }
        let sampled =
            self.sample_below == u64::MAX || mix(self.seed ^ ply as u64) <= self.sample_below;
        if round || sampled {
            self.sync(pos);
        }
        let values = round.then(|| self.position_values(pos));
        let near = sampled.then(|| self.near_best(pos, moves, line));
        self.plies.push(Ply {
            moves: moves.len() as u32,
            values,
            near_best: near,
        });
    }

    /// Notes the position the ply just played reached.
    pub fn after(&mut self, pos: &Pos<B>) {
        self.note(pos);
    }

    /// Brings the network accumulator to `pos`.
    fn sync(&mut self, pos: &Pos<B>) {
        if let Some(net) = self.evaluation.network().filter(|_| self.incremental) {
            net.update(&self.synced, pos, &self.acc, &mut self.child_acc);
            std::mem::swap(&mut self.acc, &mut self.child_acc);
            self.synced = *pos;
        }
    }

    /// Counts `pos` for coverage and repetition.
    fn note(&mut self, pos: &Pos<B>) {
        self.hashes.push(pos.hash());
        for p in 0..self.players {
            self.covered |= pos.stones_of(p);
        }
    }

    /// The game's record, once it ended with `outcome`.
    pub fn finish(mut self, outcome: &Outcome) -> GameMetrics {
        let repeated = count_repeats(&mut self.hashes);
        GameMetrics::of(&Trace {
            players: self.players,
            plies: self.plies,
            end: End::of(outcome),
            covered: (self.covered & self.e.board()).count(),
            cells: self.e.board().count(),
            repeated,
        })
    }

    /// Each player's value of `pos`: a player out of the game is at -1.
    fn position_values(&self, pos: &Pos<B>) -> [f32; MAX_PLAYERS] {
        let mut v = [0.0; MAX_PLAYERS];
        let n = self.players;
        match self.net() {
            // The side to move's value; the other player's is its negation.
            Some(net) if self.incremental => {
                let stm = pos.turn();
                let x = squash(net.value(&self.acc, stm) + self.features_added(pos, stm)) as f32;
                v[stm] = x;
                v[1 - stm] = -x;
            }
            Some(net) => {
                for (p, x) in v.iter_mut().enumerate().take(n) {
                    *x = if pos.is_out(p) {
                        -1.0
                    } else {
                        squash(net.evaluate_for(pos, p) + self.features_added(pos, p)) as f32
                    };
                }
            }
            None => {
                let mut s = [i32::MIN; MAX_PLAYERS];
                for (p, x) in s.iter_mut().enumerate().take(n) {
                    if !pos.is_out(p) {
                        *x = score(self.e, &self.weights, pos, p, false);
                    }
                }
                if n == 2 && !pos.is_out(0) && !pos.is_out(1) {
                    // Each one's lead is the other's loss.
                    let x = squash(s[0].saturating_sub(s[1])) as f32;
                    v[0] = x;
                    v[1] = -x;
                    return v;
                }
                for p in 0..n {
                    v[p] = if pos.is_out(p) {
                        -1.0
                    } else {
                        let other = (0..n)
                            .filter(|&q| q != p && s[q] != i32::MIN)
                            .map(|q| s[q])
                            .max()
                            .unwrap_or(s[p]);
                        squash(s[p].saturating_sub(other)) as f32
                    };
                }
            }
        }
        v
    }

    /// How many of `moves` are near the best for the side to move of
    /// `pos`: each valued one ply deep, a move that ends the game at its
    /// result (±1, a draw 0), any other by the evaluation of the position
    /// it reaches.
    fn near_best(&mut self, pos: &Pos<B>, moves: &[Move], line: &DrawTracker) -> u32 {
        let me = pos.turn();
        let mut values = std::mem::take(&mut self.values);
        values.clear();
        for &m in moves {
            let mut child = *pos;
            self.e.apply(&mut child, m);
            // With one legal move declared, `judge` reads only the result
            // the move itself settled (a breakthrough): `line` does not
            // hold the move yet, and was not drawn at `pos`.
            let value = match self.e.judge(&child, 1, line) {
                Some(o) => match o.winner {
                    Some(w) if w == me => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                },
                None => squash(match self.evaluation.network().filter(|_| self.network) {
                    Some(net) if self.incremental => {
                        net.update(pos, &child, &self.acc, &mut self.child_acc);
                        let x = net.value(&self.child_acc, child.turn());
                        let x = if child.turn() == me { x } else { -x };
                        x + self.features_added(&child, me)
                    }
                    Some(net) => net.evaluate_for(&child, me) + self.features_added(&child, me),
                    None => evaluate(self.e, &self.weights, &child, me, false),
                }),
            };
            values.push(value);
        }
        let near = near_best(&values);
        self.values = values;
        near
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-player game: the first player's value at the start of each
    /// round (the second player's is its negation), `moves` legal moves a
    /// ply, two plies a round, ended by `end`.
    fn game(first: &[f32], moves: u32, end: End) -> Trace {
        let mut plies = Vec::new();
        for &a in first {
            plies.push(Ply {
                moves,
                values: Some([a, -a, 0.0, 0.0]),
                near_best: None,
            });
            plies.push(Ply {
                moves,
                values: None,
                near_best: None,
            });
        }
        Trace {
            players: 2,
            plies,
            end,
            covered: 28,
            cells: 56,
            repeated: 0,
        }
    }

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-6)
    }

    #[test]
    fn a_game_whose_leader_never_changes_has_no_drama_and_no_lead_change() {
        let t = game(&[0.1, 0.3, 0.5, 0.8], 10, End::Won(0));
        assert_eq!(lead_change(&t), Some(0.0));
        assert_eq!(drama(&t), Some(0.0));
        // The loser's best was -0.1, at the start: the winner stood above
        // it from the first position on.
        assert!(close(decisiveness_threshold(&t), -0.1));
        assert_eq!(decisiveness_moves(&t), Some(0.0));
        // Values 0.1, 0.3, 0.5, 0.8 (mean 0.425, variance 0.066875) for
        // each player.
        assert!(close(stability(&t), 2.0 * 0.066875), "{:?}", stability(&t));
    }

    #[test]
    fn a_comeback_is_drama_and_a_lead_change() {
        // The second player wins after trailing for three rounds.
        let t = game(&[0.2, 0.4, 0.2, -0.6], 10, End::Won(1));
        // The winner's deficit: 0.4, 0.8, 0.4, then 0 (leading).
        assert!(close(drama(&t), (0.4 + 0.8 + 0.4) / 4.0), "{:?}", drama(&t));
        // One change of leader in three steps.
        assert!(close(lead_change(&t), 1.0 / 3.0));
        // The loser reached 0.4; the winner rose above it only at the last
        // evaluation, before ply 6 of 8.
        assert!(close(decisiveness_threshold(&t), 0.4));
        assert!(close(decisiveness_moves(&t), 6.0 / 8.0));
        // Never above the threshold: decided only by the last move.
        let t = game(&[0.2, 0.4, 0.2, 0.1], 10, End::Won(1));
        assert_eq!(decisiveness_moves(&t), Some(1.0));
    }

    #[test]
    fn a_game_of_constant_evaluation_is_perfectly_stable_and_every_move_is_near_the_best() {
        let mut t = game(&[0.0; 5], 4, End::Won(0));
        for p in &mut t.plies {
            p.near_best = Some(near_best(&[0.3; 4]));
        }
        assert_eq!(stability(&t), Some(0.0));
        // Both players lead together all game: the lead never changes hands.
        assert_eq!(lead_change(&t), Some(0.0));
        assert_eq!(drama(&t), Some(0.0));
        // The winner never rises above the loser's 0: decided at the end.
        assert_eq!(decisiveness_threshold(&t), Some(0.0));
        assert_eq!(decisiveness_moves(&t), Some(1.0));
        // Every move is as good as the best.
        assert_eq!(near_best(&[0.3; 4]), 4);
        assert_eq!(clarity(&t), Some(1.0));
        assert_eq!(clarity_plies(&t), 10);
        assert_eq!(branching_trend(&t), Some(0.0));
    }

    #[test]
    fn a_game_that_ends_by_the_ply_cap_is_a_timeout_without_winner_figures() {
        let t = game(&[0.1, -0.2, 0.3], 6, End::Capped);
        assert_eq!(
            (completion(&t), drawishness(&t), timeout(&t)),
            (0.0, 0.0, 1.0)
        );
        assert_eq!(drama(&t), None);
        assert_eq!(decisiveness_threshold(&t), None);
        assert_eq!(decisiveness_moves(&t), None);
        // Figures that need no winner are still there.
        assert!(close(lead_change(&t), 1.0));
        assert!(stability(&t).is_some());
        // A draw by the rules is drawish, not a timeout; a win completes.
        let d = game(&[0.0], 6, End::Drawn);
        assert_eq!(
            (completion(&d), drawishness(&d), timeout(&d)),
            (0.0, 1.0, 0.0)
        );
        let w = game(&[0.0], 6, End::Won(1));
        assert_eq!(
            (completion(&w), drawishness(&w), timeout(&w)),
            (1.0, 0.0, 0.0)
        );
    }

    #[test]
    fn narrowness_counts_the_moves_near_the_best() {
        // Mean 0.25, best 1: the threshold is 0.8125.
        assert_eq!(near_best(&[1.0, 0.0, 0.0, 0.0]), 1);
        assert_eq!(near_best(&[1.0, 0.9, 0.0, -0.9]), 2);
        assert_eq!(near_best(&[]), 0);
        let mut t = game(&[0.0], 4, End::Drawn);
        t.plies[0].near_best = Some(1);
        t.plies[1].near_best = None;
        assert_eq!(clarity(&t), Some(0.25));
        assert_eq!(clarity_plies(&t), 1);
        t.plies[0].near_best = None;
        assert_eq!(clarity(&t), None);
    }

    #[test]
    fn decision_moves_branching_and_the_tree_count_the_legal_moves() {
        let mut t = game(&[0.0, 0.0], 1, End::Drawn);
        // Legal moves 1, 10, 100, 1: two of four plies offer a choice.
        for (p, n) in t.plies.iter_mut().zip([1, 10, 100, 1]) {
            p.moves = n;
        }
        assert_eq!(decision_moves(&t), Some(0.5));
        assert_eq!(branching_mean(&t), Some(28.0));
        assert!((tree_digits(&t) - 3.0).abs() < 1e-12);
        // Least squares through (0,1), (1,10), (2,100), (3,1): slope 9.
        assert!(close(branching_trend(&t), 9.0), "{:?}", branching_trend(&t));
        let mut rising = t.clone();
        for (i, p) in rising.plies.iter_mut().enumerate() {
            p.moves = 5 + 2 * i as u32;
        }
        assert!(close(branching_trend(&rising), 2.0));
        t.plies.truncate(1);
        assert_eq!(branching_trend(&t), None);
        t.plies.clear();
        assert_eq!(decision_moves(&t), None);
        assert_eq!(branching_mean(&t), None);
    }

    #[test]
    fn coverage_and_repetition_count_cells_and_positions() {
        let mut t = game(&[0.0, 0.0], 5, End::Drawn);
        assert_eq!(board_coverage(&t), Some(0.5));
        // Five positions (the start and four plies), two of them repeats.
        let mut hashes = [7, 3, 7, 9, 7];
        t.repeated = count_repeats(&mut hashes);
        assert_eq!(t.repeated, 2);
        assert!((repetition(&t) - 0.4).abs() < 1e-12);
        t.cells = 0;
        assert_eq!(board_coverage(&t), None);
    }

    #[test]
    fn the_ideal_band_follows_the_branching_and_scores_like_ludii() {
        // Ten moves a ply: 20 to 120 plies.
        assert_eq!(ideal_band(1.0), [20.0, 120.0]);
        // A hundred: half as long.
        assert_eq!(ideal_band(2.0), [10.0, 60.0]);
        // Forced moves count as two.
        let forced = ideal_band(0.0);
        assert!((forced[0] - 20.0 / 2f64.log10()).abs() < 1e-9);
        let band = [20.0, 120.0];
        assert_eq!(duration_score(10.0, band), 0.5);
        assert_eq!(duration_score(60.0, band), 1.0);
        assert_eq!(duration_score(180.0, band), 0.5);
        assert_eq!(duration_score(500.0, band), 0.0);
    }

    #[test]
    fn fixed_figures_read_back_exactly() {
        for x in [0.0, 0.1234, -0.5, 1.0 / 3.0, 12.34567] {
            let f = Fixed::new(x);
            let text = serde_json::to_string(&f).unwrap();
            let back: Fixed = serde_json::from_str(&text).unwrap();
            assert_eq!(back, f, "{x} → {text}");
        }
        assert_eq!(
            serde_json::to_string(&Fixed::new(0.12344)).unwrap(),
            "0.1234"
        );
        assert_eq!(Fixed::new(f64::NAN), Fixed::default());
    }

    /// Metrics inside every bound.
    fn fine() -> Metrics {
        Metrics {
            games: 100,
            measured: 100,
            completion: 1.0,
            duration: Duration {
                mean: 50.0,
                ideal: Some([20.0, 120.0]),
                score: Some(1.0),
            },
            drama: Some(0.1),
            decisiveness_moves: Some(0.8),
            decision_moves: Some(0.99),
            clarity: Some(0.2),
            board_coverage: Some(0.8),
            repetition: Some(0.0),
            ..Metrics::default()
        }
    }

    #[test]
    fn extremes_are_flagged_by_their_documented_thresholds() {
        assert_eq!(fine().extremes(), Vec::<String>::new());
        let with = |f: &dyn Fn(&mut Metrics)| {
            let mut m = fine();
            f(&mut m);
            m.extremes()
        };
        assert_eq!(
            with(&|m| m.duration.mean = 12.0),
            [
                "games last 12.0 plies on average, below the ideal band of 20–120 plies for their branching"
            ]
        );
        assert_eq!(
            with(&|m| m.duration.mean = 9.9),
            [
                "games last 9.9 plies on average, far below the ideal band of 20–120 plies for their branching"
            ]
        );
        assert_eq!(
            with(&|m| m.duration.mean = 250.0),
            [
                "games last 250.0 plies on average, far above the ideal band of 20–120 plies for their branching"
            ]
        );
        assert!(with(&|m| m.duration.mean = 130.0)[0].contains(", above the ideal"));
        assert_eq!(
            with(&|m| m.drama = Some(0.0)),
            ["drama is 0.000: the eventual winner almost never trails, so games have no comebacks"]
        );
        assert_eq!(
            with(&|m| m.decisiveness_moves = Some(0.25)),
            ["the winner is clear 25.0% of the way into a game on average: the rest may drag"]
        );
        assert_eq!(
            with(&|m| m.decision_moves = Some(0.4)),
            ["only 40.0% of plies offer a choice of moves"]
        );
        assert_eq!(
            with(&|m| m.clarity = Some(0.6)),
            ["60.0% of the legal moves look as good as the best: choices are hard to tell apart"]
        );
        assert_eq!(
            with(&|m| m.board_coverage = Some(0.42)),
            ["games use only 42.0% of the board"]
        );
        assert_eq!(
            with(&|m| m.repetition = Some(0.15)),
            ["15.0% of positions repeat an earlier one"]
        );
        // At the thresholds themselves, nothing is said.
        assert_eq!(
            with(&|m| {
                m.duration.mean = 20.0;
                m.drama = Some(DRAMA_LOW);
                m.decisiveness_moves = Some(DECIDED_EARLY);
                m.decision_moves = Some(FEW_DECISIONS);
                m.clarity = Some(UNCLEAR);
                m.board_coverage = Some(SMALL_COVERAGE);
                m.repetition = Some(REPETITIVE);
            }),
            Vec::<String>::new()
        );
        // Figures the games lacked are not judged.
        assert_eq!(Metrics::default().extremes(), Vec::<String>::new());
    }

    #[test]
    fn the_summary_has_two_lines_once_a_game_is_measured() {
        assert_eq!(Metrics::default().summary(), Vec::new());
        let lines = fine().summary();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].0, "Game quality");
        assert!(
            lines[0].1.starts_with("drama 0.100, lead change –"),
            "{lines:?}"
        );
        assert_eq!(lines[1].0, "Game shape");
        assert!(
            lines[1]
                .1
                .starts_with("ideal length 20–120 plies (score 1.00), decision moves 99.0%"),
            "{lines:?}"
        );
    }

    #[test]
    fn the_recorder_evaluates_once_a_round_and_values_every_ply_of_choosing_bots() {
        use crate::play::{GameSetup, play_game};
        use murus_ai::BotSpec;
        use murus_engine::Variant;
        // Shipped networks (standard, houdini), and the generic features
        // with three and four players.
        for name in ["standard", "houdini", "hex3-escape", "escape4"] {
            let v = Variant::builtin(name).unwrap();
            let n = v.player_count();
            let setup = |seats: Vec<BotSpec>| GameSetup {
                index: 0,
                seed: 3,
                seats,
                colour_of_seat: (0..n).collect(),
                max_plies: 120,
                openings: 0,
                book_line: None,
                opening_seed: 0,
                record_moves: false,
            };
            let g = play_game(&v, &setup(vec![BotSpec::Greedy; n]), None).unwrap();
            let (plies, m) = (g.stats.plies, g.stats.metrics.unwrap());
            assert!(plies > 0, "{name}");
            assert_eq!(m.evaluated, plies.div_ceil(n as u32), "{name}");
            assert_eq!(m.clarity_plies, plies, "{name}: greedy values every ply");
            assert!(m.clarity.is_some_and(|c| c.get() > 0.0 && c.get() <= 1.0));
            assert!(m.stability.is_some(), "{name}");
            assert!(0 < m.covered && m.covered <= m.cells, "{name}: {m:?}");
            assert!(m.tree_digits.get() > 0.0);
            assert_eq!(m.drama.is_some(), g.stats.winner.is_some(), "{name}");
            // With a random seat, a sample of the plies only.
            let r = play_game(&v, &setup(vec![BotSpec::Random; n]), None).unwrap();
            let m = r.stats.metrics.unwrap();
            assert!(m.clarity_plies < r.stats.plies.max(2), "{name}: {m:?}");
        }
    }

    /// Plays `plies` plies of `variant` (the first legal move each time)
    /// under a recorder valuing with an untrained network (random
    /// weights), checking at each ply that the values it gives are those
    /// of the network from scratch; returns the game's record.
    fn with_network(variant: &str, plies: usize) -> GameMetrics {
        use murus_ai::Trained;
        use murus_ai::nnue::{Shape, Trainer};
        use murus_engine::{EngineTask, Variant, Word};
        use std::sync::Arc;
        struct Task(usize);
        impl EngineTask for Task {
            type Output = GameMetrics;
            fn run<B: Word>(self, e: &Engine<B>) -> GameMetrics {
                let net = Trainer::new(Shape::of(e), 8, 1).quantize();
                let evaluation = Evaluation::Trained(Arc::new(Trained::Network(net.clone())));
                let mut pos = e.start();
                let mut r = Recorder::new(e, evaluation, &pos, 1, 1);
                let mut line = DrawTracker::new(e.rules().draw, pos.hash());
                let mut moves = e.move_list();
                for _ in 0..self.0 {
                    moves.clear();
                    e.legal_moves(&pos, &mut moves);
                    if e.judge(&pos, moves.len(), &line).is_some() {
                        break;
                    }
                    r.sync(&pos);
                    let fast = r.position_values(&pos);
                    for p in (0..e.players()).filter(|&p| !pos.is_out(p)) {
                        let slow = squash(net.evaluate_for(&pos, p)) as f32;
                        assert!((fast[p] - slow).abs() < 1e-6, "{fast:?} {p} {slow}");
                    }
                    r.before(&pos, &moves, &line);
                    let m = moves[0];
                    let capture = e.is_capture(&pos, m);
                    e.apply(&mut pos, m);
                    line.push(pos.hash(), capture);
                    r.after(&pos);
                }
                r.finish(&Outcome {
                    winner: None,
                    reason: Reason::PlyCap,
                })
            }
        }
        Variant::builtin(variant).unwrap().run(Task(plies))
    }

    #[test]
    fn a_network_values_positions_as_from_scratch_with_two_players_or_more() {
        // Two players: one accumulator kept up to date.
        let m = with_network("standard", 9);
        assert_eq!((m.evaluated, m.clarity_plies), (5, 9));
        assert!(m.clarity.is_some());
        // The values moved: the comparison above compared something.
        assert!(m.stability.is_some_and(|s| s.get() > 0.0), "{m:?}");
        // Three: each player valued from scratch.
        let m = with_network("hex3-escape", 9);
        assert_eq!((m.evaluated, m.clarity_plies), (3, 9));
        assert!(m.clarity.is_some());
        assert!(m.stability.is_some_and(|s| s.get() > 0.0), "{m:?}");
    }

    #[test]
    fn a_game_record_holds_the_trace_figures() {
        let t = game(&[0.2, 0.4, 0.2, -0.6], 10, End::Won(1));
        let m = GameMetrics::of(&t);
        assert_eq!(m.evaluated, 4);
        assert_eq!(m.drama, Some(Fixed::new(0.4)));
        assert_eq!(m.decisiveness_moves, Some(Fixed::new(0.75)));
        assert_eq!(m.clarity, None);
        assert_eq!((m.covered, m.cells), (28, 56));
        // Left out when absent, read back whole.
        let text = serde_json::to_string(&m).unwrap();
        assert!(!text.contains("clarity\":null"), "{text}");
        let back: GameMetrics = serde_json::from_str(&text).unwrap();
        assert_eq!(back, m);
    }
}
