//! Facts about the reconstruction of the rules' Puzzle 1.

use murus_mural::{Hooks, Mode, Puzzle, State, Status, count, parse_move, solve};

fn puzzle1() -> Puzzle {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../puzzles/01-puzzle-one.toml"
    );
    Puzzle::from_toml(&std::fs::read_to_string(path).expect("readable")).expect("valid")
}

fn play(p: &Puzzle, s: &mut State, moves: &[&str]) {
    for m in moves {
        let m = parse_move(p, s, m).expect("legal");
        s.apply(m);
    }
}

#[test]
fn puzzle1_is_the_rules_puzzle_with_a_unique_twelve_move_solution() {
    let p = puzzle1();
    assert_eq!(p.board.geometry.cell_count(), 25);
    assert_eq!(p.start.towers().count(), 12);
    assert_eq!(p.start.stones(), 24);
    let c3 = p.board.parse_cell("c3").expect("c3");
    for s in p.board.geometry.cells() {
        assert_eq!(p.targets[s], s != c3, "walls on every cell but the centre");
    }
    let c = count(&p, &p.start, 1_000_000, Hooks::default());
    assert_eq!((c.status, c.length, c.sets), (Status::Solved, Some(12), 1));
}

#[test]
fn puzzle1_towers_on_b2_d2_b4_d4_together_cannot_be_solved() {
    let p = puzzle1();
    let mut s = p.start.clone();
    // b2, d2 and b4 start as towers; two stones on d4 make the fourth.
    play(&p, &mut s, &["c5-e3", "e4-c4"]);
    for cell in ["b2", "d2", "b4", "d4"] {
        let slot = p.board.parse_cell(cell).expect("cell");
        assert_eq!(s.get(slot).map(|(_, h)| h), Some(2), "a tower on {cell}");
    }
    // The solver proves the position lost, however the rest is played.
    assert_eq!(
        solve(&p, &s, Mode::Any, 10_000_000, Hooks::default()).status,
        Status::Unsolvable
    );
    assert_eq!(
        solve(&p, &s, Mode::Optimal, 10_000_000, Hooks::default()).status,
        Status::Unsolvable
    );
    assert_eq!(murus_mural::hint(&p, &s, 10_000_000), Ok(None));
}

#[test]
fn puzzle1_every_trap_position_found_by_random_play_is_lost() {
    // Random playouts: whenever b2, d2, b4 and d4 all hold towers, the
    // position is unsolvable.
    let p = puzzle1();
    let cells: Vec<usize> = ["b2", "d2", "b4", "d4"]
        .iter()
        .map(|c| p.board.parse_cell(c).expect("cell"))
        .collect();
    let mut seed = 12345u64;
    let mut traps = 0;
    for _ in 0..300 {
        let mut s = p.start.clone();
        let mut moves = Vec::new();
        for _ in 0..30 {
            s.moves(&p.board, false, &mut moves);
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s.apply(moves[(seed >> 33) as usize % moves.len()]);
            if cells.iter().all(|&c| s.get(c).is_some_and(|(_, h)| h == 2)) {
                traps += 1;
                let v = solve(&p, &s, Mode::Any, 10_000_000, Hooks::default());
                assert_eq!(v.status, Status::Unsolvable, "{}", p.grid(&s));
                break;
            }
        }
    }
    assert!(traps > 0, "random play falls into the trap sometimes");
}

#[test]
fn puzzle1_the_last_tower_stands_on_c3() {
    let p = puzzle1();
    let notes = p.notes.as_deref().expect("notes");
    assert!(
        notes.contains("c3"),
        "the notes answer the designer's question"
    );
    let c = count(&p, &p.start, 1_000_000, Hooks::default());
    let last = c.example.last().expect("a solution");
    assert_eq!(p.board.name(last.from()), "c3");
    // In every position one move from the end, the remaining tower is on c3:
    // check every ordering of the unique solution by walking the hint.
    let mut s = p.start.clone();
    for _ in 0..11 {
        let m = murus_mural::hint(&p, &s, 1_000_000)
            .expect("in budget")
            .expect("solvable");
        s.apply(m);
    }
    let towers: Vec<String> = s.towers().map(|t| p.board.name(t)).collect();
    assert_eq!(towers, ["c3"]);
}
