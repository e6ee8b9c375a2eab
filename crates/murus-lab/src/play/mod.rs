//! Playing one game between bots, fast, at the engine's native width.
//!
//! What is where: `game` holds the one game loop and its [`Watcher`]
//! trait (the training data's games are that loop too); this file the
//! lab's games: their setup ([`GameSetup`]), what the lab counts of them,
//! and their record ([`play_game`]).

mod game;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use murus_ai::eval::{Weights, score};
use murus_ai::{Bot, BotSpec, Evaluation};
use murus_engine::{DrawTracker, Engine, EngineTask, Move, Pos, Variant, Word};

pub(crate) use game::{Players, Watcher, play_loop};

use crate::error::LabError;
use crate::metrics::{CLARITY_SAMPLE_RANDOM, Recorder};
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

/// What the lab counts of a game as the loop plays it: the branching, the
/// evaluation's leader after each full round, and the game-quality
/// metrics' trace.
struct Tally<'a, B: Word> {
    e: &'a Engine<B>,
    weights: Weights,
    players: usize,
    recorder: Recorder<'a, B>,
    branching_sum: u64,
    branching_max: u32,
    forced: u32,
    /// The evaluation's leader after each full round (every `players`
    /// plies): measured only when everyone has moved, so the side to
    /// move's tempo is not counted as a change of lead (and self-play
    /// stays fast).
    leaders: Vec<Option<usize>>,
    current_leader: Option<usize>,
    lead_changes: u32,
}

impl<B: Word> Watcher<B> for Tally<'_, B> {
    fn before(&mut self, pos: &Pos<B>, moves: &[Move], line: &DrawTracker) {
        self.recorder.before(pos, moves, line);
        let n = moves.len() as u32;
        self.branching_sum += u64::from(n);
        self.branching_max = self.branching_max.max(n);
        if n == 1 {
            self.forced += 1;
        }
    }

    fn after(&mut self, pos: &Pos<B>, line: &DrawTracker) {
        self.recorder.after(pos);
        if line.plies() as usize % self.players == 0 {
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

fn play_on<B: Word>(
    e: &Engine<B>,
    v: &Variant,
    setup: &GameSetup,
    stop: Option<Arc<AtomicBool>>,
) -> Result<GameResult, LabError> {
    let players = e.players();
    let bots: Vec<Bot> = setup
        .seats
        .iter()
        .enumerate()
        .map(|(s, spec)| {
            let mut b = Bot::new(spec.clone(), setup.seed ^ mix(s as u64 + 1));
            b.prepare(v);
            b
        })
        .collect();
    // Which seat plays each colour at the start.
    let mut seat_of = vec![0usize; players];
    for (s, &c) in setup.colour_of_seat.iter().enumerate() {
        seat_of[c] = s;
    }
    // The game-quality metrics' trace, valued with the variant's evaluation
    // as the bots see it (`docs/metrics.md`); with a random seat, the legal
    // moves are valued at a sample of plies only.
    let evaluation = bots
        .iter()
        .find(|b| b.spec().eval_file().is_none())
        .map_or_else(|| Evaluation::for_variant(v), |b| b.evaluation().clone());
    let one_in = if setup.seats.contains(&BotSpec::Random) {
        CLARITY_SAMPLE_RANDOM
    } else {
        1
    };
    let mut tally = Tally {
        e,
        weights: Weights::for_engine(e),
        players,
        recorder: Recorder::new(
            e,
            evaluation,
            &e.start(),
            mix(setup.seed ^ METRICS_SALT),
            one_in,
        ),
        branching_sum: 0,
        branching_max: 0,
        forced: 0,
        leaders: Vec::with_capacity(32),
        current_leader: None,
        lead_changes: 0,
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
    let (outcome, plies) = (played.outcome, played.plies);
    // The leader after the last full round within the first three quarters.
    let three_q = tally
        .leaders
        .get((plies as usize * 3 / 4 / players).saturating_sub(1))
        .copied()
        .flatten();
    Ok(GameResult {
        stats: GameStats {
            index: setup.index,
            winner: outcome.winner.map(|w| v.letter(w)),
            winner_seat: outcome.winner.map(|w| played.seat_of[w]),
            reason: outcome.reason,
            plies,
            branching_sum: tally.branching_sum,
            branching_max: tally.branching_max,
            forced: tally.forced,
            lead_changes: tally.lead_changes,
            leader_at_three_quarters: three_q.map(|c| v.letter(c)),
            metrics: Some(tally.recorder.finish(&outcome)),
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
