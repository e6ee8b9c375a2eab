//! The balance report: everything computed from the finished games alone,
//! so shards merge into exactly the report of a single run.
//!
//! A report is built from each game's [`GameStats`], a small `Copy` record
//! of what the report counts, kept apart from the game's moves: a running
//! batch copies its records, never its games, to report on itself.

use std::collections::BTreeMap;

use murus_engine::Reason;
use serde::{Deserialize, Serialize};

use crate::book::BookId;
use crate::metrics::{GameMetrics, Metrics};
use crate::play::GameResult;
use crate::stats::{percentile, wilson};

/// What a report needs of one finished game: a small `Copy` record, the
/// part of a [`GameResult`] without its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameStats {
    /// Game number within the run (0-based).
    pub index: u64,
    /// Winner's colour letter, or `None` for a draw.
    pub winner: Option<char>,
    /// Winner's seat (differs from the colour's start seat after a pie swap).
    pub winner_seat: Option<usize>,
    /// Why the game ended, written as `reason` (`breakthrough`,
    /// `stalemate`, `elimination`, `repetition`, `ply-cap`) and `by` (for a
    /// breakthrough: `sow`, `throw` or `delayed`; else `null`).
    #[serde(flatten, with = "end_reason")]
    pub reason: Reason,
    pub plies: u32,
    /// Sum and maximum over plies of the number of legal moves.
    pub branching_sum: u64,
    pub branching_max: u32,
    /// Plies with exactly one legal move.
    pub forced: u32,
    /// How often the evaluation's leader changed during the game, measured
    /// after each full round (every `players` plies).
    pub lead_changes: u32,
    /// The colour the evaluation favoured after the last full round within
    /// the first three quarters of the game.
    pub leader_at_three_quarters: Option<char>,
    /// The game-quality metrics of the game ([`crate::metrics`]); `None`
    /// in lines written before them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<GameMetrics>,
}

/// An end reason as the two fields `reason` and `by` of a game line.
mod end_reason {
    use murus_engine::Reason;
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Fields {
        reason: String,
        #[serde(default)]
        by: Option<String>,
    }

    pub fn serialize<S: Serializer>(reason: &Reason, s: S) -> Result<S::Ok, S::Error> {
        Fields {
            reason: reason.as_str().to_string(),
            by: reason.by().map(str::to_string),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Reason, D::Error> {
        let f = Fields::deserialize(d)?;
        Reason::from_parts(&f.reason, f.by.as_deref()).ok_or_else(|| {
            D::Error::custom(format!(
                "unknown end reason `{}`{}",
                f.reason,
                f.by.map_or(String::new(), |by| format!(" by `{by}`"))
            ))
        })
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

/// The statistics records of `games`.
pub fn stats_of(games: &[GameResult]) -> Vec<GameStats> {
    games.iter().map(|g| g.stats).collect()
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
    /// Random plies that open each game (the same for the games of a
    /// colour-swapped pair); 0: every game from the start.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub openings: u32,
    /// The opening book the games open from ([`crate::Config::with_book`]);
    /// left out when none (files written before books load as none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<BookId>,
    /// `K/N` for one shard of a run; `None` for a whole run or a merge.
    pub shard: Option<String>,
    /// Player letters in turn order.
    pub players: Vec<char>,
}

/// Serde's test for a field left out when zero (older files lack it).
fn is_zero(n: &u32) -> bool {
    *n == 0
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

/// A share as a percentage with one decimal: `52.3%`.
pub fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// A count with its thousands set apart: `12 345`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// `123 wins, 61.5% [54.6–68.0]`.
fn wins(wins: u64, rate: f64, ci: [f64; 2]) -> String {
    format!(
        "{} wins, {} [{}–{}]",
        grouped(wins),
        percent(rate),
        percent(ci[0]),
        percent(ci[1])
    )
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
    /// Random opening plies of each game ([`Provenance::openings`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub openings: u32,
    /// The opening book the games open from ([`Provenance::book`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<BookId>,
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
    /// Game-quality metrics ([`crate::metrics`], `docs/metrics.md`); zero
    /// in reports written before them.
    #[serde(default)]
    pub metrics: Metrics,
}

impl Report {
    /// The report as labelled lines, in the one wording every front end
    /// uses (the terminal's summary, the studio's table), from
    /// `("Seat 1 (greedy)", "123 wins, 61.5% [54.6–68.0]")` to the end
    /// reasons. `colour` names a colour by its letter (`colour r`, or the
    /// player's name).
    pub fn summary(&self, colour: impl Fn(char) -> String) -> Vec<(String, String)> {
        let mut lines = Vec::new();
        for s in &self.by_seat {
            lines.push((
                format!("Seat {} ({})", s.seat + 1, s.bot),
                wins(s.wins, s.rate, s.ci95),
            ));
        }
        for (c, x) in &self.by_colour {
            let name = c.chars().next().map_or_else(|| c.clone(), &colour);
            lines.push((name, wins(x.wins, x.rate, x.ci95)));
        }
        let f = &self.first_player_advantage;
        lines.push((
            "First player".into(),
            format!(
                "{} [{}–{}], fair {}, advantage {:+.1} points",
                percent(f.rate),
                percent(f.ci95[0]),
                percent(f.ci95[1]),
                percent(f.fair),
                f.advantage * 100.0
            ),
        ));
        for (label, rate) in [("Draws", &self.draws), ("Hit the ply cap", &self.ply_cap)] {
            lines.push((
                label.into(),
                format!("{} ({})", grouped(rate.count), percent(rate.rate)),
            ));
        }
        let l = &self.length;
        lines.push((
            "Length".into(),
            format!(
                "mean {:.1}, median {}, 5–95% {}–{} plies",
                l.mean, l.median, l.p5, l.p95
            ),
        ));
        let b = &self.branching;
        lines.push((
            "Branching".into(),
            format!(
                "mean {:.1}, max {}, forced moves {}",
                b.mean,
                b.max,
                percent(b.forced_share)
            ),
        ));
        let e = &self.evaluation;
        lines.push((
            "Decisiveness".into(),
            format!(
                "the winner led at 3/4 in {} of decisive games; {:.2} lead changes a game",
                percent(e.decisiveness.rate),
                e.lead_changes_mean
            ),
        ));
        lines.extend(self.metrics.summary());
        let endings: Vec<String> = self
            .end_reasons
            .iter()
            .map(|(k, v)| format!("{k} {}", grouped(*v)))
            .collect();
        lines.push(("Endings".into(), endings.join(", ")));
        lines
    }
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
        openings: prov.openings,
        book: prov.book.clone(),
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
        metrics: Metrics::of(games),
    }
}

impl Report {
    /// The report as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a report serialises");
        s.push('\n');
        s
    }

    /// The report as CSV: `section,key,value` rows (a field holding a
    /// comma or a quote, as a bot's spec may, is quoted).
    pub fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut row = |s: &str, k: &str, v: String| {
            w.write_record([s, k, v.as_str()])
                .expect("writes to memory");
        };
        row("section", "key", "value".into());
        row("provenance", "variant", self.variant.name.clone());
        row(
            "provenance",
            "source_sha256",
            self.variant.source_sha256.clone(),
        );
        row("provenance", "engine_version", self.engine_version.clone());
        row("provenance", "seed", self.seed.to_string());
        if let Some(b) = &self.book {
            row("provenance", "book", b.name.clone());
            row("provenance", "book_sha256", b.sha256.clone());
        }
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
        for (k, v) in self.metrics.rows() {
            row("metrics", k, v);
        }
        String::from_utf8(w.into_inner().expect("flushes to memory")).expect("csv is UTF-8")
    }

    /// An SVG chart, drawn by [`crate::charts::report_svg`]: the share of
    /// games each seat (numbered from 1, with its bot) and each colour won,
    /// and the draws, with 95% intervals; and the game-length histogram.
    /// Both charts have axis titles; bars are rows with their labels beside
    /// them, so no two labels overlap however many seats and however long
    /// the bots' names (a label past 28 characters, or too long for its
    /// column, is cut with `…`, whole in its tooltip).
    pub fn to_svg(&self) -> String {
        crate::charts::report_svg(self)
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
            openings: self.openings,
            book: self.book.clone(),
            shard: self.shard.clone(),
            players: self.players.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_lines_written_before_the_metrics_still_load() {
        use crate::metrics::{Fixed, GameMetrics};
        let old = r#"{"index":3,"winner":"r","winner_seat":0,"reason":"breakthrough","by":"sow","plies":31,"branching_sum":400,"branching_max":20,"forced":1,"lead_changes":1,"leader_at_three_quarters":"r","seed":7,"seats":["random","random"],"colours":["r","g"],"moves":[]}"#;
        let g: GameResult = serde_json::from_str(old).unwrap();
        assert_eq!(g.stats.metrics, None);
        assert_eq!(g.stats.plies, 31);
        let mut new = g.clone();
        new.stats.metrics = Some(GameMetrics {
            evaluated: 16,
            drama: Some(Fixed::new(0.25)),
            ..GameMetrics::default()
        });
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
            },
            engine_version: String::new(),
            bots: vec!["random".into(), "random".into()],
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

    #[test]
    fn counts_are_grouped_by_thousands_and_shares_have_one_decimal() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1234), "1 234");
        assert_eq!(grouped(1_000_000), "1 000 000");
        assert_eq!(percent(0.5234), "52.3%");
    }
}
