//! The position editor: a set-up painted cell by cell, what the engine says
//! is wrong with it, and starting a game from it (records.rs).

use murus_engine::{Phase, Position, Setup, SetupError};

use super::PlayModel;

/// The position editor: a [`Setup`] being painted, what the engine says is
/// wrong with it, and the brush.
#[derive(Clone, Debug)]
pub struct SetupEdit {
    setup: Setup,
    /// `None` erases; `Some((player, height))` paints.
    brush: Option<(usize, u8)>,
    problems: Vec<SetupError>,
    /// Facts about a legal set-up worth knowing before playing from it (the
    /// game is already over, the side to move has no move).
    notes: Vec<String>,
    position: Option<Position>,
}

impl SetupEdit {
    /// The set-up as painted.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }
    /// What a click paints: `Some((player, height))`, or `None` to erase.
    pub fn brush(&self) -> Option<(usize, u8)> {
        self.brush
    }
    /// What keeps the set-up from being a position (the engine's words).
    pub fn problems(&self) -> &[SetupError] {
        &self.problems
    }
    /// Warnings about a legal set-up.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }
    /// The position, when the set-up has no problems.
    pub fn position(&self) -> Option<Position> {
        self.position
    }
    /// The cells the problems name, to point at on the board.
    pub fn problem_cells(&self) -> Vec<usize> {
        let mut cells: Vec<usize> = self
            .problems
            .iter()
            .flat_map(|p| p.kind().cells().iter().copied())
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }
    /// The stacks per slot, as the board draws them.
    pub fn stacks(&self, slots: usize) -> Vec<Option<(usize, u8)>> {
        (0..slots).map(|s| self.setup.stack(s)).collect()
    }
}

impl PlayModel {
    /// Enters set-up mode with the position shown.
    pub fn start_setup(&mut self) {
        self.changed();
        self.thinking = None;
        self.setup = Some(SetupEdit {
            setup: Setup::from(self.game.position()),
            brush: Some((0, 2.min(self.variant.rules().stack_limit))),
            problems: Vec::new(),
            notes: Vec::new(),
            position: None,
        });
        self.check_setup();
    }

    /// Leaves set-up mode, keeping the game.
    pub fn cancel_setup(&mut self) {
        if self.setup.take().is_some() {
            self.changed();
        }
    }

    /// What a click paints in set-up mode.
    pub fn set_brush(&mut self, brush: Option<(usize, u8)>) {
        if let Some(s) = &mut self.setup {
            s.brush = brush;
        }
    }

    /// Puts `stack` on `cell` (set-up mode).
    pub fn paint(&mut self, cell: usize, stack: Option<(usize, u8)>) {
        self.edit_setup(|s| {
            s.set_stack(cell, stack);
        });
    }

    /// Sets the side to move (set-up mode).
    pub fn set_setup_turn(&mut self, player: usize) {
        self.edit_setup(|s| s.set_turn(player));
    }

    /// Sets the opening phase (set-up mode).
    pub fn set_setup_phase(&mut self, phase: Phase) {
        self.edit_setup(|s| s.set_phase(phase));
    }

    /// Marks a player eliminated or not (set-up mode).
    pub fn set_setup_out(&mut self, player: usize, out: bool) {
        self.edit_setup(|s| s.set_out(player, out));
    }

    /// Sets the enemy stones a player has taken (set-up mode; counted where
    /// the variant has `capture N stones`).
    pub fn set_setup_taken(&mut self, player: usize, stones: u32) {
        self.edit_setup(|s| s.set_taken(player, stones));
    }

    /// Empties the board (set-up mode).
    pub fn clear_setup(&mut self) {
        self.edit_setup(Setup::clear_stacks);
    }

    /// The variant's start position (set-up mode).
    pub fn reset_setup(&mut self) {
        let start = Setup::from(self.variant.start());
        self.edit_setup(|s| *s = start);
    }

    fn edit_setup(&mut self, edit: impl FnOnce(&mut Setup)) {
        let Some(s) = &mut self.setup else { return };
        edit(&mut s.setup);
        self.changed();
        self.check_setup();
    }

    fn check_setup(&mut self) {
        let v = &self.variant;
        let Some(s) = &mut self.setup else { return };
        s.problems = s.setup.problems(v);
        s.notes.clear();
        s.position = None;
        if s.problems.is_empty() {
            match s.setup.build(v) {
                Ok(pos) => {
                    if let Some(o) = v.outcome(&pos) {
                        s.notes.push(format!(
                            "the game is already over: {}",
                            v.describe_outcome_at(o, &pos)
                        ));
                    } else if v.legal_moves(&pos).is_empty() {
                        s.notes
                            .push("the side to move has no legal move".to_string());
                    }
                    s.position = Some(pos);
                }
                Err(e) => s.problems.push(e),
            }
        }
    }
}
