//! Drawing the Play panel and turning clicks and keys into model actions.

use egui::{Key, KeyboardShortcut, Modifiers, Pos2, Rect, RichText};
use murus_engine::{Move, Phase, Variant};

use super::analysis_view::BAR_WIDTH;
use super::{Action, Exports, PlayModel, PlayPanel, SEAT_CHOICES, Seat, SetupEdit, describe_move};
use crate::board::{self, Notes, Scene};
use crate::dialog;
use crate::files::PickRequest;
use crate::training::{TRAINED_LABEL, TrainedBots};
use crate::{Command, Then, layout, theme};

/// Height of the status line (turn, thinking bot, or result banner).
const STATUS_HEIGHT: f32 = 44.0;
/// Text rows kept under the seats for a spec that does not parse.
const SEAT_ERROR_ROWS: f32 = 3.0;
/// Text rows kept under the board for an error of several lines (a record
/// that does not read: the source line and a caret under the mistake).
const RECORD_ERROR_ROWS: usize = 6;
/// Height of the move list, however many moves it holds.
pub(super) const MOVE_LIST_HEIGHT: f32 = 160.0;

/// What the keyboard asked for this frame.
#[derive(Clone, Copy, Debug, Default)]
struct Keys {
    undo: bool,
    redo: bool,
    back: bool,
    forward: bool,
    /// ↑ and ↓: the previous and next variation at this ply.
    up: bool,
    down: bool,
}

impl Keys {
    /// Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y, ←, →, ↑ and ↓; none while a text field has
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
                up: i.consume_key(Modifiers::NONE, Key::ArrowUp),
                down: i.consume_key(Modifiers::NONE, Key::ArrowDown),
            }
        })
    }
}

impl PlayPanel {
    /// Draws the panel; `trained` finds the trained bot of the variant
    /// played, offered in the seat menus. What the user asked for is done
    /// after the frame; what the app must do (pick a file) comes back.
    pub fn ui(&mut self, ui: &mut egui::Ui, trained: &mut TrainedBots) -> Vec<Command> {
        let mut out = Vec::new();
        let mut question = self.model.question().cloned();
        let asking = question.is_some();
        if let Some(answer) = dialog::show(ui.ctx(), "play-replace", &mut question) {
            out.push(Action::Answer(Box::new(answer)));
        }
        if !asking && self.model.setup().is_none() {
            let keys = Keys::read(ui.ctx());
            for (pressed, action) in [
                (keys.undo, Action::Undo),
                (keys.redo, Action::Redo),
                (keys.back, Action::Back),
                (keys.forward, Action::Forward),
                (keys.up, Action::SwitchVariation(-1)),
                (keys.down, Action::SwitchVariation(1)),
            ] {
                if pressed {
                    out.push(action);
                }
            }
        }
        self.sync_seat_text();
        // The field shows what the board shows: the set-up being edited
        // when it is a position.
        let shown = self.model.setup().map_or(
            Some(*self.model.game().cursor().game().position()),
            SetupEdit::position,
        );
        if shown.is_some() && self.position_shown != shown {
            self.position_shown = shown;
            if let Ok(text) = self.model.position_text() {
                self.position_text = text;
            }
        }
        let trained = trained.spec_for(self.model.game().cursor().variant());
        egui::Panel::left("play-controls")
            .default_size(230.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .show(ui, |ui| self.controls(ui, trained.as_deref(), &mut out));
            });
        egui::Panel::right("play-moves")
            .default_size(260.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.side(ui, &mut out));
            });
        egui::CentralPanel::default().show(ui, |ui| self.centre(ui, &mut out));
        let mut commands = Vec::new();
        for action in out {
            match action {
                Action::CopyPosition => match self.model.position_text() {
                    Ok(text) => ui.ctx().copy_text(text),
                    Err(why) => self.model.feedback_mut().error(why),
                },
                Action::CopyRecord => ui.ctx().copy_text(self.model.game().record_text()),
                a => self.apply(a, &mut commands),
            }
        }
        commands
    }

    fn controls(&mut self, ui: &mut egui::Ui, trained: Option<&str>, out: &mut Vec<Action>) {
        let v = self.model.game().cursor().variant().clone();
        ui.heading("Game");
        // One row whatever the title's length (elided, whole on hover), so
        // that nothing below moves when the variant changes.
        ui.add(egui::Label::new(format!("Variant: {}", v.rules().title)).truncate());
        ui.horizontal_wrapped(|ui| {
            for (name, src) in murus_engine::BUILTIN {
                if ui
                    .selectable_label(v.name() == *name, *name)
                    .on_hover_text(format!("new game of {name}"))
                    .clicked()
                    && let Ok(variant) = Variant::compile(src)
                {
                    out.push(Action::SwitchVariant(variant));
                }
            }
        });
        ui.separator();
        self.seats(ui, &v, trained, out);
        ui.separator();
        let in_setup = self.model.setup().is_some();
        ui.add_enabled_ui(!in_setup, |ui| self.game_buttons(ui, &v, out));
        ui.separator();
        ui.heading("Set-up");
        if in_setup {
            setup_controls(ui, &self.model, &v, out);
        } else if ui.button("Set up a position").clicked() {
            out.push(Action::StartSetup);
        }
    }

    /// The seat menus and fields; `trained` is the spec of the trained bot
    /// of `v`, offered as [`TRAINED_LABEL`].
    fn seats(
        &mut self,
        ui: &mut egui::Ui,
        v: &Variant,
        trained: Option<&str>,
        out: &mut Vec<Action>,
    ) {
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
                    // As wide as the row leaves, a long spec elided: the
                    // panel keeps its width.
                    egui::ComboBox::from_id_salt(("seat", p))
                        .width(ui.available_width())
                        .truncate()
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
                        out.push(Action::SetSeat(p, seat));
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
                Ok(seat) if field.changed() => out.push(Action::SetSeat(p, seat)),
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
        let mut paused = self.model.seats().is_paused();
        if ui.checkbox(&mut paused, "Pause bots").changed() {
            out.push(Action::SetPaused(paused));
        }
    }

    fn game_buttons(&mut self, ui: &mut egui::Ui, v: &Variant, out: &mut Vec<Action>) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("New game").clicked() {
                out.push(Action::NewGame);
            }
            if ui.button("Flip board").clicked() {
                out.push(Action::Flip);
            }
            if ui
                .button("Share for playtesting…")
                .on_hover_text(
                    "a game of this variant for people in their browsers: a link a seat, \
                     through a playtest server",
                )
                .clicked()
            {
                out.push(Action::Share);
            }
        });
        if matches!(v.rules().opening, murus_dsl::rules::Opening::Pie { .. }) {
            let legal = self
                .model
                .game()
                .cursor()
                .game()
                .legal_moves()
                .contains(&Move::SWAP);
            if ui
                .add_enabled(legal, egui::Button::new("Swap (pie rule)"))
                .clicked()
            {
                out.push(Action::Play(Move::SWAP));
            }
        }
        ui.horizontal(|ui| {
            let field = ui.add(
                egui::TextEdit::singleline(&mut self.move_text)
                    .hint_text("type a move, e.g. a1-a3")
                    .desired_width(120.0),
            );
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            if ui.button("Play move").clicked() || entered {
                out.push(Action::PlayTyped);
            }
            if entered {
                // Ready for the next move.
                field.request_focus();
            }
        });
    }

    fn side(&mut self, ui: &mut egui::Ui, out: &mut Vec<Action>) {
        ui.heading("Moves");
        layout::reserved(ui, 1.0, |ui| {
            // Elided, the label shows the whole line on hover by itself.
            if let Some(b) = self.model.seats().last_bot(self.model.game().cursor()) {
                ui.add(egui::Label::new(RichText::new(b).weak()).truncate());
            }
        });
        self.move_list(ui, out);
        self.notes_row(ui, out);
        ui.separator();
        ui.heading("Position");
        if code_field(ui, &mut self.position_text, "position string", 3).changed() {
            out.push(Action::FieldEdited);
        }
        ui.horizontal_wrapped(|ui| {
            if ui.button("Copy position").clicked() {
                out.push(Action::CopyPosition);
            }
            if ui.button("Load position").clicked() {
                out.push(Action::LoadPosition);
            }
            if ui
                .button("Open position…")
                .on_hover_text("load the position string held in a file")
                .clicked()
            {
                let request = PickRequest::open("Open a position", "Position", &["pos", "txt"])
                    .near(std::path::Path::new(&self.record_path));
                out.push(Action::Pick(request, Then::OpenPosition));
            }
            if ui
                .button("Save position…")
                .on_hover_text("write the position string of the board to a file")
                .clicked()
            {
                let request = PickRequest::save("Save the position", "Position", &["pos", "txt"])
                    .near(std::path::Path::new(&self.record_path))
                    .named("position.pos");
                out.push(Action::Pick(request, Then::SavePosition));
            }
        });
        ui.horizontal_wrapped(|ui| {
            let near = std::path::Path::new(&self.record_path);
            if ui
                .button("Export diagram…")
                .on_hover_text("the board as a picture (SVG or PNG), the last move shaded")
                .clicked()
            {
                let request = PickRequest::save("Export a diagram", "Diagram", &["svg", "png"])
                    .near(near)
                    .named("diagram.svg");
                out.push(Action::Pick(request, Then::ExportDiagram));
            }
            ui.checkbox(self.exports.with_arrows_mut(), "with the best line")
                .on_hover_text(
                    "numbered arrows for the analysis' best line (turn the analysis on)",
                );
            if ui
                .button("Export GIF…")
                .on_hover_text("the line shown as an animation, a frame a ply")
                .clicked()
            {
                let request = PickRequest::save("Export the game as a GIF", "GIF", &["gif"])
                    .near(near)
                    .named("game.gif");
                out.push(Action::Pick(request, Then::ExportGif));
            }
        });
        ui.separator();
        ui.heading("Record");
        ui.horizontal_wrapped(|ui| {
            let record = std::path::Path::new(&self.record_path);
            if ui
                .button("Save record…")
                .on_hover_text(
                    "write the whole game, variations, glyphs and comments, to a record file \
                     (.mgn; .json for JSON)",
                )
                .clicked()
            {
                let request =
                    PickRequest::save("Save the game record", "Game record", &["mgn", "json"])
                        .near(record);
                out.push(Action::Pick(request, Then::SaveRecord));
            }
            if ui
                .button("Open record…")
                .on_hover_text("open a record file (.mgn, or JSON)")
                .clicked()
            {
                let request =
                    PickRequest::open("Open a game record", "Game record", &["mgn", "json"])
                        .near(record);
                out.push(Action::Pick(request, Then::OpenRecord));
            }
        });
        let field = code_field(
            ui,
            &mut self.record_text,
            "paste a record, or a game as printed, here",
            3,
        );
        if field.changed() {
            out.push(Action::FieldEdited);
        }
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Load record text")
                .on_hover_text("open the record in the field (the record format or JSON)")
                .clicked()
            {
                out.push(Action::LoadRecordText);
            }
            if ui
                .button("Paste game text")
                .on_hover_text(
                    "read the field as a game printed in a magazine or a book: move numbers, \
                     commas, glyphs, comments in brackets, Resign",
                )
                .clicked()
            {
                out.push(Action::LoadPrintedText);
            }
            if ui.button("Copy record").clicked() {
                out.push(Action::CopyRecord);
            }
        });
        ui.separator();
        // Last: what it shows grows and shrinks with the search, and moves
        // nothing below it.
        self.analysis_view().section(ui, out);
    }

    fn centre(&mut self, ui: &mut egui::Ui, out: &mut Vec<Action>) {
        layout::reserved_height(ui, STATUS_HEIGHT, |ui| status(ui, &self.model, out));
        let prompt = 2.0 * ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
        layout::reserved_height(ui, prompt, |ui| {
            prompt_row(ui, &self.model, &self.exports, out);
        });
        // The evaluation bar on the left, as tall as the board; its column
        // is kept while the analysis is off, so that turning it on moves
        // nothing.
        let avail = ui.available_rect_before_wrap();
        let gap = ui.spacing().item_spacing.x;
        // Under the board, rows kept for an error of several lines.
        let error_height =
            RECORD_ERROR_ROWS as f32 * ui.text_style_height(&egui::TextStyle::Monospace) + gap;
        let board_rect = Rect::from_min_max(
            Pos2::new(avail.min.x + BAR_WIDTH + gap, avail.min.y),
            Pos2::new(avail.max.x, avail.max.y - error_height),
        );
        let used = ui
            .scope_builder(egui::UiBuilder::new().max_rect(board_rect), |ui| {
                self.board(ui, out);
            })
            .response
            .rect;
        let error_rect = Rect::from_min_max(
            Pos2::new(board_rect.min.x, avail.max.y - error_height + gap),
            avail.max,
        );
        ui.scope_builder(egui::UiBuilder::new().max_rect(error_rect), |ui| {
            full_error(ui, &self.model);
        });
        if self.analysis.is_on() {
            let bar = Rect::from_min_size(
                Pos2::new(avail.min.x, used.min.y),
                egui::vec2(BAR_WIDTH, used.height().max(40.0)),
            );
            self.analysis_view().eval_bar(ui, bar);
        }
    }
}

/// The result banner, the thinking bot, or whose turn it is.
fn status(ui: &mut egui::Ui, m: &PlayModel, out: &mut Vec<Action>) {
    let v = m.game().cursor().variant();
    if let Some(end) = m.game().ending() {
        egui::Frame::new()
            .fill(theme::banner(ui))
            .inner_margin(8.0)
            .corner_radius(4.0)
            .show(ui, |ui| {
                ui.add(
                    egui::Label::new(
                        RichText::new(end)
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
        if let (Some(t), Some(since)) = (m.seats().thinking(), m.seats().thinking_since()) {
            // The button first: the time beside it grows.
            if ui.button("Move now").clicked() {
                out.push(Action::MoveNow);
            }
            ui.spinner();
            ui.label(format!(
                "{} ({}) is thinking… {:.1} s",
                m.game().cursor().player_name(t.player),
                t.spec,
                since.elapsed().as_secs_f32()
            ));
            return;
        }
        let turn = m.game().cursor().turn();
        ui.label(format!(
            "{} to move (ply {})",
            m.game().cursor().player_name(turn),
            m.game().cursor().game().ply() + 1
        ));
        // Where taking stones wins, how many each player has taken.
        if let Some(taken) = v.taken_summary(m.game().cursor().game().position()) {
            ui.weak(format!("· stones taken: {taken}"));
        }
        let bot_to_move = matches!(
            m.seats().of_player(m.game().cursor().game(), turn),
            Seat::Bot(_)
        );
        if !m.game().cursor().at_end_of_line() {
            ui.weak(format!(
                "· viewing ply {} of {}",
                m.game().cursor().game().ply(),
                m.game().cursor().line_len()
            ));
            if bot_to_move {
                play_on = ui
                    .button("Play on from here")
                    .on_hover_text(
                        "bots wait while an earlier ply is shown; this lets them play, \
                             their move opening a variation (the later moves stay)",
                    )
                    .clicked();
            }
        } else if m.seats().is_paused() && bot_to_move {
            ui.weak("· bots are paused");
        }
    });
    if play_on {
        out.push(Action::PlayOn);
    }
}

/// The move chooser, or the panel's message.
fn prompt_row(ui: &mut egui::Ui, m: &PlayModel, exports: &Exports, out: &mut Vec<Action>) {
    let choices = m.pick().choices().to_vec();
    if !choices.is_empty() {
        let mut chosen = None;
        ui.horizontal_wrapped(|ui| {
            ui.label("Choose:");
            for c in choices {
                if ui.button(describe_move(m.game().cursor(), c)).clicked() {
                    chosen = Some(c);
                }
            }
        });
        if let Some(c) = chosen {
            out.push(Action::Choose(c));
        }
    } else if exports.is_running() {
        export_status(exports, ui, out);
    } else if let Some(msg) = m.message() {
        let text = msg.text.clone();
        match text.split_once('\n') {
            // A record's error with its source line and caret: its
            // first line here, all of it under the record field.
            Some((first, _)) => {
                let first = format!("{first} (in full under the board)");
                let line = crate::Message {
                    tone: msg.tone,
                    text: first,
                };
                ui.add(egui::Label::new(line.rich_text(ui)).truncate())
                    .on_hover_text(text);
            }
            None => {
                msg.show(ui).on_hover_text(text);
            }
        }
    }
}

impl PlayPanel {
    fn board(&mut self, ui: &mut egui::Ui, out: &mut Vec<Action>) {
        let m = &self.model;
        let v = m.game().cursor().variant();
        let slots = v.geometry().slots();
        let (stacks, last, flagged) = match m.setup() {
            Some(edit) => (edit.stacks(slots), Vec::new(), edit.problem_cells()),
            None => (
                board::stacks_of(v, m.game().cursor().game().position()),
                m.game()
                    .cursor()
                    .game()
                    .moves()
                    .last()
                    .map(|&mv| v.move_cells(mv))
                    .unwrap_or_default(),
                Vec::new(),
            ),
        };
        let targets = m.pick().targets(m.game().cursor().game());
        let (arrows, hover) = self.analysis_view().notes();
        let m = &self.model;
        let v = m.game().cursor().variant();
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
                selected: m.pick().selected(),
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
            out.push(Action::Click(c));
        }
        if let Some(c) = r.secondary
            && self.model.setup().is_some()
        {
            out.push(Action::Erase(c));
        }
    }
}

fn setup_controls(ui: &mut egui::Ui, m: &PlayModel, v: &Variant, out: &mut Vec<Action>) {
    let Some(edit) = m.setup() else {
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
            out.push(Action::FinishSetup);
        }
        if ui.button("Cancel set-up").clicked() {
            out.push(Action::CancelSetup);
        }
    });
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
        out.push(Action::SetBrush(brush));
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
        out.push(Action::SetSetupTurn(turn));
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
            out.push(Action::SetSetupPhase(phase));
        }
    }
    if v.player_count() > 2 {
        ui.horizontal_wrapped(|ui| {
            ui.label("Eliminated:");
            for (p, name) in names.iter().enumerate() {
                let mut gone = setup.is_out(p);
                if ui.checkbox(&mut gone, name.as_str()).changed() {
                    out.push(Action::SetSetupOut(p, gone));
                }
            }
        });
    }
    // Where taking stones wins, how many each player has taken.
    if v.counts_taken() {
        ui.horizontal_wrapped(|ui| {
            ui.label("Stones taken:");
            for (p, name) in names.iter().enumerate() {
                let mut taken = setup.taken(p);
                let label = ui.label(format!("{name}:"));
                let field = egui::DragValue::new(&mut taken).range(0..=255);
                if ui.add(field).labelled_by(label.id).changed() {
                    out.push(Action::SetSetupTaken(p, taken));
                }
            }
        });
    }
    ui.horizontal_wrapped(|ui| {
        if ui.button("Clear board").clicked() {
            out.push(Action::ClearSetup);
        }
        if ui.button("Start position").clicked() {
            out.push(Action::ResetSetup);
        }
    });
    let Some(edit) = m.setup() else {
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

/// A message of several lines (a record's error: where, the source line,
/// a caret under the mistake) in full, in monospace, in rows kept whether
/// or not there is one; a longer or wider one scrolls.
fn full_error(ui: &mut egui::Ui, m: &PlayModel) {
    let row = ui.text_style_height(&egui::TextStyle::Monospace);
    let height = RECORD_ERROR_ROWS as f32 * row;
    let msg = m.message().filter(|m| m.text.contains('\n'));
    layout::reserved_height(ui, height, |ui| {
        let Some(msg) = msg else { return };
        // Unwrapped, so that the caret stays under the mistake; it scrolls
        // both ways.
        egui::ScrollArea::both()
            .id_salt("record-error")
            .max_height(height)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let text = msg.rich_text(ui).monospace();
                ui.add(egui::Label::new(text).extend());
            });
    });
}

/// The export being written, in the message's rows: Cancel, and what is
/// written and how far, wrapped rather than cut off.
fn export_status(exports: &Exports, ui: &mut egui::Ui, out: &mut Vec<Action>) {
    let Some(status) = exports.status() else {
        return;
    };
    ui.horizontal_wrapped(|ui| {
        // The button first: the count beside it grows.
        if ui.button("Cancel export").clicked() {
            out.push(Action::CancelExport);
        }
        ui.spinner();
        ui.add(egui::Label::new(status).wrap());
    });
}

/// A monospace text area as wide as the panel and `rows` rows high
/// whatever it holds: a long text pasted in scrolls inside it, and the
/// buttons below stay put.
fn code_field(ui: &mut egui::Ui, text: &mut String, hint: &str, rows: usize) -> egui::Response {
    let row = ui.text_style_height(&egui::TextStyle::Monospace);
    let height = rows as f32 * row + 2.0 * ui.spacing().button_padding.y + 4.0;
    egui::ScrollArea::vertical()
        .id_salt(hint)
        .max_height(height)
        .min_scrolled_height(height)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.add(
                egui::TextEdit::multiline(text)
                    .hint_text(hint)
                    .desired_rows(rows)
                    .desired_width(f32::INFINITY)
                    .font(egui::TextStyle::Monospace),
            )
        })
        .inner
}
