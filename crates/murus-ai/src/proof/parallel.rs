//! A solve's questions on one thread or several, sharing the solver's table.
//!
//! On one thread: does the side to move win? If not, does the other side?
//! Neither is a draw; when the side to move wins, each first move is then
//! proved or refuted. On two threads or more the two questions race, one a
//! thread (a proof of either settles the value and stops the other), and
//! the first moves are jobs that the threads take in turn (job-level proof
//! search). Both searches read and write the one table, so each finds what
//! the other has settled. A value never depends on the threads (every
//! proof and stored disproof is sound); which moves the budget leaves
//! unsettled may.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

use murus_engine::job::Handler;
use murus_engine::{Move, Position, Variant};

use super::{Line, Proof, Solution, Solver, Value};

/// Each search thread's stack: df-pn recurses once a ply of its path.
pub(super) const STACK: usize = 256 << 20;

/// Stops when the caller's handler does or a flag is raised (the other
/// question settled the value).
struct Either<'a> {
    outer: &'a dyn Handler,
    flag: &'a AtomicBool,
}

impl Handler for Either<'_> {
    fn stop(&self) -> bool {
        self.flag.load(Relaxed) || self.outer.stop()
    }
}

impl Solver {
    /// Solves `pos` of `variant` within `nodes` more nodes on `threads`
    /// threads (at least one): its value, and the side to move's winning
    /// moves when it wins. An error for games of more than two players.
    pub fn solve(
        &self,
        variant: &Variant,
        pos: &Position,
        nodes: u64,
        threads: usize,
        handler: &dyn Handler,
    ) -> Result<Solution, String> {
        self.solve_by(
            variant,
            pos,
            nodes,
            threads,
            handler,
            |m, attacker, limit, h, seed| {
                let child = m.map(|m| variant.play(pos, m));
                let at = child.as_ref().unwrap_or(pos);
                self.run(variant, at, None, attacker, limit, h, seed)
            },
        )
    }

    /// Solves the game of `line` with its ply cap (see the module's docs)
    /// as [`Solver::solve`] solves a position.
    pub fn solve_line(
        &self,
        variant: &Variant,
        line: &Line,
        nodes: u64,
        threads: usize,
        handler: &dyn Handler,
    ) -> Result<Solution, String> {
        self.solve_by(
            variant,
            &line.pos,
            nodes,
            threads,
            handler,
            |m, attacker, limit, h, seed| {
                let child = m.map(|m| line.play(variant, m));
                let l = child.as_ref().unwrap_or(line);
                self.run(variant, &l.pos, Some(l), attacker, limit, h, seed)
            },
        )
    }

    /// The two questions of a solve and the winning moves: `prove(move,
    /// attacker, limit, handler, seed)` asks whether `attacker` wins from `pos`
    /// (`None`) or after one of its moves, until the node count reaches
    /// `limit`.
    fn solve_by(
        &self,
        variant: &Variant,
        pos: &Position,
        nodes: u64,
        threads: usize,
        handler: &dyn Handler,
        prove: impl Fn(Option<Move>, usize, u64, &dyn Handler, u64) -> Proof + Sync,
    ) -> Result<Solution, String> {
        if variant.player_count() != 2 {
            return Err(format!(
                "solving needs a two-player game; `{}` has {} players",
                variant.name(),
                variant.player_count()
            ));
        }
        let start = self.nodes();
        let limit = start.saturating_add(nodes);
        let mover = variant.turn(pos);
        let other = 1 - mover;
        let mut solution = Solution {
            value: None,
            winning: Vec::new(),
            unsettled: Vec::new(),
            cannot_win: None,
            nodes: 0,
        };
        let (first, second) = if threads <= 1 {
            self.table.next_generation();
            match prove(None, mover, limit, handler, 0) {
                Proof::Disproven => {
                    self.table.next_generation();
                    (Proof::Disproven, prove(None, other, limit, handler, 0))
                }
                answer => (answer, Proof::Unknown),
            }
        } else {
            self.table.next_generation();
            self.race([mover, other], limit, threads, handler, &prove)
        };
        match (first, second) {
            (Proof::Proven, _) => {
                solution.value = Some(Value::Win(mover));
                self.table.next_generation();
                let moves = variant.legal_moves(pos);
                let answers = self.first_moves(&moves, mover, limit, threads, handler, &prove);
                for (&m, answer) in moves.iter().zip(answers) {
                    match answer {
                        Proof::Proven => solution.winning.push(m),
                        Proof::Disproven => {}
                        Proof::Unknown => solution.unsettled.push(m),
                    }
                }
            }
            (Proof::Disproven, answer) | (_, answer @ Proof::Proven) => {
                solution.cannot_win = Some(mover);
                solution.value = match answer {
                    Proof::Proven => Some(Value::Win(other)),
                    Proof::Disproven => Some(Value::Draw),
                    Proof::Unknown => None,
                };
            }
            (Proof::Unknown, Proof::Disproven) => solution.cannot_win = Some(other),
            (Proof::Unknown, Proof::Unknown) => {}
        }
        solution.nodes = self.nodes() - start;
        Ok(solution)
    }

    /// The two questions (`attackers[0]` wins? `attackers[1]` wins?) raced
    /// on `threads` threads: threads 0 and 1 ask one each, further ones
    /// help them in turn, and a thread whose question is disproved turns to
    /// help the other. A helper searches the same root with its own
    /// tie-breaking (its seed), so that it grows other parts of the tree,
    /// sharing what it settles through the table. A proof of either
    /// question, or both disproved, ends the race.
    fn race(
        &self,
        attackers: [usize; 2],
        limit: u64,
        threads: usize,
        handler: &dyn Handler,
        prove: &(impl Fn(Option<Move>, usize, u64, &dyn Handler, u64) -> Proof + Sync),
    ) -> (Proof, Proof) {
        let settled = [Mutex::new(Proof::Unknown), Mutex::new(Proof::Unknown)];
        let stop = [AtomicBool::new(false), AtomicBool::new(false)];
        let answer = |q: usize| *settled[q].lock().expect("no panic holding an answer");
        let settle = |q: usize, proof: Proof| {
            let mut a = settled[q].lock().expect("no panic holding an answer");
            if *a == Proof::Unknown {
                *a = proof;
            }
            stop[q].store(true, Relaxed);
            if proof == Proof::Proven {
                stop[1 - q].store(true, Relaxed);
            }
        };
        let work = |thread: usize| {
            let mut q = thread % 2;
            let mut seed = (thread / 2) as u64;
            loop {
                let h = Either {
                    outer: handler,
                    flag: &stop[q],
                };
                match prove(None, attackers[q], limit, &h, seed) {
                    Proof::Unknown => return,
                    Proof::Proven => return settle(q, Proof::Proven),
                    Proof::Disproven => {
                        settle(q, Proof::Disproven);
                        if answer(1 - q) != Proof::Unknown || stop[1 - q].load(Relaxed) {
                            return;
                        }
                        // Help the other question.
                        q = 1 - q;
                        seed = seed * 2 + 1 + thread as u64;
                    }
                }
            }
        };
        std::thread::scope(|s| {
            let workers: Vec<_> = (0..threads)
                .map(|t| ask_on_thread(s, move || work(t)))
                .collect();
            for w in workers {
                w.join().expect("a search thread");
            }
        });
        (answer(0), answer(1))
    }

    /// Whether `attacker` wins after each of `moves`, the moves jobs that
    /// `threads` threads take in turn.
    fn first_moves(
        &self,
        moves: &[Move],
        attacker: usize,
        limit: u64,
        threads: usize,
        handler: &dyn Handler,
        prove: &(impl Fn(Option<Move>, usize, u64, &dyn Handler, u64) -> Proof + Sync),
    ) -> Vec<Proof> {
        if threads <= 1 {
            return moves
                .iter()
                .map(|&m| prove(Some(m), attacker, limit, handler, 0))
                .collect();
        }
        let answers = Mutex::new(vec![Proof::Unknown; moves.len()]);
        let next = AtomicUsize::new(0);
        let work = || {
            loop {
                let i = next.fetch_add(1, Relaxed);
                let Some(&m) = moves.get(i) else { break };
                let answer = prove(Some(m), attacker, limit, handler, 0);
                answers.lock().expect("no panic holding the answers")[i] = answer;
            }
        };
        std::thread::scope(|s| {
            let workers: Vec<_> = (0..threads.min(moves.len()))
                .map(|_| ask_on_thread(s, work))
                .collect();
            for w in workers {
                w.join().expect("a search thread");
            }
        });
        answers.into_inner().expect("no panic holding the answers")
    }
}

/// Runs `f` on a new search thread of scope `s`.
fn ask_on_thread<'s, T: Send + 's>(
    s: &'s std::thread::Scope<'s, '_>,
    f: impl FnOnce() -> T + Send + 's,
) -> std::thread::ScopedJoinHandle<'s, T> {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn_scoped(s, f)
        .expect("a search thread")
}
