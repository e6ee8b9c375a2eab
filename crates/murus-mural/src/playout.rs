//! Random murals made by playouts, solvable by construction: towers and
//! walls on random cells, random moves until no tower can move, and the
//! cells holding stones at the end are the targets. The mural bench's set
//! (`murus mural bench`) and the tests' random murals are made here.

use std::ops::RangeInclusive;

use rand::Rng;

use crate::board::{Board, State};
use crate::puzzle::{MAX_COLOURS, Puzzle};

/// How a playout mural is made.
#[derive(Clone, Debug)]
pub struct Playout {
    pub board: Board,
    /// Colours, 1 to [`MAX_COLOURS`]; each stack's is drawn at random.
    pub colours: usize,
    /// Whether the mural (and so the playout) allows sacrifice.
    pub sacrifice: bool,
    /// How many towers (height 2) and walls (height 1) the start has, each
    /// drawn from its range, on distinct random cells (as many as there
    /// are cells at most).
    pub towers: RangeInclusive<usize>,
    pub walls: RangeInclusive<usize>,
    /// The most moves played; a playout that still has a tower then is no
    /// mural.
    pub max_moves: usize,
}

/// A playout's mural, and every state of the playout, the start first and
/// its end (the mural's goal) last.
#[derive(Clone, Debug)]
pub struct Played {
    pub puzzle: Puzzle,
    pub path: Vec<State>,
}

impl Playout {
    /// The bench's murals: 5x5, one colour, 4 to 7 towers and 2 to 4
    /// walls, played to their end.
    pub fn bench() -> Playout {
        Playout {
            board: Board::parse("5x5").expect("5x5 is a board"),
            colours: 1,
            sacrifice: false,
            towers: 4..=7,
            walls: 2..=4,
            max_moves: usize::MAX,
        }
    }
}

/// A random mural made by a playout of `how` with `rng`: `None` when the
/// playout strands a tower (or plays nothing). For a seed the same mural;
/// with one colour the draws are the bench's since its first version, so
/// its set (seed 2029) is the one its reference figure was measured on.
pub fn playout_mural(how: &Playout, rng: &mut impl Rng) -> Option<Played> {
    let board = &how.board;
    let colours = how.colours.clamp(1, MAX_COLOURS);
    let mut cells: Vec<usize> = board.geometry.cells().collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.random_range(0..=i));
    }
    let towers = rng.random_range(how.towers.clone());
    let walls = rng.random_range(how.walls.clone());
    let mut start = State::empty(board.slots());
    for (i, &c) in cells.iter().take(towers + walls).enumerate() {
        let colour = if colours > 1 {
            rng.random_range(0..colours) as u8
        } else {
            0
        };
        start.set(c, Some((colour, if i < towers { 2 } else { 1 })));
    }
    let sacrifice = how.sacrifice && colours > 1;
    let mut path = vec![start.clone()];
    let mut s = start.clone();
    let mut moves = Vec::new();
    while path.len() <= how.max_moves {
        s.moves(board, sacrifice, &mut moves);
        if moves.is_empty() {
            break;
        }
        s.apply(moves[rng.random_range(0..moves.len())]);
        path.push(s.clone());
    }
    if s.towers().next().is_some() || path.len() == 1 {
        return None;
    }
    let targets = (0..board.slots()).map(|c| s.get(c).is_some()).collect();
    Some(Played {
        puzzle: Puzzle {
            title: "random playout".into(),
            author: "murus_mural::playout".into(),
            board: board.clone(),
            colours: ['r', 'g', 'b'][..colours].to_vec(),
            sacrifice,
            start,
            targets,
            notes: None,
            optimal: None,
            difficulty: None,
        },
        path,
    })
}
