//! `murus show`, `moves`, `perft` and `replay`: a variant's positions and
//! moves.
//!
//! A finished game has no moves: `moves` lists none and `perft` counts 0,
//! both with exit code 0 (the empty list and the zero are the answers) and
//! a note on stderr saying that the game is over and why; `replay` plays up
//! to the end and reports the outcome, and a move after the end is an
//! error naming the outcome, as it is for `analyze --moves`.

use std::io::{self, Write};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use murus_engine::record::bare_move;
use murus_engine::{Game, Position, Variant};
use serde::{Serialize, Serializer};

use crate::answer::Answer;
use crate::load::{game_over, load_position, load_variant, play, play_moves};

/// The position a subcommand looks at: a variant, and a position of it.
#[derive(Args)]
pub struct PositionArgs {
    /// A `.mg` file or a shipped variant's name (`standard`, `advanced`, …).
    pub variant: String,
    /// A position string (default: the start).
    #[arg(long)]
    pub position: Option<String>,
}

impl PositionArgs {
    /// The variant and the position, loaded.
    fn load(&self) -> Result<(Variant, Position)> {
        let v = load_variant(&self.variant)?;
        let pos = load_position(&v, self.position.as_deref())?;
        Ok((v, pos))
    }
}

/// `murus moves`' arguments: a position, then moves played from it.
#[derive(Args)]
pub struct MovesArgs {
    #[command(flatten)]
    pub at: PositionArgs,
    /// Moves played from the position first, in notation (`--moves b1-b3
    /// g7-g5`).
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
}

impl MovesArgs {
    /// The variant and the game after `--moves`.
    fn load(&self) -> Result<(Variant, Game)> {
        let (v, pos) = self.at.load()?;
        let mut game = Game::from_position(&v, pos);
        play_moves(&mut game, &self.moves)?;
        Ok((v, game))
    }
}

/// Why a position has no moves, when its game is over.
fn over(v: &Variant, pos: &Position) -> Option<String> {
    let game = Game::from_position(v, *pos);
    let outcome = game.outcome()?;
    Some(game_over(&game, outcome))
}

/// The note on stderr for a finished game.
fn over_note(over: Option<&String>) -> String {
    over.map_or(String::new(), |why| {
        format!("note: no legal moves: {why}\n")
    })
}

/// `murus show`'s answer: a position drawn as text.
#[derive(Serialize)]
pub struct Shown {
    /// The position string.
    pub position: String,
    /// The board drawn, with the side to move under it.
    pub board: String,
}

/// `murus show`.
pub fn show(a: &PositionArgs) -> Result<Shown> {
    let (v, pos) = a.load()?;
    Ok(Shown {
        position: v.position_string(&pos),
        board: v.render(&pos),
    })
}

impl Answer for Shown {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{}", self.board)
    }
}

/// `murus moves`' answer: the legal moves in notation.
#[derive(Serialize)]
pub struct Moves {
    pub moves: Vec<String>,
    /// Why there are none, when the game is over.
    #[serde(skip)]
    pub over: Option<String>,
}

/// `murus moves`: the legal moves after `--moves` (none once the game is
/// over, a draw by repetition or the ply cap on the way included).
pub fn moves(a: &MovesArgs) -> Result<Moves> {
    let (v, game) = a.load()?;
    Ok(Moves {
        moves: (game.legal_moves().into_iter())
            .map(|m| v.move_to_string(m))
            .collect(),
        over: game.outcome().map(|o| game_over(&game, o)),
    })
}

impl Answer for Moves {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for m in &self.moves {
            writeln!(out, "{m}")?;
        }
        Ok(())
    }

    fn notes(&self) -> String {
        over_note(self.over.as_ref())
    }
}

/// `murus perft`'s arguments.
#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub at: PositionArgs,
    /// How many plies ahead to count (at most 64).
    pub depth: u32,
    /// Count below each legal move separately.
    #[arg(long)]
    pub divide: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `murus perft`'s answer: the leaf nodes DEPTH plies ahead, and the time.
#[derive(Serialize)]
pub struct Perft {
    pub depth: u32,
    pub nodes: u64,
    pub seconds: f64,
    #[serde(serialize_with = "rounded")]
    pub nodes_per_second: f64,
    /// With `--divide`: the count below each legal move, in the order
    /// generated (an object keyed by move in JSON).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "as_object")]
    pub divide: Option<Vec<(String, u64)>>,
    /// Why there are no moves, when the game is over.
    #[serde(skip)]
    pub over: Option<String>,
}

fn rounded<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(x.round())
}

fn as_object<S: Serializer>(rows: &Option<Vec<(String, u64)>>, s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(rows.iter().flatten().map(|(m, n)| (m, n)))
}

/// The deepest perft asked for: far beyond any that finishes, and a
/// bound on the move lists perft allocates, one a ply.
const MAX_PERFT_DEPTH: u32 = 64;

/// `murus perft`.
pub fn perft(a: &PerftArgs) -> Result<Perft> {
    let depth = a.depth;
    if depth > MAX_PERFT_DEPTH {
        bail!("perft DEPTH must be from 0 to {MAX_PERFT_DEPTH}, not {depth}");
    }
    if a.divide && depth == 0 {
        bail!("--divide needs a DEPTH of at least 1: perft(0) is the position itself");
    }
    let (v, pos) = a.at.load()?;
    let t = Instant::now();
    let (nodes, divide) = if a.divide {
        let rows = v.perft_divide(&pos, depth);
        let nodes = rows.iter().map(|r| r.1).sum();
        let rows = rows
            .into_iter()
            .map(|(m, n)| (v.move_to_string(m), n))
            .collect();
        (nodes, Some(rows))
    } else {
        (v.perft(&pos, depth), None)
    };
    let seconds = t.elapsed().as_secs_f64();
    let nodes_per_second = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    Ok(Perft {
        depth,
        nodes,
        seconds,
        nodes_per_second,
        divide,
        over: over(&v, &pos),
    })
}

impl Answer for Perft {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for (m, n) in self.divide.iter().flatten() {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(
            out,
            "perft({}) = {}  ({:.3} s, {:.1} M nodes/s)",
            self.depth,
            self.nodes,
            self.seconds,
            self.nodes_per_second / 1e6
        )
    }

    fn notes(&self) -> String {
        over_note(self.over.as_ref())
    }
}

/// `murus replay`'s arguments.
#[derive(Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub at: PositionArgs,
    /// Moves in notation (`d1-d3`, `b4xc5`, `d4*f6`, `d1:b2,g2`, `swap`).
    pub moves: Vec<String>,
    /// With a record file that is a collection (many games, as `murus serve
    /// --export-mgn` writes): the game to replay, from 1.
    #[arg(long, value_name = "N")]
    pub game: Option<usize>,
    #[arg(long)]
    pub json: bool,
}

/// `murus replay`'s answer: where the game stands after the moves.
#[derive(Serialize)]
pub struct Replayed {
    pub plies: usize,
    /// The position string reached.
    pub position: String,
    /// `over` or `ongoing`.
    pub status: &'static str,
    /// The winner's letter, when the game is won.
    pub winner: Option<String>,
    /// How the game ended (`breakthrough`, …).
    pub reason: Option<&'static str>,
    /// How the winning stone arrived (`sow`, `throw`), when it matters.
    pub by: Option<&'static str>,
    /// The position drawn.
    #[serde(skip)]
    pub board: String,
    /// The outcome in a sentence (`Romans win by breakthrough`).
    #[serde(skip)]
    pub outcome: Option<String>,
}

/// `murus replay`: stops at the first move that cannot be played, naming
/// its ply. Move numbers (`1.`, `1...`), commas and glyphs among the moves
/// are passed over, so a game pasted as printed replays. In place of the
/// variant, a record file (`.mgn`, or `.json`) replays its main line, then
/// the moves given.
pub fn replay(a: &ReplayArgs) -> Result<Replayed> {
    let (v, mut game) = if crate::record::is_record_file(&a.at.variant) {
        let (record, v) = crate::record::load_game(&a.at.variant, None, a.game)?;
        let game = record.replay(&v).map_err(anyhow::Error::from)?;
        (v, game)
    } else if a.game.is_some() {
        bail!("--game N picks a game of a record file (`.mgn`), not of rules");
    } else {
        let (v, pos) = a.at.load()?;
        let game = Game::from_position(&v, pos);
        (v, game)
    };
    // Plies are numbered from the game's start, a record's moves included.
    for text in a.moves.iter().filter_map(|m| bare_move(m)) {
        let at = format!("ply {}", game.ply() + 1);
        if let Some(o) = game.outcome() {
            let why = v.describe_outcome_at(o, game.position());
            bail!("{at}: `{text}` cannot be played: the game is over: {why}");
        }
        play(&mut game, &text).with_context(|| at.to_string())?;
    }
    let outcome = game.outcome();
    Ok(Replayed {
        plies: game.ply(),
        position: v.position_string(game.position()),
        status: if outcome.is_some() { "over" } else { "ongoing" },
        winner: outcome
            .and_then(|o| o.winner)
            .map(|w| v.letter(w).to_string()),
        reason: outcome.map(|o| o.reason.as_str()),
        by: outcome.and_then(|o| o.reason.by()),
        board: v.render(game.position()),
        outcome: outcome.map(|o| v.describe_outcome_at(o, game.position())),
    })
}

impl Answer for Replayed {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{}", self.board)?;
        writeln!(out, "{}", self.position)?;
        if let Some(o) = &self.outcome {
            writeln!(out, "{o}")?;
        }
        Ok(())
    }
}
