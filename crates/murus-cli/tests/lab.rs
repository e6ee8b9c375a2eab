//! `murus selfplay`, `murus match` and `murus lab merge`, through the real binary.

use std::path::PathBuf;
use std::process::{Command, Output};

fn murus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_murus"))
        .args(args)
        .output()
        .expect("the murus binary runs")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("murus-cli-lab-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

#[test]
fn selfplay_json_is_the_report_and_is_thread_independent() {
    let run = |threads: &str| {
        murus(&[
            "selfplay",
            "standard",
            "--games",
            "200",
            "--bots",
            "random,greedy",
            "--seed",
            "9",
            "--threads",
            threads,
            "--json",
        ])
    };
    let one = run("1");
    let two = run("2");
    assert!(one.status.success());
    assert_eq!(one.stdout, two.stdout);
    let j = json(&one);
    assert_eq!(j["games"], 200);
    assert_eq!(j["by_seat"][1]["bot"], "greedy");
    assert!(j["by_colour"]["r"]["ci95"].is_array());
    assert!(
        !String::from_utf8_lossy(&one.stderr).contains('\r'),
        "no progress bar off a terminal"
    );
}

#[test]
fn selfplay_out_writes_games_and_reports_and_shards_merge() {
    let whole = temp("whole");
    let o = murus(&[
        "selfplay",
        "advanced",
        "--games",
        "30",
        "--seed",
        "4",
        "--out",
        whole.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["games.jsonl", "report.json", "report.csv", "report.svg"] {
        assert!(whole.join(f).is_file(), "missing {f}");
    }
    let lines = std::fs::read_to_string(whole.join("games.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 30);
    let first: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    for key in ["seed", "seats", "moves", "winner", "reason"] {
        assert!(first.get(key).is_some(), "game line lacks {key}");
    }
    assert!(
        std::fs::read_to_string(whole.join("report.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    let mut shards = Vec::new();
    for k in ["1/2", "2/2"] {
        let dir = temp(&format!("part{}", &k[..1]));
        let o = murus(&[
            "selfplay",
            "advanced",
            "--games",
            "30",
            "--seed",
            "4",
            "--shard",
            k,
            "--out",
            dir.to_str().unwrap(),
            "--json",
        ]);
        assert!(o.status.success());
        assert_eq!(json(&o)["games"], 15);
        shards.push(dir);
    }
    let merged = temp("merged");
    let o = murus(&[
        "lab",
        "merge",
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(merged.join("report.json")).unwrap(),
        std::fs::read(whole.join("report.json")).unwrap()
    );
}

#[test]
fn match_json_has_the_contract_keys() {
    let o = murus(&[
        "match", "standard", "greedy", "random", "--games", "20", "--json",
    ]);
    assert!(o.status.success());
    let j = json(&o);
    for key in [
        "games", "wins", "draws", "losses", "score", "elo", "elo_ci95", "sprt",
    ] {
        assert!(j.get(key).is_some(), "match JSON lacks {key}");
    }
    assert_eq!(j["games"], 20);
    assert!(j["sprt"].is_null());
    assert!(j["wins"].as_u64().unwrap() >= 15, "greedy beats random");
}

#[test]
fn match_sprt_stops_when_decided() {
    let o = murus(&[
        "match", "standard", "greedy", "random", "--games", "2000", "--sprt", "0,100", "--json",
    ]);
    assert!(o.status.success());
    let j = json(&o);
    assert_eq!(j["sprt"]["decision"], "H1");
    let games = j["games"].as_u64().unwrap();
    // A 99% winner needs about a dozen games against H0 = 0, H1 = 100
    // (each win adds ln(0.640/0.5) = 0.247 to the log-likelihood ratio, the
    // bound is ln(19) = 2.944): not one lucky pair, not hundreds.
    assert!((10..200).contains(&games), "{j}");
    assert_eq!(games % 2, 0, "whole pairs");
    let llr = j["sprt"]["llr"].as_f64().unwrap();
    assert!((2.94..4.0).contains(&llr), "{j}");
    // Equal bots: the test accepts H0 (no 200-Elo gain).
    let o = murus(&[
        "match", "standard", "random", "random", "--games", "2000", "--sprt", "0,200", "--json",
    ]);
    assert!(o.status.success());
    let j = json(&o);
    assert_eq!(j["sprt"]["decision"], "H0", "{j}");
}

#[test]
fn bad_lab_arguments_fail_clearly() {
    for (args, words) in [
        (
            &["selfplay", "standard", "--bots", "alphabet"][..],
            "unknown bot `alphabet`",
        ),
        (&["selfplay", "standard", "--shard", "3/2"][..], "shard 3/2"),
        (
            &["selfplay", "standard", "--shard", "x"][..],
            "expected K/N",
        ),
        (&["selfplay", "standard", "--games", "0"][..], "at least 1"),
        (
            &["selfplay", "standard", "--bots", "random,greedy,mcts"][..],
            "3 bots for 2 seats",
        ),
        (
            &["selfplay", "standard", "--bots", "alphabeta:0"][..],
            "--bots: bot `alphabeta:0`",
        ),
        (&["selfplay", "standard", "--threads", "0"][..], "--threads"),
        (
            &["selfplay", "standard", "--max-plies", "0"][..],
            "--max-plies",
        ),
        (
            &["match", "standard", "greedy", "mcts:many"][..],
            "budget `many`",
        ),
        (
            &["match", "standard", "greedy", "random", "--sprt", "5"][..],
            "ELO0,ELO1",
        ),
        (&["match", "escape4", "greedy", "random"][..], "two-player"),
        (&["lab", "merge", "/no/such/dir"][..], "/no/such/dir"),
    ] {
        let o = murus(args);
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(words), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn selfplay_runs_every_bot_on_multi_player_and_pie_variants() {
    for (variant, bots) in [
        ("escape4", "random,greedy,alphabeta:200,mcts:30"),
        ("hex3-escape", "mcts:30,alphabeta:200,greedy"),
        ("pie", "alphabeta:200,mcts:30"),
    ] {
        let o = murus(&[
            "selfplay",
            variant,
            "--games",
            "4",
            "--bots",
            bots,
            "--max-plies",
            "80",
            "--json",
        ]);
        assert!(
            o.status.success(),
            "{variant}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let j = json(&o);
        assert_eq!(j["games"], 4, "{variant}");
        let seats = j["by_seat"].as_array().unwrap();
        assert_eq!(seats.len(), bots.split(',').count(), "{variant}");
        let wins: u64 = seats.iter().map(|s| s["wins"].as_u64().unwrap()).sum();
        let colour_wins: u64 = j["by_colour"]
            .as_object()
            .unwrap()
            .values()
            .map(|c| c["wins"].as_u64().unwrap())
            .sum();
        let draws = j["draws"]["count"].as_u64().unwrap();
        assert_eq!(wins + draws, 4, "{variant}: every game counted per seat");
        assert_eq!(colour_wins + draws, 4, "{variant}: and per colour");
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
            assert!(j.get(key).is_some(), "{variant}: report lacks {key}");
        }
        assert!(j["variant"]["source_sha256"].as_str().unwrap().len() == 64);
        for key in ["mean", "median", "p5", "p95", "histogram"] {
            assert!(j["length"].get(key).is_some(), "length lacks {key}");
        }
        for key in ["mean", "max", "forced_share"] {
            assert!(j["branching"].get(key).is_some(), "branching lacks {key}");
        }
    }
}
