//! A small efficiently updatable network (NNUE-style) for any variant:
//! one-hot inputs, one hidden layer, integer inference, updated
//! incrementally as the search makes moves.
//!
//! **Inputs.** One per (player, height, cell): the cell holds a stack of
//! that player of exactly that height. Cells are the board's slots, so the
//! inputs follow whatever board the rules describe; a position has one
//! active input per occupied cell.
//!
//! **Layers.** `hidden = clamp(W1·x + b1, 0, 1)`, then the value for the
//! side to move `v = w2[stm]·hidden + b2[stm]`, in units of the logistic:
//! the side to move's expected score is `1 / (1 + e^−v)`, and the search
//! reads `v · 400` centi-stones, the scale of the hand-made evaluation.
//! The inputs are absolute (not turned to the side to move's view, which
//! would need a mapping of the board onto itself that not every variant
//! has); the output layer has one row per side to move instead.
//!
//! **Three or four players.** A paranoid search needs the value of a
//! position for its own player whoever is to move, so such a network has a
//! row per (side to move, player): row `stm · players + p` is the logit of
//! `p`'s expected score (a win 1, a draw a fair share) with `stm` to move.
//! The search reads it less the logit of the fair share `1 / players`, so
//! that an even position is worth 0, as a draw is ([`Network::value_for`]).
//!
//! **Integers.** Inference runs in integers: `W1` and `b1` scaled by
//! [`QA`] (the hidden units then clip to `0..=QA`), `w2` by [`QB`]. The
//! accumulator `W1·x + b1` is kept per ply of the search and changed only
//! where a move changed the board ([`Network::update`]): a move touches a
//! few cells, so a few rows are added and subtracted.
//!
//! Training is in floats ([`Trainer`]), with Adam, on positions labelled by
//! a search score and a game result; [`Trainer::quantize`] gives the
//! integer network.

use murus_engine::util::SplitMix64;
use murus_engine::{Bits, Engine, Pos};

/// Scale of the first layer: a hidden unit's full activation.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centi-stones per unit of the network's output (the logistic's scale).
pub const CP_PER_UNIT: i32 = 400;
/// First-layer weights stay within this bound in training, so that they fit
/// in `i16` once scaled by [`QA`].
const W1_BOUND: f32 = 127.0;
/// Output weights stay within this bound, so that they fit once scaled by
/// [`QB`].
const W2_BOUND: f32 = 500.0;

/// The most hidden units a network may have.
pub const MAX_HIDDEN: usize = 256;

/// The shape of a network's inputs: which board and pieces it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Slots of the board (cells and the gaps of the board's layout).
    pub slots: usize,
    pub players: usize,
    /// The tallest stack.
    pub heights: usize,
}

impl Shape {
    /// The shape of a variant's positions.
    pub fn of<B: Bits>(e: &Engine<B>) -> Shape {
        let rules = e.rules();
        Shape {
            slots: rules.geometry.slots(),
            players: e.players(),
            heights: usize::from(rules.stack_limit),
        }
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.slots * self.players * self.heights
    }

    /// Number of output rows: one per side to move with two players, one
    /// per (side to move, player) with more.
    pub fn outputs(&self) -> usize {
        if self.players <= 2 {
            self.players
        } else {
            self.players * self.players
        }
    }

    /// The output row that values the position for `player` with `stm` to
    /// move (with two players, `stm`'s row: `player`'s value is its
    /// negation when `player` is not to move).
    #[inline]
    pub fn output(&self, stm: usize, player: usize) -> usize {
        if self.players <= 2 {
            stm
        } else {
            stm * self.players + player
        }
    }

    /// The input of a stack of player `p`, `h` high, on `slot`.
    #[inline]
    pub fn input(&self, p: usize, h: usize, slot: usize) -> usize {
        (p * self.heights + (h - 1)) * self.slots + slot
    }

    /// Calls `f` with each active input of `pos`, in increasing order.
    #[inline]
    pub fn for_each_active<B: Bits>(&self, pos: &Pos<B>, mut f: impl FnMut(usize)) {
        for p in 0..self.players {
            let own = pos.stones_of(p);
            for h in 1..=self.heights {
                for slot in (own & pos.with_height(h as u8)).iter() {
                    f(self.input(p, h, slot));
                }
            }
        }
    }

    /// The active inputs of `pos`, in increasing order.
    pub fn active<B: Bits>(&self, pos: &Pos<B>) -> Vec<u16> {
        let mut out = Vec::with_capacity(64);
        self.for_each_active(pos, |i| out.push(i as u16));
        out
    }
}

/// A trained network in integers, as the search runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub shape: Shape,
    pub hidden: usize,
    /// `w1[input * hidden + j]`, scaled by [`QA`].
    pub w1: Vec<i16>,
    /// Scaled by [`QA`].
    pub b1: Vec<i16>,
    /// `w2[row * hidden + j]`, scaled by [`QB`]; rows as
    /// [`Shape::output`] numbers them.
    pub w2: Vec<i16>,
    /// Scaled by `QA · QB`.
    pub b2: Vec<i32>,
}

impl Network {
    /// Whether the network reads this engine's positions.
    pub fn fits<B: Bits>(&self, e: &Engine<B>) -> bool {
        self.shape == Shape::of(e)
    }

    /// Sets `acc` (`hidden` long) to the accumulator of `pos` from scratch.
    pub fn refresh<B: Bits>(&self, pos: &Pos<B>, acc: &mut [i32]) {
        for (a, &b) in acc.iter_mut().zip(&self.b1) {
            *a = i32::from(b);
        }
        self.shape.for_each_active(pos, |i| self.add(acc, i));
    }

    #[inline]
    fn add(&self, acc: &mut [i32], input: usize) {
        let row = &self.w1[input * self.hidden..][..self.hidden];
        for (a, &w) in acc.iter_mut().zip(row) {
            *a += i32::from(w);
        }
    }

    #[inline]
    fn sub(&self, acc: &mut [i32], input: usize) {
        let row = &self.w1[input * self.hidden..][..self.hidden];
        for (a, &w) in acc.iter_mut().zip(row) {
            *a -= i32::from(w);
        }
    }

    /// Sets `acc` to the accumulator of `child` from `parent`'s (`from`):
    /// only the cells whose stack changed are read.
    pub fn update<B: Bits>(&self, parent: &Pos<B>, child: &Pos<B>, from: &[i32], acc: &mut [i32]) {
        acc.copy_from_slice(from);
        let s = self.shape;
        for p in 0..s.players {
            let (was, is) = (parent.stones_of(p), child.stones_of(p));
            for h in 1..=s.heights {
                let before = was & parent.with_height(h as u8);
                let after = is & child.with_height(h as u8);
                let changed = before ^ after;
                if changed.is_empty() {
                    continue;
                }
                for slot in (changed & before).iter() {
                    self.sub(acc, s.input(p, h, slot));
                }
                for slot in (changed & after).iter() {
                    self.add(acc, s.input(p, h, slot));
                }
            }
        }
    }

    /// The value for the side to move `stm` of the position whose
    /// accumulator is `acc`, in centi-stones (two players: the side to
    /// move's row; more: [`Network::value_for`] the side to move).
    #[inline]
    pub fn value(&self, acc: &[i32], stm: usize) -> i32 {
        self.value_for(acc, stm, stm)
    }

    /// Output row `row` of the position whose accumulator is `acc`, in
    /// centi-stones.
    #[inline]
    fn row(&self, acc: &[i32], row: usize) -> i32 {
        let w = &self.w2[row * self.hidden..][..self.hidden];
        // A clipped unit times a weight is at most 255 · 32 768 in size, so
        // the sum of at most `MAX_HIDDEN` (256) of them stays below 2^31:
        // summed in `i32`, exactly, as pairs of `i16` products (which the
        // compiler turns into one multiply-add instruction a pair).
        const _: () = assert!(QA as i64 * 32_768 * MAX_HIDDEN as i64 <= i32::MAX as i64);
        debug_assert!(self.hidden <= MAX_HIDDEN);
        let mut dot: i32 = 0;
        for (&a, &w) in acc.iter().zip(w) {
            dot += i32::from(a.clamp(0, QA) as i16) * i32::from(w);
        }
        let sum = i64::from(dot) + i64::from(self.b2[row]);
        (sum * i64::from(CP_PER_UNIT) / i64::from(QA * QB)) as i32
    }

    /// The value for `player` of the position whose accumulator is `acc`
    /// and whose side to move is `stm`, in centi-stones. Two players: the
    /// side to move's row, negated for the other player. More: the logit
    /// of `player`'s expected score less that of the fair share (0 for an
    /// even position).
    #[inline]
    pub fn value_for(&self, acc: &[i32], stm: usize, player: usize) -> i32 {
        let players = self.shape.players;
        if players <= 2 {
            let v = self.row(acc, stm);
            return if stm == player { v } else { -v };
        }
        self.row(acc, self.shape.output(stm, player)) + fair_offset(players)
    }

    /// The value of `pos` for its side to move, in centi-stones, from
    /// scratch.
    pub fn evaluate<B: Bits>(&self, pos: &Pos<B>) -> i32 {
        let mut acc = [0; MAX_HIDDEN];
        let acc = &mut acc[..self.hidden];
        self.refresh(pos, acc);
        self.value(acc, pos.turn())
    }

    /// The value of `pos` for `player`, in centi-stones, from scratch
    /// ([`Network::value_for`]).
    pub fn evaluate_for<B: Bits>(&self, pos: &Pos<B>, player: usize) -> i32 {
        let mut acc = [0; MAX_HIDDEN];
        let acc = &mut acc[..self.hidden];
        self.refresh(pos, acc);
        self.value_for(acc, pos.turn(), player)
    }
}

/// The negated logit of the fair share `1 / players`, in centi-stones:
/// `ln(players − 1)` units (0 with two players).
pub fn fair_offset(players: usize) -> i32 {
    let others = players.saturating_sub(1).max(1) as f64;
    (others.ln() * f64::from(CP_PER_UNIT)).round() as i32
}

/// One training position: its active inputs, the output row to train
/// ([`Shape::output`]: the side to move's with two players) and the
/// expected score that row should give (between 0 and 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub inputs: Vec<u16>,
    pub row: u8,
    pub target: f32,
    /// Added to the output before the logistic, in its units: the generic
    /// features' value of the row's player for a network that learns a
    /// correction to them ([`crate::Trained::Hybrid`]); 0 otherwise.
    pub base: f32,
}

/// A network in floats, with Adam's moments: the trainer.
///
/// Plain mini-batch gradient descent on the squared error between the
/// logistic of the output and the target, as in Texel tuning and the NNUE
/// trainers (`nnue-pytorch`, `bullet`): small enough to write out, and it
/// runs in a few minutes on a laptop core.
#[derive(Clone, Debug)]
pub struct Trainer {
    pub shape: Shape,
    pub hidden: usize,
    params: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

/// Adam's settings.
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl Trainer {
    /// A network of `hidden` units with small weights drawn from `seed`
    /// (a fixed generator, so training reproduces).
    pub fn new(shape: Shape, hidden: usize, seed: u64) -> Trainer {
        let hidden = hidden.clamp(1, MAX_HIDDEN);
        let n = Self::len(shape, hidden);
        let mut params = vec![0.0; n];
        let mut g = SplitMix64(seed ^ 0x5eed_0f0e_7500);
        // SplitMix64 to a float in [-1, 1).
        let mut uniform = || (g.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0;
        let w1 = shape.inputs() * hidden;
        for p in &mut params[..w1] {
            *p = 0.1 * uniform();
        }
        // Hidden units start half on, so that every unit learns.
        for p in &mut params[w1..w1 + hidden] {
            *p = 0.5;
        }
        let w2 = w1 + hidden;
        for p in &mut params[w2..w2 + shape.outputs() * hidden] {
            *p = 0.1 * uniform();
        }
        Trainer {
            shape,
            hidden,
            m: vec![0.0; n],
            v: vec![0.0; n],
            params,
            step: 0,
        }
    }

    fn len(shape: Shape, hidden: usize) -> usize {
        shape.inputs() * hidden + hidden + shape.outputs() * hidden + shape.outputs()
    }

    fn offsets(&self) -> (usize, usize, usize) {
        let w1 = self.shape.inputs() * self.hidden;
        (
            w1,
            w1 + self.hidden,
            w1 + self.hidden + self.shape.outputs() * self.hidden,
        )
    }

    /// The output (logistic units) for an example, and the hidden
    /// pre-activations in `z`.
    fn forward(&self, x: &Example, z: &mut [f32]) -> f32 {
        let (b1, w2, b2) = self.offsets();
        let h = self.hidden;
        z.copy_from_slice(&self.params[b1..b1 + h]);
        for &i in &x.inputs {
            let row = &self.params[usize::from(i) * h..][..h];
            for (a, &w) in z.iter_mut().zip(row) {
                *a += w;
            }
        }
        let r = usize::from(x.row);
        let row = &self.params[w2 + r * h..][..h];
        let mut out = self.params[b2 + r] + x.base;
        for (&a, &w) in z.iter().zip(row) {
            out += a.clamp(0.0, 1.0) * w;
        }
        out
    }

    /// The output for an example, in units of the logistic (its base
    /// included).
    pub fn output(&self, x: &Example) -> f32 {
        let mut z = vec![0.0; self.hidden];
        self.forward(x, &mut z)
    }

    /// The mean squared error of the logistic of the output against the
    /// targets.
    pub fn error(&self, data: &[Example]) -> f64 {
        let mut z = vec![0.0; self.hidden];
        let sum: f64 = data
            .iter()
            .map(|x| {
                let p = logistic(self.forward(x, &mut z));
                f64::from((p - x.target) * (p - x.target))
            })
            .sum();
        sum / data.len().max(1) as f64
    }

    /// One step of Adam on a batch, at learning rate `rate`.
    pub fn step(&mut self, batch: &[Example], rate: f32) {
        let (b1, w2, b2) = self.offsets();
        let h = self.hidden;
        let mut grad = vec![0.0f32; self.params.len()];
        let mut z = vec![0.0; h];
        let scale = 1.0 / batch.len().max(1) as f32;
        for x in batch {
            let out = self.forward(x, &mut z);
            let p = logistic(out);
            let g = 2.0 * (p - x.target) * p * (1.0 - p) * scale;
            let r = usize::from(x.row);
            grad[b2 + r] += g;
            let row = w2 + r * h;
            let mut dz = vec![0.0f32; h];
            for j in 0..h {
                let a = z[j];
                grad[row + j] += g * a.clamp(0.0, 1.0);
                if a > 0.0 && a < 1.0 {
                    dz[j] = g * self.params[row + j];
                }
            }
            for j in 0..h {
                grad[b1 + j] += dz[j];
            }
            for &i in &x.inputs {
                let r = usize::from(i) * h;
                for j in 0..h {
                    grad[r + j] += dz[j];
                }
            }
        }
        self.step += 1;
        let c1 = 1.0 - BETA1.powi(self.step);
        let c2 = 1.0 - BETA2.powi(self.step);
        let moments = self.m.iter_mut().zip(self.v.iter_mut());
        for ((p, &g), (m, v)) in self.params.iter_mut().zip(&grad).zip(moments) {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p -= rate * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
        }
        for p in &mut self.params[..b1] {
            *p = p.clamp(-W1_BOUND, W1_BOUND);
        }
        for p in &mut self.params[w2..b2] {
            *p = p.clamp(-W2_BOUND, W2_BOUND);
        }
    }

    /// The network in integers.
    pub fn quantize(&self) -> Network {
        let (b1, w2, b2) = self.offsets();
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        Network {
            shape: self.shape,
            hidden: self.hidden,
            w1: self.params[..b1].iter().map(|&x| q(x, QA)).collect(),
            b1: self.params[b1..w2].iter().map(|&x| q(x, QA)).collect(),
            w2: self.params[w2..b2].iter().map(|&x| q(x, QB)).collect(),
            b2: self.params[b2..]
                .iter()
                .map(|&x| (x * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }
}

fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use murus_engine::{EngineTask, Variant, Word};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Plays random games of `variant` and checks, after every move, that
    /// the accumulator updated from the parent's equals one computed from
    /// scratch, and that the integer network agrees with the float one.
    struct Walk {
        seed: u64,
    }

    impl EngineTask for Walk {
        type Output = usize;
        fn run<B: Word>(self, e: &Engine<B>) -> usize {
            let shape = Shape::of(e);
            let mut trainer = Trainer::new(shape, 16, self.seed);
            // A few steps on made-up targets, so that weights differ from
            // their start and clipping is exercised.
            let mut rng = SmallRng::seed_from_u64(self.seed);
            let start = e.start();
            let x = Example {
                inputs: shape.active(&start),
                row: 0,
                target: 0.9,
                base: 0.0,
            };
            for _ in 0..50 {
                trainer.step(std::slice::from_ref(&x), 0.05);
            }
            let net = trainer.quantize();
            let h = net.hidden;
            let mut acc = vec![0; h];
            let mut next = vec![0; h];
            let mut checked = 0;
            let mut differences = 0.0;
            for _ in 0..20 {
                let mut pos = e.start();
                net.refresh(&pos, &mut acc);
                let mut moves = e.move_list();
                for _ in 0..80 {
                    moves.clear();
                    e.legal_moves(&pos, &mut moves);
                    if moves.is_empty() || e.outcome(&pos).is_some() {
                        break;
                    }
                    let m = moves[rng.random_range(0..moves.len())];
                    let mut child = pos;
                    e.apply(&mut child, m);
                    net.update(&pos, &child, &acc, &mut next);
                    let mut fresh = vec![0; h];
                    net.refresh(&child, &mut fresh);
                    assert_eq!(next, fresh, "incremental accumulator after {m:?}");
                    // With more than two players, a row of another player
                    // than the side to move.
                    let (stm, player) = (child.turn(), (child.turn() + 1) % shape.players);
                    let ex = Example {
                        inputs: shape.active(&child),
                        row: shape.output(stm, player) as u8,
                        target: 0.5,
                        base: 0.0,
                    };
                    let float = trainer.output(&ex) * CP_PER_UNIT as f32;
                    let int = if shape.players == 2 {
                        net.value(&next, stm)
                    } else {
                        net.value_for(&next, stm, player) - fair_offset(shape.players)
                    } as f32;
                    // Rounding bounds the difference: half a step of QA
                    // in each summed first-layer weight, half a step of QB
                    // in each output weight, and the last division.
                    let rows = (ex.inputs.len() + 1) as f32 * 0.5 / QA as f32;
                    let w2 = trainer.offsets().1 + usize::from(ex.row) * h;
                    let units: f32 = trainer.params[w2..w2 + h]
                        .iter()
                        .map(|w| w.abs() * rows + 0.5 / QB as f32)
                        .sum();
                    let bound = units * CP_PER_UNIT as f32 + 1.0;
                    assert!(
                        (float - int).abs() <= bound,
                        "integer {int} against float {float} (bound {bound})"
                    );
                    differences += f64::from((float - int).abs());
                    std::mem::swap(&mut acc, &mut next);
                    pos = child;
                    checked += 1;
                }
            }
            // The bound is a worst case; rounding errors mostly cancel.
            let mean = differences / f64::from(checked.max(1) as u32);
            assert!(mean < 4.0, "mean difference {mean} centi-stones");
            checked
        }
    }

    #[test]
    fn incremental_accumulators_equal_fresh_ones_and_integers_follow_floats() {
        for name in [
            "standard",
            "advanced",
            "hex",
            "houdini",
            "escape4",
            "hex3-escape",
        ] {
            let v = Variant::builtin(name).unwrap();
            let checked = v.run(Walk { seed: 3 });
            assert!(checked > 200, "{name}: only {checked} moves checked");
        }
    }

    #[test]
    fn two_player_values_are_negations_and_an_even_multi_player_value_is_zero() {
        let v = Variant::standard();
        struct Two;
        impl EngineTask for Two {
            type Output = ();
            fn run<B: Word>(self, e: &Engine<B>) {
                let net = Trainer::new(Shape::of(e), 8, 5).quantize();
                let pos = e.start();
                assert_eq!(net.evaluate_for(&pos, 0), -net.evaluate_for(&pos, 1));
                assert_eq!(net.evaluate_for(&pos, pos.turn()), net.evaluate(&pos));
            }
        }
        v.run(Two);
        assert_eq!(fair_offset(2), 0);
        // ln 3 units: the logit of ¼ is −ln 3.
        assert_eq!(fair_offset(4), 439);
        // A four-player network whose every row says ¼ values every
        // position at 0 for everyone.
        let v = Variant::builtin("escape4").unwrap();
        struct Four;
        impl EngineTask for Four {
            type Output = ();
            fn run<B: Word>(self, e: &Engine<B>) {
                let shape = Shape::of(e);
                assert_eq!(shape.outputs(), 16);
                let mut net = Trainer::new(shape, 8, 5).quantize();
                net.w2.fill(0);
                let quarter = -(3f64.ln()) * f64::from(QA * QB);
                net.b2.fill(quarter.round() as i32);
                let pos = e.start();
                for p in 0..4 {
                    assert!(net.evaluate_for(&pos, p).abs() <= 1, "player {p}");
                }
            }
        }
        v.run(Four);
    }

    #[test]
    fn training_lowers_the_error_on_a_learnable_target() {
        // Target: the logistic of the side to move's towers less the
        // other side's.
        let v = Variant::standard();
        struct Data;
        impl EngineTask for Data {
            type Output = (Shape, Vec<Example>);
            fn run<B: Word>(self, e: &Engine<B>) -> Self::Output {
                let shape = Shape::of(e);
                let mut rng = SmallRng::seed_from_u64(9);
                let mut out = Vec::new();
                let mut moves = e.move_list();
                for _ in 0..40 {
                    let mut pos = e.start();
                    for _ in 0..40 {
                        moves.clear();
                        e.legal_moves(&pos, &mut moves);
                        if moves.is_empty() || e.outcome(&pos).is_some() {
                            break;
                        }
                        let stm = pos.turn();
                        let towers = |p: usize| (pos.stones_of(p) & pos.with_height(2)).count();
                        let lead = towers(stm) as f32 - towers(1 - stm) as f32;
                        out.push(Example {
                            inputs: shape.active(&pos),
                            row: stm as u8,
                            target: 1.0 / (1.0 + (-lead).exp()),
                            base: 0.0,
                        });
                        e.apply(&mut pos, moves[rng.random_range(0..moves.len())]);
                    }
                }
                (shape, out)
            }
        }
        let (shape, data) = v.run(Data);
        let mut t = Trainer::new(shape, 8, 1);
        let before = t.error(&data);
        for _ in 0..30 {
            for batch in data.chunks(64) {
                t.step(batch, 0.01);
            }
        }
        let after = t.error(&data);
        assert!(after < before / 4.0, "error {before} -> {after}");
    }
}
