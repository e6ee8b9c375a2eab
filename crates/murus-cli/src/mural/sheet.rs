//! `murus mural sheet`: a printable page of murals and their solutions,
//! through `murus_publish::mural_sheet_html` (docs/sheets.md).

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use murus_publish::mural_sheet::MuralSheetOptions;
use murus_publish::{Theme, mural_sheet_html};

use crate::sheet::{Written, check_out, write_index};

/// `murus mural sheet`'s arguments.
#[derive(Args)]
pub struct MuralSheetArgs {
    /// Puzzle files (`puzzles/*.toml`), in the order they are printed.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
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
    /// The solver's budget per puzzle, in nodes.
    #[arg(long, default_value_t = 50_000_000)]
    pub budget: u64,
    #[arg(long)]
    pub json: bool,
}

/// `murus mural sheet FILES… --out DIR`.
pub fn mural_sheet(a: &MuralSheetArgs) -> Result<Written> {
    check_out(&a.out, a.force)?;
    let mut puzzles = Vec::new();
    for file in &a.files {
        puzzles.push((file.display().to_string(), super::load(file)?));
    }
    let options = MuralSheetOptions {
        theme: a.theme,
        budget: a.budget,
    };
    let html = mural_sheet_html(&puzzles, &options)?;
    write_index(&a.out, &html)
}
