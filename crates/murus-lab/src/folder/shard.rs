//! Shards: `--shard K/N` plays the games (or combinations) numbered
//! `K-1 mod N` of a run, and the shards of one run merge back into it.
//! One parser of `K/N` ([`Shard`]) and one check that folders given to a
//! merge are the shards of one split, each once ([`check_shards`]).

use std::path::Path;

use super::Settings;
use crate::error::LabError;
pub use crate::shard::Shard;

/// Whether a merge may lack part of the run: shards not given, or shards
/// that were interrupted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partial {
    /// Refuse it ([`LabError::Partial`], naming what is missing), writing
    /// nothing.
    Refuse,
    /// Merge what is there (`--allow-partial`); the report lists the
    /// shards missing and says whether a shard was interrupted.
    Allow,
}

/// Checks that each of `dirs` is the folder of a shard that ran to its
/// end: a folder (`` `nothere`: no such folder ``) holding `file`, the
/// report `what` (`run`, `check`, `sweep`) writes when it ends.
pub fn check_finished(dirs: &[&Path], file: &str, what: &str) -> Result<(), LabError> {
    for d in dirs {
        if !d.is_dir() {
            return Err(LabError::Invalid(format!(
                "`{}`: no such folder",
                d.display()
            )));
        }
        if !d.join(file).is_file() {
            return Err(LabError::Invalid(format!(
                "{}: no {file}: not the --out folder of a {what}'s shard that ran to its end (resume it with --resume)",
                d.display()
            )));
        }
    }
    Ok(())
}

/// `a`, `a and b`, `a, b and c`; past ten items, `a, b, … j and 5 more`.
fn listed(items: &[String]) -> String {
    const SHOWN: usize = 10;
    match items {
        [] => String::new(),
        [one] => one.clone(),
        _ if items.len() > SHOWN => format!(
            "{} and {} more",
            items[..SHOWN].join(", "),
            items.len() - SHOWN
        ),
        [head @ .., last] => format!("{} and {last}", head.join(", ")),
    }
}

/// Settings of which a run may play a shard.
pub trait Sharded: Settings {
    /// The shard these settings play, `K/N`, if any.
    fn shard(&mut self) -> &mut Option<Shard>;
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

    /// The shards of the split not given, as `K/N`.
    pub fn missing_shards(&self) -> Vec<String> {
        self.missing()
            .into_iter()
            .map(|k| format!("{k}/{}", self.n))
            .collect()
    }

    /// Checks that the shards given make the whole run, unless `partial`
    /// allows them not to: none missing (`shards 3/8 and 5/8 are
    /// missing`), none interrupted (`interrupted[i]`: whether the shard in
    /// `dirs[i]`, the folders in the order given, was; `shard 2/8 (DIR)
    /// was interrupted`).
    pub fn check_whole(
        &self,
        dirs: &[&Path],
        interrupted: &[bool],
        partial: Partial,
    ) -> Result<(), LabError> {
        let mut why = Vec::new();
        let missing = self.missing_shards();
        match missing.len() {
            0 => {}
            1 => why.push(format!("shard {} is missing", missing[0])),
            _ => why.push(format!("shards {} are missing", listed(&missing))),
        }
        for ((k, dir), _) in self
            .present
            .iter()
            .zip(dirs)
            .zip(interrupted)
            .filter(|(_, stopped)| **stopped)
        {
            why.push(format!(
                "shard {k}/{} ({}) was interrupted",
                self.n,
                dir.display()
            ));
        }
        if why.is_empty() || partial == Partial::Allow {
            Ok(())
        } else {
            Err(LabError::Partial(why))
        }
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
        let Some(Shard { k, n }) = *s.shard() else {
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
        assert_eq!(set.missing_shards(), ["2/4", "4/4"]);
    }

    #[test]
    fn a_merge_that_is_not_the_whole_run_is_refused_naming_what_lacks_unless_allowed() {
        let dirs = [Path::new("s3"), Path::new("s1"), Path::new("s4")];
        let set = ShardSet {
            n: 8,
            present: vec![3, 1, 4],
        };
        let e = set
            .check_whole(&dirs, &[false, true, false], Partial::Refuse)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "shards 2/8, 5/8, 6/8, 7/8 and 8/8 are missing; shard 1/8 (s1) was interrupted"
        );
        assert!(
            set.check_whole(&dirs, &[false, true, false], Partial::Allow)
                .is_ok()
        );
        let one = ShardSet {
            n: 2,
            present: vec![2],
        };
        let e = one
            .check_whole(&dirs[..1], &[false], Partial::Refuse)
            .unwrap_err();
        assert_eq!(e.to_string(), "shard 1/2 is missing");
        let whole = ShardSet {
            n: 2,
            present: vec![2, 1],
        };
        assert!(
            whole
                .check_whole(&dirs[..2], &[false, false], Partial::Refuse)
                .is_ok()
        );
        let many: Vec<String> = (1..=12).map(|k| k.to_string()).collect();
        assert_eq!(listed(&many), "1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more");
    }
}
