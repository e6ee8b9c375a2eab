//! The playtest server behind `murus serve`: any rules file in front of
//! people, with legal moves enforced and every game kept.
//!
//! Layers, bottom up: [`store`] (the SQLite database: rules versions,
//! games, seats, moves), [`games`] (rules versions in memory, seats and
//! their secret tokens, a game's state, playing a person's or a bot's
//! move), [`live`] (who watches which game), [`summary`] (a rules
//! version's games and feedback summed up), [`api`] (the JSON API over
//! HTTP, on axum, with its live updates), [`pages`] (the web pages and
//! their calls: the designer's page, `--password`, the player's and
//! spectators' pages), and on top [`load`] (a load client playing many
//! games at once over TCP, for `murus bench serve` and its test).
//! `docs/playtest.md`
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

pub mod api;
pub mod games;
pub mod live;
pub mod load;
pub mod pages;
pub mod store;
pub mod summary;

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

    fn over(store: Store) -> Result<Server, StoreError> {
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
            }),
            password: None,
        })
    }

    /// Serves `variant` (a shipped one, or a rules file's): it is kept as a
    /// rules version. Returns its rules key (hex).
    pub fn add(&self, variant: Variant) -> Result<String, StoreError> {
        self.shared.variants.add(&self.shared.store, variant)
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
            .merge(pages::summary::routes());
        let router = api::finish(routes, self.shared.clone());
        match &self.password {
            Some(p) => router.layer(axum::middleware::from_fn_with_state(
                p.clone(),
                pages::password::guard,
            )),
            None => router,
        }
    }

    /// Moves the bots whose turn it is in every game kept (after a
    /// restart: a bot whose turn it was when the server stopped plays).
    pub fn resume_bots(&self) -> Result<(), StoreError> {
        for id in self.shared.store.game_ids()? {
            api::spawn_bots(&self.shared, id);
        }
        Ok(())
    }
}
