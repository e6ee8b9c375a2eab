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
    ] {
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
