//! `--train` (of `murus report` and `murus sweep`): a variant without a
//! trained evaluation trains one first, within a number of positions, so
//! that a comparison or a sweep puts trained evaluations on every side (or,
//! when no candidate wins its validation match, the generic features on
//! the side that has no other). What is trained is kept in a folder (the
//! data, then `trained.eval` or `none-kept`), so a resumed job reuses it; a
//! variant that has a trained evaluation already (shipped, or beside its
//! rules file) is not trained again.

use std::path::Path;

use murus_ai::{EvalFile, Evaluation};
use murus_engine::Variant;
use murus_engine::job::Handler;

use super::{FitSettings, TrainOptions, TrainProgress, Validation, train};
use crate::error::LabError;
use crate::folder::Mode;

/// The evaluation kept by the training, in the report's `train/` folder.
const KEPT: &str = "trained.eval";
/// Written when no candidate won its match.
const NONE_KEPT: &str = "none-kept";

/// Trains an evaluation for `variant` when it has none (within
/// `positions`), in `dir` (kept there, reused on a resume). Returns the
/// variant with the evaluation trained kept with it
/// ([`Variant::with_evaluation`], so that the bots given it use it), and
/// what was done, in words, or `None` when the variant had a trained
/// evaluation already.
pub fn train_if_generic(
    variant: &Variant,
    positions: u64,
    seed: u64,
    threads: usize,
    dir: Option<&Path>,
    handler: &dyn Handler<TrainProgress>,
) -> Result<(Variant, Option<String>), LabError> {
    if let Some(d) = dir {
        if let Ok(bytes) = std::fs::read(d.join(KEPT)) {
            let file = EvalFile::from_bytes(&bytes)
                .map_err(|e| LabError::Invalid(format!("{}: {e}", d.join(KEPT).display())))?;
            let summary = file.evaluation().summary();
            let words = trained_words(positions, &summary);
            return Ok((variant.clone().with_evaluation(bytes), Some(words)));
        }
        if d.join(NONE_KEPT).is_file() {
            return Ok((variant.clone(), Some(none_words(positions))));
        }
    }
    if Evaluation::for_variant(variant).id() != "generic" {
        return Ok((variant.clone(), None));
    }
    let options = TrainOptions {
        positions,
        deadline: None,
        threads,
        seed,
        bot: "alphabeta:2000".parse().expect("an alpha-beta spec"),
        fit: FitSettings::default(),
        validate: Some(Validation {
            nodes: 5_000,
            max_games: 200,
            ..Validation::default()
        }),
    };
    let scratch;
    let folder = match dir {
        Some(d) => d,
        None => {
            scratch = std::env::temp_dir()
                .join(format!("murus-report-train-{}-{seed}", std::process::id()));
            &scratch
        }
    };
    let Some(outcome) = train(variant, &options, folder, Mode::Resume, handler)? else {
        return Err(LabError::Invalid(
            "stopped while training: --resume goes on".into(),
        ));
    };
    let write = |name: &str, bytes: &[u8]| {
        let path = folder.join(name);
        murus_engine::util::write_atomic(&path, bytes).map_err(crate::folder::io(&path))
    };
    match outcome.kept {
        Some(file) => {
            let bytes = file.to_bytes();
            if dir.is_some() {
                write(KEPT, &bytes)?;
            }
            let summary = file.evaluation().summary();
            let words = trained_words(positions, &summary);
            Ok((variant.clone().with_evaluation(bytes), Some(words)))
        }
        None => {
            if dir.is_some() {
                write(NONE_KEPT, b"no candidate won its validation match\n")?;
            }
            Ok((variant.clone(), Some(none_words(positions))))
        }
    }
}

fn trained_words(positions: u64, summary: &str) -> String {
    format!(
        "trained first on {} positions of self-play: {summary}",
        crate::text::grouped(positions)
    )
}

fn none_words(positions: u64) -> String {
    format!(
        "trained first on {} positions of self-play, but no candidate beat the generic features: they stay",
        crate::text::grouped(positions)
    )
}
