//! Reading the record format: the pest grammar (`grammar.pest`) cuts the
//! text into tags, the rules block and movetext tokens; the builder here
//! assembles the tree of variations and says what is wrong where.
//!
//! What this stage yields needs no variant: the moves stay text, the result
//! stays scores. [`super::check`] resolves the variant and replays.

use murus_dsl::diagnostic::{Diagnostic, Span};
use pest::Parser as _;
use pest::error::{Error as PestError, ErrorVariant};
use pest::iterators::Pair;

use super::{Glyph, Record, RecordMove, TYPOGRAPHIC_DASHES};

#[derive(pest_derive::Parser)]
#[grammar = "record/grammar.pest"]
struct RecordParser;

/// The tag that names the rules' SHA-256: read first among the tags and
/// written just after `Variant`.
pub(crate) const RULES_TAG: &str = "Rules";

/// One player's part of a result: `1`, `0`, or a share of a draw `1/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Score {
    Win,
    Loss,
    Draw(u8),
}

/// Where each move of a line was read, mirroring the line's moves.
#[derive(Clone, Debug, Default)]
pub(crate) struct MoveSpan {
    pub span: Span,
    pub variations: Vec<Vec<MoveSpan>>,
}

/// A record as read, before its variant is known: the record (without its
/// result), the result's scores, and where everything was.
#[derive(Clone, Debug, Default)]
pub(crate) struct Syntax {
    pub record: Record,
    /// The value of the `Variant` tag.
    pub variant_span: Option<Span>,
    /// The value of the `Rules` tag.
    pub rules_tag_span: Option<Span>,
    /// The value of the `Start` tag.
    pub start_span: Option<Span>,
    /// For each line of the embedded rules, where its text begins in the record.
    pub rules_lines: Vec<usize>,
    /// The `%rules` line.
    pub rules_span: Option<Span>,
    pub moves: Vec<MoveSpan>,
    /// The result's scores (`None` for `*` or no result) and where it was
    /// written (the movetext's token, else the `Result` tag).
    pub scores: Option<Vec<Score>>,
    pub result_span: Option<Span>,
    /// The `Termination` tag: the reason, and `by` after ` by `.
    pub termination: Option<(String, Option<String>)>,
}

/// Reads the text of a record.
pub(crate) fn parse(source: &str) -> Result<Syntax, Vec<Diagnostic>> {
    let mut pairs =
        RecordParser::parse(Rule::record, source).map_err(|e| vec![syntax_error(source, e)])?;
    let top = pairs.next().expect("the `record` rule produced one pair");
    let mut b = Builder::default();
    for pair in top.into_inner() {
        match pair.as_rule() {
            Rule::tag => b.tag(pair)?,
            Rule::rules_block => b.rules_block(pair),
            Rule::EOI => {}
            _ => b.token(pair)?,
        }
    }
    b.finish(source)
}

/// A line being read: its moves, where they were, and where it opened.
#[derive(Debug, Default)]
struct Line {
    moves: Vec<RecordMove>,
    spans: Vec<MoveSpan>,
    open: Span,
}

#[derive(Debug, Default)]
struct Builder {
    out: Syntax,
    result_tag: Option<(Option<Vec<Score>>, Span)>,
    result_token: Option<(Option<Vec<Score>>, Span)>,
    seen: Vec<(String, Span)>,
    /// The main line at the bottom, open variations above it.
    stack: Vec<Line>,
}

impl Builder {
    fn tag(&mut self, pair: Pair<'_, Rule>) -> Result<(), Vec<Diagnostic>> {
        let mut inner = pair.into_inner();
        let name_pair = inner.next().expect("a tag has a name");
        let value_pair = inner.next().expect("a tag has a value");
        let name = name_pair.as_str().to_string();
        let name_span = Span::from(name_pair.as_span());
        let span = Span::from(value_pair.as_span());
        let value = unescape_tag(value_pair.into_inner().as_str());
        if let Some((_, first)) = self.seen.iter().find(|(n, _)| *n == name) {
            return Err(vec![
                Diagnostic::error(name_span, format!("a second `{name}` tag"))
                    .with_label(*first, "first given here"),
            ]);
        }
        self.seen.push((name.clone(), name_span));
        let out = &mut self.out;
        match name.as_str() {
            "Variant" => {
                out.record.variant = value;
                out.variant_span = Some(span);
            }
            "Start" => {
                out.record.start = Some(value);
                out.start_span = Some(span);
            }
            "Result" => {
                let scores = parse_result(&value).ok_or_else(|| {
                    vec![
                        Diagnostic::error(span, format!("`{value}` is not a result"))
                            .with_note(RESULT_FORMS),
                    ]
                })?;
                self.result_tag = Some((scores, span));
            }
            "Termination" => {
                let (reason, by) = match value.split_once(" by ") {
                    Some((r, b)) => (r.to_string(), Some(b.to_string())),
                    None => (value, None),
                };
                out.termination = Some((reason, by));
            }
            // First among the tags, where the writer puts it.
            RULES_TAG => {
                out.rules_tag_span = Some(span);
                out.record.tags.insert(0, (name, value));
            }
            _ => out.record.tags.push((name, value)),
        }
        Ok(())
    }

    fn rules_block(&mut self, pair: Pair<'_, Rule>) {
        let span = pair.as_span();
        self.out.rules_span = Some(Span::new(span.start(), span.start() + "%rules".len()));
        let mut text = String::new();
        for line in pair.into_inner() {
            // `%` then ` TEXT`, or a lone `%` for an empty line.
            let start = line.as_span().start();
            match line.into_inner().next() {
                Some(t) => {
                    self.out.rules_lines.push(t.as_span().start());
                    text.push_str(t.as_str());
                }
                None => self.out.rules_lines.push(start + 1),
            }
            text.push('\n');
        }
        self.out.record.rules = Some(text);
    }

    fn line(&mut self) -> &mut Line {
        if self.stack.is_empty() {
            self.stack.push(Line::default());
        }
        self.stack.last_mut().expect("a line is open")
    }

    fn token(&mut self, pair: Pair<'_, Rule>) -> Result<(), Vec<Diagnostic>> {
        let span = Span::from(pair.as_span());
        let text = pair.as_str();
        if let Some((_, at)) = &self.result_token {
            return Err(vec![
                Diagnostic::error(span, format!("`{text}` after the result"))
                    .with_label(*at, "the result ends the movetext"),
            ]);
        }
        match pair.as_rule() {
            Rule::move_number => {}
            Rule::san => {
                let line = self.line();
                line.moves.push(RecordMove::new(text));
                line.spans.push(MoveSpan {
                    span,
                    variations: Vec::new(),
                });
            }
            Rule::glyph | Rule::nag => {
                let glyph = match pair.as_rule() {
                    Rule::glyph => Glyph::parse(text),
                    _ => text[1..].parse().ok().and_then(Glyph::from_nag),
                };
                let Some(glyph) = glyph else {
                    return Err(vec![
                        Diagnostic::error(span, format!("`{text}` is not a glyph a record keeps"))
                            .with_note(
                                "the glyphs are `!` `?` `!!` `??` `!?` `?!`, or `$1` to `$6`",
                            ),
                    ]);
                };
                let in_variation = self.stack.len() > 1;
                let Some(last) = self.line().moves.last_mut() else {
                    let place = if in_variation {
                        "at the start of a variation"
                    } else {
                        "before the first move"
                    };
                    return Err(vec![
                        Diagnostic::error(span, format!("the glyph `{text}` is on nothing"))
                            .with_note(format!(
                                "a glyph follows the move it judges; this one is {place}"
                            )),
                    ]);
                };
                if let Some(first) = last.glyph {
                    return Err(vec![
                        Diagnostic::error(span, format!("a second glyph on `{}`", last.text))
                            .with_note(format!("a move has one glyph; it has `{first}` already")),
                    ]);
                }
                last.glyph = Some(glyph);
            }
            Rule::comment => {
                let body = unescape_comment(pair.into_inner().as_str());
                let body = body.trim();
                if body.is_empty() {
                    return Ok(());
                }
                let in_variation = self.stack.len() > 1;
                let target = match self.line().moves.last_mut() {
                    Some(m) => &mut m.comment,
                    None if !in_variation => &mut self.out.record.comment,
                    None => {
                        return Err(vec![
                            Diagnostic::error(span, "a comment at the start of a variation")
                                .with_note("a comment follows the move it is about")
                                .with_help("put it after the variation's first move"),
                        ]);
                    }
                };
                match target {
                    Some(c) => {
                        c.push('\n');
                        c.push_str(body);
                    }
                    None => *target = Some(body.to_string()),
                }
            }
            Rule::unclosed_comment => {
                return Err(vec![
                    Diagnostic::error(Span::new(span.start, span.start + 1), "unclosed comment")
                        .with_note("a comment runs from `{` to the next `}`; write `\\}` for a `}` inside one"),
                ]);
            }
            Rule::open_variation => {
                if self.line().moves.is_empty() {
                    return Err(vec![
                        Diagnostic::error(span, "a variation with no move to stand for")
                            .with_note("a variation `( … )` follows the move it replaces"),
                    ]);
                }
                self.stack.push(Line {
                    open: span,
                    ..Line::default()
                });
            }
            Rule::close_variation => {
                if self.stack.len() < 2 {
                    return Err(vec![Diagnostic::error(span, "a `)` with no `(` before it")]);
                }
                let done = self.stack.pop().expect("a variation is open");
                if done.moves.is_empty() {
                    return Err(vec![
                        Diagnostic::error(done.open.to(span), "an empty variation")
                            .with_note("a variation holds at least one move"),
                    ]);
                }
                let parent = self.line();
                let m = parent.moves.last_mut().expect("a variation follows a move");
                m.variations.push(done.moves);
                let s = parent.spans.last_mut().expect("spans follow moves");
                s.variations.push(done.spans);
            }
            Rule::result => {
                if let Some(open) = self.stack.last().filter(|_| self.stack.len() > 1) {
                    return Err(vec![
                        Diagnostic::error(open.open, "unclosed variation")
                            .with_label(span, "the result comes before its `)`")
                            .with_note(
                                "the result ends the main line, after every variation is closed",
                            ),
                    ]);
                }
                let scores = parse_result(text).expect("the grammar reads only results");
                self.result_token = Some((scores, span));
            }
            _ => return Err(vec![junk_error(span, text)]),
        }
        Ok(())
    }

    fn finish(mut self, source: &str) -> Result<Syntax, Vec<Diagnostic>> {
        if self.stack.len() > 1 {
            let open = self.stack[1].open;
            return Err(vec![
                Diagnostic::error(open, "unclosed variation").with_note(
                    "a variation runs from `(` to its `)`; this one is still open at the end",
                ),
            ]);
        }
        let main = self.stack.pop().unwrap_or_default();
        self.out.record.moves = main.moves;
        self.out.moves = main.spans;
        let end = Span::point(source.trim_end().len());
        match (self.result_tag, self.result_token) {
            (Some((tag, tag_span)), Some((token, token_span))) => {
                if tag != token {
                    return Err(vec![
                        Diagnostic::error(token_span, "the result differs from the `Result` tag")
                            .with_label(tag_span, "the tag says this"),
                    ]);
                }
                self.out.scores = token;
                self.out.result_span = Some(token_span);
            }
            (Some((s, span)), None) | (None, Some((s, span))) => {
                self.out.scores = s;
                self.out.result_span = Some(span);
            }
            (None, None) => self.out.result_span = Some(end),
        }
        Ok(self.out)
    }
}

/// The result forms, for notes.
pub(crate) const RESULT_FORMS: &str = "a result is `1-0`, `0-1`, `1/2-1/2`, one score per player in turn order for more players (`0-1-0`, `1/3-1/3-1/3`), or `*`";

/// Reads a result: `None` inside for `*`, `None` outside when it is not one.
/// Typographic dashes (`1–0`) read as `-`.
pub(crate) fn parse_result(text: &str) -> Option<Option<Vec<Score>>> {
    if text == "*" {
        return Some(None);
    }
    let scores: Option<Vec<Score>> = text
        .split(|c| c == '-' || TYPOGRAPHIC_DASHES.contains(&c))
        .map(|s| match s {
            "1" => Some(Score::Win),
            "0" => Some(Score::Loss),
            _ => s
                .strip_prefix("1/")
                .and_then(|n| n.parse().ok())
                .filter(|&n| n >= 2)
                .map(Score::Draw),
        })
        .collect();
    scores.filter(|s| s.len() >= 2).map(Some)
}

/// What a token that is no part of the format is, in words.
fn junk_error(span: Span, text: &str) -> Diagnostic {
    let d = Diagnostic::error(span, format!("`{text}` is not a move"));
    if text.starts_with('[') {
        d.with_note("tag pairs come before the moves")
    } else if text.starts_with('}') {
        d.with_note("a `}` with no `{` before it")
    } else {
        d.with_note("a move is written `a1-c3` (sow), `b4xc5` (sacrifice), `d4*f6` (throw), `d1:b2,g2` (split) or `swap`")
    }
}

fn unescape_tag(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(e) => out.push(e),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn unescape_comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(e @ ('\\' | '}')) => out.push(e),
                Some(e) => {
                    out.push('\\');
                    out.push(e);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A tag value as written: `\\`, `\"` and `\n` escaped.
pub(crate) fn escape_tag(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// A comment's body as written: `\\` and `\}` escaped.
pub(crate) fn escape_comment(text: &str) -> String {
    text.replace('\\', "\\\\").replace('}', "\\}")
}

/// A pest error as a diagnostic in words.
fn syntax_error(source: &str, err: PestError<Rule>) -> Diagnostic {
    let pos = murus_dsl::diagnostic::pest_offset(source, &err);
    let rest = &source[pos..];
    // An open tag string runs to the end of its line.
    if let ErrorVariant::ParsingError { positives, .. } = &err.variant {
        if positives.contains(&Rule::tag_text) || rest.starts_with('"') {
            let line = source[..pos].rfind('\n').map_or(0, |i| i + 1);
            let quote = source[line..pos].rfind('"').map(|i| line + i);
            if let Some(q) = quote {
                return Diagnostic::error(Span::new(q, q + 1), "unclosed tag value").with_note(
                    "a tag's value ends with `\"` on its line; write `\\\"` for a quote inside it",
                );
            }
        }
    }
    let expected = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let names: Vec<&str> = positives.iter().map(rule_name).collect();
            if names.is_empty() {
                "unexpected text".to_string()
            } else {
                format!("expected {}", names.join(" or "))
            }
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    let found = rest.chars().next();
    match found {
        None => Diagnostic::error(
            Span::point(source.trim_end().len()),
            format!("{expected}, found the end"),
        ),
        Some(c) => Diagnostic::error(
            Span::new(pos, pos + c.len_utf8()),
            format!("{expected}, found `{c}`"),
        ),
    }
}

/// The human name of a grammar rule.
fn rule_name(rule: &Rule) -> &'static str {
    match rule {
        Rule::tag => "a tag `[Name \"value\"]`",
        Rule::tag_name => "a tag name",
        Rule::tag_value => "a tag value in quotes",
        Rule::tag_text => "the tag value",
        Rule::rules_block | Rule::rules_line | Rule::rules_text => {
            "an embedded rules line `% …` or `%end`"
        }
        Rule::EOI => "the end",
        _ => "a move, comment or variation",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_in_every_form() {
        assert_eq!(parse_result("*"), Some(None));
        assert_eq!(
            parse_result("1-0"),
            Some(Some(vec![Score::Win, Score::Loss]))
        );
        assert_eq!(
            parse_result("1/3-1/3-1/3"),
            Some(Some(vec![Score::Draw(3); 3]))
        );
        assert_eq!(
            parse_result("0\u{2013}1"),
            Some(Some(vec![Score::Loss, Score::Win]))
        );
        assert_eq!(parse_result("2-0"), None);
        assert_eq!(parse_result("1"), None);
    }

    #[test]
    fn escapes_read_back() {
        for text in ["a } b", "back \\ slash \\}", "two\nlines"] {
            assert_eq!(unescape_comment(&escape_comment(text)), text);
        }
        for text in ["say \"hi\"", "a \\ b", "x\ny"] {
            assert_eq!(unescape_tag(&escape_tag(text)), text);
        }
    }
}
