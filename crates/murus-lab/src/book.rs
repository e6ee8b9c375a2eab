//! Opening books: the openings a run's games start from, read from a text
//! file, instead of random plies.
//!
//! A book is UTF-8 text, one opening a line: moves in the game's notation
//! (`d1-d3`, `b4xc5`, `d4*f6`, `d1:b2,g2`, `swap`) separated by whitespace.
//! `#` starts a comment to the end of the line; blank lines are skipped. A
//! line may also be a move list as the lab writes it in `games.jsonl` (and
//! records hold it): `["d1-d3", "e7-e5"]`. Every line is checked by
//! playing it from the start: a move that does not parse, one that is not
//! legal, and an opening that ends the game are errors naming the file,
//! line and column of the move (`docs/balance.md`).
//!
//! ```
//! use murus_engine::Variant;
//! use murus_lab::book::Book;
//!
//! let v = Variant::standard();
//! let text = "# two openings\nd1-d3 e7-e5\n\n[\"a1-c3\", \"h7-f5\"]  # as games.jsonl writes it\n";
//! let book = Book::parse("two.txt", text, &v).unwrap();
//! assert_eq!(book.len(), 2);
//! assert_eq!(v.move_to_string(book.line(1)[0]), "a1-c3");
//! assert_eq!(book.id().name, "two.txt");
//!
//! let bad = Book::parse("bad.txt", "d1-d3\nd1-d3 d7-d6\n", &v).unwrap_err();
//! assert!(bad.to_string().starts_with("bad.txt:2:7: `d7-d6` is not legal at ply 2"));
//! ```

use std::path::Path;
use std::sync::Arc;

use murus_dsl::{Diagnostic, Span};
use murus_engine::{Game, Move, MoveError, Variant};

use crate::error::LabError;

/// What identifies a book in a run's provenance (the report types' crate
/// holds it: reports name their book).
pub use murus_report::record::BookId;

/// An opening book, checked against one variant: each opening's moves,
/// legal from the start, leaving a game to play.
#[derive(Clone, Debug)]
pub struct Book {
    id: BookId,
    /// Shared with every game that opens with the line.
    lines: Vec<Arc<[Move]>>,
}

/// A move of a line as written: where it starts (a byte offset into the
/// line) and its text.
struct Token<'a> {
    at: usize,
    text: &'a str,
}

/// A problem at a byte range of a line.
struct Problem {
    at: usize,
    len: usize,
    message: String,
    notes: Vec<String>,
}

impl Problem {
    fn new(at: usize, len: usize, message: impl Into<String>) -> Problem {
        Problem {
            at,
            len,
            message: message.into(),
            notes: Vec::new(),
        }
    }
}

impl Book {
    /// Reads the book in file `path` for `variant` ([`Book::parse`]). A
    /// file that cannot be read, or is not UTF-8, is an error naming it.
    pub fn load(path: &Path, variant: &Variant) -> Result<Book, LabError> {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| LabError::Io {
            path: shown.clone(),
            source,
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            // The part before the bad byte is UTF-8: count lines and columns there.
            let before = std::str::from_utf8(good).unwrap_or_default();
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            LabError::Invalid(format!(
                "{shown}:{line}:{column}: not UTF-8 text: an opening book is a text file of moves"
            ))
        })?;
        Book::parse(&shown, &text, variant)
    }

    /// Reads a book's `text` for `variant`; `path` names the file in
    /// messages and gives the book its [name](BookId::name). Every line is
    /// played from the start: each line whose move does not parse or is
    /// not legal, or whose opening ends the game, is reported
    /// ([`LabError::Book`]: the first one's `FILE:LINE:COL`, and every
    /// one rendered like rustc's diagnostics); a book without a line is an
    /// error too.
    pub fn parse(path: &str, text: &str, variant: &Variant) -> Result<Book, LabError> {
        // A byte-order mark is not part of the first line.
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = Vec::new();
        let mut errors: Vec<(usize, Diagnostic)> = Vec::new();
        let mut start = 0;
        for (i, raw) in body.split('\n').enumerate() {
            let line_start = start;
            start += raw.len() + 1;
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            let content = line.find('#').map_or(line, |hash| &line[..hash]);
            if content.trim().is_empty() {
                continue;
            }
            match tokens(content).and_then(|t| play_line(variant, &t)) {
                Ok(moves) => lines.push(Arc::from(moves)),
                Err(p) => {
                    let span = Span::new(line_start + p.at, line_start + p.at + p.len);
                    let mut d = Diagnostic::error(span, p.message);
                    d.notes = p.notes;
                    errors.push((i + 1, d));
                }
            }
        }
        if let Some((line, first)) = errors.first() {
            let (_, column) = first.line_col(body);
            let rendered: Vec<String> = errors.iter().map(|(_, d)| d.render(path, body)).collect();
            return Err(LabError::Book {
                path: path.to_string(),
                line: *line,
                column,
                message: first.message.clone(),
                errors: errors.len(),
                rendered: rendered.join("\n"),
            });
        }
        if lines.is_empty() {
            return Err(LabError::Invalid(format!(
                "{path}: the opening book holds no opening (only blank lines and comments): write one a line, moves separated by spaces"
            )));
        }
        let name = Path::new(path)
            .file_name()
            .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned());
        Ok(Book {
            id: BookId {
                name,
                sha256: crate::source_sha256(text),
                lines: lines.len(),
            },
            lines,
        })
    }

    /// What identifies the book in a run's provenance.
    pub fn id(&self) -> &BookId {
        &self.id
    }

    /// Its number of openings (at least one).
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Always `false`: a book holds at least one opening.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Opening `i` (from 0, in the file's order), modulo the book's size.
    pub fn line(&self, i: usize) -> &[Move] {
        &self.lines[i % self.lines.len()]
    }

    /// The openings in the file's order.
    pub fn lines(&self) -> impl ExactSizeIterator<Item = &[Move]> {
        self.lines.iter().map(|l| &l[..])
    }

    /// The opening of round `round` of a run: the book's lines in turn,
    /// from the first again after the last.
    pub fn line_of_round(&self, round: u64) -> Arc<[Move]> {
        self.lines[(round % self.lines.len() as u64) as usize].clone()
    }
}

/// The moves of a line's text (its comment cut off): words separated by
/// whitespace, or a JSON list of strings (`["d1-d3", "e7-e5"]`).
fn tokens(content: &str) -> Result<Vec<Token<'_>>, Problem> {
    let lead = content.len() - content.trim_start().len();
    if content[lead..].starts_with('[') {
        return json_tokens(content, lead);
    }
    let mut out = Vec::new();
    let mut word: Option<usize> = None;
    for (at, c) in content.char_indices().chain([(content.len(), ' ')]) {
        match (c.is_whitespace(), word) {
            (true, Some(w)) => {
                out.push(Token {
                    at: w,
                    text: &content[w..at],
                });
                word = None;
            }
            (false, None) => word = Some(at),
            _ => {}
        }
    }
    Ok(out)
}

/// The moves of a line written as a JSON list of strings, `[` at byte
/// `open`: what `games.jsonl` and records hold under `moves`.
fn json_tokens(content: &str, open: usize) -> Result<Vec<Token<'_>>, Problem> {
    let bytes = content.as_bytes();
    let skip_ws = |mut i: usize| {
        while i < bytes.len() && (bytes[i] as char).is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let mut out = Vec::new();
    let mut i = skip_ws(open + 1);
    if bytes.get(i) == Some(&b']') {
        return Err(Problem::new(
            open,
            i + 1 - open,
            "an empty move list: an opening needs at least one move",
        ));
    }
    loop {
        if bytes.get(i) != Some(&b'"') {
            return Err(unexpected(
                content,
                i,
                "a move in double quotes, like \"d1-d3\"",
            ));
        }
        let from = i + 1;
        let Some(len) = content[from..].find(['"', '\\']) else {
            return Err(Problem::new(
                i,
                content.len() - i,
                "this quote is never closed",
            ));
        };
        if bytes[from + len] == b'\\' {
            return Err(Problem::new(
                from + len,
                1,
                "a move has no escapes (`\\`): write it as `murus` prints it",
            ));
        }
        out.push(Token {
            at: from,
            text: &content[from..from + len],
        });
        i = skip_ws(from + len + 1);
        match bytes.get(i) {
            Some(b',') => i = skip_ws(i + 1),
            Some(b']') => break,
            _ => return Err(unexpected(content, i, "`,` or `]`")),
        }
    }
    let end = skip_ws(i + 1);
    if end < content.len() {
        return Err(Problem::new(
            end,
            content.len() - end,
            "text after the move list's `]` (a comment starts with `#`)",
        ));
    }
    Ok(out)
}

/// "expected X, found Y" at byte `i` of `content` (Y: the character there,
/// or the end of the line).
fn unexpected(content: &str, i: usize, expected: &str) -> Problem {
    match content[i..].chars().next() {
        Some(c) => Problem::new(i, c.len_utf8(), format!("expected {expected}, found `{c}`")),
        None => Problem::new(
            i,
            0,
            format!("expected {expected}, found the end of the line (a list ends with `]`)"),
        ),
    }
}

/// Plays a line's moves from the start of `v`: its moves, or the first
/// problem (a move that does not parse or is not legal, one that ends the
/// game).
fn play_line(v: &Variant, tokens: &[Token<'_>]) -> Result<Vec<Move>, Problem> {
    let mut game = Game::new(v);
    let mut moves = Vec::with_capacity(tokens.len());
    for (ply, t) in tokens.iter().enumerate() {
        let at = |message: String| Problem::new(t.at, t.text.len(), message);
        let m = match v.parse_move(game.position(), t.text) {
            Ok(m) => m,
            Err(e @ MoveError::Malformed { .. }) => return Err(at(e.to_string())),
            Err(MoveError::Illegal { legal, .. }) => {
                let mover = v.turn(game.position());
                let mut p = at(format!(
                    "`{}` is not legal at ply {} ({} to move; {} legal moves)",
                    t.text,
                    ply + 1,
                    v.letter(mover),
                    legal.len()
                ));
                p.notes.push(if legal.is_empty() {
                    "there are no legal moves here: the game is over".to_string()
                } else {
                    format!("legal moves here: {}", legal.join(" "))
                });
                return Err(p);
            }
        };
        game.play(m);
        moves.push(m);
        if let Some(o) = game.outcome() {
            let mut p = at(format!(
                "`{}` ends the game at ply {} ({}): an opening must leave a game to play",
                t.text,
                ply + 1,
                v.describe_outcome_at(o, game.position())
            ));
            p.notes.push(match tokens.len() - ply - 1 {
                0 => "end the line a ply earlier".to_string(),
                1 => "1 more move follows it: end the line a ply earlier".to_string(),
                n => format!("{n} more moves follow it: end the line a ply earlier"),
            });
            return Err(p);
        }
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> Variant {
        Variant::standard()
    }

    fn texts(v: &Variant, book: &Book) -> Vec<Vec<String>> {
        book.lines()
            .map(|l| l.iter().map(|&m| v.move_to_string(m)).collect())
            .collect()
    }

    /// The one-line message, line, column, error count and rendered
    /// diagnostics of a bad book.
    fn error(text: &str) -> (String, usize, usize, usize, String) {
        let e = Book::parse("book.txt", text, &standard()).unwrap_err();
        let message = e.to_string();
        let LabError::Book {
            line,
            column,
            errors,
            rendered,
            ..
        } = e
        else {
            panic!("expected a book error, got {message}");
        };
        (message, line, column, errors, rendered)
    }

    #[test]
    fn comments_blank_lines_and_both_forms_of_a_line_are_read() {
        let v = standard();
        let text = "# The book of a test\n\
                    \n\
                    d1-d3 e7-e5   # a comment after the moves\r\n\
                    \t  \n\
                    #d1-d3 commented out\n\
                    [\"a1-c3\",\"h7-f5\", \"C1-E3\"]\n\
                    D1-D3\n";
        let book = Book::parse("dir/openings.txt", text, &v).unwrap();
        assert_eq!(
            texts(&v, &book),
            [
                vec!["d1-d3", "e7-e5"],
                vec!["a1-c3", "h7-f5", "c1-e3"],
                vec!["d1-d3"]
            ]
        );
        assert_eq!(book.len(), 3);
        let id = book.id();
        assert_eq!((id.name.as_str(), id.lines), ("openings.txt", 3));
        assert_eq!(id.sha256, crate::source_sha256(text));
        // Rounds take the lines in turn.
        assert_eq!(&book.line_of_round(3)[..], book.line(0));
        assert_eq!(&book.line_of_round(5)[..], book.line(2));
    }

    #[test]
    fn a_byte_order_mark_and_a_last_line_without_newline_are_fine() {
        let v = standard();
        let book = Book::parse("b.txt", "\u{feff}d1-d3\nd1-d3 e7-e5", &v).unwrap();
        assert_eq!(texts(&v, &book), [vec!["d1-d3"], vec!["d1-d3", "e7-e5"]]);
        // The column of a bad move on the first line does not count the mark.
        let e = Book::parse("b.txt", "\u{feff}d1-d3 zz", &v).unwrap_err();
        assert!(e.to_string().starts_with("b.txt:1:7: "), "{e}");
    }

    #[test]
    fn an_illegal_move_names_its_line_column_and_the_legal_moves() {
        let (message, line, column, errors, rendered) = error("d1-d3\n\n  d1-d3 d7-d6 e7-e5\n");
        assert_eq!((line, column, errors), (3, 9, 1));
        assert_eq!(
            message,
            "book.txt:3:9: `d7-d6` is not legal at ply 2 (g to move; 20 legal moves)"
        );
        assert!(rendered.contains("legal moves here: a7-c5 "), "{rendered}");
    }

    #[test]
    fn a_move_that_does_not_parse_names_its_column_and_the_reason() {
        let (message, line, column, ..) = error("# x\nd1-d3 e7e5\n");
        assert_eq!((line, column), (2, 7));
        assert!(
            message
                .starts_with("book.txt:2:7: `e7e5` is not a move: between the two cells write `-`"),
            "{message}"
        );
        let (message, ..) = error("d1-d3 e7-e5 z9-z7\n");
        assert!(
            message.contains("book.txt:1:13: `z9-z7` is not a move: there is no cell `z9`"),
            "{message}"
        );
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        // `é` is two bytes, one column.
        let (message, ..) = error("d1-d3 é-e5\n");
        assert!(message.starts_with("book.txt:1:7: "), "{message}");
        let (message, ..) = error("d1-d3 e7-e5 # é\nd1-d3\t\tx\n");
        assert!(message.starts_with("book.txt:2:8: "), "{message}");
    }

    #[test]
    fn an_opening_that_ends_the_game_is_refused_at_the_move_that_ends_it() {
        // The smallest board: a line into a breakthrough.
        let v = Variant::builtin("small").unwrap();
        let mut game = Game::new(&v);
        let mut line = Vec::new();
        let mut rng = 7u64;
        // Random legal moves until the game ends: that line ends it.
        while game.outcome().is_none() {
            let legal = game.legal_moves();
            rng = crate::seeds::mix(rng);
            let m = legal[(rng % legal.len() as u64) as usize];
            line.push(v.move_to_string(m));
            game.play(m);
        }
        let text = format!("{}\n", line.join(" "));
        let e = Book::parse("end.txt", &text, &v).unwrap_err();
        let column = text.len() - line.last().unwrap().len();
        let expected = format!(
            "end.txt:1:{column}: `{}` ends the game at ply {}",
            line.last().unwrap(),
            line.len()
        );
        assert!(e.to_string().starts_with(&expected), "{e}\n{expected}");
        assert!(
            e.to_string()
                .contains("an opening must leave a game to play")
        );
        // One ply less is a fine opening.
        let shorter = line[..line.len() - 1].join(" ");
        assert!(Book::parse("end.txt", &shorter, &v).is_ok());
    }

    #[test]
    fn every_bad_line_is_reported_the_first_in_the_message() {
        let (message, line, column, errors, rendered) = error("d1-d3 x\nd1-d3\nswap\n");
        assert_eq!((line, column, errors), (1, 7, 2));
        assert!(
            message.ends_with("(and 1 more error in the book)"),
            "{message}"
        );
        assert!(rendered.contains("book.txt:1:7: error: "), "{rendered}");
        assert!(rendered.contains("book.txt:3:1: error: "), "{rendered}");
    }

    #[test]
    fn move_lists_written_as_json_point_at_their_mistakes() {
        let (m, ..) = error("[\"d1-d3\", \"e7-e5\"");
        assert!(
            m.starts_with("book.txt:1:18: expected `,` or `]`, found the end of the line"),
            "{m}"
        );
        let (m, ..) = error("[\"d1-d3\" \"e7-e5\"]");
        assert!(
            m.starts_with("book.txt:1:10: expected `,` or `]`, found `\"`"),
            "{m}"
        );
        let (m, ..) = error("[d1-d3]");
        assert!(
            m.starts_with("book.txt:1:2: expected a move in double quotes"),
            "{m}"
        );
        let (m, ..) = error("[\"d1-d3\"] e7-e5");
        assert!(
            m.starts_with("book.txt:1:11: text after the move list's `]`"),
            "{m}"
        );
        let (m, ..) = error("  [ ]");
        assert!(m.starts_with("book.txt:1:3: an empty move list"), "{m}");
        let (m, ..) = error("[\"d1-d3");
        assert!(
            m.starts_with("book.txt:1:2: this quote is never closed"),
            "{m}"
        );
        let (m, ..) = error("[\"d1\\u002dd3\"]");
        assert!(m.starts_with("book.txt:1:5: a move has no escapes"), "{m}");
        let (m, ..) = error("[\"d1-d3\", \"d7-d6\"]");
        assert!(m.starts_with("book.txt:1:12: `d7-d6` is not legal"), "{m}");
    }

    #[test]
    fn a_book_without_an_opening_is_refused() {
        for text in ["", "\n\n", "# only a comment\n   # another\n"] {
            let e = Book::parse("empty.txt", text, &standard()).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with("empty.txt: the opening book holds no opening"),
                "{e}"
            );
        }
    }

    #[test]
    fn a_missing_or_binary_file_is_an_error_naming_it() {
        let dir = std::env::temp_dir().join(format!("murus-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.txt");
        let e = Book::load(&missing, &standard()).unwrap_err();
        assert!(matches!(e, LabError::Io { .. }), "{e:?}");
        assert!(
            e.to_string().starts_with(&missing.display().to_string()),
            "{e}"
        );
        let binary = dir.join("binary.txt");
        std::fs::write(&binary, b"d1-d3\ne7-e5 \xff\xfe\n").unwrap();
        let e = Book::load(&binary, &standard()).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{}:2:7: not UTF-8 text: an opening book is a text file of moves",
                binary.display()
            )
        );
        let good = dir.join("good.txt");
        std::fs::write(&good, "d1-d3\n").unwrap();
        let book = Book::load(&good, &standard()).unwrap();
        assert_eq!(book.id().name, "good.txt");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn book_ids_describe_themselves_shortly() {
        let id = BookId {
            name: "o.txt".into(),
            sha256: "0123456789abcdef0123".into(),
            lines: 3,
        };
        assert_eq!(id.describe(), "o.txt (3 lines, sha256 0123456789ab…)");
        assert_eq!(BookId::describe_or_none(None), "none");
        let one = BookId { lines: 1, ..id };
        assert_eq!(one.describe(), "o.txt (1 line, sha256 0123456789ab…)");
    }
}
