//! The rules sheet export: murus-publish's printable page of the rules
//! (as `murus sheet` writes it), built and written on a worker of its own
//! so that the window keeps drawing, with the file being written in the
//! message row until the result's message. Without egui.

use std::path::{Path, PathBuf};

use murus_engine::Variant;

use crate::files::{self, FileError};
use crate::worker::{Busy, Waker, Worker};

/// Why a rules sheet was not written; the cause kept as its source.
#[derive(Debug, thiserror::Error)]
pub enum SheetError {
    #[error("the rules do not compile yet: fix their errors first")]
    NotCompiled,
    #[error("{A_SHEET} is being written to {}: wait for it to end", files::absolute(.0).display())]
    Writing(PathBuf),
    #[error(transparent)]
    Busy(#[from] Busy),
    #[error(transparent)]
    Build(#[from] murus_publish::SheetError),
    #[error(transparent)]
    File(#[from] FileError),
    #[error("the rules sheet stopped unexpectedly")]
    Stopped,
}

/// What the worker is called while it writes (the answer to a second
/// request).
const A_SHEET: &str = "a rules sheet";

/// The rules sheet being written, on its worker.
#[derive(Debug)]
pub struct RulesSheet {
    /// Sends how the export ended: the message to show (`Err`: what went
    /// wrong).
    worker: Worker<Result<String, SheetError>>,
    /// The file being written.
    writing: Option<PathBuf>,
    /// How it ended, once the worker said so.
    done: Option<Result<String, SheetError>>,
}

impl RulesSheet {
    /// No sheet being written; the worker calls `waker` when it is done.
    pub(super) fn new(waker: Waker) -> RulesSheet {
        RulesSheet {
            worker: Worker::new(waker),
            writing: None,
            done: None,
        }
    }

    /// Why no sheet can start now: one is being written.
    pub fn busy(&self) -> Option<SheetError> {
        let path = self.writing.as_ref()?;
        Some(SheetError::Writing(path.clone()))
    }

    /// Starts building the sheet of `variant` and writing it to `path` on
    /// the worker; refused while one is being written.
    pub(super) fn start(&mut self, variant: Variant, path: &Path) -> Result<(), SheetError> {
        if let Some(busy) = self.busy() {
            return Err(busy);
        }
        let to = files::absolute(path);
        self.worker.start(A_SHEET, move |r| {
            r.send(write(&variant, &to));
        })?;
        self.writing = Some(path.to_path_buf());
        self.done = None;
        Ok(())
    }

    /// Takes in the worker's news; once the sheet is written (or failed),
    /// the message to show. Called every frame; never waits.
    pub(super) fn poll(&mut self) -> Option<Result<String, SheetError>> {
        for done in self.worker.poll() {
            self.done = Some(done);
        }
        if self.worker.is_running() || self.writing.take().is_none() {
            return None;
        }
        let done = self.done.take();
        Some(done.unwrap_or(Err(SheetError::Stopped)))
    }

    /// Whether a sheet is being written.
    pub fn is_running(&self) -> bool {
        self.writing.is_some()
    }

    /// What is being written, in words: "writing the rules sheet
    /// variants/standard-rules.html…".
    pub fn status(&self) -> Option<String> {
        let path = self.writing.as_ref()?;
        Some(format!(
            "writing the rules sheet {}…",
            files::short_name(path)
        ))
    }

    /// Waits for the sheet being written (tests and scripts: the UI
    /// polls).
    pub(super) fn wait(&mut self) {
        self.worker.wait();
    }
}

/// Builds the sheet of `variant` and writes it to `path`; the message to
/// show.
fn write(variant: &Variant, path: &Path) -> Result<String, SheetError> {
    let html = murus_publish::rules_sheet_html(variant, &murus_publish::SheetOptions::default())?;
    files::write(path, &html)?;
    Ok(format!("rules sheet written: {}", path.display()))
}
