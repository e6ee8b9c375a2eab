//! Playtest games: the rules versions the server knows, the seats and
//! their secret tokens, a game's state as the API shows it, and playing a
//! move (a person's, checked against the seat's token and the ply, or a
//! bot's, on the server).

use std::collections::HashMap;
use std::sync::{Mutex, RwLock};

use murus_ai::{Bot, BotSpec, LEVELS};
use murus_engine::job::HandlerExt;
use murus_engine::{Game, GameRecord, RecordResult, Variant};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::clock::{ClockView, Clocks};
use crate::live::Changes;
use crate::store::{ClockSpec, Ending, Feedback, GameRow, SeatRow, Store, StoreError};

/// Why a request about a game was refused; each is an HTTP status and a
/// sentence.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error("no game `{0}` here")]
    NoGame(String),
    #[error("no variant or rules version `{0}` here: give a shipped variant's name or a rules key")]
    NoVariant(String),
    #[error("{0}")]
    BadSeats(String),
    #[error("this move needs the seat's token: Authorization: Bearer TOKEN")]
    NoToken,
    #[error("this token is no seat's of this game")]
    BadToken,
    #[error("it is not this seat's turn: {0} is to move")]
    NotYourTurn(String),
    #[error("the game is over")]
    Over,
    #[error("the game is at ply {now}, not {asked}: reload it")]
    StalePly { now: usize, asked: usize },
    #[error("{0}")]
    Illegal(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the game's record does not replay: {0}")]
    Corrupt(String),
    #[error("feedback comes after the game: this one goes on")]
    NotOver,
    #[error("this invitation has expired: its game ended more than {INVITATION_DAYS} days ago")]
    Expired,
    #[error("{0}")]
    BadFeedback(String),
    #[error("resigning and draws by agreement end two-player games only: this one has {0} players")]
    NotTwoPlayers(usize),
    #[error("time ran out: the game is over, lost on time")]
    Flag,
}

/// The rules versions the server plays, by rules key (hex), and the
/// shipped variants' names.
#[derive(Debug, Default)]
pub struct Variants {
    by_key: RwLock<HashMap<String, Variant>>,
    names: RwLock<HashMap<String, String>>,
}

impl Variants {
    /// Adds `variant`, kept in `store` as a rules version; its key (hex).
    pub fn add(&self, store: &Store, variant: Variant) -> Result<String, StoreError> {
        self.add_version(store, variant, true)
    }

    /// Adds `variant` as [`Variants::add`] does; its name is made to mean
    /// this version only when `bind_name`. Rules with a key kept already
    /// (the same game, retitled or renamed: see [`murus_dsl::RulesKey`])
    /// are that version, kept as it was first; their name is bound only
    /// when it is that version's.
    pub fn add_version(
        &self,
        store: &Store,
        variant: Variant,
        bind_name: bool,
    ) -> Result<String, StoreError> {
        let key = variant.rules_key().to_hex();
        store.add_rules(&key, variant.name(), variant.source())?;
        let name = variant.name().to_string();
        let same_name = {
            let mut by_key = write(&self.by_key);
            let kept = by_key.entry(key.clone()).or_insert(variant);
            kept.name() == name
        };
        if bind_name && same_name {
            write(&self.names).insert(name, key.clone());
        }
        Ok(key)
    }

    /// Whether rules version `key` is kept.
    pub fn has(&self, key: &str) -> bool {
        read(&self.by_key).contains_key(key)
    }

    /// The variant of a rules key, or of a name.
    pub fn find(&self, name_or_key: &str) -> Option<(String, Variant)> {
        let key = read(&self.names)
            .get(name_or_key)
            .cloned()
            .unwrap_or_else(|| name_or_key.to_string());
        let v = read(&self.by_key).get(&key)?.clone();
        Some((key, v))
    }

    /// The rules version `name_or_key` names (a rules key, or a served
    /// variant's name): its key and variant, or [`GameError::NoVariant`]
    /// naming what was asked (at most 64 characters of it).
    pub fn served(&self, name_or_key: &str) -> Result<(String, Variant), GameError> {
        self.find(name_or_key)
            .ok_or_else(|| GameError::NoVariant(name_or_key.chars().take(64).collect()))
    }

    /// The names offered, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = read(&self.names).keys().cloned().collect();
        v.sort();
        v
    }
}

fn read<T>(l: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn write<T>(l: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    l.write().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A fresh secret: 256 random bits from the operating system's generator
/// (through rand's thread generator, a CSPRNG seeded by the OS), in hex.
pub fn secret() -> String {
    let bytes: [u8; 32] = rand::random();
    murus_dsl::key::hex(&bytes)
}

/// The SHA-256 of a token, in hex: what the database keeps of it.
pub fn token_hash(token: &str) -> String {
    murus_dsl::key::hex(&Sha256::digest(token.as_bytes()))
}

/// A seat asked for: `human` or a bot level.
pub fn seat_kind(text: &str) -> Result<String, GameError> {
    let t = text.trim();
    if t == "human" || LEVELS.iter().any(|(n, _)| *n == t) {
        return Ok(t.to_string());
    }
    let levels: Vec<&str> = LEVELS.iter().map(|(n, _)| *n).collect();
    Err(GameError::BadSeats(format!(
        "unknown seat `{}`: expected human or a bot level ({})",
        t.chars().take(40).collect::<String>(),
        levels.join(", ")
    )))
}

/// A seat as the API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// The colour's letter the seat plays at the start.
    pub player: char,
    /// `human` or a bot level.
    pub kind: String,
}

/// A game as `GET /api/games/{id}` shows it.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    pub id: String,
    pub variant: String,
    pub rules_key: String,
    /// The start's position string when it is not the variant's start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The position now, as `murus` writes position strings.
    pub position: String,
    /// The moves in notation.
    pub moves: Vec<String>,
    /// Plies played: the `ply` a move must name.
    pub ply: usize,
    /// The letter of the colour to move; `None` once the game is over.
    pub to_move: Option<char>,
    /// The seat to move; `None` once the game is over.
    pub to_move_seat: Option<usize>,
    /// The legal moves in notation (none once the game is over).
    pub legal_moves: Vec<String>,
    /// The same moves with the cells a player clicks to make them, so that
    /// a page needs no notation of its own.
    pub legal: Vec<LegalMove>,
    /// The cells the last move touched (none before the first move and
    /// after a swap).
    pub last_move_cells: Vec<String>,
    /// The result, once the game is over (by the rules, a resignation
    /// or a draw agreed).
    pub result: Option<RecordResult>,
    /// The letter of the colour whose seat offers a draw at this ply.
    pub draw_offered_by: Option<char>,
    pub seats: Vec<SeatView>,
    /// The clocks of a live game (none for a correspondence game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
}

/// A legal move as a player makes it on a board: the stack it starts
/// from, then the cell (or, for a split, either of the two cells) that
/// finishes it, as [`murus_engine::Move::targets`] says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LegalMove {
    /// The move in notation, as `POST …/moves` takes it.
    #[serde(rename = "move")]
    pub text: String,
    /// The cell of the stack that moves; `None` for a move without one
    /// (the pie rule's swap).
    pub from: Option<String>,
    /// The cells that finish the move once `from` is chosen.
    pub to: Vec<String>,
}

impl LegalMove {
    /// Move `m` of `v` as a player makes it.
    pub fn of(v: &Variant, m: murus_engine::Move) -> LegalMove {
        let g = v.geometry();
        LegalMove {
            text: v.move_to_string(m),
            from: m.origin().map(|c| g.name(c)),
            to: m.targets().map(|c| g.name(c)).collect(),
        }
    }
}

/// A game replayed from its row.
#[derive(Debug)]
pub struct Loaded {
    pub row: GameRow,
    pub game: Game,
    /// A live game's time control and its moves' committed times.
    pub clock: Option<(ClockSpec, Vec<Option<i64>>)>,
    /// The server's time when the game was loaded, in ms.
    pub now: i64,
}

impl Loaded {
    /// The game `id` replayed, with the rules version it plays.
    pub fn load(store: &Store, variants: &Variants, id: &str) -> Result<Loaded, GameError> {
        let row = store
            .game(id)?
            .ok_or_else(|| GameError::NoGame(short(id)))?;
        let (_, v) = variants
            .find(&row.rules_key)
            .ok_or_else(|| GameError::Corrupt(format!("rules {} are not loaded", row.rules_key)))?;
        let record = GameRecord {
            variant: v.name().to_string(),
            start: None,
            moves: row.moves.clone(),
            result: None,
            tags: Default::default(),
        };
        let game = Game::from_record(&v, &record).map_err(|e| GameError::Corrupt(e.to_string()))?;
        let clock = match store.clock_of(id)? {
            Some(spec) => Some((spec, store.move_times(id)?)),
            None => None,
        };
        let now = store.time().now_ms();
        Ok(Loaded {
            row,
            game,
            clock,
            now,
        })
    }

    /// Whether the game is over: by the rules, or ended by people.
    pub fn is_over(&self) -> bool {
        self.row.ending.is_some() || self.game.outcome().is_some()
    }

    /// The colour seat `seat` plays now (the seat's own but after a
    /// pie-rule swap).
    pub(crate) fn colour_of(&self, seat: usize) -> usize {
        let players = self.game.variant().player_count();
        (0..players)
            .find(|&p| self.game.seat_of(p) == seat)
            .unwrap_or(seat)
    }

    /// The result a person's ending gives.
    fn ending_result(&self, e: &Ending) -> RecordResult {
        let v = self.game.variant();
        RecordResult {
            winner: e.winner_seat.map(|s| v.letter(self.colour_of(s))),
            reason: e.reason.clone(),
            by: None,
            winner_seat: e.winner_seat,
        }
    }

    /// The seat to move, if the game goes on.
    pub fn seat_to_move(&self) -> Option<usize> {
        if self.is_over() {
            return None;
        }
        let v = self.game.variant();
        Some(self.game.seat_of(v.turn(self.game.position())))
    }

    /// The seat whose token `token` is: refused without a token, or with
    /// one that is no seat's of this game.
    pub fn seat_of_token(&self, token: Option<&str>) -> Result<usize, GameError> {
        let hash = token_hash(token.ok_or(GameError::NoToken)?);
        self.row
            .seats
            .iter()
            .find(|s| s.token_hash.as_deref() == Some(hash.as_str()))
            .map(|s| s.seat)
            .ok_or(GameError::BadToken)
    }

    /// The bot level whose turn it is, if a bot's.
    pub fn bot_to_move(&self) -> Option<String> {
        let seat = self.seat_to_move()?;
        let s = self.row.seats.iter().find(|s| s.seat == seat)?;
        (s.kind != "human").then(|| s.kind.clone())
    }

    /// The game as the API shows it.
    pub fn view(&self) -> GameView {
        let g = &self.game;
        let v = g.variant();
        let over = self.is_over();
        let to_move = (!over).then(|| v.letter(v.turn(g.position())));
        let record = g.record();
        let result = match &self.row.ending {
            Some(e) => Some(self.ending_result(e)),
            None => record.result,
        };
        let legal: Vec<LegalMove> = if over {
            Vec::new()
        } else {
            g.legal_moves()
                .into_iter()
                .map(|m| LegalMove::of(v, m))
                .collect()
        };
        let last_move_cells = g
            .moves()
            .last()
            .map(|&m| {
                if m.origin().is_none() {
                    Vec::new()
                } else {
                    let geo = v.geometry();
                    v.move_cells(m).into_iter().map(|c| geo.name(c)).collect()
                }
            })
            .unwrap_or_default();
        let draw_offered_by = match self.row.offer {
            Some((seat, ply)) if ply == g.ply() && !over => Some(v.letter(self.colour_of(seat))),
            _ => None,
        };
        GameView {
            id: self.row.id.clone(),
            variant: v.name().to_string(),
            rules_key: self.row.rules_key.clone(),
            start: record.start,
            position: v.position_string(g.position()),
            moves: record.moves,
            ply: g.ply(),
            to_move,
            to_move_seat: self.seat_to_move(),
            legal_moves: legal.iter().map(|m| m.text.clone()).collect(),
            legal,
            last_move_cells,
            result,
            draw_offered_by,
            clock: self.clocks().map(|c| c.view),
            seats: self
                .row
                .seats
                .iter()
                .map(|s| SeatView {
                    player: v.letter(s.seat.min(v.player_count().saturating_sub(1))),
                    kind: s.kind.clone(),
                })
                .collect(),
        }
    }
}

impl Loaded {
    /// A live game's clocks at the time it was loaded; once the game is
    /// over no clock runs (a seat that lost on time shows 0).
    pub fn clocks(&self) -> Option<Clocks> {
        let (spec, times) = self.clock.as_ref()?;
        let v = self.game.variant();
        let mut g = Game::new(v);
        let mut plies = Vec::new();
        for (&m, &at) in self.game.moves().iter().zip(times) {
            plies.push((g.seat_of(v.turn(g.position())), at));
            g.play(m);
        }
        let clocked: Vec<bool> = self.row.seats.iter().map(|s| s.kind == "human").collect();
        let on_time = self
            .row
            .ending
            .as_ref()
            .is_some_and(|e| e.reason == murus_engine::record::TIME);
        let to_move = if self.is_over() && !on_time {
            None
        } else {
            Some(self.game.seat_of(v.turn(self.game.position())))
        };
        let mut c = crate::clock::clocks(*spec, &clocked, &plies, to_move, self.now);
        if self.is_over() {
            c.view.running = None;
            c.flag_at = None;
        }
        Some(c)
    }

    /// Whether the seat to move has run out of time (a live game going on).
    pub fn flag_fell(&self) -> bool {
        !self.is_over() && self.clocks().is_some_and(|c| c.flag_fell())
    }

    /// Ends the game on time if the seat to move has run out of it: the
    /// other seat wins. Whether it ended so.
    fn settle_flag(&mut self, store: &Store) -> Result<bool, GameError> {
        if !self.flag_fell() {
            return Ok(false);
        }
        let Some(loser) = self.seat_to_move() else {
            return Ok(false);
        };
        self.end(
            store,
            Ending {
                winner_seat: Some(1 - loser.min(1)),
                reason: murus_engine::record::TIME.to_string(),
            },
        )?;
        Ok(true)
    }
}

/// Ends game `id` on time if the seat to move has run out of it (a live
/// game): the game, when it ended so now.
pub fn flag_for(
    store: &Store,
    variants: &Variants,
    lock: &PlayLock,
    id: &str,
) -> Result<Option<Loaded>, GameError> {
    let _held = lock.hold(id);
    let mut loaded = Loaded::load(store, variants, id)?;
    Ok(loaded.settle_flag(store)?.then_some(loaded))
}

/// At most 16 characters of an id, for messages.
fn short(id: &str) -> String {
    id.chars().take(16).collect()
}

/// The seats of a new game of `v`: the kinds asked for, a token for each
/// person's seat. Returns the rows to keep and each person's token.
pub fn new_seats(
    v: &Variant,
    asked: &[String],
) -> Result<(Vec<SeatRow>, Vec<Option<String>>), GameError> {
    let players = v.player_count();
    if asked.len() != players {
        return Err(GameError::BadSeats(format!(
            "{} has {players} seats: give one kind a seat (human or a bot level), {} given",
            v.name(),
            asked.len()
        )));
    }
    let mut rows = Vec::new();
    let mut tokens = Vec::new();
    for (seat, text) in asked.iter().enumerate() {
        let kind = seat_kind(text)?;
        let token = (kind == "human").then(secret);
        rows.push(SeatRow {
            seat,
            kind,
            token_hash: token.as_deref().map(token_hash),
        });
        tokens.push(token);
    }
    Ok((rows, tokens))
}

/// Serializes each game's checks-and-plays, so that two moves at one ply
/// of a game are decided one after the other (the database's `(game,
/// ply)` key decides too); other games' plays go on meanwhile. A striped
/// set of locks: a game's is picked by its id's hash (two games may share
/// one, which only makes one wait).
#[derive(Debug)]
pub struct PlayLock(Vec<Mutex<()>>);

/// The locks of a [`PlayLock`].
const STRIPES: usize = 64;

impl Default for PlayLock {
    fn default() -> PlayLock {
        PlayLock((0..STRIPES).map(|_| Mutex::new(())).collect())
    }
}

impl PlayLock {
    /// Holds game `id`'s lock.
    fn hold(&self, id: &str) -> std::sync::MutexGuard<'_, ()> {
        let i = murus_engine::util::fnv1a(id.as_bytes()) % self.0.len() as u64;
        self.0[i as usize]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Plays `text` at `ply` in game `id` for the holder of `token`: checked
/// and committed, or refused with why.
pub fn play_for(
    store: &Store,
    variants: &Variants,
    lock: &PlayLock,
    id: &str,
    token: Option<&str>,
    text: &str,
    ply: usize,
) -> Result<Loaded, GameError> {
    let _held = lock.hold(id);
    let mut loaded = Loaded::load(store, variants, id)?;
    let seat = loaded.seat_of_token(token)?;
    // A move that comes after the flag fell is refused: the game is over.
    if loaded.settle_flag(store)? {
        return Err(GameError::Flag);
    }
    let Some(mover) = loaded.seat_to_move() else {
        return Err(GameError::Over);
    };
    if ply != loaded.game.ply() {
        return Err(GameError::StalePly {
            now: loaded.game.ply(),
            asked: ply,
        });
    }
    if seat != mover {
        let v = loaded.game.variant();
        let who = v.player_name(v.turn(loaded.game.position()));
        return Err(GameError::NotYourTurn(who));
    }
    let m = loaded
        .game
        .play_str(text)
        .map_err(|e| GameError::Illegal(e.to_string()))?;
    let written = loaded.game.variant().move_to_string(m);
    if !store.add_move(id, ply, &written)? {
        return Err(GameError::StalePly {
            now: ply + 1,
            asked: ply,
        });
    }
    loaded.row.moves.push(written);
    if let Some((_, times)) = &mut loaded.clock {
        // Committed a moment after the game was loaded: its time then.
        times.push(Some(loaded.now));
    }
    Ok(loaded)
}

/// Plays the bots' moves of game `id` while a bot is to move, each
/// committed as it is chosen and told to the game's watchers. A bot
/// searches within its level's time bound.
pub fn play_bots(
    store: &Store,
    variants: &Variants,
    lock: &PlayLock,
    changes: &Changes,
    id: &str,
) -> Result<(), GameError> {
    loop {
        let loaded = Loaded::load(store, variants, id)?;
        let Some(level) = loaded.bot_to_move() else {
            return Ok(());
        };
        let spec: BotSpec = LEVELS
            .iter()
            .find(|(n, _)| *n == level)
            .map(|(_, s)| s.clone())
            .ok_or_else(|| GameError::BadSeats(format!("unknown bot level `{level}`")))?;
        let ply = loaded.game.ply();
        let seed = murus_engine::util::fnv1a(format!("{id}/{ply}").as_bytes());
        let mut bot = Bot::new(spec.clone(), seed);
        let deadline = spec.time_bound().map(|d| std::time::Instant::now() + d);
        let handler = ().until(deadline);
        let Some(m) = bot.choose_in_game_with(&loaded.game, &handler) else {
            return Ok(());
        };
        let text = loaded.game.variant().move_to_string(m);
        let _held = lock.hold(id);
        // A move at this ply already (another bot runner was first): go on
        // from the game as it is.
        if store.add_move(id, ply, &text)? {
            changes.notify(id);
        }
    }
}

/// Game `id` loaded for the holder of `token` to end it, and the token's
/// seat: refused once the game is over, and for a game of more than two
/// players (where resigning and draws by agreement are not defined).
fn going_on_between_two(
    store: &Store,
    variants: &Variants,
    id: &str,
    token: Option<&str>,
) -> Result<(Loaded, usize), GameError> {
    let mut loaded = Loaded::load(store, variants, id)?;
    let seat = loaded.seat_of_token(token)?;
    if loaded.settle_flag(store)? {
        return Err(GameError::Flag);
    }
    if loaded.is_over() {
        return Err(GameError::Over);
    }
    let players = loaded.game.variant().player_count();
    if players != 2 {
        return Err(GameError::NotTwoPlayers(players));
    }
    Ok((loaded, seat))
}

impl Loaded {
    /// Ends the game as `ending` says, committed; refused when it had
    /// ended already.
    fn end(&mut self, store: &Store, ending: Ending) -> Result<(), GameError> {
        if !store.end(&self.row.id, &ending)? {
            return Err(GameError::Over);
        }
        self.row.ending = Some(ending);
        Ok(())
    }
}

/// The holder of `token` resigns game `id` (a two-player game): the other
/// seat wins.
pub fn resign_for(
    store: &Store,
    variants: &Variants,
    lock: &PlayLock,
    id: &str,
    token: Option<&str>,
) -> Result<Loaded, GameError> {
    let _held = lock.hold(id);
    let (mut loaded, seat) = going_on_between_two(store, variants, id, token)?;
    loaded.end(
        store,
        Ending {
            winner_seat: Some(1 - seat.min(1)),
            reason: murus_engine::record::RESIGNATION.to_string(),
        },
    )?;
    Ok(loaded)
}

/// The holder of `token` offers a draw in game `id`, or accepts the draw
/// the other seat offers at this ply: the game ends drawn, by agreement
/// (two-player games, as resigning). An offer stands until the next move.
pub fn draw_for(
    store: &Store,
    variants: &Variants,
    lock: &PlayLock,
    id: &str,
    token: Option<&str>,
) -> Result<Loaded, GameError> {
    let _held = lock.hold(id);
    let (mut loaded, seat) = going_on_between_two(store, variants, id, token)?;
    let ply = loaded.game.ply();
    let accepted = loaded
        .row
        .offer
        .is_some_and(|(by, at)| by != seat && at == ply);
    if accepted {
        loaded.end(
            store,
            Ending {
                winner_seat: None,
                reason: "agreement".to_string(),
            },
        )?;
    } else {
        store.offer_draw(id, seat, ply)?;
        loaded.row.offer = Some((seat, ply));
    }
    Ok(loaded)
}

/// The longest feedback text taken, in characters.
pub const MAX_FEEDBACK: usize = 4000;

/// How long a seat's invitation serves after its game ended, in days:
/// time enough to give feedback; after it the token answers 403.
pub const INVITATION_DAYS: i64 = 30;

/// The holder of `token` gives feedback on game `id`, once it is over and
/// until its invitation expires ([`INVITATION_DAYS`] after the end).
pub fn feedback_for(
    store: &Store,
    variants: &Variants,
    id: &str,
    token: Option<&str>,
    f: &Feedback,
) -> Result<(), GameError> {
    let loaded = Loaded::load(store, variants, id)?;
    let seat = loaded.seat_of_token(token)?;
    if !loaded.is_over() {
        return Err(GameError::NotOver);
    }
    if store
        .ended_at_ms(id)?
        .is_some_and(|end| loaded.now > end.saturating_add(INVITATION_DAYS * 86_400_000))
    {
        return Err(GameError::Expired);
    }
    for (what, n) in [("fun", f.fun), ("clarity", f.clarity)] {
        if !(1..=5).contains(&n) {
            return Err(GameError::BadFeedback(format!(
                "{what} is from 1 to 5, not {n}"
            )));
        }
    }
    let chars = f.text.chars().count();
    if chars > MAX_FEEDBACK {
        return Err(GameError::BadFeedback(format!(
            "the text is {chars} characters long: at most {MAX_FEEDBACK}"
        )));
    }
    store.add_feedback(id, seat, f)?;
    Ok(())
}
