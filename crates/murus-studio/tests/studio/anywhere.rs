//! Issue 38: a studio that runs from any folder. The shipped variants and
//! puzzles are listed whatever the working folder (they are built in), the
//! user's own live in the data folder (a scratch one here) and the folder
//! last used, and a path that is not there fails before any question.

use super::*;

/// The button called `label` (headings may share its text).
fn button<'h>(h: &'h Harness<'_, StudioApp>, label: &'h str) -> egui_kittest::Node<'h> {
    h.get_by_role_and_label(egui::accesskit::Role::Button, label)
}

/// Clicks each of `cells` in turn.
fn click_cells(h: &mut Harness<'_, StudioApp>, cells: &[&str]) {
    for c in cells {
        click(h, &format!("cell {c}"));
    }
}

fn text(h: &Harness<'_, StudioApp>) -> String {
    h.state().murals.model().document().text().to_string()
}

fn compiled_clean(h: &mut Harness<'_, StudioApp>) {
    until(h, 20, "a clean compilation", |h| {
        h.query_by_label_contains("No problems").is_some()
    });
}

/// A fresh studio as a first start finds it outside the repository: no
/// folder set, the user's data folder empty (a scratch one).
fn outside_the_repository(tab: Tab) -> (StudioApp, PathBuf) {
    let saved = Saved {
        tab,
        ..Saved::default()
    };
    let mut a = StudioApp::from_saved(saved);
    let data = scratch_dir("data").join("murus");
    a.set_places(&murus_studio::places::Places::at(&data));
    (a, data)
}

#[test]
fn launched_outside_the_repository_murals_lists_the_shipped_puzzles() {
    let (a, data) = outside_the_repository(Tab::Murals);
    let mut h = harness(a);
    steps(&mut h, 2);
    assert!(!shows(&h, "no puzzles/ folder here"));
    assert!(
        shows(&h, "none yet"),
        "the user's list says where theirs go"
    );
    h.get_by_label("02-5x5-easy").click();
    steps(&mut h, 2);
    let m = h.state().murals.model();
    assert!(
        m.document().is_shipped("02-5x5-easy.toml"),
        "{:?}",
        m.feedback()
    );
    assert_eq!(
        m.document().text(),
        murus_mural::collection::shipped("02-5x5-easy.toml").unwrap()
    );
    assert!(
        !m.document().is_dirty(),
        "a shipped puzzle opened is nothing to lose"
    );
    assert!(shows(&h, "Valid puzzle"));
    // Edited, then saved: the shipped puzzle is read-only, so Save asks
    // where to save a copy, in the data folder, created for it.
    let (picker, asked) = picker(vec![Picked::Path(data.join("puzzles/mine.toml"))]);
    h.state_mut().set_picker(picker);
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 2);
    click_cells(&mut h, &["a1", "a5"]);
    button(&h, "Save puzzle").click();
    steps(&mut h, 2);
    answered(&mut h);
    let request = asked.lock().unwrap()[0].clone();
    assert!(request.save);
    let dir = request.dir.expect("a folder to start in");
    assert_eq!(dir, data.join("puzzles"));
    assert!(dir.is_dir(), "the proposed folder exists");
    let mine = data.join("puzzles/mine.toml");
    assert!(mine.is_file(), "the copy was saved");
    steps(&mut h, 2);
    assert!(
        h.state().murals.model().document().is_file(&mine),
        "the puzzle belongs to the copy"
    );
    assert!(shows(&h, "mine"), "the user's list shows the copy");
}

#[test]
fn a_puzzle_opened_from_another_folder_lists_that_folder_after_a_restart() {
    let (mut a, _data) = outside_the_repository(Tab::Murals);
    let elsewhere = scratch_dir("elsewhere");
    let file = elsewhere.join("fork.toml");
    std::fs::write(
        &file,
        "title = \"Fork\"\nboard = \"5x1\"\nstart = \"2r22\"\ntargets = [\"a1\", \"b1\"]\n",
    )
    .unwrap();
    a.murals
        .model_mut()
        .perform(murus_studio::murals::Pending::Open(file.clone()));
    assert_eq!(a.murals.model().files().shelf().dir(), elsewhere);
    assert!(a.murals.model().files().shelf().files().contains(&file));
    let saved = a.saved();
    let again = StudioApp::from_saved(saved);
    assert_eq!(again.murals.model().files().shelf().dir(), elsewhere);
    assert!(again.murals.model().files().shelf().files().contains(&file));
}

#[test]
fn opening_a_missing_puzzle_says_so_without_asking_to_discard_changes() {
    let missing = scratch_dir("murals-missing").join("gone.toml");
    let mut a = app(Tab::Murals);
    let (picker, _) = picker(vec![Picked::Path(missing.clone())]);
    a.set_picker(picker);
    let mut h = harness(a);
    steps(&mut h, 2);
    h.get_by_label("Toggle targets").click();
    steps(&mut h, 2);
    click_cells(&mut h, &["b1"]);
    let edited = text(&h);
    assert!(h.state().murals.model().document().is_dirty());
    click(&mut h, "Open…");
    answered(&mut h);
    assert!(
        h.state().murals.model().files().pending().is_none(),
        "asked to discard the puzzle for a file that is not there"
    );
    assert!(
        shows(&h, &missing.display().to_string()),
        "the error names the file"
    );
    assert_eq!(text(&h), edited);
}

#[test]
fn launched_outside_the_repository_rules_starts_on_a_shipped_copy_and_saves_in_the_data_folder() {
    let a = StudioApp::from_saved(Saved {
        tab: Tab::Rules,
        ..Saved::default()
    });
    let mut a = a;
    let data = scratch_dir("data").join("murus");
    a.set_places(&murus_studio::places::Places::at(&data));
    let mut h = harness(a);
    steps(&mut h, 3);
    compiled_clean(&mut h);
    // The first text is the shipped standard game, as a copy: no path to a
    // `variants/` folder that is not there.
    assert_eq!(
        h.state().rules.model().editor().title(),
        "untitled (copy of standard)"
    );
    h.get_by_label("Your variants").click();
    steps(&mut h, 2);
    assert!(!shows(&h, "no variants/ folder here"));
    assert!(shows(
        &h,
        &format!(
            "none yet: Save as… puts them in {}",
            data.join("variants").display()
        )
    ));
    h.key_press(egui::Key::Escape);
    steps(&mut h, 2);
    // Saving a shipped copy asks where, in the data folder (created).
    let (picker, asked) = picker(vec![Picked::Path(data.join("variants/mine.mg"))]);
    h.state_mut().set_picker(picker);
    h.get_by_label("Save").click();
    steps(&mut h, 2);
    answered(&mut h);
    let request = asked.lock().unwrap()[0].clone();
    assert_eq!(
        request.dir.as_deref(),
        Some(data.join("variants").as_path())
    );
    assert!(data.join("variants").is_dir(), "the proposed folder exists");
    assert_eq!(request.name.as_deref(), Some("my-standard.mg"));
    assert!(data.join("variants/mine.mg").is_file());
    assert_eq!(
        h.state().rules.model().shelf().files(),
        [data.join("variants/mine.mg")],
        "the user's list shows it"
    );
}

#[test]
fn opening_a_missing_file_says_so_without_asking_to_discard_changes() {
    let dir = scratch_dir("rules-missing");
    let missing = dir.join("gone.mg");
    let mut a = app(Tab::Rules);
    a.rules.model_mut().shelf_mut().set_dir(&dir);
    let mut h = harness(a);
    steps(&mut h, 3);
    compiled_clean(&mut h);
    h.state_mut()
        .rules
        .model_mut()
        .set_text("// unsaved work\n", 0.0);
    steps(&mut h, 2);
    let (picker, _) = picker(vec![Picked::Path(missing.clone())]);
    h.state_mut().set_picker(picker);
    click(&mut h, "Open…");
    answered(&mut h);
    assert!(
        h.state().rules.model().question().is_none(),
        "asked to discard the edits for a file that is not there"
    );
    assert!(!shows(&h, "Discard changes"));
    assert!(
        shows(&h, &missing.display().to_string()),
        "the error names the file"
    );
    assert_eq!(h.state().rules.model().editor().text(), "// unsaved work\n");
}
