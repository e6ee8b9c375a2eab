//! The Lab panel: self-play in the background with live charts (win rates
//! per seat with 95% intervals, a game-length histogram), the balance
//! report, exports, and any finished game one click from Play.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use egui::{Color32, RichText};
use egui_plot::{Bar, BarChart, Line, Plot, PlotPoints};
use murus_ai::BotSpec;
use murus_engine::Variant;
use murus_lab::{Config, GameResult, Report, play_game};
use serde::{Deserialize, Serialize};

use crate::worker::Job;
use crate::{Command, Message, theme};

/// The variant choice that means "what the Rules editor compiled".
pub const FROM_RULES: &str = "(rules editor)";

/// What Lab keeps across restarts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LabSaved {
    /// A built-in variant's name, or [`FROM_RULES`].
    pub variant: String,
    /// Bot spec per seat (a shorter list repeats).
    pub bots: Vec<String>,
    pub games: u64,
    pub seed: u64,
    /// Folder for exports.
    pub export_dir: String,
}

impl Default for LabSaved {
    fn default() -> Self {
        LabSaved {
            variant: "standard".into(),
            bots: vec!["greedy".into(), "random".into()],
            games: 100,
            seed: 1,
            export_dir: "lab-out".into(),
        }
    }
}

/// What a run reports to the UI thread.
#[derive(Debug)]
pub enum LabMsg {
    /// A finished game.
    Game(GameResult),
    /// The report of every game finished so far, built on the run's thread
    /// (so a long run never costs the UI more than collecting games).
    Report(Box<Report>),
}

/// How often a running batch rebuilds its report.
pub const REPORT_EVERY: Duration = Duration::from_millis(250);

/// The Lab panel.
#[derive(Debug)]
pub struct LabPanel {
    pub saved: LabSaved,
    job: Option<Job<LabMsg>>,
    config: Option<Config>,
    variant: Option<Variant>,
    /// Finished games of the current or last run (sorted by number once the
    /// run is over; in order of arrival while it goes on).
    pub games: Vec<GameResult>,
    pub report: Option<Report>,
    total: u64,
    pub cancelled: bool,
    pub message: Option<Message>,
}

impl LabPanel {
    pub fn new(saved: LabSaved) -> LabPanel {
        LabPanel {
            saved,
            job: None,
            config: None,
            variant: None,
            games: Vec::new(),
            report: None,
            total: 0,
            cancelled: false,
            message: None,
        }
    }

    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// Finished share of the run, 0 to 1.
    pub fn progress(&self) -> f32 {
        if self.total == 0 {
            0.0
        } else {
            self.games.len() as f32 / self.total as f32
        }
    }

    fn resolve_variant(&self, from_rules: Option<&Variant>) -> Result<Variant, String> {
        if self.saved.variant == FROM_RULES {
            return from_rules
                .cloned()
                .ok_or_else(|| "the rules editor's file does not compile".to_string());
        }
        Variant::builtin(&self.saved.variant)
            .ok_or_else(|| format!("unknown variant `{}`", self.saved.variant))
    }

    /// Starts a run with the current settings.
    pub fn start(&mut self, ctx: &egui::Context, from_rules: Option<&Variant>) {
        let variant = match self.resolve_variant(from_rules) {
            Ok(v) => v,
            Err(e) => {
                self.message = Some(Message::error(e));
                return;
            }
        };
        let mut specs = Vec::new();
        for (i, b) in self.saved.bots.iter().enumerate() {
            match b.parse::<BotSpec>() {
                Ok(s) => specs.push(s),
                Err(e) => {
                    self.message = Some(Message::error(format!("seat {}: {e}", i + 1)));
                    return;
                }
            }
        }
        if specs.is_empty() {
            self.message = Some(Message::error("give at least one bot"));
            return;
        }
        if self.saved.games == 0 {
            self.message = Some(Message::error("play at least one game"));
            return;
        }
        // Leave a core for the UI.
        let threads = std::thread::available_parallelism()
            .map_or(1, usize::from)
            .saturating_sub(1)
            .max(1);
        let config =
            Config::new(&variant, specs, self.saved.games, self.saved.seed).with_threads(threads);
        let indices = config.indices();
        self.total = indices.len() as u64;
        // Freeing a large run's games (their moves are many small strings)
        // takes long enough to drop a frame: do it off the UI thread.
        let old = std::mem::take(&mut self.games);
        if old.len() > 1000 {
            let _ = std::thread::Builder::new()
                .name("murus-lab-free".into())
                .spawn(move || drop(old));
        }
        self.report = None;
        self.cancelled = false;
        self.message = None;
        let (v2, c2) = (variant.clone(), config.clone());
        self.job = Some(Job::spawn("murus-lab", ctx, move |rep| {
            let next = AtomicUsize::new(0);
            let cancel = rep.cancel_flag();
            // What the report needs of each game (the moves stay with the UI).
            let finished: Mutex<Vec<GameResult>> = Mutex::new(Vec::new());
            let running = AtomicUsize::new(0);
            let report = |games: &Mutex<Vec<GameResult>>| {
                let mut g = games.lock().map(|g| g.clone()).unwrap_or_default();
                g.sort_by_key(|g| g.index);
                c2.report(&murus_lab::stats_of(&g).unwrap_or_default())
            };
            std::thread::scope(|s| {
                for t in 0..c2.threads.min(indices.len()).max(1) {
                    let (rep, next, indices, v2, c2, cancel, finished, running) = (
                        &rep, &next, &indices, &v2, &c2, &cancel, &finished, &running,
                    );
                    running.fetch_add(1, Ordering::SeqCst);
                    let spawned = std::thread::Builder::new()
                        .name(format!("murus-lab-{t}"))
                        .spawn_scoped(s, move || {
                            loop {
                                if rep.cancelled() {
                                    break;
                                }
                                let i = next.fetch_add(1, Ordering::Relaxed);
                                let Some(&index) = indices.get(i) else { break };
                                let g = play_game(v2, &c2.setup(index), Some(cancel.clone()));
                                if rep.cancelled() {
                                    break;
                                }
                                let lite = GameResult {
                                    moves: Vec::new(),
                                    ..g.clone()
                                };
                                if let Ok(mut f) = finished.lock() {
                                    f.push(lite);
                                }
                                if !rep.send(LabMsg::Game(g)) {
                                    break;
                                }
                            }
                            running.fetch_sub(1, Ordering::SeqCst);
                        });
                    if spawned.is_err() {
                        running.fetch_sub(1, Ordering::SeqCst);
                    }
                }
                // This thread keeps the report fresh while the games run.
                while running.load(Ordering::SeqCst) > 0 {
                    std::thread::sleep(REPORT_EVERY);
                    if rep.cancelled() || !rep.send(LabMsg::Report(Box::new(report(&finished)))) {
                        break;
                    }
                }
            });
            rep.send(LabMsg::Report(Box::new(report(&finished))));
        }));
        self.config = Some(config);
        self.variant = Some(variant);
    }

    pub fn cancel(&mut self) {
        if let Some(j) = &self.job {
            j.cancel();
            self.cancelled = true;
        }
    }

    /// Collects finished games and the latest report.
    pub fn poll(&mut self, ctx: &egui::Context) {
        let Some(job) = &mut self.job else { return };
        for msg in job.poll() {
            match msg {
                LabMsg::Game(g) => self.games.push(g),
                LabMsg::Report(r) => self.report = Some(*r),
            }
        }
        if !job.is_finished() {
            ctx.request_repaint_after(Duration::from_millis(100));
            return;
        }
        self.job = None;
        self.games.sort_by_key(|g| g.index);
        // A cancelled run's thread stops before its last report: build it here.
        if self.cancelled
            && let Some(c) = &self.config
        {
            self.report = Some(c.report(&murus_lab::stats_of(&self.games).unwrap_or_default()));
        }
        self.message = Some(Message::info(if self.cancelled {
            format!(
                "cancelled after {} of {} games",
                self.games.len(),
                self.total
            )
        } else {
            format!("finished {} games", self.games.len())
        }));
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, from_rules: Option<&Variant>) -> Vec<Command> {
        let mut commands = Vec::new();
        egui::Panel::left("lab-setup")
            .default_size(250.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("lab-setup-scroll")
                    .show(ui, |ui| self.setup(ui, from_rules));
            });
        egui::Panel::right("lab-games")
            .default_size(280.0)
            .show(ui, |ui| self.game_list(ui, &mut commands));
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("lab-report-scroll")
                .show(ui, |ui| self.results(ui));
        });
        commands
    }

    fn setup(&mut self, ui: &mut egui::Ui, from_rules: Option<&Variant>) {
        ui.heading("Self-play");
        egui::ComboBox::from_label("Variant")
            .selected_text(self.saved.variant.as_str())
            .show_ui(ui, |ui| {
                for (n, _) in murus_engine::BUILTIN {
                    ui.selectable_value(&mut self.saved.variant, n.to_string(), *n);
                }
                ui.selectable_value(&mut self.saved.variant, FROM_RULES.to_string(), FROM_RULES);
            });
        let players = self
            .resolve_variant(from_rules)
            .map(|v| v.player_count())
            .unwrap_or(2);
        if self.saved.bots.len() != players {
            let fill = self
                .saved
                .bots
                .last()
                .cloned()
                .unwrap_or_else(|| "random".into());
            self.saved.bots.resize(players, fill);
        }
        for (i, b) in self.saved.bots.iter_mut().enumerate() {
            let label = format!("Seat {} bot", i + 1);
            ui.horizontal(|ui| {
                let l = ui.label(&label);
                ui.add(egui::TextEdit::singleline(b).desired_width(120.0))
                    .labelled_by(l.id);
            });
            if let Err(e) = b.parse::<BotSpec>() {
                ui.colored_label(theme::error(ui), e.to_string());
            }
        }
        ui.horizontal(|ui| {
            let l = ui.label("Games");
            ui.add(egui::DragValue::new(&mut self.saved.games).range(1..=1_000_000))
                .labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            let l = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut self.saved.seed))
                .labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            if self.is_running() {
                if ui.button("Cancel").clicked() {
                    self.cancel();
                }
            } else if ui.button("Run").clicked() {
                self.start(ui.ctx(), from_rules);
            }
        });
        if self.total > 0 {
            ui.add(egui::ProgressBar::new(self.progress()).text(format!(
                "{} / {} games",
                self.games.len(),
                self.total
            )));
        }
        if let Some(m) = &self.message {
            m.show(ui);
        }
        ui.separator();
        ui.heading("Export");
        ui.horizontal(|ui| {
            let l = ui.label("Folder");
            ui.add(egui::TextEdit::singleline(&mut self.saved.export_dir).desired_width(120.0))
                .labelled_by(l.id);
        });
        let have = self.report.is_some();
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(have, egui::Button::new("Export JSON"))
                .clicked()
            {
                self.export("report.json", murus_lab::Report::to_json);
            }
            if ui
                .add_enabled(have, egui::Button::new("Export CSV"))
                .clicked()
            {
                self.export("report.csv", Report::to_csv);
            }
            if ui
                .add_enabled(have, egui::Button::new("Export all"))
                .clicked()
                && let Some(r) = &self.report
            {
                let dir = std::path::PathBuf::from(&self.saved.export_dir);
                self.message = Some(match murus_lab::write_outputs(&dir, r, &self.games) {
                    Ok(()) => Message::info(format!(
                        "wrote games.jsonl and reports to {}",
                        dir.display()
                    )),
                    Err(e) => Message::error(e.to_string()),
                });
            }
            if ui
                .add_enabled(have, egui::Button::new("Copy JSON"))
                .clicked()
                && let Some(r) = &self.report
            {
                ui.ctx().copy_text(r.to_json());
            }
        });
    }

    fn export(&mut self, name: &str, f: impl Fn(&Report) -> String) {
        let Some(r) = &self.report else { return };
        let dir = std::path::PathBuf::from(&self.saved.export_dir);
        let path = dir.join(name);
        let result = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, f(r)));
        self.message = Some(match result {
            Ok(()) => Message::info(format!("wrote {}", path.display())),
            Err(e) => Message::error(format!("{}: {e}", path.display())),
        });
    }

    fn results(&mut self, ui: &mut egui::Ui) {
        let Some(r) = &self.report else {
            ui.weak("Run self-play to see the balance report.");
            return;
        };
        ui.heading(format!(
            "{}: {} games, {}",
            r.variant.name,
            r.games,
            r.bots.join(" vs ")
        ));
        ui.columns(2, |cols| {
            cols[0].label(RichText::new("Win rate per seat (95% interval)").strong());
            let seat_colours = [
                Color32::from_rgb(90, 150, 230),
                Color32::from_rgb(230, 120, 60),
                Color32::from_rgb(90, 190, 110),
                Color32::from_rgb(190, 90, 190),
            ];
            let bars: Vec<Bar> = r
                .by_seat
                .iter()
                .map(|s| {
                    Bar::new(s.seat as f64, s.rate)
                        .width(0.6)
                        .name(format!("seat {} ({})", s.seat + 1, s.bot))
                        .fill(seat_colours[s.seat % 4])
                })
                .chain(std::iter::once(
                    Bar::new(r.by_seat.len() as f64, r.draws.rate)
                        .width(0.6)
                        .name("draws")
                        .fill(Color32::GRAY),
                ))
                .collect();
            let mut intervals: Vec<(f64, [f64; 2])> =
                r.by_seat.iter().map(|s| (s.seat as f64, s.ci95)).collect();
            intervals.push((r.by_seat.len() as f64, r.draws.ci95));
            Plot::new("lab-winrates")
                .height(220.0)
                .include_y(0.0)
                .include_y(1.0)
                .allow_drag(false)
                .allow_zoom(false)
                .allow_scroll(false)
                .show(&mut cols[0], |p| {
                    p.bar_chart(BarChart::new("win rate", bars));
                    for (x, [lo, hi]) in intervals {
                        let pts = vec![
                            [x - 0.1, lo],
                            [x + 0.1, lo],
                            [x, lo],
                            [x, hi],
                            [x - 0.1, hi],
                            [x + 0.1, hi],
                        ];
                        p.line(
                            Line::new("95% interval", PlotPoints::from(pts))
                                .color(Color32::from_gray(30))
                                .width(2.0),
                        );
                    }
                });
            cols[1].label(RichText::new("Game length (plies)").strong());
            let hist: Vec<Bar> = r
                .length
                .histogram
                .iter()
                .map(|b| {
                    let w = f64::from(b.to.saturating_sub(b.from).max(1));
                    Bar::new(f64::from(b.from) + w / 2.0, b.count as f64)
                        .width(w * 0.95)
                        .name(format!("{}–{}", b.from, b.to))
                })
                .collect();
            Plot::new("lab-lengths")
                .height(220.0)
                .include_y(0.0)
                .allow_drag(false)
                .allow_zoom(false)
                .allow_scroll(false)
                .show(&mut cols[1], |p| {
                    p.bar_chart(
                        BarChart::new("games", hist).color(Color32::from_rgb(120, 160, 220)),
                    );
                });
        });
        ui.separator();
        egui::Grid::new("lab-summary").striped(true).show(ui, |ui| {
            let pct = |x: f64| format!("{:.1}%", x * 100.0);
            let wins = |wins: u64, rate: f64, ci: [f64; 2]| {
                format!("{wins} wins, {} [{}–{}]", pct(rate), pct(ci[0]), pct(ci[1]))
            };
            for s in &r.by_seat {
                ui.label(format!("Seat {} ({})", s.seat + 1, s.bot));
                ui.label(wins(s.wins, s.rate, s.ci95));
                ui.end_row();
            }
            for (colour, c) in &r.by_colour {
                ui.label(format!("Colour {colour}"));
                ui.label(wins(c.wins, c.rate, c.ci95));
                ui.end_row();
            }
            let f = &r.first_player_advantage;
            ui.label("First player");
            ui.label(format!(
                "{} [{}–{}], fair {}, advantage {:+.1} pts",
                pct(f.rate),
                pct(f.ci95[0]),
                pct(f.ci95[1]),
                pct(f.fair),
                f.advantage * 100.0
            ));
            ui.end_row();
            ui.label("Draws");
            ui.label(format!("{} ({})", r.draws.count, pct(r.draws.rate)));
            ui.end_row();
            ui.label("Hit the ply cap");
            ui.label(format!("{} ({})", r.ply_cap.count, pct(r.ply_cap.rate)));
            ui.end_row();
            ui.label("Length");
            ui.label(format!(
                "mean {:.1}, median {}, 5–95% {}–{}",
                r.length.mean, r.length.median, r.length.p5, r.length.p95
            ));
            ui.end_row();
            ui.label("Branching");
            ui.label(format!(
                "mean {:.1}, max {}, forced {}",
                r.branching.mean,
                r.branching.max,
                pct(r.branching.forced_share)
            ));
            ui.end_row();
            ui.label("Decisiveness");
            ui.label(format!(
                "{}, lead changes {:.2} a game",
                pct(r.evaluation.decisiveness.rate),
                r.evaluation.lead_changes_mean
            ));
            ui.end_row();
        });
        ui.separator();
        ui.label(RichText::new("End reasons").strong());
        egui::Grid::new("lab-reasons").striped(true).show(ui, |ui| {
            for (reason, n) in &r.end_reasons {
                ui.label(reason);
                ui.label(n.to_string());
                ui.end_row();
            }
        });
    }

    fn game_list(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        ui.heading("Games");
        if self.games.is_empty() {
            ui.weak("no finished games");
            return;
        }
        let row_h = ui.spacing().interact_size.y + 2.0;
        let n = self.games.len();
        egui::ScrollArea::vertical()
            .id_salt("lab-game-list")
            .show_rows(ui, row_h, n, |ui, range| {
                for g in &self.games[range] {
                    ui.horizontal(|ui| {
                        let winner = g.winner.map_or("draw".to_string(), |w| format!("{w} won"));
                        if ui.small_button(format!("Open #{}", g.index + 1)).clicked()
                            && let Some(v) = &self.variant
                        {
                            commands.push(Command::OpenGame {
                                variant: v.clone(),
                                moves: g.moves.clone(),
                                label: format!("lab game #{}", g.index + 1),
                            });
                        }
                        ui.label(format!("{winner}, {} ({} plies)", g.reason, g.plies));
                    });
                }
            });
    }
}
