//! The skill ladder: how many levels of play a variant holds, as a measure
//! of its depth.
//!
//! The ladder starts at the random bot. Its first searching rung is the
//! weakest alpha-beta budget (`first_nodes`, doubled at most
//! [`FIRST_TRIES`] times) that clearly beats random; each rung above
//! clearly beats the rung below with twice its budget, or, where twice is
//! not a rung, with four times, eight times, …. *Clearly*: a sequential
//! test on a match of
//! paired games (colours swapped, from varied openings) accepts that the
//! upper bot scores `threshold` (60% by default) rather than 50%. The
//! test (the GSPRT of [`crate::stats`], α = β = 5%) looks at the games after
//! every `block` of them and stops as soon as it decides, either way, or
//! after `games`: each match ends a **rung**, **no gain** or **unclear**.
//! The ladder ends on evidence: after two steps in a row over the same
//! rung whose tests found no gain (the game's skill has run out there); a
//! step its test could not decide is no evidence either way, so the next
//! larger step is tried. It also ends at the largest budget allowed (a
//! least count, where its last steps were undecided) or when it is stopped
//! (its time budget).
//!
//! The count is a random quantity: the ladder is climbed `climbs` times
//! (two by default), each climb with its own seed and so its own games, and
//! the counts' least and most give the count's spread.
//!
//! What it reports: the rungs, each match's score and Elo with intervals,
//! its test's decision and the first player's rate in its games (does
//! fairness settle as play gets stronger?), the mean Elo a doubling gains,
//! whether the ladder was still rising when its budget ended it, and the
//! other climbs. `docs/report.md` describes the method and how it relates to
//! Ai Ai's "levels of play".
//!
//! Each block of a match is kept like a balance check's skill match, one
//! run folder (`OUT/ladder/UPPER-vs-LOWER/block-K`, the second climb's in
//! `OUT/ladder/climb-2/…`): a resumed ladder reads the finished blocks
//! back and plays only what is missing, so it ends with the same ladder as
//! a run never interrupted; every block being a plain match, a ladder is
//! sharded block by block like any match.

use std::path::{Path, PathBuf};

use murus_ai::BotSpec;
use murus_engine::Variant;
use murus_engine::job::Handler;

use crate::error::LabError;
use crate::folder::{Mode, Partial, RunDir, Shard, merge, write_outputs};
use crate::matches::{MatchConfig, MatchResult, run_match, run_match_until};
use crate::runner::RunProgress;
use crate::stats::{Wdl, elo, round_to, sprt_bounds, wilson};

/// How many budgets the first rung tries against random, doubling each
/// time, before the ladder ends with no searching rung.
pub const FIRST_TRIES: u32 = 4;

/// The score of the test's null hypothesis: the upper bot gains nothing.
pub const NO_GAIN: f64 = 0.5;

/// The test's error rates: a doubling that gains nothing is taken for a
/// rung, and one that scores `threshold` is taken for no gain, each at
/// most this often.
pub const ERRORS: f64 = 0.05;

/// The ladder's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderConfig {
    /// The first alpha-beta budget tried against random, in nodes.
    pub first_nodes: u64,
    /// No rung searches more nodes than this.
    pub most_nodes: u64,
    /// The most games of each match (rounded up to whole blocks).
    pub games: u64,
    /// Games between two looks of a match's test (rounded up to pairs).
    pub block: u64,
    /// The score of the test's other hypothesis: what a rung scores.
    pub threshold: f64,
    /// Independent climbs, each with its own seed.
    pub climbs: u32,
    /// Random plies that open each pair of games.
    pub openings: u32,
    pub seed: u64,
    pub threads: usize,
}

impl Default for LadderConfig {
    fn default() -> LadderConfig {
        LadderConfig {
            first_nodes: 8,
            most_nodes: 1 << 20,
            games: 200,
            block: 20,
            threshold: 0.6,
            climbs: 2,
            openings: 4,
            seed: 1,
            threads: 1,
        }
    }
}

impl LadderConfig {
    /// Games of each block.
    pub fn block_games(&self) -> u64 {
        self.block + self.block % 2
    }

    /// The most blocks of a match.
    pub fn blocks(&self) -> u64 {
        self.games.div_ceil(self.block_games()).max(1)
    }

    /// The seed of climb `climb` (0 for the first, which has the ladder's
    /// own).
    pub fn climb_seed(&self, climb: u32) -> u64 {
        match climb {
            0 => self.seed,
            c => crate::seeds::mix(self.seed ^ crate::seeds::mix(CLIMB_SALT ^ u64::from(c))),
        }
    }
}

/// Separates the climbs' seeds from the games'.
const CLIMB_SALT: u64 = 0x636c_696d_6273_2121;

// The ladder's types, and its sentence, are the report types' crate's
// (`murus_report::ladder`): a report holds a ladder.
pub use murus_report::ladder::{Climb, Decision, End, FIRST_PLAYER_DECIDES, Ladder, Step};

/// The ladder of `climbs` (the first is the ladder's own).
pub(crate) fn ladder_of(config: &LadderConfig, mut climbs: Vec<Climb>) -> Ladder {
    let counts: Vec<usize> = climbs.iter().map(|c| c.rungs.len()).collect();
    let range = (counts.len() > 1).then(|| {
        [
            counts.iter().copied().min().unwrap_or(0),
            counts.iter().copied().max().unwrap_or(0),
        ]
    });
    let interrupted = climbs.iter().any(|c| c.end == End::Interrupted);
    let first = climbs.remove(0);
    Ladder {
        threshold: config.threshold,
        games: config.blocks() * config.block_games(),
        block: config.block_games(),
        rungs: first.rungs,
        steps: first.steps,
        elo_per_doubling: first.elo_per_doubling,
        still_rising: first.still_rising,
        end: if interrupted {
            End::Interrupted
        } else {
            first.end
        },
        climbs: climbs.len() + 1,
        other_climbs: climbs,
        rung_range: range,
    }
}

/// The bot of a rung: alpha-beta with `nodes` nodes.
fn bot(nodes: u64) -> BotSpec {
    format!("alphabeta:{nodes}")
        .parse()
        .expect("an alpha-beta spec")
}

/// Where a block is played: the climb (from 0), the bots, the block (from
/// 0).
#[derive(Clone, Copy, Debug)]
struct At<'a> {
    climb: u32,
    upper: &'a BotSpec,
    lower: &'a BotSpec,
    block: u64,
    /// The upper bot's wins, draws and losses in the match's blocks before
    /// this one: its test, looking after every pair, goes on from them.
    before: Wdl,
}

impl At<'_> {
    /// The block's folder under a ladder's `out`:
    /// `ladder[/climb-C]/UPPER-vs-LOWER/block-K`.
    fn dir(&self) -> PathBuf {
        let mut path = PathBuf::from("ladder");
        if self.climb > 0 {
            path.push(format!("climb-{}", self.climb + 1));
        }
        path.push(format!("{}-vs-{}", self.upper, self.lower).replace(':', "-"));
        path.push(format!("block-{}", self.block + 1));
        path
    }

    /// The block's match: its games, seeded by the climb and the block.
    fn match_config(&self, config: &LadderConfig, shard: Option<Shard>) -> MatchConfig {
        let seed = config.climb_seed(self.climb);
        MatchConfig {
            a: self.upper.clone(),
            b: self.lower.clone(),
            games: config.block_games(),
            seed: match self.block {
                0 => seed,
                b => crate::seeds::mix(seed ^ crate::seeds::mix(b)),
            },
            threads: config.threads,
            sprt: None,
            openings: config.openings,
            book: None,
            shard: shard.map(Shard::pair),
        }
    }
}

/// A block's games as the test and the step need them: the upper bot's
/// wins, draws and losses, and the first player's wins.
#[derive(Clone, Copy, Debug, Default)]
struct Block {
    wdl: Wdl,
    first_wins: u64,
}

impl Block {
    fn of(result: &MatchResult, report: &crate::report::Report) -> Block {
        Block {
            wdl: Wdl {
                wins: result.wins,
                draws: result.draws,
                losses: result.losses,
            },
            first_wins: report.first_player_advantage.wins,
        }
    }

    fn add(&mut self, b: Block) {
        self.wdl.wins += b.wdl.wins;
        self.wdl.draws += b.wdl.draws;
        self.wdl.losses += b.wdl.losses;
        self.first_wins += b.first_wins;
    }
}

/// Climbs the ladder of `variant` (two players), each of its climbs. With
/// `out`, each block of each match is kept in its folder under
/// `OUT/ladder/` (new, or resumed with [`Mode::Resume`]). `handler` may
/// stop it (the ladder then ends [`End::Interrupted`] with the rungs it
/// made) and hears each match's games.
pub fn run_ladder(
    variant: &Variant,
    config: &LadderConfig,
    out: Option<(&Path, Mode)>,
    handler: &dyn Handler<RunProgress>,
) -> Result<Ladder, LabError> {
    check(config)?;
    let climbs = climbs(config, 1.0, |at| {
        play_block(variant, config, at, None, out, handler)
    })?;
    Ok(ladder_of(config, climbs))
}

/// Every climb of the ladder in turn ([`climb`]), ending with the first
/// that was stopped.
fn climbs(
    config: &LadderConfig,
    weight: f64,
    mut play: impl FnMut(At) -> Result<Option<Block>, LabError>,
) -> Result<Vec<Climb>, LabError> {
    let mut climbs = Vec::new();
    for c in 0..config.climbs {
        let climb = climb(config, c, weight, &mut play)?;
        let stopped = climb.end == End::Interrupted;
        climbs.push(climb);
        if stopped {
            break;
        }
    }
    Ok(climbs)
}

/// Refuses a ladder that cannot be climbed.
fn check(config: &LadderConfig) -> Result<(), LabError> {
    if !(0.5..1.0).contains(&config.threshold) || config.threshold <= NO_GAIN {
        return Err(LabError::Invalid(format!(
            "ladder threshold {}: expected above 0.5 and below 1",
            config.threshold
        )));
    }
    if config.first_nodes == 0 || config.first_nodes > config.most_nodes {
        return Err(LabError::Invalid(format!(
            "ladder budgets: the first ({}) must be at least 1 and at most the largest ({})",
            config.first_nodes, config.most_nodes
        )));
    }
    if config.games < 2 || config.block < 1 {
        return Err(LabError::Invalid(
            "a ladder match needs at least one pair of games, looked at after at least one pair"
                .into(),
        ));
    }
    if config.climbs < 1 {
        return Err(LabError::Invalid(
            "a ladder needs at least one climb".into(),
        ));
    }
    Ok(())
}

/// Climb `c`: `play(at)` gives each block the climb needs, in order
/// (`None`: stopped before it ended).
/// `weight` multiplies the test's log-likelihood ratio: 1, but for a
/// shard's guess, where its share of `n` is weighed as `n` times the games
/// it saw (the ratio adds up over games, so this is the ratio of the whole
/// block the share expects).
fn climb(
    config: &LadderConfig,
    c: u32,
    weight: f64,
    mut play: impl FnMut(At) -> Result<Option<Block>, LabError>,
) -> Result<Climb, LabError> {
    let mut climb = Climb {
        seed: config.climb_seed(c),
        rungs: vec!["random".to_string()],
        steps: Vec::new(),
        elo_per_doubling: None,
        still_rising: false,
        end: End::NoGain,
    };
    let mut decide = |upper: &BotSpec, lower: &BotSpec| {
        match_step(config, upper, lower, weight, |block, before| {
            play(At {
                climb: c,
                upper,
                lower,
                block,
                before,
            })
        })
    };
    let random: BotSpec = "random".parse().expect("the random bot");
    // The first rung: the weakest budget that clearly beats random.
    let mut nodes = config.first_nodes;
    let mut found = None;
    for _ in 0..FIRST_TRIES {
        let Some(step) = decide(&bot(nodes), &random)? else {
            climb.end = End::Interrupted;
            return Ok(finish(climb));
        };
        let clear = step.clear;
        climb.steps.push(step);
        if clear {
            found = Some(nodes);
            break;
        }
        if nodes * 2 > config.most_nodes {
            break;
        }
        nodes *= 2;
    }
    let Some(mut nodes) = found else {
        return Ok(finish(climb));
    };
    climb.rungs.push(bot(nodes).to_string());
    // Each rung above: twice the budget, or where that is no rung, four
    // times, eight times, … over the same rung. The climb ends on evidence:
    // two steps in a row whose tests found no gain. A step the test could
    // not decide is no evidence either way, so the next larger step is
    // tried; the largest budget allowed ends the climb too.
    'climb: loop {
        let mut tried = 0;
        let mut no_gain = 0;
        let mut factor = 2;
        while nodes.saturating_mul(factor) <= config.most_nodes {
            let upper = nodes * factor;
            tried += 1;
            let Some(step) = decide(&bot(upper), &bot(nodes))? else {
                climb.end = End::Interrupted;
                climb.still_rising = tried == 1;
                break 'climb;
            };
            let decision = step.decision;
            climb.steps.push(step);
            match decision {
                Some(Decision::Rung) => {
                    nodes = upper;
                    climb.rungs.push(bot(nodes).to_string());
                    continue 'climb;
                }
                Some(Decision::NoGain) => no_gain += 1,
                _ => no_gain = 0,
            }
            if no_gain == 2 {
                climb.end = End::NoGain;
                break 'climb;
            }
            factor *= 2;
        }
        (climb.end, climb.still_rising) = (End::MostNodes, tried == 0);
        break;
    }
    Ok(finish(climb))
}

/// The match of `upper` over `lower`, block by block (`play(k, before)`
/// gives block `k`'s games, `before` the blocks' before it; `None`:
/// stopped), until its test (its ratio times `weight`) decides or its most
/// games are played. A block played whole looks after every pair of its
/// games too ([`play_block`]), and ends at the first pair where the test
/// decides: the test then decides here on that block.
fn match_step(
    config: &LadderConfig,
    upper: &BotSpec,
    lower: &BotSpec,
    weight: f64,
    mut play: impl FnMut(u64, Wdl) -> Result<Option<Block>, LabError>,
) -> Result<Option<Step>, LabError> {
    let mut total = Block::default();
    let mut decision = Decision::Unclear;
    for k in 0..config.blocks() {
        let Some(block) = play(k, total.wdl)? else {
            return Ok(None);
        };
        total.add(block);
        if let Some(d) = decides(config, weight, total.wdl) {
            decision = d;
            break;
        }
    }
    Ok(Some(step(config, upper, lower, total, decision)))
}

/// What a match's test decides on the upper bot's wins, draws and losses
/// `w` (its ratio times `weight`), if it decides.
fn decides(config: &LadderConfig, weight: f64, w: Wdl) -> Option<Decision> {
    let (elo0, elo1) = (elo(NO_GAIN), elo(config.threshold));
    let (lo, hi) = sprt_bounds(ERRORS, ERRORS);
    let llr = weight * w.llr(elo0, elo1);
    if llr >= hi {
        Some(Decision::Rung)
    } else if llr <= lo {
        Some(Decision::NoGain)
    } else {
        None
    }
}

/// `a` and `b` together.
fn plus(a: Wdl, b: Wdl) -> Wdl {
    Wdl {
        wins: a.wins + b.wins,
        draws: a.draws + b.draws,
        losses: a.losses + b.losses,
    }
}

/// The step a match's games make.
fn step(
    config: &LadderConfig,
    upper: &BotSpec,
    lower: &BotSpec,
    total: Block,
    decision: Decision,
) -> Step {
    let result = MatchResult::of(total.wdl);
    let games = total.wdl.games();
    let (lo, hi) = wilson(total.first_wins, games);
    Step {
        gap: result.gap(upper.to_string(), lower.to_string()),
        clear: decision == Decision::Rung,
        decision: Some(decision),
        llr: Some(round_to(
            total.wdl.llr(elo(NO_GAIN), elo(config.threshold)),
            2,
        )),
        first_player: if games == 0 {
            0.0
        } else {
            round_to(total.first_wins as f64 / games as f64, 6)
        },
        first_player_ci95: [round_to(lo, 6), round_to(hi, 6)],
        draws: total.wdl.draws,
    }
}

/// Plays shard `shard`'s share of a sharded ladder into `OUT/ladder/`
/// (new, or resumed with [`Mode::Resume`]). Which blocks the climb needs
/// depends on the results of the blocks before them, which no shard knows
/// alone: a shard climbs as far as its own share of each block says (its
/// test's ratio weighed as the whole block's), a guess of the whole
/// block's result that only decides how much the shard plays ahead. [`merge_ladder`] climbs on the merged blocks as one run
/// would, and plays itself the shares of any block a shard stopped short
/// of. Returns `false` when stopped before the climbs ended.
pub fn play_ladder_shard(
    variant: &Variant,
    config: &LadderConfig,
    shard: Shard,
    out: (&Path, Mode),
    handler: &dyn Handler<RunProgress>,
) -> Result<bool, LabError> {
    check(config)?;
    let climbs = climbs(config, shard.n as f64, |at| {
        play_block(variant, config, at, Some(shard), Some(out), handler)
    })?;
    Ok(climbs.iter().all(|c| c.end != End::Interrupted))
}

/// The ladder of a sharded run: the climbs of [`run_ladder`], each block
/// merged from the shards' folders `dirs` (shard `k` of `n` in
/// `dirs[k-1]`, each climbed by [`play_ladder_shard`]). A shard's share
/// that is not there (its own climb stopped below it) is played here, into
/// `OUT/ladder-shards/K/ladder/…`. Each block the climbs reach is written
/// as one run's (`OUT/ladder/…/block-K`: games and report). Every game is
/// seeded by its number alone, so this is the ladder an unsharded run
/// climbs.
pub fn merge_ladder(
    variant: &Variant,
    config: &LadderConfig,
    dirs: &[&Path],
    out: &Path,
    handler: &dyn Handler<RunProgress>,
) -> Result<Ladder, LabError> {
    check(config)?;
    let n = dirs.len() as u64;
    let climbs = climbs(config, 1.0, |at| {
        let sub = at.dir();
        let mut paths = Vec::new();
        for (k, dir) in (1..=n).zip(dirs) {
            let theirs = dir.join(&sub);
            if theirs.join("report.json").is_file() {
                paths.push(theirs);
                continue;
            }
            let here = out.join("ladder-shards").join(k.to_string());
            let shard = Some(Shard::new(k, n).map_err(LabError::Invalid)?);
            if play_block(
                variant,
                config,
                at,
                shard,
                Some((&here, Mode::Resume)),
                handler,
            )?
            .is_none()
            {
                return Ok(None);
            }
            paths.push(here.join(&sub));
        }
        let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        let (mut report, mut games) = merge(&refs, Partial::Refuse)?;
        // The block as one run plays it: up to the first pair where the
        // test decides.
        if let Some(end) = deciding_pair(config, at.before, &games)
            && end < games.len()
        {
            games.truncate(end);
            let stats: Vec<_> = games.iter().map(|g| g.stats.clone()).collect();
            report = at
                .match_config(config, None)
                .config(variant)?
                .report(&stats);
        }
        write_outputs(&out.join(&sub), &report, &games)?;
        Ok(Some(Block::of(&MatchResult::of_games(&games), &report)))
    })?;
    Ok(ladder_of(config, climbs))
}

/// The number of `games` (a whole block's, in number order) up to the
/// end of the first pair where the test decides, going on from `before`.
fn deciding_pair(config: &LadderConfig, before: Wdl, games: &[crate::GameResult]) -> Option<usize> {
    (2..=games.len()).step_by(2).find(|&n| {
        let w = MatchResult::of_games(&games[..n]);
        let w = Wdl {
            wins: w.wins,
            draws: w.draws,
            losses: w.losses,
        };
        decides(config, 1.0, plus(before, w)).is_some()
    })
}

/// The mean Elo a doubling gains over the steps that made rungs.
fn finish(mut climb: Climb) -> Climb {
    let nodes = |spec: &str| {
        spec.strip_prefix("alphabeta:")
            .and_then(|n| n.parse::<f64>().ok())
    };
    let gains: Vec<f64> = climb
        .steps
        .iter()
        .filter(|s| s.clear && s.gap.lower != "random")
        .filter_map(|s| {
            let doublings = (nodes(&s.gap.upper)? / nodes(&s.gap.lower)?).log2();
            Some(s.gap.elo? / doublings)
        })
        .collect();
    if !gains.is_empty() {
        climb.elo_per_doubling = Some(gains.iter().sum::<f64>() / gains.len() as f64);
    }
    climb
}

/// Plays the block `at`; `None` when stopped before it ended.
fn play_block(
    variant: &Variant,
    config: &LadderConfig,
    at: At,
    shard: Option<Shard>,
    out: Option<(&Path, Mode)>,
    handler: &dyn Handler<RunProgress>,
) -> Result<Option<Block>, LabError> {
    let m = at.match_config(config, shard);
    let dir = match out {
        Some((path, mode)) => {
            let path = path.join(at.dir());
            Some(RunDir::open(&path, &m.run_spec(variant)?, mode)?.0)
        }
        None => None,
    };
    // A whole block looks after every pair (from the blocks before it);
    // a shard's share cannot, its pairs being every n-th.
    let (result, report) = match shard {
        None => {
            let look = |w: Wdl| decides(config, 1.0, plus(at.before, w)).is_some();
            let (result, report, _) = run_match_until(variant, &m, handler, dir, look)?;
            (result, report)
        }
        Some(_) => run_match(variant, &m, handler, dir)?,
    };
    if report.interrupted || handler.stop() {
        return Ok(None);
    }
    Ok(Some(Block::of(&result, &report)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A climb over scripted blocks: `score(upper, lower)` gives each
    /// block's wins of 20 games (no draws).
    fn scripted(config: &LadderConfig, wins: impl Fn(u64, u64) -> u64) -> Climb {
        let nodes = |b: &BotSpec| {
            b.to_string()
                .strip_prefix("alphabeta:")
                .map_or(0, |n| n.parse().unwrap())
        };
        climb(config, 0, 1.0, |at| {
            let w = wins(nodes(at.upper), nodes(at.lower));
            Ok(Some(Block {
                wdl: Wdl {
                    wins: w,
                    draws: 0,
                    losses: 20 - w,
                },
                first_wins: 10,
            }))
        })
        .unwrap()
    }

    fn config() -> LadderConfig {
        LadderConfig {
            first_nodes: 8,
            most_nodes: 1 << 10,
            games: 200,
            block: 20,
            ..LadderConfig::default()
        }
    }

    /// A doubling that scores 19 of 20 decides at its first look; one that
    /// scores half its games is no gain before the most games, one that
    /// scores 11 of 20 stays unclear to the end.
    #[test]
    fn each_match_stops_when_its_test_decides() {
        let c = config();
        let clear = scripted(&c, |_, _| 19);
        assert!(clear.steps.iter().all(|s| s.gap.games == 20), "{clear:?}");
        assert!(clear.still_rising && clear.end == End::MostNodes);
        assert_eq!(clear.rungs.len(), 1 + 8, "random, then 8 to 1024");
        let even = scripted(&c, |_, lower| if lower == 0 { 19 } else { 10 });
        let last = even.steps.last().unwrap();
        assert_eq!(last.decision, Some(Decision::NoGain), "{last:?}");
        assert!(last.gap.games < 200 && last.gap.games > 20, "{last:?}");
        let unclear = scripted(&c, |_, lower| if lower == 0 { 19 } else { 11 });
        let last = unclear.steps.last().unwrap();
        assert_eq!(last.decision, Some(Decision::Unclear), "{last:?}");
        assert_eq!(last.gap.games, 200);
    }

    /// A lopsided pairing (every game won) stops at a report's second look,
    /// after 20 games, where a report's blocks of 40 played on to the end
    /// of the first (the test cannot decide at ten games, even all won).
    #[test]
    fn a_lopsided_pairing_stops_before_an_old_blocks_end() {
        let plan = murus_report::designer::Budget::Standard.plan();
        let c = LadderConfig {
            games: plan.ladder_games,
            block: plan.ladder_block,
            ..config()
        };
        let n = c.block_games();
        assert_eq!(n, 10);
        let climb = climb(&c, 0, 1.0, |_| {
            Ok(Some(Block {
                wdl: Wdl {
                    wins: n,
                    draws: 0,
                    losses: 0,
                },
                first_wins: n / 2,
            }))
        })
        .unwrap();
        assert!(!climb.steps.is_empty());
        for s in &climb.steps {
            assert_eq!(s.decision, Some(Decision::Rung), "{s:?}");
            assert_eq!(s.gap.games, 2 * n, "{s:?}");
        }
    }

    /// A doubling that is no rung is followed by a quadrupling over the same
    /// rung; the climb ends after two steps in a row that found no gain.
    #[test]
    fn the_climb_goes_on_past_one_step_that_is_no_rung() {
        let c = config();
        // Twice the budget gains little, four times a lot.
        let climb = scripted(&c, |upper, lower| match (upper, lower) {
            (_, 0) => 19,
            (u, l) if u == 4 * l => 19,
            _ => 10,
        });
        let names: Vec<(&str, &str)> = climb
            .steps
            .iter()
            .map(|s| (s.gap.upper.as_str(), s.gap.lower.as_str()))
            .collect();
        assert_eq!(
            &names[..4],
            [
                ("alphabeta:8", "random"),
                ("alphabeta:16", "alphabeta:8"),
                ("alphabeta:32", "alphabeta:8"),
                ("alphabeta:64", "alphabeta:32"),
            ]
        );
        assert_eq!(
            climb.rungs,
            [
                "random",
                "alphabeta:8",
                "alphabeta:32",
                "alphabeta:128",
                "alphabeta:512"
            ]
        );
        // 512: twice is over the largest budget (1024 allowed), four times too.
        assert_eq!(climb.end, End::MostNodes);
        assert!(!climb.still_rising);
        // A quadrupling's Elo counts as two doublings'.
        let quad = &climb.steps[2];
        let per = climb.elo_per_doubling.unwrap();
        assert!((per - quad.gap.elo.unwrap() / 2.0).abs() < 1e-9, "{per}");
        // Two steps in a row that found no gain end the climb.
        let flat = scripted(&c, |_, lower| if lower == 0 { 19 } else { 10 });
        assert_eq!(flat.rungs, ["random", "alphabeta:8"]);
        assert_eq!(flat.steps.len(), 3);
        assert_eq!(flat.end, End::NoGain);
    }

    #[test]
    fn the_answer_gives_the_spread_of_the_climbs() {
        let c = config();
        let a = scripted(&c, |_, lower| if lower == 0 { 19 } else { 10 });
        let mut b = scripted(&c, |_, _| 19);
        b.seed = c.climb_seed(1);
        let ladder = ladder_of(&c, vec![a, b]);
        assert_eq!(ladder.rung_range, Some([2, 9]));
        assert_eq!(ladder.games, 200);
        let answer = ladder.answer();
        assert!(
            answer.starts_with("2 rungs of skill [2, 9] over 2 climbs with their own seeds"),
            "{answer}"
        );
        let again = scripted(&c, |_, lower| if lower == 0 { 19 } else { 10 });
        let same = ladder_of(&c, vec![again.clone(), again]);
        assert!(
            same.answer()
                .starts_with("2 rungs of skill (2 in each of 2 climbs with their own seeds)"),
            "{}",
            same.answer()
        );
        assert!(
            answer.ends_with(
                "neither alphabeta:16 nor alphabeta:32 gains over the last rung (the tests found no gain)"
            ),
            "{answer}"
        );
        assert!(!ladder.ended_unclear());
        // Steps the tests could not decide do not end the climb: larger
        // ones are tried up to the largest budget, and the count is then a
        // least count, which the answer says.
        let unclear = scripted(&c, |_, lower| if lower == 0 { 19 } else { 11 });
        let tried: Vec<&str> = unclear.steps.iter().map(|s| s.gap.upper.as_str()).collect();
        assert_eq!(
            tried,
            [
                "alphabeta:8",
                "alphabeta:16",
                "alphabeta:32",
                "alphabeta:64",
                "alphabeta:128",
                "alphabeta:256",
                "alphabeta:512",
                "alphabeta:1024"
            ]
        );
        assert_eq!(unclear.end, End::MostNodes);
        let ladder = ladder_of(&c, vec![unclear]);
        assert!(ladder.ended_unclear());
        let answer = ladder.answer();
        assert!(answer.starts_with("At least 2 rungs of skill;"), "{answer}");
        assert!(
            answer.ends_with("no larger budget up to alphabeta:1024 clearly beats the last rung, but the tests could not tell within 200 games a match: there may be more rungs, which a larger budget would show"),
            "{answer}"
        );
        assert_ne!(c.climb_seed(1), c.climb_seed(0));
    }

    /// Where the first player wins over 90% of a match's games, the
    /// colour decides them: the ladder says so, and counts those matches.
    #[test]
    fn a_first_player_who_wins_nearly_every_game_is_warned_of() {
        let c = config();
        let even = scripted(&c, |_, lower| if lower == 0 { 19 } else { 10 });
        assert_eq!(ladder_of(&c, vec![even.clone()]).colour_warning(), None);
        // The same matches, the first player winning 19 of 20 games of a
        // block past the first match.
        let decided = climb(&c, 0, 1.0, |at| {
            let first = at.lower.to_string() != "random";
            Ok(Some(Block {
                wdl: Wdl {
                    wins: if first { 10 } else { 19 },
                    draws: 0,
                    losses: if first { 10 } else { 1 },
                },
                first_wins: if first { 19 } else { 10 },
            }))
        })
        .unwrap();
        let ladder = ladder_of(&c, vec![decided.clone(), decided]);
        let all = 2 * ladder.steps.len();
        let warning = ladder.colour_warning().expect("a warning");
        assert!(
            warning.starts_with(&format!(
                "In {} of the ladder's {all} matches the first player won over 90% of the games",
                all - 2
            )),
            "{warning}"
        );
        // The second player winning as often decides as much.
        let second = climb(&c, 0, 1.0, |at| {
            let first = at.lower.to_string() != "random";
            Ok(Some(Block {
                wdl: Wdl {
                    wins: if first { 10 } else { 19 },
                    draws: 0,
                    losses: if first { 10 } else { 1 },
                },
                first_wins: if first { 1 } else { 10 },
            }))
        })
        .unwrap();
        let warning = ladder_of(&c, vec![second])
            .colour_warning()
            .expect("a warning");
        assert!(
            warning.contains("matches the second player won over 90% of the games"),
            "{warning}"
        );
    }
}
