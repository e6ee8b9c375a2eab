//! The [`Recorder`]: a game's trace written as the lab plays it.

use murus_ai::Evaluation;
use murus_ai::eval::{Weights, evaluate, score};
use murus_ai::nnue::Network;
use murus_engine::{Bits, DrawTracker, Engine, Move, Outcome, Pos};

use super::trace::{End, Ply, Trace, count_repeats, near_best};
use super::{MAX_PLAYERS, squash};
use crate::record::GameMetrics;
use crate::seeds::mix;

/// Writes a game's [`Trace`] as the lab plays it, from the variant's own
/// evaluation as the bots see it: its network where it has one that fits,
/// else the generic features with its weights (trained or default),
/// without mobility (the one feature that costs a move count).
///
/// Each ply costs the recorder a push; each round (every `players`
/// plies) one evaluation of the position (one network pass, or one
/// feature count per player); on the sampled plies ([`Recorder::new`]'s
/// `one_in`), one evaluation per legal move.
#[derive(Debug)]
pub struct Recorder<'a, B: Bits> {
    e: &'a Engine<B>,
    evaluation: Evaluation,
    /// Whether to value positions with the evaluation's network: it has
    /// one and it fits.
    network: bool,
    /// Whether the network's accumulator is kept and updated (two players:
    /// one pass values both); with more players each is valued from
    /// scratch.
    incremental: bool,
    weights: Weights,
    players: usize,
    plies: Vec<Ply>,
    hashes: Vec<u64>,
    covered: B,
    seed: u64,
    /// A ply is sampled when its draw is at most this: `u64::MAX / one_in`
    /// (a comparison, where a remainder would divide).
    sample_below: u64,
    /// The ply that starts the next round.
    next_round: usize,
    values: Vec<f64>,
    /// The network accumulator of `synced`, brought up to the position
    /// being valued when needed (from the last position valued: a few
    /// cells change a round, where a pass from scratch reads every stack),
    /// and room for another.
    synced: Pos<B>,
    acc: Vec<i32>,
    child_acc: Vec<i32>,
}

impl<'a, B: Bits> Recorder<'a, B> {
    /// A recorder of a game from `start`, valuing positions with
    /// `evaluation` and the legal moves at one ply in `one_in` (at least
    /// 1: every ply), the plies drawn from `seed`.
    pub fn new(
        e: &'a Engine<B>,
        evaluation: Evaluation,
        start: &Pos<B>,
        seed: u64,
        one_in: u64,
    ) -> Recorder<'a, B> {
        let weights = evaluation
            .weights()
            .unwrap_or_else(|| Weights::for_engine(e));
        let players = e.players().min(MAX_PLAYERS);
        let net = evaluation.network().filter(|net| net.fits(e));
        let incremental = net.is_some() && players == 2;
        let mut acc = Vec::new();
        if let Some(net) = net.filter(|_| incremental) {
            acc.resize(net.hidden, 0);
            net.refresh(start, &mut acc);
        }
        let mut r = Recorder {
            e,
            network: net.is_some(),
            incremental,
            child_acc: acc.clone(),
            acc,
            evaluation,
            weights,
            players,
            plies: Vec::with_capacity(64),
            hashes: Vec::with_capacity(65),
            covered: B::EMPTY,
            seed,
            sample_below: u64::MAX / one_in.max(1),
            next_round: 0,
            values: Vec::new(),
            synced: *start,
        };
        r.note(start);
        r
    }

    /// The network, when positions are valued with it.
    fn net(&self) -> Option<&Network> {
        self.evaluation.network().filter(|_| self.network)
    }

    /// What a network correcting the features adds to its own value: the
    /// features' lead of `p` (0 for a network alone).
    fn features_added(&self, pos: &Pos<B>, p: usize) -> i32 {
        if self.evaluation.adds_features() {
            evaluate(self.e, &self.weights, pos, p, false)
        } else {
            0
        }
    }

    /// Notes the ply about to be played from `pos` (reached along `line`,
    /// not over), whose legal moves are `moves`.
    pub fn before(&mut self, pos: &Pos<B>, moves: &[Move], line: &DrawTracker) {
        let ply = self.plies.len();
        let round = ply == self.next_round;
        if round {
            self.next_round += self.players.max(1);
        }
        let sampled =
            self.sample_below == u64::MAX || mix(self.seed ^ ply as u64) <= self.sample_below;
        if round || sampled {
            self.sync(pos);
        }
        let values = round.then(|| self.position_values(pos));
        let near = sampled.then(|| self.near_best(pos, moves, line));
        self.plies.push(Ply {
            moves: moves.len() as u32,
            values,
            near_best: near,
        });
    }

    /// Notes the position the ply just played reached.
    pub fn after(&mut self, pos: &Pos<B>) {
        self.note(pos);
    }

    /// Brings the network accumulator to `pos`.
    fn sync(&mut self, pos: &Pos<B>) {
        if let Some(net) = self.evaluation.network().filter(|_| self.incremental) {
            net.update(&self.synced, pos, &self.acc, &mut self.child_acc);
            std::mem::swap(&mut self.acc, &mut self.child_acc);
            self.synced = *pos;
        }
    }

    /// Counts `pos` for coverage and repetition.
    fn note(&mut self, pos: &Pos<B>) {
        self.hashes.push(pos.hash());
        for p in 0..self.players {
            self.covered |= pos.stones_of(p);
        }
    }

    /// The game's record, once it ended with `outcome`.
    pub fn finish(mut self, outcome: &Outcome) -> GameMetrics {
        let repeated = count_repeats(&mut self.hashes);
        GameMetrics::of(&Trace {
            players: self.players,
            plies: self.plies,
            end: End::of(outcome),
            covered: (self.covered & self.e.board()).count(),
            cells: self.e.board().count(),
            repeated,
        })
    }

    /// Each player's value of `pos`: a player out of the game is at -1.
    fn position_values(&self, pos: &Pos<B>) -> [f32; MAX_PLAYERS] {
        let mut v = [0.0; MAX_PLAYERS];
        let n = self.players;
        match self.net() {
            // The side to move's value; the other player's is its negation.
            Some(net) if self.incremental => {
                let stm = pos.turn();
                let x = squash(net.value(&self.acc, stm) + self.features_added(pos, stm)) as f32;
                v[stm] = x;
                v[1 - stm] = -x;
            }
            Some(net) => {
                for (p, x) in v.iter_mut().enumerate().take(n) {
                    *x = if pos.is_out(p) {
                        -1.0
                    } else {
                        squash(net.evaluate_for(pos, p) + self.features_added(pos, p)) as f32
                    };
                }
            }
            None => {
                let mut s = [i32::MIN; MAX_PLAYERS];
                for (p, x) in s.iter_mut().enumerate().take(n) {
                    if !pos.is_out(p) {
                        *x = score(self.e, &self.weights, pos, p, false);
                    }
                }
                if n == 2 && !pos.is_out(0) && !pos.is_out(1) {
                    // Each one's lead is the other's loss.
                    let x = squash(s[0].saturating_sub(s[1])) as f32;
                    v[0] = x;
                    v[1] = -x;
                    return v;
                }
                for p in 0..n {
                    v[p] = if pos.is_out(p) {
                        -1.0
                    } else {
                        let other = (0..n)
                            .filter(|&q| q != p && s[q] != i32::MIN)
                            .map(|q| s[q])
                            .max()
                            .unwrap_or(s[p]);
                        squash(s[p].saturating_sub(other)) as f32
                    };
                }
            }
        }
        v
    }

    /// How many of `moves` are near the best for the side to move of
    /// `pos`: each valued one ply deep, a move that ends the game at its
    /// result (±1, a draw 0), any other by the evaluation of the position
    /// it reaches.
    fn near_best(&mut self, pos: &Pos<B>, moves: &[Move], line: &DrawTracker) -> u32 {
        let me = pos.turn();
        let mut values = std::mem::take(&mut self.values);
        values.clear();
        for &m in moves {
            let mut child = *pos;
            self.e.apply(&mut child, m);
            // With one legal move declared, `judge` reads only the result
            // the move itself settled (a breakthrough): `line` does not
            // hold the move yet, and was not drawn at `pos`.
            let value = match self.e.judge(&child, 1, line) {
                Some(o) => match o.winner {
                    Some(w) if w == me => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                },
                None => squash(match self.evaluation.network().filter(|_| self.network) {
                    Some(net) if self.incremental => {
                        net.update(pos, &child, &self.acc, &mut self.child_acc);
                        let x = net.value(&self.child_acc, child.turn());
                        let x = if child.turn() == me { x } else { -x };
                        x + self.features_added(&child, me)
                    }
                    Some(net) => net.evaluate_for(&child, me) + self.features_added(&child, me),
                    None => evaluate(self.e, &self.weights, &child, me, false),
                }),
            };
            values.push(value);
        }
        let near = near_best(&values);
        self.values = values;
        near
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use murus_engine::Reason;

    #[test]
    fn the_recorder_evaluates_once_a_round_and_values_every_ply_of_choosing_bots() {
        use crate::play::{GameSetup, play_game};
        use murus_ai::BotSpec;
        use murus_engine::Variant;
        // Shipped networks (standard, houdini), and the generic features
        // with three and four players.
        for name in ["standard", "houdini", "hex3-escape", "escape4"] {
            let v = Variant::builtin(name).unwrap();
            let n = v.player_count();
            let setup = |seats: Vec<BotSpec>| GameSetup {
                measure: crate::play::Measure::Metrics {
                    value_moves_one_in: if seats.contains(&BotSpec::Random) {
                        crate::metrics::CLARITY_SAMPLE
                    } else {
                        1
                    },
                },
                index: 0,
                seed: 3,
                seats,
                colour_of_seat: (0..n).collect(),
                max_plies: 120,
                openings: 0,
                book_line: None,
                opening_seed: 0,
                record_moves: false,
                evaluations: Vec::new(),
            };
            let g = play_game(&v, &setup(vec![BotSpec::Greedy; n]), None).unwrap();
            let (plies, m) = (g.stats.plies, g.stats.metrics.unwrap());
            assert!(plies > 0, "{name}");
            assert_eq!(m.evaluated, plies.div_ceil(n as u32), "{name}");
            assert_eq!(m.clarity_plies, plies, "{name}: greedy values every ply");
            assert!(m.clarity.is_some_and(|c| c.get() > 0.0 && c.get() <= 1.0));
            assert!(m.stability.is_some(), "{name}");
            assert!(0 < m.covered && m.covered <= m.cells, "{name}: {m:?}");
            assert!(m.tree_digits.get() > 0.0);
            assert_eq!(m.drama.is_some(), g.stats.winner.is_some(), "{name}");
            // With a random seat, a sample of the plies only.
            let r = play_game(&v, &setup(vec![BotSpec::Random; n]), None).unwrap();
            let m = r.stats.metrics.unwrap();
            assert!(m.clarity_plies < r.stats.plies.max(2), "{name}: {m:?}");
        }
    }

    /// Plays `plies` plies of `variant` (the first legal move each time)
    /// under a recorder valuing with an untrained network (random
    /// weights), checking at each ply that the values it gives are those
    /// of the network from scratch; returns the game's record.
    fn with_network(variant: &str, plies: usize) -> GameMetrics {
        use murus_ai::Trained;
        use murus_ai::nnue::{Shape, Trainer};
        use murus_engine::{EngineTask, Variant, Word};
        use std::sync::Arc;
        struct Task(usize);
        impl EngineTask for Task {
            type Output = GameMetrics;
            fn run<B: Word>(self, e: &Engine<B>) -> GameMetrics {
                let net = Trainer::new(Shape::of(e), 8, 1).quantize();
                let evaluation = Evaluation::Trained(Arc::new(Trained::Network(net.clone())));
                let mut pos = e.start();
                let mut r = Recorder::new(e, evaluation, &pos, 1, 1);
                let mut line = DrawTracker::new(e.rules().draw, pos.hash());
                let mut moves = e.move_list();
                for _ in 0..self.0 {
                    moves.clear();
                    e.legal_moves(&pos, &mut moves);
                    if e.judge(&pos, moves.len(), &line).is_some() {
                        break;
                    }
                    r.sync(&pos);
                    let fast = r.position_values(&pos);
                    for p in (0..e.players()).filter(|&p| !pos.is_out(p)) {
                        let slow = squash(net.evaluate_for(&pos, p)) as f32;
                        assert!((fast[p] - slow).abs() < 1e-6, "{fast:?} {p} {slow}");
                    }
                    r.before(&pos, &moves, &line);
                    let m = moves[0];
                    let capture = e.is_capture(&pos, m);
                    e.apply(&mut pos, m);
                    line.push(pos.hash(), capture);
                    r.after(&pos);
                }
                r.finish(&Outcome {
                    winner: None,
                    reason: Reason::PlyCap,
                })
            }
        }
        Variant::builtin(variant).unwrap().run(Task(plies))
    }

    #[test]
    fn a_network_values_positions_as_from_scratch_with_two_players_or_more() {
        // Two players: one accumulator kept up to date.
        let m = with_network("standard", 9);
        assert_eq!((m.evaluated, m.clarity_plies), (5, 9));
        assert!(m.clarity.is_some());
        // The values moved: the comparison above compared something.
        assert!(m.stability.is_some_and(|s| s.get() > 0.0), "{m:?}");
        // Three: each player valued from scratch.
        let m = with_network("hex3-escape", 9);
        assert_eq!((m.evaluated, m.clarity_plies), (3, 9));
        assert!(m.clarity.is_some());
        assert!(m.stability.is_some_and(|s| s.get() > 0.0), "{m:?}");
    }
}
