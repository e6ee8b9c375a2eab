//! `murus record import` and `murus record export`: annotated game records
//! (`docs/records.md`) read, checked against their variant and written in
//! the canonical text or as JSON. The work is `murus_engine::record`'s.

use std::io::{self, Read, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand, ValueEnum};
use murus_engine::record::{read, read_printed, render};
use murus_engine::{Record, Variant};
use serde::Serialize;

use crate::answer::Answer;
use crate::load_variant;

#[derive(Subcommand)]
pub enum RecordCommand {
    /// Read a record (the record format, or a game as printed with --from
    /// text), check every move and variation, and print it in the
    /// canonical format or as JSON.
    Import(ImportArgs),
    /// Convert a record (the record format, or JSON: a game record or a
    /// record) to the record format or JSON.
    Export(ExportArgs),
}

/// How the text read is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum From {
    /// The record format, modelled on PGN.
    Pgn,
    /// A game as printed in a magazine or a book.
    Text,
}

/// What is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum To {
    /// The record format.
    Pgn,
    /// JSON, as `murus record import --json` prints it.
    Json,
}

#[derive(Args)]
pub struct ImportArgs {
    /// The file to read, `-` for stdin.
    pub file: String,
    /// A `.mg` file or a shipped variant's name: the variant of a game as
    /// printed, or of a record whose variant is neither shipped nor embedded.
    #[arg(long)]
    pub variant: Option<String>,
    /// How the file is written.
    #[arg(long, value_enum, default_value = "pgn")]
    pub from: From,
    /// Print the record as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct ExportArgs {
    /// The file to read (the record format, or JSON), `-` for stdin.
    pub file: String,
    /// A `.mg` file or a shipped variant's name, for a record whose variant
    /// is neither shipped nor embedded.
    #[arg(long)]
    pub variant: Option<String>,
    /// What to write.
    #[arg(long, value_enum, default_value = "pgn")]
    pub to: To,
    /// Write to this file instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace --out if it exists.
    #[arg(long)]
    pub force: bool,
}

/// A record, checked, with the text it is printed as.
#[derive(Serialize)]
#[serde(transparent)]
pub struct Imported {
    record: Record,
    #[serde(skip)]
    text: String,
    #[serde(skip)]
    wrote: Option<PathBuf>,
}

impl Answer for Imported {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.wrote.is_none() {
            out.write_all(self.text.as_bytes())?;
        }
        Ok(())
    }

    fn json(&self, out: &mut dyn Write) -> io::Result<()> {
        crate::answer::json_pretty(&self.record, out)
    }

    fn notes(&self) -> String {
        match &self.wrote {
            Some(p) => format!("wrote {}\n", p.display()),
            None => String::new(),
        }
    }
}

/// The text of FILE, or stdin for `-`.
fn read_input(file: &str) -> Result<String> {
    if file == "-" {
        let mut text = String::new();
        io::stdin()
            .read_to_string(&mut text)
            .context("cannot read stdin")?;
        return Ok(text);
    }
    std::fs::read_to_string(file).with_context(|| format!("cannot read `{file}`"))
}

fn display_name(file: &str) -> &str {
    if file == "-" { "<stdin>" } else { file }
}

/// Reads a record file in the record format, checked; diagnostics go to
/// stderr.
fn read_record(file: &str, text: &str, fallback: Option<&Variant>) -> Result<(Record, Variant)> {
    read(text, fallback).map_err(|diags| {
        eprint!("{}", render(&diags, display_name(file), text));
        anyhow!("`{}` is not a record that can be read", display_name(file))
    })
}

/// Reads a record in JSON (a record, or an older game record), checked by
/// writing it in the record format and reading that back.
fn read_json(file: &str, text: &str, fallback: Option<&Variant>) -> Result<(Record, Variant)> {
    let name = display_name(file);
    let record = Record::from_json(text).with_context(|| format!("`{name}`"))?;
    let variant = match (&record.rules, fallback) {
        (Some(rules), _) => Variant::compile(rules).map_err(|diags| {
            let shown = format!("{name} (its rules)");
            eprint!("{}", render(&diags, &shown, rules));
            anyhow!("the rules embedded in `{name}` do not compile")
        })?,
        (None, Some(v)) => v.clone(),
        (None, None) => Variant::builtin(&record.variant).ok_or_else(|| {
            anyhow!(
                "`{name}`: unknown variant `{}`: name its rules with --variant",
                record.variant
            )
        })?,
    };
    let as_text = record.write(&variant);
    read_record(&format!("{name} (as a record)"), &as_text, Some(&variant))
}

/// Whether a path names a record file rather than rules: `.mgn` or `.json`.
pub(crate) fn is_record_file(path: &str) -> bool {
    path.ends_with(".mgn") || path.ends_with(".json")
}

/// A record file (the record format or JSON, `-` for stdin), checked.
pub(crate) fn load(file: &str, fallback: Option<&Variant>) -> Result<(Record, Variant)> {
    let text = read_input(file)?;
    if text.trim_start().starts_with('{') {
        read_json(file, &text, fallback)
    } else {
        read_record(file, &text, fallback)
    }
}

/// Game `game` (from 1) of a record file that may be a collection (many
/// records one after another, as `murus serve --export-mgn` writes); a
/// collection of more than one needs `game`, a single record takes none
/// or 1. Diagnostics point into the whole file.
pub(crate) fn load_game(
    file: &str,
    fallback: Option<&Variant>,
    game: Option<usize>,
) -> Result<(Record, Variant)> {
    let text = read_input(file)?;
    let name = display_name(file);
    if text.trim_start().starts_with('{') {
        if game.is_some_and(|n| n != 1) {
            bail!("`{name}` holds one game (JSON): --game is 1 or left out");
        }
        return read_json(file, &text, fallback);
    }
    let parts = murus_engine::record::split_collection(&text);
    let n = parts.len();
    let index = match game {
        None if n > 1 => bail!("`{name}` is a collection of {n} games: give --game N (1 to {n})"),
        None => 0,
        Some(g) if g == 0 || g > n.max(1) => {
            bail!(
                "--game {g}: `{name}` holds {n} game{}",
                if n == 1 { "" } else { "s" }
            )
        }
        Some(g) => g - 1,
    };
    let Some(&(offset, part)) = parts.get(index) else {
        return read_record(file, &text, fallback);
    };
    read(part, fallback).map_err(|mut diags| {
        for d in &mut diags {
            d.span.start += offset;
            d.span.end += offset;
            for l in &mut d.labels {
                l.span.start += offset;
                l.span.end += offset;
            }
        }
        eprint!("{}", render(&diags, name, &text));
        anyhow!(
            "game {} of `{name}` is not a record that can be read",
            index + 1
        )
    })
}

/// The variant named by `--variant`.
fn fallback(spec: Option<&str>) -> Result<Option<Variant>> {
    spec.map(load_variant).transpose()
}

/// The record as `import` and `export` both write it: the `Rules` tag
/// always (the SHA-256 of the rules it was checked under), and the rules
/// embedded for a variant that is not shipped.
fn canonical(mut record: Record, variant: &Variant) -> Record {
    record.embed_rules(variant);
    record
}

/// `murus record import`.
pub fn import(a: &ImportArgs) -> Result<Imported> {
    let text = read_input(&a.file)?;
    let given = fallback(a.variant.as_deref())?;
    let (record, variant) = match a.from {
        From::Pgn => read_record(&a.file, &text, given.as_ref())?,
        From::Text => {
            let Some(v) = given else {
                bail!("--from text needs --variant: the moves are read by trying them");
            };
            let record = read_printed(&text, &v).map_err(|diags| {
                eprint!("{}", render(&diags, display_name(&a.file), &text));
                anyhow!(
                    "`{}` cannot be read as a printed game",
                    display_name(&a.file)
                )
            })?;
            (record, v)
        }
    };
    let record = canonical(record, &variant);
    Ok(Imported {
        text: record.write(&variant),
        record,
        wrote: None,
    })
}

/// `murus record export`.
pub fn export(a: &ExportArgs) -> Result<Imported> {
    let given = fallback(a.variant.as_deref())?;
    let (record, variant) = load(&a.file, given.as_ref())?;
    let record = canonical(record, &variant);
    let out = if a.to == To::Json {
        format!("{}\n", record.to_json())
    } else {
        record.write(&variant)
    };
    if let Some(path) = &a.out {
        if path.exists() && !a.force {
            bail!("`{}` exists: give --force to replace it", path.display());
        }
        murus_engine::util::write_atomic(path, out.as_bytes())?;
    }
    Ok(Imported {
        record,
        text: out,
        wrote: a.out.clone(),
    })
}
