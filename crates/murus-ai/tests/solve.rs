//! `proof::solve` against a plain exhaustive search written here: every
//! position reachable from the start, then the winners found by sweeping
//! until nothing changes (a position is won for a player when it is a
//! finished game that player won, or that player is to move and some move
//! reaches a won position, or the other is to move and every move does).
//! What neither side can force is a draw.

mod proofcheck;

use std::collections::{HashMap, HashSet};

use murus_ai::proof::{Limits, Line, Proof, Solver, Value, solve, solve_line};
use murus_engine::{Game, Position, Variant};
use proptest::prelude::*;

/// A shipped rule set cut down to `files` × `ranks`: the second player's
/// home moves to the last rank.
pub fn cut(name: &str, files: u32, ranks: u32) -> Variant {
    let source = Variant::builtin(name)
        .expect("a shipped variant")
        .source()
        .to_string();
    let board = source
        .lines()
        .find(|l| l.starts_with("board rect "))
        .expect("a rectangular board");
    let far = board.rsplit(' ').next().unwrap();
    let text = source
        .replace(board, &format!("board rect {files} x {ranks}"))
        .replace(&format!("rank {far}"), &format!("rank {ranks}"));
    Variant::compile(&text).unwrap_or_else(|d| panic!("{name} {files}x{ranks}: {d:?}"))
}

/// The value of the start by exhaustive search, and the number of positions
/// reachable from it; `None` when there are more than `most`.
fn exhaustive(v: &Variant, most: usize) -> Option<(Value, usize)> {
    let start = v.start();
    let mut index: HashMap<Position, usize> = HashMap::from([(start, 0)]);
    let mut positions = vec![start];
    let mut children: Vec<Vec<usize>> = Vec::new();
    let mut i = 0;
    while i < positions.len() {
        if positions.len() > most {
            return None;
        }
        let pos = positions[i];
        let mut list = Vec::new();
        if v.outcome(&pos).is_none() {
            for m in v.legal_moves(&pos) {
                let next = v.play(&pos, m);
                let n = index.len();
                let j = *index.entry(next).or_insert(n);
                if j == n {
                    positions.push(next);
                }
                list.push(j);
            }
        }
        children.push(list);
        i += 1;
    }
    let mut won = [vec![false; positions.len()], vec![false; positions.len()]];
    for (player, won) in won.iter_mut().enumerate() {
        for (k, pos) in positions.iter().enumerate() {
            won[k] = v.outcome(pos).is_some_and(|o| o.winner == Some(player));
        }
        loop {
            let mut changed = false;
            for k in 0..positions.len() {
                if won[k] || children[k].is_empty() {
                    continue;
                }
                let now = if v.turn(&positions[k]) == player {
                    children[k].iter().any(|&c| won[c])
                } else {
                    children[k].iter().all(|&c| won[c])
                };
                if now {
                    won[k] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
    let value = if won[0][0] {
        Value::Win(0)
    } else if won[1][0] {
        Value::Win(1)
    } else {
        Value::Draw
    };
    Some((value, positions.len()))
}

/// A small table: these boards need little.
const SMALL: Limits = Limits {
    nodes: u64::MAX,
    table_mib: 16,
};

fn check(name: &str, files: u32, ranks: u32) {
    let v = cut(name, files, ranks);
    let (truth, count) = exhaustive(&v, usize::MAX).expect("no limit");
    let t = std::time::Instant::now();
    let solution = solve(&v, &v.start(), SMALL, &()).unwrap();
    eprintln!(
        "{name} {files}x{ranks}: {count} positions, {truth:?}; df-pn {:?} in {} nodes, {:?}",
        solution.value,
        solution.nodes,
        t.elapsed()
    );
    assert_eq!(solution.value, Some(truth), "{name} {files}x{ranks}");
}

#[test]
fn standard_3x4() {
    check("standard", 3, 4);
}

#[test]
fn standard_4x4() {
    check("standard", 4, 4);
}

#[test]
fn others_3x4() {
    for name in ["houdini", "escape", "advanced", "advanced-delayed"] {
        check(name, 3, 4);
    }
}

#[test]
fn houdini_4x4() {
    check("houdini", 4, 4);
}

/// A rules text for a tiny board: `r` and `g` stacks (cell, height) on
/// their home ranks, and a choice of each rule.
#[derive(Clone, Debug)]
struct Tiny {
    files: u32,
    ranks: u32,
    romans: Vec<(u32, u32)>,
    gauls: Vec<(u32, u32)>,
    diagonals: bool,
    sacrifice: bool,
    /// `None`, `immediate` or `delayed`.
    breakthrough: Option<&'static str>,
    stalemate_loses: bool,
}

impl Tiny {
    fn text(&self) -> String {
        let file = |f: u32| char::from(b'a' + f as u8);
        let setup = |letter: char, rank: u32, stacks: &[(u32, u32)]| -> String {
            let mut out = String::new();
            for h in 1..=2 {
                let cells: Vec<String> = stacks
                    .iter()
                    .filter(|s| s.1 == h)
                    .map(|s| format!("{}{rank}", file(s.0)))
                    .collect();
                if !cells.is_empty() {
                    out += &format!("    {letter} {h} on cells {}\n", cells.join(" "));
                }
            }
            out
        };
        let mut t = format!(
            "variant \"tiny\"\nboard rect {} x {}\n\
             player \"Romans\" {{\n    letter r\n    colour \"#e8dcc0\"\n    home rank 1\n    forward n\n}}\n\
             player \"Gauls\" {{\n    letter g\n    colour \"#5b3a29\"\n    home rank {}\n    forward s\n}}\n\
             setup {{\n{}{}}}\nstack limit 2\n\
             sow {{\n    heights 2\n    directions {}\n    onto empty, own 1\n}}\n",
            self.files,
            self.ranks,
            self.ranks,
            setup('r', 1, &self.romans),
            setup('g', self.ranks, &self.gauls),
            if self.diagonals { "all" } else { "orthogonal" },
        );
        if self.sacrifice {
            t += "sacrifice {\n    directions all\n    2 against 1: lose 1, remove 1\n}\n";
        }
        t += "win {\n";
        if let Some(timing) = self.breakthrough {
            t += &format!("    breakthrough {timing} by sow\n");
        }
        t += if self.stalemate_loses {
            "    stalemate loses\n}\n"
        } else {
            "    stalemate draws\n}\n"
        };
        t
    }
}

/// Stacks on distinct files of one rank: at least one tower.
fn stacks(files: u32) -> impl Strategy<Value = Vec<(u32, u32)>> {
    proptest::collection::vec(1u32..=2, files as usize).prop_flat_map(move |heights| {
        proptest::collection::vec(any::<bool>(), files as usize).prop_map(move |keep| {
            let mut out: Vec<(u32, u32)> = (0..files)
                .filter(|&f| keep[f as usize])
                .map(|f| (f, heights[f as usize]))
                .collect();
            if !out.iter().any(|s| s.1 == 2) {
                out.retain(|s| s.0 != 0);
                out.push((0, 2));
            }
            out
        })
    })
}

fn tiny() -> impl Strategy<Value = Tiny> {
    prop_oneof![Just((3u32, 4u32)), Just((3, 5)), Just((4, 4)), Just((2, 5))].prop_flat_map(
        |(files, ranks)| {
            (
                stacks(files),
                stacks(files),
                any::<bool>(),
                any::<bool>(),
                prop_oneof![Just(None), Just(Some("immediate")), Just(Some("delayed"))],
                any::<bool>(),
            )
                .prop_map(
                    move |(romans, gauls, diagonals, sacrifice, breakthrough, stalemate_loses)| {
                        Tiny {
                            files,
                            ranks,
                            romans,
                            gauls,
                            diagonals,
                            sacrifice,
                            breakthrough,
                            stalemate_loses,
                        }
                    },
                )
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(64), ..ProptestConfig::default() })]

    /// Random rules on tiny boards, with draws (stalemate draws, no
    /// breakthrough, endless cycles) as well as wins: the proof search
    /// agrees with the exhaustive search wherever that one finishes.
    #[test]
    fn proof_search_agrees_with_exhaustive_search_on_random_tiny_rules(t in tiny()) {
        let text = t.text();
        let v = Variant::compile(&text).unwrap_or_else(|d| panic!("{text}\n{d:?}"));
        let Some((truth, _)) = exhaustive(&v, 200_000) else {
            return Ok(());
        };
        let solution = solve(&v, &v.start(), Limits { nodes: u64::MAX, table_mib: 2 }, &()).unwrap();
        prop_assert_eq!(solution.value, Some(truth), "{}", text);
        // Two threads: the same value and winning moves.
        let two = Solver::new(2).solve(&v, &v.start(), u64::MAX, 2, &()).unwrap();
        prop_assert_eq!(two.value, solution.value, "{}", text);
        prop_assert_eq!(two.winning, solution.winning, "{}", text);
    }
}

/// Every position a proof's strategy reaches, checked by plain search: at
/// the attacker's turn a move the solver's table calls proven must lead to a
/// checked win, at the defender's turn every move must; the game must end
/// in the attacker's win and no line may come back to a position on it.
/// The table only suggests the attacker's moves: nothing it says is taken
/// on trust.
fn strategy_wins(
    v: &Variant,
    solver: &Solver,
    pos: Position,
    attacker: usize,
    line: &mut Vec<Position>,
    checked: &mut HashSet<Position>,
) -> bool {
    if let Some(o) = v.outcome(&pos) {
        return o.winner == Some(attacker);
    }
    if line.contains(&pos) {
        return false;
    }
    if checked.contains(&pos) {
        return true;
    }
    line.push(pos);
    let moves = v.legal_moves(&pos);
    let won = if v.turn(&pos) == attacker {
        moves.iter().any(|&m| {
            let next = v.play(&pos, m);
            let suggested = v.outcome(&next).is_some_and(|o| o.winner == Some(attacker))
                || solver.known(v, &next, attacker) == Proof::Proven;
            suggested && strategy_wins(v, solver, next, attacker, line, checked)
        })
    } else {
        moves
            .iter()
            .all(|&m| strategy_wins(v, solver, v.play(&pos, m), attacker, line, checked))
    };
    line.pop();
    if won {
        checked.insert(pos);
    }
    won
}

/// 5×4 has more than 40 million positions reachable from the start, beyond
/// the exhaustive search above; the solver's proof is checked move by move
/// instead, every defence tried.
#[test]
fn standard_5x4_is_a_first_player_win_and_its_proof_checks() {
    let v = cut("standard", 5, 4);
    let start = v.start();
    let solver = Solver::new(64);
    assert_eq!(solver.prove(&v, &start, 0, u64::MAX, &()), Proof::Proven);
    let mut checked = HashSet::new();
    assert!(strategy_wins(
        &v,
        &solver,
        start,
        0,
        &mut Vec::new(),
        &mut checked
    ));
    eprintln!("5x4: the strategy's {} positions checked", checked.len());
    // The other side's win is disproved.
    assert_eq!(solver.prove(&v, &start, 1, u64::MAX, &()), Proof::Disproven);
}

#[test]
fn more_than_two_players_is_an_error_and_a_budget_too_small_is_unknown() {
    let four = Variant::builtin("escape4").unwrap();
    let e = solve(&four, &four.start(), SMALL, &()).unwrap_err();
    assert!(e.contains("two-player"), "{e}");
    let v = Variant::standard();
    let limits = Limits {
        nodes: 2_000,
        table_mib: 4,
    };
    let s = solve(&v, &v.start(), limits, &()).unwrap();
    assert_eq!(s.value, None);
    assert!(s.nodes <= 2_000 + 1, "{}", s.nodes);
}

/// The standard rules cut to `files` × `ranks` with another draw block:
/// `repetition` (or none), the ply cap and what decides a game that
/// reaches it (`for g`, `by stones`, or a draw).
fn capped(files: u32, ranks: u32, repetition: Option<u32>, cap: u32, adjudicate: &str) -> Variant {
    let source = cut("standard", files, ranks).source().to_string();
    let mut draw = String::from("draw {\n");
    if let Some(n) = repetition {
        draw += &format!("    repetition {n}\n");
    }
    draw += &format!("    plies {cap}\n");
    if !adjudicate.is_empty() {
        draw += &format!("    adjudicate {adjudicate}\n");
    }
    draw += "}";
    let text = source.replace("draw {\n    repetition 3\n    plies 300\n}", &draw);
    assert_ne!(text, source);
    Variant::compile(&text).unwrap_or_else(|d| panic!("{d:?}"))
}

/// A 4×4 board where each side's tower and two walls on its home rank can
/// go round a ring of six positions (the tower sows along the rank onto
/// its own walls): a draw by endless play without a cap, where positions
/// come back and the repetition rule decides lines. `draw` is the draw
/// block's inside.
fn shuffling(draw: &str) -> Variant {
    let text = format!(
        "variant \"shuffling\"\nboard rect 4 x 4\n\
         player \"Romans\" {{\n    letter r\n    colour \"#e8dcc0\"\n    home rank 1\n    forward n\n}}\n\
         player \"Gauls\" {{\n    letter g\n    colour \"#5b3a29\"\n    home rank 4\n    forward s\n}}\n\
         setup {{\n    r 1 on cells a1 c1\n    r 2 on cells b1\n    g 1 on cells a4 c4\n    g 2 on cells b4\n}}\n\
         stack limit 2\n\
         sow {{\n    heights 2\n    directions all\n    onto empty, own 1\n}}\n\
         win {{\n    breakthrough immediate by sow\n    stalemate loses\n}}\n\
         draw {{\n{draw}}}\n"
    );
    Variant::compile(&text).unwrap_or_else(|d| panic!("{d:?}"))
}

/// Who wins `game` with perfect play under every rule the game knows (its
/// ply cap and adjudication, its repetition rule): plain minimax over the
/// lines of play, memoised on what decides the rest of a game (the
/// position, the plies played, and the positions since the last capture,
/// which the repetition rule counts, sorted). `None`: a draw.
fn minimax(
    game: &mut Game,
    memo: &mut HashMap<(Position, usize, Vec<Position>), Option<usize>>,
) -> Option<usize> {
    if let Some(o) = game.outcome() {
        return o.winner;
    }
    let v = game.variant().clone();
    let (positions, moves) = (game.positions(), game.moves());
    let since = (0..moves.len())
        .rev()
        .find(|&i| v.is_capture(&positions[i], moves[i]))
        .map_or(0, |i| i + 1);
    let mut window = positions[since..].to_vec();
    window.sort_by_key(|p| v.position_string(p));
    let key = (*game.position(), game.ply(), window);
    if let Some(&r) = memo.get(&key) {
        return r;
    }
    let mover = v.turn(game.position());
    // Best first: a win, then a draw, then a loss.
    let rank = |r: Option<usize>| match r {
        Some(p) if p == mover => 2,
        None => 1,
        Some(_) => 0,
    };
    let mut best = Some(1 - mover);
    for m in game.legal_moves() {
        assert!(game.play(m));
        let r = minimax(game, memo);
        game.undo();
        if rank(r) > rank(best) {
            best = r;
        }
        if rank(best) == 2 {
            break;
        }
    }
    memo.insert(key, best);
    best
}

fn value_of(winner: Option<usize>) -> Value {
    winner.map_or(Value::Draw, Value::Win)
}

/// The capped game's value by `solve_line` is minimax's, over caps, each
/// way of deciding a game at the cap, and with and without a repetition
/// rule; and the cap changes values (the start of 4×4, a first-player win
/// without it, is not one under a short cap for the Gauls).
#[test]
fn the_game_with_its_ply_cap_is_solved_as_minimax_plays_it() {
    let mut cases = 0;
    let mut differ = 0;
    for (files, ranks, caps) in [(3, 4, 1..=12), (4, 4, 1..=7)] {
        let free = solve(
            &cut("standard", files, ranks),
            &cut("standard", files, ranks).start(),
            SMALL,
            &(),
        )
        .unwrap()
        .value;
        for repetition in [None, Some(2), Some(3)] {
            for adjudicate in ["", "for g", "for r", "by stones", "by towers"] {
                for cap in caps.clone() {
                    let v = capped(files, ranks, repetition, cap, adjudicate);
                    let truth = value_of(minimax(&mut Game::new(&v), &mut HashMap::new()));
                    let line = Line::start(&v).unwrap();
                    let found = solve_line(&v, &line, SMALL, &()).unwrap();
                    assert_eq!(
                        found.value,
                        Some(truth),
                        "{files}x{ranks} repetition {repetition:?}, plies {cap} {adjudicate}"
                    );
                    // Each winning first move wins: minimax after it agrees.
                    for &m in &found.winning {
                        let mut g = Game::new(&v);
                        assert!(g.play(m));
                        assert_eq!(value_of(minimax(&mut g, &mut HashMap::new())), truth);
                    }
                    cases += 1;
                    differ += usize::from(found.value != free);
                }
            }
        }
    }
    assert!(
        cases > 200 && differ > 20,
        "{cases} cases, {differ} differ from the game without its cap"
    );
}

/// Where positions repeat at once, the repetition rule decides: a side
/// that would win at the cap is held to a draw by a repetition, or not,
/// as minimax finds with the rule counted as the rules count it.
#[test]
fn repetitions_count_in_the_game_with_its_ply_cap() {
    let mut by_repetition = 0;
    for repetition in ["", "    repetition 2\n", "    repetition 3\n"] {
        for adjudicate in ["", "    adjudicate for g\n", "    adjudicate for r\n"] {
            for cap in 1..=16 {
                let v = shuffling(&format!("{repetition}    plies {cap}\n{adjudicate}"));
                let truth = value_of(minimax(&mut Game::new(&v), &mut HashMap::new()));
                let found = solve_line(&v, &Line::start(&v).unwrap(), SMALL, &()).unwrap();
                assert_eq!(
                    found.value,
                    Some(truth),
                    "{repetition} plies {cap} {adjudicate}"
                );
                // From the middle of a line, its positions already counted.
                let mut game = Game::new(&v);
                while game.ply() < 6 && game.outcome().is_none() {
                    let moves = game.legal_moves();
                    assert!(game.play(moves[game.ply() % moves.len()]));
                }
                if game.outcome().is_none() {
                    let truth = value_of(minimax(&mut game.clone(), &mut HashMap::new()));
                    let line = Line::of_game(&game, 0).unwrap();
                    let found = solve_line(&v, &line, SMALL, &()).unwrap();
                    assert_eq!(
                        found.value,
                        Some(truth),
                        "after 6 plies: {repetition} plies {cap} {adjudicate}"
                    );
                }
                if !repetition.is_empty() {
                    let v = shuffling(&format!("    plies {cap}\n{adjudicate}"));
                    let without = value_of(minimax(&mut Game::new(&v), &mut HashMap::new()));
                    by_repetition += usize::from(without != truth);
                }
            }
        }
    }
    eprintln!("{by_repetition} values changed by the repetition rule");
    assert!(by_repetition > 0, "the repetition rule changes some value");
}

/// A line from the middle of a game: its plies so far count toward the
/// cap, its positions toward repetitions; a position given with the plies
/// before it is the game of the cap less those plies.
#[test]
fn a_line_counts_the_plies_and_positions_before_it() {
    let v = capped(3, 4, Some(2), 9, "for g");
    let mut game = Game::new(&v);
    for _ in 0..3 {
        let m = game.legal_moves()[0];
        assert!(game.play(m));
    }
    let truth = value_of(minimax(&mut game.clone(), &mut HashMap::new()));
    let line = Line::of_game(&game, 0).unwrap();
    assert_eq!(line.plies_left(), 6);
    assert_eq!(
        solve_line(&v, &line, SMALL, &()).unwrap().value,
        Some(truth)
    );
    // The position alone, three plies in: the game capped at six plies from
    // it (the repetition rule sees no earlier position).
    let pos = *game.position();
    let alone = Line::of_game(&Game::from_position(&v, pos), 3).unwrap();
    assert_eq!(alone.plies_left(), 6);
    let shorter = capped(3, 4, Some(2), 6, "for g");
    let truth = value_of(minimax(
        &mut Game::from_position(&shorter, pos),
        &mut HashMap::new(),
    ));
    assert_eq!(
        solve_line(&v, &alone, SMALL, &()).unwrap().value,
        Some(truth)
    );
    // At the cap, or without one: refused.
    let e = Line::of_game(&Game::from_position(&v, pos), 9).unwrap_err();
    assert!(e.contains("reached the ply cap"), "{e}");
    let free = Variant::compile(
        &v.source()
            .replace("    plies 9\n    adjudicate for g\n", ""),
    )
    .unwrap();
    let e = Line::start(&free).unwrap_err();
    assert!(e.contains("no ply cap"), "{e}");
}

/// `variants/sweeps/standard-small.mg` on `files` × `ranks`, as `murus
/// solve --set files=F --set ranks=R` reads it.
fn small(files: u32, ranks: u32) -> Variant {
    let source = include_str!("../../../variants/sweeps/standard-small.mg");
    let set = [("files".to_string(), files), ("ranks".to_string(), ranks)];
    Variant::compile_with(source, &set).expect("standard-small compiles")
}

/// Solves the start of `v` on `threads` threads with a `mib` MiB table and
/// writes its winner's strategy as `murus solve --proof` does: the value,
/// the proof file's text and how many entries were proved again.
fn proof_file(v: &Variant, threads: usize, mib: usize) -> (Value, String, u64) {
    proof_file_of(Solver::new(mib), v, threads)
}

/// [`proof_file`] with the solver given.
fn proof_file_of(solver: Solver, v: &Variant, threads: usize) -> (Value, String, u64) {
    let start = v.start();
    let s = solver.solve(v, &start, u64::MAX, threads, &()).unwrap();
    let value = s.value.expect("solved");
    let Value::Win(winner) = value else {
        return (value, String::new(), 0);
    };
    let strategy = solver.strategy(v, &start, winner, 10_000_000, &()).unwrap();
    let mut text = Vec::new();
    strategy.write_to(v, &mut text).unwrap();
    (value, String::from_utf8(text).unwrap(), strategy.reproved)
}

#[test]
fn proofs_of_small_boards_pass_the_independent_checker() {
    for (files, ranks, winner) in [(3, 4, 1), (4, 4, 0), (5, 4, 0)] {
        let v = small(files, ranks);
        let (value, text, _) = proof_file(&v, 1, 16);
        assert_eq!(value, Value::Win(winner), "{files}x{ranks}");
        let checked = proofcheck::check(&v, &v.start(), &text)
            .unwrap_or_else(|e| panic!("{files}x{ranks}: {e}"));
        assert_eq!(checked.winner, winner);
        assert_eq!(
            checked.winner_positions,
            text.lines().count(),
            "every line used"
        );
        eprintln!("{files}x{ranks}: {checked:?}");
    }
}

#[test]
fn a_table_too_small_for_the_proof_is_proved_again_where_evicted() {
    // 5×5 takes about 240 000 nodes with a position and its mirror image
    // apart; 1 MiB holds 43 690 entries. One thread, so that what is
    // evicted (and so proved again) does not depend on the threads' timing.
    let v = small(5, 5);
    let (value, text, reproved) = proof_file_of(Solver::new(1).with_mirror(false), &v, 1);
    assert_eq!(value, Value::Win(0));
    assert!(reproved > 0, "nothing proved again");
    proofcheck::check(&v, &v.start(), &text).unwrap();
}

#[test]
fn the_checker_fails_a_corrupted_proof() {
    let v = small(4, 4);
    let start = v.start();
    let (_, text, _) = proof_file(&v, 1, 16);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 10, "{}", lines.len());
    assert!(proofcheck::check(&v, &start, &text).is_ok());
    // A line removed: its position has no move.
    for gone in [0, lines.len() / 2, lines.len() - 1] {
        let mut cut = lines.clone();
        cut.remove(gone);
        let e = proofcheck::check(&v, &start, &cut.join("\n")).unwrap_err();
        assert!(e.contains("no move for"), "{e}");
    }
    // The first move changed to one that does not win (4×4's winning
    // moves are b1-b3 and c1-c3).
    let (root, first) = lines[0].split_once('\t').unwrap();
    assert_eq!(root, v.position_string(&start));
    assert!(["b1-b3", "c1-c3"].contains(&first), "{first}");
    let losing = v
        .legal_moves(&start)
        .into_iter()
        .map(|m| v.move_to_string(m))
        .find(|m| m != "b1-b3" && m != "c1-c3")
        .unwrap();
    let mut changed = lines.clone();
    let line = format!("{root}\t{losing}");
    changed[0] = &line;
    assert!(proofcheck::check(&v, &start, &changed.join("\n")).is_err());
    // A move that is not legal there, and a position twice.
    let line = format!("{root}\ta1-a4");
    changed[0] = &line;
    let e = proofcheck::check(&v, &start, &changed.join("\n")).unwrap_err();
    assert!(e.contains("line 1"), "{e}");
    let twice = format!("{text}{}\n", lines[0]);
    let e = proofcheck::check(&v, &start, &twice).unwrap_err();
    assert!(e.contains("again"), "{e}");
}

/// Two threads race the questions; three add a helper on one of them, and
/// a thread whose question is disproved helps the other.
#[test]
fn values_and_winning_moves_are_the_same_on_one_thread_and_more() {
    let solve_on = |v: &Variant, threads| {
        Solver::new(16)
            .solve(v, &v.start(), u64::MAX, threads, &())
            .unwrap()
    };
    let mut boards: Vec<(String, Variant)> = [(3, 4), (4, 4), (5, 4), (4, 5)]
        .into_iter()
        .map(|(f, r)| (format!("{f}x{r}"), small(f, r)))
        .collect();
    for name in ["houdini", "escape", "advanced", "advanced-delayed"] {
        boards.push((format!("{name} 3x4"), cut(name, 3, 4)));
    }
    for (name, v) in &boards {
        let one = solve_on(v, 1);
        assert!(one.value.is_some(), "{name}");
        for threads in [2, 3] {
            let more = solve_on(v, threads);
            assert_eq!(one.value, more.value, "{name}, {threads} threads");
            assert_eq!(one.winning, more.winning, "{name}, {threads} threads");
            assert!(more.unsettled.is_empty());
            eprintln!(
                "{name}: {} nodes on one thread, {} on {threads}",
                one.nodes, more.nodes
            );
        }
    }
}

/// The issue's goals: 5×6 and 6×6 solved on two threads and their proofs
/// checked. Long (tens of minutes each, release build):
/// `cargo test --release -p murus-ai --test solve -- --ignored --nocapture`.
#[test]
#[ignore]
fn standard_5x6_and_6x6_are_solved_and_their_proofs_check() {
    let mib = std::env::var("MURUS_SOLVE_TABLE")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(4096);
    for (files, ranks) in [(5, 6), (6, 6)] {
        let v = small(files, ranks);
        let t = std::time::Instant::now();
        let (value, text, reproved) = proof_file(&v, 2, mib);
        let solved = t.elapsed();
        let checked = proofcheck::check(&v, &v.start(), &text)
            .unwrap_or_else(|e| panic!("{files}x{ranks}: {e}"));
        eprintln!(
            "{files}x{ranks}: {value:?} in {solved:?}; proof of {} lines ({reproved} proved again), \
             checked: {checked:?}",
            text.lines().count()
        );
    }
}

#[test]
fn a_position_and_its_mirror_image_as_one_keep_every_value_and_save_nodes() {
    for (files, ranks) in [(3, 4), (4, 4), (5, 4), (4, 5), (5, 5)] {
        let v = small(files, ranks);
        assert!(
            v.mirror().is_some(),
            "{files}x{ranks}: the rules are symmetric"
        );
        let solve = |mirror: bool| {
            let s = (Solver::new(16).with_mirror(mirror))
                .solve(&v, &v.start(), u64::MAX, 1, &())
                .unwrap();
            let mut winning = s.winning.clone();
            winning.sort_by_key(|&m| v.move_to_string(m));
            (s.value, winning, s.nodes)
        };
        let (on, off) = (solve(true), solve(false));
        assert_eq!((on.0, &on.1), (off.0, &off.1), "{files}x{ranks}");
        if files * ranks >= 20 {
            assert!(
                on.2 * 4 < off.2 * 3,
                "{files}x{ranks}: {} nodes with the mirror, {} without",
                on.2,
                off.2
            );
        }
    }
}
