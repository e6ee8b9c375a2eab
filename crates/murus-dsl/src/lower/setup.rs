//! The `setup` block: which player's stacks stand where at the start.

use std::collections::HashMap;

use super::Lowerer;
use super::cellset::eval_cellset;
use super::items::Once;
use super::text::join_and;
use crate::ast::*;
use crate::diagnostic::Diagnostic;

impl Lowerer {
    pub(super) fn lower_setup(
        &mut self,
        setup: Once<'_, Block<SetupLine>>,
    ) -> Option<Vec<(usize, usize, u8)>> {
        let Some((block, _)) = setup else {
            self.missing("setup", "setup {\n    r 2 on rank 1\n    g 2 on rank 7\n}");
            return None;
        };
        if block.fields.is_empty() {
            self.error(block.head, "the setup places no stones")
                .notes
                .push(
                    "add lines like `r 2 on rank 1`: player letter, stack height, cells"
                        .to_string(),
                );
            return None;
        }
        let mut entries: Vec<(usize, usize, u8)> = Vec::new();
        // Cell -> index of the line that set it.
        let mut set_by: HashMap<usize, usize> = HashMap::new();
        let mut ok = true;
        for (index, line) in block.fields.iter().enumerate() {
            let player = self.player_index(&line.value.player);
            // Checked against the player's own stack limit.
            let players: Vec<usize> = player.into_iter().collect();
            let before = self.diags.len();
            let height = self.own(&players, false, |l| {
                l.lower_stack_height(&line.value.height)
            });
            // With limits of the players' own, say whose limit it is.
            let limits = &self.player_limits;
            let own_limit = player.and_then(|p| limits.get(p).copied().flatten());
            if let (Some(p), Some((limit, _))) = (player, own_limit) {
                if limits.iter().flatten().any(|&(l, _)| l != limit) {
                    let note = format!(
                        "the stack limit of {} is {limit}",
                        self.players[p].describe()
                    );
                    for d in &mut self.diags[before..] {
                        d.notes.push(note.clone());
                    }
                }
            }
            let cells = match &self.geometry {
                Some(g) => eval_cellset(g, &line.value.cells, &mut self.diags),
                None => None,
            };
            let Some(cells) = cells else {
                ok = false;
                continue;
            };
            if cells.is_empty() {
                self.warning(line.value.cells.span, "this line places no stones");
            }
            // Cells already set, grouped by the line that set them first.
            let mut clashes: Vec<(usize, Vec<usize>)> = Vec::new();
            for &cell in &cells {
                match set_by.get(&cell) {
                    Some(&first) => match clashes.iter_mut().find(|(f, _)| *f == first) {
                        Some((_, v)) => v.push(cell),
                        None => clashes.push((first, vec![cell])),
                    },
                    None => {
                        set_by.insert(cell, index);
                    }
                }
            }
            for (first, clash) in clashes {
                ok = false;
                let names = self.cell_names(&clash);
                let message = if clash.len() == 1 {
                    format!("cell {names} is set twice")
                } else {
                    format!("cells {names} are set twice")
                };
                self.push(
                    Diagnostic::error(line.value.cells.span, message)
                        .with_label(block.fields[first].span, "first set here")
                        .with_note("each cell starts with at most one stack"),
                );
            }
            if let (Some(player), Some(height)) = (player, height) {
                entries.extend(cells.iter().map(|&c| (c, player, height)));
            } else {
                ok = false;
            }
        }
        if ok {
            for (i, p) in self.players.iter().enumerate() {
                if !entries.iter().any(|&(_, q, _)| q == i) {
                    let d = Diagnostic::warning(
                        p.head,
                        format!("player {} starts with no stones", p.name),
                    )
                    .with_note("it cannot act on its first turn, so it is stalemated at once");
                    self.diags.push(d);
                }
            }
        }
        entries.sort_unstable();
        ok.then_some(entries)
    }

    /// A setup stack height: 1 ..= the stack limit.
    fn lower_stack_height(&mut self, n: &Number) -> Option<u8> {
        let h = self.num(n)?;
        let limit = self.limit?;
        if h == 0 {
            self.error(n.span, "a stack has at least one stone");
            None
        } else if h > u32::from(limit) {
            self.over_limit(
                n.span,
                format!("stack of {h} exceeds the stack limit of {limit}"),
            );
            None
        } else {
            u8::try_from(h).ok()
        }
    }

    /// `` `a1`, `b1` and `c1` `` (at most five names).
    fn cell_names(&self, cells: &[usize]) -> String {
        let Some(g) = &self.geometry else {
            return String::new();
        };
        let mut names: Vec<String> = cells
            .iter()
            .take(5)
            .map(|&c| format!("`{}`", g.name(c)))
            .collect();
        if cells.len() > 5 {
            names.push(format!("{} more", cells.len() - 5));
        }
        join_and(&names)
    }
}
