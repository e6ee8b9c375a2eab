//! Every bot plays legal moves to the end of a game of every shipped
//! variant, reproducibly; specs parse or fail with a clear message.

use murus_ai::{Bot, BotSpec, LEVELS, parse_specs};
use std::time::Duration;

use murus_engine::{BUILTIN, Game, Outcome, Reason, Variant};

fn small_budgets() -> Vec<BotSpec> {
    vec![
        BotSpec::Random,
        BotSpec::Greedy,
        BotSpec::AlphaBeta {
            nodes: 300,
            eval: None,
        },
        BotSpec::Mcts {
            iterations: 40,
            guided: false,
            eval: None,
        },
        BotSpec::Mcts {
            iterations: 20,
            guided: true,
            eval: None,
        },
    ]
}

#[test]
fn every_bot_finishes_a_game_of_every_variant_with_legal_moves() {
    for (name, _) in BUILTIN {
        let v = Variant::builtin(name).unwrap();
        for spec in small_budgets() {
            let mut bots: Vec<Bot> = (0..v.player_count())
                .map(|s| Bot::new(spec.clone(), 11 + s as u64))
                .collect();
            let mut game = Game::new(&v);
            while game.outcome().is_none() && game.ply() < 120 {
                let pos = *game.position();
                let turn = v.turn(&pos);
                // The first colour is asked about the position alone, the
                // others about the game.
                let m = if turn == 0 {
                    bots[turn].choose(&v, &pos)
                } else {
                    bots[turn].choose_in_game(&game)
                };
                let m = m.unwrap_or_else(|| panic!("{name}/{spec}: no move in an unfinished game"));
                assert!(
                    v.is_legal(&pos, m),
                    "{name}/{spec}: illegal {}",
                    v.move_to_string(m)
                );
                game.play(m);
            }
        }
    }
}

#[test]
fn a_finished_game_gets_no_move() {
    let v = Variant::standard();
    // The Romans break through: the game is over.
    let before = v.parse_position("7g2/8/r27/8/8/8/2r25 r").unwrap();
    let pos = v.play(&before, v.parse_move(&before, "a5-a7").unwrap());
    assert!(v.outcome(&pos).is_some());
    for spec in small_budgets() {
        assert_eq!(Bot::new(spec.clone(), 1).choose(&v, &pos), None, "{spec}");
    }
}

#[test]
fn the_same_seed_gives_the_same_moves() {
    let v = Variant::builtin("advanced").unwrap();
    for spec in small_budgets() {
        let play = |seed| {
            let mut bot = Bot::new(spec.clone(), seed);
            let mut game = Game::new(&v);
            for _ in 0..12 {
                if game.outcome().is_some() {
                    break;
                }
                let m = bot.choose(&v, game.position()).unwrap();
                game.play(m);
            }
            game.record().moves
        };
        assert_eq!(play(5), play(5), "{spec}");
    }
}

#[test]
fn searching_bots_take_a_win_in_one() {
    let v = Variant::standard();
    // Romans: a tower on a5 wins by sowing a5-a7 (or a5-c7); other moves
    // leave a fight against four Gaul towers.
    let pos = v.parse_position("4g2g2g2g2/8/r27/8/8/8/2r25 r").unwrap();
    for spec in [
        BotSpec::Greedy,
        BotSpec::AlphaBeta {
            nodes: 2_000,
            eval: None,
        },
        BotSpec::Mcts {
            iterations: 400,
            guided: false,
            eval: None,
        },
    ] {
        let m = Bot::new(spec.clone(), 3).choose(&v, &pos).unwrap();
        let after = v.play(&pos, m);
        assert_eq!(
            v.outcome(&after).and_then(|o| o.winner),
            Some(0),
            "{spec} played {}",
            v.move_to_string(m)
        );
    }
}

#[test]
fn alphabeta_searches_deeper_with_a_bigger_budget_and_keeps_to_it() {
    let v = Variant::standard();
    let mut small = Bot::new(
        BotSpec::AlphaBeta {
            nodes: 1_000,
            eval: None,
        },
        1,
    );
    let mut big = Bot::new(
        BotSpec::AlphaBeta {
            nodes: 50_000,
            eval: None,
        },
        1,
    );
    small.choose(&v, &v.start()).unwrap();
    big.choose(&v, &v.start()).unwrap();
    assert!(
        big.last_depth > small.last_depth,
        "{} vs {}",
        big.last_depth,
        small.last_depth
    );
    assert!(small.last_nodes <= 1_000 && big.last_nodes <= 50_000);
}

/// A bot's node budget counts from the first node, so a budget smaller
/// than one iteration is a weaker bot than a larger one (the best of the
/// root moves it had time to look at; the skill ladder's lowest rungs rest
/// on it), while the analysis finishes its first iteration whatever its
/// budget, so that every score it gives was searched.
#[test]
fn a_budget_below_one_iteration_binds_a_bot_but_not_the_analysis() {
    use murus_ai::analysis::{Analyser, Limits};
    let v = Variant::standard();
    let mut tiny = Bot::new(
        BotSpec::AlphaBeta {
            nodes: 8,
            eval: None,
        },
        1,
    );
    assert!(v.legal_moves(&v.start()).len() > 8);
    tiny.choose(&v, &v.start()).unwrap();
    assert_eq!(tiny.last_nodes, 8);
    assert_eq!(tiny.last_depth, 0, "no iteration finished within 8 nodes");
    let limits = Limits {
        nodes: Some(8),
        depth: None,
        time: None,
    };
    let found = Analyser::new(1)
        .analyse(&Game::new(&v), limits, 1, &())
        .unwrap();
    assert_eq!(found.depth, 1, "the analysis searched every move once");
    assert!(found.nodes > 8);
}

#[test]
fn specs_parse_and_print_canonically() {
    for (text, want) in [
        ("random", "random"),
        ("greedy", "greedy"),
        ("alphabeta", "alphabeta:20000"),
        ("alphabeta:200000", "alphabeta:200000"),
        ("ab:1_000", "alphabeta:1000"),
        ("mcts", "mcts:10000"),
        ("mcts:5000", "mcts:5000"),
        ("mcts-guided:300", "mcts-guided:300"),
        ("easy", "greedy"),
        ("medium", "alphabeta:5000"),
        ("hard", "alphabeta:50000"),
        ("expert", "alphabeta:500000"),
        (" Random ", "random"),
    ] {
        let spec: BotSpec = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(spec.to_string(), want);
        assert_eq!(want.parse::<BotSpec>().unwrap(), spec);
    }
    assert_eq!(LEVELS.map(|(n, _)| n), ["easy", "medium", "hard", "expert"]);
    assert_eq!(parse_specs("random,mcts:10").unwrap().len(), 2);
}

#[test]
fn bad_specs_say_what_is_wrong() {
    for (text, words) in [
        ("alphabet", "unknown bot `alphabet`"),
        ("alphabeta:lots", "budget `lots`"),
        ("alphabeta:0", "from 1"),
        ("mcts:-5", "budget `-5`"),
        ("random:10", "takes no budget"),
        ("", "unknown bot"),
    ] {
        let e = text.parse::<BotSpec>().unwrap_err().to_string();
        assert!(e.contains(words), "`{text}`: {e}");
    }
    assert!(parse_specs("random,,greedy").is_err());
}

#[test]
fn a_bot_can_think_on_a_background_thread_and_be_stopped() {
    use murus_engine::job::Cancel;
    fn is_send<T: Send + 'static>(_: &T) {}
    let v = Variant::standard();
    let stop = Cancel::new();
    stop.cancel();
    // Stopped before it starts: a huge budget still returns a legal move at once.
    let mut bot = Bot::new(
        BotSpec::AlphaBeta {
            nodes: 1_000_000_000,
            eval: None,
        },
        1,
    );
    is_send(&bot);
    let (v2, start, flag) = (v.clone(), v.start(), stop.clone());
    let m = std::thread::spawn(move || bot.choose_with(&v2, &start, &flag))
        .join()
        .unwrap()
        .unwrap();
    assert!(v.is_legal(&v.start(), m));
    assert!(bot_nodes_at_most(&v, "alphabeta:1000000000", &stop, 1_100));
    let mut mcts = Bot::new(
        BotSpec::Mcts {
            iterations: u32::MAX,
            guided: false,
            eval: None,
        },
        1,
    );
    let m = mcts.choose_with(&v, &v.start(), &stop).unwrap();
    assert!(v.is_legal(&v.start(), m));
    assert!(bot_nodes_at_most(&v, "mcts:4000000000", &stop, 16));
}

/// Whether `spec` stopped by `handler` from the start searches at most
/// `most` nodes (iterations, for MCTS) and still answers a legal move.
fn bot_nodes_at_most(
    v: &Variant,
    spec: &str,
    handler: &dyn murus_engine::job::Handler,
    most: u64,
) -> bool {
    let mut bot = Bot::new(spec.parse().unwrap(), 1);
    let m = bot.choose_with(v, &v.start(), handler).expect("a move");
    v.is_legal(&v.start(), m) && bot.last_nodes <= most
}

#[test]
fn mcts_keeps_its_tree_between_moves() {
    // One MCTS bot plays both sides: each search starts from the subtree of
    // the move it chose last time, so the tree holds more than a fresh
    // search of the same position makes.
    let v = Variant::standard();
    let spec = BotSpec::Mcts {
        iterations: 400,
        guided: false,
        eval: None,
    };
    let mut bot = Bot::new(spec.clone(), 9);
    assert_eq!(bot.tree_size(), 0);
    let mut game = Game::new(&v);
    let m = bot.choose(&v, game.position()).unwrap();
    assert!(
        bot.tree_size() > 400,
        "a child for every move of each expanded node"
    );
    game.play(m);
    for _ in 0..3 {
        let m = bot.choose(&v, game.position()).unwrap();
        let mut fresh = Bot::new(spec.clone(), 9);
        fresh.choose(&v, game.position()).unwrap();
        assert!(
            bot.tree_size() > fresh.tree_size() + 100,
            "the tree was rebuilt from scratch: {} nodes, a fresh search {}",
            bot.tree_size(),
            fresh.tree_size()
        );
        game.play(m);
    }
    // Other bots keep no tree.
    let mut ab = Bot::new(
        BotSpec::AlphaBeta {
            nodes: 500,
            eval: None,
        },
        1,
    );
    ab.choose(&v, &v.start()).unwrap();
    assert_eq!(ab.tree_size(), 0);
}

/// Standard game, Romans to move. The Roman tower on b5 breaks through next
/// move, north (b5-b7) or north-east (b5-d7). Each side also has four
/// stones on files e to h of its home rank that can walk round a cycle of
/// six sowings back to where they stand (a brute-force search found none
/// shorter on a 4×4 board with up to six stones).
const CYCLES: &str = "g23g21g1g1/8/1r26/8/8/8/4r2r22 r";
const ROMAN_CYCLE: [&str; 6] = ["f1-h1", "e1-g1", "g1-e1", "f1-h1", "h1-f1", "g1-e1"];
/// The same cycle, entered one step later: its last sowing breaks a tower
/// (f7-h7), so it looks no better than the moves that lose.
const GAUL_CYCLE: [&str; 6] = ["e7-g7", "g7-e7", "f7-h7", "h7-f7", "g7-e7", "f7-h7"];

#[test]
fn a_lost_side_takes_the_draw_by_repetition_that_the_game_offers() {
    let v = Variant::standard(); // draw: repetition 3
    let mut game = Game::from_position(&v, v.parse_position(CYCLES).unwrap());
    // Twice round both cycles, less the Gauls' last sowing: the start has
    // stood on the board twice, and f7-h7 brings it back a third time. The
    // Gauls' other moves all lose at once: none blocks both b6-b7 and c6-d7.
    for ply in 0..23 {
        let cycle = if ply % 2 == 0 {
            ROMAN_CYCLE
        } else {
            GAUL_CYCLE
        };
        game.play_str(cycle[ply / 2 % 6]).unwrap();
        assert_eq!(game.outcome(), None, "ply {ply}");
    }
    let draw = v.parse_move(game.position(), "f7-h7").unwrap();
    let searchers = [
        (
            BotSpec::AlphaBeta {
                nodes: 2_000,
                eval: None,
            },
            6,
        ),
        (
            BotSpec::Mcts {
                iterations: 1_000,
                guided: false,
                eval: None,
            },
            3,
        ),
    ];
    for (spec, seeds) in searchers {
        for seed in 0..seeds {
            let m = Bot::new(spec.clone(), seed).choose_in_game(&game).unwrap();
            assert_eq!(m, draw, "{spec}, seed {seed}: {}", v.move_to_string(m));
        }
    }
    game.play(draw);
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::Repetition
        })
    );
    // The game is over: no bot has a move.
    for spec in small_budgets() {
        assert_eq!(
            Bot::new(spec.clone(), 1).choose_in_game(&game),
            None,
            "{spec}"
        );
    }
}

#[test]
fn levels_have_a_time_bound_for_the_studio_from_their_budget() {
    let bound = |s: &str| s.parse::<BotSpec>().unwrap().time_bound();
    assert_eq!(bound("easy"), None, "greedy does not search");
    assert_eq!(bound("random"), None);
    // The budget at a nominal million nodes a second, at least 250 ms.
    assert_eq!(bound("medium"), Some(Duration::from_millis(250)));
    assert_eq!(bound("expert"), Some(Duration::from_millis(500)));
    assert_eq!(bound("alphabeta:3000000"), Some(Duration::from_secs(3)));
    assert_eq!(bound("mcts"), Some(Duration::from_millis(250)));
    assert_eq!(bound("mcts:1000000"), Some(Duration::from_secs(10)));
}

#[test]
fn a_time_limit_stops_a_search_before_its_budget() {
    use murus_engine::job::HandlerExt;
    let v = Variant::standard();
    for spec in ["alphabeta:100000000", "mcts:100000000"] {
        let mut bot = Bot::new(spec.parse().unwrap(), 1);
        // A limit already past: the search stops at its first look at the
        // clock (every 1 024 nodes, every 16 iterations) with a legal move.
        let past = ().until(Some(std::time::Instant::now()));
        let m = bot.choose_with(&v, &v.start(), &past).expect("a move");
        assert!(v.is_legal(&v.start(), m), "{spec}");
        assert!(bot.last_nodes <= 1_100, "{spec}: {} nodes", bot.last_nodes);
    }
}
