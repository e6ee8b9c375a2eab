//! Sharing rules for playtesting as the studio does: a server started in
//! the process on a real port, told of a rules file, a game made with its
//! links, and the links answering.

use murus_serve::share::{LocalServer, ShareError, Target, share};
use serde_json::Value;

fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("murus-share-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

const TINY: &str = "\
variant tiny
title \"Tiny <b>walls</b>\"
";

fn loopback_any() -> Vec<std::net::SocketAddr> {
    vec!["127.0.0.1:0".parse().unwrap()]
}

#[test]
fn a_local_server_takes_a_rules_file_and_makes_a_game_whose_links_answer() {
    let data = scratch("local");
    let server = LocalServer::start(&data, &loopback_any()).unwrap();
    assert!(server.addr().ip().is_loopback());
    let source = murus_engine::Variant::builtin("houdini")
        .unwrap()
        .source()
        .to_string();
    let players = vec!["White".to_string(), "Black".to_string()];
    let seats = vec!["human".to_string(), "easy".to_string()];
    let game = share(
        &server.target(),
        &source,
        Some("houdini.mg"),
        &players,
        &seats,
    )
    .unwrap();
    assert_eq!(game.server, server.url());
    assert_eq!(game.seats.len(), 2);
    assert_eq!(game.seats[0].player, "White");
    let link = game.seats[0]
        .url
        .as_deref()
        .expect("a person's seat has a link");
    assert!(
        link.starts_with(&format!("{}/play/{}?token=", server.url(), game.id)),
        "{link}"
    );
    assert_eq!(game.seats[1].url, None, "a bot's seat has none");
    assert_eq!(
        game.spectate_url,
        format!("{}/watch/{}", server.url(), game.id)
    );
    let shown = server
        .target()
        .get(&format!("/api/games/{}", game.id))
        .unwrap();
    assert_eq!(shown["variant"], Value::from("houdini"));
    assert_eq!(shown["rules_key"], Value::from(game.rules_key.clone()));
    let text = game.links_text("Houdini");
    assert!(
        text.contains(link) && text.contains(&game.spectate_url),
        "{text}"
    );
    assert!(!text.contains("Black:"), "a bot's seat has no line: {text}");
    drop(server);
    // Kept in the data folder: a server started again over it has the game.
    let again = LocalServer::start(&data, &loopback_any()).unwrap();
    let shown = again
        .target()
        .get(&format!("/api/games/{}", game.id))
        .unwrap();
    assert_eq!(shown["variant"], Value::from("houdini"));
    drop(again);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn rules_with_errors_and_a_server_not_there_are_said() {
    let data = scratch("errors");
    let server = LocalServer::start(&data, &loopback_any()).unwrap();
    let players = vec!["White".to_string(), "Black".to_string()];
    let seats = vec!["human".to_string(), "human".to_string()];
    let e = share(&server.target(), TINY, Some("tiny.mg"), &players, &seats).unwrap_err();
    match &e {
        ShareError::Refused {
            status, message, ..
        } => {
            assert_eq!(*status, 422);
            assert!(!message.is_empty());
        }
        other => panic!("{other}"),
    }
    let port = server.addr().port();
    drop(server);
    std::thread::sleep(std::time::Duration::from_millis(200));
    let gone = Target::new(&format!("http://127.0.0.1:{port}/"), None).unwrap();
    let e = share(&gone, TINY, None, &players, &seats).unwrap_err();
    assert!(matches!(e, ShareError::Connect { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("no playtest server answers at http://127.0.0.1:"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_server_with_a_password_needs_it() {
    let data = scratch("password");
    // Started as `murus serve --password` would be.
    let server = murus_serve::Server::open(&data)
        .unwrap()
        .with_password("sesame");
    server.add_shipped().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let router = server.router();
    runtime.spawn(async move { axum::serve(listener, router).await });
    let source = murus_engine::Variant::standard().source().to_string();
    let players = vec!["White".to_string(), "Black".to_string()];
    let seats = vec!["human".to_string(), "human".to_string()];
    let url = format!("http://{addr}/");
    let e = share(
        &Target::new(&url, None).unwrap(),
        &source,
        None,
        &players,
        &seats,
    )
    .unwrap_err();
    assert!(matches!(e, ShareError::Refused { status: 401, .. }), "{e}");
    let wrong = Target::new(&url, Some("open")).unwrap();
    assert!(matches!(
        share(&wrong, &source, None, &players, &seats),
        Err(ShareError::Refused { status: 401, .. })
    ));
    let right = Target::new(&url, Some("sesame")).unwrap();
    let game = share(&right, &source, None, &players, &seats).unwrap();
    assert_eq!(game.seats.iter().filter(|s| s.url.is_some()).count(), 2);
    let _ = std::fs::remove_dir_all(&data);
}
