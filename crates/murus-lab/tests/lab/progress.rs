//! Every long job of the lab takes one handler
//! ([`murus_engine::job::Handler`]): it hears the job's progress, a plain
//! value per job, and stops the job when it says so, the finished work
//! kept.

use std::sync::Mutex;

use murus_ai::BotSpec;
use murus_engine::Variant;
use murus_engine::job::{Cancel, HandlerExt};
use murus_lab::balance::{
    BalanceConfig, CheckProgress, Stage, Stopping, parse_levels, run_balance,
};
use murus_lab::sweep::{SweepConfig, SweepProgress, run_sweep};
use murus_lab::train::{FitSettings, TrainOptions, TrainProgress, train};
use murus_lab::{Config, MatchConfig, Mode, RunProgress, run_match};

use crate::util::temp;

fn check(levels: &str, games: u64, skill_games: u64) -> BalanceConfig {
    BalanceConfig {
        levels: parse_levels(levels).unwrap(),
        stopping: Stopping::Games(games),
        openings: 2,
        seed: 1,
        threads: 2,
        shard: None,
        skill_games,
        max_plies: None,
        book: None,
    }
}

#[test]
fn a_balance_check_tells_each_stage_and_stops_when_its_handler_says_so() {
    let v = Variant::standard();
    let heard = Mutex::new(Vec::new());
    let handler = ().on_progress(|p: &CheckProgress| heard.lock().unwrap().push(p.clone()));
    let report = run_balance(&v, &check("random,easy", 8, 4), None, &handler).unwrap();
    assert!(!report.interrupted);
    let heard = heard.into_inner().unwrap();
    assert_eq!(
        heard[0].stage,
        Stage::Level {
            level: "random".into(),
            index: 0,
            of: 2
        },
        "a stage is told as it starts"
    );
    let stages: Vec<String> = heard.iter().map(|p| p.stage.to_string()).collect();
    let mut distinct = stages.clone();
    distinct.dedup();
    assert_eq!(
        distinct,
        [
            "level 1/2: random",
            "level 2/2: easy",
            "skill: easy vs random"
        ]
    );
    assert!(heard.iter().all(|p| p.done <= p.total), "{heard:?}");
    let last = |stage: &str| {
        heard
            .iter()
            .rfind(|p| p.stage.to_string() == stage)
            .unwrap()
    };
    assert_eq!(
        (
            last("level 1/2: random").done,
            last("level 1/2: random").total
        ),
        (8, 8)
    );
    assert_eq!(last("skill: easy vs random").done, 4);
    // Stopped while its first level plays: the games so far are kept, the
    // rest is not played.
    let cancel = Cancel::new();
    let handler = cancel.clone().on_progress(|p: &CheckProgress| {
        if p.done >= 40 {
            cancel.cancel();
        }
    });
    let cut = run_balance(&v, &check("random,easy", 4000, 4), None, &handler).unwrap();
    assert!(cut.interrupted);
    assert_eq!(cut.levels.len(), 1);
    let played = cut.levels[0].report.games;
    assert!((40..4000).contains(&played), "{played}");
    assert!(cut.skill.is_empty());
}

#[test]
fn a_sweep_tells_each_combination_and_where_its_check_stands() {
    let source = Variant::standard().source().replace(
        "board rect 8 x 7",
        "param files = 7, 8\nboard rect $files x 7",
    );
    let config = SweepConfig {
        set: Vec::new(),
        balance: check("random", 4, 0),
        shard: None,
        train: None,
    };
    let heard = Mutex::new(Vec::new());
    let handler = ().on_progress(|p: &SweepProgress| heard.lock().unwrap().push(p.clone()));
    let report = run_sweep("files.mg", &source, &config, None, &handler).unwrap();
    assert_eq!(report.rows.len(), 2);
    let heard = heard.into_inner().unwrap();
    let starts: Vec<(String, u64, u64)> = heard
        .iter()
        .filter(|p| p.check.is_none())
        .map(|p| {
            (
                p.combination.label.clone(),
                p.combination.done,
                p.combination.of,
            )
        })
        .collect();
    assert_eq!(
        starts,
        [("files=7".to_string(), 0, 2), ("files=8".to_string(), 1, 2)]
    );
    let checked = heard
        .iter()
        .filter_map(|p| p.check.as_ref())
        .next_back()
        .unwrap();
    assert_eq!((checked.done, checked.total), (4, 4));
    // Stopped before it starts: nothing is played, the sweep says so.
    let stopped = run_sweep(
        "files.mg",
        &source,
        &config,
        None,
        &Cancel::from_flag(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
            true,
        ))),
    )
    .unwrap();
    assert!(stopped.interrupted && stopped.rows.is_empty());
}

#[test]
fn a_match_tells_its_games_and_a_stop_marks_it_interrupted() {
    let v = Variant::standard();
    let m = MatchConfig {
        a: BotSpec::Greedy,
        b: BotSpec::Random,
        games: 400,
        seed: 2,
        threads: 2,
        sprt: None,
        openings: 0,
        book: None,
        shard: None,
    };
    let cancel = Cancel::new();
    let handler = cancel.clone().on_progress(|p: &RunProgress| {
        assert_eq!(p.total, 400);
        if p.done >= 20 {
            cancel.cancel();
        }
    });
    let (result, report) = run_match(&v, &m, &handler, None).unwrap();
    assert!(report.interrupted);
    assert!(result.games >= 20 && result.games < 400, "{}", result.games);
    let whole = Config::new(&v, vec![BotSpec::Greedy, BotSpec::Random], 400, 2);
    assert_eq!(report.provenance.requested, whole.games);
}

#[test]
fn training_tells_its_steps_in_order_and_a_stop_keeps_the_data() {
    let v = Variant::standard();
    let options = TrainOptions {
        positions: 60,
        deadline: None,
        threads: 1,
        seed: 3,
        bot: BotSpec::AlphaBeta {
            nodes: 60,
            eval: None,
        },
        fit: FitSettings {
            hidden: 4,
            epochs: 2,
            ..FitSettings::default()
        },
        validate: None,
    };
    let dir = temp!("train");
    let heard = Mutex::new(Vec::new());
    let handler = ().on_progress(|p: &TrainProgress| heard.lock().unwrap().push(p.clone()));
    let outcome = train(&v, &options, &dir, Mode::New, &handler)
        .unwrap()
        .expect("not stopped");
    assert!(outcome.kept.is_some());
    let heard = heard.into_inner().unwrap();
    let step = |p: &TrainProgress| match p {
        TrainProgress::Data { .. } => "data",
        TrainProgress::Fit { .. } => "fit",
        TrainProgress::Validate { .. } => "validate",
    };
    let mut steps: Vec<&str> = heard.iter().map(step).collect();
    steps.dedup();
    assert_eq!(steps, ["data", "fit"]);
    let epochs: Vec<usize> = heard
        .iter()
        .filter_map(|p| match p {
            TrainProgress::Fit { epoch, of } => {
                assert_eq!(*of, 2);
                Some(*epoch)
            }
            _ => None,
        })
        .collect();
    assert_eq!(epochs, [1, 2, 1, 2], "the network, then the correction");
    assert!(matches!(
        heard.iter().rfind(|p| step(p) == "data"),
        Some(TrainProgress::Data { positions, of: 60, .. }) if *positions >= 60
    ));
    // Stopped during the data: nothing fitted, the games kept for a resume.
    let more = TrainOptions {
        positions: 100_000,
        ..options.clone()
    };
    let cancel = Cancel::new();
    let handler = cancel.clone().on_progress(|p: &TrainProgress| {
        if matches!(p, TrainProgress::Data { games, .. } if *games >= 1) {
            cancel.cancel();
        }
    });
    let stopped = train(&v, &more, &dir, Mode::Resume, &handler).unwrap();
    assert!(stopped.is_none());
    let found = murus_lab::train::DataDir::inspect(&dir).unwrap().unwrap();
    assert!(found.games >= 2, "{found:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_search_under_way_stops_when_its_run_is_stopped() {
    use std::time::{Duration, Instant};
    let v = Variant::standard();
    // Searches far too long to finish: only the stop ends them.
    let bot = BotSpec::AlphaBeta {
        nodes: 2_000_000_000,
        eval: None,
    };
    let config = Config::new(&v, vec![bot], 2, 1).with_threads(1);
    let cancel = Cancel::new();
    let started = Instant::now();
    let games = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            cancel.cancel();
        });
        murus_lab::run(&v, &config, &cancel).unwrap()
    });
    assert!(games.is_empty(), "no game finished");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the search heard the stop: {:?}",
        started.elapsed()
    );
}
