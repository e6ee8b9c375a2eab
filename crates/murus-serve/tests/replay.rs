//! After a game: the replay page (the board of each ply, the move list,
//! stepping with buttons and keys, in headless Chromium), the bots'
//! annotations on request (started, under way, done, kept in the
//! database), and a rules version's games exported as one `.mgn`
//! collection that reads back.
//!
//! The Chromium harness is a minimal copy of the one in `pages.rs`.

use axum::Router;
use axum::http::StatusCode;
use murus_serve::Server;
use serde_json::{Value, json};

mod common;

use common::{Browser, fetch, json_of, listen, new_game, server};

/// A game of standard between two people, `plies` first legal moves
/// played, then resigned by the seat to move: its id and the moves.
async fn finished_game(app: &Router, plies: usize) -> (String, Vec<String>) {
    let (id, first, second) = new_game(app, "standard").await;
    let tokens = [first, second];
    let mut moves = Vec::new();
    for i in 0..plies {
        let g = json_of(app, &format!("/api/games/{id}")).await;
        let m = g["legal_moves"][0].as_str().unwrap().to_string();
        let body = json!({ "move": m, "ply": g["ply"] }).to_string();
        let uri = format!("/api/games/{id}/moves");
        let (status, _, text) = fetch(app, "POST", &uri, Some(&tokens[i % 2]), Some(&body)).await;
        assert_eq!(status, StatusCode::OK, "{text}");
        moves.push(m);
    }
    let uri = format!("/api/games/{id}/resign");
    let (status, _, text) = fetch(app, "POST", &uri, Some(&tokens[plies % 2]), None).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    (id, moves)
}

/// Asks until the annotations of game `id` are done (at most a minute).
async fn annotated(app: &Router, id: &str) -> Value {
    let uri = format!("/api/games/{id}/annotations");
    for _ in 0..600 {
        let a = json_of(app, &uri).await;
        if a["state"] != "running" {
            return a;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the annotations never ended");
}

#[tokio::test]
async fn the_board_of_each_ply_is_the_position_after_that_many_moves() {
    let app = server().router();
    let (id, _) = finished_game(&app, 2).await;
    let svg = |ply: &str| {
        let app = app.clone();
        let uri = format!("/api/games/{id}/board.svg{ply}");
        async move {
            let (status, kind, svg) = fetch(&app, "GET", &uri, None, None).await;
            assert_eq!(status, StatusCode::OK, "{svg}");
            assert_eq!(kind, "image/svg+xml");
            svg
        }
    };
    let start = svg("?ply=0").await;
    let one = svg("?ply=1").await;
    let now = svg("").await;
    assert!(!start.contains("class=\"highlight\""), "no move yet");
    assert!(one.contains("class=\"highlight\""));
    assert_ne!(start, one);
    assert_ne!(one, now);
    assert_eq!(svg("?ply=2").await, now);
    // A ply past the game's is its last.
    assert_eq!(svg("?ply=99").await, now);
}

#[tokio::test]
async fn the_replay_page_is_served_by_the_games_id() {
    let app = server().router();
    let (id, _) = finished_game(&app, 1).await;
    let (status, kind, page) = fetch(&app, "GET", &format!("/replay/{id}"), None, None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(kind, "text/html; charset=utf-8");
    assert!(page.contains(&format!(r#"data-game="{id}""#)), "{page}");
    assert!(page.contains(r#"<script src="/assets/replay.js""#));
    assert!(page.contains("Annotate (bots' analysis)"));
    assert!(page.contains(r#"name="viewport""#));
    let (status, _, page) = fetch(&app, "GET", "/replay/nope", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(page.contains("No such game"), "{page}");
    let (status, kind, js) = fetch(&app, "GET", "/assets/replay.js", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "text/javascript; charset=utf-8");
    assert!(!js.contains("innerHTML"));
    let (status, kind, _) = fetch(&app, "GET", "/assets/replay.css", None, None).await;
    assert_eq!(
        (status, kind.as_str()),
        (StatusCode::OK, "text/css; charset=utf-8")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn annotations_are_asked_for_computed_once_and_kept_after_a_restart() {
    let dir = std::env::temp_dir().join(format!("murus-serve-annotations-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let server = Server::open(&dir).unwrap();
    server.add_shipped().unwrap();
    let app = server.router();

    // Not for a game that goes on.
    let body = json!({ "variant": "standard", "seats": ["human", "human"] }).to_string();
    let (_, _, text) = fetch(&app, "POST", "/api/games", None, Some(&body)).await;
    let going = serde_json::from_str::<Value>(&text).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let uri = format!("/api/games/{going}/annotations");
    let (status, _, text) = fetch(&app, "POST", &uri, None, Some("{}")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{text}");
    assert!(text.contains("annotations come after the game"), "{text}");
    let (status, _, _) = fetch(
        &app,
        "POST",
        "/api/games/nope/annotations",
        None,
        Some("{}"),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (id, moves) = finished_game(&app, 2).await;
    let uri = format!("/api/games/{id}/annotations");
    // A form's post (not JSON) starts nothing.
    let (status, _, text) = fetch(&app, "POST", &uri, None, None).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{text}");
    let a = json_of(&app, &uri).await;
    assert_eq!(a["state"], "none", "{a}");
    assert_eq!(a["finished"], true);
    let (status, _, text) = fetch(&app, "POST", &uri, None, Some("{}")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{text}");
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap()["state"],
        "running"
    );
    // Asked again while it runs: the same run.
    let (status, _, text) = fetch(&app, "POST", &uri, None, Some("{}")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{text}");
    assert_eq!(json_of(&app, &uri).await["state"], "running");

    let done = annotated(&app, &id).await;
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["budget_ms"], 300);
    let notes = done["moves"].as_array().unwrap();
    assert_eq!(notes.len(), moves.len(), "{done}");
    for (i, (n, m)) in notes.iter().zip(&moves).enumerate() {
        assert_eq!(n["ply"], i + 1);
        assert_eq!(n["move"], m.as_str());
        // Each move's score after it, as `murus analyze --game` writes it.
        let score = n["score"].as_str().unwrap();
        assert!(score.contains("(depth "), "{n}");
    }
    let record = done["record"].as_str().unwrap();
    assert!(record.contains("[Termination \"resignation\"]"), "{record}");
    // Done: asking again answers at once, with the same.
    let (status, _, text) = fetch(&app, "POST", &uri, None, Some("{}")).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), done);

    drop(app);
    drop(server);
    let again = Server::open(&dir).unwrap();
    let app = again.router();
    assert_eq!(json_of(&app, &uri).await, done);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn the_games_of_a_rules_version_export_as_one_collection_that_reads_back() {
    let app = server().router();
    let (first, moves) = finished_game(&app, 3).await;
    let (second, _) = finished_game(&app, 0).await;
    // A third drawn by agreement: offered, then accepted.
    let body = json!({ "variant": "standard", "seats": ["human", "human"] }).to_string();
    let (_, _, text) = fetch(&app, "POST", "/api/games", None, Some(&body)).await;
    let made: Value = serde_json::from_str(&text).unwrap();
    let third = made["id"].as_str().unwrap().to_string();
    for seat in 0..2 {
        let token = made["seats"][seat]["token"].as_str().unwrap();
        let uri = format!("/api/games/{third}/draw");
        let (status, _, text) = fetch(&app, "POST", &uri, Some(token), None).await;
        assert_eq!(status, StatusCode::OK, "{text}");
    }
    let (status, kind, text) =
        fetch(&app, "GET", "/api/rules/standard/games.mgn", None, None).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert_eq!(kind, "application/x-murus-record; charset=utf-8");
    let games = murus_engine::record::read_collection(&text, None).unwrap();
    assert_eq!(games.len(), 3, "{text}");
    // Oldest first; two games made in one second, by id.
    let of = |id: &str| {
        games
            .iter()
            .find(|(r, _)| r.tag("Game") == Some(id))
            .unwrap()
    };
    let (a, v) = of(&first);
    assert_eq!(v.name(), "standard");
    assert_eq!(a.tag("Seats"), Some("human, human"));
    assert!(a.tag("UTCDate").is_some_and(|d| d.len() == 10), "{text}");
    let played: Vec<&str> = a.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(played, moves);
    // The Gauls resigned at ply 3: the Romans won by resignation.
    let r = a.result.as_ref().unwrap();
    assert_eq!((r.winner, r.reason.as_str()), (Some('r'), "resignation"));
    let (b, _) = of(&second);
    let r = b.result.as_ref().unwrap();
    assert_eq!((r.winner, r.reason.as_str()), (Some('g'), "resignation"));
    let (c, _) = of(&third);
    let r = c.result.as_ref().unwrap();
    assert_eq!((r.winner, r.reason.as_str()), (None, "agreement"));
    assert!(text.contains("[Termination \"agreement\"]"), "{text}");
    // The summary page links to it.
    let (_, _, page) = fetch(&app, "GET", "/rules/standard/summary", None, None).await;
    let key = json_of(&app, &format!("/api/games/{first}")).await["rules_key"]
        .as_str()
        .unwrap()
        .to_string();
    let link = format!(r#"<a href="/api/rules/{key}/games.mgn" download>"#);
    assert!(page.contains(&link), "{link} in {page}");
    // Behind the password, as the summary is.
    let guarded = server().with_password("sesame").router();
    let (status, _, _) = fetch(&guarded, "GET", "/api/rules/standard/games.mgn", None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _, _) = fetch(&app, "GET", "/api/rules/nonesuch/games.mgn", None, None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_page_in_a_browser_steps_through_the_game_and_shows_the_annotations() {
    let server = server();
    let app = server.router();
    let (id, moves) = finished_game(&app, 3).await;
    let addr = listen(app.clone()).await;
    // From the spectators' page, once the game is over, to its replay.
    let url = format!("http://{addr}/watch/{id}");
    let (start, one, two, end, notes) = tokio::task::spawn_blocking(move || {
        let mut b = Browser::open(&url);
        b.until("document.querySelector('#board svg') && !document.getElementById('after').hidden");
        b.click("#replay-link");
        let start = b.until("location.pathname.startsWith('/replay/') && document.querySelector('#board svg') && document.querySelector('#moves tr')");
        b.click("#next");
        let one = b.until("document.getElementById('board').dataset.ply === '1' && document.querySelector('#moves tr.current')");
        b.key("ArrowRight", 39);
        let two = b.until("document.getElementById('board').dataset.ply === '2'");
        b.click("#last");
        let end = b.until("document.getElementById('board').dataset.ply === '3' && document.getElementById('next').disabled");
        b.click("#annotate");
        b.until("document.getElementById('annotations-state').textContent.startsWith('The bots are annotating')");
        let notes = b.until("document.querySelector('#plies.annotated') && document.getElementById('annotate').hidden");
        // On a phone's screen, annotated, nothing is wider than the screen.
        b.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": true }),
            true,
        );
        b.until("window.innerWidth === 360 && document.documentElement.scrollWidth <= 360");
        (start, one, two, end, notes)
    })
    .await
    .unwrap();
    assert!(start.contains("The start (3 plies in all)."), "{start}");
    assert!(start.contains("Romans (r) won by resignation."), "{start}");
    assert!(!start.contains("class=\"highlight\""), "{start}");
    assert!(
        one.contains(&format!("Ply 1 of 3: 1. {}.", moves[0])),
        "{one}"
    );
    assert!(
        one.contains(&format!(
            r#"<tr data-ply="1" class="current" aria-current="step"><td class="num">1.</td><td><button class="ply" type="button">{}</button>"#,
            moves[0]
        )),
        "{one}"
    );
    assert!(one.contains("class=\"highlight\""), "{one}");
    assert!(
        two.contains(&format!("Ply 2 of 3: 1... {}.", moves[1])),
        "{two}"
    );
    assert!(
        end.contains(&format!("Ply 3 of 3: 2. {}.", moves[2])),
        "{end}"
    );
    assert!(
        notes.contains("Annotated by the bots' analysis (300 ms a position)."),
        "{notes}"
    );
    assert!(notes.contains("<td class=\"note score\">"), "{notes}");
    assert!(notes.contains("(depth "), "{notes}");
}

#[tokio::test]
async fn odd_requests_to_the_new_routes_get_clear_answers() {
    let app = server().router();
    let (id, _) = finished_game(&app, 1).await;
    for ply in ["-1", "abc", "99999999999999999999999", ""] {
        let uri = format!("/api/games/{id}/board.svg?ply={ply}");
        let (status, kind, svg) = fetch(&app, "GET", &uri, None, None).await;
        assert_eq!(
            (status, kind.as_str()),
            (StatusCode::OK, "image/svg+xml"),
            "{uri}"
        );
        assert!(svg.starts_with("<svg"), "{uri}");
    }
    for (method, uri) in [
        ("PUT", format!("/api/games/{id}/annotations")),
        ("DELETE", format!("/api/games/{id}/annotations")),
        ("POST", "/api/rules/standard/games.mgn".to_string()),
        ("GET", "/api/games/%00%ff/annotations".to_string()),
        ("GET", "/api/rules/%E2%80%AE/games.mgn".to_string()),
    ] {
        let (status, kind, text) = fetch(&app, method, &uri, None, None).await;
        assert!(status.is_client_error(), "{method} {uri}: {status} {text}");
        assert_eq!(kind, "application/json", "{method} {uri}");
        let v: Value = serde_json::from_str(&text).unwrap();
        assert!(v["error"].is_string(), "{text}");
    }
    for uri in ["/replay/%3Cscript%3E", "/replay/a%22b"] {
        let (status, _, page) = fetch(&app, "GET", uri, None, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert!(
            !page.contains("<script>") && !page.contains("a\"b"),
            "{page}"
        );
    }
}
