//! The puzzle format beyond the error snapshots: the start as a text grid
//! over several lines, and what sacrifice needs.

use murus_mural::Puzzle;

const ONE_LINE: &str = r#"
title = "Puzzle 1"
board = "5x5"
start = "r21r22/1r22r2/r21r22/1r2r2r21/r21r21r2"
targets = ["a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2", "a3", "b3", "d3", "e3", "a4", "b4", "c4", "d4", "e4", "a5", "b5", "c5", "d5", "e5"]
"#;

fn with_start(start: &str) -> String {
    ONE_LINE.replace(r#""r21r22/1r22r2/r21r22/1r2r2r21/r21r21r2""#, start)
}

#[test]
fn a_start_over_several_lines_is_the_same_start() {
    let one = Puzzle::from_toml(ONE_LINE).expect("valid");
    for start in [
        // One row a line, indented, with blank lines around.
        "\"\"\"\n\n    r21r22\n    1r22r2\n    r21r22\n    1r2r2r21\n    r21r21r2\n\n\"\"\"",
        // Literal string, no indent, rows ending in `/`.
        "'''\nr21r22/\n1r22r2/\nr21r22/\n1r2r2r21/\nr21r21r2\n'''",
        // Lines holding several `/`-separated rows, CRLF line ends.
        "\"\"\"\r\nr21r22/1r22r2\r\n  r21r22\r\n1r2r2r21 / r21r21r2\r\n\"\"\"",
        // Spaces around `/` on one line.
        "\"r21r22 / 1r22r2 / r21r22 / 1r2r2r21 / r21r21r2\"",
    ] {
        let text = with_start(start);
        let p = Puzzle::from_toml(&text)
            .unwrap_or_else(|d| panic!("{}", murus_dsl::render_all(&d, "multi.toml", &text)));
        assert_eq!(p.start, one.start, "{start}");
        assert_eq!(p.grid(&p.start), one.grid(&one.start));
    }
    // `parse_grid` (hint positions, engine replay) reads the same forms.
    let grid = one.grid(&one.start);
    let lines = grid.replace('/', "\n");
    assert_eq!(one.parse_grid(&lines).expect("lines"), one.start);
}

#[test]
fn an_empty_row_is_still_an_error_on_one_line() {
    let text = with_start("\"r21r22//r21r22/1r2r2r21/r21r21r2\"");
    let d = Puzzle::from_toml(&text).expect_err("an empty row");
    assert!(d[0].message.contains("describes 0 cells"), "{:?}", d[0]);
}

#[test]
fn sacrifice_needs_two_colours() {
    // Four stones, two targets: the count would do with sacrifice.
    let one = "title = \"t\"\nboard = \"3x3\"\nsacrifice = true\nstart = \"r2r21/3/3\"\ntargets = [\"a1\", \"b1\"]\n";
    let d = Puzzle::from_toml(one).expect_err("one colour cannot sacrifice");
    assert_eq!(d.len(), 1);
    assert!(d[0].message.contains("with one colour"), "{}", d[0].message);
    assert_eq!(d[0].line_col(one), (3, 13));
    // Listing a single colour is the same.
    let listed = one.replace("sacrifice = true", "sacrifice = true\ncolours = [\"r\"]");
    assert!(Puzzle::from_toml(&listed).is_err());
    // Without sacrifice the same start is fine (one target per stone).
    let off = one.replace("sacrifice = true", "sacrifice = false");
    let off = off.replace("[\"a1\", \"b1\"]", "[\"a1\", \"b1\", \"c1\", \"b3\"]");
    Puzzle::from_toml(&off).expect("valid without sacrifice");
    // Two colours may sacrifice.
    let two = "title = \"t\"\nboard = \"3x3\"\nsacrifice = true\nstart = \"r2g11/3/3\"\ntargets = [\"a3\"]\n";
    assert!(Puzzle::from_toml(two).expect("valid").sacrifice);
}

/// A mural painted into a state that is wrong as a whole (here one stone
/// more than targets) still reads as a puzzle, with its problem, so an
/// editor can show and paint it; text that does not read has no puzzle.
#[test]
fn a_mural_wrong_as_a_whole_reads_with_its_problems() {
    let text = "title = \"x\"\nboard = \"5x1\"\nstart = \"1r2r21r1\"\ntargets = [\"a1\", \"c1\", \"d1\", \"e1\"]\n";
    let d = Puzzle::read(text);
    let p = d.puzzle.expect("a puzzle to show");
    assert_eq!(p.start.stones(), 5);
    let messages: Vec<&str> = d.problems.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["4 targets for 5 stones"]);
    assert_eq!(Puzzle::from_toml(text).map(|_| ()), Err(d.problems));
    for broken in [
        "title = \"x\"\nboard = \"5x\"\nstart = \"\"\ntargets = []\n",
        "title = \"x\"\nboard = \"5x1\"\nstart = \"1r2r2\"\ntargets = [\"a1\"]\n",
        "title = \"x\"\nboard = \"5x1\"\nstart = \"1r2r2r1\"\ntargets = [\"a1\", \"z9\"]\n",
        "title = \"x\"\n",
    ] {
        let d = Puzzle::read(broken);
        assert!(d.puzzle.is_none(), "{broken}");
        assert!(!d.problems.is_empty(), "{broken}");
    }
    // A valid puzzle reads with no problem.
    let d = Puzzle::read(ONE_LINE);
    assert!(d.puzzle.is_some() && d.problems.is_empty());
}

#[test]
fn figures_leave_the_text_and_the_rest_stays_as_written() {
    let text = "# My puzzle\ntitle = \"x\"   # a title\nboard = \"5x1\"\noptimal = 5\nstart = \"1r2r22\"\n  difficulty   = \"easy\"\ntargets = [\"a1\", \"c1\", \"d1\", \"e1\"]\nnotes = \"optimal = 3 is wrong\"\n";
    let bare = Puzzle::text_without_figures(text);
    assert_eq!(
        bare,
        "# My puzzle\ntitle = \"x\"   # a title\nboard = \"5x1\"\nstart = \"1r2r22\"\ntargets = [\"a1\", \"c1\", \"d1\", \"e1\"]\nnotes = \"optimal = 3 is wrong\"\n"
    );
    let p = Puzzle::from_toml(&bare).expect("valid");
    assert_eq!((p.optimal, p.difficulty), (None, None));
    // Nothing to drop: the same text.
    assert_eq!(Puzzle::text_without_figures(&bare), bare);
}
