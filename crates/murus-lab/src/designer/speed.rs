//! Speed and size: random playouts (how fast, how long, how wide), and
//! estimates of the state-space and game-tree complexity from them.

use std::collections::HashSet;
use std::time::Instant;

use murus_engine::{Bits, Engine, EngineTask, Move, Pos, Scratch, Variant, Word};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::stats::round_to as round;

pub use murus_report::designer::{Distribution, Playouts};

/// Plays `games` random games of `variant` from its start, seeded; returns
/// what they show and how many a second this thread played (the one
/// figure that depends on the machine).
pub fn random_playouts(variant: &Variant, games: u64, seed: u64) -> (Playouts, f64) {
    struct Task {
        games: u64,
        seed: u64,
    }
    impl EngineTask for Task {
        type Output = (Playouts, f64);
        fn run<B: Word>(self, e: &Engine<B>) -> (Playouts, f64) {
            measure(e, self.games, self.seed)
        }
    }
    variant.run(Task { games, seed })
}

fn measure<B: Bits>(e: &Engine<B>, games: u64, seed: u64) -> (Playouts, f64) {
    // First the games at full speed, for the rate.
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut scratch = Scratch::default();
    let started = Instant::now();
    let mut results = Vec::with_capacity(games as usize);
    for _ in 0..games {
        results.push(e.playout(e.start(), &mut scratch, |n| rng.random_range(0..n)));
    }
    let rate = games as f64 / started.elapsed().as_secs_f64().max(1e-9);
    // Then the same games again, move by move, for what they show.
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut lengths = Vec::new();
    let mut branching = Vec::new();
    let mut materials: HashSet<Material> = HashSet::new();
    let mut moves: Vec<Move> = e.move_list();
    for r in &results {
        let mut pos = e.start();
        let mut plies = 0;
        // The playout's choices, replayed: the same generator, the same
        // number of moves each ply, the same draws of the generator.
        while plies < r.plies {
            moves.clear();
            e.legal_moves(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            branching.push(moves.len() as u32);
            materials.insert(material(&pos));
            let m = moves[rng.random_range(0..moves.len())];
            e.apply(&mut pos, m);
            plies += 1;
        }
        // The playout drew once more only if it went on; it stopped here.
        lengths.push(r.plies);
    }
    let n = games.max(1) as f64;
    let first = results
        .iter()
        .filter(|r| r.outcome.winner == Some(0))
        .count() as f64;
    let draws = results
        .iter()
        .filter(|r| r.outcome.winner.is_none())
        .count() as f64;
    let length = Distribution::of(&lengths);
    let branching = Distribution::of(&branching);
    let cells = e.board().count();
    let players = e.players();
    let state_space = log10_sum(
        materials
            .iter()
            .map(|m| placements(cells, m) + (players as f64).log10()),
    );
    let tree = length.mean * branching.mean.max(1.0).log10();
    (
        Playouts {
            games,
            length,
            branching,
            first_player_wins: round(first / n, 4),
            draws: round(draws / n, 4),
            state_space_log10: round(state_space, 1),
            game_tree_log10: round(tree, 1),
        },
        rate,
    )
}

/// The stacks of a position: how many of each height each player has.
type Material = Vec<u32>;

fn material<B: Bits>(pos: &Pos<B>) -> Material {
    let mut out = Vec::new();
    for p in 0..murus_dsl::rules::MAX_PLAYERS {
        for h in 1..=murus_dsl::rules::MAX_HEIGHT {
            out.push((pos.stones_of(p) & pos.with_height(h)).count());
        }
    }
    out
}

/// log10 of the ways to place `m`'s stacks on `cells` cells: the
/// multinomial `cells! / (Π k! · empty!)`.
fn placements(cells: u32, m: &Material) -> f64 {
    let used: u32 = m.iter().sum();
    if used > cells {
        return 0.0;
    }
    log10_factorial(cells)
        - m.iter().map(|&k| log10_factorial(k)).sum::<f64>()
        - log10_factorial(cells - used)
}

fn log10_factorial(n: u32) -> f64 {
    (2..=n).map(|k| f64::from(k).log10()).sum()
}

/// log10 of the sum of numbers given by their log10s.
fn log10_sum(logs: impl Iterator<Item = f64>) -> f64 {
    let logs: Vec<f64> = logs.collect();
    let Some(top) = logs.iter().copied().reduce(f64::max) else {
        return 0.0;
    };
    top + logs
        .iter()
        .map(|l| 10f64.powf(l - top))
        .sum::<f64>()
        .log10()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_count_arrangements() {
        // Two kinds of one stack each on 3 cells: 3 · 2 = 6 ways.
        let m = vec![1, 1];
        assert!((10f64.powf(placements(3, &m)) - 6.0).abs() < 1e-9);
        assert!((log10_sum([1.0, 1.0].into_iter()) - 20f64.log10()).abs() < 1e-12);
    }

    #[test]
    fn playouts_are_reproducible_and_the_replay_matches_them() {
        let v = Variant::standard();
        let (a, _) = random_playouts(&v, 50, 7);
        let (b, _) = random_playouts(&v, 50, 7);
        assert_eq!(a, b);
        assert_eq!(a.length.histogram.iter().map(|b| b.2).sum::<u64>(), 50);
        // Branching counts every position before a move of every game.
        let plies: u64 = (a.length.mean * 50.0).round() as u64;
        assert_eq!(
            a.branching.histogram.iter().map(|b| b.2).sum::<u64>(),
            plies
        );
        assert!(
            a.state_space_log10 > 20.0 && a.game_tree_log10 > 20.0,
            "{a:?}"
        );
    }
}
