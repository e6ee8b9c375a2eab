//! `murus lab merge`: the shards of a run (`selfplay --shard K/N --out
//! DIR`) put back together into the whole run's report.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use murus_lab::Report;
use serde::Serialize;

use super::selfplay::summary;
use crate::answer::Answer;

#[derive(Args)]
pub struct MergeArgs {
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Write the merged games and report here.
    #[arg(long)]
    pub out: Option<PathBuf>,
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
    let (report, games) = murus_lab::merge(&paths)?;
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

    fn notes(&self) -> String {
        let r = &self.report;
        if r.games < r.provenance.requested {
            format!(
                "note: {} of {} games present; the rest of the shards are missing\n",
                r.games, r.provenance.requested
            )
        } else {
            String::new()
        }
    }
}
