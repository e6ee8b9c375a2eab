//! Writing a record in its canonical text: the tags, the embedded rules,
//! the movetext wrapped at 80 columns, the result.

use murus_dsl::key::text_sha256_hex;

use super::syntax::{RULES_TAG, escape_comment, escape_tag};
use super::{Record, RecordMove};
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
        let result = result_text(self.result.as_ref(), variant);
        tag(&mut out, "Result", &result);
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

        let mut tokens = Vec::new();
        if let Some(c) = &self.comment {
            tokens.push(comment_token(c));
        }
        let n = variant.player_count().max(1);
        let first = self
            .start
            .as_deref()
            .and_then(|s| variant.parse_position(s).ok())
            .map_or(0, |p| variant.turn(&p));
        line_tokens(&self.moves, first, n, &mut tokens);
        tokens.push(result);
        out.push_str(&wrap(&tokens));
        out.push('\n');
        out
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

/// The tokens of a line whose first move is the `ply`-th from a start
/// where player `first` moves, among `n` players.
fn line_tokens(moves: &[RecordMove], first: usize, n: usize, out: &mut Vec<String>) {
    line_from(moves, first, n, 0, out);
}

fn line_from(moves: &[RecordMove], first: usize, n: usize, ply: usize, out: &mut Vec<String>) {
    let mut numbered = false;
    for (i, m) in moves.iter().enumerate() {
        let p = first + ply + i;
        let round = p / n + 1;
        // The number goes with its move, so that a line never ends between them.
        let mut text = if p % n == 0 {
            format!("{round}. ")
        } else if !numbered {
            format!("{round}... ")
        } else {
            String::new()
        };
        numbered = true;
        text.push_str(&m.text);
        if let Some(g) = m.glyph {
            text.push_str(g.as_str());
        }
        out.push(text);
        if let Some(c) = &m.comment {
            out.push(comment_token(c));
            numbered = false;
        }
        for line in &m.variations {
            out.push("(".to_string());
            line_from(line, first, n, ply + i, out);
            out.push(")".to_string());
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
