//! Left-right mirror symmetry: whether a variant plays the same seen in a
//! mirror that swaps the files (`a` ↔ the last file), ranks unchanged.
//!
//! Solvers use it to treat a position and its mirror image as one: where
//! the rules are symmetric, the two have the same value. The check reads
//! every part of [`Rules`] that names a cell or a direction; everything
//! else (heights, counts, timings) does not depend on the board's sides.

use std::collections::BTreeSet;

use crate::geometry::ShapeKind;
use crate::rules::{Adjudication, Opening, Rules};

impl Rules {
    /// The mirror that swaps the files of a rectangular board, as the slot
    /// each slot goes to (`mirror[slot]`), when these rules are the same
    /// seen in it: the board's cells, each player's home, forward
    /// direction and direction sets, the setup, the cells to occupy or
    /// count, and the pie rule's cells. `None` otherwise, and on hexagons
    /// (whose left-right mirror is not a swap of files).
    pub fn left_right_mirror(&self) -> Option<Vec<usize>> {
        let g = &self.geometry;
        if g.kind() != ShapeKind::Rect {
            return None;
        }
        let w = g.width();
        let mirror: Vec<usize> = (0..g.slots())
            .map(|s| {
                let (x, y) = g.coords(s);
                y * w + (w - 1 - x)
            })
            .collect();
        let cells = |set: &[usize]| set.iter().map(|&s| mirror[s]).collect::<BTreeSet<_>>();
        let same = |set: &[usize]| cells(set) == set.iter().copied().collect();
        // Directions: d goes to the one with the opposite step along files.
        let count = self.direction_count();
        let turned: Vec<Option<usize>> = (0..count)
            .map(|d| {
                let dir = self.direction(d)?;
                (0..count).find(|&e| {
                    self.direction(e)
                        .is_some_and(|o| o.dx == -dir.dx && o.dy == dir.dy)
                })
            })
            .collect();
        let same_directions = |lists: &[Vec<usize>]| {
            lists.iter().all(|list| {
                let mirrored: Option<BTreeSet<usize>> = list.iter().map(|&d| turned[d]).collect();
                mirrored == Some(list.iter().copied().collect())
            })
        };
        let board: Vec<usize> = g.cells().collect();
        let setup: BTreeSet<_> = self.setup.iter().copied().collect();
        let setup_mirrored: BTreeSet<_> = (self.setup.iter())
            .map(|&(s, p, h)| (mirror[s], p, h))
            .collect();
        let symmetric = same(&board)
            && self
                .players
                .iter()
                .all(|p| same(&p.home) && turned[p.forward] == Some(p.forward))
            && setup == setup_mirrored
            && self.sow.iter().all(|r| same_directions(&r.directions))
            && self
                .sacrifices
                .iter()
                .all(|r| same_directions(&r.directions))
            && self
                .catapults
                .iter()
                .all(|r| same_directions(&r.directions))
            && (self.wins()).all(|w| w.occupation.as_ref().is_none_or(|o| same(&o.cells)))
            && match &self.adjudicate {
                Some(Adjudication::Stacks(cells)) => same(cells),
                _ => true,
            }
            && match &self.opening {
                Opening::Pie { from, to } => from.iter().chain(to).all(|c| same(c)),
                Opening::None => true,
            };
        symmetric.then_some(mirror)
    }
}
