//! The whole app: saved state, frame time.

use super::*;

#[test]
fn saved_state_round_trips_and_old_saves_load() {
    let mut a = app(Tab::Lab);
    a.play.model_mut().set_seat(1, "hard".parse().unwrap());
    a.rules.model_mut().set_text("// unsaved work\n", 0.0);
    let saved = a.saved();
    let json = serde_json::to_string(&saved).unwrap();
    let back: Saved = serde_json::from_str(&json).unwrap();
    assert_eq!(back, saved);
    let restored = StudioApp::from_saved(back);
    assert_eq!(restored.tab, Tab::Lab);
    assert_eq!(
        restored.play.model().seats().all()[1],
        "hard".parse().unwrap()
    );
    assert_eq!(restored.rules.model().editor().text(), "// unsaved work\n");
    // A save from an older version with fields missing still loads.
    let old: Saved = serde_json::from_str(r#"{"tab":"Rules","play":{"flipped":true}}"#).unwrap();
    assert_eq!(old.tab, Tab::Rules);
    assert!(old.play.flipped);
    assert_eq!(old.lab, murus_studio::lab::LabSaved::default());
}

#[test]
fn frames_go_on_while_a_bot_thinks_and_a_lab_runs() {
    let mut a = app(Tab::Play);
    a.play.model_mut().set_seat(0, "hard".parse().unwrap());
    a.play.model_mut().set_seat(1, "hard".parse().unwrap());
    a.lab.edit(|s| s.games = 100_000);
    a.lab.edit(|s| s.bots = vec!["random".into()]);
    let mut h = harness(a);
    steps(&mut h, 5);
    h.state_mut().tab = Tab::Lab;
    steps(&mut h, 1);
    h.get_by_label("Run").click();
    steps(&mut h, 2);
    h.state_mut().tab = Tab::Play;
    steps(&mut h, 5);
    let mut times = Vec::new();
    let mut busy = 0;
    for _ in 0..60 {
        let t = Instant::now();
        h.step();
        times.push(t.elapsed().as_secs_f64() * 1e3);
        if h.state().play.is_thinking() && h.state().lab.is_running() {
            busy += 1;
        }
    }
    let (median, p95, max) = murus_studio::FrameStats::summary(&times);
    println!(
        "kittest step (build + tessellate, no GPU) ms: median {median:.2} p95 {p95:.2} max {max:.2}; {busy}/60 frames with bot + lab busy"
    );
    h.state_mut().lab.cancel();
    // Frames went on while both worked: a UI thread that waited for the bot
    // or the lab would never see them busy between two frames. Frame time
    // itself is a benchmark (`murus-studio --bench-frames`), not a test.
    assert!(
        busy > 30,
        "the bot and the lab were busy for {busy}/60 frames"
    );
}

// ---- Issue 38 ----

#[test]
fn a_second_file_dialog_is_refused_and_says_so() {
    // A dialog that stays open until the test answers it.
    let (answer, answers) = std::sync::mpsc::channel::<Picked>();
    let answers = Mutex::new(answers);
    let asked: Asked = Arc::default();
    let log = asked.clone();
    let picker: Picker = Arc::new(move |r: &PickRequest| {
        log.lock().unwrap().push(r.clone());
        answers.lock().unwrap().recv().unwrap_or(Picked::Cancelled)
    });
    let mut a = app(Tab::Murals);
    a.set_picker(picker);
    let mut h = harness(a);
    steps(&mut h, 2);
    click(&mut h, "Open…");
    // The first dialog is open (the desktop's may be behind the window):
    // another panel asks for one.
    h.state_mut().tab = Tab::Rules;
    steps(&mut h, 2);
    click(&mut h, "Open…");
    steps(&mut h, 2);
    assert_eq!(asked.lock().unwrap().len(), 1, "one dialog at a time");
    assert!(
        shows(
            &h,
            "\u{201c}Open a rules file\u{201d} did not open: the file dialog \u{201c}Open a puzzle\u{201d} is open"
        ),
        "the refusal is said"
    );
    // The first dialog's answer is kept and done.
    let file = root().join("puzzles/02-5x5-easy.toml");
    answer.send(Picked::Path(file.clone())).unwrap();
    answered(&mut h);
    assert!(h.state().murals.model().document().is_file(&file));
    assert_eq!(h.state().tab, Tab::Murals);
    assert!(
        !shows(&h, "did not open"),
        "said only while the first is open"
    );
}

#[test]
fn unsaved_work_is_marked_on_every_tab_from_one_count() {
    let mut h = harness(app(Tab::Play));
    steps(&mut h, 2);
    click_move(&mut h, "b1", "b3");
    click_move(&mut h, "c7", "c5");
    h.state_mut().tab = Tab::Murals;
    steps(&mut h, 2);
    click(&mut h, "Toggle targets");
    click(&mut h, "cell b1");
    let unsaved = h.state().unsaved_work();
    assert_eq!(
        unsaved,
        [
            (Tab::Play, "2 unsaved moves".to_string()),
            (Tab::Murals, "an unsaved puzzle".to_string())
        ]
    );
    // The tab titles mark the same panels, and no other.
    assert!(
        shows_exactly(&h, "Play*"),
        "Play's unsaved moves are not marked"
    );
    assert!(
        shows_exactly(&h, "Murals*"),
        "the unsaved puzzle is not marked"
    );
    assert!(shows_exactly(&h, "Rules") && !shows(&h, "Rules*"));
    assert!(shows_exactly(&h, "Lab"));
}

#[test]
fn the_headless_check_opens_a_shipped_puzzle_and_refuses_an_unknown_one() {
    let found = StudioApp::check_open_puzzle("02-5x5-easy").expect("the shipped puzzle opens");
    assert!(found.starts_with("opened 02-5x5-easy.toml: "), "{found}");
    assert!(found.contains("shipped variants"), "{found}");
    let why = StudioApp::check_open_puzzle("nonesuch").unwrap_err();
    assert!(
        why.contains("does not list a shipped puzzle `nonesuch`"),
        "{why}"
    );
}
