//! `murus sheet` and `murus mural sheet` (publishing), through the real
//! binary: what they write, and what they refuse.

use crate::util::{TempDir, json, murus, repo, stderr, text};

#[test]
fn a_rules_sheet_is_written_to_a_new_folder_with_the_figures_of_its_rules() {
    let dir = TempDir::new("sheet");
    let out = dir.join("advanced");
    let o = murus(&[
        "sheet",
        "advanced",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let j = json(&o);
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert_eq!(j["bytes"], html.len(), "{j}");
    assert_eq!(j["figures"], html.matches("<figure").count(), "{j}");
    for kind in [
        "start",
        "sow-empty",
        "blocked",
        "sacrifice",
        "throw",
        "breakthrough",
    ] {
        assert!(html.contains(&format!("data-kind=\"{kind}\"")), "{kind}");
    }
    assert!(!html.contains("data-kind=\"pie\""));
    assert!(html.contains("<h1>Advanced Murus Gallicus</h1>"));
}

#[test]
fn a_rules_sheet_refuses_a_folder_that_is_not_empty_unless_forced() {
    let dir = TempDir::with("sheet-refuse", &[("mine/notes.txt", "keep me")]);
    let out = dir.join("mine");
    let o = murus(&["sheet", "standard", "--out", out.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is not empty; give --force"),
        "{}",
        text(&o)
    );
    assert!(!out.join("index.html").exists(), "nothing written");

    let o = murus(&[
        "sheet",
        "standard",
        "--out",
        out.to_str().unwrap(),
        "--force",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(out.join("index.html").exists());
    assert_eq!(dir.read("mine/notes.txt"), "keep me", "other files stay");

    // A file is not a folder; an unknown variant is named.
    let file = dir.write("file.html", "x");
    let o = murus(&[
        "sheet",
        "standard",
        "--out",
        file.to_str().unwrap(),
        "--force",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is a file, not a folder"),
        "{}",
        text(&o)
    );
    assert_eq!(dir.read("file.html"), "x");
    let o = murus(&["sheet", "nosuch", "--out", dir.join("n").to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("unknown variant `nosuch`"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_rules_file_of_three_players_on_a_hex_board_gets_its_sheet() {
    let dir = TempDir::new("sheet-file");
    let out = dir.join("hex3");
    let rules = repo("variants/hex3-escape.mg");
    let o = murus(&[
        "sheet",
        rules.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--theme",
        "print",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let html = dir.read("hex3/index.html");
    assert!(html.contains("data-kind=\"stalemate\""));
    assert!(
        !html.contains("data-kind=\"breakthrough\""),
        "Escape has none"
    );
    // The start shows the three players' stacks on a hexagon.
    let start = &html[html.find("data-kind=\"start\"").unwrap()..];
    let start = &start[..start.find("</figure>").unwrap()];
    let mut players: Vec<&str> = start
        .split("data-player=\"")
        .skip(1)
        .map(|s| &s[..1])
        .collect();
    players.sort_unstable();
    players.dedup();
    assert_eq!(players.len(), 3, "{players:?}");
    assert!(start.contains("<polygon points="), "hexagonal cells");
}

#[test]
fn a_puzzle_sheet_has_each_puzzle_and_its_solution() {
    let dir = TempDir::new("mural-sheet");
    let out = dir.join("murals");
    let o = murus(&[
        "mural",
        "sheet",
        repo("puzzles/02-5x5-easy.toml").to_str().unwrap(),
        repo("puzzles/28-hex-3-medium.toml").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(json(&o)["figures"], 4);
    let html = dir.read("murals/index.html");
    assert_eq!(html.matches("data-kind=\"mural\"").count(), 2);
    assert_eq!(html.matches("data-kind=\"solution\"").count(), 2);
    assert!(html.contains("<section class=\"page solutions\">"));
    // The solutions' arrows are numbered, the puzzles' are not drawn.
    let solutions = &html[html.find("<section class=\"page solutions\">").unwrap()..];
    assert!(solutions.contains("<g class=\"arrow-number\" data-number=\"1\""));
    assert_eq!(
        html.matches("class=\"arrow-number\"").count(),
        solutions.matches("class=\"arrow-number\"").count()
    );

    // Not again into the same folder without --force.
    let o = murus(&[
        "mural",
        "sheet",
        repo("puzzles/02-5x5-easy.toml").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("give --force"), "{}", text(&o));
    assert_eq!(dir.read("murals/index.html"), html);
}

#[test]
fn a_bad_puzzle_file_is_named_with_its_line_and_column_and_nothing_is_written() {
    let dir = TempDir::with(
        "mural-sheet-bad",
        &[("bad.toml", "title = \"x\"\nboard = \"5x5\"\nstart = 3\n")],
    );
    let out = dir.join("out");
    let bad = dir.join("bad.toml");
    let o = murus(&[
        "mural",
        "sheet",
        repo("puzzles/02-5x5-easy.toml").to_str().unwrap(),
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{}:3:9: error", bad.display())),
        "{err}"
    );
    assert!(err.contains("is not a valid puzzle"), "{err}");
    assert!(!out.exists(), "nothing written");

    let o = murus(&[
        "mural",
        "sheet",
        dir.join("missing.toml").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("missing.toml"), "{}", text(&o));
}
