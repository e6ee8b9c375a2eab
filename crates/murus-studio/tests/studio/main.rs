//! Drives the studio headless with egui_kittest: widgets are found by role
//! and label, clicked and typed into; assertions read the app's state.
//!
//! One test binary, one module per panel; the helpers below are shared.
//! Regression tests are named after the defect they guard.

mod app;
mod lab;
mod murals;
mod play;
mod rules;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use murus_studio::{Saved, StudioApp, Tab};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh app on `tab`, both Play seats human, files from the repository.
pub fn app(tab: Tab) -> StudioApp {
    let mut saved = Saved {
        tab,
        ..Saved::default()
    };
    saved.play.seats = vec!["human".into(), "human".into()];
    let mut app = StudioApp::from_saved(saved);
    app.rules.dir = root().join("variants");
    app.rules.refresh_files();
    app.murals.model_mut().set_dir(root().join("puzzles"));
    app
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
