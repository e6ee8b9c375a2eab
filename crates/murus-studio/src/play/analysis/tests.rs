use super::*;
use crate::play::{PlaySaved, Replacement};

/// Standard, Romans to move, a Roman tower on d5: `d5-d7` breaks
/// through at once.
const ONE_MOVE_FROM_A_WIN: &str = "g2g2g21g2g2g2g2/8/3r24/8/8/8/r2r2r21r2r2r2r2 r";

fn model(variant: &str, seats: &[&str]) -> PlayModel {
    let saved = PlaySaved {
        variant_source: Variant::builtin(variant).unwrap().source().to_string(),
        seats: seats.iter().map(|s| (*s).to_string()).collect(),
        ..PlaySaved::default()
    };
    PlayModel::new(&saved)
}

/// An analysis with budgets small enough for tests.
fn small() -> Analysis {
    let mut a = Analysis {
        live_budget: LiveBudget {
            max_depth: 2,
            time: None,
            nodes: Some(50_000),
            proof_nodes: 20_000,
            threads: 1,
        },
        review_limits: Limits {
            nodes: Some(5_000),
            ..Limits::default()
        },
        ..Analysis::default()
    };
    a.set_on(true);
    a
}

fn mv(m: &PlayModel, text: &str) -> Move {
    m.game()
        .cursor()
        .variant()
        .parse_move(m.game().cursor().game().position(), text)
        .unwrap()
}

fn eval(mover: usize, depth: u32, first: Move, score: Score) -> PositionEval {
    PositionEval {
        depth,
        nodes: 1,
        mover,
        lines: vec![Line {
            first,
            score,
            pv: vec![first],
        }],
        done: false,
        proven: None,
    }
}

#[test]
fn turning_analysis_on_scores_every_legal_move_of_the_position_shown() {
    let mut m = model("standard", &["human", "human"]);
    assert!(m.open(|v| Replacement::position(v, ONE_MOVE_FROM_A_WIN)));
    let mut a = small();
    a.drive(&m);
    assert!(a.is_searching(), "the search starts at once");
    a.settle(&m);
    let e = a.current(&m).expect("a result for the position shown");
    assert!(e.done);
    assert_eq!(e.mover, 0);
    assert_eq!(e.score(), Some(Score::Win(1)));
    assert_eq!(e.pv(), [mv(&m, "d5-d7")]);
    let legal = m.game().cursor().game().legal_moves();
    assert_eq!(e.lines.len(), legal.len(), "every legal move is scored");
    for l in &e.lines {
        assert!(legal.contains(&l.first));
    }
    assert_eq!(e.score_of(mv(&m, "d5-d7")), Some(Score::Win(1)));
    // Nothing more to search for this position.
    a.drive(&m);
    assert!(!a.is_searching());
}

#[test]
fn the_live_analysis_on_two_threads_scores_every_legal_move_and_finds_the_win() {
    let mut m = model("standard", &["human", "human"]);
    assert!(m.open(|v| Replacement::position(v, ONE_MOVE_FROM_A_WIN)));
    let mut a = small();
    a.live_budget.threads = 2;
    a.live_budget.max_depth = 4;
    a.drive(&m);
    a.settle(&m);
    let e = a.current(&m).expect("a result for the position shown");
    assert!(e.done);
    assert_eq!(e.score(), Some(Score::Win(1)));
    let legal = m.game().cursor().game().legal_moves();
    assert_eq!(e.lines.len(), legal.len(), "every legal move is scored");
    // The studio's default: every core it may use.
    assert_eq!(
        LiveBudget::default().threads,
        murus_engine::util::default_threads()
    );
}

#[test]
fn a_message_of_a_search_for_an_earlier_position_is_dropped() {
    let mut m = model("standard", &["human", "human"]);
    let mut a = small();
    a.drive(&m);
    let first = a.live_token().expect("a search of the start");
    let b1b3 = mv(&m, "b1-b3");
    assert!(m.act(|g| g.play(b1b3)));
    a.drive(&m);
    let second = a.live_token().expect("a search of the new position");
    assert_ne!(first, second);
    // The old search's late message is dropped…
    a.receive(LiveMsg {
        token: first,
        eval: eval(0, 9, b1b3, Score::Cp(999)),
    });
    assert_eq!(a.current(&m), None);
    // …the new one's is kept.
    let c7c5 = mv(&m, "c7-c5");
    let fresh = eval(1, 1, c7c5, Score::Cp(-5));
    a.receive(LiveMsg {
        token: second,
        eval: fresh.clone(),
    });
    assert_eq!(a.current(&m), Some(&fresh));
    // A result is never shown for another position than the board's.
    assert!(m.act(|g| g.cursor_mut().back()));
    assert_eq!(a.current(&m), None);
    assert!(m.act(|g| g.cursor_mut().forward()));
    a.settle(&m);
    let e = a
        .current(&m)
        .expect("the search of the position after b1-b3");
    assert_eq!(e.mover, 1);
    assert!(e.done);
    assert_eq!(e.lines.len(), m.game().cursor().game().legal_moves().len());
}

#[test]
fn analysis_off_cancels_the_search_and_shows_nothing() {
    let m = model("standard", &["human", "human"]);
    let mut a = small();
    a.drive(&m);
    assert!(a.is_searching());
    a.set_on(false);
    assert!(!a.is_searching());
    a.drive(&m);
    assert!(!a.is_searching(), "stays off");
    assert_eq!(a.current(&m), None);
}

#[test]
fn the_live_analysis_waits_while_a_bot_thinks() {
    let mut m = model("standard", &["human", "random"]);
    let mut a = small();
    assert!(m.act(|g| g.play_text("b1-b3")));
    let turn = m.start_bot().expect("the bot's turn");
    a.drive(&m);
    assert!(!a.is_searching());
    let reply = turn.think(std::sync::Arc::new(AtomicBool::new(false)));
    m.bot_replied(turn.token, reply);
    a.drive(&m);
    assert!(a.is_searching(), "the human's turn again");
}

#[test]
fn a_move_that_lets_a_win_go_is_a_blunder_and_the_win_is_not() {
    let mut m = model("standard", &["human", "human"]);
    assert!(m.open(|v| Replacement::position(v, ONE_MOVE_FROM_A_WIN)));
    // The tower sows backwards instead of breaking through.
    assert!(m.act(|g| g.play_text("d5-d3")));
    assert!(m.act(|g| g.play_text("c7-c5")));
    m.act(|g| g.cursor_mut().jump_to(1)); // a review covers the whole line, moves ahead too
    let mut a = small();
    a.set_on(false);
    a.start_review(&m);
    assert!(a.is_reviewing());
    a.settle(&m);
    let r = a.review(&m).expect("the review of the line");
    assert!(r.is_complete());
    assert_eq!(r.progress(), (3, 3));
    let evals = r.evals();
    assert_eq!(evals.len(), 3, "one evaluation per position");
    assert_eq!(evals[0], Some(Score::Win(1)), "the Romans' view");
    assert!(evals.iter().all(Option::is_some));
    // The reply may be marked too, by however the evaluation values
    // it; the first move is marked for the win it lets go.
    let blunders = r.blunders();
    assert!(!blunders.is_empty(), "{blunders:?}");
    assert_eq!(blunders[0].index, 0);
    assert_eq!(blunders[0].mover, 0);
    assert_eq!(blunders[0].before, Score::Win(1));
    assert!(!matches!(blunders[0].after, Score::Win(_)));
    // Another branch from the start drops the review.
    m.act(|g| g.cursor_mut().jump_to(0));
    assert!(m.act(|g| g.play_text("d5-d7")));
    assert!(a.review(&m).is_none());
    // The winning line: a win, then the game won; no blunder.
    a.start_review(&m);
    a.settle(&m);
    let r = a.review(&m).expect("the review of the winning line");
    assert_eq!(r.evals(), [Some(Score::Win(1)), Some(Score::Win(0))]);
    assert_eq!(r.blunders(), []);
}

#[test]
fn with_three_players_scores_are_the_side_to_moves_and_no_blunders_are_marked() {
    let mut m = model("hex3-escape", &["human", "human", "human"]);
    let first = m.game().cursor().game().legal_moves()[0];
    assert!(m.act(|g| g.play(first)));
    let mut a = small();
    a.settle(&m);
    let e = a.current(&m).expect("a result");
    assert_eq!(e.mover, 1);
    let s = e.score().unwrap();
    assert_eq!(shown_score(s, 1, 3), (s, 1), "the side to move's view");
    a.start_review(&m);
    a.settle(&m);
    let r = a.review(&m).unwrap();
    assert_eq!(r.viewer(), None);
    assert_eq!(r.evals().len(), 2);
    assert_eq!(r.blunders(), []);
}

#[test]
fn the_toggle_is_saved_and_an_old_save_without_it_loads_with_analysis_off() {
    let old: PlaySaved = serde_json::from_str(r#"{"seed": 7}"#).unwrap();
    assert!(!old.analysis);
    assert_eq!(old.seed, 7);
    let saved = PlaySaved {
        analysis: true,
        ..PlaySaved::default()
    };
    let panel = crate::play::PlayPanel::new(saved);
    assert!(panel.analysis().is_on());
    assert!(panel.saved().analysis);
}

#[test]
fn blunders_are_big_drops_lost_wins_and_walks_into_a_loss() {
    assert!(is_blunder(Score::Cp(100), Score::Cp(-60)));
    assert!(
        !is_blunder(Score::Cp(100), Score::Cp(-50)),
        "exactly 150 is not"
    );
    assert!(is_blunder(Score::Win(3), Score::Cp(900)));
    assert!(!is_blunder(Score::Win(1), Score::Win(5)));
    assert!(is_blunder(Score::Cp(-400), Score::Loss(6)));
    assert!(!is_blunder(Score::Loss(2), Score::Loss(1)));
    assert!(!is_blunder(Score::Cp(0), Score::Win(3)));
}

#[test]
fn scores_read_from_the_first_players_point_of_view() {
    let v = Variant::standard();
    assert_eq!(score_text(Score::Cp(35), 0, &v), "+0.35");
    assert_eq!(score_text(Score::Cp(-120), 0, &v), "-1.20");
    assert_eq!(score_text(Score::Win(3), 0, &v), "Romans win in 3 plies");
    assert_eq!(score_text(Score::Loss(1), 0, &v), "Gauls win in 1 ply");
    // The Gauls to move and ahead: bad for the Romans.
    assert_eq!(shown_score(Score::Cp(50), 1, 2), (Score::Cp(-50), 0));
    assert_eq!(shown_score(Score::Win(2), 1, 2), (Score::Loss(2), 0));
    assert!((bar_fraction(Score::Cp(0)) - 0.5).abs() < 1e-6);
    assert!(bar_fraction(Score::Cp(400)) > 0.85);
    assert_eq!(bar_fraction(Score::Loss(1)), 0.0);
    assert_eq!(graph_value(Score::Cp(-2500)), -10.0);
}

#[test]
fn a_proven_value_replaces_a_score_that_says_otherwise() {
    let m = model("standard", &["human", "human"]);
    let v = m.game().cursor().variant();
    let (b1b3, a1a3) = (mv(&m, "b1-b3"), mv(&m, "a1-a3"));
    let mut e = eval(0, 3, b1b3, Score::Cp(35));
    e.lines.push(Line {
        first: a1a3,
        score: Score::Cp(10),
        pv: vec![a1a3],
    });
    assert_eq!(
        e.judged(),
        Some(Judged::Score(Score::Cp(35))),
        "nothing proven"
    );
    e.proven = Some(Proven {
        value: Value::Win(0),
        winning: vec![b1b3],
    });
    let won = Judged::Proven(Value::Win(0));
    assert_eq!(e.judged(), Some(won));
    assert_eq!(e.judged_move(b1b3, Score::Cp(35)), won, "a winning move");
    assert_eq!(
        e.judged_move(a1a3, Score::Cp(10)),
        Judged::Score(Score::Cp(10)),
        "not proven to win"
    );
    assert_eq!(
        e.judged_move(b1b3, Score::Win(5)),
        Judged::Score(Score::Win(5)),
        "a search's win agrees, and says in how many plies"
    );
    assert_eq!(won.text(0, v), "Romans win (proven)");
    assert_eq!(won.short(0, 2), "win");
    assert_eq!(won.bar_fraction(0, 2), 1.0);
    // The Gauls to move in a position they lose: every move loses.
    let mut lost = eval(1, 3, b1b3, Score::Cp(80));
    lost.proven = Some(Proven {
        value: Value::Win(0),
        winning: Vec::new(),
    });
    assert_eq!(lost.judged_move(a1a3, Score::Cp(80)), won);
    assert_eq!(won.short(1, 2), "win", "the Romans' point of view");
    assert_eq!(Judged::Score(Score::Cp(80)).short(1, 2), "-0.8");
    assert_eq!(Judged::Score(Score::Win(3)).short(0, 2), "#3");
    assert_eq!(Judged::Score(Score::Cp(-1234)).short(0, 2), "-12");
}
