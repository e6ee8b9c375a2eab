//! Records: the text format read, written and checked, and printed games
//! read with `read_printed`. The files are in `tests/data/records/`.

use murus_engine::record::{RESIGNATION, read, read_printed, render};
use murus_engine::{Glyph, Record, Variant};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/records/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn printed(name: &str, variant: &str) -> Record {
    let v = Variant::builtin(variant).unwrap();
    let text = data(name);
    read_printed(&text, &v).unwrap_or_else(|d| panic!("{}", render(&d, name, &text)))
}

#[test]
fn the_magazine_game_imports_to_34_plies_and_a_gaul_win_by_resignation() {
    let r = printed("magazine.txt", "standard");
    assert_eq!(r.moves.len(), 34);
    let result = r.result.as_ref().unwrap();
    assert_eq!(result.winner, Some('g'));
    assert_eq!(result.reason, RESIGNATION);
    let comment = |i: usize| r.moves[i].comment.as_deref();
    let glyph = |i: usize| r.moves[i].glyph;
    assert_eq!(
        r.comment.as_deref(),
        Some(
            "Murus Gallicus: Roman Walls against a Gaulish Rush Annotated game from the club championship, round 3."
        )
    );
    assert_eq!(glyph(5), Some(Glyph::Interesting));
    assert_eq!(
        comment(5),
        Some("A sharp reply: the Gauls race for the centre.")
    );
    assert_eq!(r.moves[12].text, "a3-c3");
    assert_eq!(
        comment(12),
        Some("Slow but solid, keeping the left wall together.")
    );
    assert_eq!(comment(13), Some("The Gauls regroup."));
    assert_eq!(glyph(14), Some(Glyph::Good));
    assert_eq!(glyph(18), Some(Glyph::Brilliant));
    assert_eq!(
        comment(19),
        Some("Here the Romans have built their wall at last.")
    );
    assert_eq!(glyph(21), Some(Glyph::Dubious));
    assert_eq!(glyph(24), Some(Glyph::Mistake));
    assert_eq!(comment(28), Some("15. d4xc5 was more forceful."));
    assert_eq!(r.moves[29].text, "f5-f7");
    assert_eq!(glyph(32), Some(Glyph::Blunder));
    assert_eq!(comment(33), Some("and the Roman position collapses."));
    let commented: Vec<usize> = (0..34).filter(|&i| comment(i).is_some()).collect();
    assert_eq!(commented, [5, 12, 13, 19, 28, 33]);
    let glyphs = (0..34).filter(|&i| glyph(i).is_some()).count();
    assert_eq!(glyphs, 6);
}

/// A custom variant's record embeds its rules: it reads with no rules file
/// and no variant given, and the game it holds ended by the rules.
#[test]
fn a_custom_variants_record_opens_with_no_rules_file() {
    let text = data("custom.mgn");
    let (record, v) =
        read(&text, None).unwrap_or_else(|d| panic!("{}", render(&d, "custom.mgn", &text)));
    assert_eq!(v.name(), "cramped");
    assert_eq!(record.rules.as_deref(), Some(data("cramped.mg").as_str()));
    assert_eq!(record.moves.len(), 9);
    let result = record.result.as_ref().unwrap();
    assert_eq!(
        (result.winner, result.reason.as_str(), result.by.as_deref()),
        (Some('r'), "breakthrough", Some("sow"))
    );
    let game = record.replay(&v).unwrap();
    assert!(game.outcome().is_some());
    assert_eq!(
        record.write(&v),
        text,
        "custom.mgn is in the canonical form"
    );
}

/// The book's style: `N.` and `N....` glued to their moves, one move a
/// line, `{ }` comments over two lines; the game ends by the rules.
#[test]
fn a_book_game_with_glued_numbers_reads_move_by_move() {
    let v = Variant::compile(&data("cramped.mg")).unwrap();
    let text = data("book.txt");
    let r = read_printed(&text, &v).unwrap_or_else(|d| panic!("{}", render(&d, "book.txt", &text)));
    let moves: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(
        moves,
        [
            "e1-e3", "e5-c3", "d1-d3", "f5-f3", "c1-e1", "a5-a3", "f1-d3", "b5-b3", "d3-f5"
        ]
    );
    assert_eq!(
        r.moves[0].comment.as_deref(),
        Some("A direct start, aiming at the centre at once.")
    );
    assert_eq!(r.moves[3].glyph, Some(Glyph::Interesting));
    assert_eq!(r.moves[7].glyph, Some(Glyph::Blunder));
    assert_eq!(r.moves[8].glyph, Some(Glyph::Brilliant));
    let result = r.result.unwrap();
    assert_eq!(
        (result.winner, result.reason.as_str()),
        (Some('r'), "breakthrough")
    );
}

/// The newspaper column's style: a pie-rule split and `swap`, commas, a
/// glyph apart from its move, and "Romans resigned." as the last words.
#[test]
fn a_column_with_a_split_a_swap_and_a_resignation_in_prose() {
    let r = printed("column.txt", "pie");
    assert_eq!(r.moves.len(), 13);
    assert_eq!(r.moves[0].text, "h1:b2,g2");
    assert_eq!(r.moves[1].text, "swap");
    assert_eq!(
        r.moves[1].comment.as_deref(),
        Some("The Gauls take the split tower: the pie rule at work.")
    );
    assert_eq!(r.moves[6].glyph, Some(Glyph::Good));
    assert_eq!(r.moves[7].text, "g2-g4");
    assert_eq!(r.moves[12].glyph, Some(Glyph::Blunder));
    let result = r.result.unwrap();
    assert_eq!(result.reason, RESIGNATION);
    let v = Variant::builtin("pie").unwrap();
    let game = Record {
        moves: r.moves.clone(),
        ..Record::default()
    };
    let mut g = murus_engine::Game::new(&v);
    for m in &game.moves {
        g.play_str(&m.text).unwrap();
    }
    // The side to move resigned: the other wins, on the seat the swap gave it.
    let winner = 1 - v.turn(g.position());
    assert_eq!(result.winner, Some(v.letter(winner)));
    assert_eq!(result.winner_seat, Some(g.seat_of(winner)));
}

/// The annotated record reads, with its variations where they were
/// written, and its canonical text reads back to the same record.
#[test]
fn the_annotated_record_reads_with_its_variations() {
    let text = data("annotated.mgn");
    let (r, v) =
        read(&text, None).unwrap_or_else(|d| panic!("{}", render(&d, "annotated.mgn", &text)));
    assert_eq!(r.moves.len(), 34);
    assert_eq!(r.tag("Romans"), Some("A. Legatus"));
    let alt = &r.moves[5].variations[0];
    assert_eq!(alt[0].text, "e7-e5");
    assert_eq!(alt[0].comment.as_deref(), Some("quieter"));
    assert_eq!(alt[1].variations[0][0].text, "c1-c3");
    assert_eq!(
        alt[1].variations[0][0].glyph,
        Some(Glyph::Good),
        "`$1` is `!`"
    );
    assert_eq!(r.moves[28].variations[0][0].text, "d4xc5");
    let written = r.write(&v);
    let (back, _) = read(&written, None).unwrap();
    assert_eq!(back, r);
}

/// Each record in `errors/` fails to read; the snapshot is what the user
/// sees.
#[test]
fn bad_records_are_reported_at_their_line_and_column() {
    insta::glob!("data/records/errors/*.mgn", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        let diags = match read(&text, None) {
            Ok(_) => panic!("{name} read, but it is an error case"),
            Err(d) => d,
        };
        insta::assert_snapshot!(render(&diags, &name, &text));
    });
}

/// Each printed game in `errors/` fails to read as a game of the standard
/// variant, never imported as another game.
#[test]
fn bad_printed_games_are_reported_never_guessed() {
    let v = Variant::standard();
    insta::glob!("data/records/errors/*.txt", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        let diags = match read_printed(&text, &v) {
            Ok(r) => panic!(
                "{name} read as {} moves, but it is an error case",
                r.moves.len()
            ),
            Err(d) => d,
        };
        insta::assert_snapshot!(render(&diags, &name, &text));
    });
}

/// Pieces of printed games and records, for text that goes deep into the
/// readers.
const PIECES: &[&str] = &[
    "1.",
    "1...",
    "2.",
    "2....",
    "h1-h3",
    "d7-f5",
    "f1-d3",
    "a7-a5",
    "swap",
    "d1:b2,g2",
    "(",
    ")",
    "{",
    "}",
    "\n",
    "\n\n",
    " ",
    ",",
    "!?",
    "??",
    "$3",
    "$9",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "Resign.",
    "resigns",
    "[Variant \"standard\"]\n",
    "[Result \"*\"]\n",
    "%rules\n",
    "% x\n",
    "%end\n",
    "\"",
    "\\",
    "½",
    "…",
    "é",
    "a1",
    "-",
    "x",
    ":",
    "\u{2013}",
    "\u{2014}",
    "×",
    "X",
    "H1",
    "D4×C5",
];

proptest::proptest! {
    /// No text makes either reader panic: it reads, or it is an error.
    #[test]
    fn no_text_makes_the_readers_panic(
        picks in proptest::collection::vec(0..PIECES.len(), 0..40),
        raw in "\\PC{0,40}",
    ) {
        let v = Variant::standard();
        let text: String = picks.iter().map(|&i| PIECES[i]).collect();
        for t in [text.as_str(), raw.as_str()] {
            if let Err(d) = read(t, None) {
                let _ = render(&d, "t", t);
            }
            if let Err(d) = read_printed(t, &v) {
                let _ = render(&d, "t", t);
            }
        }
    }
}

/// A file saved by an editor that writes a byte-order mark and CRLF line
/// ends reads as the same record, and as the same printed game.
#[test]
fn a_byte_order_mark_and_crlf_line_ends_are_spaces() {
    let text = data("annotated.mgn");
    let (plain, _) = read(&text, None).unwrap();
    let windows = format!("\u{feff}{}", text.replace('\n', "\r\n"));
    let (back, _) =
        read(&windows, None).unwrap_or_else(|d| panic!("{}", render(&d, "w.mgn", &windows)));
    // Comments keep their line ends as written.
    let strip = |r: &Record| r.write(&Variant::standard()).replace('\r', "");
    assert_eq!(strip(&back), strip(&plain));
    let printed_text = format!("\u{feff}{}", data("magazine.txt").replace('\n', "\r\n"));
    let v = Variant::standard();
    let r = read_printed(&printed_text, &v)
        .unwrap_or_else(|d| panic!("{}", render(&d, "w.txt", &printed_text)));
    assert_eq!(r, printed("magazine.txt", "standard"));
}

/// One game of the import corpus (`tests/data/records/import/expected`):
/// the file, its variant, and what reading it gives.
struct Case {
    file: String,
    variant: String,
    expected: Expected,
}

enum Expected {
    /// Every ply it holds, and the result it prints (`[Result "…"]`).
    Plies(usize, String),
    /// An error at this line and column.
    Error(usize, usize),
}

fn import_corpus() -> Vec<Case> {
    let list = data("import/expected");
    let cases: Vec<Case> = list
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let expected = match w[2..] {
                [n, "plies", result] => Expected::Plies(n.parse().unwrap(), result.to_string()),
                ["error", at] => {
                    let (line, col) = at.split_once(':').unwrap();
                    Expected::Error(line.parse().unwrap(), col.parse().unwrap())
                }
                _ => panic!("expected: cannot read `{l}`"),
            };
            Case {
                file: w[0].to_string(),
                variant: w[1].to_string(),
                expected,
            }
        })
        .collect();
    // Every game in the folder is listed, and every game listed is there.
    let dir = format!("{}/tests/data/records/import", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".txt"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = cases.iter().map(|c| c.file.clone()).collect();
    listed.sort();
    assert_eq!(
        files, listed,
        "import/expected lists every game of the corpus"
    );
    cases
}

/// The import corpus: each printed game reads to every ply it holds and
/// the result it prints, or fails at the line and column the list gives;
/// moves are kept in the notation's characters, whatever dashes and case
/// the printer used.
#[test]
fn the_import_corpus_reads_every_ply_or_fails_where_it_says() {
    let failures: Vec<String> = import_corpus()
        .into_iter()
        .filter_map(|case| check_case(&case).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// What is wrong with how one game of the corpus reads, if anything.
fn check_case(case: &Case) -> Result<(), String> {
    let v = Variant::builtin(&case.variant).unwrap();
    let name = format!("import/{}", case.file);
    let text = data(&name);
    match (read_printed(&text, &v), &case.expected) {
        (Ok(r), Expected::Plies(n, result)) => {
            if r.moves.len() != *n {
                return Err(format!("{name}: {} plies, not {n}", r.moves.len()));
            }
            let written = r.write(&v);
            if !written.contains(&format!("[Result \"{result}\"]")) {
                return Err(format!("{name}: the result is not {result}:\n{written}"));
            }
            if let Some(m) = r.moves.iter().find(|m| {
                !m.text
                    .chars()
                    .all(|c| c.is_ascii() && !c.is_ascii_uppercase())
            }) {
                return Err(format!(
                    "{name}: `{}` is not in the notation's characters",
                    m.text
                ));
            }
            let (back, _) = read(&written, Some(&v)).map_err(|d| render(&d, &name, &written))?;
            if back.moves != r.moves {
                return Err(format!("{name}: the record does not read back"));
            }
            Ok(())
        }
        (Err(d), Expected::Error(line, col)) => {
            let shown = render(&d, &case.file, &text);
            let at = format!("{}:{line}:{col}: error", case.file);
            if shown.starts_with(&at) {
                Ok(())
            } else {
                Err(format!("{name}: expected {at}, got\n{shown}"))
            }
        }
        (Ok(r), Expected::Error(line, col)) => Err(format!(
            "{name} read as {} plies, but it should fail at {line}:{col}",
            r.moves.len()
        )),
        (Err(d), Expected::Plies(n, _)) => Err(format!(
            "{name} should read to {n} plies:\n{}",
            render(&d, &case.file, &text)
        )),
    }
}

/// Brackets within prose stay in its text; a comment in brackets after a
/// move is the text inside them, brackets nested in it kept; a closed
/// bracket holding the next move in sequence (`(if 7... g7-g5 8. e2-g4, …)`)
/// is a line the game did not take.
#[test]
fn brackets_in_prose_are_kept_and_a_closed_bracket_is_never_the_game() {
    let r = printed("import/prose_brackets.txt", "standard");
    let comment = |i: usize| r.moves[i].comment.as_deref();
    assert_eq!(
        r.comment.as_deref(),
        Some("Murus Gallicus (the 2009 rules): Roman Walls against a Gaulish Rush")
    );
    assert_eq!(
        comment(5),
        Some("A sharp reply (and a risky one): the Gauls race for the centre.")
    );
    assert_eq!(r.moves[12].text, "a3-c3");
    assert_eq!(comment(12), Some("if 7... g7-g5 8. e2-g4, the wall holds"));
    assert_eq!(r.moves[13].text, "d5-f7");
    assert_eq!(comment(13), Some("The Gauls regroup (slowly)."));
    assert_eq!(
        comment(19),
        Some("Here the Romans (at last) have built their wall.")
    );
}

/// A record (the record format) read with typographic dashes, `×` and
/// upper-case cells keeps its moves as the notation writes them.
#[test]
fn a_record_with_typeset_moves_is_kept_in_the_notation() {
    let text = "[Variant \"standard\"]\n\n1. H1\u{2013}H3 d7\u{2014}f5 2. F1-D3 (2. a1\u{2212}a3) a7-a5 1\u{2013}0\n";
    let (r, v) = read(text, None).unwrap_or_else(|d| panic!("{}", render(&d, "t.mgn", text)));
    let moves: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["h1-h3", "d7-f5", "f1-d3", "a7-a5"]);
    assert_eq!(r.moves[2].variations[0][0].text, "a1-a3");
    assert_eq!(r.result.as_ref().and_then(|r| r.winner), Some('r'));
    assert!(
        r.write(&v)
            .contains("1. h1-h3 d7-f5 2. f1-d3 (2. a1-a3) 2... a7-a5 1-0")
    );
}

/// A game lost on time (a playtest clock's flag fell) is written with its
/// `Termination` tag and reads back as the same result.
#[test]
fn a_game_lost_on_time_round_trips_with_its_reason() {
    let v = Variant::builtin("standard").unwrap();
    let mut g = murus_engine::Game::new(&v);
    let first = g.legal_moves()[0];
    assert!(g.play(first));
    let mut record = Record {
        variant: v.name().to_string(),
        moves: vec![murus_engine::record::RecordMove {
            text: v.move_to_string(first),
            ..Default::default()
        }],
        ..Record::default()
    };
    let loser = v.turn(g.position());
    record.result = Some(murus_engine::RecordResult {
        winner: Some(v.letter(1 - loser)),
        reason: murus_engine::record::TIME.to_string(),
        by: None,
        winner_seat: Some(g.seat_of(1 - loser)),
    });
    let text = record.write(&v);
    assert!(text.contains("[Termination \"time\"]"), "{text}");
    let (back, _) = read(&text, None).unwrap_or_else(|d| panic!("{}", render(&d, "t.mgr", &text)));
    assert_eq!(back.result, record.result, "{text}");
    assert_eq!(back, record, "{text}");
}
