//! The Rules panel: its model driven directly, and the panel through the UI.

use murus_engine::Variant;
use murus_studio::dialog::Answer;
use murus_studio::files::Picked;
use murus_studio::rules::{DiagView, FileAction, MAX_PERFT_DEPTH, RulesModel, RulesSaved};
use murus_studio::training::TrainEnd;

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
    assert_eq!(h.state().play.model().variant().name(), "hex");
    // Hex cells are reachable by name too.
    let g = h.state().play.model().variant().geometry().clone();
    let first = h.state().play.model().game().legal_moves()[0];
    let from = g.name(first.origin().expect("a sowing"));
    let to = g.name(first.targets().next().expect("a target"));
    h.get_by_label(&format!("cell {from}")).click();
    steps(&mut h, 1);
    h.get_by_label(&format!("cell {to}")).click();
    steps(&mut h, 2);
    assert_eq!(h.state().play.model().game().ply(), 1);
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

/// Why "Train bot" cannot start on the current text.
pub fn why_not(m: &RulesModel) -> Option<String> {
    m.training().why_not(m.editor().fresh_variant())
}

/// "Train bot"'s start button's label for the rules shown.
pub fn train_label(m: &RulesModel) -> String {
    m.training().label(m.editor().rules_key())
}

/// How the last training run of the rules shown ended.
pub fn outcome(m: &RulesModel) -> Option<&TrainEnd> {
    m.training().outcome(m.editor().rules_key())
}

/// The training folder of the rules shown.
pub fn training_folder(m: &RulesModel) -> Option<PathBuf> {
    let v = m.editor().compiled_variant()?;
    Some(m.training().folder(v))
}

fn scratch(name: &str) -> PathBuf {
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

fn compiled_clean(h: &mut Harness<'_, StudioApp>) {
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
fn model_in(dir: &Path) -> RulesModel {
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

// ---- Train bot (issue 12) ----

/// The small variant's rules with a ply cap of the test's own: rules no
/// other test plays (evaluations belong to the rules, not to the text), so
/// the evaluation a run registers for them changes no other test's bots,
/// and the shipped `small.eval` is not theirs.
fn own_small_rules(test: &str) -> String {
    let (_, small) = murus_engine::BUILTIN
        .iter()
        .find(|(n, _)| *n == "small")
        .expect("the small variant");
    let plies = 301 + murus_engine::util::fnv1a(test.as_bytes()) % 1000;
    assert!(
        small.contains("plies 300"),
        "the small variant's ply cap moved"
    );
    format!(
        "{}\n// trained by the test {test}\n",
        small.replace("plies 300", &format!("plies {plies}"))
    )
}

/// Tiny training options: 300 positions of `alphabeta:100`, a network of 4
/// hidden units fitted in 2 epochs, no validation, data kept in `dir`.
fn tiny_training(m: &mut RulesModel, dir: &Path) {
    let s = m.training_mut().settings_mut();
    s.dir = dir.display().to_string();
    s.positions = 300;
    s.threads = 2;
    s.seed = 3;
    s.validate = false;
    let t = &mut m.training_mut().tuning;
    t.bot = "alphabeta:100".parse().unwrap();
    t.fit.hidden = 4;
    t.fit.epochs = 2;
}

/// Waits until the run going on has finished a game (its progress comes
/// as the model polls).
fn until_a_game_is_played(m: &mut RulesModel) {
    let t = std::time::Instant::now();
    while m
        .training()
        .status()
        .is_some_and(|s| s.text.starts_with("Self-play: 0 /"))
    {
        assert!(t.elapsed().as_secs() < 120, "no game finished");
        std::thread::sleep(Duration::from_millis(20));
        m.poll(f64::NEG_INFINITY);
    }
}

#[test]
fn train_bot_cancels_resumes_and_keeps_an_evaluation_beside_the_rules_file() {
    use murus_studio::Tone;

    let dir = scratch("train");
    let text = own_small_rules("train_bot_cancels_resumes");
    std::fs::write(dir.join("mine.mg"), &text).unwrap();
    let mut m = model_in(&dir);
    m.request(FileAction::Open(dir.join("mine.mg")));
    tiny_training(&mut m, &dir.join("training"));
    assert_eq!(why_not(&m).as_deref(), Some("the rules are compiling"));
    m.compile_now();
    m.settle();
    assert_eq!(why_not(&m), None);
    assert_eq!(train_label(&m), "Train bot", "no data yet");

    // Cancel keeps the games played; the next start resumes them.
    m.training_mut().settings_mut().positions = 1_000_000;
    m.start_training();
    assert!(m.training().is_running());
    assert_eq!(
        why_not(&m).as_deref(),
        Some("a training run is going on: cancel it first")
    );
    until_a_game_is_played(&mut m);
    m.training_mut().cancel();
    m.settle();
    assert!(!m.training().is_running());
    let end = outcome(&m).expect("the cancelled run's outcome");
    assert_eq!(end.tone, Tone::Info);
    assert!(
        end.text().starts_with("Training cancelled"),
        "{}",
        end.text()
    );
    assert!(
        train_label(&m).starts_with("Resume training ("),
        "{}",
        train_label(&m)
    );
    // Data of another seed is not mixed with this one's.
    m.training_mut().settings_mut().seed = 4;
    assert!(
        why_not(&m).is_some_and(|w| w.contains("seed 3")),
        "{:?}",
        why_not(&m)
    );
    m.training_mut().settings_mut().seed = 3;

    m.training_mut().settings_mut().positions = 300;
    m.start_training();
    m.settle();
    let end = outcome(&m).expect("an outcome").clone();
    assert_eq!(end.tone, Tone::Success, "{}", end.text());
    for line in [
        "Self-play: ",
        "held-out error ",
        "Not validated: the network is kept as fitted.",
        "Kept the network: ",
        "Also wrote ",
        "\"hard (trained)\" names it.",
    ] {
        assert!(end.text().contains(line), "`{line}` in {}", end.text());
    }
    let kept = training_folder(&m).expect("compiled").join("small.eval");
    assert_eq!(end.kept.as_deref(), Some(kept.as_path()));
    let bytes = std::fs::read(&kept).expect("the kept evaluation");
    let file = murus_ai::EvalFile::from_bytes(&bytes).expect("a good evaluation file");
    assert_eq!(
        file.check_variant(&murus_engine::Variant::compile(&text).unwrap()),
        Ok(())
    );
    assert_eq!(
        std::fs::read(dir.join("mine.eval")).ok(),
        Some(bytes),
        "the same file beside mine.mg"
    );
    assert_eq!(
        murus_ai::Evaluation::for_variant(&murus_engine::Variant::compile(&text).unwrap())
            .describe(),
        "network (4 hidden)",
        "registered for these rules"
    );
    assert!(train_label(&m).starts_with("Resume training ("));

    // The outcome belongs to the rules it trained (issue 22: not to the
    // text): a space keeps it, other rules do not show it.
    m.set_text(format!("{text} "), 1.0);
    m.compile_now();
    assert_eq!(outcome(&m), Some(&end));
    m.set_text(text.replace("repetition 3", "repetition 4"), 2.0);
    m.compile_now();
    assert!(outcome(&m).is_none());
    m.set_text(text.clone(), 3.0);
    m.compile_now();
    assert_eq!(outcome(&m), Some(&end));
}

#[test]
fn a_validated_candidate_that_does_not_win_its_match_is_not_kept() {
    let dir = scratch("train-validated");
    let text = own_small_rules("a_validated_candidate");
    let mut m = model_in(&dir);
    m.set_text(text.clone(), 0.0);
    tiny_training(&mut m, &dir.join("training"));
    m.training_mut().settings_mut().validate = true;
    let v = &mut m.training_mut().tuning.validation;
    v.nodes = 100;
    v.max_games = 4;
    m.compile_now();
    m.settle();
    m.start_training();
    m.settle();
    let end = outcome(&m).expect("an outcome");
    for line in [
        "Validation of the network against the current evaluation: 4 games, ",
        "Validation of the weights against the current evaluation: 4 games, ",
        ": undecided.",
        "No candidate beat the current evaluation: nothing kept.",
    ] {
        assert!(end.text().contains(line), "`{line}` in {}", end.text());
    }
    assert_eq!(end.tone, murus_studio::Tone::Warning);
    assert_eq!(end.kept, None);
    assert!(
        !training_folder(&m)
            .expect("compiled")
            .join("small.eval")
            .exists()
    );
    assert_eq!(
        murus_ai::Evaluation::for_variant(&murus_engine::Variant::compile(&text).unwrap())
            .describe(),
        "generic",
        "nothing registered"
    );
}

#[test]
fn train_bot_needs_rules_that_compile_and_takes_any_number_of_players() {
    let mut m = model_in(&scratch("train-refused"));
    m.set_text("variant \"x\"\nboard", 0.0);
    m.compile_now();
    assert_eq!(
        why_not(&m).as_deref(),
        Some("fix the errors first: the rules do not compile")
    );
    // Four players: the features' weights are trained (no network).
    let escape4 = Variant::builtin("escape4").expect("escape4");
    m.set_text(escape4.source(), 1.0);
    m.compile_now();
    assert_eq!(why_not(&m), None);
}

/// The button whose label starts with `label` (the section's heading is
/// "Train bot" too).
fn train_button<'h>(h: &'h Harness<'_, StudioApp>, label: &'h str) -> egui_kittest::Node<'h> {
    use egui::accesskit::Role;
    use egui_kittest::kittest::{NodeT, by};
    h.query_all(by().label_contains(label))
        .find(|n| n.accesskit_node().role() == Role::Button)
        .unwrap_or_else(|| panic!("no button `{label}`"))
}

#[test]
fn train_bot_in_the_rules_panel_trains_and_offers_the_trained_bot_in_play_and_lab() {
    let mut h = harness(app(Tab::Rules));
    steps(&mut h, 2);
    let text = own_small_rules("train_bot_in_the_rules_panel");
    {
        let m = h.state_mut().rules.model_mut();
        m.request(FileAction::CopyBuiltin("small".into()));
        m.set_text(text.clone(), 0.0);
        let dir = PathBuf::from(&m.training().settings().dir);
        tiny_training(m, &dir);
    }
    compiled_clean(&mut h);
    until(&mut h, 20, "the data folder read", |h| {
        why_not(h.state().rules.model()).is_none()
    });
    train_button(&h, "Train bot").click();
    steps(&mut h, 2);
    assert!(h.state().rules.model().training().is_running());
    until(&mut h, 120, "the outcome", |h| {
        h.query_by_label_contains("Kept the network: ").is_some()
    });
    let kept = training_folder(h.state().rules.model())
        .expect("compiled")
        .join("small.eval");
    assert!(kept.is_file(), "{} exists", kept.display());
    until(&mut h, 20, "the resume button", |h| {
        h.query_by_label_contains("Resume training (").is_some()
    });

    // A second run, cancelled: the games are kept, and resumed next time.
    h.state_mut()
        .rules
        .model_mut()
        .training_mut()
        .settings_mut()
        .positions = 1_000_000;
    train_button(&h, "Resume training (").click();
    steps(&mut h, 2);
    until(&mut h, 20, "the progress bar", |h| {
        h.query_by_label_contains("Self-play: ").is_some()
    });
    h.get_by_label("Cancel training").click();
    until(&mut h, 120, "the cancelled run's end", |h| {
        h.query_by_label_contains("Training cancelled").is_some()
    });
    assert!(!h.state().rules.model().training().is_running());
    until(&mut h, 20, "the resume button", |h| {
        h.query_by_label_contains("Resume training (").is_some()
    });

    // Play offers the trained bot for these rules.
    h.get_by_label("Play this variant").click();
    steps(&mut h, 3);
    assert_eq!(h.state().tab, Tab::Play);
    {
        use egui::accesskit::Role;
        use egui_kittest::kittest::{NodeT, by};
        h.query_all(by().label("Gauls"))
            .find(|n| n.accesskit_node().role() == Role::ComboBox)
            .expect("the Gauls' seat menu")
            .click();
    }
    steps(&mut h, 2);
    h.get_by_label("hard (trained)").click();
    steps(&mut h, 3);

    let seat = h.state().play.model().seats()[1].to_string();
    assert_eq!(seat, format!("alphabeta:50000:eval={}", kept.display()));

    // And so does Lab, for the rules editor's variant.
    h.state_mut()
        .lab
        .edit(|s| s.variant = murus_studio::lab::FROM_RULES.into());
    h.state_mut().tab = Tab::Lab;
    steps(&mut h, 3);
    h.get_by_label("to seat 2").click();
    steps(&mut h, 2);
    assert_eq!(
        h.state().lab.model.saved().bots[1],
        format!("hard:eval={}", kept.display())
    );
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

/// The number after `after` in `text`, digits grouped by spaces:
/// `3 007` in `Self-play: 3 007 positions from 94 games.`.
fn count_after(text: &str, after: &str) -> u64 {
    let (_, rest) = text
        .split_once(after)
        .unwrap_or_else(|| panic!("no {after:?} in {text:?}"));
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ' ')
        .filter(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no count in {text:?}"))
}

/// The Rules panel on `text`, trained with tiny options in a folder of
/// its own, its data folder read.
fn training_harness(text: &str) -> Harness<'static, StudioApp> {
    let mut h = harness(app(Tab::Rules));
    steps(&mut h, 2);
    {
        let m = h.state_mut().rules.model_mut();
        m.request(FileAction::CopyBuiltin("small".into()));
        m.set_text(text, 0.0);
        let dir = PathBuf::from(&m.training().settings().dir);
        tiny_training(m, &dir);
    }
    compiled_clean(&mut h);
    until(&mut h, 20, "the data folder read", |h| {
        why_not(h.state().rules.model()).is_none()
    });
    h
}

/// Clicks the button that starts training (`Train bot` or `Resume
/// training (…)`) and waits for the outcome; returns its text.
fn train_to_the_end(h: &mut Harness<'static, StudioApp>, button: &str) -> String {
    use egui_kittest::kittest::NodeT;
    train_button(h, button).click();
    steps(h, 2);
    until(h, 120, "the outcome", |h| {
        h.query_by_label_contains("Self-play: ").is_some()
            && !h.state().rules.model().training().is_running()
    });
    until(h, 20, "the resume button", |h| {
        h.query_by_label_contains("Resume training (").is_some()
    });
    // A label's text is its value.
    h.get_by_label_contains("Self-play: ")
        .accesskit_node()
        .value()
        .unwrap_or_default()
}

/// Issue 22: Train bot said "3 082 positions so far" where its log said
/// 3 007: the data held games finished after the run had its positions,
/// which it did not learn from.
#[test]
fn train_bot_counts_the_positions_its_outcome_counts() {
    use egui_kittest::kittest::NodeT;
    let text = own_small_rules("train_bot_counts_the_positions_its_outcome_counts");
    let mut h = training_harness(&text);
    h.state_mut()
        .rules
        .model_mut()
        .training_mut()
        .settings_mut()
        .positions = 600;
    train_to_the_end(&mut h, "Train bot");
    // A run asking for fewer positions than the data holds learns from
    // the first games only: the button says so before, and the outcome
    // after.
    h.state_mut()
        .rules
        .model_mut()
        .training_mut()
        .settings_mut()
        .positions = 250;
    steps(&mut h, 2);
    let before = train_button(&h, "Resume training (")
        .accesskit_node()
        .label()
        .unwrap_or_default();
    let outcome = train_to_the_end(&mut h, "Resume training (");
    let learned = count_after(&outcome, "Self-play: ");
    assert!(learned >= 250, "{outcome}");
    let after = train_button(&h, "Resume training (")
        .accesskit_node()
        .label()
        .unwrap_or_default();
    assert_eq!(
        count_after(&before, "Resume training ("),
        learned,
        "the button said {before:?}; the outcome {outcome:?}"
    );
    assert_eq!(count_after(&after, "Resume training ("), learned, "{after}");
}

/// Issue 22: a title edit dropped Train bot's results. They belong to the
/// rules (their key), not to the text: the outcome, the data to resume and
/// the trained bot stay after a new title and a comment, and go with a
/// change of the rules.
#[test]
fn a_title_edit_keeps_train_bots_results() {
    let text = own_small_rules("a_title_edit_keeps_train_bots_results");
    let mut h = training_harness(&text);
    let outcome = train_to_the_end(&mut h, "Train bot");
    assert!(outcome.contains("Kept the network: "), "{outcome}");
    let retitled = text.replace(
        "title \"Murus Gallicus 7×7\"",
        "// A new title.\ntitle \"My own small game\"",
    );
    assert_ne!(retitled, text);
    h.state_mut().rules.model_mut().set_text(retitled, 0.0);
    steps(&mut h, 2);
    compiled_clean(&mut h);
    until(&mut h, 20, "the data folder read", |h| {
        h.query_by_label_contains("Resume training (").is_some()
    });
    assert!(
        h.query_by_label_contains("Kept the network: ").is_some(),
        "the outcome is still shown"
    );
    // And the data resumes to more positions: the lab's train.json knows
    // the rules by their key too (it refused the text it had not seen).
    let learned = count_after(&outcome, "Self-play: ");
    h.state_mut()
        .rules
        .model_mut()
        .training_mut()
        .settings_mut()
        .positions = learned + 300;
    let resumed = train_to_the_end(&mut h, "Resume training (");
    assert!(
        count_after(&resumed, "Self-play: ") > learned,
        "{outcome} then {resumed}"
    );
    // Lab offers the trained bot for the retitled rules.
    h.state_mut()
        .lab
        .edit(|s| s.variant = murus_studio::lab::FROM_RULES.into());
    h.state_mut().tab = Tab::Lab;
    steps(&mut h, 3);
    assert!(
        h.query_by_label("to seat 2").is_some(),
        "the trained bot is offered"
    );
    // Other rules: none of it.
    h.state_mut().tab = Tab::Rules;
    let other = text.replace("repetition 3", "repetition 4");
    assert_ne!(other, text);
    h.state_mut().rules.model_mut().set_text(other, 0.0);
    steps(&mut h, 2);
    compiled_clean(&mut h);
    until(&mut h, 20, "the data folder read", |h| {
        let m = h.state().rules.model();
        why_not(m).is_none() && train_label(m) == "Train bot"
    });
    assert!(h.query_by_label_contains("Resume training (").is_none());
    assert!(h.query_by_label_contains("Kept the network: ").is_none());
}
