//! `murus solve`: exact values of small boards, the winning first moves,
//! budgets, the game with its ply cap (`--with-cap`), and clear errors.

use std::io::Read;

use crate::util::{TempDir, json, murus, repo, stderr, stdout};

/// The proof checker of `murus-ai`'s tests: it knows only the file and the
/// rules.
#[path = "../../../murus-ai/tests/proofcheck/mod.rs"]
mod proofcheck;

const SMALL: &str = "variants/sweeps/standard-small.mg";

/// The JSON answer of `murus solve ARGS --json`, which must succeed.
fn solved(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    all.extend(["--json", "--table", "16"]);
    let o = murus(&all);
    assert!(o.status.success(), "{}", stderr(&o));
    json(&o)
}

#[test]
fn small_boards_of_the_standard_rules_are_solved() {
    // 3×4: the second player wins; the first has no winning move.
    let j = solved(&[SMALL, "--set", "files=3", "--set", "ranks=4"]);
    assert_eq!(j["value"], "loss", "{j}");
    assert_eq!(j["winner"], "g");
    assert_eq!(j["winning"], serde_json::json!([]));
    // 4×4 (the file's default): the first player wins.
    let j = solved(&[SMALL]);
    assert_eq!(j["value"], "win", "{j}");
    assert_eq!(j["winner"], "r");
    assert!(!j["winning"].as_array().unwrap().is_empty(), "{j}");
    // 5×4, past an exhaustive search: the first player wins, with these
    // first moves and no other.
    let j = solved(&[SMALL, "--set", "files=5"]);
    assert_eq!(j["value"], "win", "{j}");
    assert_eq!(
        j["winning"],
        serde_json::json!(["c1-c3", "a1-c3", "b1-d3", "d1-b3", "e1-c3"])
    );
    assert_eq!(j["unsettled"], serde_json::json!([]));
    // The rules are the same in a mirror: a position and its mirror image
    // share an entry, unless --no-mirror; the same answer, fewer nodes.
    assert_eq!(j["mirror"], true, "{j}");
    let apart = solved(&[SMALL, "--set", "files=5", "--no-mirror"]);
    assert_eq!(apart["mirror"], false, "{apart}");
    assert_eq!(apart["winning"], j["winning"]);
    assert!(j["nodes"].as_u64() < apart["nodes"].as_u64(), "{j} {apart}");
}

#[test]
fn the_text_says_who_wins_and_the_rules_solved() {
    let o = murus(&["solve", SMALL, "--set", "files=3", "--table", "16"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("value    Gauls win with perfect play"),
        "{out}"
    );
    assert!(out.contains("without the ply cap"), "{out}");
}

#[test]
fn a_budget_too_small_leaves_the_value_unknown_with_exit_code_2() {
    for budget in ["5000", "0.2s"] {
        let o = murus(&[
            "solve", "standard", "--budget", budget, "--json", "--table", "16",
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let j = json(&o);
        assert_eq!(j["value"], "unknown", "{j}");
        assert_eq!(j["winner"], serde_json::Value::Null, "{j}");
        if budget == "5000" {
            assert!(j["nodes"].as_u64().unwrap() <= 5001, "{j}");
        }
    }
}

#[test]
fn bad_input_is_a_clear_error() {
    let cases: [(&[&str], &str); 6] = [
        (&["solve", "standard", "--budget", "lots"], "give a time"),
        (&["solve", "standard", "--budget", "10"], "too small"),
        (&["solve", "escape4"], "two-player"),
        (&["solve", "nosuch"], "unknown variant"),
        (&["solve", SMALL, "--set", "files=9"], "cannot be 9"),
        (
            &["solve", "standard", "--position", "8/8/8/8/8/8/8 x"],
            "position",
        ),
    ];
    for (args, expected) in cases {
        let o = murus(args);
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

/// The small boards' rules (4×4 by default) whose games at `cap` plies go
/// to the Gauls, in a folder of their own.
fn capped(cap: u32) -> (TempDir, String) {
    let source = std::fs::read_to_string(repo(SMALL)).unwrap();
    let text = source.replace(
        "    plies 300\n",
        &format!("    plies {cap}\n    adjudicate for g\n"),
    );
    assert_ne!(text, source);
    let dir = TempDir::new("solve-capped");
    let path = dir.write("capped.mg", &text).display().to_string();
    (dir, path)
}

/// 4×4 is the Romans' without the cap; with a cap of 6 plies after which
/// the Gauls win, they cannot break through in time, with 12 they can.
#[test]
fn with_cap_solves_the_game_the_rules_end_at_the_cap() {
    let (_dir, six) = capped(6);
    let j = solved(&[&six]);
    assert_eq!(
        (j["value"].as_str(), j["winner"].as_str()),
        (Some("win"), Some("r")),
        "{j}"
    );
    assert_eq!(j["with_cap"], false);
    let j = solved(&[&six, "--with-cap"]);
    assert_eq!(j["mirror"], false, "the ply cap's keys carry the line");
    assert_eq!(
        (j["value"].as_str(), j["winner"].as_str()),
        (Some("loss"), Some("g")),
        "{j}"
    );
    assert_eq!(
        (
            j["with_cap"].as_bool(),
            j["ply_cap"].as_u64(),
            j["plies_left"].as_u64()
        ),
        (Some(true), Some(6), Some(6))
    );
    // Plies already played count: after a move, or given with --ply.
    let j = solved(&[&six, "--with-cap", "--moves", "b1-b3"]);
    assert_eq!(j["plies_left"], 5, "{j}");
    let j = solved(&[&six, "--with-cap", "--ply", "4"]);
    assert_eq!(j["plies_left"], 2, "{j}");
    let (_dir, twelve) = capped(12);
    let j = solved(&[&twelve, "--with-cap"]);
    assert_eq!(
        (j["value"].as_str(), j["winner"].as_str()),
        (Some("win"), Some("r")),
        "{j}"
    );
    assert_eq!(j["winning"], serde_json::json!(["b1-b3", "c1-c3"]));
    let o = murus(&["solve", &twelve, "--with-cap", "--table", "16"]);
    let out = stdout(&o);
    assert!(
        out.contains("Romans win with perfect play (the game to its ply cap of 12)"),
        "{out}"
    );
    assert!(
        out.contains("rules    play to the ply cap (12 plies, 12 left)"),
        "{out}"
    );
}

#[test]
fn with_cap_refuses_what_it_cannot_solve() {
    let (_dir, six) = capped(6);
    let free = TempDir::new("solve-free");
    let source = std::fs::read_to_string(repo(SMALL)).unwrap();
    let no_cap = free
        .write("free.mg", &source.replace("    plies 300\n", ""))
        .display()
        .to_string();
    let cases: [(&[&str], &str); 3] = [
        (&["solve", &six, "--ply", "2"], "--with-cap"),
        (
            &["solve", &six, "--with-cap", "--ply", "6"],
            "reached the ply cap",
        ),
        (&["solve", &no_cap, "--with-cap"], "no ply cap"),
    ];
    for (args, expected) in cases {
        let o = murus(args);
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

/// `--proof`: the winner's strategy, plain or gzipped, passes the
/// independent checker (which reads only the file and the rules), on one
/// thread and two; the table's use is stated.
#[test]
fn the_proof_file_of_a_win_passes_the_independent_checker() {
    let dir = TempDir::new("solve-proof");
    let source = std::fs::read_to_string(repo(SMALL)).unwrap();
    for (files, winner, threads, name) in [
        ("3", "g", "1", "3x4.proof"),
        ("4", "r", "2", "4x4.proof.gz"),
        ("5", "r", "2", "5x4.proof"),
    ] {
        let path = dir.join(name);
        let file = path.display().to_string();
        let set = format!("files={files}");
        let j = solved(&[SMALL, "--set", &set, "--threads", threads, "--proof", &file]);
        assert_eq!(j["winner"], winner, "{j}");
        assert_eq!(j["threads"].as_u64(), Some(threads.parse().unwrap()));
        let table = &j["table"];
        assert_eq!(table["entry_bytes"], 24, "{j}");
        let (filled, entries) = (
            table["filled"].as_u64().unwrap(),
            table["entries"].as_u64().unwrap(),
        );
        assert!(filled > 0 && filled <= entries, "{j}");
        let mut text = String::new();
        if name.ends_with(".gz") {
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(bytes[..2], [0x1f, 0x8b], "gzip");
            flate2::read::GzDecoder::new(&bytes[..])
                .read_to_string(&mut text)
                .unwrap();
        } else {
            text = std::fs::read_to_string(&path).unwrap();
        }
        assert_eq!(
            j["proof"]["positions"].as_u64(),
            Some(text.lines().count() as u64),
            "{j}"
        );
        let set = [("files".to_string(), files.parse().unwrap())];
        let v = murus_engine::Variant::compile_with(&source, &set).unwrap();
        let checked =
            proofcheck::check(&v, &v.start(), &text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(v.letter(checked.winner).to_string(), winner);
    }
    // The text says where it went and how full the table was.
    let file = dir.join("again.proof").display().to_string();
    let o = murus(&["solve", SMALL, "--table", "16", "--proof", &file]);
    let out = stdout(&o);
    assert!(
        out.contains(&format!("proof    {file}: the winner's move in ")),
        "{out}"
    );
    assert!(
        out.contains("entries of 24 bytes") && out.contains("% full at the end"),
        "{out}"
    );
}

#[test]
fn no_proof_is_written_without_a_winner_and_a_bad_proof_path_fails_first() {
    let dir = TempDir::new("solve-noproof");
    let file = dir.join("unknown.proof");
    let name = file.display().to_string();
    let o = murus(&[
        "solve", "standard", "--budget", "5000", "--json", "--table", "16", "--proof", &name,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["proof"]["positions"], serde_json::Value::Null, "{j}");
    assert!(
        j["proof"]["note"].as_str().unwrap().contains("unknown"),
        "{j}"
    );
    assert!(!file.exists(), "no file for an unknown value");
    let missing = dir.join("no/such/folder/x.proof").display().to_string();
    let o = murus(&["solve", SMALL, "--proof", &missing]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--proof"), "{}", stderr(&o));
    let o = murus(&["solve", SMALL, "--with-cap", "--proof", "x.proof"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--with-cap"), "{}", stderr(&o));
    let o = murus(&["solve", SMALL, "--threads", "0"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--threads"), "{}", stderr(&o));
}

/// Checks a proof file that `murus solve --proof` wrote for the small
/// boards, by hand: `MURUS_PROOF=/tmp/5x6.proof.gz MURUS_BOARD=5x6 cargo
/// test -p murus-cli --release --test cli -- --ignored --nocapture
/// a_proof_file_named`.
#[test]
#[ignore]
fn a_proof_file_named_by_murus_proof_checks() {
    let path = std::env::var("MURUS_PROOF").expect("MURUS_PROOF=FILE");
    let board = std::env::var("MURUS_BOARD").expect("MURUS_BOARD=FxR");
    let (files, ranks) = board.split_once('x').expect("FxR");
    let set = [
        ("files".to_string(), files.parse().unwrap()),
        ("ranks".to_string(), ranks.parse().unwrap()),
    ];
    let source = std::fs::read_to_string(repo(SMALL)).unwrap();
    let v = murus_engine::Variant::compile_with(&source, &set).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let mut text = String::new();
    if path.ends_with(".gz") {
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut text)
            .unwrap();
    } else {
        text = String::from_utf8(bytes).unwrap();
    }
    let t = std::time::Instant::now();
    let checked = proofcheck::check(&v, &v.start(), &text).unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "{path} ({board}): {checked:?}, checked in {:?}",
        t.elapsed()
    );
}
