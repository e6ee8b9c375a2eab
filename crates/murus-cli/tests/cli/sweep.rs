//! `murus sweep` and `murus balance --merge`, through the real binary.
//!
//! Sweeps here play a few random games a combination: seconds in all.

use crate::util::{TempDir, json, murus_in, root, stderr, stdout};

/// The standard game with its number of files as a parameter (7 or 8) and
/// `more` declarations; `$ranks` may be used for the ranks.
fn sized(more: &str, ranks: &str) -> String {
    let standard = std::fs::read_to_string(root().join("variants/standard.mg")).unwrap();
    standard.replace(
        "board rect 8 x 7",
        &format!("param files = 7, 8\n{more}board rect $files x {ranks}"),
    )
}

/// A small sweep's options: a few random games from the start.
const SMALL: [&str; 8] = [
    "--games",
    "4",
    "--levels",
    "random",
    "--openings",
    "0",
    "--threads",
    "2",
];

fn sweep_args<'a>(file: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["sweep", file];
    args.extend(SMALL);
    args.extend(more);
    args
}

#[test]
fn a_small_sweep_prints_its_ranked_table_and_writes_its_files() {
    let dir = TempDir::with("small", &[("two.mg", &sized("", "7"))]);
    let o = murus_in(&dir, &sweep_args("two.mg", &["--out", "out", "--json"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["variant"]["name"], "standard");
    assert_eq!(j["parameters"], serde_json::json!(["files"]));
    assert_eq!(j["values"], serde_json::json!([[7, 8]]));
    assert_eq!(j["combinations"], 2);
    let rows = j["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    let mut files: Vec<i64> = rows
        .iter()
        .map(|r| r["values"]["files"].as_i64().unwrap())
        .collect();
    files.sort_unstable();
    assert_eq!(files, [7, 8]);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r["rank"], i as u64 + 1);
        assert_eq!(r["balance"]["levels"][0]["report"]["games"], 4);
    }
    // Best first: the tiers in order, then the fitness.
    let tier = |r: &serde_json::Value| {
        ["unplayable", "broken", "unbalanced", "playable"]
            .iter()
            .position(|t| r["tier"] == *t)
            .unwrap()
    };
    let fitness = |r: &serde_json::Value| r["fitness"].as_f64().unwrap();
    assert!(
        tier(&rows[0]) > tier(&rows[1])
            || (tier(&rows[0]) == tier(&rows[1]) && fitness(&rows[0]) >= fitness(&rows[1])),
        "{rows:?}"
    );
    assert_eq!(j["skipped"], serde_json::json!([]));
    let out = dir.join("out");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("sweep.json")).unwrap()).unwrap();
    assert_eq!(written, j);
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    assert!(
        csv.starts_with("rank,tier,fitness,edge,plies_outside,files,random_games,"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 3);
    let svg = std::fs::read_to_string(out.join("sweep.svg")).unwrap();
    assert!(
        svg.contains("<svg") && svg.contains("the first player"),
        "{svg}"
    );
    for combo in ["files=7", "files=8"] {
        assert!(
            out.join("combos")
                .join(combo)
                .join("balance.json")
                .is_file()
        );
    }
    assert!(out.join("sweep-run.json").is_file());
    // Again in the same folder: refused without --resume; resumed, the
    // same report.
    let o = murus_in(&dir, &sweep_args("two.mg", &["--out", "out", "--json"]));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("add --resume"), "{}", stderr(&o));
    let o = murus_in(
        &dir,
        &sweep_args("two.mg", &["--out", "out", "--json", "--resume"]),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&o), j);
    // The table on stdout.
    let o = murus_in(&dir, &sweep_args("two.mg", &[]));
    assert!(o.status.success(), "{}", stderr(&o));
    let t = stdout(&o);
    assert!(
        t.starts_with("standard: sweep of files: 2 combination(s), 2 played, 0 skipped"),
        "{t}"
    );
    assert!(
        t.contains("  rank  tier       fitness files  first player at random"),
        "{t}"
    );
    assert!(t.contains("\n     1  "), "{t}");
    assert!(t.contains("\n     2  "), "{t}");
}

#[test]
fn a_bad_param_line_is_a_diagnostic_at_its_place_and_a_failure() {
    let bad = sized("", "7").replace("param files = 7, 8", "param files = 9..7");
    let dir = TempDir::with("bad-param", &[("bad.mg", &bad)]);
    let o = murus_in(&dir, &sweep_args("bad.mg", &["--out", "out"]));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("bad.mg:7:15: error: empty range `9..7`"), "{e}");
    assert!(e.contains("help: did you mean `7..9`?"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
    assert!(!dir.join("out").exists(), "nothing is written");
}

#[test]
fn set_with_an_unknown_parameter_or_value_fails_clearly() {
    let dir = TempDir::with("set", &[("two.mg", &sized("", "7"))]);
    for (set, says) in [
        (
            "file=7",
            "two.mg:7:7: error: no parameter `file` is declared",
        ),
        (
            "files=9",
            "two.mg:7:15: error: parameter `files` cannot be 9",
        ),
        ("files=x", "`x` is not a value"),
        ("files=9..7", "empty range"),
        ("7", "is not NAME=VALUES"),
    ] {
        let o = murus_in(&dir, &sweep_args("two.mg", &["--set", set]));
        assert!(!o.status.success(), "--set {set} succeeded");
        assert!(stderr(&o).contains(says), "--set {set}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
    // A known parameter narrowed to one value: one combination.
    let o = murus_in(&dir, &sweep_args("two.mg", &["--set", "files=8", "--json"]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&o)["combinations"], 1);
    assert_eq!(json(&o)["rows"][0]["values"]["files"], 8);
}

#[test]
fn combinations_that_do_not_compile_are_reported_and_skipped_and_the_rest_run() {
    // `home rank 7` and the Gauls' row need 7 ranks: ranks = 6 fails.
    let ranks = sized("param ranks = 6, 7\n", "$ranks");
    let dir = TempDir::with("skipped", &[("ranks.mg", &ranks)]);
    let o = murus_in(&dir, &sweep_args("ranks.mg", &["--set", "files=8"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let t = stdout(&o);
    assert!(t.contains("2 combination(s), 1 played, 1 skipped"), "{t}");
    assert!(
        t.contains("skipped (they do not compile):\n  files=8,ranks=6: ranks.mg:"),
        "{t}"
    );
    assert!(
        t.contains(": error: rank 7 is not on this board (ranks 1–6)"),
        "{t}"
    );
    let e = stderr(&o);
    assert!(
        e.contains("note: parameters in force: files = 8, ranks = 6"),
        "{e}"
    );
    let o = murus_in(
        &dir,
        &sweep_args("ranks.mg", &["--set", "files=8", "--json"]),
    );
    let j = json(&o);
    assert_eq!(j["rows"].as_array().unwrap().len(), 1);
    assert_eq!(j["rows"][0]["values"]["ranks"], 7);
    assert_eq!(j["skipped"][0]["values"]["ranks"], 6);
    // When no combination compiles, the sweep fails.
    let o = murus_in(&dir, &sweep_args("ranks.mg", &["--set", "ranks=6"]));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no combination compiles"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn sweep_shards_merge_into_the_unsharded_sweep() {
    let four = sized("param cap = 200, 300\n", "7").replace("plies 300", "plies $cap");
    let dir = TempDir::with("shards", &[("four.mg", &four)]);
    let whole = murus_in(&dir, &sweep_args("four.mg", &["--out", "whole", "--json"]));
    assert!(whole.status.success(), "{}", stderr(&whole));
    for (k, out) in [("1/2", "s1"), ("2/2", "s2")] {
        let o = murus_in(
            &dir,
            &sweep_args("four.mg", &["--shard", k, "--out", out, "--json"]),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(json(&o)["rows"].as_array().unwrap().len(), 2, "shard {k}");
    }
    let o = murus_in(
        &dir,
        &["sweep", "--merge", "s1", "s2", "--out", "merged", "--json"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&o), json(&whole));
    for file in ["sweep.json", "sweep.csv", "sweep.svg"] {
        assert_eq!(
            std::fs::read_to_string(dir.join("merged").join(file)).unwrap(),
            std::fs::read_to_string(dir.join("whole").join(file)).unwrap(),
            "{file}"
        );
    }
    // One shard alone is not the sweep: refused, or with
    // --allow-partial half the table, which says so.
    let o = murus_in(&dir, &["sweep", "--merge", "s1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("error: shard 2/2 is missing: merge every shard"),
        "{}",
        stderr(&o)
    );
    let o = murus_in(&dir, &["sweep", "--merge", "s1", "--allow-partial"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("note: 2 of 4 combinations present; the shards missing: 2/2"),
        "{}",
        stderr(&o)
    );
    // A shard of another sweep (another seed) is refused, and so is an
    // unsharded sweep.
    let o = murus_in(
        &dir,
        &sweep_args(
            "four.mg",
            &["--shard", "2/2", "--seed", "9", "--out", "s2b"],
        ),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = murus_in(&dir, &["sweep", "--merge", "s1", "s2b"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("not a shard of the same sweep as s1: seed 1 there, 9 here"),
        "{}",
        stderr(&o)
    );
    let o = murus_in(&dir, &["sweep", "--merge", "s1", "whole"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("whole: not a shard"), "{}", stderr(&o));
    let o = murus_in(&dir, &["sweep", "--merge", "s1", "nowhere"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("`nowhere`: no such folder"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn balance_shards_merge_into_the_unsharded_check() {
    let dir = TempDir::with("balance", &[]);
    let check = |more: &[&str]| {
        let mut args = vec![
            "balance",
            "standard",
            "--levels",
            "random,easy",
            "--games",
            "8",
            "--skill-games",
            "6",
            "--openings",
            "2",
            "--threads",
            "2",
            "--json",
        ];
        args.extend(more);
        murus_in(&dir, &args)
    };
    let whole = check(&["--out", "whole"]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    for (k, out) in [("1/2", "b1"), ("2/2", "b2")] {
        let o = check(&["--shard", k, "--out", out]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(json(&o)["levels"][0]["report"]["games"], 4, "shard {k}");
        // A shard plays its share of the skill match too, not all of it:
        // game i to shard i mod 2 + 1, as at the levels.
        assert_eq!(json(&o)["skill"][0]["games"], 3, "shard {k}");
        let games = std::fs::read_to_string(dir.join(out).join("skill/easy-vs-random/games.jsonl"))
            .unwrap();
        let first = if k == "1/2" { 0 } else { 1 };
        let numbers: Vec<u64> = games
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_eq!(numbers, [first, first + 2, first + 4], "shard {k}");
    }
    let o = murus_in(
        &dir,
        &[
            "balance", "--merge", "b1", "b2", "--out", "merged", "--json",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let merged = json(&o);
    assert_eq!(merged, json(&whole));
    assert_eq!(merged["levels"][1]["report"]["games"], 8);
    assert_eq!(merged["skill"][0]["games"], 6);
    for file in [
        "balance.json",
        "balance.csv",
        "levels/random/report.json",
        "levels/easy/games.jsonl",
        "balance.svg",
        "skill/easy-vs-random/report.json",
        "skill/easy-vs-random/games.jsonl",
    ] {
        assert_eq!(
            std::fs::read_to_string(dir.join("merged").join(file)).unwrap(),
            std::fs::read_to_string(dir.join("whole").join(file)).unwrap(),
            "{file}"
        );
    }
    // A missing shard is named; merged anyway if asked, the text summary
    // says what it lacks.
    let o = murus_in(&dir, &["balance", "--merge", "b1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("error: shard 2/2 is missing"),
        "{}",
        stderr(&o)
    );
    let o = murus_in(&dir, &["balance", "--merge", "b1", "--allow-partial"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("verdict:"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("(partial: shard 2/2 missing)"),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains("note: random: 4 of 8 games present"),
        "{}",
        stderr(&o)
    );
    // Shards of different checks, the same shard twice, and a check that
    // is not a shard are refused.
    let o = check(&["--shard", "2/2", "--seed", "3", "--out", "b2b"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for (dirs, says) in [
        (
            vec!["b1", "b2b"],
            "b2b is not a shard of the same check as b1: seed 1 there, 3 here",
        ),
        (vec!["b1", "b1"], "shard 1/2 is given twice"),
        (vec!["b1", "whole"], "whole: not a shard"),
        (vec!["b1", "nowhere"], "`nowhere`: no such folder"),
    ] {
        let mut args = vec!["balance", "--merge"];
        args.extend(dirs);
        let o = murus_in(&dir, &args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}
