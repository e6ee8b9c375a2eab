//! The model as a whole: its parts working together, files and questions.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::*;
use crate::dialog::Answer;
use crate::murals::EXAMPLE;
use murus_mural::Status;

fn model() -> MuralsModel {
    let mut m = MuralsModel::new(MuralsSaved::default());
    // Never the user's data folder: one that does not exist.
    let data = std::env::temp_dir().join(format!("murus-murals-data-{}", std::process::id()));
    m.files_mut()
        .shelf_mut()
        .set_places(crate::places::Places::at(&data));
    m.files_mut().shelf_mut().set_dir(PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../puzzles"
    )));
    m
}

fn finish(m: &mut MuralsModel) {
    let t = std::time::Instant::now();
    while m.tasks().is_busy() {
        assert!(t.elapsed().as_secs() < 60, "background work did not end");
        std::thread::sleep(Duration::from_millis(5));
        m.poll(0.0);
    }
}

fn cell(m: &MuralsModel, name: &str) -> usize {
    m.document()
        .puzzle()
        .unwrap()
        .board
        .parse_cell(name)
        .unwrap()
}

#[test]
fn undo_restores_the_board_painting_produced_even_when_invalid() {
    let mut m = model();
    m.set_tool(Tool::Stacks);
    m.set_brush(Some((0, 1)));
    m.click(cell(&m, "e1"), false); // an extra wall: invalid
    assert!(!m.document().problems().is_empty());
    let walled = m.document().puzzle().unwrap().to_toml();
    m.set_tool(Tool::Targets);
    m.click(cell(&m, "b1"), false); // one more target: valid again
    assert!(m.document().is_valid());
    m.edit(Edit::Undo);
    assert_eq!(m.document().puzzle().unwrap().to_toml(), walled);
    assert!(!m.document().problems().is_empty());
    assert!(
        m.document().can_paint(),
        "painting goes on from the restored board"
    );
    m.edit(Edit::Undo);
    assert_eq!(m.document().text(), EXAMPLE);
    assert!(!m.editor().can_undo());
    m.edit(Edit::Redo);
    assert_eq!(m.document().puzzle().unwrap().to_toml(), walled);
}

#[test]
fn a_run_of_typing_is_one_undo_step() {
    let mut m = model();
    let a = EXAMPLE.replace("Leapfrog", "Leapfro");
    let b = EXAMPLE.replace("Leapfrog", "Leapfr");
    m.edit(Edit::Type {
        text: a.clone(),
        now: 10.0,
    });
    m.edit(Edit::Type {
        text: b.clone(),
        now: 10.5,
    });
    m.edit(Edit::Type {
        text: EXAMPLE.replace("Leapfrog", "Leap"),
        now: 12.0,
    });
    assert_eq!(m.play().tool(), Tool::Stacks, "typing is editing");
    m.edit(Edit::Undo);
    assert_eq!(m.document().text(), b, "the pause ended the first run");
    m.edit(Edit::Undo);
    assert_eq!(m.document().text(), EXAMPLE);
}

#[test]
fn figures_go_stale_on_an_edit_and_fresh_on_undo_or_a_count() {
    let mut m = model();
    let f = m.files().shelf().files()[1].clone();
    m.perform(Pending::Open(f));
    assert_eq!(m.document().figures().map(|f| f.stale), Some(false));
    m.set_tool(Tool::Targets);
    m.click(cell(&m, "a1"), false);
    m.click(cell(&m, "a5"), false);
    assert!(m.document().is_valid());
    assert_eq!(m.document().figures().map(|f| f.stale), Some(true));
    m.edit(Edit::Undo);
    m.edit(Edit::Undo);
    assert_eq!(m.document().figures().map(|f| f.stale), Some(false));
    // Another mural with figures typed in: stale until a count agrees.
    m.edit(Edit::Replace(format!("{FORK}optimal = 1\n")));
    assert_eq!(m.document().figures().map(|f| f.stale), Some(true));
    m.start(Task::Count);
    finish(&mut m);
    assert_eq!(
        m.document().figures().map(|f| f.stale),
        Some(false),
        "the count agrees"
    );
    assert!(
        m.tasks().counted_figures_differ(m.document().puzzle()),
        "it can add the missing difficulty"
    );
    // A count that disagrees offers its figures.
    m.edit(Edit::Replace(format!("{FORK}optimal = 3\n")));
    m.start(Task::Count);
    finish(&mut m);
    assert!(m.tasks().counted_figures_differ(m.document().puzzle()));
    m.use_counted_figures();
    let f = m.document().figures().unwrap();
    assert_eq!((f.optimal, f.stale), (Some(1), false));
    assert!(m.document().text().contains("optimal = 1"));
}

#[test]
fn an_untitled_puzzle_asks_where_to_save_and_belongs_to_the_file_chosen() {
    let dir = std::env::temp_dir().join(format!("murus-murals-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut m = model();
    m.files_mut().shelf_mut().set_dir(dir.clone());
    // Untitled: Save asks where, proposing a name made of the title.
    let request = m.save().expect("a Save dialog");
    assert!(request.save);
    assert_eq!(request.dir, Some(crate::files::absolute(&dir)));
    assert_eq!(request.name.as_deref(), Some("leapfrog.toml"));
    assert!(!dir.join("leapfrog.toml").exists(), "nothing written yet");
    // The file chosen in the dialog (which asked before replacing one).
    let mine = dir.join("mine.toml");
    m.save_to_chosen(&mine);
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), EXAMPLE);
    assert!(!m.document().is_dirty() && m.document().is_file(&mine));
    assert!(
        Path::new(m.document().path()).is_absolute(),
        "{}",
        m.document().path()
    );
    // From then on Save writes there, and Save as starts beside it.
    m.edit(Edit::Replace(FORK.into()));
    assert_eq!(m.save(), None);
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), FORK);
    let again = m.files().shelf().save_as_request(m.document());
    assert_eq!(again.name.as_deref(), Some("mine.toml"));
    assert_eq!(again.dir, Some(crate::files::absolute(&dir)));
    // An invalid puzzle is not saved.
    m.edit(Edit::Replace("title = \"x\"\n".into()));
    m.save_to_chosen(&dir.join("bad.toml"));
    assert!(!dir.join("bad.toml").exists());
    assert!(m.feedback().text().unwrap().starts_with("fix the puzzle's"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// One tower on c1 of a 5x1 board: `c1-a1` solves it.
const FORK: &str =
    "title = \"Fork\"\nboard = \"5x1\"\nstart = \"2r22\"\ntargets = [\"a1\", \"b1\"]\n";

#[test]
fn messages_belong_to_the_state_they_describe() {
    let mut m = model();
    let f = m.files().shelf().files()[0].clone();
    m.perform(Pending::Open(f));
    assert!(m.feedback().text().unwrap().starts_with("opened"));
    m.click(cell(&m, "b1"), false);
    assert_eq!(
        m.feedback().text(),
        Some("b1 is empty: click a tower (a stack of two) to move it")
    );
    m.play_hand(HandMove::Restart);
    assert_eq!(m.feedback().text(), None);
    m.start(Task::Hint);
    finish(&mut m);
    assert!(m.feedback().text().unwrap().starts_with("hint: "));
    m.play_hand(HandMove::Restart);
    assert_eq!(m.feedback().text(), None, "restart clears the hint");
    assert_eq!(m.play().hand().hint(), None);
}

#[test]
fn opening_over_unsaved_work_asks_and_keeping_keeps_it() {
    let mut m = model();
    let files = m.files().shelf().files().to_vec();
    m.request(Pending::Open(files[0].clone()));
    assert!(
        m.files().pending().is_none(),
        "the untouched example is no loss"
    );
    m.set_tool(Tool::Targets);
    m.click(cell(&m, "c3"), false);
    let edited = m.document().text().to_string();
    m.request(Pending::Open(files[1].clone()));
    assert!(m.files().pending().is_some());
    m.answer(Answer::Keep);
    assert_eq!(m.document().text(), edited);
    m.request(Pending::Open(files[1].clone()));
    let go = m.files().pending().unwrap().action.clone();
    m.answer(Answer::Go(go));
    assert!(m.document().is_file(&files[1]));
    assert_eq!(m.play().tool(), Tool::Play, "opened ready to play");
}

#[test]
fn a_proven_unsolvable_mural_reads_as_such() {
    let mut m = model();
    // Every cell a target, although the last move always empties a cell.
    m.edit(Edit::Replace("title = \"Full\"\nboard = \"4x1\"\nstart = \"r2r22\"\ntargets = [\"a1\", \"b1\", \"c1\", \"d1\"]\n".into()));
    assert!(m.document().is_valid(), "{:?}", m.document().problems());
    m.start(Task::Solve);
    finish(&mut m);
    let msg = m.feedback().current().unwrap();
    assert!(msg.is_error());
    assert!(
        msg.text
            .starts_with(&murus_mural::verdict(Status::Unsolvable, None)),
        "{}",
        msg.text
    );
    assert!(!msg.text.contains("budget"));
}

#[test]
fn save_asks_when_the_file_changed_on_disk_since_it_was_read() {
    let dir = std::env::temp_dir().join(format!("murus-murals-disk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.toml");
    std::fs::write(&file, FORK).unwrap();
    let mut m = model();
    m.files_mut().shelf_mut().set_dir(dir.clone());
    m.perform(Pending::Open(file.clone()));
    m.edit(Edit::Replace(FORK.replace("Fork", "My fork")));
    // Someone else writes the file meanwhile.
    let theirs = FORK.replace("Fork", "Their fork");
    std::fs::write(&file, &theirs).unwrap();
    m.save();
    let q = m.files().pending().expect("a question").clone();
    assert!(q.text.contains("changed on disk"), "{}", q.text);
    m.answer(Answer::Keep);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), theirs);
    m.save();
    let go = m.files().pending().unwrap().action.clone();
    m.answer(Answer::Go(go));
    assert!(std::fs::read_to_string(&file).unwrap().contains("My fork"));
    // Saved and unchanged since: no question.
    m.edit(Edit::Replace(FORK.replace("Fork", "My fork 2")));
    m.save();
    assert!(m.files().pending().is_none());
    assert!(!m.document().is_dirty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stale_figures_are_left_out_of_a_saved_file_and_undo_brings_them_back() {
    let dir = std::env::temp_dir().join(format!("murus-murals-stale-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut m = model();
    m.files_mut().shelf_mut().set_dir(dir.clone());
    // Figures typed in by hand were never found for this puzzle.
    let typed = format!("{FORK}optimal = 1\ndifficulty = \"easy\"\n");
    m.edit(Edit::Replace(typed.clone()));
    assert_eq!(m.document().figures().map(|f| f.stale), Some(true));
    m.save_to_chosen(&dir.join("fork.toml"));
    let written = std::fs::read_to_string(dir.join("fork.toml")).unwrap();
    assert_eq!(written, FORK, "the figures were written");
    assert_eq!(m.document().text(), FORK);
    assert!(m.feedback().text().unwrap().contains("left out"));
    m.edit(Edit::Undo); // the file tied to the text
    m.edit(Edit::Undo); // the figures dropped
    assert_eq!(m.document().text(), typed);
    // Trusted figures (a count agreed) are written as they are.
    let mut m = model();
    m.files_mut().shelf_mut().set_dir(dir.clone());
    m.edit(Edit::Replace(typed.clone()));
    m.start(Task::Count);
    finish(&mut m);
    assert_eq!(m.document().figures().map(|f| f.stale), Some(false));
    m.save_to_chosen(&dir.join("fork2.toml"));
    assert_eq!(
        std::fs::read_to_string(dir.join("fork2.toml")).unwrap(),
        typed
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn moves_played_by_hand_survive_a_solve_and_the_solution_starts_there() {
    let mut m = model();
    for name in ["c1", "e1", "b1", "d1"] {
        m.click(cell(&m, name), false);
    }
    assert_eq!(m.play().hand().played().len(), 2);
    m.start(Task::Solve);
    finish(&mut m);
    assert_eq!(m.play().tool(), Tool::Solution);
    let sol = m.play().player().solution().unwrap();
    assert_eq!((sol.moves.len(), m.play().player().after()), (3, 2));
    assert!(
        m.feedback()
            .text()
            .unwrap()
            .starts_with("solved in 3 more moves after your 2 moves")
    );
    m.play_mut().player_mut().last();
    let (end, _) = m.play().shown_state(m.document()).unwrap();
    assert!(end.is_solved(&m.document().puzzle().unwrap().targets));
    m.play_by_hand();
    assert_eq!(
        m.play().hand().played().len(),
        2,
        "the moves by hand are kept"
    );
    m.play_hand(HandMove::Restart);
    assert!(m.play().hand().played().is_empty(), "Restart starts over");
}

#[test]
fn a_cancelled_generation_leaves_the_puzzle_alone() {
    let mut m = model();
    {
        let g = m.tasks_mut().generator_mut();
        *g.board = "8x8".into();
        *g.colours = 3;
        *g.sacrifice = true;
        *g.difficulty = "hard".into();
    }
    m.request(Pending::Generate);
    assert!(
        m.tasks().is_busy(),
        "the untouched example is no loss: no question"
    );
    assert!(
        m.tasks()
            .work()
            .is_some_and(|(w, _)| w == crate::murals::Work::Generate)
    );
    m.tasks_mut().cancel();
    finish(&mut m);
    assert_eq!(m.document().text(), EXAMPLE);
    assert_eq!(m.feedback().text(), Some("generation cancelled"));
}
