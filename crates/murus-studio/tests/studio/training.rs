//! "Train bot" in the Rules panel: its model driven directly with tiny
//! options, and the panel through the UI. Each test trains rules of its own
//! ([`own_small_rules`]), whose training folder is its own.

use murus_engine::Variant;
use murus_studio::rules::{FileAction, RulesModel};
use murus_studio::training::TrainEnd;

use super::rules::{compiled_clean, model_in, scratch};
use super::*;

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

/// The small variant's rules with a ply cap of the test's own: rules no
/// other test plays (evaluations belong to the rules, not to the text), so
/// the shipped `small.eval` is not theirs.
pub fn own_small_rules(test: &str) -> String {
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
pub fn tiny_training(m: &mut RulesModel, dir: &Path) {
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
        "\"hard (trained)\" names it in Play's and Lab's bot choices on ",
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
    // Chosen as "hard (trained)", a bot plays with it; nothing else in
    // the process changed: the same rules, compiled, have no evaluation.
    let trained: murus_ai::BotSpec = murus_studio::training::trained_spec(&kept)
        .parse()
        .expect("a bot spec");
    let v = murus_engine::Variant::compile(&text).unwrap();
    let mut bot = murus_ai::Bot::new(trained, 1);
    bot.prepare(&v);
    assert_eq!(bot.evaluation().describe(), "network (4 hidden)");
    assert_eq!(murus_ai::Evaluation::for_variant(&v).describe(), "generic");
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
        "nothing kept"
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

    let seat = h.state().play.model().seats().all()[1].to_string();
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
