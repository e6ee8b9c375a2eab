//! The tower moves: a sowing (a tower drops its two stones on the next two
//! cells of a line, each empty or a wall of its colour) and a sacrifice (a
//! tower gives up a stone to remove an adjacent wall of another colour).
//!
//! This is a copy of the engine's sowing. The engine moves one side on its
//! own position type; the solver moves towers of any colour, takes moves
//! back in place, and reads every position as a [`State`] (bounds, packed
//! keys, symmetries, exact cover), so going through the engine would mean a
//! position per colour and a conversion at every node. A property test
//! (`tests/mural/engine.rs`) checks on random mural states that the copy and the
//! engine give the same moves and the same positions after them.

use super::{Board, Stack, State};

/// One mural move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MuralMove {
    /// A tower on `from` drops one stone on `near` and one on `far`.
    Sow { from: u8, near: u8, far: u8 },
    /// A tower on `from` gives up a stone to remove the wall on `target`.
    Sacrifice { from: u8, target: u8 },
}

impl MuralMove {
    /// The cells the move touches.
    pub fn cells(self) -> [u8; 3] {
        match self {
            MuralMove::Sow { from, near, far } => [from, near, far],
            MuralMove::Sacrifice { from, target } => [from, target, target],
        }
    }

    pub fn from(self) -> usize {
        match self {
            MuralMove::Sow { from, .. } | MuralMove::Sacrifice { from, .. } => from as usize,
        }
    }

    /// Notation: `a1-c3` or `b4xc5`.
    pub fn notation(self, board: &Board) -> String {
        match self {
            MuralMove::Sow { from, far, .. } => {
                format!("{}-{}", board.name(from as usize), board.name(far as usize))
            }
            MuralMove::Sacrifice { from, target } => {
                format!(
                    "{}x{}",
                    board.name(from as usize),
                    board.name(target as usize)
                )
            }
        }
    }

    /// Whether two moves touch no common cell, so they commute.
    pub fn independent(self, other: MuralMove) -> bool {
        let a = self.cells();
        let b = other.cells();
        !a.iter().any(|x| b.contains(x))
    }
}

impl State {
    /// Whether a tower of `colour` may drop a stone on `cell`: it is empty
    /// or a wall of that colour.
    pub(crate) fn takes(&self, cell: u8, colour: u8) -> bool {
        match self.get(cell as usize) {
            None => true,
            Some((c, 1)) => c == colour,
            _ => false,
        }
    }

    /// The legal moves, sowings first, in slot order.
    pub fn moves(&self, board: &Board, sacrifice: bool, out: &mut Vec<MuralMove>) {
        out.clear();
        for s in 0..self.raw().len() {
            let Some((c, 2)) = self.get(s) else { continue };
            for &(a, b) in board.lines(s) {
                if self.takes(a, c) && self.takes(b, c) {
                    out.push(MuralMove::Sow {
                        from: s as u8,
                        near: a,
                        far: b,
                    });
                }
            }
            if sacrifice {
                for &t in board.adjacent(s) {
                    if let Some((oc, 1)) = self.get(t as usize) {
                        if oc != c {
                            out.push(MuralMove::Sacrifice {
                                from: s as u8,
                                target: t,
                            });
                        }
                    }
                }
            }
        }
    }

    /// Plays a legal move.
    pub fn apply(&mut self, m: MuralMove) {
        match m {
            MuralMove::Sow { from, near, far } => {
                let (c, _) = self.get(from as usize).expect("a tower sows");
                self.set(from as usize, None);
                for x in [near, far] {
                    let h = self.get(x as usize).map_or(0, |(_, h)| h);
                    self.set(x as usize, Some((c, h + 1)));
                }
            }
            MuralMove::Sacrifice { from, target } => {
                let (c, _) = self.get(from as usize).expect("a tower sacrifices");
                self.set(from as usize, Some((c, 1)));
                self.set(target as usize, None);
            }
        }
    }

    /// Undoes `m`, which was just played by `colour`.
    pub fn undo(&mut self, m: MuralMove, colour: u8, removed: Stack) {
        match m {
            MuralMove::Sow { from, near, far } => {
                for x in [near, far] {
                    let h = self.get(x as usize).map_or(0, |(_, h)| h);
                    self.set(x as usize, if h > 1 { Some((colour, h - 1)) } else { None });
                }
                self.set(from as usize, Some((colour, 2)));
            }
            MuralMove::Sacrifice { from, target } => {
                self.set(from as usize, Some((colour, 2)));
                self.set(target as usize, removed);
            }
        }
    }
}
