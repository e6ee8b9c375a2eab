//! The compiler never panics, whatever it is fed, and neither does rendering
//! what it reports.

use murus_dsl::{compile, render_all};
use proptest::prelude::*;

const STANDARD: &str = include_str!("../../../variants/standard.mg");
const VARIANTS: [&str; 7] = [
    STANDARD,
    PARAMS,
    include_str!("../../../variants/advanced.mg"),
    include_str!("../../../variants/hex3-escape.mg"),
    include_str!("../../../variants/pie.mg"),
    LANDING,
    // Reaches the whole-file checks once its one mistake is mutated away.
    include_str!("errors/unreachable-home.mg"),
];

/// A catapult with both landing rules written out.
const LANDING: &str = "variant \"landing\"
board rect 8 x 7
player \"Romans\" { letter r colour \"#e8dcc0\" home rank 1 forward n }
player \"Gauls\" { letter g colour \"#5b3a29\" home rank 7 forward s }
setup { r 2 on rank 1 g 2 on rank 7 }
stack limit 3
sow { heights 2 directions all onto empty, own 1, own 2 }
catapult {
    height 3
    directions left, forward, right
    range 2, 3
    onto empty, enemy any
    on empty: lost
    on enemy: remove 2
}
win { breakthrough immediate stalemate loses }
";

/// Parameters for the board, a rank, heights and counts.
const PARAMS: &str = "variant \"params\"
param files = 7..9 default 8
param ranks = 6, 7, 8 default 7
param two = 2
param plies = 100, 300
board rect $files x $ranks
player \"Romans\" { letter r colour \"#e8dcc0\" home rank 1 forward n }
player \"Gauls\" { letter g colour \"#5b3a29\" home rank $ranks forward s }
setup { r $two on rank 1 g $two on rank $ranks }
stack limit $two
sow { heights $two directions all onto empty, own 1 }
win { breakthrough immediate stalemate loses }
draw { plies $plies }
";

/// Words that keep a file parseable more often than not, so the mutations
/// below reach the semantic checks.
const WORDS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "9",
    "13",
    "99999999999",
    "r",
    "g",
    "b",
    "x",
    "n",
    "s",
    "ne",
    "sw",
    "w",
    "e",
    "left",
    "right",
    "back",
    "forward",
    "forward-left",
    "all",
    "a",
    "h",
    "i",
    "a1",
    "h7",
    "i9",
    "e5",
    "rank",
    "file",
    "edge",
    "cells",
    "empty",
    "own",
    "enemy",
    "any",
    "immediate",
    "delayed",
    "sow",
    "throw",
    "loses",
    "draws",
    "diagonal",
    "orthogonal",
    "on",
    "wall",
    "lost",
    "remove",
    "param",
    "default",
    "files",
    "ranks",
];

/// Compiles and renders every diagnostic; panics are the only failure.
fn compile_and_render(source: &str) {
    match compile(source) {
        Ok(c) => {
            let _ = render_all(&c.warnings, "fuzz.mg", source);
        }
        Err(diags) => {
            assert!(
                diags.iter().any(murus_dsl::Diagnostic::is_error),
                "an error result carries an error"
            );
            for d in &diags {
                // Lowering never gives up without saying why.
                assert!(!d.message.starts_with("internal error"), "{source:?}");
                let _ = d.line_col(source);
            }
            let _ = render_all(&diags, "fuzz.mg", source);
        }
    }
}

/// One edit of a source text: delete, insert or replace a character.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize),
    Insert(usize, char),
    Replace(usize, char),
}

fn apply(source: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = source.chars().collect();
    for edit in edits {
        match *edit {
            Edit::Delete(i) if !chars.is_empty() => {
                chars.remove(i % chars.len());
            }
            Edit::Insert(i, c) => chars.insert(i % (chars.len() + 1), c),
            Edit::Replace(i, c) if !chars.is_empty() => {
                let n = chars.len();
                chars[i % n] = c;
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Characters that matter to the language, plus some that do not.
fn interesting_char() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::sample::select(vec![
            '{', '}', '"', ',', ':', '+', '-', '\\', '\n', ' ', '\t', '\r', '/', '#', '0', '1',
            '2', '3', '9', 'x', '×', '—', 'a', 'r', 'g', 'n', 's', 'é', '\u{feff}', '$', '.', '=',
        ]),
        any::<char>(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), interesting_char()).prop_map(|(i, c)| Edit::Insert(i, c)),
        (any::<usize>(), interesting_char()).prop_map(|(i, c)| Edit::Replace(i, c)),
    ]
}

/// Replaces whole words (runs of letters, digits and `-`) of `source`.
fn replace_words(source: &str, picks: &[(usize, usize)]) -> String {
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in source.char_indices().chain([(source.len(), ' ')]) {
        let is_word = c.is_ascii_alphanumeric() || c == '-';
        match (start, is_word) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                words.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    let mut chosen: Vec<((usize, usize), &str)> = picks
        .iter()
        .filter(|_| !words.is_empty())
        .map(|&(w, r)| (words[w % words.len()], WORDS[r % WORDS.len()]))
        .collect();
    chosen.sort_by_key(|((s, _), _)| std::cmp::Reverse(*s));
    chosen.dedup_by_key(|((s, _), _)| *s);
    let mut out = source.to_string();
    for ((s, e), word) in chosen {
        out.replace_range(s..e, word);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_strings_never_panic(source in any::<String>()) {
        compile_and_render(&source);
    }

    #[test]
    fn language_shaped_noise_never_panics(
        words in prop::collection::vec(
            // Every word of the language, plus names, numbers, strings and punctuation.
            prop::sample::select(
                murus_dsl::keywords::WORDS
                    .iter()
                    .map(|w| w.text)
                    .chain([
                        "\"v\"", "5", "8", "7", "\"P\"", "{", "}", "r", "g", "\"#123456\"", "1",
                        "a", "s", "a1", "+", "-", "n", "2", ":", ",", "left", "forward-left",
                        "99999999999", "0", "$p", "p", "=", "..", "1..3", "3..1",
                    ])
                    .collect::<Vec<_>>(),
            ),
            0..80,
        )
    ) {
        compile_and_render(&words.join(" "));
    }

    #[test]
    fn word_substitutions_in_variants_never_panic(
        variant in 0..VARIANTS.len(),
        picks in prop::collection::vec((any::<usize>(), any::<usize>()), 1..5)
    ) {
        compile_and_render(&replace_words(VARIANTS[variant], &picks));
    }

    #[test]
    fn mutations_of_a_parameterised_game_never_panic(
        edits in prop::collection::vec(edit(), 1..8)
    ) {
        compile_and_render(&apply(PARAMS, &edits));
    }

    #[test]
    fn any_settings_never_panic(
        settings in prop::collection::vec(
            (prop::sample::select(vec!["files", "ranks", "two", "plies", "nope"]), 0u32..12),
            0..4,
        )
    ) {
        let settings: Vec<(String, u32)> =
            settings.into_iter().map(|(n, v)| (n.to_string(), v)).collect();
        match murus_dsl::compile_with(PARAMS, &settings) {
            Ok(c) => {
                // The combination's own text compiles to the same variant.
                let text = murus_dsl::instantiate(PARAMS, &settings).expect("instantiates");
                prop_assert_eq!(compile(&text).expect("its text compiles"), c);
            }
            Err(diags) => {
                prop_assert!(diags.iter().any(murus_dsl::Diagnostic::is_error));
                for d in &diags {
                    prop_assert!(!d.message.starts_with("internal error"));
                }
                let _ = render_all(&diags, "fuzz.mg", PARAMS);
            }
        }
    }

    #[test]
    fn mutations_of_the_standard_game_never_panic(
        edits in prop::collection::vec(edit(), 1..8)
    ) {
        compile_and_render(&apply(STANDARD, &edits));
    }
}

#[test]
fn the_standard_game_itself_compiles() {
    assert!(compile(STANDARD).is_ok());
    assert!(compile(PARAMS).is_ok_and(|c| c.warnings.is_empty()));
}

#[test]
fn the_landing_sample_compiles_with_its_landing_rules() {
    let c =
        compile(LANDING).unwrap_or_else(|d| panic!("{}", render_all(&d, "landing.mg", LANDING)));
    let cat = c.rules.catapults[0].clone();
    assert!(!cat.wall_on_empty);
    assert_eq!(cat.hit_removes, 2);
    assert!(c.warnings.is_empty());
}
