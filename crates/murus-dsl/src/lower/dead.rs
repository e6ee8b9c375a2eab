//! Dead rules: statements that compile but can never matter, found from the
//! rules alone and reported as warnings. A stack height no stack can ever
//! reach (so the stack limit, or a rule of that height, never plays), a
//! height that is reached but can never act, a `by throw` no throw can
//! honour, a catapult range whose every throw leaves the board, and cells
//! to `occupy` that no player's stones can reach.
//!
//! Reachable heights are over-approximated, so every warning is sound: a
//! height is reachable if the setup has it, or if some move of a reachable
//! stack can make it (sowing onto an own stack grows it by one; a sowing or
//! a throw that keeps its stone makes a wall; a sacrifice, a throw and a hit
//! make stacks lower), whoever owns the stacks and wherever they stand.

use super::Lowerer;
use super::checks::{setup_cells, stone_steps};
use super::items::Items;
use crate::ast::{Arrival, Block, CatapultField, SacrificeField, SowField, WinField};
use crate::diagnostic::{Diagnostic, Span};
use crate::rules::{Occupation, Opening, Rules, SowCapture};

impl Rules {
    /// The stack heights some position of the game may hold: `reach[h]`
    /// for `h` in `0..=stack_limit` (`reach[0]` is always false). An
    /// over-approximation (see the module's text): a height it leaves out
    /// never occurs, which the dead-rule warnings rely on.
    pub fn reachable_heights(&self) -> Vec<bool> {
        reachable_heights(self)
    }
}

fn reachable_heights(rules: &Rules) -> Vec<bool> {
    let limit = usize::from(rules.stack_limit);
    let mut reach = vec![false; limit + 1];
    for &(_, _, h) in &rules.setup {
        reach[usize::from(h)] = true;
    }
    if matches!(rules.opening, Opening::Pie { .. }) {
        reach[1] = true; // a split leaves two walls
    }
    let add = |reach: &mut Vec<bool>, h: u8| {
        let h = usize::from(h);
        let new = h >= 1 && h <= limit && !reach[h];
        if new {
            reach[h] = true;
        }
        new
    };
    let has = |reach: &[bool], h: u8| reach.get(usize::from(h)).copied().unwrap_or(false);
    loop {
        let mut grew = false;
        for sow in &rules.sow {
            if sow.heights.iter().any(|&h| has(&reach, h)) {
                if sow.onto_empty {
                    grew |= add(&mut reach, 1);
                }
                for &h in &sow.onto_own {
                    if has(&reach, h) {
                        grew |= add(&mut reach, h + 1);
                    }
                }
                for &h in &sow.onto_enemy {
                    if has(&reach, h) {
                        grew |= match sow.on_enemy {
                            SowCapture::Capture => add(&mut reach, 1),
                            SowCapture::Remove(n) => add(&mut reach, h - n.min(h)),
                        };
                    }
                }
            }
        }
        for s in &rules.sacrifices {
            if has(&reach, s.attacker) && has(&reach, s.target) {
                grew |= add(&mut reach, s.attacker - s.lose);
                grew |= add(&mut reach, s.target - s.remove);
            }
        }
        for c in &rules.catapults {
            if !has(&reach, c.height) {
                continue;
            }
            grew |= add(&mut reach, c.height - 1);
            if c.onto_empty && c.wall_on_empty {
                grew |= add(&mut reach, 1);
            }
            for &h in &c.onto_enemy {
                if has(&reach, h) {
                    grew |= add(&mut reach, h - c.hit_removes.min(h));
                }
            }
        }
        if !grew {
            return reach;
        }
    }
}

/// The cells a stone of player `p` may ever stand on, ignoring every
/// blocker and stack height: its setup's cells, the pie rule's cells, and
/// whatever a move's steps lead to from them.
fn stands_on(rules: &Rules, p: usize) -> Vec<bool> {
    let g = &rules.geometry;
    let steps = stone_steps(rules, p);
    let mut seen = vec![false; g.slots()];
    let mut queue: Vec<usize> = Vec::new();
    let visit = |s: usize, seen: &mut Vec<bool>, queue: &mut Vec<usize>| {
        if !seen[s] {
            seen[s] = true;
            queue.push(s);
        }
    };
    let start = setup_cells(rules, p);
    for &s in &start {
        visit(s, &mut seen, &mut queue);
    }
    if let Opening::Pie { from, to } = &rules.opening {
        if p < 2 && start.iter().any(|s| from[p].contains(s)) {
            for &t in &to[p] {
                visit(t, &mut seen, &mut queue);
            }
        }
    }
    while let Some(s) = queue.pop() {
        for &(d, k, _) in &steps {
            if let Some(t) = rules.direction(d).and_then(|dir| g.step(s, dir, k)) {
                visit(t, &mut seen, &mut queue);
            }
        }
    }
    seen
}

/// The players a `win` block applies to: those it names, or (shared) those
/// without a `win` of their own.
fn win_players(items: &Items<'_>, block: &Block<WinField>, rules: &Rules) -> Vec<usize> {
    let named = |p: usize, b: &Block<WinField>| {
        b.players
            .iter()
            .any(|n| n.value.chars().eq([rules.players[p].letter]))
    };
    (0..rules.players.len())
        .filter(|&p| match block.players.is_empty() {
            true => !items.own_win.iter().any(|b| named(p, b)),
            false => named(p, block),
        })
        .collect()
}

/// Every `win` block: the shared one, then those with `for`.
fn win_blocks<'a>(items: &Items<'a>) -> impl Iterator<Item = &'a Block<WinField>> + use<'a> {
    let shared = items.win.map(|(b, _)| b);
    shared.into_iter().chain(items.own_win.clone())
}

impl Lowerer {
    /// The `catapult` blocks that made a rule of [`Rules::catapults`] (a
    /// shared one that every player replaces makes none), in order.
    fn kept_catapults<'a>(
        &self,
        items: &Items<'a>,
    ) -> impl Iterator<Item = &'a Block<CatapultField>> + use<'a> {
        let kept = self.kept_catapults.clone();
        items
            .catapults
            .clone()
            .into_iter()
            .zip(kept)
            .filter_map(|(b, keep)| keep.then_some(b))
    }

    /// Warns about rules that can never matter (see the module's text).
    pub(super) fn check_dead_rules(&mut self, items: &Items<'_>, rules: &Rules) {
        let reach = rules.reachable_heights();
        let reached = |h: u8| reach.get(usize::from(h)).copied().unwrap_or(false);
        let heights: Vec<String> = (1..reach.len())
            .filter(|&h| reach[h])
            .map(|h| h.to_string())
            .collect();
        let seen = format!(
            "stacks of {} stones are all this game can make: they start so, and only \
             sowing onto an own stack (`onto own H`) makes a stack taller",
            super::text::join_or(&heights)
        );
        let limit = rules.stack_limit;
        if !reached(limit) {
            if let Some(span) = self.limit_span {
                let top = heights.last().cloned().unwrap_or_else(|| "0".into());
                self.push(
                    Diagnostic::warning(
                        span,
                        format!("no stack can ever reach the stack limit of {limit}"),
                    )
                    .with_note(seen.clone())
                    .with_help(format!(
                        "lower the limit to {top}, or let sowing build taller stacks \
                         (`onto own {top}`)"
                    )),
                );
            }
        }
        // Rules of a height no stack reaches.
        let mut dead: Vec<(Span, String)> = Vec::new();
        for block in items
            .sow
            .map(|(b, _)| b)
            .into_iter()
            .chain(items.own_sow.iter().copied())
        {
            for f in &block.fields {
                if let SowField::Heights(list) = &f.value {
                    for n in list {
                        let Some(h) = n.value.filter(|&h| h <= u32::from(limit)) else {
                            continue;
                        };
                        if !reached(h as u8) {
                            dead.push((
                                n.span,
                                format!("no stack ever reaches height {h}, so none sows so"),
                            ));
                        }
                    }
                }
            }
        }
        let sacrifices = items.sacrifice.map(|(b, _)| b).into_iter();
        for block in sacrifices.chain(items.own_sacrifice.iter().copied()) {
            for f in &block.fields {
                if let SacrificeField::Rule(line) = &f.value {
                    for (n, who) in [(&line.attacker, "attacker"), (&line.target, "target")] {
                        let Some(n) = n.value.filter(|&h| !reached(h as u8)) else {
                            continue;
                        };
                        {
                            dead.push((
                                f.span,
                                format!(
                                    "no stack ever reaches height {n}, so this sacrifice's \
                                     {who} never exists"
                                ),
                            ));
                            break;
                        }
                    }
                }
            }
        }
        for (block, rule) in self.kept_catapults(items).zip(&rules.catapults) {
            if reached(rule.height) {
                continue;
            }
            let span = block
                .fields
                .iter()
                .find_map(|f| match &f.value {
                    CatapultField::Height(n) => Some(n.span),
                    _ => None,
                })
                .unwrap_or(block.head);
            dead.push((
                span,
                format!(
                    "no stack ever reaches height {}, so this catapult never throws",
                    rule.height
                ),
            ));
        }
        for block in win_blocks(items) {
            let height = block.fields.iter().find_map(|f| match &f.value {
                WinField::Breakthrough(clause) => clause.height.as_ref(),
                _ => None,
            });
            let Some((tall, span)) = height.and_then(|n| Some((n.value?, n.span))) else {
                continue;
            };
            if tall > 1 && tall <= u32::from(limit) && !reached(tall as u8) {
                dead.push((
                    span,
                    format!("no stack ever reaches height {tall}, so nothing breaks through"),
                ));
            }
        }
        for (span, message) in dead {
            self.push(Diagnostic::warning(span, message).with_note(seen.clone()));
        }
        // Heights that are reached but never act (walls never act in this
        // family: a height of 1 is not reported).
        for h in 2..=limit {
            let acts = rules.sow.iter().any(|s| s.heights.contains(&h))
                || rules.sacrifices.iter().any(|s| s.attacker == h)
                || rules.is_catapult_height(h);
            if reached(h) && !acts {
                let span = self.limit_span.unwrap_or(self.anchor);
                self.push(
                    Diagnostic::warning(span, format!("a stack of {h} stones can never act"))
                        .with_note(format!(
                            "stacks of {h} occur in this game, but no `sow` height, sacrifice \
                             attacker or catapult height is {h}: such a stack only stands \
                             in the way"
                        ))
                        .with_help(format!(
                            "give it a move (`heights {h}` in `sow`, a `catapult` of \
                             `height {h}`, a sacrifice `{h} against …`), or lower the stack \
                             limit"
                        )),
                );
            }
        }
        self.check_throw_breakthrough(items, rules, &reached);
        self.check_ranges_land(items, rules);
        self.check_occupation_reachable(items, rules);
        self.check_count_reachable(items, rules);
        self.check_capture_reachable(items, rules);
    }

    /// `occupy … count K` where no player's stones can ever stand on K
    /// cells of the set, whatever the other stones do.
    fn check_occupation_reachable(&mut self, items: &Items<'_>, rules: &Rules) {
        for block in win_blocks(items) {
            let Some(span) = block.fields.iter().find_map(|f| match &f.value {
                WinField::Occupy(..) => Some(f.span),
                _ => None,
            }) else {
                continue;
            };
            let players = win_players(items, block, rules);
            let Some(o) = players
                .first()
                .and_then(|&p| rules.win(p).occupation.as_ref())
            else {
                continue;
            };
            self.check_occupation(span, o, &players, rules);
        }
    }

    /// `breakthrough … count K` where none of the block's players starts
    /// with K stones: a player's stones never grow in number (sowing moves
    /// them, the pie rule's split keeps them, captures and lost throws take
    /// them away).
    fn check_count_reachable(&mut self, items: &Items<'_>, rules: &Rules) {
        for block in win_blocks(items) {
            let count = block.fields.iter().find_map(|f| match &f.value {
                WinField::Breakthrough(clause) => clause.count.as_ref(),
                _ => None,
            });
            let Some((k, span)) = count.and_then(|n| Some((n.value?, n.span))) else {
                continue;
            };
            let most = win_players(items, block, rules)
                .iter()
                .map(|&p| rules.starting_stones(p))
                .max()
                .unwrap_or(0);
            if k > most {
                self.push(
                    Diagnostic::warning(
                        span,
                        format!(
                            "no player of this rule ever has {k} stones, so nothing breaks through"
                        ),
                    )
                    .with_note(format!(
                        "a player's stones never grow in number, and the most these players start \
                         with is {most}"
                    ))
                    .with_help(format!("lower `count` to {most} or less")),
                );
            }
        }
    }

    /// `capture N stones` where the block's players can never take N enemy
    /// stones: the other players start with fewer, or no rule takes a
    /// stone at all (no sacrifice, no throw onto enemies, no sowing onto
    /// them).
    fn check_capture_reachable(&mut self, items: &Items<'_>, rules: &Rules) {
        let takes = |p: usize| {
            let has = |d: &Vec<Vec<usize>>| d.get(p).is_some_and(|d| !d.is_empty());
            rules.sacrifices.iter().any(|s| has(&s.directions))
                || (rules.catapults.iter()).any(|c| !c.onto_enemy.is_empty() && has(&c.directions))
                || (rules.sow.iter()).any(|s| !s.onto_enemy.is_empty() && has(&s.directions))
        };
        for block in win_blocks(items) {
            let Some((n, span)) = block.fields.iter().find_map(|f| match &f.value {
                WinField::Capture(n, _) => Some((n.value?, f.span)),
                _ => None,
            }) else {
                continue;
            };
            let players = win_players(items, block, rules);
            let enemy_stones = |p: usize| -> u32 {
                let others = (0..rules.players.len()).filter(|&q| q != p);
                others.map(|q| rules.starting_stones(q)).sum()
            };
            let most = players.iter().map(|&p| enemy_stones(p)).max().unwrap_or(0);
            if !players.iter().any(|&p| takes(p)) {
                self.push(
                    Diagnostic::warning(span, "no rule takes a stone, so no capture ever wins")
                        .with_note(
                            "stones are taken by sacrifices, by throws onto enemy stacks and by \
                             sowing onto them (`onto enemy H`)",
                        )
                        .with_help("add a `sacrifice` block, or remove `capture`"),
                );
            } else if n > most {
                self.push(
                    Diagnostic::warning(
                        span,
                        format!("no player of this rule can ever take {n} enemy stones"),
                    )
                    .with_note(format!(
                        "the most enemy stones any of these players faces at the start is {most}"
                    ))
                    .with_help(format!("lower the count to {most} or less")),
                );
            }
        }
    }

    /// One `occupy`, followed by `players`.
    fn check_occupation(&mut self, span: Span, o: &Occupation, players: &[usize], rules: &Rules) {
        let best = players
            .iter()
            .map(|&p| {
                let stands = stands_on(rules, p);
                o.cells.iter().filter(|&&c| stands[c]).count()
            })
            .max()
            .unwrap_or(0);
        if best >= o.count as usize {
            return;
        }
        self.push(
            Diagnostic::warning(
                span,
                match o.cells.len() {
                    1 => "no player's stones can ever reach this cell".to_string(),
                    n => format!("no player can ever hold {} of these {n} cells", o.count),
                },
            )
            .with_note(format!(
                "even with no stone in the way, one player's stones reach at most {best} of \
                 them (by sowing, a throw that keeps its stone, or the pie rule's split)"
            ))
            .with_help("choose cells the stones can reach, or a smaller `count`"),
        );
    }

    /// `breakthrough … by throw`, written out, needs a throw that can leave
    /// a stone on an empty cell (`onto empty`, `on empty: wall`) from a
    /// height some stack reaches.
    fn check_throw_breakthrough(
        &mut self,
        items: &Items<'_>,
        rules: &Rules,
        reached: &dyn Fn(u8) -> bool,
    ) {
        for block in win_blocks(items) {
            self.check_block_throw_breakthrough(block, rules, reached);
        }
    }

    fn check_block_throw_breakthrough(
        &mut self,
        block: &Block<WinField>,
        rules: &Rules,
        reached: &dyn Fn(u8) -> bool,
    ) {
        let written = block.fields.iter().find_map(|f| match &f.value {
            WinField::Breakthrough(clause) => clause
                .by
                .as_ref()?
                .iter()
                .find(|a| a.value == Arrival::Throw)
                .map(|a| a.span),
            _ => None,
        });
        let Some(span) = written else { return };
        let lands = rules
            .catapults
            .iter()
            .any(|c| c.onto_empty && c.wall_on_empty && reached(c.height));
        if !lands && !rules.catapults.is_empty() {
            self.push(
                Diagnostic::warning(span, "no throw can ever break through")
                    .with_note(
                        "a throw breaks through by leaving its stone on an empty cell of a \
                         home, but no catapult that can throw keeps its stone there (`onto \
                         empty` with `on empty: wall`)",
                    )
                    .with_help("remove `throw` from `by`, or let a catapult land `onto empty`"),
            );
        }
    }

    /// A catapult range at which every throw, in every direction the
    /// catapult has for any player, from any cell, leaves the board.
    fn check_ranges_land(&mut self, items: &Items<'_>, rules: &Rules) {
        let g = &rules.geometry;
        for (block, rule) in self.kept_catapults(items).zip(&rules.catapults) {
            let lands = |r: u32| {
                rule.directions.iter().flatten().any(|&d| {
                    let dir = rules.direction(d);
                    g.cells()
                        .any(|s| dir.is_some_and(|dir| g.step(s, dir, r as i32).is_some()))
                })
            };
            let ranges: Vec<(Span, u32)> = block
                .fields
                .iter()
                .filter_map(|f| match &f.value {
                    CatapultField::Range(list) => Some(list),
                    _ => None,
                })
                .flatten()
                .filter_map(|n| Some((n.span, n.value?)))
                .collect();
            let dead: Vec<&(Span, u32)> = ranges.iter().filter(|&&(_, r)| !lands(r)).collect();
            if dead.is_empty() {
                continue;
            }
            let note = "a stone flies exactly its range, in a straight line: on this board no \
                        cell has a cell that far away in these directions";
            if dead.len() == ranges.len() {
                self.push(
                    Diagnostic::warning(
                        block.head,
                        "every throw of this catapult leaves the board",
                    )
                    .with_note(note)
                    .with_help("shorten `range`, or throw along the board's longer side"),
                );
            } else {
                for &&(span, r) in &dead {
                    self.push(
                        Diagnostic::warning(
                            span,
                            format!("every throw of range {r} leaves the board"),
                        )
                        .with_note(note)
                        .with_help("remove it, or throw along the board's longer side"),
                    );
                }
            }
        }
    }
}
