//! The proof search's transposition table, shared by its threads.
//!
//! An entry is three atomic words: the key XOR the numbers, the numbers
//! (proof number in the high half, disproof number in the low), and the
//! nodes spent below it with the generation that wrote it. A reader checks
//! the first word against the second and its key, so an entry half written
//! by another thread reads as a miss, never as wrong numbers (the XOR trick
//! of chess engines' lockless tables); the third word only steers
//! replacement, and a torn one costs nothing.
//!
//! Replacement: a full bucket gives up its least valuable entry. Proofs are
//! kept first, then disproofs (both hold for every later question), then
//! unsettled entries by the nodes spent below them, *aged*: each question
//! of a solve is a new generation, and an unsettled entry loses a factor of
//! 16 of its weight for each generation since it was written, so the open
//! work of a finished question does not clog the table of the next.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// Positions in one table bucket.
const BUCKET: usize = 4;
/// Bytes of one entry.
pub const ENTRY_BYTES: usize = 24;
/// Settled entries rank above every unsettled one.
const SETTLED: u64 = 1 << 40;

/// What the table holds, counted over every entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Its memory in bytes.
    pub bytes: u64,
    /// Entries it has room for.
    pub entries: u64,
    /// Entries in use.
    pub filled: u64,
    /// Entries that hold a proof, and a disproof.
    pub proven: u64,
    pub disproven: u64,
    /// Stores that replaced another position's entry.
    pub replaced: u64,
}

/// The transposition table: buckets of [`BUCKET`] entries.
#[derive(Debug)]
pub(super) struct Table {
    words: Vec<AtomicU64>,
    /// The buckets less one (their count is a power of two).
    mask: usize,
    /// The generation stores are written with (one a question).
    generation: AtomicU32,
    replaced: AtomicU64,
}

impl Table {
    /// A table of about `mib` MiB (the largest power of two of buckets that
    /// fits), its memory zeroed and taken at once.
    pub(super) fn new(mib: usize) -> Table {
        let bytes = mib.max(1) * 1024 * 1024;
        let n = (bytes / (ENTRY_BYTES * BUCKET)).max(2).next_power_of_two() / 2;
        let words: Vec<AtomicU64> = std::iter::repeat_with(AtomicU64::default)
            .take(n * BUCKET * 3)
            .collect();
        // Mapped now, on one thread: see `map_pages`.
        crate::tt::map_pages(&words);
        Table {
            words,
            mask: n - 1,
            generation: AtomicU32::new(0),
            replaced: AtomicU64::new(0),
        }
    }

    /// Starts a new generation: unsettled entries written before it age.
    pub(super) fn next_generation(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// The first word of `key`'s bucket.
    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.mask) * BUCKET * 3
    }

    /// The numbers stored under `key`: proof and disproof number.
    pub(super) fn get(&self, key: u64) -> Option<(u32, u32)> {
        let b = self.bucket(key);
        (0..BUCKET).find_map(|s| {
            let w = &self.words[b + 3 * s..b + 3 * s + 3];
            let numbers = w[1].load(Relaxed);
            (numbers != 0 && w[0].load(Relaxed) ^ numbers == key)
                .then_some(((numbers >> 32) as u32, numbers as u32))
        })
    }

    /// Stores `pn`, `dn` under `key`, `work` nodes spent below it: over its
    /// own entry, or over the bucket's least valuable one.
    pub(super) fn put(&self, key: u64, pn: u32, dn: u32, work: u32) {
        let b = self.bucket(key);
        let generation = self.generation.load(Relaxed);
        let mut slot = 0;
        let mut least = u64::MAX;
        let mut own = false;
        for s in 0..BUCKET {
            let w = &self.words[b + 3 * s..b + 3 * s + 3];
            let numbers = w[1].load(Relaxed);
            if numbers != 0 && w[0].load(Relaxed) ^ numbers == key {
                slot = s;
                own = true;
                break;
            }
            let keep = keep(numbers, w[2].load(Relaxed), generation);
            if keep < least {
                least = keep;
                slot = s;
            }
        }
        if !own && least != 0 {
            self.replaced.fetch_add(1, Relaxed);
        }
        let numbers = (u64::from(pn) << 32) | u64::from(dn);
        let w = &self.words[b + 3 * slot..b + 3 * slot + 3];
        w[0].store(key ^ numbers, Relaxed);
        w[1].store(numbers, Relaxed);
        w[2].store((u64::from(generation) << 32) | u64::from(work), Relaxed);
    }

    /// What the table holds now (a scan of every entry).
    pub(super) fn usage(&self) -> Usage {
        let mut u = Usage {
            bytes: (self.words.len() * 8) as u64,
            entries: (self.words.len() / 3) as u64,
            replaced: self.replaced.load(Relaxed),
            ..Usage::default()
        };
        for w in self.words.chunks_exact(3) {
            let numbers = w[1].load(Relaxed);
            if numbers == 0 {
                continue;
            }
            u.filled += 1;
            if numbers >> 32 == 0 {
                u.proven += 1;
            } else if numbers as u32 == 0 {
                u.disproven += 1;
            }
        }
        u
    }
}

/// How much an entry is worth keeping: nothing when empty, most for a
/// proof, then a disproof, then unsettled ones by their work, aged.
fn keep(numbers: u64, work_word: u64, generation: u32) -> u64 {
    let work = work_word & u64::from(u32::MAX);
    if numbers == 0 {
        0
    } else if numbers >> 32 == 0 {
        2 * SETTLED + work
    } else if numbers as u32 == 0 {
        SETTLED + work
    } else {
        let age = generation.wrapping_sub((work_word >> 32) as u32).min(8);
        // At least 1: an unsettled entry outranks an empty slot.
        (work >> (4 * age)).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_found_replaced_by_worth_and_aged() {
        let t = Table::new(1);
        assert_eq!(t.get(5), None);
        t.put(5, 3, 4, 10);
        assert_eq!(t.get(5), Some((3, 4)));
        t.put(5, 0, u32::MAX, 12);
        assert_eq!(t.get(5), Some((0, u32::MAX)));
        // Same bucket: keys that differ above the mask.
        let step = (t.mask as u64) + 1;
        let keys: Vec<u64> = (1..=4).map(|i| 5 + i * step).collect();
        t.put(keys[0], 2, 2, 1_000);
        t.put(keys[1], u32::MAX, 0, 1);
        t.put(keys[2], 2, 2, 50);
        // Full: the least worked-on unsettled entry goes first.
        t.put(keys[3], 2, 2, 60);
        assert_eq!(t.get(keys[2]), None);
        assert!(t.get(5).is_some() && t.get(keys[1]).is_some());
        assert_eq!(t.get(keys[0]), Some((2, 2)));
        // Two generations on, old open work weighs less than new: 1 000
        // nodes aged twice (1000 >> 8 = 3) go before 10 of this question.
        t.next_generation();
        t.next_generation();
        t.put(keys[2], 2, 2, 10);
        assert_eq!(t.get(keys[3]), None, "aged out first: 60 >> 8");
        let fresh = 5 + 5 * step;
        t.put(fresh, 2, 2, 5);
        assert_eq!(t.get(keys[0]), None, "aged out: 1 000 >> 8");
        assert_eq!(t.get(keys[2]), Some((2, 2)));
        assert_eq!(t.get(fresh), Some((2, 2)));
        let u = t.usage();
        assert_eq!((u.filled, u.proven, u.disproven, u.replaced), (4, 1, 1, 3));
        assert_eq!(u.bytes, u.entries * ENTRY_BYTES as u64);
    }
}
