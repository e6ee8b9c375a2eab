//! Playing the puzzle: what a click on the board does, the moves played by
//! hand and the solver's solution shown.

use murus_mural::{MuralMove, Puzzle, Solution, State};

use crate::murals::{Click, HandPlay, MuralDocument, SolutionPlayer};

/// What a click on the board does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Play by hand (the mode a puzzle opens in).
    Play,
    /// Step through the solver's solution.
    Solution,
    /// Paint stacks with the brush (editing, entered on purpose).
    Stacks,
    /// Toggle target cells (editing, entered on purpose).
    Targets,
}

impl Tool {
    /// Whether clicks edit the puzzle.
    pub fn edits(self) -> bool {
        matches!(self, Tool::Stacks | Tool::Targets)
    }
}

/// A change of hand play: each drops a hint being looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandMove {
    /// Plays a legal move of the hand-played position.
    Play(MuralMove),
    /// Takes back the last move played.
    Undo,
    /// Plays again the last move taken back.
    Redo,
    /// Back to the start, all moves forgotten.
    Restart,
}

/// Playing the puzzle: the [`Tool`] (what a click on the board does), the
/// moves played by hand from the puzzle's start ([`HandPlay`]) and the
/// solver's solution stepped through ([`SolutionPlayer`]). Hand play always
/// starts from the document's valid puzzle; in demo mode a solution opens
/// half played.
#[derive(Debug)]
pub struct MuralPlay {
    tool: Tool,
    hand: HandPlay,
    player: SolutionPlayer,
    /// Example mode: show a solution half played.
    demo: bool,
}

impl MuralPlay {
    /// Play from the start of `doc`'s puzzle, when it is valid.
    pub(super) fn new(doc: &MuralDocument) -> MuralPlay {
        let mut p = MuralPlay {
            tool: Tool::Play,
            hand: HandPlay::default(),
            player: SolutionPlayer::default(),
            demo: false,
        };
        p.restart(doc);
        p
    }

    /// What a click on the board does now.
    pub fn tool(&self) -> Tool {
        self.tool
    }

    /// Switches what a click does, letting go of the tower selected.
    /// Returns whether it changed.
    pub(super) fn set_tool(&mut self, tool: Tool) -> bool {
        if tool == self.tool {
            return false;
        }
        self.tool = tool;
        self.hand.unselect();
        true
    }

    /// The moves played by hand, the tower selected and the hint.
    pub fn hand(&self) -> &HandPlay {
        &self.hand
    }

    /// The solver's answer and the step shown.
    pub fn player(&self) -> &SolutionPlayer {
        &self.player
    }

    /// The solution, to step through (which changes nothing else).
    pub fn player_mut(&mut self) -> &mut SolutionPlayer {
        &mut self.player
    }

    /// From now on, shows a solution half played (screenshots).
    pub fn set_demo(&mut self) {
        self.demo = true;
    }

    /// Hand play starts afresh from `doc`'s puzzle (none while it is not
    /// valid).
    pub(super) fn restart(&mut self, doc: &MuralDocument) {
        self.hand = HandPlay::new(valid(doc).map(|p| p.start.clone()));
    }

    /// The document changed: its solution goes, play starts afresh, and a
    /// solution shown gives way to play by hand.
    pub(super) fn changed(&mut self, doc: &MuralDocument) {
        self.player.clear();
        if self.tool == Tool::Solution {
            self.tool = Tool::Play;
        }
        self.restart(doc);
    }

    /// Plays by hand, from where hand play stands. Returns whether the
    /// puzzle can be played.
    pub(super) fn play_by_hand(&mut self, doc: &MuralDocument) -> bool {
        if !doc.is_valid() {
            return false;
        }
        self.tool = Tool::Play;
        if self.hand.state().is_none() {
            self.restart(doc);
        }
        true
    }

    /// Makes `m`. Returns whether hand play changed.
    pub(super) fn act(&mut self, m: HandMove, doc: &MuralDocument) -> bool {
        match (m, doc.puzzle()) {
            (HandMove::Play(m), _) => {
                self.hand.play(m);
                true
            }
            (HandMove::Undo, Some(p)) => self.hand.undo(p),
            (HandMove::Redo, Some(p)) => self.hand.redo(p),
            (HandMove::Restart, _) => match valid(doc) {
                Some(p) => {
                    self.hand.restart(p);
                    true
                }
                None => false,
            },
            (HandMove::Undo | HandMove::Redo, None) => false,
        }
    }

    /// A click on `cell` while playing by hand (`None`: the puzzle is not
    /// valid, there is no play).
    pub(super) fn click(&mut self, doc: &MuralDocument, cell: usize) -> Option<Click> {
        Some(self.hand.click(valid(doc)?, cell))
    }

    /// Shows `m` as the hint for the hand-played position.
    pub(super) fn set_hint(&mut self, m: MuralMove) {
        self.hand.set_hint(m);
    }

    /// Shows `s`, the solution of `from` reached after `after` moves by
    /// hand, at its start (half played in demo mode).
    pub(super) fn show_solution(&mut self, s: Solution, from: State, after: usize) {
        let step = if self.demo { s.moves.len() / 2 } else { 0 };
        self.player.set(s, from, after, step);
    }

    /// Advances an animated solution at `now` (seconds). Returns whether it
    /// plays.
    pub(super) fn tick(&mut self, now: f64) -> bool {
        self.player.tick(now)
    }

    /// The position Solve solves: where hand play stands (the start when
    /// nothing was played), and how many moves by hand led there.
    pub fn solve_from(&self, doc: &MuralDocument) -> (State, usize) {
        match (self.hand.state(), doc.puzzle()) {
            (Some(s), _) => (s.clone(), self.hand.played().len()),
            (None, Some(p)) => (p.start.clone(), 0),
            (None, None) => (State::empty(0), 0),
        }
    }

    /// Whether the hand-played position is solved; whether no move is left.
    pub fn outcome(&self, doc: &MuralDocument) -> (bool, bool) {
        match doc.puzzle() {
            Some(p) => self.hand.outcome(p),
            None => (false, false),
        }
    }

    /// Cells a click plays the selected tower to.
    pub fn move_targets(&self, doc: &MuralDocument) -> Vec<usize> {
        match doc.puzzle() {
            Some(p) if self.tool == Tool::Play => self.hand.move_targets(p),
            _ => Vec::new(),
        }
    }

    /// The position to draw and the move that led to it.
    pub fn shown_state(&self, doc: &MuralDocument) -> Option<(State, Option<MuralMove>)> {
        let p = doc.puzzle()?;
        Some(match self.tool {
            Tool::Solution => self
                .player
                .shown()
                .unwrap_or_else(|| (self.solve_from(doc).0, None)),
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
}

/// `doc`'s puzzle, when it is valid.
fn valid(doc: &MuralDocument) -> Option<&Puzzle> {
    doc.puzzle().filter(|_| doc.is_valid())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::murals::EXAMPLE;

    fn doc(text: &str) -> MuralDocument {
        MuralDocument::new(text.into(), String::new(), String::new())
    }

    #[test]
    fn a_changed_document_ends_the_solution_shown_and_play_starts_afresh() {
        let d = doc(EXAMPLE);
        let mut play = MuralPlay::new(&d);
        let p = d.puzzle().unwrap();
        let m = murus_mural::parse_move(p, &p.start, "c1-e1").unwrap();
        assert!(play.act(HandMove::Play(m), &d));
        assert_eq!(play.solve_from(&d).1, 1);
        assert!(play.set_tool(Tool::Solution));
        assert!(!play.set_tool(Tool::Solution), "no change");
        play.changed(&d);
        assert_eq!(play.tool(), Tool::Play);
        assert!(play.hand().played().is_empty());
        assert_eq!(play.shown_state(&d), Some((p.start.clone(), None)));
    }

    #[test]
    fn an_invalid_puzzle_has_no_play() {
        // Five stones for four targets.
        let d = doc(&EXAMPLE.replace("1r2r22", "r1r2r22"));
        let mut play = MuralPlay::new(&d);
        assert_eq!(play.click(&d, 2), None);
        assert!(!play.act(HandMove::Restart, &d));
        assert!(!play.play_by_hand(&d));
        assert_eq!(play.outcome(&d), (false, false));
    }
}
