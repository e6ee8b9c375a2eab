//! The Lab's "Balance" and "Compare variants" modes (issue 13): a balance
//! check run, cancelled, reopened and resumed after a restart; rules files
//! and a sweep's results side by side with the best one picked out; and
//! messages that never move the widgets below them.

use egui::Rect;
use egui_kittest::kittest::{NodeT, by};
use murus_lab::balance::{self, BalanceConfig, BalanceReport, Stopping};
use murus_studio::lab::checks::CheckState;
use murus_studio::lab::{BalanceSaved, LabMode};

use super::*;

fn running(h: &Harness<'_, StudioApp>) -> bool {
    h.state().lab.is_running()
}

fn shown_report(h: &Harness<'_, StudioApp>) -> Option<BalanceReport> {
    h.state().lab.balance.report().cloned()
}

fn message(h: &Harness<'_, StudioApp>) -> Option<String> {
    h.state()
        .lab
        .balance
        .feedback()
        .text()
        .map(ToString::to_string)
}

/// Balance settings for a check of seconds: random play only, a fixed
/// number of games, no skill trace.
pub fn quick(games: u64) -> BalanceSaved {
    BalanceSaved {
        levels: vec!["random".into()],
        fixed_games: true,
        games,
        openings: 2,
        skill_games: 0,
        seed: 3,
        ..BalanceSaved::default()
    }
}

/// The first player's rate at the first level of `r`, and its interval, as
/// a table shows them: `47.5% [45.1, 49.9]`.
fn first_player(r: &BalanceReport) -> String {
    let f = &r.levels[0].report.first_player_advantage;
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        f.rate * 100.0,
        f.ci95[0] * 100.0,
        f.ci95[1] * 100.0
    )
}

/// The Lab in Balance mode, switched to by its button, on `variant`.
fn balance_lab(variant: &str) -> Harness<'static, StudioApp> {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    h.get_by_label("Balance").click();
    steps(&mut h, 2);
    assert_eq!(h.state().lab.model.saved().mode, LabMode::Balance);
    h.state_mut().lab.edit(|s| s.variant = variant.into());
    steps(&mut h, 1);
    h
}

/// The Lab in Balance mode on `small`, set for a check of `games` games at
/// random and easy play, with their skill match of `skill_games` games.
fn two_levels(games: u64, skill_games: u64) -> Harness<'static, StudioApp> {
    let mut h = balance_lab("small");
    h.state_mut().lab.edit(|s| {
        s.balance = BalanceSaved {
            levels: vec!["random".into(), "easy".into()],
            skill_games,
            ..quick(games)
        };
    });
    steps(&mut h, 1);
    h
}

/// Starts a check of `games` games a level ([`quick`]), waits until the
/// panel shows it playing games (the stage and the games arrive from the
/// check's thread: on a loaded machine that may take more than a few
/// frames), and cancels it: the report of the games it played.
fn cut_check(h: &mut Harness<'static, StudioApp>, games: u64) -> BalanceReport {
    h.state_mut().lab.edit(|s| s.balance = quick(games));
    steps(h, 1);
    h.get_by_label("Run balance check").click();
    steps(h, 3);
    assert!(running(h), "the check started: {:?}", message(h));
    until(h, 60, "the panel to show games played", |h| {
        let status = h.state().lab.balance.status();
        status.is_some_and(|s| !s.text.contains(": 0 / ") && shows(h, &s.text))
    });
    stop_check(h);
    shown_report(h).unwrap_or_else(|| panic!("no report of the games played: {:?}", message(h)))
}

/// Clicks Resume check: the check shown goes on.
fn resume_check(h: &mut Harness<'static, StudioApp>) {
    h.get_by_label("Resume check").click();
    steps(h, 4);
    assert!(running(h), "the check goes on: {:?}", message(h));
}

/// Clicks Cancel and waits for the check to stop.
fn stop_check(h: &mut Harness<'static, StudioApp>) {
    h.get_by_label("Cancel").click();
    until(h, 60, "the check to stop", |h| !running(h));
    steps(h, 3);
}

/// The Lab in Balance mode on `small`, after a check of `games` games a
/// level ([`quick`]): it is the newest in the history.
fn checked(games: u64) -> Harness<'static, StudioApp> {
    let mut h = balance_lab("small");
    h.state_mut().lab.edit(|s| s.balance = quick(games));
    steps(&mut h, 1);
    run_check(&mut h);
    h
}

fn run_check(h: &mut Harness<'static, StudioApp>) {
    h.get_by_label("Run balance check").click();
    steps(h, 2);
    until(h, 120, "the balance check", |h| !running(h));
    steps(h, 2);
}

#[test]
fn a_balance_check_at_random_play_shows_its_table_chart_and_verdict() {
    let mut h = balance_lab("small");
    // Random play only: untick the other default levels by hand.
    for level in ["easy", "medium", "hard"] {
        h.get_by_label(level).click();
        steps(&mut h, 1);
    }
    h.get_by_label("Fixed number of games").click();
    steps(&mut h, 1);
    {
        let b = &h.state().lab.model.saved().balance;
        assert_eq!(b.settings().levels, ["random"]);
        assert!(b.fixed_games);
    }
    h.state_mut().lab.edit(|s| {
        s.balance.games = 40;
        s.balance.skill_games = 0;
    });
    steps(&mut h, 1);
    run_check(&mut h);
    assert_eq!(
        message(&h).as_deref(),
        Some("balance check finished: 40 games at 1 level")
    );
    let r = shown_report(&h).expect("a report");
    assert_eq!(r.levels.len(), 1);
    assert_eq!(r.levels[0].report.games, 40);
    // The table: its header and the level's row with the first player's
    // rate and interval as the report has them.
    for header in ["Level", "First player [95%]", "Romans", "Gauls", "Ply cap"] {
        assert!(
            h.query_by_label(header).is_some(),
            "the table has {header:?}"
        );
    }
    let first = first_player(&r);
    // (The first player's colour shows the same figures.)
    assert!(
        h.query_all(by().label(&first)).count() >= 2,
        "the table shows {first}"
    );
    // The chart, and the verdict sentence by sentence.
    assert!(
        h.query_by_label_contains("First player's win rate by level: random ")
            .is_some()
    );
    assert!(!r.verdict.is_empty());
    for s in &r.verdict {
        assert!(h.query_by_label(s).is_some(), "the verdict shows {s:?}");
    }
    assert!(r.verdict[0].starts_with("At random, the first player wins "));
    // The game-quality metrics, a row each (murus-lab's order).
    assert!(h.query_by_label("Game quality").is_some());
    let metrics = r.levels[0].report.metrics.rows();
    assert_eq!(metrics[0], ("measured", "40".to_string()));
    for name in ["Measured", "Completion", "Drama", "Board coverage"] {
        assert!(
            h.query_by_label(name).is_some(),
            "the metrics show {name:?}"
        );
    }
    // The check is kept and listed (the heading says the same settings).
    let kept = h.state().lab.balance.history()[0].summary();
    assert!(
        kept.starts_with("small: random, 40 games a level, "),
        "{kept}"
    );
    assert!(h.query_by_label(&kept).is_some());
    assert!(
        h.query_by_label("small: random, 40 games a level, 4 opening plies, seed 1")
            .is_some(),
        "the report's heading"
    );
}

#[test]
fn a_balance_check_can_be_cancelled_and_is_reopened_after_a_restart() {
    let mut h = balance_lab("small");
    let cut = cut_check(&mut h, 100_000);
    assert!(cut.interrupted);
    let played = cut.levels[0].report.games;
    assert!(played < 100_000, "the cancel came before the end");
    assert!(message(&h).unwrap().starts_with("cancelled after "));
    assert!(h.query_by_label_contains("(interrupted)").is_some());
    assert!(
        h.get_by_label("Resume check").rect().is_positive(),
        "the check can go on"
    );
    // A restart: the mode is kept, the user's cancel is not offered as a
    // crash, and the check reopens from the history.
    let saved = h.state_mut().saved();
    drop(h);
    let mut h = harness(StudioApp::from_saved(saved));
    steps(&mut h, 3);
    assert_eq!(h.state().lab.model.saved().mode, LabMode::Balance);
    assert!(h.state().lab.balance.offer().is_none());
    assert!(shown_report(&h).is_none());
    h.get_by_label_contains("small: random, 100 000 games a level, ")
        .click();
    steps(&mut h, 3);
    // Read back from balance.json (serde_json may read a float back a bit
    // off, so the figures are compared, and the file with the report).
    let reopened = shown_report(&h).expect("the reopened report");
    assert!(reopened.interrupted);
    assert_eq!(reopened.levels[0].report.games, played);
    assert_eq!(reopened.verdict, cut.verdict);
    assert_eq!(h.state().lab.balance.rows()[0].first_player, {
        let f = &cut.levels[0].report.first_player_advantage;
        murus_studio::lab::balance::rate_text(f.rate, f.ci95)
    });
    assert_eq!(
        h.state().lab.balance.history()[0].state,
        CheckState::Interrupted
    );
    assert!(h.query_by_label("Resume check").is_some());
}

#[test]
fn a_balance_check_cut_short_by_a_crash_is_offered_after_a_restart_and_resumes_to_the_full_report()
{
    let mut h = two_levels(30, 10);
    run_check(&mut h);
    let whole = shown_report(&h).expect("a report");
    assert_eq!(whole.skill.len(), 1, "a skill match between the levels");
    assert!(
        h.query_by_label("easy over random").is_some(),
        "the skill trace"
    );
    let folder = h.state().lab.balance.shown_folder().unwrap().to_path_buf();
    // What a kill in the middle of level easy leaves.
    for f in ["balance.json", "balance.csv", "balance.svg"] {
        std::fs::remove_file(folder.join(f)).unwrap();
    }
    std::fs::remove_dir_all(folder.join("skill")).unwrap();
    let easy = folder.join("levels/easy");
    for f in ["report.json", "report.csv", "report.svg"] {
        std::fs::remove_file(easy.join(f)).unwrap();
    }
    let games = std::fs::read_to_string(easy.join("games.jsonl")).unwrap();
    let kept: Vec<&str> = games.lines().take(11).collect();
    std::fs::write(easy.join("games.jsonl"), kept.join("\n") + "\n").unwrap();
    let mut saved = h.state_mut().saved();
    saved.tab = Tab::Play;
    drop(h);
    let mut h = harness(StudioApp::from_saved(saved));
    steps(&mut h, 3);
    // Whatever the panel, the top bar says so.
    h.get_by_label("Balance check interrupted").click();
    steps(&mut h, 2);
    assert_eq!(h.state().tab, Tab::Lab);
    assert!(
        h.query_by_label_contains(
            "A balance check of small (random,easy, 30 games a level) never ended."
        )
        .is_some()
    );
    // The banner's Resume (the setup's "Resume check" goes on with the
    // check shown).
    h.get_by_label("Resume").click();
    steps(&mut h, 2);
    until(&mut h, 120, "the resumed check", |h| !running(h));
    steps(&mut h, 2);
    assert_eq!(shown_report(&h), Some(whole.clone()));
    assert_eq!(
        std::fs::read_to_string(folder.join("balance.json")).unwrap(),
        whole.to_json()
    );
    assert!(h.query_by_label_contains("never ended").is_none());
}

/// Writes `small.mg` renamed `name` (and `files 6` made `files N` when
/// given) to `dir`.
fn variant_file(dir: &std::path::Path, name: &str, source: &str) -> std::path::PathBuf {
    let path = dir.join(format!("{name}.mg"));
    std::fs::write(&path, source).unwrap();
    path
}

fn small_named(name: &str) -> String {
    let small = std::fs::read_to_string(root().join("variants/small.mg")).unwrap();
    let renamed = small.replacen("variant \"small\"", &format!("variant \"{name}\""), 1);
    assert_ne!(renamed, small);
    renamed
}

#[test]
fn compare_puts_rules_files_side_by_side_highlights_the_best_and_reuses_checks() {
    let dir = scratch_dir("compare-variants");
    variant_file(&dir, "alpha", &small_named("alpha"));
    let standard = std::fs::read_to_string(root().join("variants/standard.mg")).unwrap();
    variant_file(
        &dir,
        "beta",
        &standard.replacen("variant \"standard\"", "variant \"beta\"", 1),
    );
    variant_file(&dir, "broken", "variant \"broken\"\nboard rect 0 x 0\n");
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    h.get_by_label("Compare variants").click();
    steps(&mut h, 2);
    h.state_mut().lab.edit(|s| {
        s.variants_dir = dir.display().to_string();
        s.balance = quick(200);
    });
    steps(&mut h, 2);
    for f in ["alpha.mg", "beta.mg", "broken.mg"] {
        h.get_by_label(f).click();
        steps(&mut h, 1);
    }
    assert_eq!(h.state().lab.model.saved().compare.files.len(), 3);
    h.get_by_label("Compare").click();
    steps(&mut h, 2);
    until(&mut h, 120, "the comparison", |h| !running(h));
    steps(&mut h, 3);
    let cols = h.state().lab.compare.columns().to_vec();
    assert_eq!(
        cols.iter().map(|c| c.label.as_str()).collect::<Vec<_>>(),
        ["alpha.mg", "beta.mg", "broken.mg"]
    );
    // The file that does not compile says why; the others were checked.
    assert!(cols[2].report.is_none());
    assert!(
        h.query_by_label_contains("not checked: broken.mg:")
            .is_some(),
        "the broken file's column says why"
    );
    // Ranked as murus sweep ranks: tier, then fitness.
    let score = |i: usize| {
        let a = murus_lab::sweep::assess(cols[i].report.as_ref().unwrap());
        (a.tier, a.fitness)
    };
    assert_ne!(score(0), score(1), "the two variants differ");
    let (best, other) =
        if score(0).0 > score(1).0 || (score(0).0 == score(1).0 && score(0).1 >= score(1).1) {
            (0, 1)
        } else {
            (1, 0)
        };
    let best_label = format!("{} (best)", cols[best].label);
    assert!(
        h.query_by_label(&best_label).is_some(),
        "{best_label} is highlighted"
    );
    // The other column's heading (beside the file's checkbox), unmarked.
    assert!(
        h.query_all(
            by().label(&cols[other].label)
                .role(egui::accesskit::Role::Label)
        )
        .next()
        .is_some(),
        "the other column's heading"
    );
    assert!(h.query_by_label_contains("(best)").is_some());
    assert!(
        h.query_by_label_contains(&format!("Best: {}: ", cols[best].label))
            .is_some()
    );
    for i in [0, 1] {
        let text = first_player(cols[i].report.as_ref().unwrap());
        assert!(
            h.query_all(by().label(&text)).next().is_some(),
            "column {i} shows {text}"
        );
    }
    assert!(h.query_by_label("First player, random").is_some());
    // The same files with the same settings again: nothing is played, the
    // kept checks stand for them.
    h.get_by_label("Compare").click();
    steps(&mut h, 3);
    until(&mut h, 30, "the second comparison", |h| !running(h));
    let again = h.state().lab.compare.columns().to_vec();
    assert_eq!(again[0].report, cols[0].report);
    assert_eq!(again[1].report, cols[1].report);
    assert!(
        h.query_all_by_label_contains("a check kept from ").count() >= 2,
        "the checks are reused"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// A sweep's results as `murus sweep` writes them, from two real checks.
fn sweep_file(dir: &std::path::Path) -> std::path::PathBuf {
    use murus_lab::sweep::{SweepReport, SweepRow, SweepSpec, Tier};
    let check = |games: u64, seed: u64| {
        let v = murus_engine::Variant::builtin("small").unwrap();
        let config = BalanceConfig {
            levels: balance::parse_levels("random").unwrap(),
            stopping: Stopping::Games(games),
            openings: 0,
            seed,
            threads: 1,
            shard: None,
            skill_games: 0,
            max_plies: None,
            book: None,
        };
        balance::run_balance(&v, &config, None, &()).unwrap()
    };
    let row = |index: u64, files: i64, rank: u64, tier: Tier, fitness: f64| SweepRow {
        index,
        values: [("files".to_string(), files)].into_iter().collect(),
        rank,
        tier,
        fitness,
        edge: 100.0 - fitness,
        plies_outside: 0.0,
        flags: if tier == Tier::Playable {
            Vec::new()
        } else {
            vec!["the first player's interval excludes the fair rate".into()]
        },
        balance: check(20, index + 1),
    };
    let report = SweepReport {
        spec: SweepSpec {
            format: murus_lab::sweep::FORMAT,
            variant: murus_lab::VariantId {
                name: "small".into(),
                source_sha256: "00".into(),
                rules_key: None,
            },
            engine_version: String::new(),
            parameters: vec!["files".into()],
            values: vec![vec![5, 6]],
            combinations: 2,
            levels: vec!["random".into()],
            stopping: Stopping::Games(20),
            openings: 0,
            seed: 1,
            skill_games: 0,
            max_plies: None,
            shard: None,
            train: None,
        },
        // Listed worst first: the view orders by rank.
        rows: vec![
            row(0, 5, 2, Tier::Unbalanced, 81.0),
            row(1, 6, 1, Tier::Playable, 96.5),
        ],
        skipped: Vec::new(),
        interrupted: false,
        missing_shards: Vec::new(),
    };
    let path = dir.join("sweep.json");
    std::fs::write(&path, serde_json::to_string_pretty(&report).unwrap()).unwrap();
    path
}

/// Loads the sweep's results at `path` through the panel's Load sweep.
fn load_sweep(h: &mut Harness<'static, StudioApp>, path: &std::path::Path) {
    h.state_mut()
        .lab
        .edit(|s| s.compare.sweep = path.display().to_string());
    steps(h, 1);
    h.get_by_label("Load sweep").click();
    steps(h, 3);
}

#[test]
fn a_sweeps_results_load_ranked_and_a_corrupt_file_keeps_the_columns_shown() {
    let dir = scratch_dir("sweep");
    let good = sweep_file(&dir);
    let corrupt = dir.join("corrupt").join("sweep.json");
    std::fs::create_dir_all(corrupt.parent().unwrap()).unwrap();
    std::fs::write(&corrupt, "{\"rows\": [1, 2").unwrap();
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    h.get_by_label("Compare variants").click();
    steps(&mut h, 2);
    load_sweep(&mut h, &good);
    let labels: Vec<String> = h
        .state()
        .lab
        .compare
        .columns()
        .iter()
        .map(|c| c.label.clone())
        .collect();
    assert_eq!(labels, ["files=6", "files=5"], "best first");
    assert!(h.query_by_label("files=6 (best)").is_some());
    assert!(h.query_by_label("files=5").is_some());
    assert!(h.query_by_label("1: playable").is_some());
    assert!(h.query_by_label("2: unbalanced").is_some());
    assert!(h.query_by_label("96.5").is_some());
    assert!(
        h.query_by_label_contains("Best: files=6: playable, fitness 96.5 ")
            .is_some()
    );
    // A corrupt file: a clear message, and the columns stay.
    let before = h.state().lab.compare.columns().to_vec();
    load_sweep(&mut h, &corrupt);
    assert!(
        h.query_by_label_contains("sweep.json:1: not a sweep's report: ")
            .is_some(),
        "the error is shown"
    );
    assert_eq!(h.state().lab.compare.columns(), before.as_slice());
    assert!(h.query_by_label("files=6 (best)").is_some());
    std::fs::remove_dir_all(dir).unwrap();
}

/// Messages, errors and the progress bar have room kept for them: the
/// buttons and fields below stay put while they come and go.
#[test]
fn balance_messages_and_progress_do_not_move_the_widgets_below_them() {
    let mut h = balance_lab("small");
    steps(&mut h, 2);
    let at = |h: &Harness<'_, StudioApp>| -> Vec<Rect> {
        vec![
            field(h, "Seed").rect(),
            h.get_by_label("Run balance check").rect(),
            h.get_by_label("Balance checks").rect(),
        ]
    };
    let before = at(&h);
    // An error under the settings: no level ticked.
    for level in ["random", "easy", "medium", "hard"] {
        h.get_by_label(level).click();
        steps(&mut h, 1);
    }
    assert!(h.query_by_label("choose at least one level").is_some());
    assert_eq!(at(&h), before, "the settings' error moved the widgets");
    // A refused start: its message.
    h.get_by_label("Run balance check").click();
    steps(&mut h, 2);
    assert!(message(&h).is_some());
    assert_eq!(at(&h), before, "the refusal moved the widgets");
    // Switching the stopping rule disables fields, it does not hide them.
    h.get_by_label("Fixed number of games").click();
    steps(&mut h, 2);
    assert_eq!(at(&h), before, "the stopping rule moved the widgets");
    // A check's progress and its end.
    h.get_by_label("random").click();
    h.state_mut().lab.edit(|s| s.balance.games = 20);
    steps(&mut h, 2);
    run_check(&mut h);
    assert!(message(&h).unwrap().starts_with("balance check finished"));
    assert_eq!(at(&h), before, "the check moved the widgets");
}

#[test]
fn compare_messages_do_not_move_the_sweep_controls() {
    let dir = scratch_dir("compare-layout");
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    h.get_by_label("Compare variants").click();
    h.state_mut()
        .lab
        .edit(|s| s.variants_dir = dir.display().to_string());
    h.state_mut().lab.model.refresh_files();
    steps(&mut h, 3);
    let at = |h: &Harness<'_, StudioApp>| {
        [
            h.get_by_label("Compare").rect(),
            h.get_by_label("Load sweep").rect(),
            field(h, "Sweep file").rect(),
        ]
    };
    let before = at(&h);
    h.get_by_label("Compare").click();
    steps(&mut h, 2);
    assert_eq!(
        h.state().lab.compare.feedback().text(),
        Some("choose two or more rules files to compare")
    );
    assert_eq!(at(&h), before, "the refusal moved the widgets");
    load_sweep(&mut h, &dir.join("missing.json"));
    assert!(
        h.query_by_label_contains("missing.json: ").is_some(),
        "the missing file is named"
    );
    assert_eq!(at(&h), before, "the sweep's error moved the widgets");
    std::fs::remove_dir_all(dir).unwrap();
}

// ---- Regression tests of issue 22 ----

/// The settings of a check as its folder keeps them.
fn shown_settings(h: &Harness<'_, StudioApp>) -> murus_studio::lab::checks::CheckSettings {
    h.state()
        .lab
        .balance
        .shown()
        .and_then(|c| c.settings.clone())
        .expect("a check shown, with its settings")
}

/// The value a number field shows.
fn field_value(h: &Harness<'_, StudioApp>, label: &str) -> f64 {
    field(h, label)
        .accesskit_node()
        .numeric_value()
        .unwrap_or_else(|| panic!("{label} shows no number"))
}

/// Issue 22: an opened balance check showed other settings than its own.
#[test]
fn an_opened_balance_check_shows_its_own_settings() {
    let mut h = checked(20);
    let first = h.state().lab.balance.history()[0].clone();
    // Other settings for the next check, and another check with them.
    h.state_mut().lab.edit(|s| {
        s.balance = BalanceSaved {
            levels: vec!["random".into(), "easy".into()],
            seed: 7,
            openings: 5,
            ..quick(40)
        };
    });
    steps(&mut h, 1);
    run_check(&mut h);
    assert_eq!(field_value(&h, "Seed"), 7.0);
    // The first check, opened from the list: the setup shows its settings.
    h.get_by_label(&first.summary()).click();
    steps(&mut h, 3);
    assert_eq!(
        h.state().lab.balance.shown_folder(),
        Some(first.folder.as_path())
    );
    let own = shown_settings(&h);
    assert_eq!(own, quick(20).settings());
    assert_eq!(h.state().lab.model.saved().balance.settings(), own);
    assert_eq!(field_value(&h, "Seed"), 3.0);
    assert_eq!(field_value(&h, "Games a level"), 20.0);
    assert_eq!(field_value(&h, "Opening plies"), 2.0);
    let easy = h.get_by_label("easy").accesskit_node().toggled();
    assert_eq!(
        easy,
        Some(egui::accesskit::Toggled::False),
        "easy is not one of its levels"
    );
    // Its heading says the same.
    assert!(
        h.query_by_label("small: random, 20 games a level, 2 opening plies, seed 3")
            .is_some(),
        "the report's heading"
    );
}

/// Issue 22: a balance check resumed after a cancel hid the table of what
/// it had played until it ended.
#[test]
fn a_resumed_balance_check_keeps_its_partial_table_in_sight() {
    let mut h = balance_lab("small");
    let cut = cut_check(&mut h, 1_000_000);
    let row = h.state().lab.balance.rows()[0].first_player.clone();
    assert!(
        h.query_all(by().label(&row)).next().is_some(),
        "the table shows {row}"
    );
    resume_check(&mut h);
    // Read back from balance.json (serde_json may read a float back a bit
    // off): the games and the verdict.
    let kept = shown_report(&h).expect("the partial report is kept");
    assert_eq!(kept.levels[0].report.games, cut.levels[0].report.games);
    assert_eq!(kept.verdict, cut.verdict);
    assert!(
        h.query_all(by().label(&row)).next().is_some(),
        "the table of what was played stays while the check goes on"
    );
    assert!(h.query_by_label("Level").is_some(), "the table's header");
    stop_check(&mut h);
}

/// Issue 22, layout: a check that started, went on or ended pushed the
/// checks listed before it down.
#[test]
fn nothing_in_balance_moves_under_the_pointer_when_a_check_starts_goes_on_or_ends() {
    let mut h = checked(20);
    let first = h.state().lab.balance.history()[0].summary();
    h.state_mut().lab.edit(|s| s.balance = quick(1_000_000));
    steps(&mut h, 3);
    let at = |h: &Harness<'_, StudioApp>| -> Vec<egui::Pos2> {
        let start = h
            .query_by_label("Run balance check")
            .or_else(|| h.query_by_label("Cancel"))
            .map(|n| n.rect())
            .expect("the start button or Cancel");
        vec![
            h.get_by_label(&first).rect().min,
            start.min,
            field(h, "Seed").rect().min,
            h.get_by_label("Balance checks").rect().min,
        ]
    };
    let before = at(&h);
    h.get_by_label("Run balance check").click();
    steps(&mut h, 4);
    assert!(running(&h));
    assert_eq!(at(&h), before, "the check's start moved them");
    steps(&mut h, 20);
    assert_eq!(at(&h), before, "the check's progress moved them");
    stop_check(&mut h);
    assert_eq!(at(&h), before, "the check's end moved them");
}

/// Issue 22: the views cleared a message about old settings by calling
/// the model by hand after each edit; the settings are the model's now,
/// and any edit through the panel clears the messages about them.
#[test]
fn a_settings_edit_in_balance_or_compare_clears_the_message_about_the_old_ones() {
    let mut h = balance_lab("small");
    h.state_mut().lab.edit(|s| s.balance.levels.clear());
    steps(&mut h, 2);
    h.get_by_label("Run balance check").click();
    steps(&mut h, 2);
    assert_eq!(message(&h).as_deref(), Some("choose at least one level"));
    // Another setting than the one at fault: the message is about settings
    // that are no longer there.
    let fixed = h.state().lab.model.saved().balance.fixed_games;
    h.get_by_label("Fixed number of games").click();
    steps(&mut h, 2);
    assert_ne!(h.state().lab.model.saved().balance.fixed_games, fixed);
    assert_eq!(message(&h), None, "the refusal outlived its settings");
    // Compare, likewise.
    h.get_by_label("Compare variants").click();
    steps(&mut h, 2);
    h.get_by_label("Compare").click();
    steps(&mut h, 2);
    let compare = |h: &Harness<'_, StudioApp>| {
        h.state()
            .lab
            .compare
            .feedback()
            .text()
            .map(ToString::to_string)
    };
    assert_eq!(
        compare(&h).as_deref(),
        Some("choose two or more rules files to compare")
    );
    h.get_by_label("random").click();
    steps(&mut h, 2);
    assert_eq!(compare(&h), None);
}

// ---- Regression tests of issue 38 ----

/// The top of the shown check's rate chart.
fn chart_top(h: &Harness<'_, StudioApp>) -> f32 {
    h.get_by_label_contains("First player's win rate by level")
        .rect()
        .min
        .y
}

/// Issue 38: a resumed balance check's title grew ("… (going on: the
/// figures of the games played before)"), took another line and pushed the
/// chart, the table and the verdict down; they stay where they were, in a
/// window of any width.
#[test]
fn a_resumed_balance_checks_title_does_not_move_what_is_below_it() {
    for width in [1280.0, 1100.0, 960.0] {
        let mut a = app(Tab::Lab);
        a.lab.edit(|s| {
            s.mode = LabMode::Balance;
            s.variant = "small".into();
        });
        let mut h = Harness::builder()
            .with_size([width, 860.0])
            .build_eframe(move |_cc| a);
        steps(&mut h, 3);
        cut_check(&mut h, 1_000_000);
        let before = chart_top(&h);
        resume_check(&mut h);
        assert_eq!(
            chart_top(&h),
            before,
            "{width} wide: the resumed check's title moved the chart"
        );
        stop_check(&mut h);
        assert_eq!(
            chart_top(&h),
            before,
            "{width} wide: the stopped check's title moved the chart"
        );
    }
}

/// Issue 38: the lab's progress went backwards (the bar started again at
/// each level of a balance check, and the status bar's "lab N%" with it).
/// Through a check of two levels and their skill match, the share shown
/// never goes back, and the stage it names is the one playing: never one
/// that ended before.
#[test]
fn the_lab_progress_never_goes_back_nor_names_a_stage_that_ended() {
    let mut h = two_levels(40, 20);
    h.get_by_label("Run balance check").click();
    steps(&mut h, 1);
    let order = [
        "Level 1/2: random",
        "Level 2/2: easy",
        "Skill match: easy vs random",
    ];
    let (mut last, mut stage, mut seen) = (0.0f32, 0, Vec::new());
    let t = std::time::Instant::now();
    while running(&h) {
        assert!(t.elapsed().as_secs() < 120, "the check ends");
        let fraction = h.state().lab.progress();
        assert!(
            fraction >= last,
            "the bar went back from {last} to {fraction}"
        );
        last = fraction;
        if let Some(s) = h.state().lab.balance.status() {
            assert_eq!(s.fraction, fraction, "the bar and the status bar agree");
            if let Some(i) = order.iter().position(|o| s.text.starts_with(o)) {
                assert!(i >= stage, "{:?} named after {:?}", s.text, order[stage]);
                stage = i;
                if !seen.contains(&i) {
                    seen.push(i);
                }
            }
        }
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(
        seen.len() >= 2,
        "the bar named the stages it went through: {seen:?}"
    );
}
