//! The server's own watch on live games' clocks: a tokio task a game,
//! asleep until the running seat's flag falls, that then ends the game on
//! time and tells its watchers, with nobody playing. A game's task is
//! armed again after each move (the one before is dropped) and, at
//! start-up, for every game kept ([`crate::Server::resume_bots`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::task::AbortHandle;

use crate::Shared;
use crate::games::{self, Loaded};

/// The armed timers, by game.
#[derive(Debug, Default)]
pub struct Timers(Mutex<HashMap<String, AbortHandle>>);

impl Timers {
    fn swap(&self, id: &str, handle: Option<AbortHandle>) {
        let mut map = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let old = match handle {
            Some(h) => map.insert(id.to_string(), h),
            None => map.remove(id),
        };
        if let Some(old) = old {
            old.abort();
        }
    }
}

/// Ends game `id` on time if its flag has fallen, telling its watchers;
/// whether it ended so now. A request that touches a game calls it first.
pub fn settle(s: &Shared, id: &str) -> bool {
    match games::flag_for(&s.store, &s.variants, &s.lock, id) {
        Ok(Some(_)) => {
            s.changes.notify(id);
            true
        }
        _ => false,
    }
}

/// (Re-)arms game `id`'s timer: when its running seat's flag falls, the
/// game ends on time. Nothing for a correspondence game, or one where no
/// clock runs. Needs a tokio runtime.
pub fn arm(s: &Arc<Shared>, id: &str) {
    let flag_at = Loaded::load(&s.store, &s.variants, id)
        .ok()
        .and_then(|l| l.clocks())
        .and_then(|c| c.flag_at);
    let Some(flag_at) = flag_at else {
        s.timers.swap(id, None);
        return;
    };
    let shared = s.clone();
    let game = id.to_string();
    let task = tokio::spawn(async move {
        shared.store.time().sleep_until(flag_at).await;
        settle(&shared, &game);
    });
    s.timers.swap(id, Some(task.abort_handle()));
}

/// Arms the timer of every live game kept (at start-up: the time the
/// server was down counts, so a flag that fell meanwhile falls now).
pub fn arm_all(s: &Arc<Shared>) -> Result<(), crate::store::StoreError> {
    for id in s.store.clocked_games()? {
        arm(s, &id);
    }
    Ok(())
}
