//! `murus`: the Murus command line.
//!
//! A thin shell over `murus-dsl` and `murus-engine`; see `murus --help`.

mod balance;
mod baseline;
mod lab;
mod mural;
mod sweep;
mod train;

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Parser, Subcommand};
use murus_engine::{BUILTIN, Engine, EngineTask, Game, Position, Variant, Word};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

#[derive(Parser)]
#[command(
    name = "murus",
    version,
    about = "Murus Gallicus workbench: rules, engine, perft and more"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile rule files; one summary line each, diagnostics on stderr.
    /// A file with parameters is checked with their defaults, or with the
    /// values given by --set; its summary line lists them.
    Check {
        /// Rule files (`.mg`).
        #[arg(required = true)]
        files: Vec<String>,
        /// Set a declared parameter (`--set files=9`) to check that
        /// combination; repeat for several parameters.
        #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_setting)]
        set: Vec<(String, u32)>,
    },
    /// Draw a position as text.
    Show {
        /// A `.mg` file or a shipped variant's name (`standard`, `advanced`, …).
        variant: String,
        /// A position string (default: the start).
        #[arg(long)]
        position: Option<String>,
    },
    /// List the legal moves, one per line, in notation.
    Moves {
        variant: String,
        #[arg(long)]
        position: Option<String>,
    },
    /// Count leaf nodes DEPTH plies ahead.
    Perft {
        variant: String,
        depth: u32,
        #[arg(long)]
        position: Option<String>,
        /// Count below each legal move separately.
        #[arg(long)]
        divide: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play moves given in notation and report where the game stands.
    Replay {
        variant: String,
        #[arg(long)]
        position: Option<String>,
        /// Moves in notation (`d1-d3`, `b4xc5`, `d4*f6`, `d1:b2,g2`, `swap`).
        moves: Vec<String>,
        #[arg(long)]
        json: bool,
    },
    /// Measure perft and random-playout speed of the standard and Advanced games.
    Bench {
        /// Fewer, shorter runs (for a smoke test).
        #[arg(long)]
        quick: bool,
    },
    /// List the shipped variants.
    Variants,
    /// Batch self-play with a balance report.
    Selfplay(lab::SelfplayArgs),
    /// A match between two bots: paired games with seats swapped, Elo, SPRT.
    Match(lab::MatchArgs),
    /// Is the variant fair, at every level of play? Self-play per level
    /// until the first player's rate is known, the skill trace, a verdict.
    Balance(balance::BalanceArgs),
    /// Sweep a rule file's parameters: the balance check of every
    /// combination, ranked (unplayable < broken < unbalanced < playable),
    /// as a table, sweep.json, sweep.csv and sweep.svg.
    Sweep(sweep::SweepArgs),
    /// Lab utilities.
    Lab {
        #[command(subcommand)]
        command: lab::LabCommand,
    },
    /// Murals: check, solve, count, hint, generate, bench.
    Mural {
        #[command(subcommand)]
        command: mural::MuralCommand,
    },
    /// The best move and line of a position, its score, and with --multipv
    /// the K best moves.
    Analyze(AnalyzeArgs),
    /// Learn an evaluation for a variant from self-play: writes an
    /// evaluation file (`VARIANT.eval`).
    Train(train::TrainArgs),
    /// Speak UGI, the Universal Game Interface, on stdin and stdout: an
    /// engine for tournament managers (docs/engine-protocol.md).
    Ugi {
        /// The variant to start on (`setoption name variant` changes it).
        #[arg(default_value = "standard")]
        variant: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            if let Some(io) = e.downcast_ref::<io::Error>() {
                if io.kind() == io::ErrorKind::BrokenPipe {
                    return ExitCode::SUCCESS;
                }
            }
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    if let Command::Ugi { variant } = &cli.command {
        // Before stdout is locked: the search thread writes to it too.
        return ugi(variant);
    }
    let mut out = io::stdout().lock();
    match cli.command {
        Command::Selfplay(args) => {
            let v = load_variant(&args.variant)?;
            return lab::selfplay(&v, args, &mut out);
        }
        Command::Match(args) => {
            let v = load_variant(&args.variant)?;
            return lab::matchup(&v, args, &mut out);
        }
        Command::Balance(args) => {
            if !args.merge.is_empty() {
                return balance::merge(args, &mut out);
            }
            let v = load_variant(args.variant.as_deref().unwrap_or_default())?;
            return balance::run(&v, args, &mut out);
        }
        Command::Sweep(args) => return sweep::run(args, &mut out),
        Command::Lab { command } => return lab::lab(command, &mut out),
        Command::Train(args) => {
            let v = load_variant(&args.variant)?;
            return train::run(&v, args, &mut out);
        }
        Command::Mural { command } => return mural::run(command, &mut out),
        Command::Ugi { .. } => unreachable!("answered before stdout is locked"),
        Command::Analyze(args) => analyze(&args, &mut out)?,
        Command::Check { files, set } => return check(&files, &set, &mut out),
        Command::Show { variant, position } => {
            let v = load_variant(&variant)?;
            let pos = load_position(&v, position.as_deref())?;
            write!(out, "{}", v.render(&pos))?;
        }
        Command::Moves { variant, position } => {
            let v = load_variant(&variant)?;
            let pos = load_position(&v, position.as_deref())?;
            for m in v.legal_moves(&pos) {
                writeln!(out, "{}", v.move_to_string(m))?;
            }
        }
        Command::Perft {
            variant,
            depth,
            position,
            divide,
            json,
        } => {
            let v = load_variant(&variant)?;
            let pos = load_position(&v, position.as_deref())?;
            let t = Instant::now();
            let (nodes, rows) = if divide {
                let rows = v.perft_divide(&pos, depth);
                (rows.iter().map(|r| r.1).sum(), rows)
            } else {
                (v.perft(&pos, depth), Vec::new())
            };
            let seconds = t.elapsed().as_secs_f64();
            let nps = if seconds > 0.0 {
                nodes as f64 / seconds
            } else {
                0.0
            };
            if json {
                let mut j = json!({"depth": depth, "nodes": nodes, "seconds": seconds, "nodes_per_second": nps.round()});
                if divide {
                    j["divide"] = rows
                        .iter()
                        .map(|(m, n)| (v.move_to_string(*m), json!(n)))
                        .collect();
                }
                writeln!(out, "{j}")?;
            } else {
                for (m, n) in &rows {
                    writeln!(out, "{}: {n}", v.move_to_string(*m))?;
                }
                writeln!(
                    out,
                    "perft({depth}) = {nodes}  ({seconds:.3} s, {:.1} M nodes/s)",
                    nps / 1e6
                )?;
            }
        }
        Command::Replay {
            variant,
            position,
            moves,
            json,
        } => {
            let v = load_variant(&variant)?;
            let pos = load_position(&v, position.as_deref())?;
            let mut game = Game::from_position(&v, pos);
            for (i, text) in moves.iter().enumerate() {
                if let Err(e) = game.play_str(text) {
                    eprintln!("error: ply {}: {e}", i + 1);
                    return Ok(ExitCode::FAILURE);
                }
            }
            let outcome = game.outcome();
            if json {
                let j = json!({
                    "plies": game.ply(),
                    "position": v.position_string(game.position()),
                    "status": if outcome.is_some() { "over" } else { "ongoing" },
                    "winner": outcome.and_then(|o| o.winner).map(|w| v.letter(w).to_string()),
                    "reason": outcome.map(|o| o.reason.as_str()),
                    "by": outcome.and_then(|o| o.reason.by()),
                });
                writeln!(out, "{j}")?;
            } else {
                write!(out, "{}", v.render(game.position()))?;
                writeln!(out, "{}", v.position_string(game.position()))?;
                if let Some(o) = outcome {
                    writeln!(out, "{}", v.describe_outcome(o))?;
                }
            }
        }
        Command::Bench { quick } => bench(quick, &mut out)?,
        Command::Variants => {
            for (name, src) in BUILTIN {
                let v = Variant::compile(src)
                    .map_err(|_| anyhow!("shipped variant `{name}` does not compile"))?;
                writeln!(out, "{name:<18} {}", v.rules().title)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `--set NAME=VALUE`: a parameter's name and a value for it.
fn parse_setting(text: &str) -> Result<(String, u32), String> {
    let Some((name, value)) = text.split_once('=') else {
        return Err(format!(
            "`{text}` is not NAME=VALUE (for example `files=9`)"
        ));
    };
    let name = name.trim().trim_start_matches('$');
    if name.is_empty() {
        return Err(format!("`{text}` has no parameter name before `=`"));
    }
    let is_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_name {
        return Err(format!(
            "`{name}` is not a parameter name (a letter or `_`, then letters, digits and `_`)"
        ));
    }
    let value = value.trim();
    let value = value.parse::<u32>().map_err(|_| {
        format!(
            "`{value}` is not a value for `{name}`: parameters take whole numbers from 0 to {}",
            u32::MAX
        )
    })?;
    Ok((name.to_string(), value))
}

/// The parameters of a checked file, for its summary line: the values set,
/// and the declarations of the others (`files = 9 (set, of 7..9); ranks =
/// 6..8 (default 7)`).
fn params_summary(source: &str, set: &[(String, u32)]) -> Option<String> {
    let params = murus_dsl::params(source).ok()?;
    let shown: Vec<String> = params
        .iter()
        .map(|p| match set.iter().find(|(n, _)| *n == p.name) {
            Some((_, v)) => format!("{} = {v} (set, of {})", p.name, p.values_text()),
            None => p.to_string(),
        })
        .collect();
    (!shown.is_empty()).then(|| format!("; params: {}", shown.join("; ")))
}

/// `murus check`: exit 1 if any file has an error.
fn check(files: &[String], set: &[(String, u32)], out: &mut impl Write) -> Result<ExitCode> {
    let mut failed = false;
    for file in files {
        let source = match std::fs::read_to_string(file) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: cannot read `{file}`: {e}");
                writeln!(out, "{file}: cannot be read")?;
                failed = true;
                continue;
            }
        };
        match murus_dsl::compile_with(&source, set) {
            Ok(compiled) => {
                if !compiled.warnings.is_empty() {
                    eprint!(
                        "{}",
                        murus_dsl::render_all(&compiled.warnings, file, &source)
                    );
                }
                let r = &compiled.rules;
                let g = &r.geometry;
                let shape = match g.kind() {
                    murus_dsl::ShapeKind::Rect => format!("{}x{}", g.width(), g.height()),
                    murus_dsl::ShapeKind::Hex => format!("hex {}", g.width().div_ceil(2)),
                };
                let warn = match compiled.warnings.len() {
                    0 => String::new(),
                    n => format!(", {n} warning{}", if n == 1 { "" } else { "s" }),
                };
                let params = params_summary(&source, set).unwrap_or_default();
                writeln!(
                    out,
                    "{file}: ok: {} ({}), board {shape} with {} cells, {} players, stack limit {}{warn}{params}",
                    r.name,
                    r.title,
                    g.cell_count(),
                    r.players.len(),
                    r.stack_limit
                )?;
            }
            Err(diags) => {
                failed = true;
                eprint!("{}", murus_dsl::render_all(&diags, file, &source));
                let errors = diags
                    .iter()
                    .filter(|d| d.severity == murus_dsl::Severity::Error)
                    .count();
                writeln!(
                    out,
                    "{file}: {errors} error{}",
                    if errors == 1 { "" } else { "s" }
                )?;
            }
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// `murus analyze`'s arguments.
#[derive(clap::Args)]
struct AnalyzeArgs {
    variant: String,
    /// A position string (default: the start).
    #[arg(long)]
    position: Option<String>,
    /// Moves played from the position, in notation.
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// The budget as an alpha-beta bot: `alphabeta:NODES` or a level
    /// (`medium`, `hard`); default `hard`.
    #[arg(long, conflicts_with = "movetime")]
    bot: Option<String>,
    /// Think for this many milliseconds instead of a node budget.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search no deeper than this many plies.
    #[arg(long)]
    depth: Option<u32>,
    /// Show the K best moves, each with its score and line.
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    #[arg(long)]
    json: bool,
}

fn analyze(a: &AnalyzeArgs, out: &mut impl Write) -> Result<()> {
    use murus_ai::BotSpec;
    use murus_ai::analysis::{Analyser, Limits, Score};
    if a.multipv == 0 {
        bail!("--multipv must be at least 1");
    }
    let mut limits = Limits {
        depth: a.depth,
        ..Limits::default()
    };
    if a.depth.is_some_and(|d| !(1..=64).contains(&d)) {
        bail!("--depth must be from 1 to 64");
    }
    let mut eval = None;
    match a.movetime {
        Some(0) => bail!("--movetime must be at least 1 ms"),
        Some(ms) => limits.time = Some(std::time::Duration::from_millis(ms)),
        None => {
            let spec: BotSpec = a.bot.as_deref().unwrap_or("hard").parse()?;
            let BotSpec::AlphaBeta { nodes, eval: file } = spec else {
                bail!(
                    "--bot {spec}: analysis searches with alpha-beta: give alphabeta:NODES, medium or hard, or --movetime MS"
                );
            };
            limits.nodes = Some(nodes);
            eval = file;
        }
    }
    let v = &load_variant(&a.variant)?;
    let mut analyser = Analyser::new(64);
    if let Some(file) = eval {
        let e = file.evaluation_for(v).map_err(|e| anyhow!("--bot: {e}"))?;
        analyser.set_evaluation(Some(e));
    }
    let pos = load_position(v, a.position.as_deref())?;
    let mut game = Game::from_position(v, pos);
    for (i, m) in a.moves.iter().enumerate() {
        game.play_str(m)
            .map_err(|e| anyhow!("--moves: move {} `{m}`: {e}", i + 1))?;
    }
    if let Some(o) = game.outcome() {
        bail!("the game is over: {}", v.describe_outcome(o));
    }
    let seed = v.hash(game.position());
    let found = analyser
        .analyse_lines(&game, limits, a.multipv, seed, &())
        .ok_or_else(|| anyhow!("no move to analyse"))?;
    let evaluation = analyser.evaluation(v);
    let text = |ms: &[murus_engine::Move]| -> Vec<String> {
        ms.iter().map(|&m| v.move_to_string(m)).collect()
    };
    let score_json = |s: Score| match s {
        Score::Cp(n) => json!({ "cp": n }),
        Score::Win(n) => json!({ "win": n }),
        Score::Loss(n) => json!({ "loss": n }),
    };
    if a.json {
        let lines: Vec<serde_json::Value> = found
            .lines
            .iter()
            .map(|l| {
                json!({
                    "move": v.move_to_string(l.first),
                    "score": score_json(l.score),
                    "pv": text(&l.pv),
                })
            })
            .collect();
        let j = json!({
            "best": v.move_to_string(found.best),
            "score": score_json(found.score),
            "depth": found.depth,
            "nodes": found.nodes,
            "pv": text(&found.pv),
            "lines": lines,
            "evaluation": { "id": evaluation.id(), "summary": evaluation.summary() },
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&j)?)?;
        return Ok(());
    }
    writeln!(out, "best   {}", v.move_to_string(found.best))?;
    writeln!(out, "score  {}", found.score)?;
    writeln!(out, "depth  {}", found.depth)?;
    writeln!(out, "nodes  {}", found.nodes)?;
    writeln!(out, "pv     {}", text(&found.pv).join(" "))?;
    writeln!(out, "eval   {}", evaluation.summary())?;
    if a.multipv > 1 {
        for (i, l) in found.lines.iter().enumerate() {
            writeln!(
                out,
                "{:>2}. {:<10} {:<10} {}",
                i + 1,
                v.move_to_string(l.first),
                l.score.to_string(),
                text(&l.pv).join(" ")
            )?;
        }
    }
    Ok(())
}

/// `murus ugi`: the engine protocol on stdin and stdout; a rule file's
/// diagnostics go to stderr.
fn ugi(variant: &str) -> Result<ExitCode> {
    let v = load_variant(variant)?;
    let load = Box::new(|spec: &str| load_variant(spec).map_err(|e| format!("{e:#}")));
    let server = murus_ai::ugi::Server::new(v, load, Box::new(io::stderr()));
    server.serve(io::stdin().lock(), io::stdout())?;
    Ok(ExitCode::SUCCESS)
}

/// The rules text of a `.mg` path or of a shipped variant named so, and
/// the path when it is a file.
pub(crate) fn rules_source(spec: &str) -> Result<(String, Option<&Path>)> {
    let path = Path::new(spec);
    if path.exists() || spec.ends_with(".mg") || spec.contains('/') {
        let source = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read rule file `{spec}`"))?;
        return Ok((source, Some(path)));
    }
    if let Some((_, src)) = BUILTIN.iter().find(|(n, _)| *n == spec) {
        return Ok(((*src).to_string(), None));
    }
    let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
    bail!(
        "unknown variant `{spec}`: not a file, nor a shipped variant ({})",
        names.join(", ")
    )
}

/// A `.mg` path or a shipped variant's name.
fn load_variant(spec: &str) -> Result<Variant> {
    let (source, path) = rules_source(spec)?;
    let Some(path) = path else {
        return Variant::compile(&source)
            .map_err(|_| anyhow!("the shipped variant `{spec}` does not compile"));
    };
    let variant = Variant::compile(&source).map_err(|diags| {
        eprint!("{}", murus_dsl::render_all(&diags, spec, &source));
        anyhow!("`{spec}` has errors")
    })?;
    register_own_evaluation(path, &variant);
    Ok(variant)
}

/// Makes the evaluation file beside a rules file (`foo.eval` beside
/// `foo.mg`) its variant's evaluation; one that cannot be used is named in
/// a warning, and the bots keep the generic features.
fn register_own_evaluation(rules: &Path, variant: &Variant) {
    let file = rules.with_extension(murus_ai::evalfile::EXTENSION);
    let Ok(bytes) = std::fs::read(&file) else {
        return;
    };
    let checked =
        murus_ai::EvalFile::from_bytes(&bytes).and_then(|f| f.check_variant(variant).map(|()| f));
    match checked {
        Ok(f) => murus_ai::evalfile::register(f),
        Err(e) => eprintln!(
            "warning: {}: {e}; the bots use the generic evaluation",
            file.display()
        ),
    }
}

fn load_position(v: &Variant, text: Option<&str>) -> Result<Position> {
    match text {
        None => Ok(v.start()),
        Some(t) => v.parse_position(t).map_err(|e| anyhow!("{e}")),
    }
}

// ----- bench ---------------------------------------------------------------

/// Plays `games` uniformly random games from the start; returns (plies, branching sum, first-player wins).
struct RandomGames {
    games: u32,
    seed: u64,
}

impl EngineTask for RandomGames {
    type Output = (u64, u64, u32);
    fn run<B: Word>(self, e: &Engine<B>) -> (u64, u64, u32) {
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let mut scratch = murus_engine::Scratch::default();
        let start = e.start();
        let (mut plies, mut branching, mut first) = (0, 0, 0);
        for _ in 0..self.games {
            let r = e.playout(start, &mut scratch, |n| rng.random_range(0..n));
            plies += u64::from(r.plies);
            branching += r.branching_sum;
            first += u32::from(r.outcome.winner == Some(0));
        }
        (plies, branching, first)
    }
}

pub(crate) fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn bench(quick: bool, out: &mut impl Write) -> Result<()> {
    let runs = if quick { 1 } else { 5 };
    writeln!(out, "murus bench: single thread, median of {runs} run(s)")?;
    writeln!(
        out,
        "{:<10} {:>10} {:>14} {:>9} {:>12}",
        "variant", "test", "count", "seconds", "rate"
    )?;
    let mut ratios = Vec::new();
    for (name, depth, games) in [("standard", 6, 200_000), ("advanced", 5, 100_000)] {
        let v = Variant::builtin(name).ok_or_else(|| anyhow!("missing shipped variant {name}"))?;
        let depth = if quick { depth - 2 } else { depth };
        let games = if quick { games / 100 } else { games };
        let start = v.start();
        let mut times = Vec::new();
        let mut nodes = 0;
        for _ in 0..runs {
            let t = Instant::now();
            nodes = v.perft(&start, depth);
            times.push(t.elapsed().as_secs_f64());
        }
        let perft_s = median(times);
        let s = perft_s;
        writeln!(
            out,
            "{name:<10} {:>10} {nodes:>14} {s:>9.3} {:>8.1} M nodes/s",
            format!("perft({depth})"),
            nodes as f64 / s / 1e6
        )?;
        let mut times = Vec::new();
        let mut stats = (0, 0, 0);
        for run in 0..runs {
            let t = Instant::now();
            stats = v.run(RandomGames {
                games,
                seed: run as u64,
            });
            times.push(t.elapsed().as_secs_f64());
        }
        let s = median(times);
        ratios.push((perft_s, s));
        writeln!(
            out,
            "{name:<10} {:>10} {games:>14} {s:>9.3} {:>8.0} games/s",
            "random",
            f64::from(games) / s
        )?;
        let (plies, branching, first) = stats;
        writeln!(
            out,
            "{:<10} {:>10} mean length {:.1} plies, mean branching {:.1}, first player wins {:.1}%",
            "",
            "",
            plies as f64 / f64::from(games),
            branching as f64 / plies.max(1) as f64,
            100.0 * f64::from(first) / f64::from(games)
        )?;
    }
    // The yardstick: a hand-written generator for the standard game, timed
    // in the same run so the ratio means something on a noisy machine.
    let depth = if quick { 4 } else { 6 };
    let games: u32 = if quick { 2_000 } else { 200_000 };
    let start = baseline::Pos::start();
    let mut times = Vec::new();
    let mut nodes = 0;
    for _ in 0..runs {
        let t = Instant::now();
        nodes = baseline::perft(&start, depth);
        times.push(t.elapsed().as_secs_f64());
    }
    let perft_s = median(times);
    let mut times = Vec::new();
    for run in 0..runs {
        let mut rng = SmallRng::seed_from_u64(run as u64);
        let t = Instant::now();
        baseline::random_games(games, |n| rng.random_range(0..n));
        times.push(t.elapsed().as_secs_f64());
    }
    let games_s = median(times);
    writeln!(
        out,
        "{:<10} {:>10} {nodes:>14} {perft_s:>9.3} {:>8.1} M nodes/s",
        "hand-std",
        format!("perft({depth})"),
        nodes as f64 / perft_s / 1e6
    )?;
    writeln!(
        out,
        "{:<10} {:>10} {games:>14} {games_s:>9.3} {:>8.0} games/s",
        "hand-std",
        "random",
        f64::from(games) / games_s
    )?;
    let std_perft = ratios.first().copied().unwrap_or_default();
    writeln!(
        out,
        "compiled standard engine vs hand-written: perft {:.2}x, random games {:.2}x (target: at least 0.5x)",
        perft_s / std_perft.0,
        games_s / std_perft.1
    )?;
    lab::bench(quick, runs, out)?;
    search_bench(quick, runs, out)
}

/// Alpha-beta's nodes a second with the generic evaluation and with the
/// variant's trained one (a network), from positions eight random plies
/// into a game: the network's incremental updates against the generic
/// features' cost. The two are measured turn about in each run, so that a
/// busy machine slows both alike, and the ratio is the median of the runs'
/// ratios.
fn search_bench(quick: bool, runs: usize, out: &mut impl Write) -> Result<()> {
    use murus_ai::Evaluation;
    use murus_ai::analysis::{Analyser, Limits};
    let nodes: u64 = if quick { 50_000 } else { 2_000_000 };
    writeln!(
        out,
        "alpha-beta, {nodes} nodes from each of 4 positions, median of {runs} run(s):"
    )?;
    // Two players with a network; three and four with a network
    // correcting the features (its cost added to theirs).
    for name in ["standard", "advanced", "hex", "escape4", "hex3-escape"] {
        let v = Variant::builtin(name).ok_or_else(|| anyhow!("missing shipped variant {name}"))?;
        let evaluations = [Evaluation::Generic, Evaluation::for_variant(&v)];
        let mut rates = [Vec::new(), Vec::new()];
        let mut ratios = Vec::new();
        for run in 0..runs {
            let mut rate = [0.0; 2];
            for (i, evaluation) in evaluations.iter().enumerate() {
                let mut rng = SmallRng::seed_from_u64(7);
                let mut seconds = 0.0;
                let mut searched = 0;
                for _ in 0..4 {
                    let mut game = Game::new(&v);
                    while game.ply() < 8 && game.outcome().is_none() {
                        let moves = v.legal_moves(game.position());
                        game.play(moves[rng.random_range(0..moves.len())]);
                    }
                    let mut a = Analyser::new(64);
                    a.set_evaluation(Some(evaluation.clone()));
                    let limits = Limits {
                        nodes: Some(nodes),
                        ..Limits::default()
                    };
                    let t = Instant::now();
                    let found = a.analyse(&game, limits, run as u64, &());
                    seconds += t.elapsed().as_secs_f64();
                    searched += found.map_or(0, |f| f.nodes);
                }
                rate[i] = searched as f64 / seconds.max(1e-9);
                rates[i].push(rate[i]);
            }
            ratios.push(rate[1] / rate[0].max(1e-9));
        }
        for ((label, evaluation), rates) in
            ["generic", "trained"].iter().zip(&evaluations).zip(rates)
        {
            writeln!(
                out,
                "{name:<11} {label:>8} {:>44} {:>8.2} M nodes/s",
                evaluation.describe(),
                median(rates) / 1e6
            )?;
        }
        writeln!(
            out,
            "{name:<11} trained/generic nodes a second: {:.2}x (target: at least 0.5x)",
            median(ratios)
        )?;
    }
    Ok(())
}
