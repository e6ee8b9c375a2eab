//! The report's stages, one function each, over the run they share
//! ([`Run`]: the variant, the settings, the folder, the handler, the
//! timings so far); `super::make` calls them in order. Each stage keeps
//! its part in the run folder as it ends, reads it back when resumed, and
//! says its sections' answers to the handler.

use std::path::{Path, PathBuf};
use std::time::Instant;

use murus_ai::proof::{self, Value};
use murus_engine::Variant;
use murus_engine::job::Handler;

use super::bridges::{CheckBridge, RunBridge, StopOnly, TrainBridge};
use super::clock::Clock;
use super::parts::{GamesPart, OpeningsPart, PlaysPart, SharePart, SolvePart, SpeedPart, kept_or};
use super::shards::{self, ShardPart, Share, read_part};
use super::speed::random_playouts;
use super::{
    DesignerReport, PUZZLES_KEPT, Plan, ReportConfig, ReportProgress, ReportSpec, SOLVE_MOST_CELLS,
    STAGES, Timing, assemble, compare, games, openings, plays,
};
use crate::balance::{BalanceConfig, parse_levels, run_balance};
use crate::error::LabError;
use crate::folder::{Mode, Partial, RunFolder, Shard};
use crate::ladder::{Ladder, merge_ladder, play_ladder_shard, run_ladder};
use crate::report::{BalanceReport, strongest};

/// The progress of stage `index`, `done` of `total` in it.
pub(super) fn at(index: usize, done: u64, total: u64) -> ReportProgress {
    ReportProgress {
        stage: STAGES[index],
        index,
        of: STAGES.len(),
        done,
        total,
        section: None,
    }
}

/// What every stage of one report (its shard, its merge) shares.
pub(super) struct Run<'a> {
    /// The variant, with the evaluation its bots use kept with it (one
    /// trained first, with `--train`: [`Run::train`]).
    pub(super) variant: Variant,
    pub(super) spec_text: &'a str,
    pub(super) config: &'a ReportConfig,
    pub(super) plan: Plan,
    pub(super) share: Share<'a>,
    /// The shard played, for a shard.
    pub(super) shard: Option<Shard>,
    /// A merge's shards' folders, shard 1 first; none for a whole report
    /// or a shard.
    pub(super) from: Vec<PathBuf>,
    pub(super) folder: Option<RunFolder<ReportSpec>>,
    /// The caller's handler, timing the stages ([`Clock`]).
    pub(super) handler: &'a Clock<'a>,
    /// The seconds of the stages so far, and the playouts' rate.
    pub(super) timing: Timing,
}

impl<'a> Run<'a> {
    /// Opens the report's folder (`out`), checking a merge's shards.
    pub(super) fn open(
        variant: &'a Variant,
        spec_text: &'a str,
        config: &'a ReportConfig,
        share: Share<'a>,
        out: Option<(&Path, Mode)>,
        handler: &'a Clock<'a>,
    ) -> Result<Run<'a>, LabError> {
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
        let from = match share {
            Share::Merge(dirs) => shards::check(dirs, &spec)?,
            _ => Vec::new(),
        };
        let folder = match out {
            Some((path, mode)) => Some(RunFolder::open(path, &spec, mode)?),
            None => None,
        };
        handler.keep_in(
            folder
                .as_ref()
                .map(|f| f.path().join("parts").join("timing.json")),
        )?;
        Ok(Run {
            variant: variant.clone(),
            spec_text,
            config,
            plan: config.budget.plan(),
            share,
            shard,
            from,
            folder,
            handler,
            timing: Timing::default(),
        })
    }

    /// The folder `name` of the report's, resumed.
    fn sub(&self, name: &str) -> Option<(PathBuf, Mode)> {
        self.folder
            .as_ref()
            .map(|f| (f.path().join(name), Mode::Resume))
    }

    /// The part file `name`.
    fn part(&self, name: &str) -> Option<PathBuf> {
        self.folder
            .as_ref()
            .map(|f| f.path().join("parts").join(name))
    }

    /// Says a section's answer as stage `index` ends.
    fn announce(&self, index: usize, title: &str, answer: String) {
        self.handler.progress(&ReportProgress {
            section: Some((title.to_string(), answer)),
            ..at(index, 1, 1)
        });
    }

    /// An error when the handler says stop: the finished stages are kept.
    pub(super) fn go_on(&self) -> Result<(), LabError> {
        if self.handler.stop() {
            Err(stopped())
        } else {
            Ok(())
        }
    }

    /// Stage `stage` begins: its clock runs ([`Clock`]).
    fn begin(&self, stage: &str) -> Result<(), LabError> {
        self.handler.begin(stage)
    }

    /// Stage `stage` ends: its seconds in every run of the report so far.
    fn took(&mut self, stage: &str) -> Result<(), LabError> {
        let seconds = self.handler.end(stage)?;
        self.timing.seconds.insert(stage.into(), round2(seconds));
        Ok(())
    }

    /// The command that makes the whole report again.
    pub(super) fn command(&self) -> String {
        let config = self.config;
        let mut command = format!(
            "murus report {} --{} --seed {}",
            self.spec_text,
            config.budget.name(),
            config.seed
        );
        if let Some((_, other)) = &config.compare {
            command += &format!(" --compare {other}");
        }
        if config.train {
            command += " --train";
        }
        command
    }

    /// Stage 0: an evaluation for the bots, with `--train`: what training did, in
    /// words.
    pub(super) fn train(&mut self) -> Result<Option<String>, LabError> {
        let training = if self.config.train {
            let bridge = TrainBridge {
                outer: self.handler,
                stage: &at,
            };
            let dir = self.folder.as_ref().map(|f| f.path().join("train"));
            let (variant, words) = crate::train::train_if_generic(
                &self.variant,
                (self.config.train_positions).unwrap_or(self.plan.train_positions),
                self.config.seed,
                self.config.threads,
                dir.as_deref(),
                &bridge,
            )?;
            self.variant = variant;
            words
        } else {
            None
        };
        if let Some(t) = &training {
            self.announce(0, "Training", t.clone());
        }
        self.go_on()?;
        Ok(training)
    }

    /// Stage 1: speed and size: random playouts, and the standard game's beside
    /// them.
    pub(super) fn speed(&mut self) -> Result<SpeedPart, LabError> {
        let (variant, plan, seed) = (&self.variant, self.plan, self.config.seed);
        self.begin("speed")?;
        self.handler.progress(&at(1, 0, plan.playouts));
        let speed: SpeedPart = kept_or(self.part("speed.json"), || {
            if let Some(first) = self.from.first() {
                return read_part(first, "speed.json");
            }
            let started = Instant::now();
            let (playouts, rate) = random_playouts(variant, plan.playouts, seed);
            let standard = (variant.name() != "standard").then(|| {
                let s = Variant::standard();
                random_playouts(&s, plan.playouts, seed)
            });
            Ok(SpeedPart {
                playouts,
                rate,
                standard: standard.as_ref().map(|s| s.0.clone()),
                standard_rate: standard.map(|s| s.1),
                seconds: started.elapsed().as_secs_f64(),
            })
        })?;
        self.timing.playouts_per_second = speed.rate.round();
        self.timing.standard_playouts_per_second = speed.standard_rate.map(f64::round);
        self.took("speed")?;
        self.announce(1, "Speed and size", assemble::speed_answer(&speed));
        self.go_on()?;
        Ok(speed)
    }

    /// Stage 2: fairness by level: the balance check (played, its shard, or
    /// merged from the shards'), and the games' quality.
    pub(super) fn fairness(&mut self) -> Result<BalanceReport, LabError> {
        self.begin("balance")?;
        let balance_config = BalanceConfig {
            shard: self.shard.map(Shard::pair),
            ..self.config.balance()?
        };
        let bridge = CheckBridge {
            outer: self.handler,
            stage: &at,
        };
        let balance_dir = self.sub("balance");
        let balance = if self.from.is_empty() {
            run_balance(
                &self.variant,
                &balance_config,
                balance_dir.as_ref().map(|(p, m)| (p.as_path(), *m)),
                &bridge,
            )?
        } else {
            let dirs: Vec<_> = self.from.iter().map(|d| d.join("balance")).collect();
            let refs: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
            let out = balance_dir.as_ref().map(|(p, _)| p.as_path());
            crate::balance::merge_balance(&refs, out, Partial::Refuse)?
        };
        if balance.interrupted {
            return Err(stopped());
        }
        self.go_on()?;
        self.took("balance")?;
        if self.shard.is_none() {
            let fair = assemble::fairness_answer(&self.variant, &balance);
            self.announce(2, "Fairness by level", fair);
            let quality = assemble::quality_section(&balance).answer;
            self.announce(2, "Game quality", quality);
        }
        Ok(balance)
    }

    /// The balance check's folder and its strongest level, where a whole
    /// report (or a merge) reads that level's games.
    fn strongest_games(&self, balance: &BalanceReport) -> Option<(PathBuf, String)> {
        let (dir, _) = self.sub("balance")?;
        let level = strongest(balance)?.level.clone();
        self.shard.is_none().then_some((dir, level))
    }

    /// Stage 3: the strongest level's games: a representative one, and tactics.
    pub(super) fn games(&mut self, balance: &BalanceReport) -> Result<Option<GamesPart>, LabError> {
        self.handler.progress(&at(3, 0, 0));
        let Some((dir, level)) = self.strongest_games(balance) else {
            return Ok(None);
        };
        self.begin("games")?;
        let (variant, config, plan) = (&self.variant, self.config, self.plan);
        let part = kept_or(self.part("games.json"), || {
            let started = Instant::now();
            let games = games::level_games(&dir, &level)?;
            let game =
                games::representative(variant, &level, &games, config.openings, plan.review_nodes);
            let tactics = (variant.player_count() == 2).then(|| {
                games::harvest(
                    variant,
                    &level,
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
        })?;
        self.took("games")?;
        if let Some(game) = &part.game {
            self.announce(3, "A representative game", game.answer.clone());
        }
        if let Some(t) = &part.tactics {
            self.announce(3, "Tactics", t.answer.clone());
        }
        Ok(Some(part))
    }

    /// Stage 3: the course of play: the strongest level's games by ply and on
    /// the board, every level's endings.
    pub(super) fn plays(&mut self, balance: &BalanceReport) -> Result<Option<PlaysPart>, LabError> {
        let Some((dir, level)) = self.strongest_games(balance) else {
            self.go_on()?;
            return Ok(None);
        };
        self.begin("plays")?;
        let (variant, openings) = (&self.variant, self.config.openings);
        let part = kept_or(self.part("plays.json"), || {
            let started = Instant::now();
            let games = games::level_games(&dir, &level)?;
            let (curves, board) = plays::curves_and_board(variant, &level, &games, openings);
            let levels = (balance.levels.iter())
                .map(|l| Ok((l.level.clone(), games::level_games(&dir, &l.level)?)))
                .collect::<Result<Vec<_>, LabError>>()?;
            Ok(PlaysPart {
                curves,
                board,
                endings: plays::endings(variant, &levels),
                seconds: started.elapsed().as_secs_f64(),
            })
        })?;
        self.took("plays")?;
        self.announce(3, "The course of play", part.curves.answer.clone());
        self.announce(3, "On the board", part.board.answer.clone());
        self.announce(3, "How games end", part.endings.answer.clone());
        self.go_on()?;
        Ok(Some(part))
    }

    /// Stage 4: openings (two players): the first moves ranked by the games of
    /// the balance check's strongest level (a report with a folder, its
    /// shards and their merge: no games of its own), or by games of the
    /// budget's level played here (a report without a folder), each scored
    /// by the search.
    pub(super) fn openings(
        &mut self,
        balance: &BalanceReport,
    ) -> Result<Option<OpeningsPart>, LabError> {
        self.handler.progress(&at(4, 0, 0));
        if self.variant.player_count() != 2 {
            self.go_on()?;
            return Ok(None);
        }
        self.begin("openings")?;
        let (variant, config, plan) = (&self.variant, self.config, self.plan);
        let strongest_bot = strongest(balance).and_then(|l| l.bot.parse().ok());
        let level = parse_levels(plan.openings_level)?.pop().expect("a level");
        // The balance check's games, where the folder keeps them: a shard
        // studies the searches alone, its merge counts the merged games.
        let reuse = self.folder.is_some();
        let kept_games = self.strongest_games(balance);
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
                !reuse,
            )?;
            Ok(SharePart {
                share,
                seconds: started.elapsed().as_secs_f64(),
            })
        };
        let part = match (strongest_bot, self.share) {
            (None, _) => None,
            (Some(strongest), Share::Shard(s)) => {
                kept_or(self.part("openings-share.json"), || {
                    play(&strongest, Some(s))
                })?;
                None
            }
            (Some(strongest), _) => Some(kept_or(self.part("openings.json"), || {
                let whole = if self.from.is_empty() {
                    play(&strongest, None)?
                } else {
                    let parts: Vec<SharePart> = (self.from.iter())
                        .map(|d| read_part(d, "openings-share.json"))
                        .collect::<Result<_, _>>()?;
                    let seconds = parts.iter().map(|p| p.seconds).fold(0.0, f64::max);
                    let share = openings::OpeningsShare::merged(
                        parts.into_iter().map(|p| p.share).collect(),
                    )
                    .ok_or_else(|| LabError::Invalid("no shard to merge".into()))?;
                    SharePart { share, seconds }
                };
                let study = match &kept_games {
                    Some((dir, level)) if reuse => {
                        let games = games::level_games(dir, level)?;
                        openings::with_results(variant, whole.share, level, &games)
                    }
                    _ => whole.share,
                };
                Ok(OpeningsPart {
                    section: openings::section(study),
                    seconds: whole.seconds,
                })
            })?),
        };
        if let Some(o) = &part {
            self.took("openings")?;
            self.announce(4, "Openings", o.section.answer.clone());
        }
        self.go_on()?;
        Ok(part)
    }

    /// Stage 5: the skill ladder (two players): climbed, its shard's share
    /// played, or climbed on the shards' matches.
    pub(super) fn ladder(&mut self) -> Result<Option<Ladder>, LabError> {
        if self.variant.player_count() != 2 {
            return Ok(None);
        }
        self.begin("ladder")?;
        let bridge = RunBridge {
            outer: self.handler,
            stage: &at,
        };
        let (variant, config) = (&self.variant, self.config.ladder());
        let here = self.folder.as_ref().map(|f| (f.path(), Mode::Resume));
        let ladder = match (self.share, here) {
            (Share::Shard(s), Some(here)) => {
                if !play_ladder_shard(variant, &config, s, here, &bridge)? {
                    return Err(stopped());
                }
                None
            }
            (Share::Merge(_), Some((path, _))) => {
                let refs: Vec<&Path> = self.from.iter().map(PathBuf::as_path).collect();
                Some(merge_ladder(variant, &config, &refs, path, &bridge)?)
            }
            _ => Some(run_ladder(variant, &config, here, &bridge)?),
        };
        let interrupted = ladder
            .as_ref()
            .is_some_and(|l| l.end == crate::ladder::End::Interrupted);
        if interrupted {
            self.go_on()?;
        }
        self.took("ladder")?;
        if let Some(l) = &ladder {
            self.announce(5, "Depth: the skill ladder", format!("{}.", l.answer()));
        }
        Ok(ladder)
    }

    /// Stage 6: the proof search (two players; in a shard's run, shard 1's
    /// alone: the search cannot be split).
    pub(super) fn solve(&mut self, balance: &BalanceReport) -> Result<Option<SolvePart>, LabError> {
        let (variant, plan) = (&self.variant, self.plan);
        self.handler.progress(&at(6, 0, plan.solve_nodes));
        let proves = variant.player_count() == 2 && self.shard.is_none_or(|s| s.k == 1);
        if !proves {
            return Ok(None);
        }
        self.begin("solve")?;
        let handler = self.handler;
        let part: SolvePart = kept_or(self.part("solve.json"), || {
            if let Some(first) = self.from.first() {
                return read_part(first, "solve.json");
            }
            // Where the rules decide a game at the ply cap, the cap is part
            // of the game: solved with it.
            let with_cap = variant.rules().adjudicate.is_some();
            let cells = variant.geometry().cell_count();
            if cells > SOLVE_MOST_CELLS {
                return Ok(SolvePart {
                    value: None,
                    winning: Vec::new(),
                    nodes: 0,
                    seconds: 0.0,
                    with_cap,
                    not_attempted: Some(cells),
                });
            }
            let started = Instant::now();
            let limits = proof::Limits {
                nodes: plan.solve_nodes,
                table_mib: 256,
            };
            // Ctrl-C stops the search; a stopped search is not kept (its
            // part must not depend on when the stop came), and is run again
            // whole by `--resume`.
            let stop = StopOnly(handler);
            let found = if with_cap {
                let line = proof::Line::start(variant).map_err(LabError::Invalid)?;
                proof::solve_line(variant, &line, limits, &stop)
            } else {
                proof::solve(variant, &variant.start(), limits, &stop)
            }
            .map_err(LabError::Invalid)?;
            if found.value.is_none() && handler.stop() {
                return Err(stopped());
            }
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
                not_attempted: None,
            })
        })?;
        self.took("solve")?;
        if self.shard.is_none() {
            let section = assemble::solved_section(
                &self.variant,
                self.spec_text,
                plan.solve_nodes,
                part.clone(),
                balance,
            );
            self.announce(6, "Solved?", section.answer);
        }
        Ok(Some(part))
    }

    /// The variant compared with, reported alike: whole, in the same
    /// shard, or merged from the shards' folders.
    pub(super) fn compared(&self) -> Result<Option<DesignerReport>, LabError> {
        let Some((other, other_text)) = &self.config.compare else {
            return Ok(None);
        };
        let alone = ReportConfig {
            compare: None,
            ..self.config.clone()
        };
        let dir = (self.folder.as_ref()).map(|f| f.path().join("compare").join(other.name()));
        let theirs_shards: Vec<PathBuf> = (self.from.iter())
            .map(|d| d.join("compare").join(other.name()))
            .collect();
        let theirs_share = match self.share {
            Share::Merge(_) => Share::Merge(&theirs_shards),
            whole_or_shard => whole_or_shard,
        };
        super::make(
            other,
            other_text,
            &alone,
            theirs_share,
            dir.as_ref().map(|d| (d.as_path(), Mode::Resume)),
            self.handler,
        )
    }

    /// A shard's end, which a merge looks for (`parts/shard.json`).
    pub(super) fn end_shard(self, shard: Shard) -> Result<(), LabError> {
        if let Some(f) = &self.folder {
            let part = ShardPart {
                shard: shard.to_string(),
                variant: self.spec_text.to_string(),
                compare: (self.config.compare.as_ref()).map(|(_, text)| text.clone()),
                timing: self.timing,
            };
            kept_or(Some(f.path().join(shards::FINISHED)), || Ok(part))?;
        }
        Ok(())
    }

    /// The report of the stages' parts, written as `report.json` into the
    /// folder: a merge's timings are the longest each stage took in a
    /// shard.
    pub(super) fn end(mut self, stages: Stages) -> Result<DesignerReport, LabError> {
        if !self.from.is_empty() {
            shards::wall_times(&self.from, &mut self.timing)?;
        }
        let command = self.command();
        let mut report = assemble::assemble(
            &self.variant,
            self.spec_text,
            self.config,
            command,
            stages.speed,
            stages.balance,
            stages.ladder,
            stages.solved,
            self.timing,
        );
        if let Some(g) = stages.games {
            report.game = g.game;
            report.tactics = g.tactics;
        }
        report.openings = stages.openings.map(|o| o.section);
        if let Some(p) = stages.plays {
            report.curves = Some(p.curves);
            report.board = Some(p.board);
            report.endings = Some(p.endings);
        }
        report.training = stages.training;
        report.comparison = (stages.theirs).map(|theirs| compare(&report, &theirs));
        if let Some(f) = &self.folder {
            let json = serde_json::to_string_pretty(&report)
                .map_err(|e| LabError::Invalid(format!("report.json: {e}")))?;
            f.write_outputs(&[("report.json", json + "\n")])?;
        }
        Ok(report)
    }
}

/// What the stages made, for [`Run::end`].
pub(super) struct Stages {
    pub(super) training: Option<String>,
    pub(super) speed: SpeedPart,
    pub(super) balance: BalanceReport,
    pub(super) games: Option<GamesPart>,
    pub(super) plays: Option<PlaysPart>,
    pub(super) openings: Option<OpeningsPart>,
    pub(super) ladder: Option<Ladder>,
    pub(super) solved: Option<SolvePart>,
    pub(super) theirs: Option<DesignerReport>,
}

/// A stopped report's error.
fn stopped() -> LabError {
    LabError::Invalid("the report was stopped: --resume goes on".into())
}

fn round2(x: f64) -> f64 {
    crate::stats::round_to(x, 2)
}
