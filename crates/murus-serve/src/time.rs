//! The server's time: the wall clock, or a clock a test drives
//! ([`TimeSource::manual`]), so that a game's clocks and the flags that
//! fall on them can be checked without waiting.

use std::sync::Arc;

use tokio::sync::watch;

/// Where the server reads the time, in milliseconds since the Unix epoch.
#[derive(Clone, Debug, Default)]
pub struct TimeSource {
    /// A driven clock's time; `None` for the wall clock.
    manual: Option<Arc<watch::Sender<i64>>>,
}

impl TimeSource {
    /// The wall clock.
    pub fn wall() -> TimeSource {
        TimeSource::default()
    }

    /// A clock that stands at `at_ms` until [`TimeSource::advance`] moves
    /// it (tests).
    pub fn manual(at_ms: i64) -> TimeSource {
        TimeSource {
            manual: Some(Arc::new(watch::channel(at_ms).0)),
        }
    }

    /// Moves a driven clock on by `ms` (nothing on the wall clock); whoever
    /// waits on it ([`TimeSource::sleep_until`]) wakes to look.
    pub fn advance(&self, ms: i64) {
        if let Some(tx) = &self.manual {
            tx.send_modify(|t| *t += ms);
        }
    }

    /// The time now, in ms since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        match &self.manual {
            Some(tx) => *tx.borrow(),
            None => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX)),
        }
    }

    /// Waits until the time is `at_ms` or later.
    pub async fn sleep_until(&self, at_ms: i64) {
        match &self.manual {
            Some(tx) => {
                let mut rx = tx.subscribe();
                while *rx.borrow_and_update() < at_ms {
                    if rx.changed().await.is_err() {
                        return;
                    }
                }
            }
            None => loop {
                let left = at_ms - self.now_ms();
                if left <= 0 {
                    return;
                }
                let ms = u64::try_from(left).unwrap_or(0);
                tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
            },
        }
    }
}
