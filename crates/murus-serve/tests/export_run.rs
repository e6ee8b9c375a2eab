//! A rules version's playtest games exported as a lab run folder
//! (`Server::export_run`): games ended by the rules, by a resignation and
//! by a draw agreed, read back by the lab's own reader and replay check,
//! with the lab's report of them; games still going on are left out.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use murus_engine::{Outcome, Variant};
use murus_lab::rundir::Holding;
use murus_lab::{Mode, RunDir, RunSpec};
use murus_serve::Server;
use serde_json::{Value, json};
use tower::ServiceExt;

/// A race on a 3×5 board (the whole-game test's): a game of it ends by
/// the rules in a handful of moves.
const SPRINT: &str = r##"
variant "sprint"
title "Sprint"

board rect 3 x 5

player "Romans" {
    letter r
    colour "#e8dcc0"
    home rank 1
    forward n
}

player "Gauls" {
    letter g
    colour "#5b3a29"
    home rank 5
    forward s
}

setup {
    r 2 on cells a1 c1
    g 2 on cells a5 c5
}

stack limit 2

sow {
    heights 2
    directions all
    onto empty, own 1
}

win {
    breakthrough immediate by sow
    stalemate loses
}

draw {
    repetition 3
    plies 40
}
"##;

/// `method uri` on `app` with `token` and a JSON `body`: the status and
/// the JSON answer.
async fn ask(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
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
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A game of rules `key` between two people, `moves` played in turn:
/// its id and the seats' tokens.
async fn played(app: &Router, key: &str, moves: &[String]) -> (String, [String; 2]) {
    let body = json!({ "variant": key, "seats": ["human", "human"] });
    let (status, v) = ask(app, "POST", "/api/games", None, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let tokens = [0, 1].map(|i| v["seats"][i]["token"].as_str().unwrap().to_string());
    for (ply, m) in moves.iter().enumerate() {
        let uri = format!("/api/games/{id}/moves");
        let body = json!({ "move": m, "ply": ply });
        let (status, g) = ask(app, "POST", &uri, Some(&tokens[ply % 2]), Some(body)).await;
        assert_eq!(status, StatusCode::OK, "{g}");
    }
    (id, tokens)
}

/// The first line of moves that ends the game by the rules after exactly
/// `plies` plies and not before, and how it ends.
fn line_to_the_end(v: &Variant, plies: usize) -> Option<(Vec<String>, Outcome)> {
    fn search(
        v: &Variant,
        pos: &murus_engine::Position,
        left: usize,
        line: &mut Vec<String>,
    ) -> Option<Outcome> {
        if left == 0 {
            return v.outcome(pos);
        }
        if v.outcome(pos).is_some() {
            return None;
        }
        for m in v.legal_moves(pos) {
            line.push(v.move_to_string(m));
            if let Some(o) = search(v, &v.play(pos, m), left - 1, line) {
                return Some(o);
            }
            line.pop();
        }
        None
    }
    let mut line = Vec::new();
    search(v, &v.start(), plies, &mut line).map(|o| (line, o))
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("murus-export-run-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[tokio::test]
async fn games_ended_by_the_rules_by_resigning_and_by_agreement_export_as_a_run_the_lab_reads() {
    let server = Server::in_memory().unwrap();
    let sprint = Variant::compile(SPRINT).unwrap_or_else(|e| panic!("{e:?}"));
    let key = server.add(sprint.clone()).unwrap();
    let app = server.router();
    let (to_end, won) = (4..9).find_map(|n| line_to_the_end(&sprint, n)).unwrap();

    // 1. Over by the rules.
    played(&app, &key, &to_end).await;
    // 2. The Gauls (seat 1, to move after one ply) resign.
    let (id, tokens) = played(&app, &key, &to_end[..1]).await;
    let (status, g) = ask(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&tokens[1]),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{g}");
    // 3. Drawn by agreement after two plies.
    let (id, tokens) = played(&app, &key, &to_end[..2]).await;
    for t in &tokens {
        let (status, g) = ask(
            &app,
            "POST",
            &format!("/api/games/{id}/draw"),
            Some(t),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{g}");
    }
    // 4. Still going on: left out.
    played(&app, &key, &to_end[..1]).await;

    let dir = temp("three");
    assert_eq!(server.export_run(&key, &dir, false).unwrap(), 3);

    // The lab's own reader: the spec, the report, the games.
    let held = Holding::<RunSpec>::read(&dir).unwrap();
    assert_eq!(held.spec.command, "playtest");
    assert_eq!(held.spec.run.bots, ["human", "human"]);
    assert_eq!(held.spec.run.requested, 3);
    // The whole run, as shard 1 of 1 (so that `murus lab merge` reads it).
    assert_eq!(
        held.spec.run.shard.map(murus_lab::Shard::pair),
        Some((1, 1))
    );
    assert_eq!(held.done, 3);
    let report = held.report.as_ref().unwrap();
    assert_eq!(report.games, 3);
    let reasons: Vec<(&str, u64)> = report
        .end_reasons
        .iter()
        .map(|(k, &n)| (k.as_str(), n))
        .collect();
    assert_eq!(reasons.len(), 3, "{reasons:?}");
    assert!(reasons.contains(&("resignation", 1)), "{reasons:?}");
    assert!(reasons.contains(&("agreement", 1)), "{reasons:?}");
    assert_eq!(report.draws.count, 1);
    let games = held.games().unwrap();
    // Oldest first; games made in one second by id: compare them sorted.
    let mut ends: Vec<(Option<char>, Option<usize>, &str, u32)> = games
        .iter()
        .map(|g| {
            (
                g.stats.winner,
                g.stats.winner_seat,
                g.stats.reason.as_str(),
                g.stats.plies,
            )
        })
        .collect();
    let rules_winner = won.winner.map(|p| sprint.letter(p));
    let mut expected = vec![
        (
            rules_winner,
            won.winner,
            won.reason.as_str(),
            to_end.len() as u32,
        ),
        (Some('r'), Some(0), "resignation", 1),
        (None, None, "agreement", 2),
    ];
    ends.sort();
    expected.sort();
    assert_eq!(ends, expected, "{won:?}");
    assert_eq!(
        games.iter().map(|g| g.stats.index).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    let by_rules = games.iter().find(|g| g.stats.reason == won.reason).unwrap();
    assert_eq!(by_rules.moves, to_end);
    for g in &games {
        assert_eq!(*g.seats, ["human".to_string(), "human".to_string()]);
        assert_eq!((g.seed, &g.colours[..]), (0, &['r', 'g'][..]));
    }
    // Every line replays under the lab's check.
    let (mut run, _) = RunDir::open(&dir, &held.spec, Mode::Resume).unwrap();
    run.check_games(&sprint).unwrap();
    drop(run);

    // Written once; again only when asked to replace it.
    let again = server
        .export_run(&key, &dir, false)
        .unwrap_err()
        .to_string();
    assert!(
        again.contains("already holds a run (run.json): give --force"),
        "{again}"
    );
    assert_eq!(server.export_run(&key, &dir, true).unwrap(), 3);
    let none = server
        .export_run("nonesuch", &temp("none"), false)
        .unwrap_err()
        .to_string();
    assert!(
        none.contains("no variant or rules version `nonesuch`"),
        "{none}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
