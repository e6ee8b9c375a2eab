//! The generator is deterministic for a seed and only emits puzzles whose
//! minimal solution is unique, with the recorded length and band.

use murus_mural::generate::{Options, generate};
use murus_mural::{Puzzle, Status, count};

fn opts(seed: u64, colours: usize, sacrifice: bool, difficulty: Option<&str>) -> Options {
    Options {
        board: "5x5".into(),
        colours,
        sacrifice,
        difficulty: difficulty.map(str::to_string),
        seed,
        budget: 2_000_000,
    }
}

#[test]
fn generator_is_deterministic_for_a_seed() {
    let a: Vec<String> = generate(&opts(7, 1, false, None), 4, &())
        .expect("puzzles")
        .iter()
        .map(|(p, _)| p.to_toml())
        .collect();
    let b: Vec<String> = generate(&opts(7, 1, false, None), 4, &())
        .expect("puzzles")
        .iter()
        .map(|(p, _)| p.to_toml())
        .collect();
    assert_eq!(a, b);
    let c: Vec<String> = generate(&opts(8, 1, false, None), 4, &())
        .expect("puzzles")
        .iter()
        .map(|(p, _)| p.to_toml())
        .collect();
    assert_ne!(a, c);
}

#[test]
fn generated_puzzles_are_unique_and_round_trip() {
    for (colours, sacrifice, difficulty) in [
        (1, false, Some("medium")),
        (2, false, None),
        (2, true, None),
    ] {
        for (p, r) in generate(&opts(3, colours, sacrifice, difficulty), 2, &()).expect("puzzles") {
            let text = p.to_toml();
            let q = Puzzle::from_toml(&text).unwrap_or_else(|d| panic!("{text}\n{d:?}"));
            let c = count(&q, &q.start, 10_000_000, &());
            assert_eq!(c.status, Status::Solved, "{text}");
            assert_eq!(c.sets, 1, "{text}");
            assert_eq!(c.length, q.optimal, "{text}");
            assert_eq!(q.difficulty.as_deref(), Some(r.band.as_str()));
            if let Some(d) = difficulty {
                assert_eq!(r.band, d);
            }
            if sacrifice {
                assert!(r.sacrifices > 0, "{text}");
            }
        }
    }
}

#[test]
fn generator_rejects_bad_options() {
    assert!(generate(&opts(1, 4, false, None), 1, &()).is_err());
    assert!(generate(&opts(1, 1, true, None), 1, &()).is_err());
    assert!(generate(&opts(1, 1, false, Some("brutal")), 1, &()).is_err());
    let mut o = opts(1, 1, false, None);
    o.board = "circle 3".into();
    assert!(generate(&o, 1, &()).is_err());
}

/// `mural generate --board 20x20` said "at most 128": the rules compiler's
/// limit, not the murals' 64.
#[test]
fn a_board_too_large_for_murals_names_the_murals_limit() {
    for board in [
        "20x20",
        "9x8",
        "rect 20 x 20 without cells a1",
        "hex 5",
        "hex 7",
    ] {
        let e = murus_mural::Board::parse(board)
            .expect_err(board)
            .to_string();
        assert!(e.contains("at most 64 cells"), "{board}: {e}");
        assert!(!e.contains("128"), "{board}: {e}");
    }
    let mut o = opts(1, 1, false, None);
    o.board = "20x20".into();
    let e = generate(&o, 1, &()).expect_err("too large").to_string();
    assert!(
        e.contains("at most 64 cells") && e.contains("has 400"),
        "{e}"
    );
    for board in ["8x8", "16x4", "hex 4", "rect 8 x 8 without cells a1"] {
        assert!(murus_mural::Board::parse(board).is_ok(), "{board}");
    }
}
