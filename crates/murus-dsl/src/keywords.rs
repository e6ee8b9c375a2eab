//! The words of the language: every word the grammar gives a fixed meaning,
//! in one list.
//!
//! [`WORDS`] is the only list of them in Rust. The parser's "expected …"
//! messages, its "did you mean" suggestions and its "`letter` is not allowed
//! here" check read it, and so can editors' colouring ([`RESERVED`],
//! [`WordKind`]). A test compares it with the words written in
//! `grammar.pest`, so neither can gain or lose a word alone.
//!
//! ```
//! use murus_dsl::keywords::{self, WordKind};
//!
//! assert_eq!(keywords::find("player").map(|w| w.kind), Some(WordKind::Statement));
//! assert_eq!(keywords::find("wall").map(|w| w.kind), Some(WordKind::Value));
//! assert!(murus_dsl::RESERVED.contains(&"heights"));
//! // `x` joins a board's width and height, but is also a player letter.
//! assert!(!murus_dsl::RESERVED.contains(&"x"));
//! ```

/// What a word of the language does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WordKind {
    /// Opens a top-level statement: `variant`, `player`, `sow`, …
    Statement,
    /// Opens a statement inside a block (`letter`, `heights`) or joins the
    /// parts of one (`on`, `against`, `x`).
    Keyword,
    /// A fixed value: `all`, `immediate`, `wall`, …
    Value,
}

/// A word with a fixed meaning in the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Word {
    /// The word as written.
    pub text: &'static str,
    /// What it does.
    pub kind: WordKind,
    /// Whether the word can mean nothing else. Only `x` is not reserved: it
    /// is also a player letter and a file name.
    pub reserved: bool,
    /// Where a keyword belongs, when it has one place ("belongs in a `sow { … }`
    /// block"), for "`heights` is not allowed here".
    pub belongs: Option<&'static str>,
}

impl Word {
    /// Where the word belongs, as the end of a sentence that starts with the
    /// word: "starts a top-level statement", "belongs in the `win { … }`
    /// block"; `None` for words used in several places.
    pub fn home(&self) -> Option<&'static str> {
        match self.kind {
            WordKind::Statement => Some("starts a top-level statement"),
            _ => self.belongs,
        }
    }
}

const fn statement(text: &'static str) -> Word {
    Word {
        text,
        kind: WordKind::Statement,
        reserved: true,
        belongs: None,
    }
}

const fn keyword(text: &'static str) -> Word {
    Word {
        text,
        kind: WordKind::Keyword,
        reserved: true,
        belongs: None,
    }
}

const fn keyword_in(text: &'static str, belongs: &'static str) -> Word {
    Word {
        belongs: Some(belongs),
        ..keyword(text)
    }
}

const fn value(text: &'static str) -> Word {
    Word {
        text,
        kind: WordKind::Value,
        reserved: true,
        belongs: None,
    }
}

const PLAYER: &str = "belongs in a `player \"…\" { … }` block";

/// Every word of the language, in the grammar's order: the statements, the
/// other keywords, then the values.
pub const WORDS: &[Word] = &[
    statement("variant"),
    statement("title"),
    statement("board"),
    statement("player"),
    statement("turns"),
    statement("setup"),
    statement("stack"),
    statement("sow"),
    statement("sacrifice"),
    statement("catapult"),
    statement("win"),
    statement("draw"),
    statement("opening"),
    statement("param"),
    statement("introduction"),
    statement("caption"),
    keyword("rect"),
    keyword("hex"),
    Word {
        reserved: false,
        ..keyword("x")
    },
    keyword("without"),
    keyword_in("letter", PLAYER),
    keyword_in("colour", PLAYER),
    keyword_in("home", PLAYER),
    keyword_in("forward", PLAYER),
    keyword("on"),
    keyword("limit"),
    keyword_in("heights", "belongs in a `sow { … }` block"),
    keyword_in(
        "directions",
        "belongs in a `sow`, `sacrifice` or `catapult` block",
    ),
    keyword_in("onto", "belongs in a `sow` or `catapult` block"),
    keyword("empty"),
    keyword("own"),
    keyword("enemy"),
    keyword("any"),
    keyword("against"),
    keyword("lose"),
    keyword("remove"),
    keyword("capture"),
    keyword_in("then", "belongs in the `turns` statement"),
    keyword_in(
        "height",
        "belongs in a `catapult { … }` block or after `breakthrough`",
    ),
    keyword_in("range", "belongs in a `catapult { … }` block"),
    keyword_in("breakthrough", "belongs in the `win { … }` block"),
    keyword("by"),
    keyword_in("stalemate", "belongs in the `win { … }` block"),
    keyword_in("occupy", "belongs in the `win { … }` block"),
    keyword_in("count", "belongs in the `win { … }` block"),
    keyword_in("reduced", "belongs in the `win { … }` block"),
    keyword_in("repetition", "belongs in the `draw { … }` block"),
    keyword_in("plies", "belongs in the `draw { … }` block"),
    keyword_in("adjudicate", "belongs in the `draw { … }` block"),
    keyword_in("stacks", "follows `adjudicate by`"),
    keyword_in("mirrored", "follows a step vector such as `(1, 2)`"),
    keyword("pie"),
    keyword("from"),
    keyword("to"),
    keyword("rank"),
    keyword("file"),
    keyword("edge"),
    keyword("cells"),
    keyword_in("default", "belongs in a `param` statement"),
    keyword_in(
        "for",
        "follows `sow`, `sacrifice`, `catapult`, `win` or `stack limit N`",
    ),
    value("all"),
    value("orthogonal"),
    value("diagonal"),
    value("immediate"),
    value("delayed"),
    value("throw"),
    value("loses"),
    value("draws"),
    value("stones"),
    value("towers"),
    value("wall"),
    value("lost"),
];

/// The word `text`, if it is a word of the language.
pub fn find(text: &str) -> Option<&'static Word> {
    WORDS.iter().find(|w| w.text == text)
}

/// Every reserved word (every word of [`WORDS`] but `x`), for telling
/// "unknown keyword" from "misplaced keyword" and for editors' colouring.
pub const RESERVED: &[&str] = &reserved_texts::<{ count_reserved() }>();

const fn count_reserved() -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < WORDS.len() {
        if WORDS[i].reserved {
            n += 1;
        }
        i += 1;
    }
    n
}

const fn reserved_texts<const N: usize>() -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut n) = (0, 0);
    while i < WORDS.len() {
        if WORDS[i].reserved {
            out[n] = WORDS[i].text;
            n += 1;
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::ast::Item;

    /// The string literals of a pest grammar as written (escapes kept, so
    /// `"\n"` is no word), comments left out.
    fn literals(grammar: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut chars = grammar.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '/' if chars.peek() == Some(&'/') => {
                    chars.by_ref().take_while(|&c| c != '\n').for_each(drop);
                }
                '"' => {
                    let mut text = String::new();
                    while let Some(c) = chars.next() {
                        match c {
                            '"' => break,
                            '\\' => {
                                text.push('\\');
                                text.extend(chars.next());
                            }
                            c => text.push(c),
                        }
                    }
                    out.push(text);
                }
                _ => {}
            }
        }
        out
    }

    #[test]
    fn literals_skip_comments_and_keep_escapes() {
        let g = r#"a = { "x" ~ "//" } // "not"
b = { "\"" | "\n" | "y" }"#;
        assert_eq!(literals(g), ["x", "//", "\\\"", "\\n", "y"]);
    }

    /// Every word literal of `grammar.pest` is in [`WORDS`] and every word of
    /// [`WORDS`] is in the grammar: a keyword added to one and not the other
    /// fails here, named.
    #[test]
    fn the_word_list_is_the_grammars_words() {
        let grammar: BTreeSet<String> = literals(include_str!("grammar.pest"))
            .into_iter()
            .filter(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphabetic()))
            .collect();
        let listed: BTreeSet<String> = WORDS.iter().map(|w| w.text.to_string()).collect();
        let unlisted: Vec<&String> = grammar.difference(&listed).collect();
        let ungrammatical: Vec<&String> = listed.difference(&grammar).collect();
        assert!(
            unlisted.is_empty() && ungrammatical.is_empty(),
            "in grammar.pest but not in keywords::WORDS: {unlisted:?}; \
             in keywords::WORDS but not in grammar.pest: {ungrammatical:?}"
        );
        assert!(grammar.len() > 50, "the grammar's words were not found");
        assert_eq!(listed.len(), WORDS.len(), "a word is listed twice");
    }

    #[test]
    fn reserved_is_every_word_but_x() {
        let all: Vec<&str> = WORDS.iter().map(|w| w.text).filter(|&t| t != "x").collect();
        assert_eq!(RESERVED, all.as_slice());
    }

    /// The keywords that messages name for statements and fields (`duplicate
    /// `heights` in `sow``) are words of the list.
    #[test]
    fn statement_names_use_the_words_of_the_list() {
        let src = r##"
            variant "v" title "t" board rect 8 x 7 without cells a1
            player "P" { letter r colour "#000000" home rank 1 forward n }
            turns r setup { r 1 on rank 1 } stack limit 2
            sow { heights 2 directions all onto empty }
            catapult { height 3 directions all range 2 onto empty on empty: wall on enemy: remove 1 }
            win { breakthrough immediate stalemate loses } draw { repetition 3 plies 100 }
            sacrifice { 2 against 1: lose 1, remove 1 } opening pie { r from rank 1 to rank 2 }
            param p = 1..2 default 2
        "##;
        let file = crate::parse(src).expect("parses");
        let mut names: Vec<&str> = Vec::new();
        for item in &file.items {
            names.push(item.keyword());
            let fields: Vec<&str> = match item {
                Item::Player(p) => p.fields.iter().map(|f| f.value.keyword()).collect(),
                Item::Sow(b) => b.fields.iter().map(|f| f.value.keyword()).collect(),
                Item::Catapult(b) => b.fields.iter().map(|f| f.value.keyword()).collect(),
                Item::Win(b) => b.fields.iter().map(|f| f.value.keyword()).collect(),
                Item::Draw(b) => b.fields.iter().map(|f| f.value.keyword()).collect(),
                _ => Vec::new(),
            };
            names.extend(fields);
        }
        assert_eq!(names.len(), 14 + 4 + 3 + 6 + 2 + 2);
        for name in names {
            for word in name.split(' ') {
                assert!(
                    find(word).is_some(),
                    "`{word}` (of `{name}`) is not in WORDS"
                );
            }
        }
    }
}
