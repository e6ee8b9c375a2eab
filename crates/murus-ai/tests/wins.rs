//! Shortest wins: analysis and bots prefer the fastest proven win and
//! report its true distance, checked against a plain minimax that knows
//! nothing but the rules.

use murus_ai::analysis::{Analyser, Limits, Score};
use murus_ai::{Bot, BotSpec, WIN};
use murus_engine::{Bits, Engine, EngineTask, Game, Pos, Variant, Word};

/// Whether `me` can force a win within `plies` plies of `pos`, by the rules
/// alone (every move of every player, no draws within so few plies).
fn wins_within<B: Bits>(e: &Engine<B>, pos: &Pos<B>, me: usize, plies: u32) -> bool {
    if let Some(o) = e.outcome(pos) {
        return o.winner == Some(me);
    }
    if plies == 0 {
        return false;
    }
    let mut moves = e.move_list();
    e.legal_moves(pos, &mut moves);
    let next = |m| {
        let mut child = *pos;
        e.apply(&mut child, m);
        wins_within(e, &child, me, plies - 1)
    };
    if pos.turn() == me {
        moves.into_iter().any(next)
    } else {
        moves.into_iter().all(next)
    }
}

/// The fewest plies in which the side to move at `position` forces a win,
/// if it does within `most`.
fn fastest_win(v: &Variant, position: &str, most: u32) -> Option<u32> {
    struct Task(murus_engine::Position, u32);
    impl EngineTask for Task {
        type Output = Option<u32>;
        fn run<B: Word>(self, e: &Engine<B>) -> Option<u32> {
            let pos = B::unwrap(&self.0).expect("a position of this variant");
            // A player wins on its own moves: an odd number of plies.
            (1..=self.1)
                .step_by(2)
                .find(|&n| wins_within(e, pos, pos.turn(), n))
        }
    }
    v.run(Task(v.parse_position(position).unwrap(), most))
}

/// Whether `first` wins within `plies` plies (itself included).
fn wins_with(v: &Variant, position: &str, first: &str, plies: u32) -> bool {
    let pos = v.parse_position(position).unwrap();
    let me = v.turn(&pos);
    let after = v.play(&pos, v.parse_move(&pos, first).unwrap());
    struct Task(murus_engine::Position, usize, u32);
    impl EngineTask for Task {
        type Output = bool;
        fn run<B: Word>(self, e: &Engine<B>) -> bool {
            let pos = B::unwrap(&self.0).expect("a position of this variant");
            wins_within(e, pos, self.1, self.2)
        }
    }
    v.run(Task(after, me, plies - 1))
}

/// The issue's position: `hard` reported "win 7" with d2-b4, while f3-f5
/// and d2-b2 win in 5 plies.
const ISSUE: &str = "6g1g1/2g12g1g1g1/g1g21g1g1r1g1g1/2r1g11r12/r2r12g1r2r11/r11r1r2r13/1r16 r";

/// Found by analysing positions of greedy self-play: the search used to
/// stop at a win in 9 (d4xc4 too, by a slower line).
const ANOTHER: &str = "8/1g16/1r11g21g22/2g1r2g1g12/2g1r1r2r1g11/4r21r11/8 r";

fn analyse(v: &Variant, position: &str, nodes: u64, lines: usize) -> murus_ai::analysis::Found {
    analyse_on(v, position, nodes, lines, 1)
}

/// [`analyse`] on `threads` threads.
fn analyse_on(
    v: &Variant,
    position: &str,
    nodes: u64,
    lines: usize,
    threads: usize,
) -> murus_ai::analysis::Found {
    let game = Game::from_position(v, v.parse_position(position).unwrap());
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut analyser = Analyser::new(16);
    analyser.set_threads(threads);
    analyser
        .analyse_lines(&game, limits, lines, 1, &())
        .expect("the game goes on")
}

#[test]
fn the_fastest_proven_win_is_reported_with_its_true_distance() {
    let v = Variant::standard();
    assert_eq!(fastest_win(&v, ISSUE, 5), Some(5), "the rules' answer");
    for m in ["f3-f5", "d2-b2"] {
        assert!(wins_with(&v, ISSUE, m, 5), "{m} wins in 5");
    }
    assert!(!wins_with(&v, ISSUE, "d2-b4", 5), "d2-b4 is slower");
    // Analysis at hard's budget.
    let found = analyse(&v, ISSUE, 50_000, 1);
    assert_eq!(found.score, Score::Win(5));
    let best = v.move_to_string(found.best);
    assert!(["f3-f5", "d2-b2"].contains(&best.as_str()), "{best}");
    // Every line that wins says how fast.
    let found = analyse(&v, ISSUE, 50_000, 3);
    let lines: Vec<(String, Score)> = found
        .lines
        .iter()
        .map(|l| (v.move_to_string(l.first), l.score))
        .collect();
    assert_eq!(lines[0].1, Score::Win(5), "{lines:?}");
    assert_eq!(lines[1].1, Score::Win(5), "{lines:?}");
    assert!(
        lines
            .iter()
            .all(|(m, s)| m != "d2-b4" || *s == Score::Win(7))
    );
}

#[test]
fn a_bot_plays_the_fastest_win() {
    let v = Variant::standard();
    let game = Game::from_position(&v, v.parse_position(ISSUE).unwrap());
    let mut bot = Bot::new("hard".parse::<BotSpec>().unwrap(), 1);
    let m = bot.choose_in_game(&game).expect("a move");
    let m = v.move_to_string(m);
    assert!(["f3-f5", "d2-b2"].contains(&m.as_str()), "{m}");
    assert_eq!(bot.last_value, WIN - 5);
}

#[test]
fn another_win_is_reported_at_its_true_distance() {
    let v = Variant::standard();
    assert_eq!(fastest_win(&v, ANOTHER, 7), Some(7), "the rules' answer");
    let found = analyse(&v, ANOTHER, 50_000, 1);
    assert_eq!(found.score, Score::Win(7));
    assert!(wins_with(&v, ANOTHER, &v.move_to_string(found.best), 7));
}

#[test]
fn two_threads_report_the_fastest_wins_at_their_true_distance() {
    let v = Variant::standard();
    for _ in 0..3 {
        let found = analyse_on(&v, ISSUE, 50_000, 1, 2);
        assert_eq!(found.score, Score::Win(5), "{found:?}");
        assert!(wins_with(&v, ISSUE, &v.move_to_string(found.best), 5));
        let found = analyse_on(&v, ISSUE, 50_000, 3, 2);
        assert_eq!(found.lines[0].score, Score::Win(5));
        assert_eq!(found.lines[1].score, Score::Win(5), "{found:?}");
        let found = analyse_on(&v, ANOTHER, 50_000, 1, 2);
        assert_eq!(found.score, Score::Win(7));
        assert!(wins_with(&v, ANOTHER, &v.move_to_string(found.best), 7));
    }
}

#[test]
fn two_threads_stop_on_time_with_a_legal_move() {
    use std::time::{Duration, Instant};
    let v = Variant::standard();
    let game = Game::new(&v);
    let mut analyser = Analyser::new(16);
    analyser.set_threads(2);
    let limits = Limits {
        time: Some(Duration::from_millis(300)),
        ..Limits::default()
    };
    let started = Instant::now();
    let found = analyser
        .analyse(&game, limits, 1, &())
        .expect("the game goes on");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(game.legal_moves().contains(&found.best));
    assert!(found.depth >= 2 && found.nodes > 1_000, "{found:?}");
}
