//! Checking a record read from text against its variant: which variant
//! (the embedded rules, the one the caller names, or a shipped one), the
//! `Rules` hash, the result's scores, and every move of the main line and
//! of every variation, each from the position before the move it replaces.

use murus_dsl::diagnostic::{Diagnostic, Span};
use murus_dsl::key::text_sha256_hex;

use super::syntax::{self, MoveSpan, RESULT_FORMS, Score, Syntax};
use super::{Record, RecordMove, notation_text};
use crate::game::{Game, RecordResult};
use crate::moves::Move;
use crate::notation::MoveError;
use crate::variant::{BUILTIN, Variant};

/// The word a record's `Termination` tag and result use for a resignation.
pub const RESIGNATION: &str = "resignation";

/// The word a record's `Termination` tag and result use for a game lost on
/// time (a clock's flag fell: the playtest server's live games).
pub const TIME: &str = "time";

/// Reads a record from its text and checks it against its variant: the
/// rules embedded in it, else `fallback` (a variant the caller loaded,
/// which must bear the record's name), else the shipped variant of that
/// name. Every problem is a diagnostic pointing into `source`.
pub fn read(
    source: &str,
    fallback: Option<&Variant>,
) -> Result<(Record, Variant), Vec<Diagnostic>> {
    let mut syn = syntax::parse(source)?;
    let variant = resolve(&syn, source, fallback)?;
    if syn.record.variant.is_empty() {
        syn.record.variant = variant.name().to_string();
    }
    syn.record.result = result(&syn, &variant)?;
    let diags = replay_all(&mut syn, &variant);
    if diags.is_empty() {
        Ok((syn.record, variant))
    } else {
        Err(diags)
    }
}

/// The variant a record is played under.
fn resolve(
    syn: &Syntax,
    source: &str,
    fallback: Option<&Variant>,
) -> Result<Variant, Vec<Diagnostic>> {
    let name = &syn.record.variant;
    let name_span = syn.variant_span.unwrap_or(Span::point(0));
    let variant = if let Some(rules) = &syn.record.rules {
        let v = Variant::compile(rules).map_err(|diags| embedded_errors(syn, source, diags))?;
        if !name.is_empty() && v.name() != name {
            return Err(vec![
                Diagnostic::error(
                    name_span,
                    format!(
                        "the record names variant `{name}`, its rules `{}`",
                        v.name()
                    ),
                )
                .with_label(
                    syn.rules_span.unwrap_or_default(),
                    "the rules embedded here",
                ),
            ]);
        }
        v
    } else if let Some(v) = fallback.filter(|v| name.is_empty() || v.name() == name) {
        v.clone()
    } else if let Some(v) = fallback {
        return Err(vec![Diagnostic::error(
            name_span,
            format!("the record is for variant `{name}`, not `{}`", v.name()),
        )]);
    } else if name.is_empty() {
        return Err(vec![
            Diagnostic::error(Span::point(0), "the record names no variant")
                .with_help("begin it with a tag such as `[Variant \"standard\"]`"),
        ]);
    } else {
        match BUILTIN.iter().find(|(n, _)| n == name) {
            Some((_, src)) => Variant::compile(src).map_err(|_| {
                vec![Diagnostic::error(
                    name_span,
                    format!("the shipped variant `{name}` does not compile"),
                )]
            })?,
            None => {
                let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
                return Err(vec![
                    Diagnostic::error(name_span, format!("unknown variant `{name}`"))
                        .with_note(format!("the shipped variants are {}", names.join(", ")))
                        .with_note(
                            "a record of any other variant embeds its rules between `%rules` and `%end`",
                        ),
                ]);
            }
        }
    };
    if let Some(span) = syn.rules_tag_span {
        let said = syn.record.tag("Rules").unwrap_or_default();
        let actual = format!("sha256:{}", text_sha256_hex(variant.source()));
        if said != actual {
            return Err(vec![
                Diagnostic::error(span, "the rules' hash does not match")
                    .with_note(format!(
                        "the record was written under rules hashing to `{said}`; the rules of `{}` here hash to `{actual}`",
                        variant.name()
                    ))
                    .with_note("the rules have changed since, or the record was edited"),
            ]);
        }
    }
    Ok(variant)
}

/// The embedded rules' diagnostics, moved to where their lines are in the
/// record.
fn embedded_errors(syn: &Syntax, source: &str, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let rules = syn.record.rules.as_deref().unwrap_or_default();
    let at = |offset: usize| -> usize {
        // The line of `offset` in the rules, and how far into it.
        let line = rules[..offset.min(rules.len())].matches('\n').count();
        let line_start = rules[..offset.min(rules.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        match syn.rules_lines.get(line) {
            Some(&start) => (start + offset - line_start).min(source.len()),
            None => syn.rules_span.map_or(0, |s| s.start),
        }
    };
    let moved = |s: Span| Span::new(at(s.start), at(s.end.max(s.start)));
    diags
        .into_iter()
        .map(|mut d| {
            d.span = moved(d.span);
            for l in &mut d.labels {
                l.span = moved(l.span);
            }
            d.notes
                .push("in the rules embedded in this record".to_string());
            d
        })
        .collect()
}

/// The result, from the scores and the `Termination` tag.
fn result(syn: &Syntax, v: &Variant) -> Result<Option<RecordResult>, Vec<Diagnostic>> {
    let Some(scores) = &syn.scores else {
        return Ok(None);
    };
    let span = syn.result_span.unwrap_or_default();
    let n = v.player_count();
    if scores.len() != n {
        return Err(vec![
            Diagnostic::error(
                span,
                format!(
                    "the result has {} scores; `{}` has {n} players",
                    scores.len(),
                    v.name()
                ),
            )
            .with_note(RESULT_FORMS),
        ]);
    }
    let wins: Vec<usize> = (0..n).filter(|&i| scores[i] == Score::Win).collect();
    let winner = if scores.iter().all(|s| matches!(s, Score::Draw(_))) {
        None
    } else if wins.len() == 1
        && scores
            .iter()
            .all(|s| *s != Score::Win || s == &scores[wins[0]])
    {
        if scores.iter().any(|s| matches!(s, Score::Draw(_))) {
            return Err(vec![
                Diagnostic::error(span, "a result with both a win and a draw")
                    .with_note(RESULT_FORMS),
            ]);
        }
        Some(wins[0])
    } else {
        return Err(vec![
            Diagnostic::error(span, "a result needs one winner, or a draw for all")
                .with_note(RESULT_FORMS),
        ]);
    };
    let (reason, by) = syn.termination.clone().unwrap_or_default();
    Ok(Some(RecordResult {
        winner: winner.map(|w| v.letter(w)),
        reason,
        by,
        winner_seat: winner.map(|w| seat(&syn.record.moves, w)),
    }))
}

/// The seat of colour `player` at the end of `moves`: each pie-rule `swap`
/// exchanges the first two (as [`Game::seat_of`]).
pub(crate) fn seat(moves: &[RecordMove], player: usize) -> usize {
    let swaps = moves
        .iter()
        .filter(|m| m.text.eq_ignore_ascii_case("swap"))
        .count();
    if swaps % 2 == 1 && player < 2 {
        1 - player
    } else {
        player
    }
}

/// Replays the main line and every variation; one diagnostic a line that
/// goes wrong, at its first bad move. The moves played are left as the
/// notation writes them (`H1–H3` read is `h1-h3`).
fn replay_all(syn: &mut Syntax, v: &Variant) -> Vec<Diagnostic> {
    let start = match &syn.record.start {
        None => v.start(),
        Some(s) => match v.parse_position(s) {
            Ok(p) => p,
            Err(e) => {
                let span = syn.start_span.unwrap_or_default();
                // The value's column, counted after its opening quote.
                let span = match e.column() {
                    Some(c) => {
                        let text = &s[..];
                        let byte = text
                            .char_indices()
                            .nth(c.saturating_sub(1))
                            .map_or(text.len(), |(i, _)| i);
                        Span::new(span.start + 1 + byte, span.start + 2 + byte)
                    }
                    None => span,
                };
                return vec![Diagnostic::error(span, e.to_string())];
            }
        },
    };
    let mut game = Game::from_position(v, start);
    let mut diags = Vec::new();
    walk(&mut game, &mut syn.record.moves, &syn.moves, &mut diags);
    if diags.is_empty() {
        diags.extend(contradiction(syn, &game));
    }
    diags
}

/// A result that says other than how the main line ends by the rules.
fn contradiction(syn: &Syntax, game: &Game) -> Option<Diagnostic> {
    let ended = game.outcome()?;
    let said = syn.record.result.as_ref()?;
    let v = game.variant();
    let winner = ended.winner.map(|w| v.letter(w));
    (said.winner != winner).then(|| {
        Diagnostic::error(
            syn.result_span.unwrap_or_default(),
            "the result is not how the game ended",
        )
        .with_note(format!(
            "the main line ends the game: {}",
            v.describe_outcome_at(ended, game.position())
        ))
    })
}

fn walk(
    game: &mut Game,
    moves: &mut [RecordMove],
    spans: &[MoveSpan],
    diags: &mut Vec<Diagnostic>,
) {
    for (m, s) in moves.iter_mut().zip(spans) {
        for (line, line_spans) in m.variations.iter_mut().zip(&s.variations) {
            let mut g = game.clone();
            walk(&mut g, line, line_spans, diags);
        }
        match play(game, &m.text) {
            Ok(played) => m.text = game.variant().move_to_string(played),
            Err(e) => {
                diags.push(move_error(s.span, game, e));
                return;
            }
        }
    }
}

/// Plays a move written `text`, refusing one after the end of the game.
pub(crate) fn play(game: &mut Game, text: &str) -> Result<Move, MoveError> {
    game.play_str(&notation_text(text))
}

/// A move that cannot be played, as a diagnostic: its reason, and the legal
/// moves or why there are none.
pub(crate) fn move_error(span: Span, game: &Game, e: MoveError) -> Diagnostic {
    match e {
        MoveError::Malformed { text, reason } => {
            Diagnostic::error(span, format!("`{text}` is not a move")).with_note(reason)
        }
        MoveError::Illegal { text, legal } => {
            let d = Diagnostic::error(span, format!("`{text}` is not legal here"));
            match game.outcome() {
                Some(o) => d.with_note(format!(
                    "the game is over: {}",
                    game.variant().describe_outcome_at(o, game.position())
                )),
                None => d.with_note(format!("legal moves: {}", legal.join(" "))),
            }
        }
    }
}
