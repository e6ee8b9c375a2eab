//! The designer's report: one run that answers what a designer asks of a
//! rules file (is it fair, is it deep, how long does it last, is it
//! solved), each answer a line in words with the figures behind it
//! ([`DesignerReport`], `report.json`); `murus_publish` renders it as a
//! page (`index.html`).
//!
//! The run plays its stages in order, each kept in the run folder as it
//! ends: random playouts (`parts/speed.json`, and the standard game's
//! beside them), the balance check (`balance/`, resumed like any check),
//! the skill ladder (`ladder/`, each match a run folder), the proof search
//! (`parts/solve.json`). A run killed at any moment and resumed plays only
//! what is missing and ends with the same report: every figure depends on
//! the seed, none on the threads, but for the seconds the stages took and
//! the playouts' rate ([`Timing`], kept apart for that reason).
//!
//! `docs/report.md` describes each section's method.

mod assemble;
mod compare;
mod games;
mod openings;
mod sections;
mod speed;

use std::path::Path;
use std::time::Instant;

use murus_ai::proof::{self, Value};
use murus_engine::Variant;
use murus_engine::job::Handler;
use serde::{Deserialize, Serialize};

pub use compare::{Comparison, Row, compare};
pub use games::{CLEAR_CP, GameSection, PROVEN_CP, PuzzleEntry, TacticsSection, replay};
pub use openings::{OpeningMove, OpeningsSection, REPLIES as OPENING_REPLIES};
pub use sections::{
    DesignerReport, FairnessSection, LadderSection, QualitySection, RulesSection, SolvedSection,
    SpeedSection, Timing,
};
pub use speed::{Distribution, Playouts, random_playouts};

use crate::balance::{BalanceConfig, CheckProgress, Stopping, parse_levels, run_balance};
use crate::error::LabError;
use crate::folder::{Differences, Mode, RunFolder, Settings, Spec};
use crate::ladder::{LadderConfig, run_ladder};
use crate::record::VariantId;
use crate::report::strongest;
use crate::runner::RunProgress;

/// The layout of `report.json` this version writes.
pub const FORMAT: u32 = 1;

/// How much a report may spend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Budget {
    /// Under 3 minutes on two cores for the standard game.
    #[default]
    Quick,
    /// Under 30 minutes.
    Standard,
    /// As long as it takes.
    Deep,
}

impl Budget {
    pub const ALL: [Budget; 3] = [Budget::Quick, Budget::Standard, Budget::Deep];

    pub fn name(self) -> &'static str {
        match self {
            Budget::Quick => "quick",
            Budget::Standard => "standard",
            Budget::Deep => "deep",
        }
    }

    /// What each stage gets.
    pub fn plan(self) -> Plan {
        match self {
            Budget::Quick => Plan {
                playouts: 5_000,
                levels: "random,easy,medium,hard",
                games: 100,
                ladder_games: 60,
                ladder_most_nodes: 1 << 12,
                solve_nodes: 2_000_000,
                review_nodes: 20_000,
                tactics_moves: 2,
                openings_level: "medium",
                train_positions: 20_000,
            },
            Budget::Standard => Plan {
                playouts: 20_000,
                levels: "random,easy,medium,hard",
                games: 400,
                ladder_games: 200,
                ladder_most_nodes: 1 << 16,
                solve_nodes: 50_000_000,
                review_nodes: 200_000,
                tactics_moves: 2,
                openings_level: "hard",
                train_positions: 200_000,
            },
            Budget::Deep => Plan {
                playouts: 100_000,
                levels: "random,easy,medium,hard,expert",
                games: 1_000,
                ladder_games: 400,
                ladder_most_nodes: 1 << 20,
                solve_nodes: 1_000_000_000,
                review_nodes: 1_000_000,
                tactics_moves: 3,
                openings_level: "hard",
                train_positions: 400_000,
            },
        }
    }
}

/// A budget's share for each stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Random playouts for speed and size.
    pub playouts: u64,
    /// The balance check's levels.
    pub levels: &'static str,
    /// Games at each level.
    pub games: u64,
    /// Games of each ladder match.
    pub ladder_games: u64,
    /// The ladder's largest budget, in nodes.
    pub ladder_most_nodes: u64,
    /// The proof search's nodes.
    pub solve_nodes: u64,
    /// Nodes of the search of each position of the representative game.
    pub review_nodes: u64,
    /// Tactics: forced wins within at most this many moves.
    pub tactics_moves: u32,
    /// The level whose games rank the first moves.
    pub openings_level: &'static str,
    /// With `--train`: positions of self-play to train an evaluation on.
    pub train_positions: u64,
}

/// A report's settings.
#[derive(Clone, Debug)]
pub struct ReportConfig {
    pub budget: Budget,
    pub seed: u64,
    pub threads: usize,
    /// Random plies that open each round of games.
    pub openings: u32,
    /// Another variant to report on alike and compare with, and how the
    /// commands name it.
    pub compare: Option<(Variant, String)>,
    /// Train an evaluation first where the variant has none (and for the
    /// variant compared with), so that both sides of a comparison play
    /// with trained evaluations ([`Plan::train_positions`]).
    pub train: bool,
    /// Positions to train on instead of the budget's (a quick look, a test).
    pub train_positions: Option<u64>,
}

impl ReportConfig {
    pub fn new(budget: Budget, seed: u64, threads: usize) -> ReportConfig {
        ReportConfig {
            budget,
            seed,
            threads,
            openings: 4,
            compare: None,
            train: false,
            train_positions: None,
        }
    }

    fn balance(&self) -> Result<BalanceConfig, LabError> {
        let plan = self.budget.plan();
        Ok(BalanceConfig {
            levels: parse_levels(plan.levels)?,
            stopping: Stopping::Games(plan.games),
            openings: self.openings,
            seed: self.seed,
            threads: self.threads,
            shard: None,
            skill_games: 0,
            max_plies: None,
            book: None,
        })
    }

    fn ladder(&self) -> LadderConfig {
        let plan = self.budget.plan();
        LadderConfig {
            games: plan.ladder_games,
            most_nodes: plan.ladder_most_nodes,
            openings: self.openings,
            seed: self.seed,
            threads: self.threads,
            ..LadderConfig::default()
        }
    }
}

/// What decides a report's figures: a report resumes only with the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportSpec {
    pub format: u32,
    pub variant: VariantId,
    pub engine_version: String,
    pub budget: Budget,
    pub seed: u64,
    pub openings: u32,
    /// The variant compared with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<VariantId>,
    /// Evaluations trained first where there were none.
    #[serde(default)]
    pub train: bool,
}

impl Settings for ReportSpec {
    const WHAT: &'static str = "report";

    fn differences(&self, b: &ReportSpec, here: &'static str) -> Vec<String> {
        let a = self;
        let mut d = Differences::new(here);
        d.add("format", a.format, b.format);
        d.rules(&a.variant, &b.variant);
        d.add("engine version", &a.engine_version, &b.engine_version);
        d.add("budget", a.budget.name(), b.budget.name());
        d.add("seed", a.seed, b.seed);
        d.add("openings", a.openings, b.openings);
        let name =
            |c: &Option<VariantId>| c.as_ref().map_or("none".to_string(), |v| v.name.clone());
        d.add("compared with", name(&a.compare), name(&b.compare));
        d.add("train", a.train, b.train);
        if let (Some(x), Some(y)) = (&a.compare, &b.compare) {
            d.rules(x, y);
        }
        d.finish()
    }
}

impl Spec for ReportSpec {
    const FILE: &'static str = "report-run.json";
    const FILES: &'static [&'static str] = &[
        "report.json",
        "index.html",
        "parts",
        "tactics.html",
        "tactics",
    ];
    const OUTPUTS: &'static [&'static str] = &["report.json"];
}

/// Where a report stands, for progress bars.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportProgress {
    /// `speed`, `balance`, `ladder`, `solve`.
    pub stage: &'static str,
    /// Stages finished before this one, and in all.
    pub index: usize,
    pub of: usize,
    /// Games (or nodes) done and planned in this stage, when known.
    pub done: u64,
    pub total: u64,
    /// A section just finished: its title and its answer (each section
    /// once, as its stage ends; the rest of the time `None`).
    pub section: Option<(String, String)>,
}

/// The stages, in order.
pub const STAGES: [&str; 7] = [
    "train", "speed", "balance", "games", "openings", "ladder", "solve",
];

/// Makes the report of `variant` (the rules' text is `variant.source()`;
/// `spec_text` names it in the commands: a file or a shipped name). With
/// `out`, every stage is kept there as it ends, and the report written as
/// `report.json`; [`Mode::Resume`] goes on with a report kept there.
/// `handler` may stop it: a stopped report is an error and its finished
/// stages are kept.
pub fn run_report(
    variant: &Variant,
    spec_text: &str,
    config: &ReportConfig,
    out: Option<(&Path, Mode)>,
    handler: &dyn Handler<ReportProgress>,
) -> Result<DesignerReport, LabError> {
    let spec = ReportSpec {
        format: FORMAT,
        variant: VariantId::of(variant),
        engine_version: env!("CARGO_PKG_VERSION").to_string(),
        budget: config.budget,
        seed: config.seed,
        openings: config.openings,
        compare: config.compare.as_ref().map(|(v, _)| VariantId::of(v)),
        train: config.train,
    };
    let folder = match out {
        Some((path, mode)) => Some(RunFolder::open(path, &spec, mode)?),
        None => None,
    };
    let sub = |name: &str| folder.as_ref().map(|f| (f.path().join(name), Mode::Resume));
    let part = |name: &str| folder.as_ref().map(|f| f.path().join("parts").join(name));
    let plan = config.budget.plan();
    let budget_flag = format!("--{}", config.budget.name());
    let mut command = format!(
        "murus report {spec_text} {budget_flag} --seed {}",
        config.seed
    );
    if let Some((_, other)) = &config.compare {
        command += &format!(" --compare {other}");
    }
    if config.train {
        command += " --train";
    }
    let mut timing = Timing::default();
    let stage = |index: usize, done: u64, total: u64| ReportProgress {
        stage: STAGES[index],
        index,
        of: STAGES.len(),
        done,
        total,
        section: None,
    };
    let announce = |index: usize, title: &str, answer: String| {
        handler.progress(&ReportProgress {
            section: Some((title.to_string(), answer)),
            ..stage(index, 1, 1)
        });
    };
    let stopped = || LabError::Invalid("the report was stopped: --resume goes on".into());

    // 0. An evaluation for the bots, with --train.
    let training = if config.train {
        let bridge = TrainBridge {
            outer: handler,
            stage: &stage,
        };
        let dir = folder.as_ref().map(|f| f.path().join("train"));
        crate::train::train_if_generic(
            variant,
            config.train_positions.unwrap_or(plan.train_positions),
            config.seed,
            config.threads,
            dir.as_deref(),
            &bridge,
        )?
    } else {
        None
    };
    if let Some(t) = &training {
        announce(0, "Training", t.clone());
    }
    if handler.stop() {
        return Err(stopped());
    }

    // 1. Speed and size.
    handler.progress(&stage(1, 0, plan.playouts));
    let speed: SpeedPart = kept_or(part("speed.json"), || {
        let started = Instant::now();
        let (playouts, rate) = random_playouts(variant, plan.playouts, config.seed);
        let standard = (variant.name() != "standard").then(|| {
            let s = Variant::standard();
            random_playouts(&s, plan.playouts, config.seed)
        });
        Ok(SpeedPart {
            playouts,
            rate,
            standard: standard.as_ref().map(|s| s.0.clone()),
            standard_rate: standard.map(|s| s.1),
            seconds: started.elapsed().as_secs_f64(),
        })
    })?;
    timing.playouts_per_second = speed.rate.round();
    timing.standard_playouts_per_second = speed.standard_rate.map(f64::round);
    timing.seconds.insert("speed".into(), round2(speed.seconds));
    announce(1, "Speed and size", assemble::speed_answer(&speed));
    if handler.stop() {
        return Err(stopped());
    }

    // 2. Fairness by level.
    let started = Instant::now();
    let balance_config = config.balance()?;
    let bridge = CheckBridge {
        outer: handler,
        stage: &stage,
    };
    let balance_dir = sub("balance");
    let balance = run_balance(
        variant,
        &balance_config,
        balance_dir.as_ref().map(|(p, m)| (p.as_path(), *m)),
        &bridge,
    )?;
    if balance.interrupted || handler.stop() {
        return Err(stopped());
    }
    timing
        .seconds
        .insert("balance".into(), round2(started.elapsed().as_secs_f64()));
    announce(
        2,
        "Fairness by level",
        assemble::fairness_answer(variant, &balance),
    );
    announce(
        2,
        "Game quality",
        assemble::quality_section(&balance).answer,
    );

    // 3. The strongest level's games: a representative one, and tactics.
    handler.progress(&stage(3, 0, 0));
    let strongest_level = strongest(&balance).map(|l| l.level.clone());
    let games_part: Option<GamesPart> = match (&balance_dir, &strongest_level) {
        (Some((dir, _)), Some(level)) => Some(kept_or(part("games.json"), || {
            let started = Instant::now();
            let games = games::level_games(dir, level)?;
            let game =
                games::representative(variant, level, &games, config.openings, plan.review_nodes);
            let tactics = (variant.player_count() == 2).then(|| {
                games::harvest(
                    variant,
                    level,
                    &games,
                    config.openings,
                    plan.tactics_moves,
                    PUZZLES_KEPT,
                )
            });
            Ok(GamesPart {
                game,
                tactics,
                seconds: started.elapsed().as_secs_f64(),
            })
        })?),
        _ => None,
    };
    if let Some(g) = &games_part {
        timing.seconds.insert("games".into(), round2(g.seconds));
        if let Some(game) = &g.game {
            announce(3, "A representative game", game.answer.clone());
        }
        if let Some(t) = &g.tactics {
            announce(3, "Tactics", t.answer.clone());
        }
    }
    if handler.stop() {
        return Err(stopped());
    }

    // 4. Openings (two players).
    handler.progress(&stage(4, 0, 0));
    let openings_part: Option<OpeningsPart> = if variant.player_count() == 2 {
        let strongest_bot = strongest(&balance).and_then(|l| l.bot.parse().ok());
        let level = parse_levels(plan.openings_level)?.pop().expect("a level");
        match strongest_bot {
            Some(strongest) => Some(kept_or(part("openings.json"), || {
                let started = Instant::now();
                let section = openings::openings(
                    variant,
                    (&level.name, &level.spec),
                    &strongest,
                    plan.review_nodes,
                    config.seed,
                    config.threads,
                )?;
                Ok(OpeningsPart {
                    section,
                    seconds: started.elapsed().as_secs_f64(),
                })
            })?),
            None => None,
        }
    } else {
        None
    };
    if let Some(o) = &openings_part {
        timing.seconds.insert("openings".into(), round2(o.seconds));
        announce(4, "Openings", o.section.answer.clone());
    }
    if handler.stop() {
        return Err(stopped());
    }

    // 5. The skill ladder (two players).
    let two = variant.player_count() == 2;
    let ladder = if two {
        let started = Instant::now();
        let bridge = RunBridge {
            outer: handler,
            stage: &stage,
        };
        let ladder = run_ladder(
            variant,
            &config.ladder(),
            folder.as_ref().map(|f| (f.path(), Mode::Resume)),
            &bridge,
        )?;
        if ladder.end == crate::ladder::End::Interrupted && handler.stop() {
            return Err(stopped());
        }
        timing
            .seconds
            .insert("ladder".into(), round2(started.elapsed().as_secs_f64()));
        announce(
            5,
            "Depth: the skill ladder",
            format!("{}.", ladder.answer()),
        );
        Some(ladder)
    } else {
        None
    };

    // 6. The proof search.
    handler.progress(&stage(6, 0, plan.solve_nodes));
    let solved = if two {
        let part: SolvePart = kept_or(part("solve.json"), || {
            let started = Instant::now();
            let limits = proof::Limits {
                nodes: plan.solve_nodes,
                table_mib: 256,
            };
            let found = proof::solve(variant, &variant.start(), limits, &Never)
                .map_err(LabError::Invalid)?;
            Ok(SolvePart {
                value: found.value.map(|v| match v {
                    Value::Win(p) => Some(p),
                    Value::Draw => None,
                }),
                winning: found
                    .winning
                    .iter()
                    .map(|&m| variant.move_to_string(m))
                    .collect(),
                nodes: found.nodes,
                seconds: started.elapsed().as_secs_f64(),
            })
        })?;
        timing.seconds.insert("solve".into(), round2(part.seconds));
        let section =
            assemble::solved_section(variant, spec_text, plan.solve_nodes, part.clone(), &balance);
        announce(6, "Solved?", section.answer);
        Some(part)
    } else {
        None
    };

    let mut report = assemble::assemble(
        variant, spec_text, config, command, speed, balance, ladder, solved, timing,
    );
    if let Some(g) = games_part {
        report.game = g.game;
        report.tactics = g.tactics;
    }
    report.openings = openings_part.map(|o| o.section);
    report.training = training;
    if let Some((other, other_text)) = &config.compare {
        let alone = ReportConfig {
            compare: None,
            ..config.clone()
        };
        let dir = folder
            .as_ref()
            .map(|f| f.path().join("compare").join(other.name()));
        let theirs = run_report(
            other,
            other_text,
            &alone,
            dir.as_ref().map(|d| (d.as_path(), Mode::Resume)),
            handler,
        )?;
        report.comparison = Some(compare(&report, &theirs));
    }
    if let Some(f) = &folder {
        let json = serde_json::to_string_pretty(&report)
            .map_err(|e| LabError::Invalid(format!("report.json: {e}")))?;
        f.write_outputs(&[("report.json", json + "\n")])?;
    }
    Ok(report)
}

/// The speed stage as its part file keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct SpeedPart {
    pub(super) playouts: Playouts,
    pub(super) rate: f64,
    pub(super) standard: Option<Playouts>,
    pub(super) standard_rate: Option<f64>,
    pub(super) seconds: f64,
}

/// Puzzles a report keeps (the hardest first).
pub const PUZZLES_KEPT: usize = 12;

/// The games stage as its part file keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct GamesPart {
    game: Option<GameSection>,
    tactics: Option<TacticsSection>,
    seconds: f64,
}

/// The openings stage as its part file keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct OpeningsPart {
    section: OpeningsSection,
    seconds: f64,
}

/// The proof stage as its part file keeps it: `value` is `None` when
/// unknown, `Some(None)` a draw, `Some(Some(p))` a win for `p`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct SolvePart {
    pub(super) value: Option<Option<usize>>,
    pub(super) winning: Vec<String>,
    pub(super) nodes: u64,
    pub(super) seconds: f64,
}

/// The part kept at `path`, or `make`'s (kept there).
fn kept_or<T: Serialize + serde::de::DeserializeOwned>(
    path: Option<std::path::PathBuf>,
    make: impl FnOnce() -> Result<T, LabError>,
) -> Result<T, LabError> {
    if let Some(p) = &path
        && let Ok(text) = std::fs::read_to_string(p)
    {
        return serde_json::from_str(&text)
            .map_err(|e| LabError::Invalid(format!("{}: {e}", p.display())));
    }
    let value = make()?;
    if let Some(p) = &path {
        let text = serde_json::to_string_pretty(&value)
            .map_err(|e| LabError::Invalid(format!("{}: {e}", p.display())))?;
        if let Some(dir) = p.parent() {
            std::fs::create_dir_all(dir).map_err(crate::folder::io(dir))?;
        }
        murus_engine::util::write_atomic(p, text.as_bytes()).map_err(crate::folder::io(p))?;
    }
    Ok(value)
}

fn round2(x: f64) -> f64 {
    crate::stats::round_to(x, 2)
}

/// A handler that never stops (the proof search's part must not depend on
/// when a stop came: it runs whole, within its node budget).
struct Never;

impl Handler for Never {}

/// The balance check's progress as the report's.
struct CheckBridge<'a, F> {
    outer: &'a dyn Handler<ReportProgress>,
    stage: &'a F,
}

impl<F: Fn(usize, u64, u64) -> ReportProgress + Sync> Handler<CheckProgress>
    for CheckBridge<'_, F>
{
    fn stop(&self) -> bool {
        self.outer.stop()
    }
    fn progress(&self, p: &CheckProgress) {
        self.outer.progress(&(self.stage)(2, p.done, p.total));
    }
}

/// Training's progress as the report's.
struct TrainBridge<'a, F> {
    outer: &'a dyn Handler<ReportProgress>,
    stage: &'a F,
}

impl<F: Fn(usize, u64, u64) -> ReportProgress + Sync> Handler<crate::train::TrainProgress>
    for TrainBridge<'_, F>
{
    fn stop(&self) -> bool {
        self.outer.stop()
    }
    fn progress(&self, p: &crate::train::TrainProgress) {
        if let crate::train::TrainProgress::Data { positions, of, .. } = p {
            self.outer.progress(&(self.stage)(0, *positions, *of));
        }
    }
}

/// A ladder match's progress as the report's.
struct RunBridge<'a, F> {
    outer: &'a dyn Handler<ReportProgress>,
    stage: &'a F,
}

impl<F: Fn(usize, u64, u64) -> ReportProgress + Sync> Handler<RunProgress> for RunBridge<'_, F> {
    fn stop(&self) -> bool {
        self.outer.stop()
    }
    fn progress(&self, p: &RunProgress) {
        self.outer.progress(&(self.stage)(5, p.done, p.total));
    }
}
