//! What decides a balance check's games ([`BalanceSpec`]), as its folder
//! keeps it (`balance-run.json`), and as shards of one check must share it.

use murus_engine::Variant;
use serde::{Deserialize, Serialize};

use super::config::{BalanceConfig, Stopping};
use crate::book::BookId;
use crate::error::LabError;
use crate::folder::{Differences, Settings, Shard, Sharded, Spec, or_none};
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
    pub stopping: Stopping,
    /// The levels, weakest first, each with its bot: `easy (easy)`.
    pub levels: Vec<String>,
    /// `K/N` for one shard of a check; `None` for a whole check.
    pub shard: Option<Shard>,
    /// Games of each skill match (0: no skill trace). `None` in the spec
    /// of a shard's report, and in files written before it was kept: such
    /// a check resumes, and such shards merge, with any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill_games: Option<u64>,
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
            stopping: config.stopping,
            levels: config
                .levels
                .iter()
                .map(|l| format!("{} ({})", l.name, l.spec))
                .collect(),
            shard: config.shard.map(|(k, n)| Shard { k, n }),
            skill_games: Some(config.skill_games),
        }
    }

    /// The spec of the check whose report is `r` (for a merge: the report
    /// says all that decides the games of a check's shard), or why its
    /// stopping rule does not read.
    pub fn of_report(r: &BalanceReport) -> Result<BalanceSpec, LabError> {
        Ok(BalanceSpec {
            format: FORMAT,
            variant: r.variant.clone(),
            engine_version: r.engine_version.clone(),
            seed: r.seed,
            openings: r.openings,
            book: r.book.clone(),
            stopping: r.stopping.parse().map_err(LabError::Invalid)?,
            levels: r
                .levels
                .iter()
                .map(|l| format!("{} ({})", l.level, l.bot))
                .collect(),
            shard: r.shard,
            skill_games: None,
        })
    }

    /// The names of its levels, weakest first.
    pub fn level_names(&self) -> Vec<&str> {
        self.levels
            .iter()
            .map(|l| l.split_once(" (").map_or(l.as_str(), |(name, _)| name))
            .collect()
    }

    /// Its stopping rule (always there: the spec reads only with one; an
    /// `Option` for the callers that asked when it was kept as text).
    pub fn stopping_rule(&self) -> Option<Stopping> {
        Some(self.stopping)
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
        d.add("stopping rule", a.stopping, b.stopping);
        d.add("levels", a.levels.join(", "), b.levels.join(", "));
        d.add(
            "shard",
            or_none(a.shard.as_ref()),
            or_none(b.shard.as_ref()),
        );
        if let (Some(x), Some(y)) = (a.skill_games, b.skill_games) {
            d.add("skill games", x, y);
        }
        d.finish()
    }
}

impl Sharded for BalanceSpec {
    fn shard(&mut self) -> &mut Option<Shard> {
        &mut self.shard
    }
}

impl Spec for BalanceSpec {
    const FILE: &'static str = "balance-run.json";
    const FILES: &'static [&'static str] = &[OUTPUTS[0], OUTPUTS[1], OUTPUTS[2], "levels", "skill"];
    const OUTPUTS: &'static [&'static str] = &OUTPUTS;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::parse_levels;

    #[test]
    fn a_stopping_rule_reads_in_points() {
        let rule = |precision| Stopping::Precision {
            precision,
            max_games: 2000,
        };
        assert_eq!(
            rule(0.03).in_words(),
            "precision ±3 points up to 2000 games"
        );
        assert_eq!(
            rule(0.025).in_words(),
            "precision ±2.5 points up to 2000 games"
        );
        assert_eq!(Stopping::Games(100).in_words(), "100 games");
    }

    #[test]
    fn a_spec_reads_back_its_levels_stopping_rule_and_skill_games() {
        let config = |stopping, skill_games| BalanceConfig {
            levels: parse_levels("random,hard").unwrap(),
            stopping,
            openings: 2,
            seed: 5,
            threads: 1,
            shard: None,
            skill_games,
            max_plies: None,
            book: None,
        };
        let v = Variant::standard();
        for stopping in [
            Stopping::Games(30),
            Stopping::Precision {
                precision: 0.041,
                max_games: 2000,
            },
        ] {
            let spec = BalanceSpec::of(&v, &config(stopping, 10));
            assert_eq!(spec.level_names(), ["random", "hard"]);
            assert_eq!(spec.stopping_rule(), Some(stopping));
            assert_eq!(spec.skill_games, Some(10));
        }
        assert_eq!(Stopping::parse("games"), None);
        assert_eq!(Stopping::parse("precision 0.1 up to x games"), None);
        // Skill games differ when both sides keep them.
        let a = BalanceSpec::of(&v, &config(Stopping::Games(30), 10));
        let b = BalanceSpec::of(&v, &config(Stopping::Games(30), 20));
        assert_eq!(
            a.differences(&b, "asked"),
            ["skill games 10 there, 20 asked"]
        );
        let old = BalanceSpec {
            skill_games: None,
            ..a.clone()
        };
        assert!(old.differences(&b, "asked").is_empty());
        // Older files, without the field, still read.
        let text = serde_json::to_string(&old).unwrap();
        assert!(!text.contains("skill_games"));
        assert_eq!(serde_json::from_str::<BalanceSpec>(&text).unwrap(), old);
    }
}
