//! Runs that survive a cluster: one resume rule for every lab command,
//! SIGTERM like Ctrl-C, the threads a scheduler grants, merges that miss
//! shards, and the shipped scripts of `scripts/cluster/`, run with the
//! variables Slurm and Kubernetes set.

use std::path::Path;
use std::process::{Output, Stdio};

#[cfg(unix)]
use crate::util::signal;
use crate::util::{TempDir, command, finish, json, murus, stderr, stdout, text, wait_for_lines};

/// The lab commands that keep runs in folders, each as a small run:
/// the name of what its folder keeps, and its arguments before `--out`.
fn small_runs() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        (
            "run",
            vec!["selfplay", "standard", "--games", "6", "--threads", "2"],
        ),
        (
            "run",
            vec![
                "match",
                "standard",
                "greedy",
                "random",
                "--games",
                "4",
                "--threads",
                "2",
            ],
        ),
        (
            "check",
            vec![
                "balance",
                "standard",
                "--levels",
                "random",
                "--games",
                "4",
                "--skill-games",
                "0",
                "--threads",
                "2",
            ],
        ),
        (
            "sweep",
            vec![
                "sweep",
                "standard",
                "--levels",
                "random",
                "--games",
                "4",
                "--openings",
                "0",
                "--threads",
                "2",
            ],
        ),
    ]
}

/// `murus ARGS --out DIR EXTRA…`.
fn run_in(args: &[&str], dir: &Path, extra: &[&str]) -> Output {
    let mut all = args.to_vec();
    all.extend(["--out", dir.to_str().unwrap()]);
    all.extend(extra);
    murus(&all)
}

#[test]
fn resume_starts_a_run_where_none_is_kept_says_so_and_refuses_only_other_settings() {
    for (what, args) in small_runs() {
        let name = args[0];
        let tmp = TempDir::new(&format!("resume-rule-{name}"));
        // The plain run, for comparison.
        let plain = run_in(&args, &tmp.join("plain"), &["--json"]);
        assert!(plain.status.success(), "{name}: {}", text(&plain));
        // --resume where there is no folder: the run starts, and says so.
        let dir = tmp.join("fresh");
        let o = run_in(&args, &dir, &["--resume", "--json"]);
        assert!(o.status.success(), "{name}: {}", text(&o));
        assert!(
            stderr(&o).contains(&format!(
                "note: no {what} in {} yet: starting it",
                dir.display()
            )),
            "{name}: {}",
            stderr(&o)
        );
        assert_eq!(stdout(&o), stdout(&plain), "{name}: the same run");
        // Again: the run there is resumed (nothing left to play), silently.
        let again = run_in(&args, &dir, &["--resume", "--json"]);
        assert!(again.status.success(), "{name}: {}", text(&again));
        assert!(!stderr(&again).contains("starting it"), "{name}");
        assert_eq!(stdout(&again), stdout(&plain), "{name}");
        // Without --resume a folder that keeps a run is refused as before.
        let o = run_in(&args, &dir, &["--json"]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", text(&o));
        assert!(
            stderr(&o).contains(&format!("already holds a {what}")),
            "{name}: {}",
            stderr(&o)
        );
        // Another seed: refused, the difference named.
        let o = run_in(&args, &dir, &["--resume", "--seed", "9"]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", text(&o));
        assert!(
            stderr(&o).contains(&format!("holds a different {what}"))
                && stderr(&o).contains("seed 1 there, 9 asked"),
            "{name}: {}",
            stderr(&o)
        );
        // An empty folder is no run either: it starts there.
        let empty = tmp.join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        let o = run_in(&args, &empty, &["--resume", "--json"]);
        assert!(o.status.success(), "{name}: {}", text(&o));
        assert!(stderr(&o).contains("starting it"), "{name}");
    }
}

#[test]
fn train_resume_without_data_says_it_starts_afresh() {
    let tmp = TempDir::new("train-resume-fresh");
    let file = tmp.join("small.eval");
    let o = murus(&[
        "train",
        "standard",
        "--positions",
        "200",
        "--bot",
        "alphabeta:100",
        "--hidden",
        "4",
        "--epochs",
        "1",
        "--no-validate",
        "--out",
        file.to_str().unwrap(),
        "--resume",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        stderr(&o).contains(&format!(
            "note: no training run in {} yet: starting it",
            tmp.join("small.train").display()
        )),
        "{}",
        stderr(&o)
    );
    assert!(file.is_file());
}

/// A self-play run of 120 games, long enough (a second or two in a
/// debug build) to be stopped in the middle, short enough for a test.
const SLOW_RUN: [&str; 11] = [
    "selfplay",
    "standard",
    "--games",
    "120",
    "--bots",
    "greedy,alphabeta:300",
    "--seed",
    "3",
    "--threads",
    "2",
    "--json",
];

/// The files a finished run folder holds, by name.
fn run_files(dir: &Path) -> Vec<(&'static str, String)> {
    ["games.jsonl", "report.json", "report.csv", "report.svg"]
        .into_iter()
        .map(|f| {
            let path = dir.join(f);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (f, text)
        })
        .collect()
}

/// The report a run folder holds, as JSON.
fn report(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("report.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[cfg(unix)]
#[test]
fn selfplay_stopped_by_sigterm_or_sighup_writes_its_report_and_resumes_to_the_full_run() {
    let tmp = TempDir::new("sigterm");
    let whole = tmp.join("whole");
    let o = run_in(&SLOW_RUN, &whole, &[]);
    assert!(o.status.success(), "{}", text(&o));
    for name in ["TERM", "HUP"] {
        let dir = tmp.join(name);
        let child = command()
            .args(SLOW_RUN)
            .args(["--out", dir.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the murus binary runs");
        let mut child = child;
        wait_for_lines(&mut child, &dir.join("games.jsonl"), 3);
        signal(&child, name);
        let o = finish(child);
        assert_eq!(o.status.code(), Some(130), "SIG{name}: {}", text(&o));
        assert!(
            stderr(&o).contains("interrupted: kept "),
            "SIG{name}: {}",
            stderr(&o)
        );
        // The finished games and a report that says it is not the whole run.
        let r = report(&dir);
        assert_eq!(r["interrupted"], true, "SIG{name}: {r}");
        let games = r["games"].as_u64().unwrap();
        assert!((3..120).contains(&games), "SIG{name}: {r}");
        let lines = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
        assert_eq!(lines.lines().count() as u64, games, "SIG{name}");
        assert_eq!(json(&o), r, "SIG{name}: the report printed is the one kept");
        // Resumed, it ends with the files of the run never stopped.
        let o = run_in(&SLOW_RUN, &dir, &["--resume"]);
        assert!(o.status.success(), "SIG{name}: {}", text(&o));
        assert!(
            stderr(&o).contains(&format!("{games} were already played")),
            "SIG{name}: {}",
            stderr(&o)
        );
        assert_eq!(run_files(&dir), run_files(&whole), "SIG{name}");
    }
}

#[cfg(unix)]
#[test]
fn training_stopped_by_sigterm_keeps_its_data_and_exits_as_on_ctrl_c() {
    let tmp = TempDir::new("train-sigterm");
    let file = tmp.join("t.eval");
    let mut child = command()
        .args([
            "train",
            "standard",
            "--positions",
            "1000000",
            "--bot",
            "alphabeta:150",
            "--threads",
            "2",
            "--no-validate",
            "--out",
            file.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the murus binary runs");
    let data = tmp.join("t.train").join("data.jsonl");
    wait_for_lines(&mut child, &data, 3);
    signal(&child, "TERM");
    let o = finish(child);
    assert_eq!(o.status.code(), Some(130), "{}", text(&o));
    assert!(
        stderr(&o).contains(&format!(
            "interrupted: the data so far is in {}: --resume goes on",
            tmp.join("t.train").display()
        )),
        "{}",
        stderr(&o)
    );
    assert!(!file.exists(), "nothing fitted, nothing written");
    let kept = std::fs::read_to_string(&data).unwrap();
    assert!(kept.lines().count() >= 3, "the finished games are kept");
}

#[cfg(unix)]
#[test]
fn mural_generation_stopped_by_sigterm_prints_the_puzzles_found() {
    let mut child = command()
        .args([
            "mural", "generate", "--board", "6x6", "--count", "100000", "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the murus binary runs");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(child.try_wait().unwrap().is_none(), "it ended too soon");
    signal(&child, "TERM");
    let o = finish(child);
    assert_eq!(o.status.code(), Some(130), "{}", text(&o));
    let found = stdout(&o).lines().count();
    assert!(
        stderr(&o).contains(&format!("interrupted: {found} of 100000 puzzle(s) found")),
        "{}",
        stderr(&o)
    );
}

/// Each lab command, small, with the words its timing line on stderr
/// starts with.
fn timed_runs() -> Vec<(&'static str, Vec<&'static str>)> {
    let mut runs: Vec<(&'static str, Vec<&'static str>)> = small_runs()
        .into_iter()
        .map(|(_, mut args)| {
            // Without --threads: the default is what is tested.
            let at = args.iter().position(|a| *a == "--threads").unwrap();
            args.drain(at..at + 2);
            let timing = match args[0] {
                "balance" => "balance check in ",
                "sweep" => "sweep of 1 combination(s) in ",
                _ => " games in ",
            };
            (timing, args)
        })
        .collect();
    runs.push((
        "training in ",
        vec![
            "train",
            "standard",
            "--positions",
            "100",
            "--bot",
            "alphabeta:50",
            "--hidden",
            "2",
            "--epochs",
            "1",
            "--no-validate",
        ],
    ));
    runs
}

/// The threads a run's timing line says it used.
fn threads_used(o: &Output, timing: &str) -> usize {
    let e = stderr(o);
    let line = e
        .lines()
        .find(|l| l.contains(timing))
        .unwrap_or_else(|| panic!("no timing line `{timing}`: {}", text(o)));
    let count = line
        .split(" thread(s)")
        .next()
        .and_then(|head| head.rsplit(['(', ' ']).next())
        .and_then(|n| n.parse().ok());
    count.unwrap_or_else(|| panic!("no thread count in `{line}`"))
}

#[test]
fn threads_default_to_the_cpus_a_scheduler_grants() {
    let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    for (timing, args) in timed_runs() {
        let name = args[0];
        let tmp = TempDir::new(&format!("threads-{name}"));
        let run = |env: Option<&str>, prefix: &[&str]| {
            let out = tmp.join(format!("t{}", prefix.len() + usize::from(env.is_some())));
            let mut all: Vec<&str> = prefix.to_vec();
            all.push(env!("CARGO_BIN_EXE_murus"));
            all.extend(&args);
            all.extend(["--out", out.to_str().unwrap()]);
            let mut c = std::process::Command::new(all[0]);
            c.args(&all[1..]).current_dir(crate::util::root());
            match env {
                Some(n) => c.env("SLURM_CPUS_PER_TASK", n),
                None => c.env_remove("SLURM_CPUS_PER_TASK"),
            };
            let o = c.output().expect("murus runs");
            assert!(o.status.success(), "{name}: {}", text(&o));
            threads_used(&o, timing)
        };
        // Every CPU the process may run on, when nothing says otherwise.
        assert_eq!(run(None, &[]), cpus, "{name}");
        // A Slurm task of one CPU runs one thread.
        assert_eq!(run(Some("1"), &[]), 1, "{name}: SLURM_CPUS_PER_TASK=1");
        // So does a process pinned to one CPU.
        let taskset = std::process::Command::new("taskset").arg("-V").output();
        if taskset.is_ok_and(|o| o.status.success()) {
            assert_eq!(run(None, &["taskset", "-c", "0"]), 1, "{name}: taskset");
        }
    }
}

/// A rule file of four combinations (the standard game on 7 or 8 files,
/// with a ply cap of 200 or 300) written into `dir`; its path.
fn sizes(dir: &TempDir) -> String {
    let standard = std::fs::read_to_string(crate::util::repo("variants/standard.mg")).unwrap();
    let four = standard
        .replace(
            "board rect 8 x 7",
            "param files = 7, 8\nparam cap = 200, 300\nboard rect $files x 7",
        )
        .replace("plies 300", "plies $cap");
    assert_ne!(four, standard);
    dir.write("sizes.mg", &four).display().to_string()
}

/// A sharded run of each kind that merges: the command of its shards
/// (to which `--shard K/N --out DIR` is added) and of its merge (to which
/// the folders are added).
fn sharded_runs(sweep_file: &str) -> Vec<(&'static str, Vec<&str>, Vec<&'static str>)> {
    vec![
        (
            "report.json",
            vec![
                "selfplay",
                "standard",
                "--games",
                "16",
                "--bots",
                "greedy,random",
                "--threads",
                "2",
            ],
            vec!["lab", "merge"],
        ),
        (
            "balance.json",
            vec![
                "balance",
                "standard",
                "--levels",
                "random,easy",
                "--games",
                "8",
                "--skill-games",
                "8",
                "--threads",
                "2",
            ],
            vec!["balance", "--merge"],
        ),
        (
            "sweep.json",
            vec![
                "sweep",
                sweep_file,
                "--levels",
                "random",
                "--games",
                "2",
                "--openings",
                "0",
                "--threads",
                "2",
            ],
            vec!["sweep", "--merge"],
        ),
    ]
}

#[test]
fn a_merge_with_shards_missing_fails_naming_them_unless_partial_merges_are_allowed() {
    let files = TempDir::new("partial-rules");
    let sweep_file = sizes(&files);
    for (report_file, shard_args, merge_args) in sharded_runs(&sweep_file) {
        let name = shard_args[0];
        let tmp = TempDir::new(&format!("partial-{name}"));
        let mut dirs = Vec::new();
        for k in [1, 3] {
            let dir = tmp.join(format!("shard-{k}"));
            let mut args = shard_args.clone();
            let shard = format!("{k}/4");
            args.extend(["--shard", &shard, "--out", dir.to_str().unwrap()]);
            let o = murus(&args);
            assert!(o.status.success(), "{name} {k}: {}", text(&o));
            dirs.push(dir);
        }
        let merged = tmp.join("merged");
        let merge = |more: &[&str]| {
            let mut args = merge_args.clone();
            args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
            args.extend(["--out", merged.to_str().unwrap()]);
            args.extend(more);
            murus(&args)
        };
        // Refused, naming the shards missing; nothing is written.
        let o = merge(&["--json"]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", text(&o));
        assert!(
            stderr(&o).starts_with("error: shards 2/4 and 4/4 are missing: "),
            "{name}: {}",
            stderr(&o)
        );
        assert!(stderr(&o).contains("--allow-partial"), "{name}");
        assert!(
            !merged.join(report_file).exists(),
            "{name}: nothing written"
        );
        // Asked for, the partial merge is written, and says what it lacks.
        let o = merge(&["--allow-partial", "--json"]);
        assert!(o.status.success(), "{name}: {}", text(&o));
        let j = json(&o);
        assert_eq!(
            j["missing_shards"],
            serde_json::json!(["2/4", "4/4"]),
            "{name}: {j}"
        );
        let kept: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(merged.join(report_file)).unwrap())
                .unwrap();
        assert_eq!(kept, j, "{name}");
        assert!(
            stderr(&o).contains("the shards missing: 2/4, 4/4"),
            "{name}: {}",
            stderr(&o)
        );
        std::fs::remove_dir_all(&merged).unwrap();
        let o = merge(&["--allow-partial"]);
        assert!(o.status.success(), "{name}: {}", text(&o));
        assert!(
            stdout(&o)
                .lines()
                .next()
                .unwrap()
                .ends_with("(partial: shards 2/4, 4/4 missing)"),
            "{name}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn a_merge_of_a_folder_that_is_not_there_says_so_once() {
    for args in [
        &["lab", "merge", "nothere"][..],
        &["balance", "--merge", "nothere"][..],
        &["sweep", "--merge", "nothere"][..],
    ] {
        let o = murus(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", text(&o));
        assert_eq!(stderr(&o), "error: `nothere`: no such folder\n", "{args:?}");
    }
    // A folder without the report of a finished shard is named too, and
    // the cause is said once.
    let tmp = TempDir::new("merge-empty");
    let o = murus(&["lab", "merge", tmp.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        stderr(&o).contains(": no report.json: not the --out folder of a run's shard"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

/// `bash scripts/cluster/NAME ARGS…` with `env` set, MURUS the binary
/// under test, and none of the scheduler's variables of the environment
/// the tests run in (CI may itself run under Slurm).
fn script(name: &str, args: &[&str], env: &[(&str, &str)]) -> std::process::Command {
    let mut c = std::process::Command::new("bash");
    c.arg(crate::util::repo(&format!("scripts/cluster/{name}")))
        .args(args)
        .current_dir(crate::util::root())
        .env("MURUS", env!("CARGO_BIN_EXE_murus"));
    for var in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_CPUS_PER_TASK",
        "JOB_COMPLETION_INDEX",
        "MURUS_SHARDS",
        "MURUS_ALLOW_PARTIAL",
    ] {
        c.env_remove(var);
    }
    c.envs(env.iter().copied());
    c
}

/// The environment of task `k` of a Slurm array of `n` tasks of one CPU.
fn slurm_task(k: &str, n: &str) -> Vec<(&'static str, String)> {
    vec![
        ("SLURM_ARRAY_TASK_ID", k.to_string()),
        ("SLURM_ARRAY_TASK_COUNT", n.to_string()),
        ("SLURM_CPUS_PER_TASK", "1".to_string()),
    ]
}

/// Runs `script` to its end.
fn run_script(name: &str, args: &[&str], env: &[(&str, String)]) -> Output {
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    script(name, args, &env)
        .output()
        .expect("bash runs the script")
}

/// Every file under `dir`, by its path inside `dir`, with its text.
fn tree(dir: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                files.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_array_script_plays_each_shard_and_the_merge_script_joins_them_into_the_unsharded_files() {
    let rules = TempDir::new("scripts-rules");
    let sweep_file = sizes(&rules);
    for (report_file, mut args, _) in sharded_runs(&sweep_file) {
        let name = args[0];
        // The threads are the task's CPUs.
        let at = args.iter().position(|a| *a == "--threads").unwrap();
        args.drain(at..at + 2);
        let tmp = TempDir::new(&format!("scripts-{name}"));
        let whole = tmp.join("whole");
        let o = run_in(&args, &whole, &[]);
        assert!(o.status.success(), "{name}: {}", text(&o));
        let out = tmp.join("run");
        let out_arg = out.to_str().unwrap();
        let mut shard_args = vec![out_arg];
        shard_args.extend(&args);
        for k in ["1", "2", "3"] {
            // Slurm's variables; the sweep's shards as a Kubernetes
            // indexed Job's pods.
            let env = if name == "sweep" {
                let index = (k.parse::<u64>().unwrap() - 1).to_string();
                vec![
                    ("JOB_COMPLETION_INDEX", index),
                    ("MURUS_SHARDS", "3".into()),
                ]
            } else {
                slurm_task(k, "3")
            };
            let o = run_script("shard.sh", &shard_args, &env);
            assert!(o.status.success(), "{name} shard {k}: {}", text(&o));
            assert!(
                stderr(&o).contains(&format!("shard {k}/3 of `{}", args.join(" "))),
                "{name} shard {k}: {}",
                stderr(&o)
            );
            assert!(out.join(format!("shard-{k}")).join(report_file).is_file());
            if name != "sweep" {
                let timing = if name == "balance" {
                    "balance check in "
                } else {
                    " games in "
                };
                assert_eq!(
                    threads_used(&o, timing),
                    1,
                    "{name} shard {k}: as SLURM_CPUS_PER_TASK says"
                );
            }
        }
        let o = run_script("merge.sh", &[out_arg], &[]);
        assert!(o.status.success(), "{name}: {}", text(&o));
        let merged = tree(&out.join("merged"));
        let mut expected = tree(&whole);
        // A merge does not resume: no spec; a sweep's merge keeps the
        // combinations' checks in the shards' folders.
        expected.retain(|(f, _)| {
            !f.ends_with("run.json") && !f.starts_with("combos") && !f.ends_with("-run.json")
        });
        assert_eq!(merged, expected, "{name}: the unsharded run's files");
        // A merge run again (a requeued merge job) replaces the last one.
        let o = run_script("merge.sh", &[out_arg], &[]);
        assert!(o.status.success(), "{name}: {}", text(&o));
        assert_eq!(tree(&out.join("merged")), expected, "{name}");
        assert!(!out.join("merged.tmp").exists());
    }
}

#[test]
fn the_array_script_refuses_what_is_not_an_array_task() {
    for (env, says) in [
        (vec![], "not a task of a Slurm job array"),
        (
            slurm_task("0", "4"),
            "shard 0/4: task ids are the shard numbers",
        ),
        (slurm_task("5", "4"), "shard 5/4"),
        (
            vec![("JOB_COMPLETION_INDEX", "2".to_string())],
            "set MURUS_SHARDS",
        ),
    ] {
        let o = run_script("shard.sh", &["out", "selfplay", "standard"], &env);
        assert_eq!(o.status.code(), Some(2), "{env:?}: {}", text(&o));
        assert!(stderr(&o).contains(says), "{env:?}: {}", stderr(&o));
    }
    let o = run_script(
        "shard.sh",
        &["out", "match", "standard"],
        &slurm_task("1", "2"),
    );
    assert!(
        stderr(&o).contains("the subcommand must be selfplay, balance, sweep or report"),
        "{}",
        stderr(&o)
    );
    let o = run_script("merge.sh", &["no/such/run"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains("`no/such/run`: no such folder"),
        "{}",
        stderr(&o)
    );
}

/// The acceptance test of part 4 of issue 22: a sharded run through the
/// shipped array script, one shard stopped by SIGTERM (a time limit,
/// `scancel`, preemption) and one killed by SIGKILL mid-run, both run
/// again by the same script (a requeue), merged by the merge script: the
/// files of the unsharded run, byte for byte.
#[cfg(unix)]
#[test]
fn a_sharded_run_survives_sigterm_sigkill_and_requeue_through_the_shipped_scripts() {
    let args = [
        "selfplay",
        "standard",
        "--games",
        "400",
        "--bots",
        "greedy,alphabeta:400",
        "--seed",
        "11",
    ];
    let tmp = TempDir::new("acceptance");
    let whole = tmp.join("whole");
    let o = run_in(&args, &whole, &[]);
    assert!(o.status.success(), "{}", text(&o));
    let out = tmp.join("run");
    let out_arg = out.to_str().unwrap();
    let mut shard_args = vec![out_arg];
    shard_args.extend(args);
    let task = |k: &str| {
        let env = slurm_task(k, "4");
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let mut c = script("shard.sh", &shard_args, &env);
        c.stdout(Stdio::piped()).stderr(Stdio::piped());
        c.spawn().expect("bash runs the script")
    };
    // Shards 2 and 3 are stopped mid-run, once their first games are on
    // disk (the script has handed over to murus by then: exec).
    let stop = |k: &str, name: &str| {
        let mut child = task(k);
        wait_for_lines(&mut child, &out.join(format!("shard-{k}/games.jsonl")), 3);
        assert!(
            child.try_wait().unwrap().is_none(),
            "shard {k} ended before it could be stopped: give it more games"
        );
        signal(&child, name);
        finish(child)
    };
    let term = stop("2", "TERM");
    let kill = stop("3", "KILL");
    assert_eq!(term.status.code(), Some(130), "{}", text(&term));
    assert_eq!(
        kill.status.code(),
        None,
        "killed by a signal: {}",
        text(&kill)
    );
    let stopped = report(&out.join("shard-2"));
    assert_eq!(stopped["interrupted"], true, "{stopped}");
    assert!(stopped["games"].as_u64().unwrap() < 100, "{stopped}");
    assert!(
        !out.join("shard-3/report.json").exists(),
        "SIGKILL: no report"
    );
    // Shards 1 and 4 run to their end.
    for k in ["1", "4"] {
        let o = run_script("shard.sh", &shard_args, &slurm_task(k, "4"));
        assert!(o.status.success(), "shard {k}: {}", text(&o));
    }
    // The merge refuses what is not the whole run, and writes nothing.
    let o = run_script("merge.sh", &[out_arg], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        stderr(&o).contains(
            "shard-3: no report.json: not the --out folder of a run's shard that ran to its end"
        ),
        "{}",
        stderr(&o)
    );
    assert!(!out.join("merged").exists());
    // The requeue: the same script, the same variables. Each shard goes on
    // with the games it kept.
    for (k, gone) in [("2", "SIGTERM"), ("3", "SIGKILL")] {
        let o = run_script("shard.sh", &shard_args, &slurm_task(k, "4"));
        assert!(o.status.success(), "shard {k} after {gone}: {}", text(&o));
        assert!(
            stderr(&o).contains(" were already played"),
            "shard {k} after {gone}: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("starting it"), "shard {k}: resumed");
    }
    let o = run_script("merge.sh", &[out_arg], &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        run_files(&out.join("merged")),
        run_files(&whole),
        "the merged files are the unsharded run's, byte for byte"
    );
}

/// A designer's report through the cluster scripts: three array tasks,
/// then the merge, which finds the report's shards by their folders and
/// writes the report of one run (its figures but for the timings).
#[test]
fn the_cluster_scripts_shard_and_merge_a_designers_report() {
    let small = "variants/sweeps/standard-small.mg";
    let tmp = TempDir::new("scripts-report");
    let whole = tmp.join("whole");
    let o = murus(&["report", small, "--quick", "--out", whole.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let out = tmp.join("run");
    let out_arg = out.to_str().unwrap();
    for k in ["1", "2", "3"] {
        let o = run_script(
            "shard.sh",
            &[out_arg, "report", small, "--quick"],
            &slurm_task(k, "3"),
        );
        assert!(o.status.success(), "shard {k}: {}", text(&o));
    }
    // Only whole: no partial merge of a report.
    let partial = [("MURUS_ALLOW_PARTIAL", "1".to_string())];
    let o = run_script("merge.sh", &[out_arg], &partial);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("merges only whole"), "{}", text(&o));
    let o = run_script("merge.sh", &[out_arg], &[]);
    assert!(o.status.success(), "{}", text(&o));
    let figures = |dir: &Path| {
        let text = std::fs::read_to_string(dir.join("report.json")).unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v.as_object_mut().unwrap().remove("timing");
        v
    };
    assert_eq!(figures(&out.join("merged")), figures(&whole));
    assert!(out.join("merged/index.html").is_file());
}
