//! The `opening pie { … }` block: each player's first action.

use super::Lowerer;
use super::cellset::eval_cellset;
use crate::ast::*;
use crate::diagnostic::{Diagnostic, Span};
use crate::rules::Opening;

impl Lowerer {
    pub(super) fn lower_opening(&mut self, block: &Block<PieLine>) -> Option<Opening> {
        let n = self.players.len();
        if n != 2 {
            self.error(
                block.head,
                format!("the pie rule needs exactly two players, this variant has {n}"),
            );
            return None;
        }
        let mut from: [Option<Vec<usize>>; 2] = [None, None];
        let mut to: [Option<Vec<usize>>; 2] = [None, None];
        let mut first_line: [Option<Span>; 2] = [None, None];
        let mut ok = true;
        for line in &block.fields {
            let Some(p) = self.player_index(&line.value.player) else {
                ok = false;
                continue;
            };
            if let Some(first) = first_line[p] {
                self.push(
                    Diagnostic::error(
                        line.value.player.span,
                        format!("duplicate pie line for {}", self.players[p].describe()),
                    )
                    .with_label(first, "first defined here"),
                );
                ok = false;
                continue;
            }
            first_line[p] = Some(line.span);
            let Some(g) = &self.geometry else {
                ok = false;
                continue;
            };
            let f = eval_cellset(g, &line.value.from, &mut self.diags);
            let t = eval_cellset(g, &line.value.to, &mut self.diags);
            if let Some(f) = &f {
                if f.is_empty() {
                    self.error(line.value.from.span, "`from` has no cell on this board")
                        .notes
                        .push("`from` holds the towers that may open".to_string());
                    ok = false;
                }
            }
            if let Some(t) = &t {
                if t.len() < 2 {
                    self.error(
                        line.value.to.span,
                        format!("`to` needs at least two cells, this one has {}", t.len()),
                    )
                    .notes
                    .push(
                        "the opening tower drops one wall on each of two cells of `to`".to_string(),
                    );
                    ok = false;
                }
            }
            from[p] = f;
            to[p] = t;
            self.pie_from[p] = Some(line.value.from.span);
        }
        for (p, line) in first_line.iter().enumerate() {
            if line.is_none() {
                let who = self.players[p].describe();
                let note = match self.pie_example(p) {
                    Some(example) => format!("for example: `{example}`"),
                    None => format!(
                        "a pie line reads `{} from CELLS to CELLS`: the cells its opening tower \
                         may leave, then those it may drop its walls on",
                        self.players[p].letter.unwrap_or('L')
                    ),
                };
                self.error(block.head, format!("missing the pie line for {who}"))
                    .notes
                    .push(note);
                ok = false;
            }
        }
        if !ok {
            return None;
        }
        let [Some(f0), Some(f1)] = from else {
            return None;
        };
        let [Some(t0), Some(t1)] = to else {
            return None;
        };
        Some(Opening::Pie {
            from: [f0, f1],
            to: [t0, t1],
        })
    }

    /// A pie line that fits player `p`'s own board: from its home rank to
    /// the next rank forward (`g from rank 7 to rank 6`), or from its home
    /// file to the next file for a player going east or west. `None` when
    /// the home is not one whole rank (or file) or forward leads off the
    /// board.
    fn pie_example(&self, p: usize) -> Option<String> {
        let info = &self.players[p];
        let g = self.geometry.as_ref()?;
        let letter = info.letter?;
        let home = info.home.as_ref()?;
        let d = g.directions()[info.forward?];
        let (x, y) = g.coords(*home.first()?);
        let whole = match (d.dx, d.dy) {
            (0, _) => g.rank(y + 1),
            (_, 0) => g.file(x),
            _ => return None,
        };
        let mut cells = home.clone();
        cells.sort_unstable();
        if cells != whole {
            return None;
        }
        let next = |at: usize, step: i8, len: usize| {
            let to = at.checked_add_signed(isize::from(step))?;
            (to < len).then_some(to)
        };
        if d.dx == 0 {
            let to = next(y, d.dy, g.height())?;
            Some(format!("{letter} from rank {} to rank {}", y + 1, to + 1))
        } else {
            let to = next(x, d.dx, g.width())?;
            let file = |f: usize| char::from(b'a' + f as u8);
            Some(format!(
                "{letter} from file {} to file {}",
                file(x),
                file(to)
            ))
        }
    }
}
