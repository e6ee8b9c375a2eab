//! Lab self-play as `murus selfplay` runs it: random games on one and two
//! threads (every game counted), their speed against the hand-written
//! yardstick's random games timed turn about, what recording the
//! game-quality metrics costs a run at each level, and an alpha-beta
//! search from the start.

use std::time::Instant;

use anyhow::{Context, Result, bail};
use murus_ai::{Bot, BotSpec};
use murus_engine::Variant;
use murus_lab::Config;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::{Row, Scale, Speed, Unit, baseline, median, timed};

/// The levels whose metrics' cost is measured, with their games (full,
/// quick): as many as take a second or so.
const COST_LEVELS: [(&str, u64, u64); 4] = [
    ("random", 40_000, 2_000),
    ("easy", 2_000, 100),
    ("medium", 8, 2),
    ("hard", 2, 1),
];

/// Plays `config` as `murus selfplay` does (in the background, no folder,
/// nothing kept but the report) and checks that every game was played.
fn selfplay(v: &Variant, config: &Config) -> Result<murus_lab::Report> {
    let games = config.games;
    let report = murus_lab::spawn(v, config.clone(), None, ())?.join()?;
    if report.games != games {
        bail!("self-play lost games: {} of {games} played", report.games);
    }
    Ok(report)
}

/// The time this process has spent on a CPU, in seconds, where the system
/// says (`CLOCK_PROCESS_CPUTIME_ID`): what the figures that compare two
/// timings read, so that the time other programs take the CPU from a run
/// does not count (the machines are shared). The timings that read it run
/// one thread at a time, so that it is that thread's time.
#[cfg(unix)]
fn process_cpu() -> Option<f64> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

#[cfg(not(unix))]
fn process_cpu() -> Option<f64> {
    None
}

/// Runs `work` and returns the CPU time it took (the wall time where the
/// system does not say), and its result.
fn cpu_timed<T>(work: impl FnOnce() -> T) -> (f64, T) {
    let (cpu, wall) = (process_cpu(), Instant::now());
    let out = work();
    let seconds = match (cpu, process_cpu()) {
        (Some(a), Some(b)) => b - a,
        _ => wall.elapsed().as_secs_f64(),
    };
    (seconds, out)
}

/// Plays `config` (one thread) as `murus selfplay` does ([`selfplay`]),
/// timed by [`cpu_timed`].
fn played_here(v: &Variant, config: &Config) -> Result<(f64, murus_lab::Report)> {
    let (seconds, report) = cpu_timed(|| selfplay(v, config));
    Ok((seconds, report?))
}

/// A run of `games` games of `bots` on one thread, its moves not written
/// down (as `murus selfplay` without `--out`).
fn config(v: &Variant, bots: &str, games: u64, threads: usize) -> Result<Config> {
    let bots = murus_ai::parse_specs(bots).map_err(anyhow::Error::from)?;
    let mut c = Config::new(v, bots, games, 1).with_threads(threads);
    c.record_moves = false;
    Ok(c)
}

/// The rows of lab self-play and of the search.
pub fn rows(scale: Scale) -> Result<Vec<Row>> {
    let v = Variant::standard();
    let games = scale.pick(40_000, 2_000);
    let mut rows = Vec::new();
    rows.extend(scaling(&v, scale)?);
    rows.push(Row::LabYardstick {
        ratio: against_yardstick(&v, games, scale)?,
    });
    for (level, full, quick) in COST_LEVELS {
        rows.push(metrics_cost(&v, level, scale.pick(full, quick), scale)?);
    }
    rows.push(search(&v, scale)?);
    Ok(rows)
}

/// Random games of self-play for the scaling, and the pairs of runs (one
/// thread, then two) timed: enough that a run takes about half a second on
/// one thread, so that starting the threads and building the report (which
/// one thread does) weigh little, and pairs turn about so that each pair
/// sees the same state of a shared machine.
const SCALING_GAMES: u64 = 100_000;
const SCALING_PAIRS: usize = 7;

/// Lab self-play on one thread and on two, timed in interleaved pairs: the
/// median wall-clock time of each, and the median of the pairs' ratios,
/// with the same by the process's CPU time as a check (on two idle cores
/// `2 × cpu(1) / cpu(2)` is what the wall clock reads; below it, the
/// threads wait on each other or on a tail).
fn scaling(v: &Variant, scale: Scale) -> Result<Vec<Row>> {
    let games = scale.pick(SCALING_GAMES, 2_000);
    let pairs = scale.pick(SCALING_PAIRS.max(scale.runs), scale.runs);
    let one = config(v, "random", games, 1)?;
    let two = config(v, "random", games, 2)?;
    let (mut wall, mut ratio, mut cpu_ratio) = ([Vec::new(), Vec::new()], Vec::new(), Vec::new());
    for _ in 0..pairs {
        let mut pair = [(0.0, 0.0); 2];
        for (i, c) in [&one, &two].into_iter().enumerate() {
            let t = Instant::now();
            let (cpu, report) = cpu_timed(|| selfplay(v, c));
            report?;
            pair[i] = (t.elapsed().as_secs_f64(), cpu);
            wall[i].push(pair[i].0);
        }
        ratio.push(pair[0].0 / pair[1].0);
        cpu_ratio.push(2.0 * pair[0].1 / pair[1].1);
    }
    let mut rows = Vec::new();
    for (threads, w) in [1u64, 2].into_iter().zip(wall) {
        rows.push(Row::Speed(Speed {
            variant: "standard".into(),
            test: "selfplay".into(),
            count: games,
            seconds: median(w),
            unit: Unit::Games,
            note: Some(format!(
                "lab self-play, {}",
                murus_engine::text::plural(threads, "thread")
            )),
        }));
    }
    rows.push(Row::Scaling {
        ratio: median(ratio),
        cpu: median(cpu_ratio),
        pairs,
    });
    Ok(rows)
}

/// Lab self-play of `games` random games on one thread as a share of the
/// hand-written yardstick's speed at as many random games, the two timed
/// turn about in each run (CPU time, where the system says): the median of
/// the runs' ratios.
fn against_yardstick(v: &Variant, games: u64, scale: Scale) -> Result<f64> {
    let c = config(v, "random", games, 1)?;
    let mut ratios = Vec::with_capacity(scale.runs);
    for run in 0..scale.runs as u64 {
        let (hand, plies) = cpu_timed(|| {
            let mut rng = SmallRng::seed_from_u64(run);
            baseline::random_games(games as u32, |n| rng.random_range(0..n))
        });
        if plies < games {
            bail!("the hand-written standard game played {plies} plies in {games} games");
        }
        let (lab, _) = played_here(v, &c)?;
        ratios.push(hand / lab);
    }
    Ok(median(ratios))
}

/// What the game-quality metrics cost self-play at `level`: `games` games
/// timed with the metrics and without (CPU time, where the system says),
/// turn about (which first alternates from run to run), and the median of
/// the runs' extra time. The two runs
/// play the same games (the metrics draw nothing the bots see), and each
/// is checked to have measured what it says.
fn metrics_cost(v: &Variant, level: &str, games: u64, scale: Scale) -> Result<Row> {
    let on = config(v, level, games, 1)?;
    let mut off = on.clone();
    off.record_metrics = false;
    let mut costs = Vec::with_capacity(scale.runs);
    for run in 0..scale.runs {
        let time = |c: &Config| played_here(v, c);
        let ((with, a), (without, b)) = if run % 2 == 0 {
            let a = time(&on)?;
            (a, time(&off)?)
        } else {
            let b = time(&off)?;
            (time(&on)?, b)
        };
        if a.metrics.measured == 0 || b.metrics.measured != 0 || a.by_seat != b.by_seat {
            bail!(
                "{level}: the runs with and without metrics measured {} and {} games and ended apart: the comparison means nothing",
                a.metrics.measured,
                b.metrics.measured
            );
        }
        costs.push(with / without - 1.0);
    }
    let bot = murus_ai::parse_specs(level)
        .ok()
        .and_then(|b| b.first().map(ToString::to_string))
        .unwrap_or_default();
    Ok(Row::MetricsCost {
        level: level.into(),
        bot,
        games,
        cost: median(costs),
    })
}

/// An alpha-beta search from the start, its nodes and move checked.
fn search(v: &Variant, scale: Scale) -> Result<Row> {
    let nodes = scale.pick(200_000, 20_000);
    let start = v.start();
    let (s, found) = timed(scale.runs, |run| {
        let mut bot = Bot::new(BotSpec::AlphaBeta { nodes, eval: None }, run);
        let best = bot.choose(v, &start);
        (best, bot.last_nodes, bot.last_depth)
    });
    let (best, searched, depth) = found;
    let best = best.context("the start position has moves")?;
    if !v.legal_moves(&start).contains(&best) || searched == 0 || depth == 0 {
        bail!(
            "alpha-beta from the start searched {searched} nodes to depth {depth} and chose {}: the search is wrong",
            v.move_to_string(best)
        );
    }
    Ok(Row::Speed(Speed {
        variant: "standard".into(),
        test: "alphabeta".into(),
        count: searched,
        seconds: s,
        unit: Unit::MillionNodes(2),
        note: Some(format!("alphabeta:{nodes} from the start, depth {depth}")),
    }))
}
