//! `murus check` and `murus variants`: rule files and the shipped variants.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use clap::Args;
use murus_engine::{BUILTIN, Variant};
use serde::Serialize;

use murus_engine::text::plural;

use crate::answer::Answer;

/// `murus check`'s arguments.
#[derive(Args)]
pub struct CheckArgs {
    /// Rule files (`.mg`).
    #[arg(required = true)]
    pub files: Vec<String>,
    /// Set a declared parameter (`--set files=9`) to check that
    /// combination; repeat for several parameters.
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_setting)]
    pub set: Vec<(String, u32)>,
}

/// `--set NAME=VALUE`: a parameter's name and a value for it.
pub(crate) fn parse_setting(text: &str) -> Result<(String, u32), String> {
    let Some((name, value)) = text.split_once('=') else {
        return Err(format!(
            "`{text}` is not NAME=VALUE (for example `files=9`)"
        ));
    };
    let name = name.trim().trim_start_matches('$');
    if name.is_empty() {
        return Err(format!("`{text}` has no parameter name before `=`"));
    }
    let is_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_name {
        return Err(format!(
            "`{name}` is not a parameter name (a letter or `_`, then letters, digits and `_`)"
        ));
    }
    let value = value.trim();
    let value = value.parse::<u32>().map_err(|_| {
        format!(
            "`{value}` is not a value for `{name}`: parameters take whole numbers from 0 to {}",
            u32::MAX
        )
    })?;
    Ok((name.to_string(), value))
}

/// `murus check`'s answer: a verdict a file, in the order given.
#[derive(Serialize)]
pub struct Checked {
    pub files: Vec<FileCheck>,
}

/// The verdict on one rule file.
#[derive(Serialize)]
pub struct FileCheck {
    pub file: String,
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// Whether a rule file compiles, and what it describes.
#[derive(Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Verdict {
    /// The file could not be read.
    Unreadable,
    /// It compiles: the rules in brief.
    Ok(Summary),
    /// It has this many errors (rendered on stderr); the first, where it
    /// is and what it says (`x.mg:14:22: unknown player \`x\``).
    Errors { errors: usize, first: String },
}

/// A compiled rule file in brief.
#[derive(Serialize)]
pub struct Summary {
    pub name: String,
    pub title: String,
    /// `8x7`, or `hex 5`.
    pub board: String,
    pub cells: usize,
    pub players: usize,
    pub stack_limit: u8,
    pub warnings: usize,
    /// The parameters: the values set and the other declarations
    /// (`files = 9 (set, of 7..9)`, `ranks = 6..8 (default 7)`).
    pub params: Vec<String>,
}

/// `murus check`: compiles each file (with `set`'s parameter values); the
/// diagnostics go to stderr as they are found, rendered like rustc's.
pub fn check(a: &CheckArgs) -> Checked {
    let files = a
        .files
        .iter()
        .map(|file| FileCheck {
            file: file.clone(),
            verdict: check_file(file, &a.set),
        })
        .collect();
    Checked { files }
}

fn check_file(file: &str, set: &[(String, u32)]) -> Verdict {
    let source = match crate::load::read_rules_file(std::path::Path::new(file), false) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e:#}");
            return Verdict::Unreadable;
        }
    };
    match murus_dsl::compile_with(&source, set) {
        Ok(compiled) => {
            if !compiled.warnings.is_empty() {
                eprint!(
                    "{}",
                    murus_dsl::render_all(&compiled.warnings, file, &source)
                );
            }
            let r = &compiled.rules;
            let g = &r.geometry;
            let board = match g.kind() {
                murus_dsl::ShapeKind::Rect => format!("{}x{}", g.width(), g.height()),
                murus_dsl::ShapeKind::Hex => format!("hex {}", g.width().div_ceil(2)),
            };
            Verdict::Ok(Summary {
                name: r.name.clone(),
                title: r.title.clone(),
                board,
                cells: g.cell_count(),
                players: r.players.len(),
                stack_limit: r.stack_limit,
                warnings: compiled.warnings.len(),
                params: params_summary(&source, set),
            })
        }
        Err(diags) => {
            eprint!("{}", murus_dsl::render_all(&diags, file, &source));
            let errors: Vec<&murus_dsl::Diagnostic> =
                diags.iter().filter(|d| d.is_error()).collect();
            let first = errors.first().map_or(String::new(), |d| {
                let (line, col) = d.line_col(&source);
                let message = d.message.lines().next().unwrap_or_default();
                format!("{file}:{line}:{col}: {message}")
            });
            Verdict::Errors {
                errors: errors.len(),
                first,
            }
        }
    }
}

/// The parameters of a checked file: the values set, and the declarations
/// of the others (`files = 9 (set, of 7..9)`, `ranks = 6..8 (default 7)`).
fn params_summary(source: &str, set: &[(String, u32)]) -> Vec<String> {
    let Ok(params) = murus_dsl::params(source) else {
        return Vec::new();
    };
    params
        .iter()
        .map(|p| match set.iter().find(|(n, _)| *n == p.name) {
            Some((_, v)) => format!("{} = {v} (set, of {})", p.name, p.values_text()),
            None => p.to_string(),
        })
        .collect()
}

impl Answer for Checked {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for FileCheck { file, verdict } in &self.files {
            match verdict {
                Verdict::Unreadable => writeln!(out, "{file}: cannot be read")?,
                // The count and the first error on one line, so that the
                // summary lines alone say what is wrong where.
                Verdict::Errors { errors, first } => {
                    writeln!(
                        out,
                        "{file}: {}, first {first}",
                        plural(*errors as u64, "error")
                    )?;
                }
                Verdict::Ok(s) => {
                    let warn = match s.warnings {
                        0 => String::new(),
                        n => format!(", {}", plural(n as u64, "warning")),
                    };
                    let params = if s.params.is_empty() {
                        String::new()
                    } else {
                        format!("; params: {}", s.params.join("; "))
                    };
                    writeln!(
                        out,
                        "{file}: ok: {} ({}), board {} with {} cells, {} players, stack limit {}{warn}{params}",
                        s.name, s.title, s.board, s.cells, s.players, s.stack_limit
                    )?;
                }
            }
        }
        Ok(())
    }

    /// A failure when any file has an error or cannot be read.
    fn exit_code(&self) -> ExitCode {
        let failed = self
            .files
            .iter()
            .any(|f| !matches!(f.verdict, Verdict::Ok(_)));
        if failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// `murus variants`' answer: the shipped variants, by name and title.
#[derive(Serialize)]
pub struct Variants {
    pub variants: Vec<Shipped>,
}

/// A shipped variant.
#[derive(Serialize)]
pub struct Shipped {
    pub name: String,
    pub title: String,
}

/// `murus variants`.
pub fn variants() -> Result<Variants> {
    let variants = BUILTIN
        .iter()
        .map(|(name, src)| {
            let v = Variant::compile(src)
                .map_err(|_| anyhow!("shipped variant `{name}` does not compile"))?;
            Ok(Shipped {
                name: (*name).to_string(),
                title: v.rules().title.clone(),
            })
        })
        .collect::<Result<_>>()?;
    Ok(Variants { variants })
}

impl Answer for Variants {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for Shipped { name, title } in &self.variants {
            writeln!(out, "{name:<18} {title}")?;
        }
        Ok(())
    }
}

/// `murus rules`'s arguments.
#[derive(Args)]
pub struct WordsArgs {
    /// A `.mg` file or a shipped variant's name (`standard`, `hex`, …).
    pub variant: String,
    #[arg(long)]
    pub json: bool,
}

/// `murus rules`'s answer: the compiled rules in English as a rulebook
/// (`murus_publish::rules_in_words`): the title, the designer's
/// introduction, and the numbered sections, each with its groups of
/// numbered rules.
#[derive(Serialize)]
pub struct InWords {
    pub variant: String,
    #[serde(flatten)]
    pub book: murus_publish::Rulebook,
}

/// `murus rules`: the rules of a variant in words.
pub fn words(a: &WordsArgs) -> Result<InWords> {
    let v = crate::load_variant(&a.variant)?;
    Ok(InWords {
        variant: v.name().to_string(),
        book: murus_publish::rules_in_words(&v),
    })
}

impl Answer for InWords {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(murus_publish::rulebook_text(&self.book).as_bytes())
    }
}
