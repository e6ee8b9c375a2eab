//! Syntax colouring of rule files for the editor's layouter, with
//! diagnostic spans underlined.

use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, FontId, Stroke};
use murus_dsl::keywords::WordKind;

/// Whether `word` names a direction in rule files: a compass direction or
/// one relative to a player's forward direction, as the language defines
/// them (`forward` alone is the keyword that sets it).
pub fn is_direction(word: &str) -> bool {
    use murus_dsl::geometry::{Relative, SQUARE_DIRECTIONS};
    SQUARE_DIRECTIONS.iter().any(|d| d.name == word)
        || Relative::ALL
            .iter()
            .any(|&(r, name)| name == word && r != Relative::Forward)
}

/// Kinds of token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    Comment,
    String,
    Number,
    Keyword,
    Value,
    Punct,
    Plain,
}

/// Splits source into `(byte range, kind)` tokens covering all of it.
pub fn tokens(src: &str) -> Vec<(std::ops::Range<usize>, Token)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        let kind = if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            Token::Comment
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            if i < b.len() && b[i] == b'"' {
                i += 1;
            }
            Token::String
        } else if c.is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            Token::Number
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
                i += 1;
            }
            let word = &src[start..i];
            // The language's own word list says which words are values.
            match murus_dsl::keywords::find(word) {
                Some(w) if w.kind == WordKind::Value => Token::Value,
                _ if is_direction(word) => Token::Value,
                Some(w) if w.reserved => Token::Keyword,
                _ => Token::Plain,
            }
        } else if b"{}:,".contains(&c) {
            i += 1;
            Token::Punct
        } else {
            // Anything else up to the next interesting byte (keeps UTF-8 whole).
            i += 1;
            while i < b.len() && !src.is_char_boundary(i) {
                i += 1;
            }
            Token::Plain
        };
        out.push((start..i.min(b.len()), kind));
    }
    out
}

fn colour(kind: Token, dark: bool) -> Color32 {
    match (kind, dark) {
        (Token::Comment, _) => Color32::from_rgb(120, 140, 120),
        (Token::String, true) => Color32::from_rgb(230, 190, 110),
        (Token::String, false) => Color32::from_rgb(160, 90, 0),
        (Token::Number, true) => Color32::from_rgb(150, 200, 255),
        (Token::Number, false) => Color32::from_rgb(0, 90, 190),
        (Token::Keyword, true) => Color32::from_rgb(220, 140, 230),
        (Token::Keyword, false) => Color32::from_rgb(140, 30, 160),
        (Token::Value, true) => Color32::from_rgb(120, 220, 200),
        (Token::Value, false) => Color32::from_rgb(0, 120, 110),
        (Token::Punct, true) => Color32::from_gray(170),
        (Token::Punct, false) => Color32::from_gray(90),
        (Token::Plain, true) => Color32::from_gray(225),
        (Token::Plain, false) => Color32::from_gray(20),
    }
}

/// The layout job for `src`: coloured tokens, with the byte ranges in
/// `marks` (diagnostic spans; errors first) underlined in the theme's
/// error or warning colour on a tint.
pub fn highlight(
    src: &str,
    marks: &[(std::ops::Range<usize>, bool)],
    visuals: &egui::Visuals,
    font: FontId,
) -> LayoutJob {
    let dark = visuals.dark_mode;
    let mut job = LayoutJob::default();
    // Cut tokens at mark boundaries so a span can start mid-token.
    let mut cuts: Vec<usize> = marks
        .iter()
        .flat_map(|(r, _)| [r.start.min(src.len()), r.end.min(src.len())])
        .filter(|&c| src.is_char_boundary(c))
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    for (range, kind) in tokens(src) {
        let mut pieces = vec![range.start];
        pieces.extend(
            cuts.iter()
                .copied()
                .filter(|&c| c > range.start && c < range.end),
        );
        pieces.push(range.end);
        for w in pieces.windows(2) {
            let (a, b) = (w[0], w[1]);
            let mut format = TextFormat::simple(font.clone(), colour(kind, dark));
            // A zero-width span (end of file) marks the byte before it.
            let hit = marks.iter().find(|(r, _)| {
                (a < r.end && b > r.start)
                    || (r.start == r.end && a <= r.start && r.start < b.max(a + 1))
            });
            if let Some((_, error)) = hit {
                let c = if *error {
                    visuals.error_fg_color
                } else {
                    visuals.warn_fg_color
                };
                format.underline = Stroke::new(2.0, c);
                format.background = c.gamma_multiply(0.25);
            }
            job.append(&src[a..b], 0.0, format);
        }
    }
    job
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_of_the_language_is_coloured() {
        for &w in murus_dsl::RESERVED {
            let kind = tokens(w)[0].1;
            assert!(
                matches!(kind, Token::Keyword | Token::Value),
                "`{w}` is {kind:?}"
            );
        }
        assert_eq!(tokens("catapult")[0].1, Token::Keyword);
        assert_eq!(tokens("lost")[0].1, Token::Value);
        assert_eq!(tokens("nonsense")[0].1, Token::Plain);
    }

    #[test]
    fn value_words_of_the_language_are_coloured_as_values() {
        for w in murus_dsl::keywords::WORDS {
            if w.kind == WordKind::Value {
                assert_eq!(tokens(w.text)[0].1, Token::Value, "{}", w.text);
            }
        }
        assert_eq!(tokens("x")[0].1, Token::Plain, "`x` is not reserved");
    }

    #[test]
    fn every_direction_of_the_language_is_a_value() {
        for d in murus_dsl::geometry::SQUARE_DIRECTIONS
            .iter()
            .chain(&murus_dsl::geometry::HEX_DIRECTIONS)
        {
            assert_eq!(tokens(d.name)[0].1, Token::Value, "{}", d.name);
        }
        for (_, name) in murus_dsl::geometry::Relative::ALL {
            let want = if name == "forward" {
                Token::Keyword
            } else {
                Token::Value
            };
            assert_eq!(tokens(name)[0].1, want, "{name}");
        }
    }

    #[test]
    fn tokens_cover_the_source_exactly() {
        let src = "variant \"x\" // hi\nboard rect 8 x 7\nsow { directions all }\n£é";
        let t = tokens(src);
        let mut at = 0;
        for (r, _) in &t {
            assert_eq!(r.start, at);
            at = r.end;
        }
        assert_eq!(at, src.len());
        assert!(
            t.iter()
                .any(|(r, k)| &src[r.clone()] == "variant" && *k == Token::Keyword)
        );
        assert!(
            t.iter()
                .any(|(r, k)| &src[r.clone()] == "// hi" && *k == Token::Comment)
        );
    }

    #[test]
    fn marks_split_tokens_without_losing_text() {
        let src = "board rect 8 x 9";
        let job = highlight(
            src,
            &[(13..14, true), (16..16, true)],
            &egui::Visuals::dark(),
            FontId::monospace(12.0),
        );
        assert_eq!(job.text, src);
    }
}
