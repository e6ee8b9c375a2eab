//! Moves (actions): a compact [`Move`] for the engine's hot loops, and the
//! [`Action`] it stands for, cell by cell, for everyone else.

/// A throw's `aux`: its direction index in the low bits (at most 32
/// directions: the board's and the step vectors), the catapult rule's index
/// above them (0 for a variant's only catapult, so a throw of a
/// one-catapult variant is the move it always was). So at most 8 catapult
/// rules ([`murus_dsl::rules::MAX_CATAPULTS`]).
pub(crate) const THROW_RULE_SHIFT: u32 = 5;

/// What kind of action a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum MoveKind {
    /// Sow a stack along a direction: `a1-c3` (origin, farthest cell).
    Sow,
    /// Sacrifice stones against an adjacent enemy stack: `b4xc5`, `d5xxd4`.
    Sacrifice,
    /// Throw a stone from a catapult: `d4*f6`.
    Throw,
    /// Pie rule: split a tower into two walls: `d1:b2,g2`.
    Split,
    /// Pie rule: swap seats: `swap`.
    Swap,
}

/// One action, four bytes. Moves come from the engine (legal move lists,
/// [`crate::Variant::parse_move`]); read one through [`Move::action`] and
/// the accessors below.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// What kind of action this is.
    pub kind: MoveKind,
    /// The origin slot (0 for a swap).
    pub(crate) from: u8,
    /// The farthest cell of a sowing, the target of a sacrifice, the landing
    /// cell of a throw, the first cell of a split (0 for a swap).
    pub(crate) to: u8,
    /// Depends on the kind: the direction index of a sowing, the direction
    /// index and catapult rule of a throw (`rule << 4 | direction`), the
    /// sacrifice rule's index, the second cell of a split.
    pub(crate) aux: u8,
}

/// A [`Move`] spelled out: which cells it uses and under which rule. Cells
/// are slots of the variant's [`murus_dsl::Geometry`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Sow the stack on `from` along `direction` (an index into
    /// [`murus_dsl::Geometry::directions`]): one stone drops on each of the
    /// next cells, the last being `to` (see [`crate::Variant::move_cells`]).
    Sow {
        from: usize,
        to: usize,
        direction: usize,
    },
    /// The stack on `from` sacrifices stones against the adjacent enemy stack
    /// on `target`, under sacrifice rule number `rule` (an index into
    /// [`murus_dsl::rules::Rules::sacrifices`]; see
    /// [`crate::Variant::stones_removed`] for what it costs).
    Sacrifice {
        from: usize,
        target: usize,
        rule: usize,
    },
    /// The catapult on `from` throws a stone along `direction` (an index
    /// into [`murus_dsl::Geometry::directions`]) over everything onto `to`,
    /// under catapult rule number `rule` (an index into
    /// [`murus_dsl::rules::Rules::catapults`]).
    Throw {
        from: usize,
        to: usize,
        direction: usize,
        rule: usize,
    },
    /// Pie rule: the tower on `tower` is lifted and its two stones dropped
    /// as walls on `cells` (in slot order).
    Split { tower: usize, cells: (usize, usize) },
    /// Pie rule: the players swap seats.
    Swap,
}

impl Move {
    /// The pie rule's swap.
    pub const SWAP: Move = Move {
        kind: MoveKind::Swap,
        from: 0,
        to: 0,
        aux: 0,
    };

    #[inline(always)]
    pub(crate) fn new(kind: MoveKind, from: usize, to: usize, aux: u8) -> Move {
        Move {
            kind,
            from: from as u8,
            to: to as u8,
            aux,
        }
    }

    /// A compact key of the move for tables indexed by move, such as a
    /// search's history: its origin and its farthest cell, below 65 536.
    /// Two moves of one position share a key only when they share both.
    #[inline(always)]
    pub fn key16(self) -> usize {
        usize::from(self.from) << 8 | usize::from(self.to)
    }

    /// The move in 27 bits (its kind, origin, farthest cell and aux), for
    /// tables that keep moves in atomic words; [`Move::from_bits`] reads it
    /// back.
    #[inline(always)]
    pub fn to_bits(self) -> u32 {
        (self.kind as u32) << 24
            | u32::from(self.from) << 16
            | u32::from(self.to) << 8
            | u32::from(self.aux)
    }

    /// The move [`Move::to_bits`] gave `bits` (`None` when no move does).
    /// A move read back is one of the variant's only if it was one when
    /// written: check it against the legal moves before playing it.
    #[inline(always)]
    pub fn from_bits(bits: u32) -> Option<Move> {
        let kind = match bits >> 24 {
            0 => MoveKind::Sow,
            1 => MoveKind::Sacrifice,
            2 => MoveKind::Throw,
            3 => MoveKind::Split,
            4 => MoveKind::Swap,
            _ => return None,
        };
        let [_, from, to, aux] = bits.to_be_bytes();
        Some(Move {
            kind,
            from,
            to,
            aux,
        })
    }

    /// What the move does, cell by cell.
    pub fn action(self) -> Action {
        let (from, to, aux) = (
            usize::from(self.from),
            usize::from(self.to),
            usize::from(self.aux),
        );
        match self.kind {
            MoveKind::Sow => Action::Sow {
                from,
                to,
                direction: aux,
            },
            MoveKind::Sacrifice => Action::Sacrifice {
                from,
                target: to,
                rule: aux,
            },
            MoveKind::Throw => Action::Throw {
                from,
                to,
                direction: aux & ((1 << THROW_RULE_SHIFT) - 1),
                rule: aux >> THROW_RULE_SHIFT,
            },
            MoveKind::Split => Action::Split {
                tower: from,
                cells: (to.min(aux), to.max(aux)),
            },
            MoveKind::Swap => Action::Swap,
        }
    }

    /// The cell the move starts from: the sowing stack, the sacrificing
    /// stack, the catapult, the split tower; `None` for a swap.
    pub fn origin(self) -> Option<usize> {
        (self.kind != MoveKind::Swap).then_some(usize::from(self.from))
    }

    /// The cells that finish the move once its origin is chosen, as a player
    /// picks them on a board: the farthest cell of a sowing, the stack
    /// sacrificed against, a throw's landing cell, both cells of a split (in
    /// slot order); none for a swap.
    pub fn targets(self) -> impl Iterator<Item = usize> {
        let (a, b) = match self.action() {
            Action::Sow { to, .. } | Action::Throw { to, .. } => (Some(to), None),
            Action::Sacrifice { target, .. } => (Some(target), None),
            Action::Split { cells: (a, b), .. } => (Some(a), Some(b)),
            Action::Swap => (None, None),
        };
        a.into_iter().chain(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_names_its_cells_in_slot_order_whichever_the_engine_stored_first() {
        let m = Move::new(MoveKind::Split, 3, 12, 9);
        assert_eq!(
            m.action(),
            Action::Split {
                tower: 3,
                cells: (9, 12)
            }
        );
        assert_eq!(m.targets().collect::<Vec<_>>(), [9, 12]);
        assert_eq!(m.origin(), Some(3));
    }

    #[test]
    fn a_move_read_back_from_its_bits_is_the_move() {
        let moves = [
            Move::new(MoveKind::Sow, 255, 0, 31),
            Move::new(MoveKind::Sacrifice, 1, 9, 1),
            Move::new(MoveKind::Throw, 4, 20, 7 << THROW_RULE_SHIFT | 31),
            Move::new(MoveKind::Split, 3, 12, 9),
            Move::SWAP,
        ];
        for m in moves {
            assert!(m.to_bits() < 1 << 27, "{m:?}");
            assert_eq!(Move::from_bits(m.to_bits()), Some(m));
        }
        assert_eq!(Move::from_bits(5 << 24), None);
    }

    #[test]
    fn a_swap_has_no_origin_and_no_targets() {
        assert_eq!(Move::SWAP.action(), Action::Swap);
        assert_eq!(Move::SWAP.origin(), None);
        assert_eq!(Move::SWAP.targets().count(), 0);
    }

    #[test]
    fn sowings_sacrifices_and_throws_name_their_aux_for_what_it_is() {
        assert_eq!(
            Move::new(MoveKind::Sow, 1, 17, 2).action(),
            Action::Sow {
                from: 1,
                to: 17,
                direction: 2
            }
        );
        assert_eq!(
            Move::new(MoveKind::Sacrifice, 1, 9, 1).action(),
            Action::Sacrifice {
                from: 1,
                target: 9,
                rule: 1
            }
        );
        assert_eq!(
            Move::new(MoveKind::Throw, 4, 20, 0).action(),
            Action::Throw {
                from: 4,
                to: 20,
                direction: 0,
                rule: 0
            }
        );
        // The second catapult rule's throw along direction 2.
        assert_eq!(
            Move::new(MoveKind::Throw, 4, 20, 1 << THROW_RULE_SHIFT | 2).action(),
            Action::Throw {
                from: 4,
                to: 20,
                direction: 2,
                rule: 1
            }
        );
        assert_eq!(
            Move::new(MoveKind::Throw, 4, 20, 0)
                .targets()
                .collect::<Vec<_>>(),
            [20]
        );
    }
}
