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
    assert!(j["games"].as_u64().unwrap() < 200, "{j}");
    assert_eq!(j["games"].as_u64().unwrap() % 2, 0, "whole pairs");
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
