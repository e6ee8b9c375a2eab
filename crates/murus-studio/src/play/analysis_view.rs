//! Drawing the analysis: the toggle and what the live search found (side
//! panel), the evaluation bar and the best line on the board, the scores
//! in the cells' hover texts, and the review's graph and blunders.

use egui::{Color32, Pos2, Rect, RichText, Sense, Stroke, StrokeKind, Vec2};
use egui_plot::{HLine, Line, MarkerShape, PlotPoints, Points, VLine};
use murus_ai::analysis::Score;
use murus_engine::Move;

use super::analysis::{self, BLUNDER_CP, PositionEval, arrow_cells, graph_value, score_text};
use super::{Action, Analysis, PlayModel, PlayPanel};
use crate::{board, layout, theme};

/// Width of the evaluation bar beside the board.
pub(super) const BAR_WIDTH: f32 = 22.0;
/// Moves of the best line drawn on the board.
const ARROWS: usize = 3;
/// Best moves listed in the side panel (every move's score is in the
/// board's hover texts).
const LISTED: usize = 5;
/// Moves named in one cell's hover text.
const PER_CELL: usize = 8;
/// The height of the score written on the evaluation bar.
const NUMBER_HEIGHT: f32 = 16.0;
/// Rows of the live analysis: the status (two rows, wrapped), the best
/// line, the proven value, the best moves and the count of the others,
/// shown or not.
const LIVE_ROWS: f32 = 5.0 + LISTED as f32;

impl PlayPanel {
    /// The analysis as this frame draws it.
    pub(super) fn analysis_view(&self) -> AnalysisView<'_> {
        AnalysisView {
            analysis: &self.analysis,
            model: &self.model,
            flipped: self.flipped,
        }
    }
}

/// The analysis as drawn in one frame: the part, the model it analyses
/// and whether the board is turned.
pub(super) struct AnalysisView<'a> {
    analysis: &'a Analysis,
    model: &'a PlayModel,
    flipped: bool,
}

impl AnalysisView<'_> {
    /// The analysis section of the side panel: the toggle and "Analyze
    /// game" in one row, the review's graph (shown from its start), under
    /// it the review's progress and Cancel while it runs and its blunders
    /// once it has ended, and the live search's depth, score, best line
    /// and best moves, in rows of their own whatever they hold.
    pub(super) fn section(&self, ui: &mut egui::Ui, out: &mut Vec<Action>) {
        let mut on = self.analysis.is_on();
        ui.horizontal(|ui| {
            if ui
                .checkbox(&mut on, "Analysis")
                .on_hover_text(
                    "search the position shown in the background: the evaluation bar, the best \
                     line on the board, every move's score in the cells' hover texts",
                )
                .changed()
            {
                out.push(Action::SetAnalysis(on));
            }
            self.review_button(ui, out);
        });
        self.review_section(ui, out);
        self.review_progress(ui, out);
        if on {
            layout::reserved(ui, LIVE_ROWS, |ui| self.live_text(ui));
        }
    }

    /// One row of text, elided when too long, the whole `hover` (the
    /// text itself, and more) on hover.
    fn row(ui: &mut egui::Ui, text: RichText, hover: &str) {
        ui.add(
            egui::Label::new(text)
                .truncate()
                .show_tooltip_when_elided(false),
        )
        .on_hover_text(hover);
    }

    fn live_text(&self, ui: &mut egui::Ui) {
        let m = &self.model;
        let v = m.game().cursor().variant();
        let why_not = if m.game().cursor().game().outcome().is_some() {
            Some("the game is over")
        } else if m.setup().is_some() {
            Some("waits while a position is set up")
        } else if m.seats().thinking().is_some() {
            Some("waits while the bot thinks")
        } else if self.analysis.is_reviewing() {
            Some("waits while the game is analysed")
        } else {
            None
        };
        let eval = self.analysis.current(m);
        let players = v.player_count();
        let view_note = |mover: usize| {
            if players == 2 {
                format!(
                    "scores from the {} point of view",
                    super::possessive(m.game().cursor().player_name(0))
                )
            } else {
                format!(
                    "scores from the {} point of view (the side to move)",
                    super::possessive(m.game().cursor().player_name(mover))
                )
            }
        };
        // Wrapped, never cut off: a deep search's status is long.
        ui.horizontal_wrapped(|ui| {
            if let Some(why) = why_not {
                ui.weak(why);
                return;
            }
            if self.analysis.is_searching() {
                ui.spinner();
            }
            match eval {
                Some(e) => {
                    let state = if e.done { "done" } else { "searching" };
                    let text = format!("Depth {} · {} nodes · {state}", e.depth, e.nodes);
                    ui.add(egui::Label::new(&text).wrap())
                        .on_hover_text(format!("{text}; {}", view_note(e.mover)));
                }
                None if self.analysis.is_searching() => {
                    ui.label("analysing…");
                }
                None => {
                    ui.weak("no result within the budget");
                }
            }
        });
        let Some(e) = eval.filter(|_| why_not.is_none()) else {
            return;
        };
        let note = view_note(e.mover);
        let pv: Vec<String> = e.pv().iter().map(|&mv| v.move_to_string(mv)).collect();
        let best = format!("Best line: {}", pv.join(" "));
        Self::row(ui, RichText::new(&best), &format!("{best}\n{note}"));
        if let Some(p) = &e.proven {
            let mut text = format!("Proven: {}", p.text(v));
            if !p.winning.is_empty() {
                let moves: Vec<String> = p.winning.iter().map(|&mv| v.move_to_string(mv)).collect();
                text += &format!(" · winning moves {}", moves.join(" "));
            }
            // Wrapped, never cut off: the winning moves may be many.
            ui.add(egui::Label::new(RichText::new(&text).strong()).wrap())
                .on_hover_text(format!(
                    "{text}\nsolved exactly by proof-number search, without the ply cap; a \
                     position repeated for ever is a draw"
                ));
        }
        for line in e.lines.iter().take(LISTED) {
            // A move proved to win or lose says so, whatever its score.
            let judged = e.judged_move(line.first, line.score);
            let text = format!(
                "{}  {}",
                v.move_to_string(line.first),
                judged.text(e.mover, v)
            );
            let rest: Vec<String> = line.pv.iter().map(|&mv| v.move_to_string(mv)).collect();
            Self::row(
                ui,
                RichText::new(&text).monospace(),
                &format!("{text}\nline: {}\n{note}", rest.join(" ")),
            );
        }
        if e.lines.len() > LISTED {
            ui.weak(format!(
                "{} more moves: hover the board's cells for their scores",
                e.lines.len() - LISTED
            ));
        }
    }

    /// What the evaluation bar shows.
    fn bar_state(&self) -> Bar {
        let m = &self.model;
        let v = m.game().cursor().variant();
        let players = v.player_count();
        let colours = board::player_colours(v.rules());
        let colour = |p: usize| colours.get(p).copied().unwrap_or(Color32::GRAY);
        if let Some(o) = m.game().cursor().game().outcome() {
            let label = format!(
                "Evaluation: {}",
                v.describe_outcome_at(o, m.game().cursor().game().position())
            );
            let (fill, number) = match o.winner {
                Some(w) if players == 2 => (
                    Some((if w == 0 { 1.0 } else { 0.0 }, colour(0))),
                    Some(if w == 0 { "1-0" } else { "0-1" }),
                ),
                Some(w) => (Some((1.0, colour(w))), None),
                None => (Some((0.5, colour(0))), Some("½")),
            };
            return Bar {
                label,
                fill,
                note: "the game is over".into(),
                number: number.map(str::to_string),
            };
        }
        let pending = |note: &str| Bar {
            label: "Evaluation pending".into(),
            fill: None,
            note: note.into(),
            number: None,
        };
        let Some(e) = self.analysis.current(m) else {
            return pending("the analysis is searching");
        };
        let Some(judged) = e.judged() else {
            return pending("");
        };
        let viewer = analysis::viewer(players, e.mover);
        let text = judged.text(e.mover, v);
        let who = super::possessive(m.game().cursor().player_name(viewer));
        let (label, note) = if players == 2 {
            (
                format!("Evaluation {text}"),
                format!(
                    "the {who} point of view: positive is good for the {}; depth {}",
                    m.game().cursor().player_name(viewer),
                    e.depth
                ),
            )
        } else {
            (
                format!(
                    "Evaluation ({} to move) {text}",
                    m.game().cursor().player_name(viewer)
                ),
                format!(
                    "the {who} point of view (the side to move); depth {}",
                    e.depth
                ),
            )
        };
        Bar {
            label,
            fill: Some((judged.bar_fraction(e.mover, players), colour(viewer))),
            note,
            number: Some(judged.short(e.mover, players)),
        }
    }

    /// The evaluation bar in `rect`: the viewer's share fills from the
    /// bottom (the top when the board is flipped), the score written at
    /// that end.
    pub(super) fn eval_bar(&self, ui: &mut egui::Ui, rect: Rect) {
        let bar = self.bar_state();
        let r = ui.interact(rect, ui.scope_id().with("eval-bar"), Sense::hover());
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Meter, true, &bar.label));
        let painter = ui.painter_at(rect.expand(1.0));
        let back = if ui.visuals().dark_mode {
            Color32::from_gray(50)
        } else {
            Color32::from_gray(215)
        };
        painter.rect_filled(rect, 3.0, back);
        let mut ink = board::contrast(back);
        if let Some((share, colour)) = bar.fill {
            let h = rect.height() * share.clamp(0.0, 1.0);
            let part = if self.flipped {
                Rect::from_min_size(rect.min, Vec2::new(rect.width(), h))
            } else {
                Rect::from_min_max(Pos2::new(rect.min.x, rect.max.y - h), rect.max)
            };
            painter.rect_filled(part, 3.0, colour);
            if h >= NUMBER_HEIGHT {
                ink = board::contrast(colour);
            }
        }
        let mid = rect.center().y;
        painter.line_segment(
            [Pos2::new(rect.min.x, mid), Pos2::new(rect.max.x, mid)],
            Stroke::new(1.0, ui.visuals().weak_text_color()),
        );
        painter.rect_stroke(
            rect,
            3.0,
            Stroke::new(1.0, ui.visuals().weak_text_color()),
            StrokeKind::Inside,
        );
        let text = if bar.note.is_empty() {
            bar.label
        } else {
            format!("{}\n{}", bar.label, bar.note)
        };
        r.on_hover_text(text.clone());
        // The score, written across the bar at the viewer's end.
        if let Some(number) = bar.number {
            let at = if self.flipped {
                Rect::from_min_size(rect.min, Vec2::new(rect.width(), NUMBER_HEIGHT))
            } else {
                Rect::from_min_max(Pos2::new(rect.min.x, rect.max.y - NUMBER_HEIGHT), rect.max)
            };
            let label = egui::Label::new(RichText::new(number).size(9.5).color(ink))
                .selectable(false)
                .wrap_mode(egui::TextWrapMode::Extend);
            ui.put(at, label).on_hover_text(text);
        }
    }

    /// The best line's arrows and every move's score for the cells' hover
    /// texts, when the live analysis has a result for the position shown.
    pub(super) fn notes(&self) -> (Vec<board::Arrow>, Vec<(usize, String)>) {
        let m = &self.model;
        let Some(e) = self.analysis.current(m).filter(|_| m.setup().is_none()) else {
            return (Vec::new(), Vec::new());
        };
        let v = m.game().cursor().variant();
        let colours = board::player_colours(v.rules());
        let mut arrows = Vec::new();
        let mut pos = *m.game().cursor().game().position();
        for (i, &mv) in e.pv().iter().take(ARROWS).enumerate() {
            let mover = v.turn(&pos);
            if let Some((from, to)) = arrow_cells(mv) {
                let c = colours.get(mover).copied().unwrap_or(Color32::GRAY);
                let alpha = [230, 170, 120][i.min(2)];
                arrows.push(board::Arrow {
                    from,
                    to,
                    colour: Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), alpha),
                    label: (i + 1).to_string(),
                });
            }
            pos = v.play(&pos, mv);
        }
        (arrows, self.move_hover(e))
    }

    /// Per cell, the moves that start or end there with their scores (with
    /// a stack selected: its moves, on their targets).
    fn move_hover(&self, e: &PositionEval) -> Vec<(usize, String)> {
        let m = &self.model;
        let v = m.game().cursor().variant();
        let text = |mv: Move, s: Score| {
            let judged = e.judged_move(mv, s);
            format!("{}: {}", v.move_to_string(mv), judged.text(e.mover, v))
        };
        let mut per_cell: Vec<Vec<String>> = vec![Vec::new(); v.geometry().slots()];
        let mut add = |cell: usize, line: String| {
            if let Some(lines) = per_cell.get_mut(cell)
                && !lines.contains(&line)
            {
                lines.push(line);
            }
        };
        for l in &e.lines {
            let line = text(l.first, l.score);
            match m.pick().selected() {
                Some(from) if l.first.origin() == Some(from) => {
                    for t in l.first.targets() {
                        add(t, line.clone());
                    }
                }
                Some(_) => {}
                None => {
                    if let Some(o) = l.first.origin() {
                        add(o, line.clone());
                    }
                    for t in l.first.targets() {
                        add(t, line.clone());
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (cell, lines) in per_cell.into_iter().enumerate() {
            let n = lines.len();
            for line in lines.into_iter().take(PER_CELL) {
                out.push((cell, line));
            }
            if n > PER_CELL {
                out.push((cell, format!("… {} more", n - PER_CELL)));
            }
        }
        out
    }

    /// "Analyze game", disabled while a review runs (its progress and
    /// Cancel are under the graph: nothing takes the button's place).
    fn review_button(&self, ui: &mut egui::Ui, out: &mut Vec<Action>) {
        let idle = !self.analysis.is_reviewing() && self.model.game().cursor().line_len() > 0;
        if ui
            .add_enabled(idle, egui::Button::new("Analyze game"))
            .on_hover_text(format!(
                "search every position of the line ({} nodes each), graph the evaluation and \
                 mark the blunders",
                self.analysis.review_limits.nodes.unwrap_or(0)
            ))
            .clicked()
        {
            out.push(Action::StartReview);
        }
    }

    /// While a review runs: Cancel and how many positions are done.
    fn review_progress(&self, ui: &mut egui::Ui, out: &mut Vec<Action>) {
        if !self.analysis.is_reviewing() {
            return;
        }
        ui.horizontal(|ui| {
            // The button first: the count beside it grows.
            if ui.button("Cancel").clicked() {
                out.push(Action::CancelReview);
            }
            ui.spinner();
            if let Some(r) = self.analysis.review(self.model) {
                let (done, all) = r.progress();
                ui.label(format!("{done}/{all} positions"))
                    .on_hover_text("analysing the game");
            }
        });
    }

    /// The review's graph and blunders.
    fn review_section(&self, ui: &mut egui::Ui, out: &mut Vec<Action>) {
        let Some(review) = self.analysis.review(self.model).cloned() else {
            return;
        };
        let v = self.model.game().cursor().variant().clone();
        let evals = review.evals();
        let blunders = review.blunders();
        let ply = self.model.game().cursor().game().ply();
        let points: Vec<[f64; 2]> = evals
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.map(|s| [i as f64, graph_value(s)]))
            .collect();
        let marks: Vec<[f64; 2]> = blunders
            .iter()
            .filter_map(|b| {
                evals
                    .get(b.index + 1)
                    .copied()
                    .flatten()
                    .map(|s| [(b.index + 1) as f64, graph_value(s)])
            })
            .collect();
        let view = match review.viewer() {
            Some(p) => format!(
                "the {} point of view (up is good for the {})",
                super::possessive(self.model.game().cursor().player_name(p)),
                self.model.game().cursor().player_name(p)
            ),
            None => "each position for its side to move".to_string(),
        };
        let line = theme::series(ui, 0);
        let error = theme::error(ui);
        let weak = ui.visuals().weak_text_color();
        let top = graph_limit(points.iter().map(|p| p[1]));
        let step = top / 2.0;
        let r = crate::layout::still_plot("play-review", 150.0)
            .include_x(0.0)
            .include_x(evals.len().saturating_sub(1).max(1) as f64)
            .include_y(-top)
            .include_y(top)
            // Plies, a label every 1, 2, 5, 10, 20… of them: three or more
            // fit in the side panel.
            .x_grid_spacer(|input| {
                let (lo, hi) = input.bounds;
                let step = [1.0, 2.0, 5.0]
                    .iter()
                    .flat_map(|s| [1.0, 10.0, 100.0, 1000.0].map(|m| s * m))
                    .filter(|s| *s >= (hi - lo) / 3.0)
                    .fold(f64::INFINITY, f64::min);
                grid_marks(input.bounds, step)
            })
            // Every half of the range: `-10 -5 0 +5 +10` stones.
            .y_grid_spacer(move |input| grid_marks(input.bounds, step))
            .y_axis_formatter(|mark, _| match mark.value {
                v if v.abs() < 1e-9 => "0".to_string(),
                v => format!("{v:+}"),
            })
            .y_axis_min_width(28.0)
            .show(ui, |p| {
                p.hline(HLine::new("even", 0.0).color(weak).width(1.0));
                p.vline(VLine::new("shown", ply as f64).color(weak).width(1.0));
                p.line(
                    Line::new("evaluation", PlotPoints::from(points))
                        .color(line)
                        .width(2.0),
                );
                p.points(
                    Points::new("blunders", PlotPoints::from(marks))
                        .shape(MarkerShape::Circle)
                        .radius(4.0)
                        .color(error),
                );
            });
        let graph_label = format!(
            "Evaluation graph: {} positions, {}",
            evals.len(),
            match blunders.len() {
                1 => "1 blunder".to_string(),
                n => format!("{n} blunders"),
            }
        );
        r.response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &graph_label));
        if r.response.clicked()
            && let Some(p) = r.response.interact_pointer_pos()
        {
            let x = r.transform.value_from_position(p).x.round();
            if x >= 0.0 {
                out.push(Action::JumpTo(x as usize));
            }
        }
        let depths = match review.depths() {
            Some((lo, hi)) if lo == hi => format!("; each position searched to depth {lo}"),
            Some((lo, hi)) => format!("; positions searched to depth {lo} to {hi}"),
            None => String::new(),
        };
        r.response.on_hover_text(format!(
            "in stones, from {view}; proven wins at ±10; red: blunders; a click shows that \
             ply{depths}"
        ));
        if review.viewer().is_none() {
            ui.weak("blunders are marked in two-player games only");
            return;
        }
        if !review.is_complete() {
            return;
        }
        if blunders.is_empty() {
            ui.weak("No blunders found");
            return;
        }
        ui.label(format!("Blunders ({}):", blunders.len())).on_hover_text(format!(
            "a move that costs its mover over {:.1} stones, lets a proven win go, or walks into \
             a proven loss (at this budget); a click shows the position before it",
            f64::from(BLUNDER_CP) / 100.0
        ));
        let mut jump = None;
        let texts = self.model.game().cursor().line_texts();
        for b in &blunders {
            let viewer = review.viewer().unwrap_or(b.mover);
            let before = analysis::for_player(b.before, b.mover, viewer);
            let after = analysis::for_player(b.after, b.mover, viewer);
            let name = texts.get(b.index).cloned().unwrap_or_default();
            let text = format!(
                "Blunder {name}: from {} (depth {}) to {} (depth {})",
                score_text(before, viewer, &v),
                review.depth(b.index),
                score_text(after, viewer, &v),
                review.depth(b.index + 1)
            );
            // Red, except on the selection's colour, where the theme's
            // text colour reads.
            let selected = ply == b.index;
            let text = RichText::new(text);
            let text = if selected { text } else { text.color(error) };
            if ui.selectable_label(selected, text).clicked() {
                jump = Some(b.index);
            }
        }
        if ui
            .add_enabled(
                review.is_complete(),
                egui::Button::new("Mark in the move list"),
            )
            .on_hover_text("?? on each blunder, the better line found as a variation")
            .clicked()
        {
            out.push(Action::MarkBlunders);
        }
        if let Some(to) = jump {
            out.push(Action::JumpTo(to));
        }
    }
}

/// The top of the review graph's scale, in stones: 2, 5 or 10 (a proven
/// win), whichever first holds every value, so that its ticks read
/// `-2 -1 0 +1 +2` up to `-10 -5 0 +5 +10`.
pub(super) fn graph_limit(values: impl Iterator<Item = f64>) -> f64 {
    let most = values.fold(0.0_f64, |m, v| m.max(v.abs()));
    [2.0, 5.0, 10.0]
        .into_iter()
        .find(|&l| most <= l)
        .unwrap_or(10.0)
}

/// What the evaluation bar shows: its accessible label, the viewer's
/// share (0 to 1) and colour, a note for the hover text, and the score in a
/// few characters.
struct Bar {
    label: String,
    fill: Option<(f32, Color32)>,
    note: String,
    number: Option<String>,
}

/// Grid marks every `step` within `bounds`, all labelled.
fn grid_marks((lo, hi): (f64, f64), step: f64) -> Vec<egui_plot::GridMark> {
    let mut out = Vec::new();
    let mut k = (lo / step).ceil();
    while k * step <= hi {
        out.push(egui_plot::GridMark {
            // `+ 0.0`: no "-0" label.
            value: k * step + 0.0,
            step_size: step,
        });
        k += 1.0;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_graph_scale_is_the_smallest_of_2_5_and_10_stones_that_holds_every_value() {
        assert_eq!(graph_limit([0.3, -1.2].into_iter()), 2.0);
        assert_eq!(graph_limit([0.3, -4.0].into_iter()), 5.0);
        assert_eq!(graph_limit([10.0, -0.26].into_iter()), 10.0);
        assert_eq!(graph_limit(std::iter::empty()), 2.0);
        let ticks: Vec<f64> = grid_marks((-10.5, 10.5), 5.0)
            .iter()
            .map(|m| m.value)
            .collect();
        assert_eq!(ticks, [-10.0, -5.0, 0.0, 5.0, 10.0]);
        assert!(grid_marks((-0.4, 4.2), 2.0)[0].value.is_sign_positive());
    }
}
