//! Wording shared by lowering's messages: lists joined with "and"/"or",
//! direction lists and shape names.

use crate::geometry::{Geometry, ShapeKind};

/// `a`, `a and b`, `a, b and c`.
pub(super) fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

pub(super) fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `s, sw and se`: absolute direction names for a resolved list, with
/// step vectors (indices after the board's directions, from `steps`) as
/// `(1,2)`.
pub(super) fn dir_names(g: &Geometry, steps: &[(i8, i8)], list: &[usize]) -> String {
    let board = g.directions();
    let names: Vec<String> = list
        .iter()
        .filter_map(|&d| match board.get(d) {
            Some(dir) => Some(format!("`{}`", dir.name)),
            None => (steps.get(d - board.len())).map(|(dx, dy)| format!("`({dx},{dy})`")),
        })
        .collect();
    join_and(&names)
}

pub(super) fn shape_name(g: &Geometry) -> &'static str {
    match g.kind() {
        ShapeKind::Rect => "rect",
        ShapeKind::Hex => "hex",
    }
}

/// `` `n`, `ne`, … and `nw` ``
pub(super) fn direction_list(g: &Geometry) -> String {
    let names: Vec<String> = g
        .directions()
        .iter()
        .map(|d| format!("`{}`", d.name))
        .collect();
    join_and(&names)
}
