//! The move tree's undo history: every change to the tree is one step
//! that Undo (Ctrl+Z) takes back and Redo (Ctrl+Shift+Z, Ctrl+Y) makes
//! again: a move played, a deletion, a promotion, a glyph, a run of typing
//! in a comment, the review's marks, and a recorded result dropped with
//! them. The history is kept across restarts ([`SavedStep`]); a game
//! replaced (new, loaded, opened) starts a new one.
//!
//! Undoing a move shows the position before it, the move staying in the
//! tree ahead of the board; while a bot is to move there (and a human
//! plays), Undo goes on to the move before, so that a human is to move.

use murus_engine::{Game, MoveTree, NodeId, Record, RecordResult};
use serde::{Deserialize, Serialize};

use super::PlayModel;
use super::bots::Seat;
use crate::history::History;

/// The tree, the move shown and the recorded result before a step.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Step {
    tree: MoveTree,
    node: NodeId,
    result: Option<RecordResult>,
    /// Whether the step is a move played.
    moved: bool,
}

/// A step of the undo history as persisted.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedStep {
    /// The tree then, with its recorded result.
    pub tree: Record,
    /// The move shown: its index among its parent's moves, at each ply.
    pub node: Vec<usize>,
    /// Whether the step is a move played.
    pub moved: bool,
}

/// The undo history as persisted: the steps to undo, oldest first, and
/// those to redo, the next last.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedHistory {
    pub undo: Vec<SavedStep>,
    pub redo: Vec<SavedStep>,
}

/// The path of `node` as child indices from the root.
fn index_path(tree: &MoveTree, node: NodeId) -> Vec<usize> {
    let path = tree.path(node);
    let mut parent = MoveTree::ROOT;
    let mut out = Vec::with_capacity(path.len());
    for &n in &path {
        out.push(
            tree.children(parent)
                .iter()
                .position(|&c| c == n)
                .unwrap_or(0),
        );
        parent = n;
    }
    out
}

/// The node at a path of child indices.
fn node_at(tree: &MoveTree, path: &[usize]) -> Option<NodeId> {
    let mut at = MoveTree::ROOT;
    for &i in path {
        at = *tree.children(at).get(i)?;
    }
    Some(at)
}

impl PlayModel {
    /// The state a step starts from.
    pub(super) fn step(&self, moved: bool) -> Step {
        Step {
            tree: self.tree.clone(),
            node: self.node,
            result: self.result.clone(),
            moved,
        }
    }

    /// Records an edit of the tree, which was `before`. A result recorded
    /// for the main line goes when the main line changed, saying how to
    /// bring it back.
    pub(super) fn edited(&mut self, before: Step) {
        let main_changed = before.tree.main_line() != self.tree.main_line();
        self.history.record(before);
        self.comment_run = None;
        if main_changed && let Some(r) = self.result.take() {
            self.feedback.changed();
            self.feedback.warning(format!(
                "the record's result ({}) is dropped: the main line changed; \
                 Undo (Ctrl+Z) brings it back",
                self.result_words(&r)
            ));
        }
    }

    /// Records a move played from `from` (the tree already has it): Undo
    /// shows `from` again, the move staying ahead.
    pub(super) fn moved_from(&mut self, from: NodeId) {
        let mut step = self.step(true);
        step.node = from;
        self.history.record(step);
        self.comment_run = None;
    }

    /// Records a change of `node`'s comment: a run of typing in one comment
    /// is one step.
    pub(super) fn commented(&mut self, node: NodeId, before: Step) {
        if self.comment_run != Some(node) {
            self.history.record(before);
        }
        self.comment_run = Some(node);
    }

    /// Whether Undo has a step to take back.
    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    /// Whether Redo has a step to make again.
    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// Takes back the last step (and, after a move, on back to a ply where
    /// a human is to move).
    pub fn undo(&mut self) {
        while let Some(moved) = self.history.next_undo().map(|s| s.moved) {
            let current = self.step(moved);
            let Some(before) = self.history.undo(current) else {
                break;
            };
            self.restore(before);
            let on =
                moved && self.history.next_undo().is_some_and(|s| s.moved) && self.bot_to_move();
            if !on {
                break;
            }
        }
    }

    /// Makes the last step undone again (and, after a move, on to the next
    /// ply where a human is to move or the game is over).
    pub fn redo(&mut self) {
        while let Some(moved) = self.history.next_redo().map(|s| s.moved) {
            let current = self.step(moved);
            let Some(after) = self.history.redo(current) else {
                break;
            };
            self.restore(after);
            let on = moved
                && self.history.next_redo().is_some_and(|s| s.moved)
                && self.bot_to_move()
                && !self.is_over();
            if !on {
                break;
            }
        }
    }

    /// Whether a bot is to move in a game a human plays.
    fn bot_to_move(&self) -> bool {
        self.has_human() && self.seat_of_player(self.turn()) != Seat::Human
    }

    fn restore(&mut self, s: Step) {
        let mut game = Game::from_position(&self.variant, *self.game.start());
        for m in s.tree.moves_to(s.node) {
            // Cannot fail: every move of the tree was played from there.
            game.play(m);
        }
        self.tree = s.tree;
        self.node = s.node;
        self.result = s.result;
        self.game = game;
        self.play_on = None;
        self.comment_run = None;
        self.game_changed();
    }

    /// The undo history, to persist.
    pub fn saved_history(&self) -> SavedHistory {
        let save = |s: &Step| {
            let mut tree = s.tree.to_record(&self.variant, self.game.start());
            tree.result.clone_from(&s.result);
            SavedStep {
                tree,
                node: index_path(&s.tree, s.node),
                moved: s.moved,
            }
        };
        let (undo, redo) = self.history.steps();
        SavedHistory {
            undo: undo.iter().map(save).collect(),
            redo: redo.iter().map(save).collect(),
        }
    }

    /// The undo history persisted, for the game shown (none when a step
    /// no longer reads).
    pub(super) fn history_of(&self, saved: &SavedHistory) -> History<Step> {
        let start = *self.game.start();
        let read = |s: &SavedStep| {
            let tree = MoveTree::from_record(&self.variant, &start, &s.tree).ok()?;
            let node = node_at(&tree, &s.node)?;
            Some(Step {
                tree,
                node,
                result: s.tree.result.clone(),
                moved: s.moved,
            })
        };
        let undo: Option<Vec<Step>> = saved.undo.iter().map(read).collect();
        let redo: Option<Vec<Step>> = saved.redo.iter().map(read).collect();
        match (undo, redo) {
            (Some(u), Some(r)) => History::from_steps(u, r),
            _ => History::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use murus_engine::{Glyph, MoveTree};

    use crate::play::{PlayModel, PlaySaved};

    fn model(seats: [&str; 2]) -> PlayModel {
        let saved = PlaySaved {
            seats: seats.iter().map(|s| (*s).to_string()).collect(),
            ..PlaySaved::default()
        };
        PlayModel::new(&saved)
    }

    fn main_line(m: &PlayModel) -> Vec<String> {
        m.tree_record().moves.into_iter().map(|x| x.text).collect()
    }

    #[test]
    fn each_edit_is_one_step_and_a_run_of_typing_in_a_comment_is_one() {
        let mut m = model(["human", "human"]);
        assert!(!m.can_undo() && !m.can_redo());
        for t in ["b1-b3", "c7-c5", "e1-e3"] {
            assert!(m.play_text(t));
        }
        let second = m.tree().children(m.tree().children(MoveTree::ROOT)[0])[0];
        m.set_glyph(second, Some(Glyph::Good));
        for text in ["h", "ho", "holds"] {
            m.set_comment(second, text);
        }
        m.delete_from(second);
        assert_eq!(main_line(&m), ["b1-b3"]);
        m.undo();
        assert_eq!(main_line(&m), ["b1-b3", "c7-c5", "e1-e3"]);
        assert_eq!(m.tree().comment(second), Some("holds"));
        m.undo();
        assert_eq!(m.tree().comment(second), None, "the typing was one step");
        m.undo();
        assert_eq!(m.tree().glyph(second), None);
        // The moves: back one by one, each staying ahead.
        m.undo();
        assert_eq!((m.game().ply(), m.tree().len()), (2, 3));
        m.redo();
        m.redo();
        assert_eq!(m.tree().glyph(second), Some(Glyph::Good));
        // A new step forgets what was undone.
        m.set_glyph(second, Some(Glyph::Blunder));
        assert!(!m.can_redo());
    }

    #[test]
    fn the_reviews_marks_are_one_step() {
        let mut m = model(["human", "human"]);
        assert!(m.play_text("b1-b3"));
        let before = m.tree_record();
        let better = m.variant().parse_move(m.game().start(), "c1-c3").unwrap();
        assert_eq!(m.mark_blunders(&[(0, vec![better])]), 1);
        assert_ne!(m.tree_record(), before);
        m.undo();
        assert_eq!(m.tree_record(), before);
    }

    #[test]
    fn undo_takes_back_the_bots_move_and_the_humans_before_it() {
        let mut m = model(["human", "random"]);
        assert!(m.play_text("b1-b3"));
        let turn = m.start_bot().expect("the bot's turn");
        m.bot_replied(turn.token, turn.think(Arc::new(AtomicBool::new(false))));
        assert_eq!(m.game().ply(), 2);
        m.undo();
        assert_eq!(m.game().ply(), 0, "back to the human's turn");
        assert!(m.start_bot().is_none());
        m.redo();
        assert_eq!(m.game().ply(), 2);
    }

    #[test]
    fn the_history_survives_a_restart() {
        let mut m = model(["human", "human"]);
        for t in ["b1-b3", "c7-c5", "e1-e3"] {
            assert!(m.play_text(t));
        }
        m.jump_to(1);
        assert!(m.play_text("d7-d5"));
        let first = m.tree().children(MoveTree::ROOT)[0];
        m.delete_from(m.tree().children(first)[0]);
        m.undo();
        let saved = PlaySaved {
            seats: vec!["human".into(), "human".into()],
            moves: m.game().record().moves,
            tree: Some(m.record()),
            kept_tree: Some(m.kept_record()),
            history: m.saved_history(),
            ..PlaySaved::default()
        };
        let mut back = PlayModel::new(&saved);
        assert!(back.can_undo() && back.can_redo());
        back.redo();
        assert_eq!(main_line(&back), ["b1-b3", "d7-d5"]);
        back.undo();
        back.undo();
        assert_eq!(back.game().ply(), 1, "the variation's move, taken back");
        assert_eq!(back.tree().len(), 4);
    }
}
