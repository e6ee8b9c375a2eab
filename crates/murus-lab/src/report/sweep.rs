//! A sweep's report (`sweep.json`): what was swept and how
//! ([`SweepSpec`]), each combination's balance check ranked by tier and
//! fitness ([`SweepRow`], ranked by [`crate::sweep::assess`]), and those
//! that do not compile ([`Skipped`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Stopping;
use crate::shard::Shard;

use super::BalanceReport;
use crate::record::VariantId;

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
    pub stopping: Stopping,
    pub openings: u32,
    pub seed: u64,
    /// Games of each skill match between adjacent levels (0: none).
    pub skill_games: u64,
    /// A ply cap instead of each variant's own.
    pub max_plies: Option<u32>,
    /// `K/N`: this shard plays combinations numbered `K-1 mod N`; `None`
    /// for a whole sweep or a merge.
    pub shard: Option<Shard>,
    /// With `--train`: the positions each combination without a trained
    /// evaluation trained one on first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub train: Option<u64>,
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
    /// The shards (`K/N`) a merge lacked, when it was asked to merge the
    /// shards present (`--allow-partial`): the report covers their games
    /// only. Left out of the JSON of a whole run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_shards: Vec<String>,
}

impl SweepReport {
    /// The swept file's variant name.
    pub fn variant_name(&self) -> &str {
        &self.spec.variant.name
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
