//! Lazy SMP: several threads search the same position at once and share
//! the transposition table, each thread's results ordering and cutting
//! the others' trees.
//!
//! The main thread searches as a search alone does (iterative deepening,
//! several lines, faster wins, reports) and gives the answer, unless a
//! helper finished a deeper iteration with a higher value (one line
//! wanted, nothing proven: Stockfish 8's choice of thread); each
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

use murus_engine::{Bits, DrawTracker, Pos};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::pool::Pool;
use crate::search::{PROVEN, SearchResult, Searcher};

/// [`Searcher::run`] on `threads` threads: `main` searches `pos` as it
/// would alone, while `threads - 1` helpers search it too on the same
/// table, until `main` ends. The answer is `main`'s or a [`better`]
/// helper's; its nodes are all the threads'. `main`'s node budget is its
/// own nodes (so that the main search goes at least about as deep as
/// alone; the helpers' nodes come on top). One thread: exactly
/// `main.run(pos, rng)`.
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
                    .spawn_scoped(s, move || h.run(pos, &mut SmallRng::seed_from_u64(seed)))
                    .expect("a thread for a helper search")
            })
            .collect();
        main.set_pool(Some(Arc::clone(&pool)));
        let mut answer = main.run(pos, rng);
        main.set_pool(None);
        pool.stop_all();
        let mut nodes = answer.nodes;
        for h in running {
            let helper = h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            nodes += helper.nodes;
            // A helper searches on past the depth limit; an answer deeper
            // than asked is not taken.
            if main.lines_wanted() == 1
                && helper.depth <= main.depth_limit()
                && better(&helper, &answer)
            {
                answer = helper;
            }
        }
        answer.nodes = nodes;
        answer
    })
}

/// Whether a helper's finished search answers better than the best so far
/// (Stockfish 8's choice of the thread: deeper and a higher value): the
/// helpers' skipped depths often finish an iteration the main thread has
/// not, and the move of the deeper search is the better guess. A proven
/// value is left to the main thread, which alone looks for the fastest
/// win.
fn better(helper: &SearchResult, best: &SearchResult) -> bool {
    helper.best.is_some()
        && helper.depth > best.depth
        && helper.value > best.value
        && helper.value.abs() < PROVEN
        && best.value.abs() < PROVEN
}
