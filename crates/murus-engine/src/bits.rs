//! Bitboards over the slots of a board's bounding grid.
//!
//! The engine is generic over the word that holds a bitboard: `u64` for
//! boards whose bounding grid has at most 64 slots (the standard 8×7 game,
//! 8×8, 7×7, the side-4 hexagon) and `u128` up to 128 slots (9×9, the side-5
//! hexagon). A variant picks the narrowest word when it is compiled, so wide
//! boards never slow the standard game down.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of slots, one bit per slot.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// Number of slots the word holds.
    const SLOTS: usize;
    /// The empty set.
    const EMPTY: Self;
    /// The set holding only `slot`.
    fn bit(slot: usize) -> Self;
    /// Number of slots in the set.
    fn count(self) -> u32;
    /// Whether the set is empty.
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }
    /// Whether `slot` is in the set.
    fn has(self, slot: usize) -> bool {
        !(self & Self::bit(slot)).is_empty()
    }
    /// The lowest slot in a non-empty set.
    fn lowest(self) -> usize;
    /// `(self << left) >> right`: one of the two is zero, so this moves every
    /// slot by a constant offset in either direction.
    fn shift(self, left: u32, right: u32) -> Self;
    /// The slots, lowest first.
    fn iter(self) -> SlotIter<Self> {
        SlotIter(self)
    }
}

impl Bits for u64 {
    const SLOTS: usize = 64;
    const EMPTY: Self = 0;
    #[inline(always)]
    fn bit(slot: usize) -> Self {
        1 << slot
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn shift(self, left: u32, right: u32) -> Self {
        (self << left) >> right
    }
}

impl Bits for u128 {
    const SLOTS: usize = 128;
    const EMPTY: Self = 0;
    #[inline(always)]
    fn bit(slot: usize) -> Self {
        1 << slot
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn shift(self, left: u32, right: u32) -> Self {
        (self << left) >> right
    }
}

/// Iterator over the slots of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct SlotIter<B>(B);

impl<B: Bits> Iterator for SlotIter<B> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let s = self.0.lowest();
        self.0 ^= B::bit(s);
        Some(s)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bits> ExactSizeIterator for SlotIter<B> {}

/// A constant move of every slot: by `+offset` forward, `-offset` back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shift {
    left: u32,
    right: u32,
}

impl Shift {
    /// A shift moving slot `s` to `s + offset`.
    pub fn new(offset: i32) -> Shift {
        if offset >= 0 {
            Shift {
                left: offset as u32,
                right: 0,
            }
        } else {
            Shift {
                left: 0,
                right: (-offset) as u32,
            }
        }
    }
    /// Moves every slot forward by the offset.
    #[inline(always)]
    pub fn fwd<B: Bits>(self, b: B) -> B {
        b.shift(self.left, self.right)
    }
    /// Moves every slot back by the offset.
    #[inline(always)]
    pub fn back<B: Bits>(self, b: B) -> B {
        b.shift(self.right, self.left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iter_yields_every_slot_once_in_order() {
        let b: u128 = (1 << 3) | (1 << 64) | (1 << 127);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 64, 127]);
        assert_eq!(b.iter().len(), 3);
    }

    #[test]
    fn shift_moves_both_ways() {
        let s = Shift::new(-9);
        assert_eq!(s.fwd(1u64 << 20), 1 << 11);
        assert_eq!(s.back(1u64 << 11), 1 << 20);
        let s = Shift::new(9);
        assert_eq!(s.fwd(1u128 << 120), 0, "bits shifted out vanish");
    }
}
