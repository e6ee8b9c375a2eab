//! The designer's report: its sections on a small board whose value is
//! known, and a report stopped in the middle and resumed from its folder
//! ends as one never stopped (but for the machine's timings).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use murus_engine::job::Handler;
use murus_engine::{Move, Position, Variant};
use murus_lab::designer::{
    Band, Budget, DesignerReport, MIN_GOING, ReportConfig, ReportProgress, Timing, run_report,
};
use murus_lab::folder::Mode;
use murus_lab::read_outputs;

fn four_by_four() -> Variant {
    let source = include_str!("../../../../variants/sweeps/standard-small.mg");
    Variant::compile(source).unwrap()
}

/// Keeps the sections announced.
#[derive(Default)]
struct Heard(std::sync::Mutex<Vec<(String, String)>>);

impl Handler<ReportProgress> for Heard {
    fn progress(&self, p: &ReportProgress) {
        if let Some(s) = &p.section {
            self.0.lock().unwrap().push(s.clone());
        }
    }
}

/// Stops the report once the ladder has begun.
#[derive(Default)]
struct StopInLadder(AtomicBool);

impl Handler<ReportProgress> for StopInLadder {
    fn stop(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    fn progress(&self, p: &ReportProgress) {
        if p.stage == "ladder" && p.done >= 10 {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

fn without_timing(mut r: DesignerReport) -> DesignerReport {
    r.timing = Timing::default();
    r
}

#[test]
fn a_small_board_reports_every_section_and_a_stopped_report_resumes_the_same() {
    let v = four_by_four();
    let config = ReportConfig::new(Budget::Quick, 5, 2);
    let base = std::env::temp_dir().join(format!("murus-designer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let whole_dir = base.join("whole");
    let whole = run_report(&v, "small.mg", &config, Some((&whole_dir, Mode::New)), &()).unwrap();
    // Without a folder the games are not kept: no representative game.
    let bare = run_report(&v, "small.mg", &config, None, &()).unwrap();
    assert!(bare.game.is_none() && bare.tactics.is_none());
    assert_eq!(bare.fairness, whole.fairness);
    // The proof search solves 4×4, and the answer says so.
    let solved = whole.solved.as_ref().unwrap();
    assert_eq!(solved.value, "win");
    assert_eq!(solved.winner, Some('r'));
    assert_eq!(solved.winning, ["b1-b3", "c1-c3"]);
    assert!(
        solved.answer.starts_with("Solved: Romans win"),
        "{}",
        solved.answer
    );
    assert!(solved.balance_agrees.is_some());
    // The rules draw a game at the cap: the value is the game's without it.
    assert!(!solved.with_cap && solved.ply_cap.is_none());
    assert!(!solved.command.contains("--with-cap"), "{}", solved.command);
    // Every level played its games; the ladder climbed from random.
    let plan = Budget::Quick.plan();
    assert_eq!(
        whole.fairness.balance.levels.len(),
        plan.levels.split(',').count()
    );
    let ladder = &whole.ladder.as_ref().unwrap().ladder;
    assert!(ladder.rungs.len() >= 2, "{ladder:?}");
    assert_eq!(whole.speed.playouts.games, plan.playouts);
    assert!(
        whole.speed.standard.is_some(),
        "the standard game beside it"
    );
    for answer in [
        &whole.rules.answer,
        &whole.speed.answer,
        &whole.fairness.answer,
        &whole.ladder.as_ref().unwrap().answer,
        &whole.quality.answer,
    ] {
        assert!(answer.ends_with('.'), "{answer}");
    }

    // Each section was announced as its stage ended, with the answer the
    // report ends with.
    let heard = Heard::default();
    let again = run_report(
        &v,
        "small.mg",
        &config,
        Some((&base.join("again"), Mode::New)),
        &heard,
    )
    .unwrap();
    let sections = heard.0.lock().unwrap().clone();
    let solved = again.solved.as_ref().unwrap();
    assert!(
        sections.contains(&("Solved?".to_string(), solved.answer.clone())),
        "{sections:?}"
    );
    assert!(sections.contains(&("Speed and size".to_string(), again.speed.answer.clone())));
    assert!(sections.contains(&(
        "Fairness by level".to_string(),
        again.fairness.answer.clone()
    )));
    for (title, answer) in [
        ("The course of play", &again.curves.as_ref().unwrap().answer),
        ("On the board", &again.board.as_ref().unwrap().answer),
        ("How games end", &again.endings.as_ref().unwrap().answer),
    ] {
        assert!(
            sections.contains(&(title.to_string(), answer.clone())),
            "{title}: {sections:?}"
        );
    }
    assert_eq!(sections.len(), 11, "{sections:?}");
    let dir = base.join("stopped");
    let stop = StopInLadder::default();
    assert!(run_report(&v, "small.mg", &config, Some((&dir, Mode::New)), &stop).is_err());
    assert!(!dir.join("report.json").exists());
    assert!(dir.join("parts/speed.json").exists());
    // Resumed with other threads: the same report.
    let other_threads = ReportConfig::new(Budget::Quick, 5, 1);
    let resumed = run_report(
        &v,
        "small.mg",
        &other_threads,
        Some((&dir, Mode::Resume)),
        &(),
    )
    .unwrap();
    assert_eq!(
        without_timing(resumed.clone()),
        without_timing(whole.clone())
    );
    let written = std::fs::read_to_string(dir.join("report.json")).unwrap();
    assert_eq!(
        written,
        serde_json::to_string_pretty(&resumed).unwrap() + "\n"
    );
    // A resume with another seed is refused, naming it.
    let other = ReportConfig::new(Budget::Quick, 6, 2);
    let e = run_report(&v, "small.mg", &other, Some((&dir, Mode::Resume)), &()).unwrap_err();
    assert!(e.to_string().contains("seed"), "{e}");
    check_games(&v, &whole);
    check_plays(&v, &whole_dir, &whole);
    assert!(bare.curves.is_none() && bare.board.is_none() && bare.endings.is_none());
    // A report written before these sections reads back without them.
    let mut old = serde_json::to_value(&whole).unwrap();
    for key in ["curves", "board", "endings"] {
        old.as_object_mut().unwrap().remove(key).unwrap();
    }
    let read: DesignerReport = serde_json::from_value(old).unwrap();
    assert!(read.curves.is_none() && read.board.is_none() && read.endings.is_none());
    // Openings: every first move studied, ranked by the first player's
    // results; the moves never chosen are the others.
    let o = whole.openings.as_ref().expect("openings");
    assert_eq!(o.legal, v.legal_moves(&v.start()).len());
    assert_eq!(o.moves.len(), o.legal);
    assert!(o.moves.windows(2).all(|w| w[0].rate >= w[1].rate), "{o:?}");
    let chosen = o.moves.iter().filter(|m| m.chosen).count();
    assert!(chosen >= 1);
    assert_eq!(o.never.len(), o.legal - chosen);
    for m in &o.moves {
        assert!(m.ci95[0] <= m.rate && m.rate <= m.ci95[1], "{m:?}");
    }
    // With a folder, the games are the balance check's strongest level's,
    // each counted with its first move; without, the study's own.
    let hard = (whole.fairness.balance.levels.iter())
        .find(|l| l.level == "hard")
        .unwrap();
    assert!(o.from_balance && o.level == "hard", "{o:?}");
    let counted: u64 = o.moves.iter().map(|m| m.games).sum();
    assert_eq!(counted, hard.report.games, "{o:?}");
    assert!(
        o.answer.contains("the balance check's hard games"),
        "{}",
        o.answer
    );
    let own = bare.openings.as_ref().expect("openings");
    assert!(!own.from_balance);
    for m in &own.moves {
        assert!(m.games <= 2 * murus_lab::designer::OPENING_REPLIES as u64);
    }
    std::fs::remove_dir_all(&base).unwrap();
}

/// The representative game replays, and every puzzle is what it claims,
/// checked by the plain search below.
fn check_games(v: &Variant, r: &DesignerReport) {
    let g = r.game.as_ref().expect("a representative game");
    let game = murus_lab::designer::replay(v, &g.moves).expect("its moves replay");
    assert_eq!(
        game.outcome().and_then(|o| o.winner).map(|w| v.letter(w)),
        g.winner
    );
    assert_eq!(g.scores.len(), g.moves.len() + 1);
    // Its length is the median of its level's.
    let level = r
        .fairness
        .balance
        .levels
        .iter()
        .find(|l| l.level == g.level)
        .unwrap();
    let median = level.report.length.median as usize;
    assert!(
        g.moves.len().abs_diff(median) <= 1,
        "{} plies, median {median}",
        g.moves.len()
    );
    let t = r.tactics.as_ref().expect("tactics");
    assert!(!t.puzzles.is_empty(), "{}", t.answer);
    for p in &t.puzzles {
        let pos = v.parse_position(&p.position).unwrap();
        let solution = v.parse_move(&pos, &p.solution).unwrap();
        let wins: Vec<Move> = v
            .legal_moves(&pos)
            .into_iter()
            .filter(|&m| move_wins_within(v, &pos, m, p.n))
            .collect();
        assert_eq!(wins, [solution], "{p:?}: the one winning move");
        if p.n > 1 {
            assert!(
                !v.legal_moves(&pos)
                    .into_iter()
                    .any(|m| move_wins_within(v, &pos, m, p.n - 1)),
                "{p:?}: no faster win"
            );
        }
    }
}

/// The course of play, on the board and the endings, against plain
/// replays of the kept games with the variant's own functions.
fn check_plays(v: &Variant, dir: &Path, r: &DesignerReport) {
    let c = r.curves.as_ref().expect("curves");
    let b = r.board.as_ref().expect("board");
    let levels = &r.fairness.balance.levels;
    let level = levels.iter().rev().find(|l| l.report.games > 0).unwrap();
    assert_eq!(
        (c.level.as_str(), b.level.as_str()),
        (level.level.as_str(), level.level.as_str())
    );
    let (_, games) = read_outputs(&dir.join("balance/levels").join(&level.level)).unwrap();
    assert_eq!(c.games, games.len() as u64);
    let g = v.geometry();
    let players = v.player_count();
    let mut moves: Vec<Vec<i32>> = Vec::new();
    let mut stones: Vec<Vec<Vec<i32>>> = vec![Vec::new(); players];
    let mut occupied: BTreeMap<String, u64> = BTreeMap::new();
    let mut positions = 0;
    let mut won_at: Vec<BTreeMap<String, u64>> = vec![BTreeMap::new(); players];
    let mut first: BTreeMap<String, u64> = BTreeMap::new();
    for game in &games {
        let mut pos = v.start();
        let mut count = |pos: &Position| {
            positions += 1;
            for cell in g.cells() {
                if v.stack(pos, cell).is_some() {
                    *occupied.entry(g.name(cell)).or_default() += 1;
                }
            }
        };
        let winner = game.stats.winner.and_then(|w| v.player_by_letter(w));
        let mut winning = None;
        for (k, text) in game.moves.iter().enumerate() {
            if moves.len() == k {
                moves.push(Vec::new());
                stones.iter_mut().for_each(|s| s.push(Vec::new()));
            }
            moves[k].push(v.legal_moves(&pos).len() as i32);
            for (p, s) in stones.iter_mut().enumerate() {
                s[k].push(v.stone_count(&pos, p) as i32);
            }
            count(&pos);
            let m = v.parse_move(&pos, text).unwrap();
            if Some(v.turn(&pos)) == winner {
                winning = Some(m);
            }
            pos = v.play(&pos, m);
        }
        count(&pos);
        *first.entry(game.moves[0].clone()).or_default() += 1;
        if let (Some(w), Some(m)) = (winner, winning) {
            let cell = *v.move_cells(m).last().unwrap();
            *won_at[w].entry(g.name(cell)).or_default() += 1;
        }
    }
    // Games going at each ply; the bands while at least MIN_GOING are.
    assert_eq!(
        c.going,
        moves.iter().map(|m| m.len() as u64).collect::<Vec<_>>()
    );
    let shown = c.moves.median.len();
    assert!(shown > 1 && c.going[shown - 1] >= MIN_GOING, "{c:?}");
    assert!(shown == c.going.len() || c.going[shown] < MIN_GOING);
    // Nearest rank, written out: the value at rank ⌈q·n⌉ of the sorted.
    let quartile = |values: &[i32], q: f64| {
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        sorted[((q * sorted.len() as f64).ceil() as usize).max(1) - 1]
    };
    let band = |values: &[Vec<i32>]| Band {
        p25: values[..shown].iter().map(|v| quartile(v, 0.25)).collect(),
        median: values[..shown].iter().map(|v| quartile(v, 0.5)).collect(),
        p75: values[..shown].iter().map(|v| quartile(v, 0.75)).collect(),
    };
    assert_eq!(c.moves, band(&moves));
    for (p, s) in stones.iter().enumerate() {
        assert_eq!(c.material[p], band(s), "player {p}");
    }
    // Every game starts from the same position: one score at ply 0.
    assert_eq!(c.score.p25[0], c.score.p75[0]);
    assert_eq!(c.score.median.len(), shown);
    assert!(
        (0..shown)
            .all(|k| c.score.p25[k] <= c.score.median[k] && c.score.median[k] <= c.score.p75[k])
    );
    assert!(
        c.answer
            .contains(&format!("Over the {} games", games.len())),
        "{}",
        c.answer
    );

    // The board.
    assert_eq!(b.positions, positions);
    for (i, cell) in b.cells.iter().enumerate() {
        assert_eq!(
            b.occupied[i],
            occupied.get(cell).copied().unwrap_or(0),
            "{cell}"
        );
        let by: u64 = b.occupied_by.iter().map(|o| o[i]).sum();
        assert_eq!(by, b.occupied[i], "{cell}: one stack a cell");
        for (theirs, ours) in b.won_at.iter().zip(&won_at) {
            assert_eq!(theirs[i], ours.get(cell).copied().unwrap_or(0), "{cell}");
        }
    }
    for p in 0..players {
        let wins = level.report.by_colour[&v.letter(p).to_string()].wins;
        assert_eq!(b.wins[p], wins);
        assert_eq!(b.won_at[p].iter().sum::<u64>(), wins, "no splits here");
    }
    let played: BTreeMap<String, u64> = b
        .first_moves
        .iter()
        .map(|f| (f.first.clone(), f.games))
        .collect();
    assert_eq!(played, first);
    assert!(b.first_moves.windows(2).all(|w| w[0].games >= w[1].games));
    let first_wins: u64 = b.first_moves.iter().map(|f| f.first_wins).sum();
    assert_eq!(first_wins, level.report.first_player_advantage.wins);

    // The endings, against each level's own counts.
    let e = r.endings.as_ref().expect("endings");
    assert_eq!(e.levels.len(), levels.len());
    for (l, ends) in levels.iter().zip(&e.levels) {
        assert_eq!(ends.level, l.level);
        assert_eq!(ends.games, l.report.games);
        let reasons: BTreeMap<String, u64> = ends
            .endings
            .iter()
            .map(|x| (x.reason.clone(), x.games))
            .collect();
        assert_eq!(reasons, l.report.end_reasons, "{}", l.level);
        for x in &ends.endings {
            assert_eq!(x.wins.iter().sum::<u64>() + x.draws, x.games, "{x:?}");
        }
        for p in 0..players {
            let wins: u64 = ends.endings.iter().map(|x| x.wins[p]).sum();
            assert_eq!(wins, l.report.by_colour[&v.letter(p).to_string()].wins);
        }
        let draws: u64 = ends.endings.iter().map(|x| x.draws).sum();
        assert_eq!(draws, l.report.draws.count);
    }
}

/// Plain AND-OR search: whether the mover of `pos`, playing `m`, wins
/// within `n` of its moves whatever the replies.
fn move_wins_within(v: &Variant, pos: &Position, m: Move, n: u32) -> bool {
    let me = v.turn(pos);
    let next = v.play(pos, m);
    if let Some(o) = v.outcome(&next) {
        return o.winner == Some(me);
    }
    n > 1
        && v.legal_moves(&next).into_iter().all(|r| {
            let after = v.play(&next, r);
            match v.outcome(&after) {
                Some(o) => o.winner == Some(me),
                None => v
                    .legal_moves(&after)
                    .into_iter()
                    .any(|m2| move_wins_within(v, &after, m2, n - 1)),
            }
        })
}

#[test]
fn train_gives_a_variant_without_one_a_trained_evaluation_kept_for_a_resume() {
    let source = include_str!("../../../../variants/sweeps/standard-small.mg");
    let text = source.replace("variant \"standard-small\"", "variant \"trained-small\"");
    let v = Variant::compile(&text).unwrap();
    assert_eq!(murus_ai::Evaluation::for_variant(&v).id(), "generic");
    let mut config = ReportConfig::new(Budget::Quick, 3, 2);
    config.train = true;
    config.train_positions = Some(2_000);
    let dir = std::env::temp_dir().join(format!("murus-designer-train-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let r = run_report(&v, "trained.mg", &config, Some((&dir, Mode::New)), &()).unwrap();
    let training = r.training.as_deref().expect("trained");
    assert!(training.contains("2 000 positions"), "{training}");
    let kept = dir.join("train/trained.eval").is_file();
    let none = dir.join("train/none-kept").is_file();
    assert!(kept != none, "one outcome kept");
    if kept {
        assert_ne!(
            r.rules.evaluation, "generic",
            "the bots used the trained one"
        );
        assert!(r.command.ends_with("--train"));
    }
    // The evaluation went to the report's bots with the variant it ran
    // on, not into the process: the same rules elsewhere are untouched.
    assert_eq!(murus_ai::Evaluation::for_variant(&v).id(), "generic");
    // A resume reuses it: the same report.
    let again = run_report(&v, "trained.mg", &config, Some((&dir, Mode::Resume)), &()).unwrap();
    assert_eq!(without_timing(again), without_timing(r));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Where the rules decide a game at the ply cap, the report solves the game
/// with its cap and says so: 4×4 is the Romans' without it, the Gauls'
/// when they win every game that reaches 6 plies.
#[test]
fn the_report_solves_a_game_its_cap_decides_with_the_cap() {
    let (_, r) = crate::util::capped_report();
    let solved = r.solved.as_ref().unwrap();
    assert!(solved.with_cap, "{solved:?}");
    assert_eq!(solved.ply_cap, Some(6));
    assert_eq!((solved.value.as_str(), solved.winner), ("loss", Some('g')));
    assert!(
        solved
            .answer
            .starts_with("Solved: Gauls win with perfect play to the ply cap of 6"),
        "{}",
        solved.answer
    );
    assert!(solved.command.ends_with("--with-cap"), "{}", solved.command);
}

/// A report played in shards (here three, with a comparison, which is
/// sharded alike) and merged is the report of one run, but for the
/// timings; a merge that lacks a shard, or mixes reports, is refused.
#[test]
fn a_report_in_shards_merges_into_the_report_of_one_run() {
    use murus_lab::designer::{merge_report, run_report_shard};
    use murus_lab::folder::Shard;

    let v = four_by_four();
    let source = include_str!("../../../../variants/sweeps/standard-small.mg");
    let three = Variant::compile_with(source, &[("files".to_string(), 3)]).unwrap();
    let mut config = ReportConfig::new(Budget::Quick, 7, 2);
    config.compare = Some((three, "small.mg --set files=3".to_string()));
    let base = std::env::temp_dir().join(format!("murus-shards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let whole = run_report(
        &v,
        "small.mg",
        &config,
        Some((&base.join("whole"), Mode::New)),
        &(),
    )
    .unwrap();
    let shards: Vec<std::path::PathBuf> = (1..=3).map(|k| base.join(format!("s{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let shard = Shard::new(k as u64 + 1, 3).unwrap();
        run_report_shard(&v, "small.mg", &config, shard, (dir, Mode::New), &()).unwrap();
        assert!(
            !dir.join("report.json").exists(),
            "a shard writes no report"
        );
    }
    // Given in any order.
    let given = [shards[2].clone(), shards[0].clone(), shards[1].clone()];
    let merged_dir = base.join("merged");
    let merged = merge_report(
        &v,
        "small.mg",
        &config,
        &given,
        (&merged_dir, Mode::New),
        &(),
    )
    .unwrap();
    assert!(merged.comparison.is_some());
    assert!(merged.curves.is_some() && merged.board.is_some() && merged.endings.is_some());
    assert_eq!(
        without_timing(merged.clone()),
        without_timing(whole.clone())
    );
    let written = std::fs::read_to_string(merged_dir.join("report.json")).unwrap();
    assert_eq!(
        written,
        serde_json::to_string_pretty(&merged).unwrap() + "\n"
    );
    // The ladder's matches were split: each shard played a third of each
    // block.
    let ladder = &whole.ladder.as_ref().unwrap().ladder;
    let step = &ladder.steps[0];
    let name = format!("{}-vs-{}", step.gap.upper, step.gap.lower).replace(':', "-");
    let block = shards[0].join("ladder").join(name).join("block-1");
    let (_, games) = murus_lab::folder::read_outputs(&block).unwrap();
    let played = games.len() as u64;
    assert!(played > 0 && played < ladder.block, "{played}");

    // A shard missing: refused, naming it, and nothing written.
    let e = merge_report(
        &v,
        "small.mg",
        &config,
        &shards[..2],
        (&base.join("partial"), Mode::New),
        &(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("shard 3/3 is missing"), "{e}");
    assert!(!base.join("partial").join("report.json").exists());
    // The shards of another seed's report: refused, naming the seed.
    let other = ReportConfig {
        seed: 8,
        ..config.clone()
    };
    let e = merge_report(
        &v,
        "small.mg",
        &other,
        &shards,
        (&base.join("other"), Mode::New),
        &(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("seed"), "{e}");
    // More shards than the smallest stage has games, and training, refused.
    let e = run_report_shard(
        &v,
        "small.mg",
        &config,
        Shard::new(1, 1000).unwrap(),
        (&base.join("many"), Mode::New),
        &(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("at most"), "{e}");
    let training = ReportConfig {
        train: true,
        ..config.clone()
    };
    let e = run_report_shard(
        &v,
        "small.mg",
        &training,
        Shard::new(1, 2).unwrap(),
        (&base.join("train"), Mode::New),
        &(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("cannot be sharded"), "{e}");
    let _ = std::fs::remove_dir_all(&base);
}
