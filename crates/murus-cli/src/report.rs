//! `murus report`: the designer's report of a variant, `DIR/index.html`
//! and `DIR/report.json` (`murus_lab::designer`, `murus_publish::report_html`).

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::{Context, Result};
use clap::Args;
use murus_engine::job::Handler;
use murus_lab::designer::{
    Budget, DesignerReport, ReportConfig, ReportProgress, merge_report, run_report,
    run_report_shard, shard_of,
};
use serde::Serialize;

use crate::answer::{Answer, json_pretty};
use crate::lab::RunArgs;
use crate::load::load_variant;

/// `murus report`'s arguments.
#[derive(Args)]
#[command(mut_arg("out", |a| a.help(
    "Keep the report in this folder: its run (each stage as it finishes), then index.html, \
     report.json and the figures (default: report-NAME)"
)))]
pub struct ReportArgs {
    /// A `.mg` file or a shipped variant's name.
    #[arg(required_unless_present = "merge")]
    pub variant: Option<String>,
    /// Under 3 minutes on two cores for the standard game (the default).
    #[arg(long, group = "budget")]
    pub quick: bool,
    /// Under 30 minutes: more games, stronger levels, a longer ladder.
    #[arg(long, group = "budget")]
    pub standard: bool,
    /// As long as it takes.
    #[arg(long, group = "budget")]
    pub deep: bool,
    /// Report on another variant alike (a file or a shipped name) and put
    /// the two side by side, marking what differs significantly.
    #[arg(long, value_name = "OTHER")]
    pub compare: Option<String>,
    /// Train an evaluation first for a variant (and the one compared with)
    /// that has none, within the budget's positions, so that both sides
    /// play with trained evaluations.
    #[arg(long)]
    pub train: bool,
    /// Play only shard K of N (`K/N`) of the report's games into --out (a
    /// cluster's job each); then `murus report --merge DIR…` makes the
    /// report from the shards' folders (docs/report.md).
    #[arg(long, value_name = "K/N", requires = "out")]
    pub shard: Option<String>,
    /// Make the report from the --out folders of its shards (`--shard K/N
    /// --out DIR`, one a shard), with the variant and options they were
    /// made with, playing only what needs every shard's games.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = [
        "variant", "quick", "standard", "deep", "seed", "compare", "train", "shard",
    ])]
    pub merge: Vec<PathBuf>,
    #[command(flatten)]
    pub run: RunArgs,
}

/// `murus report`'s answer.
#[derive(Serialize)]
#[serde(transparent)]
pub struct Reported {
    /// `None` for a shard, or a report stopped before its end.
    pub report: Option<DesignerReport>,
    /// The shard played (`K/N`), which writes no report.
    #[serde(skip)]
    pub shard: Option<String>,
    #[serde(skip)]
    pub out: PathBuf,
    /// Wall-clock seconds the command took.
    #[serde(skip)]
    pub seconds: f64,
}

/// `murus report`.
pub fn report(a: &ReportArgs) -> Result<Reported> {
    // A merge is made with what its shards were made with.
    let of = match a.merge.first() {
        Some(dir) => Some(shard_of(dir)?),
        None => None,
    };
    let budget = if let Some(of) = &of {
        of.budget
    } else if a.deep {
        Budget::Deep
    } else if a.standard {
        Budget::Standard
    } else {
        Budget::Quick
    };
    let (variant, compare, seed) = match &of {
        Some(of) => (of.variant.clone(), of.compare.clone(), of.seed),
        None => (
            a.variant.clone().unwrap_or_default(),
            a.compare.clone(),
            a.run.seed,
        ),
    };
    let threads = a.run.threads()?;
    let started = std::time::Instant::now();
    let v = load_variant(&variant)?;
    let other = match &compare {
        Some(spec) => Some((load_variant(spec).context("--compare")?, spec.clone())),
        None => None,
    };
    let out = a
        .run
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("report-{}", v.name())));
    let mode = a.run.mode();
    let mut config = ReportConfig::new(budget, seed, threads);
    config.compare = other.clone();
    config.train = a.train;
    let shard = crate::lab::shard_arg(a.shard.as_deref())?;
    // Said before the first stage: the threads are the one setting the
    // figures do not show.
    let whose = shard.map_or(String::new(), |s| format!(" (shard {s})"));
    eprintln!(
        "report of {}{whose} at --{}, seed {seed}, on {threads} thread(s), into {}",
        v.name(),
        budget.name(),
        out.display()
    );
    let cancel = crate::signal::stop();
    let progress = Stages {
        cancel: cancel.clone(),
        last: Mutex::new(None),
    };
    let made = match (shard, a.merge.is_empty()) {
        (Some(s), _) => {
            run_report_shard(&v, &variant, &config, s, (&out, mode), &progress).map(|()| None)
        }
        (None, true) => run_report(&v, &variant, &config, Some((&out, mode)), &progress).map(Some),
        (None, false) => {
            merge_report(&v, &variant, &config, &a.merge, (&out, mode), &progress).map(Some)
        }
    };
    let report = match made {
        Ok(Some(r)) => r,
        Ok(None) => {
            return Ok(Reported {
                report: None,
                shard: shard.map(|s| s.to_string()),
                out,
                seconds: started.elapsed().as_secs_f64(),
            });
        }
        Err(_) if cancel.is_cancelled() => {
            eprintln!(
                "interrupted: the finished stages are kept in {}; --resume goes on",
                out.display()
            );
            return Ok(Reported {
                report: None,
                shard: None,
                out,
                seconds: started.elapsed().as_secs_f64(),
            });
        }
        Err(e) => return Err(e.into()),
    };
    murus_publish::write_report(&out, &v, &report, other.as_ref().map(|(ov, _)| ov))?;
    Ok(Reported {
        report: Some(report),
        shard: None,
        out,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Names each stage on stderr as it starts; stops on Ctrl-C.
struct Stages {
    cancel: murus_engine::job::Cancel,
    last: Mutex<Option<&'static str>>,
}

impl Handler<ReportProgress> for Stages {
    fn stop(&self) -> bool {
        self.cancel.is_cancelled()
    }
    fn progress(&self, p: &ReportProgress) {
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *last != Some(p.stage) {
            *last = Some(p.stage);
            eprintln!("[{}/{}] {}", p.index + 1, p.of, p.stage);
        }
    }
}

impl Answer for Reported {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(s) = &self.shard {
            return writeln!(
                out,
                "shard {s} played into {} in {:.0} s; when every shard has, `murus report --merge DIR…` (every shard's folder) makes the report",
                self.out.display(),
                self.seconds
            );
        }
        let Some(r) = &self.report else {
            return Ok(());
        };
        for (name, answer) in r.answers() {
            writeln!(out, "{name}: {answer}")?;
        }
        writeln!(
            out,
            "wrote {} and {} in {:.0} s",
            self.out.join("index.html").display(),
            self.out.join("report.json").display(),
            self.seconds
        )
    }

    fn json(&self, out: &mut dyn Write) -> io::Result<()> {
        match &self.shard {
            Some(s) => json_pretty(
                &serde_json::json!({ "shard": s, "out": self.out.display().to_string() }),
                out,
            ),
            None => json_pretty(self, out),
        }
    }

    fn exit_code(&self) -> ExitCode {
        if self.report.is_none() && self.shard.is_none() {
            crate::signal::interrupted()
        } else {
            ExitCode::SUCCESS
        }
    }
}
