//! `proof::solve` against a plain exhaustive search written here: every
//! position reachable from the start, then the winners found by sweeping
//! until nothing changes (a position is won for a player when it is a
//! finished game that player won, or that player is to move and some move
//! reaches a won position, or the other is to move and every move does).
//! What neither side can force is a draw.

use std::collections::{HashMap, HashSet};

use murus_ai::proof::{Limits, Proof, Solver, Value, solve};
use murus_engine::{Position, Variant};
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
    let mut solver = Solver::new(64);
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
