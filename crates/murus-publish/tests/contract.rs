//! The SVG contract (issue 23): for random positions of every shipped
//! variant, a diagram lists exactly the position's stacks (cell, player,
//! height) as `class="stack"` elements, and an arrow per move asked for
//! with its notation in `data-move`.

use std::collections::{BTreeMap, BTreeSet};

use murus_engine::{Action, BUILTIN, Position, Variant};
use murus_publish::{Diagram, DiagramError, Shade, Theme};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The value of attribute `name` in the tag text `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(&tag[start..end])
}

/// The opening tags of `svg` whose class is `class`.
fn tags<'a>(svg: &'a str, class: &str) -> Vec<&'a str> {
    let key = format!("class=\"{class}\"");
    svg.split('<')
        .filter(|t| t.contains(&key))
        .map(|t| t.split('>').next().unwrap_or(t))
        .collect()
}

/// The stacks the SVG lists: (cell, player letter, height).
fn listed(svg: &str) -> BTreeSet<(String, String, u32)> {
    tags(svg, "stack")
        .into_iter()
        .map(|t| {
            (
                attr(t, "data-cell").expect("a cell").to_string(),
                attr(t, "data-player").expect("a player").to_string(),
                attr(t, "data-height")
                    .expect("a height")
                    .parse()
                    .expect("a number"),
            )
        })
        .collect()
}

/// The position's stacks, from the engine.
fn stacks(v: &Variant, pos: &Position) -> BTreeSet<(String, String, u32)> {
    let g = v.geometry();
    g.cells()
        .filter_map(|slot| {
            v.stack(pos, slot)
                .map(|(p, h)| (g.name(slot), v.letter(p).to_string(), u32::from(h)))
        })
        .collect()
}

/// A position `plies` random plies from the start (fewer where the game
/// ends first).
fn random_position(v: &Variant, seed: u64, plies: usize) -> Position {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = v.start();
    for _ in 0..plies {
        let moves = v.legal_moves(&pos);
        if moves.is_empty() || v.outcome(&pos).is_some() {
            break;
        }
        pos = v.play(&pos, moves[rng.random_range(0..moves.len())]);
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_diagram_lists_exactly_the_positions_stacks(
        variant in 0..BUILTIN.len(),
        seed in any::<u64>(),
        plies in 0usize..60,
        print in any::<bool>(),
        coordinates in any::<bool>(),
    ) {
        let v = Variant::builtin(BUILTIN[variant].0).unwrap();
        let pos = random_position(&v, seed, plies);
        let theme = if print { Theme::Print } else { Theme::Colour };
        let svg = Diagram::new(&v, pos).theme(theme).coordinates(coordinates).to_svg();
        prop_assert_eq!(listed(&svg), stacks(&v, &pos));
        prop_assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        prop_assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn every_legal_move_but_a_swap_has_its_arrow(
        variant in 0..BUILTIN.len(),
        seed in any::<u64>(),
        plies in 0usize..30,
    ) {
        let v = Variant::builtin(BUILTIN[variant].0).unwrap();
        let pos = random_position(&v, seed, plies);
        let mut d = Diagram::new(&v, pos);
        let mut expected = Vec::new();
        for m in v.legal_moves(&pos) {
            match d.clone().arrow(m) {
                Ok(next) => {
                    d = next;
                    expected.push(v.move_to_string(m));
                }
                Err(e) => {
                    prop_assert!(matches!(m.action(), Action::Swap));
                    prop_assert_eq!(e, DiagramError::NoArrow("swap".into()));
                }
            }
        }
        let svg = d.to_svg();
        let arrows: Vec<String> = tags(&svg, "arrow")
            .into_iter()
            .map(|t| attr(t, "data-move").unwrap().to_string())
            .collect();
        prop_assert_eq!(arrows, expected);
    }
}

#[test]
fn marks_and_highlights_name_their_cells_and_bad_cells_are_refused() {
    let v = Variant::standard();
    let d = Diagram::new(&v, v.start());
    let c4 = d.cell("c4").unwrap();
    let e2 = d.cell("e2").unwrap();
    let svg = d
        .mark(c4)
        .highlight(e2)
        .caption("Romans <to> move")
        .to_svg();
    let marks: Vec<&str> = tags(&svg, "mark")
        .iter()
        .filter_map(|t| attr(t, "data-cell"))
        .collect();
    assert_eq!(marks, ["c4"]);
    let lit: Vec<&str> = tags(&svg, "highlight")
        .iter()
        .filter_map(|t| attr(t, "data-cell"))
        .collect();
    assert_eq!(lit, ["e2"]);
    assert!(svg.contains(">Romans &lt;to&gt; move</text>"), "{svg}");
    let d = Diagram::new(&v, v.start());
    assert_eq!(
        d.cell("z9").unwrap_err().to_string(),
        "`z9` is not a cell of the standard board"
    );
    assert!(d.cell("i1").is_err() && d.cell("a8").is_err() && d.cell("a0").is_err());
}

#[test]
fn a_heat_map_shades_its_cells_under_the_stacks_or_on_the_bare_board() {
    let v = Variant::standard();
    let d = Diagram::new(&v, v.start());
    let (c4, a1) = (d.cell("c4").unwrap(), d.cell("a1").unwrap());
    let shade = |fill: &str, text: &str| Shade {
        fill: fill.to_string(),
        text: Some(text.to_string()),
        title: format!("{text} <of> all"),
    };
    let svg = d
        .shade(c4, shade("#7f0000", "71%"))
        .shade(a1, shade("#fff7ec", "3%"))
        .to_svg();
    let shaded: Vec<&str> = tags(&svg, "shade")
        .iter()
        .filter_map(|t| attr(t, "data-cell"))
        .collect();
    assert_eq!(shaded, ["c4", "a1"]);
    // Above the cells, under the stacks; the tooltip escaped; white text
    // on the dark fill, dark on the light one.
    let at = |s: &str| svg.find(s).unwrap();
    assert!(
        at("class=\"cell\"") < at("class=\"shade\"")
            && at("class=\"shade\"") < at("class=\"stack\"")
    );
    assert!(svg.contains("<title>71% &lt;of&gt; all</title>"), "{svg}");
    assert!(svg.contains("fill=\"#ffffff\">71%</text>"), "{svg}");
    assert!(svg.contains("fill=\"#111111\">3%</text>"), "{svg}");
    // On the bare board: the shades and no stack.
    let bare = Diagram::new(&v, v.start())
        .stacks(false)
        .shade(c4, shade("#fdd49e", "9%"))
        .to_svg();
    assert!(tags(&bare, "stack").is_empty());
    assert_eq!(tags(&bare, "shade").len(), 1);
    assert_eq!(listed(&svg), stacks(&v, &v.start()));
    // On a hexagon, the cell's hexagon.
    let hex = Variant::builtin("hex").unwrap();
    let d = Diagram::new(&hex, hex.start());
    let cell = d.cell("d4").unwrap();
    let svg = d.shade(cell, shade("#d7301f", "40%")).to_svg();
    let group = &svg[svg.find("class=\"shade\"").unwrap()..];
    assert!(
        group[..group.find("</g>").unwrap()].contains("<polygon points="),
        "{svg}"
    );
}

#[test]
fn the_moves_of_one_stack_are_arrows_and_its_captures_dots() {
    // Advanced, Romans to move: the tower on e4 can sow and can sacrifice
    // against the catapult on d4 (in two ways: one dot).
    let v = Variant::builtin("advanced").unwrap();
    let pos = v
        .parse_position("g2g2g2g2g2g22/8/8/3g3r23/8/8/r2r2r2r2r2r2r21 r")
        .unwrap();
    let d = Diagram::new(&v, pos);
    let e4 = d.cell("e4").unwrap();
    let svg = d.moves_of(e4).to_svg();
    let mut expected: Vec<String> = v
        .legal_moves(&pos)
        .into_iter()
        .filter(|m| matches!(m.action(), Action::Sow { from, .. } if from == e4))
        .map(|m| v.move_to_string(m))
        .collect();
    let mut drawn: Vec<String> = tags(&svg, "arrow")
        .iter()
        .filter_map(|t| attr(t, "data-move"))
        .map(str::to_string)
        .collect();
    expected.sort();
    drawn.sort();
    assert!(!drawn.is_empty());
    assert_eq!(drawn, expected, "an arrow for each sowing of e4, no other");
    let marks: Vec<&str> = tags(&svg, "mark")
        .iter()
        .filter_map(|t| attr(t, "data-cell"))
        .collect();
    assert_eq!(marks, ["d4"], "one dot on the stack its sacrifices take");
    // An empty cell has no moves.
    let e5 = Diagram::new(&v, pos).cell("e5").unwrap();
    assert_eq!(Diagram::new(&v, pos).moves_of(e5).arrow_count(), 0);
}

/// A wall, a tower and a taller stack differ by their rings: a stack of
/// height h draws h − 1 rings inside its disc (positions of random play
/// of every shipped variant, until walls, towers and catapults were met).
#[test]
fn heights_read_as_rings() {
    let mut seen = BTreeSet::new();
    for (name, _) in BUILTIN {
        let v = Variant::builtin(name).unwrap();
        for seed in 0..20 {
            let svg = Diagram::new(&v, random_position(&v, seed, 40)).to_svg();
            for t in svg.split("<g class=\"stack\"").skip(1) {
                let body = t.split("</g>").next().unwrap();
                let open = format!(" {}", &body[..body.find('>').unwrap()]);
                let height: usize = attr(&open, "data-height").unwrap().parse().unwrap();
                let rings = body.matches("fill=\"none\"").count();
                assert_eq!(rings, height - 1, "{name}: {body}");
                seen.insert(height);
            }
        }
    }
    assert!(seen.is_superset(&BTreeSet::from([1, 2, 3])), "{seen:?}");
}

/// Each disc of each stack in `svg`: its centre and radius.
fn stack_discs(svg: &str) -> Vec<(f64, f64, f64)> {
    let mut out = Vec::new();
    for t in svg.split("<g class=\"stack\"").skip(1) {
        let body = t.split("</g>").next().unwrap();
        for c in body.split("<circle").skip(1) {
            let c = format!(" {}", c.split('>').next().unwrap());
            out.push((number(&c, "cx"), number(&c, "cy"), number(&c, "r")));
        }
    }
    out
}

/// The arrows of a line drawn numbered (a best line, a solution): each
/// numbered 1, 2, 3 … in order, and no number's disc over a stack, where
/// it would hide the rings that give the stack's height (positions of
/// random play of every shipped two-player variant, lines of three moves).
#[test]
fn the_arrows_of_a_line_are_numbered_and_no_number_covers_a_stack() {
    let mut lines = 0;
    for (name, _) in BUILTIN {
        let v = Variant::builtin(name).unwrap();
        for seed in 0..6 {
            let pos = random_position(&v, seed, 10 + 7 * seed as usize);
            let mut d = Diagram::new(&v, pos).numbered(true);
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut at = pos;
            let mut line = Vec::new();
            for _ in 0..3 {
                let moves: Vec<_> = v
                    .legal_moves(&at)
                    .into_iter()
                    .filter(|m| !matches!(m.action(), Action::Swap))
                    .collect();
                if moves.is_empty() || v.outcome(&at).is_some() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                d = d.arrow(m).unwrap();
                line.push(v.move_to_string(m));
                at = v.play(&at, m);
            }
            let svg = d.to_svg();
            let numbers = tags(&svg, "arrow-number");
            let read: Vec<(String, String)> = numbers
                .iter()
                .map(|t| {
                    let n = attr(t, "data-number").unwrap().to_string();
                    (n, attr(t, "data-move").unwrap().replace("&gt;", ">"))
                })
                .collect();
            let expected: Vec<(String, String)> = line
                .iter()
                .enumerate()
                .map(|(i, m)| ((i + 1).to_string(), m.clone()))
                .collect();
            assert_eq!(read, expected, "{name} seed {seed}");
            let discs = stack_discs(&svg);
            for part in svg.split("<g class=\"arrow-number\"").skip(1) {
                let c = format!(" {}", part.split("<circle").nth(1).unwrap());
                let (x, y, r) = (number(&c, "cx"), number(&c, "cy"), number(&c, "r"));
                for &(sx, sy, sr) in &discs {
                    let apart = (x - sx).hypot(y - sy);
                    assert!(
                        apart >= r + sr,
                        "{name} seed {seed}: the number at {x},{y} covers the stack at {sx},{sy}"
                    );
                }
            }
            lines += 1;
        }
    }
    assert!(lines > 20);
}

#[test]
fn the_standard_start_in_print_with_coordinates_an_arrow_and_a_mark() {
    let v = Variant::standard();
    let start = v.start();
    let m = v.parse_move(&start, "b1-b3").unwrap();
    let d = Diagram::new(&v, start);
    let b4 = d.cell("b4").unwrap();
    let svg = d
        .theme(Theme::Print)
        .coordinates(true)
        .arrow(m)
        .unwrap()
        .mark(b4)
        .caption("Romans to move: b1-b3")
        .to_svg();
    insta::assert_snapshot!(svg);
}

#[test]
fn a_hex_board_with_coordinates() {
    let v = Variant::builtin("hex").unwrap();
    let start = v.start();
    let svg = Diagram::new(&v, start).coordinates(true).to_svg();
    assert_eq!(listed(&svg), stacks(&v, &start));
    let cells = tags(&svg, "cell");
    assert_eq!(cells.len(), v.geometry().cell_count());
    assert!(
        cells.iter().all(|t| t.starts_with("polygon ")),
        "hex cells are hexagons"
    );
    insta::assert_snapshot!(svg);
}

/// Where taking stones wins, a diagram has a line of each player's count of
/// stones taken, under the board and above the caption; elsewhere none.
#[test]
fn a_capture_race_diagram_counts_the_stones_taken() {
    let source = include_str!("../../../variants/attrition.mg")
        .replace("reduced to 8 stones", "capture 6 stones");
    let v = Variant::compile(&source).unwrap();
    let pos = (0..400)
        .map(|seed| random_position(&v, seed, 60))
        .find(|p| v.taken(p, 0) > 0 && v.taken(p, 1) > 0)
        .expect("a random game where both sides took stones");
    let svg = Diagram::new(&v, pos)
        .caption("After the exchanges")
        .to_svg();
    let line = tags(&svg, "taken");
    assert_eq!(line.len(), 1, "{svg}");
    let text = svg.split("class=\"taken\"").nth(1).unwrap();
    let text = &text[text.find('>').unwrap() + 1..text.find("</text>").unwrap()];
    let (r, g) = (v.taken(&pos, 0), v.taken(&pos, 1));
    assert_eq!(
        text,
        format!("Stones taken: Romans {r} of 6, Gauls {g} of 6")
    );
    // The line sits between the board and the caption.
    let y = |class: &str| -> f64 {
        let tag = tags(&svg, class)[0];
        attr(tag, "y").unwrap().parse().unwrap()
    };
    assert!(y("taken") < y("caption"), "{svg}");
    let standard = Variant::builtin("standard").unwrap();
    let svg = Diagram::new(&standard, standard.start()).to_svg();
    assert!(tags(&svg, "taken").is_empty());
}

/// A box on the page: left, top, right, bottom.
type Box2 = (f64, f64, f64, f64);

/// The number in attribute `name` of `tag`.
fn number(tag: &str, name: &str) -> f64 {
    attr(tag, name)
        .unwrap_or_else(|| panic!("{name} in {tag}"))
        .parse()
        .unwrap()
}

/// Each cell's outline in the SVG, as its corners.
fn cell_outlines(svg: &str) -> Vec<Vec<(f64, f64)>> {
    tags(svg, "cell")
        .into_iter()
        .map(|t| {
            if t.starts_with("rect ") {
                let (x, y) = (number(t, "x"), number(t, "y"));
                let (w, h) = (number(t, "width"), number(t, "height"));
                vec![(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
            } else {
                attr(t, "points")
                    .unwrap()
                    .split(' ')
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            }
        })
        .collect()
}

/// Each text of `class` with its box: the width as the layout estimates
/// it (`murus_report`'s text width), the font's size high, centred on its
/// point (coordinates) or standing on its baseline (the lines under the
/// board).
fn text_boxes(svg: &str, class: &str) -> Vec<(String, Box2)> {
    svg.split(&format!("<text class=\"{class}\""))
        .skip(1)
        .map(|rest| {
            let tag = format!(" {}", &rest[..rest.find('>').unwrap()]);
            let text = &rest[rest.find('>').unwrap() + 1..rest.find("</text>").unwrap()];
            let size = number(&tag, "font-size");
            let w = murus_report::svg::text_width(text, size);
            let (x, y) = (number(&tag, "x"), number(&tag, "y"));
            let (top, bottom) = if tag.contains("dominant-baseline=\"central\"") {
                (y - size / 2.0, y + size / 2.0)
            } else {
                (y - size * 0.8, y + size * 0.2)
            };
            (text.to_string(), (x - w / 2.0, top, x + w / 2.0, bottom))
        })
        .collect()
}

fn boxes_overlap(a: Box2, b: Box2) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Whether a box and a convex polygon overlap (by more than a hair):
/// no separating axis among the box's two and the polygon's edge normals.
fn box_meets_polygon(b: Box2, poly: &[(f64, f64)]) -> bool {
    let corners = [(b.0, b.1), (b.2, b.1), (b.2, b.3), (b.0, b.3)];
    let mut axes = vec![(1.0, 0.0), (0.0, 1.0)];
    for (i, p) in poly.iter().enumerate() {
        let q = poly[(i + 1) % poly.len()];
        axes.push((q.1 - p.1, p.0 - q.0));
    }
    axes.into_iter().all(|(ax, ay): (f64, f64)| {
        let len = ax.hypot(ay);
        let project = |pts: &[(f64, f64)]| {
            pts.iter()
                .map(|&(x, y)| (x * ax + y * ay) / len)
                .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
        };
        let (a, b) = (project(&corners), project(poly));
        a.0 < b.1 - 0.01 && b.0 < a.1 - 0.01
    })
}

/// What is wrong with a diagram's coordinates: a label over a cell or
/// another label, or off the page; on a rectangle, rank numbers not in
/// one column left of the board or file letters not in one row under it.
fn coordinate_faults(svg: &str, rect: bool) -> Vec<String> {
    let mut faults = Vec::new();
    let labels = text_boxes(svg, "coordinate");
    let cells = cell_outlines(svg);
    let page = (number(svg, "width"), number(svg, "height"));
    let mut texts = labels.clone();
    for class in ["taken", "caption"] {
        texts.extend(text_boxes(svg, class));
    }
    for (i, (text, b)) in labels.iter().enumerate() {
        if let Some(cell) = cells.iter().find(|c| box_meets_polygon(*b, c)) {
            faults.push(format!("`{text}` {b:?} overlaps the cell at {:?}", cell[0]));
        }
        for (other, c) in &texts[i + 1..] {
            if boxes_overlap(*b, *c) {
                faults.push(format!("`{text}` {b:?} overlaps `{other}` {c:?}"));
            }
        }
        if b.0 < 0.0 || b.1 < 0.0 || b.2 > page.0 || b.3 > page.1 {
            faults.push(format!("`{text}` {b:?} is off the page {page:?}"));
        }
    }
    if rect {
        let centre = |b: &Box2| ((b.0 + b.2) / 2.0, (b.1 + b.3) / 2.0);
        let (ranks, files): (Vec<_>, Vec<_>) = labels
            .iter()
            .partition(|(t, _)| t.chars().all(|c| c.is_ascii_digit()));
        let left = cells.iter().flatten().map(|p| p.0).fold(f64::MAX, f64::min);
        let bottom = cells.iter().flatten().map(|p| p.1).fold(f64::MIN, f64::max);
        for (group, along, beyond) in [(&ranks, 0, left), (&files, 1, bottom)] {
            let at: Vec<f64> = group
                .iter()
                .map(|(_, b)| if along == 0 { centre(b).0 } else { centre(b).1 })
                .collect();
            if at.windows(2).any(|w| (w[0] - w[1]).abs() > 0.01) {
                faults.push(format!("labels out of line: {group:?}"));
            }
            let outside = group.iter().all(|(_, b)| {
                if along == 0 {
                    b.2 < beyond
                } else {
                    b.1 > beyond
                }
            });
            if !outside {
                faults.push(format!("labels not in the margin: {group:?}"));
            }
        }
    }
    faults
}

/// The boards every test of coordinates draws: every shipped variant's,
/// every shipped mural's, and boards with corners and edges cut.
fn boards() -> Vec<(String, Variant)> {
    let mut out: Vec<(String, Variant)> = BUILTIN
        .iter()
        .map(|(name, _)| (name.to_string(), Variant::builtin(name).unwrap()))
        .collect();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    for file in files {
        let p = murus_mural::Puzzle::from_toml(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let v = murus_mural::engine::variant(&p).unwrap();
        out.push((file.display().to_string(), v));
    }
    for board in [
        "rect 8 x 7 without cells a1 h1 a7 h7",
        "rect 7 x 7 without cells a1 b1 a2 g7 f7 g6",
        "rect 6 x 6 without cells a3 a4 c1 d1",
        "hex 5 without cells a5 e1 i1 e9",
        "hex 4 without cells a4 a5 a6 b7",
        "hex 3 without cells a5",
    ] {
        out.push((board.into(), cut(board)));
    }
    out
}

/// A board of a mural's rules (towers on every cell).
fn cut(board: &str) -> Variant {
    let source = murus_mural::rules::rules_source(board, &['r'], false);
    Variant::compile(&source).unwrap_or_else(|e| panic!("{board}: {e:?}"))
}

/// Coordinates sit in the margins: no label overlaps a cell, another
/// label or the lines under the board, on every board in both themes; on
/// rectangles the ranks stand in one column and the files in one row.
#[test]
fn coordinates_overlap_no_cell_and_no_other_label() {
    for (name, v) in boards() {
        let rect = v.geometry().kind() == murus_dsl::ShapeKind::Rect;
        for (theme, turned) in [
            (Theme::Colour, false),
            (Theme::Print, false),
            (Theme::Colour, true),
        ] {
            let svg = Diagram::new(&v, v.start())
                .coordinates(true)
                .turned(turned)
                .theme(theme)
                .caption("After 12. c3-e5")
                .to_svg();
            let g = v.geometry();
            let labels = text_boxes(&svg, "coordinate").len();
            let ranks = (0..g.height())
                .filter(|&r| !g.rank(r + 1).is_empty())
                .count();
            let files = (0..g.width()).filter(|&f| !g.file(f).is_empty()).count();
            assert_eq!(labels, ranks + files, "{name}: a label per rank and file");
            let faults = coordinate_faults(&svg, rect);
            assert!(
                faults.is_empty(),
                "{name} {theme:?} turned {turned}:\n{}",
                faults.join("\n")
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The same on boards with random cells removed.
    #[test]
    fn coordinates_stay_clear_on_boards_with_cells_removed(
        hex in any::<bool>(),
        side in 3u32..6,
        removed in proptest::collection::vec(any::<proptest::sample::Index>(), 1..10),
    ) {
        let full = if hex {
            format!("hex {side}")
        } else {
            format!("rect {} x {side}", side + 2)
        };
        let v = cut(&full);
        let g = v.geometry();
        let cells: Vec<usize> = g.cells().collect();
        let mut gone: Vec<String> = removed.iter().map(|i| g.name(*i.get(&cells))).collect();
        gone.sort();
        gone.dedup();
        prop_assume!(gone.len() < cells.len() / 2);
        let board = format!("{full} without cells {}", gone.join(" "));
        let source = murus_mural::rules::rules_source(&board, &['r'], false);
        let Ok(v) = Variant::compile(&source) else {
            // A board cut in two pieces, or other such: not this test's.
            return Ok(());
        };
        for turned in [false, true] {
            let svg = Diagram::new(&v, v.start()).coordinates(true).turned(turned).to_svg();
            let faults = coordinate_faults(&svg, !hex);
            prop_assert!(faults.is_empty(), "{} turned {}:\n{}", board, turned, faults.join("\n"));
        }
    }
}

/// Each cell's centre in an SVG, by name (the mean of its outline's corners).
fn cell_centres(svg: &str) -> BTreeMap<String, (f64, f64)> {
    tags(svg, "cell")
        .into_iter()
        .zip(cell_outlines(svg))
        .map(|(t, corners)| {
            let n = corners.len() as f64;
            let x = corners.iter().map(|p| p.0).sum::<f64>() / n;
            let y = corners.iter().map(|p| p.1).sum::<f64>() / n;
            (attr(t, "data-cell").unwrap().to_string(), (x, y))
        })
        .collect()
}

/// A board turned is the board rotated by half a turn, on every board
/// (rectangles, hexagons, cells cut): each cell's centre and the centre of
/// the same cell unturned add up to the same point; and a player's view
/// turns the board exactly when their home is in its upper half, so the
/// second player of the standard and hexagonal games sees their home rank
/// at the bottom.
#[test]
fn a_turned_board_is_the_board_rotated_by_half_a_turn() {
    for (name, v) in boards() {
        let plain = cell_centres(&Diagram::new(&v, v.start()).coordinates(true).to_svg());
        let turned = cell_centres(
            &Diagram::new(&v, v.start())
                .coordinates(true)
                .turned(true)
                .to_svg(),
        );
        assert_eq!(plain.len(), v.geometry().cells().count(), "{name}");
        assert_eq!(
            plain.keys().collect::<Vec<_>>(),
            turned.keys().collect::<Vec<_>>(),
            "{name}"
        );
        let sums: Vec<(f64, f64)> = plain
            .iter()
            .map(|(cell, p)| (p.0 + turned[cell].0, p.1 + turned[cell].1))
            .collect();
        assert!(
            sums.iter()
                .all(|s| (s.0 - sums[0].0).abs() < 0.01 && (s.1 - sums[0].1).abs() < 0.01),
            "{name}: {sums:?}"
        );
        if plain.len() > 1 {
            assert_ne!(plain, turned, "{name}");
        }
    }
    for name in ["standard", "hex"] {
        let v = Variant::builtin(name).unwrap();
        let svg = |player: usize| {
            cell_centres(
                &Diagram::new(&v, v.start())
                    .coordinates(true)
                    .seen_by(player)
                    .to_svg(),
            )
        };
        let home_y = |player: usize, centres: &BTreeMap<String, (f64, f64)>| {
            let home = &v.rules().players[player].home;
            home.iter()
                .map(|&c| centres[&v.geometry().name(c)].1)
                .sum::<f64>()
                / home.len() as f64
        };
        for player in 0..2 {
            let centres = svg(player);
            let mid = centres.values().map(|p| p.1).sum::<f64>() / centres.len() as f64;
            assert!(
                home_y(player, &centres) > mid,
                "{name}: player {player}'s home is below the middle"
            );
            assert!(home_y(1 - player, &centres) < mid, "{name}");
        }
    }
}
