//! Run folders: one protocol for every run the lab keeps on disk (a
//! self-play run, a match, a balance check, a sweep, training data).
//!
//! A folder holds its run's spec first ([`Spec::FILE`]: everything that
//! decides the run's results), then what the run records as it goes (a
//! log of games, one a line, or the folders of its parts), then its
//! outputs when it ends ([`Spec::OUTPUTS`]: the reports). Every whole file
//! is written whole or not at all ([`murus_engine::util::write_atomic`]),
//! so a run killed at any moment leaves the old file or the new one.
//!
//! * [`RunFolder::open`] starts a run ([`Mode::New`]: refused where a run
//!   is already kept) or goes on with the one there ([`Mode::Resume`]:
//!   started when the folder keeps none, refused when it keeps a run of
//!   other settings, each difference named by [`Settings::differences`]).
//!   One rule for every run, so that a job requeued by a scheduler runs
//!   the same command again, whether or not its first try got as far as
//!   writing its spec.
//! * [`check_shards`] checks that folders given to a merge hold the shards
//!   of one run, each once; [`Shard`] parses `--shard K/N`.
//!
//! What is where: this file holds the protocol; `shard` the shards;
//! `differ` the wording of differences; `lines` the logs of records one a
//! line; `games` the folder of a run of games ([`RunDir`]) and the merge
//! of its shards.

pub(crate) mod as_text;
mod differ;
mod games;
pub(crate) mod lines;
mod shard;

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::LabError;

pub(crate) use differ::{Differences, or_none};
pub(crate) use games::merge_copies;
pub use games::{RunDir, RunSpec, merge, read_outputs, write_outputs};
pub use shard::{Partial, Shard, ShardSet, Sharded, check_finished, check_shards};

/// The settings of a run that decide its results: a run resumes only with
/// the same, and shards merge only with the same but for their shard
/// ([`Sharded`]).
pub trait Settings: Clone {
    /// What the settings describe, in messages: `run`, `check`, `sweep`.
    const WHAT: &'static str;

    /// One sentence per setting in which `self` (found in a folder)
    /// differs from `other`, which `here` names (`asked` for a resume,
    /// `here` for another shard): `seed 4 there, 5 asked`.
    fn differences(&self, other: &Self, here: &'static str) -> Vec<String>;
}

/// A run's spec, as its folder keeps it.
pub trait Spec: Settings + Serialize + DeserializeOwned {
    /// The file that holds the spec, written before anything else.
    const FILE: &'static str;
    /// The files that only a run leaves (its log, its reports): a new run
    /// refuses a folder that holds one.
    const FILES: &'static [&'static str];
    /// The files written when the run ends (its reports).
    const OUTPUTS: &'static [&'static str];
}

/// How [`RunFolder::open`] opens a folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Start a new run: refused where a run is kept already.
    New,
    /// Go on with the run kept there, or start it there when the folder
    /// keeps none: refused only when it keeps a run of other settings.
    Resume,
}

/// What [`RunFolder::open`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opened {
    /// It started a new run (its spec is written).
    Started,
    /// It found the run asked for, to go on with it.
    Resumed,
}

/// A run's folder, opened: its path and the spec it holds.
#[derive(Clone, Debug)]
pub struct RunFolder<S> {
    path: PathBuf,
    spec: S,
    opened: Opened,
}

/// The error of a failed read or write of `path`.
pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> LabError + use<> {
    let path = path.display().to_string();
    move |source| LabError::Io { path, source }
}

/// Reads the JSON file at `path` as a `T`; `what` says what it should be
/// (`not a run's configuration`).
pub(crate) fn read_json<T: DeserializeOwned>(path: &Path, what: &str) -> Result<T, LabError> {
    let text = std::fs::read_to_string(path).map_err(io(path))?;
    serde_json::from_str(&text).map_err(|e| LabError::Parse {
        path: path.display().to_string(),
        line: e.line(),
        message: format!("{what}: {e}"),
    })
}

/// `value` as pretty JSON with a final newline.
pub(crate) fn json_text<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("a spec serialises") + "\n"
}

/// Writes each of `files` (a name and its text) into `dir`, created if
/// missing, each whole or not at all.
pub fn write_files(dir: &Path, files: &[(&str, String)]) -> Result<(), LabError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    for (name, text) in files {
        murus_engine::util::write_atomic(&dir.join(name), text).map_err(LabError::Write)?;
    }
    Ok(())
}

impl<S: Spec> RunFolder<S> {
    /// Opens the folder at `path` for a run of `spec`.
    ///
    /// * [`Mode::New`] starts the run there: it writes the spec (creating
    ///   the folder), and refuses a folder that keeps a run already
    ///   ([`LabError::RunExists`]), so that nothing is overwritten.
    /// * [`Mode::Resume`] goes on with the run kept there when the folder
    ///   keeps one, and starts it there when it keeps none (see
    ///   [`RunFolder::opened`]); it refuses a run of other settings
    ///   ([`LabError::Mismatch`], naming each difference), and a folder
    ///   with a run's files but no spec ([`LabError::NoRun`]).
    pub fn open(path: &Path, spec: &S, mode: Mode) -> Result<RunFolder<S>, LabError> {
        let opened = match (mode, RunFolder::<S>::read_spec(path)?) {
            (Mode::New, Some(_)) => return Err(exists::<S>(path, S::FILE)),
            (Mode::Resume, Some(found)) => {
                let differences = found.differences(spec, "asked");
                if !differences.is_empty() {
                    return Err(LabError::Mismatch {
                        path: path.display().to_string(),
                        what: S::WHAT,
                        differences,
                    });
                }
                Opened::Resumed
            }
            (mode, None) => {
                if let Some(file) = RunFolder::<S>::stray_file(path) {
                    return Err(match mode {
                        Mode::New => exists::<S>(path, file),
                        Mode::Resume => LabError::NoRun {
                            path: path.display().to_string(),
                            what: S::WHAT,
                            why: format!(
                                "it holds {file} but no {} (it was not written by a run that can resume)",
                                S::FILE
                            ),
                        },
                    });
                }
                std::fs::create_dir_all(path).map_err(io(path))?;
                write_files(path, &[(S::FILE, json_text(spec))])?;
                Opened::Started
            }
        };
        Ok(RunFolder {
            path: path.to_path_buf(),
            spec: spec.clone(),
            opened,
        })
    }

    /// Whether the folder at `path` keeps nothing of a run (neither its
    /// spec nor any of its files; it may not exist): a run opened there,
    /// new or to resume, starts afresh.
    pub fn is_fresh(path: &Path) -> bool {
        !path.join(S::FILE).exists() && RunFolder::<S>::stray_file(path).is_none()
    }

    /// A file (or folder) of a run in `path` besides its spec.
    fn stray_file(path: &Path) -> Option<&'static str> {
        S::FILES.iter().copied().find(|f| path.join(f).exists())
    }

    /// The spec kept in the folder at `path`, if it keeps one (read
    /// without changing anything).
    pub fn read_spec(path: &Path) -> Result<Option<S>, LabError> {
        let file = path.join(S::FILE);
        if !file.is_file() {
            return Ok(None);
        }
        read_json(&file, &format!("not {}'s spec", article(S::WHAT))).map(Some)
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The run's spec.
    pub fn spec(&self) -> &S {
        &self.spec
    }

    /// Whether the folder was started or resumed.
    pub fn opened(&self) -> Opened {
        self.opened
    }

    /// Removes the outputs an earlier end of the run wrote (they describe
    /// less than the run will).
    pub fn clear_outputs(&self) -> Result<(), LabError> {
        for name in S::OUTPUTS {
            let path = self.path.join(name);
            match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&path)(e)),
                _ => {}
            }
        }
        Ok(())
    }

    /// Writes the run's outputs, each whole or not at all.
    pub fn write_outputs(&self, files: &[(&str, String)]) -> Result<(), LabError> {
        write_files(&self.path, files)
    }
}

/// "A run", "a check": `what` with its article.
fn article(what: &str) -> String {
    let vowel = what.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {what}", if vowel { "an" } else { "a" })
}

/// The error of a new run in `path`, which keeps `file` of a run already.
fn exists<S: Spec>(path: &Path, file: &str) -> LabError {
    LabError::RunExists {
        path: path.display().to_string(),
        what: S::WHAT,
        file: file.to_string(),
    }
}
