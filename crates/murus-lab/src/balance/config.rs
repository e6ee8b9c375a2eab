//! What a balance check plays: its levels, the rule that stops each
//! level, and its settings.

use std::sync::Arc;

use murus_ai::{BotSpec, LEVELS};
use murus_engine::Variant;

use crate::book::Book;
use crate::error::LabError;
use crate::folder::RunSpec;
use crate::matches::MatchConfig;
pub use crate::report::{MIN_GAMES_FOR_EDGE, Stopping, Z_EDGE};
use crate::runner::Config;

/// The levels, weakest first: `random` and [`LEVELS`].
pub fn level_names() -> Vec<&'static str> {
    std::iter::once("random")
        .chain(LEVELS.iter().map(|(name, _)| *name))
        .collect()
}

/// A level of play: its name and its bot.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub name: String,
    pub spec: BotSpec,
}

/// Parses `random,easy,hard`: level names, weakest first (they are sorted
/// so), each once ([`levels_named`]).
pub fn parse_levels(list: &str) -> Result<Vec<Level>, LabError> {
    let words: Vec<&str> = list.split(',').map(str::trim).collect();
    levels_named(&words)
}

/// The levels named (`["random", "hard"]`), weakest first (they are sorted
/// so), each once; an unknown name or one named twice is refused.
pub fn levels_named<S: AsRef<str>>(words: &[S]) -> Result<Vec<Level>, LabError> {
    let names = level_names();
    let mut picked: Vec<usize> = Vec::new();
    for word in words.iter().map(|w| w.as_ref().trim()) {
        let Some(i) = names.iter().position(|n| *n == word) else {
            return Err(LabError::Invalid(format!(
                "unknown level `{word}`: expected some of {}",
                names.join(", ")
            )));
        };
        if picked.contains(&i) {
            return Err(LabError::Invalid(format!("level `{word}` is named twice")));
        }
        picked.push(i);
    }
    picked.sort_unstable();
    Ok(picked
        .into_iter()
        .map(|i| Level {
            name: names[i].to_string(),
            spec: names[i].parse().expect("level names parse as bots"),
        })
        .collect())
}

/// A balance check.
#[derive(Clone, Debug)]
pub struct BalanceConfig {
    pub levels: Vec<Level>,
    pub stopping: Stopping,
    /// Random plies that open each round of games (none with a book).
    pub openings: u32,
    pub seed: u64,
    pub threads: usize,
    /// `(k, n)`: this shard's share of every level's games and of every
    /// skill match's (fixed game counts only).
    pub shard: Option<(u64, u64)>,
    /// Games of each match between adjacent levels (0: no skill trace).
    pub skill_games: u64,
    /// A ply cap instead of the variant's.
    pub max_plies: Option<u32>,
    /// An opening book: every round of games, at every level and in every
    /// skill match, opens with its next line ([`Config::with_book`])
    /// instead of random plies; the report records it (and 0 openings),
    /// and a check kept in a folder resumes only with the same book.
    pub book: Option<Arc<Book>>,
}

impl BalanceConfig {
    /// Refuses what cannot run: no levels, a precision that is not a
    /// number from 0 (excluded) to 0.5, a shard with a sequential rule.
    pub fn check(&self) -> Result<(), LabError> {
        if self.levels.is_empty() {
            return Err(LabError::Invalid("no levels to play".into()));
        }
        if let Stopping::Precision {
            precision,
            max_games,
        } = self.stopping
        {
            if !(precision > 0.0 && precision <= 0.5) {
                return Err(LabError::Invalid(format!(
                    "precision {precision}: expected a half-width above 0 and at most 0.5 (0.03 is ±3 points)"
                )));
            }
            if max_games == 0 {
                return Err(LabError::Invalid("at most 0 games: nothing to play".into()));
            }
            if self.shard.is_some() {
                return Err(LabError::Invalid(
                    "a sharded check needs a fixed number of games (--games N): shards cannot share a stopping rule".into(),
                ));
            }
        }
        if self.stopping.max_games() == 0 {
            return Err(LabError::Invalid("0 games: nothing to play".into()));
        }
        Ok(())
    }

    /// The self-play run of `level` (its seed is the check's, mixed with the
    /// level's name, so levels are independent samples).
    pub fn level_config(&self, variant: &Variant, level: &Level) -> Result<Config, LabError> {
        let players = variant.player_count() as u64;
        let games = self.stopping.max_games().div_ceil(players) * players;
        let mut c = Config::new(
            variant,
            vec![level.spec.clone()],
            games,
            self.seed ^ name_salt(&level.name),
        )
        .with_threads(self.threads)
        .with_openings(self.openings);
        if let Some(cap) = self.max_plies {
            c = c.with_max_plies(cap);
        }
        if let Some((k, n)) = self.shard {
            c = c.with_shard(k, n)?;
        }
        if let Some(b) = &self.book {
            c = c.with_book(b.clone());
        }
        Ok(c)
    }

    pub(super) fn level_spec(&self, lc: &Config) -> RunSpec {
        let mut spec = RunSpec::new("balance", lc.provenance(), None);
        spec.stop = Some(self.stopping.describe());
        spec
    }

    /// The match between adjacent levels `upper` (bot A) and `lower` (the
    /// check's book opens its games too; a shard of the check plays its
    /// share of the match's games, as of each level's).
    pub fn skill_match(&self, upper: &Level, lower: &Level) -> MatchConfig {
        MatchConfig {
            a: upper.spec.clone(),
            b: lower.spec.clone(),
            games: self.skill_games,
            seed: self.seed ^ name_salt(&upper.name) ^ name_salt(&lower.name).rotate_left(17),
            threads: self.threads,
            sprt: None,
            openings: self.openings,
            book: self.book.clone(),
            shard: self.shard,
        }
    }
}

/// FNV-1a of a level's name: its seed's salt.
fn name_salt(name: &str) -> u64 {
    murus_engine::util::fnv1a(name.as_bytes())
}
