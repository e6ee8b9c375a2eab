//! `murus match`: two bots in paired games, their Elo difference, and a
//! sequential test that stops when it decides.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use clap::Args;
use murus_ai::BotSpec;
use murus_engine::job::HandlerExt;
use murus_lab::{LabError, MatchConfig, MatchResult, RunDir, RunProgress, RunSpec};
use serde::Serialize;

use super::{RunArgs, already_played, folder_error, note_fresh, show_progress};
use crate::answer::Answer;
use crate::load_variant;

#[derive(Args)]
#[command(mut_arg("resume", |a| a.requires("out")))]
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
    /// Open each pair of games with this many random plies (the same for
    /// both colours), so that deterministic bots play varied games.
    #[arg(long, default_value_t = 0)]
    pub openings: u32,
    #[command(flatten)]
    pub run: RunArgs,
}

/// Games of a match without `--games`.
pub const MATCH_GAMES: u64 = 200;
/// The most games of a sequential test without `--games`: enough for the
/// test to decide between close hypotheses, a bound on a run that never does.
pub const SPRT_MAX_GAMES: u64 = 100_000;

/// `murus match`'s answer: the result, and how the match went.
#[derive(Serialize)]
pub struct Matchup {
    pub a: String,
    pub b: String,
    pub result: MatchResult,
    /// Games played by this command (not those a resumed match found done).
    pub played: u64,
    /// Games a resumed match found done.
    pub resumed: u64,
    pub threads: usize,
    pub seconds: f64,
    /// Whether Ctrl-C (or SIGTERM, SIGHUP) stopped it.
    pub cancelled: bool,
}

fn spec(text: &str) -> Result<BotSpec> {
    text.parse().map_err(anyhow::Error::from)
}

/// `--sprt ELO0,ELO1` as two finite numbers, the first below the second.
fn sprt_bounds(s: &str) -> Result<(f64, f64)> {
    s.split_once(',')
        .and_then(|(x, y)| Some((x.trim().parse::<f64>().ok()?, y.trim().parse::<f64>().ok()?)))
        .filter(|(x, y)| x.is_finite() && y.is_finite() && x < y)
        .ok_or_else(|| anyhow!("--sprt `{s}`: expected ELO0,ELO1 with ELO0 below ELO1, like 0,20"))
}

pub fn matchup(a: &MatchArgs) -> Result<Matchup> {
    let v = &load_variant(&a.variant)?;
    if a.games == Some(0) {
        bail!("--games must be at least 1");
    }
    let (bot_a, bot_b) = (spec(&a.bot_a)?, spec(&a.bot_b)?);
    for b in [&bot_a, &bot_b] {
        b.check(v).map_err(|e| anyhow!("{b}: {e}"))?;
    }
    let sprt = a.sprt.as_deref().map(sprt_bounds).transpose()?;
    let max_games = a.games.unwrap_or(if sprt.is_some() {
        SPRT_MAX_GAMES
    } else {
        MATCH_GAMES
    });
    let m = MatchConfig {
        a: bot_a.clone(),
        b: bot_b.clone(),
        games: max_games,
        seed: a.run.seed,
        threads: a.run.threads()?,
        sprt,
        openings: a.openings,
        book: None,
        shard: None,
    };
    let dir = match a.run.kept() {
        Some((out, mode)) => {
            note_fresh::<RunSpec>(out, mode);
            let (dir, _) = RunDir::open(out, &m.run_spec(v)?, mode).map_err(folder_error)?;
            Some(dir)
        }
        None => None,
    };
    let resumed = dir.as_ref().map_or(0, |d| d.done().len() as u64);
    let cancel = crate::signal::stop();
    let done = AtomicU64::new(0);
    let handler = cancel
        .clone()
        .on_progress(|p: &RunProgress| done.store(p.done, Ordering::Relaxed));
    let t = Instant::now();
    let (result, _report) = std::thread::scope(|scope| {
        let work = scope.spawn(|| murus_lab::run_match(v, &m, &handler, dir));
        show_progress(
            max_games,
            a.run.json,
            || done.load(Ordering::Relaxed),
            || work.is_finished(),
        );
        work.join()
            .unwrap_or_else(|_| Err(LabError::Panicked("the match thread".into())))
    })?;
    Ok(Matchup {
        a: bot_a.to_string(),
        b: bot_b.to_string(),
        result,
        played: done.load(Ordering::Relaxed).saturating_sub(resumed),
        resumed,
        threads: m.threads,
        seconds: t.elapsed().as_secs_f64(),
        cancelled: cancel.is_cancelled(),
    })
}

/// An Elo figure for the terminal: `+147`, `-inf`.
fn elo_text(x: f64) -> String {
    if x.is_infinite() {
        (if x > 0.0 { "+inf" } else { "-inf" }).to_string()
    } else {
        format!("{x:+.0}")
    }
}

impl Answer for Matchup {
    /// The score line, then the sequential test's decision.
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let r = &self.result;
        writeln!(
            out,
            "{} vs {}: {} games, +{} ={} -{}, score {:.1}%, Elo {} [{}, {}]",
            self.a,
            self.b,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.score * 100.0,
            elo_text(r.elo),
            elo_text(r.elo_ci95[0]),
            elo_text(r.elo_ci95[1])
        )?;
        if let Some(s) = &r.sprt {
            let decision = if s.decision == "undecided" {
                format!(
                    "undecided after {} of at most {} games",
                    r.games, s.max_games
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
        Ok(())
    }

    /// The result, indented, its keys in the order of [`MatchResult`].
    fn json(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{}", serde_json::to_string_pretty(&self.result)?)
    }

    fn notes(&self) -> String {
        format!(
            "{} games in {:.2} s ({} thread(s)){}\n",
            self.played,
            self.seconds,
            self.threads,
            already_played(self.resumed)
        )
    }

    fn exit_code(&self) -> ExitCode {
        if self.cancelled {
            crate::signal::interrupted()
        } else {
            ExitCode::SUCCESS
        }
    }
}
