//! Random murals made by playouts (`murus_mural::playout`): valid puzzles,
//! solved by the playout that made them, the same for a seed.

use murus_mural::Puzzle;
use murus_mural::board::Board;
use murus_mural::playout::{Playout, playout_mural};
use rand::SeedableRng;
use rand::rngs::SmallRng;

#[test]
fn the_bench_murals_are_valid_with_walls_in_the_start() {
    let mut rng = SmallRng::seed_from_u64(7);
    let how = Playout::bench();
    let mut made = 0;
    for _ in 0..200 {
        let Some(played) = playout_mural(&how, &mut rng) else {
            continue;
        };
        made += 1;
        let p = &played.puzzle;
        let q = Puzzle::from_toml(&p.to_toml()).expect("valid");
        assert_eq!(q.start, p.start);
        let cells = p.board.geometry.cells();
        let walls = cells.filter(|&c| p.start.get(c).is_some_and(|(_, h)| h == 1));
        assert!(walls.count() >= 2, "walls in the start");
    }
    assert!(made >= 20, "{made} of 200 playouts strand no tower");
}

#[test]
fn a_playout_solves_its_mural_move_by_move_and_a_seed_gives_the_same() {
    let how = Playout {
        board: Board::parse("hex 3").unwrap(),
        colours: 2,
        sacrifice: true,
        towers: 3..=6,
        walls: 1..=3,
        max_moves: 100,
    };
    let mut checked = 0;
    for seed in 0..200 {
        let Some(played) = playout_mural(&how, &mut SmallRng::seed_from_u64(seed)) else {
            continue;
        };
        let again = playout_mural(&how, &mut SmallRng::seed_from_u64(seed)).unwrap();
        assert_eq!(again.puzzle.to_toml(), played.puzzle.to_toml());
        let p = &played.puzzle;
        assert_eq!(p.colours, ['r', 'g']);
        assert_eq!(played.path[0], p.start);
        // Each step of the path is one legal move of the one before.
        let mut moves = Vec::new();
        for w in played.path.windows(2) {
            w[0].moves(&p.board, p.sacrifice, &mut moves);
            assert!(
                moves.iter().any(|&m| {
                    let mut s = w[0].clone();
                    s.apply(m);
                    s == w[1]
                }),
                "{}",
                p.to_toml()
            );
        }
        assert!(played.path.last().unwrap().is_solved(&p.targets));
        assert!(played.path.len() <= 101);
        checked += 1;
    }
    assert!(checked >= 20, "{checked} of 200 playouts made a mural");
}
