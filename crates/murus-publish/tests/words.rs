//! The rules in words (issues 23 and 37): every shipped variant's rulebook
//! kept as a snapshot, so that each sentence generator is read and any
//! change to it is seen; the rulebook's layout; and, over generated rules
//! files with rules of a player's own, that each rule names exactly the
//! players it belongs to.

#[path = "../../murus-engine/tests/common/rulegen.rs"]
#[allow(dead_code)]
mod rulegen;

use murus_engine::{BUILTIN, Variant};
use murus_publish::{Rulebook, rules_in_words, rules_text};
use proptest::prelude::*;

#[test]
fn every_shipped_variant_reads_in_words() {
    for (name, _) in BUILTIN {
        let v = Variant::builtin(name).unwrap();
        insta::assert_snapshot!(format!("rules_{name}"), rules_text(&v));
    }
}

/// Each section is there for every variant, numbered in order, its rules
/// numbered after it without a gap, each a paragraph of sentences (ending
/// with `:` where a list follows) and list items that are phrases.
#[test]
fn every_section_is_numbered_rules_of_whole_sentences() {
    for (name, _) in BUILTIN {
        let v = Variant::builtin(name).unwrap();
        let book = rules_in_words(&v);
        assert_eq!(book.title, v.rules().title, "{name}");
        let headings: Vec<(usize, &str)> = book
            .sections
            .iter()
            .map(|s| (s.number, s.heading))
            .collect();
        assert_eq!(
            headings,
            [
                (1, "Board"),
                (2, "Players"),
                (3, "Setup"),
                (4, "Moves"),
                (5, "Winning"),
                (6, "Draws"),
                (7, "Opening")
            ],
            "{name}"
        );
        for s in &book.sections {
            let numbers: Vec<&str> = s
                .groups
                .iter()
                .flat_map(|g| &g.rules)
                .map(|r| r.number.as_str())
                .collect();
            let expected: Vec<String> = (1..=numbers.len())
                .map(|i| format!("{}.{i}", s.number))
                .collect();
            assert_eq!(numbers, expected, "{name}: {}", s.heading);
            // The rules every player follows come first, without a heading.
            for (i, g) in s.groups.iter().enumerate() {
                assert!(!g.rules.is_empty(), "{name}: an empty group");
                assert_eq!(g.heading.is_none(), i == 0 && g.heading.is_none());
            }
            for r in s.groups.iter().flat_map(|g| &g.rules) {
                let end = if r.list.is_empty() { '.' } else { ':' };
                assert!(r.text.ends_with(end), "{name}: {}", r.text);
                assert!(
                    r.text.chars().next().is_some_and(char::is_uppercase),
                    "{name}: {}",
                    r.text
                );
                assert_ne!(r.list.len(), 1, "{name}: a list of one: {}", r.text);
                for item in &r.list {
                    assert!(
                        item.chars().next().is_some_and(char::is_lowercase)
                            && !item.ends_with(['.', ';', ':']),
                        "{name}: {item}"
                    );
                }
            }
        }
    }
}

/// Siege: the Romans' own rules are worded for them under their heading,
/// the Gauls' for them under theirs, and what every player shares comes
/// first; a Gaulish catapult, which the Gauls' stack limit forbids, is no
/// target of the Romans' throw.
#[test]
fn siege_says_whose_rule_it_is() {
    let v = Variant::builtin("siege").unwrap();
    let book = rules_in_words(&v);
    let winning = &book.sections[4];
    let heads: Vec<Option<&str>> = winning
        .groups
        .iter()
        .map(|g| g.heading.as_deref())
        .collect();
    assert_eq!(heads, [None, Some("Romans"), Some("Gauls")]);
    assert_eq!(
        winning.groups[1].rules[1].text,
        "Romans lose if they start their turn with at most 6 stones."
    );
    assert_eq!(winning.groups[1].rules[1].players, ['r']);
    assert_eq!(
        winning.groups[0].rules[0].text,
        "A player who cannot move at the start of its turn loses."
    );
    let text = rules_text(&v);
    assert!(
        text.contains("For Romans, a catapult (3 stones) throws"),
        "{text}"
    );
    assert!(
        text.contains("on an enemy wall (1 stone) or tower (2 stones), where"),
        "{text}"
    );
    assert!(!text.contains("catapult (3 stones), where"), "{text}");
    assert!(!text.contains("rules that follow"), "{text}");
    // With the Gauls' limit raised, their catapults may be hit.
    let source =
        include_str!("../../../variants/siege.mg").replace("stack limit 2\n", "stack limit 3\n");
    let text = rules_text(&Variant::compile(&source).unwrap());
    assert!(
        text.contains("tower (2 stones) or catapult (3 stones), where"),
        "{text}"
    );
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
        "Red's home is b1, c1, d1, e1, f1 and g1; its forward direction is n.",
        "Red starts with catapults on b1 and c1.",
        "Red moves first.",
        "in a line toward n for Red and s for Blue,",
        "Each stone must drop on an empty cell (never off the board, on an enemy stack or on a stack it would make too tall), or the sowing may not be made.",
        "No sacrifice",
        "    - on an empty cell, where it is lost: it leaves the game\n",
        "    - on an enemy catapult (3 stones), where it leaves the game with 2 stones of that stack",
        "Reaching an opponent's home wins nothing.",
        "A player who cannot move at the start of its turn draws the game.",
        "Adjudication. After 120 plies the game ends, and the player with the most stacks on d4, e4, d5 and e5 wins; when several players have the most, the game is drawn.",
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    let standard = include_str!("../../../variants/standard.mg");
    says(
        standard,
        ("plies 300", "plies 200 adjudicate for g"),
        &[
            "Adjudication. After 200 plies the game ends, and Gauls win (should Gauls be out of the game by then, it is drawn).",
        ],
    );
    says(
        include_str!("../../../variants/attrition.mg"),
        ("reduced to 8 stones", "capture 6 stones"),
        &[
            "Capture. A player who has taken 6 enemy stones in all (by sacrifices, throws and sowing onto enemy stacks) wins at once, with the move that takes the last of them.",
        ],
    );
    // Step vectors: worded as leaps, as they are for each player, and
    // explained.
    says(
        standard,
        ("directions all", "directions forward, (1, 2), (-1, 2)"),
        &[
            "in a line toward n, or a leap of (1, 2) or (-1, 2) apart for Romans and in a line toward s, or a leap of (-1, -2) or (1, -2) apart for Gauls",
            "Leaps. A leap such as (1, 2) goes straight to its cell, over whatever is between: the first number counts files toward h",
        ],
    );
    // A whole set of mirror images is one knight's leap, the same for both.
    says(
        standard,
        (
            "directions all",
            "directions n, ne, e, se, s, sw, w, nw, (1, 2) mirrored",
        ),
        &[
            "in a line in any direction, or a knight's leap ((1, 2) in any of its 8 mirrored directions) apart, as many cells as it had stones.",
        ],
    );
    // A throw along a leap is so many leaps away, never cells.
    says(
        include_str!("../../../variants/advanced.mg"),
        (
            "directions left, forward-left, forward, forward-right, right",
            "directions forward, (1, 2) mirrored",
        ),
        &[
            "exactly 2 or 3 cells away toward n for Romans and s for Gauls, or 2 or 3 knight's leaps ((1, 2) in any of its 8 mirrored directions) away",
        ],
    );
    // On a hex board: counted along its axes, e and ne; a hex knight has
    // twelve leaps.
    says(
        include_str!("../../../variants/hex.mg"),
        ("directions all", "directions forward, (1, 1)"),
        &[
            "toward ne, or a leap of (1, 1) apart for Romans and in a line toward sw, or a leap of (-1, -1) apart for Gauls",
            "the first number counts cells toward e, the second toward ne",
        ],
    );
    says(
        include_str!("../../../variants/hex.mg"),
        (
            "directions all",
            "directions ne, e, se, sw, w, nw, (1, 2) mirrored",
        ),
        &["a knight's leap ((1, 2) in any of its 12 mirrored directions) apart"],
    );
}

/// The designer's introduction comes first, in the rulebook and its text.
#[test]
fn the_designers_introduction_leads_the_rulebook() {
    let source = include_str!("../../../variants/standard.mg").replace(
        "title \"Murus Gallicus\"",
        "title \"Murus Gallicus\"\nintroduction \"Two tribes build walls.\" \"The second paragraph.\"",
    );
    let v = Variant::compile(&source).unwrap();
    let book = rules_in_words(&v);
    assert_eq!(
        book.introduction,
        ["Two tribes build walls.", "The second paragraph."]
    );
    assert!(
        rules_text(&v).starts_with(
            "Murus Gallicus\n\nTwo tribes build walls.\n\nThe second paragraph.\n\n1. Board\n"
        ),
        "{}",
        rules_text(&v)
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

/// Player names for generated files: peoples (plural) and colours
/// (singular), some of whose letters begin other words (`Red`, `Reduction`).
const NAMES: [&str; 6] = ["Romans", "Red", "Gauls", "Blue", "Britons", "Green"];

/// A generated rules file with its players renamed by `seed`.
fn generated(seed: u64) -> Variant {
    let mut text = rulegen::rule_file(seed);
    for i in 0..4 {
        let name = NAMES[(seed as usize + i * 5) % NAMES.len()];
        text = text.replace(&format!("player \"P{i}\""), &format!("player \"{name}\""));
    }
    Variant::compile(&text).unwrap_or_else(|e| panic!("seed {seed}: {e:?}\n{text}"))
}

/// The players (indices) whose names a text names, as whole words.
fn named(book_players: &[String], text: &str) -> Vec<usize> {
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    (0..book_players.len())
        .filter(|&p| {
            text.match_indices(book_players[p].as_str()).any(|(i, m)| {
                !word(text[..i].chars().next_back()) && !word(text[i + m.len()..].chars().next())
            })
        })
        .collect()
}

/// Checks that every rule of `book` names exactly its players (a rule for
/// everyone names nobody, or everyone), that each sub-heading names its
/// group's players and that its rules are theirs, and that each kind of
/// win and move is worded for exactly the players whose rules have it.
fn check_owners(v: &Variant, book: &Rulebook) {
    let rules = v.rules();
    let names: Vec<String> = rules.players.iter().map(|p| p.name.clone()).collect();
    let letters: Vec<char> = rules.players.iter().map(|p| p.letter).collect();
    let index = |l: &char| letters.iter().position(|x| x == l).unwrap();
    let everyone: Vec<usize> = (0..names.len()).collect();
    for s in &book.sections {
        for g in &s.groups {
            let group: Vec<usize> = g.players.iter().map(index).collect();
            match &g.heading {
                None => assert_eq!(group, everyone),
                Some(h) => assert_eq!(named(&names, h), group, "{h}"),
            }
            for r in &g.rules {
                let owners: Vec<usize> = r.players.iter().map(index).collect();
                let text = format!("{} {}", r.text, r.list.join(" "));
                let said = named(&names, &text);
                if owners == everyone {
                    assert!(said.is_empty() || said == everyone, "{}: {text}", r.number);
                } else {
                    assert_eq!(said, owners, "{}: {text}", r.number);
                }
                if g.heading.is_some() {
                    assert_eq!(owners, group, "{}: {text}", r.number);
                }
                // A step vector is a leap, never a direction to go toward.
                assert!(!text.contains("toward ("), "{text}");
                assert!(!text.contains("thrown so"), "{text}");
            }
        }
    }
    // Each kind of rule is worded for exactly the players who have it.
    let rule_players = |section: usize, name: &str, not: &str| -> Vec<usize> {
        let mut ps: Vec<usize> = book.sections[section]
            .groups
            .iter()
            .flat_map(|g| &g.rules)
            .filter(|r| r.name.as_deref().is_some_and(|n| n.starts_with(name)))
            .filter(|r| !r.text.contains(not))
            .flat_map(|r| r.players.iter().map(index))
            .collect();
        ps.sort_unstable();
        ps.dedup();
        ps
    };
    let having = |has: &dyn Fn(usize) -> bool| -> Vec<usize> {
        everyone.iter().copied().filter(|&p| has(p)).collect()
    };
    let win = |p: usize| &rules.players[p].win;
    assert_eq!(
        rule_players(4, "Reduction", "\u{0}"),
        having(&|p| win(p).reduced.is_some())
    );
    assert_eq!(
        rule_players(4, "Capture", "\u{0}"),
        having(&|p| win(p).capture.is_some())
    );
    assert_eq!(
        rule_players(4, "Occupation", "\u{0}"),
        having(&|p| win(p).occupation.is_some())
    );
    assert_eq!(
        rule_players(4, "Breakthrough", " nothing."),
        having(&|p| win(p).breakthrough.is_some())
    );
    let throws = |p: usize| rules.catapults.iter().any(|c| !c.directions[p].is_empty());
    assert_eq!(rule_players(3, "Throw", "not throw"), having(&throws));
    assert_eq!(
        rule_players(3, "Sowing", "not sow"),
        having(&|p| rules.sow_of(p).is_some())
    );
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(128),
        ..ProptestConfig::default()
    })]

    /// Over generated rules files with rules of a player's own (stack
    /// limits, sowing, sacrifices, catapults and wins `for` a player), each
    /// rule's sentence names exactly the players it belongs to.
    #[test]
    fn each_rule_names_exactly_its_owners(seed in any::<u64>()) {
        let v = generated(seed);
        check_owners(&v, &rules_in_words(&v));
    }
}

/// The check above is not empty: it fails on a rulebook whose rule of one
/// player is said to be everyone's, or another player's.
#[test]
fn the_owner_check_catches_a_rule_given_to_the_wrong_players() {
    let v = Variant::builtin("siege").unwrap();
    let book = rules_in_words(&v);
    check_owners(&v, &book);
    let mut wrong = book.clone();
    wrong.sections[4].groups[1].rules[1].players = vec!['g'];
    let caught = std::panic::catch_unwind(|| check_owners(&v, &wrong));
    assert!(caught.is_err());
    let mut wrong = book;
    wrong.sections[3].groups[1].rules[0].players = vec!['r', 'g'];
    let caught = std::panic::catch_unwind(|| check_owners(&v, &wrong));
    assert!(caught.is_err());
}
