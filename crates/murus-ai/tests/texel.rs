//! The fit behind the default evaluation weights of breakthrough games
//! (`Weights::for_engine`): Texel tuning, i.e. least squares between each
//! position's result (1, ½, 0 for the side to move) and the logistic of the
//! evaluation, over the positions of 600 self-play games of
//! `alphabeta:3000` from six random plies, fitted with Adam from the
//! weights in force. Ignored by `cargo test`; run it with
//!
//! ```sh
//! cargo test --release -p murus-ai --test texel -- --ignored --nocapture
//! ```
//!
//! It prints, for the standard and Advanced games, the mean squared error
//! at the current weights and the fitted weights. `murus train` (a later
//! issue) is to do this per variant; this is the one-off fit, kept so that
//! the figures in `docs/ai.md` can be made again.

use murus_ai::eval::{Weights, features};
use murus_ai::{Bot, BotSpec};
use murus_engine::{Engine, EngineTask, Game, Position, Variant, Word};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const N: usize = 8;
/// Centi-stones per unit of the logistic.
const SCALE: f64 = 400.0;

/// The side to move's features less the other player's, and the weights.
struct Sample<'a>(&'a Position);

impl EngineTask for Sample<'_> {
    type Output = ([f64; N], usize, Weights);
    fn run<B: Word>(self, e: &Engine<B>) -> Self::Output {
        let pos = B::unwrap(self.0).expect("a position of this variant");
        let stm = pos.turn();
        let a = features(e, pos, stm, true).to_array().map(f64::from);
        let b = features(e, pos, 1 - stm, true).to_array().map(f64::from);
        (
            std::array::from_fn(|i| a[i] - b[i]),
            stm,
            Weights::for_engine(e),
        )
    }
}

fn error(data: &[([f64; N], f64)], w: &[f64; N]) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|(d, r)| {
            let e: f64 = (0..N).map(|i| w[i] * d[i]).sum();
            (1.0 / (1.0 + (-e / SCALE).exp()) - r).powi(2)
        })
        .sum();
    sum / data.len() as f64
}

#[test]
#[ignore = "a one-off fit, about half a minute a variant in release"]
fn fit_the_breakthrough_weights() {
    for name in ["standard", "advanced"] {
        let v = Variant::builtin(name).unwrap();
        let mut data: Vec<([f64; N], f64)> = Vec::new();
        let mut current = None;
        for g in 0..600u64 {
            let mut rng = SmallRng::seed_from_u64(g);
            let spec = BotSpec::AlphaBeta {
                nodes: 3_000,
                eval: None,
            };
            let mut bots = [Bot::new(spec.clone(), g), Bot::new(spec, g + 7)];
            let mut game = Game::new(&v);
            let mut samples = Vec::new();
            while game.outcome().is_none() && game.ply() < 200 {
                let pos = *game.position();
                let m = if game.ply() < 6 {
                    let moves = v.legal_moves(&pos);
                    moves[rng.random_range(0..moves.len())]
                } else {
                    if game.ply() >= 8 {
                        let (d, stm, w) = v.run(Sample(&pos));
                        current = Some(w);
                        samples.push((d, stm));
                    }
                    bots[v.turn(&pos)].choose_in_game(&game).expect("moves")
                };
                game.play(m);
            }
            let Some(end) = game.outcome() else { continue };
            for (d, stm) in samples {
                let r = match end.winner {
                    Some(w) if w == stm => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
                data.push((d, r));
            }
        }
        let mut w = current
            .expect("positions were sampled")
            .to_array()
            .map(f64::from);
        let before = error(&data, &w);
        let (mut m1, mut m2) = ([0.0f64; N], [0.0f64; N]);
        for t in 1..=3000 {
            let mut grad = [0.0; N];
            for (d, r) in &data {
                let e: f64 = (0..N).map(|i| w[i] * d[i]).sum();
                let p = 1.0 / (1.0 + (-e / SCALE).exp());
                let g = 2.0 * (p - r) * p * (1.0 - p) / SCALE / data.len() as f64;
                for i in 0..N {
                    grad[i] += g * d[i];
                }
            }
            for i in 0..N {
                m1[i] = 0.9 * m1[i] + 0.1 * grad[i];
                m2[i] = 0.999 * m2[i] + 0.001 * grad[i] * grad[i];
                let mh = m1[i] / (1.0 - 0.9f64.powi(t));
                let vh = m2[i] / (1.0 - 0.999f64.powi(t));
                w[i] -= mh / (vh.sqrt() + 1e-12);
            }
        }
        println!(
            "{name}: {} positions; error {before:.5} at the current weights, {:.5} fitted",
            data.len(),
            error(&data, &w)
        );
        println!(
            "  material towers catapults mobility advancement siege blockers threats = {:?}",
            w.map(|x| x.round() as i32)
        );
    }
}
