//! Helpers shared by the engine's integration tests.

use murus_engine::{Position, Variant};

/// The positions of a random game of `v`: its start, then the position after
/// each of up to `plies` moves chosen by an xorshift generator seeded with
/// `seed`. The line stops where no move is legal.
pub fn random_line(v: &Variant, seed: u64, plies: usize) -> Vec<Position> {
    let mut line = vec![v.start()];
    let mut state = seed | 1;
    for _ in 0..plies {
        let pos = line.last().expect("a line starts with the start");
        let moves = v.legal_moves(pos);
        if moves.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        line.push(v.play(pos, moves[(state % moves.len() as u64) as usize]));
    }
    line
}
