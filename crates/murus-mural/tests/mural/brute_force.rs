//! The solver against a brute-force breadth-first search on small boards:
//! solvability, optimal length, distinct minimal move sets, orderings and
//! hints must all agree exactly.

use std::collections::{HashMap, HashSet, VecDeque};

use murus_mural::board::{Board, MuralMove, State};
use murus_mural::playout::{Playout, playout_mural};
use murus_mural::{Mode, Puzzle, Status, count, hint, refute, solve};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::util::built;

/// Shortest distance to the solved state from every reachable state, and
/// the reachable graph.
struct Brute {
    dist: HashMap<State, u32>,
    edges: HashMap<State, Vec<(MuralMove, State)>>,
}

fn brute(p: &Puzzle, start: &State) -> Brute {
    let mut edges: HashMap<State, Vec<(MuralMove, State)>> = HashMap::new();
    let mut queue = VecDeque::from([start.clone()]);
    let mut seen = HashSet::from([start.clone()]);
    let mut moves = Vec::new();
    while let Some(s) = queue.pop_front() {
        s.moves(&p.board, p.sacrifice, &mut moves);
        let mut out = Vec::new();
        for &m in &moves {
            let mut c = s.clone();
            c.apply(m);
            if seen.insert(c.clone()) {
                queue.push_back(c.clone());
            }
            out.push((m, c));
        }
        edges.insert(s, out);
    }
    // Backwards from the solved states.
    let mut rev: HashMap<&State, Vec<&State>> = HashMap::new();
    for (s, out) in &edges {
        for (_, c) in out {
            rev.entry(c).or_default().push(s);
        }
    }
    let mut dist = HashMap::new();
    let mut queue = VecDeque::new();
    for s in edges.keys() {
        if s.is_solved(&p.targets) {
            dist.insert(s.clone(), 0);
            queue.push_back(s.clone());
        }
    }
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        for &prev in rev.get(&s).map(Vec::as_slice).unwrap_or(&[]) {
            if !dist.contains_key(prev) {
                dist.insert(prev.clone(), d + 1);
                queue.push_back(prev.clone());
            }
        }
    }
    Brute { dist, edges }
}

impl Brute {
    /// Distinct minimal move multisets and the number of optimal sequences.
    fn minimal(&self, s: &State) -> (HashSet<Vec<MuralMove>>, u128) {
        let mut sets = HashSet::new();
        let mut path = Vec::new();
        let n = self.walk(s, &mut path, &mut sets);
        (sets, n)
    }

    fn walk(
        &self,
        s: &State,
        path: &mut Vec<MuralMove>,
        sets: &mut HashSet<Vec<MuralMove>>,
    ) -> u128 {
        let d = self.dist[s];
        if d == 0 {
            let mut set = path.clone();
            set.sort_unstable();
            sets.insert(set);
            return 1;
        }
        let mut n = 0;
        for (m, c) in &self.edges[s] {
            if self.dist.get(c) == Some(&(d - 1)) {
                path.push(*m);
                n += self.walk(c, path, sets);
                path.pop();
            }
        }
        n
    }
}

/// A random small mural: random stacks, then either the end of a random
/// playout as targets (solvable) or random targets.
fn instance(
    board_index: usize,
    colours: usize,
    sacrifice: bool,
    stacks: Vec<(usize, usize, bool)>,
    play: Vec<usize>,
    random_targets: Option<Vec<usize>>,
) -> Option<Puzzle> {
    let board_text = ["3x3", "4x3", "4x4", "hex 2", "5x2"][board_index];
    let board = Board::parse(board_text).ok()?;
    let cells: Vec<usize> = board.geometry.cells().collect();
    let mut start = State::empty(board.slots());
    for (cell, colour, tower) in stacks {
        start.set(
            cells[cell % cells.len()],
            Some(((colour % colours) as u8, if tower { 2 } else { 1 })),
        );
    }
    start.towers().next()?;
    let mut end = start.clone();
    let mut moves = Vec::new();
    for k in play {
        end.moves(&board, sacrifice, &mut moves);
        if moves.is_empty() {
            break;
        }
        end.apply(moves[k % moves.len()]);
    }
    let mut targets = vec![false; board.slots()];
    match random_targets {
        None => {
            if end.towers().next().is_some() {
                return None;
            }
            for &c in &cells {
                targets[c] = end.get(c).is_some();
            }
        }
        Some(list) => {
            for c in list {
                targets[cells[c % cells.len()]] = true;
            }
        }
    }
    Some(built(
        Board::parse(board_text).expect("board"),
        colours,
        sacrifice,
        start,
        targets,
    ))
}

/// The cheap necessary conditions never reject a position the brute force
/// solves: the start, and every position reachable from it.
fn check_refute_is_sound(p: &Puzzle, b: &Brute) {
    for s in b.edges.keys() {
        if b.dist.get(s).is_some_and(|&d| d > 0) {
            if let Some(r) = refute(p, s) {
                panic!(
                    "refute rejects a solvable position {}: {r}\n{}",
                    p.grid(s),
                    p.to_toml()
                );
            }
        }
    }
}

fn check(p: &Puzzle) {
    let b = brute(p, &p.start);
    check_refute_is_sound(p, &b);
    let truth = b.dist.get(&p.start).copied();
    let opt = solve(p, &p.start, Mode::Optimal, u64::MAX, &());
    let any = solve(p, &p.start, Mode::Any, u64::MAX, &());
    match truth {
        None => {
            assert_eq!(opt.status, Status::Unsolvable, "{}", p.to_toml());
            assert_eq!(any.status, Status::Unsolvable, "{}", p.to_toml());
            // Every unsolvable verdict says why.
            assert!(opt.reason.is_some() && any.reason.is_some());
            assert_eq!(hint(p, &p.start, u64::MAX), Ok(None));
        }
        Some(d) => {
            assert_eq!(opt.status, Status::Solved, "{}", p.to_toml());
            assert_eq!(opt.reason, None);
            assert_eq!(opt.moves.len() as u32, d, "{}", p.to_toml());
            assert_eq!(any.status, Status::Solved, "{}", p.to_toml());
            for sol in [&opt.moves, &any.moves] {
                let text: Vec<String> = sol.iter().map(|m| m.notation(&p.board)).collect();
                let end = murus_mural::replay(p, &text).expect("legal");
                assert!(end.is_solved(&p.targets));
            }
            let (sets, orderings) = b.minimal(&p.start);
            let c = count(p, &p.start, u64::MAX, &());
            assert_eq!(c.length, Some(d), "{}", p.to_toml());
            assert_eq!(c.sets, sets.len() as u64, "{}", p.to_toml());
            assert_eq!(c.orderings, Some(orderings), "{}", p.to_toml());
        }
    }
    // Hints from every reachable state on the way (a sample).
    for (s, _) in b.edges.iter().take(40) {
        match (b.dist.get(s), hint(p, s, u64::MAX)) {
            (None, Ok(None)) => {}
            (Some(0), Ok(None)) => {}
            (Some(&d), Ok(Some(m))) => {
                let mut c = s.clone();
                c.apply(m);
                assert_eq!(
                    b.dist.get(&c),
                    Some(&(d - 1)),
                    "hint {} from {}",
                    m.notation(&p.board),
                    p.grid(s)
                );
            }
            (d, h) => panic!("state {}: distance {d:?} but hint {h:?}", p.grid(s)),
        }
    }
}

/// Random small murals ([`instance`]): up to `stacks - 1` random stacks and
/// `play - 1` random moves, with random or playout targets; `None` for the
/// draws `instance` drops.
fn murals(stacks: usize, play: usize) -> impl Strategy<Value = Option<Puzzle>> {
    (
        0usize..5,
        1usize..=3,
        any::<bool>(),
        prop::collection::vec((0usize..16, 0usize..3, any::<bool>()), 1..stacks),
        prop::collection::vec(0usize..64, 0..play),
        prop::option::of(prop::collection::vec(0usize..16, 1..8)),
    )
        .prop_map(|(board, colours, sacrifice, stacks, play, targets)| {
            instance(board, colours, sacrifice, stacks, play, targets)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn solver_agrees_with_brute_force(p in murals(6, 10)) {
        if let Some(p) = p {
            check(&p);
        }
    }

    #[test]
    fn tower_only_starts_agree_with_brute_force(
        board_index in 0usize..5,
        towers in prop::collection::vec(0usize..16, 1..5),
        play in prop::collection::vec(0usize..64, 0..8),
    ) {
        let stacks = towers.into_iter().map(|c| (c, 0, true)).collect();
        if let Some(p) = instance(board_index, 1, false, stacks, play, None) {
            check(&p);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Many more murals, checked for the soundness of the cheap conditions
    /// only (they are microseconds each, the brute force is the cost): with
    /// walls, colours and sacrifice, from playouts (solvable) and with
    /// random targets.
    #[test]
    fn cheap_conditions_never_reject_a_position_the_brute_force_solves(p in murals(7, 12)) {
        if let Some(p) = p {
            check_refute_is_sound(&p, &brute(&p, &p.start));
        }
    }
}

/// A mural made like `murus mural bench --random-only`'s set, scaled down
/// ([`playout_mural`] with 2 to 4 towers and 1 to 3 walls of one colour, at
/// most 64 moves). With `moved`, one target is moved to another cell, which
/// makes most of them unsolvable or longer: both directions of the verdict
/// are checked.
fn playout_with_walls(
    board_text: &str,
    seed: u64,
    moved: Option<(usize, usize)>,
) -> Option<Puzzle> {
    let how = Playout {
        board: Board::parse(board_text).ok()?,
        colours: 1,
        sacrifice: false,
        towers: 2..=4,
        walls: 1..=3,
        max_moves: 64,
    };
    let mut p = playout_mural(&how, &mut SmallRng::seed_from_u64(seed))?.puzzle;
    if let Some((from, to)) = moved {
        let cells: Vec<usize> = p.board.geometry.cells().collect();
        let on: Vec<usize> = cells.iter().copied().filter(|&c| p.targets[c]).collect();
        let off: Vec<usize> = cells.iter().copied().filter(|&c| !p.targets[c]).collect();
        if on.is_empty() || off.is_empty() {
            return None;
        }
        p.targets[on[from % on.len()]] = false;
        p.targets[off[to % off.len()]] = true;
    }
    Some(p)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The bench's kind of mural (one colour, walls in the start, targets
    /// from a playout, many solutions and long optima) on boards small
    /// enough to search whole: the solver's verdict, optimal par, count and
    /// hints against the brute force; and with one target moved, which is
    /// mostly unsolvable.
    #[test]
    fn bench_like_playout_murals_agree_with_brute_force(
        board_index in 0usize..4,
        seed in any::<u64>(),
        moved in prop::option::of((0usize..16, 0usize..16)),
    ) {
        let board = ["4x4", "5x3", "4x3", "hex 2"][board_index];
        if let Some(p) = playout_with_walls(board, seed, moved) {
            check(&p);
        }
    }
}
