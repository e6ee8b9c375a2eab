//! Who plays each colour, and the bots' searches: a bot's turn is handed to
//! the model's worker, whose answer the model takes in when it is still for
//! the turn the game is at.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use murus_ai::{Bot, BotSpec, SpecError};
use murus_engine::job::{Cancel, Handler, HandlerExt};
use murus_engine::{Game, Move};

use super::PlayModel;

/// Who plays a colour: a person at the board or a bot.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// A person clicks or types the moves.
    Human,
    /// A bot searches for them.
    Bot(BotSpec),
}

impl FromStr for Seat {
    type Err = SpecError;
    /// `human`, or a bot spec (`greedy`, `alphabeta:5000`, `hard`, …).
    fn from_str(text: &str) -> Result<Seat, SpecError> {
        if text.trim().eq_ignore_ascii_case("human") {
            Ok(Seat::Human)
        } else {
            text.parse().map(Seat::Bot)
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => write!(f, "human"),
            Seat::Bot(spec) => write!(f, "{spec}"),
        }
    }
}

/// The one place a bot is asked for a move: along the game, so that its
/// search sees the game's repetitions and ply cap; `handler` may stop it.
fn choose_bot_move(bot: &mut Bot, game: &Game, handler: &dyn Handler) -> Option<Move> {
    bot.choose_in_game_with(game, handler)
}

/// A bot's turn, handed to whoever runs the search (a background thread in
/// the studio, the test itself in tests).
#[derive(Clone, Debug)]
pub struct BotTurn {
    /// Matches the reply to the turn ([`PlayModel::bot_replied`]).
    pub token: u64,
    /// The colour to move.
    pub player: usize,
    /// The bot and its budget.
    pub spec: BotSpec,
    /// Seeds the bot's random choices.
    pub seed: u64,
    game: Game,
}

impl BotTurn {
    /// Searches for the move; `stop` makes the search return its best move
    /// so far.
    pub fn think(&self, stop: Arc<AtomicBool>) -> BotReply {
        let mut bot = Bot::new(self.spec.clone(), self.seed);
        // A level thinks for a bounded time here, unlike in the lab.
        let deadline = self.spec.time_bound().map(|t| Instant::now() + t);
        let handler = Cancel::from_flag(stop).until(deadline);
        let mv = choose_bot_move(&mut bot, &self.game, &handler);
        BotReply {
            mv,
            nodes: bot.last_nodes,
            error: bot.error().map(ToString::to_string),
        }
    }
}

/// What a bot answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotReply {
    /// `None` when the bot found no move.
    pub mv: Option<Move>,
    /// Nodes (alpha-beta) or iterations (MCTS) it searched.
    pub nodes: u64,
    /// What went wrong with an external engine.
    pub error: Option<String>,
}

/// The bot searching now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// The turn's token ([`BotTurn::token`]).
    pub token: u64,
    /// The colour it plays.
    pub player: usize,
    /// The bot and its budget.
    pub spec: BotSpec,
}

impl PlayModel {
    /// The bot turn to search now, if one is due: a bot's colour is to move
    /// at the end of the line, bots are not paused, no set-up is being
    /// edited, no question is waiting for an answer (the game must not
    /// change under it) and no bot is thinking already. The model then
    /// waits for [`PlayModel::bot_replied`] with the turn's token.
    pub fn start_bot(&mut self) -> Option<BotTurn> {
        if self.thinking.is_some()
            || self.paused
            || self.question.is_some()
            || self.setup.is_some()
            || !self.bots_may_move()
            || self.is_over()
        {
            return None;
        }
        let player = self.turn();
        let Seat::Bot(spec) = self.seat_of_player(player) else {
            return None;
        };
        self.seed = self.seed.wrapping_add(1);
        self.next_token += 1;
        let thinking = Thinking {
            token: self.next_token,
            player,
            spec: spec.clone(),
        };
        self.thinking = Some(thinking);
        Some(BotTurn {
            token: self.next_token,
            player,
            spec,
            seed: self.seed,
            game: self.game.clone(),
        })
    }

    /// A bot's answer to the turn with `token`; ignored when the game moved
    /// on since (undo, a new game…).
    pub fn bot_replied(&mut self, token: u64, reply: BotReply) {
        let Some(t) = self.thinking.take_if(|t| t.token == token) else {
            return;
        };
        if let Some(e) = reply.error {
            self.paused = true;
            self.feedback.error(format!("{e}; bots are paused"));
            return;
        }
        match reply.mv {
            Some(m) if self.game.play(m) => {
                let from = self.node;
                self.node = self.tree.add(from, m);
                self.play_on = None;
                self.game_changed();
                self.moved_from(from);
                let text = format!(
                    "{} ({}): {} after {} nodes",
                    self.player_name(t.player),
                    t.spec,
                    self.variant.move_to_string(m),
                    reply.nodes
                );
                self.last_bot = Some((self.node, m, text));
            }
            _ => self.bot_failed(t.token),
        }
    }

    /// The search for `token` ended without a move: bots pause.
    pub fn bot_failed(&mut self, token: u64) {
        if self.thinking.as_ref().is_some_and(|t| t.token != token) {
            return;
        }
        self.thinking = None;
        self.paused = true;
        self.feedback
            .error("the bot stopped without a move; bots are paused");
    }

    /// Takes in the bots' answers and starts the search of a bot whose turn
    /// it is on a background thread; a search for a turn the game left
    /// (undo, a new game, a seat changed) stops. Called every frame; never
    /// waits.
    pub fn poll_bots(&mut self) {
        for (token, reply) in self.bot.poll() {
            self.bot_replied(token, reply);
        }
        match &self.thinking {
            // The search ended without a word (it panicked).
            Some(t) if !self.bot.is_running() && self.bot_token == Some(t.token) => {
                self.bot_failed(t.token);
            }
            Some(t) if self.bot_token == Some(t.token) => return,
            // Waited for by no one: dropping it stops its search.
            _ => self.bot.cancel(),
        }
        if let Some(turn) = self.start_bot() {
            self.bot_token = Some(turn.token);
            self.bot.restart("the bot", move |r| {
                let reply = turn.think(r.cancel_flag());
                r.send((turn.token, reply));
            });
        }
    }

    /// Asks the bot thinking to play its best move so far ("Move now").
    pub fn move_now(&mut self) {
        self.bot.stop();
    }

    /// When the bot thinking started, if one thinks on a background thread.
    pub fn thinking_since(&self) -> Option<std::time::Instant> {
        self.thinking.as_ref()?;
        self.bot.started()
    }

    /// Waits for the bot's search going on and takes its answer in (tests
    /// and scripts: the UI polls).
    pub fn settle_bots(&mut self) {
        self.bot.wait();
        self.poll_bots();
    }
}
