//! `murus mural …`: thin shell over `murus-mural`. Each subcommand is a
//! function returning its answer, printed as text or JSON by
//! [`crate::answer::print`].
//!
//! Exit codes: 0; 1 for errors (bad files, illegal moves); 2 when the
//! verdict is unproven within the budget (`solve`, `count`, `hint`).

mod bench;
mod sheet;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand};
use murus_mural::generate::{Options, Rating, generate, rate};
use murus_mural::{Hint, Mode, Puzzle, Reason, Status, collection, count, hint_for, solve};
use serde::Serialize;

use murus_engine::text::plural;

use crate::answer::{self, Answer, Format, as_text_or_null, print};

/// Default solver budget, in nodes.
const BUDGET: u64 = 50_000_000;

#[derive(Subcommand)]
pub enum MuralCommand {
    /// List the shipped puzzles (built in: any of them may be given by
    /// name where a puzzle file is asked for).
    List(ListArgs),
    /// Load and validate puzzle files.
    Check(CheckArgs),
    /// Solve a puzzle: the shortest solution, or `--any` solution.
    Solve(SolveArgs),
    /// Count the minimal solutions (as sets of moves) and their orderings.
    Count(CountArgs),
    /// The next move of an optimal solution after MOVES played from the start.
    Hint(HintArgs),
    /// Generate puzzles with a unique minimal solution.
    Generate(GenerateArgs),
    /// Solver and generator speed over the collection, a generated set and
    /// a random (unselected) set of 5x5 murals with walls.
    Bench(BenchArgs),
    /// A printable page of murals (targets marked, par, difficulty) with
    /// their solutions on a second page: DIR/index.html.
    Sheet(sheet::MuralSheetArgs),
}

/// Runs one `murus mural` subcommand and prints its answer.
pub fn run(cmd: MuralCommand, out: &mut impl Write) -> Result<ExitCode> {
    let json = Format::json_if;
    match cmd {
        MuralCommand::List(a) => print(&list(), json(a.json), out),
        MuralCommand::Check(a) => print(&check(&a), json(a.json), out),
        MuralCommand::Solve(a) => print(&solve_file(&a)?, json(a.json), out),
        MuralCommand::Count(a) => print(&count_file(&a)?, json(a.json), out),
        MuralCommand::Hint(a) => print(&hint(&a)?, json(a.json), out),
        MuralCommand::Generate(a) => print(&generate_puzzles(&a)?, json(a.json), out),
        MuralCommand::Sheet(a) => print(&sheet::mural_sheet(&a)?, json(a.json), out),
        MuralCommand::Bench(a) => print(
            &bench::bench(
                &a.dir,
                a.quick,
                a.random_only,
                a.runs
                    .map_or(if a.random_only { 3 } else { 1 }, |r| r as usize),
            )?,
            Format::Text,
            out,
        ),
    }
}

/// A puzzle file's error as JSON.
#[derive(Serialize)]
pub struct PuzzleError {
    pub message: String,
    /// Where, when the file was read (from 1).
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub notes: Vec<String>,
    /// A suggested fix.
    pub help: Option<String>,
}

/// A puzzle file that does not load: the error, its diagnostics rendered
/// like rustc's, and the same as [`PuzzleError`]s.
struct BadPuzzle {
    error: anyhow::Error,
    rendered: String,
    errors: Vec<PuzzleError>,
}

/// Loads a puzzle; diagnostics go to stderr.
pub fn load(path: &Path) -> Result<Puzzle> {
    load_reporting(path).map_err(|bad| {
        eprint!("{}", bad.rendered);
        bad.error
    })
}

/// Loads a puzzle, or says why not. A path that is no file but a shipped
/// puzzle's name (`02-5x5-easy`, `.toml` optional) is that puzzle.
fn load_reporting(path: &Path) -> Result<Puzzle, BadPuzzle> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound && shipped_text(path).is_some() => {
            shipped_text(path).unwrap_or_default().to_string()
        }
        Err(e) => {
            let error = anyhow::Error::from(e)
                .context(format!("cannot read puzzle file `{}`", path.display()));
            let only = PuzzleError {
                message: format!("{error:#}"),
                line: None,
                column: None,
                notes: Vec::new(),
                help: None,
            };
            return Err(BadPuzzle {
                error,
                rendered: String::new(),
                errors: vec![only],
            });
        }
    };
    Puzzle::from_toml(&text).map_err(|diags| {
        let name = path.display().to_string();
        let errors = diags
            .iter()
            .map(|d| {
                let (line, column) = d.line_col(&text);
                PuzzleError {
                    message: d.message.clone(),
                    line: Some(line),
                    column: Some(column),
                    notes: d.notes.clone(),
                    help: d.help.clone(),
                }
            })
            .collect();
        BadPuzzle {
            error: anyhow!("`{name}` is not a valid puzzle"),
            rendered: murus_dsl::render_all(&diags, &name, &text),
            errors,
        }
    })
}

/// The text of the shipped puzzle `name` names (`02-5x5-easy`, with or
/// without `.toml`; no folder).
fn shipped_text(name: &Path) -> Option<&'static str> {
    if name.components().count() != 1 {
        return None;
    }
    let name = name.to_str()?;
    collection::shipped(name).or_else(|| collection::shipped(&format!("{name}.toml")))
}

/// `murus mural list`'s arguments.
#[derive(Args)]
pub struct ListArgs {
    #[arg(long)]
    pub json: bool,
}

/// `murus mural list`: the shipped puzzles.
#[derive(Serialize)]
pub struct Listed {
    pub puzzles: Vec<ListedPuzzle>,
}

/// One shipped puzzle.
#[derive(Serialize)]
pub struct ListedPuzzle {
    /// Its name (the file name without `.toml`), which commands take.
    pub name: String,
    pub title: String,
    pub board: String,
    pub optimal: Option<u32>,
    pub difficulty: Option<String>,
}

/// `murus mural list`.
pub fn list() -> Listed {
    let puzzles = collection::SHIPPED
        .iter()
        .filter_map(|(file, text)| {
            // The collection's test keeps every one valid.
            let p = Puzzle::from_toml(text).ok()?;
            Some(ListedPuzzle {
                name: file.trim_end_matches(".toml").to_string(),
                title: p.title,
                board: p.board.text,
                optimal: p.optimal,
                difficulty: p.difficulty,
            })
        })
        .collect();
    Listed { puzzles }
}

impl Answer for Listed {
    /// A line a puzzle, in columns as wide as their longest entry.
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let width = |f: fn(&ListedPuzzle) -> &str| {
            self.puzzles
                .iter()
                .map(|p| f(p).chars().count())
                .max()
                .unwrap_or(0)
        };
        let name = width(|p| &p.name);
        let title = width(|p| &p.title);
        let board = width(|p| &p.board);
        let level = width(|p| p.difficulty.as_deref().unwrap_or(""));
        for p in &self.puzzles {
            let par = p
                .optimal
                .map_or(String::new(), |n| plural(u64::from(n), "move"));
            let line = format!(
                "{:<name$}  {:<title$}  {:<board$}  {:<level$}  {par}",
                p.name,
                p.title,
                p.board,
                p.difficulty.as_deref().unwrap_or("")
            );
            writeln!(out, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

/// The text answer for an unsolvable mural: the verdict and why.
fn unsolvable(reason: Option<&murus_mural::Reason>) -> String {
    murus_mural::verdict(Status::Unsolvable, reason)
}

/// `murus mural check`'s arguments.
#[derive(Args)]
pub struct CheckArgs {
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

/// `murus mural check`'s answer: a verdict a file, in the order given.
#[derive(Serialize)]
pub struct Checked {
    pub files: Vec<FileCheck>,
}

/// One puzzle file checked.
#[derive(Serialize)]
pub struct FileCheck {
    pub file: String,
    pub ok: bool,
    #[serde(flatten)]
    pub verdict: Verdict,
    /// What goes to stderr: the diagnostics and the error.
    #[serde(skip)]
    pub log: String,
}

/// A loaded puzzle in brief, or why it does not load.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Verdict {
    Ok {
        title: String,
        board: String,
        colours: Vec<String>,
        towers: usize,
        targets: usize,
        sacrifice: bool,
    },
    Bad {
        errors: Vec<PuzzleError>,
    },
}

/// `murus mural check`.
pub fn check(a: &CheckArgs) -> Checked {
    let files = a
        .files
        .iter()
        .map(|f| {
            let file = f.display().to_string();
            match load_reporting(f) {
                Ok(p) => FileCheck {
                    file,
                    ok: true,
                    verdict: Verdict::Ok {
                        title: p.title.clone(),
                        board: p.board.text.clone(),
                        colours: p.colours.iter().map(char::to_string).collect(),
                        towers: p.start.towers().count(),
                        targets: p.target_cells().len(),
                        sacrifice: p.sacrifice,
                    },
                    log: String::new(),
                },
                Err(bad) => FileCheck {
                    file,
                    ok: false,
                    log: format!("{}error: {}\n", bad.rendered, bad.error),
                    verdict: Verdict::Bad { errors: bad.errors },
                },
            }
        })
        .collect();
    Checked { files }
}

impl Answer for Checked {
    /// A line a valid file; the others are on stderr.
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for f in &self.files {
            if let Verdict::Ok {
                title,
                board,
                colours,
                towers,
                targets,
                sacrifice,
            } = &f.verdict
            {
                writeln!(
                    out,
                    "{}: ok: {title} ({board}, {}, {towers} towers, {targets} targets{})",
                    f.file,
                    plural(colours.len() as u64, "colour"),
                    if *sacrifice { ", sacrifice" } else { "" }
                )?;
            }
        }
        Ok(())
    }

    /// A line a file.
    fn json(&self, out: &mut dyn Write) -> io::Result<()> {
        for f in &self.files {
            answer::json_line(f, out)?;
        }
        Ok(())
    }

    fn notes(&self) -> String {
        self.files.iter().map(|f| f.log.as_str()).collect()
    }

    fn exit_code(&self) -> ExitCode {
        if self.files.iter().all(|f| f.ok) {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        }
    }
}

/// Exit code 2 for a verdict not proven within the budget.
fn unproven_exit(status: Status) -> ExitCode {
    if status == Status::Unproven {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// `murus mural solve`'s arguments.
#[derive(Args)]
pub struct SolveArgs {
    pub file: PathBuf,
    #[arg(long)]
    pub any: bool,
    /// Node budget; past it the verdict is "unproven".
    #[arg(long, default_value_t = BUDGET)]
    pub budget: u64,
    #[arg(long)]
    pub json: bool,
}

/// `murus mural solve`'s answer.
#[derive(Serialize)]
pub struct Solved {
    pub status: Status,
    /// The number of moves, when solved.
    pub length: Option<usize>,
    pub moves: Vec<String>,
    /// The distinct minimal solutions, after an optimal solve whose count
    /// finished within the budget (`null` otherwise: never a partial count).
    pub solutions: Option<u64>,
    pub nodes: u64,
    /// Why the mural cannot be solved, when it cannot.
    #[serde(serialize_with = "as_text_or_null")]
    pub reason: Option<Reason>,
    /// Whether any solution was asked for, not the shortest.
    #[serde(skip)]
    pub any: bool,
    /// Whether the minimal solutions were counted.
    #[serde(skip)]
    pub counted: bool,
    #[serde(skip)]
    pub budget: u64,
    #[serde(skip)]
    pub seconds: f64,
}

/// `murus mural solve`: with an optimal solution, whether it is unique.
pub fn solve_file(a: &SolveArgs) -> Result<Solved> {
    let (any, budget) = (a.any, a.budget);
    let p = load(&a.file)?;
    let t = Instant::now();
    let mode = if any { Mode::Any } else { Mode::Optimal };
    let s = solve(&p, &p.start, mode, budget, &());
    let moves: Vec<String> = s.moves.iter().map(|m| m.notation(&p.board)).collect();
    // Uniqueness comes with an optimal solve; `None` (JSON null)
    // when the count did not finish within the budget.
    let counted = (!any && s.status == Status::Solved).then(|| count(&p, &p.start, budget, &()));
    let solutions = counted.as_ref().and_then(murus_mural::Count::proven_sets);
    Ok(Solved {
        status: s.status,
        length: (s.status == Status::Solved).then_some(moves.len()),
        moves,
        solutions,
        nodes: s.nodes,
        reason: s.reason,
        any,
        counted: counted.is_some(),
        budget,
        seconds: t.elapsed().as_secs_f64(),
    })
}

impl Answer for Solved {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let budget = self.budget;
        match self.status {
            Status::Solved => {
                writeln!(
                    out,
                    "{} moves{}:",
                    self.moves.len(),
                    if self.any { "" } else { " (optimal)" }
                )?;
                writeln!(out, "{}", self.moves.join(" "))?;
                match (self.counted, self.solutions) {
                    (_, Some(n)) => writeln!(out, "distinct minimal solutions: {n}")?,
                    (true, None) => writeln!(
                        out,
                        "distinct minimal solutions: unproven (the count did not finish within {budget} nodes)"
                    )?,
                    (false, None) => {}
                }
            }
            Status::Unsolvable => writeln!(out, "{}", unsolvable(self.reason.as_ref()))?,
            Status::Unproven => {
                writeln!(out, "unproven: no solution found within {budget} nodes")?;
            }
        }
        Ok(())
    }

    fn notes(&self) -> String {
        format!("{} nodes in {:.3} s\n", self.nodes, self.seconds)
    }

    fn exit_code(&self) -> ExitCode {
        unproven_exit(self.status)
    }
}

/// `murus mural count`'s arguments.
#[derive(Args)]
pub struct CountArgs {
    pub file: PathBuf,
    #[arg(long, default_value_t = BUDGET)]
    pub budget: u64,
    #[arg(long)]
    pub json: bool,
}

/// `murus mural count`'s answer. Partial counts are never shown: a count
/// is `null` unless proven.
#[derive(Serialize)]
pub struct Counted {
    pub status: Status,
    /// The optimal length, when proven (it may be known when the count is
    /// not).
    pub length: Option<u32>,
    pub solutions: Option<u64>,
    /// The orderings of all minimal solutions, as text (they may not fit
    /// a JSON number).
    pub orderings: Option<String>,
    pub nodes: u64,
    /// The rating, from a finished count.
    pub difficulty: Option<Rating>,
    #[serde(serialize_with = "as_text_or_null")]
    pub reason: Option<Reason>,
    /// The minimal solutions found (all of them when solved).
    #[serde(skip)]
    pub sets: u64,
    /// The orderings, `None` when too many to count.
    #[serde(skip)]
    pub all_orderings: Option<u128>,
    #[serde(skip)]
    pub budget: u64,
}

/// `murus mural count`.
pub fn count_file(a: &CountArgs) -> Result<Counted> {
    let p = load(&a.file)?;
    let c = count(&p, &p.start, a.budget, &());
    Ok(Counted {
        status: c.status,
        length: c.length,
        solutions: c.proven_sets(),
        orderings: c.proven_orderings().map(|o| o.to_string()),
        nodes: c.nodes,
        difficulty: rate(&p, &c),
        sets: c.sets,
        all_orderings: c.orderings,
        reason: c.reason,
        budget: a.budget,
    })
}

impl Answer for Counted {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let budget = self.budget;
        match self.status {
            Status::Solved => {
                writeln!(
                    out,
                    "optimal length {}; {} ({} orderings)",
                    self.length.unwrap_or(0),
                    plural(self.sets, "distinct minimal solution"),
                    self.all_orderings
                        .map_or("too many to count".to_string(), |o| o.to_string())
                )?;
                if let Some(r) = &self.difficulty {
                    writeln!(out, "difficulty: {} (score {:.1})", r.band, r.score)?;
                }
            }
            Status::Unsolvable => writeln!(out, "{}", unsolvable(self.reason.as_ref()))?,
            Status::Unproven => match self.length {
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
        Ok(())
    }

    fn exit_code(&self) -> ExitCode {
        unproven_exit(self.status)
    }
}

/// `murus mural hint`'s arguments.
#[derive(Args)]
pub struct HintArgs {
    pub file: PathBuf,
    /// Moves already played, in notation.
    #[arg(long, num_args = 0..)]
    pub moves: Vec<String>,
    #[arg(long, default_value_t = BUDGET)]
    pub budget: u64,
    #[arg(long)]
    pub json: bool,
}

/// `murus mural hint`'s answer.
#[derive(Serialize)]
pub struct Hinted {
    /// `solvable` (with a move), `solved` (nothing left to play),
    /// `unsolvable` (with the reason) or `unproven` (within the budget).
    pub status: &'static str,
    #[serde(rename = "move")]
    pub next: Option<String>,
    #[serde(serialize_with = "as_text_or_null")]
    pub reason: Option<Reason>,
    #[serde(skip)]
    pub budget: u64,
}

/// `murus mural hint`: the next move of an optimal solution from the start
/// after the moves given.
pub fn hint(a: &HintArgs) -> Result<Hinted> {
    let p = load(&a.file)?;
    let state = murus_mural::replay(&p, &a.moves).map_err(anyhow::Error::from)?;
    let (status, next, reason) = match hint_for(&p, &state, a.budget, &()) {
        Ok(Hint::Move(m)) => ("solvable", Some(m.notation(&p.board)), None),
        Ok(Hint::Solved) => ("solved", None, None),
        Ok(Hint::Unsolvable(reason)) => ("unsolvable", None, Some(reason)),
        Err(_) => ("unproven", None, None),
    };
    Ok(Hinted {
        status,
        next,
        reason,
        budget: a.budget,
    })
}

impl Answer for Hinted {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        match (self.status, &self.next, &self.reason) {
            (_, Some(m), _) => writeln!(out, "{m}"),
            ("solved", ..) => writeln!(out, "already solved: no move is left to play"),
            (_, _, Some(reason)) => {
                writeln!(out, "this position cannot be solved any more: {reason}")
            }
            _ => writeln!(out, "unproven: no hint within {} nodes", self.budget),
        }
    }

    fn exit_code(&self) -> ExitCode {
        if self.status == "unproven" {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// `murus mural generate`'s arguments.
#[derive(Args)]
pub struct GenerateArgs {
    /// Board: `5x5`, or rules-language board text (`hex 3`).
    #[arg(long, default_value = "5x5")]
    pub board: String,
    /// easy, medium or hard (default: any).
    #[arg(long)]
    pub difficulty: Option<String>,
    #[arg(long, default_value_t = 1)]
    pub colours: usize,
    #[arg(long)]
    pub sacrifice: bool,
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write each puzzle to DIR/NAME.toml instead of printing it.
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

/// `murus mural generate`'s answer.
#[derive(Serialize)]
pub struct Generated {
    pub puzzles: Vec<GeneratedPuzzle>,
    #[serde(skip)]
    pub seconds: f64,
    /// The puzzles asked for, when Ctrl-C (or SIGTERM, SIGHUP) stopped the
    /// generator first.
    #[serde(skip)]
    pub interrupted: Option<usize>,
}

/// A generated puzzle, and where it was written.
#[derive(Serialize)]
pub struct GeneratedPuzzle {
    pub toml: String,
    pub rating: Rating,
    /// The file written, with `--out`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

/// `murus mural generate`: with `--out`, each puzzle is written to
/// `DIR/generated-SEED-N.toml`.
pub fn generate_puzzles(a: &GenerateArgs) -> Result<Generated> {
    if a.count == 0 {
        bail!("--count must be at least 1");
    }
    let opts = Options {
        board: a.board.clone(),
        colours: a.colours,
        sacrifice: a.sacrifice,
        difficulty: a.difficulty.clone(),
        seed: a.seed,
        budget: 300_000,
    };
    let t = Instant::now();
    // A signal stops the generator: the puzzles found so far are kept.
    let stop = crate::signal::stop();
    let made = generate(&opts, a.count, &stop).map_err(anyhow::Error::from)?;
    let mut puzzles = Vec::with_capacity(made.len());
    for (i, (p, rating)) in made.into_iter().enumerate() {
        let toml = p.to_toml();
        let file = match &a.out {
            Some(dir) => {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create `{}`", dir.display()))?;
                let path = dir.join(format!("generated-{}-{}.toml", a.seed, i + 1));
                murus_engine::util::write_atomic(&path, &toml)?;
                Some(path.display().to_string())
            }
            None => None,
        };
        puzzles.push(GeneratedPuzzle { toml, rating, file });
    }
    Ok(Generated {
        interrupted: (stop.is_cancelled() && puzzles.len() < a.count).then_some(a.count),
        puzzles,
        seconds: t.elapsed().as_secs_f64(),
    })
}

impl Answer for Generated {
    /// The puzzles, a blank line between them; with `--out`, the files.
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for (i, p) in self.puzzles.iter().enumerate() {
            if let Some(file) = &p.file {
                writeln!(out, "{file}")?;
            } else {
                if i > 0 {
                    writeln!(out)?;
                }
                write!(out, "{}", p.toml)?;
            }
        }
        Ok(())
    }

    /// A line a puzzle (naming its file with `--out`).
    fn json(&self, out: &mut dyn Write) -> io::Result<()> {
        for p in &self.puzzles {
            answer::json_line(p, out)?;
        }
        Ok(())
    }

    fn notes(&self) -> String {
        let n = self.puzzles.len();
        let mut notes = format!(
            "{n} puzzle(s) in {:.2} s ({:.1}/s)\n",
            self.seconds,
            n as f64 / self.seconds.max(1e-9)
        );
        if let Some(asked) = self.interrupted {
            notes.push_str(&format!("interrupted: {n} of {asked} puzzle(s) found\n"));
        }
        notes
    }

    fn exit_code(&self) -> ExitCode {
        if self.interrupted.is_some() {
            crate::signal::interrupted()
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// `murus mural bench`'s arguments.
#[derive(Args)]
pub struct BenchArgs {
    /// Directory of puzzles (default: puzzles/).
    #[arg(long, default_value = "puzzles")]
    pub dir: PathBuf,
    #[arg(long)]
    pub quick: bool,
    /// Only the random 5x5-with-walls set (the solver's hardest case).
    #[arg(long)]
    pub random_only: bool,
    /// How many times the random set's optimal solves are timed (the
    /// median of the runs' 90th percentiles is printed); default 3 with
    /// `--random-only`, else 1.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub runs: Option<u64>,
}
