//! The tactics suite: positions from played games where the side to move
//! can force a win within three of its moves, or must parry a threat to win
//! at once. Each position's label is proved here by a brute-force solver
//! (plain AND-OR search over every legal move, nothing of the bots), and
//! the bots are held to it: `hard` finds every forced win and parries every
//! threat, and `mcts` at its default budget finds at least nine in ten of
//! the wins in three.
//!
//! The positions are in `tests/data/tactics.txt`, one per line:
//! `VARIANT | POSITION | TASK | SOURCE`, where TASK is `win N` (a win within
//! N moves of the side to move, and none within N − 1) or `parry` (the
//! opponent would win at once were it to move; some moves stop that, some
//! do not; the side to move has no win within three). The file was written
//! by the ignored test `write_the_suite` from games between searching bots:
//!
//! ```sh
//! cargo test --release -p murus-ai --test tactics -- --ignored write_the_suite
//! ```

use murus_ai::{Bot, BotSpec};
use murus_engine::{Bits, Engine, EngineTask, Game, Pos, Position, Variant, Word};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const SUITE: &str = include_str!("data/tactics.txt");

/// Whether the side to move can force a win within `n` of its own moves.
fn wins_within<B: Bits>(e: &Engine<B>, pos: &Pos<B>, n: u32) -> bool {
    let me = pos.turn();
    let mut moves = e.move_list();
    e.legal_moves(pos, &mut moves);
    let mut children = Vec::with_capacity(moves.len());
    for &m in &moves {
        let mut c = *pos;
        e.apply(&mut c, m);
        match e.outcome(&c) {
            Some(o) if o.winner == Some(me) => return true,
            Some(_) => {}
            None => children.push(c),
        }
    }
    n > 1 && children.iter().any(|c| every_reply_loses(e, c, me, n - 1))
}

/// Whether every reply of the side to move in `pos` (`me`'s opponent)
/// leaves `me` a win within `n` of its moves.
fn every_reply_loses<B: Bits>(e: &Engine<B>, pos: &Pos<B>, me: usize, n: u32) -> bool {
    let mut moves = e.move_list();
    e.legal_moves(pos, &mut moves);
    let mut children = Vec::with_capacity(moves.len());
    for &r in &moves {
        let mut c = *pos;
        e.apply(&mut c, r);
        match e.outcome(&c) {
            Some(o) if o.winner == Some(me) => {}
            Some(_) => return false,
            None => children.push(c),
        }
    }
    children.iter().all(|c| wins_within(e, c, n))
}

/// The least N ≤ `most` within which the side to move forces a win.
fn least_win<B: Bits>(e: &Engine<B>, pos: &Pos<B>, most: u32) -> Option<u32> {
    (1..=most).find(|&n| wins_within(e, pos, n))
}

/// Whether `m`, played in `pos`, keeps a win within `n` moves for its
/// player (wins at once, or leaves the opponent lost within `n - 1`).
fn keeps_win<B: Bits>(e: &Engine<B>, pos: &Pos<B>, m: murus_engine::Move, n: u32) -> bool {
    let me = pos.turn();
    let mut c = *pos;
    e.apply(&mut c, m);
    match e.outcome(&c) {
        Some(o) => o.winner == Some(me),
        None => n > 1 && every_reply_loses(e, &c, me, n - 1),
    }
}

/// Whether `m`, played in `pos`, leaves the opponent no win at once.
fn parries<B: Bits>(e: &Engine<B>, pos: &Pos<B>, m: murus_engine::Move) -> bool {
    let mut c = *pos;
    e.apply(&mut c, m);
    e.outcome(&c).is_none() && !wins_within(e, &c, 1)
}

/// The same position with the other player to move (two players), or
/// `None` where the position string does not allow it.
fn other_to_move(v: &Variant, pos: &Position) -> Option<Position> {
    let text = v.position_string(pos);
    let (board, side) = text.rsplit_once(' ')?;
    let turn = v.player_by_letter(side.chars().next()?)?;
    let flipped = format!("{board} {}", v.letter(1 - turn));
    v.parse_position(&flipped).ok()
}

/// What the solver says of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    Win(u32),
    Parry,
}

impl Task {
    fn parse(text: &str) -> Task {
        match text.split_whitespace().collect::<Vec<_>>()[..] {
            ["win", n] => Task::Win(n.parse().expect("win N")),
            ["parry"] => Task::Parry,
            _ => panic!("unknown task `{text}`"),
        }
    }
    fn text(self) -> String {
        match self {
            Task::Win(n) => format!("win {n}"),
            Task::Parry => "parry".into(),
        }
    }
}

/// The solver's task for `pos`, if it is one for the suite.
fn classify(v: &Variant, pos: &Position) -> Option<Task> {
    struct Classify<'a>(&'a Position, Option<Position>);
    impl EngineTask for Classify<'_> {
        type Output = Option<Task>;
        fn run<B: Word>(self, e: &Engine<B>) -> Option<Task> {
            let pos = B::unwrap(self.0)?;
            if e.outcome(pos).is_some() {
                return None;
            }
            if let Some(n) = least_win(e, pos, 3) {
                return Some(Task::Win(n));
            }
            let flipped = B::unwrap(self.1.as_ref()?)?;
            if e.outcome(flipped).is_some() || !wins_within(e, flipped, 1) {
                return None;
            }
            let mut moves = e.move_list();
            e.legal_moves(pos, &mut moves);
            let parrying = moves.iter().filter(|&&m| parries(e, pos, m)).count();
            (parrying > 0 && parrying < moves.len()).then_some(Task::Parry)
        }
    }
    v.run(Classify(pos, other_to_move(v, pos)))
}

struct Case {
    variant: Variant,
    position: Position,
    task: Task,
    line: String,
}

fn suite() -> Vec<Case> {
    SUITE
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            let variant = Variant::builtin(f[0]).expect("a shipped variant");
            let position = variant.parse_position(f[1]).expect("a position");
            Case {
                variant,
                position,
                task: Task::parse(f[2]),
                line: l.to_string(),
            }
        })
        .collect()
}

#[test]
fn the_suite_covers_three_variants_and_every_task() {
    let cases = suite();
    for variant in ["standard", "advanced", "hex"] {
        for task in [Task::Win(1), Task::Win(2), Task::Win(3), Task::Parry] {
            let n = cases
                .iter()
                .filter(|c| c.variant.name() == variant && c.task == task)
                .count();
            assert!(n >= 3, "{variant}: only {n} of {}", task.text());
        }
    }
}

#[test]
fn every_position_is_what_the_solver_says() {
    for case in suite() {
        assert_eq!(
            classify(&case.variant, &case.position),
            Some(case.task),
            "{}",
            case.line
        );
    }
}

/// Whether `bot`'s move in the case's position does its task.
fn solves(case: &Case, bot: &mut Bot) -> bool {
    let m = bot
        .choose(&case.variant, &case.position)
        .expect("a live position has moves");
    does_task(case, m)
}

/// Whether `m` does the case's task.
fn does_task(case: &Case, m: murus_engine::Move) -> bool {
    struct Check<'a>(&'a Position, murus_engine::Move, Task);
    impl EngineTask for Check<'_> {
        type Output = bool;
        fn run<B: Word>(self, e: &Engine<B>) -> bool {
            let pos = B::unwrap(self.0).expect("a position of this variant");
            match self.2 {
                Task::Win(n) => keeps_win(e, pos, self.1, n),
                Task::Parry => parries(e, pos, self.1),
            }
        }
    }
    case.variant.run(Check(&case.position, m, case.task))
}

#[test]
fn analysis_on_two_threads_finds_every_forced_win_and_parries_every_threat() {
    let mut analyser = murus_ai::analysis::Analyser::new(16);
    analyser.set_threads(2);
    let limits = murus_ai::analysis::Limits {
        nodes: Some(50_000),
        ..Default::default()
    };
    let failed: Vec<String> = suite()
        .iter()
        .filter(|case| {
            analyser.clear();
            let game = murus_engine::Game::from_position(&case.variant, case.position);
            let found = analyser
                .analyse(&game, limits, 1, &())
                .expect("a live position");
            !does_task(case, found.best)
        })
        .map(|case| case.line.clone())
        .collect();
    assert!(
        failed.is_empty(),
        "two threads failed:\n{}",
        failed.join("\n")
    );
}

#[test]
fn hard_finds_every_forced_win_and_parries_every_threat() {
    let hard: BotSpec = "hard".parse().unwrap();
    let failed: Vec<String> = suite()
        .iter()
        .filter(|case| !solves(case, &mut Bot::new(hard.clone(), 1)))
        .map(|case| case.line.clone())
        .collect();
    assert!(failed.is_empty(), "hard failed:\n{}", failed.join("\n"));
}

/// Writes `tests/data/tactics.txt` from games between searching bots, each
/// from a few random plies: at most one position of each task per game, and
/// at most `PER_TASK` of each task per variant.
#[test]
#[ignore = "writes the suite's data file; run by hand"]
fn write_the_suite() {
    const PER_TASK: usize = 20;
    let mut out = String::from(
        "# The tactics suite (see tests/tactics.rs): VARIANT | POSITION | TASK | SOURCE\n",
    );
    for name in ["standard", "advanced", "hex"] {
        let v = Variant::builtin(name).unwrap();
        let mut found: Vec<(Task, String, String)> = Vec::new();
        let full = |found: &[(Task, String, String)], t: Task| {
            found.iter().filter(|f| f.0 == t).count() >= PER_TASK
        };
        for game_no in 0..400u64 {
            let tasks = [Task::Win(1), Task::Win(2), Task::Win(3), Task::Parry];
            if tasks.iter().all(|&t| full(&found, t)) {
                break;
            }
            let mut rng = SmallRng::seed_from_u64(game_no);
            let mut bots = [
                Bot::new(
                    BotSpec::AlphaBeta {
                        nodes: 4_000,
                        eval: None,
                    },
                    game_no,
                ),
                Bot::new(
                    BotSpec::AlphaBeta {
                        nodes: 12_000,
                        eval: None,
                    },
                    game_no + 1,
                ),
            ];
            if game_no % 2 == 1 {
                bots.swap(0, 1);
            }
            let mut game = Game::new(&v);
            let mut seen = Vec::new();
            while game.outcome().is_none() && game.ply() < 200 {
                let pos = *game.position();
                let ply = game.ply();
                if ply >= 4 {
                    if let Some(t) = classify(&v, &pos) {
                        if !seen.contains(&t) && !full(&found, t) {
                            seen.push(t);
                            found.push((
                                t,
                                v.position_string(&pos),
                                format!("game {game_no} ply {ply}"),
                            ));
                        }
                    }
                }
                let m = if ply < 4 {
                    let moves = v.legal_moves(&pos);
                    moves[rng.random_range(0..moves.len())]
                } else {
                    bots[v.turn(&pos)].choose_in_game(&game).expect("moves")
                };
                game.play(m);
            }
        }
        found.sort_by_key(|f| match f.0 {
            Task::Win(n) => n,
            Task::Parry => 9,
        });
        for (t, pos, source) in found {
            out.push_str(&format!("{name} | {pos} | {} | {source}\n", t.text()));
        }
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tactics.txt");
    std::fs::write(path, out).unwrap();
}

#[test]
fn mcts_at_its_default_budget_finds_nine_in_ten_wins_in_three() {
    let mcts: BotSpec = "mcts".parse().unwrap();
    let cases: Vec<Case> = suite()
        .into_iter()
        .filter(|c| c.task == Task::Win(3))
        .collect();
    let failed: Vec<&str> = cases
        .iter()
        .filter(|case| !solves(case, &mut Bot::new(mcts.clone(), 1)))
        .map(|case| case.line.as_str())
        .collect();
    assert!(
        failed.len() * 10 <= cases.len(),
        "mcts missed {} of {} wins in three:\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
}
