//! Helpers shared by the engine's integration tests.

pub mod rulegen;

use murus_engine::{Outcome, Position, Reason, Variant};

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

/// Whether `built`, what the set-up (or the position string) of `played`,
/// a position reached in play, builds, differs from it only where the board
/// cannot tell how a stone on an opponent's home arrived (see
/// `Setup::build`): where both sowing and throwing break through, a win by
/// a throw reads as a win by sowing; where only one of them does, a win by
/// a stone that may have come the other way (a wall thrown where only
/// sowing breaks through, a sowing where only throwing does) reads as a game
/// going on, whose next turn then begins (and may end at once, where the
/// side to move has a delayed breakthrough of its own).
pub fn board_cannot_tell(v: &Variant, played: &Position, built: &Position) -> bool {
    // The winner's breakthrough rule.
    let winner = v.outcome(played).and_then(|o| o.winner);
    let Some(b) = winner.and_then(|w| v.rules().win(w).breakthrough) else {
        return false;
    };
    let stacks = |p: &Position| {
        v.geometry()
            .cells()
            .map(|s| v.stack(p, s))
            .collect::<Vec<_>>()
    };
    if stacks(played) != stacks(built) {
        return false;
    }
    match (v.outcome(played), v.outcome(built)) {
        (Some(x), Some(y)) if x.reason == Reason::BreakthroughThrow && b.by_sow => {
            let sown = Outcome {
                winner: x.winner,
                reason: Reason::BreakthroughSow,
            };
            y == sown && v.hash(played) == v.hash(built) && v.turn(played) == v.turn(built)
        }
        (Some(x), y) if x.reason.by().is_some() && b.by_sow != b.by_throw => {
            let Some(w) = x.winner else { return false };
            let quiet = v.rules().players.iter().enumerate().any(|(q, pl)| {
                q != w
                    && pl.home.iter().any(|&s| {
                        v.stack(played, s)
                            .is_some_and(|(p, h)| p == w && (b.by_throw || h == 1))
                    })
            });
            // The game goes on: the next turn begins, and may end it (by a
            // delayed breakthrough of the side to move, whose own rule it is).
            let goes_on = |y: Outcome| {
                y.reason.by().is_none()
                    || y.reason == Reason::BreakthroughDelayed && y.winner == Some(v.turn(built))
            };
            quiet && y.is_none_or(goes_on)
        }
        _ => false,
    }
}
