//! The runs folder: each lab run keeps its own folder there, written by
//! murus-lab's [`RunDir`] game by game (so a crash loses nothing), plus two
//! files of the studio's own: the rules it played (`variant.mg`) and a note
//! (`studio.json`: when it started, where its rules came from, whether the
//! user stopped it). The folder is the history of runs, and what a restart
//! offers to resume.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use murus_engine::Variant;
use murus_lab::report::grouped;
use murus_lab::{Config, GameResult, Mode, Report, RunDir, RunSpec, stats_of};
use serde::{Deserialize, Serialize};

/// The rules a run played, kept in its folder.
pub const VARIANT_FILE: &str = "variant.mg";
/// The studio's note about a run, kept in its folder.
pub const NOTE_FILE: &str = "studio.json";

/// The studio's note about a run (`studio.json`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunNote {
    /// When the run started, in seconds since 1970 (UTC).
    pub started: u64,
    /// Where its rules came from: a shipped variant's name, the rules
    /// editor, or a file's path.
    pub origin: String,
    /// Whether the user stopped it (Cancel, or Discard when it was offered
    /// for resuming): such a run is not offered again after a restart.
    pub stopped_by_user: bool,
}

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
    pub note: RunNote,
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

/// Seconds since 1970 now.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The civil date (year, month, day) of a day count since 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `2026-11-23 10:15` (UTC) for seconds since 1970.
pub fn date_time(secs: u64) -> String {
    let (y, m, d) = civil((secs / 86_400) as i64);
    let t = secs % 86_400;
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}", t / 3600, t % 3600 / 60)
}

/// A folder name for a run of `variant` started at `secs`:
/// `20261123-101500-standard`.
pub(crate) fn folder_name(secs: u64, variant: &str) -> String {
    let (y, m, d) = civil((secs / 86_400) as i64);
    let t = secs % 86_400;
    let name: String = variant
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}-{name}",
        t / 3600,
        t % 3600 / 60,
        t % 60
    )
}

/// Reads a folder's note; a missing or unreadable note is the default.
pub fn read_note(folder: &Path) -> RunNote {
    std::fs::read_to_string(folder.join(NOTE_FILE))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Writes `text` to `path` whole or not at all
/// ([`murus_engine::util::write_atomic`]); the error names the file.
pub(crate) fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    murus_engine::util::write_atomic(path, text).map_err(|e| e.to_string())
}

fn write_note(folder: &Path, note: &RunNote) -> Result<(), String> {
    let text = serde_json::to_string_pretty(note).expect("a note serialises");
    write_atomic(&folder.join(NOTE_FILE), &text)
}

/// Records whether the user stopped the run in `folder`.
pub fn set_stopped_by_user(folder: &Path, stopped: bool) -> Result<(), String> {
    let mut note = read_note(folder);
    if note.stopped_by_user == stopped {
        return Ok(());
    }
    note.stopped_by_user = stopped;
    write_note(folder, &note)
}

/// Starts a new run's folder in `runs` for `config` of `variant` (its rules
/// from `origin`): the rules and the note first, then murus-lab's
/// `run.json`; the returned [`RunDir`] takes each game as it finishes.
pub fn create(
    runs: &Path,
    variant: &Variant,
    config: &Config,
    origin: &str,
) -> Result<RunDir, String> {
    let started = now();
    let base = runs.join(folder_name(started, variant.name()));
    let mut folder = base.clone();
    let mut n = 1;
    while folder.exists() {
        n += 1;
        folder = PathBuf::from(format!("{}-{n}", base.display()));
    }
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot keep the run in {}: {e}", folder.display()))?;
    write_atomic(&folder.join(VARIANT_FILE), variant.source())?;
    write_note(
        &folder,
        &RunNote {
            started,
            origin: origin.to_string(),
            stopped_by_user: false,
        },
    )?;
    RunDir::open(&folder, &config.run_spec(), Mode::New)
        .map(|(dir, _)| dir)
        .map_err(|e| e.to_string())
}

/// What the folder's `run.json` says, or why it cannot be read.
fn read_spec(folder: &Path) -> Result<RunSpec, String> {
    let path = folder.join("run.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The report the folder holds, if its run ended.
fn read_report(folder: &Path) -> Option<Report> {
    let text = std::fs::read_to_string(folder.join("report.json")).ok()?;
    serde_json::from_str(&text).ok()
}

/// Lines of a `games.jsonl` (one finished game each); a torn last line
/// does not count.
fn count_games(folder: &Path) -> u64 {
    std::fs::read(folder.join("games.jsonl"))
        .map(|b| b.iter().filter(|&&c| c == b'\n').count() as u64)
        .unwrap_or(0)
}

/// The self-play run kept in `folder`, if it holds one (a `murus match`
/// folder is not a Lab run: the Lab could neither show nor resume it).
pub fn read(folder: &Path) -> Option<PastRun> {
    let spec = read_spec(folder).ok().filter(|s| s.command == "selfplay")?;
    let report = read_report(folder);
    let (state, done, first_player) = match &report {
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
        None => (RunState::Unfinished, count_games(folder), None),
    };
    let mut note = read_note(folder);
    if note.started == 0 {
        // A folder without the studio's note (the command line's): its
        // configuration's time.
        note.started = std::fs::metadata(folder.join("run.json"))
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_secs());
    }
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

/// The rules of the run in `folder`: its `variant.mg`, or (a folder the
/// studio did not write) the shipped variant of that name.
fn variant_of(folder: &Path, spec: &RunSpec) -> Result<Variant, String> {
    let path = folder.join(VARIANT_FILE);
    match std::fs::read_to_string(&path) {
        Ok(source) => Variant::compile(&source).map_err(|d| {
            let first = d.first().map_or(String::new(), |d| d.message.clone());
            format!("{}: the rules no longer compile: {first}", path.display())
        }),
        Err(_) => Variant::builtin(&spec.run.variant.name).ok_or_else(|| {
            format!(
                "{}: no {VARIANT_FILE} and no shipped variant `{}`",
                folder.display(),
                spec.run.variant.name
            )
        }),
    }
}

/// Opens the run in `folder` to show it (`resume` false: the folder is only
/// read) or to go on with it on `threads` threads.
pub fn open(folder: &Path, threads: usize, resume: bool) -> Result<Opened, String> {
    let spec = read_spec(folder)?;
    let variant = variant_of(folder, &spec)?;
    let mut bots = Vec::new();
    for b in &spec.run.bots {
        bots.push(
            b.parse()
                .map_err(|e| format!("{}: {e}", folder.display()))?,
        );
    }
    let mut config = Config::new(&variant, bots, spec.run.requested, spec.run.seed)
        .with_max_plies(spec.run.max_plies)
        .with_threads(threads);
    if let Some(shard) = &spec.run.shard {
        let (k, n) = shard
            .split_once('/')
            .and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)))
            .ok_or_else(|| format!("{}: a bad shard `{shard}`", folder.display()))?;
        config = config.with_shard(k, n).map_err(|e| e.to_string())?;
    }
    let (dir, games) = if resume {
        let (dir, games) =
            RunDir::open(folder, &config.run_spec(), Mode::Resume).map_err(|e| e.to_string())?;
        (Some(dir), games)
    } else {
        let games = RunDir::read(folder, &config.run_spec()).map_err(|e| e.to_string())?;
        (None, games)
    };
    let report = match read_report(folder) {
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

    #[test]
    fn dates_and_folder_names_are_civil_utc() {
        assert_eq!(date_time(0), "1970-01-01 00:00");
        // 2000-02-29 12:34:56 UTC, a leap day.
        assert_eq!(date_time(951_827_696), "2000-02-29 12:34");
        assert_eq!(
            folder_name(951_827_696, "my variant"),
            "20000229-123456-my_variant"
        );
        assert_eq!(date_time(1_798_761_599), "2026-12-31 23:59");
    }
}
