//! Background work: a named thread that reports through a channel whose
//! sender wakes the UI (requests a repaint), with a cancel flag. Dropping the
//! [`Job`] cancels it; the UI never waits for it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::Instant;

/// What a worker calls after each message to wake the UI (an egui context's
/// `request_repaint`; nothing for a model driven by tests).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// A [`Waker`] that wakes nobody.
pub fn no_waker() -> Waker {
    Arc::new(|| {})
}

/// A [`Waker`] that repaints `ctx`.
pub fn repaint_waker(ctx: &egui::Context) -> Waker {
    let ctx = ctx.clone();
    Arc::new(move || ctx.request_repaint())
}

/// The worker's side: send messages, poll the cancel flag.
pub struct Reporter<T> {
    tx: Sender<T>,
    wake: Waker,
    cancel: Arc<AtomicBool>,
}

impl<T> std::fmt::Debug for Reporter<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reporter")
            .field("cancel", &self.cancel)
            .finish_non_exhaustive()
    }
}

impl<T> Reporter<T> {
    /// Sends a message to the UI and wakes it. Returns `false` once the UI
    /// has dropped the job.
    pub fn send(&self, msg: T) -> bool {
        let ok = self.tx.send(msg).is_ok();
        (self.wake)();
        ok
    }
    /// Whether the user asked to stop.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
    /// The shared cancel flag (for libraries that poll one).
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }
}

/// The UI's side of a background job.
#[derive(Debug)]
pub struct Job<T> {
    rx: Receiver<T>,
    cancel: Arc<AtomicBool>,
    finished: bool,
    /// Messages [`Job::wait`] received, for the next [`Job::poll`].
    held: Vec<T>,
    /// When the job started.
    pub started: Instant,
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on a thread called `name`; its messages repaint `ctx`.
    pub fn spawn(
        name: &str,
        ctx: &egui::Context,
        work: impl FnOnce(Reporter<T>) + Send + 'static,
    ) -> Job<T> {
        Job::spawn_waking(name, repaint_waker(ctx), work)
    }

    /// Runs `work` on a thread called `name`; each message calls `wake`.
    pub fn spawn_waking(
        name: &str,
        wake: Waker,
        work: impl FnOnce(Reporter<T>) + Send + 'static,
    ) -> Job<T> {
        let (tx, rx) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let reporter = Reporter {
            tx,
            wake,
            cancel: cancel.clone(),
        };
        let spawned = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || work(reporter));
        let finished = spawned.is_err();
        Job {
            rx,
            cancel,
            finished,
            held: Vec::new(),
            started: Instant::now(),
        }
    }
}

impl<T> Job<T> {
    /// Messages that arrived since the last call.
    pub fn poll(&mut self) -> Vec<T> {
        let mut out = std::mem::take(&mut self.held);
        loop {
            match self.rx.try_recv() {
                Ok(m) => out.push(m),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.finished = true;
                    break;
                }
            }
        }
        out
    }
    /// Blocks until the worker has ended, keeping its messages for the next
    /// [`Job::poll`]. For tests and scripts: the UI never waits.
    pub fn wait(&mut self) {
        while !self.finished {
            match self.rx.recv() {
                Ok(m) => self.held.push(m),
                Err(_) => self.finished = true,
            }
        }
    }
    /// Whether the worker has ended (its sender is gone).
    pub fn is_finished(&self) -> bool {
        self.finished
    }
    /// Asks the worker to stop.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        self.cancel();
    }
}
