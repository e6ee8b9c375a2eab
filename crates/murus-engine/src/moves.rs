//! Moves (actions).

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

/// One action, four bytes.
///
/// `from` and `to` are slots. `aux` is the direction index for sowings and
/// throws, the sacrifice rule's index for sacrifices, and the second cell for
/// splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub kind: MoveKind,
    pub from: u8,
    pub to: u8,
    pub aux: u8,
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
}
