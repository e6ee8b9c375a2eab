//! Every puzzle of the collection loads, has the recorded optimal length and
//! a unique minimal solution, and its solution replays with the engine to
//! the target.

use std::path::PathBuf;

use murus_mural::{Mode, Puzzle, Status, count, replay_with_engine, solve};

use crate::util::{puzzles_dir, shipped};

fn collection() -> Vec<(PathBuf, Puzzle)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(puzzles_dir())
        .expect("puzzles/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let name = f
                .file_name()
                .expect("a file")
                .to_string_lossy()
                .into_owned();
            (f, shipped(&name))
        })
        .collect()
}

#[test]
fn every_collection_puzzle_has_its_recorded_length_and_a_unique_solution() {
    let all = collection();
    assert!(all.len() >= 30, "the collection has {} puzzles", all.len());
    for (f, p) in &all {
        let c = count(p, &p.start, 20_000_000, &());
        assert_eq!(c.status, Status::Solved, "{}", f.display());
        assert_eq!(c.length, p.optimal, "{}: optimal length", f.display());
        assert_eq!(c.sets, 1, "{}: distinct minimal solutions", f.display());
        assert!(p.difficulty.is_some(), "{}: difficulty", f.display());
        let moves: Vec<String> = c.example.iter().map(|m| m.notation(&p.board)).collect();
        let end = replay_with_engine(p, &moves).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let state = p.parse_grid(&end).expect("engine grid");
        assert!(
            state.is_solved(&p.targets),
            "{}: engine replay ends at {end}",
            f.display()
        );
    }
}

#[test]
fn the_collection_spans_boards_colours_sacrifice_and_hex() {
    let all = collection();
    let cells: Vec<usize> = all
        .iter()
        .map(|(_, p)| p.board.geometry.cell_count())
        .collect();
    assert!(cells.contains(&25), "a 5x5 board");
    assert!(cells.contains(&56), "an 8x7 board");
    for n in 1..=3 {
        assert!(
            all.iter().any(|(_, p)| p.colours.len() == n),
            "{n} colour(s)"
        );
    }
    assert!(all.iter().any(|(_, p)| p.sacrifice), "with sacrifice");
    assert!(all.iter().any(|(_, p)| !p.sacrifice), "without sacrifice");
    assert!(
        all.iter()
            .any(|(_, p)| p.board.geometry.kind() == murus_dsl::ShapeKind::Hex),
        "a hex board"
    );
}

#[test]
fn any_solutions_replay_with_the_engine_to_the_target() {
    // Tower-only, walls in the start, sacrifice with two and three colours,
    // 8x7, hex and a board with a removed cell.
    let picks = [
        "01-", "07-", "12-", "15-", "17-", "19-", "24-", "27-", "30-", "31-", "32-",
    ];
    let all = collection();
    let mut replayed = 0;
    for (f, p) in &all {
        let name = f.file_name().expect("file").to_string_lossy();
        if !picks.iter().any(|k| name.starts_with(k)) {
            continue;
        }
        let s = solve(p, &p.start, Mode::Any, 20_000_000, &());
        assert_eq!(s.status, Status::Solved, "{name}");
        assert!(
            p.optimal.is_none_or(|o| s.moves.len() as u32 >= o),
            "{name}: no shorter than the optimum"
        );
        let moves: Vec<String> = s.moves.iter().map(|m| m.notation(&p.board)).collect();
        let end = replay_with_engine(p, &moves).unwrap_or_else(|e| panic!("{name}: {e}"));
        let state = p.parse_grid(&end).expect("engine grid");
        assert!(
            state.is_solved(&p.targets),
            "{name}: engine replay of {moves:?} ends at {end}"
        );
        replayed += 1;
    }
    assert_eq!(replayed, picks.len());
}

#[test]
fn the_built_in_collection_is_the_puzzles_folder() {
    let on_disk: Vec<(String, String)> = collection()
        .into_iter()
        .map(|(f, _)| {
            let name = f.file_name().expect("a file").to_string_lossy().to_string();
            (name, std::fs::read_to_string(&f).expect("readable"))
        })
        .collect();
    let built_in: Vec<(String, String)> = murus_mural::collection::SHIPPED
        .iter()
        .map(|&(n, t)| (n.to_string(), t.to_string()))
        .collect();
    assert_eq!(built_in, on_disk);
    let (name, text) = &on_disk[1];
    assert!(murus_mural::collection::is_shipped(name, text));
    assert!(murus_mural::collection::is_shipped(
        name,
        &text.replace('\n', "\r\n")
    ));
    assert!(!murus_mural::collection::is_shipped(
        name,
        &format!("{text}# mine\n")
    ));
    assert!(!murus_mural::collection::is_shipped("mine.toml", text));
}
