//! The ranking: each combination's tier and fitness from its balance
//! check (`docs/balance.md`, "Sweeps").

use std::collections::BTreeMap;

use crate::balance::{CAPPED, DOMINANT_ENDING, DRAWISH};
use crate::metrics::DURATION_FAR;
use crate::report::{BalanceReport, Report, SweepRow, Tier};
use crate::text::{percent, percent_interval};

/// The ideal band of a game's mean length in plies for a report without
/// the game-quality metrics' own band (one read from an older file, or
/// whose games have no metrics records): about the metrics' band for the
/// standard game's branching (18 to 109 plies).
pub const IDEAL_PLIES: [f64; 2] = [20.0, 100.0];

/// Plies outside the ideal band that cost one point of fitness, as one
/// point of first-player edge does.
pub const PLIES_PER_POINT: f64 = 10.0;

/// The fitness of a fair game of ideal length.
pub const FULL_FITNESS: f64 = 100.0;

/// A combination's place in the ranking, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Assessment {
    pub tier: Tier,
    /// [`FULL_FITNESS`], less [`Assessment::edge`], less
    /// [`Assessment::plies_outside`] / [`PLIES_PER_POINT`].
    pub fitness: f64,
    /// The first player's largest distance from the fair rate over the
    /// levels, in percentage points.
    pub edge: f64,
    /// The most plies a level's mean length lies outside its ideal band.
    pub plies_outside: f64,
    /// A sentence for each finding that lowers the tier.
    pub flags: Vec<String>,
}

/// The ideal band of `report`'s game length, in plies: the game-quality
/// metrics' duration band (`docs/metrics.md`: derived from the branching
/// factor), or [`IDEAL_PLIES`] where the report has none.
pub fn ideal_band(report: &Report) -> [f64; 2] {
    report
        .metrics
        .duration
        .ideal
        .filter(|_| has_metrics(report))
        .unwrap_or(IDEAL_PLIES)
}

/// Whether `r`'s metrics are its games' (a report read from a file written
/// before them has zeros there).
fn has_metrics(r: &Report) -> bool {
    r.metrics.games == r.games
}

/// The share of `r`'s games drawn by the rules (repetition, a stalemate
/// that draws), not stopped by the ply cap: the metrics' drawishness.
fn drawn_share(r: &Report) -> f64 {
    if has_metrics(r) {
        r.metrics.drawishness
    } else {
        r.draws.count.saturating_sub(r.ply_cap.count) as f64 / r.games.max(1) as f64
    }
}

/// The share of `r`'s games stopped by the ply cap: the metrics' timeouts.
fn capped_share(r: &Report) -> f64 {
    if has_metrics(r) {
        r.metrics.timeouts
    } else {
        r.ply_cap.rate
    }
}

/// Ranks one combination from its balance check, each level judged alike
/// (`docs/balance.md`, "Sweeps"):
///
/// * **unplayable** at a level where half the games or more end before
///   each player has moved twice after the opening plies (fewer than
///   `openings + 2 × players` plies: no legal play, or a game that ends at
///   once, or in the openings no bot chose), or when no game was played;
/// * **broken** at a level with more than [`DRAWISH`] of games drawn by the
///   rules, more than [`CAPPED`] stopped by the ply cap, a mean length far
///   outside its [`ideal_band`] (below half its lower end or above twice
///   its upper end, as the metrics flag it), or (at a level other than
///   `random`) more than [`DOMINANT_ENDING`] ending one way other than a
///   breakthrough: the verdict's extremes;
/// * **unbalanced** at a level whose first-player 95% interval excludes
///   the fair rate;
/// * **playable** otherwise.
///
/// The tier is the worst any level gets. The fitness ranks rows within a
/// tier: [`FULL_FITNESS`] less the first player's largest distance from
/// the fair rate (in points), less a point per [`PLIES_PER_POINT`] plies
/// that a level's mean length lies outside its [`ideal_band`].
pub fn assess(b: &BalanceReport) -> Assessment {
    let mut tier = Tier::Playable;
    let mut flags = Vec::new();
    let (mut edge, mut outside) = (0.0f64, 0.0f64);
    let mut flag = |t: Tier, text: String, tier: &mut Tier| {
        *tier = (*tier).min(t);
        flags.push(text);
    };
    let mut played = false;
    for l in &b.levels {
        let r = &l.report;
        if r.games == 0 {
            continue;
        }
        played = true;
        let at = &l.level;
        // Each player moves twice after the opening plies, which no bot
        // chose: a game over before is not played by the bots at all.
        let openings = r.provenance.openings;
        let quick = openings + 2 * r.provenance.players.len().max(1) as u32;
        if r.length.median < quick {
            let after = if openings > 0 {
                format!(" (its {openings} opening plies and two moves a player)")
            } else {
                String::new()
            };
            flag(
                Tier::Unplayable,
                format!(
                    "At {at}, half the games last fewer than {quick} plies{after} (median {}): the game ends at once.",
                    r.length.median
                ),
                &mut tier,
            );
        }
        let [lo, hi] = ideal_band(r);
        let mean = r.length.mean;
        let far = if mean * DURATION_FAR < lo {
            Some("far below")
        } else if mean > hi * DURATION_FAR {
            Some("far above")
        } else {
            None
        };
        if let Some(far) = far {
            flag(
                Tier::Broken,
                format!(
                    "At {at}, games last {mean:.1} plies on average, {far} the ideal band of {lo:.0}–{hi:.0} plies."
                ),
                &mut tier,
            );
        }
        let drawn = drawn_share(r);
        if drawn > DRAWISH {
            flag(
                Tier::Broken,
                format!("At {at}, {} of games are drawn.", percent(drawn)),
                &mut tier,
            );
        }
        let capped = capped_share(r);
        if capped > CAPPED {
            flag(
                Tier::Broken,
                format!(
                    "At {at}, {} of games hit the ply cap of {} plies.",
                    percent(capped),
                    r.provenance.max_plies
                ),
                &mut tier,
            );
        }
        for (reason, &count) in &r.end_reasons {
            let share = count as f64 / r.games as f64;
            // Random movers seldom aim for a breakthrough: in the standard
            // game 99.5% of random games end by stalemate, 12% of greedy
            // ones. An ending that dominates random play alone says little.
            if share > DOMINANT_ENDING
                && !reason.starts_with("breakthrough")
                && reason != "ply-cap"
                && at != "random"
            {
                flag(
                    Tier::Broken,
                    format!(
                        "At {at}, {} of games end by {}.",
                        percent(share),
                        reason.replace('-', " ")
                    ),
                    &mut tier,
                );
            }
        }
        let f = &r.first_player_advantage;
        if f.ci95[0] > f.fair || f.ci95[1] < f.fair {
            flag(
                Tier::Unbalanced,
                format!(
                    "At {at}, the first player wins {}; fair is {}.",
                    percent_interval(f.rate, f.ci95),
                    percent(f.fair)
                ),
                &mut tier,
            );
        }
        edge = edge.max((f.rate - f.fair).abs() * 100.0);
        outside = outside.max(if mean < lo {
            lo - mean
        } else {
            (mean - hi).max(0.0)
        });
    }
    if !played {
        flag(
            Tier::Unplayable,
            "No game was played (the check was interrupted).".into(),
            &mut tier,
        );
    }
    let round = |x: f64| (x * 1e6).round() / 1e6;
    Assessment {
        tier,
        fitness: round(FULL_FITNESS - edge - outside / PLIES_PER_POINT),
        edge: round(edge),
        plies_outside: round(outside),
        flags,
    }
}

/// The row of combination `index` with `values`, from its balance check
/// (ranked later by [`rank`]).
pub fn row_of(index: u64, values: BTreeMap<String, i64>, balance: BalanceReport) -> SweepRow {
    let a = assess(&balance);
    SweepRow {
        index,
        values,
        rank: 0,
        tier: a.tier,
        fitness: a.fitness,
        edge: a.edge,
        plies_outside: a.plies_outside,
        flags: a.flags,
        balance,
    }
}

/// Sorts rows best first (the higher tier, then the higher fitness, then
/// the lower combination number) and numbers their ranks from 1.
pub fn rank(rows: &mut [SweepRow]) {
    rows.sort_by(|a, b| {
        b.tier
            .cmp(&a.tier)
            .then(b.fitness.total_cmp(&a.fitness))
            .then(a.index.cmp(&b.index))
    });
    for (i, r) in rows.iter_mut().enumerate() {
        r.rank = i as u64 + 1;
    }
}
