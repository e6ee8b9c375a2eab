//! The bots' balance checks the server ran (`bot_checks`: one a rules
//! version, the latest): its state, its settings in words, when it started
//! and finished (ms), and the balance report as `murus balance` writes it
//! (`balance.json`), or why it failed. A table of its own, so that an
//! older database opens as it was.

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError};

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS bot_checks (
    rules_key TEXT PRIMARY KEY REFERENCES rules(key),
    state TEXT NOT NULL,
    settings TEXT NOT NULL,
    started_ms INTEGER NOT NULL,
    finished_ms INTEGER,
    report TEXT,
    error TEXT
);
";

/// A bots' check as the database keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCheckRow {
    /// `running`, `done` or `failed`.
    pub state: String,
    pub settings: String,
    pub started_ms: i64,
    pub finished_ms: Option<i64>,
    /// The balance report's JSON, once done.
    pub report: Option<String>,
    pub error: Option<String>,
}

impl Store {
    /// Starts a check of rules version `key` with `settings`: `Ok(false)`
    /// when one is running already (one at a time a version). A finished
    /// one is replaced.
    pub fn start_bot_check(&self, key: &str, settings: &str) -> Result<bool, StoreError> {
        let added = self.conn().execute(
            "INSERT INTO bot_checks (rules_key, state, settings, started_ms) VALUES (?1, 'running', ?2, ?3) \
             ON CONFLICT (rules_key) DO UPDATE SET state = 'running', settings = excluded.settings, \
             started_ms = excluded.started_ms, finished_ms = NULL, report = NULL, error = NULL \
             WHERE bot_checks.state <> 'running'",
            params![key, settings, self.time.now_ms()],
        )?;
        Ok(added == 1)
    }

    /// Ends the running check of `key`: its report, or why it failed.
    pub fn finish_bot_check(
        &self,
        key: &str,
        outcome: Result<&str, &str>,
    ) -> Result<(), StoreError> {
        let (state, report, error) = match outcome {
            Ok(r) => ("done", Some(r), None),
            Err(e) => ("failed", None, Some(e)),
        };
        self.conn().execute(
            "UPDATE bot_checks SET state = ?2, finished_ms = ?3, report = ?4, error = ?5 \
             WHERE rules_key = ?1 AND state = 'running'",
            params![key, state, self.time.now_ms(), report, error],
        )?;
        Ok(())
    }

    /// The check of rules version `key`, if one was asked for.
    pub fn bot_check(&self, key: &str) -> Result<Option<BotCheckRow>, StoreError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT state, settings, started_ms, finished_ms, report, error FROM bot_checks \
                 WHERE rules_key = ?1",
                [key],
                |r| {
                    Ok(BotCheckRow {
                        state: r.get(0)?,
                        settings: r.get(1)?,
                        started_ms: r.get(2)?,
                        finished_ms: r.get(3)?,
                        report: r.get(4)?,
                        error: r.get(5)?,
                    })
                },
            )
            .optional()?)
    }

    /// Marks the checks a stopped server left running as failed (at
    /// start-up: their games were lost with it; they can be asked again).
    pub fn abandon_bot_checks(&self) -> Result<(), StoreError> {
        self.conn().execute(
            "UPDATE bot_checks SET state = 'failed', finished_ms = ?1, \
             error = 'the server stopped during the check: start it again' WHERE state = 'running'",
            [self.time.now_ms()],
        )?;
        Ok(())
    }
}
