//! Budgets give the "unproven" verdict; cancellation stops the search;
//! progress is reported.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use murus_mural::generate::rate;
use murus_mural::{Hooks, Mode, Puzzle, Status, count, solve};

fn hard() -> Puzzle {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../puzzles/07-5x5-hard.toml"
    );
    Puzzle::from_toml(&std::fs::read_to_string(path).expect("readable")).expect("valid")
}

#[test]
fn a_small_budget_gives_unproven_and_a_large_one_solves() {
    let p = hard();
    let s = solve(&p, &p.start, Mode::Optimal, 10, Hooks::default());
    assert_eq!(s.status, Status::Unproven);
    assert!(s.moves.is_empty());
    let s = solve(&p, &p.start, Mode::Optimal, 50_000_000, Hooks::default());
    assert_eq!(s.status, Status::Solved);
    assert_eq!(Some(s.moves.len() as u32), p.optimal);
}

#[test]
fn cancel_stops_and_progress_reports() {
    let p = hard();
    let cancel = AtomicBool::new(true);
    let s = solve(
        &p,
        &p.start,
        Mode::Optimal,
        u64::MAX,
        Hooks {
            cancel: Some(&cancel),
            progress: None,
        },
    );
    assert_eq!(s.status, Status::Unproven);
    let calls = AtomicU64::new(0);
    let progress = |_nodes: u64, _bound: u32| {
        calls.fetch_add(1, Ordering::Relaxed);
    };
    let c = count(
        &p,
        &p.start,
        u64::MAX,
        Hooks {
            cancel: None,
            progress: Some(&progress),
        },
    );
    assert_eq!(c.status, Status::Solved);
    assert_eq!(calls.load(Ordering::Relaxed) > 0, c.nodes >= 4096);
}

#[test]
fn a_count_out_of_budget_reports_no_partial_numbers() {
    // The optimal solve needs about 350 nodes, the full count about
    // 7 500: with 2 000 the length is proven but the count is not.
    let p = hard();
    let s = solve(&p, &p.start, Mode::Optimal, 2_000, Hooks::default());
    assert_eq!(s.status, Status::Solved);
    let c = count(&p, &p.start, 2_000, Hooks::default());
    assert_eq!(c.status, Status::Unproven);
    assert_eq!(c.length, p.optimal, "the optimal length is proven");
    assert_eq!(c.proven_sets(), None);
    assert_eq!(c.proven_orderings(), None);
    assert_eq!(c.orderings, None);
    assert_eq!(rate(&p, &c), None, "no rating from a partial count");
    // With the budget to finish, the numbers are there.
    let c = count(&p, &p.start, 50_000_000, Hooks::default());
    assert_eq!(c.proven_sets(), Some(1));
    assert!(c.proven_orderings().is_some_and(|o| o >= 1));
    assert!(rate(&p, &c).is_some());
    // A budget too small even for the length.
    let c = count(&p, &p.start, 100, Hooks::default());
    assert_eq!(
        (c.status, c.length, c.proven_sets()),
        (Status::Unproven, None, None)
    );
}
