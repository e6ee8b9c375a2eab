//! A bot named by its level (`easy`, `medium`, `hard`, `expert`) wherever
//! a bot is named: `analyze --bot`, `selfplay --bots`, `match` and `train
//! --bot` here, UGI's `setoption name bot` in `ugi.rs`; all read by one
//! parser (`murus_ai::BotSpec`).

use crate::util::{json, murus, stderr};

/// `analyze --bot easy` searches as the easy bot looks: one ply, the best
/// evaluation (`greedy` alike); the searching levels are node budgets.
#[test]
fn analyze_takes_every_level() {
    let easy = murus(&["analyze", "small", "--bot", "easy", "--json"]);
    assert!(easy.status.success(), "{}", stderr(&easy));
    let easy = json(&easy);
    assert_eq!(easy["depth"], 1, "{easy}");
    let greedy = json(&murus(&["analyze", "small", "--bot", "greedy", "--json"]));
    assert_eq!(easy["best"], greedy["best"]);
    for level in ["medium", "hard", "expert"] {
        let o = murus(&["analyze", "small", "--bot", level, "--depth", "2", "--json"]);
        assert!(o.status.success(), "{level}: {}", stderr(&o));
        assert_eq!(json(&o)["depth"], 2, "{level}");
    }
}

#[test]
fn selfplay_and_match_take_levels() {
    let o = murus(&[
        "selfplay",
        "small",
        "--bots",
        "easy,medium",
        "--games",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&o)["games"], 2);
    let o = murus(&["match", "small", "easy", "random", "--games", "2", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&o)["games"], 2);
}

/// Training labels positions with search scores: the searching levels
/// serve, `easy` (one ply, no search) is refused naming those that do.
#[test]
fn train_names_the_levels_it_takes() {
    let o = murus(&["train", "small", "--bot", "easy"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: --bot easy: the positions are scored by an alpha-beta search: give medium, hard, expert or alphabeta:NODES\n"
    );
}
