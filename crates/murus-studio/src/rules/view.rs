//! Drawing the Rules panel and turning clicks and keys into [`Action`]s.

use egui::RichText;
use egui::text::{CCursor, CCursorRange};
use murus_engine::Variant;

use super::{Action, FileAction, MAX_PERFT_DEPTH, RulesPanel};
use crate::board;
use crate::lab::controls::{JobButtons, Pressed};
use crate::{Command, Message, dialog, layout, syntax, theme};

/// The height of the start position's board (points), whatever the board.
const PREVIEW_HEIGHT: f32 = 300.0;

/// The shortcut that saves the file.
const SAVE_SHORTCUT: egui::KeyboardShortcut =
    egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::S);

impl RulesPanel {
    /// Draws the panel; what the user asked for is done after the frame,
    /// and what the app must do (play a variant, pick a file) comes back.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut actions = Vec::new();
        let mut question = self.model.question().cloned();
        let asking = question.is_some();
        if let Some(answer) = dialog::show(ui.ctx(), "rules", &mut question) {
            actions.push(Action::Answer(answer));
        }
        if !asking && ui.input_mut(|i| i.consume_shortcut(&SAVE_SHORTCUT)) {
            actions.push(Action::Save);
        }
        egui::Panel::top("rules-files").show(ui, |ui| self.file_bar(ui, &mut actions));
        egui::Panel::right("rules-preview")
            .default_size(360.0)
            .min_size(280.0)
            .show(ui, |ui| {
                // The panel keeps its width whatever it shows: an error
                // must not shrink it to the width of one line.
                egui::ScrollArea::vertical()
                    .id_salt("rules-preview-scroll")
                    .auto_shrink([false, true])
                    .show(ui, |ui| self.preview(ui, &mut actions));
            });
        egui::Panel::bottom("rules-diagnostics")
            .resizable(true)
            .default_size(150.0)
            .show(ui, |ui| {
                // A clicked diagnostic moves the cursor in this frame's
                // editor.
                if let Some(byte) = self.diagnostics(ui) {
                    self.jump_to = Some(byte);
                }
            });
        egui::CentralPanel::default().show(ui, |ui| self.editor(ui, &mut actions));
        let mut commands = Vec::new();
        for a in actions {
            self.apply(a, &mut commands);
        }
        commands
    }

    fn file_bar(&self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        let m = &self.model;
        let e = m.editor();
        layout::reserved(ui, 1.0, |ui| {
            let dirty = if e.is_dirty() {
                " (unsaved changes)"
            } else {
                ""
            };
            ui.add(
                egui::Label::new(RichText::new(format!("{}{dirty}", e.title())).strong())
                    .truncate(),
            );
        });
        ui.horizontal_wrapped(|ui| {
            let mut chosen = None;
            egui::ComboBox::from_label("Your variants")
                .selected_text("open a file")
                .show_ui(ui, |ui| {
                    for f in m.shelf().files() {
                        let name = f
                            .file_name()
                            .map(|n| n.to_string_lossy().to_string())
                            .unwrap_or_default();
                        if ui
                            .selectable_label(false, name)
                            .on_hover_text(f.display().to_string())
                            .clicked()
                        {
                            chosen = Some(FileAction::Open(f.clone()));
                        }
                    }
                    if m.shelf().files().is_empty() {
                        ui.weak(format!(
                            "none yet: Save as… puts them in {}",
                            m.shelf().dir().display()
                        ));
                    }
                });
            if ui
                .button("Open…")
                .on_hover_text("open a rules file anywhere")
                .clicked()
            {
                actions.push(Action::OpenDialog);
            }
            egui::ComboBox::from_label("Shipped")
                .selected_text("copy a shipped variant")
                .show_ui(ui, |ui| {
                    for (n, _) in murus_engine::BUILTIN {
                        if ui.selectable_label(false, *n).clicked() {
                            chosen = Some(FileAction::CopyBuiltin(n.to_string()));
                        }
                    }
                });
            if ui.button("New").clicked() {
                chosen = Some(FileAction::New);
            }
            if let Some(action) = chosen {
                actions.push(Action::File(action));
            }
            let save_hint = if e.path().is_some() {
                "save to the file (Ctrl+S)"
            } else {
                "untitled: asks where to save it (Ctrl+S)"
            };
            if ui.button("Save").on_hover_text(save_hint).clicked() {
                actions.push(Action::Save);
            }
            if ui
                .button("Save as…")
                .on_hover_text("save to another file, which the text belongs to from then on")
                .clicked()
            {
                actions.push(Action::SaveAs);
            }
            // Shown disabled rather than hidden, so that the row never rewraps.
            if ui
                .add_enabled(e.is_dirty(), egui::Button::new("Revert"))
                .clicked()
            {
                actions.push(Action::File(FileAction::Revert));
            }
            if ui
                .button("Rules sheet…")
                .on_hover_text(
                    "a printable page (HTML): the rules in words, the start and a figure \
                     of each kind of move, found and drawn by Murus",
                )
                .clicked()
            {
                actions.push(Action::Sheet);
            }
        });
        // Room for two rows of message, shown or not, so that the editor
        // below never moves.
        layout::reserved(ui, 2.0, |ui| {
            if let Some(status) = m.sheet().status() {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(status);
                });
            } else if let Some(msg) = m.feedback().current() {
                msg.show_rows(ui, 2);
            }
        });
    }

    fn editor(&mut self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        let marks = self
            .model
            .editor()
            .fresh()
            .map(super::Compiled::marks)
            .unwrap_or_default();
        let visuals = ui.visuals().clone();
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        let label = ui.label("Rule file");
        let id = egui::Id::unique("rules-editor");
        let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, _wrap: f32| {
            let job = syntax::highlight(buf.as_str(), &marks, &visuals, font.clone());
            ui.fonts_mut(|f| f.layout_job(job))
        };
        if let Some(byte) = self.jump_to {
            let mut state = egui::TextEdit::load_state(ui.ctx(), id).unwrap_or_default();
            let chars = char_index(self.model.editor().text(), byte);
            state
                .cursor
                .set_char_range(Some(CCursorRange::one(CCursor::new(chars))));
            state.store(ui.ctx(), id);
        }
        let gutter_font = font.clone();
        egui::ScrollArea::both()
            .id_salt("rules-editor-scroll")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.horizontal_top(|ui| {
                    let lines = self.model.editor().text().split('\n').count();
                    let digits = lines.to_string().len().max(2) as f32;
                    let gutter_w = digits * gutter_font.size * 0.62 + 8.0;
                    let (gutter, _) =
                        ui.allocate_exact_size(egui::vec2(gutter_w, 1.0), egui::Sense::hover());
                    let out = egui::TextEdit::multiline(self.model.editor_mut().text_mut())
                        .id(id)
                        .code_editor()
                        .desired_width(f32::INFINITY)
                        .desired_rows(30)
                        .lock_focus(true)
                        .layouter(&mut layouter)
                        .show(ui);
                    let response = out.response.response.clone().labelled_by(label.id);
                    if response.changed() {
                        actions.push(Action::Edited(ui.input(|i| i.time)));
                    }
                    // The rendered diagnostic over its underlined span.
                    if let Some(pos) = response.hover_pos()
                        && let Some(c) = char_under(&out.galley, pos - out.galley_pos)
                        && let Some(d) = self.model.editor().fresh().and_then(|f| {
                            f.diagnostic_at(byte_index(self.model.editor().text(), c))
                        })
                    {
                        let rendered = d.rendered.clone();
                        response.on_hover_ui_at_pointer(|ui| {
                            ui.label(RichText::new(rendered).monospace());
                        });
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
                        let chars = char_index(self.model.editor().text(), byte);
                        let r = out.galley.pos_from_cursor(CCursor::new(chars));
                        let r = r.translate(out.galley_pos.to_vec2());
                        ui.scroll_to_rect(r.expand(40.0), Some(egui::Align::Center));
                        // Focus once the editor has seen this frame's click
                        // (on the diagnostic): asked before, the click
                        // elsewhere would take it away again, and the next
                        // key would be lost.
                        ui.memory_mut(|m| m.request_focus(id));
                    }
                });
            });
    }

    /// The diagnostics list; returns the byte of the one clicked.
    fn diagnostics(&self, ui: &mut egui::Ui) -> Option<usize> {
        ui.horizontal(|ui| {
            ui.heading("Diagnostics");
            if self.model.editor().is_compiling() {
                ui.spinner();
                ui.weak("compiling…");
            } else if let Some(c) = self.model.editor().compiled() {
                ui.weak(format!("compiled in {:.1} ms", c.millis));
            }
        });
        let c = self.model.editor().compiled()?;
        let mut jump = None;
        egui::ScrollArea::vertical()
            .id_salt("rules-diag-scroll")
            .auto_shrink([false, true])
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
                        .add(
                            egui::Button::new(RichText::new(d.title()).color(colour))
                                .frame(false)
                                .wrap(),
                        )
                        .on_hover_text(RichText::new(&d.rendered).monospace());
                    if r.clicked() {
                        jump = Some(d.span.start);
                    }
                }
            });
        jump
    }

    fn preview(&self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        ui.heading("Start position");
        let variant = self.model.editor().compiled_variant().cloned();
        self.start_and_perft(ui, variant.as_ref(), actions);
        ui.separator();
        self.train_bot(ui, actions);
    }

    /// The start position, its buttons and perft. Every part keeps its
    /// size whether the rules compile or not (the board's area stays,
    /// empty; the buttons stay, disabled), so that rules that stop
    /// compiling move nothing.
    fn start_and_perft(&self, ui: &mut egui::Ui, v: Option<&Variant>, actions: &mut Vec<Action>) {
        layout::reserved(ui, 1.0, |ui| match v {
            Some(v) => {
                let r = v.rules();
                ui.add(
                    egui::Label::new(format!(
                        "{} — {} cells, {} players, stack limit {}",
                        r.title,
                        r.geometry.cell_count(),
                        r.players.len(),
                        r.stack_limit
                    ))
                    .truncate(),
                );
            }
            None => {
                ui.weak("fix the errors to see the board");
            }
        });
        let start = v.map(Variant::start);
        layout::reserved_height(ui, PREVIEW_HEIGHT, |ui| {
            if let (Some(v), Some(start)) = (v, &start) {
                board::preview(ui, "rules-preview", v, start, 40.0);
            }
        });
        layout::reserved(ui, 1.0, |ui| {
            if let (Some(v), Some(start)) = (v, &start) {
                ui.label(format!(
                    "{} legal first moves",
                    murus_lab::text::grouped(v.legal_moves(start).len() as u64)
                ));
            }
        });
        ui.horizontal(|ui| {
            if ui
                .add_enabled(v.is_some(), egui::Button::new("Play this variant"))
                .clicked()
                && let Some(v) = v
            {
                actions.push(Action::Play(v.clone()));
            }
            if ui
                .add_enabled(v.is_some(), egui::Button::new("Report"))
                .on_hover_text("the designer's report of these rules, made in the Lab")
                .clicked()
                && let Some(v) = v
            {
                actions.push(Action::Report(v.clone()));
            }
            if ui
                .add_enabled(v.is_some(), egui::Button::new("Share for playtesting…"))
                .on_hover_text(
                    "a game of these rules for people in their browsers: a link a seat, \
                     through a playtest server",
                )
                .clicked()
                && let Some(v) = v
            {
                actions.push(Action::Share(v.clone()));
            }
        });
        ui.separator();
        ui.heading("Perft");
        ui.horizontal(|ui| {
            let mut depth = self.model.perft().depth();
            ui.add(
                egui::DragValue::new(&mut depth)
                    .range(1..=MAX_PERFT_DEPTH)
                    .prefix("depth "),
            );
            if depth != self.model.perft().depth() {
                actions.push(Action::SetPerftDepth(depth));
            }
            if self.model.perft().is_running() {
                ui.spinner();
                if ui.button("Cancel perft").clicked() {
                    actions.push(Action::CancelPerft);
                }
            } else if ui
                .add_enabled(v.is_some(), egui::Button::new("Run perft"))
                .clicked()
            {
                actions.push(Action::RunPerft);
            }
        });
        // A line a depth, and "cancelled": room for all of them.
        layout::reserved(ui, MAX_PERFT_DEPTH as f32 + 1.0, |ui| {
            for l in self.model.perft().lines(v) {
                ui.monospace(l);
            }
        });
    }

    /// "Train bot": the options, the start (or resume) button, the run's
    /// progress and Cancel, and how the last run of this text ended.
    fn train_bot(&self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        ui.heading("Train bot");
        let m = &self.model;
        let t = m.training();
        let key = m.editor().rules_key();
        let running = t.is_running();
        let mut settings = t.settings().clone();
        ui.add_enabled_ui(!running, |ui| {
            let s = &mut settings;
            ui.horizontal_wrapped(|ui| {
                let l = ui.label("Positions");
                ui.add(
                    egui::DragValue::new(&mut s.positions)
                        .range(1..=100_000_000)
                        .speed(100.0),
                )
                .labelled_by(l.id);
                let l = ui.label("Threads");
                ui.add(egui::DragValue::new(&mut s.threads).range(1..=256))
                    .labelled_by(l.id);
                let l = ui.label("Seed");
                ui.add(egui::DragValue::new(&mut s.seed)).labelled_by(l.id);
            });
            ui.checkbox(&mut s.validate, "Validate against the current evaluation")
                .on_hover_text(
                    "keep a candidate only if it wins a match against the evaluation bots use now; \
                     off, the network is kept as fitted",
                );
        });
        if settings != *t.settings() {
            actions.push(Action::SetTrainSettings(settings));
        }
        // The start and Cancel side by side, each always in its place
        // (issue 38: Cancel turned into the start button under the
        // pointer); the progress in a row of its own height.
        let why = t.why_not(m.editor().fresh_variant());
        let label = t.label(key);
        let buttons = JobButtons {
            start: &label,
            start_hover: "plays self-play games of these rules, fits an evaluation to them, and keeps it \
                          (if it plays better than the current one, when validated)",
            cancel: "Cancel training",
            resume: None,
            running,
            cancelling: t.is_cancelling(),
            resumable: false,
            busy: why,
            cancel_first: true,
        };
        match buttons.show(ui) {
            Some(Pressed::Start) => actions.push(Action::StartTraining),
            Some(Pressed::Cancel) => actions.push(Action::CancelTraining),
            _ => {}
        }
        layout::reserved_height(ui, ui.spacing().interact_size.y, |ui| {
            if let Some(status) = t.status().filter(|_| running) {
                ui.add(egui::ProgressBar::new(status.fraction).text(status.text));
            }
        });
        layout::reserved(ui, 1.0, |ui| {
            if running && t.running_key() != key {
                ui.weak(format!(
                    "training {} as the rules were when it started: the rules changed since",
                    t.running_variant().unwrap_or("the variant")
                ));
            }
        });
        if let Some(end) = t.outcome(key) {
            let msg = Message {
                tone: end.tone,
                text: end.text(),
            };
            msg.show(ui);
        }
        match t
            .found(key)
            .map(|f| (f.folder.display().to_string(), &f.data))
        {
            Some((folder, data)) => {
                if let Err(e) = data {
                    Message::error(format!("cannot read the training data: {e}")).show(ui);
                }
                // Elided, the label shows the whole path on hover by itself.
                ui.add(
                    egui::Label::new(RichText::new(format!("kept in {folder}")).weak()).truncate(),
                );
            }
            None => {
                ui.weak("kept in the training folder");
            }
        }
    }
}

/// The index of the character at byte `byte` of `text` (the end for a
/// byte past it).
fn char_index(text: &str, byte: usize) -> usize {
    text.char_indices().take_while(|(i, _)| *i < byte).count()
}

/// The byte where character `c` of `text` starts.
fn byte_index(text: &str, c: usize) -> usize {
    text.char_indices().nth(c).map_or(text.len(), |(b, _)| b)
}

/// The index of the character drawn under `pos` (relative to the galley),
/// if the point is on one.
fn char_under(galley: &egui::Galley, pos: egui::Vec2) -> Option<usize> {
    let mut first = 0;
    for row in &galley.rows {
        if row.min_y() <= pos.y && pos.y < row.max_y() {
            let x = pos.x - row.pos.x;
            return row
                .glyphs
                .iter()
                .position(|g| {
                    let r = g.logical_rect();
                    r.min.x <= x && x < r.max.x
                })
                .map(|i| first + i);
        }
        first += row.char_count_including_newline().0;
    }
    None
}
