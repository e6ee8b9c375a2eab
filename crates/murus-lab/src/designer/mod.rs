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

mod compare;
mod games;
mod openings;
mod speed;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use murus_ai::proof::{self, Value};
use murus_engine::Variant;
use murus_engine::job::Handler;
use serde::{Deserialize, Serialize};

pub use compare::{Comparison, Row, compare};
pub use games::{CLEAR_CP, GameSection, PROVEN_CP, PuzzleEntry, TacticsSection, replay};
pub use openings::{OpeningMove, OpeningsSection, REPLIES as OPENING_REPLIES};
pub use speed::{Distribution, Playouts, random_playouts};

use crate::balance::{BalanceConfig, CheckProgress, Stopping, parse_levels, run_balance};
use crate::error::LabError;
use crate::folder::{Differences, Mode, RunFolder, Settings, Spec};
use crate::ladder::{Ladder, LadderConfig, run_ladder};
use crate::metrics::Metrics;
use crate::record::VariantId;
use crate::report::BalanceReport;
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
}

impl ReportConfig {
    pub fn new(budget: Budget, seed: u64, threads: usize) -> ReportConfig {
        ReportConfig {
            budget,
            seed,
            threads,
            openings: 4,
            compare: None,
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

/// The rules: what they are and what the bots evaluate them with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulesSection {
    pub answer: String,
    pub variant: VariantId,
    pub title: String,
    pub players: usize,
    pub cells: u32,
    /// The start, as a position string.
    pub start: String,
    /// The evaluation every searching bot used: `generic`, or a trained
    /// one's digest, with a line about it.
    pub evaluation: String,
    pub evaluation_summary: String,
}

/// Speed and size: random playouts of the variant, and of the standard
/// game for comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedSection {
    pub answer: String,
    pub command: String,
    pub playouts: Playouts,
    /// The standard game's figures (left out for the standard game).
    pub standard: Option<Playouts>,
}

/// Fairness by level: the balance check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FairnessSection {
    pub answer: String,
    pub command: String,
    pub balance: BalanceReport,
}

/// Depth: the skill ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderSection {
    pub answer: String,
    pub command: String,
    pub ladder: Ladder,
}

/// The proof search's answer on the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolvedSection {
    pub answer: String,
    pub command: String,
    /// `win` (the first player wins), `loss`, `draw`, or `unknown` within
    /// the budget.
    pub value: String,
    pub winner: Option<char>,
    /// The first player's winning first moves, in notation.
    pub winning: Vec<String>,
    pub nodes: u64,
    pub budget_nodes: u64,
    /// When proved: whether the strongest level's balance verdict agrees
    /// (a significant edge for the winner, or none for a draw).
    pub balance_agrees: Option<bool>,
}

/// Game quality: the metrics of the strongest level's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QualitySection {
    pub answer: String,
    pub level: String,
    pub metrics: Metrics,
    /// The figures outside their usual range, in words.
    pub flags: Vec<String>,
}

/// What depends on the machine: seconds per stage and the playouts' rate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub playouts_per_second: f64,
    pub standard_playouts_per_second: Option<f64>,
    /// Stage → seconds it took (in the run that played it).
    pub seconds: BTreeMap<String, f64>,
}

/// The designer's report (`report.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DesignerReport {
    pub format: u32,
    pub budget: Budget,
    pub seed: u64,
    /// The command that makes the whole report again.
    pub command: String,
    pub rules: RulesSection,
    pub speed: SpeedSection,
    pub fairness: FairnessSection,
    /// `None` for games of more than two players.
    pub ladder: Option<LadderSection>,
    pub solved: Option<SolvedSection>,
    pub quality: QualitySection,
    /// From the strongest level's games (`None` without a run folder, where
    /// the games are not kept).
    pub game: Option<GameSection>,
    pub tactics: Option<TacticsSection>,
    /// Two players only.
    pub openings: Option<OpeningsSection>,
    /// With another variant (its own report is in `compare/NAME/`).
    pub comparison: Option<Comparison>,
    pub timing: Timing,
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
}

/// The stages, in order.
pub const STAGES: [&str; 6] = ["speed", "balance", "games", "openings", "ladder", "solve"];

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
    let mut timing = Timing::default();
    let stage = |index: usize, done: u64, total: u64| ReportProgress {
        stage: STAGES[index],
        index,
        of: STAGES.len(),
        done,
        total,
    };
    let stopped = || LabError::Invalid("the report was stopped: --resume goes on".into());

    // 1. Speed and size.
    handler.progress(&stage(0, 0, plan.playouts));
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

    // 3. The strongest level's games: a representative one, and tactics.
    handler.progress(&stage(2, 0, 0));
    let strongest_level = balance
        .levels
        .iter()
        .rev()
        .find(|l| l.report.games > 0)
        .map(|l| l.level.clone());
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
    }
    if handler.stop() {
        return Err(stopped());
    }

    // 4. Openings (two players).
    handler.progress(&stage(3, 0, 0));
    let openings_part: Option<OpeningsPart> = if variant.player_count() == 2 {
        let strongest_bot = balance
            .levels
            .iter()
            .rev()
            .find(|l| l.report.games > 0)
            .and_then(|l| l.bot.parse().ok());
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
        Some(ladder)
    } else {
        None
    };

    // 6. The proof search.
    handler.progress(&stage(5, 0, plan.solve_nodes));
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
        Some(part)
    } else {
        None
    };

    let mut report = assemble(
        variant, spec_text, config, command, speed, balance, ladder, solved, timing,
    );
    if let Some(g) = games_part {
        report.game = g.game;
        report.tactics = g.tactics;
    }
    report.openings = openings_part.map(|o| o.section);
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
struct SpeedPart {
    playouts: Playouts,
    rate: f64,
    standard: Option<Playouts>,
    standard_rate: Option<f64>,
    seconds: f64,
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
struct SolvePart {
    value: Option<Option<usize>>,
    winning: Vec<String>,
    nodes: u64,
    seconds: f64,
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
    (x * 100.0).round() / 100.0
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
        self.outer.progress(&(self.stage)(1, p.done, p.total));
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
        self.outer.progress(&(self.stage)(4, p.done, p.total));
    }
}

#[allow(clippy::too_many_arguments)]
fn assemble(
    variant: &Variant,
    spec_text: &str,
    config: &ReportConfig,
    command: String,
    speed: SpeedPart,
    balance: BalanceReport,
    ladder: Option<Ladder>,
    solved: Option<SolvePart>,
    timing: Timing,
) -> DesignerReport {
    let name = |p: usize| {
        variant
            .rules()
            .players
            .get(p)
            .map_or_else(|| format!("player {}", p + 1), |x| x.name.clone())
    };
    let evaluation = murus_ai::Evaluation::for_variant(variant);
    let (eval_id, eval_summary) = (evaluation.id(), evaluation.summary());
    let rules = RulesSection {
        answer: format!(
            "{} on {} cells for {} players; the bots evaluate with {}.",
            variant.rules().title,
            variant.geometry().cells().count(),
            variant.player_count(),
            if eval_id == "generic" {
                "the generic features"
            } else {
                "a trained evaluation"
            }
        ),
        variant: VariantId::of(variant),
        title: variant.rules().title.clone(),
        players: variant.player_count(),
        cells: variant.geometry().cells().count() as u32,
        start: variant.position_string(&variant.start()),
        evaluation: eval_id,
        evaluation_summary: eval_summary,
    };
    let p = &speed.playouts;
    let speed_answer = {
        let mut s = format!(
            "Random games last {} plies (median; 90% between {} and {}) with {:.1} moves a position; game tree about 10^{:.0}, state space about 10^{:.0}",
            p.length.median,
            p.length.p5,
            p.length.p95,
            p.branching.mean,
            p.game_tree_log10,
            p.state_space_log10
        );
        if let Some(s0) = &speed.standard {
            s += &format!(
                " (the standard game: {} plies, {:.1} moves, 10^{:.0} and 10^{:.0})",
                s0.length.median, s0.branching.mean, s0.game_tree_log10, s0.state_space_log10
            );
        }
        s + "."
    };
    let plan = config.budget.plan();
    let strongest = balance
        .levels
        .iter()
        .rev()
        .find(|l| l.report.games > 0)
        .cloned();
    let fairness_answer = match &strongest {
        Some(l) => {
            let f = &l.report.first_player_advantage;
            let verdict = if f.ci95[0] > f.fair {
                format!("favours the first player ({})", name(0))
            } else if f.ci95[1] < f.fair {
                format!("favours the second player ({})", name(1))
            } else {
                "is fair within the interval".to_string()
            };
            format!(
                "At {}, the game {verdict}: the first player wins {:.1}% [{:.1}–{:.1}].",
                l.level,
                f.rate * 100.0,
                f.ci95[0] * 100.0,
                f.ci95[1] * 100.0
            )
        }
        None => "No games were played.".to_string(),
    };
    let fairness = FairnessSection {
        answer: fairness_answer,
        command: format!(
            "murus balance {spec_text} --levels {} --games {} --seed {}",
            plan.levels, plan.games, config.seed
        ),
        balance,
    };
    let ladder = ladder.map(|l| LadderSection {
        answer: format!("{}.", l.answer()),
        command: command.clone(),
        ladder: l,
    });
    let solved = solved.map(|s| {
        let mover = 0;
        let (value, winner, answer) = match s.value {
            Some(Some(p)) => (
                if p == mover { "win" } else { "loss" },
                Some(variant.letter(p)),
                format!("Solved: {} win with perfect play", name(p)),
            ),
            Some(None) => ("draw", None, "Solved: a draw with perfect play".to_string()),
            None => (
                "unknown",
                None,
                format!("Not solved within {} nodes of proof-number search", s.nodes),
            ),
        };
        let agrees = s.value.and_then(|v| {
            let f = &strongest.as_ref()?.report.first_player_advantage;
            Some(match v {
                Some(0) => f.ci95[0] > f.fair,
                Some(_) => f.ci95[1] < f.fair,
                None => f.ci95[0] <= f.fair && f.ci95[1] >= f.fair,
            })
        });
        let mut answer = answer;
        if !s.winning.is_empty() {
            answer += &format!("; winning first moves: {}", s.winning.join(" "));
        }
        match agrees {
            Some(true) => answer += "; strong play's balance verdict agrees.",
            Some(false) => answer += "; strong play's balance verdict does not agree.",
            None => answer += ".",
        }
        SolvedSection {
            answer,
            command: format!("murus solve {spec_text} --budget {}", plan.solve_nodes),
            value: value.to_string(),
            winner,
            winning: s.winning,
            nodes: s.nodes,
            budget_nodes: plan.solve_nodes,
            balance_agrees: agrees,
        }
    });
    let (level, metrics) = strongest.as_ref().map_or_else(
        || (String::new(), Metrics::default()),
        |l| (l.level.clone(), l.report.metrics.clone()),
    );
    let flags = metrics.extremes();
    let quality = QualitySection {
        answer: if flags.is_empty() {
            format!("At {level}, no game-quality figure is out of its usual range.")
        } else {
            format!(
                "At {level}, {} figure{} out of range: {}.",
                flags.len(),
                if flags.len() == 1 { " is" } else { "s are" },
                flags.join("; ")
            )
        },
        level,
        metrics,
        flags,
    };
    DesignerReport {
        format: FORMAT,
        budget: config.budget,
        seed: config.seed,
        command: command.clone(),
        rules,
        speed: SpeedSection {
            answer: speed_answer,
            command: format!("{command} (random playouts: {})", plan.playouts),
            playouts: speed.playouts,
            standard: speed.standard,
        },
        fairness,
        ladder,
        solved,
        quality,
        game: None,
        tactics: None,
        openings: None,
        comparison: None,
        timing,
    }
}
