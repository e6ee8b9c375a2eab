//! A bounded load over real TCP: many human-vs-human games played at once
//! through the HTTP API by the load client that `murus bench serve` uses,
//! each player holding its game's event stream open and drawing the board
//! as the page does. Behaviour only, never timed: every move is answered
//! 200 exactly once, and every game's record in the database (a real
//! SQLite file) is complete and replays, also after the server is opened
//! again.

use std::time::Duration;

use murus_serve::Server;
use murus_serve::load::{self, Plan};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forty_games_at_once_are_each_played_move_for_move_and_kept() {
    let dir = load::temp_folder("load-test").unwrap();
    let server = Server::open(&dir).unwrap();
    server.add_shipped().unwrap();
    let addr = load::listen(&server).await.unwrap();
    let plan = Plan {
        // A few milliseconds of thought, so that moves of many games
        // interleave rather than each game running through in turn.
        think: (Duration::ZERO, Duration::from_millis(5)),
        seed: 7,
        // A game that stops (a move lost) fails the test soon.
        patience: Duration::from_secs(30),
        ..Plan::flat_out(40, 12)
    };
    let report = load::run(addr, &plan).await;
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    assert_eq!(report.games.len(), 40);
    // Standard games do not end within 12 plies: every game is played to
    // its 12th ply, each move answered 200 once.
    for g in &report.games {
        assert_eq!(g.moves.len(), 12, "game {}: {:?}", g.id, g.moves);
    }
    assert_eq!(report.moves(), 40 * 12);
    assert_eq!(report.latencies.len(), report.moves());
    // Each player drew the board of each position after a move once (12
    // a game, two players), and the start's too when its event stream
    // opened before the first move.
    assert!(
        (40 * 12 * 2..=40 * 13 * 2).contains(&report.boards),
        "{} boards",
        report.boards
    );
    assert!(
        load::check(&server, &report).is_empty(),
        "{:#?}",
        load::check(&server, &report)
    );
    // The moves are the seed's: a second load with the same seed plays
    // the same games.
    let again = load::run(
        addr,
        &Plan {
            games: 3,
            ..plan.clone()
        },
    )
    .await;
    assert!(again.errors.is_empty(), "{:#?}", again.errors);
    for (a, b) in again.games.iter().zip(&report.games) {
        assert_eq!(a.moves, b.moves);
    }
    drop(server);
    // The database as a restarted server reads it.
    let reopened = Server::open(&dir).unwrap();
    reopened.add_shipped().unwrap();
    assert!(load::check(&reopened, &report).is_empty());
    drop(reopened);
    std::fs::remove_dir_all(&dir).unwrap();
}
