//! Exports from the studio: each asks where to save through the file
//! dialog (a Save dialog: the desktop's asks before replacing a file, and a
//! typed path is asked about) and writes what it says.

use murus_studio::files::Picked;

use super::*;

#[test]
fn export_diagram_and_gif_ask_where_and_write_the_board_and_the_line() {
    let dir = scratch_dir("export-play");
    let (svg, png, gif) = (dir.join("b.svg"), dir.join("b.png"), dir.join("g.gif"));
    let (picker, asked) = picker(vec![
        Picked::Path(svg.clone()),
        Picked::Path(png.clone()),
        Picked::Path(gif.clone()),
        Picked::Cancelled,
    ]);
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    h.state_mut().set_picker(picker);
    click_move(&mut h, "b1", "b3");
    click_move(&mut h, "c7", "c5");
    click(&mut h, "Export diagram…");
    answered(&mut h);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains(r#"data-cell="c5""#) && text.contains(r#"class="stack""#));
    assert!(shows(&h, "exported"), "it says so");
    click(&mut h, "Export diagram…");
    answered(&mut h);
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    click(&mut h, "Export GIF…");
    answered(&mut h);
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

#[test]
fn the_rules_sheet_asks_where_and_writes_the_sheet_of_the_rules_in_the_editor() {
    let dir = scratch_dir("export-rules");
    let sheet = dir.join("standard-rules.html");
    let (picker, asked) = picker(vec![Picked::Path(sheet.clone())]);
    let mut h = harness(app(Tab::Rules));
    steps(&mut h, 3);
    h.state_mut().set_picker(picker);
    click(&mut h, "Rules sheet…");
    answered(&mut h);
    let html = std::fs::read_to_string(&sheet).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", &html[..40]);
    assert!(html.contains("Murus Gallicus") && html.contains(r#"class="arrow""#));
    assert!(shows(&h, "rules sheet written"));
    let asked = asked.lock().unwrap();
    assert!(asked[0].save && asked[0].name.as_deref() == Some("standard-rules.html"));
}

#[test]
fn the_puzzle_sheet_asks_where_and_writes_the_puzzle_with_its_solution() {
    let dir = scratch_dir("export-mural");
    let sheet = dir.join("sheet.html");
    let (picker, asked) = picker(vec![Picked::Path(sheet.clone())]);
    let mut h = harness(app(Tab::Murals));
    steps(&mut h, 3);
    h.state_mut().set_picker(picker);
    click(&mut h, "Export puzzle sheet…");
    answered(&mut h);
    until(&mut h, 60, "the puzzle sheet", |h| {
        !h.state().murals.model().is_busy()
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
