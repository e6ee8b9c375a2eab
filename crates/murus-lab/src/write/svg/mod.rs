//! The lab's SVG charts, drawn with `plotters` (its SVG backend only: no
//! system fonts, so text sizes are estimated, which is all an SVG needs).
//!
//! * [`report_svg`]: a self-play report (`report.svg`): the share of games
//!   each seat and each colour won, and the draws, with 95% intervals; the
//!   game-length histogram; and a strip of the game-quality metrics.
//! * [`balance_svg`]: a balance check (`balance.svg`): the first player's
//!   win rate at each level, with 95% intervals and the fair rate.
//! * [`sweep_svg`]: a sweep (`sweep.svg`): a heat map of the first
//!   player's rate over two parameters, or its rate by value over one.
//!
//! Labels never overlap: a label column is as wide as its longest label
//! (a label is cut with `…` past [`MAX_LABEL`] characters, or where its
//! column is narrower, and keeps its whole text in a tooltip), axes have
//! only as many ticks as fit, and the value beside a bar or a point has
//! room kept for it.
//!
//! What is where: this file holds the pieces every chart uses (fonts,
//! ticks, labels cut to fit, tooltips); `report` draws `report.svg`;
//! `rate` the chart of the first player's rate and `balance.svg`; `sweep`
//! `sweep.svg`.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

mod rate;
mod report;
mod sweep;

pub use rate::balance_svg;
pub use report::report_svg;
pub use sweep::sweep_svg;

/// The longest label shown whole, in characters; longer ones end in `…`.
pub const MAX_LABEL: usize = 28;

const FONT: &str = "sans-serif";
/// Sizes in the SVG's pixels (each one that [`font`] can give exactly).
const TITLE: f64 = 16.0;
const CAPTION: f64 = 12.0;
const LABEL: f64 = 11.0;
const TICK: f64 = 10.0;

const SEAT: RGBColor = RGBColor(0x4a, 0x7a, 0xb0);
const COLOUR: RGBColor = RGBColor(0xc0, 0x82, 0x3f);
const DRAW: RGBColor = RGBColor(0x99, 0x99, 0x99);
const LENGTH: RGBColor = RGBColor(0xb0, 0x7a, 0x4a);
const GRID: RGBColor = RGBColor(0xdd, 0xdd, 0xdd);
const FAIR: RGBColor = RGBColor(0xc0, 0x39, 0x2b);

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type Drawn = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// A linear `f64` axis with ticks where the chart puts them (the rows of
/// a bar chart, the levels, round percentages) rather than where plotters'
/// numeric axis would.
#[derive(Clone)]
struct Ticks {
    axis: RangedCoordf64,
    at: Vec<f64>,
}

fn ticks(range: std::ops::Range<f64>, at: Vec<f64>) -> Ticks {
    Ticks {
        axis: range.into(),
        at,
    }
}

impl Ranged for Ticks {
    // Labels are always given a formatter; this only lets plotters accept
    // the axis.
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.axis.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // Bold grid lines and labels only: no light lines between them.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.at.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.axis.range()
    }
}

/// A text style of `size` SVG pixels (plotters writes a font's size
/// divided by 1.24).
fn font(size: f64) -> TextStyle<'static> {
    // Of the floats nearest `size * 1.24`, one whose quotient is `size`
    // exactly, so that the SVG says `font-size="11"`.
    let near = size * 1.24;
    let exact = [
        near,
        f64::from_bits(near.to_bits() + 1),
        f64::from_bits(near.to_bits() - 1),
    ]
    .into_iter()
    .find(|s| s / 1.24 == size)
    .unwrap_or(near);
    (FONT, exact).into_font().color(&BLACK)
}

/// About how wide `text` is at `size` in a sans-serif font (the report
/// types' crate holds it: the published diagrams measure alike).
pub use murus_report::svg::text_width;

/// `text` cut with `…` to at most `chars` characters.
pub fn truncate(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(chars.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// `text` cut to [`MAX_LABEL`] characters and to fit `width` at `size`.
fn fit(text: &str, size: f64, width: f64) -> String {
    let room = (width / (size * 0.6)).floor().max(1.0) as usize;
    truncate(text, MAX_LABEL.min(room))
}

/// Labels cut short, each with its whole text, for [`with_tooltips`].
#[derive(Default)]
struct Cuts(Vec<(String, String)>);

impl Cuts {
    /// `text` fitted to `width` at `size`, remembered when cut.
    fn fit(&mut self, text: &str, size: f64, width: f64) -> String {
        let shown = fit(text, size, width);
        if shown != text {
            self.0.push((shown.clone(), text.to_string()));
        }
        shown
    }

    /// A title fitted to `width` (no character limit).
    fn fit_title(&mut self, text: &str, width: f64) -> String {
        let room = (width / (TITLE * 0.6)).floor() as usize;
        let shown = truncate(text, room);
        if shown != text {
            self.0.push((shown.clone(), text.to_string()));
        }
        shown
    }
}

/// Gives each cut label's `<text>` element its whole text as a tooltip
/// (plotters writes a text element's body on a line of its own).
fn with_tooltips(mut svg: String, cuts: &Cuts) -> String {
    for (shown, whole) in &cuts.0 {
        let body = format!(">\n{}\n</text>", esc(shown));
        let titled = format!(">\n<title>{}</title>{}\n</text>", esc(whole), esc(shown));
        svg = svg.replace(&body, &titled);
    }
    svg
}

/// Escapes text as plotters does.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// Draws an SVG of `size` with `draw`.
fn svg(size: (u32, u32), draw: impl FnOnce(&Area) -> Drawn) -> String {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        draw(&root)
            .and_then(|()| root.present())
            .expect("drawing into a string cannot fail");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_labels_are_cut_with_an_ellipsis() {
        assert_eq!(truncate("short", MAX_LABEL), "short");
        let long = "seat 1: alphabeta:50000:eval=/some/path.eval";
        let cut = fit(long, LABEL, 1000.0);
        assert_eq!(cut.chars().count(), MAX_LABEL);
        assert!(cut.ends_with('…'));
        assert!(long.starts_with(cut.trim_end_matches('…')));
        // A narrow column cuts sooner.
        assert_eq!(fit(long, 10.0, 60.0), "seat 1: a…");
    }
}
