//! `murus`: the Murus command line.
//!
//! A thin shell over the libraries; see `murus --help`. This file parses
//! the arguments and hands each subcommand to its function, which returns
//! its answer; `answer` prints every answer as text or JSON, and sends every
//! error to stderr with the exit code.

mod analyze;
mod answer;
mod balance;
mod bench;
mod diagram;
mod lab;
mod load;
mod mural;
mod position;
mod progress;
mod record;
mod report;
mod rules;
mod serve;
mod sheet;
mod signal;
mod solve;
mod sweep;
mod train;
mod ugi;

use std::io;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use crate::answer::{Format, print};
pub(crate) use crate::load::{load_variant, rules_source};

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
    Check(rules::CheckArgs),
    /// Draw a position as text.
    Show(position::PositionArgs),
    /// Draw a position as an SVG or PNG diagram, with arrows, marks,
    /// highlights and a caption, or the game of --moves as an animated GIF.
    Diagram(diagram::DiagramArgs),
    /// The rules of a variant in words: board, players, setup, moves, how
    /// to win and draw, the opening rule.
    Rules(rules::WordsArgs),
    /// A printable rules sheet: DIR/index.html, self-contained, with the
    /// rules in words, the start, a figure of each kind of move found on a
    /// real position, and an example game.
    Sheet(sheet::SheetArgs),
    /// List the legal moves, one per line, in notation (after --moves).
    Moves(position::MovesArgs),
    /// Count leaf nodes DEPTH plies ahead.
    Perft(position::PerftArgs),
    /// Play moves given in notation and report where the game stands.
    Replay(position::ReplayArgs),
    /// Measure the engine (perft, random games), lab self-play and what its metrics cost, and the search, against a hand-written yardstick.
    Bench(bench::BenchArgs),
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
    /// Murals: check, solve, count, hint, generate, bench, sheet.
    Mural {
        #[command(subcommand)]
        command: mural::MuralCommand,
    },
    /// Annotated game records: import (the record format, or a game as
    /// printed) and export (to the record format or JSON).
    Record {
        #[command(subcommand)]
        command: record::RecordCommand,
    },
    /// The best move and line of a position, its score, and with --multipv
    /// the K best moves.
    Analyze(analyze::AnalyzeArgs),
    /// The designer's report: one page (DIR/index.html) and its figures
    /// (DIR/report.json): the rules, speed and size, fairness by level,
    /// the skill ladder, the exact value when small enough, game quality.
    Report(report::ReportArgs),
    /// The exact value of a position (the start by default) by proof-number
    /// search: who wins with perfect play, and with which first moves.
    Solve(solve::SolveArgs),
    /// Learn an evaluation for a variant from self-play: writes an
    /// evaluation file (`VARIANT.eval`).
    Train(train::TrainArgs),
    /// The playtest server: people play the variants given (every shipped
    /// one too) in their browsers, through a JSON API (docs/playtest.md);
    /// every game is kept in an SQLite database in --data.
    Serve(serve::ServeArgs),
    /// Speak UGI, the Universal Game Interface, on stdin and stdout: an
    /// engine for tournament managers (docs/engine-protocol.md).
    Ugi(ugi::UgiArgs),
}

fn main() -> ExitCode {
    run(Cli::parse().command).unwrap_or_else(|e| answer::fail(&e))
}

/// Runs one subcommand: its answer printed, or its error returned.
fn run(command: Command) -> Result<ExitCode> {
    // Not locked: `murus ugi`'s search thread writes to stdout too.
    let out = &mut io::stdout();
    let text = Format::Text;
    let json = Format::json_if;
    match command {
        Command::Check(a) => print(&rules::check(&a), text, out),
        Command::Show(a) => print(&position::show(&a)?, text, out),
        Command::Diagram(a) => print(&diagram::diagram(&a)?, json(a.json), out),
        Command::Rules(a) => print(&rules::words(&a)?, json(a.json), out),
        Command::Sheet(a) => print(&sheet::rules_sheet(&a)?, json(a.json), out),
        Command::Moves(a) => print(&position::moves(&a)?, text, out),
        Command::Perft(a) => print(&position::perft(&a)?, json(a.json), out),
        Command::Replay(a) => print(&position::replay(&a)?, json(a.json), out),
        Command::Bench(bench::BenchArgs {
            what: Some(bench::BenchCommand::Serve(a)),
            ..
        }) => print(&bench::serve::bench(&a)?, text, out),
        Command::Bench(bench::BenchArgs {
            what: Some(bench::BenchCommand::Yardstick { depth }),
            ..
        }) => print(&bench::yardstick(depth), text, out),
        Command::Bench(a) => print(&bench::bench(&a)?, text, out),
        Command::Variants => print(&rules::variants()?, text, out),
        Command::Analyze(a) if a.game.is_some() => print(&analyze::game(&a)?, text, out),
        Command::Analyze(a) => print(&analyze::analyze(&a)?, json(a.json), out),
        Command::Mural { command } => mural::run(command, out),
        Command::Record {
            command: record::RecordCommand::Import(a),
        } => print(&record::import(&a)?, json(a.json), out),
        Command::Record {
            command: record::RecordCommand::Export(a),
        } => print(&record::export(&a)?, text, out),
        Command::Ugi(a) => ugi::ugi(&a),
        Command::Serve(a) => serve::serve(&a),
        Command::Selfplay(a) => print(&lab::selfplay(&a)?, json(a.run.json), out),
        Command::Match(a) => print(&lab::matchup(&a)?, json(a.run.json), out),
        Command::Balance(a) if !a.merge.is_empty() => {
            print(&balance::merge(&a)?, json(a.run.json), out)
        }
        Command::Balance(a) => print(&balance::run(&a)?, json(a.run.json), out),
        Command::Sweep(a) if !a.merge.is_empty() => {
            print(&sweep::merge(&a)?, json(a.run.json), out)
        }
        Command::Sweep(a) => print(&sweep::run(&a)?, json(a.run.json), out),
        Command::Lab {
            command: lab::LabCommand::Merge(a),
        } => print(&lab::merge(&a)?, json(a.json), out),
        Command::Train(a) => print(&train::run(&a)?, json(a.run.json), out),
        Command::Report(a) => print(&report::report(&a)?, json(a.run.json), out),
        Command::Solve(a) => print(&solve::solve(&a)?, json(a.json), out),
    }
}
