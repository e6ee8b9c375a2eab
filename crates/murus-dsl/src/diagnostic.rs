//! Diagnostics: errors and warnings that point into the rule file.
//!
//! A [`Diagnostic`] carries a primary [`Span`], optional secondary [`Label`]s
//! ("first defined here"), notes and a help (a suggested fix, such as "did
//! you mean `colour`?"). [`Diagnostic::render`] prints it the way rustc does:
//!
//! ```text
//! dup.mg:18:12: error: duplicate player letter `r`
//!    |
//! 12 |     letter r
//!    |            - first defined here
//! ...
//! 18 |     letter r
//!    |            ^
//!    |
//!    = note: every player needs a letter of its own
//! ```
//!
//! Rendering never panics, whatever the spans: they are clamped to the source
//! and moved to character boundaries.

use crate::text::plural;
use std::fmt;
use std::ops::Range;

/// A byte range `start..end` in the rule-file source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// An empty span at `pos`, for things that are missing.
    pub const fn point(pos: usize) -> Span {
        Span {
            start: pos,
            end: pos,
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// As a byte range.
    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }

    /// Whether the span covers no byte.
    pub fn is_empty(self) -> bool {
        self.end <= self.start
    }
}

impl From<pest::Span<'_>> for Span {
    fn from(span: pest::Span<'_>) -> Span {
        Span::new(span.start(), span.end())
    }
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The file does not compile.
    Error,
    /// The file compiles, but something looks like a mistake.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// A secondary span with a short message, such as "first defined here".
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// An error or warning about a rule file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{severity}: {message}")]
pub struct Diagnostic {
    pub severity: Severity,
    /// One line, lower case, no trailing period; code in backticks.
    pub message: String,
    /// Where the problem is.
    pub span: Span,
    /// Other places that explain it.
    pub labels: Vec<Label>,
    /// Extra explanation, one per `= note:` line.
    pub notes: Vec<String>,
    /// A suggested fix ("did you mean `colour`?"), rendered as `= help: …`
    /// after the notes.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// A warning at `span`.
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }

    /// Adds a secondary label.
    #[must_use]
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Adds a note.
    #[must_use]
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Sets the help, replacing any earlier one.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// 1-based line and column (in characters) of the start of the span.
    pub fn line_col(&self, source: &str) -> (usize, usize) {
        line_col(source, self.span.start)
    }

    /// Renders the diagnostic like rustc: a `FILE:LINE:COL: error: MESSAGE`
    /// header, the source lines involved with carets (`^`) under the primary
    /// span and dashes (`-`) under labelled ones, then the notes and the help.
    pub fn render(&self, file_name: &str, source: &str) -> String {
        let (line, col) = self.line_col(source);
        let mut out = format!(
            "{file_name}:{line}:{col}: {}: {}\n",
            self.severity, self.message
        );

        // Every marked line, in order; a line may carry several marks.
        let mut marks: Vec<Mark<'_>> = Vec::with_capacity(1 + self.labels.len());
        marks.push(Mark::new(source, self.span, '^', ""));
        for label in &self.labels {
            marks.push(Mark::new(source, label.span, '-', &label.message));
        }
        marks.sort_by_key(|m| (m.line, m.col_start));

        let last_line = marks.iter().map(|m| m.line).max().unwrap_or(line);
        let width = last_line.to_string().len();
        let pad = " ".repeat(width);
        let lines: Vec<&str> = source.split('\n').collect();
        let text_of = |n: usize| -> &str {
            lines
                .get(n.saturating_sub(1))
                .map_or("", |l| l.strip_suffix('\r').unwrap_or(l))
        };

        out.push_str(&format!("{pad} |\n"));
        let mut previous: Option<usize> = None;
        let mut i = 0;
        while i < marks.len() {
            let n = marks[i].line;
            match previous {
                Some(p) if n == p + 2 => {
                    out.push_str(&source_line(width, p + 1, text_of(p + 1)));
                }
                Some(p) if n > p + 2 => out.push_str("...\n"),
                _ => {}
            }
            let text = text_of(n);
            out.push_str(&source_line(width, n, text));
            while i < marks.len() && marks[i].line == n {
                let m = &marks[i];
                let start = display_width(text, m.col_start);
                let end = display_width(text, m.col_end).max(start + 1);
                let mut row = format!(
                    "{pad} | {}{}",
                    " ".repeat(start),
                    m.ch.to_string().repeat(end - start)
                );
                if !m.text.is_empty() {
                    row.push(' ');
                    row.push_str(m.text);
                }
                out.push_str(row.trim_end());
                out.push('\n');
                i += 1;
            }
            previous = Some(n);
        }

        if !self.notes.is_empty() || self.help.is_some() {
            out.push_str(&format!("{pad} |\n"));
        }
        let notes = self.notes.iter().map(|n| ("note", n.as_str()));
        for (kind, text) in notes.chain(self.help.as_deref().map(|h| ("help", h))) {
            let indent = " ".repeat(width + 4 + kind.len());
            let mut body = String::new();
            for (k, part) in text.split('\n').enumerate() {
                if k > 0 {
                    body.push('\n');
                    body.push_str(&indent);
                }
                body.push_str(part);
            }
            out.push_str(&format!("{pad} = {kind}: {body}\n"));
        }
        out
    }
}

/// Renders several diagnostics, separated by blank lines, followed by a
/// summary line when there are any (`error: could not compile `x.mg` due to 2
/// previous errors`).
pub fn render_all(diags: &[Diagnostic], file_name: &str, source: &str) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&d.render(file_name, source));
        out.push('\n');
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    let plural = |n: usize, what: &str| plural(n as u64, what);
    if errors > 0 {
        let previous = plural(errors, "previous error");
        let also = if warnings > 0 {
            format!("; {} emitted", plural(warnings, "warning"))
        } else {
            String::new()
        };
        out.push_str(&format!(
            "error: could not compile `{file_name}` due to {previous}{also}\n"
        ));
    } else if warnings > 0 {
        out.push_str(&format!(
            "warning: `{file_name}` generated {}\n",
            plural(warnings, "warning")
        ));
    }
    out
}

/// One marked span, reduced to its first line.
struct Mark<'a> {
    line: usize,
    /// Character columns, 0-based, on `line`.
    col_start: usize,
    col_end: usize,
    ch: char,
    text: &'a str,
}

impl<'a> Mark<'a> {
    fn new(source: &str, span: Span, ch: char, text: &'a str) -> Mark<'a> {
        let start = floor_boundary(source, span.start);
        let end = floor_boundary(source, span.end.max(start));
        let (line, col) = line_col(source, start);
        // A span running over several lines is marked to the end of its first.
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        let end = end.min(line_end);
        let len = source[start..end].trim_end_matches('\r').chars().count();
        Mark {
            line,
            col_start: col - 1,
            col_end: col - 1 + len,
            ch,
            text,
        }
    }
}

/// 1-based line and character column of byte `pos` (clamped to the source).
pub(crate) fn line_col(source: &str, pos: usize) -> (usize, usize) {
    let pos = floor_boundary(source, pos);
    let before = &source[..pos];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = source[line_start..pos].chars().count() + 1;
    (line, col)
}

/// The largest character boundary at or before `pos`, within the source.
fn floor_boundary(source: &str, pos: usize) -> usize {
    let mut pos = pos.min(source.len());
    while !source.is_char_boundary(pos) {
        pos -= 1;
    }
    pos
}

/// Display columns taken by the first `chars` characters of a line, with
/// tabs shown as four spaces.
fn display_width(line: &str, chars: usize) -> usize {
    let shown: usize = line
        .chars()
        .take(chars)
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum();
    // Columns past the end of the line (a span at the end of the file).
    shown + chars.saturating_sub(line.chars().count())
}

fn source_line(width: usize, n: usize, text: &str) -> String {
    let text = text.replace('\t', "    ");
    if text.is_empty() {
        format!("{n:>width$} |\n")
    } else {
        format!("{n:>width$} | {text}\n")
    }
}

/// Where a pest error points in `source`: its position, or its span's start,
/// on a character boundary (the rules language and the record format share
/// it).
pub fn pest_offset<R: pest::RuleType>(source: &str, err: &pest::error::Error<R>) -> usize {
    let pos = match err.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let mut pos = pos.min(source.len());
    while !source.is_char_boundary(pos) {
        pos -= 1;
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_not_bytes() {
        let src = "// — ×\nab — cd\n";
        let pos = src.find("cd").unwrap();
        assert_eq!(line_col(src, pos), (2, 6));
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, src.len()), (3, 1));
        // Inside a multi-byte character: the character's own column.
        assert_eq!(line_col(src, 4), (1, 4));
        assert_eq!(line_col(src, 10_000), (3, 1));
    }

    #[test]
    fn render_shows_carets_labels_and_notes() {
        let src = "a\nplayer x\nb\nc\nd\nplayer x\n";
        let first = src.find("x").unwrap();
        let second = src.rfind("x").unwrap();
        let d = Diagnostic::error(Span::new(second, second + 1), "duplicate `x`")
            .with_label(Span::new(first, first + 1), "first defined here")
            .with_note("names are unique")
            .with_help("rename one");
        let text = d.render("t.mg", src);
        assert_eq!(
            text,
            "t.mg:6:8: error: duplicate `x`\n  |\n2 | player x\n  |        - first defined here\n...\n6 | player x\n  |        ^\n  |\n  = note: names are unique\n  = help: rename one\n"
        );
    }

    #[test]
    fn help_is_its_own_field_and_renders_after_the_notes() {
        let src = "player x\n";
        let d = Diagnostic::error(Span::new(7, 8), "unknown `x`")
            .with_help("did you mean `y`?\nor `z`")
            .with_note("names are unique");
        assert_eq!(d.notes, ["names are unique"]);
        assert_eq!(d.help.as_deref(), Some("did you mean `y`?\nor `z`"));
        assert_eq!(
            d.render("t.mg", src),
            "t.mg:1:8: error: unknown `x`\n  |\n1 | player x\n  |        ^\n  |\n  = note: names are unique\n  = help: did you mean `y`?\n         or `z`\n"
        );
        // A help alone still gets the separating line.
        let alone = Diagnostic::error(Span::new(7, 8), "unknown `x`").with_help("try `y`");
        assert!(
            alone
                .render("t.mg", src)
                .ends_with("^\n  |\n  = help: try `y`\n")
        );
        // A note that merely starts with "help: " stays a note.
        let note = Diagnostic::error(Span::new(7, 8), "e").with_note("help: not a help");
        assert!(note.help.is_none());
        assert!(
            note.render("t.mg", src)
                .ends_with("= note: help: not a help\n")
        );
    }

    #[test]
    fn render_survives_silly_spans() {
        let src = "é\tx\r\n";
        for (s, e) in [(0, 0), (1, 1), (1, 100), (50, 2), (usize::MAX, usize::MAX)] {
            let d = Diagnostic::warning(Span::new(s, e), "w").with_label(Span::new(e, s), "l");
            let _ = d.render("f", src);
            let _ = d.line_col(src);
        }
        let _ = Diagnostic::error(Span::new(3, 9), "e").render("f", "");
    }
}
