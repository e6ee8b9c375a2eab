//! Play's exports: a diagram of the position shown (SVG or PNG, by the
//! file's extension; the last move shaded, and the arrows of a line when
//! asked) and the line shown as an animated GIF, drawn by murus-publish as
//! `murus diagram` draws them.

use std::path::Path;

use murus_engine::{Move, MoveTree};
use murus_publish::{Diagram, Theme, game_gif};

use super::PlayModel;
use crate::files;

/// How many moves of a line get arrows on an exported diagram.
pub const EXPORT_ARROWS: usize = 3;

/// PNG diagrams and GIF frames at twice the SVG's size.
const SCALE: f32 = 2.0;
/// A GIF frame a second.
const DELAY_CS: u16 = 100;

impl PlayModel {
    /// The diagram of the position shown, with the last move shaded and an
    /// arrow for each of `arrows` (at most [`EXPORT_ARROWS`]; a swap has
    /// none), as SVG or PNG by `path`'s extension.
    pub fn diagram_bytes(&self, path: &Path, arrows: &[Move]) -> Result<Vec<u8>, String> {
        let v = &self.variant;
        let mut d = Diagram::new(v, *self.game.position()).coordinates(true);
        if let Some(m) = self.tree.mv(self.node) {
            d = d.highlight_move(m);
        }
        for &m in arrows.iter().take(EXPORT_ARROWS) {
            d = match d.clone().arrow(m) {
                Ok(with) => with,
                Err(_) => d,
            };
        }
        match extension(path).as_deref() {
            Some("svg") => Ok(d.to_svg().into_bytes()),
            Some("png") => d.to_png(SCALE).map_err(|e| e.to_string()),
            _ => Err(format!(
                "{}: a diagram is written as .svg or .png",
                path.display()
            )),
        }
    }

    /// Writes [`PlayModel::diagram_bytes`] to `path`; says what happened.
    pub fn export_diagram(&mut self, path: &Path, arrows: &[Move]) -> bool {
        let bytes = self.diagram_bytes(path, arrows);
        self.write_export(path, bytes)
    }

    /// The line shown (from the start to the end of its main continuation)
    /// as an animated GIF, a frame a ply.
    pub fn gif_bytes(&self) -> Result<Vec<u8>, String> {
        let line: Vec<Move> = self
            .tree
            .line_through(self.node)
            .into_iter()
            .filter_map(|n| self.tree.mv(n))
            .collect();
        if line.is_empty() {
            return Err("no moves to animate: play or open a game first".into());
        }
        game_gif(
            &self.variant,
            *self.game.start(),
            &line,
            Theme::Colour,
            true,
            SCALE,
            DELAY_CS,
        )
        .map_err(|e| e.to_string())
    }

    /// Writes [`PlayModel::gif_bytes`] to `path`; says what happened.
    pub fn export_gif(&mut self, path: &Path) -> bool {
        let bytes = if extension(path).as_deref() == Some("gif") {
            self.gif_bytes()
        } else {
            Err(format!("{}: a game is animated as .gif", path.display()))
        };
        self.write_export(path, bytes)
    }

    fn write_export(&mut self, path: &Path, bytes: Result<Vec<u8>, String>) -> bool {
        let written = bytes
            .and_then(|b| murus_engine::util::write_atomic(path, b).map_err(|e| e.to_string()));
        match written {
            Ok(()) => {
                self.feedback
                    .info(format!("exported {}", files::short_name(path)));
                true
            }
            Err(e) => {
                self.feedback.error(e);
                false
            }
        }
    }

    /// Whether the board shows a move (the diagram has a last move).
    pub fn shows_a_move(&self) -> bool {
        self.node != MoveTree::ROOT
    }
}

fn extension(path: &Path) -> Option<String> {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use crate::play::{PlayModel, PlaySaved};

    fn played(moves: &[&str]) -> PlayModel {
        let saved = PlaySaved {
            seats: vec!["human".into(), "human".into()],
            ..PlaySaved::default()
        };
        let mut m = PlayModel::new(&saved);
        for t in moves {
            assert!(m.play_text(t));
        }
        m
    }

    #[test]
    fn a_diagram_shows_the_position_its_last_move_and_the_arrows_asked() {
        let m = played(&["b1-b3", "c7-c5"]);
        let best = m
            .variant()
            .parse_move(m.game().position(), "a1-a3")
            .unwrap();
        let svg = m
            .diagram_bytes(std::path::Path::new("x.svg"), &[best])
            .unwrap();
        let svg = String::from_utf8(svg).unwrap();
        assert!(svg.contains(r#"data-move="a1-a3""#), "the arrow asked");
        assert_eq!(svg.matches(r#"class="arrow""#).count(), 1);
        assert!(svg.contains(r#"data-cell="c5""#));
        let png = m.diagram_bytes(std::path::Path::new("x.PNG"), &[]).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let e = m
            .diagram_bytes(std::path::Path::new("x.pdf"), &[])
            .unwrap_err();
        assert!(e.contains(".svg or .png"), "{e}");
    }

    #[test]
    fn the_gif_animates_the_line_shown_even_from_an_earlier_ply() {
        let mut m = played(&["b1-b3", "c7-c5", "e1-e3"]);
        m.jump_to(1);
        let gif = m.gif_bytes().unwrap();
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options.read_info(gif.as_slice()).unwrap();
        let mut frames = 0;
        while decoder.read_next_frame().unwrap().is_some() {
            frames += 1;
        }
        assert_eq!(frames, 4, "the start and a frame a ply of the whole line");
        let empty = played(&[]);
        assert!(empty.gif_bytes().unwrap_err().contains("no moves"));
    }
}
