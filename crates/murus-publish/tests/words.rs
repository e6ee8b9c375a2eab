//! The rules in words (issue 23): every shipped variant's text kept as a
//! snapshot, so that each sentence generator is read and any change to it
//! is seen.

use murus_engine::{BUILTIN, Variant};
use murus_publish::{rules_in_words, rules_text};

#[test]
fn every_shipped_variant_reads_in_words() {
    for (name, _) in BUILTIN {
        let v = Variant::builtin(name).unwrap();
        insta::assert_snapshot!(format!("rules_{name}"), rules_text(&v));
    }
}

/// Each section is there for every variant, in order, with sentences that
/// start with a capital and end with a full stop.
#[test]
fn every_section_is_written_in_sentences() {
    for (name, _) in BUILTIN {
        let v = Variant::builtin(name).unwrap();
        let sections = rules_in_words(&v);
        let headings: Vec<&str> = sections.iter().map(|s| s.heading).collect();
        assert_eq!(
            headings,
            [
                "Board", "Players", "Setup", "Moves", "Winning", "Draws", "Opening"
            ],
            "{name}"
        );
        for s in &sections {
            assert!(!s.sentences.is_empty(), "{name}: {}", s.heading);
            for line in &s.sentences {
                assert!(line.ends_with('.'), "{name}: {line}");
                assert!(
                    line.chars().next().is_some_and(char::is_uppercase),
                    "{name}: {line}"
                );
            }
        }
    }
}

/// The sentences no shipped variant needs: cells removed, sowing forward
/// only, a stalemate that draws, a catapult whose stone is lost on an empty
/// cell and removes two, no draw rule.
#[test]
fn the_other_constructs_have_their_sentences() {
    let source = r##"
variant "corners"
title "Corners"
board rect 8 x 8 without cells a1 h1 a8 h8
player "Red" {
    letter r
    colour "#cc0000"
    home rank 1
    forward n
}
player "Blue" {
    letter b
    colour "#0000cc"
    home rank 8
    forward s
}
setup {
    r 3 on cells b1 c1
    b 3 on cells b8 c8
}
stack limit 3
sow {
    heights 2
    directions forward
    onto empty
}
catapult {
    height 3
    directions forward
    range 2
    onto empty, enemy 3
    on empty: lost
    on enemy: remove 2
}
win {
    stalemate draws
}
draw {
    plies 120
    adjudicate by stacks on cells d4 e4 d5 e5
}
"##;
    let v = Variant::compile(source).unwrap_or_else(|e| panic!("{e:?}"));
    let text = rules_text(&v);
    for expected in [
        "The board is a rectangle of 8 files (a to h) and 8 ranks (1 to 8), without a1, h1, a8 and h8: 60 cells.",
        "Red's home is",
        "Red start with catapults on b1 and c1.",
        "in a line toward n for Red and s for Blue,",
        "A stone may drop only on an empty cell;",
        "No sacrifice",
        "A stone thrown onto an empty cell is lost: it leaves the game.",
        "A stone thrown onto an enemy catapult (3 stones) leaves the game with 2 stones of it",
        "Reaching an opponent's home wins nothing.",
        "A player who cannot move at the start of its turn draws the game.",
        "Adjudication: after 120 plies the game ends, and the player with the most stacks on d4, e4, d5 and e5 wins; when several players have the most, the game is drawn.",
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    let standard = include_str!("../../../variants/standard.mg");
    says(
        standard,
        ("plies 300", "plies 200 adjudicate for g"),
        &[
            "Adjudication: after 200 plies the game ends, and Gauls win (should Gauls be out of the game by then, it is drawn).",
        ],
    );
    says(
        include_str!("../../../variants/attrition.mg"),
        ("reduced to 8 stones", "capture 6 stones"),
        &[
            "Capture: a player who has taken 6 enemy stones in all (by sacrifices, throws and sowing onto enemy stacks) wins at once, with the move that takes the last of them.",
        ],
    );
    // Step vectors: named as they are for each player, and explained.
    says(
        standard,
        ("directions all", "directions forward, (1, 2), (-1, 2)"),
        &[
            "n, (1,2) or (-1,2) for Romans and s, (-1,-2) or (1,-2) for Gauls",
            "A step such as (1,2) leaps straight to its cell, over whatever is between: the first number counts files toward h",
        ],
    );
    // On a hex board: counted along its axes, e and ne. The Romans face ne
    // (forward-right e), the Gauls sw (forward-right w).
    says(
        include_str!("../../../variants/hex.mg"),
        ("directions all", "directions forward, (1, 1)"),
        &[
            "ne or (1,1) for Romans and sw or (-1,-1) for Gauls",
            "the first number counts cells toward e, the second toward ne",
        ],
    );
}

/// Asserts that the rules in words of `source`, with its first `from`
/// written `to`, contain each of `expected`.
fn says(source: &str, (from, to): (&str, &str), expected: &[&str]) {
    assert!(source.contains(from), "{from}");
    let v = Variant::compile(&source.replacen(from, to, 1)).unwrap_or_else(|e| panic!("{e:?}"));
    let text = rules_text(&v);
    for expected in expected {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
}
