//! Clicks on the board (select, move, choose, or why nothing happens) and
//! what a move does, in words.

use murus_engine::{Action, Move};

use super::bots::Seat;
use super::{PlayModel, possessive};
use crate::board::height_name;

impl PlayModel {
    /// What a move does, for the chooser: `e4xd4: lose 1 stone, take 1`,
    /// `e4xxd4: lose both, take 2`, `d4*f6: throw 2 onto f6, knocking off 1`.
    pub fn describe_move(&self, m: Move) -> String {
        let v = &self.variant;
        let g = v.geometry();
        let pos = self.game.position();
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

    /// A click on `cell`: selects a stack, plays a move, offers a choice,
    /// paints in set-up mode, or says why nothing happens.
    pub fn click(&mut self, cell: usize) {
        if self.setup.is_some() {
            self.edit_setup(|e, v| e.paint(v, cell, e.brush()));
            return;
        }
        let name = self.variant.geometry().name(cell);
        if let Some(end) = self.ending() {
            self.feedback.info(format!(
                "the game is over ({end}): undo or start a new game"
            ));
            return;
        }
        let turn = self.turn();
        let mover = possessive(self.player_name(turn));
        if let Seat::Bot(spec) = self.seat_of_player(turn) {
            let wait = if !self.bots_may_move() {
                ": bots wait while the board shows an earlier ply (→ steps forward, \
                 \"Play on from here\" lets the bot move, in a variation)"
            } else if self.paused {
                ": bots are paused"
            } else {
                ""
            };
            self.feedback
                .info(format!("it is the {mover} bot's turn ({spec}){wait}"));
            return;
        }
        let legal = self.game.legal_moves();
        if let Some(from) = self.selected {
            let hits: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.origin() == Some(from) && m.targets().any(|t| t == cell))
                .collect();
            match hits.len() {
                0 => {}
                1 => {
                    self.play(hits[0]);
                    return;
                }
                _ => {
                    self.changed();
                    self.selected = Some(from);
                    self.choices = hits;
                    self.feedback.info(format!(
                        "{} moves go from {} to {name}: choose one",
                        self.choices.len(),
                        self.variant.geometry().name(from)
                    ));
                    return;
                }
            }
        }
        let was = self.selected;
        let origin = legal.iter().any(|m| m.origin() == Some(cell));
        self.changed();
        if origin && was != Some(cell) {
            self.selected = Some(cell);
            return;
        }
        if was == Some(cell) {
            return; // a second click on the selection deselects it
        }
        let why = match (was, self.variant.stack(self.game.position(), cell)) {
            (Some(from), _) => format!(
                "{} cannot move to {name}: its moves end on the dotted cells",
                self.variant.geometry().name(from)
            ),
            (None, None) => format!("{name} is empty: click one of the {mover} stacks to move it"),
            (None, Some((owner, h))) if owner != turn => format!(
                "{name} holds a {} {}: it is the {mover} turn",
                self.player_name(owner),
                height_name(h)
            ),
            (None, Some((_, h))) if !self.height_can_act(h) => format!(
                "the {mover} {what} on {name} cannot move: a {what} never moves in this variant",
                what = height_name(h)
            ),
            (None, Some((_, h))) => format!(
                "the {mover} {} on {name} has no legal move here",
                height_name(h)
            ),
        };
        self.feedback.info(why);
    }

    /// Whether a stack of height `h` can ever act (sow, sacrifice or throw)
    /// under the variant's rules.
    fn height_can_act(&self, h: u8) -> bool {
        let r = self.variant.rules();
        r.sow.iter().any(|s| s.heights.contains(&h))
            || r.sacrifices.iter().any(|s| s.attacker == h)
            || r.is_catapult_height(h)
    }
}
