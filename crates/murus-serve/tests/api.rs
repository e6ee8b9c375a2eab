//! The JSON API driven through the router: games made, moves played with
//! and without the seat's token, every refusal's status and message, bots
//! moving on the server, and games kept across a restart.

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use murus_serve::Server;
use serde_json::{Value, json};
use tower::ServiceExt;

mod common;

use common::{call, server};

/// A new game of `variant` with `seats`: its id and the seats' tokens.
async fn new_game(app: &Router, variant: &str, seats: &[&str]) -> (String, Vec<Option<String>>) {
    let body = json!({ "variant": variant, "seats": seats }).to_string();
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

fn moved(ply: usize, text: &str) -> String {
    json!({ "move": text, "ply": ply }).to_string()
}

#[tokio::test]
async fn a_game_is_made_with_a_secret_token_a_person_and_links() {
    let app = server().router();
    let body = json!({ "variant": "standard", "seats": ["human", "human"] }).to_string();
    let (status, v) = call(&app, "POST", "/api/games", None, Some(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap();
    let seats = v["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    let tokens: Vec<&str> = seats.iter().map(|s| s["token"].as_str().unwrap()).collect();
    for t in &tokens {
        // At least 128 bits: 256 here, as 64 hex digits.
        assert_eq!(t.len(), 64, "{t}");
        assert!(t.chars().all(|c| c.is_ascii_hexdigit()));
    }
    assert_ne!(tokens[0], tokens[1]);
    assert_eq!(seats[0]["player"], "r");
    assert_eq!(seats[1]["player"], "g");
    assert_eq!(
        seats[0]["url"].as_str().unwrap(),
        format!("/play/{id}?token={}", tokens[0])
    );
    assert_eq!(v["spectate_url"].as_str().unwrap(), format!("/watch/{id}"));
    let (status, g) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["variant"], "standard");
    assert_eq!(g["ply"], 0);
    assert_eq!(g["to_move"], "r");
    assert_eq!(g["moves"], json!([]));
    assert!(g["legal_moves"].as_array().unwrap().len() > 5);
    assert_eq!(g["result"], Value::Null);
    // The tokens are never shown again.
    assert!(!g.to_string().contains(tokens[0]));
}

#[tokio::test]
async fn a_move_needs_the_movers_token_the_current_ply_and_a_legal_move() {
    let app = server().router();
    let (id, tokens) = new_game(&app, "standard", &["human", "human"]).await;
    let (romans, gauls) = (tokens[0].as_deref(), tokens[1].as_deref());
    let uri = format!("/api/games/{id}/moves");
    let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    let first = g["legal_moves"][0].as_str().unwrap().to_string();

    let refused = [
        // A spectator (no token), a guessed token, the other seat's.
        (
            None,
            moved(0, &first),
            StatusCode::UNAUTHORIZED,
            "needs the seat's token",
        ),
        (
            Some("0".repeat(64)),
            moved(0, &first),
            StatusCode::UNAUTHORIZED,
            "no seat's",
        ),
        (
            gauls.map(str::to_string),
            moved(0, &first),
            StatusCode::FORBIDDEN,
            "not this seat's turn",
        ),
        // A stale ply, an illegal move, a move that does not read.
        (
            romans.map(str::to_string),
            moved(3, &first),
            StatusCode::CONFLICT,
            "at ply 0, not 3",
        ),
        (
            romans.map(str::to_string),
            moved(0, "a1-a8"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "",
        ),
        (
            romans.map(str::to_string),
            moved(0, "<script>"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "",
        ),
    ];
    for (token, body, status, says) in refused {
        let (got, v) = call(&app, "POST", &uri, token.as_deref(), Some(&body)).await;
        assert_eq!(got, status, "{body}: {v}");
        let error = v["error"].as_str().expect("an error message");
        assert!(error.contains(says), "{error}");
    }
    let (status, g) = call(&app, "POST", &uri, romans, Some(&moved(0, &first))).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["ply"], 1);
    assert_eq!(g["moves"], json!([first]));
    assert_eq!(g["to_move"], "g");
    // The same ply again: stale.
    let (status, _) = call(&app, "POST", &uri, romans, Some(&moved(0, &first))).await;
    assert_eq!(status, StatusCode::CONFLICT);
    // Now the Gauls' token moves, and the Romans' does not.
    let reply = g["legal_moves"][0].as_str().unwrap().to_string();
    let (status, _) = call(&app, "POST", &uri, romans, Some(&moved(1, &reply))).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, g) = call(&app, "POST", &uri, gauls, Some(&moved(1, &reply))).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["ply"], 2);
}

#[tokio::test]
async fn malformed_requests_get_a_json_error_never_a_500() {
    let app = server().router();
    let (id, tokens) = new_game(&app, "standard", &["human", "human"]).await;
    let t = tokens[0].as_deref();
    let moves = format!("/api/games/{id}/moves");
    let cases: Vec<(&str, String, Option<&str>, Option<String>)> = vec![
        ("POST", "/api/games".into(), None, Some("{".into())),
        ("POST", "/api/games".into(), None, Some("[]".into())),
        (
            "POST",
            "/api/games".into(),
            None,
            Some(r#"{"variant":"standard"}"#.into()),
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            Some(r#"{"variant":"nonesuch","seats":[]}"#.into()),
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            Some(r#"{"variant":"standard","seats":["human"]}"#.into()),
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            Some(r#"{"variant":"standard","seats":["human","ugi:/bin/sh"]}"#.into()),
        ),
        ("POST", moves.clone(), t, Some("not json".into())),
        (
            "POST",
            moves.clone(),
            t,
            Some(r#"{"move":"a1-a2","ply":-1}"#.into()),
        ),
        (
            "POST",
            moves.clone(),
            t,
            Some(r#"{"move":"a1-a2","ply":1e99}"#.into()),
        ),
        (
            "POST",
            moves.clone(),
            t,
            Some(format!(r#"{{"move":"{}","ply":0}}"#, "x".repeat(10_000))),
        ),
        ("GET", "/api/games/%00%ff".into(), None, None),
        (
            "GET",
            format!("/api/games/{}", "z".repeat(5000)),
            None,
            None,
        ),
        (
            "POST",
            "/api/games/nonesuch/moves".into(),
            t,
            Some(moved(0, "a1-a2")),
        ),
        ("GET", "/nowhere".into(), None, None),
        ("DELETE", "/api/games".into(), None, None),
    ];
    for (method, uri, token, body) in cases {
        let (status, v) = call(&app, method, &uri, token, body.as_deref()).await;
        assert!(
            status.is_client_error(),
            "{method} {} {:?}: {status} {v}",
            uri.chars().take(60).collect::<String>(),
            body.as_deref()
                .map(|b| b.chars().take(60).collect::<String>())
        );
        assert!(v["error"].is_string(), "{v}");
    }
    // A body over the limit.
    let big = format!(r#"{{"variant":"{}","seats":[]}}"#, "x".repeat(300_000));
    let (status, v) = call(&app, "POST", "/api/games", None, Some(&big)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
}

/// Polls the game until it reaches `ply` (a bot's move), at most 20 s.
async fn until_ply(app: &Router, id: &str, ply: u64) -> Value {
    for _ in 0..400 {
        let (_, g) = call(app, "GET", &format!("/api/games/{id}"), None, None).await;
        if g["ply"].as_u64() >= Some(ply) {
            return g;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the game never reached ply {ply}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_seat_moves_on_the_server() {
    let app = server().router();
    // The bot opens.
    let (id, tokens) = new_game(&app, "standard", &["easy", "human"]).await;
    assert_eq!(tokens[0], None, "a bot's seat has no token");
    let g = until_ply(&app, &id, 1).await;
    assert_eq!(g["to_move"], "g");
    let reply = g["legal_moves"][0].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}/moves");
    let (status, _) = call(
        &app,
        "POST",
        &uri,
        tokens[1].as_deref(),
        Some(&moved(1, &reply)),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let g = until_ply(&app, &id, 3).await;
    assert_eq!(g["moves"].as_array().unwrap().len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_moves_at_one_ply_one_wins_the_other_is_stale() {
    let app = server().router();
    let (id, tokens) = new_game(&app, "standard", &["human", "human"]).await;
    let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    let legal: Vec<String> = g["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let uri = format!("/api/games/{id}/moves");
    let token = tokens[0].clone().unwrap();
    let mut tasks = Vec::new();
    for m in legal.iter().take(4) {
        let (app, uri, token, body) = (app.clone(), uri.clone(), token.clone(), moved(0, m));
        tasks.push(tokio::spawn(async move {
            call(&app, "POST", &uri, Some(&token), Some(&body)).await.0
        }));
    }
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap());
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::OK).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::CONFLICT)
            .count(),
        3,
        "{statuses:?}"
    );
    let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["ply"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_moves_and_a_bots_turn_outlive_a_restart() {
    let dir = std::env::temp_dir().join(format!("murus-serve-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // A server killed right after it committed the person's first move,
    // before its bot answered: the database as it left it.
    let (id, tokens, first) = {
        let store = murus_serve::store::Store::open(&dir).unwrap();
        let v = murus_engine::Variant::standard();
        let key = murus_serve::games::Variants::default()
            .add(&store, v.clone())
            .unwrap();
        let seats = ["human".to_string(), "easy".to_string()];
        let (rows, tokens) = murus_serve::games::new_seats(&v, &seats).unwrap();
        let id = murus_serve::games::secret();
        store.add_game(&id, &key, &rows).unwrap();
        let first = v.move_to_string(v.legal_moves(&v.start())[0]);
        assert!(store.add_move(&id, 0, &first).unwrap());
        (id, tokens, first)
    };
    let s = Server::open(&dir).unwrap();
    let app = s.router();
    let (status, g) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["moves"], json!([first]));
    // The bot whose turn it was moves once the server is back.
    s.resume_bots().unwrap();
    let g = until_ply(&app, &id, 2).await;
    assert_eq!(g["to_move"], "r");
    // The person's token still moves.
    let m = g["legal_moves"][0].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}/moves");
    let (status, _) = call(
        &app,
        "POST",
        &uri,
        tokens[0].as_deref(),
        Some(&moved(2, &m)),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    drop(app);
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_resignation_and_a_draw_agreed_end_the_game_for_good() {
    let app = server().router();
    let (id, tokens) = new_game(&app, "standard", &["human", "human"]).await;
    let (romans, gauls) = (tokens[0].as_deref(), tokens[1].as_deref());
    let resign = format!("/api/games/{id}/resign");
    // A spectator cannot resign for anyone.
    let (status, _) = call(&app, "POST", &resign, None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, g) = call(&app, "POST", &resign, gauls, None).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["result"]["winner"], "r");
    assert_eq!(g["result"]["reason"], "resignation");
    assert_eq!(g["to_move"], Value::Null);
    assert_eq!(g["legal_moves"], json!([]));
    // Over: no move, no second ending.
    let first = "a1-a2";
    let uri = format!("/api/games/{id}/moves");
    let (status, _) = call(&app, "POST", &uri, romans, Some(&moved(0, first))).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = call(&app, "POST", &resign, romans, None).await;
    assert_eq!(status, StatusCode::CONFLICT);

    // A draw: offered, then accepted by the other seat at the same ply.
    let (id, tokens) = new_game(&app, "standard", &["human", "human"]).await;
    let (romans, gauls) = (tokens[0].as_deref(), tokens[1].as_deref());
    let draw = format!("/api/games/{id}/draw");
    let (status, g) = call(&app, "POST", &draw, romans, None).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["draw_offered_by"], "r");
    assert_eq!(g["result"], Value::Null);
    // The same seat again only offers again.
    let (_, g) = call(&app, "POST", &draw, romans, None).await;
    assert_eq!(g["result"], Value::Null);
    let (status, g) = call(&app, "POST", &draw, gauls, None).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["result"]["winner"], Value::Null);
    assert_eq!(g["result"]["reason"], "agreement");
    assert_eq!(g["draw_offered_by"], Value::Null);

    // An offer lapses with the next move.
    let (id, tokens) = new_game(&app, "standard", &["human", "human"]).await;
    let (romans, gauls) = (tokens[0].as_deref(), tokens[1].as_deref());
    let (_, g) = call(&app, "POST", &format!("/api/games/{id}/draw"), gauls, None).await;
    assert_eq!(g["draw_offered_by"], "g");
    let m = g["legal_moves"][0].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}/moves");
    let (_, g) = call(&app, "POST", &uri, romans, Some(&moved(0, &m))).await;
    assert_eq!(g["draw_offered_by"], Value::Null);
    let (_, g) = call(&app, "POST", &format!("/api/games/{id}/draw"), romans, None).await;
    assert_eq!(
        g["result"],
        Value::Null,
        "an offer of an older ply is not accepted"
    );
}

/// The next Server-Sent Event's data of `body`, as JSON (within 20 s).
async fn next_event(body: &mut Body) -> Value {
    let mut text = String::new();
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(20), body.frame())
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
                // A keep-alive comment.
                text = text[event.len() + 2..].to_string();
                continue;
            }
            assert!(event.starts_with("event: game\n"), "{event}");
            let data = event.split_once("data: ").unwrap().1;
            return serde_json::from_str(data).unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watchers_get_the_game_at_once_and_after_every_change() {
    let app = server().router();
    let (id, tokens) = new_game(&app, "standard", &["human", "easy"]).await;
    // A spectator's stream: the game now, then after each move (the
    // person's and the bot's answer), with no token.
    let req = Request::get(format!("/api/games/{id}/events"))
        .body(Body::empty())
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        res.headers()["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    let mut body = res.into_body();
    let g = next_event(&mut body).await;
    assert_eq!(g["ply"], 0);
    let m = g["legal_moves"][0].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}/moves");
    let (status, _) = call(
        &app,
        "POST",
        &uri,
        tokens[0].as_deref(),
        Some(&moved(0, &m)),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let mut g = next_event(&mut body).await;
    assert_eq!(g["moves"][0], m.as_str());
    while g["ply"] != 2 {
        g = next_event(&mut body).await;
    }
    assert_eq!(
        g["to_move"], "r",
        "the bot answered, and the stream said so"
    );
    // No stream for a game that does not exist.
    let (status, _) = call(&app, "GET", "/api/games/nonesuch/events", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn feedback_after_the_game_is_summed_up_with_the_games_of_its_rules() {
    let app = server().router();
    // Two games: one resigned by the Gauls (the first player wins), one
    // drawn by agreement; and one still going.
    let mut tokens_of = Vec::new();
    for end in ["resign", "draw"] {
        let (id, tokens) = new_game(&app, "standard", &["human", "human"]).await;
        let (romans, gauls) = (tokens[0].as_deref(), tokens[1].as_deref());
        let uri = format!("/api/games/{id}/feedback");
        let early = json!({"fun": 4, "clarity": 5, "again": true}).to_string();
        let (status, v) = call(&app, "POST", &uri, romans, Some(&early)).await;
        assert_eq!(
            status,
            StatusCode::CONFLICT,
            "feedback waits for the end: {v}"
        );
        if end == "resign" {
            call(
                &app,
                "POST",
                &format!("/api/games/{id}/resign"),
                gauls,
                None,
            )
            .await;
        } else {
            call(&app, "POST", &format!("/api/games/{id}/draw"), romans, None).await;
            call(&app, "POST", &format!("/api/games/{id}/draw"), gauls, None).await;
        }
        tokens_of.push((id, tokens));
    }
    new_game(&app, "standard", &["human", "human"]).await;
    let (id, tokens) = &tokens_of[0];
    let uri = format!("/api/games/{id}/feedback");
    let refused = [
        (
            None,
            json!({"fun": 4, "clarity": 5, "again": true}),
            StatusCode::UNAUTHORIZED,
        ),
        (
            tokens[0].clone(),
            json!({"fun": 6, "clarity": 5, "again": true}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            tokens[0].clone(),
            json!({"fun": 0, "clarity": 5, "again": true}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            tokens[0].clone(),
            json!({"fun": 3, "clarity": 3, "again": true, "text": "x".repeat(4001)}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            tokens[0].clone(),
            json!({"fun": 3}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ];
    for (token, body, status) in refused {
        let (got, v) = call(
            &app,
            "POST",
            &uri,
            token.as_deref(),
            Some(&body.to_string()),
        )
        .await;
        assert_eq!(got, status, "{body}: {v}");
        assert!(v["error"].is_string());
    }
    let answers = [
        (
            &tokens_of[0].0,
            tokens_of[0].1[0].as_deref(),
            json!({"fun": 4, "clarity": 2, "again": true, "text": "<b>tense</b> endgame"}),
        ),
        (
            &tokens_of[0].0,
            tokens_of[0].1[1].as_deref(),
            json!({"fun": 2, "clarity": 3, "again": false}),
        ),
        (
            &tokens_of[1].0,
            tokens_of[1].1[0].as_deref(),
            json!({"fun": 5, "clarity": 4, "again": true, "text": "  "}),
        ),
    ];
    for (id, token, body) in answers {
        let uri = format!("/api/games/{id}/feedback");
        let (status, v) = call(&app, "POST", &uri, token, Some(&body.to_string())).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let (status, s) = call(&app, "GET", "/api/rules/standard/summary", None, None).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["variant"], "standard");
    assert_eq!(s["games"], 3);
    assert_eq!(s["finished"], 2);
    assert_eq!(s["draws"], 1);
    assert_eq!(s["first_player"]["wins"], 1);
    assert_eq!(s["first_player"]["decided"], 1);
    assert!(s["first_player"]["low"].as_f64().unwrap() < 0.5);
    assert_eq!(s["endings"], json!({"agreement": 1, "resignation": 1}));
    assert_eq!(s["lengths"], json!([0, 0]));
    let f = &s["feedback"];
    assert_eq!(f["answers"], 3);
    assert_eq!(f["fun"], 3.67);
    assert_eq!(f["clarity"], 3.0);
    assert_eq!(f["again"], 2);
    // Every comment, as given (the page escapes it), blank ones left out.
    assert_eq!(f["comments"], json!(["<b>tense</b> endgame"]));
    let (status, _) = call(&app, "GET", "/api/rules/nonesuch/summary", None, None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}
