//! Every shipped variant compiles, and its key facts come out as the rules
//! text says.

use std::path::{Path, PathBuf};

use murus_dsl::rules::{Opening, Timing};
use murus_dsl::{Rules, ShapeKind, compile, render_all};

fn variants_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants")
}

fn load(name: &str) -> Rules {
    let path = variants_dir().join(format!("{name}.mg"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    match compile(&source) {
        Ok(c) => {
            assert!(
                c.warnings.is_empty(),
                "{}",
                render_all(&c.warnings, &format!("{name}.mg"), &source)
            );
            c.rules
        }
        Err(diags) => panic!("{}", render_all(&diags, &format!("{name}.mg"), &source)),
    }
}

fn letters(rules: &Rules) -> Vec<char> {
    rules.players.iter().map(|p| p.letter).collect()
}

fn dir_names(rules: &Rules, dirs: &[usize]) -> Vec<&'static str> {
    dirs.iter()
        .map(|&d| rules.geometry.directions()[d].name)
        .collect()
}

#[test]
fn every_variant_file_compiles_without_warnings() {
    let mut count = 0;
    for entry in std::fs::read_dir(variants_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "mg") {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            let rules = load(&stem);
            assert_eq!(rules.name, stem, "the variant name matches the file name");
            count += 1;
        }
    }
    assert!(count >= 12, "found only {count} variant files");
}

#[test]
fn standard() {
    let r = load("standard");
    assert_eq!(r.title, "Murus Gallicus");
    assert_eq!(r.geometry.kind(), ShapeKind::Rect);
    assert_eq!(r.geometry.cell_count(), 56);
    assert_eq!(letters(&r), ['r', 'g']);
    assert_eq!(r.players[0].name, "Romans");
    assert_eq!(r.players[0].colour, 0xe8dcc0);
    assert_eq!(r.players[1].colour, 0x5b3a29);
    assert_eq!(dir_names(&r, &[r.players[0].forward]), ["n"]);
    assert_eq!(dir_names(&r, &[r.players[1].forward]), ["s"]);
    assert_eq!(r.players[0].home, r.geometry.rank(1));
    assert_eq!(r.players[1].home, r.geometry.rank(7));
    assert_eq!(r.setup.len(), 16);
    assert!(r.setup.iter().all(|&(_, _, h)| h == 2));
    assert!(
        r.setup
            .iter()
            .filter(|&&(_, p, _)| p == 0)
            .all(|&(c, _, _)| r.geometry.coords(c).1 == 0)
    );
    assert_eq!(r.stack_limit, 2);
    let sow = r.sow_of(0).unwrap();
    assert_eq!(sow.heights, [2]);
    assert_eq!(
        sow.directions,
        [(0..8).collect::<Vec<_>>(), (0..8).collect()]
    );
    assert!(sow.onto_empty);
    assert_eq!(sow.onto_own, [1]);
    assert_eq!(r.sacrifices.len(), 1);
    let s = &r.sacrifices[0];
    assert_eq!((s.attacker, s.target, s.lose, s.remove), (2, 1, 1, 1));
    assert_eq!(s.directions[0].len(), 8);
    assert!(r.catapults.is_empty());
    let b = r.win(0).breakthrough.unwrap();
    assert_eq!(b.timing, Timing::Immediate);
    assert!(b.by_sow && !b.by_throw);
    assert_eq!(r.win(0).stalemate, murus_dsl::rules::Stalemate::Loses);
    assert_eq!(r.draw.repetition, Some(3));
    assert_eq!(r.draw.ply_cap, Some(300));
    assert_eq!(r.opening, Opening::None);
}

#[test]
fn advanced() {
    let r = load("advanced");
    assert_eq!(r.stack_limit, 3);
    let sow = r.sow_of(0).unwrap();
    assert_eq!(sow.heights, [2]);
    assert_eq!(sow.onto_own, [1, 2]);
    assert_eq!(r.sacrifices.len(), 3);
    let rules: Vec<_> = r
        .sacrifices
        .iter()
        .map(|s| (s.attacker, s.target, s.lose, s.remove))
        .collect();
    assert_eq!(rules, [(2, 1, 1, 1), (2, 3, 1, 1), (2, 3, 2, 2)]);
    let c = &r.catapults[0];
    assert_eq!(c.height, 3);
    assert_eq!(c.ranges, [2, 3]);
    assert!(c.onto_empty);
    assert_eq!(c.onto_enemy, [1, 2, 3]);
    // Romans face north: left, forward-left, forward, forward-right, right.
    assert_eq!(c.directions[0], [6, 7, 0, 1, 2]);
    assert_eq!(dir_names(&r, &c.directions[0]), ["w", "nw", "n", "ne", "e"]);
    // Gauls face south.
    assert_eq!(c.directions[1], [2, 3, 4, 5, 6]);
    let b = r.win(0).breakthrough.unwrap();
    assert_eq!(b.timing, Timing::Immediate);
    assert!(b.by_sow && b.by_throw);
}

#[test]
fn advanced_delayed() {
    let r = load("advanced-delayed");
    let b = r.win(0).breakthrough.unwrap();
    assert_eq!(b.timing, Timing::Delayed);
    assert!(b.by_sow && b.by_throw);
    let advanced = load("advanced");
    assert_eq!(r.catapults, advanced.catapults);
    assert_eq!(r.sacrifices, advanced.sacrifices);
}

#[test]
fn hex() {
    let r = load("hex");
    assert_eq!(r.geometry.kind(), ShapeKind::Hex);
    assert_eq!(r.geometry.cell_count(), 61);
    assert_eq!(r.setup.len(), 18);
    assert_eq!(r.players[0].home.len(), 9);
    assert_eq!(
        dir_names(&r, &[r.players[0].forward, r.players[1].forward]),
        ["ne", "sw"]
    );
    assert_eq!(r.sow_of(0).unwrap().directions[0].len(), 6);
    assert!(r.win(0).breakthrough.is_some());
}

#[test]
fn hex3_escape() {
    let r = load("hex3-escape");
    assert_eq!(letters(&r), ['r', 'g', 'b']);
    assert_eq!(r.setup.len(), 15);
    assert!(r.win(0).breakthrough.is_none());
    assert_eq!(r.sow_of(0).unwrap().directions.len(), 3);
}

#[test]
fn escape4() {
    let r = load("escape4");
    assert_eq!(letters(&r), ['r', 'b', 'g', 'h']);
    assert_eq!(r.geometry.cell_count(), 64);
    assert_eq!(r.setup.len(), 24);
    assert!(r.win(0).breakthrough.is_none());
    assert_eq!(r.draw.ply_cap, Some(800));
    // Corners start empty.
    for corner in ["a1", "h1", "a8", "h8"] {
        let c = r.geometry.parse_cell(corner).unwrap();
        assert!(r.setup.iter().all(|&(s, _, _)| s != c), "{corner}");
    }
}

#[test]
fn pie() {
    let r = load("pie");
    let Opening::Pie { from, to } = &r.opening else {
        panic!("no pie opening")
    };
    for p in 0..2 {
        assert_eq!(from[p].len(), 8);
        assert_eq!(to[p].len(), 8);
    }
    assert_eq!(from[0], r.geometry.rank(1));
    assert_eq!(to[0], r.geometry.rank(2));
    assert_eq!(from[1], r.geometry.rank(7));
    assert_eq!(to[1], r.geometry.rank(6));
}

#[test]
fn board_sizes() {
    let checkerboard = load("checkerboard");
    assert_eq!(checkerboard.geometry.cell_count(), 64);
    assert_eq!(checkerboard.setup.len(), 12);
    let small = load("small");
    assert_eq!(small.geometry.cell_count(), 49);
    assert_eq!(small.setup.len(), 14);
    let large = load("large");
    assert_eq!(large.geometry.cell_count(), 81);
    assert_eq!(large.setup.len(), 18);
}

#[test]
fn houdini_and_escape() {
    let houdini = load("houdini");
    assert!(houdini.sacrifices.is_empty());
    assert!(houdini.win(0).breakthrough.is_some());
    let escape = load("escape");
    assert!(escape.win(0).breakthrough.is_none());
    assert_eq!(escape.sacrifices.len(), 1);
}

#[test]
fn turns_reorder_the_players() {
    let source = std::fs::read_to_string(variants_dir().join("standard.mg")).unwrap();
    let source = format!("{source}\nturns g r\n");
    let r = compile(&source).unwrap().rules;
    assert_eq!(letters(&r), ['g', 'r']);
    // Per-player data follow the new order.
    assert_eq!(r.setup.iter().filter(|&&(_, p, _)| p == 0).count(), 8);
    let g_cell = r.geometry.parse_cell("a7").unwrap();
    assert!(r.setup.contains(&(g_cell, 0, 2)));
}

/// The annotated worked example in `docs/rules-language.md` is the real
/// `variants/advanced.mg`, comments aside.
#[test]
fn the_documented_worked_example_is_advanced() {
    let doc = include_str!("../../../docs/rules-language.md");
    let section = doc
        .split("## A worked example")
        .nth(1)
        .expect("the worked example section");
    let code = section
        .split("```")
        .nth(1)
        .expect("a code block in the worked example");
    let documented = murus_dsl::compile(code).expect("the worked example compiles");
    let shipped = murus_dsl::compile(include_str!("../../../variants/advanced.mg")).unwrap();
    assert_eq!(documented.rules, shipped.rules);
}

/// The standard game with `from` replaced by `to` (exactly once).
fn standard_with(edits: &[(&str, &str)]) -> String {
    let mut source = std::fs::read_to_string(variants_dir().join("standard.mg")).unwrap();
    for (from, to) in edits {
        assert_eq!(source.matches(from).count(), 1, "`{from}` occurs once");
        source = source.replace(from, to);
    }
    source
}

fn errors_of(source: &str) -> Vec<String> {
    match compile(source) {
        Ok(_) => Vec::new(),
        Err(diags) => diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.clone())
            .collect(),
    }
}

#[test]
fn an_unreachable_home_is_an_error_only_with_a_breakthrough() {
    let back = (
        "heights 2\n    directions all",
        "heights 2\n    directions back",
    );
    assert_eq!(
        errors_of(&standard_with(&[back])),
        [
            "the Romans (`r`) can never reach another player's home",
            "the Gauls (`g`) can never reach another player's home"
        ]
    );
    // Sideways only: still never off the home rank.
    let sideways = (
        "heights 2\n    directions all",
        "heights 2\n    directions left, right",
    );
    assert_eq!(errors_of(&standard_with(&[sideways])).len(), 2);
    // Only the Romans turned round.
    let roman_back = (
        "heights 2\n    directions all",
        "heights 2\n    directions back, n",
    );
    assert_eq!(
        errors_of(&standard_with(&[roman_back])),
        ["the Gauls (`g`) can never reach another player's home"]
    );
    // Without a breakthrough (Escape) nothing needs reaching.
    let escape = ("breakthrough immediate by sow\n", "");
    assert!(errors_of(&standard_with(&[back, escape])).is_empty());
    // A delayed breakthrough does not make it reachable either.
    let delayed = ("breakthrough immediate", "breakthrough delayed");
    assert_eq!(errors_of(&standard_with(&[back, delayed])).len(), 2);
    // Far homes need several sowings: a 9-rank board with homes at the far
    // ends is fine.
    let tall = standard_with(&[
        ("rect 8 x 7", "rect 8 x 9"),
        ("home rank 7", "home rank 9"),
        ("g 2 on rank 7", "g 2 on rank 9"),
    ]);
    assert!(errors_of(&tall).is_empty(), "{:?}", errors_of(&tall));
}

#[test]
fn catapult_throws_and_pie_splits_count_towards_reaching_a_home() {
    let cat = "catapult {\n    height 2\n    directions forward\n    range 3\n    onto empty\n}\n";
    let back = (
        "heights 2\n    directions all",
        "heights 2\n    directions back",
    );
    // Sowing back, throwing forward: a throw reaches the far rank…
    let source = standard_with(&[
        back,
        ("stack limit 2\n", &format!("stack limit 2\n{cat}")),
        ("immediate by sow", "immediate by sow, throw"),
    ]);
    assert!(errors_of(&source).is_empty(), "{:?}", errors_of(&source));
    // …but counts only when throws break through.
    let by_sow = standard_with(&[back, ("stack limit 2\n", &format!("stack limit 2\n{cat}"))]);
    assert_eq!(errors_of(&by_sow).len(), 2);
    // A throw onto enemies only moves no stone.
    let enemy_only = standard_with(&[
        back,
        (
            "stack limit 2\n",
            &format!(
                "stack limit 2\n{}",
                cat.replace("onto empty", "onto enemy any")
            ),
        ),
        ("immediate by sow", "immediate by sow, throw"),
    ]);
    assert_eq!(errors_of(&enemy_only).len(), 2);
}

#[test]
fn every_shipped_variant_reaches_its_homes() {
    // hex (two players facing ne/sw), pie (splits), escape4 (no
    // breakthrough) and the rest compile: see
    // `every_variant_file_compiles_without_warnings`. A hex board with a
    // player facing away from its opponents does not.
    let source = std::fs::read_to_string(variants_dir().join("hex.mg")).unwrap();
    let turned = source.replacen(
        "directions all",
        "directions back, back-left, back-right",
        1,
    );
    assert_ne!(turned, source);
    assert_eq!(errors_of(&turned).len(), 2, "{:?}", errors_of(&turned));
}

/// The designer's words: the introduction a string a paragraph, and the
/// captions by figure, in the file's order, each text trimmed; none
/// without them.
#[test]
fn the_designers_introduction_and_captions_are_kept() {
    assert_eq!(load("standard").about, murus_dsl::rules::About::default());
    let source = std::fs::read_to_string(variants_dir().join("standard.mg")).unwrap();
    let source = format!(
        "{source}\nintroduction \"Two tribes.\" \" Walls rise. \"\ncaption throw \"Over the wall.\"\ncaption start \"Before the first move.\"\n"
    );
    let about = compile(&source).unwrap().rules.about;
    assert_eq!(about.introduction, ["Two tribes.", "Walls rise."]);
    assert_eq!(about.caption("start"), Some("Before the first move."));
    assert_eq!(about.caption("throw"), Some("Over the wall."));
    assert_eq!(about.caption("sacrifice"), None);
    assert_eq!(about.captions[0].0, "throw");
}
