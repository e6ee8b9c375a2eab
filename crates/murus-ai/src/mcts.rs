//! Monte Carlo tree search: UCT with an iteration budget, the tree kept
//! between moves, proven results backed up (MCTS-Solver), and leaves valued
//! by the evaluation (`mcts`) or by playouts that take the greedy move one
//! ply in four (`mcts-guided`).
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

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use murus_engine::{Bits, DrawTracker, Engine, Move, MoveKind, Phase, Pos};
use rand::Rng;
use rand::rngs::SmallRng;

use crate::eval::{Weights, evaluate};

/// Centi-stones of evaluation per unit of the logistic that turns an
/// evaluated leaf into a reward.
const EVAL_SCALE: f64 = 400.0;

const EXPLORATION: f64 = 1.4;

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
    /// Moves not expanded yet; `None` until the node is first visited.
    untried: Option<Vec<Move>>,
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
            untried: None,
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
        } else if n.untried.as_ref().is_some_and(Vec::is_empty)
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
    pub stop: Option<&'a AtomicBool>,
    /// Stop when the clock passes this (checked with the stop flag).
    pub deadline: Option<Instant>,
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
        let weights = Weights::for_engine(self.e);
        let players = self.e.players();
        let solver = players == 2;
        let immediate = self.e.breakthrough_is_immediate();
        let mut path: Vec<(u32, usize)> = Vec::with_capacity(64);
        let mut buffer = self.e.move_list();
        let mut done = 0u64;
        for it in 0..self.iterations {
            if it > 0
                && it & 63 == 0
                && (self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
                    || self.deadline.is_some_and(|d| Instant::now() >= d))
            {
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
            // Selection and expansion, until a leaf, a new node, a proven
            // node or a drawn position.
            let mut expanded = false;
            while line.draw().is_none() && tree.nodes[node as usize].proof == Proof::Unknown {
                let n = &mut tree.nodes[node as usize];
                if n.untried.is_none() {
                    n.untried = Some(self.expansion_order(&p, line, rng, immediate));
                }
                let untried = n.untried.as_mut().expect("just set");
                if let Some(m) = untried.pop() {
                    let mover = seat(p.turn(), swapped);
                    let capture = self.e.is_capture(&p, m);
                    self.e.apply(&mut p, m);
                    line.push(p.hash(), capture);
                    if m.kind == MoveKind::Swap {
                        swapped = !swapped;
                    }
                    let child = tree.nodes.len() as u32;
                    let mut fresh = Node::new(m, p.hash());
                    if solver {
                        (fresh.proof, fresh.plies) =
                            self.prove(&p, line, mover, swapped, immediate);
                    }
                    tree.nodes.push(fresh);
                    tree.nodes[node as usize].children.push(child);
                    path.push((child, mover));
                    expanded = true;
                    break;
                }
                if n.children.is_empty() {
                    break; // terminal
                }
                let ln = f64::from(n.visits.max(1)).ln();
                let mut best = (f64::MIN, u32::MAX);
                let n = &tree.nodes[node as usize];
                for &c in &n.children {
                    let cn = &tree.nodes[c as usize];
                    if cn.proof == Proof::Loss {
                        continue; // never chosen by the player to move
                    }
                    let v = f64::from(cn.visits.max(1));
                    let score = cn.reward / v + EXPLORATION * (ln / v).sqrt();
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
            // The leaf's value: proven, drawn, evaluated or played out.
            let last = path
                .last()
                .map(|&(i, mover)| (tree.nodes[i as usize].proof, mover));
            let rewards = match last {
                Some((Proof::Win, mover)) => one_hot(mover),
                Some((Proof::Loss, mover)) => one_hot(1 - mover),
                _ if self.guided || !expanded => {
                    self.playout(p, swapped, line, rng, &mut buffer, &weights)
                }
                _ => self.evaluate_leaf(&p, swapped, line, &weights),
            };
            while line.plies() > root_plies {
                line.pop();
            }
            // Backpropagation, then the proofs the new result settles.
            tree.nodes[0].visits += 1;
            for &(i, mover) in &path {
                let n = &mut tree.nodes[i as usize];
                n.visits += 1;
                n.reward += rewards[mover];
            }
            if solver {
                let mut chain: Vec<u32> = vec![0];
                chain.extend(path.iter().map(|&(i, _)| i));
                for &i in chain.iter().rev().skip(1) {
                    if !tree.settle(i) {
                        break;
                    }
                }
            }
        }
        // The fastest proven win; else the most visited move not proven
        // lost; else the slowest loss.
        let kids = || {
            tree.nodes[0]
                .children
                .iter()
                .map(|&c| &tree.nodes[c as usize])
        };
        let best = kids()
            .filter(|n| n.proof == Proof::Win)
            .min_by_key(|n| n.plies)
            .or_else(|| {
                kids()
                    .filter(|n| n.proof != Proof::Loss)
                    .max_by_key(|n| n.visits)
            })
            .or_else(|| kids().max_by_key(|n| n.plies))
            .map(|n| n.mv);
        (best, done)
    }

    /// The moves of `p` in the order they are expanded, last first: in a
    /// random order, except that wins at once come first, then moves
    /// threatening to break through, since tactics (and proofs) turn on
    /// them; when the other player threatens to break through, only the
    /// moves that stop it.
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
        if immediate && self.e.players() == 2 {
            let me = p.turn();
            let after = |m: &Move| {
                let mut c = *p;
                self.e.apply(&mut c, *m);
                c
            };
            if self.e.threatens_breakthrough(p, 1 - me) {
                // The opponent breaks through next unless this move stops
                // it (or the draw rules end the game): the other moves are
                // lost, and need no node.
                moves.retain(|m| self.parries(p, *m, line));
            }
            let can_win = self.e.threatens_breakthrough(p, me);
            let rank = |m: &Move| {
                let c = after(m);
                if can_win && self.e.outcome(&c).is_some_and(|o| o.winner == Some(me)) {
                    2 // a win at once
                } else if c.turn() != me && self.e.threatens_breakthrough(&c, me) {
                    1
                } else {
                    0
                }
            };
            // Stable: the others keep their random order.
            moves.sort_by_key(rank);
        }
        moves
    }

    /// What is proven of a new node `p`, reached by `mover`'s move along
    /// `line`: the rules' end of the game, a breakthrough the side to move
    /// can make at once, or one of the other's that it cannot stop.
    fn prove(
        &self,
        p: &Pos<B>,
        line: &mut DrawTracker,
        mover: usize,
        swapped: bool,
        immediate: bool,
    ) -> (Proof, u16) {
        let legal = self.e.count_moves(p) as usize;
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
    /// evaluation, shared out to sum to one.
    fn evaluate_leaf(
        &self,
        p: &Pos<B>,
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
        let mut sum = 0.0;
        for q in 0..players {
            if p.is_out(q) {
                continue;
            }
            let v = f64::from(evaluate(self.e, weights, p, q, true));
            let x = 1.0 / (1.0 + (-v / EVAL_SCALE).exp());
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
                    stop: None,
                    deadline: None,
                };
                let mut tree = Tree::default();
                let mut rng = SmallRng::seed_from_u64(3);
                let start = e.start();
                let mut line = DrawTracker::new(e.rules().draw, start.hash());
                let (best, done) = m.run(&mut tree, &start, &mut line, &mut rng);
                assert_eq!(line.plies(), 0, "the line is left as it was given");
                assert_eq!(done, 2_000);
                assert_eq!(tree.len(), 2_001, "one node per iteration and the root");
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
                tree.reroot(hash);
                assert_eq!(tree.len(), kept);
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
                assert_eq!(tree.len(), kept + done as usize);
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
                        stop: None,
                        deadline: None,
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
