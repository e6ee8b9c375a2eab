//! Where a diagram's parts go on the page: the cells, the coordinates in
//! the margins around the board, and the lines of text under it.
//!
//! Coordinates never overlap a cell or each other. On a rectangle the rank
//! numbers stand in one column left of the board and the file letters in
//! one row under it, whatever cells are removed. On a hexagon the files run
//! at 60° to the ranks, so no row can name them: each rank is named in the
//! empty slot left of its first cell and each file in the empty slot above
//! its top cell (as the studio does), or one further up where that slot
//! names a rank (a board with cells removed); each label then sits inside
//! an empty slot of its own.
//!
//! A board may be turned half a turn (seen from the other side, as a chess
//! site shows it to Black): every slot is placed where the slot opposite it
//! through the board's centre would be, which is a rotation by 180° for
//! rectangles and hexagons alike. The coordinates are then placed for the
//! turned board as for any other (ranks on the left, files under or above)
//! and keep their upright text, so they read as easily.

use std::collections::{BTreeMap, BTreeSet};

use murus_dsl::{Geometry, ShapeKind};
use murus_report::svg::text_width;

/// The distance between neighbouring cell centres, in SVG units.
pub(super) const PITCH: f64 = 60.0;
/// Room around everything drawn, in SVG units.
pub(super) const PAD: f64 = 8.0;
/// The height of a line of text under the board.
pub(super) const LINE: f64 = 28.0;
/// Font sizes: coordinates, the stones-taken line, the caption.
pub(super) const COORDINATE_SIZE: f64 = 14.0;
pub(super) const TAKEN_SIZE: f64 = 14.0;
pub(super) const CAPTION_SIZE: f64 = 16.0;

/// The centre of grid point `(x, y)` (fractions allowed) in board units
/// (cell pitch 1, y up), as the studio places it: hexagons pointy-top,
/// each rank half a cell right of the one below.
pub(super) fn unit_centre(kind: ShapeKind, x: f64, y: f64) -> (f64, f64) {
    match kind {
        ShapeKind::Rect => (x, y),
        ShapeKind::Hex => (x + y / 2.0, y * 3f64.sqrt() / 2.0),
    }
}

/// Half a cell's width and height around its centre, in SVG units: a
/// square, or a pointy-top hexagon (flat sides left and right).
pub(super) fn cell_half(kind: ShapeKind) -> (f64, f64) {
    match kind {
        ShapeKind::Rect => (PITCH / 2.0, PITCH / 2.0),
        ShapeKind::Hex => (PITCH / 2.0, PITCH / 3f64.sqrt()),
    }
}

/// A coordinate: its text and its centre on the page.
#[derive(Clone, Debug)]
pub(super) struct Label {
    pub text: String,
    pub at: (f64, f64),
}

/// The page: every slot's centre, the coordinates, the size, and where the
/// lines under the board go.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    centres: Vec<(f64, f64)>,
    pub labels: Vec<Label>,
    pub width: f64,
    pub height: f64,
    /// The baseline region's centre of the stones-taken line, if any.
    pub taken_y: Option<f64>,
    /// The same for the caption.
    pub caption_y: Option<f64>,
}

/// A box that grows to hold what is added.
struct Bounds {
    lo: (f64, f64),
    hi: (f64, f64),
}

impl Bounds {
    fn add(&mut self, (x, y): (f64, f64), (hw, hh): (f64, f64)) {
        self.lo = (self.lo.0.min(x - hw), self.lo.1.min(y - hh));
        self.hi = (self.hi.0.max(x + hw), self.hi.1.max(y + hh));
    }
}

impl Layout {
    /// The page of a board `g`, with coordinates if asked, and the lines
    /// of text under it, at least `min_width` wide.
    pub fn new(
        g: &Geometry,
        turned: bool,
        coordinates: bool,
        taken: Option<&str>,
        caption: Option<&str>,
        min_width: f64,
    ) -> Layout {
        let kind = g.kind();
        // On the page before it is placed: SVG units, y down.
        let raw = |(x, y): (f64, f64)| {
            let (ux, uy) = unit_centre(kind, x, y);
            (ux * PITCH, -uy * PITCH)
        };
        let mut bounds = Bounds {
            lo: (f64::MAX, f64::MAX),
            hi: (f64::MIN, f64::MIN),
        };
        let grid = |slot: usize| grid_point(g, turned, slot);
        for slot in g.cells() {
            let (x, y) = grid(slot);
            bounds.add(raw((f64::from(x), f64::from(y))), cell_half(kind));
        }
        let labels: Vec<Label> = if coordinates {
            coordinate_points(g, turned)
                .into_iter()
                .map(|(text, p)| Label { text, at: raw(p) })
                .collect()
        } else {
            Vec::new()
        };
        for l in &labels {
            bounds.add(l.at, label_half(&l.text));
        }
        if bounds.lo.0 > bounds.hi.0 {
            bounds.lo = (0.0, 0.0);
            bounds.hi = (0.0, 0.0);
        }
        let board_width = bounds.hi.0 - bounds.lo.0 + 2.0 * PAD;
        let board_height = bounds.hi.1 - bounds.lo.1 + 2.0 * PAD;
        let mut width = board_width.max(min_width);
        for (text, size) in [(taken, TAKEN_SIZE), (caption, CAPTION_SIZE)] {
            if let Some(text) = text {
                width = width.max(text_width(text, size) + 2.0 * PAD);
            }
        }
        // The board centred across the width.
        let dx = (width - board_width) / 2.0 + PAD - bounds.lo.0;
        let dy = PAD - bounds.lo.1;
        let shift = |(x, y): (f64, f64)| (x + dx, y + dy);
        let centres = (0..g.slots())
            .map(|slot| {
                let (x, y) = grid(slot);
                shift(raw((f64::from(x), f64::from(y))))
            })
            .collect();
        let labels = labels
            .into_iter()
            .map(|l| Label {
                at: shift(l.at),
                ..l
            })
            .collect();
        let mut height = board_height;
        let mut line = |present: bool| {
            present.then(|| {
                height += LINE;
                height - LINE * 0.35
            })
        };
        let taken_y = line(taken.is_some());
        let caption_y = line(caption.is_some());
        Layout {
            centres,
            labels,
            width,
            height,
            taken_y,
            caption_y,
        }
    }

    /// The centre of slot `slot` on the page.
    pub fn centre(&self, slot: usize) -> (f64, f64) {
        self.centres[slot]
    }
}

/// Half the box of a coordinate's text: its estimated width, the font's size.
fn label_half(text: &str) -> (f64, f64) {
    (
        text_width(text, COORDINATE_SIZE) / 2.0,
        COORDINATE_SIZE / 2.0,
    )
}

/// Where slot `slot` stands on the grid that is drawn: its own file and
/// rank, or, on a board `turned`, those of the slot opposite it through the
/// centre of the bounding grid.
fn grid_point(g: &Geometry, turned: bool, slot: usize) -> (i32, i32) {
    let (x, y) = g.coords(slot);
    let (x, y) = (x as i32, y as i32);
    if turned {
        (g.width() as i32 - 1 - x, g.height() as i32 - 1 - y)
    } else {
        (x, y)
    }
}

/// Each coordinate and its grid point (fractions of slots; see the module's
/// documentation for where they go). A label sits three quarters of the way
/// from its cell to the empty slot beside it, so inside that slot. On a
/// board `turned` the points are those of the turned grid, and each names
/// the file or rank of the board that stands there.
fn coordinate_points(g: &Geometry, turned: bool) -> Vec<(String, (f64, f64))> {
    let cells: Vec<(i32, i32)> = g.cells().map(|c| grid_point(g, turned, c)).collect();
    let (w, h) = (g.width() as i32, g.height() as i32);
    // Per rank its first and last file; per file its lowest and top rank.
    let mut ranks: BTreeMap<i32, (i32, i32)> = BTreeMap::new();
    let mut files: BTreeMap<i32, (i32, i32)> = BTreeMap::new();
    for &(x, y) in &cells {
        let r = ranks.entry(y).or_insert((x, x));
        *r = (r.0.min(x), r.1.max(x));
        let f = files.entry(x).or_insert((y, y));
        *f = (f.0.min(y), f.1.max(y));
    }
    let rank_name = |y: i32| (if turned { h - y } else { y + 1 }).to_string();
    let file_name =
        |x: i32| char::from(b'a' + (if turned { w - 1 - x } else { x }) as u8).to_string();
    let mut out = Vec::new();
    match g.kind() {
        ShapeKind::Rect => {
            let lo_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
            let lo_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
            for &y in ranks.keys() {
                out.push((rank_name(y), (f64::from(lo_x) - 0.75, f64::from(y))));
            }
            for &x in files.keys() {
                out.push((file_name(x), (f64::from(x), f64::from(lo_y) - 0.75)));
            }
        }
        ShapeKind::Hex => {
            let mut used = BTreeSet::new();
            for (&y, &(first, _)) in &ranks {
                used.insert((first - 1, y));
                out.push((rank_name(y), (f64::from(first) - 0.75, f64::from(y))));
            }
            for (&x, &(_, top)) in &files {
                // Rank labels stand on ranks of the board: far enough up
                // along the file a slot is free.
                let free = (top + 1..)
                    .find(|&y| !used.contains(&(x, y)))
                    .unwrap_or(top + 1);
                let y = f64::from(free) - 0.25;
                out.push((file_name(x), (f64::from(x), y)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rect_boards_coordinates_stand_in_one_column_and_one_row() {
        let mut g = Geometry::rect(6, 5).unwrap();
        // Cut corners: a1 and f5.
        g.remove(0);
        g.remove(4 * 6 + 5);
        let points = coordinate_points(&g, false);
        assert_eq!(points.len(), 11);
        let ranks: Vec<f64> = points[..5].iter().map(|(_, p)| p.0).collect();
        let files: Vec<f64> = points[5..].iter().map(|(_, p)| p.1).collect();
        assert!(ranks.iter().all(|&x| x == -0.75), "{ranks:?}");
        assert!(files.iter().all(|&y| y == -0.75), "{files:?}");
    }

    #[test]
    fn a_file_whose_slot_names_a_rank_is_named_one_slot_further_up() {
        // Side 3 without a5: rank 5 starts at b5 and is named in a5's
        // slot, which is also the slot above file a's top cell, a4.
        let mut g = Geometry::hex(3).unwrap();
        let a5 = g.parse_cell("a5").unwrap();
        g.remove(a5);
        let points = coordinate_points(&g, false);
        let at = |text: &str| points.iter().find(|(t, _)| t == text).unwrap().1;
        assert_eq!(at("5"), (0.25, 4.0));
        assert_eq!(at("a"), (0.0, 4.75));
        // Without the cut, file a is named above a5.
        let points = coordinate_points(&Geometry::hex(3).unwrap(), false);
        let (_, a) = points.iter().find(|(t, _)| t == "a").unwrap();
        assert_eq!(*a, (0.0, 4.75));
    }
}
