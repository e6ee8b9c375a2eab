//! `murus bench serve`: a small load through the real server over
//! loopback prints its figures, and bad arguments are refused.

use crate::util::{murus, stderr, stdout};

#[test]
fn bench_serve_plays_a_small_load_and_prints_its_figures() {
    let o = murus(&[
        "bench", "serve", "--games", "4", "--moves", "6", "--think", "0", "--runs", "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "murus bench serve: 4 human-vs-human games at once to 6 plies over loopback, flat out (no think time), seed 1, "
        ),
        "{out}"
    );
    assert!(
        out.contains("moves/s  p50 ms  p90 ms  p99 ms  max ms errors"),
        "{out}"
    );
    // 4 games of 6 plies, every move answered, no error.
    let median = out.lines().find(|l| l.starts_with("median")).unwrap();
    let cells: Vec<&str> = median.split_whitespace().collect();
    assert_eq!(cells[1], "4", "{median}");
    assert_eq!(cells[2], "24", "{median}");
    assert_eq!(cells.last(), Some(&"0"), "{median}");
}

#[test]
fn bench_serve_refuses_bad_think_times() {
    for think in ["9-3", "fast", "1-x"] {
        let o = murus(&["bench", "serve", "--games", "1", "--think", think]);
        assert!(!o.status.success(), "{think}");
        let err = stderr(&o);
        assert!(err.contains("--think"), "{think}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
