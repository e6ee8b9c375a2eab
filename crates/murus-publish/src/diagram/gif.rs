//! A game as an animated GIF ([`GameGif`]): a frame for the start and one
//! after each move, each a [`Diagram`] with coordinates and a label under
//! the board naming the move as a record numbers it ("12. c3-e5").

use murus_engine::job::Handler;
use murus_engine::{Move, Position, Variant};

use super::{Diagram, DiagramError, Theme};

/// The least width of a GIF's frames, in pixels, unless a scale is given.
pub const GIF_MIN_WIDTH: f64 = 400.0;

/// How far [`GameGif::encode_with`] has got: frames drawn and encoded, of
/// how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frames {
    pub done: usize,
    pub of: usize,
}

/// A game to animate: the position `start`, then each of `moves` (legal in
/// turn) with its cells shaded, each shown for a delay (the last three
/// times as long), looping.
///
/// ```
/// use murus_engine::Variant;
/// use murus_publish::diagram::GameGif;
///
/// let v = Variant::standard();
/// let m = v.parse_move(&v.start(), "b1-b3").unwrap();
/// let gif = GameGif::new(&v, v.start(), &[m]);
/// assert_eq!(gif.labels(), ["Start", "1. b1-b3"]);
/// assert!(gif.encode().unwrap().starts_with(b"GIF89a"));
/// ```
#[derive(Clone, Debug)]
pub struct GameGif<'v> {
    variant: &'v Variant,
    start: Position,
    moves: Vec<Move>,
    theme: Theme,
    coordinates: bool,
    scale: Option<f32>,
    delay_cs: u16,
}

impl<'v> GameGif<'v> {
    /// The game of `moves` from `start`, in colour, with coordinates, a
    /// second a frame, at least [`GIF_MIN_WIDTH`] pixels wide.
    pub fn new(variant: &'v Variant, start: Position, moves: &[Move]) -> GameGif<'v> {
        GameGif {
            variant,
            start,
            moves: moves.to_vec(),
            theme: Theme::Colour,
            coordinates: true,
            scale: None,
            delay_cs: 100,
        }
    }

    /// The look.
    pub fn theme(mut self, theme: Theme) -> GameGif<'v> {
        self.theme = theme;
        self
    }

    /// Files and ranks named beside the board (the default).
    pub fn coordinates(mut self, on: bool) -> GameGif<'v> {
        self.coordinates = on;
        self
    }

    /// Pixels per SVG unit (1: a cell 60 pixels wide); without it, the
    /// least scale from 1 up that makes the frames [`GIF_MIN_WIDTH`] wide.
    pub fn scale(mut self, scale: f32) -> GameGif<'v> {
        self.scale = Some(scale);
        self
    }

    /// How long a frame is shown, in hundredths of a second.
    pub fn delay(mut self, delay_cs: u16) -> GameGif<'v> {
        self.delay_cs = delay_cs;
        self
    }

    /// Each frame's label: "Start", then each move numbered as a record
    /// numbers it (`1. b1-b3`, `1... g7-g5`: the round, and dots for a
    /// player after the round's first); the last adds the result when the
    /// game ends there.
    pub fn labels(&self) -> Vec<String> {
        let v = self.variant;
        let n = v.player_count().max(1);
        let first = v.turn(&self.start);
        let mut pos = self.start;
        let mut labels = vec!["Start".to_string()];
        for (i, &m) in self.moves.iter().enumerate() {
            let ply = first + i;
            let dots = if ply % n == 0 { "." } else { "..." };
            labels.push(format!("{}{dots} {}", ply / n + 1, v.move_to_string(m)));
            pos = v.play(&pos, m);
        }
        let end = v.outcome(&pos).filter(|_| !self.moves.is_empty());
        if let (Some(o), Some(last)) = (end, labels.last_mut()) {
            last.push_str(&format!(": {}", v.describe_outcome_at(o, &pos)));
        }
        labels
    }

    /// The frames: the start, then the position after each move with its
    /// cells shaded, each labelled, all the same size.
    pub fn frames(&self) -> Vec<Diagram<'v>> {
        let v = self.variant;
        let labels = self.labels();
        let mut frames = vec![Diagram::new(v, self.start)];
        let mut pos = self.start;
        for &m in &self.moves {
            pos = v.play(&pos, m);
            frames.push(Diagram::new(v, pos).highlight_move(m));
        }
        let frames: Vec<Diagram<'v>> = frames
            .into_iter()
            .zip(labels)
            .map(|(d, label)| {
                d.theme(self.theme)
                    .coordinates(self.coordinates)
                    .caption(label)
            })
            .collect();
        let width = frames.iter().map(|d| d.size().0).fold(0.0, f64::max);
        frames.into_iter().map(|d| d.min_width(width)).collect()
    }

    /// The scale the frames are drawn at (see [`GameGif::scale`]).
    pub fn pixel_scale(&self) -> f32 {
        if let Some(scale) = self.scale {
            return scale;
        }
        let width = self.frames().first().map_or(GIF_MIN_WIDTH, |d| d.size().0);
        // In hundredths, rounded up: the pixels are at least the width.
        let least = (GIF_MIN_WIDTH / width * 100.0).ceil() / 100.0;
        least.max(1.0) as f32
    }

    /// The animated GIF.
    pub fn encode(&self) -> Result<Vec<u8>, DiagramError> {
        self.encode_with(&())
    }

    /// [`GameGif::encode`], telling `handler` after each frame how many
    /// are done, and stopping with [`DiagramError::Stopped`] once it asks
    /// (a long game takes seconds: an app runs this in the background).
    pub fn encode_with(&self, handler: &dyn Handler<Frames>) -> Result<Vec<u8>, DiagramError> {
        let scale = self.pixel_scale();
        let frames = self.frames();
        let of = frames.len();
        let first = frames
            .first()
            .ok_or_else(|| DiagramError::Render("no frames".into()))?
            .to_pixmap(scale)?;
        let (w, h) = (first.width(), first.height());
        let too_big = || DiagramError::Render(format!("{w}x{h} is too large for a GIF"));
        let (w, h) = (
            u16::try_from(w).map_err(|_| too_big())?,
            u16::try_from(h).map_err(|_| too_big())?,
        );
        let fail = |e: gif::EncodingError| DiagramError::Render(e.to_string());
        let mut out = Vec::new();
        {
            let mut encoder = gif::Encoder::new(&mut out, w, h, &[]).map_err(fail)?;
            encoder.set_repeat(gif::Repeat::Infinite).map_err(fail)?;
            let mut next = Some(first);
            for (i, d) in frames.iter().enumerate() {
                if handler.stop() {
                    return Err(DiagramError::Stopped);
                }
                // Drawn one at a time: a long game's frames are never all
                // held at once.
                let pixmap = match next.take() {
                    Some(p) => p,
                    None => d.to_pixmap(scale)?,
                };
                // Opaque pixels: premultiplied RGBA is plain RGBA.
                let mut rgba = pixmap.take();
                let mut frame = gif::Frame::from_rgba_speed(w, h, &mut rgba, 10);
                frame.delay = if i + 1 == of {
                    self.delay_cs.saturating_mul(3)
                } else {
                    self.delay_cs
                };
                encoder.write_frame(&frame).map_err(fail)?;
                handler.progress(&Frames { done: i + 1, of });
            }
        }
        Ok(out)
    }
}

/// A game as an animated GIF ([`GameGif`]) of `theme` at `scale`, with
/// coordinates if asked, each frame shown `delay_cs` hundredths of a
/// second.
pub fn game_gif(
    variant: &Variant,
    start: Position,
    moves: &[Move],
    theme: Theme,
    coordinates: bool,
    scale: f32,
    delay_cs: u16,
) -> Result<Vec<u8>, DiagramError> {
    GameGif::new(variant, start, moves)
        .theme(theme)
        .coordinates(coordinates)
        .scale(scale)
        .delay(delay_cs)
        .encode()
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use murus_engine::job::{Cancel, HandlerExt};

    use super::*;

    #[test]
    fn encoding_tells_each_frame_done_and_stops_when_asked() {
        let v = Variant::standard();
        let start = v.start();
        let a = v.parse_move(&start, "b1-b3").unwrap();
        let b = v.parse_move(&v.play(&start, a), "c7-c5").unwrap();
        let gif = GameGif::new(&v, start, &[a, b]).scale(0.5);
        let seen = Mutex::new(Vec::new());
        let handler = Cancel::new().on_progress(|f: &Frames| seen.lock().unwrap().push(f.done));
        let bytes = gif.encode_with(&handler).unwrap();
        assert_eq!(bytes, gif.encode().unwrap());
        assert_eq!(*seen.lock().unwrap(), [1, 2, 3]);
        let cancel = Cancel::new();
        cancel.cancel();
        assert_eq!(gif.encode_with(&cancel), Err(DiagramError::Stopped));
    }
}
