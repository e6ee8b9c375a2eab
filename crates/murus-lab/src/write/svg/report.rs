//! `report.svg`: a run's outcomes by seat and colour, its game lengths,
//! and a strip of its game-quality metrics.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    Area, CAPTION, COLOUR, Cuts, DRAW, Drawn, GRID, LABEL, LENGTH, SEAT, TICK, TITLE, font, svg,
    text_width, ticks, with_tooltips,
};
use crate::metrics::Metrics;
use crate::report::Report;
use crate::text::grouped;

/// The self-play report's chart (`report.svg`, see [`crate::write::svg`]):
/// the share of games each seat and each colour won, and the draws, with
/// 95% intervals; and the game-length histogram. Both charts have axis
/// titles; bars are rows with their labels beside them, so no two labels
/// overlap however many seats and however long the bots' names (a label
/// past 28 characters, or too long for its column, is cut with `…`, whole
/// in its tooltip).
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
    rows.extend(report.provenance.players.iter().filter_map(|c| {
        let r = report.by_colour.get(&c.to_string())?;
        Some((format!("colour {c}"), COLOUR, r.rate, r.ci95))
    }));
    rows.push(("draws".into(), DRAW, report.draws.rate, report.draws.ci95));

    let width = 900u32;
    let height = 360u32.max(150 + 24 * rows.len() as u32);
    let mut cuts = Cuts::default();
    let title = format!(
        "{} — {} games{}: {}",
        report.provenance.variant.name,
        report.games,
        if report.interrupted {
            " (interrupted)"
        } else {
            ""
        },
        report.provenance.bots.join(" vs ")
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
fn quality_items(m: &Metrics) -> Vec<String> {
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
