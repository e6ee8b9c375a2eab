//! The Murus rules language: a variant of Murus Gallicus is a small text file,
//! and this crate compiles it into validated [`Rules`] for the engine.
//!
//! ```
//! let source = include_str!("../../../variants/standard.mg");
//! let compiled = murus_dsl::compile(source).expect("the standard game compiles");
//! let rules = &compiled.rules;
//! assert_eq!(rules.name, "standard");
//! assert_eq!(rules.geometry.cell_count(), 56);
//! assert_eq!(rules.players[0].letter, 'r');
//! assert_eq!(rules.setup.len(), 16);
//! assert!(compiled.warnings.is_empty());
//!
//! // Mistakes come back as diagnostics that point into the source.
//! let broken = source.replace("home rank 7", "home rank 9");
//! let errors = murus_dsl::compile(&broken).unwrap_err();
//! let text = murus_dsl::render_all(&errors, "standard.mg", &broken);
//! assert!(text.starts_with(
//!     "standard.mg:19:10: error: rank 9 is not on this board (ranks 1–7)"
//! ));
//! ```
//!
//! The language is described in `docs/rules-language.md`; the shipped
//! variants in `variants/*.mg` are complete examples. Compiling is three
//! steps: the pest grammar (`grammar.pest`) turns text into a spanned
//! [`ast::RuleFile`] ([`parse`]), lowering checks it against the board and
//! builds [`Rules`], and every problem on the way becomes a [`Diagnostic`]
//! that renders like a rustc message.

pub mod ast;
pub mod diagnostic;
pub mod geometry;
pub mod key;
pub mod keywords;
mod lower;
mod mirror;
mod params;
mod parser;
pub mod rules;
pub mod suggest;
pub mod text;

pub use diagnostic::{Diagnostic, Label, Severity, Span, render_all};
pub use geometry::{Direction, Geometry, ShapeKind};
pub use key::RulesKey;
pub use keywords::RESERVED;
pub use params::{MAX_PARAM_VALUES, Param};
pub use rules::Rules;

/// A successfully compiled rule file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// The validated rules.
    pub rules: Rules,
    /// Things that look like mistakes but do not stop the variant from
    /// working (a direction listed twice, a player without stones, …).
    pub warnings: Vec<Diagnostic>,
}

/// Compiles rule-file text.
///
/// Returns `Ok` only if there was no error; the warnings come along. On
/// failure, returns every diagnostic found (errors and warnings, in source
/// order). A syntax error stops compilation at once, so it comes alone.
///
/// Each declared parameter (`param files = 7..9 default 8`) takes its
/// default; [`compile_with`] sets them.
pub fn compile(source: &str) -> Result<Compiled, Vec<Diagnostic>> {
    compile_with(source, &[])
}

/// Compiles rule-file text with some of its parameters set: `("files", 9)`
/// gives every `$files` the value 9. Parameters not set take their default.
///
/// A setting for a name the file does not declare, or a value the
/// declaration does not allow, is an error (pointing at the declaration
/// where there is one), and nothing else is checked. An error the values
/// cause (a `rank $r` off the board) is reported as usual, at the
/// `$NAME`, with a note naming the parameters in force.
///
/// ```
/// let source = "variant \"v\"\n\
///     param files = 7..9 default 8\n\
///     board rect $files x 7\n\
///     player \"Romans\" { letter r colour \"#e8dcc0\" home rank 1 forward n }\n\
///     player \"Gauls\" { letter g colour \"#5b3a29\" home rank 7 forward s }\n\
///     setup { r 2 on rank 1  g 2 on rank 7 }\n\
///     stack limit 2\n\
///     sow { heights 2 directions all onto empty, own 1 }\n\
///     win { breakthrough immediate stalemate loses }\n";
/// let cells = |c: murus_dsl::Compiled| c.rules.geometry.cell_count();
/// assert_eq!(cells(murus_dsl::compile(source).unwrap()), 56);
/// let nine = [("files".to_string(), 9)];
/// assert_eq!(cells(murus_dsl::compile_with(source, &nine).unwrap()), 63);
/// assert!(murus_dsl::compile_with(source, &[("files".to_string(), 10)]).is_err());
/// ```
pub fn compile_with(source: &str, settings: &[(String, u32)]) -> Result<Compiled, Vec<Diagnostic>> {
    let mut file = parser::parse(source).map_err(|d| vec![d])?;
    let parsed = file.clone();
    let declared = params::declare(&parsed);
    let (chosen, setting_errors) = params::choose(&declared, settings);
    let mut diags = declared.diags.clone();
    if !setting_errors.is_empty() {
        diags.extend(setting_errors);
        diags.sort_by_key(|d| d.span.start);
        return Err(diags);
    }
    let resolved = params::resolve(&mut file, &declared, &chosen);
    diags.extend(resolved.diags);
    let (rules, mut lowered) = lower::lower(&file, resolved.unresolved);
    if let Some(note) = params::in_force(&resolved.used, &chosen) {
        for d in lowered.iter_mut().filter(|d| d.is_error()) {
            d.notes.push(note.clone());
        }
    }
    diags.extend(lowered);
    diags.sort_by_key(|d| d.span.start);
    match rules {
        Some(rules) if !diags.iter().any(Diagnostic::is_error) => Ok(Compiled {
            rules,
            warnings: diags,
        }),
        _ => Err(diags),
    }
}

/// The parameters a rule file declares (`param files = 7..9 default 8`), in
/// source order: to list them, or to enumerate combinations of values for
/// [`compile_with`] and [`instantiate`]. Only the declarations are checked:
/// a syntax error or a broken declaration is an error here.
pub fn params(source: &str) -> Result<Vec<Param>, Vec<Diagnostic>> {
    let file = parser::parse(source).map_err(|d| vec![d])?;
    let declared = params::declare(&file);
    if declared.diags.iter().any(Diagnostic::is_error) {
        return Err(declared.diags);
    }
    Ok(declared.params.into_iter().map(|(p, _)| p).collect())
}

/// The rule file for one combination of values: the source with each
/// declaration's values rewritten to the one value chosen (set, or the
/// default), `param files = 7..9 default 8` becoming `param files = 9`, and
/// every other byte as it was. The result declares only single values (a
/// single-value parameter is a constant), so on its own it compiles to
/// exactly what [`compile_with`] gives for these settings. The engine ties
/// trained evaluations and game records to a variant's source text, so each
/// combination has a text of its own.
///
/// Checks the declarations and the settings as [`compile_with`] does (the
/// same errors), not the rest of the file.
///
/// ```
/// let source = "param files = 7..9 default 8\nboard rect $files x 7\n";
/// let nine = [("files".to_string(), 9)];
/// assert_eq!(
///     murus_dsl::instantiate(source, &nine).unwrap(),
///     "param files = 9\nboard rect $files x 7\n"
/// );
/// assert_eq!(
///     murus_dsl::instantiate(source, &[]).unwrap(),
///     "param files = 8\nboard rect $files x 7\n"
/// );
/// ```
pub fn instantiate(source: &str, settings: &[(String, u32)]) -> Result<String, Vec<Diagnostic>> {
    let file = parser::parse(source).map_err(|d| vec![d])?;
    let declared = params::declare(&file);
    let (chosen, setting_errors) = params::choose(&declared, settings);
    let mut diags = declared.diags.clone();
    diags.extend(setting_errors);
    if diags.iter().any(Diagnostic::is_error) {
        diags.sort_by_key(|d| d.span.start);
        return Err(diags);
    }
    Ok(params::rewrite(source, &declared, &chosen))
}

/// Parses rule-file text into its syntax tree without checking what it
/// means: for tools that want the source structure (formatters, editors).
pub fn parse(source: &str) -> Result<ast::RuleFile, Diagnostic> {
    parser::parse(source)
}
