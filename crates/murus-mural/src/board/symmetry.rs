//! The board's symmetries that keep a puzzle's targets in place, so that
//! symmetric states share one entry of a search's table.

use super::Board;

/// A permutation of slots that maps the board, its sowing lines, its
/// adjacency and the puzzle's targets onto themselves.
pub type Symmetry = Vec<u8>;

/// The symmetries of `board` that keep `targets` in place (as a set),
/// identity first. Candidates are the dihedral maps of the rectangle or
/// hexagon; each is verified against every line and neighbour, so a wrong
/// candidate is dropped, never trusted.
pub fn symmetries(board: &Board, targets: &[bool]) -> Vec<Symmetry> {
    let g = &board.geometry;
    let (w, h) = (g.width() as i32, g.height() as i32);
    type Map = Box<dyn Fn(i32, i32) -> Option<(i32, i32)>>;
    let mut maps: Vec<Map> = Vec::new();
    match g.kind() {
        murus_dsl::ShapeKind::Rect => {
            for swap in [false, true] {
                for sx in [1, -1] {
                    for sy in [1, -1] {
                        maps.push(Box::new(move |x, y| {
                            // Doubled coordinates about the centre.
                            let (cx, cy) = (2 * x - (w - 1), 2 * y - (h - 1));
                            let (nx, ny) = if swap {
                                (cy * sx, cx * sy)
                            } else {
                                (cx * sx, cy * sy)
                            };
                            let (x2, y2) = (nx + (w - 1), ny + (h - 1));
                            (x2 % 2 == 0 && y2 % 2 == 0).then_some((x2 / 2, y2 / 2))
                        }));
                    }
                }
            }
        }
        murus_dsl::ShapeKind::Hex => {
            let c = (w - 1) / 2;
            let perms: [[usize; 3]; 6] = [
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0],
            ];
            for perm in perms {
                for sign in [1, -1] {
                    maps.push(Box::new(move |x, y| {
                        let (q, r) = (x - c, y - c);
                        let cube = [q, r, -q - r];
                        Some((sign * cube[perm[0]] + c, sign * cube[perm[1]] + c))
                    }));
                }
            }
        }
    }
    let mut out: Vec<Symmetry> = Vec::new();
    'maps: for f in maps {
        let mut perm = vec![0u8; g.slots()];
        for s in g.cells() {
            let (x, y) = g.coords(s);
            let Some((nx, ny)) = f(x as i32, y as i32) else {
                continue 'maps;
            };
            let Some(t) = g.slot_at(nx, ny) else {
                continue 'maps;
            };
            if targets[s] != targets[t] {
                continue 'maps;
            }
            perm[s] = t as u8;
        }
        for s in g.cells() {
            let t = perm[s] as usize;
            for &(a, b) in board.lines(s) {
                if !board
                    .lines(t)
                    .contains(&(perm[a as usize], perm[b as usize]))
                {
                    continue 'maps;
                }
            }
            for &a in board.adjacent(s) {
                if !board.adjacent(t).contains(&perm[a as usize]) {
                    continue 'maps;
                }
            }
            if board.lines(s).len() != board.lines(t).len()
                || board.adjacent(s).len() != board.adjacent(t).len()
            {
                continue 'maps;
            }
        }
        if !out.contains(&perm) {
            out.push(perm);
        }
    }
    // The identity is always a candidate that passes; keep it first.
    let id: Symmetry = (0..g.slots())
        .map(|s| if g.exists(s) { s as u8 } else { 0 })
        .collect();
    out.retain(|p| *p != id);
    out.insert(0, id);
    out
}
