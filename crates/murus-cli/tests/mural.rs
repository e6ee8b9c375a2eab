//! `murus mural …` driven through the real binary.

use std::process::{Command, Output};

fn murus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_murus"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const P1: &str = "puzzles/01-puzzle-one.toml";

#[test]
fn mural_check_accepts_the_collection() {
    let files: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles"))
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

#[test]
fn mural_check_reports_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("murus-mural-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "title = \"t\"\nboard = \"3x3\"\nstart = \"r2r21/3/3\"\ntargets = [\"a1\", \"b1\", \"c1\"]\n")
        .expect("write");
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

#[test]
fn mural_solve_json_replays_to_the_target() {
    let o = murus(&["mural", "solve", P1, "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["length"], 12);
    assert_eq!(v["solutions"], 1);
    assert!(v["nodes"].as_u64().is_some());
    let moves: Vec<String> = v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("str").to_string())
        .collect();
    assert_eq!(moves.len(), 12);
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../",
        "puzzles/01-puzzle-one.toml"
    ))
    .expect("p1");
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
    assert_eq!(stdout(&o).trim(), "this position cannot be solved any more");
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
