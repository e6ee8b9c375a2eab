//! The trace of one game and its metrics: pure functions of the trace, so
//! that tests can feed them hand-made games.

use murus_engine::{Outcome, Reason};

use super::{IDEAL_TREE_DIGITS, MAX_PLAYERS, NARROWNESS};
use crate::record::{Fixed, GameMetrics};

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
