//! The Murals panel's left side: the puzzle lists, the editing tools, the
//! solver (its budget, progress, Cancel and the count's report) and the
//! generator.

use egui::RichText;
use murus_lab::text::grouped;
use murus_mural::Status;

use super::MuralsPanel;
use crate::feedback::count;
use crate::murals::{Edit, Pending, Task, Tool, moves_text};
use crate::{Command, Message, Then, layout};

impl MuralsPanel {
    pub(super) fn tools(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            ui.heading("Puzzles");
            if ui
                .button("Open…")
                .on_hover_text("open a puzzle file from anywhere")
                .clicked()
            {
                commands.push(Command::Pick {
                    request: self.model.files().shelf().open_request(),
                    then: Then::OpenMural,
                });
            }
        });
        let mut open = None;
        let mut open_shipped = None;
        egui::ScrollArea::vertical()
            .id_salt("murals-files")
            .max_height(170.0)
            .show(ui, |ui| {
                let shelf = self.model.files().shelf();
                ui.weak("Yours");
                for f in shelf.files() {
                    let name = f
                        .file_stem()
                        .map(|n| n.to_string_lossy().to_string())
                        .unwrap_or_default();
                    let current = self.model.document().is_file(f);
                    if ui
                        .selectable_label(current, name)
                        .on_hover_text(f.display().to_string())
                        .clicked()
                    {
                        open = Some(f.clone());
                    }
                }
                if shelf.files().is_empty() {
                    ui.add(
                        egui::Label::new(
                            RichText::new(format!(
                                "none yet: Save puzzle as… puts them in {}",
                                shelf.dir().display()
                            ))
                            .weak(),
                        )
                        .wrap(),
                    );
                }
                ui.weak("Shipped (read-only: saving asks where to save a copy)");
                for name in shelf.shipped() {
                    let stem = name.trim_end_matches(".toml");
                    let current = self.model.document().is_shipped(name);
                    if ui.selectable_label(current, stem).clicked() {
                        open_shipped = Some(name);
                    }
                }
            });
        if let Some(f) = open {
            self.model.request(Pending::Open(f));
        }
        if let Some(name) = open_shipped {
            self.model.request(Pending::OpenShipped(name.to_string()));
        }
        ui.separator();
        self.edit_tools(ui);
        ui.separator();
        self.solver_tools(ui);
        ui.separator();
        self.generator(ui);
    }

    fn edit_tools(&mut self, ui: &mut egui::Ui) {
        let m = &mut self.model;
        ui.heading("Edit");
        ui.horizontal_wrapped(|ui| {
            for (tool, label) in [
                (Tool::Stacks, "Paint stacks"),
                (Tool::Targets, "Toggle targets"),
            ] {
                if ui
                    .selectable_label(m.play().tool() == tool, label)
                    .clicked()
                {
                    m.set_tool(tool);
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(m.editor().can_undo(), egui::Button::new("Undo edit"))
                .clicked()
            {
                m.edit(Edit::Undo);
            }
            if ui
                .add_enabled(m.editor().can_redo(), egui::Button::new("Redo edit"))
                .clicked()
            {
                m.edit(Edit::Redo);
            }
        });
        layout::reserved(ui, 2.0, |ui| {
            if !m.document().can_paint() {
                Message::warning("The text has errors: fix it to paint on the board.").show(ui);
            } else if !m.play().tool().edits() {
                ui.weak(
                    "The board plays. Choose Paint stacks or Toggle targets to edit the puzzle.",
                );
            }
        });
        // Drawn (disabled) without a puzzle too, so the tools below stay put.
        let (colours, sacrifice) = m
            .document()
            .puzzle()
            .map_or((Vec::new(), false), |p| (p.colours.clone(), p.sacrifice));
        let rows = 3.0 * ui.spacing().interact_size.y + 2.0 * ui.spacing().item_spacing.y;
        layout::reserved_height(ui, rows, |ui| {
            ui.horizontal_wrapped(|ui| {
                let mut brush = m.editor().brush();
                ui.radio_value(&mut brush, None, "Erase");
                for (c, letter) in colours.iter().enumerate() {
                    let c = c as u8;
                    ui.radio_value(&mut brush, Some((c, 1)), format!("{letter} wall"));
                    ui.radio_value(&mut brush, Some((c, 2)), format!("{letter} tower"));
                }
                if brush != m.editor().brush() {
                    m.set_brush(brush);
                }
            });
        });
        ui.add_enabled_ui(
            m.document().can_paint() && m.document().puzzle().is_some(),
            |ui| {
                ui.horizontal_wrapped(|ui| {
                    if ui
                        .add_enabled(m.editor().can_add_colour(), egui::Button::new("Add colour"))
                        .clicked()
                    {
                        m.edit(Edit::AddColour);
                    }
                    let mut sac = sacrifice;
                    if ui.checkbox(&mut sac, "Sacrifice allowed").changed() {
                        m.edit(Edit::Sacrifice(sac));
                    }
                });
                ui.horizontal_wrapped(|ui| {
                    let l = ui.label("Board");
                    ui.add(
                        egui::TextEdit::singleline(m.editor_mut().board_text_mut())
                            .desired_width(90.0),
                    )
                    .labelled_by(l.id);
                    if ui.button("Apply board").clicked() {
                        m.edit(Edit::ApplyBoard);
                    }
                });
            },
        );
    }

    fn solver_tools(&mut self, ui: &mut egui::Ui) {
        let m = &mut self.model;
        ui.heading("Solver");
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("Budget");
            ui.add(
                egui::DragValue::new(m.tasks_mut().budget_mut())
                    .range(1_000..=1_000_000_000)
                    .speed(10_000),
            )
            .labelled_by(l.id);
        });
        let idle = !m.tasks().is_busy();
        ui.horizontal_wrapped(|ui| {
            if ui.add_enabled(idle, egui::Button::new("Solve")).clicked() {
                m.start(Task::Solve);
            }
            if ui
                .add_enabled(idle, egui::Button::new("Count solutions"))
                .clicked()
            {
                m.start(Task::Count);
            }
            if ui
                .add_enabled(m.document().is_valid(), egui::Button::new("Play by hand"))
                .clicked()
            {
                m.play_by_hand();
            }
        });
        // Progress and Cancel, in room kept for them.
        let height = 2.0 * ui.text_style_height(&egui::TextStyle::Body)
            + ui.spacing().interact_size.y
            + 2.0 * ui.spacing().item_spacing.y;
        layout::reserved_height(ui, height, |ui| {
            if let Some((work, progress)) = m.tasks().work() {
                ui.horizontal_wrapped(|ui| {
                    ui.spinner();
                    let text = match progress {
                        Some(p) => format!("{}… {}", work.label(), p.text()),
                        None => format!("{}…", work.label()),
                    };
                    ui.add(egui::Label::new(text).wrap());
                });
                if ui.button("Cancel").clicked() {
                    m.tasks_mut().cancel();
                }
            }
        });
        ui.label(RichText::new("Solutions").strong());
        let rows = 4.0 * ui.text_style_height(&egui::TextStyle::Body)
            + ui.spacing().interact_size.y
            + 4.0 * ui.spacing().item_spacing.y;
        layout::reserved_height(ui, rows, |ui| self.count_report(ui));
    }

    fn count_report(&mut self, ui: &mut egui::Ui) {
        let m = &mut self.model;
        let Some((c, rating)) = m.tasks().counted() else {
            ui.weak("Count solutions to see how many minimal solutions there are.");
            return;
        };
        let mut lines = match c.status {
            Status::Solved => vec![
                Message::info(format!(
                    "{} of {}",
                    count(c.sets, "minimal solution set", "minimal solution sets"),
                    moves_text(c.length.unwrap_or(0) as usize)
                )),
                Message::info(match c.orderings {
                    Some(o) => u64::try_from(o).map_or_else(
                        |_| format!("{o} move orders"),
                        |o| count(o, "move order", "move orders"),
                    ),
                    None => "too many move orders to count".into(),
                }),
                Message::info(format!(
                    "{} of {} lead nowhere",
                    grouped(u64::from(c.dead_first_moves)),
                    count(u64::from(c.first_moves), "first move", "first moves")
                )),
            ],
            Status::Unsolvable => vec![Message::error(c.verdict())],
            Status::Unproven => vec![Message::error(format!(
                "the count did not finish within {}: raise the budget",
                count(c.nodes, "node", "nodes")
            ))],
        };
        if let Some(r) = rating {
            lines.push(Message::info(format!(
                "Difficulty: {} (score {:.1})",
                r.band, r.score
            )));
        }
        for line in &lines {
            line.show_rows(ui, 2);
        }
        if m.tasks().counted_figures_differ(m.document().puzzle())
            && ui
                .button("Write optimal and difficulty")
                .on_hover_text("Record the count's optimal length and difficulty in the puzzle")
                .clicked()
        {
            m.use_counted_figures();
        }
    }

    fn generator(&mut self, ui: &mut egui::Ui) {
        let m = &mut self.model;
        ui.heading("Generate");
        let g = m.tasks_mut().generator_mut();
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("Size");
            ui.add(egui::TextEdit::singleline(g.board).desired_width(70.0))
                .labelled_by(l.id)
                .on_hover_text("A board: 5x5, 6x5, hex 3…");
            let l = ui.label("Seed");
            ui.add(egui::DragValue::new(g.seed))
                .labelled_by(l.id)
                .on_hover_text("The same settings and seed give the same puzzle");
        });
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("Colours");
            ui.add(egui::DragValue::new(g.colours).range(1..=3))
                .labelled_by(l.id);
            ui.checkbox(g.sacrifice, "with sacrifice");
        });
        egui::ComboBox::from_label("Difficulty")
            .selected_text(g.difficulty.as_str())
            .show_ui(ui, |ui| {
                for d in ["any", "easy", "medium", "hard"] {
                    ui.selectable_value(g.difficulty, d.to_string(), d);
                }
            });
        if ui
            .add_enabled(!m.tasks().is_busy(), egui::Button::new("Generate"))
            .clicked()
        {
            m.request(Pending::Generate);
        }
    }
}
