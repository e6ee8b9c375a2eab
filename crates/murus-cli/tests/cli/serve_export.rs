//! `murus serve --export-mgn`: the games kept in a data folder written as
//! one `.mgn` collection, without serving; `murus replay --game N` reads a
//! game of it back.

use serde_json::{Value, json};

use crate::serve::{request, start};
use crate::util::{TempDir, murus, stderr, stdout};

/// A game of standard between two people on the server at `addr`:
/// `plies` first legal moves, then the seat to move resigns. Its id and
/// moves.
pub(crate) fn resigned_game(addr: &str, plies: usize) -> (String, Vec<String>) {
    let body = json!({"variant": "standard", "seats": ["human", "human"]}).to_string();
    let (status, made) = request(addr, "POST", "/api/games", None, &body);
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let token = |i: usize| made["seats"][i]["token"].as_str().unwrap().to_string();
    let mut moves = Vec::new();
    for ply in 0..plies {
        let (_, g) = request(addr, "GET", &format!("/api/games/{id}"), None, "");
        let m = g["legal_moves"][0].as_str().unwrap().to_string();
        let body = json!({"move": m, "ply": ply}).to_string();
        let uri = format!("/api/games/{id}/moves");
        let (status, g): (u16, Value) = request(addr, "POST", &uri, Some(&token(ply % 2)), &body);
        assert_eq!(status, 200, "{g}");
        moves.push(m);
    }
    let uri = format!("/api/games/{id}/resign");
    let (status, g) = request(addr, "POST", &uri, Some(&token(plies % 2)), "");
    assert_eq!(status, 200, "{g}");
    (id, moves)
}

#[cfg(unix)]
#[test]
fn serve_exports_the_games_as_one_collection_that_replay_reads() {
    let data = TempDir::new("serve-export");
    let (child, addr) = start(&data);
    let (first, _) = resigned_game(&addr, 2);
    let (second, moves) = resigned_game(&addr, 3);
    crate::util::signal(&child, "TERM");
    let out = crate::util::finish(child);
    assert!(out.status.success(), "{}", stderr(&out));

    let file = data.join("games.mgn");
    let export = |extra: &[&str]| {
        let mut args = vec!["serve", "--data", data.to_str().unwrap()];
        args.extend(["--export-mgn", "standard", file.to_str().unwrap()]);
        args.extend(extra);
        murus(&args)
    };
    let out = export(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("wrote 2 games to"),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).is_empty(),
        "it does not serve: {}",
        stdout(&out)
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches("[Variant \"standard\"]").count(), 2, "{text}");
    assert!(text.contains(&format!("[Game \"{first}\"]")), "{text}");
    assert!(text.contains("[Seats \"human, human\"]"), "{text}");
    assert!(text.contains("[Termination \"resignation\"]"), "{text}");
    // Written once; again only with --force.
    let out = export(&[]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("give --force"), "{}", stderr(&out));
    assert!(export(&["--force"]).status.success());

    // The collection needs --game; each game replays.
    let f = file.to_str().unwrap();
    let out = murus(&["replay", f]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("is a collection of 2 games: give --game N (1 to 2)"),
        "{}",
        stderr(&out)
    );
    let n = if text.find(&second) > text.find(&first) {
        "2"
    } else {
        "1"
    };
    let out = murus(&["replay", f, "--game", n, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let replayed: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(replayed["plies"], moves.len(), "{replayed}");
    let out = murus(&["replay", f, "--game", "3"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--game 3: `"), "{}", stderr(&out));

    // An unknown rules version: an error, no file.
    let other = data.join("none.mgn");
    let out = murus(&[
        "serve",
        "--data",
        data.to_str().unwrap(),
        "--export-mgn",
        "nonesuch",
        other.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("no variant or rules version `nonesuch`"),
        "{}",
        stderr(&out)
    );
    assert!(!other.exists());
}
