//! The Rules panel's quick perft: the start position's move paths counted
//! depth by depth on a worker of its own, the lines kept with the rules
//! they count. Without egui.

use murus_engine::Variant;

use super::compile::PerftRequest;
use crate::worker::{Busy, Waker, Worker};

/// The deepest perft the panel offers.
pub const MAX_PERFT_DEPTH: u32 = 6;

/// A perft run, and the rules it counts.
#[derive(Clone, Debug)]
struct Counted {
    /// The source of the variant counted.
    source: String,
    lines: Vec<String>,
}

/// The depth perft counts to, the last run (going on or ended) and its
/// worker.
#[derive(Debug)]
pub struct RulesPerft {
    depth: u32,
    last: Option<Counted>,
    worker: Worker<String>,
}

impl RulesPerft {
    /// Counts to `depth` (kept between 1 and [`MAX_PERFT_DEPTH`]) on a
    /// worker that calls `waker`.
    pub(super) fn new(depth: u32, waker: Waker) -> RulesPerft {
        RulesPerft {
            depth: depth.clamp(1, MAX_PERFT_DEPTH),
            last: None,
            worker: Worker::new(waker),
        }
    }

    /// The depth perft counts to.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Sets the perft depth (1 to [`MAX_PERFT_DEPTH`]).
    pub fn set_depth(&mut self, depth: u32) {
        self.depth = depth.clamp(1, MAX_PERFT_DEPTH);
    }

    /// Starts counting the start position's moves of `variant` on the
    /// worker. Refused while one runs.
    pub fn start(&mut self, variant: Variant) -> Result<(), Busy> {
        let request = PerftRequest {
            depth: self.depth,
            variant,
        };
        let source = request.variant.source().to_string();
        self.worker.start("a perft run", move |r| request.run(&r))?;
        self.last = Some(Counted {
            source,
            lines: Vec::new(),
        });
        Ok(())
    }

    /// Stops the perft run (the depths counted stay).
    pub fn cancel(&mut self) {
        self.worker.cancel();
    }

    /// Whether a perft run is under way.
    pub fn is_running(&self) -> bool {
        self.worker.is_running()
    }

    /// The lines of the last perft run if it counted `shown` (none when it
    /// counted other rules).
    pub fn lines(&self, shown: Option<&Variant>) -> &[String] {
        let shown = shown.map(Variant::source);
        self.last
            .as_ref()
            .filter(|p| Some(p.source.as_str()) == shown)
            .map_or(&[], |p| p.lines.as_slice())
    }

    /// Takes in the lines counted since the last call; a run of other
    /// rules than `shown`'s stops (its counts would be shown beside the
    /// wrong rules).
    pub(super) fn poll(&mut self, shown: Option<&Variant>) {
        let lines = self.worker.poll();
        if let Some(p) = &mut self.last {
            p.lines.extend(lines);
            if self.worker.is_running() && Some(p.source.as_str()) != shown.map(Variant::source) {
                self.worker.cancel();
            }
        }
    }

    /// Waits for the run going on to end (tests and scripts).
    pub(super) fn wait(&mut self) {
        self.worker.wait();
    }
}
