//! Directions: direction sets (`all`, `orthogonal`, `n, forward-left`)
//! resolved per player, and the names a mistyped direction most likely meant.

use super::text::{direction_list, join_and, shape_name};
use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::geometry::{Geometry, Relative, ShapeKind};

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
}

/// Resolves a direction set for each player (`(name, forward)` in turn
/// order) into absolute direction indices, keeping the order written and
/// dropping repeats with a warning.
pub(crate) fn resolve_dirset(
    g: &Geometry,
    set: &DirSet,
    players: &[(String, Option<usize>)],
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Vec<usize>>> {
    let n = g.directions().len();
    let hex = g.kind() == ShapeKind::Hex;
    let same_for_all = |dirs: Vec<usize>| Some(vec![dirs; players.len()]);
    let names: &[Name] = match set {
        DirSet::All(_) => return same_for_all((0..n).collect()),
        DirSet::Orthogonal(_) if hex => return same_for_all((0..n).collect()),
        DirSet::Orthogonal(_) => return same_for_all(vec![0, 2, 4, 6]),
        DirSet::Diagonal(span) if hex => {
            diags.push(
                Diagnostic::error(*span, "a hex board has no diagonal directions").with_note(
                    "its six directions all go to a neighbouring cell: use `all` or name them",
                ),
            );
            return None;
        }
        DirSet::Diagonal(_) => return same_for_all(vec![1, 3, 5, 7]),
        DirSet::List(names) => names,
    };

    let mut resolved: Vec<(DirName, &Name)> = Vec::with_capacity(names.len());
    let mut ok = true;
    for name in names {
        let dir = if let Some(i) = g.direction_index(&name.value) {
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
            let index = match *dir {
                DirName::Absolute(i) => i,
                // Without a forward direction (already an error) nothing
                // relative can be resolved.
                DirName::Relative(steps) => (((*forward)?) + steps) % n,
            };
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
    ) -> Result<Vec<Vec<&'static str>>, Vec<Diagnostic>> {
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
        match resolve_dirset(g, set, &players, &mut diags) {
            Some(v) => Ok(v
                .into_iter()
                .map(|d| d.into_iter().map(|i| g.directions()[i].name).collect())
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
