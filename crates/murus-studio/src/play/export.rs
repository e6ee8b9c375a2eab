//! Play's exports: a diagram of the position shown (SVG or PNG, by the
//! file's extension; the last move shaded, and the numbered arrows of a
//! line when asked) and the line shown as an animated GIF, drawn by
//! murus-publish as `murus diagram` draws them.
//!
//! [`Exports`] takes what to draw from the model when asked (so that the
//! board may change meanwhile) and draws and writes it on a worker of its
//! own: a long game's GIF takes seconds, and the window keeps drawing, with
//! the frames done so far and a Cancel button, until the result's message.

use std::path::{Path, PathBuf};

use murus_engine::{Move, Position, Variant};
use murus_publish::diagram::{Frames, GameGif};
use murus_publish::{Diagram, DiagramError, Theme};

use super::PlayModel;
use crate::files;
use crate::worker::{Reporter, Waker, Worker, no_waker};

/// How many moves of a line get arrows on an exported diagram.
pub const EXPORT_ARROWS: usize = 3;

/// PNG diagrams and GIF frames at twice the SVG's size.
const SCALE: f32 = 2.0;
/// A GIF frame a second.
const DELAY_CS: u16 = 100;

/// A diagram to draw: the position, its last move and the line whose
/// arrows it has, taken from the model when asked.
#[derive(Clone, Debug)]
pub struct DiagramJob {
    variant: Variant,
    position: Position,
    last: Option<Move>,
    arrows: Vec<Move>,
}

impl DiagramJob {
    /// The position `model` shows, with the last move shaded and an arrow
    /// for each of `line`'s first [`EXPORT_ARROWS`] moves (a swap has
    /// none), numbered in the order played.
    pub fn of(model: &PlayModel, line: &[Move]) -> DiagramJob {
        DiagramJob {
            variant: model.game().cursor().variant().clone(),
            position: *model.game().cursor().game().position(),
            last: model
                .game()
                .cursor()
                .tree()
                .mv(model.game().cursor().node()),
            arrows: line.iter().take(EXPORT_ARROWS).copied().collect(),
        }
    }

    /// The diagram as SVG or PNG, by `path`'s extension.
    pub fn bytes(&self, path: &Path) -> Result<Vec<u8>, ExportError> {
        let kind = diagram_kind(path)?;
        let v = &self.variant;
        let mut d = Diagram::new(v, self.position).coordinates(true);
        if let Some(m) = self.last {
            d = d.highlight_move(m);
        }
        for &m in &self.arrows {
            d = match d.clone().arrow(m) {
                Ok(with) => with,
                Err(_) => d,
            };
        }
        let numbered = d.arrow_count() > 0;
        let d = d.numbered(numbered);
        match kind {
            DiagramKind::Svg => Ok(d.to_svg().into_bytes()),
            DiagramKind::Png => Ok(d.to_png(SCALE)?),
        }
    }
}

/// A game to animate: the line shown, from its start.
#[derive(Clone, Debug)]
pub struct GifJob {
    variant: Variant,
    start: Position,
    line: Vec<Move>,
}

impl GifJob {
    /// The line `model` shows (from the start to the end of its main
    /// continuation), or why there is nothing to animate.
    pub fn of(model: &PlayModel) -> Result<GifJob, ExportError> {
        let tree = model.game().cursor().tree();
        let line: Vec<Move> = tree
            .line_through(model.game().cursor().node())
            .into_iter()
            .filter_map(|n| tree.mv(n))
            .collect();
        if line.is_empty() {
            return Err(ExportError::NoMoves);
        }
        Ok(GifJob {
            variant: model.game().cursor().variant().clone(),
            start: *model.game().cursor().game().start(),
            line,
        })
    }

    /// The animated GIF, a frame a ply, telling `progress` after each.
    pub fn bytes(&self, progress: &Reporter<ExportMsg>) -> Result<Vec<u8>, DiagramError> {
        GameGif::new(&self.variant, self.start, &self.line)
            .theme(Theme::Colour)
            .coordinates(true)
            .scale(SCALE)
            .delay(DELAY_CS)
            .encode_with(progress)
    }

    /// Frames in the GIF: the start and one a ply.
    pub fn frames(&self) -> usize {
        self.line.len() + 1
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DiagramKind {
    Svg,
    Png,
}

fn diagram_kind(path: &Path) -> Result<DiagramKind, ExportError> {
    match extension(path).as_deref() {
        Some("svg") => Ok(DiagramKind::Svg),
        Some("png") => Ok(DiagramKind::Png),
        _ => Err(ExportError::NotADiagram(path.to_path_buf())),
    }
}

/// Why an export was not written; the cause kept as its source.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{}: a diagram is written as .svg or .png", .0.display())]
    NotADiagram(PathBuf),
    #[error("{}: a game is animated as .gif", .0.display())]
    NotAGif(PathBuf),
    #[error("no moves to animate: play or open a game first")]
    NoMoves,
    #[error(transparent)]
    Busy(#[from] crate::worker::Busy),
    #[error(transparent)]
    Diagram(#[from] DiagramError),
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    #[error("export cancelled: nothing written")]
    Cancelled,
    #[error("the export stopped unexpectedly")]
    Stopped,
}

/// What the exports' worker reports: frames done, then how it ended (the
/// message to show).
#[derive(Debug)]
pub enum ExportMsg {
    Frames(Frames),
    Done(Result<String, ExportError>),
}

impl From<Frames> for ExportMsg {
    fn from(f: Frames) -> ExportMsg {
        ExportMsg::Frames(f)
    }
}

/// The Play panel's exports: whether a diagram has the best line's
/// arrows, and the export being written, on a worker of its own.
#[derive(Debug)]
pub struct Exports {
    worker: Worker<ExportMsg>,
    arrows: bool,
    /// The file being written, and the frames done of how many (a GIF).
    writing: Option<(PathBuf, Option<Frames>)>,
    /// How the export ended, once its worker said so.
    done: Option<Result<String, ExportError>>,
}

impl Default for Exports {
    /// Exports whose work wakes nobody (tests).
    fn default() -> Self {
        Exports::new(no_waker())
    }
}

impl Exports {
    /// Exports whose work calls `waker` when it reports.
    pub fn new(waker: Waker) -> Exports {
        Exports {
            worker: Worker::new(waker),
            arrows: false,
            writing: None,
            done: None,
        }
    }

    /// Whether an exported diagram has the arrows of the analysis' best
    /// line.
    pub fn with_arrows(&self) -> bool {
        self.arrows
    }
    /// Whether an exported diagram has the best line's arrows, to change.
    pub fn with_arrows_mut(&mut self) -> &mut bool {
        &mut self.arrows
    }

    /// Starts writing `job`'s diagram to `path` in the background; an
    /// extension that is neither `.svg` nor `.png`, or an export going on,
    /// is refused at once.
    pub fn diagram(&mut self, job: DiagramJob, path: &Path) -> Result<(), ExportError> {
        diagram_kind(path)?;
        let to = path.to_path_buf();
        self.start(path, None, move |r| {
            let bytes = job.bytes(&to);
            r.send(ExportMsg::Done(write(&to, bytes)));
        })
    }

    /// Starts writing `job`'s GIF to `path` in the background; a path
    /// without `.gif`, or an export going on, is refused at once.
    pub fn gif(&mut self, job: GifJob, path: &Path) -> Result<(), ExportError> {
        if extension(path).as_deref() != Some("gif") {
            return Err(ExportError::NotAGif(path.to_path_buf()));
        }
        let frames = Frames {
            done: 0,
            of: job.frames(),
        };
        let to = path.to_path_buf();
        self.start(path, Some(frames), move |r| {
            let done = match job.bytes(&r) {
                Err(DiagramError::Stopped) => Err(ExportError::Cancelled),
                bytes => write(&to, bytes.map_err(ExportError::from)),
            };
            r.send(ExportMsg::Done(done));
        })
    }

    fn start(
        &mut self,
        path: &Path,
        frames: Option<Frames>,
        work: impl FnOnce(Reporter<ExportMsg>) + Send + 'static,
    ) -> Result<(), ExportError> {
        self.worker.start("an export", work)?;
        self.writing = Some((path.to_path_buf(), frames));
        self.done = None;
        Ok(())
    }

    /// Takes in the worker's news; once the export has ended, the message
    /// to show (`Err`: what went wrong). Called every frame; never waits.
    pub fn poll(&mut self) -> Option<Result<String, ExportError>> {
        for msg in self.worker.poll() {
            match msg {
                ExportMsg::Frames(f) => {
                    if let Some((_, frames)) = &mut self.writing {
                        *frames = Some(f);
                    }
                }
                ExportMsg::Done(d) => self.done = Some(d),
            }
        }
        if self.worker.is_running() || self.writing.take().is_none() {
            return None;
        }
        let done = self.done.take();
        Some(done.unwrap_or(Err(ExportError::Stopped)))
    }

    /// Whether an export is being written.
    pub fn is_running(&self) -> bool {
        self.writing.is_some()
    }

    /// What is being written, in words: "writing game.gif: 12 of 46
    /// frames".
    pub fn status(&self) -> Option<String> {
        let (path, frames) = self.writing.as_ref()?;
        let name = files::short_name(path);
        Some(match frames {
            Some(f) => format!("writing {name}: {} of {} frames", f.done, f.of),
            None => format!("writing {name}…"),
        })
    }

    /// Asks the export going on to stop (nothing is written); its message
    /// comes as it stops.
    pub fn cancel(&self) {
        self.worker.stop();
    }

    /// Blocks until the export going on has ended. For tests: the UI never
    /// waits.
    pub fn wait(&mut self) {
        self.worker.wait();
    }
}

/// Writes `bytes` to `path`; the message to show.
fn write(path: &Path, bytes: Result<Vec<u8>, ExportError>) -> Result<String, ExportError> {
    let bytes = bytes?;
    murus_engine::util::write_atomic(path, bytes).map_err(|source| {
        crate::files::FileError::Write {
            path: path.to_path_buf(),
            source,
        }
    })?;
    Ok(format!("exported {}", path.display()))
}

fn extension(path: &Path) -> Option<String> {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::PlaySaved;

    fn played(moves: &[&str]) -> PlayModel {
        let saved = PlaySaved {
            seats: vec!["human".into(), "human".into()],
            ..PlaySaved::default()
        };
        let mut m = PlayModel::new(&saved);
        for t in moves {
            assert!(m.act(|g| g.play_text(t)));
        }
        m
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("murus-export-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_diagram_shows_the_position_its_last_move_and_the_arrows_asked_numbered() {
        let m = played(&["b1-b3", "c7-c5"]);
        let best = m
            .game()
            .cursor()
            .variant()
            .parse_move(m.game().cursor().game().position(), "a1-a3")
            .unwrap();
        let svg = DiagramJob::of(&m, &[best])
            .bytes(Path::new("x.svg"))
            .unwrap();
        let svg = String::from_utf8(svg).unwrap();
        assert!(svg.contains(r#"data-move="a1-a3""#), "the arrow asked");
        assert_eq!(svg.matches(r#"class="arrow""#).count(), 1);
        assert!(
            svg.contains(r#"data-number="1" data-move="a1-a3""#),
            "numbered"
        );
        assert!(svg.contains(r#"data-cell="c5""#));
        let png = DiagramJob::of(&m, &[]).bytes(Path::new("x.PNG")).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let e = DiagramJob::of(&m, &[])
            .bytes(Path::new("x.pdf"))
            .unwrap_err();
        assert!(e.to_string().contains(".svg or .png"), "{e}");
    }

    #[test]
    fn the_gif_animates_the_line_shown_even_from_an_earlier_ply_in_the_background() {
        let mut m = played(&["b1-b3", "c7-c5", "e1-e3"]);
        m.act(|g| g.cursor_mut().jump_to(1));
        let path = scratch("gif").join("g.gif");
        let mut e = Exports::default();
        e.gif(GifJob::of(&m).unwrap(), &path).unwrap();
        assert!(e.is_running());
        let status = e.status().unwrap();
        assert!(
            status.starts_with("writing ")
                && status.contains("g.gif: ")
                && status.ends_with("of 4 frames"),
            "{status}"
        );
        let busy = e.diagram(DiagramJob::of(&m, &[]), &path.with_extension("svg"));
        assert_eq!(
            busy.unwrap_err().to_string(),
            "an export is going on: cancel it first"
        );
        e.wait();
        let said = e.poll().unwrap().unwrap();
        assert!(
            said.starts_with("exported ") && said.ends_with("g.gif"),
            "{said}"
        );
        assert!(!e.is_running());
        let gif = std::fs::read(&path).unwrap();
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options.read_info(gif.as_slice()).unwrap();
        let mut frames = 0;
        while decoder.read_next_frame().unwrap().is_some() {
            frames += 1;
        }
        assert_eq!(frames, 4, "the start and a frame a ply of the whole line");
        let empty = played(&[]);
        assert!(matches!(GifJob::of(&empty), Err(ExportError::NoMoves)));
        let wrong = e.gif(GifJob::of(&m).unwrap(), &path.with_extension("png"));
        assert!(wrong.unwrap_err().to_string().contains("as .gif"));
        assert!(!e.is_running());
    }

    #[test]
    fn a_cancelled_gif_writes_nothing_and_says_so() {
        let mut moves = Vec::new();
        let mut m = played(&[]);
        for _ in 0..12 {
            let mv = m.game().cursor().game().legal_moves()[0];
            moves.push(mv);
            assert!(m.act(|g| g.play(mv)));
        }
        let path = scratch("cancel").join("c.gif");
        let _ = std::fs::remove_file(&path);
        let mut e = Exports::default();
        e.gif(GifJob::of(&m).unwrap(), &path).unwrap();
        e.cancel();
        e.wait();
        let said = e.poll().unwrap().unwrap_err();
        assert!(matches!(said, ExportError::Cancelled), "{said}");
        assert!(!path.exists());
    }
}
