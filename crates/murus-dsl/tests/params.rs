//! Declared parameters: `param NAME = …`, `$NAME` wherever a number goes,
//! `compile_with`, `params` and `instantiate`.

use murus_dsl::{Param, Span, compile, compile_with, instantiate, params, render_all};

const ADVANCED: &str = include_str!("../../../variants/advanced.mg");

/// A rect board of `$files x $ranks` with homes on the edge ranks.
const RECT: &str = r##"variant "sized"
param files = 7..9 default 8
param ranks = 6, 7, 8 default 7
board rect $files x $ranks
player "Romans" { letter r colour "#e8dcc0" home rank 1 forward n }
player "Gauls" { letter g colour "#5b3a29" home rank $ranks forward s }
setup { r 2 on rank 1  g 2 on rank $ranks }
stack limit 2
sow { heights 2 directions all onto empty, own 1 }
win { breakthrough immediate stalemate loses }
"##;

fn set(pairs: &[(&str, u32)]) -> Vec<(String, u32)> {
    pairs.iter().map(|&(n, v)| (n.to_string(), v)).collect()
}

fn ok(source: &str, settings: &[(String, u32)]) -> murus_dsl::Compiled {
    compile_with(source, settings).unwrap_or_else(|d| panic!("{}", render_all(&d, "t.mg", source)))
}

fn errors(source: &str, settings: &[(String, u32)]) -> String {
    match compile_with(source, settings) {
        Ok(_) => panic!("compiled with {settings:?}"),
        Err(d) => render_all(&d, "t.mg", source),
    }
}

#[test]
fn a_parameterised_board_has_the_cells_of_each_value() {
    for files in 7..=9u32 {
        for ranks in [6u32, 7, 8] {
            let c = ok(RECT, &set(&[("files", files), ("ranks", ranks)]));
            let g = &c.rules.geometry;
            assert_eq!((g.width() as u32, g.height() as u32), (files, ranks));
            assert_eq!(g.cell_count() as u32, files * ranks);
            // `rank $ranks` follows the board: the Gauls start on its top rank.
            assert_eq!(c.rules.players[1].home, g.rank(ranks as usize));
            assert_eq!(c.rules.setup.len() as u32, 2 * files);
            assert!(c.warnings.is_empty());
        }
    }
    // Without settings, the defaults: 8 x 7, the standard board.
    let c = compile(RECT).unwrap();
    assert_eq!(c.rules.geometry.cell_count(), 56);
    // Setting one leaves the other at its default.
    let c = ok(RECT, &set(&[("files", 9)]));
    assert_eq!(c.rules.geometry.cell_count(), 63);
}

#[test]
fn a_hex_side_may_be_a_parameter() {
    let source = r##"variant "hexes"
param side = 3..5
board hex $side
player "Romans" { letter r colour "#e8dcc0" home edge s forward ne }
player "Gauls" { letter g colour "#5b3a29" home edge n forward sw }
setup { r 1 on edge s  g 1 on edge n }
stack limit 2
win { stalemate loses }
"##;
    for (side, cells) in [(3, 19), (4, 37), (5, 61)] {
        let c = ok(source, &set(&[("side", side)]));
        assert_eq!(c.rules.geometry.cell_count(), cells, "side {side}");
    }
    // The default of a range without `default` is its low end.
    assert_eq!(compile(source).unwrap().rules.geometry.cell_count(), 19);
}

/// Advanced Murus Gallicus with a parameter for every number the grammar
/// takes, each defaulting to the number it replaces.
fn advanced_with_params() -> String {
    let body = ADVANCED
        .replace("board rect 8 x 7", "board rect $w x $h")
        .replace("home rank 1", "home rank $one")
        .replace("home rank 7", "home rank $h")
        .replace("r 2 on rank 1", "r $two on rank $one")
        .replace("g 2 on rank 7", "g $two on rank $h")
        .replace("stack limit 3", "stack limit $limit")
        .replace("heights 2", "heights $two")
        .replace("onto empty, own 1, own 2", "onto empty, own $one, own $two")
        .replace(
            "2 against 3: lose 2, remove 2",
            "$two against $limit: lose $two, remove $two",
        )
        .replace("height 3", "height $limit")
        .replace("range 2, 3", "range $two, $limit")
        .replace(
            "enemy 1, enemy 2, enemy 3",
            "enemy $one, enemy 2, enemy $limit",
        )
        .replace("repetition 3", "repetition $rep")
        .replace("plies 300", "plies $plies");
    let decls = "param w = 8\nparam h = 7, 8\nparam one = 1\nparam two = 2\n\
                 param limit = 3 default 3\nparam rep = 2..5 default 3\n\
                 param plies = 100, 300, 1000 default 300\n";
    format!("{decls}{body}")
}

#[test]
fn parameters_stand_for_every_kind_of_number() {
    let source = advanced_with_params();
    assert_eq!(source.matches('$').count(), 23, "{source}");
    let with = ok(&source, &[]);
    let plain = compile(ADVANCED).unwrap();
    assert_eq!(with.rules, plain.rules);
    assert!(with.warnings.is_empty());

    let other = ok(&source, &set(&[("rep", 5), ("plies", 1000)]));
    assert_eq!(other.rules.draw.repetition, Some(5));
    assert_eq!(other.rules.draw.ply_cap, Some(1000));
    let tall = ok(&source, &set(&[("h", 8)]));
    assert_eq!(tall.rules.geometry.cell_count(), 64);
}

#[test]
fn params_lists_the_declarations() {
    let ps = params(RECT).unwrap();
    let start = RECT.find("param files").unwrap();
    assert_eq!(
        ps[0],
        Param {
            name: "files".into(),
            values: vec![7, 8, 9],
            default: 8,
            span: Span::new(start, start + "param files = 7..9 default 8".len()),
        }
    );
    assert_eq!(ps[1].name, "ranks");
    assert_eq!(ps[1].values, [6, 7, 8]);
    assert_eq!(ps[1].default, 7);
    assert_eq!(ps[0].to_string(), "files = 7..9 (default 8)");
    assert_eq!(ps[1].to_string(), "ranks = 6..8 (default 7)");
    // A list keeps its order; the default is its first value.
    let ps = params("param p = 5, 1, 3\n").unwrap();
    assert_eq!(
        (ps[0].values.as_slice(), ps[0].default),
        (&[5, 1, 3][..], 5)
    );
    assert_eq!(ps[0].to_string(), "p = 5, 1, 3 (default 5)");
    assert!(params(ADVANCED).unwrap().is_empty());
    // Broken declarations are errors here too.
    assert!(params("param p = 3..1\n").is_err());
    assert!(params("param p = 1, 2 default 3\n").is_err());
    assert!(params("param p = 1\nparam p = 2\n").is_err());
}

#[test]
fn instantiate_rewrites_only_the_declarations() {
    let settings = set(&[("files", 9), ("ranks", 6)]);
    let text = instantiate(RECT, &settings).unwrap();
    assert_eq!(
        text,
        RECT.replace("param files = 7..9 default 8", "param files = 9")
            .replace("param ranks = 6, 7, 8 default 7", "param ranks = 6")
    );
    // On its own it compiles to exactly that variant, with one value each.
    assert_eq!(compile(&text).unwrap(), ok(RECT, &settings));
    let ps = params(&text).unwrap();
    assert_eq!(ps[0].values, [9]);
    assert_eq!(ps[1].values, [6]);
    // Instantiating again changes nothing.
    assert_eq!(instantiate(&text, &[]).unwrap(), text);
    assert_eq!(instantiate(&text, &settings).unwrap(), text);
    // Without settings: the defaults, written out.
    let defaults = instantiate(RECT, &[]).unwrap();
    assert!(defaults.contains("param files = 8\nparam ranks = 7\n"));
    assert_eq!(compile(&defaults).unwrap(), compile(RECT).unwrap());
    // A file without parameters is its own instantiation.
    assert_eq!(instantiate(ADVANCED, &[]).unwrap(), ADVANCED);
}

#[test]
fn instantiate_keeps_every_other_byte() {
    let source = "// head\nparam  a =1 ..3// x\n  default\t2 // after\nboard rect $a x 7 // é\n";
    let text = instantiate(source, &set(&[("a", 3)])).unwrap();
    assert_eq!(
        text,
        "// head\nparam  a =3 // after\nboard rect $a x 7 // é\n"
    );
}

#[test]
fn every_combination_compiles_as_its_own_text() {
    let source = advanced_with_params();
    let ps = params(&source).unwrap();
    let mut combos: Vec<Vec<(String, u32)>> = vec![Vec::new()];
    for p in &ps {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                p.values.iter().map(move |&v| {
                    let mut c = c.clone();
                    c.push((p.name.clone(), v));
                    c
                })
            })
            .collect();
    }
    assert_eq!(combos.len(), 2 * 4 * 3);
    let mut texts = std::collections::HashSet::new();
    for c in &combos {
        let text = instantiate(&source, c).unwrap();
        assert_eq!(compile(&text).unwrap(), ok(&source, c), "{c:?}");
        texts.insert(text);
    }
    assert_eq!(
        texts.len(),
        combos.len(),
        "each combination has its own text"
    );
}

#[test]
fn a_setting_must_name_a_declared_parameter() {
    let text = errors(RECT, &set(&[("flies", 9)]));
    assert!(
        text.starts_with("t.mg:2:7: error: no parameter `flies` is declared\n"),
        "{text}"
    );
    assert!(
        text.contains("= note: this file declares `files` and `ranks`"),
        "{text}"
    );
    assert!(text.contains("= help: did you mean `files`?"), "{text}");
    // Nothing close: at the first declaration, without a suggestion.
    let text = errors(RECT, &set(&[("width", 9)]));
    assert!(
        text.starts_with("t.mg:2:7: error: no parameter `width`"),
        "{text}"
    );
    assert!(!text.contains("help"), "{text}");
    // A file without parameters.
    let text = errors(ADVANCED, &set(&[("files", 9)]));
    assert!(text.contains("this file declares no parameters"), "{text}");
    assert!(instantiate(RECT, &set(&[("flies", 9)])).is_err());
}

#[test]
fn a_setting_must_be_a_declared_value() {
    let text = errors(RECT, &set(&[("files", 10)]));
    insta::assert_snapshot!(text, @r"
    t.mg:2:15: error: parameter `files` cannot be 10
      |
    2 | param files = 7..9 default 8
      |               ^^^^
      |
      = note: `files` takes a value from 7 to 9, as declared here

    error: could not compile `t.mg` due to 1 previous error
    ");
    let text = errors("param p = 1, 3\nboard hex $p\n", &set(&[("p", 2)]));
    assert!(text.contains("`p` takes one of 1 or 3"), "{text}");
    let text = errors(RECT, &set(&[("files", 7), ("files", 8)]));
    assert!(text.contains("parameter `files` is set twice"), "{text}");
    assert!(instantiate(RECT, &set(&[("files", 10)])).is_err());
}

#[test]
fn a_combination_that_breaks_the_rules_names_the_values_in_force() {
    // 9 ranks and a home on rank 9 are fine; rank 9 on a board of 7 is not.
    let source = RECT.replace("home rank $ranks", "home rank 8");
    let text = errors(&source, &set(&[("ranks", 7), ("files", 9)]));
    assert!(
        text.contains("error: rank 8 is not on this board (ranks 1–7)"),
        "{text}"
    );
    assert!(
        text.contains("= note: parameters in force: files = 9, ranks = 7"),
        "{text}"
    );
    assert!(ok(&source, &set(&[("ranks", 8)])).warnings.is_empty());
}

#[test]
fn numbers_only_take_parameters() {
    // Cell names and a parameter's own values are not numbers.
    let d = compile("variant \"v\" board rect 8 x 7 without cells a$n").unwrap_err();
    assert_eq!(d.len(), 1);
    let d = compile("param a = 1\nparam b = $a\n").unwrap_err();
    assert!(
        d[0].message.contains("expected a number, found `$a`"),
        "{}",
        d[0].message
    );
    // A name starts with a letter or `_`.
    assert!(compile("stack limit $1").is_err());
    // `param` and `default` are words of the language.
    assert!(murus_dsl::RESERVED.contains(&"param"));
    assert!(murus_dsl::RESERVED.contains(&"default"));
    let d = compile("variant \"v\" win { param a = 1 }").unwrap_err();
    assert!(
        d[0].message.contains("`param` is not allowed here"),
        "{}",
        d[0].message
    );
}

#[test]
fn an_unknown_parameter_is_reported_once_and_silences_what_it_feeds() {
    let source = RECT.replace("board rect $files x $ranks", "board rect $file x $ranks");
    let d = compile(&source).unwrap_err();
    let errors: Vec<&str> = d
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(errors, ["unknown parameter `$file`"]);
    assert_eq!(d[0].help.as_deref(), Some("did you mean `$files`?"));
    // The likely meant `files` is not also reported as never used.
    assert!(d.iter().all(|d| !d.message.contains("never used")), "{d:?}");
}

/// The numbers of the win block (`reduced to $n stones`, `occupy rank $r
/// count $k`) and of a sowing's `on enemy: remove $n` take parameters too.
#[test]
fn the_win_block_and_a_sowing_capture_take_parameters() {
    let source = RECT
        .replace(
            "win { breakthrough immediate stalemate loses }",
            "param n = 3..5\nparam k = 1, 2\nparam r = 4, 5\n\
             win { breakthrough immediate reduced to $n stones occupy rank $r count $k \
             stalemate loses }",
        )
        .replace(
            "onto empty, own 1 }",
            "onto empty, own 1, enemy 1 on enemy: remove $k }",
        );
    let c = ok(&source, &set(&[("n", 5), ("k", 2), ("r", 5)]));
    let win = c.rules.win(0);
    assert_eq!(win.reduced.map(|r| r.at_most), Some(5));
    let occupation = win.occupation.as_ref().expect("occupation");
    assert_eq!(occupation.count, 2);
    let g = &c.rules.geometry;
    assert_eq!(occupation.cells, g.rank(5));
    let sow = c.rules.sow_of(0).expect("sow");
    assert_eq!(sow.on_enemy, murus_dsl::rules::SowCapture::Remove(2));
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}
