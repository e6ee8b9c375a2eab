//! "Train bot" in the Rules panel, without egui: an evaluation learned for
//! the rules being edited by murus-lab's training run
//! ([`murus_lab::train::train`], the run `murus train` makes), on a
//! background thread, with its progress, Cancel and its outcome in words.
//!
//! # Where things are kept
//! A folder per rules text in the training folder (`training` in eframe's
//! storage folder, [`default_training_dir`]): `<training>/<the first 16 hex
//! digits of the source's SHA-256>/` holds `data/`, the self-play games
//! kept game by game (a cancelled or killed run resumes from them), and
//! `<variant>.eval`, the evaluation kept. Rules opened from or saved to
//! `foo.mg` also get `foo.eval` beside them, which `murus` loads with the
//! rules. A kept evaluation is registered for the process
//! ([`murus_ai::evalfile::register`]): Play's and Lab's bots on those rules
//! use it from then on, and [`TRAINED_LABEL`] names it in their bot
//! choices.
//!
//! # Tied to the text
//! A run trains the text as it was when it started, and its outcome is
//! kept with that text: it is shown only while the editor holds that text
//! again, never as news about an edited one. The run itself goes on while
//! the text changes (its progress says so): its data and its evaluation
//! belong to the rules it started with.
//!
//! ```
//! use murus_studio::training::{TrainSaved, rules_folder};
//! use std::path::Path;
//!
//! let options = TrainSaved::default();
//! assert_eq!(options.positions, 100_000);
//! let folder = rules_folder(Path::new("training"), "variant \"x\"");
//! assert_eq!(folder.file_name().map(|n| n.len()), Some(16));
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use murus_ai::BotSpec;
use murus_engine::Variant;
use murus_lab::report::grouped;
pub use murus_lab::train::DataFound;
use murus_lab::train::{
    DataDir, FitSettings, TrainOptions, TrainOutcome, TrainProgress, Validation, describe_trained,
    save_evaluation,
};
use murus_lab::{Mode, Watch};
use serde::{Deserialize, Serialize};

use crate::Tone;
use crate::worker::{Job, Waker};

/// What a bot choice that names a trained evaluation is called in Play's
/// and Lab's bot choices.
pub const TRAINED_LABEL: &str = "hard (trained)";

/// The level a trained evaluation is offered with ([`TRAINED_LABEL`]).
const TRAINED_LEVEL: &str = "hard";

/// The data folder in a training folder.
const DATA_FOLDER: &str = "data";

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

/// The training folder of the rules text `source` in `dir`.
pub fn rules_folder(dir: &Path, source: &str) -> PathBuf {
    dir.join(&murus_lab::source_sha256(source)[..16])
}

/// The data folder of the rules text `source` in `dir` (the folder
/// [`murus_lab::train::train`] keeps its games in).
pub fn data_folder(dir: &Path, source: &str) -> PathBuf {
    rules_folder(dir, source).join(DATA_FOLDER)
}

/// The evaluation kept for the variant `name` of the rules text `source`
/// in `dir`: `<name>.eval` in its training folder.
pub fn kept_path(dir: &Path, name: &str, source: &str) -> PathBuf {
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    rules_folder(dir, source).join(format!("{name}.{}", murus_ai::evalfile::EXTENSION))
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
    fn error(text: String) -> TrainEnd {
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

/// Everything a run needs, handed to its thread.
struct Request {
    variant: Variant,
    options: TrainOptions,
    data: PathBuf,
    kept: PathBuf,
    /// The rules file the text came from: `foo.eval` goes beside it when
    /// it still holds the text trained.
    rules_file: Option<PathBuf>,
}

/// The run going on.
#[derive(Debug)]
struct Running {
    token: u64,
    /// The text it trains.
    source: String,
    variant: String,
    positions: u64,
    epochs: usize,
    match_games: u64,
    progress: Arc<Watch<TrainProgress>>,
    job: Job<(u64, TrainEnd)>,
}

impl Drop for Running {
    /// Dropping the run stops it (the games finished are kept).
    fn drop(&mut self) {
        self.progress.cancel();
    }
}

/// What the training folder of a rules text holds, once read.
#[derive(Clone, Debug)]
pub struct Found {
    /// The rules text and the folder that keeps training folders: what
    /// was read is theirs (compared rather than hashed every frame).
    source: String,
    dir: PathBuf,
    /// Its training folder ([`rules_folder`]).
    pub folder: PathBuf,
    /// What its data folder holds (`Ok(None)`: no data).
    pub data: Result<Option<DataFound>, String>,
}

/// A read of a data folder going on.
#[derive(Debug)]
struct Scan {
    source: String,
    dir: PathBuf,
    folder: PathBuf,
    job: Job<Result<Option<DataFound>, String>>,
}

/// "Train bot": the run going on, the last one's outcome and what the
/// current text's data folder holds.
#[derive(Debug, Default)]
pub struct Training {
    /// What the panel does not offer (tests make tiny runs with it).
    pub tuning: Tuning,
    running: Option<Running>,
    /// The text the last run trained, and how it ended.
    ended: Option<(String, TrainEnd)>,
    /// What the training folder of the last text asked about holds.
    found: Option<Found>,
    scan: Option<Scan>,
    next_token: u64,
    /// Runs ended so far (a trained evaluation may have appeared).
    runs_ended: u64,
}

impl Training {
    /// Whether a run is going on.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Whether the run going on was asked to stop.
    pub fn is_cancelling(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.progress.is_cancelled())
    }

    /// Whether a run or a read of a data folder is going on.
    pub fn is_busy(&self) -> bool {
        self.running.is_some() || self.scan.is_some()
    }

    /// The text the run going on trains.
    pub fn running_source(&self) -> Option<&str> {
        self.running.as_ref().map(|r| r.source.as_str())
    }

    /// Runs ended so far, cancelled and failed ones included.
    pub fn runs_ended(&self) -> u64 {
        self.runs_ended
    }

    /// The outcome of the last run if it trained the text `source`.
    pub fn ended_for(&self, source: &str) -> Option<&TrainEnd> {
        self.ended
            .as_ref()
            .filter(|(s, _)| s == source)
            .map(|(_, e)| e)
    }

    /// What the training folder of the rules text `source` in `dir` holds,
    /// once read ([`Training::drive`] reads it).
    pub fn found_for(&self, source: &str, dir: &Path) -> Option<&Found> {
        self.found
            .as_ref()
            .filter(|f| f.source == source && f.dir == dir)
    }

    /// Asks the run to stop after the games under way (they are kept).
    pub fn cancel(&mut self) {
        if let Some(r) = &self.running {
            r.progress.cancel();
        }
    }

    /// The progress of the run going on.
    pub fn status(&self) -> Option<TrainStatus> {
        let r = self.running.as_ref()?;
        let share = |done: u64, of: u64| (done as f64 / of.max(1) as f64).min(1.0) as f32;
        let latest = r.progress.latest().unwrap_or(TrainProgress::Data {
            positions: 0,
            games: 0,
            of: r.positions,
        });
        let (fraction, text) = match latest {
            TrainProgress::Data { positions, .. } => {
                let n = positions.min(r.positions);
                (
                    share(n, r.positions),
                    format!(
                        "Self-play: {} / {} positions",
                        grouped(n),
                        grouped(r.positions)
                    ),
                )
            }
            TrainProgress::Fit { epoch, .. } => {
                let e = epoch as u64;
                (
                    share(e, r.epochs as u64),
                    format!("Fitting: epoch {e} / {}", r.epochs),
                )
            }
            TrainProgress::Validate { games: g, .. } => (
                share(g, r.match_games),
                format!("Validation match: {} games", grouped(g)),
            ),
        };
        let text = if self.is_cancelling() {
            format!("Cancelling: {text}")
        } else {
            text
        };
        Some(TrainStatus { fraction, text })
    }

    /// Starts training `variant` (the text being edited) with `options`,
    /// keeping its data and its evaluation in the training folder;
    /// `rules_file` is the file the text belongs to. Refused (the reason
    /// returned) while a run goes on or for rules that do not have two
    /// players.
    pub fn start(
        &mut self,
        variant: &Variant,
        options: &TrainSaved,
        rules_file: Option<&Path>,
        wake: Waker,
    ) -> Result<(), String> {
        if self.running.is_some() {
            return Err("a training run is going on: cancel it first".into());
        }
        if options.positions == 0 {
            return Err("train on at least one position".into());
        }
        let dir = Path::new(&options.dir);
        let source = variant.source();
        let tuning = &self.tuning;
        let request = Request {
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
            data: data_folder(dir, source),
            kept: kept_path(dir, variant.name(), source),
            rules_file: rules_file.map(Path::to_path_buf),
        };
        let progress = Arc::new(Watch::default());
        // The new run's outcome will replace the last one's.
        self.ended = None;
        self.next_token += 1;
        let token = self.next_token;
        let worker_progress = progress.clone();
        let job = Job::spawn_waking("murus-train", wake, move |r| {
            let end = run(&request, &worker_progress);
            r.send((token, end));
        });
        self.running = Some(Running {
            token,
            source: source.to_string(),
            variant: variant.name().to_string(),
            positions: options.positions,
            epochs: tuning.fit.epochs,
            match_games: tuning.validation.max_games,
            progress,
            job,
        });
        Ok(())
    }

    /// Notes a run that could not start, for the text `source`.
    pub(crate) fn refused(&mut self, source: &str, why: String) {
        self.ended = Some((source.to_string(), TrainEnd::error(why)));
    }

    /// Collects the end of the run going on, and reads what the data folder
    /// of the text `source` holds when it is not known yet (`source`:
    /// the current text, when it compiles; `dir`: the training folder).
    /// Called every frame; never waits.
    pub fn drive(&mut self, source: Option<&str>, dir: &Path, wake: &Waker) {
        if let Some(r) = &mut self.running {
            let token = r.token;
            let msgs = r.job.poll();
            let finished = r.job.is_finished();
            let end = msgs.into_iter().find(|(t, _)| *t == token).map(|(_, e)| e);
            if end.is_some() || finished {
                let end = end.unwrap_or_else(|| {
                    TrainEnd::error("the training run stopped without a result".into())
                });
                if let Some(r) = self.running.take() {
                    self.ended = Some((r.source.clone(), end));
                }
                self.runs_ended += 1;
                self.found = None; // the data changed
            }
        }
        if let Some(s) = &mut self.scan {
            let done = s.job.poll().pop();
            let ended = done.is_some() || s.job.is_finished();
            if ended && let Some(s) = self.scan.take() {
                self.found = Some(Found {
                    source: s.source,
                    dir: s.dir,
                    folder: s.folder,
                    data: done.unwrap_or_else(|| Err("the data could not be read".into())),
                });
            }
        }
        let Some(source) = source else { return };
        let known = self.found_for(source, dir).is_some();
        let reading = self
            .scan
            .as_ref()
            .is_some_and(|s| s.source == source && s.dir == dir);
        // A run writes the folder it trains: read it once the run is over.
        let written = self.running.as_ref().is_some_and(|r| r.source == source);
        if known || reading || written {
            return;
        }
        let folder = rules_folder(dir, source);
        let data = folder.join(DATA_FOLDER);
        let job = Job::spawn_waking("murus-train-scan", wake.clone(), move |r| {
            r.send(read_data(&data));
        });
        self.scan = Some(Scan {
            source: source.to_string(),
            dir: dir.to_path_buf(),
            folder,
            job,
        });
    }

    /// Waits for the run going on and any read of a data folder to end,
    /// then takes their results in (for tests and scripts: the UI calls
    /// [`Training::drive`]).
    pub fn settle(&mut self, source: Option<&str>, dir: &Path) {
        let wake = crate::worker::no_waker();
        loop {
            if let Some(r) = &mut self.running {
                r.job.wait();
            } else if let Some(s) = &mut self.scan {
                s.job.wait();
            } else {
                break;
            }
            self.drive(source, dir, &wake);
        }
    }

    /// The variant the run going on trains.
    pub fn running_variant(&self) -> Option<&str> {
        self.running.as_ref().map(|r| r.variant.as_str())
    }
}

/// The run on its thread: trains, writes what is kept and registers it,
/// and says how it went.
fn run(request: &Request, progress: &Watch<TrainProgress>) -> TrainEnd {
    let (variant, options) = (&request.variant, &request.options);
    // Each run goes on with the data kept for its rules, if any.
    match murus_lab::train::train(variant, options, &request.data, Mode::Resume, progress) {
        Err(e) => TrainEnd::error(format!("Training failed: {e}")),
        Ok(None) => TrainEnd {
            tone: Tone::Info,
            lines: vec![format!(
                "Training cancelled: the {} positions played so far are kept; \
                 Resume training goes on from them.",
                grouped(match progress.latest() {
                    Some(TrainProgress::Data { positions, .. }) => positions,
                    // Stopped after the data: what its folder keeps.
                    _ => read_data(&request.data)
                        .ok()
                        .flatten()
                        .map_or(0, |found| found.positions),
                })
            )],
            kept: None,
        },
        Ok(Some(outcome)) => finish(request, outcome),
    }
}

/// The outcome in words, the kept evaluation written (beside the rules
/// file too, when that still holds the rules trained) and registered.
fn finish(request: &Request, o: TrainOutcome) -> TrainEnd {
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
        let same = std::fs::read_to_string(rules).is_ok_and(|t| t == request.variant.source());
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
    murus_ai::evalfile::register(file);
    lines.push(format!(
        "Play and Lab bots on {} use it from now on; \"{TRAINED_LABEL}\" names it.",
        request.variant.name()
    ));
    TrainEnd { tone, lines, kept }
}

/// The trained bot of each rules text, looked up once (a file's existence)
/// and again after a run ends or the training folder changes: Play and Lab
/// ask every frame.
#[derive(Debug, Default)]
pub struct TrainedBots {
    dir: PathBuf,
    runs_ended: u64,
    /// By rules source: the spec of [`TRAINED_LABEL`], if its file exists.
    known: HashMap<String, Option<String>>,
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

    /// The spec of the trained bot of the variant `name` whose rules text
    /// is `source` (`hard:eval=FILE`), if an evaluation was kept for it.
    pub fn spec_for(&mut self, name: &str, source: &str) -> Option<String> {
        if let Some(spec) = self.known.get(source) {
            return spec.clone();
        }
        let path = kept_path(&self.dir, name, source);
        let spec = path.is_file().then(|| trained_spec(&path));
        self.known.insert(source.to_string(), spec.clone());
        spec
    }

    /// [`TrainedBots::spec_for`] a variant.
    pub fn spec_for_variant(&mut self, variant: &Variant) -> Option<String> {
        self.spec_for(variant.name(), variant.source())
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
            }))
        );
    }

    #[test]
    fn folders_are_per_rules_text_and_files_per_variant_name() {
        let dir = Path::new("t");
        let a = rules_folder(dir, "a");
        assert_ne!(a, rules_folder(dir, "b"));
        assert_eq!(data_folder(dir, "a"), a.join("data"));
        assert_eq!(kept_path(dir, "my game/2", "a"), a.join("my_game_2.eval"));
        assert_eq!(trained_spec(Path::new("/x/y.eval")), "hard:eval=/x/y.eval");
        assert!(
            trained_spec(Path::new("/x/y.eval"))
                .parse::<BotSpec>()
                .is_ok()
        );
    }
}
