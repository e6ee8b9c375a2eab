//! The Play panel's state and the actions on the game itself (moves, undo
//! and redo, seats), without egui: tests and the view drive the same
//! methods. The other actions are in the files beside it, by job: bots.rs
//! (the bots' searches), clicks.rs (clicks on the board and what moves do),
//! records.rs (positions, records and replacing the game), setup.rs (the
//! position editor).

use murus_ai::SpecError;
use murus_engine::{Game, GameRecord, Move, MoveTree, NodeId, RecordResult, Variant};

use super::PlaySaved;
use super::bots::{BotReply, Seat, Thinking};
use super::edits::Step;
use super::records::Replacement;
use super::setup::SetupEdit;
use crate::dialog::Confirm;
use crate::history::History;
use crate::worker::{Waker, Worker, no_waker};
use crate::{Feedback, Message};

/// The Play panel's state: the variant, the game and the moves ahead of it
/// (redo), the selection and the move chooser, the seats, the set-up being
/// edited, the panel's message and whether bots wait.
///
/// # Moving through a game
/// The game is a tree of moves ([`MoveTree`]): a different move from an
/// earlier ply opens a variation and loses nothing. The board shows one
/// node of it; the *line* is the path to that node and then its main
/// continuation. Undo (Ctrl+Z) steps back to the last ply where a human is
/// to move, redo (Ctrl+Shift+Z, Ctrl+Y) forward to the next one; ← and →
/// step one ply along the line, ↑ and ↓ go to the previous and next
/// variation at this ply, and a click on the move list goes to that move.
/// **Bots wait while the board is not at the end of the line**: at the end
/// of the line, or after "Play on from here" (the bot's move then opens a
/// variation), a bot whose turn it is thinks.
#[derive(Debug)]
pub struct PlayModel {
    pub(super) variant: Variant,
    /// The game up to the node shown.
    pub(super) game: Game,
    /// Every move played or opened, with variations, glyphs and comments.
    pub(super) tree: MoveTree,
    /// The node the board shows (the end of `game`).
    pub(super) node: NodeId,
    /// "Play on from here": a bot may move from this node although moves
    /// follow it (its move opens a variation).
    pub(super) play_on: Option<NodeId>,
    pub(super) selected: Option<usize>,
    /// Moves that share the clicked origin and target, offered to choose.
    pub(super) choices: Vec<Move>,
    pub(super) seats: Vec<Seat>,
    pub(super) setup: Option<SetupEdit>,
    pub(super) feedback: Feedback,
    pub(super) paused: bool,
    pub(super) thinking: Option<Thinking>,
    pub(super) next_token: u64,
    /// Seeds the bots; bumped for every bot move.
    pub(super) seed: u64,
    /// The last bot move (its node and the move) and its search size, in
    /// words.
    pub(super) last_bot: Option<(NodeId, Move, String)>,
    /// The tree as it was last started, loaded, opened or saved: what it
    /// lacks of `tree` is unsaved work.
    pub(super) kept: MoveTree,
    /// The record the game was opened from (its tags).
    pub(super) header: murus_engine::Record,
    /// The result recorded for the main line where it does not end by the
    /// rules (a resignation, a draw agreed): the game is over at its end.
    pub(super) result: Option<RecordResult>,
    /// Every change to the tree, to undo and redo.
    pub(super) history: History<Step>,
    /// The node whose comment is being typed (one step of the history).
    pub(super) comment_run: Option<NodeId>,
    /// A question before the game in progress is replaced.
    pub(super) question: Option<Confirm<Replacement>>,
    /// Searches the bots' moves.
    pub(super) bot: Worker<(u64, BotReply)>,
    /// The turn the bot's worker searches.
    pub(super) bot_token: Option<u64>,
}

impl PlayModel {
    /// The model of a saved state. A variant that no longer compiles falls
    /// back to the standard game, a seat that no longer parses to a human
    /// seat, and a game that no longer replays to a new game, each with a
    /// message. Its bots' searches wake nobody (tests drive it).
    pub fn new(saved: &PlaySaved) -> PlayModel {
        PlayModel::with_waker(saved, no_waker())
    }

    /// [`PlayModel::new`], the bots' searches calling `waker` when they
    /// answer.
    pub fn with_waker(saved: &PlaySaved, waker: Waker) -> PlayModel {
        let mut problems = Vec::new();
        let variant = Variant::compile(&saved.variant_source).unwrap_or_else(|_| {
            problems.push("the saved variant no longer compiles; playing the standard game".into());
            Variant::standard()
        });
        let seats = saved
            .seats
            .iter()
            .enumerate()
            .map(|(i, text)| {
                text.parse().unwrap_or_else(|e: SpecError| {
                    problems.push(format!("seat {}: {e}; a human plays it", i + 1));
                    Seat::Human
                })
            })
            .collect();
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
        let line = |record: &Option<murus_engine::Record>| {
            record
                .as_ref()
                .and_then(|r| MoveTree::from_record(&variant, &start, r).ok())
        };
        // The tree saved (only the line in saves of older versions), with
        // the moves shown on it.
        let mut tree = line(&saved.tree).unwrap_or_default();
        let mut node = MoveTree::ROOT;
        for &m in game.moves() {
            node = tree.add(node, m);
        }
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
            .map_or_else(murus_engine::Record::default, |r| murus_engine::Record {
                tags: r.tags.clone(),
                ..murus_engine::Record::default()
            });
        let result = saved.tree.as_ref().and_then(|r| r.result.clone());
        let mut model = PlayModel {
            game,
            variant,
            tree,
            node,
            play_on: None,
            selected: None,
            choices: Vec::new(),
            seats,
            setup: None,
            feedback: Feedback::default(),
            paused: false,
            thinking: None,
            next_token: 0,
            seed: saved.seed,
            last_bot: None,
            kept,
            header,
            result: None,
            history: History::default(),
            comment_run: None,
            question: None,
            bot: Worker::new(waker),
            bot_token: None,
        };
        model.fit_seats();
        model.keep_result(result);
        model.history = model.history_of(&saved.history);
        if !problems.is_empty() {
            model.feedback.warning(problems.join("; "));
        }
        model
    }

    // --- What is shown -------------------------------------------------

    /// The variant played.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }
    /// The game up to the ply shown.
    pub fn game(&self) -> &Game {
        &self.game
    }
    /// The moves ahead of the ply shown along the line, in order.
    pub fn moves_ahead(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        let ahead = self.tree.continuation(self.node);
        ahead.into_iter().map(|n| self.tree.mv(n).expect("a move"))
    }
    /// The tree of moves.
    pub fn tree(&self) -> &MoveTree {
        &self.tree
    }
    /// The node the board shows.
    pub fn node(&self) -> NodeId {
        self.node
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
    /// The selected cell.
    pub fn selected(&self) -> Option<usize> {
        self.selected
    }
    /// Cells the selected stack can move to.
    pub fn targets(&self) -> Vec<usize> {
        let Some(from) = self.selected else {
            return Vec::new();
        };
        let mut out: Vec<usize> = self
            .game
            .legal_moves()
            .into_iter()
            .filter(|m| m.origin() == Some(from))
            .flat_map(Move::targets)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
    /// The moves offered to choose from (several share the clicked cells).
    pub fn choices(&self) -> &[Move] {
        &self.choices
    }
    /// Who plays each colour (by seat: the colour it had at the start).
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }
    /// The seat playing colour `player` now (after pie-rule swaps).
    pub fn seat_of_player(&self, player: usize) -> Seat {
        let seat = self.game.seat_of(player);
        self.seats.get(seat).cloned().unwrap_or(Seat::Human)
    }
    /// The set-up being edited.
    pub fn setup(&self) -> Option<&SetupEdit> {
        self.setup.as_ref()
    }
    /// The panel's message about the current state.
    pub fn message(&self) -> Option<&Message> {
        self.feedback.current()
    }
    /// Whether bots are paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }
    /// The bot searching now.
    pub fn thinking(&self) -> Option<&Thinking> {
        self.thinking.as_ref()
    }
    /// The last bot move and its search size, while the board shows the
    /// position after it.
    pub fn last_bot(&self) -> Option<&str> {
        let (node, mv, text) = self.last_bot.as_ref()?;
        (self.node == *node && self.tree.mv(*node) == Some(*mv)).then_some(text.as_str())
    }
    /// The seed of the next bot move.
    pub fn seed(&self) -> u64 {
        self.seed
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
        self.unsaved().0
    }

    /// The glyphs and comments set or changed since then, on moves that
    /// were kept.
    pub fn unsaved_notes(&self) -> usize {
        self.unsaved().1
    }

    fn unsaved(&self) -> (usize, usize) {
        let (t, k) = (&self.tree, &self.kept);
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

    /// The tree as it was last started, loaded or saved, as a record
    /// (persisted, so that work restored after a restart still counts as
    /// unsaved).
    pub fn kept_record(&self) -> murus_engine::Record {
        self.kept.to_record(&self.variant, self.game.start())
    }

    /// The whole tree as a record, with its start position.
    pub fn tree_record(&self) -> murus_engine::Record {
        self.tree.to_record(&self.variant, self.game.start())
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

    // --- Changes -------------------------------------------------------

    /// Everything that changes the game or the selection goes through here:
    /// older messages become stale and a search for another ply stops.
    pub(super) fn changed(&mut self) {
        self.feedback.changed();
        self.selected = None;
        self.choices.clear();
    }

    pub(super) fn game_changed(&mut self) {
        self.changed();
        self.thinking = None;
    }

    fn fit_seats(&mut self) {
        let n = self.variant.player_count();
        self.seats.resize(n, Seat::Human);
    }

    pub(super) fn has_human(&self) -> bool {
        self.seats.contains(&Seat::Human)
    }

    /// Replaces the game (and the variant) by `tree` (the game's line when
    /// `None`), showing the end of the game's line; all of it is kept
    /// work (it came from somewhere).
    pub(super) fn replace_game(&mut self, variant: Variant, game: Game, tree: Option<MoveTree>) {
        self.variant = variant;
        self.fit_seats();
        let mut tree = tree.unwrap_or_else(|| MoveTree::from_line(game.moves()));
        let mut node = MoveTree::ROOT;
        for &m in game.moves() {
            node = tree.add(node, m);
        }
        self.kept = tree.clone();
        self.tree = tree;
        self.node = node;
        self.game = game;
        self.play_on = None;
        self.header = murus_engine::Record::default();
        self.result = None;
        self.history = History::default();
        self.comment_run = None;
        self.setup = None;
        self.last_bot = None;
        self.question = None;
        self.game_changed();
    }

    /// Plays a legal move from the node shown: along the tree where the
    /// move is there, else as a new move (the main continuation where none
    /// follows, a new variation otherwise).
    pub fn play(&mut self, m: Move) -> bool {
        if let Some(end) = self.recorded_end() {
            let words = self.result_words(end);
            self.feedback.info(format!(
                "the game is over ({words}): step back to play another line, \
                 or start a new game"
            ));
            return false;
        }
        if !self.game.play(m) {
            return false;
        }
        let from = self.node;
        self.node = self.tree.add(from, m);
        self.game_changed();
        self.moved_from(from);
        true
    }

    /// Plays a move typed in notation; a message says what is wrong with it.
    pub fn play_text(&mut self, text: &str) -> bool {
        if text.trim().is_empty() {
            return false;
        }
        let mut probe = self.game.clone();
        match probe.play_str(text) {
            Ok(m) => self.play(m),
            Err(e) => {
                self.feedback.error(e.to_string());
                false
            }
        }
    }

    /// Plays one of the offered choices.
    pub fn choose(&mut self, m: Move) -> bool {
        self.choices.contains(&m) && self.play(m)
    }

    /// One ply back (←). Returns whether it moved.
    pub fn back(&mut self) -> bool {
        let Some(parent) = self.tree.parent(self.node) else {
            return false;
        };
        self.game.undo();
        self.node = parent;
        self.game_changed();
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
        self.game_changed();
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

    /// The user changed the text of a field pasted from (position,
    /// record): a message about its text as it was no longer applies.
    pub fn field_edited(&mut self) {
        self.feedback.changed();
    }

    /// Lets bots play on from the ply shown although moves follow it: the
    /// bot's move opens a variation (nothing is dropped).
    pub fn play_on_from_here(&mut self) {
        if !self.at_end_of_line() && self.play_on != Some(self.node) {
            self.play_on = Some(self.node);
            self.changed();
        }
    }

    /// Whether a bot may move from the node shown: at the end of the line,
    /// or after "Play on from here".
    pub(super) fn bots_may_move(&self) -> bool {
        self.at_end_of_line() || self.play_on == Some(self.node)
    }

    /// Sets who plays seat `seat`. A bot that was thinking for it stops.
    pub fn set_seat(&mut self, seat: usize, who: Seat) {
        if let Some(s) = self.seats.get_mut(seat)
            && *s != who
        {
            *s = who;
            self.feedback.changed();
            if self
                .thinking
                .as_ref()
                .is_some_and(|t| self.game.seat_of(t.player) == seat)
            {
                self.thinking = None;
            }
        }
    }

    /// Pauses or resumes the bots.
    pub fn set_paused(&mut self, paused: bool) {
        if self.paused != paused {
            self.paused = paused;
            self.feedback.changed();
        }
    }
}

/// `Romans'`, `Blue's`.
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use murus_ai::BotSpec;
    use murus_engine::MoveTree;

    use super::*;

    fn model(variant: &str, seats: [&str; 2]) -> PlayModel {
        let saved = PlaySaved {
            variant_source: Variant::builtin(variant).unwrap().source().to_string(),
            seats: seats.iter().map(|s| (*s).to_string()).collect(),
            ..PlaySaved::default()
        };
        PlayModel::new(&saved)
    }

    fn cell(m: &PlayModel, name: &str) -> usize {
        m.variant().geometry().parse_cell(name).unwrap()
    }

    fn mv(m: &PlayModel, text: &str) -> Move {
        m.variant().parse_move(m.game().position(), text).unwrap()
    }

    #[test]
    fn seats_read_human_or_a_bot_spec_and_write_back() {
        assert_eq!("Human".parse::<Seat>(), Ok(Seat::Human));
        assert_eq!(
            "alphabeta:300".parse::<Seat>(),
            Ok(Seat::Bot(BotSpec::AlphaBeta {
                nodes: 300,
                eval: None
            }))
        );
        assert_eq!("easy".parse::<Seat>(), Ok(Seat::Bot(BotSpec::Greedy)));
        assert!("robot".parse::<Seat>().is_err());
        assert_eq!(Seat::Bot(BotSpec::Random).to_string(), "random");
        assert_eq!(Seat::Human.to_string(), "human");
    }

    #[test]
    fn a_saved_seat_that_no_longer_parses_becomes_human_with_a_warning() {
        let m = model("standard", ["human", "alphabeta:lots"]);
        assert_eq!(m.seats(), [Seat::Human, Seat::Human]);
        let msg = m.message().expect("a warning");
        assert!(msg.text.contains("seat 2"), "{}", msg.text);
    }

    #[test]
    fn an_error_about_a_typed_move_goes_stale_after_the_next_move() {
        let mut m = model("standard", ["human", "human"]);
        assert!(!m.play_text("a1-a9"));
        assert!(m.message().is_some_and(Message::is_error));
        assert!(m.play_text("b1-b3"));
        assert_eq!(m.message(), None);
    }

    #[test]
    fn the_moves_ahead_stay_and_another_move_opens_a_variation() {
        let mut m = model("standard", ["human", "human"]);
        for t in ["b1-b3", "c7-c5", "e1-e3"] {
            assert!(m.play_text(t));
        }
        m.jump_to(1);
        assert_eq!(m.game().ply(), 1);
        assert_eq!(m.moves_ahead().len(), 2);
        assert_eq!(m.line_len(), 3);
        // Replaying the next move of the line keeps the rest.
        let next = mv(&m, "c7-c5");
        assert!(m.play(next));
        assert_eq!(m.moves_ahead().len(), 1);
        assert!(m.back());
        // Another move opens a variation; the main line stays whole.
        assert!(m.play_text("d7-d5"));
        assert!(m.at_end_of_line());
        assert_eq!(m.line_len(), 2);
        assert_eq!(m.tree().len(), 4);
        m.jump_to(0);
        assert_eq!(m.game().ply(), 0);
        assert_eq!(m.line_len(), 3, "from the start, the line is the main line");
        assert!(!m.back(), "nothing before the start");
    }

    #[test]
    fn undo_goes_back_to_a_human_turn_and_redo_forward_to_the_next() {
        let mut m = model("standard", ["human", "random"]);
        assert!(m.play_text("b1-b3"));
        let turn = m.start_bot().expect("the bot's turn");
        let reply = turn.think(Arc::new(AtomicBool::new(false)));
        m.bot_replied(turn.token, reply);
        assert_eq!(m.game().ply(), 2);
        assert!(
            m.last_bot()
                .is_some_and(|b| b.starts_with("Gauls (random)"))
        );
        m.undo();
        assert_eq!(m.game().ply(), 0);
        m.redo();
        assert_eq!(m.game().ply(), 2);
    }

    #[test]
    fn bots_wait_while_the_board_is_not_at_the_end_of_the_line() {
        let mut m = model("standard", ["human", "random"]);
        assert!(m.play_text("b1-b3"));
        let turn = m.start_bot().expect("the bot's turn");
        m.bot_replied(turn.token, turn.think(Arc::new(AtomicBool::new(false))));
        assert!(m.play_text("e1-e3"));
        // Back to a ply where the bot is to move, with moves ahead.
        m.jump_to(1);
        assert!(m.start_bot().is_none(), "the bot waits");
        let main_line = |m: &PlayModel| -> Vec<String> {
            m.tree_record().moves.into_iter().map(|x| x.text).collect()
        };
        let before = main_line(&m);
        m.play_on_from_here();
        assert!(!m.at_end_of_line(), "nothing is dropped");
        let turn = m.start_bot().expect("and plays on from here");
        m.bot_replied(turn.token, turn.think(Arc::new(AtomicBool::new(false))));
        assert_eq!(m.game().ply(), 2);
        assert_eq!(main_line(&m), before, "the bot's move is a variation");
        assert!(m.start_bot().is_none(), "the human's turn");
    }

    #[test]
    fn a_reply_for_a_turn_the_game_left_is_ignored() {
        let mut m = model("standard", ["human", "random"]);
        assert!(m.play_text("b1-b3"));
        let turn = m.start_bot().expect("the bot's turn");
        assert!(m.start_bot().is_none(), "one search at a time");
        m.undo();
        let reply = turn.think(Arc::new(AtomicBool::new(false)));
        m.bot_replied(turn.token, reply);
        assert_eq!(m.game().ply(), 0);
        assert!(m.thinking().is_none());
    }

    #[test]
    fn a_bot_without_a_move_pauses_the_bots_and_says_so() {
        let mut m = model("standard", ["human", "random"]);
        assert!(m.play_text("b1-b3"));
        let turn = m.start_bot().expect("the bot's turn");
        m.bot_replied(
            turn.token,
            BotReply {
                mv: None,
                nodes: 0,
                error: None,
            },
        );
        assert!(m.is_paused());
        assert!(m.message().is_some_and(Message::is_error));
        assert!(m.start_bot().is_none());
    }

    #[test]
    fn the_chooser_says_what_sacrifices_and_throws_do() {
        let mut m = model("advanced", ["human", "human"]);
        assert!(m.load_position("g2g2g2g2g2g22/8/8/3g3r23/8/8/r2r2r2r2r2r2r21 r"));
        m.click(cell(&m, "e4"));
        m.click(cell(&m, "d4"));
        let described: Vec<String> = m.choices().iter().map(|&c| m.describe_move(c)).collect();
        assert_eq!(
            described,
            ["e4xd4: lose 1 stone, take 1", "e4xxd4: lose both, take 2"]
        );
        assert!(m.load_position("g2g2g2g2g2g22/8/3g14/8/3r34/8/r2r2r2r2r2r22 r"));
        assert_eq!(
            m.describe_move(mv(&m, "d3*d5")),
            "d3*d5: throw 2 onto d5, knocking off 1"
        );
        assert_eq!(
            m.describe_move(mv(&m, "d3*d6")),
            "d3*d6: throw 3 onto d6: the stone stays as a wall"
        );
        assert_eq!(m.describe_move(mv(&m, "e1-e3")), "e1-e3: sow up to e3");
    }

    #[test]
    fn a_click_that_does_nothing_says_why() {
        let mut m = model("standard", ["human", "human"]);
        m.click(cell(&m, "d4"));
        assert_eq!(
            m.message().map(|x| x.text.as_str()),
            Some("d4 is empty: click one of the Romans' stacks to move it")
        );
        m.click(cell(&m, "b1"));
        assert_eq!(m.selected(), Some(cell(&m, "b1")));
        assert_eq!(m.message(), None, "selecting replaces the hint");
        m.click(cell(&m, "h5"));
        assert_eq!(m.selected(), None);
        assert_eq!(
            m.message().map(|x| x.text.as_str()),
            Some("b1 cannot move to h5: its moves end on the dotted cells")
        );
    }

    #[test]
    fn set_up_problems_come_from_the_engine_and_name_their_cells() {
        let mut m = model("standard", ["human", "human"]);
        m.start_setup();
        let edit = m.setup().unwrap();
        assert!(edit.problems().is_empty());
        assert_eq!(edit.position(), Some(m.variant().start()));
        let a7 = cell(&m, "a7");
        m.edit_setup(|e, v| e.paint(v, a7, Some((0, 1))));
        let edit = m.setup().unwrap();
        assert_eq!(edit.problem_cells(), [a7]);
        assert!(edit.position().is_none());
        assert!(!m.finish_setup());
        m.edit_setup(|e, v| e.paint(v, a7, None));
        m.edit_setup(SetupEdit::clear);
        assert!(m.setup().unwrap().problems().is_empty());
        assert_eq!(
            m.setup().unwrap().notes(),
            ["the game is already over: Gauls win by stalemate"]
        );
        m.edit_setup(SetupEdit::reset);
        assert!(m.finish_setup());
        assert!(m.setup().is_none());
        assert_eq!(*m.game().position(), m.variant().start());
    }

    #[test]
    fn opening_a_game_keeps_the_seats_and_is_not_unsaved_work() {
        let mut m = model("standard", ["human", "greedy"]);
        assert!(m.play_text("b1-b3"));
        assert!(m.is_dirty());
        let moves = ["c1-c3".to_string(), "d7-d5".to_string()];
        m.open_moves(Variant::standard(), &moves, "lab game #4");
        // The move played is not saved: asked first.
        assert_eq!(m.game().ply(), 1);
        let q = m.question().expect("a question").clone();
        assert_eq!(q.go, "Discard and open");
        m.answer(crate::dialog::Answer::Go(q.action));
        assert_eq!(m.seats(), [Seat::Human, Seat::Bot(BotSpec::Greedy)]);
        assert_eq!(m.game().ply(), 2);
        assert!(!m.is_dirty());
        assert_eq!(
            m.message().map(|x| x.text.as_str()),
            Some("opened lab game #4")
        );
    }

    #[test]
    fn unsaved_moves_are_those_the_tree_kept_lacks() {
        let mut m = model("standard", ["human", "human"]);
        let record = r#"{"variant":"standard","moves":["b1-b3","c7-c5","e1-e3"]}"#;
        assert!(m.load_record(record));
        assert_eq!(m.unsaved_moves(), 0);
        assert!(m.play_text("f7-f5"));
        assert!(m.play_text("d1-d3"));
        assert_eq!(m.unsaved_moves(), 2, "not 5");
        // Stepping back loses nothing; a variation adds to the work.
        m.jump_to(1);
        assert_eq!(m.unsaved_moves(), 2);
        assert!(m.play_text("d7-d5"));
        assert_eq!(m.unsaved_moves(), 3);
        m.set_comment(m.node(), "a note");
        assert_eq!(
            m.unsaved_notes(),
            0,
            "on a move not kept: counted as the move"
        );
        let first = m.tree().children(MoveTree::ROOT)[0];
        m.set_comment(first, "kept move, new note");
        assert_eq!(m.unsaved_notes(), 1);
        // Restored after a restart, they are still unsaved, and the board
        // shows the same move.
        let saved = PlaySaved {
            moves: m.game().record().moves,
            tree: Some(m.tree_record()),
            kept_tree: Some(m.kept_record()),
            seats: vec!["human".into(), "human".into()],
            ..PlaySaved::default()
        };
        let back = PlayModel::new(&saved);
        assert_eq!((back.unsaved_moves(), back.unsaved_notes()), (3, 1));
        assert_eq!(back.game().moves(), m.game().moves());
        assert_eq!(back.tree_record(), m.tree_record());
        // A save of an older version (the moves kept, no tree) still
        // counts the moves after them.
        let older = PlaySaved {
            moves: m.game().record().moves,
            kept: vec!["b1-b3".into()],
            seats: vec!["human".into(), "human".into()],
            ..PlaySaved::default()
        };
        assert_eq!(PlayModel::new(&older).unsaved_moves(), 1);
    }

    #[test]
    fn bots_wait_while_the_question_before_replacing_the_game_is_asked() {
        let mut m = model("standard", ["human", "random"]);
        assert!(m.play_text("b1-b3"));
        m.new_game();
        assert!(m.question().is_some());
        assert!(
            m.start_bot().is_none(),
            "the game stays as the question says"
        );
        m.answer(crate::dialog::Answer::Keep);
        assert!(m.start_bot().is_some());
    }
}
