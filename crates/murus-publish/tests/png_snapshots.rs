//! Image snapshots (issue 23): a few diagrams rendered to PNG at scale 1
//! and compared with the images kept in `tests/snapshots/png/`, pixel by
//! pixel with a small tolerance (anti-aliasing may round differently on
//! another CPU). The boards cover square and hex, two and four players,
//! walls, towers and catapults, arrows of every shape, marks and
//! highlights. After a deliberate change to the drawing, accept the new
//! images with `UPDATE_PNG=1 cargo test -p murus-publish --test png_snapshots`.

use std::path::PathBuf;

use murus_engine::{Action, Move, Variant};
use murus_publish::{Diagram, Theme};
use resvg::tiny_skia::Pixmap;

/// How far a channel may differ (of 255) before a pixel counts as changed.
const TOLERANCE: u8 = 16;

fn snapshot_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/png")
}

/// The pixels of `actual` that differ from `expected` by more than the
/// tolerance in some channel, and the first of them.
fn differing(expected: &Pixmap, actual: &Pixmap) -> (usize, Option<(u32, u32)>) {
    let mut count = 0;
    let mut first = None;
    for (i, (a, b)) in expected.pixels().iter().zip(actual.pixels()).enumerate() {
        let channels = [
            (a.red(), b.red()),
            (a.green(), b.green()),
            (a.blue(), b.blue()),
            (a.alpha(), b.alpha()),
        ];
        if channels.iter().any(|(x, y)| x.abs_diff(*y) > TOLERANCE) {
            count += 1;
            let w = expected.width() as usize;
            first.get_or_insert(((i % w) as u32, (i / w) as u32));
        }
    }
    (count, first)
}

/// Compares the diagram's PNG with the stored `name.png`; a failure says
/// which image and how many pixels differ, and leaves the new image beside
/// the test's temporary files.
fn check(name: &str, d: &Diagram<'_>) -> Option<String> {
    let png = d.to_png(1.0).unwrap();
    let file = snapshot_dir().join(format!("{name}.png"));
    if std::env::var_os("UPDATE_PNG").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(snapshot_dir()).unwrap();
        std::fs::write(&file, &png).unwrap();
        return None;
    }
    let new = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.new.png"));
    let Ok(stored) = std::fs::read(&file) else {
        std::fs::write(&new, &png).unwrap();
        return Some(format!(
            "{name}: no stored image {} (the new one is {})",
            file.display(),
            new.display()
        ));
    };
    let expected = Pixmap::decode_png(&stored).unwrap();
    let actual = Pixmap::decode_png(&png).unwrap();
    if (expected.width(), expected.height()) != (actual.width(), actual.height()) {
        std::fs::write(&new, &png).unwrap();
        return Some(format!(
            "{name}: the image is {}×{}, the stored one {}×{} (the new one is {})",
            actual.width(),
            actual.height(),
            expected.width(),
            expected.height(),
            new.display()
        ));
    }
    let (count, first) = differing(&expected, &actual);
    if count == 0 {
        return None;
    }
    std::fs::write(&new, &png).unwrap();
    let (x, y) = first.unwrap_or_default();
    Some(format!(
        "{name}: {count} of {} pixels differ by more than {TOLERANCE} in a channel, the first at ({x}, {y}) (the new image is {})",
        expected.pixels().len(),
        new.display()
    ))
}

fn shipped(name: &str) -> Variant {
    Variant::builtin(name).unwrap()
}

fn mv(v: &Variant, pos: &murus_engine::Position, text: &str) -> Move {
    v.parse_move(pos, text).unwrap()
}

#[test]
fn diagrams_render_as_the_stored_images() {
    let mut failures = Vec::new();

    // Square, two players, print: sowing arrows, a mark, the last move shaded.
    let v = shipped("standard");
    let first = mv(&v, &v.start(), "b1-b3");
    let pos = v.play(&v.start(), first);
    let reply = mv(&v, &pos, "g7-g5");
    let pos = v.play(&pos, reply);
    let d = Diagram::new(&v, pos)
        .coordinates(true)
        .theme(Theme::Print)
        .highlight_move(reply)
        .arrow(mv(&v, &pos, "c1-c3"))
        .unwrap()
        .arrow(mv(&v, &pos, "d1-f3"))
        .unwrap()
        .mark(d_cell(&v, "c4"));
    failures.extend(check("standard-print-arrows-mark", &d));

    // Hex, two players, colour: arrows in three directions and a caption.
    let v = shipped("hex");
    let start = v.start();
    let sows: Vec<Move> = v
        .legal_moves(&start)
        .into_iter()
        .step_by(7)
        .take(3)
        .collect();
    let mut d = Diagram::new(&v, start).coordinates(true).caption("Hex");
    for m in sows {
        d = d.arrow(m).unwrap();
    }
    failures.extend(check("hex-colour-arrows", &d));

    // Square, four players: marks and highlights on an eight-by-eight board.
    let v = shipped("escape4");
    let mut d = Diagram::new(&v, v.start()).coordinates(true);
    for cell in ["d4", "e5"] {
        d = d.mark(d_cell(&v, cell));
    }
    for cell in ["a1", "h8"] {
        d = d.highlight(d_cell(&v, cell));
    }
    failures.extend(check("escape4-marks-highlights", &d));

    // Catapults (stacks of three) and a throw's arc.
    let v = shipped("advanced");
    let pos = v.play(&v.start(), mv(&v, &v.start(), "a1-c1"));
    let pos = v.play(&pos, mv(&v, &pos, "d7-d5"));
    let throw = mv(&v, &pos, "c1*c4");
    assert!(matches!(throw.action(), Action::Throw { .. }));
    let d = Diagram::new(&v, pos)
        .coordinates(true)
        .arrow(throw)
        .unwrap();
    failures.extend(check("advanced-throw", &d));

    // Sowing by a knight's leaps: a hop to each cell a stone drops on, a
    // bar on each before the last; the arrows numbered.
    let v = Variant::compile(&include_str!("../../../variants/standard.mg").replace(
        "directions all\n    onto empty",
        "directions (1, 2) mirrored\n    onto empty",
    ))
    .unwrap();
    let start = v.start();
    let mut d = Diagram::new(&v, start).coordinates(true).numbered(true);
    for text in ["d1-b5", "e1-g5"] {
        d = d.arrow(mv(&v, &start, text)).unwrap();
    }
    failures.extend(check("knight-sowing-numbered", &d));

    assert!(
        failures.is_empty(),
        "{}\naccept deliberate changes with `UPDATE_PNG=1 cargo test -p murus-publish --test png_snapshots`",
        failures.join("\n")
    );
}

fn d_cell(v: &Variant, name: &str) -> usize {
    v.geometry().parse_cell(name).unwrap()
}

#[test]
fn a_changed_drawing_is_reported_with_the_number_of_pixels() {
    // The comparison itself: one mark more changes a few hundred pixels.
    let v = shipped("standard");
    let plain = Diagram::new(&v, v.start());
    let marked = plain.clone().mark(d_cell(&v, "d4"));
    let a = Pixmap::decode_png(&plain.to_png(1.0).unwrap()).unwrap();
    let b = Pixmap::decode_png(&marked.to_png(1.0).unwrap()).unwrap();
    let (count, first) = differing(&a, &b);
    assert!((50..2000).contains(&count), "{count}");
    assert!(first.is_some());
    assert_eq!(differing(&a, &a).0, 0);
}
