//! A sweep's files: writing and reading `sweep.json` (with its table and
//! chart), and merging the shards of a sharded sweep.

use std::path::Path;

use super::SweepError;
use super::rank::rank;
use crate::error::LabError;
use crate::report::{Skipped, SweepReport, SweepRow};
use crate::rundir::write_atomic;

/// Writes `sweep.json`, `sweep.csv` and `sweep.svg` into `out`.
pub fn write_sweep(out: &Path, report: &SweepReport) -> Result<(), LabError> {
    std::fs::create_dir_all(out).map_err(|source| LabError::Io {
        path: out.display().to_string(),
        source,
    })?;
    write_atomic(&out.join("sweep.json"), &report.to_json())?;
    write_atomic(&out.join("sweep.csv"), &crate::write::sweep_csv(report))?;
    write_atomic(
        &out.join("sweep.svg"),
        &crate::write::svg::sweep_svg(report),
    )
}

/// Reads `DIR/sweep.json`.
pub fn read_sweep(dir: &Path) -> Result<SweepReport, LabError> {
    read_json(&dir.join("sweep.json"))
}

pub(super) fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, LabError> {
    let text = std::fs::read_to_string(path).map_err(|source| LabError::Io {
        path: path.display().to_string(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|e| LabError::Parse {
        path: path.display().to_string(),
        line: e.line(),
        message: e.to_string(),
    })
}

/// Merges the `--out` folders of a sharded sweep (`--shard K/N`, one
/// folder a shard, each with its `sweep.json`) into the whole sweep's
/// report, ranked anew, and with `out` writes `sweep.json`, `sweep.csv`
/// and `sweep.svg` there (the combinations' checks stay in the shards'
/// folders). Each combination is played whole by one shard, so once every
/// shard is there the merge is the report of an unsharded sweep; with
/// shards missing, [`SweepReport::missing`] names the combinations absent.
/// The folders must be shards of one sweep (the same file, parameters and
/// values, levels, stopping rule, openings, seed, engine), split the same
/// way, each shard once; anything else is refused, naming the difference.
pub fn merge_sweeps(dirs: &[&Path], out: Option<&Path>) -> Result<SweepReport, SweepError> {
    let Some(first_dir) = dirs.first() else {
        return Err(SweepError::Invalid("nothing to merge".into()));
    };
    for d in dirs {
        if !d.join("sweep.json").is_file() {
            return Err(SweepError::Invalid(format!(
                "{}: no sweep.json: not the --out folder of a sweep shard that ran to its end (resume it with --resume)",
                d.display()
            )));
        }
    }
    let shards: Vec<SweepReport> = dirs
        .iter()
        .map(|d| read_sweep(d))
        .collect::<Result<_, _>>()?;
    let mut base = shards[0].spec.clone();
    base.shard = None;
    let texts: Vec<Option<&str>> = shards.iter().map(|s| s.spec.shard.as_deref()).collect();
    crate::rundir::check_shard_set(dirs, &texts, "sweep").map_err(SweepError::Invalid)?;
    for (dir, shard) in dirs.iter().zip(&shards) {
        let mut spec = shard.spec.clone();
        spec.shard = None;
        let differences = base.differences(&spec, "here");
        if !differences.is_empty() {
            return Err(SweepError::Invalid(format!(
                "{} is not a shard of the same sweep as {}: {}",
                dir.display(),
                first_dir.display(),
                differences.join("; ")
            )));
        }
    }
    let mut rows: Vec<SweepRow> = Vec::new();
    let mut skipped: Vec<Skipped> = Vec::new();
    for s in &shards {
        for r in &s.rows {
            if !rows.iter().any(|x| x.index == r.index) {
                rows.push(r.clone());
            }
        }
        for k in &s.skipped {
            if !skipped.iter().any(|x| x.index == k.index) {
                skipped.push(k.clone());
            }
        }
    }
    skipped.sort_by_key(|s| s.index);
    rank(&mut rows);
    let report = SweepReport {
        spec: base,
        rows,
        skipped,
        interrupted: shards.iter().any(|s| s.interrupted),
    };
    if let Some(o) = out {
        write_sweep(o, &report)?;
    }
    Ok(report)
}
