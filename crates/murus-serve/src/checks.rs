//! The bots' balance check a designer asks the server to run of a rules
//! version (`POST /api/rules/{key}/bots`), in the background, one at a
//! time a version, kept in the database (it outlives a restart: a check a
//! stopped server left running is marked failed, to be asked again); and
//! its state (`GET /api/rules/{key}/bots`). Both behind `--password`.
//!
//! It is `murus balance`'s library call (`murus_lab::balance::run_balance`),
//! bounded: one level (`easy` unless the server is told otherwise), a
//! fixed number of games (200), 4 random opening plies a round, no skill
//! trace, one thread (the server keeps its cores for the people playing).

use std::sync::{Arc, RwLock};

use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use murus_lab::balance::{BalanceConfig, Stopping, levels_named, run_balance};

use crate::Shared;
use crate::api::ApiError;
use crate::bots::BotCheck;
use crate::games::GameError;

/// What a check plays: one bot level, a fixed number of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub level: String,
    pub games: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            level: "easy".to_string(),
            games: 200,
        }
    }
}

impl Settings {
    /// The settings in words, as kept with the check.
    pub fn describe(&self) -> String {
        format!(
            "{} games of the {} bot against itself, 4 random opening plies a round",
            self.games, self.level
        )
    }
}

/// The server's settings for the checks it runs.
#[derive(Debug, Default)]
pub struct Checks {
    settings: RwLock<Settings>,
}

impl Checks {
    pub fn settings(&self) -> Settings {
        self.settings
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    pub fn set(&self, s: Settings) {
        *self
            .settings
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = s;
    }
}

/// The routes of the bots' checks.
pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/rules/{key}/bots", get(show).post(start))
        .route("/assets/bots.js", get(script))
}

/// `GET /assets/bots.js`: the summary page's button.
async fn script() -> axum::response::Response {
    use axum::http::{HeaderValue, header};
    use axum::response::IntoResponse;
    let mut res = include_str!("../assets/bots.js").into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    res
}

/// The rules key of `name_or_key`, served.
fn key_of(s: &Shared, name_or_key: &str) -> Result<String, ApiError> {
    Ok(s.variants.served(name_or_key.trim())?.0)
}

/// `GET /api/rules/{key}/bots`: the check of the version, or
/// `{"state": "none"}`.
async fn show(
    State(s): State<Arc<Shared>>,
    key: Result<Path<String>, PathRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Path(key) = key?;
    let key = key_of(&s, &key)?;
    let row = s.store.bot_check(&key).map_err(GameError::from)?;
    Ok(Json(match row {
        Some(r) => serde_json::to_value(BotCheck::of(&r)).unwrap_or_default(),
        None => serde_json::json!({ "state": "none" }),
    }))
}

/// `POST /api/rules/{key}/bots` (a JSON body, `{}`): starts the check in
/// the background; 409 while one runs.
async fn start(
    State(s): State<Arc<Shared>>,
    key: Result<Path<String>, PathRejection>,
    body: Result<Json<serde_json::Map<String, serde_json::Value>>, JsonRejection>,
) -> Result<(StatusCode, Json<BotCheck>), ApiError> {
    let Path(key) = key?;
    // JSON only: a form on another site cannot send it.
    let Json(_) = body?;
    let (key, variant) = s.variants.served(key.trim())?;
    let settings = s.checks.settings();
    if !s
        .store
        .start_bot_check(&key, &settings.describe())
        .map_err(GameError::from)?
    {
        return Err(ApiError {
            status: StatusCode::CONFLICT,
            message: "the bots' check of these rules is running already".into(),
        });
    }
    let shared = s.clone();
    let k = key.clone();
    tokio::task::spawn_blocking(move || {
        let outcome = run(&variant, &settings);
        // A database that fails here leaves the check running until the
        // next start-up marks it failed.
        let _ = shared
            .store
            .finish_bot_check(&k, outcome.as_deref().map_err(String::as_str));
    });
    let row = s
        .store
        .bot_check(&key)
        .map_err(GameError::from)?
        .ok_or_else(|| GameError::NoVariant(key.clone()))?;
    Ok((StatusCode::ACCEPTED, Json(BotCheck::of(&row))))
}

/// The check of `variant` under `settings`: the balance report's JSON.
fn run(variant: &murus_engine::Variant, settings: &Settings) -> Result<String, String> {
    let levels = levels_named(&[settings.level.as_str()]).map_err(|e| e.to_string())?;
    let config = BalanceConfig {
        levels,
        stopping: Stopping::Games(settings.games),
        openings: 4,
        seed: 1,
        threads: 1,
        shard: None,
        skill_games: 0,
        max_plies: None,
        book: None,
    };
    let report = run_balance(variant, &config, None, &()).map_err(|e| e.to_string())?;
    Ok(report.to_json())
}
