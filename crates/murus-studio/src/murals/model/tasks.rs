//! The panel's background work, one task at a time on one
//! [`Worker`]: solving, counting, a hint, generating and the puzzle sheet,
//! with the settings they run with (the solver's budget, the generator's
//! board, colours, difficulty and seed) and the last finished count. Each
//! library job gets the worker's reporter as its handler, so a Cancel stops
//! it and its progress arrives as messages.

use crate::feedback::count;
use std::path::PathBuf;
use std::time::Duration;

use murus_mural::generate::{self, Options, Rating};
use murus_mural::{Count, Hint, Mode, Puzzle, Solution, State, Status};

use crate::murals::MuralsSaved;
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
    Generated(Result<Vec<(Puzzle, Rating)>, generate::GenerateError>),
    /// The puzzle sheet written to this file, or why not.
    Sheet(Result<PathBuf, SheetFailed>),
}

/// Why a puzzle sheet was not written; the cause kept as its source.
#[derive(Debug, thiserror::Error)]
pub enum SheetFailed {
    #[error(transparent)]
    Build(#[from] murus_publish::MuralSheetError),
    #[error(transparent)]
    File(#[from] crate::files::FileError),
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

/// The generator's settings, to edit.
#[derive(Debug)]
pub struct Generator<'a> {
    pub board: &'a mut String,
    pub colours: &'a mut usize,
    pub sacrifice: &'a mut bool,
    /// "any" or a band.
    pub difficulty: &'a mut String,
    pub seed: &'a mut u64,
}

/// The settings the work runs with, persisted.
#[derive(Clone, Debug)]
struct Settings {
    budget: u64,
    gen_board: String,
    gen_colours: usize,
    gen_sacrifice: bool,
    gen_difficulty: String,
    gen_seed: u64,
}

/// The panel's background work: the one task under way and where it
/// stands, the settings tasks run with, and the last finished count of
/// minimal solutions (with its rating), which the model forgets when the
/// puzzle changes.
#[derive(Debug)]
pub struct MuralTasks {
    worker: Worker<Msg>,
    work: Option<Work>,
    progress: Option<Progress>,
    settings: Settings,
    counted: Option<(Count, Option<Rating>)>,
}

impl Default for MuralTasks {
    fn default() -> MuralTasks {
        MuralTasks::new(&MuralsSaved::default())
    }
}

impl MuralTasks {
    /// Idle tasks with the settings of `saved`; their messages wake nobody
    /// until [`MuralTasks::set_waker`].
    pub fn new(saved: &MuralsSaved) -> MuralTasks {
        MuralTasks {
            worker: Worker::default(),
            work: None,
            progress: None,
            settings: Settings {
                budget: saved.budget,
                gen_board: saved.gen_board.clone(),
                gen_colours: saved.gen_colours,
                gen_sacrifice: saved.gen_sacrifice,
                gen_difficulty: saved.gen_difficulty.clone(),
                gen_seed: saved.gen_seed,
            },
            counted: None,
        }
    }

    /// Writes the settings into `saved`.
    pub fn save(&self, saved: &mut MuralsSaved) {
        let s = &self.settings;
        saved.budget = s.budget;
        saved.gen_board.clone_from(&s.gen_board);
        saved.gen_colours = s.gen_colours;
        saved.gen_sacrifice = s.gen_sacrifice;
        saved.gen_difficulty.clone_from(&s.gen_difficulty);
        saved.gen_seed = s.gen_seed;
    }

    /// Gives the work what wakes the UI: once, before any work starts (the
    /// panel does it when it is made). Returns whether it was taken (not
    /// while work goes on: try again once it is done).
    pub fn set_waker(&mut self, waker: Waker) -> bool {
        let idle = !self.is_busy();
        if idle {
            self.worker = Worker::new(waker);
        }
        idle
    }

    /// The solver's budget in nodes.
    pub fn budget_mut(&mut self) -> &mut u64 {
        &mut self.settings.budget
    }

    /// The generator's settings: board, colours, sacrifice, difficulty
    /// ("any" or a band) and seed.
    pub fn generator_mut(&mut self) -> Generator<'_> {
        let s = &mut self.settings;
        Generator {
            board: &mut s.gen_board,
            colours: &mut s.gen_colours,
            sacrifice: &mut s.gen_sacrifice,
            difficulty: &mut s.gen_difficulty,
            seed: &mut s.gen_seed,
        }
    }

    /// The finished count of minimal solutions, with its rating.
    pub fn counted(&self) -> Option<&(Count, Option<Rating>)> {
        self.counted.as_ref()
    }

    /// Whether the finished count's figures differ from those `p` records.
    pub fn counted_figures_differ(&self, p: Option<&Puzzle>) -> bool {
        let (Some(p), Some((c, Some(r)))) = (p, &self.counted) else {
            return false;
        };
        c.status == Status::Solved
            && (p.optimal != Some(r.length) || p.difficulty.as_deref() != Some(r.band.as_str()))
    }

    /// Keeps `counted` as the finished count (`None`: forgets it).
    pub(super) fn set_counted(&mut self, counted: Option<(Count, Option<Rating>)>) {
        self.counted = counted;
    }

    /// Takes the finished count away.
    pub(super) fn take_counted(&mut self) -> Option<(Count, Option<Rating>)> {
        self.counted.take()
    }

    /// The generator's seed, moved on to the next one.
    pub(super) fn next_seed(&mut self) -> u64 {
        self.settings.gen_seed += 1;
        self.settings.gen_seed - 1
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
    /// solution within the budget.
    pub(super) fn solve(&mut self, p: Puzzle, from: State, after: usize) -> Result<(), Busy> {
        let budget = self.settings.budget;
        self.start(Work::Solve, move |r| Done::Solved {
            solution: murus_mural::solve(&p, &from, Mode::Optimal, budget, r),
            from,
            after,
        })
    }

    /// Counts the puzzle's minimal solutions and rates it (the last count
    /// is forgotten).
    pub(super) fn count(&mut self, p: Puzzle) -> Result<(), Busy> {
        let budget = self.settings.budget;
        self.start(Work::Count, move |r| {
            let c = murus_mural::count(&p, &p.start, budget, r);
            let rating = generate::rate(&p, &c);
            Done::Counted(c, rating)
        })?;
        self.counted = None;
        Ok(())
    }

    /// Looks for the next move of an optimal solution from `from`.
    pub(super) fn hint(&mut self, p: Puzzle, from: State) -> Result<(), Busy> {
        let budget = self.settings.budget;
        self.start(Work::Hint, move |r| Done::Hinted {
            hint: murus_mural::hint_for(&p, &from, budget, r),
            budget,
        })
    }

    /// Generates one puzzle with the generator's settings (its budget
    /// capped: each candidate is counted).
    pub(super) fn generate(&mut self) -> Result<(), Busy> {
        let s = &self.settings;
        let opts = Options {
            board: s.gen_board.trim().to_string(),
            colours: s.gen_colours,
            sacrifice: s.gen_sacrifice,
            difficulty: (s.gen_difficulty != "any").then(|| s.gen_difficulty.clone()),
            seed: s.gen_seed,
            budget: s.budget.min(GENERATOR_BUDGET),
        };
        self.start(Work::Generate, move |r| {
            Done::Generated(generate::generate(&opts, 1, r))
        })
    }

    /// Writes the puzzle sheet of `p` (named `name`: its solution found
    /// within the budget, on a second page) to `path`.
    pub(super) fn sheet(&mut self, p: Puzzle, name: String, path: PathBuf) -> Result<(), Busy> {
        let budget = self.settings.budget;
        self.start(Work::Sheet, move |_| {
            let options = murus_publish::MuralSheetOptions {
                budget,
                ..murus_publish::MuralSheetOptions::default()
            };
            let written = murus_publish::mural_sheet_html(&[(name, p)], &options)
                .map_err(SheetFailed::from)
                .and_then(|html| Ok(crate::files::write(&path, &html)?));
            Done::Sheet(written.map(|_| path))
        })
    }

    /// The results that arrived since the last call, each with whether the
    /// user stopped its task.
    pub(super) fn poll(&mut self) -> Vec<(Done, bool)> {
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
    /// generator found) still arrives and says so.
    pub fn cancel(&mut self) {
        self.worker.stop();
    }

    /// Drops `work` if it is under way: its answer no longer applies.
    pub(super) fn drop_work(&mut self, work: Work) {
        if self.work == Some(work) {
            self.drop_all();
        }
    }

    /// Drops whatever is under way.
    pub(super) fn drop_all(&mut self) {
        self.worker.cancel();
        self.work = None;
        self.progress = None;
    }

    /// Blocks until the work going on has ended (tests: the UI never waits).
    pub fn wait(&mut self) {
        self.worker.wait();
    }
}

/// Whether the count `c`, rated `r`, confirms the figures `p` records.
pub(super) fn count_agrees(p: Option<&Puzzle>, c: &Count, r: Option<&Rating>) -> bool {
    let (Some(p), Some(r)) = (p, r) else {
        return false;
    };
    c.status == Status::Solved
        && p.optimal.is_none_or(|o| o == r.length)
        && p.difficulty.as_deref().is_none_or(|d| d == r.band)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::murals::EXAMPLE;

    fn finish(t: &mut MuralTasks) -> Vec<(Done, bool)> {
        t.wait();
        let out = t.poll();
        assert!(!t.is_busy());
        out
    }

    #[test]
    fn one_task_at_a_time_and_its_answer_comes_back() {
        let p = Puzzle::from_toml(EXAMPLE).unwrap();
        let mut t = MuralTasks::default();
        *t.budget_mut() = 1_000_000;
        t.count(p.clone()).unwrap();
        assert_eq!(t.work().map(|(w, _)| w), Some(Work::Count));
        let busy = t.solve(p.clone(), p.start.clone(), 0).unwrap_err();
        assert_eq!(busy.to_string(), "a count is going on: cancel it first");
        match finish(&mut t).as_slice() {
            [(Done::Counted(c, Some(r)), false)] => {
                assert_eq!((c.status, c.sets, r.length), (Status::Solved, 1, 5));
            }
            other => panic!("{other:?}"),
        }
        *t.budget_mut() = 1_000;
        t.solve(p.clone(), p.start.clone(), 0).unwrap();
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
        let mut t = MuralTasks::default();
        *t.budget_mut() = u64::MAX;
        t.hint(p.clone(), p.start.clone()).unwrap();
        t.cancel();
        match finish(&mut t).as_slice() {
            [(Done::Hinted { hint, .. }, true)] => assert_eq!(*hint, Err(Status::Unproven)),
            other => panic!("{other:?}"),
        }
        // A generation stops too, with nothing generated.
        let g = t.generator_mut();
        *g.board = "8x8".into();
        *g.colours = 3;
        *g.sacrifice = true;
        *g.difficulty = "hard".into();
        t.generate().unwrap();
        t.cancel();
        match finish(&mut t).as_slice() {
            [(Done::Generated(Ok(list)), true)] => assert!(list.is_empty()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn dropped_work_sends_nothing_more() {
        let p = Puzzle::from_toml(EXAMPLE).unwrap();
        let mut t = MuralTasks::default();
        *t.budget_mut() = 1_000_000;
        t.hint(p.clone(), p.start.clone()).unwrap();
        t.drop_work(Work::Solve);
        assert!(t.is_busy(), "only the work named is dropped");
        t.drop_work(Work::Hint);
        assert!(!t.is_busy());
        std::thread::sleep(Duration::from_millis(50));
        assert!(t.poll().is_empty());
        t.solve(p.clone(), p.start.clone(), 0).unwrap();
        assert_eq!(finish(&mut t).len(), 1, "free again at once");
    }
}
