//! The Lab panel.

use super::*;

#[test]
fn a_twenty_game_lab_run_shows_results() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    {
        let lab = &mut h.state_mut().lab;
        lab.saved.variant = "small".into();
        lab.saved.bots = vec!["greedy".into(), "random".into()];
        lab.saved.games = 20;
    }
    steps(&mut h, 1);
    h.get_by_label("Run").click();
    steps(&mut h, 2);
    assert!(h.state().lab.is_running() || !h.state().lab.games.is_empty());
    until(&mut h, 120, "the lab run", |h| !h.state().lab.is_running());
    let report = h.state().lab.report.as_ref().expect("a report");
    assert_eq!(report.games, 20);
    assert!(h.query_by_label_contains(": 20 games").is_some());
    assert!(h.query_by_label("End reasons").is_some());
    // Any finished game opens in Play.
    h.get_by_label("Open #1").click();
    steps(&mut h, 2);
    assert_eq!(h.state().tab, Tab::Play);
    let plies = h.state().lab.games[0].plies as usize;
    assert_eq!(h.state().play.model().game().ply(), plies);
}

#[test]
fn a_lab_run_can_be_cancelled() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    h.state_mut().lab.saved.games = 100_000;
    h.get_by_label("Run").click();
    steps(&mut h, 3);
    h.get_by_label("Cancel").click();
    until(&mut h, 60, "the cancelled run to stop", |h| {
        !h.state().lab.is_running()
    });
    assert!(h.state().lab.games.len() < 100_000);
    assert!(h.query_by_label_contains("cancelled after").is_some());
}
