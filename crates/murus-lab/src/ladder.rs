//! The skill ladder: how many levels of play a variant holds, as a measure
//! of its depth.
//!
//! The ladder starts at the random bot. Its first searching rung is the
//! weakest alpha-beta budget (`first_nodes`, doubled at most
//! [`FIRST_TRIES`] times) that clearly beats random; each rung above
//! doubles the budget of the one below and counts while it clearly beats
//! it. *Clearly*: a score of at least `threshold` (60% by default) in a
//! match of paired games, colours swapped, from varied openings, with the
//! 95% interval of its Elo above zero (so the score's interval lies above
//! 50%). The ladder ends at the first doubling that does not clearly win
//! (the game's skill has run out at that budget, or the match cannot tell),
//! at the largest budget allowed, or when it is stopped (its time budget).
//!
//! What it reports: the rungs, each match's score and Elo with intervals
//! and the first player's rate in its games (does fairness settle as play
//! gets stronger?), the mean Elo a doubling gains, and whether the ladder
//! was still rising when its budget ended it. `docs/report.md` describes
//! the method and how it relates to Ai Ai's "levels of play".
//!
//! Each match is kept like the balance check's skill matches
//! (`OUT/ladder/UPPER-vs-LOWER`, `alphabeta-16-vs-alphabeta-8`): a resumed ladder reads the finished
//! matches back and plays only what is missing, so it ends with the same
//! ladder as a run never interrupted.

use std::path::Path;

use murus_ai::BotSpec;
use murus_engine::Variant;
use murus_engine::job::Handler;
use serde::{Deserialize, Serialize};

use crate::error::LabError;
use crate::folder::{Mode, Partial, RunDir, Shard, merge, write_outputs};
use crate::matches::{MatchConfig, MatchResult, run_match};
use crate::report::SkillGap;
use crate::runner::RunProgress;

/// How many budgets the first rung tries against random, doubling each
/// time, before the ladder ends with no searching rung.
pub const FIRST_TRIES: u32 = 4;

/// The ladder's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderConfig {
    /// The first alpha-beta budget tried against random, in nodes.
    pub first_nodes: u64,
    /// No rung searches more nodes than this.
    pub most_nodes: u64,
    /// Games of each match (rounded up to pairs).
    pub games: u64,
    /// The least score that counts as clearly better (with the Elo
    /// interval above zero).
    pub threshold: f64,
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
            games: 100,
            threshold: 0.6,
            openings: 4,
            seed: 1,
            threads: 1,
        }
    }
}

/// One match of the ladder: a bot against the rung below it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The bots, the games, the upper bot's score and Elo with its 95%
    /// interval (an infinite bound as `null`), as the balance check's skill
    /// trace has them.
    #[serde(flatten)]
    pub gap: SkillGap,
    /// The upper bot clearly beat the lower: a new rung.
    pub clear: bool,
    /// The first player's share of the match's games won, and its 95%
    /// interval.
    pub first_player: f64,
    pub first_player_ci95: [f64; 2],
    pub draws: u64,
}

/// Why the ladder ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// A bot did not clearly beat the rung below.
    NoGain,
    /// The next doubling would pass the largest budget allowed.
    MostNodes,
    /// Stopped first (its time budget, a cancel).
    Interrupted,
}

/// The skill ladder of a variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    pub threshold: f64,
    /// Games of each match.
    pub games: u64,
    /// The rungs, weakest first: `random`, then each bot that clearly beat
    /// the rung below.
    pub rungs: Vec<String>,
    /// Every match played, in order.
    pub steps: Vec<Step>,
    /// The mean Elo a doubling of the budget gains, over the doublings
    /// that made rungs (not the first rung's win over random); `None`
    /// with fewer than one such doubling or an infinite Elo.
    pub elo_per_doubling: Option<f64>,
    /// The last match made a rung and the ladder ended for want of budget
    /// (its largest budget, its time), not for want of skill.
    pub still_rising: bool,
    pub end: End,
}

impl Ladder {
    /// The ladder in one sentence.
    pub fn answer(&self) -> String {
        let rungs = self.rungs.len();
        let plural = if rungs == 1 { "" } else { "s" };
        let how = match (rungs, self.end, self.still_rising) {
            (1, End::Interrupted, _) => "stopped before any bot clearly beat random".to_string(),
            (1, _, _) => "no searching bot clearly beats random: skill hardly matters".to_string(),
            (_, _, true) => "still rising when the budget ran out".to_string(),
            _ => format!(
                "the next doubling ({}) does not clearly beat the last rung",
                self.steps.last().map_or("", |s| s.gap.upper.as_str())
            ),
        };
        let per = self
            .elo_per_doubling
            .map(|e| format!(", {e:+.0} Elo a doubling"))
            .unwrap_or_default();
        format!("{rungs} rung{plural} of skill{per}; {how}")
    }
}

/// The bot of a rung: alpha-beta with `nodes` nodes.
fn bot(nodes: u64) -> BotSpec {
    format!("alphabeta:{nodes}")
        .parse()
        .expect("an alpha-beta spec")
}

/// Climbs the ladder of `variant` (two players). With `out`, each match is
/// kept in `OUT/ladder/UPPER-vs-LOWER` (new, or resumed with
/// [`Mode::Resume`]). `handler` may stop it (the ladder then ends
/// [`End::Interrupted`] with the rungs it made) and hears each match's
/// games.
pub fn run_ladder(
    variant: &Variant,
    config: &LadderConfig,
    out: Option<(&Path, Mode)>,
    handler: &dyn Handler<RunProgress>,
) -> Result<Ladder, LabError> {
    check(config)?;
    climb(config, |upper, lower| {
        play_step(variant, config, upper, lower, None, out, handler)
    })
}

/// Refuses a ladder that cannot be climbed.
fn check(config: &LadderConfig) -> Result<(), LabError> {
    if !(0.5..1.0).contains(&config.threshold) {
        return Err(LabError::Invalid(format!(
            "ladder threshold {}: expected at least 0.5 and below 1",
            config.threshold
        )));
    }
    if config.first_nodes == 0 || config.first_nodes > config.most_nodes {
        return Err(LabError::Invalid(format!(
            "ladder budgets: the first ({}) must be at least 1 and at most the largest ({})",
            config.first_nodes, config.most_nodes
        )));
    }
    if config.games < 2 {
        return Err(LabError::Invalid(
            "a ladder match needs at least one pair of games".into(),
        ));
    }
    Ok(())
}

/// The climb: `play(upper, lower)` gives each match the ladder needs, in
/// order (`None`: stopped before it ended).
fn climb(
    config: &LadderConfig,
    mut play: impl FnMut(&BotSpec, &BotSpec) -> Result<Option<Step>, LabError>,
) -> Result<Ladder, LabError> {
    let mut ladder = Ladder {
        threshold: config.threshold,
        games: config.games + config.games % 2,
        rungs: vec!["random".to_string()],
        steps: Vec::new(),
        elo_per_doubling: None,
        still_rising: false,
        end: End::NoGain,
    };
    let random: BotSpec = "random".parse().expect("the random bot");
    // The first rung: the weakest budget that clearly beats random.
    let mut nodes = config.first_nodes;
    let mut found = None;
    for _ in 0..FIRST_TRIES {
        let Some(step) = play(&bot(nodes), &random)? else {
            ladder.end = End::Interrupted;
            return Ok(finish(ladder));
        };
        let clear = step.clear;
        ladder.steps.push(step);
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
        return Ok(finish(ladder));
    };
    ladder.rungs.push(bot(nodes).to_string());
    loop {
        if nodes * 2 > config.most_nodes {
            ladder.end = End::MostNodes;
            ladder.still_rising = true;
            break;
        }
        let Some(step) = play(&bot(nodes * 2), &bot(nodes))? else {
            ladder.end = End::Interrupted;
            ladder.still_rising = true;
            break;
        };
        let clear = step.clear;
        ladder.steps.push(step);
        if !clear {
            ladder.end = End::NoGain;
            break;
        }
        nodes *= 2;
        ladder.rungs.push(bot(nodes).to_string());
    }
    Ok(finish(ladder))
}

/// Plays shard `shard`'s share of a sharded ladder into
/// `OUT/ladder/UPPER-vs-LOWER` (new, or resumed with [`Mode::Resume`]).
/// Which matches the climb needs depends on the results of the matches
/// below, which no shard knows alone: a shard climbs as far as its own
/// share of each match says, a guess of the whole match's result that
/// only decides how much the shard plays ahead. [`merge_ladder`] climbs
/// on the merged matches as one run would, and plays itself the shares
/// of any match a shard stopped short of. Returns `false` when stopped
/// before the climb ended.
pub fn play_ladder_shard(
    variant: &Variant,
    config: &LadderConfig,
    shard: Shard,
    out: (&Path, Mode),
    handler: &dyn Handler<RunProgress>,
) -> Result<bool, LabError> {
    check(config)?;
    let ladder = climb(config, |upper, lower| {
        play_step(
            variant,
            config,
            upper,
            lower,
            Some(shard),
            Some(out),
            handler,
        )
    })?;
    Ok(ladder.end != End::Interrupted)
}

/// The ladder of a sharded run: the climb of [`run_ladder`], each match
/// merged from the shards' folders `dirs` (shard `k` of `n` in
/// `dirs[k-1]`, each climbed by [`play_ladder_shard`]). A shard's share
/// that is not there (its own climb stopped below it) is played here, into
/// `OUT/ladder-shards/K/UPPER-vs-LOWER`. Each match the climb reaches is
/// written as one run's (`OUT/ladder/UPPER-vs-LOWER`: games and report).
/// Every game is seeded by its number alone, so this is the ladder an
/// unsharded run climbs.
pub fn merge_ladder(
    variant: &Variant,
    config: &LadderConfig,
    dirs: &[&Path],
    out: &Path,
    handler: &dyn Handler<RunProgress>,
) -> Result<Ladder, LabError> {
    check(config)?;
    let n = dirs.len() as u64;
    climb(config, |upper, lower| {
        let name = match_name(upper, lower);
        let mut paths = Vec::new();
        for (k, dir) in (1..=n).zip(dirs) {
            let theirs = dir.join("ladder").join(&name);
            if theirs.join("report.json").is_file() {
                paths.push(theirs);
                continue;
            }
            let here = out.join("ladder-shards").join(k.to_string());
            let shard = Some(Shard::new(k, n)?);
            if play_step(
                variant,
                config,
                upper,
                lower,
                shard,
                Some((&here, Mode::Resume)),
                handler,
            )?
            .is_none()
            {
                return Ok(None);
            }
            paths.push(here.join("ladder").join(&name));
        }
        let refs: Vec<&Path> = paths.iter().map(std::path::PathBuf::as_path).collect();
        let (report, games) = merge(&refs, Partial::Refuse)?;
        let sub = Path::new("ladder").join(&name);
        write_outputs(&out.join(&sub), &report, &games)?;
        let result = MatchResult::of_games(&games);
        Ok(Some(step(config, upper, lower, &result, &report)))
    })
}

/// A match's folder under `ladder/`: `alphabeta-16-vs-alphabeta-8`.
fn match_name(upper: &BotSpec, lower: &BotSpec) -> String {
    format!("{upper}-vs-{lower}").replace(':', "-")
}

/// The mean Elo of the doublings that made rungs.
fn finish(mut ladder: Ladder) -> Ladder {
    let gains: Vec<f64> = ladder
        .steps
        .iter()
        .filter(|s| s.clear && s.gap.lower != "random")
        .filter_map(|s| s.gap.elo)
        .collect();
    if !gains.is_empty() {
        ladder.elo_per_doubling = Some(gains.iter().sum::<f64>() / gains.len() as f64);
    }
    ladder
}

/// Plays `upper` against `lower`; `None` when stopped before the match
/// ended.
fn play_step(
    variant: &Variant,
    config: &LadderConfig,
    upper: &BotSpec,
    lower: &BotSpec,
    shard: Option<Shard>,
    out: Option<(&Path, Mode)>,
    handler: &dyn Handler<RunProgress>,
) -> Result<Option<Step>, LabError> {
    let m = MatchConfig {
        a: upper.clone(),
        b: lower.clone(),
        games: config.games,
        seed: config.seed,
        threads: config.threads,
        sprt: None,
        openings: config.openings,
        book: None,
        shard: shard.map(Shard::pair),
    };
    let dir = match out {
        Some((path, mode)) => {
            let path = path.join("ladder").join(match_name(upper, lower));
            Some(RunDir::open(&path, &m.run_spec(variant)?, mode)?.0)
        }
        None => None,
    };
    let (result, report) = run_match(variant, &m, handler, dir)?;
    if report.interrupted || handler.stop() {
        return Ok(None);
    }
    Ok(Some(step(config, upper, lower, &result, &report)))
}

fn step(
    config: &LadderConfig,
    upper: &BotSpec,
    lower: &BotSpec,
    result: &MatchResult,
    report: &crate::report::Report,
) -> Step {
    let f = &report.first_player_advantage;
    Step {
        gap: result.gap(upper.to_string(), lower.to_string()),
        clear: result.score >= config.threshold && result.elo_ci95[0] > 0.0,
        first_player: f.rate,
        first_player_ci95: f.ci95,
        draws: result.draws,
    }
}
