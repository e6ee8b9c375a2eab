//! The lean loop: a game of random movers that measures nothing but its
//! end, its length and its branching ([`super::Measure::Nothing`]), played
//! as the engine plays out a position, with the memory of the thread's
//! last game. Its games are the one game loop's ([`super::play_loop`]) move
//! for move: the same random draws in the same order (the opening plies'
//! from the opening seed, each seat's from its own bot's seed), the same
//! pie swaps; `tests` checks it game by game.

use std::any::Any;
use std::cell::RefCell;
use std::sync::Arc;

use murus_ai::BotSpec;
use murus_dsl::RulesKey;
use murus_dsl::rules::DrawRules;
use murus_engine::{DrawTracker, Engine, Move, MoveKind, Pos, Reason, Variant, Word};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::{GameSetup, Watcher};
use crate::metrics::MAX_PLAYERS;
use crate::record::{GameResult, GameStats};
use crate::seeds::mix;

/// What a thread's games reuse: the line's positions, the legal moves,
/// the moves played, and a draw tracker that declares no draw (the line
/// judges draws itself, for [`Engine::judge`] to judge the rest).
struct Scratch {
    line: Line,
    moves: Vec<Move>,
    played: Vec<Move>,
    no_draws: Option<DrawTracker>,
    /// The start of the rules of this key, as the last game's engine
    /// built it (a `Pos` of its width).
    start: Option<(RulesKey, Box<dyn Any>)>,
    /// The last game's seats and their specs written out, for a game line.
    seats: Option<(Vec<BotSpec>, Arc<[String]>)>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const {
        RefCell::new(Scratch {
            line: Line {
                repetition: u32::MAX,
                cap: u32::MAX,
                plies: 0,
                since_capture: Vec::new(),
                seen: [0; 4],
                occurrences: 1,
            },
            moves: Vec::new(),
            played: Vec::new(),
            no_draws: None,
            start: None,
            seats: None,
        })
    };
}

/// The draw rules along a game, as [`DrawTracker`] judges them (a position
/// occurring for the `repetition`th time since the last capture, the ply
/// cap), with a filter of the positions since the last capture that spares
/// most plies the look for earlier occurrences: a position whose bucket no
/// earlier one filled has not occurred before.
struct Line {
    /// `u32::MAX`: never.
    repetition: u32,
    /// `u32::MAX`: never.
    cap: u32,
    plies: u32,
    /// The hashes of the positions since the last capture, the one after
    /// it first.
    since_capture: Vec<u64>,
    /// One bit a bucket of hashes, set for each of `since_capture`.
    seen: [u64; 4],
    /// How often the current position has occurred since the last capture.
    occurrences: u32,
}

impl Line {
    /// The bucket of `hash`: a word and a bit.
    fn bucket(hash: u64) -> (usize, u64) {
        let b = (hash >> 56) as usize;
        ((b >> 6) & 3, 1 << (b & 63))
    }

    /// Starts the line at a position of hash `start`, under `repetition`
    /// and `cap` (`u32::MAX`: none).
    fn reset(&mut self, repetition: u32, cap: u32, start: u64) {
        self.repetition = repetition;
        self.cap = cap;
        self.plies = 0;
        self.restart(start);
    }

    /// Forgets the positions before one of hash `hash` (a capture's).
    fn restart(&mut self, hash: u64) {
        self.since_capture.clear();
        self.since_capture.push(hash);
        self.seen = [0; 4];
        let (w, bit) = Line::bucket(hash);
        self.seen[w] |= bit;
        self.occurrences = 1;
    }

    /// A ply that reached a position of hash `hash`, `capture` when it
    /// removed stones (no earlier position can recur).
    #[inline]
    fn push(&mut self, hash: u64, capture: bool) {
        self.plies += 1;
        if capture {
            self.restart(hash);
            return;
        }
        let (w, bit) = Line::bucket(hash);
        self.occurrences = if self.seen[w] & bit == 0 {
            1
        } else {
            1 + self.since_capture.iter().filter(|&&h| h == hash).count() as u32
        };
        self.seen[w] |= bit;
        self.since_capture.push(hash);
    }

    /// The draw at the current position, as [`DrawTracker::draw`] says.
    #[inline]
    fn draw(&self) -> Option<Reason> {
        if self.repetition != u32::MAX && self.occurrences >= self.repetition {
            Some(Reason::Repetition)
        } else if self.plies >= self.cap {
            Some(Reason::PlyCap)
        } else {
            None
        }
    }
}

/// Whether the lean loop plays the game of `setup`: its seats are all
/// random movers, and it opens without a book.
pub(super) fn plays(setup: &GameSetup) -> bool {
    setup.book_line.is_none() && setup.seats.iter().all(|s| *s == BotSpec::Random)
}

/// Plays the game of `setup` ([`plays`]), `watcher` seeing every ply as in
/// the game loop, but shown a line that declares no draw (the game goes
/// on where it is shown one). The record counts the game's end, length and
/// branching, and nothing measured.
pub(super) fn play_random<B: Word>(
    e: &Engine<B>,
    v: &Variant,
    setup: &GameSetup,
    watcher: &mut impl Watcher<B>,
) -> GameResult {
    SCRATCH.with(|scratch| play(e, v, setup, &mut scratch.borrow_mut(), watcher))
}

fn play<B: Word>(
    e: &Engine<B>,
    v: &Variant,
    setup: &GameSetup,
    s: &mut Scratch,
    watcher: &mut impl Watcher<B>,
) -> GameResult {
    let seats = setup.seats.len().min(MAX_PLAYERS);
    // Each seat's bot's draws, as `Bot::new` seeds them.
    let mut rngs: [SmallRng; MAX_PLAYERS] =
        std::array::from_fn(|seat| SmallRng::seed_from_u64(setup.seed ^ mix(seat as u64 + 1)));
    let mut seat_of = [0usize; MAX_PLAYERS];
    for (seat, &c) in setup.colour_of_seat.iter().enumerate().take(seats) {
        seat_of[c] = seat;
    }
    let mut opening = SmallRng::seed_from_u64(setup.opening_seed);
    // The start, built once for a thread's games of the same rules.
    let key = v.rules_key();
    let cached = match &s.start {
        Some((k, start)) if *k == key => start.downcast_ref::<Pos<B>>().copied(),
        _ => None,
    };
    let mut pos = cached.unwrap_or_else(|| {
        let start = e.start();
        s.start = Some((key, Box::new(start)));
        start
    });
    let repetition = e.rules().draw.repetition.unwrap_or(u32::MAX);
    let line = &mut s.line;
    line.reset(repetition, setup.max_plies, pos.hash());
    let no_draws = s.no_draws.get_or_insert_with(|| {
        DrawTracker::new(
            DrawRules {
                repetition: None,
                ply_cap: None,
            },
            0,
        )
    });
    // The buffers taken out of the thread's scratch for the game, so that
    // the compiler may keep their ends in registers, and put back after.
    let mut moves = std::mem::take(&mut s.moves);
    let played = &mut s.played;
    played.clear();
    let (mut sum, mut max, mut forced) = (0u64, 0u32, 0u32);
    let outcome = loop {
        moves.clear();
        e.legal_moves(&pos, &mut moves);
        // The rules' own end first, then the draws, as `Engine::judge`.
        let end = e
            .judge(&pos, moves.len(), no_draws)
            .or_else(|| line.draw().map(|reason| e.drawn(&pos, reason)));
        if let Some(end) = end {
            break end;
        }
        watcher.before(&pos, &moves, no_draws);
        let n = moves.len();
        sum += n as u64;
        max = max.max(n as u32);
        forced += u32::from(n == 1);
        let m = if line.plies < setup.openings {
            moves[opening.random_range(0..n)]
        } else if n == 1 {
            // A random bot does not draw for a forced move.
            moves[0]
        } else {
            moves[rngs[seat_of[pos.turn()]].random_range(0..n)]
        };
        let capture = e.is_capture(&pos, m);
        if m.kind == MoveKind::Swap {
            seat_of.swap(0, 1);
        }
        e.apply(&mut pos, m);
        line.push(pos.hash(), capture);
        watcher.after(&pos, no_draws);
        if setup.record_moves {
            played.push(m);
        }
    };
    s.moves = moves;
    GameResult {
        stats: GameStats {
            index: setup.index,
            winner: outcome.winner.map(|w| v.letter(w)),
            winner_seat: outcome.winner.map(|w| seat_of[w]),
            reason: outcome.reason,
            plies: line.plies,
            branching_sum: sum,
            branching_max: max,
            forced,
            lead_changes: 0,
            leader_at_three_quarters: None,
            metrics: None,
        },
        seed: setup.seed,
        seats: match &s.seats {
            Some((specs, names)) if *specs == setup.seats => names.clone(),
            _ => {
                let names: Arc<[String]> = setup.seats.iter().map(ToString::to_string).collect();
                s.seats = Some((setup.seats.clone(), names.clone()));
                names
            }
        },
        colours: setup.colour_of_seat.iter().map(|&c| v.letter(c)).collect(),
        moves: played.iter().map(|&m| v.move_to_string(m)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use murus_ai::BotSpec;
    use murus_dsl::rules::DrawRules;
    use murus_engine::DrawTracker;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::Line;

    use super::super::{Measure, play_game};
    use crate::Config;

    /// The line judges draws as `DrawTracker` does, ply for ply: lines of
    /// few distinct positions (so that they repeat, and share buckets),
    /// captures now and then, every repetition limit, a ply cap.
    #[test]
    fn the_lines_filter_changes_no_draw() {
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..2_000 {
            let repetition = rng.random_range(1..5u32);
            let cap = rng.random_range(1..60u32);
            let kinds = rng.random_range(1..40u64);
            // Hashes that differ in their low bits only, or in all of them.
            let hash = |rng: &mut SmallRng| {
                let k = rng.random_range(0..kinds);
                if k % 2 == 0 {
                    k
                } else {
                    k.wrapping_mul(0x9e37_79b9_7f4a_7c15)
                }
            };
            let start = hash(&mut rng);
            let rules = DrawRules {
                repetition: Some(repetition),
                ply_cap: None,
            };
            let mut tracker = DrawTracker::new(rules, start).with_ply_cap(Some(cap));
            let mut line = Line {
                repetition: 0,
                cap: 0,
                plies: 0,
                since_capture: Vec::new(),
                seen: [0; 4],
                occurrences: 0,
            };
            line.reset(repetition, cap, start);
            for _ in 0..80 {
                assert_eq!(line.draw(), tracker.draw());
                assert_eq!(line.plies, tracker.plies());
                let (h, capture) = (hash(&mut rng), rng.random_range(0..10) == 0);
                tracker.push(h, capture);
                line.push(h, capture);
            }
        }
    }

    /// The lean loop's games are the game loop's, move for move and figure
    /// for figure, measures included, on every shipped variant (pie rules,
    /// three and four players, catapults), with random openings and
    /// without.
    #[test]
    fn the_lean_loop_plays_the_game_loops_games() {
        for (name, _) in murus_engine::BUILTIN {
            let v = murus_engine::Variant::builtin(name).unwrap();
            for openings in [0, 3] {
                let config = Config::new(&v, vec![BotSpec::Random], 24, 7).with_openings(openings);
                for index in 0..24 {
                    let mut setup = config.setup(index);
                    setup.record_moves = true;
                    setup.measure = Measure::Metrics {
                        value_moves_one_in: 3,
                    };
                    setup.evaluations = config.evaluations().to_vec();
                    assert!(super::plays(&setup));
                    let lean = play_game(&v, &setup, None).unwrap();
                    // The game loop: the same bots, through a book of no
                    // moves.
                    setup.book_line = Some(std::sync::Arc::from(Vec::new()));
                    assert!(!super::plays(&setup));
                    let full = play_game(&v, &setup, None).unwrap();
                    assert_eq!(lean, full, "{name}, game {index}, {openings} openings");
                    assert!(lean.stats.metrics.is_some());
                }
            }
        }
    }
}
