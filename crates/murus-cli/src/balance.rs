//! `murus balance`: a thin shell over `murus_lab::balance`, and the
//! options of a check that `murus sweep` shares ([`CheckArgs`]).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use murus_lab::Watch;
use murus_lab::balance::{
    self, BalanceConfig, BalanceReport, BalanceSpec, CheckProgress, Level, Stopping,
};
use serde::Serialize;

use crate::answer::Answer;
use crate::lab::{
    PlayArgs, RunArgs, folder_error, load_book, merge_error, note_fresh, partial, partial_text,
};
use crate::load_variant;
use crate::progress::Look;

/// The levels a check plays without `--levels`.
pub const DEFAULT_LEVELS: &str = "random,easy,medium,hard";

/// What a balance check plays (and each combination of a sweep): the
/// levels, the rule that stops each, and the openings.
#[derive(Args)]
pub struct CheckArgs {
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
    /// Exactly N games at each level instead of --precision (a sharded
    /// balance check needs it).
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// Open each round of games with K random plies (the same for every
    /// colour of the round), so that deterministic bots play varied games.
    #[arg(long, value_name = "K", default_value_t = 4)]
    pub openings: u32,
}

impl CheckArgs {
    /// The levels of `--levels`.
    pub fn levels(&self) -> Result<Vec<Level>> {
        balance::parse_levels(&self.levels).context("--levels")
    }

    /// The stopping rule of `--games N`, or of `--precision P` and
    /// `--max-games`, checked.
    pub fn stopping(&self) -> Result<Stopping> {
        Ok(match self.games {
            Some(0) => bail!("--games must be at least 1"),
            Some(n) => Stopping::Games(n),
            None => {
                let precision = self.precision;
                if !(precision > 0.0 && precision <= 50.0) {
                    bail!(
                        "--precision {precision}: expected a half-width in points above 0 and at most 50, like 4 for ±4 points"
                    );
                }
                if self.max_games == 0 {
                    bail!("--max-games must be at least 1");
                }
                Stopping::Precision {
                    precision: precision / 100.0,
                    max_games: self.max_games,
                }
            }
        })
    }
}

#[derive(Args)]
#[command(mut_arg("out", |a| a.help(
    "Keep the check in this folder: a run folder per level (`levels/LEVEL`) and per match \
     (`skill/UPPER-vs-LOWER`), then balance.json, balance.csv and balance.svg"
)))]
#[command(mut_arg("resume", |a| a.requires("out")))]
pub struct BalanceArgs {
    /// A `.mg` file or a shipped variant's name.
    #[arg(required_unless_present = "merge")]
    pub variant: Option<String>,
    #[command(flatten)]
    pub check: CheckArgs,
    /// Open each round of games with the next line of this opening book
    /// instead of random plies, at every level and in every skill match
    /// (one opening a line, moves in notation; see docs/balance.md).
    #[arg(long, value_name = "FILE", conflicts_with = "openings")]
    pub book: Option<PathBuf>,
    /// Games of each match between adjacent levels (the skill trace; 0: none).
    #[arg(long, default_value_t = 100)]
    pub skill_games: u64,
    #[command(flatten)]
    pub play: PlayArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Merge the --out folders of a sharded check (`--shard K/N --out
    /// DIR`, one a shard) into the whole check's report; with --out, write
    /// it there as a check would.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = [
        "variant", "levels", "precision", "max_games", "games", "openings",
        "book", "skill_games", "seed", "threads", "max_plies", "shard", "resume",
    ])]
    pub merge: Vec<PathBuf>,
    /// With --merge: merge the shards present even when some are missing
    /// or were interrupted; the report lists the shards missing
    /// (`missing_shards`). Without it such a merge fails, naming them, and
    /// writes nothing.
    #[arg(long, requires = "merge", conflicts_with = "variant")]
    pub allow_partial: bool,
}

/// `murus balance`'s answer: the check's report (a check, or the merge of
/// a sharded check's folders).
#[derive(Serialize)]
pub struct Balance {
    pub report: BalanceReport,
    /// How long the check took, and on how many threads (none for a
    /// merge).
    pub seconds: Option<(f64, usize)>,
}

pub fn run(a: &BalanceArgs) -> Result<Balance> {
    let v = &load_variant(a.variant.as_deref().unwrap_or_default())?;
    let levels = a.check.levels()?;
    let stopping = a.check.stopping()?;
    let shard = a.play.shard()?;
    if shard.is_some() && a.check.games.is_none() {
        bail!("--shard needs --games N: shards cannot share a stopping rule");
    }
    let max_plies = a.play.max_plies()?;
    let threads = a.run.threads()?;
    // Read before anything is written: a bad book stops the check at once.
    let book = match &a.book {
        Some(path) => Some(load_book(path, v)?),
        None => None,
    };
    let config = BalanceConfig {
        levels,
        stopping,
        openings: if book.is_some() { 0 } else { a.check.openings },
        seed: a.run.seed,
        threads,
        shard,
        skill_games: a.skill_games,
        max_plies,
        book,
    };
    let watch = Watch::with_cancel(crate::signal::stop());
    let t = Instant::now();
    let folder = a.run.kept();
    if let Some((out, mode)) = folder {
        note_fresh::<BalanceSpec>(out, mode);
    }
    let report = std::thread::scope(|scope| {
        let work = scope.spawn(|| balance::run_balance(v, &config, folder, &watch));
        show_progress(&watch, a.run.json, || work.is_finished());
        work.join()
            .unwrap_or_else(|_| Err(murus_lab::LabError::Panicked("the balance thread".into())))
    })
    .map_err(folder_error)?;
    Ok(Balance {
        report,
        seconds: Some((t.elapsed().as_secs_f64(), config.threads)),
    })
}

/// The check's stage and its games (none under `--json`).
fn show_progress(watch: &Watch<CheckProgress>, json: bool, finished: impl Fn() -> bool) {
    crate::progress::show(
        "{msg:28} {bar:32} {pos}/{len} games  eta {eta}",
        json,
        finished,
        || {
            watch
                .latest()
                .map(|p| Look::of(p.stage.to_string(), p.done, p.total))
        },
    );
}

impl Answer for Balance {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        print_summary(&self.report, out)
    }

    /// The report, as `balance.json` holds it.
    fn json(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{}", self.report.to_json())
    }

    fn notes(&self) -> String {
        let r = &self.report;
        let mut notes = String::new();
        match self.seconds {
            Some((s, threads)) => notes.push_str(&format!(
                "balance check in {s:.1} s ({threads} thread(s))\n"
            )),
            None => {
                if !r.missing_shards.is_empty() {
                    for l in &r.levels {
                        notes.push_str(&format!(
                            "note: {}: {} of {} games present; the shards missing: {}\n",
                            l.level,
                            l.report.games,
                            l.report.provenance.requested,
                            r.missing_shards.join(", ")
                        ));
                    }
                }
            }
        }
        if r.interrupted {
            notes.push_str(if self.seconds.is_some() {
                "interrupted: the finished games are kept; --resume continues\n"
            } else {
                "note: a shard was interrupted: resume it with --resume, then merge again\n"
            });
        }
        notes
    }

    /// 130 for a check stopped by a signal (not for a merge, which fails
    /// unless told to take what is there).
    fn exit_code(&self) -> ExitCode {
        if self.report.interrupted && self.seconds.is_some() {
            crate::signal::interrupted()
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// The table of levels, the skill trace and the verdict.
pub fn print_summary(r: &BalanceReport, out: &mut dyn Write) -> io::Result<()> {
    let openings = match &r.book {
        Some(b) => format!("openings from {} ({} lines)", b.name, b.lines),
        None => format!("{} opening plies", r.openings),
    };
    writeln!(
        out,
        "{}: balance at {} level(s), {}, {openings}, seed {}{}{}",
        r.variant.name,
        r.levels.len(),
        Stopping::parse(&r.stopping).map_or_else(|| r.stopping.clone(), |s| s.in_words()),
        r.seed,
        if r.interrupted { " (interrupted)" } else { "" },
        partial_text(&r.missing_shards)
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
            murus_lab::text::percent_interval(f.rate, f.ci95),
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
pub fn merge(a: &BalanceArgs) -> Result<Balance> {
    if let Some(dir) = &a.run.out
        && dir.join("balance.json").exists()
    {
        bail!(
            "{} already holds a balance check: give a new --out folder for the merge",
            dir.display()
        );
    }
    let dirs: Vec<&Path> = a.merge.iter().map(PathBuf::as_path).collect();
    let report = balance::merge_balance(&dirs, a.run.out.as_deref(), partial(a.allow_partial))
        .map_err(merge_error)?;
    Ok(Balance {
        report,
        seconds: None,
    })
}
