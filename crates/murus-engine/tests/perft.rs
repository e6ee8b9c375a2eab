//! Runs the perft data files in `tests/perft/` (one per variant, named after
//! it). Counts above `QUICK_LIMIT` nodes run only with `--ignored`.

use std::path::PathBuf;

use murus_engine::Variant;

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

fn run(deep: bool) {
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
        assert_eq!(
            v.perft(&pos, c.depth),
            c.nodes,
            "{}:{}: perft({}) of {}",
            c.file,
            c.line,
            c.depth,
            c.position
        );
        ran += 1;
    }
    assert!(ran > 0, "no perft case ran");
}

#[test]
fn perft_counts_match_the_data_files() {
    run(false);
}

#[test]
#[ignore = "deep perft: run in release with --ignored"]
fn deep_perft_counts_match_the_data_files() {
    run(true);
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
