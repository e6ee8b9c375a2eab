//! One protocol for long jobs: a small [`Handler`] that a job asks whether to
//! stop and tells where it stands, after tantabus's `SearchHandler`.
//!
//! Every long call of the libraries takes one: the search and the analysis
//! (progress: each finished depth), the mural solver (nodes so far), self-play
//! runs, balance checks, sweeps and training (games and steps). What stops a
//! job (a cancel button, Ctrl-C, SIGTERM, a deadline) and where its progress
//! goes (a progress bar, a channel to the studio, nowhere) is the caller's
//! business; the job only polls [`Handler::stop`] at its own pace (every few
//! thousand nodes, every game) and calls [`Handler::progress`] when it has
//! news.
//!
//! ```
//! use murus_engine::job::{Cancel, Handler, HandlerExt};
//! use std::sync::atomic::{AtomicU64, Ordering};
//!
//! /// A long job: counts to `n` unless stopped, reporting every 10.
//! fn count(n: u64, handler: &dyn Handler<u64>) -> u64 {
//!     for i in 0..n {
//!         if i % 10 == 0 {
//!             if handler.stop() {
//!                 return i;
//!             }
//!             handler.progress(&i);
//!         }
//!     }
//!     n
//! }
//!
//! // Never stops, reports nowhere.
//! assert_eq!(count(100, &()), 100);
//!
//! // Stopped from elsewhere (a Cancel button, Ctrl-C).
//! let cancel = Cancel::new();
//! cancel.cancel();
//! assert_eq!(count(100, &cancel), 0);
//!
//! // Progress to a closure.
//! let seen = AtomicU64::new(0);
//! let handler = Cancel::new().on_progress(|i: &u64| seen.store(*i, Ordering::Relaxed));
//! assert_eq!(count(35, &handler), 35);
//! assert_eq!(seen.load(Ordering::Relaxed), 30);
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What a long job asks its caller: whether to stop, and where to report.
///
/// `P` is the job's progress (a search's finished depth, a run's games so
/// far). Both methods take `&self`, and a handler is `Sync`, so one handler
/// serves every worker thread of a job.
pub trait Handler<P: ?Sized = ()>: Sync {
    /// Whether the job should stop as soon as it can. Polled often: keep it
    /// cheap (an atomic load, a clock read).
    fn stop(&self) -> bool {
        false
    }
    /// The job's news. Called at the job's pace, from any of its threads.
    fn progress(&self, _progress: &P) {}
}

/// Never stops; reports nowhere.
impl<P: ?Sized> Handler<P> for () {}

/// Stops once the flag is set.
impl<P: ?Sized> Handler<P> for AtomicBool {
    fn stop(&self) -> bool {
        self.load(Ordering::Relaxed)
    }
}

impl<P: ?Sized, H: Handler<P> + ?Sized> Handler<P> for &H {
    fn stop(&self) -> bool {
        (**self).stop()
    }
    fn progress(&self, progress: &P) {
        (**self).progress(progress);
    }
}

impl<P: ?Sized, H: Handler<P> + ?Sized + Send> Handler<P> for Arc<H> {
    fn stop(&self) -> bool {
        (**self).stop()
    }
    fn progress(&self, progress: &P) {
        (**self).progress(progress);
    }
}

impl<P: ?Sized, H: Handler<P>> Handler<P> for Option<H> {
    fn stop(&self) -> bool {
        self.as_ref().is_some_and(Handler::stop)
    }
    fn progress(&self, progress: &P) {
        if let Some(h) = self {
            h.progress(progress);
        }
    }
}

/// A cancel flag shared by whoever may stop a job (a button, a signal
/// handler) and the job. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not yet set.
    pub fn new() -> Cancel {
        Cancel::default()
    }
    /// A handler on an existing shared flag.
    pub fn from_flag(flag: Arc<AtomicBool>) -> Cancel {
        Cancel(flag)
    }
    /// Asks the job to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    /// Whether the job was asked to stop.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    /// The shared flag.
    pub fn flag(&self) -> &Arc<AtomicBool> {
        &self.0
    }
}

impl<P: ?Sized> Handler<P> for Cancel {
    fn stop(&self) -> bool {
        self.is_cancelled()
    }
}

/// A handler that also stops at a deadline (see [`HandlerExt::until`]).
#[derive(Clone, Debug)]
pub struct Until<H> {
    inner: H,
    deadline: Option<Instant>,
}

impl<P: ?Sized, H: Handler<P>> Handler<P> for Until<H> {
    fn stop(&self) -> bool {
        self.inner.stop() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
    fn progress(&self, progress: &P) {
        self.inner.progress(progress);
    }
}

/// A handler that also hands each progress to a closure (see
/// [`HandlerExt::on_progress`]).
#[derive(Clone)]
pub struct OnProgress<H, F> {
    inner: H,
    f: F,
}

impl<H: std::fmt::Debug, F> std::fmt::Debug for OnProgress<H, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnProgress")
            .field("inner", &self.inner)
            .finish_non_exhaustive()
    }
}

impl<P: ?Sized, H: Handler<P>, F: Fn(&P) + Sync> Handler<P> for OnProgress<H, F> {
    fn stop(&self) -> bool {
        self.inner.stop()
    }
    fn progress(&self, progress: &P) {
        self.inner.progress(progress);
        (self.f)(progress);
    }
}

/// Builds handlers from handlers.
pub trait HandlerExt: Sized {
    /// Stops at `deadline` too (`None`: no clock).
    fn until(self, deadline: Option<Instant>) -> Until<Self> {
        Until {
            inner: self,
            deadline,
        }
    }
    /// Hands every progress to `f` too.
    fn on_progress<F>(self, f: F) -> OnProgress<Self, F> {
        OnProgress { inner: self, f }
    }
}

impl<T> HandlerExt for T {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::time::Duration;

    fn stops<H: Handler<u32>>(h: &H) -> bool {
        h.stop()
    }

    #[test]
    fn a_cancel_stops_its_clones_jobs_and_nothing_else() {
        let a = Cancel::new();
        let b = a.clone();
        let other = Cancel::new();
        assert!(!stops(&b));
        a.cancel();
        assert!(stops(&b) && stops(&a));
        assert!(!stops(&other));
        assert!(!stops(&()));
    }

    #[test]
    fn a_deadline_stops_once_passed_and_none_never() {
        let past = Instant::now().checked_sub(Duration::from_millis(1));
        assert!(stops(&().until(past)));
        let future = Instant::now() + Duration::from_secs(3600);
        assert!(!stops(&().until(Some(future))));
        assert!(!stops(&().until(None)));
        let cancel = Cancel::new();
        let h = cancel.clone().until(Some(future));
        cancel.cancel();
        assert!(stops(&h));
    }

    #[test]
    fn progress_reaches_every_layer() {
        let seen = Mutex::new(Vec::new());
        let seen2 = Mutex::new(Vec::new());
        let h = ()
            .on_progress(|p: &u32| seen.lock().unwrap().push(*p))
            .on_progress(|p: &u32| seen2.lock().unwrap().push(*p * 10));
        let d: &dyn Handler<u32> = &h;
        d.progress(&1);
        d.progress(&2);
        assert_eq!(*seen.lock().unwrap(), vec![1, 2]);
        assert_eq!(*seen2.lock().unwrap(), vec![10, 20]);
        assert!(!d.stop());
    }

    #[test]
    fn an_absent_handler_never_stops() {
        let none: Option<Cancel> = None;
        assert!(!stops(&none));
        let c = Cancel::new();
        c.cancel();
        assert!(stops(&Some(c)));
    }
}
