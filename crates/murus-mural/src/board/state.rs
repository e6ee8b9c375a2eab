//! The stones on a mural board, and their exact packed key.

use super::Symmetry;

/// An exact, packed image of a [`State`]: four bits a slot. Used as the
/// transposition-table key instead of a Zobrist hash, so that no collision
/// can ever make the solver wrong.
pub type Key = [u64; 4];

/// A stack: colour index and height (1 wall, 2 tower); `None` is empty.
pub type Stack = Option<(u8, u8)>;

/// A cell's stack in four bits: 0 empty, else `1 + 2·colour + height − 1`.
#[inline]
fn nibble(v: u8) -> u8 {
    if v == 0 {
        0
    } else {
        1 + 2 * ((v >> 2) - 1) + (v & 3) - 1
    }
}

/// The stones on a mural board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Per slot: 0 empty, else `(colour + 1) << 2 | height`.
    cells: Vec<u8>,
}

impl State {
    pub fn empty(slots: usize) -> State {
        State {
            cells: vec![0; slots],
        }
    }

    #[inline]
    pub fn get(&self, slot: usize) -> Stack {
        let v = self.cells[slot];
        (v != 0).then(|| ((v >> 2) - 1, v & 3))
    }

    #[inline]
    pub fn set(&mut self, slot: usize, stack: Stack) {
        self.cells[slot] = match stack {
            None => 0,
            Some((c, h)) => ((c + 1) << 2) | h,
        };
    }

    pub fn raw(&self) -> &[u8] {
        &self.cells
    }

    /// The exact packed key of this state.
    #[inline]
    pub fn key(&self) -> Key {
        let mut k = [0u64; 4];
        for (i, &v) in self.cells.iter().enumerate() {
            k[i >> 4] |= u64::from(nibble(v)) << ((i & 15) * 4);
        }
        k
    }

    /// The smallest key among the images of this state under `syms` (all of
    /// which preserve the puzzle), so symmetric states share table entries.
    #[inline]
    pub fn canonical_key(&self, syms: &[Symmetry]) -> Key {
        let mut best = self.key();
        for perm in syms.iter().skip(1) {
            let mut k = [0u64; 4];
            for (i, &v) in self.cells.iter().enumerate() {
                if v != 0 {
                    let j = perm[i] as usize;
                    k[j >> 4] |= u64::from(nibble(v)) << ((j & 15) * 4);
                }
            }
            // Compare from the most significant word.
            if k.iter().rev().lt(best.iter().rev()) {
                best = k;
            }
        }
        best
    }

    /// A 64-bit hash (FNV-1a over the cells).
    pub fn hash(&self) -> u64 {
        murus_engine::util::fnv1a(&self.cells)
    }

    /// Stones on the board.
    pub fn stones(&self) -> u32 {
        self.cells.iter().map(|&v| u32::from(v & 3)).sum()
    }

    /// Slots holding towers.
    pub fn towers(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, v)| *v & 3 == 2)
            .map(|(s, _)| s)
    }

    /// Whether exactly the `targets` hold one stone each and nothing else
    /// is on the board.
    pub fn is_solved(&self, targets: &[bool]) -> bool {
        self.cells
            .iter()
            .zip(targets)
            .all(|(&v, &t)| if t { v & 3 == 1 } else { v == 0 })
    }
}
