//! The moves in words: the leaps of step vectors, sowing, sacrifices and
//! throws, each rule under the players it belongs to.

use murus_dsl::ShapeKind;
use murus_dsl::rules::{CatapultRule, SacrificeRule, SowCapture, SowRule};

use super::{Draft, Words, and_list, capital, or_list, stones};

/// A step vector's leap, as a player's directions hold it: a whole set of
/// mirror images (`(1, 2) mirrored`, a knight's eight leaps), or one leap.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Leap {
    /// Every image of `(x, y)` under the board's turns and reflections:
    /// `count` leaps.
    Mirrored { x: i8, y: i8, count: usize },
    /// The leap `(x, y)` (files toward the last, ranks up; on a hex board
    /// cells toward e and ne).
    One { x: i8, y: i8 },
}

impl Leap {
    /// `a knight's leap ((1, 2) in any of its 8 mirrored directions)`, or
    /// `a leap of (1, 2)`, with `n` leaps for `a`.
    fn phrase(&self, n: &str) -> String {
        let s = if n == "a" || n == "1" { "" } else { "s" };
        match *self {
            Leap::Mirrored { x: 1, y: 2, count } => {
                format!("{n} knight's leap{s} ((1, 2) in any of its {count} mirrored directions)")
            }
            Leap::Mirrored { x, y, count } => {
                format!("{n} leap{s} of ({x}, {y}) in any of its {count} mirrored directions")
            }
            Leap::One { x, y } => format!("{n} leap{s} of ({x}, {y})"),
        }
    }
}

/// `leaps` as phrases of `n` leaps each ([`Leap::phrase`]), the single
/// leaps together: `a leap of (1, 2) or (-1, 2)`.
fn leap_phrases(leaps: &[Leap], n: &str) -> Vec<String> {
    let mut out: Vec<String> = (leaps.iter())
        .filter(|l| matches!(l, Leap::Mirrored { .. }))
        .map(|l| l.phrase(n))
        .collect();
    let ones: Vec<String> = (leaps.iter())
        .filter_map(|l| match *l {
            Leap::One { x, y } => Some(format!("({x}, {y})")),
            Leap::Mirrored { .. } => None,
        })
        .collect();
    if !ones.is_empty() {
        let s = if n == "a" || n == "1" { "" } else { "s" };
        out.push(format!("{n} leap{s} of {}", or_list(&ones)));
    }
    out
}

/// The images of `(x, y)` under the board's turns and reflections, each
/// once: the square's eight, or the hexagon's twelve (its axes, e and ne,
/// 60° apart), as the rules language mirrors a step vector.
fn mirror_images(kind: ShapeKind, (x, y): (i8, i8)) -> Vec<(i8, i8)> {
    let (x, y) = (i32::from(x), i32::from(y));
    let mut out: Vec<(i32, i32)> = Vec::with_capacity(12);
    match kind {
        ShapeKind::Rect => {
            for (a, b) in [(x, y), (y, x)] {
                for (sa, sb) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                    out.push((sa * a, sb * b));
                }
            }
        }
        ShapeKind::Hex => {
            // A turn of 60° clockwise, and the reflection in the ne line.
            let turn = |(x, y): (i32, i32)| (x + y, -x);
            let reflect = |(x, y): (i32, i32)| (-x, x + y);
            for start in [(x, y), reflect((x, y))] {
                let mut v = start;
                for _ in 0..6 {
                    out.push(v);
                    v = turn(v);
                }
            }
        }
    }
    let mut images: Vec<(i8, i8)> = Vec::with_capacity(out.len());
    for (a, b) in out {
        let v = (a as i8, b as i8);
        if !images.contains(&v) {
            images.push(v);
        }
    }
    images
}

/// How a player's stones may go along its direction list: lines of the
/// board's own directions (in the list's order), and leaps.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ways {
    cells: Vec<usize>,
    leaps: Vec<Leap>,
}

impl Ways {
    /// The ways as a set, for comparing players' whatever their order.
    fn sorted(&self) -> Ways {
        let mut w = self.clone();
        w.cells.sort_unstable();
        w.leaps.sort();
        w
    }
}

/// One way the sentences go along directions: lines of cells (`toward
/// n`, `in any direction`, or `toward n for Romans and s for Gauls`), and
/// leaps.
struct Along {
    cells: Option<String>,
    leaps: Vec<Leap>,
}

impl Words<'_> {
    /// A player's direction list as [`Ways`]: the board's directions, and
    /// its step vectors gathered into whole sets of mirror images where
    /// the list has them all.
    fn ways(&self, list: &[usize]) -> Ways {
        let rules = self.rules();
        let board = self.variant.geometry().directions().len();
        let cells: Vec<usize> = list.iter().copied().filter(|&d| d < board).collect();
        let steps: Vec<(i8, i8)> = (list.iter())
            .filter_map(|&d| d.checked_sub(board).and_then(|i| rules.steps.get(i)))
            .copied()
            .collect();
        let kind = self.variant.geometry().kind();
        let mut leaps = Vec::new();
        let mut done: Vec<(i8, i8)> = Vec::new();
        for &s in &steps {
            if done.contains(&s) {
                continue;
            }
            let images = mirror_images(kind, s);
            if images.len() > 1 && images.iter().all(|v| steps.contains(v)) {
                // Named by its image with both numbers positive, the
                // smaller first: `(1, 2)`.
                let (x, y) = (images.iter())
                    .filter(|&&(x, y)| x > 0 && y > 0)
                    .min()
                    .copied()
                    .unwrap_or(s);
                done.extend(&images);
                leaps.push(Leap::Mirrored {
                    x,
                    y,
                    count: images.len(),
                });
            } else {
                done.push(s);
                leaps.push(Leap::One { x: s.0, y: s.1 });
            }
        }
        Ways { cells, leaps }
    }

    /// `in any direction`, or `toward n, ne or nw`.
    fn toward(&self, cells: &[usize]) -> String {
        let all = self.variant.geometry().directions().len();
        let mut sorted = cells.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() == all {
            return "in any direction".into();
        }
        let names: Vec<String> = cells
            .iter()
            .map(|&d| self.rules().direction_name(d))
            .collect();
        format!("toward {}", or_list(&names))
    }

    /// The owners' ways, for `phrase` to word: one phrase when every owner
    /// has the same ways; `toward n for Romans and s for Gauls` when they
    /// differ only in lines of cells (mirrored leaps are the same for
    /// every player); else each owner's phrase followed by its name,
    /// joined by `and`.
    fn along(
        &self,
        directions: &[Vec<usize>],
        owners: &[usize],
        phrase: impl Fn(&Along) -> String,
    ) -> String {
        let ways: Vec<Ways> = owners.iter().map(|&p| self.ways(&directions[p])).collect();
        let same = ways.windows(2).all(|w| w[0].sorted() == w[1].sorted());
        let name = |p: usize| self.players()[p].name.clone();
        if same {
            return ways.first().map_or(String::new(), |w| {
                phrase(&Along {
                    cells: (!w.cells.is_empty()).then(|| self.toward(&w.cells)),
                    leaps: w.leaps.clone(),
                })
            });
        }
        // Lines that differ, and the same leaps: the lines player by player.
        let all = self.variant.geometry().directions().len();
        let leaps = ways.first().map(|w| w.sorted().leaps).unwrap_or_default();
        let lines_differ = ways
            .iter()
            .all(|w| w.sorted().leaps == leaps && !w.cells.is_empty() && w.cells.len() < all);
        if lines_differ {
            let parts: Vec<String> = (ways.iter().zip(owners))
                .map(|(w, &p)| {
                    let names: Vec<String> = (w.cells.iter())
                        .map(|&d| self.rules().direction_name(d))
                        .collect();
                    format!("{} for {}", or_list(&names), name(p))
                })
                .collect();
            return phrase(&Along {
                cells: Some(format!("toward {}", and_list(&parts))),
                leaps: ways[0].leaps.clone(),
            });
        }
        let parts: Vec<String> = (ways.iter().zip(owners))
            .map(|(w, &p)| {
                let along = Along {
                    cells: (!w.cells.is_empty()).then(|| self.toward(&w.cells)),
                    leaps: w.leaps.clone(),
                };
                format!("{} for {}", phrase(&along), name(p))
            })
            .collect();
        and_list(&parts)
    }

    /// The players a rule gives directions to.
    fn owners(&self, directions: &[Vec<usize>]) -> Vec<usize> {
        (0..self.players().len())
            .filter(|&p| directions.get(p).is_some_and(|d| !d.is_empty()))
            .collect()
    }

    /// `For Romans, ` before a rule of some players' own; nothing before a
    /// rule every player follows.
    fn for_whom(&self, owners: &[usize]) -> String {
        if owners.len() == self.players().len() {
            String::new()
        } else {
            format!("For {}, ", self.who(owners).name())
        }
    }

    /// Whether an enemy of some of `owners` may ever have a stack of `h`
    /// stones (its stack limit allows it): where none may, a target of
    /// that height can never exist.
    fn enemy_may_have(&self, owners: &[usize], h: u8) -> bool {
        let players = self.players();
        (0..players.len()).any(|e| owners.iter().any(|&o| o != e) && players[e].stack_limit >= h)
    }

    /// The Moves section's rules.
    pub(super) fn moves(
        &self,
        steps: &[(i8, i8)],
        sow: &[SowRule],
        sacrifices: &[SacrificeRule],
        catapults: &[CatapultRule],
    ) -> Vec<Draft> {
        let n = self.players().len();
        let all: Vec<usize> = (0..n).collect();
        let mut out = vec![Draft::shared(
            &all,
            None,
            "On a turn, a player makes one of the moves below with a stack of its own.".into(),
        )];
        if !steps.is_empty() {
            let board = self.variant.geometry().directions().len();
            let leaps = |d: &Vec<Vec<usize>>| d.iter().flatten().any(|&i| i >= board);
            let mut along = Vec::new();
            if sow.iter().any(|r| leaps(&r.directions)) {
                along.push("sowing".to_string());
            }
            if catapults.iter().any(|r| leaps(&r.directions)) {
                along.push("throw".to_string());
            }
            out.push(Draft::shared(
                &all,
                Some("Leaps"),
                self.leaps_explained(&along),
            ));
        }
        if sow.is_empty() {
            out.push(Draft::shared(&all, Some("Sowing"), "No stack sows.".into()));
        }
        for rule in sow {
            out.push(self.sow(rule));
        }
        let idle = |lists: &mut dyn Iterator<Item = &Vec<Vec<usize>>>| {
            let mut has = vec![false; n];
            for d in lists {
                for p in self.owners(d) {
                    has[p] = true;
                }
            }
            (0..n).filter(|&p| !has[p]).collect::<Vec<usize>>()
        };
        let none = idle(&mut sow.iter().map(|r| &r.directions));
        if !sow.is_empty() && !none.is_empty() {
            let who = self.who(&none);
            let text = format!("{} not sow.", who.says("do"));
            out.push(Draft::owned(&none, n, Some("Sowing"), text));
        }
        // A sacrifice is the rule of the players whose enemies may have
        // its target: one on a stack no enemy may have is left out.
        let possible: Vec<SacrificeRule> = (sacrifices.iter())
            .map(|r| {
                let mut r = r.clone();
                for (p, d) in r.directions.iter_mut().enumerate() {
                    if !self.enemy_may_have(&[p], r.target) {
                        d.clear();
                    }
                }
                r
            })
            .filter(|r| !self.owners(&r.directions).is_empty())
            .collect();
        let possible: Vec<&SacrificeRule> = possible.iter().collect();
        if possible.is_empty() {
            out.push(Draft::shared(
                &all,
                Some("Sacrifice"),
                "No sacrifices: no stack gives up stones to take enemy ones.".into(),
            ));
        }
        out.extend(self.sacrifices(&possible));
        let none = idle(&mut possible.iter().map(|r| &r.directions));
        if !possible.is_empty() && !none.is_empty() {
            let who = self.who(&none);
            let text = format!("{} no sacrifices.", who.says("make"));
            out.push(Draft::owned(&none, n, Some("Sacrifice"), text));
        }
        for (i, rule) in catapults.iter().enumerate() {
            let which = (catapults.len() > 1).then_some((i + 1, catapults.len()));
            out.push(self.catapult(rule, which));
        }
        let none = idle(&mut catapults.iter().map(|r| &r.directions));
        if !catapults.is_empty() && !none.is_empty() {
            let who = self.who(&none);
            let text = format!("{} not throw.", who.says("do"));
            out.push(Draft::owned(&none, n, Some("Throw"), text));
        }
        out
    }

    /// What a step vector's numbers count, on this board, and that a move
    /// of `along` (`sowing`, `throw`) along a leap repeats it.
    fn leaps_explained(&self, along: &[String]) -> String {
        let g = self.variant.geometry();
        let last = (b'a' + (g.width() as u8).saturating_sub(1)) as char;
        let count = match g.kind() {
            ShapeKind::Rect => {
                format!(
                    "the first number counts files toward {last}, the second ranks up the board"
                )
            }
            ShapeKind::Hex => "the first number counts cells toward e, the second toward ne".into(),
        };
        let repeats = if along.is_empty() {
            String::new()
        } else {
            format!(
                " A {} along a leap repeats it, from cell to cell.",
                or_list(along).replace("or throw", "or a throw")
            )
        };
        format!(
            "A leap such as (1, 2) goes straight to its cell, over whatever is between: {count} (negative numbers the other way).{repeats}"
        )
    }

    fn sow(&self, rule: &SowRule) -> Draft {
        let SowRule {
            heights,
            directions,
            onto_empty,
            onto_own,
            onto_enemy,
            on_enemy,
        } = rule;
        let n = self.players().len();
        let owners = self.owners(directions);
        let who: Vec<String> = heights.iter().map(|&h| self.stack(h)).collect();
        let line = self.along(directions, &owners, |a| {
            let mut parts = Vec::new();
            if let Some(c) = &a.cells {
                parts.push(format!("in a line {c}"));
            }
            if !a.leaps.is_empty() {
                parts.push(format!("{} apart", or_list(&leap_phrases(&a.leaps, "a"))));
            }
            parts.join(", or ")
        });
        let mut text = format!(
            "{}{} lifts all its stones and drops one on each of the next cells {line}, as many cells as it had stones.",
            self.for_whom(&owners),
            or_list(&who)
        );
        if !text.starts_with("For") {
            text = capital(&text);
        }
        let mut onto = Vec::new();
        if *onto_empty {
            onto.push("an empty cell".to_string());
        }
        for &h in onto_own {
            onto.push(format!("an own {}", self.stack_noun(h)));
        }
        // Enemy stacks no enemy may have are left out.
        let enemies: Vec<String> = (onto_enemy.iter())
            .filter(|&&h| self.enemy_may_have(&owners, h))
            .map(|&h| self.stack_noun(h))
            .collect();
        if !enemies.is_empty() {
            let what = or_list(&enemies);
            onto.push(match on_enemy {
                SowCapture::Capture => format!(
                    "an enemy {what}, which the stone captures: the enemy stack leaves the game and the stone stays there as a wall of the sower's"
                ),
                SowCapture::Remove(k) => format!(
                    "an enemy {what}: the stone leaves the game with {} of that stack (all, if it has fewer)",
                    stones(u32::from(*k))
                ),
            });
        }
        let never = if enemies.is_empty() {
            "off the board, on an enemy stack or on a stack it would make too tall"
        } else {
            "off the board or on a stack it would make too tall"
        };
        let (text, list) = match onto.len() {
            0 => (
                format!("{text} A sown stone may not drop anywhere: no stack can sow."),
                Vec::new(),
            ),
            1 => (
                format!(
                    "{text} Each stone must drop on {} (never {never}), or the sowing may not be made.",
                    onto[0]
                ),
                Vec::new(),
            ),
            _ => (
                format!(
                    "{text} Each stone must drop on one of these (never {never}), or the sowing may not be made:"
                ),
                onto,
            ),
        };
        Draft::owned(&owners, n, Some("Sowing"), text).with_list(list)
    }

    /// The sacrifice rules, gathered by their owners and directions: one
    /// rule a sentence, several as a list.
    fn sacrifices(&self, rules: &[&SacrificeRule]) -> Vec<Draft> {
        let n = self.players().len();
        // (owners, their directions, the rules).
        type Gathered<'r> = (Vec<usize>, &'r Vec<Vec<usize>>, Vec<&'r SacrificeRule>);
        let mut groups: Vec<Gathered> = Vec::new();
        for &r in rules {
            let owners = self.owners(&r.directions);
            match (groups.iter_mut()).find(|(o, d, _)| *o == owners && **d == r.directions) {
                Some(g) => g.2.push(r),
                None => groups.push((owners, &r.directions, vec![r])),
            }
        }
        groups
            .into_iter()
            .map(|(owners, directions, rules)| {
                let near = self.along(directions, &owners, |a| {
                    let mut parts = Vec::new();
                    if let Some(c) = &a.cells {
                        parts.push(format!("next to it {c}"));
                    }
                    if !a.leaps.is_empty() {
                        parts.push(format!("{} away", or_list(&leap_phrases(&a.leaps, "a"))));
                    }
                    parts.join(", or ")
                });
                let whom = self.for_whom(&owners);
                let (text, list) = if let [one] = rules[..] {
                    let text = format!(
                        "{whom}{} may give up {} to take {} from an enemy {} {near}.",
                        self.stack(one.attacker),
                        stones(u32::from(one.lose)),
                        stones(u32::from(one.remove)),
                        self.stack_noun(one.target),
                    );
                    (text, Vec::new())
                } else {
                    let text = format!(
                        "{whom}a stack may give up stones to take stones from an enemy stack {near}:"
                    );
                    let list = (rules.iter())
                        .map(|r| {
                            format!(
                                "{} gives up {} to take {} from {}",
                                self.stack(r.attacker),
                                stones(u32::from(r.lose)),
                                stones(u32::from(r.remove)),
                                self.stack(r.target),
                            )
                        })
                        .collect();
                    (text, list)
                };
                let text = if whom.is_empty() { capital(&text) } else { text };
                Draft::owned(&owners, n, Some("Sacrifice"), text).with_list(list)
            })
            .collect()
    }

    /// One catapult rule; `which` numbers it among several (`(1, 2)`: the
    /// first of two kinds).
    fn catapult(&self, rule: &CatapultRule, which: Option<(usize, usize)>) -> Draft {
        let CatapultRule {
            height,
            directions,
            ranges,
            onto_empty,
            onto_enemy,
            wall_on_empty,
            hit_removes,
        } = rule;
        let n = self.players().len();
        let owners = self.owners(directions);
        let ranges: Vec<String> = ranges.iter().map(ToString::to_string).collect();
        let far = or_list(&ranges);
        let reach = self.along(directions, &owners, |a| {
            let mut parts = Vec::new();
            if let Some(c) = &a.cells {
                let cells = if ranges == ["1"] { "cell" } else { "cells" };
                parts.push(format!("{far} {cells} away {c}"));
            }
            for leap in leap_phrases(&a.leaps, &far) {
                parts.push(format!("{leap} away"));
            }
            parts.join(", or ")
        });
        let name = match which {
            None => "Throw".to_string(),
            Some((i, k)) => format!("Throw (kind {i} of {k})"),
        };
        let whom = self.for_whom(&owners);
        let mut text = format!(
            "{whom}{} throws its top stone over anything, exactly {reach}, and is one stone lower after.",
            self.stack(*height)
        );
        if whom.is_empty() {
            text = capital(&text);
        }
        let mut lands = Vec::new();
        if *onto_empty {
            lands.push(if *wall_on_empty {
                "on an empty cell, where it stays as a wall of the thrower's".to_string()
            } else {
                "on an empty cell, where it is lost: it leaves the game".to_string()
            });
        }
        // Enemy stacks no enemy may have (a catapult of players whose
        // stacks stay lower) are left out.
        let targets: Vec<String> = (onto_enemy.iter())
            .filter(|&&h| self.enemy_may_have(&owners, h))
            .map(|&h| self.stack_noun(h))
            .collect();
        if !targets.is_empty() {
            lands.push(format!(
                "on an enemy {}, where it leaves the game with {} of that stack (all, if it has fewer)",
                or_list(&targets),
                stones(u32::from(*hit_removes))
            ));
        }
        let (text, list) = match lands.len() {
            0 => (
                format!("{text} The stone may land nowhere: no catapult of this kind can throw."),
                Vec::new(),
            ),
            1 => (
                format!("{text} The stone may land only {}.", lands[0]),
                Vec::new(),
            ),
            _ => (format!("{text} The stone may land:"), lands),
        };
        Draft::owned(&owners, n, Some(&name), text).with_list(list)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_knight_has_eight_leaps_on_a_square_and_twelve_on_a_hexagon() {
        assert_eq!(mirror_images(ShapeKind::Rect, (1, 2)).len(), 8);
        assert_eq!(mirror_images(ShapeKind::Hex, (1, 2)).len(), 12);
        assert_eq!(mirror_images(ShapeKind::Hex, (1, 1)).len(), 6);
        assert!(mirror_images(ShapeKind::Hex, (1, 2)).contains(&(2, 1)));
        let knight = Leap::Mirrored {
            x: 1,
            y: 2,
            count: 8,
        };
        assert_eq!(
            knight.phrase("a"),
            "a knight's leap ((1, 2) in any of its 8 mirrored directions)"
        );
        assert_eq!(
            Leap::One { x: -1, y: 2 }.phrase("1 or 2"),
            "1 or 2 leaps of (-1, 2)"
        );
    }
}
