//! Reading puzzle text: TOML, then the board, colours, start grid and
//! targets, each mistake a diagnostic pointing into the text.

use std::ops::Range;

use murus_dsl::{Diagnostic, Span};
use serde::Deserialize;
use toml::Spanned;

use super::{DIFFICULTIES, MAX_COLOURS, Puzzle, grid_rows};
use crate::board::{Board, State};

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

/// A puzzle text read as far as it goes (see [`Puzzle::read`]).
#[derive(Clone, Debug)]
pub struct Draft {
    /// The puzzle, whenever its board, colours, start and targets read, even
    /// when the mural as a whole is not valid yet (stones and targets that
    /// cannot match, a colour without stones, no target): an editor shows
    /// it and paints on it while it is wrong.
    pub puzzle: Option<Puzzle>,
    /// Every problem, in source order; empty exactly when the puzzle is
    /// valid.
    pub problems: Vec<Diagnostic>,
}

impl Puzzle {
    /// Reads and validates puzzle text. Errors point into `text`; render them
    /// with [`murus_dsl::render_all`].
    pub fn from_toml(text: &str) -> Result<Puzzle, Vec<Diagnostic>> {
        match Puzzle::read(text) {
            Draft {
                puzzle: Some(p),
                problems,
            } if problems.is_empty() => Ok(p),
            Draft { problems, .. } => Err(problems),
        }
    }

    /// Reads puzzle text as far as it goes: the puzzle even when only the
    /// checks of the whole mural fail, and every problem (see [`Draft`]).
    pub fn read(text: &str) -> Draft {
        match Puzzle::read_parts(text) {
            Ok((puzzle, problems)) => Draft {
                puzzle: Some(puzzle),
                problems,
            },
            Err(problems) => Draft {
                puzzle: None,
                problems,
            },
        }
    }

    /// The puzzle and the problems of the mural as a whole, or the problems
    /// that leave no puzzle to show; each list in source order.
    fn read_parts(text: &str) -> Result<(Puzzle, Vec<Diagnostic>), Vec<Diagnostic>> {
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
            if colours.len() > MAX_COLOURS {
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
        if raw.colours.is_none() && colours.len() > MAX_COLOURS {
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
        if !errors.is_empty() {
            errors.sort_by_key(|d| d.span.start);
            return Err(errors);
        }
        // The mural as a whole: these leave a puzzle to show and edit.
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
        errors.sort_by_key(|d| d.span.start);
        Ok((
            Puzzle {
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
            },
            errors,
        ))
    }
}
