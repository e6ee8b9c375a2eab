//! The charts of the report's course of play: a frame of plies against
//! values with round ticks, bands of quartiles with their medians, and the
//! colour scales of the heat maps with their keys.

use std::fmt::Write as _;

use murus_report::designer::Band;

use crate::html::escape;

/// Each player's colour in the charts (the board's light stones would not
/// show on white).
const PLAYER_COLOURS: [&str; 4] = ["#c7851a", "#2e4f8a", "#4e8f4a", "#8a2e6b"];

/// A sequential scale, light to dark (ColorBrewer's OrRd).
pub(super) const SEQUENTIAL: [&str; 5] = ["#fff7ec", "#fdd49e", "#fc8d59", "#d7301f", "#7f0000"];

/// A diverging scale, the loser's end to the winner's (ColorBrewer's PuOr):
/// orange where the first player did badly, purple where it did well.
pub(super) const DIVERGING: [&str; 5] = ["#b35806", "#f1a340", "#f7f7f7", "#998ec3", "#542788"];

/// Colours of end reasons in the endings' bars.
pub(super) const REASON_COLOURS: [&str; 8] = [
    "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
];

/// Player `p`'s colour in the charts.
pub(super) fn player_colour(p: usize) -> &'static str {
    PLAYER_COLOURS[p % PLAYER_COLOURS.len()]
}

/// The colour at `t` (0 to 1) along `stops`, interpolated.
pub(super) fn along(stops: &[&str], t: f64) -> String {
    let rgb = |s: &str| {
        let v = u32::from_str_radix(s.trim_start_matches('#'), 16).unwrap_or(0);
        [(v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff].map(f64::from)
    };
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let x = t * (stops.len() - 1) as f64;
    let i = (x.floor() as usize).min(stops.len() - 2);
    let f = x - i as f64;
    let (a, b) = (rgb(stops[i]), rgb(stops[i + 1]));
    let c: Vec<String> = (0..3)
        .map(|k| format!("{:02x}", (a[k] + (b[k] - a[k]) * f).round() as u32))
        .collect();
    format!("#{}", c.concat())
}

/// A first player's score on the diverging scale, `fair` (its share of a
/// fair game) in the middle.
pub(super) fn score_colour(score: f64, fair: f64) -> String {
    let t = if score <= fair {
        0.5 * score / fair.max(1e-9)
    } else {
        0.5 + 0.5 * (score - fair) / (1.0 - fair).max(1e-9)
    };
    along(&DIVERGING, t)
}

/// Ticks for an axis from `lo` to `hi`: a step of 1, 2 or 5 times a power
/// of ten giving at most about `most` ticks, and the ticks.
fn ticks(lo: f64, hi: f64, most: f64) -> (f64, Vec<f64>) {
    let span = (hi - lo).max(1e-9);
    let raw = span / most.max(1.0);
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * power);
    let first = (lo / step).ceil() * step;
    let mut out = Vec::new();
    let mut t = first;
    while t <= hi + step * 1e-6 {
        out.push(if t.abs() < step * 1e-6 { 0.0 } else { t });
        t += step;
    }
    (step, out)
}

/// A tick's label: whole numbers without decimals.
fn tick_label(t: f64, step: f64) -> String {
    if step >= 1.0 {
        format!("{t:.0}")
    } else if step >= 0.1 {
        format!("{t:.1}")
    } else {
        format!("{t:.2}")
    }
}

/// The frame of a chart of plies `0..=last` against values `lo..=hi`:
/// the SVG's opening, axes with ticks and titles; and the mapping of a
/// (ply, value) to the page.
pub(super) struct Frame {
    pub(super) svg: String,
    w: f64,
    pub(super) h: f64,
    left: f64,
    right: f64,
    pub(super) top: f64,
    pub(super) bottom: f64,
    last: f64,
    lo: f64,
    hi: f64,
}

impl Frame {
    pub(super) fn new(aria: &str, y_title: &str, last: usize, lo: f64, hi: f64) -> Frame {
        // Half the page's width: two charts side by side.
        let (w, h) = (360.0, 205.0);
        let (left, right, top, bottom) = (50.0, 10.0, 12.0, 42.0);
        let (lo, hi) = if hi - lo < 1e-9 {
            (lo - 1.0, hi + 1.0)
        } else {
            (lo, hi)
        };
        let mut f = Frame {
            svg: format!(
                "<svg class=\"chart\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"{}\">",
                escape(aria)
            ),
            w,
            h,
            left,
            right,
            top,
            bottom,
            last: last.max(1) as f64,
            lo,
            hi,
        };
        let (step, ys) = ticks(lo, hi, 5.0);
        for y in ys {
            let py = f.y(y);
            let _ = write!(
                f.svg,
                "<line x1=\"{left}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\" stroke=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"13\" text-anchor=\"end\" fill=\"#444\">{}</text>",
                w - right,
                if y == 0.0 { "#888" } else { "#e4e4e4" },
                left - 5.0,
                py + 4.5,
                tick_label(y, step)
            );
        }
        let (step, xs) = ticks(0.0, f.last, 6.0);
        for x in xs {
            let px = f.x(x);
            let _ = write!(
                f.svg,
                "<line x1=\"{px:.1}\" y1=\"{0:.1}\" x2=\"{px:.1}\" y2=\"{1:.1}\" stroke=\"#333\"/><text x=\"{px:.1}\" y=\"{2:.1}\" font-size=\"13\" text-anchor=\"middle\" fill=\"#444\">{3}</text>",
                h - bottom,
                h - bottom + 4.0,
                h - bottom + 17.0,
                tick_label(x, step.max(1.0))
            );
        }
        let _ = write!(
            f.svg,
            "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke=\"#333\"/><line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{0:.1}\" stroke=\"#333\"/><text x=\"{2:.1}\" y=\"{3:.1}\" font-size=\"14\" text-anchor=\"middle\" fill=\"#333\">ply</text><text transform=\"translate(14 {4:.1}) rotate(-90)\" font-size=\"14\" text-anchor=\"middle\" fill=\"#333\">{5}</text>",
            h - bottom,
            w - right,
            (left + w - right) / 2.0,
            h - 4.0,
            (top + h - bottom) / 2.0,
            escape(y_title)
        );
        f
    }

    pub(super) fn x(&self, ply: f64) -> f64 {
        self.left + (self.w - self.left - self.right) * ply / self.last
    }

    pub(super) fn y(&self, v: f64) -> f64 {
        self.h
            - self.bottom
            - (self.h - self.top - self.bottom) * (v - self.lo) / (self.hi - self.lo)
    }

    /// A band (the quartiles, shaded) and its median (a line, dashed if
    /// `dashed`), values multiplied by `scale`.
    pub(super) fn band(&mut self, band: &Band, scale: f64, colour: &str, name: &str, dashed: bool) {
        let point = |f: &Frame, k: usize, v: i32| {
            format!("{:.1},{:.1}", f.x(k as f64), f.y(f64::from(v) * scale))
        };
        let mut outline: Vec<String> = (band.p75.iter().enumerate())
            .map(|(k, &v)| point(self, k, v))
            .collect();
        outline.extend(
            (band.p25.iter().enumerate())
                .rev()
                .map(|(k, &v)| point(self, k, v)),
        );
        let median: Vec<String> = (band.median.iter().enumerate())
            .map(|(k, &v)| point(self, k, v))
            .collect();
        let _ = write!(
            self.svg,
            "<g data-series=\"{0}\"><title>{0}</title><polygon points=\"{1}\" fill=\"{2}\" fill-opacity=\"0.25\" stroke=\"none\"/><polyline points=\"{3}\" fill=\"none\" stroke=\"{2}\" stroke-width=\"2\"{4}/></g>",
            escape(name),
            outline.join(" "),
            colour,
            median.join(" "),
            if dashed {
                " stroke-dasharray=\"6 3\""
            } else {
                ""
            }
        );
    }

    /// A key of named colours in the chart's bottom left corner.
    pub(super) fn key(&mut self, names: &[(String, &str)]) {
        let rows = names.len() as f64;
        for (i, (name, colour)) in names.iter().enumerate() {
            let y = self.h - self.bottom - 10.0 - 17.0 * (rows - 1.0 - i as f64);
            let x = self.left + 10.0;
            let _ = write!(
                self.svg,
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"14\" height=\"10\" fill=\"{colour}\"/><text x=\"{:.1}\" y=\"{y:.1}\" font-size=\"13\" dominant-baseline=\"central\" fill=\"#333\">{}</text>",
                y - 5.0,
                x + 19.0,
                escape(name)
            );
        }
    }

    pub(super) fn finish(mut self) -> String {
        self.svg.push_str("</svg>");
        self.svg
    }
}

/// The lowest and highest value of `bands` times `scale`.
pub(super) fn range(bands: &[&Band], scale: f64) -> (f64, f64) {
    let all = bands
        .iter()
        .flat_map(|b| b.p25.iter().chain(&b.p75).chain(&b.median));
    let (lo, hi) = all.fold((f64::MAX, f64::MIN), |(lo, hi), &v| {
        let v = f64::from(v) * scale;
        (lo.min(v), hi.max(v))
    });
    if lo > hi { (0.0, 1.0) } else { (lo, hi) }
}

/// A colour scale's key under a heat map: `stops` from `lo` to `hi`.
pub(super) fn scale_key(stops: &[&str], lo: &str, mid: Option<&str>, hi: &str) -> String {
    let (w, h, n) = (240.0, 30.0, 24);
    let mut svg = format!(
        "<svg class=\"legend\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"colour scale\" style=\"max-width:70mm\">"
    );
    let cell = (w - 20.0) / f64::from(n);
    for i in 0..n {
        let t = (f64::from(i) + 0.5) / f64::from(n);
        let _ = write!(
            svg,
            "<rect x=\"{:.1}\" y=\"2\" width=\"{:.1}\" height=\"12\" fill=\"{}\"/>",
            10.0 + cell * f64::from(i),
            cell + 0.5,
            along(stops, t)
        );
    }
    for (x, anchor, text) in [
        (10.0, "start", Some(lo)),
        (w / 2.0, "middle", mid),
        (w - 10.0, "end", Some(hi)),
    ] {
        if let Some(text) = text {
            let _ = write!(
                svg,
                "<text x=\"{x}\" y=\"26\" font-size=\"10\" text-anchor=\"{anchor}\" fill=\"#333\">{}</text>",
                escape(text)
            );
        }
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_run_along_their_scale() {
        assert_eq!(along(&SEQUENTIAL, 0.0), SEQUENTIAL[0]);
        assert_eq!(along(&SEQUENTIAL, 1.0), SEQUENTIAL[4]);
        assert_eq!(along(&SEQUENTIAL, 0.5), SEQUENTIAL[2]);
        assert_eq!(along(&SEQUENTIAL, f64::NAN), SEQUENTIAL[0]);
        // A fair result is the diverging scale's middle, whatever the
        // number of players.
        assert_eq!(score_colour(0.5, 0.5), DIVERGING[2]);
        assert_eq!(score_colour(1.0 / 3.0, 1.0 / 3.0), DIVERGING[2]);
        assert_eq!(score_colour(0.0, 0.5), DIVERGING[0]);
        assert_eq!(score_colour(1.0, 0.25), DIVERGING[4]);
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(
            ticks(0.0, 60.0, 8.0),
            (10.0, vec![0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0])
        );
        let (step, t) = ticks(-1.3, 2.2, 5.0);
        assert_eq!(step, 1.0);
        assert_eq!(t, [-1.0, 0.0, 1.0, 2.0]);
        assert_eq!(tick_label(0.5, 0.5), "0.5");
        assert_eq!(tick_label(20.0, 10.0), "20");
    }
}
