//! Drives the real `murus` binary: the command-line contract other tools
//! depend on (issue 2), and clean failures on bad input.

use crate::util::{json, murus, root, stderr, stdout};

#[test]
fn check_accepts_every_shipped_variant() {
    let mut files: Vec<String> = std::fs::read_dir(root().join("variants"))
        .unwrap()
        .map(|e| format!("variants/{}", e.unwrap().file_name().to_string_lossy()))
        // Rules files; their trained evaluations (`.eval`) sit beside them.
        .filter(|f| f.ends_with(".mg"))
        .collect();
    files.sort();
    assert!(files.len() >= 12);
    let args: Vec<&str> = std::iter::once("check")
        .chain(files.iter().map(String::as_str))
        .collect();
    let o = murus(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        out.lines().count(),
        files.len(),
        "one summary line per file"
    );
    assert!(out.contains("variants/standard.mg: ok: standard"));
    assert!(out.contains("board hex 5 with 61 cells, 3 players"));
}

#[test]
fn check_reports_errors_like_rustc_and_fails() {
    let bad = "crates/murus-dsl/tests/errors/unknown-edge.mg";
    let o = murus(&["check", "variants/standard.mg", bad]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{bad}:5:57: error: unknown edge `north`")),
        "{err}"
    );
    assert!(err.contains("^^^^^"), "{err}");
    assert!(stdout(&o).contains("variants/standard.mg: ok"));
    assert!(stdout(&o).contains(&format!("{bad}: 1 error")));
}

/// A file's summary line says how many errors it has and, on the same
/// line, where the first is and what it says.
#[test]
fn check_summarises_a_file_with_errors_and_its_first_on_one_line() {
    let bad = "crates/murus-dsl/tests/errors/adjudicate-for-unknown-without-plies.mg";
    let o = murus(&["check", bad, "variants/small.mg"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        format!("{bad}: 2 errors, first {bad}:14:22: `adjudicate` without a ply cap")
    );
    assert!(lines[1].starts_with("variants/small.mg: ok"), "{out}");
    assert_eq!(lines.len(), 2, "{out}");
    // The diagnostics themselves, both, on stderr.
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{bad}:14:37: error: unknown player `x`")),
        "{err}"
    );
}

#[test]
fn check_of_a_missing_file_fails_with_its_name() {
    let o = murus(&["check", "no/such/file.mg"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no/such/file.mg"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("did you mean"), "{}", stderr(&o));
}

/// A misspelt file name gets the closest file of its folder, a misspelt
/// name the closest shipped variant; nothing close, no guess.
#[test]
fn a_misspelt_variant_or_file_gets_did_you_mean() {
    let o = murus(&["check", "variants/standrd.mg"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("`variants/standrd.mg`: No such file or directory")
            && stderr(&o).contains("; did you mean `variants/standard.mg`?\n"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "variants/standrd.mg: cannot be read\n");
    let o = murus(&["show", "variants/hx.mg"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).ends_with("; did you mean `variants/hex.mg`?\n"),
        "{}",
        stderr(&o)
    );
    // No such file in the folder, but a shipped variant of that name.
    let o = murus(&["moves", "standrd.mg"]);
    assert!(
        stderr(&o).ends_with("; did you mean the shipped variant `standard`?\n"),
        "{}",
        stderr(&o)
    );
    let o = murus(&["perft", "escpe4", "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).ends_with("; did you mean `escape4`?\n"),
        "{}",
        stderr(&o)
    );
    let o = murus(&["show", "nothere"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stderr(&o).contains("did you mean"), "{}", stderr(&o));
}

#[test]
fn show_draws_the_standard_start() {
    let o = murus(&["show", "standard"]);
    assert!(o.status.success());
    insta::assert_snapshot!("show_standard", stdout(&o));
}

#[test]
fn show_draws_hex_boards_with_offset_rows() {
    let o = murus(&["show", "hex3-escape"]);
    assert!(o.status.success());
    insta::assert_snapshot!("show_hex3_escape", stdout(&o));
}

#[test]
fn moves_lists_the_issue_position_exactly() {
    let o = murus(&[
        "moves",
        "standard",
        "--position",
        "g21g2g21g1g11/2g14g1/3g1g1g11g2/6g11/r2r14r2r2/r1r1r12r1r2r1/1r26 r",
    ]);
    assert!(o.status.success());
    let mut got: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    got.sort();
    let want =
        "a3-a1 a3-a5 a3-c1 a3-c3 a3-c5 b1-b3 b1-d1 b1-d3 g2-e2 g2-e4 g3-e1 g3-e3 g3xg4 h3-h1 h3xg4";
    assert_eq!(got.join(" "), want);
}

#[test]
fn moves_of_the_standard_start_default_to_the_start_position() {
    let o = murus(&["moves", "standard"]);
    assert_eq!(stdout(&o).lines().count(), 20);
}

/// `--moves` plays moves from the position first, as `analyze` and
/// `diagram` take them: the moves listed are those of the position
/// reached, and a move that cannot be played is named.
#[test]
fn moves_takes_moves_played_first() {
    let o = murus(&["moves", "standard", "--moves", "a1-a3", "h7-h5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let reached = json(&murus(&["replay", "standard", "a1-a3", "h7-h5", "--json"]));
    let position = reached["position"].as_str().unwrap();
    let there = murus(&["moves", "standard", "--position", position]);
    assert_eq!(stdout(&o), stdout(&there));
    assert_ne!(stdout(&o), stdout(&murus(&["moves", "standard"])));
    // From a position given, into the end of the game: no moves, a note.
    let o = murus(&[
        "moves",
        "standard",
        "--position",
        "7g2/8/r27/8/8/8/1r26 r",
        "--moves",
        "a5-a7",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "note: no legal moves: the game is over: Romans win by breakthrough\n"
    );
    let o = murus(&["moves", "standard", "--moves", "a1-a3", "a1-a3"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: --moves: move 2 `a1-a3`: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn perft_json_has_the_contract_keys() {
    let o = murus(&["perft", "advanced", "3", "--json"]);
    assert!(o.status.success());
    let j = json(&o);
    assert_eq!(j["depth"], 3);
    assert_eq!(j["nodes"], 28416);
    assert!(j["seconds"].as_f64().unwrap() >= 0.0);
    assert!(j["nodes_per_second"].as_f64().unwrap() >= 0.0);
}

#[test]
fn perft_divide_sums_to_the_total() {
    let o = murus(&["perft", "standard", "3", "--divide"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let sum: u64 = out
        .lines()
        .filter_map(|l| l.split_once(": "))
        .filter(|(m, _)| m.contains('-') || m.contains('x'))
        .map(|(_, n)| n.trim().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 6960, "{out}");
}

#[test]
fn replay_json_reports_a_breakthrough() {
    // A Roman tower on a5 with a clear path; the Gauls have a tower on h7.
    let pos = "7g2/8/r27/8/8/8/1r26 r";
    let o = murus(&[
        "replay",
        "standard",
        "--position",
        pos,
        "b1-b3",
        "h7-h5",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["plies"], 2);
    assert_eq!(j["status"], "ongoing");
    assert_eq!(j["winner"], serde_json::Value::Null);
    assert_eq!(j["position"], "8/7g1/r26g1/8/1r16/1r16/8 r");
    let o = murus(&[
        "replay",
        "standard",
        "--position",
        pos,
        "b1-b3",
        "h7-h5",
        "a5-a7",
        "--json",
    ]);
    let j = json(&o);
    assert_eq!(j["status"], "over");
    assert_eq!(j["winner"], "r");
    assert_eq!(j["reason"], "breakthrough");
    assert_eq!(j["by"], "sow");
    assert_eq!(j["plies"], 3);
}

#[test]
fn replay_ends_with_the_engines_outcome_sentence() {
    let o = murus(&[
        "replay",
        "standard",
        "--position",
        "7g2/8/r27/8/8/8/1r26 r",
        "a5-a7",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Game over: Romans win by breakthrough\n"),
        "{out}"
    );
    assert!(out.ends_with("\nRomans win by breakthrough\n"), "{out}");
}

#[test]
fn replay_stops_at_an_illegal_move_naming_ply_move_and_legal_moves() {
    let o = murus(&["replay", "standard", "a1-a3", "a1-a5"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("ply 2"), "{err}");
    assert!(err.contains("a1-a5"), "{err}");
    assert!(err.contains("legal moves: a7-c5"), "{err}");
}

#[test]
fn replay_rejects_malformed_notation() {
    let o = murus(&["replay", "advanced", "d1-d3", "e7*"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("ply 2: `e7*`"), "{}", stderr(&o));
}

#[test]
fn every_variant_shows_moves_perfts_and_replays() {
    for name in [
        "standard",
        "houdini",
        "escape",
        "checkerboard",
        "small",
        "large",
        "advanced",
        "advanced-delayed",
        "pie",
        "hex",
        "hex3-escape",
        "escape4",
        "ballista",
        "hill",
        "attrition",
        "siege",
        "alesia",
        "cavalry",
    ] {
        assert!(murus(&["show", name]).status.success(), "{name}");
        let moves = stdout(&murus(&["moves", name]));
        let first = moves
            .lines()
            .next()
            .unwrap_or_else(|| panic!("{name}: no moves"));
        let o = murus(&["replay", name, first, "--json"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert_eq!(json(&o)["plies"], 1, "{name}");
        let o = murus(&["perft", name, "2", "--json"]);
        assert!(json(&o)["nodes"].as_u64().unwrap() > 0, "{name}");
    }
}

#[test]
fn variants_can_be_given_as_files() {
    let o = murus(&["perft", "variants/small.mg", "2", "--json"]);
    assert_eq!(json(&o)["nodes"], 289);
}

#[test]
fn an_unknown_variant_lists_the_shipped_ones() {
    let o = murus(&["show", "standrad"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("unknown variant `standrad`"), "{err}");
    assert!(err.contains("standard, houdini"), "{err}");
    assert!(err.contains("did you mean `standard`?"), "{err}");
}

#[test]
fn a_variant_file_with_errors_is_reported_before_use() {
    let o = murus(&["moves", "crates/murus-dsl/tests/errors/one-player.mg"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("one-player.mg:"), "{}", stderr(&o));
}

#[test]
fn malformed_positions_fail_with_a_column() {
    let o = murus(&[
        "show",
        "standard",
        "--position",
        "g2g2g2g2g2g2g2g2/9/8/8/8/8/8 r",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("invalid position string at column 18"),
        "{err}"
    );
    let o = murus(&["moves", "escape4", "--position", "8/8/8/8/8/8/8/8 q"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("`r`, `b`, `g` or `h`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_arguments_exit_non_zero_without_a_panic() {
    for args in [
        &["perft", "standard", "x"][..],
        &["perft"][..],
        &["frobnicate"][..],
        &["show", "standard", "--position"][..],
    ] {
        let o = murus(args);
        assert!(!o.status.success(), "{args:?}");
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn bench_yardstick_runs_the_hand_written_perft_alone() {
    // Hidden, for measuring the yardstick apart (docs/speed.md).
    for (depth, nodes) in [("0", "1"), ("1", "20"), ("3", "6960")] {
        let o = murus(&["bench", "yardstick", depth]);
        assert!(o.status.success());
        assert_eq!(
            stdout(&o).trim(),
            format!("hand-written perft({depth}) = {nodes}")
        );
    }
}

#[test]
fn bench_quick_reports_both_rule_sets_and_the_ratio() {
    let o = murus(&["bench", "--quick"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for want in ["standard", "advanced", "perft", "games/s", "hand-written"] {
        assert!(out.contains(want), "missing `{want}` in\n{out}");
    }
    // Every section, its counts checked: the perft counts are the known
    // ones (quick: depths 4 and 3).
    for want in [
        "standard     perft(4)         121104 ",
        "advanced     perft(3)          28416 ",
        "hand-std     perft(4)         121104 ",
        "standard       random           2000 ",
        "instruction set: ",
        "(target: at least 0.9x: ",
        "(target: at least 0.8x: ",
        "(lab self-play, 2 threads)",
        "self-play scaling: 2 threads give ",
        "interleaved pairs (target: at least 1.8x: ",
        "lab self-play vs hand-written random games: ",
        "metrics cost at random (random, 2000 games): ",
        "metrics cost at easy (greedy, 100 games): ",
        "metrics cost at medium (alphabeta:5000, 2 games): ",
        "metrics cost at hard (alphabeta:50000, 1 game): ",
        "(alphabeta:20000 from the start, depth ",
        "alpha-beta, 50000 nodes from each of 4 positions, median of 1 run(s):",
        "hex3-escape trained/generic nodes a second: ",
    ] {
        assert!(out.contains(want), "missing `{want}` in\n{out}");
    }
    // The proof search to 4×4's proof, its value checked, on 1 and 2 threads.
    for want in [
        "small 4x4 ",
        " df-pn x1 ",
        " df-pn x2 ",
        "(df-pn to the proof, one thread)",
        "(df-pn to the proof, 2 threads: ",
    ] {
        assert!(out.contains(want), "missing `{want}` in\n{out}");
    }
}

/// The Romans' tower on a7 broke through: the game is over, the Gauls to
/// move.
const FINISHED: &str = "r16g2/r17/8/8/8/8/1r26 g";

#[test]
fn moves_of_a_finished_game_are_none_with_a_note_saying_why() {
    let o = murus(&["moves", "standard", "--position", FINISHED]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "", "no moves");
    assert_eq!(
        stderr(&o),
        "note: no legal moves: the game is over: Romans win by breakthrough\n"
    );
    // An ongoing game has no note.
    let o = murus(&["moves", "standard"]);
    assert_eq!(stderr(&o), "");
}

#[test]
fn perft_of_a_finished_game_counts_nothing_with_a_note_saying_why() {
    let o = murus(&["perft", "standard", "2", "--position", FINISHED]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("perft(2) = 0  ("), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("the game is over: Romans win by breakthrough"),
        "{}",
        stderr(&o)
    );
    let o = murus(&["perft", "standard", "3", "--position", FINISHED, "--json"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(json(&o)["nodes"], 0);
    assert!(stderr(&o).contains("the game is over"), "{}", stderr(&o));
}

#[test]
fn a_move_after_the_end_is_refused_naming_the_outcome() {
    // Replaying up to the end is an answer: the outcome.
    let o = murus(&["replay", "standard", "--position", FINISHED]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).ends_with("Romans win by breakthrough\n"),
        "{}",
        stdout(&o)
    );
    // A move past it is an error that says the game is over and why.
    let o = murus(&["replay", "standard", "--position", FINISHED, "h7-h5"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: ply 1: `h7-h5` cannot be played: the game is over: Romans win by breakthrough\n"
    );
    let o = murus(&[
        "analyze",
        "standard",
        "--position",
        "7g2/8/r27/8/8/8/1r26 r",
        "--moves",
        "a5-a7",
        "h7-h5",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(
            "move 2 `h7-h5`: `h7-h5` cannot be played: the game is over: Romans win by breakthrough"
        ),
        "{}",
        stderr(&o)
    );
}

/// A depth no perft can reach is refused before anything is counted (it
/// used to abort, allocating a move list a ply), and `--divide` needs a
/// move to divide by (at depth 0 it reported perft(0) = 20).
#[test]
fn perft_refuses_a_depth_it_cannot_count() {
    let o = murus(&["perft", "standard", "4000000000"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "error: perft DEPTH must be from 0 to 64, not 4000000000\n"
    );
    let o = murus(&["perft", "standard", "0", "--divide"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("--divide needs a DEPTH of at least 1"),
        "{}",
        stderr(&o)
    );
    let o = murus(&["perft", "standard", "0"]);
    assert!(stdout(&o).starts_with("perft(0) = 1  ("), "{}", stdout(&o));
}
