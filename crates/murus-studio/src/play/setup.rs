//! The position editor: a set-up painted cell by cell, what the engine says
//! is wrong with it; set-up mode and starting a game from it are the
//! model's (model/setup.rs).

use murus_engine::{Phase, Position, Setup, SetupError, Variant};

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

impl SetupEdit {
    /// The editor on `pos`, its brush a tower of the first player.
    pub fn new(v: &Variant, pos: &Position) -> SetupEdit {
        let mut edit = SetupEdit {
            setup: Setup::from(pos),
            brush: Some((0, 2.min(v.rules().stack_limit))),
            problems: Vec::new(),
            notes: Vec::new(),
            position: None,
        };
        edit.check(v);
        edit
    }

    /// What a click paints.
    pub fn set_brush(&mut self, brush: Option<(usize, u8)>) {
        self.brush = brush;
    }

    /// Puts `stack` on `cell`.
    pub fn paint(&mut self, v: &Variant, cell: usize, stack: Option<(usize, u8)>) {
        self.edit(v, |s| {
            s.set_stack(cell, stack);
        });
    }

    /// Sets the side to move.
    pub fn set_turn(&mut self, v: &Variant, player: usize) {
        self.edit(v, |s| s.set_turn(player));
    }

    /// Sets the opening phase.
    pub fn set_phase(&mut self, v: &Variant, phase: Phase) {
        self.edit(v, |s| s.set_phase(phase));
    }

    /// Marks a player eliminated or not.
    pub fn set_out(&mut self, v: &Variant, player: usize, out: bool) {
        self.edit(v, |s| s.set_out(player, out));
    }

    /// Sets the enemy stones a player has taken (counted where the variant
    /// has `capture N stones`).
    pub fn set_taken(&mut self, v: &Variant, player: usize, stones: u32) {
        self.edit(v, |s| s.set_taken(player, stones));
    }

    /// Empties the board.
    pub fn clear(&mut self, v: &Variant) {
        self.edit(v, Setup::clear_stacks);
    }

    /// The variant's start position.
    pub fn reset(&mut self, v: &Variant) {
        let start = Setup::from(v.start());
        self.edit(v, |s| *s = start);
    }

    fn edit(&mut self, v: &Variant, edit: impl FnOnce(&mut Setup)) {
        edit(&mut self.setup);
        self.check(v);
    }

    /// What the engine says of the set-up now.
    fn check(&mut self, v: &Variant) {
        self.problems = self.setup.problems(v);
        self.notes.clear();
        self.position = None;
        if self.problems.is_empty() {
            match self.setup.build(v) {
                Ok(pos) => {
                    if let Some(o) = v.outcome(&pos) {
                        self.notes.push(format!(
                            "the game is already over: {}",
                            v.describe_outcome_at(o, &pos)
                        ));
                    } else if v.legal_moves(&pos).is_empty() {
                        self.notes
                            .push("the side to move has no legal move".to_string());
                    }
                    self.position = Some(pos);
                }
                Err(e) => self.problems.push(e),
            }
        }
    }
}
