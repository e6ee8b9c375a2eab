//! What the rule blocks share: statements given once or required, heights
//! checked against the stack limit, `onto` targets and direction sets.

use super::Lowerer;
use super::directions::resolve_dirset;
use crate::ast::*;
use crate::diagnostic::{Diagnostic, Span};

/// A block statement seen once so far, with where it was written.
type Field<'a, T> = Option<(&'a T, Span)>;

/// The kinds of height a block names, each with its own bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum HeightOf {
    /// A stack that may sow (`sow { heights … }`).
    Sowing,
    /// An own stack a sown stone may land on (`onto own H`).
    OwnTarget,
    /// An enemy stack a thrown stone may land on (`onto enemy H`).
    EnemyTarget,
    /// The stack that sacrifices (`A against …`).
    Attacker,
    /// The enemy stack a sacrifice hits (`… against T`).
    SacrificeTarget,
    /// The height that makes a catapult (`catapult { height H }`).
    Catapult,
}

impl HeightOf {
    /// The lowest allowed height.
    fn min(self) -> u32 {
        match self {
            // A sowing drops one stone on the next cell at least, and a
            // catapult throws one stone and keeps at least one.
            HeightOf::Sowing | HeightOf::Catapult => 2,
            _ => 1,
        }
    }

    /// The highest allowed height under stack limit `limit`.
    fn max(self, limit: u8) -> u32 {
        let limit = u32::from(limit);
        match self {
            // A stone lands on it, so it must be below the limit.
            HeightOf::OwnTarget => limit.saturating_sub(1),
            _ => limit,
        }
    }

    /// The message (and note) for a height below [`HeightOf::min`].
    fn too_low(self, h: u32) -> (String, Option<&'static str>) {
        match self {
            HeightOf::Sowing => (
                format!("a stack of {h} cannot sow"),
                Some("sowing moves a stack's stones one per cell, so it needs at least 2 stones"),
            ),
            HeightOf::Catapult => (
                format!("catapult height {h} is too low"),
                Some("a catapult throws one stone and keeps the rest, so it needs at least 2"),
            ),
            _ => (
                format!("a stack of height {h} does not exist"),
                Some("heights start at 1"),
            ),
        }
    }

    /// The message for a height above [`HeightOf::max`].
    fn too_high(self, h: u32, limit: u8) -> String {
        match self {
            HeightOf::Sowing => format!("sowing height {h} exceeds the stack limit of {limit}"),
            HeightOf::OwnTarget => {
                format!("an own stack of {h} cannot receive a stone: the stack limit is {limit}")
            }
            HeightOf::EnemyTarget => {
                format!("enemy stack height {h} exceeds the stack limit of {limit}")
            }
            HeightOf::Attacker => {
                format!("attacker height {h} exceeds the stack limit of {limit}")
            }
            HeightOf::SacrificeTarget => {
                format!("target height {h} exceeds the stack limit of {limit}")
            }
            HeightOf::Catapult => {
                format!("catapult height {h} exceeds the stack limit of {limit}")
            }
        }
    }
}

impl Lowerer {
    /// Resolves a direction set for every player (turn order).
    pub(super) fn lower_dirset(&mut self, set: &DirSet) -> Option<Vec<Vec<usize>>> {
        let g = self.geometry.as_ref()?;
        let players: Vec<(String, Option<usize>)> = self
            .players
            .iter()
            .map(|p| (p.name.clone(), p.forward))
            .collect();
        resolve_dirset(g, set, &players, &mut self.steps, &mut self.diags)
    }

    /// Records the first occurrence of a block statement; a second one is an
    /// error pointing back at the first.
    pub(super) fn first<'a, T>(
        &mut self,
        slot: &mut Field<'a, T>,
        value: &'a T,
        span: Span,
        keyword: &str,
        block: &str,
    ) {
        match slot {
            Some((_, first)) => {
                let first = *first;
                self.push(
                    Diagnostic::error(span, format!("duplicate `{keyword}` in `{block}`"))
                        .with_label(first, "first defined here"),
                );
            }
            None => *slot = Some((value, span)),
        }
    }

    /// A required block statement's value, or "missing `heights` in `sow`"
    /// at the block's head.
    pub(super) fn require<'a, T>(
        &mut self,
        slot: Field<'a, T>,
        head: Span,
        block: &str,
        keyword: &str,
        example: &str,
    ) -> Option<&'a T> {
        if slot.is_none() {
            self.error(head, format!("missing `{keyword}` in `{block}`"))
                .notes
                .push(format!("for example: `{example}`"));
        }
        slot.map(|(value, _)| value)
    }

    /// A height within the bounds of its kind (see [`HeightOf`]); `None`
    /// after an error, or when the stack limit is unknown (already an error).
    pub(super) fn lower_height(&mut self, n: &Number, of: HeightOf) -> Option<u8> {
        let h = self.num(n)?;
        let limit = self.limit?;
        if h < of.min() {
            let (message, note) = of.too_low(h);
            let d = self.error(n.span, message);
            if let Some(note) = note {
                d.notes.push(note.to_string());
            }
            None
        } else if h > of.max(limit) {
            self.over_limit(n.span, of.too_high(h, limit));
            None
        } else {
            u8::try_from(h).ok()
        }
    }

    /// A list of heights, sorted, repeats dropped with a warning.
    pub(super) fn lower_heights(&mut self, list: &[Number], of: HeightOf) -> Option<Vec<u8>> {
        let mut ok = true;
        let mut values = Vec::with_capacity(list.len());
        for n in list {
            match self.lower_height(n, of) {
                Some(h) => values.push((h, n.span)),
                None => ok = false,
            }
        }
        ok.then(|| self.sorted_unique(values, "height"))
    }

    /// Sorts values and drops repeats, warning about each repeat.
    pub(super) fn sorted_unique(&mut self, mut values: Vec<(u8, Span)>, what: &str) -> Vec<u8> {
        let mut seen: Vec<u8> = Vec::with_capacity(values.len());
        for (v, span) in &values {
            if seen.contains(v) {
                self.warning(*span, format!("{what} {v} is listed twice"));
            } else {
                seen.push(*v);
            }
        }
        values.sort_unstable();
        values.dedup_by_key(|(v, _)| *v);
        values.into_iter().map(|(v, _)| v).collect()
    }

    /// `onto TARGET, …` of the sow and catapult blocks: whether empty cells
    /// count, and the sorted heights of the own (sowing) or enemy (throwing)
    /// stacks that do. The grammar allows only the right kind in each block.
    pub(super) fn lower_targets(&mut self, targets: &[Spanned<Target>]) -> Option<(bool, Vec<u8>)> {
        let mut ok = true;
        let mut empty: Option<Span> = None;
        let mut heights = Vec::with_capacity(targets.len());
        for t in targets {
            let (n, of) = match &t.value {
                Target::Empty => {
                    if empty.is_some() {
                        self.warning(t.span, "`empty` is listed twice");
                    }
                    empty = Some(t.span);
                    continue;
                }
                Target::EnemyAny => {
                    let limit = self.limit.unwrap_or(0);
                    heights.extend((1..=limit).map(|h| (h, t.span)));
                    continue;
                }
                Target::Own(n) => (n, HeightOf::OwnTarget),
                Target::Enemy(n) => (n, HeightOf::EnemyTarget),
            };
            match self.lower_height(n, of) {
                Some(h) => heights.push((h, n.span)),
                None => ok = false,
            }
        }
        // `enemy 1, enemy any` repeats on purpose: no warning for those.
        heights.sort_unstable();
        let any: Vec<Span> = targets
            .iter()
            .filter(|t| t.value == Target::EnemyAny)
            .map(|t| t.span)
            .collect();
        let explicit: Vec<(u8, Span)> = heights
            .iter()
            .copied()
            .filter(|(_, s)| !any.contains(s))
            .collect();
        let mut all: Vec<u8> = self.sorted_unique(explicit, "height");
        all.extend(heights.iter().map(|(h, _)| *h));
        all.sort_unstable();
        all.dedup();
        ok.then_some((empty.is_some(), all))
    }
}
