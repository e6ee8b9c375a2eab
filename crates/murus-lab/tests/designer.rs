//! The designer's report: its sections on a small board whose value is
//! known, and a report stopped in the middle and resumed from its folder
//! ends as one never stopped (but for the machine's timings).

use std::sync::atomic::{AtomicBool, Ordering};

use murus_engine::Variant;
use murus_engine::job::Handler;
use murus_lab::designer::{
    Budget, DesignerReport, ReportConfig, ReportProgress, Timing, run_report,
};
use murus_lab::folder::Mode;

fn four_by_four() -> Variant {
    let source = include_str!("../../../variants/sweeps/standard-small.mg");
    Variant::compile(source).unwrap()
}

/// Stops the report once the ladder has begun.
#[derive(Default)]
struct StopInLadder(AtomicBool);

impl Handler<ReportProgress> for StopInLadder {
    fn stop(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    fn progress(&self, p: &ReportProgress) {
        if p.stage == "ladder" && p.done >= 10 {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

fn without_timing(mut r: DesignerReport) -> DesignerReport {
    r.timing = Timing::default();
    r
}

#[test]
fn a_small_board_reports_every_section_and_a_stopped_report_resumes_the_same() {
    let v = four_by_four();
    let config = ReportConfig::new(Budget::Quick, 5, 2);
    let whole = run_report(&v, "small.mg", &config, None, &()).unwrap();
    // The proof search solves 4×4, and the answer says so.
    let solved = whole.solved.as_ref().unwrap();
    assert_eq!(solved.value, "win");
    assert_eq!(solved.winner, Some('r'));
    assert_eq!(solved.winning, ["b1-b3", "c1-c3"]);
    assert!(
        solved.answer.starts_with("Solved: Romans win"),
        "{}",
        solved.answer
    );
    assert!(solved.balance_agrees.is_some());
    // Every level played its games; the ladder climbed from random.
    assert_eq!(whole.fairness.balance.levels.len(), 3);
    let ladder = &whole.ladder.as_ref().unwrap().ladder;
    assert!(ladder.rungs.len() >= 2, "{ladder:?}");
    assert_eq!(whole.speed.playouts.games, 2_000);
    assert!(
        whole.speed.standard.is_some(),
        "the standard game beside it"
    );
    for answer in [
        &whole.rules.answer,
        &whole.speed.answer,
        &whole.fairness.answer,
        &whole.ladder.as_ref().unwrap().answer,
        &whole.quality.answer,
    ] {
        assert!(answer.ends_with('.'), "{answer}");
    }

    let dir = std::env::temp_dir().join(format!("murus-designer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let stop = StopInLadder::default();
    assert!(run_report(&v, "small.mg", &config, Some((&dir, Mode::New)), &stop).is_err());
    assert!(!dir.join("report.json").exists());
    assert!(dir.join("parts/speed.json").exists());
    // Resumed with other threads: the same report.
    let other_threads = ReportConfig::new(Budget::Quick, 5, 1);
    let resumed = run_report(
        &v,
        "small.mg",
        &other_threads,
        Some((&dir, Mode::Resume)),
        &(),
    )
    .unwrap();
    assert_eq!(without_timing(resumed.clone()), without_timing(whole));
    let written = std::fs::read_to_string(dir.join("report.json")).unwrap();
    assert_eq!(
        written,
        serde_json::to_string_pretty(&resumed).unwrap() + "\n"
    );
    // A resume with another seed is refused, naming it.
    let other = ReportConfig::new(Budget::Quick, 6, 2);
    let e = run_report(&v, "small.mg", &other, Some((&dir, Mode::Resume)), &()).unwrap_err();
    assert!(e.to_string().contains("seed"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
