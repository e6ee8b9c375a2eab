//! Parsing: the pest grammar, syntax-error messages and the tree builder.
//!
//! `#[grammar = "grammar.pest"]` makes pest_derive `include_str!` the grammar,
//! so editing it recompiles this module.

use std::sync::OnceLock;

use pest::Parser as _;
use pest::error::{Error as PestError, ErrorVariant};
use pest::iterators::Pair;

use crate::ast::*;
use crate::diagnostic::{Diagnostic, Span};
use crate::keywords::{self, WordKind};
use crate::rules::{Material, Stalemate, Timing};
use crate::suggest::closest;

#[derive(pest_derive::Parser)]
#[grammar = "grammar.pest"]
struct RuleParser;

/// Parses a rule file into its syntax tree, or returns the syntax error.
pub(crate) fn parse(source: &str) -> Result<RuleFile, Diagnostic> {
    let mut pairs = RuleParser::parse(Rule::file, source).map_err(|e| syntax_error(source, e))?;
    let file = pairs.next().expect("the `file` rule produced one pair");
    Ok(build_file(file))
}

// ---------------------------------------------------------------------------
// Human names
// ---------------------------------------------------------------------------

/// The word of a keyword rule. Keyword rules are named `kw_` and their word
/// (`kw_letter` matches `letter`), so [`keywords::WORDS`] gives them all.
fn keyword_text(rule: Rule) -> Option<&'static str> {
    // `stack` is only ever followed by `limit`: "expected `stack limit`".
    if rule == Rule::kw_stack {
        return Some("stack limit");
    }
    static TEXTS: OnceLock<Vec<Option<&'static str>>> = OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        let mut texts = vec![None; Rule::all_rules().len()];
        for &r in Rule::all_rules() {
            let word = format!("{r:?}")
                .strip_prefix("kw_")
                .and_then(keywords::find)
                .map(|w| w.text);
            if let Some(slot) = texts.get_mut(r as usize) {
                *slot = word;
            }
        }
        texts
    });
    texts.get(rule as usize).copied().flatten()
}

/// The human name of every rule, used in "expected …" messages. A test
/// checks that every rule of the grammar has one, so users never see a
/// rule's identifier.
fn rule_name(rule: &Rule) -> String {
    if let Some(kw) = keyword_text(*rule) {
        return format!("`{kw}`");
    }
    human_name(*rule).map_or_else(|| format!("{rule:?}"), str::to_string)
}

/// The human name of a rule that is not a keyword.
fn human_name(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::WHITESPACE => "whitespace",
        Rule::COMMENT => "a comment",
        Rule::ident_char | Rule::boundary => "the end of a word",
        Rule::EOI => "end of file",
        Rule::open_brace => "`{`",
        Rule::close_brace => "`}`",
        Rule::comma => "`,`",
        Rule::colon => "`:`",
        Rule::equals => "`=`",
        Rule::range_dots => "`..`",
        Rule::number | Rule::literal => "a number",
        Rule::param_word | Rule::param_name => "a parameter name (like `files`)",
        Rule::param_stmt => "`param NAME = VALUES`",
        Rule::param_range => "a range of numbers (`7..9`)",
        Rule::param_list => "a list of numbers (`1, 3, 5`)",
        Rule::param_default => "`default N`",
        Rule::string | Rule::string_text => "a string (`\"…\"`)",
        Rule::letter => "a player letter (like `r`)",
        Rule::cellset | Rule::cell_term => "a cell set (`rank 1`, `edge s`, `cells a1 b2`, …)",
        Rule::set_op => "`+` or `-`",
        Rule::union_op => "`+`",
        Rule::difference_op => "`-`",
        Rule::rank_term => "`rank N`",
        Rule::file_term => "`file X`",
        Rule::edge_term => "`edge NAME`",
        Rule::cells_term => "`cells NAME …`",
        Rule::all_cells | Rule::all_dirs => "`all`",
        Rule::file_name => "a file letter (like `a`)",
        Rule::edge_name => "an edge name (like `s`)",
        Rule::cell_name => "a cell name (like `a1`)",
        Rule::dirset => {
            "a set of directions (`all`, `orthogonal`, `diagonal` or a list like `n, ne`)"
        }
        Rule::orthogonal_dirs => "`orthogonal`",
        Rule::diagonal_dirs => "`diagonal`",
        Rule::direction_list | Rule::direction => "a direction (like `n` or `forward`)",
        Rule::step_vector => "a step vector (like `(1, 2)`)",
        Rule::direction_item => "a direction (like `n`, `forward` or `(1, 2)`)",
        Rule::signed => "a whole number (like `2` or `-1`)",
        Rule::file => "a rule file",
        Rule::item => "a top-level statement",
        Rule::variant_stmt => "`variant \"NAME\"`",
        Rule::title_stmt => "`title \"TEXT\"`",
        Rule::introduction_stmt => "`introduction \"PARAGRAPH\" …`",
        Rule::caption_stmt => "`caption FIGURE \"TEXT\"`",
        Rule::figure_name => "a figure's name (like `start` or `throw`)",
        Rule::turns_stmt => "`turns L L … [then L L …]`",
        Rule::stack_limit_stmt => "`stack limit N`",
        Rule::for_clause => "`for L …`",
        Rule::board_stmt => "`board …`",
        Rule::rect_shape => "`rect W x H`",
        Rule::hex_shape => "`hex N`",
        Rule::without_clause => "`without CELLSET`",
        Rule::player_block => "`player \"NAME\" { … }`",
        Rule::player_field => "a player statement (`letter`, `colour`, `home`, `forward`)",
        Rule::letter_field => "`letter L`",
        Rule::colour_field => "`colour \"#rrggbb\"`",
        Rule::home_field => "`home CELLSET`",
        Rule::forward_field => "`forward DIR`",
        Rule::setup_block => "`setup { … }`",
        Rule::setup_line => "a setup line (`r 2 on rank 1`)",
        Rule::sow_block => "`sow { … }`",
        Rule::sow_field => "a sow statement (`heights`, `directions`, `onto`, `on enemy`)",
        Rule::sow_on_enemy_field => "`on enemy: capture` or `on enemy: remove N`",
        Rule::heights_field => "`heights H, …`",
        Rule::sow_onto_field | Rule::catapult_onto_field => "`onto TARGET, …`",
        Rule::sow_target => "`empty`, `own H` or `enemy H`",
        Rule::empty_target => "`empty`",
        Rule::own_target => "`own H`",
        Rule::directions_field => "`directions DIRSET`",
        Rule::sacrifice_block => "`sacrifice { … }`",
        Rule::sacrifice_field => "a sacrifice statement",
        Rule::sacrifice_rule => "a sacrifice rule (`2 against 1: lose 1, remove 1`)",
        Rule::catapult_block => "`catapult { … }`",
        Rule::catapult_field => {
            "a catapult statement (`height`, `directions`, `range`, `onto`, `on empty`, `on enemy`)"
        }
        Rule::on_empty_field => "`on empty: wall` or `on empty: lost`",
        Rule::empty_landing => "`wall` or `lost`",
        Rule::on_enemy_field => "`on enemy: remove N`",
        Rule::height_field => "`height H`",
        Rule::range_field => "`range N, …`",
        Rule::catapult_target => "`empty`, `enemy H` or `enemy any`",
        Rule::enemy_target => "`enemy H`",
        Rule::win_block => "`win { … }`",
        Rule::win_field => {
            "a win statement (`breakthrough`, `stalemate`, `occupy`, `reduced`, `capture`)"
        }
        Rule::occupy_field => "`occupy CELLSET [count K]`",
        Rule::reduced_field => "`reduced to N stones|towers`",
        Rule::capture_field => "`capture N stones`",
        Rule::material => "`stones` or `towers`",
        Rule::breakthrough_field => "`breakthrough …`",
        Rule::timing => "`immediate` or `delayed`",
        Rule::arrival => "`sow` or `throw`",
        Rule::stalemate_field => "`stalemate …`",
        Rule::stalemate_outcome => "`loses` or `draws`",
        Rule::draw_block => "`draw { … }`",
        Rule::draw_field => "a draw statement (`repetition`, `plies`, `adjudicate`)",
        Rule::repetition_field => "`repetition N`",
        Rule::plies_field => "`plies N`",
        Rule::adjudicate_field => "`adjudicate by …`",
        Rule::opening_block => "`opening pie { … }`",
        Rule::pie_line => "a pie line (`r from rank 1 to rank 2`)",
        // Keywords are named by `keyword_text`.
        _ => return None,
    })
}

// ---------------------------------------------------------------------------
// Syntax errors
// ---------------------------------------------------------------------------

/// What stands at the position of a syntax error.
enum Found<'a> {
    EndOfFile,
    Word(&'a str),
    Other(&'a str),
}

fn found_at(source: &str, pos: usize) -> Found<'_> {
    let rest = &source[pos..];
    let Some(first) = rest.chars().next() else {
        return Found::EndOfFile;
    };
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    if first.is_alphanumeric() || first == '_' {
        let end = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
        Found::Word(&rest[..end])
    } else if first == '$' {
        // A parameter reference where none may stand: show its name too.
        let end = rest[1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(rest.len(), |i| i + 1);
        Found::Other(&rest[..end])
    } else if first == '"' {
        // Show the whole string when it ends on this line.
        let line = rest.split('\n').next().unwrap_or(rest);
        match line[1..].find('"') {
            Some(i) => Found::Other(&line[..i + 2]),
            None => Found::Other(&rest[..1]),
        }
    } else {
        Found::Other(&rest[..first.len_utf8()])
    }
}

/// Converts a pest error into a diagnostic that names what was expected in
/// the language's own terms.
fn syntax_error(source: &str, err: PestError<Rule>) -> Diagnostic {
    let pos = crate::diagnostic::pest_offset(source, &err);
    let (positives, negatives) = match &err.variant {
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => {
            // "expected `}` or end of file" reads better than the other way round.
            let mut positives = dedup(positives);
            positives.sort_by_key(|r| *r == Rule::EOI);
            (positives, dedup(negatives))
        }
        ErrorVariant::CustomError { message } => {
            return Diagnostic::error(Span::point(pos), message.clone());
        }
    };
    let mut err = err;
    err.variant = ErrorVariant::ParsingError {
        positives: positives.clone(),
        negatives,
    };
    let expected = err.renamed_rules(rule_name).variant.message().into_owned();

    let found = found_at(source, pos);
    let expects_keyword = positives.iter().any(|r| keyword_text(*r).is_some());

    if matches!(found, Found::Other("\"")) && positives.contains(&Rule::string) {
        return string_error(source, pos, &expected);
    }
    match found {
        Found::EndOfFile => {
            // Point just after the last thing written, not at an empty line.
            let end = source.trim_end().len();
            Diagnostic::error(Span::point(end), format!("{expected}, found end of file"))
        }
        Found::Word(word) => {
            let span = Span::new(pos, pos + word.len());
            let starts_with_letter = word.starts_with(|c: char| c.is_alphabetic());
            let misplaced = keywords::find(word).filter(|w| w.reserved && expects_keyword);
            if let Some(keyword) = misplaced {
                let mut d = Diagnostic::error(span, format!("`{word}` is not allowed here"));
                if let Some(home) = keyword.home() {
                    d = d.with_note(format!("`{word}` {home}"));
                }
                d = d.with_note(expected);
                if keyword.kind == WordKind::Statement && positives.contains(&Rule::close_brace) {
                    d = d.with_help("is a `}` missing before it?");
                }
                d
            } else if starts_with_letter && expects_keyword {
                let mut d = Diagnostic::error(span, format!("unknown keyword `{word}`"))
                    .with_note(expected);
                let candidates = positives.iter().filter_map(|r| keyword_text(*r));
                if let Some(best) = closest(word, candidates) {
                    d = d.with_help(format!("did you mean `{best}`?"));
                }
                d
            } else {
                let mut d = Diagnostic::error(span, format!("{expected}, found `{word}`"));
                // A misspelt value (`towres`, `immedaite`) gets the same
                // help as a misspelt keyword.
                let candidates = positives.iter().flat_map(|r| value_words(*r));
                if let Some(best) = closest(word, candidates.copied()) {
                    d = d.with_help(format!("did you mean `{best}`?"));
                }
                d
            }
        }
        Found::Other(text) => {
            let shown = match text.chars().next() {
                // Invisible characters (a no-break space pasted from a web
                // page) are named by code point.
                Some(c) if c.is_whitespace() || c.is_control() || c == '\u{feff}' => {
                    format!("the invisible character U+{:04X}", u32::from(c))
                }
                _ => format!("`{text}`"),
            };
            Diagnostic::error(
                Span::new(pos, pos + text.len()),
                format!("{expected}, found {shown}"),
            )
        }
    }
}

/// The fixed words a value rule accepts (`timing`: `immediate`, `delayed`).
fn value_words(rule: Rule) -> &'static [&'static str] {
    match rule {
        Rule::timing => &["immediate", "delayed"],
        Rule::arrival => &["sow", "throw"],
        Rule::stalemate_outcome => &["loses", "draws"],
        Rule::empty_landing => &["wall", "lost"],
        Rule::material => &["stones", "towers"],
        _ => &[],
    }
}

/// A string was expected and a `"` is there, so the string itself is wrong.
fn string_error(source: &str, pos: usize, expected: &str) -> Diagnostic {
    let line = source[pos..].split('\n').next().unwrap_or("");
    let line = line.strip_suffix('\r').unwrap_or(line);
    let mut chars = line.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => break,
            '\\' => match chars.next() {
                Some((_, '"' | '\\')) => {}
                Some((j, e)) => {
                    return Diagnostic::error(
                        Span::new(pos + i, pos + j + e.len_utf8()),
                        format!("unknown escape `\\{e}` in a string"),
                    )
                    .with_note("the only escapes are `\\\"` and `\\\\`");
                }
                None => break,
            },
            _ => {}
        }
    }
    if line.len() > 1 && line[1..].contains('"') {
        return Diagnostic::error(Span::new(pos, pos + 1), expected.to_string());
    }
    Diagnostic::error(Span::new(pos, pos + line.len()), "unterminated string")
        .with_note("a string ends with `\"` on the line where it starts")
}

fn dedup(rules: &[Rule]) -> Vec<Rule> {
    let mut out: Vec<Rule> = Vec::with_capacity(rules.len());
    for r in rules {
        if !out.contains(r) {
            out.push(*r);
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Tree builder: one `build_x` per grammar rule that carries meaning
// ---------------------------------------------------------------------------

/// Whether a rule is a keyword or punctuation, which the tree leaves out.
fn is_token(rule: Rule) -> bool {
    keyword_text(rule).is_some()
        || matches!(
            rule,
            Rule::open_brace
                | Rule::close_brace
                | Rule::comma
                | Rule::colon
                | Rule::equals
                | Rule::range_dots
                | Rule::EOI
        )
}

/// The meaningful children of a pair.
fn parts(pair: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    pair.into_inner().filter(|p| !is_token(p.as_rule()))
}

/// The span of a pair, without the whitespace and comments that pest may
/// have skipped at its end (before a repetition that then matched nothing).
fn span(pair: &Pair<'_, Rule>) -> Span {
    Span::new(pair.as_span().start(), content_end(pair))
}

fn content_end(pair: &Pair<'_, Rule>) -> usize {
    // Atomic rules skip nothing; a string ends with its closing quote,
    // after its last inner pair.
    if pair.as_rule() == Rule::string {
        return pair.as_span().end();
    }
    match pair.clone().into_inner().last() {
        Some(last) => content_end(&last),
        None => pair.as_span().end(),
    }
}

/// The span of a block's head: its first keyword through the pair before
/// the opening brace.
fn head_span(pair: &Pair<'_, Rule>) -> Span {
    let mut head: Option<Span> = None;
    for p in pair.clone().into_inner() {
        if p.as_rule() == Rule::open_brace {
            break;
        }
        let s = span(&p);
        head = Some(head.map_or(s, |h| h.to(s)));
    }
    head.unwrap_or_else(|| span(pair))
}

fn next<'i>(it: &mut impl Iterator<Item = Pair<'i, Rule>>, what: &str) -> Pair<'i, Rule> {
    it.next()
        .unwrap_or_else(|| panic!("the grammar guarantees {what}"))
}

fn build_file(pair: Pair<'_, Rule>) -> RuleFile {
    let file_span = span(&pair);
    let items = parts(pair).map(build_item).collect();
    RuleFile {
        items,
        span: file_span,
    }
}

fn build_item(pair: Pair<'_, Rule>) -> Item {
    let s = span(&pair);
    match pair.as_rule() {
        Rule::variant_stmt => {
            let name = build_string(next(&mut parts(pair), "a variant name"));
            Item::Variant(Spanned::new(name, s))
        }
        Rule::title_stmt => {
            let title = build_string(next(&mut parts(pair), "a title"));
            Item::Title(Spanned::new(title, s))
        }
        Rule::introduction_stmt => {
            let paragraphs = parts(pair).map(build_string).collect();
            Item::Introduction(Spanned::new(paragraphs, s))
        }
        Rule::caption_stmt => {
            let mut it = parts(pair);
            let figure = build_name(next(&mut it, "a figure's name"));
            let text = build_string(next(&mut it, "a caption"));
            Item::Caption(Spanned::new(Caption { figure, text }, s))
        }
        Rule::board_stmt => Item::Board(Spanned::new(build_board(pair), s)),
        Rule::player_block => Item::Player(build_player(pair)),
        Rule::turns_stmt => {
            let mut first = Vec::new();
            let mut then: Option<Vec<Name>> = None;
            for p in pair.into_inner() {
                match p.as_rule() {
                    Rule::kw_then => then = Some(Vec::new()),
                    Rule::letter => then.as_mut().unwrap_or(&mut first).push(build_name(p)),
                    _ => {}
                }
            }
            Item::Turns(Spanned::new(Turns { first, then }, s))
        }
        Rule::setup_block => Item::Setup(build_block(pair, build_setup_line)),
        Rule::stack_limit_stmt => {
            let mut it = parts(pair);
            let limit = build_number(next(&mut it, "a stack limit"));
            let players = it.next().map_or_else(Vec::new, build_for);
            Item::StackLimit(Spanned::new(StackLimit { limit, players }, s))
        }
        Rule::sow_block => Item::Sow(build_block(pair, build_sow_field)),
        Rule::sacrifice_block => Item::Sacrifice(build_block(pair, build_sacrifice_field)),
        Rule::catapult_block => Item::Catapult(build_block(pair, build_catapult_field)),
        Rule::win_block => Item::Win(build_block(pair, build_win_field)),
        Rule::draw_block => Item::Draw(build_block(pair, build_draw_field)),
        Rule::opening_block => Item::Opening(build_block(pair, build_pie_line)),
        Rule::param_stmt => Item::Param(Spanned::new(build_param(pair), s)),
        r => unreachable!("not a top-level item: {r:?}"),
    }
}

fn build_block<'i, F>(pair: Pair<'i, Rule>, field: impl Fn(Pair<'i, Rule>) -> F) -> Block<F> {
    let head = head_span(&pair);
    let s = span(&pair);
    let mut players = Vec::new();
    let fields = parts(pair)
        .filter(|p| {
            let is_for = p.as_rule() == Rule::for_clause;
            if is_for {
                players = build_for(p.clone());
            }
            !is_for
        })
        .map(|p| {
            let ps = span(&p);
            Spanned::new(field(p), ps)
        })
        .collect();
    Block {
        head,
        players,
        fields,
        span: s,
    }
}

/// `for L …`: the players' letters.
fn build_for(pair: Pair<'_, Rule>) -> Vec<Name> {
    debug_assert_eq!(pair.as_rule(), Rule::for_clause);
    parts(pair).map(build_name).collect()
}

fn build_number(pair: Pair<'_, Rule>) -> Number {
    debug_assert!(matches!(pair.as_rule(), Rule::number | Rule::literal));
    let text = pair.as_str();
    match text.strip_prefix('$') {
        Some(name) => Number::param(name, span(&pair)),
        // Only digits: parsing fails only when the value does not fit.
        None => Number::literal(text.parse::<u32>().ok(), span(&pair)),
    }
}

fn build_param(pair: Pair<'_, Rule>) -> ParamDecl {
    let mut it = parts(pair);
    let name = build_name(next(&mut it, "a parameter name"));
    let values = next(&mut it, "a parameter's values");
    let values_span = span(&values);
    let values = match values.as_rule() {
        Rule::param_range => {
            let mut n = parts(values);
            let low = build_number(next(&mut n, "a low end"));
            let high = build_number(next(&mut n, "a high end"));
            ParamValues::Range { low, high }
        }
        Rule::param_list => ParamValues::List(parts(values).map(build_number).collect()),
        r => unreachable!("not a parameter's values: {r:?}"),
    };
    let default = it
        .next()
        .map(|d| build_number(next(&mut parts(d), "a default")));
    ParamDecl {
        name,
        values: Spanned::new(values, values_span),
        default,
    }
}

fn build_string(pair: Pair<'_, Rule>) -> Str {
    let s = span(&pair);
    let raw = pair.into_inner().next().map_or("", |p| p.as_str());
    let mut value = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.extend(chars.next());
        } else {
            value.push(c);
        }
    }
    Spanned::new(value, s)
}

fn build_name(pair: Pair<'_, Rule>) -> Name {
    Spanned::new(pair.as_str().to_string(), span(&pair))
}

fn build_board(pair: Pair<'_, Rule>) -> Board {
    let mut it = parts(pair);
    let shape = next(&mut it, "a board shape");
    let shape_span = span(&shape);
    let shape = match shape.as_rule() {
        Rule::rect_shape => {
            let mut n = parts(shape);
            let width = build_number(next(&mut n, "a width"));
            let height = build_number(next(&mut n, "a height"));
            Shape::Rect { width, height }
        }
        Rule::hex_shape => Shape::Hex {
            side: build_number(next(&mut parts(shape), "a side")),
        },
        r => unreachable!("not a board shape: {r:?}"),
    };
    let without = it
        .next()
        .map(|w| build_cellset(next(&mut parts(w), "a cell set")));
    Board {
        shape: Spanned::new(shape, shape_span),
        without,
    }
}

fn build_player(pair: Pair<'_, Rule>) -> Player {
    let head = head_span(&pair);
    let s = span(&pair);
    let mut it = parts(pair);
    let name = build_string(next(&mut it, "a player name"));
    let fields = it
        .map(|f| {
            let fs = span(&f);
            let rule = f.as_rule();
            let value = next(&mut parts(f), "a player statement's value");
            let field = match rule {
                Rule::letter_field => PlayerField::Letter(build_name(value)),
                Rule::colour_field => PlayerField::Colour(build_string(value)),
                Rule::home_field => PlayerField::Home(build_cellset(value)),
                Rule::forward_field => PlayerField::Forward(build_name(value)),
                r => unreachable!("not a player statement: {r:?}"),
            };
            Spanned::new(field, fs)
        })
        .collect();
    Player {
        name,
        head,
        fields,
        span: s,
    }
}

fn build_setup_line(pair: Pair<'_, Rule>) -> SetupLine {
    let mut it = parts(pair);
    SetupLine {
        player: build_name(next(&mut it, "a player letter")),
        height: build_number(next(&mut it, "a height")),
        cells: build_cellset(next(&mut it, "a cell set")),
    }
}

fn build_sow_field(pair: Pair<'_, Rule>) -> SowField {
    match pair.as_rule() {
        Rule::heights_field => SowField::Heights(parts(pair).map(build_number).collect()),
        Rule::directions_field => SowField::Directions(build_directions_field(pair)),
        Rule::sow_onto_field => SowField::Onto(parts(pair).map(build_target).collect()),
        Rule::sow_on_enemy_field => {
            let s = span(&pair);
            SowField::OnEnemy(Spanned::new(parts(pair).next().map(build_number), s))
        }
        r => unreachable!("not a sow statement: {r:?}"),
    }
}

fn build_directions_field(pair: Pair<'_, Rule>) -> DirSet {
    build_dirset(next(&mut parts(pair), "a set of directions"))
}

fn build_target(pair: Pair<'_, Rule>) -> Spanned<Target> {
    let s = span(&pair);
    let target = match pair.as_rule() {
        Rule::empty_target => Target::Empty,
        Rule::own_target => Target::Own(build_number(next(&mut parts(pair), "a height"))),
        Rule::enemy_target => {
            // `kw_any` is a keyword, so look at all children here.
            let value = pair
                .into_inner()
                .find(|p| matches!(p.as_rule(), Rule::number | Rule::kw_any))
                .expect("the grammar guarantees a height or `any`");
            match value.as_rule() {
                Rule::number => Target::Enemy(build_number(value)),
                _ => Target::EnemyAny,
            }
        }
        r => unreachable!("not a target: {r:?}"),
    };
    Spanned::new(target, s)
}

fn build_sacrifice_field(pair: Pair<'_, Rule>) -> SacrificeField {
    match pair.as_rule() {
        Rule::directions_field => SacrificeField::Directions(build_directions_field(pair)),
        Rule::sacrifice_rule => {
            let mut it = parts(pair);
            SacrificeField::Rule(SacrificeLine {
                attacker: build_number(next(&mut it, "an attacker height")),
                target: build_number(next(&mut it, "a target height")),
                lose: build_number(next(&mut it, "a number of stones lost")),
                remove: build_number(next(&mut it, "a number of stones removed")),
            })
        }
        r => unreachable!("not a sacrifice statement: {r:?}"),
    }
}

fn build_catapult_field(pair: Pair<'_, Rule>) -> CatapultField {
    match pair.as_rule() {
        Rule::height_field => {
            CatapultField::Height(build_number(next(&mut parts(pair), "a height")))
        }
        Rule::directions_field => CatapultField::Directions(build_directions_field(pair)),
        Rule::range_field => CatapultField::Range(parts(pair).map(build_number).collect()),
        Rule::catapult_onto_field => CatapultField::Onto(parts(pair).map(build_target).collect()),
        Rule::on_empty_field => {
            let landing = next(&mut parts(pair), "a landing");
            CatapultField::OnEmpty(Spanned::new(landing.as_str() == "wall", span(&landing)))
        }
        Rule::on_enemy_field => {
            CatapultField::OnEnemy(build_number(next(&mut parts(pair), "a number of stones")))
        }
        r => unreachable!("not a catapult statement: {r:?}"),
    }
}

fn build_win_field(pair: Pair<'_, Rule>) -> WinField {
    match pair.as_rule() {
        Rule::breakthrough_field => {
            let has_by = pair
                .clone()
                .into_inner()
                .any(|p| p.as_rule() == Rule::kw_by);
            let mut timing = (Timing::Immediate, Span::point(0));
            let mut arrivals = Vec::new();
            let (mut height, mut count) = (None, None);
            // A number after `count` is the count, else the height.
            let mut counted = false;
            for a in pair.into_inner() {
                match a.as_rule() {
                    Rule::timing => {
                        let t = match a.as_str() {
                            "immediate" => Timing::Immediate,
                            _ => Timing::Delayed,
                        };
                        timing = (t, span(&a));
                    }
                    Rule::kw_count => counted = true,
                    Rule::number if counted => count = Some(build_number(a)),
                    Rule::number => height = Some(build_number(a)),
                    Rule::arrival => {
                        let arrival = match a.as_str() {
                            "sow" => Arrival::Sow,
                            _ => Arrival::Throw,
                        };
                        arrivals.push(Spanned::new(arrival, span(&a)));
                    }
                    _ => {}
                }
            }
            WinField::Breakthrough(BreakthroughClause {
                timing: Spanned::new(timing.0, timing.1),
                by: has_by.then_some(arrivals),
                height,
                count,
            })
        }
        Rule::occupy_field => {
            let mut it = parts(pair);
            let cells = build_cellset(next(&mut it, "a cell set"));
            WinField::Occupy(cells, it.next().map(build_number))
        }
        Rule::reduced_field | Rule::capture_field => {
            let rule = pair.as_rule();
            let mut it = parts(pair);
            let n = build_number(next(&mut it, "a number"));
            let m = next(&mut it, "`stones` or `towers`");
            let material = match m.as_str() {
                "stones" => Material::Stones,
                _ => Material::Towers,
            };
            let material = Spanned::new(material, span(&m));
            if rule == Rule::capture_field {
                WinField::Capture(n, material)
            } else {
                WinField::Reduced(n, material)
            }
        }
        Rule::stalemate_field => {
            let o = next(&mut parts(pair), "a stalemate outcome");
            let outcome = match o.as_str() {
                "loses" => Stalemate::Loses,
                _ => Stalemate::Draws,
            };
            WinField::Stalemate(Spanned::new(outcome, span(&o)))
        }
        r => unreachable!("not a win statement: {r:?}"),
    }
}

fn build_draw_field(pair: Pair<'_, Rule>) -> DrawField {
    let rule = pair.as_rule();
    if rule == Rule::adjudicate_field {
        let at = span(&pair);
        let what = next(
            &mut parts(pair),
            "`stones`, `towers`, `stacks on …` or a player",
        );
        let how = match (what.as_rule(), what.as_str()) {
            (Rule::material, "stones") => Adjudicate::Material(Material::Stones),
            (Rule::material, _) => Adjudicate::Material(Material::Towers),
            (Rule::letter, _) => Adjudicate::For(build_name(what)),
            _ => Adjudicate::Stacks(build_cellset(what)),
        };
        return DrawField::Adjudicate(Spanned::new(how, at));
    }
    let n = build_number(next(&mut parts(pair), "a number"));
    match rule {
        Rule::repetition_field => DrawField::Repetition(n),
        Rule::plies_field => DrawField::Plies(n),
        r => unreachable!("not a draw statement: {r:?}"),
    }
}

fn build_pie_line(pair: Pair<'_, Rule>) -> PieLine {
    let mut it = parts(pair);
    PieLine {
        player: build_name(next(&mut it, "a player letter")),
        from: build_cellset(next(&mut it, "a `from` cell set")),
        to: build_cellset(next(&mut it, "a `to` cell set")),
    }
}

fn build_cellset(pair: Pair<'_, Rule>) -> CellSet {
    debug_assert_eq!(pair.as_rule(), Rule::cellset);
    let s = span(&pair);
    let mut it = parts(pair);
    let first = build_cell_term(next(&mut it, "a cell-set term"));
    let mut rest = Vec::new();
    while let Some(op) = it.next() {
        let op = match op.as_rule() {
            Rule::union_op => SetOp::Union,
            _ => SetOp::Difference,
        };
        rest.push((
            op,
            build_cell_term(next(&mut it, "a term after `+` or `-`")),
        ));
    }
    CellSet {
        first,
        rest,
        span: s,
    }
}

fn build_cell_term(pair: Pair<'_, Rule>) -> Spanned<CellTerm> {
    let s = span(&pair);
    let term = match pair.as_rule() {
        Rule::rank_term => CellTerm::Rank(build_number(next(&mut parts(pair), "a rank"))),
        Rule::file_term => CellTerm::File(build_name(next(&mut parts(pair), "a file"))),
        Rule::edge_term => CellTerm::Edge(build_name(next(&mut parts(pair), "an edge"))),
        Rule::cells_term => CellTerm::Cells(parts(pair).map(build_name).collect()),
        Rule::all_cells => CellTerm::All,
        r => unreachable!("not a cell-set term: {r:?}"),
    };
    Spanned::new(term, s)
}

fn build_dir_item(pair: Pair<'_, Rule>) -> DirItem {
    if pair.as_rule() != Rule::step_vector {
        return DirItem::Named(build_name(pair));
    }
    let at = span(&pair);
    let mirrored = pair
        .clone()
        .into_inner()
        .any(|p| p.as_rule() == Rule::kw_mirrored);
    let mut it = parts(pair);
    // Beyond `i32`, the number saturates: the lowering calls it too long.
    let mut signed = || {
        let s = next(&mut it, "a signed number").as_str();
        let magnitude: i32 = s.trim_start_matches('-').parse().unwrap_or(i32::MAX);
        if s.starts_with('-') {
            -magnitude
        } else {
            magnitude
        }
    };
    let (x, y) = (signed(), signed());
    DirItem::Step(Spanned::new(StepVector { x, y, mirrored }, at))
}

fn build_dirset(pair: Pair<'_, Rule>) -> DirSet {
    debug_assert_eq!(pair.as_rule(), Rule::dirset);
    let inner = next(&mut parts(pair), "a set of directions");
    let s = span(&inner);
    match inner.as_rule() {
        Rule::all_dirs => DirSet::All(s),
        Rule::orthogonal_dirs => DirSet::Orthogonal(s),
        Rule::diagonal_dirs => DirSet::Diagonal(s),
        Rule::direction_list => DirSet::List(parts(inner).map(build_dir_item).collect()),
        r => unreachable!("not a set of directions: {r:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_do_not_match_prefixes() {
        assert!(RuleParser::parse(Rule::kw_player, "players").is_err());
        assert!(RuleParser::parse(Rule::kw_height, "heights").is_err());
        assert!(RuleParser::parse(Rule::kw_draw, "draws").is_err());
        assert!(RuleParser::parse(Rule::kw_player, "player{").is_ok());
    }

    #[test]
    fn rect_accepts_8x7_as_one_word() {
        for text in ["board rect 8 x 7", "board rect 8x7", "board rect 8 × 7"] {
            let file = parse(text).unwrap();
            let Item::Board(b) = &file.items[0] else {
                panic!("not a board")
            };
            let Shape::Rect { width, height } = &b.value.shape.value else {
                panic!("not a rect")
            };
            assert_eq!((width.value, height.value), (Some(8), Some(7)), "{text}");
        }
    }

    #[test]
    fn spans_end_at_the_last_word() {
        let src = "sow { heights 2 // two\n  directions all }";
        let file = parse(src).unwrap();
        let Item::Sow(b) = &file.items[0] else {
            panic!("not sow")
        };
        let s = b.fields[0].span;
        assert_eq!(&src[s.start..s.end], "heights 2");
        assert_eq!(&src[b.span.start..b.span.end], src);
    }

    #[test]
    fn strings_unescape() {
        let file = parse(r#"variant "a\"b\\c""#).unwrap();
        let Item::Variant(v) = &file.items[0] else {
            panic!()
        };
        assert_eq!(v.value.value, "a\"b\\c");
    }

    /// Users never see a rule's identifier: a rule added to the grammar
    /// fails here until it has a human name.
    #[test]
    fn every_rule_has_a_human_name() {
        for r in Rule::all_rules() {
            assert_ne!(
                rule_name(r),
                format!("{r:?}"),
                "give `{r:?}` a human name in `human_name`"
            );
        }
    }

    /// The keyword rules (`kw_letter`) and the keywords of
    /// [`keywords::WORDS`] are the same words.
    #[test]
    fn keyword_rules_are_the_listed_keywords() {
        let mut rules: Vec<String> = Rule::all_rules()
            .iter()
            .filter_map(|r| format!("{r:?}").strip_prefix("kw_").map(str::to_string))
            .collect();
        let mut listed: Vec<String> = keywords::WORDS
            .iter()
            .filter(|w| w.kind != WordKind::Value)
            .map(|w| w.text.to_string())
            .collect();
        rules.sort();
        listed.sort();
        assert_eq!(rules, listed);
        for r in Rule::all_rules() {
            let is_kw = format!("{r:?}").starts_with("kw_");
            assert_eq!(keyword_text(*r).is_some(), is_kw, "{r:?}");
        }
        assert_eq!(keyword_text(Rule::kw_colour), Some("colour"));
        assert_eq!(keyword_text(Rule::kw_stack), Some("stack limit"));
        assert_eq!(keyword_text(Rule::letter), None);
    }
}
