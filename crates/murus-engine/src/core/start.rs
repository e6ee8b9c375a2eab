//! Positions from stacks: the start position, a checked set-up's position,
//! and the Zobrist hash from scratch.

use crate::bits::Bits;
use crate::outcome::Outcome;

use super::{Engine, MAXH, MAXP, Phase, Pos};

impl<B: Bits> Engine<B> {
    /// The start position of the rules.
    pub fn start(&self) -> Pos<B> {
        let mut stacks = Vec::new();
        for &(s, p, h) in &self.rules.setup {
            stacks.push((s, p, h));
        }
        let phase = if self.pie.is_some() {
            Phase::PieOpen
        } else {
            Phase::Normal
        };
        self.make(&stacks, (0, 0), phase, (0, [0; MAXP]), None)
    }

    /// Builds a position from stacks `(slot, player, height)`, the player to
    /// move and the step of the turn order (`(turn, step)`), the eliminated
    /// players and the stones each has taken (`(out, taken)`), then runs the
    /// start-of-turn checks, unless `won` marks a game already won. The
    /// caller has validated the stacks.
    pub(crate) fn make(
        &self,
        stacks: &[(usize, usize, u8)],
        (turn, step): (usize, usize),
        phase: Phase,
        (out, taken): (u8, [u8; MAXP]),
        won: Option<Outcome>,
    ) -> Pos<B> {
        let taken = match self.counts_taken {
            true => taken,
            false => [0; MAXP],
        };
        let mut pos = Pos {
            height: [B::EMPTY; MAXH + 1],
            owner: [B::EMPTY; MAXP],
            turn: turn as u8,
            step: step as u8,
            phase,
            out,
            taken,
            status: None,
            hash: 0,
        };
        for &(s, p, h) in stacks {
            pos.height[h as usize] |= B::bit(s);
            pos.owner[p] |= B::bit(s);
        }
        pos.hash = self.hash_of(&pos);
        // A won game ended with the winning move: its next turn never
        // began (no elimination, no delayed breakthrough), as in `apply`.
        match won {
            Some(_) => pos.status = won,
            None => self.begin_turn(&mut pos),
        }
        pos
    }

    /// The Zobrist hash computed from scratch (the reference for the
    /// incremental one).
    pub fn hash_of(&self, pos: &Pos<B>) -> u64 {
        let mut h = self.z_turn[pos.turn as usize]
            ^ self.z_phase[pos.phase.index()]
            ^ self.z_step[pos.step as usize];
        for p in 0..self.players {
            if pos.is_out(p) {
                h ^= self.z_out[p];
            }
            if let Some(keys) = self.z_taken.get(p) {
                h ^= keys[usize::from(pos.taken[p])];
            }
            for height in 1..=MAXH {
                for s in (pos.owner[p] & pos.height[height]).iter() {
                    h ^= self.zobrist[s][p][height];
                }
            }
        }
        h
    }
}
