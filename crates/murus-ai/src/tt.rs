//! The alpha-beta search's transposition table, which the threads of a
//! parallel search share without locks.
//!
//! A slot is two atomic words: an entry packed into one, and its key XORed
//! with it in the other (Hyatt and Mann, "A lock-less transposition table
//! implementation for parallel search chess engines", ICGA Journal 25(1),
//! 2002). A slot written by two threads at once may hold one thread's data
//! and the other's check; its key then reads wrong and the probe is a miss,
//! so no search ever sees half of one entry and half of another. Relaxed
//! loads and stores are enough: the two words are checked against each
//! other, never ordered with anything else.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use murus_engine::Move;

/// What the search keeps of a node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entry {
    pub key: u64,
    /// Within ±2^21 (a proven win is 10^6).
    pub value: i32,
    pub depth: u8,
    /// The bound's kind and its marks, below 8.
    pub flag: u8,
    pub best: Option<Move>,
}

/// The packed entry: the value in bits 0-21 (two's complement), the depth
/// in 22-29, the flag in 30-32, whether there is a move in 33, the move
/// ([`Move::to_bits`], 27 bits) in 34-60. All zero is the empty entry of
/// key 0, as an empty slot reads.
const VALUE_BITS: u32 = 22;
const DEPTH_SHIFT: u32 = VALUE_BITS;
const FLAG_SHIFT: u32 = DEPTH_SHIFT + 8;
const MOVE_SHIFT: u32 = FLAG_SHIFT + 3;

impl Entry {
    fn data(&self) -> u64 {
        debug_assert!(self.value.unsigned_abs() < 1 << (VALUE_BITS - 1));
        debug_assert!(self.flag < 8);
        let value = u64::from(self.value as u32) & ((1 << VALUE_BITS) - 1);
        let best = self.best.map_or(0, |m| 1 | u64::from(m.to_bits()) << 1);
        value
            | u64::from(self.depth) << DEPTH_SHIFT
            | u64::from(self.flag) << FLAG_SHIFT
            | best << MOVE_SHIFT
    }

    fn from_data(key: u64, data: u64) -> Entry {
        let best = data >> MOVE_SHIFT;
        Entry {
            key,
            // Sign-extended from its 22 bits.
            value: ((data << (64 - VALUE_BITS)) as i64 >> (64 - VALUE_BITS)) as i32,
            depth: (data >> DEPTH_SHIFT) as u8,
            flag: (data >> FLAG_SHIFT) as u8 & 7,
            best: if best & 1 == 1 {
                Move::from_bits((best >> 1) as u32)
            } else {
                None
            },
        }
    }
}

/// A transposition table keyed by Zobrist hash, one entry a slot, 16
/// bytes an entry; shared by reference between the threads of a search.
#[derive(Debug)]
pub struct Table {
    /// `[key ^ data, data]` per slot.
    slots: Vec<[AtomicU64; 2]>,
}

/// Writes a zero into every page of `words` (zeros already), so that each
/// page is mapped now, once, as a page of its own.
///
/// Memory fresh from the allocator is mapped on its first touch. A page
/// first read (a probe of an empty table) is mapped to the kernel's shared
/// zero page and copied at its first write; that copy flushes the page
/// from the TLB of every core running the process, an interrupt to each.
/// With a search's helper threads running on the other cores, a table
/// filled that way cost as much time in interrupts as the helpers gained
/// (two threads reached a depth slower than one: `murus bench`, time to
/// depth). Written first, a page is mapped without a flush.
pub(crate) fn map_pages(words: &[AtomicU64]) {
    const WORDS_A_PAGE: usize = 4096 / std::mem::size_of::<AtomicU64>();
    for word in words.iter().step_by(WORDS_A_PAGE) {
        // An atomic store, which the compiler keeps though the memory is
        // known to be zero.
        word.store(0, Relaxed);
    }
}

impl Table {
    /// A table with `2^bits` entries, its memory mapped ([`map_pages`]).
    pub fn new(bits: u32) -> Table {
        let slots: Vec<[AtomicU64; 2]> =
            std::iter::repeat_with(|| [AtomicU64::new(0), AtomicU64::new(0)])
                .take(1 << bits)
                .collect();
        map_pages(slots.as_flattened());
        Table { slots }
    }

    /// The largest table within `megabytes` (at least 1 024 entries).
    pub fn with_megabytes(megabytes: usize) -> Table {
        let entries = (megabytes.max(1) << 20) / std::mem::size_of::<[AtomicU64; 2]>();
        Table::new(entries.max(1024).ilog2().min(40))
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        for slot in &mut self.slots {
            *slot = [AtomicU64::new(0), AtomicU64::new(0)];
        }
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    /// Asks the processor to bring `key`'s slot into the cache, so that a
    /// [`Table::get`] a little later does not wait on memory: a search
    /// calls it as soon as a child's key is known, and the work before the
    /// child's probe (the evaluation's update) hides the load. A hint
    /// only: it reads and changes nothing, and does nothing off x86-64.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const [AtomicU64; 2] = self.slot(key);
            // SAFETY: a prefetch never faults nor reads into the program;
            // the address is a live slot of this table anyway, and SSE,
            // which it needs, is part of every x86-64 processor.
            #[allow(unsafe_code)]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    slot.cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry of `key`, if its slot holds it whole.
    pub(crate) fn get(&self, key: u64) -> Option<Entry> {
        let [check, data] = self.slot(key);
        let data = data.load(Relaxed);
        (check.load(Relaxed) ^ data == key).then(|| Entry::from_data(key, data))
    }

    /// Keeps `e` in its slot unless the slot holds the same key searched
    /// deeper.
    pub(crate) fn put(&self, e: Entry) {
        let [check, data] = self.slot(e.key);
        let old = data.load(Relaxed);
        let old_key = check.load(Relaxed) ^ old;
        if old_key != e.key || e.depth >= (old >> DEPTH_SHIFT) as u8 {
            let new = e.data();
            data.store(new, Relaxed);
            check.store(e.key ^ new, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use murus_engine::Variant;

    #[test]
    fn an_entry_reads_back_as_it_was_put() {
        let v = Variant::standard();
        let m = v.legal_moves(&v.start())[3];
        let t = Table::new(4);
        let entries = [
            Entry {
                key: 0xdead_beef_0000_0005,
                value: -1_000_001,
                depth: 255,
                flag: 7,
                best: Some(m),
            },
            Entry {
                key: 7,
                value: 999_873,
                depth: 1,
                flag: 2,
                best: None,
            },
            Entry {
                key: 12,
                value: -3,
                depth: 4,
                flag: 0,
                best: Some(murus_engine::Move::SWAP),
            },
        ];
        for e in entries {
            t.put(e);
            assert_eq!(t.get(e.key), Some(e));
        }
        // Another key in the same slot is a miss.
        assert_eq!(t.get(0x1000_0000_0000_0005), None);
    }

    #[test]
    fn a_shallower_entry_of_the_same_key_is_not_kept() {
        let t = Table::new(4);
        let deep = Entry {
            key: 3,
            value: 10,
            depth: 6,
            ..Entry::default()
        };
        t.put(deep);
        t.put(Entry { depth: 2, ..deep });
        assert_eq!(t.get(3), Some(deep));
        // Another key takes the slot whatever its depth.
        let other = Entry { key: 19, ..deep };
        t.put(Entry { depth: 1, ..other });
        assert_eq!(t.get(19).map(|e| e.depth), Some(1));
        assert_eq!(t.get(3), None);
    }

    #[test]
    fn a_slot_with_one_writes_data_and_anothers_check_is_a_miss() {
        let t = Table::new(2);
        let a = Entry {
            key: 1,
            value: 5,
            depth: 3,
            ..Entry::default()
        };
        let b = Entry {
            key: 5,
            value: -8,
            depth: 9,
            ..Entry::default()
        };
        // A torn write: a's check beside b's data.
        let [check, data] = t.slot(1);
        check.store(a.key ^ a.data(), Relaxed);
        data.store(b.data(), Relaxed);
        assert_eq!(t.get(1), None);
        assert_eq!(t.get(5), None);
    }

    #[test]
    fn threads_sharing_a_table_never_read_a_torn_entry() {
        // Each thread writes entries whose value and depth are functions of
        // the key, into four slots; every hit must be one of them whole.
        let t = Table::new(2);
        let entry = |key: u64| Entry {
            key,
            value: (key % 1_000) as i32 - 500,
            depth: (key % 200) as u8,
            flag: (key % 8) as u8,
            best: None,
        };
        std::thread::scope(|s| {
            for thread in 0..4u64 {
                let t = &t;
                s.spawn(move || {
                    for i in 0..50_000u64 {
                        let key = (i * 4 + thread) * 0x9e37_79b9 + i % 4;
                        t.put(entry(key));
                        if let Some(e) = t.get(key ^ 4) {
                            assert_eq!(e, entry(e.key));
                        }
                        if let Some(e) = t.get(key) {
                            assert_eq!(e, entry(key));
                        }
                    }
                });
            }
        });
    }
}
