//! The Rules panel's state and every action on it, without egui: the text
//! and its file, compilation, perft and "Train bot".

use std::ops::Range;
use std::path::{Path, PathBuf};

use murus_engine::Variant;
use serde::{Deserialize, Serialize};

use super::compile::{CompileRequest, Compiled, DiagView, PerftRequest};
use crate::Feedback;
use crate::dialog::{Answer, Confirm};
use crate::files::{self, PickRequest};
use crate::places::{self, Places};
use crate::training::{self, DataFound, TrainEnd, TrainSaved, Training};
use crate::worker::{Busy, Waker, Worker, no_waker};

/// Seconds of quiet typing before the file recompiles.
pub const DEBOUNCE_S: f64 = 0.3;

/// The deepest perft the panel offers.
pub const MAX_PERFT_DEPTH: u32 = 6;

/// What Rules keeps across restarts: the text itself, so unsaved work
/// survives a restart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RulesSaved {
    pub text: String,
    /// The file the text belongs to (empty: untitled, not saved yet).
    pub path: String,
    /// The text as last read from or written to `path` (for an untitled
    /// copy of a built-in: the built-in's text).
    pub disk_text: String,
    pub perft_depth: u32,
    /// The built-in an untitled text was copied from (empty: none).
    pub copy_of: String,
    /// "Train bot"'s options.
    pub train: TrainSaved,
    /// The folder last opened from or saved to (empty: the data folder's
    /// `variants`).
    pub dir: String,
}

impl Default for RulesSaved {
    fn default() -> Self {
        // The shipped standard game, as a copy: it is read-only, and the
        // studio may run from any folder (no `variants/` beside it).
        let standard = Variant::standard();
        let text = standard.source().to_string();
        RulesSaved {
            disk_text: text.clone(),
            text,
            path: String::new(),
            perft_depth: 3,
            copy_of: standard.name().to_string(),
            train: TrainSaved::default(),
            dir: String::new(),
        }
    }
}

/// An action on the panel's file that may need a question answered first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileAction {
    /// Open a rule file.
    Open(PathBuf),
    /// Start an untitled copy of a built-in variant.
    CopyBuiltin(String),
    /// Start an empty untitled file.
    New,
    /// Read the file back from disk, dropping the edits.
    Revert,
}

/// A perft run, and the rules it counts.
#[derive(Clone, Debug)]
struct Perft {
    /// The source of the variant counted.
    source: String,
    lines: Vec<String>,
}

/// The Rules panel's state and actions, without egui.
#[derive(Debug)]
pub struct RulesModel {
    saved: RulesSaved,
    /// Where the user's files are (the data folder).
    places: Places,
    /// The folder variants are opened from and saved to: the folder last
    /// used, at first the data folder's `variants`.
    dir: PathBuf,
    /// The user's rules files: the data folder's and [`RulesModel::dir`]'s.
    files: Vec<PathBuf>,
    compiled: Option<Compiled>,
    /// The text changed since the last compilation started.
    stale: bool,
    /// When the text last changed (seconds on the caller's clock).
    last_edit: f64,
    compile: Worker<Compiled>,
    /// The last perft run (going on or ended).
    perft: Option<Perft>,
    perft_worker: Worker<String>,
    question: Option<Confirm<FileAction>>,
    feedback: Feedback,
    training: Training,
}

impl RulesModel {
    /// The model of a restored panel, opening files from the user's data
    /// folder and the folder last used, its background work waking nobody
    /// (tests drive it).
    pub fn new(saved: RulesSaved) -> RulesModel {
        RulesModel::with_waker(saved, no_waker())
    }

    /// The model of a restored panel whose background work calls `waker`
    /// when it reports.
    pub fn with_waker(saved: RulesSaved, waker: Waker) -> RulesModel {
        let places = Places::user();
        let dir = if saved.dir.is_empty() {
            places.variants()
        } else {
            PathBuf::from(&saved.dir)
        };
        let mut m = RulesModel {
            saved,
            places,
            dir,
            files: Vec::new(),
            compiled: None,
            stale: true,
            last_edit: f64::NEG_INFINITY,
            compile: Worker::new(waker.clone()),
            perft: None,
            perft_worker: Worker::new(waker.clone()),
            question: None,
            feedback: Feedback::default(),
            training: Training::with_waker(waker),
        };
        m.saved.perft_depth = m.saved.perft_depth.clamp(1, MAX_PERFT_DEPTH);
        m.refresh_files();
        m
    }

    /// Everything to persist.
    pub fn saved(&self) -> &RulesSaved {
        &self.saved
    }

    /// The rule text being edited.
    pub fn text(&self) -> &str {
        &self.saved.text
    }

    /// The text for the editor widget; call [`RulesModel::edited`] after
    /// changing it.
    pub(crate) fn text_mut(&mut self) -> &mut String {
        &mut self.saved.text
    }

    /// Replaces the text, as typing would, at `now` (seconds).
    pub fn set_text(&mut self, text: impl Into<String>, now: f64) {
        self.saved.text = text.into();
        self.edited(now);
    }

    /// Notes an edit of the text at `now` (seconds): compilation follows
    /// after [`DEBOUNCE_S`] of quiet, and messages about the old text go.
    pub fn edited(&mut self, now: f64) {
        self.stale = true;
        self.last_edit = now;
        self.feedback.changed();
    }

    /// The file the text belongs to; `None` while it is untitled.
    pub fn path(&self) -> Option<&Path> {
        (!self.saved.path.is_empty()).then(|| Path::new(&self.saved.path))
    }

    /// What the file bar calls the text: its path, or "untitled" (with the
    /// built-in it was copied from).
    pub fn title(&self) -> String {
        match self.path() {
            Some(p) => p.display().to_string(),
            None if self.saved.copy_of.is_empty() => "untitled".into(),
            None => format!("untitled (copy of {})", self.saved.copy_of),
        }
    }

    /// The file name diagnostics are rendered with.
    fn file_name(&self) -> String {
        self.path()
            .map_or_else(|| "untitled.mg".into(), |p| p.display().to_string())
    }

    /// Whether the text differs from the file it came from.
    pub fn is_dirty(&self) -> bool {
        self.saved.text != self.saved.disk_text
    }

    /// The folder files are opened from and saved to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Opens and saves files in `dir` from now on.
    pub fn set_dir(&mut self, dir: impl Into<PathBuf>) {
        self.dir = dir.into();
        self.saved.dir = self.dir.display().to_string();
        self.refresh_files();
    }

    /// Takes the user's files from `places` (tests: a scratch data
    /// folder); files are opened from and saved to its `variants` from now
    /// on.
    pub fn set_places(&mut self, places: Places) {
        self.places = places;
        self.set_dir(self.places.variants());
    }

    /// The user's data folder and its kin.
    pub fn places(&self) -> &Places {
        &self.places
    }

    /// The user's rule files (the data folder's, then
    /// [`RulesModel::dir`]'s), as last read.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Re-reads the list of the user's files.
    pub fn refresh_files(&mut self) {
        self.files = places::variant_files(&self.places, &self.dir);
    }

    /// A file was opened from or saved to `path`: its folder is the one
    /// used from now on.
    fn used(&mut self, path: &Path) {
        match path.parent().filter(|d| !d.as_os_str().is_empty()) {
            Some(d) if files::absolute(d) != files::absolute(&self.dir) => {
                self.set_dir(d.to_path_buf());
            }
            _ => self.refresh_files(),
        }
    }

    /// The message about the current state, if any.
    pub fn feedback(&self) -> &Feedback {
        &self.feedback
    }

    /// The question waiting for an answer, if any.
    pub fn question(&self) -> Option<&Confirm<FileAction>> {
        self.question.as_ref()
    }

    /// Asks for `action`: done at once, or after a question when it would
    /// drop unsaved edits.
    pub fn request(&mut self, action: FileAction) {
        // A file that cannot be opened fails first: asking to discard the
        // edits for nothing would lose them to no purpose.
        if let FileAction::Open(path) = &action
            && let Err(e) = std::fs::metadata(path)
        {
            self.feedback
                .error(format!("{}: {e}", files::absolute(path).display()));
            return;
        }
        if self.is_dirty() {
            self.question = Some(Confirm::new(
                "Unsaved changes",
                format!(
                    "{} has changes that are not saved. Discard them?",
                    self.title()
                ),
                "Discard changes",
                "Keep editing",
                action,
            ));
        } else {
            self.run(action);
        }
    }

    /// Takes the answer to [`RulesModel::question`].
    pub fn answer(&mut self, answer: Answer<FileAction>) {
        self.question = None;
        if let Answer::Go(action) = answer {
            self.run(action);
        }
    }

    fn run(&mut self, action: FileAction) {
        match action {
            FileAction::Open(path) => self.open(&path),
            FileAction::CopyBuiltin(name) => self.copy_builtin(&name),
            FileAction::New => self.start_untitled(String::new(), String::new()),
            FileAction::Revert => match self.path().map(Path::to_path_buf) {
                Some(p) => self.open(&p),
                None => {
                    let text = self.saved.disk_text.clone();
                    let copy_of = std::mem::take(&mut self.saved.copy_of);
                    self.start_untitled(text, copy_of);
                }
            },
        }
    }

    fn open(&mut self, path: &Path) {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                self.saved.text = text.clone();
                self.saved.disk_text = text;
                // In full: the title says where the file is, whatever the
                // working folder.
                self.saved.path = files::absolute(path).display().to_string();
                self.saved.copy_of.clear();
                self.edited(f64::NEG_INFINITY);
                self.used(path);
                self.feedback
                    .info(format!("opened {}", files::absolute(path).display()));
            }
            Err(e) => self.feedback.error(format!("{}: {e}", path.display())),
        }
    }

    fn copy_builtin(&mut self, name: &str) {
        match murus_engine::BUILTIN.iter().find(|(n, _)| *n == name) {
            Some((n, src)) => self.start_untitled(src.to_string(), n.to_string()),
            None => self.feedback.error(format!("no built-in variant `{name}`")),
        }
    }

    fn start_untitled(&mut self, text: String, copy_of: String) {
        self.saved.disk_text = text.clone();
        self.saved.text = text;
        self.saved.path.clear();
        self.saved.copy_of = copy_of;
        self.edited(f64::NEG_INFINITY);
    }

    /// Saves the text to its file. An untitled text has none yet: the
    /// dialog that asks for one comes back (hand its path to
    /// [`RulesModel::save_to`]).
    pub fn save(&mut self) -> Option<PickRequest> {
        match self.path().map(Path::to_path_buf) {
            Some(p) => {
                self.write(&p);
                None
            }
            None => Some(self.save_as_request()),
        }
    }

    /// The "Save as" dialog: in the file's folder (or [`RulesModel::dir`]),
    /// proposing its name (or the built-in's it copies).
    pub fn save_as_request(&self) -> PickRequest {
        let request = PickRequest::save("Save the rules as", "Rules", &["mg"]);
        match self.path() {
            Some(p) => request.near(p),
            None => {
                let name = if self.saved.copy_of.is_empty() {
                    "my-variant.mg".to_string()
                } else {
                    format!("my-{}.mg", self.saved.copy_of)
                };
                request.in_dir(&places::existing(&self.dir)).named(name)
            }
        }
    }

    /// The Save dialog of the rules sheet, beside the rules file, named
    /// after the variant.
    pub fn sheet_request(&self) -> PickRequest {
        let name = self
            .compiled_variant()
            .map_or("rules".to_string(), |v| v.name().to_string());
        let request = PickRequest::save("Save the rules sheet", "HTML page", &["html"]);
        let dir = self
            .path()
            .and_then(Path::parent)
            .map_or_else(|| places::existing(&self.dir), Path::to_path_buf);
        request.in_dir(&dir).named(format!("{name}-rules.html"))
    }

    /// The "Open" dialog, in [`RulesModel::dir`].
    pub fn open_request(&self) -> PickRequest {
        PickRequest::open("Open a rules file", "Rules", &["mg"])
            .in_dir(&places::existing(&self.dir))
    }

    /// Saves the text to `path`, a file the user chose (its dialog asked
    /// before replacing one), which the text belongs to from then on.
    pub fn save_to(&mut self, path: &Path) {
        self.write(path);
    }

    fn write(&mut self, path: &Path) {
        match files::write(path, &self.saved.text) {
            Ok(done) => {
                self.saved.disk_text = self.saved.text.clone();
                self.saved.path = files::absolute(path).display().to_string();
                self.saved.copy_of.clear();
                self.used(path);
                self.feedback.changed();
                self.feedback.set(done);
            }
            Err(e) => self.feedback.set(e),
        }
    }

    /// The last compilation, possibly of an older text.
    pub fn compiled(&self) -> Option<&Compiled> {
        self.compiled.as_ref()
    }

    /// The last compilation if it is of the current text.
    fn fresh(&self) -> Option<&Compiled> {
        self.compiled
            .as_ref()
            .filter(|c| c.source == self.saved.text)
    }

    /// The variant of the last compilation, if that compiled.
    pub fn compiled_variant(&self) -> Option<&Variant> {
        self.compiled.as_ref().and_then(|c| c.variant.as_ref())
    }

    /// The rules sheet of the current text (murus-publish's, as `murus
    /// sheet` writes it), or why there is none.
    pub fn sheet_html(&self) -> Result<String, String> {
        let variant = self
            .fresh()
            .and_then(|c| c.variant.as_ref())
            .ok_or("the rules do not compile yet: fix their errors first")?;
        murus_publish::rules_sheet_html(variant, &murus_publish::SheetOptions::default())
            .map_err(|e| e.to_string())
    }

    /// Shows an error in the panel's message row.
    pub fn say_error(&mut self, text: impl Into<String>) {
        self.feedback.error(text);
    }

    /// Writes the rules sheet of the current text to `path` (a file picked
    /// in a Save dialog, which asked before replacing one).
    pub fn write_sheet(&mut self, path: &Path) -> bool {
        let written = self.sheet_html().and_then(|html| {
            murus_engine::util::write_atomic(path, html).map_err(|e| e.to_string())
        });
        match written {
            Ok(()) => {
                self.feedback
                    .info(format!("rules sheet written: {}", path.display()));
                true
            }
            Err(e) => {
                self.feedback.error(e);
                false
            }
        }
    }

    /// The spans to underline in the current text: `(bytes, is_error)`.
    pub fn marks(&self) -> Vec<(Range<usize>, bool)> {
        self.fresh()
            .map(|c| c.diags.iter().map(|d| (d.span.clone(), d.error)).collect())
            .unwrap_or_default()
    }

    /// The diagnostic of the current text that points at byte `byte`
    /// (errors before warnings).
    pub fn diagnostic_at(&self, byte: usize) -> Option<&DiagView> {
        let len = self.saved.text.len();
        let c = self.fresh()?;
        let at = |error: bool| {
            c.diags
                .iter()
                .find(|d| d.error == error && d.covers(byte, len))
        };
        at(true).or_else(|| at(false))
    }

    /// Whether a compilation is waiting or running.
    pub fn is_compiling(&self) -> bool {
        self.stale || self.compile.is_running()
    }

    /// The compilation to start at `now` (seconds), once the text has been
    /// quiet for [`DEBOUNCE_S`] and none runs; hand its result to
    /// [`RulesModel::compile_finished`].
    pub fn next_compile(&mut self, now: f64) -> Option<CompileRequest> {
        if !self.stale || self.compile.is_running() || now - self.last_edit < DEBOUNCE_S {
            return None;
        }
        self.stale = false;
        Some(CompileRequest {
            source: self.saved.text.clone(),
            file: self.file_name(),
        })
    }

    /// Seconds from `now` until a compilation is due, if one waits.
    pub fn compile_wait(&self, now: f64) -> Option<f64> {
        (self.stale && !self.compile.is_running())
            .then(|| (DEBOUNCE_S - (now - self.last_edit)).max(0.0))
    }

    /// Takes a finished compilation. A perft of other rules than the new
    /// variant's stops: its counts would be shown beside the wrong rules.
    pub fn compile_finished(&mut self, done: Compiled) {
        self.compiled = Some(done);
        let shown = self.compiled_variant().map(Variant::source);
        if self
            .perft
            .as_ref()
            .is_some_and(|p| Some(p.source.as_str()) != shown)
        {
            self.perft_worker.cancel();
        }
    }

    /// Compiles the current text now, on this thread.
    pub fn compile_now(&mut self) {
        if self.compile.is_running() {
            return;
        }
        self.stale = true;
        self.last_edit = f64::NEG_INFINITY;
        if let Some(request) = self.next_compile(0.0) {
            self.compile_finished(request.run());
        }
    }

    /// Collects what background work sent (compilations, perft lines,
    /// training) and starts the compilation that is due at `now` (seconds).
    /// Returns how long until a compilation is due, if one waits (the UI
    /// should look again then). Called every frame; never waits.
    pub fn poll(&mut self, now: f64) -> Option<f64> {
        for done in self.compile.poll() {
            self.compile_finished(done);
        }
        let lines = self.perft_worker.poll();
        if let Some(p) = &mut self.perft {
            p.lines.extend(lines);
        }
        let compiled = self.compiled.as_ref().and_then(|c| c.variant.as_ref());
        self.training
            .drive(compiled, Path::new(&self.saved.train.dir));
        if let Some(request) = self.next_compile(now) {
            let started = self.compile.start("a compilation", move |r| {
                r.send(request.run());
            });
            debug_assert!(started.is_ok(), "next_compile waits for the last one");
            None
        } else {
            self.compile_wait(now)
        }
    }

    /// Waits for the compilation and the perft going on to end and takes
    /// their results in (tests and scripts: the UI polls).
    pub fn settle(&mut self) {
        while self.compile.is_running() || self.perft_worker.is_running() {
            self.compile.wait();
            self.perft_worker.wait();
            self.poll(f64::NEG_INFINITY);
        }
    }

    /// The depth perft counts to.
    pub fn perft_depth(&self) -> u32 {
        self.saved.perft_depth
    }

    /// Sets the perft depth (1 to [`MAX_PERFT_DEPTH`]).
    pub fn set_perft_depth(&mut self, depth: u32) {
        self.saved.perft_depth = depth.clamp(1, MAX_PERFT_DEPTH);
    }

    /// Starts counting the start position's moves of the compiled variant
    /// on a background thread. Refused while one runs; nothing to count
    /// while nothing compiles.
    pub fn start_perft(&mut self) -> Result<(), Busy> {
        let Some(variant) = self.compiled_variant().cloned() else {
            return Ok(());
        };
        let request = PerftRequest {
            depth: self.saved.perft_depth,
            variant,
        };
        let source = request.variant.source().to_string();
        self.perft_worker
            .start("a perft run", move |r| request.run(&r))?;
        self.perft = Some(Perft {
            source,
            lines: Vec::new(),
        });
        Ok(())
    }

    /// Stops the perft run (the depths counted stay).
    pub fn cancel_perft(&mut self) {
        self.perft_worker.cancel();
    }

    /// Whether a perft run is under way.
    pub fn is_perft_running(&self) -> bool {
        self.perft_worker.is_running()
    }

    /// The lines of the last perft run of the variant shown (none when it
    /// counted other rules).
    pub fn perft_lines(&self) -> &[String] {
        let shown = self.compiled_variant().map(Variant::source);
        self.perft
            .as_ref()
            .filter(|p| Some(p.source.as_str()) == shown)
            .map_or(&[], |p| p.lines.as_slice())
    }

    // --- Train bot -------------------------------------------------------

    /// The variant of the current text, once compiled (never one of an
    /// older text).
    pub fn fresh_variant(&self) -> Option<&Variant> {
        self.fresh().and_then(|c| c.variant.as_ref())
    }

    /// "Train bot"'s options.
    pub fn train_settings(&self) -> &TrainSaved {
        &self.saved.train
    }

    /// "Train bot"'s options, to change (the training folder included).
    pub fn train_settings_mut(&mut self) -> &mut TrainSaved {
        &mut self.saved.train
    }

    /// Sets "Train bot"'s options.
    pub fn set_train_settings(&mut self, settings: TrainSaved) {
        self.saved.train = settings;
    }

    /// The training run, its outcome and what the data folder holds.
    pub fn training(&self) -> &Training {
        &self.training
    }

    /// The training, to change ([`Training::tuning`], Cancel).
    pub fn training_mut(&mut self) -> &mut Training {
        &mut self.training
    }

    /// The key of the rules last compiled ([`Variant::rules_key`]): what
    /// "Train bot"'s data and results belong to.
    pub fn rules_key(&self) -> Option<murus_dsl::RulesKey> {
        self.compiled_variant().map(Variant::rules_key)
    }

    /// The training folder of the rules last compiled (their data and the
    /// evaluation kept).
    pub fn training_folder(&self) -> Option<PathBuf> {
        let dir = Path::new(&self.saved.train.dir);
        self.compiled_variant()
            .map(|v| training::rules_folder(dir, v))
    }

    /// What the training folder of the rules last compiled holds, once
    /// read.
    pub(super) fn found(&self) -> Option<&training::Found> {
        self.training
            .found_for(self.rules_key()?, Path::new(&self.saved.train.dir))
    }

    /// What the current text's data folder holds, once read.
    fn data_found(&self) -> Option<&DataFound> {
        self.found().and_then(|f| f.data.as_ref().ok()?.as_ref())
    }

    /// Why "Train bot" cannot start now, if it cannot.
    pub fn why_not_train(&self) -> Option<String> {
        if let Some(busy) = self.training.busy() {
            return Some(busy.to_string());
        }
        let Some(c) = self.fresh() else {
            return Some("the rules are compiling".into());
        };
        if c.variant.is_none() {
            return Some("fix the errors first: the rules do not compile".into());
        }
        let bot = self.training.tuning.bot.to_string();
        if let Some(found) = self.data_found()
            && (found.seed != self.saved.train.seed || found.bot != bot)
        {
            let folder = self.found().map(|f| f.folder.display().to_string());
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
    /// positions so far)" when the current text's data folder holds games,
    /// N the positions a run with the options learns from, as far as the
    /// data goes (its outcome's count: games the data holds beyond are not
    /// counted).
    pub fn train_label(&self) -> String {
        match self.data_found() {
            Some(found) if found.positions > 0 => format!(
                "Resume training ({} so far)",
                crate::feedback::count(
                    found.toward(self.saved.train.positions).0,
                    "position",
                    "positions"
                )
            ),
            _ => "Train bot".into(),
        }
    }

    /// Starts training the current text on a background thread; when it
    /// cannot start, the reason becomes its outcome.
    pub fn start_training(&mut self) {
        if let Some(why) = self.why_not_train() {
            self.training.refused(self.rules_key(), why);
            return;
        }
        let Some(v) = self.fresh_variant().cloned() else {
            return;
        };
        let file = self.path().map(Path::to_path_buf);
        if let Err(why) = self.training.start(&v, &self.saved.train, file.as_deref()) {
            self.training.refused(Some(v.rules_key()), why);
        }
    }

    /// Waits for the training run and the data folder's read to end (for
    /// tests and scripts).
    pub fn settle_training(&mut self) {
        let compiled = self.compiled.as_ref().and_then(|c| c.variant.as_ref());
        self.training
            .settle(compiled, Path::new(&self.saved.train.dir));
    }

    /// How the last training run of the rules last compiled ended (none
    /// when it trained other rules: a new title or comment keeps it).
    pub fn training_outcome(&self) -> Option<&TrainEnd> {
        self.training.ended_for(self.rules_key())
    }
}
