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

use murus_engine::{MoveTree, NodeId, Record, RecordResult};
use serde::{Deserialize, Serialize};

use super::{News, PlayGame, result_words};
use crate::Message;
use crate::history::History;
use crate::play::cursor::GameCursor;

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

/// The undo history of the move tree: the steps to undo and redo, and the
/// comment being typed (a run of typing in one comment is one step).
#[derive(Debug, Default)]
pub struct TreeUndo {
    history: History<Step>,
    /// The node whose comment is being typed (one step of the history).
    comment_run: Option<NodeId>,
}

impl Step {
    /// The state of `cursor` with `result`, before a step.
    pub(super) fn of(cursor: &GameCursor, result: Option<&RecordResult>, moved: bool) -> Step {
        Step {
            tree: cursor.tree().clone(),
            node: cursor.node(),
            result: result.cloned(),
            moved,
        }
    }

    /// The state of `game` before a step.
    pub(super) fn of_game(game: &PlayGame, moved: bool) -> Step {
        Step::of(&game.cursor, game.result.as_ref(), moved)
    }
}

impl TreeUndo {
    /// The undo history persisted, for the game `cursor` shows (none when
    /// a step no longer reads).
    pub(super) fn of_saved(cursor: &GameCursor, saved: &SavedHistory) -> TreeUndo {
        let start = *cursor.game().start();
        let read = |s: &SavedStep| {
            let tree = MoveTree::from_record(cursor.variant(), &start, &s.tree).ok()?;
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
        let history = match (undo, redo) {
            (Some(u), Some(r)) => History::from_steps(u, r),
            _ => History::default(),
        };
        TreeUndo {
            history,
            comment_run: None,
        }
    }

    /// The undo history, to persist (its trees as records of `cursor`'s
    /// variant and start).
    pub fn saved(&self, cursor: &GameCursor) -> SavedHistory {
        let save = |s: &Step| {
            let mut tree = s.tree.to_record(cursor.variant(), cursor.game().start());
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

    /// Whether Undo has a step to take back.
    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    /// Whether Redo has a step to make again.
    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// Records a step, the state `before` it.
    pub(super) fn record(&mut self, before: Step) {
        self.history.record(before);
        self.comment_run = None;
    }

    /// Records a move played from `from`, which `cursor` shows now with
    /// `result` (its tree has the move): Undo shows `from` again, the move
    /// staying ahead.
    pub(super) fn moved(
        &mut self,
        cursor: &GameCursor,
        result: Option<&RecordResult>,
        from: NodeId,
    ) {
        let mut step = Step::of(cursor, result, true);
        step.node = from;
        self.record(step);
    }

    /// Records a change of `node`'s comment: a run of typing in one comment
    /// is one step.
    pub(super) fn commented(&mut self, node: NodeId, before: Step) {
        if self.comment_run != Some(node) {
            self.history.record(before);
        }
        self.comment_run = Some(node);
    }

    /// Whether the next step to undo (`redo`: to redo) is a move played,
    /// when there is one.
    fn next_moved(&self, redo: bool) -> Option<bool> {
        let next = if redo {
            self.history.next_redo()
        } else {
            self.history.next_undo()
        };
        next.map(|s| s.moved)
    }

    /// Takes back (`redo`: makes again) the next step from `current`: the
    /// state to show.
    fn take(&mut self, current: Step, redo: bool) -> Option<Step> {
        self.comment_run = None;
        if redo {
            self.history.redo(current)
        } else {
            self.history.undo(current)
        }
    }
}

impl PlayGame {
    /// Records an edit of the tree, which was `before`. A result recorded
    /// for the main line goes when the main line changed, saying how to
    /// bring it back.
    pub(super) fn edited(&mut self, before: Step) {
        let main_changed = before.tree.main_line() != self.cursor.tree().main_line();
        self.undo.record(before);
        if main_changed && let Some(r) = self.result.take() {
            self.news.push(News::Stale);
            self.news.push(News::Say(Message::warning(format!(
                "the record's result ({}) is dropped: the main line changed; \
                 Undo (Ctrl+Z) brings it back",
                result_words(self.cursor.variant(), &r)
            ))));
        }
    }

    /// Takes back the last step (and, after a move, on back to a ply where
    /// `bot_to_move` says a bot is to move in a game a human plays).
    pub fn undo(&mut self, bot_to_move: impl Fn(&GameCursor) -> bool) {
        self.walk_history(false, bot_to_move);
    }

    /// Makes the last step undone again (and, after a move, on to the next
    /// ply where a human is to move or the game is over).
    pub fn redo(&mut self, bot_to_move: impl Fn(&GameCursor) -> bool) {
        self.walk_history(true, bot_to_move);
    }

    /// Undo, or Redo with `redo`: a step, and on over moves while a bot is
    /// to move (and, forward, the game goes on).
    fn walk_history(&mut self, redo: bool, bot_to_move: impl Fn(&GameCursor) -> bool) {
        while let Some(moved) = self.undo.next_moved(redo) {
            let current = Step::of_game(self, moved);
            let Some(s) = self.undo.take(current, redo) else {
                break;
            };
            self.cursor.restore(s.tree, s.node);
            self.result = s.result;
            let on = moved
                && self.undo.next_moved(redo) == Some(true)
                && bot_to_move(&self.cursor)
                && !(redo && self.is_over());
            if !on {
                break;
            }
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
        m.game()
            .cursor()
            .tree_record()
            .moves
            .into_iter()
            .map(|x| x.text)
            .collect()
    }

    #[test]
    fn each_edit_is_one_step_and_a_run_of_typing_in_a_comment_is_one() {
        let mut m = model(["human", "human"]);
        assert!(!m.game().history().can_undo() && !m.game().history().can_redo());
        for t in ["b1-b3", "c7-c5", "e1-e3"] {
            assert!(m.act(|g| g.play_text(t)));
        }
        let second = m
            .game()
            .cursor()
            .tree()
            .children(m.game().cursor().tree().children(MoveTree::ROOT)[0])[0];
        m.act(|g| g.set_glyph(second, Some(Glyph::Good)));
        for text in ["h", "ho", "holds"] {
            m.act(|g| g.set_comment(second, text));
        }
        m.act(|g| g.delete_from(second));
        assert_eq!(main_line(&m), ["b1-b3"]);
        m.undo();
        assert_eq!(main_line(&m), ["b1-b3", "c7-c5", "e1-e3"]);
        assert_eq!(m.game().cursor().tree().comment(second), Some("holds"));
        m.undo();
        assert_eq!(
            m.game().cursor().tree().comment(second),
            None,
            "the typing was one step"
        );
        m.undo();
        assert_eq!(m.game().cursor().tree().glyph(second), None);
        // The moves: back one by one, each staying ahead.
        m.undo();
        assert_eq!(
            (
                m.game().cursor().game().ply(),
                m.game().cursor().tree().len()
            ),
            (2, 3)
        );
        m.redo();
        m.redo();
        assert_eq!(m.game().cursor().tree().glyph(second), Some(Glyph::Good));
        // A new step forgets what was undone.
        m.act(|g| g.set_glyph(second, Some(Glyph::Blunder)));
        assert!(!m.game().history().can_redo());
    }

    #[test]
    fn the_reviews_marks_are_one_step() {
        let mut m = model(["human", "human"]);
        assert!(m.act(|g| g.play_text("b1-b3")));
        let before = m.game().cursor().tree_record();
        let better = m
            .game()
            .cursor()
            .variant()
            .parse_move(m.game().cursor().game().start(), "c1-c3")
            .unwrap();
        assert_eq!(m.act(|g| g.mark_blunders(&[(0, vec![better])])), 1);
        assert_ne!(m.game().cursor().tree_record(), before);
        m.undo();
        assert_eq!(m.game().cursor().tree_record(), before);
    }

    #[test]
    fn undo_takes_back_the_bots_move_and_the_humans_before_it() {
        let mut m = model(["human", "random"]);
        assert!(m.act(|g| g.play_text("b1-b3")));
        let turn = m.start_bot().expect("the bot's turn");
        m.bot_replied(turn.token, turn.think(Arc::new(AtomicBool::new(false))));
        assert_eq!(m.game().cursor().game().ply(), 2);
        m.undo();
        assert_eq!(
            m.game().cursor().game().ply(),
            0,
            "back to the human's turn"
        );
        assert!(m.start_bot().is_none());
        m.redo();
        assert_eq!(m.game().cursor().game().ply(), 2);
    }

    #[test]
    fn the_history_survives_a_restart() {
        let mut m = model(["human", "human"]);
        for t in ["b1-b3", "c7-c5", "e1-e3"] {
            assert!(m.act(|g| g.play_text(t)));
        }
        m.act(|g| g.cursor_mut().jump_to(1));
        assert!(m.act(|g| g.play_text("d7-d5")));
        let first = m.game().cursor().tree().children(MoveTree::ROOT)[0];
        m.act(|g| g.delete_from(g.cursor().tree().children(first)[0]));
        m.undo();
        let saved = PlaySaved {
            seats: vec!["human".into(), "human".into()],
            moves: m.game().cursor().game().record().moves,
            tree: Some(m.game().record()),
            kept_tree: Some(m.game().kept_record()),
            history: m.game().history().saved(m.game().cursor()),
            ..PlaySaved::default()
        };
        let mut back = PlayModel::new(&saved);
        assert!(back.game().history().can_undo() && back.game().history().can_redo());
        back.redo();
        assert_eq!(main_line(&back), ["b1-b3", "d7-d5"]);
        back.undo();
        back.undo();
        assert_eq!(
            back.game().cursor().game().ply(),
            1,
            "the variation's move, taken back"
        );
        assert_eq!(back.game().cursor().tree().len(), 4);
    }
}
