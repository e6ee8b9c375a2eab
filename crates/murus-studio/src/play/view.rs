//! Drawing the Play panel and turning clicks and keys into model actions.

use egui::{Key, KeyboardShortcut, Modifiers, Pos2, Rect, RichText};
use murus_engine::{Move, Phase, Variant};

use super::analysis_view::BAR_WIDTH;
use super::{PlayPanel, SEAT_CHOICES, Seat};
use crate::board::{self, Notes, Scene};
use crate::dialog::{self, Answer};
use crate::training::{TRAINED_LABEL, TrainedBots};
use crate::{Command, layout, theme};

/// Height of the status line (turn, thinking bot, or result banner).
const STATUS_HEIGHT: f32 = 44.0;
/// Text rows kept under the seats for a spec that does not parse.
const SEAT_ERROR_ROWS: f32 = 3.0;

/// What the keyboard asked for this frame.
#[derive(Clone, Copy, Debug, Default)]
struct Keys {
    undo: bool,
    redo: bool,
    back: bool,
    forward: bool,
}

impl Keys {
    /// Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y, ← and →; none while a text field has
    /// focus (it keeps them for its own undo and cursor).
    fn read(ctx: &egui::Context) -> Keys {
        if ctx.text_edit_focused() {
            return Keys::default();
        }
        ctx.input_mut(|i| {
            // Most specific first: Ctrl+Shift+Z also matches Ctrl+Z.
            let redo = i.consume_shortcut(&KeyboardShortcut::new(
                Modifiers::COMMAND | Modifiers::SHIFT,
                Key::Z,
            )) | i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::Y));
            let undo = i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::Z));
            Keys {
                undo,
                redo,
                back: i.consume_key(Modifiers::NONE, Key::ArrowLeft),
                forward: i.consume_key(Modifiers::NONE, Key::ArrowRight),
            }
        })
    }
}

impl PlayPanel {
    /// Draws the panel and returns commands for the app.
    /// Draws the panel; `trained` finds the trained bot of the variant
    /// played, offered in the seat menus.
    pub fn ui(&mut self, ui: &mut egui::Ui, trained: &mut TrainedBots) -> Vec<Command> {
        if let Some(Answer::Go(replace)) = dialog::show(ui.ctx(), "play-replace", &mut self.pending)
        {
            self.replace(replace);
        }
        if self.pending.is_none() && self.model.setup().is_none() {
            let keys = Keys::read(ui.ctx());
            if keys.undo {
                self.model.undo();
            }
            if keys.redo {
                self.model.redo();
            }
            if keys.back {
                self.model.back();
            }
            if keys.forward {
                self.model.forward();
            }
        }
        self.sync_seat_text();
        if self.position_shown != Some(*self.model.game().position()) {
            self.position_shown = Some(*self.model.game().position());
            self.position_text = self
                .model
                .variant()
                .position_string(self.model.game().position());
        }
        let trained = trained.spec_for_variant(self.model.variant());
        egui::Panel::left("play-controls")
            .default_size(230.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.controls(ui, trained.as_deref()));
            });
        egui::Panel::right("play-moves")
            .default_size(260.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.side(ui));
            });
        egui::CentralPanel::default().show(ui, |ui| self.centre(ui));
        Vec::new()
    }

    fn controls(&mut self, ui: &mut egui::Ui, trained: Option<&str>) {
        let v = self.model.variant().clone();
        ui.heading("Game");
        ui.add(egui::Label::new(format!("Variant: {}", v.rules().title)).wrap());
        ui.horizontal_wrapped(|ui| {
            for (name, src) in murus_engine::BUILTIN {
                if ui
                    .selectable_label(v.name() == *name, *name)
                    .on_hover_text(format!("new game of {name}"))
                    .clicked()
                    && let Ok(variant) = Variant::compile(src)
                {
                    self.request_variant(variant);
                }
            }
        });
        ui.separator();
        self.seats(ui, &v, trained);
        ui.separator();
        let in_setup = self.model.setup().is_some();
        ui.add_enabled_ui(!in_setup, |ui| self.game_buttons(ui, &v));
        ui.separator();
        ui.heading("Set-up");
        if in_setup {
            self.setup_controls(ui, &v);
        } else if ui.button("Set up a position").clicked() {
            self.model.start_setup();
        }
    }

    /// The seat menus and fields; `trained` is the spec of the trained bot
    /// of `v`, offered as [`TRAINED_LABEL`].
    fn seats(&mut self, ui: &mut egui::Ui, v: &Variant, trained: Option<&str>) {
        ui.heading("Seats");
        let mut errors = Vec::new();
        for p in 0..v.player_count() {
            let name = v.rules().players[p].name.as_str();
            let colour = board::colour(v.rules().players[p].colour);
            let label = ui
                .horizontal(|ui| {
                    let (r, painter) =
                        ui.allocate_painter(egui::vec2(12.0, 12.0), egui::Sense::hover());
                    painter.circle_filled(r.rect.center(), 6.0, colour);
                    let label = ui.label(name);
                    let mut chosen = None;
                    let shown = match trained {
                        Some(t) if self.seat_text[p] == t => TRAINED_LABEL,
                        _ => self.seat_text[p].as_str(),
                    };
                    egui::ComboBox::from_id_salt(("seat", p))
                        .selected_text(shown)
                        // Room for every choice, the trained bot's too,
                        // without scrolling.
                        .height(320.0)
                        .show_ui(ui, |ui| {
                            for c in SEAT_CHOICES {
                                if ui.selectable_label(self.seat_text[p] == c, c).clicked() {
                                    chosen = Some(c);
                                }
                            }
                            if let Some(t) = trained
                                && ui
                                    .selectable_label(self.seat_text[p] == t, TRAINED_LABEL)
                                    .on_hover_text(t)
                                    .clicked()
                            {
                                chosen = Some(t);
                            }
                        })
                        .response
                        .labelled_by(label.id);
                    if let Some(c) = chosen
                        && let Ok(seat) = c.parse()
                    {
                        self.seat_text[p] = c.to_string();
                        self.model.set_seat(p, seat);
                    }
                    label
                })
                .inner;
            let field = ui
                .add(
                    egui::TextEdit::singleline(&mut self.seat_text[p])
                        .hint_text("human or a bot spec")
                        .desired_width(f32::INFINITY),
                )
                .labelled_by(label.id)
                .on_hover_text(
                    "human, random, greedy, alphabeta:N, mcts:N, mcts-guided:N, easy, medium, hard, expert, or ugi:COMMAND for an external engine",
                );
            match self.seat_text[p].parse::<Seat>() {
                Ok(seat) if field.changed() => self.model.set_seat(p, seat),
                Ok(_) => {}
                Err(e) => errors.push(format!("{name}: {e}")),
            }
        }
        // Room for an error whether or not there is one, so that nothing
        // below moves while a spec is typed.
        layout::reserved(ui, SEAT_ERROR_ROWS, |ui| {
            if !errors.is_empty() {
                let text = errors.join("\n");
                ui.add(egui::Label::new(RichText::new(&text).color(theme::error(ui))).wrap())
                    .on_hover_text(text);
            }
        });
        let mut paused = self.model.is_paused();
        if ui.checkbox(&mut paused, "Pause bots").changed() {
            self.model.set_paused(paused);
        }
    }

    fn game_buttons(&mut self, ui: &mut egui::Ui, v: &Variant) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("New game").clicked() {
                self.model.new_game();
            }
            if ui
                .add_enabled(self.model.game().ply() > 0, egui::Button::new("Undo"))
                .on_hover_text("Ctrl+Z; ← steps back one ply")
                .clicked()
            {
                self.model.undo();
            }
            if ui
                .add_enabled(!self.model.at_end_of_line(), egui::Button::new("Redo"))
                .on_hover_text("Ctrl+Shift+Z or Ctrl+Y; → steps forward one ply")
                .clicked()
            {
                self.model.redo();
            }
            if ui.button("Flip board").clicked() {
                self.flipped = !self.flipped;
            }
        });
        if matches!(v.rules().opening, murus_dsl::rules::Opening::Pie { .. }) {
            let legal = self.model.game().legal_moves().contains(&Move::SWAP);
            if ui
                .add_enabled(legal, egui::Button::new("Swap (pie rule)"))
                .clicked()
            {
                self.model.play(Move::SWAP);
            }
        }
        ui.horizontal(|ui| {
            let field = ui.add(
                egui::TextEdit::singleline(&mut self.move_text)
                    .hint_text("type a move, e.g. a1-a3")
                    .desired_width(120.0),
            );
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            if (ui.button("Play move").clicked() || entered)
                && self.model.play_text(&self.move_text)
            {
                self.move_text.clear();
            }
            if entered {
                // Ready for the next move.
                field.request_focus();
            }
        });
    }

    fn setup_controls(&mut self, ui: &mut egui::Ui, v: &Variant) {
        let Some(edit) = self.model.setup() else {
            return;
        };
        let setup = edit.setup().clone();
        let mut brush = edit.brush();
        let can_start = edit.position().is_some();
        ui.label("Click cells to paint; right-click erases.");
        // The buttons come first: the list of problems below changes length
        // as cells are painted and must not move them.
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(can_start, egui::Button::new("Start from this set-up"))
                .clicked()
            {
                self.model.finish_setup();
            }
            if ui.button("Cancel set-up").clicked() {
                self.model.cancel_setup();
            }
        });
        if self.model.setup().is_none() {
            return;
        }
        let before = brush;
        ui.radio_value(&mut brush, None, "Brush: erase");
        for p in 0..v.player_count() {
            ui.horizontal_wrapped(|ui| {
                for h in 1..=v.rules().stack_limit {
                    let label = format!("{} {}", v.rules().players[p].name, board::height_name(h));
                    ui.radio_value(&mut brush, Some((p, h)), label);
                }
            });
        }
        if brush != before {
            self.model.set_brush(brush);
        }
        let names = board::player_names(v.rules());
        let mut turn = setup.turn();
        egui::ComboBox::from_label("Side to move")
            .selected_text(names.get(turn).map_or("?", String::as_str))
            .show_ui(ui, |ui| {
                for (p, name) in names.iter().enumerate() {
                    ui.selectable_value(&mut turn, p, name.as_str());
                }
            });
        if turn != setup.turn() {
            self.model.set_setup_turn(turn);
        }
        if matches!(v.rules().opening, murus_dsl::rules::Opening::Pie { .. }) {
            let mut phase = setup.phase();
            egui::ComboBox::from_label("Pie phase")
                .selected_text(phase.pie_word().unwrap_or("normal play"))
                .show_ui(ui, |ui| {
                    for ph in [
                        Phase::Normal,
                        Phase::PieOpen,
                        Phase::PieReply,
                        Phase::PieSwapped,
                    ] {
                        ui.selectable_value(&mut phase, ph, ph.pie_word().unwrap_or("normal play"));
                    }
                });
            if phase != setup.phase() {
                self.model.set_setup_phase(phase);
            }
        }
        if v.player_count() > 2 {
            ui.horizontal_wrapped(|ui| {
                ui.label("Eliminated:");
                for (p, name) in names.iter().enumerate() {
                    let mut out = setup.is_out(p);
                    if ui.checkbox(&mut out, name.as_str()).changed() {
                        self.model.set_setup_out(p, out);
                    }
                }
            });
        }
        ui.horizontal_wrapped(|ui| {
            if ui.button("Clear board").clicked() {
                self.model.clear_setup();
            }
            if ui.button("Start position").clicked() {
                self.model.reset_setup();
            }
        });
        let Some(edit) = self.model.setup() else {
            return;
        };
        if edit.problems().is_empty() {
            ui.colored_label(theme::success(ui), "Set-up is legal");
        }
        for p in edit.problems() {
            ui.add(
                egui::Label::new(
                    RichText::new(format!("error: {}", p.message())).color(theme::error(ui)),
                )
                .wrap(),
            );
        }
        for n in edit.notes() {
            ui.add(
                egui::Label::new(RichText::new(format!("warning: {n}")).color(theme::warning(ui)))
                    .wrap(),
            );
        }
    }

    fn side(&mut self, ui: &mut egui::Ui) {
        ui.heading("Moves");
        layout::reserved(ui, 1.0, |ui| {
            if let Some(b) = self.model.last_bot() {
                ui.add(egui::Label::new(RichText::new(b).weak()).truncate())
                    .on_hover_text(b);
            }
        });
        self.move_list(ui);
        ui.separator();
        self.analysis_section(ui);
        ui.separator();
        ui.heading("Position");
        code_field(ui, &mut self.position_text, "position string", 2);
        ui.horizontal_wrapped(|ui| {
            if ui.button("Copy position").clicked() {
                let v = self.model.variant();
                ui.ctx()
                    .copy_text(v.position_string(self.model.game().position()));
            }
            // The text stays as typed when it is wrong, so it can be fixed.
            if ui.button("Load position").clicked() {
                let text = self.position_text.clone();
                self.model.load_position(&text);
            }
        });
        ui.separator();
        ui.heading("Record");
        ui.add(
            egui::TextEdit::singleline(&mut self.record_path)
                .hint_text("record file")
                .desired_width(f32::INFINITY),
        );
        ui.horizontal_wrapped(|ui| {
            if ui.button("Save record").clicked() {
                let path = std::path::PathBuf::from(&self.record_path);
                self.model.save_record(&path);
            }
            if ui.button("Open record").clicked() {
                let path = std::path::PathBuf::from(&self.record_path);
                self.model.open_record(&path);
            }
        });
        code_field(ui, &mut self.record_text, "paste a record (JSON) here", 3);
        ui.horizontal_wrapped(|ui| {
            if ui.button("Load record text").clicked() {
                let text = self.record_text.clone();
                self.model.load_record(&text);
            }
            if ui.button("Copy record").clicked() {
                ui.ctx().copy_text(self.model.game().record().to_json());
            }
        });
    }

    /// The whole line: played moves, then the moves ahead (greyed); a click
    /// jumps to the ply after the move clicked.
    fn move_list(&mut self, ui: &mut egui::Ui) {
        let ply = self.model.game().ply();
        let line = self.model.line_texts();
        let scroll_to_current = self.list_ply != Some(ply);
        self.list_ply = Some(ply);
        let blunders: Vec<usize> = self
            .analysis
            .review(&self.model)
            .map(|r| r.blunders().iter().map(|b| b.index).collect())
            .unwrap_or_default();
        let error = theme::error(ui);
        let mut jump = None;
        egui::ScrollArea::vertical()
            .id_salt("move-list")
            .max_height(220.0)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                if line.is_empty() {
                    ui.weak("no moves yet");
                    return;
                }
                let start = ui.selectable_label(ply == 0, "start");
                if start.clicked() {
                    jump = Some(0);
                }
                for (i, text) in line.into_iter().enumerate() {
                    let blunder = blunders.contains(&i);
                    let text = if blunder { format!("{text} ??") } else { text };
                    let text = if i < ply {
                        RichText::new(text)
                    } else {
                        RichText::new(text).weak()
                    };
                    let text = if blunder { text.color(error) } else { text };
                    let r = ui.selectable_label(i + 1 == ply, text);
                    if r.clicked() {
                        jump = Some(i + 1);
                    }
                    if scroll_to_current && i + 1 == ply {
                        r.scroll_to_me(None);
                    }
                }
            });
        if let Some(to) = jump {
            self.model.jump_to(to);
        }
    }

    fn centre(&mut self, ui: &mut egui::Ui) {
        layout::reserved_height(ui, STATUS_HEIGHT, |ui| self.status(ui));
        let prompt = 2.0 * ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
        layout::reserved_height(ui, prompt, |ui| self.prompt(ui));
        if !self.analysis.is_on() {
            self.board(ui);
            return;
        }
        // The evaluation bar on the left, as tall as the board.
        let avail = ui.available_rect_before_wrap();
        let gap = ui.spacing().item_spacing.x;
        let board_rect = Rect::from_min_max(
            Pos2::new(avail.min.x + BAR_WIDTH + gap, avail.min.y),
            avail.max,
        );
        let used = ui
            .scope_builder(egui::UiBuilder::new().max_rect(board_rect), |ui| {
                self.board(ui);
            })
            .response
            .rect;
        let bar = Rect::from_min_size(
            Pos2::new(avail.min.x, used.min.y),
            egui::vec2(BAR_WIDTH, used.height().max(40.0)),
        );
        self.eval_bar(ui, bar);
    }

    /// The result banner, the thinking bot, or whose turn it is.
    fn status(&mut self, ui: &mut egui::Ui) {
        let m = &self.model;
        let v = m.variant();
        if let Some(o) = m.game().outcome() {
            egui::Frame::new()
                .fill(theme::banner(ui))
                .inner_margin(8.0)
                .corner_radius(4.0)
                .show(ui, |ui| {
                    ui.add(
                        egui::Label::new(
                            RichText::new(v.describe_outcome(o))
                                .size(18.0)
                                .color(theme::on_banner(ui))
                                .strong(),
                        )
                        .truncate(),
                    );
                });
            return;
        }
        if m.setup().is_some() {
            ui.label(RichText::new("Set-up mode").strong());
            return;
        }
        let mut play_on = false;
        ui.horizontal_wrapped(|ui| {
            if let (Some(t), Some(b)) = (m.thinking(), &self.bot) {
                ui.spinner();
                ui.label(format!(
                    "{} ({}) is thinking… {:.1} s",
                    m.player_name(t.player),
                    t.spec,
                    b.job.started.elapsed().as_secs_f32()
                ));
                if ui.button("Move now").clicked() {
                    b.job.cancel();
                }
                return;
            }
            let turn = m.turn();
            ui.label(format!("{} to move (ply {})", m.player_name(turn), m.game().ply() + 1));
            let bot_to_move = matches!(m.seat_of_player(turn), Seat::Bot(_));
            if !m.at_end_of_line() {
                ui.weak(format!("· viewing ply {} of {}", m.game().ply(), m.line_len()));
                if bot_to_move {
                    let drop = m.line_len() - m.game().ply();
                    play_on = ui
                        .button("Play on from here")
                        .on_hover_text(format!(
                            "bots wait while an earlier ply is shown; this drops the {drop} later move(s) and lets them play"
                        ))
                        .clicked();
                }
            } else if m.is_paused() && bot_to_move {
                ui.weak("· bots are paused");
            }
        });
        if play_on {
            self.model.play_on_from_here();
        }
    }

    /// The move chooser, or the panel's message.
    fn prompt(&mut self, ui: &mut egui::Ui) {
        let choices = self.model.choices().to_vec();
        if !choices.is_empty() {
            let mut chosen = None;
            ui.horizontal_wrapped(|ui| {
                ui.label("Choose:");
                for m in choices {
                    if ui.button(self.model.describe_move(m)).clicked() {
                        chosen = Some(m);
                    }
                }
            });
            if let Some(m) = chosen {
                self.model.choose(m);
            }
        } else if let Some(msg) = self.model.message() {
            let text = msg.text.clone();
            msg.show(ui).on_hover_text(text);
        }
    }

    fn board(&mut self, ui: &mut egui::Ui) {
        let m = &self.model;
        let v = m.variant();
        let slots = v.geometry().slots();
        let (stacks, last, flagged) = match m.setup() {
            Some(edit) => (edit.stacks(slots), Vec::new(), edit.problem_cells()),
            None => (
                board::stacks_of(v, m.game().position()),
                m.game()
                    .moves()
                    .last()
                    .map(|&mv| v.move_cells(mv))
                    .unwrap_or_default(),
                Vec::new(),
            ),
        };
        let targets = m.targets();
        let (arrows, hover) = self.analysis_notes();
        let m = &self.model;
        let v = m.variant();
        let colours = board::player_colours(v.rules());
        let names = board::player_names(v.rules());
        let r = board::show_with(
            ui,
            &Scene {
                id_salt: "play",
                geometry: v.geometry(),
                stacks: &stacks,
                colours: &colours,
                flipped: self.flipped,
                selected: m.selected(),
                targets: &targets,
                last_move: &last,
                marks: &[],
                max_cell: 96.0,
            },
            &Notes {
                player_names: &names,
                flagged: &flagged,
                arrows: &arrows,
                hover: &hover,
            },
        );
        if let Some(c) = r.clicked {
            self.model.click(c);
        }
        if let Some(c) = r.secondary
            && self.model.setup().is_some()
        {
            self.model.paint(c, None);
        }
    }
}

/// A monospace text area as wide as the panel.
fn code_field(ui: &mut egui::Ui, text: &mut String, hint: &str, rows: usize) -> egui::Response {
    ui.add(
        egui::TextEdit::multiline(text)
            .hint_text(hint)
            .desired_rows(rows)
            .desired_width(f32::INFINITY)
            .font(egui::TextStyle::Monospace),
    )
}
