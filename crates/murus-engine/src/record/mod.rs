//! Annotated game records: tag pairs, moves with glyphs and comments,
//! variations nested to any depth, and the result, in a text format modelled
//! on PGN (see `docs/records.md`).
//!
//! A [`Record`] holds moves as notation text, so it is plain data. [`read`]
//! reads the text format and checks every line against the variant,
//! [`Record::write`] writes it, [`read_printed`] reads a game as printed in
//! a magazine or a book, [`read_collection`] a text of many records, and
//! [`Record::replay`] plays the main line.
//!
//! Errors are [`Diagnostic`]s pointing into the text read, rendered like
//! the rules language's (`murus_dsl::render_all`).

mod check;
mod collection;
mod printed;
mod syntax;
mod write;

use std::collections::BTreeMap;

use murus_dsl::Diagnostic;
use serde::{Deserialize, Serialize};

pub use check::{RESIGNATION, TIME, read};
pub use collection::{read_collection, split_collection};
pub use printed::read_printed;
pub use write::Token;

use crate::game::{Game, GameRecord, RecordError, RecordResult};

/// The dashes typesetters print for a hyphen: hyphen, non-breaking
/// hyphen, figure dash, en dash, em dash and minus sign (‐ ‑ ‒ – — −).
pub const TYPOGRAPHIC_DASHES: [char; 6] = [
    '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2212}',
];

/// A character of a move as printed, in the notation's own: a typographic
/// dash is `-`, a multiplication sign `×` is `x`, and letters are in lower
/// case (`H1–H3` is `h1-h3`, `B4×C5` is `b4xc5`).
pub fn notation_char(c: char) -> char {
    if TYPOGRAPHIC_DASHES.contains(&c) {
        '-'
    } else if c == '×' {
        'x'
    } else {
        c.to_ascii_lowercase()
    }
}

/// A move as printed or typed, in the notation's characters (see
/// [`notation_char`]).
pub fn notation_text(text: &str) -> String {
    text.chars().map(notation_char).collect()
}

/// A word of a move list as typed or pasted: `None` for a move number
/// (`1.`, `1...`) or a lone comma or glyph, else the move without the
/// glyph and commas after it, in the notation's characters (`a1-a3!?,` is
/// `a1-a3`, `H1–H3` is `h1-h3`).
pub fn bare_move(word: &str) -> Option<String> {
    let w = word.trim();
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    let numbered = digits > 0 && w[digits..].bytes().all(|b| b == b'.') && w.len() > digits;
    let w = w.trim_end_matches([',', ';']);
    let w = w.trim_end_matches(['!', '?']);
    (!numbered && !w.is_empty() && !w.ends_with(['.', '…'])).then(|| notation_text(w))
}

/// Renders diagnostics about a record read from `source` like the rules
/// language's (`FILE:LINE:COL: error: …`, the line, a caret), one after
/// another.
pub fn render(diags: &[Diagnostic], file_name: &str, source: &str) -> String {
    diags
        .iter()
        .map(|d| d.render(file_name, source))
        .collect::<Vec<_>>()
        .join("\n")
}
use crate::variant::Variant;

/// A move's annotation glyph, as printed after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Glyph {
    /// `!`: a good move.
    Good,
    /// `?`: a mistake.
    Mistake,
    /// `!!`: a brilliant move.
    Brilliant,
    /// `??`: a blunder.
    Blunder,
    /// `!?`: an interesting move.
    Interesting,
    /// `?!`: a dubious move.
    Dubious,
}

impl Glyph {
    /// Every glyph, in PGN's numeric order ($1 to $6).
    pub const ALL: [Glyph; 6] = [
        Glyph::Good,
        Glyph::Mistake,
        Glyph::Brilliant,
        Glyph::Blunder,
        Glyph::Interesting,
        Glyph::Dubious,
    ];

    /// The glyph as printed: `!`, `?`, `!!`, `??`, `!?`, `?!`.
    pub fn as_str(self) -> &'static str {
        match self {
            Glyph::Good => "!",
            Glyph::Mistake => "?",
            Glyph::Brilliant => "!!",
            Glyph::Blunder => "??",
            Glyph::Interesting => "!?",
            Glyph::Dubious => "?!",
        }
    }

    /// Reads a printed glyph.
    pub fn parse(text: &str) -> Option<Glyph> {
        Glyph::ALL.into_iter().find(|g| g.as_str() == text)
    }

    /// PGN's numeric annotation glyph: `$1` to `$6`.
    pub fn nag(self) -> u8 {
        Glyph::ALL
            .iter()
            .position(|&g| g == self)
            .map_or(0, |i| i as u8 + 1)
    }

    /// A glyph from PGN's numeric annotation glyph.
    pub fn from_nag(nag: u8) -> Option<Glyph> {
        Glyph::ALL.get(usize::from(nag).checked_sub(1)?).copied()
    }
}

impl std::fmt::Display for Glyph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Glyph {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Glyph {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Glyph, D::Error> {
        let text = String::deserialize(d)?;
        Glyph::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("`{text}` is not a glyph")))
    }
}

/// A move of a record, with what is said about it and the lines that could
/// have been played instead of it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordMove {
    /// The move in notation.
    #[serde(rename = "move")]
    pub text: String,
    /// Its glyph.
    #[serde(default)]
    pub glyph: Option<Glyph>,
    /// The comment after it.
    #[serde(default)]
    pub comment: Option<String>,
    /// Lines played instead of this move, from the same position, in order.
    #[serde(default)]
    pub variations: Vec<Vec<RecordMove>>,
}

impl RecordMove {
    /// A bare move.
    pub fn new(text: impl Into<String>) -> RecordMove {
        RecordMove {
            text: text.into(),
            ..RecordMove::default()
        }
    }
}

/// An annotated game record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The variant's name.
    pub variant: String,
    /// Tag pairs other than the variant, the rules, the start position and
    /// the result, in the order read or set (`Rules` keeps the SHA-256).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<(String, String)>,
    /// The rules source, embedded for a variant that is not built in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// The start position string, when not the variant's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The comment before the first move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The main line.
    pub moves: Vec<RecordMove>,
    /// The result, when the game is over (by the rules or by resignation).
    #[serde(default)]
    pub result: Option<RecordResult>,
}

impl Record {
    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing its value where present.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some((_, v)) => *v = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The record of a game stored in the JSON format: its moves without
    /// comments, its tags in name order.
    pub fn from_game_record(g: &GameRecord) -> Record {
        Record {
            variant: g.variant.clone(),
            tags: g.tags.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            start: g.start.clone(),
            moves: g.moves.iter().map(RecordMove::new).collect(),
            result: g.result.clone(),
            ..Record::default()
        }
    }

    /// The main line in the JSON format (comments, glyphs, variations and
    /// the embedded rules are left out).
    pub fn to_game_record(&self) -> GameRecord {
        GameRecord {
            variant: self.variant.clone(),
            start: self.start.clone(),
            moves: self.moves.iter().map(|m| m.text.clone()).collect(),
            result: self.result.clone(),
            tags: self
                .tags
                .iter()
                .cloned()
                .collect::<BTreeMap<String, String>>(),
        }
    }

    /// Plays the main line, checking every move.
    pub fn replay(&self, variant: &Variant) -> Result<Game, RecordError> {
        Game::from_record(variant, &self.to_game_record())
    }

    /// Reads a record from JSON: this record's own shape (moves as objects
    /// with glyphs, comments and variations), or the older game record
    /// ([`GameRecord`], moves as strings).
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        match GameRecord::from_json(text) {
            Ok(g) => Ok(Record::from_game_record(&g)),
            Err(old) => serde_json::from_str(text)
                .map_err(|e| RecordError::Json(format!("{e} (nor is it a game record: {old})"))),
        }
    }

    /// The record as indented JSON: `{"variant", "moves": [{"move", "glyph",
    /// "comment", "variations"}], "result": {"winner", "reason"}, …}`.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("records serialise")
    }

    /// Reads a record in the text format; see [`read`].
    pub fn read(
        source: &str,
        fallback: Option<&Variant>,
    ) -> Result<(Record, Variant), Vec<Diagnostic>> {
        read(source, fallback)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_moves_pass_over_numbers_commas_and_glyphs() {
        let words = [
            "1.", "a1-a3!?,", "b7-b5", ",", "2...", "d1:b2,g2", "!!", "swap",
        ];
        let moves: Vec<String> = words.into_iter().filter_map(bare_move).collect();
        assert_eq!(moves, ["a1-a3", "b7-b5", "d1:b2,g2", "swap"]);
        let typeset = [
            "H1\u{2013}H3",
            "d7\u{2014}f5",
            "B4×C5",
            "d5\u{2212}d3",
            "SWAP",
        ];
        let moves: Vec<String> = typeset.into_iter().filter_map(bare_move).collect();
        assert_eq!(moves, ["h1-h3", "d7-f5", "b4xc5", "d5-d3", "swap"]);
    }

    #[test]
    fn glyphs_read_back_and_number_like_pgn() {
        for g in Glyph::ALL {
            assert_eq!(Glyph::parse(g.as_str()), Some(g));
            assert_eq!(Glyph::from_nag(g.nag()), Some(g));
        }
        assert_eq!(Glyph::Blunder.nag(), 4);
        assert_eq!(Glyph::parse("!!!"), None);
        assert_eq!(Glyph::from_nag(0), None);
        assert_eq!(Glyph::from_nag(7), None);
    }

    #[test]
    fn a_record_serialises_in_the_documented_shape() {
        let mut m = RecordMove::new("a1-a3");
        m.glyph = Some(Glyph::Interesting);
        m.comment = Some("a quiet start".into());
        m.variations.push(vec![RecordMove::new("b1-b3")]);
        let record = Record {
            variant: "standard".into(),
            moves: vec![m],
            ..Record::default()
        };
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(json["moves"][0]["move"], "a1-a3");
        assert_eq!(json["moves"][0]["glyph"], "!?");
        assert_eq!(json["moves"][0]["variations"][0][0]["move"], "b1-b3");
        let back: Record = serde_json::from_value(json).unwrap();
        assert_eq!(back, record);
    }
}
