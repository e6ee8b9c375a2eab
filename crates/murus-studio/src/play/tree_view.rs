//! The move list as a tree: the main line with each variation indented
//! after the move it replaces, glyphs and comments shown; a click goes to a
//! move, its context menu promotes or deletes, and the row under the list
//! sets the glyph and comment of the move shown.

use egui::RichText;
use murus_engine::{Glyph, MoveTree};

use super::view::MOVE_LIST_HEIGHT;
use super::{Action, PlayPanel};
use crate::theme;

/// Indent of a variation, per level.
const INDENT: f32 = 14.0;

impl PlayPanel {
    /// Every move of the tree: the line shown in full strength (the moves
    /// ahead greyed), the other variations weak and indented; blunders of
    /// the review marked `??` in red.
    pub(super) fn move_list(&mut self, ui: &mut egui::Ui, out: &mut Vec<Action>) {
        let node = self.model.game().cursor().node();
        let entries = self.model.game().cursor().list_entries();
        let scroll_to_current = self.list_node != Some(node);
        self.list_node = Some(node);
        let line = self.model.game().cursor().tree().line_through(node);
        let blunders: Vec<usize> = self
            .analysis
            .review(&self.model)
            .map(|r| {
                r.blunders()
                    .iter()
                    .filter_map(|b| line.get(b.index).copied())
                    .collect()
            })
            .unwrap_or_default();
        let error = theme::error(ui);
        let ending = self.model.game().main_line_ending();
        egui::ScrollArea::vertical()
            .id_salt("move-list")
            .max_height(MOVE_LIST_HEIGHT)
            .min_scrolled_height(MOVE_LIST_HEIGHT)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if entries.is_empty() {
                    ui.weak("no moves yet");
                    return;
                }
                if ui
                    .selectable_label(node == MoveTree::ROOT, "start")
                    .clicked()
                {
                    out.push(Action::GoTo(MoveTree::ROOT));
                }
                if let Some(c) = self.model.game().cursor().tree().comment(MoveTree::ROOT) {
                    ui.label(RichText::new(c).italics().weak());
                }
                for e in entries {
                    let blunder = blunders.contains(&e.node) && !e.text.ends_with("??");
                    let label = if blunder {
                        format!("{} ??", e.text)
                    } else {
                        e.text.clone()
                    };
                    let open = if e.opens { "(" } else { "" };
                    let label = format!("{open}{label}{}", ")".repeat(e.closes));
                    let mut text = RichText::new(label);
                    if e.ahead || !e.on_line {
                        text = text.weak();
                    }
                    if e.depth > 0 && !e.on_line {
                        text = text.italics();
                    }
                    // Red, except on the selection's colour, where the
                    // theme's text colour reads.
                    if blunder && !e.current {
                        text = text.color(error);
                    }
                    ui.horizontal(|ui| {
                        ui.add_space(INDENT * e.depth as f32);
                        let r = ui.selectable_label(e.current, text);
                        if r.clicked() {
                            out.push(Action::GoTo(e.node));
                        }
                        if scroll_to_current && e.current {
                            r.scroll_to_me(None);
                        }
                        let main = self.model.game().cursor().tree().is_main_line(e.node);
                        r.context_menu(|ui| {
                            if ui
                                .add_enabled(!main, egui::Button::new("Promote variation"))
                                .clicked()
                            {
                                out.push(Action::Promote(e.node));
                                ui.close();
                            }
                            if ui.button("Delete from here").clicked() {
                                out.push(Action::DeleteFrom(e.node));
                                ui.close();
                            }
                        });
                    });
                    if let Some(c) = &e.comment {
                        ui.horizontal(|ui| {
                            ui.add_space(INDENT * (e.depth as f32 + 1.0));
                            ui.add(egui::Label::new(RichText::new(c).italics().weak()).wrap());
                        });
                    }
                }
                // How the main line ends, as the record's result.
                if let Some(end) = &ending {
                    ui.add(egui::Label::new(RichText::new(end).strong()).wrap());
                }
            });
    }

    /// Under the list: the glyph and comment of the move shown, and the
    /// variation's buttons.
    pub(super) fn notes_row(&mut self, ui: &mut egui::Ui, out: &mut Vec<Action>) {
        let node = self.model.game().cursor().node();
        let tree = self.model.game().cursor().tree();
        let id = ui.make_persistent_id("play-comment");
        let editing = ui.memory(|m| m.has_focus(id));
        let saved = tree.comment(node).unwrap_or("");
        if self.comment_node != Some(node) || (!editing && self.comment_text != saved) {
            self.comment_node = Some(node);
            self.comment_text = saved.to_string();
        }
        let at_move = node != MoveTree::ROOT;
        ui.horizontal_wrapped(|ui| {
            let current = tree.glyph(node);
            for g in Glyph::ALL {
                let r = ui
                    .add_enabled(
                        at_move,
                        egui::Button::selectable(current == Some(g), g.as_str()),
                    )
                    .on_hover_text(format!("mark the move shown {}", glyph_name(g)));
                if r.clicked() {
                    let to = (current != Some(g)).then_some(g);
                    out.push(Action::SetGlyph(node, to));
                }
            }
            if ui
                .add_enabled(
                    self.model.game().history().can_undo(),
                    egui::Button::new("Undo"),
                )
                .on_hover_text(
                    "Ctrl+Z: take back the last move played (on to your turn), deletion, \
                     promotion, glyph, comment or marks",
                )
                .clicked()
            {
                out.push(Action::Undo);
            }
            if ui
                .add_enabled(
                    self.model.game().history().can_redo(),
                    egui::Button::new("Redo"),
                )
                .on_hover_text("Ctrl+Shift+Z or Ctrl+Y: make again what Undo took back")
                .clicked()
            {
                out.push(Action::Redo);
            }
            let main = tree.is_main_line(node);
            if ui
                .add_enabled(!main, egui::Button::new("Promote"))
                .on_hover_text("move this variation one place up (to the main line from the first)")
                .clicked()
            {
                out.push(Action::Promote(node));
            }
            if ui
                .add_enabled(at_move, egui::Button::new("Delete"))
                .on_hover_text(
                    "delete the move shown and every move after it (Undo brings them back)",
                )
                .clicked()
            {
                out.push(Action::DeleteFrom(node));
            }
        });
        let hint = if at_move {
            "comment on the move shown"
        } else {
            "comment before the first move"
        };
        let r = ui.add(
            egui::TextEdit::singleline(&mut self.comment_text)
                .id(id)
                .hint_text(hint)
                .desired_width(f32::INFINITY),
        );
        if r.changed() {
            out.push(Action::SetComment(node));
        }
    }
}

/// A glyph's meaning, for its hover text.
fn glyph_name(g: Glyph) -> &'static str {
    match g {
        Glyph::Good => "good (!)",
        Glyph::Mistake => "a mistake (?)",
        Glyph::Brilliant => "brilliant (!!)",
        Glyph::Blunder => "a blunder (??)",
        Glyph::Interesting => "interesting (!?)",
        Glyph::Dubious => "dubious (?!)",
    }
}
