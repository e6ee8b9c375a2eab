//! Balance checks kept in the runs folder, and the thread that plays them.
//!
//! A check lives in `<runs folder>/balance/<date>-<variant>/`: murus-lab's
//! own files ([`murus_lab::balance::run_balance`]: `balance-run.json`
//! first, what decides its games; `levels/LEVEL/` and
//! `skill/UPPER-vs-LOWER/` run folders written game by game, then
//! `balance.json`, `balance.csv` and `balance.svg`), and the studio's
//! ([`notes`]): the rules it plays (`variant.mg`) and a note
//! (`studio-balance.json`: when it started, where its rules came from,
//! whether the user stopped it). Its settings are read from its spec
//! ([`CheckSettings::of_spec`]), and a resume is checked against it by the
//! lab. The folder is the history of checks, what a restart offers to
//! resume, and what "Compare variants" reuses for rules it has checked
//! before (the same spec: the same rules text and settings).
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
use murus_lab::balance::{
    self, BalanceConfig, BalanceReport, BalanceSpec, CheckProgress, Stopping,
};
use murus_lab::folder::Settings as _;
use murus_lab::{LabError, Mode, RunFolder, RunSpec};
use serde::{Deserialize, Serialize};

use super::job::{JobError, JobKind, Kept};
use super::notes::{self, Note};
use crate::worker::Reporter;

/// The folder of the runs folder that keeps balance checks.
pub const CHECKS_FOLDER: &str = "balance";
/// The studio's note about a check, kept in its folder.
pub const CHECK_NOTE: &str = "studio-balance.json";
/// The report murus-lab writes when a check ends (or is cancelled).
pub const BALANCE_FILE: &str = "balance.json";
/// The spec murus-lab writes first ([`BalanceSpec`]).
pub const SPEC_FILE: &str = "balance-run.json";

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
    pub fn config(&self, threads: usize) -> Result<BalanceConfig, JobError> {
        if self.levels.is_empty() {
            return Err(JobError::refused("choose at least one level"));
        }
        let levels = balance::levels_named(&self.levels)?;
        let stopping = match self.stop {
            Stop::Games(0) => return Err(JobError::refused("play at least one game a level")),
            Stop::Games(n) => Stopping::Games(n),
            Stop::Precision { points, max_games } => {
                if !(points > 0.0 && points <= 50.0) {
                    return Err(JobError::refused(format!(
                        "precision ±{points} points: give a half-width above 0 and at most 50"
                    )));
                }
                if max_games == 0 {
                    return Err(JobError::refused("allow at least one game a level"));
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
        config.check()?;
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

impl CheckSettings {
    /// The settings of the check whose spec is `spec` (its folder
    /// `folder`), or `None` when its stopping rule does not read. A spec
    /// written before it kept the skill matches' games leaves them to the
    /// matches' own folders, or to the studio's older note.
    pub fn of_spec(spec: &BalanceSpec, folder: &Path) -> Option<CheckSettings> {
        let stop = match spec.stopping_rule()? {
            Stopping::Games(n) => Stop::Games(n),
            Stopping::Precision {
                precision,
                max_games,
            } => Stop::Precision {
                // Points as the panel gives them (4, not 4.000000000000001).
                points: (precision * 100.0 * 1e9).round() / 1e9,
                max_games,
            },
        };
        let skill_games = spec
            .skill_games
            .or_else(|| skill_games_kept(folder))
            .unwrap_or(0);
        Some(CheckSettings {
            levels: spec.level_names().into_iter().map(String::from).collect(),
            stop,
            openings: spec.openings,
            skill_games,
            seed: spec.seed,
        })
    }
}

/// The settings an older studio kept in its note, where the lab kept
/// none or kept less.
fn older_settings(folder: &Path) -> Option<CheckSettings> {
    #[derive(Deserialize)]
    struct Older {
        settings: CheckSettings,
    }
    let text = std::fs::read_to_string(folder.join(CHECK_NOTE)).ok()?;
    let older: Older = serde_json::from_str(&text).ok()?;
    Some(older.settings)
}

/// The skill matches' games of a check whose spec does not say: their
/// folders' (`skill/*/run.json`), or what the studio's note of an older
/// version kept.
fn skill_games_kept(folder: &Path) -> Option<u64> {
    let matches = std::fs::read_dir(folder.join("skill")).ok();
    let kept = matches.into_iter().flatten().flatten().find_map(|e| {
        let spec = RunFolder::<RunSpec>::read_spec(&e.path()).ok()??;
        Some(spec.run.requested)
    });
    kept.or_else(|| older_settings(folder).map(|s| s.skill_games))
}

/// The spec of a check an older studio kept before the lab kept specs,
/// as the lab would have written it: from its rules and the settings its
/// note kept.
fn older_spec(folder: &Path) -> Option<BalanceSpec> {
    let settings = older_settings(folder)?;
    let source = std::fs::read_to_string(folder.join(notes::VARIANT_FILE)).ok()?;
    let variant = Variant::compile(&source).ok()?;
    Some(BalanceSpec::of(&variant, &settings.config(1).ok()?))
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
    pub note: Note,
    /// What decides its games, as its folder keeps it.
    pub spec: BalanceSpec,
    /// Kept by an older studio, before the lab kept a check's spec: it can
    /// be shown, not resumed (its spec is made from the studio's note).
    pub older: bool,
    /// Its settings as the panel shows them, when its spec reads back.
    pub settings: Option<CheckSettings>,
    pub state: CheckState,
    /// The strongest level played and the first player's rate there, once
    /// the check has a report.
    pub first_player: Option<(String, f64)>,
}

impl PastCheck {
    /// The variant's name.
    pub fn variant(&self) -> &str {
        &self.spec.variant.name
    }

    /// Its settings in words ([`CheckSettings::describe`]; the spec's
    /// stopping rule where they do not read).
    pub fn describe(&self) -> String {
        self.settings.as_ref().map_or_else(
            || {
                format!(
                    "{}, {}",
                    self.spec.level_names().join(","),
                    self.spec.stopping
                )
            },
            CheckSettings::describe,
        )
    }

    /// Whether resuming would play more.
    pub fn resumable(&self) -> bool {
        !self.older && matches!(self.state, CheckState::Interrupted | CheckState::Unfinished)
    }

    /// Whether a start-up should offer to resume it: it ended without the
    /// user stopping it.
    pub fn interrupted_by_accident(&self) -> bool {
        self.resumable() && self.state == CheckState::Unfinished && !self.note.stopped_by_user
    }

    /// One line for the history: `small: random, 20 games a level,
    /// 2026-11-24 10:15, first player 47.5% at random`.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{}: {}, {}",
            self.variant(),
            self.describe(),
            notes::date_time(self.note.started)
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

/// Records whether the user stopped the check in `folder`.
pub fn set_stopped_by_user(folder: &Path, stopped: bool) -> Result<(), JobError> {
    notes::set_stopped_by_user(folder, CHECK_NOTE, stopped)
}

/// The report in `folder`'s `balance.json`
/// ([`murus_lab::balance::read_balance`]): `Ok(None)` when there is none
/// yet, an error naming the file when it does not read.
pub fn read_report(folder: &Path) -> Result<Option<BalanceReport>, JobError> {
    match balance::read_balance(folder) {
        Ok(r) => Ok(Some(r)),
        Err(LabError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// What the check's `balance-run.json` says ([`RunFolder::read_spec`]).
fn read_spec(folder: &Path) -> Result<BalanceSpec, JobError> {
    RunFolder::<BalanceSpec>::read_spec(folder)?.ok_or_else(|| {
        JobError::refused(format!(
            "{}: no {SPEC_FILE}: not a balance check",
            folder.display()
        ))
    })
}

/// The check kept in `folder`, if it holds one (a check the command line
/// kept there is one too, and so is one an older studio kept).
pub fn read(folder: &Path) -> Option<PastCheck> {
    let (spec, older) = match read_spec(folder) {
        Ok(spec) => (spec, false),
        Err(_) => (older_spec(folder)?, true),
    };
    let note = notes::read_or_guess(folder, CHECK_NOTE, SPEC_FILE);
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
        settings: CheckSettings::of_spec(&spec, folder),
        folder: folder.to_path_buf(),
        note,
        spec,
        older,
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

/// The newest complete check in `runs` that `config` of `variant` would
/// play again (the same spec: rules text, engine, levels, stopping rule,
/// openings, seed, skill games): it answers what a new check would.
pub fn find_complete(runs: &Path, variant: &Variant, config: &BalanceConfig) -> Option<PastCheck> {
    let wanted = BalanceSpec::of(variant, config);
    list(runs).into_iter().find(|c| {
        c.state == CheckState::Complete
            && c.spec.differences(&wanted, "asked").is_empty()
            && c.settings
                .as_ref()
                .is_some_and(|s| s.skill_games == config.skill_games)
    })
}

/// Starts a new check's folder in the runs folder `runs` for `config` of
/// `variant` (its rules from `origin`): the rules and the note, then
/// murus-lab's spec ([`RunFolder::open`]); the lab writes the rest as it
/// plays, going on from the spec ([`Request`]).
pub fn create(
    runs: &Path,
    variant: &Variant,
    config: &BalanceConfig,
    origin: &str,
) -> Result<PathBuf, JobError> {
    let (folder, _) = notes::create(&checks_dir(runs), variant, CHECK_NOTE, origin)
        .map_err(|e| e.within("cannot keep the check"))?;
    RunFolder::open(&folder, &BalanceSpec::of(variant, config), Mode::New)?;
    Ok(folder)
}

/// Removes the folder of a check that [`create`] made and whose thread
/// never started it (a comparison cancelled before its turn): it would
/// read as a check cut short. A folder that cannot be removed stays, listed
/// as unfinished.
pub fn forget_unplayed(folder: &Path) {
    let _ = std::fs::remove_dir_all(folder);
}

/// A kept check, read back to be shown or resumed.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The rules it plays.
    pub variant: Variant,
    /// The check as the history lists it.
    pub check: PastCheck,
    /// Its report, once it has one.
    pub report: Option<BalanceReport>,
}

/// Opens the check in `folder`: its rules, spec and report (a
/// `balance.json` that does not read is an error: see [`open_to_resume`]).
pub fn open(folder: &Path) -> Result<Opened, JobError> {
    let (variant, check) = rules_and_check(folder)?;
    let report = read_report(folder)?;
    Ok(Opened {
        variant,
        check,
        report,
    })
}

/// Opens the check in `folder` to go on with it: a `balance.json` that
/// does not read (torn by a kill as it was written) counts as none, since
/// the check rewrites it when it ends.
pub fn open_to_resume(folder: &Path) -> Result<Opened, JobError> {
    let (variant, check) = rules_and_check(folder)?;
    Ok(Opened {
        variant,
        check,
        report: read_report(folder).ok().flatten(),
    })
}

/// The rules and the check kept in `folder`.
fn rules_and_check(folder: &Path) -> Result<(Variant, PastCheck), JobError> {
    let check = match read(folder) {
        Some(c) => c,
        None => {
            return Err(read_spec(folder).err().unwrap_or_else(|| {
                JobError::refused(format!("{}: not a balance check", folder.display()))
            }));
        }
    };
    let variant = notes::rules_of(folder, &check.spec.variant)?;
    Ok((variant, check))
}

/// A check for the thread to play.
#[derive(Clone, Debug)]
pub struct Request {
    pub variant: Variant,
    pub config: BalanceConfig,
    /// Its folder, which holds its spec ([`create`]): the check starts
    /// there, or goes on with the games kept.
    pub folder: PathBuf,
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
    Ended(usize, Box<Result<BalanceReport, LabError>>),
}

impl From<CheckProgress> for CheckMsg {
    fn from(p: CheckProgress) -> CheckMsg {
        CheckMsg::Progress(p)
    }
}

/// What a check is called while it goes on ([`crate::worker::Busy`]).
pub const A_CHECK: &str = "a balance check";

/// Balance checks as a kind of lab job ([`JobPanel`](super::job::JobPanel)).
#[derive(Debug)]
pub struct CheckJob;

impl JobKind for CheckJob {
    type Msg = CheckMsg;
    type Kept = PastCheck;
    const WHAT: &'static str = A_CHECK;
    const DISCARDED: &'static str =
        "the unfinished check stays in the history; resume it from there";

    fn list(runs: &Path) -> Vec<PastCheck> {
        list(runs)
    }

    fn set_stopped_by_user(folder: &Path, stopped: bool) -> Result<(), JobError> {
        set_stopped_by_user(folder, stopped)
    }
}

impl Kept for PastCheck {
    fn folder(&self) -> &Path {
        &self.folder
    }

    fn resumable(&self) -> bool {
        PastCheck::resumable(self)
    }

    fn offered(&self) -> bool {
        self.interrupted_by_accident()
    }

    fn mark_running(&mut self) {
        self.state = CheckState::Running;
    }
}

/// Plays `requests` one after the other (a worker's task), telling
/// `reporter` where each stands; its cancel stops the check under way
/// (finished games are kept) and the ones after it.
pub fn play(requests: Vec<Request>, reporter: &Reporter<CheckMsg>) {
    for (i, r) in requests.into_iter().enumerate() {
        if reporter.cancelled() {
            break;
        }
        reporter.send(CheckMsg::Started(i));
        let result = balance::run_balance(
            &r.variant,
            &r.config,
            Some((&r.folder, Mode::Resume)),
            reporter,
        );
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
        let bad = |s: CheckSettings| s.config(1).unwrap_err().to_string();
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
    fn settings_read_back_from_the_labs_spec_and_older_specs_take_the_skill_games_kept() {
        let v = Variant::builtin("small").unwrap();
        for stop in [
            Stop::Games(20),
            Stop::Precision {
                points: 4.1,
                max_games: 300,
            },
        ] {
            let s = CheckSettings {
                levels: vec!["random".into(), "hard".into()],
                stop,
                openings: 3,
                skill_games: 12,
                seed: 9,
            };
            let spec = BalanceSpec::of(&v, &s.config(1).unwrap());
            assert_eq!(CheckSettings::of_spec(&spec, Path::new("nowhere")), Some(s));
        }
        // A spec without the skill games, and an older studio's note that
        // kept the settings.
        let dir = std::env::temp_dir().join(format!("murus-studio-check-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let s = CheckSettings::default();
        let spec = BalanceSpec {
            skill_games: None,
            ..BalanceSpec::of(&v, &s.config(1).unwrap())
        };
        assert_eq!(
            CheckSettings::of_spec(&spec, &dir).map(|s| s.skill_games),
            Some(0)
        );
        std::fs::write(
            dir.join(CHECK_NOTE),
            r#"{"started": 7, "settings": {"skill_games": 40}}"#,
        )
        .unwrap();
        assert_eq!(
            CheckSettings::of_spec(&spec, &dir).map(|s| s.skill_games),
            Some(40)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_check_kept_by_an_older_studio_is_listed_and_opened_but_not_resumed() {
        let runs =
            std::env::temp_dir().join(format!("murus-studio-older-check-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&runs);
        let v = Variant::builtin("small").unwrap();
        let settings = CheckSettings {
            levels: vec!["random".into()],
            stop: Stop::Games(10),
            skill_games: 0,
            ..CheckSettings::default()
        };
        let folder = checks_dir(&runs).join("old");
        let config = settings.config(1).unwrap();
        let report = balance::run_balance(&v, &config, Some((&folder, Mode::New)), &()).unwrap();
        // What an older studio left: no spec, a note with the settings.
        std::fs::remove_file(folder.join(SPEC_FILE)).unwrap();
        std::fs::write(folder.join(notes::VARIANT_FILE), v.source()).unwrap();
        let note = serde_json::json!({
            "started": 5,
            "origin": "small",
            "variant": "small",
            "source_sha256": murus_lab::source_sha256(v.source()),
            "settings": settings,
            "stopped_by_user": false,
        });
        std::fs::write(folder.join(CHECK_NOTE), note.to_string()).unwrap();
        let listed = list(&runs);
        assert_eq!(listed.len(), 1);
        let c = &listed[0];
        assert!(c.older && !c.resumable());
        assert_eq!(c.settings.as_ref(), Some(&settings));
        assert_eq!(c.state, CheckState::Complete);
        let opened = open(&folder).unwrap();
        assert_eq!(opened.report.map(|r| r.verdict), Some(report.verdict));
        std::fs::remove_dir_all(&runs).unwrap();
    }
}
