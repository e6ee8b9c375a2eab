//! `murus train`: an evaluation learned for one variant.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use murus_ai::nnue::Shape;
use murus_ai::{BotSpec, EvalFile, Trained};
use murus_engine::{Engine, EngineTask, Variant, Word};
use murus_lab::train::{DataDir, DataProgress, DataSpec, FitSettings, examples, fit_network};

#[derive(Args)]
pub struct TrainArgs {
    /// A `.mg` file or a shipped variant's name.
    pub variant: String,
    /// Positions of self-play to learn from.
    #[arg(long, default_value_t = 200_000)]
    pub positions: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The evaluation file to write (default: VARIANT.eval, beside a rules
    /// file or in the current folder).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Go on with the data already in the training folder.
    #[arg(long)]
    pub resume: bool,
    /// The bot that plays the games and scores the positions.
    #[arg(long, default_value = "alphabeta:4000")]
    pub bot: String,
    /// Hidden units of the network.
    #[arg(long, default_value_t = 32)]
    pub hidden: usize,
    /// Passes over the data.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
}

fn default_out(args: &TrainArgs, v: &Variant) -> PathBuf {
    let p = Path::new(&args.variant);
    if p.extension().is_some_and(|e| e == "mg") {
        p.with_extension(murus_ai::evalfile::EXTENSION)
    } else {
        PathBuf::from(format!("{}.{}", v.name(), murus_ai::evalfile::EXTENSION))
    }
}

pub fn train(v: &Variant, args: TrainArgs, out: &mut impl Write) -> Result<ExitCode> {
    if v.player_count() != 2 {
        bail!(
            "`{}` has {} players: murus train learns two-player variants",
            args.variant,
            v.player_count()
        );
    }
    let bot: BotSpec = args.bot.parse()?;
    if !matches!(bot, BotSpec::AlphaBeta { .. }) {
        bail!("--bot: the data's bot must be alpha-beta (its scores label the positions)");
    }
    let file = args.out.clone().unwrap_or_else(|| default_out(&args, v));
    let dir = file.with_extension("train");
    let spec = DataSpec::new(v, &bot, args.seed);
    if dir.join("train.json").exists() && !args.resume {
        bail!(
            "{} already holds training data; pass --resume to go on with it, or remove it",
            dir.display()
        );
    }
    let mut data = DataDir::open(&dir, &spec)?;
    let progress = DataProgress::default();
    let started = Instant::now();
    let bar = indicatif::ProgressBar::new(args.positions);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{msg:12} [{bar:40}] {pos}/{len} positions ({eta})",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_message("self-play");
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| -> Result<()> {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                bar.set_position(
                    progress
                        .positions
                        .load(Ordering::Relaxed)
                        .min(args.positions),
                );
                std::thread::sleep(Duration::from_millis(200));
            }
        });
        let r = data.generate(v, args.positions, args.threads, &progress);
        done.store(true, Ordering::Relaxed);
        r?;
        Ok(())
    })?;
    bar.finish_and_clear();
    let games = data.prefix(args.positions);
    let examples = examples(v, &games)?;
    writeln!(
        out,
        "data: {} positions from {} games in {:.0} s ({})",
        examples.len(),
        games.len(),
        started.elapsed().as_secs_f64(),
        dir.display()
    )?;
    let shape = v.run(ShapeOf);
    let settings = FitSettings {
        hidden: args.hidden,
        epochs: args.epochs,
        seed: args.seed,
        ..FitSettings::default()
    };
    let fit_started = Instant::now();
    let (net, report) = fit_network(shape, &examples, settings, &mut |epoch, error| {
        eprintln!("epoch {epoch}: held-out error {error:.5}");
        true
    });
    writeln!(
        out,
        "network: {} inputs, {} hidden; held-out error {:.5} -> {:.5} in {} epochs ({:.0} s)",
        shape.inputs(),
        net.hidden,
        report.error_before,
        report.error_after,
        report.epochs,
        fit_started.elapsed().as_secs_f64()
    )?;
    let eval = EvalFile {
        variant_sha256: murus_ai::evalfile::source_digest(v.source()),
        note: format!(
            "murus train {}: {} positions of {} self-play, seed {}, {} hidden units",
            v.name(),
            examples.len(),
            spec.bot,
            args.seed,
            net.hidden
        ),
        trained: Trained::Network(net),
    };
    std::fs::write(&file, eval.to_bytes())
        .with_context(|| format!("cannot write {}", file.display()))?;
    writeln!(out, "wrote {}", file.display())?;
    Ok(ExitCode::SUCCESS)
}

struct ShapeOf;

impl EngineTask for ShapeOf {
    type Output = Shape;
    fn run<B: Word>(self, e: &Engine<B>) -> Shape {
        Shape::of(e)
    }
}
