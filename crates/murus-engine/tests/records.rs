//! Records: the text format read, written and checked, and printed games
//! read with `read_printed`. The files are in `tests/data/records/`.

use murus_dsl::render_all;
use murus_engine::record::{RESIGNATION, read, read_printed};
use murus_engine::{Glyph, Record, Variant};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/records/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn printed(name: &str, variant: &str) -> Record {
    let v = Variant::builtin(variant).unwrap();
    let text = data(name);
    read_printed(&text, &v).unwrap_or_else(|d| panic!("{}", render_all(&d, name, &text)))
}

#[test]
fn the_magazine_game_imports_to_34_plies_and_a_gaul_win_by_resignation() {
    let r = printed("magazine.txt", "standard");
    assert_eq!(r.moves.len(), 34);
    let result = r.result.as_ref().unwrap();
    assert_eq!(result.winner, Some('g'));
    assert_eq!(result.reason, RESIGNATION);
    let comment = |i: usize| r.moves[i].comment.as_deref();
    let glyph = |i: usize| r.moves[i].glyph;
    assert_eq!(
        r.comment.as_deref(),
        Some(
            "Murus Gallicus: Roman Walls against a Gaulish Rush Annotated game from the club championship, round 3."
        )
    );
    assert_eq!(glyph(5), Some(Glyph::Interesting));
    assert_eq!(
        comment(5),
        Some("A sharp reply: the Gauls race for the centre.")
    );
    assert_eq!(r.moves[12].text, "a3-c3");
    assert_eq!(
        comment(12),
        Some("Slow but solid, keeping the left wall together.")
    );
    assert_eq!(comment(13), Some("The Gauls regroup."));
    assert_eq!(glyph(14), Some(Glyph::Good));
    assert_eq!(glyph(18), Some(Glyph::Brilliant));
    assert_eq!(
        comment(19),
        Some("Here the Romans have built their wall at last.")
    );
    assert_eq!(glyph(21), Some(Glyph::Dubious));
    assert_eq!(glyph(24), Some(Glyph::Mistake));
    assert_eq!(comment(28), Some("15. d4xc5 was more forceful."));
    assert_eq!(r.moves[29].text, "f5-f7");
    assert_eq!(glyph(32), Some(Glyph::Blunder));
    assert_eq!(comment(33), Some("and the Roman position collapses."));
    let commented: Vec<usize> = (0..34).filter(|&i| comment(i).is_some()).collect();
    assert_eq!(commented, [5, 12, 13, 19, 28, 33]);
    let glyphs = (0..34).filter(|&i| glyph(i).is_some()).count();
    assert_eq!(glyphs, 6);
}
