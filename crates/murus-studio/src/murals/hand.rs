//! Hand play: the moves played from the puzzle's start, taken back and
//! replayed, the tower selected to move, and the hint, which is no
//! selection: clicking its target plays it.

use murus_mural::{MuralMove, Puzzle, State};

/// The cell a click plays a move to: a sowing's far cell, a sacrifice's target.
pub fn move_target(m: MuralMove) -> usize {
    match m {
        MuralMove::Sow { far, .. } => far as usize,
        MuralMove::Sacrifice { target, .. } => target as usize,
    }
}

/// What a click on the board did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Click {
    /// Played a move.
    Played(MuralMove),
    /// Selected a tower, or let the selected one go.
    Selected(Option<usize>),
    /// Nothing: why, in a sentence.
    Nothing(String),
}

/// Hand play from the puzzle's start.
#[derive(Clone, Debug, Default)]
pub struct HandPlay {
    played: Vec<MuralMove>,
    /// Moves taken back, the next to replay last.
    undone: Vec<MuralMove>,
    /// The position reached (`None`: the puzzle is not valid, no play).
    state: Option<State>,
    selected: Option<usize>,
    hint: Option<MuralMove>,
}

impl HandPlay {
    /// Play from `start` (`None`: nothing to play).
    pub fn new(start: Option<State>) -> HandPlay {
        HandPlay {
            state: start,
            ..HandPlay::default()
        }
    }

    /// The position reached.
    pub fn state(&self) -> Option<&State> {
        self.state.as_ref()
    }

    /// The moves played, in order.
    pub fn played(&self) -> &[MuralMove] {
        &self.played
    }

    /// Whether a move taken back can be played again.
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// The tower selected to move.
    pub fn selected(&self) -> Option<usize> {
        self.selected
    }

    /// Lets the selected tower go.
    pub fn unselect(&mut self) {
        self.selected = None;
    }

    /// The hinted move.
    pub fn hint(&self) -> Option<MuralMove> {
        self.hint
    }

    /// Shows `m` as the hint for the position reached.
    pub fn set_hint(&mut self, m: MuralMove) {
        self.hint = Some(m);
    }

    /// Plays `m`, a legal move of the position reached.
    pub fn play(&mut self, m: MuralMove) {
        let Some(state) = &mut self.state else { return };
        state.apply(m);
        self.played.push(m);
        self.undone.clear();
        self.selected = None;
        self.hint = None;
    }

    /// Takes back the last move. Returns whether there was one.
    pub fn undo(&mut self, p: &Puzzle) -> bool {
        let Some(m) = self.played.pop() else {
            return false;
        };
        self.undone.push(m);
        self.replay(p);
        true
    }

    /// Plays again the last move taken back. Returns whether there was one.
    pub fn redo(&mut self, p: &Puzzle) -> bool {
        let Some(m) = self.undone.pop() else {
            return false;
        };
        self.played.push(m);
        self.replay(p);
        true
    }

    /// Back to the start, every move forgotten.
    pub fn restart(&mut self, p: &Puzzle) {
        self.played.clear();
        self.undone.clear();
        self.replay(p);
    }

    fn replay(&mut self, p: &Puzzle) {
        let mut s = p.start.clone();
        for &m in &self.played {
            s.apply(m);
        }
        self.state = Some(s);
        self.selected = None;
        self.hint = None;
    }

    /// The legal moves of the position reached.
    fn moves(&self, p: &Puzzle) -> Vec<MuralMove> {
        let mut moves = Vec::new();
        if let Some(s) = &self.state {
            s.moves(&p.board, p.sacrifice, &mut moves);
        }
        moves
    }

    /// Whether the position reached is solved; whether no move is left.
    pub fn outcome(&self, p: &Puzzle) -> (bool, bool) {
        let Some(s) = &self.state else {
            return (false, false);
        };
        (s.is_solved(&p.targets), self.moves(p).is_empty())
    }

    /// The cells a click plays the selected tower to.
    pub fn move_targets(&self, p: &Puzzle) -> Vec<usize> {
        let Some(sel) = self.selected else {
            return Vec::new();
        };
        self.moves(p)
            .into_iter()
            .filter(|m| m.from() == sel)
            .map(move_target)
            .collect()
    }

    /// A click on `cell`: plays the selected tower's move there, or the
    /// hint's when it is the hint's target; selects a tower that can move
    /// (or lets the selected one go); otherwise says why nothing happens.
    pub fn click(&mut self, p: &Puzzle, cell: usize) -> Click {
        let Some(state) = self.state.clone() else {
            return Click::Nothing("fix the puzzle's problems first".into());
        };
        let name = p.board.name(cell);
        let moves = self.moves(p);
        let selected_move = self.selected.and_then(|sel| {
            moves
                .iter()
                .copied()
                .find(|m| m.from() == sel && move_target(*m) == cell)
        });
        let hinted = self
            .hint
            .filter(|m| move_target(*m) == cell && moves.contains(m));
        if let Some(m) = selected_move.or(hinted) {
            self.play(m);
            return Click::Played(m);
        }
        if let Some(sel) = self.selected {
            if sel == cell {
                self.selected = None;
                return Click::Selected(None);
            }
            if !moves.iter().any(|m| m.from() == cell) {
                let from = p.board.name(sel);
                return Click::Nothing(format!(
                    "{name} is not a move of {from}: click a dotted cell, or {from} again to let go"
                ));
            }
        }
        if moves.iter().any(|m| m.from() == cell) {
            self.selected = Some(cell);
            return Click::Selected(Some(cell));
        }
        let why = if state.is_solved(&p.targets) {
            "the mural is solved: Restart to play it again".to_string()
        } else {
            match state.get(cell) {
                None => format!("{name} is empty: click a tower (a stack of two) to move it"),
                Some((_, 1)) => format!("{name} is a wall: only towers move"),
                Some(_) if p.sacrifice => format!(
                    "{name} cannot move: each sowing line is blocked and no wall of another colour is beside it"
                ),
                Some(_) => format!(
                    "{name} cannot move: each sowing line is blocked by a tower, another colour or the edge"
                ),
            }
        };
        Click::Nothing(why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::murals::EXAMPLE;

    fn leapfrog() -> (Puzzle, HandPlay) {
        let p = Puzzle::from_toml(EXAMPLE).unwrap();
        let h = HandPlay::new(Some(p.start.clone()));
        (p, h)
    }

    fn cell(p: &Puzzle, name: &str) -> usize {
        p.board.parse_cell(name).unwrap()
    }

    #[test]
    fn a_tower_is_selected_then_played_and_a_move_taken_back_replays() {
        let (p, mut h) = leapfrog();
        assert_eq!(h.click(&p, cell(&p, "c1")), Click::Selected(Some(2)));
        assert_eq!(h.move_targets(&p), vec![cell(&p, "e1")]);
        let Click::Played(m) = h.click(&p, cell(&p, "e1")) else {
            panic!("c1-e1 was not played")
        };
        assert_eq!(m.notation(&p.board), "c1-e1");
        assert_eq!(h.selected(), None);
        assert!(h.undo(&p));
        assert_eq!(h.state(), Some(&p.start));
        assert!(h.can_redo() && h.redo(&p));
        assert_eq!(h.played(), [m]);
        h.restart(&p);
        assert!(h.played().is_empty() && !h.can_redo());
    }

    #[test]
    fn clicking_the_hints_target_plays_the_hint_without_a_selection() {
        let (p, mut h) = leapfrog();
        let hint = murus_mural::parse_move(&p, &p.start, "c1-e1").unwrap();
        h.set_hint(hint);
        assert_eq!(h.selected(), None, "a hint is no selection");
        assert!(h.move_targets(&p).is_empty(), "nor are its cells dotted");
        assert_eq!(h.click(&p, cell(&p, "e1")), Click::Played(hint));
        assert_eq!(h.hint(), None, "the hint was for the position before");
        // With another tower selected, the hint's target still plays the
        // hint, which is no move of the selected tower.
        let (p, mut h) = leapfrog();
        h.set_hint(hint);
        h.click(&p, cell(&p, "b1"));
        let blocked = h.selected();
        assert_eq!(blocked, None, "b1 cannot move");
        assert_eq!(h.click(&p, cell(&p, "e1")), Click::Played(hint));
    }

    #[test]
    fn a_click_that_does_nothing_says_why() {
        let (p, mut h) = leapfrog();
        let why = |c: Click| match c {
            Click::Nothing(s) => s,
            other => panic!("{other:?}"),
        };
        assert!(why(h.click(&p, cell(&p, "a1"))).starts_with("a1 is empty"));
        assert!(why(h.click(&p, cell(&p, "b1"))).starts_with("b1 cannot move"));
        h.click(&p, cell(&p, "c1"));
        assert!(why(h.click(&p, cell(&p, "d1"))).starts_with("d1 is not a move of c1"));
        assert_eq!(h.click(&p, cell(&p, "c1")), Click::Selected(None));
        let mut none = HandPlay::new(None);
        assert!(why(none.click(&p, 0)).starts_with("fix the puzzle's problems"));
    }
}
