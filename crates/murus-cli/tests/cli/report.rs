//! `murus report`: the page and its figures written, a report killed by
//! SIGKILL and resumed ends with the same `report.json` as one never
//! stopped, and clear errors.

use crate::util::{TempDir, command, finish, murus, signal, stderr, stdout, wait_for_lines};

const SMALL: &str = "variants/sweeps/standard-small.mg";

/// `report.json` without the timings, the one part that depends on the
/// machine.
fn figures(dir: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("report.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v.as_object_mut()
        .unwrap()
        .remove("timing")
        .expect("a timing part");
    v
}

#[test]
fn a_report_writes_its_page_and_figures_and_says_each_answer() {
    let dir = TempDir::new("report");
    let out = dir.join("r");
    let o = murus(&[
        "report",
        SMALL,
        "--quick",
        "--seed",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for section in [
        "The rules:",
        "A representative game:",
        "Speed and size:",
        "Fairness by level:",
        "Depth: the skill ladder:",
        "Solved?:",
        "Game quality:",
        "The course of play:",
        "On the board:",
        "How games end:",
        "Openings:",
        "Tactics:",
    ] {
        assert!(text.contains(section), "{section}: {text}");
    }
    assert!(
        text.contains("Solved?: Solved: Romans win with perfect play"),
        "{text}"
    );
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("<h2>Depth: the skill ladder</h2>"));
    for heading in ["The course of play", "On the board", "How games end"] {
        assert!(html.contains(&format!("<h2>{heading}</h2>")), "{heading}");
    }
    let j = figures(&out);
    assert_eq!(
        j["solved"]["winning"],
        serde_json::json!(["b1-b3", "c1-c3"])
    );
    assert_eq!(j["seed"], 4);
    assert_eq!(
        j["command"],
        format!("murus report {SMALL} --quick --seed 4")
    );
    // The puzzles as a sheet and as records that read back.
    let sheet = std::fs::read_to_string(out.join("tactics.html")).unwrap();
    let puzzles = j["tactics"]["puzzles"].as_array().unwrap();
    assert!(!puzzles.is_empty());
    for (i, p) in puzzles.iter().enumerate() {
        assert!(sheet.contains("to play and win in"), "{sheet}");
        let file = out.join(format!("tactics/puzzle-{:02}.mgn", i + 1));
        let o = murus(&["record", "import", file.to_str().unwrap(), "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let record: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(record["start"], p["position"]);
        assert_eq!(record["moves"][0]["move"], p["solution"]);
    }
    // The stages went by on stderr.
    assert!(stderr(&o).contains("[7/7] solve"), "{}", stderr(&o));
    // Again without --resume: refused, the report kept.
    let again = murus(&[
        "report",
        SMALL,
        "--quick",
        "--seed",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        stderr(&again).contains("--resume") || stderr(&again).contains("resume it"),
        "{}",
        stderr(&again)
    );
    // With --resume and another seed: refused, naming the seed.
    let other = murus(&[
        "report",
        SMALL,
        "--quick",
        "--seed",
        "5",
        "--out",
        out.to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(other.status.code(), Some(1));
    assert!(stderr(&other).contains("seed"), "{}", stderr(&other));
    // With --resume and the same settings: the same figures, and --json
    // prints them.
    let same = murus(&[
        "report",
        SMALL,
        "--quick",
        "--seed",
        "4",
        "--out",
        out.to_str().unwrap(),
        "--resume",
        "--json",
    ]);
    assert!(same.status.success(), "{}", stderr(&same));
    let mut printed: serde_json::Value = serde_json::from_slice(&same.stdout).unwrap();
    printed.as_object_mut().unwrap().remove("timing");
    assert_eq!(printed, j);
}

#[test]
fn a_comparison_reports_on_both_and_marks_what_differs() {
    let source = std::fs::read_to_string(crate::util::repo(SMALL)).unwrap();
    let dir = TempDir::with(
        "report-compare",
        &[(
            "narrow.mg",
            &source
                .replace("3..6 default 4", "3..6 default 3")
                .replace("variant \"standard-small\"", "variant \"narrow\""),
        )],
    );
    let out = dir.join("r");
    let narrow = dir.join("narrow.mg");
    let o = murus(&[
        "report",
        SMALL,
        "--quick",
        "--out",
        out.to_str().unwrap(),
        "--compare",
        narrow.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Comparison: Beside"), "{}", stdout(&o));
    let j = figures(&out);
    let c = &j["comparison"];
    assert_eq!(c["other"], "narrow");
    assert_eq!(c["equal_footing"], true);
    let rows = c["rows"].as_array().unwrap();
    assert!(rows.len() >= 8, "{c}");
    // The other's own report and page, beside.
    let theirs = figures(&out.join("compare/narrow"));
    assert_eq!(
        rows[0]["other"],
        theirs["fairness"]["balance"]["levels"][3]["report"]["first_player_advantage"]["rate"]
    );
    assert!(out.join("compare/narrow/index.html").is_file());
    // Its page's tactics sheet and records too, as its page says.
    let their_page = std::fs::read_to_string(out.join("compare/narrow/index.html")).unwrap();
    if their_page.contains("<code>tactics.html</code>") {
        assert!(out.join("compare/narrow/tactics.html").is_file());
        assert!(out.join("compare/narrow/tactics").is_dir());
    }
    // 3×4 is a second-player win, 4×4 a first-player one.
    assert_eq!(theirs["solved"]["value"], "loss");
    assert!(
        std::fs::read_to_string(out.join("index.html"))
            .unwrap()
            .contains("Comparison with")
    );
}

#[cfg(unix)]
#[test]
fn a_report_killed_and_resumed_ends_as_one_never_stopped() {
    let dir = TempDir::new("report-kill");
    let whole = dir.join("whole");
    let o = murus(&[
        "report",
        SMALL,
        "--quick",
        "--threads",
        "1",
        "--out",
        whole.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let killed = dir.join("killed");
    let mut child = command()
        .args([
            "report",
            SMALL,
            "--quick",
            "--threads",
            "2",
            "--out",
            killed.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed late in the balance check's strongest level, so that the
    // run killed plays most of the check and the resumed one little.
    wait_for_lines(
        &mut child,
        &killed.join("balance/levels/random/games.jsonl"),
        1,
    );
    let balance_began = std::time::Instant::now();
    wait_for_lines(
        &mut child,
        &killed.join("balance/levels/hard/games.jsonl"),
        80,
    );
    signal(&child, "KILL");
    let first_share = balance_began.elapsed().as_secs_f64();
    let _ = finish(child);
    assert!(!killed.join("report.json").exists(), "no report yet");
    // The killed run's time in each stage, kept as it went.
    let kept: std::collections::BTreeMap<String, f64> = serde_json::from_str(
        &std::fs::read_to_string(killed.join("parts/timing.json")).expect("parts/timing.json"),
    )
    .unwrap();
    let o = murus(&[
        "report",
        SMALL,
        "--quick",
        "--threads",
        "2",
        "--out",
        killed.to_str().unwrap(),
        "--resume",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(figures(&killed), figures(&whole));
    // The time of each stage sums both runs': at least the killed run's
    // share (less the last quarter second, which a kill may lose).
    let text = std::fs::read_to_string(killed.join("report.json")).unwrap();
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let seconds = &report["timing"]["seconds"];
    assert!(
        kept.contains_key("speed") && kept.contains_key("balance"),
        "{kept:?}"
    );
    for (stage, before) in &kept {
        let total = seconds[stage]
            .as_f64()
            .unwrap_or_else(|| panic!("{stage}: {seconds}"));
        assert!(total >= before - 0.01, "{stage}: {total} < {before} kept");
    }
    let balance = seconds["balance"].as_f64().unwrap();
    assert!(
        balance >= first_share - 0.3,
        "balance: {balance} s, but the killed run alone spent {first_share:.2} s in it"
    );
    // Those figures include the course of play, read from the kept games.
    for section in ["curves", "board", "endings"] {
        assert!(figures(&whole)[section].is_object(), "{section}");
    }

    // The same report in two shards (a cluster's two jobs), then merged:
    // the same figures again, and the page.
    let mut shards = Vec::new();
    for k in 1..=2 {
        let shard = dir.join(format!("shard{k}"));
        let o = murus(&[
            "report",
            SMALL,
            "--quick",
            "--shard",
            &format!("{k}/2"),
            "--out",
            shard.to_str().unwrap(),
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let printed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(printed["shard"], format!("{k}/2"));
        assert!(
            !shard.join("report.json").exists(),
            "a shard writes no report"
        );
        shards.push(shard.to_str().unwrap().to_string());
    }
    let merged = dir.join("merged");
    let only_one = murus(&[
        "report",
        "--merge",
        &shards[1],
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(only_one.status.code(), Some(1));
    assert!(
        stderr(&only_one).contains("shard 1/2 is missing"),
        "{}",
        stderr(&only_one)
    );
    // The merge needs only the folders: the shards say what they were.
    let o = murus(&[
        "report",
        "--merge",
        &shards[1],
        &shards[0],
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Solved?: "), "{}", stdout(&o));
    assert_eq!(figures(&merged), figures(&whole));
    assert!(merged.join("index.html").is_file());
}

#[test]
fn bad_input_is_a_clear_error() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["report", SMALL, "--compare", "nosuch"],
            "--compare: unknown variant",
        ),
        (&["report", "nosuch", "--quick"], "unknown variant"),
        (&["report", SMALL, "--threads", "0"], "--threads"),
        (
            &["report", SMALL, "--quick", "--deep"],
            "cannot be used with",
        ),
        (
            &["report", SMALL, "--shard", "3/2", "--out", "x"],
            "--shard 3/2: K must be from 1 to N",
        ),
        (&["report", SMALL, "--shard", "1/2"], "--out"),
        (
            &["report", "--merge", "nothere"],
            "`nothere`: no such folder",
        ),
        (
            &["report", SMALL, "--merge", "nothere"],
            "cannot be used with",
        ),
    ];
    for (args, expected) in cases {
        let o = murus(args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(expected), "{args:?}: {}", stderr(&o));
    }
}

/// The report's first line on stderr, from a report started with
/// `SLURM_CPUS_PER_TASK` set to `cpus` (or unset), killed once it is said.
fn report_header(cpus: Option<&str>) -> String {
    let dir = TempDir::new(&format!("report-threads-{}", cpus.unwrap_or("all")));
    let log = dir.join("stderr");
    let mut c = command();
    c.args(["report", SMALL, "--quick", "--out"])
        .arg(dir.join("r"))
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap());
    match cpus {
        Some(n) => c.env("SLURM_CPUS_PER_TASK", n),
        None => c.env_remove("SLURM_CPUS_PER_TASK"),
    };
    let mut child = c.spawn().unwrap();
    wait_for_lines(&mut child, &log, 1);
    signal(&child, "KILL");
    let _ = finish(child);
    let text = std::fs::read_to_string(&log).unwrap();
    text.lines().next().unwrap().to_string()
}

#[test]
fn a_reports_threads_default_to_the_cpus_a_scheduler_grants() {
    let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    let all = report_header(None);
    assert!(all.contains(&format!(" on {cpus} thread(s)")), "{all}");
    let one = report_header(Some("1"));
    assert!(one.contains(" on 1 thread(s)"), "{one}");
    assert!(
        one.starts_with("report of standard-small at --quick, seed 1"),
        "{one}"
    );
}
