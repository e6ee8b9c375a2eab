//! The lab's SVG charts, drawn with `plotters` (its SVG backend only: no
//! system fonts, so text sizes are estimated, which is all an SVG needs).
//!
//! * [`report_svg`]: a self-play report (`report.svg`): the share of games
//!   each seat and each colour won, and the draws, with 95% intervals; the
//!   game-length histogram; and a strip of the game-quality metrics.
//! * [`balance_svg`]: a balance check (`balance.svg`): the first player's
//!   win rate at each level, with 95% intervals and the fair rate.
//!
//! Labels never overlap: a label column is as wide as its longest label
//! (a label is cut with `…` past [`MAX_LABEL`] characters, or where its
//! column is narrower, and keeps its whole text in a tooltip), axes have
//! only as many ticks as fit, and the value beside a bar or a point has
//! room kept for it.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::balance::BalanceReport;
use crate::report::{Report, grouped};

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

/// About how wide `text` is at `size` in a sans-serif font: a bound that
/// holds for ordinary letters and digits, used to keep labels apart.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.6
}

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

/// The self-play report's chart (see the [module](self)).
pub fn report_svg(report: &Report) -> String {
    let mut rows: Vec<(String, RGBColor, f64, [f64; 2])> = report
        .by_seat
        .iter()
        .map(|r| {
            (
                format!("seat {}: {}", r.seat + 1, r.bot),
                SEAT,
                r.rate,
                r.ci95,
            )
        })
        .collect();
    // Colours in turn order.
    rows.extend(report.players.iter().filter_map(|c| {
        let r = report.by_colour.get(&c.to_string())?;
        Some((format!("colour {c}"), COLOUR, r.rate, r.ci95))
    }));
    rows.push(("draws".into(), DRAW, report.draws.rate, report.draws.ci95));

    let width = 900u32;
    let height = 360u32.max(150 + 24 * rows.len() as u32);
    let mut cuts = Cuts::default();
    let title = format!(
        "{} — {} games{}: {}",
        report.variant.name,
        report.games,
        if report.interrupted {
            " (interrupted)"
        } else {
            ""
        },
        report.bots.join(" vs ")
    );
    let title = cuts.fit_title(&title, f64::from(width) - 24.0);
    let labels: Vec<String> = rows
        .iter()
        .map(|(l, ..)| cuts.fit(l, LABEL, 200.0))
        .collect();
    let quality: Vec<String> = quality_items(&report.metrics)
        .iter()
        .map(|t| cuts.fit(t, TICK, QUALITY_COLUMN - 8.0))
        .collect();
    let rows_of_quality = quality.len().div_ceil(QUALITY_COLUMNS) as u32;
    let strip = QUALITY_TOP + QUALITY_ROW * rows_of_quality + 8;
    let svg = svg((width, height + strip), |root| {
        root.fill(&WHITE)?;
        let (charts, bottom) = root.split_vertically(height);
        let body = charts.titled(&title, font(TITLE))?;
        let (left, right) = body.split_horizontally(500);
        outcomes(&left, &rows, &labels)?;
        lengths(&right, report)?;
        quality_strip(&bottom, &quality)
    });
    with_tooltips(svg, &cuts)
}

/// The game-quality strip's columns, their width, and its rows' layout.
const QUALITY_COLUMNS: usize = 5;
const QUALITY_COLUMN: f64 = 176.0;
const QUALITY_TOP: u32 = 30;
const QUALITY_ROW: u32 = 16;

/// The game-quality metrics in a few words each, in the order of
/// `docs/metrics.md`; a figure the games did not have is `–`.
fn quality_items(m: &crate::metrics::Metrics) -> Vec<String> {
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    let opt = |x: Option<f64>, f: &dyn Fn(f64) -> String| x.map_or_else(|| "–".into(), f);
    let two = |x: f64| format!("{x:.2}");
    let three = |x: f64| format!("{x:.3}");
    let length = match m.duration.ideal {
        Some([lo, hi]) => format!("length {:.1}, ideal {lo:.0}–{hi:.0}", m.duration.mean),
        None => format!("length {:.1}", m.duration.mean),
    };
    let trend = opt(m.branching.trend, &|t| format!("{t:+.2}"));
    vec![
        format!("completion {}", pct(m.completion)),
        format!("drawishness {}", pct(m.drawishness)),
        format!("timeouts {}", pct(m.timeouts)),
        length,
        format!("duration score {}", opt(m.duration.score, &two)),
        format!(
            "decisiveness threshold {}",
            opt(m.decisiveness_threshold, &two)
        ),
        format!("decisiveness moves {}", opt(m.decisiveness_moves, &two)),
        format!("drama {}", opt(m.drama, &three)),
        format!("lead change {}", opt(m.lead_change, &two)),
        format!("stability {}", opt(m.stability, &three)),
        format!("clarity {}", opt(m.clarity, &two)),
        format!("decision moves {}", opt(m.decision_moves, &pct)),
        format!("branching {:.1}, trend {trend}", m.branching.mean),
        format!("board coverage {}", opt(m.board_coverage, &pct)),
        format!("repetition {}", opt(m.repetition, &pct)),
    ]
}

/// The strip under the charts: a caption, then the game-quality figures
/// in [`QUALITY_COLUMNS`] columns, row by row.
fn quality_strip(area: &Area, items: &[String]) -> Drawn {
    let left = 12;
    area.draw(&Text::new(
        "game quality (docs/metrics.md)",
        (left, 6),
        font(CAPTION).pos(Pos::new(HPos::Left, VPos::Top)),
    ))?;
    for (i, item) in items.iter().enumerate() {
        let (row, col) = (i / QUALITY_COLUMNS, i % QUALITY_COLUMNS);
        let x = left + (col as f64 * QUALITY_COLUMN) as i32;
        let y = (QUALITY_TOP + QUALITY_ROW * row as u32) as i32;
        area.draw(&Text::new(
            item.as_str(),
            (x, y),
            font(TICK).pos(Pos::new(HPos::Left, VPos::Top)),
        ))?;
    }
    Ok(())
}

/// The left chart: one bar per seat, colour and draws, top to bottom.
fn outcomes(area: &Area, rows: &[(String, RGBColor, f64, [f64; 2])], labels: &[String]) -> Drawn {
    let n = rows.len();
    let widest = labels
        .iter()
        .map(|l| text_width(l, LABEL))
        .fold(0.0, f64::max);
    // The axis title, a gap, the labels, the tick mark's distance.
    let label_area = (LABEL * 1.6 + widest + 14.0).ceil() as u32;
    // Row `i` (from the top) is centred on `n - i - 0.5`.
    let centres: Vec<f64> = (0..n).map(|i| n as f64 - i as f64 - 0.5).collect();
    let row_of = |y: f64| (n as f64 - 0.5 - y).round() as usize;
    let mut chart = ChartBuilder::on(area)
        .caption(
            "wins per seat and per colour, and draws",
            font(CAPTION).pos(Pos::new(HPos::Center, VPos::Top)),
        )
        .margin_left(6)
        .margin_top(6)
        // Room for the widest value, `100.0%`, right of a full bar.
        .margin_right(46)
        .x_label_area_size(44)
        .y_label_area_size(label_area)
        .build_cartesian_2d(
            ticks(0.0..1.0, vec![0.0, 0.25, 0.5, 0.75, 1.0]),
            ticks(0.0..n as f64, centres),
        )?;
    let x_fmt = |x: &f64| format!("{:.0}%", x * 100.0);
    let y_fmt = |y: &f64| labels.get(row_of(*y)).cloned().unwrap_or_default();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .bold_line_style(GRID)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .x_label_style(font(TICK))
        .y_label_style(font(LABEL))
        .axis_desc_style(font(LABEL))
        .x_desc("share of games (whiskers: 95% interval)")
        .y_desc("won by")
        .draw()?;
    // A bar is at most 22 pixels thick, with room between bars.
    let row_px = f64::from(chart.plotting_area().dim_in_pixel().1) / n.max(1) as f64;
    let thick = (row_px * 0.6).min(22.0);
    let inset = ((row_px - thick) / 2.0).max(0.0) as u32;
    let whisker = (thick / 4.0).max(3.0) as i32;
    for (i, (_, colour, rate, ci)) in rows.iter().enumerate() {
        let y = n as f64 - i as f64 - 0.5;
        let mut bar = Rectangle::new([(0.0, y - 0.5), (*rate, y + 0.5)], colour.filled());
        bar.set_margin(inset, inset, 0, 0);
        chart.draw_series([bar])?;
        // The interval: a line with a short upright at each end.
        let cap = || PathElement::new(vec![(0, -whisker), (0, whisker)], BLACK);
        chart.draw_series([PathElement::new(vec![(ci[0], y), (ci[1], y)], BLACK)])?;
        chart.draw_series([
            EmptyElement::at((ci[0], y)) + cap(),
            EmptyElement::at((ci[1], y)) + cap(),
        ])?;
        let value = EmptyElement::at((rate.max(ci[1]), y))
            + Text::new(
                format!("{:.1}%", rate * 100.0),
                (4, 0),
                font(TICK).pos(Pos::new(HPos::Left, VPos::Center)),
            );
        chart.draw_series([value])?;
    }
    Ok(())
}

/// The right chart: games per length, in the report's bins.
fn lengths(area: &Area, report: &Report) -> Drawn {
    let hist = &report.length.histogram;
    let bin = hist.first().map_or(10, |b| b.to - b.from + 1);
    let end = (hist.len() as u32 * bin).max(1);
    let most = hist.iter().map(|b| b.count).max().unwrap_or(0).max(1);
    let top = most + most / 20;
    let widest = text_width(&grouped(top), TICK);
    let label_area = (LABEL * 1.6 + widest + 14.0).ceil() as u32;
    let margin_right = 20;
    let plot_w = f64::from(area.dim_in_pixel().0) - f64::from(label_area + margin_right);
    // As many plies ticks as fit with room between them.
    let x_ticks = (plot_w / (text_width(&end.to_string(), TICK) + 24.0)).floor() as usize;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!(
                "game length: mean {:.1}, median {}",
                report.length.mean, report.length.median
            ),
            font(CAPTION).pos(Pos::new(HPos::Center, VPos::Top)),
        )
        .margin_top(6)
        .margin_right(margin_right)
        .x_label_area_size(44)
        .y_label_area_size(label_area)
        .build_cartesian_2d(0..end, 0..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .x_labels(x_ticks.max(2))
        .y_labels(5)
        .y_label_formatter(&|n| grouped(*n))
        .x_label_style(font(TICK))
        .y_label_style(font(TICK))
        .axis_desc_style(font(LABEL))
        .x_desc("game length (plies)")
        .y_desc("games")
        .draw()?;
    chart.draw_series(hist.iter().map(|b| {
        let mut bar = Rectangle::new([(b.from, 0), (b.to + 1, b.count)], LENGTH.filled());
        bar.set_margin(0, 0, 0, 1);
        bar
    }))?;
    Ok(())
}

// ---------------------------------------------------------------------------
// Charts of the first player's rate: the balance check's by level, a
// one-parameter sweep's by value.

/// The width of the rate axis's labels, and the room right of the plot
/// (for the fair rate's label).
const RATE_LABEL_AREA: u32 = 56;
const RATE_MARGIN_RIGHT: u32 = 90;

type RateChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<Ticks, Ticks>>;

/// A chart of the first player's rate in percent at `n` places along x
/// (ticks at `x_at`, named by `x_fmt`, the axis called `x_desc`), with its
/// grid and the fair rate `fair` as a dashed line.
fn rate_chart<'a, 'b>(
    area: &'a Area<'b>,
    n: usize,
    x_at: Vec<f64>,
    x_fmt: &dyn Fn(&f64) -> String,
    x_desc: &str,
    fair: f64,
) -> Result<RateChart<'a, 'b>, DrawingAreaErrorKind<std::io::Error>> {
    let mut chart = ChartBuilder::on(area)
        .margin_top(10)
        .margin_left(6)
        .margin_right(RATE_MARGIN_RIGHT)
        .x_label_area_size(44)
        .y_label_area_size(RATE_LABEL_AREA)
        .build_cartesian_2d(
            ticks(-0.5..n as f64 - 0.5, x_at),
            ticks(0.0..100.0, (0..=10).map(|t| f64::from(t) * 10.0).collect()),
        )?;
    let y_fmt = |y: &f64| format!("{y:.0}%");
    chart
        .configure_mesh()
        .disable_x_mesh()
        .bold_line_style(GRID)
        .x_label_formatter(x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(font(TICK))
        .axis_desc_style(font(LABEL))
        .x_desc(x_desc)
        .y_desc("first player's wins (95% interval)")
        .draw()?;
    let fair_pct = fair * 100.0;
    chart.draw_series(DashedLineSeries::new(
        [(-0.5, fair_pct), (n as f64 - 0.5, fair_pct)],
        6,
        4,
        FAIR.stroke_width(2),
    ))?;
    Ok(chart)
}

/// A rate at `x`: a filled dot with its interval `ci` in `colour`, and its
/// value beside it, on white where it crosses the fair line or a grid line.
fn rate_point(chart: &mut RateChart, x: f64, rate: f64, ci: [f64; 2], colour: RGBColor) -> Drawn {
    chart.draw_series([ErrorBar::new_vertical(
        x,
        ci[0] * 100.0,
        rate * 100.0,
        ci[1] * 100.0,
        colour.filled().stroke_width(2),
        10,
    )])?;
    let value = format!("{:.1}%", rate * 100.0);
    let w = text_width(&value, TICK).ceil() as i32;
    chart.draw_series([EmptyElement::at((x, rate * 100.0))
        + Rectangle::new([(8, -7), (12 + w, 7)], WHITE.filled())
        + Text::new(
            value,
            (10, 0),
            font(TICK).pos(Pos::new(HPos::Left, VPos::Center)),
        )])?;
    Ok(())
}

/// The fair rate's label, right of the plot at the line's height (pixels
/// of the whole picture, so drawn on `root`).
fn fair_label(root: &Area, chart: &RateChart, n: usize, fair: f64) -> Drawn {
    let fair_pct = fair * 100.0;
    let (px, py) = chart.backend_coord(&(n as f64 - 0.5, fair_pct));
    root.draw(&Text::new(
        format!("fair {fair_pct:.1}%"),
        (px + 8, py),
        font(TICK).pos(Pos::new(HPos::Left, VPos::Center)),
    ))
}

/// The balance check's chart (`balance.svg`): the first player's win rate
/// at each level, weakest first, with 95% intervals, and the fair rate
/// (one over the number of players) as a dashed line.
pub fn balance_svg(report: &BalanceReport) -> String {
    let (width, height) = (800u32, 420u32);
    let mut cuts = Cuts::default();
    let title = format!(
        "{}: the first player's wins by level{}",
        report.variant.name,
        if report.interrupted {
            " (interrupted)"
        } else {
            ""
        }
    );
    let title = cuts.fit_title(&title, f64::from(width) - 24.0);
    let players = report
        .levels
        .first()
        .map_or(2, |l| l.report.players.len())
        .max(1);
    let fair = 1.0 / players as f64;
    let n = report.levels.len().max(1);
    // Each level's column, less some room on either side.
    let column =
        (f64::from(width - RATE_LABEL_AREA - RATE_MARGIN_RIGHT - 12) / n as f64 - 12.0).max(12.0);
    let labels: Vec<String> = report
        .levels
        .iter()
        .map(|l| {
            cuts.fit(
                &format!("{} ({} games)", l.level, grouped(l.report.games)),
                TICK,
                column,
            )
        })
        .collect();
    let svg = svg((width, height), |root| {
        root.fill(&WHITE)?;
        let body = root.titled(&title, font(TITLE))?;
        let x_at = (0..report.levels.len()).map(|i| i as f64).collect();
        let x_fmt = |x: &f64| {
            labels
                .get(x.round().max(0.0) as usize)
                .cloned()
                .unwrap_or_default()
        };
        let mut chart = rate_chart(&body, n, x_at, &x_fmt, "level, weakest first", fair)?;
        for (i, l) in report.levels.iter().enumerate() {
            let f = &l.report.first_player_advantage;
            rate_point(&mut chart, i as f64, f.rate, f.ci95, SEAT)?;
        }
        fair_label(root, &chart, n, fair)?;
        Ok(())
    });
    with_tooltips(svg, &cuts)
}

// ---------------------------------------------------------------------------
// The sweep's chart (`sweep.svg`).

/// Each tier's colour in the sweep's bar chart.
fn tier_colour(t: crate::sweep::Tier) -> RGBColor {
    use crate::sweep::Tier;
    match t {
        Tier::Unplayable => RGBColor(0x99, 0x99, 0x99),
        Tier::Broken => RGBColor(0x8e, 0x44, 0xad),
        Tier::Unbalanced => COLOUR,
        Tier::Playable => RGBColor(0x2e, 0x8b, 0x57),
    }
}

/// The heat map's colour of a first-player rate: white at the fair rate,
/// deepening to blue 25 points below it and to red 25 points above.
fn rate_colour(rate: f64, fair: f64) -> RGBColor {
    let d = ((rate - fair) / 0.25).clamp(-1.0, 1.0);
    let (end, t) = if d < 0.0 { (SEAT, -d) } else { (FAIR, d) };
    let mix = |e: u8| (255.0 + (f64::from(e) - 255.0) * t).round() as u8;
    RGBColor(mix(end.0), mix(end.1), mix(end.2))
}

/// What one combination shows in the sweep's chart.
enum Cell<'a> {
    Row(&'a crate::sweep::SweepRow),
    Skipped,
    Missing,
}

/// The combination of `report` with these values (each named parameter
/// at its value).
fn cell<'a>(report: &'a crate::sweep::SweepReport, at: &[(&str, i64)]) -> Cell<'a> {
    let fits =
        |v: &std::collections::BTreeMap<String, i64>| at.iter().all(|(n, x)| v.get(*n) == Some(x));
    if let Some(r) = report.rows.iter().find(|r| fits(&r.values)) {
        Cell::Row(r)
    } else if report.skipped.iter().any(|s| fits(&s.values)) {
        Cell::Skipped
    } else {
        Cell::Missing
    }
}

/// The first player's rate and the fair rate at a row's strongest level.
fn row_rate(r: &crate::sweep::SweepRow) -> Option<(f64, [f64; 2], f64)> {
    let l = crate::sweep::strongest(&r.balance)?;
    let f = &l.report.first_player_advantage;
    Some((f.rate, f.ci95, f.fair))
}

/// Indices `0..n` to label, every `step`-th, so that labels `width`
/// pixels wide fit columns `column` pixels apart.
fn thinned(n: usize, width: f64, column: f64) -> Vec<f64> {
    let step = ((width + 8.0) / column.max(1.0)).ceil().max(1.0) as usize;
    (0..n).step_by(step).map(|i| i as f64).collect()
}

/// The sweep's chart (`sweep.svg`), drawn at each combination's strongest
/// level played:
///
/// * two parameters or more: a heat map over the first two (first along
///   the bottom, second up the side), each cell coloured by the first
///   player's rate (white at the fair rate, blue below, red above; a
///   scale on the right) and labelled with the rate, the rank and the tier
///   where it fits; a combination that does not compile is grey and says
///   so. Further parameters are held at their values in the best row
///   (named under the title).
/// * one parameter, or none: the first player's rate with its 95%
///   interval for each combination, coloured by tier, and the fair rate.
pub fn sweep_svg(report: &crate::sweep::SweepReport) -> String {
    if report.spec.parameters.len() >= 2 {
        sweep_heat_map(report)
    } else {
        sweep_bars(report)
    }
}

fn sweep_title(report: &crate::sweep::SweepReport, what: &str) -> String {
    let level = report.spec.levels.last().map_or("", String::as_str);
    format!(
        "{}: {what} at {level}{}",
        report.variant_name(),
        if report.interrupted {
            " (interrupted)"
        } else {
            ""
        }
    )
}

fn sweep_heat_map(report: &crate::sweep::SweepReport) -> String {
    let spec = &report.spec;
    let (px, py) = (&spec.parameters[0], &spec.parameters[1]);
    let (xs, ys) = (&spec.values[0], &spec.values[1]);
    let (nx, ny) = (xs.len().max(1), ys.len().max(1));
    // The other parameters, at the best row's values (or their first).
    let fixed: Vec<(&str, i64)> = spec.parameters[2..]
        .iter()
        .zip(&spec.values[2..])
        .map(|(p, vs)| {
            let best = report.rows.first().and_then(|r| r.values.get(p).copied());
            (p.as_str(), best.or(vs.first().copied()).unwrap_or(0))
        })
        .collect();
    let width = 900u32;
    let height = (200 + 56 * ny as u32).clamp(420, 1000);
    let mut cuts = Cuts::default();
    let title = sweep_title(report, "the first player's wins");
    let title = cuts.fit_title(&title, f64::from(width) - 24.0);
    let caption = if fixed.is_empty() {
        format!("by {px} and {py}; each cell: the rate, the rank and the tier")
    } else {
        let held: Vec<String> = fixed.iter().map(|(p, v)| format!("{p} = {v}")).collect();
        format!(
            "by {px} and {py}, with {} (the best row's)",
            held.join(", ")
        )
    };
    let room = ((f64::from(width) - 24.0) / (CAPTION * 0.6)).floor() as usize;
    let shown = truncate(&caption, room);
    if shown != caption {
        cuts.0.push((shown.clone(), caption.clone()));
    }
    let caption = shown;
    let (label_area, margin_right) = (
        (LABEL * 1.6
            + ys.iter()
                .map(|v| text_width(&v.to_string(), TICK))
                .fold(0.0, f64::max)
            + 14.0)
            .ceil() as u32,
        150u32,
    );
    let plot_w = f64::from(width - label_area - margin_right - 12);
    let plot_h = f64::from(height) - 40.0 - 30.0 - 50.0;
    let (cell_w, cell_h) = (plot_w / nx as f64, plot_h / ny as f64);
    let widest_x = xs
        .iter()
        .map(|v| text_width(&v.to_string(), TICK))
        .fold(0.0, f64::max);
    let x_at = thinned(nx, widest_x, cell_w);
    let y_at = thinned(ny, TICK, cell_h);
    // What fits in a cell: two lines, the rate alone, or nothing.
    let two_lines =
        cell_w >= text_width("#9999 unplayable", TICK) + 8.0 && cell_h >= 2.0 * TICK + 12.0;
    let one_line = cell_w >= text_width("100.0%", TICK) + 6.0 && cell_h >= TICK + 6.0;
    let fair = report
        .rows
        .iter()
        .find_map(row_rate)
        .map_or(0.5, |(_, _, f)| f);
    let svg = svg((width, height), |root| {
        root.fill(&WHITE)?;
        let body = root.titled(&title, font(TITLE))?;
        let mut chart = ChartBuilder::on(&body)
            .caption(
                &caption,
                font(CAPTION).pos(Pos::new(HPos::Center, VPos::Top)),
            )
            .margin_top(6)
            .margin_left(6)
            .margin_right(margin_right)
            .x_label_area_size(44)
            .y_label_area_size(label_area)
            .build_cartesian_2d(
                ticks(-0.5..nx as f64 - 0.5, x_at),
                ticks(-0.5..ny as f64 - 0.5, y_at),
            )?;
        let x_fmt = |x: &f64| {
            xs.get(x.round().max(0.0) as usize)
                .map(ToString::to_string)
                .unwrap_or_default()
        };
        let y_fmt = |y: &f64| {
            ys.get(y.round().max(0.0) as usize)
                .map(ToString::to_string)
                .unwrap_or_default()
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .label_style(font(TICK))
            .axis_desc_style(font(LABEL))
            .x_desc(px.as_str())
            .y_desc(py.as_str())
            .draw()?;
        for (i, x) in xs.iter().enumerate() {
            for (j, y) in ys.iter().enumerate() {
                let mut at = vec![(px.as_str(), *x), (py.as_str(), *y)];
                at.extend(fixed.iter().copied());
                let mut ink = BLACK;
                let (fill, lines): (RGBColor, Vec<String>) = match cell(report, &at) {
                    Cell::Row(r) => match row_rate(r) {
                        Some((rate, _, f)) => (
                            {
                                // White letters on the deeper colours.
                                if (rate - f).abs() > 0.125 {
                                    ink = WHITE;
                                }
                                rate_colour(rate, f)
                            },
                            vec![
                                format!("{:.1}%", rate * 100.0),
                                format!("#{} {}", r.rank, r.tier.name()),
                            ],
                        ),
                        None => (WHITE, vec!["no games".into(), format!("#{}", r.rank)]),
                    },
                    Cell::Skipped => (
                        RGBColor(0xcc, 0xcc, 0xcc),
                        vec!["does not".into(), "compile".into()],
                    ),
                    Cell::Missing => (WHITE, vec!["not played".into()]),
                };
                let (cx, cy) = (i as f64, j as f64);
                let mut rect =
                    Rectangle::new([(cx - 0.5, cy - 0.5), (cx + 0.5, cy + 0.5)], fill.filled());
                rect.set_margin(1, 1, 1, 1);
                chart.draw_series([rect])?;
                let shown: Vec<&String> = if two_lines {
                    lines.iter().take(2).collect()
                } else if one_line {
                    lines.iter().take(1).collect()
                } else {
                    Vec::new()
                };
                let n = shown.len() as i32;
                for (k, text) in shown.into_iter().enumerate() {
                    let dy = (2 * k as i32 - (n - 1)) * (TICK as i32 * 6 / 10 + 1);
                    chart.draw_series([EmptyElement::at((cx, cy))
                        + Text::new(
                            fit(text, TICK, cell_w - 4.0),
                            (0, dy),
                            font(TICK)
                                .color(&ink)
                                .pos(Pos::new(HPos::Center, VPos::Center)),
                        )])?;
                }
            }
        }
        // The colour scale, right of the map: fair ± 25 points.
        let (x0, y0) = chart.backend_coord(&(nx as f64 - 0.5, ny as f64 - 0.5));
        let (_, y1) = chart.backend_coord(&(nx as f64 - 0.5, -0.5));
        let (left, bar_w) = (x0 + 24, 16);
        let steps = 20;
        let span = f64::from(y1 - y0);
        for s in 0..steps {
            let t = f64::from(s) / f64::from(steps - 1);
            let rate = fair + 0.25 - 0.5 * t;
            let top = y0 + (span * f64::from(s) / f64::from(steps)) as i32;
            let bottom = y0 + (span * f64::from(s + 1) / f64::from(steps)) as i32;
            root.draw(&Rectangle::new(
                [(left, top), (left + bar_w, bottom)],
                rate_colour(rate, fair).filled(),
            ))?;
        }
        root.draw(&Rectangle::new([(left, y0), (left + bar_w, y1)], BLACK))?;
        for (rate, y) in [(fair + 0.25, y0), (fair, (y0 + y1) / 2), (fair - 0.25, y1)] {
            let text = if (rate - fair).abs() < 1e-9 {
                format!("fair {:.1}%", rate * 100.0)
            } else {
                format!("{:.1}%", rate * 100.0)
            };
            root.draw(&Text::new(
                text,
                (left + bar_w + 6, y),
                font(TICK).pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
        }
        Ok(())
    });
    with_tooltips(svg, &cuts)
}

fn sweep_bars(report: &crate::sweep::SweepReport) -> String {
    let spec = &report.spec;
    let param = spec.parameters.first();
    let values: Vec<Option<i64>> = match spec.values.first() {
        Some(vs) => vs.iter().map(|v| Some(*v)).collect(),
        None => vec![None],
    };
    let n = values.len().max(1);
    let (width, height) = (900u32, 440u32);
    let mut cuts = Cuts::default();
    let title = sweep_title(report, "the first player's wins");
    let title = cuts.fit_title(&title, f64::from(width) - 24.0);
    let column = f64::from(width - RATE_LABEL_AREA - RATE_MARGIN_RIGHT - 12) / n as f64;
    let widest = values
        .iter()
        .map(|v| text_width(&v.map_or("default".into(), |x| x.to_string()), TICK))
        .fold(0.0, f64::max);
    let x_at = thinned(n, widest, column);
    let labelled = column >= text_width("#9999 unplayable", TICK) + 8.0;
    let fair = report
        .rows
        .iter()
        .find_map(row_rate)
        .map_or(0.5, |(_, _, f)| f);
    let svg = svg((width, height), |root| {
        root.fill(&WHITE)?;
        let body = root.titled(&title, font(TITLE))?;
        let (legend, plot) = body.split_vertically(24);
        // The tiers' colours, in a row under the title.
        let mut x = 70;
        for t in [
            crate::sweep::Tier::Playable,
            crate::sweep::Tier::Unbalanced,
            crate::sweep::Tier::Broken,
            crate::sweep::Tier::Unplayable,
        ] {
            legend.draw(&Rectangle::new(
                [(x, 6), (x + 10, 16)],
                tier_colour(t).filled(),
            ))?;
            legend.draw(&Text::new(
                t.name(),
                (x + 14, 11),
                font(TICK).pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
            x += 24 + text_width(t.name(), TICK).ceil() as i32;
        }
        let x_fmt = |x: &f64| match values.get(x.round().max(0.0) as usize) {
            Some(Some(v)) => v.to_string(),
            Some(None) => "default".into(),
            None => String::new(),
        };
        let x_desc = param.map_or("(no parameters)", String::as_str);
        let mut chart = rate_chart(&plot, n, x_at, &x_fmt, x_desc, fair)?;
        let fair_pct = fair * 100.0;
        for (i, v) in values.iter().enumerate() {
            let at: Vec<(&str, i64)> = match (param, v) {
                (Some(p), Some(v)) => vec![(p.as_str(), *v)],
                _ => Vec::new(),
            };
            let x = i as f64;
            match cell(report, &at) {
                Cell::Row(r) => {
                    let Some((rate, ci, _)) = row_rate(r) else {
                        continue;
                    };
                    rate_point(&mut chart, x, rate, ci, tier_colour(r.tier))?;
                    if labelled {
                        chart.draw_series([EmptyElement::at((x, ci[1] * 100.0))
                            + Text::new(
                                format!("#{} {}", r.rank, r.tier.name()),
                                (0, -10),
                                font(TICK).pos(Pos::new(HPos::Center, VPos::Bottom)),
                            )])?;
                    }
                }
                Cell::Skipped => {
                    let text = if labelled { "does not compile" } else { "×" };
                    chart.draw_series([EmptyElement::at((x, fair_pct))
                        + Text::new(
                            text,
                            (0, -10),
                            font(TICK).pos(Pos::new(HPos::Center, VPos::Bottom)),
                        )])?;
                }
                Cell::Missing => {}
            }
        }
        fair_label(root, &chart, n, fair)?;
        Ok(())
    });
    with_tooltips(svg, &cuts)
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
