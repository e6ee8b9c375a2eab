//! The bots' balance check a designer asks the server for: started,
//! running (one at a time a version), kept in the database across a
//! restart, shown beside the people's figures in the playtest summary
//! (API and page) with the verdict on the first player's rate; behind
//! `--password`.

use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use murus_serve::Server;
use murus_serve::checks::Settings;
use serde_json::{Value, json};

mod common;

use common::{call, call_text, new_game};

fn server(games: u64) -> Server {
    let s = Server::in_memory().unwrap().with_bot_check(Settings {
        level: "random".into(),
        games,
    });
    s.add_shipped().unwrap();
    s
}

/// Waits for the check of `variant` to finish; its state.
async fn done(app: &Router, variant: &str) -> Value {
    for _ in 0..1500 {
        let (status, v) = call(
            app,
            "GET",
            &format!("/api/rules/{variant}/bots"),
            None,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if v["state"] != "running" {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the bots' check did not finish in 30 s");
}

/// `n` finished games of standard between two people: the first seat
/// wins the first `first_wins` (the second resigns), the second the rest.
async fn peoples_games(app: &Router, n: usize, first_wins: usize) {
    for i in 0..n {
        let (id, first, second) = new_game(app, "standard").await;
        let token = if i < first_wins { &second } else { &first };
        let (status, g) = call(
            app,
            "POST",
            &format!("/api/games/{id}/resign"),
            Some(token),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{g}");
        if i == 0 {
            let f = json!({"fun": 4, "clarity": 3, "again": true, "text": "<script>alert(1)</script> walls!"}).to_string();
            let (status, e) = call(
                app,
                "POST",
                &format!("/api/games/{id}/feedback"),
                Some(token),
                Some(&f),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{e}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_check_runs_in_the_background_and_its_figures_join_the_summary() {
    let app = server(12).router();
    let (status, v) = call(&app, "GET", "/api/rules/standard/bots", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["state"], "none");
    let (_, sum) = call(&app, "GET", "/api/rules/standard/summary", None, None).await;
    assert_eq!(sum["bots"], Value::Null);
    assert_eq!(sum["agreement"], Value::Null);
    // Not JSON: refused (a form on another site cannot start one).
    let (status, _) = call_text(&app, "POST", "/api/rules/standard/bots", None, None).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let (status, v) = call(&app, "GET", "/api/rules/standard/bots", None, None).await;
    assert_eq!((status, &v["state"]), (StatusCode::OK, &json!("none")));
    let (status, v) = call(&app, "POST", "/api/rules/nonesuch/bots", None, Some("{}")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");

    let (status, v) = call(&app, "POST", "/api/rules/standard/bots", None, Some("{}")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    assert!(
        v["settings"]
            .as_str()
            .unwrap()
            .contains("12 games of the random bot"),
        "{v}"
    );
    let v = done(&app, "standard").await;
    assert_eq!(v["state"], "done", "{v}");
    let f = &v["figures"];
    assert_eq!(f["level"], "random");
    assert_eq!(f["games"], 12);
    let decided = f["first_player"]["decided"].as_u64().unwrap();
    assert_eq!(decided + f["draws"].as_u64().unwrap(), 12);
    assert!(f["lengths"]["median"].as_u64().unwrap() > 0);
    assert_eq!(
        f["endings"]
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum::<u64>(),
        12
    );
    // In the summary, beside no people's games: too few to tell.
    let (_, sum) = call(&app, "GET", "/api/rules/standard/summary", None, None).await;
    assert_eq!(sum["bots"]["figures"], *f);
    assert!(
        sum["agreement"]
            .as_str()
            .unwrap()
            .starts_with("too few games to tell"),
        "{sum}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_check_at_a_time_a_version() {
    let app = server(100_000).router();
    let (status, v) = call(&app, "POST", "/api/rules/standard/bots", None, Some("{}")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    assert_eq!(v["state"], "running");
    let (status, e) = call(&app, "POST", "/api/rules/standard/bots", None, Some("{}")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    assert!(e["error"].as_str().unwrap().contains("running already"));
    let (_, sum) = call(&app, "GET", "/api/rules/standard/summary", None, None).await;
    assert_eq!(sum["bots"]["state"], "running");
    assert_eq!(
        sum["agreement"],
        Value::Null,
        "no verdict without the bots' figures"
    );
    let (status, page) = call_text(&app, "GET", "/rules/standard/summary", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("The bots&#39; balance check is running (100000 games of the random bot"),
        "{page}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_and_bots_agree_or_disagree_on_the_first_players_rate() {
    // The bots first: 20 random games.
    let app = server(20).router();
    let (status, _) = call(&app, "POST", "/api/rules/standard/bots", None, Some("{}")).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let v = done(&app, "standard").await;
    let bots = &v["figures"]["first_player"];
    let bots_rate = bots["rate"].as_f64().unwrap();
    // People: the first player loses all 12 games; far from the bots'
    // rate unless the bots' first player also always loses.
    peoples_games(&app, 12, 0).await;
    let (_, sum) = call(&app, "GET", "/api/rules/standard/summary", None, None).await;
    assert_eq!(sum["first_player"]["decided"], 12);
    let verdict = sum["agreement"].as_str().unwrap();
    // (The fixed seed's 20 random games give the first player about half.)
    assert!(bots_rate > 0.3, "{v}");
    assert!(verdict.starts_with("people and bots disagree"), "{verdict}");
    // Twelve more, the first player winning as often as the bots' did:
    // now they agree.
    let wins = (bots_rate * 24.0).round() as usize;
    peoples_games(&app, 12, wins.min(12)).await;
    let (_, sum) = call(&app, "GET", "/api/rules/standard/summary", None, None).await;
    let verdict = sum["agreement"].as_str().unwrap();
    assert!(verdict.starts_with("people and bots agree"), "{verdict}");
    assert!(verdict.contains("two-proportion test at 95%"), "{verdict}");
    // The page shows both columns, the verdict, and the comment escaped.
    let (status, page) = call_text(&app, "GET", "/rules/standard/summary", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("<th>People</th><th>Bots (random)</th>"),
        "{page}"
    );
    assert!(page.contains("data-key=\"bots_first\""), "{page}");
    assert!(
        page.contains("data-key=\"agreement\">people and bots agree"),
        "{page}"
    );
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt; walls!"),
        "{page}"
    );
    assert!(!page.contains("<script>alert"), "{page}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_check_is_kept_across_a_restart() {
    let dir = std::env::temp_dir().join(format!("murus-bots-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let figures = {
        let s = Server::open(&dir).unwrap().with_bot_check(Settings {
            level: "random".into(),
            games: 6,
        });
        s.add_shipped().unwrap();
        let app = s.router();
        let (status, _) = call(&app, "POST", "/api/rules/standard/bots", None, Some("{}")).await;
        assert_eq!(status, StatusCode::ACCEPTED);
        done(&app, "standard").await["figures"].clone()
    };
    let s = Server::open(&dir).unwrap();
    s.add_shipped().unwrap();
    let app = s.router();
    let (_, v) = call(&app, "GET", "/api/rules/standard/bots", None, None).await;
    assert_eq!(v["state"], "done");
    assert_eq!(v["figures"], figures);
    let (_, sum) = call(&app, "GET", "/api/rules/standard/summary", None, None).await;
    assert_eq!(sum["bots"]["figures"], figures);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_bots_check_is_the_designers() {
    let app = server(6).with_password("pw").router();
    for method in ["GET", "POST"] {
        let (status, _) = call(&app, method, "/api/rules/standard/bots", None, Some("{}")).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{method}");
    }
}
