//! "Train bot" in the Rules panel, without egui: an evaluation learned for
//! the rules being edited by murus-lab's training run
//! ([`murus_lab::train::train`], the run `murus train` makes), on a
//! background thread, with its progress, Cancel and its outcome in words.
//! Here: its options, the folders it keeps things in, the run on its
//! thread (run.rs) and the trained bots other panels offer; the panel's
//! state, whose runs go on the lab's job panel, is
//! [`crate::rules::Training`].
//!
//! # Where things are kept
//! A folder per rules in the training folder (`training` in eframe's
//! storage folder, [`default_training_dir`]): `<training>/<the first 16 hex
//! digits of the rules' key>/` ([`murus_engine::Variant::rules_key`]: the
//! same for the same rules whatever their comments, layout, title or
//! names) holds `data/`, the self-play games kept game by game (a
//! cancelled or killed run resumes from them), and `<variant>.eval`, the
//! evaluation kept. A folder an older studio kept under the first 16 hex
//! digits of the text's SHA-256 is still used for that very text. Rules
//! opened from or saved to `foo.mg` also get `foo.eval` beside them, which
//! `murus` loads with the rules. Play's and Lab's bot choices on those
//! rules offer it as [`TRAINED_LABEL`], a bot spec that names the file:
//! a bot uses a trained evaluation when it is chosen so, never by a
//! setting of the process.
//!
//! # Tied to the rules
//! A run trains the rules as they were when it started, and its outcome is
//! kept with their key: it is shown while the editor's text compiles to
//! those rules (a new title or comment keeps it), never as news about other
//! rules. The run itself goes on while the text changes (its progress says
//! so): its data and its evaluation belong to the rules it started with.
//!
//! ```
//! use murus_engine::Variant;
//! use murus_studio::training::{TrainSaved, rules_folder};
//! use std::path::Path;
//!
//! let options = TrainSaved::default();
//! assert_eq!(options.positions, 100_000);
//! let folder = rules_folder(Path::new("training"), &Variant::standard());
//! assert_eq!(folder.file_name().map(|n| n.len()), Some(16));
//! ```

mod run;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use murus_ai::BotSpec;
use murus_dsl::RulesKey;
use murus_engine::Variant;
pub use murus_lab::train::DataFound;
use murus_lab::train::{DataDir, FitSettings, Validation};
use serde::{Deserialize, Serialize};

pub use run::{TRAINING_RUN, TrainMsg, TrainRequest};

use crate::Tone;

/// What a bot choice that names a trained evaluation is called in Play's
/// and Lab's bot choices.
pub const TRAINED_LABEL: &str = "hard (trained)";

/// The level a trained evaluation is offered with ([`TRAINED_LABEL`]).
const TRAINED_LEVEL: &str = "hard";

/// The data folder in a training folder.
pub(crate) const DATA_FOLDER: &str = "data";

/// Where training folders are kept unless the saved state says otherwise:
/// `training` in eframe's storage folder
/// (`~/.local/share/murusstudio/training` on Linux), or in the working
/// folder where there is none.
pub fn default_training_dir() -> PathBuf {
    eframe::storage_dir("Murus Studio")
        .map_or_else(|| PathBuf::from("training"), |d| d.join("training"))
}

/// The options "Train bot" shows, kept across restarts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrainSaved {
    /// Positions of self-play to learn from.
    pub positions: u64,
    /// Games played at once (the data does not depend on it).
    pub threads: usize,
    pub seed: u64,
    /// Keep a candidate only if it wins a match against the evaluation in
    /// force; off, the network is kept as fitted.
    pub validate: bool,
    /// The folder that keeps a training folder per rules text.
    pub dir: String,
}

impl Default for TrainSaved {
    fn default() -> Self {
        TrainSaved {
            positions: 100_000,
            threads: murus_engine::util::default_threads(),
            seed: 1,
            validate: true,
            dir: default_training_dir().display().to_string(),
        }
    }
}

/// What the panel does not offer but tests and scripts may change: the
/// bot that plays and scores the games, the fit (its seed is the run's)
/// and the validation match. The defaults are `murus train`'s.
#[derive(Clone, Debug)]
pub struct Tuning {
    /// An alpha-beta bot.
    pub bot: BotSpec,
    pub fit: FitSettings,
    pub validation: Validation,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            bot: BotSpec::AlphaBeta {
                nodes: 4_000,
                eval: None,
            },
            fit: FitSettings::default(),
            validation: Validation::default(),
        }
    }
}

/// The training folder of the rules of `variant` in `dir`: named by the
/// rules' key, or (kept by an older studio, and no folder of the key yet)
/// by the text's SHA-256.
pub fn rules_folder(dir: &Path, variant: &Variant) -> PathBuf {
    let by_key = dir.join(&variant.rules_key().to_hex()[..16]);
    let by_text = dir.join(&murus_lab::source_sha256(variant.source())[..16]);
    if !by_key.exists() && by_text.is_dir() {
        by_text
    } else {
        by_key
    }
}

/// The data folder of the rules of `variant` in `dir` (the folder
/// [`murus_lab::train::train`] keeps its games in).
pub fn data_folder(dir: &Path, variant: &Variant) -> PathBuf {
    rules_folder(dir, variant).join(DATA_FOLDER)
}

/// Where the evaluation trained for `variant` in `dir` is written:
/// `<name>.eval` in its training folder.
pub fn kept_path(dir: &Path, variant: &Variant) -> PathBuf {
    let name: String = variant
        .name()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    rules_folder(dir, variant).join(format!("{name}.{}", murus_ai::evalfile::EXTENSION))
}

/// The evaluation kept for the rules of `variant` in `dir`, if any: its
/// [`kept_path`], or one kept under another name of the same rules.
pub fn find_kept(dir: &Path, variant: &Variant) -> Option<PathBuf> {
    let path = kept_path(dir, variant);
    if path.is_file() {
        return Some(path);
    }
    let folder = rules_folder(dir, variant);
    crate::files::list(&folder, murus_ai::evalfile::EXTENSION)
        .into_iter()
        .next()
}

/// The bot spec that plays [`TRAINED_LEVEL`] with the evaluation in `file`.
pub fn trained_spec(file: &Path) -> String {
    format!("{TRAINED_LEVEL}:eval={}", file.display())
}

/// Reads what the data folder `data` holds without changing it
/// ([`DataDir::inspect`]): `None` when it holds no run. Reads the whole
/// file: call it off the UI thread.
pub fn read_data(data: &Path) -> Result<Option<DataFound>, String> {
    DataDir::inspect(data).map_err(|e| e.to_string())
}

/// How a run ended, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainEnd {
    /// Success: an evaluation was kept; warning: none was; info:
    /// cancelled; error: the run or a file failed.
    pub tone: Tone,
    pub lines: Vec<String>,
    /// The evaluation kept, in the training folder.
    pub kept: Option<PathBuf>,
}

impl TrainEnd {
    pub(crate) fn error(text: String) -> TrainEnd {
        TrainEnd {
            tone: Tone::Error,
            lines: vec![text],
            kept: None,
        }
    }

    /// The lines as one text.
    pub fn text(&self) -> String {
        self.lines.join("\n")
    }
}

/// The progress of a run in words and as a share.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainStatus {
    /// 0 to 1 (of the step under way).
    pub fraction: f32,
    /// `Self-play: 12 000 / 100 000 positions`.
    pub text: String,
}

/// The trained bot of each rules, looked up once (a file's existence) and
/// again after a run ends or the training folder changes: Play and Lab ask
/// every frame.
#[derive(Debug, Default)]
pub struct TrainedBots {
    dir: PathBuf,
    runs_ended: u64,
    /// By rules key: the spec of [`TRAINED_LABEL`], if its file exists.
    known: HashMap<RulesKey, Option<String>>,
}

impl TrainedBots {
    /// Looks in `dir` from now on; `runs_ended` ([`Training::runs_ended`])
    /// changes when a run may have kept a new file.
    pub fn sync(&mut self, dir: &Path, runs_ended: u64) {
        if self.dir != dir || self.runs_ended != runs_ended {
            self.dir = dir.to_path_buf();
            self.runs_ended = runs_ended;
            self.known.clear();
        }
    }

    /// The spec of the trained bot of the rules of `variant`
    /// (`hard:eval=FILE`), if an evaluation was kept for them.
    pub fn spec_for(&mut self, variant: &Variant) -> Option<String> {
        let key = variant.rules_key();
        if let Some(spec) = self.known.get(&key) {
            return spec.clone();
        }
        let spec = find_kept(&self.dir, variant).map(|p| trained_spec(&p));
        self.known.insert(key, spec.clone());
        spec
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use murus_lab::train::{DATA_FILE, DataSpec, SPEC_FILE};

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "murus-studio-training-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_data_folder_is_read_to_its_first_gap_and_a_torn_line_is_skipped() {
        let dir = scratch("read");
        assert_eq!(read_data(&dir), Ok(None), "no run here");
        let spec = DataSpec::new(&Variant::standard(), &Tuning::default().bot, 7);
        std::fs::write(dir.join(SPEC_FILE), serde_json::to_string(&spec).unwrap()).unwrap();
        let game = |n: u64, positions: usize| {
            serde_json::json!({
                "game": n,
                "result": [1.0, 0.0],
                "positions": vec![("x", 3); positions],
            })
            .to_string()
        };
        let text = format!(
            "{}\n{}\n{}\n{{\"game\": 2, \"resu",
            game(1, 5),
            game(0, 4),
            game(3, 10)
        );
        std::fs::write(dir.join(DATA_FILE), text).unwrap();
        assert_eq!(
            read_data(&dir),
            Ok(Some(DataFound {
                positions: 9,
                games: 2,
                seed: 7,
                bot: "alphabeta:4000".into(),
                per_game: vec![4, 5],
            }))
        );
        // A run that asks for 4 positions learns from game 0 alone; for 5,
        // from both.
        let found = read_data(&dir).unwrap().unwrap();
        assert_eq!(found.toward(4), (4, 1));
        assert_eq!(found.toward(5), (9, 2));
        assert_eq!(found.toward(1000), (9, 2));
    }

    #[test]
    fn folders_are_per_rules_and_files_per_variant_name() {
        let dir = scratch("folders");
        let small = Variant::builtin("small").unwrap();
        let retitled =
            Variant::compile(&small.source().replace("title \"", "title \"My ")).unwrap();
        let renamed = Variant::compile(
            &small
                .source()
                .replace("variant \"small\"", "variant \"my-game_2\""),
        )
        .unwrap();
        let a = rules_folder(&dir, &small);
        assert_eq!(rules_folder(&dir, &retitled), a, "a title is not the rules");
        assert_ne!(rules_folder(&dir, &Variant::standard()), a);
        assert_eq!(data_folder(&dir, &small), a.join("data"));
        assert_eq!(kept_path(&dir, &renamed), a.join("my-game_2.eval"));
        // The evaluation kept under the rules' first name is found.
        assert_eq!(find_kept(&dir, &renamed), None);
        std::fs::create_dir_all(&a).unwrap();
        std::fs::write(a.join("small.eval"), b"x").unwrap();
        assert_eq!(find_kept(&dir, &renamed), Some(a.join("small.eval")));
        // An older studio's folder, named by the text, serves that text.
        let older = dir.join(&murus_lab::source_sha256(Variant::standard().source())[..16]);
        std::fs::create_dir_all(&older).unwrap();
        assert_eq!(rules_folder(&dir, &Variant::standard()), older);
        assert_eq!(trained_spec(Path::new("/x/y.eval")), "hard:eval=/x/y.eval");
        assert!(
            trained_spec(Path::new("/x/y.eval"))
                .parse::<BotSpec>()
                .is_ok()
        );
    }
}
