//! The Lab's "Balance" and "Compare variants" views: draw the models and
//! turn clicks into their actions. Messages, errors and progress have
//! their room reserved, as in the rest of the panel, and settings that do
//! not apply are disabled rather than hidden, so nothing moves under the
//! pointer.

use egui::{Color32, RichText, Ui};
use egui_plot::{AxisHints, GridMark, HLine, Line, LineStyle, MarkerShape, PlotPoints, Points};
use murus_lab::balance::{BalanceReport, LevelResult, level_names};
use murus_lab::report::{grouped, percent};

use super::balance::{BalanceSaved, LevelRow, metric_rows, rate_text, skill_rows};
use super::checks::PastCheck;
use super::compare::{Column, ColumnState};
use super::controls::{JobButtons, Pressed};
use super::view::{
    Asks, CHART_HEIGHT, Entry, FIELD_W, hover_note, inline_error, kept_list, resume_banner,
    text_field, title_rows,
};
use super::{BalanceModel, Chosen, LabAction, LabPanel};
use crate::layout::{self, still_plot};
use crate::theme;

/// What a cell of the comparison is as wide as, at most, before it wraps.
const CELL_W: f32 = 240.0;

/// A labelled number; whether it changed.
fn number<T: egui::emath::Numeric>(
    ui: &mut Ui,
    label: &str,
    value: &mut T,
    range: std::ops::RangeInclusive<T>,
    enabled: bool,
    hover: &str,
) -> bool {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        let r = ui
            .add_enabled(enabled, egui::DragValue::new(value).range(range))
            .labelled_by(l.id);
        let r = if hover.is_empty() {
            r
        } else {
            r.on_hover_text(hover)
        };
        r.changed()
    })
    .inner
}

/// The balance settings (Balance and Compare share them). Both stopping
/// rules stay on screen, the one not in force disabled.
fn balance_settings(ui: &mut Ui, b: &mut BalanceSaved) {
    ui.label("Levels");
    ui.horizontal_wrapped(|ui| {
        for name in level_names() {
            let mut on = b.has_level(name);
            if ui.checkbox(&mut on, name).changed() {
                b.set_level(name, on);
            }
        }
    });
    ui.checkbox(&mut b.fixed_games, "Fixed number of games")
        .on_hover_text("off: each level plays until the first player's rate is known to ± the precision, or its edge is clear");
    let fixed = b.fixed_games;
    number(ui, "Games a level", &mut b.games, 1..=10_000_000, fixed, "");
    number(
        ui,
        "Precision ± points",
        &mut b.precision,
        0.5..=50.0,
        !fixed,
        "the first player's 95% interval is at most this many points wide either way",
    );
    number(
        ui,
        "At most games a level",
        &mut b.max_games,
        1..=10_000_000,
        !fixed,
        "",
    );
    number(
        ui,
        "Opening plies",
        &mut b.openings,
        0..=40,
        true,
        "random plies that open each round of games, so that bots play varied games",
    );
    number(
        ui,
        "Skill games",
        &mut b.skill_games,
        0..=100_000,
        true,
        "games of each match between adjacent levels: the skill trace (0: none)",
    );
    number(ui, "Seed", &mut b.seed, 0..=u64::MAX, true, "");
    inline_error(ui, b.error());
}

/// A progress bar with its text, or `idle`, in a row of its own.
fn progress_row(ui: &mut Ui, status: Option<super::balance::CheckStatus>, idle: &str) {
    layout::reserved_height(ui, ui.spacing().interact_size.y, |ui| match status {
        Some(s) => {
            ui.add(egui::ProgressBar::new(s.fraction).text(s.text));
        }
        None => {
            ui.weak(idle);
        }
    });
}

/// A message in two reserved rows.
fn message_rows(ui: &mut Ui, feedback: &crate::Feedback) {
    layout::reserved(ui, 2.0, |ui| {
        if let Some(msg) = feedback.current() {
            msg.show(ui);
        }
    });
}

impl LabPanel {
    pub(super) fn balance_setup(
        &self,
        ui: &mut Ui,
        chosen: &Result<Chosen, String>,
        asks: &mut Asks,
    ) {
        // The chosen variant's error is shown by the choice itself.
        self.variant_choice(ui, chosen, asks);
        balance_settings(ui, &mut asks.settings.balance);
        let busy = self.busy().map(|b| b.to_string());
        let buttons = JobButtons {
            start: "Run balance check",
            start_hover: "plays each level ticked until its figures are known, kept in the runs folder",
            cancel: "Cancel",
            resume: Some(("Resume check", "play the shown check's missing games")),
            running: self.balance.is_running(),
            cancelling: self.balance.is_cancelling(),
            resumable: self.balance.shown_resumable(),
            busy: busy.clone(),
            cancel_first: false,
        };
        match buttons.show(ui) {
            Some(Pressed::Start) => asks.push(LabAction::RunCheck),
            Some(Pressed::Cancel) => asks.push(LabAction::CancelCheck),
            Some(Pressed::Resume) => {
                if let Some(f) = self.balance.shown_folder() {
                    asks.push(LabAction::ResumeCheck(f.to_path_buf()));
                }
            }
            None => {}
        }
        progress_row(ui, self.balance.status(), "no check going on");
        message_rows(ui, self.balance.feedback());
        ui.separator();
        ui.heading("Balance checks");
        check_history(&self.balance, ui, asks);
    }

    pub(super) fn compare_setup(&self, ui: &mut Ui, asks: &mut Asks) {
        let m = &self.model;
        ui.label(RichText::new("Rules files").strong());
        let s = &mut asks.settings;
        text_field(ui, "Variants folder", &mut s.variants_dir, FIELD_W);
        // The folder's files, and any chosen elsewhere (so that what is
        // compared is always in sight).
        let mut shown: Vec<std::path::PathBuf> = m.variant_files().to_vec();
        for f in &s.compare.files {
            let p = std::path::PathBuf::from(f);
            if !shown.contains(&p) {
                shown.push(p);
            }
        }
        if shown.is_empty() {
            ui.weak("no .mg files in the folder");
        }
        egui::ScrollArea::vertical()
            .id_salt("lab-compare-files")
            .max_height(180.0)
            .show(ui, |ui| {
                for f in &shown {
                    let in_folder = m.variant_files().contains(f);
                    let name = if in_folder {
                        f.file_name()
                            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                    } else {
                        f.display().to_string()
                    };
                    let mut on = s.compare.has(f);
                    if ui.checkbox(&mut on, name).changed() {
                        s.compare.set(f, on);
                    }
                }
            });
        ui.separator();
        ui.label(RichText::new("Balance settings").strong());
        balance_settings(ui, &mut s.balance);
        let busy = self.busy().map(|b| b.to_string());
        let buttons = JobButtons {
            start: "Compare",
            start_hover: "balance-check every file chosen, reusing checks of the same rules and settings",
            cancel: "Cancel",
            resume: None,
            running: self.compare.is_running(),
            cancelling: self.compare.is_cancelling(),
            resumable: false,
            busy: busy.clone(),
            cancel_first: false,
        };
        match buttons.show(ui) {
            Some(Pressed::Start) => asks.push(LabAction::Compare),
            Some(Pressed::Cancel) => asks.push(LabAction::CancelCompare),
            _ => {}
        }
        progress_row(ui, self.compare.status(), "no check going on");
        message_rows(ui, self.compare.feedback());
        ui.separator();
        ui.heading("Sweep results");
        text_field(ui, "Sweep file", &mut asks.settings.compare.sweep, FIELD_W);
        if ui
            .add_enabled(!self.compare.is_running(), egui::Button::new("Load sweep"))
            .on_hover_text("the sweep.json that murus sweep writes")
            .clicked()
        {
            asks.push(LabAction::LoadSweep);
        }
    }

    pub(super) fn balance_results(&self, ui: &mut Ui, asks: &mut Asks) {
        check_offer_banner(&self.balance, ui, asks);
        let b = &self.balance;
        egui::ScrollArea::vertical()
            .id_salt("lab-balance-scroll")
            .show(ui, |ui| {
                let shown = b.shown().map_or("", PastCheck::variant);
                let Some(report) = b.report() else {
                    let (title, status) = if b.is_running() {
                        (
                            format!("Balance check of {shown}"),
                            "The table, the chart and the verdict come when it ends.",
                        )
                    } else if b.shown_folder().is_some() {
                        (
                            format!("Balance check of {shown}"),
                            "This check never ended: Resume check plays its missing games.",
                        )
                    } else {
                        (
                            String::new(),
                            "Run a balance check to see whether the variant is fair at every level of play.",
                        )
                    };
                    title_rows(ui, &title, status);
                    return;
                };
                let settings = b
                    .shown()
                    .map_or_else(|| report.stopping.clone(), PastCheck::describe);
                let title = format!(
                    "{}: {}, {} opening plies, seed {}",
                    report.variant.name, settings, report.openings, report.seed,
                );
                let status = if b.is_running() {
                    "(going on: the figures of the games played before)"
                } else if report.interrupted {
                    "(interrupted)"
                } else {
                    ""
                };
                title_rows(ui, &title, status);
                let rows = b.rows();
                let fair = report
                    .levels
                    .first()
                    .map_or(0.5, |l| l.report.first_player_advantage.fair);
                rate_chart(ui, &rows, fair, CHART_HEIGHT);
                ui.separator();
                level_table(ui, &rows);
                let skill = skill_rows(report);
                if !skill.is_empty() {
                    ui.add_space(6.0);
                    ui.label(RichText::new("Skill trace").strong());
                    egui::Grid::new("balance-skill").striped(true).show(ui, |ui| {
                        for h in ["Step", "Match", "Elo [95%]"] {
                            ui.label(RichText::new(h).strong());
                        }
                        ui.end_row();
                        for (step, games, elo) in skill {
                            ui.label(step);
                            ui.label(games);
                            ui.label(elo);
                            ui.end_row();
                        }
                    });
                }
                ui.add_space(6.0);
                ui.label(RichText::new("Verdict").strong());
                for s in &report.verdict {
                    ui.add(egui::Label::new(s.as_str()).wrap());
                }
                metrics_section(ui, report);
            });
    }

    pub(super) fn compare_results(&self, ui: &mut Ui) {
        let c = &self.compare;
        if c.columns().is_empty() {
            ui.weak(
                "Choose two or more rules files and press Compare, or load a sweep's results \
                 (sweep.json, written by murus sweep).",
            );
            return;
        }
        ui.heading(c.title());
        layout::reserved(ui, 1.0, |ui| {
            if let Some(t) = c.best_text() {
                ui.label(RichText::new(t).strong().color(theme::success(ui)));
            }
        });
        let best = c.best();
        let levels = c.levels();
        let good = theme::success(ui);
        egui::ScrollArea::both()
            .id_salt("lab-compare-scroll")
            .show(ui, |ui| {
                egui::Grid::new("lab-compare")
                    .striped(true)
                    .min_col_width(90.0)
                    .show(ui, |ui| {
                        let cols = c.columns();
                        let ink = |i: usize| (best == Some(i)).then_some(good);
                        ui.label("");
                        for (i, col) in cols.iter().enumerate() {
                            let text = if best == Some(i) {
                                format!("{} (best)", col.label)
                            } else {
                                col.label.clone()
                            };
                            let mut t = RichText::new(text).strong();
                            if let Some(g) = ink(i) {
                                t = t.color(g);
                            }
                            ui.label(t);
                        }
                        ui.end_row();
                        let row = |ui: &mut Ui, name: &str, cell: &dyn Fn(&Column) -> String| {
                            ui.label(name);
                            for (i, col) in cols.iter().enumerate() {
                                let mut t = RichText::new(cell(col));
                                if let Some(g) = ink(i) {
                                    t = t.color(g);
                                }
                                ui.vertical(|ui| {
                                    ui.set_max_width(CELL_W);
                                    ui.add(egui::Label::new(t).wrap());
                                });
                            }
                            ui.end_row();
                        };
                        row(ui, "Source", &|col| match &col.state {
                            ColumnState::Failed(e) => format!("not checked: {e}"),
                            _ => col.source_text(),
                        });
                        row(ui, "Rules", &|col| {
                            col.report.as_ref().map_or(String::new(), |r| {
                                let sha: String = r.variant.source_sha256.chars().take(8).collect();
                                format!("{} ({sha})", r.variant.name)
                            })
                        });
                        row(ui, "Rank", &|col| {
                            col.ranking.as_ref().map_or_else(
                                || "not ranked".into(),
                                |r| format!("{}: {}", r.rank, r.tier.name()),
                            )
                        });
                        row(ui, "Fitness", &|col| {
                            col.ranking
                                .as_ref()
                                .map_or(String::new(), |r| format!("{:.1}", r.fitness))
                        });
                        row(ui, "Flags", &|col| {
                            col.ranking
                                .as_ref()
                                .map_or(String::new(), |r| r.flags.join("\n"))
                        });
                        row(ui, "Largest edge", &|col| {
                            col.edge()
                                .map_or(String::new(), |e| format!("{e:.1} points"))
                        });
                        for level in &levels {
                            row(ui, &format!("First player, {level}"), &|col| {
                                level_of(col, level).map_or(String::new(), |l| {
                                    let f = &l.report.first_player_advantage;
                                    rate_text(f.rate, f.ci95)
                                })
                            });
                            row(ui, &format!("Draws, {level}"), &|col| {
                                level_of(col, level)
                                    .map_or(String::new(), |l| percent(l.report.draws.rate))
                            });
                            row(ui, &format!("Length, {level}"), &|col| {
                                level_of(col, level).map_or(String::new(), |l| {
                                    format!("{:.1} plies", l.report.length.mean)
                                })
                            });
                        }
                        row(ui, "Skill trace", &|col| {
                            col.report.as_ref().map_or(String::new(), |r| {
                                skill_rows(r)
                                    .into_iter()
                                    .map(|(step, _, elo)| format!("{step}: {elo}"))
                                    .collect::<Vec<_>>()
                                    .join("\n")
                            })
                        });
                        row(ui, "Verdict", &|col| {
                            col.report
                                .as_ref()
                                .map_or(String::new(), |r| r.verdict.join("\n"))
                        });
                    });
            });
    }
}

/// The figures of `col` at `level`, if it played that level.
fn level_of<'a>(col: &'a Column, level: &str) -> Option<&'a LevelResult> {
    col.report
        .as_ref()
        .and_then(|r| r.levels.iter().find(|l| l.level == level))
}

/// The kept checks; a click shows one.
fn check_history(b: &BalanceModel, ui: &mut Ui, asks: &mut Asks) {
    let busy = b.busy().map(|b| b.to_string());
    let entries: Vec<Entry<'_>> = b
        .history()
        .iter()
        .map(|c| Entry {
            summary: c.summary(),
            folder: &c.folder,
            selected: b.shown_folder() == Some(c.folder.as_path()),
        })
        .collect();
    let clicked = kept_list(
        ui,
        "lab-check-history",
        &entries,
        busy.as_deref(),
        "no checks kept yet",
    );
    if let Some(f) = clicked {
        asks.push(LabAction::OpenCheck(f.to_path_buf()));
    }
}

/// The offer to resume a check that a crash or a restart cut short.
fn check_offer_banner(b: &BalanceModel, ui: &mut Ui, asks: &mut Asks) {
    let Some(o): Option<&PastCheck> = b.offer() else {
        return;
    };
    let text = format!(
        "A balance check of {} ({}) never ended.",
        o.variant(),
        o.describe()
    );
    match resume_banner(
        ui,
        text,
        "Resume",
        "keep its games in the history, and stop asking",
    ) {
        Some(true) => asks.push(LabAction::ResumeCheckOffer),
        Some(false) => asks.push(LabAction::DiscardCheckOffer),
        None => {}
    }
}

/// The table of levels: the first player's rate with its interval, each
/// colour's, draws, ply-cap stops, mean length, why the level stopped and
/// how its games end.
fn level_table(ui: &mut Ui, rows: &[LevelRow]) {
    let colours: Vec<String> = rows
        .first()
        .map(|r| r.colours.iter().map(|(n, _)| n.clone()).collect())
        .unwrap_or_default();
    egui::ScrollArea::horizontal()
        .id_salt("balance-levels-scroll")
        .show(ui, |ui| {
            egui::Grid::new("balance-levels")
                .striped(true)
                .show(ui, |ui| {
                    let mut header = vec![
                        "Level".to_string(),
                        "Games".into(),
                        "First player [95%]".into(),
                    ];
                    header.extend(colours.iter().cloned());
                    header.extend(
                        ["Draws", "Ply cap", "Mean plies", "Stopped", "Endings"].map(String::from),
                    );
                    for h in header {
                        ui.label(RichText::new(h).strong());
                    }
                    ui.end_row();
                    for r in rows {
                        ui.label(&r.level);
                        ui.label(grouped(r.games));
                        ui.label(&r.first_player);
                        for (_, c) in &r.colours {
                            ui.label(c);
                        }
                        ui.label(&r.draws);
                        ui.label(&r.ply_cap);
                        ui.label(&r.length);
                        ui.label(&r.stopped);
                        ui.label(&r.endings);
                        ui.end_row();
                    }
                });
        });
}

/// The first player's rate against level, weakest first, with 95%
/// whiskers and the fair rate as a dashed line.
fn rate_chart(ui: &mut Ui, rows: &[LevelRow], fair: f64, height: f32) {
    let n = rows.len();
    let names: Vec<String> = rows.iter().map(|r| r.level.clone()).collect();
    let level_at = move |x: f64| {
        let k = x.round();
        ((x - k).abs() < 0.3 && k >= 0.0 && (k as usize) < n).then_some(k as usize)
    };
    let ink = ui.visuals().text_color();
    let line = theme::series(ui, 0);
    let weak: Color32 = ui.visuals().weak_text_color();
    // No vertical grid lines: they would hide the whiskers.
    let plot = still_plot("balance-rate", height)
        .show_grid([false, true])
        .include_x(-0.5)
        .include_x(n as f64 - 0.5)
        .include_y(0.0)
        .include_y(1.0)
        .x_grid_spacer(move |_| {
            (0..n)
                .map(|i| GridMark {
                    value: i as f64,
                    step_size: 1.0,
                })
                .collect()
        })
        .y_grid_spacer(|_| {
            [0.0, 0.25, 0.5, 0.75, 1.0]
                .map(|value| GridMark {
                    value,
                    step_size: 0.25,
                })
                .to_vec()
        })
        .custom_x_axes(vec![
            AxisHints::new_x()
                .label("Level")
                .formatter(move |m, _| {
                    level_at(m.value).map_or(String::new(), |i| names[i].clone())
                })
                .label_spacing(20.0..=30.0),
        ])
        .custom_y_axes(vec![
            AxisHints::new_y()
                .label("First player's win rate")
                .formatter(|m, _| format!("{:.0}%", m.value * 100.0)),
        ]);
    let shown = plot.show(ui, |p| {
        p.hline(
            HLine::new("fair rate", fair)
                .color(weak)
                .width(1.5)
                .style(LineStyle::dashed_loose())
                .allow_hover(false),
        );
        let points: Vec<[f64; 2]> = rows
            .iter()
            .enumerate()
            .map(|(i, r)| [i as f64, r.rate])
            .collect();
        p.line(
            Line::new("first player", PlotPoints::from(points.clone()))
                .color(line)
                .width(1.5)
                .allow_hover(false),
        );
        for (i, r) in rows.iter().enumerate() {
            let (x, [lo, hi]) = (i as f64, r.ci95);
            let whisker = vec![
                [x - 0.08, lo],
                [x + 0.08, lo],
                [x, lo],
                [x, hi],
                [x - 0.08, hi],
                [x + 0.08, hi],
            ];
            p.line(
                Line::new("95% interval", PlotPoints::from(whisker))
                    .color(ink)
                    .width(2.0)
                    .allow_hover(false),
            );
        }
        p.points(
            Points::new("first player's rate", PlotPoints::from(points))
                .shape(MarkerShape::Circle)
                .radius(4.0)
                .color(line)
                .allow_hover(false),
        );
    });
    shown.response.widget_info(|| {
        egui::WidgetInfo::labeled(
            egui::Role::Image,
            true,
            format!(
                "First player's win rate by level: {}",
                rows.iter()
                    .map(|r| format!("{} {}", r.level, percent(r.rate)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    });
    if let Some(at) = shown.response.hover_pos()
        && let Some(i) = level_at(shown.transform.value_from_position(at).x)
    {
        let r = &rows[i];
        let text = format!(
            "{}: the first player wins {} (fair {})",
            r.level,
            r.first_player,
            percent(fair)
        );
        hover_note(ui, *shown.transform.frame(), at, text);
    }
}

/// The game-quality metrics of each level ([`murus_lab::metrics`]): a row
/// per metric, a column per level.
fn metrics_section(ui: &mut Ui, report: &BalanceReport) {
    let rows = metric_rows(report);
    if rows.is_empty() {
        return;
    }
    ui.add_space(6.0);
    ui.label(RichText::new("Game quality").strong())
        .on_hover_text("each metric's formula and source: murus-lab's metrics module");
    // Scrolled sideways where its levels do not fit, like the levels'
    // table: never cut off.
    egui::ScrollArea::horizontal()
        .id_salt("balance-metrics-scroll")
        .show(ui, |ui| {
            egui::Grid::new("balance-metrics")
                .striped(true)
                .show(ui, |ui| {
                    ui.label(RichText::new("Metric").strong());
                    for l in &report.levels {
                        ui.label(RichText::new(&l.level).strong());
                    }
                    ui.end_row();
                    for (name, figures) in rows {
                        ui.label(name);
                        for f in figures {
                            ui.label(f);
                        }
                        ui.end_row();
                    }
                });
        });
}
