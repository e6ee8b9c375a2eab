//! From the data to an evaluation: the samples of the positions, a
//! network's fit, and the generic features' weights' fit.

use murus_ai::eval::{Features, Weights, features};
use murus_ai::nnue::{CP_PER_UNIT, Example, Shape};
use murus_engine::job::Handler;
use murus_engine::{Engine, EngineTask, Variant, Word};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::data::GameData;
use super::progress::TrainProgress;
use crate::error::LabError;

/// How much of a position's target is the search's score (the rest is the
/// game's result).
pub const SCORE_SHARE: f32 = 0.5;

/// The positions of `games`, each parsed once, as both fits read them.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// For the network: the active inputs, the output row, the target.
    pub examples: Vec<Example>,
    /// For a network correcting the features: each example's base, the
    /// features' value (default weights) of its row's player, in units of
    /// the logistic.
    pub bases: Vec<f32>,
    /// For the weights: the side to move's features less the other's, and
    /// the target.
    pub differences: Vec<([f64; 8], f64)>,
}

/// The samples of `games`: each position's target is [`SCORE_SHARE`] of
/// the logistic of its score and the rest its side to move's result.
pub fn samples(variant: &Variant, games: &[&GameData]) -> Result<Samples, LabError> {
    struct Task<'a> {
        variant: &'a Variant,
        games: &'a [&'a GameData],
    }
    impl EngineTask for Task<'_> {
        type Output = Result<Samples, LabError>;
        fn run<B: Word>(self, e: &Engine<B>) -> Self::Output {
            let shape = Shape::of(e);
            let start = Weights::for_engine(e);
            let players = e.players();
            let mut out = Samples::default();
            for g in self.games {
                for (text, score) in &g.positions {
                    let position = self.variant.parse_position(text).map_err(|err| {
                        LabError::Invalid(format!("game {}: position `{text}`: {err}", g.game))
                    })?;
                    let pos = B::unwrap(&position).expect("a position of this variant");
                    let stm = pos.turn();
                    let result = |p: usize| g.result.get(p).copied().unwrap_or(0.5);
                    let target = target(*score, result(stm), players);
                    let inputs = shape.active(pos);
                    // Each player's features once: the network's bases and
                    // the weights' differences both read them.
                    let own: Vec<Features> =
                        (0..players).map(|q| features(e, pos, q, true)).collect();
                    let score = |q: usize| start.apply(&own[q]);
                    // `p`'s score less the best other player's still in
                    // the game (`murus_ai::eval::evaluate`).
                    let lead = |p: usize| {
                        let best_other = (0..players)
                            .filter(|&q| q != p && !pos.is_out(q))
                            .map(score)
                            .max()
                            .unwrap_or(0);
                        score(p) - best_other
                    };
                    // With more players, every player's row learns that
                    // player's result; the side to move's also the search's
                    // score. (Results alone for every row played worse on
                    // escape4: docs/ai.md.)
                    for p in (0..players).filter(|&p| players > 2 || p == stm) {
                        out.examples.push(Example {
                            inputs: inputs.clone(),
                            row: shape.output(stm, p) as u8,
                            target: if p == stm { target } else { result(p) },
                            base: 0.0,
                        });
                        out.bases.push(lead(p) as f32 / CP_PER_UNIT as f32);
                    }
                    // The evaluation is the side to move's score less the
                    // best other player's: with three or four players, the
                    // other is the one the default weights rank first.
                    let rival = (0..players)
                        .filter(|&q| q != stm && !pos.is_out(q))
                        .max_by_key(|&q| (score(q), std::cmp::Reverse(q)))
                        .unwrap_or((stm + 1) % players);
                    let (mine, other) = (own[stm].to_array(), own[rival].to_array());
                    out.differences.push((
                        std::array::from_fn(|i| f64::from(mine[i] - other[i])),
                        f64::from(target),
                    ));
                }
            }
            Ok(out)
        }
    }
    variant.run(Task { variant, games })
}

/// How a fit went: the mean squared error on the held-out positions
/// before and after, and the epochs run.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    pub training: usize,
    pub held_out: usize,
    pub error_before: f64,
    pub error_after: f64,
    pub epochs: usize,
}

/// Settings of a network's fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitSettings {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub rate: f32,
    pub seed: u64,
}

impl Default for FitSettings {
    fn default() -> Self {
        FitSettings {
            hidden: 32,
            epochs: 10,
            batch: 256,
            rate: 0.0005,
            seed: 1,
        }
    }
}

/// Fits a network of `shape` to `data`: a tenth of the positions (by game,
/// so no game is on both sides) held out, mini-batches in a seeded order,
/// and the network of the epoch with the least held-out error kept.
/// `handler` hears each epoch done ([`TrainProgress::Fit`]) and may stop
/// the fit after it.
pub fn fit_network(
    shape: Shape,
    data: &[Example],
    settings: FitSettings,
    handler: &dyn Handler<TrainProgress>,
) -> (murus_ai::nnue::Network, FitReport) {
    use murus_ai::nnue::Trainer;
    let split = data.len() - data.len() / 10;
    let (train, held) = data.split_at(split);
    let mut trainer = Trainer::new(shape, settings.hidden, settings.seed);
    let error_before = trainer.error(held);
    let mut best = (error_before, trainer.quantize());
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = SmallRng::seed_from_u64(settings.seed);
    let mut batch = Vec::with_capacity(settings.batch);
    let mut epochs = 0;
    for epoch in 1..=settings.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for chunk in order.chunks(settings.batch.max(1)) {
            batch.clear();
            batch.extend(chunk.iter().map(|&i| train[i].clone()));
            trainer.step(&batch, settings.rate);
        }
        epochs = epoch;
        let error = trainer.error(held);
        if error < best.0 {
            best = (error, trainer.quantize());
        }
        handler.progress(&TrainProgress::Fit {
            epoch,
            of: settings.epochs,
        });
        if handler.stop() {
            break;
        }
    }
    let report = FitReport {
        training: train.len(),
        held_out: held.len(),
        error_before,
        error_after: best.0,
        epochs,
    };
    (best.1, report)
}

/// The generic features' weights fitted to `data` ([`Samples::differences`];
/// Texel tuning): least squares between each position's target and the
/// logistic of the evaluation, with Adam from `start`. Only the features
/// marked in `applicable` ([`Features::applicable`]) are fitted; the others
/// never occur in these rules and weigh 0. Returns the weights and the mean
/// squared error before and after.
pub fn fit_weights(
    data: &[([f64; 8], f64)],
    start: Weights,
    applicable: [bool; 8],
) -> (Weights, f64, f64) {
    let error = |w: &[f64; 8]| -> f64 {
        let sum: f64 = data
            .iter()
            .map(|(d, t)| {
                let e: f64 = d.iter().zip(w).map(|(x, w)| x * w).sum();
                (1.0 / (1.0 + (-e / 400.0).exp()) - t).powi(2)
            })
            .sum();
        sum / data.len().max(1) as f64
    };
    let mut w = start.to_array().map(f64::from);
    for (w, on) in w.iter_mut().zip(applicable) {
        if !on {
            *w = 0.0;
        }
    }
    let before = error(&w);
    let (mut m1, mut m2) = ([0.0f64; 8], [0.0f64; 8]);
    let n = data.len().max(1) as f64;
    for t in 1..=500 {
        let mut grad = [0.0; 8];
        for (d, target) in data {
            let e: f64 = d.iter().zip(&w).map(|(x, w)| x * w).sum();
            let p = 1.0 / (1.0 + (-e / 400.0).exp());
            let g = 2.0 * (p - target) * p * (1.0 - p) / 400.0 / n;
            for i in 0..8 {
                grad[i] += g * d[i];
            }
        }
        for i in (0..8).filter(|&i| applicable[i]) {
            m1[i] = 0.9 * m1[i] + 0.1 * grad[i];
            m2[i] = 0.999 * m2[i] + 0.001 * grad[i] * grad[i];
            let mh = m1[i] / (1.0 - 0.9f64.powi(t));
            let vh = m2[i] / (1.0 - 0.999f64.powi(t));
            w[i] -= mh / (vh.sqrt() + 1e-12);
        }
    }
    let after = error(&w);
    (
        Weights::from_array(w.map(|x| x.round() as i32)),
        before,
        after,
    )
}

/// A position's target: [`SCORE_SHARE`] of the logistic of the search's
/// score, the rest its side to move's result. The score counts from an
/// even position, worth the fair share `1 / players`.
fn target(score: i32, result: f32, players: usize) -> f32 {
    let score = score - murus_ai::nnue::fair_offset(players);
    let eval = 1.0 / (1.0 + (-(score as f32) / 400.0).exp());
    SCORE_SHARE * eval + (1.0 - SCORE_SHARE) * result
}

pub(super) struct ShapeOf;

impl EngineTask for ShapeOf {
    type Output = Shape;
    fn run<B: Word>(self, e: &Engine<B>) -> Shape {
        Shape::of(e)
    }
}

pub(super) struct DefaultWeights;

impl EngineTask for DefaultWeights {
    type Output = Weights;
    fn run<B: Word>(self, e: &Engine<B>) -> Weights {
        Weights::for_engine(e)
    }
}
