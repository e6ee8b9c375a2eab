//! Playing one game between bots, fast, at the engine's native width.
//!
//! What is where: `game` holds the one game loop and its [`Watcher`]
//! trait (the training data's games are that loop too); `lean` the loop of
//! a game of random movers that measures nothing but its end and
//! branching, at the engine's own playout speed; `replay` checks a
//! kept game against the rules (a resumed run's, a merge's); this file the
//! lab's games: their setup ([`GameSetup`]), what the lab counts of them,
//! and their record ([`play_game`]).

mod game;
mod lean;
mod replay;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use murus_ai::eval::{Weights, score};
use murus_ai::{Bot, BotSpec, Evaluation};
use murus_engine::{DrawTracker, Engine, EngineTask, Move, Outcome, Pos, Variant, Word};

pub(crate) use game::{Players, Watcher, play_loop};
pub(crate) use replay::first_wrong;
pub use replay::{PeoplesEnd, people_game};

use crate::error::LabError;
use crate::metrics::Recorder;
use crate::record::{GameResult, GameStats};
use crate::seeds::{METRICS_SALT, mix};

/// What a game needs besides the variant.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub index: u64,
    pub seed: u64,
    /// Bot per seat.
    pub seats: Vec<BotSpec>,
    /// Seat `s` starts with colour `colour_of_seat[s]`.
    pub colour_of_seat: Vec<usize>,
    pub max_plies: u32,
    /// Random plies that open the game, drawn from `opening_seed`: the
    /// game's first `openings` plies, less those `book_line` plays (a
    /// [`crate::Config`] gives one or the other).
    pub openings: u32,
    pub opening_seed: u64,
    /// The opening book's line that opens the game ([`crate::Book`]),
    /// played before the bots move.
    pub book_line: Option<Arc<[Move]>>,
    /// Whether to write the moves down (needed for game files, not for
    /// statistics alone).
    pub record_moves: bool,
    /// The evaluation each seat's bot is given, by seat (settled once for
    /// a run: [`crate::Config::evaluations`]); empty, each bot's own
    /// ([`Bot::prepare`]).
    pub evaluations: Vec<Evaluation>,
    /// What the game measures besides its result and branching
    /// ([`crate::Config::setup`] decides by the seats' bots).
    pub measure: Measure,
}

impl GameSetup {
    /// Whether the game's bots and measures need no evaluation: random
    /// bots alone, measuring nothing.
    pub fn needs_no_evaluation(&self) -> bool {
        self.measure == Measure::Nothing && self.seats.iter().all(|s| *s == BotSpec::Random)
    }
}

/// What a game measures besides its result, length and branching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Nothing more: the game has no metrics record, and no evaluation's
    /// leader (its `lead_changes` is 0). A game that a run's sample leaves
    /// out ([`crate::metrics::RANDOM_ROUNDS`]), or a run without metrics.
    Nothing,
    /// The game-quality metrics ([`crate::metrics`]) and the evaluation's
    /// leader each round, the legal moves valued at one ply in
    /// `value_moves_one_in` (1: every ply), the plies drawn from the
    /// game's seed.
    Metrics { value_moves_one_in: u64 },
}

struct PlayTask<'a> {
    setup: &'a GameSetup,
    variant: &'a Variant,
    stop: Option<Arc<AtomicBool>>,
}

impl EngineTask for PlayTask<'_> {
    type Output = Result<GameResult, LabError>;
    fn run<B: Word>(self, e: &Engine<B>) -> Result<GameResult, LabError> {
        play_on(e, self.variant, self.setup, self.stop)
    }
}

/// Plays one game. Fails only when an external engine fails
/// ([`LabError::Engine`]).
pub fn play_game(
    variant: &Variant,
    setup: &GameSetup,
    stop: Option<Arc<AtomicBool>>,
) -> Result<GameResult, LabError> {
    variant.run(PlayTask {
        setup,
        variant,
        stop,
    })
}

fn leader<B: Word>(e: &Engine<B>, w: &Weights, pos: &Pos<B>) -> Option<usize> {
    let mut best: Option<(i32, usize)> = None;
    let mut tie = false;
    for q in 0..e.players() {
        if pos.is_out(q) {
            continue;
        }
        let s = score(e, w, pos, q, false);
        match best {
            Some((b, _)) if s == b => tie = true,
            Some((b, _)) if s < b => {}
            _ => {
                best = Some((s, q));
                tie = false;
            }
        }
    }
    if tie { None } else { best.map(|(_, q)| q) }
}

/// What the lab counts of a game as the game loop plays it: the
/// branching, and what a measured game measures.
struct Tally<'m, 'a, B: Word> {
    branching_sum: u64,
    branching_max: u32,
    forced: u32,
    measured: Option<&'m mut Measured<'a, B>>,
}

impl<B: Word> Watcher<B> for Tally<'_, '_, B> {
    fn before(&mut self, pos: &Pos<B>, moves: &[Move], line: &DrawTracker) {
        let n = moves.len() as u32;
        self.branching_sum += u64::from(n);
        self.branching_max = self.branching_max.max(n);
        if n == 1 {
            self.forced += 1;
        }
        if let Some(m) = &mut self.measured {
            m.before(pos, moves, line);
        }
    }

    fn after(&mut self, pos: &Pos<B>, line: &DrawTracker) {
        if let Some(m) = &mut self.measured {
            m.after(pos, line);
        }
    }
}

/// What a measured game ([`Measure::Metrics`]) keeps as it is played: the
/// game-quality metrics' trace, and the evaluation's leader after each
/// full round. It reads the line it is shown only to judge the legal
/// moves' results (never a draw: the game goes on), so the lean loop
/// shows it a line that declares none.
struct Measured<'a, B: Word> {
    e: &'a Engine<B>,
    weights: Weights,
    players: usize,
    plies: usize,
    recorder: Recorder<'a, B>,
    /// The evaluation's leader after each full round (every `players`
    /// plies): measured only when everyone has moved, so the side to
    /// move's tempo is not counted as a change of lead (and self-play
    /// stays fast).
    leaders: Vec<Option<usize>>,
    current_leader: Option<usize>,
    lead_changes: u32,
}

impl<'a, B: Word> Measured<'a, B> {
    /// A game of `e` measured with `evaluation`, valuing its legal moves
    /// at one ply in `one_in`, the plies drawn from `seed` (the game's).
    fn new(e: &'a Engine<B>, evaluation: Evaluation, seed: u64, one_in: u64) -> Measured<'a, B> {
        Measured {
            e,
            weights: Weights::for_engine(e),
            players: e.players(),
            plies: 0,
            recorder: Recorder::new(e, evaluation, &e.start(), mix(seed ^ METRICS_SALT), one_in),
            leaders: Vec::with_capacity(32),
            current_leader: None,
            lead_changes: 0,
        }
    }

    /// Writes what the game measured into its record, once it ended with
    /// `outcome` after `plies` plies.
    fn finish(self, v: &Variant, outcome: &Outcome, stats: &mut GameStats) {
        // The leader after the last full round within the first three
        // quarters.
        let three_q = self
            .leaders
            .get((stats.plies as usize * 3 / 4 / self.players).saturating_sub(1))
            .copied()
            .flatten();
        stats.lead_changes = self.lead_changes;
        stats.leader_at_three_quarters = three_q.map(|c| v.letter(c));
        stats.metrics = Some(Box::new(self.recorder.finish(outcome)));
    }
}

impl<B: Word> Watcher<B> for Measured<'_, B> {
    fn before(&mut self, pos: &Pos<B>, moves: &[Move], line: &DrawTracker) {
        self.recorder.before(pos, moves, line);
    }

    fn after(&mut self, pos: &Pos<B>, _line: &DrawTracker) {
        self.recorder.after(pos);
        self.plies += 1;
        if self.plies % self.players == 0 {
            let l = leader(self.e, &self.weights, pos);
            if l.is_some() && l != self.current_leader {
                if self.current_leader.is_some() {
                    self.lead_changes += 1;
                }
                self.current_leader = l;
            }
            self.leaders.push(l);
        }
    }
}

/// The evaluation the game-quality metrics value a game with: the
/// variant's own as the bots see it (`docs/metrics.md`), that of the first
/// seat whose bot names no file, else seat 0's (so that it is always one a
/// run records).
fn metrics_evaluation(v: &Variant, setup: &GameSetup) -> Evaluation {
    let seat = setup
        .seats
        .iter()
        .position(|b| b.eval_file().is_none())
        .unwrap_or(0);
    match (setup.evaluations.get(seat), setup.seats.get(seat)) {
        (Some(e), _) => e.clone(),
        (None, Some(spec)) => {
            let mut bot = Bot::new(spec.clone(), 0);
            bot.prepare(v);
            bot.evaluation().clone()
        }
        (None, None) => Evaluation::Generic,
    }
}

fn play_on<B: Word>(
    e: &Engine<B>,
    v: &Variant,
    setup: &GameSetup,
    stop: Option<Arc<AtomicBool>>,
) -> Result<GameResult, LabError> {
    let mut measured = match setup.measure {
        Measure::Nothing => None,
        Measure::Metrics { value_moves_one_in } => Some(Measured::new(
            e,
            metrics_evaluation(v, setup),
            setup.seed,
            value_moves_one_in,
        )),
    };
    let mut game = if lean::plays(setup) {
        match &mut measured {
            Some(m) => lean::play_random(e, v, setup, m),
            None => lean::play_random(e, v, setup, &mut NoWatcher),
        }
    } else {
        played_by_bots(e, v, setup, stop, measured.as_mut())?
    };
    if let Some(m) = measured {
        let outcome = Outcome {
            winner: game.stats.winner.and_then(|w| v.player_by_letter(w)),
            reason: game.stats.reason,
        };
        m.finish(v, &outcome, &mut game.stats);
    }
    Ok(game)
}

/// A watcher that watches nothing.
struct NoWatcher;

impl<B: Word> Watcher<B> for NoWatcher {}

/// Plays the game of `setup` by its bots in the game loop, `measured` (if
/// given) watching; the record has no measure of its own yet.
fn played_by_bots<B: Word>(
    e: &Engine<B>,
    v: &Variant,
    setup: &GameSetup,
    stop: Option<Arc<AtomicBool>>,
    measured: Option<&mut Measured<'_, B>>,
) -> Result<GameResult, LabError> {
    let players = e.players();
    let bots: Vec<Bot> = setup
        .seats
        .iter()
        .enumerate()
        .map(|(s, spec)| {
            let mut b = Bot::new(spec.clone(), setup.seed ^ mix(s as u64 + 1));
            match setup.evaluations.get(s) {
                Some(e) => b.set_evaluation(e.clone()),
                None => b.prepare(v),
            }
            b
        })
        .collect();
    // Which seat plays each colour at the start.
    let mut seat_of = vec![0usize; players];
    for (s, &c) in setup.colour_of_seat.iter().enumerate() {
        seat_of[c] = s;
    }
    let mut tally = Tally {
        branching_sum: 0,
        branching_max: 0,
        forced: 0,
        measured,
    };
    let game = Players {
        index: setup.index,
        bots,
        stop,
        seat_of,
        swap_seats: true,
        openings: setup.openings,
        opening_seed: setup.opening_seed,
        book_line: setup.book_line.as_deref().unwrap_or_default(),
        max_plies: setup.max_plies,
        keep_moves: setup.record_moves,
    };
    let played = play_loop(e, v, game, &mut tally)?;
    let outcome = played.outcome;
    Ok(GameResult {
        stats: GameStats {
            index: setup.index,
            winner: outcome.winner.map(|w| v.letter(w)),
            winner_seat: outcome.winner.map(|w| played.seat_of[w]),
            reason: outcome.reason,
            plies: played.plies,
            branching_sum: tally.branching_sum,
            branching_max: tally.branching_max,
            forced: tally.forced,
            lead_changes: 0,
            leader_at_three_quarters: None,
            metrics: None,
        },
        seed: setup.seed,
        seats: setup.seats.iter().map(ToString::to_string).collect(),
        colours: setup.colour_of_seat.iter().map(|&c| v.letter(c)).collect(),
        moves: if setup.record_moves {
            played.moves.iter().map(|&m| v.move_to_string(m)).collect()
        } else {
            Vec::new()
        },
    })
}
