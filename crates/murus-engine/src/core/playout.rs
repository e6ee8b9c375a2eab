//! Lines of play: the end of a game judged along a [`DrawTracker`] (the
//! rules' own results first, then the draws), random playouts that
//! allocate nothing, and perft.

use crate::bits::Bits;
use crate::draw::DrawTracker;
use crate::moves::Move;
use crate::outcome::{Outcome, Reason};

use super::{Engine, Pos};

/// The body of a perft copy, recursing into the copy `$this`.
macro_rules! perft_body {
    ($self:ident, $pos:ident, $depth:ident, $buffers:ident, $this:ident) => {
        match $depth {
            0 => 1,
            1 => $self.count_inline($pos),
            _ => {
                let (moves, rest) = $buffers.split_first_mut().expect("a buffer per ply");
                moves.clear();
                $self.generate($pos, moves);
                let mut total = 0;
                for &m in moves.iter() {
                    let mut child = *$pos;
                    $self.apply_inline(&mut child, m);
                    total += $self.$this(&child, $depth - 1, rest);
                }
                total
            }
        }
    };
}

/// Buffers a playout reuses, so that playing a game allocates nothing.
#[derive(Debug, Default)]
pub struct Scratch {
    moves: Vec<Move>,
    line: Option<DrawTracker>,
}

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutResult {
    pub outcome: Outcome,
    /// Plies played.
    pub plies: u32,
    /// Sum over plies of the number of legal moves (for branching factors).
    pub branching_sum: u64,
}

impl<B: Bits> Engine<B> {
    /// Whether the game is over at `pos`, reached along `line`, given
    /// `legal`, the number of legal moves at `pos` (callers that generate
    /// the moves anyway pass their count): the rules' own end first (a
    /// breakthrough, a stalemate, an elimination), then the draw rules.
    #[inline]
    pub fn judge(&self, pos: &Pos<B>, legal: usize, line: &DrawTracker) -> Option<Outcome> {
        if legal == 0 || pos.status.is_some() {
            return Some(self.outcome(pos).unwrap_or(Outcome {
                winner: None,
                reason: Reason::Stalemate,
            }));
        }
        line.draw().map(|reason| self.drawn(pos, reason))
    }

    /// How a game the draw rules end at `pos` (for `reason`) ends: a draw,
    /// but at the ply cap of a variant with `adjudicate by …`, a win for
    /// the one player (still in the game) with the most of what it counts,
    /// or a draw when several tie for the most.
    pub fn drawn(&self, pos: &Pos<B>, reason: Reason) -> Outcome {
        let Some(how) = self.adjudicate.filter(|_| reason == Reason::PlyCap) else {
            return Outcome {
                winner: None,
                reason,
            };
        };
        let count = |p: usize| how.count(pos, p);
        let players = (0..self.players).filter(|&p| !pos.is_out(p));
        let most = players.clone().map(count).max();
        let mut leaders = players.filter(|&p| Some(count(p)) == most);
        let winner = match (leaders.next(), leaders.next()) {
            (Some(p), None) => Some(p),
            _ => None,
        };
        Outcome {
            winner,
            reason: Reason::Adjudication,
        }
    }

    /// What the rules' `adjudicate …` counts for player `p` in `pos`: its
    /// stones, towers or stacks on the cells, or with `adjudicate for L` 1
    /// for `L` and 0 for the others; `None` where a game at the ply cap is
    /// drawn.
    pub fn adjudication_count(&self, pos: &Pos<B>, p: usize) -> Option<u32> {
        self.adjudicate.map(|how| how.count(pos, p))
    }

    /// [`Engine::judge`], counting the legal moves itself.
    pub fn end_of_game(&self, pos: &Pos<B>, line: &DrawTracker) -> Option<Outcome> {
        let legal = if pos.status.is_some() {
            0
        } else {
            self.count_moves(pos) as usize
        };
        self.judge(pos, legal, line)
    }

    /// Number of leaf nodes `depth` plies from `pos` (moves counted in bulk
    /// at the last ply), on the path [`crate::simd`] chose.
    pub fn perft(&self, pos: &Pos<B>, depth: u32) -> u64 {
        self.perft_on(pos, depth, crate::simd::path())
    }

    /// [`Engine::perft`] on the copy of the loop `path` names (the plain
    /// one where the CPU cannot run the other), so that tests compare them.
    // Calls the copy for the CPU `crate::simd` checked: unsafe, and sound.
    #[allow(unsafe_code)]
    pub fn perft_on(&self, pos: &Pos<B>, depth: u32, path: crate::simd::Path) -> u64 {
        // One move buffer per ply, allocated once.
        let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| self.move_list()).collect();
        #[cfg(target_arch = "x86_64")]
        if path == crate::simd::Path::Popcnt && crate::simd::supported() {
            // SAFETY: the CPU has the copy's features.
            return unsafe { self.perft_fast(pos, depth, &mut buffers) };
        }
        let _ = path;
        self.perft_plain(pos, depth, &mut buffers)
    }

    fn perft_plain(&self, pos: &Pos<B>, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
        perft_body!(self, pos, depth, buffers, perft_plain)
    }

    /// [`Engine::perft_plain`] compiled for the CPUs with `popcnt`, `bmi1`
    /// and `bmi2`: the generator and the bulk count inside it use them.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    fn perft_fast(&self, pos: &Pos<B>, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
        perft_body!(self, pos, depth, buffers, perft_fast)
    }

    /// Plays `pos` out with moves chosen by `choose(number_of_moves)`, under
    /// the variant's draw rules (repetition counted since the last capture,
    /// ply cap counted from `pos`).
    #[inline]
    // Calls the copy for the CPU `crate::simd` checked: unsafe, and sound.
    #[allow(unsafe_code)]
    pub fn playout(
        &self,
        pos: Pos<B>,
        scratch: &mut Scratch,
        choose: impl FnMut(usize) -> usize,
    ) -> PlayoutResult {
        #[cfg(target_arch = "x86_64")]
        if crate::simd::fast() {
            // SAFETY: `fast` holds only where the CPU has the copy's features.
            return unsafe { self.playout_fast(pos, scratch, choose) };
        }
        self.playout_plain(pos, scratch, choose)
    }

    /// [`Engine::playout`] compiled for the CPUs with `popcnt`, `bmi1` and
    /// `bmi2`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    fn playout_fast(
        &self,
        pos: Pos<B>,
        scratch: &mut Scratch,
        choose: impl FnMut(usize) -> usize,
    ) -> PlayoutResult {
        self.playout_inline(pos, scratch, choose)
    }

    fn playout_plain(
        &self,
        pos: Pos<B>,
        scratch: &mut Scratch,
        choose: impl FnMut(usize) -> usize,
    ) -> PlayoutResult {
        self.playout_inline(pos, scratch, choose)
    }

    /// The playout loop, compiled into each copy.
    #[inline(always)]
    fn playout_inline(
        &self,
        mut pos: Pos<B>,
        scratch: &mut Scratch,
        mut choose: impl FnMut(usize) -> usize,
    ) -> PlayoutResult {
        let line = scratch
            .line
            .get_or_insert_with(|| DrawTracker::new(self.rules.draw, pos.hash));
        line.reset(pos.hash);
        let mut branching_sum = 0;
        loop {
            scratch.moves.clear();
            self.generate(&pos, &mut scratch.moves);
            if let Some(outcome) = self.judge(&pos, scratch.moves.len(), line) {
                return PlayoutResult {
                    outcome,
                    plies: line.plies(),
                    branching_sum,
                };
            }
            branching_sum += scratch.moves.len() as u64;
            let m = scratch.moves[choose(scratch.moves.len())];
            let capture = self.is_capture(&pos, m);
            self.apply(&mut pos, m);
            line.push(pos.hash, capture);
        }
    }
}
