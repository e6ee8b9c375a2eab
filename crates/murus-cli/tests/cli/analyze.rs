//! `murus analyze`: the best move, its score and line, the K best moves,
//! and clear errors.

use murus_engine::{Game, Variant};

use crate::util::{json, murus, stderr};

/// The JSON answer of a successful `murus ARGS`.
fn answer(args: &[&str]) -> serde_json::Value {
    let o = murus(args);
    assert!(o.status.success(), "{}", stderr(&o));
    json(&o)
}

/// Romans to move break through at once (a5-a7 or a5-c7).
const WIN_IN_ONE: &str = "4g2g2g2g2/8/r27/8/8/8/2r25 r";

#[test]
fn a_won_position_shows_the_win_in_plies() {
    let o = murus(&["analyze", "standard", "--position", WIN_IN_ONE]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("score  win 1"), "{text}");
    assert!(
        text.contains("best   a5-a7") || text.contains("best   a5-c7"),
        "{text}"
    );
    // The defender sees its loss two plies away.
    let j = answer(&[
        "analyze",
        "standard",
        "--position",
        "4g2g2g2g2/8/r27/8/8/8/2r25 g",
        "--json",
    ]);
    assert_eq!(j["score"]["loss"], 2, "{j}");
}

#[test]
fn multipv_lists_the_best_moves_best_first_with_legal_lines() {
    let args = [
        "analyze",
        "standard",
        "--moves",
        "b1-b3",
        "c7-c5",
        "--bot",
        "alphabeta:20000",
        "--multipv",
        "4",
        "--json",
    ];
    let j = answer(&args);
    for key in ["best", "score", "depth", "nodes", "pv", "lines"] {
        assert!(!j[key].is_null(), "{key}: {j}");
    }
    let lines = j["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 4, "{j}");
    assert_eq!(lines[0]["move"], j["best"]);
    assert_eq!(lines[0]["pv"], j["pv"]);
    let cp: Vec<i64> = lines
        .iter()
        .map(|l| {
            l["score"]["cp"]
                .as_i64()
                .expect("no proven result this early")
        })
        .collect();
    assert!(cp.windows(2).all(|w| w[0] >= w[1]), "best first: {cp:?}");
    let v = Variant::standard();
    let mut moves: Vec<&str> = Vec::new();
    for l in lines {
        let mut game = Game::new(&v);
        game.play_str("b1-b3").unwrap();
        game.play_str("c7-c5").unwrap();
        let pv = l["pv"].as_array().unwrap();
        assert_eq!(pv[0], l["move"]);
        for m in pv {
            game.play_str(m.as_str().unwrap()).unwrap();
        }
        moves.push(l["move"].as_str().unwrap());
    }
    moves.sort_unstable();
    moves.dedup();
    assert_eq!(moves.len(), 4, "four different moves");
    // The same question gets the same answer: nodes, not time.
    assert_eq!(answer(&args), j);
}

#[test]
fn a_time_limit_and_a_depth_limit_answer() {
    let j = answer(&["analyze", "advanced", "--movetime", "100", "--json"]);
    assert!(j["depth"].as_u64().unwrap() >= 1, "{j}");
    let j = answer(&["analyze", "hex", "--depth", "2", "--json"]);
    assert_eq!(j["depth"], 2, "{j}");
}

#[test]
fn bad_analysis_requests_fail_clearly() {
    for (args, says) in [
        (
            &["analyze", "standard", "--moves", "b1-b3", "b1-b3"][..],
            "move 2 `b1-b3`",
        ),
        (
            &["analyze", "standard", "--bot", "random"][..],
            "--bot random: analysis searches with alpha-beta: give a level (easy, medium, hard, expert)",
        ),
        (
            &["analyze", "standard", "--bot", "mcts:100"][..],
            "alpha-beta",
        ),
        (
            &["analyze", "standard", "--bot", "alphabeta:lots"][..],
            "lots",
        ),
        (&["analyze", "standard", "--multipv", "0"][..], "--multipv"),
        (
            &["analyze", "standard", "--movetime", "0"][..],
            "--movetime",
        ),
        (&["analyze", "standard", "--depth", "65"][..], "--depth"),
        (
            &[
                "analyze",
                "standard",
                "--position",
                WIN_IN_ONE,
                "--moves",
                "a5-a7",
            ][..],
            "the game is over: Romans win by breakthrough",
        ),
        (
            &["analyze", "standard", "--position", "8/8 r"][..],
            "position",
        ),
    ] {
        let o = murus(args);
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
