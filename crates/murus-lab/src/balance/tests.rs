//! The balance check's tests: the verdict's rules, the stopping rule, the
//! levels, the table, and a check played, kept and resumed.

use murus_engine::{Reason, Variant};

use super::*;
use crate::folder::Mode;
use crate::record::{GameStats, Provenance, VariantId};
use crate::report::build;

/// A level of `first` first-player wins, `second` second-player wins
/// (both by breakthrough), `drawn` repetition draws and `capped`
/// ply-cap stops.
fn level(name: &str, first: u64, second: u64, drawn: u64, capped: u64) -> LevelResult {
    let mut games = Vec::new();
    let mut push = |winner: Option<char>, reason: Reason| {
        games.push(GameStats {
            index: games.len() as u64,
            winner,
            winner_seat: winner.map(|c| usize::from(c == 'g')),
            reason,
            plies: 40,
            branching_sum: 400,
            branching_max: 20,
            forced: 0,
            lead_changes: 0,
            leader_at_three_quarters: None,
            metrics: None,
        });
    };
    (0..first).for_each(|_| push(Some('r'), Reason::BreakthroughSow));
    (0..second).for_each(|_| push(Some('g'), Reason::BreakthroughSow));
    (0..drawn).for_each(|_| push(None, Reason::Repetition));
    (0..capped).for_each(|_| push(None, Reason::PlyCap));
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
        requested: games.len() as u64,
        max_plies: 300,
        openings: 0,
        book: None,
        shard: None,
        players: vec!['r', 'g'],
    };
    LevelResult {
        level: name.into(),
        bot: name.into(),
        stopped: StopReason::Games,
        report: build(&prov, &games),
    }
}

fn report(levels: Vec<LevelResult>, skill: Vec<SkillGap>, pie_rule: bool) -> BalanceReport {
    BalanceReport {
        variant: VariantId {
            name: "test".into(),
            source_sha256: String::new(),
            rules_key: None,
        },
        engine_version: String::new(),
        seed: 1,
        openings: 0,
        book: None,
        stopping: "games".into(),
        shard: None,
        pie_rule,
        levels,
        skill,
        verdict: Vec::new(),
        interrupted: false,
        missing_shards: Vec::new(),
    }
}

fn gap(upper: &str, lower: &str, elo: f64, lo: f64, hi: f64) -> SkillGap {
    SkillGap {
        upper: upper.into(),
        lower: lower.into(),
        games: 100,
        score: 0.6,
        elo: Some(elo),
        elo_ci95: [Some(lo), Some(hi)],
    }
}

#[test]
fn an_edge_at_the_top_that_random_play_lacks_asks_for_the_pie_rule() {
    let r = report(
        vec![
            level("random", 447, 553, 0, 0),
            level("hard", 568, 432, 0, 0),
        ],
        vec![gap("hard", "random", 800.0, 600.0, 1100.0)],
        false,
    );
    let v = verdict(&r);
    assert_eq!(
        v,
        [
            "At hard, the first player wins 56.8% [53.7, 59.8]: a significant advantage.",
            "At random, the first player wins 44.7% [41.6, 47.8]: a significant disadvantage.",
            "Consider the pie rule.",
            "Skill matters at every step: hard over random +800 [+600, +1100] Elo.",
        ]
    );
    // Random play is no level of skill: it differs from the one searching
    // level, and fairness does not depend on skill for that.
    assert!(!v.iter().any(|s| s.contains("depends on skill")));
    // Two searching levels that disagree: it does.
    let disagree = report(
        vec![
            level("random", 447, 553, 0, 0),
            level("easy", 500, 500, 0, 0),
            level("hard", 568, 432, 0, 0),
        ],
        Vec::new(),
        false,
    );
    assert!(
        verdict(&disagree).contains(&"Fairness depends on skill.".to_string()),
        "{:?}",
        verdict(&disagree)
    );
    // Random play alone is no ground for a remedy.
    let random_only = report(vec![level("random", 447, 553, 0, 0)], Vec::new(), false);
    assert!(!verdict(&random_only).iter().any(|s| s.contains("pie")));
    // With the pie rule already there, no remedy is suggested.
    let r = report(r.levels.clone(), r.skill.clone(), true);
    assert!(!verdict(&r).iter().any(|s| s.contains("pie")));
}

#[test]
fn a_fair_game_at_every_level_says_so_and_nothing_more() {
    let r = report(
        vec![
            level("random", 250, 250, 0, 0),
            level("easy", 245, 255, 0, 0),
        ],
        Vec::new(),
        false,
    );
    assert_eq!(
        verdict(&r),
        [
            "At easy, the first player wins 49.0% [44.6, 53.4]: no significant edge.",
            "At random, the first player wins 50.0% [45.6, 54.4]: no significant edge.",
        ]
    );
}

#[test]
fn a_flat_skill_step_and_extremes_are_named() {
    let r = report(
        vec![
            level("medium", 100, 100, 0, 0),
            level("hard", 20, 20, 140, 20),
        ],
        vec![gap("hard", "medium", 20.0, -40.0, 80.0)],
        false,
    );
    let v = verdict(&r);
    assert!(
        v.contains(
            &"Hard adds no measurable strength over medium: +20 [-40, +80] Elo.".to_string()
        ),
        "{v:?}"
    );
    assert!(
        v.contains(
            &"Skill stops mattering above medium: the strongest levels play alike.".to_string()
        ),
        "{v:?}"
    );
    assert!(
        v.contains(&"At hard, 70.0% of games are drawn.".to_string()),
        "{v:?}"
    );
    // 10% capped is not above the threshold.
    assert!(!v.iter().any(|s| s.contains("ply cap")), "{v:?}");
    assert!(
        !v.iter()
            .any(|s| s.starts_with("At medium, ") && s.contains("drawn")),
        "{v:?}"
    );
}

#[test]
fn a_capped_level_and_a_dominant_ending_are_flagged() {
    let mut l = level("random", 10, 10, 0, 30);
    let v = verdict(&report(vec![l.clone()], Vec::new(), false));
    assert!(
        v.contains(
            &"At random, 60.0% of games hit the ply cap of 300 plies: the game may not finish."
                .to_string()
        ),
        "{v:?}"
    );
    // Stalemates by the dozen: 95 of 100 games.
    l.report.end_reasons = [
        ("stalemate".to_string(), 95),
        ("breakthrough-sow".to_string(), 5),
    ]
    .into_iter()
    .collect();
    l.report.games = 100;
    let v = verdict(&report(vec![l], Vec::new(), false));
    assert!(
        v.contains(&"At random, 95.0% of games end by stalemate.".to_string()),
        "{v:?}"
    );
}

#[test]
fn game_quality_extremes_are_named_per_level_after_the_other_rules() {
    // A 6x6 variant's random games: 12 plies where 40 to 120 would
    // be ideal, and the winner never behind.
    let mut random = level("random", 50, 50, 0, 0);
    let m = &mut random.report.metrics;
    m.duration.mean = 12.0;
    m.duration.ideal = Some([40.0, 120.0]);
    m.drama = Some(0.0);
    let easy = level("easy", 50, 50, 0, 0);
    let v = verdict(&report(vec![random, easy], Vec::new(), false));
    assert_eq!(
        v[2..],
        [
            "At random, games last 12.0 plies on average, far below the ideal band of 40–120 plies for their branching.",
            "At random, drama is 0.000: the eventual winner almost never trails, so games have no comebacks.",
        ]
    );
    assert!(
        v[..2].iter().all(|s| s.contains("the first player wins")),
        "{v:?}"
    );
    // Without figures (games recorded before the metrics), nothing is
    // judged.
    let plain = verdict(&report(
        vec![level("random", 50, 50, 0, 0)],
        Vec::new(),
        false,
    ));
    assert_eq!(plain.len(), 1, "{plain:?}");
}

#[test]
fn the_balance_table_ends_with_the_metrics_columns() {
    let mut l = level("random", 50, 50, 0, 0);
    l.report.metrics.drama = Some(0.125);
    let csv = to_csv(&report(
        vec![l, level("easy", 40, 60, 0, 0)],
        Vec::new(),
        false,
    ));
    let rows: Vec<csv::StringRecord> = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv.as_bytes())
        .records()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r.len() == rows[0].len()));
    let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    assert!(col("stopped") < col("metrics_completion"));
    assert_eq!(&rows[1][col("metrics_drama")], "0.125");
    assert_eq!(&rows[2][col("metrics_drama")], "", "no figure, no value");
    assert_eq!(&rows[1][col("metrics_completion")], "1");
}

#[test]
fn the_stopping_rule_stops_for_precision_or_a_clear_edge_and_not_before() {
    let s = Stopping::Precision {
        precision: 0.04,
        max_games: 5000,
    };
    // ±4 points at 50% needs about 600 games.
    assert_eq!(s.decided(295, 590, 0.5), None);
    assert_eq!(s.decided(305, 610, 0.5), Some(StopReason::Precision));
    // A clear edge stops early, but never before 100 games…
    assert_eq!(s.decided(90, 98, 0.5), None);
    assert_eq!(s.decided(80, 100, 0.5), Some(StopReason::ClearEdge));
    // …and only when the z = 3 interval excludes the fair rate: 60%
    // of 100 games is not enough (95% would have said it is).
    let (lo, _) = crate::stats::wilson(60, 100);
    assert!(lo > 0.5);
    assert_eq!(s.decided(60, 100, 0.5), None);
    assert_eq!(Stopping::Games(10).decided(10, 10, 0.5), None);
}

#[test]
fn levels_parse_in_order_and_unknown_ones_are_refused() {
    let l = parse_levels("hard,random").unwrap();
    assert_eq!(
        l.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(),
        ["random", "hard"]
    );
    let e = parse_levels("random,grandmaster").unwrap_err().to_string();
    assert_eq!(
        e,
        "unknown level `grandmaster`: expected some of random, easy, medium, hard, expert"
    );
    assert!(parse_levels("easy,easy").is_err());
}

#[test]
fn a_sequential_level_is_reproducible_and_resumes_to_the_same_games() {
    let v = Variant::standard();
    let config = BalanceConfig {
        levels: parse_levels("random").unwrap(),
        stopping: Stopping::Precision {
            precision: 0.1,
            max_games: 400,
        },
        openings: 2,
        seed: 3,
        threads: 2,
        shard: None,
        skill_games: 0,
        max_plies: None,
        book: None,
    };
    let one = run_balance(&v, &config, None, &()).unwrap();
    let single = BalanceConfig {
        threads: 1,
        ..config.clone()
    };
    let two = run_balance(&v, &single, None, &()).unwrap();
    assert_eq!(one, two, "threads change nothing");
    let l = &one.levels[0];
    assert_eq!(l.stopped, StopReason::Precision);
    // ±10 points needs about 96 games: stopped at the first round there.
    assert!((90..=100).contains(&l.report.games), "{}", l.report.games);
    // Kept on disk, and a second run in the same folder resumes to the
    // same report without playing anything.
    let dir = std::env::temp_dir().join(format!("murus-balance-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let kept = run_balance(&v, &config, Some((&dir, Mode::New)), &()).unwrap();
    assert_eq!(kept, one);
    let again = run_balance(&v, &config, Some((&dir, Mode::Resume)), &()).unwrap();
    assert_eq!(again, one);
    assert!(dir.join("balance.json").is_file());
    assert!(dir.join("levels/random/report.json").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}
