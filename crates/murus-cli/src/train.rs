//! `murus train`: an evaluation learned for one variant (a thin shell over
//! `murus_lab::train`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use murus_ai::BotSpec;
use murus_engine::Variant;
use murus_lab::train::{
    DataSpec, FitSettings, TrainOptions, TrainProgress, Validation, describe_trained,
    save_evaluation, train,
};
use murus_lab::{LabError, Watch};
use serde::Serialize;

use crate::answer::Answer;
use crate::lab::{RunArgs, note_fresh};
use crate::load_variant;
use crate::progress::Look;

#[derive(Args)]
#[command(mut_arg("out", |a| a.help(
    "The evaluation file to write (default: VARIANT.eval, beside a rules file or in the current \
     folder); the run's data is kept in a folder beside it (VARIANT.train)"
)))]
pub struct TrainArgs {
    /// A `.mg` file or a shipped variant's name.
    pub variant: String,
    /// Positions of self-play to learn from.
    #[arg(long, default_value_t = 400_000)]
    pub positions: u64,
    /// Stop playing games after this many minutes (and fit what was
    /// played); the data then depends on the machine's speed.
    #[arg(long)]
    pub minutes: Option<f64>,
    #[command(flatten)]
    pub run: RunArgs,
    /// The bot that plays the games and scores the positions: a searching
    /// level (`medium`, `hard`, `expert`) or `alphabeta:NODES`.
    #[arg(long, default_value = "alphabeta:4000")]
    pub bot: String,
    /// Hidden units of the network.
    #[arg(long, default_value_t = 32)]
    pub hidden: usize,
    /// Passes over the data.
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 0.0005)]
    pub rate: f32,
    /// Positions per step of the fit.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Nodes a move in the validation match against the current evaluation.
    #[arg(long, default_value_t = 20_000)]
    pub validate_nodes: u64,
    /// Keep the network without a validation match.
    #[arg(long)]
    pub no_validate: bool,
}

fn default_out(args: &TrainArgs, v: &Variant) -> PathBuf {
    let p = Path::new(&args.variant);
    if p.extension().is_some_and(|e| e == "mg") {
        p.with_extension(murus_ai::evalfile::EXTENSION)
    } else {
        PathBuf::from(format!("{}.{}", v.name(), murus_ai::evalfile::EXTENSION))
    }
}

/// `murus train`'s answer: what the run did, and the file it wrote.
#[derive(Serialize)]
pub struct Training {
    /// The outcome's sentences ([`murus_lab::train::TrainOutcome::lines`]),
    /// then where the data is.
    pub lines: Vec<String>,
    /// The evaluation file written, and what it holds; none when no
    /// candidate was kept.
    pub wrote: Option<(String, String)>,
    pub seconds: f64,
    pub threads: usize,
    /// The data folder, when Ctrl-C (or SIGTERM, SIGHUP) stopped the run.
    pub interrupted: Option<String>,
}

pub fn run(args: &TrainArgs) -> Result<Training> {
    let v = &load_variant(&args.variant)?;
    let bot: BotSpec = args.bot.parse().context("--bot")?;
    if !matches!(bot, BotSpec::AlphaBeta { .. }) {
        bail!(
            "--bot {}: the positions are scored by an alpha-beta search: give medium, hard, expert or alphabeta:NODES",
            args.bot
        );
    }
    if args.positions == 0 {
        bail!("--positions must be at least 1");
    }
    if args.minutes.is_some_and(|m| !(m > 0.0 && m.is_finite())) {
        bail!("--minutes must be a positive number");
    }
    if !(1..=murus_ai::nnue::MAX_HIDDEN).contains(&args.hidden) {
        bail!("--hidden must be from 1 to {}", murus_ai::nnue::MAX_HIDDEN);
    }
    if args.epochs == 0 || args.batch == 0 || !(args.rate > 0.0 && args.rate.is_finite()) {
        bail!("--epochs and --batch must be at least 1, --rate positive");
    }
    let threads = args.run.threads()?;
    let file = args.run.out.clone().unwrap_or_else(|| default_out(args, v));
    let dir = file.with_extension("train");
    let started = Instant::now();
    let options = TrainOptions {
        positions: args.positions,
        // Most of the time goes to playing games; the fit and the match
        // take the rest.
        deadline: args
            .minutes
            .map(|m| started + Duration::from_secs_f64(m * 60.0 * 0.75)),
        threads,
        seed: args.run.seed,
        bot,
        fit: FitSettings {
            hidden: args.hidden,
            epochs: args.epochs,
            batch: args.batch,
            rate: args.rate,
            seed: args.run.seed,
        },
        validate: (!args.no_validate).then(|| Validation {
            nodes: args.validate_nodes,
            ..Validation::default()
        }),
    };
    // Ctrl-C stops at the next game; the data so far stays for --resume.
    let watch = Watch::with_cancel(crate::signal::stop());
    let mode = args.run.mode();
    note_fresh::<DataSpec>(&dir, mode);
    let outcome = std::thread::scope(|s| {
        let work = s.spawn(|| train(v, &options, &dir, mode, &watch));
        crate::progress::show(
            "{msg:24} {bar:40} {pos}/{len} ({elapsed})",
            args.run.json,
            || work.is_finished(),
            || {
                watch.latest().map(|p| match p {
                    TrainProgress::Data { positions, of, .. } => {
                        Look::of("self-play positions", positions, of)
                    }
                    TrainProgress::Fit { epoch, of } => {
                        Look::of("fitting: epochs", epoch as u64, of as u64)
                    }
                    TrainProgress::Validate { games, of, .. } => {
                        Look::of("validation match: games", games, of)
                    }
                })
            },
        );
        work.join()
            .unwrap_or_else(|_| Err(LabError::Panicked("the training thread".into())))
    })
    .map_err(|e| match e {
        LabError::RunExists { path, .. } => anyhow::anyhow!(
            "{path} already holds training data; pass --resume to go on with it, or remove it"
        ),
        e => e.into(),
    })?;
    let Some(o) = outcome else {
        return Ok(Training {
            lines: Vec::new(),
            wrote: None,
            seconds: started.elapsed().as_secs_f64(),
            threads,
            interrupted: Some(dir.display().to_string()),
        });
    };
    let mut lines = o.lines();
    lines.push(if o.matches.is_empty() {
        format!("The data is in {}.", dir.display())
    } else {
        format!("The data and the candidates are in {}.", dir.display())
    });
    let wrote = match &o.kept {
        Some(kept) => {
            save_evaluation(kept, &file)?;
            Some((
                file.display().to_string(),
                describe_trained(kept).to_string(),
            ))
        }
        None => None,
    };
    Ok(Training {
        lines,
        wrote,
        seconds: started.elapsed().as_secs_f64(),
        threads,
        interrupted: None,
    })
}

impl Answer for Training {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for line in &self.lines {
            writeln!(out, "{line}")?;
        }
        if let Some((file, what)) = &self.wrote {
            writeln!(out, "wrote {file} ({what}) in {:.0} s", self.seconds)?;
        }
        Ok(())
    }

    fn notes(&self) -> String {
        let mut notes = format!(
            "training in {:.0} s ({} thread(s))\n",
            self.seconds, self.threads
        );
        if let Some(dir) = &self.interrupted {
            notes.push_str(&format!(
                "interrupted: the data so far is in {dir}: --resume goes on\n"
            ));
        }
        notes
    }

    /// Failure when no candidate was kept (nothing was written).
    fn exit_code(&self) -> ExitCode {
        if self.interrupted.is_some() {
            crate::signal::interrupted()
        } else if self.wrote.is_some() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        }
    }
}
