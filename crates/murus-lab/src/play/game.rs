//! The one game loop: bots (or opening plies, or a book's line) move until
//! the rules end the game, and a [`Watcher`] sees every ply. The lab's
//! games ([`crate::play_game`]: statistics and game-quality metrics) and
//! the training data's ([`crate::train::play_game`]: positions and the
//! search's scores) are this loop with their own watcher.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use murus_ai::Bot;
use murus_engine::{DrawTracker, Engine, Move, MoveKind, Outcome, Pos, Variant, Word};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::error::LabError;

/// What watches a game as the loop plays it. Every method has a default
/// that does nothing.
pub(crate) trait Watcher<B: Word> {
    /// Before a ply: the position, its legal moves, and the line that
    /// reached it (the game is not over).
    fn before(&mut self, _pos: &Pos<B>, _moves: &[Move], _line: &DrawTracker) {}
    /// A bot chose its move at `pos` (not an opening ply, nor a book's).
    fn chose(&mut self, _pos: &Pos<B>, _moves: &[Move], _bot: &Bot) {}
    /// After the ply: the position it reached, and the line with it.
    fn after(&mut self, _pos: &Pos<B>, _line: &DrawTracker) {}
}

/// Who plays a game and how it opens.
pub(crate) struct Players<'a> {
    /// The game's number from 0 (named from 1 in errors).
    pub index: u64,
    /// The bots, by seat, ready to play (evaluations prepared).
    pub bots: Vec<Bot>,
    /// The flag that stops searching bots mid-thought (a run stopped by
    /// its handler); random and greedy moves are too quick to need it.
    pub stop: Option<Arc<AtomicBool>>,
    /// The seat that plays each colour at the start.
    pub seat_of: Vec<usize>,
    /// Whether a pie swap exchanges the seats of colours 0 and 1 (the
    /// lab's seats); without it each bot keeps its colour.
    pub swap_seats: bool,
    /// The game's first plies are random legal moves (after the book's),
    /// drawn from `opening_seed`, until `openings` plies are played.
    pub openings: u32,
    pub opening_seed: u64,
    /// The book's line that opens the game, played first.
    pub book_line: &'a [Move],
    pub max_plies: u32,
    /// Whether to keep the moves (external engines are told the game
    /// from its start, so their games always keep them).
    pub keep_moves: bool,
}

/// How a game ended.
pub(crate) struct Played {
    pub outcome: Outcome,
    pub plies: u32,
    /// The seat that plays each colour at the end (after a pie swap, not
    /// the start's).
    pub seat_of: Vec<usize>,
    /// The moves played, when kept.
    pub moves: Vec<Move>,
}

/// Plays the game of `players` from the start of `e` (the engine of `v`),
/// showing every ply to `watcher`. Fails when the book's move is not legal
/// ([`LabError::Invalid`]) or an external engine fails
/// ([`LabError::Engine`]).
pub(crate) fn play_loop<B: Word>(
    e: &Engine<B>,
    v: &Variant,
    players: Players,
    watcher: &mut impl Watcher<B>,
) -> Result<Played, LabError> {
    let Players {
        index,
        mut bots,
        stop,
        mut seat_of,
        swap_seats,
        openings,
        opening_seed,
        book_line,
        max_plies,
        keep_moves,
    } = players;
    let mut opening = SmallRng::seed_from_u64(opening_seed);
    let mut pos = e.start();
    let mut line = DrawTracker::new(e.rules().draw, pos.hash()).with_ply_cap(Some(max_plies));
    let mut moves = e.move_list();
    let external = bots.iter().any(Bot::is_external);
    let start = external.then(|| v.start());
    let keep_moves = keep_moves || external;
    let mut played: Vec<Move> = Vec::with_capacity(if keep_moves { 64 } else { 0 });
    let outcome = loop {
        moves.clear();
        e.legal_moves(&pos, &mut moves);
        if let Some(end) = e.judge(&pos, moves.len(), &line) {
            break end;
        }
        watcher.before(&pos, &moves, &line);
        let bot = &mut bots[seat_of[pos.turn()]];
        let ply = line.plies() as usize;
        let m = match &start {
            _ if ply < book_line.len() => {
                let m = book_line[ply];
                if !moves.contains(&m) {
                    // Not named: a move of another board may name no cell of this one.
                    return Err(LabError::Invalid(format!(
                        "game {}: the opening book's move at ply {} is not legal here (was the book read for another variant?)",
                        index + 1,
                        ply + 1
                    )));
                }
                m
            }
            _ if line.plies() < openings => moves[opening.random_range(0..moves.len())],
            Some(start) if bot.is_external() => bot
                .choose_external(v, start, &played, &stop)
                .map_err(|error| LabError::Engine {
                    game: index + 1,
                    error,
                })?,
            _ => {
                let m = bot
                    .choose_fast(e, &pos, &line, &moves, &stop)
                    .expect("moves exist");
                watcher.chose(&pos, &moves, bot);
                m
            }
        };
        let capture = e.is_capture(&pos, m);
        if swap_seats && m.kind == MoveKind::Swap {
            seat_of.swap(0, 1);
        }
        e.apply(&mut pos, m);
        line.push(pos.hash(), capture);
        watcher.after(&pos, &line);
        if keep_moves {
            played.push(m);
        }
    };
    Ok(Played {
        outcome,
        plies: line.plies(),
        seat_of,
        moves: played,
    })
}
