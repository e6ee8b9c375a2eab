//! Position diagrams as SVG ([`Diagram`]), for any board of the rules
//! language, in a colour theme and a black-and-white print theme.
//!
//! A stack is a disc in its player's colour; each stone above the first
//! adds a ring inside it, so a wall (one disc), a tower (one ring) and a
//! catapult (two rings) read apart at a glance without a digit or a font.
//! A sowing's arrow spans its cells, a throw's arcs over the board and a
//! sacrifice's is dashed and points at its victim.

use std::fmt::Write as _;
use std::str::FromStr;

use murus_dsl::ShapeKind;
use murus_engine::{Action, Move, Position, Variant};

/// The look of a diagram.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// The studio's colours.
    #[default]
    Colour,
    /// Black, white and greys, for print.
    Print,
}

impl FromStr for Theme {
    type Err = String;
    fn from_str(s: &str) -> Result<Theme, String> {
        match s {
            "colour" | "color" => Ok(Theme::Colour),
            "print" => Ok(Theme::Print),
            _ => Err(format!("theme `{s}`: expected `colour` or `print`")),
        }
    }
}

/// What a diagram cannot draw.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiagramError {
    /// A cell name that names no cell of the board.
    #[error("`{cell}` is not a cell of the {variant} board")]
    NoSuchCell { cell: String, variant: String },
    /// A move without cells (the pie rule's swap).
    #[error("`{0}` moves no stone: it has no arrow")]
    NoArrow(String),
    /// The SVG could not be rendered (a bug: the SVG is ours).
    #[error("the diagram could not be rendered as PNG: {0}")]
    Render(String),
}

/// The distance between neighbouring cell centres, in SVG units.
const PITCH: f64 = 60.0;
/// Room around the board (for coordinates), in SVG units.
const MARGIN: f64 = 30.0;
/// The caption's line height.
const CAPTION: f64 = 28.0;

/// A position of a variant to draw, with what is marked on it.
#[derive(Clone, Debug)]
pub struct Diagram<'v> {
    variant: &'v Variant,
    position: Position,
    arrows: Vec<Move>,
    marks: Vec<usize>,
    highlights: Vec<usize>,
    caption: Option<String>,
    coordinates: bool,
    theme: Theme,
}

impl<'v> Diagram<'v> {
    /// A diagram of `position`, a position of `variant`.
    pub fn new(variant: &'v Variant, position: Position) -> Diagram<'v> {
        Diagram {
            variant,
            position,
            arrows: Vec::new(),
            marks: Vec::new(),
            highlights: Vec::new(),
            caption: None,
            coordinates: false,
            theme: Theme::Colour,
        }
    }

    /// The existing cell named `name`, or an error naming it.
    pub fn cell(&self, name: &str) -> Result<usize, DiagramError> {
        self.variant
            .geometry()
            .parse_cell(name)
            .ok_or_else(|| DiagramError::NoSuchCell {
                cell: name.to_string(),
                variant: self.variant.name().to_string(),
            })
    }

    /// An arrow for move `m` (a legal move of the position, or of the
    /// position it was played from).
    pub fn arrow(mut self, m: Move) -> Result<Diagram<'v>, DiagramError> {
        if matches!(m.action(), Action::Swap) {
            return Err(DiagramError::NoArrow(self.variant.move_to_string(m)));
        }
        self.arrows.push(m);
        Ok(self)
    }

    /// The moves of the stack on `slot`, as the strategy articles draw
    /// them ("the possible moves are indicated by arrows and a potential
    /// capture by a dot"): an arrow for each legal sowing, throw and split
    /// from it, a dot on each stack a sacrifice from it could take. Nothing
    /// when it has no move.
    pub fn moves_of(mut self, slot: usize) -> Diagram<'v> {
        for m in self.variant.legal_moves(&self.position) {
            match m.action() {
                Action::Sacrifice { from, target, .. }
                    if from == slot && !self.marks.contains(&target) =>
                {
                    self.marks.push(target);
                }
                Action::Sow { from, .. } | Action::Throw { from, .. } if from == slot => {
                    self.arrows.push(m);
                }
                Action::Split { tower, .. } if tower == slot => self.arrows.push(m),
                _ => {}
            }
        }
        self
    }

    /// How many arrows the diagram has.
    pub fn arrow_count(&self) -> usize {
        self.arrows.len()
    }

    /// A dot on cell `slot`.
    pub fn mark(mut self, slot: usize) -> Diagram<'v> {
        self.marks.push(slot);
        self
    }

    /// Cell `slot` shaded.
    pub fn highlight(mut self, slot: usize) -> Diagram<'v> {
        self.highlights.push(slot);
        self
    }

    /// The cells move `m` touches shaded (the last move played).
    pub fn highlight_move(mut self, m: Move) -> Diagram<'v> {
        self.highlights.extend(self.variant.move_cells(m));
        self
    }

    /// A line of text under the board.
    pub fn caption(mut self, text: impl Into<String>) -> Diagram<'v> {
        self.caption = Some(text.into());
        self
    }

    /// Files and ranks named beside the board.
    pub fn coordinates(mut self, on: bool) -> Diagram<'v> {
        self.coordinates = on;
        self
    }

    /// The look.
    pub fn theme(mut self, theme: Theme) -> Diagram<'v> {
        self.theme = theme;
        self
    }

    /// The centre of slot `slot` in board units (cell pitch 1, y up), as
    /// the studio places it: hexagons pointy-top, each rank half a cell
    /// right of the one below.
    fn unit_centre(&self, x: f64, y: f64) -> (f64, f64) {
        match self.variant.geometry().kind() {
            ShapeKind::Rect => (x, y),
            ShapeKind::Hex => (x + y / 2.0, y * 3f64.sqrt() / 2.0),
        }
    }

    /// The SVG document.
    pub fn to_svg(&self) -> String {
        let g = self.variant.geometry();
        let at = |slot: usize| {
            let (x, y) = g.coords(slot);
            self.unit_centre(x as f64, y as f64)
        };
        // The board's extent in units, a cell's half size around centres.
        let (mut lo_x, mut hi_x, mut lo_y, mut hi_y) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for slot in g.cells() {
            let (x, y) = at(slot);
            lo_x = lo_x.min(x);
            hi_x = hi_x.max(x);
            lo_y = lo_y.min(y);
            hi_y = hi_y.max(y);
        }
        let room = if self.coordinates { MARGIN } else { 8.0 };
        let left = room + PITCH / 2.0;
        let top = 8.0 + PITCH / 2.0;
        let width = (hi_x - lo_x) * PITCH + PITCH + room + 8.0;
        let board_height = (hi_y - lo_y) * PITCH + PITCH + 8.0 + room;
        // Where taking stones wins, a line of each player's count.
        let taken = self.variant.taken_summary(&self.position);
        let board_height = board_height + if taken.is_some() { CAPTION } else { 0.0 };
        let height = board_height + if self.caption.is_some() { CAPTION } else { 0.0 };
        // SVG y grows downwards: the first rank is at the bottom.
        let px = |(x, y): (f64, f64)| (left + (x - lo_x) * PITCH, top + (hi_y - y) * PITCH);
        let centre = |slot: usize| px(at(slot));

        let mut s = String::new();
        let _ = write!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" data-variant="{name}">"#,
            w = num(width),
            h = num(height),
            name = escape(self.variant.name()),
        );
        s.push('\n');
        let palette = Palette::of(self.theme);
        let _ = writeln!(
            s,
            r#"<rect class="background" x="0" y="0" width="{}" height="{}" fill="{}"/>"#,
            num(width),
            num(height),
            palette.background
        );

        // Cells, then highlights, stacks, arrows and marks above them.
        s.push_str("<g class=\"board\">\n");
        for slot in g.cells() {
            let (x, y) = g.coords(slot);
            let fill = if (x + y) % 2 == 0 {
                palette.dark_cell
            } else {
                palette.light_cell
            };
            let shape = self.cell_shape(centre(slot), 0.5);
            let _ = writeln!(
                s,
                r#"<{shape} class="cell" data-cell="{}" fill="{fill}" stroke="{}" stroke-width="1"/>"#,
                g.name(slot),
                palette.grid
            );
        }
        s.push_str("</g>\n");
        for &slot in &self.highlights {
            let shape = self.cell_shape(centre(slot), 0.5);
            let _ = writeln!(
                s,
                r#"<{shape} class="highlight" data-cell="{}" fill="{}" fill-opacity="0.45"/>"#,
                g.name(slot),
                palette.highlight
            );
        }
        for slot in g.cells() {
            if let Some((player, height)) = self.variant.stack(&self.position, slot) {
                self.stack(&mut s, &palette, slot, centre(slot), player, height);
            }
        }
        for &m in &self.arrows {
            self.arrow_svg(&mut s, &palette, m, &centre);
        }
        for &slot in &self.marks {
            let (cx, cy) = centre(slot);
            let _ = writeln!(
                s,
                r#"<circle class="mark" data-cell="{}" cx="{}" cy="{}" r="{}" fill="{}" stroke="{}" stroke-width="2"/>"#,
                g.name(slot),
                num(cx),
                num(cy),
                num(PITCH * 0.12),
                palette.mark,
                palette.background
            );
        }
        if self.coordinates {
            self.coordinates_svg(&mut s, &palette, &px);
        }
        if let Some(taken) = &taken {
            let _ = writeln!(
                s,
                r#"<text class="taken" x="{}" y="{}" text-anchor="middle" font-family="sans-serif" font-size="14" fill="{}">Stones taken: {}</text>"#,
                num(width / 2.0),
                num(board_height - CAPTION * 0.35),
                palette.text,
                escape(taken)
            );
        }
        if let Some(caption) = &self.caption {
            let _ = writeln!(
                s,
                r#"<text class="caption" x="{}" y="{}" text-anchor="middle" font-family="sans-serif" font-size="16" fill="{}">{}</text>"#,
                num(width / 2.0),
                num(board_height + CAPTION * 0.65),
                palette.text,
                escape(caption)
            );
        }
        s.push_str("</svg>\n");
        s
    }

    /// The diagram as a PNG image, rendered from [`Diagram::to_svg`] at
    /// `scale` pixels per SVG unit (1: a cell 60 pixels wide) with resvg.
    /// Text is set in the font shipped with the studio (Ubuntu Light),
    /// never a system font, so the image is the same on every machine.
    pub fn to_png(&self, scale: f32) -> Result<Vec<u8>, DiagramError> {
        self.to_pixmap(scale)?
            .encode_png()
            .map_err(|e| DiagramError::Render(e.to_string()))
    }

    /// The rendered image ([`Diagram::to_png`]).
    fn to_pixmap(&self, scale: f32) -> Result<resvg::tiny_skia::Pixmap, DiagramError> {
        use resvg::{tiny_skia, usvg};
        let mut options = usvg::Options::default();
        let fonts = options.fontdb_mut();
        fonts.load_font_data(epaint_default_fonts::UBUNTU_LIGHT.to_vec());
        fonts.set_sans_serif_family("Ubuntu");
        let tree = usvg::Tree::from_str(&self.to_svg(), &options)
            .map_err(|e| DiagramError::Render(e.to_string()))?;
        let size =
            tree.size().to_int_size().scale_by(scale).ok_or_else(|| {
                DiagramError::Render(format!("a scale of {scale} gives no image"))
            })?;
        let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
            .ok_or_else(|| DiagramError::Render("an empty image".into()))?;
        resvg::render(
            &tree,
            tiny_skia::Transform::from_scale(scale, scale),
            &mut pixmap.as_mut(),
        );
        Ok(pixmap)
    }

    /// A cell's outline around `centre`, `half` a pitch from it: a square,
    /// or a pointy-top hexagon, as an SVG element's name and attributes.
    fn cell_shape(&self, (cx, cy): (f64, f64), half: f64) -> String {
        match self.variant.geometry().kind() {
            ShapeKind::Rect => format!(
                r#"rect x="{}" y="{}" width="{}" height="{}""#,
                num(cx - half * PITCH),
                num(cy - half * PITCH),
                num(2.0 * half * PITCH),
                num(2.0 * half * PITCH)
            ),
            ShapeKind::Hex => {
                // A hexagon of width `2 half` (flat sides left and right).
                let r = 2.0 * half * PITCH / 3f64.sqrt();
                let points: Vec<String> = (0..6)
                    .map(|k| {
                        let a =
                            std::f64::consts::PI / 3.0 * f64::from(k) + std::f64::consts::PI / 6.0;
                        format!("{},{}", num(cx + r * a.cos()), num(cy + r * a.sin()))
                    })
                    .collect();
                format!(r#"polygon points="{}""#, points.join(" "))
            }
        }
    }

    /// The stack of `height` stones of `player` on `slot`.
    fn stack(
        &self,
        s: &mut String,
        palette: &Palette,
        slot: usize,
        (cx, cy): (f64, f64),
        player: usize,
        height: u8,
    ) {
        let (fill, line) = palette.player(player);
        let r = PITCH * 0.38;
        let _ = write!(
            s,
            r#"<g class="stack" data-cell="{}" data-player="{}" data-height="{height}">"#,
            self.variant.geometry().name(slot),
            self.variant.letter(player),
        );
        // A taller stack stands on a second disc, a stone's edge below.
        if height > 1 {
            let _ = write!(
                s,
                r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{line}" stroke-width="2"/>"#,
                num(cx),
                num(cy + PITCH * 0.06),
                num(r)
            );
        }
        let _ = write!(
            s,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{line}" stroke-width="2"/>"#,
            num(cx),
            num(cy),
            num(r)
        );
        for k in 1..height {
            let ring = r * (1.0 - f64::from(k) * 0.8 / f64::from(height));
            let _ = write!(
                s,
                r#"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{line}" stroke-width="2"/>"#,
                num(cx),
                num(cy),
                num(ring)
            );
        }
        s.push_str("</g>\n");
    }

    /// The arrow of move `m`.
    fn arrow_svg(
        &self,
        s: &mut String,
        palette: &Palette,
        m: Move,
        centre: &dyn Fn(usize) -> (f64, f64),
    ) {
        let _ = write!(
            s,
            r#"<g class="arrow" data-move="{}" fill="{c}" stroke="{c}" stroke-linecap="round" opacity="0.85">"#,
            escape(&self.variant.move_to_string(m)),
            c = palette.arrow,
        );
        match m.action() {
            Action::Sow { from, to, .. } => straight(s, centre(from), centre(to), false),
            Action::Sacrifice { from, target, .. } => {
                straight(s, centre(from), centre(target), true);
            }
            Action::Throw { from, to, .. } => arc(s, centre(from), centre(to)),
            Action::Split { tower, cells } => {
                straight(s, centre(tower), centre(cells.0), false);
                straight(s, centre(tower), centre(cells.1), false);
            }
            Action::Swap => {}
        }
        s.push_str("</g>\n");
    }

    /// Rank numbers beside each rank's first cell and file letters beside
    /// each file's lowest cell, toward the empty slot next to it (on a
    /// hexagon, a file's next slot lies down and to the left).
    fn coordinates_svg(
        &self,
        s: &mut String,
        palette: &Palette,
        px: &dyn Fn((f64, f64)) -> (f64, f64),
    ) {
        let g = self.variant.geometry();
        let label = |s: &mut String, (x, y): (usize, usize), (dx, dy): (f64, f64), text: String| {
            let (x, y) = (x as f64, y as f64);
            let (cx, cy) = px(self.unit_centre(x, y));
            let (nx, ny) = px(self.unit_centre(x + dx, y + dy));
            let _ = writeln!(
                s,
                r#"<text class="coordinate" x="{}" y="{}" text-anchor="middle" dominant-baseline="central" font-family="sans-serif" font-size="14" fill="{}">{text}</text>"#,
                num(cx + 0.75 * (nx - cx)),
                num(cy + 0.75 * (ny - cy)),
                palette.text
            );
        };
        for rank in 0..g.height() {
            let first = g
                .cells()
                .map(|c| g.coords(c))
                .filter(|&(_, y)| y == rank)
                .min();
            if let Some(cell) = first {
                label(s, cell, (-1.0, 0.0), (rank + 1).to_string());
            }
        }
        for file in 0..g.width() {
            let lowest = g
                .cells()
                .map(|c| g.coords(c))
                .filter(|&(x, _)| x == file)
                .min_by_key(|&(_, y)| y);
            if let Some(cell) = lowest {
                let letter = char::from(b'a' + file as u8).to_string();
                label(s, cell, (0.0, -1.0), letter);
            }
        }
    }
}

/// A game as an animated GIF: the position `start`, then one frame after
/// each of `moves` (legal in turn) with that move's cells shaded, each
/// shown `delay_cs` hundredths of a second (the last three times as long),
/// looping; the frames are [`Diagram`]s of `theme` at `scale`, with
/// coordinates if asked.
pub fn game_gif(
    variant: &Variant,
    start: Position,
    moves: &[Move],
    theme: Theme,
    coordinates: bool,
    scale: f32,
    delay_cs: u16,
) -> Result<Vec<u8>, DiagramError> {
    let mut frames = vec![Diagram::new(variant, start)];
    let mut pos = start;
    for &m in moves {
        pos = variant.play(&pos, m);
        frames.push(Diagram::new(variant, pos).highlight_move(m));
    }
    let images = frames
        .into_iter()
        .map(|d| d.theme(theme).coordinates(coordinates).to_pixmap(scale))
        .collect::<Result<Vec<_>, _>>()?;
    let (w, h) = (images[0].width(), images[0].height());
    let too_big = || DiagramError::Render(format!("{w}x{h} is too large for a GIF"));
    let (w, h) = (
        u16::try_from(w).map_err(|_| too_big())?,
        u16::try_from(h).map_err(|_| too_big())?,
    );
    let fail = |e: gif::EncodingError| DiagramError::Render(e.to_string());
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, w, h, &[]).map_err(fail)?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(fail)?;
        let last = images.len() - 1;
        for (i, pixmap) in images.into_iter().enumerate() {
            // Opaque pixels: premultiplied RGBA is plain RGBA.
            let mut rgba = pixmap.take();
            let mut frame = gif::Frame::from_rgba_speed(w, h, &mut rgba, 10);
            frame.delay = if i == last {
                delay_cs.saturating_mul(3)
            } else {
                delay_cs
            };
            encoder.write_frame(&frame).map_err(fail)?;
        }
    }
    Ok(out)
}

/// A straight arrow from `a` to `b`, its ends kept off the cells' centres
/// (dashed for a sacrifice).
fn straight(s: &mut String, a: (f64, f64), b: (f64, f64), dashed: bool) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy).max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    let start = (a.0 + ux * PITCH * 0.15, a.1 + uy * PITCH * 0.15);
    let tip = (b.0 - ux * PITCH * 0.2, b.1 - uy * PITCH * 0.2);
    let dash = if dashed {
        r#" stroke-dasharray="6 5""#
    } else {
        ""
    };
    let base = (tip.0 - ux * PITCH * 0.22, tip.1 - uy * PITCH * 0.22);
    let _ = write!(
        s,
        r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke-width="{}" fill="none"{dash}/>"#,
        num(start.0),
        num(start.1),
        num(base.0),
        num(base.1),
        num(PITCH * 0.08)
    );
    head(s, tip, (ux, uy));
}

/// An arrow arcing from `a` to `b` (a throw flies over the board).
fn arc(s: &mut String, a: (f64, f64), b: (f64, f64)) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy).max(1e-9);
    // The control point: off the middle, to the left of the flight.
    let (nx, ny) = (dy / len, -dx / len);
    let control = (
        (a.0 + b.0) / 2.0 + nx * len * 0.35,
        (a.1 + b.1) / 2.0 + ny * len * 0.35,
    );
    let (tx, ty) = (b.0 - control.0, b.1 - control.1);
    let tl = tx.hypot(ty).max(1e-9);
    let (ux, uy) = (tx / tl, ty / tl);
    let tip = (b.0 - ux * PITCH * 0.2, b.1 - uy * PITCH * 0.2);
    let base = (tip.0 - ux * PITCH * 0.22, tip.1 - uy * PITCH * 0.22);
    let _ = write!(
        s,
        r#"<path d="M {} {} Q {} {} {} {}" stroke-width="{}" fill="none"/>"#,
        num(a.0),
        num(a.1),
        num(control.0),
        num(control.1),
        num(base.0),
        num(base.1),
        num(PITCH * 0.08)
    );
    head(s, tip, (ux, uy));
}

/// An arrowhead with its point at `tip`, pointing along `(ux, uy)`.
fn head(s: &mut String, tip: (f64, f64), (ux, uy): (f64, f64)) {
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

/// The colours of a theme.
struct Palette {
    background: &'static str,
    light_cell: &'static str,
    dark_cell: &'static str,
    grid: &'static str,
    highlight: &'static str,
    arrow: &'static str,
    mark: &'static str,
    text: &'static str,
    /// Each player's fill and line, by player number.
    players: [(&'static str, &'static str); 4],
}

impl Palette {
    fn of(theme: Theme) -> Palette {
        match theme {
            Theme::Colour => Palette {
                background: "#ffffff",
                light_cell: "#8a9a7b",
                dark_cell: "#74866a",
                grid: "#5d6d55",
                highlight: "#f2d24b",
                arrow: "#c8202c",
                mark: "#2fbf4f",
                text: "#333333",
                players: [
                    ("#f3ead2", "#4a3b22"),
                    ("#6b3a26", "#e8d9c4"),
                    ("#3a6ea5", "#e3edf7"),
                    ("#4e8f4a", "#e6f2e4"),
                ],
            },
            Theme::Print => Palette {
                background: "#ffffff",
                light_cell: "#ffffff",
                dark_cell: "#e4e4e4",
                grid: "#000000",
                highlight: "#9a9a9a",
                arrow: "#000000",
                mark: "#000000",
                text: "#000000",
                players: [
                    ("#ffffff", "#000000"),
                    ("#1a1a1a", "#ffffff"),
                    ("#b4b4b4", "#000000"),
                    ("#5a5a5a", "#ffffff"),
                ],
            },
        }
    }

    fn player(&self, p: usize) -> (&'static str, &'static str) {
        self.players[p % self.players.len()]
    }
}

/// A number as SVG reads it: at most two decimals, no trailing zeros.
fn num(x: f64) -> String {
    let t = format!("{x:.2}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    if t == "-0" { "0".into() } else { t.into() }
}

/// `text` with XML's special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_short() {
        assert_eq!(num(30.0), "30");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape(r#"a<b & "c""#), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn themes_parse() {
        assert_eq!("print".parse(), Ok(Theme::Print));
        assert_eq!("colour".parse(), Ok(Theme::Colour));
        assert!(
            "sepia"
                .parse::<Theme>()
                .unwrap_err()
                .contains("`colour` or `print`")
        );
    }
}
