//! Lab self-play of random games on one and two threads, every game
//! counted, and an alpha-beta search from the start.

use anyhow::{Context, Result, bail};
use murus_ai::{Bot, BotSpec};
use murus_engine::Variant;
use murus_lab::Config;

use super::{Row, Scale, Speed, Unit, timed};

/// The rows of lab self-play and of the search.
pub fn rows(scale: Scale) -> Result<Vec<Row>> {
    let v = Variant::standard();
    let games = scale.pick(40_000, 2_000);
    let mut rows = Vec::new();
    let mut per_threads = Vec::new();
    for threads in [1usize, 2] {
        let mut fewest = games;
        let mut failed = None;
        let (s, ()) = timed(scale.runs, |_| {
            let mut config = Config::new(&v, vec![BotSpec::Random], games, 1).with_threads(threads);
            config.record_moves = false;
            match murus_lab::run(&v, &config, &()) {
                Ok(played) => fewest = fewest.min(played.len() as u64),
                Err(e) => failed = Some(e),
            }
        });
        if let Some(e) = failed {
            bail!("self-play failed: {e}");
        }
        if fewest != games {
            bail!("self-play lost games: {fewest} of {games} played");
        }
        per_threads.push(s);
        rows.push(Row::Speed(Speed {
            variant: "standard".into(),
            test: "selfplay".into(),
            count: games,
            seconds: s,
            unit: Unit::Games,
            note: Some(format!(
                "lab self-play, {threads} thread{}",
                if threads == 1 { "" } else { "s" }
            )),
        }));
    }
    rows.push(Row::Scaling {
        ratio: per_threads[0] / per_threads[1],
    });
    let nodes = scale.pick(200_000, 20_000);
    let start = v.start();
    let (s, found) = timed(scale.runs, |run| {
        let mut bot = Bot::new(BotSpec::AlphaBeta { nodes, eval: None }, run);
        let best = bot.choose(&v, &start);
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
    rows.push(Row::Speed(Speed {
        variant: "standard".into(),
        test: "alphabeta".into(),
        count: searched,
        seconds: s,
        unit: Unit::MillionNodes(2),
        note: Some(format!("alphabeta:{nodes} from the start, depth {depth}")),
    }));
    Ok(rows)
}
