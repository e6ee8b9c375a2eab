//! The Play panel's analysis under the layout harness: the live analysis
//! on and off, its result, a long search status, and "Analyze game"
//! started and finished, none of which moves a button.

use murus_ai::analysis::{Line, Score};
use murus_ai::proof::Value;
use murus_studio::play::analysis::{LiveMsg, PositionEval, Proven};

use super::*;
use crate::analysis::{play_first_moves, small_analysis};

fn open() -> H {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    small_analysis(&mut h);
    h
}

/// A long status: a deep search of many nodes, its value proven.
fn long_status(h: &mut H) {
    let Some(token) = h.state().play.analysis().live_token() else {
        return;
    };
    let first = h.state().play.model().game().cursor().game().legal_moves()[0];
    let eval = PositionEval {
        depth: 99,
        nodes: 123_456_789_012,
        mover: h.state().play.model().game().cursor().turn(),
        lines: vec![Line {
            first,
            score: Score::Cp(5),
            pv: vec![first; 30],
        }],
        done: false,
        proven: Some(Proven {
            value: Value::Draw,
            winning: Vec::new(),
        }),
    };
    h.state_mut()
        .play
        .analysis_mut()
        .receive(LiveMsg { token, eval });
}

#[test]
fn the_analysis_buttons_keep_their_places() {
    check(Panel {
        name: "Play's analysis",
        open,
        buttons: &[
            "Analyze game",
            "New game",
            "Export diagram…",
            "Export GIF…",
            "Save record…",
            "Load position",
            "Copy record",
        ],
        changes: vec![
            Change::new("analysis on", |h| click(h, "Analysis")),
            Change::new("a long search status", |h| {
                h.state_mut().play.analysis_mut().live_budget.max_depth = 30;
                h.state_mut().play.analysis_mut().live_budget.nodes = None;
                h.state_mut().play.analysis_mut().live_budget.time = None;
                play_first_moves(h, 1);
                long_status(h);
            }),
            Change::new("a game of twelve plies, analysed", |h| {
                small_analysis(h);
                play_first_moves(h, 12);
                crate::analysis::analysed(h);
            }),
            Change::new("Analyze game started", |h| {
                h.state_mut().play.analysis_mut().review_limits.nodes = Some(40_000);
                click(h, "Analyze game");
                assert!(h.state().play.analysis().is_reviewing());
            }),
            Change::new("Analyze game finished", |h| {
                until(h, 300, "the review", |h| {
                    !h.state().play.analysis().is_reviewing()
                });
            }),
            Change::new("analysis off", |h| click(h, "Analysis")),
        ],
    });
}
