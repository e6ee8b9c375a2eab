//! The runs folder: each lab run keeps its own folder there, written by
//! murus-lab's [`RunDir`] game by game (so a crash loses nothing): its
//! spec (`run.json`, what decides its games) first, then its games and,
//! when it ends, its reports; beside them the studio keeps the rules it
//! played and a note of its own ([`notes`]: `studio.json`). The folder is
//! the history of runs, and what a restart offers to resume.

use std::path::{Path, PathBuf};

use murus_engine::Variant;
use murus_lab::report::grouped;
use murus_lab::rundir::Holding;
use murus_lab::{Config, GameResult, LabError, Mode, Report, RunDir, RunSpec, stats_of};

use super::job::{JobError, JobKind, Kept};
use super::notes::{self, Note};

pub use super::notes::{VARIANT_FILE, date_time};

/// The studio's note about a run, kept in its folder.
pub const NOTE_FILE: &str = "studio.json";

/// How far a kept run got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    /// Every game played, report written.
    Complete,
    /// Stopped before its last game; its report covers the finished games.
    Interrupted,
    /// Never ended (the studio crashed or was killed): games, no report.
    Unfinished,
    /// Being played now.
    Running,
}

/// A run in the runs folder, as the history lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct PastRun {
    pub folder: PathBuf,
    /// The variant's name.
    pub variant: String,
    /// Bot spec per seat.
    pub bots: Vec<String>,
    /// Games asked for.
    pub requested: u64,
    /// Games finished.
    pub done: u64,
    pub state: RunState,
    pub note: Note,
    /// The first player's win rate, once the run has a report.
    pub first_player: Option<f64>,
}

impl PastRun {
    /// Whether resuming would play more games.
    pub fn resumable(&self) -> bool {
        matches!(self.state, RunState::Interrupted | RunState::Unfinished)
            && self.done < self.requested
    }

    /// Whether a start-up should offer to resume it: it ended without the
    /// user stopping it.
    pub fn interrupted_by_accident(&self) -> bool {
        self.resumable() && !self.note.stopped_by_user
    }

    /// One line for the history: `small: greedy vs random, 6 of 6 games,
    /// 2026-11-23 10:15, first player 52.0%`.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{}: {}, {} of {} games, {}",
            self.variant,
            self.bots.join(" vs "),
            grouped(self.done),
            grouped(self.requested),
            date_time(self.note.started)
        );
        match self.state {
            RunState::Complete => {}
            RunState::Interrupted => s.push_str(", interrupted"),
            RunState::Unfinished => s.push_str(", unfinished"),
            RunState::Running => s.push_str(", running"),
        }
        if let Some(rate) = self.first_player {
            s.push_str(&format!(", first player {:.1}%", rate * 100.0));
        }
        s
    }
}

/// Self-play runs as a kind of lab job ([`JobPanel`](super::job::JobPanel)).
#[derive(Debug)]
pub struct RunJob;

/// What the Lab's self-play is called while it goes on
/// ([`crate::worker::Busy`]).
pub const A_RUN: &str = "a lab run";

impl JobKind for RunJob {
    type Msg = RunMsg;
    type Kept = PastRun;
    const WHAT: &'static str = A_RUN;
    const DISCARDED: &'static str =
        "the interrupted run stays in the history; resume it from there";

    fn list(runs: &Path) -> Vec<PastRun> {
        list(runs)
    }

    fn set_stopped_by_user(folder: &Path, stopped: bool) -> Result<(), JobError> {
        set_stopped_by_user(folder, stopped)
    }
}

impl Kept for PastRun {
    fn folder(&self) -> &Path {
        &self.folder
    }

    fn resumable(&self) -> bool {
        PastRun::resumable(self)
    }

    fn offered(&self) -> bool {
        self.interrupted_by_accident()
    }

    fn mark_running(&mut self) {
        self.state = RunState::Running;
    }
}

/// What a run's thread tells the model.
#[derive(Debug)]
pub enum RunMsg {
    /// Games finished so far (those found done included), and the games
    /// finished since the last news.
    Games(u64, Vec<GameResult>),
    /// The report of the games finished so far.
    Report(Box<Report>),
    /// The run ended: its report (marked interrupted when it was stopped),
    /// or why it failed.
    Ended(Box<Result<Report, LabError>>),
}

/// Reads a run folder's note (the default where there is none).
pub fn read_note(folder: &Path) -> Note {
    notes::read(folder, NOTE_FILE).unwrap_or_default()
}

/// Records whether the user stopped the run in `folder`.
pub fn set_stopped_by_user(folder: &Path, stopped: bool) -> Result<(), JobError> {
    notes::set_stopped_by_user(folder, NOTE_FILE, stopped)
}

/// Starts a new run's folder in `runs` for `config` of `variant` (its rules
/// from `origin`): the rules and the note first, then murus-lab's
/// `run.json`; the returned [`RunDir`] takes each game as it finishes.
pub fn create(
    runs: &Path,
    variant: &Variant,
    config: &Config,
    origin: &str,
) -> Result<RunDir, JobError> {
    let (folder, _) = notes::create(runs, variant, NOTE_FILE, origin)
        .map_err(|e| e.within("cannot keep the run"))?;
    let (dir, _) = RunDir::open(&folder, &config.run_spec(), Mode::New)?;
    Ok(dir)
}

/// The self-play run kept in `folder`, if it holds one (a `murus match`
/// folder is not a Lab run: the Lab could neither show nor resume it).
pub fn read(folder: &Path) -> Option<PastRun> {
    let held = Holding::<RunSpec>::read(folder)
        .ok()
        .filter(|h| h.spec.command == "selfplay")?;
    let spec = &held.spec;
    let (state, done, first_player) = match &held.report {
        Some(r) if r.interrupted => (
            RunState::Interrupted,
            r.games,
            Some(r.first_player_advantage.rate),
        ),
        Some(r) => (
            RunState::Complete,
            r.games,
            Some(r.first_player_advantage.rate),
        ),
        None => (RunState::Unfinished, held.done, None),
    };
    let note = notes::read_or_guess(folder, NOTE_FILE, "run.json");
    Some(PastRun {
        folder: folder.to_path_buf(),
        variant: spec.run.variant.name.clone(),
        bots: spec.run.bots.clone(),
        requested: spec.run.requested,
        done,
        state,
        note,
        first_player,
    })
}

/// The runs kept in `runs`, newest first (none if it cannot be read).
pub fn list(runs: &Path) -> Vec<PastRun> {
    let Ok(entries) = std::fs::read_dir(runs) else {
        return Vec::new();
    };
    let mut found: Vec<PastRun> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .filter_map(|p| read(&p))
        .collect();
    found.sort_by(|a, b| (b.note.started, &b.folder).cmp(&(a.note.started, &a.folder)));
    found
}

/// A kept run, read back to be shown or resumed.
#[derive(Debug)]
pub struct Opened {
    /// The rules it played.
    pub variant: Variant,
    /// Its configuration (threads: those of this machine).
    pub config: Config,
    /// Its finished games, by number.
    pub games: Vec<GameResult>,
    /// Its report: the one it wrote, or (a run that never ended) the report
    /// of its finished games, marked interrupted.
    pub report: Report,
    /// The folder, open to go on with the run (`None` when opened to be
    /// shown: the folder is then left as it is).
    pub dir: Option<RunDir>,
}

/// Opens the run in `folder` to show it (`resume` false: the folder is only
/// read) or to go on with it on `threads` threads.
pub fn open(folder: &Path, threads: usize, resume: bool) -> Result<Opened, JobError> {
    let held = Holding::<RunSpec>::read(folder)?;
    let variant = notes::rules_of(folder, &held.spec.run.variant)?;
    let config = held.config(&variant, threads)?;
    let (dir, games) = if resume {
        let (dir, games) = RunDir::open(folder, &config.run_spec(), Mode::Resume)?;
        (Some(dir), games)
    } else {
        (None, held.games()?)
    };
    let report = match held.report {
        Some(r) => r,
        None => config.report_interrupted(&stats_of(&games), true),
    };
    Ok(Opened {
        variant,
        config,
        games,
        report,
        dir,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_history_lists_self_play_runs_not_match_folders() {
        let runs = std::env::temp_dir().join(format!("murus-studio-runs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&runs);
        let v = Variant::standard();
        let selfplay = Config::new(&v, vec![murus_ai::BotSpec::Random], 4, 1);
        drop(RunDir::open(&runs.join("a-selfplay"), &selfplay.run_spec(), Mode::New).unwrap());
        let m = murus_lab::MatchConfig {
            a: murus_ai::BotSpec::Random,
            b: murus_ai::BotSpec::Greedy,
            games: 4,
            seed: 1,
            threads: 1,
            sprt: None,
            openings: 0,
            book: None,
            shard: None,
        };
        drop(RunDir::open(&runs.join("b-match"), &m.run_spec(&v).unwrap(), Mode::New).unwrap());
        let listed: Vec<PathBuf> = list(&runs).into_iter().map(|r| r.folder).collect();
        assert_eq!(listed, [runs.join("a-selfplay")]);
        std::fs::remove_dir_all(&runs).unwrap();
    }
}
