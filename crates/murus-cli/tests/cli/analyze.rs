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

/// The Gauls' only move is b6-d6, after which b5-b7 breaks through: the
/// position is searched as the one after its move (it once printed `cp 0`
/// at depth 0, from no search at all).
#[test]
fn a_position_with_one_legal_move_is_searched() {
    let forced = "g17/1g2g15/g1r21g1r2g12/1g11r1r2r12/3r12g11/8/8 g";
    let j = answer(&["analyze", "standard", "--position", forced, "--json"]);
    assert_eq!(j["best"], "b6-d6", "{j}");
    assert_eq!(j["score"]["loss"], 2, "{j}");
    assert!(j["depth"].as_u64().unwrap() >= 1, "{j}");
    assert!(j["nodes"].as_u64().unwrap() >= 1, "{j}");
    assert_eq!(j["pv"][0], "b6-d6");
    assert_eq!(j["pv"][1], "b5-b7");
}

/// A won game with a forced reply: the review marks no move `??` (the
/// forced reply and the winner's moves once were), writes each score with
/// its depth, and writes nothing after the move that ends the game.
#[test]
fn a_review_marks_neither_forced_nor_winning_moves_as_blunders() {
    let dir = crate::util::TempDir::new("analyze-forced");
    let game = dir.write(
        "game.mgn",
        "[Variant \"standard\"]\n\
         [Start \"1g11g14/g11g11g11g21/1g1g1g1r1g1g11/g12g1r11r11/g1r1r11r11r11/1r1r1r2r1g11r1/1r12r23 r\"]\n\
         [Result \"*\"]\n\n\
         1. e1-e3 g6-e6 2. e3-e5 e6-g6 3. e5-c7 *\n",
    );
    let o = murus(&[
        "analyze",
        "--game",
        game.to_str().unwrap(),
        "--bot",
        "alphabeta:20000",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // One line, whatever the wrapping.
    let text = String::from_utf8_lossy(&o.stdout);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!text.contains('?'), "{text}");
    assert!(!text.contains("0 plies"), "{text}");
    assert!(
        text.contains("g6-e6 { Romans win in 3 plies (depth "),
        "{text}"
    );
    // The game is over: its result is written, not left open.
    assert!(text.contains("3. e5-c7 1-0"), "{text}");
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(stderr(&o).contains("0 blunders marked"), "{}", stderr(&o));
}

#[test]
fn two_threads_find_the_win_and_answer_a_legal_move_within_the_time() {
    let j = answer(&[
        "analyze",
        "standard",
        "--position",
        WIN_IN_ONE,
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(j["score"]["win"], 1, "{j}");
    let started = std::time::Instant::now();
    let j = answer(&[
        "analyze",
        "standard",
        "--moves",
        "b1-b3",
        "--movetime",
        "300",
        "--threads",
        "2",
        "--json",
    ]);
    assert!(started.elapsed().as_secs() < 10);
    let v = Variant::standard();
    let mut game = Game::new(&v);
    game.play_str("b1-b3").unwrap();
    game.play_str(j["best"].as_str().unwrap()).unwrap();
    let o = murus(&["analyze", "standard", "--threads", "0"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--threads must be at least 1"),
        "{}",
        stderr(&o)
    );
}
