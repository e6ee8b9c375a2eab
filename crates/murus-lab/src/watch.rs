//! A job watched from another thread: [`Watch`] is the job's
//! [`Handler`]: a shared cancel flag stops it, and it keeps the progress
//! the job told last for whoever shows it (a progress bar every 100 ms, a
//! panel every frame).

use std::sync::{Mutex, PoisonError};

use murus_engine::job::{Cancel, Handler};

/// A handler that a cancel flag stops and that keeps the last progress.
///
/// ```
/// use murus_engine::job::Handler;
/// use murus_lab::Watch;
///
/// let watch: Watch<u64> = Watch::default();
/// watch.progress(&3);
/// assert_eq!(watch.latest(), Some(3));
/// assert!(!watch.stop());
/// watch.cancel();
/// assert!(watch.stop() && watch.is_cancelled());
/// ```
#[derive(Debug)]
pub struct Watch<P> {
    cancel: Cancel,
    latest: Mutex<Option<P>>,
}

impl<P> Default for Watch<P> {
    fn default() -> Self {
        Watch::with_cancel(Cancel::new())
    }
}

impl<P> Watch<P> {
    /// A watch stopped by `cancel` (shared with what sets it: a Ctrl-C
    /// handler, a button).
    pub fn with_cancel(cancel: Cancel) -> Watch<P> {
        Watch {
            cancel,
            latest: Mutex::new(None),
        }
    }

    /// Asks the job to stop.
    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    /// Whether the job was asked to stop.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }
}

impl<P: Clone> Watch<P> {
    /// The progress the job told last, if any.
    pub fn latest(&self) -> Option<P> {
        self.latest
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl<P: Clone + Send> Handler<P> for Watch<P> {
    fn stop(&self) -> bool {
        self.cancel.is_cancelled()
    }
    fn progress(&self, p: &P) {
        *self.latest.lock().unwrap_or_else(PoisonError::into_inner) = Some(p.clone());
    }
}
