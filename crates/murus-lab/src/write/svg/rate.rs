//! The chart of the first player's rate, with its 95% interval and the
//! fair rate: the balance check's by level (`balance.svg`), and a
//! one-parameter sweep's by value.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    Area, Cuts, Drawn, FAIR, GRID, LABEL, SEAT, TICK, TITLE, Ticks, font, svg, text_width, ticks,
    with_tooltips,
};
use crate::report::BalanceReport;
use crate::text::grouped;

/// The width of the rate axis's labels, and the room right of the plot
/// (for the fair rate's label).
pub(super) const RATE_LABEL_AREA: u32 = 56;
pub(super) const RATE_MARGIN_RIGHT: u32 = 90;

pub(super) type RateChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<Ticks, Ticks>>;

/// A chart of the first player's rate in percent at `n` places along x
/// (ticks at `x_at`, named by `x_fmt`, the axis called `x_desc`), with its
/// grid and the fair rate `fair` as a dashed line.
pub(super) fn rate_chart<'a, 'b>(
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
pub(super) fn rate_point(
    chart: &mut RateChart,
    x: f64,
    rate: f64,
    ci: [f64; 2],
    colour: RGBColor,
) -> Drawn {
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
pub(super) fn fair_label(root: &Area, chart: &RateChart, n: usize, fair: f64) -> Drawn {
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
        .map_or(2, |l| l.report.provenance.players.len())
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
