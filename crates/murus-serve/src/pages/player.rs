//! The player's page (`GET /play/{id}?token=…`) and the spectators' page
//! (`GET /watch/{id}`): one template, the board drawn by the server
//! (`GET /api/games/{id}/board.svg`), the page's script playing moves
//! through the JSON API and redrawing on every change it hears of
//! (`GET /api/games/{id}/events`); and a variant's rules sheet
//! (`GET /rules/{key}/sheet`), which the pages link to.
//!
//! The page's files are in `assets/` (HTML, CSS, JS), embedded: the pages
//! work offline, with nothing fetched from elsewhere. Every text a person
//! or a rules file gives is escaped where the server writes it
//! ([`escape`]), and the script writes text with `textContent` only.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use axum::Router;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use murus_publish::html::escape;
use murus_publish::{Diagram, SheetOptions, rules_sheet_html};
use serde::Deserialize;

use crate::Shared;
use crate::games::{GameError, Loaded};

const PAGE: &str = include_str!("../../assets/play.html");
const SCRIPT: &str = include_str!("../../assets/play.js");
const SHARED_SCRIPT: &str = include_str!("../../assets/game.js");
const STYLE: &str = include_str!("../../assets/play.css");
/// A player's controls (a move typed, a draw, resigning): not on a
/// spectator's page.
const CONTROLS: &str = include_str!("../../assets/play-controls.html");

/// What the pages may load: their own script, style and API, nothing else
/// (the board is server SVG put in the page by the script).
pub(super) const PAGE_POLICY: &str = "default-src 'self'; img-src 'self' data:; object-src 'none'; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// What a rules sheet may load: its own inline style, and nothing else.
const SHEET_POLICY: &str =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'";

/// The routes of the player's and the spectators' pages, the board and the
/// rules sheet.
pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/play/{id}", get(play_page))
        .route("/watch/{id}", get(watch_page))
        .route("/api/games/{id}/board.svg", get(board))
        .route("/rules/{key}/sheet", get(sheet))
        .route("/assets/play.js", get(script))
        .route("/assets/game.js", get(shared_script))
        .route("/assets/play.css", get(style))
}

/// An HTML answer with the pages' headers: not cached (a game changes), no
/// referrer sent on (a player's address holds the seat's token), and the
/// content policy `policy`.
pub(super) fn html(status: StatusCode, body: String, policy: &'static str) -> Response {
    let mut res = (status, body).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(policy),
    );
    res
}

/// `template` with each `{{NAME}}` replaced by its value in `values` (in
/// one pass: a value is never read again as the template).
pub(super) fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        match after.find("}}").and_then(|close| {
            let name = &after[..close];
            values
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (close, *v))
        }) {
            Some((close, value)) => {
                out.push_str(value);
                rest = &after[close + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A page that says what went wrong (an unknown game, a database down).
pub(super) fn message_page(status: StatusCode, title: &str, text: &str) -> Response {
    let body = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t}</title>\n<link rel=\"stylesheet\" href=\"/assets/play.css\">\n<link rel=\"icon\" href=\"data:,\">\n</head>\n\
         <body>\n<main class=\"message-page\">\n<h1>{t}</h1>\n<p>{x}</p>\n</main>\n</body>\n</html>\n",
        t = escape(title),
        x = escape(text)
    );
    html(status, body, PAGE_POLICY)
}

/// The page of a game that cannot be shown.
pub(super) fn game_error_page(e: &GameError) -> Response {
    match e {
        GameError::NoGame(_) => message_page(
            StatusCode::NOT_FOUND,
            "No such game",
            &format!("{e}. Check the link you were given: it holds the game's whole id."),
        ),
        _ => message_page(
            StatusCode::SERVICE_UNAVAILABLE,
            "The game cannot be shown",
            &e.to_string(),
        ),
    }
}

/// Who a page is for: a seat's player, or a spectator.
enum Viewer {
    Seat(usize),
    Spectator,
}

/// The players of `v` as the pages list them for their script: an `li` a
/// player, its letter in `data-letter`, its name as text.
pub(super) fn player_names(v: &murus_engine::Variant) -> String {
    (0..v.player_count())
        .map(|p| {
            format!(
                "<li data-letter=\"{}\">{}</li>",
                escape(&v.letter(p).to_string()),
                escape(&v.player_name(p))
            )
        })
        .collect()
}

/// The game page of game `id` (`loaded`) for `viewer`, with `notice` said
/// above the board (a link whose token is wrong).
fn game_page(
    loaded: &Loaded,
    id: &str,
    viewer: Viewer,
    notice: &str,
    status: StatusCode,
) -> Response {
    let v = loaded.game.variant();
    let (mode, seat, controls) = match viewer {
        Viewer::Seat(seat) => ("play", seat.to_string(), CONTROLS),
        Viewer::Spectator => ("watch", String::new(), ""),
    };
    let title = &v.rules().title;
    let names = player_names(v);
    let page = fill(
        PAGE,
        &[
            ("TITLE", &escape(title)),
            ("VARIANT", &escape(v.name())),
            ("ID", &escape(id)),
            ("MODE", mode),
            ("SEAT", &seat),
            ("RULES_KEY", &escape(&loaded.row.rules_key)),
            ("NOTICE", &escape(notice)),
            ("PLAYERS", &v.player_count().to_string()),
            ("NAMES", &names),
            ("CONTROLS", controls),
        ],
    );
    html(status, page, PAGE_POLICY)
}

#[derive(Debug, Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

/// `GET /play/{id}?token=TOKEN`: the player's page for the token's seat.
/// Without a token, or with one that is no seat's, the page is a
/// spectator's and says why.
async fn play_page(
    State(s): State<Arc<Shared>>,
    id: Result<Path<String>, PathRejection>,
    query: Result<Query<TokenQuery>, QueryRejection>,
) -> Response {
    let Ok(Path(id)) = id else {
        return message_page(StatusCode::NOT_FOUND, "No such game", "no game id here");
    };
    let token = query.ok().and_then(|Query(q)| q.token);
    let loaded = match Loaded::load(&s.store, &s.variants, &id) {
        Ok(l) => l,
        Err(e) => return game_error_page(&e),
    };
    match token.as_deref().map(|t| loaded.seat_of_token(Some(t))) {
        Some(Ok(seat)) => game_page(&loaded, &id, Viewer::Seat(seat), "", StatusCode::OK),
        Some(Err(_)) => game_page(
            &loaded,
            &id,
            Viewer::Spectator,
            "This link's token is no seat's of this game: you are watching, not playing.",
            StatusCode::FORBIDDEN,
        ),
        None => game_page(
            &loaded,
            &id,
            Viewer::Spectator,
            "This link has no seat's token: you are watching, not playing. \
             Open the link the game's maker gave your seat to play.",
            StatusCode::OK,
        ),
    }
}

/// `GET /watch/{id}`: the spectators' page.
async fn watch_page(
    State(s): State<Arc<Shared>>,
    id: Result<Path<String>, PathRejection>,
) -> Response {
    let Ok(Path(id)) = id else {
        return message_page(StatusCode::NOT_FOUND, "No such game", "no game id here");
    };
    match Loaded::load(&s.store, &s.variants, &id) {
        Ok(loaded) => game_page(&loaded, &id, Viewer::Spectator, "", StatusCode::OK),
        Err(e) => game_error_page(&e),
    }
}

/// An SVG, script or style answer, not cached when `fresh`.
pub(super) fn asset(
    content_type: &'static str,
    body: impl Into<axum::body::Body>,
    fresh: bool,
) -> Response {
    let body: axum::body::Body = body.into();
    let mut res = body.into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if fresh {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    res
}

#[derive(Debug, Deserialize)]
struct BoardQuery {
    seat: Option<usize>,
    ply: Option<usize>,
}

/// `GET /api/games/{id}/board.svg[?seat=N][&ply=P]`: the position now (or
/// after its first `P` moves: the replay; a ply past the game's is its
/// last) as `murus diagram` draws it, with coordinates, the cells of the
/// move that led to it shaded, seen from the side of seat N's player (their
/// home at the bottom), or without a seat (or with one the game has not)
/// from the first player's. Each cell is an element with `data-cell`.
async fn board(
    State(s): State<Arc<Shared>>,
    id: Result<Path<String>, PathRejection>,
    query: Result<Query<BoardQuery>, QueryRejection>,
) -> Result<Response, crate::api::ApiError> {
    let Path(id) = id?;
    let loaded = Loaded::load(&s.store, &s.variants, &id)?;
    let g = &loaded.game;
    let query = query.ok().map(|Query(q)| q);
    let players = g.variant().player_count();
    let side = match query.as_ref().and_then(|q| q.seat) {
        Some(seat) if seat < players => loaded.colour_of(seat),
        _ => 0,
    };
    let ply = query
        .as_ref()
        .and_then(|q| q.ply)
        .map_or(g.ply(), |n| n.min(g.ply()));
    let position = g.positions().get(ply).copied().unwrap_or(*g.position());
    let mut d = Diagram::new(g.variant(), position)
        .coordinates(true)
        .seen_by(side);
    if let Some(&m) = ply.checked_sub(1).and_then(|i| g.moves().get(i)) {
        d = d.highlight_move(m);
    }
    Ok(asset("image/svg+xml", d.to_svg(), true))
}

/// `GET /assets/game.js`: what the game pages' scripts share.
async fn shared_script() -> Response {
    asset("text/javascript; charset=utf-8", SHARED_SCRIPT, false)
}

/// `GET /assets/play.js`.
async fn script() -> Response {
    asset("text/javascript; charset=utf-8", SCRIPT.to_string(), false)
}

/// `GET /assets/play.css`.
async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE.to_string(), false)
}

/// The rules sheets made, by rules key: a sheet takes a while (its figures
/// are searched for and its example game played), and a rules version
/// never changes.
fn sheets() -> &'static Mutex<HashMap<String, Arc<str>>> {
    static SHEETS: OnceLock<Mutex<HashMap<String, Arc<str>>>> = OnceLock::new();
    SHEETS.get_or_init(Default::default)
}

/// `GET /rules/{key}/sheet`: the rules sheet of a rules version (by its
/// key, or a served variant's name), as `murus sheet` writes it.
async fn sheet(State(s): State<Arc<Shared>>, key: Result<Path<String>, PathRejection>) -> Response {
    let Ok(Path(key)) = key else {
        return message_page(StatusCode::NOT_FOUND, "No such rules", "no rules key here");
    };
    let Some((key, v)) = s.variants.find(key.trim()) else {
        let shown: String = key.chars().take(64).collect();
        return message_page(
            StatusCode::NOT_FOUND,
            "No such rules",
            &format!("no variant or rules version `{shown}` here"),
        );
    };
    let cached = sheets()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(&key)
        .cloned();
    if let Some(page) = cached {
        return html(StatusCode::OK, page.to_string(), SHEET_POLICY);
    }
    let made = tokio::task::spawn_blocking(move || {
        rules_sheet_html(&v, &SheetOptions::default()).map(|page| (key, page))
    })
    .await;
    match made {
        Ok(Ok((key, page))) => {
            sheets()
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(key, Arc::from(page.as_str()));
            html(StatusCode::OK, page, SHEET_POLICY)
        }
        Ok(Err(e)) => message_page(
            StatusCode::UNPROCESSABLE_ENTITY,
            "The rules sheet cannot be made",
            &e.to_string(),
        ),
        Err(_) => message_page(
            StatusCode::SERVICE_UNAVAILABLE,
            "The rules sheet cannot be made",
            "the work making it stopped",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn a_template_is_filled_in_one_pass() {
        assert_eq!(
            fill("<p>{{A}} {{B}} {{C}}</p>", &[("A", "{{B}}"), ("B", "b")]),
            "<p>{{B}} b {{C}}</p>"
        );
    }
}
