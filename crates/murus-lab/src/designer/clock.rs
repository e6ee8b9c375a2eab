//! The seconds each stage took, summed over every run of one report: a
//! report stopped (Ctrl-C, or killed) and resumed counts the time each
//! run spent in a stage, not only the finishing run's.
//!
//! [`Clock`] is the report's handler, wrapped round the caller's: it
//! times the stage under way and keeps the totals so far in the run
//! folder (`parts/timing.json`, stage → seconds), adding this run's share
//! as each stage begins and ends, when the report stops, and every
//! [`Clock::EVERY`] while a stage runs (so that a report killed outright
//! loses at most that much of its time).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use murus_engine::job::Handler;

use super::ReportProgress;
use crate::error::LabError;

/// The report's handler that times its stages (module doc).
pub(super) struct Clock<'a> {
    outer: &'a dyn Handler<ReportProgress>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// `parts/timing.json`, for a report with a folder.
    file: Option<PathBuf>,
    /// Each stage's seconds in every run so far (this one's up to the
    /// last look).
    spent: BTreeMap<String, f64>,
    /// The stage under way: its name, when this run began it, and its
    /// seconds in the runs before.
    running: Option<(String, Instant, f64)>,
    /// When the totals were last written.
    written: Option<Instant>,
}

impl State {
    /// The running stage's total brought up to now (and written, with
    /// `write`).
    fn look(&mut self, write: bool) -> Result<(), LabError> {
        if let Some((stage, began, before)) = &self.running {
            let total = before + began.elapsed().as_secs_f64();
            self.spent.insert(stage.clone(), total);
        }
        if write && let Some(file) = &self.file {
            let text = serde_json::to_string_pretty(&self.spent)
                .map_err(|e| LabError::Invalid(format!("{}: {e}", file.display())))?;
            if let Some(dir) = file.parent() {
                std::fs::create_dir_all(dir).map_err(crate::folder::io(dir))?;
            }
            murus_engine::util::write_atomic(file, text.as_bytes())
                .map_err(crate::folder::io(file))?;
            self.written = Some(Instant::now());
        }
        Ok(())
    }
}

impl<'a> Clock<'a> {
    /// How often a running stage's total is written.
    pub(super) const EVERY: Duration = Duration::from_millis(250);

    pub(super) fn new(outer: &'a dyn Handler<ReportProgress>) -> Clock<'a> {
        Clock {
            outer,
            state: Mutex::new(State::default()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keeps the totals in `file` (`None`: a report without a folder),
    /// going on from the totals kept there by the runs before.
    pub(super) fn keep_in(&self, file: Option<PathBuf>) -> Result<(), LabError> {
        let mut state = self.state();
        if let Some(f) = &file
            && let Ok(text) = std::fs::read_to_string(f)
        {
            state.spent = serde_json::from_str(&text)
                .map_err(|e| LabError::Invalid(format!("{}: {e}", f.display())))?;
        }
        state.file = file;
        Ok(())
    }

    /// Stage `stage` begins (the one under way, if any, ends).
    pub(super) fn begin(&self, stage: &str) -> Result<(), LabError> {
        self.pause()?;
        let mut state = self.state();
        let before = state.spent.get(stage).copied().unwrap_or(0.0);
        state.running = Some((stage.to_string(), Instant::now(), before));
        // Written at once: the stage is in the file from its start.
        state.look(true)
    }

    /// The stage under way ends: its seconds in every run so far.
    pub(super) fn end(&self, stage: &str) -> Result<f64, LabError> {
        self.pause()?;
        Ok(self.state().spent.get(stage).copied().unwrap_or(0.0))
    }

    /// The stage under way (if any) stops here: its time so far is kept
    /// (a stopped report's, or one that ends in an error).
    pub(super) fn pause(&self) -> Result<(), LabError> {
        let mut state = self.state();
        if state.running.is_none() {
            return Ok(());
        }
        state.look(true)?;
        state.running = None;
        Ok(())
    }

    /// Writes the running stage's total when [`Clock::EVERY`] has passed
    /// (a look that waits for no other thread: skipped when busy).
    fn tick(&self) {
        if let Ok(mut state) = self.state.try_lock()
            && state.running.is_some()
            && state.written.is_none_or(|w| w.elapsed() >= Self::EVERY)
        {
            // A failed write loses only this look; the stage's end writes
            // again and says the error.
            let _ = state.look(true);
        }
    }
}

impl Handler<ReportProgress> for Clock<'_> {
    fn stop(&self) -> bool {
        self.tick();
        self.outer.stop()
    }

    fn progress(&self, p: &ReportProgress) {
        self.tick();
        self.outer.progress(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stage stopped in one run and ended in the next counts both runs'
    /// time; a stage kept from before and ended at once keeps its total.
    #[test]
    fn a_stages_time_sums_over_the_runs_that_kept_it() {
        let dir = std::env::temp_dir().join(format!("murus-clock-{}", std::process::id()));
        let file = dir.join("parts").join("timing.json");
        let _ = std::fs::remove_dir_all(&dir);
        let first = Clock::new(&());
        first.keep_in(Some(file.clone())).unwrap();
        first.begin("speed").unwrap();
        assert!(first.end("speed").unwrap() >= 0.0);
        first.begin("balance").unwrap();
        std::thread::sleep(Duration::from_millis(60));
        first.pause().unwrap();
        let kept: BTreeMap<String, f64> =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert!(kept["balance"] >= 0.06, "{kept:?}");
        let second = Clock::new(&());
        second.keep_in(Some(file.clone())).unwrap();
        second.begin("balance").unwrap();
        std::thread::sleep(Duration::from_millis(40));
        let total = second.end("balance").unwrap();
        assert!(total >= 0.1, "{total}");
        second.begin("speed").unwrap();
        assert!((second.end("speed").unwrap() - kept["speed"]).abs() < 0.01);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
