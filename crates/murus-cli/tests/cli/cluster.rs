//! Runs that survive a cluster: one resume rule for every lab command,
//! SIGTERM like Ctrl-C, the threads a scheduler grants, merges that miss
//! shards, and the shipped scripts of `scripts/cluster/`, run with the
//! variables Slurm and Kubernetes set.

use std::path::Path;
use std::process::Output;

use crate::util::{TempDir, murus, stderr, stdout, text};

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
