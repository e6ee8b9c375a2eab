//! Replacing the game in progress: a new game, a variant switch, a
//! position or a record loaded, a game opened from the lab, a set-up
//! started from, each a [`Replacement`] read from the variant played.
//! [`PlayModel::open`] asks first when the game in progress has moves or
//! notes that are not saved.

use std::path::Path;

use murus_engine::{
    Game, GameRecord, MoveTree, Position, PositionError, Record, RecordError, TreeError, Variant,
};

use super::PlayModel;
use crate::dialog::{Answer, Confirm};
use crate::files::{self, FileError};
use crate::play::game::result_words;

/// Why a game could not be read to replace the one in progress: each says
/// what was read (the file, the record, the position), keeping the cause.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error("cannot open {label}: {source}")]
    Moves {
        label: String,
        #[source]
        source: RecordError,
    },
    #[error("{file}: {source}")]
    Json {
        file: String,
        #[source]
        source: RecordError,
    },
    /// A record or game text that does not read, its diagnostics shown at
    /// their lines and columns.
    #[error("{0}")]
    Diagnostics(String),
    #[error("paste the game as printed into the field first")]
    NothingPasted,
    #[error("the record's start: {0}")]
    Start(#[source] PositionError),
    #[error(transparent)]
    Tree(#[from] TreeError),
    #[error("the rules embedded in the record of `{0}` do not compile")]
    EmbeddedRules(String),
    #[error("unknown variant `{0}` (open it in Rules and press Play this variant first)")]
    UnknownVariant(String),
}

/// A game that would replace the one in progress, waiting for the answer
/// to [`PlayModel::question`]; made by its constructors
/// ([`Replacement::record`], …) from the variant played.
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

impl Replacement {
    /// A new game of `v`.
    pub fn new_game(v: &Variant) -> Replacement {
        let game = Game::new(v);
        let what = "A new game replaces it".into();
        Replacement::new(v.clone(), game, what, "Discard and start")
    }

    /// A new game of `variant`; the seats stay (extra colours are human).
    pub fn switch(variant: Variant) -> Replacement {
        let game = Game::new(&variant);
        let what = format!("Switching to {} starts a new game", variant.name());
        Replacement::new(variant, game, what, "Discard and switch")
    }

    /// A game given as moves in notation (the Lab's "Open #N"); the seats
    /// stay as they are.
    pub fn moves(
        variant: Variant,
        moves: &[String],
        label: &str,
    ) -> Result<Replacement, OpenError> {
        let record = GameRecord {
            variant: variant.name().to_string(),
            start: None,
            moves: moves.to_vec(),
            result: None,
            tags: Default::default(),
        };
        match Game::from_record(&variant, &record) {
            Ok(game) => {
                let what = format!("Opening {label} replaces it");
                Ok(Replacement::new(variant, game, what, "Discard and open")
                    .saying(format!("opened {label}")))
            }
            Err(source) => Err(OpenError::Moves {
                label: label.to_string(),
                source,
            }),
        }
    }

    /// A game from a position string of `v`.
    pub fn position(v: &Variant, text: &str) -> Result<Replacement, OpenError> {
        let pos = v.parse_position(text.trim())?;
        let game = Game::from_position(v, pos);
        let what = "Loading the position replaces it".into();
        Ok(Replacement::new(v.clone(), game, what, "Discard and load").saying("position loaded"))
    }

    /// A game from the position string held in the file at `path` (its
    /// first line that is not empty).
    pub fn position_file(v: &Variant, path: &Path) -> Result<Replacement, OpenError> {
        let text = files::read(path)?;
        let line = text.lines().map(str::trim).find(|l| !l.is_empty());
        Replacement::position(v, line.unwrap_or_default())
    }

    /// A game from a position set up (no problems left).
    pub fn setup(v: &Variant, pos: Position) -> Replacement {
        let game = Game::from_position(v, pos);
        let what = "Starting from the set-up replaces it".into();
        Replacement::new(v.clone(), game, what, "Discard and start")
    }

    /// A record pasted or read: the record format (`docs/records.md`) or
    /// JSON (a record, or an older game record), of `v`, a shipped variant
    /// or one whose rules it embeds, with its variations, glyphs and
    /// comments. What is wrong is said at its line and column.
    pub fn record(v: &Variant, text: &str) -> Result<Replacement, OpenError> {
        Replacement::record_as(v, text, "the record", "record loaded")
    }

    /// The record in the file at `path`.
    pub fn record_file(v: &Variant, path: &Path) -> Result<Replacement, OpenError> {
        let text = files::read(path)?;
        let file = path.display().to_string();
        Replacement::record_as(v, &text, &file, &format!("opened {file}"))
    }

    /// A game as printed in a magazine or a book (move numbers, commas,
    /// glyphs, comments in brackets or prose, `Resign`), of `v` ("Paste
    /// game text").
    pub fn printed(v: &Variant, text: &str) -> Result<Replacement, OpenError> {
        if text.trim().is_empty() {
            return Err(OpenError::NothingPasted);
        }
        match murus_engine::record::read_printed(text, v) {
            Ok(record) => Replacement::read(record, v.clone(), "game text read"),
            Err(diags) => {
                let shown = murus_engine::record::render(&diags, "the game text", text);
                Err(OpenError::Diagnostics(shown.trim_end().to_string()))
            }
        }
    }

    fn record_as(
        v: &Variant,
        text: &str,
        file: &str,
        done: &str,
    ) -> Result<Replacement, OpenError> {
        let (record, variant) = if text.trim_start().starts_with('{') {
            let r = Record::from_json(text).map_err(|source| OpenError::Json {
                file: file.to_string(),
                source,
            })?;
            let variant = variant_of(v, &r)?;
            (r, variant)
        } else {
            murus_engine::record::read(text, Some(v)).map_err(|diags| {
                let shown = murus_engine::record::render(&diags, file, text);
                OpenError::Diagnostics(shown.trim_end().to_string())
            })?
        };
        Replacement::read(record, variant, done)
    }

    /// The game of a record read (its main line shown to its end, its
    /// variations in the tree).
    fn read(record: Record, variant: Variant, done: &str) -> Result<Replacement, OpenError> {
        let start = match &record.start {
            Some(s) => variant.parse_position(s).map_err(OpenError::Start)?,
            None => variant.start(),
        };
        let tree = MoveTree::from_record(&variant, &start, &record)?;
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
        let what = "Opening the record replaces it".into();
        Ok(Replacement::new(variant, game, what, "Discard and open")
            .with_record(tree, record)
            .saying(done))
    }
}

/// The variant of a record read from JSON: `played`, a shipped one, or the
/// rules it embeds.
fn variant_of(played: &Variant, record: &Record) -> Result<Variant, OpenError> {
    if let Some(rules) = &record.rules {
        return Variant::compile(rules)
            .map_err(|_| OpenError::EmbeddedRules(record.variant.clone()));
    }
    if record.variant == played.name() {
        return Ok(played.clone());
    }
    Variant::builtin(&record.variant)
        .ok_or_else(|| OpenError::UnknownVariant(record.variant.clone()))
}

impl PlayModel {
    /// The question waiting for an answer before the game is replaced.
    pub fn question(&self) -> Option<&Confirm<Replacement>> {
        self.question.as_ref()
    }

    /// Takes the answer to [`PlayModel::question`]: `Go` replaces the game
    /// at once, whatever is lost.
    pub fn answer(&mut self, answer: Answer<Replacement>) {
        self.question = None;
        if let Answer::Go(r) = answer {
            self.replace(r);
        }
    }

    /// Replaces the game by what `read` makes of the variant played (a new
    /// game, a position, a record…), asking first when moves or notes of
    /// the game in progress are not saved; a message says what is wrong
    /// with what was read. Returns whether it read.
    pub fn open(&mut self, read: impl FnOnce(&Variant) -> Result<Replacement, OpenError>) -> bool {
        match read(self.game.cursor().variant()) {
            Ok(r) => {
                self.request(r);
                true
            }
            Err(e) => {
                self.feedback.error(e.to_string());
                false
            }
        }
    }

    /// Replaces the game by `r` now, or after a question when moves of the
    /// game in progress are not saved.
    fn request(&mut self, r: Replacement) {
        let (n, notes) = (self.game.unsaved_moves(), self.game.unsaved_notes());
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
            self.game.cursor().variant().name()
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
        self.seats.fit(r.variant.player_count());
        self.setup = None;
        self.question = None;
        self.act(|g| g.replace(r.variant, r.game, r.tree));
        if let Some(done) = r.done {
            self.feedback.info(done);
        }
    }
}
