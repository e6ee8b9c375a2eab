//! The Lab panel.
//!
//! The regression tests of issue 10 read what the user sees: accessible
//! nodes by label, and the texts the frame painted (chart axes and hover
//! notes are painted, not widgets).

use egui::{Pos2, Rect};
use egui_kittest::kittest::{NodeT, by};
use murus_lab::Report;

use super::*;

#[test]
fn a_twenty_game_lab_run_shows_results() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    h.state_mut().lab.edit(|s| {
        s.variant = "small".into();
        s.bots = vec!["greedy".into(), "random".into()];
        s.games = 20;
    });
    steps(&mut h, 1);
    h.get_by_label("Run").click();
    steps(&mut h, 2);
    assert!(h.state().lab.is_running() || !h.state().lab.model.games().is_empty());
    until(&mut h, 120, "the lab run", |h| !h.state().lab.is_running());
    let report = h.state().lab.model.report().expect("a report");
    assert_eq!(report.games, 20);
    assert!(h.query_by_label_contains(": 20 games").is_some());
    assert!(h.query_by_label("Endings").is_some());
    // Any finished game opens in Play.
    h.get_by_label("Open #1").click();
    steps(&mut h, 2);
    assert_eq!(h.state().tab, Tab::Play);
    let plies = h.state().lab.model.games()[0].stats.plies as usize;
    assert_eq!(h.state().play.model().game().cursor().game().ply(), plies);
}

#[test]
fn a_lab_run_can_be_cancelled() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    h.state_mut().lab.edit(|s| s.games = 100_000);
    h.get_by_label("Run").click();
    steps(&mut h, 3);
    h.get_by_label("Cancel").click();
    until(&mut h, 60, "the cancelled run to stop", |h| {
        !h.state().lab.is_running()
    });
    assert!(h.state().lab.model.games().len() < 100_000);
    assert!(h.query_by_label_contains("cancelled after").is_some());
}

// ---- Regression tests of issue 10 ----

/// Changes the Lab's settings as the view does.
fn edit(h: &mut Harness<'static, StudioApp>, edit: impl FnOnce(&mut murus_studio::lab::LabSaved)) {
    h.state_mut().lab.edit(edit);
}
fn saved(h: &Harness<'_, StudioApp>) -> murus_studio::lab::LabSaved {
    h.state().lab.model.saved().clone()
}
fn running(h: &Harness<'_, StudioApp>) -> bool {
    h.state().lab.is_running()
}
fn report(h: &Harness<'_, StudioApp>) -> Option<Report> {
    h.state().lab.model.report().cloned()
}

/// Runs `games` games of `variant` by `bots` through the Run button.
fn run_lab(h: &mut Harness<'static, StudioApp>, variant: &str, bots: &[&str], games: u64) {
    edit(h, |s| {
        s.variant = variant.into();
        s.bots = bots.iter().map(ToString::to_string).collect();
        s.games = games;
    });
    steps(h, 1);
    h.get_by_label("Run").click();
    steps(h, 2);
    until(h, 120, "the lab run", |h| !running(h));
    steps(h, 3);
}

/// Clicks the export button `button` with a new export folder, waits for
/// the export's worker to write it, and returns the folder.
fn export(h: &mut Harness<'static, StudioApp>, button: &str) -> PathBuf {
    let out = scratch_dir("export");
    edit(h, |s| s.export_dir = out.display().to_string());
    steps(h, 1);
    h.get_by_label(button).click();
    steps(h, 2);
    until(h, 60, "the export", |h| shows(h, "exported "));
    out
}

/// Issue 38: Export wrote its files inside the frame (a large run's
/// games.jsonl froze the window), with no word until it was done. Now the
/// panel says what it exports and how far, with Cancel export, and then
/// where it wrote, the whole path.
#[test]
fn a_lab_export_wrote_its_files_on_the_ui_thread() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    run_lab(&mut h, "small", &["random"], 20_000);
    let out = scratch_dir("export-worker");
    edit(&mut h, |s| s.export_dir = out.display().to_string());
    steps(&mut h, 1);
    h.get_by_label("Export all").click();
    steps(&mut h, 2);
    assert!(
        shows(&h, "exporting games.jsonl and the reports"),
        "the panel says what it exports"
    );
    assert!(shows_exactly(&h, "Cancel export"));
    until(&mut h, 60, "the export", |h| {
        !h.state().lab.exports.is_running()
    });
    steps(&mut h, 1);
    let said = format!("exported games.jsonl and the reports to {}", out.display());
    assert!(shows(&h, &said), "the message names the folder: {said}");
    let games = std::fs::read_to_string(out.join("games.jsonl")).expect("games.jsonl written");
    assert_eq!(games.lines().count(), 20_000);
    for f in ["report.json", "report.csv", "report.svg"] {
        assert!(out.join(f).is_file(), "{f} written");
    }
    std::fs::remove_dir_all(out).unwrap();
}

/// A text the frame painted, where, and the clip rectangle it was painted in.
#[derive(Debug)]
struct Painted {
    text: String,
    rect: Rect,
    clip: Rect,
}

fn painted_texts(h: &Harness<'_, StudioApp>) -> Vec<Painted> {
    fn walk(s: &egui::Shape, clip: Rect, out: &mut Vec<Painted>) {
        match s {
            egui::Shape::Text(t) => out.push(Painted {
                text: t.galley.text().to_string(),
                rect: t.visual_bounding_rect(),
                clip,
            }),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, clip, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &h.output().shapes {
        walk(&c.shape, c.clip_rect, &mut out);
    }
    out
}

/// The band of the report that holds the two charts: below the report's
/// heading, above the summary, between the setup and the game list.
fn charts_band(h: &Harness<'_, StudioApp>) -> Rect {
    let heading = h
        .query_all_by_label_contains(" games, ")
        .map(|n| n.rect())
        .min_by(|a, b| a.min.y.total_cmp(&b.min.y))
        .expect("the report's heading");
    // The summary's first row (the charts' painted labels are no nodes).
    let summary = h
        .query_all_by_label_contains("Seat 1 (")
        .map(|n| n.rect())
        .min_by(|a, b| a.min.y.total_cmp(&b.min.y))
        .expect("the summary");
    // The game list's heading (a spin button is called Games too).
    let list = h
        .query_all(by().label("Games").role(egui::accesskit::Role::Label))
        .map(|n| n.rect())
        .max_by(|a, b| a.min.x.total_cmp(&b.min.x))
        .expect("the game list");
    Rect::from_min_max(
        Pos2::new(heading.min.x - 8.0, heading.max.y),
        Pos2::new(list.min.x - 4.0, summary.min.y),
    )
}

/// The numbers painted in the histogram (the right half of the band):
/// (x-axis labels, y-axis labels).
fn histogram_numbers(h: &Harness<'_, StudioApp>) -> (Vec<Painted>, Vec<Painted>) {
    let band = charts_band(h);
    let mid = band.center().x;
    let numbers: Vec<Painted> = painted_texts(h)
        .into_iter()
        .filter(|p| band.contains_rect(p.rect) && p.rect.min.x > mid)
        .filter(|p| {
            let digits: String = p
                .text
                .chars()
                .filter(|c| !c.is_whitespace() && *c != ',')
                .collect();
            !digits.is_empty() && digits.parse::<f64>().is_ok()
        })
        .collect();
    let bottom = numbers
        .iter()
        .map(|p| p.rect.min.y)
        .fold(f32::MIN, f32::max);
    numbers
        .into_iter()
        .partition(|p| p.rect.min.y > bottom - 2.0)
}

/// Issue 10, Lab: the win-rate bars were numbered 0/1/2 and no axis had a
/// title.
#[test]
fn win_rate_chart_names_its_bars_and_axes() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    run_lab(&mut h, "small", &["greedy", "random"], 10);
    let band = charts_band(&h);
    let texts: Vec<String> = painted_texts(&h)
        .into_iter()
        .filter(|p| band.contains_rect(p.rect))
        .map(|p| p.text)
        .collect();
    for want in [
        "Seat 1 (greedy)",
        "Seat 2 (random)",
        "Romans",
        "Gauls",
        "Draws",
        "Win rate",
        "Result",
        "Length (plies)",
        "Number of games",
    ] {
        assert!(
            texts.iter().any(|t| t == want),
            "the charts show {want:?}; they show {texts:?}"
        );
    }
}

/// Issue 10, Lab: with thousands of games the histogram kept one length
/// label and two count labels.
#[test]
fn length_histogram_keeps_its_axis_labels_as_counts_grow() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    run_lab(&mut h, "small", &["random"], 3000);
    let (x, y) = histogram_numbers(&h);
    let all: Vec<&Painted> = x.iter().chain(&y).collect();
    assert!(x.len() >= 3, "the length axis has labels: {x:?}");
    assert!(y.len() >= 3, "the count axis has labels: {y:?}");
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert!(!a.rect.intersects(b.rect), "{a:?} overlaps {b:?}");
        }
    }
}

/// Issue 10, Lab: the hover text of the histogram's last bar ran past the
/// plot's edge and was cut.
#[test]
fn length_histogram_tooltips_stay_inside_the_plot() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    run_lab(&mut h, "small", &["random"], 300);
    let band = charts_band(&h);
    let (x, _) = histogram_numbers(&h);
    let bottom = x.iter().map(|p| p.rect.min.y).fold(f32::MAX, f32::min);
    let before: Vec<String> = painted_texts(&h).into_iter().map(|p| p.text).collect();
    // Slide the pointer in from the right along the bars' feet.
    let mut px = band.max.x;
    let tip = loop {
        assert!(px > band.center().x, "no bar answered the pointer");
        h.hover_at(Pos2::new(px, bottom - 12.0));
        steps(&mut h, 2);
        let tips: Vec<Painted> = painted_texts(&h)
            .into_iter()
            .filter(|p| {
                p.text.contains('–')
                    && !before.contains(&p.text)
                    && p.rect.min.x > band.center().x - 40.0
            })
            .collect();
        if let Some(t) = tips.into_iter().next() {
            break t;
        }
        px -= 4.0;
    };
    assert!(
        tip.clip.contains_rect(tip.rect),
        "the tooltip {:?} at {:?} is cut by the plot's edge {:?}",
        tip.text,
        tip.rect,
        tip.clip
    );
}

/// Issue 10, Lab: the studio's SVG export is murus-lab's chart, whose labels
/// count seats from 1.
#[test]
fn exported_svg_is_the_labs_and_names_seats_from_one() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    run_lab(&mut h, "small", &["greedy", "random"], 6);
    let out = export(&mut h, "Export all");
    let svg = std::fs::read_to_string(out.join("report.svg")).expect("report.svg written");
    assert_eq!(svg, murus_lab::charts::report_svg(&report(&h).unwrap()));
    assert!(!svg.to_lowercase().contains("seat 0"), "{svg}");
    assert!(svg.contains("seat 1") || svg.contains("Seat 1"), "{svg}");
    std::fs::remove_dir_all(out).unwrap();
}

/// The report's figures wrapped a few letters a line in a column 40 points
/// wide, and stayed so.
#[test]
fn the_report_table_gives_its_figures_room_and_does_not_wrap_them_narrow() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    run_lab(&mut h, "standard", &["greedy", "random"], 12);
    let line = h.get_by_label("Run").rect().height();
    for _ in 0..2 {
        let figures: Vec<Rect> = h
            .query_all(by().label_contains(" wins, "))
            .map(|n| n.rect())
            .collect();
        assert_eq!(figures.len(), 4, "two seats and two colours");
        for r in figures {
            assert!(r.height() < 1.5 * line, "a figure wrapped: {r:?}");
        }
        steps(&mut h, 3);
    }
}

/// Issue 10, Lab: the error under a bot field pushed the fields below it down
/// while typing.
#[test]
fn an_invalid_bot_name_does_not_move_the_fields_below_it() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 3);
    let below =
        |h: &Harness<'_, StudioApp>| ["Seat 2 bot", "Games", "Run"].map(|l| field(h, l).rect());
    let before = below(&h);
    h.get_by_label("Seat 1 bot").focus();
    steps(&mut h, 1);
    h.get_by_label("Seat 1 bot").type_text("x");
    steps(&mut h, 2);
    assert_eq!(saved(&h).bots[0], "greedyx");
    assert!(
        h.query_by_label_contains("unknown bot `greedyx`").is_some(),
        "the error is shown"
    );
    assert_eq!(below(&h), before, "the fields below moved");
}

/// Issue 10, Lab: only shipped variants and the editor's text could be run.
#[test]
fn any_saved_mg_file_can_be_run() {
    let dir = scratch_dir("variants");
    let small = std::fs::read_to_string(root().join("variants/small.mg")).unwrap();
    let tiny = small.replacen("variant \"small\"", "variant \"tiny\"", 1);
    assert_ne!(tiny, small);
    std::fs::write(dir.join("tiny.mg"), tiny).unwrap();
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    let folder = h.get_by_label("Variants folder");
    folder.focus();
    steps(&mut h, 1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Variants folder")
        .type_text(&dir.display().to_string());
    steps(&mut h, 2);
    h.get_by_label("Variant").click();
    steps(&mut h, 2);
    h.get_by_label("tiny.mg").click();
    steps(&mut h, 2);
    edit(&mut h, |s| s.games = 4);
    steps(&mut h, 1);
    h.get_by_label("Run").click();
    steps(&mut h, 2);
    until(&mut h, 60, "the run", |h| !running(h));
    let r = report(&h).expect("a report");
    assert_eq!(
        h.state().lab.model.feedback().text(),
        Some("finished 4 games")
    );
    assert_eq!((r.provenance.variant.name.as_str(), r.games), ("tiny", 4));
    std::fs::remove_dir_all(dir).unwrap();
}

/// Issue 10, Lab: finished runs were forgotten on restart.
#[test]
fn finished_runs_are_listed_after_a_restart() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    run_lab(&mut h, "small", &["greedy", "random"], 6);
    let saved = h.state_mut().saved();
    drop(h);
    let mut h = harness(StudioApp::from_saved(saved));
    steps(&mut h, 3);
    assert!(report(&h).is_none(), "a restart shows no report by itself");
    h.query_by_label_contains("small: greedy vs random, 6 of 6 games, ")
        .expect("the finished run in the history")
        .click();
    steps(&mut h, 3);
    assert_eq!(report(&h).map(|r| r.games), Some(6));
    assert!(h.query_by_label_contains(": 6 games").is_some());
}

/// Issue 10, part 2: a report exported after Cancel said `"interrupted":
/// false`.
#[test]
fn exporting_after_cancel_says_interrupted() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    edit(&mut h, |s| s.games = 100_000);
    edit(&mut h, |s| s.bots = vec!["random".into()]);
    h.get_by_label("Run").click();
    steps(&mut h, 3);
    assert!(running(&h));
    assert!(
        h.get_by_label("Export JSON").accesskit_node().is_disabled(),
        "a run still going has no report to export"
    );
    h.get_by_label("Cancel").click();
    until(&mut h, 60, "the cancelled run to stop", |h| !running(h));
    let out = export(&mut h, "Export JSON");
    let json = std::fs::read_to_string(out.join("report.json")).expect("report.json written");
    assert!(json.contains("\"interrupted\": true"), "{json}");
    assert!(h.query_by_label_contains("(interrupted)").is_some());
    std::fs::remove_dir_all(out).unwrap();
}

/// Issue 10, part 2: a crash lost the running batch; now it is on disk, a
/// restart offers it, and resuming ends with the uninterrupted report.
#[test]
fn an_interrupted_run_is_offered_and_resumes_to_the_uninterrupted_report() {
    use murus_lab::{Config, RunDir, play_game, stats_of};
    let variant = murus_engine::Variant::builtin("small").unwrap();
    let bots = vec!["greedy".parse().unwrap(), "random".parse().unwrap()];
    let config = Config::new(&variant, bots, 12, 5);
    let runs = scratch_dir("runs");
    // A run that crashed after five games: no report, nothing finished.
    let folder = runs.join("crashed");
    let (mut dir, _) = RunDir::open(&folder, &config.run_spec(), murus_lab::Mode::New).unwrap();
    for i in 0..5 {
        dir.append(&play_game(&variant, &config.setup(i), None).unwrap())
            .unwrap();
    }
    drop(dir);
    let whole = {
        let games = murus_lab::run(&variant, &config, &()).unwrap();
        config.report(&stats_of(&games)).to_json()
    };
    let mut a = app(Tab::Play);
    a.lab.model.set_runs_dir(&runs);
    let mut h = harness(a);
    steps(&mut h, 3);
    // Whatever the panel, the top bar says so.
    h.get_by_label("Lab run interrupted").click();
    steps(&mut h, 2);
    assert_eq!(h.state().tab, Tab::Lab);
    assert!(
        h.query_by_label_contains("(5 of 12 games) was interrupted")
            .is_some(),
        "the interrupted run is offered"
    );
    h.get_by_label("Resume").click();
    steps(&mut h, 2);
    until(&mut h, 60, "the resumed run", |h| !running(h));
    let written = std::fs::read_to_string(folder.join("report.json")).expect("report.json");
    assert_eq!(written, whole);
    assert_eq!(report(&h).map(|r| r.to_json()), Some(whole));
    assert_eq!(h.state().lab.model.games().len(), 12);
    assert!(h.query_by_label_contains("was interrupted").is_none());
    assert!(
        h.query_by_label_contains("small: greedy vs random, 12 of 12 games, ")
            .is_some()
    );
    std::fs::remove_dir_all(runs).unwrap();
}

/// Issue 10, layout: the progress bar and the run's message pushed the
/// Export section down when a run started and ended.
#[test]
fn the_run_status_does_not_move_the_export_buttons() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 3);
    let at = |h: &Harness<'_, StudioApp>| ["Export JSON", "Run"].map(|l| h.get_by_label(l).rect());
    let before = at(&h);
    run_lab(&mut h, "small", &["greedy", "random"], 6);
    assert!(h.query_all_by_label_contains("6 games").next().is_some());
    assert_eq!(at(&h), before, "the status moved the buttons");
}

/// Issue 10, stale messages: a refused Run kept saying why after the
/// setting was fixed.
#[test]
fn a_run_error_clears_when_the_setting_is_fixed() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 3);
    h.get_by_label("Seat 1 bot").focus();
    steps(&mut h, 1);
    h.get_by_label("Seat 1 bot").type_text("x");
    steps(&mut h, 1);
    h.get_by_label("Run").click();
    steps(&mut h, 2);
    assert!(
        h.query_by_label_contains("seat 1:").is_some(),
        "the refusal is shown"
    );
    h.get_by_label("Seat 1 bot").focus();
    steps(&mut h, 1);
    h.key_press(egui::Key::Backspace);
    steps(&mut h, 2);
    assert_eq!(saved(&h).bots[0], "greedy");
    assert!(
        h.query_by_label_contains("seat 1:").is_none(),
        "the refusal outlived its cause"
    );
}

// ---- Regression tests of issue 22 ----

/// The number of games in a text such as `36 / 40 games` or `small:
/// random, 36 of 40 games, …`: the first number, digits grouped by spaces.
fn first_count(text: &str) -> u64 {
    let digits: String = text
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit() || *c == ' ')
        .filter(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no count in {text:?}"))
}

/// The games a run of the runs list has finished: `36` in `small: random
/// vs random, 36 of 40 games, …`.
fn listed_count(entry: &str) -> u64 {
    let before = entry.split(" of ").next().unwrap_or_default();
    first_count(before.rsplit(", ").next().unwrap_or_default())
}

/// The progress bar's text (`36 / 40 games`).
fn bar_text(h: &Harness<'_, StudioApp>) -> String {
    h.query_all(by().role(egui::accesskit::Role::ProgressIndicator))
        .find_map(|n| n.accesskit_node().label())
        .expect("the progress bar")
}

/// Issue 22: the runs list said "0 of 40 games" while the bar showed 36.
#[test]
fn the_runs_list_counts_the_games_the_progress_bar_counts() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    edit(&mut h, |s| {
        s.variant = "small".into();
        s.bots = vec!["random".into()];
        s.games = 1_000_000;
    });
    steps(&mut h, 1);
    h.get_by_label("Run").click();
    until(&mut h, 60, "some games", |h| {
        h.state()
            .lab
            .model
            .counts()
            .is_some_and(|(done, _)| done >= 10)
    });
    for _ in 0..3 {
        assert!(running(&h));
        let bar = bar_text(&h);
        let entry = h
            .get_by_label_contains(" of 1 000 000 games, ")
            .accesskit_node()
            .label()
            .unwrap_or_default();
        assert!(entry.ends_with(", running"), "{entry}");
        assert_eq!(
            listed_count(&entry),
            first_count(&bar),
            "the list says {entry:?}, the bar {bar:?}"
        );
        steps(&mut h, 2);
    }
    h.get_by_label("Cancel").click();
    until(&mut h, 60, "the cancelled run to stop", |h| !running(h));
    // Stopped: the list reads the folder, and agrees still.
    let bar = bar_text(&h);
    let entry = h
        .get_by_label_contains(" of 1 000 000 games, ")
        .accesskit_node()
        .label()
        .unwrap_or_default();
    assert!(entry.contains(", interrupted"), "{entry}");
    assert_eq!(
        listed_count(&entry),
        first_count(&bar),
        "{entry:?}, {bar:?}"
    );
}

/// Issue 22: the report's Game quality and Game shape rows ran past the
/// panel's edge, their ends cut off, in a window 900 points wide.
#[test]
fn the_report_rows_wrap_inside_the_panel_and_read_whole() {
    let a = app(Tab::Lab);
    let mut h = Harness::builder()
        .with_size([900.0, 1200.0])
        .build_eframe(move |_cc| a);
    steps(&mut h, 2);
    run_lab(&mut h, "small", &["greedy", "random"], 10);
    let r = report(&h).expect("a report");
    let rows = r.summary(|c| c.to_string());
    let shape = rows
        .iter()
        .find(|(l, _)| l == "Game shape")
        .map(|(_, t)| t.clone())
        .expect("the Game shape row");
    assert!(shape.ends_with('%'), "{shape}");
    for (label, text) in &rows {
        let painted = painted_texts(&h)
            .into_iter()
            .find(|p| &p.text == text)
            .unwrap_or_else(|| panic!("the {label} row is painted"));
        assert!(
            painted.rect.min.x >= painted.clip.min.x - 0.5
                && painted.rect.max.x <= painted.clip.max.x + 0.5,
            "the {label} row {:?} runs past the panel's edge {:?}",
            painted.rect,
            painted.clip
        );
    }
    // The row reads whole: its label holds all of it.
    assert!(
        h.query_all(by().label(&shape)).next().is_some(),
        "the Game shape row's text"
    );
}

/// Issue 22: the folder fields cut long paths off; hovering one shows it
/// whole.
#[test]
fn a_long_folder_path_reads_whole_on_hover() {
    let deep = scratch_dir("a-folder-whose-name-is-longer-than-any-field-of-the-setup");
    let paths = [
        ("Runs folder", deep.join("runs")),
        ("Folder", deep.join("exports")),
        ("Variants folder", deep.join("variants")),
    ];
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    edit(&mut h, |s| {
        s.runs_dir = paths[0].1.display().to_string();
        s.export_dir = paths[1].1.display().to_string();
        s.variants_dir = paths[2].1.display().to_string();
    });
    steps(&mut h, 2);
    for (label, path) in &paths {
        let full = path.display().to_string();
        field(&h, label).hover();
        steps(&mut h, 40); // the tooltip's delay
        assert!(
            h.query_by_label(&full).is_some(),
            "hovering {label} shows {full}"
        );
    }
    // A short one needs no tooltip.
    edit(&mut h, |s| s.export_dir = "out".into());
    steps(&mut h, 2);
    field(&h, "Folder").hover();
    steps(&mut h, 40);
    assert!(h.query_by_label("out").is_none());
}

/// Issue 22, layout: a run that started, went on or ended moved what the
/// pointer may be over: the runs list (a new run pushed the others down, a
/// summary that grew wrapped onto another line) and the game list (its
/// panel grew with the games' descriptions).
#[test]
fn nothing_in_the_lab_moves_under_the_pointer_when_a_run_starts_goes_on_or_ends() {
    let mut h = harness(app(Tab::Lab));
    steps(&mut h, 2);
    run_lab(&mut h, "small", &["greedy", "random"], 6);
    edit(&mut h, |s| {
        s.games = 1_000_000;
        s.bots = vec!["random".into()];
    });
    steps(&mut h, 3);
    // Where each starts (Cancel is wider than Run, in its place).
    let at = |h: &Harness<'_, StudioApp>| -> Vec<(String, Pos2)> {
        let rect = |label: &str| {
            h.query_all(by().label_contains(label))
                .map(|n| n.rect())
                .next()
                .unwrap_or_else(|| panic!("no {label:?}"))
        };
        // Run, or Cancel in its place.
        let start = h
            .query_by_label("Run")
            .or_else(|| h.query_by_label("Cancel"))
            .map(|n| n.rect())
            .expect("Run or Cancel");
        ["6 of 6 games", "Export JSON", "Balance", "Copy JSON"]
            .iter()
            .map(|l| (l.to_string(), rect(l)))
            .chain(std::iter::once(("Run".to_string(), start)))
            .chain(std::iter::once((
                "the game list".to_string(),
                h.query_all(by().label("Games").role(egui::accesskit::Role::Label))
                    .map(|n| n.rect())
                    .max_by(|a, b| a.min.x.total_cmp(&b.min.x))
                    .expect("the game list's heading"),
            )))
            .map(|(l, r)| (l, r.min))
            .collect()
    };
    let before = at(&h);
    h.get_by_label("Run").click();
    steps(&mut h, 4);
    assert!(running(&h));
    assert_eq!(at(&h), before, "the run's start moved them");
    for _ in 0..3 {
        steps(&mut h, 10);
        assert_eq!(at(&h), before, "the run's progress moved them");
    }
    h.get_by_label("Cancel").click();
    until(&mut h, 60, "the cancelled run to stop", |h| !running(h));
    steps(&mut h, 3);
    assert_eq!(at(&h), before, "the run's end moved them");
}

// ---- Regression tests of issue 38 ----

/// A press and release of the pointer at `at`, as a user's click.
fn click_at(h: &mut Harness<'static, StudioApp>, at: Pos2) {
    h.hover_at(at);
    steps(h, 1);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        steps(h, 1);
    }
    steps(h, 2);
}

/// Issue 38, major: Cancel turned into Run in the same place (and Cancel
/// report into Make report), so a second click meant to cancel started a
/// new job. In every mode, a click where Cancel was, once the job has
/// stopped, starts nothing, and the button there is still Cancel.
#[test]
fn a_click_meant_for_cancel_never_starts_a_job() {
    use murus_studio::lab::LabMode;
    for (mode, start, cancel) in [
        (LabMode::SelfPlay, "Run", "Cancel"),
        (LabMode::Balance, "Run balance check", "Cancel"),
        (LabMode::Compare, "Compare", "Cancel"),
        (LabMode::Report, "Make report", "Cancel report"),
    ] {
        let mut h = harness(app(Tab::Lab));
        edit(&mut h, |s| {
            s.mode = mode;
            s.variant = "small".into();
            s.games = 1_000_000;
            s.balance.levels = vec!["random".into()];
            s.balance.fixed_games = true;
            s.balance.games = 1_000_000;
            s.compare.files = ["variants/small.mg", "variants/sweeps/standard-small.mg"]
                .map(|f| root().join(f).display().to_string())
                .to_vec();
        });
        steps(&mut h, 3);
        h.get_by_label(start).click();
        until(&mut h, 30, "the job to start", running);
        let at = h.get_by_label(cancel).rect().center();
        click_at(&mut h, at);
        until(&mut h, 120, "the cancelled job to stop", |h| !running(h));
        steps(&mut h, 3);
        // The second click of a double click meant for Cancel.
        click_at(&mut h, at);
        steps(&mut h, 3);
        assert!(
            !running(&h),
            "{mode:?}: a click where {cancel:?} was started a new job"
        );
        let there = h
            .query_all(by().role(egui::accesskit::Role::Button))
            .filter(|n| n.rect().contains(at))
            .map(|n| n.accesskit_node().label().unwrap_or_default().to_string())
            .collect::<Vec<_>>();
        assert_eq!(
            there,
            [cancel.to_string()],
            "{mode:?}: the button where Cancel was"
        );
    }
}
