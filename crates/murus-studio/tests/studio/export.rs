//! Exports from the studio: each asks where to save through the file
//! dialog (a Save dialog: the desktop's asks before replacing a file, and a
//! typed path is asked about) and writes what it says.

use murus_studio::files::Picked;

use super::*;

#[test]
fn export_diagram_and_gif_ask_where_and_write_the_board_and_the_line() {
    let dir = scratch_dir("export-play");
    let (svg, png, gif) = (dir.join("b.svg"), dir.join("b.png"), dir.join("g.gif"));
    let (mut h, asked) = opened_with_dialog(
        Tab::Play,
        vec![
            Picked::Path(svg.clone()),
            Picked::Path(png.clone()),
            Picked::Path(gif.clone()),
            Picked::Cancelled,
        ],
    );
    click_move(&mut h, "b1", "b3");
    click_move(&mut h, "c7", "c5");
    click(&mut h, "Export diagram…");
    answered(&mut h);
    written(&mut h, &svg);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains(r#"data-cell="c5""#) && text.contains(r#"class="stack""#));
    assert!(shows(&h, "exported"), "it says so");
    click(&mut h, "Export diagram…");
    answered(&mut h);
    written(&mut h, &png);
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    click(&mut h, "Export GIF…");
    answered(&mut h);
    written(&mut h, &gif);
    assert_eq!(&std::fs::read(&gif).unwrap()[..6], b"GIF89a");
    // Cancelled: nothing written, nothing said.
    let before = std::fs::read_dir(&dir).unwrap().count();
    click(&mut h, "Export GIF…");
    answered(&mut h);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), before);
    let asked = asked.lock().unwrap();
    assert!(asked.iter().all(|r| r.save), "Save dialogs: {asked:?}");
    let exts = |i: usize| asked[i].filter.clone().unwrap().1;
    assert_eq!(exts(0), ["svg", "png"]);
    assert_eq!(exts(2), ["gif"]);
}

/// Steps until the export going on has ended and `path` is there.
/// A harness on `tab`, its first frames drawn, whose file dialog answers
/// `answers` in turn; and what the dialog was asked.
fn opened_with_dialog(tab: Tab, answers: Vec<Picked>) -> (Harness<'static, StudioApp>, Asked) {
    let (picker, asked) = picker(answers);
    let mut h = harness(app(tab));
    steps(&mut h, 3);
    h.state_mut().set_picker(picker);
    (h, asked)
}

fn written(h: &mut Harness<'_, StudioApp>, path: &Path) {
    until(h, 120, "the export", |h| {
        !h.state().play.exports().is_running() && path.exists()
    });
    steps(h, 2);
}

/// Plays `plies` moves, each one of those that do not end the game.
fn play_a_long_game(h: &mut Harness<'_, StudioApp>, plies: usize) {
    let m = h.state_mut().play.model_mut();
    for i in 0..plies {
        let v = m.game().cursor().variant().clone();
        let pos = *m.game().cursor().game().position();
        let goes_on: Vec<_> = m
            .game()
            .cursor()
            .game()
            .legal_moves()
            .into_iter()
            .filter(|&mv| v.outcome(&v.play(&pos, mv)).is_none())
            .collect();
        assert!(!goes_on.is_empty(), "a move that goes on at ply {i}");
        assert!(m.act(|g| g.play(goes_on[(i * 7 + 3) % goes_on.len()])));
    }
    steps(h, 2);
}

/// Issue 38: Export GIF drew the whole animation inside the frame (1.7 s
/// for 45 plies, the window frozen). Now the frame returns at once, the
/// frames done show in the message row, and the message comes when the
/// file is written.
#[test]
fn export_gif_does_not_freeze_the_window() {
    let dir = scratch_dir("export-gif-background");
    let gif = dir.join("long.gif");
    let (mut h, _) = opened_with_dialog(Tab::Play, vec![Picked::Path(gif.clone())]);
    play_a_long_game(&mut h, 28);
    click(&mut h, "Export GIF…");
    answered(&mut h);
    assert!(
        shows(&h, "long.gif: 0 of 29 frames") || shows(&h, "long.gif: 1 of 29 frames"),
        "the frames done show while the GIF is written"
    );
    assert!(
        !gif.exists(),
        "the frame returned before the GIF was written"
    );
    until(&mut h, 120, "the GIF", |h| {
        shows(h, "exported ") && gif.exists()
    });
    assert_eq!(&std::fs::read(&gif).unwrap()[..6], b"GIF89a");
    assert!(!shows(&h, "of 29 frames"), "the status goes");
}

/// An export cancelled while its frames are drawn writes nothing and says
/// so.
#[test]
fn a_cancelled_export_writes_nothing_and_says_so() {
    let dir = scratch_dir("export-gif-cancel");
    let gif = dir.join("c.gif");
    let (mut h, _) = opened_with_dialog(Tab::Play, vec![Picked::Path(gif.clone())]);
    play_a_long_game(&mut h, 28);
    click(&mut h, "Export GIF…");
    answered(&mut h);
    click(&mut h, "Cancel export");
    until(&mut h, 120, "the cancel", |h| {
        !h.state().play.exports().is_running()
    });
    steps(&mut h, 2);
    assert!(shows(&h, "export cancelled"));
    assert!(!gif.exists());
}

/// Issue 38: the best line's arrows on an exported diagram had no
/// numbers, so which move came first could not be told.
#[test]
fn exported_arrows_are_numbered() {
    use murus_studio::play::analysis::LiveBudget;
    let dir = scratch_dir("export-arrows");
    let svg = dir.join("line.svg");
    let (mut h, _) = opened_with_dialog(Tab::Play, vec![Picked::Path(svg.clone())]);
    h.state_mut().play.analysis_mut().live_budget = LiveBudget {
        max_depth: 3,
        time: None,
        nodes: Some(50_000),
        proof_nodes: 0,
        threads: 1,
    };
    click(&mut h, "Analysis");
    until(&mut h, 120, "the analysis", |h| {
        let play = &h.state().play;
        play.analysis()
            .current(play.model())
            .is_some_and(|e| e.done && e.pv().len() >= 2)
    });
    click(&mut h, "with the best line");
    click(&mut h, "Export diagram…");
    answered(&mut h);
    written(&mut h, &svg);
    let text = std::fs::read_to_string(&svg).unwrap();
    let arrows = text.matches(r#"class="arrow""#).count();
    assert!(arrows >= 2, "the best line's arrows: {arrows}");
    for n in 1..=arrows {
        assert!(
            text.contains(&format!(r#"data-number="{n}""#)),
            "arrow {n} is numbered"
        );
    }
}

#[test]
fn the_rules_sheet_asks_where_and_writes_the_sheet_of_the_rules_in_the_editor() {
    let dir = scratch_dir("export-rules");
    let sheet = dir.join("standard-rules.html");
    let (mut h, asked) = opened_with_dialog(Tab::Rules, vec![Picked::Path(sheet.clone())]);
    click(&mut h, "Rules sheet…");
    answered(&mut h);
    until(&mut h, 120, "the rules sheet", |h| {
        !h.state().rules.model().sheet().is_running()
    });
    let html = std::fs::read_to_string(&sheet).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", &html[..40]);
    assert!(html.contains("Murus Gallicus") && html.contains(r#"class="arrow""#));
    assert!(shows(&h, "rules sheet written"));
    let asked = asked.lock().unwrap();
    assert!(asked[0].save && asked[0].name.as_deref() == Some("standard-rules.html"));
}

/// Issue 38: the rules sheet was built and written on the UI thread, the
/// window frozen meanwhile; it is written on a worker, and the message row
/// says so until the result's message names the file in full.
#[test]
fn the_rules_sheet_was_built_and_written_on_the_ui_thread() {
    let dir = scratch_dir("export-rules-worker");
    let sheet = dir.join("standard-rules.html");
    let (mut h, _) = opened_with_dialog(Tab::Rules, vec![Picked::Path(sheet.clone())]);
    click(&mut h, "Rules sheet…");
    // The answer is taken in before the next frame is drawn; the worker's
    // result, at the earliest, in the frame after it. (Whether the file is
    // there yet is a race: the sheet takes milliseconds.)
    h.state_mut().dialogs_mut().wait();
    h.step();
    assert!(
        shows(&h, "writing the rules sheet"),
        "the message row says the sheet is being written"
    );
    assert!(
        !shows(&h, "rules sheet written"),
        "the frame returned before the sheet was written"
    );
    until(&mut h, 120, "the rules sheet", |h| {
        shows(h, "rules sheet written")
    });
    let whole = format!("rules sheet written: {}", sheet.display());
    assert!(shows(&h, &whole), "the message says {whole:?}");
    assert!(!shows(&h, "writing the rules sheet"), "the status goes");
    let html = std::fs::read_to_string(&sheet).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
}

#[test]
fn the_puzzle_sheet_asks_where_and_writes_the_puzzle_with_its_solution() {
    let dir = scratch_dir("export-mural");
    let sheet = dir.join("sheet.html");
    let (mut h, asked) = opened_with_dialog(Tab::Murals, vec![Picked::Path(sheet.clone())]);
    click(&mut h, "Export puzzle sheet…");
    answered(&mut h);
    until(&mut h, 60, "the puzzle sheet", |h| {
        !h.state().murals.model().tasks().is_busy()
    });
    steps(&mut h, 2);
    let html = std::fs::read_to_string(&sheet).unwrap();
    assert!(
        html.contains("Par ") && html.contains("Solutions"),
        "{html}"
    );
    assert!(shows(&h, "puzzle sheet written"));
    assert!(asked.lock().unwrap()[0].save);
}

/// Issue 38: "exported studio/diagram.png" named the folder's name alone,
/// not where it is; the message names the whole path.
#[test]
fn an_export_said_studio_diagram_png_without_saying_where_the_folder_is() {
    let dir = scratch_dir("export-path");
    let svg = dir.join("diagram.svg");
    let (mut h, _) = opened_with_dialog(Tab::Play, vec![Picked::Path(svg.clone())]);
    click(&mut h, "Export diagram…");
    answered(&mut h);
    written(&mut h, &svg);
    let whole = format!("exported {}", svg.display());
    assert!(shows(&h, &whole), "the message says {whole:?}");
}
