//! Two reports side by side: each headline figure of both, and whether
//! they differ significantly (at 95%, two-sided) where a test applies: a
//! two-proportion z test for rates, a z test on means (the spread taken
//! from the figures' histograms) for lengths and branching. Estimates
//! without a sampling error (complexities, rungs) are shown, not tested.

use serde::{Deserialize, Serialize};

use super::DesignerReport;
use super::speed::Distribution;
use crate::balance::LevelResult;
use crate::numbers::Z95;
use crate::run::Bin;

/// One figure of both reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub figure: String,
    pub this: Option<f64>,
    pub other: Option<f64>,
    /// Whether the two differ significantly (`None`: no test applies).
    pub significant: Option<bool>,
    /// How it was tested.
    pub test: String,
    /// Shown as a percentage.
    #[serde(default)]
    pub percent: bool,
    /// A count, shown as a whole number (rungs of the ladder).
    #[serde(default)]
    pub count: bool,
}

/// The comparison with another variant's report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub answer: String,
    pub other: String,
    pub other_title: String,
    /// The evaluations each side's bots used, and whether they are of the
    /// same kind (both trained or both generic).
    pub evaluations: [String; 2],
    pub equal_footing: bool,
    pub rows: Vec<Row>,
}

fn strongest(r: &DesignerReport) -> Option<&LevelResult> {
    crate::balance::strongest(&r.fairness.balance)
}

/// A two-proportion z test.
fn proportions(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<bool> {
    if n1 == 0 || n2 == 0 {
        return None;
    }
    let (p1, p2) = (k1 as f64 / n1 as f64, k2 as f64 / n2 as f64);
    let p = (k1 + k2) as f64 / (n1 + n2) as f64;
    let se = (p * (1.0 - p) * (1.0 / n1 as f64 + 1.0 / n2 as f64)).sqrt();
    if se == 0.0 {
        return Some(p1 != p2);
    }
    Some(((p1 - p2) / se).abs() > Z95)
}

/// Mean, variance and count from histogram bins (mid-points).
fn spread(bins: impl Iterator<Item = (f64, u64)>) -> (f64, f64, u64) {
    let bins: Vec<(f64, u64)> = bins.collect();
    let n: u64 = bins.iter().map(|b| b.1).sum();
    if n == 0 {
        return (0.0, 0.0, 0);
    }
    let mean = bins.iter().map(|(x, c)| x * *c as f64).sum::<f64>() / n as f64;
    let var = bins
        .iter()
        .map(|(x, c)| (x - mean).powi(2) * *c as f64)
        .sum::<f64>()
        / (n.max(2) - 1) as f64;
    (mean, var, n)
}

fn of_distribution(d: &Distribution) -> (f64, f64, u64) {
    let (_, var, n) = spread(
        d.histogram
            .iter()
            .map(|&(from, to, c)| ((f64::from(from) + f64::from(to)) / 2.0, c)),
    );
    (d.mean, var, n)
}

fn of_bins(mean: f64, bins: &[Bin]) -> (f64, f64, u64) {
    let (_, var, n) = spread(
        bins.iter()
            .map(|b| ((f64::from(b.from) + f64::from(b.to)) / 2.0, b.count)),
    );
    (mean, var, n)
}

/// A z test on two means with their variances and counts.
fn means(a: (f64, f64, u64), b: (f64, f64, u64)) -> Option<bool> {
    if a.2 < 2 || b.2 < 2 {
        return None;
    }
    let se = (a.1 / a.2 as f64 + b.1 / b.2 as f64).sqrt();
    if se == 0.0 {
        return Some(a.0 != b.0);
    }
    Some(((a.0 - b.0) / se).abs() > Z95)
}

/// `this` beside `other`.
pub fn compare(this: &DesignerReport, other: &DesignerReport) -> Comparison {
    let mut rows = Vec::new();
    let (sa, sb) = (strongest(this), strongest(other));
    if let (Some(a), Some(b)) = (sa, sb) {
        let (fa, fb) = (
            &a.report.first_player_advantage,
            &b.report.first_player_advantage,
        );
        rows.push(Row {
            figure: format!(
                "first player wins, strongest level ({} / {})",
                a.level, b.level
            ),
            this: Some(fa.rate),
            other: Some(fb.rate),
            significant: proportions(fa.wins, a.report.games, fb.wins, b.report.games),
            test: "two-proportion z test".into(),
            percent: true,
            count: false,
        });
        rows.push(Row {
            figure: "draws, strongest level".into(),
            this: Some(a.report.draws.rate),
            other: Some(b.report.draws.rate),
            significant: proportions(
                a.report.draws.count,
                a.report.games,
                b.report.draws.count,
                b.report.games,
            ),
            test: "two-proportion z test".into(),
            percent: true,
            count: false,
        });
        rows.push(Row {
            figure: "mean length, strongest level (plies)".into(),
            this: Some(a.report.length.mean),
            other: Some(b.report.length.mean),
            significant: means(
                of_bins(a.report.length.mean, &a.report.length.histogram),
                of_bins(b.report.length.mean, &b.report.length.histogram),
            ),
            test: "z test on means (spread from the histogram)".into(),
            percent: false,
            count: false,
        });
    }
    let (pa, pb) = (&this.speed.playouts, &other.speed.playouts);
    rows.push(Row {
        figure: "moves a position, random games".into(),
        this: Some(pa.branching.mean),
        other: Some(pb.branching.mean),
        significant: means(
            of_distribution(&pa.branching),
            of_distribution(&pb.branching),
        ),
        test: "z test on means (spread from the histogram)".into(),
        percent: false,
        count: false,
    });
    rows.push(Row {
        figure: "mean length, random games (plies)".into(),
        this: Some(pa.length.mean),
        other: Some(pb.length.mean),
        significant: means(of_distribution(&pa.length), of_distribution(&pb.length)),
        test: "z test on means (spread from the histogram)".into(),
        percent: false,
        count: false,
    });
    for (figure, a, b) in [
        ("game tree, log10", pa.game_tree_log10, pb.game_tree_log10),
        (
            "state space, log10",
            pa.state_space_log10,
            pb.state_space_log10,
        ),
    ] {
        rows.push(Row {
            figure: figure.into(),
            this: Some(a),
            other: Some(b),
            significant: None,
            test: "an estimate: not tested".into(),
            percent: false,
            count: false,
        });
    }
    let rungs = |r: &DesignerReport| r.ladder.as_ref().map(|l| l.ladder.rungs.len() as f64);
    let per = |r: &DesignerReport| r.ladder.as_ref().and_then(|l| l.ladder.elo_per_doubling);
    rows.push(Row {
        figure: "rungs of the skill ladder".into(),
        this: rungs(this),
        other: rungs(other),
        significant: None,
        test: "a count: not tested (each rung is itself a test)".into(),
        percent: false,
        count: true,
    });
    rows.push(Row {
        figure: "Elo a doubling".into(),
        this: per(this),
        other: per(other),
        significant: None,
        test: "not tested".into(),
        percent: false,
        count: false,
    });
    if let (Some(a), Some(b)) = (&this.tactics, &other.tactics) {
        let share = |t: &super::TacticsSection| {
            (t.decisive > 0).then(|| t.missed as f64 / t.decisive as f64)
        };
        rows.push(Row {
            figure: "decisive games where the loser missed a forced win".into(),
            this: share(a),
            other: share(b),
            significant: proportions(a.missed, a.decisive, b.missed, b.decisive),
            test: "two-proportion z test".into(),
            percent: true,
            count: false,
        });
    }
    let round = |x: f64| crate::numbers::round_to(x, 4);
    for r in &mut rows {
        r.this = r.this.map(round);
        r.other = r.other.map(round);
    }
    let differ: Vec<&str> = rows
        .iter()
        .filter(|r| r.significant == Some(true))
        .map(|r| r.figure.as_str())
        .collect();
    let generic = |r: &DesignerReport| r.rules.evaluation == "generic";
    let equal_footing = generic(this) == generic(other);
    let mut answer = if differ.is_empty() {
        format!(
            "Beside {}, no tested figure differs significantly.",
            other.rules.title
        )
    } else {
        format!(
            "Beside {}, {} differ significantly: {}.",
            other.rules.title,
            if differ.len() == 1 {
                "one figure".to_string()
            } else {
                format!("{} figures", differ.len())
            },
            differ.join("; ")
        )
    };
    if !equal_footing {
        answer += " Not on equal footing: one side's bots use a trained evaluation, the other's the generic features.";
    }
    Comparison {
        answer,
        other: other.rules.variant.name.clone(),
        other_title: other.rules.title.clone(),
        evaluations: [
            this.rules.evaluation.clone(),
            other.rules.evaluation.clone(),
        ],
        equal_footing,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proportions_differ_when_far_apart_for_their_counts() {
        assert_eq!(proportions(60, 100, 40, 100), Some(true));
        assert_eq!(proportions(52, 100, 48, 100), Some(false));
        assert_eq!(proportions(1, 0, 1, 2), None);
    }

    #[test]
    fn means_differ_when_far_apart_for_their_spread() {
        assert_eq!(means((10.0, 4.0, 100), (11.0, 4.0, 100)), Some(true));
        assert_eq!(means((10.0, 400.0, 100), (11.0, 400.0, 100)), Some(false));
        let (m, v, n) = spread([(1.0, 1), (3.0, 1)].into_iter());
        assert_eq!((m, v, n), (2.0, 2.0, 2));
    }
}
