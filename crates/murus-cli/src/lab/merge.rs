//! `murus lab merge`: the shards of a run (`selfplay --shard K/N --out
//! DIR`) put back together into the whole run's report.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use murus_lab::Report;
use serde::Serialize;

use super::merge_error;
use super::selfplay::summary;
use crate::answer::Answer;

#[derive(Args)]
pub struct MergeArgs {
    /// The shards' --out folders.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Write the merged games and report here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Merge the shards present even when some are missing or were
    /// interrupted; the report lists the shards missing
    /// (`missing_shards`). Without it such a merge fails, naming them, and
    /// writes nothing.
    #[arg(long)]
    pub allow_partial: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `murus lab merge`'s answer: the whole run's report.
#[derive(Serialize)]
pub struct Merged {
    pub report: Report,
}

pub fn merge(a: &MergeArgs) -> Result<Merged> {
    let paths: Vec<&Path> = a.dirs.iter().map(PathBuf::as_path).collect();
    let (report, games) =
        murus_lab::merge(&paths, super::partial(a.allow_partial)).map_err(merge_error)?;
    if let Some(dir) = &a.out {
        murus_lab::write_outputs(dir, &report, &games)?;
    }
    Ok(Merged { report })
}

impl Answer for Merged {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        summary(&self.report, out)
    }

    /// The report, as `report.json` holds it.
    fn json(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{}", self.report.to_json())
    }

    /// What a partial merge lacks (`--allow-partial`).
    fn notes(&self) -> String {
        let r = &self.report;
        let mut notes = String::new();
        if !r.missing_shards.is_empty() {
            notes.push_str(&format!(
                "note: {} of {} games present; the shards missing: {}\n",
                r.games,
                r.provenance.requested,
                r.missing_shards.join(", ")
            ));
        }
        if r.interrupted {
            notes.push_str(
                "note: a shard was interrupted: resume it with --resume, then merge again\n",
            );
        }
        notes
    }
}
