//! Searches for a reconstruction of the rules' Puzzle 1: 5x5, twelve towers
//! including b2, d2, b4 and d4, walls on every cell but c3 at the end, and a
//! unique minimal solution. Usage: `cargo run --release --example puzzle1 [SEED] [ATTEMPTS]`.

use murus_mural::{Puzzle, State, Status, count};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn main() {
    let arg = |i: usize, d: u64| {
        std::env::args()
            .nth(i)
            .and_then(|s| s.parse().ok())
            .unwrap_or(d)
    };
    let mut rng = SmallRng::seed_from_u64(arg(1, 1));
    let attempts = arg(2, 1_000_000);
    let template = Puzzle::from_toml(
        "title = \"Puzzle 1\"\nboard = \"5x5\"\nstart = \"5/5/5/5/r24\"\ntargets = [\"a1\", \"b1\"]\n",
    )
    .expect("template");
    let board = template.board.clone();
    let g = &board.geometry;
    let c3 = g.parse_cell("c3").expect("c3");
    let special: Vec<usize> = ["b2", "d2", "b4", "d4"]
        .iter()
        .map(|c| g.parse_cell(c).expect("cell"))
        .collect();
    let targets: Vec<bool> = (0..board.slots()).map(|s| g.exists(s) && s != c3).collect();
    let mut best = u64::MAX;
    for attempt in 0..attempts {
        let mut st = State::empty(board.slots());
        for s in g.cells() {
            if s != c3 {
                st.set(s, Some((0, 1)));
            }
        }
        let mut ok = true;
        for _ in 0..12 {
            let mut options = Vec::new();
            for s in g.cells() {
                if st.get(s).is_some() {
                    continue;
                }
                for &(a, b) in board.lines(s) {
                    if st.get(a as usize) == Some((0, 1)) && st.get(b as usize) == Some((0, 1)) {
                        options.push((s, a, b));
                    }
                }
            }
            if options.is_empty() {
                ok = false;
                break;
            }
            let wanted: Vec<_> = options
                .iter()
                .copied()
                .filter(|(s, _, _)| special.contains(s))
                .collect();
            let (s, a, b) = if !wanted.is_empty() && rng.random_bool(0.7) {
                wanted[rng.random_range(0..wanted.len())]
            } else {
                options[rng.random_range(0..options.len())]
            };
            st.set(a as usize, None);
            st.set(b as usize, None);
            st.set(s, Some((0, 2)));
        }
        if !ok
            || special
                .iter()
                .filter(|&&s| st.get(s) == Some((0, 2)))
                .count()
                < 3
        {
            continue;
        }
        let mut p = template.clone();
        p.start = st;
        p.targets = targets.clone();
        let c = count(&p, &p.start, 10_000_000, &());
        if c.status != Status::Solved || c.sets >= best {
            continue;
        }
        best = c.sets;
        println!(
            "attempt {attempt}: {} solutions, {:?} orderings",
            c.sets, c.orderings
        );
        println!("start = \"{}\"", p.grid(&p.start));
        if c.sets == 1 {
            return;
        }
    }
}
