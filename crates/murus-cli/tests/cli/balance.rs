//! `murus balance`, through the real binary.

use crate::util::{TempDir, murus, stdout, text};

/// The header says the precision as `--precision` took it, in points (it
/// said "precision 0.04" for `--precision 4`).
#[test]
fn the_header_says_the_precision_in_points() {
    let o = murus(&[
        "balance",
        "standard",
        "--levels",
        "random",
        "--precision",
        "4",
        "--max-games",
        "30",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let header = stdout(&o).lines().next().unwrap_or_default().to_string();
    assert!(
        header.contains("precision ±4 points up to 30 games"),
        "{header}"
    );
}

#[test]
fn a_small_check_reports_every_level_the_skill_trace_and_a_verdict() {
    let dir = TempDir::new("small");
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
    assert!(
        csv.starts_with("level,bot,evaluation,games,first_player,"),
        "{csv}"
    );
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

/// Two openings of the standard game, with a comment and a blank line.
const BOOK: &str =
    "# two openings\nd1-d3 e7-e5\n\n[\"a1-c3\", \"h7-f5\"]  # as games.jsonl writes it\n";

#[test]
fn a_check_with_a_book_opens_every_round_from_it_and_names_it() {
    let dir = TempDir::new("book");
    let file = dir.write("openings.txt", BOOK);
    let out = dir.join("check");
    let args = [
        "balance",
        "standard",
        "--levels",
        "random",
        "--games",
        "8",
        "--book",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let o = murus(&args);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("openings from openings.txt (2 lines)"),
        "{}",
        text(&o)
    );
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("balance.json")).unwrap()).unwrap();
    assert_eq!(j["book"]["name"], "openings.txt");
    assert_eq!(j["book"]["lines"], 2);
    assert_eq!(j["book"]["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(j["openings"], 0, "no random plies with a book");
    assert_eq!(j["levels"][0]["report"]["book"], j["book"]);
    // Game i opens with line (i / 2) % 2: both colours of a round alike.
    let lines = [["d1-d3", "e7-e5"], ["a1-c3", "h7-f5"]];
    let games = std::fs::read_to_string(out.join("levels/random/games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 8);
    for line in games.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let i = g["index"].as_u64().unwrap();
        let opening = lines[(i / 2 % 2) as usize];
        assert_eq!(g["moves"][0], opening[0], "game {i}");
        assert_eq!(g["moves"][1], opening[1], "game {i}");
    }
}

#[test]
fn a_bad_book_fails_at_its_line_and_column_before_anything_is_played() {
    let dir = TempDir::new("bad-book");
    // Line 2 plays the Romans' move again on the Gauls' turn.
    let file = dir.write("bad.txt", "d1-d3 e7-e5\nd1-d3 d1-d3\n");
    let f = file.to_str().unwrap();
    let out = dir.join("check");
    let o = murus(&[
        "balance",
        "standard",
        "--levels",
        "random",
        "--games",
        "8",
        "--book",
        f,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains(&format!(
            "{f}:2:7: error: `d1-d3` is not legal at ply 2 (g to move; 20 legal moves)"
        )),
        "{t}"
    );
    assert!(t.contains("legal moves here: a7-c5 "), "{t}");
    assert!(t.contains("not a usable opening book (1 bad line)"), "{t}");
    assert!(!t.contains("panicked"), "{t}");
    assert!(!out.exists(), "nothing is written for a bad book");
    // A book that is missing, or holds no opening, is as clear.
    let o = murus(&["balance", "standard", "--book", "no-such-book.txt"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("--book: no-such-book.txt: "),
        "{}",
        text(&o)
    );
    let empty = dir.write("empty.txt", "# nothing yet\n\n");
    let o = murus(&["balance", "standard", "--book", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("the opening book holds no opening"),
        "{}",
        text(&o)
    );
    assert!(!text(&o).contains("panicked"), "{}", text(&o));
}

#[test]
fn a_book_and_random_openings_are_refused_together() {
    let dir = TempDir::new("book-openings");
    let file = dir.write("openings.txt", BOOK);
    let o = murus(&[
        "balance",
        "standard",
        "--book",
        file.to_str().unwrap(),
        "--openings",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("'--book <FILE>' cannot be used with '--openings <K>'"),
        "{}",
        text(&o)
    );
    // Nor does a merge take a book, and a sweep has none.
    let o = murus(&["balance", "--merge", "a", "b", "--book", "x.txt"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = murus(&["sweep", "standard", "--book", "x.txt"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("unexpected argument '--book'"),
        "{}",
        text(&o)
    );
}

#[test]
fn resuming_a_check_with_a_changed_book_is_refused() {
    let dir = TempDir::new("book-resume");
    let file = dir.write("openings.txt", BOOK);
    let out = dir.join("check");
    let args = [
        "balance",
        "standard",
        "--levels",
        "random",
        "--games",
        "4",
        "--book",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let o = murus(&args);
    assert!(o.status.success(), "{}", text(&o));
    let before = std::fs::read_to_string(out.join("balance.json")).unwrap();
    let mut resume = args.to_vec();
    resume.push("--resume");
    // The same book resumes (nothing left to play).
    let o = murus(&resume);
    assert!(o.status.success(), "{}", text(&o));
    // The file edited: another opening.
    std::fs::write(&file, format!("{BOOK}c1-c3\n")).unwrap();
    let o = murus(&resume);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("holds a different check: opening book openings.txt (2 lines, sha256 "),
        "{t}"
    );
    assert!(t.contains("there, openings.txt (3 lines, sha256 "), "{t}");
    assert!(!t.contains("panicked"), "{t}");
    assert_eq!(
        std::fs::read_to_string(out.join("balance.json")).unwrap(),
        before,
        "the check is left as it was"
    );
}
