//! The report assembled from its stages' results: each section's answer
//! worded from its figures.

use murus_engine::Variant;

use super::parts::{SolvePart, SpeedPart};
use super::{
    DesignerReport, FORMAT, FairnessSection, LadderSection, QualitySection, ReportConfig,
    RulesSection, SOLVE_MOST_CELLS, SolvedSection, SpeedSection, Timing,
};
use crate::ladder::Ladder;
use crate::metrics::Metrics;
use crate::record::VariantId;
use crate::report::{BalanceReport, strongest};
use crate::text::percent_interval;

#[allow(clippy::too_many_arguments)]
pub(super) fn assemble(
    variant: &Variant,
    spec_text: &str,
    config: &ReportConfig,
    command: String,
    speed: SpeedPart,
    balance: BalanceReport,
    ladder: Option<Ladder>,
    solved: Option<SolvePart>,
    timing: Timing,
) -> DesignerReport {
    let evaluation = murus_ai::Evaluation::for_variant(variant);
    let (eval_id, eval_summary) = (evaluation.id(), evaluation.summary());
    let rules = RulesSection {
        answer: format!(
            "{} on {} cells for {} players; the bots evaluate with {}.",
            variant.rules().title,
            variant.geometry().cells().count(),
            variant.player_count(),
            if eval_id == "generic" {
                "the generic features"
            } else {
                "a trained evaluation"
            }
        ),
        variant: VariantId::of(variant),
        title: variant.rules().title.clone(),
        players: variant.player_count(),
        cells: variant.geometry().cells().count() as u32,
        start: variant.position_string(&variant.start()),
        evaluation: eval_id,
        evaluation_summary: eval_summary,
    };
    let speed_answer = speed_answer(&speed);
    let plan = config.budget.plan();
    let fairness_answer = fairness_answer(variant, &balance);
    let quality = quality_section(&balance);
    let fairness = FairnessSection {
        answer: fairness_answer,
        command: format!(
            "murus balance {spec_text} --levels {} --games {} --seed {}",
            plan.levels, plan.games, config.seed
        ),
        balance,
    };
    let ladder = ladder.map(|l| {
        let warning = l.colour_warning();
        let answer = match warning {
            Some(_) => format!(
                "{}. Warning: one colour's edge decides some of its matches.",
                l.answer()
            ),
            None => format!("{}.", l.answer()),
        };
        LadderSection {
            answer,
            command: command.clone(),
            warning,
            ladder: l,
        }
    });
    let solved =
        solved.map(|s| solved_section(variant, spec_text, plan.solve_nodes, s, &fairness.balance));
    DesignerReport {
        format: FORMAT,
        budget: config.budget,
        seed: config.seed,
        command: command.clone(),
        rules,
        speed: SpeedSection {
            answer: speed_answer,
            command: format!("{command} (random playouts: {})", plan.playouts),
            playouts: speed.playouts,
            standard: speed.standard,
        },
        fairness,
        ladder,
        solved,
        quality,
        game: None,
        tactics: None,
        openings: None,
        curves: None,
        board: None,
        endings: None,
        comparison: None,
        training: None,
        timing,
    }
}

/// The speed section's answer.
pub(super) fn speed_answer(speed: &SpeedPart) -> String {
    let p = &speed.playouts;
    {
        let mut s = format!(
            "Random games last {} plies (median; 90% between {} and {}) with {:.1} moves a position; game tree about 10^{:.0}, state space about 10^{:.0}",
            p.length.median,
            p.length.p5,
            p.length.p95,
            p.branching.mean,
            p.game_tree_log10,
            p.state_space_log10
        );
        if let Some(s0) = &speed.standard {
            s += &format!(
                " (the standard game: {} plies, {:.1} moves, 10^{:.0} and 10^{:.0})",
                s0.length.median, s0.branching.mean, s0.game_tree_log10, s0.state_space_log10
            );
        }
        s + "."
    }
}

/// The fairness section's answer: the strongest level's verdict.
pub(super) fn fairness_answer(variant: &Variant, balance: &BalanceReport) -> String {
    let name = |p: usize| variant.player_name(p);
    let strongest = strongest(balance);
    match strongest {
        Some(l) => {
            let f = &l.report.first_player_advantage;
            let verdict = if f.ci95[0] > f.fair {
                format!("favours the first player ({})", name(0))
            } else if f.ci95[1] < f.fair {
                format!("favours the second player ({})", name(1))
            } else {
                "is fair within the interval".to_string()
            };
            format!(
                "At {}, the game {verdict}: the first player wins {}.",
                l.level,
                percent_interval(f.rate, f.ci95)
            )
        }
        None => "No games were played.".to_string(),
    }
}

/// The game-quality section: the strongest level's metrics and flags.
pub(super) fn quality_section(balance: &BalanceReport) -> QualitySection {
    let strongest = strongest(balance);
    let (level, metrics) = strongest.as_ref().map_or_else(
        || (String::new(), Metrics::default()),
        |l| (l.level.clone(), l.report.metrics.clone()),
    );
    let flags = metrics.extremes();
    QualitySection {
        answer: if flags.is_empty() {
            format!("At {level}, no game-quality figure is out of its usual range.")
        } else {
            format!(
                "At {level}, {} figure{} out of range: {}.",
                flags.len(),
                if flags.len() == 1 { " is" } else { "s are" },
                flags.join("; ")
            )
        },
        level,
        metrics,
        flags,
    }
}

/// The proof search's section: the value, the winning first moves, and
/// whether the strongest level's balance verdict agrees.
pub(super) fn solved_section(
    variant: &Variant,
    spec_text: &str,
    budget_nodes: u64,
    s: SolvePart,
    balance: &BalanceReport,
) -> SolvedSection {
    let name = |p: usize| variant.player_name(p);
    let strongest = strongest(balance);

    let mover = 0;
    let ply_cap = variant.rules().draw.ply_cap.filter(|_| s.with_cap);
    let capped = ply_cap.map_or(String::new(), |cap| {
        format!(" to the ply cap of {cap}, where the rules decide the game")
    });
    let (value, winner, answer) = match s.value {
        Some(Some(p)) => (
            if p == mover { "win" } else { "loss" },
            Some(variant.letter(p)),
            format!("Solved: {} win with perfect play{capped}", name(p)),
        ),
        Some(None) => (
            "draw",
            None,
            format!("Solved: a draw with perfect play{capped}"),
        ),
        None if s.not_attempted.is_some() => (
            "unknown",
            None,
            format!(
                "Not attempted: the board's {} cells are past the {SOLVE_MOST_CELLS} that proof-number search reaches within a report's budget (`murus solve` tries it on a budget of its own)",
                s.not_attempted.unwrap_or(0)
            ),
        ),
        None => (
            "unknown",
            None,
            format!(
                "Not solved within {} nodes of proof-number search{}",
                s.nodes,
                if s.with_cap {
                    " of the game to its ply cap"
                } else {
                    ""
                }
            ),
        ),
    };
    let agrees = s.value.and_then(|v| {
        let f = &strongest?.report.first_player_advantage;
        Some(match v {
            Some(0) => f.ci95[0] > f.fair,
            Some(_) => f.ci95[1] < f.fair,
            None => f.ci95[0] <= f.fair && f.ci95[1] >= f.fair,
        })
    });
    let mut answer = answer;
    if !s.winning.is_empty() {
        answer += &format!("; winning first moves: {}", s.winning.join(" "));
    }
    match agrees {
        Some(true) => answer += "; strong play's balance verdict agrees.",
        Some(false) => answer += "; strong play's balance verdict does not agree.",
        None => answer += ".",
    }
    SolvedSection {
        answer,
        command: format!(
            "murus solve {spec_text} --budget {budget_nodes}{}",
            if s.with_cap { " --with-cap" } else { "" }
        ),
        value: value.to_string(),
        winner,
        winning: s.winning,
        nodes: s.nodes,
        budget_nodes,
        balance_agrees: agrees,
        with_cap: s.with_cap,
        ply_cap,
        not_attempted: s.not_attempted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board past [`SOLVE_MOST_CELLS`] says it was not attempted, and
    /// why, in words; its value stays unknown.
    #[test]
    fn a_board_past_the_proof_searchs_reach_is_said_not_attempted() {
        let variant = Variant::standard();
        let cells = variant.geometry().cell_count();
        assert!(cells > SOLVE_MOST_CELLS, "{cells}");
        let balance = BalanceReport {
            variant: VariantId::of(&variant),
            engine_version: String::new(),
            seed: 1,
            openings: 4,
            book: None,
            stopping: "games 1".into(),
            shard: None,
            pie_rule: false,
            levels: Vec::new(),
            skill: Vec::new(),
            verdict: Vec::new(),
            interrupted: false,
            missing_shards: Vec::new(),
        };
        let part = SolvePart {
            value: None,
            winning: Vec::new(),
            nodes: 0,
            seconds: 0.0,
            with_cap: false,
            not_attempted: Some(cells),
        };
        let s = solved_section(&variant, "standard", 50_000_000, part, &balance);
        assert_eq!(s.value, "unknown");
        assert_eq!(s.not_attempted, Some(56));
        assert!(
            s.answer
                .starts_with("Not attempted: the board's 56 cells are past the 30 that proof-number search reaches"),
            "{}",
            s.answer
        );
    }
}
