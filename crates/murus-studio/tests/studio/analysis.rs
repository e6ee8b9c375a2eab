//! Play's analysis: the evaluation bar, the live search's status and
//! lines, proven values and the game review (issue 38's defects, each a
//! test named after what it guards).

use murus_ai::analysis::{Line, Score};
use murus_ai::proof::Value;
use murus_studio::play::Replacement;
use murus_studio::play::analysis::{LiveBudget, LiveMsg, PositionEval, Proven};

use super::*;

/// Standard, Romans to move, a Roman tower on d5: `d5-d7` breaks through.
pub const ONE_MOVE_FROM_A_WIN: &str = "g2g2g21g2g2g2g2/8/3r24/8/8/8/r2r2r21r2r2r2r2 r";

/// Budgets small enough for tests: two plies or 50 000 nodes a position
/// live, 5 000 nodes a position in a review.
pub fn small_analysis(h: &mut Harness<'_, StudioApp>) {
    let a = h.state_mut().play.analysis_mut();
    a.live_budget = LiveBudget {
        max_depth: 2,
        time: None,
        nodes: Some(50_000),
        proof_nodes: 20_000,
        threads: 1,
    };
    a.review_limits.nodes = Some(5_000);
}

/// Loads `position` into the Play panel's game.
pub fn load(h: &mut Harness<'_, StudioApp>, position: &str) {
    assert!(
        h.state_mut()
            .play
            .model_mut()
            .open(|v| Replacement::position(v, position))
    );
    steps(h, 2);
}

/// Steps until the live analysis of the position shown has ended.
pub fn analysed(h: &mut Harness<'_, StudioApp>) {
    until(h, 120, "the analysis of the position", |h| {
        let play = &h.state().play;
        play.analysis()
            .current(play.model())
            .is_some_and(|e| e.done)
    });
    steps(h, 2);
}

/// Plays the first legal move `n` times (fewer where the game ends).
pub fn play_first_moves(h: &mut Harness<'_, StudioApp>, n: usize) {
    for _ in 0..n {
        let m = h.state_mut().play.model_mut();
        if m.game().cursor().game().outcome().is_some() {
            break;
        }
        let mv = m.game().cursor().game().legal_moves()[0];
        assert!(m.act(|g| g.play(mv)));
    }
    steps(h, 2);
}

/// Sends the live search going on a result of its own (deeper than any it
/// will find, so that it stays shown).
fn inject(h: &mut Harness<'_, StudioApp>, eval: PositionEval) {
    let token = h
        .state()
        .play
        .analysis()
        .live_token()
        .expect("a search going on");
    h.state_mut()
        .play
        .analysis_mut()
        .receive(LiveMsg { token, eval });
    steps(h, 2);
}

/// Issue 38: the evaluation bar had no number; its score could be read
/// only in its hover text. Now the score is written on the bar, at the
/// viewer's end.
#[test]
fn the_evaluation_bar_shows_its_score_as_a_number() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    small_analysis(&mut h);
    load(&mut h, ONE_MOVE_FROM_A_WIN);
    click(&mut h, "Analysis");
    analysed(&mut h);
    let bar = h.get_by_label("Evaluation Romans win in 1 ply").rect();
    let number = h.get_by_label("#1").rect();
    assert!(
        bar.expand(1.0).contains_rect(number),
        "the number {number:?} is on the bar {bar:?}"
    );
    assert!(number.center().y > bar.center().y, "at the Romans' end");
}

/// Issue 38: a move the proof search proved winning was listed beside a
/// centipawn score ("d5-d7  +0.35") under "Proven: Romans win". Now a
/// proven move, the bar and the hover texts say the value proved.
#[test]
fn proven_moves_are_not_shown_with_scores_that_contradict_them() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    load(&mut h, ONE_MOVE_FROM_A_WIN);
    click(&mut h, "Analysis");
    let (d5d7, a1a3) = {
        let m = h.state().play.model();
        let parse = |t| {
            m.game()
                .cursor()
                .variant()
                .parse_move(m.game().cursor().game().position(), t)
                .unwrap()
        };
        (parse("d5-d7"), parse("a1-a3"))
    };
    // A shallow search that has not seen the win, and the proof that has.
    inject(
        &mut h,
        PositionEval {
            depth: 99,
            nodes: 1,
            mover: 0,
            lines: vec![
                Line {
                    first: d5d7,
                    score: Score::Cp(35),
                    pv: vec![d5d7],
                },
                Line {
                    first: a1a3,
                    score: Score::Cp(10),
                    pv: vec![a1a3],
                },
            ],
            done: true,
            proven: Some(Proven {
                value: Value::Win(0),
                winning: vec![d5d7],
            }),
        },
    );
    assert!(shows(&h, "Proven: Romans win with perfect play"));
    assert!(shows_exactly(&h, "d5-d7  Romans win (proven)"));
    assert!(!shows(&h, "+0.35"), "no score that says otherwise");
    assert!(
        shows_exactly(&h, "a1-a3  +0.10"),
        "a move not proven keeps its score"
    );
    assert!(shows_exactly(&h, "Evaluation Romans win (proven)"));
    assert!(shows_exactly(&h, "win"), "the bar's number");
}

/// Issue 38: the live search's status ("Depth 14 · 2345678 nodes ·
/// searching") was cut off with "…" in the side panel. Now it wraps in
/// the rows kept for it.
#[test]
fn the_search_status_is_never_cut_off() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    click(&mut h, "Analysis");
    let m = h.state().play.model();
    let first = m.game().cursor().game().legal_moves()[0];
    inject(
        &mut h,
        PositionEval {
            depth: 99,
            nodes: 123_456_789_012,
            mover: 0,
            lines: vec![Line {
                first,
                score: Score::Cp(5),
                pv: vec![first],
            }],
            done: false,
            proven: None,
        },
    );
    assert_whole(&h, "Depth 99 · ");
    assert!(shows(&h, "123456789012 nodes"));
}

/// Fails unless the label containing `needle` shows its whole text: as
/// wide as the text, or wrapped onto more than one row (an elided label
/// is one row narrower than its text).
fn assert_whole(h: &Harness<'_, StudioApp>, needle: &str) {
    let node = h.get_by_label_contains(needle);
    let n = node.accesskit_node();
    let text = n.label().or_else(|| n.value()).unwrap().to_string();
    let rect = node.rect();
    let (width, row) = h.ctx.fonts_mut(|f| {
        let g = f.layout_no_wrap(
            text.clone(),
            egui::FontId::proportional(14.0),
            egui::Color32::WHITE,
        );
        (g.size().x, g.size().y)
    });
    assert!(
        rect.width() + 1.0 >= width || rect.height() > row * 1.5,
        "{text:?} ({width} wide) is cut off in {rect:?}"
    );
}

/// Issue 38: the proof's line ("Proven: Romans win with perfect play ·
/// winning moves …") was cut off with "…" in the side panel. Now it wraps.
#[test]
fn the_proof_line_is_never_cut_off() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    click(&mut h, "Analysis");
    let legal = h.state().play.model().game().cursor().game().legal_moves();
    let first = legal[0];
    inject(
        &mut h,
        PositionEval {
            depth: 99,
            nodes: 1,
            mover: 0,
            lines: vec![Line {
                first,
                score: Score::Win(9),
                pv: vec![first],
            }],
            done: true,
            proven: Some(Proven {
                value: Value::Win(0),
                winning: legal[..12].to_vec(),
            }),
        },
    );
    assert_whole(&h, "Proven: Romans win with perfect play · winning moves");
}

/// Issue 38: "Analyze game" gave its place to Cancel while the review ran
/// and came back when it ended, so the row's buttons moved under the
/// pointer. Now it stays, disabled, and Cancel is under the graph.
#[test]
fn analyze_game_does_not_move_the_buttons() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    small_analysis(&mut h);
    play_first_moves(&mut h, 12);
    h.state_mut().play.analysis_mut().review_limits.nodes = Some(40_000);
    let rects = |h: &Harness<'_, StudioApp>| {
        ["Analyze game", "Export GIF…", "Copy record"].map(|l| h.get_by_label(l).rect())
    };
    let before = rects(&h);
    click(&mut h, "Analyze game");
    assert!(h.state().play.analysis().is_reviewing());
    assert_eq!(rects(&h), before, "while the review runs");
    let cancel = h.get_by_label("Cancel").rect();
    assert!(
        cancel.top() >= before[0].bottom(),
        "Cancel is under the button"
    );
    until(&mut h, 300, "the review", |h| {
        !h.state().play.analysis().is_reviewing()
    });
    steps(&mut h, 2);
    assert!(shows(&h, "Evaluation graph"));
    assert_eq!(rects(&h), before, "once the review is in");
}
