//! The clocks of live games in the database: `clocks` (a game's time
//! control: its starting time and Fischer increment, in ms) and
//! `move_times` (when each move was committed, in ms since the Unix epoch,
//! by the server's [`crate::time::TimeSource`]). Tables of their own, so
//! that a database from an older server opens as it was: its games are
//! correspondence games, and its moves have no times.

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError};
use crate::time::TimeSource;

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS clocks (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    initial_ms INTEGER NOT NULL,
    increment_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS move_times (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
";

/// A live game's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ClockSpec {
    /// Each seat's time at the start, in ms.
    pub initial_ms: i64,
    /// The Fischer increment, in ms: added to a seat's time after each of
    /// its moves.
    pub increment_ms: i64,
}

impl Store {
    /// The server's time source.
    pub fn time(&self) -> &TimeSource {
        &self.time
    }

    /// The store reading the time from `time` (tests drive it).
    pub fn with_time(mut self, time: TimeSource) -> Store {
        self.time = time;
        self
    }

    /// Keeps game `id`'s clock.
    pub fn add_clock(&self, id: &str, spec: ClockSpec) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT OR REPLACE INTO clocks (game_id, initial_ms, increment_ms) VALUES (?1, ?2, ?3)",
            params![id, spec.initial_ms, spec.increment_ms],
        )?;
        Ok(())
    }

    /// Game `id`'s clock; `None` for a correspondence game.
    pub fn clock_of(&self, id: &str) -> Result<Option<ClockSpec>, StoreError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT initial_ms, increment_ms FROM clocks WHERE game_id = ?1",
                [id],
                |r| {
                    Ok(ClockSpec {
                        initial_ms: r.get(0)?,
                        increment_ms: r.get(1)?,
                    })
                },
            )
            .optional()?)
    }

    /// When each move of game `id` was committed, in ply order (`None` for
    /// a move an older server kept without its time).
    pub fn move_times(&self, id: &str) -> Result<Vec<Option<i64>>, StoreError> {
        let conn = self.conn();
        let mut q = conn.prepare(
            "SELECT t.at_ms FROM moves m LEFT JOIN move_times t \
             ON t.game_id = m.game_id AND t.ply = m.ply WHERE m.game_id = ?1 ORDER BY m.ply",
        )?;
        let rows = q.query_map([id], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The ids of the games with a clock.
    pub fn clocked_games(&self) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut q = conn.prepare("SELECT game_id FROM clocks ORDER BY game_id")?;
        let rows = q.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
