//! What the threads of a parallel search ([`crate::smp`]) share besides
//! the table: a stop, a node count, and which iterations each helper
//! skips. Below both the search and Lazy SMP, which use it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// What the threads of one parallel search share besides the table.
#[derive(Debug)]
pub(crate) struct Pool {
    stop: AtomicBool,
    /// Nodes counted so far, 1024 at a time by each thread.
    nodes: AtomicU64,
}

impl Pool {
    pub(crate) fn new() -> Pool {
        Pool {
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }

    /// Counts a thread's last 1024 nodes; whether the helpers are to stop.
    pub fn tick(&self) -> bool {
        self.nodes.fetch_add(1024, Relaxed);
        self.stop.load(Relaxed)
    }

    /// Tells the helpers to stop.
    pub(crate) fn stop_all(&self) {
        self.stop.store(true, Relaxed);
    }

    /// The nodes counted so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }
}

/// Stockfish 9's skip pattern for 20 helpers (then again): helper `i`
/// skips the depths `d` where `(d + PHASE[i]) / SIZE[i]` is odd.
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether helper `helper` (from 1) skips the iteration of `depth`.
pub(crate) fn skips(helper: usize, depth: u32) -> bool {
    let i = (helper - 1) % SKIP_SIZE.len();
    (depth + SKIP_PHASE[i]) / SKIP_SIZE[i] % 2 == 1
}
