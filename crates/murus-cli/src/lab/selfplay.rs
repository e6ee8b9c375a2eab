//! `murus selfplay`: a batch of games between bots, and its report.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use murus_ai::parse_specs;
use murus_engine::job::HandlerExt;
use murus_lab::{Config, Report, RunDir, RunProgress, RunSpec};
use serde::Serialize;

use super::{
    PlayArgs, RunArgs, already_played, folder_error, load_book, note_fresh, show_progress,
};
use crate::answer::Answer;
use crate::load_variant;

#[derive(Args)]
#[command(mut_arg("resume", |a| a.requires("out")))]
pub struct SelfplayArgs {
    /// A `.mg` file or a shipped variant's name.
    pub variant: String,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Bot specs, comma-separated, one per seat (a shorter list repeats):
    /// random, greedy, alphabeta[:NODES], mcts[:ITERATIONS], easy, medium, hard, expert.
    #[arg(long, default_value = "random")]
    pub bots: String,
    /// Open each game with this many random plies, the same for every game
    /// of a round of colour rotations (seeded by --seed).
    #[arg(long, default_value_t = 0)]
    pub openings: u32,
    /// Open each round of colour rotations with the next line of this
    /// opening book instead (one opening a line, moves in notation; see
    /// docs/balance.md).
    #[arg(long, value_name = "FILE", conflicts_with = "openings")]
    pub book: Option<PathBuf>,
    #[command(flatten)]
    pub play: PlayArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

/// `murus selfplay`'s answer: the run's report, and how the run went.
#[derive(Serialize)]
pub struct Selfplay {
    pub report: Report,
    /// Games played by this command (not those a resumed run found done).
    pub played: u64,
    /// Games a resumed run found done.
    pub resumed: u64,
    /// Games this run (its shard) plays in all.
    pub total: u64,
    pub threads: usize,
    pub seconds: f64,
    /// Whether Ctrl-C (or SIGTERM, SIGHUP) stopped it.
    pub cancelled: bool,
}

pub fn selfplay(a: &SelfplayArgs) -> Result<Selfplay> {
    let v = &load_variant(&a.variant)?;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let bots = parse_specs(&a.bots).context("--bots")?;
    for b in &bots {
        b.check(v).map_err(|e| anyhow!("--bots {b}: {e}"))?;
    }
    if bots.len() > v.player_count() {
        bail!(
            "--bots: {} bots for {} seats (`{}` has {} players)",
            bots.len(),
            v.player_count(),
            v.name(),
            v.player_count()
        );
    }
    let mut config = Config::new(v, bots, a.games, a.run.seed)
        .with_threads(a.run.threads()?)
        .with_openings(a.openings);
    if let Some(path) = &a.book {
        config = config.with_book(load_book(path, v)?);
    }
    if let Some(p) = a.play.max_plies()? {
        config = config.with_max_plies(p);
    }
    if let Some((k, n)) = a.play.shard()? {
        config = config.with_shard(k, n)?;
    }
    // Moves are written down only when games are saved.
    config.record_moves = a.run.out.is_some();
    let dir = match a.run.kept() {
        Some((out, mode)) => {
            note_fresh::<RunSpec>(out, mode);
            let (dir, _) = RunDir::open(out, &config.run_spec(), mode).map_err(folder_error)?;
            Some(dir)
        }
        None => None,
    };
    let resumed = dir.as_ref().map_or(0, |d| d.done().len() as u64);
    let t = Instant::now();
    let threads = config.threads;
    // Ctrl-C keeps the finished games from the first moment of the run.
    let cancel = crate::signal::stop();
    let done = Arc::new(AtomicU64::new(0));
    let seen = done.clone();
    let handler = cancel
        .clone()
        .on_progress(move |p: &RunProgress| seen.store(p.done, Ordering::Relaxed));
    let batch = murus_lab::spawn(v, config, dir, handler)?;
    let total = batch.total();
    show_progress(
        total,
        a.run.json,
        || done.load(Ordering::Relaxed),
        || batch.is_finished(),
    );
    let report = batch.join()?;
    Ok(Selfplay {
        played: report.games - resumed,
        resumed,
        total,
        threads,
        seconds: t.elapsed().as_secs_f64(),
        cancelled: cancel.is_cancelled(),
        report,
    })
}

impl Answer for Selfplay {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        summary(&self.report, out)
    }

    /// The report, as `report.json` holds it.
    fn json(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{}", self.report.to_json())
    }

    fn notes(&self) -> String {
        let mut notes = format!(
            "{} games in {:.2} s ({:.0} games/s, {} thread(s)){}\n",
            self.played,
            self.seconds,
            self.played as f64 / self.seconds.max(1e-9),
            self.threads,
            already_played(self.resumed)
        );
        if self.cancelled {
            notes.push_str(&format!(
                "interrupted: kept {} finished game(s) of {}\n",
                self.report.games, self.total
            ));
        }
        notes
    }

    fn exit_code(&self) -> ExitCode {
        if self.cancelled {
            crate::signal::interrupted()
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// A run's report for people: its header, then a labelled line per figure.
pub(super) fn summary(r: &Report, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "{}: {} games, seed {}{}{}{}",
        r.provenance.variant.name,
        r.games,
        r.provenance.seed,
        r.provenance
            .book
            .as_ref()
            .map_or(String::new(), |b| format!(", openings from {}", b.name)),
        if r.interrupted {
            format!(" (interrupted: {} requested)", r.provenance.requested)
        } else {
            String::new()
        },
        super::partial_text(&r.missing_shards)
    )?;
    let lines = r.summary(|c| format!("Colour {c}"));
    let width = lines
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    for (label, text) in lines {
        writeln!(out, "  {label:<width$}  {text}")?;
    }
    Ok(())
}
