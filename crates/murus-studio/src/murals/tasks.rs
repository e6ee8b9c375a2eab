//! The panel's background work, one task at a time on one
//! [`Worker`]: solving, counting, a hint and generating. Each library job
//! gets the worker's reporter as its handler, so a Cancel stops it and its
//! progress arrives as messages.

use crate::feedback::count;
use std::path::PathBuf;
use std::time::Duration;

use murus_mural::generate::{self, Options, Rating};
use murus_mural::{Count, Hint, Mode, Puzzle, Solution, State, Status};

use crate::worker::{Busy, Waker, Worker};

/// The generator's budget is capped: each candidate puzzle is counted.
pub const GENERATOR_BUDGET: u64 = 2_000_000;

/// Background work of the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    Solve,
    Count,
    Hint,
    Generate,
    Sheet,
}

impl Work {
    /// What the progress line says.
    pub fn label(self) -> &'static str {
        match self {
            Work::Solve => "solving",
            Work::Count => "counting",
            Work::Hint => "looking for a hint",
            Work::Generate => "generating",
            Work::Sheet => "solving for the puzzle sheet",
        }
    }

    /// The task, as its [`crate::worker::Busy`] names it.
    fn what(self) -> &'static str {
        match self {
            Work::Solve => "a solve",
            Work::Count => "a count",
            Work::Hint => "a hint",
            Work::Generate => "a generation",
            Work::Sheet => "a puzzle sheet",
        }
    }
}

/// Where the work going on stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A search: nodes so far and the current bound.
    Search { nodes: u64, bound: u32 },
    /// The generator: candidates tried and puzzles kept.
    Generate { attempts: u64, found: usize },
}

impl Progress {
    /// The progress line's words ("12 288 nodes, depth 7").
    pub fn text(self) -> String {
        match self {
            Progress::Search { nodes, bound } => {
                format!("{}, depth {bound}", count(nodes, "node", "nodes"))
            }
            Progress::Generate { attempts, .. } => {
                format!("{} tried", count(attempts, "candidate", "candidates"))
            }
        }
    }
}

/// A finished task's result.
#[derive(Debug)]
pub enum Done {
    /// The solver's answer for `from`, reached after `after` moves by hand.
    Solved {
        solution: Solution,
        from: State,
        after: usize,
    },
    /// The minimal solutions counted, and the puzzle's rating.
    Counted(Count, Option<Rating>),
    /// A hint for the position reached by hand, found within `budget` nodes
    /// (`Err(Unproven)`: not found).
    Hinted {
        hint: Result<Hint, Status>,
        budget: u64,
    },
    /// Generated puzzles.
    Generated(Result<Vec<(Puzzle, Rating)>, String>),
    /// The puzzle sheet written to this file, or why not.
    Sheet(Result<PathBuf, String>),
}

#[derive(Debug)]
enum Msg {
    Progress(Progress),
    Done(Box<Done>),
}

impl From<murus_mural::Progress> for Msg {
    fn from(p: murus_mural::Progress) -> Msg {
        Msg::Progress(Progress::Search {
            nodes: p.nodes,
            bound: p.bound,
        })
    }
}

impl From<generate::Progress> for Msg {
    fn from(p: generate::Progress) -> Msg {
        Msg::Progress(Progress::Generate {
            attempts: p.attempts,
            found: p.found,
        })
    }
}

/// The panel's background work.
#[derive(Debug, Default)]
pub struct Tasks {
    worker: Worker<Msg>,
    work: Option<Work>,
    progress: Option<Progress>,
}

impl Tasks {
    /// Tasks whose messages call `wake`.
    pub fn new(wake: Waker) -> Tasks {
        Tasks {
            worker: Worker::new(wake),
            work: None,
            progress: None,
        }
    }

    fn start(
        &mut self,
        work: Work,
        run: impl FnOnce(&crate::worker::Reporter<Msg>) -> Done + Send + 'static,
    ) -> Result<(), Busy> {
        self.worker.start(work.what(), move |r| {
            let done = run(&r);
            r.send(Msg::Done(Box::new(done)));
        })?;
        self.work = Some(work);
        self.progress = None;
        Ok(())
    }

    /// Solves `from`, reached after `after` moves by hand: the shortest
    /// solution within `budget` nodes.
    pub fn solve(&mut self, p: Puzzle, from: State, after: usize, budget: u64) -> Result<(), Busy> {
        self.start(Work::Solve, move |r| Done::Solved {
            solution: murus_mural::solve(&p, &from, Mode::Optimal, budget, r),
            from,
            after,
        })
    }

    /// Counts the puzzle's minimal solutions and rates it.
    pub fn count(&mut self, p: Puzzle, budget: u64) -> Result<(), Busy> {
        self.start(Work::Count, move |r| {
            let c = murus_mural::count(&p, &p.start, budget, r);
            let rating = generate::rate(&p, &c);
            Done::Counted(c, rating)
        })
    }

    /// Looks for the next move of an optimal solution from `from`.
    pub fn hint(&mut self, p: Puzzle, from: State, budget: u64) -> Result<(), Busy> {
        self.start(Work::Hint, move |r| Done::Hinted {
            hint: murus_mural::hint_for(&p, &from, budget, r),
            budget,
        })
    }

    /// Generates one puzzle.
    pub fn generate(&mut self, opts: Options) -> Result<(), Busy> {
        self.start(Work::Generate, move |r| {
            Done::Generated(generate::generate(&opts, 1, r).map_err(|e| e.to_string()))
        })
    }

    /// Writes the puzzle sheet of `p` (named `name`: its solution found
    /// within `budget` nodes, on a second page) to `path`.
    pub fn sheet(
        &mut self,
        p: Puzzle,
        name: String,
        path: PathBuf,
        budget: u64,
    ) -> Result<(), Busy> {
        self.start(Work::Sheet, move |_| {
            let options = murus_publish::MuralSheetOptions {
                budget,
                ..murus_publish::MuralSheetOptions::default()
            };
            let written = murus_publish::mural_sheet_html(&[(name, p)], &options)
                .map_err(|e| e.to_string())
                .and_then(|html| {
                    murus_engine::util::write_atomic(&path, html).map_err(|e| e.to_string())
                });
            Done::Sheet(written.map(|()| path))
        })
    }

    /// The results that arrived since the last call, each with whether the
    /// user stopped its task.
    pub fn poll(&mut self) -> Vec<(Done, bool)> {
        let stopped = self.worker.is_cancelled();
        let mut out = Vec::new();
        for m in self.worker.poll() {
            match m {
                Msg::Progress(p) => self.progress = Some(p),
                Msg::Done(d) => out.push((*d, stopped)),
            }
        }
        if !self.worker.is_running() {
            self.work = None;
            self.progress = None;
        }
        out
    }

    /// When to poll again while work goes on (its spinner turns).
    pub fn poll_again(&self) -> Option<Duration> {
        self.is_busy().then_some(Duration::from_millis(100))
    }

    /// Whether work is under way.
    pub fn is_busy(&self) -> bool {
        self.work.is_some()
    }

    /// The work going on and where it stands.
    pub fn work(&self) -> Option<(Work, Option<Progress>)> {
        self.work.map(|w| (w, self.progress))
    }

    /// Asks the work going on to stop; its answer (unproven, or what the
    /// generator found) still arrives.
    pub fn stop(&mut self) {
        self.worker.stop();
    }

    /// Drops `work` if it is under way: its answer no longer applies.
    pub fn drop_work(&mut self, work: Work) {
        if self.work == Some(work) {
            self.drop_all();
        }
    }

    /// Drops whatever is under way.
    pub fn drop_all(&mut self) {
        self.worker.cancel();
        self.work = None;
        self.progress = None;
    }

    /// Blocks until the work going on has ended (tests: the UI never waits).
    pub fn wait(&mut self) {
        self.worker.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::murals::EXAMPLE;

    fn finish(t: &mut Tasks) -> Vec<(Done, bool)> {
        t.wait();
        let out = t.poll();
        assert!(!t.is_busy());
        out
    }

    #[test]
    fn one_task_at_a_time_and_its_answer_comes_back() {
        let p = Puzzle::from_toml(EXAMPLE).unwrap();
        let mut t = Tasks::default();
        t.count(p.clone(), 1_000_000).unwrap();
        assert_eq!(t.work().map(|(w, _)| w), Some(Work::Count));
        let busy = t.solve(p.clone(), p.start.clone(), 0, 1_000).unwrap_err();
        assert_eq!(busy.to_string(), "a count is going on: cancel it first");
        match finish(&mut t).as_slice() {
            [(Done::Counted(c, Some(r)), false)] => {
                assert_eq!((c.status, c.sets, r.length), (Status::Solved, 1, 5));
            }
            other => panic!("{other:?}"),
        }
        t.solve(p.clone(), p.start.clone(), 0, 1_000).unwrap();
        match finish(&mut t).as_slice() {
            [
                (
                    Done::Solved {
                        solution, after: 0, ..
                    },
                    false,
                ),
            ] => {
                assert_eq!(solution.moves.len(), 5);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_stopped_search_answers_unproven_and_says_it_was_stopped() {
        // Eight towers of a 6x6 board: seconds of search in a debug build.
        let p = Puzzle::from_toml("title = \"Long search\"\nboard = \"6x6\"\nstart = \"6/6/1r2r2r2r21/1r2r2r2r21/6/6\"\ntargets = [\"a1\", \"b1\", \"c1\", \"d1\", \"e1\", \"f1\", \"a6\", \"b6\", \"c6\", \"d6\", \"e6\", \"f6\", \"a2\", \"f2\", \"a5\", \"f5\"]\n").unwrap();
        let mut t = Tasks::default();
        t.hint(p.clone(), p.start.clone(), u64::MAX).unwrap();
        t.stop();
        match finish(&mut t).as_slice() {
            [(Done::Hinted { hint, .. }, true)] => assert_eq!(*hint, Err(Status::Unproven)),
            other => panic!("{other:?}"),
        }
        // A generation stops too, with nothing generated.
        t.generate(Options {
            board: "8x8".into(),
            colours: 3,
            sacrifice: true,
            difficulty: Some("hard".into()),
            seed: 1,
            budget: GENERATOR_BUDGET,
        })
        .unwrap();
        t.stop();
        match finish(&mut t).as_slice() {
            [(Done::Generated(Ok(list)), true)] => assert!(list.is_empty()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn dropped_work_sends_nothing_more() {
        let p = Puzzle::from_toml(EXAMPLE).unwrap();
        let mut t = Tasks::default();
        t.hint(p.clone(), p.start.clone(), 1_000_000).unwrap();
        t.drop_work(Work::Solve);
        assert!(t.is_busy(), "only the work named is dropped");
        t.drop_work(Work::Hint);
        assert!(!t.is_busy());
        std::thread::sleep(Duration::from_millis(50));
        assert!(t.poll().is_empty());
        t.solve(p.clone(), p.start.clone(), 0, 1_000).unwrap();
        assert_eq!(finish(&mut t).len(), 1, "free again at once");
    }
}
