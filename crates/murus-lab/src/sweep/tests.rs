//! The sweep's tests: the ranking's rules, the combinations, and small
//! sweeps played, kept, resumed, sharded and merged.

use std::collections::BTreeMap;

use murus_engine::Variant;

use super::*;
use crate::balance::{self, BalanceConfig, Stopping, parse_levels};
use crate::folder::{Mode, Partial};
use crate::record::{Provenance, VariantId};
use crate::report::{BalanceReport, LevelResult, Rate, build};
use crate::stats::wilson;

/// A level's results, from the figures the ranking reads: `first` of
/// `games` won by the first player, `drawn` drawn by the rules,
/// `capped` stopped by the ply cap, a median and mean length, and the
/// endings.
struct Figures {
    first: u64,
    games: u64,
    drawn: u64,
    capped: u64,
    median: u32,
    mean: f64,
    endings: &'static [(&'static str, u64)],
}

fn fair(first: u64, games: u64) -> Figures {
    Figures {
        first,
        games,
        drawn: 0,
        capped: 0,
        median: 30,
        mean: 30.0,
        endings: &[],
    }
}

fn rate(count: u64, n: u64) -> Rate {
    let (lo, hi) = wilson(count, n);
    Rate {
        count,
        rate: count as f64 / n as f64,
        ci95: [lo, hi],
    }
}

fn level(name: &str, f: &Figures) -> LevelResult {
    let prov = Provenance {
        variant: VariantId {
            name: "test".into(),
            source_sha256: String::new(),
            rules_key: None,
        },
        engine_version: String::new(),
        bots: vec![name.into(), name.into()],
        evaluations: Vec::new(),
        seed: 1,
        requested: f.games,
        max_plies: 300,
        openings: 0,
        book: None,
        shard: None,
        players: vec!['r', 'g'],
    };
    // Built from no games, then given the figures by hand: the ranking
    // reads only these.
    let mut r = build(&prov, &[]);
    r.games = f.games;
    let first = rate(f.first, f.games);
    r.first_player_advantage.wins = f.first;
    r.first_player_advantage.rate = first.rate;
    r.first_player_advantage.ci95 = first.ci95;
    r.first_player_advantage.fair = 0.5;
    r.first_player_advantage.advantage = first.rate - 0.5;
    r.draws = rate(f.drawn + f.capped, f.games);
    r.ply_cap = rate(f.capped, f.games);
    r.end_reasons = f.endings.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    r.length.median = f.median;
    r.length.mean = f.mean;
    LevelResult {
        level: name.into(),
        bot: name.into(),
        stopped: crate::balance::StopReason::Games,
        report: r,
    }
}

fn check(levels: Vec<LevelResult>) -> BalanceReport {
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
        stopping: "games 100".into(),
        shard: None,
        pie_rule: false,
        levels,
        skill: Vec::new(),
        verdict: Vec::new(),
        interrupted: false,
        missing_shards: Vec::new(),
    }
}

#[test]
fn a_fair_game_of_ideal_length_is_playable_at_full_fitness() {
    let a = assess(&check(vec![
        level("random", &fair(250, 500)),
        level("easy", &fair(250, 500)),
    ]));
    assert_eq!(a.tier, Tier::Playable);
    assert_eq!(a.fitness, FULL_FITNESS);
    assert!(a.flags.is_empty(), "{:?}", a.flags);
}

#[test]
fn fitness_loses_a_point_per_point_of_edge_and_per_ten_plies_outside_the_band() {
    // 53% at random (no significant edge in 100 games), 130 plies on
    // average at easy: 30 plies above the band.
    let long = Figures {
        mean: 130.0,
        median: 128,
        ..fair(50, 100)
    };
    let a = assess(&check(vec![
        level("random", &fair(53, 100)),
        level("easy", &long),
    ]));
    assert_eq!(a.tier, Tier::Playable);
    assert!((a.edge - 3.0).abs() < 1e-9, "{}", a.edge);
    assert!((a.plies_outside - 30.0).abs() < 1e-9);
    assert!(
        (a.fitness - (100.0 - 3.0 - 3.0)).abs() < 1e-9,
        "{}",
        a.fitness
    );
    // Short games count below the band alike.
    let short = Figures {
        mean: 15.0,
        median: 14,
        ..fair(50, 100)
    };
    let a = assess(&check(vec![level("random", &short)]));
    assert!((a.plies_outside - 5.0).abs() < 1e-9);
}

#[test]
fn the_metrics_give_the_band_and_the_drawishness_where_a_report_has_them() {
    let mut l = level("random", &fair(50, 100));
    l.report.metrics.games = 100;
    l.report.metrics.duration.ideal = Some([40.0, 60.0]);
    // The figures by hand say no draws; the metrics say 60%.
    l.report.metrics.drawishness = 0.6;
    let a = assess(&check(vec![l.clone()]));
    assert!((a.plies_outside - 10.0).abs() < 1e-9, "{}", a.plies_outside);
    assert_eq!(a.tier, Tier::Broken);
    assert_eq!(a.flags, ["At random, 60.0% of games are drawn."]);
    // Without them (a report of an older file), the fixed band.
    l.report.metrics.games = 0;
    let a = assess(&check(vec![l]));
    assert_eq!(a.plies_outside, 0.0);
    assert_eq!(a.tier, Tier::Playable);
}

#[test]
fn an_edge_at_any_level_makes_a_combination_unbalanced() {
    let a = assess(&check(vec![
        level("random", &fair(250, 500)),
        level("hard", &fair(330, 500)),
    ]));
    assert_eq!(a.tier, Tier::Unbalanced);
    assert_eq!(
        a.flags,
        ["At hard, the first player wins 66.0% [61.7, 70.0]; fair is 50.0%."]
    );
    assert!((a.edge - 16.0).abs() < 1e-9);
    // A handicap counts as well as an advantage.
    let a = assess(&check(vec![level("random", &fair(170, 500))]));
    assert_eq!(a.tier, Tier::Unbalanced);
}

#[test]
fn draws_the_ply_cap_and_one_dominant_ending_break_a_combination() {
    let drawish = Figures {
        drawn: 60,
        ..fair(20, 100)
    };
    let a = assess(&check(vec![level("random", &drawish)]));
    assert_eq!(a.tier, Tier::Broken);
    assert!(
        a.flags
            .contains(&"At random, 60.0% of games are drawn.".to_string())
    );
    let capped = Figures {
        capped: 11,
        ..fair(45, 100)
    };
    let a = assess(&check(vec![level("random", &capped)]));
    assert_eq!(a.tier, Tier::Broken);
    assert_eq!(
        a.flags,
        ["At random, 11.0% of games hit the ply cap of 300 plies."]
    );
    // 10% capped, 50% drawn: at the thresholds, not above them. (Half
    // the games drawn leaves the first player 25% where fair is 50%:
    // unbalanced, as the verdict says too.)
    let at_cap = Figures {
        capped: 10,
        ..fair(45, 100)
    };
    assert_eq!(
        assess(&check(vec![level("random", &at_cap)])).tier,
        Tier::Playable
    );
    let half_drawn = Figures {
        drawn: 50,
        ..fair(25, 100)
    };
    let a = assess(&check(vec![level("random", &half_drawn)]));
    assert_eq!(a.tier, Tier::Unbalanced, "{:?}", a.flags);
    assert!(
        !a.flags.iter().any(|f| f.contains("drawn")),
        "{:?}",
        a.flags
    );
    let stalemates = Figures {
        endings: &[("stalemate", 95), ("breakthrough-sow", 5)],
        ..fair(50, 100)
    };
    let a = assess(&check(vec![level("easy", &stalemates)]));
    assert_eq!(a.tier, Tier::Broken);
    assert_eq!(a.flags, ["At easy, 95.0% of games end by stalemate."]);
    // Not at random: random movers seldom aim for a breakthrough.
    let a = assess(&check(vec![level("random", &stalemates)]));
    assert_eq!(a.tier, Tier::Playable, "{:?}", a.flags);
    // Breakthroughs may dominate: that is how the game is won.
    let breakthroughs = Figures {
        endings: &[("breakthrough-sow", 100)],
        ..fair(50, 100)
    };
    assert_eq!(
        assess(&check(vec![level("random", &breakthroughs)])).tier,
        Tier::Playable
    );
}

#[test]
fn games_that_end_at_once_are_unplayable_whatever_else_is_wrong() {
    let instant = Figures {
        median: 3,
        mean: 3.5,
        drawn: 80,
        ..fair(20, 100)
    };
    let a = assess(&check(vec![
        level("random", &fair(330, 500)),
        level("easy", &instant),
    ]));
    assert_eq!(a.tier, Tier::Unplayable);
    assert_eq!(
        a.flags[1],
        "At easy, half the games last fewer than 4 plies (median 3): the game ends at once."
    );
    // Four plies is play (each player moved twice), but far too short a
    // game: the length band counts in the tier, not only in the fitness
    // (a 4-ply game ranked playable).
    let four = Figures {
        median: 4,
        mean: 4.0,
        ..fair(50, 100)
    };
    let a = assess(&check(vec![level("random", &four)]));
    assert_eq!(a.tier, Tier::Broken);
    assert_eq!(
        a.flags,
        ["At random, games last 4.0 plies on average, far below the ideal band of 20–100 plies."]
    );
    // So is a game far longer than the band: 201 plies against 100.
    let long = Figures {
        median: 201,
        mean: 201.0,
        ..fair(50, 100)
    };
    assert_eq!(
        assess(&check(vec![level("random", &long)])).tier,
        Tier::Broken
    );
    // Games that end within the random opening plies, or just after them,
    // were hardly played by the bots: with 6 opening plies, a median of 9
    // is fewer than 6 + 2 × 2.
    let mut opened = level(
        "random",
        &Figures {
            median: 9,
            mean: 10.0,
            ..fair(50, 100)
        },
    );
    opened.report.provenance.openings = 6;
    let a = assess(&check(vec![opened]));
    assert_eq!(a.tier, Tier::Unplayable);
    assert_eq!(
        a.flags[0],
        "At random, half the games last fewer than 10 plies (its 6 opening plies and two moves a player) (median 9): the game ends at once."
    );
    // A check without games ranks lowest.
    let none = assess(&check(Vec::new()));
    assert_eq!(none.tier, Tier::Unplayable);
}

#[test]
fn rows_rank_by_tier_then_fitness_then_number() {
    let row = |index: u64, figures: Figures| {
        row_of(
            index,
            BTreeMap::new(),
            check(vec![level("random", &figures)]),
        )
    };
    let mut rows = vec![
        // Unbalanced, short of nothing else.
        row(0, fair(330, 500)),
        // Playable but long: fitness 100 - 0 - 10.
        row(
            1,
            Figures {
                mean: 200.0,
                median: 190,
                ..fair(250, 500)
            },
        ),
        // Broken.
        row(
            2,
            Figures {
                drawn: 300,
                ..fair(100, 500)
            },
        ),
        // Playable, fitness 100.
        row(3, fair(250, 500)),
        // Unplayable.
        row(
            4,
            Figures {
                median: 0,
                mean: 0.0,
                ..fair(250, 500)
            },
        ),
        // Playable, fitness 100, a later number than 3.
        row(5, fair(250, 500)),
    ];
    rank(&mut rows);
    let order: Vec<(u64, u64, Tier)> = rows.iter().map(|r| (r.index, r.rank, r.tier)).collect();
    assert_eq!(
        order,
        [
            (3, 1, Tier::Playable),
            (5, 2, Tier::Playable),
            (1, 3, Tier::Playable),
            (0, 4, Tier::Unbalanced),
            (2, 5, Tier::Broken),
            (4, 6, Tier::Unplayable),
        ]
    );
    assert!(Tier::Unplayable < Tier::Broken && Tier::Broken < Tier::Unbalanced);
    assert!(Tier::Unbalanced < Tier::Playable);
}

#[test]
fn tier_names_are_their_json_names() {
    for t in [
        Tier::Unplayable,
        Tier::Broken,
        Tier::Unbalanced,
        Tier::Playable,
    ] {
        assert_eq!(serde_json::to_value(t).unwrap(), t.name());
    }
}

#[test]
fn values_parse_as_ranges_and_lists() {
    assert_eq!(parse_values("7..9"), Ok(vec![7, 8, 9]));
    assert_eq!(parse_values("6,8"), Ok(vec![6, 8]));
    assert_eq!(parse_values(" 7 "), Ok(vec![7]));
    assert_eq!(parse_values("8,6,8"), Ok(vec![8, 6]));
    assert!(parse_values("9..7").unwrap_err().contains("empty range"));
    assert!(
        parse_values("x")
            .unwrap_err()
            .contains("`x` is not a value")
    );
    assert!(
        parse_values("1,-2")
            .unwrap_err()
            .contains("`-2` is not a value")
    );
    assert!(
        parse_values("0..5000")
            .unwrap_err()
            .contains("more than 1000")
    );
}

/// The standard game with `param files = 7, 8` (and whatever `more`
/// adds), as the sweep tests use it.
fn two_sizes(more: &str) -> String {
    Variant::standard().source().replace(
        "board rect 8 x 7",
        &format!("param files = 7, 8\n{more}board rect $files x 7"),
    )
}

#[test]
fn the_space_is_the_declared_values_or_the_set_ones_and_bad_settings_point_into_the_file() {
    let source = two_sizes("param cap = 200, 300\n").replace("plies 300", "plies $cap");
    let s = space(&source, &[]).unwrap();
    assert_eq!(s.len(), 4);
    assert_eq!(
        s.combination(1),
        [("files".to_string(), 7), ("cap".to_string(), 300)]
    );
    assert_eq!(label(&s.combination(2)), "files=8,cap=200");
    let s = space(&source, &[("cap".into(), vec![300])]).unwrap();
    assert_eq!(s.params[1], ("cap".to_string(), vec![300]));
    assert_eq!(s.len(), 2);
    // An unknown parameter and a value not declared: the compiler's
    // diagnostics, at the declarations.
    let Err(SweepError::Source(d)) = space(&source, &[("file".into(), vec![7])]) else {
        panic!("an unknown parameter is an error");
    };
    assert_eq!(d[0].message, "no parameter `file` is declared");
    assert!(d[0].render("t.mg", &source).starts_with("t.mg:"));
    let Err(SweepError::Source(d)) = space(&source, &[("files".into(), vec![7, 9])]) else {
        panic!("a value not declared is an error");
    };
    assert_eq!(d[0].message, "parameter `files` cannot be 9");
    let twice = [("files".into(), vec![7]), ("files".into(), vec![8])];
    assert!(matches!(
        space(&source, &twice),
        Err(SweepError::Invalid(_))
    ));
    // A file without parameters is one combination.
    let one = space(Variant::standard().source(), &[]).unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(label(&one.combination(0)), "default");
}

fn config(shard: Option<(u64, u64)>) -> SweepConfig {
    SweepConfig {
        set: Vec::new(),
        balance: BalanceConfig {
            levels: parse_levels("random").unwrap(),
            stopping: Stopping::Games(6),
            openings: 0,
            seed: 5,
            threads: 2,
            shard: None,
            skill_games: 0,
            max_plies: None,
            book: None,
        },
        shard,
        train: None,
    }
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("murus-sweep-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_small_sweep_ranks_two_board_sizes_by_the_rule_and_keeps_its_files() {
    let source = two_sizes("");
    let c = config(None);
    let dir = temp("small");
    let r = run_sweep("two.mg", &source, &c, Some((&dir, Mode::New)), &()).unwrap();
    assert_eq!(r.spec.parameters, ["files"]);
    assert_eq!(r.spec.values, [vec![7, 8]]);
    assert_eq!(r.spec.combinations, 2);
    assert_eq!(r.spec.variant.name, "standard");
    assert!(r.skipped.is_empty() && !r.interrupted && r.missing().is_empty());
    assert_eq!(r.rows.len(), 2);
    // Each row is its combination's own balance check, assessed by the
    // rule, and the rows are in the rule's order.
    for row in &r.rows {
        let files = row.values["files"];
        let v = Variant::compile_with(&source, &[("files".into(), files as u32)]).unwrap();
        let alone = balance::run_balance(&v, &c.balance, None, &()).unwrap();
        assert_eq!(row.balance, alone, "files = {files}");
        assert_eq!(row.balance.levels[0].report.games, 6);
        let a = assess(&row.balance);
        assert_eq!(
            (row.tier, row.fitness, &row.flags),
            (a.tier, a.fitness, &a.flags)
        );
        assert_eq!(row.index, u64::from(files == 8));
    }
    assert_eq!(r.rows[0].rank, 1);
    assert_eq!(r.rows[1].rank, 2);
    let (best, next) = (&r.rows[0], &r.rows[1]);
    assert!(
        best.tier > next.tier
            || (best.tier == next.tier && best.fitness > next.fitness)
            || (best.tier == next.tier && best.fitness == next.fitness && best.index < next.index),
        "{:?} before {:?}",
        (best.tier, best.fitness),
        (next.tier, next.fitness)
    );
    // The files, and the check of each combination in its own folder.
    assert_eq!(read_sweep(&dir).unwrap(), r);
    let csv = std::fs::read_to_string(dir.join("sweep.csv")).unwrap();
    assert!(csv.starts_with("rank,tier,fitness,edge,plies_outside,files,random_games,"));
    assert_eq!(csv.lines().count(), 3);
    assert!(
        std::fs::read_to_string(dir.join("sweep.svg"))
            .unwrap()
            .contains("<svg")
    );
    assert!(dir.join("combos/files=7/balance.json").is_file());
    assert!(
        dir.join("combos/files=8/levels/random/games.jsonl")
            .is_file()
    );
    // Resumed, it plays nothing new and reports the same; started
    // again without --resume, it refuses the folder; resumed with other
    // options, it names the difference.
    let again = run_sweep("two.mg", &source, &c, Some((&dir, Mode::Resume)), &()).unwrap();
    assert_eq!(again, r);
    let e = run_sweep("two.mg", &source, &c, Some((&dir, Mode::New)), &())
        .unwrap_err()
        .to_string();
    assert!(e.contains("already holds a sweep"), "{e}");
    let mut other = config(None);
    other.balance.seed = 6;
    let e = run_sweep("two.mg", &source, &other, Some((&dir, Mode::Resume)), &())
        .unwrap_err()
        .to_string();
    assert!(e.contains("seed 5 there, 6 asked"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_interrupted_sweep_keeps_what_it_has_and_resumes_to_the_whole_sweep() {
    let source = two_sizes("");
    let c = config(None);
    let whole = run_sweep("two.mg", &source, &c, None, &()).unwrap();
    let dir = temp("interrupted");
    let stopped = std::sync::atomic::AtomicBool::new(true);
    let r = run_sweep("two.mg", &source, &c, Some((&dir, Mode::New)), &stopped).unwrap();
    assert!(r.interrupted);
    assert!(r.rows.is_empty());
    assert_eq!(r.missing(), [0, 1]);
    assert_eq!(read_sweep(&dir).unwrap(), r);
    let resumed = run_sweep("two.mg", &source, &c, Some((&dir, Mode::Resume)), &()).unwrap();
    assert_eq!(resumed, whole);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn combinations_that_do_not_compile_are_skipped_with_their_diagnostic_and_the_rest_run() {
    // `home rank 7` and the Gauls' setup need 7 ranks: 6 fails.
    let source = two_sizes("param ranks = 6, 7\n")
        .replace("board rect $files x 7", "board rect $files x $ranks");
    let mut c = config(None);
    c.set = vec![("files".into(), vec![8])];
    let r = run_sweep("ranks.mg", &source, &c, None, &()).unwrap();
    assert_eq!(r.spec.combinations, 2);
    assert_eq!(r.rows.len(), 1);
    assert_eq!(r.rows[0].values["ranks"], 7);
    assert_eq!(r.skipped.len(), 1);
    let s = &r.skipped[0];
    assert_eq!(s.values["ranks"], 6);
    assert_eq!(s.index, 0);
    assert!(
        s.error.starts_with("ranks.mg:")
            && s.error.contains(": error: rank 7 is not on this board"),
        "{}",
        s.error
    );
    assert!(
        s.diagnostics.contains("parameters in force"),
        "{}",
        s.diagnostics
    );
    let csv = to_csv(&r);
    assert!(
        csv.lines().nth(2).unwrap().starts_with(",unplayable,"),
        "{csv}"
    );
}

#[test]
fn the_shipped_size_sweep_compiles_everywhere_and_is_the_standard_game_at_8_by_7() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../variants/sweeps/standard-sizes.mg"
    );
    let source = std::fs::read_to_string(path).unwrap();
    let s = space(&source, &[]).unwrap();
    assert_eq!(
        s.params,
        [
            ("files".to_string(), vec![7, 8, 9]),
            ("ranks".to_string(), vec![6, 7, 8, 9])
        ]
    );
    for i in 0..s.len() {
        let settings = s.combination(i);
        let v = Variant::compile_with(&source, &settings)
            .unwrap_or_else(|d| panic!("{}: {d:?}", label(&settings)));
        let (files, ranks) = (settings[0].1, settings[1].1);
        let g = &v.rules().geometry;
        assert_eq!((g.width(), g.height()), (files as usize, ranks as usize));
        // Each side's towers fill its home rank.
        assert_eq!(
            v.rules().setup.len() as u32,
            2 * files,
            "{}",
            label(&settings)
        );
    }
    // The default combination is the standard game but for its names.
    let default = Variant::compile(&source).unwrap();
    let mut rules = default.rules().clone();
    let standard = Variant::standard();
    rules.name = standard.rules().name.clone();
    rules.title = standard.rules().title.clone();
    assert_eq!(&rules, standard.rules());
}

#[test]
fn the_heat_map_thins_its_labels_so_that_they_never_overlap() {
    let space = Space {
        params: vec![
            ("files".into(), (100..=199).collect()),
            ("ranks".into(), (1..=60).collect()),
        ],
    };
    let report = SweepReport {
        spec: spec_of("t.mg", "", &space, &config(None).balance, None),
        rows: Vec::new(),
        skipped: Vec::new(),
        interrupted: false,
        missing_shards: Vec::new(),
    };
    let svg = crate::write::svg::sweep_svg(&report);
    // `<text x="X" y="Y" …>\nBODY\n</text>` for every number drawn.
    let mut labels: Vec<(f64, f64, u32)> = Vec::new();
    for part in svg.split("<text ").skip(1) {
        let Some((tag, rest)) = part.split_once('>') else {
            continue;
        };
        let tag = format!(" {tag}");
        let attr = |name: &str| -> Option<f64> {
            let value = tag.split(&format!("{name}=\"")).nth(1)?;
            value[..value.find('"')?].parse().ok()
        };
        let body = rest.split('<').next().unwrap_or("").trim();
        if let (Some(x), Some(y), Ok(n)) = (attr(" x"), attr(" y"), body.parse::<u32>()) {
            labels.push((x, y, n));
        }
    }
    let files: Vec<(f64, u32)> = labels
        .iter()
        .filter(|l| l.2 >= 100)
        .map(|l| (l.0, l.2))
        .collect();
    let ranks: Vec<(f64, u32)> = labels
        .iter()
        .filter(|l| l.2 < 100)
        .map(|l| (l.1, l.2))
        .collect();
    assert!(
        files.len() >= 5 && files.len() < 100,
        "{} file labels",
        files.len()
    );
    assert!(
        ranks.len() >= 5 && ranks.len() < 60,
        "{} rank labels",
        ranks.len()
    );
    let gaps = |mut at: Vec<(f64, u32)>| {
        at.sort_by(|a, b| a.0.total_cmp(&b.0));
        at.windows(2)
            .map(|w| w[1].0 - w[0].0)
            .fold(f64::INFINITY, f64::min)
    };
    // Three digits at 10 pixels are at most 18 pixels wide; a line of
    // text is 10 high.
    assert!(gaps(files.clone()) > 18.0, "{files:?}");
    assert!(gaps(ranks) > 10.0);
}

#[test]
fn shards_merge_into_the_unsharded_sweep_and_other_sweeps_are_refused() {
    let source = two_sizes("param cap = 200, 300\n").replace("plies 300", "plies $cap");
    let whole = run_sweep("s.mg", &source, &config(None), None, &()).unwrap();
    assert_eq!(whole.rows.len(), 4);
    let dirs = [temp("shard1"), temp("shard2"), temp("shard3")];
    for (k, d) in dirs[..2].iter().enumerate() {
        let c = config(Some((k as u64 + 1, 2)));
        let part = run_sweep("s.mg", &source, &c, Some((d, Mode::New)), &()).unwrap();
        assert_eq!(part.rows.len(), 2);
        assert_eq!(part.missing().len(), 2);
    }
    let merged_dir = temp("merged");
    let refs = [dirs[0].as_path(), dirs[1].as_path()];
    let merged = merge_sweeps(&refs, Some(&merged_dir), Partial::Refuse).unwrap();
    assert_eq!(merged, whole);
    assert_eq!(read_sweep(&merged_dir).unwrap(), whole);
    // One shard alone: refused, or if asked for, half the table with the
    // rest named missing.
    let e = merge_sweeps(&refs[..1], None, Partial::Refuse).unwrap_err();
    assert_eq!(e.to_string(), "shard 2/2 is missing");
    let half = merge_sweeps(&refs[..1], None, Partial::Allow).unwrap();
    assert_eq!(half.missing(), [1, 3]);
    assert_eq!(half.missing_shards, ["2/2"]);
    // The same shard twice, or a shard of another sweep, is refused.
    let e = merge_sweeps(&[refs[0], refs[0]], None, Partial::Refuse)
        .unwrap_err()
        .to_string();
    assert!(e.contains("shard 1/2 is given twice"), "{e}");
    let mut other = config(Some((2, 2)));
    other.balance.openings = 2;
    run_sweep("s.mg", &source, &other, Some((&dirs[2], Mode::New)), &()).unwrap();
    let e = merge_sweeps(&[refs[0], &dirs[2]], None, Partial::Refuse)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a shard of the same sweep"), "{e}");
    assert!(e.contains("openings 0 there, 2 here"), "{e}");
    for d in dirs.iter().chain([&merged_dir]) {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn train_gives_each_combination_an_evaluation_first_kept_for_a_resume() {
    let source = include_str!("../../../../variants/sweeps/standard-small.mg")
        .replace("variant \"standard-small\"", "variant \"sweep-trained\"");
    let mut config = config(None);
    config.set = vec![
        ("files".to_string(), vec![3, 4]),
        ("ranks".to_string(), vec![4]),
    ];
    config.train = Some(1_000);
    let dir = temp("train");
    let report = run_sweep("small.mg", &source, &config, Some((&dir, Mode::New)), &()).unwrap();
    assert_eq!(report.spec.train, Some(1_000));
    assert_eq!(report.rows.len(), 2);
    for row in &report.rows {
        let name = row
            .values
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",");
        let train = dir.join("combos").join(&name).join("train");
        assert!(
            train.join("trained.eval").is_file() != train.join("none-kept").is_file(),
            "{}: one outcome kept",
            train.display()
        );
    }
    // The same sweep resumed: the same rows; without --train: refused.
    let again = run_sweep(
        "small.mg",
        &source,
        &config,
        Some((&dir, Mode::Resume)),
        &(),
    )
    .unwrap();
    assert_eq!(again.rows, report.rows);
    let untrained = SweepConfig {
        train: None,
        ..config
    };
    let e = run_sweep(
        "small.mg",
        &source,
        &untrained,
        Some((&dir, Mode::Resume)),
        &(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("train"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
