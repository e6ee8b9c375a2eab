//! Playing a balance check: each level's self-play run until its
//! stopping rule decides, then the skill matches, kept on disk game by game.

use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use murus_engine::Variant;

use super::config::{BalanceConfig, Level, Stopping};
use super::verdict::verdict;
use crate::error::LabError;
use crate::matches::{MatchResult, run_match};
use crate::record::{VariantId, source_sha256};
use crate::report::{BalanceReport, LevelResult, Report, SkillGap, StopReason};
use crate::rundir::{RunDir, RunSpec};
use crate::runner::{Config, Control, Deliver, lock, play_range, play_sequential};

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

/// A check's progress, shared with the thread that shows it, and its
/// cancel flag.
#[derive(Debug, Default)]
pub struct Progress {
    /// Set to stop the check: finished games are kept (and on disk).
    pub cancel: Arc<AtomicBool>,
    current: Mutex<Option<(Stage, u64, Arc<Control>)>>,
}

impl Progress {
    /// The stage, its games finished and the most it may play.
    pub fn now(&self) -> Option<(Stage, u64, u64)> {
        lock(&self.current)
            .as_ref()
            .map(|(stage, total, c)| (stage.clone(), c.done(), *total))
    }

    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }

    fn start(&self, stage: Stage, total: u64) -> Arc<Control> {
        let control = Arc::new(Control::with_cancel(self.cancel.clone()));
        *lock(&self.current) = Some((stage, total, control.clone()));
        control
    }
}

/// Runs a balance check of `variant`, keeping every game under `out` when
/// given (a new folder, or with `resume` the check there, which then plays
/// only its missing games). `progress` shows where it is and cancels it.
pub fn run_balance(
    variant: &Variant,
    config: &BalanceConfig,
    out: Option<&Path>,
    resume: bool,
    progress: &Progress,
) -> Result<BalanceReport, LabError> {
    config.check()?;
    for level in &config.levels {
        level
            .spec
            .check(variant)
            .map_err(|e| LabError::Invalid(format!("level {}: {e}", level.name)))?;
    }
    let players = variant.player_count();
    let fair = 1.0 / players as f64;
    let mut levels = Vec::new();
    let mut interrupted = false;
    for (index, level) in config.levels.iter().enumerate() {
        let lc = config.level_config(variant, level)?;
        let c = progress.start(
            Stage::Level {
                level: level.name.clone(),
                index,
                of: config.levels.len(),
            },
            lc.planned(),
        );
        let spec = config.level_spec(&lc);
        let dir = match out {
            Some(o) => Some(open_dir(
                &o.join("levels").join(&level.name),
                &spec,
                resume,
            )?),
            None => None,
        };
        let result = play_level(variant, config, &lc, &c, dir, fair)?;
        interrupted |= result.stopped == StopReason::Interrupted;
        levels.push(LevelResult {
            level: level.name.clone(),
            bot: level.spec.to_string(),
            stopped: result.stopped,
            report: result.report,
        });
        if c.is_cancelled() {
            interrupted = true;
            break;
        }
    }
    let mut skill = Vec::new();
    if players == 2 && config.skill_games > 0 && !interrupted {
        for pair in config.levels.windows(2) {
            let (lower, upper) = (&pair[0], &pair[1]);
            let m = config.skill_match(upper, lower);
            let c = progress.start(
                Stage::Skill {
                    upper: upper.name.clone(),
                    lower: lower.name.clone(),
                },
                m.games + m.games % 2,
            );
            let dir = match out {
                Some(o) => Some(open_dir(
                    &o.join("skill")
                        .join(format!("{}-vs-{}", upper.name, lower.name)),
                    &m.run_spec(variant)?,
                    resume,
                )?),
                None => None,
            };
            let (result, report) = run_match(variant, &m, &c, dir)?;
            if report.interrupted || c.is_cancelled() {
                interrupted = true;
                break;
            }
            skill.push(skill_gap(upper, lower, &result));
        }
    }
    let mut report = BalanceReport {
        variant: VariantId {
            name: variant.name().to_string(),
            source_sha256: source_sha256(variant.source()),
        },
        engine_version: env!("CARGO_PKG_VERSION").to_string(),
        seed: config.seed,
        openings: if config.book.is_some() {
            0
        } else {
            config.openings
        },
        book: config.book.as_ref().map(|b| b.id().clone()),
        stopping: config.stopping.describe(),
        shard: config.shard.map(|(k, n)| format!("{k}/{n}")),
        pie_rule: !matches!(variant.rules().opening, murus_dsl::rules::Opening::None),
        levels,
        skill,
        verdict: Vec::new(),
        interrupted,
    };
    report.verdict = verdict(&report);
    if let Some(o) = out {
        write_balance(o, &report)?;
    }
    Ok(report)
}

fn open_dir(path: &Path, spec: &RunSpec, resume: bool) -> Result<RunDir, LabError> {
    if resume && path.join("run.json").is_file() {
        RunDir::open_for_resume(path, spec).map(|(dir, _)| dir)
    } else {
        RunDir::create(path, spec)
    }
}

struct LevelRun {
    stopped: StopReason,
    report: Report,
}

fn play_level(
    variant: &Variant,
    config: &BalanceConfig,
    lc: &Config,
    control: &Control,
    dir: Option<RunDir>,
    fair: f64,
) -> Result<LevelRun, LabError> {
    let resumed = dir.as_ref().map(|d| d.done().to_vec()).unwrap_or_default();
    control.preload(&resumed);
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
            play_range(variant, lc, control, 0..lc.planned(), &skip, &deliver);
            (control.stats(), StopReason::Games)
        }
        Stopping::Precision { .. } => {
            let mut reason = StopReason::Games;
            let run = play_sequential(variant, lc, control, &resumed, &deliver, players, |p| {
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
    if let Some(e) = control.take_error() {
        return Err(e);
    }
    let cut_short = control.is_cancelled()
        && stopped == StopReason::Games
        && (played.len() as u64) < lc.planned();
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

/// Writes `balance.json` (and the table, `balance.csv`) into `out`.
pub fn write_balance(out: &Path, report: &BalanceReport) -> Result<(), LabError> {
    // Each file through a temporary one renamed into place: a kill leaves
    // the old file or the new, never a torn one.
    let write = |name: &str, text: String| -> Result<(), LabError> {
        crate::rundir::write_atomic(&out.join(name), &text)
    };
    write("balance.json", report.to_json())?;
    write("balance.svg", crate::charts::balance_svg(report))?;
    write("balance.csv", crate::write::balance_csv(report))
}

/// The skill gap of `upper` over `lower` from their match.
fn skill_gap(upper: &Level, lower: &Level, r: &MatchResult) -> SkillGap {
    let finite = |x: f64| x.is_finite().then_some(x);
    SkillGap {
        upper: upper.name.clone(),
        lower: lower.name.clone(),
        games: r.games,
        score: r.score,
        elo: finite(r.elo),
        elo_ci95: [finite(r.elo_ci95[0]), finite(r.elo_ci95[1])],
    }
}
