//! The edit history: undo and redo over snapshots of a document (a mural
//! being edited, Play's move tree). Each edit is one step and a run of
//! typing is one step; a new step forgets what was undone, so Redo never
//! brings back a state from before it.

/// How many steps Undo can take back.
const LIMIT: usize = 100;

/// How long a pause in typing ends one step of typing (seconds).
pub const TYPING_PAUSE: f64 = 1.0;

/// Undo and redo over snapshots `T` of a document.
#[derive(Clone, Debug)]
pub struct History<T> {
    /// The snapshots before each step, the latest last.
    undos: Vec<T>,
    /// The snapshots undone, the next to redo last.
    redos: Vec<T>,
    /// When the current run of typing last changed the text.
    typing_since: Option<f64>,
}

impl<T> Default for History<T> {
    fn default() -> Self {
        History {
            undos: Vec::new(),
            redos: Vec::new(),
            typing_since: None,
        }
    }
}

impl<T: PartialEq> History<T> {
    /// Records an edit of the document, which was `before`: one step, and
    /// what was undone can no longer be redone.
    pub fn record(&mut self, before: T) {
        self.typing_since = None;
        self.push(before);
    }

    /// Records typing at `now` (seconds) in the document, which was
    /// `before`: a run of typing without a pause of [`TYPING_PAUSE`] is one
    /// step.
    pub fn typing(&mut self, before: T, now: f64) {
        let in_run = self
            .typing_since
            .is_some_and(|t| (0.0..TYPING_PAUSE).contains(&(now - t)));
        if in_run {
            self.redos.clear();
        } else {
            self.push(before);
        }
        self.typing_since = Some(now);
    }

    fn push(&mut self, before: T) {
        if self.undos.last() != Some(&before) {
            self.undos.push(before);
            if self.undos.len() > LIMIT {
                self.undos.remove(0);
            }
        }
        self.redos.clear();
    }

    /// Whether a step can be undone / redone.
    pub fn can_undo(&self) -> bool {
        !self.undos.is_empty()
    }
    pub fn can_redo(&self) -> bool {
        !self.redos.is_empty()
    }

    /// The snapshot Undo would restore.
    pub fn next_undo(&self) -> Option<&T> {
        self.undos.last()
    }
    /// The snapshot Redo would restore.
    pub fn next_redo(&self) -> Option<&T> {
        self.redos.last()
    }

    /// The snapshots, to persist: before each step, oldest first, and
    /// those undone, the next to redo last.
    pub fn steps(&self) -> (&[T], &[T]) {
        (&self.undos, &self.redos)
    }

    /// The history of steps persisted ([`History::steps`]).
    pub fn from_steps(undos: Vec<T>, redos: Vec<T>) -> History<T> {
        History {
            undos,
            redos,
            typing_since: None,
        }
    }

    /// Takes back the last step of the document, which is `current` now:
    /// the snapshot to restore.
    pub fn undo(&mut self, current: T) -> Option<T> {
        let before = self.undos.pop()?;
        self.redos.push(current);
        self.typing_since = None;
        Some(before)
    }

    /// Makes again the last step undone, from `current`: the snapshot to
    /// restore.
    pub fn redo(&mut self, current: T) -> Option<T> {
        let after = self.redos.pop()?;
        self.undos.push(current);
        self.typing_since = None;
        Some(after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_and_redo_walk_the_steps_both_ways() {
        let mut h = History::default();
        h.record("a");
        h.record("b");
        assert_eq!(h.undo("c"), Some("b"));
        assert_eq!(h.undo("b"), Some("a"));
        assert_eq!(h.undo("a"), None);
        assert_eq!(h.redo("a"), Some("b"));
        assert_eq!(h.redo("b"), Some("c"));
        assert_eq!(h.redo("c"), None);
        assert!(h.can_undo() && !h.can_redo());
    }

    #[test]
    fn a_new_step_forgets_what_was_undone() {
        let mut h = History::default();
        h.record("a");
        assert_eq!(h.undo("b"), Some("a"));
        assert!(h.can_redo());
        h.record("a");
        assert!(
            !h.can_redo(),
            "redo would bring back b, from before the edit"
        );
        assert_eq!(h.redo("c"), None);
        assert_eq!(h.undo("c"), Some("a"));
        // Typing forgets it too.
        assert!(h.can_redo());
        h.typing("a", 5.0);
        assert!(!h.can_redo());
    }

    #[test]
    fn a_run_of_typing_is_one_step_and_a_pause_ends_it() {
        let mut h = History::default();
        h.typing("", 10.0);
        h.typing("x", 10.5);
        h.typing("xy", 11.2);
        h.typing("xyz", 13.0);
        assert_eq!(h.undo("xyzw"), Some("xyz"));
        assert_eq!(h.undo("xyz"), Some(""));
        assert!(!h.can_undo());
        // An edit ends the run: the next keystroke is a step of its own.
        let mut h = History::default();
        h.typing("", 1.0);
        h.record("x");
        h.typing("y", 1.2);
        assert_eq!(h.undo("yz"), Some("y"));
    }

    #[test]
    fn the_history_keeps_the_last_hundred_steps() {
        let mut h = History::default();
        for i in 0..150 {
            h.record(i);
        }
        let mut n = 0;
        let mut current = 150;
        while let Some(before) = h.undo(current) {
            current = before;
            n += 1;
        }
        assert_eq!((n, current), (LIMIT, 50));
    }
}
