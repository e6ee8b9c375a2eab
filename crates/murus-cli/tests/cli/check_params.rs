//! `murus check` on rule files with parameters, driving the real binary:
//! the parameters in the summary line, `--set`, and clear failures.

use std::process::Output;

use crate::util::{TempDir, murus_in, stderr, stdout};

const SIZED: &str = r##"variant "sized"
param files = 7..9 default 8
param ranks = 6, 7, 8 default 7
board rect $files x $ranks
player "Romans" { letter r colour "#e8dcc0" home rank 1 forward n }
player "Gauls" { letter g colour "#5b3a29" home rank $ranks forward s }
setup { r 2 on rank 1  g 2 on rank $ranks }
stack limit 2
sow { heights 2 directions all onto empty, own 1 }
win { breakthrough immediate stalemate loses }
"##;

/// Runs `murus ARGS` in a fresh folder of its own (named after `name`)
/// holding `files`.
fn check_in(name: &str, files: &[(&str, &str)], args: &[&str]) -> Output {
    let dir = TempDir::with(name, files);
    murus_in(&dir, args)
}

#[test]
fn check_lists_the_parameters_with_the_default_combination() {
    let o = check_in(
        "params-default",
        &[("sized.mg", SIZED)],
        &["check", "sized.mg"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "sized.mg: ok: sized (sized), board 8x7 with 56 cells, 2 players, stack limit 2; \
         params: files = 7..9 (default 8); ranks = 6..8 (default 7)\n"
    );
    assert_eq!(stderr(&o), "");
}

#[test]
fn check_set_checks_one_combination() {
    let o = check_in(
        "params-set",
        &[("sized.mg", SIZED)],
        &["check", "sized.mg", "--set", "files=9", "--set", "ranks=8"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "sized.mg: ok: sized (sized), board 9x8 with 72 cells, 2 players, stack limit 2; \
         params: files = 9 (set, of 7..9); ranks = 8 (set, of 6..8)\n"
    );
    // One set, the other at its default.
    let o = check_in(
        "params-set",
        &[("sized.mg", SIZED)],
        &["check", "--set", "files=7", "sized.mg"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("board 7x7 with 49 cells"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("files = 7 (set, of 7..9); ranks = 6..8 (default 7)"));
}

#[test]
fn a_bad_param_line_is_a_diagnostic_with_its_place() {
    let bad = SIZED.replace("7..9 default 8", "9..7");
    let o = check_in("params-bad-line", &[("bad.mg", &bad)], &["check", "bad.mg"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.starts_with("bad.mg:2:15: error: empty range `9..7`\n"),
        "{err}"
    );
    assert!(err.contains("2 | param files = 9..7\n"), "{err}");
    assert!(err.contains("= help: did you mean `7..9`?"), "{err}");
    assert_eq!(
        stdout(&o),
        "bad.mg: 1 error, first bad.mg:2:15: empty range `9..7`\n"
    );

    let bad = SIZED.replace("board rect $files", "board rect $flies");
    let o = check_in("params-bad-ref", &[("bad.mg", &bad)], &["check", "bad.mg"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.starts_with("bad.mg:4:12: error: unknown parameter `$flies`\n"),
        "{err}"
    );
    assert!(err.contains("= help: did you mean `$files`?"), "{err}");

    let bad = SIZED.replace("default 8", "default 10");
    let o = check_in(
        "params-bad-default",
        &[("bad.mg", &bad)],
        &["check", "bad.mg"],
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.starts_with("bad.mg:2:28: error: default 10 is not a value of parameter `files`\n"),
        "{err}"
    );
}

#[test]
fn a_bad_set_fails_clearly() {
    let dir = "params-bad-set";
    let files = [("sized.mg", SIZED)];
    // A value the declaration does not allow: at the declaration.
    let o = check_in(dir, &files, &["check", "sized.mg", "--set", "files=12"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.starts_with("sized.mg:2:15: error: parameter `files` cannot be 12\n"),
        "{err}"
    );
    assert!(err.contains("`files` takes a value from 7 to 9"), "{err}");
    assert_eq!(
        stdout(&o),
        "sized.mg: 1 error, first sized.mg:2:15: parameter `files` cannot be 12\n"
    );

    // A name the file does not declare.
    let o = check_in(dir, &files, &["check", "sized.mg", "--set", "file=8"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.starts_with("sized.mg:2:7: error: no parameter `file` is declared\n"),
        "{err}"
    );
    assert!(err.contains("= help: did you mean `files`?"), "{err}");

    // Not NAME=VALUE, or not a number: refused before any file is read.
    for bad in ["files", "files=x", "files=-1", "=3", "9=3"] {
        let o = check_in(dir, &files, &["check", "sized.mg", "--set", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!("invalid value '{bad}' for '--set <NAME=VALUE>'")),
            "{bad}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(stdout(&o), "");
    }
}
