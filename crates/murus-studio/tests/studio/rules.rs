//! The Rules panel: its model driven directly, and the panel through the UI.

use murus_engine::Variant;
use murus_studio::dialog::Answer;
use murus_studio::files::Picked;
use murus_studio::rules::{DiagView, FileAction, MAX_PERFT_DEPTH, RulesModel, RulesSaved};

use super::*;

#[test]
fn an_error_typed_into_the_rules_editor_is_listed_with_line_and_column() {
    let mut h = harness(app(Tab::Rules));
    steps(&mut h, 3);
    until(&mut h, 20, "the first compilation", |h| {
        h.query_by_label_contains("No problems").is_some()
    });
    h.get_by_label("New").click();
    steps(&mut h, 2);
    assert!(h.state().rules.model().editor().text().is_empty());

    let broken = "variant \"x\"\nboard rect 8 x 7\nplayer \"A\" {\n    letter 7\n}\n";
    let editor = h.get_by_label("Rule file");
    editor.focus();
    steps(&mut h, 1);
    h.get_by_label("Rule file").type_text(broken);
    steps(&mut h, 2);
    assert_eq!(
        h.state().rules.model().editor().text(),
        broken,
        "the editor keeps what was typed"
    );

    let diags = murus_dsl::compile(broken).expect_err("the text is broken");
    let (line, col) = diags[0].line_col(broken);
    let expected = format!("{line}:{col}: error: {}", diags[0].message);
    until(&mut h, 20, "the diagnostic", |h| {
        h.query_by_label(&expected).is_some()
    });
    // Clicking the diagnostic jumps to it and leaves the text alone.
    h.get_by_label(&expected).click();
    steps(&mut h, 3);
    assert_eq!(h.state().rules.model().editor().text(), broken);
    assert!(
        h.state().rules.model().editor().is_dirty()
            || h.state().rules.model().editor().path().is_none()
    );
}

#[test]
fn play_this_variant_opens_the_edited_rules_in_play() {
    let mut h = harness(app(Tab::Rules));
    steps(&mut h, 2);
    h.state_mut()
        .rules
        .model_mut()
        .request(murus_studio::rules::FileAction::CopyBuiltin("hex".into()));
    until(&mut h, 20, "the hex compilation", |h| {
        h.state()
            .rules
            .model()
            .editor()
            .compiled_variant()
            .is_some_and(|v| v.name() == "hex")
    });
    h.get_by_label("Run perft").click();
    until(&mut h, 30, "perft", |h| {
        perft_lines(h.state().rules.model()).len() >= 3
    });
    h.get_by_label("Play this variant").click();
    steps(&mut h, 3);
    assert_eq!(h.state().tab, Tab::Play);
    assert_eq!(
        h.state().play.model().game().cursor().variant().name(),
        "hex"
    );
    // Hex cells are reachable by name too.
    let g = h
        .state()
        .play
        .model()
        .game()
        .cursor()
        .variant()
        .geometry()
        .clone();
    let first = h.state().play.model().game().cursor().game().legal_moves()[0];
    let from = g.name(first.origin().expect("a sowing"));
    let to = g.name(first.targets().next().expect("a target"));
    h.get_by_label(&format!("cell {from}")).click();
    steps(&mut h, 1);
    h.get_by_label(&format!("cell {to}")).click();
    steps(&mut h, 2);
    assert_eq!(h.state().play.model().game().cursor().game().ply(), 1);
}

// ---- Regression tests of issue 10 (the Rules panel) ----

/// An empty folder of its own for a test's files.
/// The lines of the last perft of the rules shown.
fn perft_lines(m: &RulesModel) -> &[String] {
    m.perft().lines(m.editor().compiled_variant())
}

/// The diagnostic of the current text at byte `byte`.
fn diagnostic_at(m: &RulesModel, byte: usize) -> Option<&DiagView> {
    m.editor().fresh()?.diagnostic_at(byte)
}

/// The spans underlined in the current text.
fn marks(m: &RulesModel) -> Vec<(std::ops::Range<usize>, bool)> {
    m.editor()
        .fresh()
        .map(murus_studio::rules::Compiled::marks)
        .unwrap_or_default()
}

pub fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("murus-studio-rules-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The studio on Rules, opening and saving in `dir`.
fn rules_in(dir: &Path) -> Harness<'static, StudioApp> {
    let mut a = app(Tab::Rules);
    a.rules.model_mut().shelf_mut().set_dir(dir);
    let mut h = harness(a);
    steps(&mut h, 3);
    h
}

pub fn compiled_clean(h: &mut Harness<'_, StudioApp>) {
    until(h, 20, "a clean compilation", |h| {
        h.query_by_label_contains("No problems").is_some()
    });
}

/// Picks `item` from the combo box labelled `combo`.
fn choose(h: &mut Harness<'_, StudioApp>, combo: &str, item: &str) {
    h.get_by_label(combo).click();
    steps(h, 2);
    h.get_by_label(item).click();
    steps(h, 3);
}

/// Types `text` into the rule editor, where its cursor is.
fn type_in_editor(h: &mut Harness<'_, StudioApp>, text: &str) {
    h.get_by_label("Rule file").focus();
    steps(h, 1);
    h.get_by_label("Rule file").type_text(text);
    steps(h, 2);
}

fn left_of(h: &Harness<'_, StudioApp>, label: &str) -> f32 {
    h.get_by_label(label).rect().left()
}

#[test]
fn an_error_does_not_narrow_the_rules_preview() {
    let mut h = harness(app(Tab::Rules));
    steps(&mut h, 3);
    compiled_clean(&mut h);
    let before = left_of(&h, "Start position");
    // The window is 1280 wide; the preview opens 360 wide.
    assert!(
        1280.0 - before > 300.0,
        "the preview has room for the board (its left edge is at {before})"
    );
    type_in_editor(&mut h, "zzz ");
    until(&mut h, 20, "the error", |h| {
        h.query_by_label_contains(": error: ").is_some()
    });
    steps(&mut h, 3);
    assert_eq!(
        left_of(&h, "Start position"),
        before,
        "the preview keeps its width while the file has an error"
    );
    for _ in 0..4 {
        h.key_press(egui::Key::Backspace);
        steps(&mut h, 1);
    }
    compiled_clean(&mut h);
    steps(&mut h, 3);
    assert_eq!(
        left_of(&h, "Start position"),
        before,
        "the preview is as wide as before once the error is fixed"
    );
}

#[test]
fn a_file_bar_message_does_not_push_the_rules_editor() {
    let dir = scratch("message-push");
    std::fs::write(dir.join("a.mg"), murus_engine::Variant::standard().source()).unwrap();
    let mut h = rules_in(&dir);
    compiled_clean(&mut h);
    // The label above the editor (the editor itself scrolls).
    let corner = |h: &Harness<'_, StudioApp>| {
        h.query_all(
            egui_kittest::kittest::by()
                .role(egui::accesskit::Role::Label)
                .label("Rule file")
                .include_labels(),
        )
        .next()
        .expect("the editor's label")
        .rect()
        .left_top()
    };
    let editor = corner(&h);
    choose(&mut h, "Your variants", "a.mg");
    assert!(h.query_by_label_contains("opened").is_some());
    assert_eq!(corner(&h), editor, "after \"opened\"");
    h.state_mut()
        .rules
        .model_mut()
        .request(FileAction::Open(dir.join("missing.mg")));
    steps(&mut h, 3);
    assert!(h.query_by_label_contains("missing.mg: ").is_some());
    assert_eq!(corner(&h), editor, "after an error");
    type_in_editor(&mut h, "// edited\n");
    assert!(h.state().rules.model().editor().is_dirty());
    assert_eq!(corner(&h), editor, "with unsaved changes");
}

#[test]
fn save_on_an_untitled_copy_asks_for_a_file_name() {
    let dir = scratch("copy-builtin");
    let mut h = rules_in(&dir);
    let mine = dir.join("mine.mg");
    let (picker, asked) = picker(vec![Picked::Path(mine.clone())]);
    h.state_mut().set_picker(picker);
    choose(&mut h, "Shipped", "advanced");
    assert!(
        h.query_by_label_contains("untitled").is_some()
            && h.query_by_label_contains("copy of advanced").is_some(),
        "the copy is untitled"
    );
    type_in_editor(&mut h, "// mine\n");
    h.get_by_label("Save").click();
    steps(&mut h, 1);
    answered(&mut h);
    // Asked where, with a Save dialog proposing a name, in the variants
    // folder; nothing written before the answer.
    let asked = asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 1, "one dialog: {asked:?}");
    assert!(asked[0].save);
    assert_eq!(asked[0].name.as_deref(), Some("my-advanced.mg"));
    assert!(!dir.join("my-variant.mg").exists());
    assert!(!dir.join("my-advanced.mg").exists());
    let shipped = root().join("variants/advanced.mg");
    let (_, builtin) = murus_engine::BUILTIN
        .iter()
        .find(|(n, _)| *n == "advanced")
        .unwrap();
    assert_eq!(std::fs::read_to_string(&shipped).unwrap(), *builtin);
    // Written where the dialog said, which the text belongs to now.
    let saved = std::fs::read_to_string(&mine).unwrap();
    assert!(saved.contains("// mine"));
    assert!(h.query_by_label_contains("untitled").is_none());
    assert_eq!(
        h.state().rules.model().editor().path(),
        Some(mine.as_path())
    );
}

#[test]
fn open_asks_for_a_file_with_a_dialog_and_opens_its_full_path() {
    let dir = scratch("open-dialog");
    let elsewhere = scratch("open-dialog-elsewhere").join("far.mg");
    std::fs::write(&elsewhere, "// far away\n").unwrap();
    let mut h = rules_in(&dir);
    let (picker, asked) = picker(vec![Picked::Path(elsewhere.clone())]);
    h.state_mut().set_picker(picker);
    h.get_by_label("Open…").click();
    steps(&mut h, 1);
    answered(&mut h);
    let asked = asked.lock().unwrap().clone();
    assert!(!asked[0].save);
    assert_eq!(
        asked[0].filter,
        Some(("Rules".to_string(), vec!["mg".to_string()]))
    );
    assert_eq!(h.state().rules.model().editor().text(), "// far away\n");
    assert_eq!(
        h.state().rules.model().editor().path(),
        Some(elsewhere.as_path())
    );
    assert!(
        h.query_all_by_label_contains(&elsewhere.display().to_string())
            .next()
            .is_some(),
        "the title shows the full path"
    );
}

#[test]
fn without_a_desktop_dialog_the_path_is_typed_and_replacing_a_file_asks() {
    let dir = scratch("save-as-replace");
    let x = dir.join("x.mg");
    std::fs::write(&x, "// old\n").unwrap();
    let mut h = rules_in(&dir);
    let (picker, _) = picker(vec![
        Picked::Unavailable("no file dialog is available here".into()),
        Picked::Unavailable("no file dialog is available here".into()),
    ]);
    h.state_mut().set_picker(picker);
    let save_as = |h: &mut Harness<'_, StudioApp>| {
        h.get_by_label("Save as…").click();
        steps(h, 1);
        answered(h);
        assert!(
            h.query_by_label_contains(
                "no file dialog is available here: type the file's full path"
            )
            .is_some(),
            "the user is told why, and types the path"
        );
        h.get_by_label("Path").focus();
        steps(h, 1);
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        steps(h, 1);
        h.get_by_label("Path")
            .type_text(&dir.join("x").display().to_string());
        steps(h, 2);
        h.get_by_label("Save to this path").click();
        steps(h, 3);
    };
    save_as(&mut h);
    assert_eq!(
        std::fs::read_to_string(&x).unwrap(),
        "// old\n",
        "nothing written before the answer"
    );
    assert!(
        h.query_by_label_contains("x.mg?").is_some(),
        "the question is asked (the extension added)"
    );
    h.get_by_label("Cancel").click();
    steps(&mut h, 3);
    assert_eq!(
        std::fs::read_to_string(&x).unwrap(),
        "// old\n",
        "kept on Cancel"
    );
    save_as(&mut h);
    h.get_by_label("Replace").click();
    steps(&mut h, 3);
    assert_eq!(
        std::fs::read_to_string(&x).unwrap(),
        murus_engine::Variant::standard().source(),
        "replaced on Replace"
    );
}

#[test]
fn hovering_an_underlined_span_in_the_editor_shows_the_rendered_diagnostic() {
    let mut h = harness(app(Tab::Rules));
    steps(&mut h, 3);
    h.get_by_label("New").click();
    steps(&mut h, 2);
    type_in_editor(&mut h, "variant \"x\"\nbord rect 8 x 7\n");
    until(&mut h, 20, "the diagnostic", |h| {
        h.query_by_label_contains("2:1: error: unknown keyword `bord`")
            .is_some()
    });
    assert!(h.query_by_label_contains("did you mean `board`").is_none());
    // The pointer over the second letter of `bord`, on the second row
    // (rows of the monospace font are about 15 points high).
    let editor = h.get_by_label("Rule file").rect();
    h.hover_at(editor.left_top() + egui::vec2(16.0, 24.0));
    steps(&mut h, 6);
    assert!(
        h.query_by_label_contains("did you mean `board`").is_some(),
        "the rendered diagnostic with its help shows over the span"
    );
}

#[test]
fn opened_and_saved_messages_clear_after_an_edit_or_another_file() {
    let dir = scratch("stale-messages");
    let standard = murus_engine::Variant::standard();
    let text = standard.source();
    std::fs::write(dir.join("a.mg"), text).unwrap();
    std::fs::write(dir.join("b.mg"), text).unwrap();
    let mut h = rules_in(&dir);
    choose(&mut h, "Your variants", "a.mg");
    assert!(h.query_by_label_contains("opened").is_some());
    type_in_editor(&mut h, "// edit\n");
    assert!(
        h.query_by_label_contains("opened").is_none(),
        "\"opened a.mg\" went with the edit"
    );
    h.get_by_label("Save").click();
    steps(&mut h, 3);
    assert!(h.query_by_label_contains("saved").is_some());
    choose(&mut h, "Your variants", "b.mg");
    assert!(
        h.query_by_label_contains("saved").is_none(),
        "\"saved a.mg\" went with the file"
    );
    assert!(h.query_by_label_contains("opened").is_some());
    h.get_by_label("New").click();
    steps(&mut h, 3);
    assert!(
        h.query_by_label_contains("opened").is_none(),
        "\"opened b.mg\" went with the new file"
    );
}

#[test]
fn ctrl_s_saves_the_rules_file() {
    let dir = scratch("ctrl-s");
    let a = dir.join("a.mg");
    std::fs::write(&a, murus_engine::Variant::standard().source()).unwrap();
    let mut h = rules_in(&dir);
    choose(&mut h, "Your variants", "a.mg");
    type_in_editor(&mut h, "// edited\n");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    steps(&mut h, 3);
    assert!(std::fs::read_to_string(&a).unwrap().contains("// edited\n"));
    assert!(h.query_by_label_contains("saved").is_some());
}

// ---- The model, without egui ----

/// A Rules model opening and saving in `dir`.
pub fn model_in(dir: &Path) -> RulesModel {
    let mut m = RulesModel::new(RulesSaved::default());
    m.shelf_mut().set_dir(dir);
    m
}

#[test]
fn a_copy_of_a_built_in_is_untitled_and_save_asks_where_to_save_it() {
    let dir = scratch("copy");
    let mut m = model_in(&dir);
    m.request(FileAction::CopyBuiltin("advanced".into()));
    assert_eq!(m.editor().path(), None);
    assert_eq!(m.editor().title(), "untitled (copy of advanced)");
    assert!(!m.editor().is_dirty());
    m.set_text(format!("{}// mine\n", m.editor().text()), 1.0);
    let request = m.save().expect("an untitled text asks for a file");
    assert!(request.save);
    assert_eq!(request.name.as_deref(), Some("my-advanced.mg"));
    assert_eq!(
        request.dir.as_deref(),
        Some(murus_studio::files::absolute(&dir).as_path())
    );
    assert!(
        m.editor().is_dirty(),
        "nothing written before a file is chosen"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    m.save_to(&dir.join("mine.mg"));
    assert_eq!(m.editor().path(), Some(dir.join("mine.mg").as_path()));
    assert!(!m.editor().is_dirty());
    assert!(
        std::fs::read_to_string(dir.join("mine.mg"))
            .unwrap()
            .ends_with("// mine\n")
    );
    // Saved once, Save writes its file again without asking.
    m.set_text("// newer\n", 2.0);
    assert_eq!(m.save(), None);
    assert_eq!(
        std::fs::read_to_string(dir.join("mine.mg")).unwrap(),
        "// newer\n"
    );
}

#[test]
fn dropping_unsaved_edits_asks_first() {
    let dir = scratch("discard");
    let mut m = model_in(&dir);
    m.set_text("// unsaved\n", 1.0);
    m.request(FileAction::New);
    assert_eq!(
        m.editor().text(),
        "// unsaved\n",
        "nothing dropped before the answer"
    );
    assert_eq!(m.question().unwrap().go, "Discard changes");
    m.answer(Answer::Keep);
    assert_eq!(m.editor().text(), "// unsaved\n");
    m.request(FileAction::New);
    m.answer(Answer::Go(FileAction::New));
    assert_eq!(m.editor().text(), "");
    assert_eq!(m.editor().title(), "untitled");
}

#[test]
fn messages_belong_to_the_text_they_describe() {
    let dir = scratch("messages");
    std::fs::write(dir.join("a.mg"), "// a\n").unwrap();
    let mut m = model_in(&dir);
    m.request(FileAction::Open(dir.join("a.mg")));
    assert!(m.feedback().text().unwrap().starts_with("opened "));
    m.set_text("// a, edited\n", 1.0);
    assert_eq!(m.feedback().text(), None);
    m.save();
    assert!(m.feedback().text().unwrap().starts_with("saved "));
    m.request(FileAction::New);
    assert_eq!(m.feedback().text(), None);
    m.request(FileAction::Open(dir.join("missing.mg")));
    assert!(m.feedback().current().unwrap().is_error());
}

#[test]
fn diagnostics_are_found_under_their_span_and_only_for_the_current_text() {
    let mut m = RulesModel::new(RulesSaved::default());
    m.request(FileAction::New);
    let text = "variant \"x\"\nbord rect 8 x 7\n";
    m.set_text(text, 0.0);
    assert!(m.editor_mut().next_compile(0.1).is_none(), "debounced");
    assert_eq!(
        m.editor().compile_wait(0.1).map(|w| (w * 10.0).round()),
        Some(2.0)
    );
    let request = m.editor_mut().next_compile(1.0).expect("due");
    m.editor_mut().compile_finished(request.run());
    let at = text.find("bord").unwrap();
    let d = diagnostic_at(&m, at + 1).expect("a diagnostic over `bord`");
    assert!(
        d.rendered.contains("did you mean `board`"),
        "{}",
        d.rendered
    );
    assert!(d.rendered.starts_with("untitled.mg:2:1: error"));
    assert!(diagnostic_at(&m, 0).is_none());
    assert_eq!(marks(&m).len(), 1);
    m.set_text(format!("{text} "), 2.0);
    assert!(
        diagnostic_at(&m, at + 1).is_none(),
        "stale diagnostics point nowhere"
    );
    assert!(marks(&m).is_empty());
}

#[test]
fn perft_counts_the_start_position() {
    let mut m = RulesModel::new(RulesSaved::default());
    assert_eq!(m.start_perft(), Ok(()));
    assert!(!m.perft().is_running(), "nothing compiled yet");
    m.compile_now();
    m.perft_mut().set_depth(99);
    assert_eq!(m.perft().depth(), MAX_PERFT_DEPTH);
    m.perft_mut().set_depth(2);
    assert_eq!(m.start_perft(), Ok(()));
    assert_eq!(
        m.start_perft().map_err(|b| b.to_string()),
        Err("a perft run is going on: cancel it first".into()),
        "one run at a time"
    );
    m.settle();
    assert!(!m.perft().is_running());
    assert_eq!(perft_lines(&m).len(), 2);
    let n1 = Variant::standard()
        .legal_moves(&Variant::standard().start())
        .len();
    assert!(perft_lines(&m)[0].starts_with(&format!("perft 1: {n1} ")));
}

// ---- Regression tests of issue 22 (the Rules panel) ----

#[test]
fn perft_counts_belong_to_the_rules_they_were_counted_for() {
    let mut h = harness(app(Tab::Rules));
    steps(&mut h, 2);
    compiled_clean(&mut h);
    let first = |v: &Variant| format!("perft 1: {} ", v.legal_moves(&v.start()).len());
    let standard = first(&Variant::standard());
    h.get_by_label("Run perft").click();
    until(&mut h, 30, "perft", |h| {
        perft_lines(h.state().rules.model()).len() >= 3
    });
    assert!(h.query_by_label_contains(&standard).is_some());
    h.state_mut()
        .rules
        .model_mut()
        .request(FileAction::CopyBuiltin("hex".into()));
    until(&mut h, 20, "the hex compilation", |h| {
        h.state()
            .rules
            .model()
            .editor()
            .compiled_variant()
            .is_some_and(|v| v.name() == "hex")
    });
    steps(&mut h, 2);
    assert!(h.query_by_label_contains("legal first moves").is_some());
    assert!(
        h.query_by_label_contains("perft 1:").is_none(),
        "no count of the standard game beside the hex board"
    );
    h.get_by_label("Run perft").click();
    until(&mut h, 30, "perft of hex", |h| {
        !perft_lines(h.state().rules.model()).is_empty()
    });
    steps(&mut h, 2);
    let hex = first(&Variant::builtin("hex").unwrap());
    assert!(h.query_by_label_contains(&hex).is_some(), "{hex}");
}

#[test]
fn clicking_a_diagnostic_focuses_the_editor_so_the_next_key_is_typed_there() {
    let mut h = harness(app(Tab::Rules));
    steps(&mut h, 3);
    h.get_by_label("New").click();
    steps(&mut h, 2);
    type_in_editor(&mut h, "variant \"x\"\nbord rect 8 x 7\n");
    let diag = "2:1: error: unknown keyword `bord`";
    until(&mut h, 20, "the diagnostic", |h| {
        h.query_by_label_contains(diag).is_some()
    });
    h.get_by_label_contains(diag).click();
    steps(&mut h, 3);
    // The next key, sent to whatever has focus.
    h.event(egui::Event::Text("Q".into()));
    steps(&mut h, 2);
    assert_eq!(
        h.state().rules.model().editor().text(),
        "variant \"x\"\nQbord rect 8 x 7\n",
        "typed where the diagnostic points"
    );
}

#[test]
fn a_file_opened_by_a_relative_path_is_named_in_full() {
    // Tests run in the crate's folder.
    let mut m = RulesModel::new(RulesSaved::default());
    m.request(FileAction::Open(PathBuf::from(
        "../../variants/standard.mg",
    )));
    let path = m.editor().path().expect("opened").to_path_buf();
    assert!(path.is_absolute(), "{}", path.display());
    assert!(path.ends_with("variants/standard.mg"));
    assert_eq!(m.editor().title(), path.display().to_string());
}

// ---- Regression tests of issue 22 (Train bot) ----

/// The rules sheet of rules that do not compile is refused before any
/// dialog; a second sheet asked for while one is written is refused saying
/// so, and the first is written all the same.
#[test]
fn a_rules_sheet_needs_rules_that_compile_and_one_is_written_at_a_time() {
    let dir = scratch("sheet-refusals");
    let mut m = model_in(&dir);
    m.request(FileAction::CopyBuiltin("standard".into()));
    m.set_text("variant \"x\"\n", 0.0);
    m.compile_now();
    assert!(m.sheet_request().is_none(), "no dialog for nothing");
    let said = m.feedback().current().map(|f| f.text.clone());
    assert!(
        said.as_deref()
            .is_some_and(|t| t.contains("the rules do not compile yet")),
        "{said:?}"
    );
    // The edits are dropped: the question is answered.
    m.request(FileAction::CopyBuiltin("standard".into()));
    m.answer(Answer::Go(FileAction::CopyBuiltin("standard".into())));
    m.compile_now();
    let request = m.sheet_request().expect("the sheet's Save dialog");
    assert_eq!(request.name.as_deref(), Some("standard-rules.html"));
    let (first, second) = (dir.join("first.html"), dir.join("second.html"));
    m.write_sheet(&first);
    assert!(m.sheet().is_running());
    m.write_sheet(&second);
    let said = m.feedback().current().map(|f| f.text.clone());
    assert!(
        said.as_deref()
            .is_some_and(|t| t.contains("a rules sheet is being written to")),
        "{said:?}"
    );
    assert!(
        m.sheet_request().is_none(),
        "no dialog while one is written"
    );
    m.settle();
    assert!(!m.sheet().is_running());
    assert!(first.is_file() && !second.exists());
    let said = m.feedback().current().map(|f| f.text.clone());
    assert_eq!(
        said,
        Some(format!("rules sheet written: {}", first.display()))
    );
}
