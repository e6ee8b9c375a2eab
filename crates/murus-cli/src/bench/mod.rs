//! `murus bench`: how fast the engine, the lab and the search are, each
//! figure timed over a count that is checked, so that a wrong engine cannot
//! print a fast figure.
//!
//! What is where:
//! - `engine`: perft and random playouts of the compiled standard and
//!   Advanced games (perft counts checked against the known ones, games
//!   counted), and the same for the hand-written yardstick (`baseline`),
//!   with the ratio of the two;
//! - `lab`: lab self-play on one and two threads as `murus selfplay` runs
//!   it (every game counted), its speed against the yardstick's random
//!   games, what the game-quality metrics cost a run at each level (the
//!   same games with them and without), and an alpha-beta search from the
//!   start (its nodes checked);
//! - `search`: alpha-beta's speed with the generic and the trained
//!   evaluation of each variant that ships one;
//! - `parallel`: the parallel search's time to depth on one and two
//!   threads (Lazy SMP);
//! - `proof`: the proof search's speed to a small board's proof on one
//!   thread and two (its value checked);
//! - `serve` (`murus bench serve`, apart): the playtest server under many
//!   games at once over loopback, each move's latency.
//!
//! Each section measures, checks its counts and returns its [`Row`]s; the
//! rows are printed by [`Bench`]'s text. A new figure is a new section
//! (or a new row kind) added to [`bench`].

mod baseline;
mod engine;
mod lab;
mod parallel;
mod proof;
mod search;
pub mod serve;

use std::io::{self, Write};
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use crate::answer::Answer;

/// `murus bench`'s arguments.
#[derive(Args)]
pub struct BenchArgs {
    /// Fewer, shorter runs (for a smoke test).
    #[arg(long)]
    pub quick: bool,
    /// A bench of its own instead of the engine's.
    #[command(subcommand)]
    pub what: Option<BenchCommand>,
}

/// `murus bench`'s benches of their own.
#[derive(clap::Subcommand)]
pub enum BenchCommand {
    /// The playtest server under load: many human-vs-human games at once
    /// through its HTTP API over loopback; moves a second and each move's
    /// latency (p50, p90, p99).
    Serve(serve::ServeBenchArgs),
    /// The hand-written yardstick's perft alone, from the standard start
    /// (hidden: for measuring it apart, e.g. under callgrind against
    /// `murus perft standard DEPTH`).
    #[command(hide = true)]
    Yardstick {
        /// Plies.
        depth: u32,
    },
}

/// `murus bench yardstick DEPTH`: the yardstick's leaf count.
#[derive(Serialize)]
pub struct YardstickPerft {
    pub depth: u32,
    pub nodes: u64,
}

impl Answer for YardstickPerft {
    fn text(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        writeln!(out, "hand-written perft({}) = {}", self.depth, self.nodes)
    }
}

/// Runs the yardstick's perft to `depth` (on the path the engine's
/// dispatch chose).
pub fn yardstick(depth: u32) -> YardstickPerft {
    YardstickPerft {
        depth,
        nodes: match depth {
            0 => 1,
            _ => baseline::perft(&baseline::Pos::start(), depth),
        },
    }
}

/// How big a bench is: quick (a smoke test) or full, and how many runs
/// each figure is the median of.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    pub quick: bool,
    pub runs: usize,
}

impl Scale {
    /// `full` for a full bench, `quick` under `--quick`.
    pub fn pick<T>(self, full: T, quick: T) -> T {
        if self.quick { quick } else { full }
    }
}

/// `murus bench`'s answer: its rows, in the order printed.
#[derive(Serialize)]
pub struct Bench {
    pub rows: Vec<Row>,
}

/// A line of `murus bench`.
#[derive(Serialize)]
#[serde(tag = "row", rename_all = "snake_case")]
pub enum Row {
    /// The title and the header of the speed table.
    Title { runs: usize },
    /// A count, timed.
    Speed(Speed),
    /// What random games from the start were like.
    Games {
        mean_length: f64,
        mean_branching: f64,
        /// In percent.
        first_player_wins: f64,
    },
    /// The compiled standard engine's speed as a share of the
    /// hand-written generator's.
    /// `perft` and `random_games`: the compiled standard game's speeds as
    /// shares of the yardstick's; `advanced_perft`: Advanced's perft speed
    /// as a share of the yardstick's standard perft (a figure to compare
    /// across versions, measured in the same run).
    /// `instructions`: the copy of the hot loops that ran (both engines:
    /// [`murus_engine::simd`]); `runs`: the perft runs the ratios are the
    /// medians of.
    Yardstick {
        instructions: &'static str,
        runs: usize,
        perft: f64,
        random_games: f64,
        advanced_perft: f64,
    },
    /// Lab self-play on two threads against one: `ratio` by the wall
    /// clock, `cpu` what the process's CPU time says it would be on two
    /// idle cores (`2 × cpu(1) / cpu(2)`), each the median of `pairs`
    /// interleaved pairs of runs.
    Scaling { ratio: f64, cpu: f64, pairs: usize },
    /// Lab self-play of random games on one thread, as `murus selfplay`
    /// runs it, as a share of the hand-written yardstick's random games'
    /// speed, the two timed turn about.
    LabYardstick { ratio: f64 },
    /// What recording the game-quality metrics adds to a self-play run's
    /// time at a level (0.04: 4% longer than the same games without them).
    MetricsCost {
        level: String,
        bot: String,
        games: u64,
        cost: f64,
    },
    /// The title of the search's speed with each evaluation.
    SearchTitle {
        nodes: u64,
        positions: usize,
        runs: usize,
    },
    /// Alpha-beta's speed with one evaluation of a variant.
    Evaluation {
        variant: String,
        /// `generic` or `trained`.
        label: String,
        /// The evaluation in words.
        evaluation: String,
        nodes_per_second: f64,
    },
    /// The trained evaluation's search speed as a share of the generic
    /// one's.
    EvaluationRatio { variant: String, ratio: f64 },
    /// The parallel search's time to `depth` from each of `positions`
    /// positions on one thread and on two (seconds, the medians), and the
    /// median of the runs' speed-ups (one thread's time over two's).
    TimeToDepth {
        variant: String,
        depth: u32,
        positions: usize,
        runs: usize,
        one: f64,
        two: f64,
        speedup: f64,
    },
}

/// A count and the time it took (the median of the runs).
#[derive(Serialize)]
pub struct Speed {
    pub variant: String,
    /// `perft(6)`, `random`, `selfplay`, `alphabeta`.
    pub test: String,
    pub count: u64,
    pub seconds: f64,
    pub unit: Unit,
    /// What the row measures, when its test's name does not say it all.
    pub note: Option<String>,
}

/// What a [`Speed`] counts, and how its rate is printed.
#[derive(Clone, Copy, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Nodes, the rate in millions a second with this many decimals.
    MillionNodes(usize),
    /// Games, the rate in games a second.
    Games,
}

/// The least share of the yardstick's speed the compiled engine should
/// reach, and of the generic evaluation's speed a trained one should.
const SPEED_TARGET: f64 = 0.5;
/// The least share of the yardstick's perft speed the compiled standard
/// game's perft should reach (issue 40).
const STANDARD_PERFT_TARGET: f64 = 0.9;
/// The least share of the yardstick's standard perft speed the compiled
/// Advanced perft should reach (issue 40).
const ADVANCED_PERFT_TARGET: f64 = 0.8;
/// The least gain two threads of self-play should give.
const SCALING_TARGET: f64 = 1.8;
/// The most the game-quality metrics may add to a run's time.
const METRICS_TARGET: f64 = 0.10;

/// Whether `ratio` reaches `target`, in words.
fn met(ratio: f64, target: f64) -> &'static str {
    if ratio >= target { "met" } else { "NOT met" }
}

/// `murus bench`: every section in turn.
pub fn bench(a: &BenchArgs) -> Result<Bench> {
    let scale = Scale {
        quick: a.quick,
        runs: if a.quick { 1 } else { 5 },
    };
    let mut rows = vec![Row::Title { runs: scale.runs }];
    if std::env::var("TMPBENCH").is_err() {
        rows.extend(engine::rows(scale)?);
    }
    rows.extend(lab::rows(scale)?);
    if std::env::var("TMPBENCH").is_err() {
        rows.extend(search::rows(scale)?);
    }
    rows.extend(parallel::rows(scale)?);
    rows.extend(proof::rows(scale)?);
    Ok(Bench { rows })
}

/// The median of `v`: the nearest-rank 50th percentile (the lower
/// one of an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    murus_engine::util::percentile(&v, 50.0)
}

/// Runs `work` `runs` times, given the run's number: the median of the
/// times in seconds, and the last run's result.
pub fn timed<T>(runs: usize, mut work: impl FnMut(u64) -> T) -> (f64, T) {
    assert!(runs > 0, "at least one run");
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for run in 0..runs as u64 {
        let t = Instant::now();
        last = Some(work(run));
        times.push(t.elapsed().as_secs_f64());
    }
    (median(times), last.expect("at least one run"))
}

impl Answer for Bench {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for row in &self.rows {
            row.text(out)?;
        }
        Ok(())
    }
}

impl Row {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Row::Title { runs } => {
                writeln!(out, "murus bench: single thread, median of {runs} run(s)")?;
                writeln!(
                    out,
                    "{:<10} {:>10} {:>14} {:>9} {:>12}",
                    "variant", "test", "count", "seconds", "rate"
                )
            }
            Row::Speed(s) => {
                write!(
                    out,
                    "{:<10} {:>10} {:>14} {:>9.3} ",
                    s.variant, s.test, s.count, s.seconds
                )?;
                let rate = s.count as f64 / s.seconds;
                match s.unit {
                    Unit::MillionNodes(decimals) => {
                        write!(out, "{:>8.*} M nodes/s", decimals, rate / 1e6)?;
                    }
                    Unit::Games => write!(out, "{rate:>8.0} games/s")?,
                }
                match &s.note {
                    Some(note) => writeln!(out, "  ({note})"),
                    None => writeln!(out),
                }
            }
            Row::Games {
                mean_length,
                mean_branching,
                first_player_wins,
            } => writeln!(
                out,
                "{:<10} {:>10} mean length {mean_length:.1} plies, mean branching {mean_branching:.1}, first player wins {first_player_wins:.1}%",
                "", ""
            ),
            Row::Yardstick {
                instructions,
                runs,
                perft,
                random_games,
                advanced_perft,
            } => writeln!(
                out,
                "instruction set: {instructions}, compiled and hand-written alike (MURUS_NO_SIMD=1 forces the plain copy)\n\
                 compiled standard engine vs hand-written (median of {runs} interleaved runs): perft {perft:.2}x (target: at least {STANDARD_PERFT_TARGET}x: {}), random games {random_games:.2}x (target: at least {SPEED_TARGET}x: {})\n\
                 compiled Advanced perft vs the hand-written standard perft: {advanced_perft:.2}x (target: at least {ADVANCED_PERFT_TARGET}x: {})",
                met(*perft, STANDARD_PERFT_TARGET),
                met(*random_games, SPEED_TARGET),
                met(*advanced_perft, ADVANCED_PERFT_TARGET),
            ),
            Row::Scaling { ratio, cpu, pairs } => writeln!(
                out,
                "self-play scaling: 2 threads give {ratio:.2}x one thread, median of {pairs} interleaved pairs (target: at least {SCALING_TARGET}x: {}); by CPU time {cpu:.2}x (what two idle cores would show)",
                met(*ratio, SCALING_TARGET)
            ),
            Row::LabYardstick { ratio } => writeln!(
                out,
                "lab self-play vs hand-written random games: {ratio:.2}x (target: at least {SPEED_TARGET}x)"
            ),
            Row::MetricsCost {
                level,
                bot,
                games,
                cost,
            } => writeln!(
                out,
                "metrics cost at {level} ({bot}, {}): {:+.1}% of a run's time (target: under {:.0}%)",
                murus_engine::text::plural(*games, "game"),
                cost * 100.0,
                METRICS_TARGET * 100.0
            ),
            Row::SearchTitle {
                nodes,
                positions,
                runs,
            } => writeln!(
                out,
                "alpha-beta, {nodes} nodes from each of {positions} positions, median of {runs} run(s):"
            ),
            Row::Evaluation {
                variant,
                label,
                evaluation,
                nodes_per_second,
            } => writeln!(
                out,
                "{variant:<11} {label:>8} {evaluation:>44} {:>8.2} M nodes/s",
                nodes_per_second / 1e6
            ),
            Row::EvaluationRatio { variant, ratio } => writeln!(
                out,
                "{variant:<11} trained/generic nodes a second: {ratio:.2}x (target: at least {SPEED_TARGET}x)"
            ),
            Row::TimeToDepth {
                variant,
                depth,
                positions,
                runs,
                one,
                two,
                speedup,
            } => writeln!(
                out,
                "parallel alpha-beta (Lazy SMP), {variant} to depth {depth} from each of {positions} positions, median of {runs} run(s):\n\
                 {variant:<11} 1 thread  {one:>8.3} s\n\
                 {variant:<11} 2 threads {two:>8.3} s\n\
                 time to depth: 2 threads are {speedup:.2}x as fast as one"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(rows: Vec<Row>) -> String {
        let mut out = Vec::new();
        Bench { rows }.text(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The lines `docs/speed.md` quotes keep their layout.
    #[test]
    fn bench_rows_print_as_the_docs_quote_them() {
        let speed = |test: &str, count, seconds, unit, note: Option<&str>| {
            Row::Speed(Speed {
                variant: "standard".into(),
                test: test.into(),
                count,
                seconds,
                unit,
                note: note.map(String::from),
            })
        };
        let got = text(vec![
            Row::Title { runs: 5 },
            speed("perft(6)", 31_422_048, 0.157, Unit::MillionNodes(1), None),
            speed("random", 200_000, 1.12, Unit::Games, None),
            Row::Games {
                mean_length: 32.6,
                mean_branching: 12.5,
                first_player_wins: 47.6,
            },
            Row::Yardstick {
                instructions: "popcnt+bmi1+bmi2",
                runs: 9,
                perft: 0.92,
                random_games: 0.52,
                advanced_perft: 0.78,
            },
            speed(
                "selfplay",
                40_000,
                0.577,
                Unit::Games,
                Some("lab self-play, 1 thread"),
            ),
            Row::Scaling {
                ratio: 1.81,
                cpu: 1.95,
                pairs: 7,
            },
            Row::LabYardstick { ratio: 0.56 },
            Row::MetricsCost {
                level: "random".into(),
                bot: "random".into(),
                games: 40_000,
                cost: 0.041,
            },
            Row::MetricsCost {
                level: "hard".into(),
                bot: "alphabeta:50000".into(),
                games: 2,
                cost: -0.003,
            },
            Row::SearchTitle {
                nodes: 2_000_000,
                positions: 4,
                runs: 5,
            },
            Row::Evaluation {
                variant: "standard".into(),
                label: "trained".into(),
                evaluation: "network (32 hidden)".into(),
                nodes_per_second: 2.14e6,
            },
            Row::EvaluationRatio {
                variant: "standard".into(),
                ratio: 1.12,
            },
            Row::TimeToDepth {
                variant: "standard".into(),
                depth: 13,
                positions: 4,
                runs: 5,
                one: 3.2104,
                two: 2.0,
                speedup: 1.61,
            },
        ]);
        let want = "\
murus bench: single thread, median of 5 run(s)
variant          test          count   seconds         rate
standard     perft(6)       31422048     0.157    200.1 M nodes/s
standard       random         200000     1.120   178571 games/s
                      mean length 32.6 plies, mean branching 12.5, first player wins 47.6%
instruction set: popcnt+bmi1+bmi2, compiled and hand-written alike (MURUS_NO_SIMD=1 forces the plain copy)
compiled standard engine vs hand-written (median of 9 interleaved runs): perft 0.92x (target: at least 0.9x: met), random games 0.52x (target: at least 0.5x: met)
compiled Advanced perft vs the hand-written standard perft: 0.78x (target: at least 0.8x: NOT met)
standard     selfplay          40000     0.577    69324 games/s  (lab self-play, 1 thread)
self-play scaling: 2 threads give 1.81x one thread, median of 7 interleaved pairs (target: at least 1.8x: met); by CPU time 1.95x (what two idle cores would show)
lab self-play vs hand-written random games: 0.56x (target: at least 0.5x)
metrics cost at random (random, 40000 games): +4.1% of a run's time (target: under 10%)
metrics cost at hard (alphabeta:50000, 2 games): -0.3% of a run's time (target: under 10%)
alpha-beta, 2000000 nodes from each of 4 positions, median of 5 run(s):
standard     trained                          network (32 hidden)     2.14 M nodes/s
standard    trained/generic nodes a second: 1.12x (target: at least 0.5x)
parallel alpha-beta (Lazy SMP), standard to depth 13 from each of 4 positions, median of 5 run(s):
standard    1 thread     3.210 s
standard    2 threads    2.000 s
time to depth: 2 threads are 1.61x as fast as one
";
        assert_eq!(got, want);
    }

    #[test]
    fn timed_runs_count_from_zero_and_keep_the_last_result() {
        let mut seen = Vec::new();
        let (seconds, last) = timed(3, |run| {
            seen.push(run);
            run * 10
        });
        assert_eq!(seen, [0, 1, 2]);
        assert_eq!(last, 20);
        assert!(seconds >= 0.0);
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
    }
}
