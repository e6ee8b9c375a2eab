//! Set-ups: every kind of problem is reported, all problems are listed at
//! once, the position-string parser reports them with a column, and a set-up
//! made from any position builds that position again.

use murus_engine::{
    BUILTIN, Phase, Position, PositionError, Reason, Setup, SetupError, SetupErrorKind as Kind,
    Variant,
};
use proptest::prelude::*;

mod common;
use common::rulegen::rule_file;
use common::{board_cannot_tell, random_line};

fn v(name: &str) -> Variant {
    Variant::builtin(name).unwrap_or_else(|| panic!("shipped variant {name}"))
}

fn cell(v: &Variant, name: &str) -> usize {
    v.geometry()
        .parse_cell(name)
        .unwrap_or_else(|| panic!("no cell {name}"))
}

/// A set-up of `v` with `stacks` (`(cell name, player, height)`) and
/// `turn` to move.
fn setup(v: &Variant, stacks: &[(&str, usize, u8)], turn: usize) -> Setup {
    let mut s = Setup::empty();
    for &(name, p, h) in stacks {
        s.set_stack(cell(v, name), Some((p, h)));
    }
    s.set_turn(turn);
    s
}

fn kinds(v: &Variant, s: &Setup) -> Vec<Kind> {
    s.problems(v).iter().map(|e| e.kind().clone()).collect()
}

/// Three players, each breaking through at once onto the others' homes.
fn three_player_breakthrough() -> Variant {
    let (_, src) = BUILTIN.iter().find(|(n, _)| *n == "hex3-escape").unwrap();
    let src = src.replace(
        "win {\n    stalemate loses",
        "win {\n    breakthrough immediate by sow\n    stalemate loses",
    );
    assert!(
        src.contains("breakthrough immediate"),
        "the win block changed"
    );
    Variant::compile(&src).expect("hex3-escape with a breakthrough compiles")
}

#[test]
fn the_setup_builder_reports_each_kind_of_problem() {
    let standard = v("standard");

    // A stack on a slot the board lacks: outside the grid, or a hex
    // board's missing corner.
    let mut s = Setup::empty();
    s.set_stack(1000, Some((0, 1)));
    assert_eq!(kinds(&standard, &s), [Kind::NoSuchCell { cell: 1000 }]);
    let hex = v("hex");
    let mut s = Setup::empty();
    s.set_stack(0, Some((0, 1)));
    assert_eq!(kinds(&hex, &s), [Kind::NoSuchCell { cell: 0 }]);

    // Players the variant lacks: a stack's owner, the side to move, an
    // eliminated player.
    let d4 = cell(&standard, "d4");
    let mut s = setup(&standard, &[("d4", 5, 1)], 7);
    s.set_out(9, true);
    assert_eq!(
        kinds(&standard, &s),
        [
            Kind::NoSuchPlayer {
                player: 5,
                cell: Some(d4)
            },
            Kind::NoSuchPlayer {
                player: 7,
                cell: None
            },
            Kind::NoSuchPlayer {
                player: 9,
                cell: None
            },
            Kind::EliminationWithTwoPlayers,
        ]
    );

    // Heights: none, and over the stack limit.
    let s = setup(&standard, &[("d4", 0, 3), ("e4", 1, 0)], 0);
    assert_eq!(
        kinds(&standard, &s),
        [
            Kind::HeightOutOfRange {
                cell: d4,
                height: 3,
                limit: 2
            },
            Kind::HeightOutOfRange {
                cell: cell(&standard, "e4"),
                height: 0,
                limit: 2
            },
        ]
    );

    // More stones than the variant's setup gives.
    let mut s = Setup::from(standard.start());
    s.set_stack(d4, Some((1, 1)));
    assert_eq!(
        kinds(&standard, &s),
        [Kind::TooManyStones {
            player: 1,
            has: 17,
            most: 16
        }]
    );

    // The side to move already stands on an opponent's home.
    let s = setup(&standard, &[("a7", 0, 1), ("c7", 0, 1)], 0);
    assert_eq!(
        kinds(&standard, &s),
        [Kind::SideToMoveOnGoal {
            player: 0,
            cells: vec![cell(&standard, "a7"), cell(&standard, "c7")]
        }]
    );

    // Two players who are not to move both stand on an opponent's home.
    let three = three_player_breakthrough();
    let (r, g) = (
        three.rules().players[0].home[0],
        three.rules().players[1].home[0],
    );
    let mut s = Setup::empty();
    s.set_stack(r, Some((1, 1))); // a Gaul on the Romans' home
    s.set_stack(g, Some((2, 1))); // a Briton on the Gauls' home
    assert_eq!(
        kinds(&three, &s),
        [Kind::SeveralOnGoal {
            players: vec![1, 2],
            cells: vec![r, g]
        }]
    );

    // A pie phase without the pie rule, and with the wrong side to move.
    let mut s = Setup::from(standard.start());
    s.set_phase(Phase::PieOpen);
    assert_eq!(kinds(&standard, &s), [Kind::NoPieRule]);
    let pie = v("pie");
    let mut s = Setup::from(pie.start());
    s.set_turn(1);
    assert_eq!(
        kinds(&pie, &s),
        [Kind::PieTurn {
            phase: Phase::PieOpen,
            due: 0
        }]
    );

    // The side to move eliminated.
    let escape4 = v("escape4");
    let mut s = Setup::from(escape4.start());
    s.set_out(0, true);
    assert_eq!(kinds(&escape4, &s), [Kind::EliminatedToMove { player: 0 }]);

    // Eliminated players in a game of two.
    let mut s = Setup::from(standard.start());
    s.set_out(1, true);
    assert_eq!(kinds(&standard, &s), [Kind::EliminationWithTwoPlayers]);
}

#[test]
fn problems_are_all_listed_at_once_and_build_names_the_first() {
    let v = v("standard");
    let mut s = Setup::from(v.start());
    s.set_stack(cell(&v, "d4"), Some((0, 3)));
    s.set_stack(cell(&v, "a6"), Some((0, 2)));
    s.set_phase(Phase::PieReply);
    let problems = s.problems(&v);
    let kinds: Vec<&Kind> = problems.iter().map(SetupError::kind).collect();
    assert_eq!(
        kinds,
        [
            &Kind::HeightOutOfRange {
                cell: cell(&v, "d4"),
                height: 3,
                limit: 2
            },
            &Kind::NoPieRule,
            &Kind::TooManyStones {
                player: 0,
                has: 21,
                most: 16
            },
        ]
    );
    assert_eq!(problems[0].kind().cells(), [cell(&v, "d4")]);
    assert_eq!(problems[2].kind().players(), [0]);
    assert_eq!(s.build(&v), Err(problems[0].clone()));
    // Messages use the board's and the players' names.
    assert_eq!(
        problems[0].to_string(),
        "a stack of 3 on d4 is not allowed: heights run from 1 to the stack limit 2"
    );
    assert!(
        problems[2]
            .to_string()
            .contains("the Romans (`r`) have 21 stones"),
        "{}",
        problems[2]
    );
}

#[test]
fn a_won_game_builds_with_its_winner() {
    // A Roman stone on the Gauls' home, Gauls to move: the Romans have won.
    let v = v("standard");
    let s = setup(&v, &[("a7", 0, 1), ("h6", 1, 2)], 1);
    let pos = s.build(&v).expect("a finished game is a position");
    let o = v.outcome(&pos).expect("over");
    assert_eq!((o.winner, o.reason), (Some(0), Reason::BreakthroughSow));
}

#[test]
fn the_position_parser_reports_setup_problems_with_a_column() {
    let v = v("standard");
    let e = v
        .parse_position("g3g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2 r")
        .expect_err("a stack of 3");
    assert_eq!(e.column(), Some(2));
    assert!(matches!(
        e.setup_error().map(SetupError::kind),
        Some(Kind::HeightOutOfRange { height: 3, .. })
    ));
    assert_eq!(
        e.to_string(),
        "invalid position string at column 2: a stack of 3 on a7 is not allowed: heights run from 1 to the stack limit 2"
    );
    let e = v
        .parse_position("g2g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2 r pie:open")
        .expect_err("no pie rule");
    assert_eq!(e.column(), Some(47));
    assert_eq!(e.message(), "this variant has no pie rule");
    // Errors of form are syntax errors, with no set-up problem.
    let e = v
        .parse_position("g2g2g2g2g2g2g2g2/9/8/8/8/8/8 r")
        .expect_err("9");
    assert!(matches!(
        e,
        PositionError::Syntax {
            column: Some(18),
            ..
        }
    ));
    assert_eq!(e.setup_error(), None);
}

#[test]
fn a_setup_with_problems_reads_back_from_its_string() {
    let v = v("standard");
    let mut s = Setup::from(v.start());
    s.set_stack(cell(&v, "d4"), Some((0, 2)));
    s.set_turn(1);
    let text = v.setup_string(&s);
    assert_eq!(text, "g2g2g2g2g2g2g2g2/8/8/3r24/8/8/r2r2r2r2r2r2r2r2 g");
    assert_eq!(v.parse_setup(&text), Ok(s.clone()));
    assert!(v.parse_position(&text).is_err(), "18 Roman stones");
    // A stack off the board and a player the variant lacks cannot be
    // written as they are; the string says so rather than panicking.
    let mut odd = Setup::empty();
    odd.set_stack(1000, Some((0, 1)));
    odd.set_stack(cell(&v, "a1"), Some((6, 1)));
    odd.set_turn(6);
    assert_eq!(v.setup_string(&odd), "8/8/8/8/8/8/?17 ?");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(48), ..ProptestConfig::default() })]

    #[test]
    fn a_setup_of_any_position_builds_that_position(variant in 0..BUILTIN.len(), seed in any::<u64>(), plies in 0usize..80) {
        let v = Variant::compile(BUILTIN[variant].1).expect("shipped variant compiles");
        for pos in random_line(&v, seed, plies) {
            let setup = Setup::from(pos);
            prop_assert_eq!(setup.problems(&v), vec![]);
            let built = setup
                .build(&v)
                .map_err(|e| TestCaseError::fail(format!("{}: {e}", v.position_string(&pos))))?;
            prop_assert_eq!(v.hash(&built), v.hash(&pos), "hash");
            prop_assert_eq!(v.hash_from_scratch(&built), v.hash(&pos), "hash from scratch");
            match (v.outcome(&pos), v.outcome(&built)) {
                // The board does not say whether a stone that broke through
                // was sown or thrown, where both win.
                (Some(a), Some(b)) if a.reason == Reason::BreakthroughThrow && a != b => {
                    prop_assert_eq!((b.winner, b.reason), (a.winner, Reason::BreakthroughSow));
                }
                _ => prop_assert_eq!(built, pos, "{}", v.position_string(&pos)),
            }
            let text = v.setup_string(&setup);
            prop_assert_eq!(&text, &v.position_string(&pos));
            prop_assert_eq!(v.parse_setup(&text), Ok(setup));
        }
    }
}

/// A position's set-up builds it again (up to what the board cannot tell),
/// and its position string reads back as it.
fn round_trips(v: &Variant, pos: &Position) -> Result<(), TestCaseError> {
    let text = v.position_string(pos);
    let setup = Setup::from(pos);
    prop_assert_eq!(setup.problems(v), vec![], "{}", text);
    let built = setup
        .build(v)
        .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    prop_assert_eq!(
        v.hash_from_scratch(&built),
        v.hash(&built),
        "hash from scratch"
    );
    if built != *pos {
        prop_assert!(
            board_cannot_tell(v, pos, &built),
            "{}: built {:?}, played {:?}",
            text,
            v.outcome(&built),
            v.outcome(pos)
        );
    }
    let parsed = v
        .parse_position(&text)
        .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    prop_assert_eq!(parsed, built, "{}", text);
    prop_assert_eq!(v.setup_string(&setup), text.clone());
    prop_assert_eq!(v.parse_setup(&text), Ok(setup));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(96), ..ProptestConfig::default() })]

    #[test]
    fn every_position_of_random_play_of_generated_rules_round_trips(rules in any::<u64>(), seed in any::<u64>(), plies in 0usize..160) {
        let text = rule_file(rules);
        let v = Variant::compile(&text).map_err(|d| {
            TestCaseError::fail(format!("{text}\n{}", murus_dsl::render_all(&d, "generated.mg", &text)))
        })?;
        for pos in random_line(&v, seed, plies) {
            round_trips(&v, &pos).map_err(|e| TestCaseError::fail(format!("{text}\n{e}")))?;
        }
    }
}

/// The issue's 6×6 game with catapults where only sowing breaks through: a
/// stone thrown onto the opponent's home wins nothing and stays there.
const SIX_BY_SOW: &str = r##"variant "six"
board rect 6 x 6
player "Romans" { letter r colour "#e8dcc0" home rank 1 forward n }
player "Gauls" { letter g colour "#5b3a29" home rank 6 forward s }
setup { r 2 on rank 1 g 2 on rank 6 }
stack limit 3
sow { heights 2 directions all onto empty, own 1, own 2 }
sacrifice { directions all 2 against 1: lose 1, remove 1 }
catapult { height 3 directions left, forward-left, forward, forward-right, right range 2, 3 onto empty, enemy any }
win { breakthrough immediate by sow stalemate loses }
draw { repetition 3 plies 200 }
"##;

#[test]
fn a_stone_thrown_onto_a_home_where_only_sowing_breaks_through_loads_back() {
    let v = Variant::compile(SIX_BY_SOW).expect("the 6×6 variant compiles");
    let before = v
        .parse_position("g2g2g21g2g2/6/6/3r32/6/r2r2r2r22 r")
        .expect("a Roman catapult on d3");
    let m = v.parse_move(&before, "d3*d6").expect("a throw onto d6");
    let after = v.play(&before, m);
    assert_eq!(
        v.outcome(&after),
        None,
        "a thrown stone does not break through"
    );
    let text = v.position_string(&after);
    assert_eq!(text, "g2g2g2r1g2g2/6/6/3r22/6/r2r2r2r22 g");
    assert_eq!(v.parse_position(&text), Ok(after));
    assert_eq!(Setup::from(after).build(&v), Ok(after));
    // The Gauls move; the Romans, to move, still stand on the Gauls' home.
    let reply = v.legal_moves(&after)[0];
    let later = v.play(&after, reply);
    assert_eq!(v.outcome(&later), None);
    let text = v.position_string(&later);
    assert_eq!(v.parse_position(&text), Ok(later), "{text}");
    // A stack of two there was sown onto: that broke through.
    let sown = v
        .parse_position("g2g2g2r2g2g2/6/6/6/6/r2r2r2r22 g")
        .unwrap();
    let o = v.outcome(&sown).expect("won");
    assert_eq!((o.winner, o.reason), (Some(0), Reason::BreakthroughSow));
    let e = v
        .parse_position("g2g2g2r2g2g2/6/6/6/6/r2r2r2r22 r")
        .expect_err("the Romans would have won before their turn");
    assert!(matches!(
        e.setup_error().map(SetupError::kind),
        Some(Kind::SideToMoveOnGoal { player: 0, .. })
    ));
}

#[test]
fn a_winner_must_have_made_the_last_move() {
    // Three players, each breaking through at once: the Britons on the
    // Romans' home won with the last move, so the Romans move next.
    let three = three_player_breakthrough();
    let r = three.rules().players[0].home[0];
    let mut s = Setup::empty();
    s.set_stack(r, Some((2, 1)));
    s.set_turn(0);
    let won = s.build(&three).expect("the Britons moved last");
    assert_eq!(three.outcome(&won).and_then(|o| o.winner), Some(2));
    // With the Gauls to move, the Romans moved last, not the Britons.
    s.set_turn(1);
    assert_eq!(
        kinds(&three, &s),
        [Kind::WonOutOfTurn {
            player: 2,
            cells: vec![r]
        }]
    );
    assert!(
        s.problems(&three)[0]
            .to_string()
            .contains("so they won with the last move, but the last move was not theirs")
    );
    // Unless the Romans are out: then the Britons moved last.
    s.set_out(0, true);
    assert_eq!(kinds(&three, &s), []);
}
