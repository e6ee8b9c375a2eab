//! The variant's draw rules along one line of play: the repetition limit
//! (counted since the last capture) and the ply cap.
//!
//! One [`DrawTracker`] serves every place that plays a line of moves: a
//! [`Game`](crate::Game), the lab's self-play loop, random playouts and the
//! bots' searches (which push and pop as they make and unmake moves). The
//! end of a game is judged in one place, [`Engine::end_of_game`](crate::Engine::end_of_game): the rules'
//! own results (breakthrough, stalemate, elimination) first, then the draws.
//!
//! ```
//! use murus_engine::{DrawTracker, Reason, Variant};
//!
//! let v = Variant::standard(); // draw: repetition 3
//! let (a, b) = (1, 2); // two positions' hashes
//! let mut line = DrawTracker::new(v.rules().draw, a);
//! line.push(b, false);
//! line.push(a, false);
//! line.push(b, false);
//! line.push(a, false);
//! // Position `a` has now stood on the board three times.
//! assert_eq!(line.occurrences(), 3);
//! assert_eq!(line.draw(), Some(Reason::Repetition));
//! line.pop();
//! assert_eq!(line.draw(), None);
//! // A capture starts the count afresh.
//! line.push(a, true);
//! assert_eq!(line.occurrences(), 1);
//! ```

use murus_dsl::rules::DrawRules;

use crate::outcome::Reason;

/// Positions since the last capture and plies since the start of a line of
/// play, judged by a variant's draw rules.
///
/// Positions are compared by their 64-bit Zobrist hash (the chance that two
/// different positions of one game share a hash is about `plies² / 2⁶⁵`).
/// Pushing and popping allocate nothing once the tracker's capacity covers
/// the line; [`DrawTracker::new`] reserves room for the ply cap (or a
/// typical game).
#[derive(Clone, Debug)]
pub struct DrawTracker {
    /// The position occurring for this time is a draw (`u32::MAX`: never).
    repetition: u32,
    /// This many plies is a draw (`u32::MAX`: never).
    ply_cap: u32,
    /// The hash of every position of the line, the first included.
    hashes: Vec<u64>,
    /// Indices into `hashes` of the positions that follow a capture.
    captures: Vec<u32>,
}

/// Room reserved when the variant sets no ply cap.
const TYPICAL_LINE: usize = 256;
/// Most room reserved up front, whatever the ply cap.
const MOST_RESERVED: usize = 4096;

impl DrawTracker {
    /// A line that starts at a position with hash `start`, under `draw`.
    pub fn new(draw: DrawRules, start: u64) -> DrawTracker {
        let room = draw
            .ply_cap
            .map_or(TYPICAL_LINE, |c| c as usize + 1)
            .min(MOST_RESERVED);
        let mut hashes = Vec::with_capacity(room);
        hashes.push(start);
        DrawTracker {
            repetition: draw.repetition.unwrap_or(u32::MAX),
            ply_cap: draw.ply_cap.unwrap_or(u32::MAX),
            hashes,
            // Each capture removes stones for good: few in any game.
            captures: Vec::with_capacity(64),
        }
    }

    /// The same line with another ply cap (`None`: none), e.g. the lab's
    /// `--max-plies`.
    pub fn with_ply_cap(mut self, cap: Option<u32>) -> DrawTracker {
        self.ply_cap = cap.unwrap_or(u32::MAX);
        self
    }

    /// Starts the line afresh at a position with hash `start`, keeping the
    /// rules and the memory.
    pub fn reset(&mut self, start: u64) {
        self.hashes.clear();
        self.hashes.push(start);
        self.captures.clear();
    }

    /// Makes this line a copy of `other`, reusing this line's memory, with
    /// room for the rest of the line (up to the ply cap, or a typical game):
    /// a bot copies the game's line into its own once per move, then
    /// searches and plays out along it without allocating.
    pub fn copy_from(&mut self, other: &DrawTracker) {
        self.repetition = other.repetition;
        self.ply_cap = other.ply_cap;
        let rest = if other.ply_cap == u32::MAX {
            TYPICAL_LINE
        } else {
            (other.ply_cap as usize + 1).saturating_sub(other.hashes.len())
        };
        self.hashes.clear();
        self.hashes
            .reserve(other.hashes.len() + rest.min(MOST_RESERVED));
        self.hashes.extend_from_slice(&other.hashes);
        self.captures.clear();
        self.captures.extend_from_slice(&other.captures);
    }

    /// Records a move that led to a position with hash `hash`; `capture`
    /// when the move removed stones from the board (see
    /// [`Engine::is_capture`](crate::Engine::is_capture)), after which no earlier position can recur.
    #[inline]
    pub fn push(&mut self, hash: u64, capture: bool) {
        if capture {
            self.captures.push(self.hashes.len() as u32);
        }
        self.hashes.push(hash);
    }

    /// Takes back the last [`push`](DrawTracker::push). Returns `false`
    /// (and changes nothing) at the line's first position.
    #[inline]
    pub fn pop(&mut self) -> bool {
        if self.hashes.len() <= 1 {
            return false;
        }
        self.hashes.pop();
        if self.captures.last() == Some(&(self.hashes.len() as u32)) {
            self.captures.pop();
        }
        true
    }

    /// Plies played along the line.
    #[inline]
    pub fn plies(&self) -> u32 {
        self.hashes.len() as u32 - 1
    }

    /// The hash of the current position.
    #[inline]
    pub fn current(&self) -> u64 {
        *self.hashes.last().expect("a line always has a position")
    }

    /// How often the current position has occurred since the last capture,
    /// this time included (at least 1).
    #[inline]
    pub fn occurrences(&self) -> u32 {
        let from = self.captures.last().map_or(0, |&i| i as usize);
        let now = self.current();
        self.hashes[from..].iter().filter(|&&h| h == now).count() as u32
    }

    /// The repetition limit (`None`: the variant has none).
    pub fn repetition_limit(&self) -> Option<u32> {
        (self.repetition != u32::MAX).then_some(self.repetition)
    }

    /// The ply cap (`None`: none).
    pub fn ply_cap(&self) -> Option<u32> {
        (self.ply_cap != u32::MAX).then_some(self.ply_cap)
    }

    /// The draw the rules declare at the current position, if any:
    /// repetition first, then the ply cap. It does not know the rules' own
    /// results; [`Engine::end_of_game`](crate::Engine::end_of_game) judges those first.
    #[inline]
    pub fn draw(&self) -> Option<Reason> {
        if self.repetition != u32::MAX && self.occurrences() >= self.repetition {
            Some(Reason::Repetition)
        } else if self.plies() >= self.ply_cap {
            Some(Reason::PlyCap)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(repetition: Option<u32>, ply_cap: Option<u32>) -> DrawRules {
        DrawRules {
            repetition,
            ply_cap,
        }
    }

    #[test]
    fn repetitions_are_counted_since_the_last_capture() {
        let mut t = DrawTracker::new(rules(Some(2), None), 1);
        t.push(2, false);
        t.push(1, false);
        assert_eq!(t.occurrences(), 2);
        assert_eq!(t.draw(), Some(Reason::Repetition));
        t.pop();
        // After a capture, earlier positions no longer count.
        t.push(3, true);
        t.push(1, false);
        assert_eq!(t.occurrences(), 1);
        assert_eq!(t.draw(), None);
        // Popping back over the capture restores the old counting window.
        assert!(t.pop());
        assert!(t.pop());
        t.push(1, false);
        assert_eq!(t.occurrences(), 2);
    }

    #[test]
    fn the_ply_cap_counts_every_ply_and_comes_after_repetition() {
        let mut t = DrawTracker::new(rules(Some(2), Some(3)), 1);
        t.push(2, true);
        t.push(3, false);
        assert_eq!(t.draw(), None);
        t.push(2, false);
        assert_eq!(t.plies(), 3);
        assert_eq!(t.occurrences(), 2, "the capture's own position counts");
        assert_eq!(t.draw(), Some(Reason::Repetition));
        t.pop();
        t.push(4, false);
        assert_eq!(t.draw(), Some(Reason::PlyCap));
        let t = t.with_ply_cap(None);
        assert_eq!(t.draw(), None);
    }

    #[test]
    fn the_first_position_cannot_be_popped() {
        let mut t = DrawTracker::new(rules(None, None), 7);
        assert!(!t.pop());
        assert_eq!((t.plies(), t.current()), (0, 7));
        t.push(8, true);
        t.reset(9);
        assert_eq!((t.plies(), t.current(), t.occurrences()), (0, 9, 1));
    }

    #[test]
    fn pushing_within_the_reserved_room_does_not_reallocate() {
        let mut t = DrawTracker::new(rules(Some(3), Some(100)), 0);
        let cap = t.hashes.capacity();
        for i in 0..100 {
            t.push(i % 5, i % 17 == 0);
        }
        assert_eq!(t.hashes.capacity(), cap);
    }

    #[test]
    fn a_copy_has_room_for_the_rest_of_the_line_and_reuses_its_memory() {
        let mut game = DrawTracker::new(rules(Some(3), Some(100)), 0);
        for i in 1..=40 {
            game.push(i, i == 20);
        }
        // As a bot holds it: first a clone, then copies into the same memory.
        let mut copy = game.clone();
        copy.copy_from(&game);
        assert_eq!(
            (copy.plies(), copy.occurrences(), copy.draw()),
            (40, 1, None)
        );
        let (hashes, captures) = (copy.hashes.as_ptr(), copy.captures.capacity());
        for i in 41..=100 {
            copy.push(i, false);
        }
        assert_eq!(copy.draw(), Some(Reason::PlyCap));
        assert_eq!(copy.hashes.as_ptr(), hashes, "the search's pushes fit");
        game.push(3, false);
        copy.copy_from(&game);
        assert_eq!(copy.hashes.as_ptr(), hashes, "the next move's copy fits");
        assert_eq!(copy.captures.capacity(), captures);
        assert_eq!((copy.plies(), copy.current()), (41, 3));
        // Popping back over the copied capture still finds it.
        copy.pop();
        copy.push(15, false);
        assert_eq!(
            copy.occurrences(),
            1,
            "15 came before the capture at ply 20"
        );
    }
}
