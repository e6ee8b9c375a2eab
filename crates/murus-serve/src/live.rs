//! Live updates: every change to a game (a move, a bot's move, an ending,
//! a draw offered) is told to whoever watches it, players and spectators
//! alike, so that their pages redraw at once (`GET /api/games/{id}/events`,
//! Server-Sent Events).
//!
//! Each change is numbered (a game's version), and the game as its
//! watchers are sent it is kept with the version it was read at, so that
//! all the watchers of a game told of one change share one read of it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

/// A watched game: its channel, its version, and its view as last read.
#[derive(Debug)]
struct Channel {
    tx: broadcast::Sender<u64>,
    version: u64,
    /// The game's view (JSON) and the version it was read at, or after.
    view: Option<(u64, Arc<str>)>,
}

/// The games being watched, each with its channel of changes.
#[derive(Debug, Default)]
pub struct Changes {
    channels: Mutex<HashMap<String, Channel>>,
}

impl Changes {
    fn channels(&self) -> std::sync::MutexGuard<'_, HashMap<String, Channel>> {
        self.channels
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Tells game `id`'s watchers it changed (nothing when none watch; a
    /// channel nobody listens to any more is dropped).
    pub fn notify(&self, id: &str) {
        let mut channels = self.channels();
        if let Some(c) = channels.get_mut(id) {
            c.version += 1;
            if c.tx.send(c.version).is_err() {
                channels.remove(id);
            }
        }
    }

    /// A watcher of game `id`: it hears of every change from now on (each
    /// as the game's version after it).
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<u64> {
        self.channels()
            .entry(id.to_string())
            .or_insert_with(|| Channel {
                tx: broadcast::channel(16).0,
                version: 0,
                view: None,
            })
            .tx
            .subscribe()
    }

    /// Game `id`'s version now (0 when nobody watches it).
    pub fn version(&self, id: &str) -> u64 {
        self.channels().get(id).map_or(0, |c| c.version)
    }

    /// Game `id`'s view kept, if read at version `at_least` or later.
    pub fn view(&self, id: &str, at_least: u64) -> Option<Arc<str>> {
        let channels = self.channels();
        let (at, view) = channels.get(id)?.view.as_ref()?;
        (*at >= at_least).then(|| view.clone())
    }

    /// Keeps game `id`'s `view`, read after its version was `at` (so that
    /// it shows that change or a later one), unless a newer one is kept.
    pub fn keep(&self, id: &str, at: u64, view: Arc<str>) {
        if let Some(c) = self.channels().get_mut(id)
            && c.view.as_ref().is_none_or(|(kept, _)| *kept < at)
        {
            c.view = Some((at, view));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watchers_told_of_a_change_share_the_view_read_after_it() {
        let c = Changes::default();
        let mut rx = c.subscribe("g");
        assert_eq!(c.version("g"), 0);
        c.notify("g");
        assert_eq!(rx.try_recv().unwrap(), 1);
        assert!(c.view("g", 1).is_none(), "nothing read yet");
        c.keep("g", 1, Arc::from("one"));
        assert_eq!(c.view("g", 1).as_deref(), Some("one"));
        c.notify("g");
        assert!(c.view("g", 2).is_none(), "read before the second change");
        // A slow read begun before the second change does not replace a
        // newer one.
        c.keep("g", 2, Arc::from("two"));
        c.keep("g", 1, Arc::from("one, late"));
        assert_eq!(c.view("g", 2).as_deref(), Some("two"));
        assert!(c.view("nobody", 0).is_none());
    }
}
