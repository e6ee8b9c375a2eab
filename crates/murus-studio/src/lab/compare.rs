//! "Compare variants" in the Lab, without egui: two or more rules files
//! balance-checked with the same settings, or the rows of a sweep's results
//! (`sweep.json`, written by `murus sweep`), side by side, the best one
//! picked out.
//!
//! A rules file is checked in the background ([`checks::play`]), each in
//! a folder of its own among the Lab's balance checks, unless a complete
//! check of the same spec (the same rules text, by its SHA-256, and the
//! same settings: [`checks::find_complete`]) is already kept there: that
//! one is reused, since it would play the very same games. The checks run
//! on the Lab's one job panel ([`JobPanel`] over [`CompareJob`]), as runs,
//! checks and reports do; the sweep's results are read by murus-lab
//! ([`sweep::read_sweep`]).
//!
//! **The best column.** Columns are ranked as `murus sweep` ranks its
//! combinations (`docs/balance.md`, "The ranking": [`sweep::assess`]): by
//! tier (unplayable < broken < unbalanced < playable), then by fitness (100
//! less the first player's largest distance from the fair rate, less the
//! plies outside the ideal length), then in the order listed. A sweep's
//! rows keep the ranks it gave them; rules files are ranked among
//! themselves once their checks are complete (a cancelled or failed check
//! is not ranked). The column ranked first is the best, when two or more
//! are ranked.

use std::path::{Path, PathBuf};

use murus_engine::Variant;
use murus_lab::balance::{BalanceReport, CheckProgress};
use murus_lab::sweep::{self, SweepReport, Tier};
use serde::{Deserialize, Serialize};

use super::balance::{CheckStages, CheckStatus, status_of};
use super::checks::{self, CheckMsg, CheckSettings, PastCheck};
use super::job::{JobError, JobKind, JobPanel};
use super::progress::Advance;
use crate::Feedback;
use crate::worker::{Busy, Waker, no_waker};

/// What "Compare variants" keeps across restarts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompareSaved {
    /// The rules files chosen (paths).
    pub files: Vec<String>,
    /// The path of a sweep's results (`sweep.json`).
    pub sweep: String,
}

impl CompareSaved {
    /// Whether `file` is chosen.
    pub fn has(&self, file: &Path) -> bool {
        self.files.iter().any(|f| Path::new(f) == file)
    }

    /// Chooses or drops `file`.
    pub fn set(&mut self, file: &Path, on: bool) {
        self.files.retain(|f| Path::new(f) != file);
        if on {
            self.files.push(file.display().to_string());
        }
    }
}

/// Where a column comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// A rules file, checked here.
    File { path: PathBuf, sha256: String },
    /// A row of a sweep's results: its combination's number.
    Sweep { index: u64 },
}

/// A column's place in the ranking ([`sweep::assess`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Ranking {
    /// From 1 (best).
    pub rank: u64,
    pub tier: Tier,
    pub fitness: f64,
    /// Why the column is in its tier, a sentence each.
    pub flags: Vec<String>,
}

/// Where a column's check stands.
#[derive(Clone, Debug, PartialEq)]
pub enum ColumnState {
    /// To be checked after those before it.
    Waiting,
    /// Being checked now.
    Running,
    /// Checked now, in this folder.
    Checked(PathBuf),
    /// A complete check kept earlier, in this folder, started at this time
    /// (seconds since 1970), stands for it.
    Reused { folder: PathBuf, started: u64 },
    /// From a sweep's results.
    FromSweep,
    /// It cannot be checked, or its check failed: why.
    Failed(String),
}

/// One variant of the comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// `tiny.mg`, or a sweep row's parameters (`files=7 ranks=6`).
    pub label: String,
    pub origin: Origin,
    pub state: ColumnState,
    /// Its balance check, once there.
    pub report: Option<BalanceReport>,
    /// Its place in the ranking, once ranked.
    pub ranking: Option<Ranking>,
}

impl Column {
    /// Where its figures come from, in words.
    pub fn source_text(&self) -> String {
        match (&self.state, &self.origin) {
            (ColumnState::Waiting, _) => "waiting".into(),
            (ColumnState::Running, _) => "being checked".into(),
            (ColumnState::Checked(_), _) => "checked now".into(),
            (ColumnState::Reused { started, .. }, _) => {
                format!("a check kept from {}", super::runs::date_time(*started))
            }
            (ColumnState::FromSweep, Origin::Sweep { index }) => {
                format!("sweep, combination {}", index + 1)
            }
            (ColumnState::FromSweep, _) => "sweep".into(),
            (ColumnState::Failed(e), _) => e.clone(),
        }
    }

    /// The first player's largest distance from the fair rate over the
    /// levels, in points.
    pub fn edge(&self) -> Option<f64> {
        let r = self.report.as_ref()?;
        r.levels
            .iter()
            .filter(|l| l.report.games > 0)
            .map(|l| (l.report.first_player_advantage.advantage * 100.0).abs())
            .reduce(f64::max)
    }
}

/// What the checks of a comparison are called while they go on
/// ([`Busy`]).
const CHECKS: &str = "the checks of a comparison";

/// The checks of a comparison as a kind of lab job ([`JobPanel`]). They
/// are balance checks, kept and listed in Balance's history, which offers
/// the one a crash cut short: a comparison lists and offers none itself.
#[derive(Debug)]
pub struct CompareJob;

impl JobKind for CompareJob {
    type Msg = CheckMsg;
    type Kept = PastCheck;
    const WHAT: &'static str = CHECKS;
    const DISCARDED: &'static str = "";

    fn list(_: &Path) -> Vec<PastCheck> {
        Vec::new()
    }

    fn set_stopped_by_user(folder: &Path, stopped: bool) -> Result<(), JobError> {
        checks::set_stopped_by_user(folder, stopped)
    }
}

/// "Compare variants".
#[derive(Debug)]
pub struct CompareModel {
    columns: Vec<Column>,
    /// What the columns are: `2 rules files, random, 20 games a level` or
    /// the sweep's file.
    title: String,
    /// Plays the checks (kept in the runs folder), and the panel's message.
    jobs: JobPanel<CompareJob>,
    /// The column and the folder of each check going on, in order.
    requests: Vec<(usize, PathBuf)>,
    /// The check under way.
    current: Option<usize>,
    /// Where it stands, as it last said.
    progress: Option<CheckProgress>,
    /// The stages of each check going on, and how far the checks have
    /// gone together: the bar never goes back.
    stages: Vec<CheckStages>,
    advance: Advance,
}

/// The label of a rules file: its file name.
fn file_label(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Compiles the rules file `path`, or says why it does not compile
/// (`tiny.mg:3:5: unknown …`: the file by its label, as its column is).
fn compile_file(path: &Path) -> Result<Variant, JobError> {
    let label = file_label(path);
    let source = std::fs::read_to_string(path).map_err(JobError::io(Path::new(&label)))?;
    JobError::compile(&label, &source)
}

/// The sweep's results at `path`: the `sweep.json` that `murus sweep`
/// writes, or its folder, read by murus-lab ([`sweep::read_sweep`]).
fn read_sweep(path: &Path) -> Result<SweepReport, JobError> {
    let folder = if path.is_dir() {
        path
    } else if path.file_name().is_some_and(|n| n == "sweep.json") {
        path.parent().unwrap_or(Path::new("."))
    } else {
        return Err(JobError::refused(format!(
            "{}: a sweep's results are its sweep.json (murus sweep writes it): \
             give that file or its folder",
            path.display()
        )));
    };
    Ok(sweep::read_sweep(folder)?)
}

impl CompareModel {
    /// No columns; the checks are kept in the runs folder `runs`, and call
    /// `waker` when they report.
    pub fn with_waker(runs: &Path, waker: Waker) -> CompareModel {
        CompareModel {
            columns: Vec::new(),
            title: String::new(),
            jobs: JobPanel::new(runs, waker),
            requests: Vec::new(),
            current: None,
            progress: None,
            stages: Vec::new(),
            advance: Advance::new(),
        }
    }

    /// No columns; the checks, kept in `runs`, wake nobody (tests drive
    /// the model).
    pub fn new(runs: &Path) -> CompareModel {
        CompareModel::with_waker(runs, no_waker())
    }

    /// Keeps the checks in the runs folder `runs` from now on.
    pub fn set_runs_dir(&mut self, runs: &Path) {
        self.jobs.set_runs_dir(runs);
    }

    /// The columns, in the order chosen (a sweep's: best first).
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// What the columns compare.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The panel's message.
    pub fn feedback(&self) -> &Feedback {
        self.jobs.feedback()
    }

    /// The settings changed: messages about the old ones no longer apply.
    pub fn settings_changed(&mut self) {
        self.jobs.feedback_mut().changed();
    }

    /// Whether checks are under way.
    pub fn is_running(&self) -> bool {
        self.jobs.is_running()
    }

    /// Whether it was asked to stop and has not stopped yet.
    pub fn is_cancelling(&self) -> bool {
        self.jobs.is_cancelling()
    }

    /// The work under way, when the model cannot start anything now.
    pub fn busy(&self) -> Option<Busy> {
        self.jobs.busy()
    }

    /// The progress of the checks going on: `Variant 2 of 3 (tiny.mg):
    /// level 1/1: random: 40 / 200 games`.
    pub fn status(&self) -> Option<CheckStatus> {
        if !self.is_running() {
            return None;
        }
        let mut s = status_of(
            self.progress.clone(),
            self.advance.fraction(),
            self.jobs.is_cancelling(),
        );
        if let Some(i) = self.current {
            let column = &self.columns[self.requests[i].0];
            s.text = format!(
                "Variant {} of {} ({}): {}",
                i + 1,
                self.requests.len(),
                column.label,
                s.text
            );
        }
        Some(s)
    }

    /// Compares the rules files `files` balance-checked with `settings`:
    /// each is checked in the background (kept under the runs folder),
    /// unless a complete check of the same rules and settings is kept there
    /// already. A file that does not compile gets a column that says why;
    /// the others go on. Refused (with a message) while checks go on, with
    /// fewer than two files, or with settings that make no check.
    pub fn compare_files(&mut self, files: &[PathBuf], settings: &CheckSettings) {
        if !self.jobs.ready() {
            return;
        }
        if files.len() < 2 {
            self.jobs
                .feedback_mut()
                .error("choose two or more rules files to compare");
            return;
        }
        let config = match settings.config(super::job::threads()) {
            Ok(c) => c,
            Err(e) => {
                self.jobs.feedback_mut().error(e.to_string());
                return;
            }
        };
        let runs = self.jobs.runs_dir().to_path_buf();
        let mut columns = Vec::new();
        let mut requests = Vec::new();
        let mut request_columns = Vec::new();
        let mut stages = Vec::new();
        let mut failed = 0;
        for path in files {
            let label = file_label(path);
            let variant = compile_file(path).and_then(|v| {
                for l in &config.levels {
                    l.spec.check(&v).map_err(|e| {
                        JobError::refused(e).within(format!("{label}: level {}", l.name))
                    })?;
                }
                Ok(v)
            });
            let variant = match variant {
                Ok(v) => v,
                Err(e) => {
                    failed += 1;
                    columns.push(Column {
                        label,
                        origin: Origin::File {
                            path: path.clone(),
                            sha256: String::new(),
                        },
                        state: ColumnState::Failed(e.to_string()),
                        report: None,
                        ranking: None,
                    });
                    continue;
                }
            };
            let sha256 = murus_lab::source_sha256(variant.source());
            let origin = Origin::File {
                path: path.clone(),
                sha256: sha256.clone(),
            };
            if let Some(kept) = checks::find_complete(&runs, &variant, &config)
                && let Ok(Some(report)) = checks::read_report(&kept.folder)
            {
                columns.push(Column {
                    label,
                    origin,
                    state: ColumnState::Reused {
                        folder: kept.folder,
                        started: kept.note.started,
                    },
                    report: Some(report),
                    ranking: None,
                });
                continue;
            }
            match checks::create(&runs, &variant, &config, &path.display().to_string()) {
                Ok(folder) => {
                    request_columns.push((columns.len(), folder.clone()));
                    stages.push(CheckStages::of(&config, variant.player_count()));
                    requests.push(checks::Request {
                        variant,
                        config: config.clone(),
                        folder,
                    });
                    columns.push(Column {
                        label,
                        origin,
                        state: ColumnState::Waiting,
                        report: None,
                        ranking: None,
                    });
                }
                Err(e) => {
                    failed += 1;
                    columns.push(Column {
                        label,
                        origin,
                        state: ColumnState::Failed(e.to_string()),
                        report: None,
                        ranking: None,
                    });
                }
            }
        }
        self.title = format!("{} rules files, {}", files.len(), settings.describe());
        self.columns = columns;
        let reused = self.columns.len() - requests.len() - failed;
        let feedback = self.jobs.feedback_mut();
        if failed > 0 {
            feedback.warning(format!(
                "{failed} of {} files cannot be checked: their columns say why",
                files.len()
            ));
        } else if reused > 0 {
            feedback.info(format!(
                "{reused} of {} files were checked before with these settings: their checks are reused",
                files.len()
            ));
        }
        let Some((_, first)) = request_columns.first() else {
            self.rank_files();
            return;
        };
        let first = first.clone();
        if !self.jobs.start(&first, move |r| checks::play(requests, &r)) {
            return;
        }
        self.requests = request_columns;
        self.stages = stages;
        self.advance = Advance::new();
        self.current = None;
        self.progress = None;
    }

    /// Stops the checks: the finished games are kept, and the check under
    /// way stays in the Balance history, where it can be resumed (the user
    /// stopped it: it is not offered after a restart).
    pub fn cancel(&mut self) {
        self.jobs.cancel();
    }

    /// Collects the checks that ended.
    pub fn poll(&mut self) {
        if self.requests.is_empty() {
            return;
        }
        let cancelled = self.jobs.is_cancelling();
        for m in self.jobs.poll() {
            match m {
                CheckMsg::Started(i) => {
                    self.current = Some(i);
                    if let Some((c, folder)) = self.requests.get(i) {
                        self.columns[*c].state = ColumnState::Running;
                        self.jobs.moved_on(folder);
                    }
                }
                CheckMsg::Progress(p) => {
                    let i = self.current.unwrap_or(0);
                    let n = self.requests.len().max(1);
                    let (place, share) = self
                        .stages
                        .get(i)
                        .map_or((0, 0.0), |s| (s.place(&p), s.share(&p)));
                    // The checks in turn, each through its stages.
                    let whole = (i as f64 + share) / n as f64;
                    if self.advance.hear_whole(i * 10_000 + place, whole) {
                        self.progress = Some(p);
                    }
                }
                CheckMsg::Ended(i, result) => {
                    let Some((c, folder)) = self.requests.get(i) else {
                        continue;
                    };
                    let column = &mut self.columns[*c];
                    match *result {
                        Ok(report) => {
                            column.state = if report.interrupted {
                                ColumnState::Failed("cancelled: resume its check in Balance".into())
                            } else {
                                ColumnState::Checked(folder.clone())
                            };
                            column.report = Some(report);
                        }
                        Err(e) => column.state = ColumnState::Failed(e.to_string()),
                    }
                }
            }
        }
        if self.jobs.ended().is_none() {
            return;
        }
        for (c, folder) in std::mem::take(&mut self.requests) {
            let column = &mut self.columns[c];
            if column.state == ColumnState::Waiting {
                // Never started (the thread says so before it plays): its
                // folder would read as a check cut short.
                checks::forget_unplayed(&folder);
            }
            if matches!(column.state, ColumnState::Waiting | ColumnState::Running) {
                column.state = ColumnState::Failed(if cancelled {
                    "cancelled before its check".into()
                } else {
                    "its check stopped on an internal error".into()
                });
            }
        }
        self.rank_files();
        let feedback = self.jobs.feedback_mut();
        feedback.changed();
        if cancelled {
            feedback.info("cancelled: the finished checks are kept in Balance");
        } else {
            feedback.success(format!(
                "compared {} variants",
                self.columns.iter().filter(|c| c.report.is_some()).count()
            ));
        }
    }

    /// Shows the rows of the sweep's results in `path` (its `sweep.json`,
    /// or the folder that holds it), best first. A file that does not read,
    /// or is no sweep's results, is refused with a message that names it,
    /// and the columns shown stay.
    pub fn load_sweep(&mut self, path: &Path) {
        if !self.jobs.ready() {
            return;
        }
        let name = path.display();
        let report = match read_sweep(path) {
            Ok(r) => r,
            Err(e) => {
                self.jobs.feedback_mut().error(e.to_string());
                return;
            }
        };
        if report.rows.is_empty() {
            self.jobs.feedback_mut().error(format!(
                "{name}: the sweep played no combination ({} do not compile)",
                report.skipped.len()
            ));
            return;
        }
        let mut rows = report.rows.clone();
        rows.sort_by_key(|r| r.rank);
        let params = &report.spec.parameters;
        self.columns = rows
            .into_iter()
            .map(|r| {
                let label = params
                    .iter()
                    .filter_map(|p| r.values.get(p).map(|v| format!("{p}={v}")))
                    .collect::<Vec<_>>()
                    .join(" ");
                Column {
                    label: if label.is_empty() {
                        format!("#{}", r.index + 1)
                    } else {
                        label
                    },
                    origin: Origin::Sweep { index: r.index },
                    state: ColumnState::FromSweep,
                    report: Some(r.balance),
                    ranking: Some(Ranking {
                        rank: r.rank,
                        tier: r.tier,
                        fitness: r.fitness,
                        flags: r.flags,
                    }),
                }
            })
            .collect();
        self.title = format!(
            "sweep of {} over {}: {} combinations",
            report.spec.variant.name,
            params.join(", "),
            report.spec.combinations
        );
        let mut text = format!("loaded {} combinations", self.columns.len());
        if !report.skipped.is_empty() {
            text.push_str(&format!(
                " ({} more do not compile: {})",
                report.skipped.len(),
                report.skipped[0].error
            ));
        }
        if report.interrupted {
            text.push_str("; the sweep was interrupted");
            self.jobs.feedback_mut().warning(text);
        } else {
            self.jobs.feedback_mut().success(text);
        }
    }

    /// Ranks the rules files' columns whose checks are complete, as a
    /// sweep ranks its rows (see the module's documentation).
    fn rank_files(&mut self) {
        for c in &mut self.columns {
            if matches!(c.origin, Origin::File { .. }) {
                c.ranking = None;
            }
        }
        let mut judged: Vec<(usize, sweep::Assessment)> = self
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c.origin, Origin::File { .. }))
            .filter_map(|(i, c)| {
                let r = c.report.as_ref().filter(|r| !r.interrupted)?;
                Some((i, sweep::assess(r)))
            })
            .collect();
        judged.sort_by(|(i, a), (j, b)| {
            b.tier
                .cmp(&a.tier)
                .then(b.fitness.total_cmp(&a.fitness))
                .then(i.cmp(j))
        });
        for (rank, (i, a)) in judged.into_iter().enumerate() {
            self.columns[i].ranking = Some(Ranking {
                rank: rank as u64 + 1,
                tier: a.tier,
                fitness: a.fitness,
                flags: a.flags,
            });
        }
    }

    /// The best column, the one ranked first (see the module's
    /// documentation), once two or more are ranked and no check goes on.
    pub fn best(&self) -> Option<usize> {
        if self.is_running() {
            return None;
        }
        let ranked: Vec<(u64, usize)> = self
            .columns
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.ranking.as_ref().map(|r| (r.rank, i)))
            .collect();
        if ranked.len() < 2 {
            return None;
        }
        ranked.into_iter().min().map(|(_, i)| i)
    }

    /// Why the best column is best, in a sentence.
    pub fn best_text(&self) -> Option<String> {
        let c = &self.columns[self.best()?];
        let r = c.ranking.as_ref()?;
        Some(format!(
            "Best: {}: {}, fitness {:.1} (ranked by tier, then fitness, as murus sweep ranks).",
            c.label,
            r.tier.name(),
            r.fitness
        ))
    }

    /// The levels any column played, weakest first.
    pub fn levels(&self) -> Vec<String> {
        murus_lab::balance::level_names()
            .into_iter()
            .filter(|n| {
                self.columns.iter().any(|c| {
                    c.report
                        .as_ref()
                        .is_some_and(|r| r.levels.iter().any(|l| l.level == *n))
                })
            })
            .map(String::from)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use murus_lab::balance::{BalanceConfig, Stopping, parse_levels, run_balance};

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "murus-studio-compare-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The check of `small` at random play, `games` games from `seed`.
    fn check(games: u64, seed: u64) -> BalanceReport {
        let config = BalanceConfig {
            levels: parse_levels("random").unwrap(),
            stopping: Stopping::Games(games),
            openings: 0,
            seed,
            threads: 1,
            shard: None,
            skill_games: 0,
            max_plies: None,
            book: None,
        };
        let v = Variant::builtin("small").unwrap();
        run_balance(&v, &config, None, &()).unwrap()
    }

    fn file_column(label: &str, report: BalanceReport) -> Column {
        Column {
            label: label.into(),
            origin: Origin::File {
                path: PathBuf::from(label),
                sha256: String::new(),
            },
            state: ColumnState::Checked(PathBuf::new()),
            report: Some(report),
            ranking: None,
        }
    }

    /// `report` with its one level's first-player rate and interval set,
    /// and games of an ideal length.
    fn with_rate(mut report: BalanceReport, rate: f64, ci95: [f64; 2]) -> BalanceReport {
        let r = &mut report.levels[0].report;
        r.first_player_advantage.rate = rate;
        r.first_player_advantage.advantage = rate - 0.5;
        r.first_player_advantage.ci95 = ci95;
        r.length.mean = 30.0;
        report
    }

    #[test]
    fn files_are_ranked_by_tier_then_fitness_and_the_first_is_the_best() {
        let base = check(40, 1);
        // Games over at once: unplayable.
        let mut unplayable = with_rate(base.clone(), 0.5, [0.4, 0.6]);
        unplayable.levels[0].report.length.median = 1;
        let mut m = CompareModel {
            columns: vec![
                file_column("unplayable.mg", unplayable),
                file_column("unbalanced.mg", with_rate(base.clone(), 0.65, [0.6, 0.7])),
                file_column("edge5.mg", with_rate(base.clone(), 0.55, [0.45, 0.65])),
                file_column("edge2.mg", with_rate(base, 0.52, [0.42, 0.62])),
            ],
            ..CompareModel::new(Path::new("nowhere"))
        };
        m.rank_files();
        let ranks: Vec<(u64, Tier)> = m
            .columns
            .iter()
            .map(|c| {
                let r = c.ranking.as_ref().unwrap();
                (r.rank, r.tier)
            })
            .collect();
        assert_eq!(
            ranks,
            [
                (4, Tier::Unplayable),
                (3, Tier::Unbalanced),
                (2, Tier::Playable),
                (1, Tier::Playable)
            ]
        );
        assert_eq!(m.best(), Some(3));
        assert_eq!(
            m.best_text().unwrap(),
            "Best: edge2.mg: playable, fitness 98.0 (ranked by tier, then fitness, as murus sweep ranks)."
        );
        // A cancelled check is not ranked; one ranked column has no best.
        m.columns[3].report.as_mut().unwrap().interrupted = true;
        m.rank_files();
        assert!(m.columns[3].ranking.is_none());
        assert_eq!(m.best(), Some(2));
        m.columns.truncate(1);
        m.rank_files();
        assert_eq!(m.best(), None);
    }

    #[test]
    fn files_that_cannot_be_checked_get_a_column_saying_why_and_the_rest_are_checked() {
        let dir = scratch("files");
        let small = murus_engine::BUILTIN
            .iter()
            .find(|(n, _)| *n == "small")
            .unwrap()
            .1;
        let good = dir.join("good.mg");
        std::fs::write(&good, small).unwrap();
        let bad = dir.join("bad.mg");
        std::fs::write(&bad, "variant \"bad\"\nboard rect 0 x 0\n").unwrap();
        let runs = dir.join("runs");
        let settings = CheckSettings {
            levels: vec!["random".into()],
            stop: checks::Stop::Games(10),
            openings: 0,
            skill_games: 0,
            seed: 1,
        };
        let mut m = CompareModel::new(&runs);
        m.compare_files(std::slice::from_ref(&good), &settings);
        assert_eq!(
            m.feedback().text(),
            Some("choose two or more rules files to compare")
        );
        let missing = dir.join("missing.mg");
        m.compare_files(&[good.clone(), bad.clone(), missing], &settings);
        let t = std::time::Instant::now();
        while m.is_running() {
            assert!(t.elapsed().as_secs() < 60, "the checks end");
            m.poll();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let c = m.columns();
        assert_eq!(c.len(), 3);
        assert!(matches!(c[0].state, ColumnState::Checked(_)));
        assert_eq!(c[0].report.as_ref().unwrap().levels[0].report.games, 10);
        let ColumnState::Failed(why) = &c[1].state else {
            panic!("{:?}", c[1].state)
        };
        assert!(why.starts_with("bad.mg:"), "{why}");
        let ColumnState::Failed(why) = &c[2].state else {
            panic!("{:?}", c[2].state)
        };
        assert!(why.starts_with("missing.mg: "), "{why}");
        // A corrupt sweep file is refused naming it, the columns kept; so
        // is a file that is no sweep.json, and a folder without one.
        let corrupt = dir.join("sweep.json");
        std::fs::write(&corrupt, "[]").unwrap();
        let before = m.columns().to_vec();
        for (path, says) in [
            (corrupt.clone(), "sweep.json:1: not a sweep's report: "),
            (
                good.clone(),
                "good.mg: a sweep's results are its sweep.json",
            ),
            (runs.clone(), "sweep.json: "),
        ] {
            m.load_sweep(&path);
            let text = m.feedback().text().unwrap();
            assert!(text.contains(says), "{text}");
            assert_eq!(m.columns(), before.as_slice());
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
