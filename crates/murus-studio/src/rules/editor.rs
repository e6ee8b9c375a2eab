//! The rule text being edited, the file it belongs to, and its compilation
//! (debounced, on a worker of its own), without egui.

use std::path::Path;

use murus_engine::Variant;

use super::compile::{CompileRequest, Compiled};
use crate::files;
use crate::worker::{Waker, Worker};

/// Seconds of quiet typing before the file recompiles.
pub const DEBOUNCE_S: f64 = 0.3;

/// The text being edited, its file, and its last compilation. Edits go
/// through [`super::RulesModel`], which also drops the messages about the
/// old text.
#[derive(Debug)]
pub struct RulesEditor {
    text: String,
    /// The file the text belongs to (empty: untitled, not saved yet).
    path: String,
    /// The text as last read from or written to `path` (for an untitled
    /// copy of a built-in: the built-in's text).
    disk_text: String,
    /// The built-in an untitled text was copied from (empty: none).
    copy_of: String,
    compiled: Option<Compiled>,
    /// The text changed since the last compilation started.
    stale: bool,
    /// When the text last changed (seconds on the caller's clock).
    last_edit: f64,
    worker: Worker<Compiled>,
}

impl RulesEditor {
    /// The text `text` of the file `path` (empty: untitled), which read
    /// `disk_text` when last opened or saved, compiled on a worker that
    /// calls `waker`.
    pub(super) fn new(
        text: String,
        path: String,
        disk_text: String,
        copy_of: String,
        waker: Waker,
    ) -> RulesEditor {
        RulesEditor {
            text,
            path,
            disk_text,
            copy_of,
            compiled: None,
            stale: true,
            last_edit: f64::NEG_INFINITY,
            worker: Worker::new(waker),
        }
    }

    /// The text, its file, what the file held and the built-in it copies,
    /// to persist.
    pub(super) fn to_saved(&self) -> [String; 4] {
        [
            self.text.clone(),
            self.path.clone(),
            self.disk_text.clone(),
            self.copy_of.clone(),
        ]
    }

    /// The rule text being edited.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text for the editor widget; call [`super::RulesModel::edited`]
    /// after changing it.
    pub(crate) fn text_mut(&mut self) -> &mut String {
        &mut self.text
    }

    /// Notes an edit at `now` (seconds): compilation follows after
    /// [`DEBOUNCE_S`] of quiet.
    pub(super) fn edited(&mut self, now: f64) {
        self.stale = true;
        self.last_edit = now;
    }

    /// The file the text belongs to; `None` while it is untitled.
    pub fn path(&self) -> Option<&Path> {
        (!self.path.is_empty()).then(|| Path::new(&self.path))
    }

    /// What the file bar calls the text: its path, or "untitled" (with the
    /// built-in it was copied from).
    pub fn title(&self) -> String {
        match self.path() {
            Some(p) => p.display().to_string(),
            None if self.copy_of.is_empty() => "untitled".into(),
            None => format!("untitled (copy of {})", self.copy_of),
        }
    }

    /// Whether the text differs from the file it came from.
    pub fn is_dirty(&self) -> bool {
        self.text != self.disk_text
    }

    /// The name "Save as" proposes for an untitled text.
    pub(super) fn untitled_name(&self) -> String {
        if self.copy_of.is_empty() {
            "my-variant.mg".to_string()
        } else {
            format!("my-{}.mg", self.copy_of)
        }
    }

    /// The text of the file at `path`, just read: it belongs to that file.
    pub(super) fn opened(&mut self, text: String, path: &Path) {
        self.text = text.clone();
        self.disk_text = text;
        // In full: the title says where the file is, whatever the working
        // folder.
        self.path = files::absolute(path).display().to_string();
        self.copy_of.clear();
        self.edited(f64::NEG_INFINITY);
    }

    /// Starts an untitled text (a copy of the built-in `copy_of`, when not
    /// empty).
    pub(super) fn untitled(&mut self, text: String, copy_of: String) {
        self.disk_text = text.clone();
        self.text = text;
        self.path.clear();
        self.copy_of = copy_of;
        self.edited(f64::NEG_INFINITY);
    }

    /// Reverts an untitled text to what it started as.
    pub(super) fn revert_untitled(&mut self) {
        let text = self.disk_text.clone();
        let copy_of = std::mem::take(&mut self.copy_of);
        self.untitled(text, copy_of);
    }

    /// The text was written to `path`, which it belongs to from then on.
    pub(super) fn saved_to(&mut self, path: &Path) {
        self.disk_text = self.text.clone();
        self.path = files::absolute(path).display().to_string();
        self.copy_of.clear();
    }

    /// The last compilation, possibly of an older text.
    pub fn compiled(&self) -> Option<&Compiled> {
        self.compiled.as_ref()
    }

    /// The last compilation if it is of the current text.
    pub fn fresh(&self) -> Option<&Compiled> {
        self.compiled.as_ref().filter(|c| c.source == self.text)
    }

    /// The variant of the last compilation, if that compiled.
    pub fn compiled_variant(&self) -> Option<&Variant> {
        self.compiled.as_ref().and_then(|c| c.variant.as_ref())
    }

    /// The variant of the current text, once compiled (never one of an
    /// older text), or why there is none.
    pub fn fresh_variant(&self) -> Result<&Variant, &'static str> {
        match self.fresh() {
            None => Err("the rules are compiling"),
            Some(c) => c
                .variant
                .as_ref()
                .ok_or("fix the errors first: the rules do not compile"),
        }
    }

    /// The key of the rules last compiled ([`Variant::rules_key`]): what
    /// "Train bot"'s data and results belong to.
    pub fn rules_key(&self) -> Option<murus_dsl::RulesKey> {
        self.compiled_variant().map(Variant::rules_key)
    }

    /// Whether a compilation is waiting or running.
    pub fn is_compiling(&self) -> bool {
        self.stale || self.worker.is_running()
    }

    /// The compilation to start at `now` (seconds), once the text has been
    /// quiet for [`DEBOUNCE_S`] and none runs; hand its result to
    /// [`RulesEditor::compile_finished`].
    pub fn next_compile(&mut self, now: f64) -> Option<CompileRequest> {
        if !self.stale || self.worker.is_running() || now - self.last_edit < DEBOUNCE_S {
            return None;
        }
        self.stale = false;
        Some(CompileRequest {
            source: self.text.clone(),
            // The file name diagnostics are rendered with.
            file: self
                .path()
                .map_or_else(|| "untitled.mg".into(), |p| p.display().to_string()),
        })
    }

    /// Seconds from `now` until a compilation is due, if one waits.
    pub fn compile_wait(&self, now: f64) -> Option<f64> {
        (self.stale && !self.worker.is_running())
            .then(|| (DEBOUNCE_S - (now - self.last_edit)).max(0.0))
    }

    /// Takes a finished compilation.
    pub fn compile_finished(&mut self, done: Compiled) {
        self.compiled = Some(done);
    }

    /// Compiles the current text now, on this thread (not while one runs).
    pub(super) fn compile_now(&mut self) {
        if self.worker.is_running() {
            return;
        }
        self.stale = true;
        self.last_edit = f64::NEG_INFINITY;
        if let Some(request) = self.next_compile(0.0) {
            self.compile_finished(request.run());
        }
    }

    /// Takes in the compilations that ended and starts the one due at
    /// `now` (seconds); how long until one is due, if one waits. Never
    /// waits.
    pub(super) fn poll(&mut self, now: f64) -> Option<f64> {
        for done in self.worker.poll() {
            self.compile_finished(done);
        }
        if let Some(request) = self.next_compile(now) {
            let started = self.worker.start("a compilation", move |r| {
                r.send(request.run());
            });
            debug_assert!(started.is_ok(), "next_compile waits for the last one");
            None
        } else {
            self.compile_wait(now)
        }
    }

    /// Whether a compilation runs on the worker.
    pub(super) fn is_running(&self) -> bool {
        self.worker.is_running()
    }

    /// Waits for the compilation going on to end (tests and scripts).
    pub(super) fn wait(&mut self) {
        self.worker.wait();
    }
}
