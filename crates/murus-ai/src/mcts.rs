//! Monte Carlo tree search: UCT with an iteration budget, the tree kept
//! between moves, proven results backed up (MCTS-Solver), implicit minimax
//! backups of the evaluation, and leaves valued by the evaluation (`mcts`)
//! or by playouts that take the greedy move one ply in four (`mcts-guided`).
//!
//! **Expansion.** Each iteration descends to a node not expanded yet and
//! expands it whole: a child for every move, each evaluated at once (as a
//! reward between 0 and 1 for its mover) and checked for a proof. The
//! iteration's reward is the expanded node's minimax value (below), or a
//! playout's result (`mcts-guided`).
//!
//! **Implicit minimax backups** (Lanctot, Winands, Pepels and Sturtevant,
//! "Monte Carlo Tree Search with Heuristic Evaluations using Implicit
//! Minimax Backups", 2014), two players: every node keeps, beside its mean
//! reward, the minimax value of the evaluations below it; selection weighs
//! the two together ([`MINIMAX_WEIGHT`]) and adds a small
//! exploration term. A child never visited counts its evaluation as its
//! mean. With more players the mean alone is used.
//!
//! Each node keeps the reward of the player who moved into it, so the search
//! is max^n for any number of players. Rewards: 1 to the winner, 0 to the
//! others; a draw gives each player `1 / players`. An evaluated leaf gives
//! each player the logistic of its evaluation, shared out to sum to one. A
//! pie-rule `swap` hands the colours over, so rewards follow the *seat* that
//! moved, not the colour.
//!
//! **MCTS-Solver** (Winands, Björnsson and Saito, "Monte-Carlo Tree Search
//! Solver", 2008), with two players: a node whose game the rules end, or
//! whose side to move can break through at once, is a proven win or loss
//! for the player who moved into it; a node with a child proven won by the
//! player to move is lost for its own mover, and one whose children are all
//! expanded and all lost is won. Selection never enters a proven node; the
//! move played is a proven win if there is one, and never a proven loss
//! while another move is left.
//!
//! Tree descent and playouts play along the game's [`DrawTracker`], so a
//! node or a playout ends where the game would: by the rules' own results,
//! then by a repetition since the last capture or the ply cap. A node is
//! judged each time the descent reaches it, since whether it repeats depends
//! on the line that leads there, which the tree kept between moves does not
//! fix; proofs are kept with the tree, as rules' results do not depend on
//! the line.

use murus_engine::job::Handler;
use murus_engine::{Bits, DrawTracker, Engine, Move, MoveKind, Phase, Pos};
use rand::Rng;
use rand::rngs::SmallRng;

use crate::eval::{Weights, evaluate, evaluate_counted};
use crate::evalfile::Evaluation;

/// Centi-stones of evaluation per unit of the logistic that turns an
/// evaluated leaf into a reward.
const EVAL_SCALE: f64 = 400.0;

/// The exploration constant of the selection's UCB term. Rewards are
/// evaluations here, not playout results, and a small constant plays best
/// (tuned at 50 ms a move against alpha-beta: `docs/ai.md`); 0.1 played a
/// little better still but missed more of the tactics suite's wins in three
/// (10 of 60; 0.25 misses 5).
const EXPLORATION: f64 = 0.25;

/// How much a child's implicit minimax value weighs beside its mean reward
/// in selection (Lanctot, Winands, Pepels and Sturtevant, "Monte Carlo Tree
/// Search with Heuristic Evaluations using Implicit Minimax Backups", 2014).
const MINIMAX_WEIGHT: f64 = 0.8;

/// The most plies one playout runs. The draw rules end every line in a
/// variant with a ply cap, but a random playout may wander for thousands of
/// plies before it, or forever without one; one that runs this long is
/// scored by evaluation (guided playouts) or called a draw.
const PLAYOUT_CAP: u32 = 300;

#[derive(Clone, Debug)]
struct Node {
    mv: Move,
    hash: u64,
    children: Vec<u32>,
    /// Whether the node's children have been made (on its first visit
    /// after it was made itself).
    expanded: bool,
    /// The implicit minimax value for the player who moved into this node:
    /// its evaluation (as a reward between 0 and 1) until it is expanded,
    /// then one less the best of its children's.
    minimax: f64,
    visits: u32,
    /// Sum of the rewards of the player who moved into this node.
    reward: f64,
    /// The game's result for the player who moved into this node, once
    /// proven (two players only).
    proof: Proof,
    /// Once proven: plies from this node to the end of the game, the winner
    /// hurrying and the loser delaying.
    plies: u16,
}

/// A node's proven result, for the player who moved into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proof {
    Unknown,
    Win,
    Loss,
}

impl Node {
    fn new(mv: Move, hash: u64) -> Node {
        Node {
            mv,
            hash,
            children: Vec::new(),
            expanded: false,
            minimax: 0.5,
            visits: 0,
            reward: 0.0,
            proof: Proof::Unknown,
            plies: 0,
        }
    }
}

/// A search tree, kept between moves of one game.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
}

fn seat(colour: usize, swapped: bool) -> usize {
    if swapped && colour < 2 {
        1 - colour
    } else {
        colour
    }
}

impl Tree {
    /// Makes the node for `hash` the root, keeping its subtree, if it is
    /// within a few plies of the old root; otherwise starts afresh.
    fn reroot(&mut self, hash: u64) {
        match self.nodes.first() {
            None => return,
            Some(n) if n.hash == hash => return,
            Some(_) => {}
        }
        let mut frontier = vec![0u32];
        let mut found = None;
        for _ in 0..6 {
            let mut next = Vec::new();
            for &i in &frontier {
                for &c in &self.nodes[i as usize].children {
                    if self.nodes[c as usize].hash == hash {
                        found = Some(c);
                    }
                    next.push(c);
                }
            }
            if found.is_some() || next.is_empty() {
                break;
            }
            frontier = next;
        }
        let Some(new_root) = found.filter(|_| !self.nodes.is_empty()) else {
            self.nodes.clear();
            return;
        };
        let mut kept = Vec::new();
        let mut stack = vec![(new_root, None::<usize>)];
        while let Some((old, parent)) = stack.pop() {
            let mut node = self.nodes[old as usize].clone();
            let children = std::mem::take(&mut node.children);
            let index = kept.len();
            kept.push(node);
            if let Some(p) = parent {
                let p: &mut Node = &mut kept[p];
                p.children.push(index as u32);
            }
            for c in children.into_iter().rev() {
                stack.push((c, Some(index)));
            }
        }
        self.nodes = kept;
    }

    /// Settles node `i`'s proof from its children (two players): lost for
    /// its mover if a child is won by the player to move, won if every move
    /// is expanded and lost. Returns whether the proof changed.
    fn settle(&mut self, i: u32) -> bool {
        let n = &self.nodes[i as usize];
        if n.proof != Proof::Unknown {
            return false;
        }
        let kids = n.children.iter().map(|&c| &self.nodes[c as usize]);
        let (proof, plies) = if let Some(fastest) = kids
            .clone()
            .filter(|k| k.proof == Proof::Win)
            .map(|k| k.plies)
            .min()
        {
            (Proof::Loss, fastest)
        } else if n.expanded
            && !n.children.is_empty()
            && kids.clone().all(|k| k.proof == Proof::Loss)
        {
            (Proof::Win, kids.map(|k| k.plies).max().unwrap_or(0))
        } else {
            return false;
        };
        let n = &mut self.nodes[i as usize];
        n.proof = proof;
        n.plies = plies.saturating_add(1);
        true
    }

    /// Sets node `i`'s minimax value from its proof or its children (two
    /// players: one less the best child's value for the player to move).
    fn back_up_minimax(&mut self, i: u32) {
        let n = &self.nodes[i as usize];
        let value = match n.proof {
            Proof::Win => 1.0,
            Proof::Loss => 0.0,
            Proof::Unknown if n.expanded && !n.children.is_empty() => {
                let best = n
                    .children
                    .iter()
                    .map(|&c| self.nodes[c as usize].minimax)
                    .fold(0.0, f64::max);
                1.0 - best
            }
            Proof::Unknown => return,
        };
        self.nodes[i as usize].minimax = value;
    }

    /// The child of node `i` a search would play: the fastest proven win;
    /// else the most visited move not proven lost (the better minimax value
    /// between equals); else the slowest loss.
    fn choice(&self, i: u32) -> Option<u32> {
        let kids = || self.nodes[i as usize].children.iter().copied();
        let node = |c: u32| &self.nodes[c as usize];
        kids()
            .filter(|&c| node(c).proof == Proof::Win)
            .min_by_key(|&c| node(c).plies)
            .or_else(|| {
                kids()
                    .filter(|&c| node(c).proof != Proof::Loss)
                    .max_by(|&a, &b| {
                        (node(a).visits, node(a).minimax)
                            .partial_cmp(&(node(b).visits, node(b).minimax))
                            .unwrap_or(std::cmp::Ordering::Equal)
                    })
            })
            .or_else(|| kids().max_by_key(|&c| node(c).plies))
    }

    /// The line the tree expects from its root: the move it would play,
    /// then each side's choice below, as far as the nodes were visited.
    pub fn principal_variation(&self) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut i = 0;
        while let Some(c) = self.nodes.get(i as usize).and_then(|_| self.choice(i)) {
            pv.push(self.nodes[c as usize].mv);
            if self.nodes[c as usize].visits == 0 {
                break;
            }
            i = c;
        }
        pv
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree is empty.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

pub(crate) struct Mcts<'a, B: Bits> {
    pub e: &'a Engine<B>,
    pub iterations: u32,
    pub guided: bool,
    /// Asked every 16 iterations whether to stop (a cancel, a clock); the
    /// budget counts iterations, so that it gives the same move anywhere.
    pub handler: &'a dyn Handler,
    /// How leaves are valued.
    pub evaluation: &'a Evaluation,
}

impl<B: Bits> Mcts<'_, B> {
    /// Runs the search from `pos`, reached along `line`, and returns the
    /// most visited move and the number of iterations done. `line` is left
    /// as it was given.
    pub(crate) fn run(
        &self,
        tree: &mut Tree,
        pos: &Pos<B>,
        line: &mut DrawTracker,
        rng: &mut SmallRng,
    ) -> (Option<Move>, u64) {
        let root_plies = line.plies();
        tree.reroot(pos.hash());
        if tree.nodes.is_empty() {
            tree.nodes.push(Node::new(Move::SWAP, pos.hash()));
        }
        let weights = self
            .evaluation
            .weights()
            .unwrap_or_else(|| Weights::for_engine(self.e));
        let players = self.e.players();
        let solver = players == 2;
        let immediate = self.e.breakthrough_is_immediate();
        let mut path: Vec<(u32, usize)> = Vec::with_capacity(64);
        let mut buffer = self.e.move_list();
        let mut done = 0u64;
        for it in 0..self.iterations {
            if it > 0 && it & 15 == 0 && self.handler.stop() {
                break;
            }
            if tree.nodes[0].proof != Proof::Unknown {
                break; // the root is solved
            }
            done += 1;
            let mut p = *pos;
            let mut swapped = false;
            let mut node = 0u32;
            path.clear();
            // Selection down the tree, until a node never expanded (which is
            // expanded now), a proven node, or a drawn position.
            let mut expanded = false;
            while line.draw().is_none() && tree.nodes[node as usize].proof == Proof::Unknown {
                if !tree.nodes[node as usize].expanded {
                    self.expand(tree, node, &p, swapped, line, rng, immediate, &weights);
                    expanded = true;
                    break;
                }
                let n = &tree.nodes[node as usize];
                if n.children.is_empty() {
                    break; // terminal
                }
                let ln = f64::from(n.visits.max(1)).ln();
                let mut best = (f64::MIN, u32::MAX);
                for &c in &n.children {
                    let cn = &tree.nodes[c as usize];
                    if cn.proof == Proof::Loss {
                        continue; // never chosen by the player to move
                    }
                    let v = f64::from(cn.visits);
                    let mean = if cn.visits == 0 {
                        cn.minimax
                    } else {
                        cn.reward / v
                    };
                    let q = if solver {
                        (1.0 - MINIMAX_WEIGHT) * mean + MINIMAX_WEIGHT * cn.minimax
                    } else {
                        mean
                    };
                    let score = q + EXPLORATION * (ln / (v + 1.0)).sqrt();
                    if score > best.0 {
                        best = (score, c);
                    }
                }
                if best.1 == u32::MAX {
                    break; // every child lost: the node is being proven
                }
                let m = tree.nodes[best.1 as usize].mv;
                let mover = seat(p.turn(), swapped);
                let capture = self.e.is_capture(&p, m);
                self.e.apply(&mut p, m);
                line.push(p.hash(), capture);
                if m.kind == MoveKind::Swap {
                    swapped = !swapped;
                }
                node = best.1;
                path.push((node, mover));
            }
            // The leaf's value: proven, drawn, expanded or played out.
            let last = path
                .last()
                .map(|&(i, mover)| (tree.nodes[i as usize].proof, mover));
            let rewards = match last {
                Some((Proof::Win, mover)) => one_hot(mover),
                Some((Proof::Loss, mover)) => one_hot(1 - mover),
                _ if self.guided || !expanded => {
                    self.playout(p, swapped, line, rng, &mut buffer, &weights)
                }
                Some((_, mover)) if solver => {
                    let x = tree.nodes[node as usize].minimax;
                    let mut r = [0.0; 4];
                    r[mover] = x;
                    r[1 - mover] = 1.0 - x;
                    r
                }
                _ => self.evaluate_leaf(&p, None, swapped, line, &weights),
            };
            while line.plies() > root_plies {
                line.pop();
            }
            // Backpropagation, then the proofs and minimax values the new
            // result settles.
            tree.nodes[0].visits += 1;
            for &(i, mover) in &path {
                let n = &mut tree.nodes[i as usize];
                n.visits += 1;
                n.reward += rewards[mover];
            }
            if solver {
                let mut chain: Vec<u32> = vec![0];
                chain.extend(path.iter().map(|&(i, _)| i));
                for &i in chain.iter().rev() {
                    tree.settle(i);
                    tree.back_up_minimax(i);
                }
            }
        }
        let best = tree.choice(0).map(|c| tree.nodes[c as usize].mv);
        (best, done)
    }

    /// Expands node `i` at `p`: a child for every move worth a node, each
    /// with what is proven of it and its evaluation for its mover.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &self,
        tree: &mut Tree,
        i: u32,
        p: &Pos<B>,
        swapped: bool,
        line: &mut DrawTracker,
        rng: &mut SmallRng,
        immediate: bool,
        weights: &Weights,
    ) {
        let solver = self.e.players() == 2;
        let moves = self.expansion_order(p, line, rng, immediate);
        let mover = seat(p.turn(), swapped);
        for m in moves {
            let mut c = *p;
            let capture = self.e.is_capture(p, m);
            self.e.apply(&mut c, m);
            line.push(c.hash(), capture);
            let child_swapped = swapped ^ (m.kind == MoveKind::Swap);
            let mut fresh = Node::new(m, c.hash());
            // The side to move's moves, counted once for the proof and the
            // evaluation.
            let legal = self.e.count_moves(&c) as usize;
            if solver {
                (fresh.proof, fresh.plies) =
                    self.prove(&c, legal, line, mover, child_swapped, immediate);
            }
            fresh.minimax = match fresh.proof {
                Proof::Win => 1.0,
                Proof::Loss => 0.0,
                Proof::Unknown => {
                    self.evaluate_leaf(&c, Some(legal), child_swapped, line, weights)[mover]
                }
            };
            line.pop();
            let index = tree.nodes.len() as u32;
            tree.nodes.push(fresh);
            tree.nodes[i as usize].children.push(index);
        }
        tree.nodes[i as usize].expanded = true;
        if solver {
            tree.settle(i);
            tree.back_up_minimax(i);
        }
    }

    /// The moves of `p` that get a node, in a random order (which breaks
    /// ties between equal children): when the other player threatens to
    /// break through, only the moves that stop it.
    fn expansion_order(
        &self,
        p: &Pos<B>,
        line: &mut DrawTracker,
        rng: &mut SmallRng,
        immediate: bool,
    ) -> Vec<Move> {
        let mut moves = Vec::new();
        self.e.legal_moves(p, &mut moves);
        for i in (1..moves.len()).rev() {
            moves.swap(i, rng.random_range(0..=i));
        }
        if immediate && self.e.players() == 2 && self.e.threatens_breakthrough(p, 1 - p.turn()) {
            // The opponent breaks through next unless this move stops it (or
            // the draw rules end the game): the other moves are lost, and
            // need no node.
            moves.retain(|m| self.parries(p, *m, line));
        }
        moves
    }

    /// What is proven of a new node `p`, reached by `mover`'s move along
    /// `line`: the rules' end of the game, a breakthrough the side to move
    /// can make at once, or one of the other's that it cannot stop.
    #[allow(clippy::too_many_arguments)]
    fn prove(
        &self,
        p: &Pos<B>,
        legal: usize,
        line: &mut DrawTracker,
        mover: usize,
        swapped: bool,
        immediate: bool,
    ) -> (Proof, u16) {
        match self.e.judge(p, legal, line) {
            Some(end) => match end.winner {
                Some(w) if seat(w, swapped) == mover => (Proof::Win, 0),
                Some(_) => (Proof::Loss, 0),
                None => (Proof::Unknown, 0),
            },
            None if immediate && self.e.threatens_breakthrough(p, p.turn()) => {
                if seat(p.turn(), swapped) == mover {
                    (Proof::Win, 1)
                } else {
                    (Proof::Loss, 1)
                }
            }
            // The side to move cannot stop the other's breakthrough.
            None if immediate
                && self.e.players() == 2
                && p.phase() == Phase::Normal
                && seat(p.turn(), swapped) != mover
                && self.e.threatens_breakthrough(p, 1 - p.turn())
                && !self.can_parry(p, line) =>
            {
                (Proof::Win, 2)
            }
            None => (Proof::Unknown, 0),
        }
    }

    /// Whether `m`, played in `p` along `line`, leaves the other player no
    /// breakthrough at once, or ends the game by the draw rules (two
    /// players).
    fn parries(&self, p: &Pos<B>, m: Move, line: &mut DrawTracker) -> bool {
        let mut c = *p;
        self.e.apply(&mut c, m);
        if !self.e.threatens_breakthrough(&c, 1 - p.turn()) {
            return true;
        }
        line.push(c.hash(), self.e.is_capture(p, m));
        let drawn = line.draw().is_some();
        line.pop();
        drawn
    }

    /// Whether the side to move of `p`, reached along `line`, has a move
    /// that [parries](Self::parries).
    fn can_parry(&self, p: &Pos<B>, line: &mut DrawTracker) -> bool {
        let mut moves = self.e.move_list();
        self.e.legal_moves(p, &mut moves);
        moves.iter().any(|&m| self.parries(p, m, line))
    }

    /// The rewards of an evaluated leaf: each seat's logistic of its
    /// evaluation, shared out to sum to one. `legal`: the side to move's
    /// moves, when counted already.
    fn evaluate_leaf(
        &self,
        p: &Pos<B>,
        legal: Option<usize>,
        swapped: bool,
        line: &DrawTracker,
        weights: &Weights,
    ) -> [f64; 4] {
        let players = self.e.players();
        let mut r = [0.0; 4];
        if let Some(end) = self.e.end_of_game(p, line) {
            match end.winner {
                Some(w) => r[seat(w, swapped)] = 1.0,
                None => r[..players].fill(1.0 / players as f64),
            }
            return r;
        }
        let logistic = |v: i32| 1.0 / (1.0 + (-f64::from(v) / EVAL_SCALE).exp());
        if players == 2 {
            // One evaluation serves both: the second player's is the
            // negation of the first's.
            let net = self.evaluation.network().filter(|n| n.fits(self.e));
            let features = || match legal {
                Some(n) if p.phase() == Phase::Normal => {
                    evaluate_counted(self.e, weights, p, 0, n as u64)
                }
                _ => evaluate(self.e, weights, p, 0, true),
            };
            let v = match net {
                Some(net) if self.evaluation.adds_features() => net.evaluate_for(p, 0) + features(),
                Some(net) => net.evaluate_for(p, 0),
                None => features(),
            };
            let x = logistic(v);
            r[seat(0, swapped)] = x;
            r[seat(1, swapped)] = 1.0 - x;
            return r;
        }
        let net = self.evaluation.network().filter(|n| n.fits(self.e));
        // A network gives each player's expected score (its value counts
        // from the fair share); the features each player's lead.
        let offset = net.map_or(0, |n| crate::nnue::fair_offset(n.shape.players));
        let mut acc = [0; crate::nnue::MAX_HIDDEN];
        if let Some(net) = net {
            net.refresh(p, &mut acc[..net.hidden]);
        }
        let mut sum = 0.0;
        for q in 0..players {
            if p.is_out(q) {
                continue;
            }
            let x = logistic(match net {
                Some(net) if self.evaluation.adds_features() => {
                    net.value_for(&acc[..net.hidden], p.turn(), q) - offset
                        + evaluate(self.e, weights, p, q, true)
                }
                Some(net) => net.value_for(&acc[..net.hidden], p.turn(), q) - offset,
                None => evaluate(self.e, weights, p, q, true),
            });
            r[seat(q, swapped)] = x;
            sum += x;
        }
        if sum > 0.0 {
            for x in &mut r[..players] {
                *x /= sum;
            }
        }
        r
    }

    /// Plays to the end along `line` (or for [`PLAYOUT_CAP`] plies) and
    /// returns each seat's reward.
    fn playout(
        &self,
        mut p: Pos<B>,
        mut swapped: bool,
        line: &mut DrawTracker,
        rng: &mut SmallRng,
        buffer: &mut Vec<Move>,
        weights: &Weights,
    ) -> [f64; 4] {
        let players = self.e.players();
        let mut plies = 0;
        loop {
            buffer.clear();
            self.e.legal_moves(&p, buffer);
            if let Some(end) = self.e.judge(&p, buffer.len(), line) {
                let mut r = [0.0; 4];
                match end.winner {
                    Some(w) => r[seat(w, swapped)] = 1.0,
                    None => r[..players].fill(1.0 / players as f64),
                }
                return r;
            }
            if plies >= PLAYOUT_CAP {
                // Unfinished: score by evaluation (guided) or call it a draw.
                let mut r = [0.0; 4];
                if self.guided {
                    let vals: Vec<i32> = (0..players)
                        .map(|q| evaluate(self.e, weights, &p, q, false))
                        .collect();
                    let best = (0..players).max_by_key(|&q| vals[q]).unwrap_or(0);
                    r[seat(best, swapped)] = 1.0;
                } else {
                    r[..players].fill(1.0 / players as f64);
                }
                return r;
            }
            let m = if self.guided && buffer.len() > 1 && rng.random_range(0..4) == 0 {
                // One ply in four: the greedy choice, for sharper playouts.
                let me = p.turn();
                let mut best = (i32::MIN, buffer[0]);
                for &m in buffer.iter() {
                    let mut c = p;
                    self.e.apply(&mut c, m);
                    let v = match self.e.outcome(&c) {
                        Some(o) if o.winner == Some(me) => i32::MAX,
                        _ => evaluate(self.e, weights, &c, me, false),
                    };
                    if v > best.0 {
                        best = (v, m);
                    }
                }
                best.1
            } else {
                buffer[rng.random_range(0..buffer.len())]
            };
            let capture = self.e.is_capture(&p, m);
            self.e.apply(&mut p, m);
            line.push(p.hash(), capture);
            if m.kind == MoveKind::Swap {
                swapped = !swapped;
            }
            plies += 1;
        }
    }
}

/// A reward of one to `seat`.
fn one_hot(seat: usize) -> [f64; 4] {
    let mut r = [0.0; 4];
    r[seat] = 1.0;
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use murus_engine::{EngineTask, Variant, Word};
    use rand::SeedableRng;

    fn subtree(tree: &Tree, i: u32) -> usize {
        1 + tree.nodes[i as usize]
            .children
            .iter()
            .map(|&c| subtree(tree, c))
            .sum::<usize>()
    }

    fn expanded(tree: &Tree) -> usize {
        tree.nodes.iter().filter(|n| n.expanded).count()
    }

    fn expanded_below(tree: &Tree, i: u32) -> usize {
        let n = &tree.nodes[i as usize];
        usize::from(n.expanded)
            + n.children
                .iter()
                .map(|&c| expanded_below(tree, c))
                .sum::<usize>()
    }

    fn most_visited(tree: &Tree, i: u32) -> u32 {
        *tree.nodes[i as usize]
            .children
            .iter()
            .max_by_key(|&&c| tree.nodes[c as usize].visits)
            .expect("an explored node")
    }

    #[test]
    fn rerooting_two_plies_down_keeps_that_subtree() {
        struct Task;
        impl EngineTask for Task {
            type Output = ();
            fn run<B: Word>(self, e: &Engine<B>) {
                let m = Mcts {
                    e,
                    iterations: 2_000,
                    guided: false,
                    handler: &(),
                    evaluation: &Evaluation::Generic,
                };
                let mut tree = Tree::default();
                let mut rng = SmallRng::seed_from_u64(3);
                let start = e.start();
                let mut line = DrawTracker::new(e.rules().draw, start.hash());
                let (best, done) = m.run(&mut tree, &start, &mut line, &mut rng);
                assert_eq!(line.plies(), 0, "the line is left as it was given");
                assert_eq!(done, 2_000);
                assert_eq!(expanded(&tree), 2_000, "one node expanded per iteration");
                assert!(tree.len() > 10 * 2_000, "each with a child for every move");
                // The bot's move, then the opponent's most explored reply.
                let child = most_visited(&tree, 0);
                assert_eq!(Some(tree.nodes[child as usize].mv), best);
                let grandchild = most_visited(&tree, child);
                let kept = subtree(&tree, grandchild);
                let (hash, visits) = {
                    let n = &tree.nodes[grandchild as usize];
                    (n.hash, n.visits)
                };
                assert!(kept > 1, "the reply was searched below");
                let kept_expanded = expanded_below(&tree, grandchild);
                tree.reroot(hash);
                assert_eq!(tree.len(), kept);
                assert_eq!(expanded(&tree), kept_expanded);
                assert_eq!((tree.nodes[0].hash, tree.nodes[0].visits), (hash, visits));
                // The next search starts from the kept statistics.
                let mut pos = start;
                e.apply(&mut pos, tree_move(best));
                let mut reply = pos;
                let mut moves = Vec::new();
                e.legal_moves(&pos, &mut moves);
                let r = moves
                    .iter()
                    .find(|&&mv| {
                        let mut p = pos;
                        e.apply(&mut p, mv);
                        p.hash() == hash
                    })
                    .expect("the reply is legal");
                e.apply(&mut reply, *r);
                let mut line = DrawTracker::new(e.rules().draw, reply.hash());
                let (_, done) = m.run(&mut tree, &reply, &mut line, &mut rng);
                assert_eq!(expanded(&tree), kept_expanded + done as usize);
                assert_eq!(tree.nodes[0].visits, visits + done as u32);
                // An unknown position starts afresh.
                tree.reroot(hash ^ 1);
                assert!(tree.is_empty());
            }
        }
        fn tree_move(m: Option<Move>) -> Move {
            m.expect("the start has moves")
        }
        Variant::standard().run(Task);
    }

    #[test]
    fn a_playout_ends_at_the_games_ply_cap() {
        struct Task;
        impl EngineTask for Task {
            type Output = ();
            fn run<B: Word>(self, e: &Engine<B>) {
                let start = e.start();
                let weights = Weights::for_engine(e);
                let mut buffer = e.move_list();
                let mut rng = SmallRng::seed_from_u64(5);
                for guided in [false, true] {
                    let m = Mcts {
                        e,
                        iterations: 1,
                        guided,
                        handler: &(),
                        evaluation: &Evaluation::Generic,
                    };
                    // Two plies into a game capped at four: no side can
                    // break through from the start in two moves of its own.
                    let mut line =
                        DrawTracker::new(e.rules().draw, start.hash()).with_ply_cap(Some(4));
                    let mut pos = start;
                    for _ in 0..2 {
                        buffer.clear();
                        e.legal_moves(&pos, &mut buffer);
                        let mv = buffer[rng.random_range(0..buffer.len())];
                        let capture = e.is_capture(&pos, mv);
                        e.apply(&mut pos, mv);
                        line.push(pos.hash(), capture);
                    }
                    let r = m.playout(pos, false, &mut line, &mut rng, &mut buffer, &weights);
                    assert_eq!(line.plies(), 4, "guided: {guided}");
                    assert_eq!(r, [0.5, 0.5, 0.0, 0.0], "a draw, guided: {guided}");
                }
            }
        }
        Variant::standard().run(Task);
    }
}
