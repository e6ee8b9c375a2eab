//! Matches between two bots: paired games with seats swapped, Elo with an
//! interval, and a sequential test that stops when it decides.

use std::sync::{Arc, Mutex};

use murus_ai::BotSpec;
use murus_engine::Variant;
use murus_engine::job::Handler;

use crate::book::Book;
use crate::error::LabError;
use crate::folder::{RunDir, RunSpec};
use crate::record::GameStats;
use crate::report::{Report, SkillGap};
use crate::runner::{Config, Deliver, RunProgress, Tally, lock, play_range, play_sequential};
use crate::stats::{self, Wdl, round_to};

/// The result of a match between two bots.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MatchResult {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub score: f64,
    /// Bot A's Elo advantage. A perfect score (every game won, or every
    /// game lost) has no finite Elo: `±inf` here, `null` in JSON.
    pub elo: f64,
    /// The 95% interval of `elo`. A bound the data cannot limit is infinite
    /// (`null` in JSON): after 12 wins in 12 games the interval is
    /// `[+198, +inf]`, not a finite number chosen by a clamp.
    pub elo_ci95: [f64; 2],
    /// `null`, or the SPRT decision with its log-likelihood ratio.
    pub sprt: Option<Sprt>,
}

impl MatchResult {
    /// The result of bot A's wins, draws and losses (no sequential test).
    pub fn of(w: Wdl) -> MatchResult {
        let (elo, (elo_lo, elo_hi)) = w.elo();
        MatchResult {
            games: w.games(),
            wins: w.wins,
            draws: w.draws,
            losses: w.losses,
            score: round_to(w.score(), 6),
            elo: round_to(elo, 2),
            elo_ci95: [round_to(elo_lo, 2), round_to(elo_hi, 2)],
            sprt: None,
        }
    }

    /// The result of a match's games (bot A in seat 0 of each, as
    /// [`run_match`] records them).
    pub fn of_games(games: &[crate::GameResult]) -> MatchResult {
        MatchResult::of(tally(games.iter().map(|g| &g.stats)))
    }

    /// The strength bot A (`upper`) adds over bot B (`lower`), as the
    /// balance check's skill trace and the skill ladder report it (an
    /// infinite Elo bound as `None`).
    pub fn gap(&self, upper: impl Into<String>, lower: impl Into<String>) -> SkillGap {
        let finite = |x: f64| x.is_finite().then_some(x);
        SkillGap {
            upper: upper.into(),
            lower: lower.into(),
            games: self.games,
            score: self.score,
            elo: finite(self.elo),
            elo_ci95: [finite(self.elo_ci95[0]), finite(self.elo_ci95[1])],
        }
    }
}

/// A match's sequential probability ratio test and its decision.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// `H1` (accept elo1), `H0` (accept elo0) or `undecided`.
    pub decision: String,
    pub llr: f64,
    pub bounds: [f64; 2],
    /// The most games the test could play: when it ends `undecided` with
    /// `games` equal to this, it ran out of games, not evidence.
    pub max_games: u64,
}

/// A match between two bots.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub a: BotSpec,
    pub b: BotSpec,
    /// Games (rounded up to whole pairs); with `sprt`, the most to play.
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    /// `(elo0, elo1)` for a sequential test with α = β = 0.05.
    pub sprt: Option<(f64, f64)>,
    /// Random plies that open each pair of games ([`Config::with_openings`]).
    pub openings: u32,
    /// An opening book, whose lines open the pairs of games instead
    /// ([`Config::with_book`]); a folder must hold a match of the same book.
    pub book: Option<Arc<Book>>,
    /// `(k, n)`: play only the games numbered `k - 1` modulo `n`
    /// ([`Config::with_shard`]; a balance check's shard plays its share of
    /// each skill match). A sequential test cannot be sharded.
    pub shard: Option<(u64, u64)>,
}

impl MatchConfig {
    /// The self-play run whose games the match plays: bot A in seat 0, bot
    /// B in seat 1, colours swapped every game, `games` rounded up to
    /// pairs, the shard's share of them. Fails unless `variant` has two
    /// players, and for a sharded sequential test.
    pub fn config(&self, variant: &Variant) -> Result<Config, LabError> {
        if variant.player_count() != 2 {
            return Err(LabError::Invalid(format!(
                "a match needs a two-player variant; `{}` has {} players (use selfplay)",
                variant.name(),
                variant.player_count()
            )));
        }
        if let Some((elo0, elo1)) = self.sprt
            && !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1)
        {
            return Err(LabError::Invalid(format!(
                "SPRT bounds {elo0},{elo1}: expected ELO0 below ELO1 (the test weighs \
                 \"A is ELO0 stronger\" against \"A is ELO1 stronger\"), like 0,20"
            )));
        }
        if self.shard.is_some() && self.sprt.is_some() {
            return Err(LabError::Invalid(
                "a sequential test cannot be sharded: its games depend on the results before them"
                    .into(),
            ));
        }
        let games = self.games + self.games % 2;
        let config = Config::new(
            variant,
            vec![self.a.clone(), self.b.clone()],
            games,
            self.seed,
        )
        .with_threads(self.threads)
        .with_openings(self.openings);
        let config = match self.shard {
            Some((k, n)) => config.with_shard(k, n)?,
            None => config,
        };
        Ok(match &self.book {
            Some(b) => config.with_book(b.clone()),
            None => config,
        })
    }

    /// What determines the match's games, as [`RunDir`] keeps it.
    pub fn run_spec(&self, variant: &Variant) -> Result<RunSpec, LabError> {
        let config = self.config(variant)?;
        Ok(RunSpec::new(
            "match",
            config.provenance(),
            self.sprt.map(|(e0, e1)| [e0, e1]),
        ))
    }
}

/// Plays a match of bot A against bot B in paired games with seats swapped
/// (two-player variants) and returns its result and the report of its
/// games. With `sprt`, plays pairs until the test decides (or `games` are
/// played) and stops at the first pair, in game-number order, that decides
/// it, so the games and the decision depend neither on the threads nor on
/// interruptions. With `dir` ([`RunDir::open`], new or to continue), each
/// game is saved as it
/// finishes, games already there are not played again, and the folder is
/// finished with the report (and without games a decided test did not
/// need). `handler` hears the games as they finish and may stop the match:
/// its finished games are kept and its report is marked
/// [`interrupted`](Report::interrupted) unless the test decided.
pub fn run_match(
    variant: &Variant,
    m: &MatchConfig,
    handler: &dyn Handler<RunProgress>,
    dir: Option<RunDir>,
) -> Result<(MatchResult, Report), LabError> {
    let (lo, hi) = stats::sprt_bounds(0.05, 0.05);
    let mut decision = None;
    let (played, report) = match m.sprt {
        None => play_match(variant, m, handler, dir, None)?,
        Some((e0, e1)) => {
            let mut look = |w: Wdl| {
                let llr = w.llr(e0, e1);
                if llr >= hi || llr <= lo {
                    decision = Some(if llr >= hi { "H1" } else { "H0" });
                }
                decision.is_some()
            };
            play_match(variant, m, handler, dir, Some(&mut look))?
        }
    };
    let w = tally(&played);
    let result = MatchResult {
        sprt: m.sprt.map(|(e0, e1)| Sprt {
            elo0: e0,
            elo1: e1,
            decision: decision.unwrap_or("undecided").to_string(),
            llr: round_to(w.llr(e0, e1), 2),
            bounds: [round_to(lo, 2), round_to(hi, 2)],
            max_games: m.config(variant).map_or(m.games, |c| c.planned()),
        }),
        ..MatchResult::of(w)
    };
    Ok((result, report))
}

/// Plays the match of `m` (which has no sequential test of its own)
/// until `look`, asked after each pair in game-number order about bot A's
/// wins, draws and losses so far, says it is decided: the games past that
/// pair are not played (those in progress are cut short) and not kept,
/// so the match's games depend neither on the threads nor on
/// interruptions. A skill ladder's block stops so at the first pair where
/// its test decides. Returns the result of the games kept, their report,
/// and whether `look` decided.
pub fn run_match_until(
    variant: &Variant,
    m: &MatchConfig,
    handler: &dyn Handler<RunProgress>,
    dir: Option<RunDir>,
    mut look: impl FnMut(Wdl) -> bool,
) -> Result<(MatchResult, Report, bool), LabError> {
    if m.sprt.is_some() {
        return Err(LabError::Invalid(
            "a match with its own sequential test is judged by it".into(),
        ));
    }
    let mut decided = false;
    let mut judge = |w: Wdl| {
        decided = look(w);
        decided
    };
    let (played, report) = play_match(variant, m, handler, dir, Some(&mut judge))?;
    Ok((MatchResult::of(tally(&played)), report, decided))
}

/// The games of `m` in number order (all of them, or, with `look`, up to
/// the first pair where it decides) and their report.
fn play_match(
    variant: &Variant,
    m: &MatchConfig,
    handler: &dyn Handler<RunProgress>,
    dir: Option<RunDir>,
    look: Option<&mut dyn FnMut(Wdl) -> bool>,
) -> Result<(Vec<GameStats>, Report), LabError> {
    let mut config = m.config(variant)?;
    // The games of the match's shard, or all of them.
    let games = config.planned();
    if let Some(d) = &dir {
        d.check(&m.run_spec(variant)?)?;
    }
    if look.is_some() && m.shard.is_some() {
        return Err(LabError::Invalid(
            "a sequential test cannot be sharded: its games depend on the results before them"
                .into(),
        ));
    }
    config.record_moves = dir.is_some();
    let resumed: Vec<GameStats> = dir.as_ref().map(|d| d.done().to_vec()).unwrap_or_default();
    let progress = Tally::new(handler, games, &resumed);
    let dir = dir.map(Mutex::new);
    let deliver = Deliver {
        dir: dir.as_ref(),
        ..Deliver::default()
    };
    let mut played: Vec<GameStats>;
    let mut decided = false;
    match look {
        None => {
            let skip: Vec<u64> = resumed.iter().map(|g| g.index).collect();
            play_range(variant, &config, &progress, 0..games, &skip, &deliver);
            played = progress.stats();
            played.sort_by_key(|g| g.index);
        }
        Some(look) => {
            let run = play_sequential(variant, &config, &progress, &resumed, &deliver, 2, |p| {
                look(tally(p))
            });
            played = run.played;
            decided = run.decided;
            if run.decided
                && let Some(d) = &dir
            {
                lock(d).drop_from(run.next);
            }
        }
    }
    if let Some(e) = progress.take_error() {
        return Err(e);
    }
    let mut report = config.report(&played);
    report.interrupted = progress.stopped() && !decided && (played.len() as u64) < games;
    if let Some(d) = dir {
        d.into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .finish(&report)?;
    }
    Ok((played, report))
}

/// Bot A's wins, draws and losses in `games` (A in seat 0).
fn tally<'a>(games: impl IntoIterator<Item = &'a GameStats>) -> Wdl {
    let mut w = Wdl::default();
    for g in games {
        match g.winner_seat {
            Some(0) => w.wins += 1,
            Some(_) => w.losses += 1,
            None => w.draws += 1,
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sequential test weighs ELO0 against a larger ELO1: reversed or
    /// equal bounds are refused, whoever builds the match.
    #[test]
    fn a_sequential_test_needs_elo0_below_elo1() {
        let v = Variant::standard();
        let m = |sprt| MatchConfig {
            a: BotSpec::Random,
            b: BotSpec::Random,
            games: 10,
            seed: 1,
            threads: 1,
            sprt,
            openings: 0,
            book: None,
            shard: None,
        };
        assert!(m(Some((0.0, 20.0))).config(&v).is_ok());
        for bad in [(100.0, 0.0), (20.0, 20.0), (f64::NAN, 5.0)] {
            let e = m(Some(bad)).config(&v).unwrap_err().to_string();
            assert!(e.contains("expected ELO0 below ELO1"), "{e}");
        }
    }
}
