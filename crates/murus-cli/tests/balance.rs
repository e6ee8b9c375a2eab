//! `murus balance`, through the real binary.

use std::path::PathBuf;
use std::process::{Command, Output};

fn murus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_murus"))
        .args(args)
        .output()
        .expect("the murus binary runs")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("murus-cli-balance-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_small_check_reports_every_level_the_skill_trace_and_a_verdict() {
    let dir = temp("small");
    let d = dir.to_str().unwrap();
    let args = [
        "balance",
        "standard",
        "--levels",
        "easy,random",
        "--games",
        "60",
        "--skill-games",
        "10",
        "--threads",
        "2",
        "--out",
        d,
        "--json",
    ];
    let o = murus(&args);
    assert!(o.status.success(), "{}", text(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let levels = j["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 2);
    assert_eq!(levels[0]["level"], "random", "weakest first");
    assert_eq!(levels[1]["level"], "easy");
    assert_eq!(levels[0]["report"]["games"], 60);
    assert_eq!(j["skill"][0]["upper"], "easy");
    assert_eq!(j["skill"][0]["games"], 10);
    let verdict: Vec<&str> = j["verdict"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(
        verdict[0].starts_with("At easy, the first player wins "),
        "{verdict:?}"
    );
    assert!(dir.join("balance.csv").is_file());
    let csv = std::fs::read_to_string(dir.join("balance.csv")).unwrap();
    assert!(csv.starts_with("level,bot,games,first_player,"), "{csv}");
    assert_eq!(csv.lines().count(), 3);
    // The same check again in the same folder needs --resume, and resumed
    // it plays nothing and reports the same.
    let o = murus(&args);
    assert!(!o.status.success());
    assert!(text(&o).contains("--resume"), "{}", text(&o));
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    let again = murus(&resumed);
    assert!(again.status.success(), "{}", text(&again));
    let first: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(first, j);
    // The text summary: a table row per level and the verdict.
    let o = murus(&[
        "balance",
        "standard",
        "--levels",
        "random",
        "--games",
        "20",
        "--skill-games",
        "0",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(t.contains("  random       20  "), "{t}");
    assert!(
        t.contains("verdict:\n  At random, the first player wins"),
        "{t}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_options_fail_clearly() {
    for (args, says) in [
        (
            vec!["--levels", "random,grandmaster"],
            "unknown level `grandmaster`: expected some of random, easy, medium, hard, expert",
        ),
        (
            vec!["--precision", "0"],
            "--precision 0: expected a half-width",
        ),
        (
            vec!["--precision=-3"],
            "--precision -3: expected a half-width",
        ),
        (vec!["--shard", "1/2"], "--shard needs --games N"),
        (
            vec!["--games", "10", "--shard", "3/2"],
            "--shard 3/2: K must be from 1 to N",
        ),
        (
            vec!["--games", "10", "--shard", "x"],
            "--shard `x`: expected K/N",
        ),
        (vec!["--games", "0"], "--games must be at least 1"),
        (
            vec!["--games", "10", "--precision", "3"],
            "cannot be used with",
        ),
    ] {
        let mut all = vec!["balance", "standard"];
        all.extend(args);
        let o = murus(&all);
        assert!(!o.status.success(), "{all:?} succeeded");
        assert!(text(&o).contains(says), "{all:?}: {}", text(&o));
        assert!(!text(&o).contains("panicked"), "{}", text(&o));
    }
}
