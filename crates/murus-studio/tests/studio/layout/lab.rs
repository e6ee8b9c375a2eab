//! The Lab's modes under the layout harness: self-play, Balance, Compare
//! and Report, each with its start, Cancel and Resume buttons, through a
//! job's life (it starts, is cancelled, is resumed, ends), a resume
//! offered after a crash, and long titles.

use murus_studio::lab::LabMode;

use super::*;

/// Jobs that go on until cancelled: a million games.
const ENDLESS: u64 = 1_000_000;

fn running(h: &Harness<'_, StudioApp>) -> bool {
    h.state().lab.is_running()
}

/// Waits for the lab's job to stop.
fn stopped(h: &mut H) {
    until(h, 120, "the lab's job to stop", |h| !running(h));
    steps(h, 2);
}

/// Clicks `label` and waits until the job it starts is under way.
fn start(h: &mut H, label: &str) {
    click(h, label);
    until(h, 30, "the job to start", running);
}

/// Writes the rules of `small` under a title of eighty letters and more, as
/// a file of a name as long, and chooses it.
fn long_titled(h: &mut H) {
    let dir = scratch_dir("long-titles");
    let small = murus_engine::Variant::builtin("small").unwrap();
    let long = "a-variant-whose-name-runs-on-and-on-far-longer-than-any-panel-is-wide-by-design";
    let source = small
        .source()
        .replacen("variant \"small\"", &format!("variant \"{long}\""), 1)
        .replacen(
            "title \"Murus Gallicus 7×7\"",
            &format!("title \"{long} and a title\""),
            1,
        );
    assert_ne!(source, small.source(), "the title was replaced");
    let file = dir.join("a-rules-file-whose-name-runs-on-and-on-longer-than-the-list-is-wide.mg");
    std::fs::write(&file, source).unwrap();
    h.state_mut()
        .lab
        .edit(|s| s.variant = file.display().to_string());
    steps(h, 2);
}

/// The Lab on `mode`, on `small`, its jobs of `games` games (a level's, in
/// Balance and Compare).
fn lab(mode: LabMode, games: u64) -> H {
    let mut a = app(Tab::Lab);
    a.lab.edit(|s| {
        s.mode = mode;
        s.variant = "small".into();
        s.bots = vec!["random".into(), "random".into()];
        s.games = games;
        s.balance = crate::balance::quick(games);
        let small = root().join("variants/small.mg");
        let tiny = root().join("variants/sweeps/standard-small.mg");
        s.compare.files = vec![small.display().to_string(), tiny.display().to_string()];
    });
    harness(a)
}

/// A run of `small` that a crash cut short after four of ten games, kept in
/// the runs folder of a fresh Lab: it is offered for resuming.
fn lab_with_crashed_run() -> H {
    use murus_lab::{Config, RunDir, play_game};
    let mut h = lab(LabMode::SelfPlay, ENDLESS);
    let runs = std::path::PathBuf::from(&h.state().lab.model.saved().runs_dir);
    let variant = murus_engine::Variant::builtin("small").unwrap();
    let config = Config::new(&variant, vec!["random".parse().unwrap()], 10, 3);
    let (mut dir, _) = RunDir::open(
        &runs.join("crashed"),
        &config.run_spec(),
        murus_lab::Mode::New,
    )
    .unwrap();
    for i in 0..4 {
        dir.append(&play_game(&variant, &config.setup(i), None).unwrap())
            .unwrap();
    }
    drop(dir);
    let mut saved = h.state_mut().saved();
    saved.tab = Tab::Lab;
    drop(h);
    let h = harness(StudioApp::from_saved(saved));
    assert!(
        h.state().lab.model.offer().is_some(),
        "the crashed run is offered"
    );
    h
}

#[test]
fn the_self_play_buttons_keep_their_places_and_roles() {
    check(Panel {
        name: "Lab, self-play",
        open: lab_with_crashed_run,
        buttons: &[
            "Run",
            "Cancel",
            "Resume run",
            "Export JSON",
            "Export all",
            "Copy JSON",
            "Self-play",
            "Report",
        ],
        changes: vec![
            Change::new("the offer discarded", |h| click(h, "Discard")),
            Change::new("a run starts", |h| start(h, "Run")),
            Change::new("some games", |h| steps(h, 20)),
            Change::new("cancel", |h| {
                click(h, "Cancel");
                stopped(h);
            }),
            Change::new("resume", |h| start(h, "Resume run")),
            Change::new("cancel again", |h| {
                click(h, "Cancel");
                stopped(h);
            }),
            Change::new("a run of long titles ends", |h| {
                long_titled(h);
                h.state_mut().lab.edit(|s| s.games = 6);
                // Six games may be over before a frame sees them going on.
                click(h, "Run");
                stopped(h);
                assert_eq!(h.state().lab.model.games().len(), 6);
            }),
            Change::new("an export starts", |h| {
                let out = scratch_dir("layout-export");
                h.state_mut()
                    .lab
                    .edit(|s| s.export_dir = out.display().to_string());
                steps(h, 1);
                click(h, "Export all");
            }),
            Change::new("the export says where it wrote", |h| {
                until(h, 60, "the export", |h| !h.state().lab.exports.is_running());
                steps(h, 2);
                assert!(shows(h, "exported games.jsonl and the reports to "));
            }),
        ],
    });
}

#[test]
fn the_balance_buttons_keep_their_places_and_roles() {
    check(Panel {
        name: "Lab, Balance",
        open: || lab(LabMode::Balance, ENDLESS),
        buttons: &[
            "Run balance check",
            "Cancel",
            "Resume check",
            "Balance",
            "Report",
        ],
        changes: vec![
            Change::new("a check starts", |h| start(h, "Run balance check")),
            Change::new("some games", |h| steps(h, 20)),
            Change::new("cancel", |h| {
                click(h, "Cancel");
                stopped(h);
            }),
            Change::new("resume", |h| start(h, "Resume check")),
            Change::new("cancel again", |h| {
                click(h, "Cancel");
                stopped(h);
            }),
            Change::new("a check of long titles ends", |h| {
                long_titled(h);
                h.state_mut().lab.edit(|s| s.balance.games = 10);
                click(h, "Run balance check");
                stopped(h);
            }),
        ],
    });
}

#[test]
fn the_compare_buttons_keep_their_places_and_roles() {
    check(Panel {
        name: "Lab, Compare",
        open: || lab(LabMode::Compare, ENDLESS),
        buttons: &["Compare", "Cancel", "Load sweep", "Compare variants"],
        changes: vec![
            Change::new("the checks start", |h| start(h, "Compare")),
            Change::new("some games", |h| steps(h, 20)),
            Change::new("cancel", |h| {
                click(h, "Cancel");
                stopped(h);
            }),
            Change::new("checks that end", |h| {
                h.state_mut().lab.edit(|s| s.balance.games = 10);
                click(h, "Compare");
                stopped(h);
            }),
        ],
    });
}

#[test]
fn the_report_buttons_keep_their_places_and_roles() {
    check(Panel {
        name: "Lab, Report",
        open: || lab(LabMode::Report, ENDLESS),
        buttons: &["Make report", "Cancel report", "Resume report", "Report"],
        changes: vec![
            Change::new("a report starts", |h| start(h, "Make report")),
            Change::new("cancel", |h| {
                click(h, "Cancel report");
                stopped(h);
            }),
            Change::new("resume", |h| start(h, "Resume report")),
            Change::new("cancel again", |h| {
                click(h, "Cancel report");
                stopped(h);
            }),
            Change::new("a report of long titles starts and stops", |h| {
                long_titled(h);
                start(h, "Make report");
                click(h, "Cancel report");
                stopped(h);
            }),
        ],
    });
}
