//! Facts about the reconstruction of the rules' Puzzle 1.

use murus_mural::{Hint, Mode, Puzzle, State, Status, count, parse_move, solve};

use crate::util::shipped;

fn puzzle1() -> Puzzle {
    shipped("01-puzzle-one.toml")
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
    let c = count(&p, &p.start, 1_000_000, &());
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
        solve(&p, &s, Mode::Any, 10_000_000, &()).status,
        Status::Unsolvable
    );
    assert_eq!(
        solve(&p, &s, Mode::Optimal, 10_000_000, &()).status,
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
                let v = solve(&p, &s, Mode::Any, 10_000_000, &());
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
    let c = count(&p, &p.start, 1_000_000, &());
    let last = c.example.last().expect("a solution");
    assert_eq!(p.board.name(last.from()), "c3");
    // In every position one move from the end, the remaining tower is on c3.
    // The minimal solution is unique as a set of moves, so every minimal
    // solution is an ordering of `c.example`: walk them all.
    assert_eq!(c.sets, 1);
    let mut s = p.start.clone();
    let mut used = vec![false; c.example.len()];
    let mut last_towers = std::collections::BTreeSet::new();
    let orderings = walk_orderings(&p, &mut s, &c.example, &mut used, &mut last_towers);
    assert_eq!(Some(orderings), c.orderings, "every ordering was walked");
    assert_eq!(
        last_towers.into_iter().collect::<Vec<_>>(),
        ["c3"],
        "the tower left before the last move, over every ordering"
    );
}

/// Plays the unused moves of `set` in every legal order from `s`; returns
/// how many orders solve the puzzle, and records the towers standing one
/// move from the end.
fn walk_orderings(
    p: &Puzzle,
    s: &mut State,
    set: &[murus_mural::MuralMove],
    used: &mut [bool],
    last_towers: &mut std::collections::BTreeSet<String>,
) -> u128 {
    let left = used.iter().filter(|&&u| !u).count();
    if left == 0 {
        return u128::from(s.is_solved(&p.targets));
    }
    if left == 1 {
        for t in s.towers() {
            last_towers.insert(p.board.name(t));
        }
    }
    let mut legal = Vec::new();
    s.moves(&p.board, p.sacrifice, &mut legal);
    let mut tried = Vec::new();
    let mut total = 0;
    for i in 0..set.len() {
        let m = set[i];
        if used[i] || tried.contains(&m) || !legal.contains(&m) {
            continue;
        }
        tried.push(m);
        let before = s.clone();
        s.apply(m);
        used[i] = true;
        total += walk_orderings(p, s, set, used, last_towers);
        used[i] = false;
        *s = before;
    }
    total
}

#[test]
fn puzzle1_hint_on_the_solved_position_says_solved() {
    let p = puzzle1();
    let c = count(&p, &p.start, 1_000_000, &());
    let mut s = p.start.clone();
    for &m in &c.example {
        assert!(matches!(
            murus_mural::hint_for(&p, &s, 1_000_000, &()),
            Ok(Hint::Move(_))
        ));
        s.apply(m);
    }
    assert!(s.is_solved(&p.targets));
    assert_eq!(
        murus_mural::hint_for(&p, &s, 1_000_000, &()),
        Ok(Hint::Solved)
    );
    // Even with no budget at all: nothing needs searching.
    assert_eq!(murus_mural::hint_for(&p, &s, 0, &()), Ok(Hint::Solved));
    // The trap position is a different answer.
    let mut trap = p.start.clone();
    play(&p, &mut trap, &["c5-e3", "e4-c4"]);
    assert!(matches!(
        murus_mural::hint_for(&p, &trap, 10_000_000, &()),
        Ok(Hint::Unsolvable(_))
    ));
}
