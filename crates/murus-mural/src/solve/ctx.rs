//! A search's context: the puzzle, its symmetries, the node budget and the
//! caller's handler, ticked once a node; and the table keys' hasher.

use std::collections::HashMap;

use murus_engine::job::Handler;

use super::Progress;
use crate::board::{Key, Symmetry, symmetries};
use crate::puzzle::Puzzle;

pub(super) struct Ctx<'a> {
    pub(super) p: &'a Puzzle,
    pub(super) syms: Vec<Symmetry>,
    pub(super) budget: u64,
    pub(super) nodes: u64,
    pub(super) handler: &'a dyn Handler<Progress>,
    pub(super) out_of_budget: bool,
    pub(super) bound: u32,
}

impl<'a> Ctx<'a> {
    pub(super) fn new(p: &'a Puzzle, budget: u64, handler: &'a dyn Handler<Progress>) -> Ctx<'a> {
        Ctx {
            p,
            syms: symmetries(&p.board, &p.targets),
            budget,
            nodes: 0,
            handler,
            out_of_budget: false,
            bound: 0,
        }
    }

    pub(super) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.budget {
            self.out_of_budget = true;
        }
        if self.nodes & 0xfff == 0 {
            self.handler.progress(&Progress {
                nodes: self.nodes,
                bound: self.bound,
            });
        }
        // A stop asked before the search starts is honoured at once.
        if (self.nodes & 0xfff == 0 || self.nodes == 1) && self.handler.stop() {
            self.out_of_budget = true;
        }
        !self.out_of_budget
    }
}

/// A fast hasher for packed state keys (already well mixed words; the
/// table compares whole keys, so the hash only spreads them).
#[derive(Default, Clone, Copy)]
pub(super) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        let x = (self.0 ^ (self.0 >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x ^ (x >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        for &b in chunks.remainder() {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

pub(super) type KeyMap<V> = HashMap<Key, V, std::hash::BuildHasherDefault<KeyHasher>>;
