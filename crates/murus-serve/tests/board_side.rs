//! The board as each seat sees it (`GET /api/games/{id}/board.svg?seat=N`):
//! the seat's home at the bottom, a spectator's (no seat, or one the game
//! has not) as the first player's; after the pie rule's swap, a seat's
//! new colour's side.

use axum::Router;
use axum::http::StatusCode;
use serde_json::{Value, json};

mod common;

use common::{call_text, new_game, server};

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
    let (status, svg) = call_text(
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
    let app = server().router();
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
    let app = server().router();
    let (id, first, second) = new_game(&app, "pie").await;
    let uri = format!("/api/games/{id}");
    let (_, g) = call_text(&app, "GET", &uri, None, None).await;
    let g: Value = serde_json::from_str(&g).unwrap();
    let moves = format!("{uri}/moves");
    let body = json!({ "move": g["legal_moves"][0], "ply": 0 });
    let (status, text) =
        call_text(&app, "POST", &moves, Some(&first), Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let body = json!({ "move": "swap", "ply": 1 });
    let (status, text) =
        call_text(&app, "POST", &moves, Some(&second), Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    // The second seat now plays the Romans, the first the Gauls.
    assert!(!rank_1_below(&app, &id, "?seat=0").await);
    assert!(rank_1_below(&app, &id, "?seat=1").await);
    assert!(
        rank_1_below(&app, &id, "").await,
        "spectators: the first player's side"
    );
}
