//! Murus Studio: the eframe workbench to play, edit rules, run the balance
//! lab and author Murals.
//!
//! The crate is the UI; `murus-studio` (src/main.rs) is a thin shell around
//! [`StudioApp`]. Each panel is a type with a `ui` method that returns
//! [`Command`]s, applied by the app after the frame. Long work (bots, rule
//! compilation, perft, self-play, solving) runs on named threads
//! ([`worker::Job`]) that wake the UI when they report.
//!
//! ```no_run
//! let options = eframe::NativeOptions::default();
//! eframe::run_native(
//!     "Murus Studio",
//!     options,
//!     Box::new(|cc| Ok(Box::new(murus_studio::StudioApp::new(cc, murus_studio::Launch::default())))),
//! )
//! .unwrap();
//! ```

pub mod board;
pub mod files;
pub mod lab;
pub mod murals;
pub mod play;
pub mod rules;
pub mod syntax;
pub mod worker;

use std::sync::{Arc, Mutex};
use std::time::Instant;

use egui::{Color32, RichText};
use murus_engine::Variant;
use serde::{Deserialize, Serialize};

/// The four panels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tab {
    #[default]
    Play,
    Rules,
    Lab,
    Murals,
}

impl Tab {
    pub const ALL: [Tab; 4] = [Tab::Play, Tab::Rules, Tab::Lab, Tab::Murals];

    pub fn name(self) -> &'static str {
        match self {
            Tab::Play => "Play",
            Tab::Rules => "Rules",
            Tab::Lab => "Lab",
            Tab::Murals => "Murals",
        }
    }

    /// Parses a panel name (case-insensitive).
    pub fn parse(name: &str) -> Option<Tab> {
        Tab::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// What a panel asks the app to do after the frame.
#[derive(Debug)]
pub enum Command {
    /// Start a new game of this variant in Play.
    PlayVariant(Variant),
    /// Open a game (moves in notation) of a variant in Play.
    OpenGame {
        variant: Variant,
        moves: Vec<String>,
        label: String,
    },
    /// Show a panel.
    Show(Tab),
}

/// A line of feedback shown in a panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub error: bool,
    pub text: String,
}

impl Message {
    pub fn info(text: impl Into<String>) -> Message {
        Message {
            error: false,
            text: text.into(),
        }
    }
    pub fn error(text: impl Into<String>) -> Message {
        Message {
            error: true,
            text: text.into(),
        }
    }
    /// Draws the message (red for errors).
    pub fn show(&self, ui: &mut egui::Ui) {
        let colour = if self.error {
            Color32::from_rgb(220, 60, 60)
        } else {
            ui.visuals().text_color()
        };
        ui.label(RichText::new(&self.text).color(colour));
    }
}

/// Everything the studio keeps across restarts. `#[serde(default)]` on every
/// level so saves from older versions still load.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Saved {
    pub tab: Tab,
    pub play: play::PlaySaved,
    pub rules: rules::RulesSaved,
    pub lab: lab::LabSaved,
    pub murals: murals::MuralsSaved,
}

/// The storage key of [`Saved`].
pub const STORAGE_KEY: &str = "murus-studio";

/// How the binary launched the studio (command-line flags).
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// Open this panel instead of the saved one.
    pub panel: Option<Tab>,
    /// Save a PNG of the window here once the panel has settled, then exit.
    pub screenshot: Option<std::path::PathBuf>,
    /// Fill the panel with example content (for screenshots and benchmarks).
    pub demo: bool,
    /// Measure this many frames with a bot thinking and a lab run going,
    /// print the frame-time statistics and exit.
    pub bench_frames: Option<usize>,
    /// With `bench_frames`: load the machine (bots and a lab run); without,
    /// measure the idle studio.
    pub bench_load: bool,
    /// Ignore the saved state.
    pub fresh: bool,
}

/// Frame-time measurement for `--bench-frames`.
#[derive(Debug, Default)]
pub struct FrameStats {
    /// Time spent building the UI each frame (ms).
    pub ui_ms: Vec<f64>,
    /// Time between the starts of successive frames (ms).
    pub interval_ms: Vec<f64>,
    /// Whole frame as eframe measures it: the UI, tessellation and
    /// rendering, without waiting for vsync (ms).
    pub frame_ms: Vec<f64>,
    /// Frames measured while a bot thought and a lab run went on.
    pub busy_frames: usize,
    last_start: Option<Instant>,
}

impl FrameStats {
    /// `(median, p95, max)` of a sample, in ms.
    pub fn summary(sample: &[f64]) -> (f64, f64, f64) {
        if sample.is_empty() {
            return (0.0, 0.0, 0.0);
        }
        let mut s = sample.to_vec();
        s.sort_by(f64::total_cmp);
        let at = |q: f64| s[((s.len() - 1) as f64 * q).round() as usize];
        (at(0.5), at(0.95), s[s.len() - 1])
    }
}

/// The studio.
#[derive(Debug)]
pub struct StudioApp {
    pub tab: Tab,
    pub play: play::PlayPanel,
    pub rules: rules::RulesPanel,
    pub lab: lab::LabPanel,
    pub murals: murals::MuralsPanel,
    launch: Launch,
    frames: u64,
    pub stats: FrameStats,
    shot: Arc<Mutex<Option<Arc<egui::ColorImage>>>>,
    shot_requested: bool,
    settle_frames: u64,
}

impl StudioApp {
    /// The app as eframe creates it: restores the saved state.
    pub fn new(cc: &eframe::CreationContext<'_>, launch: Launch) -> StudioApp {
        let saved = if launch.fresh {
            Saved::default()
        } else {
            cc.storage
                .and_then(|s| eframe::get_value::<Saved>(s, STORAGE_KEY))
                .unwrap_or_default()
        };
        let mut app = StudioApp::from_saved(saved);
        app.apply_launch(&cc.egui_ctx, launch);
        app
    }

    /// An app from saved state (tests build it this way too).
    pub fn from_saved(saved: Saved) -> StudioApp {
        StudioApp {
            tab: saved.tab,
            play: play::PlayPanel::new(saved.play),
            rules: rules::RulesPanel::new(saved.rules),
            lab: lab::LabPanel::new(saved.lab),
            murals: murals::MuralsPanel::new(saved.murals),
            launch: Launch::default(),
            frames: 0,
            stats: FrameStats::default(),
            shot: Arc::default(),
            shot_requested: false,
            settle_frames: 0,
        }
    }

    fn apply_launch(&mut self, ctx: &egui::Context, launch: Launch) {
        if let Some(tab) = launch.panel {
            self.tab = tab;
        }
        if launch.demo || launch.bench_frames.is_some() {
            self.demo(ctx, launch.bench_frames.is_some() && launch.bench_load);
        }
        self.launch = launch;
    }

    /// Example content for screenshots; with `busy`, a bot thinking and a
    /// lab run going at once (the frame-time benchmark's load).
    fn demo(&mut self, ctx: &egui::Context, busy: bool) {
        self.play.set_variant(Variant::standard());
        for m in ["b1-b3", "c7-c5", "e1-e3", "f7-f5", "d1-d3", "e7-e5"] {
            let mut probe = self.play.game.clone();
            if let Ok(m) = probe.play_str(m) {
                self.play.play_move(m);
            }
        }
        self.play.saved.seats = vec!["human".into(), "human".into()];
        self.play.selected = self.play.variant.geometry().parse_cell("c1");
        self.rules.load_builtin("standard");
        self.rules.saved.text = self.rules.saved.text.replace("home rank 7", "home rank 9");
        self.rules.mark_edited(0.0);
        if busy {
            self.play.saved.seats = vec!["hard".into(), "hard".into()];
            self.lab.saved.games = 100_000;
            self.lab.saved.bots = vec!["random".into()];
            self.lab.start(ctx, None);
        } else {
            self.lab.saved.games = 40;
            self.lab.saved.bots = vec!["greedy".into(), "random".into()];
            self.lab.start(ctx, None);
        }
        self.murals.demo(ctx);
    }

    /// Everything to persist now.
    pub fn saved(&mut self) -> Saved {
        self.play.sync_saved();
        Saved {
            tab: self.tab,
            play: self.play.saved.clone(),
            rules: self.rules.saved.clone(),
            lab: self.lab.saved.clone(),
            murals: self.murals.saved.clone(),
        }
    }

    fn apply(&mut self, commands: Vec<Command>) {
        for c in commands {
            match c {
                Command::PlayVariant(v) => {
                    self.play.set_variant(v);
                    self.tab = Tab::Play;
                }
                Command::OpenGame {
                    variant,
                    moves,
                    label,
                } => {
                    self.play.open_moves(variant, &moves, &label);
                    self.tab = Tab::Play;
                }
                Command::Show(t) => self.tab = t,
            }
        }
    }

    /// Whether background work is running (a bot, a lab run, a solver…).
    pub fn busy(&self) -> bool {
        self.play.is_thinking()
            || self.lab.is_running()
            || self.murals.is_busy()
            || self.rules.is_busy()
    }

    /// Draws one frame.
    pub fn frame(&mut self, ui: &mut egui::Ui) {
        let start = Instant::now();
        if let Some(prev) = self.stats.last_start.replace(start) {
            self.stats
                .interval_ms
                .push(start.duration_since(prev).as_secs_f64() * 1e3);
        }
        self.frames += 1;
        // Background panels keep working while hidden.
        self.lab.poll(ui.ctx());
        self.rules.poll(ui.ctx());
        self.murals.poll(ui.ctx());
        if self.tab != Tab::Play {
            self.play.drive_bots(ui.ctx());
        }
        egui::Panel::top("tabs").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new("Murus Studio").strong());
                ui.separator();
                for t in Tab::ALL {
                    let mut label = t.name().to_string();
                    if t == Tab::Rules && self.rules.is_dirty() {
                        label.push('*');
                    }
                    if ui.selectable_label(self.tab == t, label).clicked() {
                        self.tab = t;
                    }
                }
                ui.separator();
                if self.play.is_thinking() {
                    ui.spinner();
                    ui.weak("bot thinking");
                }
                if self.lab.is_running() {
                    ui.spinner();
                    ui.weak(format!("lab {:.0}%", self.lab.progress() * 100.0));
                }
            });
        });
        let commands = match self.tab {
            Tab::Play => self.play.ui(ui),
            Tab::Rules => self.rules.ui(ui),
            Tab::Lab => self.lab.ui(ui, self.rules.compiled_variant()),
            Tab::Murals => self.murals.ui(ui),
        };
        self.apply(commands);
        self.stats.ui_ms.push(start.elapsed().as_secs_f64() * 1e3);
        self.launch_tasks(ui.ctx());
    }

    /// Screenshot and benchmark modes.
    fn launch_tasks(&mut self, ctx: &egui::Context) {
        if let Some(n) = self.launch.bench_frames {
            ctx.request_repaint();
            // Keep the bots busy: a finished game starts again.
            if self.launch.bench_load && self.play.game.outcome().is_some() {
                self.play.new_game();
            }
            // …and a finished lab run starts again.
            if self.launch.bench_load && !self.lab.is_running() && self.frames > 1 {
                self.lab.start(ctx, None);
            }
            if self.launch.bench_load {
                self.stats.busy_frames +=
                    usize::from(self.play.is_thinking() && self.lab.is_running());
            }
            // Skip start-up frames (shader compilation, font atlas).
            if self.frames == 30 {
                self.stats.ui_ms.clear();
                self.stats.interval_ms.clear();
                self.stats.frame_ms.clear();
                self.stats.busy_frames = 0;
            }
            if self.frames > 30 && self.stats.ui_ms.len() >= n {
                let (m, p95, max) = FrameStats::summary(&self.stats.ui_ms);
                let (im, ip95, imax) = FrameStats::summary(&self.stats.interval_ms);
                let (fm, fp95, fmax) = FrameStats::summary(&self.stats.frame_ms);
                println!(
                    "frames: {n} on the {} board, panel {}, {} of them with a bot thinking and a lab run going",
                    self.play.variant.name(),
                    self.tab.name(),
                    self.stats.busy_frames
                );
                println!("ui build time    ms: median {m:.2}  p95 {p95:.2}  max {max:.2}");
                println!(
                    "whole frame      ms: median {fm:.2}  p95 {fp95:.2}  max {fmax:.2}  (ui + tessellation + rendering, no vsync wait)"
                );
                println!("frame interval   ms: median {im:.2}  p95 {ip95:.2}  max {imax:.2}");
                self.launch.bench_frames = None;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
        if let Some(path) = self.launch.screenshot.clone() {
            // Let the panel settle: lab runs and solvers finish first.
            let settled = !self.lab.is_running() && !self.murals.is_busy() && !self.rules.is_busy();
            if settled {
                self.settle_frames += 1;
            }
            ctx.request_repaint();
            if !self.shot_requested && (self.settle_frames > 20 || self.frames > 3000) {
                self.shot_requested = true;
                let slot = self.shot.clone();
                let ctx2 = ctx.clone();
                ctx.request_screenshot(move |img| {
                    if let Ok(mut s) = slot.lock() {
                        *s = Some(img);
                    }
                    ctx2.request_repaint();
                });
            }
            let taken = self.shot.lock().ok().and_then(|mut s| s.take());
            if let Some(img) = taken {
                let [w, h] = img.size;
                let bytes: Vec<u8> = img
                    .pixels
                    .iter()
                    .flat_map(egui::Color32::to_array)
                    .collect();
                match image::RgbaImage::from_raw(w as u32, h as u32, bytes) {
                    Some(buf) => match buf.save(&path) {
                        Ok(()) => println!("saved {}", path.display()),
                        Err(e) => eprintln!("{}: {e}", path.display()),
                    },
                    None => eprintln!("screenshot has the wrong size"),
                }
                self.launch.screenshot = None;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }
}

impl eframe::App for StudioApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        if self.launch.bench_frames.is_some()
            && let Some(s) = frame.info().cpu_usage
        {
            self.stats.frame_ms.push(f64::from(s) * 1e3);
        }
        self.frame(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.launch.screenshot.is_some()
            || self.launch.bench_frames.is_some()
            || self.launch.fresh
        {
            return; // demo content must not overwrite the user's state
        }
        let saved = self.saved();
        eframe::set_value(storage, STORAGE_KEY, &saved);
    }
}
