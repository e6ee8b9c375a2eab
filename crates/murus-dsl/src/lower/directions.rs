//! Directions: direction sets (`all`, `orthogonal`, `n, forward-left`)
//! resolved per player, and the names a mistyped direction most likely meant.

use super::text::{direction_list, join_and, shape_name};
use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::geometry::{Geometry, Relative, ShapeKind};
use crate::rules::MAX_STEPS;

/// The candidate a mistyped name most likely meant: `north` means `n`, and
/// `forwrd` means `forward`.
pub(super) fn suggest<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str> + Clone,
) -> Option<&'a str> {
    let lower = name.to_ascii_lowercase();
    let abbreviation: String = lower
        .split(['-', '_'])
        .flat_map(|part| match part {
            "north" => Some('n'),
            "south" => Some('s'),
            "east" => Some('e'),
            "west" => Some('w'),
            _ => None,
        })
        .collect();
    let exact = |word: &str| candidates.clone().find(|c| *c == word);
    exact(&lower)
        .or_else(|| exact(&abbreviation))
        .or_else(|| crate::suggest::closest(&lower, candidates.clone()))
}

/// Whether a name is a compass direction of some board.
pub(super) fn is_compass(name: &str) -> bool {
    matches!(name, "n" | "ne" | "e" | "se" | "s" | "sw" | "w" | "nw")
}

/// The help for a direction `name` the board lacks: a compass point the
/// board does not have is between two it has (a hex board's `s` is `se`
/// or `sw`; `n` is `ne` or `nw`), and both are offered; else the nearest
/// of `candidates` by spelling, if any is near.
pub(super) fn direction_help<'a>(
    name: &str,
    g: &Geometry,
    candidates: impl Iterator<Item = &'a str> + Clone,
) -> Option<String> {
    if name.len() == 1 && is_compass(name) {
        let between: Vec<&str> = g
            .directions()
            .iter()
            .map(|d| d.name)
            .filter(|d| d.len() == 2 && d.contains(name))
            .collect();
        if let [a, b] = between[..] {
            return Some(format!("did you mean `{a}`?\nor `{b}`"));
        }
    }
    suggest(name, candidates).map(|s| format!("did you mean `{s}`?"))
}

/// The help for a relative direction a hex board lacks: `left` is
/// `forward-left` or `back-left` there, `right` likewise.
fn hex_relative_help(name: &str) -> Option<String> {
    matches!(name, "left" | "right")
        .then(|| format!("did you mean `forward-{name}`?\nor `back-{name}`"))
}

/// A direction name resolved against the board's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DirName {
    Absolute(usize),
    /// Clockwise steps from the player's forward direction.
    Relative(usize),
    /// A step vector: `x` cells to the player's right (on a hex board,
    /// `forward-right`), `y` forward, and with `mirrored` each of its images.
    Step(StepVector),
}

/// The images of `(x, y)` under the hexagon's turns and reflections, each
/// once, `(x, y)` first; the step is `x` cells `forward-right` and `y`
/// `forward`, two neighbouring directions 60° apart.
fn hex_mirror_images(x: i32, y: i32) -> Vec<(i32, i32)> {
    // A turn of 60° clockwise: forward goes to forward-right, and that to
    // back-right (forward-right less forward).
    let turn = |(x, y): (i32, i32)| (x + y, -x);
    // The reflection in the forward line: forward-right goes to
    // forward-left (forward less forward-right).
    let reflect = |(x, y): (i32, i32)| (-x, x + y);
    let mut out: Vec<(i32, i32)> = Vec::with_capacity(12);
    for start in [(x, y), reflect((x, y))] {
        let mut v = start;
        for _ in 0..6 {
            if !out.contains(&v) {
                out.push(v);
            }
            v = turn(v);
        }
    }
    out
}

/// How many king steps the step vector `(x, y)` goes. Its axes (right and
/// forward; on a hex board forward-right and forward, 60° apart) meet as
/// the board's files and ranks do, so the board's count serves.
fn step_length(kind: ShapeKind, x: i32, y: i32) -> i64 {
    i64::from(kind.king_steps(x, y))
}

/// The images of `(x, y)` under the square's turns and reflections, each
/// once, `(x, y)` first.
fn mirror_images(x: i32, y: i32) -> Vec<(i32, i32)> {
    let mut out: Vec<(i32, i32)> = Vec::with_capacity(8);
    for (a, b) in [(x, y), (y, x)] {
        for (sa, sb) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
            let v = (sa * a, sb * b);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

/// Whether a step vector can be a direction of `g`: not `(0, 0)`, not a
/// multiple of a shorter one, and shorter than the board.
fn check_step(g: &Geometry, v: &Spanned<StepVector>, diags: &mut Vec<Diagnostic>) -> bool {
    let StepVector { x, y, .. } = v.value;
    let longest = g.width().max(g.height()) as i64;
    let hex = g.kind() == ShapeKind::Hex;
    let error = if x == 0 && y == 0 {
        Some((
            "the step vector `(0, 0)` goes nowhere".to_string(),
            match hex {
                false => "a step vector counts cells to the player's right, then forward",
                true => "on a hex board a step vector counts cells forward-right, then forward",
            }
            .to_string(),
        ))
    } else if step_length(g.kind(), x, y) >= longest {
        Some((
            format!("the step vector `({x}, {y})` is longer than the board"),
            match hex {
                false => format!(
                    "on this board a step is at most {} cells each way",
                    longest - 1
                ),
                true => format!(
                    "on this board a step is at most {} king steps long, and `({x}, {y})` is {}",
                    longest - 1,
                    step_length(g.kind(), x, y)
                ),
            },
        ))
    } else if gcd(x, y) > 1 {
        let k = gcd(x, y);
        Some((
            format!(
                "the step vector `({x}, {y})` is {k} steps of `({}, {})`",
                x / k,
                y / k
            ),
            format!(
                "a direction is its shortest step: sowings and throws go along it {k} cells at a time, \
                 so write `({}, {})`",
                x / k,
                y / k
            ),
        ))
    } else {
        None
    };
    match error {
        Some((message, note)) => {
            diags.push(Diagnostic::error(v.span, message).with_note(note));
            false
        }
        None => true,
    }
}

/// The direction index of the absolute step `(dx, dy)`: the board's own
/// direction if it is one king step, else its place among `steps` (added
/// if new), after the board's. `None` when `steps` is full.
fn step_index(g: &Geometry, (dx, dy): (i32, i32), steps: &mut Vec<(i8, i8)>) -> Option<usize> {
    let board = g.directions();
    if let Some(i) = (board.iter()).position(|d| (i32::from(d.dx), i32::from(d.dy)) == (dx, dy)) {
        return Some(i);
    }
    let v = (dx as i8, dy as i8);
    let i = match steps.iter().position(|&s| s == v) {
        Some(i) => i,
        None if steps.len() < MAX_STEPS => {
            steps.push(v);
            steps.len() - 1
        }
        None => return None,
    };
    Some(board.len() + i)
}

/// The words that name a whole set of directions, each alone.
const SET_WORDS: [&str; 3] = ["all", "orthogonal", "diagonal"];

/// The board's directions `all`, `orthogonal` or `diagonal` stand for (none
/// for a hex board's `diagonal`).
fn set_word_directions(g: &Geometry, word: &str) -> Vec<usize> {
    let n = g.directions().len();
    match (word, g.kind()) {
        ("all", _) | ("orthogonal", ShapeKind::Hex) => (0..n).collect(),
        ("orthogonal", ShapeKind::Rect) => vec![0, 2, 4, 6],
        ("diagonal", ShapeKind::Rect) => vec![1, 3, 5, 7],
        _ => Vec::new(),
    }
}

/// The error for `all` (or `orthogonal`, `diagonal`) written in a list
/// (`all, (1, 2) mirrored`), with the list written out in full as help:
/// the word's own directions in its place.
fn set_word_in_list(g: &Geometry, word: &Name, list: &[Name]) -> Diagnostic {
    let mut full: Vec<String> = Vec::with_capacity(list.len() + 8);
    for item in list {
        let names: Vec<String> = if SET_WORDS.contains(&item.value.as_str()) {
            (set_word_directions(g, &item.value).into_iter())
                .map(|i| g.directions()[i].name.to_string())
                .collect()
        } else {
            vec![item.value.clone()]
        };
        for name in names {
            if !full.contains(&name) {
                full.push(name);
            }
        }
    }
    let d = Diagnostic::error(
        word.span,
        format!("`{}` cannot be combined with other directions", word.value),
    )
    .with_note("`all`, `orthogonal` and `diagonal` each stand alone after `directions`");
    let expands = !set_word_directions(g, &word.value).is_empty();
    if expands {
        d.with_help(format!(
            "list the directions instead: `{}`",
            full.join(", ")
        ))
    } else {
        d
    }
}

/// Resolves a direction set for each player (`(name, forward)` in turn
/// order) into absolute direction indices, keeping the order written and
/// dropping repeats with a warning.
pub(crate) fn resolve_dirset(
    g: &Geometry,
    set: &DirSet,
    players: &[(String, Option<usize>)],
    steps: &mut Vec<(i8, i8)>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Vec<usize>>> {
    let n = g.directions().len();
    let hex = g.kind() == ShapeKind::Hex;
    let same_for_all = |word: &str| Some(vec![set_word_directions(g, word); players.len()]);
    let names: &[DirItem] = match set {
        DirSet::All(_) => return same_for_all("all"),
        DirSet::Orthogonal(_) => return same_for_all("orthogonal"),
        DirSet::Diagonal(span) if hex => {
            diags.push(
                Diagnostic::error(*span, "a hex board has no diagonal directions").with_note(
                    "its six directions all go to a neighbouring cell: use `all` or name them",
                ),
            );
            return None;
        }
        DirSet::Diagonal(_) => return same_for_all("diagonal"),
        DirSet::List(names) => names,
    };

    let mut resolved: Vec<(DirName, &Name)> = Vec::with_capacity(names.len());
    // The spans of step vectors, for messages about them.
    let vector_names: Vec<Name> = names
        .iter()
        .map(|item| match item {
            DirItem::Named(name) => name.clone(),
            DirItem::Step(v) => Spanned::new(
                format!(
                    "({}, {}){}",
                    v.value.x,
                    v.value.y,
                    if v.value.mirrored { " mirrored" } else { "" }
                ),
                v.span,
            ),
        })
        .collect();
    let mut ok = true;
    for (item, name) in names.iter().zip(&vector_names) {
        let dir = if let DirItem::Step(v) = item {
            if !check_step(g, v, diags) {
                ok = false;
                continue;
            }
            DirName::Step(v.value)
        } else if SET_WORDS.contains(&name.value.as_str()) {
            diags.push(set_word_in_list(g, name, &vector_names));
            ok = false;
            continue;
        } else if let Some(i) = g.direction_index(&name.value) {
            DirName::Absolute(i)
        } else if let Some(rel) = Relative::from_name(&name.value) {
            match rel.steps(g.kind()) {
                Some(steps) => DirName::Relative(steps),
                None => {
                    let mut d = Diagnostic::error(
                        name.span,
                        format!("a hex board has no `{}`", name.value),
                    )
                    .with_note(
                        "on a hex board the relative directions are `forward`, `forward-right`, \
                                 `back-right`, `back`, `back-left` and `forward-left`",
                    );
                    d.help = hex_relative_help(&name.value);
                    diags.push(d);
                    ok = false;
                    continue;
                }
            }
        } else {
            let relative: Vec<String> = Relative::ALL
                .iter()
                .filter(|(r, _)| r.steps(g.kind()).is_some())
                .map(|(_, n)| format!("`{n}`"))
                .collect();
            let message = if is_compass(&name.value) {
                format!(
                    "a {} board has no direction `{}`",
                    shape_name(g),
                    name.value
                )
            } else {
                format!("unknown direction `{}`", name.value)
            };
            let mut d = Diagnostic::error(name.span, message)
                .with_note(format!(
                    "the directions of a {} board are {}",
                    shape_name(g),
                    direction_list(g)
                ))
                .with_note(format!(
                    "relative to a player's forward direction: {}",
                    join_and(&relative)
                ));
            let candidates = g.directions().iter().map(|d| d.name).chain(
                Relative::ALL
                    .iter()
                    .filter(|(r, _)| r.steps(g.kind()).is_some())
                    .map(|(_, n)| *n),
            );
            if let Some(help) = direction_help(&name.value, g, candidates) {
                d = d.with_help(help);
            }
            diags.push(d);
            ok = false;
            continue;
        };
        if let Some((_, first)) = resolved.iter().find(|(_, n)| n.value == name.value) {
            diags.push(
                Diagnostic::warning(
                    name.span,
                    format!("direction `{}` is listed twice", name.value),
                )
                .with_label(first.span, "first listed here"),
            );
            continue;
        }
        resolved.push((dir, name));
    }
    if !ok {
        return None;
    }

    let mut out = Vec::with_capacity(players.len());
    for (player, forward) in players {
        let mut dirs: Vec<usize> = Vec::with_capacity(resolved.len());
        let mut first_name: Vec<&Name> = Vec::with_capacity(resolved.len());
        for (dir, name) in &resolved {
            let indices = match *dir {
                DirName::Absolute(i) => vec![i],
                // Without a forward direction (already an error) nothing
                // relative can be resolved.
                DirName::Relative(steps) => vec![(((*forward)?) + steps) % n],
                DirName::Step(v) => {
                    let f = (*forward)?;
                    if !hex && f % 2 == 1 {
                        diags.push(
                            Diagnostic::error(
                                name.span,
                                format!(
                                    "a step vector counts cells to the player's right and forward, \
                                     but the {player} go forward diagonally ({})",
                                    g.directions()[f].name
                                ),
                            )
                            .with_note(
                                "a step vector needs a forward of `n`, `e`, `s` or `w`, so that \
                                 right and forward run along files and ranks",
                            ),
                        );
                        return None;
                    }
                    // Forward, and right: a quarter turn clockwise, or on a
                    // hex board forward-right (a sixth of a turn).
                    let right = if hex { (f + 1) % n } else { (f + 2) % n };
                    let (fx, fy) = (g.directions()[f].dx, g.directions()[f].dy);
                    let (rx, ry) = (g.directions()[right].dx, g.directions()[right].dy);
                    let images = match (v.mirrored, hex) {
                        (true, false) => mirror_images(v.x, v.y),
                        (true, true) => hex_mirror_images(v.x, v.y),
                        (false, _) => vec![(v.x, v.y)],
                    };
                    let mut indices = Vec::with_capacity(images.len());
                    for (x, y) in images {
                        let abs = (
                            x * i32::from(rx) + y * i32::from(fx),
                            x * i32::from(ry) + y * i32::from(fy),
                        );
                        let Some(i) = step_index(g, abs, steps) else {
                            diags.push(
                                Diagnostic::error(
                                    name.span,
                                    format!("more than {MAX_STEPS} step vectors in one rules file"),
                                )
                                .with_note(format!(
                                    "the rules may use at most {MAX_STEPS} steps besides the board's \
                                     own directions (a hex knight's twelve leaps fill them)"
                                )),
                            );
                            return None;
                        };
                        indices.push(i);
                    }
                    indices
                }
            };
            for index in indices {
                if let Some(k) = dirs.iter().position(|&d| d == index) {
                    diags.push(
                        Diagnostic::warning(
                            name.span,
                            format!(
                                "`{}` and `{}` are the same direction for the {player}",
                                first_name[k].value, name.value
                            ),
                        )
                        .with_label(first_name[k].span, "same direction"),
                    );
                    continue;
                }
                dirs.push(index);
                first_name.push(name);
            }
        }
        out.push(dirs);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs(
        g: &Geometry,
        set: &str,
        forwards: &[usize],
    ) -> Result<Vec<Vec<String>>, Vec<Diagnostic>> {
        let src = format!("sow {{ directions {set} }}");
        let file = crate::parser::parse(&src).map_err(|d| vec![d])?;
        let Item::Sow(b) = &file.items[0] else {
            panic!("not sow")
        };
        let SowField::Directions(set) = &b.fields[0].value else {
            panic!("not directions")
        };
        let players: Vec<(String, Option<usize>)> = forwards
            .iter()
            .map(|&f| ("P".to_string(), Some(f)))
            .collect();
        let mut diags = Vec::new();
        let mut steps = Vec::new();
        match resolve_dirset(g, set, &players, &mut steps, &mut diags) {
            Some(v) => Ok(v
                .into_iter()
                .map(|d| {
                    d.into_iter()
                        .map(|i| match g.directions().get(i) {
                            Some(dir) => dir.name.to_string(),
                            None => {
                                let (dx, dy) = steps[i - g.directions().len()];
                                format!("({dx},{dy})")
                            }
                        })
                        .collect()
                })
                .collect()),
            None => Err(diags),
        }
    }

    #[test]
    fn relative_directions_resolve_per_player_on_squares() {
        let g = Geometry::rect(8, 7).unwrap();
        let (n, s, e) = (0, 4, 2);
        let fan = "left, forward-left, forward, forward-right, right";
        assert_eq!(
            dirs(&g, fan, &[n, s]).unwrap(),
            [
                vec!["w", "nw", "n", "ne", "e"],
                vec!["e", "se", "s", "sw", "w"]
            ]
        );
        assert_eq!(
            dirs(&g, "back, back-left, back-right", &[e]).unwrap(),
            [vec!["w", "nw", "sw"]]
        );
        assert_eq!(
            dirs(&g, "orthogonal", &[n]).unwrap(),
            [vec!["n", "e", "s", "w"]]
        );
        assert_eq!(
            dirs(&g, "diagonal", &[n]).unwrap(),
            [vec!["ne", "se", "sw", "nw"]]
        );
        assert_eq!(dirs(&g, "all", &[n, s]).unwrap()[1].len(), 8);
        // Repeats are dropped (with a warning).
        assert_eq!(
            dirs(&g, "forward, n, s", &[n, s]).unwrap(),
            [vec!["n", "s"], vec!["s", "n"]]
        );
    }

    #[test]
    fn step_vectors_turn_with_the_players_forward_and_mirror_on_request() {
        let g = Geometry::rect(8, 7).unwrap();
        let (n, s, e) = (0, 4, 2);
        // One cell right and two forward: for a player going north, one file
        // east and two ranks north; going south, the other way round.
        assert_eq!(
            dirs(&g, "(1, 2)", &[n, s, e]).unwrap(),
            [vec!["(1,2)"], vec!["(-1,-2)"], vec!["(2,-1)"]]
        );
        // A king step is the board's own direction.
        assert_eq!(
            dirs(&g, "(0, 1), (1, 1), (-1, 0)", &[n]).unwrap(),
            [vec!["n", "ne", "w"]]
        );
        // The knight's eight leaps, the same set for both players.
        let knight = dirs(&g, "(1, 2) mirrored", &[n, s]).unwrap();
        assert_eq!(knight[0].len(), 8);
        let mut a = knight[0].clone();
        let mut b = knight[1].clone();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert_eq!(dirs(&g, "(1, 0) mirrored", &[n]).unwrap()[0].len(), 4);
        // Steps and names together.
        assert_eq!(
            dirs(&g, "forward, (-1, 2)", &[n]).unwrap(),
            [vec!["n", "(-1,2)"]]
        );
        for bad in ["(0, 0)", "(2, 4)", "(9, 1)", "(1, -8)"] {
            assert!(dirs(&g, bad, &[n]).is_err(), "{bad}");
        }
        // Relative to a diagonal forward there are no files and ranks to
        // count in.
        assert!(dirs(&g, "(1, 2)", &[1]).is_err());
    }

    #[test]
    fn a_set_word_in_a_list_is_an_error_whose_help_writes_the_list_out() {
        let g = Geometry::rect(8, 7).unwrap();
        let diags = dirs(&g, "forward, orthogonal", &[0]).unwrap_err();
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(
            diags[0].message,
            "`orthogonal` cannot be combined with other directions"
        );
        assert_eq!(
            diags[0].help.as_deref(),
            Some("list the directions instead: `forward, n, e, s, w`")
        );
        let diags = dirs(&g, "diagonal, all", &[0]).unwrap_err();
        assert_eq!(diags.len(), 2, "{diags:?}");
        assert_eq!(
            diags[1].help.as_deref(),
            Some("list the directions instead: `ne, se, sw, nw, n, e, s, w`")
        );
        // Alone, each is a set of its own.
        assert_eq!(dirs(&g, "all", &[0]).unwrap()[0].len(), 8);
        // A hex board has no diagonals to write out.
        let hex = Geometry::hex(5).unwrap();
        let ne = hex.direction_index("ne").unwrap();
        let diags = dirs(&hex, "ne, diagonal", &[ne]).unwrap_err();
        assert_eq!(diags[0].help, None);
    }

    #[test]
    fn hex_step_vectors_count_forward_right_then_forward() {
        let g = Geometry::hex(5).unwrap();
        let ne = g.direction_index("ne").unwrap();
        let sw = g.direction_index("sw").unwrap();
        // Facing ne, forward-right is e: `(1, 2)` is one e and two ne.
        assert_eq!(
            dirs(&g, "(1, 2)", &[ne, sw]).unwrap(),
            [vec!["(1,2)"], vec!["(-1,-2)"]]
        );
        // King steps are the board's directions: forward, forward-right,
        // and back-right (forward-right less forward).
        assert_eq!(
            dirs(&g, "(0, 1), (1, 0), (1, -1), (-1, 1)", &[ne]).unwrap(),
            [vec!["ne", "e", "se", "nw"]]
        );
        // Six leaps between neighbours, twelve knight's leaps, the same
        // sets for both players.
        for (step, n) in [("(1, 1) mirrored", 6), ("(1, 2) mirrored", 12)] {
            let both = dirs(&g, step, &[ne, sw]).unwrap();
            assert_eq!(both[0].len(), n, "{step}");
            let (mut a, mut b) = (both[0].clone(), both[1].clone());
            a.sort();
            b.sort();
            assert_eq!(a, b, "{step}");
        }
        // The images of (1, 1) are each two king steps away, those of
        // (1, 2) three; turning or reflecting keeps the length.
        for ((x, y), n, length) in [((1, 1), 6, 2), ((1, 2), 12, 3)] {
            let images = hex_mirror_images(x, y);
            assert_eq!(images.len(), n);
            for (a, b) in images {
                assert_eq!(ShapeKind::Hex.king_steps(a, b), length, "({a}, {b})");
            }
        }
        // A side-5 board is 8 king steps across: (3, 5) and (8, -3) are 8,
        // (1, 8) and (4, 5) are 9.
        assert!(dirs(&g, "(3, 5), (8, -3)", &[ne]).is_ok());
        for bad in ["(0, 0)", "(2, 4)", "(1, 8)", "(4, 5)", "(-9, 1)"] {
            assert!(dirs(&g, bad, &[ne]).is_err(), "{bad}");
        }
    }

    #[test]
    fn relative_directions_resolve_on_hex() {
        let g = Geometry::hex(5).unwrap();
        let ne = g.direction_index("ne").unwrap();
        let w = g.direction_index("w").unwrap();
        assert_eq!(
            dirs(&g, "forward-left, forward, forward-right, back", &[ne, w]).unwrap(),
            [vec!["nw", "ne", "e", "sw"], vec!["sw", "w", "nw", "e"]]
        );
        assert_eq!(dirs(&g, "orthogonal", &[ne]).unwrap()[0].len(), 6);
        for bad in ["left", "right", "diagonal", "n", "north"] {
            assert!(dirs(&g, bad, &[ne]).is_err(), "{bad}");
        }
    }
}
