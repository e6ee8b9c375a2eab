//! Clocks of live games through the JSON API, on a clock the test drives
//! (`TimeSource::manual`): time left after moves with their increment, a
//! flag that falls with nobody playing (the game ends on time and its
//! watchers are told), a move after the flag refused, the time a server
//! was down counted after a restart, and bad clocks refused.

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use murus_serve::Server;
use murus_serve::time::TimeSource;
use serde_json::{Value, json};
use tower::ServiceExt;

mod common;

use common::call;

const T0: i64 = 1_800_000_000_000;

fn server(time: &TimeSource) -> Server {
    let s = Server::with_time(None, time.clone()).unwrap();
    s.add_shipped().unwrap();
    s
}

/// A new game of `variant` with `seats` and `clock`: its id and tokens.
async fn new_game(app: &Router, seats: &[&str], clock: Value) -> (String, Vec<Option<String>>) {
    let body = json!({ "variant": "standard", "seats": seats, "clock": clock }).to_string();
    let (status, v) = call(app, "POST", "/api/games", None, Some(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let tokens = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().map(str::to_string))
        .collect();
    (v["id"].as_str().unwrap().to_string(), tokens)
}

async fn game(app: &Router, id: &str) -> Value {
    let (status, g) = call(app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    g
}

/// Plays the first legal move for `token`; the answer.
async fn play_first(app: &Router, id: &str, token: &str) -> (StatusCode, Value) {
    let g = game(app, id).await;
    let m = g["legal_moves"][0].as_str().unwrap_or("a1-a2").to_string();
    let body = json!({ "move": m, "ply": g["ply"] }).to_string();
    call(
        app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(token),
        Some(&body),
    )
    .await
}

#[tokio::test]
async fn time_left_counts_each_move_and_its_increment() {
    let time = TimeSource::manual(T0);
    let app = server(&time).router();
    let (id, tokens) = new_game(
        &app,
        &["human", "human"],
        json!({"minutes": 1, "increment": 2}),
    )
    .await;
    let (a, b) = (tokens[0].as_deref().unwrap(), tokens[1].as_deref().unwrap());
    let g = game(&app, &id).await;
    assert_eq!(g["clock"]["initial_ms"], 60_000);
    assert_eq!(g["clock"]["increment_ms"], 2_000);
    assert_eq!(g["clock"]["left_ms"], json!([60_000, 60_000]));
    assert_eq!(
        g["clock"]["running"],
        Value::Null,
        "no clock runs before the first move"
    );
    assert_eq!(g["clock"]["at_ms"], T0);
    // The first move is free; then the second seat's clock runs.
    time.advance(30_000);
    assert_eq!(play_first(&app, &id, a).await.0, StatusCode::OK);
    time.advance(5_000);
    let g = game(&app, &id).await;
    assert_eq!(g["clock"]["left_ms"], json!([62_000, 55_000]));
    assert_eq!(g["clock"]["running"], 1);
    let (status, g) = play_first(&app, &id, b).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["clock"]["left_ms"], json!([62_000, 57_000]));
    assert_eq!(g["clock"]["running"], 0);
    time.advance(4_000);
    let g = game(&app, &id).await;
    assert_eq!(g["clock"]["left_ms"], json!([58_000, 57_000]));
    assert_eq!(g["clock"]["at_ms"], T0 + 39_000);
}

/// The next Server-Sent Event's data of `body`, as JSON (within 20 s).
async fn next_event(body: &mut Body) -> Value {
    let mut text = String::new();
    // One deadline for the event, keep-alive comments or not.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let frame = tokio::time::timeout_at(deadline, body.frame())
            .await
            .expect("an event within 20 s")
            .expect("the stream goes on")
            .unwrap();
        let Ok(data) = frame.into_data() else {
            continue;
        };
        text.push_str(std::str::from_utf8(&data).unwrap());
        if let Some((event, _)) = text.split_once("\n\n") {
            if event.starts_with(':') {
                text = text[event.len() + 2..].to_string();
                continue;
            }
            let data = event.split_once("data: ").unwrap().1;
            return serde_json::from_str(data).unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_on_its_own_and_the_watchers_are_told() {
    let time = TimeSource::manual(T0);
    let app = server(&time).router();
    let (id, tokens) = new_game(&app, &["human", "human"], json!({"minutes": 1})).await;
    let (a, b) = (tokens[0].as_deref().unwrap(), tokens[1].as_deref().unwrap());
    assert_eq!(play_first(&app, &id, a).await.0, StatusCode::OK);
    time.advance(10_000);
    assert_eq!(play_first(&app, &id, b).await.0, StatusCode::OK);
    // A spectator watches; nobody plays; the first seat's minute runs out.
    let req = Request::get(format!("/api/games/{id}/events"))
        .body(Body::empty())
        .unwrap();
    let mut body = app.clone().oneshot(req).await.unwrap().into_body();
    let g = next_event(&mut body).await;
    assert_eq!(g["clock"]["running"], 0);
    assert_eq!(g["result"], Value::Null);
    time.advance(59_999);
    time.advance(2);
    let g = next_event(&mut body).await;
    assert_eq!(g["result"]["reason"], "time", "{g}");
    assert_eq!(g["result"]["winner"], "g", "the second colour wins: {g}");
    assert_eq!(g["result"]["winner_seat"], 1);
    assert_eq!(g["clock"]["left_ms"][0], 0);
    assert_eq!(g["clock"]["running"], Value::Null);
    assert_eq!(g["to_move"], Value::Null);
    // A move now is refused: the game is over.
    let body = json!({ "move": "a1-a2", "ply": 2 }).to_string();
    let (status, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(a),
        Some(&body),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    // The summary counts the ending.
    let (_, s) = call(&app, "GET", "/api/rules/standard/summary", None, None).await;
    assert_eq!(s["endings"]["time"], 1, "{s}");
}

#[tokio::test]
async fn a_move_after_the_flag_fell_is_refused_and_ends_the_game() {
    let time = TimeSource::manual(T0);
    let app = server(&time).router();
    let (id, tokens) = new_game(
        &app,
        &["human", "human"],
        json!({"minutes": 1, "increment": 5}),
    )
    .await;
    let (a, b) = (tokens[0].as_deref().unwrap(), tokens[1].as_deref().unwrap());
    assert_eq!(play_first(&app, &id, a).await.0, StatusCode::OK);
    // With the increment the second seat has 65 s after its own move's
    // start: 64.9 s is in time, and 65 s more is not.
    time.advance(59_999);
    assert_eq!(play_first(&app, &id, b).await.0, StatusCode::OK);
    let g = game(&app, &id).await;
    assert_eq!(g["clock"]["left_ms"], json!([65_000, 5_001]));
    time.advance(65_001);
    let (status, e) = play_first(&app, &id, a).await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    let g = game(&app, &id).await;
    assert_eq!(g["result"]["reason"], "time", "{g}");
    assert_eq!(g["result"]["winner_seat"], 1);
    assert_eq!(g["ply"], 2, "the late move was not kept");
}

#[tokio::test]
async fn a_resignation_after_the_flag_fell_is_a_loss_on_time() {
    let time = TimeSource::manual(T0);
    let app = server(&time).router();
    let (id, tokens) = new_game(&app, &["human", "human"], json!({"minutes": 1})).await;
    let (a, b) = (tokens[0].as_deref().unwrap(), tokens[1].as_deref().unwrap());
    assert_eq!(play_first(&app, &id, a).await.0, StatusCode::OK);
    time.advance(61_000);
    // The second seat, out of time, offers a draw: too late.
    let (status, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/draw"),
        Some(b),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    assert!(e["error"].as_str().unwrap().contains("time"), "{e}");
    let g = game(&app, &id).await;
    assert_eq!(g["result"]["reason"], "time");
    assert_eq!(g["result"]["winner_seat"], 0);
}

#[tokio::test]
async fn a_bots_seat_has_no_clock_and_correspondence_games_none_at_all() {
    let time = TimeSource::manual(T0);
    let app = server(&time).router();
    let (id, _) = new_game(
        &app,
        &["human", "easy"],
        json!({"minutes": 3, "increment": 0}),
    )
    .await;
    let g = game(&app, &id).await;
    assert_eq!(g["clock"]["left_ms"], json!([180_000, null]));
    let body = json!({ "variant": "standard", "seats": ["human", "human"] }).to_string();
    let (_, v) = call(&app, "POST", "/api/games", None, Some(&body)).await;
    let g = game(&app, v["id"].as_str().unwrap()).await;
    assert!(g.get("clock").is_none(), "{g}");
}

#[tokio::test]
async fn bad_clocks_are_refused_with_why() {
    let time = TimeSource::manual(T0);
    let app = server(&time).router();
    for (clock, says) in [
        (json!({"minutes": 0}), "minutes"),
        (json!({"minutes": -5, "increment": 3}), "minutes"),
        (json!({"minutes": 5, "increment": -1}), "increment"),
        (json!({"minutes": 100000}), "minutes"),
    ] {
        let body = json!({ "variant": "standard", "seats": ["human", "human"], "clock": clock })
            .to_string();
        let (status, e) = call(&app, "POST", "/api/games", None, Some(&body)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{clock}: {e}");
        assert!(e["error"].as_str().unwrap().contains(says), "{e}");
    }
    for clock in [
        json!({"seconds": 5}),
        json!("5+3"),
        json!({"minutes": "five"}),
    ] {
        let body = json!({ "variant": "standard", "seats": ["human", "human"], "clock": clock })
            .to_string();
        let (status, e) = call(&app, "POST", "/api/games", None, Some(&body)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{clock}: {e}");
    }
    let body = json!({ "variant": "escape4", "seats": ["human", "human", "human", "human"], "clock": {"minutes": 5} }).to_string();
    let (status, e) = call(&app, "POST", "/api/games", None, Some(&body)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"].as_str().unwrap().contains("two-player"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_a_server_was_down_counts_after_a_restart() {
    let dir = std::env::temp_dir().join(format!("murus-clock-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let time = TimeSource::manual(T0);
    let id = {
        let s = Server::with_time(Some(&dir), time.clone()).unwrap();
        s.add_shipped().unwrap();
        let app = s.router();
        let (id, tokens) = new_game(&app, &["human", "human"], json!({"minutes": 1})).await;
        assert_eq!(
            play_first(&app, &id, tokens[0].as_deref().unwrap()).await.0,
            StatusCode::OK
        );
        id
    };
    // Down for two minutes; at start-up the server arms the kept clocks,
    // and the second seat's flag, fallen meanwhile, falls with nobody
    // asking about the game (the summary does not settle flags).
    time.advance(120_000);
    let s = Server::with_time(Some(&dir), time.clone()).unwrap();
    s.add_shipped().unwrap();
    s.resume_bots().unwrap();
    let app = s.router();
    let mut ended = false;
    for _ in 0..200 {
        let (_, sum) = call(&app, "GET", "/api/rules/standard/summary", None, None).await;
        if sum["endings"]["time"] == 1 {
            ended = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(ended, "the timer armed at start-up ended the game");
    let g = game(&app, &id).await;
    assert_eq!(g["result"]["winner_seat"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_the_wall_clock_a_short_flag_falls_by_itself() {
    let s = Server::in_memory().unwrap();
    s.add_shipped().unwrap();
    let app = s.router();
    // 0.6 s each.
    let (id, tokens) = new_game(&app, &["human", "human"], json!({"minutes": 0.01})).await;
    assert_eq!(
        play_first(&app, &id, tokens[0].as_deref().unwrap()).await.0,
        StatusCode::OK
    );
    let req = Request::get(format!("/api/games/{id}/events"))
        .body(Body::empty())
        .unwrap();
    let mut body = app.clone().oneshot(req).await.unwrap().into_body();
    let mut g = next_event(&mut body).await;
    while g["result"].is_null() {
        g = next_event(&mut body).await;
    }
    assert_eq!(g["result"]["reason"], "time");
    assert_eq!(g["result"]["winner_seat"], 0);
}

#[tokio::test]
async fn an_invitation_serves_for_feedback_thirty_days_after_its_game_ended_then_expires() {
    let time = TimeSource::manual(T0);
    let app = server(&time).router();
    let (id, tokens) = new_game(&app, &["human", "human"], Value::Null).await;
    let (a, b) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    assert_eq!(play_first(&app, &id, &a).await.0, StatusCode::OK);
    time.advance(1000);
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&b),
        Some("{}"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let feedback = json!({ "fun": 4, "clarity": 3, "again": true, "text": "fine" }).to_string();
    let url = format!("/api/games/{id}/feedback");
    // A guessed token is no seat's, whenever it comes.
    let guessed = "0".repeat(64);
    let (status, _) = call(&app, "POST", &url, Some(&guessed), Some(&feedback)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    time.advance(29 * 86_400_000);
    let (status, v) = call(&app, "POST", &url, Some(&a), Some(&feedback)).await;
    assert_eq!(status, StatusCode::OK, "day 29: {v}");
    time.advance(2 * 86_400_000);
    let (status, v) = call(&app, "POST", &url, Some(&b), Some(&feedback)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "day 31: {v}");
    assert!(v["error"].as_str().unwrap().contains("expired"), "{v}");
}
