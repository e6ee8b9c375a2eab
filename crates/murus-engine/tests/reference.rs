//! A slow, obviously-correct move generator written straight from the rules
//! (cell by cell, no bitboards), compared with the engine on positions from
//! random games of every shipped variant: every generated move is legal,
//! every legal move is generated, moves lead to the same positions, and the
//! incremental hash equals the hash computed from scratch.

use std::collections::{BTreeMap, BTreeSet};

use murus_dsl::rules::{
    Adjudication, DrawRules, Material, Opening, Rules, SowCapture, Stalemate, Timing,
};
use murus_engine::{
    BUILTIN, DrawTracker, MoveKind, Outcome, Phase, Position, Reason, Setup, Variant,
};
use proptest::prelude::*;

mod common;
use common::rulegen::rule_file;
use common::{board_cannot_tell, random_line};

type Board = BTreeMap<usize, (usize, u8)>;

fn board_of(v: &Variant, pos: &Position) -> Board {
    v.geometry()
        .cells()
        .filter_map(|s| v.stack(pos, s).map(|st| (s, st)))
        .collect()
}

/// Legal moves by the rules' text: `(notation, board after)`.
fn reference_moves(v: &Variant, pos: &Position) -> BTreeMap<String, Board> {
    let r: &Rules = v.rules();
    let g = v.geometry();
    // The board's directions, then the step vectors (`(1, 2)`).
    let dirs: Vec<murus_dsl::Direction> = (0..r.direction_count())
        .map(|d| r.direction(d).expect("a direction of the rules"))
        .collect();
    let board = board_of(v, pos);
    let p = v.turn(pos);
    let mut out = BTreeMap::new();
    if v.outcome(pos).is_some_and(|o| {
        o.reason.by().is_some() || o.winner.is_some() && v.legal_moves(pos).is_empty()
    }) {
        // Over: the engine must list nothing (checked by the caller).
    }
    let phase = v.phase(pos);
    if phase != Phase::Normal {
        let Opening::Pie { from, to } = &r.opening else {
            panic!("pie phase without pie")
        };
        let side = p.min(1);
        for &t in &from[side] {
            if board.get(&t) != Some(&(p, 2)) {
                continue;
            }
            let empty: Vec<usize> = to[side]
                .iter()
                .copied()
                .filter(|c| !board.contains_key(c))
                .collect();
            for (i, &a) in empty.iter().enumerate() {
                for &b in &empty[i + 1..] {
                    let mut nb = board.clone();
                    nb.remove(&t);
                    nb.insert(a, (p, 1));
                    nb.insert(b, (p, 1));
                    out.insert(format!("{}:{},{}", g.name(t), g.name(a), g.name(b)), nb);
                }
            }
        }
        if phase == Phase::PieReply {
            out.insert("swap".to_string(), board.clone());
        }
        return out;
    }
    for (&s, &(owner, h)) in &board {
        if owner != p {
            continue;
        }
        // The sowing rules that give `p` directions: its own.
        for sow in r.sow.iter().filter(|s| !s.directions[p].is_empty()) {
            if sow.heights.contains(&h) {
                for &d in &sow.directions[p] {
                    let mut nb = board.clone();
                    nb.remove(&s);
                    let mut ok = true;
                    let mut last = s;
                    for k in 1..=i32::from(h) {
                        let Some(t) = g.step(s, dirs[d], k) else {
                            ok = false;
                            break;
                        };
                        match board.get(&t) {
                            None if sow.onto_empty => {
                                nb.insert(t, (p, 1));
                            }
                            Some(&(o, th))
                                if o == p
                                    && sow.onto_own.contains(&th)
                                    && th < r.players[p].stack_limit =>
                            {
                                nb.insert(t, (p, th + 1));
                            }
                            // Onto an enemy stack: captured (the stone stays
                            // as a wall), or the stone and N of its stones
                            // leave the game.
                            Some(&(o, th)) if o != p && sow.onto_enemy.contains(&th) => {
                                match sow.on_enemy {
                                    SowCapture::Capture => {
                                        nb.insert(t, (p, 1));
                                    }
                                    SowCapture::Remove(n) if n >= th => {
                                        nb.remove(&t);
                                    }
                                    SowCapture::Remove(n) => {
                                        nb.insert(t, (o, th - n));
                                    }
                                }
                            }
                            _ => ok = false,
                        }
                        last = t;
                    }
                    if ok {
                        out.insert(format!("{}-{}", g.name(s), g.name(last)), nb);
                    }
                }
            }
        }
        for sac in &r.sacrifices {
            if sac.attacker != h {
                continue;
            }
            for &d in &sac.directions[p] {
                let Some(t) = g.step(s, dirs[d], 1) else {
                    continue;
                };
                let Some(&(o, th)) = board.get(&t) else {
                    continue;
                };
                if o == p || th != sac.target {
                    continue;
                }
                let mut nb = board.clone();
                set(&mut nb, s, p, h - sac.lose);
                set(&mut nb, t, o, th - sac.remove);
                out.insert(
                    format!(
                        "{}{}{}",
                        g.name(s),
                        "x".repeat(sac.lose as usize),
                        g.name(t)
                    ),
                    nb,
                );
            }
        }
        for cat in &r.catapults {
            if cat.height == h {
                for &d in &cat.directions[p] {
                    for &range in &cat.ranges {
                        let Some(t) = g.step(s, dirs[d], i32::from(range)) else {
                            continue;
                        };
                        let mut nb = board.clone();
                        set(&mut nb, s, p, h - 1);
                        match board.get(&t) {
                            // The thrown stone stays as a wall, or is lost.
                            None if cat.onto_empty && cat.wall_on_empty => set(&mut nb, t, p, 1),
                            None if cat.onto_empty => {}
                            // A hit removes the thrown stone and up to
                            // `hit_removes` stones of the enemy stack.
                            Some(&(o, th)) if o != p && cat.onto_enemy.contains(&th) => {
                                set(&mut nb, t, o, th.saturating_sub(cat.hit_removes));
                            }
                            _ => continue,
                        }
                        // The compiler refuses two catapults that make the
                        // same throw: each throw is made by one rule.
                        let made = out.insert(format!("{}*{}", g.name(s), g.name(t)), nb);
                        assert!(made.is_none(), "two catapults throw {}", g.name(s));
                    }
                }
            }
        }
    }
    out
}

fn set(b: &mut Board, s: usize, p: usize, h: u8) {
    if h == 0 {
        b.remove(&s);
    } else {
        b.insert(s, (p, h));
    }
}

/// Whether the game at `next` is over by a breakthrough the rules' text
/// names, after a move of `kind` (an immediate breakthrough counts only the
/// arrivals its `by` names).
fn reference_breakthrough(
    v: &Variant,
    (before, after): (&Board, &Board),
    (kind, mover, captured): (MoveKind, usize, bool),
    next: &Position,
) -> bool {
    let r = v.rules();
    let goal_of = |p: usize| -> BTreeSet<usize> {
        r.players
            .iter()
            .enumerate()
            .filter(|(q, _)| *q != p)
            .flat_map(|(_, pl)| pl.home.iter().copied())
            .collect()
    };
    // With `count K`: at least K stones of the player on opponents' homes,
    // in stacks of at least the rule's height.
    let stones_on_goal = |p: usize, low: u8| -> u32 {
        let goal = goal_of(p);
        after
            .iter()
            .filter(|&(c, &(q, h))| q == p && h >= low && goal.contains(c))
            .map(|(_, &(_, h))| u32::from(h))
            .sum()
    };
    // The mover's breakthrough, if immediate: a stone of the mover arrived
    // on a goal cell this turn, by a way its `by` names (a sowing adds one;
    // a throw onto an empty cell adds one); with `height H`, only a stack
    // that tall breaks through.
    let immediate = r.win(mover).breakthrough.is_some_and(|b| {
        let counts = match kind {
            MoveKind::Sow => b.by_sow,
            MoveKind::Throw => b.by_throw,
            _ => true,
        };
        b.timing == Timing::Immediate
            && counts
            && goal_of(mover).iter().any(|c| {
                let had = before
                    .get(c)
                    .filter(|st| st.0 == mover)
                    .map_or(0, |st| st.1);
                let has = after.get(c).filter(|st| st.0 == mover).map_or(0, |st| st.1);
                has > had && has >= b.min_height
            })
            && stones_on_goal(mover, b.min_height) >= b.count
    });
    // The next player's breakthrough, if delayed: a stack of its own, tall
    // enough, on a goal cell at the start of its turn. With more than two
    // players, the last one left wins by elimination before its turn's
    // breakthrough is looked at; a move that won by capture ended the game
    // before that turn.
    let p = v.turn(next);
    let n = r.players.len();
    let last_left = n > 2 && (0..n).filter(|&q| !v.is_out(next, q)).count() <= 1;
    let delayed = !last_left
        && !captured
        && r.win(p).breakthrough.is_some_and(|b| {
            let goal_p = goal_of(p);
            b.timing == Timing::Delayed
                && after
                    .iter()
                    .any(|(c, st)| st.0 == p && goal_p.contains(c) && st.1 >= b.min_height)
                && stones_on_goal(p, b.min_height) >= b.count
        });
    immediate || delayed
}

/// The step of the turn order after step `k`: the next in the list of
/// turns (the first round, then the cycle), back to the cycle's start after
/// its end.
fn reference_next_step(v: &Variant, k: usize) -> usize {
    match &v.rules().turn_order {
        None => (k + 1) % v.rules().players.len(),
        Some(t) if k + 1 < t.first.len() + t.cycle.len() => k + 1,
        Some(t) => t.first.len(),
    }
}

/// What the start of player `p`'s turn decides by occupation or reduction
/// (two players), by the rules' text: holding `count` cells of the set wins;
/// then having at most the reduction's stones or towers (stacks of two or
/// more) loses.
fn reference_turn_start(v: &Variant, board: &Board, p: usize) -> Option<(Option<usize>, Reason)> {
    let win = v.rules().win(p);
    if let Some(o) = &win.occupation {
        let held = o
            .cells
            .iter()
            .filter(|c| board.get(c).is_some_and(|&(q, _)| q == p))
            .count();
        if held >= o.count as usize {
            return Some((Some(p), Reason::Occupation));
        }
    }
    if let Some(r) = win.reduced {
        let mine = board.values().filter(|&&(q, _)| q == p);
        let has: u32 = match r.material {
            Material::Stones => mine.map(|&(_, h)| u32::from(h)).sum(),
            Material::Towers => mine.filter(|&&(_, h)| h >= 2).count() as u32,
        };
        if has <= r.at_most {
            return Some((Some(1 - p), Reason::Reduced));
        }
    }
    None
}

/// Whether the move of `mover` from `pos` (boards `before` and `after`)
/// wins by `capture N stones`: it took enemy stones, and with them the
/// mover has taken its `N`.
fn reference_captures(
    v: &Variant,
    pos: &Position,
    (before, after): (&Board, &Board),
    mover: usize,
) -> bool {
    let removed: u32 = (0..v.rules().players.len())
        .filter(|&q| q != mover)
        .map(|q| stones_of(before, q) - stones_of(after, q))
        .sum();
    let taken = (v.taken(pos, mover) + removed).min(255);
    removed > 0 && v.rules().win(mover).capture.is_some_and(|n| taken >= n)
}

/// Stones player `p` has on `board`.
fn stones_of(board: &Board, p: usize) -> u32 {
    (board.values())
        .filter(|&&(q, _)| q == p)
        .map(|&(_, h)| u32::from(h))
        .sum()
}

/// How a game that reaches the ply cap at `pos` ends: a draw without
/// `adjudicate`; with it, a win for the one player still in the game with
/// the most stones, towers or stacks on the cells, a draw on a tie.
fn reference_adjudication(v: &Variant, pos: &Position) -> Outcome {
    let Some(how) = &v.rules().adjudicate else {
        return Outcome {
            winner: None,
            reason: Reason::PlyCap,
        };
    };
    let board = board_of(v, pos);
    let count = |p: usize| -> u32 {
        board
            .iter()
            .filter(|&(_, &(owner, _))| owner == p)
            .map(|(cell, &(_, h))| match how {
                Adjudication::Material(Material::Stones) => u32::from(h),
                Adjudication::Material(Material::Towers) => u32::from(h >= 2),
                Adjudication::Stacks(cells) => u32::from(cells.contains(cell)),
                Adjudication::Player(_) => 0,
            })
            .sum::<u32>()
            // The named player counts 1 whatever the board holds.
            + u32::from(matches!(how, Adjudication::Player(q) if *q == p))
    };
    let counts: Vec<(usize, u32)> = (0..v.rules().players.len())
        .filter(|&p| !v.is_out(pos, p))
        .map(|p| (p, count(p)))
        .collect();
    let most = counts.iter().map(|c| c.1).max().unwrap_or(0);
    let leaders: Vec<usize> = counts.iter().filter(|c| c.1 == most).map(|c| c.0).collect();
    Outcome {
        winner: (leaders.len() == 1).then(|| leaders[0]),
        reason: Reason::Adjudication,
    }
}

fn check_position(v: &Variant, pos: &Position) -> Result<(), TestCaseError> {
    prop_assert_eq!(v.hash(pos), v.hash_from_scratch(pos), "incremental hash");
    let fast: BTreeSet<String> = v
        .legal_moves(pos)
        .iter()
        .map(|&m| v.move_to_string(m))
        .collect();
    prop_assert_eq!(fast.len(), v.legal_moves(pos).len(), "duplicate moves");
    if v.outcome(pos)
        .is_some_and(|o| o.winner.is_some() && !v.legal_moves(pos).is_empty())
    {
        prop_assert!(false, "a finished game lists moves");
    }
    // A player with no move in normal play (two players): its own
    // `stalemate` rule says whether it loses or the game is drawn.
    if fast.is_empty() && v.rules().players.len() == 2 && v.phase(pos) == Phase::Normal {
        if let Some(o) = v.outcome(pos).filter(|o| o.reason == Reason::Stalemate) {
            let p = v.turn(pos);
            let winner = match v.rules().win(p).stalemate {
                Stalemate::Draws => None,
                Stalemate::Loses => Some(1 - p),
            };
            prop_assert_eq!(o.winner, winner, "stalemate at {}", v.position_string(pos));
        }
    }
    // A game that reaches the ply cap here: a draw, or the adjudication's
    // result.
    if v.outcome(pos).is_none() && !fast.is_empty() {
        let capped = DrawRules {
            repetition: None,
            ply_cap: Some(0),
        };
        let line = DrawTracker::new(capped, v.hash(pos));
        prop_assert_eq!(
            v.end_of_game(pos, &line),
            Some(reference_adjudication(v, pos)),
            "at the ply cap at {}",
            v.position_string(pos)
        );
        // A repetition draws, adjudication or not.
        let repeated = DrawRules {
            repetition: Some(2),
            ply_cap: None,
        };
        let mut line = DrawTracker::new(repeated, v.hash(pos));
        line.push(v.hash(pos), false);
        let draw = Outcome {
            winner: None,
            reason: Reason::Repetition,
        };
        prop_assert_eq!(v.end_of_game(pos, &line), Some(draw));
    }
    let finished = v.outcome(pos).is_some();
    let reference = if finished && fast.is_empty() {
        // A stalemate: the reference has no move either.
        if v.outcome(pos)
            .is_some_and(|o| o.reason == Reason::Stalemate)
        {
            let moves = reference_moves(v, pos);
            prop_assert!(
                moves.is_empty(),
                "stalemate at {} with moves {:?}",
                v.position_string(pos),
                moves.keys().collect::<Vec<_>>()
            );
        }
        BTreeMap::new()
    } else {
        reference_moves(v, pos)
    };
    let slow: BTreeSet<String> = reference.keys().cloned().collect();
    prop_assert_eq!(
        &fast,
        &slow,
        "move sets differ at {}",
        v.position_string(pos)
    );
    prop_assert_eq!(v.perft(pos, 1) as usize, fast.len(), "bulk count");
    let before = board_of(v, pos);
    for m in v.legal_moves(pos) {
        let next = v.play(pos, m);
        let name = v.move_to_string(m);
        prop_assert_eq!(
            &board_of(v, &next),
            &reference[&name],
            "board after {}",
            name
        );
        prop_assert_eq!(
            v.hash(&next),
            v.hash_from_scratch(&next),
            "hash after {}",
            name
        );
        let mover = v.turn(pos);
        // Stones taken: the enemy stones the move took off the board, where
        // the rules count them; reaching the mover's `capture` wins.
        let after = board_of(v, &next);
        let removed: u32 = (0..v.rules().players.len())
            .filter(|&q| q != mover)
            .map(|q| stones_of(&before, q) - stones_of(&after, q))
            .sum();
        let captured = reference_captures(v, pos, (&before, &after), mover);
        for q in 0..v.rules().players.len() {
            let expected = match (v.counts_taken(), q == mover) {
                (false, _) => 0,
                (true, true) => (v.taken(pos, q) + removed).min(255),
                (true, false) => v.taken(pos, q),
            };
            prop_assert_eq!(
                v.taken(&next, q),
                expected,
                "stones taken by {} after {}",
                q,
                name
            );
        }
        let capture_ended = v
            .outcome(&next)
            .is_some_and(|o| o.reason == Reason::Capture);
        if captured {
            let o = v.outcome(&next);
            prop_assert!(
                o.is_some_and(|o| o.winner == Some(mover)
                    && (o.reason == Reason::Capture || o.reason.by().is_some())),
                "capture by {} from {}: {:?}",
                name,
                v.position_string(pos),
                o
            );
        } else {
            prop_assert!(!capture_ended, "no capture win by {}", name);
        }
        let over_by_breakthrough = v.outcome(&next).is_some_and(|o| o.reason.by().is_some());
        prop_assert_eq!(
            over_by_breakthrough,
            reference_breakthrough(
                v,
                (&before, &board_of(v, &next)),
                (m.kind, mover, captured),
                &next
            ),
            "breakthrough after {} from {}",
            name,
            v.position_string(pos)
        );
        // The turn order: the next step, from the rules' list of turns.
        if v.phase(&next) == Phase::Normal
            && v.phase(pos) == Phase::Normal
            && v.outcome(&next).is_none()
            && (0..v.rules().players.len()).all(|q| !v.is_out(&next, q))
        {
            // A position keeps its step where it is not the side to move's
            // first turn in the order, which is the step numbered as it.
            let step_of = |p: &Position| Setup::from(p).step().unwrap_or(v.turn(p));
            let step = reference_next_step(v, step_of(pos));
            let steps = match &v.rules().turn_order {
                Some(t) => t.steps(),
                None => (0..v.rules().players.len()).collect(),
            };
            prop_assert_eq!(
                (v.turn(&next), step_of(&next)),
                (steps[step], step),
                "turn after {}",
                name
            );
        }
        // Occupation and reduction, at the start of the next turn.
        if !over_by_breakthrough && !captured && v.rules().players.len() == 2 {
            let got = v
                .outcome(&next)
                .filter(|o| matches!(o.reason, Reason::Occupation | Reason::Reduced))
                .map(|o| (o.winner, o.reason));
            prop_assert_eq!(
                got,
                reference_turn_start(v, &board_of(v, &next), v.turn(&next)),
                "start of the turn after {} from {}",
                name,
                v.position_string(pos)
            );
        }
        // Position strings round-trip.
        let text = v.position_string(&next);
        let back = v
            .parse_position(&text)
            .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        if back != next {
            prop_assert!(
                board_cannot_tell(v, &next, &back),
                "{} reads back as {}",
                text,
                v.position_string(&back)
            );
            continue;
        }
        prop_assert_eq!(v.position_string(&back), text.clone());
        prop_assert_eq!(board_of(v, &back), board_of(v, &next));
        prop_assert_eq!(v.hash(&back), v.hash(&next), "hash of reparsed {}", text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(48), ..ProptestConfig::default() })]

    #[test]
    fn generated_moves_match_the_reference_in_random_games(variant in 0..BUILTIN.len(), seed in any::<u64>(), plies in 0usize..80) {
        let v = Variant::compile(BUILTIN[variant].1).expect("shipped variant compiles");
        for pos in random_line(&v, seed, plies) {
            check_position(&v, &pos)?;
        }
    }

    #[test]
    fn generated_moves_match_the_reference_in_random_games_of_generated_rules(rules in any::<u64>(), seed in any::<u64>(), plies in 0usize..120) {
        let text = rule_file(rules);
        let v = Variant::compile(&text)
            .map_err(|d| TestCaseError::fail(format!("{text}\n{}", murus_dsl::render_all(&d, "generated.mg", &text))))?;
        for pos in random_line(&v, seed, plies) {
            check_position(&v, &pos).map_err(|e| TestCaseError::fail(format!("{text}\n{e}")))?;
        }
    }
}

/// Perft by the reference generator: at every node the engine's moves must
/// be the reference's, and lead to the reference's boards; leaves are
/// counted from the reference's move lists, and a breakthrough (as the
/// reference judges it) ends the game.
fn reference_perft(v: &Variant, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let engine: Vec<_> = v.legal_moves(pos);
    if v.outcome(pos).is_some() && engine.is_empty() {
        return 0;
    }
    let reference = reference_moves(v, pos);
    let names: BTreeSet<String> = engine.iter().map(|&m| v.move_to_string(m)).collect();
    let slow: BTreeSet<String> = reference.keys().cloned().collect();
    assert_eq!(
        names,
        slow,
        "move sets differ at {}",
        v.position_string(pos)
    );
    if depth == 1 {
        return reference.len() as u64;
    }
    let before = board_of(v, pos);
    let mover = v.turn(pos);
    let mut total = 0;
    for m in engine {
        let next = v.play(pos, m);
        let name = v.move_to_string(m);
        let after = board_of(v, &next);
        assert_eq!(after, reference[&name], "board after {name}");
        let captured = reference_captures(v, pos, (&before, &after), mover);
        if !reference_breakthrough(v, (&before, &after), (m.kind, mover, captured), &next) {
            total += reference_perft(v, &next, depth - 1);
        }
    }
    total
}

/// The counts of `tests/perft/*.perft`, as far as the slow reference can
/// afford (depth 3 at most, 20 000 leaves at most).
#[test]
fn perft_data_files_agree_with_the_reference_generator() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/perft");
    let mut checked = 0;
    for (name, source) in BUILTIN {
        let v = Variant::compile(source).expect("shipped variant compiles");
        let text = std::fs::read_to_string(dir.join(format!("{name}.perft"))).unwrap();
        let mut pos = None;
        for line in text.lines().map(str::trim) {
            if let Some(p) = line.strip_prefix("position ") {
                pos = Some(if p == "start" {
                    v.start()
                } else {
                    v.parse_position(p).unwrap()
                });
            } else if let Some(rest) = line.strip_prefix("perft ") {
                let mut it = rest.split_whitespace().map(|n| n.parse::<u64>().unwrap());
                let (depth, nodes) = (it.next().unwrap() as u32, it.next().unwrap());
                if depth > 3 || nodes > 20_000 {
                    continue;
                }
                let pos = pos.as_ref().expect("perft after position");
                assert_eq!(
                    reference_perft(&v, pos, depth),
                    nodes,
                    "{name}.perft: perft {depth} of {}",
                    v.position_string(pos)
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 60, "only {checked} counts checked");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(48), ..ProptestConfig::default() })]

    /// The dead-rule warnings rest on `Rules::reachable_heights`: no stack
    /// of a height it leaves out ever stands on the board in play.
    #[test]
    fn no_stack_reaches_a_height_the_compiler_calls_unreachable(rules in any::<u64>(), seed in any::<u64>(), plies in 0usize..160) {
        let text = rule_file(rules);
        let v = Variant::compile(&text).map_err(|_| TestCaseError::fail(text.clone()))?;
        let reach = v.rules().reachable_heights();
        for pos in random_line(&v, seed, plies) {
            for (cell, (_, h)) in board_of(&v, &pos) {
                prop_assert!(reach[usize::from(h)], "{text}\na stack of {h} on {cell}, said unreachable");
            }
        }
    }
}

/// Some generated rules have heights the compiler finds unreachable (else
/// the property above would test nothing): a stack limit of 4 without
/// `onto own 3`, for one.
#[test]
fn generated_rules_include_unreachable_heights() {
    let unreachable = (0..200u64)
        .filter(|&seed| {
            let v = Variant::compile(&rule_file(seed)).expect("generated rules compile");
            v.rules().reachable_heights().iter().skip(1).any(|&r| !r)
        })
        .count();
    assert!(unreachable >= 10, "{unreachable}");
}

/// The generated rules that the property test above draws from include
/// variants with two catapults (of one height, or of two), and they compile:
/// otherwise the several-catapult moves would go untested.
#[test]
fn generated_rules_include_several_catapults() {
    let (mut same, mut other) = (0, 0);
    for seed in 0..400u64 {
        let text = rule_file(seed);
        let Ok(v) = Variant::compile(&text) else {
            panic!("generated rules do not compile:\n{text}");
        };
        if let [a, b] = v.rules().catapults.as_slice() {
            if a.height == b.height {
                same += 1;
            } else {
                other += 1;
            }
        }
    }
    assert!(same >= 10 && other >= 5, "{same} and {other}");
}

/// The generated rules include each kind of rule of a player's own, and
/// they compile: otherwise the property test above would not compare them.
#[test]
fn generated_rules_include_rules_of_a_players_own() {
    let mut seen = [0; 5];
    for seed in 0..400u64 {
        let text = rule_file(seed);
        let Ok(v) = Variant::compile(&text) else {
            panic!("generated rules do not compile:\n{text}");
        };
        let r = v.rules();
        let theirs = |dirs: &[Vec<usize>], p: usize| !dirs[p].is_empty();
        let kinds = [
            r.players[0].stack_limit != r.players[1].stack_limit,
            r.sow.len() > 1,
            r.sacrifices
                .iter()
                .any(|s| theirs(&s.directions, 0) != theirs(&s.directions, 1))
                || (!r.sacrifices.is_empty() && text.contains("sacrifice for g { }")),
            r.catapults
                .iter()
                .any(|c| theirs(&c.directions, 0) != theirs(&c.directions, 1)),
            r.win(0) != r.win(1),
        ];
        for (n, k) in seen.iter_mut().zip(kinds) {
            *n += u32::from(k);
        }
    }
    assert!(seen.iter().all(|&n| n >= 10), "{seen:?}");
}

/// Some generated rules break through only with several stones at once
/// (`count K`), with and without `height`.
#[test]
fn generated_rules_include_breakthroughs_by_count() {
    let counted = (0..400u64)
        .filter(|&seed| {
            let v = Variant::compile(&rule_file(seed)).expect("generated rules compile");
            v.rules()
                .wins()
                .any(|w| w.breakthrough.is_some_and(|b| b.count > 1))
        })
        .count();
    assert!(counted >= 20, "{counted}");
}

#[test]
fn generated_rules_include_adjudication() {
    let texts: Vec<String> = (0..400).map(rule_file).collect();
    for how in ["by stones", "by towers", "by stacks on rank", "for g"] {
        assert!(
            texts
                .iter()
                .any(|t| t.contains(&format!("adjudicate {how}"))),
            "no generated file adjudicates {how}"
        );
    }
}

/// Some generated rules win by taking stones, and some of those games end
/// so.
#[test]
fn generated_rules_include_captures_that_win() {
    let (mut with, mut won) = (0, 0);
    for seed in 0..400u64 {
        let v = Variant::compile(&rule_file(seed)).expect("generated rules compile");
        if !v.counts_taken() {
            continue;
        }
        with += 1;
        let line = random_line(&v, seed, 120);
        let last = line.last().expect("a line has its start");
        won += usize::from(v.outcome(last).is_some_and(|o| o.reason == Reason::Capture));
    }
    assert!(
        with >= 40 && won >= 10,
        "{with} files, {won} games won by capture"
    );
}

/// Some generated rules move along step vectors: sowings, throws and
/// sacrifices.
#[test]
fn generated_rules_include_step_vectors() {
    let (mut sow, mut throw, mut sacrifice) = (0, 0, 0);
    // Files with steps whose lists all have at most 8 directions, and files
    // with a longer list: the engine reads the two from different tables.
    let (mut short, mut long) = (0, 0);
    // Files of hex boards with steps.
    let mut hex = 0;
    for seed in 0..400u64 {
        let v = Variant::compile(&rule_file(seed)).expect("generated rules compile");
        let n = v.geometry().directions().len();
        let steps = |dirs: &Vec<Vec<usize>>| dirs.iter().flatten().any(|&d| d >= n);
        let r = v.rules();
        sow += usize::from(r.sow.iter().any(|s| steps(&s.directions)));
        throw += usize::from(r.catapults.iter().any(|c| steps(&c.directions)));
        sacrifice += usize::from(r.sacrifices.iter().any(|s| steps(&s.directions)));
        let lists: Vec<_> = (r.sow.iter().map(|s| &s.directions))
            .chain(r.catapults.iter().map(|c| &c.directions))
            .chain(r.sacrifices.iter().map(|s| &s.directions))
            .collect();
        let longest = lists.iter().copied().flatten().map(Vec::len).max();
        let longest = longest.unwrap_or(0);
        short += usize::from(lists.iter().any(|l| steps(l)) && longest <= 8);
        let on_hex = v.geometry().kind() == murus_dsl::geometry::ShapeKind::Hex;
        hex += usize::from(on_hex && lists.iter().any(|l| steps(l)));
        long += usize::from(longest > 8);
    }
    assert!(
        sow >= 30 && throw >= 10 && sacrifice >= 10,
        "{sow} {throw} {sacrifice}"
    );
    assert!(
        short >= 5 && long >= 10 && hex >= 10,
        "{short} {long} {hex}"
    );
}
