//! Positions drawn as text ([`Variant::render`]), for terminals and tests.

use murus_dsl::ShapeKind;

use crate::core::Phase;
use crate::variant::{Position, Variant};

impl Variant {
    /// The position drawn as text, with cell names on the edges.
    pub fn render(&self, pos: &Position) -> String {
        let g = self.geometry();
        let mut out = String::new();
        let token = |s: usize| match self.stack(pos, s) {
            Some((p, h)) => format!("{}{h}", self.letter(p)),
            None => ".".to_string(),
        };
        match g.kind() {
            ShapeKind::Rect => {
                let files: String = (0..g.width())
                    .map(|x| format!("{:<3}", (b'a' + x as u8) as char))
                    .collect();
                let files = format!("    {}\n", files.trim_end());
                out += &files;
                for y in (0..g.height()).rev() {
                    let mut line = String::new();
                    for x in 0..g.width() {
                        let s = y * g.width() + x;
                        let t = if g.exists(s) { token(s) } else { String::new() };
                        line += &format!("{t:<3}");
                    }
                    out += &format!("{:>2}  {line}{}\n", y + 1, y + 1);
                }
                out += &files;
            }
            ShapeKind::Hex => {
                // Cell (x, y) is drawn 4x + 2y characters in: each rank sits
                // half a cell right of the rank below.
                let col = |s: usize| {
                    let (x, y) = g.coords(s);
                    4 * x + 2 * y
                };
                let left = g.cells().map(col).min().unwrap_or(0);
                for y in (0..g.height()).rev() {
                    let cells = g.rank(y + 1);
                    let (Some(&first), Some(&last)) = (cells.first(), cells.last()) else {
                        continue;
                    };
                    let mut line = " ".repeat(col(first) - left);
                    for &s in &cells {
                        line += &format!("{:<4}", token(s));
                    }
                    let range = format!("{}-{}", g.name(first), g.name(last));
                    out += &format!(
                        "{:>2}  {:<w$}  {range}\n",
                        y + 1,
                        line.trim_end(),
                        w = 4 * g.width()
                    );
                }
            }
        }
        let turn = self.turn(pos);
        let player = &self.rules().players[turn];
        match self.outcome(pos) {
            Some(o) => {
                out += &format!("Game over: {}\n", self.describe_outcome_at(o, pos));
            }
            None => {
                out += &format!("{} ({}) to move", player.name, player.letter);
                match self.phase(pos) {
                    Phase::Normal => {}
                    Phase::PieOpen => out += " (pie rule: special first move)",
                    Phase::PieReply => out += " (pie rule: swap or special first move)",
                    Phase::PieSwapped => out += " (pie rule: seats swapped, special first move)",
                }
                out.push('\n');
            }
        }
        out
    }
}
