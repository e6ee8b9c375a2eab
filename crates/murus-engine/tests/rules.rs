//! Rule situations from the designer's texts, RULES.md and the issues' facts.

use murus_engine::{Action, Game, Outcome, Phase, Position, Reason, StonesRemoved, Variant};

fn v(name: &str) -> Variant {
    Variant::builtin(name).unwrap_or_else(|| panic!("shipped variant {name}"))
}

fn pos(v: &Variant, s: &str) -> Position {
    v.parse_position(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn moves(v: &Variant, p: &Position) -> Vec<String> {
    let mut m: Vec<String> = v
        .legal_moves(p)
        .iter()
        .map(|&m| v.move_to_string(m))
        .collect();
    m.sort();
    m
}

fn play(v: &Variant, p: &Position, m: &str) -> Position {
    let mv = v.parse_move(p, m).unwrap_or_else(|e| panic!("{m}: {e}"));
    v.play(p, mv)
}

#[test]
fn standard_start_has_20_moves() {
    let v = v("standard");
    assert_eq!(v.legal_moves(&v.start()).len(), 20);
    assert_eq!(
        v.position_string(&v.start()),
        "g2g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2 r"
    );
}

#[test]
fn the_issue_position_has_exactly_its_15_roman_moves() {
    let v = v("standard");
    let p = pos(
        &v,
        "g21g2g21g1g11/2g14g1/3g1g1g11g2/6g11/r2r14r2r2/r1r1r12r1r2r1/1r26 r",
    );
    let expected =
        "a3-a1 a3-a5 a3-c1 a3-c3 a3-c5 b1-b3 b1-d1 b1-d3 g2-e2 g2-e4 g3-e1 g3-e3 g3xg4 h3-h1 h3xg4";
    assert_eq!(moves(&v, &p).join(" "), expected);
}

#[test]
fn figure_3_tower_cannot_sow_but_can_sacrifice() {
    // Roman towers b4 and b2; Gaul walls b6, c5, d2 and a Gaul tower d4.
    let v = v("standard");
    let p = pos(&v, "8/1g16/2g15/1r21g24/8/1r21g14/8 r");
    assert_eq!(moves(&v, &p), ["b4xc5"]);
    let after = play(&v, &p, "b4xc5");
    assert_eq!(v.position_string(&after), "8/1g16/8/1r11g24/8/1r21g14/8 g");
    assert_eq!(v.stone_count(&after, 0), 3, "the tower gave up one stone");
}

#[test]
fn without_the_sacrifice_the_romans_are_stalemated_and_lose() {
    let v = v("standard");
    let p = pos(&v, "8/1g11g24/8/1r21g24/8/1r21g14/8 r");
    assert!(v.legal_moves(&p).is_empty());
    let o = v.outcome(&p).expect("stalemate ends the game");
    assert_eq!((o.winner, o.reason), (Some(1), Reason::Stalemate));
}

#[test]
fn a_tower_on_the_opponents_third_rank_with_a_clear_path_wins_next_move() {
    let v = v("standard");
    let p = pos(&v, "g27/8/3r24/8/8/8/7r2 r");
    assert!(moves(&v, &p).contains(&"d5-d7".to_string()));
    let after = play(&v, &p, "d5-d7");
    let o = v
        .outcome(&after)
        .expect("breakthrough ends the game at once");
    assert_eq!((o.winner, o.reason), (Some(0), Reason::BreakthroughSow));
    assert!(
        v.legal_moves(&after).is_empty(),
        "a finished game has no moves"
    );
}

#[test]
fn sowing_is_blocked_by_towers_enemy_stones_and_the_edge() {
    let v = v("standard");
    // Roman tower c3 with: own tower c5 (north blocked at the second cell), enemy wall e3 (east).
    let p = pos(&v, "g27/8/2r25/8/2r21g13/8/8 r");
    let m = moves(&v, &p);
    assert!(
        !m.contains(&"c3-c5".to_string()),
        "cannot sow onto an own tower"
    );
    assert!(
        !m.contains(&"c3-e3".to_string()),
        "cannot sow onto an enemy wall"
    );
    assert!(m.contains(&"c3-a3".to_string()), "west is open");
    assert!(m.contains(&"c3-a1".to_string()));
    assert!(
        !m.contains(&"c3xd3".to_string()),
        "d3 is empty: nothing to sacrifice against"
    );
}

#[test]
fn houdini_has_no_sacrifices_and_escape_no_breakthrough() {
    let h = v("houdini");
    let p = pos(&h, "8/1g16/2g15/1r21g24/8/1r21g14/8 r");
    assert!(
        h.legal_moves(&p).is_empty(),
        "Figure 3 is a stalemate without sacrifices"
    );
    let e = v("escape");
    let p = pos(&e, "g27/8/3r24/8/8/8/7r2 r");
    let after = play(&e, &p, "d5-d7");
    assert_eq!(
        e.outcome(&after),
        None,
        "reaching the far rank wins nothing in Escape"
    );
}

#[test]
fn advanced_start_has_32_moves_including_sideways_catapult_building() {
    let v = v("advanced");
    let m = moves(&v, &v.start());
    assert_eq!(m.len(), 32);
    assert!(m.contains(&"a1-c1".to_string()));
    let after = play(&v, &v.start(), "a1-c1");
    assert_eq!(
        v.stack(&after, v.geometry().parse_cell("c1").unwrap()),
        Some((0, 3))
    );
}

#[test]
fn the_issue_advanced_position_has_exactly_its_20_roman_moves() {
    let v = v("advanced");
    let p = pos(
        &v,
        "1g21g2g13/g13g2g1g11/g12g11g12/4g11g11/1r1r1r1g1r2r11/1r21r11r22/r1r14r31 r",
    );
    let expected = "b2-b4 b2-d2 b2-d4 f2-d2 f2-f4 f2-h2 f2-h4 f2xe3 f3-d1 f3-f1 f3-h1 f3-h3 f3xe3 f3xe4 f3xg4 g1*d1 g1*d4 g1*e1 g1*e3 g1*g4";
    assert_eq!(moves(&v, &p).join(" "), expected);
}

#[test]
fn a_throw_onto_an_empty_home_cell_wins_but_a_hit_there_does_not() {
    let v = v("advanced");
    let p = pos(&v, "g26g2/8/8/3r34/8/8/r27 r");
    let won = play(&v, &p, "d4*d7");
    let o = v.outcome(&won).expect("a throw onto the home rank wins");
    assert_eq!((o.winner, o.reason), (Some(0), Reason::BreakthroughThrow));
    let p = pos(&v, "3g23g2/8/8/3r34/8/8/8 r");
    let hit = play(&v, &p, "d4*d7");
    assert_eq!(v.outcome(&hit), None);
    assert_eq!(
        v.position_string(&hit),
        "3g13g2/8/8/3r24/8/8/8 g",
        "the thrown stone and one enemy stone leave"
    );
}

#[test]
fn a_throw_may_not_land_on_an_own_unit_but_flies_over_anything() {
    let v = v("advanced");
    let p = pos(&v, "g27/3r14/8/3r34/8/8/8 r");
    let m = moves(&v, &p);
    assert!(!m.contains(&"d4*d6".to_string()));
    assert!(
        m.contains(&"d4*d7".to_string()),
        "flies over the own wall on d6"
    );
    assert!(
        !m.contains(&"d4*d2".to_string()),
        "backwards is not a throwing direction"
    );
    assert!(
        m.contains(&"d4*b4".to_string()) && m.contains(&"d4*g4".to_string()),
        "left and right, 2 and 3 cells"
    );
    assert!(!m.contains(&"d4*e4".to_string()), "one cell is too short");
}

#[test]
fn a_tower_sacrifices_one_or_both_stones_against_a_catapult() {
    let v = v("advanced");
    // Gauls to move: tower d5 next to the Roman catapult d4.
    let p = pos(&v, "7g2/8/3g24/3r34/8/8/r27 g");
    let m = moves(&v, &p);
    assert!(m.contains(&"d5xd4".to_string()) && m.contains(&"d5xxd4".to_string()));
    let one = play(&v, &p, "d5xd4");
    assert_eq!(v.position_string(&one), "7g2/8/3g14/3r24/8/8/r27 r");
    let two = play(&v, &p, "d5xxd4");
    assert_eq!(v.position_string(&two), "7g2/8/8/3r14/8/8/r27 r");
    for s in [&one, &two] {
        assert_eq!(
            v.stone_count(s, 0) as i32 - v.stone_count(&p, 0) as i32,
            v.stone_count(s, 1) as i32 - v.stone_count(&p, 1) as i32,
            "material stays equal"
        );
    }
}

#[test]
fn nothing_sacrifices_against_a_tower_and_catapults_do_not_sacrifice() {
    let v = v("advanced");
    let p = pos(&v, "7g2/8/3g2g13/3r34/8/8/r27 r");
    let m = moves(&v, &p);
    assert!(m.iter().all(|m| !m.contains('x')), "{m:?}");
}

#[test]
fn delayed_breakthrough_wins_only_if_the_stone_survives_a_turn() {
    let v = v("advanced-delayed");
    let p = pos(&v, "g23g23/8/3r24/8/8/8/r27 r");
    let reached = play(&v, &p, "d5-d7");
    assert_eq!(v.outcome(&reached), None, "the Gauls get one turn");
    let ignored = play(&v, &reached, "a7-a5");
    let o = v
        .outcome(&ignored)
        .expect("still there at the start of the Romans' turn");
    assert_eq!((o.winner, o.reason), (Some(0), Reason::BreakthroughDelayed));
    let removed = play(&v, &reached, "e7xd7");
    assert_eq!(v.outcome(&removed), None);
    // The immediate rules end the game at once.
    let a = self::v("advanced");
    let won = play(&a, &pos(&a, "g23g23/8/3r24/8/8/8/r27 r"), "d5-d7");
    assert_eq!(
        a.outcome(&won).map(|o| o.reason),
        Some(Reason::BreakthroughSow)
    );
}

#[test]
fn pie_rule_counts_224_then_225_then_224() {
    let v = v("pie");
    let start = v.start();
    assert_eq!(v.phase(&start), Phase::PieOpen);
    let first = v.legal_moves(&start);
    assert_eq!(first.len(), 224);
    for &m in first.iter().step_by(37) {
        let reply = v.play(&start, m);
        assert_eq!(v.legal_moves(&reply).len(), 225);
    }
    let p1 = play(&v, &start, "d1:b2,g2");
    assert_eq!(
        v.position_string(&p1),
        "g2g2g2g2g2g2g2g2/8/8/8/8/1r14r11/r2r2r21r2r2r2r2 g pie:reply"
    );
    let swapped = play(&v, &p1, "swap");
    assert_eq!(v.legal_moves(&swapped).len(), 224);
    assert_eq!(
        v.turn(&swapped),
        1,
        "the Gauls still make their special first move"
    );
    let normal = play(&v, &swapped, "e7:a6,h6");
    assert_eq!((v.phase(&normal), v.turn(&normal)), (Phase::Normal, 0));
    assert!(
        v.parse_move(&p1, "d1:g2,b2").is_err(),
        "d1 is no longer a tower"
    );
    assert_eq!(
        v.move_to_string(v.parse_move(&p1, "e7:g6,a6").unwrap()),
        "e7:a6,g6",
        "cells in file order"
    );
}

#[test]
fn a_stalemated_player_is_eliminated_and_skipped_in_four_player_escape() {
    let v = v("escape4");
    // Belgae (b) have only a wall: they cannot act when their turn comes.
    let p = pos(&v, "3g24/8/8/8/b16h2/8/8/3r24 r");
    let after = play(&v, &p, "d1-d3");
    assert!(v.is_out(&after, 1));
    assert_eq!(
        v.letter(v.turn(&after)),
        'g',
        "turns skip the eliminated player"
    );
    assert!(v.position_string(&after).ends_with(" g out:b"));
    // Their stones stay on the board.
    assert_eq!(
        v.stack(&after, v.geometry().parse_cell("a4").unwrap()),
        Some((1, 1))
    );
    // The last player able to act wins.
    let p = pos(&v, "3g14/8/8/8/b16h1/8/8/3r24 r");
    let after = play(&v, &p, "d1-d3");
    let o = v.outcome(&after).expect("only the Romans can act");
    assert_eq!((o.winner, o.reason), (Some(0), Reason::Elimination));
}

#[test]
fn game_records_round_trip_and_replay() {
    let v = v("standard");
    let mut g = Game::new(&v);
    for m in ["d1-d3", "e7-e5", "e1-e3"] {
        g.play_str(m).unwrap();
    }
    let rec = g.record();
    let back = murus_engine::GameRecord::from_json(&rec.to_json()).unwrap();
    let again = Game::from_record(&v, &back).unwrap();
    assert_eq!(again.position(), g.position());
    assert_eq!(
        g.undo().map(|m| v.move_to_string(m)),
        Some("e1-e3".to_string())
    );
    assert_eq!(g.ply(), 2);
}

/// A game played to its end by moves chosen from `seed` (xorshift), as the
/// engine's playout chooses them.
fn random_game(v: &Variant, seed: u64) -> Game {
    let mut g = Game::new(v);
    let mut s = seed;
    while g.outcome().is_none() {
        let legal = g.legal_moves();
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        assert!(g.play(legal[(s % legal.len() as u64) as usize]));
    }
    g
}

#[test]
fn game_and_playout_agree_on_every_ending_including_draws() {
    // The same move choices through `Game` (with history) and the engine's
    // playout (allocation-free) must end the same way at the same ply.
    use murus_engine::{Engine, EngineTask, Word};
    struct Playout(u64);
    impl EngineTask for Playout {
        type Output = (murus_engine::Outcome, u32);
        fn run<B: Word>(self, e: &Engine<B>) -> Self::Output {
            let mut s = self.0;
            let mut scratch = murus_engine::Scratch::default();
            let r = e.playout(e.start(), &mut scratch, |n| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s % n as u64) as usize
            });
            (r.outcome, r.plies)
        }
    }
    let mut reasons = std::collections::BTreeSet::new();
    for name in ["standard", "houdini", "escape", "advanced"] {
        let v = v(name);
        for seed in 1..40u64 {
            let (outcome, plies) = v.run(Playout(seed));
            let g = random_game(&v, seed);
            assert_eq!(
                (g.outcome().unwrap(), g.ply() as u32),
                (outcome, plies),
                "{name} seed {seed}"
            );
            reasons.insert(outcome.reason.as_str());
        }
    }
    assert!(
        reasons.contains("breakthrough") && reasons.contains("stalemate"),
        "{reasons:?}"
    );
}

#[test]
fn after_a_swap_records_count_the_winner_by_seat_as_well_as_colour() {
    let v = v("pie");
    for swap in [false, true] {
        let mut game = Game::new(&v);
        game.play_str("d1:b2,g2").unwrap();
        game.play_str(if swap { "swap" } else { "e7:a6,h6" })
            .unwrap();
        let mut s = 7u64;
        while game.outcome().is_none() {
            let moves = game.legal_moves();
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
            game.play(moves[(s >> 33) as usize % moves.len()]);
        }
        let result = game.record().result.unwrap();
        let colour = v
            .player_by_letter(result.winner.expect("a decisive game"))
            .unwrap();
        let seat = if swap { 1 - colour } else { colour };
        assert_eq!(result.winner_seat, Some(seat), "swap: {swap}");
        assert_eq!(game.seat_of(colour), seat);
    }
}

/// `variants/advanced.mg` with `extra` added to its catapult block.
fn advanced_with(extra: &str) -> Variant {
    let source = murus_engine::BUILTIN
        .iter()
        .find(|(n, _)| *n == "advanced")
        .unwrap()
        .1;
    let edited = source.replacen(
        "    range 2, 3\n",
        &format!("    range 2, 3\n    {extra}\n"),
        1,
    );
    assert_ne!(edited, source);
    Variant::compile(&edited)
        .unwrap_or_else(|d| panic!("{}", murus_dsl::render_all(&d, "advanced.mg", &edited)))
}

#[test]
fn the_catapults_landing_rules_default_to_advanced_and_can_be_changed() {
    let advanced = v("advanced");
    let explicit = advanced_with("on empty: wall\n    on enemy: remove 1");
    assert_eq!(explicit.rules().catapults, advanced.rules().catapults);
    let cat = &advanced.rules().catapults[0];
    assert!(cat.wall_on_empty);
    assert_eq!(cat.hit_removes, 1);

    // A hit that removes two stones: the Gauls' catapult on d7 becomes a
    // wall, not a tower, and with nothing left to act they lose.
    let two = advanced_with("on enemy: remove 2");
    let text = "3g34/8/8/3r34/8/8/8 r";
    let after_one = play(&advanced, &pos(&advanced, text), "d4*d7");
    assert_eq!(
        advanced.position_string(&after_one),
        "3g24/8/8/3r24/8/8/8 g"
    );
    assert_eq!(advanced.outcome(&after_one), None);
    let after_two = play(&two, &pos(&two, text), "d4*d7");
    assert_eq!(two.position_string(&after_two), "3g14/8/8/3r24/8/8/8 g");
    let o = two.outcome(&after_two).expect("the Gauls cannot act");
    assert_eq!((o.winner, o.reason), (Some(0), Reason::Stalemate));
    // A hit never removes more than the stack has.
    let wall = play(&two, &pos(&two, "3g13g2/8/8/3r34/8/8/8 r"), "d4*d7");
    assert_eq!(two.position_string(&wall), "7g2/8/8/3r24/8/8/8 g");
    // So the game tree changes too.
    let mid = "g2g2g2g2g2g2g2g2/2r25/8/3r34/8/8/r2r24r2r2 r";
    assert_ne!(
        advanced.perft(&pos(&advanced, mid), 3),
        two.perft(&pos(&two, mid), 3)
    );

    // A thrown stone that is lost on an empty cell places nothing, so it
    // cannot break through.
    let lost = advanced_with("on empty: lost");
    let p = pos(&lost, "g26g2/8/8/3r34/8/8/r27 r");
    let thrown = play(&lost, &p, "d4*d7");
    assert_eq!(lost.outcome(&thrown), None);
    assert_eq!(lost.position_string(&thrown), "g26g2/8/8/3r24/8/8/r27 g");
}

#[test]
fn landing_rules_are_checked() {
    let source = murus_engine::BUILTIN
        .iter()
        .find(|(n, _)| *n == "advanced")
        .unwrap()
        .1;
    for (extra, message) in [
        (
            "on enemy: remove 0",
            "a hit removes at least one enemy stone",
        ),
        (
            "on enemy: remove 4",
            "a hit cannot remove 4 stones: the stack limit is 3",
        ),
        (
            "on empty: wall\n on empty: lost",
            "duplicate `on empty` in `catapult`",
        ),
    ] {
        let edited = source.replacen(
            "    range 2, 3\n",
            &format!("    range 2, 3\n    {extra}\n"),
            1,
        );
        let diags = murus_dsl::compile(&edited).expect_err(extra);
        assert!(
            diags.iter().any(|d| d.message == message),
            "{extra}: {}",
            murus_dsl::render_all(&diags, "advanced.mg", &edited)
        );
    }
    // A landing rule for a landing `onto` does not allow is a warning.
    let edited = source
        .replacen(
            "    range 2, 3\n",
            "    range 2, 3\n    on empty: lost\n",
            1,
        )
        .replacen("onto empty, enemy 1", "onto enemy 1", 1);
    let compiled = murus_dsl::compile(&edited).expect("compiles");
    let warnings: Vec<&str> = compiled
        .warnings
        .iter()
        .map(|w| w.message.as_str())
        .collect();
    // With no throw onto an empty cell, Advanced's `by sow, throw` is dead too.
    assert_eq!(
        warnings,
        [
            "`on empty` has no effect",
            "no throw can ever break through"
        ]
    );
}

#[test]
fn stones_removed_says_what_each_sacrifice_and_throw_costs() {
    let v = v("advanced");
    let removed = |p: &Position, m: &str| {
        let mv = v.parse_move(p, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        let r = v.stones_removed(p, mv);
        (r.own, r.enemy)
    };
    // Gauls to move: tower d5 next to the Roman catapult d4.
    let p = pos(&v, "7g2/8/3g24/3r34/8/8/r27 g");
    assert_eq!(removed(&p, "d5xd4"), (1, 1), "lose 1 stone");
    assert_eq!(removed(&p, "d5xxd4"), (2, 2), "lose both");
    assert_eq!(removed(&p, "d5-f5"), (0, 0), "a sowing removes nothing");
    // Romans to move: catapult d3, a Gaul tower two cells ahead on d5.
    let p = pos(&v, "7g2/8/3g24/8/3r34/8/r27 r");
    assert_eq!(removed(&p, "d3*d5"), (1, 1), "a hit");
    assert_eq!(removed(&p, "d3*d6"), (0, 0), "onto an empty cell");
    assert_eq!(StonesRemoved::default(), StonesRemoved { own: 0, enemy: 0 });
}

#[test]
fn moves_name_their_cells_in_order() {
    let v = v("standard");
    let g = v.geometry();
    let names = |cells: Vec<usize>| cells.into_iter().map(|s| g.name(s)).collect::<Vec<_>>();
    let m = v.parse_move(&v.start(), "a1-c3").unwrap();
    assert!(matches!(m.action(), Action::Sow { .. }));
    assert_eq!(m.origin().map(|s| g.name(s)), Some("a1".to_string()));
    assert_eq!(names(m.targets().collect()), ["c3"]);
    assert_eq!(names(v.move_cells(m)), ["a1", "b2", "c3"]);
    let p = pos(&v, "8/8/8/3g14/2r25/8/8 r");
    let m = v.parse_move(&p, "c3xd4").unwrap();
    assert_eq!(names(v.move_cells(m)), ["c3", "d4"]);
    let pie = self::v("pie");
    let m = pie.parse_move(&pie.start(), "d1:g2,b2").unwrap();
    assert_eq!(names(pie.move_cells(m)), ["d1", "b2", "g2"]);
    let a = self::v("advanced");
    let p = pos(&a, "7g2/8/3g24/8/3r34/8/r27 r");
    let m = a.parse_move(&p, "d3*d5").unwrap();
    assert_eq!(
        names(a.move_cells(m)),
        ["d3", "d5"],
        "a throw flies over d4"
    );
}

#[test]
fn outcomes_read_as_sentences_with_the_players_names() {
    let v = v("standard");
    let say = |winner, reason| v.describe_outcome(Outcome { winner, reason });
    assert_eq!(
        say(Some(1), Reason::BreakthroughSow),
        "Gauls win by breakthrough"
    );
    assert_eq!(
        say(Some(0), Reason::BreakthroughThrow),
        "Romans win by breakthrough with a thrown stone"
    );
    assert_eq!(
        say(Some(0), Reason::BreakthroughDelayed),
        "Romans win by delayed breakthrough"
    );
    assert_eq!(say(Some(1), Reason::Stalemate), "Gauls win by stalemate");
    assert_eq!(say(None, Reason::Stalemate), "Draw by stalemate");
    assert_eq!(
        say(Some(0), Reason::Elimination),
        "Romans win by elimination"
    );
    assert_eq!(
        say(None, Reason::Repetition),
        "Draw by repetition (the same position 3 times)"
    );
    assert_eq!(say(None, Reason::PlyCap), "Draw by the ply cap (300 plies)");
    // The endings people give (the playtest server).
    assert_eq!(
        say(Some(1), Reason::Resignation),
        "Gauls win by resignation"
    );
    assert_eq!(say(None, Reason::Agreement), "Draw agreed");
    assert_eq!(say(Some(0), Reason::Time), "Romans win on time");
    let one_ply = murus_dsl::rules::DrawRules {
        repetition: None,
        ply_cap: Some(1),
    };
    let capped = Outcome {
        winner: None,
        reason: Reason::PlyCap,
    };
    assert_eq!(
        v.describe_outcome_under(capped, one_ply),
        "Draw by the ply cap (1 ply)"
    );
    // The drawing of a finished game says the same.
    let won = play(&v, &pos(&v, "7g2/8/r27/8/8/8/7r2 r"), "a5-a7");
    assert!(
        v.render(&won)
            .ends_with("Game over: Romans win by breakthrough\n"),
        "{}",
        v.render(&won)
    );
}

/// Capture by sowing (`onto enemy 1` with `on enemy: capture` or `remove
/// N`): a sown stone dropped on an enemy wall takes it and stays as an own
/// wall, or leaves the game with the wall; another enemy stack still blocks.
#[test]
fn a_sowing_onto_an_enemy_wall_captures_it_or_removes_it() {
    let standard = murus_engine::BUILTIN[0].1;
    let with = |landing: &str| {
        let text = standard.replace(
            "onto empty, own 1",
            &format!("onto empty, own 1, enemy 1{landing}"),
        );
        Variant::compile(&text).unwrap_or_else(|e| panic!("{e:?}"))
    };
    // Romans to move: a tower on d3, a Gaul wall on d4, a Gaul tower on f5.
    let start = "7g2/8/5g22/3g14/3r24/8/r27 r";
    let capture = with("");
    let p = pos(&capture, start);
    let all = moves(&capture, &p);
    assert!(all.contains(&"d3-d5".to_string()), "{all:?}");
    assert!(!all.contains(&"d3-f5".to_string()), "a tower still blocks");
    let mv = capture.parse_move(&p, "d3-d5").unwrap();
    assert!(capture.is_capture(&p, mv));
    let r = capture.stones_removed(&p, mv);
    assert_eq!((r.own, r.enemy), (0, 1));
    let after = play(&capture, &p, "d3-d5");
    assert_eq!(
        capture.stack(&after, capture.geometry().parse_cell("d4").unwrap()),
        Some((0, 1))
    );
    assert_eq!(
        capture.position_string(&after),
        "7g2/8/3r11g22/3r14/8/8/r27 g"
    );
    // `on enemy: remove 1`: the sown stone leaves with the wall.
    let remove = with(" on enemy: remove 1");
    let p = pos(&remove, start);
    let mv = remove.parse_move(&p, "d3-d5").unwrap();
    let r = remove.stones_removed(&p, mv);
    assert_eq!((r.own, r.enemy), (1, 1));
    let after = play(&remove, &p, "d3-d5");
    assert_eq!(remove.position_string(&after), "7g2/8/3r11g22/8/8/8/r27 g");
    // Without `enemy 1` the wall blocks, as in the published games.
    let standard = Variant::compile(standard).unwrap();
    assert!(!moves(&standard, &pos(&standard, start)).contains(&"d3-d5".to_string()));
}

/// `turns r then g g r r`: the Romans move once, then each side twice; a
/// position says where in the order it is (`turn:K`), reads back, and
/// repeats only at the same place in the order.
#[test]
fn a_turn_order_with_a_first_round_and_repeats() {
    let standard = murus_engine::BUILTIN[0].1;
    let text = standard.replace("stack limit 2", "turns r then g g r r\nstack limit 2");
    let v = Variant::compile(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut p = v.start();
    let mut turns = String::new();
    let mut strings = Vec::new();
    for _ in 0..7 {
        let who = v.turn(&p);
        turns.push(v.rules().players[who].letter);
        strings.push(v.position_string(&p));
        let m = v.legal_moves(&p)[0];
        p = v.play(&p, m);
    }
    assert_eq!(turns, "rggrrgg");
    // Each side's second turn in a row says so; the first turn needs no field.
    assert!(!strings[1].contains("turn:"), "{}", strings[1]);
    assert!(strings[2].ends_with(" g turn:3"), "{}", strings[2]);
    assert!(strings[4].ends_with(" r turn:5"), "{}", strings[4]);
    for s in &strings {
        assert_eq!(v.position_string(&pos(&v, s)), *s);
    }
    // The same board with the Gauls to move at their first or second turn
    // are two positions (two hashes).
    let board = strings[1].split(' ').next().unwrap();
    let first = pos(&v, &format!("{board} g"));
    let second = pos(&v, &format!("{board} g turn:3"));
    assert_ne!(v.hash(&first), v.hash(&second));
    assert_eq!(v.hash(&second), v.hash_from_scratch(&second));
    // A turn that is not the side to move's is refused.
    let e = v.parse_position(&format!("{board} g turn:4")).unwrap_err();
    assert!(
        e.message()
            .contains("turn 4 of the turn order is the Romans'"),
        "{e}"
    );
    // The plain order has no `turn:` field.
    let plain = Variant::compile(standard).unwrap();
    assert!(plain.parse_position(&format!("{board} g turn:2")).is_err());
}

/// `breakthrough immediate by sow height 2`: a wall sown onto the far rank
/// wins nothing; a stone sown onto an own wall there, making a tower, wins.
#[test]
fn a_breakthrough_by_height_needs_a_tall_enough_stack() {
    let standard = murus_engine::BUILTIN[0].1;
    let text = standard.replace(
        "breakthrough immediate by sow",
        "breakthrough immediate by sow height 2",
    );
    let v = Variant::compile(&text).unwrap_or_else(|e| panic!("{e:?}"));
    // A Roman wall already on c7 (a wall wins nothing, so it may stand
    // there), Roman towers on c5 and e5.
    let p = pos(&v, "2r15/8/2r21r23/7g2/8/8/8 r");
    let onto_wall = play(&v, &p, "c5-c7");
    assert_eq!(
        v.outcome(&onto_wall).map(|o| (o.winner, o.reason)),
        Some((Some(0), Reason::BreakthroughSow))
    );
    let onto_empty = play(&v, &p, "e5-e7");
    assert_eq!(v.outcome(&onto_empty), None, "a wall on e7 wins nothing");
    // The plain rule wins with the wall.
    let plain = Variant::compile(standard).unwrap();
    let p = pos(&plain, "8/8/4r23/7g2/8/8/8 r");
    assert!(plain.outcome(&play(&plain, &p, "e5-e7")).is_some());
}

/// Siege, whose sides have rules of their own: a Roman stack may grow to 3
/// (`stack limit 3 for r`), a Gaulish one not; only the Romans throw; a
/// Gaulish stone on the Romans' home wins nothing (the Gauls have no
/// breakthrough); the Romans lose when worn down to 6 stones.
#[test]
fn siege_sides_follow_rules_of_their_own() {
    let v = v("siege");
    let d = |cell: &str| v.geometry().parse_cell(cell).unwrap();
    let board = "g2g2g2g2g2g2g2g2/g11g2g11g1g11/3g24/8/2r31r23/3r2r23/r2r2r25";
    // The Romans sow onto their own tower, making a stack of 3.
    let romans = pos(&v, &format!("{board} r"));
    let after = play(&v, &romans, "d2-d4");
    assert_eq!(v.stack(&after, d("d3")), Some((0, 1)), "onto an empty cell");
    let after = play(&v, &romans, "e2-e4");
    assert_eq!(v.stack(&after, d("e3")), Some((0, 3)));
    // The Gauls may not: c7 sowing south would make c6 a stack of 3.
    let gauls = pos(&v, &format!("{board} g"));
    let theirs = moves(&v, &gauls);
    assert!(!theirs.contains(&"c7-c5".to_string()), "{theirs:?}");
    assert!(theirs.contains(&"c6-e6".to_string()), "{theirs:?}");
    // With one shared limit of 3, they could.
    let shared = Variant::compile(
        &v.source()
            .replace("stack limit 2\nstack limit 3 for r", "stack limit 3"),
    )
    .unwrap();
    assert!(moves(&shared, &pos(&shared, &format!("{board} g"))).contains(&"c7-c5".to_string()));
    // Only the Romans throw: the siege engine on c3 hits the Gaulish tower
    // on c6 (3 forward), which loses a stone; no Gaulish move is a throw.
    let after = play(&v, &romans, "c3*c6");
    assert_eq!(
        (v.stack(&after, d("c3")), v.stack(&after, d("c6"))),
        (Some((0, 2)), Some((1, 1)))
    );
    assert!(moves(&v, &romans).contains(&"c3*c5".to_string()));
    assert!(!theirs.iter().any(|m| m.contains('*')), "{theirs:?}");
    // A Gaulish tower sown onto the Romans' home wins nothing.
    let p = pos(&v, "g2g2g2g2g2g2g2g2/8/8/8/3g24/r2r2r25/r2r2r25 g");
    let after = play(&v, &p, "d3-d1");
    assert_eq!(v.stack(&after, d("d1")), Some((1, 1)));
    assert_eq!(v.outcome(&after), None);
    // The Romans lose when they start a turn with at most 6 stones.
    let p = pos(&v, "g2g2g2g2g2g2g2g2/8/8/3g24/3r14/2r2r24/r27 g");
    let after = play(&v, &p, "d4xd3");
    assert_eq!(
        v.outcome(&after).map(|o| (o.winner, o.reason)),
        Some((Some(1), Reason::Reduced))
    );
}

/// A game lost by reduction is described with what the loser was left
/// with, stones or towers, where the position is known; without it, the
/// most the rule leaves it ("at most": never a count the loser may not have).
#[test]
fn a_reduction_says_what_the_loser_is_down_to() {
    let siege = v("siege");
    let before = pos(&siege, "g2g2g2g2g2g2g2g2/8/8/3g24/3r14/8/r27 g");
    let after = play(&siege, &before, "d4xd3");
    let o = siege.outcome(&after).expect("the Romans are reduced");
    assert_eq!(
        siege.describe_outcome_at(o, &after),
        "Gauls win by reduction (the loser down to 2 stones)"
    );
    assert_eq!(
        siege.describe_outcome(o),
        "Gauls win by reduction (the loser down to at most 6 stones)"
    );
    assert!(
        siege
            .render(&after)
            .contains("(the loser down to 2 stones)"),
        "{}",
        siege.render(&after)
    );
    let towers = Variant::compile(
        &siege
            .source()
            .replace("reduced to 6 stones", "reduced to 2 towers"),
    )
    .unwrap();
    let after = play(
        &towers,
        &pos(&towers, "g2g2g2g2g2g2g2g2/8/8/3g24/3r14/8/r27 g"),
        "d4xd3",
    );
    let o = towers.outcome(&after).expect("the Romans are reduced");
    assert_eq!(
        towers.describe_outcome_at(o, &after),
        "Gauls win by reduction (the loser down to 1 tower)"
    );
}

/// `adjudicate by …`: a game that reaches the ply cap goes to the player
/// with the most stones (towers, stacks on the cells), a tie draws; `Game`,
/// the playout and the description agree.
#[test]
fn a_game_at_the_ply_cap_is_adjudicated_by_the_count() {
    let source = include_str!("../../../variants/standard.mg").replace(
        "plies 300",
        "plies 12 adjudicate by stacks on rank 3 + rank 4 + rank 5",
    );
    let v = Variant::compile(&source).unwrap_or_else(|e| panic!("{e:?}"));
    let mut seen = std::collections::BTreeSet::new();
    for seed in 1..60u64 {
        let g = random_game(&v, seed);
        let o = g.outcome().unwrap();
        if o.reason.as_str() == "breakthrough" {
            continue;
        }
        assert_eq!((o.reason, g.ply()), (Reason::Adjudication, 12));
        let middle = |p: usize| {
            v.geometry()
                .cells()
                .filter(|&c| (2..5).contains(&v.geometry().coords(c).1))
                .filter(|&c| v.stack(g.position(), c).is_some_and(|(q, _)| q == p))
                .count()
        };
        let winner = match middle(0).cmp(&middle(1)) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        assert_eq!(o.winner, winner, "seed {seed}");
        seen.insert(o.winner);
        let said = v.describe_outcome(o);
        let expected = match o.winner {
            Some(w) => format!(
                "{} win by adjudication (the most stacks on the counted cells after 12 plies)",
                v.player_name(w)
            ),
            None => {
                "Draw by adjudication (equal stacks on the counted cells after 12 plies)".into()
            }
        };
        assert_eq!(said, expected);
    }
    assert!(seen.len() >= 2, "{seen:?}");
}

/// `adjudicate for g`: a game that reaches the ply cap goes to the Gauls,
/// whatever the board holds (a siege whose defenders hold out).
#[test]
fn a_game_at_the_ply_cap_goes_to_the_player_it_names() {
    let source = include_str!("../../../variants/standard.mg")
        .replace("plies 300", "plies 12 adjudicate for g");
    let v = Variant::compile(&source).unwrap_or_else(|e| panic!("{e:?}"));
    let mut capped = 0;
    for seed in 1..40u64 {
        let g = random_game(&v, seed);
        let o = g.outcome().unwrap();
        if o.reason.as_str() == "breakthrough" {
            continue;
        }
        assert_eq!(
            (o.winner, o.reason, g.ply()),
            (Some(1), Reason::Adjudication, 12)
        );
        assert_eq!(
            v.describe_outcome(o),
            "Gauls win by adjudication (held out for 12 plies)"
        );
        assert_eq!(v.adjudication_count(g.position(), 1), Some(1));
        assert_eq!(v.adjudication_count(g.position(), 0), Some(0));
        capped += 1;
    }
    assert!(capped >= 10, "{capped}");
    // Elsewhere a game at the cap is drawn, and nothing is counted.
    let standard = Variant::builtin("standard").unwrap();
    assert_eq!(standard.adjudicated(&standard.start()), None);
    assert_eq!(standard.adjudication_count(&standard.start(), 0), None);
}

/// Attrition where taking three enemy stones wins (`capture 3 stones`).
fn capture_race() -> Variant {
    let source = include_str!("../../../variants/attrition.mg")
        .replace("reduced to 8 stones", "capture 3 stones");
    Variant::compile(&source).unwrap_or_else(|e| panic!("{e:?}"))
}

/// `capture N stones`: positions count the enemy stones each player has
/// taken (by a sacrifice here), the move that takes the last of them wins
/// at once, and position strings carry the counts.
#[test]
fn taking_the_last_of_n_stones_wins_at_once() {
    let v = capture_race();
    let start = pos(&v, "g27/8/3g14/3r24/8/8/8 r taken:r1");
    assert_eq!(v.taken(&start, 0), 1);
    // A tower takes a wall: two taken, the game goes on.
    let after = play(&v, &start, "d4xd5");
    assert_eq!((v.taken(&after, 0), v.taken(&after, 1)), (2, 0));
    assert_eq!(v.outcome(&after), None);
    assert_eq!(v.position_string(&after), "g27/8/8/3r14/8/8/8 g taken:r2");
    // The same sacrifice with two taken already wins.
    let won = play(&v, &pos(&v, "g27/8/3g14/3r24/8/8/8 r taken:r2"), "d4xd5");
    let o = v.outcome(&won).expect("the third stone wins");
    assert_eq!((o.winner, o.reason), (Some(0), Reason::Capture));
    assert_eq!(
        v.describe_outcome(o),
        "Romans win by capture (3 enemy stones taken)"
    );
    assert!(v.legal_moves(&won).is_empty());
    // The won position reads back as won.
    let text = v.position_string(&won);
    assert_eq!(text, "g27/8/8/3r14/8/8/8 g taken:r3");
    assert_eq!(v.parse_position(&text).map(|p| v.outcome(&p)), Ok(Some(o)));
    // A tower taking a tower takes both of its stones.
    let both = play(&v, &pos(&v, "g27/8/3g24/3r24/8/8/8 r taken:r1"), "d4xd5");
    assert_eq!(
        v.outcome(&both).map(|o| (o.winner, o.reason)),
        Some((Some(0), Reason::Capture))
    );
    // Without `capture`, nothing is counted.
    let plain = Variant::builtin("attrition").unwrap();
    let full = "g2g2g2g2g23/8/3g14/3r24/8/8/r2r2r2r2r23 r";
    let taken = play(&plain, &pos(&plain, full), "d4xd5");
    assert_eq!(plain.taken(&taken, 0), 0);
}

/// Position strings with stones taken: only where they are counted, no
/// more than are missing from the board, and a win only for the player
/// who moved last.
#[test]
fn stones_taken_in_position_strings_are_checked() {
    let v = capture_race();
    for (text, words) in [
        // 16 Gauls on the board: none missing.
        (
            "g2g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2 r taken:r1",
            "Romans have taken 1 enemy stone, but only 0 are missing",
        ),
        ("8/8/3g14/3r24/8/8/8 r taken:x1", "`x1` in `taken:x1`"),
        (
            "8/8/3g14/3r24/8/8/8 r taken:r",
            "a player letter (`r` or `g`)",
        ),
        ("8/8/3g14/3r24/8/8/8 r taken:r256", "0 to 255"),
        (
            "8/8/3g14/3r24/8/8/8 g taken:r3,g3",
            "the Romans and Gauls have each taken enough stones to win",
        ),
        (
            "8/8/3g14/3r24/8/8/8 r taken:r3",
            "the Romans have taken enough stones to win, so they won with the last move, but the last move was not theirs",
        ),
    ] {
        let e = v.parse_position(text).expect_err(text).to_string();
        assert!(
            e.contains(words),
            "`{text}`: `{e}` should mention `{words}`"
        );
    }
    let plain = Variant::builtin("attrition").unwrap();
    let e = plain
        .parse_position("g27/8/3g14/3r24/8/8/8 r taken:r1")
        .expect_err("attrition does not count")
        .to_string();
    assert!(e.contains("unknown field `taken:r1`"), "{e}");
}
