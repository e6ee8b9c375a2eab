//! Drives the studio headless with egui_kittest: widgets are found by role
//! and label, clicked and typed into; assertions read the app's state.
//!
//! One test binary, one module per panel; the helpers below are shared.
//! Regression tests are named after the defect they guard.

mod analysis;
mod anywhere;
mod app;
mod balance;
mod export;
mod lab;
mod layout;
mod murals;
mod play;
mod play_defects;
mod report;
mod rules;
mod share;
mod training;
mod tree;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use std::sync::{Arc, Mutex};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use murus_studio::files::{PickRequest, Picked, Picker};
use murus_studio::{Saved, StudioApp, Tab};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh app on `tab`, both Play seats human, files from the repository,
/// the user's data folder, lab runs and training data in scratch folders.
pub fn app(tab: Tab) -> StudioApp {
    let mut saved = Saved {
        tab,
        ..Saved::default()
    };
    saved.play.seats = vec!["human".into(), "human".into()];
    saved.lab.runs_dir = scratch_dir("lab-runs").display().to_string();
    saved.rules.train.dir = scratch_dir("training").display().to_string();
    let mut app = StudioApp::from_saved(saved);
    app.set_places(&murus_studio::places::Places::at(&scratch_dir("data")));
    app.rules
        .model_mut()
        .shelf_mut()
        .set_dir(root().join("variants"));
    app.murals
        .model_mut()
        .files_mut()
        .shelf_mut()
        .set_dir(root().join("puzzles"));
    app
}

/// A new empty folder under the target's scratch space (never the user's).
/// The first call also clears folders that earlier test runs left there.
pub fn scratch_dir(name: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    static CLEAN: std::sync::Once = std::sync::Once::new();
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
    CLEAN.call_once(|| {
        let stale = |e: &std::fs::DirEntry| {
            e.file_name().to_string_lossy().starts_with("studio-")
                && e.metadata()
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t.elapsed().unwrap_or_default() > Duration::from_secs(3600))
        };
        for e in std::fs::read_dir(root).into_iter().flatten().flatten() {
            if stale(&e) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    });
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = root.join(format!("studio-{}-{n}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

pub fn harness(app: StudioApp) -> Harness<'static, StudioApp> {
    Harness::builder()
        .with_size([1280.0, 860.0])
        .build_eframe(move |_cc| app)
}

/// Steps frames (background work wakes the UI, so `run()` may never settle).
pub fn steps(h: &mut Harness<'_, StudioApp>, n: usize) {
    for _ in 0..n {
        h.step();
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Steps until `done` holds, or panics after `secs`.
pub fn until(
    h: &mut Harness<'_, StudioApp>,
    secs: u64,
    what: &str,
    done: impl Fn(&Harness<'_, StudioApp>) -> bool,
) {
    let t = Instant::now();
    while !done(h) {
        assert!(
            t.elapsed() < Duration::from_secs(secs),
            "timed out waiting for {what}"
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.step();
}

/// What a fake file dialog was asked, in order.
pub type Asked = Arc<Mutex<Vec<PickRequest>>>;

/// A file dialog that answers each request with the next of `answers` (then
/// Cancel), and the requests it was asked.
pub fn picker(answers: Vec<Picked>) -> (Picker, Asked) {
    let asked: Asked = Arc::default();
    let answers = Mutex::new(std::collections::VecDeque::from(answers));
    let log = asked.clone();
    let picker: Picker = Arc::new(move |request: &PickRequest| {
        log.lock().unwrap().push(request.clone());
        answers
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(Picked::Cancelled)
    });
    (picker, asked)
}

/// Waits for the file dialog going on and steps until its answer is done.
pub fn answered(h: &mut Harness<'_, StudioApp>) {
    h.state_mut().dialogs_mut().wait();
    steps(h, 3);
}

/// Clicks the widget labelled `label` and steps.
pub fn click(h: &mut Harness<'_, StudioApp>, label: &str) {
    h.get_by_label(label).click();
    steps(h, 2);
}

/// Clicks two cells of the board.
pub fn click_move(h: &mut Harness<'_, StudioApp>, from: &str, to: &str) {
    click(h, &format!("cell {from}"));
    click(h, &format!("cell {to}"));
}

/// Whether any widget's label or value contains `needle`.
pub fn shows(h: &Harness<'_, StudioApp>, needle: &str) -> bool {
    h.query_all_by(|n| {
        n.label().is_some_and(|l| l.contains(needle))
            || n.value().is_some_and(|v| v.contains(needle))
    })
    .next()
    .is_some()
}

/// Whether a widget labelled exactly `label` is shown.
pub fn shows_exactly(h: &Harness<'_, StudioApp>, label: &str) -> bool {
    h.query_by_label(label).is_some()
}

/// The input field labelled `label` (not the label beside it).
pub fn field<'a>(h: &'a Harness<'_, StudioApp>, label: &'a str) -> egui_kittest::Node<'a> {
    h.query_all(egui_kittest::kittest::by().label(label))
        .find(|n| n.accesskit_node().role() != egui::accesskit::Role::Label)
        .unwrap_or_else(|| panic!("no field {label:?}"))
}
