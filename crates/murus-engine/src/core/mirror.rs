//! Hashes of mirror images (see `murus_dsl::Rules::left_right_mirror`).

use crate::bits::Bits;

use super::{Engine, MAXH, Pos};

impl<B: Bits> Engine<B> {
    /// The Zobrist hash of `pos` with each stack moved from slot `s` to
    /// `mirror[s]`: the hash of its mirror image, computed without building
    /// it (everything but the stacks hashes the same in a mirror).
    pub fn mirrored_hash(&self, pos: &Pos<B>, mirror: &[u8]) -> u64 {
        let mut h = pos.hash;
        for p in 0..self.players {
            for height in 1..=MAXH {
                for s in (pos.owner[p] & pos.height[height]).iter() {
                    h ^= self.zobrist[s][p][height]
                        ^ self.zobrist[usize::from(mirror[s])][p][height];
                }
            }
        }
        h
    }

    /// The smaller of the hashes of `pos` and of its mirror image: one key
    /// for both where the rules are symmetric (`mirror`), the hash itself
    /// otherwise.
    #[inline]
    pub fn symmetric_hash(&self, pos: &Pos<B>, mirror: Option<&[u8]>) -> u64 {
        match mirror {
            Some(m) => pos.hash.min(self.mirrored_hash(pos, m)),
            None => pos.hash,
        }
    }
}
