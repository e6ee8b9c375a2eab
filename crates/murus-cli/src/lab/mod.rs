//! The lab's subcommands: `murus selfplay`, `murus match` and `murus lab
//! merge` (thin shells over `murus-lab`), and what they share with
//! `murus balance`, `murus sweep` and `murus train`: the run options every
//! run takes ([`RunArgs`], [`PlayArgs`]), the threads a run uses when the
//! user does not say, the words for a run folder that cannot be opened, the
//! opening book, and the progress bar.
//!
//! What is where: `selfplay`, `matchup` and `merge` hold one subcommand
//! each (its arguments, the function that runs it, and its answer).

mod matchup;
mod merge;
mod selfplay;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Result, anyhow, bail};
use clap::{Args, Subcommand};
use murus_engine::Variant;
use murus_lab::folder::Spec;
use murus_lab::{Book, LabError, Mode, Partial, RunFolder, Shard};

use crate::progress::Look;

pub use matchup::{MatchArgs, matchup};
pub use merge::merge;
pub use selfplay::{SelfplayArgs, selfplay};

/// The options of every long run that can be kept and resumed (selfplay,
/// match, balance, sweep, train, report): its seed, its threads, where it
/// is kept, and JSON output; one help text and one default each. A command
/// says what its `--out` keeps (`mut_arg("out", …)`), and one with no
/// default place to keep a run makes `--resume` require `--out`
/// (`mut_arg("resume", |a| a.requires("out"))`).
#[derive(Args)]
pub struct RunArgs {
    /// Seed of the whole run: every game, and what is made of them,
    /// follows from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: the CPUs this process may run on, at most
    /// SLURM_CPUS_PER_TASK). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Keep the run in this folder: its settings first, then each game as
    /// it finishes, the reports at the end (docs/lab.md).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Go on with the run kept in --out (only what is missing is played),
    /// or start it there if none is kept; a run of other settings is
    /// refused. Without it, a place that keeps a run is refused.
    #[arg(long)]
    pub resume: bool,
    /// Print the answer as JSON: stdout holds only the JSON, and no
    /// progress bar is drawn.
    #[arg(long)]
    pub json: bool,
}

impl RunArgs {
    /// How `--resume` opens the `--out` folder.
    pub fn mode(&self) -> Mode {
        if self.resume { Mode::Resume } else { Mode::New }
    }

    /// The `--out` folder and how `--resume` opens it, for the runs kept
    /// only where `--out` says (selfplay, match, balance, sweep).
    pub fn kept(&self) -> Option<(&Path, Mode)> {
        self.out.as_deref().map(|o| (o, self.mode()))
    }

    /// The threads of `--threads`, or the default.
    pub fn threads(&self) -> Result<usize> {
        threads(self.threads)
    }
}

/// The options of runs of games (selfplay, balance, sweep): the ply cap
/// and the shard.
#[derive(Args)]
pub struct PlayArgs {
    /// Stop a game as a draw after this many plies (default: the variant's
    /// cap, else 1000).
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Play only shard K of N (`K/N`): the games (a sweep: the
    /// combinations) numbered K-1, K-1+N, K-1+2N…; merge the shards' --out
    /// folders into the whole run (docs/lab.md).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

impl PlayArgs {
    /// `--shard K/N` as `(K, N)`, checked.
    pub fn shard(&self) -> Result<Option<(u64, u64)>> {
        shard_option(self.shard.as_deref())
    }

    /// `--max-plies`, checked.
    pub fn max_plies(&self) -> Result<Option<u32>> {
        if self.max_plies == Some(0) {
            bail!("--max-plies must be at least 1");
        }
        Ok(self.max_plies)
    }
}

#[derive(Subcommand)]
pub enum LabCommand {
    /// Merge shard outputs (`--out` directories of `selfplay --shard`) into one report.
    Merge(merge::MergeArgs),
}

/// An optional `--shard K/N` as `(K, N)`, with `1 <= K <= N`.
fn shard_option(s: Option<&str>) -> Result<Option<(u64, u64)>> {
    Ok(shard_arg(s)?.map(Shard::pair))
}

/// An optional `--shard K/N`, with `1 <= K <= N` (`--shard 3/2: K must be
/// from 1 to N`).
pub(crate) fn shard_arg(s: Option<&str>) -> Result<Option<Shard>> {
    s.map(str::parse::<Shard>)
        .transpose()
        .map_err(|e| anyhow!("--shard {e}"))
}

/// A run folder's refusal in the words of the command line: what to do
/// about a folder that holds a run (without --resume), holds another one,
/// or holds a run's files without its spec.
pub(crate) fn folder_error(e: LabError) -> anyhow::Error {
    match e {
        LabError::RunExists { path, what, file } => anyhow!(
            "{path} already holds a {what} ({file}): add --resume to continue it, or give a new --out folder"
        ),
        e @ LabError::Mismatch { .. } => {
            anyhow!("{e}; resume with the options it started with, or give a new --out folder")
        }
        e @ LabError::NoRun { .. } => anyhow!("{e}; remove it, or give a new --out folder"),
        e => e.into(),
    }
}

/// A merge's refusal in the words of the command line: a merge that is
/// not the whole run says how to make it whole, or how to take it as it is.
pub(crate) fn merge_error(e: LabError) -> anyhow::Error {
    match e {
        e @ LabError::Partial(_) => anyhow!(
            "{e}: merge every shard, each run to its end (--resume goes on with an interrupted one), or add --allow-partial to merge the shards present"
        ),
        e => e.into(),
    }
}

/// What a merge's report lacks, for its header: ` (partial: shards 2/4,
/// 3/4 missing)`, or nothing for a whole run's.
pub(crate) fn partial_text(missing_shards: &[String]) -> String {
    match missing_shards {
        [] => String::new(),
        [one] => format!(" (partial: shard {one} missing)"),
        many => format!(" (partial: shards {} missing)", many.join(", ")),
    }
}

/// Whether a merge may lack shards: `--allow-partial`.
pub(crate) fn partial(allow_partial: bool) -> Partial {
    if allow_partial {
        Partial::Allow
    } else {
        Partial::Refuse
    }
}

/// Says on stderr that a run of kind `S` starts in `out` when `--resume`
/// finds none there (`note: no run in runs/a yet: starting it`), before it
/// starts: a resumed run and a new one are told apart.
pub(crate) fn note_fresh<S: Spec>(out: &Path, mode: Mode) {
    if mode == Mode::Resume && RunFolder::<S>::is_fresh(out) {
        eprintln!("note: no {} in {} yet: starting it", S::WHAT, out.display());
    }
}

/// The threads of `--threads T`, or when not given the default.
pub(crate) fn threads(t: Option<usize>) -> Result<usize> {
    match t {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) => Ok(t),
        None => Ok(murus_engine::util::default_threads()),
    }
}

/// Shows the progress bar of a run of `total` games, `done()` of them
/// finished, until `finished()` (none under `--json`).
fn show_progress(total: u64, json: bool, done: impl Fn() -> u64, finished: impl Fn() -> bool) {
    crate::progress::show(
        "{bar:40} {pos}/{len} games  {per_sec}  eta {eta}",
        json,
        finished,
        || Some(Look::count(done(), total)),
    );
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
        Err(e) => Err(anyhow::Error::from(e).context("--book")),
    }
}

/// The end of a run's timing line: how many games a resumed run found done.
fn already_played(resumed: u64) -> String {
    if resumed > 0 {
        format!("; {resumed} were already played")
    } else {
        String::new()
    }
}
