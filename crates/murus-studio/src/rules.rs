//! The Rules panel: a rule-file editor with line numbers and syntax
//! colouring, live compilation off the UI thread, clickable diagnostics,
//! a start-position preview, a quick perft and "Play this variant".

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Instant;

use egui::RichText;
use egui::text::{CCursor, CCursorRange};
use murus_dsl::Severity;
use murus_engine::Variant;
use serde::{Deserialize, Serialize};

use crate::board::{self, Scene};
use crate::worker::Job;
use crate::{Command, Message, files, syntax, theme};

/// Seconds of quiet typing before the file recompiles.
pub const DEBOUNCE_S: f64 = 0.3;

/// What Rules keeps across restarts: the text itself, so unsaved work
/// survives a restart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RulesSaved {
    pub text: String,
    /// The file the text belongs to (empty: not saved yet).
    pub path: String,
    /// The text as last read from or written to `path`.
    pub disk_text: String,
    /// Name for "Save as" in `variants/`.
    pub save_name: String,
    pub perft_depth: u32,
}

impl Default for RulesSaved {
    fn default() -> Self {
        let text = Variant::standard().source().to_string();
        RulesSaved {
            disk_text: text.clone(),
            text,
            path: "variants/standard.mg".into(),
            save_name: "my-variant.mg".into(),
            perft_depth: 3,
        }
    }
}

/// One diagnostic, ready to list.
#[derive(Clone, Debug)]
pub struct DiagView {
    pub error: bool,
    pub line: usize,
    pub col: usize,
    pub message: String,
    pub span: Range<usize>,
    /// The rustc-style rendering (shown on hover).
    pub rendered: String,
}

impl DiagView {
    /// `3:14: error: …`
    pub fn title(&self) -> String {
        let sev = if self.error { "error" } else { "warning" };
        format!("{}:{}: {sev}: {}", self.line, self.col, self.message)
    }
}

/// A finished compilation.
#[derive(Debug)]
pub struct Compiled {
    pub source: String,
    pub diags: Vec<DiagView>,
    pub variant: Option<Variant>,
    pub millis: f64,
}

fn compile(source: String, file: &str) -> Compiled {
    let t = Instant::now();
    let (variant, diags) = match murus_dsl::compile(&source) {
        Ok(c) => {
            let warnings = c.warnings.clone();
            (Some(Variant::from_rules(c.rules, &source)), warnings)
        }
        Err(d) => (None, d),
    };
    let diags = diags
        .iter()
        .map(|d| {
            let (line, col) = d.line_col(&source);
            DiagView {
                error: d.severity == Severity::Error,
                line,
                col,
                message: d.message.clone(),
                span: d.span.range(),
                rendered: d.render(file, &source),
            }
        })
        .collect();
    Compiled {
        source,
        diags,
        variant,
        millis: t.elapsed().as_secs_f64() * 1e3,
    }
}

/// An action waiting for "discard unsaved changes?".
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pending {
    Open(PathBuf),
    Builtin(String),
    New,
}

/// The Rules panel.
#[derive(Debug)]
pub struct RulesPanel {
    pub saved: RulesSaved,
    pub compiled: Option<Compiled>,
    compile_job: Option<Job<Compiled>>,
    /// The text changed since the last compilation started.
    stale: bool,
    last_edit: f64,
    jump_to: Option<usize>,
    confirm: Option<Pending>,
    perft_job: Option<Job<String>>,
    pub perft_lines: Vec<String>,
    pub message: Option<Message>,
    files: Vec<PathBuf>,
    /// The folder variants are opened from and saved to (`variants/`).
    pub dir: PathBuf,
}

impl RulesPanel {
    pub fn new(saved: RulesSaved) -> RulesPanel {
        let mut p = RulesPanel {
            saved,
            compiled: None,
            compile_job: None,
            stale: true,
            last_edit: f64::NEG_INFINITY,
            jump_to: None,
            confirm: None,
            perft_job: None,
            perft_lines: Vec::new(),
            message: None,
            files: Vec::new(),
            dir: PathBuf::from("variants"),
        };
        p.refresh_files();
        p
    }

    /// Re-reads the list of files in [`RulesPanel::dir`].
    pub fn refresh_files(&mut self) {
        self.files = files::list(&self.dir, "mg");
    }

    /// Whether the text differs from the file it came from.
    pub fn is_dirty(&self) -> bool {
        self.saved.text != self.saved.disk_text
    }

    pub fn is_busy(&self) -> bool {
        self.compile_job.is_some() || self.perft_job.is_some() || self.stale
    }

    /// Notes an edit at egui time `now`; compilation follows after a pause.
    pub fn mark_edited(&mut self, now: f64) {
        self.stale = true;
        self.last_edit = now;
    }

    /// The last successfully compiled variant, if the current text compiles.
    pub fn compiled_variant(&self) -> Option<&Variant> {
        self.compiled.as_ref().and_then(|c| c.variant.as_ref())
    }

    /// Loads a built-in variant's text (not tied to a file).
    pub fn load_builtin(&mut self, name: &str) {
        if let Some((n, src)) = murus_engine::BUILTIN.iter().find(|(n, _)| *n == name) {
            self.saved.text = src.to_string();
            self.saved.disk_text = src.to_string();
            self.saved.path = format!("variants/{n}.mg");
            self.mark_edited(f64::NEG_INFINITY);
        }
    }

    fn open(&mut self, path: &Path) {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                self.saved.text = text.clone();
                self.saved.disk_text = text;
                self.saved.path = path.display().to_string();
                self.mark_edited(f64::NEG_INFINITY);
                self.message = Some(Message::info(format!("opened {}", path.display())));
            }
            Err(e) => self.message = Some(Message::error(format!("{}: {e}", path.display()))),
        }
    }

    fn save_to(&mut self, path: PathBuf) {
        match files::write(&path, &self.saved.text) {
            Ok(done) => {
                self.saved.disk_text = self.saved.text.clone();
                self.saved.path = path.display().to_string();
                self.message = Some(done);
                self.refresh_files();
            }
            Err(e) => self.message = Some(e),
        }
    }

    fn request(&mut self, action: Pending) {
        if self.is_dirty() {
            self.confirm = Some(action);
        } else {
            self.run_pending(action);
        }
    }

    fn run_pending(&mut self, action: Pending) {
        match action {
            Pending::Open(p) => self.open(&p),
            Pending::Builtin(n) => self.load_builtin(&n),
            Pending::New => {
                self.saved.text.clear();
                self.saved.disk_text.clear();
                self.saved.path.clear();
                self.mark_edited(f64::NEG_INFINITY);
            }
        }
    }

    /// Collects compiler and perft results; starts a compilation when the
    /// text has been quiet for [`DEBOUNCE_S`].
    pub fn poll(&mut self, ctx: &egui::Context) {
        if let Some(job) = &mut self.compile_job {
            if let Some(done) = job.poll().pop() {
                self.compiled = Some(done);
                self.compile_job = None;
            } else if job.is_finished() {
                self.compile_job = None;
            }
        }
        if let Some(job) = &mut self.perft_job {
            self.perft_lines.extend(job.poll());
            if job.is_finished() {
                self.perft_job = None;
            }
        }
        if self.stale && self.compile_job.is_none() {
            let now = ctx.input(|i| i.time);
            if now - self.last_edit >= DEBOUNCE_S {
                self.stale = false;
                let source = self.saved.text.clone();
                let file = self.file_label();
                self.compile_job = Some(Job::spawn("murus-compile", ctx, move |r| {
                    r.send(compile(source, &file));
                }));
            } else {
                ctx.request_repaint_after(std::time::Duration::from_secs_f64(
                    DEBOUNCE_S - (now - self.last_edit) + 0.01,
                ));
            }
        }
    }

    fn file_label(&self) -> String {
        if self.saved.path.is_empty() {
            "untitled.mg".into()
        } else {
            self.saved.path.clone()
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut commands = Vec::new();
        self.confirm_dialog(ui);
        egui::Panel::top("rules-files").show(ui, |ui| self.file_bar(ui));
        egui::Panel::right("rules-preview")
            .default_size(360.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("rules-preview-scroll")
                    .show(ui, |ui| self.preview(ui, &mut commands));
            });
        egui::Panel::bottom("rules-diagnostics")
            .resizable(true)
            .default_size(150.0)
            .show(ui, |ui| self.diagnostics(ui));
        egui::CentralPanel::default().show(ui, |ui| self.editor(ui));
        commands
    }

    fn file_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            let dirty = if self.is_dirty() {
                " (unsaved changes)"
            } else {
                ""
            };
            ui.label(RichText::new(format!("{}{dirty}", self.file_label())).strong());
            ui.separator();
            let mut chosen = None;
            egui::ComboBox::from_label("Open from variants/")
                .selected_text("choose a file")
                .show_ui(ui, |ui| {
                    for f in &self.files {
                        let name = f
                            .file_name()
                            .map(|n| n.to_string_lossy().to_string())
                            .unwrap_or_default();
                        if ui.selectable_label(false, name).clicked() {
                            chosen = Some(f.clone());
                        }
                    }
                    if self.files.is_empty() {
                        ui.weak("no variants/ folder here");
                    }
                });
            if let Some(f) = chosen.take() {
                self.request(Pending::Open(f));
            }
            egui::ComboBox::from_label("Built-in")
                .selected_text("copy a built-in")
                .show_ui(ui, |ui| {
                    for (n, _) in murus_engine::BUILTIN {
                        if ui.selectable_label(false, *n).clicked() {
                            chosen = Some(PathBuf::from(n));
                        }
                    }
                });
            if let Some(n) = chosen {
                self.request(Pending::Builtin(n.display().to_string()));
            }
            if ui.button("New").clicked() {
                self.request(Pending::New);
            }
            let can_save = !self.saved.path.is_empty();
            if ui
                .add_enabled(can_save, egui::Button::new("Save"))
                .clicked()
            {
                self.save_to(PathBuf::from(&self.saved.path));
            }
            ui.add(
                egui::TextEdit::singleline(&mut self.saved.save_name)
                    .hint_text("file name in variants/")
                    .desired_width(120.0),
            );
            if ui.button("Save as").clicked() {
                match files::save_as_path(&self.dir, &self.saved.save_name, "mg", "my-variant.mg") {
                    Ok(path) => self.save_to(path),
                    Err(e) => self.message = Some(e),
                }
            }
            if self.is_dirty() && ui.button("Revert").clicked() {
                self.confirm = Some(Pending::Open(PathBuf::from(&self.saved.path)));
            }
        });
        if let Some(m) = &self.message {
            m.show(ui);
        }
    }

    fn confirm_dialog(&mut self, ui: &mut egui::Ui) {
        let Some(action) = self.confirm.clone() else {
            return;
        };
        let mut close = false;
        let mut run = false;
        egui::Modal::new(egui::Id::unique("rules-confirm")).show(ui.ctx(), |ui| {
            ui.heading("Unsaved changes");
            ui.label(format!(
                "{} has changes that are not saved. Discard them?",
                self.file_label()
            ));
            ui.horizontal(|ui| {
                if !self.saved.path.is_empty() && ui.button("Save, then continue").clicked() {
                    self.save_to(PathBuf::from(&self.saved.path));
                    run = !self.is_dirty();
                    close = true;
                }
                if ui.button("Discard changes").clicked() {
                    run = true;
                    close = true;
                }
                if ui.button("Keep editing").clicked() {
                    close = true;
                }
            });
        });
        if close {
            self.confirm = None;
        }
        if run {
            self.run_pending(action);
        }
    }

    fn editor(&mut self, ui: &mut egui::Ui) {
        let fresh = self
            .compiled
            .as_ref()
            .is_some_and(|c| c.source == self.saved.text);
        let marks: Vec<(Range<usize>, bool)> = if fresh {
            self.compiled
                .as_ref()
                .map(|c| c.diags.iter().map(|d| (d.span.clone(), d.error)).collect())
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let visuals = ui.visuals().clone();
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        let label = ui.label("Rule file");
        let id = egui::Id::unique("rules-editor");
        let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, _wrap: f32| {
            let job = syntax::highlight(buf.as_str(), &marks, &visuals, font.clone());
            ui.fonts_mut(|f| f.layout_job(job))
        };
        if let Some(byte) = self.jump_to {
            if let Some(mut state) = egui::TextEdit::load_state(ui.ctx(), id) {
                let text = &self.saved.text;
                let byte = byte.min(text.len());
                let chars = text.char_indices().take_while(|(i, _)| *i < byte).count();
                state
                    .cursor
                    .set_char_range(Some(CCursorRange::one(CCursor::new(chars))));
                state.store(ui.ctx(), id);
            }
            ui.memory_mut(|m| m.request_focus(id));
        }
        let gutter_font = font.clone();
        egui::ScrollArea::both()
            .id_salt("rules-editor-scroll")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.horizontal_top(|ui| {
                    let lines = self.saved.text.split('\n').count();
                    let digits = lines.to_string().len().max(2) as f32;
                    let gutter_w = digits * gutter_font.size * 0.62 + 8.0;
                    let (gutter, _) =
                        ui.allocate_exact_size(egui::vec2(gutter_w, 1.0), egui::Sense::hover());
                    let out = egui::TextEdit::multiline(&mut self.saved.text)
                        .id(id)
                        .code_editor()
                        .desired_width(f32::INFINITY)
                        .desired_rows(30)
                        .lock_focus(true)
                        .layouter(&mut layouter)
                        .show(ui);
                    let response = out.response.response.clone().labelled_by(label.id);
                    if response.changed() {
                        let now = ui.input(|i| i.time);
                        self.stale = true;
                        self.last_edit = now;
                    }
                    // Line numbers beside each paragraph's first row.
                    let painter = ui.painter();
                    let weak = ui.visuals().weak_text_color();
                    let mut n = 1;
                    let mut starts = true;
                    for row in &out.galley.rows {
                        if starts {
                            painter.text(
                                egui::pos2(gutter.right() - 4.0, out.galley_pos.y + row.pos.y),
                                egui::Align2::RIGHT_TOP,
                                n.to_string(),
                                gutter_font.clone(),
                                weak,
                            );
                            n += 1;
                        }
                        starts = row.ends_with_newline;
                    }
                    if let Some(byte) = self.jump_to.take() {
                        let text = &self.saved.text;
                        let chars = text
                            .char_indices()
                            .take_while(|(i, _)| *i < byte.min(text.len()))
                            .count();
                        let r = out.galley.pos_from_cursor(CCursor::new(chars));
                        let r = r.translate(out.galley_pos.to_vec2());
                        ui.scroll_to_rect(r.expand(40.0), Some(egui::Align::Center));
                    }
                });
            });
    }

    fn diagnostics(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.heading("Diagnostics");
            if self.stale || self.compile_job.is_some() {
                ui.spinner();
                ui.weak("compiling…");
            } else if let Some(c) = &self.compiled {
                ui.weak(format!("compiled in {:.1} ms", c.millis));
            }
        });
        let Some(c) = &self.compiled else {
            return;
        };
        let mut jump = None;
        egui::ScrollArea::vertical()
            .id_salt("rules-diag-scroll")
            .show(ui, |ui| {
                if c.diags.is_empty() {
                    ui.colored_label(theme::success(ui), "No problems: the file compiles.");
                }
                for d in &c.diags {
                    let colour = if d.error {
                        theme::error(ui)
                    } else {
                        theme::warning(ui)
                    };
                    let r = ui
                        .add(egui::Button::new(RichText::new(d.title()).color(colour)).frame(false))
                        .on_hover_text(RichText::new(&d.rendered).monospace());
                    if r.clicked() {
                        jump = Some(d.span.start);
                    }
                }
            });
        if jump.is_some() {
            self.jump_to = jump;
        }
    }

    fn preview(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        ui.heading("Start position");
        let Some(v) = self.compiled_variant().cloned() else {
            ui.weak("fix the errors to see the board");
            return;
        };
        let r = v.rules();
        ui.label(format!(
            "{} — {} cells, {} players, stack limit {}",
            r.title,
            r.geometry.cell_count(),
            r.players.len(),
            r.stack_limit
        ));
        let start = v.start();
        let stacks = board::stacks_of(&v, &start);
        let colours = board::player_colours(r);
        ui.allocate_ui(egui::vec2(ui.available_width(), 300.0), |ui| {
            board::show(
                ui,
                &Scene {
                    id_salt: "rules-preview",
                    geometry: v.geometry(),
                    stacks: &stacks,
                    colours: &colours,
                    flipped: false,
                    selected: None,
                    targets: &[],
                    last_move: &[],
                    marks: &[],
                    max_cell: 40.0,
                },
            );
        });
        ui.label(format!("{} legal first moves", v.legal_moves(&start).len()));
        if ui.button("Play this variant").clicked() {
            commands.push(Command::PlayVariant(v.clone()));
        }
        ui.separator();
        ui.heading("Perft");
        ui.horizontal(|ui| {
            ui.add(
                egui::DragValue::new(&mut self.saved.perft_depth)
                    .range(1..=6)
                    .prefix("depth "),
            );
            if self.perft_job.is_some() {
                ui.spinner();
                if ui.button("Cancel perft").clicked()
                    && let Some(j) = &self.perft_job
                {
                    j.cancel();
                }
            } else if ui.button("Run perft").clicked() {
                self.perft_lines.clear();
                let depth = self.saved.perft_depth;
                let v = v.clone();
                self.perft_job = Some(Job::spawn("murus-perft", ui.ctx(), move |rep| {
                    let start = v.start();
                    for d in 1..=depth {
                        if rep.cancelled() {
                            rep.send("cancelled".into());
                            return;
                        }
                        let t = Instant::now();
                        let n = v.perft(&start, d);
                        rep.send(format!(
                            "perft {d}: {n} ({:.1} ms)",
                            t.elapsed().as_secs_f64() * 1e3
                        ));
                    }
                }));
            }
        });
        for l in &self.perft_lines {
            ui.monospace(l);
        }
    }
}
