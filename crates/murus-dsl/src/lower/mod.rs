//! Lowering: from the syntax tree to validated [`Rules`].
//!
//! One `lower_x` per construct. Each checks what it can and records every
//! problem it finds, then carries on, so one compile reports as many errors
//! as possible. A construct whose inputs are already known to be broken (no
//! board, no stack limit, a player without a forward direction) skips the
//! checks that depend on them instead of piling up follow-on errors.
//!
//! Lowering runs in phases, one module each, in the order
//! [`Lowerer::lower_file`] calls them:
//!
//! 1. [`items`]: sort the file's statements by kind, reporting repeats;
//! 2. [`board`]: the variant's name, the board and the shared stack limit;
//! 3. [`players`]: the `player` blocks and `turns`, then each player's
//!    stack limit ([`sides`], which sorts out every `for`);
//! 4. [`setup`]: the starting stacks;
//! 5. the rule blocks, on what [`blocks`] gives them all (statements given
//!    once, heights, landing targets): [`moves`] (`sow`, `sacrifice`,
//!    `catapult`), [`outcome`] (`win`, `draw`) and [`opening`] (`opening pie`);
//! 6. [`about`]: the designer's introduction and captions;
//! 7. [`checks`]: whole-file checks on rules that passed everything else,
//!    and [`dead`]: warnings for rules that can never matter.
//!
//! Beneath them, [`cellset`] evaluates cell sets (`rank 1 - cells a1`) and
//! [`directions`] resolves direction sets per player; [`text`] words the
//! lists that messages share.

mod about;
mod blocks;
mod board;
mod cellset;
mod checks;
mod dead;
mod directions;
mod items;
mod moves;
mod opening;
mod outcome;
mod players;
mod setup;
mod sides;
mod text;

use crate::ast::*;
use crate::diagnostic::{Diagnostic, Span};
use crate::geometry::Geometry;
use crate::rules::{CatapultRule, DrawRules, Opening, PlayerRules, Rules, TurnOrder};

use players::PlayerInfo;

/// Lowers a parsed file. Returns the rules when there was no error, and every
/// diagnostic (errors and warnings) in source order. `unresolved` says that
/// some `$NAME` has no value, which was reported already: the rules may then
/// be incomplete without a lowering error.
pub(crate) fn lower(file: &RuleFile, unresolved: bool) -> (Option<Rules>, Vec<Diagnostic>) {
    let mut l = Lowerer {
        unresolved,
        ..Lowerer::default()
    };
    let rules = l.lower_file(file);
    let mut diags = l.diags;
    diags.sort_by_key(|d| d.span.start);
    let ok = !diags.iter().any(Diagnostic::is_error);
    (rules.filter(|_| ok), diags)
}

/// One lowering in progress: the diagnostics so far and what the earlier
/// phases found, for the later ones to check against.
#[derive(Default)]
struct Lowerer {
    diags: Vec<Diagnostic>,
    /// The step vectors the direction sets named so far ([`Rules::steps`]).
    steps: Vec<(i8, i8)>,
    /// Where to point for something missing from the file: the `variant`
    /// statement if there is one, else the start of the file.
    anchor: Span,
    geometry: Option<Geometry>,
    /// The stack limit heights are checked against: the shared one until
    /// the players' are known, then the highest, and in a block the
    /// highest of its players' ([`Lowerer::own`]).
    limit: Option<u8>,
    limit_span: Option<Span>,
    /// The shared `stack limit` is written but wrong (reported).
    shared_limit_broken: bool,
    /// The players whose own block is being lowered (`the Gauls (`g`)`),
    /// for messages that would otherwise speak of the whole variant.
    own_who: Option<String>,
    /// Each player's stack limit and where it is set.
    player_limits: Vec<Option<(u8, Span)>>,
    /// Players in turn order.
    players: Vec<PlayerInfo>,
    /// Two players share a letter: a letter that matches no player is then
    /// probably the one that was meant, so it is not reported again.
    duplicate_letters: bool,
    /// The `directions` statements of `sow` and `catapult`, for whole-file
    /// checks that point at them.
    sow_directions: Vec<Span>,
    /// Those of every `catapult` block, in the file's order.
    catapult_directions: Vec<Span>,
    /// For each `catapult` block, whether it made a rule (a shared one
    /// that every player replaces makes none).
    kept_catapults: Vec<bool>,
    /// `turns` that repeats players or has a first round.
    turn_order: Option<TurnOrder>,
    /// The `reduced to …` statement a player follows, for the whole-file
    /// check that no player starts reduced.
    reduced_spans: Vec<Option<Span>>,
    /// The `from` sets of the pie lines, by player.
    pie_from: [Option<Span>; 2],
    /// Some `$NAME` has no value (reported before lowering).
    unresolved: bool,
}

impl Lowerer {
    /// Runs the phases in order and assembles the rules when every one
    /// succeeded.
    fn lower_file(&mut self, file: &RuleFile) -> Option<Rules> {
        let items = self.collect_items(file);
        self.anchor = items.variant.map_or(Span::point(0), |(_, s)| s);

        let name = self.lower_variant(items.variant);
        let title = items.title.map(|(t, _)| t.value.value.clone());
        self.lower_board(items.board);
        self.lower_stack_limit(items.stack_limit);
        self.lower_players(&items.players);
        if let Some((turns, _)) = items.turns {
            self.lower_turns(turns);
        }
        self.lower_player_limits(&items.own_limits);
        let setup = self.lower_setup(items.setup);
        let sow = self.lower_sows(items.sow, &items.own_sow);
        let sacrifices = self.lower_sacrifices(items.sacrifice, &items.own_sacrifice);
        let catapults = self.lower_catapults(&items.catapults);
        // A block that failed (already reported) is taken to give its
        // moves to every player, so that `by sow` and `by throw` are not
        // reported again because of it.
        let sows = |p: usize| {
            sow.as_ref()
                .is_none_or(|s| s.iter().any(|r| r.applies_to(p)))
        };
        let has_sow: Vec<bool> = (0..self.players.len()).map(sows).collect();
        let throws = |p: usize| {
            catapults.iter().any(|c: &Option<CatapultRule>| {
                c.as_ref()
                    .is_none_or(|c| c.directions.get(p).is_some_and(|d| !d.is_empty()))
            })
        };
        let has_catapult: Vec<bool> = (0..self.players.len()).map(throws).collect();
        let win = self.lower_wins(items.win, &items.own_win, &has_sow, &has_catapult);
        let draw = items
            .draw
            .map_or(Some((DrawRules::default(), None)), |(b, _)| {
                self.lower_draw(b)
            });
        let opening = match items.opening {
            Some((b, _)) => self.lower_opening(b),
            None => Some(Opening::None),
        };
        let about = self.lower_about(items.introduction, &items.captions);

        if self.has_errors() {
            return None;
        }
        let has_players = |c: &CatapultRule| c.directions.iter().any(|d| !d.is_empty());
        self.kept_catapults = catapults
            .iter()
            .map(|c| c.as_ref().is_some_and(has_players))
            .collect();
        let catapults: Vec<Option<CatapultRule>> = catapults
            .into_iter()
            .filter(|c| c.as_ref().is_none_or(has_players))
            .collect();
        let assembled = (|| {
            let win = win?;
            let players = self
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    Some(PlayerRules {
                        name: p.name.clone(),
                        letter: p.letter?,
                        colour: p.colour?,
                        home: p.home.clone()?,
                        forward: p.forward?,
                        stack_limit: self.player_limits.get(i).copied().flatten()?.0,
                        win: win.get(i)?.clone(),
                    })
                })
                .collect::<Option<Vec<_>>>()?;
            let name = name?;
            Some(Rules {
                title: title.unwrap_or_else(|| name.clone()),
                name,
                geometry: self.geometry.clone()?,
                players,
                turn_order: self.turn_order.clone(),
                setup: setup?,
                stack_limit: self.limit?,
                sow: sow?,
                sacrifices: sacrifices?,
                catapults: catapults.iter().cloned().collect::<Option<Vec<_>>>()?,
                steps: self.steps.clone(),
                draw: draw.as_ref()?.0,
                adjudicate: draw?.1,
                opening: opening?,
                about,
            })
        })();
        if let Some(rules) = &assembled {
            self.check_homes_reachable(rules);
            self.check_pie_towers(rules);
            self.check_reduced_at_start(rules);
            self.check_dead_rules(&items, rules);
        }
        if assembled.is_none() && !self.unresolved {
            // A check failed without saying so: a compiler bug, but never a panic.
            let anchor = self.anchor;
            self.error(
                anchor,
                "internal error: the rules are incomplete but no error was reported",
            )
            .notes
            .push("please report this, with the rule file".to_string());
        }
        assembled
    }

    fn error(&mut self, span: Span, message: impl Into<String>) -> &mut Diagnostic {
        self.push(Diagnostic::error(span, message))
    }

    fn warning(&mut self, span: Span, message: impl Into<String>) -> &mut Diagnostic {
        self.push(Diagnostic::warning(span, message))
    }

    fn push(&mut self, d: Diagnostic) -> &mut Diagnostic {
        self.diags.push(d);
        let last = self.diags.len() - 1;
        &mut self.diags[last]
    }

    fn has_errors(&self) -> bool {
        self.diags.iter().any(Diagnostic::is_error)
    }

    /// A number's value, or an error when it does not fit. An unresolved
    /// parameter (`$NAME` that names no parameter) has no value either, but
    /// that was reported when resolving parameters.
    fn num(&mut self, n: &Number) -> Option<u32> {
        if n.value.is_none() && n.param.is_none() {
            self.error(n.span, "number too large")
                .notes
                .push(format!("numbers in a rule file are at most {}", u32::MAX));
        }
        n.value
    }

    /// "missing `board`" at the anchor, with an example.
    fn missing(&mut self, what: &str, example: &str) {
        let anchor = self.anchor;
        self.error(anchor, format!("missing `{what}`"))
            .notes
            .push(format!(
                "every variant declares it, for example:\n{example}"
            ));
    }

    /// An error about a height above the stack limit, labelled at the limit.
    fn over_limit(&mut self, span: Span, message: String) {
        let mut d = Diagnostic::error(span, message);
        if let Some(s) = self.limit_span {
            d = d.with_label(s, "the stack limit is set here");
        }
        self.push(d);
    }
}
