//! The tables: a run's report as `section,key,value` rows
//! (`report.csv`), a balance check's row a level (`balance.csv`), and a
//! sweep's row a combination (`sweep.csv`).

use std::collections::BTreeMap;

use crate::metrics::Metrics;
use crate::report::{BalanceReport, Report, SweepReport, Tier};

/// A run's report as CSV (`report.csv`): `section,key,value` rows (a
/// field holding a comma or a quote, as a bot's spec may, is quoted).
pub fn report_csv(report: &Report) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut row = |s: &str, k: &str, v: String| {
        w.write_record([s, k, v.as_str()])
            .expect("writes to memory");
    };
    let p = &report.provenance;
    row("section", "key", "value".into());
    row("provenance", "variant", p.variant.name.clone());
    row(
        "provenance",
        "source_sha256",
        p.variant.source_sha256.clone(),
    );
    if let Some(key) = &p.variant.rules_key {
        row("provenance", "rules_key", key.clone());
    }
    row("provenance", "engine_version", p.engine_version.clone());
    for (s, e) in p.evaluations.iter().enumerate() {
        row("provenance", &format!("seat{s} evaluation"), e.clone());
    }
    row("provenance", "seed", p.seed.to_string());
    if let Some(b) = &p.book {
        row("provenance", "book", b.name.clone());
        row("provenance", "book_sha256", b.sha256.clone());
    }
    row("provenance", "games", report.games.to_string());
    row("provenance", "interrupted", report.interrupted.to_string());
    for s in &report.by_seat {
        let k = format!("seat{} {}", s.seat, s.bot);
        row("by_seat", &format!("{k} wins"), s.wins.to_string());
        row("by_seat", &format!("{k} rate"), s.rate.to_string());
        row("by_seat", &format!("{k} ci95_lo"), s.ci95[0].to_string());
        row("by_seat", &format!("{k} ci95_hi"), s.ci95[1].to_string());
    }
    for (c, r) in &report.by_colour {
        row("by_colour", &format!("{c} wins"), r.wins.to_string());
        row("by_colour", &format!("{c} rate"), r.rate.to_string());
        row("by_colour", &format!("{c} ci95_lo"), r.ci95[0].to_string());
        row("by_colour", &format!("{c} ci95_hi"), r.ci95[1].to_string());
    }
    row("draws", "count", report.draws.count.to_string());
    row("draws", "rate", report.draws.rate.to_string());
    row("ply_cap", "count", report.ply_cap.count.to_string());
    row(
        "first_player",
        "rate",
        report.first_player_advantage.rate.to_string(),
    );
    row(
        "first_player",
        "advantage",
        report.first_player_advantage.advantage.to_string(),
    );
    for (r, n) in &report.end_reasons {
        row("end_reasons", r, n.to_string());
    }
    row("length", "mean", report.length.mean.to_string());
    row("length", "median", report.length.median.to_string());
    row("length", "p5", report.length.p5.to_string());
    row("length", "p95", report.length.p95.to_string());
    for b in &report.length.histogram {
        row(
            "length_histogram",
            &format!("{}-{}", b.from, b.to),
            b.count.to_string(),
        );
    }
    row("branching", "mean", report.branching.mean.to_string());
    row("branching", "max", report.branching.max.to_string());
    row(
        "branching",
        "forced_share",
        report.branching.forced_share.to_string(),
    );
    row(
        "evaluation",
        "lead_changes_mean",
        report.evaluation.lead_changes_mean.to_string(),
    );
    row(
        "evaluation",
        "decisiveness",
        report.evaluation.decisiveness.rate.to_string(),
    );
    for (k, v) in report.metrics.rows() {
        row("metrics", k, v);
    }
    String::from_utf8(w.into_inner().expect("flushes to memory")).expect("csv is UTF-8")
}

/// One row a level: the first player's rate and interval, each colour's
/// rate, draws, ply-cap stops, mean length, and the stop reason.
pub fn balance_csv(report: &BalanceReport) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let colours: Vec<String> = report
        .levels
        .first()
        .map(|l| l.report.by_colour.keys().cloned().collect())
        .unwrap_or_default();
    let mut header: Vec<String> = [
        "level",
        "bot",
        "evaluation",
        "games",
        "first_player",
        "first_player_lo",
        "first_player_hi",
    ]
    .map(String::from)
    .to_vec();
    header.extend(colours.iter().map(|c| format!("colour_{c}")));
    header.extend(
        ["draws", "ply_cap", "mean_plies", "stopped"]
            .map(String::from)
            .to_vec(),
    );
    // The game-quality metrics, after the columns above.
    header.extend(
        Metrics::default()
            .rows()
            .into_iter()
            .map(|(k, _)| format!("metrics_{k}")),
    );
    w.write_record(&header).expect("writes to memory");
    for l in &report.levels {
        let r = &l.report;
        let f = &r.first_player_advantage;
        let mut row = vec![
            l.level.clone(),
            l.bot.clone(),
            r.provenance
                .evaluations
                .first()
                .cloned()
                .unwrap_or_default(),
            r.games.to_string(),
            format!("{:.4}", f.rate),
            format!("{:.4}", f.ci95[0]),
            format!("{:.4}", f.ci95[1]),
        ];
        row.extend(
            colours
                .iter()
                .map(|c| format!("{:.4}", r.by_colour.get(c).map_or(0.0, |x| x.rate))),
        );
        row.extend([
            format!("{:.4}", r.draws.rate),
            format!("{:.4}", r.ply_cap.rate),
            format!("{:.1}", r.length.mean),
            format!("{:?}", l.stopped).to_lowercase(),
        ]);
        row.extend(r.metrics.rows().into_iter().map(|(_, v)| v));
        w.write_record(&row).expect("writes to memory");
    }
    String::from_utf8(w.into_inner().expect("flushes to memory")).expect("csv is UTF-8")
}

/// The table: one line a combination, best first, then those skipped.
/// Columns: `rank`, `tier`, `fitness`, `edge` (points), `plies_outside`,
/// one column a parameter, then for each level `LEVEL_games`,
/// `LEVEL_first_player` with `_lo` and `_hi` (its 95% interval),
/// `LEVEL_draws`, `LEVEL_ply_cap` and `LEVEL_mean_plies`, then
/// `evaluation` (the one the bots were given), `flags` (`; `-separated)
/// and `error` (a skipped combination's first error).
pub fn sweep_csv(report: &SweepReport) -> String {
    let spec = &report.spec;
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = ["rank", "tier", "fitness", "edge", "plies_outside"]
        .map(String::from)
        .to_vec();
    header.extend(spec.parameters.iter().cloned());
    for l in &spec.levels {
        for col in [
            "games",
            "first_player",
            "first_player_lo",
            "first_player_hi",
            "draws",
            "ply_cap",
            "mean_plies",
        ] {
            header.push(format!("{l}_{col}"));
        }
    }
    header.extend(["evaluation", "flags", "error"].map(String::from));
    w.write_record(&header).expect("writes to memory");
    let params = |values: &BTreeMap<String, i64>| -> Vec<String> {
        spec.parameters
            .iter()
            .map(|p| values.get(p).map_or(String::new(), ToString::to_string))
            .collect()
    };
    for r in &report.rows {
        let mut row = vec![
            r.rank.to_string(),
            r.tier.name().to_string(),
            format!("{:.2}", r.fitness),
            format!("{:.2}", r.edge),
            format!("{:.1}", r.plies_outside),
        ];
        row.extend(params(&r.values));
        for name in &spec.levels {
            match r.balance.levels.iter().find(|l| l.level == *name) {
                Some(l) => {
                    let rep = &l.report;
                    let f = &rep.first_player_advantage;
                    row.extend([
                        rep.games.to_string(),
                        format!("{:.4}", f.rate),
                        format!("{:.4}", f.ci95[0]),
                        format!("{:.4}", f.ci95[1]),
                        format!("{:.4}", rep.draws.rate),
                        format!("{:.4}", rep.ply_cap.rate),
                        format!("{:.1}", rep.length.mean),
                    ]);
                }
                None => row.extend(std::iter::repeat_n(String::new(), 7)),
            }
        }
        // Every level's bots are given the combination's own evaluation.
        row.push(
            r.balance
                .levels
                .iter()
                .find_map(|l| l.report.provenance.evaluations.first())
                .cloned()
                .unwrap_or_default(),
        );
        row.push(r.flags.join("; "));
        row.push(String::new());
        w.write_record(&row).expect("writes to memory");
    }
    for s in &report.skipped {
        let mut row = vec![
            String::new(),
            Tier::Unplayable.name().to_string(),
            String::new(),
            String::new(),
            String::new(),
        ];
        row.extend(params(&s.values));
        row.extend(std::iter::repeat_n(String::new(), 7 * spec.levels.len()));
        row.push(String::new());
        row.push(String::new());
        row.push(s.error.clone());
        w.write_record(&row).expect("writes to memory");
    }
    String::from_utf8(w.into_inner().expect("flushes to memory")).expect("csv is UTF-8")
}
