//! Shards: `--shard K/N` plays the games (or combinations) numbered
//! `K-1 mod N` of a run, and the shards of one run merge back into it.
//! One parser of `K/N` ([`Shard`]) and one check that folders given to a
//! merge are the shards of one split, each once ([`check_shards`]).

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use super::Settings;
use crate::error::LabError;

/// Shard `k` of `n` (`1 <= k <= n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    /// Shard `k` of `n`, or why there is none (`K must be from 1 to N`).
    pub fn new(k: u64, n: u64) -> Result<Shard, LabError> {
        if k == 0 || k > n {
            return Err(LabError::Invalid(format!(
                "shard {k}/{n}: K must be from 1 to N"
            )));
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

/// Settings of which a run may play a shard.
pub trait Sharded: Settings {
    /// The shard these settings play, `K/N`, if any.
    fn shard(&mut self) -> &mut Option<String>;
}

/// The shards a merge was given: the split `n`, and the shards present.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardSet {
    /// The number of shards of the split.
    pub n: u64,
    /// The shards given (`K`, from 1), in the order given.
    pub present: Vec<u64>,
}

impl ShardSet {
    /// The shards of the split not given, in order.
    pub fn missing(&self) -> Vec<u64> {
        (1..=self.n).filter(|k| !self.present.contains(k)).collect()
    }
}

/// Checks that `dirs`, whose settings are `settings`, hold the shards of
/// one run, each once: the same settings but for the shard (else each
/// difference is named), every one a shard (`--shard K/N`), all of one
/// split (the same N), none given twice. Returns the shards found.
pub fn check_shards<S: Sharded>(dirs: &[&Path], settings: &[S]) -> Result<ShardSet, LabError> {
    let what = S::WHAT;
    let (Some(first_dir), Some(first)) = (dirs.first(), settings.first()) else {
        return Err(LabError::Invalid("nothing to merge".into()));
    };
    let mut base = first.clone();
    *base.shard() = None;
    for (dir, s) in dirs.iter().zip(settings) {
        let mut s = s.clone();
        *s.shard() = None;
        let differences = base.differences(&s, "here");
        if !differences.is_empty() {
            return Err(LabError::Invalid(format!(
                "{} is not a shard of the same {what} as {}: {}",
                dir.display(),
                first_dir.display(),
                differences.join("; ")
            )));
        }
    }
    let mut present: Vec<(u64, &Path)> = Vec::new();
    let mut split = None;
    for (dir, s) in dirs.iter().zip(settings) {
        let mut s = s.clone();
        let Some(Shard { k, n }) = s.shard().as_deref().and_then(|t| t.parse().ok()) else {
            return Err(LabError::Invalid(format!(
                "{}: not a shard (that {what} ran without --shard): nothing to merge it with",
                dir.display()
            )));
        };
        if let Some(m) = split
            && m != n
        {
            return Err(LabError::Invalid(format!(
                "{}: shard {k}/{n}, but {} is a shard of {m}: shards of different splits do not merge",
                dir.display(),
                first_dir.display()
            )));
        }
        split = Some(n);
        if let Some((_, other)) = present.iter().find(|(s, _)| *s == k) {
            return Err(LabError::Invalid(format!(
                "shard {k}/{n} is given twice: {} and {}",
                other.display(),
                dir.display()
            )));
        }
        present.push((k, dir));
    }
    Ok(ShardSet {
        n: split.unwrap_or(1),
        present: present.into_iter().map(|(k, _)| k).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_from_k_of_n_and_refuse_what_is_not_one() {
        assert_eq!("2/3".parse(), Ok(Shard { k: 2, n: 3 }));
        assert_eq!(" 1 / 4 ".parse(), Ok(Shard { k: 1, n: 4 }));
        assert_eq!(
            "x".parse::<Shard>(),
            Err("`x`: expected K/N, like 1/4".into())
        );
        assert_eq!(
            "3/2".parse::<Shard>(),
            Err("3/2: K must be from 1 to N".into())
        );
        assert_eq!(
            "0/2".parse::<Shard>(),
            Err("0/2: K must be from 1 to N".into())
        );
        assert_eq!(Shard { k: 2, n: 3 }.to_string(), "2/3");
        let s = Shard::new(2, 3).unwrap();
        assert!(s.plays(1) && s.plays(4) && !s.plays(2));
        assert!(Shard::new(4, 3).is_err());
    }

    #[test]
    fn missing_shards_are_those_of_the_split_not_given() {
        let set = ShardSet {
            n: 4,
            present: vec![3, 1],
        };
        assert_eq!(set.missing(), [2, 4]);
    }
}
