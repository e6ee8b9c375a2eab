//! `murus sweep`: a thin shell over `murus_lab::sweep`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use clap::Args;
use murus_lab::Watch;
use murus_lab::balance::BalanceConfig;
use murus_lab::report::percent;
use murus_lab::sweep::{self, SweepConfig, SweepError, SweepProgress, SweepReport, SweepSpec};
use serde::Serialize;

use crate::answer::Answer;
use crate::balance::CheckArgs;
use crate::lab::{PlayArgs, RunArgs, folder_error, merge_error, note_fresh, partial, partial_text};
use crate::progress::Look;

#[derive(Args)]
#[command(mut_arg("out", |a| a.help(
    "Keep the sweep in this folder: sweep-run.json first, each combination's balance check in \
     combos/NAME=VALUE,…/, then sweep.json, sweep.csv and sweep.svg"
)))]
#[command(mut_arg("resume", |a| a.requires("out")))]
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
    #[command(flatten)]
    pub check: CheckArgs,
    /// Train an evaluation first for each combination that has none, so
    /// that every row plays with a trained evaluation (kept in the sweep's
    /// folder, reused by --resume); each within --train-positions.
    #[arg(long)]
    pub train: bool,
    /// Positions of self-play each combination trains on with --train.
    #[arg(long, default_value_t = 20_000, requires = "train")]
    pub train_positions: u64,
    /// Games of each match between adjacent levels (the skill trace; the
    /// ranking does not use it, so a sweep plays none unless asked).
    #[arg(long, default_value_t = 0)]
    pub skill_games: u64,
    #[command(flatten)]
    pub play: PlayArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Merge the --out folders of a sharded sweep (`--shard K/N`, one a
    /// shard) into the whole table; with --out, write sweep.json, .csv and
    /// .svg there.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = [
        "file", "set", "levels", "precision", "max_games", "games", "openings",
        "skill_games", "seed", "threads", "max_plies", "shard", "resume",
    ])]
    pub merge: Vec<PathBuf>,
    /// With --merge: merge the shards present even when some are missing
    /// or were interrupted; the report lists the shards missing
    /// (`missing_shards`). Without it such a merge fails, naming them, and
    /// writes nothing.
    #[arg(long, requires = "merge", conflicts_with = "file")]
    pub allow_partial: bool,
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

/// `murus sweep`'s answer: the sweep's report (a sweep, or the merge of a
/// sharded sweep's folders).
#[derive(Serialize)]
pub struct Sweep {
    pub report: SweepReport,
    /// How long the sweep took, and on how many threads (none for a
    /// merge).
    pub seconds: Option<(f64, usize)>,
}

pub fn run(a: &SweepArgs) -> Result<Sweep> {
    let Some(file) = a.file.as_deref() else {
        bail!("give a rule file to sweep, or --merge DIR… to merge a sweep's shards");
    };
    let (source, _) = crate::rules_source(file)?;
    let levels = a.check.levels()?;
    let stopping = a.check.stopping()?;
    let shard = a.play.shard()?;
    let max_plies = a.play.max_plies()?;
    let config = SweepConfig {
        set: a.set.clone(),
        balance: BalanceConfig {
            levels,
            stopping,
            openings: a.check.openings,
            seed: a.run.seed,
            threads: a.run.threads()?,
            shard: None,
            skill_games: a.skill_games,
            max_plies,
            book: None,
        },
        shard,
        train: a.train.then_some(a.train_positions),
    };
    // The parameters first: a broken declaration or a bad --set stops
    // the sweep before anything is played or written.
    sweep::space(&source, &config.set).map_err(|e| fail(e, file, &source))?;
    let watch = Watch::with_cancel(crate::signal::stop());
    let t = Instant::now();
    let folder = a.run.kept();
    if let Some((out, mode)) = folder {
        note_fresh::<SweepSpec>(out, mode);
    }
    let result = std::thread::scope(|scope| {
        let work = scope.spawn(|| sweep::run_sweep(file, &source, &config, folder, &watch));
        show_progress(&watch, a.run.json, || work.is_finished());
        work.join().unwrap_or_else(|_| {
            Err(SweepError::Lab(murus_lab::LabError::Panicked(
                "the sweep thread".into(),
            )))
        })
    });
    let report = result.map_err(|e| fail(e, file, &source))?;
    Ok(Sweep {
        report,
        seconds: Some((t.elapsed().as_secs_f64(), config.balance.threads)),
    })
}

/// The error of a sweep, its diagnostics (if any) shown like rustc's.
fn fail(e: SweepError, file: &str, source: &str) -> anyhow::Error {
    match e {
        SweepError::Source(diags) => {
            eprint!("{}", murus_dsl::render_all(&diags, file, source));
            anyhow!("`{file}`: cannot sweep its parameters")
        }
        SweepError::Lab(e) => folder_error(e),
        e => e.into(),
    }
}

impl Sweep {
    /// Whether no combination compiles (and none was merely left out).
    fn none_compiles(&self) -> bool {
        let r = &self.report;
        !r.interrupted && r.rows.is_empty() && !r.skipped.is_empty()
    }
}

impl Answer for Sweep {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        print_table(&self.report, out)
    }

    /// The report, as `sweep.json` holds it.
    fn json(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{}", self.report.to_json())
    }

    /// The skipped combinations' diagnostics and the timing (a sweep), or
    /// the combinations missing (a merge); why the command fails, if it
    /// does.
    fn notes(&self) -> String {
        let r = &self.report;
        let mut notes = String::new();
        match self.seconds {
            Some((s, threads)) => {
                for k in &r.skipped {
                    notes.push_str(&k.diagnostics);
                }
                notes.push_str(&format!(
                    "sweep of {} combination(s) in {s:.1} s ({threads} thread(s))\n",
                    r.spec.combinations
                ));
            }
            None => {
                if !r.missing_shards.is_empty() {
                    notes.push_str(&format!(
                        "note: {} of {} combinations present; the shards missing: {}\n",
                        r.spec.combinations - r.missing().len() as u64,
                        r.spec.combinations,
                        r.missing_shards.join(", ")
                    ));
                }
            }
        }
        if r.interrupted {
            notes.push_str(if self.seconds.is_some() {
                "interrupted: the finished games are kept; --resume continues\n"
            } else {
                "note: a shard was interrupted: resume it with --resume, then merge again\n"
            });
        } else if self.none_compiles() {
            notes.push_str("error: no combination compiles\n");
        }
        notes
    }

    /// 130 for a sweep stopped by a signal (not for a merge, which fails
    /// unless told to take what is there).
    fn exit_code(&self) -> ExitCode {
        if self.report.interrupted && self.seconds.is_some() {
            crate::signal::interrupted()
        } else if self.none_compiles() {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// `murus sweep --merge DIR…`.
pub fn merge(a: &SweepArgs) -> Result<Sweep> {
    if let Some(dir) = &a.run.out
        && dir.join("sweep.json").exists()
    {
        bail!(
            "{} already holds a sweep: give a new --out folder for the merge",
            dir.display()
        );
    }
    let dirs: Vec<&Path> = a.merge.iter().map(PathBuf::as_path).collect();
    let report = sweep::merge_sweeps(&dirs, a.run.out.as_deref(), partial(a.allow_partial))
        .map_err(|e| match e {
            SweepError::Lab(e) => merge_error(e),
            e => e.into(),
        })?;
    Ok(Sweep {
        report,
        seconds: None,
    })
}

/// The combination, its check's stage and games (none under `--json`).
fn show_progress(watch: &Watch<SweepProgress>, json: bool, finished: impl Fn() -> bool) {
    crate::progress::show(
        "{msg:52} {bar:24} {pos}/{len} games  eta {eta}",
        json,
        finished,
        || {
            watch.latest().map(|p| {
                let combo = &p.combination;
                let mut msg = format!("{}/{} {}", combo.done + 1, combo.of, combo.label);
                if let Some(check) = &p.check {
                    msg.push_str(&format!(" · {}", check.stage));
                }
                Look {
                    message: Some(msg),
                    count: p.check.as_ref().map(|c| (c.done, c.total)),
                }
            })
        },
    );
}

/// The ranked table, then the combinations skipped.
pub fn print_table(r: &SweepReport, out: &mut dyn Write) -> io::Result<()> {
    let spec = &r.spec;
    writeln!(
        out,
        "{}: sweep of {}: {} combination(s), {} played, {} skipped{}; levels {}, {}, {} opening plies, seed {}{}{}",
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
        if r.interrupted { " (interrupted)" } else { "" },
        partial_text(&r.missing_shards)
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
                    murus_lab::text::percent_interval(f.rate, f.ci95),
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
