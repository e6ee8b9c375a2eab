//! Layout that stays still under the pointer: areas whose size does not
//! depend on what they show, so a message, a banner or a chooser that comes
//! and goes never pushes the widgets below it.

use egui::{Ui, UiBuilder, Vec2};

/// Runs `add` in an area of the full available width and exactly
/// `rows` text rows high, whatever it draws (longer content is clipped; it
/// should wrap).
pub fn reserved<R>(ui: &mut Ui, rows: f32, add: impl FnOnce(&mut Ui) -> R) -> R {
    let height = rows * ui.text_style_height(&egui::TextStyle::Body)
        + (rows - 1.0).max(0.0) * ui.spacing().item_spacing.y;
    reserved_height(ui, height, add)
}

/// [`reserved`] with a height in points.
pub fn reserved_height<R>(ui: &mut Ui, height: f32, add: impl FnOnce(&mut Ui) -> R) -> R {
    let width = ui.available_width();
    let (rect, _) = ui.allocate_exact_size(Vec2::new(width, height), egui::Sense::hover());
    let mut child = ui.new_child(
        UiBuilder::new()
            .max_rect(rect)
            .layout(egui::Layout::top_down(egui::Align::Min)),
    );
    child.set_clip_rect(rect.intersect(ui.clip_rect()));
    add(&mut child)
}

/// A plot that stays put: no dragging, zooming or scrolling.
pub fn still_plot(id: &str, height: f32) -> egui_plot::Plot<'static> {
    egui_plot::Plot::new(id)
        .height(height)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .allow_axis_zoom_drag(false)
        .show_x(false)
        .show_y(false)
}
