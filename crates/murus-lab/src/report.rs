//! The balance report: everything computed from the finished games alone,
//! so shards merge into exactly the report of a single run.
//!
//! A report is built from each game's [`GameStats`], a small `Copy` record
//! of what the report counts, kept apart from the game's moves: a running
//! batch copies its records, never its games, to report on itself.

use std::collections::BTreeMap;

use murus_engine::Reason;
use serde::{Deserialize, Serialize};

use crate::LabError;
use crate::play::GameResult;
use crate::stats::{percentile, wilson};

/// What a report needs of one finished game: its result and statistics,
/// without its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameStats {
    /// Game number within the run.
    pub index: u64,
    /// Winner's colour letter, or `None` for a draw.
    pub winner: Option<char>,
    /// Winner's seat.
    pub winner_seat: Option<usize>,
    /// Why the game ended.
    pub reason: Reason,
    pub plies: u32,
    /// Sum and maximum over plies of the number of legal moves.
    pub branching_sum: u64,
    pub branching_max: u32,
    /// Plies with exactly one legal move.
    pub forced: u32,
    /// How often the evaluation's leader changed.
    pub lead_changes: u32,
    /// The colour the evaluation favoured three quarters into the game.
    pub leader_at_three_quarters: Option<char>,
}

/// Every end reason. The `match` in [`reason_of`] fails to compile when the
/// engine gains one, so this list cannot fall behind.
const REASONS: [Reason; 7] = [
    Reason::BreakthroughSow,
    Reason::BreakthroughThrow,
    Reason::BreakthroughDelayed,
    Reason::Stalemate,
    Reason::Elimination,
    Reason::Repetition,
    Reason::PlyCap,
];

/// The end reason written as `reason` and `by` in a game line.
fn reason_of(reason: &str, by: Option<&str>) -> Option<Reason> {
    let found = REASONS
        .into_iter()
        .find(|r| r.as_str() == reason && r.by() == by)?;
    match found {
        Reason::BreakthroughSow
        | Reason::BreakthroughThrow
        | Reason::BreakthroughDelayed
        | Reason::Stalemate
        | Reason::Elimination
        | Reason::Repetition
        | Reason::PlyCap => Some(found),
    }
}

/// The key of an end reason in [`Report::end_reasons`]: `breakthrough-sow`,
/// `stalemate`, ….
fn reason_key(reason: Reason) -> String {
    match reason.by() {
        Some(by) => format!("{}-{by}", reason.as_str()),
        None => reason.as_str().to_string(),
    }
}

impl GameResult {
    /// The game's statistics record. Fails only for a game whose `reason`
    /// and `by` name no end reason (a game line edited by hand).
    pub fn stats(&self) -> Result<GameStats, LabError> {
        let reason = reason_of(&self.reason, self.by.as_deref()).ok_or_else(|| {
            LabError::Invalid(format!(
                "game {}: unknown end reason `{}`{}",
                self.index,
                self.reason,
                self.by
                    .as_deref()
                    .map_or(String::new(), |by| format!(" by `{by}`"))
            ))
        })?;
        Ok(GameStats {
            index: self.index,
            winner: self.winner,
            winner_seat: self.winner_seat,
            reason,
            plies: self.plies,
            branching_sum: self.branching_sum,
            branching_max: self.branching_max,
            forced: self.forced,
            lead_changes: self.lead_changes,
            leader_at_three_quarters: self.leader_at_three_quarters,
        })
    }
}

/// The statistics records of `games`.
pub fn stats_of(games: &[GameResult]) -> Result<Vec<GameStats>, LabError> {
    games.iter().map(GameResult::stats).collect()
}

/// Where a report comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    pub variant: VariantId,
    pub engine_version: String,
    /// Bot spec per seat.
    pub bots: Vec<String>,
    pub seed: u64,
    /// Games asked for (the whole run, all shards together).
    pub requested: u64,
    pub max_plies: u32,
    /// `K/N` for one shard of a run; `None` for a whole run or a merge.
    pub shard: Option<String>,
    /// Player letters in turn order.
    pub players: Vec<char>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantId {
    pub name: String,
    pub source_sha256: String,
}

/// A count with its rate and 95% Wilson interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    pub count: u64,
    pub rate: f64,
    pub ci95: [f64; 2],
}

impl Rate {
    fn of(count: u64, n: u64) -> Rate {
        let (lo, hi) = wilson(count, n);
        Rate {
            count,
            rate: if n == 0 { 0.0 } else { count as f64 / n as f64 },
            ci95: [round(lo), round(hi)],
        }
    }
}

fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatResult {
    pub seat: usize,
    pub bot: String,
    pub wins: u64,
    pub rate: f64,
    pub ci95: [f64; 2],
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColourResult {
    pub wins: u64,
    pub rate: f64,
    pub ci95: [f64; 2],
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirstPlayer {
    pub wins: u64,
    pub rate: f64,
    pub ci95: [f64; 2],
    /// The rate a fair game would give: 1 / players.
    pub fair: f64,
    /// `rate - fair`.
    pub advantage: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bin {
    pub from: u32,
    pub to: u32,
    pub count: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Length {
    pub mean: f64,
    pub median: u32,
    pub p5: u32,
    pub p95: u32,
    pub histogram: Vec<Bin>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Branching {
    pub mean: f64,
    pub max: u32,
    pub forced_share: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Mean number of times the evaluation's leader changed per game.
    pub lead_changes_mean: f64,
    /// Share of decisive games whose winner the evaluation already favoured
    /// three quarters into the game, with its interval.
    pub decisiveness: Rate,
}

/// The balance report (`report.json`). It holds no timings, so equal runs
/// give equal bytes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub variant: VariantId,
    pub engine_version: String,
    pub bots: Vec<String>,
    pub seed: u64,
    pub requested: u64,
    pub max_plies: u32,
    pub shard: Option<String>,
    /// Player letters in turn order.
    pub players: Vec<char>,
    /// Games in this report.
    pub games: u64,
    /// Whether the run was stopped (Ctrl-C, a cancel) before all its games
    /// were played: the report then covers the finished games only. A
    /// complete run always says `false`, so equal runs still give equal
    /// bytes. A merge is interrupted when one of its shards was.
    #[serde(default)]
    pub interrupted: bool,
    pub by_seat: Vec<SeatResult>,
    pub by_colour: BTreeMap<String, ColourResult>,
    pub draws: Rate,
    pub ply_cap: Rate,
    pub first_player_advantage: FirstPlayer,
    /// Reason → count: `breakthrough-sow`, `breakthrough-throw`,
    /// `breakthrough-delayed`, `stalemate`, `elimination`, `repetition`,
    /// `ply-cap`.
    pub end_reasons: BTreeMap<String, u64>,
    pub length: Length,
    pub branching: Branching,
    pub evaluation: Evaluation,
}

/// Builds the report of `games` (in any order: every figure is a count, a
/// sum or an order statistic).
pub fn build(prov: &Provenance, games: &[GameStats]) -> Report {
    let n = games.len() as u64;
    let seats = prov.bots.len();
    let by_seat = (0..seats)
        .map(|s| {
            let wins = games.iter().filter(|g| g.winner_seat == Some(s)).count() as u64;
            let r = Rate::of(wins, n);
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
        .map(|&c| {
            let wins = games.iter().filter(|g| g.winner == Some(c)).count() as u64;
            let r = Rate::of(wins, n);
            (
                c.to_string(),
                ColourResult {
                    wins,
                    rate: r.rate,
                    ci95: r.ci95,
                },
            )
        })
        .collect();
    let draws = games.iter().filter(|g| g.winner.is_none()).count() as u64;
    let capped = games.iter().filter(|g| g.reason == Reason::PlyCap).count() as u64;
    let first = prov.players.first().copied();
    let first_wins = games
        .iter()
        .filter(|g| g.winner.is_some() && g.winner == first)
        .count() as u64;
    let fr = Rate::of(first_wins, n);
    let fair = 1.0 / prov.players.len().max(1) as f64;
    let mut end_reasons = BTreeMap::new();
    for g in games {
        *end_reasons.entry(reason_key(g.reason)).or_insert(0) += 1;
    }
    let mut lengths: Vec<u32> = games.iter().map(|g| g.plies).collect();
    lengths.sort_unstable();
    let total_plies: u64 = lengths.iter().map(|&l| u64::from(l)).sum();
    let max_len = lengths.last().copied().unwrap_or(0);
    let width = 10;
    let histogram = (0..=max_len / width)
        .map(|b| Bin {
            from: b * width,
            to: b * width + width - 1,
            count: lengths.iter().filter(|&&l| l / width == b).count() as u64,
        })
        .collect();
    let branching_sum: u64 = games.iter().map(|g| g.branching_sum).sum();
    let forced: u64 = games.iter().map(|g| u64::from(g.forced)).sum();
    let decisive: Vec<&GameStats> = games.iter().filter(|g| g.winner.is_some()).collect();
    let foreseen = decisive
        .iter()
        .filter(|g| g.leader_at_three_quarters.is_some() && g.leader_at_three_quarters == g.winner)
        .count() as u64;
    let lead_changes: u64 = games.iter().map(|g| u64::from(g.lead_changes)).sum();
    let per = |x: u64, d: u64| {
        if d == 0 {
            0.0
        } else {
            round(x as f64 / d as f64)
        }
    };
    Report {
        variant: prov.variant.clone(),
        engine_version: prov.engine_version.clone(),
        bots: prov.bots.clone(),
        seed: prov.seed,
        requested: prov.requested,
        max_plies: prov.max_plies,
        shard: prov.shard.clone(),
        players: prov.players.clone(),
        games: n,
        interrupted: false,
        by_seat,
        by_colour,
        draws: Rate::of(draws, n),
        ply_cap: Rate::of(capped, n),
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
            max: games.iter().map(|g| g.branching_max).max().unwrap_or(0),
            forced_share: per(forced, total_plies),
        },
        evaluation: Evaluation {
            lead_changes_mean: per(lead_changes, n),
            decisiveness: Rate::of(foreseen, decisive.len() as u64),
        },
    }
}

impl Report {
    /// The report as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a report serialises");
        s.push('\n');
        s
    }

    /// The report as CSV: `section,key,value` rows.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("section,key,value\n");
        let mut row = |s: &str, k: &str, v: String| {
            out.push_str(&format!("{s},{k},{v}\n"));
        };
        row("provenance", "variant", self.variant.name.clone());
        row(
            "provenance",
            "source_sha256",
            self.variant.source_sha256.clone(),
        );
        row("provenance", "engine_version", self.engine_version.clone());
        row("provenance", "seed", self.seed.to_string());
        row("provenance", "games", self.games.to_string());
        row("provenance", "interrupted", self.interrupted.to_string());
        for s in &self.by_seat {
            let k = format!("seat{} {}", s.seat, s.bot);
            row("by_seat", &format!("{k} wins"), s.wins.to_string());
            row("by_seat", &format!("{k} rate"), s.rate.to_string());
            row("by_seat", &format!("{k} ci95_lo"), s.ci95[0].to_string());
            row("by_seat", &format!("{k} ci95_hi"), s.ci95[1].to_string());
        }
        for (c, r) in &self.by_colour {
            row("by_colour", &format!("{c} wins"), r.wins.to_string());
            row("by_colour", &format!("{c} rate"), r.rate.to_string());
            row("by_colour", &format!("{c} ci95_lo"), r.ci95[0].to_string());
            row("by_colour", &format!("{c} ci95_hi"), r.ci95[1].to_string());
        }
        row("draws", "count", self.draws.count.to_string());
        row("draws", "rate", self.draws.rate.to_string());
        row("ply_cap", "count", self.ply_cap.count.to_string());
        row(
            "first_player",
            "rate",
            self.first_player_advantage.rate.to_string(),
        );
        row(
            "first_player",
            "advantage",
            self.first_player_advantage.advantage.to_string(),
        );
        for (r, n) in &self.end_reasons {
            row("end_reasons", r, n.to_string());
        }
        row("length", "mean", self.length.mean.to_string());
        row("length", "median", self.length.median.to_string());
        row("length", "p5", self.length.p5.to_string());
        row("length", "p95", self.length.p95.to_string());
        for b in &self.length.histogram {
            row(
                "length_histogram",
                &format!("{}-{}", b.from, b.to),
                b.count.to_string(),
            );
        }
        row("branching", "mean", self.branching.mean.to_string());
        row("branching", "max", self.branching.max.to_string());
        row(
            "branching",
            "forced_share",
            self.branching.forced_share.to_string(),
        );
        row(
            "evaluation",
            "lead_changes_mean",
            self.evaluation.lead_changes_mean.to_string(),
        );
        row(
            "evaluation",
            "decisiveness",
            self.evaluation.decisiveness.rate.to_string(),
        );
        out
    }

    /// An SVG chart: wins per seat with intervals, draws, and the game-length
    /// histogram.
    pub fn to_svg(&self) -> String {
        let (w, h) = (720.0, 320.0);
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        );
        s.push_str(&format!(
            "<text x=\"10\" y=\"20\" font-size=\"14\">{} — {} games ({}){}</text>\n",
            esc(&self.variant.name),
            self.games,
            esc(&self.bots.join(" vs ")),
            if self.interrupted {
                ", interrupted"
            } else {
                ""
            }
        ));
        // Left: outcome bars.
        let mut bars: Vec<(String, f64, [f64; 2])> = self
            .by_seat
            .iter()
            .map(|r| (format!("seat {} {}", r.seat, r.bot), r.rate, r.ci95))
            .collect();
        bars.push(("draws".into(), self.draws.rate, self.draws.ci95));
        let (x0, y0, bw, bh) = (40.0, 50.0, 300.0, 220.0);
        s.push_str(&format!(
            "<text x=\"{x0}\" y=\"{}\">outcomes (95% intervals)</text>\n",
            y0 - 8.0
        ));
        let step = bw / bars.len().max(1) as f64;
        for (i, (label, rate, ci)) in bars.iter().enumerate() {
            let x = x0 + i as f64 * step + step * 0.15;
            let bar_h = rate * bh;
            s.push_str(&format!(
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bar_h:.1}\" fill=\"#4a7ab0\"/>\n",
                y0 + bh - bar_h,
                step * 0.7
            ));
            let cx = x + step * 0.35;
            s.push_str(&format!(
                "<line x1=\"{cx:.1}\" x2=\"{cx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"black\"/>\n",
                y0 + bh - ci[1] * bh,
                y0 + bh - ci[0] * bh
            ));
            s.push_str(&format!(
                "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"10\">{} {:.1}%</text>\n",
                y0 + bh + 14.0,
                esc(label),
                rate * 100.0
            ));
        }
        s.push_str(&format!(
            "<line x1=\"{x0}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"black\"/>\n",
            x0 + bw,
            y0 + bh,
            y0 + bh
        ));
        // Right: length histogram.
        let (x1, hw) = (400.0, 300.0);
        s.push_str(&format!(
            "<text x=\"{x1}\" y=\"{}\">game length (plies): mean {:.1}, median {}</text>\n",
            y0 - 8.0,
            self.length.mean,
            self.length.median
        ));
        let most = self
            .length
            .histogram
            .iter()
            .map(|b| b.count)
            .max()
            .unwrap_or(1)
            .max(1) as f64;
        let bins = self.length.histogram.len().max(1) as f64;
        for (i, b) in self.length.histogram.iter().enumerate() {
            let bh2 = b.count as f64 / most * bh;
            s.push_str(&format!(
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh2:.1}\" fill=\"#b07a4a\"><title>{}–{}: {}</title></rect>\n",
                x1 + i as f64 * hw / bins,
                y0 + bh - bh2,
                (hw / bins - 1.0).max(0.5),
                b.from,
                b.to,
                b.count
            ));
        }
        s.push_str(&format!(
            "<line x1=\"{x1}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"black\"/>\n<text x=\"{x1}\" y=\"{}\" font-size=\"10\">0</text>\n<text x=\"{}\" y=\"{}\" font-size=\"10\">{}</text>\n</svg>\n",
            x1 + hw,
            y0 + bh,
            y0 + bh,
            y0 + bh + 14.0,
            x1 + hw - 20.0,
            y0 + bh + 14.0,
            self.length.histogram.last().map_or(0, |b| b.to + 1)
        ));
        s
    }

    /// The report's provenance (for merging).
    pub fn provenance(&self) -> Provenance {
        Provenance {
            variant: self.variant.clone(),
            engine_version: self.engine_version.clone(),
            bots: self.bots.clone(),
            seed: self.seed,
            requested: self.requested,
            max_plies: self.max_plies,
            shard: self.shard.clone(),
            players: self.players.clone(),
        }
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
