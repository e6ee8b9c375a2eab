//! The designer's report in the studio: the Rules panel's "Report" button
//! makes it in the Lab (its stages in a progress bar), its sections show
//! when it ends, "Open in browser" opens its page, and it is kept and
//! listed like the runs; an opened kept report shows its sections again.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use egui_kittest::kittest::Queryable;
use murus_studio::Tab;
use murus_studio::lab::LabMode;

use crate::{app, harness, shows, steps, until};

#[test]
fn the_rules_report_button_makes_the_report_in_the_lab_and_opens_its_page() {
    let mut a = app(Tab::Rules);
    let source =
        std::fs::read_to_string(crate::root().join("variants/sweeps/standard-small.mg")).unwrap();
    a.rules.model_mut().set_text(source, 0.0);
    let opened: Arc<Mutex<Vec<PathBuf>>> = Arc::default();
    let seen = opened.clone();
    a.lab
        .report
        .set_opener(Arc::new(move |p: &std::path::Path| {
            seen.lock().unwrap().push(p.to_path_buf());
            Ok(())
        }));
    let mut h = harness(a);
    steps(&mut h, 3);
    until(&mut h, 60, "the rules to compile", |h| {
        shows(h, "legal first moves")
    });
    h.get_by_label("Report").click();
    steps(&mut h, 2);
    assert_eq!(h.state().tab, Tab::Lab);
    assert_eq!(h.state().lab.model.saved().mode, LabMode::Report);
    assert!(
        h.state().lab.report.is_running(),
        "the report is being made"
    );
    until(&mut h, 300, "the report", |h| {
        !h.state().lab.report.is_running()
    });
    steps(&mut h, 3);
    // Each section came as its stage ended (the same answers as the end's).
    let sections = h.state().lab.report.sections().to_vec();
    assert_eq!(sections.len(), 11, "{sections:?}");
    assert!(
        sections
            .iter()
            .any(|(t, a)| t == "Solved?" && a.starts_with("Solved: Romans win"))
    );
    // Its sections, each answer in a line.
    assert!(shows(&h, "the designer's report"), "the heading");
    assert!(shows(&h, "Solved: Romans win with perfect play"));
    assert!(shows(&h, "Depth: the skill ladder"));
    // The page, in the browser.
    h.get_by_label("Open in browser").click();
    steps(&mut h, 2);
    let pages = opened.lock().unwrap().clone();
    assert_eq!(pages.len(), 1);
    assert!(
        pages[0].ends_with("index.html") && pages[0].is_file(),
        "{pages:?}"
    );
    let html = std::fs::read_to_string(&pages[0]).unwrap();
    assert!(html.contains("<h2>Tactics</h2>"));
    // Kept and listed; opened again after a restart, the same sections.
    let history = h.state().lab.report.history().to_vec();
    assert_eq!(history.len(), 1);
    assert!(history[0].finished);
    let runs = h.state().lab.model.saved().runs_dir.clone();
    let mut a = app(Tab::Lab);
    a.lab.edit(|s| {
        s.runs_dir = runs;
        s.mode = LabMode::Report;
    });
    let mut h = harness(a);
    steps(&mut h, 3);
    assert!(
        !shows(&h, "Solved: Romans win"),
        "nothing shown before it is opened"
    );
    h.get_by_label_contains(&history[0].name).click();
    steps(&mut h, 3);
    assert!(shows(&h, "Solved: Romans win with perfect play"));
}

/// Issue 38: a report's folder, and its line in the list, were named by a
/// Unix timestamp (`1764412345-small`); they are named by the variant and
/// a readable date and time, `small-2026-11-29-0312`, and a second report
/// of the same minute gets a name of its own.
#[test]
fn a_report_is_named_by_its_variant_and_a_readable_time_not_a_unix_timestamp() {
    let mut a = app(Tab::Lab);
    a.lab.edit(|s| {
        s.mode = LabMode::Report;
        s.variant = "small".into();
    });
    let mut h = harness(a);
    steps(&mut h, 3);
    for _ in 0..2 {
        h.get_by_label("Make report").click();
        steps(&mut h, 2);
        h.state_mut().lab.report.cancel();
        until(&mut h, 120, "the report to stop", |h| {
            !h.state().lab.report.is_running()
        });
        steps(&mut h, 2);
    }
    let names: Vec<String> = h
        .state()
        .lab
        .report
        .history()
        .iter()
        .map(|r| r.folder.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_ne!(names[0], names[1], "each report has a folder of its own");
    for name in &names {
        let when = name
            .strip_prefix("small-")
            .unwrap_or_else(|| panic!("{name} starts with the variant"));
        let digits: Vec<bool> = when.chars().map(|c| c.is_ascii_digit()).collect();
        // `2026-11-29-0312`, then `-2` for the second of the minute.
        let pattern = "dddd-dd-dd-dddd";
        assert!(
            when.len() >= pattern.len()
                && pattern.chars().zip(&digits).all(|(p, &d)| (p == 'd') == d),
            "{name} reads as a date and time"
        );
        assert!(shows(&h, name), "the list names {name}");
    }
}
