//! A game with its variations: a tree of moves from one start position,
//! each with its glyph and comment, the first child of a node being the
//! main continuation and the others its variations (as a PGN record and
//! an analysis board keep them). [`MoveTree::to_record`] and
//! [`MoveTree::from_record`] convert to and from a [`Record`].

use crate::moves::Move;
use crate::record::{Glyph, Record, RecordMove};
use crate::variant::{Position, Variant};

/// A node of a [`MoveTree`]: an index, stable while the tree lives (a
/// deleted node's index is never reused).
pub type NodeId = usize;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Node {
    /// The move into this node (`None` at the root).
    mv: Option<Move>,
    parent: Option<NodeId>,
    /// The main continuation first, then the variations in order.
    children: Vec<NodeId>,
    glyph: Option<Glyph>,
    comment: Option<String>,
}

/// A tree of moves from one start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTree {
    nodes: Vec<Node>,
}

impl Default for MoveTree {
    fn default() -> Self {
        MoveTree::new()
    }
}

/// Why a record does not make a tree.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line} ply {ply}: {error}")]
pub struct TreeError {
    /// `the main line` or `a variation`.
    pub line: &'static str,
    /// The ply of the move, counted from the start (1 for the first move).
    pub ply: usize,
    /// What is wrong with the move.
    pub error: String,
}

impl MoveTree {
    /// The root of every tree: the start position, before any move.
    pub const ROOT: NodeId = 0;

    /// A tree with no moves.
    pub fn new() -> MoveTree {
        MoveTree {
            nodes: vec![Node {
                mv: None,
                parent: None,
                children: Vec::new(),
                glyph: None,
                comment: None,
            }],
        }
    }

    /// A tree of one line.
    pub fn from_line(moves: &[Move]) -> MoveTree {
        let mut tree = MoveTree::new();
        let mut at = MoveTree::ROOT;
        for &m in moves {
            at = tree.add(at, m);
        }
        tree
    }

    /// The move into `node` (`None` at the root).
    pub fn mv(&self, node: NodeId) -> Option<Move> {
        self.nodes[node].mv
    }
    /// The node before `node` (`None` at the root).
    pub fn parent(&self, node: NodeId) -> Option<NodeId> {
        self.nodes[node].parent
    }
    /// The moves from `node`: the main continuation first.
    pub fn children(&self, node: NodeId) -> &[NodeId] {
        &self.nodes[node].children
    }
    /// The glyph of the move into `node`.
    pub fn glyph(&self, node: NodeId) -> Option<Glyph> {
        self.nodes[node].glyph
    }
    /// The comment after the move into `node` (at the root: before the
    /// first move).
    pub fn comment(&self, node: NodeId) -> Option<&str> {
        self.nodes[node].comment.as_deref()
    }
    /// Sets (or with `None` removes) the glyph of the move into `node`.
    pub fn set_glyph(&mut self, node: NodeId, glyph: Option<Glyph>) {
        if node != MoveTree::ROOT {
            self.nodes[node].glyph = glyph;
        }
    }
    /// Sets the comment of `node`; blank text removes it.
    pub fn set_comment(&mut self, node: NodeId, comment: &str) {
        let comment = comment.trim();
        self.nodes[node].comment = (!comment.is_empty()).then(|| comment.to_string());
    }

    /// Plies from the start to `node`.
    pub fn depth(&self, node: NodeId) -> usize {
        let mut n = 0;
        let mut at = node;
        while let Some(p) = self.parent(at) {
            n += 1;
            at = p;
        }
        n
    }

    /// The nodes from the first move to `node` (empty at the root).
    pub fn path(&self, node: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut at = node;
        while let Some(p) = self.parent(at) {
            out.push(at);
            at = p;
        }
        out.reverse();
        out
    }

    /// The moves from the start to `node`.
    pub fn moves_to(&self, node: NodeId) -> Vec<Move> {
        self.path(node)
            .into_iter()
            .filter_map(|n| self.mv(n))
            .collect()
    }

    /// The main continuation after `node`: its first child, that node's
    /// first child, and so on.
    pub fn continuation(&self, node: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut at = node;
        while let Some(&next) = self.children(at).first() {
            out.push(next);
            at = next;
        }
        out
    }

    /// The main line's moves from the start.
    pub fn main_line(&self) -> Vec<Move> {
        self.continuation(Self::ROOT)
            .into_iter()
            .filter_map(|n| self.mv(n))
            .collect()
    }

    /// The line through `node`: the path to it, then its main continuation.
    pub fn line_through(&self, node: NodeId) -> Vec<NodeId> {
        let mut line = self.path(node);
        line.extend(self.continuation(node));
        line
    }

    /// The child of `node` reached by `m`, if it is in the tree.
    pub fn child_by(&self, node: NodeId, m: Move) -> Option<NodeId> {
        self.children(node)
            .iter()
            .copied()
            .find(|&c| self.mv(c) == Some(m))
    }

    /// The node after playing `m` at `node`: the child already there, or a
    /// new one, the main continuation when `node` had none and a new
    /// variation (the last) otherwise.
    pub fn add(&mut self, node: NodeId, m: Move) -> NodeId {
        if let Some(c) = self.child_by(node, m) {
            return c;
        }
        let id = self.nodes.len();
        self.nodes.push(Node {
            mv: Some(m),
            parent: Some(node),
            children: Vec::new(),
            glyph: None,
            comment: None,
        });
        self.nodes[node].children.push(id);
        id
    }

    /// Whether `node` lies on the main line (every move on the way is its
    /// parent's main continuation).
    pub fn is_main_line(&self, node: NodeId) -> bool {
        let mut at = node;
        while let Some(p) = self.parent(at) {
            if self.children(p).first() != Some(&at) {
                return false;
            }
            at = p;
        }
        true
    }

    /// The node's siblings, itself included, in order: the moves that
    /// could have been played instead of it (none at the root).
    pub fn siblings(&self, node: NodeId) -> &[NodeId] {
        match self.parent(node) {
            Some(p) => self.children(p),
            None => &[],
        }
    }

    /// Promotes the variation `node` is in, as an analysis board does: the
    /// nearest move on the way to `node` that is not its parent's main
    /// continuation moves one place up among its siblings. Returns whether
    /// anything moved (nothing on the main line).
    pub fn promote(&mut self, node: NodeId) -> bool {
        let mut at = node;
        while let Some(p) = self.parent(at) {
            let children = &mut self.nodes[p].children;
            let i = children.iter().position(|&c| c == at).unwrap_or(0);
            if i > 0 {
                children.swap(i, i - 1);
                return true;
            }
            at = p;
        }
        false
    }

    /// Makes the line through `node` the main line: every move on the way
    /// becomes its parent's main continuation. Returns whether anything
    /// moved.
    pub fn make_main_line(&mut self, node: NodeId) -> bool {
        let mut moved = false;
        while self.promote(node) {
            moved = true;
        }
        moved
    }

    /// Deletes `node` and everything after it; returns its parent (the
    /// root is not deleted: its moves are).
    pub fn delete(&mut self, node: NodeId) -> NodeId {
        match self.parent(node) {
            Some(p) => {
                self.nodes[p].children.retain(|&c| c != node);
                p
            }
            None => {
                self.nodes[MoveTree::ROOT].children.clear();
                MoveTree::ROOT
            }
        }
    }

    /// Whether the tree has no moves.
    pub fn is_empty(&self) -> bool {
        self.children(MoveTree::ROOT).is_empty()
    }

    /// Moves in the tree (deleted ones not counted).
    pub fn len(&self) -> usize {
        self.len_after(MoveTree::ROOT)
    }

    /// Moves after `node`, in every line from it.
    pub fn len_after(&self, node: NodeId) -> usize {
        let mut n = 0;
        let mut stack = vec![node];
        while let Some(at) = stack.pop() {
            n += self.children(at).len();
            stack.extend_from_slice(self.children(at));
        }
        n
    }

    /// The moves of the tree as a record's main line with its variations,
    /// in notation, from `start`. The record's other fields are left
    /// empty except the variant and a start that is not the variant's.
    pub fn to_record(&self, variant: &Variant, start: &Position) -> Record {
        Record {
            variant: variant.name().to_string(),
            start: (*start != variant.start()).then(|| variant.position_string(start)),
            comment: self.comment(MoveTree::ROOT).map(str::to_string),
            moves: self.line_record(variant, *start, MoveTree::ROOT, 0),
            ..Record::default()
        }
    }

    /// The record line from `node`: its main continuation, each move with
    /// its siblings as variations.
    fn line_record(
        &self,
        variant: &Variant,
        mut pos: Position,
        mut node: NodeId,
        first_variation: usize,
    ) -> Vec<RecordMove> {
        let mut out = Vec::new();
        let mut skip = first_variation;
        while let Some(&main) = self.children(node).get(skip) {
            let mut rm = self.record_move(variant, main);
            if skip == 0 {
                for &alt in &self.children(node)[1..] {
                    let mut line = vec![self.record_move(variant, alt)];
                    let after = variant.play(&pos, self.mv(alt).expect("a move"));
                    line.extend(self.line_record(variant, after, alt, 0));
                    rm.variations.push(line);
                }
            }
            out.push(rm);
            pos = variant.play(&pos, self.mv(main).expect("a move"));
            node = main;
            skip = 0;
        }
        out
    }

    fn record_move(&self, variant: &Variant, node: NodeId) -> RecordMove {
        RecordMove {
            text: variant.move_to_string(self.mv(node).expect("a move")),
            glyph: self.glyph(node),
            comment: self.comment(node).map(str::to_string),
            variations: Vec::new(),
        }
    }

    /// The tree of a record's moves (main line and variations), checked
    /// move by move from `start`.
    pub fn from_record(
        variant: &Variant,
        start: &Position,
        record: &Record,
    ) -> Result<MoveTree, TreeError> {
        let mut tree = MoveTree::new();
        if let Some(c) = &record.comment {
            tree.set_comment(MoveTree::ROOT, c);
        }
        tree.add_line(variant, *start, MoveTree::ROOT, &record.moves, 0, true)?;
        Ok(tree)
    }

    fn add_line(
        &mut self,
        variant: &Variant,
        mut pos: Position,
        mut node: NodeId,
        line: &[RecordMove],
        mut ply: usize,
        main: bool,
    ) -> Result<(), TreeError> {
        for rm in line {
            let here = pos;
            let error = |error: String| TreeError {
                line: if main { "the main line" } else { "a variation" },
                ply: ply + 1,
                error,
            };
            if variant.outcome(&pos).is_some() {
                return Err(error(format!("`{}` comes after the game ended", rm.text)));
            }
            let m = variant
                .parse_move(&pos, &rm.text)
                .map_err(|e| error(e.to_string()))?;
            let child = self.add(node, m);
            self.nodes[child].glyph = rm.glyph;
            if let Some(c) = &rm.comment {
                self.set_comment(child, c);
            }
            for v in &rm.variations {
                self.add_line(variant, here, node, v, ply, false)?;
            }
            pos = variant.play(&pos, m);
            node = child;
            ply += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(v: &Variant, pos: &Position, text: &str) -> Move {
        v.parse_move(pos, text).unwrap()
    }

    /// Standard game: a1-a3 (b7-b5 | h7-h5 g7-g5), main continuation b7-b5.
    fn sample() -> (Variant, MoveTree, [NodeId; 4]) {
        let v = Variant::standard();
        let start = v.start();
        let mut t = MoveTree::new();
        let a = t.add(MoveTree::ROOT, mv(&v, &start, "a1-a3"));
        let p1 = v.play(&start, t.mv(a).unwrap());
        let b = t.add(a, mv(&v, &p1, "b7-b5"));
        let h = t.add(a, mv(&v, &p1, "h7-h5"));
        let p2 = v.play(&p1, t.mv(h).unwrap());
        let g = t.add(h, mv(&v, &p2, "g1-g3"));
        (v, t, [a, b, h, g])
    }

    #[test]
    fn a_different_move_opens_a_variation_and_the_same_move_follows_the_tree() {
        let (v, mut t, [a, b, h, g]) = sample();
        assert_eq!(t.children(a), &[b, h]);
        let p1 = v.play(&v.start(), t.mv(a).unwrap());
        assert_eq!(t.add(a, mv(&v, &p1, "h7-h5")), h, "no duplicate child");
        assert_eq!(t.line_through(a), vec![a, b]);
        assert_eq!(t.line_through(g), vec![a, h, g]);
        assert!(t.is_main_line(b));
        assert!(!t.is_main_line(g));
        assert_eq!(t.depth(g), 3);
        assert_eq!(t.len(), 4);
    }

    #[test]
    fn promote_moves_the_nearest_variation_up_and_delete_drops_a_subtree() {
        let (_, mut t, [a, b, h, g]) = sample();
        let main: Vec<Move> = [a, b].iter().map(|&n| t.mv(n).unwrap()).collect();
        assert_eq!(t.main_line(), main);
        assert!(t.promote(g));
        assert_eq!(t.children(a), &[h, b]);
        assert!(t.is_main_line(g));
        let main: Vec<Move> = [a, h, g].iter().map(|&n| t.mv(n).unwrap()).collect();
        assert_eq!(t.main_line(), main, "the promoted line is the main line");
        assert!(!t.promote(g), "on the main line nothing moves");
        assert_eq!(t.delete(h), a);
        assert_eq!(t.children(a), &[b]);
        assert_eq!(t.len(), 2);
        assert!(t.make_main_line(b) || t.is_main_line(b));
        assert_eq!(t.delete(MoveTree::ROOT), MoveTree::ROOT);
        assert!(t.is_empty());
    }

    #[test]
    fn a_tree_goes_to_a_record_and_back_with_its_glyphs_comments_and_variations() {
        let (v, mut t, [a, _b, h, g]) = sample();
        t.set_glyph(h, Some(Glyph::Interesting));
        t.set_comment(g, "  the quiet reply ");
        t.set_comment(MoveTree::ROOT, "a test game");
        let record = t.to_record(&v, &v.start());
        assert_eq!(record.moves.len(), 2);
        assert_eq!(record.moves[1].variations.len(), 1);
        let var = &record.moves[1].variations[0];
        assert_eq!(var[0].text, "h7-h5");
        assert_eq!(var[0].glyph, Some(Glyph::Interesting));
        assert_eq!(var[1].comment.as_deref(), Some("the quiet reply"));
        let back = MoveTree::from_record(&v, &v.start(), &record).unwrap();
        assert_eq!(back.to_record(&v, &v.start()), record);
        assert_eq!(back.len(), t.len());
        let _ = a;
    }

    #[test]
    fn an_illegal_move_in_a_variation_names_its_ply() {
        let (v, t, _) = sample();
        let mut record = t.to_record(&v, &v.start());
        record.moves[1].variations[0][1].text = "a1-a3".into();
        let e = MoveTree::from_record(&v, &v.start(), &record).unwrap_err();
        assert_eq!((e.line, e.ply), ("a variation", 3));
    }
}
