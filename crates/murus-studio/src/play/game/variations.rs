//! The move tree's edits: promoting and deleting a variation, glyphs,
//! comments, a review's marks; each one step of the undo history.

use murus_engine::{Glyph, Move, MoveTree, NodeId};

use super::edits::Step;
use super::{News, PlayGame};
use crate::Message;

/// How many moves of the better line a marked blunder's variation shows.
pub const BETTER_LINE: usize = 4;

impl PlayGame {
    /// Moves the variation of `node` one place up (to the main line when it
    /// is the first variation). Returns whether anything moved.
    pub fn promote(&mut self, node: NodeId) -> bool {
        let before = Step::of_game(self, false);
        let moved = self.cursor.tree_mut().promote(node);
        if moved {
            self.news.push(News::Changed);
            self.edited(before);
        }
        moved
    }

    /// Deletes `node` and every move after it; the board goes to the move
    /// before it when it showed one of them. Undo brings them back.
    pub fn delete_from(&mut self, node: NodeId) {
        let tree = self.cursor.tree();
        if node == MoveTree::ROOT && tree.is_empty() {
            return;
        }
        let before = Step::of_game(self, false);
        let shown = self.cursor.node();
        let on_path = node == MoveTree::ROOT || node == shown || tree.path(shown).contains(&node);
        let parent = tree.parent(node).unwrap_or(MoveTree::ROOT);
        if on_path {
            self.cursor.go_to(parent);
        }
        self.cursor.tree_mut().delete(node);
        self.news.push(News::Changed);
        self.edited(before);
    }

    /// Marks a review's blunders in the tree: `??` on each (given by its
    /// index in the line shown) and the better line found before it (its
    /// first [`BETTER_LINE`] moves) as a variation there. Returns how many
    /// were marked.
    pub fn mark_blunders(&mut self, blunders: &[(usize, Vec<Move>)]) -> usize {
        let line = self.cursor.tree().line_through(self.cursor.node());
        let before = Step::of_game(self, false);
        let mut marked = 0;
        for (index, better) in blunders {
            let Some(&node) = line.get(*index) else {
                continue;
            };
            let mut pos = self.cursor.position_before(node);
            let tree = self.cursor.tree_mut();
            tree.set_glyph(node, Some(Glyph::Blunder));
            let mut at = tree.parent(node).unwrap_or(MoveTree::ROOT);
            for &m in better.iter().take(BETTER_LINE) {
                let v = self.cursor.variant();
                if !v.legal_moves(&pos).contains(&m) {
                    break;
                }
                pos = v.play(&pos, m);
                at = self.cursor.tree_mut().add(at, m);
            }
            marked += 1;
        }
        if marked > 0 {
            self.edited(before);
        }
        self.news.push(News::Say(Message::info(match marked {
            0 => "no blunder to mark".to_string(),
            1 => "1 blunder marked ?? with the better line as a variation".to_string(),
            n => format!("{n} blunders marked ?? with the better lines as variations"),
        })));
        marked
    }

    /// Sets or clears the glyph of `node`'s move.
    pub fn set_glyph(&mut self, node: NodeId, glyph: Option<Glyph>) {
        if self.cursor.tree().glyph(node) != glyph {
            let before = Step::of_game(self, false);
            self.cursor.tree_mut().set_glyph(node, glyph);
            self.news.push(News::Stale);
            self.edited(before);
        }
    }

    /// Sets the comment after `node`'s move (before the first move at the
    /// root); blank text removes it.
    pub fn set_comment(&mut self, node: NodeId, text: &str) {
        if self.cursor.tree().comment(node).unwrap_or("") != text.trim() {
            let before = Step::of_game(self, false);
            self.cursor.tree_mut().set_comment(node, text);
            self.undo.commented(node, before);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::play::{PlayModel, PlaySaved};
    use murus_engine::{Glyph, MoveTree};

    fn model() -> PlayModel {
        let saved = PlaySaved {
            seats: vec!["human".into(), "human".into()],
            ..PlaySaved::default()
        };
        PlayModel::new(&saved)
    }

    fn texts(m: &PlayModel) -> Vec<String> {
        m.game()
            .cursor()
            .list_entries()
            .iter()
            .map(|e| format!("{}{}", "  ".repeat(e.depth), e.text))
            .collect()
    }

    #[test]
    fn the_list_shows_each_variation_after_the_move_it_replaces() {
        let mut m = model();
        for t in ["b1-b3", "c7-c5", "e1-e3"] {
            assert!(m.act(|g| g.play_text(t)));
        }
        m.act(|g| g.cursor_mut().jump_to(1));
        assert!(m.act(|g| g.play_text("d7-d5")));
        assert!(m.act(|g| g.play_text("a1-a3")));
        assert_eq!(
            texts(&m),
            [
                "1. r b1-b3",
                "1... g c7-c5",
                "  1... g d7-d5",
                "  2. r a1-a3",
                "2. r e1-e3"
            ]
        );
        let e = m.game().cursor().list_entries();
        assert!(e[3].current && e[2].on_line && !e[1].on_line && e[2].opens);
        // ↑ goes to the main move at that ply, ↓ back to the variation.
        m.act(|g| g.cursor_mut().jump_to(2));
        assert!(m.act(|g| g.cursor_mut().switch_variation(-1)));
        assert_eq!(
            m.game()
                .cursor()
                .variant()
                .move_to_string(m.game().cursor().game().moves()[1]),
            "c7-c5"
        );
        assert!(!m.act(|g| g.cursor_mut().switch_variation(-1)));
        assert!(m.act(|g| g.cursor_mut().switch_variation(1)));
        assert_eq!(
            m.game()
                .cursor()
                .variant()
                .move_to_string(m.game().cursor().game().moves()[1]),
            "d7-d5"
        );
    }

    #[test]
    fn promote_delete_glyphs_and_comments_change_the_tree_and_count_as_unsaved() {
        let mut m = model();
        assert!(m.act(|g| g.play_text("b1-b3")));
        assert!(m.act(|g| g.play_text("c7-c5")));
        m.act(|g| g.cursor_mut().jump_to(1));
        assert!(m.act(|g| g.play_text("d7-d5")));
        let variation = m.game().cursor().node();
        assert!(m.act(|g| g.promote(variation)));
        assert_eq!(texts(&m), ["1. r b1-b3", "1... g d7-d5", "  1... g c7-c5"]);
        m.act(|g| g.set_glyph(variation, Some(Glyph::Brilliant)));
        m.act(|g| g.set_comment(variation, "holds the centre"));
        let e = &m.game().cursor().list_entries()[1];
        assert_eq!(e.text, "1... g d7-d5 !!");
        assert_eq!(e.comment.as_deref(), Some("holds the centre"));
        assert_eq!(m.game().unsaved_moves(), 3);
        m.act(|g| g.delete_from(variation));
        assert_eq!(
            m.game().cursor().game().ply(),
            1,
            "the board goes to the move before"
        );
        assert_eq!(texts(&m), ["1. r b1-b3", "1... g c7-c5"]);
        m.act(|g| g.delete_from(MoveTree::ROOT));
        assert!(m.game().cursor().tree().is_empty());
        assert_eq!(m.game().cursor().game().ply(), 0);
    }
}
