//! The engine's speed: perft and uniformly random games from the start of
//! the compiled standard and Advanced games, and of the hand-written
//! yardstick for the standard game, timed turn about, run by run, so that
//! their ratios mean something on a noisy machine.

use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use murus_engine::{Engine, EngineTask, Variant, Word, simd};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::{Row, Scale, Speed, Unit, baseline, median};

/// Perft of the standard start, depths 1 to 6 (`tests/perft/standard.perft`).
const STANDARD_PERFT: [u64; 6] = [20, 400, 6960, 121_104, 1_953_664, 31_422_048];
/// Perft of the Advanced start, depths 1 to 6 (`tests/perft/advanced.perft`).
const ADVANCED_PERFT: [u64; 6] = [32, 1024, 28_416, 788_544, 19_680_896, 490_945_852];

/// Fails unless `nodes` is the known perft count of `name`'s start at
/// `depth` (`known`: depths 1 up).
fn check_perft(name: &str, depth: u32, nodes: u64, known: &[u64]) -> Result<()> {
    let want = known
        .get(depth as usize - 1)
        .ok_or_else(|| anyhow!("no known perft({depth}) of {name}"))?;
    if nodes != *want {
        bail!(
            "{name}: perft({depth}) of the start counted {nodes} nodes, not {want}: the move generator is wrong, and its speed means nothing"
        );
    }
    Ok(())
}

/// What random games from the start came to.
#[derive(Clone, Copy, Default)]
struct Played {
    games: u32,
    plies: u64,
    /// The sum over plies of the legal moves.
    branching: u64,
    first_player_wins: u32,
}

impl Played {
    /// Fails unless `want` games were played, each of at least one ply
    /// with at least one legal move at each: a generator that finds no
    /// moves, or games that never start, cannot be timed.
    fn check(&self, name: &str, want: u32) -> Result<()> {
        if self.games != want || self.plies < u64::from(want) || self.branching < self.plies {
            bail!(
                "{name}: {} random games of {want} played, {} plies, {} legal moves: the engine is wrong, and its speed means nothing",
                self.games,
                self.plies,
                self.branching
            );
        }
        Ok(())
    }
}

/// Plays `games` uniformly random games from the start.
struct RandomGames {
    games: u32,
    seed: u64,
}

impl EngineTask for RandomGames {
    type Output = Played;
    fn run<B: Word>(self, e: &Engine<B>) -> Played {
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let mut scratch = murus_engine::Scratch::default();
        let start = e.start();
        let mut played = Played::default();
        for _ in 0..self.games {
            let r = e.playout(start, &mut scratch, |n| rng.random_range(0..n));
            played.games += 1;
            played.plies += u64::from(r.plies);
            played.branching += r.branching_sum;
            played.first_player_wins += u32::from(r.outcome.winner == Some(0));
        }
        played
    }
}

/// Times `work` once: seconds and its result.
fn once<T>(work: impl FnOnce() -> T) -> (f64, T) {
    let t = Instant::now();
    let out = work();
    (t.elapsed().as_secs_f64(), out)
}

/// The perft runs of the standard game (compiled and hand-written) and of
/// Advanced, at least as many as the bench's runs: each run times the
/// three turn about, so that the ratio of a run compares them on the same
/// state of a shared machine, and the bench prints the median ratio.
const PERFT_RUNS: usize = 9;

/// The rows of the compiled engine on both games, then of the yardstick,
/// then their ratios. The three are timed turn about, run by run, and each
/// ratio is the median of the runs' ratios.
pub fn rows(scale: Scale) -> Result<Vec<Row>> {
    let standard = Variant::standard();
    let advanced =
        Variant::builtin("advanced").ok_or_else(|| anyhow!("missing shipped variant advanced"))?;
    let (std_start, adv_start) = (standard.start(), advanced.start());
    let hand_start = baseline::Pos::start();
    let std_depth = scale.pick(6, 4);
    let adv_depth = scale.pick(5, 3);
    let perft_runs = scale.pick(PERFT_RUNS.max(scale.runs), scale.runs);
    let (mut std_t, mut hand_t, mut adv_t) = (Vec::new(), Vec::new(), Vec::new());
    let (mut std_ratio, mut adv_ratio) = (Vec::new(), Vec::new());
    let (mut std_nodes, mut hand_nodes, mut adv_nodes) = (0, 0, 0);
    for _ in 0..perft_runs {
        let (s, n) = once(|| standard.perft(&std_start, std_depth));
        check_perft("standard", std_depth, n, &STANDARD_PERFT)?;
        std_nodes = n;
        let (h, n) = once(|| baseline::perft(&hand_start, std_depth));
        check_perft(
            "the hand-written standard game",
            std_depth,
            n,
            &STANDARD_PERFT,
        )?;
        hand_nodes = n;
        let (a, n) = once(|| advanced.perft(&adv_start, adv_depth));
        check_perft("advanced", adv_depth, n, &ADVANCED_PERFT)?;
        adv_nodes = n;
        std_ratio.push(h / s);
        adv_ratio.push((adv_nodes as f64 / a) / (hand_nodes as f64 / h));
        std_t.push(s);
        hand_t.push(h);
        adv_t.push(a);
    }
    // Random games, the same way.
    let std_games: u32 = scale.pick(200_000, 2_000);
    let adv_games: u32 = scale.pick(100_000, 1_000);
    let (mut std_g, mut hand_g, mut adv_g) = (Vec::new(), Vec::new(), Vec::new());
    let mut games_ratio = Vec::new();
    let (mut std_played, mut adv_played) = (Played::default(), Played::default());
    for seed in 0..scale.runs as u64 {
        let (s, played) = once(|| {
            standard.run(RandomGames {
                games: std_games,
                seed,
            })
        });
        played.check("standard", std_games)?;
        std_played = played;
        let (h, plies) = once(|| {
            let mut rng = SmallRng::seed_from_u64(seed);
            baseline::random_games(std_games, |n| rng.random_range(0..n))
        });
        if plies < u64::from(std_games) {
            bail!("the hand-written standard game played {plies} plies in {std_games} games");
        }
        let (a, played) = once(|| {
            advanced.run(RandomGames {
                games: adv_games,
                seed,
            })
        });
        played.check("advanced", adv_games)?;
        adv_played = played;
        games_ratio.push(h / s);
        std_g.push(s);
        hand_g.push(h);
        adv_g.push(a);
    }
    let mut rows = Vec::new();
    for (name, depth, nodes, perft_t, games, games_t, played) in [
        (
            "standard", std_depth, std_nodes, std_t, std_games, std_g, std_played,
        ),
        (
            "advanced", adv_depth, adv_nodes, adv_t, adv_games, adv_g, adv_played,
        ),
    ] {
        rows.push(Row::Speed(Speed {
            variant: name.into(),
            test: format!("perft({depth})"),
            count: nodes,
            seconds: median(perft_t),
            unit: Unit::MillionNodes(1),
            note: None,
        }));
        rows.push(Row::Speed(Speed {
            variant: name.into(),
            test: "random".into(),
            count: games.into(),
            seconds: median(games_t),
            unit: Unit::Games,
            note: None,
        }));
        rows.push(Row::Games {
            mean_length: played.plies as f64 / f64::from(games),
            mean_branching: played.branching as f64 / played.plies.max(1) as f64,
            first_player_wins: 100.0 * f64::from(played.first_player_wins) / f64::from(games),
        });
    }
    rows.push(Row::Speed(Speed {
        variant: "hand-std".into(),
        test: format!("perft({std_depth})"),
        count: hand_nodes,
        seconds: median(hand_t),
        unit: Unit::MillionNodes(1),
        note: None,
    }));
    rows.push(Row::Speed(Speed {
        variant: "hand-std".into(),
        test: "random".into(),
        count: std_games.into(),
        seconds: median(hand_g),
        unit: Unit::Games,
        note: None,
    }));
    rows.push(Row::Yardstick {
        instructions: simd::path().name(),
        runs: perft_runs,
        perft: median(std_ratio),
        random_games: median(games_ratio),
        advanced_perft: median(adv_ratio),
    });
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start's counts of a perft data file (`position start`, then
    /// `perft DEPTH NODES` lines).
    fn start_counts(file: &str) -> Vec<u64> {
        let path = format!("{}/../../tests/perft/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let mut counts = Vec::new();
        let mut at_start = false;
        for line in text.lines().map(str::trim) {
            if let Some(p) = line.strip_prefix("position ") {
                at_start = p == "start";
            } else if let Some(rest) = line.strip_prefix("perft ").filter(|_| at_start) {
                let (depth, nodes) = rest.split_once(' ').unwrap();
                assert_eq!(depth.parse::<usize>().unwrap(), counts.len() + 1);
                counts.push(nodes.trim().parse().unwrap());
            }
        }
        counts
    }

    #[test]
    fn the_benchs_perft_counts_are_the_perft_suites() {
        assert_eq!(start_counts("standard.perft"), STANDARD_PERFT);
        assert_eq!(start_counts("advanced.perft"), ADVANCED_PERFT);
    }

    #[test]
    fn a_wrong_count_stops_the_bench() {
        assert!(check_perft("standard", 3, 6960, &STANDARD_PERFT).is_ok());
        let e = check_perft("standard", 3, 6961, &STANDARD_PERFT).unwrap_err();
        assert!(
            e.to_string().contains("counted 6961 nodes, not 6960"),
            "{e}"
        );
        let played = Played {
            games: 10,
            plies: 0,
            branching: 0,
            first_player_wins: 0,
        };
        assert!(played.check("standard", 10).is_err(), "games of no plies");
        let played = Played {
            plies: 300,
            branching: 3000,
            ..played
        };
        assert!(played.check("standard", 10).is_ok());
        assert!(played.check("standard", 11).is_err(), "a game missing");
    }

    #[test]
    fn random_games_are_counted_and_the_yardstick_agrees_with_the_engine() {
        let v = Variant::standard();
        let played = v.run(RandomGames { games: 50, seed: 1 });
        played.check("standard", 50).unwrap();
        let start = baseline::Pos::start();
        for depth in 1..=4 {
            assert_eq!(
                baseline::perft(&start, depth),
                v.perft(&v.start(), depth),
                "perft({depth})"
            );
        }
    }
}
