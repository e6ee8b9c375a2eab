//! Balance checks kept in the runs folder, and the thread that plays them.
//!
//! A check lives in `<runs folder>/balance/<date>-<variant>/`: murus-lab's
//! own files ([`murus_lab::balance::run_balance`]: `levels/LEVEL/` and
//! `skill/UPPER-vs-LOWER/` run folders written game by game, then
//! `balance.json`, `balance.csv` and `balance.svg`), and two of the
//! studio's: the rules it plays (`variant.mg`) and a note
//! (`studio-balance.json`: the settings that decide its games, so that it
//! can resume; when it started; where its rules came from; whether the user
//! stopped it). The folder is the history of checks, what a restart offers
//! to resume, and what "Compare variants" reuses for rules it has checked
//! before (the same source, by its SHA-256, and the same settings).
//!
//! ```
//! use murus_studio::lab::checks::{CheckSettings, Stop};
//!
//! let s = CheckSettings {
//!     levels: vec!["random".into()],
//!     stop: Stop::Games(20),
//!     ..CheckSettings::default()
//! };
//! let config = s.config(1).unwrap();
//! assert_eq!(config.levels.len(), 1);
//! assert_eq!(s.describe(), "random, 20 games a level");
//! ```

use std::path::{Path, PathBuf};

use murus_engine::Variant;
use murus_lab::Mode;
use murus_lab::balance::{self, BalanceConfig, BalanceReport, CheckProgress, Stopping};
use serde::{Deserialize, Serialize};

use super::runs::{self, VARIANT_FILE};
use crate::worker::Reporter;

/// The folder of the runs folder that keeps balance checks.
pub const CHECKS_FOLDER: &str = "balance";
/// The studio's note about a check, kept in its folder.
pub const CHECK_NOTE: &str = "studio-balance.json";
/// The report murus-lab writes when a check ends (or is cancelled).
pub const BALANCE_FILE: &str = "balance.json";

/// When a level stops playing (murus-lab's [`Stopping`], in the units the
/// panel shows).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    /// Exactly this many games at each level (rounded up to whole rounds).
    Games(u64),
    /// Until the first player's 95% interval is at most ±`points`
    /// percentage points wide, or its edge is clear; at most `max_games`.
    Precision { points: f64, max_games: u64 },
}

/// What decides a check's games: two checks with equal settings of equal
/// rules play the same games, so one can stand for the other.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CheckSettings {
    /// Level names ([`balance::level_names`]), weakest first.
    pub levels: Vec<String>,
    pub stop: Stop,
    /// Random plies that open each round of games.
    pub openings: u32,
    /// Games of each match between adjacent levels (0: no skill trace).
    pub skill_games: u64,
    pub seed: u64,
}

impl Default for CheckSettings {
    /// `murus balance`'s defaults.
    fn default() -> Self {
        CheckSettings {
            levels: ["random", "easy", "medium", "hard"]
                .map(String::from)
                .to_vec(),
            stop: Stop::Precision {
                points: 4.0,
                max_games: 2000,
            },
            openings: 4,
            skill_games: 100,
            seed: 1,
        }
    }
}

impl CheckSettings {
    /// The check murus-lab plays, on `threads` threads, or why there is
    /// none (no level, a precision out of range, no games).
    pub fn config(&self, threads: usize) -> Result<BalanceConfig, String> {
        if self.levels.is_empty() {
            return Err("choose at least one level".into());
        }
        let levels = balance::parse_levels(&self.levels.join(",")).map_err(|e| e.to_string())?;
        let stopping = match self.stop {
            Stop::Games(0) => return Err("play at least one game a level".into()),
            Stop::Games(n) => Stopping::Games(n),
            Stop::Precision { points, max_games } => {
                if !(points > 0.0 && points <= 50.0) {
                    return Err(format!(
                        "precision ±{points} points: give a half-width above 0 and at most 50"
                    ));
                }
                if max_games == 0 {
                    return Err("allow at least one game a level".into());
                }
                Stopping::Precision {
                    precision: points / 100.0,
                    max_games,
                }
            }
        };
        let config = BalanceConfig {
            levels,
            stopping,
            openings: self.openings,
            seed: self.seed,
            threads: threads.max(1),
            shard: None,
            skill_games: self.skill_games,
            max_plies: None,
            book: None,
        };
        config.check().map_err(|e| e.to_string())?;
        Ok(config)
    }

    /// `random,hard, ±4 points (at most 2 000 games)` or `random, 20 games a
    /// level`.
    pub fn describe(&self) -> String {
        let stop = match self.stop {
            Stop::Games(n) => format!("{} games a level", murus_lab::report::grouped(n)),
            Stop::Precision { points, max_games } => format!(
                "±{points} points (at most {} games)",
                murus_lab::report::grouped(max_games)
            ),
        };
        format!("{}, {stop}", self.levels.join(","))
    }
}

/// The studio's note about a check (`studio-balance.json`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CheckNote {
    /// When the check started, in seconds since 1970 (UTC).
    pub started: u64,
    /// Where its rules came from: a shipped variant's name, the rules
    /// editor, or a file's path.
    pub origin: String,
    /// The variant's name.
    pub variant: String,
    /// The SHA-256 of its rules' source ([`murus_lab::source_sha256`]).
    pub source_sha256: String,
    pub settings: CheckSettings,
    /// Whether the user stopped it (Cancel, or Discard when it was offered
    /// for resuming): such a check is not offered again after a restart.
    pub stopped_by_user: bool,
}

/// How far a kept check got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckState {
    /// Every level and match played, report written.
    Complete,
    /// Cancelled: its report covers what was played.
    Interrupted,
    /// Never ended (the studio crashed or was killed): games, no report.
    Unfinished,
    /// Being played now.
    Running,
}

/// A check in the runs folder, as the history lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct PastCheck {
    pub folder: PathBuf,
    pub note: CheckNote,
    pub state: CheckState,
    /// The strongest level played and the first player's rate there, once
    /// the check has a report.
    pub first_player: Option<(String, f64)>,
}

impl PastCheck {
    /// Whether resuming would play more.
    pub fn resumable(&self) -> bool {
        matches!(self.state, CheckState::Interrupted | CheckState::Unfinished)
    }

    /// Whether a start-up should offer to resume it: it ended without the
    /// user stopping it.
    pub fn interrupted_by_accident(&self) -> bool {
        self.state == CheckState::Unfinished && !self.note.stopped_by_user
    }

    /// One line for the history: `small: random, 20 games a level,
    /// 2026-11-24 10:15, first player 47.5% at random`.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{}: {}, {}",
            self.note.variant,
            self.note.settings.describe(),
            runs::date_time(self.note.started)
        );
        match self.state {
            CheckState::Complete => {}
            CheckState::Interrupted => s.push_str(", interrupted"),
            CheckState::Unfinished => s.push_str(", unfinished"),
            CheckState::Running => s.push_str(", running"),
        }
        if let Some((level, rate)) = &self.first_player {
            s.push_str(&format!(", first player {:.1}% at {level}", rate * 100.0));
        }
        s
    }
}

/// The folder of the runs folder `runs` that keeps checks.
pub fn checks_dir(runs: &Path) -> PathBuf {
    runs.join(CHECKS_FOLDER)
}

/// Reads a folder's note, if it has one that reads.
pub fn read_note(folder: &Path) -> Option<CheckNote> {
    let text = std::fs::read_to_string(folder.join(CHECK_NOTE)).ok()?;
    serde_json::from_str(&text).ok()
}

fn write_note(folder: &Path, note: &CheckNote) -> Result<(), String> {
    let text = serde_json::to_string_pretty(note).expect("a note serialises");
    runs::write_atomic(&folder.join(CHECK_NOTE), &text)
}

/// Records whether the user stopped the check in `folder`.
pub fn set_stopped_by_user(folder: &Path, stopped: bool) -> Result<(), String> {
    let Some(mut note) = read_note(folder) else {
        return Err(format!("{}: no {CHECK_NOTE}", folder.display()));
    };
    if note.stopped_by_user == stopped {
        return Ok(());
    }
    note.stopped_by_user = stopped;
    write_note(folder, &note)
}

/// The report in `folder`'s `balance.json`: `Ok(None)` when there is none
/// yet, an error naming the file when it does not read.
pub fn read_report(folder: &Path) -> Result<Option<BalanceReport>, String> {
    let path = folder.join(BALANCE_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| format!("{}: not a balance report: {e}", path.display()))
}

/// The check kept in `folder`, if it is one the studio wrote.
pub fn read(folder: &Path) -> Option<PastCheck> {
    let note = read_note(folder)?;
    let report = read_report(folder).ok().flatten();
    let state = match &report {
        Some(r) if r.interrupted => CheckState::Interrupted,
        Some(_) => CheckState::Complete,
        None => CheckState::Unfinished,
    };
    let first_player = report.as_ref().and_then(|r| {
        r.levels
            .iter()
            .rev()
            .find(|l| l.report.games > 0)
            .map(|l| (l.level.clone(), l.report.first_player_advantage.rate))
    });
    Some(PastCheck {
        folder: folder.to_path_buf(),
        note,
        state,
        first_player,
    })
}

/// The checks kept in the runs folder `runs`, newest first (none if it
/// cannot be read).
pub fn list(runs: &Path) -> Vec<PastCheck> {
    let Ok(entries) = std::fs::read_dir(checks_dir(runs)) else {
        return Vec::new();
    };
    let mut found: Vec<PastCheck> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .filter_map(|p| read(&p))
        .collect();
    found.sort_by(|a, b| (b.note.started, &b.folder).cmp(&(a.note.started, &a.folder)));
    found
}

/// The newest complete check in `runs` of the rules whose source has the
/// SHA-256 `sha256`, played with `settings`: it answers what a new check
/// would.
pub fn find_complete(runs: &Path, sha256: &str, settings: &CheckSettings) -> Option<PastCheck> {
    list(runs).into_iter().find(|c| {
        c.state == CheckState::Complete
            && c.note.source_sha256 == sha256
            && &c.note.settings == settings
    })
}

/// Starts a new check's folder in the runs folder `runs` for `variant`
/// (its rules from `origin`): the rules and the note; murus-lab writes the
/// rest as it plays.
pub fn create(
    runs: &Path,
    variant: &Variant,
    settings: &CheckSettings,
    origin: &str,
) -> Result<PathBuf, String> {
    let started = runs::now();
    let base = checks_dir(runs).join(runs::folder_name(started, variant.name()));
    let mut folder = base.clone();
    let mut n = 1;
    while folder.exists() {
        n += 1;
        folder = PathBuf::from(format!("{}-{n}", base.display()));
    }
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot keep the check in {}: {e}", folder.display()))?;
    runs::write_atomic(&folder.join(VARIANT_FILE), variant.source())?;
    write_note(
        &folder,
        &CheckNote {
            started,
            origin: origin.to_string(),
            variant: variant.name().to_string(),
            source_sha256: murus_lab::source_sha256(variant.source()),
            settings: settings.clone(),
            stopped_by_user: false,
        },
    )?;
    Ok(folder)
}

/// A kept check, read back to be shown or resumed.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The rules it plays (its `variant.mg`).
    pub variant: Variant,
    pub note: CheckNote,
    /// Its report, once it has one.
    pub report: Option<BalanceReport>,
}

/// Opens the check in `folder`: its rules, note and report (a
/// `balance.json` that does not read is an error: see [`open_to_resume`]).
pub fn open(folder: &Path) -> Result<Opened, String> {
    let (variant, note) = rules_and_note(folder)?;
    let report = read_report(folder)?;
    Ok(Opened {
        variant,
        note,
        report,
    })
}

/// Opens the check in `folder` to go on with it: a `balance.json` that
/// does not read (torn by a kill as it was written) counts as none, since
/// the check rewrites it when it ends.
pub fn open_to_resume(folder: &Path) -> Result<Opened, String> {
    let (variant, note) = rules_and_note(folder)?;
    Ok(Opened {
        variant,
        note,
        report: read_report(folder).ok().flatten(),
    })
}

/// The rules (`variant.mg`) and the note of the check in `folder`.
fn rules_and_note(folder: &Path) -> Result<(Variant, CheckNote), String> {
    let note = read_note(folder).ok_or_else(|| {
        format!(
            "{}: no {CHECK_NOTE}: not a balance check of the studio's",
            folder.display()
        )
    })?;
    let path = folder.join(VARIANT_FILE);
    let source = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let variant = Variant::compile(&source).map_err(|d| {
        let first = d.first().map_or(String::new(), |d| d.message.clone());
        format!("{}: the rules no longer compile: {first}", path.display())
    })?;
    Ok((variant, note))
}

/// A check for the thread to play.
#[derive(Clone, Debug)]
pub struct Request {
    pub variant: Variant,
    pub config: BalanceConfig,
    /// Its folder ([`create`]).
    pub folder: PathBuf,
    /// Go on with the check already there (play only its missing games).
    pub resume: bool,
}

/// What the thread playing checks tells the panel.
#[derive(Debug)]
pub enum CheckMsg {
    /// Request `i` started.
    Started(usize),
    /// Where the check under way stands.
    Progress(CheckProgress),
    /// Request `i` ended: its report (interrupted when cancelled), or why
    /// it failed.
    Ended(usize, Box<Result<BalanceReport, String>>),
}

impl From<CheckProgress> for CheckMsg {
    fn from(p: CheckProgress) -> CheckMsg {
        CheckMsg::Progress(p)
    }
}

/// What a check is called while it goes on ([`crate::worker::Busy`]).
pub const A_CHECK: &str = "a balance check";

/// Plays `requests` one after the other (a worker's task), telling
/// `reporter` where each stands; its cancel stops the check under way
/// (finished games are kept) and the ones after it.
pub fn play(requests: Vec<Request>, reporter: &Reporter<CheckMsg>) {
    for (i, r) in requests.into_iter().enumerate() {
        if reporter.cancelled() {
            break;
        }
        reporter.send(CheckMsg::Started(i));
        let mode = if r.resume { Mode::Resume } else { Mode::New };
        let result = balance::run_balance(&r.variant, &r.config, Some((&r.folder, mode)), reporter)
            .map_err(|e| e.to_string());
        if !reporter.send(CheckMsg::Ended(i, Box::new(result))) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_become_murus_labs_check_or_say_what_is_wrong() {
        let s = CheckSettings::default();
        let c = s.config(2).unwrap();
        assert_eq!(
            c.levels.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(),
            ["random", "easy", "medium", "hard"]
        );
        assert_eq!(
            c.stopping,
            Stopping::Precision {
                precision: 0.04,
                max_games: 2000
            }
        );
        assert_eq!((c.openings, c.skill_games, c.seed), (4, 100, 1));
        let bad = |s: CheckSettings| s.config(1).unwrap_err();
        assert_eq!(
            bad(CheckSettings {
                levels: Vec::new(),
                ..s.clone()
            }),
            "choose at least one level"
        );
        assert_eq!(
            bad(CheckSettings {
                stop: Stop::Precision {
                    points: 0.0,
                    max_games: 10
                },
                ..s.clone()
            }),
            "precision ±0 points: give a half-width above 0 and at most 50"
        );
        assert_eq!(
            bad(CheckSettings {
                stop: Stop::Games(0),
                ..s.clone()
            }),
            "play at least one game a level"
        );
        assert!(
            bad(CheckSettings {
                levels: vec!["grandmaster".into()],
                ..s
            })
            .starts_with("unknown level `grandmaster`")
        );
    }

    #[test]
    fn a_note_round_trips_and_older_notes_load() {
        let note = CheckNote {
            started: 5,
            origin: "small".into(),
            variant: "small".into(),
            source_sha256: "ab".into(),
            settings: CheckSettings {
                stop: Stop::Games(20),
                ..CheckSettings::default()
            },
            stopped_by_user: true,
        };
        let text = serde_json::to_string(&note).unwrap();
        assert_eq!(serde_json::from_str::<CheckNote>(&text).unwrap(), note);
        let old: CheckNote = serde_json::from_str(r#"{"started": 7}"#).unwrap();
        assert_eq!(old.started, 7);
        assert_eq!(old.settings, CheckSettings::default());
    }
}
