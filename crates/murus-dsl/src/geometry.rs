//! Board geometry: shapes, cell names and directions.
//!
//! Every board lives in a bounding grid of `width × height` *slots*; slot
//! `y * width + x` is the cell on file `x` (a, b, …) and rank `y + 1`. A board
//! is a set of existing slots, so holes and removed corners are simply missing
//! slots. Directions are `(dx, dy)` steps in that grid, which makes every
//! neighbour relation a constant shift of the slot index — the engine relies
//! on this to move whole bitboards at once.
//!
//! # Hex boards
//!
//! A hexagon of side `n` uses a `(2n-1) × (2n-1)` grid in *axial* coordinates:
//! rows are ranks `1..=2n-1` from the bottom, and each rank is drawn shifted
//! half a cell to the right of the rank below it. Slot `(x, y)` exists when
//! `|x - c|`, `|y - c|` and `|x + y - 2c|` are all at most `c = n - 1`. Rank 1
//! therefore runs from file `n` to file `2n-1` (`e1`–`i1` for side 5), the
//! middle rank from `a` to the last file, and the top rank from `a` to the
//! `n`th file (`a9`–`e9`). The six directions are `e (1,0)`, `w (-1,0)`,
//! `ne (0,1)`, `sw (0,-1)`, `nw (-1,1)` and `se (1,-1)`.

use std::fmt;

/// Largest number of slots in a bounding grid (the engine's widest bitboard).
pub const MAX_SLOTS: usize = 128;

/// A compass direction of the board's topology.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Direction {
    /// Lower-case name as written in rule files (`n`, `ne`, …).
    pub name: &'static str,
    /// Step along files.
    pub dx: i8,
    /// Step along ranks.
    pub dy: i8,
}

const fn dir(name: &'static str, dx: i8, dy: i8) -> Direction {
    Direction { name, dx, dy }
}

/// The eight square-board directions, clockwise from north. Rotating by one
/// index is a turn of 45°.
pub const SQUARE_DIRECTIONS: [Direction; 8] = [
    dir("n", 0, 1),
    dir("ne", 1, 1),
    dir("e", 1, 0),
    dir("se", 1, -1),
    dir("s", 0, -1),
    dir("sw", -1, -1),
    dir("w", -1, 0),
    dir("nw", -1, 1),
];

/// The six hex-board directions, clockwise from north-east. Rotating by one
/// index is a turn of 60°.
pub const HEX_DIRECTIONS: [Direction; 6] = [
    dir("ne", 0, 1),
    dir("e", 1, 0),
    dir("se", 1, -1),
    dir("sw", 0, -1),
    dir("w", -1, 0),
    dir("nw", -1, 1),
];

/// A direction relative to a player's forward direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relative {
    Forward,
    ForwardRight,
    Right,
    BackRight,
    Back,
    BackLeft,
    Left,
    ForwardLeft,
}

impl Relative {
    /// All relative directions with their rule-file names.
    pub const ALL: [(Relative, &'static str); 8] = [
        (Relative::Forward, "forward"),
        (Relative::ForwardRight, "forward-right"),
        (Relative::Right, "right"),
        (Relative::BackRight, "back-right"),
        (Relative::Back, "back"),
        (Relative::BackLeft, "back-left"),
        (Relative::Left, "left"),
        (Relative::ForwardLeft, "forward-left"),
    ];

    /// The rule-file name.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(r, _)| *r == self)
            .map_or("?", |(_, n)| n)
    }

    /// Parses a rule-file name.
    pub fn from_name(name: &str) -> Option<Relative> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(r, _)| *r)
    }

    /// Clockwise rotation in direction-index steps on the given shape, or
    /// `None` when the shape has no such direction (hex boards have no
    /// `left` or `right`).
    pub fn steps(self, shape: ShapeKind) -> Option<usize> {
        match shape {
            ShapeKind::Rect => Some(match self {
                Relative::Forward => 0,
                Relative::ForwardRight => 1,
                Relative::Right => 2,
                Relative::BackRight => 3,
                Relative::Back => 4,
                Relative::BackLeft => 5,
                Relative::Left => 6,
                Relative::ForwardLeft => 7,
            }),
            ShapeKind::Hex => match self {
                Relative::Forward => Some(0),
                Relative::ForwardRight => Some(1),
                Relative::BackRight => Some(2),
                Relative::Back => Some(3),
                Relative::BackLeft => Some(4),
                Relative::ForwardLeft => Some(5),
                Relative::Left | Relative::Right => None,
            },
        }
    }
}

/// The two families of board shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeKind {
    Rect,
    Hex,
}

impl ShapeKind {
    /// How many king steps (moves to a neighbouring cell) a step of `dx`
    /// files and `dy` ranks goes: on a rectangle the larger of the two; on
    /// a hex board, whose axes `e` and `ne` are 60° apart, the largest of
    /// the two and their sum.
    pub fn king_steps(self, dx: i32, dy: i32) -> u32 {
        let (x, y) = (dx.unsigned_abs(), dy.unsigned_abs());
        match self {
            ShapeKind::Rect => x.max(y),
            ShapeKind::Hex => x.max(y).max((dx + dy).unsigned_abs()),
        }
    }
}

/// A board: its bounding grid and which slots exist.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Geometry {
    kind: ShapeKind,
    width: u8,
    height: u8,
    /// `exists[slot]`.
    exists: Vec<bool>,
}

/// Why a board shape cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GeometryError {
    /// A dimension is zero or too large for cell names (more than 26 files or 99 ranks).
    BadSize(String),
    /// The bounding grid has more slots than the widest bitboard.
    TooManySlots(usize),
}

impl fmt::Display for GeometryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GeometryError::BadSize(msg) => f.write_str(msg),
            GeometryError::TooManySlots(n) => write!(
                f,
                "the board's bounding grid has {n} cells; at most {MAX_SLOTS} are supported"
            ),
        }
    }
}

impl Geometry {
    /// A `width × height` rectangle.
    pub fn rect(width: u32, height: u32) -> Result<Geometry, GeometryError> {
        if width == 0 || height == 0 {
            return Err(GeometryError::BadSize(
                "a board needs at least one file and one rank".into(),
            ));
        }
        if width > 26 {
            return Err(GeometryError::BadSize(format!(
                "a board has at most 26 files (a–z), not {width}"
            )));
        }
        if height > 99 {
            return Err(GeometryError::BadSize(format!(
                "a board has at most 99 ranks, not {height}"
            )));
        }
        let slots = (width * height) as usize;
        if slots > MAX_SLOTS {
            return Err(GeometryError::TooManySlots(slots));
        }
        Ok(Geometry {
            kind: ShapeKind::Rect,
            width: width as u8,
            height: height as u8,
            exists: vec![true; slots],
        })
    }

    /// A hexagon of side `side` (hex-hex), in axial coordinates.
    pub fn hex(side: u32) -> Result<Geometry, GeometryError> {
        // The largest side whose (2N-1)² bounding grid fits: 6 (121 slots).
        let max_side = (2..)
            .take_while(|&n: &u32| ((2 * n - 1) * (2 * n - 1)) as usize <= MAX_SLOTS)
            .last()
            .unwrap_or(2);
        if !(2..=max_side).contains(&side) {
            return Err(GeometryError::BadSize(format!(
                "a hexagon needs a side from 2 to {max_side}, not {side}"
            )));
        }
        let w = 2 * side - 1;
        let slots = (w * w) as usize;
        if slots > MAX_SLOTS {
            return Err(GeometryError::TooManySlots(slots));
        }
        let c = (side - 1) as i32;
        let mut exists = vec![false; slots];
        for y in 0..w as i32 {
            for x in 0..w as i32 {
                exists[(y * w as i32 + x) as usize] =
                    (x - c).abs() <= c && (y - c).abs() <= c && (x + y - 2 * c).abs() <= c;
            }
        }
        Ok(Geometry {
            kind: ShapeKind::Hex,
            width: w as u8,
            height: w as u8,
            exists,
        })
    }

    /// Removes a cell (no effect when it is already missing).
    pub fn remove(&mut self, slot: usize) {
        if let Some(e) = self.exists.get_mut(slot) {
            *e = false;
        }
    }

    pub fn kind(&self) -> ShapeKind {
        self.kind
    }
    /// Files in the bounding grid.
    pub fn width(&self) -> usize {
        self.width as usize
    }
    /// Ranks in the bounding grid.
    pub fn height(&self) -> usize {
        self.height as usize
    }
    /// Slots in the bounding grid (existing or not).
    pub fn slots(&self) -> usize {
        self.exists.len()
    }
    /// Number of existing cells.
    pub fn cell_count(&self) -> usize {
        self.exists.iter().filter(|e| **e).count()
    }
    /// Whether slot `slot` is a cell of the board.
    pub fn exists(&self, slot: usize) -> bool {
        self.exists.get(slot).copied().unwrap_or(false)
    }
    /// Existing cells, in slot order (rank 1 first, files left to right).
    pub fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.exists.len()).filter(|&s| self.exists[s])
    }
    /// `(file, rank)` indices of a slot, both from 0.
    pub fn coords(&self, slot: usize) -> (usize, usize) {
        (slot % self.width(), slot / self.width())
    }
    /// The slot at `(x, y)`, if that is a cell of the board.
    pub fn slot_at(&self, x: i32, y: i32) -> Option<usize> {
        if x < 0 || y < 0 || x >= i32::from(self.width) || y >= i32::from(self.height) {
            return None;
        }
        let s = y as usize * self.width() + x as usize;
        self.exists[s].then_some(s)
    }
    /// The cell `k` steps from `slot` in direction `d`, if it exists.
    pub fn step(&self, slot: usize, d: Direction, k: i32) -> Option<usize> {
        let (x, y) = self.coords(slot);
        self.slot_at(
            x as i32 + i32::from(d.dx) * k,
            y as i32 + i32::from(d.dy) * k,
        )
    }
    /// The topology's directions, clockwise; rotating by one index turns by
    /// 45° (square) or 60° (hex).
    pub fn directions(&self) -> &'static [Direction] {
        match self.kind {
            ShapeKind::Rect => &SQUARE_DIRECTIONS,
            ShapeKind::Hex => &HEX_DIRECTIONS,
        }
    }
    /// Index of the named direction in [`Geometry::directions`].
    pub fn direction_index(&self, name: &str) -> Option<usize> {
        self.directions().iter().position(|d| d.name == name)
    }
    /// The name of a slot (`a1`, `h7`, …), whether or not it exists.
    pub fn name(&self, slot: usize) -> String {
        let (x, y) = self.coords(slot);
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }
    /// The existing cell with this name.
    pub fn parse_cell(&self, name: &str) -> Option<usize> {
        let mut chars = name.chars();
        let file = chars.next()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let rank = chars.as_str();
        if rank.is_empty() || !rank.bytes().all(|b| b.is_ascii_digit()) || rank.starts_with('0') {
            return None;
        }
        let rank: i32 = rank.parse().ok()?;
        self.slot_at(i32::from(file as u8 - b'a'), rank - 1)
    }
    /// Edge names of the shape, for diagnostics.
    pub fn edge_names(&self) -> &'static [&'static str] {
        match self.kind {
            ShapeKind::Rect => &["n", "e", "s", "w"],
            ShapeKind::Hex => &["n", "ne", "se", "s", "sw", "nw"],
        }
    }
    /// Cells of a named edge of the bounding shape (`n`, `s`, …), or `None`
    /// for a name this shape has no edge for. Removed cells are left out.
    pub fn edge(&self, name: &str) -> Option<Vec<usize>> {
        if !self.edge_names().contains(&name) {
            return None;
        }
        let (w, h) = (self.width() as i32, self.height() as i32);
        let c = (w - 1) / 2;
        Some(
            self.cells()
                .filter(|&s| {
                    let (x, y) = self.coords(s);
                    let (x, y) = (x as i32, y as i32);
                    match (self.kind, name) {
                        (_, "n") => y == h - 1,
                        (_, "s") => y == 0,
                        (ShapeKind::Rect, "e") => x == w - 1,
                        (ShapeKind::Rect, "w") => x == 0,
                        (ShapeKind::Hex, "sw") => x + y == c,
                        (ShapeKind::Hex, "ne") => x + y == 3 * c,
                        (ShapeKind::Hex, "nw") => x == 0,
                        (ShapeKind::Hex, "se") => x == w - 1,
                        _ => false,
                    }
                })
                .collect(),
        )
    }
    /// The existing cells of a rank (1-based), left to right.
    pub fn rank(&self, rank: usize) -> Vec<usize> {
        self.cells()
            .filter(|&s| self.coords(s).1 + 1 == rank)
            .collect()
    }
    /// The existing cells of a file (0-based index), bottom to top.
    pub fn file(&self, file: usize) -> Vec<usize> {
        self.cells().filter(|&s| self.coords(s).0 == file).collect()
    }
}

impl fmt::Debug for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Geometry {:?} {}x{}", self.kind, self.width, self.height)?;
        for y in (0..self.height()).rev() {
            for x in 0..self.width() {
                let s = y * self.width() + x;
                f.write_str(if self.exists[s] { "." } else { " " })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_side_5_has_61_cells_named_as_documented() {
        let g = Geometry::hex(5).unwrap();
        assert_eq!(g.cell_count(), 61);
        let names = |v: Vec<usize>| v.into_iter().map(|s| g.name(s)).collect::<Vec<_>>();
        assert_eq!(names(g.rank(1)), ["e1", "f1", "g1", "h1", "i1"]);
        assert_eq!(names(g.rank(9)), ["a9", "b9", "c9", "d9", "e9"]);
        assert_eq!(g.rank(5).len(), 9);
        assert_eq!(names(g.edge("sw").unwrap()), ["e1", "d2", "c3", "b4", "a5"]);
        assert_eq!(names(g.edge("ne").unwrap()), ["i5", "h6", "g7", "f8", "e9"]);
        for e in g.edge_names() {
            assert_eq!(g.edge(e).unwrap().len(), 5, "edge {e}");
        }
    }

    #[test]
    fn every_hex_cell_has_six_neighbours_in_the_interior() {
        let g = Geometry::hex(5).unwrap();
        let centre = g.parse_cell("e5").unwrap();
        let n = g
            .directions()
            .iter()
            .filter(|d| g.step(centre, **d, 1).is_some())
            .count();
        assert_eq!(n, 6);
    }

    #[test]
    fn cell_names_round_trip_and_reject_junk() {
        let g = Geometry::rect(8, 7).unwrap();
        for s in g.cells() {
            assert_eq!(g.parse_cell(&g.name(s)), Some(s));
        }
        for bad in ["", "a", "a0", "a8", "i1", "A1", "a01", "1a", "a1x"] {
            assert_eq!(g.parse_cell(bad), None, "{bad}");
        }
    }

    #[test]
    fn oversized_boards_are_refused() {
        assert!(Geometry::rect(12, 11).is_err());
        assert!(Geometry::rect(16, 8).is_ok());
        assert!(Geometry::hex(7).is_err());
        for side in [0, 1, 7, 13, 1000] {
            assert_eq!(
                Geometry::hex(side).unwrap_err().to_string(),
                format!("a hexagon needs a side from 2 to 6, not {side}")
            );
        }
        assert!(Geometry::hex(6).is_ok());
        assert!(Geometry::hex(6).is_ok());
    }
}
