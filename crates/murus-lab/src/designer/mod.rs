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
mod compare;
mod games;
mod openings;
mod parts;
mod plays;
mod sections;
mod shards;
mod speed;

use std::path::Path;
use std::time::Instant;

use murus_ai::proof::{self, Value};
use murus_engine::Variant;
use murus_engine::job::Handler;
use serde::{Deserialize, Serialize};

pub use crate::text::reason_words;
pub use compare::{Comparison, Row, compare};
pub use games::{CLEAR_CP, GameSection, PROVEN_CP, PuzzleEntry, TacticsSection, replay};
pub use openings::{OpeningMove, OpeningsSection, REPLIES as OPENING_REPLIES};
pub use plays::{
    Band, BoardSection, CurvesSection, Ending, EndingsSection, FirstMove, LevelEndings,
    MIN_FIRST_GAMES, MIN_GOING,
};
pub use sections::{
    DesignerReport, FairnessSection, LadderSection, QualitySection, RulesSection, SolvedSection,
    SpeedSection, Timing,
};
pub use shards::{ShardOf, shard_of};
pub use speed::{Distribution, Playouts, random_playouts};

use crate::balance::{BalanceConfig, Stopping, parse_levels, run_balance};
use crate::error::LabError;
use crate::folder::{
    Differences, Mode, Partial, RunFolder, Settings, Shard, Sharded, Spec, or_none,
};
use crate::ladder::{LadderConfig, merge_ladder, play_ladder_shard, run_ladder};
use crate::record::VariantId;
use crate::report::strongest;
use bridges::{CheckBridge, Never, RunBridge, TrainBridge};
use parts::{GamesPart, OpeningsPart, PlaysPart, SharePart, kept_or};
use parts::{SolvePart, SpeedPart};
use shards::{ShardPart, Share, read_part};

/// The layout of `report.json` this version writes.
pub const FORMAT: u32 = 1;

/// Puzzles a report keeps (the hardest first).
pub const PUZZLES_KEPT: usize = 12;

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
                ladder_block: 20,
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
                ladder_block: 40,
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
                ladder_block: 80,
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
    /// The most games of each ladder match.
    pub ladder_games: u64,
    /// Games between two looks of a ladder match's sequential test.
    pub ladder_block: u64,
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
    pub shard: Option<String>,
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
            shard: shard.map(|s| s.to_string()),
        }
    }
}

impl Sharded for ReportSpec {
    fn shard(&mut self) -> &mut Option<String> {
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
    stages(variant, spec_text, config, Share::Whole, out, handler)?
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
    stages(
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
    stages(
        variant,
        spec_text,
        config,
        Share::Merge(shards),
        Some(out),
        handler,
    )?
    .ok_or_else(|| LabError::Invalid("a merge made no report".into()))
}

/// The stages of a report, its shard, or its merge (`share`).
fn stages(
    variant: &Variant,
    spec_text: &str,
    config: &ReportConfig,
    share: Share,
    out: Option<(&Path, Mode)>,
    handler: &dyn Handler<ReportProgress>,
) -> Result<Option<DesignerReport>, LabError> {
    if config.train && !matches!(share, Share::Whole) {
        return Err(LabError::Invalid(
            "a report that trains cannot be sharded: train the variant first (`murus train`) or make the report whole".into(),
        ));
    }
    let shard = match share {
        Share::Shard(s) => Some(s),
        _ => None,
    };
    let spec = ReportSpec::of(variant, config, shard);
    // A merge's shards' folders, shard 1 first; none for a whole report
    // or a shard.
    let from: Vec<std::path::PathBuf> = match share {
        Share::Merge(dirs) => shards::check(dirs, &spec)?,
        _ => Vec::new(),
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
        if let Some(first) = from.first() {
            return read_part(first, "speed.json");
        }
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
    let balance_config = BalanceConfig {
        shard: shard.map(Shard::pair),
        ..config.balance()?
    };
    let bridge = CheckBridge {
        outer: handler,
        stage: &stage,
    };
    let balance_dir = sub("balance");
    let balance = if from.is_empty() {
        run_balance(
            variant,
            &balance_config,
            balance_dir.as_ref().map(|(p, m)| (p.as_path(), *m)),
            &bridge,
        )?
    } else {
        let dirs: Vec<_> = from.iter().map(|d| d.join("balance")).collect();
        let refs: Vec<&Path> = dirs.iter().map(std::path::PathBuf::as_path).collect();
        let out = balance_dir.as_ref().map(|(p, _)| p.as_path());
        crate::balance::merge_balance(&refs, out, Partial::Refuse)?
    };
    if balance.interrupted || handler.stop() {
        return Err(stopped());
    }
    timing
        .seconds
        .insert("balance".into(), round2(started.elapsed().as_secs_f64()));
    if shard.is_none() {
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
    }

    // 3. The strongest level's games: a representative one, and tactics.
    handler.progress(&stage(3, 0, 0));
    let strongest_level = strongest(&balance).map(|l| l.level.clone());
    let games_part: Option<GamesPart> = match (&balance_dir, &strongest_level) {
        (Some((dir, _)), Some(level)) if shard.is_none() => {
            Some(kept_or(part("games.json"), || {
                let started = Instant::now();
                let games = games::level_games(dir, level)?;
                let game = games::representative(
                    variant,
                    level,
                    &games,
                    config.openings,
                    plan.review_nodes,
                );
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
            })?)
        }
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
    // The course of play: the strongest level's games by ply and on the
    // board, every level's endings.
    let plays_part: Option<PlaysPart> = match (&balance_dir, &strongest_level) {
        (Some((dir, _)), Some(level)) if shard.is_none() => {
            Some(kept_or(part("plays.json"), || {
                let started = Instant::now();
                let games = games::level_games(dir, level)?;
                let (curves, board) =
                    plays::curves_and_board(variant, level, &games, config.openings);
                let levels = (balance.levels.iter())
                    .map(|l| Ok((l.level.clone(), games::level_games(dir, &l.level)?)))
                    .collect::<Result<Vec<_>, LabError>>()?;
                Ok(PlaysPart {
                    curves,
                    board,
                    endings: plays::endings(variant, &levels),
                    seconds: started.elapsed().as_secs_f64(),
                })
            })?)
        }
        _ => None,
    };
    if let Some(p) = &plays_part {
        timing.seconds.insert("plays".into(), round2(p.seconds));
        announce(3, "The course of play", p.curves.answer.clone());
        announce(3, "On the board", p.board.answer.clone());
        announce(3, "How games end", p.endings.answer.clone());
    }
    if handler.stop() {
        return Err(stopped());
    }

    // 4. Openings (two players).
    handler.progress(&stage(4, 0, 0));
    let openings_part: Option<OpeningsPart> = if variant.player_count() == 2 {
        let strongest_bot = strongest(&balance).and_then(|l| l.bot.parse().ok());
        let level = parse_levels(plan.openings_level)?.pop().expect("a level");
        let play = |strongest: &murus_ai::BotSpec, shard| {
            let started = Instant::now();
            let share = openings::play(
                variant,
                (&level.name, &level.spec),
                strongest,
                plan.review_nodes,
                config.seed,
                config.threads,
                shard,
            )?;
            Ok(SharePart {
                share,
                seconds: started.elapsed().as_secs_f64(),
            })
        };
        match (strongest_bot, share) {
            (None, _) => None,
            (Some(strongest), Share::Shard(s)) => {
                kept_or(part("openings-share.json"), || play(&strongest, Some(s)))?;
                None
            }
            (Some(strongest), _) => Some(kept_or(part("openings.json"), || {
                let whole = if from.is_empty() {
                    play(&strongest, None)?
                } else {
                    let parts: Vec<SharePart> = from
                        .iter()
                        .map(|d| read_part(d, "openings-share.json"))
                        .collect::<Result<_, _>>()?;
                    let seconds = parts.iter().map(|p| p.seconds).fold(0.0, f64::max);
                    let share = openings::OpeningsShare::merged(
                        parts.into_iter().map(|p| p.share).collect(),
                    )
                    .ok_or_else(|| LabError::Invalid("no shard to merge".into()))?;
                    SharePart { share, seconds }
                };
                Ok(OpeningsPart {
                    section: openings::section(whole.share),
                    seconds: whole.seconds,
                })
            })?),
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
        let here = folder.as_ref().map(|f| (f.path(), Mode::Resume));
        let ladder = match (share, here) {
            (Share::Shard(s), Some(here)) => {
                if !play_ladder_shard(variant, &config.ladder(), s, here, &bridge)? {
                    return Err(stopped());
                }
                None
            }
            (Share::Merge(_), Some((path, _))) => {
                let refs: Vec<&Path> = from.iter().map(std::path::PathBuf::as_path).collect();
                Some(merge_ladder(
                    variant,
                    &config.ladder(),
                    &refs,
                    path,
                    &bridge,
                )?)
            }
            _ => Some(run_ladder(variant, &config.ladder(), here, &bridge)?),
        };
        if ladder
            .as_ref()
            .is_some_and(|l| l.end == crate::ladder::End::Interrupted)
            && handler.stop()
        {
            return Err(stopped());
        }
        timing
            .seconds
            .insert("ladder".into(), round2(started.elapsed().as_secs_f64()));
        if let Some(l) = &ladder {
            announce(5, "Depth: the skill ladder", format!("{}.", l.answer()));
        }
        ladder
    } else {
        None
    };

    // 6. The proof search.
    handler.progress(&stage(6, 0, plan.solve_nodes));
    // One shard proves: the search cannot be split.
    let proves = two && shard.is_none_or(|s| s.k == 1);
    let solved = if proves {
        let part: SolvePart = kept_or(part("solve.json"), || {
            if let Some(first) = from.first() {
                return read_part(first, "solve.json");
            }
            let started = Instant::now();
            let limits = proof::Limits {
                nodes: plan.solve_nodes,
                table_mib: 256,
            };
            // Where the rules decide a game at the ply cap, the cap is part
            // of the game: solved with it.
            let with_cap = variant.rules().adjudicate.is_some();
            let found = if with_cap {
                let line = proof::Line::start(variant).map_err(LabError::Invalid)?;
                proof::solve_line(variant, &line, limits, &Never)
            } else {
                proof::solve(variant, &variant.start(), limits, &Never)
            }
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
                with_cap,
            })
        })?;
        timing.seconds.insert("solve".into(), round2(part.seconds));
        if shard.is_none() {
            let section = assemble::solved_section(
                variant,
                spec_text,
                plan.solve_nodes,
                part.clone(),
                &balance,
            );
            announce(6, "Solved?", section.answer);
        }
        Some(part)
    } else {
        None
    };

    // The variant compared with, reported alike: whole, in the same shard,
    // or merged from the shards' folders.
    let theirs = match &config.compare {
        Some((other, other_text)) => {
            let alone = ReportConfig {
                compare: None,
                ..config.clone()
            };
            let dir = folder
                .as_ref()
                .map(|f| f.path().join("compare").join(other.name()));
            let theirs_shards: Vec<std::path::PathBuf> = from
                .iter()
                .map(|d| d.join("compare").join(other.name()))
                .collect();
            let theirs_share = match share {
                Share::Merge(_) => Share::Merge(&theirs_shards),
                whole_or_shard => whole_or_shard,
            };
            stages(
                other,
                other_text,
                &alone,
                theirs_share,
                dir.as_ref().map(|d| (d.as_path(), Mode::Resume)),
                handler,
            )?
        }
        None => None,
    };

    if let Some(s) = shard {
        // The shard's end, which a merge looks for.
        if let Some(f) = &folder {
            let part = ShardPart {
                shard: s.to_string(),
                variant: spec_text.to_string(),
                compare: config.compare.as_ref().map(|(_, text)| text.clone()),
                timing,
            };
            kept_or(Some(f.path().join(shards::FINISHED)), || Ok(part))?;
        }
        return Ok(None);
    }
    if !from.is_empty() {
        shards::wall_times(&from, &mut timing)?;
    }

    let mut report = assemble::assemble(
        variant, spec_text, config, command, speed, balance, ladder, solved, timing,
    );
    if let Some(g) = games_part {
        report.game = g.game;
        report.tactics = g.tactics;
    }
    report.openings = openings_part.map(|o| o.section);
    if let Some(p) = plays_part {
        report.curves = Some(p.curves);
        report.board = Some(p.board);
        report.endings = Some(p.endings);
    }
    report.training = training;
    report.comparison = theirs.map(|theirs| compare(&report, &theirs));
    if let Some(f) = &folder {
        let json = serde_json::to_string_pretty(&report)
            .map_err(|e| LabError::Invalid(format!("report.json: {e}")))?;
        f.write_outputs(&[("report.json", json + "\n")])?;
    }
    Ok(Some(report))
}

fn round2(x: f64) -> f64 {
    crate::stats::round_to(x, 2)
}
