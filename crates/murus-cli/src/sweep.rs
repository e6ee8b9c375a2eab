//! `murus sweep`: a thin shell over `murus_lab::sweep`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use clap::Args;
use murus_lab::Watch;
use murus_lab::balance::{self, BalanceConfig};
use murus_lab::report::percent;
use murus_lab::sweep::{self, SweepConfig, SweepError, SweepProgress, SweepReport};

#[derive(Args)]
pub struct SweepArgs {
    /// A rule file (`.mg`) that declares parameters (`param files = 7..9`),
    /// or a shipped variant's name (one combination: itself).
    #[arg(required_unless_present = "merge")]
    pub file: Option<String>,
    /// Sweep these values of a parameter instead of its declared ones:
    /// `--set files=7..9`, `--set ranks=6,8`, `--set limit=3`. Repeat for
    /// several parameters; each value must be one the file declares.
    #[arg(long = "set", value_name = "NAME=VALUES", value_parser = parse_set)]
    pub set: Vec<(String, Vec<u32>)>,
    /// Levels to play at each combination, comma-separated: random, easy,
    /// medium, hard, expert.
    #[arg(long, default_value = crate::balance::DEFAULT_LEVELS)]
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
    /// Exactly N games at each level instead of --precision.
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// Open each round of games with K random plies.
    #[arg(long, value_name = "K", default_value_t = 4)]
    pub openings: u32,
    /// Games of each match between adjacent levels (the skill trace; the
    /// ranking does not use it, so a sweep plays none unless asked).
    #[arg(long, default_value_t = 0)]
    pub skill_games: u64,
    /// The seed of every combination's check.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Stop a game as a draw after this many plies (default: each
    /// combination's cap, else 1000).
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Play only shard K of N (`K/N`): the combinations numbered K-1, K-1+N,
    /// K-1+2N… (from 0, in the sweep's order). Merge the shards' --out
    /// folders with `murus sweep --merge`.
    #[arg(long)]
    pub shard: Option<String>,
    /// Keep the sweep in this folder: sweep-run.json first, each
    /// combination's balance check in combos/NAME=VALUE,…/, then
    /// sweep.json, sweep.csv and sweep.svg.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the sweep kept in --out: play only its missing games.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Print sweep.json's report (no progress bar).
    #[arg(long)]
    pub json: bool,
    /// Merge the --out folders of a sharded sweep (`--shard K/N`, one a
    /// shard) into the whole table; with --out, write sweep.json, .csv and
    /// .svg there.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = [
        "file", "set", "levels", "precision", "max_games", "games", "openings",
        "skill_games", "seed", "threads", "max_plies", "shard", "resume",
    ])]
    pub merge: Vec<PathBuf>,
}

/// `--set NAME=VALUES`: a parameter's name and the values to sweep.
fn parse_set(text: &str) -> Result<(String, Vec<u32>), String> {
    let Some((name, values)) = text.split_once('=') else {
        return Err(format!(
            "`{text}` is not NAME=VALUES (for example `files=7..9` or `ranks=6,8`)"
        ));
    };
    let name = name.trim().trim_start_matches('$');
    let is_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_name {
        return Err(format!(
            "`{name}` is not a parameter name (a letter or `_`, then letters, digits and `_`)"
        ));
    }
    let values = sweep::parse_values(values).map_err(|e| format!("{name}: {e}"))?;
    Ok((name.to_string(), values))
}

pub fn run(a: SweepArgs, out: &mut impl Write) -> Result<ExitCode> {
    if !a.merge.is_empty() {
        return merge(&a, out);
    }
    let Some(file) = a.file.as_deref() else {
        bail!("give a rule file to sweep, or --merge DIR… to merge a sweep's shards");
    };
    let (source, _) = crate::rules_source(file)?;
    let levels = balance::parse_levels(&a.levels).map_err(|e| anyhow!("--levels: {e}"))?;
    let stopping = crate::balance::stopping(a.games, a.precision, a.max_games)?;
    let shard = crate::lab::shard_option(a.shard.as_deref())?;
    if a.max_plies == Some(0) {
        bail!("--max-plies must be at least 1");
    }
    let config = SweepConfig {
        set: a.set.clone(),
        balance: BalanceConfig {
            levels,
            stopping,
            openings: a.openings,
            seed: a.seed,
            threads: crate::lab::threads(a.threads)?,
            shard: None,
            skill_games: a.skill_games,
            max_plies: a.max_plies,
            book: None,
        },
        shard,
    };
    // The parameters first: a broken declaration or a bad --set stops
    // the sweep before anything is played or written.
    let space = sweep::space(&source, &config.set).map_err(|e| fail(e, file, &source))?;
    let watch = Watch::with_cancel(crate::lab::ctrl_c());
    let t = Instant::now();
    let folder = a.out.as_deref().map(|o| (o, crate::lab::mode(a.resume)));
    let result = std::thread::scope(|scope| {
        let work = scope.spawn(|| sweep::run_sweep(file, &source, &config, folder, &watch));
        show_progress(&watch, a.json, || work.is_finished());
        work.join().unwrap_or_else(|_| {
            Err(SweepError::Lab(murus_lab::LabError::Panicked(
                "the sweep thread".into(),
            )))
        })
    });
    let report = result.map_err(|e| fail(e, file, &source))?;
    if a.json {
        write!(out, "{}", report.to_json())?;
    } else {
        print_table(&report, out)?;
    }
    for s in &report.skipped {
        eprint!("{}", s.diagnostics);
    }
    eprintln!(
        "sweep of {} combination(s) in {:.1} s",
        space.len(),
        t.elapsed().as_secs_f64()
    );
    exit_code(&report)
}

/// The error of a sweep, its diagnostics (if any) shown like rustc's.
fn fail(e: SweepError, file: &str, source: &str) -> anyhow::Error {
    match e {
        SweepError::Source(diags) => {
            eprint!("{}", murus_dsl::render_all(&diags, file, source));
            anyhow!("`{file}`: cannot sweep its parameters")
        }
        SweepError::Lab(e) => crate::lab::folder_error(e),
        e => anyhow!(e),
    }
}

fn exit_code(report: &SweepReport) -> Result<ExitCode> {
    if report.interrupted {
        eprintln!("interrupted: the finished games are kept; --resume continues");
        return Ok(ExitCode::from(130));
    }
    if report.rows.is_empty() && !report.skipped.is_empty() {
        bail!("no combination compiles");
    }
    Ok(ExitCode::SUCCESS)
}

/// `murus sweep --merge DIR…`.
fn merge(a: &SweepArgs, out: &mut impl Write) -> Result<ExitCode> {
    if let Some(dir) = &a.out
        && dir.join("sweep.json").exists()
    {
        bail!(
            "{} already holds a sweep: give a new --out folder for the merge",
            dir.display()
        );
    }
    let dirs: Vec<&Path> = a.merge.iter().map(PathBuf::as_path).collect();
    let report = sweep::merge_sweeps(&dirs, a.out.as_deref())?;
    if a.json {
        write!(out, "{}", report.to_json())?;
    } else {
        print_table(&report, out)?;
    }
    let missing = report.missing();
    if !missing.is_empty() {
        eprintln!(
            "note: {} of {} combinations present; the rest of the shards are missing",
            report.spec.combinations - missing.len() as u64,
            report.spec.combinations
        );
    }
    exit_code(&report)
}

fn show_progress(watch: &Watch<SweepProgress>, quiet: bool, finished: impl Fn() -> bool) {
    if quiet || !std::io::stderr().is_terminal() {
        return;
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg:52} {bar:24} {pos}/{len} games  eta {eta}")
            .expect("a valid template"),
    );
    while !finished() {
        if let Some(p) = watch.latest() {
            let combo = &p.combination;
            let mut msg = format!("{}/{} {}", combo.done + 1, combo.of, combo.label);
            if let Some(check) = &p.check {
                msg.push_str(&format!(" · {}", check.stage));
                bar.set_length(check.total);
                bar.set_position(check.done);
            }
            bar.set_message(msg);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

/// The ranked table, then the combinations skipped.
pub fn print_table(r: &SweepReport, out: &mut impl Write) -> Result<()> {
    let spec = &r.spec;
    writeln!(
        out,
        "{}: sweep of {}: {} combination(s), {} played, {} skipped{}; levels {}, {}, {} opening plies, seed {}{}",
        spec.variant.name,
        if spec.parameters.is_empty() {
            "no parameters".to_string()
        } else {
            spec.parameters.join(", ")
        },
        spec.combinations,
        r.rows.len(),
        r.skipped.len(),
        spec.shard
            .as_ref()
            .map_or(String::new(), |s| format!(" (shard {s})")),
        spec.levels.join(","),
        spec.stopping,
        spec.openings,
        spec.seed,
        if r.interrupted { " (interrupted)" } else { "" }
    )?;
    let widths: Vec<usize> = spec
        .parameters
        .iter()
        .map(|p| p.chars().count().max(3))
        .collect();
    let level = spec.levels.last().map_or("", String::as_str);
    let mut head = format!("  {:>4}  {:<10} {:>7}", "rank", "tier", "fitness");
    for (p, w) in spec.parameters.iter().zip(&widths) {
        head.push_str(&format!(" {p:>w$}"));
    }
    head.push_str(&format!(
        "  {:<24} {:>6} {:>7}  notes",
        format!("first player at {level}"),
        "draws",
        "plies"
    ));
    writeln!(out, "{head}")?;
    for row in &r.rows {
        let mut line = format!(
            "  {:>4}  {:<10} {:>7.2}",
            row.rank,
            row.tier.name(),
            row.fitness
        );
        for (p, w) in spec.parameters.iter().zip(&widths) {
            let v = row.values.get(p).map_or(String::new(), ToString::to_string);
            line.push_str(&format!(" {v:>w$}"));
        }
        match sweep::strongest(&row.balance) {
            Some(l) => {
                let rep = &l.report;
                let f = &rep.first_player_advantage;
                line.push_str(&format!(
                    "  {:<24} {:>6} {:>7.1}",
                    format!(
                        "{:.1}% [{:.1}–{:.1}]",
                        f.rate * 100.0,
                        f.ci95[0] * 100.0,
                        f.ci95[1] * 100.0
                    ),
                    percent(rep.draws.rate),
                    rep.length.mean
                ));
            }
            None => line.push_str(&format!("  {:<24} {:>6} {:>7}", "no games", "", "")),
        }
        if !row.flags.is_empty() {
            line.push_str(&format!("  {}", row.flags.join(" ")));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    if !r.skipped.is_empty() {
        writeln!(out, "skipped (they do not compile):")?;
        for s in &r.skipped {
            let values: Vec<String> = spec
                .parameters
                .iter()
                .filter_map(|p| s.values.get(p).map(|v| format!("{p}={v}")))
                .collect();
            writeln!(out, "  {}: {}", values.join(","), s.error)?;
        }
    }
    Ok(())
}
