//! Playing a sweep: every combination of its shard, compiled, and its
//! balance check run (or its diagnostics kept), kept on disk combination by
//! combination.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

use murus_dsl::Diagnostic;
use murus_engine::Variant;

use super::SweepError;
use super::merge::{read_json, write_sweep};
use super::rank::{rank, row_of};
use super::space::{Space, label, space};
use crate::balance::{self, BalanceConfig, Progress};
use crate::error::LabError;
use crate::record::{VariantId, source_sha256};
use crate::report::{FORMAT, Skipped, SweepReport, SweepSpec};
use crate::rundir::write_atomic;
use crate::runner::lock;

/// A sweep.
#[derive(Clone, Debug)]
pub struct SweepConfig {
    /// Values to sweep instead of the declared ones: `("files", [7, 9])`.
    pub set: Vec<(String, Vec<u32>)>,
    /// The balance check of each combination, every one with the same seed
    /// (its `shard` is not used: a sweep shards by combination, so each
    /// check plays whole and may stop by precision).
    pub balance: BalanceConfig,
    /// `(k, n)`: play only the combinations numbered `k - 1` modulo `n`
    /// (`k` from 1 to `n`, as selfplay's shards).
    pub shard: Option<(u64, u64)>,
}

/// Where a sweep stands.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepStage {
    /// The combination being played (`files=8,ranks=7`).
    pub label: String,
    /// Combinations of this sweep (its shard) finished before it.
    pub done: u64,
    /// Combinations of this sweep (its shard).
    pub of: u64,
}

/// Where a combination's check stands: its stage, games finished, and
/// the most it may play ([`Progress::now`]).
pub type CheckNow = (balance::Stage, u64, u64);

/// A sweep's progress, shared with the thread that shows it, and its
/// cancel flag (`balance.cancel`).
#[derive(Debug, Default)]
pub struct SweepProgress {
    /// The current combination's balance check.
    pub balance: Progress,
    current: Mutex<Option<SweepStage>>,
}

impl SweepProgress {
    /// The combination being played, and where its check stands.
    pub fn now(&self) -> Option<(SweepStage, Option<CheckNow>)> {
        let stage = lock(&self.current).clone()?;
        Some((stage, self.balance.now()))
    }

    /// Stops the sweep: finished games are kept (and on disk).
    pub fn cancel(&self) {
        self.balance.cancel();
    }

    fn is_cancelled(&self) -> bool {
        self.balance
            .cancel
            .load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// The file a sweep folder holds its spec in, written first.
pub const SPEC_FILE: &str = "sweep-run.json";
/// The folder of the combinations' checks.
pub const COMBOS: &str = "combos";

/// The variant name a rule file declares (`variant "NAME"`).
fn declared_name(source: &str) -> Option<String> {
    murus_dsl::parse(source)
        .ok()?
        .items
        .iter()
        .find_map(|i| match i {
            murus_dsl::ast::Item::Variant(s) => Some(s.value.value.clone()),
            _ => None,
        })
}

/// The spec of a sweep of `source` (named `file`) over `space`.
pub fn spec_of(
    file: &str,
    source: &str,
    space: &Space,
    balance: &BalanceConfig,
    shard: Option<(u64, u64)>,
) -> SweepSpec {
    let name = declared_name(source).unwrap_or_else(|| {
        Path::new(file)
            .file_stem()
            .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned())
    });
    SweepSpec {
        format: FORMAT,
        variant: VariantId {
            name,
            source_sha256: source_sha256(source),
        },
        engine_version: env!("CARGO_PKG_VERSION").to_string(),
        parameters: space.params.iter().map(|(n, _)| n.clone()).collect(),
        values: space
            .params
            .iter()
            .map(|(_, v)| v.iter().map(|&x| i64::from(x)).collect())
            .collect(),
        combinations: space.len(),
        levels: balance.levels.iter().map(|l| l.name.clone()).collect(),
        stopping: balance.stopping.describe(),
        openings: balance.openings,
        seed: balance.seed,
        skill_games: balance.skill_games,
        max_plies: balance.max_plies,
        shard: shard.map(|(k, n)| format!("{k}/{n}")),
    }
}

impl SweepSpec {
    /// One sentence per setting in which `self` (found) differs from
    /// `asked`: `seed 1 there, 2 asked`.
    pub fn differences(&self, asked: &SweepSpec, here: &str) -> Vec<String> {
        let flat = |s: &SweepSpec| -> Vec<(String, String)> {
            let serde_json::Value::Object(map) =
                serde_json::to_value(s).expect("a sweep spec serialises")
            else {
                return Vec::new();
            };
            let text = |v: &serde_json::Value| match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Null => "none".into(),
                v => v.to_string(),
            };
            let mut out = Vec::new();
            for (k, v) in map {
                match v {
                    serde_json::Value::Object(inner) => {
                        for (k2, v2) in inner {
                            out.push((format!("{k} {k2}"), text(&v2)));
                        }
                    }
                    v => out.push((k.replace('_', " "), text(&v))),
                }
            }
            out
        };
        let (a, b) = (flat(self), flat(asked));
        a.iter()
            .zip(&b)
            .filter(|((_, x), (_, y))| x != y)
            .map(|((k, x), (_, y))| format!("{k} {x} there, {y} {here}"))
            .collect()
    }
}

/// Prepares folder `out` for a sweep of `spec`: a new sweep writes
/// [`SPEC_FILE`] there (refusing a folder that holds one), a resumed one
/// checks that the sweep there is this one (or starts it when there is
/// none).
fn open_dir(out: &Path, spec: &SweepSpec, resume: bool) -> Result<(), SweepError> {
    let path = out.join(SPEC_FILE);
    if path.exists() {
        if !resume {
            return Err(SweepError::Invalid(format!(
                "{} already holds a sweep ({SPEC_FILE}): add --resume to continue it, or give a new --out folder",
                out.display()
            )));
        }
        let found: SweepSpec = read_json(&path)?;
        let differences = found.differences(spec, "asked");
        if !differences.is_empty() {
            return Err(SweepError::Invalid(format!(
                "{} holds a different sweep: {}; resume with the options it started with, or give a new --out folder",
                out.display(),
                differences.join("; ")
            )));
        }
        return Ok(());
    }
    std::fs::create_dir_all(out).map_err(|source| LabError::Io {
        path: out.display().to_string(),
        source,
    })?;
    let text = serde_json::to_string_pretty(spec).expect("a sweep spec serialises") + "\n";
    write_atomic(&path, &text)?;
    Ok(())
}

/// The first error of `diags`, as its rendering's first line:
/// `FILE:LINE:COL: error: MESSAGE`.
fn headline(diags: &[Diagnostic], file: &str, source: &str) -> String {
    diags
        .iter()
        .find(|d| d.is_error())
        .or(diags.first())
        .map(|d| {
            d.render(file, source)
                .lines()
                .next()
                .unwrap_or_default()
                .to_string()
        })
        .unwrap_or_default()
}

/// Runs a sweep of the rule file `source` (named `file` in diagnostics):
/// every combination of this sweep (its shard's share), in number order,
/// compiled, and its balance check run, or its diagnostics kept. With
/// `out`, each check is kept in `out/combos/LABEL/` as `murus balance
/// --out` keeps one, then `sweep.json`, `sweep.csv` and `sweep.svg` are
/// written there; with `resume`, a sweep kept there continues, playing
/// only its missing games. A cancel (`progress`) stops after the finished
/// games, marked [`interrupted`](SweepReport::interrupted).
pub fn run_sweep(
    file: &str,
    source: &str,
    config: &SweepConfig,
    out: Option<&Path>,
    resume: bool,
    progress: &SweepProgress,
) -> Result<SweepReport, SweepError> {
    let space = space(source, &config.set)?;
    let mut balance = config.balance.clone();
    balance.shard = None;
    balance.check()?;
    if let Some((k, n)) = config.shard
        && (n == 0 || k == 0 || k > n)
    {
        return Err(SweepError::Invalid(format!(
            "shard {k}/{n}: K must be from 1 to N"
        )));
    }
    let spec = spec_of(file, source, &space, &balance, config.shard);
    if let Some(o) = out {
        open_dir(o, &spec, resume)?;
    }
    let mine: Vec<u64> = (0..space.len())
        .filter(|i| config.shard.is_none_or(|(k, n)| i % n == k - 1))
        .collect();
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    let mut interrupted = false;
    for (done, &index) in mine.iter().enumerate() {
        if progress.is_cancelled() {
            interrupted = true;
            break;
        }
        let settings = space.combination(index);
        let name = label(&settings);
        *lock(&progress.current) = Some(SweepStage {
            label: name.clone(),
            done: done as u64,
            of: mine.len() as u64,
        });
        let values: BTreeMap<String, i64> = settings
            .iter()
            .map(|(n, v)| (n.clone(), i64::from(*v)))
            .collect();
        match Variant::compile_with(source, &settings) {
            Err(diags) => skipped.push(Skipped {
                index,
                values,
                error: headline(&diags, file, source),
                diagnostics: murus_dsl::render_all(&diags, file, source),
            }),
            Ok(variant) => {
                let dir = out.map(|o| o.join(COMBOS).join(&name));
                let report = balance::run_balance(
                    &variant,
                    &balance,
                    dir.as_deref(),
                    resume,
                    &progress.balance,
                )?;
                interrupted |= report.interrupted;
                rows.push(row_of(index, values, report));
                if interrupted {
                    break;
                }
            }
        }
    }
    *lock(&progress.current) = None;
    rank(&mut rows);
    let report = SweepReport {
        spec,
        rows,
        skipped,
        interrupted,
    };
    if let Some(o) = out {
        write_sweep(o, &report)?;
    }
    Ok(report)
}
