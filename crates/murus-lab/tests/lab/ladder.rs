//! The strength ladder of issues 4 and 11, 200 games a rung (100 for the
//! slow expert rung) with seats swapped in
//! pairs. Slow in debug builds, so ignored by `cargo test`; run it with
//! `cargo test --release -p murus-lab --test lab -- --ignored --nocapture ladder::each_rung`.

use murus_engine::Variant;
use murus_lab::{MatchConfig, run_match};

#[test]
#[ignore = "a few minutes in release; run with --release -- --ignored"]
fn each_rung_of_the_strength_ladder_holds() {
    let v = Variant::standard();
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let mut failures = Vec::new();
    for (a, b, target, games) in [
        ("greedy", "random", 0.90, 200),
        ("alphabeta", "greedy", 0.80, 200),
        ("mcts", "random", 0.95, 200),
        ("easy", "random", 0.65, 200),
        ("medium", "easy", 0.65, 200),
        ("hard", "medium", 0.65, 200),
        ("expert", "hard", 0.60, 100),
    ] {
        let m = MatchConfig {
            a: a.parse().unwrap(),
            b: b.parse().unwrap(),
            games,
            seed: 1,
            threads,
            sprt: None,
            openings: 0,
            book: None,
            shard: None,
        };
        let (r, _) = run_match(&v, &m, &(), None).unwrap();
        println!(
            "{a:>10} vs {b:<8} {:5.1}%  (+{} ={} -{})  Elo {:+.0} [{:+.0}, {:+.0}]  target {:.0}%",
            r.score * 100.0,
            r.wins,
            r.draws,
            r.losses,
            r.elo,
            r.elo_ci95[0],
            r.elo_ci95[1],
            target * 100.0
        );
        assert_eq!(r.games, games);
        if r.score < target {
            failures.push(format!("{a} vs {b}: {:.1}%", r.score * 100.0));
        }
    }
    assert!(failures.is_empty(), "below target: {failures:?}");
}
