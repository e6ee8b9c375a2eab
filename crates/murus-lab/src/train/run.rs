//! `murus train` as a whole: the data, the fits, the validations, and the
//! evaluation kept.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use murus_ai::eval::Weights;
use murus_ai::{BotSpec, EvalFile, Trained};
use murus_engine::Variant;

use super::data::{DataDir, DataProgress, DataSpec, io};
use super::fit::{
    DefaultWeights, FitReport, FitSettings, ShapeOf, fit_network, fit_weights, samples,
};
use super::validate::{CheckResult, Checked, Validation, check_seat};
use crate::error::LabError;
use crate::matches::{MatchConfig, run_match};
use crate::runner::Control;

/// What `murus train` does: how much data, on how many threads, from which
/// seed, with which bot; how to fit; whether to validate.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub positions: u64,
    /// Data generation stops here even short of `positions` (`--minutes`;
    /// the data is then the games finished by the time, which depends on
    /// the machine).
    pub deadline: Option<std::time::Instant>,
    pub threads: usize,
    pub seed: u64,
    pub bot: BotSpec,
    pub fit: FitSettings,
    /// `None`: keep the network without a match.
    pub validate: Option<Validation>,
}

/// Which step a training run is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Data = 0,
    Fit = 1,
    Validate = 2,
}

/// Progress of a training run, read by progress bars and the studio; set
/// `data.cancel` to stop it (the data so far is kept for `--resume`).
#[derive(Debug, Default)]
pub struct TrainProgress {
    pub data: DataProgress,
    pub step: std::sync::atomic::AtomicU8,
    pub epoch: AtomicU64,
    /// Games of the validation match played so far.
    pub match_games: AtomicU64,
}

impl TrainProgress {
    /// The step under way.
    pub fn step(&self) -> Step {
        match self.step.load(Ordering::Relaxed) {
            0 => Step::Data,
            1 => Step::Fit,
            _ => Step::Validate,
        }
    }
}

/// What a training run found.
#[derive(Clone, Debug)]
pub struct TrainOutcome {
    pub games: usize,
    pub positions: usize,
    /// The network's fit.
    pub network: FitReport,
    /// The fit of the same network on top of the generic features.
    pub correction: FitReport,
    /// The fitted weights and the error before and after.
    pub weights: (Weights, f64, f64),
    /// The validation matches, in the order played.
    pub matches: Vec<Checked>,
    /// The evaluation to write: the first candidate that won its match (or
    /// the network, unvalidated), `None` if none did.
    pub kept: Option<EvalFile>,
}

/// Trains an evaluation for `variant`, keeping its data in `dir`: plays
/// the games missing from `dir` (all of them in a new folder), fits a
/// network, the same network as a correction on top of the generic
/// features, and the features' weights to the positions, and checks them
/// in that order against the evaluation in force for the variant
/// ([`murus_ai::Evaluation::for_source`]); the first to win its match is
/// kept. `Ok(None)`: cancelled (the data so far is kept).
pub fn train(
    variant: &Variant,
    options: &TrainOptions,
    dir: &Path,
    progress: &TrainProgress,
) -> Result<Option<TrainOutcome>, LabError> {
    if !matches!(options.bot, BotSpec::AlphaBeta { .. }) {
        return Err(LabError::Invalid(
            "the data's bot must be alpha-beta (its scores label the positions)".into(),
        ));
    }
    let spec = DataSpec::new(variant, &options.bot, options.seed);
    let mut data = DataDir::open(dir, &spec)?;
    progress.step.store(Step::Data as u8, Ordering::Relaxed);
    let finished = std::sync::atomic::AtomicBool::new(false);
    let finished = &finished;
    std::thread::scope(|s| {
        if let Some(deadline) = options.deadline {
            s.spawn(move || {
                while !finished.load(Ordering::Relaxed) {
                    if std::time::Instant::now() >= deadline {
                        progress.data.cancel.store(true, Ordering::Relaxed);
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
            });
        }
        let r = data.generate(variant, options.positions, options.threads, &progress.data);
        finished.store(true, Ordering::Relaxed);
        r
    })?;
    let out_of_time = options
        .deadline
        .is_some_and(|d| std::time::Instant::now() >= d);
    if progress.data.cancel.load(Ordering::Relaxed) && !out_of_time {
        return Ok(None);
    }
    progress.data.cancel.store(false, Ordering::Relaxed);
    let games = data.prefix(options.positions);
    if games.is_empty() {
        return Err(LabError::Invalid(
            "no game finished in the time given: give more minutes".into(),
        ));
    }
    progress.step.store(Step::Fit as u8, Ordering::Relaxed);
    let mut samples = samples(variant, &games)?;
    let positions = samples.differences.len();
    let shape = variant.run(ShapeOf);
    let mut on_epoch = |epoch, _| {
        progress.epoch.store(epoch as u64, Ordering::Relaxed);
        !progress.data.cancel.load(Ordering::Relaxed)
    };
    let (net, fit) = fit_network(shape, &samples.examples, options.fit, &mut on_epoch);
    if progress.data.cancel.load(Ordering::Relaxed) {
        return Ok(None);
    }
    // The same network on top of the features: it learns what they miss.
    // The plain network is fitted, so its examples take their bases in
    // place.
    for (x, &base) in samples.examples.iter_mut().zip(&samples.bases) {
        x.base = base;
    }
    let (correction, hybrid_fit) =
        fit_network(shape, &samples.examples, options.fit, &mut on_epoch);
    if progress.data.cancel.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let start = variant.run(DefaultWeights);
    let weights = fit_weights(&samples.differences, start);
    let digest = murus_ai::evalfile::source_digest(variant.source());
    let note = |what: &str| {
        format!(
            "murus train {}: {what}, fitted to {} positions of {} self-play (seed {})",
            variant.name(),
            positions,
            spec.bot,
            options.seed
        )
    };
    let hidden = net.hidden;
    let mut candidates = vec![
        (
            "network",
            EvalFile {
                variant_sha256: digest,
                note: note(&format!("a network of {hidden} hidden units")),
                trained: Trained::Network(net),
            },
        ),
        (
            "correction",
            EvalFile {
                variant_sha256: digest,
                note: note(&format!(
                    "a network of {hidden} hidden units correcting the generic features"
                )),
                trained: Trained::Hybrid(start, correction),
            },
        ),
    ];
    candidates.push((
        "weights",
        EvalFile {
            variant_sha256: digest,
            note: note("the generic features' weights"),
            trained: Trained::Weights(weights.0),
        },
    ));
    let mut outcome = TrainOutcome {
        games: games.len(),
        positions,
        network: fit,
        correction: hybrid_fit,
        weights,
        matches: Vec::new(),
        kept: None,
    };
    let Some(validation) = options.validate else {
        outcome.kept = Some(candidates[0].1.clone());
        return Ok(Some(outcome));
    };
    progress.step.store(Step::Validate as u8, Ordering::Relaxed);
    for (name, file) in candidates {
        let path = dir.join(format!("candidate-{name}.eval"));
        std::fs::write(&path, file.to_bytes()).map_err(io(&path))?;
        let spec = |eval: Option<murus_ai::EvalRef>| BotSpec::AlphaBeta {
            nodes: validation.nodes,
            eval,
        };
        let candidate = spec(Some(murus_ai::EvalRef::new(&path.to_string_lossy())));
        let control = Control::default();
        let done = std::sync::atomic::AtomicBool::new(false);
        let result = std::thread::scope(|s| {
            s.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    progress
                        .match_games
                        .store(control.done(), Ordering::Relaxed);
                    if progress.data.cancel.load(Ordering::Relaxed) {
                        control.cancel();
                    }
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
            });
            let r = if variant.player_count() == 2 {
                let m = MatchConfig {
                    a: candidate,
                    b: spec(None),
                    games: validation.max_games,
                    seed: options.seed,
                    threads: options.threads,
                    sprt: Some(validation.elo),
                    openings: 4,
                    book: None,
                };
                run_match(variant, &m, &control, None).map(|(r, _)| CheckResult::Match(r))
            } else {
                check_seat(
                    variant,
                    candidate,
                    spec(None),
                    &validation,
                    options,
                    &control,
                )
            };
            done.store(true, Ordering::Relaxed);
            r
        })?;
        if progress.data.cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let won = result.won();
        outcome.matches.push(Checked {
            candidate: name.to_string(),
            result,
        });
        if won {
            outcome.kept = Some(file);
            break;
        }
    }
    Ok(Some(outcome))
}
