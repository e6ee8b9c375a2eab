//! What a balance check plays: its levels, the rule that stops each
//! level, and its settings.

use std::sync::Arc;

use murus_ai::{BotSpec, LEVELS};
use murus_engine::Variant;

use crate::book::Book;
use crate::error::LabError;
use crate::folder::RunSpec;
use crate::matches::MatchConfig;
use crate::report::StopReason;
use crate::runner::Config;
use crate::stats::{Z95, wilson_z};

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
/// so), each once.
pub fn parse_levels(list: &str) -> Result<Vec<Level>, LabError> {
    let names = level_names();
    let mut picked: Vec<usize> = Vec::new();
    for word in list.split(',').map(str::trim) {
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

/// When a level stops playing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stopping {
    /// Exactly this many games at each level (rounded up to whole rounds).
    Games(u64),
    /// Until the first player's 95% interval is at most `±precision` wide,
    /// or its edge is clear ([`Stopping::decided`]); at most `max_games`.
    Precision { precision: f64, max_games: u64 },
}

/// No early stop for a clear edge before this many games: small samples
/// make poor evidence even when the interval says otherwise.
pub const MIN_GAMES_FOR_EDGE: u64 = 100;

/// The normal quantile of the early-stopping interval: about 99.7%. The
/// rule looks at the data once per round of games, and a look at 95% each
/// time would cry "unfair" far more often than one time in twenty; a
/// boundary at z = 3 for every look (Pocock's scheme) keeps the chance of a
/// false alarm under 5% for up to about a hundred looks.
pub const Z_EDGE: f64 = 3.0;

impl Stopping {
    /// The most games a level plays.
    pub fn max_games(&self) -> u64 {
        match *self {
            Stopping::Games(n) => n,
            Stopping::Precision { max_games, .. } => max_games,
        }
    }

    /// Whether a level that has played `games` games, `first_wins` of them
    /// won by the first player, stops here, and why. The rule is the same
    /// at every look, so the games a level plays depend on nothing but
    /// their results in number order.
    pub fn decided(&self, first_wins: u64, games: u64, fair: f64) -> Option<StopReason> {
        match *self {
            Stopping::Games(_) => None,
            Stopping::Precision { precision, .. } => {
                let (lo, hi) = wilson_z(first_wins, games, Z95);
                if (hi - lo) / 2.0 <= precision {
                    return Some(StopReason::Precision);
                }
                let (lo, hi) = wilson_z(first_wins, games, Z_EDGE);
                if games >= MIN_GAMES_FOR_EDGE && (lo > fair || hi < fair) {
                    return Some(StopReason::ClearEdge);
                }
                None
            }
        }
    }

    /// What `run.json` keeps of the rule.
    pub fn describe(&self) -> String {
        match *self {
            Stopping::Games(n) => format!("games {n}"),
            Stopping::Precision {
                precision,
                max_games,
            } => format!("precision {precision} up to {max_games} games"),
        }
    }

    /// The rule as a reader takes it, with the precision in points as
    /// `--precision` takes it: `precision ±4 points up to 2000 games`,
    /// `100 games`. ([`Stopping::describe`] is what files keep.)
    pub fn in_words(&self) -> String {
        match *self {
            Stopping::Games(n) => format!("{n} games"),
            Stopping::Precision {
                precision,
                max_games,
            } => {
                // Rounded to what a float's fraction of 1 can say.
                let points = (precision * 100.0 * 1e6).round() / 1e6;
                format!("precision ±{points} points up to {max_games} games")
            }
        }
    }

    /// The rule that [`Stopping::describe`] wrote as `text`, if it is one.
    pub fn parse(text: &str) -> Option<Stopping> {
        if let Some(n) = text.strip_prefix("games ") {
            return n.parse().ok().map(Stopping::Games);
        }
        let rest = text.strip_prefix("precision ")?;
        let (precision, max_games) = rest.strip_suffix(" games")?.split_once(" up to ")?;
        Some(Stopping::Precision {
            precision: precision.parse().ok()?,
            max_games: max_games.parse().ok()?,
        })
    }
}

/// The rule as files keep it ([`Stopping::describe`]): `games 100`,
/// `precision 0.03 up to 2000 games`.
impl std::fmt::Display for Stopping {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// Reads what [`Stopping::describe`] writes; the error quotes the text.
impl std::str::FromStr for Stopping {
    type Err = String;

    fn from_str(text: &str) -> Result<Stopping, String> {
        Stopping::parse(text).ok_or_else(|| {
            format!("`{text}`: not a stopping rule (`games N`, `precision P up to N games`)")
        })
    }
}

impl serde::Serialize for Stopping {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Stopping {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Stopping, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
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
