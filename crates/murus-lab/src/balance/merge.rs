//! Merging the shards of a check (`murus balance --merge`).

use std::path::{Path, PathBuf};

use super::run::write_balance;
use super::spec::BalanceSpec;
use super::verdict::verdict;
use crate::error::LabError;
use crate::folder::{
    Partial, RunFolder, RunSpec, Settings, check_finished, check_shards, merge, merge_copies,
    read_json, write_outputs,
};
use crate::matches::MatchResult;
use crate::record::GameResult;
use crate::report::{BalanceReport, LevelResult, Report, StopReason};

/// Merges the `--out` folders of a sharded check (`--shard K/N`, one
/// folder a shard) into the report of the whole check, and with `out`
/// writes it there as a check would (`balance.json`, `.csv`, `.svg`, and
/// each level's and match's merged games and report, without `run.json`).
///
/// Every game is seeded by its number alone, so the merged report is the
/// one an unsharded check of the same options gives, byte for byte. The
/// folders must be shards (each with `balance.json`) of one check
/// ([`check_shards`]: the same variant, engine, seed, openings, book,
/// stopping rule and levels, split the same way, each shard once; anything
/// else is refused, naming the difference), and so must each level's and
/// each match's folders be. A merge that lacks shards, or has shards that
/// were interrupted, is refused ([`LabError::Partial`]) and writes nothing,
/// unless `partial` allows it: it then covers the games present (each
/// level's report says how many of how many) and lists the shards missing
/// ([`BalanceReport::missing_shards`]).
pub fn merge_balance(
    dirs: &[&Path],
    out: Option<&Path>,
    partial: Partial,
) -> Result<BalanceReport, LabError> {
    check_finished(dirs, "balance.json", BalanceSpec::WHAT)?;
    let shards: Vec<BalanceReport> = dirs
        .iter()
        .map(|d| read_balance(d))
        .collect::<Result<_, _>>()?;
    let specs: Vec<BalanceSpec> = shards
        .iter()
        .map(BalanceSpec::of_report)
        .collect::<Result<_, _>>()?;
    let set = check_shards(dirs, &specs)?;
    let stopped: Vec<bool> = shards.iter().map(|s| s.interrupted).collect();
    set.check_whole(dirs, &stopped, partial)?;
    let base = &shards[0];
    let folders = |sub: &Path| -> Vec<PathBuf> { dirs.iter().map(|d| d.join(sub)).collect() };
    // Each level and each skill match is sharded as the check is. Checks
    // made before their matches were sharded played every match whole in
    // every shard: those folders are copies of one run.
    let merged_run = |sub: &Path| -> Result<(Report, Vec<GameResult>), LabError> {
        let paths = folders(sub);
        let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        let copies = RunFolder::<RunSpec>::read_spec(&paths[0])?
            .is_some_and(|spec| spec.run.shard.is_none());
        let (report, games) = if copies {
            merge_copies(&refs)?
        } else {
            merge(&refs, Partial::Allow)?
        };
        if let Some(o) = out {
            write_outputs(&o.join(sub), &report, &games)?;
        }
        Ok((report, games))
    };
    let mut interrupted = shards.iter().any(|s| s.interrupted);
    let mut levels = Vec::new();
    for l in &base.levels {
        let (report, _) = merged_run(&Path::new("levels").join(&l.level))?;
        interrupted |= report.interrupted;
        levels.push(LevelResult {
            level: l.level.clone(),
            bot: l.bot.clone(),
            stopped: if report.interrupted {
                StopReason::Interrupted
            } else {
                StopReason::Games
            },
            report,
        });
    }
    let mut skill = Vec::new();
    for pair in base.levels.windows(2) {
        let (lower, upper) = (&pair[0].level, &pair[1].level);
        let sub = Path::new("skill").join(format!("{upper}-vs-{lower}"));
        let present: Vec<bool> = folders(&sub).iter().map(|p| p.is_dir()).collect();
        if !present.iter().any(|&p| p) {
            continue;
        }
        if let Some(i) = present.iter().position(|&p| !p) {
            return Err(LabError::Invalid(format!(
                "{}: no {} folder, which other shards have: not a shard of the same check (or it was interrupted before its matches; resume it)",
                dirs[i].display(),
                sub.display()
            )));
        }
        let (report, games) = merged_run(&sub)?;
        interrupted |= report.interrupted;
        skill.push(MatchResult::of_games(&games).gap(upper, lower));
    }
    let mut report = BalanceReport {
        shard: None,
        levels,
        skill,
        verdict: Vec::new(),
        interrupted,
        missing_shards: set.missing_shards(),
        ..base.clone()
    };
    report.verdict = verdict(&report);
    if let Some(o) = out {
        write_balance(o, &report)?;
    }
    Ok(report)
}

/// Reads `DIR/balance.json`.
pub fn read_balance(dir: &Path) -> Result<BalanceReport, LabError> {
    read_json(&dir.join("balance.json"), "not a balance report")
}
