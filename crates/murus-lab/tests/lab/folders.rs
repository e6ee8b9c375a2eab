//! One protocol for every run the lab keeps in a folder: a self-play run, a
//! balance check, a sweep and training data each write their spec first,
//! refuse a folder that keeps a run already when asked to start, refuse a
//! run of other settings when asked to resume (naming each difference),
//! and merge only the shards of one run, each once.

use std::path::{Path, PathBuf};

use murus_ai::BotSpec;
use murus_engine::Variant;
use murus_lab::balance::{BalanceConfig, Stopping, merge_balance, parse_levels, run_balance};
use murus_lab::folder::{RunFolder, check_shards};
use murus_lab::train::{DataDir, DataSpec};
use murus_lab::{
    Config, LabError, Mode, Opened, Partial, Provenance, RunDir, RunSpec, Shard, merge, run,
    write_outputs,
};

use crate::util::temp;

fn check(seed: u64) -> BalanceConfig {
    BalanceConfig {
        levels: parse_levels("random").unwrap(),
        stopping: Stopping::Games(4),
        openings: 0,
        seed,
        threads: 1,
        shard: None,
        skill_games: 0,
        max_plies: None,
        book: None,
    }
}

#[test]
fn a_balance_check_keeps_its_spec_first_and_resumes_only_with_the_same_settings() {
    let v = Variant::standard();
    let dir = temp!("check");
    let first = run_balance(&v, &check(3), Some((&dir, Mode::New)), &()).unwrap();
    let spec = std::fs::read_to_string(dir.join("balance-run.json")).unwrap();
    assert!(spec.contains("\"seed\": 3"), "{spec}");
    assert!(spec.contains("\"random (random)\""), "{spec}");
    // Started again: refused, the folder left as it was.
    let before = std::fs::read(dir.join("balance.json")).unwrap();
    let e = run_balance(&v, &check(3), Some((&dir, Mode::New)), &()).unwrap_err();
    assert!(
        matches!(e, LabError::RunExists { what: "check", .. }),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("already holds a check (balance-run.json)"),
        "{e}"
    );
    // Resumed with other settings: refused before anything is played.
    let e = run_balance(&v, &check(4), Some((&dir, Mode::Resume)), &()).unwrap_err();
    assert!(
        e.to_string()
            .contains("holds a different check: seed 3 there, 4 asked"),
        "{e}"
    );
    assert_eq!(std::fs::read(dir.join("balance.json")).unwrap(), before);
    // Resumed as it was: nothing new, the same report.
    let again = run_balance(&v, &check(3), Some((&dir, Mode::Resume)), &()).unwrap();
    assert_eq!(again, first);
    assert_eq!(std::fs::read(dir.join("balance.json")).unwrap(), before);
    // A folder of a check written before the spec file (its levels, no
    // spec) is not overwritten by a new check.
    std::fs::remove_file(dir.join("balance-run.json")).unwrap();
    std::fs::remove_file(dir.join("balance.json")).unwrap();
    let e = run_balance(&v, &check(3), Some((&dir, Mode::New)), &()).unwrap_err();
    assert!(matches!(e, LabError::RunExists { .. }), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn training_data_starts_only_in_a_folder_without_data_and_resumes_only_its_own() {
    let v = Variant::standard();
    let bot = BotSpec::AlphaBeta {
        nodes: 100,
        eval: None,
    };
    let dir = temp!("train");
    let spec = DataSpec::new(&v, &bot, 7);
    drop(DataDir::open(&dir, &spec, Mode::New).unwrap());
    assert!(dir.join("train.json").is_file() && dir.join("data.jsonl").is_file());
    let e = DataDir::open(&dir, &spec, Mode::New).unwrap_err();
    assert!(
        e.to_string()
            .contains("already holds a training run (train.json)"),
        "{e}"
    );
    let other = DataSpec::new(&v, &bot, 8);
    let e = DataDir::open(&dir, &other, Mode::Resume).unwrap_err();
    assert!(
        e.to_string()
            .contains("holds a different training run: seed 7 there, 8 asked"),
        "{e}"
    );
    assert!(DataDir::open(&dir, &spec, Mode::Resume).is_ok());
    // A resume where there is no data yet starts it.
    let fresh = temp!("train-fresh");
    drop(DataDir::open(&fresh, &spec, Mode::Resume).unwrap());
    assert_eq!(
        RunFolder::<DataSpec>::read_spec(&fresh).unwrap(),
        Some(spec.clone())
    );
    // The bot is kept as its spec's text and read back as the bot; a
    // bot that does not read is refused naming the file and the text.
    let text = std::fs::read_to_string(fresh.join("train.json")).unwrap();
    assert!(text.contains("\"bot\": \"alphabeta:100\""), "{text}");
    std::fs::write(
        fresh.join("train.json"),
        text.replace("\"alphabeta:100\"", "\"alphabeat:100\""),
    )
    .unwrap();
    let e = DataDir::open(&fresh, &spec, Mode::Resume)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("train.json") && e.contains("`alphabeat:100`"),
        "{e}"
    );
    for d in [dir, fresh] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_run_folder_says_what_it_did_and_refuses_what_it_cannot() {
    let v = Variant::standard();
    let config = Config::new(&v, vec![BotSpec::Random], 4, 1);
    let dir = temp!("run");
    let (rd, games) = RunDir::open(&dir, &config.run_spec(), Mode::New).unwrap();
    assert!(games.is_empty() && rd.done().is_empty());
    drop(rd);
    let e = RunDir::open(&dir, &config.run_spec(), Mode::New).unwrap_err();
    assert!(matches!(e, LabError::RunExists { what: "run", ref file, .. } if file == "run.json"));
    let missing = temp!("run-missing");
    // A resume where there is no run yet starts it (one rule for every
    // run: a requeued job runs the same command again).
    assert!(RunFolder::<RunSpec>::is_fresh(&missing));
    let (rd, games) = RunDir::open(&missing, &config.run_spec(), Mode::Resume).unwrap();
    assert_eq!(rd.opened(), Opened::Started);
    assert!(games.is_empty() && missing.join("run.json").is_file());
    drop(rd);
    assert!(!RunFolder::<RunSpec>::is_fresh(&missing));
    let (rd, _) = RunDir::open(&missing, &config.run_spec(), Mode::Resume).unwrap();
    assert_eq!(rd.opened(), Opened::Resumed);
    for d in [dir, missing] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// Plays shard `k` of `n` of a small run into a folder of its outputs.
fn shard_folder(v: &Variant, seed: u64, shard: Option<(u64, u64)>, name: &str) -> PathBuf {
    let mut config = Config::new(v, vec![BotSpec::Random], 12, seed);
    if let Some((k, n)) = shard {
        config = config.with_shard(k, n).unwrap();
    }
    let games = run(v, &config, &()).unwrap();
    let stats = murus_lab::stats_of(&games);
    let dir = temp!(name);
    write_outputs(&dir, &config.report(&stats), &games).unwrap();
    dir
}

#[test]
fn only_the_shards_of_one_run_each_once_merge() {
    let v = Variant::standard();
    let one = shard_folder(&v, 5, Some((1, 2)), "shard-1");
    let two = shard_folder(&v, 5, Some((2, 2)), "shard-2");
    let whole = shard_folder(&v, 5, None, "whole");
    let other = shard_folder(&v, 6, Some((2, 2)), "other");
    let third = shard_folder(&v, 5, Some((1, 3)), "third");
    let (merged, games) = merge(&[&one, &two], Partial::Refuse).unwrap();
    assert_eq!(games.len(), 12);
    assert_eq!(merged.provenance.shard, None);
    assert!(merged.missing_shards.is_empty() && !merged.interrupted);
    let err = |dirs: &[&Path]| merge(dirs, Partial::Refuse).unwrap_err().to_string();
    let e = err(&[&two]);
    assert_eq!(e, "shard 1/2 is missing");
    let (half, games) = merge(&[&two], Partial::Allow).unwrap();
    assert_eq!(
        (games.len(), half.missing_shards.clone()),
        (6, vec!["1/2".to_string()])
    );
    let e = err(&[&one, &one.join("nothere")]);
    assert!(e.ends_with("nothere`: no such folder"), "{e}");
    let e = err(&[&one, one.parent().unwrap()]);
    assert!(
        e.contains(": no report.json: not the --out folder of a run's shard"),
        "{e}"
    );
    let e = err(&[&one, &one]);
    assert!(e.contains("shard 1/2 is given twice"), "{e}");
    let e = err(&[&one, &whole]);
    assert!(
        e.contains("not a shard (that run ran without --shard)"),
        "{e}"
    );
    let e = err(&[&one, &other]);
    assert!(
        e.contains("is not a shard of the same run as") && e.contains("seed 5 there, 6 here"),
        "{e}"
    );
    let e = err(&[&one, &third]);
    assert!(e.contains("shards of different splits do not merge"), "{e}");
    assert!(err(&[]).contains("nothing to merge"));
    // The set of shards found: what a merge with shards missing lacks.
    let provenance = |d: &Path| murus_lab::read_outputs(d).unwrap().0;
    let set = check_shards::<Provenance>(&[&two], &[provenance(&two)]).unwrap();
    assert_eq!((set.n, set.missing()), (2, vec![1]));
    assert_eq!("2/2".parse(), Ok(Shard { k: 2, n: 2 }));
    for d in [one, two, whole, other, third] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn the_provenance_sits_at_the_top_of_report_json_as_before() {
    let v = Variant::standard();
    let config = Config::new(&v, vec![BotSpec::Random], 2, 1);
    let games = run(&v, &config, &()).unwrap();
    let json = config.report(&murus_lab::stats_of(&games)).to_json();
    let keys: Vec<&str> = json
        .lines()
        .filter(|l| l.starts_with("  \"") && !l.starts_with("   "))
        .map(|l| l.trim_start().split('"').nth(1).unwrap())
        .take(11)
        .collect();
    assert_eq!(
        keys,
        [
            "variant",
            "engine_version",
            "bots",
            "evaluations",
            "seed",
            "requested",
            "max_plies",
            "shard",
            "players",
            "games",
            "interrupted"
        ]
    );
}

#[test]
fn shards_of_a_check_share_out_its_skill_matches_and_older_whole_copies_still_merge() {
    let v = Variant::standard();
    let config = |shard: Option<(u64, u64)>| BalanceConfig {
        levels: parse_levels("random,easy").unwrap(),
        stopping: Stopping::Games(4),
        skill_games: 6,
        shard,
        ..check(3)
    };
    let whole_dir = temp!("skill-whole");
    let whole = run_balance(&v, &config(None), Some((&whole_dir, Mode::New)), &()).unwrap();
    let dirs = [temp!("skill-shard-1"), temp!("skill-shard-2")];
    for (k, dir) in (1..=2).zip(&dirs) {
        let shard = run_balance(&v, &config(Some((k, 2))), Some((dir, Mode::New)), &()).unwrap();
        assert_eq!(
            shard.skill[0].games, 3,
            "shard {k} plays its share of the match"
        );
    }
    let refs = [dirs[0].as_path(), dirs[1].as_path()];
    let merged = merge_balance(&refs, None, Partial::Refuse).unwrap();
    assert_eq!(merged.to_json(), whole.to_json());
    // Checks made before the matches were sharded played every match whole
    // in every shard: such folders still merge, each game counted once.
    let sub = Path::new("skill").join("easy-vs-random");
    for dir in &dirs {
        std::fs::remove_dir_all(dir.join(&sub)).unwrap();
        std::fs::create_dir_all(dir.join(&sub)).unwrap();
        for file in std::fs::read_dir(whole_dir.join(&sub)).unwrap() {
            let file = file.unwrap().path();
            std::fs::copy(&file, dir.join(&sub).join(file.file_name().unwrap())).unwrap();
        }
    }
    let merged = merge_balance(&refs, None, Partial::Refuse).unwrap();
    assert_eq!(merged.to_json(), whole.to_json());
    for d in dirs.iter().chain([&whole_dir]) {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// A check's spec keeps its stopping rule and its shard as text that reads
/// back as they were given (`games 4`, `1/2`); a spec whose rule or shard
/// does not read is refused with the file and what was expected, and the
/// games kept are left alone.
#[test]
fn a_specs_stopping_rule_and_shard_read_back_typed_and_nonsense_is_refused() {
    let v = Variant::standard();
    let dir = temp!("typed");
    let config = BalanceConfig {
        shard: Some((1, 2)),
        ..check(3)
    };
    run_balance(&v, &config, Some((&dir, Mode::New)), &()).unwrap();
    let path = dir.join("balance-run.json");
    let spec = std::fs::read_to_string(&path).unwrap();
    assert!(spec.contains("\"stopping\": \"games 4\""), "{spec}");
    assert!(spec.contains("\"shard\": \"1/2\""), "{spec}");
    let read: murus_lab::balance::BalanceSpec = serde_json::from_str(&spec).unwrap();
    assert_eq!(read.stopping, Stopping::Games(4));
    assert_eq!(read.shard, Some(Shard { k: 1, n: 2 }));
    let games = std::fs::read(dir.join("levels/random/games.jsonl")).unwrap();
    for (from, to, expected) in [
        (
            "\"games 4\"",
            "\"until tired\"",
            "`until tired`: not a stopping rule",
        ),
        ("\"1/2\"", "\"3/2\"", "shard 3/2: K must be from 1 to N"),
        ("\"1/2\"", "\"half\"", "shard `half`: expected K/N"),
    ] {
        std::fs::write(&path, spec.replace(from, to)).unwrap();
        let e = run_balance(&v, &config, Some((&dir, Mode::Resume)), &()).unwrap_err();
        let e = e.to_string();
        assert!(e.contains("balance-run.json"), "{e}");
        assert!(e.contains(expected), "{e}");
    }
    assert_eq!(
        std::fs::read(dir.join("levels/random/games.jsonl")).unwrap(),
        games
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
