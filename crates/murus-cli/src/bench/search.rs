//! Alpha-beta's nodes a second with the generic evaluation and with the
//! variant's trained one (a network, or a network correcting the generic
//! features), from positions eight random plies into a game: the network's
//! incremental updates against the generic features' cost. The two are
//! measured turn about in each run, so that a busy machine slows both
//! alike, and the ratio is the median of the runs' ratios.

use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use murus_ai::Evaluation;
use murus_ai::analysis::{Analyser, Limits};
use murus_engine::{Game, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::{Row, Scale, median};

/// The positions each search starts from.
const POSITIONS: usize = 4;

/// Two players with a network; three and four with a network correcting
/// the features (its cost added to theirs).
const VARIANTS: [&str; 5] = ["standard", "advanced", "hex", "escape4", "hex3-escape"];

/// The search section's rows.
pub fn rows(scale: Scale) -> Result<Vec<Row>> {
    let nodes: u64 = scale.pick(2_000_000, 50_000);
    let mut rows = vec![Row::SearchTitle {
        nodes,
        positions: POSITIONS,
        runs: scale.runs,
    }];
    for name in VARIANTS {
        let v = Variant::builtin(name).ok_or_else(|| anyhow!("missing shipped variant {name}"))?;
        let evaluations = [Evaluation::Generic, Evaluation::for_variant(&v)];
        let mut rates = [Vec::new(), Vec::new()];
        let mut ratios = Vec::new();
        for run in 0..scale.runs {
            let mut rate = [0.0; 2];
            for (i, evaluation) in evaluations.iter().enumerate() {
                let (searched, seconds) = search(&v, evaluation, nodes, run as u64)?;
                rate[i] = searched as f64 / seconds.max(1e-9);
                rates[i].push(rate[i]);
            }
            ratios.push(rate[1] / rate[0].max(1e-9));
        }
        for ((label, evaluation), rates) in
            ["generic", "trained"].iter().zip(&evaluations).zip(rates)
        {
            rows.push(Row::Evaluation {
                variant: name.into(),
                label: (*label).into(),
                evaluation: evaluation.describe(),
                nodes_per_second: median(rates),
            });
        }
        rows.push(Row::EvaluationRatio {
            variant: name.into(),
            ratio: median(ratios),
        });
    }
    Ok(rows)
}

/// Searches `nodes` nodes from each of the positions with `evaluation`:
/// the nodes searched in all, checked, and the seconds.
fn search(v: &Variant, evaluation: &Evaluation, nodes: u64, seed: u64) -> Result<(u64, f64)> {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut seconds = 0.0;
    let mut searched = 0;
    for _ in 0..POSITIONS {
        let mut game = Game::new(v);
        while game.ply() < 8 && game.outcome().is_none() {
            let moves = v.legal_moves(game.position());
            game.play(moves[rng.random_range(0..moves.len())]);
        }
        if game.outcome().is_some() {
            // Nothing to search in a game over within the random plies.
            continue;
        }
        let mut a = Analyser::new(64);
        a.set_evaluation(Some(evaluation.clone()));
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let t = Instant::now();
        let found = a.analyse(&game, limits, seed, &());
        seconds += t.elapsed().as_secs_f64();
        let Some(found) = found else {
            bail!(
                "{}: no move found after {} random plies",
                v.name(),
                game.ply()
            );
        };
        if found.nodes == 0 || !v.legal_moves(game.position()).contains(&found.best) {
            bail!(
                "{}: {} searched {} nodes and chose {}: the search is wrong",
                v.name(),
                evaluation.describe(),
                found.nodes,
                v.move_to_string(found.best)
            );
        }
        searched += found.nodes;
    }
    Ok((searched, seconds))
}
