//! Set-up mode: the position editor over the board, and the position
//! string of what the board shows.

use murus_engine::Variant;

use super::{PlayModel, Replacement};
use crate::play::setup::SetupEdit;

impl PlayModel {
    /// Enters set-up mode with the position shown; a bot thinking stops.
    pub fn start_setup(&mut self) {
        self.changed();
        self.seats.stop();
        let c = self.game.cursor();
        self.setup = Some(SetupEdit::new(c.variant(), c.game().position()));
    }

    /// Leaves set-up mode, keeping the game.
    pub fn cancel_setup(&mut self) {
        if self.setup.take().is_some() {
            self.changed();
        }
    }

    /// Changes the set-up being edited (nothing outside set-up mode):
    /// `edit` is handed the editor and the variant.
    pub fn edit_setup(&mut self, edit: impl FnOnce(&mut SetupEdit, &Variant)) {
        let Some(s) = &mut self.setup else { return };
        edit(s, self.game.cursor().variant());
        self.changed();
    }

    /// Starts a game from the set-up, when it has no problems (asked first
    /// when moves would be lost).
    pub fn finish_setup(&mut self) -> bool {
        let Some(pos) = self.setup.as_ref().and_then(SetupEdit::position) else {
            return false;
        };
        self.open(|v| Ok(Replacement::setup(v, pos)))
    }

    /// The position string of what the board shows: the set-up being
    /// edited when it is a position, else the position shown; why not,
    /// when the set-up is not a position yet.
    pub fn position_text(&self) -> Result<String, String> {
        let c = self.game.cursor();
        match &self.setup {
            Some(edit) => match edit.position() {
                Some(pos) => Ok(c.variant().position_string(&pos)),
                None => Err(format!(
                    "the set-up is not a position yet ({}): fix it first",
                    edit.problems()
                        .first()
                        .map_or("it has problems", |p| p.message())
                )),
            },
            None => Ok(c.variant().position_string(c.game().position())),
        }
    }
}
