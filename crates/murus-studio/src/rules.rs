//! The Rules panel: a rule-file editor with line numbers and syntax
//! colouring, live compilation off the UI thread, diagnostics shown over
//! their spans and in a clickable list, a start-position preview, a quick
//! perft, "Play this variant" and "Train bot" (an evaluation learned for
//! the rules being edited, see [`crate::training`]).
//!
//! [`RulesModel`] holds the panel's state and every action on it (the text,
//! its file, compile results, perft, the question waiting for an answer,
//! the feedback) and needs no egui: tests drive it directly.
//! [`RulesPanel`] draws the model, turns clicks and keys into its actions
//! and runs its background work.
//!
//! ```
//! use murus_studio::rules::{FileAction, RulesModel, RulesSaved};
//!
//! let mut rules = RulesModel::new(RulesSaved::default());
//! rules.request(FileAction::CopyBuiltin("hex".into()));
//! assert_eq!(rules.title(), "untitled (copy of hex)");
//! rules.compile_now();
//! assert_eq!(rules.compiled_variant().map(|v| v.name()), Some("hex"));
//! ```

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Instant;

use egui::RichText;
use egui::text::{CCursor, CCursorRange};
use murus_dsl::Severity;
use murus_engine::Variant;
use serde::{Deserialize, Serialize};

use crate::board::{self, Scene};
use crate::dialog::{self, Answer, Confirm};
use crate::training::{DataFound, TrainEnd, TrainSaved, Training};
use crate::worker::{Job, Waker, repaint_waker};
use crate::{Command, Feedback, Message, files, layout, syntax, theme, training};

/// Seconds of quiet typing before the file recompiles.
pub const DEBOUNCE_S: f64 = 0.3;

/// The deepest perft the panel offers.
pub const MAX_PERFT_DEPTH: u32 = 6;

/// The shortcut that saves the file.
const SAVE_SHORTCUT: egui::KeyboardShortcut =
    egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::S);

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
    /// Name for "Save as" in `variants/`.
    pub save_name: String,
    pub perft_depth: u32,
    /// The built-in an untitled text was copied from (empty: none).
    pub copy_of: String,
    /// "Train bot"'s options.
    pub train: TrainSaved,
}

impl Default for RulesSaved {
    fn default() -> Self {
        let text = Variant::standard().source().to_string();
        RulesSaved {
            disk_text: text.clone(),
            text,
            path: "variants/standard.mg".into(),
            save_name: "my-variant.mg".into(),
            perft_depth: 3,
            copy_of: String::new(),
            train: TrainSaved::default(),
        }
    }
}

/// One diagnostic, ready to list.
#[derive(Clone, Debug)]
pub struct DiagView {
    pub error: bool,
    pub line: usize,
    pub col: usize,
    pub message: String,
    /// The byte range it points at.
    pub span: Range<usize>,
    /// The rustc-style rendering, help included (shown on hover).
    pub rendered: String,
}

impl DiagView {
    /// `3:14: error: …`
    pub fn title(&self) -> String {
        let sev = if self.error { "error" } else { "warning" };
        format!("{}:{}: {sev}: {}", self.line, self.col, self.message)
    }

    /// Whether the diagnostic points at byte `byte` of its source of
    /// `len` bytes (an empty span at the end of the file points at the last
    /// byte).
    pub fn covers(&self, byte: usize, len: usize) -> bool {
        let s = &self.span;
        s.contains(&byte)
            || (s.is_empty() && (s.start == byte || (s.start >= len && byte + 1 == len)))
    }
}

/// A finished compilation.
#[derive(Debug)]
pub struct Compiled {
    /// The text that was compiled.
    pub source: String,
    pub diags: Vec<DiagView>,
    /// The variant, if the text compiles.
    pub variant: Option<Variant>,
    pub millis: f64,
}

/// A compilation to run (on any thread): the text and the file name the
/// diagnostics name.
#[derive(Clone, Debug)]
pub struct CompileRequest {
    pub source: String,
    pub file: String,
}

impl CompileRequest {
    /// Compiles the text.
    pub fn run(self) -> Compiled {
        let CompileRequest { source, file } = self;
        let t = Instant::now();
        let (variant, diags) = match murus_dsl::compile(&source) {
            Ok(c) => {
                let warnings = c.warnings.clone();
                (Some(Variant::from_rules(c.rules, &source)), warnings)
            }
            Err(d) => (None, d),
        };
        let diags = diags
            .iter()
            .map(|d| {
                let (line, col) = d.line_col(&source);
                DiagView {
                    error: d.severity == Severity::Error,
                    line,
                    col,
                    message: d.message.clone(),
                    span: d.span.range(),
                    rendered: d.render(&file, &source),
                }
            })
            .collect();
        Compiled {
            source,
            diags,
            variant,
            millis: t.elapsed().as_secs_f64() * 1e3,
        }
    }
}

/// A perft run to do (on any thread).
#[derive(Clone, Debug)]
pub struct PerftRequest {
    pub variant: Variant,
    pub depth: u32,
}

impl PerftRequest {
    /// Counts the start position's move paths for depths 1 to `depth`,
    /// reporting a line per depth ("perft 2: 400 (0.1 ms)"), or
    /// "cancelled" once `cancelled` says so.
    pub fn run(&self, cancelled: impl Fn() -> bool, mut report: impl FnMut(String)) {
        let start = self.variant.start();
        for d in 1..=self.depth {
            if cancelled() {
                report("cancelled".into());
                return;
            }
            let t = Instant::now();
            let n = self.variant.perft(&start, d);
            report(format!(
                "perft {d}: {n} ({:.1} ms)",
                t.elapsed().as_secs_f64() * 1e3
            ));
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
    /// Write the text over this existing file.
    Replace(PathBuf),
}

/// The Rules panel's state and actions, without egui.
#[derive(Debug)]
pub struct RulesModel {
    saved: RulesSaved,
    /// The folder variants are opened from and saved to (`variants/`).
    dir: PathBuf,
    files: Vec<PathBuf>,
    compiled: Option<Compiled>,
    /// The text changed since the last compilation started.
    stale: bool,
    /// When the text last changed (seconds on the caller's clock).
    last_edit: f64,
    compiling: bool,
    perft_lines: Vec<String>,
    perft_running: bool,
    question: Option<Confirm<FileAction>>,
    feedback: Feedback,
    training: Training,
}

impl RulesModel {
    /// The model of a restored panel, opening files from `variants/`.
    pub fn new(saved: RulesSaved) -> RulesModel {
        let mut m = RulesModel {
            saved,
            dir: PathBuf::from("variants"),
            files: Vec::new(),
            compiled: None,
            stale: true,
            last_edit: f64::NEG_INFINITY,
            compiling: false,
            perft_lines: Vec::new(),
            perft_running: false,
            question: None,
            feedback: Feedback::default(),
            training: Training::default(),
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
        self.refresh_files();
    }

    /// The rule files in [`RulesModel::dir`], as last read.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Re-reads the list of files in [`RulesModel::dir`].
    pub fn refresh_files(&mut self) {
        self.files = files::list(&self.dir, "mg");
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
        let drops_edits = !matches!(action, FileAction::Replace(_));
        if drops_edits && self.is_dirty() {
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
            FileAction::Replace(path) => self.write(&path),
        }
    }

    fn open(&mut self, path: &Path) {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                self.saved.text = text.clone();
                self.saved.disk_text = text;
                self.saved.path = path.display().to_string();
                self.saved.copy_of.clear();
                self.edited(f64::NEG_INFINITY);
                self.feedback.info(format!("opened {}", path.display()));
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

    /// Saves the text to its file; an untitled text is saved as the
    /// "Save as" name.
    pub fn save(&mut self) {
        match self.path().map(Path::to_path_buf) {
            Some(p) => self.write(&p),
            None => self.save_as(),
        }
    }

    /// The name "Save as" uses (a file in [`RulesModel::dir`]).
    pub fn save_name(&self) -> &str {
        &self.saved.save_name
    }

    /// The "Save as" name for its text field.
    pub(crate) fn save_name_mut(&mut self) -> &mut String {
        &mut self.saved.save_name
    }

    /// Sets the "Save as" name.
    pub fn set_save_name(&mut self, name: impl Into<String>) {
        self.saved.save_name = name.into();
    }

    /// Saves the text as the "Save as" name in [`RulesModel::dir`]; asks
    /// first when that would replace another file.
    pub fn save_as(&mut self) {
        let path =
            match files::save_as_path(&self.dir, &self.saved.save_name, "mg", "my-variant.mg") {
                Ok(p) => p,
                Err(e) => return self.feedback.set(e),
            };
        if path.exists() && self.path() != Some(path.as_path()) {
            self.question = Some(Confirm::new(
                "The file exists",
                format!(
                    "Replace {}? What it holds now will be lost.",
                    files::short_name(&path)
                ),
                "Replace",
                "Cancel",
                FileAction::Replace(path),
            ));
        } else {
            self.write(&path);
        }
    }

    fn write(&mut self, path: &Path) {
        match files::write(path, &self.saved.text) {
            Ok(done) => {
                self.saved.disk_text = self.saved.text.clone();
                self.saved.path = path.display().to_string();
                self.saved.copy_of.clear();
                self.refresh_files();
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
        self.stale || self.compiling
    }

    /// The compilation to start at `now` (seconds), once the text has been
    /// quiet for [`DEBOUNCE_S`] and none runs; hand its result to
    /// [`RulesModel::compile_finished`].
    pub fn next_compile(&mut self, now: f64) -> Option<CompileRequest> {
        if !self.stale || self.compiling || now - self.last_edit < DEBOUNCE_S {
            return None;
        }
        self.stale = false;
        self.compiling = true;
        Some(CompileRequest {
            source: self.saved.text.clone(),
            file: self.file_name(),
        })
    }

    /// Seconds from `now` until a compilation is due, if one waits.
    pub fn compile_wait(&self, now: f64) -> Option<f64> {
        (self.stale && !self.compiling).then(|| (DEBOUNCE_S - (now - self.last_edit)).max(0.0))
    }

    /// Takes a finished compilation (`None`: it ended without a result).
    pub fn compile_finished(&mut self, done: Option<Compiled>) {
        self.compiling = false;
        if let Some(done) = done {
            self.compiled = Some(done);
        }
    }

    /// Compiles the current text now, on this thread.
    pub fn compile_now(&mut self) {
        if self.compiling {
            return;
        }
        self.stale = true;
        self.last_edit = f64::NEG_INFINITY;
        if let Some(request) = self.next_compile(0.0) {
            self.compile_finished(Some(request.run()));
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

    /// The perft run to start now, if the text compiles and none runs;
    /// report its lines to [`RulesModel::perft_line`] and its end to
    /// [`RulesModel::perft_finished`].
    pub fn start_perft(&mut self) -> Option<PerftRequest> {
        if self.perft_running {
            return None;
        }
        let variant = self.compiled_variant()?.clone();
        self.perft_lines.clear();
        self.perft_running = true;
        Some(PerftRequest {
            variant,
            depth: self.saved.perft_depth,
        })
    }

    /// A line of the running perft.
    pub fn perft_line(&mut self, line: String) {
        self.perft_lines.push(line);
    }

    /// The perft run ended.
    pub fn perft_finished(&mut self) {
        self.perft_running = false;
    }

    pub fn is_perft_running(&self) -> bool {
        self.perft_running
    }

    /// The lines of the last perft run.
    pub fn perft_lines(&self) -> &[String] {
        &self.perft_lines
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

    /// The training run, its outcome and what the data folder holds.
    pub fn training(&self) -> &Training {
        &self.training
    }

    /// The training, to change ([`Training::tuning`], Cancel).
    pub fn training_mut(&mut self) -> &mut Training {
        &mut self.training
    }

    /// The training folder of the current text (its data and the
    /// evaluation kept).
    pub fn training_folder(&self) -> PathBuf {
        training::rules_folder(Path::new(&self.saved.train.dir), &self.saved.text)
    }

    /// What the current text's training folder holds, once read.
    fn found(&self) -> Option<&training::Found> {
        self.training
            .found_for(&self.saved.text, Path::new(&self.saved.train.dir))
    }

    /// What the current text's data folder holds, once read.
    fn data_found(&self) -> Option<&DataFound> {
        self.found().and_then(|f| f.data.as_ref().ok()?.as_ref())
    }

    /// Why "Train bot" cannot start now, if it cannot.
    pub fn why_not_train(&self) -> Option<String> {
        if self.training.is_running() {
            return Some("a training run is going on".into());
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
                "the training folder holds {} positions played with seed {} by {}: \
                 set seed {} to resume them, or delete {} to start afresh",
                murus_lab::report::grouped(found.positions),
                found.seed,
                found.bot,
                found.seed,
                folder.unwrap_or_default()
            ));
        }
        None
    }

    /// The start button's label: "Train bot", or "Resume training (N
    /// positions so far)" when the current text's data folder holds games.
    pub fn train_label(&self) -> String {
        match self.data_found() {
            Some(found) if found.positions > 0 => format!(
                "Resume training ({} positions so far)",
                murus_lab::report::grouped(found.positions)
            ),
            _ => "Train bot".into(),
        }
    }

    /// Starts training the current text on a background thread (`wake`:
    /// called when it ends); when it cannot start, the reason becomes its
    /// outcome.
    pub fn start_training(&mut self, wake: Waker) {
        if let Some(why) = self.why_not_train() {
            self.training.refused(&self.saved.text, why);
            return;
        }
        let Some(v) = self.fresh_variant().cloned() else {
            return;
        };
        let file = self.path().map(Path::to_path_buf);
        if let Err(why) = self
            .training
            .start(&v, &self.saved.train, file.as_deref(), wake)
        {
            self.training.refused(&self.saved.text, why);
        }
    }

    /// Collects the end of a training run and reads the current text's
    /// data folder when needed (every frame; never waits).
    pub fn poll_training(&mut self, wake: &Waker) {
        let source = trainable(self.compiled.as_ref(), &self.saved.text);
        self.training
            .drive(source, Path::new(&self.saved.train.dir), wake);
    }

    /// Waits for the training run and the data folder's read to end (for
    /// tests and scripts).
    pub fn settle_training(&mut self) {
        let source = trainable(self.compiled.as_ref(), &self.saved.text);
        self.training
            .settle(source, Path::new(&self.saved.train.dir));
    }

    /// How the last training run of the current text ended (none when it
    /// trained another text).
    pub fn training_outcome(&self) -> Option<&TrainEnd> {
        self.training.ended_for(&self.saved.text)
    }
}

/// The source of `compiled` if it is `text` and compiles (a field apart
/// from the model's training, which the caller changes with it).
fn trainable<'a>(compiled: Option<&'a Compiled>, text: &str) -> Option<&'a str> {
    compiled
        .filter(|c| c.source == text && c.variant.is_some())
        .map(|c| c.source.as_str())
}

/// The Rules panel: the model, and the view's own state and jobs.
#[derive(Debug)]
pub struct RulesPanel {
    model: RulesModel,
    compile_job: Option<Job<Compiled>>,
    perft_job: Option<Job<String>>,
    /// A byte to move the editor's cursor to (a clicked diagnostic).
    jump_to: Option<usize>,
}

impl RulesPanel {
    pub fn new(saved: RulesSaved) -> RulesPanel {
        RulesPanel {
            model: RulesModel::new(saved),
            compile_job: None,
            perft_job: None,
            jump_to: None,
        }
    }

    /// The panel's state and actions.
    pub fn model(&self) -> &RulesModel {
        &self.model
    }

    /// The panel's state and actions, to change.
    pub fn model_mut(&mut self) -> &mut RulesModel {
        &mut self.model
    }

    /// Whether a compilation, perft or training is waiting or running.
    pub fn is_busy(&self) -> bool {
        self.model.is_compiling() || self.model.is_perft_running() || self.model.training.is_busy()
    }

    /// Collects compiler and perft results; starts a compilation when the
    /// text has been quiet for [`DEBOUNCE_S`].
    pub fn poll(&mut self, ctx: &egui::Context) {
        if let Some(job) = &mut self.compile_job {
            let done = job.poll().pop();
            if done.is_some() || job.is_finished() {
                self.model.compile_finished(done);
                self.compile_job = None;
            }
        }
        if let Some(job) = &mut self.perft_job {
            for line in job.poll() {
                self.model.perft_line(line);
            }
            if job.is_finished() {
                self.model.perft_finished();
                self.perft_job = None;
            }
        }
        self.model.poll_training(&repaint_waker(ctx));
        if self.model.training.is_running() {
            // The progress bar reads the run's counters: keep it moving.
            ctx.request_repaint_after(std::time::Duration::from_millis(200));
        }
        let now = ctx.input(|i| i.time);
        if let Some(request) = self.model.next_compile(now) {
            self.compile_job = Some(Job::spawn("murus-compile", ctx, move |r| {
                r.send(request.run());
            }));
        } else if let Some(wait) = self.model.compile_wait(now) {
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(wait + 0.01));
        }
    }

    fn start_perft(&mut self, ctx: &egui::Context) {
        if let Some(request) = self.model.start_perft() {
            self.perft_job = Some(Job::spawn("murus-perft", ctx, move |rep| {
                request.run(
                    || rep.cancelled(),
                    |line| {
                        rep.send(line);
                    },
                );
            }));
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut commands = Vec::new();
        if let Some(answer) = dialog::show(ui.ctx(), "rules", &mut self.model.question) {
            self.model.answer(answer);
        }
        if self.model.question.is_none() && ui.input_mut(|i| i.consume_shortcut(&SAVE_SHORTCUT)) {
            self.model.save();
        }
        egui::Panel::top("rules-files").show(ui, |ui| self.file_bar(ui));
        egui::Panel::right("rules-preview")
            .default_size(360.0)
            .min_size(280.0)
            .show(ui, |ui| {
                // The panel keeps its width whatever it shows: an error
                // must not shrink it to the width of one line.
                egui::ScrollArea::vertical()
                    .id_salt("rules-preview-scroll")
                    .auto_shrink([false, true])
                    .show(ui, |ui| self.preview(ui, &mut commands));
            });
        egui::Panel::bottom("rules-diagnostics")
            .resizable(true)
            .default_size(150.0)
            .show(ui, |ui| self.diagnostics(ui));
        egui::CentralPanel::default().show(ui, |ui| self.editor(ui));
        commands
    }

    fn file_bar(&mut self, ui: &mut egui::Ui) {
        let m = &mut self.model;
        layout::reserved(ui, 1.0, |ui| {
            let dirty = if m.is_dirty() {
                " (unsaved changes)"
            } else {
                ""
            };
            ui.add(
                egui::Label::new(RichText::new(format!("{}{dirty}", m.title())).strong())
                    .truncate(),
            );
        });
        ui.horizontal_wrapped(|ui| {
            let mut chosen = None;
            egui::ComboBox::from_label("Open from variants/")
                .selected_text("choose a file")
                .show_ui(ui, |ui| {
                    for f in m.files() {
                        let name = f
                            .file_name()
                            .map(|n| n.to_string_lossy().to_string())
                            .unwrap_or_default();
                        if ui.selectable_label(false, name).clicked() {
                            chosen = Some(FileAction::Open(f.clone()));
                        }
                    }
                    if m.files().is_empty() {
                        ui.weak("no variants/ folder here");
                    }
                });
            egui::ComboBox::from_label("Built-in")
                .selected_text("copy a built-in")
                .show_ui(ui, |ui| {
                    for (n, _) in murus_engine::BUILTIN {
                        if ui.selectable_label(false, *n).clicked() {
                            chosen = Some(FileAction::CopyBuiltin(n.to_string()));
                        }
                    }
                });
            if ui.button("New").clicked() {
                chosen = Some(FileAction::New);
            }
            if let Some(action) = chosen {
                m.request(action);
            }
            let save_hint = if m.path().is_some() {
                "Save to the file (Ctrl+S)"
            } else {
                "Untitled: save as the name beside Save as (Ctrl+S)"
            };
            if ui.button("Save").on_hover_text(save_hint).clicked() {
                m.save();
            }
            let name = ui.label("Save as name");
            ui.add(
                egui::TextEdit::singleline(m.save_name_mut())
                    .hint_text("file name in variants/")
                    .desired_width(120.0),
            )
            .labelled_by(name.id);
            if ui.button("Save as").clicked() {
                m.save_as();
            }
            // Shown disabled rather than hidden, so that the row never rewraps.
            if ui
                .add_enabled(m.is_dirty(), egui::Button::new("Revert"))
                .clicked()
            {
                m.request(FileAction::Revert);
            }
        });
        // Room for two rows of message, shown or not, so that the editor
        // below never moves.
        layout::reserved(ui, 2.0, |ui| {
            if let Some(msg) = m.feedback().current() {
                msg.show(ui);
            }
        });
    }

    fn editor(&mut self, ui: &mut egui::Ui) {
        let marks = self.model.marks();
        let visuals = ui.visuals().clone();
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        let label = ui.label("Rule file");
        let id = egui::Id::unique("rules-editor");
        let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, _wrap: f32| {
            let job = syntax::highlight(buf.as_str(), &marks, &visuals, font.clone());
            ui.fonts_mut(|f| f.layout_job(job))
        };
        if let Some(byte) = self.jump_to {
            if let Some(mut state) = egui::TextEdit::load_state(ui.ctx(), id) {
                let chars = char_index(self.model.text(), byte);
                state
                    .cursor
                    .set_char_range(Some(CCursorRange::one(CCursor::new(chars))));
                state.store(ui.ctx(), id);
            }
            ui.memory_mut(|m| m.request_focus(id));
        }
        let gutter_font = font.clone();
        egui::ScrollArea::both()
            .id_salt("rules-editor-scroll")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.horizontal_top(|ui| {
                    let lines = self.model.text().split('\n').count();
                    let digits = lines.to_string().len().max(2) as f32;
                    let gutter_w = digits * gutter_font.size * 0.62 + 8.0;
                    let (gutter, _) =
                        ui.allocate_exact_size(egui::vec2(gutter_w, 1.0), egui::Sense::hover());
                    let out = egui::TextEdit::multiline(self.model.text_mut())
                        .id(id)
                        .code_editor()
                        .desired_width(f32::INFINITY)
                        .desired_rows(30)
                        .lock_focus(true)
                        .layouter(&mut layouter)
                        .show(ui);
                    let response = out.response.response.clone().labelled_by(label.id);
                    if response.changed() {
                        self.model.edited(ui.input(|i| i.time));
                    }
                    // The rendered diagnostic over its underlined span.
                    if let Some(pos) = response.hover_pos()
                        && let Some(c) = char_under(&out.galley, pos - out.galley_pos)
                        && let Some(d) = self.model.diagnostic_at(byte_index(self.model.text(), c))
                    {
                        let rendered = d.rendered.clone();
                        response.on_hover_ui_at_pointer(|ui| {
                            ui.label(RichText::new(rendered).monospace());
                        });
                    }
                    // Line numbers beside each paragraph's first row.
                    let painter = ui.painter();
                    let weak = ui.visuals().weak_text_color();
                    let mut n = 1;
                    let mut starts = true;
                    for row in &out.galley.rows {
                        if starts {
                            painter.text(
                                egui::pos2(gutter.right() - 4.0, out.galley_pos.y + row.pos.y),
                                egui::Align2::RIGHT_TOP,
                                n.to_string(),
                                gutter_font.clone(),
                                weak,
                            );
                            n += 1;
                        }
                        starts = row.ends_with_newline;
                    }
                    if let Some(byte) = self.jump_to.take() {
                        let chars = char_index(self.model.text(), byte);
                        let r = out.galley.pos_from_cursor(CCursor::new(chars));
                        let r = r.translate(out.galley_pos.to_vec2());
                        ui.scroll_to_rect(r.expand(40.0), Some(egui::Align::Center));
                    }
                });
            });
    }

    fn diagnostics(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.heading("Diagnostics");
            if self.model.is_compiling() {
                ui.spinner();
                ui.weak("compiling…");
            } else if let Some(c) = self.model.compiled() {
                ui.weak(format!("compiled in {:.1} ms", c.millis));
            }
        });
        let Some(c) = self.model.compiled() else {
            return;
        };
        let mut jump = None;
        egui::ScrollArea::vertical()
            .id_salt("rules-diag-scroll")
            .auto_shrink([false, true])
            .show(ui, |ui| {
                if c.diags.is_empty() {
                    ui.colored_label(theme::success(ui), "No problems: the file compiles.");
                }
                for d in &c.diags {
                    let colour = if d.error {
                        theme::error(ui)
                    } else {
                        theme::warning(ui)
                    };
                    let r = ui
                        .add(
                            egui::Button::new(RichText::new(d.title()).color(colour))
                                .frame(false)
                                .wrap(),
                        )
                        .on_hover_text(RichText::new(&d.rendered).monospace());
                    if r.clicked() {
                        jump = Some(d.span.start);
                    }
                }
            });
        if jump.is_some() {
            self.jump_to = jump;
        }
    }

    fn preview(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        ui.heading("Start position");
        match self.model.compiled_variant().cloned() {
            Some(v) => self.start_and_perft(ui, &v, commands),
            None => {
                ui.weak("fix the errors to see the board");
            }
        }
        ui.separator();
        self.train_bot(ui);
    }

    fn start_and_perft(&mut self, ui: &mut egui::Ui, v: &Variant, commands: &mut Vec<Command>) {
        let r = v.rules();
        ui.label(format!(
            "{} — {} cells, {} players, stack limit {}",
            r.title,
            r.geometry.cell_count(),
            r.players.len(),
            r.stack_limit
        ));
        let start = v.start();
        let stacks = board::stacks_of(v, &start);
        let colours = board::player_colours(r);
        let names = board::player_names(r);
        ui.allocate_ui(egui::vec2(ui.available_width(), 300.0), |ui| {
            board::show_with(
                ui,
                &Scene {
                    id_salt: "rules-preview",
                    geometry: v.geometry(),
                    stacks: &stacks,
                    colours: &colours,
                    flipped: false,
                    selected: None,
                    targets: &[],
                    last_move: &[],
                    marks: &[],
                    max_cell: 40.0,
                },
                &board::Notes {
                    player_names: &names,
                    ..Default::default()
                },
            );
        });
        ui.label(format!("{} legal first moves", v.legal_moves(&start).len()));
        if ui.button("Play this variant").clicked() {
            commands.push(Command::PlayVariant(v.clone()));
        }
        ui.separator();
        ui.heading("Perft");
        ui.horizontal(|ui| {
            let mut depth = self.model.perft_depth();
            ui.add(
                egui::DragValue::new(&mut depth)
                    .range(1..=MAX_PERFT_DEPTH)
                    .prefix("depth "),
            );
            self.model.set_perft_depth(depth);
            if let Some(job) = &self.perft_job {
                ui.spinner();
                if ui.button("Cancel perft").clicked() {
                    job.cancel();
                }
            } else if ui.button("Run perft").clicked() {
                self.start_perft(ui.ctx());
            }
        });
        for l in self.model.perft_lines() {
            ui.monospace(l);
        }
    }

    /// "Train bot": the options, the start (or resume) button, the run's
    /// progress and Cancel, and how the last run of this text ended.
    fn train_bot(&mut self, ui: &mut egui::Ui) {
        ui.heading("Train bot");
        let m = &mut self.model;
        let running = m.training.is_running();
        ui.add_enabled_ui(!running, |ui| {
            let s = &mut m.saved.train;
            ui.horizontal_wrapped(|ui| {
                let l = ui.label("Positions");
                ui.add(
                    egui::DragValue::new(&mut s.positions)
                        .range(1..=100_000_000)
                        .speed(100.0),
                )
                .labelled_by(l.id);
                let l = ui.label("Threads");
                ui.add(egui::DragValue::new(&mut s.threads).range(1..=256))
                    .labelled_by(l.id);
                let l = ui.label("Seed");
                ui.add(egui::DragValue::new(&mut s.seed)).labelled_by(l.id);
            });
            ui.checkbox(&mut s.validate, "Validate against the current evaluation")
                .on_hover_text(
                    "keep a candidate only if it wins a match against the evaluation bots use now; \
                     off, the network is kept as fitted",
                );
        });
        if running {
            if let Some(status) = m.training.status() {
                ui.add(egui::ProgressBar::new(status.fraction).text(status.text));
            }
            if m.training.running_source() != Some(m.text()) {
                ui.weak(format!(
                    "training {} as the rules were when it started: the text changed since",
                    m.training.running_variant().unwrap_or("the variant")
                ));
            }
            if ui
                .add_enabled(
                    !m.training.is_cancelling(),
                    egui::Button::new("Cancel training"),
                )
                .on_hover_text(
                    "stops after the games under way; they are kept, and Resume training goes on from them",
                )
                .clicked()
            {
                m.training.cancel();
            }
        } else {
            let why = m.why_not_train();
            let button = ui.add_enabled(why.is_none(), egui::Button::new(m.train_label()));
            let button = match &why {
                Some(why) => button.on_disabled_hover_text(why),
                None => button.on_hover_text(
                    "plays self-play games of these rules, fits an evaluation to them, and keeps it \
                     (if it plays better than the current one, when validated)",
                ),
            };
            if button.clicked() {
                m.start_training(repaint_waker(ui.ctx()));
            }
        }
        if let Some(end) = m.training_outcome() {
            let msg = Message {
                tone: end.tone,
                text: end.text(),
            };
            msg.show(ui);
        }
        match m.found().map(|f| (f.folder.display().to_string(), &f.data)) {
            Some((folder, data)) => {
                if let Err(e) = data {
                    Message::error(format!("cannot read the training data: {e}")).show(ui);
                }
                ui.add(
                    egui::Label::new(RichText::new(format!("kept in {folder}")).weak()).truncate(),
                )
                .on_hover_text(folder);
            }
            None => {
                ui.weak("kept in the training folder");
            }
        }
    }
}

/// The index of the character at byte `byte` of `text` (the end for a
/// byte past it).
fn char_index(text: &str, byte: usize) -> usize {
    text.char_indices().take_while(|(i, _)| *i < byte).count()
}

/// The byte where character `c` of `text` starts.
fn byte_index(text: &str, c: usize) -> usize {
    text.char_indices().nth(c).map_or(text.len(), |(b, _)| b)
}

/// The index of the character drawn under `pos` (relative to the galley),
/// if the point is on one.
fn char_under(galley: &egui::Galley, pos: egui::Vec2) -> Option<usize> {
    let mut first = 0;
    for row in &galley.rows {
        if row.min_y() <= pos.y && pos.y < row.max_y() {
            let x = pos.x - row.pos.x;
            return row
                .glyphs
                .iter()
                .position(|g| {
                    let r = g.logical_rect();
                    r.min.x <= x && x < r.max.x
                })
                .map(|i| first + i);
        }
        first += row.char_count_including_newline().0;
    }
    None
}
