//! An independent checker of `murus solve --proof` files, written for the
//! tests: it knows only the file and the rules (position strings read by
//! the variant, legal moves, play, the end of the game) and never calls the
//! solver. From the root it plays the file's move at every position of the
//! winner's turn and every legal move at the loser's, and fails when a
//! winner's position is missing, a move is not legal, a line ends other
//! than in the winner's win, or a line comes back to a position on it (a
//! cycle is not a win).
//!
//! Shared by `murus-ai`'s tests and the CLI's (`#[path]`).

#![allow(dead_code)]

use std::collections::HashMap;

use murus_engine::{Move, Position, Variant};

/// What a checked proof showed: the winner and the positions it covers.
#[derive(Debug, PartialEq, Eq)]
pub struct Checked {
    pub winner: usize,
    /// Positions the strategy reaches where the winner moves.
    pub winner_positions: usize,
    /// Every position it reaches (either side to move, ended games too).
    pub positions: usize,
}

/// Reads a proof file: one `POSITION<TAB>MOVE` line for each position
/// where the winner moves, each position once; the winner is the side to
/// move in every line.
pub fn read(v: &Variant, text: &str) -> Result<(usize, HashMap<Position, Move>), String> {
    let mut strategy = HashMap::new();
    let mut winner = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let (p, m) = line
            .split_once('\t')
            .ok_or_else(|| format!("line {n}: no tab in `{line}`"))?;
        let pos = v
            .parse_position(p)
            .map_err(|e| format!("line {n}: position `{p}`: {e}"))?;
        let mv = v
            .parse_move(&pos, m)
            .map_err(|e| format!("line {n}: move `{m}`: {e}"))?;
        if !v.legal_moves(&pos).contains(&mv) {
            return Err(format!("line {n}: `{m}` is not legal in `{p}`"));
        }
        let turn = v.turn(&pos);
        if *winner.get_or_insert(turn) != turn {
            return Err(format!("line {n}: the other side is to move in `{p}`"));
        }
        if strategy.insert(pos, mv).is_some() {
            return Err(format!("line {n}: `{p}` again"));
        }
    }
    let winner = winner.ok_or("an empty proof")?;
    Ok((winner, strategy))
}

/// Checks the proof `text` that its winner wins from `root` (see the
/// module's docs).
pub fn check(v: &Variant, root: &Position, text: &str) -> Result<Checked, String> {
    let (winner, strategy) = read(v, text)?;
    let show = |p: &Position| v.position_string(p);
    // `true`: on the current line; `false`: checked, won.
    let mut state: HashMap<Position, bool> = HashMap::new();
    let mut used = 0;
    // Each frame: a position and the positions it leads to still to try.
    let mut stack: Vec<(Position, Vec<Position>)> = Vec::new();
    let mut visit = |pos: Position,
                     state: &mut HashMap<Position, bool>,
                     stack: &mut Vec<(Position, Vec<Position>)>|
     -> Result<(), String> {
        match state.get(&pos) {
            Some(true) => return Err(format!("a line comes back to `{}`", show(&pos))),
            Some(false) => return Ok(()),
            None => {}
        }
        if let Some(o) = v.outcome(&pos) {
            if o.winner != Some(winner) {
                return Err(format!("the game ends at `{}` without a win", show(&pos)));
            }
            state.insert(pos, false);
            return Ok(());
        }
        let next = if v.turn(&pos) == winner {
            let m = strategy
                .get(&pos)
                .ok_or_else(|| format!("no move for `{}`", show(&pos)))?;
            used += 1;
            vec![v.play(&pos, *m)]
        } else {
            let moves = v.legal_moves(&pos);
            if moves.is_empty() {
                return Err(format!("`{}` has no moves and no end", show(&pos)));
            }
            moves.into_iter().map(|m| v.play(&pos, m)).collect()
        };
        state.insert(pos, true);
        stack.push((pos, next));
        Ok(())
    };
    visit(*root, &mut state, &mut stack)?;
    while let Some((pos, next)) = stack.last_mut() {
        match next.pop() {
            Some(child) => visit(child, &mut state, &mut stack)?,
            None => {
                state.insert(*pos, false);
                stack.pop();
            }
        }
    }
    Ok(Checked {
        winner,
        winner_positions: used,
        positions: state.len(),
    })
}
