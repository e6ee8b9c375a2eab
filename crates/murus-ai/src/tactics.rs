//! Forced wins within a few moves, by plain AND-OR search over every legal
//! move (no evaluation, no pruning but the win itself): the proofs behind
//! the designer's report's puzzles ("Romans to play and win in 2").
//!
//! A win *within n moves* of the side to move: one of its moves wins at
//! once, or (n > 1) one of its moves leaves a position in which every reply
//! leaves it a win within n − 1 moves. The cost grows as the number of moves
//! to the power 2n − 1, so n stays small (1 to 3).

use murus_engine::{Bits, Engine, EngineTask, Move, Pos, Position, Variant, Word};

/// A puzzle found in a position: the side to move wins within `n` of its
/// moves, with exactly one first move, and not within `n - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub n: u32,
    pub solution: Move,
}

/// Whether the side to move in `pos` wins within `n` of its own moves.
pub fn wins_within(variant: &Variant, pos: &Position, n: u32) -> bool {
    !winning_moves(variant, pos, n, 1).is_empty()
}

/// The side to move's first moves that win within `n` of its moves, at
/// most `most` of them (the search stops at the `most`-th).
pub fn winning_moves(variant: &Variant, pos: &Position, n: u32, most: usize) -> Vec<Move> {
    struct Task<'a> {
        pos: &'a Position,
        n: u32,
        most: usize,
    }
    impl EngineTask for Task<'_> {
        type Output = Vec<Move>;
        fn run<B: Word>(self, e: &Engine<B>) -> Vec<Move> {
            let pos = B::unwrap(self.pos).expect("a position of this variant");
            first_moves(e, pos, self.n, self.most)
        }
    }
    if n == 0 || most == 0 {
        return Vec::new();
    }
    variant.run(Task { pos, n, most })
}

/// The puzzle in `pos`, if the side to move has exactly one first move that
/// wins within some `n` up to `most_n`, `n` the least with a win.
pub fn puzzle(variant: &Variant, pos: &Position, most_n: u32) -> Option<Puzzle> {
    for n in 1..=most_n {
        let wins = winning_moves(variant, pos, n, 2);
        match wins.as_slice() {
            [] => continue,
            [only] => {
                return Some(Puzzle { n, solution: *only });
            }
            _ => return None,
        }
    }
    None
}

fn first_moves<B: Bits>(e: &Engine<B>, pos: &Pos<B>, n: u32, most: usize) -> Vec<Move> {
    let me = pos.turn();
    let mut moves = e.move_list();
    e.legal_moves(pos, &mut moves);
    let mut out = Vec::new();
    for &m in &moves {
        let mut c = *pos;
        e.apply(&mut c, m);
        let wins = match e.outcome(&c) {
            Some(o) => o.winner == Some(me),
            None => n > 1 && every_reply_loses(e, &c, me, n - 1),
        };
        if wins {
            out.push(m);
            if out.len() >= most {
                break;
            }
        }
    }
    out
}

fn wins<B: Bits>(e: &Engine<B>, pos: &Pos<B>, n: u32) -> bool {
    !first_moves(e, pos, n, 1).is_empty()
}

/// Whether every reply of the side to move in `pos` (`me`'s opponent)
/// leaves `me` a win within `n` of its moves.
fn every_reply_loses<B: Bits>(e: &Engine<B>, pos: &Pos<B>, me: usize, n: u32) -> bool {
    let mut moves = e.move_list();
    e.legal_moves(pos, &mut moves);
    let mut children = Vec::with_capacity(moves.len());
    for &r in &moves {
        let mut c = *pos;
        e.apply(&mut c, r);
        match e.outcome(&c) {
            Some(o) if o.winner == Some(me) => {}
            Some(_) => return false,
            None if c.turn() == me => children.push(c),
            // A third player moves next: not a two-player line.
            None => return false,
        }
    }
    children.iter().all(|c| wins(e, c, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_breakthrough_in_one_is_a_puzzle_and_a_choice_of_two_is_not() {
        let v = Variant::standard();
        // Romans: a tower on d5 breaks through with d5-d7 only (c7 and e7
        // hold Gauls towers, b7 is empty but not on a line from d5).
        let pos = v
            .parse_position("g2g2g21g2g2g2g2/8/3r24/8/8/8/r2r2r21r2r2r2r2 r")
            .unwrap();
        let p = puzzle(&v, &pos, 2).expect("a win in one");
        assert_eq!(p.n, 1);
        assert_eq!(v.move_to_string(p.solution), "d5-d7");
        // The tower on a5 reaches a7 and c7: two ways, no puzzle.
        let two = v.parse_position("4g2g2g2g2/8/r27/8/8/8/2r25 r").unwrap();
        assert!(wins_within(&v, &two, 1));
        assert_eq!(winning_moves(&v, &two, 1, 8).len(), 2);
        assert_eq!(puzzle(&v, &two, 2), None);
        // The start has no forced win within two moves.
        assert!(!wins_within(&v, &v.start(), 2));
    }
}
