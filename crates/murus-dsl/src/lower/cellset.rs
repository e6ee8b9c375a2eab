//! Cell sets: `rank 1 - cells a1 + edge s`, evaluated on a board.

use super::directions::suggest;
use super::text::{join_and, shape_name};
use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::geometry::{Geometry, ShapeKind};

/// Evaluates a cell set on a board, left to right. Returns the sorted cells,
/// or `None` after reporting every term that names something not on the
/// board.
pub(crate) fn eval_cellset(
    g: &Geometry,
    set: &CellSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<usize>> {
    let mut member = vec![false; g.slots()];
    let mut ok = true;
    let terms =
        std::iter::once((SetOp::Union, &set.first)).chain(set.rest.iter().map(|(op, t)| (*op, t)));
    for (op, term) in terms {
        let Some(cells) = eval_term(g, term, diags) else {
            ok = false;
            continue;
        };
        for c in cells {
            if let Some(m) = member.get_mut(c) {
                *m = op == SetOp::Union;
            }
        }
    }
    ok.then(|| (0..member.len()).filter(|&s| member[s]).collect())
}

fn eval_term(
    g: &Geometry,
    term: &Spanned<CellTerm>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<usize>> {
    match &term.value {
        CellTerm::All => Some(g.cells().collect()),
        CellTerm::Rank(n) => {
            let Some(r) = n.value else {
                // An unresolved parameter was reported when resolving.
                if n.param.is_none() {
                    diags.push(Diagnostic::error(n.span, "number too large"));
                }
                return None;
            };
            let r = r as usize;
            if r == 0 || r > g.height() {
                diags.push(Diagnostic::error(
                    term.span,
                    format!("rank {r} is not on this board (ranks 1–{})", g.height()),
                ));
                return None;
            }
            Some(g.rank(r))
        }
        CellTerm::File(name) => {
            let last = (b'a' + (g.width() as u8).saturating_sub(1)) as char;
            let mut chars = name.value.chars();
            let index = match (chars.next(), chars.next()) {
                (Some(c @ 'a'..='z'), None) => Some(c as usize - 'a' as usize),
                _ => None,
            };
            match index {
                Some(i) if i < g.width() => Some(g.file(i)),
                _ => {
                    diags.push(Diagnostic::error(
                        term.span,
                        format!("file {} is not on this board (files a–{last})", name.value),
                    ));
                    None
                }
            }
        }
        CellTerm::Edge(name) => match g.edge(&name.value) {
            Some(cells) => Some(cells),
            None => {
                let names: Vec<String> = g.edge_names().iter().map(|e| format!("`{e}`")).collect();
                let mut d = Diagnostic::error(name.span, format!("unknown edge `{}`", name.value))
                    .with_note(format!(
                        "the edges of a {} board are {}",
                        shape_name(g),
                        join_and(&names)
                    ));
                if let Some(s) = suggest(&name.value, g.edge_names().iter().copied()) {
                    d = d.with_help(format!("did you mean `{s}`?"));
                }
                diags.push(d);
                None
            }
        },
        CellTerm::Cells(names) => {
            let mut ok = true;
            let mut cells = Vec::with_capacity(names.len());
            for name in names {
                match g.parse_cell(&name.value) {
                    Some(c) => cells.push(c),
                    None => {
                        ok = false;
                        diags.push(
                            Diagnostic::error(
                                name.span,
                                format!("cell `{}` is not on this board", name.value),
                            )
                            .with_note(cell_hint(g, &name.value)),
                        );
                    }
                }
            }
            ok.then_some(cells)
        }
    }
}

/// Explains which cells exist near a name that is not on the board.
fn cell_hint(g: &Geometry, name: &str) -> String {
    let rank: Option<usize> = name
        .trim_start_matches(|c: char| c.is_ascii_alphabetic())
        .parse()
        .ok();
    let last_file = (b'a' + (g.width() as u8).saturating_sub(1)) as char;
    let row = rank.map(|r| g.rank(r)).unwrap_or_default();
    match (row.first(), row.last()) {
        (Some(&a), Some(&b)) if g.kind() == ShapeKind::Hex || a != b => format!(
            "rank {} of this board runs from `{}` to `{}`",
            rank.unwrap_or(0),
            g.name(a),
            g.name(b)
        ),
        _ => format!(
            "cells are named by file and rank; this board has files a–{last_file} and ranks 1–{}",
            g.height()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(g: &Geometry, cells: &[usize]) -> Vec<String> {
        cells.iter().map(|&c| g.name(c)).collect()
    }

    /// Parses `home SET` inside a minimal player block and evaluates SET.
    fn cells(g: &Geometry, set: &str) -> Result<Vec<String>, Vec<Diagnostic>> {
        let src = format!("player \"P\" {{ home {set} }}");
        let file = crate::parser::parse(&src).map_err(|d| vec![d])?;
        let Item::Player(p) = &file.items[0] else {
            panic!("not a player")
        };
        let PlayerField::Home(set) = &p.fields[0].value else {
            panic!("not a home")
        };
        let mut diags = Vec::new();
        match eval_cellset(g, set, &mut diags) {
            Some(c) => Ok(names(g, &c)),
            None => Err(diags),
        }
    }

    #[test]
    fn cell_sets_evaluate_left_to_right() {
        let g = Geometry::rect(8, 7).unwrap();
        assert_eq!(
            cells(&g, "rank 1 - file a - file h").unwrap(),
            ["b1", "c1", "d1", "e1", "f1", "g1"]
        );
        assert_eq!(cells(&g, "cells h1 a1 a1").unwrap(), ["a1", "h1"]);
        assert_eq!(cells(&g, "file a - rank 1 + cells a1").unwrap().len(), 7);
        assert_eq!(cells(&g, "rank 1 + rank 1").unwrap().len(), 8);
        assert_eq!(cells(&g, "all - rank 1 - rank 7").unwrap().len(), 40);
        assert_eq!(
            cells(&g, "edge w").unwrap(),
            ["a1", "a2", "a3", "a4", "a5", "a6", "a7"]
        );
        // Difference then union differs from union then difference.
        assert_eq!(cells(&g, "cells a1 - cells a1 + cells a1").unwrap(), ["a1"]);
        assert!(
            cells(&g, "cells a1 + cells a1 - cells a1")
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn cell_sets_report_every_bad_term() {
        let g = Geometry::rect(8, 7).unwrap();
        let errs = cells(&g, "rank 9 + file j + edge x + cells a1 i9 a8").unwrap_err();
        let messages: Vec<&str> = errs.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "rank 9 is not on this board (ranks 1–7)",
                "file j is not on this board (files a–h)",
                "unknown edge `x`",
                "cell `i9` is not on this board",
                "cell `a8` is not on this board",
            ]
        );
        assert!(cells(&g, "rank 0").is_err());
        assert!(cells(&g, "rank 99999999999").is_err());
    }

    #[test]
    fn hex_cell_sets() {
        let g = Geometry::hex(5).unwrap();
        assert_eq!(cells(&g, "rank 1").unwrap(), ["e1", "f1", "g1", "h1", "i1"]);
        assert_eq!(cells(&g, "edge s + edge sw").unwrap().len(), 9);
        assert_eq!(cells(&g, "all").unwrap().len(), 61);
        let err = cells(&g, "cells a1").unwrap_err();
        assert_eq!(
            err[0].notes,
            ["rank 1 of this board runs from `e1` to `i1`"]
        );
    }

    /// The side-3 drawing in docs/rules-language.md ("Hex boards").
    #[test]
    fn hex_side_3_matches_the_documented_drawing() {
        let g = Geometry::hex(3).unwrap();
        assert_eq!(g.cell_count(), 19);
        let rows: Vec<String> = (1..=5)
            .rev()
            .map(|r| cells(&g, &format!("rank {r}")).unwrap().join(" "))
            .collect();
        assert_eq!(
            rows,
            [
                "a5 b5 c5",
                "a4 b4 c4 d4",
                "a3 b3 c3 d3 e3",
                "b2 c2 d2 e2",
                "c1 d1 e1"
            ]
        );
        for (edge, expected) in [
            ("s", "c1 d1 e1"),
            ("sw", "c1 a3 b2"),
            ("nw", "a3 a4 a5"),
            ("n", "a5 b5 c5"),
            ("ne", "e3 d4 c5"),
            ("se", "e1 e2 e3"),
        ] {
            let mut want: Vec<&str> = expected.split(' ').collect();
            want.sort_by_key(|n| g.parse_cell(n));
            assert_eq!(cells(&g, &format!("edge {edge}")).unwrap(), want, "{edge}");
        }
        let c3 = g.parse_cell("c3").unwrap();
        let around: Vec<String> = g
            .directions()
            .iter()
            .map(|d| g.name(g.step(c3, *d, 1).unwrap()))
            .collect();
        // ne, e, se, sw, w, nw
        assert_eq!(around, ["c4", "d3", "d2", "c2", "b3", "b4"]);
    }
}
