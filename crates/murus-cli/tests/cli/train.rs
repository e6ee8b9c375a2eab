//! `murus train` and evaluation files, through the real binary.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::util::{TempDir, command, murus, repo, text};

/// A small, quick training run of the standard game into `out`.
fn small(out: &Path, threads: &str) -> Vec<String> {
    [
        "train",
        "standard",
        "--positions",
        "1500",
        "--bot",
        "alphabeta:150",
        "--hidden",
        "8",
        "--epochs",
        "3",
        "--seed",
        "5",
        "--threads",
        threads,
        "--no-validate",
        "--out",
        out.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn training_reproduces_byte_for_byte_and_its_file_plays() {
    let dir = TempDir::new("reproduce");
    let (one, two) = (dir.join("one.eval"), dir.join("two.eval"));
    let o = murus(&small(&one, "1"));
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("wrote"), "{}", text(&o));
    // The standard game has no catapults: no catapult weight is fitted or
    // named (one was reported, the start value that no position moved).
    let weights = text(&o)
        .lines()
        .find(|l| l.starts_with("Features' weights"))
        .unwrap_or_default()
        .to_string();
    assert!(weights.contains("material "), "{}", text(&o));
    assert!(!weights.contains("catapults "), "{weights}");
    assert!(!weights.contains("threats "), "{weights}");
    assert!(
        weights.contains("not in these rules: catapults, threats"),
        "{weights}"
    );
    let o = murus(&small(&two, "2"));
    assert!(o.status.success(), "{}", text(&o));
    let (a, b) = (std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    assert_eq!(&a[..8], b"MURUSEVL");
    assert_eq!(
        a, b,
        "the same seed gives the same file, whatever the threads"
    );

    // A second run into the same place needs --resume.
    let o = murus(&small(&one, "1"));
    assert!(!o.status.success());
    assert!(text(&o).contains("--resume"), "{}", text(&o));

    // Bots and analysis take the file.
    let spec = format!("alphabeta:300:eval={}", one.display());
    let o = murus(&["match", "standard", &spec, "alphabeta:300", "--games", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains(&spec), "{}", text(&o));
    let bot = format!("alphabeta:2000:eval={}", one.display());
    let o = murus(&["analyze", "standard", "--bot", &bot, "--json"]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn a_training_run_killed_with_sigkill_resumes_to_the_same_file() {
    let dir = TempDir::new("resume");
    let whole = dir.join("whole.eval");
    let o = murus(&small(&whole, "2"));
    assert!(o.status.success(), "{}", text(&o));

    let killed = dir.join("killed.eval");
    let args = small(&killed, "2");
    let mut child = command()
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let data = dir.join("killed.train").join("data.jsonl");
    let started = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&data)
            .unwrap_or_default()
            .matches('\n')
            .count();
        if lines >= 5 {
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "ended before 5 games");
        assert!(started.elapsed() < Duration::from_secs(120), "no games");
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "finished before it could be killed"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!killed.exists(), "killed before the file was written");
    let mut resumed = args.clone();
    resumed.push("--resume".into());
    let o = murus(&resumed);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        std::fs::read(&killed).unwrap(),
        std::fs::read(&whole).unwrap(),
        "the resumed run ends with the file of the uninterrupted one"
    );
}

#[test]
fn unusable_evaluation_files_fail_clearly() {
    let dir = TempDir::new("bad");
    let good = dir.join("good.eval");
    let o = murus(&small(&good, "2"));
    assert!(o.status.success(), "{}", text(&o));
    let bytes = std::fs::read(&good).unwrap();

    let truncated = dir.join("truncated.eval");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let mut flipped = bytes.clone();
    let last = flipped.len() - 20;
    flipped[last] ^= 1;
    let corrupt = dir.join("corrupt.eval");
    std::fs::write(&corrupt, flipped).unwrap();
    let mut later = bytes.clone();
    later[8..12].copy_from_slice(&9u32.to_le_bytes());
    let future = dir.join("future.eval");
    std::fs::write(&future, later).unwrap();

    let cases = [
        ("standard", &truncated, "truncated"),
        ("standard", &corrupt, "corrupt"),
        ("standard", &future, "version 9"),
        ("hex", &good, "trained on other rules"),
        ("standard", &dir.join("missing.eval"), "missing.eval"),
    ];
    for (variant, file, says) in cases {
        let spec = format!("alphabeta:200:eval={}", file.display());
        let o = murus(&["match", variant, &spec, "random", "--games", "2"]);
        assert!(!o.status.success(), "{variant} {spec}");
        let t = text(&o);
        assert!(t.contains(says), "{variant} {spec}: {t}");
        assert!(
            t.contains(&file.display().to_string()),
            "names the file: {t}"
        );
        assert!(!t.contains("panicked"), "{t}");
    }
    let o = murus(&["match", "standard", "random:eval=x.eval", "random"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("take an evaluation file"), "{}", text(&o));
    let o = murus(&["train", "escape4", "--positions", "0"]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("--positions must be at least 1"),
        "{}",
        text(&o)
    );
}

/// The unseen variant of `docs/ai.md`'s benchmark (its own board, stack limit
/// four and catapult range) trains, and its file is used beside the rules.
#[test]
fn a_rules_files_own_evaluation_beside_it_is_used_and_a_bad_one_is_named() {
    let dir = TempDir::new("beside");
    let rules = dir.join("mine.mg");
    let source = std::fs::read_to_string(repo("tests/unseen/ramparts.mg")).unwrap();
    std::fs::write(&rules, &source).unwrap();
    let r = rules.to_str().unwrap();
    let o = murus(&[
        "train",
        r,
        "--positions",
        "600",
        "--bot",
        "alphabeta:100",
        "--hidden",
        "4",
        "--epochs",
        "1",
        "--no-validate",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(dir.join("mine.eval").is_file(), "written beside the rules");
    let o = murus(&["analyze", r, "--bot", "alphabeta:500"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!text(&o).contains("warning"), "{}", text(&o));
    assert!(text(&o).contains("eval   trained: "), "{}", text(&o));
    // A comment is not a change of rules: the file still fits.
    std::fs::write(&rules, format!("{source}\n// edited\n")).unwrap();
    let o = murus(&["analyze", r, "--bot", "alphabeta:500"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!text(&o).contains("warning"), "{}", text(&o));
    // The rules change: the file no longer fits, and says so.
    std::fs::write(&rules, source.replace("repetition 3", "repetition 4")).unwrap();
    let o = murus(&["analyze", r, "--bot", "alphabeta:500"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("mine.eval") && text(&o).contains("trained on other rules"),
        "{}",
        text(&o)
    );
    assert!(text(&o).contains("eval   generic features"), "{}", text(&o));
}

#[test]
fn a_candidate_that_loses_its_validation_match_is_not_kept() {
    // A tiny network from little data against the shipped one, at equal
    // nodes: the sequential test rejects it, and so the weights; nothing
    // is written, and the command says why.
    let dir = TempDir::new("validate");
    let out = dir.join("weak.eval");
    let mut args = small(&out, "2");
    args.retain(|a| a != "--no-validate");
    args.extend(["--validate-nodes", "400"].map(String::from));
    let o = murus(&args);
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(
        t.contains("Validation of the network against the current evaluation"),
        "{t}"
    );
    assert!(t.contains("not better (H0)"), "{t}");
    assert!(
        t.contains("No candidate beat the current evaluation"),
        "{t}"
    );
    assert!(!out.exists());
    assert!(
        dir.join("weak.train")
            .join("candidate-network.eval")
            .is_file()
    );
}

/// Three and four players: a network with a row per (side to move,
/// player) is trained as with two, and bots (alpha-beta and MCTS) take the
/// file.
#[test]
fn a_four_player_variant_trains_a_network() {
    let dir = TempDir::new("four");
    let file = dir.join("e4.eval");
    let f = file.to_str().unwrap();
    let o = murus(&[
        "train",
        "escape4",
        "--positions",
        "600",
        "--bot",
        "alphabeta:100",
        "--no-validate",
        "--out",
        f,
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("Network of 32 hidden units"),
        "{}",
        text(&o)
    );
    assert!(text(&o).contains("(the network)"), "{}", text(&o));
    let bytes = std::fs::read(&file).unwrap();
    assert_eq!(bytes[8..12], 2u32.to_le_bytes(), "format version 2");
    let o = murus(&[
        "selfplay",
        "escape4",
        "--bots",
        &format!("alphabeta:300:eval={f},mcts:50:eval={f},random,greedy"),
        "--games",
        "4",
    ]);
    assert!(o.status.success(), "{}", text(&o));
}
