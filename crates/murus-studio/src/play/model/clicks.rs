//! Clicks on the board (select, move, choose, or why nothing happens): the
//! selection and the moves offered ([`BoardPick`]), and what a move does,
//! in words.

use murus_engine::{Action, Game, Move, Variant};

use super::{PlayModel, possessive};
use crate::board::height_name;
use crate::play::cursor::GameCursor;
use crate::play::seats::Seat;

/// The board's click state: the selected cell, and the moves that share
/// the clicked origin and target, offered to choose from.
#[derive(Clone, Debug, Default)]
pub struct BoardPick {
    selected: Option<usize>,
    choices: Vec<Move>,
}

impl BoardPick {
    /// The selected cell.
    pub fn selected(&self) -> Option<usize> {
        self.selected
    }
    /// The moves offered to choose from (several share the clicked cells).
    pub fn choices(&self) -> &[Move] {
        &self.choices
    }
    /// Whether `m` is one of the moves offered.
    pub fn offers(&self, m: Move) -> bool {
        self.choices.contains(&m)
    }
    /// Cells the selected stack can move to in `game`.
    pub fn targets(&self, game: &Game) -> Vec<usize> {
        let Some(from) = self.selected else {
            return Vec::new();
        };
        let mut out: Vec<usize> = game
            .legal_moves()
            .into_iter()
            .filter(|m| m.origin() == Some(from))
            .flat_map(Move::targets)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
    /// Nothing selected, nothing offered.
    pub(super) fn clear(&mut self) {
        self.selected = None;
        self.choices.clear();
    }
}

/// What a move does, for the chooser: `e4xd4: lose 1 stone, take 1`,
/// `e4xxd4: lose both, take 2`, `d4*f6: throw 2 onto f6, knocking off 1`.
pub fn describe_move(cursor: &GameCursor, m: Move) -> String {
    let v = cursor.variant();
    let g = v.geometry();
    let pos = cursor.game().position();
    let removed = v.stones_removed(pos, m);
    let what = match m.action() {
        Action::Sow { to, .. } => format!("sow up to {}", g.name(to)),
        Action::Sacrifice { from, .. } => {
            let height = v.stack(pos, from).map_or(0, |(_, h)| h);
            let lose = match (removed.own, height) {
                (own, h) if own >= h && h == 1 => "lose the wall".to_string(),
                (own, 2) if own >= 2 => "lose both".to_string(),
                (own, h) if own >= h => format!("lose all {h}"),
                (1, _) => "lose 1 stone".to_string(),
                (own, _) => format!("lose {own} stones"),
            };
            format!("{lose}, take {}", removed.enemy)
        }
        Action::Throw {
            from,
            to,
            direction,
            ..
        } => {
            let mut distance = 0;
            let mut at = from;
            while at != to && distance < 64 {
                let Some(d) = v.rules().direction(direction) else {
                    break;
                };
                let Some(next) = g.step(at, d, 1) else { break };
                at = next;
                distance += 1;
            }
            let result = if removed.enemy > 0 {
                format!(", knocking off {}", removed.enemy)
            } else if removed.own > 0 {
                ": the stone is lost".to_string()
            } else {
                ": the stone stays as a wall".to_string()
            };
            format!("throw {distance} onto {}{result}", g.name(to))
        }
        Action::Split { cells: (a, b), .. } => {
            format!("walls on {} and {}", g.name(a), g.name(b))
        }
        Action::Swap => "swap seats".to_string(),
    };
    format!("{}: {what}", v.move_to_string(m))
}

impl PlayModel {
    /// A click on `cell`: selects a stack, plays a move, offers a choice,
    /// paints in set-up mode, or says why nothing happens.
    pub fn click(&mut self, cell: usize) {
        if self.setup.is_some() {
            self.edit_setup(|e, v| e.paint(v, cell, e.brush()));
            return;
        }
        if let Some(end) = self.game.ending() {
            self.feedback.info(format!(
                "the game is over ({end}): undo or start a new game"
            ));
            return;
        }
        let c = self.game.cursor();
        let (v, game) = (c.variant(), c.game());
        let name = v.geometry().name(cell);
        let turn = c.turn();
        let mover = possessive(c.player_name(turn));
        if let Seat::Bot(spec) = self.seats.of_player(game, turn) {
            let wait = if !c.bots_may_move() {
                ": bots wait while the board shows an earlier ply (→ steps forward, \
                 \"Play on from here\" lets the bot move, in a variation)"
            } else if self.seats.is_paused() {
                ": bots are paused"
            } else {
                ""
            };
            self.feedback
                .info(format!("it is the {mover} bot's turn ({spec}){wait}"));
            return;
        }
        let legal = game.legal_moves();
        if let Some(from) = self.pick.selected {
            let hits: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.origin() == Some(from) && m.targets().any(|t| t == cell))
                .collect();
            match hits.len() {
                0 => {}
                1 => {
                    self.act(|g| g.play(hits[0]));
                    return;
                }
                n => {
                    let said = format!(
                        "{n} moves go from {} to {name}: choose one",
                        v.geometry().name(from)
                    );
                    self.changed();
                    self.pick.selected = Some(from);
                    self.pick.choices = hits;
                    self.feedback.info(said);
                    return;
                }
            }
        }
        let was = self.pick.selected;
        let origin = legal.iter().any(|m| m.origin() == Some(cell));
        let why = match (was, v.stack(game.position(), cell)) {
            _ if origin && was != Some(cell) => None,
            // A second click on the selection deselects it.
            _ if was == Some(cell) => None,
            (Some(from), _) => Some(format!(
                "{} cannot move to {name}: its moves end on the dotted cells",
                v.geometry().name(from)
            )),
            (None, None) => Some(format!(
                "{name} is empty: click one of the {mover} stacks to move it"
            )),
            (None, Some((owner, h))) if owner != turn => Some(format!(
                "{name} holds a {} {}: it is the {mover} turn",
                c.player_name(owner),
                height_name(h)
            )),
            (None, Some((_, h))) if !height_can_act(v, h) => Some(format!(
                "the {mover} {what} on {name} cannot move: a {what} never moves in this variant",
                what = height_name(h)
            )),
            (None, Some((_, h))) => Some(format!(
                "the {mover} {} on {name} has no legal move here",
                height_name(h)
            )),
        };
        self.changed();
        if origin && was != Some(cell) {
            self.pick.selected = Some(cell);
        }
        if let Some(why) = why {
            self.feedback.info(why);
        }
    }
}

/// Whether a stack of height `h` can ever act (sow, sacrifice or throw)
/// under the variant's rules.
fn height_can_act(v: &Variant, h: u8) -> bool {
    let r = v.rules();
    r.sow.iter().any(|s| s.heights.contains(&h))
        || r.sacrifices.iter().any(|s| s.attacker == h)
        || r.is_catapult_height(h)
}
