//! Positions as text: [`Variant::position_string`] and
//! [`Variant::setup_string`] write position strings,
//! [`Variant::parse_setup`] reads one into a [`Setup`] and
//! [`Variant::parse_position`] also builds it.
//!
//! A position string lists the ranks from the top down, separated by `/`,
//! each a sequence of stacks (`r2`: a player letter and a height digit) and
//! runs of empty cells (a decimal count), listing only existing cells; then
//! the side to move; then optional fields `pie:open|reply|swapped`,
//! `out:LETTERS` (eliminated players) and, in a variant whose turn order
//! repeats players (`turns r g g r`), `turn:K`, the turn's place in the
//! order counted from 1 (the side to move's first turn in it when left
//! out), and, in a variant where taking stones wins (`capture N stones`),
//! `taken:r3,g1`, the enemy stones each player has taken (players who have
//! taken none left out). The standard start is
//! `g2g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2 r`.

use std::collections::BTreeMap;

use murus_dsl::text::plural;

use crate::core::Phase;
use crate::setup::{Setup, SetupError, SetupErrorKind, join_list};
use crate::variant::{Position, Variant};

/// A position string that cannot be read: either it is not a position
/// string at all, or the set-up it describes is not a position of the
/// variant. Columns are 1-based and count characters of the trimmed string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The text does not have the form of a position string.
    #[error("invalid position string{}: {message}", at(*.column))]
    Syntax {
        /// What is wrong.
        message: String,
        /// Where, when one place can be named.
        column: Option<usize>,
    },
    /// The text is well formed, but the set-up it describes is not a
    /// position of the variant.
    #[error("invalid position string{}: {error}", at(*.column))]
    Setup {
        /// What is wrong with the set-up.
        error: SetupError,
        /// Where: a stack's height, the `pie:` or the `out:` field.
        column: Option<usize>,
    },
}

fn at(column: Option<usize>) -> String {
    column
        .map(|c| format!(" at column {c}"))
        .unwrap_or_default()
}

impl PositionError {
    /// The 1-based column (in characters) the error points at, if any.
    pub fn column(&self) -> Option<usize> {
        match self {
            PositionError::Syntax { column, .. } | PositionError::Setup { column, .. } => *column,
        }
    }
    /// What is wrong, without the "invalid position string" preamble.
    pub fn message(&self) -> &str {
        match self {
            PositionError::Syntax { message, .. } => message,
            PositionError::Setup { error, .. } => error.message(),
        }
    }
    /// The set-up's problem, when the string is well formed.
    pub fn setup_error(&self) -> Option<&SetupError> {
        match self {
            PositionError::Syntax { .. } => None,
            PositionError::Setup { error, .. } => Some(error),
        }
    }
}

fn syntax(message: impl Into<String>, column: Option<usize>) -> PositionError {
    PositionError::Syntax {
        message: message.into(),
        column,
    }
}

/// Byte columns (1-based) of the parts of a position string that a set-up
/// error can point at.
#[derive(Default)]
struct Columns {
    /// The height digit of the stack on each cell.
    heights: BTreeMap<usize, usize>,
    /// The last `pie:` field.
    pie: Option<usize>,
    /// The last `out:` field.
    out: Option<usize>,
    /// The last `turn:` field.
    turn: Option<usize>,
    /// The last `taken:` field.
    taken: Option<usize>,
}

impl Columns {
    fn of(&self, kind: &SetupErrorKind) -> Option<usize> {
        match kind {
            SetupErrorKind::HeightOutOfRange { cell, .. } => self.heights.get(cell).copied(),
            SetupErrorKind::NoPieRule | SetupErrorKind::PieTurn { .. } => self.pie,
            SetupErrorKind::TurnOrderStep { .. } => self.turn,
            SetupErrorKind::EliminatedToMove { .. } | SetupErrorKind::EliminationWithTwoPlayers => {
                self.out
            }
            SetupErrorKind::TooManyTaken { .. }
            | SetupErrorKind::SeveralCaptured { .. }
            | SetupErrorKind::CapturedOutOfTurn { .. } => self.taken,
            _ => None,
        }
    }
}

/// Turns a byte column of `text` into a character column.
fn char_column(text: &str, column: Option<usize>) -> Option<usize> {
    column.map(|c| {
        let mut at = (c - 1).min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        text[..at].chars().count() + 1
    })
}

impl Variant {
    /// The board part of a position string (ranks from the top down,
    /// separated by `/`) for the stacks `stack_at` gives each cell. A player
    /// the variant lacks is written `?`.
    pub fn rows_string(&self, stack_at: impl Fn(usize) -> Option<(usize, u8)>) -> String {
        let g = self.geometry();
        let mut rows = Vec::new();
        for y in (0..g.height()).rev() {
            let mut row = String::new();
            let mut run = 0;
            for s in g.rank(y + 1) {
                match stack_at(s) {
                    None => run += 1,
                    Some((p, h)) => {
                        if run > 0 {
                            row += &run.to_string();
                            run = 0;
                        }
                        row.push(self.letter_or_unknown(p));
                        row += &h.to_string();
                    }
                }
            }
            if run > 0 {
                row += &run.to_string();
            }
            rows.push(row);
        }
        rows.join("/")
    }

    /// The position string of `pos` (see [the module](crate::position_string)).
    pub fn position_string(&self, pos: &Position) -> String {
        self.setup_string(&Setup::from(pos))
    }

    /// The position string of a set-up, whether or not it is a position:
    /// what [`Variant::parse_setup`] reads back. Stacks on slots that are not
    /// cells are left out; a player the variant lacks is written `?`.
    pub fn setup_string(&self, setup: &Setup) -> String {
        let rows = self.rows_string(|s| setup.stack(s));
        let mut out = format!("{rows} {}", self.letter_or_unknown(setup.turn()));
        // A turn order that repeats players needs the turn's place in it.
        if self.rules().turn_order.is_some() {
            if let Some(k) = setup.step() {
                out += &format!(" turn:{}", k + 1);
            }
        }
        if let Some(word) = setup.phase().pie_word() {
            out += &format!(" pie:{word}");
        }
        let out_letters: String = setup
            .eliminated()
            .map(|p| self.letter_or_unknown(p))
            .collect();
        if !out_letters.is_empty() {
            out += &format!(" out:{out_letters}");
        }
        let taken: Vec<String> = setup
            .takers()
            .map(|(p, n)| format!("{}{n}", self.letter_or_unknown(p)))
            .collect();
        if !taken.is_empty() {
            out += &format!(" taken:{}", taken.join(","));
        }
        out
    }

    fn letter_or_unknown(&self, p: usize) -> char {
        self.rules().players.get(p).map_or('?', |pl| pl.letter)
    }

    /// Reads a position string (see [the module](crate::position_string))
    /// and builds the position ([`Setup::build`]).
    ///
    /// Besides its form, the string must describe a position the rules can
    /// reach: no player holds more stones than the variant's setup gives it,
    /// and in an immediate-breakthrough game at most one player, not the one
    /// to move, stands on an opponent's home (that player has won).
    pub fn parse_position(&self, text: &str) -> Result<Position, PositionError> {
        let trimmed = text.trim();
        let (setup, columns) = self.read_setup(trimmed)?;
        setup.build(self).map_err(|error| PositionError::Setup {
            column: char_column(trimmed, columns.of(error.kind())),
            error,
        })
    }

    /// Reads a position string into a [`Setup`] without checking it against
    /// the rules (heights, stone counts, phases and eliminations are left to
    /// [`Setup::problems`]): for editors that load strings which may not be
    /// positions yet. Only errors of form are reported.
    pub fn parse_setup(&self, text: &str) -> Result<Setup, PositionError> {
        self.read_setup(text.trim()).map(|(setup, _)| setup)
    }

    /// [`Variant::parse_setup`] on a trimmed string, with the byte columns
    /// of what set-up errors can point at; errors carry character columns.
    fn read_setup(&self, text: &str) -> Result<(Setup, Columns), PositionError> {
        self.read_setup_bytes(text).map_err(|e| match e {
            PositionError::Syntax { message, column } => PositionError::Syntax {
                message,
                column: char_column(text, column),
            },
            setup @ PositionError::Setup { .. } => setup,
        })
    }

    /// [`Variant::read_setup`] with byte columns.
    fn read_setup_bytes(&self, text: &str) -> Result<(Setup, Columns), PositionError> {
        let g = self.geometry();
        if text.is_empty() {
            return Err(syntax("the string is empty", None));
        }
        let letters = {
            let l: Vec<String> = self
                .rules()
                .players
                .iter()
                .map(|p| format!("`{}`", p.letter))
                .collect();
            join_list(&l, "or")
        };
        let board_end = text.find(char::is_whitespace).unwrap_or(text.len());
        let board = &text[..board_end];
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != g.height() {
            return Err(syntax(
                format!(
                    "expected {} ranks separated by `/`, found {}",
                    g.height(),
                    rows.len()
                ),
                None,
            ));
        }
        let mut setup = Setup::empty();
        let mut columns = Columns::default();
        let mut col = 1;
        for (i, row) in rows.iter().enumerate() {
            let rank = g.height() - i;
            let cells = g.rank(rank);
            let mut k = 0;
            let bytes = row.as_bytes();
            let mut j = 0;
            while j < bytes.len() {
                // `j` is always on a character boundary here: everything
                // consumed so far is ASCII.
                let c = row[j..].chars().next().unwrap_or('?');
                let at = Some(col + j);
                if c.is_ascii_digit() {
                    let start = j;
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        j += 1;
                    }
                    let run: usize = row[start..j]
                        .parse()
                        .map_err(|_| syntax("run of empty cells too long", at))?;
                    if run == 0 {
                        return Err(syntax("a run of empty cells must be at least 1", at));
                    }
                    k += run;
                    if k > cells.len() {
                        return Err(syntax(
                            format!(
                                "rank {rank} has more than its {}",
                                plural(cells.len() as u64, "cell")
                            ),
                            at,
                        ));
                    }
                    continue;
                }
                let Some(p) = self.player_by_letter(c) else {
                    return Err(syntax(
                        format!(
                            "`{c}` is neither a count of empty cells nor a player letter: {letters}"
                        ),
                        at,
                    ));
                };
                let Some(h) = bytes.get(j + 1).filter(|b| b.is_ascii_digit()) else {
                    return Err(syntax(
                        format!("`{c}` must be followed by the stack's height, as in `{c}2`"),
                        at,
                    ));
                };
                if k >= cells.len() {
                    return Err(syntax(
                        format!(
                            "rank {rank} has more than its {}",
                            plural(cells.len() as u64, "cell")
                        ),
                        at,
                    ));
                }
                setup.set_stack(cells[k], Some((p, h - b'0')));
                columns.heights.insert(cells[k], col + j + 1);
                k += 1;
                j += 2;
            }
            if k != cells.len() {
                return Err(syntax(
                    format!(
                        "rank {rank} describes {} but has {}",
                        plural(k as u64, "cell"),
                        cells.len()
                    ),
                    Some(col + row.len()),
                ));
            }
            col += row.len() + 1;
        }
        let mut fields = text[board_end..].split_whitespace();
        let col_of = |f: &str| Some(f.as_ptr() as usize - text.as_ptr() as usize + 1);
        let Some(side) = fields.next() else {
            return Err(syntax(
                format!("the side to move is missing: add a space and {letters}"),
                None,
            ));
        };
        let turn = side
            .chars()
            .next()
            .filter(|_| side.chars().count() == 1)
            .and_then(|c| self.player_by_letter(c))
            .ok_or_else(|| {
                syntax(
                    format!("`{side}` is not a side to move: expected {letters}"),
                    col_of(side),
                )
            })?;
        setup.set_turn(turn);
        for f in fields {
            if let Some(word) = f.strip_prefix("pie:") {
                let phase = [Phase::PieOpen, Phase::PieReply, Phase::PieSwapped]
                    .into_iter()
                    .find(|p| p.pie_word() == Some(word))
                    .ok_or_else(|| {
                        syntax(
                            format!("`{f}`: the pie phase is `open`, `reply` or `swapped`"),
                            col_of(f),
                        )
                    })?;
                setup.set_phase(phase);
                columns.pie = col_of(f);
            } else if let Some(k) = f
                .strip_prefix("turn:")
                .filter(|_| self.rules().turn_order.is_some())
            {
                let k: usize = k.parse().ok().filter(|&k| k >= 1).ok_or_else(|| {
                    syntax(
                        format!("`{f}`: the turn is a number from 1, its place in the turn order"),
                        col_of(f),
                    )
                })?;
                setup.set_step(Some(k - 1));
                columns.turn = col_of(f);
            } else if let Some(v) = f.strip_prefix("out:") {
                for c in v.chars() {
                    let p = self.player_by_letter(c).ok_or_else(|| {
                        syntax(
                            format!("`{c}` in `{f}` is not a player letter: {letters}"),
                            col_of(f),
                        )
                    })?;
                    setup.set_out(p, true);
                }
                columns.out = col_of(f);
            } else if let Some(v) = f.strip_prefix("taken:").filter(|_| self.counts_taken()) {
                for item in v.split(',') {
                    let mut chars = item.chars();
                    let p = chars.next().and_then(|c| self.player_by_letter(c));
                    let n = chars.as_str().parse::<u32>().ok().filter(|&n| n <= 255);
                    let (Some(p), Some(n)) = (p, n) else {
                        return Err(syntax(
                            format!(
                                "`{item}` in `{f}`: expected a player letter ({letters}) and the enemy stones it has taken (0 to 255), as in `taken:{}3`",
                                self.letter(0)
                            ),
                            col_of(f),
                        ));
                    };
                    setup.set_taken(p, n);
                }
                columns.taken = col_of(f);
            } else {
                let fields = if self.counts_taken() {
                    "`pie:…`, `out:…` or `taken:…`"
                } else {
                    "`pie:…` or `out:…`"
                };
                return Err(syntax(
                    format!("unknown field `{f}`: expected {fields}"),
                    col_of(f),
                ));
            }
        }
        Ok((setup, columns))
    }
}
