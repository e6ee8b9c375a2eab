//! Position diagrams as SVG ([`Diagram`]), for any board of the rules
//! language, in a colour theme and a black-and-white print theme.
//!
//! A stack is a disc in its player's colour; each stone above the first
//! adds a ring inside it, so a wall (one disc), a tower (one ring) and a
//! catapult (two rings) read apart at a glance without a digit or a font.
//! A sowing's arrow runs through the cells it drops stones on, with a bar
//! across it on each before the last (hopping from cell to cell where the
//! stones leap along a step such as a knight's); a throw's arcs over the
//! board and a sacrifice's is dashed and points at its victim. A heat map
//! fills cells with its colours and a short text each ([`Diagram::shade`]),
//! on the bare board if asked ([`Diagram::stacks`]).
//!
//! What is where: this file holds the diagram and writes its SVG;
//! `layout` places the board, its coordinates and the lines under it;
//! `draw` the shapes (cells, hatching, arrows, numbers); `gif` animates a
//! game.

use std::fmt::Write as _;
use std::str::FromStr;

use murus_engine::{Action, Move, Position, Variant};

mod draw;
mod gif;
mod layout;

pub use gif::{Frames, GIF_MIN_WIDTH, GameGif, game_gif};

use draw::{Point, hatch, outline, shape};
use layout::{CAPTION_SIZE, COORDINATE_SIZE, Layout, PITCH, TAKEN_SIZE};

/// Whether player `player`'s home cells lie, on average, above the middle
/// of the board's cells as an unturned diagram draws them.
fn home_above_middle(variant: &Variant, player: usize) -> bool {
    let g = variant.geometry();
    let Some(rules) = variant.rules().players.get(player) else {
        return false;
    };
    let height = |slot: usize| {
        let (x, y) = g.coords(slot);
        layout::unit_centre(g.kind(), x as f64, y as f64).1
    };
    let mean = |slots: &mut dyn Iterator<Item = usize>| {
        let (sum, n) = slots.fold((0.0, 0usize), |(s, n), c| (s + height(c), n + 1));
        (n > 0).then(|| sum / n as f64)
    };
    match (mean(&mut rules.home.iter().copied()), mean(&mut g.cells())) {
        (Some(home), Some(middle)) => home > middle + 1e-9,
        _ => false,
    }
}

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
    /// The work was stopped before its end (an animation cancelled).
    #[error("stopped before the end")]
    Stopped,
    /// The SVG could not be rendered (a bug: the SVG is ours).
    #[error("the diagram could not be rendered as PNG: {0}")]
    Render(String),
}

/// A cell's colour in a heat map ([`Diagram::shade`]): its fill (`#rrggbb`),
/// a short text written in it (a count, a share) and a tooltip.
#[derive(Clone, Debug, PartialEq)]
pub struct Shade {
    pub fill: String,
    pub text: Option<String>,
    pub title: String,
}

/// A position of a variant to draw, with what is marked on it.
#[derive(Clone, Debug)]
pub struct Diagram<'v> {
    variant: &'v Variant,
    position: Position,
    arrows: Vec<Move>,
    marks: Vec<usize>,
    highlights: Vec<usize>,
    shades: Vec<(usize, Shade)>,
    stacks: bool,
    caption: Option<String>,
    coordinates: bool,
    theme: Theme,
    numbered: bool,
    min_width: f64,
    turned: bool,
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
            shades: Vec::new(),
            stacks: true,
            caption: None,
            coordinates: false,
            theme: Theme::Colour,
            numbered: false,
            min_width: 0.0,
            turned: false,
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

    /// Cell `slot` filled with `shade`'s colour, its text written in it
    /// (a heat map's layer: above the cells, under the stacks), as
    /// `<g class="shade" data-cell="…">` with the tooltip as its `<title>`.
    pub fn shade(mut self, slot: usize, shade: Shade) -> Diagram<'v> {
        self.shades.push((slot, shade));
        self
    }

    /// Whether the position's stacks are drawn (a heat map on the bare
    /// board leaves them out).
    pub fn stacks(mut self, on: bool) -> Diagram<'v> {
        self.stacks = on;
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

    /// Each arrow numbered in a disc near its start, 1, 2, 3 … in the
    /// order the arrows were added (a solution's moves in the order played).
    pub fn numbered(mut self, on: bool) -> Diagram<'v> {
        self.numbered = on;
        self
    }

    /// The board turned half a turn, seen from the other side: each cell
    /// drawn where the cell opposite it through the board's centre would be
    /// (rectangles and hexagons alike), the coordinates still upright,
    /// ranks on the left and files under the board (above it on a hexagon).
    pub fn turned(mut self, on: bool) -> Diagram<'v> {
        self.turned = on;
        self
    }

    /// The board as player `player` sees it from their side: turned when
    /// their home lies above the board's middle as it is drawn unturned
    /// (the second player of most rules), so that their home is at the
    /// bottom, as a chess site shows a player's board. A home that is no
    /// nearer the top than the bottom (beside the board, or spread around
    /// it) leaves the board as it is.
    pub fn seen_by(self, player: usize) -> Diagram<'v> {
        let on = home_above_middle(self.variant, player);
        self.turned(on)
    }

    /// At least `width` SVG units wide (the board centred): the frames of
    /// an animation all the same size.
    pub(crate) fn min_width(mut self, width: f64) -> Diagram<'v> {
        self.min_width = width;
        self
    }

    /// The width and height of the SVG, in its units (a PNG at scale 1 has
    /// as many pixels).
    pub fn size(&self) -> (f64, f64) {
        let l = self.layout();
        (l.width, l.height)
    }

    /// The line of each player's stones taken, where taking stones wins.
    fn taken_line(&self) -> Option<String> {
        self.variant
            .taken_summary(&self.position)
            .map(|t| format!("Stones taken: {t}"))
    }

    fn layout(&self) -> Layout {
        Layout::new(
            self.variant.geometry(),
            self.turned,
            self.coordinates,
            self.taken_line().as_deref(),
            self.caption.as_deref(),
            self.min_width,
        )
    }

    /// The SVG document.
    pub fn to_svg(&self) -> String {
        let g = self.variant.geometry();
        let kind = g.kind();
        let layout = self.layout();
        let centre = |slot: usize| layout.centre(slot);
        let (width, height) = (layout.width, layout.height);

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
            let _ = writeln!(
                s,
                r#"<{} class="cell" data-cell="{}" fill="{fill}" stroke="{}" stroke-width="1"/>"#,
                shape(kind, centre(slot), 0.5),
                g.name(slot),
                palette.grid
            );
        }
        s.push_str("</g>\n");
        for (slot, shade) in &self.shades {
            self.shade_svg(&mut s, *slot, centre(*slot), shade);
        }
        for &slot in &self.highlights {
            self.highlight_svg(&mut s, &palette, slot, centre(slot));
        }
        for slot in g.cells().filter(|_| self.stacks) {
            if let Some((player, height)) = self.variant.stack(&self.position, slot) {
                self.stack(&mut s, &palette, slot, centre(slot), player, height);
            }
        }
        for &m in &self.arrows {
            self.arrow_svg(&mut s, &palette, m, &centre);
        }
        if self.numbered {
            let stacks: Vec<Point> = g
                .cells()
                .filter(|&slot| self.stacks && self.variant.stack(&self.position, slot).is_some())
                .map(centre)
                .collect();
            let mut placed: Vec<Point> = Vec::new();
            for (i, &m) in self.arrows.iter().enumerate() {
                let cells = self.variant.move_cells(m);
                let (Some(&a), Some(&b)) = (cells.first(), cells.get(1)) else {
                    continue;
                };
                let at = draw::number_place(centre(a), centre(b), &placed, &stacks);
                placed.push(at);
                draw::number(
                    &mut s,
                    at,
                    i + 1,
                    &self.variant.move_to_string(m),
                    (palette.background, palette.arrow, palette.text),
                );
            }
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
        for label in &layout.labels {
            let _ = writeln!(
                s,
                r#"<text class="coordinate" x="{}" y="{}" text-anchor="middle" dominant-baseline="central" font-family="sans-serif" font-size="{}" fill="{}">{}</text>"#,
                num(label.at.0),
                num(label.at.1),
                num(COORDINATE_SIZE),
                palette.text,
                label.text
            );
        }
        for (class, text, y, size) in [
            ("taken", self.taken_line(), layout.taken_y, TAKEN_SIZE),
            (
                "caption",
                self.caption.clone(),
                layout.caption_y,
                CAPTION_SIZE,
            ),
        ] {
            if let (Some(text), Some(y)) = (text, y) {
                let _ = writeln!(
                    s,
                    r#"<text class="{class}" x="{}" y="{}" text-anchor="middle" font-family="sans-serif" font-size="{}" fill="{}">{}</text>"#,
                    num(width / 2.0),
                    num(y),
                    num(size),
                    palette.text,
                    escape(&text)
                );
            }
        }
        s.push_str("</svg>\n");
        s
    }

    /// Cell `slot` filled with `shade`: its text in the middle of the cell,
    /// or low in it under a stack drawn there, dark on a light fill and
    /// light on a dark one.
    fn shade_svg(&self, s: &mut String, slot: usize, (cx, cy): Point, shade: &Shade) {
        let g = self.variant.geometry();
        let name = g.name(slot);
        let _ = write!(
            s,
            r#"<g class="shade" data-cell="{name}"><title>{}</title><{} fill="{}" stroke="{}" stroke-width="1"/>"#,
            escape(&shade.title),
            shape(g.kind(), (cx, cy), 0.5),
            escape(&shade.fill),
            Palette::of(self.theme).grid,
        );
        if let Some(text) = &shade.text {
            let covered = self.stacks && self.variant.stack(&self.position, slot).is_some();
            let y = if covered { cy + PITCH * 0.36 } else { cy };
            // Black and white text have equal contrast at a luminance of
            // about 0.18 (WCAG's contrast ratio).
            let ink = if luminance(&shade.fill) > 0.18 {
                "#111111"
            } else {
                "#ffffff"
            };
            let _ = write!(
                s,
                r#"<text x="{}" y="{}" text-anchor="middle" dominant-baseline="central" font-family="sans-serif" font-size="{}" fill="{ink}">{}</text>"#,
                num(cx),
                num(y),
                num(if covered { 13.0 } else { 20.0 }),
                escape(text)
            );
        }
        s.push_str("</g>\n");
    }

    /// Cell `slot` shaded: in colour a wash over it; in print, where a grey
    /// would read as a dark cell, hatching inside a heavy outline.
    fn highlight_svg(&self, s: &mut String, palette: &Palette, slot: usize, at: Point) {
        let g = self.variant.geometry();
        let kind = g.kind();
        match self.theme {
            Theme::Colour => {
                let _ = writeln!(
                    s,
                    r#"<{} class="highlight" data-cell="{}" fill="{}" fill-opacity="0.45"/>"#,
                    shape(kind, at, 0.5),
                    g.name(slot),
                    palette.highlight
                );
            }
            Theme::Print => {
                let _ = write!(s, r#"<g class="highlight" data-cell="{}">"#, g.name(slot));
                hatch(s, &outline(kind, at, 0.47), palette.highlight);
                let _ = writeln!(
                    s,
                    r#"<{} fill="none" stroke="{}" stroke-width="3"/></g>"#,
                    shape(kind, at, 0.47),
                    palette.highlight
                );
            }
        }
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
        let (fill, line) = match self.theme {
            // The colour theme draws each player in the rules file's colour
            // (as the studio does), outlined dark on a light colour and
            // light on a dark one.
            Theme::Colour => {
                let fill = self.variant.rules().players.get(player).map_or_else(
                    || palette.player(player).0.to_string(),
                    |p| format!("#{:06x}", p.colour & 0xff_ffff),
                );
                let line = if luminance(&fill) > 0.18 {
                    "#3a3a3a"
                } else {
                    "#f0f0f0"
                };
                (fill, line)
            }
            Theme::Print => {
                let (fill, line) = palette.player(player);
                (fill.to_string(), line)
            }
        };
        let r = draw::STACK_RADIUS;
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
                num(cy + draw::STACK_LIFT),
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
            Action::Sow { direction, .. } => {
                let points: Vec<Point> =
                    self.variant.move_cells(m).into_iter().map(centre).collect();
                // Along a step vector the stones leap: a hop to each cell.
                let leaps = direction >= self.variant.geometry().directions().len();
                draw::sowing(s, &points, if leaps { 0.22 } else { 0.0 });
            }
            Action::Sacrifice { from, target, .. } => {
                draw::straight(s, centre(from), centre(target), true);
            }
            Action::Throw { from, to, .. } => draw::arc(s, centre(from), centre(to)),
            Action::Split { tower, cells } => {
                draw::straight(s, centre(tower), centre(cells.0), false);
                draw::straight(s, centre(tower), centre(cells.1), false);
            }
            Action::Swap => {}
        }
        s.push_str("</g>\n");
    }
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
                highlight: "#000000",
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

/// The relative luminance (0 black to 1 white) of a `#rrggbb` colour; 1
/// for anything else.
fn luminance(colour: &str) -> f64 {
    let hex = colour.strip_prefix('#').filter(|h| h.len() == 6);
    let Some(rgb) = hex.and_then(|h| u32::from_str_radix(h, 16).ok()) else {
        return 1.0;
    };
    let channel = |shift: u32| {
        let c = f64::from((rgb >> shift) & 0xff) / 255.0;
        if c <= 0.040_45 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
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
    fn luminance_tells_light_from_dark() {
        assert!(luminance("#ffffff") > 0.99);
        assert!(luminance("#000000") < 0.01);
        assert!(luminance("#fee8c8") > 0.18);
        assert!(luminance("#7f0000") < 0.18);
        assert_eq!(luminance("red"), 1.0);
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
