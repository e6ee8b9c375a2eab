//! The game on the board and where it stands in its tree of moves:
//! [`GameCursor`] owns the variant, the move tree, the node the board shows
//! and the game up to it, and keeps them in step. It moves through the
//! tree (←, →, ↑, ↓, a click on the move list); what changes the tree is
//! [`PlayGame`](super::PlayGame)'s, which records it for Undo. The move
//! list as the view shows it ([`ListEntry`]) is read from here: the main
//! line with each variation after the move it replaces, indented by depth.

use std::collections::HashMap;

use murus_engine::{Game, Move, MoveTree, NodeId, Position, Variant};

/// The variant, the game up to the node shown and every move played or
/// opened, with variations, glyphs and comments. Its invariant: `game` is
/// the game from the tree's start along the path to `node`.
#[derive(Debug)]
pub struct GameCursor {
    variant: Variant,
    /// The game up to the node shown.
    game: Game,
    /// Every move played or opened, with variations, glyphs and comments.
    tree: MoveTree,
    /// The node the board shows (the end of `game`).
    node: NodeId,
    /// "Play on from here": a bot may move from this node although moves
    /// follow it (its move opens a variation).
    play_on: Option<NodeId>,
    /// Bumped whenever the board shows another game or node: what watches
    /// the board (a selection, a bot's search) compares it.
    version: u64,
}

impl GameCursor {
    /// `game` in `tree`, with the moves of `game` added to the tree, the
    /// board showing the end of `game`.
    pub(super) fn new(variant: Variant, game: Game, mut tree: MoveTree) -> GameCursor {
        let mut node = MoveTree::ROOT;
        for &m in game.moves() {
            node = tree.add(node, m);
        }
        GameCursor {
            variant,
            game,
            tree,
            node,
            play_on: None,
            version: 0,
        }
    }

    /// Replaces everything by `other`, counting it as a change of the board.
    pub(super) fn replace(&mut self, other: GameCursor) {
        let version = self.version + 1;
        *self = GameCursor { version, ..other };
    }

    /// The variant played.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }
    /// The game up to the ply shown.
    pub fn game(&self) -> &Game {
        &self.game
    }
    /// The tree of moves.
    pub fn tree(&self) -> &MoveTree {
        &self.tree
    }
    /// The tree, to annotate or reorder (the node shown stays, the game
    /// with it).
    pub(super) fn tree_mut(&mut self) -> &mut MoveTree {
        &mut self.tree
    }
    /// The node the board shows.
    pub fn node(&self) -> NodeId {
        self.node
    }
    /// Counts the changes of what the board shows.
    pub fn version(&self) -> u64 {
        self.version
    }
    /// The moves ahead of the ply shown along the line, in order.
    pub fn moves_ahead(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        let ahead = self.tree.continuation(self.node);
        ahead.into_iter().map(|n| self.tree.mv(n).expect("a move"))
    }
    /// The whole line: the moves played, then the moves ahead.
    pub fn line(&self) -> impl Iterator<Item = Move> + '_ {
        self.game.moves().iter().copied().chain(self.moves_ahead())
    }
    /// Whether the board shows the end of the line (nothing to redo).
    pub fn at_end_of_line(&self) -> bool {
        self.tree.children(self.node).is_empty()
    }
    /// The whole line (played moves, then the moves ahead) as the move list
    /// shows it: `1. r b1-b3`, `1... g c7-c5`, numbered as the record
    /// numbers them, with the mover's letter.
    pub fn line_texts(&self) -> Vec<String> {
        let v = &self.variant;
        let mut pos = *self.game.start();
        self.line()
            .enumerate()
            .map(|(i, m)| {
                let text = format!(
                    "{} {} {}",
                    self.move_number(i),
                    v.letter(v.turn(&pos)),
                    v.move_to_string(m)
                );
                pos = v.play(&pos, m);
                text
            })
            .collect()
    }
    /// Plies in the whole line (played and ahead).
    pub fn line_len(&self) -> usize {
        self.game.ply() + self.tree.continuation(self.node).len()
    }
    /// The player to move.
    pub fn turn(&self) -> usize {
        self.variant.turn(self.game.position())
    }
    /// A player's display name.
    pub fn player_name(&self, player: usize) -> &str {
        self.variant
            .rules()
            .players
            .get(player)
            .map_or("?", |p| p.name.as_str())
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

    /// The move list: every move of the tree, the main line first, each
    /// variation right after the move it replaces. Built every frame, in
    /// one walk: each position is played once.
    pub fn list_entries(&self) -> Vec<ListEntry> {
        Walk::new(self).entries()
    }

    /// The whole tree as a record, with its start position.
    pub fn tree_record(&self) -> murus_engine::Record {
        self.tree.to_record(&self.variant, self.game.start())
    }

    /// The game along the main line, to its end.
    pub fn main_line_game(&self) -> Game {
        let mut game = Game::from_position(&self.variant, *self.game.start());
        for m in self.tree.main_line() {
            game.play(m);
        }
        game
    }

    /// The position before the move into `node`.
    pub(super) fn position_before(&self, node: NodeId) -> Position {
        let v = &self.variant;
        let mut pos = *self.game.start();
        let path = self.tree.path(node);
        for &n in &path[..path.len().saturating_sub(1)] {
            pos = v.play(&pos, self.tree.mv(n).expect("a move"));
        }
        pos
    }

    // --- Moving --------------------------------------------------------

    /// Plays a legal move from the node shown, along the tree where it is
    /// there, else as a new move. Returns the node it was played from.
    pub(super) fn add(&mut self, m: Move) -> Option<NodeId> {
        if !self.game.play(m) {
            return None;
        }
        let from = self.node;
        self.node = self.tree.add(from, m);
        self.version += 1;
        Some(from)
    }

    /// One ply back (←). Returns whether it moved.
    pub fn back(&mut self) -> bool {
        let Some(parent) = self.tree.parent(self.node) else {
            return false;
        };
        self.game.undo();
        self.node = parent;
        self.version += 1;
        true
    }

    /// One ply forward along the line (→). Returns whether it moved.
    pub fn forward(&mut self) -> bool {
        let Some(&next) = self.tree.children(self.node).first() else {
            return false;
        };
        self.go_to(next);
        true
    }

    /// Shows `node` of the tree (a click on the move list).
    pub fn go_to(&mut self, node: NodeId) {
        if node == self.node {
            return;
        }
        let mut game = Game::from_position(&self.variant, *self.game.start());
        for m in self.tree.moves_to(node) {
            // Cannot fail: every move of the tree was played from there.
            if !game.play(m) {
                return;
            }
        }
        self.game = game;
        self.node = node;
        self.version += 1;
    }

    /// Shows the position after `ply` plies of the line (0: the start).
    pub fn jump_to(&mut self, ply: usize) {
        let line = self.tree.line_through(self.node);
        match ply.checked_sub(1) {
            None => self.go_to(MoveTree::ROOT),
            Some(i) => {
                if let Some(&n) = line.get(i).or(line.last()) {
                    self.go_to(n);
                }
            }
        }
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

    /// Shows `node` of `tree` (a step of the undo history), the tree
    /// replacing this one.
    pub(super) fn restore(&mut self, tree: MoveTree, node: NodeId) {
        let mut game = Game::from_position(&self.variant, *self.game.start());
        for m in tree.moves_to(node) {
            // Cannot fail: every move of the tree was played from there.
            game.play(m);
        }
        self.tree = tree;
        self.node = node;
        self.game = game;
        self.play_on = None;
        self.version += 1;
    }

    /// Lets bots move from the node shown although moves follow it (or no
    /// longer, with `false`). Returns whether that changed.
    pub(super) fn set_play_on(&mut self, on: bool) -> bool {
        let play_on = on.then_some(self.node);
        let changed = self.play_on != play_on && !(on && self.at_end_of_line());
        if changed {
            self.play_on = play_on;
        }
        changed
    }

    /// Whether a bot may move from the node shown: at the end of the line,
    /// or after "Play on from here".
    pub fn bots_may_move(&self) -> bool {
        self.at_end_of_line() || self.play_on == Some(self.node)
    }
}

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

/// The move list's walk over a cursor's tree: each node of the line shown
/// with its index, and how many of them are played.
struct Walk<'a> {
    cursor: &'a GameCursor,
    line: HashMap<NodeId, usize>,
    played: usize,
}

impl<'a> Walk<'a> {
    fn new(cursor: &'a GameCursor) -> Walk<'a> {
        let line = cursor
            .tree()
            .line_through(cursor.node())
            .into_iter()
            .enumerate()
            .map(|(i, n)| (n, i))
            .collect();
        Walk {
            cursor,
            line,
            played: cursor.game().ply(),
        }
    }

    /// The move list ([`GameCursor::list_entries`]).
    fn entries(&self) -> Vec<ListEntry> {
        let mut out = Vec::new();
        let start = *self.cursor.game().start();
        self.list_from(MoveTree::ROOT, start, 0, 0, &mut out);
        out
    }

    /// The entries of the line from `node` (at position `pos`): its main
    /// continuation, each move followed by its parent's other children as
    /// variations.
    fn list_from(
        &self,
        node: NodeId,
        mut pos: Position,
        mut ply: usize,
        depth: usize,
        out: &mut Vec<ListEntry>,
    ) {
        let t = self.cursor.tree();
        let v = self.cursor.variant();
        let mut at = node;
        while let Some(&main) = t.children(at).first() {
            out.push(self.entry(main, &pos, ply, depth, false));
            for &alt in &t.children(at)[1..] {
                out.push(self.entry(alt, &pos, ply, depth + 1, true));
                let after = v.play(&pos, t.mv(alt).expect("a move"));
                self.list_from(alt, after, ply + 1, depth + 1, out);
                if let Some(last) = out.last_mut() {
                    last.closes += 1;
                }
            }
            pos = v.play(&pos, t.mv(main).expect("a move"));
            at = main;
            ply += 1;
        }
    }

    /// The entry of the move into `node`, played from `before`.
    fn entry(
        &self,
        node: NodeId,
        before: &Position,
        ply: usize,
        depth: usize,
        opens: bool,
    ) -> ListEntry {
        let t = self.cursor.tree();
        let v = self.cursor.variant();
        let mover = v.letter(v.turn(before));
        let mv = v.move_to_string(t.mv(node).expect("a move"));
        let glyph = t.glyph(node).map(|g| format!(" {g}")).unwrap_or_default();
        let index = self.line.get(&node).copied();
        ListEntry {
            node,
            depth,
            opens,
            closes: 0,
            text: format!("{} {mover} {mv}{glyph}", self.cursor.move_number(ply)),
            comment: t.comment(node).map(str::to_string),
            current: node == self.cursor.node(),
            ahead: index.is_some_and(|i| i >= self.played),
            on_line: index.is_some(),
        }
    }
}
