//! The model's play: hand play on the board and the solver's solution shown.

use murus_mural::generate::Rating;
use murus_mural::{Count, MuralMove, Solution, State};

use super::{MuralsModel, Tool, Work};
use crate::murals::HandPlay;

impl MuralsModel {
    /// Plays by hand, from where hand play stands (the moves played before a
    /// Solve are kept; Restart starts over).
    pub fn play_by_hand(&mut self) {
        if !self.is_valid() {
            self.feedback.error("fix the puzzle's problems first");
            return;
        }
        self.tool = Tool::Play;
        if self.hand.state().is_none() {
            self.start_play();
        }
        self.feedback.changed();
    }

    pub(super) fn start_play(&mut self) {
        self.tasks.drop_work(Work::Hint);
        let start = self
            .doc
            .puzzle()
            .filter(|_| self.doc.is_valid())
            .map(|p| p.start.clone());
        self.hand = HandPlay::new(start);
    }

    /// Plays a legal move of the hand-played position.
    pub fn play_move(&mut self, m: MuralMove) {
        self.hand.play(m);
        self.after_move();
    }

    pub(super) fn after_move(&mut self) {
        self.tasks.drop_work(Work::Hint);
        self.feedback.changed();
    }

    /// Takes back the last move played by hand.
    pub fn undo_move(&mut self) {
        if let Some(p) = self.doc.puzzle().cloned()
            && self.hand.undo(&p)
        {
            self.after_move();
        }
    }

    /// Plays again the last move taken back.
    pub fn redo_move(&mut self) {
        if let Some(p) = self.doc.puzzle().cloned()
            && self.hand.redo(&p)
        {
            self.after_move();
        }
    }

    /// Back to the start, all moves forgotten.
    pub fn restart(&mut self) {
        if let Some(p) = self.doc.puzzle().filter(|_| self.doc.is_valid()).cloned() {
            self.hand.restart(&p);
            self.after_move();
        }
    }

    /// The moves played by hand.
    pub fn played(&self) -> &[MuralMove] {
        self.hand.played()
    }

    /// Whether a move taken back can be played again.
    pub fn can_redo_move(&self) -> bool {
        self.hand.can_redo()
    }

    /// The hand-played position.
    pub fn play_state(&self) -> Option<&State> {
        self.hand.state()
    }

    /// The tower selected to move.
    pub fn selected(&self) -> Option<usize> {
        self.hand.selected()
    }

    /// The hinted move: no selection, but clicking its target plays it.
    pub fn hint(&self) -> Option<MuralMove> {
        self.hand.hint()
    }

    /// Whether the hand-played position is solved; whether no move is left.
    pub fn play_outcome(&self) -> (bool, bool) {
        match self.doc.puzzle() {
            Some(p) => self.hand.outcome(p),
            None => (false, false),
        }
    }

    /// Cells a click plays the selected tower to.
    pub fn move_targets(&self) -> Vec<usize> {
        match self.doc.puzzle() {
            Some(p) if self.tool == Tool::Play => self.hand.move_targets(p),
            _ => Vec::new(),
        }
    }

    /// The position to draw and the move that led to it.
    pub fn shown_state(&self) -> Option<(State, Option<MuralMove>)> {
        let p = self.doc.puzzle()?;
        Some(match self.tool {
            Tool::Solution => self
                .player
                .shown()
                .unwrap_or_else(|| (self.solve_from().0, None)),
            Tool::Play => (
                self.hand
                    .state()
                    .cloned()
                    .unwrap_or_else(|| p.start.clone()),
                self.hand.played().last().copied(),
            ),
            Tool::Stacks | Tool::Targets => (p.start.clone(), None),
        })
    }

    // ----- the solution ---------------------------------------------------

    /// The solver's last answer for this puzzle.
    pub fn solution(&self) -> Option<&Solution> {
        self.player.solution()
    }

    /// How many moves by hand came before the position the solution starts
    /// from.
    pub fn solution_after(&self) -> usize {
        self.player.after()
    }

    /// How many moves of the solution the board shows.
    pub fn step(&self) -> usize {
        self.player.step()
    }

    /// Shows the position after `step` moves of the solution.
    pub fn set_step(&mut self, step: usize) {
        // The solver's message describes the whole solution: it stays.
        self.player.set_step(step);
    }

    /// One move forward / back in the solution; its last position.
    pub fn step_forward(&mut self) {
        self.player.forward();
    }
    pub fn step_back(&mut self) {
        self.player.back();
    }
    pub fn step_last(&mut self) {
        self.player.last();
    }

    /// Whether the solution plays itself.
    pub fn animating(&self) -> bool {
        self.player.animating()
    }

    /// Starts or stops the animation (from the start when at the end).
    pub fn toggle_animation(&mut self) {
        self.player.toggle_animation();
    }

    /// The finished count of minimal solutions, with its rating.
    pub fn count(&self) -> Option<&(Count, Option<Rating>)> {
        self.count.as_ref()
    }
}
