//! The JSON API (`docs/playtest.md`): every answer is JSON, an error as
//! `{"error": "…"}` with a 4xx status (or 503 when the database fails);
//! no request, however malformed, panics or answers 500.

use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{Stream, stream};
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;

use crate::Shared;
use crate::games::{self, GameError, GameView, Loaded};

/// The largest request body taken (a rules file is far smaller).
pub const MAX_BODY: usize = 256 * 1024;

/// The routes of the JSON API; [`crate::Server::router`] adds the pages'
/// and what every answer shares ([`finish`]).
pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/variants", get(variants))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/events", get(events))
        .route("/api/games/{id}/feedback", post(feedback))
        .route("/api/rules/{key}/summary", get(summary))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw", post(draw))
}

/// Every route of `routes` as the server answers them over `shared`: an
/// unknown path or method a JSON error, bodies over [`MAX_BODY`] refused.
pub fn finish(routes: Router<Arc<Shared>>, shared: Arc<Shared>) -> Router {
    routes
        .fallback(not_found)
        .method_not_allowed_fallback(not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

/// An error answer: a status and a sentence.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(ErrorBody {
                error: &self.message,
            }),
        )
            .into_response()
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        let status = match &e {
            GameError::NoGame(_) => StatusCode::NOT_FOUND,
            GameError::NoVariant(_)
            | GameError::BadSeats(_)
            | GameError::Illegal(_)
            | GameError::NotTwoPlayers(_)
            | GameError::BadFeedback(_) => StatusCode::UNPROCESSABLE_ENTITY,
            GameError::NoToken | GameError::BadToken => StatusCode::UNAUTHORIZED,
            GameError::NotYourTurn(_) | GameError::Expired => StatusCode::FORBIDDEN,
            GameError::Over | GameError::StalePly { .. } | GameError::NotOver | GameError::Flag => {
                StatusCode::CONFLICT
            }
            GameError::Store(_) | GameError::Corrupt(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError {
            status,
            message: e.to_string(),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        ApiError {
            status: r.status(),
            message: r.body_text(),
        }
    }
}

impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: r.body_text(),
        }
    }
}

async fn not_allowed() -> ApiError {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: "this API call does not take that method".into(),
    }
}

async fn not_found() -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: "no such page or API call".into(),
    }
}

#[derive(Serialize)]
struct VariantList {
    variants: Vec<String>,
}

/// `GET /api/variants`: the names of the variants served.
async fn variants(State(s): State<Arc<Shared>>) -> Json<VariantList> {
    Json(VariantList {
        variants: s.variants.names(),
    })
}

/// `POST /api/games`'s body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// A variant's name or a rules version's key.
    pub variant: String,
    /// A kind a seat, in seat order: `human` or a bot level.
    pub seats: Vec<String>,
    /// A live game's clock (`{"minutes": 5, "increment": 3}`); none for a
    /// correspondence game.
    #[serde(default)]
    pub clock: Option<crate::clock::ClockAsked>,
}

/// A seat of a new game, as `POST /api/games` answers it.
#[derive(Debug, Serialize)]
pub struct NewSeat {
    pub player: char,
    pub kind: String,
    /// The seat's secret token (a person's seat): it alone moves for the
    /// seat. Shown once, never kept in the clear.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The seat's invitation link (a person's seat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// `POST /api/games`'s answer.
#[derive(Debug, Serialize)]
pub struct Created {
    pub id: String,
    pub seats: Vec<NewSeat>,
    pub spectate_url: String,
}

/// `POST /api/games`: a new game of a variant served, with its seats.
async fn create(
    State(s): State<Arc<Shared>>,
    body: Result<Json<NewGame>, JsonRejection>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let Json(asked) = body?;
    let (key, v) = s.variants.served(asked.variant.trim())?;
    let (rows, tokens) = games::new_seats(&v, &asked.seats)?;
    let clock = match &asked.clock {
        None => None,
        Some(_) if v.player_count() != 2 => {
            return Err(GameError::BadSeats(format!(
                "clocks are for two-player games: {} has {} players",
                v.name(),
                v.player_count()
            ))
            .into());
        }
        Some(c) => Some(c.spec().map_err(GameError::BadSeats)?),
    };
    let id = games::secret();
    s.store
        .add_game(&id, &key, &rows)
        .map_err(GameError::from)?;
    if let Some(c) = clock {
        s.store.add_clock(&id, c).map_err(GameError::from)?;
    }
    let seats = rows
        .iter()
        .zip(tokens)
        .map(|(r, token)| NewSeat {
            player: v.letter(r.seat),
            kind: r.kind.clone(),
            url: token.as_ref().map(|t| format!("/play/{id}?token={t}")),
            token,
        })
        .collect();
    spawn_bots(&s, id.clone());
    Ok((
        StatusCode::CREATED,
        Json(Created {
            spectate_url: format!("/watch/{id}"),
            id,
            seats,
        }),
    ))
}

/// `GET /api/games/{id}`: the game now.
async fn show(
    State(s): State<Arc<Shared>>,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<GameView>, ApiError> {
    let Path(id) = id?;
    crate::flags::settle(&s, &id);
    let loaded = Loaded::load(&s.store, &s.variants, &id)?;
    Ok(Json(loaded.view()))
}

/// `POST /api/games/{id}/moves`'s body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    /// The move in notation.
    #[serde(rename = "move")]
    pub text: String,
    /// The ply it is played at: the game's `ply` as last seen.
    pub ply: usize,
}

/// The token of `Authorization: Bearer TOKEN`, if given.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
        .filter(|t| !t.is_empty())
}

/// `POST /api/games/{id}/moves`: a person's move, for the seat whose token
/// is given; committed before the answer.
async fn play(
    State(s): State<Arc<Shared>>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Json<MoveBody>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let Path(id) = id?;
    let token = bearer(&headers);
    // Who may move is said before what is wrong with the body.
    if token.is_none() {
        return Err(GameError::NoToken.into());
    }
    let Json(asked) = body?;
    let played = games::play_for(
        &s.store,
        &s.variants,
        &s.lock,
        &id,
        token,
        &asked.text,
        asked.ply,
    );
    let loaded = match played {
        Ok(l) => l,
        Err(e) => {
            if matches!(e, GameError::Flag) {
                s.changes.notify(&id);
            }
            return Err(e.into());
        }
    };
    s.changes.notify(&id);
    crate::flags::arm(&s, &id);
    spawn_bots(&s, id);
    Ok(Json(loaded.view()))
}

/// One event of a game's stream: `event: game`, its JSON as `GET` shows it.
fn game_event(json: &str) -> Event {
    Event::default().event("game").data(json)
}

/// Game `id` as its watchers are sent it after change `version`: the view
/// another watcher read after that change, or read now (and kept for the
/// others).
fn watched_view(s: &Shared, id: &str, version: u64) -> Option<Arc<str>> {
    if let Some(view) = s.changes.view(id, version) {
        return Some(view);
    }
    let at = s.changes.version(id);
    let view = Loaded::load(&s.store, &s.variants, id).ok()?.view();
    let json: Arc<str> = Arc::from(serde_json::to_string(&view).ok()?);
    s.changes.keep(id, at, json.clone());
    Some(json)
}

/// `GET /api/games/{id}/events`: Server-Sent Events, the game as `GET`
/// shows it now and again after every change, for players and spectators
/// alike (no token needed). A dropped connection that comes back gets
/// the game as it is then.
async fn events(
    State(s): State<Arc<Shared>>,
    id: Result<Path<String>, PathRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let Path(id) = id?;
    // Subscribed before the first read, so that no change falls between.
    let rx = s.changes.subscribe(&id);
    crate::flags::settle(&s, &id);
    let first = Loaded::load(&s.store, &s.variants, &id)?.view();
    let first = serde_json::to_string(&first).unwrap_or_default();
    let stream = stream::unfold(
        (Some(first), rx, s, id),
        |(first, mut rx, s, id)| async move {
            if let Some(json) = first {
                return Some((Ok(game_event(&json)), (None, rx, s, id)));
            }
            let version = match rx.recv().await {
                Ok(v) => v,
                Err(RecvError::Lagged(_)) => s.changes.version(&id),
                Err(RecvError::Closed) => return None,
            };
            let json = watched_view(&s, &id, version)?;
            Some((Ok(game_event(&json)), (None, rx, s, id)))
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// `POST /api/games/{id}/resign`: the token's seat resigns.
async fn resign(
    State(s): State<Arc<Shared>>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    let Path(id) = id?;
    let loaded = games::resign_for(&s.store, &s.variants, &s.lock, &id, bearer(&headers))
        .inspect_err(|e| told_of_flag(&s, &id, e))?;
    s.changes.notify(&id);
    Ok(Json(loaded.view()))
}

/// `POST /api/games/{id}/draw`: the token's seat offers a draw, or accepts
/// the one offered at this ply.
async fn draw(
    State(s): State<Arc<Shared>>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    let Path(id) = id?;
    let loaded = games::draw_for(&s.store, &s.variants, &s.lock, &id, bearer(&headers))
        .inspect_err(|e| told_of_flag(&s, &id, e))?;
    s.changes.notify(&id);
    Ok(Json(loaded.view()))
}

/// `POST /api/games/{id}/feedback`: a player's answers once the game is
/// over (`{fun, clarity, again, text}`), with the seat's token; the
/// answer is what was kept.
async fn feedback(
    State(s): State<Arc<Shared>>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Json<crate::store::Feedback>, JsonRejection>,
) -> Result<Json<crate::store::Feedback>, ApiError> {
    let Path(id) = id?;
    let token = bearer(&headers);
    if token.is_none() {
        return Err(GameError::NoToken.into());
    }
    let Json(f) = body?;
    games::feedback_for(&s.store, &s.variants, &id, token, &f)?;
    Ok(Json(f))
}

/// `GET /api/rules/{key}/summary`: the playtest summary of a rules
/// version (a key or a variant's name).
async fn summary(
    State(s): State<Arc<Shared>>,
    key: Result<Path<String>, PathRejection>,
) -> Result<Json<crate::summary::Summary>, ApiError> {
    let Path(key) = key?;
    Ok(Json(crate::summary::summary(&s.store, &s.variants, &key)?))
}

/// Tells game `id`'s watchers it ended on time when `e` says so.
fn told_of_flag(s: &Shared, id: &str, e: &GameError) {
    if matches!(e, GameError::Flag) {
        s.changes.notify(id);
    }
}

/// Lets the bots of game `id` move, on a blocking thread, while a bot is
/// to move; then arms the game's clock for the person to move. Needs a
/// tokio runtime.
pub fn spawn_bots(s: &Arc<Shared>, id: String) {
    let s = s.clone();
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        // A failure is the game's to say when asked (a corrupt record).
        let played = games::play_bots(&s.store, &s.variants, &s.lock, &s.changes, &id);
        if played.is_ok() {
            let _entered = runtime.enter();
            crate::flags::arm(&s, &id);
        }
    });
}
