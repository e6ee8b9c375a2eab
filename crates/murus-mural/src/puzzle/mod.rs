//! The puzzle file format (`puzzles/*.toml`): a mural's board, start,
//! targets and rules, read with diagnostics ([`Puzzle::from_toml`]) and written back.

mod read;

pub use read::Draft;

use crate::board::{Board, State};

/// A mural: a board, a start, target cells and the rules in force.
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub title: String,
    pub author: String,
    pub board: Board,
    /// Colour letters, by colour index.
    pub colours: Vec<char>,
    pub sacrifice: bool,
    pub start: State,
    /// Per slot: whether it is a target.
    pub targets: Vec<bool>,
    pub notes: Option<String>,
    pub optimal: Option<u32>,
    pub difficulty: Option<String>,
}

/// Splits a grid (`start`, or a state written by [`Puzzle::grid`]) into
/// rows from the top down, each with its byte offset in `text`. Rows are
/// separated by `/` or by line breaks; whitespace around a row is trimmed,
/// blank lines are skipped, and in a grid of several lines a `/` ending a
/// line is allowed (`r2r2/` then `3` on the next line).
pub fn grid_rows(text: &str) -> Vec<(usize, &str)> {
    let several_lines = text.trim().contains('\n');
    let mut rows = Vec::new();
    let mut line_start = 0;
    for line in text.split('\n') {
        let at = line_start;
        line_start += line.len() + 1;
        if line.trim().is_empty() {
            continue;
        }
        let mut body = line.trim_end();
        if several_lines {
            body = body.strip_suffix('/').unwrap_or(body);
        }
        let mut offset = at;
        for part in body.split('/') {
            let lead = part.len() - part.trim_start().len();
            rows.push((offset + lead, part.trim()));
            offset += part.len() + 1;
        }
    }
    rows
}

/// Why a grid (a state's rows, [`Puzzle::parse_grid`]) does not read: rows
/// count from 1 at the top, columns from 1 at the row's first character.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    #[error("expected {expected} rows separated by `/` or line breaks, found {found}")]
    RowCount { expected: usize, found: usize },
    #[error("row {row}: `{letter}` is not a colour of this puzzle")]
    NotAColour {
        row: usize,
        column: usize,
        letter: char,
    },
    #[error("row {row}: `{letter}` needs a height, 1 or 2")]
    NoHeight {
        row: usize,
        column: usize,
        letter: char,
    },
    /// The row goes on past its rank's last cell, at `column`.
    #[error("row {row}: more cells than the rank has")]
    TooManyCells { row: usize, column: usize },
    #[error("row {row} describes {cells} cells; the rank has {rank}")]
    CellCount {
        row: usize,
        cells: usize,
        rank: usize,
    },
}

/// The most colours a mural has.
pub const MAX_COLOURS: usize = 3;

/// The difficulty bands.
pub const DIFFICULTIES: [&str; 3] = ["easy", "medium", "hard"];

impl Puzzle {
    /// Target slots in order.
    pub fn target_cells(&self) -> Vec<usize> {
        (0..self.targets.len())
            .filter(|&s| self.targets[s])
            .collect()
    }

    /// A state as rows from the top down (`r2r2/3/…`), without a side to move.
    pub fn grid(&self, state: &State) -> String {
        let g = &self.board.geometry;
        let mut rows = Vec::new();
        for y in (0..g.height()).rev() {
            let mut row = String::new();
            let mut run = 0;
            for x in 0..g.width() {
                let s = y * g.width() + x;
                if !g.exists(s) {
                    continue;
                }
                match state.get(s) {
                    None => run += 1,
                    Some((c, h)) => {
                        if run > 0 {
                            row.push_str(&run.to_string());
                            run = 0;
                        }
                        row.push(self.colours[c as usize]);
                        row.push_str(&h.to_string());
                    }
                }
            }
            if run > 0 {
                row.push_str(&run.to_string());
            }
            rows.push(row);
        }
        rows.join("/")
    }

    /// Reads a state written by [`Puzzle::grid`] (rows from the top down,
    /// colour letters and heights, counts of empty cells).
    pub fn parse_grid(&self, text: &str) -> Result<State, GridError> {
        let g = &self.board.geometry;
        let rows = grid_rows(text);
        if rows.len() != g.height() {
            return Err(GridError::RowCount {
                expected: g.height(),
                found: rows.len(),
            });
        }
        let mut state = State::empty(self.board.slots());
        for (r, &(_, row)) in rows.iter().enumerate() {
            let y = g.height() - 1 - r;
            let cells: Vec<usize> = g.rank(y + 1);
            let mut i = 0usize;
            let chars: Vec<char> = row.chars().collect();
            let mut k = 0;
            while k < chars.len() {
                if let Some(d) = chars[k].to_digit(10) {
                    let mut n = d as usize;
                    k += 1;
                    while let Some(d) = chars.get(k).and_then(|c| c.to_digit(10)) {
                        n = n.saturating_mul(10).saturating_add(d as usize);
                        k += 1;
                    }
                    i = i.saturating_add(n);
                    continue;
                }
                let (row, column, letter) = (r + 1, k + 1, chars[k]);
                let colour = self.colours.iter().position(|&c| c == letter).ok_or(
                    GridError::NotAColour {
                        row,
                        column,
                        letter,
                    },
                )?;
                let h = chars
                    .get(k + 1)
                    .and_then(|c| c.to_digit(10))
                    .filter(|h| (1..=2).contains(h))
                    .ok_or(GridError::NoHeight {
                        row,
                        column,
                        letter,
                    })?;
                let slot = *cells
                    .get(i)
                    .ok_or(GridError::TooManyCells { row, column })?;
                state.set(slot, Some((colour as u8, h as u8)));
                i += 1;
                k += 2;
            }
            if i != cells.len() {
                return Err(GridError::CellCount {
                    row: r + 1,
                    cells: i,
                    rank: cells.len(),
                });
            }
        }
        Ok(state)
    }

    /// The puzzle as TOML, in the collection's layout.
    pub fn to_toml(&self) -> String {
        let q = |s: &str| toml::Value::String(s.to_string()).to_string();
        let mut out = format!("title = {}\n", q(&self.title));
        out.push_str(&format!("author = {}\n", q(&self.author)));
        out.push_str(&format!("board = {}\n", q(&self.board.text)));
        let colours: Vec<String> = self.colours.iter().map(|c| q(&c.to_string())).collect();
        out.push_str(&format!("colours = [{}]\n", colours.join(", ")));
        out.push_str(&format!("sacrifice = {}\n", self.sacrifice));
        out.push_str(&format!("start = {}\n", q(&self.grid(&self.start))));
        let targets: Vec<String> = self
            .target_cells()
            .iter()
            .map(|&s| q(&self.board.name(s)))
            .collect();
        out.push_str(&format!("targets = [{}]\n", targets.join(", ")));
        if let Some(o) = self.optimal {
            out.push_str(&format!("optimal = {o}\n"));
        }
        if let Some(d) = &self.difficulty {
            out.push_str(&format!("difficulty = {}\n", q(d)));
        }
        if let Some(n) = &self.notes {
            out.push_str(&format!("notes = {}\n", q(n)));
        }
        out
    }

    /// A text drawing of `state`: stacks as `r2`, `g1`, targets as `()`
    /// when empty and `[..]` around stacks on targets.
    pub fn render(&self, state: &State) -> String {
        let g = &self.board.geometry;
        let mut out = String::new();
        for y in (0..g.height()).rev() {
            out.push_str(&format!("{:>2} ", y + 1));
            for x in 0..g.width() {
                let s = y * g.width() + x;
                if !g.exists(s) {
                    out.push_str("    ");
                    continue;
                }
                let cell = match state.get(s) {
                    None => "  ".to_string(),
                    Some((c, h)) => format!("{}{h}", self.colours[c as usize]),
                };
                if self.targets[s] {
                    out.push_str(&format!("[{cell}]"));
                } else if cell.trim().is_empty() {
                    out.push_str(" .  ");
                } else {
                    out.push_str(&format!(" {cell} "));
                }
            }
            out.push('\n');
        }
        out.push_str("   ");
        for x in 0..g.width() {
            out.push_str(&format!(" {}  ", (b'a' + x as u8) as char));
        }
        out.push('\n');
        out
    }

    /// `text` (a puzzle's) without its `optimal` and `difficulty` lines, the
    /// rest as written: for figures that no longer hold. Falls back to the
    /// puzzle written afresh without them when the lines cannot simply go
    /// (a value over several lines).
    pub fn text_without_figures(text: &str) -> String {
        let is_figure = |line: &str| {
            let l = line.trim_start();
            ["optimal", "difficulty"].iter().any(|k| {
                l.strip_prefix(k)
                    .is_some_and(|rest| rest.trim_start().starts_with('='))
            })
        };
        let kept: String = text
            .split_inclusive('\n')
            .filter(|line| !is_figure(line))
            .collect();
        let Ok(mut p) = Puzzle::from_toml(text) else {
            return kept;
        };
        p.optimal = None;
        p.difficulty = None;
        match Puzzle::from_toml(&kept) {
            Ok(q) if q.to_toml() == p.to_toml() => kept,
            _ => p.to_toml(),
        }
    }

    /// The rules-language source that lets the engine replay this puzzle's
    /// moves.
    pub fn rules_source(&self) -> String {
        crate::rules::rules_source(&self.board.text, &self.colours, self.sacrifice)
    }
}
