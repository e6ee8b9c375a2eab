//! A training run on its thread ([`murus_lab::train::train`], the run
//! `murus train` makes): what it needs, what it tells the UI, and its
//! outcome in words, the evaluation kept written.

use std::path::{Path, PathBuf};

use murus_engine::Variant;
use murus_lab::Mode;
use murus_lab::report::grouped;
use murus_lab::train::{
    FitSettings, TrainOptions, TrainOutcome, TrainProgress, describe_trained, save_evaluation,
};

use super::{TRAINED_LABEL, TrainEnd, TrainSaved, Tuning, data_folder, kept_path, read_data};
use crate::Tone;
use crate::worker::Reporter;

/// What a training run is called while it goes on ([`crate::worker::Busy`]).
pub const TRAINING_RUN: &str = "a training run";

/// Everything a run needs, handed to its thread.
#[derive(Debug)]
pub struct TrainRequest {
    variant: Variant,
    options: TrainOptions,
    data: PathBuf,
    kept: PathBuf,
    /// The rules file the text came from: `foo.eval` goes beside it when
    /// it still holds the text trained.
    rules_file: Option<PathBuf>,
}

impl TrainRequest {
    /// A run training `variant` with the panel's `options` and the
    /// `tuning` it does not offer, keeping its data and its evaluation in
    /// the training folder; `rules_file` is the file the text belongs to.
    pub fn new(
        variant: &Variant,
        options: &TrainSaved,
        tuning: &Tuning,
        rules_file: Option<&Path>,
    ) -> TrainRequest {
        let dir = Path::new(&options.dir);
        TrainRequest {
            variant: variant.clone(),
            options: TrainOptions {
                positions: options.positions,
                deadline: None,
                threads: options.threads.max(1),
                seed: options.seed,
                bot: tuning.bot.clone(),
                fit: FitSettings {
                    seed: options.seed,
                    ..tuning.fit
                },
                validate: options.validate.then_some(tuning.validation),
            },
            data: data_folder(dir, variant),
            kept: kept_path(dir, variant),
            rules_file: rules_file.map(Path::to_path_buf),
        }
    }

    /// Trains on this thread, telling `progress`, and ends with how it
    /// went.
    pub fn train(&self, progress: &Reporter<TrainMsg>) {
        let end = run(self, progress);
        progress.send(TrainMsg::Ended(end));
    }
}

/// What a training run's thread tells the model.
#[derive(Debug)]
pub enum TrainMsg {
    /// Where the run stands.
    Progress(TrainProgress),
    /// How it ended.
    Ended(TrainEnd),
}

impl From<TrainProgress> for TrainMsg {
    fn from(p: TrainProgress) -> TrainMsg {
        TrainMsg::Progress(p)
    }
}

/// The run on its thread: trains, writes what is kept, and says how it
/// went.
fn run(request: &TrainRequest, progress: &Reporter<TrainMsg>) -> TrainEnd {
    let (variant, options) = (&request.variant, &request.options);
    // Each run goes on with the data kept for its rules, if any.
    match murus_lab::train::train(variant, options, &request.data, Mode::Resume, progress) {
        Err(e) => TrainEnd::error(format!("Training failed: {e}")),
        Ok(None) => TrainEnd {
            tone: Tone::Info,
            lines: vec![format!(
                "Training cancelled: the {} positions played so far are kept; \
                 Resume training goes on from them.",
                // What its folder keeps, as the run counts them.
                grouped(
                    read_data(&request.data)
                        .ok()
                        .flatten()
                        .map_or(0, |found| found.toward(options.positions).0)
                )
            )],
            kept: None,
        },
        Ok(Some(outcome)) => finish(request, outcome),
    }
}

/// The outcome in words, the kept evaluation written (beside the rules
/// file too, when that still holds the rules trained).
fn finish(request: &TrainRequest, o: TrainOutcome) -> TrainEnd {
    let mut lines = o.lines();
    let Some(file) = o.kept else {
        return TrainEnd {
            tone: Tone::Warning,
            lines,
            kept: None,
        };
    };
    let what = describe_trained(&file);
    let mut tone = Tone::Success;
    let kept = match save_evaluation(&file, &request.kept) {
        Ok(()) => {
            lines.push(format!("Kept {what}: {}.", request.kept.display()));
            Some(request.kept.clone())
        }
        Err(e) => {
            tone = Tone::Error;
            lines.push(format!("Kept {what}, but {e}."));
            None
        }
    };
    if let Some(rules) = &request.rules_file {
        let beside = rules.with_extension(murus_ai::evalfile::EXTENSION);
        let same = std::fs::read_to_string(rules)
            .ok()
            .and_then(|t| Variant::compile(&t).ok())
            .is_some_and(|v| v.rules_key() == request.variant.rules_key());
        if !same {
            lines.push(format!(
                "{} not written: {} no longer holds the rules trained.",
                beside.display(),
                rules.display()
            ));
        } else if let Err(e) = save_evaluation(&file, &beside) {
            tone = Tone::Error;
            lines.push(format!("Not written beside the rules: {e}."));
        } else {
            lines.push(format!("Also wrote {}.", beside.display()));
        }
    }
    lines.push(format!(
        "\"{TRAINED_LABEL}\" names it in Play's and Lab's bot choices on {}.",
        request.variant.name()
    ));
    TrainEnd { tone, lines, kept }
}
