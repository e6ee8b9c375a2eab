//! `murus diagram` and `murus rules` (publishing), through the real binary.

use crate::util::{TempDir, json, murus, text};

#[test]
fn a_diagram_after_moves_has_the_positions_stacks_its_arrows_and_marks() {
    let dir = TempDir::new("diagram");
    let out = dir.join("after.svg");
    let o = murus(&[
        "diagram",
        "standard",
        "--moves",
        "b1-b3",
        "g7-g5",
        "--last-move",
        "--arrows",
        "c1-c3,d1-f3",
        "--marks",
        "c4",
        "--highlight",
        "a1",
        "--coordinates",
        "--theme",
        "print",
        "--caption",
        "After 1. b1-b3 g7-g5",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["stacks"], 18, "{j}");
    assert_eq!(j["arrows"], 2, "{j}");
    let svg = std::fs::read_to_string(&out).unwrap();
    assert_eq!(svg.matches("class=\"stack\"").count(), 18);
    assert!(
        svg.contains("data-cell=\"b3\" data-player=\"r\" data-height=\"1\""),
        "{svg}"
    );
    assert!(
        svg.contains("data-cell=\"g5\" data-player=\"g\" data-height=\"1\""),
        "{svg}"
    );
    assert!(svg.contains("class=\"arrow\" data-move=\"c1-c3\""));
    assert!(svg.contains("class=\"arrow\" data-move=\"d1-f3\""));
    assert!(svg.contains("class=\"mark\" data-cell=\"c4\""));
    // The last move's cells and the one asked for are shaded.
    for cell in ["g7", "g6", "g5", "a1"] {
        assert!(
            svg.contains(&format!("class=\"highlight\" data-cell=\"{cell}\"")),
            "{cell}"
        );
    }
    assert!(svg.contains(">After 1. b1-b3 g7-g5</text>"));
}

#[test]
fn the_moves_of_one_stack_as_the_articles_draw_them() {
    let dir = TempDir::new("diagram-moves-of");
    let out = dir.join("d4.svg");
    // The Romans' tower on d1: three sowings forward and sideways.
    let o = murus(&[
        "diagram",
        "standard",
        "--moves-of",
        "d1",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let svg = std::fs::read_to_string(&out).unwrap();
    let drawn: Vec<&str> = svg
        .split("class=\"arrow\" data-move=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect();
    assert_eq!(drawn.len(), 3, "{drawn:?}");
    assert!(drawn.iter().all(|m| m.starts_with("d1-")), "{drawn:?}");
    assert_eq!(json(&o)["arrows"], 3);
}

#[test]
fn bad_diagram_options_fail_clearly_and_write_nothing() {
    let dir = TempDir::new("diagram-bad");
    let out = dir.join("d.svg");
    let d = out.to_str().unwrap();
    let png = dir.join("d.png");
    for (args, expected) in [
        (
            vec!["--marks", "z9"],
            "--marks: `z9` is not a cell of the standard board",
        ),
        (
            vec!["--highlight", "a8"],
            "--highlight: `a8` is not a cell of the standard board",
        ),
        (vec!["--arrows", "a1-a9"], "--arrows `a1-a9`: "),
        (vec!["--moves", "b1-b4"], "--moves, move 1: "),
        (vec!["--last-move"], "--last-move: no move was played"),
        (
            vec!["--moves-of", "a7"],
            "--moves-of a7: no stack of the side to move (Romans) is there",
        ),
        (
            vec!["--moves-of", "k1"],
            "--moves-of: `k1` is not a cell of the standard board",
        ),
        (
            vec!["--theme", "sepia"],
            "theme `sepia`: expected `colour` or `print`",
        ),
        (vec!["--position", "nonsense"], ""),
    ] {
        let mut all = vec!["diagram", "standard", "--out", d];
        all.extend(args.iter().copied());
        let o = murus(&all);
        assert!(!o.status.success(), "{args:?}");
        assert!(text(&o).contains(expected), "{args:?}: {}", text(&o));
        assert!(!out.exists(), "{args:?} wrote a file");
    }
    let bmp = dir.join("d.bmp");
    let o = murus(&["diagram", "standard", "--out", bmp.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("diagrams are written as FILE.svg or FILE.png, games as FILE.gif"),
        "{}",
        text(&o)
    );
    assert!(!bmp.exists());
    let o = murus(&[
        "diagram",
        "standard",
        "--scale",
        "0",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("--scale 0: expected a number from 0.25 to 8"),
        "{}",
        text(&o)
    );
    assert!(!png.exists());
}

#[test]
fn a_png_diagram_is_written_at_its_scale() {
    let dir = TempDir::new("diagram-png");
    let (one, two) = (dir.join("one.png"), dir.join("two.png"));
    for (path, scale) in [(&one, "1"), (&two, "2")] {
        let o = murus(&[
            "diagram",
            "hex",
            "--coordinates",
            "--caption",
            "The start",
            "--scale",
            scale,
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o));
    }
    // The width and height of a PNG: bytes 16 to 24 of its header.
    let size = |p: &std::path::Path| {
        let b = std::fs::read(p).unwrap();
        assert_eq!(&b[1..4], b"PNG");
        let word = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        (word(16), word(20))
    };
    let (w, h) = size(&one);
    assert!(w > 400 && h > 400, "{w}x{h}");
    assert_eq!(size(&two), (2 * w, 2 * h));
}

/// `murus rules`: the compiled rules in words, laid out as a rulebook, for
/// a shipped variant and for a rules file, as text and as JSON.
#[test]
fn rules_in_words_for_a_shipped_variant_and_a_rules_file() {
    let o = murus(&["rules", "standard"]);
    assert!(o.status.success(), "{}", text(&o));
    let words = crate::util::stdout(&o);
    assert!(
        words.starts_with("Murus Gallicus\n\n1. Board\n1.1 The board is a rectangle"),
        "{words}"
    );
    assert!(
        words.contains("\n4.2 Sowing. A tower (2 stones) lifts all its stones"),
        "{words}"
    );
    assert!(words.contains("\n    - an own wall (1 stone)\n"), "{words}");
    let o = murus(&["rules", "siege", "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let j = json(&o);
    assert_eq!(j["variant"], "siege");
    assert_eq!(j["title"], "Siege");
    let sections = j["sections"].as_array().unwrap();
    let headings: Vec<&str> = sections
        .iter()
        .map(|s| s["heading"].as_str().unwrap())
        .collect();
    assert_eq!(
        headings,
        [
            "Board", "Players", "Setup", "Moves", "Winning", "Draws", "Opening"
        ]
    );
    // The Romans' own rules under their heading, numbered after the
    // shared ones.
    let winning = &sections[4]["groups"];
    assert_eq!(winning[0]["heading"], serde_json::Value::Null);
    assert_eq!(winning[1]["heading"], "Romans");
    assert_eq!(winning[1]["players"], serde_json::json!(["r"]));
    let reduction = &winning[1]["rules"][1];
    assert_eq!(reduction["number"], "5.3");
    assert_eq!(reduction["name"], "Reduction");
    assert_eq!(
        reduction["text"],
        "Romans lose if they start their turn with at most 6 stones."
    );
    let sowing = &sections[3]["groups"][0]["rules"][1];
    assert_eq!(sowing["list"][0], "an empty cell");
    let o = murus(&["rules", "tests/unseen/ramparts.mg"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(crate::util::stdout(&o).contains("1.2 A stack holds at most 4 stones."));
    let o = murus(&["rules", "nothere"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("unknown variant `nothere`"),
        "{}",
        text(&o)
    );
}

/// A game as an animated GIF: `--moves` and `--out FILE.gif`; options that
/// draw on one position, and a GIF without moves, are refused.
#[test]
fn a_game_is_written_as_a_gif_a_frame_a_ply() {
    let dir = TempDir::new("diagram-gif");
    let out = dir.join("game.gif");
    let path = out.to_str().unwrap();
    let o = murus(&[
        "diagram", "standard", "--moves", "b1-b3", "g7-g5", "--scale", "0.5", "--out", path,
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        crate::util::stdout(&o).contains("(3 frames, a ply each)"),
        "{}",
        text(&o)
    );
    assert_eq!(&std::fs::read(&out).unwrap()[..6], b"GIF89a");
    std::fs::remove_file(&out).unwrap();
    // Without --scale a GIF is at least 400 pixels wide, even of a small
    // board (its width: bytes 6 and 7 of the header).
    let tiny = dir.join("tiny.mg");
    let standard = include_str!("../../../../variants/standard.mg");
    std::fs::write(
        &tiny,
        standard
            .replace("board rect 8 x 7", "board rect 4 x 4")
            .replace("rank 7", "rank 4"),
    )
    .unwrap();
    let small = dir.join("small.gif");
    let o = murus(&[
        "diagram",
        tiny.to_str().unwrap(),
        "--moves",
        "b1-b3",
        "--out",
        small.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let b = std::fs::read(&small).unwrap();
    let width = u16::from_le_bytes([b[6], b[7]]);
    assert!(width >= 400, "{width}");
    for (args, expected) in [
        (
            vec!["--moves", "b1-b3", "--marks", "c4"],
            "draw one position: a GIF draws the game",
        ),
        (vec![], "a GIF draws a game: give its --moves"),
    ] {
        let mut all = vec!["diagram", "standard", "--out", path];
        all.extend(args.iter().copied());
        let o = murus(&all);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(text(&o).contains(expected), "{args:?}: {}", text(&o));
        assert!(!out.exists());
    }
}

/// `murus diagram --help` says it writes games as GIFs.
#[test]
fn the_diagram_help_names_gif() {
    let o = murus(&["diagram", "--help"]);
    assert!(o.status.success(), "{}", text(&o));
    let help = crate::util::stdout(&o);
    assert!(help.contains("animated GIF"), "{help}");
    assert!(help.contains("FILE.gif"), "{help}");
    let o = murus(&["--help"]);
    assert!(crate::util::stdout(&o).contains("animated GIF"));
}
