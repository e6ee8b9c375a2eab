//! `murus train` as a whole: the data, the fits, the validations, and the
//! evaluation kept.

use std::path::Path;

use murus_ai::eval::Features;
use murus_ai::{BotSpec, EvalFile, Trained};
use murus_engine::Variant;
use murus_engine::job::{Handler, HandlerExt};

use super::data::{DataDir, DataSpec};
use super::fit::{DefaultWeights, FitSettings, ShapeOf, fit_network, fit_weights, samples};
use super::outcome::TrainOutcome;
use super::progress::TrainProgress;
use super::validate::{CheckResult, Checked, Validation, check_seat};
use crate::error::LabError;
use crate::folder::Mode;
use crate::matches::{MatchConfig, run_match};
use crate::runner::RunProgress;

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

/// A candidate's validation match as the training run's handler hears it.
struct Validating<'a> {
    outer: &'a dyn Handler<TrainProgress>,
    candidate: &'a str,
    of: u64,
}

impl Handler<RunProgress> for Validating<'_> {
    fn stop(&self) -> bool {
        self.outer.stop()
    }
    fn progress(&self, p: &RunProgress) {
        self.outer.progress(&TrainProgress::Validate {
            candidate: self.candidate.to_string(),
            games: p.done,
            of: self.of,
        });
    }
}

/// Trains an evaluation for `variant`, keeping its data in `dir` (a new
/// data folder with [`Mode::New`]; with [`Mode::Resume`], the data kept
/// there, or a new one where there is none: [`DataDir::open`]): plays
/// the games missing from `dir`, fits a
/// network, the same network as a correction on top of the generic
/// features, and the features' weights to the positions, and checks them
/// in that order against the evaluation in force for the variant
/// ([`murus_ai::Evaluation::for_variant`]); the first to win its match is
/// kept. `handler` hears each step's progress and may stop the run:
/// `Ok(None)`, the data so far kept.
pub fn train(
    variant: &Variant,
    options: &TrainOptions,
    dir: &Path,
    mode: Mode,
    handler: &dyn Handler<TrainProgress>,
) -> Result<Option<TrainOutcome>, LabError> {
    if !matches!(options.bot, BotSpec::AlphaBeta { .. }) {
        return Err(LabError::Invalid(
            "the data's bot must be alpha-beta (its scores label the positions)".into(),
        ));
    }
    let spec = DataSpec::new(variant, &options.bot, options.seed);
    let mut data = DataDir::open(dir, &spec, mode)?;
    // The data stops at the deadline too (`--minutes`); what follows goes on.
    data.generate(
        variant,
        options.positions,
        options.threads,
        &handler.until(options.deadline),
    )?;
    if handler.stop() {
        return Ok(None);
    }
    let games = data.prefix(options.positions);
    if games.is_empty() {
        return Err(LabError::Invalid(
            "no game finished in the time given: give more minutes".into(),
        ));
    }
    let mut samples = samples(variant, &games)?;
    let positions = samples.differences.len();
    let shape = variant.run(ShapeOf);
    let (net, fit) = fit_network(shape, &samples.examples, options.fit, handler);
    if handler.stop() {
        return Ok(None);
    }
    // The same network on top of the features: it learns what they miss.
    // The plain network is fitted, so its examples take their bases in
    // place.
    for (x, &base) in samples.examples.iter_mut().zip(&samples.bases) {
        x.base = base;
    }
    let (correction, hybrid_fit) = fit_network(shape, &samples.examples, options.fit, handler);
    if handler.stop() {
        return Ok(None);
    }
    let start = variant.run(DefaultWeights);
    let applicable = Features::applicable(variant);
    let weights = fit_weights(&samples.differences, start, applicable);
    let digest = murus_ai::evalfile::rules_digest(variant);
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
        hidden,
        network: fit,
        correction: hybrid_fit,
        weights,
        applicable,
        matches: Vec::new(),
        kept: None,
        scored_with: data.spec().evaluation_summary(),
        current: murus_ai::Evaluation::for_variant(variant).summary(),
    };
    let Some(validation) = options.validate else {
        outcome.kept = Some(candidates[0].1.clone());
        return Ok(Some(outcome));
    };
    for (name, file) in candidates {
        let path = dir.join(format!("candidate-{name}.eval"));
        murus_engine::util::write_atomic(&path, file.to_bytes()).map_err(LabError::Write)?;
        let spec = |eval: Option<murus_ai::EvalRef>| BotSpec::AlphaBeta {
            nodes: validation.nodes,
            eval,
        };
        let candidate = spec(Some(murus_ai::EvalRef::new(&path.to_string_lossy())));
        let validating = Validating {
            outer: handler,
            candidate: name,
            of: validation.max_games,
        };
        let result = if variant.player_count() == 2 {
            let m = MatchConfig {
                a: candidate,
                b: spec(None),
                games: validation.max_games,
                seed: options.seed,
                threads: options.threads,
                sprt: Some(validation.elo),
                openings: 4,
                book: None,
                shard: None,
            };
            run_match(variant, &m, &validating, None).map(|(r, _)| CheckResult::Match(r))?
        } else {
            check_seat(
                variant,
                candidate,
                spec(None),
                &validation,
                (options.seed, options.threads),
                &validating,
            )?
        };
        if handler.stop() {
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
