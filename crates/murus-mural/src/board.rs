//! Mural boards and states: any board the rules language describes, stacks
//! of up to two stones of up to four colours, and the tower moves.

use murus_dsl::Geometry;

use crate::refute::{Tri, line_invariants};

/// Default display colours by colour index.
const PALETTE: [&str; 4] = ["#e8dcc0", "#5b3a29", "#3a6ea5", "#a53a3a"];

/// A mural board: the geometry, with the lines a tower sows along and the
/// neighbours a tower may sacrifice against, precomputed.
#[derive(Clone, Debug)]
pub struct Board {
    /// The board as written in the puzzle (`5x5`, `hex 3`, …).
    pub text: String,
    pub geometry: Geometry,
    /// Per slot: `(c1, c2)` for each direction whose two steps exist.
    lines: Vec<Vec<(u8, u8)>>,
    /// Per slot: the adjacent cells.
    adjacent: Vec<Vec<u8>>,
    /// Per slot: the cells its sowing lines land on, as a bit set (empty on
    /// boards over [`MAX_SLOTS`]).
    landings: Vec<u64>,
    /// A basis of the weightings of the cells modulo 3 under which every
    /// sowing line's three cells weigh 0 together (see [`crate::refute`]).
    invariants: Vec<Tri>,
}

/// Turns `5x5` into `rect 5 x 5`; other text is the rules language's own
/// board statement, with or without the word `board`.
pub fn board_statement(text: &str) -> String {
    let t = text.trim();
    let t = t.strip_prefix("board").map_or(t, str::trim_start);
    if let Some((w, h)) = t.split_once(['x', 'X', '×']) {
        if let (Ok(w), Ok(h)) = (w.trim().parse::<u32>(), h.trim().parse::<u32>()) {
            return format!("rect {w} x {h}");
        }
    }
    t.to_string()
}

/// A rules-language source for a mural board with these colours: stack
/// limit 2, towers sow onto empty cells and own walls, optional sacrifice,
/// and no way to win, so the engine can replay a mural's moves.
pub fn rules_source(board: &str, colours: &[char], sacrifice: bool) -> String {
    let statement = board_statement(board);
    let hex = statement.starts_with("hex");
    let forward = if hex { "ne" } else { "n" };
    let mut s = format!("variant \"mural\"\ntitle \"Mural\"\nboard {statement}\n");
    // The language wants two players at least: pad with an idle one.
    let mut colours = colours.to_vec();
    if colours.len() < 2 {
        let spare = ['z', 'y']
            .into_iter()
            .find(|c| !colours.contains(c))
            .unwrap_or('x');
        colours.push(spare);
    }
    for (i, c) in colours.iter().enumerate() {
        s.push_str(&format!(
            "player \"{c}\" {{ letter {c} colour \"{}\" home all forward {forward} }}\n",
            PALETTE[i % PALETTE.len()]
        ));
    }
    if let Some(c) = colours.first() {
        s.push_str(&format!("setup {{ {c} 1 on all }}\n"));
    }
    s.push_str("stack limit 2\nsow { heights 2 directions all onto empty, own 1 }\n");
    if sacrifice {
        s.push_str("sacrifice { directions all 2 against 1: lose 1, remove 1 }\n");
    }
    s.push_str("win { stalemate draws }\n");
    s
}

impl Board {
    /// Parses board text (`5x5`, `rect 6 x 5 without cells a1`, `hex 3`).
    /// The error is the rules compiler's message.
    pub fn parse(text: &str) -> Result<Board, String> {
        let source = rules_source(text, &['r'], false);
        let rules = match murus_dsl::compile(&source) {
            Ok(c) => c.rules,
            Err(diags) => {
                let d = diags
                    .iter()
                    .find(|d| d.is_error())
                    .or(diags.first())
                    .expect("a failed compile reports something");
                let mut msg = d.message.clone();
                if let Some(n) = d.notes.first() {
                    msg.push_str(&format!(" ({n})"));
                }
                return Err(msg);
            }
        };
        if rules.geometry.slots() > MAX_SLOTS {
            return Err(format!(
                "murals support boards whose bounding grid has at most {MAX_SLOTS} cells; this one has {}",
                rules.geometry.slots()
            ));
        }
        Ok(Board::from_geometry(text.trim(), rules.geometry))
    }

    pub fn from_geometry(text: &str, geometry: Geometry) -> Board {
        let slots = geometry.slots();
        let mut lines = vec![Vec::new(); slots];
        let mut adjacent = vec![Vec::new(); slots];
        for s in geometry.cells() {
            for &d in geometry.directions() {
                if let Some(a) = geometry.step(s, d, 1) {
                    adjacent[s].push(a as u8);
                    if let Some(b) = geometry.step(s, d, 2) {
                        lines[s].push((a as u8, b as u8));
                    }
                }
            }
        }
        let landings = if slots <= MAX_SLOTS {
            lines
                .iter()
                .map(|l: &Vec<(u8, u8)>| l.iter().fold(0u64, |m, &(a, b)| m | 1 << a | 1 << b))
                .collect()
        } else {
            vec![0; slots]
        };
        let mut board = Board {
            text: text.to_string(),
            geometry,
            lines,
            adjacent,
            landings,
            invariants: Vec::new(),
        };
        board.invariants = line_invariants(&board);
        board
    }

    pub fn slots(&self) -> usize {
        self.geometry.slots()
    }

    /// The sowing lines from `slot`.
    pub fn lines(&self, slot: usize) -> &[(u8, u8)] {
        &self.lines[slot]
    }

    pub fn adjacent(&self, slot: usize) -> &[u8] {
        &self.adjacent[slot]
    }

    /// The cells the sowing lines from `slot` land on, as a bit set.
    pub(crate) fn landings(&self, slot: usize) -> u64 {
        self.landings[slot]
    }

    /// A basis of the cell weightings modulo 3 that no sowing changes the
    /// stones' total of (see [`crate::refute`]); each vanishes on the first
    /// cell, so the constant weighting, which only counts stones, is left out.
    pub(crate) fn invariants(&self) -> &[Tri] {
        &self.invariants
    }

    pub fn name(&self, slot: usize) -> String {
        self.geometry.name(slot)
    }

    pub fn parse_cell(&self, name: &str) -> Option<usize> {
        self.geometry.parse_cell(name.trim())
    }
}

/// The largest bounding grid a mural board may have: states pack into a
/// [`Key`] of 64 four-bit cells.
pub const MAX_SLOTS: usize = 64;

/// An exact, packed image of a [`State`]: four bits a slot. Used as the
/// transposition-table key instead of a Zobrist hash, so that no collision
/// can ever make the solver wrong.
pub type Key = [u64; 4];

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

/// One mural move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MuralMove {
    /// A tower on `from` drops one stone on `near` and one on `far`.
    Sow { from: u8, near: u8, far: u8 },
    /// A tower on `from` gives up a stone to remove the wall on `target`.
    Sacrifice { from: u8, target: u8 },
}

impl MuralMove {
    /// The cells the move touches.
    pub fn cells(self) -> [u8; 3] {
        match self {
            MuralMove::Sow { from, near, far } => [from, near, far],
            MuralMove::Sacrifice { from, target } => [from, target, target],
        }
    }

    pub fn from(self) -> usize {
        match self {
            MuralMove::Sow { from, .. } | MuralMove::Sacrifice { from, .. } => from as usize,
        }
    }

    /// Notation: `a1-c3` or `b4xc5`.
    pub fn notation(self, board: &Board) -> String {
        match self {
            MuralMove::Sow { from, far, .. } => {
                format!("{}-{}", board.name(from as usize), board.name(far as usize))
            }
            MuralMove::Sacrifice { from, target } => {
                format!(
                    "{}x{}",
                    board.name(from as usize),
                    board.name(target as usize)
                )
            }
        }
    }

    /// Whether two moves touch no common cell, so they commute.
    pub fn independent(self, other: MuralMove) -> bool {
        let a = self.cells();
        let b = other.cells();
        !a.iter().any(|x| b.contains(x))
    }
}

/// A stack: colour index and height (1 wall, 2 tower); `None` is empty.
pub type Stack = Option<(u8, u8)>;

/// A cell's stack in four bits: 0 empty, else `1 + 2·colour + height − 1`.
#[inline]
fn nibble(v: u8) -> u8 {
    if v == 0 {
        0
    } else {
        1 + 2 * ((v >> 2) - 1) + (v & 3) - 1
    }
}

/// The stones on a mural board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Per slot: 0 empty, else `(colour + 1) << 2 | height`.
    cells: Vec<u8>,
}

impl State {
    pub fn empty(slots: usize) -> State {
        State {
            cells: vec![0; slots],
        }
    }

    #[inline]
    pub fn get(&self, slot: usize) -> Stack {
        let v = self.cells[slot];
        (v != 0).then(|| ((v >> 2) - 1, v & 3))
    }

    #[inline]
    pub fn set(&mut self, slot: usize, stack: Stack) {
        self.cells[slot] = match stack {
            None => 0,
            Some((c, h)) => ((c + 1) << 2) | h,
        };
    }

    pub fn raw(&self) -> &[u8] {
        &self.cells
    }

    /// The exact packed key of this state.
    #[inline]
    pub fn key(&self) -> Key {
        let mut k = [0u64; 4];
        for (i, &v) in self.cells.iter().enumerate() {
            k[i >> 4] |= u64::from(nibble(v)) << ((i & 15) * 4);
        }
        k
    }

    /// The smallest key among the images of this state under `syms` (all of
    /// which preserve the puzzle), so symmetric states share table entries.
    #[inline]
    pub fn canonical_key(&self, syms: &[Symmetry]) -> Key {
        let mut best = self.key();
        for perm in syms.iter().skip(1) {
            let mut k = [0u64; 4];
            for (i, &v) in self.cells.iter().enumerate() {
                if v != 0 {
                    let j = perm[i] as usize;
                    k[j >> 4] |= u64::from(nibble(v)) << ((j & 15) * 4);
                }
            }
            // Compare from the most significant word.
            if k.iter().rev().lt(best.iter().rev()) {
                best = k;
            }
        }
        best
    }

    /// A 64-bit hash (FNV-1a over the cells).
    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in &self.cells {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h
    }

    /// Stones on the board.
    pub fn stones(&self) -> u32 {
        self.cells.iter().map(|&v| u32::from(v & 3)).sum()
    }

    /// Slots holding towers.
    pub fn towers(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, v)| *v & 3 == 2)
            .map(|(s, _)| s)
    }

    /// The legal moves, sowings first, in slot order.
    pub fn moves(&self, board: &Board, sacrifice: bool, out: &mut Vec<MuralMove>) {
        out.clear();
        for s in 0..self.cells.len() {
            let Some((c, 2)) = self.get(s) else { continue };
            for &(a, b) in board.lines(s) {
                let ok = |x: u8| match self.get(x as usize) {
                    None => true,
                    Some((oc, 1)) => oc == c,
                    _ => false,
                };
                if ok(a) && ok(b) {
                    out.push(MuralMove::Sow {
                        from: s as u8,
                        near: a,
                        far: b,
                    });
                }
            }
            if sacrifice {
                for &t in board.adjacent(s) {
                    if let Some((oc, 1)) = self.get(t as usize) {
                        if oc != c {
                            out.push(MuralMove::Sacrifice {
                                from: s as u8,
                                target: t,
                            });
                        }
                    }
                }
            }
        }
    }

    /// Plays a legal move.
    pub fn apply(&mut self, m: MuralMove) {
        match m {
            MuralMove::Sow { from, near, far } => {
                let (c, _) = self.get(from as usize).expect("a tower sows");
                self.set(from as usize, None);
                for x in [near, far] {
                    let h = self.get(x as usize).map_or(0, |(_, h)| h);
                    self.set(x as usize, Some((c, h + 1)));
                }
            }
            MuralMove::Sacrifice { from, target } => {
                let (c, _) = self.get(from as usize).expect("a tower sacrifices");
                self.set(from as usize, Some((c, 1)));
                self.set(target as usize, None);
            }
        }
    }

    /// Undoes `m`, which was just played by `colour`.
    pub fn undo(&mut self, m: MuralMove, colour: u8, removed: Stack) {
        match m {
            MuralMove::Sow { from, near, far } => {
                for x in [near, far] {
                    let h = self.get(x as usize).map_or(0, |(_, h)| h);
                    self.set(x as usize, if h > 1 { Some((colour, h - 1)) } else { None });
                }
                self.set(from as usize, Some((colour, 2)));
            }
            MuralMove::Sacrifice { from, target } => {
                self.set(from as usize, Some((colour, 2)));
                self.set(target as usize, removed);
            }
        }
    }

    /// Whether exactly the `targets` hold one stone each and nothing else
    /// is on the board.
    pub fn is_solved(&self, targets: &[bool]) -> bool {
        self.cells
            .iter()
            .zip(targets)
            .all(|(&v, &t)| if t { v & 3 == 1 } else { v == 0 })
    }
}
