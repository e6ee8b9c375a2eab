//! The model's background work: starting a solve, a count, a hint or a
//! puzzle sheet, and what their answers change and say.

use std::path::PathBuf;
use std::time::Duration;

use murus_mural::generate::Rating;
use murus_mural::{Board, Hint, Puzzle, Solution, Status};

use super::tasks::count_agrees;
use super::{Done, MuralsModel, Tool};
use crate::feedback::{Message, count};
use crate::murals::{Snapshot, moves_text};

/// Background work the user starts on the puzzle (generating asks first:
/// [`super::Pending::Generate`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Task {
    /// Solves from the position reached by hand (the start when no move
    /// was played); the moves played by hand are kept.
    Solve,
    /// Counts the minimal solutions and rates the puzzle.
    Count,
    /// Looks for the next move of an optimal solution from the hand-played
    /// position.
    Hint,
    /// Writes the puzzle sheet (its diagram, par and difficulty, and its
    /// solution on a second page) to this file, picked in a Save dialog
    /// (the solver runs).
    Sheet(PathBuf),
}

impl MuralsModel {
    /// Starts `task` in the background on the valid puzzle (or says why
    /// not).
    pub fn start(&mut self, task: Task) {
        let doc = self.editor.document();
        let from = self.play.solve_from(doc);
        if task == Task::Hint && self.play.hand().state().is_none() {
            return;
        }
        let Some(p) = doc.puzzle().filter(|_| doc.is_valid()).cloned() else {
            self.feedback.error("fix the puzzle's problems first");
            return;
        };
        let started = match &task {
            Task::Solve => self.tasks.solve(p, from.0, from.1),
            Task::Count => self.tasks.count(p),
            Task::Hint => self.tasks.hint(p, from.0),
            Task::Sheet(path) => {
                let name = match doc.path() {
                    "" => "the puzzle".to_string(),
                    file => file.to_string(),
                };
                self.tasks.sheet(p, name, path.clone())
            }
        };
        match (started, task) {
            (Ok(()), Task::Solve) => {
                self.play.player_mut().clear();
                self.set_tool(Tool::Solution);
            }
            (Ok(()), Task::Hint) => self.feedback.changed(),
            (Ok(()), Task::Count | Task::Sheet(_)) => {}
            (Err(busy), _) => self.feedback.error(busy.to_string()),
        }
    }

    /// Collects background results and advances an animation, at `now`
    /// (seconds). Returns when to be called again if nothing wakes the UI
    /// before (work running, an animation playing).
    pub fn poll(&mut self, now: f64) -> Option<Duration> {
        for (done, stopped) in self.tasks.poll() {
            self.receive(done, stopped);
        }
        let animating = self.play.tick(now).then_some(Duration::from_millis(100));
        self.tasks.poll_again().or(animating)
    }

    fn receive(&mut self, done: Done, stopped: bool) {
        match done {
            Done::Solved {
                solution,
                from,
                after,
            } => {
                self.feedback.set(solved_message(&solution, after, stopped));
                self.play.show_solution(solution, from, after);
            }
            Done::Counted(c, r) => {
                if count_agrees(self.editor.document().puzzle(), &c, r.as_ref()) {
                    self.editor.trust_figures();
                }
                self.tasks.set_counted(Some((c, r)));
                if stopped {
                    self.feedback.warning("count cancelled");
                }
            }
            Done::Hinted { hint, budget } => {
                if let Ok(Hint::Move(m)) = hint {
                    self.play.set_hint(m);
                }
                let board = self.editor.document().puzzle().map(|p| &p.board);
                self.feedback
                    .set(hint_message(&hint, board, budget, stopped));
            }
            Done::Generated(g) => match first_generated(g, stopped) {
                Ok((mut p, rating)) => {
                    let seed = self.tasks.next_seed();
                    p.title = format!("Generated {} {}, seed {seed}", p.board.text, rating.band);
                    let snapshot = Snapshot {
                        text: p.to_toml(),
                        path: String::new(),
                    };
                    // A puzzle in no file yet: unsaved.
                    self.take(snapshot, String::new());
                    self.feedback.success(format!(
                        "generated a {} puzzle ({}), seed {seed}",
                        rating.band,
                        moves_text(rating.length as usize)
                    ));
                }
                Err(said) => self.feedback.set(said),
            },
            Done::Sheet(Ok(path)) => self
                .feedback
                .success(format!("puzzle sheet written: {}", path.display())),
            Done::Sheet(Err(e)) => self.feedback.error(format!("no puzzle sheet: {e}")),
        }
    }
}

/// The first puzzle the generator found, or what its answer says
/// (`stopped`: the user cancelled it).
fn first_generated(
    g: Result<Vec<(Puzzle, Rating)>, murus_mural::generate::GenerateError>,
    stopped: bool,
) -> Result<(Puzzle, Rating), Message> {
    match g {
        Ok(_) if stopped => Err(Message::info("generation cancelled")),
        Ok(list) => list
            .into_iter()
            .next()
            .ok_or_else(|| Message::error("nothing generated")),
        Err(e) => Err(Message::error(e.to_string())),
    }
}

/// What the solver's answer `s` says, found after `after` moves by hand
/// (`stopped`: the user cancelled it).
fn solved_message(s: &Solution, after: usize, stopped: bool) -> Message {
    let by_hand = match after {
        0 => String::new(),
        n => format!(" after your {}", moves_text(n)),
    };
    let nodes = count(s.nodes, "node", "nodes");
    match s.status {
        Status::Solved if after > 0 => {
            let n = s.moves.len();
            let more = if n == 1 { "more move" } else { "more moves" };
            Message::success(format!("solved in {n} {more}{by_hand} ({nodes})"))
        }
        Status::Solved => {
            Message::success(format!("solved in {} ({nodes})", moves_text(s.moves.len())))
        }
        Status::Unsolvable if after > 0 => Message::error(format!(
            "the position{by_hand}: {}; undo moves by hand, or Restart to solve from the start",
            s.verdict()
        )),
        Status::Unsolvable => Message::error(s.verdict()),
        Status::Unproven if stopped => Message::warning(format!("cancelled after {nodes}")),
        Status::Unproven => Message::error(format!("no answer within {nodes}: raise the budget")),
    }
}

/// What a hint looked for within `budget` nodes says (`stopped`: the user
/// cancelled it); its move is named on `board`.
fn hint_message(
    hint: &Result<Hint, Status>,
    board: Option<&Board>,
    budget: u64,
    stopped: bool,
) -> Message {
    match hint {
        Ok(Hint::Move(m)) => {
            let n = board.map(|b| m.notation(b)).unwrap_or_default();
            Message::info(format!("hint: {n}"))
        }
        Ok(Hint::Solved) => Message::info("solved: no move is left to play"),
        Ok(Hint::Unsolvable(r)) => Message::error(format!(
            "this position cannot be solved any more: undo some moves ({})",
            murus_mural::verdict(Status::Unsolvable, Some(r))
        )),
        Err(_) if stopped => Message::warning("hint cancelled"),
        Err(_) => Message::error(format!(
            "no hint within {}: raise the budget",
            count(budget, "node", "nodes")
        )),
    }
}
