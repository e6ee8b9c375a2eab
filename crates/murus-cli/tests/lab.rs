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
fn match_sprt_without_games_runs_past_200_games_and_reports_its_cap() {
    // Equal bots, close hypotheses: the test needs about 2 000 games. It used
    // to stop, undecided, at the 200 games `--games` defaults to.
    let o = murus(&[
        "match", "standard", "random", "random", "--sprt", "-20,20", "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = json(&o);
    assert_eq!(j["sprt"]["decision"], "H0", "{j}");
    assert_eq!(j["sprt"]["max_games"], 100_000, "{j}");
    let games = j["games"].as_u64().unwrap();
    assert!(games > 200 && games < 100_000, "{j}");
    // With --games the cap is the user's, and running out of games says so.
    let o = murus(&[
        "match", "standard", "random", "random", "--sprt", "-20,20", "--games", "50", "--json",
    ]);
    let j = json(&o);
    assert_eq!(j["games"], 50, "{j}");
    assert_eq!(j["sprt"]["decision"], "undecided", "{j}");
    assert_eq!(j["sprt"]["max_games"], 50, "{j}");
    let o = murus(&[
        "match", "standard", "random", "random", "--sprt", "-20,20", "--games", "50",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("SPRT [-20, 20]: undecided after 50 of at most 50 games"),
        "{text}"
    );
    // Without --sprt a match still plays 200 games.
    let o = murus(&["match", "standard", "random", "random", "--json"]);
    assert_eq!(json(&o)["games"], 200);
}

#[test]
fn match_sprt_takes_negative_bounds_without_an_equals_sign() {
    for args in [
        &["--sprt", "-5,5"][..],
        &["--sprt=-5,5"][..],
        &["--sprt", "-10,-5"][..],
    ] {
        let mut all = vec!["match", "standard", "random", "random", "--games", "4"];
        all.extend_from_slice(args);
        all.push("--json");
        let o = murus(&all);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let j = json(&o);
        assert!(j["sprt"]["elo0"].as_f64().unwrap() < 0.0, "{args:?}: {j}");
    }
    // A lone negative number is still not a pair of bounds.
    let o = murus(&["match", "standard", "random", "random", "--sprt", "-5"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("ELO0,ELO1"));
}

#[test]
fn a_perfect_score_has_no_finite_upper_elo_bound() {
    let o = murus(&[
        "match", "standard", "greedy", "random", "--games", "12", "--json",
    ]);
    assert!(o.status.success());
    let j = json(&o);
    assert_eq!(
        (j["wins"].as_u64(), j["losses"].as_u64()),
        (Some(12), Some(0)),
        "{j}"
    );
    // No finite Elo fits 12 wins in 12: the estimate and the upper bound are
    // infinite, `null` in JSON; the lower bound is the Wilson bound, +198.
    assert!(j["elo"].is_null(), "{j}");
    assert!(j["elo_ci95"][1].is_null(), "{j}");
    let lo = j["elo_ci95"][0].as_f64().unwrap();
    assert!((197.0..199.0).contains(&lo), "{j}");
    let o = murus(&["match", "standard", "greedy", "random", "--games", "12"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Elo +inf [+198, +inf]"), "{text}");
}

#[cfg(unix)]
#[test]
fn an_interrupted_selfplay_writes_a_report_that_says_so() {
    use std::time::{Duration, Instant};
    let dir = temp("interrupted");
    let mut child = Command::new(env!("CARGO_BIN_EXE_murus"))
        .args([
            "selfplay",
            "standard",
            "--games",
            "1000000",
            "--bots",
            "greedy",
            "--threads",
            "1",
            "--out",
            dir.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the murus binary runs");
    // Time to install the Ctrl-C handler and finish some games.
    std::thread::sleep(Duration::from_millis(1500));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "selfplay did not stop"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["interrupted"], true, "{report}");
    let games = report["games"].as_u64().unwrap();
    assert!(games > 0 && games < 1_000_000, "{report}");
    let lines = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert_eq!(
        lines.lines().count() as u64,
        games,
        "every finished game kept"
    );
    // A complete run says it was not interrupted.
    let o = murus(&["selfplay", "standard", "--games", "4", "--json"]);
    assert_eq!(json(&o)["interrupted"], false);
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
