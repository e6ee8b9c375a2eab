//! The Lab's self-play, without egui: the running batch (murus-lab's one
//! runner, [`murus_lab::spawn`], kept on disk in the runs folder, on the
//! model's [`Worker`]), the finished games and the report shown, the
//! history of runs, the interrupted run offered for resuming, and the
//! panel's message. The settings ([`LabSaved`]) are the model's: they
//! change through [`LabModel::set_settings`], which drops the messages
//! about the old ones.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use murus_ai::BotSpec;
use murus_engine::job::Handler;
use murus_engine::{Outcome, Variant};
use murus_lab::report::grouped;
use murus_lab::{Batch, Config, GameResult, GameStats, Report, RunProgress, stats_of};

use super::job::{JobPanel, threads};
use super::runs::{self, PastRun, RunJob, RunMsg};
use super::settings::{LabSaved, Source};
use crate::worker::{Busy, Reporter, Waker, no_waker};
use crate::{Command, Feedback, files};

/// How often a running batch rebuilds its report (on a worker thread).
pub const REPORT_EVERY: Duration = Duration::from_millis(250);

/// The run's handler: the worker's cancel stops it, and its news reach
/// the model as [`RunMsg`]s; every [`REPORT_EVERY`] at most, the report of
/// the games so far, built on the thread that tells the news.
struct Feed {
    reporter: Arc<Reporter<RunMsg>>,
    config: Config,
    /// The statistics of the games finished so far, and when the last
    /// report was sent.
    stats: Mutex<(Vec<GameStats>, Instant)>,
}

impl Handler<RunProgress> for Feed {
    fn stop(&self) -> bool {
        self.reporter.cancelled()
    }

    fn progress(&self, p: &RunProgress) {
        self.reporter.send(RunMsg::Games(p.done, p.games.clone()));
        let report = {
            let mut s = self.stats.lock().unwrap_or_else(PoisonError::into_inner);
            s.0.extend(p.games.iter().map(|g| g.stats.clone()));
            (s.1.elapsed() >= REPORT_EVERY).then(|| {
                s.1 = Instant::now();
                self.config.report(&s.0)
            })
        };
        if let Some(r) = report {
            self.reporter.send(RunMsg::Report(Box::new(r)));
        }
    }
}

/// The run whose games and report the panel shows.
#[derive(Clone, Debug)]
struct Shown {
    variant: Variant,
    /// Its folder in the runs folder.
    folder: PathBuf,
    /// Games it plays.
    total: u64,
    /// Games finished (while it runs: as its thread last said).
    done: u64,
}

/// What an export writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    /// `report.json`.
    Json,
    /// `report.csv`.
    Csv,
    /// `report.svg`, murus-lab's chart.
    Svg,
    /// `games.jsonl` and the three report files.
    All,
}

/// One row of the win-rate chart.
#[derive(Clone, Debug, PartialEq)]
pub struct WinRow {
    /// `Seat 1 (greedy)`, `Romans`, `Draws`.
    pub label: String,
    pub rate: f64,
    pub ci95: [f64; 2],
    pub kind: RowKind,
}

/// What a [`WinRow`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// Wins of a seat (0-based).
    Seat(usize),
    /// Wins of a colour, by player index in turn order.
    Colour(usize),
    Draws,
}

/// The Lab's self-play.
#[derive(Debug)]
pub struct LabModel {
    /// The settings of every mode (the model's to change:
    /// [`LabModel::set_settings`]).
    saved: LabSaved,
    /// `.mg` files of [`LabSaved::variants_dir`].
    files: Vec<PathBuf>,
    /// The runs kept in the runs folder, the one going on, the one offered
    /// for resuming, and the panel's message.
    jobs: JobPanel<RunJob>,
    /// How the batch going on ended, once its thread said.
    ended: Option<Result<Report, String>>,
    shown: Option<Shown>,
    /// Finished games of the shown run (by number once it is over, in
    /// finishing order while it goes on).
    games: Vec<GameResult>,
    report: Option<Report>,
}

impl LabModel {
    /// The model as a start-up finds it ([`LabModel::with_waker`]), its
    /// runs waking nobody (tests drive it).
    pub fn new(saved: LabSaved) -> LabModel {
        LabModel::with_waker(saved, no_waker())
    }

    /// The model as a start-up finds it: the runs folder read, and the
    /// newest run that a crash or a restart cut short offered for resuming;
    /// its runs call `waker` when they report.
    pub fn with_waker(saved: LabSaved, waker: Waker) -> LabModel {
        let jobs = JobPanel::new(Path::new(&saved.runs_dir), waker);
        let mut m = LabModel {
            saved,
            files: Vec::new(),
            jobs,
            ended: None,
            shown: None,
            games: Vec::new(),
            report: None,
        };
        m.refresh_files();
        m
    }

    /// The settings.
    pub fn saved(&self) -> &LabSaved {
        &self.saved
    }

    /// Takes new settings: the variants folder is read again when it
    /// changed, the runs folder's history when it changed, and when a
    /// setting of self-play changed, messages about the old one go.
    pub fn set_settings(&mut self, settings: LabSaved) {
        if settings == self.saved {
            return;
        }
        let old = std::mem::replace(&mut self.saved, settings);
        // Only what self-play uses: a balance setting or the mode shown
        // leaves its messages as they are.
        let mine = |s: &LabSaved| {
            (
                s.variant.clone(),
                s.bots.clone(),
                s.games,
                s.seed,
                s.export_dir.clone(),
                s.variants_dir.clone(),
                s.runs_dir.clone(),
            )
        };
        if mine(&old) != mine(&self.saved) {
            self.jobs.feedback_mut().changed();
        }
        if old.variants_dir != self.saved.variants_dir {
            self.refresh_files();
        }
        if old.runs_dir != self.saved.runs_dir {
            self.jobs.set_runs_dir(Path::new(&self.saved.runs_dir));
        }
    }

    /// Changes the settings with `edit` ([`LabModel::set_settings`]).
    pub fn edit(&mut self, edit: impl FnOnce(&mut LabSaved)) {
        let mut s = self.saved.clone();
        edit(&mut s);
        self.set_settings(s);
    }

    /// The folder that keeps runs.
    pub fn runs_dir(&self) -> PathBuf {
        PathBuf::from(&self.saved.runs_dir)
    }

    /// Keeps runs in `dir` from now on, and reads its history (and its
    /// interrupted run, offered for resuming).
    pub fn set_runs_dir(&mut self, dir: &Path) {
        self.edit(|s| s.runs_dir = dir.display().to_string());
    }

    /// Reads the history from the runs folder again (the run going on
    /// with its games so far).
    pub fn rescan(&mut self) {
        self.jobs.rescan();
        self.mark_running();
    }

    /// Gives the run going on its games so far in the history.
    fn mark_running(&mut self) {
        let Some(s) = self.shown.as_ref().filter(|_| self.is_running()) else {
            return;
        };
        for r in self.jobs.history_mut() {
            if r.folder == s.folder {
                r.done = s.done;
            }
        }
    }

    /// Reads the variants folder's `.mg` files again.
    pub fn refresh_files(&mut self) {
        self.files = crate::places::variant_files(
            &crate::places::Places::user(),
            Path::new(&self.saved.variants_dir),
        );
    }

    /// The `.mg` files the variant list offers.
    pub fn variant_files(&self) -> &[PathBuf] {
        &self.files
    }

    /// The panel's message.
    pub fn feedback(&self) -> &Feedback {
        self.jobs.feedback()
    }

    /// The chosen variant, compiled; `from_rules` is what the Rules editor
    /// compiled.
    pub fn resolve_variant(&self, from_rules: Option<&Variant>) -> Result<Variant, String> {
        match self.saved.source() {
            Source::Rules => from_rules
                .cloned()
                .ok_or_else(|| "the rules editor's file does not compile".to_string()),
            Source::Builtin(name) => {
                Variant::builtin(name).ok_or_else(|| format!("unknown variant `{name}`"))
            }
            Source::File(path) => {
                let source = std::fs::read_to_string(path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                Variant::compile(&source).map_err(|d| {
                    let name = path.display().to_string();
                    d.first().map_or(name.clone(), |d| {
                        let (line, col) = d.line_col(&source);
                        format!("{name}:{line}:{col}: {}", d.message)
                    })
                })
            }
        }
    }

    /// Why seat `seat`'s bot spec is not one, if it is not.
    pub fn bot_error(&self, seat: usize) -> Option<String> {
        let spec = self.saved.bots.get(seat)?;
        spec.parse::<BotSpec>().err().map(|e| e.to_string())
    }

    /// The games and bots of a run with the current settings, or why there
    /// can be none.
    fn config(&self, variant: &Variant) -> Result<Config, String> {
        let mut specs = Vec::new();
        for (i, b) in self.saved.bots.iter().enumerate() {
            specs.push(
                b.parse::<BotSpec>()
                    .map_err(|e| format!("seat {}: {e}", i + 1))?,
            );
        }
        if specs.is_empty() {
            return Err("give at least one bot".into());
        }
        if self.saved.games == 0 {
            return Err("play at least one game".into());
        }
        Ok(Config::new(variant, specs, self.saved.games, self.saved.seed).with_threads(threads()))
    }

    /// The work under way, when the model cannot start anything now.
    pub fn busy(&self) -> Option<Busy> {
        self.jobs.busy()
    }

    /// Starts a run with the current settings, kept in a new folder of the
    /// runs folder. Refused (with a message) while a run goes on, or when a
    /// setting is wrong or the folder cannot be written.
    pub fn start(&mut self, from_rules: Option<&Variant>) {
        if !self.jobs.ready() {
            return;
        }
        let prepared = self.resolve_variant(from_rules).and_then(|v| {
            let config = self.config(&v)?;
            let dir = runs::create(&self.runs_dir(), &v, &config, &self.saved.variant)?;
            Ok((v, config, dir))
        });
        let (variant, config, dir) = match prepared {
            Ok(p) => p,
            Err(e) => {
                self.jobs.feedback_mut().error(e);
                return;
            }
        };
        let folder = dir.path().to_path_buf();
        self.launch(variant, config, dir, folder, Vec::new());
    }

    /// Plays the batch of `config` in `dir` on the worker, showing `games`
    /// (those the folder already holds) and the games to come.
    fn launch(
        &mut self,
        variant: Variant,
        config: Config,
        dir: murus_lab::RunDir,
        folder: PathBuf,
        games: Vec<GameResult>,
    ) {
        let total = config.planned();
        let found = stats_of(&games);
        let report = config.report(&found);
        let v = variant.clone();
        let started = self.jobs.start(&folder, move |reporter| {
            let reporter = Arc::new(reporter);
            let feed = Feed {
                reporter: reporter.clone(),
                config: config.clone(),
                stats: Mutex::new((found, Instant::now())),
            };
            let ended = murus_lab::spawn(&v, config, Some(dir), feed)
                .and_then(Batch::join)
                .map_err(|e| e.to_string());
            reporter.send(RunMsg::Ended(Box::new(ended)));
        });
        if !started {
            return;
        }
        self.ended = None;
        // Freeing a large run's games (their moves are many small strings)
        // takes long enough to drop a frame: do it off the UI thread.
        let done = games.len() as u64;
        let old = std::mem::replace(&mut self.games, games);
        if old.len() > 1000 {
            let _ = std::thread::Builder::new()
                .name("murus-lab-free".into())
                .spawn(move || drop(old));
        }
        self.report = Some(report);
        self.shown = Some(Shown {
            variant,
            folder,
            total,
            done,
        });
        self.mark_running();
    }

    /// Goes on with the kept run in `folder`: plays only its missing games,
    /// and ends with exactly the report of a run never interrupted.
    pub fn resume(&mut self, folder: &Path) {
        if !self.jobs.ready() {
            return;
        }
        let mut opened = match runs::open(folder, threads(), true) {
            Ok(o) => o,
            Err(e) => {
                self.jobs
                    .feedback_mut()
                    .error(format!("cannot resume: {e}"));
                return;
            }
        };
        let Some(dir) = opened.dir.take() else {
            self.jobs
                .feedback_mut()
                .error("cannot resume: the run's folder was not opened");
            return;
        };
        self.jobs.resuming(folder);
        self.launch(
            opened.variant,
            opened.config,
            dir,
            folder.to_path_buf(),
            opened.games,
        );
    }

    /// The interrupted run offered for resuming, if any.
    pub fn offer(&self) -> Option<&PastRun> {
        self.jobs.offer()
    }

    /// Resumes the offered run.
    pub fn resume_offer(&mut self) {
        if let Some(folder) = self.jobs.take_offer() {
            self.resume(&folder);
        }
    }

    /// Declines the offer: the run stays in the history, interrupted, and
    /// is not offered again.
    pub fn discard_offer(&mut self) {
        self.jobs.discard_offer();
    }

    /// Shows the kept run in `folder`: its games and report.
    pub fn open_run(&mut self, folder: &Path) {
        if !self.jobs.ready() {
            return;
        }
        match runs::open(folder, 1, false) {
            Ok(o) => {
                self.shown = Some(Shown {
                    variant: o.variant,
                    folder: folder.to_path_buf(),
                    total: o.config.planned(),
                    done: o.games.len() as u64,
                });
                self.games = o.games;
                self.report = Some(o.report);
            }
            Err(e) => self
                .jobs
                .feedback_mut()
                .error(format!("cannot open the run: {e}")),
        }
    }

    /// Asks the run to stop; its finished games are kept (on disk too), and
    /// its report says it was interrupted.
    pub fn cancel(&mut self) {
        self.jobs.cancel();
    }

    /// Whether a batch is under way.
    pub fn is_running(&self) -> bool {
        self.jobs.is_running()
    }

    /// Collects finished games and reports; once the run has ended, its
    /// final report.
    pub fn poll(&mut self) {
        if !self.jobs.is_running() {
            return;
        }
        for m in self.jobs.poll() {
            match m {
                RunMsg::Games(done, games) => {
                    if let Some(s) = &mut self.shown {
                        s.done = s.done.max(done);
                    }
                    self.games.extend(games);
                }
                RunMsg::Report(r) => self.report = Some(*r),
                RunMsg::Ended(ended) => self.ended = Some(*ended),
            }
        }
        if self.jobs.is_running() {
            self.mark_running();
        } else {
            self.finish();
        }
    }

    /// Takes the end of the run, once its thread has ended.
    fn finish(&mut self) {
        self.games.sort_by_key(|g| g.stats.index);
        let total = self.shown.as_ref().map_or(0, |s| s.total);
        self.jobs.ended();
        let feedback = self.jobs.feedback_mut();
        feedback.changed();
        match self.ended.take() {
            Some(Ok(report)) => {
                let (n, interrupted) = (report.games, report.interrupted);
                self.report = Some(report);
                if interrupted && n < total {
                    feedback.info(format!(
                        "cancelled after {} of {} games",
                        grouped(n),
                        grouped(total)
                    ));
                } else {
                    feedback.success(format!("finished {} games", grouped(n)));
                }
            }
            Some(Err(e)) => feedback.error(format!("the run stopped: {e}")),
            None => feedback.error("the run stopped on an internal error; its games are kept"),
        }
        if let Some(s) = &mut self.shown {
            s.done = self.games.len() as u64;
        }
    }

    /// Games finished and games planned: of the run going on, else of the
    /// run shown.
    pub fn counts(&self) -> Option<(u64, u64)> {
        self.shown.as_ref().map(|s| (s.done, s.total))
    }

    /// Finished share of the run, 0 to 1.
    pub fn progress(&self) -> f32 {
        match self.counts() {
            Some((done, total)) if total > 0 => done as f32 / total as f32,
            _ => 0.0,
        }
    }

    /// Finished games of the shown run.
    pub fn games(&self) -> &[GameResult] {
        &self.games
    }

    /// The shown run's report (while it runs: of the games finished so far).
    pub fn report(&self) -> Option<&Report> {
        self.report.as_ref()
    }

    /// The rules the shown run plays.
    pub fn variant(&self) -> Option<&Variant> {
        self.shown.as_ref().map(|s| &s.variant)
    }

    /// The folder of the shown run.
    pub fn shown_folder(&self) -> Option<&Path> {
        self.shown.as_ref().map(|s| s.folder.as_path())
    }

    /// Whether the shown run stopped short and can go on.
    pub fn shown_resumable(&self) -> bool {
        self.shown_folder().is_some_and(|f| self.jobs.resumable(f))
    }

    /// The runs kept in the runs folder, newest first.
    pub fn history(&self) -> &[PastRun] {
        self.jobs.history()
    }

    /// Writes the shown report (or, for [`Export::All`], its games and
    /// reports) to the export folder.
    pub fn export(&mut self, what: Export) {
        let running = self.is_running();
        let feedback = self.jobs.feedback_mut();
        feedback.changed();
        if running {
            feedback.error("the run is still going: export when it ends, or cancel it");
            return;
        }
        let Some(r) = &self.report else {
            feedback.error("nothing to export: run the lab first");
            return;
        };
        let dir = PathBuf::from(&self.saved.export_dir);
        let (name, text) = match what {
            Export::Json => ("report.json", r.to_json()),
            Export::Csv => ("report.csv", murus_lab::write::report_csv(r)),
            Export::Svg => ("report.svg", murus_lab::charts::report_svg(r)),
            Export::All => {
                match murus_lab::write_outputs(&dir, r, &self.games) {
                    Ok(()) => feedback.success(format!(
                        "wrote games.jsonl and the reports to {}",
                        dir.display()
                    )),
                    Err(e) => feedback.error(e.to_string()),
                }
                return;
            }
        };
        match files::write(&dir.join(name), &text) {
            Ok(m) | Err(m) => feedback.set(m),
        }
    }
}

// What the view shows of the shown run, read from the model.

/// The command that opens finished game `i` (in [`LabModel::games`] of `m`)
/// in Play.
pub fn open_game(m: &LabModel, i: usize) -> Option<Command> {
    let g = m.games.get(i)?;
    Some(Command::OpenGame {
        variant: m.variant()?.clone(),
        moves: g.moves.clone(),
        label: format!("lab game #{}", g.stats.index + 1),
    })
}

/// A game's result in words, the engine's sentence with its length:
/// `Romans win by stalemate (25 plies)`.
pub fn describe_game(m: &LabModel, g: &GameResult) -> String {
    let s = &g.stats;
    let plies = s.plies;
    let Some(v) = m.variant() else {
        return format!("{} ({plies} plies)", s.reason);
    };
    let mut draw = v.rules().draw;
    if let Some(r) = &m.report {
        draw.ply_cap = Some(r.provenance.max_plies);
    }
    let winner = s.winner.and_then(|letter| v.player_by_letter(letter));
    let outcome = Outcome {
        winner,
        reason: s.reason,
    };
    format!(
        "{} ({plies} plies)",
        v.describe_outcome_under(outcome, draw)
    )
}

/// The rows of the win-rate chart: each seat with its bot, each colour
/// by its player's name, then draws.
pub fn win_rows(m: &LabModel) -> Vec<WinRow> {
    let Some(r) = &m.report else {
        return Vec::new();
    };
    let mut rows: Vec<WinRow> = r
        .by_seat
        .iter()
        .map(|s| WinRow {
            label: format!("Seat {} ({})", s.seat + 1, s.bot),
            rate: s.rate,
            ci95: s.ci95,
            kind: RowKind::Seat(s.seat),
        })
        .collect();
    for (p, letter) in r.provenance.players.iter().enumerate() {
        let Some(c) = r.by_colour.get(&letter.to_string()) else {
            continue;
        };
        let label = m
            .variant()
            .and_then(|v| {
                v.player_by_letter(*letter)
                    .map(|i| v.rules().players[i].name.clone())
            })
            .unwrap_or_else(|| format!("Colour {letter}"));
        rows.push(WinRow {
            label,
            rate: c.rate,
            ci95: c.ci95,
            kind: RowKind::Colour(p),
        });
    }
    rows.push(WinRow {
        label: "Draws".into(),
        rate: r.draws.rate,
        ci95: r.draws.ci95,
        kind: RowKind::Draws,
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::FROM_RULES;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "murus-studio-lab-model-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn until_done(m: &mut LabModel) {
        let t = std::time::Instant::now();
        while m.is_running() {
            assert!(t.elapsed() < Duration::from_secs(60), "the run ends");
            m.poll();
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_run_is_kept_on_disk_and_listed_in_the_history() {
        let runs = scratch("history");
        let mut m = LabModel::new(LabSaved {
            variant: "small".into(),
            games: 6,
            runs_dir: runs.display().to_string(),
            ..LabSaved::default()
        });
        assert!(m.history().is_empty() && m.offer().is_none());
        m.start(None);
        assert!(m.is_running());
        assert_eq!(m.history()[0].state, runs::RunState::Running);
        assert!(!m.history()[0].resumable());
        until_done(&mut m);
        assert_eq!(m.games().len(), 6);
        assert_eq!(m.report().map(|r| r.games), Some(6));
        assert_eq!(m.feedback().text(), Some("finished 6 games"));
        let h = m.history();
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].state, runs::RunState::Complete);
        assert!(
            h[0].summary()
                .starts_with("small: greedy vs random, 6 of 6 games, ")
        );
        // The folder is the lab's: its report is the one shown.
        let kept = std::fs::read_to_string(h[0].folder.join("report.json")).unwrap();
        assert_eq!(Some(kept), m.report().map(Report::to_json));
        // A fresh model finds it, offers nothing, and reopens it.
        let mut again = LabModel::new(m.saved.clone());
        assert_eq!(again.history().len(), 1);
        assert!(again.offer().is_none());
        let folder = again.history()[0].folder.clone();
        again.open_run(&folder);
        assert_eq!(again.report(), m.report());
        assert_eq!(again.games(), m.games());
        assert!(matches!(
            open_game(&again, 0),
            Some(Command::OpenGame { .. })
        ));
        std::fs::remove_dir_all(runs).unwrap();
    }

    #[test]
    fn a_cancelled_run_is_not_offered_but_resumes_from_the_history_to_the_full_report() {
        let runs = scratch("cancel-resume");
        let saved = LabSaved {
            variant: "small".into(),
            bots: vec!["random".into()],
            games: 3000,
            runs_dir: runs.display().to_string(),
            ..LabSaved::default()
        };
        let mut m = LabModel::new(saved.clone());
        m.start(None);
        m.cancel();
        until_done(&mut m);
        let cut = m.games().len();
        assert!(cut < 3000, "the cancel came before the end");
        assert!(m.report().unwrap().interrupted);
        assert!(m.feedback().text().unwrap().starts_with("cancelled after "));
        assert!(m.shown_resumable());
        // The user stopped it: a restart lists it but does not offer it.
        let mut again = LabModel::new(saved.clone());
        assert!(again.offer().is_none());
        let past = again.history()[0].clone();
        assert_eq!(past.state, runs::RunState::Interrupted);
        assert_eq!(past.done, cut as u64);
        again.resume(&past.folder);
        until_done(&mut again);
        assert_eq!(again.games().len(), 3000);
        let whole = {
            let v = Variant::builtin("small").unwrap();
            let config = Config::new(&v, vec![BotSpec::Random], 3000, 1);
            let games = murus_lab::run(&v, &config, &()).unwrap();
            config.report(&stats_of(&games))
        };
        assert_eq!(again.report(), Some(&whole));
        assert_eq!(
            std::fs::read_to_string(past.folder.join("report.json")).unwrap(),
            whole.to_json()
        );
        assert_eq!(again.history()[0].state, runs::RunState::Complete);
        std::fs::remove_dir_all(runs).unwrap();
    }

    #[test]
    fn a_crashed_run_is_offered_once_and_discarding_keeps_it() {
        let runs = scratch("discard");
        let v = Variant::builtin("small").unwrap();
        let config = Config::new(&v, vec![BotSpec::Random], 10, 3);
        let folder = runs.join("crashed");
        let (mut dir, _) =
            murus_lab::RunDir::open(&folder, &config.run_spec(), murus_lab::Mode::New).unwrap();
        for i in 0..4 {
            dir.append(&murus_lab::play_game(&v, &config.setup(i), None).unwrap())
                .unwrap();
        }
        drop(dir);
        let saved = LabSaved {
            runs_dir: runs.display().to_string(),
            ..LabSaved::default()
        };
        let mut m = LabModel::new(saved.clone());
        let offer = m.offer().expect("the crashed run is offered");
        assert_eq!((offer.done, offer.requested), (4, 10));
        assert_eq!(offer.state, runs::RunState::Unfinished);
        m.discard_offer();
        assert!(m.offer().is_none());
        assert!(m.feedback().text().is_some());
        let again = LabModel::new(saved);
        assert!(
            again.offer().is_none(),
            "a discarded run is not offered again"
        );
        assert_eq!(again.history().len(), 1);
        assert!(again.history()[0].resumable());
        // Its games are all still there.
        assert_eq!(
            std::fs::read_to_string(folder.join("games.jsonl"))
                .unwrap()
                .lines()
                .count(),
            4
        );
        std::fs::remove_dir_all(runs).unwrap();
    }

    #[test]
    fn bad_settings_are_refused_with_a_message_that_a_change_clears() {
        let mut m = LabModel::new(LabSaved {
            runs_dir: scratch("refused").display().to_string(),
            ..LabSaved::default()
        });
        m.edit(|s| s.bots[1] = "grandmaster".into());
        assert!(m.bot_error(1).is_some() && m.bot_error(0).is_none());
        m.start(None);
        assert!(!m.is_running());
        assert!(
            m.feedback()
                .text()
                .unwrap()
                .starts_with("seat 2: unknown bot")
        );
        // A change of a balance setting is not self-play's.
        m.edit(|s| s.balance.seed += 1);
        assert!(m.feedback().text().is_some());
        m.edit(|s| s.bots[1] = "random".into());
        assert_eq!(m.feedback().text(), None);
        m.edit(|s| s.variant = FROM_RULES.into());
        m.start(None);
        assert_eq!(
            m.feedback().text(),
            Some("the rules editor's file does not compile")
        );
        m.edit(|s| s.variant = "/no/such/file.mg".into());
        m.start(None);
        assert!(
            m.feedback()
                .text()
                .unwrap()
                .starts_with("/no/such/file.mg: ")
        );
        assert!(m.history().is_empty());
    }
}
