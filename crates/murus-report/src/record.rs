//! Where a run comes from: its variant (by name, the SHA-256 of its rules'
//! source and the key of its rules), engine, bots and the evaluation each
//! was given, seed, games, ply cap, openings, opening book and shard.

use murus_engine::Variant;
use serde::{Deserialize, Serialize};

use crate::shard::Shard;

/// What identifies a book in a run's provenance (`run.json`,
/// `report.json`, `balance.json`): a run resumes, and shards merge, only
/// with the same.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BookId {
    /// The file's name, without its folder.
    pub name: String,
    /// The SHA-256 of the file's text, in hex.
    pub sha256: String,
    /// Its number of openings.
    pub lines: usize,
}

impl BookId {
    /// `openings.txt (12 lines, sha256 3f2a9c0e51d7…)`: the name, and enough
    /// of the hash to tell two versions of a file apart.
    pub fn describe(&self) -> String {
        let short: String = self.sha256.chars().take(12).collect();
        let lines = if self.lines == 1 { "line" } else { "lines" };
        format!("{} ({} {lines}, sha256 {short}…)", self.name, self.lines)
    }

    /// [`BookId::describe`] of `book`, or `none`.
    pub fn describe_or_none(book: Option<&BookId>) -> String {
        book.map_or_else(|| "none".to_string(), BookId::describe)
    }
}

/// The id of the generic evaluation, as a run's provenance records it
/// (`murus_ai::Evaluation::Generic`'s id: the lab's tests check that the
/// two agree, this crate reading no bot).
pub const GENERIC_EVALUATION: &str = "generic";

/// Where a report comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    pub variant: VariantId,
    pub engine_version: String,
    /// Bot spec per seat.
    pub bots: Vec<String>,
    /// The evaluation each seat's bot was given, by seat: its
    /// `murus_ai::Evaluation::id`, `generic` or `sha256:` and the digest
    /// of a trained evaluation's numbers (the file named by the bot's
    /// `eval=`, else the variant's own: one beside its rules file, one
    /// shipped for its rules, or the generic features). Random bots and
    /// external engines are given one too: they ignore it, but the
    /// game-quality metrics value every game with the evaluation of the
    /// first seat whose bot names no file (seat 0's when all do), so it
    /// decides the report as much as a searching bot's does. Empty in
    /// files written before evaluations were recorded (a resume reads
    /// them as [`LEGACY_EVALUATIONS`] says).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evaluations: Vec<String>,
    pub seed: u64,
    /// Games asked for (the whole run, all shards together).
    pub requested: u64,
    pub max_plies: u32,
    /// Random plies that open each game (the same for the games of a
    /// colour-swapped pair); 0: every game from the start.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub openings: u32,
    /// The opening book the games open from (`murus_lab::Config::with_book`);
    /// left out when none (files written before books load as none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<BookId>,
    /// `K/N` for one shard of a run; `None` for a whole run or a merge.
    pub shard: Option<Shard>,
    /// Player letters in turn order.
    pub players: Vec<char>,
}

/// How a run folder written before evaluations were recorded is read: its
/// bots were given what that build gave bots without a file of the
/// user's, so a resume (or a merge with it) is accepted where each bot
/// now uses the generic evaluation, one shipped with Murus, or the file
/// its own spec names (whose path the bots' specs already compare); a bot
/// that now uses an evaluation file beside the rules is refused, as a
/// folder that records another evaluation is.
pub const LEGACY_EVALUATIONS: &str = "not recorded (written before evaluations were recorded)";

/// Serde's test for a field left out when zero (older files lack it).
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A variant: its name, the SHA-256 of its rules' source, and the key of
/// its rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantId {
    pub name: String,
    pub source_sha256: String,
    /// The key of the compiled rules ([`murus_dsl::RulesKey`], 64 hex
    /// digits): the same for the same rules whatever their comments,
    /// spacing, order of statements or names, so that a run resumes, and
    /// its shards merge, across such edits. Left out of files written
    /// before it (they compare by `source_sha256`), and of a sweep's
    /// template when a combination does not compile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_key: Option<String>,
}

impl VariantId {
    /// The identity of `variant`: its name, the digest of its source and
    /// its rules' key.
    pub fn of(variant: &Variant) -> VariantId {
        VariantId {
            name: variant.name().to_string(),
            source_sha256: source_sha256(variant.source()),
            rules_key: Some(variant.rules_key().to_hex()),
        }
    }

    /// Whether `self` and `other` name the same rules: the same key where
    /// both have one, else the same name and source text.
    pub fn same_rules(&self, other: &VariantId) -> bool {
        match (&self.rules_key, &other.rules_key) {
            (Some(a), Some(b)) => a == b,
            _ => self.name == other.name && self.source_sha256 == other.source_sha256,
        }
    }
}

/// The SHA-256 of a variant's source (or any text), in hex: the rules
/// language's one copy.
pub use murus_dsl::key::text_sha256_hex as source_sha256;

/// An evaluation's id as messages show it: `generic`, or `sha256:` and
/// the first 12 hex digits of the digest.
pub fn short_evaluation(id: &str) -> String {
    match id.strip_prefix("sha256:") {
        Some(hex) if hex.len() > 12 => format!("sha256:{}…", &hex[..12]),
        _ => id.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_rules_are_known_by_their_key_or_without_one_by_their_text() {
        let standard = Variant::standard();
        let commented = Variant::compile(&format!("// a comment\n{}", standard.source())).unwrap();
        let (a, b) = (VariantId::of(&standard), VariantId::of(&commented));
        assert_ne!(a.source_sha256, b.source_sha256);
        assert!(a.same_rules(&b));
        // Without a key on one side (an older file), the text decides.
        let old = VariantId {
            rules_key: None,
            ..a.clone()
        };
        assert!(old.same_rules(&a));
        assert!(!old.same_rules(&b));
        let advanced = VariantId::of(&Variant::builtin("advanced").unwrap());
        assert!(!a.same_rules(&advanced));
        assert_eq!(short_evaluation("generic"), "generic");
        assert_eq!(
            short_evaluation(&format!("sha256:{}", "ab".repeat(32))),
            "sha256:abababababab…"
        );
    }
}
