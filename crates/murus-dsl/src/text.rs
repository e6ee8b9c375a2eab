//! Words for counts, written once for every crate (`murus_engine::text`
//! re-exports this module): `1 cell`, `2 cells`; the irregular plurals
//! with [`count`]; the noun alone after a number written otherwise with
//! [`noun`].
//!
//! ```
//! use murus_dsl::text::{count, noun, plural};
//!
//! assert_eq!(plural(1u64, "game"), "1 game");
//! assert_eq!(plural(0u64, "game"), "0 games");
//! assert_eq!(count(2u64, "match", "matches"), "2 matches");
//! assert_eq!(noun(1u64, "rung"), "rung");
//! assert_eq!(noun(14u64, "rung"), "rungs");
//! ```

/// `n` and the noun, in the singular for one (`1 cell`, `3 cells`, `0
/// cells`): for messages that count things. `plural` is the noun for any
/// other number.
pub fn count(n: impl Into<u64>, singular: &str, plural: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// [`count`] for a noun whose plural adds an `s` (`1 cell`, `2 cells`).
pub fn plural(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The noun alone, in the singular for one (`rung`, `rungs`): after a
/// number written otherwise (`1 000 games`), or apart from it.
pub fn noun(n: impl Into<u64>, noun: &str) -> String {
    if n.into() == 1 {
        noun.to_string()
    } else {
        format!("{noun}s")
    }
}
