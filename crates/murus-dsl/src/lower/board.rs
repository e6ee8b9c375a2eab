//! The variant's name, the board and the stack limit: what every later
//! phase measures against.

use super::Lowerer;
use super::cellset::eval_cellset;
use super::items::Once;
use crate::ast::*;
use crate::diagnostic::Span;
use crate::geometry::Geometry;

impl Lowerer {
    pub(super) fn lower_variant(&mut self, variant: Once<'_, Spanned<Str>>) -> Option<String> {
        let Some((v, _)) = variant else {
            self.error(Span::point(0), "missing `variant`").notes.push(
                "a rule file starts by naming its variant, for example:\nvariant \"standard\""
                    .to_string(),
            );
            return None;
        };
        let name = &v.value;
        let valid = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if name.value.is_empty() {
            self.error(name.span, "the variant name is empty")
                .notes
                .push("for example: `variant \"standard\"`".to_string());
            return None;
        }
        if !name.value.chars().all(valid) {
            self.error(name.span, format!("invalid variant name `{}`", name.value))
                .notes
                .push("a variant name may only contain letters, digits, `-` and `_`".to_string());
            return None;
        }
        Some(name.value.clone())
    }

    pub(super) fn lower_board(&mut self, board: Once<'_, Spanned<Board>>) {
        let Some((board, _)) = board else {
            self.missing("board", "board rect 8 x 7\nor\nboard hex 5");
            return;
        };
        let shape = &board.value.shape;
        let built = match &shape.value {
            Shape::Rect { width, height } => {
                let (w, h) = (self.num(width), self.num(height));
                let (Some(w), Some(h)) = (w, h) else { return };
                Geometry::rect(w, h)
            }
            Shape::Hex { side } => {
                let Some(n) = self.num(side) else { return };
                Geometry::hex(n)
            }
        };
        let mut geometry = match built {
            Ok(g) => g,
            Err(e) => {
                self.error(shape.span, e.to_string()).notes.push(
                    "a board fits in 128 cells, for example `rect 16 x 8`, `rect 11 x 11` or `hex 6`"
                        .to_string(),
                );
                return;
            }
        };
        if let Some(without) = &board.value.without {
            let Some(removed) = eval_cellset(&geometry, without, &mut self.diags) else {
                return;
            };
            for slot in removed {
                geometry.remove(slot);
            }
            if geometry.cell_count() == 0 {
                self.error(without.span, "`without` removes every cell of the board");
                return;
            }
        }
        self.geometry = Some(geometry);
    }

    /// The shared `stack limit` (without `for`); whether every player has
    /// one is known once the players are ([`Lowerer::lower_player_limits`]).
    pub(super) fn lower_stack_limit(&mut self, limit: Once<'_, Spanned<StackLimit>>) {
        let Some((limit, _)) = limit else {
            return;
        };
        match self.lower_limit_value(&limit.value.limit) {
            Some(v) => {
                self.limit = Some(v);
                self.limit_span = Some(limit.span);
            }
            None => self.shared_limit_broken = true,
        }
    }
}
