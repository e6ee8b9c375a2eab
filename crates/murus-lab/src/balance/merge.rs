//! Merging the shards of a check (`murus balance --merge`).

use std::path::{Path, PathBuf};

use super::run::write_balance;
use super::verdict::verdict;
use crate::book::BookId;
use crate::error::LabError;
use crate::record::GameResult;
use crate::report::{BalanceReport, LevelResult, Report, SkillGap, StopReason};
use crate::stats::Wdl;

/// Merges the `--out` folders of a sharded check (`--shard K/N`, one
/// folder a shard) into the report of the whole check, and with `out`
/// writes it there as a check would (`balance.json`, `.csv`, `.svg`, and
/// each level's and match's merged games and report, without `run.json`).
///
/// Every game is seeded by its number alone, so the merged report is the
/// one an unsharded check of the same options gives, byte for byte, once
/// every shard is there; with shards missing it covers the games present
/// (each level's report says how many of how many). The folders must be
/// shards (each with `balance.json`) of one check: the same variant,
/// engine, seed, openings, stopping rule, levels and matches, split the
/// same way (the same N), each shard once; anything else is refused,
/// naming the difference.
pub fn merge_balance(dirs: &[&Path], out: Option<&Path>) -> Result<BalanceReport, LabError> {
    let Some(first_dir) = dirs.first() else {
        return Err(LabError::Invalid("nothing to merge".into()));
    };
    for d in dirs {
        if !d.join("balance.json").is_file() {
            return Err(LabError::Invalid(format!(
                "{}: no balance.json: not the --out folder of a check's shard that ran to its end (resume it with --resume)",
                d.display()
            )));
        }
    }
    let shards: Vec<BalanceReport> = dirs
        .iter()
        .map(|d| read_balance(d))
        .collect::<Result<_, _>>()?;
    let base = &shards[0];
    let texts: Vec<Option<&str>> = shards.iter().map(|s| s.shard.as_deref()).collect();
    crate::rundir::check_shard_set(dirs, &texts, "check").map_err(LabError::Invalid)?;
    for (dir, shard) in dirs.iter().zip(&shards) {
        let differences = check_differences(base, shard);
        if !differences.is_empty() {
            return Err(LabError::Invalid(format!(
                "{} is not a shard of the same check as {}: {}",
                dir.display(),
                first_dir.display(),
                differences.join("; ")
            )));
        }
    }
    let folders = |sub: &Path| -> Vec<PathBuf> { dirs.iter().map(|d| d.join(sub)).collect() };
    let merged_run = |sub: &Path| -> Result<(Report, Vec<GameResult>), LabError> {
        let paths = folders(sub);
        let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        let (report, games) = crate::rundir::merge(&refs)?;
        if let Some(o) = out {
            crate::rundir::write_outputs(&o.join(sub), &report, &games)?;
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
        skill.push(skill_gap_of(upper, lower, &games));
    }
    let mut report = BalanceReport {
        shard: None,
        levels,
        skill,
        verdict: Vec::new(),
        interrupted,
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
    let path = dir.join("balance.json");
    let text = std::fs::read_to_string(&path).map_err(|source| LabError::Io {
        path: path.display().to_string(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|e| LabError::Parse {
        path: path.display().to_string(),
        line: e.line(),
        message: format!("not a balance report: {e}"),
    })
}

/// One sentence per setting in which shard `b` differs from shard `a`
/// (their shard numbers aside): `seed 1 there, 2 here`.
fn check_differences(a: &BalanceReport, b: &BalanceReport) -> Vec<String> {
    let levels = |r: &BalanceReport| {
        r.levels
            .iter()
            .map(|l| format!("{} ({})", l.level, l.bot))
            .collect::<Vec<_>>()
            .join(", ")
    };
    [
        ("variant", a.variant.name.clone(), b.variant.name.clone()),
        (
            "variant source sha256 (the rules differ)",
            a.variant.source_sha256.clone(),
            b.variant.source_sha256.clone(),
        ),
        (
            "engine version",
            a.engine_version.clone(),
            b.engine_version.clone(),
        ),
        ("seed", a.seed.to_string(), b.seed.to_string()),
        ("openings", a.openings.to_string(), b.openings.to_string()),
        (
            "opening book",
            BookId::describe_or_none(a.book.as_ref()),
            BookId::describe_or_none(b.book.as_ref()),
        ),
        ("stopping rule", a.stopping.clone(), b.stopping.clone()),
        ("levels", levels(a), levels(b)),
    ]
    .into_iter()
    .filter(|(_, x, y)| x != y)
    .map(|(name, x, y)| format!("{name} {x} there, {y} here"))
    .collect()
}

/// The skill gap of `upper` (seat 0, bot A of the match) over `lower` from
/// the match's games, as [`crate::run_match`] reports it.
fn skill_gap_of(upper: &str, lower: &str, games: &[GameResult]) -> SkillGap {
    let mut w = Wdl::default();
    for g in games {
        match g.stats.winner_seat {
            Some(0) => w.wins += 1,
            Some(_) => w.losses += 1,
            None => w.draws += 1,
        }
    }
    let (elo, (lo, hi)) = w.elo();
    // The rounding of `MatchResult`.
    let r = |x: f64| (x * 100.0).round() / 100.0;
    let finite = |x: f64| x.is_finite().then_some(x);
    SkillGap {
        upper: upper.to_string(),
        lower: lower.to_string(),
        games: w.games(),
        score: (w.score() * 1e6).round() / 1e6,
        elo: finite(r(elo)),
        elo_ci95: [finite(r(lo)), finite(r(hi))],
    }
}
