//! A balance check's stopping rule: the type its spec and a sweep's keep
//! (as text: `games 100`, `precision 0.03 up to 2000 games`), beneath the
//! checks and sweeps that play by it.

use crate::stats::{Z95, wilson_z};

use super::StopReason;

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
