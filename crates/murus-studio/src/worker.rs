//! Background work: a named thread that reports through a channel whose
//! sender requests a repaint, with a cancel flag. Dropping the [`Job`]
//! cancels it; the UI never waits for it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::Instant;

/// The worker's side: send messages, poll the cancel flag.
#[derive(Debug)]
pub struct Reporter<T> {
    tx: Sender<T>,
    ctx: egui::Context,
    cancel: Arc<AtomicBool>,
}

impl<T> Reporter<T> {
    /// Sends a message to the UI and wakes it. Returns `false` once the UI
    /// has dropped the job.
    pub fn send(&self, msg: T) -> bool {
        let ok = self.tx.send(msg).is_ok();
        self.ctx.request_repaint();
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
    /// When the job started.
    pub started: Instant,
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on a thread called `name`.
    pub fn spawn(
        name: &str,
        ctx: &egui::Context,
        work: impl FnOnce(Reporter<T>) + Send + 'static,
    ) -> Job<T> {
        let (tx, rx) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let reporter = Reporter {
            tx,
            ctx: ctx.clone(),
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
            started: Instant::now(),
        }
    }
}

impl<T> Job<T> {
    /// Messages that arrived since the last call.
    pub fn poll(&mut self) -> Vec<T> {
        let mut out = Vec::new();
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
