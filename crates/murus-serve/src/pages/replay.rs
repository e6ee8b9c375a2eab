//! After a game: its replay page (`GET /replay/{id}`, reachable by the
//! game's id as the spectators' page is), stepping through the board of
//! each ply (`GET /api/games/{id}/board.svg?ply=N`); the bots'
//! annotations on request (`POST`/`GET /api/games/{id}/annotations`, see
//! [`crate::annotations`]); and a rules version's games exported as one
//! `.mgn` collection (`GET /api/rules/{key}/games.mgn`, the designer's,
//! see [`crate::export`]).
//!
//! The page's files are in `assets/` (replay.html, .js, .css); its script
//! writes text with `textContent` only.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use murus_publish::html::escape;

use super::player::{PAGE_POLICY, asset, fill, game_error_page, html, message_page, player_names};
use crate::Shared;
use crate::annotations::{self, AnnotationsView};
use crate::api::ApiError;
use crate::games::Loaded;

const PAGE: &str = include_str!("../../assets/replay.html");
const SCRIPT: &str = include_str!("../../assets/replay.js");
const STYLE: &str = include_str!("../../assets/replay.css");

/// The replay page's routes, the annotations' and the games' export.
pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/replay/{id}", get(page))
        .route("/assets/replay.js", get(script))
        .route("/assets/replay.css", get(style))
        .route(
            "/api/games/{id}/annotations",
            get(annotations_now).post(annotate),
        )
        .route("/api/rules/{key}/games.mgn", get(games_mgn))
}

/// `GET /replay/{id}`: the replay page.
async fn page(State(s): State<Arc<Shared>>, id: Result<Path<String>, PathRejection>) -> Response {
    let Ok(Path(id)) = id else {
        return message_page(StatusCode::NOT_FOUND, "No such game", "no game id here");
    };
    let loaded = match Loaded::load(&s.store, &s.variants, &id) {
        Ok(l) => l,
        Err(e) => return game_error_page(&e),
    };
    let v = loaded.game.variant();
    let names = player_names(v);
    let body = fill(
        PAGE,
        &[
            ("TITLE", &escape(&v.rules().title)),
            ("VARIANT", &escape(v.name())),
            ("ID", &escape(&id)),
            ("RULES_KEY", &escape(&loaded.row.rules_key)),
            ("PLAYERS", &v.player_count().to_string()),
            ("NAMES", &names),
        ],
    );
    html(StatusCode::OK, body, PAGE_POLICY)
}

/// `GET /assets/replay.js`.
async fn script() -> Response {
    asset("text/javascript; charset=utf-8", SCRIPT, false)
}

/// `GET /assets/replay.css`.
async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE, false)
}

/// `GET /api/games/{id}/annotations`: the state of the game's annotations
/// (`none`, `running`, `done`, `failed`) and, once done, each move's.
async fn annotations_now(
    State(s): State<Arc<Shared>>,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<AnnotationsView>, ApiError> {
    let Path(id) = id?;
    Ok(Json(annotations::view(&s, &id)?))
}

/// `POST /api/games/{id}/annotations`: starts annotating a finished game
/// (202), unless done already (200, the annotations). Anyone with the
/// game's id may ask: a run is bounded, and done once a game.
async fn annotate(
    State(s): State<Arc<Shared>>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Result<(StatusCode, Json<AnnotationsView>), ApiError> {
    let Path(id) = id?;
    // As every call that changes something: JSON only, which a form on
    // another site cannot send.
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().starts_with("application/json"));
    if !json {
        return Err(ApiError {
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            message: "asking for annotations takes Content-Type: application/json".into(),
        });
    }
    if !annotations::view(&s, &id)?.finished {
        return Err(ApiError {
            status: StatusCode::CONFLICT,
            message: "annotations come after the game: this one goes on".into(),
        });
    }
    let v = annotations::start(&s, &id)?;
    let status = if v.state == "done" {
        StatusCode::OK
    } else {
        StatusCode::ACCEPTED
    };
    Ok((status, Json(v)))
}

/// `GET /api/rules/{key}/games.mgn`: every game of a rules version as one
/// `.mgn` collection (the designer's, behind `--password`).
async fn games_mgn(
    State(s): State<Arc<Shared>>,
    key: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path(key) = key?;
    let (text, _) = crate::export::collection(&s.store, &s.variants, &key)?;
    let mut res = text.into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-murus-record; charset=utf-8"),
    );
    h.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"playtest-games.mgn\""),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(res)
}
