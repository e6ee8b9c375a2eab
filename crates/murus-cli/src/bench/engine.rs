//! The engine's speed: perft and uniformly random games from the start of
//! the compiled standard and Advanced games, and of the hand-written
//! yardstick for the standard game, timed in the same run so that their
//! ratio means something on a noisy machine.

use anyhow::{Result, anyhow, bail};
use murus_engine::{Engine, EngineTask, Variant, Word};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::{Row, Scale, Speed, Unit, baseline, timed};

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

/// The rows of the compiled engine on both games, then of the yardstick,
/// then their ratio.
pub fn rows(scale: Scale) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    let mut standard = None;
    let mut advanced_speed = 0.0;
    for (name, depth, games, known) in [
        ("standard", 6, 200_000, &STANDARD_PERFT),
        ("advanced", 5, 100_000, &ADVANCED_PERFT),
    ] {
        let v = Variant::builtin(name).ok_or_else(|| anyhow!("missing shipped variant {name}"))?;
        let depth = scale.pick(depth, depth - 2);
        let games = scale.pick(games, games / 100);
        let start = v.start();
        let (perft_s, nodes) = timed(scale.runs, |_| v.perft(&start, depth));
        check_perft(name, depth, nodes, known)?;
        if name == "advanced" {
            advanced_speed = nodes as f64 / perft_s;
        }
        rows.push(Row::Speed(Speed {
            variant: name.into(),
            test: format!("perft({depth})"),
            count: nodes,
            seconds: perft_s,
            unit: Unit::MillionNodes(1),
            note: None,
        }));
        let (games_s, played) = timed(scale.runs, |seed| v.run(RandomGames { games, seed }));
        played.check(name, games)?;
        standard.get_or_insert((perft_s, games_s));
        rows.push(Row::Speed(Speed {
            variant: name.into(),
            test: "random".into(),
            count: games.into(),
            seconds: games_s,
            unit: Unit::Games,
            note: None,
        }));
        rows.push(Row::Games {
            mean_length: played.plies as f64 / f64::from(games),
            mean_branching: played.branching as f64 / played.plies.max(1) as f64,
            first_player_wins: 100.0 * f64::from(played.first_player_wins) / f64::from(games),
        });
    }
    // The yardstick: a hand-written generator for the standard game.
    let depth = scale.pick(6, 4);
    let games: u32 = scale.pick(200_000, 2_000);
    let start = baseline::Pos::start();
    let (perft_s, nodes) = timed(scale.runs, |_| baseline::perft(&start, depth));
    check_perft(
        "the hand-written standard game",
        depth,
        nodes,
        &STANDARD_PERFT,
    )?;
    let (games_s, plies) = timed(scale.runs, |seed| {
        let mut rng = SmallRng::seed_from_u64(seed);
        baseline::random_games(games, |n| rng.random_range(0..n))
    });
    if plies < u64::from(games) {
        bail!("the hand-written standard game played {plies} plies in {games} games");
    }
    rows.push(Row::Speed(Speed {
        variant: "hand-std".into(),
        test: format!("perft({depth})"),
        count: nodes,
        seconds: perft_s,
        unit: Unit::MillionNodes(1),
        note: None,
    }));
    rows.push(Row::Speed(Speed {
        variant: "hand-std".into(),
        test: "random".into(),
        count: games.into(),
        seconds: games_s,
        unit: Unit::Games,
        note: None,
    }));
    let (std_perft_s, std_games_s) = standard.unwrap_or_default();
    rows.push(Row::Yardstick {
        perft: perft_s / std_perft_s,
        random_games: games_s / std_games_s,
        advanced_perft: advanced_speed / (nodes as f64 / perft_s),
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
