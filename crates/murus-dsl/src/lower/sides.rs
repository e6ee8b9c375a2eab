//! Rules of a player's own: `for L …` after `stack limit N`, `sow`,
//! `sacrifice`, `catapult` and `win`.
//!
//! A statement or block with `for` belongs to its players alone and
//! replaces, for them, the shared one of its kind (written without `for`);
//! the other players follow the shared one. Catapults are several blocks:
//! a player named by any `catapult for` follows only the catapults given
//! to it, the others every shared `catapult`.
//!
//! While a block of one's own is lowered, the heights in it are checked
//! against its players' stack limit, and every diagnostic says whose block
//! it is ([`Lowerer::own`]).

use super::Lowerer;
use super::items::Once;
use super::text::join_and;
use crate::ast::*;
use crate::diagnostic::{Diagnostic, Span};
use crate::rules::MAX_HEIGHT;

/// Which players a block of one kind applies to.
pub(super) struct Sides {
    /// The players of each block of their own, in the order given.
    pub(super) own: Vec<Vec<usize>>,
    /// The players who follow the shared block (or have none of the kind,
    /// when there is no shared block).
    pub(super) shared: Vec<usize>,
}

/// The blocks of one kind with the players each applies to and whether it
/// is theirs alone: the shared block first, then those with `for`.
pub(super) fn with_players<'a, F>(
    shared: Once<'a, Block<F>>,
    own: &[&'a Block<F>],
    sides: Sides,
) -> Vec<(&'a Block<F>, Vec<usize>, bool)> {
    let shared = shared.map(|(b, _)| (b, sides.shared, false));
    let own = own.iter().zip(sides.own).map(|(b, list)| (*b, list, true));
    shared.into_iter().chain(own).collect()
}

impl Lowerer {
    /// "missing `KEYWORD` for the Gauls (`g`)": `players` follow a shared
    /// statement the file does not have.
    pub(super) fn missing_for(&mut self, keyword: &str, example: &str, players: &[usize]) {
        let names: Vec<String> = players
            .iter()
            .map(|&p| self.players[p].describe())
            .collect();
        let anchor = self.anchor;
        self.error(
            anchor,
            format!("missing `{keyword}` for {}", join_and(&names)),
        )
        .notes
        .push(format!(
            "add a shared `{example}`, or one with `for` for each player"
        ));
    }

    /// The players of a `for` list, in turn order. `None` when a letter
    /// names no player (reported).
    fn lower_for(&mut self, names: &[Name]) -> Option<Vec<usize>> {
        let mut out: Vec<usize> = Vec::new();
        let mut ok = true;
        for n in names {
            match self.player_index(n) {
                Some(p) if out.contains(&p) => {
                    self.warning(n.span, format!("`{}` is listed twice", n.value));
                }
                Some(p) => out.push(p),
                None => ok = false,
            }
        }
        out.sort_unstable();
        ok.then_some(out)
    }

    /// Sorts out the blocks of one kind: `shared`, the head of the block
    /// without `for` (if any), and `own`, each block with `for` (its letters
    /// and head). Unless `several` (catapults), a player given two blocks
    /// of its own is an error; a shared block that every player replaces
    /// gets a warning. `None` when a `for` list was wrong.
    pub(super) fn sides(
        &mut self,
        keyword: &str,
        shared: Option<Span>,
        own: &[(&[Name], Span)],
        several: bool,
    ) -> Option<Sides> {
        let mut lists = Vec::with_capacity(own.len());
        let mut ok = true;
        for (names, _) in own {
            match self.lower_for(names) {
                Some(list) => lists.push(list),
                None => {
                    ok = false;
                    lists.push(Vec::new());
                }
            }
        }
        let mut first: Vec<Option<Span>> = vec![None; self.players.len()];
        for (list, &(_, head)) in lists.iter().zip(own) {
            for &p in list {
                match first[p] {
                    Some(earlier) if !several => {
                        let who = self.players[p].describe();
                        self.push(
                            Diagnostic::error(head, format!("a second `{keyword}` for {who}"))
                                .with_label(earlier, "their first is here")
                                .with_note(format!(
                                    "a player has at most one `{keyword}` of its own; it \
                                     replaces the shared one"
                                )),
                        );
                        ok = false;
                    }
                    Some(_) => {}
                    None => first[p] = Some(head),
                }
            }
        }
        let followers: Vec<usize> = (0..self.players.len())
            .filter(|&p| first[p].is_none())
            .collect();
        if let (Some(head), true, true) = (shared, followers.is_empty(), ok) {
            self.warning(
                head,
                format!("this shared `{keyword}` applies to no player"),
            )
            .notes
            .push(format!(
                "every player has a `{keyword} for …` of its own, which replaces it"
            ));
        }
        ok.then_some(Sides {
            own: lists,
            shared: followers,
        })
    }

    /// Runs `f` as the lowering of a statement or block of `players`' own
    /// (`own`) or shared by them: heights are checked against the highest
    /// stack limit among them, and when the block is their own every
    /// diagnostic says so.
    pub(super) fn own<T>(
        &mut self,
        players: &[usize],
        own: bool,
        f: impl FnOnce(&mut Lowerer) -> T,
    ) -> T {
        let saved = (self.limit, self.limit_span);
        let best = players
            .iter()
            .filter_map(|&p| self.player_limits.get(p).copied().flatten())
            .max_by_key(|&(limit, _)| limit);
        if let Some((limit, span)) = best {
            self.limit = Some(limit);
            self.limit_span = Some(span);
        }
        let names: Vec<String> = players
            .iter()
            .map(|&p| self.players[p].describe())
            .collect();
        let saved_who = self.own_who.take();
        if own && !names.is_empty() {
            self.own_who = Some(join_and(&names));
        }
        let before = self.diags.len();
        let out = f(self);
        self.own_who = saved_who;
        if own && !players.is_empty() {
            let note = format!("in the rules of {} alone (`for`)", join_and(&names));
            for d in &mut self.diags[before..] {
                d.notes.push(note.clone());
            }
        }
        (self.limit, self.limit_span) = saved;
        out
    }

    /// Each player's stack limit: its own (`stack limit N for …`) or the
    /// shared one. Sets the variant's limit to the highest of them, and
    /// reports a player left without one.
    pub(super) fn lower_player_limits(&mut self, own: &[&Spanned<StackLimit>]) {
        let shared = self.limit.zip(self.limit_span);
        if shared.is_none() && !self.shared_limit_broken && own.is_empty() {
            self.missing("stack limit", "stack limit 2");
            return;
        }
        if self.players.is_empty() {
            return;
        }
        let heads: Vec<(&[Name], Span)> = own
            .iter()
            .map(|s| (s.value.players.as_slice(), s.span))
            .collect();
        let shared_head = shared.map(|(_, s)| s);
        let Some(sides) = self.sides("stack limit", shared_head, &heads, false) else {
            self.limit = None;
            return;
        };
        self.player_limits = vec![shared; self.players.len()];
        for (list, limit) in sides.own.iter().zip(own) {
            let value = self.lower_limit_value(&limit.value.limit);
            for &p in list {
                self.player_limits[p] = value.map(|v| (v, limit.span));
            }
        }
        if shared.is_none() && !self.shared_limit_broken && !sides.shared.is_empty() {
            self.missing_for("stack limit", "stack limit N", &sides.shared);
        }
        let best = self
            .player_limits
            .iter()
            .flatten()
            .max_by_key(|(l, _)| *l)
            .copied();
        (self.limit, self.limit_span) = (best.map(|b| b.0), best.map(|b| b.1));
        if self.player_limits.iter().any(Option::is_none) {
            self.limit = None;
        }
    }

    /// A stack limit's value: from 1 to [`MAX_HEIGHT`].
    pub(super) fn lower_limit_value(&mut self, n: &Number) -> Option<u8> {
        let v = self.num(n)?;
        if v == 0 {
            self.error(n.span, "stack limit 0 is too low")
                .notes
                .push("the stack limit is at least 1".to_string());
            None
        } else if v > u32::from(MAX_HEIGHT) {
            self.error(n.span, format!("stack limit {v} is too high"))
                .notes
                .push(format!("the stack limit is at most {MAX_HEIGHT}"));
            None
        } else {
            u8::try_from(v).ok()
        }
    }
}
