//! Murals of the bench's random set (`murus mural bench --random-only`)
//! whose stones travel far through towers made on the way: before the state
//! equation the solver spent 5 000 000 nodes on the first two without an
//! answer. Each is solved, optimally, within the bench's budget, and the
//! solution plays.

use murus_mural::{Mode, Puzzle, Status, solve};

fn mural(start: &str, targets: &[&str]) -> Puzzle {
    let list: Vec<String> = targets.iter().map(|t| format!("\"{t}\"")).collect();
    Puzzle::from_toml(&format!(
        "title = \"random playout\"\nboard = \"5x5\"\nstart = \"{start}\"\ntargets = [{}]\n",
        list.join(", ")
    ))
    .expect("valid")
}

fn solves_in(p: &Puzzle, optimum: usize) {
    let s = solve(p, &p.start, Mode::Optimal, 5_000_000, &());
    assert_eq!(s.status, Status::Solved, "{} nodes", s.nodes);
    assert_eq!(s.moves.len(), optimum);
    let mut state = p.start.clone();
    for m in &s.moves {
        state.apply(*m);
    }
    assert!(state.is_solved(&p.targets));
}

/// Optimum 19, which is the equation's least multiset; the first
/// multisets found cannot be played in any order, a later one can.
#[test]
fn a_mural_whose_first_multisets_do_not_play() {
    let p = mural(
        "r22r1r2/4r1/1r22r2/1r22r1/3r2r1",
        &[
            "a1", "b1", "c1", "e2", "b3", "c3", "d3", "e3", "a4", "b4", "c4", "d4", "a5", "c5",
            "d5", "e5",
        ],
    );
    solves_in(&p, 19);
}

/// Optimum 16, one above the equation's 15: the search, pruned by the
/// equation at every node, proves that no multiset of 15 plays.
#[test]
fn a_mural_one_move_above_its_equation() {
    let p = mural(
        "1r23/2r22/3r21/1r1r2r1r2/1r2r12",
        &[
            "b1", "c1", "d1", "b2", "c2", "d2", "b3", "d3", "e3", "a4", "b4", "c4", "a5", "b5",
            "c5",
        ],
    );
    solves_in(&p, 16);
}
