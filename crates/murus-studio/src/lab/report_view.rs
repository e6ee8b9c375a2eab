//! The Lab's Report mode: the budget, the start, the stages in a progress
//! bar, the kept reports, and the shown report's sections (each answer in a
//! line, the fairness and the skill ladder as charts, the start drawn like
//! the board) with "Open in browser".

use egui::{RichText, Ui};
use egui_plot::{Line, MarkerShape, Plot, PlotPoints, Points};
use murus_lab::designer::{Budget, DesignerReport, STAGES};

use super::controls::{JobButtons, Pressed};
use super::view::{Asks, Entry, kept_list};
use super::{Chosen, LabAction, LabPanel};
use crate::board;
use crate::layout;

impl LabPanel {
    pub(super) fn report_setup(
        &self,
        ui: &mut Ui,
        chosen: &Result<Chosen, String>,
        asks: &mut Asks,
    ) {
        self.variant_choice(ui, chosen, asks);
        ui.horizontal(|ui| {
            ui.label("Budget");
            for b in Budget::ALL {
                ui.selectable_value(&mut asks.settings.report_budget, b, b.name());
            }
        });
        let m = &self.report;
        let busy = self.busy().map(|b| b.to_string());
        let buttons = JobButtons {
            start: "Make report",
            start_hover: "the designer's report of the chosen variant",
            cancel: "Cancel report",
            resume: Some((
                "Resume report",
                "goes on with the shown report from the stage it stopped at",
            )),
            running: m.is_running(),
            cancelling: m.is_cancelling(),
            resumable: m.shown_resumable(),
            busy: busy.clone(),
            cancel_first: false,
        };
        match buttons.show(ui) {
            Some(Pressed::Start) => asks.push(LabAction::RunReport),
            Some(Pressed::Cancel) => asks.push(LabAction::CancelReport),
            Some(Pressed::Resume) => {
                if let Some(s) = m.shown() {
                    asks.push(LabAction::ResumeReport(s.folder.clone()));
                }
            }
            None => {}
        }
        layout::reserved_height(ui, ui.spacing().interact_size.y, |ui| match m.progress() {
            Some(p) => {
                let text = format!("stage {} of {}: {}", p.index + 1, p.of, p.stage);
                ui.add(egui::ProgressBar::new(m.fraction()).text(text));
            }
            None => {
                ui.weak("no report going on");
            }
        });
        if let Some(p) = m.progress() {
            for (i, stage) in STAGES.iter().enumerate() {
                let state = if i < p.index {
                    "done"
                } else if i == p.index {
                    "under way"
                } else {
                    "to come"
                };
                ui.label(format!("{stage}: {state}"));
            }
        }
        layout::reserved(ui, 2.0, |ui| {
            if let Some(msg) = m.feedback().current() {
                msg.show(ui);
            }
        });
        ui.separator();
        ui.heading("Reports");
        let entries: Vec<Entry<'_>> = m
            .history()
            .iter()
            .map(|r| Entry {
                summary: r.summary(),
                folder: &r.folder,
                selected: m.shown().is_some_and(|s| s.folder == r.folder),
            })
            .collect();
        if let Some(f) = kept_list(
            ui,
            "lab-report-history",
            &entries,
            busy.as_deref(),
            "no reports kept yet",
        ) {
            asks.push(LabAction::OpenReport(f.to_path_buf()));
        }
    }

    pub(super) fn report_results(&self, ui: &mut Ui, asks: &mut Asks) {
        let Some(shown) = self.report.shown() else {
            ui.weak("Make a report, or open a kept one: its sections show here.");
            return;
        };
        let Some(r) = &shown.report else {
            ui.label(format!(
                "The report of {} is being made (or was stopped): each section shows as its stage ends.",
                shown.variant.name()
            ));
            for (title, answer) in self.report.sections() {
                ui.label(RichText::new(title).strong());
                ui.label(answer);
            }
            return;
        };
        egui::ScrollArea::vertical()
            .id_salt("lab-report-sections")
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.heading(format!("{}: the designer's report", r.rules.title));
                    if ui
                        .add_enabled(
                            self.report.page().is_some(),
                            egui::Button::new("Open in browser"),
                        )
                        .clicked()
                    {
                        asks.push(LabAction::OpenReportPage);
                    }
                });
                ui.weak(shown.folder.display().to_string());
                for (title, answer) in r.answers() {
                    ui.label(RichText::new(title).strong());
                    ui.label(answer);
                }
                ui.separator();
                ui.label(RichText::new("The start").strong());
                let v = &shown.variant;
                ui.allocate_ui(egui::vec2(ui.available_width().min(360.0), 260.0), |ui| {
                    board::preview(ui, "report-start", v, &v.start(), 30.0);
                });
                fairness_plot(ui, r);
                ladder_plot(ui, r);
            });
    }
}

/// The first player's rate by level, with its interval.
fn fairness_plot(ui: &mut Ui, r: &DesignerReport) {
    let levels = &r.fairness.balance.levels;
    ui.label(RichText::new("First player's wins by level (95% interval)").strong());
    Plot::new("report-fairness")
        .height(160.0)
        .include_y(0.0)
        .include_y(1.0)
        .allow_scroll(false)
        .allow_drag(false)
        .show(ui, |plot| {
            let mut points = Vec::new();
            for (i, l) in levels.iter().enumerate() {
                let f = &l.report.first_player_advantage;
                let x = i as f64;
                points.push([x, f.rate]);
                plot.line(
                    Line::new(
                        format!("{} interval", l.level),
                        PlotPoints::from(vec![[x, f.ci95[0]], [x, f.ci95[1]]]),
                    )
                    .width(2.0),
                );
            }
            plot.points(
                Points::new("first player", PlotPoints::from(points))
                    .shape(MarkerShape::Circle)
                    .radius(4.0),
            );
            plot.line(Line::new(
                "fair",
                PlotPoints::from(vec![[-0.5, 0.5], [levels.len() as f64 - 0.5, 0.5]]),
            ));
        });
}

/// The ladder's matches: the upper bot's score, rung by rung.
fn ladder_plot(ui: &mut Ui, r: &DesignerReport) {
    let Some(l) = &r.ladder else {
        return;
    };
    ui.label(RichText::new("Skill ladder: each match's score").strong());
    Plot::new("report-ladder")
        .height(140.0)
        .include_y(0.0)
        .include_y(1.0)
        .allow_scroll(false)
        .allow_drag(false)
        .show(ui, |plot| {
            let points: Vec<[f64; 2]> = l
                .ladder
                .steps
                .iter()
                .enumerate()
                .map(|(i, s)| [i as f64, s.gap.score])
                .collect();
            plot.line(Line::new("score", PlotPoints::from(points)));
            plot.line(Line::new(
                "threshold",
                PlotPoints::from(vec![
                    [0.0, l.ladder.threshold],
                    [l.ladder.steps.len().max(1) as f64 - 1.0, l.ladder.threshold],
                ]),
            ));
        });
}
