//! Position strings, moves and records from users never panic the engine:
//! arbitrary text and small mutations of valid strings either parse (and then
//! round-trip) or give an error.

use murus_engine::{BUILTIN, GameRecord, Variant};
use proptest::prelude::*;

fn variants() -> Vec<Variant> {
    BUILTIN
        .iter()
        .map(|(name, _)| Variant::builtin(name).unwrap())
        .collect()
}

/// Characters position strings and moves are made of, plus a few strangers.
const ALPHABET: &[char] = &[
    'r', 'g', 'b', 'h', 'x', '0', '1', '2', '3', '4', '5', '8', '9', '/', ' ', '-', '*', ':', ',',
    'a', 'c', 'd', 'p', 'i', 'e', 'o', 'u', 't', 'é', '\n', '\t',
];

fn mutated(base: String, edits: Vec<(usize, usize, usize)>) -> String {
    let mut chars: Vec<char> = base.chars().collect();
    for (kind, at, c) in edits {
        let at = if chars.is_empty() {
            0
        } else {
            at % (chars.len() + 1)
        };
        let c = ALPHABET[c % ALPHABET.len()];
        match kind % 3 {
            0 => chars.insert(at, c),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at < chars.len() => chars[at] = c,
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}

fn check_position_text(v: &Variant, text: &str) -> Result<(), TestCaseError> {
    if let Ok(pos) = v.parse_position(text) {
        let again = v.position_string(&pos);
        let back = v.parse_position(&again).map_err(|e| {
            TestCaseError::fail(format!("{}: `{again}` does not parse: {e}", v.name()))
        })?;
        prop_assert_eq!(back, pos, "{}: `{}` does not round-trip", v.name(), text);
        let _ = v.render(&pos);
        let _ = v.legal_moves(&pos);
    }
    Ok(())
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics_the_parsers(variant in 0..BUILTIN.len(), text in "\\PC{0,80}") {
        let v = &variants()[variant];
        check_position_text(v, &text)?;
        let _ = v.parse_move(&v.start(), &text);
        let _ = GameRecord::from_json(&text);
    }

    #[test]
    fn mutated_position_strings_parse_or_fail_cleanly(
        variant in 0..BUILTIN.len(),
        plies in 0usize..30,
        seed in any::<u64>(),
        edits in proptest::collection::vec((0usize..3, any::<usize>(), any::<usize>()), 1..4),
    ) {
        let v = &variants()[variant];
        let mut pos = v.start();
        let mut s = seed;
        for _ in 0..plies {
            let moves = v.legal_moves(&pos);
            if moves.is_empty() || v.outcome(&pos).is_some() {
                break;
            }
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            pos = v.play(&pos, moves[(s >> 33) as usize % moves.len()]);
        }
        let text = mutated(v.position_string(&pos), edits.clone());
        check_position_text(v, &text)?;
        let mv = mutated("d1-d3".to_string(), edits);
        let _ = v.parse_move(&pos, &mv);
    }
}

#[test]
fn malformed_positions_name_what_is_wrong_and_where() {
    let v = Variant::standard();
    for (text, column, words) in [
        (
            "g2g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2",
            None,
            "side to move",
        ),
        ("g2g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2 q", None, "q"),
        ("g2g2g2g2g2g2g2g2/8/8/8/8/r2r2r2r2r2r2r2r2 r", None, "7"),
        (
            "g2g2g2g2g2g2g2g2/9/8/8/8/8/r2r2r2r2r2r2r2r2 r",
            Some(18),
            "",
        ),
        (
            "g3g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2 r",
            Some(2),
            "limit",
        ),
        (
            "z2g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2 r",
            Some(1),
            "z",
        ),
        // The start, as a control.
        (
            "g2g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2 r",
            None,
            "(valid)",
        ),
        // A non-ASCII character is named as written, at its column in
        // characters (not bytes).
        (
            "é2g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2 r",
            Some(1),
            "`é`",
        ),
        ("ééé/é2g2g2g2g2g2g2g2/8 r", None, "7 ranks"),
        (
            "g2g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2 é",
            Some(45),
            "`é`",
        ),
        (
            "g2g2g2g2g2g2g2g2/8/8/8/8/3é/r2r2r2r2r2r2r2r2 r",
            Some(27),
            "`é`",
        ),
        // Counts of one in the singular, of others in the plural.
        (
            "g2g2g2g2g2g2g2g2/8/8/8/8/r1/r2r2r2r2r2r2r2r2 r",
            Some(28),
            "rank 2 describes 1 cell but has 8",
        ),
        (
            "g2g2g2g2g2g2g2g2/8/8/8/8/r11/r2r2r2r2r2r2r2r2 r",
            Some(29),
            "rank 2 describes 2 cells but has 8",
        ),
        // More stones than the setup gives: stones are never added.
        (
            "r2r2r2r2r2r2r2r2/r2r2r2r2r2r2r2r2/8/8/8/8/g2g2g2g2g2g2g2g2 g",
            None,
            "Romans (`r`) have 32 stones, but the setup gives them 16",
        ),
        (
            "g2g2g2g2g2g2g2g2/g17/8/8/8/8/r2r2r2r2r2r2r2r2 r",
            None,
            "Gauls (`g`) have 17 stones",
        ),
    ] {
        if words == "(valid)" {
            // The valid start, as a control.
            v.parse_position(text).expect(text);
            continue;
        }
        let e = v.parse_position(text).expect_err(text);
        let msg = e.to_string();
        if let Some(c) = column {
            assert!(msg.contains(&format!("column {c}")), "`{text}`: {msg}");
        }
        assert!(
            msg.contains(words),
            "`{text}`: `{msg}` should mention `{words}`"
        );
    }
}

#[test]
fn positions_keep_no_more_stones_than_the_setup_gives() {
    // Exactly the setup's material is fine, however it is arranged.
    let v = Variant::standard();
    for text in [
        "g2g2g2g2g2g2g2g2/8/8/8/r2r2r2r2r2r2r2r2/8/8 r",
        "g1g1g1g1g1g1g1g1/g1g1g1g1g1g1g1g1/8/8/8/8/r2r2r2r2r2r2r2r2 r",
        "8/8/8/8/8/8/8 r",
    ] {
        v.parse_position(text).expect(text);
    }
    // One stone too many, for either side, in every shipped variant.
    for (name, _) in BUILTIN {
        let v = Variant::builtin(name).unwrap();
        let start = v.position_string(&v.start());
        for p in 0..v.player_count() {
            let given = v.stone_count(&v.start(), p);
            let extra = v
                .geometry()
                .cells()
                .find(|&s| v.stack(&v.start(), s).is_none());
            let Some(extra) = extra else { continue };
            // Put a wall of player `p` on an empty cell via a rebuilt string.
            let mut pos_text = v.rows_string(|s| {
                if s == extra {
                    Some((p, 1))
                } else {
                    v.stack(&v.start(), s)
                }
            });
            pos_text += &start[start.find(' ').unwrap()..];
            let e = v
                .parse_position(&pos_text)
                .expect_err(&pos_text)
                .to_string();
            assert!(
                e.contains(&format!(
                    "have {} stones, but the setup gives them {given}",
                    given + 1
                )),
                "{name}: {e}"
            );
        }
    }
}

#[test]
fn the_pie_split_keeps_the_material_and_parses() {
    let v = Variant::builtin("pie").unwrap();
    let mut pos = v.start();
    for _ in 0..3 {
        let moves = v.legal_moves(&pos);
        pos = v.play(&pos, moves[moves.len() / 2]);
        let text = v.position_string(&pos);
        let back = v.parse_position(&text).expect(&text);
        assert_eq!(v.position_string(&back), text);
    }
}
