//! The board as each seat sees it (`GET /api/games/{id}/board.svg?seat=N`):
//! the seat's home at the bottom, a spectator's (no seat, or one the game
//! has not) as the first player's; after the pie rule's swap, a seat's
//! new colour's side.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use murus_serve::Server;
use serde_json::{Value, json};
use tower::ServiceExt;

async fn ask(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, String) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let text = body.map(|b| b.to_string()).unwrap_or_default();
    let res = app
        .clone()
        .oneshot(req.body(Body::from(text)).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

async fn new_game(app: &Router, variant: &str) -> (String, String, String) {
    let body = json!({ "variant": variant, "seats": ["human", "human"] });
    let (status, text) = ask(app, "POST", "/api/games", None, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    let token = |i: usize| v["seats"][i]["token"].as_str().unwrap().to_string();
    (v["id"].as_str().unwrap().to_string(), token(0), token(1))
}

/// The top edge (`y`) of cell `cell`'s square in a board's SVG.
fn top_of(svg: &str, cell: &str) -> f64 {
    let at = svg
        .find(&format!(r#"class="cell" data-cell="{cell}""#))
        .unwrap_or_else(|| panic!("{cell} in {svg}"));
    let tag = &svg[svg[..at].rfind('<').unwrap()..at];
    let y = tag.split(" y=\"").nth(1).unwrap();
    y[..y.find('"').unwrap()].parse().unwrap()
}

/// Whether the board `query` asks for has rank 1 at the bottom.
async fn rank_1_below(app: &Router, id: &str, query: &str) -> bool {
    let (status, svg) = ask(
        app,
        "GET",
        &format!("/api/games/{id}/board.svg{query}"),
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{query}: {svg}");
    top_of(&svg, "a1") > top_of(&svg, "a7")
}

#[tokio::test]
async fn each_seat_sees_its_home_at_the_bottom_and_spectators_the_first_players_view() {
    let s = Server::in_memory().unwrap();
    s.add_shipped().unwrap();
    let app = s.router();
    let (id, _, _) = new_game(&app, "standard").await;
    assert!(
        rank_1_below(&app, &id, "?seat=0").await,
        "the Romans' home, rank 1"
    );
    assert!(
        !rank_1_below(&app, &id, "?seat=1").await,
        "the Gauls' home, rank 7"
    );
    for spectator in ["", "?ply=0", "?seat=2", "?seat=x", "?seat=-1"] {
        assert!(rank_1_below(&app, &id, spectator).await, "{spectator}");
    }
}

#[tokio::test]
async fn after_the_pie_rules_swap_each_seat_sees_its_new_colours_side() {
    let s = Server::in_memory().unwrap();
    s.add_shipped().unwrap();
    let app = s.router();
    let (id, first, second) = new_game(&app, "pie").await;
    let uri = format!("/api/games/{id}");
    let (_, g) = ask(&app, "GET", &uri, None, None).await;
    let g: Value = serde_json::from_str(&g).unwrap();
    let moves = format!("{uri}/moves");
    let body = json!({ "move": g["legal_moves"][0], "ply": 0 });
    let (status, text) = ask(&app, "POST", &moves, Some(&first), Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let body = json!({ "move": "swap", "ply": 1 });
    let (status, text) = ask(&app, "POST", &moves, Some(&second), Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    // The second seat now plays the Romans, the first the Gauls.
    assert!(!rank_1_below(&app, &id, "?seat=0").await);
    assert!(rank_1_below(&app, &id, "?seat=1").await);
    assert!(
        rank_1_below(&app, &id, "").await,
        "spectators: the first player's side"
    );
}
