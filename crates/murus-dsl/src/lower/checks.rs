//! Whole-file checks, on rules that passed every other check: mistakes
//! that no single statement shows (a home no stone can reach, a pie rule
//! with no tower to split).

use super::Lowerer;
use super::text::{dir_names, join_and, join_or};
use crate::ast::{Block, CatapultField};
use crate::diagnostic::Diagnostic;
use crate::rules::{CatapultRule, Material, Opening, Rules, SowRule, Timing};

impl Lowerer {
    /// `reduced to N …` where a player starts with at most N stones (or
    /// towers) would end the game before its first move.
    pub(super) fn check_reduced_at_start(&mut self, rules: &Rules) {
        for p in 0..rules.players.len() {
            let Some(r) = rules.win(p).reduced else {
                continue;
            };
            let Some(span) = self.reduced_spans.get(p).copied().flatten() else {
                continue;
            };
            let mine = rules.setup.iter().filter(|&&(_, q, _)| q == p);
            let (has, what) = match r.material {
                Material::Stones => (rules.starting_stones(p), "stones"),
                Material::Towers => (mine.filter(|&&(_, _, h)| h >= 2).count() as u32, "towers"),
            };
            if has <= r.at_most {
                let who = self.players[p].describe();
                self.push(
                    Diagnostic::error(
                        span,
                        format!("{who} would lose at once: the setup gives them {has} {what}"),
                    )
                    .with_note(format!(
                        "a player who starts its turn with at most {} {what} loses",
                        r.at_most
                    ))
                    .with_help(format!("lower the number below {has}")),
                );
                return;
            }
        }
    }

    /// Several catapults may not give one player the same throw (the same
    /// height, direction and range): `d3*d5` would not say which catapult
    /// made it, nor so which landing rules apply.
    pub(super) fn check_catapults_overlap(
        &mut self,
        blocks: &[&Block<CatapultField>],
        rules: &[Option<CatapultRule>],
    ) {
        let Some(g) = self.geometry.clone() else {
            return;
        };
        for (j, later) in rules.iter().enumerate() {
            let Some(later) = later else { continue };
            for (i, earlier) in rules.iter().enumerate().take(j) {
                let Some(earlier) = earlier else { continue };
                if earlier.height != later.height {
                    continue;
                }
                let ranges: Vec<u8> = later
                    .ranges
                    .iter()
                    .copied()
                    .filter(|r| earlier.ranges.contains(r))
                    .collect();
                let shared = (0..self.players.len()).find_map(|p| {
                    let dirs: Vec<usize> = later
                        .directions
                        .get(p)?
                        .iter()
                        .copied()
                        .filter(|d| earlier.directions.get(p).is_some_and(|e| e.contains(d)))
                        .collect();
                    (!dirs.is_empty() && !ranges.is_empty()).then_some((p, dirs))
                });
                let Some((p, dirs)) = shared else { continue };
                let who = self.players[p].describe();
                let ranges: Vec<String> = ranges.iter().map(u8::to_string).collect();
                let d = Diagnostic::error(
                    blocks[j].head,
                    format!(
                        "two catapults of height {} give {who} the same throw",
                        later.height
                    ),
                )
                .with_label(blocks[i].head, "the first catapult is here")
                .with_note(format!(
                    "both throw {} at range {}: a throw's cells would not say which \
                     catapult made it",
                    dir_names(&g, &self.steps, &dirs),
                    join_or(&ranges)
                ))
                .with_help(
                    "give each direction and range to one catapult (for example \
                     `range 2, 3` forward in one and `range 1` sideways in the other)",
                );
                self.push(d);
                break;
            }
        }
    }

    /// The pie rule's first action splits a tower of exactly 2 stones into
    /// two walls (`d1:b2,g2`): each player needs such a tower on its `from`
    /// cells at the start, or it could never make its first action.
    pub(super) fn check_pie_towers(&mut self, rules: &Rules) {
        let Opening::Pie { from, .. } = &rules.opening else {
            return;
        };
        for (p, cells) in from.iter().enumerate() {
            let towers = rules
                .setup
                .iter()
                .any(|&(s, q, h)| q == p && h == 2 && cells.contains(&s));
            if towers {
                continue;
            }
            let span = self.pie_from[p].unwrap_or(self.anchor);
            let who = self.players[p].describe();
            self.error(
                span,
                format!("the pie rule needs a tower of 2 of {who} on these cells at the start"),
            )
            .notes
            .push(
                "the pie rule's first action drops the two stones of one tower (a stack of \
                 exactly 2) as walls on two cells; stacks of other heights cannot open"
                    .to_string(),
            );
        }
    }

    /// With a breakthrough, every player that has stones must be able to
    /// reach some other player's home: a home no stone of it can ever reach,
    /// whatever the other stones do, is almost certainly a mistake (a wrong
    /// `forward`, `back` for `forward`, …).
    ///
    /// The search over-approximates what stones can do: blockers, stack
    /// heights and whose turn it is are ignored. A stone moves by sowing
    /// (1 up to the highest sowing height in a sowing direction), by a throw
    /// onto an empty cell (each range in a throwing direction) and by the
    /// pie rule's split (from its `from` cells to its `to` cells). A home is
    /// reached by a move that counts as an arrival for the breakthrough (or,
    /// with a delayed breakthrough, by any stone standing on it).
    pub(super) fn check_homes_reachable(&mut self, rules: &Rules) {
        let g = &rules.geometry;
        for p in 0..rules.players.len() {
            let Some(b) = rules.win(p).breakthrough else {
                continue;
            };
            let delayed = b.timing == Timing::Delayed;
            let start = setup_cells(rules, p);
            if start.is_empty() {
                continue; // already a warning: the player has no stones
            }
            let mut goal = vec![false; g.slots()];
            for (q, other) in rules.players.iter().enumerate() {
                if q != p {
                    for &s in &other.home {
                        goal[s] = true;
                    }
                }
            }
            // (direction, distance, whether arriving this way breaks through)
            let steps: Vec<(usize, i32, bool)> = stone_steps(rules, p)
                .into_iter()
                .map(|(d, k, thrown)| (d, k, if thrown { b.by_throw } else { b.by_sow }))
                .collect();
            let mut ways: Vec<String> = Vec::new();
            if let Some(sow) = rules.sow_of(p).filter(|s| sows_somewhere(s)) {
                let far = sow.heights.iter().copied().max().unwrap_or(0);
                if far > 0 {
                    ways.push(format!(
                        "sowing {} (up to {far} cells)",
                        dir_names(g, &rules.steps, &sow.directions[p])
                    ));
                }
            }
            for cat in rules.catapults.iter().filter(|c| keeps_throws(c)) {
                if !cat.directions[p].is_empty() && !cat.ranges.is_empty() {
                    let ranges: Vec<String> = cat.ranges.iter().map(u8::to_string).collect();
                    let cells = if ranges == ["1"] { "cell" } else { "cells" };
                    ways.push(format!(
                        "throwing {} ({} {cells})",
                        dir_names(g, &rules.steps, &cat.directions[p]),
                        join_or(&ranges)
                    ));
                }
            }
            let mut seen = vec![false; g.slots()];
            let mut queue: Vec<usize> = Vec::new();
            let mut reached = false;
            for &s in &start {
                seen[s] = true;
                queue.push(s);
                reached |= delayed && goal[s];
            }
            if let Opening::Pie { from, to } = &rules.opening {
                if p < 2 && start.iter().any(|s| from[p].contains(s)) {
                    for &t in &to[p] {
                        reached |= delayed && goal[t];
                        if !seen[t] {
                            seen[t] = true;
                            queue.push(t);
                        }
                    }
                }
            }
            while let Some(s) = queue.pop() {
                if reached {
                    break;
                }
                for &(d, k, counts) in &steps {
                    let Some(t) = rules.direction(d).and_then(|dir| g.step(s, dir, k)) else {
                        continue;
                    };
                    if counts && goal[t] {
                        reached = true;
                        break;
                    }
                    if !seen[t] {
                        seen[t] = true;
                        queue.push(t);
                    }
                }
            }
            if reached {
                continue;
            }
            let info = &self.players[p];
            let span = info.forward_span.unwrap_or(info.head);
            let mut d = Diagnostic::error(
                span,
                format!("{} can never reach another player's home", info.describe()),
            );
            if !rules.sow.is_empty() {
                for &s in &self.sow_directions {
                    d = d.with_label(s, "sowing directions are set here");
                }
            }
            if !rules.catapults.is_empty() {
                for &s in &self.catapult_directions {
                    d = d.with_label(s, "throwing directions are set here");
                }
            }
            let how = if ways.is_empty() {
                "their stones never move".to_string()
            } else {
                format!("their stones move only by {}", join_and(&ways))
            };
            d.notes.push(format!(
                "`win` has a breakthrough, but {how}: even with no stone in the way, none of \
                 them can land on a home of another player"
            ));
            self.push(d.with_help(
                "check `forward` and the `directions` of `sow`/`catapult`, or drop \
                 `breakthrough` for a game won only by stalemate (Escape)",
            ));
        }
    }
}

/// Whether a sowing can drop its stones anywhere at all.
fn sows_somewhere(sow: &SowRule) -> bool {
    sow.onto_empty || !sow.onto_own.is_empty() || !sow.onto_enemy.is_empty()
}

/// Whether a catapult's stone can stay where it lands (on an empty cell).
fn keeps_throws(cat: &CatapultRule) -> bool {
    cat.onto_empty && cat.wall_on_empty
}

/// Where a move can take a stone of player `p`, ignoring every blocker and
/// stack height: `(direction, distance, whether thrown)` for a sowing (1 up
/// to the highest sowing height) and for a throw that keeps its stone.
pub(super) fn stone_steps(rules: &Rules, p: usize) -> Vec<(usize, i32, bool)> {
    let mut steps = Vec::new();
    if let Some(sow) = rules.sow_of(p).filter(|s| sows_somewhere(s)) {
        let far = sow.heights.iter().copied().max().unwrap_or(0);
        for &d in &sow.directions[p] {
            for k in 1..=i32::from(far) {
                steps.push((d, k, false));
            }
        }
    }
    for cat in rules.catapults.iter().filter(|c| keeps_throws(c)) {
        for &d in &cat.directions[p] {
            for &r in &cat.ranges {
                steps.push((d, i32::from(r), true));
            }
        }
    }
    steps
}

/// The cells player `p`'s stacks start on.
pub(super) fn setup_cells(rules: &Rules, p: usize) -> Vec<usize> {
    rules
        .setup
        .iter()
        .filter(|&&(_, q, _)| q == p)
        .map(|&(s, _, _)| s)
        .collect()
}
