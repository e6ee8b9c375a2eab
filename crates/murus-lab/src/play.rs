//! Playing one game between bots, fast, at the engine's native width.

use murus_ai::eval::{Weights, score};
use murus_ai::{Bot, BotSpec, Evaluation};
use murus_engine::{DrawTracker, Engine, EngineTask, Move, MoveKind, Outcome, Pos, Variant, Word};
use serde::{Deserialize, Serialize};

use crate::LabError;
use crate::metrics::{CLARITY_SAMPLE_RANDOM, Recorder};
use crate::report::GameStats;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// SplitMix64 step: per-game seeds from the run's seed.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of game `index` of a run seeded with `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix(seed ^ mix(index))
}

/// One finished game, as written to `games.jsonl` (one JSON object a line:
/// the statistics' fields, then `seed`, `seats`, `colours` and `moves`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// What reports count: the game's number, winner, end and figures.
    #[serde(flatten)]
    pub stats: GameStats,
    /// The game's own seed.
    pub seed: u64,
    /// Bot spec per seat.
    pub seats: Vec<String>,
    /// Letter of the colour each seat started with.
    pub colours: Vec<char>,
    /// The moves in notation.
    pub moves: Vec<String>,
}

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

/// Separates the metrics' sample of plies from the game's own seed.
const METRICS_SALT: u64 = 0x6d65_7472_6963_7321;

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

fn play_on<B: Word>(
    e: &Engine<B>,
    v: &Variant,
    setup: &GameSetup,
    stop: Option<Arc<AtomicBool>>,
) -> Result<GameResult, LabError> {
    let players = e.players();
    let mut bots: Vec<Bot> = setup
        .seats
        .iter()
        .enumerate()
        .map(|(s, spec)| {
            let mut b = Bot::new(spec.clone(), setup.seed ^ mix(s as u64 + 1));
            b.prepare(v);
            b
        })
        .collect();
    // Which seat plays each colour now.
    let mut seat_of = vec![0usize; players];
    for (s, &c) in setup.colour_of_seat.iter().enumerate() {
        seat_of[c] = s;
    }
    let weights = Weights::for_engine(e);
    let mut opening = SmallRng::seed_from_u64(setup.opening_seed);
    let book_line: &[Move] = setup.book_line.as_deref().unwrap_or_default();
    let mut pos = e.start();
    let mut line = DrawTracker::new(e.rules().draw, pos.hash()).with_ply_cap(Some(setup.max_plies));
    let mut moves = e.move_list();
    // External engines are told the game from its start.
    let external = bots.iter().any(Bot::is_external);
    let start = external.then(|| v.start());
    let keep_moves = setup.record_moves || external;
    let mut played: Vec<Move> = Vec::with_capacity(if keep_moves { 64 } else { 0 });
    // The evaluation's leader after each full round (every `players` plies):
    // measured only when everyone has moved, so the side to move's tempo is
    // not counted as a change of lead (and self-play stays fast).
    let mut leaders: Vec<Option<usize>> = Vec::with_capacity(32);
    let (mut branching_sum, mut branching_max, mut forced) = (0u64, 0u32, 0u32);
    let mut current_leader = None;
    let mut lead_changes = 0;
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
    let mut recorder = Recorder::new(e, evaluation, &pos, mix(setup.seed ^ METRICS_SALT), one_in);
    let outcome: Outcome = loop {
        moves.clear();
        e.legal_moves(&pos, &mut moves);
        if let Some(end) = e.judge(&pos, moves.len(), &line) {
            break end;
        }
        recorder.before(&pos, &moves, &line);
        let n = moves.len() as u32;
        branching_sum += u64::from(n);
        branching_max = branching_max.max(n);
        if n == 1 {
            forced += 1;
        }
        let colour = pos.turn();
        let bot = &mut bots[seat_of[colour]];
        let ply = line.plies() as usize;
        let m = match &start {
            _ if ply < book_line.len() => {
                let m = book_line[ply];
                if !moves.contains(&m) {
                    // Not named: a move of another board may name no cell of this one.
                    return Err(LabError::Invalid(format!(
                        "game {}: the opening book's move at ply {} is not legal here (was the book read for another variant?)",
                        setup.index + 1,
                        ply + 1
                    )));
                }
                m
            }
            _ if line.plies() < setup.openings => moves[opening.random_range(0..moves.len())],
            Some(start) if bot.is_external() => bot
                .choose_external(v, start, &played, &stop)
                .map_err(|error| LabError::Engine {
                    game: setup.index + 1,
                    error,
                })?,
            _ => bot
                .choose_fast(e, &pos, &line, &moves, &stop)
                .expect("moves exist"),
        };
        let capture = e.is_capture(&pos, m);
        if m.kind == MoveKind::Swap {
            seat_of.swap(0, 1);
        }
        e.apply(&mut pos, m);
        line.push(pos.hash(), capture);
        recorder.after(&pos);
        if keep_moves {
            played.push(m);
        }
        if line.plies() as usize % players == 0 {
            let l = leader(e, &weights, &pos);
            if l.is_some() && l != current_leader {
                if current_leader.is_some() {
                    lead_changes += 1;
                }
                current_leader = l;
            }
            leaders.push(l);
        }
    };
    let plies = line.plies();
    // The leader after the last full round within the first three quarters.
    let three_q = leaders
        .get((plies as usize * 3 / 4 / players).saturating_sub(1))
        .copied()
        .flatten();
    Ok(GameResult {
        stats: GameStats {
            index: setup.index,
            winner: outcome.winner.map(|w| v.letter(w)),
            winner_seat: outcome.winner.map(|w| seat_of[w]),
            reason: outcome.reason,
            plies,
            branching_sum,
            branching_max,
            forced,
            lead_changes,
            leader_at_three_quarters: three_q.map(|c| v.letter(c)),
            metrics: Some(recorder.finish(&outcome)),
        },
        seed: setup.seed,
        seats: setup.seats.iter().map(ToString::to_string).collect(),
        colours: setup.colour_of_seat.iter().map(|&c| v.letter(c)).collect(),
        moves: if setup.record_moves {
            played.iter().map(|&m| v.move_to_string(m)).collect()
        } else {
            Vec::new()
        },
    })
}
