//! The solution player: the solver's answer for a position (the puzzle's
//! start, or where hand play had got to), stepped through by hand or
//! played as an animation.

use murus_mural::{MuralMove, Solution, State, Status};

/// Seconds between two steps of an animated solution.
const ANIMATION_STEP: f64 = 0.6;

/// The solver's answer and the step shown.
#[derive(Clone, Debug, Default)]
pub struct SolutionPlayer {
    solution: Option<Solution>,
    /// The position solved.
    from: Option<State>,
    /// The moves played by hand before that position.
    after: usize,
    step: usize,
    animating: bool,
    last_step: f64,
}

impl SolutionPlayer {
    /// Shows `solution` of the position `from`, reached after `after` moves
    /// by hand, at `step`.
    pub fn set(&mut self, solution: Solution, from: State, after: usize, step: usize) {
        self.solution = Some(solution);
        self.from = Some(from);
        self.after = after;
        self.animating = false;
        self.step = step.min(self.moves());
    }

    /// Forgets the answer.
    pub fn clear(&mut self) {
        *self = SolutionPlayer::default();
    }

    /// The solver's answer.
    pub fn solution(&self) -> Option<&Solution> {
        self.solution.as_ref()
    }

    /// The moves played by hand before the position solved.
    pub fn after(&self) -> usize {
        self.after
    }

    /// The moves of the solution (0 unless solved).
    pub fn moves(&self) -> usize {
        self.solution
            .as_ref()
            .filter(|s| s.status == Status::Solved)
            .map_or(0, |s| s.moves.len())
    }

    /// How many moves of the solution the board shows.
    pub fn step(&self) -> usize {
        self.step
    }

    /// Shows the position after `step` moves of the solution.
    pub fn set_step(&mut self, step: usize) {
        self.step = step.min(self.moves());
        self.animating = false;
    }

    /// One move forward / back; the last position.
    pub fn forward(&mut self) {
        self.set_step(self.step + 1);
    }
    pub fn back(&mut self) {
        self.set_step(self.step.saturating_sub(1));
    }
    pub fn last(&mut self) {
        self.set_step(self.moves());
    }

    /// Whether the solution plays itself.
    pub fn animating(&self) -> bool {
        self.animating
    }

    /// Starts or stops the animation (from the start when at the end).
    pub fn toggle_animation(&mut self) {
        self.animating = !self.animating;
        if self.animating && self.step == self.moves() {
            self.step = 0;
        }
    }

    /// Advances the animation at `now` (seconds). Returns whether it plays.
    pub fn tick(&mut self, now: f64) -> bool {
        if !self.animating {
            return false;
        }
        if now - self.last_step > ANIMATION_STEP {
            self.last_step = now;
            if self.step < self.moves() {
                self.step += 1;
            } else {
                self.animating = false;
            }
        }
        self.animating
    }

    /// The position shown and the move that led to it.
    pub fn shown(&self) -> Option<(State, Option<MuralMove>)> {
        let mut s = self.from.clone()?;
        let mut last = None;
        if let Some(sol) = self
            .solution
            .as_ref()
            .filter(|s| s.status == Status::Solved)
        {
            for &m in sol.moves.iter().take(self.step) {
                s.apply(m);
                last = Some(m);
            }
        }
        Some((s, last))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::murals::EXAMPLE;
    use murus_mural::{Mode, Puzzle};

    #[test]
    fn steps_stay_within_the_solution_and_the_animation_plays_it_through() {
        let p = Puzzle::from_toml(EXAMPLE).unwrap();
        let sol = murus_mural::solve(&p, &p.start, Mode::Optimal, 10_000, &());
        let mut pl = SolutionPlayer::default();
        assert_eq!(pl.shown(), None);
        pl.set(sol.clone(), p.start.clone(), 0, 99);
        assert_eq!(pl.step(), 5);
        let (end, last) = pl.shown().unwrap();
        assert!(end.is_solved(&p.targets));
        assert_eq!(last, sol.moves.last().copied());
        pl.back();
        pl.back();
        assert_eq!(pl.step(), 3);
        pl.toggle_animation();
        assert!(pl.tick(1.0));
        assert_eq!(pl.step(), 4);
        assert!(pl.tick(1.2), "too soon for the next step");
        assert_eq!(pl.step(), 4);
        pl.tick(2.0);
        assert!(!pl.tick(3.0), "it stops at the end");
        assert_eq!(pl.step(), 5);
        pl.toggle_animation();
        assert_eq!(pl.step(), 0, "from the start again");
    }

    #[test]
    fn a_solution_from_a_hand_played_position_starts_there() {
        let p = Puzzle::from_toml(EXAMPLE).unwrap();
        let mut from = p.start.clone();
        for m in ["c1-e1", "b1-d1"] {
            let m = murus_mural::parse_move(&p, &from, m).unwrap();
            from.apply(m);
        }
        let sol = murus_mural::solve(&p, &from, Mode::Optimal, 10_000, &());
        let mut pl = SolutionPlayer::default();
        pl.set(sol, from.clone(), 2, 0);
        assert_eq!((pl.moves(), pl.after()), (3, 2));
        assert_eq!(pl.shown().map(|(s, _)| s), Some(from));
        pl.last();
        assert!(pl.shown().unwrap().0.is_solved(&p.targets));
    }
}
