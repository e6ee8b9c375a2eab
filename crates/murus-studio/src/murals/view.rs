//! The Murals panel's view: draws the model and turns clicks and keys into
//! its actions.

use egui::{Color32, Key, Modifiers, RichText};
use murus_mural::Status;

use super::{Edit, HandMove, MuralsModel, MuralsSaved, PALETTE, Pending, Task, Tool, moves_text};
use crate::board::{self, Arrow, Scene};
use crate::{Command, Message, Then, dialog, layout, theme, worker};

mod tools;

/// Width of the side panels (points, margins included). Their contents
/// wrap, so messages and progress never widen them.
const TOOLS_WIDTH: f32 = 260.0;
const FILE_WIDTH: f32 = 340.0;

/// The Murals panel: its model and the view of it.
#[derive(Debug)]
pub struct MuralsPanel {
    model: MuralsModel,
}

impl MuralsPanel {
    /// The panel of a saved state, its background work waking nobody.
    pub fn new(saved: MuralsSaved) -> MuralsPanel {
        MuralsPanel::with_waker(saved, worker::no_waker())
    }

    /// The panel of a saved state, its background work calling `waker`
    /// when it reports (given once, here).
    pub fn with_waker(saved: MuralsSaved, waker: worker::Waker) -> MuralsPanel {
        let mut model = MuralsModel::new(saved);
        // A new model has no work going on: it takes the waker.
        let _ = model.tasks_mut().set_waker(waker);
        MuralsPanel { model }
    }

    /// The panel's state and actions.
    pub fn model(&self) -> &MuralsModel {
        &self.model
    }
    pub fn model_mut(&mut self) -> &mut MuralsModel {
        &mut self.model
    }

    /// Everything to persist.
    pub fn saved(&self) -> MuralsSaved {
        self.model.saved()
    }

    /// Whether background work is running.
    pub fn is_busy(&self) -> bool {
        self.model.tasks().is_busy()
    }

    /// Example content for screenshots: the first puzzle, solved, the
    /// solution shown half played.
    pub fn demo(&mut self) {
        let m = &mut self.model;
        let shelf = m.files().shelf();
        if let Some(f) = shelf.files().first().cloned() {
            m.perform(Pending::Open(f));
        } else if let Some(name) = shelf.shipped().first() {
            m.perform(Pending::OpenShipped(name.to_string()));
        }
        m.play_mut().set_demo();
        m.start(Task::Solve);
    }

    /// Collects background results; advances an animation.
    pub fn poll(&mut self, ctx: &egui::Context) {
        if let Some(after) = self.model.poll(ctx.input(|i| i.time)) {
            ctx.request_repaint_after(after);
        }
    }

    /// Draws the panel; returns what it asks the app to do (files to pick
    /// in a dialog).
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut commands = Vec::new();
        self.keys(ui);
        if let Some(answer) = dialog::show(ui.ctx(), "murals", self.model.files_mut().pending_mut())
        {
            self.model.answer(answer);
        }
        egui::Panel::left("murals-tools")
            .default_size(TOOLS_WIDTH)
            .size_range(200.0..=480.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("murals-tools-scroll")
                    .show(ui, |ui| self.tools(ui, &mut commands));
            });
        egui::Panel::right("murals-text")
            .default_size(FILE_WIDTH)
            .size_range(240.0..=640.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("murals-text-scroll")
                    .show(ui, |ui| self.file(ui, &mut commands));
            });
        egui::CentralPanel::default().show(ui, |ui| self.centre(ui));
        commands
    }

    /// Keyboard shortcuts (not while a text field has the keys).
    fn keys(&mut self, ui: &egui::Ui) {
        if ui.ctx().text_edit_focused() || self.model.files().pending().is_some() {
            return;
        }
        let (undo, redo, back, forward) = ui.input_mut(|i| {
            // Shift+Z first: the plain pattern ignores an extra Shift.
            let redo = i.consume_key(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z)
                | i.consume_key(Modifiers::COMMAND, Key::Y);
            let undo = i.consume_key(Modifiers::COMMAND, Key::Z);
            let back = i.consume_key(Modifiers::NONE, Key::ArrowLeft);
            let forward = i.consume_key(Modifiers::NONE, Key::ArrowRight);
            (undo, redo, back, forward)
        });
        let m = &mut self.model;
        match m.play().tool() {
            Tool::Play => {
                if undo || back {
                    m.play_hand(HandMove::Undo);
                }
                if redo || forward {
                    m.play_hand(HandMove::Redo);
                }
            }
            tool => {
                if undo {
                    m.edit(Edit::Undo);
                }
                if redo {
                    m.edit(Edit::Redo);
                }
                if tool == Tool::Solution {
                    if back {
                        m.play_mut().player_mut().back();
                    }
                    if forward {
                        m.play_mut().player_mut().forward();
                    }
                }
            }
        }
    }

    /// The right panel: the file, its validity and figures, and the text
    /// (while editing) or the puzzle's description.
    fn file(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let m = &mut self.model;
        ui.heading("Puzzle file");
        let name = if m.document().path().is_empty() {
            "untitled.toml".to_string()
        } else {
            m.document().path().to_string()
        };
        let dirty = if m.document().is_dirty() {
            " (unsaved)"
        } else {
            ""
        };
        ui.add(egui::Label::new(format!("{name}{dirty}")).truncate());
        ui.horizontal_wrapped(|ui| {
            let why = m.document().why_not_save();
            let save = ui.add_enabled(why.is_ok(), egui::Button::new("Save puzzle"));
            let save = match &why {
                Err(why) => save.on_disabled_hover_text(why.as_str()),
                Ok(()) if m.document().path().is_empty() => {
                    save.on_hover_text("not saved yet: asks where")
                }
                Ok(()) => save,
            };
            if save.clicked()
                && let Some(request) = m.save()
            {
                commands.push(Command::Pick {
                    request,
                    then: Then::SaveMural,
                });
            }
            let save_as = ui.add_enabled(why.is_ok(), egui::Button::new("Save puzzle as…"));
            let save_as = match &why {
                Err(why) => save_as.on_disabled_hover_text(why.as_str()),
                Ok(()) => save_as,
            };
            if save_as.clicked() {
                commands.push(Command::Pick {
                    request: m.files().shelf().save_as_request(m.document()),
                    then: Then::SaveMural,
                });
            }
            let sheet = ui.add_enabled(why.is_ok(), egui::Button::new("Export puzzle sheet…"));
            let sheet = match &why {
                Err(why) => sheet.on_disabled_hover_text(why.as_str()),
                Ok(()) => sheet.on_hover_text(
                    "a printable page (HTML): the puzzle, its par and difficulty, and its \
                     solution on a second page",
                ),
            };
            if sheet.clicked() {
                commands.push(Command::Pick {
                    request: m.files().shelf().sheet_request(m.document()),
                    then: Then::PuzzleSheet,
                });
            }
        });
        match m.document().problems().len() {
            0 => ui.colored_label(theme::success(ui), "Valid puzzle"),
            1 => ui.colored_label(theme::error(ui), "1 problem"),
            n => ui.colored_label(theme::error(ui), format!("{n} problems")),
        };
        layout::reserved(ui, 2.0, |ui| {
            if let Some(f) = m.document().figures() {
                let mut parts = Vec::new();
                if let Some(o) = f.optimal {
                    parts.push(format!("optimal {}", moves_text(o as usize)));
                }
                if let Some(d) = &f.difficulty {
                    parts.push(format!("difficulty {d}"));
                }
                let figures = parts.join(", ");
                if f.stale {
                    Message::warning(format!(
                        "Recorded {figures}: stale, found before your edits. Count solutions to check them."
                    ))
                    .show(ui);
                } else {
                    Message::info(format!("Recorded {figures}.")).show(ui);
                }
            }
        });
        ui.separator();
        if m.play().tool().edits() || !m.document().problems().is_empty() {
            self.text(ui);
        } else {
            self.description(ui);
        }
    }

    fn text(&mut self, ui: &mut egui::Ui) {
        let m = &mut self.model;
        let l = ui.label("Puzzle text");
        let mut text = m.document().text().to_string();
        let r = ui
            .add(
                egui::TextEdit::multiline(&mut text)
                    .code_editor()
                    .desired_rows(14)
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(l.id);
        if r.changed() {
            m.edit(Edit::Type {
                text,
                now: ui.input(|i| i.time),
            });
        }
        let rows =
            4.0 * ui.text_style_height(&egui::TextStyle::Body) + 3.0 * ui.spacing().item_spacing.y;
        layout::reserved_height(ui, rows, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("murals-problems")
                .show(ui, |ui| {
                    for p in m.document().problems() {
                        Message::error(format!("{}:{}: error: {}", p.line, p.col, p.message))
                            .show(ui);
                    }
                });
        });
    }

    fn description(&mut self, ui: &mut egui::Ui) {
        let m = &mut self.model;
        let Some(p) = m.document().puzzle().cloned() else {
            return;
        };
        ui.label(RichText::new(&p.title).strong());
        if !p.author.is_empty() {
            ui.label(format!("Author: {}", p.author));
        }
        let colours: Vec<String> = p.colours.iter().map(char::to_string).collect();
        ui.label(format!(
            "Board {}, colours {}, sacrifice {}",
            p.board.text,
            colours.join(" "),
            if p.sacrifice {
                "allowed"
            } else {
                "not allowed"
            }
        ));
        ui.weak("Choose Paint stacks or Toggle targets to edit the puzzle and its text.");
        if let Some(notes) = &p.notes {
            let mut show = m.editor().show_notes();
            if ui
                .checkbox(&mut show, "Show notes")
                .on_hover_text("The notes may give the solution away")
                .changed()
            {
                m.editor_mut().set_show_notes(show);
            }
            if show {
                ui.add(egui::Label::new(notes.as_str()).wrap());
            }
        }
    }

    fn centre(&mut self, ui: &mut egui::Ui) {
        let Some(p) = self.model.document().puzzle().cloned() else {
            ui.weak("The puzzle text has errors; the board appears once it reads.");
            self.status(ui);
            return;
        };
        let heading = ui.text_style_height(&egui::TextStyle::Heading);
        layout::reserved_height(ui, heading, |ui| {
            ui.add(egui::Label::new(RichText::new(&p.title).heading()).truncate());
        });
        layout::reserved_height(ui, ui.spacing().interact_size.y, |ui| {
            ui.horizontal(|ui| match self.model.play().tool() {
                Tool::Solution => self.solution_controls(ui),
                Tool::Play => self.play_controls(ui),
                Tool::Stacks => {
                    ui.label("Click cells to paint with the brush; right-click erases.");
                }
                Tool::Targets => {
                    ui.label("Click cells to toggle targets.");
                }
            });
        });
        self.status(ui);
        let moves_height = 3.0 * ui.spacing().interact_size.y + 2.0 * ui.spacing().item_spacing.y;
        egui::Panel::bottom("murals-moves")
            .resizable(false)
            .exact_size(moves_height + 12.0)
            .show(ui, |ui| self.move_list(ui, &p));
        self.board(ui, &p);
    }

    /// The status area: the hand-played result and the panel's message, in
    /// room kept for them so the board never moves.
    fn status(&mut self, ui: &mut egui::Ui) {
        let m = &self.model;
        let banner = ui.spacing().interact_size.y + 4.0;
        let body = ui.text_style_height(&egui::TextStyle::Body);
        layout::reserved_height(
            ui,
            banner + 2.0 * body + 2.0 * ui.spacing().item_spacing.y,
            |ui| {
                layout::reserved_height(ui, banner, |ui| {
                    if m.play().tool() != Tool::Play {
                        return;
                    }
                    let (solved, stuck) = m.play().outcome(m.document());
                    if solved {
                        egui::Frame::new()
                            .fill(theme::banner(ui))
                            .inner_margin(egui::Margin::symmetric(6, 2))
                            .show(ui, |ui| {
                                ui.label(
                                    RichText::new(format!(
                                        "Solved in {}!",
                                        moves_text(m.play().hand().played().len())
                                    ))
                                    .color(theme::on_banner(ui))
                                    .strong(),
                                );
                            });
                    } else if stuck {
                        ui.colored_label(theme::error(ui), "No move left: undo or restart.");
                    }
                });
                if let Some(msg) = m.feedback().current() {
                    msg.show_rows(ui, 2);
                }
            },
        );
    }

    fn play_controls(&mut self, ui: &mut egui::Ui) {
        let m = &mut self.model;
        if ui
            .add_enabled(
                !m.play().hand().played().is_empty(),
                egui::Button::new("Undo move"),
            )
            .on_hover_text("Ctrl+Z or ←")
            .clicked()
        {
            m.play_hand(HandMove::Undo);
        }
        if ui
            .add_enabled(m.play().hand().can_redo(), egui::Button::new("Redo move"))
            .on_hover_text("Ctrl+Shift+Z, Ctrl+Y or →")
            .clicked()
        {
            m.play_hand(HandMove::Redo);
        }
        if ui.button("Restart").clicked() {
            m.play_hand(HandMove::Restart);
        }
        if ui
            .add_enabled(!m.tasks().is_busy(), egui::Button::new("Hint"))
            .clicked()
        {
            m.start(Task::Hint);
        }
        ui.label(moves_text(m.play().hand().played().len()));
    }

    fn solution_controls(&mut self, ui: &mut egui::Ui) {
        let m = &mut self.model;
        let Some(sol) = m.play().player().solution() else {
            if !m.tasks().is_busy() {
                ui.label("Press Solve to find a shortest solution.");
            }
            return;
        };
        if sol.status != Status::Solved {
            ui.label("No solution to show.");
            return;
        }
        let len = sol.moves.len();
        let step = m.play().player().step();
        if ui.button("First").clicked() {
            m.play_mut().player_mut().set_step(0);
        }
        if ui
            .add_enabled(step > 0, egui::Button::new("Step back"))
            .on_hover_text("←")
            .clicked()
        {
            m.play_mut().player_mut().back();
        }
        if ui
            .add_enabled(step < len, egui::Button::new("Step forward"))
            .on_hover_text("→")
            .clicked()
        {
            m.play_mut().player_mut().forward();
        }
        if ui.button("Last").clicked() {
            m.play_mut().player_mut().last();
        }
        let label = if m.play().player().animating() {
            "Stop"
        } else {
            "Animate"
        };
        if ui.button(label).clicked() {
            m.play_mut().player_mut().toggle_animation();
        }
        ui.label(format!("step {} of {len}", m.play().player().step()));
    }

    /// The solution's moves (click one to show the position after it) or
    /// the moves played by hand.
    fn move_list(&mut self, ui: &mut egui::Ui, p: &murus_mural::Puzzle) {
        let m = &mut self.model;
        egui::ScrollArea::vertical()
            .id_salt("murals-move-list")
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| match m.play().tool() {
                    Tool::Solution => {
                        let Some(sol) = m
                            .play()
                            .player()
                            .solution()
                            .filter(|s| s.status == Status::Solved)
                        else {
                            return;
                        };
                        if m.play().player().after() > 0 {
                            ui.weak(format!(
                                "after your {} by hand:",
                                moves_text(m.play().player().after())
                            ));
                        }
                        let names: Vec<String> =
                            sol.moves.iter().map(|mv| mv.notation(&p.board)).collect();
                        let mut go = None;
                        for (i, n) in names.iter().enumerate() {
                            if ui
                                .selectable_label(
                                    i + 1 == m.play().player().step(),
                                    format!("{}. {n}", i + 1),
                                )
                                .clicked()
                            {
                                go = Some(i + 1);
                            }
                        }
                        if let Some(k) = go {
                            m.play_mut().player_mut().set_step(k);
                        }
                    }
                    Tool::Play => {
                        for (i, mv) in m.play().hand().played().iter().enumerate() {
                            ui.label(format!("{}. {}", i + 1, mv.notation(&p.board)));
                        }
                    }
                    Tool::Stacks | Tool::Targets => {}
                });
            });
    }

    fn board(&mut self, ui: &mut egui::Ui, p: &murus_mural::Puzzle) {
        let m = &mut self.model;
        let Some((state, last)) = m.play().shown_state(m.document()) else {
            return;
        };
        let stacks: Vec<Option<(usize, u8)>> = (0..p.board.slots())
            .map(|s| state.get(s).map(|(c, h)| (c as usize, h)))
            .collect();
        let colours: Vec<Color32> = (0..p.colours.len().max(1))
            .map(|c| board::colour(PALETTE[c % PALETTE.len()]))
            .collect();
        let marks = p.target_cells();
        let last_cells: Vec<usize> = last
            .map(|mv| mv.cells().iter().map(|&c| c as usize).collect())
            .unwrap_or_default();
        let targets = m.play().move_targets(m.document());
        let selected = m
            .play()
            .hand()
            .selected()
            .filter(|_| m.play().tool() == Tool::Play);
        // The hint is an arrow, not a selection: clicking its target plays it.
        let (arrows, hover) = match m
            .play()
            .hand()
            .hint()
            .filter(|_| m.play().tool() == Tool::Play)
        {
            Some(h) => {
                let name = h.notation(&p.board);
                let to = super::move_target(h);
                (
                    vec![Arrow {
                        from: h.from(),
                        to,
                        colour: theme::success(ui),
                        label: "hint".into(),
                    }],
                    vec![
                        (h.from(), format!("the hint, {name}, starts here")),
                        (to, format!("the hint, {name}: click to play it")),
                    ],
                )
            }
            None => (Vec::new(), Vec::new()),
        };
        // Hover texts name the colour, not a player number.
        let names: Vec<String> = p.colours.iter().map(|c| format!("colour {c}")).collect();
        let r = board::show_with(
            ui,
            &Scene {
                id_salt: "murals",
                geometry: &p.board.geometry,
                stacks: &stacks,
                colours: &colours,
                flipped: false,
                selected,
                targets: &targets,
                last_move: &last_cells,
                marks: &marks,
                max_cell: 90.0,
            },
            &board::Notes {
                player_names: &names,
                arrows: &arrows,
                hover: &hover,
                ..Default::default()
            },
        );
        if let Some(c) = r.clicked {
            m.click(c, false);
        }
        if let Some(c) = r.secondary {
            m.click(c, true);
        }
    }
}
