//! The rules key belongs to the rules, not to the text: the same game gets
//! the same key whatever its comments, layout, order of statements, names
//! and title, and any change to the game changes it.

use murus_dsl::{RulesKey, compile, compile_with, instantiate};

const STANDARD: &str = include_str!("../../../variants/standard.mg");
const ADVANCED: &str = include_str!("../../../variants/advanced.mg");

fn key(text: &str) -> RulesKey {
    compile(text)
        .unwrap_or_else(|e| panic!("{text}\n{e:?}"))
        .rules
        .key()
}

/// The standard game's statements, in another order, on fewer lines, with
/// other comments, names, title and colours.
const STANDARD_REWRITTEN: &str = r##"
// Not the shipped file: the same game.
draw { plies 300 repetition 3 }
win { stalemate loses breakthrough immediate by sow }
sacrifice { 2 against 1: lose 1, remove 1 directions all }
sow { onto empty, own 1 directions all heights 2 }
stack limit 2
setup { g 2 on rank 7 r 2 on rank 1 }
player "Gaulois" { forward s home rank 7 colour "#000000" letter g }
turns r g
player "Romains" { home rank 1 letter r colour "#ffffff" forward n }
board rect 8 x 7
title "Le mur"
introduction "Deux tribus." "Un mur."
caption start "Le début."
variant "mine"
"##;

#[test]
fn comments_layout_order_names_and_title_keep_the_key() {
    let standard = key(STANDARD);
    assert_eq!(
        key(&format!("// a comment\n{STANDARD}\n// another\n")),
        standard
    );
    assert_eq!(key(&STANDARD.replace("title \"", "title \"My ")), standard);
    assert_eq!(key(&STANDARD.replace('\n', " \n\n  ")), standard);
    assert_eq!(key(STANDARD_REWRITTEN), standard);
    // Nor do the designer's words.
    let about = STANDARD.replace(
        "title \"",
        "introduction \"Two tribes.\"\ncaption sacrifice \"A wall falls.\"\ntitle \"",
    );
    assert_eq!(key(&about), standard);
    // A `forward` that no relative direction reads changes nothing.
    assert_eq!(key(&STANDARD.replace("forward n", "forward e")), standard);
}

#[test]
fn any_change_to_the_game_changes_the_key() {
    let standard = key(STANDARD);
    let changes = [
        ("repetition 3", "repetition 4"),
        ("plies 300", "plies 301"),
        ("board rect 8 x 7", "board rect 9 x 7"),
        ("2 against 1: lose 1, remove 1", ""),
        ("immediate", "delayed"),
        ("stalemate loses", "stalemate draws"),
        ("onto empty, own 1", "onto empty"),
        (
            "directions all\n    onto",
            "directions n, s, e, w\n    onto",
        ),
        ("g 2 on rank 7", "g 2 on rank 7 - cells a7"),
        ("plies 300", "plies 300 adjudicate for g"),
        ("plies 300", "plies 300 adjudicate for r"),
        ("plies 300", "plies 300 adjudicate by stones"),
    ];
    for (from, to) in changes {
        assert!(STANDARD.contains(from), "{from}");
        assert_ne!(
            key(&STANDARD.replacen(from, to, 1)),
            standard,
            "{from} → {to}"
        );
    }
    // Letters count: position strings are written with them.
    let renamed = STANDARD
        .replace("letter g", "letter h")
        .replace("g 2 on", "h 2 on");
    assert_ne!(key(&renamed), standard);
    // Turn order counts: the Gauls first is another game.
    assert_ne!(
        key(&STANDARD.replace("stack limit", "turns g r\nstack limit")),
        standard
    );
}

#[test]
fn the_order_of_a_direction_list_counts_because_moves_are_generated_in_it() {
    let advanced = key(ADVANCED);
    let reordered = ADVANCED.replace(
        "directions left, forward-left, forward, forward-right, right",
        "directions right, forward-right, forward, forward-left, left",
    );
    assert_ne!(reordered, ADVANCED);
    assert_ne!(key(&reordered), advanced);
}

#[test]
fn a_combination_of_parameters_has_the_key_of_its_instantiated_text() {
    let source = STANDARD.replace(
        "board rect 8 x 7",
        "param files = 7..9 default 8\nboard rect $files x 7",
    );
    assert_eq!(
        key(&source),
        key(STANDARD),
        "the default is the standard board"
    );
    let nine = [("files".to_string(), 9)];
    let with = compile_with(&source, &nine).unwrap().rules.key();
    assert_eq!(with, key(&instantiate(&source, &nine).unwrap()));
    assert_ne!(with, key(STANDARD));
}

#[test]
fn a_key_shows_twelve_hex_digits_and_keeps_all_64() {
    let k = key(STANDARD);
    let hex = k.to_hex();
    assert_eq!(hex.len(), 64);
    assert!(hex.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(k.to_string(), hex[..12]);
    assert_eq!(RulesKey::from_bytes(*k.bytes()), k);
}

/// Old files compile to the same rules: every rule file of the repository
/// that compiled before the language grew several catapults keeps the key
/// it had then (`tests/data/keys.txt`, computed by that commit).
#[test]
fn every_rule_file_that_compiled_before_keeps_its_key() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let list = include_str!("data/keys.txt");
    let mut checked = 0;
    for line in list.lines().filter(|l| !l.starts_with('#')) {
        let (path, old) = line.split_once(' ').expect("`PATH KEY`");
        let text = std::fs::read_to_string(format!("{root}/{path}"))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(key(&text).to_hex(), old, "{path} changed its key");
        checked += 1;
    }
    assert!(checked >= 20, "{checked} files");
}

/// Two catapults are written one after the other in the canonical form, in
/// the file's order (throws are generated in it): a second catapult changes
/// the key, and so does swapping two.
#[test]
fn several_catapults_count_in_their_order() {
    let one = ADVANCED.to_string();
    let sideways = "catapult { height 3 directions left, right range 1 onto empty }\n";
    let two = format!("{one}{sideways}");
    assert_ne!(key(&one), key(&two));
    // The same two catapults, the sideways one first.
    let start = one.find("catapult {").expect("Advanced has a catapult");
    let end = start + one[start..].find('}').expect("its block ends") + 1;
    let moved = format!(
        "{}{sideways}{}\n{}\n",
        &one[..start],
        &one[end..],
        &one[start..end]
    );
    assert_eq!(compile(&moved).unwrap().rules.catapults.len(), 2);
    assert_ne!(key(&two), key(&moved));
}

/// Rules of a player's own that give every player the same thing are the
/// shared rules, key and all; rules that differ by player change the key.
#[test]
fn rules_of_ones_own_alike_for_every_player_are_the_shared_rules() {
    let standard = key(STANDARD);
    let sow = "sow {\n    heights 2\n    directions all\n    onto empty, own 1\n}";
    let win = "win {\n    breakthrough immediate by sow\n    stalemate loses\n}";
    assert!(STANDARD.contains(sow) && STANDARD.contains(win));
    let split = STANDARD
        .replace(
            sow,
            &format!(
                "{}\n{}",
                sow.replace("sow", "sow for r"),
                sow.replace("sow {", "sow for g {")
            ),
        )
        .replace(
            win,
            &format!(
                "{}\n{}",
                win.replace("win", "win for g"),
                win.replace("win {", "win for r {")
            ),
        )
        .replace("stack limit 2", "stack limit 2 for g\nstack limit 2 for r");
    assert_eq!(key(&split), standard, "{split}");
    // One player's own rule that differs: another game.
    for change in [
        "stack limit 2\nstack limit 3 for r".to_string(),
        "stack limit 2\nsow for g { heights 2 directions forward onto empty, own 1 }".to_string(),
        "stack limit 2\nsacrifice for g { }".to_string(),
        "stack limit 2\nwin for g { stalemate loses }".to_string(),
    ] {
        let other = STANDARD.replace("stack limit 2", &change);
        assert_ne!(key(&other), standard, "{change}");
    }
}
