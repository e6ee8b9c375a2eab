//! A report in shards (`murus report … --shard K/N`), and their merge
//! (`murus report … --merge DIR…`).
//!
//! A shard plays its share of every stage that plays games: the balance
//! check's games numbered `K-1 mod N` at each level, the first moves of
//! the openings' study numbered so, and its share of the skill ladder's
//! matches as far as its own share of each says the ladder climbs (which
//! matches the ladder needs depends on the results below, which no shard
//! knows alone: see [`crate::ladder::play_ladder_shard`]). Shard 1 also
//! runs the proof search, which cannot be split. Each shard computes the
//! random playouts (cheap, the same in all). A shard writes no report: its
//! parts, and `parts/shard.json` when it ends.
//!
//! The merge checks that its folders are the shards of this report, each
//! once and all there, merges the balance check and the openings, climbs
//! the ladder on the merged matches (playing the shares of any match a
//! shard stopped short of), plays what needs every shard's games (the
//! representative game and the tactics, from the strongest level's games)
//! and writes the report. Every game is seeded by its number alone, so the
//! merged `report.json` is the one an unsharded run writes, but for the
//! timings ([`Timing`]): there, each stage's seconds are the longest any
//! shard took (the wall time of shards run side by side).

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{Budget, ReportSpec, Timing};
use crate::error::LabError;
use crate::folder::{Partial, RunFolder, Settings, Shard, check_finished, check_shards, read_json};

/// How much of a report a run makes.
#[derive(Clone, Copy, Debug)]
pub(super) enum Share<'a> {
    /// The whole report.
    Whole,
    /// One shard's share of the games: no report of its own.
    Shard(Shard),
    /// The report from the shards' folders.
    Merge(&'a [PathBuf]),
}

/// What a shard writes when it ends (`parts/shard.json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct ShardPart {
    pub(super) shard: String,
    /// The variant, and the one compared with, as the command named them
    /// (a shipped name or a file), for the merge to load them alike.
    pub(super) variant: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) compare: Option<String>,
    pub(super) timing: Timing,
}

/// What the shard kept in a folder was made with, so that its merge
/// needs only the folders (`murus report --merge DIR…`).
#[derive(Clone, Debug, PartialEq)]
pub struct ShardOf {
    /// The shard, `K/N`.
    pub shard: String,
    /// The variant, and the one compared with, as the shard's command
    /// named them (a shipped name, or a file, relative to where it ran).
    pub variant: String,
    pub compare: Option<String>,
    pub budget: Budget,
    pub seed: u64,
}

/// What the report's shard kept in `dir` was made with; refused when
/// `dir` holds no shard of a report that ran to its end.
pub fn shard_of(dir: &Path) -> Result<ShardOf, LabError> {
    check_finished(&[dir], FINISHED, ReportSpec::WHAT)?;
    let spec = RunFolder::<ReportSpec>::read_spec(dir)?.ok_or_else(|| {
        LabError::Invalid(format!("{}: not the folder of a report", dir.display()))
    })?;
    let part: ShardPart = read_part(dir, "shard.json")?;
    Ok(ShardOf {
        shard: part.shard,
        variant: part.variant,
        compare: part.compare,
        budget: spec.budget,
        seed: spec.seed,
    })
}

/// The file a shard writes when it ends, in its folder.
pub(super) const FINISHED: &str = "parts/shard.json";

/// Checks that `dirs` hold the shards of the report `spec` describes
/// (unsharded), each once, all of them, each run to its end. Returns the
/// folders in the shards' order (shard 1 first).
pub(super) fn check(dirs: &[PathBuf], spec: &ReportSpec) -> Result<Vec<PathBuf>, LabError> {
    let refs: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    check_finished(&refs, FINISHED, ReportSpec::WHAT)?;
    let specs: Vec<ReportSpec> = refs
        .iter()
        .map(|d| {
            RunFolder::<ReportSpec>::read_spec(d)?.ok_or_else(|| {
                LabError::Invalid(format!("{}: not the folder of a report", d.display()))
            })
        })
        .collect::<Result<_, _>>()?;
    let set = check_shards(&refs, &specs)?;
    set.check_whole(&refs, &vec![false; refs.len()], Partial::Refuse)?;
    let mut theirs = specs[0].clone();
    theirs.shard = None;
    let differences = theirs.differences(spec, "asked");
    if !differences.is_empty() {
        return Err(LabError::Invalid(format!(
            "{} holds a shard of a different report: {}",
            dirs[0].display(),
            differences.join("; ")
        )));
    }
    let mut ordered: Vec<(u64, PathBuf)> = set.present.iter().copied().zip(dirs.to_vec()).collect();
    ordered.sort_by_key(|(k, _)| *k);
    Ok(ordered.into_iter().map(|(_, d)| d).collect())
}

/// The part `name` a shard kept in `DIR/parts`.
pub(super) fn read_part<T: DeserializeOwned>(dir: &Path, name: &str) -> Result<T, LabError> {
    read_json(
        &dir.join("parts").join(name),
        "not a part of a designer's report",
    )
}

/// Each stage's seconds in `timing` as the longest any shard of `dirs`
/// took (`games`, which the merge plays, stays the merge's).
pub(super) fn wall_times(dirs: &[PathBuf], timing: &mut Timing) -> Result<(), LabError> {
    for dir in dirs {
        let part: ShardPart = read_part(dir, "shard.json")?;
        for (stage, seconds) in part.timing.seconds {
            let kept = timing.seconds.entry(stage).or_insert(seconds);
            *kept = kept.max(seconds);
        }
    }
    Ok(())
}
