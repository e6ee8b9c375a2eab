//! Budgets give the "unproven" verdict; the handler stops the solver, the
//! counter and the generator, and hears their progress.

use std::sync::atomic::{AtomicU64, Ordering};

use murus_engine::job::{Cancel, HandlerExt};
use murus_mural::generate::{Options, Progress as GenerateProgress, generate, rate};
use murus_mural::{Mode, Progress, Puzzle, Status, count, solve};

use crate::util::shipped;

fn hard() -> Puzzle {
    shipped("07-5x5-hard.toml")
}

#[test]
fn a_small_budget_gives_unproven_and_a_large_one_solves() {
    let p = hard();
    let s = solve(&p, &p.start, Mode::Optimal, 10, &());
    assert_eq!(s.status, Status::Unproven);
    assert!(s.moves.is_empty());
    let s = solve(&p, &p.start, Mode::Optimal, 50_000_000, &());
    assert_eq!(s.status, Status::Solved);
    assert_eq!(Some(s.moves.len() as u32), p.optimal);
}

#[test]
fn a_stop_ends_the_search_and_progress_reports() {
    let p = hard();
    let cancel = Cancel::new();
    cancel.cancel();
    let s = solve(&p, &p.start, Mode::Optimal, u64::MAX, &cancel);
    assert_eq!(s.status, Status::Unproven, "stopped before it began");
    assert!(s.nodes <= 1, "{} nodes after the stop", s.nodes);
    let calls = AtomicU64::new(0);
    let last = AtomicU64::new(0);
    let handler = ().on_progress(|p: &Progress| {
        calls.fetch_add(1, Ordering::Relaxed);
        last.store(p.nodes, Ordering::Relaxed);
    });
    let c = count(&p, &p.start, u64::MAX, &handler);
    assert_eq!(c.status, Status::Solved);
    assert_eq!(calls.load(Ordering::Relaxed) > 0, c.nodes >= 4096);
    assert!(last.load(Ordering::Relaxed) <= c.nodes);
}

#[test]
fn a_stop_during_a_count_leaves_it_unproven() {
    // The first progress report stops it: the count is not finished.
    let p = hard();
    let cancel = Cancel::new();
    let handler = cancel.clone().on_progress(|_: &Progress| cancel.cancel());
    let c = count(&p, &p.start, u64::MAX, &handler);
    assert_eq!(c.status, Status::Unproven);
    assert_eq!(c.proven_sets(), None);
    assert!(
        c.nodes < 3 * 4096,
        "{} nodes: the stop was not heard",
        c.nodes
    );
}

#[test]
fn a_stopped_generation_returns_what_it_found_and_reports_progress() {
    let opts = Options {
        board: "5x5".into(),
        colours: 1,
        sacrifice: false,
        difficulty: None,
        seed: 3,
        budget: 200_000,
    };
    let all = generate(&opts, 3, &()).expect("three puzzles");
    // Stopped at once: nothing.
    let cancel = Cancel::new();
    cancel.cancel();
    assert!(generate(&opts, 3, &cancel).expect("no error").is_empty());
    // Stopped once the first is found: the first, as without a stop.
    let seen = std::sync::Mutex::new(Vec::new());
    let cancel = Cancel::new();
    let handler = cancel.clone().on_progress(|p: &GenerateProgress| {
        seen.lock().unwrap().push(*p);
        if p.found == 1 {
            cancel.cancel();
        }
    });
    let some = generate(&opts, 3, &handler).expect("no error");
    assert_eq!(some.len(), 1);
    assert_eq!(some[0].0.to_toml(), all[0].0.to_toml());
    let seen = seen.into_inner().unwrap();
    assert_eq!(seen.first().map(|p| (p.attempts, p.found)), Some((0, 0)));
    assert_eq!(seen.last().map(|p| p.found), Some(1));
}

#[test]
fn a_count_out_of_budget_reports_no_partial_numbers() {
    // The optimal solve needs 18 nodes (the state equation's programs and
    // the ordering of its sowings), the full count about 7 100: with 2 000
    // the length is proven but the count is not.
    let p = hard();
    let s = solve(&p, &p.start, Mode::Optimal, 2_000, &());
    assert_eq!(s.status, Status::Solved);
    let c = count(&p, &p.start, 2_000, &());
    assert_eq!(c.status, Status::Unproven);
    assert_eq!(c.length, p.optimal, "the optimal length is proven");
    assert_eq!(c.proven_sets(), None);
    assert_eq!(c.proven_orderings(), None);
    assert_eq!(c.orderings, None);
    assert_eq!(rate(&p, &c), None, "no rating from a partial count");
    // With the budget to finish, the numbers are there.
    let c = count(&p, &p.start, 50_000_000, &());
    assert_eq!(c.proven_sets(), Some(1));
    assert!(c.proven_orderings().is_some_and(|o| o >= 1));
    assert!(rate(&p, &c).is_some());
    // A budget too small even for the length.
    let c = count(&p, &p.start, 5, &());
    assert_eq!(
        (c.status, c.length, c.proven_sets()),
        (Status::Unproven, None, None)
    );
}
