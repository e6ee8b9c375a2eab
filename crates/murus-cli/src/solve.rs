//! `murus solve`: the exact value of a position (the start by default) by
//! proof-number search (`murus_ai::proof`), within a budget of time or
//! nodes, on one thread or several, and the winner's strategy as a proof
//! file (`--proof`).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use murus_ai::proof::{self, Solver, Value};
use murus_engine::job::{Handler, HandlerExt};
use murus_engine::{Position, Variant};
use serde::Serialize;

use crate::answer::Answer;
use crate::load::{game_to_search, load_variant_with};

/// `murus solve`'s arguments.
#[derive(Args)]
pub struct SolveArgs {
    /// A `.mg` file or a shipped variant's name.
    pub variant: String,
    /// Set a declared parameter (`--set files=5`); repeat for several.
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = crate::rules::parse_setting)]
    pub set: Vec<(String, u32)>,
    /// A position string (default: the start).
    #[arg(long)]
    pub position: Option<String>,
    /// Moves played from the position, in notation.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// How long to search: a time (`30s`, `5m`, `2h`) or a number of nodes
    /// (`50000000`); default 60s.
    #[arg(long, default_value = "60s")]
    pub budget: String,
    /// The transposition table's size in MiB.
    #[arg(long, default_value_t = 1024)]
    pub table: usize,
    /// Solve the game with its ply cap, as the rules end it there (drawn,
    /// or adjudicated: `adjudicate by …`, `adjudicate for L`), repetitions
    /// counted as the rules count them; plies count from the start (see
    /// --ply).
    #[arg(long)]
    pub with_cap: bool,
    /// With --with-cap: plies played before --position (a position string
    /// does not say; default 0). Moves given with --moves count too.
    #[arg(long, value_name = "N", requires = "with_cap")]
    pub ply: Option<u32>,
    /// Search threads: the two questions race, and the first moves are
    /// shared out, all on one table (default 1).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Write the winner's strategy to FILE when a side wins: a line
    /// `POSITION<TAB>MOVE` for each position where the winner moves
    /// (gzipped when FILE ends in `.gz`).
    #[arg(long, value_name = "FILE", conflicts_with = "with_cap")]
    pub proof: Option<PathBuf>,
    /// Search a position and its mirror image (files swapped) apart even
    /// where the rules are the same in a mirror (by default they share one
    /// table entry): to measure what the mirror saves.
    #[arg(long)]
    pub no_mirror: bool,
    #[arg(long)]
    pub json: bool,
}

/// The most nodes spent proving again one position of a strategy whose
/// table entry was replaced (`--proof`).
const REPROOF_NODES: u64 = 50_000_000;

/// A budget of time or of nodes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    Time(Duration),
    Nodes(u64),
}

/// Reads `--budget`: `30s`, `5m`, `2h`, `1.5m`, or a node count.
pub fn parse_budget(text: &str) -> Result<Budget> {
    let bad =
        || anyhow!("--budget `{text}`: give a time (30s, 5m, 2h) or a number of nodes (50000000)");
    let t = text.trim();
    if let Ok(n) = t.parse::<u64>() {
        if n < 1000 {
            bail!("--budget {n}: too small to search (at least 1000 nodes)");
        }
        return Ok(Budget::Nodes(n));
    }
    let (number, unit) = t.split_at(t.len().saturating_sub(1));
    let scale = match unit {
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        _ => return Err(bad()),
    };
    let n: f64 = number.parse().map_err(|_| bad())?;
    if !n.is_finite() || n <= 0.0 {
        return Err(bad());
    }
    let seconds = n * scale;
    if seconds < 0.01 {
        bail!("--budget {text}: too short to search (at least 10 ms)");
    }
    Ok(Budget::Time(Duration::from_secs_f64(seconds.min(1e9))))
}

/// `murus solve`'s answer.
#[derive(Serialize)]
pub struct Solved {
    pub variant: String,
    pub position: String,
    /// `win`, `loss` or `draw` for the side to move; `unknown` when the
    /// budget ran out first.
    pub value: &'static str,
    /// The winner's letter, when someone wins.
    pub winner: Option<char>,
    /// The side to move's winning moves, each proved.
    pub winning: Vec<String>,
    /// Moves whose value the budget left unknown (with a win proved).
    pub unsettled: Vec<String>,
    /// When the value is unknown: a side proved not to win.
    pub cannot_win: Option<char>,
    /// The game solved has the ply cap (`--with-cap`): its plies, and the
    /// plies left from the position.
    pub with_cap: bool,
    pub ply_cap: Option<u32>,
    pub plies_left: Option<u32>,
    pub nodes: u64,
    pub seconds: f64,
    pub threads: u32,
    /// Whether a position and its mirror image shared a table entry (the
    /// rules are the same with the files swapped, no ply cap, and no
    /// `--no-mirror`).
    pub mirror: bool,
    /// The transposition table at the end.
    pub table: TableUse,
    /// The proof file (`--proof`).
    pub proof: Option<ProofFile>,
    /// Stopped by a signal.
    pub interrupted: bool,
    /// One line that says what was solved.
    pub summary: String,
}

/// The transposition table's memory and what it held at the end.
#[derive(Serialize)]
pub struct TableUse {
    /// Its size in MiB (a power of two of buckets that fits `--table`).
    pub mib: f64,
    pub entries: u64,
    pub entry_bytes: usize,
    /// Entries in use at the end, and their share in percent.
    pub filled: u64,
    pub full_percent: f64,
    /// Entries holding a proof, and a disproof.
    pub proven: u64,
    pub disproven: u64,
    /// Stores that replaced another position's entry.
    pub replaced: u64,
}

/// What `--proof` wrote.
#[derive(Serialize)]
pub struct ProofFile {
    pub file: String,
    /// Its lines (positions where the winner moves); `None`: nothing
    /// written (no side wins, or the value is unknown).
    pub positions: Option<usize>,
    /// Positions proved again because their table entries were replaced.
    pub reproved: u64,
    /// Why nothing was written, when nothing was.
    pub note: Option<String>,
}

/// `murus solve`.
pub fn solve(a: &SolveArgs) -> Result<Solved> {
    let budget = parse_budget(&a.budget)?;
    if a.table < 1 {
        bail!("--table must be at least 1 MiB");
    }
    let v = &load_variant_with(&a.variant, &a.set)?;
    let game = game_to_search(v, a.position.as_deref(), &a.moves)?;
    let pos = *game.position();
    let line = if a.with_cap {
        let line = proof::Line::of_game(&game, a.ply.unwrap_or(0))
            .map_err(|e| anyhow!("--with-cap: {e}"))?;
        if let Some(o) = line.outcome(v) {
            bail!("--with-cap: {}", crate::load::game_over(&game, o));
        }
        Some(line)
    } else {
        None
    };
    // Made now, so that a path that cannot be written fails before the
    // search rather than after it.
    let proof_out = match &a.proof {
        Some(path) => Some((
            path,
            File::create(path).with_context(|| format!("--proof {}", path.display()))?,
        )),
        None => None,
    };
    let mut nodes = u64::MAX;
    let mut deadline = None;
    let started = Instant::now();
    match budget {
        Budget::Nodes(n) => nodes = n,
        Budget::Time(t) => deadline = Some(started + t),
    }
    let cancel = crate::signal::stop();
    let handler = cancel.clone().until(deadline);
    let threads = a.threads as usize;
    let solver = Solver::new(a.table).with_mirror(!a.no_mirror);
    let found = match &line {
        Some(line) => solver.solve_line(v, line, nodes, threads, &handler as &dyn Handler),
        None => solver.solve(v, &pos, nodes, threads, &handler as &dyn Handler),
    }
    .map_err(|e| anyhow!(e))?;
    let seconds = started.elapsed().as_secs_f64();
    let u = solver.usage();
    let table = TableUse {
        mib: u.bytes as f64 / (1024.0 * 1024.0),
        entries: u.entries,
        entry_bytes: proof::ENTRY_BYTES,
        filled: u.filled,
        full_percent: 100.0 * u.filled as f64 / u.entries.max(1) as f64,
        proven: u.proven,
        disproven: u.disproven,
        replaced: u.replaced,
    };
    let proof = match proof_out {
        Some((path, file)) => Some(write_proof(
            v,
            &solver,
            &pos,
            found.value,
            path,
            file,
            &cancel,
        )?),
        None => None,
    };
    let letter = |p: usize| v.letter(p);
    let mover = v.turn(&pos);
    let (value, winner) = match found.value {
        Some(Value::Win(p)) if p == mover => ("win", Some(letter(p))),
        Some(Value::Win(p)) => ("loss", Some(letter(p))),
        Some(Value::Draw) => ("draw", None),
        None => ("unknown", None),
    };
    let names = |p: usize| v.player_name(p);
    let capped = match (&line, v.rules().draw.ply_cap) {
        (Some(_), Some(cap)) => format!(" (the game to its ply cap of {cap})"),
        _ => String::new(),
    };
    let summary = match found.value {
        Some(Value::Win(p)) => format!("{} win with perfect play{capped}", names(p)),
        Some(Value::Draw) => {
            format!("a draw with perfect play{capped}: neither side can force a win")
        }
        None => match found.cannot_win {
            Some(p) => format!("unknown within the budget; {} cannot force a win", names(p)),
            None => "unknown within the budget".into(),
        },
    };
    Ok(Solved {
        variant: v.name().to_string(),
        position: v.position_string(&pos),
        value,
        winner,
        winning: found.winning.iter().map(|&m| v.move_to_string(m)).collect(),
        unsettled: found
            .unsettled
            .iter()
            .map(|&m| v.move_to_string(m))
            .collect(),
        cannot_win: found.cannot_win.map(letter),
        with_cap: line.is_some(),
        ply_cap: line.as_ref().and(v.rules().draw.ply_cap),
        plies_left: line.as_ref().map(proof::Line::plies_left),
        nodes: found.nodes,
        seconds,
        threads: a.threads,
        mirror: !a.no_mirror && line.is_none() && v.mirror().is_some(),
        table,
        proof,
        interrupted: cancel.is_cancelled(),
        summary,
    })
}

/// Writes the winner's strategy from `pos` to `file` (at `path`; gzipped
/// when it ends in `.gz`), read from `solver`'s table; with no winner the
/// file is removed and the answer says why.
fn write_proof(
    v: &Variant,
    solver: &Solver,
    pos: &Position,
    value: Option<Value>,
    path: &Path,
    file: File,
    cancel: &dyn Handler,
) -> Result<ProofFile> {
    let name = path.display().to_string();
    let Some(Value::Win(winner)) = value else {
        drop(file);
        std::fs::remove_file(path).with_context(|| format!("--proof {name}"))?;
        let note = match value {
            Some(_) => "a draw: no side has a winning strategy to write",
            None => "the value is unknown: no proof to write",
        };
        return Ok(ProofFile {
            file: name,
            positions: None,
            reproved: 0,
            note: Some(note.into()),
        });
    };
    let strategy = solver
        .strategy(v, pos, winner, REPROOF_NODES, cancel)
        .map_err(|e| anyhow!("--proof {name}: {e}"))?;
    let write = |out: &mut dyn Write| -> io::Result<()> {
        strategy.write_to(v, out)?;
        out.flush()
    };
    let gzip = path.extension().is_some_and(|e| e == "gz");
    let written = if gzip {
        let mut z =
            flate2::write::GzEncoder::new(BufWriter::new(file), flate2::Compression::default());
        write(&mut z).and_then(|()| z.finish().map(drop))
    } else {
        write(&mut BufWriter::new(file))
    };
    written.with_context(|| format!("--proof {name}"))?;
    Ok(ProofFile {
        file: name,
        positions: Some(strategy.moves.len()),
        reproved: strategy.reproved,
        note: None,
    })
}

impl Answer for Solved {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "value    {}", self.summary)?;
        if !self.winning.is_empty() {
            writeln!(out, "winning  {}", self.winning.join(" "))?;
        }
        if !self.unsettled.is_empty() {
            writeln!(out, "unknown  {}", self.unsettled.join(" "))?;
        }
        let rate = self.nodes as f64 / self.seconds.max(1e-9);
        let threads = match self.threads {
            1 => "one thread".to_string(),
            n => format!("{n} threads"),
        };
        let threads = if self.mirror {
            format!("{threads}, a position and its mirror image as one")
        } else {
            threads
        };
        writeln!(
            out,
            "nodes    {} in {:.2} s ({:.0} k nodes/s, {threads})",
            self.nodes,
            self.seconds,
            rate / 1000.0
        )?;
        let t = &self.table;
        writeln!(
            out,
            "table    {:.0} MiB: {} entries of {} bytes, {:.1}% full at the end ({} proofs, {} disproofs; {} replaced)",
            t.mib, t.entries, t.entry_bytes, t.full_percent, t.proven, t.disproven, t.replaced
        )?;
        if let Some(p) = &self.proof {
            match (p.positions, &p.note) {
                (Some(n), _) => writeln!(
                    out,
                    "proof    {}: the winner's move in {n} positions ({} proved again)",
                    p.file, p.reproved
                )?,
                (None, note) => writeln!(
                    out,
                    "proof    none written: {}",
                    note.as_deref().unwrap_or("")
                )?,
            }
        }
        match (self.ply_cap, self.plies_left) {
            (Some(cap), Some(left)) if self.with_cap => writeln!(
                out,
                "rules    play to the ply cap ({cap} plies, {left} left), ended there as the rules say; repetitions as the rules count them"
            ),
            _ => writeln!(
                out,
                "rules    play without the ply cap; a position repeated for ever is a draw"
            ),
        }
    }

    fn exit_code(&self) -> ExitCode {
        if self.interrupted {
            crate::signal::interrupted()
        } else if self.value == "unknown" {
            // As a mural verdict unproven within its budget.
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_times_or_node_counts() {
        assert_eq!(
            parse_budget("30s").unwrap(),
            Budget::Time(Duration::from_secs(30))
        );
        assert_eq!(
            parse_budget("1.5m").unwrap(),
            Budget::Time(Duration::from_secs(90))
        );
        assert_eq!(
            parse_budget("2h").unwrap(),
            Budget::Time(Duration::from_secs(7200))
        );
        assert_eq!(parse_budget("5000000").unwrap(), Budget::Nodes(5_000_000));
        for bad in ["", "s", "10x", "-1s", "nans", "lots"] {
            assert!(parse_budget(bad).is_err(), "{bad}");
        }
        assert!(
            parse_budget("10")
                .unwrap_err()
                .to_string()
                .contains("too small")
        );
        assert!(
            parse_budget("0.001s")
                .unwrap_err()
                .to_string()
                .contains("too short")
        );
    }
}
