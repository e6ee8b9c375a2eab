//! `murus selfplay`, `murus match` and `murus lab …`: thin shells over
//! `murus-lab`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use clap::{Args, Subcommand};
use murus_ai::{BotSpec, parse_specs};
use murus_engine::Variant;
use murus_engine::job::{Cancel, HandlerExt};
use murus_lab::{Book, Config, LabError, Mode, Report, RunDir, RunProgress, RunSpec, Shard};

#[derive(Args)]
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
    /// Seed of the whole run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Stop a game as a draw after this many plies (default: the variant's cap, else 1000).
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Open each game with this many random plies, the same for every game
    /// of a round of colour rotations (seeded by --seed).
    #[arg(long, default_value_t = 0)]
    pub openings: u32,
    /// Open each round of colour rotations with the next line of this
    /// opening book instead (one opening a line, moves in notation; see
    /// docs/balance.md).
    #[arg(long, value_name = "FILE", conflicts_with = "openings")]
    pub book: Option<PathBuf>,
    /// Play only shard K of N (`K/N`) of the run.
    #[arg(long)]
    pub shard: Option<String>,
    /// Keep the run in this folder: run.json first, each game appended to
    /// games.jsonl as it finishes, report.json, report.csv and report.svg at
    /// the end.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the run kept in --out: play only its missing games.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Print the report as JSON (no progress bar).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct MatchArgs {
    pub variant: String,
    pub bot_a: String,
    pub bot_b: String,
    /// Games, rounded up to pairs (default 200); with --sprt, the most to
    /// play before giving up undecided (default 100 000).
    #[arg(long)]
    pub games: Option<u64>,
    /// Sequential test `ELO0,ELO1` (α = β = 0.05): stop when decided.
    /// Negative bounds need no `=`: `--sprt -5,5`.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long)]
    pub threads: Option<usize>,
    /// Open each pair of games with this many random plies (the same for
    /// both colours), so that deterministic bots play varied games.
    #[arg(long, default_value_t = 0)]
    pub openings: u32,
    /// Keep the match in this folder, game by game (as selfplay's --out).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the match kept in --out: play only its missing games.
    #[arg(long, requires = "out")]
    pub resume: bool,
    #[arg(long)]
    pub json: bool,
}

#[derive(Subcommand)]
pub enum LabCommand {
    /// Merge shard outputs (`--out` directories of `selfplay --shard`) into one report.
    Merge {
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Write the merged games and report here.
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
}

fn specs(text: &str) -> Result<Vec<BotSpec>> {
    parse_specs(text).map_err(|e| anyhow!("--bots: {e}"))
}

fn spec(text: &str) -> Result<BotSpec> {
    text.parse().map_err(|e| anyhow!("{e}"))
}

/// An optional `--shard K/N` as `(K, N)`, with `1 <= K <= N`.
pub(crate) fn shard_option(s: Option<&str>) -> Result<Option<(u64, u64)>> {
    s.map(|s| s.parse::<Shard>().map(Shard::pair))
        .transpose()
        .map_err(|e| anyhow!("--shard {e}"))
}

/// How `--resume` opens an `--out` folder.
pub(crate) fn mode(resume: bool) -> Mode {
    if resume { Mode::Resume } else { Mode::New }
}

/// A run folder's refusal in the words of the command line: what to do
/// about a folder that holds a run, holds another one, or holds none.
pub(crate) fn folder_error(e: LabError) -> anyhow::Error {
    match e {
        LabError::RunExists { path, what, file } => anyhow!(
            "{path} already holds a {what} ({file}): add --resume to continue it, or give a new --out folder"
        ),
        e @ LabError::Mismatch { .. } => {
            anyhow!("{e}; resume with the options it started with, or give a new --out folder")
        }
        e @ LabError::NoRun { .. } => anyhow!("{e}; start it without --resume"),
        e => e.into(),
    }
}

pub(crate) fn threads(t: Option<usize>) -> Result<usize> {
    match t {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, usize::from)),
    }
}

/// A cancel flag that Ctrl-C sets: the handler of the work going on stops
/// it (its finished work kept).
pub(crate) fn ctrl_c() -> Cancel {
    let cancel = Cancel::new();
    let on_signal = cancel.clone();
    // Fails only if a handler is already set; then Ctrl-C ends the process.
    let _ = ctrlc::set_handler(move || on_signal.cancel());
    cancel
}

/// Shows a progress bar of `total` games, `done()` of them finished, until
/// `finished()`, when stderr is a terminal.
fn show_progress(total: u64, quiet: bool, done: impl Fn() -> u64, finished: impl Fn() -> bool) {
    if quiet || !std::io::stderr().is_terminal() {
        return;
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
            .expect("a valid template"),
    );
    while !finished() {
        bar.set_position(done());
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

/// The opening book of `--book FILE`, checked against `v`. A book with
/// bad lines gets their diagnostics on stderr, rendered like rustc's.
pub(crate) fn load_book(path: &Path, v: &Variant) -> Result<Arc<Book>> {
    match Book::load(path, v) {
        Ok(book) => Ok(Arc::new(book)),
        Err(LabError::Book {
            path,
            errors,
            rendered,
            ..
        }) => {
            eprintln!("{rendered}");
            let lines = if errors == 1 { "line" } else { "lines" };
            bail!("--book `{path}`: not a usable opening book ({errors} bad {lines})")
        }
        Err(e) => Err(anyhow!("--book: {e}")),
    }
}

/// The run folder of `--out DIR` (new, or with `--resume` the one there)
/// for a run of `spec`.
fn run_dir(out: Option<&Path>, resume: bool, spec: &RunSpec) -> Result<Option<RunDir>> {
    let Some(dir) = out else { return Ok(None) };
    let (dir, _) = RunDir::open(dir, spec, mode(resume)).map_err(folder_error)?;
    Ok(Some(dir))
}

pub fn selfplay(v: &Variant, a: SelfplayArgs, out: &mut impl Write) -> Result<ExitCode> {
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let bots = specs(&a.bots)?;
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
    let mut config = Config::new(v, bots, a.games, a.seed)
        .with_threads(threads(a.threads)?)
        .with_openings(a.openings);
    if let Some(path) = &a.book {
        config = config.with_book(load_book(path, v)?);
    }
    if let Some(p) = a.max_plies {
        if p == 0 {
            bail!("--max-plies must be at least 1");
        }
        config = config.with_max_plies(p);
    }
    if let Some((k, n)) = shard_option(a.shard.as_deref())? {
        config = config.with_shard(k, n)?;
    }
    // Moves are written down only when games are saved.
    config.record_moves = a.out.is_some();
    let dir = run_dir(a.out.as_deref(), a.resume, &config.run_spec())?;
    let resumed = dir.as_ref().map_or(0, |d| d.done().len() as u64);
    let t = Instant::now();
    let threads = config.threads;
    // Ctrl-C keeps the finished games from the first moment of the run.
    let cancel = ctrl_c();
    let done = Arc::new(AtomicU64::new(0));
    let seen = done.clone();
    let handler = cancel
        .clone()
        .on_progress(move |p: &RunProgress| seen.store(p.done, Ordering::Relaxed));
    let batch = murus_lab::spawn(v, config, dir, handler)?;
    let total = batch.total();
    show_progress(
        total,
        a.json,
        || done.load(Ordering::Relaxed),
        || batch.is_finished(),
    );
    let report = batch.join()?;
    let cancelled = cancel.is_cancelled();
    let secs = t.elapsed().as_secs_f64();
    let played = report.games - resumed;
    print_report(&report, a.json, out)?;
    eprintln!(
        "{played} games in {secs:.2} s ({:.0} games/s, {threads} thread(s)){}",
        played as f64 / secs.max(1e-9),
        already_played(resumed)
    );
    if cancelled {
        eprintln!(
            "interrupted: kept {} finished game(s) of {total}",
            report.games
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// The end of a run's timing line: how many games a resumed run found done.
fn already_played(resumed: u64) -> String {
    if resumed > 0 {
        format!("; {resumed} were already played")
    } else {
        String::new()
    }
}

fn print_report(report: &Report, json: bool, out: &mut impl Write) -> Result<()> {
    if json {
        write!(out, "{}", report.to_json())?;
    } else {
        summary(report, out)?;
    }
    Ok(())
}

fn summary(r: &Report, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "{}: {} games, seed {}{}{}",
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
        }
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

/// Games of a match without `--games`.
pub const MATCH_GAMES: u64 = 200;
/// The most games of a sequential test without `--games`: enough for the
/// test to decide between close hypotheses, a bound on a run that never does.
pub const SPRT_MAX_GAMES: u64 = 100_000;

/// An Elo figure for the terminal: `+147`, `-inf`.
fn elo_text(x: f64) -> String {
    if x.is_infinite() {
        (if x > 0.0 { "+inf" } else { "-inf" }).to_string()
    } else {
        format!("{x:+.0}")
    }
}

pub fn matchup(v: &Variant, a: MatchArgs, out: &mut impl Write) -> Result<ExitCode> {
    if a.games == Some(0) {
        bail!("--games must be at least 1");
    }
    let (bot_a, bot_b) = (spec(&a.bot_a)?, spec(&a.bot_b)?);
    for b in [&bot_a, &bot_b] {
        b.check(v).map_err(|e| anyhow!("{b}: {e}"))?;
    }
    let sprt = match &a.sprt {
        None => None,
        Some(s) => {
            let (e0, e1) = s
                .split_once(',')
                .and_then(|(x, y)| {
                    Some((x.trim().parse::<f64>().ok()?, y.trim().parse::<f64>().ok()?))
                })
                .filter(|(x, y)| x.is_finite() && y.is_finite() && x != y)
                .ok_or_else(|| {
                    anyhow!(
                        "--sprt `{s}`: expected ELO0,ELO1 with two different numbers, like 0,20"
                    )
                })?;
            Some((e0, e1))
        }
    };
    let max_games = a.games.unwrap_or(if sprt.is_some() {
        SPRT_MAX_GAMES
    } else {
        MATCH_GAMES
    });
    let m = murus_lab::MatchConfig {
        a: bot_a.clone(),
        b: bot_b.clone(),
        games: max_games,
        seed: a.seed,
        threads: threads(a.threads)?,
        sprt,
        openings: a.openings,
        book: None,
    };
    let dir = run_dir(a.out.as_deref(), a.resume, &m.run_spec(v)?)?;
    let resumed = dir.as_ref().map_or(0, |d| d.done().len() as u64);
    let cancel = ctrl_c();
    let done = AtomicU64::new(0);
    let handler = cancel
        .clone()
        .on_progress(|p: &RunProgress| done.store(p.done, Ordering::Relaxed));
    let t = Instant::now();
    let (result, _report) = std::thread::scope(|scope| {
        let work = scope.spawn(|| murus_lab::run_match(v, &m, &handler, dir));
        show_progress(
            max_games,
            a.json,
            || done.load(Ordering::Relaxed),
            || work.is_finished(),
        );
        work.join()
            .unwrap_or_else(|_| Err(LabError::Panicked("the match thread".into())))
    })?;
    if a.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&result)?)?;
    } else {
        writeln!(
            out,
            "{} vs {}: {} games, +{} ={} -{}, score {:.1}%, Elo {} [{}, {}]",
            bot_a,
            bot_b,
            result.games,
            result.wins,
            result.draws,
            result.losses,
            result.score * 100.0,
            elo_text(result.elo),
            elo_text(result.elo_ci95[0]),
            elo_text(result.elo_ci95[1])
        )?;
        if let Some(s) = &result.sprt {
            let decision = if s.decision == "undecided" {
                format!(
                    "undecided after {} of at most {} games",
                    result.games, s.max_games
                )
            } else {
                s.decision.clone()
            };
            writeln!(
                out,
                "SPRT [{}, {}]: {decision} (LLR {:.2}, bounds {:.2} / {:.2})",
                s.elo0, s.elo1, s.llr, s.bounds[0], s.bounds[1]
            )?;
        }
    }
    let played = done.load(Ordering::Relaxed).saturating_sub(resumed);
    eprintln!(
        "{played} games in {:.2} s{}",
        t.elapsed().as_secs_f64(),
        already_played(resumed)
    );
    Ok(if cancel.is_cancelled() {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

pub fn lab(cmd: LabCommand, out: &mut impl Write) -> Result<ExitCode> {
    match cmd {
        LabCommand::Merge {
            dirs,
            out: dir,
            json,
        } => {
            let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
            let (report, games) = murus_lab::merge(&paths)?;
            if let Some(dir) = &dir {
                murus_lab::write_outputs(dir, &report, &games)?;
            }
            print_report(&report, json, out)?;
            if report.games < report.provenance.requested {
                eprintln!(
                    "note: {} of {} games present; the rest of the shards are missing",
                    report.games, report.provenance.requested
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
