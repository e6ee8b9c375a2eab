//! The Lab's balance check, without egui: is the chosen variant fair at
//! every level of play? The settings ([`BalanceSaved`]), the check going on
//! (murus-lab's [`run_balance`](murus_lab::balance::run_balance) on a
//! background thread, kept in the runs folder: [`checks`]), the report
//! shown, the history of checks, the check a crash or a restart cut short
//! (offered for resuming), and the panel's message.

use std::path::Path;

use murus_engine::Variant;
use murus_lab::LabError;
use murus_lab::balance::{BalanceReport, CheckProgress, Stage};
use murus_lab::report::{grouped, percent};
use serde::{Deserialize, Serialize};

use super::checks::{self, CheckJob, CheckMsg, CheckSettings, PastCheck, Stop};
use super::job::{JobError, JobPanel};
use super::progress::Advance;
use crate::Feedback;
use crate::worker::{Busy, Waker, no_waker};

/// The balance settings the Lab keeps across restarts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BalanceSaved {
    /// The levels ticked ([`murus_lab::balance::level_names`]).
    pub levels: Vec<String>,
    /// Play exactly `games` games a level, instead of playing until the
    /// first player's rate is known to ±`precision` points.
    pub fixed_games: bool,
    pub games: u64,
    /// The 95% interval's half-width to reach, in percentage points.
    pub precision: f64,
    /// The most games a level plays to reach the precision.
    pub max_games: u64,
    /// Random plies that open each round of games.
    pub openings: u32,
    /// Games of each match between adjacent levels (the skill trace; 0:
    /// none).
    pub skill_games: u64,
    pub seed: u64,
}

impl Default for BalanceSaved {
    /// `murus balance`'s defaults.
    fn default() -> Self {
        let d = CheckSettings::default();
        let (precision, max_games) = match d.stop {
            Stop::Precision { points, max_games } => (points, max_games),
            Stop::Games(_) => (4.0, 2000),
        };
        BalanceSaved {
            levels: d.levels,
            fixed_games: false,
            games: 200,
            precision,
            max_games,
            openings: d.openings,
            skill_games: d.skill_games,
            seed: d.seed,
        }
    }
}

impl BalanceSaved {
    /// What decides the check's games (the levels weakest first, whatever
    /// the order they were ticked in).
    pub fn settings(&self) -> CheckSettings {
        let levels = murus_lab::balance::level_names()
            .into_iter()
            .filter(|n| self.levels.iter().any(|l| l == n))
            .map(String::from)
            .collect();
        CheckSettings {
            levels,
            stop: if self.fixed_games {
                Stop::Games(self.games)
            } else {
                Stop::Precision {
                    points: self.precision,
                    max_games: self.max_games,
                }
            },
            openings: self.openings,
            skill_games: self.skill_games,
            seed: self.seed,
        }
    }

    /// Whether level `name` is ticked.
    pub fn has_level(&self, name: &str) -> bool {
        self.levels.iter().any(|l| l == name)
    }

    /// Ticks or unticks level `name`.
    pub fn set_level(&mut self, name: &str, on: bool) {
        self.levels.retain(|l| l != name);
        if on {
            self.levels.push(name.to_string());
        }
    }

    /// Why the settings make no check, if they make none.
    pub fn error(&self) -> Option<String> {
        self.settings().config(1).err().map(|e| e.to_string())
    }

    /// Takes a check's settings (the stopping rule not in force keeps its
    /// figures).
    pub fn adopt(&mut self, s: &CheckSettings) {
        self.levels.clone_from(&s.levels);
        match s.stop {
            Stop::Games(n) => {
                self.fixed_games = true;
                self.games = n;
            }
            Stop::Precision { points, max_games } => {
                self.fixed_games = false;
                self.precision = points;
                self.max_games = max_games;
            }
        }
        self.openings = s.openings;
        self.skill_games = s.skill_games;
        self.seed = s.seed;
    }
}

/// The stages of a check, in the order it plays them: its levels, then
/// (two players, skill games asked for) the match of each level against
/// the one below.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckStages {
    levels: Vec<String>,
    skill: bool,
}

impl CheckStages {
    /// The stages of `config`'s check of a variant of `players` players.
    pub fn of(config: &murus_lab::balance::BalanceConfig, players: usize) -> CheckStages {
        CheckStages {
            levels: config.levels.iter().map(|l| l.name.clone()).collect(),
            skill: players == 2 && config.skill_games > 0,
        }
    }

    /// How many stages there are.
    pub fn count(&self) -> usize {
        let n = self.levels.len();
        (n + if self.skill { n.saturating_sub(1) } else { 0 }).max(1)
    }

    /// The place of the stage `p` is about, from 0.
    pub fn place(&self, p: &CheckProgress) -> usize {
        match &p.stage {
            Stage::Level { index, .. } => *index,
            Stage::Skill { lower, .. } => {
                self.levels.len() + self.levels.iter().position(|l| l == lower).unwrap_or(0)
            }
        }
    }

    /// The share of the whole check done, as `p` says: its stage's place
    /// and the stage's games done.
    pub fn share(&self, p: &CheckProgress) -> f64 {
        let within = if p.total > 0 {
            (p.done as f64 / p.total as f64).min(1.0)
        } else {
            0.0
        };
        ((self.place(p) as f64 + within) / self.count() as f64).min(1.0)
    }
}

/// The progress of a check in words and as a share.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckStatus {
    /// 0 to 1, of the whole check (it never goes back).
    pub fraction: f32,
    /// `Level 1/2: random: 40 / 2 000 games`.
    pub text: String,
}

/// The stage and games of `progress` (the check's last, if it told any) in
/// words, with `fraction` of the whole done ([`Advance`]); `cancelling`
/// says the user asked it to stop.
pub fn status_of(progress: Option<CheckProgress>, fraction: f32, cancelling: bool) -> CheckStatus {
    let text = match progress {
        Some(CheckProgress { stage, done, total }) => {
            let stage = match &stage {
                Stage::Level { .. } => capitalised(&stage.to_string()),
                Stage::Skill { upper, lower } => format!("Skill match: {upper} vs {lower}"),
            };
            format!("{stage}: {} / {} games", grouped(done), grouped(total))
        }
        None => "Starting".to_string(),
    };
    let text = if cancelling {
        format!("Cancelling: {text}")
    } else {
        text
    };
    CheckStatus { fraction, text }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// The check whose report the panel shows.
#[derive(Clone, Debug)]
struct Shown {
    variant: Variant,
    /// The check as the history lists it (its folder, note and spec).
    check: PastCheck,
    report: Option<BalanceReport>,
}

/// One level's row of the table, in words.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelRow {
    pub level: String,
    pub games: u64,
    /// The first player's rate and its 95% interval.
    pub rate: f64,
    pub ci95: [f64; 2],
    /// `47.5% [45.1–49.9]`.
    pub first_player: String,
    /// Each colour's rate, by the player's name, in turn order.
    pub colours: Vec<(String, String)>,
    pub draws: String,
    pub ply_cap: String,
    /// Mean length in plies.
    pub length: String,
    /// How games end: `breakthrough-sow 12, stalemate 3`.
    pub endings: String,
    /// Why the level stopped.
    pub stopped: String,
}

/// `47.5% [45.1, 49.9]`.
pub fn rate_text(rate: f64, ci: [f64; 2]) -> String {
    murus_lab::text::percent_interval(rate, ci)
}

/// The table of `report`'s levels, weakest first; `variant` names the
/// colours (`Colour r` without it).
pub fn level_rows(report: &BalanceReport, variant: Option<&Variant>) -> Vec<LevelRow> {
    let name = |letter: char| {
        variant
            .and_then(|v| {
                v.player_by_letter(letter)
                    .map(|i| v.rules().players[i].name.clone())
            })
            .unwrap_or_else(|| format!("Colour {letter}"))
    };
    report
        .levels
        .iter()
        .map(|l| {
            let r = &l.report;
            let f = &r.first_player_advantage;
            let colours = r
                .provenance
                .players
                .iter()
                .filter_map(|&c| {
                    let x = r.by_colour.get(&c.to_string())?;
                    Some((name(c), rate_text(x.rate, x.ci95)))
                })
                .collect();
            let endings: Vec<String> = r
                .end_reasons
                .iter()
                .map(|(k, v)| format!("{k} {}", grouped(*v)))
                .collect();
            LevelRow {
                level: l.level.clone(),
                games: r.games,
                rate: f.rate,
                ci95: f.ci95,
                first_player: rate_text(f.rate, f.ci95),
                colours,
                draws: percent(r.draws.rate),
                ply_cap: percent(r.ply_cap.rate),
                length: format!("{:.1}", r.length.mean),
                endings: endings.join(", "),
                stopped: l.stopped.describe().to_string(),
            }
        })
        .collect()
}

/// One step of the skill trace in words: (`hard over medium`, `100 games,
/// score 61.0%`, `+78 [+8, +152]`).
pub fn skill_rows(report: &BalanceReport) -> Vec<(String, String, String)> {
    let bound = |b: Option<f64>, inf: &str| b.map_or(inf.to_string(), |x| format!("{x:+.0}"));
    report
        .skill
        .iter()
        .map(|g| {
            let elo = g.elo.map_or_else(
                || if g.score >= 0.5 { "+inf" } else { "-inf" }.to_string(),
                |e| format!("{e:+.0}"),
            );
            (
                format!("{} over {}", g.upper, g.lower),
                format!("{} games, score {}", grouped(g.games), percent(g.score)),
                format!(
                    "{elo} [{}, {}]",
                    bound(g.elo_ci95[0], "-inf"),
                    bound(g.elo_ci95[1], "+inf")
                ),
            )
        })
        .collect()
}

/// A metric's key in words: `duration_ideal_lo` → `Duration ideal lo`.
fn metric_name(key: &str) -> String {
    capitalised(&key.replace('_', " "))
}

/// A metric's figure as murus-lab writes it, shortened to three decimals
/// (`0.4848` → `0.485`, `12` → `12`); a figure the games did not have
/// (an empty string) is a dash.
fn metric_figure(text: &str) -> String {
    match text.parse::<f64>() {
        Err(_) if text.is_empty() => "–".into(),
        Err(_) => text.to_string(),
        Ok(x) if x.fract() == 0.0 => format!("{x:.0}"),
        Ok(x) => {
            let s = format!("{x:.3}");
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    }
}

/// The game-quality metrics of `report`'s levels ([`murus_lab::metrics`]):
/// a row per metric, in murus-lab's order, with its
/// figure at each level (weakest first). Empty when no level has games.
pub fn metric_rows(report: &BalanceReport) -> Vec<(String, Vec<String>)> {
    let levels: Vec<Vec<(&'static str, String)>> = report
        .levels
        .iter()
        .map(|l| l.report.metrics.rows())
        .collect();
    if report.levels.iter().all(|l| l.report.games == 0) {
        return Vec::new();
    }
    let Some(first) = levels.first() else {
        return Vec::new();
    };
    first
        .iter()
        .enumerate()
        .map(|(i, (key, _))| {
            let figures = levels
                .iter()
                .map(|l| {
                    l.get(i)
                        .map_or_else(|| "–".into(), |(_, v)| metric_figure(v))
                })
                .collect();
            (metric_name(key), figures)
        })
        .collect()
}

/// The Lab's balance check.
#[derive(Debug)]
pub struct BalanceModel {
    /// The checks kept in the runs folder (in its `balance` folder), the
    /// one going on, the one offered for resuming, and the message.
    jobs: JobPanel<CheckJob>,
    /// Where the check going on stands, as it last said of the stage under
    /// way.
    progress: Option<CheckProgress>,
    /// Its stages, and how far it has gone: its bar never goes back.
    stages: CheckStages,
    advance: Advance,
    /// How the check going on ended, once its thread said.
    ended: Option<Result<BalanceReport, LabError>>,
    shown: Option<Shown>,
}

impl BalanceModel {
    /// The model as a start-up finds it ([`BalanceModel::with_waker`]),
    /// its checks waking nobody (tests drive it).
    pub fn new(runs: &Path) -> BalanceModel {
        BalanceModel::with_waker(runs, no_waker())
    }

    /// The model as a start-up finds it: the checks kept in `runs` read,
    /// and the newest one a crash cut short offered for resuming; its
    /// checks call `waker` when they report.
    pub fn with_waker(runs: &Path, waker: Waker) -> BalanceModel {
        BalanceModel {
            jobs: JobPanel::new(runs, waker),
            progress: None,
            stages: CheckStages::default(),
            advance: Advance::new(),
            ended: None,
            shown: None,
        }
    }

    /// The runs folder.
    pub fn runs_dir(&self) -> &Path {
        self.jobs.runs_dir()
    }

    /// Keeps checks in `runs` from now on (nothing happens when it is the
    /// folder already used): reads its history and its offer.
    pub fn set_runs_dir(&mut self, runs: &Path) {
        self.jobs.set_runs_dir(runs);
    }

    /// Reads the history from the runs folder again.
    pub fn rescan(&mut self) {
        self.jobs.rescan();
    }

    /// The checks kept, newest first.
    pub fn history(&self) -> &[PastCheck] {
        self.jobs.history()
    }

    /// The panel's message.
    pub fn feedback(&self) -> &Feedback {
        self.jobs.feedback()
    }

    /// The settings changed: messages about the old ones no longer apply.
    pub fn settings_changed(&mut self) {
        self.jobs.feedback_mut().changed();
    }

    /// Whether a check is under way.
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

    /// The progress of the check going on.
    pub fn status(&self) -> Option<CheckStatus> {
        self.is_running().then(|| {
            status_of(
                self.progress.clone(),
                self.advance.fraction(),
                self.jobs.is_cancelling(),
            )
        })
    }

    /// Starts a check of `variant` (its rules from `origin`) with
    /// `settings`, kept in a new folder of the runs folder. Refused (with a
    /// message) while a check goes on, when the variant is not there
    /// (`Err`: why), or when a setting is wrong or the folder cannot be
    /// written.
    pub fn start(
        &mut self,
        variant: Result<Variant, JobError>,
        origin: &str,
        settings: &CheckSettings,
    ) {
        if !self.jobs.ready() {
            return;
        }
        let prepared = variant.and_then(|v| {
            let config = settings.config(super::job::threads())?;
            for l in &config.levels {
                l.spec.check(&v).map_err(|e| {
                    JobError::refused(e.to_string()).within(format!("level {}", l.name))
                })?;
            }
            let folder = checks::create(self.jobs.runs_dir(), &v, &config, origin)?;
            let check = checks::read(&folder).ok_or_else(|| {
                JobError::refused(format!("{}: the check was not kept", folder.display()))
            })?;
            Ok((v, config, check))
        });
        match prepared {
            Ok((variant, config, check)) => self.launch(variant, check, config, None),
            Err(e) => self.jobs.feedback_mut().error(e.to_string()),
        }
    }

    /// Plays `check` of `variant` with `config` on the worker, showing
    /// `report` (what it played before) until it ends.
    fn launch(
        &mut self,
        variant: Variant,
        check: PastCheck,
        config: murus_lab::balance::BalanceConfig,
        report: Option<BalanceReport>,
    ) {
        let folder = check.folder.clone();
        let stages = CheckStages::of(&config, variant.player_count());
        let request = checks::Request {
            variant: variant.clone(),
            config,
            folder: folder.clone(),
        };
        if !self
            .jobs
            .start(&folder, move |r| checks::play(vec![request], &r))
        {
            return;
        }
        self.shown = Some(Shown {
            variant,
            check,
            report,
        });
        self.progress = None;
        self.stages = stages;
        self.advance = Advance::new();
        self.ended = None;
    }

    /// Asks the check to stop; its finished games are kept (on disk too),
    /// its report says it was interrupted, and "Resume check" goes on.
    pub fn cancel(&mut self) {
        self.jobs.cancel();
    }

    /// Collects the progress and the end of the check going on.
    pub fn poll(&mut self) {
        for m in self.jobs.poll() {
            match m {
                CheckMsg::Started(_) => {}
                CheckMsg::Progress(p) => {
                    // Word of a stage that ended names it no more.
                    let place = self.stages.place(&p);
                    if self.advance.hear_whole(place, self.stages.share(&p)) {
                        self.progress = Some(p);
                    }
                }
                CheckMsg::Ended(_, result) => self.ended = Some(*result),
            }
        }
        let Some(folder) = self.jobs.ended() else {
            return;
        };
        let feedback = self.jobs.feedback_mut();
        feedback.changed();
        match self.ended.take() {
            Some(Ok(report)) => {
                let games: u64 = report.levels.iter().map(|l| l.report.games).sum();
                if report.interrupted {
                    feedback.info(format!(
                        "cancelled after {} games; the check is kept: Resume check goes on",
                        grouped(games)
                    ));
                } else {
                    feedback.success(format!(
                        "balance check finished: {} games at {}",
                        grouped(games),
                        murus_engine::text::plural(report.levels.len() as u64, "level")
                    ));
                }
                if let Some(s) = &mut self.shown
                    && s.check.folder == folder
                {
                    s.report = Some(report);
                }
            }
            Some(Err(e)) => feedback.error(format!("the balance check stopped: {e}")),
            None => {
                feedback
                    .error("the balance check stopped on an internal error; its games are kept");
            }
        }
    }

    /// Shows the kept check in `folder`.
    pub fn open(&mut self, folder: &Path) {
        if !self.jobs.ready() {
            return;
        }
        match checks::open(folder) {
            Ok(o) => {
                if o.report.is_none() {
                    self.jobs
                        .feedback_mut()
                        .info("this check never ended: Resume check plays the rest");
                }
                self.shown = Some(Shown {
                    variant: o.variant,
                    check: o.check,
                    report: o.report,
                });
            }
            Err(e) => self
                .jobs
                .feedback_mut()
                .error(format!("cannot open the check: {e}")),
        }
    }

    /// Goes on with the kept check in `folder`: plays only its missing
    /// games, and ends with exactly the report of a check never
    /// interrupted.
    pub fn resume(&mut self, folder: &Path) {
        if !self.jobs.ready() {
            return;
        }
        let prepared = checks::open_to_resume(folder).and_then(|o| {
            if o.check.older {
                return Err(JobError::refused(format!(
                    "{} was kept by an older Murus Studio, before checks kept their \
                     settings for the lab: run the check again",
                    folder.display()
                )));
            }
            let settings = o.check.settings.as_ref().ok_or_else(|| {
                JobError::refused(format!(
                    "{}: its stopping rule `{}` does not read",
                    folder.display(),
                    o.check.spec.stopping
                ))
            })?;
            let config = settings.config(super::job::threads())?;
            Ok((o, config))
        });
        let (opened, config) = match prepared {
            Ok(p) => p,
            Err(e) => {
                self.jobs
                    .feedback_mut()
                    .error(format!("cannot resume: {e}"));
                return;
            }
        };
        if opened.report.as_ref().is_some_and(|r| !r.interrupted) {
            self.jobs
                .feedback_mut()
                .info("this check is complete: nothing to resume");
            return;
        }
        self.jobs.resuming(folder);
        // What it played before stays in sight until its new report.
        self.launch(opened.variant, opened.check, config, opened.report);
    }

    /// The check offered for resuming, if any.
    pub fn offer(&self) -> Option<&PastCheck> {
        self.jobs.offer()
    }

    /// Resumes the offered check.
    pub fn resume_offer(&mut self) {
        if let Some(folder) = self.jobs.take_offer() {
            self.resume(&folder);
        }
    }

    /// Declines the offer: the check stays in the history, unfinished, and
    /// is not offered again.
    pub fn discard_offer(&mut self) {
        self.jobs.discard_offer();
    }

    /// The report of the check shown (none for a check that never ended;
    /// while a check runs, the report of what it played before it was
    /// resumed, if any).
    pub fn report(&self) -> Option<&BalanceReport> {
        self.shown.as_ref()?.report.as_ref()
    }

    /// The rules of the check shown.
    pub fn variant(&self) -> Option<&Variant> {
        self.shown.as_ref().map(|s| &s.variant)
    }

    /// The check shown, as the history lists it (its note, spec and
    /// settings).
    pub fn shown(&self) -> Option<&PastCheck> {
        self.shown.as_ref().map(|s| &s.check)
    }

    /// The folder of the check shown.
    pub fn shown_folder(&self) -> Option<&Path> {
        self.shown.as_ref().map(|s| s.check.folder.as_path())
    }

    /// Whether the check shown stopped short and can go on.
    pub fn shown_resumable(&self) -> bool {
        !self.is_running() && self.shown_folder().is_some_and(|f| self.jobs.resumable(f))
    }

    /// The table of the report shown.
    pub fn rows(&self) -> Vec<LevelRow> {
        self.report()
            .map(|r| level_rows(r, self.variant()))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::checks::CheckState;
    use std::path::PathBuf;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "murus-studio-balance-model-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn until_done(m: &mut BalanceModel) {
        let t = std::time::Instant::now();
        while m.is_running() {
            assert!(
                t.elapsed() < std::time::Duration::from_secs(60),
                "the check ends"
            );
            m.poll();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    fn quick() -> CheckSettings {
        CheckSettings {
            levels: vec!["random".into()],
            stop: Stop::Games(20),
            openings: 2,
            skill_games: 0,
            seed: 3,
        }
    }

    #[test]
    fn saved_settings_sort_levels_and_keep_both_stopping_rules() {
        let mut s = BalanceSaved {
            levels: vec!["hard".into(), "random".into()],
            ..BalanceSaved::default()
        };
        assert_eq!(s.settings().levels, ["random", "hard"]);
        s.set_level("hard", false);
        s.set_level("easy", true);
        assert!(s.has_level("easy") && !s.has_level("hard"));
        assert_eq!(
            s.settings().stop,
            Stop::Precision {
                points: 4.0,
                max_games: 2000
            }
        );
        s.fixed_games = true;
        s.games = 30;
        assert_eq!(s.settings().stop, Stop::Games(30));
        assert_eq!(s.error(), None);
        s.levels.clear();
        assert_eq!(s.error().as_deref(), Some("choose at least one level"));
    }

    #[test]
    fn metrics_read_as_short_figures_under_their_names() {
        assert_eq!(metric_name("duration_ideal_lo"), "Duration ideal lo");
        assert_eq!(metric_figure("0.484848"), "0.485");
        assert_eq!(metric_figure("0.5"), "0.5");
        assert_eq!(metric_figure("12"), "12");
        assert_eq!(metric_figure(""), "–");
    }

    #[test]
    fn a_check_is_kept_listed_reopened_and_its_table_reads() {
        let runs = scratch("kept");
        let mut m = BalanceModel::new(&runs);
        assert!(m.history().is_empty());
        m.start(Ok(Variant::builtin("small").unwrap()), "small", &quick());
        assert!(m.is_running());
        assert_eq!(m.history()[0].state, CheckState::Running);
        assert!(m.status().is_some());
        until_done(&mut m);
        let report = m.report().expect("a report").clone();
        assert_eq!(report.levels.len(), 1);
        assert_eq!(report.levels[0].report.games, 20);
        assert!(!report.verdict.is_empty());
        // The level's game-quality metrics, one row each.
        let metrics = metric_rows(&report);
        assert!(metrics.iter().any(|(name, figures)| name == "Completion"
            && figures.len() == 1
            && figures[0] != "–"));
        assert_eq!(metrics.len(), report.levels[0].report.metrics.rows().len());
        assert_eq!(
            m.feedback().text(),
            Some("balance check finished: 20 games at 1 level")
        );
        let rows = m.rows();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].level, "random");
        assert_eq!(
            rows[0]
                .colours
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>(),
            ["Romans", "Gauls"]
        );
        let h = &m.history()[0];
        assert_eq!(h.state, CheckState::Complete);
        assert!(
            h.summary().starts_with("small: random, 20 games a level, "),
            "{}",
            h.summary()
        );
        // A fresh model finds it, offers nothing, and reopens it.
        let mut again = BalanceModel::new(&runs);
        assert!(again.offer().is_none());
        let folder = again.history()[0].folder.clone();
        again.open(&folder);
        // Read back from balance.json (serde_json may read a float back a
        // bit off, so the file is compared with the report, and the table).
        assert_eq!(
            std::fs::read_to_string(folder.join("balance.json")).unwrap(),
            report.to_json()
        );
        assert_eq!(again.report().map(|r| &r.verdict), Some(&report.verdict));
        assert_eq!(again.rows(), rows);
        assert!(!again.shown_resumable());
        // Finished checks of the same rules and settings are found.
        let small = Variant::builtin("small").unwrap();
        let config = |s: CheckSettings| s.config(1).unwrap();
        assert!(checks::find_complete(&runs, &small, &config(quick())).is_some());
        let other = CheckSettings { seed: 4, ..quick() };
        assert!(checks::find_complete(&runs, &small, &config(other)).is_none());
        std::fs::remove_dir_all(runs).unwrap();
    }

    #[test]
    fn a_check_cut_by_a_crash_is_offered_and_resumes_to_the_uninterrupted_report() {
        let runs = scratch("crash");
        let variant = Variant::builtin("small").unwrap();
        let settings = CheckSettings {
            levels: vec!["random".into(), "easy".into()],
            stop: Stop::Games(40),
            ..quick()
        };
        let mut m = BalanceModel::new(&runs);
        m.start(Ok(variant.clone()), "small", &settings);
        until_done(&mut m);
        let whole = m.report().unwrap().clone();
        let folder = m.shown_folder().unwrap().to_path_buf();
        // What a kill in the middle of level easy leaves: easy's report
        // gone and only some of its games written; and here a balance.json
        // torn as it was written (an older one would say the same: the
        // check rewrites it when it ends).
        for f in ["balance.csv", "balance.svg"] {
            std::fs::remove_file(folder.join(f)).unwrap();
        }
        std::fs::write(folder.join("balance.json"), "{\"variant\": {\"na").unwrap();
        let easy = folder.join("levels/easy");
        for f in ["report.json", "report.csv", "report.svg"] {
            std::fs::remove_file(easy.join(f)).unwrap();
        }
        let games = std::fs::read_to_string(easy.join("games.jsonl")).unwrap();
        let kept: Vec<&str> = games.lines().take(13).collect();
        std::fs::write(easy.join("games.jsonl"), kept.join("\n") + "\n").unwrap();
        let mut m = BalanceModel::new(&runs);
        let offer = m.offer().expect("the cut check is offered").clone();
        assert_eq!(offer.state, CheckState::Unfinished);
        m.open(&offer.folder);
        assert!(m.report().is_none());
        assert!(
            m.feedback()
                .text()
                .unwrap()
                .contains("not a balance report"),
            "{:?}",
            m.feedback().text()
        );
        m.resume_offer();
        assert!(m.offer().is_none());
        until_done(&mut m);
        assert_eq!(m.report(), Some(&whole));
        assert_eq!(
            std::fs::read_to_string(folder.join("balance.json")).unwrap(),
            whole.to_json()
        );
        std::fs::remove_dir_all(runs).unwrap();
    }

    #[test]
    fn bad_settings_and_rules_are_refused_with_a_message_and_nothing_is_kept() {
        let runs = scratch("refused");
        let mut m = BalanceModel::new(&runs);
        m.start(
            Ok(Variant::builtin("small").unwrap()),
            "small",
            &CheckSettings {
                levels: Vec::new(),
                ..quick()
            },
        );
        assert!(!m.is_running());
        assert_eq!(m.feedback().text(), Some("choose at least one level"));
        m.start(
            Err(JobError::refused(
                "the rules editor's file does not compile",
            )),
            "(rules editor)",
            &quick(),
        );
        assert_eq!(
            m.feedback().text(),
            Some("the rules editor's file does not compile")
        );
        m.settings_changed();
        assert_eq!(m.feedback().text(), None);
        assert!(m.history().is_empty() && !runs.exists());
    }
}
