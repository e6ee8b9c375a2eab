//! The game as a document: [`PlayGame`] owns the [`GameCursor`] (the
//! variant, the move tree and the node shown), what the record says beyond
//! its moves (its tags, a result the rules do not give), the tree as last
//! saved (what it lacks is unsaved work) and the undo history of the tree's
//! edits (edits.rs; the edits themselves are in variations.rs).
//!
//! It knows nothing of seats, the board's selection or the panel's
//! message: what an action means for them it leaves as [`News`], which
//! [`PlayModel::act`](super::PlayModel::act) passes on.

mod edits;
mod variations;

use std::path::Path;

use murus_engine::{Game, GameRecord, Move, MoveTree, Record, RecordResult, Variant};

pub use edits::{SavedHistory, SavedStep, TreeUndo};
pub use variations::BETTER_LINE;

use super::PlaySaved;
use super::cursor::GameCursor;
use crate::{Message, files};

/// What an action of the game means for the rest of the panel, in order
/// (besides a change of the board, which the cursor's version says).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum News {
    /// The tree changed: older messages and the selection go.
    Changed,
    /// Older messages go.
    Stale,
    /// The panel says this.
    Say(Message),
}

/// The game played, with its tree, its record's notes, its saved state and
/// its undo history.
#[derive(Debug)]
pub struct PlayGame {
    cursor: GameCursor,
    /// The tree as it was last started, loaded, opened or saved: what it
    /// lacks of the cursor's tree is unsaved work.
    kept: MoveTree,
    /// The record the game was opened from (its tags).
    header: Record,
    /// The result recorded for the main line where it does not end by the
    /// rules (a resignation, a draw agreed): the game is over at its end.
    result: Option<RecordResult>,
    /// Every change to the tree, to undo and redo.
    undo: TreeUndo,
    /// What the actions since the last [`PlayGame::take_news`] said.
    news: Vec<News>,
}

impl PlayGame {
    /// The game of a saved state, of `variant`; a game that no longer
    /// replays becomes a new game, with a problem said.
    pub(super) fn of_saved(
        saved: &PlaySaved,
        variant: Variant,
        problems: &mut Vec<String>,
    ) -> PlayGame {
        let record = GameRecord {
            variant: variant.name().to_string(),
            start: saved.start.clone(),
            moves: saved.moves.clone(),
            result: None,
            tags: Default::default(),
        };
        let game = Game::from_record(&variant, &record).unwrap_or_else(|e| {
            problems.push(format!(
                "the saved game no longer replays ({e}); a new game starts"
            ));
            Game::new(&variant)
        });
        let start = *game.start();
        let line = |record: &Option<Record>| {
            record
                .as_ref()
                .and_then(|r| MoveTree::from_record(&variant, &start, r).ok())
        };
        // The tree saved (only the line in saves of older versions), with
        // the moves shown on it.
        let tree = line(&saved.tree).unwrap_or_default();
        // The tree saved or loaded before the restart (in saves of older
        // versions, the moves kept, at the start of the line shown).
        let kept = line(&saved.kept_tree).unwrap_or_else(|| {
            let kept_len = saved
                .kept
                .iter()
                .zip(&saved.moves)
                .take_while(|(a, b)| a == b)
                .count();
            MoveTree::from_line(&game.moves()[..kept_len.min(game.ply())])
        });
        // The record opened before the restart: its tags and result.
        let header = saved
            .tree
            .as_ref()
            .map_or_else(Record::default, |r| Record {
                tags: r.tags.clone(),
                ..Record::default()
            });
        let cursor = GameCursor::new(variant, game, tree);
        let undo = TreeUndo::of_saved(&cursor, &saved.history);
        let mut out = PlayGame {
            cursor,
            kept,
            header,
            result: None,
            undo,
            news: Vec::new(),
        };
        let result = saved.tree.as_ref().and_then(|r| r.result.clone());
        out.result = kept_result(&out.cursor, result);
        out
    }

    /// The game on the board and its move tree.
    pub fn cursor(&self) -> &GameCursor {
        &self.cursor
    }
    /// The cursor, to move through the tree (←, →, a move of the list).
    pub fn cursor_mut(&mut self) -> &mut GameCursor {
        &mut self.cursor
    }
    /// The undo history of the tree's edits.
    pub fn history(&self) -> &TreeUndo {
        &self.undo
    }
    /// What the actions since the last call said, in order.
    pub(super) fn take_news(&mut self) -> Vec<News> {
        std::mem::take(&mut self.news)
    }

    // --- The record ------------------------------------------------------

    /// The whole tree as a record of the game played: its tags kept from
    /// the record opened, the result of its main line when that ends by the
    /// rules, else the result recorded (a resignation), and the rules
    /// embedded when the variant is not a shipped one.
    pub fn record(&self) -> Record {
        let mut record = self.cursor.tree_record();
        record.tags = self.header.tags.clone();
        record.result = self
            .cursor
            .main_line_game()
            .record()
            .result
            .or_else(|| self.result.clone());
        record.embed_rules(self.cursor.variant());
        record
    }

    /// The record in the record format (`docs/records.md`).
    pub fn record_text(&self) -> String {
        self.record().write(self.cursor.variant())
    }

    /// The tree as it was last started, loaded or saved, as a record
    /// (persisted, so that work restored after a restart still counts as
    /// unsaved).
    pub fn kept_record(&self) -> Record {
        self.kept
            .to_record(self.cursor.variant(), self.cursor.game().start())
    }

    /// Whether moves were played or notes written since the game was
    /// started, loaded, opened or saved (replacing the game would lose
    /// them).
    pub fn is_dirty(&self) -> bool {
        self.unsaved_moves() > 0 || self.unsaved_notes() > 0
    }

    /// The moves of the tree played since the game was started, loaded,
    /// opened or saved: those the tree kept then lacks.
    pub fn unsaved_moves(&self) -> usize {
        unsaved(self.cursor.tree(), &self.kept).0
    }

    /// The glyphs and comments set or changed since then, on moves that
    /// were kept.
    pub fn unsaved_notes(&self) -> usize {
        unsaved(self.cursor.tree(), &self.kept).1
    }

    /// Writes the record of the whole tree to `path`: JSON for a `.json`
    /// file, else the record format; its moves and notes are kept work
    /// from then on.
    pub fn save_record(&mut self, path: &Path) -> bool {
        let json = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let text = if json {
            self.record().to_json()
        } else {
            self.record_text()
        };
        let written = files::write(path, &text);
        if written.is_ok() {
            self.kept = self.cursor.tree().clone();
        }
        let ok = written.is_ok();
        self.news
            .push(News::Say(written.unwrap_or_else(Message::from)));
        ok
    }

    /// The result recorded for the main line (a resignation, a draw
    /// agreed), when the board shows the main line's end: the game is over
    /// there.
    pub fn recorded_end(&self) -> Option<&RecordResult> {
        let (tree, node) = (self.cursor.tree(), self.cursor.node());
        let at_end = tree.children(node).is_empty() && tree.is_main_line(node);
        self.result.as_ref().filter(|_| at_end)
    }

    /// How the game ends at the board, in words, when it does: by the
    /// rules, or as the record says at the end of its main line.
    pub fn ending(&self) -> Option<String> {
        let (v, game) = (self.cursor.variant(), self.cursor.game());
        match game.outcome() {
            Some(o) => Some(v.describe_outcome_at(o, game.position())),
            None => self.recorded_end().map(|r| result_words(v, r)),
        }
    }

    /// Whether the game is over at the board (no move may follow).
    pub fn is_over(&self) -> bool {
        self.cursor.game().outcome().is_some() || self.recorded_end().is_some()
    }

    /// How the main line ends, in words (the move list's last row).
    pub fn main_line_ending(&self) -> Option<String> {
        let v = self.cursor.variant();
        let game = self.cursor.main_line_game();
        match game.outcome() {
            Some(o) => Some(v.describe_outcome_at(o, game.position())),
            None => self.result.as_ref().map(|r| result_words(v, r)),
        }
    }

    // --- Moves -----------------------------------------------------------

    /// Plays a legal move from the node shown: along the tree where the
    /// move is there, else as a new move (the main continuation where none
    /// follows, a new variation otherwise).
    pub fn play(&mut self, m: Move) -> bool {
        if let Some(end) = self.recorded_end() {
            let words = result_words(self.cursor.variant(), end);
            self.news.push(News::Say(Message::info(format!(
                "the game is over ({words}): step back to play another line, \
                 or start a new game"
            ))));
            return false;
        }
        let Some(from) = self.cursor.add(m) else {
            return false;
        };
        self.undo.moved(&self.cursor, self.result.as_ref(), from);
        true
    }

    /// Plays a move typed in notation; a message says what is wrong with it.
    pub fn play_text(&mut self, text: &str) -> bool {
        if text.trim().is_empty() {
            return false;
        }
        let mut probe = self.cursor.game().clone();
        match probe.play_str(text) {
            Ok(m) => self.play(m),
            Err(e) => {
                self.news.push(News::Say(Message::error(e.to_string())));
                false
            }
        }
    }

    /// Plays a bot's move (after "Play on from here", in a variation);
    /// bots play on from there only at the end of the line again.
    pub(super) fn bot_move(&mut self, m: Move) -> bool {
        let Some(from) = self.cursor.add(m) else {
            return false;
        };
        self.cursor.set_play_on(false);
        self.undo.moved(&self.cursor, self.result.as_ref(), from);
        true
    }

    /// Lets bots play on from the ply shown although moves follow it: the
    /// bot's move opens a variation (nothing is dropped).
    pub fn play_on_from_here(&mut self) {
        if self.cursor.set_play_on(true) {
            self.news.push(News::Changed);
        }
    }

    /// Replaces the game (and the variant) by `tree` and the record it was
    /// read from (the game's line when `None`), showing the end of the
    /// game's line; all of it is kept work (it came from somewhere), and
    /// the undo history starts anew.
    pub(super) fn replace(
        &mut self,
        variant: Variant,
        game: Game,
        tree: Option<(MoveTree, Record)>,
    ) {
        let (tree, header) = match tree {
            Some((t, h)) => (t, Some(h)),
            None => (MoveTree::from_line(game.moves()), None),
        };
        self.cursor.replace(GameCursor::new(variant, game, tree));
        self.kept = self.cursor.tree().clone();
        self.header = Record::default();
        self.result = None;
        self.undo = TreeUndo::default();
        if let Some(h) = header {
            self.result = kept_result(&self.cursor, h.result.clone());
            self.header = h;
        }
    }
}

/// `result` (a record's) as the main line's, unless the main line ends by
/// the rules: then the rules say who won.
fn kept_result(cursor: &GameCursor, result: Option<RecordResult>) -> Option<RecordResult> {
    let by_rules = cursor.main_line_game().outcome().is_some();
    result.filter(|_| !by_rules)
}

/// The moves of `tree` that `kept` lacks, and the glyphs and comments
/// changed on the moves it has.
fn unsaved(tree: &MoveTree, kept: &MoveTree) -> (usize, usize) {
    let (t, k) = (tree, kept);
    let mut moves = 0;
    let mut notes = usize::from(t.comment(MoveTree::ROOT) != k.comment(MoveTree::ROOT));
    let mut stack = vec![(MoveTree::ROOT, MoveTree::ROOT)];
    while let Some((a, b)) = stack.pop() {
        for &c in t.children(a) {
            match k.child_by(b, t.mv(c).expect("a move")) {
                Some(d) => {
                    notes += usize::from(t.glyph(c) != k.glyph(d))
                        + usize::from(t.comment(c) != k.comment(d));
                    stack.push((c, d));
                }
                None => moves += 1 + t.len_after(c),
            }
        }
    }
    (moves, notes)
}

/// A result in words: `Gauls won by resignation`, `drawn by agreement`.
pub fn result_words(v: &Variant, r: &RecordResult) -> String {
    let by = if r.reason.is_empty() {
        String::new()
    } else {
        format!(" by {}", r.reason)
    };
    match r.winner.and_then(|w| v.player_by_letter(w)) {
        Some(p) => format!("{} won{by}", v.rules().players[p].name),
        None if r.winner.is_some() => format!("? won{by}"),
        None => format!("drawn{by}"),
    }
}
