//! Moves as text: [`Variant::move_to_string`] writes the notation,
//! [`Variant::parse_move`] reads it.
//!
//! `a1-c3` sows (origin, farthest cell), `b4xc5` sacrifices one stone and
//! `d5xxd4` two, `d4*f6` throws, `d1:b2,g2` splits a tower under the pie
//! rule (tower, then the two cells in file order), `swap` swaps seats.

use crate::moves::{Action, Move};
use crate::variant::{Position, Variant};

/// A move that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in notation.
    #[error("`{text}` is not a move: {reason}")]
    Malformed { text: String, reason: String },
    /// The text is a move, but not a legal one here.
    #[error("`{text}` is not legal here{}", legal_list(.legal))]
    Illegal { text: String, legal: Vec<String> },
}

fn legal_list(legal: &[String]) -> String {
    if legal.is_empty() {
        "; there are no legal moves (the game is over)".to_string()
    } else {
        format!("; legal moves: {}", legal.join(" "))
    }
}

impl Variant {
    /// A move in notation: `a1-c3`, `b4xc5`, `d5xxd4`, `d4*f6`, `d1:b2,g2`, `swap`.
    pub fn move_to_string(&self, m: Move) -> String {
        let g = self.geometry();
        match m.action() {
            Action::Sow { from, to, .. } => format!("{}-{}", g.name(from), g.name(to)),
            Action::Sacrifice { from, target, rule } => {
                let lose = self.rules().sacrifices.get(rule).map_or(1, |s| s.lose);
                format!(
                    "{}{}{}",
                    g.name(from),
                    "x".repeat(lose as usize),
                    g.name(target)
                )
            }
            Action::Throw { from, to, .. } => format!("{}*{}", g.name(from), g.name(to)),
            Action::Split {
                tower,
                cells: (a, b),
            } => format!("{}:{},{}", g.name(tower), g.name(a), g.name(b)),
            Action::Swap => "swap".to_string(),
        }
    }

    /// Reads a move in notation and checks that it is legal in `pos`.
    pub fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, MoveError> {
        let canonical = self.canonical_move(text)?;
        let legal = self.legal_moves(pos);
        legal
            .iter()
            .copied()
            .find(|&m| self.move_to_string(m) == canonical)
            .ok_or_else(|| MoveError::Illegal {
                text: text.trim().to_string(),
                legal: legal.iter().map(|&m| self.move_to_string(m)).collect(),
            })
    }

    /// Checks the form of a move and that its cells exist; returns it in the
    /// form [`Variant::move_to_string`] writes.
    fn canonical_move(&self, text: &str) -> Result<String, MoveError> {
        let t = text.trim().to_ascii_lowercase();
        let bad = |reason: &str| MoveError::Malformed {
            text: text.trim().to_string(),
            reason: reason.to_string(),
        };
        if t == "swap" {
            return Ok(t);
        }
        let g = self.geometry();
        let cell = |s: &str| -> Result<usize, MoveError> {
            g.parse_cell(s).ok_or_else(|| {
                if is_cell_shaped(s) {
                    bad(&format!("there is no cell `{s}` on this board"))
                } else {
                    bad(&format!(
                        "`{s}` is not a cell name (a file letter and a rank number, like `c3`)"
                    ))
                }
            })
        };
        if let Some((from, rest)) = t.split_once(':') {
            let Some((a, b)) = rest.split_once(',') else {
                return Err(bad("a split is written `d1:b2,g2`"));
            };
            let (f, a, b) = (cell(from)?, cell(a)?, cell(b)?);
            if a == b {
                return Err(bad("a split drops its two stones on two different cells"));
            }
            let (a, b) = (a.min(b), a.max(b));
            return Ok(format!("{}:{},{}", g.name(f), g.name(a), g.name(b)));
        }
        let lead = leading_cell(&t);
        let trail = trailing_cell(&t[lead..]);
        if lead == 0 || trail == 0 {
            return Err(bad(
                "expected a sowing `a1-c3`, a sacrifice `b4xc5`, a throw `d4*f6`, a split `d1:b2,g2` or `swap`",
            ));
        }
        let from = cell(&t[..lead])?;
        let to = cell(&t[t.len() - trail..])?;
        let sep = &t[lead..t.len() - trail];
        let sep_ok =
            sep == "-" || sep == "*" || (!sep.is_empty() && sep.bytes().all(|b| b == b'x'));
        if !sep_ok {
            return Err(bad(
                "between the two cells write `-` (sow), `x` (sacrifice) or `*` (throw)",
            ));
        }
        Ok(format!("{}{sep}{}", g.name(from), g.name(to)))
    }
}

fn is_cell_shaped(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit)
}

/// Length of a leading `[a-z][0-9]+`, or 0.
fn leading_cell(s: &str) -> usize {
    let b = s.as_bytes();
    if b.is_empty() || !b[0].is_ascii_lowercase() {
        return 0;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 { 0 } else { 1 + digits }
}

/// Length of a trailing `[a-z][0-9]+`, or 0.
fn trailing_cell(s: &str) -> usize {
    let b = s.as_bytes();
    let digits = b.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits == b.len() || !b[b.len() - digits - 1].is_ascii_lowercase() {
        return 0;
    }
    digits + 1
}
