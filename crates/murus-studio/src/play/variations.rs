//! The move tree's actions: going to the previous or next variation,
//! promoting and deleting one, glyphs and comments, and the move list as
//! the view shows it (the main line with each variation after the move it
//! replaces, indented by depth).

use murus_engine::{Glyph, Move, MoveTree, NodeId};

use super::PlayModel;

/// A row of the move list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListEntry {
    /// The move's node.
    pub node: NodeId,
    /// 0 on the main line, 1 in a variation of it, and so on.
    pub depth: usize,
    /// Whether it opens a variation (its first move).
    pub opens: bool,
    /// How many variations end with it (their last move).
    pub closes: usize,
    /// `2. r b1-b3 !?`, `2... g c7-c5`: the move's number as the record
    /// has it, the mover's letter, the move and its glyph.
    pub text: String,
    /// The comment after the move.
    pub comment: Option<String>,
    /// Whether it is the move shown (the board is after it).
    pub current: bool,
    /// Whether it is on the line shown and after the move shown.
    pub ahead: bool,
    /// Whether it is on the line shown (played or ahead).
    pub on_line: bool,
}

/// What the move list's walk knows of the line shown: each of its nodes'
/// index, and how many of them are played.
struct Walk {
    line: std::collections::HashMap<NodeId, usize>,
    played: usize,
}

impl PlayModel {
    /// The move list: every move of the tree, the main line first, each
    /// variation right after the move it replaces. Built every frame, in
    /// one walk: each position is played once.
    pub fn list_entries(&self) -> Vec<ListEntry> {
        let line: std::collections::HashMap<NodeId, usize> = self
            .tree
            .line_through(self.node)
            .into_iter()
            .enumerate()
            .map(|(i, n)| (n, i))
            .collect();
        let walk = Walk {
            line,
            played: self.game.ply(),
        };
        let mut out = Vec::new();
        self.list_from(MoveTree::ROOT, *self.game.start(), 0, 0, &walk, &mut out);
        out
    }

    /// The entries of the line from `node` (at position `pos`): its main
    /// continuation, each move followed by its parent's other children as
    /// variations.
    fn list_from(
        &self,
        node: NodeId,
        mut pos: murus_engine::Position,
        mut ply: usize,
        depth: usize,
        walk: &Walk,
        out: &mut Vec<ListEntry>,
    ) {
        let t = &self.tree;
        let mut at = node;
        while let Some(&main) = t.children(at).first() {
            out.push(self.entry(main, &pos, ply, depth, false, walk));
            for &alt in &t.children(at)[1..] {
                out.push(self.entry(alt, &pos, ply, depth + 1, true, walk));
                let after = self.variant.play(&pos, t.mv(alt).expect("a move"));
                self.list_from(alt, after, ply + 1, depth + 1, walk, out);
                if let Some(last) = out.last_mut() {
                    last.closes += 1;
                }
            }
            pos = self.variant.play(&pos, t.mv(main).expect("a move"));
            at = main;
            ply += 1;
        }
    }

    /// The entry of the move into `node`, played from `before`.
    fn entry(
        &self,
        node: NodeId,
        before: &murus_engine::Position,
        ply: usize,
        depth: usize,
        opens: bool,
        walk: &Walk,
    ) -> ListEntry {
        let t = &self.tree;
        let v = &self.variant;
        let mover = v.letter(v.turn(before));
        let mv = v.move_to_string(t.mv(node).expect("a move"));
        let glyph = t.glyph(node).map(|g| format!(" {g}")).unwrap_or_default();
        let index = walk.line.get(&node).copied();
        ListEntry {
            node,
            depth,
            opens,
            closes: 0,
            text: format!("{} {mover} {mv}{glyph}", self.move_number(ply)),
            comment: t.comment(node).map(str::to_string),
            current: node == self.node,
            ahead: index.is_some_and(|i| i >= walk.played),
            on_line: index.is_some(),
        }
    }

    /// The number of the move `ply` plies from the start as the record
    /// writes it: `12.` for the first player's move of a round, `12...`
    /// for another's.
    pub fn move_number(&self, ply: usize) -> String {
        let n = self.variant.player_count().max(1);
        let p = self.variant.turn(self.game.start()) + ply;
        let round = p / n + 1;
        if p.is_multiple_of(n) {
            format!("{round}.")
        } else {
            format!("{round}...")
        }
    }

    /// The position before the move into `node`.
    fn position_before(&self, node: NodeId) -> murus_engine::Position {
        let v = &self.variant;
        let mut pos = *self.game.start();
        let path = self.tree.path(node);
        for &n in &path[..path.len().saturating_sub(1)] {
            pos = v.play(&pos, self.tree.mv(n).expect("a move"));
        }
        pos
    }

    /// Goes to the next (`step` 1) or previous (-1) move played instead of
    /// the one shown (↓ and ↑). Returns whether it moved.
    pub fn switch_variation(&mut self, step: isize) -> bool {
        let siblings = self.tree.siblings(self.node);
        let Some(i) = siblings.iter().position(|&n| n == self.node) else {
            return false;
        };
        let Some(&to) = i.checked_add_signed(step).and_then(|j| siblings.get(j)) else {
            return false;
        };
        self.go_to(to);
        true
    }

    /// Moves the variation of `node` one place up (to the main line when it
    /// is the first variation). Returns whether anything moved.
    pub fn promote(&mut self, node: NodeId) -> bool {
        let before = self.step(false);
        let moved = self.tree.promote(node);
        if moved {
            self.changed();
            self.edited(before);
        }
        moved
    }

    /// Deletes `node` and every move after it; the board goes to the move
    /// before it when it showed one of them. Undo brings them back.
    pub fn delete_from(&mut self, node: NodeId) {
        if node == MoveTree::ROOT && self.tree.is_empty() {
            return;
        }
        let before = self.step(false);
        let on_path = node == MoveTree::ROOT
            || node == self.node
            || self.tree.path(self.node).contains(&node);
        let parent = self.tree.parent(node).unwrap_or(MoveTree::ROOT);
        if on_path {
            self.go_to(parent);
        }
        self.tree.delete(node);
        self.changed();
        self.edited(before);
    }

    /// How many moves of the better line a marked blunder's variation shows.
    pub const BETTER_LINE: usize = 4;

    /// Marks a review's blunders in the tree: `??` on each (given by its
    /// index in the line shown) and the better line found before it (its
    /// first [`PlayModel::BETTER_LINE`] moves) as a variation there.
    /// Returns how many were marked.
    pub fn mark_blunders(&mut self, blunders: &[(usize, Vec<Move>)]) -> usize {
        let line = self.tree.line_through(self.node);
        let before = self.step(false);
        let mut marked = 0;
        for (index, better) in blunders {
            let Some(&node) = line.get(*index) else {
                continue;
            };
            self.tree.set_glyph(node, Some(Glyph::Blunder));
            let mut pos = self.position_before(node);
            let mut at = self.tree.parent(node).unwrap_or(MoveTree::ROOT);
            for &m in better.iter().take(Self::BETTER_LINE) {
                if !self.variant.legal_moves(&pos).contains(&m) {
                    break;
                }
                at = self.tree.add(at, m);
                pos = self.variant.play(&pos, m);
            }
            marked += 1;
        }
        if marked > 0 {
            self.edited(before);
        }
        self.feedback.info(match marked {
            0 => "no blunder to mark".to_string(),
            1 => "1 blunder marked ?? with the better line as a variation".to_string(),
            n => format!("{n} blunders marked ?? with the better lines as variations"),
        });
        marked
    }

    /// Sets or clears the glyph of `node`'s move.
    pub fn set_glyph(&mut self, node: NodeId, glyph: Option<Glyph>) {
        if self.tree.glyph(node) != glyph {
            let before = self.step(false);
            self.tree.set_glyph(node, glyph);
            self.feedback.changed();
            self.edited(before);
        }
    }

    /// Sets the comment after `node`'s move (before the first move at the
    /// root); blank text removes it.
    pub fn set_comment(&mut self, node: NodeId, text: &str) {
        if self.tree.comment(node).unwrap_or("") != text.trim() {
            let before = self.step(false);
            self.tree.set_comment(node, text);
            self.commented(node, before);
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
        m.list_entries()
            .iter()
            .map(|e| format!("{}{}", "  ".repeat(e.depth), e.text))
            .collect()
    }

    #[test]
    fn the_list_shows_each_variation_after_the_move_it_replaces() {
        let mut m = model();
        for t in ["b1-b3", "c7-c5", "e1-e3"] {
            assert!(m.play_text(t));
        }
        m.jump_to(1);
        assert!(m.play_text("d7-d5"));
        assert!(m.play_text("a1-a3"));
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
        let e = m.list_entries();
        assert!(e[3].current && e[2].on_line && !e[1].on_line && e[2].opens);
        // ↑ goes to the main move at that ply, ↓ back to the variation.
        m.jump_to(2);
        assert!(m.switch_variation(-1));
        assert_eq!(m.variant().move_to_string(m.game().moves()[1]), "c7-c5");
        assert!(!m.switch_variation(-1));
        assert!(m.switch_variation(1));
        assert_eq!(m.variant().move_to_string(m.game().moves()[1]), "d7-d5");
    }

    #[test]
    fn promote_delete_glyphs_and_comments_change_the_tree_and_count_as_unsaved() {
        let mut m = model();
        assert!(m.play_text("b1-b3"));
        assert!(m.play_text("c7-c5"));
        m.jump_to(1);
        assert!(m.play_text("d7-d5"));
        let variation = m.node();
        assert!(m.promote(variation));
        assert_eq!(texts(&m), ["1. r b1-b3", "1... g d7-d5", "  1... g c7-c5"]);
        m.set_glyph(variation, Some(Glyph::Brilliant));
        m.set_comment(variation, "holds the centre");
        let e = &m.list_entries()[1];
        assert_eq!(e.text, "1... g d7-d5 !!");
        assert_eq!(e.comment.as_deref(), Some("holds the centre"));
        assert_eq!(m.unsaved_moves(), 3);
        m.delete_from(variation);
        assert_eq!(m.game().ply(), 1, "the board goes to the move before");
        assert_eq!(texts(&m), ["1. r b1-b3", "1... g c7-c5"]);
        m.delete_from(MoveTree::ROOT);
        assert!(m.tree().is_empty());
        assert_eq!(m.game().ply(), 0);
    }
}
