//! The parallel search's time to depth: alpha-beta to a fixed depth from a
//! few standard positions on one thread and on two (Lazy SMP), the two
//! timed turn about in each run so that a busy machine slows both alike.
//! The speed-up is the median of the runs' ratios. Every search is checked:
//! it reaches the depth (or proves the result sooner) with a legal move.

use std::time::Instant;

use anyhow::{Result, bail};
use murus_ai::analysis::{Analyser, Limits};
use murus_engine::{Game, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::{Row, Scale, median};

/// The positions each search starts from: the start, then games this many
/// random plies in.
const POSITIONS: usize = 4;
const RANDOM_PLIES: usize = 8;

/// The parallel search's row.
pub fn rows(scale: Scale) -> Result<Vec<Row>> {
    let depth = scale.pick(13, 7);
    let v = Variant::standard();
    let games = positions(&v);
    let mut times = [Vec::new(), Vec::new()];
    let mut ratios = Vec::new();
    for run in 0..scale.runs {
        let mut t = [0.0; 2];
        for (i, threads) in [1, 2].into_iter().enumerate() {
            t[i] = to_depth(&v, &games, depth, threads, run as u64)?;
            times[i].push(t[i]);
        }
        ratios.push(t[0] / t[1].max(1e-9));
    }
    let [one, two] = times.map(median);
    Ok(vec![Row::TimeToDepth {
        variant: v.name().into(),
        depth,
        positions: games.len(),
        runs: scale.runs,
        one,
        two,
        speedup: median(ratios),
    }])
}

/// The start and games a few random plies from it (seeded: the same in
/// every run and every build).
fn positions(v: &Variant) -> Vec<Game> {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut games = vec![Game::new(v)];
    while games.len() < POSITIONS {
        let mut game = Game::new(v);
        while game.ply() < RANDOM_PLIES && game.outcome().is_none() {
            let moves = v.legal_moves(game.position());
            game.play(moves[rng.random_range(0..moves.len())]);
        }
        if game.outcome().is_none() {
            games.push(game);
        }
    }
    games
}

/// The seconds `threads` threads take to search every game's position to
/// `depth`, each with a fresh table.
fn to_depth(v: &Variant, games: &[Game], depth: u32, threads: usize, seed: u64) -> Result<f64> {
    let mut seconds = 0.0;
    for game in games {
        let mut a = Analyser::new(64);
        a.set_threads(threads);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let t = Instant::now();
        let found = a.analyse(game, limits, seed, &());
        seconds += t.elapsed().as_secs_f64();
        let Some(found) = found else {
            bail!("{}: no move found at ply {}", v.name(), game.ply());
        };
        let proven = !matches!(found.score, murus_ai::analysis::Score::Cp(_));
        if !(found.depth == depth || proven && found.depth <= depth)
            || !game.legal_moves().contains(&found.best)
        {
            bail!(
                "{}: {threads} threads reached depth {} of {depth} and chose {}: the search is wrong",
                v.name(),
                found.depth,
                v.move_to_string(found.best)
            );
        }
    }
    Ok(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_and_two_threads_reach_the_depth_from_every_position() {
        let v = Variant::standard();
        let games = positions(&v);
        assert_eq!(games.len(), POSITIONS);
        for threads in [1, 2] {
            assert!(to_depth(&v, &games, 3, threads, 0).unwrap() > 0.0);
        }
    }
}
