//! The clocks of a live game on the player's and spectators' page, in
//! Chromium (the DevTools-pipe harness of `pages.rs`, copied): both
//! seats' times, the running one counting down between the server's
//! answers, low time highlighted; and the designer's clock choice and
//! the summary page's button that runs the bots' balance check.

use axum::Router;
use axum::http::StatusCode;
use murus_serve::Server;
use murus_serve::time::TimeSource;
use serde_json::{Value, json};

mod common;

use common::{Browser, listen};

/// [`common::call`] for an answer that must be 200 or 201: its JSON.
async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> Value {
    let (status, v) = common::call(app, method, uri, token, body).await;
    assert!(status == StatusCode::OK || status == StatusCode::CREATED);
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_shows_both_clocks_the_running_one_ticking_and_low_time_highlighted() {
    let time = TimeSource::manual(1_800_000_000_000);
    let server = Server::with_time(None, time.clone()).unwrap();
    server.add_shipped().unwrap();
    let app = server.router();
    let body = json!({"variant": "standard", "seats": ["human", "human"], "clock": {"minutes": 1}})
        .to_string();
    let made = call(&app, "POST", "/api/games", None, Some(&body)).await;
    let id = made["id"].as_str().unwrap().to_string();
    let token = made["seats"][0]["token"].as_str().unwrap().to_string();
    let g = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    let m = g["legal_moves"][0].as_str().unwrap();
    let mv = json!({"move": m, "ply": 0}).to_string();
    call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&token),
        Some(&mv),
    )
    .await;
    // The Gauls have thought for 45 s of the server's time: 15 s left.
    time.advance(45_000);
    let addr = listen(app.clone()).await;
    let url = format!("http://{addr}/watch/{id}");
    let (dom, first, later) = tokio::task::spawn_blocking(move || {
        let mut b = Browser::open(&url);
        let dom = b.until("document.querySelectorAll('#clocks .clock').length === 2");
        let text = "document.querySelector('#clocks .clock[data-seat=\"1\"]').textContent";
        let first = b.eval(text);
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let later = b.eval(text);
        (dom, first, later)
    })
    .await
    .unwrap();
    assert!(
        dom.contains(r#"<span class="clock" data-seat="0">Romans (r): 1:00</span>"#),
        "{dom}"
    );
    assert!(
        dom.contains(r#"class="clock running low" data-seat="1">Gauls (g): 0:1"#),
        "{dom}"
    );
    assert!(
        !dom.contains(r#"id="clocks" class="clocks" hidden"#),
        "{dom}"
    );
    // The page counts the running clock down itself between answers.
    let (first, later) = (first.as_str().unwrap(), later.as_str().unwrap());
    assert!(first.starts_with("Gauls (g): 0:1"), "{first}");
    assert_ne!(first, later, "the running clock ticks");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_designer_chooses_a_live_game_with_a_clock() {
    let server = Server::in_memory().unwrap();
    server.add_shipped().unwrap();
    let app = server.router();
    let addr = listen(app.clone()).await;
    let url = format!("http://{addr}/");
    let links = tokio::task::spawn_blocking(move || {
        let mut b = Browser::open(&url);
        b.until("document.querySelector('#versions tbody tr[data-key] input')");
        b.click("#versions tbody tr[data-key] input");
        b.until("!document.getElementById('create').disabled");
        b.click("#clock-choice input[value=live]");
        b.type_into("#clock-minutes", "3");
        b.type_into("#clock-increment", "2");
        b.click("#create");
        b.until("document.querySelectorAll('#links li').length > 0");
        b.eval("Array.from(document.querySelectorAll('#links input')).map((i) => i.value)")
    })
    .await
    .unwrap();
    let spectate = links
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|u| u.contains("/watch/"))
        .unwrap()
        .to_string();
    let id = spectate.rsplit('/').next().unwrap();
    let g = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["clock"]["initial_ms"], 180_000, "{g}");
    assert_eq!(g["clock"]["increment_ms"], 2_000, "{g}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_designer_runs_the_bots_check_from_the_summary_page() {
    let server = Server::in_memory()
        .unwrap()
        .with_bot_check(murus_serve::checks::Settings {
            level: "random".into(),
            games: 8,
        });
    server.add_shipped().unwrap();
    let app = server.router();
    let addr = listen(app.clone()).await;
    let url = format!("http://{addr}/rules/standard/summary");
    let dom = tokio::task::spawn_blocking(move || {
        let mut b = Browser::open(&url);
        // Enabled once the page's script serves it.
        b.until("!document.getElementById('run-bots').disabled");
        b.click("#run-bots");
        b.until("document.querySelector('table.versus')")
    })
    .await
    .unwrap();
    assert!(
        dom.contains("<th>People</th><th>Bots (random)</th>"),
        "{dom}"
    );
    assert!(dom.contains(r#"<td data-key="bots_games">8</td>"#), "{dom}");
    assert!(dom.contains("too few games to tell"), "{dom}");
    assert!(dom.contains("Run the bots' balance check again"), "{dom}");
}
