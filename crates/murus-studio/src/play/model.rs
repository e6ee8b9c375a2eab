//! The Play panel's state and every action on it, without egui: tests and
//! the view drive the same methods.

use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use murus_ai::{Bot, BotSpec, SpecError};
use murus_engine::job::{Cancel, Handler, HandlerExt};
use murus_engine::{Action, Game, GameRecord, Move, Phase, Position, Setup, SetupError, Variant};

use crate::board::height_name;
use crate::{Feedback, Message, files};

use super::PlaySaved;

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

/// The position editor: a [`Setup`] being painted, what the engine says is
/// wrong with it, and the brush.
#[derive(Clone, Debug)]
pub struct SetupEdit {
    setup: Setup,
    /// `None` erases; `Some((player, height))` paints.
    brush: Option<(usize, u8)>,
    problems: Vec<SetupError>,
    /// Facts about a legal set-up worth knowing before playing from it (the
    /// game is already over, the side to move has no move).
    notes: Vec<String>,
    position: Option<Position>,
}

impl SetupEdit {
    /// The set-up as painted.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }
    /// What a click paints: `Some((player, height))`, or `None` to erase.
    pub fn brush(&self) -> Option<(usize, u8)> {
        self.brush
    }
    /// What keeps the set-up from being a position (the engine's words).
    pub fn problems(&self) -> &[SetupError] {
        &self.problems
    }
    /// Warnings about a legal set-up.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }
    /// The position, when the set-up has no problems.
    pub fn position(&self) -> Option<Position> {
        self.position
    }
    /// The cells the problems name, to point at on the board.
    pub fn problem_cells(&self) -> Vec<usize> {
        let mut cells: Vec<usize> = self
            .problems
            .iter()
            .flat_map(|p| p.kind().cells().iter().copied())
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }
    /// The stacks per slot, as the board draws them.
    pub fn stacks(&self, slots: usize) -> Vec<Option<(usize, u8)>> {
        (0..slots).map(|s| self.setup.stack(s)).collect()
    }
}

/// The Play panel's state: the variant, the game and the moves ahead of it
/// (redo), the selection and the move chooser, the seats, the set-up being
/// edited, the panel's message and whether bots wait.
///
/// # Moving through a game
/// The game is a line of moves; the board shows one ply of it. Undo (Ctrl+Z)
/// steps back to the last ply where a human is to move, redo (Ctrl+Shift+Z,
/// Ctrl+Y) forward to the next one; ← and → step one ply, and a click on
/// the move list jumps to that ply. The moves ahead stay in the line until a
/// different move is played from the ply shown (a new branch replaces them).
/// **Bots wait while the board is not at the end of the line**: they never
/// overwrite the moves ahead. At the end of the line, or after "Play on from
/// here" (which drops the moves ahead), a bot whose turn it is thinks.
#[derive(Debug)]
pub struct PlayModel {
    variant: Variant,
    game: Game,
    /// Moves ahead of the game, the next one last.
    redo: Vec<Move>,
    selected: Option<usize>,
    /// Moves that share the clicked origin and target, offered to choose.
    choices: Vec<Move>,
    seats: Vec<Seat>,
    setup: Option<SetupEdit>,
    feedback: Feedback,
    paused: bool,
    thinking: Option<Thinking>,
    next_token: u64,
    /// Seeds the bots; bumped for every bot move.
    seed: u64,
    /// The last bot move and its search size.
    last_bot: Option<String>,
    /// Moves were played since the game was started, loaded or saved.
    dirty: bool,
}

impl PlayModel {
    /// The model of a saved state. A variant that no longer compiles falls
    /// back to the standard game, a seat that no longer parses to a human
    /// seat, and a game that no longer replays to a new game, each with a
    /// message.
    pub fn new(saved: &PlaySaved) -> PlayModel {
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
        let mut model = PlayModel {
            game,
            variant,
            redo: Vec::new(),
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
            dirty: false,
        };
        model.fit_seats();
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
    /// The moves ahead of the ply shown, in the order they were played.
    pub fn moves_ahead(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.redo.iter().rev().copied()
    }
    /// The whole line: the moves played, then the moves ahead.
    pub fn line(&self) -> impl Iterator<Item = Move> + '_ {
        self.game.moves().iter().copied().chain(self.moves_ahead())
    }
    /// Whether the board shows the end of the line (nothing to redo).
    pub fn at_end_of_line(&self) -> bool {
        self.redo.is_empty()
    }
    /// The whole line (played moves, then the moves ahead) as the move list
    /// shows it: `1. r b1-b3`, numbered by ply, with the mover's letter.
    pub fn line_texts(&self) -> Vec<String> {
        let v = &self.variant;
        let mut pos = *self.game.start();
        self.line()
            .enumerate()
            .map(|(i, m)| {
                let text = format!(
                    "{}. {} {}",
                    i + 1,
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
        self.game.ply() + self.redo.len()
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
    /// The last bot move and its search size.
    pub fn last_bot(&self) -> Option<&str> {
        self.last_bot.as_deref()
    }
    /// The seed of the next bot move.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// Whether moves were played since the game was started, loaded, opened
    /// or saved (switching away would lose them).
    pub fn is_dirty(&self) -> bool {
        self.dirty
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

    /// What a move does, for the chooser: `e4xd4: lose 1 stone, take 1`,
    /// `e4xxd4: lose both, take 2`, `d4*f6: throw 2 onto f6, knocking off 1`.
    pub fn describe_move(&self, m: Move) -> String {
        let v = &self.variant;
        let g = v.geometry();
        let pos = self.game.position();
        let removed = v.stones_removed(pos, m);
        let what = match m.action() {
            Action::Sow { to, .. } => format!("sow up to {}", g.name(to)),
            Action::Sacrifice { from, .. } => {
                let height = v.stack(pos, from).map_or(0, |(_, h)| h);
                let lose = match (removed.own, height) {
                    (own, h) if own >= h && h == 1 => "lose the wall".to_string(),
                    (own, 2) if own >= 2 => "lose both".to_string(),
                    (own, h) if own >= h => format!("lose all {h}"),
                    (1, _) => "lose 1 stone".to_string(),
                    (own, _) => format!("lose {own} stones"),
                };
                format!("{lose}, take {}", removed.enemy)
            }
            Action::Throw {
                from,
                to,
                direction,
            } => {
                let mut distance = 0;
                let mut at = from;
                while at != to && distance < 64 {
                    let Some(&d) = g.directions().get(direction) else {
                        break;
                    };
                    let Some(next) = g.step(at, d, 1) else { break };
                    at = next;
                    distance += 1;
                }
                let result = if removed.enemy > 0 {
                    format!(", knocking off {}", removed.enemy)
                } else if removed.own > 0 {
                    ": the stone is lost".to_string()
                } else {
                    ": the stone stays as a wall".to_string()
                };
                format!("throw {distance} onto {}{result}", g.name(to))
            }
            Action::Split { cells: (a, b), .. } => {
                format!("walls on {} and {}", g.name(a), g.name(b))
            }
            Action::Swap => "swap seats".to_string(),
        };
        format!("{}: {what}", v.move_to_string(m))
    }

    // --- Changes -------------------------------------------------------

    /// Everything that changes the game or the selection goes through here:
    /// older messages become stale and a search for another ply stops.
    fn changed(&mut self) {
        self.feedback.changed();
        self.selected = None;
        self.choices.clear();
    }

    fn game_changed(&mut self) {
        self.changed();
        self.thinking = None;
    }

    fn fit_seats(&mut self) {
        let n = self.variant.player_count();
        self.seats.resize(n, Seat::Human);
    }

    fn has_human(&self) -> bool {
        self.seats.contains(&Seat::Human)
    }

    /// Replaces the game (and the variant), forgetting the moves ahead.
    fn replace_game(&mut self, variant: Variant, game: Game) {
        self.variant = variant;
        self.fit_seats();
        self.game = game;
        self.redo.clear();
        self.setup = None;
        self.dirty = false;
        self.game_changed();
    }

    /// A new game of the current variant.
    pub fn new_game(&mut self) {
        let game = Game::new(&self.variant);
        self.replace_game(self.variant.clone(), game);
    }

    /// A new game of `variant`; the seats stay (extra colours are human).
    pub fn set_variant(&mut self, variant: Variant) {
        let game = Game::new(&variant);
        self.replace_game(variant, game);
    }

    /// Opens a game given as moves in notation (from the lab). The seats
    /// stay as they are.
    pub fn open_moves(&mut self, variant: Variant, moves: &[String], label: &str) {
        let record = GameRecord {
            variant: variant.name().to_string(),
            start: None,
            moves: moves.to_vec(),
            result: None,
            tags: Default::default(),
        };
        match Game::from_record(&variant, &record) {
            Ok(game) => {
                self.replace_game(variant, game);
                self.feedback.info(format!("opened {label}"));
            }
            Err(e) => self.feedback.error(format!("cannot open {label}: {e}")),
        }
    }

    /// Plays a legal move from the ply shown. The moves ahead stay when it
    /// is the next of them, and are dropped otherwise (a new branch).
    pub fn play(&mut self, m: Move) -> bool {
        if !self.game.play(m) {
            return false;
        }
        if self.redo.last() == Some(&m) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.dirty = true;
        self.game_changed();
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
        let Some(m) = self.game.undo() else {
            return false;
        };
        self.redo.push(m);
        self.game_changed();
        true
    }

    /// One ply forward along the line (→). Returns whether it moved.
    pub fn forward(&mut self) -> bool {
        let Some(m) = self.redo.pop() else {
            return false;
        };
        if self.game.play(m) {
            self.game_changed();
            true
        } else {
            // Cannot happen: the line was played from here.
            self.redo.clear();
            false
        }
    }

    /// Undo: back one ply, and on to the last ply where a human is to move
    /// (when a human plays).
    pub fn undo(&mut self) {
        while self.back() {
            if !self.has_human() || self.seat_of_player(self.turn()) == Seat::Human {
                break;
            }
        }
    }

    /// Redo: forward one ply, and on to the next ply where a human is to
    /// move (when a human plays) or the end of the line.
    pub fn redo(&mut self) {
        while self.forward() {
            if !self.has_human()
                || self.game.outcome().is_some()
                || self.seat_of_player(self.turn()) == Seat::Human
            {
                break;
            }
        }
    }

    /// Shows the position after `ply` plies of the line (0: the start).
    pub fn jump_to(&mut self, ply: usize) {
        while self.game.ply() > ply && self.back() {}
        while self.game.ply() < ply && self.forward() {}
    }

    /// Drops the moves ahead so that bots play on from the ply shown.
    pub fn play_on_from_here(&mut self) {
        if !self.redo.is_empty() {
            self.redo.clear();
            self.dirty = true;
            self.changed();
        }
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

    // --- Clicks on the board ---------------------------------------------

    /// A click on `cell`: selects a stack, plays a move, offers a choice,
    /// paints in set-up mode, or says why nothing happens.
    pub fn click(&mut self, cell: usize) {
        if self.setup.is_some() {
            let brush = self.setup.as_ref().and_then(|s| s.brush);
            self.paint(cell, brush);
            return;
        }
        let name = self.variant.geometry().name(cell);
        if let Some(o) = self.game.outcome() {
            self.feedback.info(format!(
                "the game is over ({}): undo or start a new game",
                self.variant.describe_outcome(o)
            ));
            return;
        }
        let turn = self.turn();
        let mover = possessive(self.player_name(turn));
        if let Seat::Bot(spec) = self.seat_of_player(turn) {
            let wait = if !self.at_end_of_line() {
                ": bots wait while the board shows an earlier ply (→ steps forward, \
                 \"Play on from here\" lets the bot move)"
            } else if self.paused {
                ": bots are paused"
            } else {
                ""
            };
            self.feedback
                .info(format!("it is the {mover} bot's turn ({spec}){wait}"));
            return;
        }
        let legal = self.game.legal_moves();
        if let Some(from) = self.selected {
            let hits: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.origin() == Some(from) && m.targets().any(|t| t == cell))
                .collect();
            match hits.len() {
                0 => {}
                1 => {
                    self.play(hits[0]);
                    return;
                }
                _ => {
                    self.changed();
                    self.selected = Some(from);
                    self.choices = hits;
                    self.feedback.info(format!(
                        "{} moves go from {} to {name}: choose one",
                        self.choices.len(),
                        self.variant.geometry().name(from)
                    ));
                    return;
                }
            }
        }
        let was = self.selected;
        let origin = legal.iter().any(|m| m.origin() == Some(cell));
        self.changed();
        if origin && was != Some(cell) {
            self.selected = Some(cell);
            return;
        }
        if was == Some(cell) {
            return; // a second click on the selection deselects it
        }
        let why = match (was, self.variant.stack(self.game.position(), cell)) {
            (Some(from), _) => format!(
                "{} cannot move to {name}: its moves end on the dotted cells",
                self.variant.geometry().name(from)
            ),
            (None, None) => format!("{name} is empty: click one of the {mover} stacks to move it"),
            (None, Some((owner, h))) if owner != turn => format!(
                "{name} holds a {} {}: it is the {mover} turn",
                self.player_name(owner),
                height_name(h)
            ),
            (None, Some((_, h))) if !self.height_can_act(h) => format!(
                "the {mover} {what} on {name} cannot move: a {what} never moves in this variant",
                what = height_name(h)
            ),
            (None, Some((_, h))) => format!(
                "the {mover} {} on {name} has no legal move here",
                height_name(h)
            ),
        };
        self.feedback.info(why);
    }

    /// Whether a stack of height `h` can ever act (sow, sacrifice or throw)
    /// under the variant's rules.
    fn height_can_act(&self, h: u8) -> bool {
        let r = self.variant.rules();
        r.sow.as_ref().is_some_and(|s| s.heights.contains(&h))
            || r.sacrifices.iter().any(|s| s.attacker == h)
            || r.catapult.as_ref().is_some_and(|c| c.height == h)
    }

    // --- Positions and records ---------------------------------------------

    /// Starts a game from a position string; a message says what is wrong
    /// with it.
    pub fn load_position(&mut self, text: &str) -> bool {
        match self.variant.parse_position(text) {
            Ok(pos) => {
                let game = Game::from_position(&self.variant, pos);
                self.replace_game(self.variant.clone(), game);
                self.feedback.info("position loaded");
                true
            }
            Err(e) => {
                self.feedback.error(e.to_string());
                false
            }
        }
    }

    /// Replays a record (JSON) of this variant or a shipped one.
    pub fn load_record(&mut self, json: &str) -> bool {
        let record = match GameRecord::from_json(json) {
            Ok(r) => r,
            Err(e) => {
                self.feedback.error(e.to_string());
                return false;
            }
        };
        let variant = if record.variant == self.variant.name() {
            Some(self.variant.clone())
        } else {
            Variant::builtin(&record.variant)
        };
        let Some(variant) = variant else {
            self.feedback.error(format!(
                "unknown variant `{}` (open it in Rules and press Play this variant first)",
                record.variant
            ));
            return false;
        };
        match Game::from_record(&variant, &record) {
            Ok(game) => {
                self.replace_game(variant, game);
                self.feedback.info("record loaded");
                true
            }
            Err(e) => {
                self.feedback.error(e.to_string());
                false
            }
        }
    }

    /// The game so far as a pretty-printed record.
    pub fn record_json(&self) -> String {
        let record = self.game.record();
        serde_json::to_string_pretty(&record).unwrap_or_else(|_| record.to_json())
    }

    /// Writes the record to `path`.
    pub fn save_record(&mut self, path: &Path) -> bool {
        match files::write(path, &self.record_json()) {
            Ok(m) => {
                self.dirty = false;
                self.feedback.set(m);
                true
            }
            Err(m) => {
                self.feedback.set(m);
                false
            }
        }
    }

    /// Reads a record from `path` and replays it.
    pub fn open_record(&mut self, path: &Path) -> bool {
        match std::fs::read_to_string(path) {
            Ok(text) => self.load_record(&text),
            Err(e) => {
                self.feedback.error(format!("{}: {e}", path.display()));
                false
            }
        }
    }

    // --- Set-up mode ---------------------------------------------------------

    /// Enters set-up mode with the position shown.
    pub fn start_setup(&mut self) {
        self.changed();
        self.thinking = None;
        self.setup = Some(SetupEdit {
            setup: Setup::from(self.game.position()),
            brush: Some((0, 2.min(self.variant.rules().stack_limit))),
            problems: Vec::new(),
            notes: Vec::new(),
            position: None,
        });
        self.check_setup();
    }

    /// Leaves set-up mode, keeping the game.
    pub fn cancel_setup(&mut self) {
        if self.setup.take().is_some() {
            self.changed();
        }
    }

    /// Starts a game from the set-up, when it has no problems.
    pub fn finish_setup(&mut self) -> bool {
        let Some(pos) = self.setup.as_ref().and_then(|s| s.position) else {
            return false;
        };
        let game = Game::from_position(&self.variant, pos);
        self.replace_game(self.variant.clone(), game);
        true
    }

    /// What a click paints in set-up mode.
    pub fn set_brush(&mut self, brush: Option<(usize, u8)>) {
        if let Some(s) = &mut self.setup {
            s.brush = brush;
        }
    }

    /// Puts `stack` on `cell` (set-up mode).
    pub fn paint(&mut self, cell: usize, stack: Option<(usize, u8)>) {
        self.edit_setup(|s| {
            s.set_stack(cell, stack);
        });
    }

    /// Sets the side to move (set-up mode).
    pub fn set_setup_turn(&mut self, player: usize) {
        self.edit_setup(|s| s.set_turn(player));
    }

    /// Sets the opening phase (set-up mode).
    pub fn set_setup_phase(&mut self, phase: Phase) {
        self.edit_setup(|s| s.set_phase(phase));
    }

    /// Marks a player eliminated or not (set-up mode).
    pub fn set_setup_out(&mut self, player: usize, out: bool) {
        self.edit_setup(|s| s.set_out(player, out));
    }

    /// Empties the board (set-up mode).
    pub fn clear_setup(&mut self) {
        self.edit_setup(Setup::clear_stacks);
    }

    /// The variant's start position (set-up mode).
    pub fn reset_setup(&mut self) {
        let start = Setup::from(self.variant.start());
        self.edit_setup(|s| *s = start);
    }

    fn edit_setup(&mut self, edit: impl FnOnce(&mut Setup)) {
        let Some(s) = &mut self.setup else { return };
        edit(&mut s.setup);
        self.changed();
        self.check_setup();
    }

    fn check_setup(&mut self) {
        let v = &self.variant;
        let Some(s) = &mut self.setup else { return };
        s.problems = s.setup.problems(v);
        s.notes.clear();
        s.position = None;
        if s.problems.is_empty() {
            match s.setup.build(v) {
                Ok(pos) => {
                    if let Some(o) = v.outcome(&pos) {
                        s.notes.push(format!(
                            "the game is already over: {}",
                            v.describe_outcome(o)
                        ));
                    } else if v.legal_moves(&pos).is_empty() {
                        s.notes
                            .push("the side to move has no legal move".to_string());
                    }
                    s.position = Some(pos);
                }
                Err(e) => s.problems.push(e),
            }
        }
    }

    // --- Bots ---------------------------------------------------------------

    /// The bot turn to search now, if one is due: a bot's colour is to move
    /// at the end of the line, bots are not paused, no set-up is being
    /// edited and no bot is thinking already. The model then waits for
    /// [`PlayModel::bot_replied`] with the turn's token.
    pub fn start_bot(&mut self) -> Option<BotTurn> {
        if self.thinking.is_some()
            || self.paused
            || self.setup.is_some()
            || !self.at_end_of_line()
            || self.game.outcome().is_some()
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
                self.redo.clear();
                self.dirty = true;
                self.game_changed();
                self.last_bot = Some(format!(
                    "{} ({}): {} after {} nodes",
                    self.player_name(t.player),
                    t.spec,
                    self.variant.move_to_string(m),
                    reply.nodes
                ));
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
    fn the_moves_ahead_stay_until_another_move_is_played() {
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
        // Another move starts a new branch.
        assert!(m.play_text("d7-d5"));
        assert!(m.at_end_of_line());
        assert_eq!(m.line_len(), 2);
        m.jump_to(0);
        assert_eq!(m.game().ply(), 0);
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
        m.play_on_from_here();
        assert!(m.at_end_of_line());
        assert!(m.start_bot().is_some(), "and plays on from here");
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
        m.paint(a7, Some((0, 1)));
        let edit = m.setup().unwrap();
        assert_eq!(edit.problem_cells(), [a7]);
        assert!(edit.position().is_none());
        assert!(!m.finish_setup());
        m.paint(a7, None);
        m.clear_setup();
        assert!(m.setup().unwrap().problems().is_empty());
        assert_eq!(
            m.setup().unwrap().notes(),
            ["the game is already over: Gauls win by stalemate"]
        );
        m.reset_setup();
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
        assert_eq!(m.seats(), [Seat::Human, Seat::Bot(BotSpec::Greedy)]);
        assert_eq!(m.game().ply(), 2);
        assert!(!m.is_dirty());
        assert_eq!(
            m.message().map(|x| x.text.as_str()),
            Some("opened lab game #4")
        );
    }
}
