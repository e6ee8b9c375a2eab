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
pub mod keywords;
mod lower;
mod parser;
pub mod rules;
mod suggest;

pub use diagnostic::{Diagnostic, Label, Severity, Span, render_all};
pub use geometry::{Direction, Geometry, ShapeKind};
pub use keywords::RESERVED;
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
pub fn compile(source: &str) -> Result<Compiled, Vec<Diagnostic>> {
    let file = parser::parse(source).map_err(|d| vec![d])?;
    match lower::lower(&file) {
        (Some(rules), warnings) => Ok(Compiled { rules, warnings }),
        (None, diags) => Err(diags),
    }
}

/// Parses rule-file text into its syntax tree without checking what it
/// means: for tools that want the source structure (formatters, editors).
pub fn parse(source: &str) -> Result<ast::RuleFile, Diagnostic> {
    parser::parse(source)
}
