//! The playtest server behind `murus serve`: any rules file in front of
//! people, with legal moves enforced and every game kept.
//!
//! Layers, bottom up: [`time`] (the server's clock, which tests drive),
//! [`store`] (the SQLite database: rules versions, games, seats, moves,
//! clocks, the bots' checks), [`clock`] (a live game's time left from its
//! moves' times), [`games`] (rules versions in memory, seats and
//! their secret tokens, a game's state, playing a person's or a bot's
//! move, a flag that falls), [`live`] (who watches which game), [`bots`]
//! (the bots' figures and whether people and bots agree), [`summary`] (a
//! rules version's games and feedback summed up), [`flags`] (the timers
//! that end live games on time), [`api`] (the JSON API over
//! HTTP, on axum, with its live updates), [`checks`] (the bots' balance
//! check the server runs), [`annotations`] (a finished game annotated by
//! the bots' analysis, on request), [`export`] (a rules version's games as
//! one `.mgn` collection), [`pages`] (the web pages and
//! their calls: the designer's page, `--password`, the player's and
//! spectators' pages), and above them all [`share`] (another program's
//! way in: a server in its process, rules told to a server and a game made
//! with its links) and [`load`] (a load client playing many games at once
//! over TCP, for `murus bench serve` and its test). `docs/playtest.md`
//! documents the API.
//!
//! ```no_run
//! # async fn start() -> Result<(), Box<dyn std::error::Error>> {
//! let server = murus_serve::Server::open(std::path::Path::new("murus-playtest"))?;
//! server.add(murus_engine::Variant::standard())?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! axum::serve(listener, server.router()).await?;
//! # Ok(())
//! # }
//! ```

pub mod annotations;
pub mod api;
pub mod bots;
pub mod checks;
pub mod clock;
pub mod export;
pub mod flags;
pub mod games;
pub mod live;
pub mod load;
pub mod pages;
pub mod share;
pub mod store;
pub mod summary;
pub mod time;

use std::path::Path;
use std::sync::Arc;

use murus_engine::Variant;

use games::{PlayLock, Variants};
use store::{Store, StoreError};

/// What every request shares: the database, the rules versions, and the
/// lock that serializes plays.
#[derive(Debug)]
pub struct Shared {
    pub store: Store,
    pub variants: Variants,
    pub lock: PlayLock,
    pub changes: live::Changes,
    /// The live games' timers.
    pub timers: flags::Timers,
    /// The settings of the bots' checks the server runs.
    pub checks: checks::Checks,
}

/// A playtest server: its database and rules, and the router that serves
/// them.
#[derive(Clone, Debug)]
pub struct Server {
    shared: Arc<Shared>,
    password: Option<pages::password::Password>,
}

impl Server {
    /// The server over the database in `dir` (made if need be); the rules
    /// versions it keeps are played again.
    pub fn open(dir: &Path) -> Result<Server, StoreError> {
        Server::over(Store::open(dir)?)
    }

    /// A server whose database is in memory (tests).
    pub fn in_memory() -> Result<Server, StoreError> {
        Server::over(Store::in_memory()?)
    }

    /// A server over the database in `dir` (`None`: in memory) that reads
    /// the time from `time` (tests drive the clocks of live games).
    pub fn with_time(dir: Option<&Path>, time: time::TimeSource) -> Result<Server, StoreError> {
        let store = match dir {
            Some(d) => Store::open(d)?,
            None => Store::in_memory()?,
        };
        Server::over(store.with_time(time))
    }

    fn over(store: Store) -> Result<Server, StoreError> {
        // A check a stopped server left running is lost: it says so.
        store.abandon_bot_checks()?;
        let variants = Variants::default();
        for (_, source) in store.all_rules()? {
            // A kept version that no longer compiles (a newer rules
            // language) is left out; its games say so when asked.
            if let Ok(v) = Variant::compile(&source) {
                variants.add(&store, v)?;
            }
        }
        Ok(Server {
            shared: Arc::new(Shared {
                store,
                variants,
                lock: PlayLock::default(),
                changes: live::Changes::default(),
                timers: flags::Timers::default(),
                checks: checks::Checks::default(),
            }),
            password: None,
        })
    }

    /// Serves `variant` (a shipped one, or a rules file's): it is kept as a
    /// rules version. Returns its rules key (hex).
    pub fn add(&self, variant: Variant) -> Result<String, StoreError> {
        self.shared.variants.add(&self.shared.store, variant)
    }

    /// The server's bots' checks play `settings` (tests: a few games).
    pub fn with_bot_check(self, settings: checks::Settings) -> Server {
        self.shared.checks.set(settings);
        self
    }

    /// Serves every shipped variant.
    pub fn add_shipped(&self) -> Result<(), StoreError> {
        for (name, _) in murus_engine::BUILTIN {
            if let Some(v) = Variant::builtin(name) {
                self.add(v)?;
            }
        }
        Ok(())
    }

    /// The server with the designer's page and calls behind `password`
    /// (HTTP Basic: see [`pages::password`]).
    pub fn with_password(mut self, password: &str) -> Server {
        self.password = Some(pages::password::Password::new(password));
        self
    }

    /// The routes: the JSON API and the pages.
    pub fn router(&self) -> axum::Router {
        let routes = api::routes()
            .merge(pages::designer::routes())
            .merge(pages::player::routes())
            .merge(pages::summary::routes())
            .merge(pages::replay::routes())
            .merge(checks::routes());
        let router = api::finish(routes, self.shared.clone());
        match &self.password {
            Some(p) => router.layer(axum::middleware::from_fn_with_state(
                p.clone(),
                pages::password::guard,
            )),
            None => router,
        }
    }

    /// Every game of rules version `key` (a key or a served variant's
    /// name) as one `.mgn` collection ([`export::collection`]), and how
    /// many games it holds.
    pub fn export_mgn(&self, key: &str) -> Result<(String, usize), games::GameError> {
        export::collection(&self.shared.store, &self.shared.variants, key)
    }

    /// The finished games of rules version `key` (a key or a served
    /// variant's name) written to `dir` as a lab run folder
    /// ([`export::run_folder`]), and how many games it holds.
    pub fn export_run(
        &self,
        key: &str,
        dir: &std::path::Path,
        force: bool,
    ) -> Result<usize, export::ExportError> {
        let s = &self.shared;
        export::run_folder(&s.store, &s.variants, key, dir, force)
    }

    /// Moves the bots whose turn it is in every game kept (after a
    /// restart: a bot whose turn it was when the server stopped plays),
    /// and arms the live games' clocks (the time the server was down
    /// counts). Needs a tokio runtime.
    pub fn resume_bots(&self) -> Result<(), StoreError> {
        for id in self.shared.store.game_ids()? {
            api::spawn_bots(&self.shared, id);
        }
        flags::arm_all(&self.shared)
    }
}
