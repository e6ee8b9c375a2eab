//! `murus selfplay`, `murus match` and `murus lab merge`, through the real binary.

use std::path::Path;
use std::process::{Command, Output};

use crate::util::{TempDir, command, json, murus};

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
    let whole = TempDir::new("whole");
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
        let dir = TempDir::new(&format!("part{}", &k[..1]));
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
    let merged = TempDir::new("merged");
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

/// Reversed or equal bounds are refused before a game is played (`--sprt
/// 100,0` was accepted and decided at once).
#[test]
fn match_sprt_needs_elo0_below_elo1() {
    for bounds in ["100,0", "20,20"] {
        let o = murus(&["match", "standard", "random", "random", "--sprt", bounds]);
        assert_eq!(o.status.code(), Some(1), "{bounds}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!(
                "--sprt `{bounds}`: expected ELO0,ELO1 with ELO0 below ELO1"
            )),
            "{err}"
        );
        assert!(o.stdout.is_empty(), "{bounds}");
    }
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
    let dir = TempDir::new("interrupted");
    let mut child = command()
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
    // The handler is in place before the run starts; wait for some games.
    let started = Instant::now();
    while std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap_or_default()
        .lines()
        .count()
        < 2
    {
        assert!(child.try_wait().unwrap().is_none(), "selfplay ended early");
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no games on disk after two minutes"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
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

/// The files a finished run folder holds, by name.
fn run_files(dir: &Path) -> Vec<(&'static str, String)> {
    ["games.jsonl", "report.json", "report.csv", "report.svg"]
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(dir.join(f))
                .unwrap_or_else(|e| panic!("{}: {e}", dir.join(f).display()));
            (f, text)
        })
        .collect()
}

/// Runs `murus ARGS --out DIR` to the end and returns its output.
fn murus_out(args: &[&str], dir: &Path, extra: &[&str]) -> Output {
    let mut all = args.to_vec();
    all.extend(["--out", dir.to_str().unwrap()]);
    all.extend(extra);
    let o = murus(&all);
    assert!(
        o.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// Starts `murus ARGS --out DIR`, waits until at least `lines` games are in
/// `DIR/games.jsonl`, kills it with SIGKILL (`Child::kill` on Unix) while it
/// still runs, and returns the numbers of the games on disk.
fn kill_after(args: &[&str], dir: &Path, lines: usize) -> Vec<u64> {
    use std::time::{Duration, Instant};
    let mut child = command()
        .args(args)
        .args(["--out", dir.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the murus binary runs");
    let started = Instant::now();
    let whole_lines = |text: &str| text.matches('\n').count();
    loop {
        let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap_or_default();
        if whole_lines(&text) >= lines {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "{args:?} ended before {lines} games were on disk"
        );
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "{args:?}: no {lines} games on disk after two minutes"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "{args:?} finished before it could be killed: give it more games"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !dir.join("report.json").exists(),
        "killed before the end: no report yet"
    );
    assert!(
        dir.join("run.json").is_file(),
        "the configuration comes first"
    );
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let mut numbers: Vec<u64> = text
        .lines()
        .filter(|l| l.ends_with('}'))
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
                .as_u64()
                .unwrap()
        })
        .collect();
    numbers.sort_unstable();
    numbers.dedup();
    assert!(numbers.len() >= lines, "every finished game is on disk");
    numbers
}

/// A self-play run of 120 games long enough (about a second in a debug
/// build) to be killed in the middle, short enough for a test.
fn slow_selfplay(seed: &'static str) -> Vec<&'static str> {
    vec![
        "selfplay",
        "standard",
        "--games",
        "120",
        "--bots",
        "greedy,alphabeta:300",
        "--seed",
        seed,
        "--threads",
        "2",
        "--json",
    ]
}

#[cfg(unix)]
#[test]
fn a_selfplay_run_killed_with_sigkill_resumes_to_the_bytes_of_an_uninterrupted_run() {
    let run = slow_selfplay("3");
    let whole = TempDir::new("kill-whole");
    let expected = murus_out(&run, &whole, &[]);
    let killed = TempDir::new("kill-selfplay");
    let on_disk = kill_after(&run, &killed, 3);
    assert!(on_disk.len() < 120, "{on_disk:?}");
    let resumed = murus_out(&run, &killed, &["--resume"]);
    assert_eq!(resumed.stdout, expected.stdout, "the same report printed");
    let note = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        note.contains(&format!("{} were already played", on_disk.len())),
        "{note}"
    );
    assert!(
        note.starts_with(&format!("{} games in ", 120 - on_disk.len())),
        "only the missing games are played: {note}"
    );
    assert_eq!(run_files(&killed), run_files(&whole));
    // Resuming a finished run only writes its reports again.
    std::fs::remove_file(killed.join("report.svg")).unwrap();
    murus_out(&run, &killed, &["--resume"]);
    assert_eq!(run_files(&killed), run_files(&whole));
}

#[cfg(unix)]
#[test]
fn a_shard_killed_with_sigkill_resumes_and_still_merges_into_the_whole_run() {
    let run = |shard: &'static str| {
        let mut args = slow_selfplay("5");
        if !shard.is_empty() {
            args.extend(["--shard", shard]);
        }
        args
    };
    let whole = TempDir::new("kill-shard-whole");
    murus_out(&run(""), &whole, &[]);
    let first = TempDir::new("kill-shard-1");
    let on_disk = kill_after(&run("1/2"), &first, 3);
    assert!(on_disk.iter().all(|i| i % 2 == 0), "{on_disk:?}");
    assert!(on_disk.len() < 60, "killed with games to play: {on_disk:?}");
    let resumed = murus_out(&run("1/2"), &first, &["--resume"]);
    assert_eq!(json(&resumed)["games"], 60);
    // The resumed shard is the shard an uninterrupted run gives.
    let shard_whole = TempDir::new("kill-shard-1-whole");
    murus_out(&run("1/2"), &shard_whole, &[]);
    assert_eq!(run_files(&first), run_files(&shard_whole));
    let second = TempDir::new("kill-shard-2");
    murus_out(&run("2/2"), &second, &[]);
    let merged = TempDir::new("kill-shard-merged");
    let o = murus(&[
        "lab",
        "merge",
        first.to_str().unwrap(),
        second.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(run_files(&merged), run_files(&whole));
}

#[cfg(unix)]
#[test]
fn a_match_killed_with_sigkill_resumes_to_the_same_games_and_decision() {
    for (name, args) in [
        (
            "kill-sprt",
            &[
                "match",
                "standard",
                "alphabeta:200",
                "greedy",
                "--sprt",
                "0,50",
                "--games",
                "600",
                "--threads",
                "2",
                "--json",
            ][..],
        ),
        (
            "kill-match",
            &[
                "match",
                "standard",
                "alphabeta:300",
                "greedy",
                "--games",
                "60",
                "--threads",
                "2",
                "--json",
            ][..],
        ),
    ] {
        let whole = TempDir::new(&format!("{name}-whole"));
        let expected = murus_out(args, &whole, &[]);
        let killed = TempDir::new(name);
        let on_disk = kill_after(args, &killed, 3);
        let total = json(&expected)["games"].as_u64().unwrap();
        assert!(
            (on_disk.len() as u64) < total,
            "{name}: killed with games to play: {on_disk:?}"
        );
        let resumed = murus_out(args, &killed, &["--resume"]);
        let note = String::from_utf8_lossy(&resumed.stderr);
        assert!(
            note.contains(&format!("{} were already played", on_disk.len())),
            "{name}: {note}"
        );
        if name == "kill-match" {
            let missing = total - on_disk.len() as u64;
            assert!(
                note.starts_with(&format!("{missing} games in ")),
                "{name}: only the missing games are played: {note}"
            );
        }
        assert_eq!(
            String::from_utf8_lossy(&resumed.stdout),
            String::from_utf8_lossy(&expected.stdout),
            "{name}: the same result after {} games on disk",
            on_disk.len()
        );
        assert_eq!(run_files(&killed), run_files(&whole), "{name}");
        if name == "kill-sprt" {
            // The test decided before its cap; the games kept are those up
            // to the decision, not the ones a chunk played past it.
            let j = json(&resumed);
            assert_ne!(j["sprt"]["decision"], "undecided", "{j}");
            let games = j["games"].as_u64().unwrap();
            assert!(games < 600, "{j}");
            let lines = std::fs::read_to_string(killed.join("games.jsonl")).unwrap();
            assert_eq!(lines.lines().count() as u64, games);
        }
    }
}

#[test]
fn resume_and_out_errors_are_clear() {
    let run = [
        "selfplay", "standard", "--games", "8", "--bots", "random", "--seed", "2", "--json",
    ];
    let dir = TempDir::new("resume-errors");
    let expected = murus_out(&run, &dir, &[]);
    let err = |o: &Output| {
        assert!(!o.status.success());
        let e = String::from_utf8_lossy(&o.stderr).to_string();
        assert!(!e.contains("panicked"), "{e}");
        e
    };
    let d = dir.to_str().unwrap();
    // A second run into the same folder does not overwrite it.
    let before = run_files(&dir);
    let o = murus(&[&run[..], &["--out", d][..]].concat());
    let e = err(&o);
    assert!(
        e.contains("already holds a run") && e.contains("--resume"),
        "{e}"
    );
    assert_eq!(run_files(&dir), before);
    // Another seed, other bots: each difference named.
    let o = murus(&[
        "selfplay", "standard", "--games", "8", "--bots", "greedy", "--seed", "3", "--out", d,
        "--resume",
    ]);
    let e = err(&o);
    assert!(
        e.contains("bots random,random there, greedy,greedy asked")
            && e.contains("seed 2 there, 3 asked"),
        "{e}"
    );
    // Resuming needs a folder.
    let o = murus(&[&run[..], &["--resume"][..]].concat());
    assert!(err(&o).contains("--out"));
    // A torn last line is dropped and its game played again.
    let games = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let mut lines: Vec<&str> = games.lines().collect();
    let last = lines.pop().unwrap();
    let torn = format!("{}\n{}", lines.join("\n"), &last[..last.len() / 2]);
    std::fs::write(dir.join("games.jsonl"), &torn).unwrap();
    let o = murus_out(&run, &dir, &["--resume"]);
    assert_eq!(o.stdout, expected.stdout);
    assert_eq!(run_files(&dir), before);
    // A corrupt line elsewhere is an error naming its line.
    let corrupt = games.replacen("{\"index\":2,", "{\"index\":", 1);
    assert_ne!(corrupt, games);
    std::fs::write(dir.join("games.jsonl"), &corrupt).unwrap();
    let o = murus(&[&run[..], &["--out", d, "--resume"][..]].concat());
    let e = err(&o);
    assert!(e.contains("games.jsonl:3:"), "{e}");
}

#[test]
fn selfplay_opens_each_round_from_a_book_and_records_it() {
    let dir = TempDir::new("book");
    let file = dir.write("openings.txt", "d1-d3 e7-e5 # first\nc1-c3\n");
    let out = dir.join("run");
    let o = murus(&[
        "selfplay",
        "standard",
        "--games",
        "6",
        "--book",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    let report = json(&o);
    assert_eq!(report["book"]["name"], "openings.txt");
    assert_eq!(report["book"]["lines"], 2);
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["book"], report["book"]);
    let games = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let firsts: Vec<String> = games
        .lines()
        .map(|l| {
            let g: serde_json::Value = serde_json::from_str(l).unwrap();
            g["moves"][0].as_str().unwrap().to_string()
        })
        .collect();
    // Rounds of two games: lines 0, 1, 0.
    assert_eq!(
        firsts,
        ["d1-d3", "d1-d3", "c1-c3", "c1-c3", "d1-d3", "d1-d3"]
    );
    // With --openings it is refused; a bad book names its line and column.
    let o = murus(&[
        "selfplay",
        "standard",
        "--book",
        file.to_str().unwrap(),
        "--openings",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::write(&file, "d1-d3\n\nc1-c3 zz\n").unwrap();
    let o = murus(&["selfplay", "standard", "--book", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "{}:3:7: error: `zz` is not a move",
            file.display()
        )),
        "{err}"
    );
}

/// Issue 22: games kept of `selfplay my.mg --bots medium --out r`, then
/// `my.eval` put beside the rules (as `murus train` writes it) and the run
/// resumed: refused, naming the bot and both evaluations, where it was
/// accepted and gave a report of neither run. The reports record which
/// evaluation each bot used, and a comment in the rules changes nothing.
#[test]
fn a_resume_with_an_evaluation_beside_the_rules_that_the_run_did_not_use_is_refused() {
    let dir = TempDir::new("eval-resume");
    let source = std::fs::read_to_string(crate::util::repo("tests/unseen/ramparts.mg")).unwrap();
    let rules = dir.write("my.mg", &source);
    let r = rules.to_str().unwrap();
    let out = dir.join("r");
    let selfplay = |extra: &[&str]| {
        let mut args = vec![
            "selfplay",
            r,
            "--bots",
            "medium",
            "--games",
            "2",
            "--max-plies",
            "16",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        murus(&args)
    };
    let o = selfplay(&["--json"]);
    assert!(o.status.success(), "{}", crate::util::text(&o));
    assert_eq!(
        json(&o)["evaluations"],
        serde_json::json!(["generic", "generic"])
    );
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(
        run["evaluations"],
        serde_json::json!(["generic", "generic"])
    );
    // A comment in the rules: the same rules, the run goes on.
    std::fs::write(&rules, format!("// my notes\n{source}")).unwrap();
    let o = selfplay(&["--resume"]);
    assert!(o.status.success(), "{}", crate::util::text(&o));
    // Its own evaluation, trained and written beside the rules.
    let o = murus(&[
        "train",
        r,
        "--positions",
        "400",
        "--bot",
        "alphabeta:100",
        "--hidden",
        "4",
        "--epochs",
        "1",
        "--no-validate",
    ]);
    assert!(o.status.success(), "{}", crate::util::text(&o));
    assert!(
        crate::util::stdout(&o).contains("Evaluations: the data's scores from generic features; the evaluation in force: generic features."),
        "{}",
        crate::util::text(&o)
    );
    assert!(dir.join("my.eval").is_file());
    let o = selfplay(&["--resume"]);
    assert_eq!(o.status.code(), Some(1), "{}", crate::util::text(&o));
    let err = crate::util::stderr(&o);
    // `medium` is `alphabeta:5000`, as the run records it.
    for seat in ["seat 1 (alphabeta:5000)", "seat 2 (alphabeta:5000)"] {
        assert!(
            err.contains(&format!("{seat}: evaluation generic there, sha256:")),
            "{err}"
        );
    }
    assert!(err.contains("… asked"), "{err}");
    // A new run records the file's evaluation, in its report and its summary.
    let fresh = dir.join("fresh");
    let o = murus(&[
        "selfplay",
        r,
        "--bots",
        "medium",
        "--games",
        "2",
        "--max-plies",
        "16",
        "--out",
        fresh.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", crate::util::text(&o));
    assert!(
        crate::util::stdout(&o)
            .lines()
            .any(|l| l.trim_start().starts_with("Evaluation ") && l.contains(" trained, sha256:")),
        "{}",
        crate::util::text(&o)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fresh.join("report.json")).unwrap()).unwrap();
    let id = report["evaluations"][0].as_str().unwrap();
    assert!(id.starts_with("sha256:") && id.len() == 71, "{report}");
    // Shards of the two runs do not merge.
    let o = murus(&[
        "lab",
        "merge",
        out.to_str().unwrap(),
        fresh.to_str().unwrap(),
    ]);
    assert!(!o.status.success(), "{}", crate::util::text(&o));
}
