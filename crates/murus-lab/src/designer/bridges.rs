//! The stages' progress as the report's ([`ReportProgress`]), and the
//! report's stop alone, for the proof search.

use murus_engine::job::Handler;

use super::ReportProgress;
use crate::balance::CheckProgress;
use crate::runner::RunProgress;

/// The report's stop alone (the proof search hears no progress; a search
/// stopped is not kept, its part must not depend on when the stop came).
pub(super) struct StopOnly<'a>(pub(super) &'a dyn Handler<ReportProgress>);

impl Handler for StopOnly<'_> {
    fn stop(&self) -> bool {
        self.0.stop()
    }
}

/// The balance check's progress as the report's.
pub(super) struct CheckBridge<'a, F> {
    pub(super) outer: &'a dyn Handler<ReportProgress>,
    pub(super) stage: &'a F,
}

impl<F: Fn(usize, u64, u64) -> ReportProgress + Sync> Handler<CheckProgress>
    for CheckBridge<'_, F>
{
    fn stop(&self) -> bool {
        self.outer.stop()
    }
    fn progress(&self, p: &CheckProgress) {
        self.outer.progress(&(self.stage)(2, p.done, p.total));
    }
}

/// Training's progress as the report's.
pub(super) struct TrainBridge<'a, F> {
    pub(super) outer: &'a dyn Handler<ReportProgress>,
    pub(super) stage: &'a F,
}

impl<F: Fn(usize, u64, u64) -> ReportProgress + Sync> Handler<crate::train::TrainProgress>
    for TrainBridge<'_, F>
{
    fn stop(&self) -> bool {
        self.outer.stop()
    }
    fn progress(&self, p: &crate::train::TrainProgress) {
        if let crate::train::TrainProgress::Data { positions, of, .. } = p {
            self.outer.progress(&(self.stage)(0, *positions, *of));
        }
    }
}

/// A ladder match's progress as the report's.
pub(super) struct RunBridge<'a, F> {
    pub(super) outer: &'a dyn Handler<ReportProgress>,
    pub(super) stage: &'a F,
}

impl<F: Fn(usize, u64, u64) -> ReportProgress + Sync> Handler<RunProgress> for RunBridge<'_, F> {
    fn stop(&self) -> bool {
        self.outer.stop()
    }
    fn progress(&self, p: &RunProgress) {
        self.outer.progress(&(self.stage)(5, p.done, p.total));
    }
}
