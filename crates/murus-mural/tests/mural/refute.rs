//! The cheap necessary conditions checked before any search: each one
//! proves its kind of unsolvable mural at once, with its reason, through
//! `solve`, `count` and `hint_for`. (That they never reject a solvable
//! position is checked against the brute force in `brute_force.rs`.)

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;

use murus_mural::board::Board;
use murus_mural::playout::{Played, Playout, playout_mural};
use murus_mural::refute::Weighing;
use murus_mural::{Hint, Mode, Puzzle, Reason, Status, count, hint_for, refute, solve};

use crate::util::mural;

/// Refutes `p`'s start with `expected`, and `solve` (both modes), `count`
/// and `hint_for` all say so without searching.
fn assert_refuted(p: &Puzzle, expected: &Reason) {
    assert_eq!(refute(p, &p.start).as_ref(), Some(expected));
    for mode in [Mode::Optimal, Mode::Any] {
        let s = solve(p, &p.start, mode, 1_000, &());
        assert_eq!(
            (s.status, s.nodes, s.reason.as_ref()),
            (Status::Unsolvable, 0, Some(expected))
        );
    }
    let c = count(p, &p.start, 1_000, &());
    assert_eq!(
        (c.status, c.proven_sets(), c.reason.as_ref()),
        (Status::Unsolvable, Some(0), Some(expected))
    );
    assert_eq!(
        hint_for(p, &p.start, 1_000, &()),
        Ok(Hint::Unsolvable(expected.clone()))
    );
}

#[test]
fn a_mural_with_every_cell_a_target_is_proven_unsolvable_at_once() {
    // The issue's example: it loads (25 stones, 25 targets), and a search
    // used to spend its whole budget on it.
    let text = r#"
title = "Every cell a target"
board = "5x5"
start = "r2r2r2r2r1/r2r2r2r2r1/r2r2r21r1/5/5"
targets = ["a1","b1","c1","d1","e1","a2","b2","c2","d2","e2","a3","b3","c3","d3","e3",
           "a4","b4","c4","d4","e4","a5","b5","c5","d5","e5"]
"#;
    let p = Puzzle::from_toml(text).expect("a valid file");
    let t = Instant::now();
    let expected = Reason::NoLastMove {
        all_targets: true,
        sacrifice: false,
    };
    assert_refuted(&p, &expected);
    // A budget as large as the studio's answers just as fast.
    let s = solve(&p, &p.start, Mode::Optimal, 5_000_000, &());
    assert_eq!(s.status, Status::Unsolvable);
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(
        expected.to_string(),
        "every cell is a target, but the last move always leaves a cell empty (the cell of the tower it sows)"
    );
    // With sacrifices to play, the last one could also be a sacrifice,
    // which empties its wall's cell.
    let p = mural(
        "3x3",
        "rg",
        true,
        "r2r2g2/r2r2g1/3",
        &["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"],
    );
    assert_refuted(
        &p,
        &Reason::NoLastMove {
            all_targets: true,
            sacrifice: true,
        },
    );
}

#[test]
fn fewer_stones_than_targets_cannot_cover_them() {
    let p = mural("3x3", "r", false, "3/3/r22", &["a1", "b1", "c1"]);
    let r = Reason::TooFewStones {
        stones: 2,
        targets: 3,
    };
    assert_refuted(&p, &r);
    assert_eq!(
        r.to_string(),
        "2 stones cannot cover 3 targets: no move ever adds a stone"
    );
}

#[test]
fn stones_over_the_targets_need_a_sacrifice_of_two_colours() {
    let p = mural("3x3", "r", false, "3/3/r2r11", &["b1", "c1"]);
    assert_refuted(
        &p,
        &Reason::StonesLeftOver {
            stones: 3,
            targets: 2,
            one_colour: false,
        },
    );
    // Sacrifice allowed, but only one colour has stones left.
    let p = mural("3x3", "rg", true, "3/3/r2r11", &["b1", "c1"]);
    assert_refuted(
        &p,
        &Reason::StonesLeftOver {
            stones: 3,
            targets: 2,
            one_colour: true,
        },
    );
}

#[test]
fn a_sacrifice_removes_two_stones_so_the_excess_is_even() {
    let p = mural("3x3", "rg", true, "3/3/r2g11", &["a1", "b1"]);
    assert_refuted(
        &p,
        &Reason::OddExcess {
            stones: 3,
            targets: 2,
        },
    );
}

#[test]
fn sacrifices_pair_off_stones_of_two_colours_that_can_meet() {
    // Two sacrifices take two r stones; r has one.
    let p = mural("3x3", "rg", true, "g2g21/g12/r12", &["b1", "c1"]);
    let r = Reason::Pairing {
        sacrifices: 2,
        stones: vec![('r', 1), ('g', 5)],
        apart: vec![],
    };
    assert_refuted(&p, &r);
    // No towers at all: no colour ever meets another as tower and wall.
    let p = mural("5x2", "rgb", true, "r14/2b11r1", &["a1"]);
    let r = Reason::Pairing {
        sacrifices: 1,
        stones: vec![('r', 2), ('b', 1)],
        apart: vec![('r', 'b')],
    };
    assert_refuted(&p, &r);
    assert!(
        r.to_string()
            .ends_with("(r and b can never stand side by side as tower and wall)"),
        "{r}"
    );
}

#[test]
fn the_last_move_needs_a_cell_that_is_no_target_to_empty() {
    // Only the centre is no target, and on a 3x3 board it has no line.
    let p = mural(
        "3x3",
        "r",
        false,
        "r2r2r2/2r1/r12",
        &["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"],
    );
    assert_refuted(
        &p,
        &Reason::NoLastMove {
            all_targets: false,
            sacrifice: false,
        },
    );
}

#[test]
fn a_target_no_line_can_reach_is_never_filled() {
    // The missing d1 cuts the board in two.
    let p = mural(
        "rect 7 x 1 without cells d1",
        "r",
        false,
        "r2r14",
        &["b1", "c1", "g1"],
    );
    assert_refuted(
        &p,
        &Reason::Unreachable {
            cells: vec!["g1".into()],
        },
    );
}

#[test]
fn a_wall_off_the_targets_that_nothing_can_lift_or_remove_stays() {
    // No g tower, so the g wall on c3 never moves.
    let p = mural("3x3", "rg", false, "2g1/3/r22", &["b1", "c1", "b2"]);
    let r = Reason::StrandedWall {
        cell: "c3".into(),
        colour: 'g',
        sacrifice: false,
    };
    assert_refuted(&p, &r);
    assert_eq!(
        r.to_string(),
        "the g wall on c3 is not on a target and can never leave: no g tower can ever land on it to lift it"
    );
    // With a sacrifice to play, but no g tower beside f1 ever.
    let p = mural(
        "rect 7 x 1 without cells d1",
        "rg",
        true,
        "r21g11r11",
        &["a1", "b1"],
    );
    assert_refuted(
        &p,
        &Reason::StrandedWall {
            cell: "f1".into(),
            colour: 'r',
            sacrifice: true,
        },
    );
}

#[test]
fn towers_that_block_each_other_for_good_are_stuck() {
    // A tower on the centre of 3x3 has no line at all.
    let p = mural("3x3", "r", false, "3/1r21/r22", &["b1", "c1", "a3", "c3"]);
    assert_refuted(
        &p,
        &Reason::StuckTowers {
            cells: vec!["b2".into()],
            sacrifice: false,
        },
    );
    // Puzzle 1's trap: towers on b2, d2, b4 and d4 together.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../puzzles/01-puzzle-one.toml"
    ))
    .expect("readable");
    let p = Puzzle::from_toml(&text).expect("valid");
    let mut s = p.start.clone();
    for m in ["c5-e3", "e4-c4"] {
        s.apply(murus_mural::parse_move(&p, &s, m).expect("legal"));
    }
    let r = refute(&p, &s).expect("refuted");
    assert_eq!(
        r,
        Reason::StuckTowers {
            cells: ["b2", "d2", "b4", "d4"].map(String::from).to_vec(),
            sacrifice: false,
        }
    );
    assert_eq!(hint_for(&p, &s, 1_000, &()), Ok(Hint::Unsolvable(r)));
}

#[test]
fn a_colour_needs_as_many_reachable_targets_as_stones() {
    // The b tower's line runs along rank 1 only: it reaches one target.
    let p = mural(
        "5x2",
        "rgb",
        false,
        "r13r2/2b22",
        &["d1", "b2", "c2", "d2", "e2"],
    );
    let r = Reason::Crowded {
        colours: vec!['b'],
        stones: 2,
        targets: vec!["d1".into()],
    };
    assert_refuted(&p, &r);
    assert_eq!(
        r.to_string(),
        "the b stones (2) must all end on targets, one each, but only 1 target can ever hold one of them: d1"
    );
}

#[test]
fn files_and_ranks_modulo_3_never_change() {
    // c3 + c3 = 6, but d4 + d5 are on files 4 + 4 = 8.
    let p = mural("5x5", "r", false, "5/5/2r22/5/5", &["d4", "d5"]);
    let r = Reason::Weights {
        weighing: Weighing::Files,
        stones: 0,
        targets: 2,
    };
    assert_refuted(&p, &r);
    assert_eq!(
        r.to_string(),
        "a sowing moves two stones one and two cells along a line, which never changes the sum of the stones' file numbers (a = 1, b = 2, …), modulo 3: the stones give 0, one stone on each target would give 2"
    );
    // Files agree (3 + 3 and 4 + 5), ranks do not (3 + 3 and 3 + 4).
    let p = mural("5x5", "r", false, "5/5/2r22/5/5", &["d3", "e4"]);
    assert_refuted(
        &p,
        &Reason::Weights {
            weighing: Weighing::Ranks,
            stones: 0,
            targets: 1,
        },
    );
}

#[test]
fn other_weights_modulo_3_never_change_on_boards_with_holes() {
    // Files and ranks agree, but the right half (e1-g1) holds two stones
    // for three targets, and no line crosses the missing d1.
    let p = mural(
        "rect 7 x 1 without cells d1",
        "r",
        false,
        "r21r1r22",
        &["a1", "b1", "e1", "f1", "g1"],
    );
    let r = refute(&p, &p.start).expect("refuted");
    let Reason::Weights {
        weighing: Weighing::Cells { one, two },
        stones,
        targets,
    } = &r
    else {
        panic!("{r:?}");
    };
    assert_ne!(stones, targets);
    assert!(!one.is_empty() || !two.is_empty());
    assert_refuted(&p, &r);
}

#[test]
fn each_colour_keeps_its_own_weights_modulo_3() {
    let p = mural(
        "5x5",
        "rg",
        false,
        "1g11r11/5/5/g24/1r23",
        &["b1", "a3", "d3", "a4", "b4", "e4"],
    );
    assert_refuted(&p, &Reason::ColourWeights);
}

#[test]
fn a_mural_the_conditions_miss_is_proven_unsolvable_by_search() {
    let p = mural(
        "4x3",
        "rg",
        true,
        "g2g21r1/1r11g2/4",
        &["a1", "b1", "c1", "d1", "c2", "a3"],
    );
    assert_eq!(refute(&p, &p.start), None);
    let s = solve(&p, &p.start, Mode::Optimal, u64::MAX, &());
    assert_eq!(
        (s.status, s.reason),
        (Status::Unsolvable, Some(Reason::Searched))
    );
    assert!(s.nodes > 0);
    let c = count(&p, &p.start, u64::MAX, &());
    assert_eq!(c.reason, Some(Reason::Searched));
    assert_eq!(
        hint_for(&p, &p.start, u64::MAX, &()),
        Ok(Hint::Unsolvable(Reason::Searched))
    );
}

#[test]
fn solved_and_solvable_positions_carry_no_reason() {
    let p = mural("3x3", "r", false, "3/3/r22", &["b1", "c1"]);
    let s = solve(&p, &p.start, Mode::Optimal, 1_000, &());
    assert_eq!((s.status, s.reason), (Status::Solved, None));
    let c = count(&p, &p.start, 1_000, &());
    assert_eq!((c.status, c.reason), (Status::Solved, None));
}

/// Every position along a random playout that ends with walls only is
/// solvable (the rest of the playout solves it, with the end's walls as
/// targets), so no condition may reject it. Larger boards than the brute
/// force can handle, with holes, hexagons, colours and sacrifice.
fn check_playout(board: &str, colours: usize, sacrifice: bool, stacks: (usize, usize), seed: u64) {
    let how = Playout {
        board: Board::parse(board).expect("board"),
        colours,
        sacrifice,
        towers: stacks.0..=stacks.0,
        walls: stacks.1..=stacks.1,
        max_moves: 200,
    };
    let Some(Played { puzzle: p, path }) = playout_mural(&how, &mut SmallRng::seed_from_u64(seed))
    else {
        return;
    };
    for state in &path {
        if !state.is_solved(&p.targets) {
            if let Some(r) = refute(&p, state) {
                panic!("{r}\n{}\n{}", p.grid(state), p.to_toml());
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

    #[test]
    fn no_condition_rejects_a_position_on_the_way_to_a_solution(
        board in 0usize..6,
        colours in 1usize..=3,
        sacrifice in proptest::bool::ANY,
        towers in 1usize..=7,
        walls in 0usize..=6,
        seed in proptest::num::u64::ANY,
    ) {
        let board = ["5x5", "8x7", "hex 3", "rect 6 x 5 without cells a1 c3 d3", "4x4", "7x1"][board];
        check_playout(board, colours, sacrifice && colours > 1, (towers, walls), seed);
    }
}

/// The one wording of the solver's verdict, which the CLI and the studio
/// both show.
#[test]
fn the_verdict_reads_the_same_for_solve_and_count() {
    let p = Puzzle::from_toml(
        "title = \"Full\"\nboard = \"4x1\"\nstart = \"r2r22\"\ntargets = [\"a1\", \"b1\", \"c1\", \"d1\"]\n",
    )
    .expect("valid");
    let s = solve(&p, &p.start, Mode::Optimal, 1_000, &());
    let c = count(&p, &p.start, 1_000, &());
    let why = s.reason.as_ref().expect("a reason").to_string();
    assert_eq!(s.verdict(), format!("unsolvable: {why}"));
    assert_eq!(c.verdict(), s.verdict());
    assert_eq!(murus_mural::verdict(Status::Unsolvable, None), "unsolvable");
    assert_eq!(murus_mural::verdict(Status::Solved, None), "solved");
    assert_eq!(
        murus_mural::verdict(Status::Unproven, None),
        "unproven: no answer within the budget"
    );
}
