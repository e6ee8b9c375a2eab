//! The proof search's speed: `murus solve` of a small board of the
//! standard rules (`variants/sweeps/standard-small.mg`, 5×5; 4×4 with
//! `--quick`) to its proof, on one thread and on two, its value and winning
//! moves checked each run. Nodes a second count every thread's nodes; the
//! two-thread row also says how its time to the proof compares with one
//! thread's (the figure that matters: racing the questions spends nodes on
//! the one that loses).

use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use murus_ai::proof::{Solver, Value};
use murus_engine::Variant;

use super::{Row, Scale, Speed, Unit, median};

/// The small boards' rules, as `murus solve --set` reads them.
const SMALL: &str = include_str!("../../../../variants/sweeps/standard-small.mg");

/// The proof search's rows: one thread, then two.
pub fn rows(scale: Scale) -> Result<Vec<Row>> {
    let (files, ranks, winning) = scale.pick((5, 5, 5), (4, 4, 2));
    let set = [("files".to_string(), files), ("ranks".to_string(), ranks)];
    let v = Variant::compile_with(SMALL, &set)
        .map_err(|_| anyhow!("standard-small {files}x{ranks} does not compile"))?;
    let board = format!("small {files}x{ranks}");
    let mut rows = Vec::new();
    let mut one_thread = 0.0;
    for threads in [1, 2] {
        let mut times = Vec::new();
        let mut nodes = Vec::new();
        for _ in 0..scale.runs {
            let (n, s) = solve(&v, threads, winning)?;
            nodes.push(n as f64);
            times.push(s);
        }
        let seconds = median(times);
        let count = median(nodes) as u64;
        let note = if threads == 1 {
            one_thread = seconds;
            "df-pn to the proof, one thread".to_string()
        } else {
            format!(
                "df-pn to the proof, {threads} threads: {:.2}x one thread's time",
                seconds / one_thread.max(1e-9)
            )
        };
        rows.push(Row::Speed(Speed {
            variant: board.clone(),
            test: format!("df-pn x{threads}"),
            count,
            seconds,
            unit: Unit::MillionNodes(3),
            note: Some(note),
        }));
    }
    Ok(rows)
}

/// Solves the start of `v` on `threads` threads: its nodes and seconds,
/// the first player's win and its `winning` first moves checked.
fn solve(v: &Variant, threads: usize, winning: usize) -> Result<(u64, f64)> {
    let solver = Solver::new(256);
    let t = Instant::now();
    let s = solver
        .solve(v, &v.start(), u64::MAX, threads, &())
        .map_err(|e| anyhow!(e))?;
    let seconds = t.elapsed().as_secs_f64();
    if s.value != Some(Value::Win(0)) || s.winning.len() != winning {
        bail!(
            "{}: the proof search says {:?} with {} winning moves on {threads} thread(s): it is wrong",
            v.name(),
            s.value,
            s.winning.len()
        );
    }
    Ok((s.nodes, seconds))
}
