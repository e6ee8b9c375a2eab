//! A proved win as a strategy: the winner's move at every position its
//! play reaches against every defence, read from the solver's table.
//!
//! The walk goes from the root: at the winner's turn it takes a move that
//! ends the game in its win, or else one whose position the table says is
//! proved, and follows it; at the loser's turn it follows every legal move.
//! A proved position whose entry has been replaced since is proved again
//! (with a budget of its own). A move that would bring the line back to a
//! position on it is passed over for another, so the strategy wins in a
//! finite number of moves. Only the table's suggestions are used; the walk
//! trusts no entry it does not follow to the end of the game.

use std::collections::{HashMap, HashSet};

use murus_engine::job::Handler;
use murus_engine::{Move, Position, Variant};

use super::parallel::STACK;
use super::{Proof, Solver};

/// A winner's strategy (see the module's docs).
#[derive(Clone, Debug, Default)]
pub struct Strategy {
    /// Each position the strategy reaches where the winner moves, once,
    /// with the winner's move there; the root first (when the winner moves
    /// there).
    pub moves: Vec<(Position, Move)>,
    /// Positions proved again because their entries had been replaced.
    pub reproved: u64,
}

/// The walk's state.
struct Walk<'a> {
    variant: &'a Variant,
    solver: &'a Solver,
    winner: usize,
    nodes_each: u64,
    handler: &'a dyn Handler,
    /// The positions of the current line.
    path: HashSet<Position>,
    /// Positions from which the strategy is known to win.
    done: HashSet<Position>,
    /// The winner's move at each such position of its turn.
    chosen: HashMap<Position, Move>,
    reproved: u64,
}

impl Solver {
    /// The strategy by which `winner` wins from `root`, read from this
    /// solver's table after [`Solver::solve`] proved it; an entry replaced
    /// since is proved again within `nodes_each` nodes. An error when the
    /// win cannot be followed to its end (not proved, or a budget or the
    /// handler stopped a proof).
    pub fn strategy(
        &self,
        variant: &Variant,
        root: &Position,
        winner: usize,
        nodes_each: u64,
        handler: &dyn Handler,
    ) -> Result<Strategy, String> {
        let mut walk = Walk {
            variant,
            solver: self,
            winner,
            nodes_each,
            handler,
            path: HashSet::new(),
            done: HashSet::new(),
            chosen: HashMap::new(),
            reproved: 0,
        };
        let won = std::thread::scope(|s| {
            std::thread::Builder::new()
                .stack_size(STACK)
                .spawn_scoped(s, || walk.wins(*root))
                .expect("a thread for the walk")
                .join()
                .expect("the walk")
        });
        if !won {
            return Err(if handler.stop() {
                "stopped before the strategy was complete".into()
            } else {
                format!(
                    "{} has no strategy that the table and a {nodes_each}-node proof of each \
                     replaced entry can show",
                    variant.player_name(winner)
                )
            });
        }
        Ok(Strategy {
            moves: walk.reachable(*root),
            reproved: walk.reproved,
        })
    }
}

impl Walk<'_> {
    /// Whether the winner's strategy wins from `pos` (recording its moves).
    fn wins(&mut self, pos: Position) -> bool {
        let v = self.variant;
        if let Some(o) = v.outcome(&pos) {
            return o.winner == Some(self.winner);
        }
        if self.path.contains(&pos) {
            return false;
        }
        if self.done.contains(&pos) {
            return true;
        }
        self.path.insert(pos);
        let children: Vec<(Move, Position)> = v
            .legal_moves(&pos)
            .into_iter()
            .map(|m| (m, v.play(&pos, m)))
            .collect();
        let won = if v.turn(&pos) == self.winner {
            let choice = self.choose(&children);
            if let Some(m) = choice {
                self.chosen.insert(pos, m);
            }
            choice.is_some()
        } else {
            children.iter().all(|&(_, c)| self.wins(c))
        };
        self.path.remove(&pos);
        if won {
            self.done.insert(pos);
        }
        won
    }

    /// The winner's move among `children` whose strategy wins: one that
    /// ends the game, then one the table says is proved, then one proved
    /// again now.
    fn choose(&mut self, children: &[(Move, Position)]) -> Option<Move> {
        let (v, w) = (self.variant, self.winner);
        let ends_won = |c: &Position| v.outcome(c).is_some_and(|o| o.winner == Some(w));
        if let Some(&(m, _)) = children.iter().find(|(_, c)| ends_won(c)) {
            return Some(m);
        }
        for &(m, c) in children {
            if self.solver.known(v, &c, w) == Proof::Proven && self.wins(c) {
                return Some(m);
            }
        }
        for &(m, c) in children {
            if self.handler.stop() || self.solver.known(v, &c, w) != Proof::Unknown {
                continue;
            }
            self.reproved += 1;
            let proof = self.solver.prove(v, &c, w, self.nodes_each, self.handler);
            if proof == Proof::Proven && self.wins(c) {
                return Some(m);
            }
        }
        None
    }

    /// The winner's positions and moves that the strategy reaches from
    /// `root`, each once.
    fn reachable(&self, root: Position) -> Vec<(Position, Move)> {
        let v = self.variant;
        let mut out = Vec::new();
        let mut seen = HashSet::from([root]);
        let mut stack = vec![root];
        while let Some(pos) = stack.pop() {
            if v.outcome(&pos).is_some() {
                continue;
            }
            let next: Vec<Position> = if v.turn(&pos) == self.winner {
                let m = self.chosen[&pos];
                out.push((pos, m));
                vec![v.play(&pos, m)]
            } else {
                v.legal_moves(&pos)
                    .into_iter()
                    .map(|m| v.play(&pos, m))
                    .collect()
            };
            for c in next {
                if seen.insert(c) {
                    stack.push(c);
                }
            }
        }
        out
    }
}

impl Strategy {
    /// The strategy as a proof file, as `murus solve --proof` writes it:
    /// one `POSITION<TAB>MOVE` line for each position, the position string
    /// and the move in the variant's notation, and nothing else.
    pub fn write_to(&self, variant: &Variant, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        for (pos, m) in &self.moves {
            writeln!(
                out,
                "{}\t{}",
                variant.position_string(pos),
                variant.move_to_string(*m)
            )?;
        }
        Ok(())
    }
}
