//! `murus bench serve`: the playtest server under load. A server is
//! started in-process on 127.0.0.1 over a fresh data folder (a real SQLite
//! file, as `murus serve` keeps it), and many human-vs-human games are
//! played at once through its HTTP API by [`murus_serve::load`]'s client;
//! each move's latency is timed. Every move must be answered 200 and every
//! game's record kept complete, or the bench fails.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use murus_serve::load::{self, Plan};
use serde::Serialize;

use crate::answer::Answer;

/// `murus bench serve`'s arguments.
#[derive(Args)]
pub struct ServeBenchArgs {
    /// Games played at once.
    #[arg(long, default_value_t = 500)]
    pub games: usize,
    /// Plies each game is played to (or to its end).
    #[arg(long, default_value_t = 20)]
    pub moves: usize,
    /// A player's think time before each move, in milliseconds, uniformly
    /// from LO to HI (`0`: flat out, the throughput ceiling).
    #[arg(long, default_value = "500-1500", value_name = "LO-HI")]
    pub think: String,
    /// Runs; the figures printed last are their medians.
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// The seed of the moves and think times.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// One run's figures.
#[derive(Clone, Serialize)]
pub struct Run {
    pub games: usize,
    pub moves: usize,
    pub seconds: f64,
    pub moves_per_second: f64,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub errors: usize,
}

/// `murus bench serve`'s answer.
#[derive(Serialize)]
pub struct ServeBench {
    pub games: usize,
    pub plies: usize,
    pub think_ms: (u64, u64),
    pub seed: u64,
    pub cores: usize,
    pub runs: Vec<Run>,
    pub median: Run,
    /// The first errors seen, for the notes.
    pub first_errors: Vec<String>,
}

/// `LO-HI` (or one number) in milliseconds.
fn think(text: &str) -> Result<(u64, u64)> {
    let parse = |t: &str| {
        t.trim()
            .parse::<u64>()
            .with_context(|| format!("--think {text}: `{t}` is not a number of milliseconds"))
    };
    let (lo, hi) = match text.split_once('-') {
        Some((lo, hi)) => (parse(lo)?, parse(hi)?),
        None => {
            let n = parse(text)?;
            (n, n)
        }
    };
    if lo > hi {
        bail!("--think {text}: the least think time is over the most");
    }
    Ok((lo, hi))
}

/// `murus bench serve`: `runs` loads, each on a fresh server.
pub fn bench(a: &ServeBenchArgs) -> Result<ServeBench> {
    if a.games == 0 || a.runs == 0 {
        bail!("--games and --runs must be at least 1");
    }
    let think_ms = think(&a.think)?;
    let plan = Plan {
        games: a.games,
        plies: a.moves,
        think: (
            Duration::from_millis(think_ms.0),
            Duration::from_millis(think_ms.1),
        ),
        seed: a.seed,
        variant: "standard".into(),
        patience: Duration::from_secs(60) + Duration::from_millis(think_ms.1) * a.moves as u32 * 4,
    };
    let mut runs = Vec::new();
    let mut first_errors = Vec::new();
    for _ in 0..a.runs {
        let (run, errors) = one_run(&plan)?;
        runs.push(run);
        first_errors.extend(errors.into_iter().take(5 - first_errors.len().min(5)));
    }
    let med = |f: fn(&Run) -> f64| super::median(runs.iter().map(f).collect());
    let median = Run {
        games: a.games,
        moves: med(|r| r.moves as f64) as usize,
        seconds: med(|r| r.seconds),
        moves_per_second: med(|r| r.moves_per_second),
        p50_ms: med(|r| r.p50_ms),
        p90_ms: med(|r| r.p90_ms),
        p99_ms: med(|r| r.p99_ms),
        max_ms: med(|r| r.max_ms),
        errors: runs.iter().map(|r| r.errors).sum(),
    };
    Ok(ServeBench {
        games: a.games,
        plies: a.moves,
        think_ms,
        seed: a.seed,
        cores: murus_engine::util::default_threads(),
        runs,
        median,
        first_errors,
    })
}

/// One load on a fresh server over a fresh data folder (removed after).
fn one_run(plan: &Plan) -> Result<(Run, Vec<String>)> {
    let dir = load::temp_folder("bench-serve").context("a temporary data folder")?;
    let result = run_in(&dir, plan);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn run_in(dir: &std::path::Path, plan: &Plan) -> Result<(Run, Vec<String>)> {
    let server = murus_serve::Server::open(dir)?;
    server.add_shipped()?;
    // The server's runtime as `murus serve` makes it; the client has its
    // own, on this thread.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    let addr = runtime.block_on(load::listen(&server))?;
    let client = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the client's runtime")?;
    let report = client.block_on(load::run(addr, plan));
    runtime.shutdown_timeout(Duration::from_secs(5));
    let mut errors = report.errors.clone();
    errors.extend(load::check(&server, &report));
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let run = Run {
        games: report.games.len(),
        moves: report.moves(),
        seconds: report.seconds,
        moves_per_second: report.moves_per_second(),
        p50_ms: ms(report.latency(50.0)),
        p90_ms: ms(report.latency(90.0)),
        p99_ms: ms(report.latency(99.0)),
        max_ms: ms(report.latency(100.0)),
        errors: errors.len(),
    };
    Ok((run, errors))
}

impl Run {
    fn text(&self, label: &str, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{label:<7} {:>6} {:>7} {:>8.1} {:>8.0} {:>7.1} {:>7.1} {:>7.1} {:>7.1} {:>6}",
            self.games,
            self.moves,
            self.seconds,
            self.moves_per_second,
            self.p50_ms,
            self.p90_ms,
            self.p99_ms,
            self.max_ms,
            self.errors
        )
    }
}

impl Answer for ServeBench {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let think = match self.think_ms {
            (0, 0) => "flat out (no think time)".to_string(),
            (lo, hi) if lo == hi => format!("think {lo} ms"),
            (lo, hi) => format!("think {lo}-{hi} ms"),
        };
        writeln!(
            out,
            "murus bench serve: {} human-vs-human games at once to {} plies over loopback, {think}, seed {}, {} core(s), median of {} run(s)",
            self.games,
            self.plies,
            self.seed,
            self.cores,
            self.runs.len()
        )?;
        writeln!(
            out,
            "{:<7} {:>6} {:>7} {:>8} {:>8} {:>7} {:>7} {:>7} {:>7} {:>6}",
            "run",
            "games",
            "moves",
            "seconds",
            "moves/s",
            "p50 ms",
            "p90 ms",
            "p99 ms",
            "max ms",
            "errors"
        )?;
        for (i, r) in self.runs.iter().enumerate() {
            r.text(&(i + 1).to_string(), out)?;
        }
        self.median.text("median", out)?;
        writeln!(
            out,
            "move latency: POST /api/games/{{id}}/moves, send to answer (target: p99 under 50 ms at 500 games, people-like)"
        )
    }

    fn notes(&self) -> String {
        self.first_errors
            .iter()
            .map(|e| format!("error: {e}\n"))
            .collect()
    }

    fn exit_code(&self) -> ExitCode {
        if self.median.errors == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        }
    }
}
