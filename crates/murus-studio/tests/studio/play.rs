//! The Play panel.

use super::*;

#[test]
fn play_a_move_by_clicking_two_cells_then_undo_and_redo_it() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 3);
    assert!(h.query_by_label("no moves yet").is_some());

    h.get_by_label("cell b1").click();
    steps(&mut h, 2);
    let b1 = h.state().play.variant.geometry().parse_cell("b1");
    assert_eq!(h.state().play.selected, b1, "clicking a tower selects it");

    h.get_by_label("cell b3").click();
    steps(&mut h, 2);
    assert_eq!(h.state().play.game.ply(), 1);
    assert!(
        h.query_by_label("1. r b1-b3").is_some(),
        "the move list shows the move"
    );

    h.get_by_label("Undo").click();
    steps(&mut h, 2);
    assert_eq!(h.state().play.game.ply(), 0);
    assert!(h.query_by_label("1. r b1-b3").is_none());

    h.get_by_label("Redo").click();
    steps(&mut h, 2);
    assert_eq!(h.state().play.game.ply(), 1);
    assert!(h.query_by_label("1. r b1-b3").is_some());
}

#[test]
fn a_bot_answers_on_a_background_thread() {
    let mut a = app(Tab::Play);
    a.play.saved.seats = vec!["human".into(), "random".into()];
    let mut h = harness(a);
    steps(&mut h, 2);
    h.get_by_label("cell c1").click();
    steps(&mut h, 1);
    h.get_by_label("cell c3").click();
    until(&mut h, 30, "the bot's reply", |h| {
        h.state().play.game.ply() == 2
    });
    assert!(h.query_by_label_contains("2. g ").is_some());
    // Undo takes back the bot's move and the human's, back to a human turn.
    h.get_by_label("Undo").click();
    steps(&mut h, 2);
    assert_eq!(h.state().play.game.ply(), 0);
}

#[test]
fn a_malformed_position_string_shows_a_message_and_keeps_the_text() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    let bad = "r2r2/8/zz w";
    h.state_mut().play.position_text = bad.into();
    h.get_by_label("Load position").click();
    steps(&mut h, 2);
    assert!(
        h.query_by_label_contains("invalid position string")
            .is_some()
    );
    assert_eq!(h.state().play.position_text, bad);
    assert_eq!(h.state().play.game.ply(), 0);
}

#[test]
fn setup_mode_reports_what_is_wrong() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    h.get_by_label("Set up a position").click();
    steps(&mut h, 2);
    assert!(h.query_by_label("Set-up is legal").is_some());
    // Paint a Roman tower on the Gauls' home rank: the game is already won.
    h.get_by_label("Romans tower").click();
    steps(&mut h, 1);
    h.get_by_label("Clear board").click();
    steps(&mut h, 1);
    h.get_by_label("cell a7").click();
    steps(&mut h, 2);
    assert!(h.query_by_label("Set-up is legal").is_none());
    let problems = h.state().play.setup.as_ref().unwrap().problems.clone();
    assert!(
        h.query_by_label_contains("Gauls have no stones").is_some(),
        "{problems:?}"
    );
    assert!(h.query_by_label_contains("impossible position").is_some());
    assert!(h.query_by_label("Start from this set-up").is_some());
    // Give the move to the Gauls: legal, but already won, and reported so.
    h.state_mut().play.setup.as_mut().unwrap().turn = 1;
    h.get_by_label("cell h7").click();
    steps(&mut h, 2);
    assert!(h.query_by_label_contains("stone counts differ").is_some());
}
