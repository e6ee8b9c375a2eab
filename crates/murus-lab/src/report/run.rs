//! The report of a run of games (`report.json`, [`Report`], whose type is
//! the report types' crate's): everything computed from the finished games
//! alone, so shards merge into exactly the report of a single run.
//!
//! A report is built from each game's [`GameStats`], a small `Copy` record
//! of what the report counts, kept apart from the game's moves: a running
//! batch copies its records, never its games, to report on itself.

use std::collections::BTreeMap;

use murus_engine::Reason;
use murus_engine::util::percentile;

use crate::metrics::metrics_of;
use crate::record::{GameStats, Provenance, reason_key};
use crate::stats::wilson;

pub use murus_report::run::{
    Bin, Branching, ColourResult, Evaluation, FirstPlayer, Length, Rate, Report, SeatResult,
    evaluations_text,
};

/// A count with its rate and 95% Wilson interval.
fn rate(count: u64, n: u64) -> Rate {
    let (lo, hi) = wilson(count, n);
    Rate {
        count,
        rate: if n == 0 { 0.0 } else { count as f64 / n as f64 },
        ci95: [round(lo), round(hi)],
    }
}

fn round(x: f64) -> f64 {
    crate::stats::round_to(x, 6)
}

/// What the evaluation's leader says of some games: how many, how many
/// were decisive, in how many of those the leader at three quarters won,
/// and the leader's changes.
#[derive(Clone, Copy, Default)]
struct Led {
    games: u64,
    decisive: u64,
    foreseen: u64,
    lead_changes: u64,
}

impl Led {
    fn add(&mut self, g: &GameStats) {
        self.games += 1;
        if g.winner.is_some() {
            self.decisive += 1;
            if g.leader_at_three_quarters.is_some() && g.leader_at_three_quarters == g.winner {
                self.foreseen += 1;
            }
        }
        self.lead_changes += u64::from(g.lead_changes);
    }
}

/// What a report counts of a run's records, in one pass over them (a run
/// of random games has millions).
struct Counts {
    /// Wins by seat, and by colour in turn order.
    seat_wins: Vec<u64>,
    colour_wins: Vec<u64>,
    draws: u64,
    capped: u64,
    /// Games by end reason, in the order of [`Reason::ALL`].
    by_reason: [u64; Reason::ALL.len()],
    lengths: Vec<u32>,
    branching_sum: u64,
    branching_max: u32,
    forced: u64,
    /// The leader's figures over the measured games, and over every game.
    measured: Led,
    all: Led,
}

impl Counts {
    fn of(prov: &Provenance, games: &[GameStats]) -> Counts {
        let mut c = Counts {
            seat_wins: vec![0; prov.bots.len()],
            colour_wins: vec![0; prov.players.len()],
            draws: 0,
            capped: 0,
            by_reason: [0; Reason::ALL.len()],
            lengths: Vec::with_capacity(games.len()),
            branching_sum: 0,
            branching_max: 0,
            forced: 0,
            measured: Led::default(),
            all: Led::default(),
        };
        for g in games {
            if let Some(wins) = g.winner_seat.and_then(|s| c.seat_wins.get_mut(s)) {
                *wins += 1;
            }
            match g.winner {
                None => c.draws += 1,
                Some(w) => {
                    if let Some(i) = prov.players.iter().position(|&p| p == w) {
                        c.colour_wins[i] += 1;
                    }
                }
            }
            if g.reason == Reason::PlyCap {
                c.capped += 1;
            }
            if let Some(i) = Reason::ALL.iter().position(|&r| r == g.reason) {
                c.by_reason[i] += 1;
            }
            c.lengths.push(g.plies);
            c.branching_sum += g.branching_sum;
            c.branching_max = c.branching_max.max(g.branching_max);
            c.forced += u64::from(g.forced);
            c.all.add(g);
            if g.metrics.is_some() {
                c.measured.add(g);
            }
        }
        c
    }
}

/// Builds the report of `games` (in any order: every figure is a count, a
/// sum or an order statistic).
pub fn build(prov: &Provenance, games: &[GameStats]) -> Report {
    let n = games.len() as u64;
    let c = Counts::of(prov, games);
    let by_seat = c
        .seat_wins
        .iter()
        .enumerate()
        .map(|(s, &wins)| {
            let r = rate(wins, n);
            SeatResult {
                seat: s,
                bot: prov.bots[s].clone(),
                wins,
                rate: r.rate,
                ci95: r.ci95,
            }
        })
        .collect();
    let by_colour = prov
        .players
        .iter()
        .zip(&c.colour_wins)
        .map(|(&colour, &wins)| {
            let r = rate(wins, n);
            (
                colour.to_string(),
                ColourResult {
                    wins,
                    rate: r.rate,
                    ci95: r.ci95,
                },
            )
        })
        .collect();
    let (draws, capped) = (c.draws, c.capped);
    let first_wins = c.colour_wins.first().copied().unwrap_or(0);
    let fr = rate(first_wins, n);
    let fair = 1.0 / prov.players.len().max(1) as f64;
    let end_reasons: BTreeMap<String, u64> = Reason::ALL
        .iter()
        .zip(c.by_reason)
        .filter(|&(_, count)| count > 0)
        .map(|(&r, count)| (reason_key(r), count))
        .collect();
    let mut lengths = c.lengths;
    lengths.sort_unstable();
    let total_plies: u64 = lengths.iter().map(|&l| u64::from(l)).sum();
    let max_len = lengths.last().copied().unwrap_or(0);
    let width = 10;
    // One pass over the sorted lengths.
    let mut counts = vec![0u64; (max_len / width) as usize + 1];
    for &l in &lengths {
        counts[(l / width) as usize] += 1;
    }
    let histogram = (0..=max_len / width)
        .zip(counts)
        .map(|(b, count)| Bin {
            from: b * width,
            to: b * width + width - 1,
            count,
        })
        .collect();
    let (branching_sum, branching_max, forced) = (c.branching_sum, c.branching_max, c.forced);
    // The evaluation's leader is measured with the game-quality metrics:
    // where a run measures a sample of its games (random bots alone), only
    // those count; in game files written before the metrics, every game.
    let led = if c.measured.games > 0 {
        c.measured
    } else {
        c.all
    };
    let per = |x: u64, d: u64| {
        if d == 0 {
            0.0
        } else {
            round(x as f64 / d as f64)
        }
    };
    Report {
        provenance: prov.clone(),
        games: n,
        interrupted: false,
        missing_shards: Vec::new(),
        by_seat,
        by_colour,
        draws: rate(draws, n),
        ply_cap: rate(capped, n),
        first_player_advantage: FirstPlayer {
            wins: first_wins,
            rate: fr.rate,
            ci95: fr.ci95,
            fair: round(fair),
            advantage: round(fr.rate - fair),
        },
        end_reasons,
        length: Length {
            mean: per(total_plies, n),
            median: percentile(&lengths, 50.0),
            p5: percentile(&lengths, 5.0),
            p95: percentile(&lengths, 95.0),
            histogram,
        },
        branching: Branching {
            mean: per(branching_sum, total_plies),
            max: branching_max,
            forced_share: per(forced, total_plies),
        },
        evaluation: Evaluation {
            lead_changes_mean: per(led.lead_changes, led.games),
            decisiveness: rate(led.foreseen, led.decisive),
        },
        metrics: metrics_of(games),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::Metrics;
    use crate::record::{GameResult, VariantId};

    /// The report types name the generic evaluation without reading the
    /// bots: their id is the bots' own.
    #[test]
    fn the_generic_evaluation_is_named_as_the_bots_name_it() {
        assert_eq!(
            murus_report::record::GENERIC_EVALUATION,
            murus_ai::Evaluation::Generic.id()
        );
    }

    #[test]
    fn game_lines_written_before_the_metrics_still_load() {
        use crate::metrics::{Fixed, GameMetrics};
        let old = r#"{"index":3,"winner":"r","winner_seat":0,"reason":"breakthrough","by":"sow","plies":31,"branching_sum":400,"branching_max":20,"forced":1,"lead_changes":1,"leader_at_three_quarters":"r","seed":7,"seats":["random","random"],"colours":["r","g"],"moves":[]}"#;
        let g: GameResult = serde_json::from_str(old).unwrap();
        assert_eq!(g.stats.metrics, None);
        assert_eq!(g.stats.plies, 31);
        let mut new = g.clone();
        new.stats.metrics = Some(Box::new(GameMetrics {
            evaluated: 16,
            drama: Some(Fixed::new(0.25)),
            ..GameMetrics::default()
        }));
        let line = serde_json::to_string(&new).unwrap();
        assert!(
            line.contains(r#""metrics":{"evaluated":16,"drama":0.25,"#),
            "{line}"
        );
        assert_eq!(serde_json::from_str::<GameResult>(&line).unwrap(), new);
        // A run of old and new lines reports the metrics of the new ones.
        let prov = Provenance {
            variant: VariantId {
                name: "test".into(),
                source_sha256: String::new(),
                rules_key: None,
            },
            engine_version: String::new(),
            bots: vec!["random".into(), "random".into()],
            evaluations: Vec::new(),
            seed: 1,
            requested: 2,
            max_plies: 300,
            openings: 0,
            book: None,
            shard: None,
            players: vec!['r', 'g'],
        };
        let mut second = new.stats;
        second.index = 4;
        let r = build(&prov, &[g.stats, second]);
        assert_eq!((r.metrics.games, r.metrics.measured), (2, 1));
        assert_eq!(r.metrics.drama, Some(0.25));
        assert_eq!(r.metrics.completion, 1.0);
        // A report written before the metrics reads with them empty.
        let mut json: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        json.as_object_mut().unwrap().remove("metrics");
        let back: Report = serde_json::from_value(json).unwrap();
        assert_eq!(back.metrics, Metrics::default());
    }
}
