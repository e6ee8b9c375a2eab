//! Variant sweeps: the balance check of every combination of a rule file's
//! parameters, ranked by a tiered fitness (`docs/balance.md`, "Sweeps").
//!
//! A rule file that declares parameters (`param files = 7..9`) is a family
//! of variants. A sweep compiles each combination of their values (the
//! declared ones, or those a `--set` gives: [`space`]), runs the balance
//! check ([`crate::balance::run_balance`]) of every one that compiles, and
//! ranks them: unplayable < broken < unbalanced < playable ([`Tier`]), then
//! by a score within the tier ([`assess`]). Combinations that do not
//! compile are kept with their diagnostic ([`Skipped`]).
//!
//! The results are a [`SweepReport`] (`sweep.json`), a table (`sweep.csv`,
//! [`to_csv`]) and a heat map (`sweep.svg`,
//! [`crate::charts::sweep_svg`]). With a folder, each combination's check
//! is kept in `combos/NAME=VALUE,…/` as `murus balance --out` keeps one, so
//! a killed sweep resumes; `shard` plays every N-th combination, and
//! [`merge_sweeps`] puts shards back together.
//!
//! ```
//! use murus_lab::balance::{BalanceConfig, Stopping, parse_levels};
//! use murus_lab::sweep::{SweepConfig, SweepProgress, Tier, run_sweep};
//!
//! let source = murus_engine::Variant::standard()
//!     .source()
//!     .replace("board rect 8 x 7", "param files = 7, 8\nboard rect $files x 7");
//! let config = SweepConfig {
//!     set: Vec::new(),
//!     balance: BalanceConfig {
//!         levels: parse_levels("random").unwrap(),
//!         stopping: Stopping::Games(4),
//!         openings: 0,
//!         seed: 1,
//!         threads: 1,
//!         shard: None,
//!         skill_games: 0,
//!         max_plies: None,
//!         book: None,
//!     },
//!     shard: None,
//! };
//! let report = run_sweep("files.mg", &source, &config, None, false, &SweepProgress::default())
//!     .unwrap();
//! assert_eq!(report.spec.parameters, ["files"]);
//! assert_eq!(report.rows.len(), 2);
//! assert_eq!(report.rows[0].rank, 1);
//! assert!(report.rows[0].tier >= report.rows[1].tier);
//! # let _ = Tier::Playable;
//! ```

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

use murus_dsl::Diagnostic;
use murus_engine::Variant;
use serde::{Deserialize, Serialize};

use crate::LabError;
use crate::balance::{
    self, BalanceConfig, BalanceReport, CAPPED, DOMINANT_ENDING, DRAWISH, LevelResult, Progress,
};
use crate::report::{Report, VariantId, percent};
use crate::rundir::write_atomic;
use crate::runner::lock;

/// The layout of `sweep.json` this version writes and reads.
pub const FORMAT: u32 = 1;

/// How a combination fares, worst first: the first part of the ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tier {
    /// It does not compile, or its games end at once (no legal play).
    Unplayable,
    /// It plays, but badly: mostly drawn, stopped by the ply cap, or ending
    /// one way (other than a breakthrough) nearly always.
    Broken,
    /// It plays, but the first player's 95% interval excludes the fair rate
    /// at some level.
    Unbalanced,
    /// None of the above.
    Playable,
}

impl Tier {
    /// The tier's name, as `sweep.json` and `sweep.csv` write it.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Unplayable => "unplayable",
            Tier::Broken => "broken",
            Tier::Unbalanced => "unbalanced",
            Tier::Playable => "playable",
        }
    }
}

/// What a sweep does: everything that decides its games and its
/// combinations (`sweep-run.json`, and the head of `sweep.json`). A sweep
/// resumes, and shards merge, only with the same spec (the shard aside).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepSpec {
    /// The version of this layout ([`FORMAT`]).
    pub format: u32,
    /// The rule file's variant name and the SHA-256 of its text (the
    /// template, before any parameter is set).
    pub variant: VariantId,
    pub engine_version: String,
    /// The swept parameters, in the file's order.
    pub parameters: Vec<String>,
    /// The values swept for each parameter (`values[i]` for
    /// `parameters[i]`): the declared ones, or those `--set` gave.
    pub values: Vec<Vec<i64>>,
    /// How many combinations the sweep has (all shards together).
    pub combinations: u64,
    /// Levels played at each combination, weakest first.
    pub levels: Vec<String>,
    /// The balance check's stopping rule (`games N`, `precision P up to N
    /// games`).
    pub stopping: String,
    pub openings: u32,
    pub seed: u64,
    /// Games of each skill match between adjacent levels (0: none).
    pub skill_games: u64,
    /// A ply cap instead of each variant's own.
    pub max_plies: Option<u32>,
    /// `K/N`: this shard plays combinations numbered `K-1 mod N`; `None`
    /// for a whole sweep or a merge.
    pub shard: Option<String>,
}

/// One combination that compiled and was played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepRow {
    /// The combination's number (from 0) in the sweep's order: the first
    /// parameter varies slowest.
    pub index: u64,
    /// Parameter → value.
    pub values: BTreeMap<String, i64>,
    /// Place in the ranking, from 1 (best).
    pub rank: u64,
    pub tier: Tier,
    /// The score within the tier: 100, less the first player's largest
    /// distance from the fair rate (in points), less a point per ten plies
    /// the mean length lies outside the ideal band. Higher is better.
    pub fitness: f64,
    /// The first player's largest distance from the fair rate over the
    /// levels, in percentage points.
    pub edge: f64,
    /// The most plies a level's mean length lies outside the ideal band.
    pub plies_outside: f64,
    /// Why the row is in its tier, a sentence each (empty when playable).
    pub flags: Vec<String>,
    /// The combination's balance check.
    pub balance: BalanceReport,
}

/// A combination left out: it does not compile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skipped {
    pub index: u64,
    pub values: BTreeMap<String, i64>,
    /// The first error's headline: `FILE:LINE:COL: error: MESSAGE`.
    pub error: String,
    /// Every diagnostic, rendered like rustc's.
    pub diagnostics: String,
}

/// A sweep's results (`sweep.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepReport {
    /// What was swept and how (its fields sit at the top of the JSON).
    #[serde(flatten)]
    pub spec: SweepSpec,
    /// The combinations played, best first.
    pub rows: Vec<SweepRow>,
    /// The combinations that do not compile (unplayable, below every row),
    /// by number.
    pub skipped: Vec<Skipped>,
    /// Whether the sweep was stopped before every combination was played
    /// (a merge: when a shard's was).
    pub interrupted: bool,
}

impl SweepReport {
    /// The swept file's variant name.
    pub fn variant_name(&self) -> &str {
        &self.spec.variant.name
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("sweep reports serialise") + "\n"
    }

    /// The numbers of the combinations neither played nor skipped: those
    /// of other shards, or of an interrupted sweep.
    pub fn missing(&self) -> Vec<u64> {
        let mut have: Vec<u64> = self
            .rows
            .iter()
            .map(|r| r.index)
            .chain(self.skipped.iter().map(|s| s.index))
            .collect();
        have.sort_unstable();
        (0..self.spec.combinations)
            .filter(|i| have.binary_search(i).is_err())
            .collect()
    }
}

// ---------------------------------------------------------------------------
// Errors.

/// Why a sweep cannot run, or its shards cannot merge.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// The rule file's parameter declarations, or a setting for them, are
    /// wrong: diagnostics pointing into the file (render them with
    /// [`murus_dsl::render_all`]).
    #[error("{}", .0.iter().map(|d| d.message.as_str()).collect::<Vec<_>>().join("; "))]
    Source(Vec<Diagnostic>),
    /// An option the sweep cannot use.
    #[error("{0}")]
    Invalid(String),
    /// The balance check of a combination, or the sweep's files, failed.
    #[error(transparent)]
    Lab(#[from] LabError),
}

// ---------------------------------------------------------------------------
// The combinations.

/// The most combinations a sweep may have: a sweep of ten thousand
/// balance checks is already days of play; more is a mistake in `--set`.
pub const MAX_COMBINATIONS: u64 = 10_000;

/// The values a sweep gives each parameter, in the file's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Space {
    pub params: Vec<(String, Vec<u32>)>,
}

impl Space {
    /// The number of combinations: the product of the parameters' counts
    /// (1 for a file without parameters: the file itself).
    pub fn len(&self) -> u64 {
        self.params
            .iter()
            .fold(1u64, |n, (_, v)| n.saturating_mul(v.len() as u64))
    }

    /// Whether there is no combination (never: a parameter has a value).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Combination `index` (from 0, below [`Space::len`]): the first
    /// parameter varies slowest, the last fastest.
    pub fn combination(&self, index: u64) -> Vec<(String, u32)> {
        let mut rest = index;
        let mut out: Vec<(String, u32)> = self
            .params
            .iter()
            .rev()
            .map(|(name, values)| {
                let n = values.len().max(1) as u64;
                let v = values[(rest % n) as usize];
                rest /= n;
                (name.clone(), v)
            })
            .collect();
        out.reverse();
        out
    }
}

/// A combination's name, as its folder is named: `files=8,ranks=7`, or
/// `default` for a file without parameters.
pub fn label(settings: &[(String, u32)]) -> String {
    if settings.is_empty() {
        return "default".into();
    }
    settings
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Parses a `--set` value list: `7..9` (7, 8 and 9), `6,8`, or `7`.
pub fn parse_values(text: &str) -> Result<Vec<u32>, String> {
    let number = |t: &str| {
        t.trim().parse::<u32>().map_err(|_| {
            format!(
                "`{}` is not a value: parameters take whole numbers from 0 to {}",
                t.trim(),
                u32::MAX
            )
        })
    };
    let values: Vec<u32> = if let Some((lo, hi)) = text.split_once("..") {
        let (lo, hi) = (number(lo)?, number(hi)?);
        if lo > hi {
            return Err(format!("`{text}` is an empty range: write LOW..HIGH"));
        }
        if u64::from(hi - lo) >= murus_dsl::MAX_PARAM_VALUES as u64 {
            return Err(format!(
                "`{text}` has more than {} values",
                murus_dsl::MAX_PARAM_VALUES
            ));
        }
        (lo..=hi).collect()
    } else {
        text.split(',').map(number).collect::<Result<_, _>>()?
    };
    let mut unique = Vec::with_capacity(values.len());
    for v in values {
        if !unique.contains(&v) {
            unique.push(v);
        }
    }
    Ok(unique)
}

/// The combinations of `source`'s parameters: each declared parameter
/// takes its declared values, or those `set` gives it. A syntax error, a
/// broken declaration, a setting for a parameter the file does not
/// declare, or a value outside a declaration's are errors pointing into
/// the file ([`SweepError::Source`]); a parameter set twice, or too many
/// combinations, are [`SweepError::Invalid`].
pub fn space(source: &str, set: &[(String, Vec<u32>)]) -> Result<Space, SweepError> {
    let params = murus_dsl::params(source).map_err(SweepError::Source)?;
    for (i, (name, _)) in set.iter().enumerate() {
        if set[..i].iter().any(|(n, _)| n == name) {
            return Err(SweepError::Invalid(format!(
                "--set {name} is given twice: give all its values once, like `--set {name}=6,8`"
            )));
        }
    }
    let mut errors = Vec::new();
    for (name, values) in set {
        if values.is_empty() {
            return Err(SweepError::Invalid(format!("--set {name}: no values")));
        }
        // The compiler's own checks of a setting (an unknown name, a value
        // not declared), one error per parameter.
        for &v in values {
            if let Err(diags) = murus_dsl::instantiate(source, &[(name.clone(), v)]) {
                errors.extend(diags.into_iter().filter(Diagnostic::is_error));
                break;
            }
        }
    }
    if !errors.is_empty() {
        errors.sort_by_key(|d| d.span.start);
        return Err(SweepError::Source(errors));
    }
    let space = Space {
        params: params
            .into_iter()
            .map(|p| {
                let values = set
                    .iter()
                    .find(|(n, _)| *n == p.name)
                    .map_or_else(|| p.values.clone(), |(_, v)| v.clone());
                (p.name, values)
            })
            .collect(),
    };
    if space.len() > MAX_COMBINATIONS {
        return Err(SweepError::Invalid(format!(
            "{} combinations: at most {MAX_COMBINATIONS} can be swept; narrow some parameters with --set NAME=VALUES",
            space.len()
        )));
    }
    Ok(space)
}

// ---------------------------------------------------------------------------
// The ranking.

/// The ideal band of a game's mean length in plies for a report without
/// the game-quality metrics' own band (one read from an older file, or
/// whose games have no metrics records): about the metrics' band for the
/// standard game's branching (18 to 109 plies).
pub const IDEAL_PLIES: [f64; 2] = [20.0, 100.0];

/// Plies outside the ideal band that cost one point of fitness, as one
/// point of first-player edge does.
pub const PLIES_PER_POINT: f64 = 10.0;

/// The fitness of a fair game of ideal length.
pub const FULL_FITNESS: f64 = 100.0;

/// A combination's place in the ranking, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Assessment {
    pub tier: Tier,
    /// [`FULL_FITNESS`], less [`Assessment::edge`], less
    /// [`Assessment::plies_outside`] / [`PLIES_PER_POINT`].
    pub fitness: f64,
    /// The first player's largest distance from the fair rate over the
    /// levels, in percentage points.
    pub edge: f64,
    /// The most plies a level's mean length lies outside its ideal band.
    pub plies_outside: f64,
    /// A sentence for each finding that lowers the tier.
    pub flags: Vec<String>,
}

/// The ideal band of `report`'s game length, in plies: the game-quality
/// metrics' duration band (`docs/metrics.md`: derived from the branching
/// factor), or [`IDEAL_PLIES`] where the report has none.
pub fn ideal_band(report: &Report) -> [f64; 2] {
    report
        .metrics
        .duration
        .ideal
        .filter(|_| has_metrics(report))
        .unwrap_or(IDEAL_PLIES)
}

/// Whether `r`'s metrics are its games' (a report read from a file written
/// before them has zeros there).
fn has_metrics(r: &Report) -> bool {
    r.metrics.games == r.games
}

/// The share of `r`'s games drawn by the rules (repetition, a stalemate
/// that draws), not stopped by the ply cap: the metrics' drawishness.
fn drawn_share(r: &Report) -> f64 {
    if has_metrics(r) {
        r.metrics.drawishness
    } else {
        r.draws.count.saturating_sub(r.ply_cap.count) as f64 / r.games.max(1) as f64
    }
}

/// The share of `r`'s games stopped by the ply cap: the metrics' timeouts.
fn capped_share(r: &Report) -> f64 {
    if has_metrics(r) {
        r.metrics.timeouts
    } else {
        r.ply_cap.rate
    }
}

/// Ranks one combination from its balance check, each level judged alike
/// (`docs/balance.md`, "Sweeps"):
///
/// * **unplayable** at a level where half the games or more end before
///   each player has moved twice (fewer than `2 × players` plies: no legal
///   play, or a game that ends at once), or when no game was played;
/// * **broken** at a level with more than [`DRAWISH`] of games drawn by the
///   rules, more than [`CAPPED`] stopped by the ply cap, or (at a level
///   other than `random`) more than [`DOMINANT_ENDING`] ending one way
///   other than a breakthrough: the verdict's extremes;
/// * **unbalanced** at a level whose first-player 95% interval excludes
///   the fair rate;
/// * **playable** otherwise.
///
/// The tier is the worst any level gets. The fitness ranks rows within a
/// tier: [`FULL_FITNESS`] less the first player's largest distance from
/// the fair rate (in points), less a point per [`PLIES_PER_POINT`] plies
/// that a level's mean length lies outside its [`ideal_band`].
pub fn assess(b: &BalanceReport) -> Assessment {
    let mut tier = Tier::Playable;
    let mut flags = Vec::new();
    let (mut edge, mut outside) = (0.0f64, 0.0f64);
    let mut flag = |t: Tier, text: String, tier: &mut Tier| {
        *tier = (*tier).min(t);
        flags.push(text);
    };
    let mut played = false;
    for l in &b.levels {
        let r = &l.report;
        if r.games == 0 {
            continue;
        }
        played = true;
        let at = &l.level;
        let quick = 2 * r.players.len().max(1) as u32;
        if r.length.median < quick {
            flag(
                Tier::Unplayable,
                format!(
                    "At {at}, half the games last fewer than {quick} plies (median {}): the game ends at once.",
                    r.length.median
                ),
                &mut tier,
            );
        }
        let drawn = drawn_share(r);
        if drawn > DRAWISH {
            flag(
                Tier::Broken,
                format!("At {at}, {} of games are drawn.", percent(drawn)),
                &mut tier,
            );
        }
        let capped = capped_share(r);
        if capped > CAPPED {
            flag(
                Tier::Broken,
                format!(
                    "At {at}, {} of games hit the ply cap of {} plies.",
                    percent(capped),
                    r.max_plies
                ),
                &mut tier,
            );
        }
        for (reason, &count) in &r.end_reasons {
            let share = count as f64 / r.games as f64;
            // Random movers seldom aim for a breakthrough: in the standard
            // game 99.5% of random games end by stalemate, 12% of greedy
            // ones. An ending that dominates random play alone says little.
            if share > DOMINANT_ENDING
                && !reason.starts_with("breakthrough")
                && reason != "ply-cap"
                && at != "random"
            {
                flag(
                    Tier::Broken,
                    format!(
                        "At {at}, {} of games end by {}.",
                        percent(share),
                        reason.replace('-', " ")
                    ),
                    &mut tier,
                );
            }
        }
        let f = &r.first_player_advantage;
        if f.ci95[0] > f.fair || f.ci95[1] < f.fair {
            flag(
                Tier::Unbalanced,
                format!(
                    "At {at}, the first player wins {} [{}–{}]; fair is {}.",
                    percent(f.rate),
                    percent(f.ci95[0]),
                    percent(f.ci95[1]),
                    percent(f.fair)
                ),
                &mut tier,
            );
        }
        edge = edge.max((f.rate - f.fair).abs() * 100.0);
        let [lo, hi] = ideal_band(r);
        let mean = r.length.mean;
        outside = outside.max(if mean < lo {
            lo - mean
        } else {
            (mean - hi).max(0.0)
        });
    }
    if !played {
        flag(
            Tier::Unplayable,
            "No game was played (the check was interrupted).".into(),
            &mut tier,
        );
    }
    let round = |x: f64| (x * 1e6).round() / 1e6;
    Assessment {
        tier,
        fitness: round(FULL_FITNESS - edge - outside / PLIES_PER_POINT),
        edge: round(edge),
        plies_outside: round(outside),
        flags,
    }
}

/// The row of combination `index` with `values`, from its balance check
/// (ranked later by [`rank`]).
pub fn row_of(index: u64, values: BTreeMap<String, i64>, balance: BalanceReport) -> SweepRow {
    let a = assess(&balance);
    SweepRow {
        index,
        values,
        rank: 0,
        tier: a.tier,
        fitness: a.fitness,
        edge: a.edge,
        plies_outside: a.plies_outside,
        flags: a.flags,
        balance,
    }
}

/// Sorts rows best first (the higher tier, then the higher fitness, then
/// the lower combination number) and numbers their ranks from 1.
pub fn rank(rows: &mut [SweepRow]) {
    rows.sort_by(|a, b| {
        b.tier
            .cmp(&a.tier)
            .then(b.fitness.total_cmp(&a.fitness))
            .then(a.index.cmp(&b.index))
    });
    for (i, r) in rows.iter_mut().enumerate() {
        r.rank = i as u64 + 1;
    }
}

/// The strongest level of a check that played games: the one the heat
/// map and the table's headline figures show.
pub fn strongest(b: &BalanceReport) -> Option<&LevelResult> {
    b.levels.iter().rev().find(|l| l.report.games > 0)
}

// ---------------------------------------------------------------------------
// Running a sweep.

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
            source_sha256: crate::source_sha256(source),
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

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, LabError> {
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

// ---------------------------------------------------------------------------
// Files.

/// Writes `sweep.json`, `sweep.csv` and `sweep.svg` into `out`.
pub fn write_sweep(out: &Path, report: &SweepReport) -> Result<(), LabError> {
    std::fs::create_dir_all(out).map_err(|source| LabError::Io {
        path: out.display().to_string(),
        source,
    })?;
    write_atomic(&out.join("sweep.json"), &report.to_json())?;
    write_atomic(&out.join("sweep.csv"), &to_csv(report))?;
    write_atomic(&out.join("sweep.svg"), &crate::charts::sweep_svg(report))
}

/// Reads `DIR/sweep.json`.
pub fn read_sweep(dir: &Path) -> Result<SweepReport, LabError> {
    read_json(&dir.join("sweep.json"))
}

/// The table: one line a combination, best first, then those skipped.
/// Columns: `rank`, `tier`, `fitness`, `edge` (points), `plies_outside`,
/// one column a parameter, then for each level `LEVEL_games`,
/// `LEVEL_first_player` with `_lo` and `_hi` (its 95% interval),
/// `LEVEL_draws`, `LEVEL_ply_cap` and `LEVEL_mean_plies`, then `flags`
/// (`; `-separated) and `error` (a skipped combination's first error).
pub fn to_csv(report: &SweepReport) -> String {
    let spec = &report.spec;
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = ["rank", "tier", "fitness", "edge", "plies_outside"]
        .map(String::from)
        .to_vec();
    header.extend(spec.parameters.iter().cloned());
    for l in &spec.levels {
        for col in [
            "games",
            "first_player",
            "first_player_lo",
            "first_player_hi",
            "draws",
            "ply_cap",
            "mean_plies",
        ] {
            header.push(format!("{l}_{col}"));
        }
    }
    header.extend(["flags", "error"].map(String::from));
    w.write_record(&header).expect("writes to memory");
    let params = |values: &BTreeMap<String, i64>| -> Vec<String> {
        spec.parameters
            .iter()
            .map(|p| values.get(p).map_or(String::new(), ToString::to_string))
            .collect()
    };
    for r in &report.rows {
        let mut row = vec![
            r.rank.to_string(),
            r.tier.name().to_string(),
            format!("{:.2}", r.fitness),
            format!("{:.2}", r.edge),
            format!("{:.1}", r.plies_outside),
        ];
        row.extend(params(&r.values));
        for name in &spec.levels {
            match r.balance.levels.iter().find(|l| l.level == *name) {
                Some(l) => {
                    let rep = &l.report;
                    let f = &rep.first_player_advantage;
                    row.extend([
                        rep.games.to_string(),
                        format!("{:.4}", f.rate),
                        format!("{:.4}", f.ci95[0]),
                        format!("{:.4}", f.ci95[1]),
                        format!("{:.4}", rep.draws.rate),
                        format!("{:.4}", rep.ply_cap.rate),
                        format!("{:.1}", rep.length.mean),
                    ]);
                }
                None => row.extend(std::iter::repeat_n(String::new(), 7)),
            }
        }
        row.push(r.flags.join("; "));
        row.push(String::new());
        w.write_record(&row).expect("writes to memory");
    }
    for s in &report.skipped {
        let mut row = vec![
            String::new(),
            Tier::Unplayable.name().to_string(),
            String::new(),
            String::new(),
            String::new(),
        ];
        row.extend(params(&s.values));
        row.extend(std::iter::repeat_n(String::new(), 7 * spec.levels.len()));
        row.push(String::new());
        row.push(s.error.clone());
        w.write_record(&row).expect("writes to memory");
    }
    String::from_utf8(w.into_inner().expect("flushes to memory")).expect("csv is UTF-8")
}

// ---------------------------------------------------------------------------
// Merging shards.

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::{Stopping, parse_levels};
    use crate::report::{Provenance, Rate, build};
    use crate::stats::wilson;

    /// A level's results, from the figures the ranking reads: `first` of
    /// `games` won by the first player, `drawn` drawn by the rules,
    /// `capped` stopped by the ply cap, a median and mean length, and the
    /// endings.
    struct Figures {
        first: u64,
        games: u64,
        drawn: u64,
        capped: u64,
        median: u32,
        mean: f64,
        endings: &'static [(&'static str, u64)],
    }

    fn fair(first: u64, games: u64) -> Figures {
        Figures {
            first,
            games,
            drawn: 0,
            capped: 0,
            median: 30,
            mean: 30.0,
            endings: &[],
        }
    }

    fn rate(count: u64, n: u64) -> Rate {
        let (lo, hi) = wilson(count, n);
        Rate {
            count,
            rate: count as f64 / n as f64,
            ci95: [lo, hi],
        }
    }

    fn level(name: &str, f: &Figures) -> LevelResult {
        let prov = Provenance {
            variant: VariantId {
                name: "test".into(),
                source_sha256: String::new(),
            },
            engine_version: String::new(),
            bots: vec![name.into(), name.into()],
            seed: 1,
            requested: f.games,
            max_plies: 300,
            openings: 0,
            book: None,
            shard: None,
            players: vec!['r', 'g'],
        };
        // Built from no games, then given the figures by hand: the ranking
        // reads only these.
        let mut r = build(&prov, &[]);
        r.games = f.games;
        let first = rate(f.first, f.games);
        r.first_player_advantage.wins = f.first;
        r.first_player_advantage.rate = first.rate;
        r.first_player_advantage.ci95 = first.ci95;
        r.first_player_advantage.fair = 0.5;
        r.first_player_advantage.advantage = first.rate - 0.5;
        r.draws = rate(f.drawn + f.capped, f.games);
        r.ply_cap = rate(f.capped, f.games);
        r.end_reasons = f.endings.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        r.length.median = f.median;
        r.length.mean = f.mean;
        LevelResult {
            level: name.into(),
            bot: name.into(),
            stopped: crate::balance::StopReason::Games,
            report: r,
        }
    }

    fn check(levels: Vec<LevelResult>) -> BalanceReport {
        BalanceReport {
            variant: VariantId {
                name: "test".into(),
                source_sha256: String::new(),
            },
            engine_version: String::new(),
            seed: 1,
            openings: 0,
            book: None,
            stopping: "games 100".into(),
            shard: None,
            pie_rule: false,
            levels,
            skill: Vec::new(),
            verdict: Vec::new(),
            interrupted: false,
        }
    }

    #[test]
    fn a_fair_game_of_ideal_length_is_playable_at_full_fitness() {
        let a = assess(&check(vec![
            level("random", &fair(250, 500)),
            level("easy", &fair(250, 500)),
        ]));
        assert_eq!(a.tier, Tier::Playable);
        assert_eq!(a.fitness, FULL_FITNESS);
        assert!(a.flags.is_empty(), "{:?}", a.flags);
    }

    #[test]
    fn fitness_loses_a_point_per_point_of_edge_and_per_ten_plies_outside_the_band() {
        // 53% at random (no significant edge in 100 games), 130 plies on
        // average at easy: 30 plies above the band.
        let long = Figures {
            mean: 130.0,
            median: 128,
            ..fair(50, 100)
        };
        let a = assess(&check(vec![
            level("random", &fair(53, 100)),
            level("easy", &long),
        ]));
        assert_eq!(a.tier, Tier::Playable);
        assert!((a.edge - 3.0).abs() < 1e-9, "{}", a.edge);
        assert!((a.plies_outside - 30.0).abs() < 1e-9);
        assert!(
            (a.fitness - (100.0 - 3.0 - 3.0)).abs() < 1e-9,
            "{}",
            a.fitness
        );
        // Short games count below the band alike.
        let short = Figures {
            mean: 15.0,
            median: 14,
            ..fair(50, 100)
        };
        let a = assess(&check(vec![level("random", &short)]));
        assert!((a.plies_outside - 5.0).abs() < 1e-9);
    }

    #[test]
    fn the_metrics_give_the_band_and_the_drawishness_where_a_report_has_them() {
        let mut l = level("random", &fair(50, 100));
        l.report.metrics.games = 100;
        l.report.metrics.duration.ideal = Some([40.0, 60.0]);
        // The figures by hand say no draws; the metrics say 60%.
        l.report.metrics.drawishness = 0.6;
        let a = assess(&check(vec![l.clone()]));
        assert!((a.plies_outside - 10.0).abs() < 1e-9, "{}", a.plies_outside);
        assert_eq!(a.tier, Tier::Broken);
        assert_eq!(a.flags, ["At random, 60.0% of games are drawn."]);
        // Without them (a report of an older file), the fixed band.
        l.report.metrics.games = 0;
        let a = assess(&check(vec![l]));
        assert_eq!(a.plies_outside, 0.0);
        assert_eq!(a.tier, Tier::Playable);
    }

    #[test]
    fn an_edge_at_any_level_makes_a_combination_unbalanced() {
        let a = assess(&check(vec![
            level("random", &fair(250, 500)),
            level("hard", &fair(330, 500)),
        ]));
        assert_eq!(a.tier, Tier::Unbalanced);
        assert_eq!(
            a.flags,
            ["At hard, the first player wins 66.0% [61.7%–70.0%]; fair is 50.0%."]
        );
        assert!((a.edge - 16.0).abs() < 1e-9);
        // A handicap counts as well as an advantage.
        let a = assess(&check(vec![level("random", &fair(170, 500))]));
        assert_eq!(a.tier, Tier::Unbalanced);
    }

    #[test]
    fn draws_the_ply_cap_and_one_dominant_ending_break_a_combination() {
        let drawish = Figures {
            drawn: 60,
            ..fair(20, 100)
        };
        let a = assess(&check(vec![level("random", &drawish)]));
        assert_eq!(a.tier, Tier::Broken);
        assert!(
            a.flags
                .contains(&"At random, 60.0% of games are drawn.".to_string())
        );
        let capped = Figures {
            capped: 11,
            ..fair(45, 100)
        };
        let a = assess(&check(vec![level("random", &capped)]));
        assert_eq!(a.tier, Tier::Broken);
        assert_eq!(
            a.flags,
            ["At random, 11.0% of games hit the ply cap of 300 plies."]
        );
        // 10% capped, 50% drawn: at the thresholds, not above them. (Half
        // the games drawn leaves the first player 25% where fair is 50%:
        // unbalanced, as the verdict says too.)
        let at_cap = Figures {
            capped: 10,
            ..fair(45, 100)
        };
        assert_eq!(
            assess(&check(vec![level("random", &at_cap)])).tier,
            Tier::Playable
        );
        let half_drawn = Figures {
            drawn: 50,
            ..fair(25, 100)
        };
        let a = assess(&check(vec![level("random", &half_drawn)]));
        assert_eq!(a.tier, Tier::Unbalanced, "{:?}", a.flags);
        assert!(
            !a.flags.iter().any(|f| f.contains("drawn")),
            "{:?}",
            a.flags
        );
        let stalemates = Figures {
            endings: &[("stalemate", 95), ("breakthrough-sow", 5)],
            ..fair(50, 100)
        };
        let a = assess(&check(vec![level("easy", &stalemates)]));
        assert_eq!(a.tier, Tier::Broken);
        assert_eq!(a.flags, ["At easy, 95.0% of games end by stalemate."]);
        // Not at random: random movers seldom aim for a breakthrough.
        let a = assess(&check(vec![level("random", &stalemates)]));
        assert_eq!(a.tier, Tier::Playable, "{:?}", a.flags);
        // Breakthroughs may dominate: that is how the game is won.
        let breakthroughs = Figures {
            endings: &[("breakthrough-sow", 100)],
            ..fair(50, 100)
        };
        assert_eq!(
            assess(&check(vec![level("random", &breakthroughs)])).tier,
            Tier::Playable
        );
    }

    #[test]
    fn games_that_end_at_once_are_unplayable_whatever_else_is_wrong() {
        let instant = Figures {
            median: 3,
            mean: 3.5,
            drawn: 80,
            ..fair(20, 100)
        };
        let a = assess(&check(vec![
            level("random", &fair(330, 500)),
            level("easy", &instant),
        ]));
        assert_eq!(a.tier, Tier::Unplayable);
        assert_eq!(
            a.flags[1],
            "At easy, half the games last fewer than 4 plies (median 3): the game ends at once."
        );
        // Four plies is play: each player moved twice.
        let four = Figures {
            median: 4,
            ..fair(50, 100)
        };
        assert_eq!(
            assess(&check(vec![level("random", &four)])).tier,
            Tier::Playable
        );
        // A check without games ranks lowest.
        let none = assess(&check(Vec::new()));
        assert_eq!(none.tier, Tier::Unplayable);
    }

    #[test]
    fn rows_rank_by_tier_then_fitness_then_number() {
        let row = |index: u64, figures: Figures| {
            row_of(
                index,
                BTreeMap::new(),
                check(vec![level("random", &figures)]),
            )
        };
        let mut rows = vec![
            // Unbalanced, short of nothing else.
            row(0, fair(330, 500)),
            // Playable but long: fitness 100 - 0 - 10.
            row(
                1,
                Figures {
                    mean: 200.0,
                    median: 190,
                    ..fair(250, 500)
                },
            ),
            // Broken.
            row(
                2,
                Figures {
                    drawn: 300,
                    ..fair(100, 500)
                },
            ),
            // Playable, fitness 100.
            row(3, fair(250, 500)),
            // Unplayable.
            row(
                4,
                Figures {
                    median: 0,
                    mean: 0.0,
                    ..fair(250, 500)
                },
            ),
            // Playable, fitness 100, a later number than 3.
            row(5, fair(250, 500)),
        ];
        rank(&mut rows);
        let order: Vec<(u64, u64, Tier)> = rows.iter().map(|r| (r.index, r.rank, r.tier)).collect();
        assert_eq!(
            order,
            [
                (3, 1, Tier::Playable),
                (5, 2, Tier::Playable),
                (1, 3, Tier::Playable),
                (0, 4, Tier::Unbalanced),
                (2, 5, Tier::Broken),
                (4, 6, Tier::Unplayable),
            ]
        );
        assert!(Tier::Unplayable < Tier::Broken && Tier::Broken < Tier::Unbalanced);
        assert!(Tier::Unbalanced < Tier::Playable);
    }

    #[test]
    fn tier_names_are_their_json_names() {
        for t in [
            Tier::Unplayable,
            Tier::Broken,
            Tier::Unbalanced,
            Tier::Playable,
        ] {
            assert_eq!(serde_json::to_value(t).unwrap(), t.name());
        }
    }

    #[test]
    fn values_parse_as_ranges_and_lists() {
        assert_eq!(parse_values("7..9"), Ok(vec![7, 8, 9]));
        assert_eq!(parse_values("6,8"), Ok(vec![6, 8]));
        assert_eq!(parse_values(" 7 "), Ok(vec![7]));
        assert_eq!(parse_values("8,6,8"), Ok(vec![8, 6]));
        assert!(parse_values("9..7").unwrap_err().contains("empty range"));
        assert!(
            parse_values("x")
                .unwrap_err()
                .contains("`x` is not a value")
        );
        assert!(
            parse_values("1,-2")
                .unwrap_err()
                .contains("`-2` is not a value")
        );
        assert!(
            parse_values("0..5000")
                .unwrap_err()
                .contains("more than 1000")
        );
    }

    /// The standard game with `param files = 7, 8` (and whatever `more`
    /// adds), as the sweep tests use it.
    fn two_sizes(more: &str) -> String {
        Variant::standard().source().replace(
            "board rect 8 x 7",
            &format!("param files = 7, 8\n{more}board rect $files x 7"),
        )
    }

    #[test]
    fn the_space_is_the_declared_values_or_the_set_ones_and_bad_settings_point_into_the_file() {
        let source = two_sizes("param cap = 200, 300\n").replace("plies 300", "plies $cap");
        let s = space(&source, &[]).unwrap();
        assert_eq!(s.len(), 4);
        assert_eq!(
            s.combination(1),
            [("files".to_string(), 7), ("cap".to_string(), 300)]
        );
        assert_eq!(label(&s.combination(2)), "files=8,cap=200");
        let s = space(&source, &[("cap".into(), vec![300])]).unwrap();
        assert_eq!(s.params[1], ("cap".to_string(), vec![300]));
        assert_eq!(s.len(), 2);
        // An unknown parameter and a value not declared: the compiler's
        // diagnostics, at the declarations.
        let Err(SweepError::Source(d)) = space(&source, &[("file".into(), vec![7])]) else {
            panic!("an unknown parameter is an error");
        };
        assert_eq!(d[0].message, "no parameter `file` is declared");
        assert!(d[0].render("t.mg", &source).starts_with("t.mg:"));
        let Err(SweepError::Source(d)) = space(&source, &[("files".into(), vec![7, 9])]) else {
            panic!("a value not declared is an error");
        };
        assert_eq!(d[0].message, "parameter `files` cannot be 9");
        let twice = [("files".into(), vec![7]), ("files".into(), vec![8])];
        assert!(matches!(
            space(&source, &twice),
            Err(SweepError::Invalid(_))
        ));
        // A file without parameters is one combination.
        let one = space(Variant::standard().source(), &[]).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(label(&one.combination(0)), "default");
    }

    fn config(shard: Option<(u64, u64)>) -> SweepConfig {
        SweepConfig {
            set: Vec::new(),
            balance: BalanceConfig {
                levels: parse_levels("random").unwrap(),
                stopping: Stopping::Games(6),
                openings: 0,
                seed: 5,
                threads: 2,
                shard: None,
                skill_games: 0,
                max_plies: None,
                book: None,
            },
            shard,
        }
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("murus-sweep-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_small_sweep_ranks_two_board_sizes_by_the_rule_and_keeps_its_files() {
        let source = two_sizes("");
        let c = config(None);
        let dir = temp("small");
        let r = run_sweep(
            "two.mg",
            &source,
            &c,
            Some(&dir),
            false,
            &SweepProgress::default(),
        )
        .unwrap();
        assert_eq!(r.spec.parameters, ["files"]);
        assert_eq!(r.spec.values, [vec![7, 8]]);
        assert_eq!(r.spec.combinations, 2);
        assert_eq!(r.spec.variant.name, "standard");
        assert!(r.skipped.is_empty() && !r.interrupted && r.missing().is_empty());
        assert_eq!(r.rows.len(), 2);
        // Each row is its combination's own balance check, assessed by the
        // rule, and the rows are in the rule's order.
        for row in &r.rows {
            let files = row.values["files"];
            let v = Variant::compile_with(&source, &[("files".into(), files as u32)]).unwrap();
            let alone =
                balance::run_balance(&v, &c.balance, None, false, &Progress::default()).unwrap();
            assert_eq!(row.balance, alone, "files = {files}");
            assert_eq!(row.balance.levels[0].report.games, 6);
            let a = assess(&row.balance);
            assert_eq!(
                (row.tier, row.fitness, &row.flags),
                (a.tier, a.fitness, &a.flags)
            );
            assert_eq!(row.index, u64::from(files == 8));
        }
        assert_eq!(r.rows[0].rank, 1);
        assert_eq!(r.rows[1].rank, 2);
        let (best, next) = (&r.rows[0], &r.rows[1]);
        assert!(
            best.tier > next.tier
                || (best.tier == next.tier && best.fitness > next.fitness)
                || (best.tier == next.tier
                    && best.fitness == next.fitness
                    && best.index < next.index),
            "{:?} before {:?}",
            (best.tier, best.fitness),
            (next.tier, next.fitness)
        );
        // The files, and the check of each combination in its own folder.
        assert_eq!(read_sweep(&dir).unwrap(), r);
        let csv = std::fs::read_to_string(dir.join("sweep.csv")).unwrap();
        assert!(csv.starts_with("rank,tier,fitness,edge,plies_outside,files,random_games,"));
        assert_eq!(csv.lines().count(), 3);
        assert!(
            std::fs::read_to_string(dir.join("sweep.svg"))
                .unwrap()
                .contains("<svg")
        );
        assert!(dir.join("combos/files=7/balance.json").is_file());
        assert!(
            dir.join("combos/files=8/levels/random/games.jsonl")
                .is_file()
        );
        // Resumed, it plays nothing new and reports the same; started
        // again without --resume, it refuses the folder; resumed with other
        // options, it names the difference.
        let again = run_sweep(
            "two.mg",
            &source,
            &c,
            Some(&dir),
            true,
            &SweepProgress::default(),
        )
        .unwrap();
        assert_eq!(again, r);
        let e = run_sweep(
            "two.mg",
            &source,
            &c,
            Some(&dir),
            false,
            &SweepProgress::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("already holds a sweep"), "{e}");
        let mut other = config(None);
        other.balance.seed = 6;
        let e = run_sweep(
            "two.mg",
            &source,
            &other,
            Some(&dir),
            true,
            &SweepProgress::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("seed 5 there, 6 asked"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_interrupted_sweep_keeps_what_it_has_and_resumes_to_the_whole_sweep() {
        let source = two_sizes("");
        let c = config(None);
        let whole = run_sweep(
            "two.mg",
            &source,
            &c,
            None,
            false,
            &SweepProgress::default(),
        )
        .unwrap();
        let dir = temp("interrupted");
        let stopped = SweepProgress::default();
        stopped.cancel();
        let r = run_sweep("two.mg", &source, &c, Some(&dir), false, &stopped).unwrap();
        assert!(r.interrupted);
        assert!(r.rows.is_empty());
        assert_eq!(r.missing(), [0, 1]);
        assert_eq!(read_sweep(&dir).unwrap(), r);
        let resumed = run_sweep(
            "two.mg",
            &source,
            &c,
            Some(&dir),
            true,
            &SweepProgress::default(),
        )
        .unwrap();
        assert_eq!(resumed, whole);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn combinations_that_do_not_compile_are_skipped_with_their_diagnostic_and_the_rest_run() {
        // `home rank 7` and the Gauls' setup need 7 ranks: 6 fails.
        let source = two_sizes("param ranks = 6, 7\n")
            .replace("board rect $files x 7", "board rect $files x $ranks");
        let mut c = config(None);
        c.set = vec![("files".into(), vec![8])];
        let r = run_sweep(
            "ranks.mg",
            &source,
            &c,
            None,
            false,
            &SweepProgress::default(),
        )
        .unwrap();
        assert_eq!(r.spec.combinations, 2);
        assert_eq!(r.rows.len(), 1);
        assert_eq!(r.rows[0].values["ranks"], 7);
        assert_eq!(r.skipped.len(), 1);
        let s = &r.skipped[0];
        assert_eq!(s.values["ranks"], 6);
        assert_eq!(s.index, 0);
        assert!(
            s.error.starts_with("ranks.mg:")
                && s.error.contains(": error: rank 7 is not on this board"),
            "{}",
            s.error
        );
        assert!(
            s.diagnostics.contains("parameters in force"),
            "{}",
            s.diagnostics
        );
        let csv = to_csv(&r);
        assert!(
            csv.lines().nth(2).unwrap().starts_with(",unplayable,"),
            "{csv}"
        );
    }

    #[test]
    fn the_shipped_size_sweep_compiles_everywhere_and_is_the_standard_game_at_8_by_7() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../variants/sweeps/standard-sizes.mg"
        );
        let source = std::fs::read_to_string(path).unwrap();
        let s = space(&source, &[]).unwrap();
        assert_eq!(
            s.params,
            [
                ("files".to_string(), vec![7, 8, 9]),
                ("ranks".to_string(), vec![6, 7, 8, 9])
            ]
        );
        for i in 0..s.len() {
            let settings = s.combination(i);
            let v = Variant::compile_with(&source, &settings)
                .unwrap_or_else(|d| panic!("{}: {d:?}", label(&settings)));
            let (files, ranks) = (settings[0].1, settings[1].1);
            let g = &v.rules().geometry;
            assert_eq!((g.width(), g.height()), (files as usize, ranks as usize));
            // Each side's towers fill its home rank.
            assert_eq!(
                v.rules().setup.len() as u32,
                2 * files,
                "{}",
                label(&settings)
            );
        }
        // The default combination is the standard game but for its names.
        let default = Variant::compile(&source).unwrap();
        let mut rules = default.rules().clone();
        let standard = Variant::standard();
        rules.name = standard.rules().name.clone();
        rules.title = standard.rules().title.clone();
        assert_eq!(&rules, standard.rules());
    }

    #[test]
    fn the_heat_map_thins_its_labels_so_that_they_never_overlap() {
        let space = Space {
            params: vec![
                ("files".into(), (100..=199).collect()),
                ("ranks".into(), (1..=60).collect()),
            ],
        };
        let report = SweepReport {
            spec: spec_of("t.mg", "", &space, &config(None).balance, None),
            rows: Vec::new(),
            skipped: Vec::new(),
            interrupted: false,
        };
        let svg = crate::charts::sweep_svg(&report);
        // `<text x="X" y="Y" …>\nBODY\n</text>` for every number drawn.
        let mut labels: Vec<(f64, f64, u32)> = Vec::new();
        for part in svg.split("<text ").skip(1) {
            let Some((tag, rest)) = part.split_once('>') else {
                continue;
            };
            let tag = format!(" {tag}");
            let attr = |name: &str| -> Option<f64> {
                let value = tag.split(&format!("{name}=\"")).nth(1)?;
                value[..value.find('"')?].parse().ok()
            };
            let body = rest.split('<').next().unwrap_or("").trim();
            if let (Some(x), Some(y), Ok(n)) = (attr(" x"), attr(" y"), body.parse::<u32>()) {
                labels.push((x, y, n));
            }
        }
        let files: Vec<(f64, u32)> = labels
            .iter()
            .filter(|l| l.2 >= 100)
            .map(|l| (l.0, l.2))
            .collect();
        let ranks: Vec<(f64, u32)> = labels
            .iter()
            .filter(|l| l.2 < 100)
            .map(|l| (l.1, l.2))
            .collect();
        assert!(
            files.len() >= 5 && files.len() < 100,
            "{} file labels",
            files.len()
        );
        assert!(
            ranks.len() >= 5 && ranks.len() < 60,
            "{} rank labels",
            ranks.len()
        );
        let gaps = |mut at: Vec<(f64, u32)>| {
            at.sort_by(|a, b| a.0.total_cmp(&b.0));
            at.windows(2)
                .map(|w| w[1].0 - w[0].0)
                .fold(f64::INFINITY, f64::min)
        };
        // Three digits at 10 pixels are at most 18 pixels wide; a line of
        // text is 10 high.
        assert!(gaps(files.clone()) > 18.0, "{files:?}");
        assert!(gaps(ranks) > 10.0);
    }

    #[test]
    fn shards_merge_into_the_unsharded_sweep_and_other_sweeps_are_refused() {
        let source = two_sizes("param cap = 200, 300\n").replace("plies 300", "plies $cap");
        let whole = run_sweep(
            "s.mg",
            &source,
            &config(None),
            None,
            false,
            &SweepProgress::default(),
        )
        .unwrap();
        assert_eq!(whole.rows.len(), 4);
        let dirs = [temp("shard1"), temp("shard2"), temp("shard3")];
        for (k, d) in dirs[..2].iter().enumerate() {
            let c = config(Some((k as u64 + 1, 2)));
            let part = run_sweep(
                "s.mg",
                &source,
                &c,
                Some(d),
                false,
                &SweepProgress::default(),
            )
            .unwrap();
            assert_eq!(part.rows.len(), 2);
            assert_eq!(part.missing().len(), 2);
        }
        let merged_dir = temp("merged");
        let refs = [dirs[0].as_path(), dirs[1].as_path()];
        let merged = merge_sweeps(&refs, Some(&merged_dir)).unwrap();
        assert_eq!(merged, whole);
        assert_eq!(read_sweep(&merged_dir).unwrap(), whole);
        // One shard alone: half the table, the rest named missing.
        let half = merge_sweeps(&refs[..1], None).unwrap();
        assert_eq!(half.missing(), [1, 3]);
        // The same shard twice, or a shard of another sweep, is refused.
        let e = merge_sweeps(&[refs[0], refs[0]], None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("shard 1/2 is given twice"), "{e}");
        let mut other = config(Some((2, 2)));
        other.balance.openings = 2;
        run_sweep(
            "s.mg",
            &source,
            &other,
            Some(&dirs[2]),
            false,
            &SweepProgress::default(),
        )
        .unwrap();
        let e = merge_sweeps(&[refs[0], &dirs[2]], None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a shard of the same sweep"), "{e}");
        assert!(e.contains("openings 0 there, 2 here"), "{e}");
        for d in dirs.iter().chain([&merged_dir]) {
            std::fs::remove_dir_all(d).unwrap();
        }
    }
}
