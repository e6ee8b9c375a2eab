//! The Lab panel's view: draws the model and turns clicks into its actions.
//! Every message, error and progress line has its room reserved, so nothing
//! that comes and goes moves the widgets below it.

use std::path::Path;

use egui::{Color32, Pos2, Rect, RichText, Ui, Vec2};
use egui_plot::{AxisHints, Bar, BarChart, GridInput, GridMark, Line, PlotPoints};

use crate::layout::still_plot;
use murus_engine::Variant;

use super::controls::{JobButtons, Pressed};
use super::export::ExportAsk;
use super::model::{RowKind, WinRow};
use super::settings::{FROM_RULES, LabMode, LabSaved, Source};
use super::{Chosen, LabAction, LabModel, LabPanel};
use crate::training::{TRAINED_LABEL, TrainedBots};
use crate::{Command, board, layout, theme};
use murus_lab::report::grouped;

/// Height of both charts, at least.
pub(super) const CHART_HEIGHT: f32 = 230.0;

/// Width of the setup's text fields.
pub(super) const FIELD_W: f32 = 150.0;

/// An axis mark's count, `12 345` (nothing below 0: the axes start there).
fn count(x: f64) -> String {
    if x < -0.5 {
        String::new()
    } else {
        grouped(x.round().max(0.0) as u64)
    }
}

/// A round step (1, 2 or 5 times a power of ten, at least 1) that cuts
/// `span` into about `parts` parts.
fn nice_step(span: f64, parts: f64) -> f64 {
    let raw = span / parts;
    if raw.is_nan() || raw <= 1.0 {
        return 1.0;
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    let f = raw / magnitude;
    let nice = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// Three to seven grid marks at round whole numbers: labels that stay
/// readable however large the counts grow.
fn round_marks(input: GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    let step = nice_step(hi - lo, 6.0);
    let (first, last) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
    (first.max(0)..=last)
        .map(|k| GridMark {
            value: k as f64 * step,
            step_size: step,
        })
        .collect()
}

/// Paints `text` beside the pointer `at`, kept inside the plot's `frame`.
pub(super) fn hover_note(ui: &Ui, frame: Rect, at: Pos2, text: String) {
    let painter = ui.painter_at(frame);
    let font = egui::TextStyle::Body.resolve(ui.style());
    let ink = ui.visuals().text_color();
    let pad = Vec2::splat(4.0);
    let galley = painter.layout(text, font, ink, (frame.width() - 4.0 * pad.x).max(40.0));
    let size = galley.size() + 2.0 * pad;
    let mut min = at + Vec2::new(12.0, -size.y - 8.0);
    min.x = min.x.min(frame.max.x - size.x - 2.0).max(frame.min.x + 2.0);
    min.y = min.y.max(frame.min.y + 2.0).min(frame.max.y - size.y - 2.0);
    let rect = Rect::from_min_size(min, size);
    painter.rect(
        rect,
        3.0,
        ui.visuals().window_fill,
        ui.visuals().window_stroke,
        egui::StrokeKind::Inside,
    );
    painter.galley(min + pad, galley, ink);
}

/// The win-rate chart: a bar per seat, per colour and for draws, named on
/// the vertical axis, with its 95% interval.
fn win_chart(ui: &mut Ui, rows: &[WinRow], variant: Option<&Variant>, height: f32) {
    let n = rows.len();
    let colours = variant
        .map(|v| board::player_colours(v.rules()))
        .unwrap_or_default();
    let fills: Vec<Color32> = rows
        .iter()
        .map(|r| match r.kind {
            RowKind::Seat(s) => theme::series(ui, s),
            RowKind::Colour(p) => colours
                .get(p)
                .copied()
                .unwrap_or_else(|| theme::series(ui, p)),
            RowKind::Draws => ui.visuals().weak_text_color(),
        })
        .collect();
    let ink = ui.visuals().text_color();
    // Row i from the top.
    let y_of = move |i: usize| (n - 1 - i) as f64;
    let row_at = move |y: f64| {
        let k = y.round();
        ((y - k).abs() < 0.45 && k >= 0.0 && (k as usize) < n).then(|| n - 1 - k as usize)
    };
    let names: Vec<String> = rows.iter().map(|r| r.label.clone()).collect();
    let plot = still_plot("lab-winrates", height)
        .include_x(0.0)
        .include_x(1.0)
        .include_y(-0.5)
        .include_y(n as f64 - 0.5)
        .x_grid_spacer(|_| {
            [0.0, 0.25, 0.5, 0.75, 1.0]
                .map(|value| GridMark {
                    value,
                    step_size: 0.25,
                })
                .to_vec()
        })
        .y_grid_spacer(move |_| {
            (0..n)
                .map(|i| GridMark {
                    value: i as f64,
                    step_size: 1.0,
                })
                .collect()
        })
        .custom_x_axes(vec![
            AxisHints::new_x()
                .label("Win rate")
                .formatter(|m, _| format!("{:.0}%", m.value * 100.0))
                .label_spacing(20.0..=30.0),
        ])
        .custom_y_axes(vec![AxisHints::new_y().label("Result").formatter(
            move |m, _| row_at(m.value).map_or(String::new(), |i| names[i].clone()),
        )]);
    let shown = plot.show(ui, |p| {
        let bars = rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                Bar::new(y_of(i), r.rate)
                    .width(0.6)
                    .fill(fills[i])
                    .name(&r.label)
            })
            .collect();
        p.bar_chart(
            BarChart::new("win rate", bars)
                .horizontal()
                .allow_hover(false),
        );
        for (i, r) in rows.iter().enumerate() {
            let (y, [lo, hi]) = (y_of(i), r.ci95);
            let whiskers = vec![
                [lo, y - 0.12],
                [lo, y + 0.12],
                [lo, y],
                [hi, y],
                [hi, y - 0.12],
                [hi, y + 0.12],
            ];
            p.line(
                Line::new("95% interval", PlotPoints::from(whiskers))
                    .color(ink)
                    .width(1.5)
                    .allow_hover(false),
            );
        }
    });
    if let Some(at) = shown.response.hover_pos()
        && let Some(i) = row_at(shown.transform.value_from_position(at).y)
    {
        let r = &rows[i];
        let text = format!(
            "{}: {} (95% interval)",
            r.label,
            murus_lab::text::percent_interval(r.rate, r.ci95)
        );
        hover_note(ui, *shown.transform.frame(), at, text);
    }
}

/// The game-length histogram, with round axis marks and a hover note that
/// stays inside the plot.
fn length_chart(ui: &mut Ui, report: &murus_lab::Report, height: f32) {
    let bins = &report.length.histogram;
    let fill = theme::series(ui, 0);
    let plot = still_plot("lab-lengths", height)
        .include_x(0.0)
        .include_y(0.0)
        .x_grid_spacer(round_marks)
        .y_grid_spacer(round_marks)
        .custom_x_axes(vec![
            AxisHints::new_x()
                .label("Length (plies)")
                .formatter(|m, _| count(m.value))
                .label_spacing(20.0..=30.0),
        ])
        .custom_y_axes(vec![
            AxisHints::new_y()
                .label("Number of games")
                .formatter(|m, _| count(m.value)),
        ]);
    let shown = plot.show(ui, |p| {
        let bars = bins
            .iter()
            .map(|b| {
                let w = f64::from(b.to.saturating_sub(b.from) + 1);
                Bar::new(f64::from(b.from) + w / 2.0, b.count as f64)
                    .width(w * 0.95)
                    .fill(fill)
            })
            .collect();
        p.bar_chart(BarChart::new("games", bars).allow_hover(false));
    });
    if let Some(at) = shown.response.hover_pos() {
        let x = shown.transform.value_from_position(at).x;
        if let Some(b) = bins
            .iter()
            .find(|b| x >= f64::from(b.from) && x < f64::from(b.to) + 1.0)
        {
            let text = format!("{}–{} plies: {} games", b.from, b.to, grouped(b.count));
            hover_note(ui, *shown.transform.frame(), at, text);
        }
    }
}

/// A title in a room two heading rows high and a status in a row of its
/// own, whatever they say: a title that grows (a resumed check's) moves
/// nothing below it. A title too long for its room reads whole on hover.
pub(super) fn title_rows(ui: &mut Ui, title: &str, status: &str) {
    let row = ui.text_style_height(&egui::TextStyle::Heading);
    layout::reserved_height(ui, 2.0 * row + ui.spacing().item_spacing.y, |ui| {
        if !title.is_empty() {
            ui.add(egui::Label::new(RichText::new(title).heading()).wrap())
                .on_hover_text(title);
        }
    });
    layout::reserved(ui, 1.0, |ui| {
        if !status.is_empty() {
            ui.add(egui::Label::new(RichText::new(status).weak()).truncate());
        }
    });
}

/// `text` cut to `chars` characters, `…` for the rest.
fn cut_short(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        text.to_string()
    } else {
        text.chars().take(chars - 1).chain(['…']).collect()
    }
}

/// An error in a reserved row: one line, cut short with the whole text on
/// hover.
pub(super) fn inline_error(ui: &mut Ui, error: Option<String>) {
    layout::reserved(ui, 1.0, |ui| {
        if let Some(e) = error {
            ui.add(egui::Label::new(RichText::new(&e).color(theme::error(ui))).truncate())
                .on_hover_text(e);
        }
    });
}

/// A labelled one-line text field; whether it changed. A text longer
/// than the field shows whole on hover (a folder's path).
pub(super) fn text_field(ui: &mut Ui, label: &str, text: &mut String, width: f32) -> bool {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        let field = ui
            .add(egui::TextEdit::singleline(text).desired_width(width))
            .labelled_by(l.id);
        let font = egui::TextStyle::Body.resolve(ui.style());
        let wide = ui
            .fonts_mut(|f| f.layout_no_wrap(text.clone(), font, Color32::WHITE))
            .size()
            .x;
        let room = field.rect.width() - 2.0 * ui.spacing().button_padding.x;
        let changed = field.changed();
        if wide > room {
            field.on_hover_text(text.as_str());
        }
        changed
    })
    .inner
}

/// What a frame of the view edits and asks for: a copy of the settings
/// (handed back as [`LabAction::Settings`] when it changed) and the
/// actions, both applied after the frame.
pub(super) struct Asks {
    pub(super) settings: LabSaved,
    pub(super) actions: Vec<LabAction>,
}

impl Asks {
    pub(super) fn push(&mut self, action: LabAction) {
        self.actions.push(action);
    }
}

impl LabPanel {
    /// Draws the panel (`from_rules`: what the Rules editor compiled;
    /// `trained`: finds the trained bot of the chosen variant), then does
    /// what the user asked for; returns what it asks the app to do.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        from_rules: Option<&Variant>,
        trained: &mut TrainedBots,
    ) -> Vec<Command> {
        let chosen = self.chosen(from_rules);
        let mut asks = Asks {
            settings: self.model.saved().clone(),
            actions: Vec::new(),
        };
        let commands = self.draw(ui, &chosen, trained, &mut asks);
        let Asks {
            settings,
            mut actions,
        } = asks;
        if settings != *self.model.saved() {
            // First: an action of the same frame reads the new settings.
            actions.insert(0, LabAction::Settings(Box::new(settings)));
        }
        for a in actions {
            self.apply(a, from_rules);
        }
        commands
    }

    fn draw(
        &self,
        ui: &mut Ui,
        chosen: &Result<Chosen, String>,
        trained: &mut TrainedBots,
        asks: &mut Asks,
    ) -> Vec<Command> {
        let mut commands = Vec::new();
        let mode = self.model.saved().mode;
        egui::Panel::left("lab-setup")
            .default_size(270.0)
            .min_size(230.0)
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    for m in LabMode::ALL {
                        ui.selectable_value(&mut asks.settings.mode, m, m.name());
                    }
                });
                ui.separator();
                egui::ScrollArea::vertical()
                    .id_salt("lab-setup-scroll")
                    .show(ui, |ui| match mode {
                        LabMode::SelfPlay => self.setup(ui, chosen, trained, asks),
                        LabMode::Balance => self.balance_setup(ui, chosen, asks),
                        LabMode::Compare => self.compare_setup(ui, asks),
                        LabMode::Report => self.report_setup(ui, chosen, asks),
                    });
            });
        if mode == LabMode::SelfPlay {
            egui::Panel::right("lab-games")
                .default_size(280.0)
                .min_size(200.0)
                .show(ui, |ui| game_list(&self.model, ui, &mut commands));
        }
        egui::CentralPanel::default().show(ui, |ui| match mode {
            LabMode::SelfPlay => {
                offer_banner(&self.model, ui, asks);
                egui::ScrollArea::vertical()
                    .id_salt("lab-report-scroll")
                    .show(ui, |ui| results(&self.model, ui));
            }
            LabMode::Balance => self.balance_results(ui, asks),
            LabMode::Compare => self.compare_results(ui),
            LabMode::Report => self.report_results(ui, asks),
        });
        commands
    }

    /// The chosen variant and its number of players, or why there is
    /// none.
    fn chosen(&mut self, from_rules: Option<&Variant>) -> Result<Chosen, String> {
        let of = |v: &Variant| Chosen {
            players: v.player_count(),
            variant: v.clone(),
        };
        if self.model.saved().source() == Source::Rules {
            return from_rules
                .map(of)
                .ok_or_else(|| "the rules editor's file does not compile".to_string());
        }
        let key = &self.model.saved().variant;
        if let Some((k, chosen)) = &self.chosen
            && k == key
        {
            return chosen.clone();
        }
        let chosen = self
            .model
            .resolve_variant(from_rules)
            .map(|v| of(&v))
            .map_err(|e| e.to_string());
        self.chosen = Some((key.clone(), chosen.clone()));
        chosen
    }

    /// The variants folder, the variant list, and why the chosen one
    /// cannot be played, if it cannot.
    pub(super) fn variant_choice(
        &self,
        ui: &mut Ui,
        chosen: &Result<Chosen, String>,
        asks: &mut Asks,
    ) {
        let s = &mut asks.settings;
        text_field(ui, "Variants folder", &mut s.variants_dir, FIELD_W);
        let label = s.variant_label();
        let files = self.model.variant_files();
        // As wide as the fields, a long file name cut short (whole on
        // hover): it neither widens the panel nor wraps onto more rows.
        let combo = egui::ComboBox::from_label("Variant")
            .width(FIELD_W)
            .selected_text(cut_short(&label, 22))
            // Room for the shipped variants and the folder's files without
            // scrolling, as far as the window allows.
            .height(22.0 * (murus_engine::BUILTIN.len() + files.len() + 3) as f32)
            .show_ui(ui, |ui| {
                // The folder's files first: they are what a designer set
                // the folder for.
                for f in files {
                    let name = f
                        .file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                    ui.selectable_value(&mut s.variant, f.display().to_string(), name);
                }
                if !files.is_empty() {
                    ui.separator();
                }
                for (n, _) in murus_engine::BUILTIN {
                    ui.selectable_value(&mut s.variant, n.to_string(), *n);
                }
                ui.selectable_value(&mut s.variant, FROM_RULES.to_string(), FROM_RULES);
            });
        let combo_response = combo.response.on_hover_text(label);
        if combo_response.clicked() {
            // The folder may have changed on disk.
            asks.push(LabAction::RefreshFiles);
        }
        inline_error(ui, chosen.as_ref().err().cloned());
    }

    fn setup(
        &self,
        ui: &mut Ui,
        chosen: &Result<Chosen, String>,
        trained: &mut TrainedBots,
        asks: &mut Asks,
    ) {
        let field_w = FIELD_W;
        self.variant_choice(ui, chosen, asks);
        let trained = chosen
            .as_ref()
            .ok()
            .and_then(|c| trained.spec_for(&c.variant));
        let busy = self.busy();
        let m = &self.model;
        let players = chosen
            .as_ref()
            .map_or(asks.settings.bots.len().max(1), |c| c.players);
        asks.settings.fit_seats(players);
        for i in 0..asks.settings.bots.len() {
            text_field(
                ui,
                &format!("Seat {} bot", i + 1),
                &mut asks.settings.bots[i],
                field_w,
            );
            inline_error(ui, m.bot_error(i));
        }
        // The trained bot of this variant, one click into a seat.
        if let Some(spec) = trained {
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("{TRAINED_LABEL}:"));
                for i in 0..asks.settings.bots.len() {
                    if ui
                        .add_enabled(
                            asks.settings.bots[i] != spec,
                            egui::Button::new(format!("to seat {}", i + 1)),
                        )
                        .on_hover_text(&spec)
                        .clicked()
                    {
                        asks.settings.bots[i].clone_from(&spec);
                    }
                }
            });
        }
        ui.horizontal(|ui| {
            let l = ui.label("Games");
            ui.add(egui::DragValue::new(&mut asks.settings.games).range(1..=100_000_000))
                .labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            let l = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut asks.settings.seed))
                .labelled_by(l.id);
        });
        let buttons = JobButtons {
            start: "Run",
            start_hover: "plays the games with these settings, kept game by game in the runs folder",
            cancel: "Cancel",
            resume: Some(("Resume run", "play the shown run's missing games")),
            running: m.is_running(),
            cancelling: false,
            resumable: m.shown_resumable(),
            busy: busy.map(|b| b.to_string()),
            cancel_first: false,
        };
        match buttons.show(ui) {
            Some(Pressed::Start) => asks.push(LabAction::Run),
            Some(Pressed::Cancel) => asks.push(LabAction::CancelRun),
            Some(Pressed::Resume) => {
                if let Some(f) = m.shown_folder() {
                    asks.push(LabAction::ResumeRun(f.to_path_buf()));
                }
            }
            None => {}
        }
        layout::reserved_height(ui, ui.spacing().interact_size.y, |ui| match m.counts() {
            Some((done, total)) => {
                ui.add(egui::ProgressBar::new(m.progress()).text(format!(
                    "{} / {} games",
                    grouped(done),
                    grouped(total)
                )));
            }
            None => {
                ui.weak("no run yet");
            }
        });
        layout::reserved(ui, 2.0, |ui| {
            if let Some(msg) = m.feedback().current() {
                msg.show(ui);
            }
        });
        ui.separator();
        ui.heading("Export");
        text_field(ui, "Folder", &mut asks.settings.export_dir, field_w);
        // A run still going has no report to export yet: its figures
        // change with every game.
        let have = m.report().is_some() && !m.is_running();
        let copy_json = |ui: &mut Ui| {
            if ui
                .add_enabled(have, egui::Button::new("Copy JSON"))
                .clicked()
                && let Some(r) = m.report()
            {
                ui.ctx().copy_text(r.to_json());
            }
        };
        match self.exports.ui(ui, have, copy_json) {
            Some(ExportAsk::Export(what)) => asks.push(LabAction::Export(what)),
            Some(ExportAsk::Cancel) => asks.push(LabAction::CancelExport),
            None => {}
        }
        ui.separator();
        ui.heading("Runs");
        text_field(ui, "Runs folder", &mut asks.settings.runs_dir, field_w);
        history(m, ui, asks);
    }
}

/// How tall a list of kept work is, whatever it holds: what comes and
/// goes in it moves nothing below.
const LIST_H: f32 = 220.0;

/// An entry of a list of kept work ([`kept_list`]).
pub(super) struct Entry<'a> {
    /// One line that says what it is.
    pub(super) summary: String,
    pub(super) folder: &'a Path,
    pub(super) selected: bool,
}

/// A list of kept work given newest first, drawn oldest first, so that a
/// new entry comes at the end and moves none of the others; a line each
/// (cut short, whole on hover with its folder), in an area of fixed
/// height, scrolled to its end when first shown. Disabled while `busy`
/// says what goes on; the folder of the entry clicked, if any.
pub(super) fn kept_list<'a>(
    ui: &mut Ui,
    id: &str,
    entries: &[Entry<'a>],
    busy: Option<&str>,
    empty: &str,
) -> Option<&'a Path> {
    let first_shown = ui.make_persistent_id((id, "shown"));
    let shown = ui.data(|d| d.get_temp::<bool>(first_shown).unwrap_or(false));
    let mut area = egui::ScrollArea::vertical()
        .id_salt(id)
        .max_height(LIST_H)
        .auto_shrink([false, false]);
    if !shown && !entries.is_empty() {
        area = area.vertical_scroll_offset(f32::MAX);
        ui.data_mut(|d| d.insert_temp(first_shown, true));
    }
    let mut clicked = None;
    area.show(ui, |ui| {
        if entries.is_empty() {
            ui.weak(empty);
        }
        for e in entries.iter().rev() {
            let button = egui::Button::selectable(e.selected, e.summary.as_str()).truncate();
            let mut r = ui
                .add_enabled(busy.is_none(), button)
                .on_hover_text(format!("{}\n{}", e.summary, e.folder.display()));
            if let Some(b) = busy {
                r = r.on_disabled_hover_text(b);
            }
            if r.clicked() && !e.selected {
                clicked = Some(e.folder);
            }
        }
    });
    clicked
}

/// The kept runs; a click shows one.
fn history(m: &LabModel, ui: &mut Ui, asks: &mut Asks) {
    let busy = m.busy().map(|b| b.to_string());
    let entries: Vec<Entry<'_>> = m
        .history()
        .iter()
        .map(|r| Entry {
            summary: r.summary(),
            folder: &r.folder,
            selected: m.shown_folder() == Some(r.folder.as_path()),
        })
        .collect();
    if let Some(f) = kept_list(
        ui,
        "lab-history",
        &entries,
        busy.as_deref(),
        "no runs kept yet",
    ) {
        asks.push(LabAction::OpenRun(f.to_path_buf()));
    }
}

/// The offer to resume a run that a crash or a restart cut short.
fn offer_banner(m: &LabModel, ui: &mut Ui, asks: &mut Asks) {
    let Some(o) = m.offer() else { return };
    let text = format!(
        "A lab run of {} ({} of {} games) was interrupted.",
        o.variant,
        grouped(o.done),
        grouped(o.requested)
    );
    match resume_banner(
        ui,
        text,
        "Resume",
        "keep its finished games in the history, and stop asking",
    ) {
        Some(true) => asks.push(LabAction::ResumeOffer),
        Some(false) => asks.push(LabAction::DiscardOffer),
        None => {}
    }
}

/// A banner that offers to resume work cut short: `text`, a button
/// `resume` and "Discard" (hover: `discard`). `Some(true)`: resume,
/// `Some(false)`: discard, `None`: no answer yet.
pub(super) fn resume_banner(
    ui: &mut Ui,
    text: String,
    resume: &str,
    discard: &str,
) -> Option<bool> {
    let mut answer = None;
    egui::Frame::new()
        .fill(theme::banner(ui))
        .inner_margin(8.0)
        .corner_radius(4.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(text).color(theme::on_banner(ui)).strong());
            ui.horizontal(|ui| {
                if ui
                    .button(resume)
                    .on_hover_text("play its missing games; the report ends as if it never stopped")
                    .clicked()
                {
                    answer = Some(true);
                }
                if ui.button("Discard").on_hover_text(discard).clicked() {
                    answer = Some(false);
                }
            });
        });
    ui.add_space(6.0);
    answer
}

fn results(m: &LabModel, ui: &mut Ui) {
    let Some(r) = m.report() else {
        ui.weak("Run self-play to see the balance report.");
        return;
    };
    let title = format!(
        "{}: {} games, {}",
        r.provenance.variant.name,
        grouped(r.games),
        r.provenance.bots.join(" vs "),
    );
    let status = if m.is_running() {
        "(going on)"
    } else if r.interrupted {
        "(interrupted)"
    } else {
        ""
    };
    title_rows(ui, &title, status);
    let rows = super::model::win_rows(m);
    let height = CHART_HEIGHT.max(rows.len() as f32 * 28.0 + 70.0);
    ui.columns(2, |cols| {
        win_chart(&mut cols[0], &rows, m.variant(), height);
        length_chart(&mut cols[1], r, height);
    });
    ui.separator();
    let players: Vec<(char, String)> = m
        .variant()
        .map(|v| {
            v.rules()
                .players
                .iter()
                .map(|p| (p.letter, p.name.clone()))
                .collect()
        })
        .unwrap_or_default();
    let colour = |c: char| {
        players
            .iter()
            .find(|(l, _)| *l == c)
            .map_or_else(|| format!("Colour {c}"), |(_, n)| n.clone())
    };
    // A grid sizes a column by its last frame's content, and starts narrow:
    // the figures get a width of their own, or they wrap a few letters a line
    // and keep the column that narrow.
    let lines = r.summary(colour);
    let labels = lines
        .iter()
        .map(|(l, _)| {
            egui::WidgetText::from(l.as_str())
                .into_galley(
                    ui,
                    Some(egui::TextWrapMode::Extend),
                    f32::INFINITY,
                    egui::TextStyle::Body,
                )
                .size()
                .x
        })
        .fold(0.0, f32::max);
    // Exactly the width left beside the labels: wider, a row runs past the
    // panel's edge and its end is cut off.
    let figures = (ui.available_width() - labels - 3.0 * ui.spacing().item_spacing.x).max(80.0);
    egui::Grid::new("lab-summary").striped(true).show(ui, |ui| {
        for (label, text) in lines {
            ui.label(label);
            ui.vertical(|ui| {
                ui.set_width(figures);
                ui.add(egui::Label::new(text).wrap());
            });
            ui.end_row();
        }
    });
}

fn game_list(m: &LabModel, ui: &mut Ui, commands: &mut Vec<Command>) {
    ui.heading("Games");
    if m.games().is_empty() {
        ui.weak("no finished games");
        return;
    }
    let row_h = ui.spacing().interact_size.y + 2.0;
    egui::ScrollArea::vertical()
        .id_salt("lab-game-list")
        .show_rows(ui, row_h, m.games().len(), |ui, range| {
            for i in range {
                let g = &m.games()[i];
                ui.horizontal(|ui| {
                    if ui
                        .small_button(format!("Open #{}", g.stats.index + 1))
                        .clicked()
                        && let Some(c) = super::model::open_game(m, i)
                    {
                        commands.push(c);
                    }
                    // Cut short, whole on hover: a longer one would widen
                    // the panel, and move the report beside it.
                    ui.add(egui::Label::new(super::model::describe_game(m, g)).truncate());
                });
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped_and_steps_are_round() {
        assert_eq!(count(1234.0), "1 234");
        assert_eq!(count(-0.2), "0");
        assert_eq!(count(-5.0), "");
        assert_eq!(nice_step(70.0, 6.0), 20.0);
        assert_eq!(nice_step(16_000.0, 6.0), 5000.0);
        assert_eq!(nice_step(3.0, 6.0), 1.0);
        let marks = round_marks(GridInput {
            bounds: (-3.0, 1040.0),
            base_step_size: 1.0,
        });
        let values: Vec<f64> = marks.iter().map(|m| m.value).collect();
        assert_eq!(values, [0.0, 200.0, 400.0, 600.0, 800.0, 1000.0]);
    }
}
