//! What a run folder holds, read in one call: its spec, its report when it
//! has one, the games it finished and (a run of games) its configuration,
//! so that a program showing or resuming kept runs (the studio's lab)
//! reads no file of the folder itself.
//!
//! ```
//! use murus_engine::Variant;
//! use murus_lab::rundir::Holding;
//! use murus_lab::{Config, Mode, RunDir, RunSpec};
//!
//! let dir = std::env::temp_dir().join(format!("murus-holding-doc-{}", std::process::id()));
//! let _ = std::fs::remove_dir_all(&dir);
//! let variant = Variant::builtin("small").unwrap();
//! let config = Config::new(&variant, vec!["random".parse().unwrap()], 4, 1);
//! drop(RunDir::open(&dir, &config.run_spec(), Mode::New).unwrap());
//! let held = Holding::<RunSpec>::read(&dir).unwrap();
//! assert_eq!((held.done, held.report.is_none()), (0, true));
//! assert_eq!(held.config(&variant, 1).unwrap().run_spec(), config.run_spec());
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```
//!
//! It sits above the jobs (it knows their specs and reports), and nothing
//! in the crate reads it.

use std::path::{Path, PathBuf};

use murus_engine::Variant;
use serde::de::DeserializeOwned;

use crate::balance::{BalanceReport, BalanceSpec};
use crate::designer::{DesignerReport, ReportSpec};
use crate::error::LabError;
use crate::folder::{RunFolder, Settings, Spec, read_json};
use crate::{Config, GameResult, Report, RunDir, RunSpec};

/// A spec whose folder ends with a report ([`Holding::report`]).
pub trait Held: Spec {
    /// The report the run writes when it ends (or is stopped).
    type Report: DeserializeOwned;
    /// The report's file in the folder.
    const REPORT: &'static str;
    /// The log of the games it plays in the folder, one a line, if it
    /// keeps one there.
    const GAMES: Option<&'static str> = None;
}

impl Held for RunSpec {
    type Report = Report;
    const REPORT: &'static str = "report.json";
    const GAMES: Option<&'static str> = Some("games.jsonl");
}

impl Held for BalanceSpec {
    type Report = BalanceReport;
    const REPORT: &'static str = "balance.json";
}

impl Held for ReportSpec {
    type Report = DesignerReport;
    const REPORT: &'static str = "report.json";
}

/// What a run folder holds.
#[derive(Clone, Debug)]
pub struct Holding<S: Held> {
    /// The folder.
    pub path: PathBuf,
    /// What decides its results, as it keeps it.
    pub spec: S,
    /// Its report: the run ended, or was stopped and said so (`None`: it
    /// never ended, or has not yet).
    pub report: Option<S::Report>,
    /// The games it finished, as its log counts them (a torn last line
    /// does not count; 0 for a run that keeps no log of games).
    pub done: u64,
}

impl<S: Held> Holding<S> {
    /// Reads what the folder `dir` holds, changing nothing. An error names
    /// the file at fault: no spec ([`LabError::NoRun`]: not such a run's
    /// folder), a spec or a report that does not read.
    pub fn read(dir: &Path) -> Result<Holding<S>, LabError> {
        let spec = RunFolder::<S>::read_spec(dir)?.ok_or_else(|| LabError::NoRun {
            path: dir.display().to_string(),
            what: S::WHAT,
            why: format!("it has no {}", S::FILE),
        })?;
        let report_file = dir.join(S::REPORT);
        let report = if report_file.is_file() {
            Some(read_json(
                &report_file,
                &format!("not the report of a {}", S::WHAT),
            )?)
        } else {
            None
        };
        let done = S::GAMES.map_or(0, |log| {
            std::fs::read(dir.join(log))
                .map(|b| b.iter().filter(|&&c| c == b'\n').count() as u64)
                .unwrap_or(0)
        });
        Ok(Holding {
            path: dir.to_path_buf(),
            spec,
            report,
            done,
        })
    }
}

impl Holding<RunSpec> {
    /// The configuration that plays the run's games, of `variant` (the
    /// rules it played), on `threads` threads. Refused where the spec does
    /// not read back (a bot or a shard) or names an opening book, which the
    /// folder does not keep.
    pub fn config(&self, variant: &Variant, threads: usize) -> Result<Config, LabError> {
        let run = &self.spec.run;
        let bad = |what: &str, e: &dyn std::fmt::Display| {
            LabError::Invalid(format!(
                "{}: {what} in {}: {e}",
                self.path.display(),
                RunSpec::FILE
            ))
        };
        if let Some(book) = &run.book {
            return Err(bad(
                "the opening book",
                &format!("{book:?} is not kept here"),
            ));
        }
        let mut bots = Vec::new();
        for b in &run.bots {
            bots.push(b.parse().map_err(|e| bad("a bot", &e))?);
        }
        let mut config = Config::new(variant, bots, run.requested, run.seed)
            .with_max_plies(run.max_plies)
            .with_openings(run.openings)
            .with_threads(threads);
        if let Some(shard) = run.shard {
            let (k, n) = shard.pair();
            config = config.with_shard(k, n)?;
        }
        let differences = Settings::differences(&self.spec, &config.run_spec(), "given");
        if !differences.is_empty() {
            return Err(LabError::Mismatch {
                path: self.path.display().to_string(),
                what: RunSpec::WHAT,
                differences,
            });
        }
        Ok(config)
    }

    /// The games it finished, by number, read as a resume reads them
    /// ([`RunDir::read`]), changing nothing.
    pub fn games(&self) -> Result<Vec<GameResult>, LabError> {
        RunDir::read(&self.path, &self.spec)
    }
}
