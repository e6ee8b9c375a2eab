//! Who plays each colour, and the bots' searches ([`PlaySeats`]): a bot's
//! turn is handed to the seats' worker, whose answer the model takes in
//! when it is still for the turn the game is at.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use murus_ai::{Bot, BotSpec, SpecError};
use murus_engine::job::{Cancel, Handler, HandlerExt};
use murus_engine::{Game, Move, NodeId};

use super::cursor::GameCursor;
use crate::worker::{Waker, Worker};

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
    /// Matches the reply to the turn ([`PlayModel::bot_replied`](super::PlayModel::bot_replied)).
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

/// Who plays each colour and the bots' searches: the seats, whether bots
/// are paused, the search going on (one at a time, matched to its turn by a
/// token) on the worker, the seed of the next, and the last bot move.
#[derive(Debug)]
pub struct PlaySeats {
    seats: Vec<Seat>,
    paused: bool,
    /// The bot searching now; `None` when the game left its turn.
    thinking: Option<Thinking>,
    /// The seat (colour at the start) the bot thinking plays.
    thinking_seat: Option<usize>,
    next_token: u64,
    /// Seeds the bots; bumped for every bot move.
    seed: u64,
    /// The last bot move (its node and the move) and its search size, in
    /// words.
    last_bot: Option<(NodeId, Move, String)>,
    /// Searches the bots' moves.
    bot: Worker<(u64, BotReply)>,
    /// The turn the bot's worker searches.
    bot_token: Option<u64>,
}

/// Where the worker's search stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Search {
    /// It searches the turn the seats wait for.
    Busy,
    /// It ended without a word (it panicked).
    Lost,
    /// None is waited for (one that was is stopped).
    Idle,
}

impl PlaySeats {
    /// The seats of a saved state: a seat that no longer parses is human,
    /// with a problem said. The bots' searches call `waker`.
    pub(super) fn of_saved(
        saved: &[String],
        seed: u64,
        waker: Waker,
        problems: &mut Vec<String>,
    ) -> PlaySeats {
        let seats = saved
            .iter()
            .enumerate()
            .map(|(i, text)| {
                text.parse().unwrap_or_else(|e: SpecError| {
                    problems.push(format!("seat {}: {e}; a human plays it", i + 1));
                    Seat::Human
                })
            })
            .collect();
        PlaySeats {
            seats,
            paused: false,
            thinking: None,
            thinking_seat: None,
            next_token: 0,
            seed,
            last_bot: None,
            bot: Worker::new(waker),
            bot_token: None,
        }
    }

    /// Who plays each colour (by seat: the colour it had at the start).
    pub fn all(&self) -> &[Seat] {
        &self.seats
    }
    /// The seat playing colour `player` now in `game` (after pie-rule
    /// swaps).
    pub fn of_player(&self, game: &Game, player: usize) -> Seat {
        let seat = game.seat_of(player);
        self.seats.get(seat).cloned().unwrap_or(Seat::Human)
    }
    /// Whether a bot is to move at `cursor` in a game a human plays.
    pub fn bot_to_move(&self, cursor: &GameCursor) -> bool {
        self.seats.contains(&Seat::Human)
            && self.of_player(cursor.game(), cursor.turn()) != Seat::Human
    }
    /// Whether bots are paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }
    /// The bot searching now.
    pub fn thinking(&self) -> Option<&Thinking> {
        self.thinking.as_ref()
    }
    /// When the bot thinking started, if one thinks on a background thread.
    pub fn thinking_since(&self) -> Option<Instant> {
        self.thinking.as_ref()?;
        self.bot.started()
    }
    /// The last bot move and its search size, while `cursor` shows the
    /// position after it.
    pub fn last_bot(&self, cursor: &GameCursor) -> Option<&str> {
        let (node, mv, text) = self.last_bot.as_ref()?;
        let shown = cursor.node() == *node && cursor.tree().mv(*node) == Some(*mv);
        shown.then_some(text.as_str())
    }
    /// The seed of the next bot move.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// One seat per colour of a variant of `players` (extra ones human);
    /// the last bot move is forgotten (a game replaced).
    pub(super) fn fit(&mut self, players: usize) {
        self.seats.resize(players, Seat::Human);
        self.last_bot = None;
    }

    /// Sets who plays seat `seat`; a bot that was thinking for it stops.
    /// Returns whether it changed.
    pub(super) fn set(&mut self, seat: usize, who: Seat) -> bool {
        let Some(s) = self.seats.get_mut(seat).filter(|s| **s != who) else {
            return false;
        };
        *s = who;
        if self.thinking_seat == Some(seat) {
            self.stop();
        }
        true
    }

    /// Pauses or resumes the bots. Returns whether it changed.
    pub(super) fn set_paused(&mut self, paused: bool) -> bool {
        let changed = self.paused != paused;
        self.paused = paused;
        changed
    }

    /// The turn of the bot playing `player` in `game`, when it is one and
    /// no bot thinks or waits: it thinks from now on, until
    /// [`PlaySeats::take`] with the turn's token.
    pub(super) fn start(&mut self, game: &Game, player: usize) -> Option<BotTurn> {
        if self.thinking.is_some() || self.paused {
            return None;
        }
        let Seat::Bot(spec) = self.of_player(game, player) else {
            return None;
        };
        self.seed = self.seed.wrapping_add(1);
        self.next_token += 1;
        self.thinking = Some(Thinking {
            token: self.next_token,
            player,
            spec: spec.clone(),
        });
        self.thinking_seat = Some(game.seat_of(player));
        Some(BotTurn {
            token: self.next_token,
            player,
            spec,
            seed: self.seed,
            game: game.clone(),
        })
    }

    /// The bot thinking, when `token` is its turn's: it thinks no more.
    pub(super) fn take(&mut self, token: u64) -> Option<Thinking> {
        let t = self.thinking.take_if(|t| t.token == token)?;
        self.thinking_seat = None;
        Some(t)
    }

    /// The game left the bot's turn: it thinks no more (its search stops
    /// at the next poll).
    pub(super) fn stop(&mut self) {
        self.thinking = None;
        self.thinking_seat = None;
    }

    /// A search ended without a move (or an engine failed): bots pause.
    pub(super) fn pause_failed(&mut self) {
        self.stop();
        self.paused = true;
    }

    /// Keeps a bot's move (at `node`) and its search size, in words.
    pub(super) fn bot_moved(&mut self, node: NodeId, m: Move, text: String) {
        self.last_bot = Some((node, m, text));
    }

    /// The answers the worker has sent.
    pub(super) fn replies(&mut self) -> Vec<(u64, BotReply)> {
        self.bot.poll()
    }

    /// Where the worker's search stands; a search nobody waits for any
    /// more stops.
    pub(super) fn search(&mut self) -> Search {
        match &self.thinking {
            Some(t) if self.bot_token == Some(t.token) && !self.bot.is_running() => Search::Lost,
            Some(t) if self.bot_token == Some(t.token) => Search::Busy,
            _ => {
                // Waited for by no one: dropping it stops its search.
                self.bot.cancel();
                Search::Idle
            }
        }
    }

    /// Searches `turn` on the worker, in the background.
    pub(super) fn run(&mut self, turn: BotTurn) {
        self.bot_token = Some(turn.token);
        self.bot.restart("the bot", move |r| {
            let reply = turn.think(r.cancel_flag());
            r.send((turn.token, reply));
        });
    }

    /// Asks the bot thinking to play its best move so far ("Move now").
    pub fn move_now(&mut self) {
        self.bot.stop();
    }
}
