//! The puzzle file format (`puzzles/*.toml`) and its validation.

use std::ops::Range;

use murus_dsl::{Diagnostic, Span};
use serde::Deserialize;
use toml::Spanned;

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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    title: Spanned<String>,
    #[serde(default)]
    author: Option<String>,
    board: Spanned<String>,
    #[serde(default)]
    colours: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    sacrifice: Option<Spanned<bool>>,
    start: Spanned<String>,
    targets: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    notes: Option<String>,
    #[serde(default)]
    optimal: Option<u32>,
    #[serde(default)]
    difficulty: Option<Spanned<String>>,
}

fn span(r: Range<usize>) -> Span {
    Span::new(r.start, r.end)
}

/// The span of the text inside a quoted TOML string value.
fn inner(r: Range<usize>) -> Span {
    Span::new(r.start + 1, r.end.saturating_sub(1).max(r.start + 1))
}

/// Where the text of the string value whose source span (quotes included)
/// is `r` starts in `src`, when the source holds the value literally (no
/// escapes or line-continuation backslashes): offsets into the value then
/// map one to one onto the source. Handles `"…"`, `'…'`, and the multi-line
/// `"""…"""` and `'''…'''` (whose first newline TOML drops).
fn literal_start(src: &str, r: Range<usize>, value: &str) -> Option<usize> {
    let raw = src.get(r.clone())?;
    let quotes = if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
        3
    } else {
        1
    };
    let mut start = r.start + quotes;
    let mut body = raw.get(quotes..raw.len().checked_sub(quotes)?)?;
    if quotes == 3 {
        for newline in ["\r\n", "\n"] {
            if let Some(rest) = body.strip_prefix(newline) {
                start += newline.len();
                body = rest;
                break;
            }
        }
    }
    (body == value).then_some(start)
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

/// The difficulty bands.
pub const DIFFICULTIES: [&str; 3] = ["easy", "medium", "hard"];

impl Puzzle {
    /// Reads and validates puzzle text. Errors point into `text`; render them
    /// with [`murus_dsl::render_all`].
    pub fn from_toml(text: &str) -> Result<Puzzle, Vec<Diagnostic>> {
        let raw: Raw = toml::from_str(text).map_err(|e| {
            let s = e.span().map_or(Span::new(0, 0), span);
            vec![Diagnostic::error(s, e.message().trim().to_string())]
        })?;
        let mut errors = Vec::new();
        let board = match Board::parse(raw.board.get_ref()) {
            Ok(b) => Some(b),
            Err(m) => {
                errors.push(
                    Diagnostic::error(inner(raw.board.span()), format!("bad board: {m}"))
                        .with_note("write `5x5`, or the rules language's board: `rect 6 x 5 without cells a1`, `hex 3`"),
                );
                None
            }
        };
        let Some(board) = board else {
            return Err(errors);
        };
        // Colours: listed, or in order of appearance in the start.
        let start_text = raw.start.get_ref();
        // Offsets into the start text map onto the source when it is written
        // literally; otherwise errors point at the whole value.
        let start_base = literal_start(text, raw.start.span(), start_text);
        let at = |lo: usize, hi: usize| match start_base {
            Some(b) => Span::new(b + lo, b + hi),
            None => span(raw.start.span()),
        };
        let start_span = at(0, start_text.len());
        let mut colours: Vec<char> = Vec::new();
        let mut colour_spans: Vec<Span> = Vec::new();
        if let Some(list) = &raw.colours {
            for c in list.get_ref() {
                let s = c.get_ref();
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(l), None) if l.is_ascii_lowercase() && !colours.contains(&l) => {
                        colours.push(l);
                        colour_spans.push(inner(c.span()));
                    }
                    (Some(l), None) if colours.contains(&l) => errors.push(Diagnostic::error(
                        inner(c.span()),
                        format!("colour `{l}` is listed twice"),
                    )),
                    _ => errors.push(Diagnostic::error(
                        inner(c.span()),
                        format!("`{s}` is not a colour: use one lower-case letter, like `r`"),
                    )),
                }
            }
            if colours.len() > 3 {
                errors.push(Diagnostic::error(
                    span(list.span()),
                    "at most three colours",
                ));
            }
        } else {
            for ch in start_text.chars() {
                if ch.is_ascii_lowercase() && !colours.contains(&ch) {
                    colours.push(ch);
                }
            }
        }
        if raw.colours.is_none() && colours.len() > 3 {
            errors.push(Diagnostic::error(
                start_span,
                format!("{} colours in `start`: at most three", colours.len()),
            ));
            return Err(errors);
        }
        // The start grid.
        let g = &board.geometry;
        let mut start = State::empty(board.slots());
        let rows = grid_rows(start_text);
        if rows.len() != g.height() {
            errors.push(Diagnostic::error(
                start_span,
                format!(
                    "`start` has {} rows; this board has {} (write rows from the top down, separated by `/` or one per line)",
                    rows.len(),
                    g.height()
                ),
            ));
        } else {
            for (r, &(offset, row)) in rows.iter().enumerate() {
                let y = g.height() - 1 - r;
                let cells: Vec<usize> = (0..g.width())
                    .map(|x| y * g.width() + x)
                    .filter(|&s| g.exists(s))
                    .collect();
                let mut i: usize = 0;
                let chars: Vec<(usize, char)> = row.char_indices().collect();
                let mut k = 0;
                let mut bad = false;
                while k < chars.len() {
                    let (pos, ch) = chars[k];
                    let here = at(offset + pos, offset + pos + ch.len_utf8());
                    if ch.is_ascii_digit() {
                        let mut n = 0usize;
                        while k < chars.len() && chars[k].1.is_ascii_digit() {
                            n = n
                                .saturating_mul(10)
                                .saturating_add(chars[k].1 as usize - '0' as usize);
                            k += 1;
                        }
                        i = i.saturating_add(n);
                        continue;
                    }
                    let Some(ci) = colours.iter().position(|&c| c == ch) else {
                        errors.push(Diagnostic::error(
                            here,
                            format!(
                                "`{ch}` is neither a count of empty cells nor a colour ({})",
                                colours.iter().collect::<String>()
                            ),
                        ));
                        bad = true;
                        break;
                    };
                    let h = chars.get(k + 1).and_then(|&(_, d)| d.to_digit(10));
                    match h {
                        Some(h @ 1..=2) if i < cells.len() => {
                            start.set(cells[i], Some((ci as u8, h as u8)));
                            i += 1;
                            k += 2;
                        }
                        Some(1..=2) => {
                            errors.push(Diagnostic::error(
                                at(offset, offset + row.len()),
                                format!(
                                    "row {} (rank {}) describes more than its {} cells",
                                    r + 1,
                                    y + 1,
                                    cells.len()
                                ),
                            ));
                            bad = true;
                            break;
                        }
                        Some(h) => {
                            errors.push(Diagnostic::error(
                                at(offset + pos, offset + pos + 2),
                                format!("a stack of {h}: mural stacks hold 1 or 2 stones"),
                            ));
                            bad = true;
                            break;
                        }
                        None => {
                            errors.push(Diagnostic::error(
                                here,
                                format!("`{ch}` must be followed by its height, 1 or 2"),
                            ));
                            bad = true;
                            break;
                        }
                    }
                }
                if !bad && i != cells.len() {
                    errors.push(Diagnostic::error(
                        at(offset, offset + row.len()),
                        format!(
                            "row {} (rank {}) describes {i} cells; it has {}",
                            r + 1,
                            y + 1,
                            cells.len()
                        ),
                    ));
                }
            }
        }
        // Targets.
        let mut targets = vec![false; board.slots()];
        let mut target_spans: Vec<Option<Span>> = vec![None; board.slots()];
        for t in raw.targets.get_ref() {
            let s = inner(t.span());
            match board.parse_cell(t.get_ref()) {
                Some(c) => {
                    if let Some(first) = target_spans[c] {
                        errors.push(
                            Diagnostic::error(
                                s,
                                format!("target `{}` is listed twice", t.get_ref()),
                            )
                            .with_label(first, "first listed here"),
                        );
                    }
                    targets[c] = true;
                    target_spans[c] = Some(s);
                }
                None => errors.push(Diagnostic::error(
                    s,
                    format!("target `{}` is not a cell of this board", t.get_ref()),
                )),
            }
        }
        let sacrifice = raw.sacrifice.as_ref().is_some_and(|s| *s.get_ref());
        if let Some(d) = &raw.difficulty {
            if !DIFFICULTIES.contains(&d.get_ref().as_str()) {
                errors.push(Diagnostic::error(
                    inner(d.span()),
                    format!(
                        "difficulty `{}`: expected easy, medium or hard",
                        d.get_ref()
                    ),
                ));
            }
        }
        if errors.is_empty() {
            // Every listed colour has stones.
            for (i, &c) in colours.iter().enumerate() {
                let has =
                    (0..board.slots()).any(|s| start.get(s).is_some_and(|(k, _)| k as usize == i));
                if !has {
                    let at = colour_spans.get(i).copied().unwrap_or(start_span);
                    errors.push(Diagnostic::error(
                        at,
                        format!("colour `{c}` has no stones in `start`"),
                    ));
                }
            }
            let stones = start.stones();
            let n = targets.iter().filter(|&&t| t).count() as u32;
            let targets_span = span(raw.targets.span());
            if sacrifice && colours.len() < 2 {
                let at = raw
                    .sacrifice
                    .as_ref()
                    .map_or(targets_span, |s| span(s.span()));
                errors.push(
                    Diagnostic::error(at, "`sacrifice = true` with one colour: no sacrifice is possible")
                        .with_note("a tower sacrifices against an adjacent wall of another colour; add a second colour or set `sacrifice = false`"),
                );
            } else if sacrifice {
                if stones < n || (stones - n) % 2 != 0 {
                    errors.push(
                        Diagnostic::error(targets_span, format!("{n} targets for {stones} stones"))
                            .with_note("each sacrifice removes two stones, so with sacrifice the stones must exceed the targets by an even number"),
                    );
                }
            } else if stones != n {
                errors.push(
                    Diagnostic::error(targets_span, format!("{n} targets for {stones} stones"))
                        .with_note("without sacrifice no stone leaves the board, so there must be one target per stone"),
                );
            }
            if n == 0 {
                errors.push(Diagnostic::error(
                    targets_span,
                    "a mural needs at least one target",
                ));
            }
        }
        if !errors.is_empty() {
            errors.sort_by_key(|d| d.span.start);
            return Err(errors);
        }
        Ok(Puzzle {
            title: raw.title.into_inner(),
            author: raw.author.unwrap_or_default(),
            board,
            colours,
            sacrifice,
            start,
            targets,
            notes: raw.notes,
            optimal: raw.optimal,
            difficulty: raw.difficulty.map(Spanned::into_inner),
        })
    }

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
    pub fn parse_grid(&self, text: &str) -> Result<State, String> {
        let g = &self.board.geometry;
        let rows = grid_rows(text);
        if rows.len() != g.height() {
            return Err(format!(
                "expected {} rows separated by `/` or line breaks, found {}",
                g.height(),
                rows.len()
            ));
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
                let colour = self
                    .colours
                    .iter()
                    .position(|&c| c == chars[k])
                    .ok_or_else(|| {
                        format!(
                            "row {}: `{}` is not a colour of this puzzle",
                            r + 1,
                            chars[k]
                        )
                    })?;
                let h = chars
                    .get(k + 1)
                    .and_then(|c| c.to_digit(10))
                    .filter(|h| (1..=2).contains(h))
                    .ok_or_else(|| {
                        format!("row {}: `{}` needs a height, 1 or 2", r + 1, chars[k])
                    })?;
                let slot = *cells
                    .get(i)
                    .ok_or_else(|| format!("row {}: more cells than the rank has", r + 1))?;
                state.set(slot, Some((colour as u8, h as u8)));
                i += 1;
                k += 2;
            }
            if i != cells.len() {
                return Err(format!(
                    "row {} describes {i} cells; the rank has {}",
                    r + 1,
                    cells.len()
                ));
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

    /// The rules-language source that lets the engine replay this puzzle's
    /// moves.
    pub fn rules_source(&self) -> String {
        crate::board::rules_source(&self.board.text, &self.colours, self.sacrifice)
    }
}
