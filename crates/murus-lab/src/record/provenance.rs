//! Where a run comes from: its variant (by name and the SHA-256 of its
//! rules' source), engine, bots, seed, games, ply cap, openings and shard.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::book::BookId;

/// Where a report comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    pub variant: VariantId,
    pub engine_version: String,
    /// Bot spec per seat.
    pub bots: Vec<String>,
    pub seed: u64,
    /// Games asked for (the whole run, all shards together).
    pub requested: u64,
    pub max_plies: u32,
    /// Random plies that open each game (the same for the games of a
    /// colour-swapped pair); 0: every game from the start.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub openings: u32,
    /// The opening book the games open from ([`crate::Config::with_book`]);
    /// left out when none (files written before books load as none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<BookId>,
    /// `K/N` for one shard of a run; `None` for a whole run or a merge.
    pub shard: Option<String>,
    /// Player letters in turn order.
    pub players: Vec<char>,
}

/// Serde's test for a field left out when zero (older files lack it).
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A variant: its name and the SHA-256 of its rules' source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantId {
    pub name: String,
    pub source_sha256: String,
}

/// The SHA-256 of a variant's source, in hex.
pub fn source_sha256(source: &str) -> String {
    let digest = Sha256::digest(source.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}
