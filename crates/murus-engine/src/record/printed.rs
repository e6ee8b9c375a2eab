//! Games as printed in magazines and books (`murus record import --from
//! text`), read by hand, trying moves for legality as it goes:
//!
//! - move numbers `N.` and `N...` (any number of dots, with or without a
//!   space before the move, a lone `...` or `…` after the number too);
//! - moves as typeset: typographic dashes, `×` and upper-case cells read as
//!   the notation's characters (`H1–H3` is `h1-h3`), and the record keeps
//!   each move as the notation writes it;
//! - commas between moves, glyphs on moves (`a1-a3!?`, or `!?` alone just
//!   after the move);
//! - comments in `( )` or `{ }`: one closed within its paragraph runs to its
//!   closing bracket, whatever it holds; one left open (printed games often
//!   leave one) ends where the next move number in sequence begins with a
//!   legal move, before a resignation or score that ends the text, or at the
//!   end of the paragraph (a blank line), and is an error if it swallows
//!   moves there;
//! - prose between moves is kept as a comment, as written (brackets within
//!   it included): a word is read as a move only after a move number, or as
//!   the rest of a numbered round (the second move of a pair);
//! - `Resign`, `resigns` (`18. Resign.`): the side to move resigns and the
//!   other wins; `1-0`, `0-1`, `1/2-1/2` as in the record format.
//!
//! What cannot be read is an error at its line and column, never a guess:
//! a comment never hides numbered moves silently.

use murus_dsl::diagnostic::{Diagnostic, Span};

use super::check::{RESIGNATION, move_error, seat};
use super::syntax::{RESULT_FORMS, Score, parse_result};
use super::{Glyph, Record, RecordMove, notation_char};
use crate::game::{Game, RecordResult};
use crate::variant::Variant;

/// Reads a game as printed, for `variant`, from its start.
pub fn read_printed(source: &str, variant: &Variant) -> Result<Record, Vec<Diagnostic>> {
    let tokens = tokenize(source);
    let mut r = Reader {
        source,
        tokens: &tokens,
        game: Game::new(variant),
        record: Record {
            variant: variant.name().to_string(),
            ..Record::default()
        },
        prose: None,
        held: None,
        slot: Slot::Free,
        just_moved: false,
        ended: None,
    };
    r.run().map_err(|d| vec![d])?;
    Ok(r.record)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Word,
    Open(char),
    Close(char),
    /// A blank line.
    Paragraph,
}

#[derive(Clone, Copy, Debug)]
struct Tok {
    kind: Kind,
    span: Span,
}

/// Words, brackets and paragraph breaks. A move number glued to its move
/// (`12.a1-a3`) is two words.
fn tokenize(source: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut word_start: Option<usize> = None;
    let mut newlines = 0;
    let push_word = |out: &mut Vec<Tok>, start: usize, end: usize| {
        let w = &source[start..end];
        let digits = w.bytes().take_while(u8::is_ascii_digit).count();
        let dots = w[digits..].bytes().take_while(|&b| b == b'.').count();
        let cut = digits + dots;
        if digits > 0 && dots > 0 && cut < w.len() {
            out.push(Tok {
                kind: Kind::Word,
                span: Span::new(start, start + cut),
            });
            out.push(Tok {
                kind: Kind::Word,
                span: Span::new(start + cut, end),
            });
        } else {
            out.push(Tok {
                kind: Kind::Word,
                span: Span::new(start, end),
            });
        }
    };
    for (i, c) in source.char_indices() {
        let bracket = matches!(c, '(' | ')' | '{' | '}');
        // A byte-order mark counts as a space.
        let space = c.is_whitespace() || c == '\u{feff}';
        if space || bracket {
            if let Some(s) = word_start.take() {
                push_word(&mut out, s, i);
            }
        }
        if c == '\n' {
            newlines += 1;
            if newlines == 2 {
                out.push(Tok {
                    kind: Kind::Paragraph,
                    span: Span::point(i),
                });
            }
            continue;
        }
        if space {
            continue;
        }
        newlines = 0;
        if bracket {
            let kind = match c {
                '(' | '{' => Kind::Open(c),
                _ => Kind::Close(c),
            };
            out.push(Tok {
                kind,
                span: Span::new(i, i + 1),
            });
        } else if word_start.is_none() {
            word_start = Some(i);
        }
    }
    if let Some(s) = word_start {
        push_word(&mut out, s, source.len());
    }
    out
}

/// What the next word may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// Prose, unless a move number in sequence comes.
    Free,
    /// Just after a move number: a move (or a resignation, a result).
    AfterNumber(Span),
    /// After a move whose round is not over: another move, else prose.
    Rest,
}

/// A word read as a move: the move, its glyph, and the move's span.
#[derive(Debug)]
struct Shaped {
    text: String,
    glyph: Option<Glyph>,
    span: Span,
}

struct Reader<'a> {
    source: &'a str,
    tokens: &'a [Tok],
    game: Game,
    record: Record,
    /// Where the prose since the last move begins and ends in the source,
    /// a comment once it ends.
    prose: Option<Span>,
    /// A comment in brackets, closed, that holds the next move in sequence
    /// (its bracket, and that move): said where the game then goes on out
    /// of sequence, in case its `)` was misplaced.
    held: Option<(Span, Span)>,
    slot: Slot,
    /// The last thing read was a move (a glyph or comma may follow).
    just_moved: bool,
    /// Where the game ended by resignation or result.
    ended: Option<Span>,
}

impl<'a> Reader<'a> {
    fn text(&self, t: &Tok) -> &'a str {
        &self.source[t.span.range()]
    }

    fn players(&self) -> usize {
        self.game.variant().player_count().max(1)
    }

    /// The number of the round the next move belongs to.
    fn round(&self) -> u32 {
        let first = self.game.variant().turn(self.game.start());
        ((first + self.game.ply()) / self.players() + 1) as u32
    }

    /// Whether the next move begins a round.
    fn round_begins(&self) -> bool {
        let first = self.game.variant().turn(self.game.start());
        (first + self.game.ply()) % self.players() == 0
    }

    /// The next move's number as printed: `7.`, or `7...` within a round.
    fn next_number(&self) -> String {
        let dots = if self.round_begins() { "." } else { "..." };
        format!("{}{dots}", self.round())
    }

    fn run(&mut self) -> Result<(), Diagnostic> {
        let mut i = 0;
        while i < self.tokens.len() {
            let t = self.tokens[i];
            i += 1;
            match t.kind {
                Kind::Paragraph => {
                    self.end_number_slot(t)?;
                    self.slot = Slot::Free;
                    self.just_moved = false;
                }
                Kind::Open(c) => i = self.bracket(i, t, c)?,
                Kind::Close(_) => {
                    self.just_moved = false;
                    self.add_prose(t.span);
                }
                Kind::Word => self.word(i, t)?,
            }
        }
        if let Slot::AfterNumber(n) = self.slot {
            return Err(self.expected_move(n, None));
        }
        self.flush();
        // A game that ended by the rules has its result without a word.
        if self.record.result.is_none() {
            self.record.result = self.game.record().result;
        }
        Ok(())
    }

    fn end_number_slot(&self, t: Tok) -> Result<(), Diagnostic> {
        match self.slot {
            Slot::AfterNumber(n) => Err(self.expected_move(n, Some(t))),
            _ => Ok(()),
        }
    }

    fn expected_move(&self, number: Span, found: Option<Tok>) -> Diagnostic {
        let n = &self.source[number.range()];
        match found {
            Some(t) if t.kind != Kind::Paragraph => Diagnostic::error(
                t.span,
                format!("expected a move after `{n}`, found `{}`", self.text(&t)),
            ),
            _ => Diagnostic::error(number, format!("`{n}` is followed by no move")),
        }
        .with_note(MOVE_FORMS)
    }

    /// The word after token `i - 1`: a move number in sequence, a move in
    /// its slot, a glyph or comma after a move, or prose.
    fn word(&mut self, next: usize, t: Tok) -> Result<(), Diagnostic> {
        let w = self.text(&t);
        if let Some(n) = move_number(w) {
            let follows_move = self.tokens.get(next).is_some_and(|u| {
                u.kind == Kind::Word && shaped(self.text(u), u.span).is_some()
                    || is_resign(self.text(u))
            });
            if n == self.round() {
                self.end_number_slot(t)?;
                if self.ended.is_some() && follows_move {
                    return Err(self.after_end(t));
                }
                self.flush();
                self.slot = Slot::AfterNumber(t.span);
                self.just_moved = false;
                return Ok(());
            }
            if follows_move {
                if self.ended.is_some() {
                    return Err(self.after_end(t));
                }
                let mut d =
                    Diagnostic::error(t.span, format!("move number `{w}` is out of sequence"))
                        .with_note(format!("the next move is `{}`", self.next_number()));
                if let Some((bracket, resume)) = self.held {
                    d = d
                        .with_label(resume, "the next move is in this comment")
                        .with_label(bracket, "which this bracket opens")
                        .with_help("if the bracket was meant to close before it, close it there");
                }
                return Err(d);
            }
        }
        if self.just_moved {
            if let Some(g) = Glyph::parse(w.trim_end_matches([',', '.', ';'])) {
                let last = self.record.moves.last_mut().expect("a move was read");
                if last.glyph.is_none() {
                    last.glyph = Some(g);
                    return Ok(());
                }
            }
            if w == "," {
                return Ok(());
            }
        }
        if matches!(self.slot, Slot::AfterNumber(_)) && matches!(w, "..." | "…" | "..") {
            return Ok(());
        }
        if matches!(self.slot, Slot::AfterNumber(_) | Slot::Rest) {
            if let Some(s) = shaped(w, t.span) {
                return self.play(s);
            }
            if is_resign(w) {
                return self.resign(t);
            }
            if let Some(scores) = parse_result(&result_word(w)) {
                return self.result(t, scores);
            }
            if let Slot::AfterNumber(n) = self.slot {
                return Err(self.expected_move(n, Some(t)));
            }
        }
        // In prose only a score is a result (a lone `*` may be a footnote).
        if let Some(Some(scores)) = parse_result(&result_word(w)) {
            return self.result(t, Some(scores));
        }
        self.slot = Slot::Free;
        self.just_moved = false;
        self.add_prose(t.span);
        if self.last_word(next - 1) && is_resign(w) && self.ended.is_none() {
            return self.resign(t);
        }
        Ok(())
    }

    fn after_end(&self, t: Tok) -> Diagnostic {
        Diagnostic::error(t.span, "a move after the end of the game")
            .with_label(self.ended.unwrap_or_default(), "the game ended here")
    }

    fn play(&mut self, s: Shaped) -> Result<(), Diagnostic> {
        if let Some(end) = self.ended {
            return Err(
                Diagnostic::error(s.span, "a move after the end of the game")
                    .with_label(end, "the game ended here"),
            );
        }
        self.flush();
        let played = match self.game.play_str(&s.text) {
            Ok(m) => m,
            Err(e) => return Err(move_error(s.span, &self.game, e)),
        };
        self.held = None;
        // As the notation writes it: `H1–H3` is `h1-h3`, `d1:g2,b2` is `d1:b2,g2`.
        let mut m = RecordMove::new(self.game.variant().move_to_string(played));
        m.glyph = s.glyph;
        self.record.moves.push(m);
        self.slot = if self.round_begins() {
            Slot::Free
        } else {
            Slot::Rest
        };
        self.just_moved = true;
        Ok(())
    }

    /// A result written out (`1-0`, `0-1`, `1/2-1/2`, `*`): it must agree
    /// with how the game ended, when it ended by the rules.
    fn result(&mut self, t: Tok, scores: Option<Vec<Score>>) -> Result<(), Diagnostic> {
        if let Some(end) = self.ended {
            return Err(
                Diagnostic::error(t.span, "a second result").with_label(end, "the game ended here")
            );
        }
        self.flush();
        self.slot = Slot::Free;
        self.just_moved = false;
        self.ended = Some(t.span);
        let Some(scores) = scores else {
            return Ok(());
        };
        let v = self.game.variant();
        let n = v.player_count();
        let wins: Vec<usize> = (0..scores.len())
            .filter(|&i| scores[i] == Score::Win)
            .collect();
        let draw = scores.iter().all(|s| matches!(s, Score::Draw(_)));
        let winner = match (scores.len() == n, wins.as_slice(), draw) {
            (true, [w], false) if !scores.iter().any(|s| matches!(s, Score::Draw(_))) => Some(*w),
            (true, [], true) => None,
            _ => {
                return Err(Diagnostic::error(
                    t.span,
                    format!(
                        "`{}` is not a result of a game of {n} players",
                        self.text(&t)
                    ),
                )
                .with_note(RESULT_FORMS));
            }
        };
        let by_rules = self.game.record().result;
        let letter = winner.map(|w| v.letter(w));
        if let Some(r) = by_rules {
            if r.winner != letter {
                let o = self.game.outcome().expect("the game is over");
                return Err(
                    Diagnostic::error(t.span, "the result is not how the game ended").with_note(
                        format!(
                            "the moves end the game: {}",
                            v.describe_outcome_at(o, self.game.position())
                        ),
                    ),
                );
            }
            self.record.result = Some(r);
            return Ok(());
        }
        self.record.result = Some(RecordResult {
            winner: letter,
            reason: String::new(),
            by: None,
            winner_seat: winner.map(|w| seat(&self.record.moves, w)),
        });
        Ok(())
    }

    /// The side to move resigns; the other wins.
    fn resign(&mut self, t: Tok) -> Result<(), Diagnostic> {
        if self.players() != 2 {
            return Err(Diagnostic::error(
                t.span,
                "a resignation in a game of more than two players names no winner",
            )
            .with_help("write the result as scores in turn order, such as `0-1-0`"));
        }
        if let Some(end) = self.ended {
            return Err(Diagnostic::error(t.span, "a resignation after the result")
                .with_label(end, "the game ended here"));
        }
        if let Some(o) = self.game.outcome() {
            let v = self.game.variant();
            return Err(
                Diagnostic::error(t.span, "a resignation after the end of the game").with_note(
                    format!(
                        "the game is over: {}",
                        v.describe_outcome_at(o, self.game.position())
                    ),
                ),
            );
        }
        let v = self.game.variant();
        let winner = 1 - v.turn(self.game.position());
        self.record.result = Some(RecordResult {
            winner: Some(v.letter(winner)),
            reason: RESIGNATION.to_string(),
            by: None,
            winner_seat: Some(seat(&self.record.moves, winner)),
        });
        self.ended = Some(t.span);
        self.slot = Slot::Free;
        self.just_moved = false;
        Ok(())
    }

    /// A comment in brackets opened by `open` (token `i - 1`). One closed
    /// before its paragraph ends runs to its closing bracket, whatever it
    /// holds (`(if 15... g7-g5 16. b3-d5)` is a line the game did not
    /// take); one left open ends where the next move number in sequence
    /// begins with a legal move or a resignation, before a resignation or
    /// score that ends the text, else at the end of the paragraph, and is an
    /// error if it swallows moves there. Within prose the brackets stay in
    /// its text; after a move they only mark the comment. Returns the token
    /// after it.
    fn bracket(&mut self, i: usize, open: Tok, c: char) -> Result<usize, Diagnostic> {
        let (next, body, to) = match self.closing(i, c) {
            Some(k) => {
                let close = self.tokens[k].span;
                if let Some(resume) =
                    (i..k).find_map(|j| Some(self.tokens[j].span.to(self.resume_at(j)?)))
                {
                    self.held = Some((open.span, resume));
                }
                (k + 1, close.start, close.end)
            }
            None => {
                let mut j = i;
                while let Some(t) = self.tokens.get(j) {
                    if t.kind == Kind::Paragraph || self.resume_at(j).is_some() || self.ends_text(j)
                    {
                        break;
                    }
                    j += 1;
                }
                if self.tokens.get(j).is_none_or(|t| t.kind == Kind::Paragraph) {
                    self.check_swallowed(open, i, j)?;
                }
                let to = self
                    .tokens
                    .get(j)
                    .map_or(self.source.len(), |t| t.span.start);
                (j, to, to)
            }
        };
        if self.prose.is_some() {
            self.add_prose(Span::new(open.span.start, to));
            self.just_moved = false;
        } else {
            self.comment(open.span.end, body);
        }
        Ok(next)
    }

    /// The closing bracket of a bracket `c` whose text begins at token `i`,
    /// before the paragraph ends (brackets of its kind nest).
    fn closing(&self, i: usize, c: char) -> Option<usize> {
        let close = if c == '(' { ')' } else { '}' };
        let mut depth = 0;
        for (k, t) in self.tokens.iter().enumerate().skip(i) {
            match t.kind {
                Kind::Open(o) if o == c => depth += 1,
                Kind::Close(k2) if k2 == close => {
                    if depth == 0 {
                        return Some(k);
                    }
                    depth -= 1;
                }
                Kind::Paragraph => return None,
                _ => {}
            }
        }
        None
    }

    /// Where token `i` is the next move number followed by a legal move:
    /// the span of that move.
    fn resume_at(&self, i: usize) -> Option<Span> {
        let t = &self.tokens[i];
        if t.kind != Kind::Word || move_number(self.text(t)) != Some(self.round()) {
            return None;
        }
        let u = self.after_dots(i + 1)?;
        if is_resign(self.text(u)) {
            return self.game.outcome().is_none().then_some(u.span);
        }
        let s = shaped(self.text(u), u.span)?;
        let legal = self.game.outcome().is_none()
            && self
                .game
                .variant()
                .parse_move(self.game.position(), &s.text)
                .is_ok();
        legal.then_some(s.span)
    }

    /// Whether token `j` is the last word of the text.
    fn last_word(&self, j: usize) -> bool {
        self.tokens[j + 1..]
            .iter()
            .all(|u| u.kind == Kind::Paragraph)
    }

    /// Whether token `j` is a resignation or a score that ends the text (a
    /// bracket left open ends before it).
    fn ends_text(&self, j: usize) -> bool {
        let t = &self.tokens[j];
        let w = self.text(t);
        t.kind == Kind::Word
            && self.last_word(j)
            && (is_resign(w) || matches!(parse_result(&result_word(w)), Some(Some(_))))
    }

    /// The word at token `j`, or after the lone `...` or `…` there (`7. ...
    /// d5-f7`).
    fn after_dots(&self, mut j: usize) -> Option<&'a Tok> {
        while self
            .tokens
            .get(j)
            .is_some_and(|u| matches!(self.text(u), "..." | "…" | ".."))
        {
            j += 1;
        }
        self.tokens.get(j).filter(|u| u.kind == Kind::Word)
    }

    /// An unclosed bracket that ran to the end of its paragraph: an error if
    /// it holds a move number followed by a move.
    fn check_swallowed(&self, open: Tok, from: usize, to: usize) -> Result<(), Diagnostic> {
        for k in from..to {
            let t = &self.tokens[k];
            let Some(n) = move_number(self.text(t)) else {
                continue;
            };
            let Some(u) = self.after_dots(k + 1) else {
                continue;
            };
            let Some(s) = shaped(self.text(u), u.span) else {
                continue;
            };
            let mut d = Diagnostic::error(
                open.span,
                format!("this `{}` is never closed, and swallows moves", self.text(&open)),
            )
            .with_label(t.span.to(u.span), "swallowed from here")
            .with_note(
                "a comment in brackets ends at its closing bracket, at a blank line, or where the next move number begins with a legal move",
            );
            if n == self.round() {
                if let Err(e) = self
                    .game
                    .variant()
                    .parse_move(self.game.position(), &s.text)
                {
                    d = d.with_note(format!(
                        "move {n} is `{}`, which is no legal move here: {e}",
                        s.text
                    ));
                }
            } else {
                d = d.with_note(format!(
                    "the next move is `{}`, not `{}`",
                    self.next_number(),
                    self.text(t)
                ));
            }
            return Err(d);
        }
        Ok(())
    }

    /// The text from byte `from` to `to` as a comment on the last move.
    fn comment(&mut self, from: usize, to: usize) {
        self.flush();
        let body = &self.source[from..to.max(from)];
        self.add_comment(normalise(body));
        self.just_moved = false;
    }

    /// Text from `span` on is prose, up to its end.
    fn add_prose(&mut self, span: Span) {
        self.prose = Some(match self.prose {
            Some(p) => Span::new(p.start, span.end.max(p.end)),
            None => span,
        });
    }

    /// The prose since the last move, as a comment, as written (brackets
    /// and all), its spaces and line breaks as single spaces.
    fn flush(&mut self) {
        if let Some(p) = self.prose.take() {
            self.add_comment(normalise(&self.source[p.range()]));
        }
    }

    fn add_comment(&mut self, text: String) {
        if text.is_empty() {
            return;
        }
        let target = match self.record.moves.last_mut() {
            Some(m) => &mut m.comment,
            None => &mut self.record.comment,
        };
        match target {
            Some(c) => {
                c.push(' ');
                c.push_str(&text);
            }
            None => *target = Some(text),
        }
    }
}

/// The forms of a move, for notes.
const MOVE_FORMS: &str = "a move is written `a1-c3` (sow), `b4xc5` (sacrifice), `d4*f6` (throw), `d1:b2,g2` (split) or `swap`";

/// Whitespace runs as single spaces, trimmed.
fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `N.`, `N...`: the number.
fn move_number(w: &str) -> Option<u32> {
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &w[digits..];
    let dotted = !rest.is_empty() && rest.bytes().all(|b| b == b'.') || rest == "…";
    if digits == 0 || !dotted {
        return None;
    }
    w[..digits].parse().ok()
}

/// A word as a result would be written in the record format: `½` as
/// `1/2`, a full stop after it dropped (typographic dashes are read as `-`
/// by [`parse_result`]).
fn result_word(w: &str) -> String {
    w.trim_end_matches('.').replace('½', "1/2")
}

fn is_resign(w: &str) -> bool {
    let w = w
        .trim_end_matches(['.', '!', ',', ';'])
        .to_ascii_lowercase();
    matches!(w.as_str(), "resign" | "resigns" | "resigned")
}

/// A word that has the shape of a move: the move, a glyph, then commas or
/// a full stop. Typographic dashes, `×` and upper-case letters read as the
/// notation's characters (see [`notation_char`]); the move's text is in
/// them. Legality is not checked here.
fn shaped(w: &str, span: Span) -> Option<Shaped> {
    // The word in the notation's characters, and for each of its bytes
    // where the character it comes from ends in `w`.
    let mut n = String::with_capacity(w.len());
    let mut ends = Vec::with_capacity(w.len());
    for (i, c) in w.char_indices() {
        let m = notation_char(c);
        n.push(m);
        ends.extend(std::iter::repeat_n(i + c.len_utf8(), m.len_utf8()));
    }
    let b = n.as_bytes();
    let cell = |at: usize| -> Option<usize> {
        if !b.get(at)?.is_ascii_alphabetic() {
            return None;
        }
        let digits = b[at + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        (digits > 0).then_some(at + 1 + digits)
    };
    let end = if n.starts_with("swap") {
        4
    } else {
        let a = cell(0)?;
        match b.get(a)? {
            b':' => {
                let c1 = cell(a + 1)?;
                (b.get(c1) == Some(&b',')).then_some(())?;
                cell(c1 + 1)?
            }
            b'-' | b'*' => cell(a + 1)?,
            b'x' => {
                let xs = b[a..].iter().take_while(|&&c| c == b'x').count();
                cell(a + xs)?
            }
            _ => return None,
        }
    };
    let rest = &n[end..];
    let marks = rest.bytes().take_while(|&c| c == b'!' || c == b'?').count();
    let glyph = match marks {
        0 => None,
        _ => Some(Glyph::parse(&rest[..marks])?),
    };
    let tail = &rest[marks..];
    if !tail.bytes().all(|c| matches!(c, b',' | b'.' | b';')) {
        return None;
    }
    Some(Shaped {
        text: n[..end].to_string(),
        glyph,
        span: Span::new(span.start, span.start + ends[end - 1]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_as_moves_numbers_and_resignations() {
        let s = |w: &str| shaped(w, Span::new(0, w.len())).map(|s| (s.text, s.glyph));
        assert_eq!(
            s("a1-a3!?,"),
            Some(("a1-a3".into(), Some(Glyph::Interesting)))
        );
        assert_eq!(s("d1:b2,g2."), Some(("d1:b2,g2".into(), None)));
        assert_eq!(s("b4xxc5"), Some(("b4xxc5".into(), None)));
        assert_eq!(s("H1\u{2013}H3,"), Some(("h1-h3".into(), None)));
        assert_eq!(s("B4××C5!"), Some(("b4xxc5".into(), Some(Glyph::Good))));
        assert_eq!(s("SWAP"), Some(("swap".into(), None)));
        assert_eq!(s("swapping"), None);
        // The move's span ends where it ends in the text, dashes of three bytes and all.
        let w = "d7\u{2014}f5!?";
        assert_eq!(
            shaped(w, Span::new(10, 10 + w.len())).unwrap().span,
            Span::new(10, 17)
        );
        assert_eq!(s("a1-a3!!!"), None);
        assert_eq!(s("the"), None);
        assert_eq!(s("a1-"), None);
        assert_eq!(move_number("12."), Some(12));
        assert_eq!(move_number("12...."), Some(12));
        assert_eq!(move_number("12"), None);
        assert!(is_resign("Resign."));
        assert!(is_resign("resigns"));
        assert!(!is_resign("resignation"));
    }

    fn read(text: &str) -> Result<Record, String> {
        let v = Variant::standard();
        read_printed(text, &v).map_err(|d| super::super::render(&d, "t.txt", text))
    }

    fn moves(r: &Record) -> Vec<&str> {
        r.moves.iter().map(|m| m.text.as_str()).collect()
    }

    #[test]
    fn a_bracket_left_open_ends_at_the_paragraph() {
        let r =
            read("1. h1-h3 (an open remark\n\nd7-f5 is prose here. 1... d7-f5 2. f1-d3").unwrap();
        assert_eq!(moves(&r), ["h1-h3", "d7-f5", "f1-d3"]);
        assert_eq!(
            r.moves[0].comment.as_deref(),
            Some("an open remark d7-f5 is prose here."),
            "a word is a move only after a number or within its round"
        );
    }

    #[test]
    fn a_bracket_left_open_ends_before_the_result_that_ends_the_text() {
        let r = read("1. h1-h3 d7-f5 (and the Gauls win on time. 0\u{2013}1").unwrap();
        assert_eq!(r.result.unwrap().winner, Some('g'));
        let r = read("1. h1-h3 d7-f5 (and the Romans resign.").unwrap();
        assert_eq!(r.result.unwrap().winner, Some('g'));
        let r = read("1. h1-h3 d7-f5 (the rest is silence. 2. Resign.").unwrap();
        assert_eq!(r.moves[1].comment.as_deref(), Some("the rest is silence."));
        assert_eq!(r.result.unwrap().winner, Some('g'));
    }

    #[test]
    fn an_ellipsis_apart_and_a_result_in_figures() {
        let r = read("1. h1-h3 {fine} 1. ... d7-f5 2. f1-d3 ½-½").unwrap();
        assert_eq!(moves(&r), ["h1-h3", "d7-f5", "f1-d3"]);
        assert_eq!(r.result.unwrap().winner, None);
        let r = read("1. h1-h3 d7-f5 1-0").unwrap();
        assert_eq!(r.result.unwrap().winner, Some('r'));
    }

    #[test]
    fn what_cannot_be_read_is_an_error_never_a_guess() {
        let cases = [
            (
                "1. h1-h3 d7-f5 3. f1-d3",
                "move number `3.` is out of sequence",
            ),
            ("1. the h1-h3", "expected a move after `1.`, found `the`"),
            ("1. h1-h3 d7-f5 2.", "`2.` is followed by no move"),
            (
                "1. h1-h3 Resigns. 2. f1-d3",
                "a move after the end of the game",
            ),
            (
                "1. h1-h3 d7-f5 1-0-0",
                "is not a result of a game of 2 players",
            ),
            ("1. h1-h3 1-0 0-1", "a second result"),
        ];
        for (text, message) in cases {
            let err = read(text).expect_err(text);
            assert!(err.contains(message), "{text}: {err}");
        }
    }

    #[test]
    fn a_glued_number_is_two_words() {
        let src = "12.a1-a3 (ok)\n\nx";
        let t = tokenize(src);
        let words: Vec<&str> = t.iter().map(|t| &src[t.span.range()]).collect();
        assert_eq!(words, ["12.", "a1-a3", "(", "ok", ")", "", "x"]);
    }
}
