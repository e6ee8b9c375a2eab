//! What every long run shares: `--seed`, `--threads`, `--out`, `--resume`
//! and `--json` with one help text and one default each, and one progress
//! bar, drawn on a terminal and never under `--json`.

use crate::util::{TempDir, json, murus, stderr, stdout, text};

/// The commands that keep a run and resume it.
const LONG_RUNS: [&str; 6] = ["selfplay", "match", "balance", "sweep", "train", "report"];

/// The help of option `--NAME` in `murus COMMAND --help`: its lines up to
/// the next option's, joined.
fn option_help(command: &str, name: &str) -> String {
    let o = murus(&[command, "--help"]);
    assert!(o.status.success(), "{}", text(&o));
    let help = stdout(&o);
    let mut lines = help.lines().skip_while(|l| {
        !l.trim_start().starts_with(&format!("--{name} ")) && l.trim() != format!("--{name}")
    });
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("no --{name} in `murus {command} --help`:\n{help}"));
    let mut out = vec![first.trim().to_string()];
    out.extend(
        lines
            .take_while(|l| !l.trim_start().starts_with('-') && !l.trim().is_empty())
            .map(|l| l.trim().to_string()),
    );
    // The column the help starts at depends on the command's longest
    // option: only the words count.
    out.join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_long_run_says_the_same_of_seed_threads_resume_and_json() {
    for name in ["seed", "threads", "resume", "json"] {
        let first = option_help(LONG_RUNS[0], name);
        for command in &LONG_RUNS[1..] {
            assert_eq!(
                option_help(command, name),
                first,
                "`murus {command} --help` says another thing of --{name}"
            );
        }
    }
    // One default: the CPUs this process may run on, as a scheduler grants.
    assert!(
        option_help("report", "threads").contains("SLURM_CPUS_PER_TASK"),
        "{}",
        option_help("report", "threads")
    );
    assert!(option_help("train", "json").contains("no progress bar"));
}

#[test]
fn resume_needs_out_where_a_run_has_no_default_place() {
    for args in [
        vec!["selfplay", "standard", "--games", "2", "--resume"],
        vec!["match", "standard", "random", "random", "--resume"],
        vec!["balance", "standard", "--resume"],
        vec!["sweep", "standard", "--resume"],
    ] {
        let o = murus(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(stderr(&o).contains("--out"), "{args:?}: {}", stderr(&o));
    }
}

/// A small training run of the standard game writing `out`.
fn small_training(out: &str) -> Vec<&str> {
    vec![
        "train",
        "standard",
        "--positions",
        "600",
        "--bot",
        "alphabeta:100",
        "--hidden",
        "4",
        "--epochs",
        "2",
        "--threads",
        "1",
        "--no-validate",
        "--out",
        out,
    ]
}

#[test]
fn train_json_prints_one_json_object_and_nothing_else() {
    let dir = TempDir::new("train-json");
    let file = dir.join("small.eval");
    let mut args = small_training(file.to_str().unwrap());
    args.push("--json");
    let o = murus(&args);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(stdout(&o).lines().count(), 1, "{}", stdout(&o));
    let answer = json(&o);
    assert_eq!(
        answer["wrote"][0].as_str(),
        Some(file.to_str().unwrap()),
        "{answer}"
    );
    assert!(answer["lines"].as_array().is_some_and(|l| !l.is_empty()));
    assert_eq!(answer["threads"], 1);
}

/// Whether a terminal's text shows a progress bar: indicatif's bar of
/// `█`, `░` or the like, or a line of `N/M games`.
fn shows_a_bar(terminal: &str) -> bool {
    terminal.contains('█')
        || terminal.contains('░')
        || terminal.contains("self-play positions")
        || terminal
            .split(['\r', '\n'])
            .any(|l| l.contains(" games") && l.contains("eta"))
}

#[cfg(unix)]
#[test]
fn on_a_terminal_a_long_run_draws_its_bar_and_under_json_none() {
    let dir = TempDir::new("terminal-bar");
    let selfplay = [
        "selfplay",
        "standard",
        "--bots",
        "alphabeta:300",
        "--games",
        "24",
        "--threads",
        "1",
    ];
    let Some(shown) = crate::util::on_terminal(&selfplay) else {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    };
    assert!(shows_a_bar(&shown), "no bar drawn:\n{shown}");
    let mut quiet = selfplay.to_vec();
    quiet.push("--json");
    let shown = crate::util::on_terminal(&quiet).unwrap();
    assert!(!shows_a_bar(&shown), "a bar under --json:\n{shown}");

    let one = dir.join("one.eval");
    let shown = crate::util::on_terminal(&small_training(one.to_str().unwrap())).unwrap();
    assert!(shows_a_bar(&shown), "no bar drawn:\n{shown}");
    let two = dir.join("two.eval");
    let mut quiet = small_training(two.to_str().unwrap());
    quiet.push("--json");
    let shown = crate::util::on_terminal(&quiet).unwrap();
    assert!(!shows_a_bar(&shown), "a bar under --json:\n{shown}");
    // The answer, and (from stderr) the timing note.
    assert!(
        shown
            .lines()
            .any(|l| serde_json::from_str::<serde_json::Value>(l.trim())
                .is_ok_and(|v| v["wrote"].is_array())),
        "{shown}"
    );
}
