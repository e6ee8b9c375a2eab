//! Shard `K/N` of a run: the games (or combinations) numbered `K-1 mod N`.
//! One type, parsed once at the edge (`--shard K/N`) and kept as `K/N` in
//! every file ([`Shard`]'s serde goes through its text); beneath the
//! records, which name the shard that played them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Shard `k` of `n` (`1 <= k <= n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    /// Shard `k` of `n`, or why there is none (`shard 3/2: K must be
    /// from 1 to N`).
    pub fn new(k: u64, n: u64) -> Result<Shard, String> {
        if k == 0 || k > n {
            return Err(format!("shard {k}/{n}: K must be from 1 to N"));
        }
        Ok(Shard { k, n })
    }

    /// Whether the shard plays item `index` (a game's or a combination's
    /// number, from 0).
    pub fn plays(self, index: u64) -> bool {
        index % self.n == self.k - 1
    }

    /// The shard as the pair `(k, n)`.
    pub fn pair(self) -> (u64, u64) {
        (self.k, self.n)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// Parses `K/N`. The error reads after `--shard ` or `shard `:
/// ``` `x`: expected K/N, like 1/4 ``` or `3/2: K must be from 1 to N`.
impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)))
            .ok_or_else(|| format!("`{s}`: expected K/N, like 1/4"))?;
        if k == 0 || k > n {
            return Err(format!("{k}/{n}: K must be from 1 to N"));
        }
        Ok(Shard { k, n })
    }
}

impl Serialize for Shard {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Read from `K/N`; anything else is an error that says what was expected.
impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|e| serde::de::Error::custom(format!("shard {e}")))
    }
}
