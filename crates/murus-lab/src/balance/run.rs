//! Playing a balance check: each level's self-play run until its
//! stopping rule decides, then the skill matches, kept on disk game by game.

use std::fmt;
use std::path::Path;
use std::sync::Mutex;

use murus_engine::Variant;
use murus_engine::job::Handler;

use super::config::{BalanceConfig, Stopping};
use super::spec::BalanceSpec;
use super::verdict::verdict;
use crate::error::LabError;
use crate::folder::{Mode, RunDir, RunFolder, RunSpec, write_files};
use crate::matches::run_match;
use crate::report::{BalanceReport, LevelResult, Report, StopReason};
use crate::runner::{Config, Deliver, RunProgress, Tally, lock, play_range, play_sequential};
use crate::write::balance_files;

/// Where a check stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Stage {
    /// Playing level `level` (its number from 0, of `of`).
    Level {
        level: String,
        index: usize,
        of: usize,
    },
    /// Playing the match of `upper` against `lower`.
    Skill { upper: String, lower: String },
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stage::Level { level, index, of } => write!(f, "level {}/{of}: {level}", index + 1),
            Stage::Skill { upper, lower } => write!(f, "skill: {upper} vs {lower}"),
        }
    }
}

/// Where a check stands: what its [`Handler`] hears when a stage starts
/// and as its games finish.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckProgress {
    /// The level or the match being played.
    pub stage: Stage,
    /// Its games finished so far (those found done included).
    pub done: u64,
    /// The most games it may play.
    pub total: u64,
}

/// A stage's run of games as the check's handler hears it.
struct Staged<'a> {
    outer: &'a dyn Handler<CheckProgress>,
    stage: Stage,
}

impl Staged<'_> {
    /// Tells the check's handler that the stage starts, before its folder
    /// is opened (its games found done are told once it is).
    fn starts(&self, total: u64) {
        self.outer.progress(&CheckProgress {
            stage: self.stage.clone(),
            done: 0,
            total,
        });
    }
}

impl Handler<RunProgress> for Staged<'_> {
    fn stop(&self) -> bool {
        self.outer.stop()
    }
    fn progress(&self, p: &RunProgress) {
        self.outer.progress(&CheckProgress {
            stage: self.stage.clone(),
            done: p.done,
            total: p.total,
        });
    }
}

/// Runs a balance check of `variant`, keeping every game in the folder
/// `out` gives, when it gives one, opened by [`RunFolder::open`]: a new
/// check there ([`Mode::New`], refused where a check is kept already), or
/// the check kept there ([`Mode::Resume`]: it plays only its missing games;
/// started when the folder keeps none; refused when it keeps a check of
/// other settings).
/// `handler` hears where it is and may stop it: the finished games are
/// kept (and on disk), and the report is marked
/// [`interrupted`](BalanceReport::interrupted).
pub fn run_balance(
    variant: &Variant,
    config: &BalanceConfig,
    out: Option<(&Path, Mode)>,
    handler: &dyn Handler<CheckProgress>,
) -> Result<BalanceReport, LabError> {
    config.check()?;
    for level in &config.levels {
        level
            .spec
            .check(variant)
            .map_err(|e| LabError::Invalid(format!("level {}: {e}", level.name)))?;
    }
    let spec = BalanceSpec::of(variant, config);
    let folder = match out {
        Some((path, mode)) => Some(RunFolder::open(path, &spec, mode)?),
        None => None,
    };
    let mode = out.map_or(Mode::New, |(_, mode)| mode);
    let players = variant.player_count();
    let fair = 1.0 / players as f64;
    let mut levels = Vec::new();
    let mut interrupted = false;
    for (index, level) in config.levels.iter().enumerate() {
        let lc = config.level_config(variant, level)?;
        let staged = Staged {
            outer: handler,
            stage: Stage::Level {
                level: level.name.clone(),
                index,
                of: config.levels.len(),
            },
        };
        staged.starts(lc.planned());
        let dir = match &folder {
            Some(f) => Some(open_dir(
                &f.path().join("levels").join(&level.name),
                &config.level_spec(&lc),
                mode,
            )?),
            None => None,
        };
        let result = play_level(variant, config, &lc, &staged, dir, fair)?;
        interrupted |= result.stopped == StopReason::Interrupted;
        levels.push(LevelResult {
            level: level.name.clone(),
            bot: level.spec.to_string(),
            stopped: result.stopped,
            report: result.report,
        });
        if handler.stop() {
            interrupted = true;
            break;
        }
    }
    let mut skill = Vec::new();
    if players == 2 && config.skill_games > 0 && !interrupted {
        for pair in config.levels.windows(2) {
            let (lower, upper) = (&pair[0], &pair[1]);
            let m = config.skill_match(upper, lower);
            let staged = Staged {
                outer: handler,
                stage: Stage::Skill {
                    upper: upper.name.clone(),
                    lower: lower.name.clone(),
                },
            };
            staged.starts(m.config(variant)?.planned());
            let dir = match &folder {
                Some(f) => Some(open_dir(
                    &f.path()
                        .join("skill")
                        .join(format!("{}-vs-{}", upper.name, lower.name)),
                    &m.run_spec(variant)?,
                    mode,
                )?),
                None => None,
            };
            let (result, report) = run_match(variant, &m, &staged, dir)?;
            if report.interrupted || handler.stop() {
                interrupted = true;
                break;
            }
            skill.push(result.gap(&upper.name, &lower.name));
        }
    }
    let mut report = BalanceReport {
        variant: spec.variant,
        engine_version: spec.engine_version,
        seed: spec.seed,
        openings: spec.openings,
        book: spec.book,
        stopping: spec.stopping.describe(),
        shard: spec.shard,
        pie_rule: !matches!(variant.rules().opening, murus_dsl::rules::Opening::None),
        levels,
        skill,
        verdict: Vec::new(),
        interrupted,
        missing_shards: Vec::new(),
    };
    report.verdict = verdict(&report);
    if let Some(f) = &folder {
        f.write_outputs(&balance_files(&report))?;
    }
    Ok(report)
}

/// The folder of a level's or a match's games: new, or (a resumed check)
/// the one there, started when there is none.
fn open_dir(path: &Path, spec: &RunSpec, mode: Mode) -> Result<RunDir, LabError> {
    RunDir::open(path, spec, mode).map(|(dir, _)| dir)
}

struct LevelRun {
    stopped: StopReason,
    report: Report,
}

fn play_level(
    variant: &Variant,
    config: &BalanceConfig,
    lc: &Config,
    handler: &dyn Handler<RunProgress>,
    dir: Option<RunDir>,
    fair: f64,
) -> Result<LevelRun, LabError> {
    let resumed = dir.as_ref().map(|d| d.done().to_vec()).unwrap_or_default();
    let tally = &Tally::new(handler, lc.planned(), &resumed);
    let dir = dir.map(Mutex::new);
    let deliver = Deliver {
        dir: dir.as_ref(),
        ..Deliver::default()
    };
    let players = variant.player_count() as u64;
    let first = variant.letter(0);
    let (played, mut stopped) = match config.stopping {
        Stopping::Games(_) => {
            let mut skip: Vec<u64> = resumed.iter().map(|g| g.index).collect();
            skip.sort_unstable();
            play_range(variant, lc, tally, 0..lc.planned(), &skip, &deliver);
            (tally.stats(), StopReason::Games)
        }
        Stopping::Precision { .. } => {
            let mut reason = StopReason::Games;
            let run = play_sequential(variant, lc, tally, &resumed, &deliver, players, |p| {
                let wins = p.iter().filter(|g| g.winner == Some(first)).count() as u64;
                match config.stopping.decided(wins, p.len() as u64, fair) {
                    Some(r) => {
                        reason = r;
                        true
                    }
                    None => false,
                }
            });
            if run.decided
                && let Some(d) = &dir
            {
                lock(d).drop_from(run.next);
            }
            (run.played, reason)
        }
    };
    if let Some(e) = tally.take_error() {
        return Err(e);
    }
    let cut_short =
        tally.stopped() && stopped == StopReason::Games && (played.len() as u64) < lc.planned();
    if cut_short {
        stopped = StopReason::Interrupted;
    }
    let mut report = lc.report(&played);
    report.interrupted = cut_short;
    if let Some(d) = dir {
        d.into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .finish(&report)?;
    }
    Ok(LevelRun { stopped, report })
}

/// Writes `balance.json`, `balance.svg` and `balance.csv` into `out`
/// (created if missing), each whole or not at all.
pub fn write_balance(out: &Path, report: &BalanceReport) -> Result<(), LabError> {
    write_files(out, &balance_files(report))
}
