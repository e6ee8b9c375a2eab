//! `murus balance`: a thin shell over `murus_lab::balance`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use clap::Args;
use murus_engine::Variant;
use murus_lab::Watch;
use murus_lab::balance::{self, BalanceConfig, BalanceReport, CheckProgress, Stopping};

/// The levels a check plays without `--levels`.
pub const DEFAULT_LEVELS: &str = "random,easy,medium,hard";

#[derive(Args)]
pub struct BalanceArgs {
    /// A `.mg` file or a shipped variant's name.
    #[arg(required_unless_present = "merge")]
    pub variant: Option<String>,
    /// Levels to play, comma-separated: random, easy, medium, hard, expert.
    #[arg(long, default_value = DEFAULT_LEVELS)]
    pub levels: String,
    /// Stop a level when the first player's 95% interval is at most ±P
    /// points wide (or its edge is clear; see docs/balance.md).
    #[arg(
        long,
        value_name = "P",
        default_value_t = 4.0,
        conflicts_with = "games"
    )]
    pub precision: f64,
    /// The most games a level plays under --precision.
    #[arg(long, default_value_t = 2000, conflicts_with = "games")]
    pub max_games: u64,
    /// Exactly N games at each level instead of --precision (needed with --shard).
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// Open each round of games with K random plies (the same for every
    /// colour of the round), so that deterministic bots play varied games.
    #[arg(long, value_name = "K", default_value_t = 4)]
    pub openings: u32,
    /// Open each round of games with the next line of this opening book
    /// instead of random plies, at every level and in every skill match
    /// (one opening a line, moves in notation; see docs/balance.md).
    #[arg(long, value_name = "FILE", conflicts_with = "openings")]
    pub book: Option<PathBuf>,
    /// Games of each match between adjacent levels (the skill trace; 0: none).
    #[arg(long, default_value_t = 100)]
    pub skill_games: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Stop a game as a draw after this many plies (default: the variant's cap, else 1000).
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Play only shard K of N (`K/N`) of every level and match (needs --games).
    #[arg(long)]
    pub shard: Option<String>,
    /// Keep the check in this folder: a run folder per level
    /// (`levels/LEVEL`) and per match (`skill/UPPER-vs-LOWER`), then
    /// balance.json, balance.csv and balance.svg.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the check kept in --out: play only its missing games.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Print the report as JSON (no progress bar).
    #[arg(long)]
    pub json: bool,
    /// Merge the --out folders of a sharded check (`--shard K/N --out
    /// DIR`, one a shard) into the whole check's report; with --out, write
    /// it there as a check would.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = [
        "variant", "levels", "precision", "max_games", "games", "openings",
        "book", "skill_games", "seed", "threads", "max_plies", "shard", "resume",
    ])]
    pub merge: Vec<PathBuf>,
}

pub fn run(v: &Variant, a: BalanceArgs, out: &mut impl Write) -> Result<ExitCode> {
    let levels = balance::parse_levels(&a.levels).map_err(|e| anyhow!("--levels: {e}"))?;
    let stopping = stopping(a.games, a.precision, a.max_games)?;
    let shard = crate::lab::shard_option(a.shard.as_deref())?;
    if shard.is_some() && a.games.is_none() {
        bail!("--shard needs --games N: shards cannot share a stopping rule");
    }
    if a.max_plies == Some(0) {
        bail!("--max-plies must be at least 1");
    }
    let threads = crate::lab::threads(a.threads)?;
    // Read before anything is written: a bad book stops the check at once.
    let book = match &a.book {
        Some(path) => Some(crate::lab::load_book(path, v)?),
        None => None,
    };
    let config = BalanceConfig {
        levels,
        stopping,
        openings: if book.is_some() { 0 } else { a.openings },
        seed: a.seed,
        threads,
        shard,
        skill_games: a.skill_games,
        max_plies: a.max_plies,
        book,
    };
    let watch = Watch::with_cancel(crate::lab::ctrl_c());
    let t = Instant::now();
    let folder = a.out.as_deref().map(|o| (o, crate::lab::mode(a.resume)));
    let report = std::thread::scope(|scope| {
        let work = scope.spawn(|| balance::run_balance(v, &config, folder, &watch));
        show_progress(&watch, a.json, || work.is_finished());
        work.join()
            .unwrap_or_else(|_| Err(murus_lab::LabError::Panicked("the balance thread".into())))
    })
    .map_err(crate::lab::folder_error)?;
    if a.json {
        write!(out, "{}", report.to_json())?;
    } else {
        print_summary(&report, out)?;
    }
    eprintln!("balance check in {:.1} s", t.elapsed().as_secs_f64());
    Ok(if report.interrupted {
        eprintln!("interrupted: the finished games are kept; --resume continues");
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// The stopping rule of `--games N`, or of `--precision P` and
/// `--max-games`, checked.
pub(crate) fn stopping(games: Option<u64>, precision: f64, max_games: u64) -> Result<Stopping> {
    Ok(match games {
        Some(0) => bail!("--games must be at least 1"),
        Some(n) => Stopping::Games(n),
        None => {
            if !(precision > 0.0 && precision <= 50.0) {
                bail!(
                    "--precision {precision}: expected a half-width in points above 0 and at most 50, like 4 for ±4 points"
                );
            }
            if max_games == 0 {
                bail!("--max-games must be at least 1");
            }
            Stopping::Precision {
                precision: precision / 100.0,
                max_games,
            }
        }
    })
}

fn show_progress(watch: &Watch<CheckProgress>, quiet: bool, finished: impl Fn() -> bool) {
    if quiet || !std::io::stderr().is_terminal() {
        return;
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg:28} {bar:32} {pos}/{len} games  eta {eta}")
            .expect("a valid template"),
    );
    while !finished() {
        if let Some(p) = watch.latest() {
            bar.set_message(p.stage.to_string());
            bar.set_length(p.total);
            bar.set_position(p.done);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

/// The table of levels, the skill trace and the verdict.
pub fn print_summary(r: &BalanceReport, out: &mut impl Write) -> Result<()> {
    let openings = match &r.book {
        Some(b) => format!("openings from {} ({} lines)", b.name, b.lines),
        None => format!("{} opening plies", r.openings),
    };
    writeln!(
        out,
        "{}: balance at {} level(s), {}, {openings}, seed {}{}",
        r.variant.name,
        r.levels.len(),
        r.stopping,
        r.seed,
        if r.interrupted { " (interrupted)" } else { "" }
    )?;
    writeln!(
        out,
        "  {:<8} {:>6}  {:<22} {:>7} {:>8} {:>7}  stopped",
        "level", "games", "first player [95%]", "draws", "ply cap", "plies"
    )?;
    for l in &r.levels {
        let rep = &l.report;
        let f = &rep.first_player_advantage;
        writeln!(
            out,
            "  {:<8} {:>6}  {:<22} {:>7} {:>8} {:>7.1}  {}",
            l.level,
            rep.games,
            format!(
                "{:.1}% [{:.1}–{:.1}]",
                f.rate * 100.0,
                f.ci95[0] * 100.0,
                f.ci95[1] * 100.0
            ),
            murus_lab::report::percent(rep.draws.rate),
            murus_lab::report::percent(rep.ply_cap.rate),
            rep.length.mean,
            l.stopped.describe()
        )?;
    }
    for g in &r.skill {
        let e = |x: Option<f64>, inf: &str| x.map_or(inf.to_string(), |x| format!("{x:+.0}"));
        writeln!(
            out,
            "  skill: {} over {}: {} games, score {:.1}%, Elo {} [{}, {}]",
            g.upper,
            g.lower,
            g.games,
            g.score * 100.0,
            e(g.elo, if g.score >= 0.5 { "+inf" } else { "-inf" }),
            e(g.elo_ci95[0], "-inf"),
            e(g.elo_ci95[1], "+inf"),
        )?;
    }
    writeln!(out, "verdict:")?;
    for s in &r.verdict {
        writeln!(out, "  {s}")?;
    }
    Ok(())
}

/// `murus balance --merge DIR…`: the shards' check as one report.
pub fn merge(a: BalanceArgs, out: &mut impl Write) -> Result<ExitCode> {
    if let Some(dir) = &a.out
        && dir.join("balance.json").exists()
    {
        bail!(
            "{} already holds a balance check: give a new --out folder for the merge",
            dir.display()
        );
    }
    let dirs: Vec<&std::path::Path> = a.merge.iter().map(PathBuf::as_path).collect();
    let report = balance::merge_balance(&dirs, a.out.as_deref())?;
    if a.json {
        write!(out, "{}", report.to_json())?;
    } else {
        print_summary(&report, out)?;
    }
    for l in &report.levels {
        if l.report.games < l.report.provenance.requested {
            eprintln!(
                "note: {}: {} of {} games present; the rest of the shards are missing",
                l.level, l.report.games, l.report.provenance.requested
            );
        }
    }
    Ok(if report.interrupted {
        eprintln!("note: a shard was interrupted: resume it with --resume, then merge again");
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}
