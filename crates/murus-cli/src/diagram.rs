//! `murus diagram`: a position drawn as an SVG or PNG file, or a game as
//! an animated GIF, through `murus_publish::Diagram` and `GameGif` (the
//! SVG contract: `docs/diagrams.md`).

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use murus_engine::text::plural;
use murus_engine::{Game, Position, Variant};
use murus_publish::diagram::GameGif;
use murus_publish::{Diagram, Theme};
use serde::Serialize;

use crate::answer::Answer;
use crate::load::{load_position, play};
use crate::load_variant;

#[derive(Args)]
pub struct DiagramArgs {
    /// A `.mg` file or a shipped variant's name (`standard`, `hex`, …).
    pub variant: String,
    /// A position string (default: the start).
    #[arg(long)]
    pub position: Option<String>,
    /// Moves played from the position first, in notation (`--moves b1-b3
    /// g7-g5`); with `--out FILE.gif`, the game animated.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// An arrow for each of these moves of the position drawn,
    /// comma-separated (`--arrows c1-c3,d1-f3`).
    #[arg(long, value_delimiter = ',')]
    pub arrows: Vec<String>,
    /// A dot on each of these cells (`--marks c4,e5`).
    #[arg(long, value_delimiter = ',')]
    pub marks: Vec<String>,
    /// The moves of the stack on this cell: an arrow for each sowing and
    /// throw, a dot on each stack its sacrifices could take.
    #[arg(long)]
    pub moves_of: Option<String>,
    /// These cells shaded.
    #[arg(long, value_delimiter = ',')]
    pub highlight: Vec<String>,
    /// The cells of the last of --moves shaded.
    #[arg(long)]
    pub last_move: bool,
    /// A line of text under the board.
    #[arg(long)]
    pub caption: Option<String>,
    /// Files and ranks named beside the board (a GIF always has them).
    #[arg(long)]
    pub coordinates: bool,
    /// `colour`, or `print` (black and white).
    #[arg(long, default_value = "colour")]
    pub theme: Theme,
    /// The file to write: FILE.svg, FILE.png (rendered from the SVG), or
    /// FILE.gif (the game of --moves animated, a frame a ply, each with
    /// coordinates and the move's number and notation under the board).
    #[arg(long)]
    pub out: PathBuf,
    /// A PNG's or GIF's pixels per SVG unit, 0.25 to 8 (default: 1 for a
    /// PNG, a cell 60 pixels wide; for a GIF the least from 1 up that
    /// makes it 400 pixels wide).
    #[arg(long)]
    pub scale: Option<f32>,
    #[arg(long)]
    pub json: bool,
}

/// `murus diagram`'s answer: what was written.
#[derive(Serialize)]
pub struct Drawn {
    pub file: PathBuf,
    /// The position drawn, as a position string.
    pub position: String,
    pub stacks: usize,
    pub arrows: usize,
    /// Images written: 1, or a GIF's frames (the start and one a ply).
    pub frames: usize,
}

/// Draws the position and writes the SVG whole (or not at all).
pub fn diagram(a: &DiagramArgs) -> Result<Drawn> {
    let kind = a.out.extension().and_then(|e| e.to_str());
    if !matches!(kind, Some("svg" | "png" | "gif")) {
        bail!(
            "--out {}: diagrams are written as FILE.svg or FILE.png, games as FILE.gif",
            a.out.display()
        );
    }
    if let Some(scale) = a.scale {
        if !(scale.is_finite() && (0.25..=8.0).contains(&scale)) {
            bail!("--scale {scale}: expected a number from 0.25 to 8");
        }
    }
    let v = load_variant(&a.variant)?;
    let start = load_position(&v, a.position.as_deref())?;
    let mut game = Game::from_position(&v, start);
    for (i, text) in a.moves.iter().enumerate() {
        play(&mut game, text).with_context(|| format!("--moves, move {}", i + 1))?;
    }
    if kind == Some("gif") {
        return gif(a, &v, start, &game);
    }
    let pos = *game.position();
    let mut d = Diagram::new(&v, pos)
        .coordinates(a.coordinates)
        .theme(a.theme);
    if a.last_move {
        let Some(&last) = game.moves().last() else {
            bail!("--last-move: no move was played (give --moves)");
        };
        d = d.highlight_move(last);
    }
    for text in &a.arrows {
        let m = v
            .parse_move(&pos, text)
            .with_context(|| format!("--arrows `{text}`"))?;
        d = d.arrow(m).context("--arrows")?;
    }
    if let Some(name) = &a.moves_of {
        let cell = d.cell(name).context("--moves-of")?;
        let own = v.stack(&pos, cell).is_some_and(|(p, _)| p == v.turn(&pos));
        if !own {
            bail!(
                "--moves-of {name}: no stack of the side to move ({}) is there",
                v.rules().players[v.turn(&pos)].name
            );
        }
        d = d.moves_of(cell);
    }
    for (option, cells) in [("--marks", &a.marks), ("--highlight", &a.highlight)] {
        for name in cells {
            let cell = d.cell(name).with_context(|| option.to_string())?;
            d = if option == "--marks" {
                d.mark(cell)
            } else {
                d.highlight(cell)
            };
        }
    }
    if let Some(caption) = &a.caption {
        d = d.caption(caption.clone());
    }
    let bytes = if kind == Some("png") {
        d.to_png(a.scale.unwrap_or(1.0))?
    } else {
        d.to_svg().into_bytes()
    };
    murus_engine::util::write_atomic(&a.out, &bytes)
        .with_context(|| a.out.display().to_string())?;
    Ok(Drawn {
        file: a.out.clone(),
        position: v.position_string(&pos),
        stacks: stack_count(&v, &pos),
        arrows: d.arrow_count(),
        frames: 1,
    })
}

/// Seconds a ply is shown in a GIF, in hundredths (the last three times as
/// long).
const GIF_DELAY: u16 = 100;

/// `murus diagram … --moves M… --out FILE.gif`: the game as an animated
/// GIF, a frame a ply, each with coordinates and its move labelled.
fn gif(a: &DiagramArgs, v: &Variant, start: Position, game: &Game) -> Result<Drawn> {
    if !a.arrows.is_empty()
        || a.moves_of.is_some()
        || !a.marks.is_empty()
        || !a.highlight.is_empty()
        || a.last_move
        || a.caption.is_some()
    {
        bail!(
            "--arrows, --moves-of, --marks, --highlight, --last-move and --caption draw one position: a GIF draws the game of --moves, each frame with its move shaded and labelled"
        );
    }
    if game.moves().is_empty() {
        bail!(
            "--out {}: a GIF draws a game: give its --moves",
            a.out.display()
        );
    }
    let mut animation = GameGif::new(v, start, game.moves())
        .theme(a.theme)
        .delay(GIF_DELAY);
    if let Some(scale) = a.scale {
        animation = animation.scale(scale);
    }
    let bytes = animation.encode()?;
    murus_engine::util::write_atomic(&a.out, &bytes)
        .with_context(|| a.out.display().to_string())?;
    let pos = *game.position();
    Ok(Drawn {
        file: a.out.clone(),
        position: v.position_string(&pos),
        stacks: stack_count(v, &pos),
        arrows: 0,
        frames: game.moves().len() + 1,
    })
}

/// The stacks on the board in `pos`.
fn stack_count(v: &Variant, pos: &Position) -> usize {
    v.geometry()
        .cells()
        .filter(|&c| v.stack(pos, c).is_some())
        .count()
}

impl Answer for Drawn {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.frames > 1 {
            return writeln!(
                out,
                "wrote {} ({}, a ply each)",
                self.file.display(),
                plural(self.frames as u64, "frame")
            );
        }
        writeln!(
            out,
            "wrote {} ({}, {})",
            self.file.display(),
            plural(self.stacks as u64, "stack"),
            plural(self.arrows as u64, "arrow")
        )
    }
}
