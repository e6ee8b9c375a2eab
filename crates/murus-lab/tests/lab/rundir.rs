//! Runs kept in a folder lose nothing: games are on disk as they finish, a
//! resumed run plays only the missing ones and ends with exactly the files
//! of a run never interrupted, and a folder of another run, a torn or a
//! corrupt game file get clear answers.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use murus_engine::job::{Cancel, HandlerExt};

use murus_engine::Variant;
use murus_lab::{
    Config, GameResult, LabError, MatchConfig, Mode, Opened, RunDir, RunProgress, run, run_match,
    spawn,
};

use crate::util::temp;

fn config(v: &Variant, bots: &str, games: u64, seed: u64) -> Config {
    Config::new(v, murus_ai::parse_specs(bots).unwrap(), games, seed).with_threads(2)
}

/// The files of a finished run folder, by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    [
        "run.json",
        "games.jsonl",
        "report.json",
        "report.csv",
        "report.svg",
    ]
    .iter()
    .map(|f| (f.to_string(), std::fs::read(dir.join(f)).unwrap()))
    .collect()
}

/// Runs `config` into `dir` (new) to the end.
fn run_into(v: &Variant, config: &Config, dir: &Path) -> murus_lab::Report {
    let rd = RunDir::open(dir, &config.run_spec(), Mode::New).unwrap().0;
    spawn(v, config.clone(), Some(rd), ())
        .unwrap()
        .join()
        .unwrap()
}

/// Resumes `config` from `dir` to the end.
fn resume(v: &Variant, config: &Config, dir: &Path) -> murus_lab::Report {
    let (rd, _) = RunDir::open(dir, &config.run_spec(), Mode::Resume).unwrap();
    spawn(v, config.clone(), Some(rd), ())
        .unwrap()
        .join()
        .unwrap()
}

/// A line of `games.jsonl`.
fn line(g: &GameResult) -> String {
    serde_json::to_string(g).unwrap() + "\n"
}

/// A folder as a killed run leaves it: `run.json` and some of the games,
/// in any order, and a torn last line.
fn killed_run(config: &Config, games: &[&GameResult], torn: &str, dir: &Path) {
    drop(RunDir::open(dir, &config.run_spec(), Mode::New).unwrap().0);
    let mut text: String = games.iter().map(|g| line(g)).collect();
    text.push_str(torn);
    std::fs::write(dir.join("games.jsonl"), text).unwrap();
}

#[test]
fn a_cancelled_batch_on_disk_resumes_to_the_files_of_an_uninterrupted_run() {
    let v = Variant::standard();
    let config = config(&v, "greedy,random", 400, 6);
    let whole = temp!("whole");
    let expected = run_into(&v, &config, &whole);
    assert!(!expected.interrupted);
    // Cancelled mid-run: the finished games and an interrupted report are on disk.
    let dir = temp!("cancelled");
    let rd = RunDir::open(&dir, &config.run_spec(), Mode::New).unwrap().0;
    let cancel = Cancel::new();
    let done = Arc::new(AtomicU64::new(0));
    let seen = done.clone();
    let handler = cancel
        .clone()
        .on_progress(move |p: &RunProgress| seen.store(p.done, Ordering::Relaxed));
    let batch = spawn(&v, config.clone(), Some(rd), handler).unwrap();
    while done.load(Ordering::Relaxed) < 20 {
        std::thread::yield_now();
    }
    cancel.cancel();
    let cut = batch.join().unwrap();
    assert!(cut.interrupted, "{}", cut.to_json());
    assert!(cut.games >= 20 && cut.games < 400);
    let on_disk = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert_eq!(
        on_disk.lines().count() as u64,
        cut.games,
        "every finished game kept"
    );
    let report_on_disk: murus_lab::Report =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert!(report_on_disk.interrupted);
    // Resumed, on one thread this time: the same bytes, every file.
    let (rd, done) = RunDir::open(&dir, &config.run_spec(), Mode::Resume).unwrap();
    assert_eq!(done.len() as u64, cut.games);
    let first = Arc::new(Mutex::new(None));
    let heard = first.clone();
    let handler = ().on_progress(move |p: &RunProgress| {
        heard.lock().unwrap().get_or_insert(p.done);
    });
    let batch = spawn(&v, config.clone().with_threads(1), Some(rd), handler).unwrap();
    let report = batch.join().unwrap();
    assert_eq!(
        *first.lock().unwrap(),
        Some(cut.games),
        "games found done count as done from the start"
    );
    assert_eq!(report.to_json(), expected.to_json());
    assert_eq!(files(&dir), files(&whole));
    // Resuming a finished run plays nothing and writes the same files again.
    assert_eq!(resume(&v, &config, &dir), expected);
    assert_eq!(files(&dir), files(&whole));
}

#[test]
fn a_resume_killed_before_its_end_leaves_no_report_of_the_earlier_interruption() {
    let v = Variant::standard();
    let config = config(&v, "random", 30, 8);
    let mut recording = config.clone();
    recording.record_moves = true;
    let games = run(&v, &recording, &()).unwrap();
    let dir = temp!("stale");
    // An interrupted run: two games and its report, marked interrupted.
    let rd = RunDir::open(&dir, &config.run_spec(), Mode::New).unwrap().0;
    let mut rd = Some(rd);
    for g in &games[..2] {
        rd.as_mut().unwrap().append(g).unwrap();
    }
    let cut = config.report_interrupted(&[games[0].stats.clone(), games[1].stats.clone()], true);
    rd.take().unwrap().finish(&cut).unwrap();
    assert!(dir.join("report.json").is_file());
    // Resumed: opening alone keeps the report; the first new game on disk
    // makes it stale, so it goes (a kill now leaves games, no old report).
    let (mut rd, done) = RunDir::open(&dir, &config.run_spec(), Mode::Resume).unwrap();
    assert_eq!(done.len(), 2);
    assert!(dir.join("report.json").is_file());
    rd.append(&games[2]).unwrap();
    for f in ["report.json", "report.csv", "report.svg"] {
        assert!(!dir.join(f).exists(), "{f} outlived the resume");
    }
    drop(rd);
    // The resume then ends with the reports of the whole run.
    let whole = temp!("stale-whole");
    assert_eq!(resume(&v, &config, &dir), run_into(&v, &config, &whole));
    assert_eq!(files(&dir), files(&whole));
}

#[test]
fn a_resumed_run_plays_only_the_missing_games_and_drops_a_torn_last_line() {
    let v = Variant::builtin("advanced").unwrap();
    let config = config(&v, "random", 40, 2);
    let whole = temp!("torn-whole");
    run_into(&v, &config, &whole);
    let games = run(&v, &config, &()).unwrap();
    // Games 30, 1, 7 and 12 finished (out of order), game 13 was being written.
    let kept: Vec<&GameResult> = [30, 1, 7, 12].iter().map(|&i| &games[i]).collect();
    let torn = &line(&games[13])[..25];
    let dir = temp!("torn");
    killed_run(&config, &kept, torn, &dir);
    let (rd, done) = RunDir::open(&dir, &config.run_spec(), Mode::Resume).unwrap();
    assert_eq!(
        done.iter().map(|g| g.stats.index).collect::<Vec<_>>(),
        [1, 7, 12, 30],
        "sorted, the torn line dropped"
    );
    let played = Arc::new(Mutex::new(Vec::new()));
    let sink = played.clone();
    let handler = ().on_progress(move |p: &RunProgress| {
        let mut sink = sink.lock().unwrap();
        sink.extend(p.games.iter().map(|g| g.stats.index));
    });
    spawn(&v, config.clone(), Some(rd), handler)
        .unwrap()
        .join()
        .unwrap();
    let mut played = played.lock().unwrap().clone();
    played.sort_unstable();
    let missing: Vec<u64> = (0..40).filter(|i| ![1, 7, 12, 30].contains(i)).collect();
    assert_eq!(played, missing, "only the missing games are played");
    assert_eq!(files(&dir), files(&whole));
}

#[test]
fn resumed_shards_still_merge_into_the_whole_runs_report() {
    let v = Variant::standard();
    let whole_config = config(&v, "random,greedy", 30, 8);
    let whole = temp!("shards-whole");
    let expected = run_into(&v, &whole_config, &whole);
    let mut dirs = Vec::new();
    for k in 1..=2 {
        let shard = whole_config.clone().with_shard(k, 2).unwrap();
        let games = run(&v, &shard, &()).unwrap();
        let dir = temp!(&format!("shards-{k}"));
        // Half the shard's games finished before the kill.
        let kept: Vec<&GameResult> = games.iter().step_by(2).collect();
        killed_run(&shard, &kept, "", &dir);
        assert_eq!(resume(&v, &shard, &dir).games, 15);
        dirs.push(dir);
    }
    let paths: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    let (merged, _) = murus_lab::merge(&paths, murus_lab::Partial::Refuse).unwrap();
    assert_eq!(merged.to_json(), expected.to_json());
}

#[test]
fn a_resumed_sequential_match_decides_as_an_uninterrupted_one() {
    let v = Variant::standard();
    let m = MatchConfig {
        a: "greedy".parse().unwrap(),
        b: "greedy".parse().unwrap(),
        games: 600,
        seed: 1,
        threads: 2,
        sprt: Some((0.0, 100.0)),
        openings: 0,
        book: None,
        shard: None,
    };
    let whole = temp!("match-whole");
    let spec = m.run_spec(&v).unwrap();
    let rd = RunDir::open(&whole, &spec, Mode::New).unwrap().0;
    let (expected, expected_report) = run_match(&v, &m, &(), Some(rd)).unwrap();
    let sprt = expected.sprt.as_ref().unwrap();
    assert_ne!(sprt.decision, "undecided");
    let decided = expected.games;
    assert!(decided > 20, "{expected:?}");
    // A killed match: holes before the decision, and games after it that a
    // chunk played in vain.
    let mut all = m.config(&v).unwrap();
    all.games = decided + 10;
    let games = run(&v, &all, &()).unwrap();
    let kept: Vec<&GameResult> = games
        .iter()
        .filter(|g| g.stats.index % 3 != 1 || g.stats.index >= decided)
        .collect();
    let dir = temp!("match-killed");
    drop(RunDir::open(&dir, &spec, Mode::New).unwrap().0);
    let text: String = kept.iter().map(|g| line(g)).collect();
    std::fs::write(dir.join("games.jsonl"), text).unwrap();
    let (rd, _) = RunDir::open(&dir, &spec, Mode::Resume).unwrap();
    let (result, report) = run_match(&v, &m, &(), Some(rd)).unwrap();
    assert_eq!(result, expected);
    assert_eq!(report.to_json(), expected_report.to_json());
    assert_eq!(files(&dir), files(&whole));
    let lines = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert_eq!(
        lines.lines().count() as u64,
        decided,
        "games after the decision dropped"
    );
    // A match with other bounds is another run.
    let other = MatchConfig {
        sprt: Some((0.0, 50.0)),
        ..m.clone()
    };
    let err = RunDir::open(&dir, &other.run_spec(&v).unwrap(), Mode::Resume).unwrap_err();
    assert!(
        err.to_string().contains("sprt 0,100 there, 0,50 asked"),
        "{err}"
    );
}

#[test]
fn resuming_another_run_names_each_difference() {
    let v = Variant::standard();
    let ours = config(&v, "greedy,random", 10, 4);
    let dir = temp!("mismatch");
    drop(RunDir::open(&dir, &ours.run_spec(), Mode::New).unwrap().0);
    let theirs = config(&v, "random", 12, 5).with_max_plies(50);
    let err = RunDir::open(&dir, &theirs.run_spec(), Mode::Resume).unwrap_err();
    let LabError::Mismatch { differences, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(
        differences,
        &[
            "bots greedy,random there, random,random asked",
            "seed 4 there, 5 asked",
            "games 10 there, 12 asked",
            "max plies 300 there, 50 asked",
        ]
    );
    let advanced = Variant::builtin("advanced").unwrap();
    let err = RunDir::open(
        &dir,
        &config(&advanced, "greedy,random", 10, 4).run_spec(),
        Mode::Resume,
    )
    .unwrap_err()
    .to_string();
    // Other rules are told by their key.
    let key = |v: &Variant| format!("{}…", v.rules_key());
    assert!(
        err.contains(&format!(
            "rules key {} there, {} asked (the rules changed)",
            key(&v),
            key(&advanced)
        )),
        "{err}"
    );
    let shard = ours.clone().with_shard(1, 2).unwrap();
    let err = RunDir::open(&dir, &shard.run_spec(), Mode::Resume)
        .unwrap_err()
        .to_string();
    assert!(err.contains("shard none there, 1/2 asked"), "{err}");
}

#[test]
fn a_resume_starts_where_there_is_no_run_and_refuses_a_broken_one_clearly() {
    let v = Variant::standard();
    let config = config(&v, "random", 10, 1);
    let spec = config.run_spec();
    // No folder, or an empty one: the run starts there.
    let missing = temp!("missing");
    let (rd, games) = RunDir::open(&missing, &spec, Mode::Resume).unwrap();
    assert_eq!((rd.opened(), games.len()), (Opened::Started, 0));
    assert!(missing.join("run.json").is_file());
    let empty = temp!("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (rd, _) = RunDir::open(&empty, &spec, Mode::Resume).unwrap();
    assert_eq!(rd.opened(), Opened::Started);
    // A run's games without its run.json: not a run that can resume, and
    // nothing is written over them.
    let headless = temp!("headless");
    std::fs::create_dir_all(&headless).unwrap();
    std::fs::write(headless.join("games.jsonl"), "{}\n").unwrap();
    let err = RunDir::open(&headless, &spec, Mode::Resume).unwrap_err();
    assert!(matches!(err, LabError::NoRun { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("it holds games.jsonl but no run.json"),
        "{err}"
    );
    assert!(!headless.join("run.json").exists());
    // Showing a run needs one.
    let err = RunDir::read(&temp!("nothing"), &spec).unwrap_err();
    assert!(matches!(err, LabError::NoRun { .. }), "{err}");
    let corrupt = temp!("corrupt-run-json");
    std::fs::create_dir_all(&corrupt).unwrap();
    std::fs::write(corrupt.join("run.json"), "{\"format\": 1,\n  \"seed\": ").unwrap();
    let err = RunDir::open(&corrupt, &spec, Mode::Resume).unwrap_err();
    assert!(matches!(err, LabError::Parse { line: 2, .. }), "{err}");
    assert!(err.to_string().contains("run.json:2"), "{err}");
}

#[test]
fn a_corrupt_game_line_before_the_last_is_an_error_naming_its_line() {
    let v = Variant::standard();
    let config = config(&v, "random", 10, 1);
    let games = run(&v, &config, &()).unwrap();
    let dir = temp!("corrupt-line");
    drop(RunDir::open(&dir, &config.run_spec(), Mode::New).unwrap().0);
    let text = format!(
        "{}{{\"index\": 1, \"seed\n{}",
        line(&games[0]),
        line(&games[2])
    );
    std::fs::write(dir.join("games.jsonl"), text).unwrap();
    let err = RunDir::open(&dir, &config.run_spec(), Mode::Resume).unwrap_err();
    assert!(matches!(err, LabError::Parse { line: 2, .. }), "{err}");
    assert!(
        err.to_string().contains("games.jsonl:2: not a game"),
        "{err}"
    );
    // A game of another run (another seed) is refused too.
    let stranger = run(&v, &self::config(&v, "random", 3, 9), &()).unwrap();
    let text = format!("{}{}", line(&games[0]), line(&stranger[1]));
    std::fs::write(dir.join("games.jsonl"), text).unwrap();
    let err = RunDir::open(&dir, &config.run_spec(), Mode::Resume)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("games.jsonl:2: game 1 is not one of this run's"),
        "{err}"
    );
    // So is a game numbered past the run's end.
    let mut g = games[3].clone();
    g.stats.index = 10;
    std::fs::write(dir.join("games.jsonl"), line(&g)).unwrap();
    let err = RunDir::open(&dir, &config.run_spec(), Mode::Resume)
        .unwrap_err()
        .to_string();
    assert!(err.contains("not among the 10 games"), "{err}");
}

/// Issue 22: a line of `games.jsonl` edited to an illegal move was
/// accepted on resume, and counted.
#[test]
fn a_kept_game_edited_to_an_illegal_move_is_refused_on_resume_and_merge_naming_its_place() {
    let v = Variant::standard();
    let config = config(&v, "random", 6, 2);
    let dir = temp!("edited-move");
    run_into(&v, &config, &dir);
    let path = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let edit = |f: &dyn Fn(&mut GameResult)| {
        let lines: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                let mut g: GameResult = serde_json::from_str(l).unwrap();
                if i == 2 {
                    f(&mut g);
                }
                serde_json::to_string(&g).unwrap() + "\n"
            })
            .collect();
        std::fs::write(&path, lines.concat()).unwrap();
    };
    let resumed = |dir: &Path| -> Result<murus_lab::Report, LabError> {
        let (rd, _) = RunDir::open(dir, &config.run_spec(), Mode::Resume)?;
        spawn(&v, config.clone(), Some(rd), ()).unwrap().join()
    };
    // The Gauls' move on the Romans' first ply.
    edit(&|g| g.moves[0] = "d7-d6".into());
    let err = resumed(&dir).unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "{}:3: game 2: ply 1: `d7-d6` is not legal there (r to move; 20 legal moves): not a game of these rules (was the line edited?)",
            path.display()
        )
    );
    // Nothing was played or rewritten.
    assert!(std::fs::read_to_string(&path).unwrap().contains("d7-d6"));
    // A legal move, but another game than the line records.
    edit(&|g| {
        let first = v.legal_moves(&v.start());
        let other = first
            .iter()
            .map(|&m| v.move_to_string(m))
            .find(|m| *m != g.moves[0]);
        g.moves[0] = other.unwrap();
    });
    let err = resumed(&dir).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("{}:3: game 2: ", path.display())),
        "{err}"
    );
    // A figure edited: the end the moves give is not the one recorded.
    edit(&|g| g.stats.winner = g.stats.winner.map(|w| if w == 'r' { 'g' } else { 'r' }));
    let err = resumed(&dir).unwrap_err().to_string();
    assert!(err.contains(":3: game 2: its moves end it by "), "{err}");
    // A merge reads the folder's games the same way.
    let err = murus_lab::merge(&[&dir], murus_lab::Partial::Refuse)
        .unwrap_err()
        .to_string();
    assert!(err.contains(":3: game 2: its moves end it by "), "{err}");
    // Put back as played, the run resumes to its own bytes.
    std::fs::write(&path, &text).unwrap();
    assert_eq!(resumed(&dir).unwrap().games, 6);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_new_run_never_overwrites_a_folder_holding_one() {
    let v = Variant::standard();
    let config = config(&v, "random", 6, 1);
    let dir = temp!("clobber");
    run_into(&v, &config, &dir);
    let before = files(&dir);
    let err = RunDir::open(&dir, &config.run_spec(), Mode::New).unwrap_err();
    assert!(matches!(err, LabError::RunExists { .. }), "{err}");
    assert_eq!(files(&dir), before, "nothing touched");
    // A folder with only older outputs (no run.json) is refused as well.
    let old = temp!("clobber-old");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(old.join("report.json"), "{}").unwrap();
    assert!(RunDir::open(&old, &config.run_spec(), Mode::New).is_err());
    // A folder with other files is fine.
    let other = temp!("clobber-other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "mine").unwrap();
    run_into(&v, &config, &other);
    assert_eq!(
        std::fs::read_to_string(other.join("notes.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn a_batch_refuses_a_folder_of_another_run() {
    let v = Variant::standard();
    let dir = temp!("batch-mismatch");
    let rd = RunDir::open(&dir, &config(&v, "random", 6, 1).run_spec(), Mode::New)
        .unwrap()
        .0;
    let err = spawn(&v, config(&v, "random", 6, 2), Some(rd), ()).unwrap_err();
    assert!(err.to_string().contains("seed 1 there, 2 asked"), "{err}");
}

#[test]
fn reading_a_run_to_show_it_leaves_the_folder_as_it_is() {
    let v = Variant::standard();
    let config = config(&v, "random", 10, 2);
    let games = run(&v, &config, &()).unwrap();
    let dir = temp!("read-only");
    let torn = &line(&games[5])[..30];
    killed_run(&config, &[&games[3], &games[1]], torn, &dir);
    let before = std::fs::read(dir.join("games.jsonl")).unwrap();
    let shown = RunDir::read(&dir, &config.run_spec()).unwrap();
    let numbers: Vec<u64> = shown.iter().map(|g| g.stats.index).collect();
    assert_eq!(numbers, [1, 3]);
    assert_eq!(
        std::fs::read(dir.join("games.jsonl")).unwrap(),
        before,
        "showing a run keeps even its torn line"
    );
    // Resuming it cuts the torn line off, so that the next game starts a line.
    drop(RunDir::open(&dir, &config.run_spec(), Mode::Resume).unwrap());
    let after = std::fs::read(dir.join("games.jsonl")).unwrap();
    assert_eq!(after.len(), before.len() - torn.len());
}

/// Issue 38: the studio read `report.json` and counted `games.jsonl`
/// itself; one call says what a run folder holds: its spec, its report, its
/// games done and the configuration that plays them, and names the file at
/// fault when one does not read.
#[test]
fn a_run_folder_says_what_it_holds_in_one_call() {
    use murus_lab::RunSpec;
    use murus_lab::rundir::Holding;
    let v = Variant::builtin("small").unwrap();
    let c = config(&v, "greedy,random", 8, 3)
        .with_openings(2)
        .with_max_plies(90);
    // A run killed after three games, a torn fourth.
    let all = run(&v, &c, &()).unwrap();
    let killed = temp!("holding-killed");
    killed_run(&c, &[&all[2], &all[0], &all[1]], "{\"torn", &killed);
    let held = Holding::<RunSpec>::read(&killed).unwrap();
    assert_eq!(held.spec, c.run_spec());
    assert_eq!((held.done, held.report.is_none()), (3, true));
    let rebuilt = held.config(&v, 1).unwrap();
    assert_eq!(rebuilt.run_spec(), c.run_spec());
    assert_eq!(held.games().unwrap().len(), 3);
    // Other rules than those it played are refused, each difference named.
    let other = Variant::standard();
    let e = held.config(&other, 1).unwrap_err().to_string();
    assert!(e.contains("holds a different run"), "{e}");
    // A run that ended: its report.
    let ended = temp!("holding-ended");
    let report = run_into(&v, &c, &ended);
    let held = Holding::<RunSpec>::read(&ended).unwrap();
    assert_eq!(held.done, 8);
    assert_eq!(held.report.map(|r| r.to_json()), Some(report.to_json()));
    // A report that does not read names its file; no spec, no run.
    std::fs::write(ended.join("report.json"), "{\"games\": ").unwrap();
    let e = Holding::<RunSpec>::read(&ended).unwrap_err().to_string();
    assert!(e.contains("report.json:"), "{e}");
    let empty = temp!("holding-empty");
    std::fs::create_dir_all(&empty).unwrap();
    let e = Holding::<RunSpec>::read(&empty).unwrap_err();
    assert!(matches!(e, LabError::NoRun { .. }), "{e}");
    for d in [killed, ended, empty] {
        std::fs::remove_dir_all(d).unwrap();
    }
}
