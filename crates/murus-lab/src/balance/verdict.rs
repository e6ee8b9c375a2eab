//! The verdict: the check's figures in sentences, each by a rule of
//! `docs/balance.md`.

use crate::report::{BalanceReport, SkillGap};
use crate::text::{percent, percent_interval};

/// A share of games above which one way of ending is flagged.
pub const DOMINANT_ENDING: f64 = 0.9;
/// A share of games drawn (by repetition or the rules) that is flagged.
pub const DRAWISH: f64 = 0.5;
/// A share of games stopped by the ply cap that is flagged.
pub const CAPPED: f64 = 0.1;

/// The verdict, one sentence a line, each by a rule of `docs/balance.md`:
///
/// 1. **Edge per level**, strongest level first: the first player's rate
///    and the 95% interval's half-width; "a significant advantage" when the
///    interval lies above the fair rate, "a significant disadvantage" below
///    it, "no significant edge" when it holds the fair rate.
/// 2. **Skill-dependence**: when the levels that search disagree (an edge
///    at one, none or the other at another), "Fairness depends on skill."
///    The random level is left out: random play shows the rules' edge, not
///    a level of skill.
/// 3. **Remedy**: a significant edge at the strongest level of a
///    two-player variant without the pie rule, that level being one that
///    plays (not `random`): "Consider the pie rule."
/// 4. **Skill trace**: each adjacent match whose interval holds 0 says
///    that step adds no measurable strength; when every step adds strength,
///    one sentence says so; when the last does not, "skill stops
///    mattering" above the level before it.
/// 5. **Extremes**, per level: draws other than the ply cap's above
///    [`DRAWISH`], ply-cap stops above
///    [`CAPPED`], and one ending (other than a breakthrough) above
///    [`DOMINANT_ENDING`] of the games.
/// 6. **Game quality**, per level: each game-quality metric outside its
///    documented bound ([`crate::metrics::Metrics::extremes`]), as "At LEVEL, …".
pub fn verdict(report: &BalanceReport) -> Vec<String> {
    let mut out = Vec::new();
    #[derive(PartialEq, Clone, Copy)]
    enum Edge {
        Advantage,
        Disadvantage,
        None,
    }
    let mut edges = Vec::new();
    for l in report.levels.iter().rev() {
        let f = &l.report.first_player_advantage;
        if l.report.games == 0 {
            continue;
        }
        let edge = if f.ci95[0] > f.fair {
            Edge::Advantage
        } else if f.ci95[1] < f.fair {
            Edge::Disadvantage
        } else {
            Edge::None
        };
        edges.push((l.level.as_str(), edge));
        let words = match edge {
            Edge::Advantage => "a significant advantage",
            Edge::Disadvantage => "a significant disadvantage",
            Edge::None => "no significant edge",
        };
        out.push(format!(
            "At {}, the first player wins {}: {words}.",
            l.level,
            percent_interval(f.rate, f.ci95),
        ));
    }
    // Random play says nothing about skill: only the levels that search
    // can disagree.
    let searching: Vec<Edge> = edges
        .iter()
        .filter(|(level, _)| *level != "random")
        .map(|(_, e)| *e)
        .collect();
    if searching.windows(2).any(|w| w[0] != w[1]) {
        out.push("Fairness depends on skill.".into());
    }
    let players = report
        .levels
        .first()
        .map_or(0, |l| l.report.provenance.players.len());
    let strongest = crate::report::strongest(report);
    if players == 2
        && !report.pie_rule
        && strongest.is_some_and(|l| l.level != "random")
        && edges.first().is_some_and(|(_, e)| *e != Edge::None)
    {
        out.push("Consider the pie rule.".into());
    }
    if !report.skill.is_empty() {
        let flat: Vec<&SkillGap> = report.skill.iter().filter(|g| g.lo() <= 0.0).collect();
        if flat.is_empty() {
            let gaps: Vec<String> = report
                .skill
                .iter()
                .map(|g| format!("{} over {} {}", g.upper, g.lower, g.elo_text()))
                .collect();
            out.push(format!(
                "Skill matters at every step: {} Elo.",
                gaps.join(", ")
            ));
        } else {
            for g in &flat {
                out.push(format!(
                    "{} adds no measurable strength over {}: {} Elo.",
                    capitalise(&g.upper),
                    g.lower,
                    g.elo_text()
                ));
            }
            if let Some(last) = report.skill.last()
                && last.lo() <= 0.0
            {
                out.push(format!(
                    "Skill stops mattering above {}: the strongest levels play alike.",
                    last.lower
                ));
            }
        }
    }
    for l in &report.levels {
        let r = &l.report;
        if r.games == 0 {
            continue;
        }
        // Draws the rules made (repetition, a stalemate that draws), not
        // the ply cap's stops.
        let drawn = r.draws.count.saturating_sub(r.ply_cap.count) as f64 / r.games as f64;
        if drawn > DRAWISH {
            out.push(format!(
                "At {}, {} of games are drawn.",
                l.level,
                percent(drawn)
            ));
        }
        if r.ply_cap.rate > CAPPED {
            out.push(format!(
                "At {}, {} of games hit the ply cap of {} plies: the game may not finish.",
                l.level,
                percent(r.ply_cap.rate),
                r.provenance.max_plies
            ));
        }
        for (reason, &count) in &r.end_reasons {
            let share = count as f64 / r.games as f64;
            if share > DOMINANT_ENDING && !reason.starts_with("breakthrough") && reason != "ply-cap"
            {
                out.push(format!(
                    "At {}, {} of games end by {}.",
                    l.level,
                    percent(share),
                    reason.replace('-', " ")
                ));
            }
        }
    }
    for l in report.levels.iter().filter(|l| l.report.games > 0) {
        for e in l.report.metrics.extremes() {
            out.push(format!("At {}, {e}.", l.level));
        }
    }
    out
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}
