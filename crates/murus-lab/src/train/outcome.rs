//! What a training run found ([`TrainOutcome`]), in the one wording that
//! `murus train` and the studio's "Train bot" show, and the evaluation it
//! keeps, written whole or not at all ([`save_evaluation`]).

use std::path::Path;

use murus_ai::eval::{FEATURE_NAMES, Weights};
use murus_ai::{EvalFile, Trained};

use super::fit::FitReport;
use super::validate::Checked;
use crate::error::LabError;
use crate::folder::io;
use crate::text::grouped;

/// What a training run found.
#[derive(Clone, Debug)]
pub struct TrainOutcome {
    pub games: usize,
    pub positions: usize,
    /// Hidden units of the networks fitted.
    pub hidden: usize,
    /// The network's fit.
    pub network: FitReport,
    /// The fit of the same network on top of the generic features.
    pub correction: FitReport,
    /// The fitted weights and the error before and after.
    pub weights: (Weights, f64, f64),
    /// The features these rules have ([`murus_ai::Features::applicable`]):
    /// the others are not fitted, and not named.
    pub applicable: [bool; 8],
    /// The validation matches, in the order played (none when the network
    /// is kept without one).
    pub matches: Vec<Checked>,
    /// The evaluation to write: the first candidate that won its match (or
    /// the network, unvalidated), `None` if none did.
    pub kept: Option<EvalFile>,
    /// The evaluation the data's bot scored positions with, in words
    /// ([`murus_ai::Evaluation::summary`]: the generic features).
    pub scored_with: String,
    /// The evaluation in force for the variant, which the candidates are
    /// validated against and the file kept replaces, in words.
    pub current: String,
}

/// What an evaluation file holds, in words: `the network`, `the network
/// correcting the features`, `the features' weights`.
pub fn describe_trained(file: &EvalFile) -> &'static str {
    match &file.trained {
        Trained::Network(_) => "the network",
        Trained::Hybrid(..) => "the network correcting the features",
        Trained::Weights(_) => "the features' weights",
    }
}

impl TrainOutcome {
    /// The outcome in sentences, a line each: the data, each fit, each
    /// validation and its decision, and whether anything is kept (where it
    /// is written is the caller's to say).
    pub fn lines(&self) -> Vec<String> {
        let (weights, before, after) = &self.weights;
        let (mut named, mut absent) = (Vec::new(), Vec::new());
        for ((name, x), on) in FEATURE_NAMES
            .iter()
            .zip(weights.to_array())
            .zip(self.applicable)
        {
            if on {
                named.push(format!("{name} {x}"));
            } else {
                absent.push(*name);
            }
        }
        let absent = if absent.is_empty() {
            String::new()
        } else {
            format!("; not in these rules: {}", absent.join(", "))
        };
        let mut lines = vec![
            format!(
                "Self-play: {} positions from {} games.",
                grouped(self.positions as u64),
                grouped(self.games as u64)
            ),
            format!(
                "Evaluations: the data's scores from {}; the evaluation in force: {}.",
                self.scored_with, self.current
            ),
            format!(
                "Network of {} hidden units: held-out error {:.5} -> {:.5} after {} epochs.",
                self.hidden,
                self.network.error_before,
                self.network.error_after,
                self.network.epochs
            ),
            format!(
                "The same network correcting the features: held-out error {:.5} -> {:.5} after {} epochs.",
                self.correction.error_before, self.correction.error_after, self.correction.epochs
            ),
            format!(
                "Features' weights: error {before:.5} -> {after:.5} ({}{absent}).",
                named.join(", ")
            ),
        ];
        for c in &self.matches {
            let decision = match c.result.decision() {
                "H1" => "better (H1)",
                "H0" => "not better (H0)",
                _ => "undecided",
            };
            lines.push(format!(
                "Validation of the {} against the current evaluation: {}: {decision}.",
                c.candidate,
                c.result.describe()
            ));
        }
        if self.matches.is_empty() {
            lines.push("Not validated: the network is kept as fitted.".into());
        }
        if self.kept.is_none() {
            lines.push("No candidate beat the current evaluation: nothing kept.".into());
        }
        lines
    }
}

/// Writes the evaluation `file` to `path` (its folder created if missing),
/// whole or not at all.
pub fn save_evaluation(file: &EvalFile, path: &Path) -> Result<(), LabError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    murus_engine::util::write_atomic(path, file.to_bytes()).map_err(LabError::Write)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fit(before: f64, after: f64) -> FitReport {
        FitReport {
            training: 90,
            held_out: 10,
            error_before: before,
            error_after: after,
            epochs: 3,
        }
    }

    #[test]
    fn an_outcome_reads_the_same_wherever_it_is_shown_and_its_file_is_written_whole() {
        let weights = Weights::from_array([100, 0, 0, 0, 0, 0, 0, 0]);
        let shape = murus_engine::Variant::standard().run(super::super::fit::ShapeOf);
        let network = murus_ai::nnue::Trainer::new(shape, 4, 1).quantize();
        let file = EvalFile {
            variant_sha256: [0; 32],
            note: "test".into(),
            trained: Trained::Network(network),
        };
        let o = TrainOutcome {
            games: 1234,
            positions: 56_789,
            hidden: 4,
            network: fit(0.25, 0.125),
            correction: fit(0.5, 0.25),
            weights: (weights, 0.2, 0.1),
            applicable: [true, true, false, true, true, true, true, false],
            matches: Vec::new(),
            kept: Some(file.clone()),
            scored_with: "generic features".into(),
            current: "trained: network (32 hidden) (shipped standard.eval, sha256:1a2b3c4d5e6f…)"
                .into(),
        };
        let lines = o.lines();
        assert_eq!(lines[0], "Self-play: 56 789 positions from 1 234 games.");
        assert_eq!(
            lines[1],
            "Evaluations: the data's scores from generic features; the evaluation in force: trained: network (32 hidden) (shipped standard.eval, sha256:1a2b3c4d5e6f…)."
        );
        assert_eq!(
            lines[2],
            "Network of 4 hidden units: held-out error 0.25000 -> 0.12500 after 3 epochs."
        );
        assert_eq!(
            lines[4],
            "Features' weights: error 0.20000 -> 0.10000 (material 100, towers 0, mobility 0, \
             advancement 0, siege 0, blockers 0; not in these rules: catapults, threats)."
        );
        assert_eq!(
            lines.last().map(String::as_str),
            Some("Not validated: the network is kept as fitted.")
        );
        assert_eq!(describe_trained(&file), "the network");
        let none = TrainOutcome { kept: None, ..o };
        assert!(
            none.lines()
                .contains(&"No candidate beat the current evaluation: nothing kept.".to_string())
        );
        let dir = std::env::temp_dir().join(format!("murus-outcome-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("deep/kept.eval");
        save_evaluation(&file, &path).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), file.to_bytes());
        assert!(!dir.join("deep/kept.eval.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
