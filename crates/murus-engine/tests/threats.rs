//! `Engine::threatens_breakthrough` against brute force: playing each legal
//! move and looking for a new stone of the mover on its goal, counted by the
//! variant's breakthrough rule, in random games of every shipped variant.

use murus_engine::{BUILTIN, Bits, Engine, EngineTask, MoveKind, Phase, Pos, Variant, Word};

/// Whether the side to move of `pos` has a move that drops a stone on its
/// goal the way the breakthrough rule counts, by playing every move.
fn brute_force<B: Bits>(e: &Engine<B>, pos: &Pos<B>) -> bool {
    let p = pos.turn();
    let Some(rule) = e.rules().win(p).breakthrough else {
        return false;
    };
    let goal = e.goal(p) & e.board();
    let mut moves = e.move_list();
    e.legal_moves(pos, &mut moves);
    moves.iter().any(|&m| {
        let counts = match m.kind {
            MoveKind::Sow => rule.by_sow,
            MoveKind::Throw => rule.by_throw,
            _ => false,
        };
        let mut after = *pos;
        e.apply(&mut after, m);
        // A stack of `p` on its goal grew, and is as tall as the rule asks.
        let height = |q: &Pos<B>, s: usize| q.stack(s).filter(|st| st.0 == p).map_or(0, |st| st.1);
        // With `count K`, at least K stones of `p` there then, in such stacks.
        let stones: u32 = goal
            .iter()
            .map(|s| height(&after, s))
            .filter(|&h| h >= rule.min_height)
            .map(u32::from)
            .sum();
        counts
            && stones >= rule.count
            && goal
                .iter()
                .any(|s| height(&after, s) > height(pos, s) && height(&after, s) >= rule.min_height)
    })
}

/// How near `p`'s stacks of two or more stones stand to its goal.
fn advance<B: Bits>(e: &Engine<B>, pos: &Pos<B>, p: usize) -> usize {
    let tall = pos.stones_of(p) & !pos.with_height(1);
    let masks = e.goal_distance_masks(p);
    masks
        .iter()
        .enumerate()
        .map(|(k, m)| (tall & *m).count() as usize * (masks.len() - k))
        .sum()
}

/// Plays `games` games in which each move is, by turns, a random one and
/// the one that brings the mover's tall stacks nearest its goal (so that
/// threats arise, which uniformly random games rarely make), and checks
/// every live position of normal play. Returns (threats, positions).
struct Check {
    games: u64,
}

impl EngineTask for Check {
    type Output = (usize, usize);
    fn run<B: Word>(self, e: &Engine<B>) -> (usize, usize) {
        let mut threats = 0;
        let mut checked = 0;
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut moves = e.move_list();
        for _ in 0..self.games {
            let mut pos = e.start();
            for ply in 0..300 {
                if e.outcome(&pos).is_some() {
                    break;
                }
                if pos.phase() == Phase::Normal {
                    let fast = e.threatens_breakthrough(&pos, pos.turn());
                    assert_eq!(fast, brute_force(e, &pos));
                    threats += usize::from(fast);
                    checked += 1;
                }
                moves.clear();
                e.legal_moves(&pos, &mut moves);
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let p = pos.turn();
                let m = if ply % 2 == 0 {
                    moves[(state % moves.len() as u64) as usize]
                } else {
                    let start = (state % moves.len() as u64) as usize;
                    (0..moves.len())
                        .map(|i| moves[(start + i) % moves.len()])
                        .max_by_key(|&m| {
                            let mut after = pos;
                            e.apply(&mut after, m);
                            advance(e, &after, p)
                        })
                        .expect("a live position has moves")
                };
                e.apply(&mut pos, m);
            }
        }
        (threats, checked)
    }
}

#[test]
fn a_breakthrough_threat_is_a_move_that_drops_a_stone_on_the_goal() {
    for (name, _) in BUILTIN {
        let v = Variant::builtin(name).unwrap();
        let race = v.rules().wins().any(|w| w.breakthrough.is_some());
        let mut games = 40;
        let (mut threats, mut checked) = v.run(Check { games });
        // Where threats are rare (alesia's goal starts full of enemy
        // towers, and its Romans are often worn down first), more games.
        while race && threats == 0 && games < 320 {
            games *= 2;
            (threats, checked) = v.run(Check { games });
        }
        // The test sees both answers wherever a goal can be reached.
        if race {
            assert!(
                threats > 0 && threats < checked,
                "{name}: {threats} of {checked}"
            );
        } else {
            assert_eq!(threats, 0, "{name}");
        }
    }
}

/// The same where only a tower breaks through (`height 2`), or only two
/// stones at once (`count 2`), on the standard game and Advanced: the
/// search's threat check plays the moves.
#[test]
fn a_tall_breakthrough_threat_needs_a_tall_enough_stack() {
    for (name, clause) in [
        ("standard", "height 2"),
        ("advanced", "height 2"),
        ("standard", "count 2"),
    ] {
        let text = Variant::builtin(name)
            .unwrap()
            .source()
            .replace(
                "breakthrough immediate by sow",
                &format!("breakthrough immediate by sow {clause}"),
            )
            .replace(", throw", "");
        let v = Variant::compile(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let b = v.rules().win(0).breakthrough.unwrap();
        assert_eq!(b.min_height.max(b.count as u8), 2, "{name}");
        let (threats, checked) = v.run(Check { games: 40 });
        assert!(
            threats > 0 && threats < checked,
            "{name}: {threats} of {checked}"
        );
    }
}

/// The same where stacks also sow along a knight's leaps (`(1, 2)
/// mirrored`): a sowing there covers two ranks a stone, so threats come
/// from farther away; on the hex board a hex knight's twelve leaps, three
/// king steps each, or the leap between forward and forward-right, two king
/// steps though one file and one rank.
#[test]
fn a_breakthrough_threat_along_step_vectors() {
    for (name, steps, leaps) in [
        ("standard", "n, ne, e, se, s, sw, w, nw, (1, 2) mirrored", 8),
        ("advanced", "n, ne, e, se, s, sw, w, nw, (1, 2) mirrored", 8),
        ("hex", "ne, e, se, sw, w, nw, (1, 2) mirrored", 12),
        ("hex", "forward, forward-left, forward-right, (1, 1)", 2),
    ] {
        let source = Variant::builtin(name).unwrap().source().replacen(
            "directions all",
            &format!("directions {steps}"),
            1,
        );
        let v = Variant::compile(&source).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(v.rules().steps.len(), leaps, "{name}");
        let (threats, checked) = v.run(Check { games: 40 });
        assert!(
            threats > 0 && threats < checked,
            "{name}: {threats} of {checked}"
        );
    }
}
