//! `murus sheet`: a printable HTML rules sheet written to a folder,
//! through `murus_publish::rules_sheet_html` (docs/sheets.md); what the
//! sheet commands share (`murus mural sheet` is in `mural/sheet.rs`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;
use murus_publish::{SheetOptions, Theme, rules_sheet_html};
use serde::Serialize;

use crate::answer::Answer;
use crate::load_variant;

/// `murus sheet`'s arguments.
#[derive(Args)]
pub struct SheetArgs {
    /// A `.mg` file or a shipped variant's name (`standard`, `hex`, …).
    pub variant: String,
    /// The folder to write `index.html` into; refused when it exists and
    /// is not empty, unless --force.
    #[arg(long)]
    pub out: PathBuf,
    /// Write into a folder that is not empty (its `index.html` replaced).
    #[arg(long)]
    pub force: bool,
    /// `colour`, or `print` (black and white).
    #[arg(long, default_value = "colour")]
    pub theme: Theme,
    /// The seed of the games Murus plays to find the figures and of the
    /// example game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long)]
    pub json: bool,
}

/// What a sheet command wrote.
#[derive(Serialize)]
pub struct Written {
    pub file: PathBuf,
    pub bytes: usize,
    /// Figures drawn (`<figure` elements).
    pub figures: usize,
}

impl Answer for Written {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "wrote {} ({} figures, {} KB); print it from a browser for a PDF",
            self.file.display(),
            self.figures,
            self.bytes.div_ceil(1024)
        )
    }
}

/// `murus sheet VARIANT --out DIR`.
pub fn rules_sheet(a: &SheetArgs) -> Result<Written> {
    check_out(&a.out, a.force)?;
    let v = load_variant(&a.variant)?;
    let mut options = SheetOptions {
        theme: a.theme,
        game_seed: a.seed,
        ..SheetOptions::default()
    };
    options.search.seed = a.seed;
    let html = rules_sheet_html(&v, &options)?;
    write_index(&a.out, &html)
}

/// Refuses a folder that holds anything (never overwrite silently), and a
/// path that is a file, before any work is done.
pub(crate) fn check_out(dir: &Path, force: bool) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        bail!("--out {}: is a file, not a folder", dir.display());
    }
    if force || !dir.exists() {
        return Ok(());
    }
    let mut entries = std::fs::read_dir(dir).with_context(|| format!("--out {}", dir.display()))?;
    if entries.next().is_some() {
        bail!(
            "--out {}: the folder is not empty; give --force to write into it (its index.html is replaced)",
            dir.display()
        );
    }
    Ok(())
}

/// Writes `DIR/index.html` whole or not at all.
pub(crate) fn write_index(dir: &Path, html: &str) -> Result<Written> {
    std::fs::create_dir_all(dir).with_context(|| format!("--out {}", dir.display()))?;
    let file = dir.join("index.html");
    murus_engine::util::write_atomic(&file, html).with_context(|| file.display().to_string())?;
    Ok(Written {
        file,
        bytes: html.len(),
        figures: html.matches("<figure").count(),
    })
}
