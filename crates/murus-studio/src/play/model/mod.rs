//! The Play panel's state, without egui: tests and the view drive the same
//! methods. [`PlayModel`] coordinates its parts, each owning its state:
//! [`PlayGame`] (the game, its move tree and the node shown, its record
//! and undo history), [`PlaySeats`] (who plays each colour, the bots'
//! searches), [`BoardPick`] (the selection and the move chooser) and the
//! set-up being edited ([`SetupEdit`]). Here are what needs several of
//! them: the panel's message, the question before the game is replaced
//! (records.rs), clicks on the board (clicks.rs), the bots' turns
//! (bots.rs) and set-up mode (setup.rs).

mod bots;
mod clicks;
mod records;
mod setup;

use murus_engine::Variant;

pub use clicks::{BoardPick, describe_move};
pub use records::Replacement;

use super::PlaySaved;
use super::game::{News, PlayGame};
use super::seats::PlaySeats;
use super::setup::SetupEdit;
use crate::dialog::Confirm;
use crate::worker::{Waker, no_waker};
use crate::{Feedback, Message};

/// The Play panel's state: the game, the seats, the selection and the
/// move chooser, the set-up being edited, the panel's message and the
/// question before the game is replaced.
///
/// # Moving through a game
/// The game is a tree of moves ([`MoveTree`](murus_engine::MoveTree)): a
/// different move from an earlier ply opens a variation and loses
/// nothing. The board shows one node of it; the *line* is the path to that
/// node and then its main continuation. Undo (Ctrl+Z) steps back to the
/// last ply where a human is to move, redo (Ctrl+Shift+Z, Ctrl+Y) forward
/// to the next one; ← and → step one ply along the line, ↑ and ↓ go to the
/// previous and next variation at this ply, and a click on the move list
/// goes to that move. **Bots wait while the board is not at the end of the
/// line**: at the end of the line, or after "Play on from here" (the bot's
/// move then opens a variation), a bot whose turn it is thinks.
///
/// # Acting on the game
/// What changes the game goes through [`PlayModel::act`], which hands the
/// [`PlayGame`] to the action and then tells the other parts: a change of
/// the board drops the selection and stops a bot searching another ply,
/// and what the action says becomes the panel's message.
#[derive(Debug)]
pub struct PlayModel {
    game: PlayGame,
    seats: PlaySeats,
    pick: BoardPick,
    setup: Option<SetupEdit>,
    feedback: Feedback,
    /// A question before the game in progress is replaced.
    question: Option<Confirm<Replacement>>,
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
        let mut seats = PlaySeats::of_saved(&saved.seats, saved.seed, waker, &mut problems);
        seats.fit(variant.player_count());
        let game = PlayGame::of_saved(saved, variant, &mut problems);
        let mut feedback = Feedback::default();
        if !problems.is_empty() {
            feedback.warning(problems.join("; "));
        }
        PlayModel {
            game,
            seats,
            pick: BoardPick::default(),
            setup: None,
            feedback,
            question: None,
        }
    }

    /// The game, its move tree and the node shown, its record and history.
    pub fn game(&self) -> &PlayGame {
        &self.game
    }

    /// Does `action` on the game, then tells the other parts: when the
    /// board shows another node or game, the selection goes, a bot that was
    /// searching stops and older messages go stale; then what the action
    /// said, in order. One action per call: a board change counts before
    /// anything said, so a message said before a later move in the same
    /// call would outlive that move.
    pub fn act<R>(&mut self, action: impl FnOnce(&mut PlayGame) -> R) -> R {
        let version = self.game.cursor().version();
        let out = action(&mut self.game);
        self.heard(version);
        out
    }

    /// Passes on what the game's actions said since the board was at
    /// `version`.
    fn heard(&mut self, version: u64) {
        if self.game.cursor().version() != version {
            self.changed();
            self.seats.stop();
        }
        for news in self.game.take_news() {
            match news {
                News::Changed => self.changed(),
                News::Stale => self.feedback.changed(),
                News::Say(m) => self.feedback.set(m),
            }
        }
    }

    /// Takes back the last step of the tree's history (on back to a ply
    /// where a human is to move).
    pub fn undo(&mut self) {
        let version = self.game.cursor().version();
        self.game.undo(|c| self.seats.bot_to_move(c));
        self.heard(version);
    }

    /// Makes the last step undone again (on to the next ply where a human
    /// is to move or the game is over).
    pub fn redo(&mut self) {
        let version = self.game.cursor().version();
        self.game.redo(|c| self.seats.bot_to_move(c));
        self.heard(version);
    }

    /// Who plays each colour, and the bots.
    pub fn seats(&self) -> &PlaySeats {
        &self.seats
    }
    /// The selected cell and the moves offered to choose from.
    pub fn pick(&self) -> &BoardPick {
        &self.pick
    }
    /// The set-up being edited.
    pub fn setup(&self) -> Option<&SetupEdit> {
        self.setup.as_ref()
    }
    /// The panel's message about the current state.
    pub fn message(&self) -> Option<&Message> {
        self.feedback.current()
    }
    /// The panel's message, to say something (an export written) or to
    /// make it stale (a field edited).
    pub fn feedback_mut(&mut self) -> &mut Feedback {
        &mut self.feedback
    }

    /// Everything that changes the game or the selection goes through here:
    /// older messages become stale and the selection goes.
    fn changed(&mut self) {
        self.feedback.changed();
        self.pick.clear();
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
    use murus_engine::{Move, MoveTree};

    use super::*;
    use crate::play::{BotReply, Seat};

    fn model(variant: &str, seats: [&str; 2]) -> PlayModel {
        let saved = PlaySaved {
            variant_source: Variant::builtin(variant).unwrap().source().to_string(),
            seats: seats.iter().map(|s| (*s).to_string()).collect(),
            ..PlaySaved::default()
        };
        PlayModel::new(&saved)
    }

    fn cell(m: &PlayModel, name: &str) -> usize {
        m.game()
            .cursor()
            .variant()
            .geometry()
            .parse_cell(name)
            .unwrap()
    }

    fn mv(m: &PlayModel, text: &str) -> Move {
        m.game()
            .cursor()
            .variant()
            .parse_move(m.game().cursor().game().position(), text)
            .unwrap()
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
        assert_eq!(m.seats().all(), [Seat::Human, Seat::Human]);
        let msg = m.message().expect("a warning");
        assert!(msg.text.contains("seat 2"), "{}", msg.text);
    }

    #[test]
    fn an_error_about_a_typed_move_goes_stale_after_the_next_move() {
        let mut m = model("standard", ["human", "human"]);
        assert!(!m.act(|g| g.play_text("a1-a9")));
        assert!(m.message().is_some_and(Message::is_error));
        assert!(m.act(|g| g.play_text("b1-b3")));
        assert_eq!(m.message(), None);
    }

    #[test]
    fn the_moves_ahead_stay_and_another_move_opens_a_variation() {
        let mut m = model("standard", ["human", "human"]);
        for t in ["b1-b3", "c7-c5", "e1-e3"] {
            assert!(m.act(|g| g.play_text(t)));
        }
        m.act(|g| g.cursor_mut().jump_to(1));
        assert_eq!(m.game().cursor().game().ply(), 1);
        assert_eq!(m.game().cursor().moves_ahead().len(), 2);
        assert_eq!(m.game().cursor().line_len(), 3);
        // Replaying the next move of the line keeps the rest.
        let next = mv(&m, "c7-c5");
        assert!(m.act(|g| g.play(next)));
        assert_eq!(m.game().cursor().moves_ahead().len(), 1);
        assert!(m.act(|g| g.cursor_mut().back()));
        // Another move opens a variation; the main line stays whole.
        assert!(m.act(|g| g.play_text("d7-d5")));
        assert!(m.game().cursor().at_end_of_line());
        assert_eq!(m.game().cursor().line_len(), 2);
        assert_eq!(m.game().cursor().tree().len(), 4);
        m.act(|g| g.cursor_mut().jump_to(0));
        assert_eq!(m.game().cursor().game().ply(), 0);
        assert_eq!(
            m.game().cursor().line_len(),
            3,
            "from the start, the line is the main line"
        );
        assert!(
            !m.act(|g| g.cursor_mut().back()),
            "nothing before the start"
        );
    }

    #[test]
    fn undo_goes_back_to_a_human_turn_and_redo_forward_to_the_next() {
        let mut m = model("standard", ["human", "random"]);
        assert!(m.act(|g| g.play_text("b1-b3")));
        let turn = m.start_bot().expect("the bot's turn");
        let reply = turn.think(Arc::new(AtomicBool::new(false)));
        m.bot_replied(turn.token, reply);
        assert_eq!(m.game().cursor().game().ply(), 2);
        assert!(
            m.seats()
                .last_bot(m.game().cursor())
                .is_some_and(|b| b.starts_with("Gauls (random)"))
        );
        m.undo();
        assert_eq!(m.game().cursor().game().ply(), 0);
        m.redo();
        assert_eq!(m.game().cursor().game().ply(), 2);
    }

    #[test]
    fn bots_wait_while_the_board_is_not_at_the_end_of_the_line() {
        let mut m = model("standard", ["human", "random"]);
        assert!(m.act(|g| g.play_text("b1-b3")));
        let turn = m.start_bot().expect("the bot's turn");
        m.bot_replied(turn.token, turn.think(Arc::new(AtomicBool::new(false))));
        assert!(m.act(|g| g.play_text("e1-e3")));
        // Back to a ply where the bot is to move, with moves ahead.
        m.act(|g| g.cursor_mut().jump_to(1));
        assert!(m.start_bot().is_none(), "the bot waits");
        let main_line = |m: &PlayModel| -> Vec<String> {
            m.game()
                .cursor()
                .tree_record()
                .moves
                .into_iter()
                .map(|x| x.text)
                .collect()
        };
        let before = main_line(&m);
        m.act(PlayGame::play_on_from_here);
        assert!(!m.game().cursor().at_end_of_line(), "nothing is dropped");
        let turn = m.start_bot().expect("and plays on from here");
        m.bot_replied(turn.token, turn.think(Arc::new(AtomicBool::new(false))));
        assert_eq!(m.game().cursor().game().ply(), 2);
        assert_eq!(main_line(&m), before, "the bot's move is a variation");
        assert!(m.start_bot().is_none(), "the human's turn");
    }

    #[test]
    fn a_reply_for_a_turn_the_game_left_is_ignored() {
        let mut m = model("standard", ["human", "random"]);
        assert!(m.act(|g| g.play_text("b1-b3")));
        let turn = m.start_bot().expect("the bot's turn");
        assert!(m.start_bot().is_none(), "one search at a time");
        m.undo();
        let reply = turn.think(Arc::new(AtomicBool::new(false)));
        m.bot_replied(turn.token, reply);
        assert_eq!(m.game().cursor().game().ply(), 0);
        assert!(m.seats().thinking().is_none());
    }

    #[test]
    fn a_bot_without_a_move_pauses_the_bots_and_says_so() {
        let mut m = model("standard", ["human", "random"]);
        assert!(m.act(|g| g.play_text("b1-b3")));
        let turn = m.start_bot().expect("the bot's turn");
        m.bot_replied(
            turn.token,
            BotReply {
                mv: None,
                nodes: 0,
                error: None,
            },
        );
        assert!(m.seats().is_paused());
        assert!(m.message().is_some_and(Message::is_error));
        assert!(m.start_bot().is_none());
    }

    #[test]
    fn the_chooser_says_what_sacrifices_and_throws_do() {
        let mut m = model("advanced", ["human", "human"]);
        assert!(
            m.open(|v| Replacement::position(v, "g2g2g2g2g2g22/8/8/3g3r23/8/8/r2r2r2r2r2r2r21 r"))
        );
        m.click(cell(&m, "e4"));
        m.click(cell(&m, "d4"));
        let described: Vec<String> = m
            .pick()
            .choices()
            .iter()
            .map(|&c| describe_move(m.game().cursor(), c))
            .collect();
        assert_eq!(
            described,
            ["e4xd4: lose 1 stone, take 1", "e4xxd4: lose both, take 2"]
        );
        assert!(
            m.open(|v| Replacement::position(v, "g2g2g2g2g2g22/8/3g14/8/3r34/8/r2r2r2r2r2r22 r"))
        );
        assert_eq!(
            describe_move(m.game().cursor(), mv(&m, "d3*d5")),
            "d3*d5: throw 2 onto d5, knocking off 1"
        );
        assert_eq!(
            describe_move(m.game().cursor(), mv(&m, "d3*d6")),
            "d3*d6: throw 3 onto d6: the stone stays as a wall"
        );
        assert_eq!(
            describe_move(m.game().cursor(), mv(&m, "e1-e3")),
            "e1-e3: sow up to e3"
        );
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
        assert_eq!(m.pick().selected(), Some(cell(&m, "b1")));
        assert_eq!(m.message(), None, "selecting replaces the hint");
        m.click(cell(&m, "h5"));
        assert_eq!(m.pick().selected(), None);
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
        assert_eq!(edit.position(), Some(m.game().cursor().variant().start()));
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
        assert_eq!(
            *m.game().cursor().game().position(),
            m.game().cursor().variant().start()
        );
    }

    #[test]
    fn opening_a_game_keeps_the_seats_and_is_not_unsaved_work() {
        let mut m = model("standard", ["human", "greedy"]);
        assert!(m.act(|g| g.play_text("b1-b3")));
        assert!(m.game().is_dirty());
        let moves = ["c1-c3".to_string(), "d7-d5".to_string()];
        m.open(|_| Replacement::moves(Variant::standard(), &moves, "lab game #4"));
        // The move played is not saved: asked first.
        assert_eq!(m.game().cursor().game().ply(), 1);
        let q = m.question().expect("a question").clone();
        assert_eq!(q.go, "Discard and open");
        m.answer(crate::dialog::Answer::Go(q.action));
        assert_eq!(m.seats().all(), [Seat::Human, Seat::Bot(BotSpec::Greedy)]);
        assert_eq!(m.game().cursor().game().ply(), 2);
        assert!(!m.game().is_dirty());
        assert_eq!(
            m.message().map(|x| x.text.as_str()),
            Some("opened lab game #4")
        );
    }

    #[test]
    fn unsaved_moves_are_those_the_tree_kept_lacks() {
        let mut m = model("standard", ["human", "human"]);
        let record = r#"{"variant":"standard","moves":["b1-b3","c7-c5","e1-e3"]}"#;
        assert!(m.open(|v| Replacement::record(v, record)));
        assert_eq!(m.game().unsaved_moves(), 0);
        assert!(m.act(|g| g.play_text("f7-f5")));
        assert!(m.act(|g| g.play_text("d1-d3")));
        assert_eq!(m.game().unsaved_moves(), 2, "not 5");
        // Stepping back loses nothing; a variation adds to the work.
        m.act(|g| g.cursor_mut().jump_to(1));
        assert_eq!(m.game().unsaved_moves(), 2);
        assert!(m.act(|g| g.play_text("d7-d5")));
        assert_eq!(m.game().unsaved_moves(), 3);
        m.act(|g| g.set_comment(g.cursor().node(), "a note"));
        assert_eq!(
            m.game().unsaved_notes(),
            0,
            "on a move not kept: counted as the move"
        );
        let first = m.game().cursor().tree().children(MoveTree::ROOT)[0];
        m.act(|g| g.set_comment(first, "kept move, new note"));
        assert_eq!(m.game().unsaved_notes(), 1);
        // Restored after a restart, they are still unsaved, and the board
        // shows the same move.
        let saved = PlaySaved {
            moves: m.game().cursor().game().record().moves,
            tree: Some(m.game().cursor().tree_record()),
            kept_tree: Some(m.game().kept_record()),
            seats: vec!["human".into(), "human".into()],
            ..PlaySaved::default()
        };
        let back = PlayModel::new(&saved);
        assert_eq!(
            (back.game().unsaved_moves(), back.game().unsaved_notes()),
            (3, 1)
        );
        assert_eq!(
            back.game().cursor().game().moves(),
            m.game().cursor().game().moves()
        );
        assert_eq!(
            back.game().cursor().tree_record(),
            m.game().cursor().tree_record()
        );
        // A save of an older version (the moves kept, no tree) still
        // counts the moves after them.
        let older = PlaySaved {
            moves: m.game().cursor().game().record().moves,
            kept: vec!["b1-b3".into()],
            seats: vec!["human".into(), "human".into()],
            ..PlaySaved::default()
        };
        assert_eq!(PlayModel::new(&older).game().unsaved_moves(), 1);
    }

    #[test]
    fn bots_wait_while_the_question_before_replacing_the_game_is_asked() {
        let mut m = model("standard", ["human", "random"]);
        assert!(m.act(|g| g.play_text("b1-b3")));
        m.open(|v| Ok(Replacement::new_game(v)));
        assert!(m.question().is_some());
        assert!(
            m.start_bot().is_none(),
            "the game stays as the question says"
        );
        m.answer(crate::dialog::Answer::Keep);
        assert!(m.start_bot().is_some());
    }
}
