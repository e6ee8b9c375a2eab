//! Writing a record in its canonical text: the tags, the embedded rules,
//! the movetext wrapped at 80 columns, the result.

use murus_dsl::key::text_sha256_hex;

use super::syntax::{RULES_TAG, escape_comment, escape_tag};
use super::{Glyph, Record, RecordMove};
use crate::game::RecordResult;
use crate::variant::{BUILTIN, Variant};

/// The column movetext lines are wrapped at.
const WIDTH: usize = 80;

/// Tags the record keeps in fields of their own; one of these among
/// [`Record::tags`] is not written.
pub(crate) const RESERVED: [&str; 4] = ["Variant", "Start", "Result", "Termination"];

impl Record {
    /// The record in its canonical text (see `docs/records.md`). The
    /// variant gives the result's scores their order and the moves their
    /// numbers; [`super::read`] reads the text back to this record.
    pub fn write(&self, variant: &Variant) -> String {
        let mut out = String::new();
        let tag = |out: &mut String, name: &str, value: &str| {
            out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
        };
        tag(&mut out, "Variant", &self.variant);
        if let Some(hash) = self.tag(RULES_TAG) {
            tag(&mut out, RULES_TAG, hash);
        }
        for (name, value) in &self.tags {
            if !RESERVED.contains(&name.as_str()) && name != RULES_TAG {
                tag(&mut out, name, value);
            }
        }
        if let Some(start) = &self.start {
            tag(&mut out, "Start", start);
        }
        tag(
            &mut out,
            "Result",
            &result_text(self.result.as_ref(), variant),
        );
        if let Some(r) = &self.result {
            if !r.reason.is_empty() {
                let termination = match &r.by {
                    Some(by) => format!("{} by {by}", r.reason),
                    None => r.reason.clone(),
                };
                tag(&mut out, "Termination", &termination);
            }
        }
        if let Some(rules) = &self.rules {
            out.push_str("%rules\n");
            for line in rules.strip_suffix('\n').unwrap_or(rules).split('\n') {
                if line.is_empty() {
                    out.push_str("%\n");
                } else {
                    out.push_str(&format!("% {line}\n"));
                }
            }
            out.push_str("%end\n");
        }
        out.push('\n');

        let tokens: Vec<String> = self
            .movetext(variant)
            .into_iter()
            .map(|t| match t {
                Token::Move {
                    number,
                    text,
                    glyph,
                } => {
                    let number = number.map_or(String::new(), |n| n + " ");
                    format!("{number}{text}{}", glyph.map_or("", Glyph::as_str))
                }
                Token::Comment(c) => comment_token(&c),
                Token::Open => "(".to_string(),
                Token::Close => ")".to_string(),
                Token::Result(r) => r,
            })
            .collect();
        out.push_str(&wrap(&tokens));
        out.push('\n');
        out
    }

    /// The movetext [`Record::write`] writes, as tokens in order: the
    /// opening comment, each move with its number where the text shows one
    /// (`12.`, or `12...` for a later player's move that opens a line or
    /// follows a comment or variation), its comment and variations, and
    /// the result; for another rendering (a page) with the same numbers.
    pub fn movetext(&self, variant: &Variant) -> Vec<Token> {
        let mut tokens = Vec::new();
        if let Some(c) = &self.comment {
            tokens.push(Token::Comment(c.clone()));
        }
        let n = variant.player_count().max(1);
        let first = self
            .start
            .as_deref()
            .and_then(|s| variant.parse_position(s).ok())
            .map_or(0, |p| variant.turn(&p));
        line_from(&self.moves, first, n, 0, &mut tokens);
        tokens.push(Token::Result(result_text(self.result.as_ref(), variant)));
        tokens
    }

    /// Embeds the variant's rules when it is not a shipped variant with this
    /// very text, and sets the `Rules` tag to their SHA-256 either way (first
    /// among the tags, as it is written and read).
    pub fn embed_rules(&mut self, variant: &Variant) {
        let source = variant.source().replace("\r\n", "\n");
        let source = if source.ends_with('\n') {
            source
        } else {
            source + "\n"
        };
        let shipped = BUILTIN
            .iter()
            .any(|(n, s)| *n == variant.name() && *s == variant.source());
        let hashed = if shipped {
            self.rules = None;
            variant.source().to_string()
        } else {
            self.rules = Some(source.clone());
            source
        };
        self.tags.retain(|(k, _)| k != RULES_TAG);
        self.tags.insert(
            0,
            (
                RULES_TAG.to_string(),
                format!("sha256:{}", text_sha256_hex(&hashed)),
            ),
        );
    }
}

/// The result as scores in turn order: `1-0`, `0-1`, `1/2-1/2`, `0-1-0`,
/// `*` when there is none.
fn result_text(result: Option<&RecordResult>, v: &Variant) -> String {
    let n = v.player_count();
    let Some(r) = result else {
        return "*".to_string();
    };
    let scores: Vec<String> = match r.winner {
        None => vec![format!("1/{n}"); n],
        Some(letter) => match v.player_by_letter(letter) {
            Some(w) => (0..n)
                .map(|i| if i == w { "1" } else { "0" }.to_string())
                .collect(),
            None => return "*".to_string(),
        },
    };
    scores.join("-")
}

fn comment_token(text: &str) -> String {
    format!("{{ {} }}", escape_comment(text))
}

/// A piece of a record's movetext ([`Record::movetext`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// A move: its number where the text shows one (`12.`, `12...`), the
    /// move in notation and its glyph.
    Move {
        number: Option<String>,
        text: String,
        glyph: Option<Glyph>,
    },
    /// A comment's text.
    Comment(String),
    /// A variation opens.
    Open,
    /// A variation closes.
    Close,
    /// The result: `1-0`, `0-1`, `1/2-1/2`, `*`.
    Result(String),
}

/// The tokens of a line whose first move is the `ply`-th from a start
/// where player `first` moves, among `n` players.
fn line_from(moves: &[RecordMove], first: usize, n: usize, ply: usize, out: &mut Vec<Token>) {
    let mut numbered = false;
    for (i, m) in moves.iter().enumerate() {
        let p = first + ply + i;
        let round = p / n + 1;
        // The number goes with its move, so that a line never ends between them.
        let number = if p % n == 0 {
            Some(format!("{round}."))
        } else if !numbered {
            Some(format!("{round}..."))
        } else {
            None
        };
        numbered = true;
        out.push(Token::Move {
            number,
            text: m.text.clone(),
            glyph: m.glyph,
        });
        if let Some(c) = &m.comment {
            out.push(Token::Comment(c.clone()));
            numbered = false;
        }
        for line in &m.variations {
            out.push(Token::Open);
            line_from(line, first, n, ply + i, out);
            out.push(Token::Close);
            numbered = false;
        }
    }
}

/// Joins tokens with spaces, wrapping before a token that would pass
/// [`WIDTH`]; no space after `(` or before `)`.
fn wrap(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut col = 0;
    let mut glue = false;
    for t in tokens {
        let first_len = t.split('\n').next().unwrap_or("").chars().count();
        let tight = glue || t == ")";
        if !out.is_empty() && !tight {
            if col + 1 + first_len > WIDTH {
                out.push('\n');
                col = 0;
            } else {
                out.push(' ');
                col += 1;
            }
        }
        out.push_str(t);
        col = match t.rfind('\n') {
            Some(i) => t[i + 1..].chars().count(),
            None => col + first_len,
        };
        glue = t == "(";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_wrap_before_eighty_columns() {
        let tokens: Vec<String> = (0..40).map(|i| format!("{i}. a1-a3")).collect();
        let text = wrap(&tokens);
        assert!(text.lines().count() > 1);
        assert!(text.lines().all(|l| l.chars().count() <= WIDTH), "{text}");
    }
}
