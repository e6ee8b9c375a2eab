//! The server's database: embedded SQLite in WAL mode, in the data folder.
//! Every write is committed (synchronous FULL) before the request that made
//! it is answered, so a server killed at any moment loses nothing it said
//! it had done.
//!
//! One connection writes; a few more read (WAL lets readers go on while
//! the writer commits), so that showing one game never waits on another
//! game's write. A game is read in one read transaction, a consistent
//! snapshot; a read begun after a write's commit sees that write. Each
//! connection keeps its prepared statements (`prepare_cached`).
//!
//! Tables: `rules` (a rules version: its key, name and text), `games`
//! (a playtest game and the rules version it plays), `seats` (who sits at
//! each colour: a person, whose secret token is kept only as its SHA-256,
//! or a bot level), `moves` (a game's moves in notation, one row a ply:
//! the primary key `(game, ply)` is what makes one of two moves played at
//! the same ply win and the other fail), `endings` (a game ended by a
//! resignation or a draw agreed: the rules end the others themselves) and
//! `offers` (a draw offered, standing at its ply), `feedback` (a player's
//! answers after a game, one a seat), `annotations` (a finished game's
//! moves annotated by the bots' analysis, once: as JSON, and the record
//! `murus analyze --game` writes); `clocks` and `move_times` (live
//! games: `store/clock.rs`), `bot_checks` (`store/bots.rs`).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rusqlite::{Connection, OptionalExtension, params};

use crate::time::TimeSource;

mod bots;
mod clock;
pub use bots::BotCheckRow;
pub use clock::ClockSpec;

/// What went wrong with the database.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot make the data folder {}: {source}", dir.display())]
    Folder {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the playtest database {}: {source}", path.display())]
    Open {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    #[error("the playtest database: {0}")]
    Sql(#[from] rusqlite::Error),
}

/// A seat as the database keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The seat (0 for whoever sits at the first colour at the start).
    pub seat: usize,
    /// `human` or a bot level (`easy`, `medium`, …).
    pub kind: String,
    /// The SHA-256 of the seat's token, in hex; `None` for a bot.
    pub token_hash: Option<String>,
}

/// A game as the database keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub rules_key: String,
    pub seats: Vec<SeatRow>,
    /// The moves in notation, in order.
    pub moves: Vec<String>,
    /// How the game ended, when a person ended it.
    pub ending: Option<Ending>,
    /// A draw offered: the seat and the ply it stands at.
    pub offer: Option<(usize, usize)>,
}

/// A game ended by people: a resignation or a draw agreed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winner's seat; `None` for a draw.
    pub winner_seat: Option<usize>,
    /// `resignation` or `agreement`.
    pub reason: String,
}

fn seat_of(n: i64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// The database.
#[derive(Debug)]
pub struct Store {
    /// The writer (and the reader too, for a database in memory).
    conn: Mutex<Connection>,
    time: TimeSource,
    /// The readers of a database in a file.
    readers: Vec<Mutex<Connection>>,
    /// The reader tried first next.
    next: AtomicUsize,
}

/// Readers of a database in a file.
const READERS: usize = 4;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rules (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    added INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    rules_key TEXT NOT NULL REFERENCES rules(key),
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    token_hash TEXT UNIQUE,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS endings (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    winner_seat INTEGER,
    reason TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS offers (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    seat INTEGER NOT NULL,
    ply INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS feedback (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    fun INTEGER NOT NULL,
    clarity INTEGER NOT NULL,
    again INTEGER NOT NULL,
    text TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    text TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS annotations (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    budget_ms INTEGER NOT NULL,
    moves TEXT NOT NULL,
    record TEXT NOT NULL,
    at INTEGER NOT NULL
);
";

fn lock(m: &Mutex<Connection>) -> std::sync::MutexGuard<'_, Connection> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Seconds since the Unix epoch.
fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

impl Store {
    /// Opens (or makes) `playtest.sqlite` in `dir`, making the folder.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir).map_err(|source| StoreError::Folder {
            dir: dir.to_path_buf(),
            source,
        })?;
        let path = dir.join("playtest.sqlite");
        let conn = Connection::open(&path).map_err(|source| StoreError::Open {
            path: path.clone(),
            source,
        })?;
        let mut store = Store::with(conn).map_err(|source| StoreError::Open {
            path: path.clone(),
            source,
        })?;
        for _ in 0..READERS {
            let reader = Connection::open(&path)
                .and_then(|c| {
                    Store::settings(&c)?;
                    // Pages read in place, not copied: a reader's cache
                    // starts afresh after every write.
                    c.pragma_update(None, "mmap_size", 256 * 1024 * 1024)?;
                    Ok(c)
                })
                .map_err(|source| StoreError::Open {
                    path: path.clone(),
                    source,
                })?;
            store.readers.push(Mutex::new(reader));
        }
        Ok(store)
    }

    /// A database in memory (tests).
    pub fn in_memory() -> Result<Store, StoreError> {
        Ok(Store::with(Connection::open_in_memory()?)?)
    }

    fn with(conn: Connection) -> Result<Store, rusqlite::Error> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        Store::settings(&conn)?;
        conn.execute_batch(SCHEMA)?;
        conn.execute_batch(clock::SCHEMA)?;
        conn.execute_batch(bots::SCHEMA)?;
        Ok(Store {
            conn: Mutex::new(conn),
            time: TimeSource::wall(),
            readers: Vec::new(),
            next: AtomicUsize::new(0),
        })
    }

    /// Every connection's settings.
    fn settings(conn: &Connection) -> Result<(), rusqlite::Error> {
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.set_prepared_statement_cache_capacity(64);
        Ok(())
    }

    /// The writer.
    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        lock(&self.conn)
    }

    /// A reader: a free one if any, else the next in turn (the writer for
    /// a database in memory).
    fn reader(&self) -> std::sync::MutexGuard<'_, Connection> {
        let n = self.readers.len();
        if n == 0 {
            return self.conn();
        }
        let first = self.next.fetch_add(1, Ordering::Relaxed);
        for i in 0..n {
            if let Ok(c) = self.readers[(first + i) % n].try_lock() {
                return c;
            }
        }
        lock(&self.readers[first % n])
    }

    /// Keeps a rules version (nothing changes if its key is kept already).
    pub fn add_rules(&self, key: &str, name: &str, source: &str) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT OR IGNORE INTO rules (key, name, source, added) VALUES (?1, ?2, ?3, ?4)",
            params![key, name, source, now()],
        )?;
        Ok(())
    }

    /// Every rules version kept: `(key, source)`.
    pub fn all_rules(&self) -> Result<Vec<(String, String)>, StoreError> {
        let conn = self.conn();
        let mut q = conn.prepare("SELECT key, source FROM rules ORDER BY added, key")?;
        let rows = q.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Keeps a new game with its seats, in one transaction.
    pub fn add_game(&self, id: &str, rules_key: &str, seats: &[SeatRow]) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "INSERT INTO games (id, rules_key, created) VALUES (?1, ?2, ?3)",
            params![id, rules_key, now()],
        )?;
        for s in seats {
            tx.execute(
                "INSERT INTO seats (game_id, seat, kind, token_hash) VALUES (?1, ?2, ?3, ?4)",
                params![id, s.seat as i64, s.kind, s.token_hash],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The game `id`, if kept.
    pub fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let mut reader = self.reader();
        // One snapshot for all the game's tables.
        let conn = reader.transaction()?;
        let Some(rules_key) = conn
            .prepare_cached("SELECT rules_key FROM games WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?
        else {
            return Ok(None);
        };
        let mut q = conn.prepare_cached(
            "SELECT seat, kind, token_hash FROM seats WHERE game_id = ?1 ORDER BY seat",
        )?;
        let seats = q
            .query_map([id], |r| {
                Ok(SeatRow {
                    seat: seat_of(r.get(0)?),
                    kind: r.get(1)?,
                    token_hash: r.get(2)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        let mut q =
            conn.prepare_cached("SELECT text FROM moves WHERE game_id = ?1 ORDER BY ply")?;
        let moves = q.query_map([id], |r| r.get(0))?.collect::<Result<_, _>>()?;
        let ending = conn
            .prepare_cached("SELECT winner_seat, reason FROM endings WHERE game_id = ?1")?
            .query_row([id], |r| {
                Ok(Ending {
                    winner_seat: r.get::<_, Option<i64>>(0)?.map(seat_of),
                    reason: r.get(1)?,
                })
            })
            .optional()?;
        let offer = conn
            .prepare_cached("SELECT seat, ply FROM offers WHERE game_id = ?1")?
            .query_row([id], |r| Ok((seat_of(r.get(0)?), seat_of(r.get(1)?))))
            .optional()?;
        Ok(Some(GameRow {
            id: id.to_string(),
            rules_key,
            seats,
            moves,
            ending,
            offer,
        }))
    }

    /// The ids of every game, oldest first.
    pub fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        let conn = self.reader();
        let mut q = conn.prepare("SELECT id FROM games ORDER BY created, id")?;
        let rows = q.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Keeps `text` as the move at `ply` of game `id`, committed before it
    /// returns; `Ok(false)` when that ply has a move already (another
    /// request played it first). The move's time, in ms, is kept too (`move_times`: a game's clock
    /// counts from it).
    pub fn add_move(&self, id: &str, ply: usize, text: &str) -> Result<bool, StoreError> {
        let at_ms = self.time.now_ms();
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let added = tx
            .prepare_cached(
                "INSERT OR IGNORE INTO moves (game_id, ply, text, at) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![id, ply as i64, text, at_ms.div_euclid(1000)])?;
        if added == 1 {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO move_times (game_id, ply, at_ms) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![id, ply as i64, at_ms])?;
        }
        tx.commit()?;
        Ok(added == 1)
    }
}

impl Store {
    /// Ends game `id` as `ending` says, committed before it returns;
    /// `Ok(false)` when it had ended already.
    pub fn end(&self, id: &str, ending: &Ending) -> Result<bool, StoreError> {
        let added = self.conn().execute(
            "INSERT OR IGNORE INTO endings (game_id, winner_seat, reason, at) VALUES (?1, ?2, ?3, ?4)",
            params![
                id,
                ending.winner_seat.map(|s| s as i64),
                ending.reason,
                self.time().now_ms().div_euclid(1000)
            ],
        )?;
        Ok(added == 1)
    }

    /// When game `id` ended, in ms since the Unix epoch: when people ended
    /// it, else when its last move was committed (a game the rules ended).
    /// `None` when the database does not know (a game kept before moves'
    /// times were).
    pub fn ended_at_ms(&self, id: &str) -> Result<Option<i64>, StoreError> {
        let conn = self.conn();
        let ended: Option<i64> = conn
            .query_row(
                "SELECT at FROM endings WHERE game_id = ?1",
                params![id],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(secs) = ended {
            return Ok(Some(secs.saturating_mul(1000)));
        }
        Ok(conn.query_row(
            "SELECT MAX(at_ms) FROM move_times WHERE game_id = ?1",
            params![id],
            |r| r.get(0),
        )?)
    }

    /// Keeps `seat`'s draw offer at `ply` (replacing an older one).
    pub fn offer_draw(&self, id: &str, seat: usize, ply: usize) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT OR REPLACE INTO offers (game_id, seat, ply) VALUES (?1, ?2, ?3)",
            params![id, seat as i64, ply as i64],
        )?;
        Ok(())
    }
}

/// A player's answers after a game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Feedback {
    /// How much fun it was, 1 to 5.
    pub fun: u8,
    /// How clear the rules were, 1 to 5.
    pub clarity: u8,
    /// Whether they would play again.
    pub again: bool,
    /// Anything else, in their words.
    #[serde(default)]
    pub text: String,
}

impl Store {
    /// Keeps `seat`'s feedback on game `id` (a second answer replaces the
    /// first).
    pub fn add_feedback(&self, id: &str, seat: usize, f: &Feedback) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT OR REPLACE INTO feedback (game_id, seat, fun, clarity, again, text, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![id, seat as i64, f.fun, f.clarity, f.again, f.text, now()],
        )?;
        Ok(())
    }

    /// The ids of the games of rules version `key`, oldest first.
    pub fn games_of(&self, key: &str) -> Result<Vec<String>, StoreError> {
        let conn = self.reader();
        let mut q =
            conn.prepare("SELECT id FROM games WHERE rules_key = ?1 ORDER BY created, id")?;
        let rows = q.query_map([key], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every feedback on the games of rules version `key`, oldest first.
    pub fn feedback_of(&self, key: &str) -> Result<Vec<Feedback>, StoreError> {
        let conn = self.reader();
        let mut q = conn.prepare(
            "SELECT f.fun, f.clarity, f.again, f.text FROM feedback f \
             JOIN games g ON g.id = f.game_id WHERE g.rules_key = ?1 ORDER BY f.at, f.game_id, f.seat",
        )?;
        let rows = q.query_map([key], |r| {
            Ok(Feedback {
                fun: r.get(0)?,
                clarity: r.get(1)?,
                again: r.get(2)?,
                text: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// A finished game's annotations as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnotationsRow {
    /// The search's budget a position, in milliseconds.
    pub budget_ms: u64,
    /// The moves' annotations, as JSON.
    pub moves: String,
    /// The annotated record, in the record format.
    pub record: String,
}

impl Store {
    /// Keeps game `id`'s annotations (the first kept stays).
    pub fn add_annotations(&self, id: &str, a: &AnnotationsRow) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT OR IGNORE INTO annotations (game_id, budget_ms, moves, record, at) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                id,
                i64::try_from(a.budget_ms).unwrap_or(i64::MAX),
                a.moves,
                a.record,
                now()
            ],
        )?;
        Ok(())
    }

    /// Game `id`'s annotations, if kept.
    pub fn annotations(&self, id: &str) -> Result<Option<AnnotationsRow>, StoreError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT budget_ms, moves, record FROM annotations WHERE game_id = ?1",
                [id],
                |r| {
                    Ok(AnnotationsRow {
                        budget_ms: u64::try_from(r.get::<_, i64>(0)?).unwrap_or(0),
                        moves: r.get(1)?,
                        record: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }
}

impl Store {
    /// When game `id` was made, in seconds since the Unix epoch.
    pub fn created(&self, id: &str) -> Result<Option<i64>, StoreError> {
        Ok(self
            .conn()
            .query_row("SELECT created FROM games WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?)
    }
}
