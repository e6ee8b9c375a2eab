//! The blocks that define moves: `sow`, `sacrifice` and `catapult`.

use super::Lowerer;
use super::blocks::HeightOf;
use super::items::Once;
use super::sides::with_players;
use crate::ast::*;
use crate::diagnostic::{Diagnostic, Span};
use crate::rules::{CatapultRule, MAX_CATAPULTS, SacrificeRule, SowCapture, SowRule};

/// Empties the direction lists of every player but `players`: a rule gives
/// its moves to the players it has directions for.
fn keep_only(dirs: &mut [Vec<usize>], players: &[usize]) {
    for (p, list) in dirs.iter_mut().enumerate() {
        if !players.contains(&p) {
            list.clear();
        }
    }
}

impl Lowerer {
    /// Every `sow` block: each player's rule (its own, or the shared one).
    pub(super) fn lower_sows(
        &mut self,
        shared: Once<'_, Block<SowField>>,
        own: &[&Block<SowField>],
    ) -> Option<Vec<SowRule>> {
        let heads: Vec<(&[Name], Span)> = own.iter().map(|b| (&b.players[..], b.head)).collect();
        let sides = self.sides("sow", shared.map(|(_, s)| s), &heads, false)?;
        let mut rules = Vec::new();
        let mut ok = true;
        for (block, players, is_own) in with_players(shared, own, sides) {
            match self.own(&players, is_own, |l| l.lower_sow(block)) {
                Some(mut rule) if !players.is_empty() => {
                    keep_only(&mut rule.directions, &players);
                    rules.push((players[0], rule));
                }
                Some(_) => {}
                None => ok = false,
            }
        }
        rules.sort_by_key(|&(first, _)| first);
        // Rules alike but for their players are one rule: the same game as
        // one shared `sow`.
        let mut merged: Vec<SowRule> = Vec::new();
        for (_, rule) in rules {
            let alike = |m: &&mut SowRule| {
                SowRule {
                    directions: rule.directions.clone(),
                    ..(*m).clone()
                } == rule
            };
            match merged.iter_mut().find(alike) {
                Some(m) => {
                    for (mine, theirs) in m.directions.iter_mut().zip(&rule.directions) {
                        if mine.is_empty() {
                            mine.clone_from(theirs);
                        }
                    }
                }
                None => merged.push(rule),
            }
        }
        ok.then_some(merged)
    }

    /// Every `sacrifice` block: the shared block's rules, for the players
    /// without their own, then each block of a player's own.
    pub(super) fn lower_sacrifices(
        &mut self,
        shared: Once<'_, Block<SacrificeField>>,
        own: &[&Block<SacrificeField>],
    ) -> Option<Vec<SacrificeRule>> {
        let heads: Vec<(&[Name], Span)> = own.iter().map(|b| (&b.players[..], b.head)).collect();
        let sides = self.sides("sacrifice", shared.map(|(_, s)| s), &heads, false)?;
        let mut rules = Vec::new();
        let mut ok = true;
        for (block, players, is_own) in with_players(shared, own, sides) {
            match self.own(&players, is_own, |l| l.lower_sacrifice(block, is_own)) {
                Some(list) if !players.is_empty() => {
                    rules.extend(list.into_iter().map(|mut rule| {
                        keep_only(&mut rule.directions, &players);
                        rule
                    }));
                }
                Some(_) => {}
                None => ok = false,
            }
        }
        ok.then_some(rules)
    }

    /// Every `catapult` block, in the file's order (`None` where one is
    /// wrong). A shared block that no player follows keeps no directions.
    pub(super) fn lower_catapults(
        &mut self,
        blocks: &[&Block<CatapultField>],
    ) -> Vec<Option<CatapultRule>> {
        if let Some(extra) = blocks.get(MAX_CATAPULTS) {
            self.diags.push(
                Diagnostic::error(
                    extra.head,
                    format!("more than {MAX_CATAPULTS} `catapult` blocks"),
                )
                .with_note(format!(
                    "a variant may have at most {MAX_CATAPULTS} catapults; one block may \
                     throw several ranges (`range 2, 3`)"
                )),
            );
            return vec![None; blocks.len()];
        }
        let shared_head = blocks.iter().find(|b| b.players.is_empty()).map(|b| b.head);
        let own: Vec<&Block<CatapultField>> = blocks
            .iter()
            .copied()
            .filter(|b| !b.players.is_empty())
            .collect();
        let heads: Vec<(&[Name], Span)> = own.iter().map(|b| (&b.players[..], b.head)).collect();
        let Some(sides) = self.sides("catapult", shared_head, &heads, true) else {
            return vec![None; blocks.len()];
        };
        let mut own_lists = sides.own.into_iter();
        let rules: Vec<Option<CatapultRule>> = blocks
            .iter()
            .map(|block| {
                let is_own = !block.players.is_empty();
                let players = match is_own {
                    true => own_lists.next().unwrap_or_default(),
                    false => sides.shared.clone(),
                };
                let mut rule = self.own(&players, is_own, |l| l.lower_catapult(block))?;
                keep_only(&mut rule.directions, &players);
                Some(rule)
            })
            .collect();
        self.check_catapults_overlap(blocks, &rules);
        rules
    }

    fn lower_sow(&mut self, block: &Block<SowField>) -> Option<SowRule> {
        let (mut heights, mut directions, mut onto) = (None, None, None);
        let mut on_enemy = None;
        for f in &block.fields {
            let kw = f.value.keyword();
            match &f.value {
                SowField::Heights(v) => self.first(&mut heights, v, f.span, kw, "sow"),
                SowField::Directions(v) => self.first(&mut directions, v, f.span, kw, "sow"),
                SowField::Onto(v) => self.first(&mut onto, v, f.span, kw, "sow"),
                SowField::OnEnemy(v) => self.first(&mut on_enemy, v, f.span, kw, "sow"),
            }
        }
        self.sow_directions.extend(directions.map(|(_, span)| span));
        let heights = self.require(heights, block.head, "sow", "heights", "heights 2");
        let directions = self.require(
            directions,
            block.head,
            "sow",
            "directions",
            "directions all",
        );
        let onto = self.require(onto, block.head, "sow", "onto", "onto empty, own 1");

        let heights = heights.and_then(|list| self.lower_heights(list, HeightOf::Sowing));
        let directions = directions.and_then(|set| self.lower_dirset(set));
        let onto = onto?;
        // Own and enemy targets are lowered apart: they are two lists.
        let (enemy, own): (Vec<_>, Vec<_>) = onto
            .iter()
            .cloned()
            .partition(|t| matches!(t.value, Target::Enemy(_) | Target::EnemyAny));
        let (onto_empty, onto_own) = self.lower_targets(&own)?;
        let (_, onto_enemy) = self.lower_targets(&enemy)?;
        let on_enemy = match on_enemy {
            None => Some(SowCapture::Capture),
            Some((landing, span)) => {
                if onto_enemy.is_empty() {
                    self.warning(span, "`on enemy` has no effect").notes.push(
                        "`onto` lists no `enemy H`, so no stone is ever sown onto an enemy stack"
                            .to_string(),
                    );
                }
                match &landing.value {
                    None => Some(SowCapture::Capture),
                    Some(n) => self.lower_hit(n).map(SowCapture::Remove),
                }
            }
        };
        Some(SowRule {
            heights: heights?,
            directions: directions?,
            onto_empty,
            onto_own,
            onto_enemy,
            on_enemy: on_enemy?,
        })
    }

    /// One `sacrifice` block; one of a player's own (`own`) may be empty:
    /// that player makes no sacrifice.
    fn lower_sacrifice(
        &mut self,
        block: &Block<SacrificeField>,
        own: bool,
    ) -> Option<Vec<SacrificeRule>> {
        let mut directions = None;
        for f in &block.fields {
            if let SacrificeField::Directions(set) = &f.value {
                self.first(&mut directions, set, f.span, "directions", "sacrifice");
            }
        }
        // Without `directions`, adjacency is every direction of the board.
        let directions = match directions {
            Some((set, _)) => self.lower_dirset(set),
            None => self.lower_dirset(&DirSet::All(block.head)),
        };

        let mut ok = true;
        let mut rules: Vec<(SacrificeRule, Span)> = Vec::new();
        for f in &block.fields {
            let SacrificeField::Rule(line) = &f.value else {
                continue;
            };
            let Some(rule) = self.lower_sacrifice_rule(line) else {
                ok = false;
                continue;
            };
            let key = |r: &SacrificeRule| (r.attacker, r.target, r.lose);
            if let Some(&(_, first)) = rules.iter().find(|(r, _)| key(r) == key(&rule)) {
                let (a, t, l) = key(&rule);
                self.push(
                    Diagnostic::error(
                        f.span,
                        format!("duplicate sacrifice `{a} against {t}: lose {l}`"),
                    )
                    .with_label(first, "first defined here")
                    .with_note(
                        "a sacrifice is known by its attacker, its target and the stones the \
                         attacker loses",
                    ),
                );
                ok = false;
                continue;
            }
            rules.push((rule, f.span));
        }
        if rules.is_empty() && ok && !own {
            self.warning(block.head, "this `sacrifice` block has no rules")
                .notes
                .push(
                    "add rules like `2 against 1: lose 1, remove 1`, or leave the block out"
                        .to_string(),
                );
        }
        let directions = directions?;
        ok.then(|| {
            rules
                .into_iter()
                .map(|(rule, _)| SacrificeRule {
                    directions: directions.clone(),
                    ..rule
                })
                .collect()
        })
    }

    /// `A against T: lose L, remove R`, without its directions.
    fn lower_sacrifice_rule(&mut self, line: &SacrificeLine) -> Option<SacrificeRule> {
        let attacker = self.lower_height(&line.attacker, HeightOf::Attacker);
        let target = self.lower_height(&line.target, HeightOf::SacrificeTarget);
        let lose = self.lower_taken(&line.lose, attacker, "attacker");
        let remove = self.lower_taken(&line.remove, target, "target");
        Some(SacrificeRule {
            attacker: attacker?,
            target: target?,
            lose: lose?,
            remove: remove?,
            directions: Vec::new(),
        })
    }

    /// Stones taken from a stack of height `from` by a sacrifice: at least
    /// one, at most all of them. `who` is `attacker` or `target`.
    fn lower_taken(&mut self, n: &Number, from: Option<u8>, who: &str) -> Option<u8> {
        let k = self.num(n)?;
        if k == 0 {
            self.error(
                n.span,
                format!("the {who} of a sacrifice loses at least one stone"),
            );
            return None;
        }
        let from = from?;
        if k > u32::from(from) {
            let article = if who.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            self.error(
                n.span,
                format!("{article} {who} of {from} cannot lose {k} stones"),
            )
            .notes
            .push(format!(
                "the {who} loses from 1 stone up to its whole height"
            ));
            return None;
        }
        u8::try_from(k).ok()
    }

    fn lower_catapult(&mut self, block: &Block<CatapultField>) -> Option<CatapultRule> {
        let (mut height, mut directions, mut range, mut onto) = (None, None, None, None);
        let (mut on_empty, mut on_enemy) = (None, None);
        for f in &block.fields {
            let kw = f.value.keyword();
            match &f.value {
                CatapultField::Height(v) => self.first(&mut height, v, f.span, kw, "catapult"),
                CatapultField::Directions(v) => {
                    self.first(&mut directions, v, f.span, kw, "catapult");
                }
                CatapultField::Range(v) => self.first(&mut range, v, f.span, kw, "catapult"),
                CatapultField::Onto(v) => self.first(&mut onto, v, f.span, kw, "catapult"),
                CatapultField::OnEmpty(v) => self.first(&mut on_empty, v, f.span, kw, "catapult"),
                CatapultField::OnEnemy(v) => self.first(&mut on_enemy, v, f.span, kw, "catapult"),
            }
        }
        let head = block.head;
        if let Some((_, span)) = directions {
            self.catapult_directions.push(span);
        }
        let height = self.require(height, head, "catapult", "height", "height 3");
        let directions = self.require(
            directions,
            head,
            "catapult",
            "directions",
            "directions forward-left, forward, forward-right",
        );
        let range = self.require(range, head, "catapult", "range", "range 2, 3");
        let onto = self.require(onto, head, "catapult", "onto", "onto empty, enemy any");

        let height = height.and_then(|n| self.lower_height(n, HeightOf::Catapult));
        let directions = directions.and_then(|set| self.lower_dirset(set));
        let ranges = range.and_then(|list| self.lower_ranges(list));
        // What landing does; the defaults are Advanced Murus Gallicus.
        let wall_on_empty = on_empty.is_none_or(|(w, _)| w.value);
        let hit_removes = match on_enemy {
            None => Some(1),
            Some((n, _)) => self.lower_hit(n),
        };
        let (onto_empty, onto_enemy) = onto.and_then(|targets| self.lower_targets(targets))?;
        // A landing rule for a landing `onto` does not allow does nothing.
        for (span, keyword, lands, target) in [
            (on_empty.map(|(_, s)| s), "on empty", onto_empty, "`empty`"),
            (
                on_enemy.map(|(_, s)| s),
                "on enemy",
                !onto_enemy.is_empty(),
                "`enemy H` or `enemy any`",
            ),
        ] {
            if let (Some(span), false) = (span, lands) {
                self.warning(span, format!("`{keyword}` has no effect"))
                    .notes
                    .push(format!(
                        "`onto` lists no {target}, so no stone ever lands there"
                    ));
            }
        }
        Some(CatapultRule {
            height: height?,
            directions: directions?,
            ranges: ranges?,
            onto_empty,
            onto_enemy,
            wall_on_empty,
            hit_removes: hit_removes?,
        })
    }

    /// `on enemy: remove N` (of a catapult or a sowing): from 1 to the
    /// stack limit.
    fn lower_hit(&mut self, n: &Number) -> Option<u8> {
        let k = self.num(n)?;
        let limit = self.limit?;
        if k == 0 {
            self.error(n.span, "a hit removes at least one enemy stone")
                .notes
                .push("the thrown stone always leaves the game with them".to_string());
            return None;
        }
        if k > u32::from(limit) {
            self.over_limit(
                n.span,
                format!("a hit cannot remove {k} stones: the stack limit is {limit}"),
            );
            return None;
        }
        u8::try_from(k).ok()
    }

    /// `range N, …`: from 1 to the longer side of the board, sorted.
    fn lower_ranges(&mut self, list: &[Number]) -> Option<Vec<u8>> {
        let longest = self
            .geometry
            .as_ref()?
            .width()
            .max(self.geometry.as_ref()?.height());
        let mut ok = true;
        let mut values = Vec::with_capacity(list.len());
        for n in list {
            let Some(r) = self.num(n) else {
                ok = false;
                continue;
            };
            if r == 0 {
                self.error(n.span, "a range is at least 1");
                ok = false;
            } else if r as usize > longest {
                self.error(n.span, format!("range {r} is longer than the board"))
                    .notes
                    .push(format!("on this board a range is at most {longest}"));
                ok = false;
            } else {
                values.push((r as u8, n.span));
            }
        }
        ok.then(|| self.sorted_unique(values, "range"))
    }
}
