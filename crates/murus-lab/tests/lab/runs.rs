//! Self-play is reproducible whatever the threads, shards merge into the
//! single run's report, and results are counted per seat and per colour.

use std::path::PathBuf;

use murus_ai::BotSpec;
use murus_engine::Variant;
use std::sync::atomic::{AtomicU64, Ordering};

use murus_engine::job::{Cancel, HandlerExt};
use murus_lab::{
    Config, GameResult, Partial, Report, RunProgress, merge, run, stats_of, write_outputs,
};

use crate::util::temp;

/// The report of games `run` returned.
fn report_of(config: &Config, games: &[GameResult]) -> Report {
    config.report(&stats_of(games))
}

fn specs(text: &str) -> Vec<BotSpec> {
    murus_ai::parse_specs(text).unwrap()
}

#[test]
fn reports_are_byte_identical_for_one_and_two_threads() {
    let v = Variant::standard();
    let report = |threads| {
        let config = Config::new(&v, specs("random,greedy"), 300, 42).with_threads(threads);
        let games = run(&v, &config, &()).unwrap();
        report_of(&config, &games).to_json()
    };
    let one = report(1);
    assert_eq!(one, report(2));
    assert!(one.contains("\"games\": 300"));
    // A different seed gives a different run.
    let config = Config::new(&v, specs("random,greedy"), 300, 43).with_threads(2);
    let other = report_of(&config, &run(&v, &config, &()).unwrap()).to_json();
    assert_ne!(one, other);
}

#[test]
fn searching_bots_give_byte_identical_reports_for_one_and_two_threads() {
    // Alpha-beta keeps a transposition table and MCTS a tree between moves;
    // both live in the game's own bots, so threads still change nothing.
    let v = Variant::standard();
    let report = |threads| {
        let config = Config::new(&v, specs("alphabeta:300,mcts:40"), 6, 11)
            .with_threads(threads)
            .with_max_plies(60);
        let games = run(&v, &config, &()).unwrap();
        (report_of(&config, &games).to_json(), games)
    };
    let (one, games_one) = report(1);
    let (two, games_two) = report(2);
    assert_eq!(one, two);
    assert_eq!(games_one, games_two, "the same moves, game by game");
    assert!(one.contains("\"games\": 6"));
    assert!(one.contains("\"interrupted\": false"));
}

#[test]
fn planned_counts_a_shards_games() {
    let v = Variant::standard();
    for games in [0, 1, 2, 7, 30, 101] {
        let whole = Config::new(&v, specs("random"), games, 1);
        assert_eq!(whole.planned(), games);
        for n in 1..=4 {
            for k in 1..=n {
                let c = whole.clone().with_shard(k, n).unwrap();
                assert_eq!(
                    c.planned(),
                    c.game_numbers().count() as u64,
                    "{games} {k}/{n}"
                );
            }
        }
    }
}

#[test]
fn a_merge_of_an_interrupted_shard_is_interrupted() {
    let v = Variant::standard();
    let mut dirs = Vec::new();
    for k in 1..=2 {
        let shard = Config::new(&v, specs("random"), 20, 3)
            .with_shard(k, 2)
            .unwrap();
        let mut part = run(&v, &shard, &()).unwrap();
        let mut report = report_of(&shard, &part);
        if k == 2 {
            // As if Ctrl-C had stopped the second shard after 4 games.
            part.truncate(4);
            report = report_of(&shard, &part);
            report.interrupted = true;
        }
        let dir = temp!(&format!("interrupted-shard{k}"));
        write_outputs(&dir, &report, &part).unwrap();
        dirs.push(dir);
    }
    let paths: Vec<&std::path::Path> = dirs.iter().map(PathBuf::as_path).collect();
    // Refused unless a partial merge is asked for.
    let e = merge(&paths, Partial::Refuse).unwrap_err().to_string();
    assert!(
        e.contains("shard 2/2 (") && e.contains(") was interrupted"),
        "{e}"
    );
    let (merged, games) = merge(&paths, Partial::Allow).unwrap();
    assert_eq!(games.len(), 14);
    assert!(merged.interrupted);
    assert!(merged.to_json().contains("\"interrupted\": true"));
    assert!(merged.missing_shards.is_empty());
    let (half, _) = merge(&paths[..1], Partial::Allow).unwrap();
    assert!(!half.interrupted);
    assert_eq!(half.missing_shards, ["2/2"]);
    assert!(
        half.to_json()
            .contains("\"missing_shards\": [\n    \"2/2\"\n  ]")
    );
}

#[test]
fn shards_merge_into_exactly_the_unsharded_report() {
    let v = Variant::builtin("advanced").unwrap();
    let whole = Config::new(&v, specs("random"), 101, 7).with_threads(2);
    let games = run(&v, &whole, &()).unwrap();
    let expected = report_of(&whole, &games);
    let mut dirs = Vec::new();
    for k in 1..=3 {
        let shard = Config::new(&v, specs("random"), 101, 7)
            .with_threads(1)
            .with_shard(k, 3)
            .unwrap();
        let part = run(&v, &shard, &()).unwrap();
        assert!(part.iter().all(|g| g.stats.index % 3 == k - 1));
        let dir = temp!(&format!("shard{k}"));
        write_outputs(&dir, &report_of(&shard, &part), &part).unwrap();
        dirs.push(dir);
    }
    let paths: Vec<&std::path::Path> = dirs.iter().map(PathBuf::as_path).collect();
    let (merged, merged_games) = merge(&paths, Partial::Refuse).unwrap();
    assert_eq!(merged.to_json(), expected.to_json());
    assert_eq!(merged_games, games);
    // A shard of another run is refused.
    let stranger = Config::new(&v, specs("random"), 101, 8)
        .with_shard(1, 3)
        .unwrap();
    let part = run(&v, &stranger, &()).unwrap();
    let dir = temp!("stranger");
    write_outputs(&dir, &report_of(&stranger, &part), &part).unwrap();
    let mut paths = paths.clone();
    paths.push(&dir);
    assert!(
        merge(&paths, Partial::Refuse)
            .unwrap_err()
            .to_string()
            .contains("not a shard of the same run")
    );
}

#[test]
fn seats_rotate_and_the_report_counts_seats_and_colours() {
    let v = Variant::standard();
    let config = Config::new(&v, specs("greedy,random"), 200, 3);
    let games = run(&v, &config, &()).unwrap();
    let report = report_of(&config, &games);
    assert_eq!(report.by_seat.len(), 2);
    assert_eq!(report.by_seat[0].bot, "greedy");
    // Each bot played each colour 100 times.
    assert_eq!(games.iter().filter(|g| g.colours[0] == 'r').count(), 100);
    assert!(report.by_seat[0].rate > 0.9, "greedy beats random");
    let colour_wins: u64 = report.by_colour.values().map(|c| c.wins).sum();
    let seat_wins: u64 = report.by_seat.iter().map(|s| s.wins).sum();
    assert_eq!(colour_wins, seat_wins);
    assert_eq!(seat_wins + report.draws.count, 200);
    let reasons: u64 = report.end_reasons.values().sum();
    assert_eq!(reasons, 200);
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    for key in [
        "variant",
        "games",
        "bots",
        "seed",
        "by_seat",
        "by_colour",
        "draws",
        "ply_cap",
        "first_player_advantage",
        "end_reasons",
        "length",
        "branching",
    ] {
        assert!(json.get(key).is_some(), "report.json lacks `{key}`");
    }
    assert_eq!(json["variant"]["source_sha256"].as_str().unwrap().len(), 64);
    for key in ["mean", "median", "p5", "p95", "histogram"] {
        assert!(json["length"].get(key).is_some(), "length lacks `{key}`");
    }
    for key in ["mean", "max", "forced_share"] {
        assert!(
            json["branching"].get(key).is_some(),
            "branching lacks `{key}`"
        );
    }
}

#[test]
fn after_a_pie_swap_the_seat_and_the_colour_differ() {
    let v = Variant::builtin("pie").unwrap();
    let config = Config::new(&v, specs("random"), 400, 5);
    let games = run(&v, &config, &()).unwrap();
    let swapped: Vec<_> = games
        .iter()
        .filter(|g| g.moves.get(1).is_some_and(|m| m == "swap") && g.stats.winner.is_some())
        .collect();
    assert!(!swapped.is_empty(), "random play swaps now and then");
    for g in swapped {
        let winner_start_seat = g
            .colours
            .iter()
            .position(|&c| Some(c) == g.stats.winner)
            .unwrap();
        assert_ne!(
            g.stats.winner_seat,
            Some(winner_start_seat),
            "game {}",
            g.stats.index
        );
    }
}

#[test]
fn three_and_four_player_variants_play_out() {
    for name in ["hex3-escape", "escape4"] {
        let v = Variant::builtin(name).unwrap();
        let config = Config::new(&v, specs("random,greedy"), 12, 1).with_max_plies(400);
        let games = run(&v, &config, &()).unwrap();
        let report = report_of(&config, &games);
        assert_eq!(report.games, 12);
        assert_eq!(report.by_seat.len(), v.player_count());
        assert_eq!(report.by_colour.len(), v.player_count());
        // Seats rotate through every colour.
        assert_eq!(games[1].colours[0], v.letter(1));
    }
}

#[test]
fn a_cancelled_run_keeps_what_finished() {
    let v = Variant::standard();
    let config = Config::new(&v, specs("random"), 1_000_000, 1).with_threads(2);
    // Stopped by its handler once 500 games are done, as a Cancel button
    // would.
    let cancel = Cancel::new();
    let heard = AtomicU64::new(0);
    let handler = cancel.clone().on_progress(|p: &RunProgress| {
        heard.fetch_add(p.games.len() as u64, Ordering::Relaxed);
        assert_eq!(p.total, 1_000_000);
        if p.done >= 500 {
            cancel.cancel();
        }
    });
    let games = run(&v, &config, &handler).unwrap();
    assert!(games.len() >= 500 && games.len() < 1_000_000);
    assert_eq!(
        heard.load(Ordering::Relaxed),
        games.len() as u64,
        "each game heard once"
    );
    let report = config.report_interrupted(&stats_of(&games), cancel.is_cancelled());
    assert_eq!(report.games, games.len() as u64);
    assert!(report.interrupted);
    assert!(report.to_json().contains("\"interrupted\": true"));
    // Cancelled after the last game finished: nothing was lost.
    let small = Config::new(&v, specs("random"), 10, 1);
    let games = run(&v, &small, &()).unwrap();
    assert!(
        !small
            .report_interrupted(&stats_of(&games), true)
            .interrupted
    );
}

/// The general-game-system figures for uniformly random play (20 000
/// games): standard 47.5% [46.8–48.2] first-player wins, 32.6 plies,
/// branching 12.5; Advanced 47.9%, 35.0 plies, 16.4.
#[test]
fn random_play_agrees_with_the_published_figures() {
    for (name, first, length, branching) in [
        ("standard", (0.468, 0.482), 32.6, 12.5),
        ("advanced", (0.472, 0.486), 35.0, 16.4),
    ] {
        let v = Variant::builtin(name).unwrap();
        let mut config = Config::new(&v, specs("random"), 20_000, 2);
        config.record_moves = false;
        let report = report_of(&config, &run(&v, &config, &()).unwrap());
        let f = &report.first_player_advantage;
        assert!(
            f.ci95[0] <= first.1 && first.0 <= f.ci95[1],
            "{name}: first player {:.4} {:?} vs {first:?}",
            f.rate,
            f.ci95
        );
        assert!(
            (report.length.mean - length).abs() < 0.3,
            "{name}: {}",
            report.length.mean
        );
        assert!(
            (report.branching.mean - branching).abs() < 0.15,
            "{name}: {}",
            report.branching.mean
        );
    }
}

#[test]
fn a_background_batch_delivers_every_game_with_its_moves_and_ends_with_the_run_report() {
    use std::sync::{Arc, Mutex};
    let v = Variant::builtin("pie").unwrap();
    let config = Config::new(&v, specs("random,greedy"), 40, 5).with_threads(2);
    let direct_games = run(&v, &config, &()).unwrap();
    let direct = report_of(&config, &direct_games).to_json();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let news = Arc::new(AtomicU64::new(0));
    let (sink, counter) = (seen.clone(), news.clone());
    let handler = ().on_progress(move |p: &RunProgress| {
        assert!(p.done <= p.total && p.total == 40);
        counter.fetch_add(1, Ordering::Relaxed);
        sink.lock().unwrap().extend(p.games.iter().cloned());
    });
    let batch = murus_lab::spawn(&v, config, None, handler).unwrap();
    assert_eq!(batch.total(), 40);
    let report = batch.join().unwrap();
    let mut games = seen.lock().unwrap().clone();
    games.sort_by_key(|g| g.stats.index);
    assert_eq!(games, direct_games, "every game heard once, moves and all");
    assert!(
        news.load(Ordering::Relaxed) >= 2,
        "the start, and games as they finish"
    );
    assert_eq!(report.to_json(), direct, "same bytes as a foreground run");
    assert!(!report.interrupted);
}

#[test]
fn a_cancelled_background_batch_keeps_a_report_marked_interrupted() {
    let v = Variant::standard();
    let config = Config::new(&v, specs("random"), 10_000_000, 1).with_threads(2);
    let cancel = Cancel::new();
    let done = std::sync::Arc::new(AtomicU64::new(0));
    let seen = done.clone();
    let handler = cancel
        .clone()
        .on_progress(move |p: &RunProgress| seen.store(p.done, Ordering::Relaxed));
    let batch = murus_lab::spawn(&v, config, None, handler).unwrap();
    while done.load(Ordering::Relaxed) < 200 {
        std::thread::yield_now();
    }
    cancel.cancel();
    let report = batch.join().unwrap();
    assert!(report.games >= 200 && report.games < 10_000_000);
    assert!(report.interrupted, "a cancelled batch says so");
    // Dropping a batch stops its run too.
    let config = Config::new(&v, specs("random"), 10_000_000, 1).with_threads(1);
    drop(murus_lab::spawn(&v, config, None, ()).unwrap());
}

#[test]
fn game_numbers_are_walked_lazily_and_match_the_shard() {
    let v = Variant::standard();
    let huge = Config::new(&v, specs("random"), 100_000_000, 1)
        .with_shard(3, 4)
        .unwrap();
    let mut numbers = huge.game_numbers();
    assert_eq!(numbers.next(), Some(2));
    assert_eq!(numbers.next(), Some(6));
    assert_eq!(huge.game_numbers().count() as u64, huge.planned());
    assert_eq!(huge.game_number(huge.planned() - 1), 99_999_998);
    assert!(huge.plays(99_999_998) && !huge.plays(99_999_999) && !huge.plays(100_000_002));
    let small = Config::new(&v, specs("random"), 10, 1);
    assert_eq!(
        small.game_numbers().collect::<Vec<_>>(),
        (0..10).collect::<Vec<_>>()
    );
}

#[test]
fn the_summary_names_every_seat_and_colour_and_counts_every_game() {
    let v = Variant::standard();
    let config = Config::new(&v, specs("greedy,random"), 40, 5).with_threads(1);
    let r = report_of(&config, &run(&v, &config, &()).unwrap());
    let lines = r.summary(|c| format!("Colour {c}"));
    let labels: Vec<&str> = lines.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(
        labels,
        [
            "Seat 1 (greedy)",
            "Seat 2 (random)",
            "Evaluation",
            "Colour g",
            "Colour r",
            "First player",
            "Draws",
            "Hit the ply cap",
            "Length",
            "Branching",
            "Decisiveness",
            "Game quality",
            "Game shape",
            "Endings",
        ]
    );
    let seat1 = &r.by_seat[0];
    assert_eq!(
        lines[0].1,
        format!(
            "{} wins, {:.1}% [{:.1}, {:.1}]",
            seat1.wins,
            seat1.rate * 100.0,
            seat1.ci95[0] * 100.0,
            seat1.ci95[1] * 100.0
        )
    );
    // The endings add up to every game.
    // Both seats were given the standard game's shipped evaluation.
    assert!(lines[2].1.starts_with("trained, sha256:"), "{lines:?}");
    let total: u64 = lines[13]
        .1
        .split(", ")
        .map(|e| e.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 40);
}

#[test]
fn openings_are_random_plies_shared_by_the_games_of_a_pair() {
    let v = Variant::standard();
    let config = Config::new(&v, specs("alphabeta:300,greedy"), 8, 5)
        .with_threads(2)
        .with_openings(3);
    let games = run(&v, &config, &()).unwrap();
    let opening = |g: &GameResult| g.moves[..3].to_vec();
    for pair in games.chunks(2) {
        assert_eq!(opening(&pair[0]), opening(&pair[1]), "a pair opens alike");
        assert_ne!(pair[0].colours, pair[1].colours, "with colours swapped");
    }
    let mut distinct: Vec<Vec<String>> = games.iter().map(opening).collect();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() > 1, "pairs open differently: {distinct:?}");
    // Without openings the bots' own first moves are the same every pair
    // (alpha-beta on a node budget, greedy as good as deterministic here).
    let plain = Config::new(&v, specs("alphabeta:300,greedy"), 8, 5).with_threads(2);
    let plain_games = run(&v, &plain, &()).unwrap();
    assert_ne!(plain_games[0].moves[..3], games[0].moves[..3]);
    // The report says so, and a report without openings has no such key
    // (files of earlier versions are unchanged).
    let json = report_of(&config, &games).to_json();
    assert!(json.contains("\"openings\": 3"), "{json}");
    assert!(
        !report_of(&plain, &plain_games)
            .to_json()
            .contains("openings")
    );
    // Another number of openings is another run.
    let diff = config.run_spec().differences(&plain.run_spec());
    assert_eq!(diff, ["openings 3 there, 0 asked"]);
}

#[test]
fn a_short_run_writes_game_quality_metrics_with_sane_values() {
    let v = Variant::standard();
    // With a random seat the moves are valued at one ply in 64 (clarity):
    // a few dozen plies of these forty games.
    let config = Config::new(&v, specs("greedy,random"), 40, 9).with_threads(1);
    let games = run(&v, &config, &()).unwrap();
    let dir = temp!("metrics");
    write_outputs(&dir, &report_of(&config, &games), &games).unwrap();
    let text = std::fs::read_to_string(dir.join("report.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let m = &json["metrics"];
    let num = |key: &str| {
        key.split('.')
            .fold(m, |j, k| &j[k])
            .as_f64()
            .unwrap_or_else(|| panic!("metrics.{key} is not a number: {m}"))
    };
    assert_eq!(num("games"), 40.0);
    assert_eq!(num("measured"), 40.0, "every new game has its record");
    let ends = num("completion") + num("drawishness") + num("timeouts");
    assert!((ends - 1.0).abs() < 1e-6, "every game ends one way: {ends}");
    for share in [
        "completion",
        "drawishness",
        "timeouts",
        "decisiveness_moves",
        "lead_change",
        "clarity",
        "decision_moves",
        "board_coverage",
        "repetition",
        "duration.score",
    ] {
        let x = num(share);
        assert!((0.0..=1.0).contains(&x), "{share} = {x}");
    }
    assert!((-1.0..=1.0).contains(&num("decisiveness_threshold")));
    assert!(num("drama") >= 0.0 && num("stability") >= 0.0);
    // Greedy beats random: nearly every game is won, and the board is
    // used beyond the sixteen starting cells of fifty-six.
    assert!(num("completion") > 0.9);
    assert!(num("board_coverage") > 16.0 / 56.0);
    assert_eq!(
        num("duration.mean"),
        json["length"]["mean"].as_f64().unwrap()
    );
    let [lo, hi] = [0, 1].map(|i| m["duration"]["ideal"][i].as_f64().unwrap());
    assert!(0.0 < lo && lo < hi, "{lo}..{hi}");
    let b = num("branching.mean");
    assert!(b > 1.0 && num("branching.geometric_mean") <= b, "{m}");
    // Each game's line keeps its own record.
    let lines = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert!(
        lines
            .lines()
            .all(|l| l.contains("\"metrics\":{\"evaluated\":"))
    );
    // And report.csv has them as rows.
    let csv = std::fs::read_to_string(dir.join("report.csv")).unwrap();
    assert!(csv.contains("metrics,drama,"), "{csv}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 22: recording the game-quality metrics made self-play of random
/// games about 1.8 times slower. Random bots alone measure one round of
/// games in `RANDOM_ROUNDS` after the first `RANDOM_FULL_ROUNDS` (and the
/// report counts those), bots that do
/// not search value their moves on a sample of plies, searching bots every
/// ply; a run without metrics measures nothing and plays the same games.
#[test]
fn the_metrics_are_recorded_on_a_sample_where_the_bots_are_cheap_and_change_no_game() {
    use murus_lab::Measure;
    use murus_lab::metrics::{CLARITY_SAMPLE, RANDOM_FULL_ROUNDS, RANDOM_ROUNDS};
    let v = Variant::standard();
    let full = RANDOM_FULL_ROUNDS;
    // The first rounds whole, then one in RANDOM_ROUNDS (rounds that are
    // its multiples) up to three past them.
    let rounds = (full / RANDOM_ROUNDS + 3) * RANDOM_ROUNDS;
    let random = Config::new(&v, specs("random"), 2 * rounds, 5).with_threads(2);
    let measured: Vec<u64> = (0..random.games)
        .filter(|&i| random.measure(i) != Measure::Nothing)
        .collect();
    let mut expected: Vec<u64> = (0..2 * full).collect();
    for k in 0..3 {
        let r = 2 * (full.next_multiple_of(RANDOM_ROUNDS) + k * RANDOM_ROUNDS);
        expected.extend([r, r + 1]);
    }
    assert_eq!(measured, expected);
    let count = expected.len() as u64;
    let games = run(&v, &random, &()).unwrap();
    for g in &games {
        assert_eq!(
            g.stats.metrics.is_some(),
            measured.contains(&g.stats.index),
            "game {}",
            g.stats.index
        );
    }
    let report = report_of(&random, &games);
    assert_eq!(
        (report.metrics.games, report.metrics.measured),
        (2 * rounds, count)
    );
    // The evaluation's leader is counted over the measured games.
    let led: Vec<&GameResult> = games.iter().filter(|g| g.stats.metrics.is_some()).collect();
    let changes: u32 = led.iter().map(|g| g.stats.lead_changes).sum();
    assert_eq!(
        report.evaluation.lead_changes_mean,
        (f64::from(changes) / count as f64 * 1e6).round() / 1e6
    );
    // Without metrics: the same games, nothing measured.
    let mut off = random.clone();
    off.record_metrics = false;
    let bare = run(&v, &off, &()).unwrap();
    assert!(bare.iter().all(|g| g.stats.metrics.is_none()));
    let plain = |g: &GameResult| {
        (
            g.stats.winner,
            g.stats.reason,
            g.stats.plies,
            g.moves.clone(),
        )
    };
    assert_eq!(
        bare.iter().map(plain).collect::<Vec<_>>(),
        games.iter().map(plain).collect::<Vec<_>>()
    );
    assert_eq!(report_of(&off, &bare).metrics.measured, 0);
    // Greedy bots: every game measured, moves valued on a sample of plies;
    // a searching bot: every ply.
    let greedy = Config::new(&v, specs("greedy"), 4, 5);
    assert!((0..4).all(|i| greedy.measure(i)
        == Measure::Metrics {
            value_moves_one_in: CLARITY_SAMPLE
        }));
    let searching = Config::new(&v, specs("alphabeta:300,greedy"), 4, 5);
    assert_eq!(
        searching.measure(3),
        Measure::Metrics {
            value_moves_one_in: 1
        }
    );
    let mixed = Config::new(&v, specs("random,alphabeta:300"), 4, 5);
    assert_eq!(
        mixed.measure(3),
        Measure::Metrics {
            value_moves_one_in: CLARITY_SAMPLE
        }
    );
}
