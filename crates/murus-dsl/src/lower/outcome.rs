//! How a game ends: the `win` and `draw` blocks.

use super::Lowerer;
use super::cellset::eval_cellset;
use super::items::Once;
use super::sides::with_players;
use crate::ast::*;
use crate::diagnostic::Span;
use crate::rules::{
    Adjudication, Breakthrough, DrawRules, MAX_CAPTURE, Material, Occupation, Reduction, Timing,
    WinRules,
};

impl Lowerer {
    /// Every `win` block: each player's rules (its own, or the shared
    /// ones), in turn order. `has_sow` and `has_catapult` say, per player,
    /// whether it sows or throws.
    pub(super) fn lower_wins(
        &mut self,
        shared: Once<'_, Block<WinField>>,
        own: &[&Block<WinField>],
        has_sow: &[bool],
        has_catapult: &[bool],
    ) -> Option<Vec<WinRules>> {
        let heads: Vec<(&[Name], Span)> = own.iter().map(|b| (&b.players[..], b.head)).collect();
        let sides = self.sides("win", shared.map(|(_, s)| s), &heads, false)?;
        let example = "win {\n    breakthrough immediate by sow\n    stalemate loses\n}";
        if shared.is_none() && own.is_empty() {
            self.missing("win", example);
            return None;
        }
        if shared.is_none() && !sides.shared.is_empty() {
            self.missing_for("win", "win { … }", &sides.shared);
            return None;
        }
        let blocks = with_players(shared, own, sides);
        let mut wins: Vec<Option<WinRules>> = vec![None; self.players.len()];
        self.reduced_spans = vec![None; self.players.len()];
        let mut ok = true;
        for (block, players, is_own) in blocks {
            let any = |of: &[bool]| match players.is_empty() {
                true => of.iter().any(|&x| x),
                false => players.iter().any(|&p| of.get(p).copied().unwrap_or(false)),
            };
            let (sows, throws) = (any(has_sow), any(has_catapult));
            match self.own(&players, is_own, |l| l.lower_win(block, sows, throws)) {
                Some((rules, reduced)) => {
                    for &p in &players {
                        wins[p] = Some(rules.clone());
                        self.reduced_spans[p] = reduced;
                    }
                }
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        wins.into_iter().collect()
    }

    /// One `win` block, and its `reduced to` statement if it has one.
    fn lower_win(
        &mut self,
        block: &Block<WinField>,
        has_sow: bool,
        has_catapult: bool,
    ) -> Option<(WinRules, Option<Span>)> {
        let (mut breakthrough, mut stalemate) = (None, None);
        let (mut occupy, mut reduced, mut capture) = (None, None, None);
        for f in &block.fields {
            let kw = f.value.keyword();
            match &f.value {
                WinField::Breakthrough(v) => self.first(&mut breakthrough, v, f.span, kw, "win"),
                WinField::Stalemate(v) => self.first(&mut stalemate, v, f.span, kw, "win"),
                WinField::Occupy(..) => self.first(&mut occupy, &f.value, f.span, kw, "win"),
                WinField::Reduced(..) => self.first(&mut reduced, &f.value, f.span, kw, "win"),
                WinField::Capture(..) => self.first(&mut capture, &f.value, f.span, kw, "win"),
            }
        }
        let capture = match capture {
            Some((WinField::Capture(n, material), _)) => Some(self.lower_capture(n, material)?),
            _ => None,
        };
        let occupation = match occupy {
            Some((WinField::Occupy(set, count), _)) => Some(self.lower_occupation(set, count)?),
            _ => None,
        };
        let reduced_span = reduced.map(|(_, span)| span);
        let reduced = match reduced {
            Some((WinField::Reduced(n, material), _)) => Some(Reduction {
                at_most: self.num(n)?,
                material: material.value,
            }),
            _ => None,
        };
        let stalemate = self.require(stalemate, block.head, "win", "stalemate", "stalemate loses");
        let breakthrough = match breakthrough {
            Some((clause, _)) => Some(self.lower_breakthrough(clause, has_sow, has_catapult)?),
            None => None,
        };
        let rules = WinRules {
            breakthrough,
            stalemate: stalemate?.value,
            occupation,
            reduced,
            capture,
        };
        Some((rules, reduced_span))
    }

    /// `capture N stones`: `1 <= N <= 255`, counted in stones.
    fn lower_capture(&mut self, n: &Number, material: &Spanned<Material>) -> Option<u32> {
        if material.value == Material::Towers {
            self.error(material.span, "captures are counted in stones, not towers")
                .help =
                Some("write `capture N stones`: the enemy stones a player has taken".into());
            return None;
        }
        let n = self.lower_at_least(
            n,
            1,
            "capture",
            "`capture N stones` wins when N enemy stones have been taken, so N is at least 1",
        )?;
        if n > MAX_CAPTURE {
            self.error(
                material.span,
                format!("`capture {n} stones` is more than the {MAX_CAPTURE} a rule may ask for"),
            );
            return None;
        }
        Some(n)
    }

    /// `occupy CELLSET [count K]`: a set with cells, and `1 <= K <=` its size
    /// (all of it without `count`).
    fn lower_occupation(&mut self, set: &CellSet, count: &Option<Number>) -> Option<Occupation> {
        let g = self.geometry.as_ref()?;
        let mut cells = eval_cellset(g, set, &mut self.diags)?;
        cells.sort_unstable();
        cells.dedup();
        if cells.is_empty() {
            self.error(set.span, "`occupy` names no cell on this board")
                .notes
                .push("a player wins by holding cells of this set".to_string());
            return None;
        }
        let size = cells.len() as u32;
        let count = match count {
            None => size,
            Some(n) => {
                let k = self.num(n)?;
                if k == 0 || k > size {
                    let cells_word = if size == 1 { "cell" } else { "cells" };
                    self.error(
                        n.span,
                        format!("`count {k}`, but the set has {size} {cells_word}"),
                    )
                    .notes
                    .push(format!(
                        "a player wins by holding from 1 to {size} of these cells"
                    ));
                    return None;
                }
                k
            }
        };
        Some(Occupation { cells, count })
    }

    /// `breakthrough immediate|delayed [by sow, throw]`. Without `by`, every
    /// way the variant has of dropping a stone counts.
    fn lower_breakthrough(
        &mut self,
        clause: &BreakthroughClause,
        has_sow: bool,
        has_catapult: bool,
    ) -> Option<Breakthrough> {
        let min_height = match &clause.height {
            None => 1,
            Some(n) => self.lower_breakthrough_height(n)?,
        };
        let count = match &clause.count {
            None => 1,
            Some(n) => self.lower_at_least(
                n,
                1,
                "count",
                "`count K` asks for K stones on opponents' homes at once, so K is at least 1",
            )?,
        };
        let Some(list) = &clause.by else {
            return Some(Breakthrough {
                timing: clause.timing.value,
                by_sow: has_sow,
                by_throw: has_catapult,
                min_height,
                count,
            });
        };
        let mut sow: Option<Span> = None;
        let mut throw: Option<Span> = None;
        for a in list {
            let (slot, word) = match a.value {
                Arrival::Sow => (&mut sow, "sow"),
                Arrival::Throw => (&mut throw, "throw"),
            };
            if slot.is_some() {
                self.warning(a.span, format!("`{word}` is listed twice"));
            } else {
                *slot = Some(a.span);
            }
        }
        let mut ok = true;
        for (span, present, word, block) in [
            (sow, has_sow, "sow", "sow"),
            (throw, has_catapult, "throw", "catapult"),
        ] {
            if let (Some(span), false) = (span, present) {
                let message = match &self.own_who {
                    Some(who) => format!("breakthrough `by {word}`, but {who} have no `{block}`"),
                    None => {
                        format!("breakthrough `by {word}`, but this variant has no `{block}` block")
                    }
                };
                let note = match &self.own_who {
                    Some(_) => format!("give them a `{block}`, or remove `{word}`"),
                    None => format!("add a `{block} {{ … }}` block, or remove `{word}`"),
                };
                self.error(span, message).notes.push(note);
                ok = false;
            }
        }
        // A delayed breakthrough looks at the board at the start of a turn,
        // when how a stone arrived is no longer known: it counts every
        // arrival, so a `by` list that leaves one out cannot be honoured.
        if ok && clause.timing.value == Timing::Delayed {
            let left_out = [(sow, has_sow, "sow"), (throw, has_catapult, "throw")]
                .into_iter()
                .find(|&(span, present, _)| present && span.is_none());
            if let Some((_, _, word)) = left_out {
                let span = match (list.first(), list.last()) {
                    (Some(a), Some(b)) => Span::new(a.span.start, b.span.end),
                    _ => clause.timing.span,
                };
                let e = self.error(
                    span,
                    format!("a `delayed` breakthrough counts every arrival, but `by` leaves out `{word}`"),
                );
                e.notes.push(
                    "a delayed win is judged from the board at the start of the turn, where a stone's way of arriving is not kept".into(),
                );
                e.notes.push(
                    "list every arrival the variant has, drop `by`, or use `immediate`".into(),
                );
                ok = false;
            }
        }
        ok.then_some(Breakthrough {
            timing: clause.timing.value,
            by_sow: sow.is_some(),
            by_throw: throw.is_some(),
            min_height,
            count,
        })
    }

    /// `breakthrough … height H`: from 1 to the stack limit.
    fn lower_breakthrough_height(&mut self, n: &Number) -> Option<u8> {
        let h = self.num(n)?;
        let limit = self.limit?;
        if h == 0 {
            self.error(n.span, "a breakthrough needs a stack of at least 1 stone")
                .notes
                .push(
                    "`height 1` is the same as no `height`: any stone breaks through".to_string(),
                );
            return None;
        }
        if h > u32::from(limit) {
            self.over_limit(
                n.span,
                format!("a breakthrough by a stack of {h} exceeds the stack limit of {limit}"),
            );
            return None;
        }
        u8::try_from(h).ok()
    }

    /// The draw rules, and the adjudication at the ply cap if there is one.
    pub(super) fn lower_draw(
        &mut self,
        block: &Block<DrawField>,
    ) -> Option<(DrawRules, Option<Adjudication>)> {
        let (mut repetition, mut plies, mut adjudicate) = (None, None, None);
        for f in &block.fields {
            let kw = f.value.keyword();
            match &f.value {
                DrawField::Repetition(v) => self.first(&mut repetition, v, f.span, kw, "draw"),
                DrawField::Plies(v) => self.first(&mut plies, v, f.span, kw, "draw"),
                DrawField::Adjudicate(v) => self.first(&mut adjudicate, v, f.span, kw, "draw"),
            }
        }
        let repetition = repetition.map(|(n, _)| {
            self.lower_at_least(
                n,
                2,
                "repetition",
                "`repetition N` draws when a position occurs for the Nth time, so N is at least 2",
            )
        });
        let plies = plies.map(|(n, _)| {
            self.lower_at_least(
                n,
                1,
                "plies",
                "`plies N` draws the game after N plies, so N is at least 1",
            )
        });
        let adjudication = match adjudicate {
            Some((how, _)) => Some(self.lower_adjudication(how, plies.is_some())?),
            None => None,
        };
        let draw = DrawRules {
            repetition: repetition.map_or(Some(None), |r| r.map(Some))?,
            ply_cap: plies.map_or(Some(None), |p| p.map(Some))?,
        };
        Some((draw, adjudication))
    }

    /// `adjudicate by …` or `for L`: only with a ply cap to act at, a set
    /// of `stacks on` with cells of the board, and a player that is one.
    /// A missing cap and a fault of the adjudication itself are both
    /// reported.
    fn lower_adjudication(
        &mut self,
        how: &Spanned<Adjudicate>,
        has_cap: bool,
    ) -> Option<Adjudication> {
        if !has_cap {
            self.error(how.span, "`adjudicate` without a ply cap").help = Some(
                "add `plies N` to this `draw` block: the game is adjudicated after N plies".into(),
            );
        }
        let adjudication = self.lower_adjudicate(how);
        adjudication.filter(|_| has_cap)
    }

    /// What `adjudicate` gives the game by, checked.
    fn lower_adjudicate(&mut self, how: &Spanned<Adjudicate>) -> Option<Adjudication> {
        match &how.value {
            Adjudicate::Material(m) => Some(Adjudication::Material(*m)),
            Adjudicate::For(name) => Some(Adjudication::Player(self.player_index(name)?)),
            Adjudicate::Stacks(set) => {
                let g = self.geometry.as_ref()?;
                let mut cells = eval_cellset(g, set, &mut self.diags)?;
                cells.sort_unstable();
                cells.dedup();
                if cells.is_empty() {
                    self.error(
                        set.span,
                        "`adjudicate by stacks on` names no cell on this board",
                    )
                    .notes
                    .push(
                        "the player with the most stacks on these cells wins at the ply cap"
                            .to_string(),
                    );
                    return None;
                }
                Some(Adjudication::Stacks(cells))
            }
        }
    }

    /// A count of at least `min`.
    fn lower_at_least(&mut self, n: &Number, min: u32, what: &str, why: &str) -> Option<u32> {
        let v = self.num(n)?;
        if v < min {
            self.error(n.span, format!("{what} {v} is too low"))
                .notes
                .push(why.to_string());
            return None;
        }
        Some(v)
    }
}
