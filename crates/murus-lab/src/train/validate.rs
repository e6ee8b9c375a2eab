//! A candidate's validation against the evaluation in force: a match
//! under a sequential test with two players, a seat's share of wins with
//! more.

use murus_ai::BotSpec;
use murus_engine::Variant;
use murus_engine::job::Handler;

use crate::balance::{MIN_GAMES_FOR_EDGE, Z_EDGE};
use crate::error::LabError;
use crate::matches::MatchResult;
use crate::record::GameStats;
use crate::runner::{Config, Deliver, RunProgress, Tally, play_sequential};
use crate::stats::wilson_z;

/// How a candidate is checked against the evaluation in force before it is
/// kept: a match at equal nodes, stopped by a sequential test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Validation {
    /// Alpha-beta's nodes a move, for both sides.
    pub nodes: u64,
    /// The most games (the test is `undecided` after them: not kept).
    pub max_games: u64,
    /// The test's hypotheses, `(elo0, elo1)`.
    pub elo: (f64, f64),
}

impl Default for Validation {
    fn default() -> Self {
        Validation {
            nodes: 20_000,
            max_games: 400,
            elo: (0.0, 30.0),
        }
    }
}

/// A candidate's validation.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// `network` or `weights`.
    pub candidate: String,
    pub result: CheckResult,
}

/// How a candidate fared against the evaluation in force.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckResult {
    /// Two players: a match under a sequential test.
    Match(MatchResult),
    /// Three or four players: the candidate in one seat, the evaluation in
    /// force in every other, seats rotating through the colours; the
    /// candidate wins when its seat's share of wins is clearly above the
    /// fair share (its interval at z = 3 above `1 / players`, after at
    /// least 100 games), and loses when it is clearly not above it.
    Seat {
        games: u64,
        wins: u64,
        fair: f64,
        /// The 95% interval of the seat's share.
        ci95: [f64; 2],
        /// `H1` (better), `H0` (not better) or `undecided`.
        decision: String,
    },
}

impl CheckResult {
    /// Whether the candidate won.
    pub fn won(&self) -> bool {
        match self {
            CheckResult::Match(r) => r.sprt.as_ref().is_some_and(|s| s.decision == "H1"),
            CheckResult::Seat { decision, .. } => decision == "H1",
        }
    }

    /// The test's decision: `H1`, `H0` or `undecided`.
    pub fn decision(&self) -> &str {
        match self {
            CheckResult::Match(r) => r.sprt.as_ref().map_or("undecided", |s| &s.decision),
            CheckResult::Seat { decision, .. } => decision,
        }
    }

    /// The figures in words: `120 games, score 61.3%, Elo +80 [+21, +142]`
    /// or `300 games, its seat won 31.0% [25.9–36.5] (fair 25.0%)`.
    pub fn describe(&self) -> String {
        match self {
            CheckResult::Match(r) => format!(
                "{} games, score {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}]",
                r.games,
                100.0 * r.score,
                r.elo,
                r.elo_ci95[0],
                r.elo_ci95[1]
            ),
            CheckResult::Seat {
                games,
                wins,
                fair,
                ci95,
                ..
            } => format!(
                "{games} games, its seat won {} (fair {:.1}%)",
                crate::text::percent_interval(*wins as f64 / (*games).max(1) as f64, *ci95),
                100.0 * fair
            ),
        }
    }
}

/// A multi-player candidate's validation ([`CheckResult::Seat`]): the
/// candidate in seat 0, the evaluation in force in the others, colours
/// rotating, judged after each round in game order.
pub(super) fn check_seat(
    variant: &Variant,
    candidate: BotSpec,
    current: BotSpec,
    validation: &Validation,
    (seed, threads): (u64, usize),
    handler: &dyn Handler<RunProgress>,
) -> Result<CheckResult, LabError> {
    let players = variant.player_count();
    let fair = 1.0 / players as f64;
    let mut bots = vec![current; players];
    bots[0] = candidate;
    let games = validation.max_games.div_ceil(players as u64) * players as u64;
    let mut config = Config::new(variant, bots, games, seed)
        .with_threads(threads)
        .with_openings(4);
    config.record_moves = false;
    let wins = |p: &[GameStats]| p.iter().filter(|g| g.winner_seat == Some(0)).count() as u64;
    let mut decision = "undecided";
    let tally = Tally::new(handler, games, &[]);
    let run = play_sequential(
        variant,
        &config,
        &tally,
        &[],
        &Deliver::default(),
        players as u64,
        |p| {
            let n = p.len() as u64;
            let (lo, hi) = wilson_z(wins(p), n, Z_EDGE);
            if n >= MIN_GAMES_FOR_EDGE && lo > fair {
                decision = "H1";
            } else if n >= MIN_GAMES_FOR_EDGE && hi <= fair {
                decision = "H0";
            }
            decision != "undecided"
        },
    );
    if let Some(e) = tally.take_error() {
        return Err(e);
    }
    let n = run.played.len() as u64;
    let w = wins(&run.played);
    let (lo, hi) = crate::stats::wilson(w, n);
    Ok(CheckResult::Seat {
        games: n,
        wins: w,
        fair,
        ci95: [lo, hi],
        decision: decision.to_string(),
    })
}
