//! The model's background work: solving, counting, hints and generating,
//! and what their answers change and say.

use std::time::Duration;

use murus_mural::generate::{Options, Rating};
use murus_mural::{Count, Hint, Puzzle, Solution, State, Status};

use super::{Generator, MuralsModel, Tool};
use crate::feedback::count;
use crate::murals::tasks::{Done, GENERATOR_BUDGET, Progress, Work};
use crate::murals::{Snapshot, moves_text};

impl MuralsModel {
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

    /// Whether background work is running.
    pub fn is_busy(&self) -> bool {
        self.tasks.is_busy()
    }

    /// The work running and where it stands.
    pub fn work(&self) -> Option<(Work, Option<Progress>)> {
        self.tasks.work()
    }

    /// Stops the running work; its answer (unproven, or nothing generated)
    /// still comes and says so.
    pub fn cancel(&mut self) {
        self.tasks.stop();
    }

    /// The valid puzzle, or says why there is none.
    fn valid_puzzle(&mut self) -> Option<Puzzle> {
        let p = self.doc.puzzle().filter(|_| self.doc.is_valid()).cloned();
        if p.is_none() {
            self.feedback.error("fix the puzzle's problems first");
        }
        p
    }

    /// The position Solve solves: where hand play stands (the start when
    /// nothing was played), and how many moves by hand led there.
    pub(super) fn solve_from(&self) -> (State, usize) {
        match (self.hand.state(), self.doc.puzzle()) {
            (Some(s), _) => (s.clone(), self.hand.played().len()),
            (None, Some(p)) => (p.start.clone(), 0),
            (None, None) => (State::empty(0), 0),
        }
    }

    /// Solves in the background, from the position reached by hand (the
    /// start when no move was played); the moves played by hand are kept.
    pub fn start_solve(&mut self) {
        let Some(p) = self.valid_puzzle() else { return };
        let (from, after) = self.solve_from();
        match self.tasks.solve(p, from, after, self.settings.budget) {
            Ok(()) => {
                self.player.clear();
                self.set_tool(Tool::Solution);
            }
            Err(busy) => self.feedback.error(busy.to_string()),
        }
    }

    /// Counts the minimal solutions and rates the puzzle in the background.
    pub fn start_count(&mut self) {
        let Some(p) = self.valid_puzzle() else { return };
        match self.tasks.count(p, self.settings.budget) {
            Ok(()) => self.count = None,
            Err(busy) => self.feedback.error(busy.to_string()),
        }
    }

    /// Looks for the next move of an optimal solution from the hand-played
    /// position in the background.
    pub fn start_hint(&mut self) {
        let Some(from) = self.hand.state().cloned() else {
            return;
        };
        let Some(p) = self.valid_puzzle() else { return };
        match self.tasks.hint(p, from, self.settings.budget) {
            Ok(()) => self.feedback.changed(),
            Err(busy) => self.feedback.error(busy.to_string()),
        }
    }

    /// Writes the puzzle sheet of the puzzle (its diagram, par and
    /// difficulty, and its solution on a second page) to `path`, a file
    /// picked in a Save dialog, in the background (the solver runs).
    pub fn export_sheet(&mut self, path: &std::path::Path) {
        let Some(p) = self.valid_puzzle() else { return };
        let name = match self.path() {
            "" => "the puzzle".to_string(),
            file => file.to_string(),
        };
        let budget = self.settings.budget;
        if let Err(busy) = self.tasks.sheet(p, name, path.to_path_buf(), budget) {
            self.feedback.error(busy.to_string());
        }
    }

    /// The Save dialog of the puzzle sheet, beside the puzzle's file (an
    /// untitled or shipped puzzle's: in the folder last used).
    pub fn sheet_request(&self) -> crate::files::PickRequest {
        let request =
            crate::files::PickRequest::save("Save the puzzle sheet", "HTML page", &["html"]);
        match self.path() {
            "" => request
                .in_dir(&self.shelf.save_dir())
                .named("puzzle-sheet.html"),
            file => {
                let stem = std::path::Path::new(file)
                    .file_stem()
                    .map_or("puzzle".into(), |s| s.to_string_lossy().into_owned());
                request
                    .near(std::path::Path::new(file))
                    .named(format!("{stem}-sheet.html"))
            }
        }
    }

    pub(super) fn start_generate(&mut self) {
        let s = &self.settings;
        let opts = Options {
            board: s.gen_board.trim().to_string(),
            colours: s.gen_colours,
            sacrifice: s.gen_sacrifice,
            difficulty: (s.gen_difficulty != "any").then(|| s.gen_difficulty.clone()),
            seed: s.gen_seed,
            budget: s.budget.min(GENERATOR_BUDGET),
        };
        if let Err(busy) = self.tasks.generate(opts) {
            self.feedback.error(busy.to_string());
        }
    }

    /// Collects background results and advances an animation, at `now`
    /// (seconds). Returns when to be called again if nothing wakes the UI
    /// before (work running, an animation playing).
    pub fn poll(&mut self, now: f64) -> Option<Duration> {
        for (done, stopped) in self.tasks.poll() {
            self.receive(done, stopped);
        }
        let animating = self.player.tick(now).then_some(Duration::from_millis(100));
        self.tasks.poll_again().or(animating)
    }

    fn receive(&mut self, done: Done, stopped: bool) {
        match done {
            Done::Solved {
                solution,
                from,
                after,
            } => self.receive_solution(solution, from, after, stopped),
            Done::Counted(c, r) => {
                if self.count_agrees(&c, r.as_ref()) {
                    self.doc.trust_figures();
                }
                self.count = Some((c, r));
                if stopped {
                    self.feedback.warning("count cancelled");
                }
            }
            Done::Hinted { hint, budget } => self.receive_hint(hint, budget, stopped),
            Done::Generated(g) => self.receive_generated(g, stopped),
            Done::Sheet(Ok(path)) => self
                .feedback
                .success(format!("puzzle sheet written: {}", path.display())),
            Done::Sheet(Err(e)) => self.feedback.error(format!("no puzzle sheet: {e}")),
        }
    }

    fn receive_solution(&mut self, s: Solution, from: State, after: usize, stopped: bool) {
        let by_hand = match after {
            0 => String::new(),
            n => format!(" after your {}", moves_text(n)),
        };
        match s.status {
            Status::Solved if after > 0 => {
                let n = s.moves.len();
                let more = if n == 1 { "more move" } else { "more moves" };
                self.feedback.success(format!(
                    "solved in {n} {more}{by_hand} ({})",
                    count(s.nodes, "node", "nodes")
                ));
            }
            Status::Solved => self.feedback.success(format!(
                "solved in {} ({})",
                moves_text(s.moves.len()),
                count(s.nodes, "node", "nodes")
            )),
            Status::Unsolvable if after > 0 => self.feedback.error(format!(
                "the position{by_hand}: {}; undo moves by hand, or Restart to solve from the start",
                s.verdict()
            )),
            Status::Unsolvable => self.feedback.error(s.verdict()),
            Status::Unproven if stopped => self.feedback.warning(format!(
                "cancelled after {}",
                count(s.nodes, "node", "nodes")
            )),
            Status::Unproven => self.feedback.error(format!(
                "no answer within {}: raise the budget",
                count(s.nodes, "node", "nodes")
            )),
        }
        let step = if self.demo { s.moves.len() / 2 } else { 0 };
        self.player.set(s, from, after, step);
    }

    /// Whether a finished count confirms the recorded figures.
    fn count_agrees(&self, c: &Count, r: Option<&Rating>) -> bool {
        let (Some(p), Some(r)) = (self.doc.puzzle(), r) else {
            return false;
        };
        c.status == Status::Solved
            && p.optimal.is_none_or(|o| o == r.length)
            && p.difficulty.as_deref().is_none_or(|d| d == r.band)
    }

    fn receive_hint(&mut self, hint: Result<Hint, Status>, budget: u64, stopped: bool) {
        match hint {
            Ok(Hint::Move(m)) => {
                self.hand.set_hint(m);
                let n = self
                    .doc
                    .puzzle()
                    .map(|p| m.notation(&p.board))
                    .unwrap_or_default();
                self.feedback.info(format!("hint: {n}"));
            }
            Ok(Hint::Solved) => self.feedback.info("solved: no move is left to play"),
            Ok(Hint::Unsolvable(r)) => self.feedback.error(format!(
                "this position cannot be solved any more: undo some moves ({})",
                murus_mural::verdict(Status::Unsolvable, Some(&r))
            )),
            Err(_) if stopped => self.feedback.warning("hint cancelled"),
            Err(_) => self.feedback.error(format!(
                "no hint within {}: raise the budget",
                count(budget, "node", "nodes")
            )),
        }
    }

    fn receive_generated(&mut self, g: Result<Vec<(Puzzle, Rating)>, String>, stopped: bool) {
        match g {
            Ok(_) if stopped => self.feedback.info("generation cancelled"),
            Ok(mut list) if !list.is_empty() => {
                let (mut p, rating) = list.remove(0);
                let seed = self.settings.gen_seed;
                p.title = format!("Generated {} {}, seed {seed}", p.board.text, rating.band);
                let snapshot = Snapshot {
                    text: p.to_toml(),
                    path: String::new(),
                };
                self.edit_to(snapshot, Some(String::new()));
                self.doc.trust_figures();
                self.tool = Tool::Play;
                self.show_notes = false;
                self.feedback.success(format!(
                    "generated a {} puzzle ({}), seed {seed}",
                    rating.band,
                    moves_text(rating.length as usize)
                ));
                self.settings.gen_seed += 1;
            }
            Ok(_) => self.feedback.error("nothing generated"),
            Err(e) => self.feedback.error(e),
        }
    }
}
