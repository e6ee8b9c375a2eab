//! [`Pos`]: a position over bitboards, with its side to move, opening
//! phase, eliminated players and result.

use crate::bits::Bits;
use crate::outcome::Outcome;

use super::{MAXH, MAXP};

/// Where a game stands in its opening protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Phase {
    /// Normal play.
    #[default]
    Normal,
    /// Pie rule: the first player's special first action is due.
    PieOpen,
    /// Pie rule: the second player may swap or make its special first action.
    PieReply,
    /// Pie rule: seats were swapped; the second colour's special first action is due.
    PieSwapped,
}

impl Phase {
    pub(super) fn index(self) -> usize {
        self as usize
    }
    /// The word a position string writes after `pie:` (`open`, `reply`,
    /// `swapped`); `None` in normal play.
    pub fn pie_word(self) -> Option<&'static str> {
        match self {
            Phase::Normal => None,
            Phase::PieOpen => Some("open"),
            Phase::PieReply => Some("reply"),
            Phase::PieSwapped => Some("swapped"),
        }
    }
}

/// The stones a move takes off the board (see
/// [`crate::Variant::stones_removed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct StonesRemoved {
    /// Stones of the player who moves.
    pub own: u8,
    /// Stones of the player whose stack it hits.
    pub enemy: u8,
}

/// A position over bitboards of width `B`.
///
/// `height[h]` holds the cells with exactly `h` stones (index 0 is unused)
/// and `owner[p]` the cells holding player `p`'s stones; stones of two
/// players never share a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pos<B: Bits> {
    pub(crate) height: [B; MAXH + 1],
    pub(crate) owner: [B; MAXP],
    pub(crate) turn: u8,
    /// The step of the turn order (see `Engine::seq`): the turn's index in
    /// the first round and cycle of a variant with `turns r g g r`; the
    /// player to move otherwise.
    pub(crate) step: u8,
    pub(crate) phase: Phase,
    /// Eliminated players, one bit each.
    pub(crate) out: u8,
    /// Enemy stones each player has taken, where the rules count them
    /// (`capture N stones`; 0 otherwise), at most 255.
    pub(crate) taken: [u8; MAXP],
    /// A finished game's result, set by apply. Stalemate of two players is
    /// found lazily (see [`Engine::outcome`]).
    pub(crate) status: Option<Outcome>,
    pub(crate) hash: u64,
}

impl<B: Bits> Pos<B> {
    /// The player to move.
    pub fn turn(&self) -> usize {
        self.turn as usize
    }
    /// The step of the turn order: with `turns r g g r`, 0 to 3 (the first
    /// `r`, the first `g`, …); with the plain order, the player to move.
    pub fn step(&self) -> usize {
        self.step as usize
    }
    /// The opening phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The Zobrist hash.
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Whether player `p` has been eliminated.
    pub fn is_out(&self, p: usize) -> bool {
        self.out & (1 << p) != 0
    }
    /// The stack on `slot`: `(player, height)`.
    #[inline]
    pub fn stack(&self, slot: usize) -> Option<(usize, u8)> {
        let h = (1..=MAXH).find(|&h| self.height[h].has(slot))?;
        let p = (0..MAXP).find(|&p| self.owner[p].has(slot))?;
        Some((p, h as u8))
    }
    /// Cells with a stone of player `p`.
    pub fn stones_of(&self, p: usize) -> B {
        self.owner[p]
    }
    /// Cells with a stack of exactly `h` stones (any player).
    pub fn with_height(&self, h: u8) -> B {
        self.height.get(h as usize).copied().unwrap_or(B::EMPTY)
    }
    /// Total stones of player `p`.
    pub fn stone_count(&self, p: usize) -> u32 {
        (1..=MAXH)
            .map(|h| (self.height[h] & self.owner[p]).count() * h as u32)
            .sum()
    }
    /// Every stack as `(slot, player, height)`.
    pub(crate) fn stacks(&self) -> impl Iterator<Item = (usize, usize, u8)> + '_ {
        (0..MAXP).flat_map(move |p| {
            (1..=MAXH).flat_map(move |h| {
                (self.owner[p] & self.height[h])
                    .iter()
                    .map(move |s| (s, p, h as u8))
            })
        })
    }
    #[inline(always)]
    pub(super) fn occupied(&self) -> B {
        self.owner[0] | self.owner[1] | self.owner[2] | self.owner[3]
    }
}
