//! How hard a mural is: a score built from the solver's view of the puzzle:
//!
//! ```text
//! score = L + 2·(L − K) + 3·S + 0.5·B + 8·D + log2(N + 1)
//! ```
//!
//! with `L` the optimal length, `K` the towers at the start, `S` the
//! sacrifices in the solution, `B` the mean number of legal moves along the
//! solution, `D` the share of first moves that begin no minimal solution
//! (dead ends), and `N` the nodes the solver needed to prove the count.
//! Bands: easy below 18, medium below 28, hard from 28.

use crate::board::MuralMove;
use crate::puzzle::Puzzle;
use crate::solve::{Count, Status};

/// A puzzle's difficulty figures.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Rating {
    pub score: f64,
    pub band: String,
    pub length: u32,
    pub towers: u32,
    pub sacrifices: u32,
    pub mean_branching: f64,
    pub dead_end_share: f64,
    pub nodes: u64,
}

/// The band of a score.
pub fn band(score: f64) -> &'static str {
    if score < 18.0 {
        "easy"
    } else if score < 28.0 {
        "medium"
    } else {
        "hard"
    }
}

/// Rates a puzzle whose minimal solutions were counted; `None` unless the
/// count is complete (a partial count would give a made-up rating).
pub fn rate(p: &Puzzle, c: &Count) -> Option<Rating> {
    if c.status != Status::Solved {
        return None;
    }
    let length = c.length?;
    let towers = p.start.towers().count() as u32;
    let sacrifices = c
        .example
        .iter()
        .filter(|m| matches!(m, MuralMove::Sacrifice { .. }))
        .count() as u32;
    let mut s = p.start.clone();
    let mut total = 0usize;
    let mut moves = Vec::new();
    for &m in &c.example {
        s.moves(&p.board, p.sacrifice, &mut moves);
        total += moves.len();
        s.apply(m);
    }
    let mean_branching = total as f64 / c.example.len().max(1) as f64;
    let dead_end_share = f64::from(c.dead_first_moves) / f64::from(c.first_moves.max(1));
    let score = f64::from(length)
        + 2.0 * f64::from(length.saturating_sub(towers))
        + 3.0 * f64::from(sacrifices)
        + 0.5 * mean_branching
        + 8.0 * dead_end_share
        + ((c.nodes + 1) as f64).log2();
    let r2 = |x: f64| (x * 100.0).round() / 100.0;
    Some(Rating {
        score: r2(score),
        band: band(score).to_string(),
        length,
        towers,
        sacrifices,
        mean_branching: r2(mean_branching),
        dead_end_share: r2(dead_end_share),
        nodes: c.nodes,
    })
}
