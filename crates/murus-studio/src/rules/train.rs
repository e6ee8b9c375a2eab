//! "Train bot"'s state, without egui: its options, the run going on (on
//! the lab's [`JobPanel`], which starts, cancels and says what is busy for
//! every kind of job: training is a [`JobKind`]), the last run's outcome,
//! tied to the rules it trained, and what the training folder of the rules
//! shown holds. The run itself, the folders and the options are
//! [`crate::training`]'s.

use std::path::{Path, PathBuf};

use murus_dsl::RulesKey;
use murus_engine::Variant;
use murus_lab::report::grouped;
use murus_lab::train::{DataFound, TrainProgress};

use murus_lab::train::SPEC_FILE;

use crate::lab::job::{JobKind, JobPanel, Kept};
use crate::training::{
    DATA_FOLDER, TRAINING_RUN, TrainEnd, TrainMsg, TrainRequest, TrainSaved, TrainStatus, Tuning,
    read_data, rules_folder,
};
use crate::worker::{Busy, Waker, Worker};

/// Training runs as a kind of lab job: the runs folder is the training
/// folder; each rules' training folder that holds data is a kept job. A
/// run the user stopped goes on from its data like any other ("Resume
/// training" on the rules' own panel), so nothing is offered at start-up
/// and a stop needs no note.
#[derive(Debug)]
pub struct TrainJob;

/// The training folder of some rules, as [`TrainJob`] lists it.
#[derive(Clone, Debug)]
pub struct KeptTraining {
    folder: PathBuf,
    /// Its data folder holds a run's games.
    has_data: bool,
    running: bool,
}

impl Kept for KeptTraining {
    fn folder(&self) -> &Path {
        &self.folder
    }
    fn resumable(&self) -> bool {
        self.has_data && !self.running
    }
    fn offered(&self) -> bool {
        false
    }
    fn mark_running(&mut self) {
        self.running = true;
    }
}

impl JobKind for TrainJob {
    type Msg = TrainMsg;
    type Kept = KeptTraining;
    const WHAT: &'static str = TRAINING_RUN;
    const DISCARDED: &'static str = "the training data stays in its folder";

    fn list(runs: &Path) -> Vec<KeptTraining> {
        let mut kept: Vec<(std::time::SystemTime, KeptTraining)> = std::fs::read_dir(runs)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| {
                let folder = e.path();
                let changed = e
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH);
                let kept = KeptTraining {
                    // A data folder that murus-lab's training made.
                    has_data: folder.join(DATA_FOLDER).join(SPEC_FILE).is_file(),
                    folder,
                    running: false,
                };
                (changed, kept)
            })
            .collect();
        // Newest first.
        kept.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.folder.cmp(&b.1.folder)));
        kept.into_iter().map(|(_, k)| k).collect()
    }

    fn set_stopped_by_user(_folder: &Path, _stopped: bool) -> Result<(), crate::lab::JobError> {
        Ok(())
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

/// "Train bot": its options, the run going on, the last one's outcome and
/// what the current rules' data folder holds.
#[derive(Debug)]
pub struct Training {
    /// The options the panel shows (the training folder included).
    settings: TrainSaved,
    /// What the panel does not offer (tests make tiny runs with it).
    pub tuning: Tuning,
    /// Plays, fits and validates the run going on, in the training folder.
    jobs: JobPanel<TrainJob>,
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
    /// No run yet, with the options `settings`; runs and reads call
    /// `waker` when they report.
    pub fn with_waker(settings: TrainSaved, waker: Waker) -> Training {
        Training {
            jobs: JobPanel::new(Path::new(&settings.dir), waker.clone()),
            settings,
            tuning: Tuning::default(),
            underway: None,
            ended: None,
            found: None,
            scan: Worker::new(waker),
            reading: None,
            runs_ended: 0,
        }
    }

    /// "Train bot"'s options.
    pub fn settings(&self) -> &TrainSaved {
        &self.settings
    }

    /// "Train bot"'s options, to change (the training folder included).
    pub fn settings_mut(&mut self) -> &mut TrainSaved {
        &mut self.settings
    }

    /// The folder that keeps a training folder per rules.
    fn dir(&self) -> &Path {
        Path::new(&self.settings.dir)
    }

    /// Whether a run is under way.
    pub fn is_running(&self) -> bool {
        self.jobs.is_running()
    }

    /// The run under way, if any (its [`Busy`] says to cancel it first).
    pub fn busy(&self) -> Option<Busy> {
        self.jobs.busy()
    }

    /// Whether the run going on was asked to stop.
    pub fn is_cancelling(&self) -> bool {
        self.jobs.is_cancelling()
    }

    /// Whether a run or a read of a data folder is under way.
    pub fn is_busy(&self) -> bool {
        self.jobs.is_running() || self.scan.is_running()
    }

    /// The rules the run going on trains.
    pub fn running_key(&self) -> Option<RulesKey> {
        self.underway.as_ref().map(|u| u.key)
    }

    /// The variant the run going on trains.
    pub fn running_variant(&self) -> Option<&str> {
        self.underway.as_ref().map(|u| u.variant.as_str())
    }

    /// Runs ended so far, cancelled and failed ones included.
    pub fn runs_ended(&self) -> u64 {
        self.runs_ended
    }

    /// How the last run ended if it trained the rules `key` (none when it
    /// trained other rules: a new title or comment keeps it; `None`: a
    /// refusal of rules that do not compile).
    pub fn outcome(&self, key: Option<RulesKey>) -> Option<&TrainEnd> {
        self.ended
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, e)| e)
    }

    /// What the training folder of the rules `key` holds, once read
    /// ([`Training::drive`] reads it).
    pub fn found(&self, key: Option<RulesKey>) -> Option<&Found> {
        let key = key?;
        self.found
            .as_ref()
            .filter(|f| f.key == key && f.dir == self.dir())
    }

    /// What the data folder of the rules `key` holds, once read.
    fn data_found(&self, key: Option<RulesKey>) -> Option<&DataFound> {
        self.found(key).and_then(|f| f.data.as_ref().ok()?.as_ref())
    }

    /// The training folder of the rules of `variant` (their data and the
    /// evaluation kept).
    pub fn folder(&self, variant: &Variant) -> PathBuf {
        rules_folder(self.dir(), variant)
    }

    /// Why "Train bot" cannot start now on `rules` (the editor's variant
    /// of the current text, or why there is none), if it cannot.
    pub fn why_not(&self, rules: Result<&Variant, &str>) -> Option<String> {
        if let Some(busy) = self.busy() {
            return Some(busy.to_string());
        }
        let key = match rules {
            Ok(v) => v.rules_key(),
            Err(why) => return Some(why.to_string()),
        };
        let bot = self.tuning.bot.to_string();
        if let Some(found) = self.data_found(Some(key))
            && (found.seed != self.settings.seed || found.bot != bot)
        {
            let folder = self
                .found(Some(key))
                .map(|f| f.folder.display().to_string());
            return Some(format!(
                "the training folder holds {} played with seed {} by {}: \
                 set seed {} to resume them, or delete {} to start afresh",
                crate::feedback::count(found.positions, "position", "positions"),
                found.seed,
                found.bot,
                found.seed,
                folder.unwrap_or_default()
            ));
        }
        None
    }

    /// The start button's label: "Train bot", or "Resume training (N
    /// positions so far)" when the data folder of the rules `key` holds
    /// games, N the positions a run with the options learns from, as far as
    /// the data goes (its outcome's count: games the data holds beyond are
    /// not counted).
    pub fn label(&self, key: Option<RulesKey>) -> String {
        match self.data_found(key) {
            Some(found) if found.positions > 0 => format!(
                "Resume training ({} so far)",
                crate::feedback::count(
                    found.toward(self.settings.positions).0,
                    "position",
                    "positions"
                )
            ),
            _ => "Train bot".into(),
        }
    }

    /// Asks the run to stop after the games under way (they are kept).
    pub fn cancel(&mut self) {
        self.jobs.cancel();
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

    /// Starts training `rules` (the editor's variant of the current text,
    /// or why there is none) with the options, keeping its data and its
    /// evaluation in the training folder; `rules_file` is the file the text
    /// belongs to. When it cannot start (a run goes on, the rules do not
    /// compile, the data was played otherwise, no position asked for), the
    /// reason becomes its outcome.
    pub fn start(&mut self, rules: Result<&Variant, &str>, rules_file: Option<&Path>) {
        let key = rules.ok().map(Variant::rules_key);
        if let Some(why) = self.why_not(rules) {
            return self.refused(key, why);
        }
        let Ok(variant) = rules else { return };
        if self.settings.positions == 0 {
            return self.refused(key, "train on at least one position".into());
        }
        let request = TrainRequest::new(variant, &self.settings, &self.tuning, rules_file);
        let dir = self.settings.dir.clone();
        self.jobs.set_runs_dir(Path::new(&dir));
        let folder = self.folder(variant);
        if !self.jobs.start(&folder, move |r| request.train(&r)) {
            let busy = self.busy().map_or_else(String::new, |b| b.to_string());
            return self.refused(key, busy);
        }
        // The new run's outcome will replace the last one's.
        self.ended = None;
        self.underway = Some(Underway {
            key: variant.rules_key(),
            variant: variant.name().to_string(),
            positions: self.settings.positions,
            epochs: self.tuning.fit.epochs,
            match_games: self.tuning.validation.max_games,
            latest: None,
            ended: None,
        });
    }

    /// Notes a run that could not start, for the rules `key` (`None`:
    /// rules that do not compile).
    fn refused(&mut self, key: Option<RulesKey>, why: String) {
        self.ended = Some((key, TrainEnd::error(why)));
    }

    /// Collects the progress and the end of the run going on, and reads
    /// what the data folder of the rules of `variant` holds when it is not
    /// known yet (`variant`: the editor's, when it compiles). Called every
    /// frame; never waits.
    pub fn drive(&mut self, variant: Option<&Variant>) {
        self.take_run_news();
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
        let dir = self.dir().to_path_buf();
        let known = self.found(Some(key)).is_some();
        let reading = self
            .reading
            .as_ref()
            .is_some_and(|r| r.key == key && r.dir == dir);
        // A run writes the folder it trains: read it once the run is over.
        let written = self.running_key() == Some(key);
        if known || reading || written {
            return;
        }
        let folder = rules_folder(&dir, variant);
        let data = folder.join(DATA_FOLDER);
        // A read of another text's folder is of no use any more.
        self.scan.restart("a read of the training data", move |r| {
            r.send(read_data(&data));
        });
        self.reading = Some(Reading { key, dir, folder });
    }

    /// Takes in the run's progress, and its outcome once it has ended.
    fn take_run_news(&mut self) {
        let msgs = self.jobs.poll();
        if let Some(u) = &mut self.underway {
            for m in msgs {
                match m {
                    TrainMsg::Progress(p) => u.latest = Some(p),
                    TrainMsg::Ended(end) => u.ended = Some(end),
                }
            }
        }
        if self.jobs.ended().is_some()
            && let Some(u) = self.underway.take()
        {
            let end = u.ended.unwrap_or_else(|| {
                TrainEnd::error("the training run stopped without a result".into())
            });
            self.ended = Some((Some(u.key), end));
            self.runs_ended += 1;
            self.found = None; // the data changed
        }
    }

    /// Waits for the run going on and any read of a data folder to end,
    /// then takes their results in (for tests and scripts: the UI calls
    /// [`Training::drive`]).
    pub fn settle(&mut self, variant: Option<&Variant>) {
        loop {
            self.drive(variant);
            if self.jobs.is_running() {
                self.jobs.wait();
            } else if self.scan.is_running() {
                self.scan.wait();
            } else {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_training_folder_with_data_is_a_kept_job_that_resumes_and_none_is_offered() {
        let runs =
            std::env::temp_dir().join(format!("murus-studio-train-jobs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&runs);
        let with_data = runs.join("0123456789abcdef");
        std::fs::create_dir_all(with_data.join(DATA_FOLDER)).unwrap();
        std::fs::write(with_data.join(DATA_FOLDER).join(SPEC_FILE), "{}").unwrap();
        let empty = runs.join("fedcba9876543210");
        std::fs::create_dir_all(&empty).unwrap();
        std::fs::write(runs.join("stray.txt"), "not a folder").unwrap();
        let mut kept = TrainJob::list(&runs);
        kept.sort_by(|a, b| a.folder().cmp(b.folder()));
        assert_eq!(kept.len(), 2, "{kept:?}");
        assert_eq!(kept[0].folder(), with_data);
        assert!(kept[0].resumable() && !kept[1].resumable());
        assert!(kept.iter().all(|k| !k.offered()));
        kept[0].mark_running();
        assert!(!kept[0].resumable(), "not while it runs");
        let panel: JobPanel<TrainJob> = JobPanel::new(&runs, crate::worker::no_waker());
        assert!(panel.offer().is_none());
        assert!(panel.resumable(&with_data) && !panel.resumable(&empty));
        assert_eq!(TrainJob::list(&runs.join("missing")).len(), 0);
    }
}
