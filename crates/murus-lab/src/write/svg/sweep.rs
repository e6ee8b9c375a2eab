//! `sweep.svg`: a heat map of the first player's rate over two
//! parameters, or its rate by value over one.

use std::collections::BTreeMap;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::rate::{RATE_LABEL_AREA, RATE_MARGIN_RIGHT, fair_label, rate_chart, rate_point};
use super::{
    CAPTION, COLOUR, Cuts, FAIR, LABEL, SEAT, TICK, TITLE, fit, font, svg, text_width, ticks,
    truncate, with_tooltips,
};
use crate::report::{SweepReport, SweepRow, Tier, strongest};

/// Each tier's colour in the sweep's bar chart.
fn tier_colour(t: Tier) -> RGBColor {
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
    Row(&'a SweepRow),
    Skipped,
    Missing,
}

/// The combination of `report` with these values (each named parameter
/// at its value).
fn cell<'a>(report: &'a SweepReport, at: &[(&str, i64)]) -> Cell<'a> {
    let fits = |v: &BTreeMap<String, i64>| at.iter().all(|(n, x)| v.get(*n) == Some(x));
    if let Some(r) = report.rows.iter().find(|r| fits(&r.values)) {
        Cell::Row(r)
    } else if report.skipped.iter().any(|s| fits(&s.values)) {
        Cell::Skipped
    } else {
        Cell::Missing
    }
}

/// The first player's rate and the fair rate at a row's strongest level.
fn row_rate(r: &SweepRow) -> Option<(f64, [f64; 2], f64)> {
    let l = strongest(&r.balance)?;
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
pub fn sweep_svg(report: &SweepReport) -> String {
    if report.spec.parameters.len() >= 2 {
        sweep_heat_map(report)
    } else {
        sweep_bars(report)
    }
}

fn sweep_title(report: &SweepReport, what: &str) -> String {
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

fn sweep_heat_map(report: &SweepReport) -> String {
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

fn sweep_bars(report: &SweepReport) -> String {
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
            Tier::Playable,
            Tier::Unbalanced,
            Tier::Broken,
            Tier::Unplayable,
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
