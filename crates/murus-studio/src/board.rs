//! The board view shared by every panel: square and hex boards of any size,
//! 2–4 player colours, walls/towers/catapults drawn so their height reads at
//! a glance, cell names on the edges, highlights, and one accessible button
//! per cell ("cell d4") so tests and screen readers reach cells by name.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, StrokeKind, Vec2};
use murus_dsl::{Geometry, ShapeKind};

/// What to draw. Borrowed for one frame.
#[derive(Debug)]
pub struct Scene<'a> {
    /// Unique per board on screen (ids of the cell buttons derive from it).
    pub id_salt: &'a str,
    pub geometry: &'a Geometry,
    /// Per slot: `(player, height)` or empty.
    pub stacks: &'a [Option<(usize, u8)>],
    /// Per player, its display colour.
    pub colours: &'a [Color32],
    /// Rotate the board by 180°.
    pub flipped: bool,
    /// The selected cell (outlined).
    pub selected: Option<usize>,
    /// Cells a click can play to (dotted).
    pub targets: &'a [usize],
    /// Cells of the last move (tinted).
    pub last_move: &'a [usize],
    /// Mural target cells (ringed).
    pub marks: &'a [usize],
    /// Largest cell size in points (keeps small boards from becoming huge).
    pub max_cell: f32,
}

/// An arrow from one cell to another with a short label at its tail (a
/// line of moves: "1", "2", …).
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    pub from: usize,
    pub to: usize,
    pub colour: Color32,
    pub label: String,
}

/// What a panel may add to a [`Scene`]: the players' names for hover texts,
/// cells to flag as wrong, arrows and more hover text. The default adds
/// nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Notes<'a> {
    /// Per player, its name: hover texts read "b1: Romans tower" (without
    /// names, "b1: player 1 tower").
    pub player_names: &'a [String],
    /// Cells to point at as wrong (a set-up's problems): outlined in the
    /// theme's error colour.
    pub flagged: &'a [usize],
    /// Arrows drawn over the stacks, in order (later ones on top).
    pub arrows: &'a [Arrow],
    /// Lines added to cells' hover texts: `(cell, line)`, several per cell
    /// in order.
    pub hover: &'a [(usize, String)],
}

/// What the user did to the board this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardResponse {
    /// A cell clicked with the primary button.
    pub clicked: Option<usize>,
    /// A cell clicked with the secondary button.
    pub secondary: Option<usize>,
}

/// `0xRRGGBB` to a colour.
pub fn colour(rgb: u32) -> Color32 {
    Color32::from_rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8)
}

/// The names of a variant's players, for [`Notes::player_names`].
pub fn player_names(rules: &murus_dsl::Rules) -> Vec<String> {
    rules.players.iter().map(|p| p.name.clone()).collect()
}

/// The colours of a variant's players.
pub fn player_colours(rules: &murus_dsl::Rules) -> Vec<Color32> {
    rules.players.iter().map(|p| colour(p.colour)).collect()
}

fn luminance(c: Color32) -> f32 {
    0.299 * f32::from(c.r()) + 0.587 * f32::from(c.g()) + 0.114 * f32::from(c.b())
}

/// A colour that stands out against `c` (for outlines and digits).
pub(crate) fn contrast(c: Color32) -> Color32 {
    if luminance(c) > 140.0 {
        Color32::from_gray(20)
    } else {
        Color32::from_gray(240)
    }
}

const SQRT3: f32 = 1.732_050_8;

/// Cell centre in board units (cell pitch 1 on square boards; hex radius 1).
fn unit_centre(kind: ShapeKind, x: i32, y: i32) -> Vec2 {
    match kind {
        ShapeKind::Rect => Vec2::new(x as f32, -(y as f32)),
        // Pointy-top hexes; each rank sits half a cell right of the rank
        // below (axial coordinates, as `docs/rules-language.md` draws them).
        ShapeKind::Hex => Vec2::new(SQRT3 * (x as f32 + y as f32 / 2.0), -1.5 * y as f32),
    }
}

/// Edge labels: `(x, y, text)` placed on the empty slot next to the board.
/// Square boards are labelled on all four sides. On a hexagon the slots
/// beside the sw and ne edges are shared by a rank and a file, so ranks are
/// named on the left and files along the top only.
fn edge_labels(g: &Geometry) -> Vec<(i32, i32, String)> {
    let both = g.kind() == ShapeKind::Rect;
    let mut out = Vec::new();
    for y in 0..g.height() {
        let cells = g.rank(y + 1);
        if let (Some(&first), Some(&last)) = (cells.first(), cells.last()) {
            let (x0, _) = g.coords(first);
            let (x1, _) = g.coords(last);
            let text = (y + 1).to_string();
            out.push((x0 as i32 - 1, y as i32, text.clone()));
            if both {
                out.push((x1 as i32 + 1, y as i32, text));
            }
        }
    }
    for x in 0..g.width() {
        let cells = g.file(x);
        if let (Some(&low), Some(&high)) = (cells.first(), cells.last()) {
            let text = ((b'a' + x as u8) as char).to_string();
            if both {
                out.push((x as i32, g.coords(low).1 as i32 - 1, text.clone()));
            }
            out.push((x as i32, g.coords(high).1 as i32 + 1, text));
        }
    }
    out
}

/// Draws the board and reports clicks. Takes the space available, keeping
/// cells square (or regular hexagons).
pub fn show(ui: &mut egui::Ui, scene: &Scene<'_>) -> BoardResponse {
    show_with(ui, scene, &Notes::default())
}

/// [`show`] with [`Notes`]: names in hover texts, flagged cells.
pub fn show_with(ui: &mut egui::Ui, scene: &Scene<'_>, notes: &Notes<'_>) -> BoardResponse {
    let g = scene.geometry;
    let kind = g.kind();
    let labels = edge_labels(g);
    let flip = if scene.flipped { -1.0 } else { 1.0 };
    let place = |x: i32, y: i32| unit_centre(kind, x, y) * flip;

    // Bounds in units, labels included.
    let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
    let cell_points = g.cells().map(|s| {
        let (x, y) = g.coords(s);
        place(x as i32, y as i32)
    });
    let label_points = labels.iter().map(|(x, y, _)| place(*x, *y));
    for p in cell_points.chain(label_points) {
        lo = lo.min(p);
        hi = hi.max(p);
    }
    if lo.x > hi.x {
        ui.label("(empty board)");
        return BoardResponse::default();
    }
    // Half a cell beyond the outermost centres.
    let half = match kind {
        ShapeKind::Rect => Vec2::splat(0.5),
        ShapeKind::Hex => Vec2::new(SQRT3 / 2.0, 1.0),
    };
    lo -= half;
    hi += half;
    let units = hi - lo;
    let avail = ui.available_size();
    let avail = Vec2::new(avail.x.max(120.0), avail.y.max(120.0));
    let scale = (avail.x / units.x)
        .min(avail.y / units.y)
        .min(scene.max_cell);
    let (outer, _) = ui.allocate_exact_size(units * scale, Sense::hover());
    let to_screen = |u: Vec2| outer.min + (u - lo) * scale;
    let painter = ui.painter_at(outer);
    let visuals = ui.visuals();
    let dark_mode = visuals.dark_mode;
    let (light_sq, dark_sq) = if dark_mode {
        (
            Color32::from_rgb(104, 112, 98),
            Color32::from_rgb(86, 94, 80),
        )
    } else {
        (
            Color32::from_rgb(214, 206, 180),
            Color32::from_rgb(190, 180, 150),
        )
    };
    let text_colour = visuals.text_color();
    let last_tint = Color32::from_rgba_unmultiplied(90, 160, 255, 110);
    let select = Color32::from_rgb(255, 200, 0);
    let target_colour = Color32::from_rgb(40, 200, 90);
    let mark_colour = Color32::from_rgb(220, 40, 120);
    let flag_colour = crate::theme::error(ui);

    let mut response = BoardResponse::default();
    let hex_radius = scale; // hex radius 1 in units
    let mut centres: Vec<Option<Pos2>> = vec![None; g.slots()];
    for s in g.cells() {
        let (x, y) = g.coords(s);
        let c = to_screen(place(x as i32, y as i32));
        if let Some(slot) = centres.get_mut(s) {
            *slot = Some(c);
        }
        let base = if (x + y) % 2 == 0 { dark_sq } else { light_sq };
        let mut fill = base;
        if scene.last_move.contains(&s) {
            fill = blend(fill, last_tint);
        }
        let (cell_rect, outline): (Rect, Vec<Pos2>) = match kind {
            ShapeKind::Rect => {
                let r = Rect::from_center_size(c, Vec2::splat(scale));
                painter.rect_filled(r, 0.0, fill);
                (r, Vec::new())
            }
            ShapeKind::Hex => {
                let pts: Vec<Pos2> = (0..6)
                    .map(|i| {
                        let a = std::f32::consts::PI / 180.0 * (60.0 * i as f32 - 30.0);
                        c + Vec2::new(a.cos(), a.sin()) * hex_radius * 0.97
                    })
                    .collect();
                painter.add(Shape::convex_polygon(
                    pts.clone(),
                    fill,
                    Stroke::new(1.0, Color32::from_black_alpha(90)),
                ));
                // The inscribed square is what a click hits, so neighbours never overlap.
                (
                    Rect::from_center_size(c, Vec2::splat(hex_radius * 1.4)),
                    pts,
                )
            }
        };
        let unit = match kind {
            ShapeKind::Rect => scale,
            ShapeKind::Hex => hex_radius * SQRT3,
        };
        if scene.marks.contains(&s) {
            painter.circle_stroke(
                c,
                unit * 0.45,
                Stroke::new((unit * 0.03).max(2.0), mark_colour),
            );
        }
        if let Some((p, h)) = scene.stacks.get(s).copied().flatten() {
            let col = scene
                .colours
                .get(p)
                .copied()
                .unwrap_or(Color32::from_gray(128));
            draw_stack(&painter, c, unit, col, h);
        }
        if scene.targets.contains(&s) {
            painter.circle_filled(c, unit * 0.14, target_colour);
            painter.circle_stroke(c, unit * 0.14, Stroke::new(1.5, Color32::BLACK));
        }
        let outline_with = |colour: Color32, width: f32| match kind {
            ShapeKind::Rect => {
                painter.rect_stroke(
                    cell_rect.shrink(2.0),
                    2.0,
                    Stroke::new(width, colour),
                    StrokeKind::Inside,
                );
            }
            ShapeKind::Hex => {
                painter.add(Shape::closed_line(
                    outline.clone(),
                    Stroke::new(width, colour),
                ));
            }
        };
        if notes.flagged.contains(&s) {
            outline_with(flag_colour, 4.0);
        }
        if scene.selected == Some(s) {
            outline_with(select, 3.0);
        }
        let name = g.name(s);
        let id = ui.scope_id().with(scene.id_salt).with(s);
        let r = ui.interact(cell_rect, id, Sense::click());
        let stack = scene.stacks.get(s).copied().flatten();
        r.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Button, true, format!("cell {name}"))
        });
        let mut hover = match stack {
            Some((p, h)) => match notes.player_names.get(p) {
                Some(player) => format!("{name}: {player} {}", height_name(h)),
                None => format!("{name}: player {} {}", p + 1, height_name(h)),
            },
            None => name.clone(),
        };
        for (_, line) in notes.hover.iter().filter(|(cell, _)| *cell == s) {
            hover.push('\n');
            hover.push_str(line);
        }
        let r = r.on_hover_text(hover);
        if r.clicked() {
            response.clicked = Some(s);
        }
        if r.secondary_clicked() {
            response.secondary = Some(s);
        }
    }
    let unit = match kind {
        ShapeKind::Rect => scale,
        ShapeKind::Hex => hex_radius * SQRT3,
    };
    for a in notes.arrows {
        let (Some(Some(from)), Some(Some(to))) = (centres.get(a.from), centres.get(a.to)) else {
            continue;
        };
        draw_arrow(&painter, *from, *to, unit, a);
    }
    let font = FontId::proportional((scale * 0.32).clamp(9.0, 18.0));
    for (x, y, text) in labels {
        let c = to_screen(place(x, y));
        painter.text(c, Align2::CENTER_CENTER, text, font.clone(), text_colour);
    }
    response
}

/// The radius of an arrow's label disc.
fn label_radius(unit: f32) -> f32 {
    (unit * 0.14).max(7.0)
}

/// Where an arrow's label goes: on the arrow, far enough from its tail's
/// centre to keep off the height digit of a stack there (and, for a short
/// arrow, no further than its middle).
fn label_at(from: Pos2, to: Pos2, unit: f32) -> Pos2 {
    let d = to - from;
    let len = d.length();
    let clear = label_radius(unit) + DIGIT_REACH * unit;
    from + d / len * clear.min(len / 2.0)
}

/// How far from a cell's centre a stack's height digit reaches, in cell
/// units (the digit sits on the top disc, lifted for a taller stack).
const DIGIT_REACH: f32 = 0.32;

/// An arrow between two cell centres, ending short of both, with its
/// label in a disc on it, clear of the height digit of a stack at its
/// tail.
fn draw_arrow(painter: &egui::Painter, from: Pos2, to: Pos2, unit: f32, a: &Arrow) {
    let d = to - from;
    let len = d.length();
    if len < 1.0 {
        return;
    }
    let dir = d / len;
    let start = from + dir * unit * 0.18;
    let end = to - dir * unit * 0.18;
    let width = (unit * 0.07).max(2.0);
    let outline = Stroke::new(width + 2.0, Color32::from_black_alpha(140));
    painter.arrow(start, end - start, outline);
    painter.arrow(start, end - start, Stroke::new(width, a.colour));
    if !a.label.is_empty() {
        let r = label_radius(unit);
        let at = label_at(from, to, unit);
        let disc = a.colour.to_opaque();
        painter.circle(at, r, disc, Stroke::new(1.0, contrast(disc)));
        painter.text(
            at,
            Align2::CENTER_CENTER,
            &a.label,
            FontId::proportional(r * 1.3),
            contrast(disc),
        );
    }
}

/// `wall`, `tower`, `catapult` or `stack of N`.
pub fn height_name(h: u8) -> String {
    match h {
        1 => "wall".into(),
        2 => "tower".into(),
        3 => "catapult".into(),
        n => format!("stack of {n}"),
    }
}

fn blend(a: Color32, over: Color32) -> Color32 {
    let t = f32::from(over.a()) / 255.0;
    let mix = |x: u8, y: u8| (f32::from(x) * (1.0 - t) + f32::from(y) * t) as u8;
    Color32::from_rgb(
        mix(a.r(), over.r()),
        mix(a.g(), over.g()),
        mix(a.b(), over.b()),
    )
}

/// A stack as discs seen from slightly above: a wall is one flat disc, a
/// tower two, a catapult three with a notch; the height digit sits on top
/// from two stones up.
fn draw_stack(painter: &egui::Painter, c: Pos2, unit: f32, col: Color32, h: u8) {
    let edge = contrast(col);
    let r = unit * 0.34;
    let step = unit * 0.11;
    let n = h.max(1);
    let lift = step * f32::from(n - 1) / 2.0;
    for i in 0..n {
        let centre = c + Vec2::new(0.0, lift - step * f32::from(i));
        let shade = if i + 1 == n { col } else { darker(col) };
        painter.circle(centre, r, shade, Stroke::new(1.5, edge));
    }
    let top = digit_at(c, unit, h);
    if n >= 3 {
        // The catapult's arm: a small triangle.
        let t = r * 0.55;
        painter.add(Shape::convex_polygon(
            vec![
                top + Vec2::new(0.0, -t),
                top + Vec2::new(t * 0.87, t * 0.5),
                top + Vec2::new(-t * 0.87, t * 0.5),
            ],
            Color32::TRANSPARENT,
            Stroke::new(2.0, edge),
        ));
    } else if n == 2 {
        painter.circle_stroke(top, r * 0.55, Stroke::new(1.5, edge));
    }
    if n >= 2 {
        painter.text(
            top,
            Align2::CENTER_CENTER,
            n.to_string(),
            FontId::proportional((r * 0.8).max(8.0)),
            edge,
        );
    }
}

/// The centre of the top disc of a stack of `h` on a cell centred on `c`,
/// where its height digit is written.
fn digit_at(c: Pos2, unit: f32, h: u8) -> Pos2 {
    let step = unit * 0.11;
    let n = f32::from(h.max(1));
    c + Vec2::new(0.0, -step * (n - 1.0) / 2.0)
}

fn darker(c: Color32) -> Color32 {
    Color32::from_rgb(
        (f32::from(c.r()) * 0.75) as u8,
        (f32::from(c.g()) * 0.75) as u8,
        (f32::from(c.b()) * 0.75) as u8,
    )
}

/// A position of `variant` drawn for show (nothing to click: a preview),
/// cells at most `max_cell` points wide, with the players' names in the
/// hover texts.
pub fn preview(
    ui: &mut egui::Ui,
    id_salt: &str,
    variant: &murus_engine::Variant,
    pos: &murus_engine::Position,
    max_cell: f32,
) {
    let stacks = stacks_of(variant, pos);
    let colours = player_colours(variant.rules());
    let names = player_names(variant.rules());
    show_with(
        ui,
        &Scene {
            id_salt,
            geometry: variant.geometry(),
            stacks: &stacks,
            colours: &colours,
            flipped: false,
            selected: None,
            targets: &[],
            last_move: &[],
            marks: &[],
            max_cell,
        },
        &Notes {
            player_names: &names,
            ..Default::default()
        },
    );
}

/// The stacks of a position of `variant`, per slot.
pub fn stacks_of(
    variant: &murus_engine::Variant,
    pos: &murus_engine::Position,
) -> Vec<Option<(usize, u8)>> {
    (0..variant.geometry().slots())
        .map(|s| {
            if variant.geometry().exists(s) {
                variant.stack(pos, s)
            } else {
                None
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 38: an arrow's label disc sat on its tail's stack, over the
    /// digit that gives the stack's height.
    #[test]
    fn an_arrows_label_keeps_off_the_height_digit_of_the_stack_at_its_tail() {
        let unit = 60.0;
        let from = Pos2::new(100.0, 100.0);
        for (dx, dy) in [
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ] {
            for cells in 1..=3 {
                let to = from + Vec2::new(dx as f32, dy as f32) * unit * cells as f32;
                let at = label_at(from, to, unit);
                for h in 2..=4 {
                    let digit = digit_at(from, unit, h);
                    // The digit: about 0.27 units high, 0.2 wide.
                    let digit_box = Rect::from_center_size(digit, Vec2::new(0.2, 0.27) * unit);
                    let near = digit_box.distance_to_pos(at);
                    assert!(
                        near >= label_radius(unit),
                        "towards {dx},{dy} over {cells}: the label at {at:?} is {near} from \
                         the digit of a stack of {h}"
                    );
                }
            }
        }
    }
}
