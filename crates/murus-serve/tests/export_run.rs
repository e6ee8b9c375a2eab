//! A rules version's playtest games exported as a lab run folder
//! (`Server::export_run`): games ended by the rules, by a resignation and
//! by a draw agreed, read back by the lab's own reader and replay check,
//! with the lab's report of them; games still going on are left out.

use axum::Router;
use axum::http::StatusCode;
use murus_engine::Variant;
use murus_lab::rundir::Holding;
use murus_lab::{Mode, RunDir, RunSpec};
use murus_serve::Server;
use serde_json::json;

mod common;

use common::{SPRINT, call, line_to_the_end, new_game};

/// A game of rules `key` between two people, `moves` played in turn:
/// its id and the seats' tokens.
async fn played(app: &Router, key: &str, moves: &[String]) -> (String, [String; 2]) {
    let (id, first, second) = new_game(app, key).await;
    let tokens = [first, second];
    for (ply, m) in moves.iter().enumerate() {
        let uri = format!("/api/games/{id}/moves");
        let body = json!({ "move": m, "ply": ply });
        let (status, g) = call(
            app,
            "POST",
            &uri,
            Some(&tokens[ply % 2]),
            Some(&body.to_string()),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{g}");
    }
    (id, tokens)
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
    let (to_end, won) = (4..9)
        .find_map(|n| line_to_the_end(&sprint, n, |_| true))
        .unwrap();

    // 1. Over by the rules.
    played(&app, &key, &to_end).await;
    // 2. The Gauls (seat 1, to move after one ply) resign.
    let (id, tokens) = played(&app, &key, &to_end[..1]).await;
    let (status, g) = call(
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
        let (status, g) = call(
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
