//! Image snapshots of the board view, with a negative control.
//!
//! Baselines live in `tests/snapshots/`; create or update them with
//! `UPDATE_SNAPSHOTS=1 cargo test -p murus-studio --test board_snapshot`.

use egui_kittest::{Harness, SnapshotOptions};
use murus_engine::{Game, Variant};
use murus_studio::board::{self, Scene};

fn snapshot_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

/// A harness showing `variant` after `moves`, last move highlighted.
fn board_harness(variant: &Variant, moves: &[&str]) -> Harness<'static> {
    let mut game = Game::new(variant);
    for m in moves {
        game.play_str(m).expect("a legal move");
    }
    let stacks = board::stacks_of(variant, game.position());
    let last = game
        .moves()
        .last()
        .map(|&m| variant.move_cells(m))
        .unwrap_or_default();
    let colours = board::player_colours(variant.rules());
    let geometry = variant.geometry().clone();
    Harness::builder()
        .with_size([520.0, 460.0])
        .build_ui(move |ui| {
            egui::CentralPanel::default().show(ui, |ui| {
                board::show(
                    ui,
                    &Scene {
                        id_salt: "snapshot",
                        geometry: &geometry,
                        stacks: &stacks,
                        colours: &colours,
                        flipped: false,
                        selected: None,
                        targets: &[],
                        last_move: &last,
                        marks: &[],
                        max_cell: 60.0,
                    },
                );
            });
        })
}

fn options() -> SnapshotOptions {
    SnapshotOptions::new().output_path(snapshot_dir())
}

#[test]
fn standard_board_snapshot() {
    let mut h = board_harness(&Variant::standard(), &["b1-b3", "c7-c5"]);
    h.run();
    h.snapshot_options("board_standard", &options());
}

#[test]
fn hex_board_snapshot() {
    let v = Variant::builtin("hex").expect("hex ships");
    let mut h = board_harness(&v, &[]);
    h.run();
    h.snapshot_options("board_hex", &options());
}

#[test]
fn catapults_are_drawn_apart_from_towers() {
    let v = Variant::builtin("advanced").expect("advanced ships");
    let mut h = board_harness(&v, &["a1-c1"]);
    h.run();
    h.snapshot_options("board_advanced_catapult", &options());
}

/// Negative control: a different position must not match the standard
/// baseline (so the snapshot comparison can fail at all).
#[test]
fn a_different_board_does_not_match_the_baseline() {
    let baseline = snapshot_dir().join("board_standard.png");
    let Ok(expected) = image::open(&baseline) else {
        // The baseline is created by `standard_board_snapshot` on first run.
        return;
    };
    let expected = expected.to_rgba8();
    let mut h = board_harness(&Variant::standard(), &["b1-b3", "c7-c5", "e1-e3"]);
    h.run();
    let actual = h.render().expect("renders");
    assert_eq!(actual.dimensions(), expected.dimensions());
    let differing = actual
        .pixels()
        .zip(expected.pixels())
        .filter(|(a, b)| a.0.iter().zip(b.0.iter()).any(|(x, y)| x.abs_diff(*y) > 16))
        .count();
    assert!(
        differing > 500,
        "only {differing} pixels differ: the comparison would not catch a wrong board"
    );
}
