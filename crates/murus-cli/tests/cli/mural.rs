//! `murus mural …` driven through the real binary.

use std::path::PathBuf;
use std::process::Output;

use crate::util::{TempDir, murus, murus_in, repo, stderr, stdout, text};

const P1: &str = "puzzles/01-puzzle-one.toml";

#[test]
fn mural_check_accepts_the_collection() {
    let files: Vec<String> = std::fs::read_dir(repo("puzzles"))
        .expect("puzzles/")
        .map(|e| {
            format!(
                "puzzles/{}",
                e.expect("entry").file_name().to_string_lossy()
            )
        })
        .collect();
    let mut args = vec!["mural", "check"];
    args.extend(files.iter().map(String::as_str));
    let o = murus(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(stdout(&o).lines().count(), files.len());
}

/// A temporary folder (named after `tag`) holding `bad.toml`, a puzzle with
/// 3 targets for 4 stones (error at 4:11); returns the folder and the file.
fn bad_puzzle(tag: &str) -> (TempDir, PathBuf) {
    let dir = TempDir::new(tag);
    let bad = dir.write(
        "bad.toml",
        "title = \"t\"\nboard = \"3x3\"\nstart = \"r2r21/3/3\"\ntargets = [\"a1\", \"b1\", \"c1\"]\n",
    );
    (dir, bad)
}

/// `check --json` gives each error its notes and its help (a suggested fix,
/// or `null`) as fields of their own.
#[test]
fn mural_check_json_carries_notes_and_help_as_fields() {
    let (dir, bad) = bad_puzzle("json");
    let missing = dir.join("missing.toml");
    let o = murus(&[
        "mural",
        "check",
        "--json",
        bad.to_str().expect("utf-8"),
        missing.to_str().expect("utf-8"),
    ]);
    assert!(!o.status.success());
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(lines.len(), 2, "{}", stdout(&o));
    let e = &lines[0]["errors"][0];
    assert_eq!(e["message"], "3 targets for 4 stones");
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(4), Some(11))
    );
    // `e["help"]` would read a missing key as null too: ask for the key.
    let null = Some(&serde_json::Value::Null);
    assert!(e["notes"].is_array(), "{e}");
    assert_eq!(e.get("help"), null, "{e}");
    let e = &lines[1]["errors"][0];
    assert!(e["notes"].is_array(), "{e}");
    assert_eq!(e.get("help"), null, "{e}");
}

#[test]
fn mural_check_reports_file_line_and_column() {
    let (_dir, bad) = bad_puzzle("cli");
    let o = murus(&["mural", "check", bad.to_str().expect("utf-8")]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.toml:4:11: error: 3 targets for 4 stones"),
        "{err}"
    );
    let o = murus(&["mural", "solve", "no/such/file.toml"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read puzzle file"));
}

/// The example: every cell a target. It loads, and every command
/// proves it unsolvable at once, saying why, in text and JSON.
#[test]
fn mural_with_every_cell_a_target_is_proven_unsolvable_with_its_reason() {
    let dir = TempDir::new("full");
    let cells: Vec<String> = (1..=5)
        .flat_map(|r| ('a'..='e').map(move |f| format!("\"{f}{r}\"")))
        .collect();
    let file = dir.write(
        "full.toml",
        &format!(
            "title = \"full\"\nboard = \"5x5\"\nstart = \"r2r2r2r2r1/r2r2r2r2r1/r2r2r21r1/5/5\"\ntargets = [{}]\n",
            cells.join(", ")
        ),
    );
    let file = file.to_str().expect("utf-8");
    let why = "every cell is a target, but the last move always leaves a cell empty (the cell of the tower it sows)";
    let o = murus(&["mural", "solve", file]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(stdout(&o).trim(), format!("unsolvable: {why}"));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("0 nodes"));
    let v = json_of(&murus(&["mural", "solve", file, "--json"]));
    assert_eq!(
        (v["status"].as_str(), v["reason"].as_str()),
        (Some("unsolvable"), Some(why))
    );
    assert_eq!(v["nodes"], 0);
    let o = murus(&["mural", "count", file]);
    assert_eq!(stdout(&o).trim(), format!("unsolvable: {why}"));
    let v = json_of(&murus(&["mural", "count", file, "--json"]));
    assert_eq!(
        (v["status"].as_str(), v["reason"].as_str()),
        (Some("unsolvable"), Some(why))
    );
    let v = json_of(&murus(&["mural", "hint", file, "--json"]));
    assert_eq!(
        (v["status"].as_str(), v["reason"].as_str()),
        (Some("unsolvable"), Some(why))
    );
    // Solvable answers keep their shape, with no reason.
    let v = json_of(&murus(&["mural", "solve", P1, "--json"]));
    assert_eq!(
        (v["status"].as_str(), &v["reason"]),
        (Some("solved"), &serde_json::Value::Null)
    );
}

#[test]
fn mural_solve_json_replays_to_the_target() {
    let o = murus(&["mural", "solve", P1, "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["length"], 12);
    assert_eq!(v["solutions"], 1);
    assert!(v["nodes"].as_u64().is_some());
    let moves = moves_of(&v);
    assert_eq!(moves.len(), 12);
    let text = std::fs::read_to_string(repo(P1)).expect("p1");
    let p = murus_mural::Puzzle::from_toml(&text).expect("valid");
    let end = murus_mural::replay_with_engine(&p, &moves).expect("the engine accepts every move");
    assert!(
        p.parse_grid(&end).expect("grid").is_solved(&p.targets),
        "{end}"
    );
}

#[test]
fn mural_count_and_hint() {
    let o = murus(&["mural", "count", P1]);
    assert!(o.status.success());
    assert!(
        stdout(&o).contains("optimal length 12; 1 distinct minimal solution (2772 orderings)"),
        "{}",
        stdout(&o)
    );
    let o = murus(&["mural", "hint", P1, "--moves", "c5-e5", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["status"], "solvable");
    let o = murus(&["mural", "hint", P1, "--moves", "c5-e3", "e4-c4"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o).trim(),
        "this position cannot be solved any more: the towers on b2, d2, b4 and d4 can never move: every sowing line of each runs through another of them, and nothing ever lands on a tower"
    );
    let o = murus(&["mural", "hint", P1, "--moves", "a1-a9"]);
    assert!(!o.status.success());
}

#[test]
fn mural_generate_is_deterministic_and_loadable() {
    let a = murus(&[
        "mural",
        "generate",
        "--board",
        "5x5",
        "--difficulty",
        "easy",
        "--count",
        "3",
        "--seed",
        "5",
    ]);
    let b = murus(&[
        "mural",
        "generate",
        "--board",
        "5x5",
        "--difficulty",
        "easy",
        "--count",
        "3",
        "--seed",
        "5",
    ]);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(stdout(&a), stdout(&b));
    for chunk in stdout(&a).split("\n\n") {
        let p = murus_mural::Puzzle::from_toml(chunk).expect("generated puzzles load");
        assert_eq!(p.difficulty.as_deref(), Some("easy"));
    }
    let o = murus(&["mural", "generate", "--colours", "1", "--sacrifice"]);
    assert!(!o.status.success());
}

fn json_of(o: &Output) -> serde_json::Value {
    serde_json::from_str(stdout(o).trim()).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

/// The `moves` of a `solve --json` answer.
fn moves_of(v: &serde_json::Value) -> Vec<String> {
    v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("str").to_string())
        .collect()
}

fn load(path: &str) -> murus_mural::Puzzle {
    let text = std::fs::read_to_string(repo(path)).expect("readable");
    murus_mural::Puzzle::from_toml(&text).expect("valid")
}

#[test]
fn mural_hint_on_a_solved_position_says_solved() {
    let o = murus(&["mural", "solve", P1, "--json"]);
    let v = json_of(&o);
    let moves = moves_of(&v);
    assert_eq!(moves.len(), 12);
    let mut args = vec!["mural", "hint", P1, "--moves"];
    args.extend(moves.iter().map(String::as_str));
    let o = murus(&args);
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim(), "already solved: no move is left to play");
    args.push("--json");
    let o = murus(&args);
    assert!(o.status.success());
    let v = json_of(&o);
    assert_eq!(v["status"], "solved");
    assert!(v["move"].is_null());
    // One move short of the end: the last move.
    let mut args = vec!["mural", "hint", P1, "--json", "--moves"];
    args.extend(moves[..11].iter().map(String::as_str));
    let v = json_of(&murus(&args));
    assert_eq!(v["status"], "solvable");
    assert_eq!(v["move"], moves[11]);
}

#[test]
fn mural_counts_out_of_budget_are_null_not_partial() {
    // 07: the optimal solve takes about 350 nodes, the count about 7 500.
    let hard = "puzzles/07-5x5-hard.toml";
    let o = murus(&["mural", "solve", hard, "--budget", "2000", "--json"]);
    assert!(o.status.success());
    let v = json_of(&o);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["length"], 11);
    assert!(v["solutions"].is_null(), "{v}");
    let o = murus(&["mural", "solve", hard, "--budget", "2000"]);
    assert!(
        stdout(&o).contains("distinct minimal solutions: unproven"),
        "{}",
        stdout(&o)
    );
    let o = murus(&["mural", "count", hard, "--budget", "2000", "--json"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "unproven exits with 2, as solve does"
    );
    let v = json_of(&o);
    assert_eq!(v["status"], "unproven");
    assert_eq!(v["length"], 11, "the length is proven");
    assert!(v["solutions"].is_null(), "{v}");
    assert!(v["orderings"].is_null(), "{v}");
    assert!(
        v["difficulty"].is_null(),
        "no rating from a partial count: {v}"
    );
    let o = murus(&["mural", "count", hard, "--budget", "2000"]);
    assert!(
        stdout(&o).contains("optimal length 11; distinct minimal solutions: unproven"),
        "{}",
        stdout(&o)
    );
    // Enough budget: the numbers.
    let v = json_of(&murus(&["mural", "solve", hard, "--json"]));
    assert_eq!(v["solutions"], 1);
    let v = json_of(&murus(&["mural", "count", hard, "--json"]));
    assert_eq!(
        (v["status"].as_str(), v["solutions"].as_u64()),
        (Some("solved"), Some(1))
    );
    assert!(v["difficulty"]["band"].is_string());
}

#[test]
fn mural_check_json_lists_the_diagnostics() {
    let dir = TempDir::new("check-json");
    let bad = dir.write(
        "bad-json.toml",
        "title = \"t\"\nboard = \"3x3\"\nsacrifice = true\nstart = \"r2r21/3/3\"\ntargets = [\"a1\", \"b1\"]\n",
    );
    let o = murus(&["mural", "check", bad.to_str().expect("utf-8"), P1, "--json"]);
    assert!(!o.status.success());
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["ok"], false);
    let errors = lines[0]["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), 1);
    assert_eq!(
        (errors[0]["line"].as_u64(), errors[0]["column"].as_u64()),
        (Some(3), Some(13))
    );
    assert!(
        errors[0]["message"]
            .as_str()
            .expect("message")
            .contains("sacrifice"),
        "{}",
        errors[0]
    );
    assert_eq!(lines[1]["ok"], true);
    let o = murus(&["mural", "check", "no/such/file.toml", "--json"]);
    let v = json_of(&o);
    assert_eq!(v["ok"], false);
    assert!(
        v["errors"][0]["message"]
            .as_str()
            .expect("message")
            .contains("cannot read")
    );
    assert!(v["errors"][0]["line"].is_null());
}

#[test]
fn mural_check_accepts_a_start_over_several_lines() {
    let text = std::fs::read_to_string(repo(P1)).expect("p1").replace(
        "start = \"r21r22/1r22r2/r21r22/1r2r2r21/r21r21r2\"",
        "start = \"\"\"\n  r21r22\n  1r22r2\n  r21r22\n  1r2r2r21\n  r21r21r2\n\"\"\"",
    );
    assert!(text.contains("\"\"\""));
    let dir = TempDir::new("multi-line");
    let f = dir.write("multi-line.toml", &text);
    let o = murus(&["mural", "check", f.to_str().expect("utf-8")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = json_of(&murus(&[
        "mural",
        "solve",
        f.to_str().expect("utf-8"),
        "--json",
    ]));
    assert_eq!(
        (v["length"].as_u64(), v["solutions"].as_u64()),
        (Some(12), Some(1))
    );
}

#[test]
fn mural_solve_any_replays_with_the_engine() {
    for file in [
        P1,
        "puzzles/07-5x5-hard.toml",
        "puzzles/15-5x5-hard.toml",
        "puzzles/24-8x7-hard.toml",
        "puzzles/30-hex-4-hard.toml",
        "puzzles/32-6x6-hard.toml",
    ] {
        let o = murus(&["mural", "solve", file, "--any", "--json"]);
        assert!(o.status.success(), "{file}");
        let v = json_of(&o);
        assert_eq!(v["status"], "solved", "{file}");
        assert!(v["solutions"].is_null(), "--any does not count");
        let moves = moves_of(&v);
        assert_eq!(v["length"].as_u64(), Some(moves.len() as u64));
        let p = load(file);
        let end =
            murus_mural::replay_with_engine(&p, &moves).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            p.parse_grid(&end).expect("grid").is_solved(&p.targets),
            "{file}: {end}"
        );
    }
}

/// Out of budget, a hint is "unproven" with exit code 2 in text as in
/// JSON, as `solve` and `count` are (it was an error with exit code 1 in
/// text).
#[test]
fn mural_hint_out_of_budget_is_unproven_with_exit_code_2_in_text_too() {
    let hard = "puzzles/07-5x5-hard.toml";
    let o = murus(&["mural", "hint", hard, "--budget", "10"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(stdout(&o), "unproven: no hint within 10 nodes\n");
    let o = murus(&["mural", "hint", hard, "--budget", "10", "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let v = json_of(&o);
    assert_eq!(v["status"], "unproven");
    assert!(v["move"].is_null() && v["reason"].is_null(), "{v}");
}

/// With `--out` each puzzle is written to a file of its own; the text
/// names the files, and `--json` stays JSON (a line a puzzle, naming its
/// file) instead of turning into the list of files.
#[test]
fn mural_generate_out_writes_the_files_and_json_names_them() {
    let dir = TempDir::new("generate-out");
    let args = ["mural", "generate", "--count", "2", "--seed", "3", "--out"];
    let o = murus(&[&args[..], &[dir.to_str().unwrap(), "--json"]].concat());
    assert!(o.status.success(), "{}", text(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), 2, "{}", stdout(&o));
    for (i, v) in lines.iter().enumerate() {
        let file = dir.join(format!("generated-3-{}.toml", i + 1));
        assert_eq!(v["file"], file.display().to_string(), "{v}");
        let written = std::fs::read_to_string(&file).unwrap();
        assert_eq!(v["toml"], written.as_str());
        assert!(v["rating"]["band"].is_string(), "{v}");
        murus_mural::Puzzle::from_toml(&written).expect("a generated puzzle loads");
    }
    let again = TempDir::new("generate-out-text");
    let o = murus(&[&args[..], &[again.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", text(&o));
    let files: Vec<String> = (1..=2)
        .map(|i| {
            again
                .join(format!("generated-3-{i}.toml"))
                .display()
                .to_string()
        })
        .collect();
    assert_eq!(stdout(&o), format!("{}\n", files.join("\n")));
}

/// Issue 38: from a folder without `puzzles/`, the shipped puzzles are
/// listed and solved by name (they are built in).
#[test]
fn from_an_empty_folder_the_shipped_puzzles_list_and_solve_by_name() {
    let empty = TempDir::new("mural-anywhere");
    let o = murus_in(&empty, &["mural", "list", "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let v = json_of(&o);
    let names: Vec<&str> = v["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let shipped: Vec<String> = murus_mural::collection::SHIPPED
        .iter()
        .map(|(f, _)| f.trim_end_matches(".toml").to_string())
        .collect();
    assert_eq!(names, shipped);
    let o = murus_in(&empty, &["mural", "list"]);
    assert!(
        stdout(&o)
            .lines()
            .any(|l| l.starts_with("02-5x5-easy ") && l.contains("5x5")),
        "{}",
        text(&o)
    );
    // Columns line up whatever a title's length (a title over 28
    // characters once pushed its line's board out of the column).
    let boards: Vec<usize> = stdout(&o)
        .lines()
        .zip(v["puzzles"].as_array().unwrap())
        .map(|(line, p)| {
            let title = p["title"].as_str().unwrap();
            let after = line.find(title).expect("the title") + title.len();
            let board = after + line[after..].find(p["board"].as_str().unwrap()).unwrap();
            line[..board].chars().count()
        })
        .collect();
    assert_eq!(boards.len(), names.len());
    assert!(boards.iter().all(|&b| b == boards[0]), "{}", stdout(&o));
    let o = murus_in(&empty, &["mural", "solve", "02-5x5-easy", "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!moves_of(&json_of(&o)).is_empty());
    // A name that is neither a file nor a shipped puzzle fails as before.
    let o = murus_in(&empty, &["mural", "check", "nonesuch"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("cannot read puzzle file `nonesuch`"),
        "{}",
        text(&o)
    );
}
