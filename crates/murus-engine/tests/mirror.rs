//! Left-right mirror symmetry: where the rules say a variant is the same
//! in a mirror (`Rules::left_right_mirror`), play agrees: a position's
//! mirror image has the mirrored hash, the same outcome and the mirror
//! images of its children as its children.

#[allow(dead_code)] // the helpers this file does not need
mod common;

use murus_engine::{BUILTIN, Variant};
use proptest::prelude::*;

use common::random_line;
use common::rulegen::rule_file;

/// Checks play against the mirror on random lines of `v`; the number of
/// positions checked.
fn agrees(v: &Variant, seeds: u64, plies: usize) -> usize {
    let mut checked = 0;
    for seed in 0..seeds {
        for p in random_line(v, seed * 7919 + 1, plies) {
            let Some(q) = v.mirror_position(&p) else {
                continue; // a set-up the board cannot tell apart
            };
            if v.outcome(&p).is_some() {
                continue;
            }
            let name = v.name();
            assert_eq!(
                v.mirrored_hash(&p),
                Some(v.hash(&q)),
                "{name}: hash of the mirror image"
            );
            assert_eq!(
                v.mirrored_hash(&q),
                Some(v.hash(&p)),
                "{name}: mirrored twice"
            );
            assert_eq!(
                v.symmetric_hash(&p),
                v.symmetric_hash(&q),
                "{name}: one key for both"
            );
            assert_eq!(v.outcome(&q), None, "{name}: outcome of the mirror image");
            let mut from_p: Vec<u64> = (v.legal_moves(&p).into_iter())
                .map(|m| v.mirrored_hash(&v.play(&p, m)).unwrap())
                .collect();
            let mut from_q: Vec<u64> = (v.legal_moves(&q).into_iter())
                .map(|m| v.hash(&v.play(&q, m)))
                .collect();
            from_p.sort_unstable();
            from_q.sort_unstable();
            assert_eq!(from_p, from_q, "{name}: the mirror image's children");
            checked += 1;
        }
    }
    checked
}

#[test]
fn the_shipped_variants_on_rectangles_with_symmetric_rules_play_the_same_in_a_mirror() {
    let mut symmetric = Vec::new();
    for (name, _) in BUILTIN {
        let v = Variant::builtin(name).unwrap();
        if v.mirror().is_some() {
            assert!(agrees(&v, 6, 60) > 100, "{name}: too few positions checked");
            symmetric.push(*name);
        }
    }
    for name in ["standard", "advanced", "houdini", "small", "large"] {
        assert!(
            symmetric.contains(&name),
            "{name} should be symmetric: {symmetric:?}"
        );
    }
    for name in ["hex", "hex3-escape"] {
        assert!(
            !symmetric.contains(&name),
            "{name}: hexagons have no file mirror"
        );
    }
}

#[test]
fn rules_with_one_sided_setup_or_directions_have_no_mirror() {
    let standard = Variant::standard();
    let mut rules = standard.rules().clone();
    let (cell, ..) = rules.setup[0];
    let (x, _) = rules.geometry.coords(cell);
    assert_ne!(
        x * 2 + 1,
        rules.geometry.width(),
        "the first stack is off the middle"
    );
    rules.setup.remove(0);
    assert!(rules.left_right_mirror().is_none(), "a setup one side only");

    let mut rules = standard.rules().clone();
    let ne = rules.geometry.direction_index("ne").unwrap();
    let sow = &mut rules.sow[0].directions[0];
    sow.retain(|&d| d != ne);
    assert!(rules.left_right_mirror().is_none(), "sowing nw but not ne");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(48), ..ProptestConfig::default() })]

    /// Any rules the check calls symmetric play the same in a mirror.
    #[test]
    fn random_rules_said_symmetric_play_the_same_in_a_mirror(seed in any::<u64>()) {
        let text = rule_file(seed);
        let v = Variant::compile(&text).unwrap();
        if v.mirror().is_some() {
            agrees(&v, 2, 40);
        }
    }
}
