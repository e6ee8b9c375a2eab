//! Lazy SMP: several threads search the same position at once and share
//! the transposition table, each thread's results ordering and cutting
//! the others' trees.
//!
//! The main thread searches as a search alone does (iterative deepening,
//! several lines, faster wins, reports) and alone gives the answer; each
//! helper is a search of its own on the shared [`Table`](crate::Table),
//! with its own killers, history, accumulators and copy of the game's
//! line, a different order of equal root moves, and a different sequence
//! of depths (Stockfish 9's skip pattern, so that the helpers are not all
//! at the main thread's depth). A helper's results reach the main thread
//! only through the table. When the main thread ends, the helpers stop;
//! a stopped search stores nothing of its unfinished nodes, so no helper
//! leaves a wrong entry.
//!
//! Chess Programming Wiki, "Lazy SMP"; Stockfish 9 `search.cpp`
//! (`SkipSize`, `SkipPhase`). A search on several threads is not
//! reproducible: which thread stores first changes what the others read.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use murus_engine::{Bits, DrawTracker, Pos};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::search::{SearchResult, Searcher};

/// What the threads of one parallel search share besides the table.
#[derive(Debug)]
pub(crate) struct Pool {
    stop: AtomicBool,
    /// Nodes counted so far, 1024 at a time by each thread.
    nodes: AtomicU64,
}

impl Pool {
    fn new() -> Pool {
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

/// [`Searcher::run`] on `threads` threads: `main` searches `pos` as it
/// would alone, while `threads - 1` helpers search it too on the same
/// table, until `main` ends. The answer is `main`'s; its nodes are all the
/// threads'. `main`'s node budget is its own nodes (so that the main
/// search goes at least about as deep as alone; the helpers' nodes come on
/// top). One thread: exactly `main.run(pos, rng)`.
pub(crate) fn run<B: Bits>(
    main: &mut Searcher<'_, B>,
    threads: usize,
    pos: &Pos<B>,
    rng: &mut SmallRng,
) -> SearchResult {
    if threads <= 1 {
        return main.run(pos, rng);
    }
    let pool = Arc::new(Pool::new());
    // The helpers' seeds, from a copy of `rng`: the main search orders its
    // root as it would alone.
    let base: u64 = rng.clone().random();
    let mut lines: Vec<DrawTracker> = (1..threads).map(|_| main.line().clone()).collect();
    let helpers: Vec<Searcher<'_, B>> = lines
        .iter_mut()
        .enumerate()
        .map(|(i, line)| main.helper(i + 1, line, Arc::clone(&pool)))
        .collect();
    std::thread::scope(|s| {
        let running: Vec<_> = helpers
            .into_iter()
            .enumerate()
            .map(|(i, mut h)| {
                let seed = base ^ (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                std::thread::Builder::new()
                    .name(format!("search helper {}", i + 1))
                    .spawn_scoped(s, move || {
                        h.run(pos, &mut SmallRng::seed_from_u64(seed)).nodes
                    })
                    .expect("a thread for a helper search")
            })
            .collect();
        main.set_pool(Some(Arc::clone(&pool)));
        let mut result = main.run(pos, rng);
        main.set_pool(None);
        pool.stop.store(true, Relaxed);
        for h in running {
            result.nodes += h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        }
        result
    })
}
