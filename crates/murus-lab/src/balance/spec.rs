//! What decides a balance check's games ([`BalanceSpec`]), as its folder
//! keeps it (`balance-run.json`), and as shards of one check must share it.

use murus_engine::Variant;
use serde::{Deserialize, Serialize};

use super::config::BalanceConfig;
use crate::book::BookId;
use crate::folder::{Differences, Settings, Sharded, Spec, or_none};
use crate::record::VariantId;
use crate::report::BalanceReport;

/// The layout of `balance-run.json` this version writes and reads.
const FORMAT: u32 = 1;

/// The files of a finished check.
const OUTPUTS: [&str; 3] = ["balance.json", "balance.csv", "balance.svg"];

/// What decides a balance check's games: a check resumes, and its shards
/// merge, only with the same. Each level's and each match's folder keeps
/// its own games' spec besides (the ply cap, the matches' games).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BalanceSpec {
    /// The version of this file's layout (1).
    pub format: u32,
    pub variant: VariantId,
    pub engine_version: String,
    pub seed: u64,
    /// Random plies that open each round of games (0 with a book).
    pub openings: u32,
    /// The opening book the games open from; left out when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<BookId>,
    /// The stopping rule: `precision 0.03 up to 2000 games` or `games N`.
    pub stopping: String,
    /// The levels, weakest first, each with its bot: `easy (easy)`.
    pub levels: Vec<String>,
    /// `K/N` for one shard of a check; `None` for a whole check.
    pub shard: Option<String>,
}

impl BalanceSpec {
    /// The spec of the check of `variant` that `config` plays.
    pub fn of(variant: &Variant, config: &BalanceConfig) -> BalanceSpec {
        BalanceSpec {
            format: FORMAT,
            variant: VariantId::of(variant),
            engine_version: env!("CARGO_PKG_VERSION").to_string(),
            seed: config.seed,
            openings: if config.book.is_some() {
                0
            } else {
                config.openings
            },
            book: config.book.as_ref().map(|b| b.id().clone()),
            stopping: config.stopping.describe(),
            levels: config
                .levels
                .iter()
                .map(|l| format!("{} ({})", l.name, l.spec))
                .collect(),
            shard: config.shard.map(|(k, n)| format!("{k}/{n}")),
        }
    }

    /// The spec of the check whose report is `r` (for a merge: the report
    /// says all that decides the games of a check's shard).
    pub fn of_report(r: &BalanceReport) -> BalanceSpec {
        BalanceSpec {
            format: FORMAT,
            variant: r.variant.clone(),
            engine_version: r.engine_version.clone(),
            seed: r.seed,
            openings: r.openings,
            book: r.book.clone(),
            stopping: r.stopping.clone(),
            levels: r
                .levels
                .iter()
                .map(|l| format!("{} ({})", l.level, l.bot))
                .collect(),
            shard: r.shard.clone(),
        }
    }
}

impl Settings for BalanceSpec {
    const WHAT: &'static str = "check";

    fn differences(&self, b: &BalanceSpec, here: &'static str) -> Vec<String> {
        let a = self;
        let mut d = Differences::new(here);
        d.add("format", a.format, b.format);
        d.rules(&a.variant, &b.variant);
        d.add("engine version", &a.engine_version, &b.engine_version);
        d.add("seed", a.seed, b.seed);
        d.add("openings", a.openings, b.openings);
        d.add(
            "opening book",
            BookId::describe_or_none(a.book.as_ref()),
            BookId::describe_or_none(b.book.as_ref()),
        );
        d.add("stopping rule", &a.stopping, &b.stopping);
        d.add("levels", a.levels.join(", "), b.levels.join(", "));
        d.add(
            "shard",
            or_none(a.shard.as_ref()),
            or_none(b.shard.as_ref()),
        );
        d.finish()
    }
}

impl Sharded for BalanceSpec {
    fn shard(&mut self) -> &mut Option<String> {
        &mut self.shard
    }
}

impl Spec for BalanceSpec {
    const FILE: &'static str = "balance-run.json";
    const FILES: &'static [&'static str] = &[OUTPUTS[0], OUTPUTS[1], OUTPUTS[2], "levels", "skill"];
    const OUTPUTS: &'static [&'static str] = &OUTPUTS;
}
