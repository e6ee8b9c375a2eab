//! What SVG text needs of a font without one: the lab's charts and the
//! published diagrams measure their labels alike.

/// About how wide `text` is at `size` in a sans-serif font: a bound that
/// holds for ordinary letters and digits, used to keep labels apart.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.6
}
