//! `murus mural …`: thin shell over `murus-mural`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;
use murus_mural::generate::{Options, generate, rate};
use murus_mural::{Hint, Mode, Puzzle, State, Status, count, hint_for, solve};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

/// Default solver budget, in nodes.
const BUDGET: u64 = 50_000_000;

#[derive(Subcommand)]
pub enum MuralCommand {
    /// Load and validate puzzle files.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Solve a puzzle: the shortest solution, or `--any` solution.
    Solve {
        file: PathBuf,
        #[arg(long)]
        any: bool,
        /// Node budget; past it the verdict is "unproven".
        #[arg(long, default_value_t = BUDGET)]
        budget: u64,
        #[arg(long)]
        json: bool,
    },
    /// Count the minimal solutions (as sets of moves) and their orderings.
    Count {
        file: PathBuf,
        #[arg(long, default_value_t = BUDGET)]
        budget: u64,
        #[arg(long)]
        json: bool,
    },
    /// The next move of an optimal solution after MOVES played from the start.
    Hint {
        file: PathBuf,
        /// Moves already played, in notation.
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        #[arg(long, default_value_t = BUDGET)]
        budget: u64,
        #[arg(long)]
        json: bool,
    },
    /// Generate puzzles with a unique minimal solution.
    Generate {
        /// Board: `5x5`, or rules-language board text (`hex 3`).
        #[arg(long, default_value = "5x5")]
        board: String,
        /// easy, medium or hard (default: any).
        #[arg(long)]
        difficulty: Option<String>,
        #[arg(long, default_value_t = 1)]
        colours: usize,
        #[arg(long)]
        sacrifice: bool,
        #[arg(long, default_value_t = 1)]
        count: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write each puzzle to DIR/NAME.toml instead of printing it.
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Solver and generator speed over the collection, a generated set and
    /// a random (unselected) set of 5x5 murals with walls.
    Bench {
        /// Directory of puzzles (default: puzzles/).
        #[arg(long, default_value = "puzzles")]
        dir: PathBuf,
        #[arg(long)]
        quick: bool,
        /// Only the random 5x5-with-walls set (the solver's hardest case).
        #[arg(long)]
        random_only: bool,
    },
}

/// Loads a puzzle; diagnostics go to stderr.
pub fn load(path: &Path) -> Result<Puzzle> {
    load_reporting(path).map_err(|(e, _)| e)
}

/// Loads a puzzle; diagnostics go to stderr, and come back as JSON objects
/// (`message`, `line`, `column`, `notes`, and `help`: a suggested fix or
/// `null`) with the error.
fn load_reporting(
    path: &Path,
) -> std::result::Result<Puzzle, (anyhow::Error, Vec<serde_json::Value>)> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            let e = anyhow!("cannot read puzzle file `{}`: {e}", path.display());
            let d = json!({"message": e.to_string(), "line": null, "column": null, "notes": [], "help": null});
            return Err((e, vec![d]));
        }
    };
    Puzzle::from_toml(&text).map_err(|diags| {
        let name = path.display().to_string();
        eprint!("{}", murus_dsl::render_all(&diags, &name, &text));
        let list = diags
            .iter()
            .map(|d| {
                let (line, column) = d.line_col(&text);
                json!({"message": d.message, "line": line, "column": column, "notes": d.notes, "help": d.help})
            })
            .collect();
        (anyhow!("`{name}` is not a valid puzzle"), list)
    })
}

/// The text answer for an unsolvable mural: the verdict and why.
fn unsolvable(reason: Option<&murus_mural::Reason>) -> String {
    murus_mural::verdict(Status::Unsolvable, reason)
}

fn status_str(s: Status) -> &'static str {
    match s {
        Status::Solved => "solved",
        Status::Unsolvable => "unsolvable",
        Status::Unproven => "unproven",
    }
}

pub fn run(cmd: MuralCommand, out: &mut impl Write) -> Result<ExitCode> {
    match cmd {
        MuralCommand::Check { files, json } => {
            let mut failed = false;
            for f in &files {
                match load_reporting(f) {
                    Ok(p) => {
                        let towers = p.start.towers().count();
                        let targets = p.target_cells().len();
                        if json {
                            writeln!(
                                out,
                                "{}",
                                json!({"file": f.display().to_string(), "ok": true, "title": p.title,
                                       "board": p.board.text, "colours": p.colours.iter().map(char::to_string).collect::<Vec<_>>(),
                                       "towers": towers, "targets": targets, "sacrifice": p.sacrifice})
                            )?;
                        } else {
                            writeln!(
                                out,
                                "{}: ok: {} ({}, {} colour{}, {towers} towers, {targets} targets{})",
                                f.display(),
                                p.title,
                                p.board.text,
                                p.colours.len(),
                                if p.colours.len() == 1 { "" } else { "s" },
                                if p.sacrifice { ", sacrifice" } else { "" }
                            )?;
                        }
                    }
                    Err((e, diagnostics)) => {
                        failed = true;
                        eprintln!("error: {e}");
                        if json {
                            writeln!(
                                out,
                                "{}",
                                json!({"file": f.display().to_string(), "ok": false,
                                       "errors": diagnostics})
                            )?;
                        }
                    }
                }
            }
            return Ok(if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            });
        }
        MuralCommand::Solve {
            file,
            any,
            budget,
            json,
        } => {
            let p = load(&file)?;
            let t = Instant::now();
            let mode = if any { Mode::Any } else { Mode::Optimal };
            let s = solve(&p, &p.start, mode, budget, &());
            let moves: Vec<String> = s.moves.iter().map(|m| m.notation(&p.board)).collect();
            // Uniqueness comes with an optimal solve; `None` (JSON null)
            // when the count did not finish within the budget.
            let counted =
                (!any && s.status == Status::Solved).then(|| count(&p, &p.start, budget, &()));
            let solutions = counted.as_ref().and_then(murus_mural::Count::proven_sets);
            if json {
                writeln!(
                    out,
                    "{}",
                    json!({"status": status_str(s.status),
                           "length": (s.status == Status::Solved).then_some(moves.len()),
                           "moves": moves, "solutions": solutions, "nodes": s.nodes,
                           "reason": s.reason.as_ref().map(ToString::to_string)})
                )?;
            } else {
                match s.status {
                    Status::Solved => {
                        writeln!(
                            out,
                            "{} moves{}:",
                            moves.len(),
                            if any { "" } else { " (optimal)" }
                        )?;
                        writeln!(out, "{}", moves.join(" "))?;
                        match (&counted, solutions) {
                            (_, Some(n)) => writeln!(out, "distinct minimal solutions: {n}")?,
                            (Some(_), None) => writeln!(
                                out,
                                "distinct minimal solutions: unproven (the count did not finish within {budget} nodes)"
                            )?,
                            (None, None) => {}
                        }
                    }
                    Status::Unsolvable => writeln!(out, "{}", unsolvable(s.reason.as_ref()))?,
                    Status::Unproven => {
                        writeln!(out, "unproven: no solution found within {budget} nodes")?;
                    }
                }
            }
            eprintln!("{} nodes in {:.3} s", s.nodes, t.elapsed().as_secs_f64());
            if s.status == Status::Unproven {
                return Ok(ExitCode::from(2));
            }
        }
        MuralCommand::Count { file, budget, json } => {
            let p = load(&file)?;
            let c = count(&p, &p.start, budget, &());
            let rating = rate(&p, &c);
            // Partial counts are never shown: `null` unless proven.
            if json {
                writeln!(
                    out,
                    "{}",
                    json!({"status": status_str(c.status), "length": c.length,
                           "solutions": c.proven_sets(),
                           "orderings": c.proven_orderings().map(|o| o.to_string()),
                           "nodes": c.nodes, "difficulty": rating,
                           "reason": c.reason.as_ref().map(ToString::to_string)})
                )?;
            } else {
                match c.status {
                    Status::Solved => {
                        writeln!(
                            out,
                            "optimal length {}; {} distinct minimal solution{} ({} orderings)",
                            c.length.unwrap_or(0),
                            c.sets,
                            if c.sets == 1 { "" } else { "s" },
                            c.orderings
                                .map_or("too many to count".to_string(), |o| o.to_string())
                        )?;
                        if let Some(r) = rating {
                            writeln!(out, "difficulty: {} (score {:.1})", r.band, r.score)?;
                        }
                    }
                    Status::Unsolvable => writeln!(out, "{}", unsolvable(c.reason.as_ref()))?,
                    Status::Unproven => match c.length {
                        Some(l) => writeln!(
                            out,
                            "optimal length {l}; distinct minimal solutions: unproven (the count did not finish within {budget} nodes)"
                        )?,
                        None => writeln!(
                            out,
                            "unproven: no optimal solution found within {budget} nodes"
                        )?,
                    },
                }
            }
            if c.status == Status::Unproven {
                return Ok(ExitCode::from(2));
            }
        }
        MuralCommand::Hint {
            file,
            moves,
            budget,
            json,
        } => {
            let p = load(&file)?;
            let state = murus_mural::replay(&p, &moves).map_err(|e| anyhow!(e))?;
            match hint_for(&p, &state, budget, &()) {
                Ok(Hint::Move(m)) => {
                    let n = m.notation(&p.board);
                    if json {
                        writeln!(
                            out,
                            "{}",
                            json!({"status": "solvable", "move": n, "reason": null})
                        )?;
                    } else {
                        writeln!(out, "{n}")?;
                    }
                }
                Ok(Hint::Solved) => {
                    if json {
                        writeln!(
                            out,
                            "{}",
                            json!({"status": "solved", "move": null, "reason": null})
                        )?;
                    } else {
                        writeln!(out, "already solved: no move is left to play")?;
                    }
                }
                Ok(Hint::Unsolvable(reason)) => {
                    if json {
                        writeln!(
                            out,
                            "{}",
                            json!({"status": "unsolvable", "move": null,
                                   "reason": reason.to_string()})
                        )?;
                    } else {
                        writeln!(out, "this position cannot be solved any more: {reason}")?;
                    }
                }
                Err(_) => {
                    if json {
                        writeln!(
                            out,
                            "{}",
                            json!({"status": "unproven", "move": null, "reason": null})
                        )?;
                        eprintln!("no hint within {budget} nodes");
                        return Ok(ExitCode::from(2));
                    }
                    bail!("no hint within {budget} nodes")
                }
            }
        }
        MuralCommand::Generate {
            board,
            difficulty,
            colours,
            sacrifice,
            count: n,
            seed,
            out: dir,
            json,
        } => {
            if n == 0 {
                bail!("--count must be at least 1");
            }
            let opts = Options {
                board,
                colours,
                sacrifice,
                difficulty,
                seed,
                budget: 300_000,
            };
            let t = Instant::now();
            let puzzles = generate(&opts, n, &()).map_err(|e| anyhow!(e))?;
            for (i, (p, r)) in puzzles.iter().enumerate() {
                if let Some(dir) = &dir {
                    std::fs::create_dir_all(dir)?;
                    let path = dir.join(format!("generated-{seed}-{}.toml", i + 1));
                    std::fs::write(&path, p.to_toml())?;
                    writeln!(out, "{}", path.display())?;
                } else if json {
                    writeln!(out, "{}", json!({"toml": p.to_toml(), "rating": r}))?;
                } else {
                    if i > 0 {
                        writeln!(out)?;
                    }
                    write!(out, "{}", p.to_toml())?;
                }
            }
            let secs = t.elapsed().as_secs_f64();
            eprintln!(
                "{} puzzle(s) in {secs:.2} s ({:.1}/s)",
                puzzles.len(),
                puzzles.len() as f64 / secs.max(1e-9)
            );
        }
        MuralCommand::Bench {
            dir,
            quick,
            random_only,
        } => {
            if random_only {
                random_set(if quick { 10 } else { 50 }, 2029, out)?;
            } else {
                bench(&dir, quick, out)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn line(out: &mut impl Write, name: &str, times: &mut [f64]) -> Result<()> {
    times.sort_by(f64::total_cmp);
    writeln!(
        out,
        "{name:<44} n={:<4} p50 {:>9.3} ms  p90 {:>9.3} ms  p95 {:>9.3} ms  max {:>9.3} ms",
        times.len(),
        pct(times, 50.0) * 1e3,
        pct(times, 90.0) * 1e3,
        pct(times, 95.0) * 1e3,
        times.last().copied().unwrap_or(0.0) * 1e3
    )?;
    Ok(())
}

fn bench(dir: &Path, quick: bool, out: &mut impl Write) -> Result<()> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| anyhow!("cannot read `{}`: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut collection = Vec::new();
    for f in &files {
        collection.push(load(f)?);
    }
    // Generated sets: 5x5 with one colour (timed: the generator's speed),
    // 5x5 with two colours, and 8x7.
    let set = |board: &str, colours: usize, n: usize, seed: u64| {
        let opts = Options {
            board: board.into(),
            colours,
            sacrifice: false,
            difficulty: None,
            seed,
            budget: 300_000,
        };
        generate(&opts, n, &()).map_err(|e| anyhow!(e))
    };
    let n = if quick { 10 } else { 100 };
    let t = Instant::now();
    let mut generated = set("5x5", 1, n, 2026)?;
    let gen_secs = t.elapsed().as_secs_f64();
    let gen_count = generated.len();
    generated.extend(set("5x5", 2, n / 2, 2027)?);
    generated.extend(set("8x7", 1, n / 5, 2028)?);
    let all: Vec<&Puzzle> = collection
        .iter()
        .chain(generated.iter().map(|(p, _)| p))
        .collect();
    let (mut tower5, mut walls5, mut any78, mut opt78, mut other) =
        (vec![], vec![], vec![], vec![], vec![]);
    for p in &all {
        let tower_only = p
            .board
            .geometry
            .cells()
            .all(|s| p.start.get(s).is_none_or(|(_, h)| h == 2));
        let cells = p.board.geometry.cell_count();
        let t = Instant::now();
        let c = count(p, &p.start, BUDGET, &());
        let counted = t.elapsed().as_secs_f64();
        if c.status != Status::Solved {
            bail!("`{}` did not solve within the budget", p.title);
        }
        if cells == 25 && tower_only {
            tower5.push(counted);
        } else if cells == 25 {
            walls5.push(counted);
        } else if cells >= 56 {
            let t = Instant::now();
            solve(p, &p.start, Mode::Any, BUDGET, &());
            any78.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            solve(p, &p.start, Mode::Optimal, BUDGET, &());
            opt78.push(t.elapsed().as_secs_f64());
        } else {
            other.push(counted);
        }
    }
    writeln!(
        out,
        "murus mural bench: {} collection puzzles + {} generated (5x5 one and two colours, 8x7)",
        collection.len(),
        generated.len()
    )?;
    line(out, "5x5 tower-only: optimal + uniqueness", &mut tower5)?;
    line(out, "5x5 with walls: optimal + uniqueness", &mut walls5)?;
    line(out, "7x8/8x7: any solution", &mut any78)?;
    line(out, "7x8/8x7: optimal", &mut opt78)?;
    line(out, "other boards: optimal + uniqueness", &mut other)?;
    writeln!(
        out,
        "generator: {} unique 5x5 puzzles in {gen_secs:.2} s = {:.1} puzzles/s (target: at least 10)",
        gen_count,
        gen_count as f64 / gen_secs
    )?;
    random_set(if quick { 10 } else { 50 }, 2029, out)
}

/// A random 5x5 mural with walls in the start, not selected in any way:
/// towers and walls of one colour on random cells, then random moves until
/// no tower is left; the cells holding stones at the end are the targets.
/// `None` when the playout strands a tower.
pub fn playout_mural(rng: &mut SmallRng) -> Option<Puzzle> {
    let board = murus_mural::Board::parse("5x5").ok()?;
    let mut cells: Vec<usize> = board.geometry.cells().collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.random_range(0..=i));
    }
    let towers = rng.random_range(4..=7);
    let walls = rng.random_range(2..=4);
    let mut start = State::empty(board.slots());
    for (i, &c) in cells.iter().take(towers + walls).enumerate() {
        start.set(c, Some((0, if i < towers { 2 } else { 1 })));
    }
    let mut s = start.clone();
    let mut moves = Vec::new();
    loop {
        s.moves(&board, false, &mut moves);
        if moves.is_empty() {
            break;
        }
        s.apply(moves[rng.random_range(0..moves.len())]);
    }
    if s.towers().next().is_some() {
        return None;
    }
    let targets = (0..board.slots()).map(|c| s.get(c).is_some()).collect();
    Some(Puzzle {
        title: "random playout".into(),
        author: "murus mural bench".into(),
        board,
        colours: vec!['r'],
        sacrifice: false,
        start,
        targets,
        notes: None,
        optimal: None,
        difficulty: None,
    })
}

/// Optimal solve and count over random-playout murals (solvable by
/// construction, unique or not), with a budget: how many are settled.
fn random_set(n: usize, seed: u64, out: &mut impl Write) -> Result<()> {
    const RANDOM_BUDGET: u64 = 5_000_000;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut puzzles = Vec::new();
    while puzzles.len() < n {
        if let Some(p) = playout_mural(&mut rng) {
            puzzles.push(p);
        }
    }
    let (mut solve_times, mut count_times) = (vec![], vec![]);
    let (mut solved, mut unproven, mut counted, mut unique) = (0, 0, 0, 0);
    for p in &puzzles {
        let t = Instant::now();
        let s = solve(p, &p.start, Mode::Optimal, RANDOM_BUDGET, &());
        match s.status {
            Status::Solved => {
                solved += 1;
                solve_times.push(t.elapsed().as_secs_f64());
            }
            Status::Unproven => unproven += 1,
            Status::Unsolvable => bail!(
                "a random-playout mural came out unsolvable: {}",
                p.grid(&p.start)
            ),
        }
        let t = Instant::now();
        let c = count(p, &p.start, RANDOM_BUDGET, &());
        if let Some(sets) = c.proven_sets() {
            counted += 1;
            unique += usize::from(sets == 1);
            count_times.push(t.elapsed().as_secs_f64());
        }
    }
    writeln!(
        out,
        "random 5x5 with walls (random playouts, not selected): {n} murals, budget {RANDOM_BUDGET} nodes"
    )?;
    writeln!(
        out,
        "  optimal: {solved} solved, {unproven} unproven; count: {counted} proven ({unique} unique), {} unproven",
        n - counted
    )?;
    line(
        out,
        "random 5x5 walls: optimal (solved ones)",
        &mut solve_times,
    )?;
    line(
        out,
        "random 5x5 walls: optimal + count (proven)",
        &mut count_times,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playout_murals_are_valid_with_walls_in_the_start() {
        let mut rng = SmallRng::seed_from_u64(7);
        let mut made = 0;
        for _ in 0..200 {
            let Some(p) = playout_mural(&mut rng) else {
                continue;
            };
            made += 1;
            let q = Puzzle::from_toml(&p.to_toml()).expect("valid");
            assert_eq!(q.start, p.start);
            let cells = p.board.geometry.cells();
            let walls = cells.filter(|&c| p.start.get(c).is_some_and(|(_, h)| h == 1));
            assert!(walls.count() >= 2, "walls in the start");
        }
        assert!(made >= 20, "{made} of 200 playouts strand no tower");
    }
}
