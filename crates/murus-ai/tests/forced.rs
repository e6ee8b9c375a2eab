//! Forced moves are searched like any other: a position with one legal
//! move is valued as the position after it, and a review never marks a
//! forced move, nor a move that keeps a proven win, as a blunder.

use murus_ai::analysis::{Analyser, Limits, Score};
use murus_ai::review::{self, negate, review_line};
use murus_engine::{BUILTIN, Game, Move, Record, RecordMove, Variant};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The first position with exactly one legal move of a random game of `v`
/// (seeded), as a game that reached it; `None` if the game had none.
fn forced_position(v: &Variant, seed: u64) -> Option<Game> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::new(v);
    for _ in 0..400 {
        if game.outcome().is_some() {
            return None;
        }
        let moves = game.legal_moves();
        if moves.len() == 1 {
            return Some(game);
        }
        game.play(moves[rng.random_range(0..moves.len())]);
    }
    None
}

/// A score one ply further, as the other side sees it.
fn before(s: Score) -> Score {
    match negate(s) {
        Score::Win(n) => Score::Win(n + 1),
        Score::Loss(n) => Score::Loss(n + 1),
        cp => cp,
    }
}

const BUDGET: Limits = Limits {
    nodes: Some(20_000),
    depth: None,
    time: None,
};

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Positions with one legal move in random games of every shipped
    /// variant (two players): the analysis searches them (depth at least
    /// 1, never the bare `cp 0, depth 0` of a move not searched), and the
    /// score is the score of the position after the move, searched with
    /// the same budget, turned to the other side and one ply further.
    #[test]
    fn a_forced_position_scores_as_the_position_after_its_move(
        which in 0..BUILTIN.len(),
        seed in any::<u64>(),
    ) {
        let v = Variant::builtin(BUILTIN[which].0).unwrap();
        prop_assume!(v.player_count() == 2);
        // Random games rarely force a move: look through a few.
        let found = (0..40).find_map(|k| forced_position(&v, seed.wrapping_add(k)));
        prop_assume!(found.is_some());
        let game = found.unwrap();
        let only: Move = game.legal_moves()[0];
        let seed = v.hash(game.position());
        let f = Analyser::new(8).analyse(&game, BUDGET, seed, &()).unwrap();
        prop_assert!(f.depth >= 1, "{}: depth {}", v.position_string(game.position()), f.depth);
        prop_assert!(f.nodes >= 1);
        prop_assert_eq!(f.best, only);
        prop_assert_eq!(f.pv[0], only);
        let mut after = game.clone();
        after.play(only);
        let expected = match after.outcome() {
            Some(o) => match o.winner {
                Some(w) if w == v.turn(game.position()) => Score::Win(1),
                Some(_) => Score::Loss(1),
                None => Score::Cp(0),
            },
            None => {
                let a = Analyser::new(8).analyse(&after, BUDGET, seed, &()).unwrap();
                prop_assert_eq!(f.depth, a.depth + 1);
                prop_assert_eq!(&f.pv[1..], &a.pv[..]);
                before(a.score)
            }
        };
        prop_assert_eq!(f.score, expected, "{}", v.position_string(game.position()));
    }
}

/// Standard rules, Romans to move with a win in 5 plies: `e1-e3` leaves
/// the Gauls one legal move (`g6-e6`), and the Romans break through on
/// their third move.
const WIN_WITH_A_FORCED_REPLY: &str =
    "1g11g14/g11g11g11g21/1g1g1g1r1g1g11/g12g1r11r11/g1r1r11r11r11/1r1r1r2r1g11r1/1r12r23 r";
const LINE: [&str; 5] = ["e1-e3", "g6-e6", "e3-e5", "e6-g6", "e5-c7"];

#[test]
fn a_review_marks_no_forced_move_and_no_winning_move_as_a_blunder() {
    let v = Variant::standard();
    let start = v.parse_position(WIN_WITH_A_FORCED_REPLY).unwrap();
    let mut game = Game::from_position(&v, start);
    let moves: Vec<Move> = LINE.iter().map(|t| game.play_str(t).unwrap()).collect();
    assert_eq!(game.outcome().unwrap().winner, Some(0), "the Romans win");
    let mut forced = Game::from_position(&v, start);
    forced.play(moves[0]);
    assert_eq!(forced.legal_moves().len(), 1, "g6-e6 is forced");

    let mut analyser = Analyser::new(16);
    let reviewed = review_line(&mut analyser, &v, start, &moves, BUDGET, &());
    assert_eq!(reviewed.len(), LINE.len() + 1);
    assert_eq!(reviewed[0].score, Some(Score::Win(5)));
    assert_eq!(reviewed[1].legal, 1);
    assert_eq!(reviewed[1].score, Some(Score::Loss(4)), "searched, not 0");
    assert!(reviewed[..LINE.len()].iter().all(|r| r.depth >= 1));
    assert!(reviewed[LINE.len()].over);
    assert!(review::blunders(&reviewed, &moves, 2).is_empty());

    // Written back: a score with its depth after every move but the last,
    // which ends the game (no "win in 0 plies"), and no `??`.
    let mut record = Record {
        variant: "standard".into(),
        start: Some(WIN_WITH_A_FORCED_REPLY.into()),
        moves: LINE.iter().map(|&t| RecordMove::new(t)).collect(),
        ..Record::default()
    };
    review::annotate(&mut record, &v, &reviewed);
    let text = record.write(&v);
    assert!(!text.contains("??"), "{text}");
    assert!(!text.contains("in 0 plies"), "{text}");
    let (last, rest) = record.moves.split_last().unwrap();
    assert_eq!(last.comment, None, "{text}");
    for m in rest {
        let c = m.comment.as_deref().unwrap_or_default();
        assert!(c.contains("(depth "), "{}: {c:?}", m.text);
    }
    let after_forced = record.moves[1].comment.as_deref().unwrap_or_default();
    assert!(
        after_forced.starts_with("Romans win in 3 plies (depth "),
        "{text}"
    );
}

/// A move that throws a win away is still a blunder, forced replies or
/// not; and a forced move before it is not.
#[test]
fn a_move_that_lets_the_win_go_after_a_forced_reply_is_still_a_blunder() {
    let v = Variant::standard();
    let start = v.parse_position(WIN_WITH_A_FORCED_REPLY).unwrap();
    let mut game = Game::from_position(&v, start);
    let mut moves: Vec<Move> = LINE[..2]
        .iter()
        .map(|t| game.play_str(t).unwrap())
        .collect();
    // The Romans, a win in 3 plies ahead, play a quiet move far away.
    let best = Analyser::new(16).analyse(&game, BUDGET, 1, &()).unwrap();
    assert_eq!(best.score, Score::Win(3));
    let quiet = game
        .legal_moves()
        .into_iter()
        .find(|&m| {
            let mut g = game.clone();
            g.play(m);
            let a = Analyser::new(16).analyse(&g, BUDGET, 1, &());
            a.is_some_and(|a| !matches!(a.score, Score::Loss(_)))
        })
        .expect("a move that does not keep the win");
    game.play(quiet);
    moves.push(quiet);
    let reviewed = review_line(&mut Analyser::new(16), &v, start, &moves, BUDGET, &());
    let blunders = review::blunders(&reviewed, &moves, 2);
    assert_eq!(blunders.len(), 1, "{blunders:?}");
    assert_eq!(blunders[0].index, 2);
    assert_eq!(blunders[0].before, Score::Win(3));
}
