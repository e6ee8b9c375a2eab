//! "Train bot" in the Rules panel, without egui: an evaluation learned for
//! the rules being edited by murus-lab's training run
//! ([`murus_lab::train::train`], the run `murus train` makes), on a
//! background thread, with its progress, Cancel and its outcome in words.
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

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use murus_ai::BotSpec;
use murus_dsl::RulesKey;
use murus_engine::Variant;
use murus_lab::Mode;
use murus_lab::report::grouped;
pub use murus_lab::train::DataFound;
use murus_lab::train::{
    DataDir, FitSettings, TrainOptions, TrainOutcome, TrainProgress, Validation, describe_trained,
    save_evaluation,
};
use serde::{Deserialize, Serialize};

use crate::Tone;
use crate::worker::{Busy, Reporter, Waker, Worker, no_waker};

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

/// What a training run's thread tells the model.
#[derive(Debug)]
enum TrainMsg {
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

/// What the run going on trains, for its progress and its outcome.
#[derive(Debug)]
struct Underway {
    /// The rules it trains.
    key: RulesKey,
    variant: String,
    positions: u64,
    epochs: usize,
    match_games: u64,
    /// Where it stands, as it last said.
    latest: Option<TrainProgress>,
    /// How it ended, once its thread said.
    ended: Option<TrainEnd>,
}

/// What the training folder of some rules holds, once read.
#[derive(Clone, Debug)]
pub struct Found {
    /// The rules and the folder that keeps training folders: what was read
    /// is theirs.
    key: RulesKey,
    dir: PathBuf,
    /// Its training folder ([`rules_folder`]).
    pub folder: PathBuf,
    /// What its data folder holds (`Ok(None)`: no data).
    pub data: Result<Option<DataFound>, String>,
}

/// What a read of a data folder reads: the rules and the training folder
/// it is of.
#[derive(Debug)]
struct Reading {
    key: RulesKey,
    dir: PathBuf,
    folder: PathBuf,
}

/// What a training run is called while it goes on ([`Busy`]).
const A_RUN: &str = "a training run";

/// "Train bot": the run going on, the last one's outcome and what the
/// current text's data folder holds.
#[derive(Debug, Default)]
pub struct Training {
    /// What the panel does not offer (tests make tiny runs with it).
    pub tuning: Tuning,
    /// Plays, fits and validates the run going on.
    worker: Worker<TrainMsg>,
    underway: Option<Underway>,
    /// The rules the last run trained (none: a run refused for rules that
    /// do not compile), and how it ended.
    ended: Option<(Option<RulesKey>, TrainEnd)>,
    /// What the training folder of the last rules asked about holds.
    found: Option<Found>,
    /// Reads a data folder.
    scan: Worker<Result<Option<DataFound>, String>>,
    reading: Option<Reading>,
    /// Runs ended so far (a trained evaluation may have appeared).
    runs_ended: u64,
}

impl Training {
    /// No run yet; runs and reads call `waker` when they report.
    pub fn with_waker(waker: Waker) -> Training {
        Training {
            worker: Worker::new(waker.clone()),
            scan: Worker::new(waker),
            ..Training::default()
        }
    }

    /// No run yet; runs and reads wake nobody (tests drive the model).
    pub fn new() -> Training {
        Training::with_waker(no_waker())
    }

    /// Whether a run is under way.
    pub fn is_running(&self) -> bool {
        self.worker.is_running()
    }

    /// The run under way, if any (its [`Busy`] says to cancel it first).
    pub fn busy(&self) -> Option<Busy> {
        self.worker.ready().err()
    }

    /// Whether the run going on was asked to stop.
    pub fn is_cancelling(&self) -> bool {
        self.worker.is_cancelled()
    }

    /// Whether a run or a read of a data folder is under way.
    pub fn is_busy(&self) -> bool {
        self.worker.is_running() || self.scan.is_running()
    }

    /// The rules the run going on trains.
    pub fn running_key(&self) -> Option<RulesKey> {
        self.underway.as_ref().map(|u| u.key)
    }

    /// Runs ended so far, cancelled and failed ones included.
    pub fn runs_ended(&self) -> u64 {
        self.runs_ended
    }

    /// The outcome of the last run if it trained the rules `key` (`None`:
    /// a refusal of rules that do not compile).
    pub fn ended_for(&self, key: Option<RulesKey>) -> Option<&TrainEnd> {
        self.ended
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, e)| e)
    }

    /// What the training folder of the rules `key` in `dir` holds, once
    /// read ([`Training::drive`] reads it).
    pub fn found_for(&self, key: RulesKey, dir: &Path) -> Option<&Found> {
        self.found.as_ref().filter(|f| f.key == key && f.dir == dir)
    }

    /// Asks the run to stop after the games under way (they are kept).
    pub fn cancel(&mut self) {
        self.worker.stop();
    }

    /// The progress of the run going on.
    pub fn status(&self) -> Option<TrainStatus> {
        let r = self.underway.as_ref()?;
        let share = |done: u64, of: u64| (done as f64 / of.max(1) as f64).min(1.0) as f32;
        let latest = r.latest.clone().unwrap_or(TrainProgress::Data {
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

    /// Starts training `variant` (the rules being edited) with `options`,
    /// keeping its data and its evaluation in the training folder;
    /// `rules_file` is the file the text belongs to. Refused (the reason
    /// returned) while a run goes on or for rules that do not have two
    /// players.
    pub fn start(
        &mut self,
        variant: &Variant,
        options: &TrainSaved,
        rules_file: Option<&Path>,
    ) -> Result<(), String> {
        self.worker.ready().map_err(|b| b.to_string())?;
        if options.positions == 0 {
            return Err("train on at least one position".into());
        }
        let dir = Path::new(&options.dir);
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
            data: data_folder(dir, variant),
            kept: kept_path(dir, variant),
            rules_file: rules_file.map(Path::to_path_buf),
        };
        self.worker
            .start(A_RUN, move |r| {
                let end = run(&request, &r);
                r.send(TrainMsg::Ended(end));
            })
            .map_err(|b| b.to_string())?;
        // The new run's outcome will replace the last one's.
        self.ended = None;
        self.underway = Some(Underway {
            key: variant.rules_key(),
            variant: variant.name().to_string(),
            positions: options.positions,
            epochs: tuning.fit.epochs,
            match_games: tuning.validation.max_games,
            latest: None,
            ended: None,
        });
        Ok(())
    }

    /// Notes a run that could not start, for the rules `key` (`None`:
    /// rules that do not compile).
    pub(crate) fn refused(&mut self, key: Option<RulesKey>, why: String) {
        self.ended = Some((key, TrainEnd::error(why)));
    }

    /// Collects the progress and the end of the run going on, and reads
    /// what the data folder of the rules of `variant` holds when it is not
    /// known yet (`variant`: the editor's, when it compiles; `dir`: the
    /// training folder). Called every frame; never waits.
    pub fn drive(&mut self, variant: Option<&Variant>, dir: &Path) {
        let msgs = self.worker.poll();
        if let Some(u) = &mut self.underway {
            for m in msgs {
                match m {
                    TrainMsg::Progress(p) => u.latest = Some(p),
                    TrainMsg::Ended(end) => u.ended = Some(end),
                }
            }
        }
        if !self.worker.is_running()
            && let Some(u) = self.underway.take()
        {
            let end = u.ended.unwrap_or_else(|| {
                TrainEnd::error("the training run stopped without a result".into())
            });
            self.ended = Some((Some(u.key), end));
            self.runs_ended += 1;
            self.found = None; // the data changed
        }
        let read = self.scan.poll().pop();
        if !self.scan.is_running()
            && let Some(r) = self.reading.take()
        {
            self.found = Some(Found {
                key: r.key,
                dir: r.dir,
                folder: r.folder,
                data: read.unwrap_or_else(|| Err("the data could not be read".into())),
            });
        }
        let Some(variant) = variant else { return };
        let key = variant.rules_key();
        let known = self.found_for(key, dir).is_some();
        let reading = self
            .reading
            .as_ref()
            .is_some_and(|r| r.key == key && r.dir == dir);
        // A run writes the folder it trains: read it once the run is over.
        let written = self.running_key() == Some(key);
        if known || reading || written {
            return;
        }
        let folder = rules_folder(dir, variant);
        let data = folder.join(DATA_FOLDER);
        // A read of another text's folder is of no use any more.
        self.scan.restart("a read of the training data", move |r| {
            r.send(read_data(&data));
        });
        self.reading = Some(Reading {
            key,
            dir: dir.to_path_buf(),
            folder,
        });
    }

    /// Waits for the run going on and any read of a data folder to end,
    /// then takes their results in (for tests and scripts: the UI calls
    /// [`Training::drive`]).
    pub fn settle(&mut self, variant: Option<&Variant>, dir: &Path) {
        loop {
            self.drive(variant, dir);
            if self.worker.is_running() {
                self.worker.wait();
            } else if self.scan.is_running() {
                self.scan.wait();
            } else {
                break;
            }
        }
    }

    /// The variant the run going on trains.
    pub fn running_variant(&self) -> Option<&str> {
        self.underway.as_ref().map(|u| u.variant.as_str())
    }
}

/// The run on its thread: trains, writes what is kept and registers it,
/// and says how it went.
fn run(request: &Request, progress: &Reporter<TrainMsg>) -> TrainEnd {
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
