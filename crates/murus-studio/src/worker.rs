//! Background work, the studio's one way: a model owns a [`Worker`] per
//! kind of task (given its [`Waker`] once, when the model is made), starts
//! work on it, and polls its messages each frame. A worker runs one task at a
//! time: starting a second while one is going on is refused with one message
//! ("a balance check is going on: cancel it first"), or, where the new task
//! supersedes the old (a search of a new position, a recompile), the old one
//! is cancelled first ([`Worker::restart`]).
//!
//! The task runs on a named thread and reports through a channel whose
//! sender wakes the UI (requests a repaint). Its [`Reporter`] is a
//! [`Handler`] for the libraries' long jobs: the job polls it to stop, and
//! its progress arrives as messages. Dropping a worker cancels its task; the
//! UI never waits for one.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::Instant;

use murus_engine::job::Handler;

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

/// The UI's side of a worker's task (its thread, channel and cancel
/// flag): the worker's own.
#[derive(Debug)]
struct Job<T> {
    rx: Receiver<T>,
    cancel: Arc<AtomicBool>,
    finished: bool,
    /// Messages [`Job::wait`] received, for the next [`Job::poll`].
    held: Vec<T>,
    /// When the job started.
    started: Instant,
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on a thread called `name`; each message calls `wake`.
    fn spawn(name: &str, wake: Waker, work: impl FnOnce(Reporter<T>) + Send + 'static) -> Job<T> {
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
    fn poll(&mut self) -> Vec<T> {
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
    fn wait(&mut self) {
        while !self.finished {
            match self.rx.recv() {
                Ok(m) => self.held.push(m),
                Err(_) => self.finished = true,
            }
        }
    }
    /// Whether the worker has ended (its sender is gone).
    fn is_finished(&self) -> bool {
        self.finished
    }
    /// Asks the worker to stop.
    fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
    /// Whether the worker was asked to stop.
    fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Each progress of a library's long job becomes a message to the UI; the
/// job stops once the user cancels.
impl<T: Send + From<P>, P: Clone> Handler<P> for Reporter<T> {
    fn stop(&self) -> bool {
        self.cancelled()
    }
    fn progress(&self, progress: &P) {
        self.send(T::from(progress.clone()));
    }
}

/// A task refused because another is going on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} is going on: cancel it first")]
pub struct Busy {
    /// What is going on ("a balance check").
    pub what: String,
}

/// A model's background tasks of one kind, one at a time. See the module
/// documentation.
pub struct Worker<T> {
    wake: Waker,
    /// The task, and what it is ("a balance check").
    task: Option<(Job<T>, String)>,
}

impl<T> std::fmt::Debug for Worker<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker")
            .field("running", &self.running())
            .finish_non_exhaustive()
    }
}

impl<T> Default for Worker<T> {
    /// A worker that wakes nobody (for tests and models made before the UI).
    fn default() -> Self {
        Worker::new(no_waker())
    }
}

impl<T: Send + 'static> Worker<T> {
    /// Starts `work` as `what` ("a balance check"), on a thread named
    /// `murus-` + `what`'s words, unless a task is going on.
    pub fn start(
        &mut self,
        what: &str,
        work: impl FnOnce(Reporter<T>) + Send + 'static,
    ) -> Result<(), Busy> {
        self.ready()?;
        self.spawn(what, work);
        Ok(())
    }

    /// Cancels the task going on, if any (its later messages are dropped),
    /// and starts `work` as `what`.
    pub fn restart(&mut self, what: &str, work: impl FnOnce(Reporter<T>) + Send + 'static) {
        self.cancel();
        self.spawn(what, work);
    }

    fn spawn(&mut self, what: &str, work: impl FnOnce(Reporter<T>) + Send + 'static) {
        let name: String = what
            .split_whitespace()
            .filter(|w| !matches!(*w, "a" | "an" | "the"))
            .collect::<Vec<_>>()
            .join("-");
        let job = Job::spawn(&format!("murus-{name}"), self.wake.clone(), work);
        self.task = Some((job, what.to_string()));
    }
}

impl<T> Worker<T> {
    /// A worker whose tasks call `wake` after each message.
    pub fn new(wake: Waker) -> Worker<T> {
        Worker { wake, task: None }
    }

    /// The messages that arrived since the last call; once the task has
    /// ended and its last message is read, the worker is free again.
    pub fn poll(&mut self) -> Vec<T> {
        let Some((job, _)) = &mut self.task else {
            return Vec::new();
        };
        let out = job.poll();
        if job.is_finished() {
            self.task = None;
        }
        out
    }

    /// What is going on, if anything: a task that has not ended, or one
    /// whose last messages are not yet read.
    pub fn running(&self) -> Option<&str> {
        self.task.as_ref().map(|(_, what)| what.as_str())
    }

    /// What the worker calls after each message (for a library's job that
    /// takes a waker of its own).
    pub fn waker(&self) -> &Waker {
        &self.wake
    }

    /// Whether a task is going on.
    pub fn is_running(&self) -> bool {
        self.task.is_some()
    }

    /// `Ok` when the worker is free; while a task is going on, the
    /// [`Busy`] that [`Worker::start`] would answer (for work that checks
    /// before it prepares anything, a folder to write, say).
    pub fn ready(&self) -> Result<(), Busy> {
        match self.running() {
            Some(what) => Err(Busy {
                what: what.to_string(),
            }),
            None => Ok(()),
        }
    }

    /// When the task going on started.
    pub fn started(&self) -> Option<Instant> {
        self.task.as_ref().map(|(job, _)| job.started)
    }

    /// Whether the task going on was asked to stop.
    pub fn is_cancelled(&self) -> bool {
        self.task
            .as_ref()
            .is_some_and(|(job, _)| job.is_cancelled())
    }

    /// Asks the task to stop and forgets it: its later messages are dropped
    /// and the worker is free at once.
    pub fn cancel(&mut self) {
        self.task = None;
    }

    /// Asks the task to stop but keeps reading its messages (a run that
    /// writes its last report as it stops), until [`Worker::poll`] finds it
    /// ended.
    pub fn stop(&self) {
        if let Some((job, _)) = &self.task {
            job.cancel();
        }
    }

    /// Blocks until the task has ended, keeping its messages for the next
    /// [`Worker::poll`]. For tests and scripts: the UI never waits.
    pub fn wait(&mut self) {
        if let Some((job, _)) = &mut self.task {
            job.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_runs_one_task_at_a_time_and_is_free_once_read() {
        let mut w: Worker<u32> = Worker::default();
        let (go_tx, go_rx) = channel::<()>();
        w.start("a balance check", move |r| {
            let _ = go_rx.recv();
            r.send(1);
        })
        .unwrap();
        let busy = w.start("a sweep", |_| {}).unwrap_err();
        assert_eq!(
            busy.to_string(),
            "a balance check is going on: cancel it first"
        );
        assert_eq!(w.running(), Some("a balance check"));
        go_tx.send(()).unwrap();
        w.wait();
        assert_eq!(w.poll(), vec![1]);
        assert!(!w.is_running());
        w.start("a sweep", |r| {
            r.send(2);
        })
        .unwrap();
        w.wait();
        assert_eq!(w.poll(), vec![2]);
    }

    #[test]
    fn a_restart_drops_the_old_tasks_messages_and_stops_it() {
        let mut w: Worker<&'static str> = Worker::default();
        let (seen_tx, seen_rx) = channel::<bool>();
        w.start("a search", move |r| {
            while !r.cancelled() {
                std::thread::yield_now();
            }
            r.send("old");
            let _ = seen_tx.send(true);
        })
        .unwrap();
        w.restart("a search", |r| {
            r.send("new");
        });
        assert_eq!(seen_rx.recv(), Ok(true), "the old task was asked to stop");
        w.wait();
        assert_eq!(w.poll(), vec!["new"]);
    }

    #[test]
    fn progress_of_a_library_job_arrives_as_messages() {
        #[derive(Debug, PartialEq)]
        struct Msg(u64);
        impl From<u64> for Msg {
            fn from(n: u64) -> Msg {
                Msg(n)
            }
        }
        let mut w: Worker<Msg> = Worker::default();
        w.start("a count", |r| {
            let h: &dyn Handler<u64> = &r;
            for i in 0..3 {
                h.progress(&i);
            }
        })
        .unwrap();
        w.wait();
        assert_eq!(w.poll(), vec![Msg(0), Msg(1), Msg(2)]);
    }
}
