//! Live updates: every change to a game (a move, a bot's move, an ending,
//! a draw offered) is told to whoever watches it, players and spectators
//! alike, so that their pages redraw at once (`GET /api/games/{id}/events`,
//! Server-Sent Events).

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;

/// The games being watched, each with its channel of changes.
#[derive(Debug, Default)]
pub struct Changes {
    channels: Mutex<HashMap<String, broadcast::Sender<()>>>,
}

impl Changes {
    fn channels(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<()>>> {
        self.channels
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Tells game `id`'s watchers it changed (nothing when none watch; a
    /// channel nobody listens to any more is dropped).
    pub fn notify(&self, id: &str) {
        let mut channels = self.channels();
        if let Some(tx) = channels.get(id) {
            if tx.send(()).is_err() {
                channels.remove(id);
            }
        }
    }

    /// A watcher of game `id`: it hears of every change from now on.
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<()> {
        self.channels()
            .entry(id.to_string())
            .or_insert_with(|| broadcast::channel(16).0)
            .subscribe()
    }
}
