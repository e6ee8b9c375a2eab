//! Collecting items: the file's top-level statements, sorted by kind, each
//! allowed once (except `player`, `catapult` and `caption`, and the statements a `for`
//! gives players of their own, which [`super::sides`] sorts out).

use super::Lowerer;
use crate::ast::*;
use crate::diagnostic::{Diagnostic, Span};

/// A top-level item that may appear once, with the head it was written at.
pub(super) type Once<'a, T> = Option<(&'a T, Span)>;

/// The file's items, sorted by kind.
#[derive(Default)]
pub(super) struct Items<'a> {
    pub(super) variant: Once<'a, Spanned<Str>>,
    pub(super) title: Once<'a, Spanned<Str>>,
    pub(super) board: Once<'a, Spanned<Board>>,
    pub(super) players: Vec<&'a Player>,
    pub(super) turns: Once<'a, Spanned<Turns>>,
    pub(super) setup: Once<'a, Block<SetupLine>>,
    /// The shared `stack limit` (without `for`).
    pub(super) stack_limit: Once<'a, Spanned<StackLimit>>,
    /// Every `stack limit N for L …`, in the file's order.
    pub(super) own_limits: Vec<&'a Spanned<StackLimit>>,
    /// The shared `sow` block, then every `sow for L …`.
    pub(super) sow: Once<'a, Block<SowField>>,
    pub(super) own_sow: Vec<&'a Block<SowField>>,
    pub(super) sacrifice: Once<'a, Block<SacrificeField>>,
    pub(super) own_sacrifice: Vec<&'a Block<SacrificeField>>,
    /// Every `catapult` block, shared or not, in the file's order: each is
    /// one rule.
    pub(super) catapults: Vec<&'a Block<CatapultField>>,
    pub(super) win: Once<'a, Block<WinField>>,
    pub(super) own_win: Vec<&'a Block<WinField>>,
    pub(super) draw: Once<'a, Block<DrawField>>,
    pub(super) opening: Once<'a, Block<PieLine>>,
    /// The designer's words: `introduction` once, `caption` once a figure.
    pub(super) introduction: Once<'a, Spanned<Vec<Str>>>,
    pub(super) captions: Vec<&'a Spanned<Caption>>,
}

impl Lowerer {
    /// Sorts the items by kind and reports statements given twice.
    pub(super) fn collect_items<'a>(&mut self, file: &'a RuleFile) -> Items<'a> {
        fn once<'a, T>(l: &mut Lowerer, slot: &mut Once<'a, T>, value: &'a T, item: &Item) {
            match slot {
                Some((_, first)) => {
                    let first = *first;
                    l.push(
                        Diagnostic::error(item.head(), format!("duplicate `{}`", item.keyword()))
                            .with_label(first, "first defined here")
                            .with_note(format!("a variant has one `{}`", item.keyword())),
                    );
                }
                None => *slot = Some((value, item.head())),
            }
        }
        let mut items = Items::default();
        for item in &file.items {
            match item {
                Item::Variant(v) => once(self, &mut items.variant, v, item),
                Item::Title(v) => once(self, &mut items.title, v, item),
                Item::Board(v) => once(self, &mut items.board, v, item),
                Item::Player(p) => items.players.push(p),
                Item::Turns(v) => once(self, &mut items.turns, v, item),
                Item::Setup(v) => once(self, &mut items.setup, v, item),
                Item::StackLimit(v) if !v.value.players.is_empty() => items.own_limits.push(v),
                Item::StackLimit(v) => once(self, &mut items.stack_limit, v, item),
                Item::Sow(v) if !v.players.is_empty() => items.own_sow.push(v),
                Item::Sow(v) => once(self, &mut items.sow, v, item),
                Item::Sacrifice(v) if !v.players.is_empty() => items.own_sacrifice.push(v),
                Item::Sacrifice(v) => once(self, &mut items.sacrifice, v, item),
                Item::Catapult(v) => items.catapults.push(v),
                Item::Win(v) if !v.players.is_empty() => items.own_win.push(v),
                Item::Win(v) => once(self, &mut items.win, v, item),
                Item::Draw(v) => once(self, &mut items.draw, v, item),
                Item::Opening(v) => once(self, &mut items.opening, v, item),
                Item::Introduction(v) => once(self, &mut items.introduction, v, item),
                Item::Caption(v) => items.captions.push(v),
                // Resolved before lowering (`crate::params`).
                Item::Param(_) => {}
            }
        }
        items
    }
}
