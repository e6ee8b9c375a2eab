//! Runs the perft data files in `tests/perft/` (one per variant, named after
//! it). Counts above `QUICK_LIMIT` nodes run only with `--ignored`.
//!
//! The generator's loops come in a plain copy and one compiled for
//! `popcnt`/`bmi1`/`bmi2` ([`murus_engine::simd`]): the counts are checked on
//! the path the process chose (CI runs this file once more with
//! `MURUS_NO_SIMD=1`, which forces the plain one) and on each copy.

use std::path::PathBuf;

use murus_engine::Variant;
use murus_engine::simd::{self, Path};

const QUICK_LIMIT: u64 = 3_000_000;

struct Case {
    file: String,
    line: usize,
    position: String,
    depth: u32,
    nodes: u64,
}

fn cases() -> Vec<Case> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/perft");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/perft exists")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut position = None;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(p) = line.strip_prefix("position ") {
                position = Some(p.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("perft ") {
                let mut it = rest.split_whitespace().map(|n| {
                    n.parse::<u64>()
                        .unwrap_or_else(|_| panic!("{file}:{}: bad number", i + 1))
                });
                let (depth, nodes) = (it.next().unwrap() as u32, it.next().unwrap());
                let position = position
                    .clone()
                    .unwrap_or_else(|| panic!("{file}:{}: perft before position", i + 1));
                out.push(Case {
                    file: file.clone(),
                    line: i + 1,
                    position,
                    depth,
                    nodes,
                });
            } else {
                panic!("{file}:{}: cannot read `{line}`", i + 1);
            }
        }
    }
    assert!(out.len() >= 10, "the perft suite is suspiciously small");
    out
}

/// Runs the cases (the deep ones or the quick ones) on `path`, or on the
/// path the process chose where `None`.
fn run(deep: bool, path: Option<Path>) {
    let mut ran = 0;
    for c in cases() {
        if (c.nodes > QUICK_LIMIT) != deep {
            continue;
        }
        let name = c.file.trim_end_matches(".perft");
        let v = Variant::builtin(name)
            .unwrap_or_else(|| panic!("{}: no shipped variant `{name}`", c.file));
        let pos = if c.position == "start" {
            v.start()
        } else {
            v.parse_position(&c.position)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", c.file, c.line))
        };
        let nodes = match path {
            Some(path) => v.perft_on(&pos, c.depth, path),
            None => v.perft(&pos, c.depth),
        };
        assert_eq!(
            nodes, c.nodes,
            "{}:{}: perft({}) of {} on {path:?}",
            c.file, c.line, c.depth, c.position
        );
        ran += 1;
    }
    assert!(ran > 0, "no perft case ran");
}

#[test]
fn perft_counts_match_the_data_files() {
    run(false, None);
}

#[test]
fn the_plain_copy_counts_the_data_files() {
    run(false, Some(Path::Plain));
}

#[test]
fn the_popcnt_copy_counts_the_data_files() {
    // On a CPU without popcnt, bmi1 and bmi2 this is the plain copy again.
    run(false, Some(Path::Popcnt));
}

#[test]
fn murus_no_simd_forces_the_plain_path() {
    let forced = std::env::var_os("MURUS_NO_SIMD").is_some_and(|v| !v.is_empty() && v != "0");
    let want = if !forced && simd::supported() {
        Path::Popcnt
    } else {
        Path::Plain
    };
    assert_eq!(simd::path(), want, "MURUS_NO_SIMD set: {forced}");
}

/// The whole file again in a child process with `MURUS_NO_SIMD=1`, so that
/// `cargo test` runs the plain copy the way a CPU without popcnt does:
/// chosen once, for every call, by the switch a user sets.
#[test]
fn with_murus_no_simd_set_the_file_passes_on_the_plain_path() {
    if std::env::var_os("MURUS_NO_SIMD").is_some() {
        return; // already the child
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--skip", "with_murus_no_simd_set", "--test-threads", "1"])
        .env("MURUS_NO_SIMD", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the plain path failed:\n{text}");
    assert!(
        text.contains("murus_no_simd_forces_the_plain_path ... ok")
            && text.contains("perft_counts_match_the_data_files ... ok"),
        "the child did not run the file's tests:\n{text}"
    );
}

#[test]
#[ignore = "deep perft: run in release with --ignored"]
fn deep_perft_counts_match_the_data_files() {
    run(true, None);
}

#[test]
fn every_shipped_variant_has_a_perft_file_with_mid_game_positions() {
    let all = cases();
    for (name, _) in murus_engine::BUILTIN {
        let file = format!("{name}.perft");
        let positions: std::collections::BTreeSet<&str> = all
            .iter()
            .filter(|c| c.file == file)
            .map(|c| c.position.as_str())
            .collect();
        assert!(positions.contains("start"), "{file}: no start position");
        assert!(
            positions.len() >= 3,
            "{file}: wants the start and at least two mid-game positions"
        );
    }
}
