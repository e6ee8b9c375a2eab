//! Positions and records, and replacing the game in progress: a new game, a
//! variant switch, a position or a record loaded, a game opened from the
//! lab, a set-up started from. Each asks first when the game in progress
//! has moves that are not saved.

use std::path::Path;

use murus_engine::{Game, GameRecord, MoveTree, Record, RecordResult, Variant};

use super::PlayModel;
use super::setup::SetupEdit;
use crate::dialog::{Answer, Confirm};
use crate::files;

/// A game that would replace the one in progress, waiting for the answer
/// to [`PlayModel::question`].
#[derive(Clone, Debug)]
pub struct Replacement {
    variant: Variant,
    game: Game,
    /// The game's moves with their variations and notes (its line alone
    /// when `None`), and the record they were read from.
    tree: Option<(MoveTree, Record)>,
    /// What replacing does, for the question ("Switching to hex starts a
    /// new game").
    what: String,
    /// The button that goes ahead ("Discard and switch").
    go: &'static str,
    /// The message once done ("position loaded").
    done: Option<String>,
}

impl Replacement {
    fn new(variant: Variant, game: Game, what: String, go: &'static str) -> Replacement {
        Replacement {
            variant,
            game,
            tree: None,
            what,
            go,
            done: None,
        }
    }

    fn with_record(mut self, tree: MoveTree, record: Record) -> Replacement {
        self.tree = Some((tree, record));
        self
    }

    fn saying(mut self, done: impl Into<String>) -> Replacement {
        self.done = Some(done.into());
        self
    }
}

impl PlayModel {
    /// The question waiting for an answer before the game is replaced.
    pub fn question(&self) -> Option<&Confirm<Replacement>> {
        self.question.as_ref()
    }

    /// Takes the answer to [`PlayModel::question`].
    pub fn answer(&mut self, answer: Answer<Replacement>) {
        self.question = None;
        if let Answer::Go(r) = answer {
            self.replace(r);
        }
    }

    /// Replaces the game by `r` now, or after a question when moves of the
    /// game in progress are not saved.
    fn request(&mut self, r: Replacement) {
        let (n, notes) = (self.unsaved_moves(), self.unsaved_notes());
        if n + notes == 0 {
            self.replace(r);
            return;
        }
        let count = |n: usize, one: &str, many: &str| match n {
            0 => None,
            1 => Some(format!("1 {one}")),
            n => Some(format!("{n} {many}")),
        };
        let what = [
            count(n, "move", "moves"),
            count(notes, "glyph or comment", "glyphs and comments"),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" and ");
        let verb = if n + notes == 1 { "is" } else { "are" };
        let moves = format!(
            "{what} of this {} game {verb} not saved",
            self.variant.name()
        );
        let text = format!("{moves}. {}; save the record first to keep them.", r.what);
        self.question = Some(Confirm::new(
            "Discard the game in progress?",
            text,
            r.go,
            "Keep playing",
            r,
        ));
    }

    fn replace(&mut self, r: Replacement) {
        let (tree, header) = r.tree.map_or((None, None), |(t, h)| (Some(t), Some(h)));
        self.replace_game(r.variant, r.game, tree);
        if let Some(h) = header {
            self.keep_result(h.result.clone());
            self.header = h;
        }
        if let Some(done) = r.done {
            self.feedback.info(done);
        }
    }

    /// A new game of the current variant (asked first when moves would be
    /// lost).
    pub fn new_game(&mut self) {
        let v = self.variant.clone();
        let game = Game::new(&v);
        self.request(Replacement::new(
            v,
            game,
            "A new game replaces it".into(),
            "Discard and start",
        ));
    }

    /// A new game of the current variant at once, whatever is lost (the
    /// frame-time benchmark's endless games).
    pub fn new_game_discarding(&mut self) {
        let v = self.variant.clone();
        let game = Game::new(&v);
        self.replace_game(v, game, None);
    }

    /// A new game of `variant`; the seats stay (extra colours are human).
    /// Asked first when moves would be lost.
    pub fn set_variant(&mut self, variant: Variant) {
        let game = Game::new(&variant);
        let what = format!("Switching to {} starts a new game", variant.name());
        self.request(Replacement::new(variant, game, what, "Discard and switch"));
    }

    /// Opens a game given as moves in notation (the Lab's "Open #N"),
    /// asked first when moves would be lost. The seats stay as they are.
    pub fn open_moves(&mut self, variant: Variant, moves: &[String], label: &str) {
        let record = GameRecord {
            variant: variant.name().to_string(),
            start: None,
            moves: moves.to_vec(),
            result: None,
            tags: Default::default(),
        };
        match Game::from_record(&variant, &record) {
            Ok(game) => self.request(
                Replacement::new(
                    variant,
                    game,
                    format!("Opening {label} replaces it"),
                    "Discard and open",
                )
                .saying(format!("opened {label}")),
            ),
            Err(e) => self.feedback.error(format!("cannot open {label}: {e}")),
        }
    }

    /// Starts a game from a position string (asked first when moves would
    /// be lost); a message says what is wrong with it. Returns whether it
    /// is a position.
    pub fn load_position(&mut self, text: &str) -> bool {
        match self.variant.parse_position(text.trim()) {
            Ok(pos) => {
                let v = self.variant.clone();
                let game = Game::from_position(&v, pos);
                self.request(
                    Replacement::new(
                        v,
                        game,
                        "Loading the position replaces it".into(),
                        "Discard and load",
                    )
                    .saying("position loaded"),
                );
                true
            }
            Err(e) => {
                self.feedback.error(e.to_string());
                false
            }
        }
    }

    /// Opens a record pasted or read: the record format (`docs/records.md`)
    /// or JSON (a record, or an older game record), of this variant, a
    /// shipped one or one whose rules it embeds, with its variations,
    /// glyphs and comments (asked first when work would be lost). Returns
    /// whether it reads; a message says what is wrong, at its line and
    /// column.
    pub fn load_record(&mut self, text: &str) -> bool {
        self.load_record_as(text, "the record", "record loaded")
    }

    /// Opens a game as printed in a magazine or a book (move numbers,
    /// commas, glyphs, comments in brackets or prose, `Resign`), of the
    /// variant played ("Paste game text").
    pub fn load_printed(&mut self, text: &str) -> bool {
        if text.trim().is_empty() {
            self.feedback
                .error("paste the game as printed into the field first");
            return false;
        }
        match murus_engine::record::read_printed(text, &self.variant) {
            Ok(record) => {
                let v = self.variant.clone();
                self.open_read(record, v, "game text read")
            }
            Err(diags) => {
                let shown = murus_engine::record::render(&diags, "the game text", text);
                self.feedback.error(shown.trim_end().to_string());
                false
            }
        }
    }

    fn load_record_as(&mut self, text: &str, file: &str, done: &str) -> bool {
        let read = if text.trim_start().starts_with('{') {
            Record::from_json(text)
                .map_err(|e| format!("{file}: {e}"))
                .and_then(|r| {
                    let v = self.variant_of(&r)?;
                    Ok((r, v))
                })
        } else {
            murus_engine::record::read(text, Some(&self.variant)).map_err(|diags| {
                murus_engine::record::render(&diags, file, text)
                    .trim_end()
                    .to_string()
            })
        };
        match read {
            Ok((record, variant)) => self.open_read(record, variant, done),
            Err(e) => {
                self.feedback.error(e);
                false
            }
        }
    }

    /// The variant of a record read from JSON: the one played, a shipped
    /// one, or the rules it embeds.
    fn variant_of(&self, record: &Record) -> Result<Variant, String> {
        if let Some(rules) = &record.rules {
            return Variant::compile(rules).map_err(|_| {
                format!(
                    "the rules embedded in the record of `{}` do not compile",
                    record.variant
                )
            });
        }
        if record.variant == self.variant.name() {
            return Ok(self.variant.clone());
        }
        Variant::builtin(&record.variant).ok_or_else(|| {
            format!(
                "unknown variant `{}` (open it in Rules and press Play this variant first)",
                record.variant
            )
        })
    }

    /// Replaces the game by a record read (its main line shown to its end,
    /// its variations in the tree).
    fn open_read(&mut self, record: Record, variant: Variant, done: &str) -> bool {
        let start = match &record.start {
            Some(s) => match variant.parse_position(s) {
                Ok(p) => p,
                Err(e) => {
                    self.feedback.error(format!("the record's start: {e}"));
                    return false;
                }
            },
            None => variant.start(),
        };
        let tree = match MoveTree::from_record(&variant, &start, &record) {
            Ok(t) => t,
            Err(e) => {
                self.feedback.error(e.to_string());
                return false;
            }
        };
        let mut game = Game::from_position(&variant, start);
        for m in tree.main_line() {
            game.play(m);
        }
        let done = match &record.result {
            Some(r) if game.outcome().is_none() => {
                format!("{done}: {}", result_words(&variant, r))
            }
            _ => done.to_string(),
        };
        self.request(
            Replacement::new(
                variant,
                game,
                "Opening the record replaces it".into(),
                "Discard and open",
            )
            .with_record(tree, record)
            .saying(done),
        );
        true
    }

    /// The whole tree as a record of the game played: its tags kept from
    /// the record opened, the result of its main line when that ends by the
    /// rules, else the result recorded (a resignation), and the rules
    /// embedded when the variant is not a shipped one.
    pub fn record(&self) -> Record {
        let mut record = self.tree_record();
        record.tags = self.header.tags.clone();
        record.result = self
            .main_line_game()
            .record()
            .result
            .or_else(|| self.result.clone());
        record.embed_rules(&self.variant);
        record
    }

    /// The game along the main line, to its end.
    fn main_line_game(&self) -> Game {
        let mut game = Game::from_position(&self.variant, *self.game.start());
        for m in self.tree.main_line() {
            game.play(m);
        }
        game
    }

    /// Keeps `result` (a record's) as the main line's, unless the main line
    /// ends by the rules: then the rules say who won.
    pub(super) fn keep_result(&mut self, result: Option<RecordResult>) {
        self.result = result.filter(|_| self.main_line_game().outcome().is_none());
    }

    /// The result recorded for the main line (a resignation, a draw
    /// agreed), when the board shows the main line's end: the game is over
    /// there.
    pub fn recorded_end(&self) -> Option<&RecordResult> {
        let at_end = self.tree.children(self.node).is_empty() && self.tree.is_main_line(self.node);
        self.result.as_ref().filter(|_| at_end)
    }

    /// A result in words: `Gauls won by resignation`, `drawn by agreement`.
    pub fn result_words(&self, r: &RecordResult) -> String {
        result_words(&self.variant, r)
    }

    /// How the game ends at the board, in words, when it does: by the
    /// rules, or as the record says at the end of its main line.
    pub fn ending(&self) -> Option<String> {
        match self.game.outcome() {
            Some(o) => Some(self.variant.describe_outcome_at(o, self.game.position())),
            None => self.recorded_end().map(|r| self.result_words(r)),
        }
    }

    /// Whether the game is over at the board (no move may follow).
    pub fn is_over(&self) -> bool {
        self.game.outcome().is_some() || self.recorded_end().is_some()
    }

    /// How the main line ends, in words (the move list's last row).
    pub fn main_line_ending(&self) -> Option<String> {
        let game = self.main_line_game();
        match game.outcome() {
            Some(o) => Some(self.variant.describe_outcome_at(o, game.position())),
            None => self.result.as_ref().map(|r| self.result_words(r)),
        }
    }

    /// The record in the record format (`docs/records.md`).
    pub fn record_text(&self) -> String {
        self.record().write(&self.variant)
    }

    /// Writes the record of the whole tree to `path`: JSON for a `.json`
    /// file, else the record format; its moves and notes are kept work
    /// from then on.
    pub fn save_record(&mut self, path: &Path) -> bool {
        let json = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let text = if json {
            self.record().to_json()
        } else {
            self.record_text()
        };
        match files::write(path, &text) {
            Ok(m) => {
                self.kept = self.tree.clone();
                self.feedback.set(m);
                true
            }
            Err(m) => {
                self.feedback.set(m);
                false
            }
        }
    }

    /// Reads a record from `path` and replays it (asked first when moves
    /// would be lost).
    pub fn open_record(&mut self, path: &Path) -> bool {
        match std::fs::read_to_string(path) {
            Ok(text) => self.load_record_as(
                &text,
                &path.display().to_string(),
                &format!("opened {}", path.display()),
            ),
            Err(e) => {
                self.feedback.error(format!("{}: {e}", path.display()));
                false
            }
        }
    }

    /// The position string of what the board shows: the set-up being
    /// edited when it is a position, else the position shown; why not,
    /// when the set-up is not a position yet.
    pub fn position_text(&self) -> Result<String, String> {
        match &self.setup {
            Some(edit) => match edit.position() {
                Some(pos) => Ok(self.variant.position_string(&pos)),
                None => Err(format!(
                    "the set-up is not a position yet ({}): fix it first",
                    edit.problems()
                        .first()
                        .map_or("it has problems", |p| p.message())
                )),
            },
            None => Ok(self.variant.position_string(self.game.position())),
        }
    }

    /// What "Copy position" copies ([`PlayModel::position_text`]); says
    /// why not when there is nothing to copy.
    pub fn copy_position(&mut self) -> Option<String> {
        match self.position_text() {
            Ok(text) => Some(text),
            Err(why) => {
                self.feedback.error(why);
                None
            }
        }
    }

    /// Writes the position string of what the board shows to `path`.
    pub fn save_position(&mut self, path: &Path) -> bool {
        let text = match self.position_text() {
            Ok(t) => t,
            Err(why) => {
                self.feedback.error(why);
                return false;
            }
        };
        match files::write(path, &format!("{text}\n")) {
            Ok(m) => {
                self.feedback.set(m);
                true
            }
            Err(m) => {
                self.feedback.set(m);
                false
            }
        }
    }

    /// Loads the position string held in the file at `path` (its first
    /// line that is not empty).
    pub fn open_position(&mut self, path: &Path) -> bool {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let line = text.lines().map(str::trim).find(|l| !l.is_empty());
                self.load_position(line.unwrap_or_default())
            }
            Err(e) => {
                self.feedback.error(format!("{}: {e}", path.display()));
                false
            }
        }
    }

    /// Starts a game from the set-up, when it has no problems (asked first
    /// when moves would be lost).
    pub fn finish_setup(&mut self) -> bool {
        let Some(pos) = self.setup.as_ref().and_then(SetupEdit::position) else {
            return false;
        };
        let v = self.variant.clone();
        let game = Game::from_position(&v, pos);
        self.request(Replacement::new(
            v,
            game,
            "Starting from the set-up replaces it".into(),
            "Discard and start",
        ));
        true
    }
}

/// A result in words: `Gauls won by resignation`, `drawn by agreement`.
fn result_words(v: &Variant, r: &RecordResult) -> String {
    let by = if r.reason.is_empty() {
        String::new()
    } else {
        format!(" by {}", r.reason)
    };
    match r.winner.and_then(|w| v.player_by_letter(w)) {
        Some(p) => format!("{} won{by}", v.rules().players[p].name),
        None if r.winner.is_some() => format!("? won{by}"),
        None => format!("drawn{by}"),
    }
}
