//! The combinations a sweep plays: each declared parameter's values, or
//! those `--set` gives it, the first parameter varying slowest.

use super::SweepError;
use murus_dsl::Diagnostic;

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
