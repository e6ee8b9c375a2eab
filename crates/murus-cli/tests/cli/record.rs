//! `murus record import` and `murus record export`, and `murus replay` of
//! a record, through the real binary, on the engine's record test data.

use std::io::Write;
use std::process::Stdio;

use crate::util::{TempDir, command, json, murus, murus_in, repo, stderr, stdout, text};

const DATA: &str = "crates/murus-engine/tests/data/records";

fn data(name: &str) -> String {
    repo(&format!("{DATA}/{name}"))
        .to_string_lossy()
        .into_owned()
}

#[test]
fn the_magazine_game_imports_as_printed_to_34_plies_and_a_gaul_win() {
    let o = murus(&[
        "record",
        "import",
        &data("magazine.txt"),
        "--from",
        "text",
        "--variant",
        "standard",
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["variant"], "standard");
    assert_eq!(j["moves"].as_array().unwrap().len(), 34);
    assert_eq!(j["result"]["winner"], "g");
    assert_eq!(j["result"]["reason"], "resignation");
    assert_eq!(j["moves"][5]["glyph"], "!?");
    assert_eq!(
        j["moves"][5]["comment"],
        "A sharp reply: the Gauls race for the centre."
    );
    assert_eq!(j["moves"][32]["glyph"], "??");
    assert_eq!(j["moves"][0]["variations"], serde_json::json!([]));

    // As text: the canonical record, which imports again to itself.
    let o = murus(&[
        "record",
        "import",
        &data("magazine.txt"),
        "--from",
        "text",
        "--variant",
        "standard",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let canonical = stdout(&o);
    assert!(
        canonical.starts_with("[Variant \"standard\"]\n[Rules \"sha256:"),
        "{canonical}"
    );
    assert!(
        canonical.contains("[Termination \"resignation\"]"),
        "{canonical}"
    );
    assert!(canonical.trim_end().ends_with("0-1"), "{canonical}");
    let dir = TempDir::new("record-magazine");
    let file = dir.write("magazine.mgn", &canonical);
    let again = murus(&["record", "import", file.to_str().unwrap()]);
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(stdout(&again), canonical);
}

#[test]
fn a_custom_variants_record_imports_with_no_rules_file_beside_it() {
    let dir = TempDir::new("record-custom");
    let custom = std::fs::read_to_string(data("custom.mgn")).unwrap();
    let file = dir.write("game.mgn", &custom);
    let o = murus_in(
        &dir,
        &["record", "import", file.to_str().unwrap(), "--json"],
    );
    assert!(o.status.success(), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["variant"], "cramped");
    assert_eq!(j["result"]["winner"], "r");
    // And `murus replay` plays its main line to the end.
    let o = murus_in(&dir, &["replay", file.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let j = json(&o);
    assert_eq!(
        (j["plies"].as_u64(), j["status"].as_str()),
        (Some(9), Some("over"))
    );
}

#[test]
fn an_old_json_game_record_exports_to_the_record_format_and_never_overwrites_silently() {
    let dir = TempDir::new("record-export");
    let old = r#"{"variant":"standard","moves":["h1-h3","d7-f5","f1-d3"],"tags":{"Romans":"Ann"}}"#;
    let input = dir.write("old.json", old);
    let out = dir.join("game.mgn");
    let args = |extra: &[&str]| {
        let mut a = vec![
            "record",
            "export",
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let o = murus(&args(&[]));
    assert!(o.status.success(), "{}", text(&o));
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("[Romans \"Ann\"]"), "{written}");
    assert!(written.contains("1. h1-h3 d7-f5 2. f1-d3 *"), "{written}");

    // A second export to the same file is refused, the file kept.
    std::fs::write(&out, "mine").unwrap();
    let o = murus(&args(&[]));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--force"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
    let o = murus(&args(&["--force"]));
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), written);
}

#[test]
fn a_record_exports_to_json_with_its_variations() {
    let o = murus(&["record", "export", &data("annotated.mgn"), "--to", "json"]);
    assert!(o.status.success(), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["moves"][5]["variations"][0][0]["move"], "e7-e5");
    assert_eq!(j["moves"][5]["variations"][0][0]["comment"], "quieter");
    // The JSON exports back to the same record text.
    let dir = TempDir::new("record-json");
    let file = dir.write("annotated.json", &stdout(&o));
    let back = murus(&["record", "export", file.to_str().unwrap()]);
    let direct = murus(&["record", "export", &data("annotated.mgn")]);
    assert!(back.status.success(), "{}", text(&back));
    assert_eq!(stdout(&back), stdout(&direct));
}

#[test]
fn a_record_reads_from_stdin() {
    let mut child = command()
        .args([
            "record",
            "import",
            "-",
            "--from",
            "text",
            "--variant",
            "standard",
            "--json",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1. h1-h3, d7-f5 2. f1-d3 Resigns.")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["moves"].as_array().unwrap().len(), 3);
    assert_eq!(j["result"]["winner"], "r");
}

#[test]
fn a_bad_record_fails_at_its_line_and_column() {
    let o = murus(&["record", "import", &data("errors/illegal_move.mgn")]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("illegal_move.mgn:4:56: error: `a1-a4` is not legal here"),
        "{err}"
    );
    assert!(err.contains("= note: legal moves: a1-a3"), "{err}");
    assert!(stdout(&o).is_empty());

    let o = murus(&[
        "record",
        "import",
        &data("errors/swallowed.txt"),
        "--from",
        "text",
        "--variant",
        "standard",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("swallowed.txt:4:42: error: this `(` is never closed"),
        "{}",
        text(&o)
    );

    let o = murus(&["record", "import", &data("magazine.txt"), "--from", "text"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--from text needs --variant"),
        "{}",
        text(&o)
    );
}

#[test]
fn replay_passes_over_move_numbers_commas_and_glyphs() {
    let o = murus(&[
        "replay", "standard", "1.", "h1-h3,", "d7-f5!?", "2.", "f1-d3", "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(json(&o)["plies"], 3);
}

/// `murus analyze --game`: the record back, a score after each move, the
/// blunder that lets a win in one go marked `??` with the win as its first
/// variation; the output reads as a record of the same game.
#[test]
fn analyze_game_writes_the_record_back_annotated() {
    let dir = TempDir::new("analyze-game");
    let game = dir.write(
        "blunder.mgn",
        "[Variant \"standard\"]\n[Start \"g2g2g21g2g2g2g2/8/3r24/8/8/8/r2r2r21r2r2r2r2 r\"]\n\n1. d5-d3 a7-a5 *\n",
    );
    let out = dir.join("annotated.mgn");
    let args = [
        "analyze",
        "--game",
        game.to_str().unwrap(),
        "--depth",
        "3",
        "--out",
        out.to_str().unwrap(),
    ];
    let o = murus(&args);
    assert!(o.status.success(), "{}", text(&o));
    assert!(stderr(&o).contains("reviewed 3 positions"), "{}", text(&o));
    let annotated = std::fs::read_to_string(&out).unwrap();
    // One line, whatever the wrapping.
    let annotated = annotated.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(annotated.contains("1. d5-d3?? {"), "{annotated}");
    assert!(
        annotated.contains("(1. d5-d7 { better: Romans win in 1 ply (depth 1) })"),
        "{annotated}"
    );
    let j = json(&murus(&[
        "record",
        "import",
        out.to_str().unwrap(),
        "--json",
    ]));
    let moves: Vec<&str> = j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["d5-d3", "a7-a5"]);
    assert!(
        j["moves"][1]["comment"].is_string(),
        "a score after every move"
    );
    // The file is not replaced without --force.
    let o = murus(&args);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--force"), "{}", text(&o));
}

/// The import corpus (`import/expected` in the engine's record data), as
/// `murus record import --from text` sees it: every ply and the result of
/// each game that reads, in the canonical text that `record import` and
/// `record export` of that text give back byte for byte; every game that
/// does not read fails with status 1 at `FILE:LINE:COL`.
#[test]
fn the_import_corpus_imports_every_ply_or_fails_at_its_line_and_column() {
    let list = std::fs::read_to_string(data("import/expected")).unwrap();
    let dir = TempDir::new("record-corpus");
    let mut checked = 0;
    for line in list
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let w: Vec<&str> = line.split_whitespace().collect();
        let (file, variant) = (w[0], w[1]);
        let path = data(&format!("import/{file}"));
        let import = |json: bool| {
            let mut args = vec![
                "record",
                "import",
                &path,
                "--from",
                "text",
                "--variant",
                variant,
            ];
            if json {
                args.push("--json");
            }
            murus(&args)
        };
        match w[2..] {
            [plies, "plies", result] => {
                let o = import(true);
                assert!(o.status.success(), "{file}: {}", text(&o));
                let j = json(&o);
                let moves = j["moves"].as_array().unwrap();
                assert_eq!(moves.len().to_string(), plies, "{file}");
                for m in moves {
                    let m = m["move"].as_str().unwrap();
                    assert!(
                        m.chars().all(|c| c.is_ascii() && !c.is_ascii_uppercase()),
                        "{file}: `{m}` is not in the notation's characters"
                    );
                }
                let o = import(false);
                assert!(o.status.success(), "{file}: {}", text(&o));
                let canonical = stdout(&o);
                assert!(
                    canonical.contains(&format!("[Result \"{result}\"]")),
                    "{file}: {canonical}"
                );
                let saved = dir.write(&file.replace(".txt", ".mgn"), &canonical);
                let saved = saved.to_str().unwrap();
                for again in [
                    murus(&["record", "import", saved]),
                    murus(&["record", "export", saved]),
                ] {
                    assert!(again.status.success(), "{file}: {}", text(&again));
                    assert_eq!(stdout(&again), canonical, "{file}");
                }
            }
            ["error", at] => {
                let o = import(false);
                assert_eq!(o.status.code(), Some(1), "{file}: {}", text(&o));
                assert!(
                    stderr(&o).contains(&format!("{file}:{at}: error")),
                    "{file}: {}",
                    text(&o)
                );
                assert!(stdout(&o).is_empty(), "{file}: {}", stdout(&o));
            }
            _ => panic!("import/expected: cannot read `{line}`"),
        }
        checked += 1;
    }
    assert!(checked >= 7, "the corpus has its games");
}

/// The game of the issue: en and em dashes and upper-case cells are the
/// notation's characters; all four plies are read, and written in lower case.
#[test]
fn typographic_dashes_and_upper_case_cells_import_every_ply() {
    let mut child = command()
        .args([
            "record",
            "import",
            "-",
            "--from",
            "text",
            "--variant",
            "standard",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all("1. H1-H3, d7\u{2013}f5 2. f1\u{2014}d3, a7-a5".as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        stdout(&o).ends_with("\n1. h1-h3 d7-f5 2. f1-d3 a7-a5 *\n"),
        "{}",
        stdout(&o)
    );
}

/// `record import` and `record export` of the same record write the same
/// canonical text, the `Rules` tag included and just after `Variant`
/// wherever the record had it, and the same JSON.
#[test]
fn import_and_export_write_the_same_canonical_text_rules_tag_included() {
    let dir = TempDir::new("record-canonical");
    let bare = dir.write(
        "bare.mgn",
        "[Variant \"standard\"]\n[Romans \"A. Legatus\"]\n\n1. H1\u{2013}H3 d7-f5 *\n",
    );
    let hashed = dir.write(
        "hashed.mgn",
        "[Romans \"A. Legatus\"]\n[Variant \"standard\"]\n[Rules \"sha256:b623410a9af49934519604b9c93e24a1f3d05258d64c5a214dbfb2f594012f71\"]\n\n1. h1-h3 d7-f5 *\n",
    );
    let expected = "[Variant \"standard\"]\n[Rules \"sha256:b623410a9af49934519604b9c93e24a1f3d05258d64c5a214dbfb2f594012f71\"]\n[Romans \"A. Legatus\"]\n[Result \"*\"]\n\n1. h1-h3 d7-f5 *\n";
    for file in [&bare, &hashed] {
        let file = file.to_str().unwrap();
        for command in ["import", "export"] {
            let o = murus(&["record", command, file]);
            assert!(o.status.success(), "{command} {file}: {}", text(&o));
            assert_eq!(stdout(&o), expected, "{command} {file}");
        }
        let import = murus(&["record", "import", file, "--json"]);
        let export = murus(&["record", "export", file, "--to", "json"]);
        assert_eq!(json(&import), json(&export), "{file}");
        assert!(
            json(&import)["tags"][0][0] == "Rules",
            "{}",
            stdout(&import)
        );
    }
}

/// `murus replay` of a record and more moves numbers the plies from the
/// game's start: the record's two plies, then ply 3 and ply 4.
#[test]
fn a_replay_of_a_record_and_more_moves_numbers_plies_from_the_games_start() {
    let dir = TempDir::new("replay-plies");
    let game = dir.write("game.mgn", "[Variant \"standard\"]\n\n1. h1-h3 d7-f5 *\n");
    let game = game.to_str().unwrap();
    let o = murus(&["replay", game, "2.", "f1-d3", "a7-a4"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("ply 4: `a7-a4` is not legal here"),
        "{}",
        text(&o)
    );
    let o = murus(&["replay", game, "f1\u{2013}d3", "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(json(&o)["plies"], 3);
}

/// A game won by reduction: `replay` says how many stones the loser has
/// left (2 here), not the most the rule allows (6), on the board's
/// "Game over" line, in the outcome, and for a move after the end.
#[test]
fn replay_says_how_many_stones_the_loser_is_down_to() {
    let position = "g2g2g2g2g2g2g2g2/8/8/3g24/3r14/8/r27 g";
    let o = murus(&["replay", "siege", "--position", position, "d4xd3"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Game over: Gauls win by reduction (the loser down to 2 stones)"),
        "{out}"
    );
    assert!(
        out.trim_end()
            .ends_with("\nGauls win by reduction (the loser down to 2 stones)"),
        "{out}"
    );
    assert!(!out.contains("6 stones"), "{out}");
    let o = murus(&["replay", "siege", "--position", position, "d4xd3", "a1-a3"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("ply 2: `a1-a3` cannot be played: the game is over: Gauls win by reduction (the loser down to 2 stones)"),
        "{}",
        text(&o)
    );
}
