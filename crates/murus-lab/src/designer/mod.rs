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
mod bridges;
mod clock;
mod games;
mod openings;
mod parts;
mod plays;
mod run;
mod shards;
mod speed;

use std::path::Path;

use murus_engine::Variant;
use murus_engine::job::Handler;
use serde::{Deserialize, Serialize};

pub use crate::text::reason_words;
pub use games::replay;
/// The report and its sections are the report types' crate's
/// (`murus_report::designer`), at their old paths here.
pub use murus_report::designer::{
    Band, BoardSection, Budget, CLEAR_CP, Comparison, CurvesSection, DesignerReport, Distribution,
    Ending, EndingsSection, FORMAT, FairnessSection, FirstMove, GameSection, LadderSection,
    LevelEndings, MIN_FIRST_GAMES, MIN_GOING, OpeningMove, OpeningsSection, PROVEN_CP, Plan,
    Playouts, PuzzleEntry, QualitySection, Row, RulesSection, SOLVE_MOST_CELLS, SolvedSection,
    SpeedSection, TacticsSection, Timing, compare,
};
pub use openings::REPLIES as OPENING_REPLIES;
pub use shards::{ShardOf, shard_of};
pub use speed::random_playouts;

use crate::balance::{BalanceConfig, Stopping, parse_levels};
use crate::error::LabError;
use crate::folder::{Differences, Mode, Settings, Shard, Sharded, Spec, or_none};
use crate::ladder::LadderConfig;
use crate::record::VariantId;
use run::{Run, Stages};
use shards::Share;

/// Puzzles a report keeps (the hardest first).
pub const PUZZLES_KEPT: usize = 12;

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
            block: plan.ladder_block,
            most_nodes: plan.ladder_most_nodes,
            climbs: 2,
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
    /// `K/N` for one shard of a report; `None` for a whole report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

impl ReportSpec {
    /// The settings of `config`'s report of `variant` (of its shard
    /// `shard`).
    fn of(variant: &Variant, config: &ReportConfig, shard: Option<Shard>) -> ReportSpec {
        ReportSpec {
            format: FORMAT,
            variant: VariantId::of(variant),
            engine_version: env!("CARGO_PKG_VERSION").to_string(),
            budget: config.budget,
            seed: config.seed,
            openings: config.openings,
            compare: config.compare.as_ref().map(|(v, _)| VariantId::of(v)),
            train: config.train,
            shard,
        }
    }
}

impl Sharded for ReportSpec {
    fn shard(&mut self) -> &mut Option<Shard> {
        &mut self.shard
    }
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
        d.add(
            "shard",
            or_none(a.shard.as_ref()),
            or_none(b.shard.as_ref()),
        );
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
    make(variant, spec_text, config, Share::Whole, out, handler)?
        .ok_or_else(|| LabError::Invalid("a whole report made no report".into()))
}

/// Plays shard `shard` of the report [`run_report`] makes with the same
/// settings, into `out` (`murus report … --shard K/N`): its share of the
/// games of every stage that plays games, kept there for
/// [`merge_report`] (module `shards` describes the split). A shard makes
/// no report of its own; resumed like a report. Training cannot be
/// sharded (`config.train` is refused).
pub fn run_report_shard(
    variant: &Variant,
    spec_text: &str,
    config: &ReportConfig,
    shard: Shard,
    out: (&Path, Mode),
    handler: &dyn Handler<ReportProgress>,
) -> Result<(), LabError> {
    let plan = config.budget.plan();
    let most = plan.games.min(plan.ladder_block);
    if shard.n > most {
        return Err(LabError::Invalid(format!(
            "shard {shard}: a {} report splits into at most {most} shards (its smallest share of games, a block of a ladder match, has {most})",
            config.budget.name()
        )));
    }
    make(
        variant,
        spec_text,
        config,
        Share::Shard(shard),
        Some(out),
        handler,
    )
    .map(|_| ())
}

/// The report of the shards kept in `shards` (each the `out` of a
/// [`run_report_shard`] of the same variant and settings, all of one
/// split, each once, each run to its end; anything else is refused,
/// naming what differs or lacks), written into `out` as [`run_report`]
/// writes it, with the same `report.json` but for the timings (each
/// stage's seconds are the longest a shard took). The merge plays what
/// needs every shard's games: the representative game and the tactics.
pub fn merge_report(
    variant: &Variant,
    spec_text: &str,
    config: &ReportConfig,
    shards: &[std::path::PathBuf],
    out: (&Path, Mode),
    handler: &dyn Handler<ReportProgress>,
) -> Result<DesignerReport, LabError> {
    make(
        variant,
        spec_text,
        config,
        Share::Merge(shards),
        Some(out),
        handler,
    )?
    .ok_or_else(|| LabError::Invalid("a merge made no report".into()))
}

/// The stages of a report, its shard, or its merge (`share`), in order
/// (module `run` holds each stage): the report, or `None` for a shard.
/// Each stage is timed by a [`clock::Clock`] round `handler`, its time
/// so far kept even when the report stops or fails.
fn make(
    variant: &Variant,
    spec_text: &str,
    config: &ReportConfig,
    share: Share,
    out: Option<(&Path, Mode)>,
    handler: &dyn Handler<ReportProgress>,
) -> Result<Option<DesignerReport>, LabError> {
    let clock = clock::Clock::new(handler);
    let made = make_timed(variant, spec_text, config, share, out, &clock);
    if made.is_err() {
        // The error says what went wrong; the time is kept if it can be.
        let _ = clock.pause();
    }
    made
}

/// [`make`] with its clock.
fn make_timed<'a>(
    variant: &'a Variant,
    spec_text: &'a str,
    config: &'a ReportConfig,
    share: Share<'a>,
    out: Option<(&Path, Mode)>,
    clock: &'a clock::Clock<'a>,
) -> Result<Option<DesignerReport>, LabError> {
    let mut run = Run::open(variant, spec_text, config, share, out, clock)?;
    let training = run.train()?;
    let speed = run.speed()?;
    let balance = run.fairness()?;
    let games = run.games(&balance)?;
    let plays = run.plays(&balance)?;
    let openings = run.openings(&balance)?;
    let ladder = run.ladder()?;
    let solved = run.solve(&balance)?;
    let theirs = run.compared()?;
    if let Some(shard) = run.shard {
        run.end_shard(shard)?;
        return Ok(None);
    }
    let stages = Stages {
        training,
        speed,
        balance,
        games,
        plays,
        openings,
        ladder,
        solved,
        theirs,
    };
    run.end(stages).map(Some)
}
