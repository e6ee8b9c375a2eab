//! A sweep's files: writing and reading `sweep.json` (with its table and
//! chart), and merging the shards of a sharded sweep.

use std::path::Path;

use super::SweepError;
use super::rank::rank;
use crate::error::LabError;
use crate::folder::{Partial, Settings, check_finished, check_shards, read_json, write_files};
use crate::report::{Skipped, SweepReport, SweepRow, SweepSpec};
use crate::write::sweep_files;

/// Writes `sweep.json`, `sweep.csv` and `sweep.svg` into `out` (created
/// if missing), each whole or not at all.
pub fn write_sweep(out: &Path, report: &SweepReport) -> Result<(), LabError> {
    write_files(out, &sweep_files(report))
}

/// Reads `DIR/sweep.json`.
pub fn read_sweep(dir: &Path) -> Result<SweepReport, LabError> {
    read_json(&dir.join("sweep.json"), "not a sweep's report")
}

/// Merges the `--out` folders of a sharded sweep (`--shard K/N`, one
/// folder a shard, each with its `sweep.json`) into the whole sweep's
/// report, ranked anew, and with `out` writes `sweep.json`, `sweep.csv`
/// and `sweep.svg` there (the combinations' checks stay in the shards'
/// folders). Each combination is played whole by one shard, so the merge
/// is the report of an unsharded sweep. The folders must be shards of one
/// sweep ([`check_shards`]: the same file, parameters and values, levels,
/// stopping rule, openings, seed, engine, split the same way, each shard
/// once); anything else is refused, naming the difference. A merge that
/// lacks shards, or has shards that were interrupted, is refused
/// ([`LabError::Partial`]) and writes nothing, unless `partial` allows it:
/// [`SweepReport::missing`] then names the combinations absent, and
/// [`SweepReport::missing_shards`] the shards.
pub fn merge_sweeps(
    dirs: &[&Path],
    out: Option<&Path>,
    partial: Partial,
) -> Result<SweepReport, SweepError> {
    check_finished(dirs, "sweep.json", SweepSpec::WHAT)?;
    let shards: Vec<SweepReport> = dirs
        .iter()
        .map(|d| read_sweep(d))
        .collect::<Result<_, _>>()?;
    let specs: Vec<SweepSpec> = shards.iter().map(|s| s.spec.clone()).collect();
    let set = check_shards(dirs, &specs)?;
    let stopped: Vec<bool> = shards.iter().map(|s| s.interrupted).collect();
    set.check_whole(dirs, &stopped, partial)?;
    let mut base = shards[0].spec.clone();
    base.shard = None;
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
        interrupted: stopped.contains(&true),
        missing_shards: set.missing_shards(),
    };
    if let Some(o) = out {
        write_sweep(o, &report)?;
    }
    Ok(report)
}
