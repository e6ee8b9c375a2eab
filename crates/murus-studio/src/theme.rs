//! The studio's colours, taken from egui's theme (dark or light) so that
//! every panel says "error", "warning" and "good" in the same colours.

use egui::{Color32, Ui};

/// Errors: refused actions, diagnostics that stop compilation.
pub fn error(ui: &Ui) -> Color32 {
    ui.visuals().error_fg_color
}

/// Warnings: suspicious but accepted.
pub fn warning(ui: &Ui) -> Color32 {
    ui.visuals().warn_fg_color
}

/// Good news: valid, solved, saved. egui's theme has no such colour; this
/// green reads on both the dark and the light background.
pub fn success(ui: &Ui) -> Color32 {
    if ui.visuals().dark_mode {
        Color32::from_rgb(110, 200, 120)
    } else {
        Color32::from_rgb(30, 130, 50)
    }
}

/// The background of a result banner (the theme's selection colour).
pub fn banner(ui: &Ui) -> Color32 {
    ui.visuals().selection.bg_fill
}

/// Text on [`banner`].
pub fn on_banner(ui: &Ui) -> Color32 {
    ui.visuals().selection.stroke.color
}

/// Colours for chart series that have no colour of their own (the
/// players' colours come from the rules file), from the theme's accents.
pub fn series(ui: &Ui, i: usize) -> Color32 {
    let v = ui.visuals();
    let accents = [
        v.selection.bg_fill,
        v.warn_fg_color,
        v.hyperlink_color,
        v.error_fg_color,
    ];
    accents[i % accents.len()]
}
