//! The bots' turns: which is due, the worker's answers taken in while they
//! are still for the turn the game is at, and the seats set.

use super::PlayModel;
use crate::play::seats::{BotReply, BotTurn, Search, Seat};

impl PlayModel {
    /// The bot turn to search now, if one is due: a bot's colour is to move
    /// at the end of the line, bots are not paused, no set-up is being
    /// edited, no question is waiting for an answer (the game must not
    /// change under it) and no bot is thinking already. The model then
    /// waits for [`PlayModel::bot_replied`] with the turn's token.
    pub fn start_bot(&mut self) -> Option<BotTurn> {
        let c = self.game.cursor();
        if self.question.is_some()
            || self.setup.is_some()
            || !c.bots_may_move()
            || self.game.is_over()
        {
            return None;
        }
        self.seats.start(c.game(), c.turn())
    }

    /// A bot's answer to the turn with `token`; ignored when the game moved
    /// on since (undo, a new game…).
    pub fn bot_replied(&mut self, token: u64, reply: BotReply) {
        let Some(t) = self.seats.take(token) else {
            return;
        };
        if let Some(e) = reply.error {
            self.seats.pause_failed();
            self.feedback.error(format!("{e}; bots are paused"));
            return;
        }
        let played = reply.mv.filter(|&m| self.act(|g| g.bot_move(m)));
        let Some(m) = played else {
            self.seats.pause_failed();
            self.feedback
                .error("the bot stopped without a move; bots are paused");
            return;
        };
        let c = self.game.cursor();
        let text = format!(
            "{} ({}): {} after {} nodes",
            c.player_name(t.player),
            t.spec,
            c.variant().move_to_string(m),
            reply.nodes
        );
        self.seats.bot_moved(c.node(), m, text);
    }

    /// Takes in the bots' answers and starts the search of a bot whose turn
    /// it is on a background thread; a search for a turn the game left
    /// (undo, a new game, a seat changed) stops. Called every frame; never
    /// waits.
    pub fn poll_bots(&mut self) {
        for (token, reply) in self.seats.replies() {
            self.bot_replied(token, reply);
        }
        match self.seats.search() {
            Search::Busy => return,
            Search::Lost => {
                self.seats.pause_failed();
                self.feedback
                    .error("the bot stopped without a move; bots are paused");
            }
            Search::Idle => {}
        }
        if let Some(turn) = self.start_bot() {
            self.seats.run(turn);
        }
    }

    /// Sets who plays seat `seat`. A bot that was thinking for it stops.
    pub fn set_seat(&mut self, seat: usize, who: Seat) {
        if self.seats.set(seat, who) {
            self.feedback.changed();
        }
    }

    /// Pauses or resumes the bots.
    pub fn set_paused(&mut self, paused: bool) {
        if self.seats.set_paused(paused) {
            self.feedback.changed();
        }
    }

    /// Asks the bot thinking to play its best move so far ("Move now").
    pub fn move_now(&mut self) {
        self.seats.move_now();
    }
}
