//! Declared parameters: `param files = 7..9 default 8`, and `$files`
//! wherever a number goes.
//!
//! Before lowering, the compiler checks the declarations, picks each
//! parameter's value (a setting, or its default) and writes it into every
//! `$NAME` of the tree, so lowering sees plain numbers and reports what they
//! break as usual. [`instantiate`](crate::instantiate) writes the chosen
//! values into the declarations themselves, so one combination of values is
//! a rule file of its own.

use std::collections::HashMap;
use std::fmt;

use crate::ast::*;
use crate::diagnostic::{Diagnostic, Span};
use crate::suggest::closest;

/// The most values one parameter may take (a range `1..1000` is fine,
/// `0..4000000000` is a mistake).
pub const MAX_PARAM_VALUES: usize = 1000;

/// A declared parameter: `param files = 7..9 default 8`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The name, without the `$`.
    pub name: String,
    /// The values it may take, in the order written (a range ascending),
    /// without repeats; never empty.
    pub values: Vec<u32>,
    /// The value used when none is set: `default V`, or the first value.
    pub default: u32,
    /// The whole `param …` statement.
    pub span: Span,
}

impl Param {
    /// The values as a range when they are one (`7..9`), else listed
    /// (`1, 3, 5`); a single value alone (`8`).
    pub fn values_text(&self) -> String {
        match self.values.as_slice() {
            [one] => one.to_string(),
            [first, .., last] if is_run(&self.values) => format!("{first}..{last}"),
            values => values
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// The allowed values in words, for messages: "only 8", "a value from 7
    /// to 9", "one of 1, 3 or 5".
    pub fn describe_values(&self) -> String {
        match self.values.as_slice() {
            [one] => format!("only {one}"),
            [first, .., last] if is_run(&self.values) => {
                format!("a value from {first} to {last}")
            }
            values => {
                let shown: Vec<String> = values.iter().map(u32::to_string).collect();
                format!("one of {}", join_or(&shown))
            }
        }
    }
}

/// `files = 7..9 (default 8)`, or `files = 8` for a single value.
impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", self.name, self.values_text())?;
        if self.values.len() > 1 {
            write!(f, " (default {})", self.default)?;
        }
        Ok(())
    }
}

/// Whether there are three values or more, counting up by one from the
/// first (two read better listed: `2, 3`).
fn is_run(values: &[u32]) -> bool {
    values.len() >= 3 && values.windows(2).all(|w| w[0].checked_add(1) == Some(w[1]))
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// A file's parameter declarations, checked.
pub(crate) struct Declared<'a> {
    /// The well-formed declarations, in source order.
    pub(crate) params: Vec<(Param, &'a ParamDecl)>,
    /// Names declared by a broken declaration: `$NAME` of them is not
    /// reported again as unknown.
    broken: Vec<String>,
    /// Where each name was first declared.
    first: HashMap<String, Span>,
    /// Errors and warnings about the declarations.
    pub(crate) diags: Vec<Diagnostic>,
}

impl Declared<'_> {
    fn find(&self, name: &str) -> Option<&(Param, &ParamDecl)> {
        self.params.iter().find(|(p, _)| p.name == name)
    }

    fn is_declared(&self, name: &str) -> bool {
        self.first.contains_key(name)
    }

    fn names(&self) -> impl Iterator<Item = &str> {
        self.params
            .iter()
            .map(|(p, _)| p.name.as_str())
            .chain(self.broken.iter().map(String::as_str))
    }
}

/// Checks every `param` statement of the file.
pub(crate) fn declare(file: &RuleFile) -> Declared<'_> {
    let mut d = Declared {
        params: Vec::new(),
        broken: Vec::new(),
        first: HashMap::new(),
        diags: Vec::new(),
    };
    for item in &file.items {
        let Item::Param(decl) = item else { continue };
        let name = &decl.value.name;
        if let Some(&first) = d.first.get(&name.value) {
            d.diags.push(
                Diagnostic::error(name.span, format!("duplicate parameter `{}`", name.value))
                    .with_label(first, "first defined here")
                    .with_note("a parameter is declared once"),
            );
            continue;
        }
        d.first.insert(name.value.clone(), name.span);
        match declare_one(&decl.value, decl.span, &mut d.diags) {
            Some(param) => d.params.push((param, &decl.value)),
            None => d.broken.push(name.value.clone()),
        }
    }
    d
}

/// A literal's value, or "number too large".
fn literal(n: &Number, diags: &mut Vec<Diagnostic>) -> Option<u32> {
    if n.value.is_none() {
        diags.push(
            Diagnostic::error(n.span, "number too large")
                .with_note(format!("numbers in a rule file are at most {}", u32::MAX)),
        );
    }
    n.value
}

fn too_many(span: Span, name: &str, count: u64) -> Diagnostic {
    Diagnostic::error(
        span,
        format!("parameter `{name}` has {count} values, too many"),
    )
    .with_note(format!(
        "a parameter takes at most {MAX_PARAM_VALUES} values"
    ))
}

fn declare_one(decl: &ParamDecl, span: Span, diags: &mut Vec<Diagnostic>) -> Option<Param> {
    let name = &decl.name.value;
    let values = match &decl.values.value {
        ParamValues::Range { low, high } => {
            let (lo, hi) = (literal(low, diags), literal(high, diags));
            let (lo, hi) = (lo?, hi?);
            if lo > hi {
                diags.push(
                    Diagnostic::error(decl.values.span, format!("empty range `{lo}..{hi}`"))
                        .with_note(
                            "a range runs up from its low end to its high end, both included",
                        )
                        .with_help(format!("did you mean `{hi}..{lo}`?")),
                );
                return None;
            }
            let count = u64::from(hi - lo) + 1;
            if count > MAX_PARAM_VALUES as u64 {
                diags.push(too_many(decl.values.span, name, count));
                return None;
            }
            (lo..=hi).collect()
        }
        ParamValues::List(list) => {
            let mut values: Vec<u32> = Vec::with_capacity(list.len());
            let mut ok = true;
            for n in list {
                let Some(v) = literal(n, diags) else {
                    ok = false;
                    continue;
                };
                if values.contains(&v) {
                    diags.push(Diagnostic::warning(
                        n.span,
                        format!("value {v} is listed twice"),
                    ));
                } else {
                    values.push(v);
                }
            }
            if !ok {
                return None;
            }
            if values.len() > MAX_PARAM_VALUES {
                diags.push(too_many(decl.values.span, name, values.len() as u64));
                return None;
            }
            values
        }
    };
    let first = *values.first()?;
    let mut param = Param {
        name: name.clone(),
        values,
        default: first,
        span,
    };
    if let Some(n) = &decl.default {
        let v = literal(n, diags)?;
        if !param.values.contains(&v) {
            diags.push(
                Diagnostic::error(
                    n.span,
                    format!("default {v} is not a value of parameter `{name}`"),
                )
                .with_label(decl.values.span, "the values are declared here")
                .with_note(format!("`{name}` takes {}", param.describe_values())),
            );
            return None;
        }
        param.default = v;
    }
    Some(param)
}

/// The value of each well-formed parameter: its setting, or its default.
/// Settings that name no parameter, or a value it does not take, are errors
/// (pointing at the declaration where there is one).
pub(crate) fn choose(
    declared: &Declared<'_>,
    settings: &[(String, u32)],
) -> (HashMap<String, u32>, Vec<Diagnostic>) {
    let mut chosen: HashMap<String, u32> = declared
        .params
        .iter()
        .map(|(p, _)| (p.name.clone(), p.default))
        .collect();
    let mut diags = Vec::new();
    let mut set: Vec<&str> = Vec::new();
    for (name, value) in settings {
        let Some((param, decl)) = declared.find(name) else {
            if !declared.is_declared(name) {
                diags.push(unknown_setting(declared, name));
            }
            continue;
        };
        if set.contains(&name.as_str()) {
            diags.push(
                Diagnostic::error(decl.name.span, format!("parameter `{name}` is set twice"))
                    .with_note("set each parameter once"),
            );
            continue;
        }
        set.push(name);
        if !param.values.contains(value) {
            diags.push(
                Diagnostic::error(
                    decl.values.span,
                    format!("parameter `{name}` cannot be {value}"),
                )
                .with_note(format!(
                    "`{name}` takes {}, as declared here",
                    param.describe_values()
                )),
            );
            continue;
        }
        chosen.insert(name.clone(), *value);
    }
    (chosen, diags)
}

/// A setting for a name the file does not declare: at the closest
/// declaration's name when there is one close enough, else at the first
/// declaration, else at the start of the file.
fn unknown_setting(declared: &Declared<'_>, name: &str) -> Diagnostic {
    let best = closest(name, declared.names());
    let span = best
        .and_then(|b| declared.first.get(b))
        .or_else(|| declared.first.values().min_by_key(|s| s.start))
        .copied()
        .unwrap_or(Span::point(0));
    let mut d = Diagnostic::error(span, format!("no parameter `{name}` is declared"));
    let mut names: Vec<(usize, &str)> = declared
        .first
        .iter()
        .map(|(n, s)| (s.start, n.as_str()))
        .collect();
    names.sort_unstable();
    d = if names.is_empty() {
        d.with_note("this file declares no parameters")
    } else {
        let listed: Vec<String> = names.iter().map(|(_, n)| format!("`{n}`")).collect();
        d.with_note(format!("this file declares {}", join_or_and(&listed)))
    };
    if let Some(b) = best {
        d = d.with_help(format!("did you mean `{b}`?"));
    }
    d
}

fn join_or_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// What [`resolve`] found.
pub(crate) struct Resolved {
    /// An unknown `$NAME` is an error, a parameter never used a warning.
    pub(crate) diags: Vec<Diagnostic>,
    /// The parameters used, in the order of their declarations.
    pub(crate) used: Vec<String>,
    /// Whether some `$NAME` was left without a value (unknown, or of a
    /// broken declaration): reported here, so lowering stays quiet about it.
    pub(crate) unresolved: bool,
}

/// Writes the chosen values into every `$NAME` of the file.
pub(crate) fn resolve(
    file: &mut RuleFile,
    declared: &Declared<'_>,
    chosen: &HashMap<String, u32>,
) -> Resolved {
    let mut diags = Vec::new();
    let mut used: Vec<String> = Vec::new();
    let mut unresolved = false;
    let known: Vec<&str> = declared.names().collect();
    for_each_number(file, &mut |n| {
        let Some(name) = &n.param else { return };
        match chosen.get(name) {
            Some(&v) => n.value = Some(v),
            None => unresolved = true,
        }
        if declared.is_declared(name) {
            if !used.contains(name) {
                used.push(name.clone());
            }
            return;
        }
        let mut d = Diagnostic::error(n.span, format!("unknown parameter `${name}`"));
        d = if known.is_empty() {
            d.with_note(format!(
                "a parameter is declared before use anywhere in the file, for example \
                 `param {name} = 1..3`"
            ))
        } else if let [only] = known.as_slice() {
            d.with_note(format!("the only declared parameter is `${only}`"))
        } else {
            let listed: Vec<String> = known.iter().map(|k| format!("`${k}`")).collect();
            d.with_note(format!(
                "the declared parameters are {}",
                join_or_and(&listed)
            ))
        };
        if let Some(best) = closest(name, known.iter().copied()) {
            d = d.with_help(format!("did you mean `${best}`?"));
            // Probably meant: not reported again as never used.
            if !used.iter().any(|u| u == best) {
                used.push(best.to_string());
            }
        }
        diags.push(d);
    });
    for (param, decl) in &declared.params {
        if !used.contains(&param.name) {
            diags.push(
                Diagnostic::warning(
                    decl.name.span,
                    format!("parameter `{}` is never used", param.name),
                )
                .with_note(format!(
                    "write `${}` where a number goes, or remove the declaration",
                    param.name
                )),
            );
        }
    }
    let used: Vec<String> = declared
        .params
        .iter()
        .map(|(p, _)| p.name.clone())
        .filter(|n| used.contains(n))
        .collect();
    Resolved {
        diags,
        used,
        unresolved,
    }
}

/// Calls `f` on every number of the file where a parameter may stand (all
/// but a parameter's own values). The matches are exhaustive, so a number
/// added to the syntax tree must be added here.
fn for_each_number(file: &mut RuleFile, f: &mut impl FnMut(&mut Number)) {
    for item in &mut file.items {
        match item {
            Item::Variant(_)
            | Item::Title(_)
            | Item::Turns(_)
            | Item::Param(_)
            | Item::Introduction(_)
            | Item::Caption(_) => {}
            Item::Win(b) => {
                for field in &mut b.fields {
                    match &mut field.value {
                        WinField::Breakthrough(clause) => {
                            if let Some(n) = &mut clause.height {
                                f(n);
                            }
                            if let Some(n) = &mut clause.count {
                                f(n);
                            }
                        }
                        WinField::Stalemate(_) => {}
                        WinField::Occupy(set, count) => {
                            cellset_numbers(set, f);
                            if let Some(n) = count {
                                f(n);
                            }
                        }
                        WinField::Reduced(n, _) | WinField::Capture(n, _) => f(n),
                    }
                }
            }
            Item::Board(b) => {
                let Board { shape, without } = &mut b.value;
                match &mut shape.value {
                    Shape::Rect { width, height } => {
                        f(width);
                        f(height);
                    }
                    Shape::Hex { side } => f(side),
                }
                if let Some(set) = without {
                    cellset_numbers(set, f);
                }
            }
            Item::Player(p) => {
                for field in &mut p.fields {
                    match &mut field.value {
                        PlayerField::Home(set) => cellset_numbers(set, f),
                        PlayerField::Letter(_)
                        | PlayerField::Colour(_)
                        | PlayerField::Forward(_) => {}
                    }
                }
            }
            Item::Setup(b) => {
                for line in &mut b.fields {
                    let SetupLine {
                        player: _,
                        height,
                        cells,
                    } = &mut line.value;
                    f(height);
                    cellset_numbers(cells, f);
                }
            }
            Item::StackLimit(n) => f(&mut n.value.limit),
            Item::Sow(b) => {
                for field in &mut b.fields {
                    match &mut field.value {
                        SowField::Heights(list) => list.iter_mut().for_each(&mut *f),
                        SowField::Directions(_) => {}
                        SowField::Onto(targets) => target_numbers(targets, f),
                        SowField::OnEnemy(landing) => {
                            if let Some(n) = &mut landing.value {
                                f(n);
                            }
                        }
                    }
                }
            }
            Item::Sacrifice(b) => {
                for field in &mut b.fields {
                    match &mut field.value {
                        SacrificeField::Directions(_) => {}
                        SacrificeField::Rule(SacrificeLine {
                            attacker,
                            target,
                            lose,
                            remove,
                        }) => {
                            f(attacker);
                            f(target);
                            f(lose);
                            f(remove);
                        }
                    }
                }
            }
            Item::Catapult(b) => {
                for field in &mut b.fields {
                    match &mut field.value {
                        CatapultField::Height(n) | CatapultField::OnEnemy(n) => f(n),
                        CatapultField::Range(list) => list.iter_mut().for_each(&mut *f),
                        CatapultField::Onto(targets) => target_numbers(targets, f),
                        CatapultField::Directions(_) | CatapultField::OnEmpty(_) => {}
                    }
                }
            }
            Item::Draw(b) => {
                for field in &mut b.fields {
                    match &mut field.value {
                        DrawField::Repetition(n) | DrawField::Plies(n) => f(n),
                        DrawField::Adjudicate(how) => match &mut how.value {
                            Adjudicate::Stacks(set) => cellset_numbers(set, f),
                            Adjudicate::Material(_) | Adjudicate::For(_) => {}
                        },
                    }
                }
            }
            Item::Opening(b) => {
                for line in &mut b.fields {
                    let PieLine {
                        player: _,
                        from,
                        to,
                    } = &mut line.value;
                    cellset_numbers(from, f);
                    cellset_numbers(to, f);
                }
            }
        }
    }
}

fn target_numbers(targets: &mut [Spanned<Target>], f: &mut impl FnMut(&mut Number)) {
    for t in targets {
        match &mut t.value {
            Target::Own(n) | Target::Enemy(n) => f(n),
            Target::Empty | Target::EnemyAny => {}
        }
    }
}

fn cellset_numbers(set: &mut CellSet, f: &mut impl FnMut(&mut Number)) {
    let terms = std::iter::once(&mut set.first).chain(set.rest.iter_mut().map(|(_, t)| t));
    for term in terms {
        match &mut term.value {
            CellTerm::Rank(n) => f(n),
            CellTerm::File(_) | CellTerm::Edge(_) | CellTerm::Cells(_) | CellTerm::All => {}
        }
    }
}

/// The source with each declaration's values (and default) replaced by its
/// chosen value: `param files = 7..9 default 8` becomes `param files = 9`.
pub(crate) fn rewrite(
    source: &str,
    declared: &Declared<'_>,
    chosen: &HashMap<String, u32>,
) -> String {
    let mut edits: Vec<(Span, u32)> = declared
        .params
        .iter()
        .filter_map(|(p, decl)| Some((decl.value_span(), *chosen.get(&p.name)?)))
        .collect();
    edits.sort_by_key(|(s, _)| std::cmp::Reverse(s.start));
    let mut out = source.to_string();
    for (span, value) in edits {
        if span.start <= span.end && span.end <= out.len() {
            out.replace_range(span.start..span.end, &value.to_string());
        }
    }
    out
}

/// "parameters in force: files = 9, r = 3", for messages about rules that
/// depend on them; `None` when the file uses none.
pub(crate) fn in_force(used: &[String], chosen: &HashMap<String, u32>) -> Option<String> {
    let listed: Vec<String> = used
        .iter()
        .filter_map(|n| Some(format!("{n} = {}", chosen.get(n)?)))
        .collect();
    (!listed.is_empty()).then(|| format!("parameters in force: {}", listed.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(values: &[u32]) -> Param {
        Param {
            name: "p".into(),
            values: values.to_vec(),
            default: values[0],
            span: Span::point(0),
        }
    }

    #[test]
    fn values_read_as_a_range_when_they_are_one() {
        assert_eq!(param(&[7, 8, 9]).values_text(), "7..9");
        assert_eq!(param(&[7, 8, 9]).describe_values(), "a value from 7 to 9");
        assert_eq!(param(&[1, 3, 5]).values_text(), "1, 3, 5");
        assert_eq!(param(&[1, 3, 5]).describe_values(), "one of 1, 3 or 5");
        assert_eq!(param(&[9, 8]).values_text(), "9, 8");
        assert_eq!(param(&[8]).values_text(), "8");
        assert_eq!(param(&[8]).describe_values(), "only 8");
        assert_eq!(param(&[2, 3]).values_text(), "2, 3");
        assert_eq!(param(&[2, 3]).describe_values(), "one of 2 or 3");
        let top = param(&[u32::MAX - 2, u32::MAX - 1, u32::MAX]);
        assert_eq!(top.values_text(), "4294967293..4294967295");
        assert_eq!(param(&[7, 8, 9]).to_string(), "p = 7..9 (default 7)");
        assert_eq!(param(&[8]).to_string(), "p = 8");
    }
}
