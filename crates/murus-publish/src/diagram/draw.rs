//! The shapes a diagram is drawn with: cell outlines, the print theme's
//! hatching, arrows (straight, arcing, hopping from drop cell to drop
//! cell) and the numbers on numbered arrows.

use std::fmt::Write as _;

use murus_dsl::ShapeKind;

use super::layout::{PITCH, cell_half};
use super::{escape, num};

/// A point on the page.
pub(super) type Point = (f64, f64);

/// A cell's outline around `centre`, `half` a pitch from it (0.5: the
/// whole cell): a square, or a pointy-top hexagon with flat sides left and
/// right, as its corners in order.
pub(super) fn outline(kind: ShapeKind, (cx, cy): Point, half: f64) -> Vec<Point> {
    let (hw, hh) = cell_half(kind);
    let (hw, hh) = (hw * 2.0 * half, hh * 2.0 * half);
    match kind {
        ShapeKind::Rect => vec![
            (cx - hw, cy - hh),
            (cx + hw, cy - hh),
            (cx + hw, cy + hh),
            (cx - hw, cy + hh),
        ],
        ShapeKind::Hex => (0..6)
            .map(|k| {
                let a = std::f64::consts::PI / 3.0 * f64::from(k) + std::f64::consts::PI / 6.0;
                (cx + hh * a.cos(), cy + hh * a.sin())
            })
            .collect(),
    }
}

/// A cell's outline as an SVG element's name and attributes: a `rect` for
/// a square, a `polygon` for a hexagon.
pub(super) fn shape(kind: ShapeKind, centre: Point, half: f64) -> String {
    let corners = outline(kind, centre, half);
    match kind {
        ShapeKind::Rect => {
            let (x0, y0) = corners[0];
            let (x1, y1) = corners[2];
            format!(
                r#"rect x="{}" y="{}" width="{}" height="{}""#,
                num(x0),
                num(y0),
                num(x1 - x0),
                num(y1 - y0)
            )
        }
        ShapeKind::Hex => {
            let points: Vec<String> = corners
                .iter()
                .map(|&(x, y)| format!("{},{}", num(x), num(y)))
                .collect();
            format!(r#"polygon points="{}""#, points.join(" "))
        }
    }
}

/// Hatching inside the convex polygon `corners`: lines rising to the right
/// every few units, on one grid for the whole page so that neighbouring
/// cells' lines meet, as one `<path>`.
pub(super) fn hatch(s: &mut String, corners: &[Point], colour: &str) {
    // Lines x + y = c, 7 units apart.
    let step = 7.0 * std::f64::consts::SQRT_2;
    let sums = corners.iter().map(|&(x, y)| x + y);
    let lo = sums.clone().fold(f64::MAX, f64::min);
    let hi = sums.fold(f64::MIN, f64::max);
    let mut d = String::new();
    let mut c = (lo / step).ceil() * step;
    while c < hi {
        if let Some((a, b)) = clip(corners, c) {
            let _ = write!(d, "M{} {}L{} {}", num(a.0), num(a.1), num(b.0), num(b.1));
        }
        c += step;
    }
    let _ = write!(
        s,
        r#"<path d="{d}" stroke="{colour}" stroke-width="1.4" fill="none"/>"#
    );
}

/// The part of the line x + y = `c` inside the convex polygon `corners`.
fn clip(corners: &[Point], c: f64) -> Option<(Point, Point)> {
    let mut hits: Vec<Point> = Vec::new();
    for (i, &p) in corners.iter().enumerate() {
        let q = corners[(i + 1) % corners.len()];
        let (fp, fq) = (p.0 + p.1 - c, q.0 + q.1 - c);
        if fp * fq <= 0.0 && fp != fq {
            let t = fp / (fp - fq);
            hits.push((p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1)));
        }
    }
    let a = hits.iter().copied().min_by(|a, b| a.0.total_cmp(&b.0))?;
    let b = hits.iter().copied().max_by(|a, b| a.0.total_cmp(&b.0))?;
    (b.0 - a.0 > 0.5).then_some((a, b))
}

/// The unit vector from `a` to `b`, and the distance.
fn towards(a: Point, b: Point) -> ((f64, f64), f64) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy).max(1e-9);
    ((dx / len, dy / len), len)
}

/// Where the line of an arrow ends, and its head's tip, for an arrow
/// arriving at the cell centred on `b` along `u`: the tip is kept off the
/// centre, the line stops under the head.
fn tip_and_base(b: Point, (ux, uy): (f64, f64)) -> (Point, Point) {
    let tip = (b.0 - ux * PITCH * 0.2, b.1 - uy * PITCH * 0.2);
    let base = (tip.0 - ux * PITCH * 0.22, tip.1 - uy * PITCH * 0.22);
    (tip, base)
}

/// A straight arrow from `a` to `b`, its ends kept off the cells' centres
/// (dashed for a sacrifice).
pub(super) fn straight(s: &mut String, a: Point, b: Point, dashed: bool) {
    let (u, _) = towards(a, b);
    let start = (a.0 + u.0 * PITCH * 0.15, a.1 + u.1 * PITCH * 0.15);
    let (tip, base) = tip_and_base(b, u);
    let dash = if dashed {
        r#" stroke-dasharray="6 5""#
    } else {
        ""
    };
    let _ = write!(
        s,
        r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke-width="{}" fill="none"{dash}/>"#,
        num(start.0),
        num(start.1),
        num(base.0),
        num(base.1),
        num(PITCH * 0.08)
    );
    head(s, tip, u);
}

/// The control point of a curve from `a` to `b` bulging `bulge` of its
/// length to the left of the way.
fn control(a: Point, b: Point, bulge: f64) -> Point {
    let ((ux, uy), len) = towards(a, b);
    (
        (a.0 + b.0) / 2.0 + uy * len * bulge,
        (a.1 + b.1) / 2.0 - ux * len * bulge,
    )
}

/// An arrow arcing from `a` to `b` (a throw flies over the board).
pub(super) fn arc(s: &mut String, a: Point, b: Point) {
    hops(s, &[a, b], 0.35);
}

/// An arrow through `points` (a stack, then each cell it drops a stone
/// on): one straight line when the cells are neighbours in a line, or a
/// hop from each to the next (`bulge` > 0) when the stones leap. Each cell
/// before the last gets a bar across the arrow: a stone drops there.
pub(super) fn sowing(s: &mut String, points: &[Point], bulge: f64) {
    let (Some(&a), Some(&b)) = (points.first(), points.last()) else {
        return;
    };
    if bulge > 0.0 {
        hops(s, points, bulge);
    } else {
        straight(s, a, b, false);
    }
    let (u, _) = towards(a, b);
    for &p in &points[1..points.len() - 1] {
        drop_bar(s, p, u);
    }
}

/// A curve from hop to hop through `points`, each bulging `bulge` of its
/// length to the left, ending in a head.
fn hops(s: &mut String, points: &[Point], bulge: f64) {
    let Some(&first) = points.first() else { return };
    let mut d = format!("M {} {}", num(first.0), num(first.1));
    let (mut tip, mut tip_u) = (first, (1.0, 0.0));
    for i in 1..points.len() {
        let (a, b) = (points[i - 1], points[i]);
        let c = control(a, b, bulge);
        let end = if i + 1 == points.len() {
            let (u, _) = towards(c, b);
            let (t, base) = tip_and_base(b, u);
            (tip, tip_u) = (t, u);
            base
        } else {
            b
        };
        let _ = write!(
            d,
            " Q {} {} {} {}",
            num(c.0),
            num(c.1),
            num(end.0),
            num(end.1)
        );
    }
    let _ = write!(
        s,
        r#"<path d="{d}" stroke-width="{}" fill="none"/>"#,
        num(PITCH * 0.08)
    );
    head(s, tip, tip_u);
}

/// A bar across an arrow going along `u`, centred on `p`.
fn drop_bar(s: &mut String, p: Point, (ux, uy): (f64, f64)) {
    let half = PITCH * 0.16;
    let _ = write!(
        s,
        r#"<line class="drop" x1="{}" y1="{}" x2="{}" y2="{}" stroke-width="{}"/>"#,
        num(p.0 - uy * half),
        num(p.1 + ux * half),
        num(p.0 + uy * half),
        num(p.1 - ux * half),
        num(PITCH * 0.08)
    );
}

/// An arrowhead with its point at `tip`, pointing along `(ux, uy)`.
fn head(s: &mut String, tip: Point, (ux, uy): (f64, f64)) {
    let (len, half) = (PITCH * 0.26, PITCH * 0.13);
    let base = (tip.0 - ux * len, tip.1 - uy * len);
    let _ = write!(
        s,
        r#"<polygon points="{},{} {},{} {},{}" stroke="none"/>"#,
        num(tip.0),
        num(tip.1),
        num(base.0 - uy * half),
        num(base.1 + ux * half),
        num(base.0 + uy * half),
        num(base.1 - ux * half)
    );
}

/// The radius of an arrow's number disc.
pub(super) const NUMBER_RADIUS: f64 = PITCH * 0.15;

/// The radius of a stack's disc; a stack of two or more stands on a second
/// disc [`STACK_LIFT`] below it.
pub(super) const STACK_RADIUS: f64 = PITCH * 0.38;
/// How far below a stack's disc the disc it stands on is drawn.
pub(super) const STACK_LIFT: f64 = PITCH * 0.06;

/// Where the number of an arrow from `a` towards `b` goes: near its start,
/// at the first of a few places on it, or else beside it, that keeps clear
/// of the numbers `placed` already and of the discs of the stacks centred
/// on `stacks` (a number over a stack would hide the rings that give its
/// height). Where no place is clear of both, the first clear of the
/// numbers.
pub(super) fn number_place(a: Point, b: Point, placed: &[Point], stacks: &[Point]) -> Point {
    let (u, len) = towards(a, b);
    let apart = |p: Point, q: Point, d: f64| (p.0 - q.0).hypot(p.1 - q.1) > d;
    let off_numbers = |p: Point| {
        placed
            .iter()
            .all(|&q| apart(p, q, 2.0 * NUMBER_RADIUS + 2.0))
    };
    let off_stacks = |p: Point| {
        stacks.iter().all(|&(x, y)| {
            let d = STACK_RADIUS + NUMBER_RADIUS + 1.0;
            apart(p, (x, y), d) && apart(p, (x, y + STACK_LIFT), d)
        })
    };
    // Along the arrow, then to either side of it, as far as the corners of
    // the cells it crosses (on a full board, the only places off every
    // stack).
    // On the arrow wherever it can be, beside it only where it cannot.
    let mut places = Vec::new();
    for side in [0.0, 0.32, -0.32, 0.5, -0.5] {
        let mut f = PITCH * 0.36;
        while f < len - PITCH * 0.3 + 1e-9 {
            let (x, y) = (a.0 + u.0 * f, a.1 + u.1 * f);
            places.push((x - u.1 * side * PITCH, y + u.0 * side * PITCH));
            f += NUMBER_RADIUS / 2.0;
        }
    }
    let nearest_stack = |p: Point| {
        stacks
            .iter()
            .map(|&(x, y)| {
                (p.0 - x)
                    .hypot(p.1 - y)
                    .min((p.0 - x).hypot(p.1 - y - STACK_LIFT))
            })
            .fold(f64::INFINITY, f64::min)
    };
    places
        .iter()
        .copied()
        .find(|&p| off_numbers(p) && off_stacks(p))
        .or_else(|| {
            // None clear of both: the one furthest from the stacks.
            places
                .iter()
                .copied()
                .filter(|&p| off_numbers(p))
                .max_by(|&p, &q| nearest_stack(p).total_cmp(&nearest_stack(q)))
        })
        .unwrap_or((a.0 + u.0 * PITCH * 0.36, a.1 + u.1 * PITCH * 0.36))
}

/// The number `n` of an arrow in a disc at `at`.
pub(super) fn number(s: &mut String, at: Point, n: usize, m: &str, colours: (&str, &str, &str)) {
    let (disc, line, text) = colours;
    let _ = writeln!(
        s,
        r#"<g class="arrow-number" data-number="{n}" data-move="{}"><circle cx="{}" cy="{}" r="{}" fill="{disc}" stroke="{line}" stroke-width="2"/><text x="{}" y="{}" text-anchor="middle" dominant-baseline="central" font-family="sans-serif" font-size="12" fill="{text}">{n}</text></g>"#,
        escape(m),
        num(at.0),
        num(at.1),
        num(NUMBER_RADIUS),
        num(at.0),
        num(at.1),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hatching_stays_inside_the_cell() {
        for kind in [ShapeKind::Rect, ShapeKind::Hex] {
            let corners = outline(kind, (100.0, 50.0), 0.47);
            let mut s = String::new();
            hatch(&mut s, &corners, "#000");
            let d = s.split("d=\"").nth(1).unwrap().split('"').next().unwrap();
            let numbers: Vec<f64> = d
                .split(['M', 'L', ' '])
                .filter(|t| !t.is_empty())
                .map(|t| t.parse().unwrap())
                .collect();
            assert!(numbers.len() >= 12, "{kind:?}: {d}");
            for xy in numbers.chunks(2) {
                let (x, y) = (xy[0], xy[1]);
                assert!((70.0..=130.0).contains(&x), "{kind:?} {x}");
                assert!((15.0..=85.0).contains(&y), "{kind:?} {y}");
            }
        }
    }

    #[test]
    fn numbers_keep_clear_of_each_other() {
        let a = (0.0, 0.0);
        let first = number_place(a, (120.0, 0.0), &[], &[]);
        let second = number_place(a, (120.0, 0.0), &[first], &[]);
        assert!(
            (second.0 - first.0).hypot(second.1 - first.1) > 2.0 * NUMBER_RADIUS,
            "{first:?} {second:?}"
        );
    }

    #[test]
    fn numbers_keep_off_the_stacks_at_both_ends_of_a_step() {
        let (a, b) = ((0.0, 0.0), (PITCH, 0.0));
        let at = number_place(a, b, &[], &[a, b]);
        for (x, y) in [a, b, (a.0, a.1 + STACK_LIFT), (b.0, b.1 + STACK_LIFT)] {
            let d = (at.0 - x).hypot(at.1 - y);
            assert!(
                d > STACK_RADIUS + NUMBER_RADIUS,
                "{at:?} is {d} from {x},{y}"
            );
        }
    }
}
