//! Spotting each kind of figure: in the legal moves of a position (the
//! sowings, sacrifices, throws and splits, a breakthrough at once, a
//! blocked sowing), and in a move played (a player left without a move, a
//! delayed breakthrough, a hold, a reduction, a capture win, an
//! adjudication).

use murus_dsl::rules::{Adjudication, Stalemate};
use murus_engine::{Action, Move, Outcome, Position, Reason};

use super::caption::stones;
use super::play::{Finder, Key};
use super::{Figure, FigureKind, OWN_HEIGHTS, WinField, rule_index, sower_index};

impl Finder<'_> {
    /// The kinds a position's legal moves show.
    pub(super) fn look(&mut self, pos: &Position, moves: &[Move], (index, ply): (usize, usize)) {
        let v = self.v;
        let rules = v.rules();
        let mover = v.turn(pos);
        let board = v.geometry().directions().len();
        for &m in moves {
            let rank = (0, ply, index);
            let keys: Vec<(Key, u8)> = match m.action() {
                Action::Sow { direction, .. } => {
                    let rule = sower_index(rules, mover);
                    let leaps = direction >= board;
                    let drops = &v.move_cells(m)[1..];
                    let enemy = drops
                        .iter()
                        .any(|&c| v.stack(pos, c).is_some_and(|(p, _)| p != mover));
                    let own = drops
                        .iter()
                        .filter_map(|&c| v.stack(pos, c).filter(|s| s.0 == mover))
                        .map(|(_, h)| usize::from(h))
                        .max();
                    let landing = match own {
                        _ if enemy => (FigureKind::SowEnemy, rule),
                        Some(h) => (FigureKind::SowOwn, rule * OWN_HEIGHTS + h),
                        None => (FigureKind::SowEmpty, rule),
                    };
                    // Along the board's directions first, where there are.
                    let mut keys = vec![(landing, u8::from(leaps))];
                    if leaps {
                        keys.push(((FigureKind::SowStep, rule), 0));
                    }
                    keys
                }
                Action::Sacrifice { rule, .. } => vec![((FigureKind::Sacrifice, rule), 0)],
                Action::Throw { rule, .. } => vec![((FigureKind::Throw, rule), 0)],
                Action::Split { .. } => vec![((FigureKind::Pie, 0), 0)],
                Action::Swap => continue,
            };
            for (key, preference) in keys {
                let rank = (preference, ply, index);
                if self.wants(key, rank) {
                    let f = self.figure(key, pos, m, self.caption(pos, m), (index, ply));
                    self.offer(rank, f);
                }
            }
            let routes = [(0, Reason::BreakthroughSow), (1, Reason::BreakthroughThrow)];
            if routes
                .iter()
                .any(|&(r, _)| self.wants((FigureKind::Breakthrough, r), rank))
            {
                let next = v.play(pos, m);
                let won = v.outcome(&next).filter(|o| o.winner == Some(mover));
                let route = routes
                    .iter()
                    .find(|(_, r)| won.is_some_and(|o| o.reason == *r));
                if let (Some(&(route, _)), Some(o)) = (route, won) {
                    let key = (FigureKind::Breakthrough, route);
                    if self.wants(key, rank) {
                        let caption = format!(
                            "{} play {}: a stone reaches an opponent's home; {}.",
                            self.name(mover),
                            v.move_to_string(m),
                            v.describe_outcome(o)
                        );
                        let f = self.figure(key, pos, m, caption, (index, ply));
                        self.offer(rank, f);
                    }
                }
            }
        }
        self.blocked(pos, moves, (index, ply));
    }

    /// A stack of the side to move that may sow but finds a stack in its
    /// way in one of its directions (the board's edge does not count).
    fn blocked(&mut self, pos: &Position, moves: &[Move], (index, ply): (usize, usize)) {
        let v = self.v;
        let mover = v.turn(pos);
        let Some(sow) = v.rules().sow_of(mover) else {
            return;
        };
        let g = v.geometry();
        let Some(directions) = sow.directions.get(mover) else {
            return;
        };
        for from in g.cells() {
            let Some((owner, height)) = v.stack(pos, from) else {
                continue;
            };
            if owner != mover || !sow.heights.contains(&height) {
                continue;
            }
            for &d in directions {
                let Some(dir) = v.rules().direction(d) else {
                    continue;
                };
                let path: Option<Vec<usize>> = (1..=i32::from(height))
                    .map(|k| g.step(from, dir, k))
                    .collect();
                let Some(path) = path else { continue };
                let blocker = path.iter().copied().find(|&c| match v.stack(pos, c) {
                    None => !sow.onto_empty,
                    Some((p, h)) => p != mover || !sow.onto_own.contains(&h),
                });
                let Some(blocker) = blocker else { continue };
                let legal = moves.iter().any(|m| {
                    matches!(m.action(), Action::Sow { from: f, direction, .. } if f == from && direction == d)
                });
                if legal {
                    continue;
                }
                let enemy = v.stack(pos, blocker).is_some_and(|(p, _)| p != mover);
                let rank = (u8::from(!enemy), ply, index);
                if !self.wants((FigureKind::Blocked, 0), rank) {
                    continue;
                }
                let what = match v.stack(pos, blocker) {
                    None => format!(
                        "{} is empty and no stone may drop on an empty cell",
                        g.name(blocker)
                    ),
                    Some((p, h)) => format!(
                        "{} holds a {} of the {}, which stops it",
                        g.name(blocker),
                        self.stack_name(h),
                        self.name(p)
                    ),
                };
                let caption = format!(
                    "{} to move: the {} on {} cannot sow to {}; {}.",
                    self.name(mover),
                    self.stack_name(height),
                    g.name(from),
                    g.name(*path.last().unwrap_or(&blocker)),
                    what
                );
                let mut highlights = vec![from];
                highlights.extend(&path);
                self.offer(
                    rank,
                    Figure {
                        kind: FigureKind::Blocked,
                        sub: 0,
                        title: String::new(),
                        position: *pos,
                        arrow: None,
                        marks: vec![blocker],
                        highlights,
                        caption,
                        found_at: (index, ply),
                    },
                );
            }
        }
    }

    /// What a move played shows about the game's end: a player left
    /// without a move, or a delayed breakthrough.
    pub(super) fn after(
        &mut self,
        pos: &Position,
        m: Move,
        next: &Position,
        history: &[(Position, Move)],
        (index, ply): (usize, usize),
    ) {
        let v = self.v;
        let outcome = v.outcome(next);
        let players = v.player_count();
        let newly_out: Vec<usize> = (0..players)
            .filter(|&p| !v.is_out(pos, p) && v.is_out(next, p))
            .collect();
        let stuck_end =
            outcome.filter(|o| matches!(o.reason, Reason::Stalemate | Reason::Elimination));
        if stuck_end.is_some() || !newly_out.is_empty() {
            let stuck: Vec<usize> = if !newly_out.is_empty() {
                newly_out
            } else {
                match stuck_end.and_then(|o| o.winner) {
                    Some(w) if players == 2 => vec![1 - w],
                    _ => vec![v.turn(next)],
                }
            };
            let key = (
                FigureKind::Stalemate,
                rule_index(v.rules(), WinField::Stalemate, stuck[0]),
            );
            let names: Vec<String> = stuck.iter().map(|&p| self.name(p)).collect();
            let then = match stuck_end {
                Some(o) => format!("{}.", v.describe_outcome_at(o, next)),
                None if stuck
                    .iter()
                    .all(|&p| v.rules().win(p).stalemate == Stalemate::Loses) =>
                {
                    "they are out of the game and their stones stay on the board.".to_string()
                }
                None => "the game goes on.".to_string(),
            };
            let caption = format!(
                "{} play {}; then {} cannot make any move: {}",
                self.name(v.turn(pos)),
                v.move_to_string(m),
                names.join(" and "),
                then
            );
            let f = self.figure(key, pos, m, caption, (index, ply));
            self.offer((0, ply, index), f);
        }
        if let Some(o) = outcome.filter(|o| o.reason == Reason::BreakthroughDelayed) {
            self.delayed(o, history, (index, ply));
        }
        if let Some(o) = outcome.filter(|o| o.reason == Reason::Occupation) {
            self.occupied(o, history, (index, ply));
        }
        if let Some(o) = outcome.filter(|o| o.reason == Reason::Capture) {
            let rank = (0, ply, index);
            let mover = v.turn(pos);
            let key = (
                FigureKind::Capture,
                rule_index(v.rules(), WinField::Capture, mover),
            );
            if self.wants(key, rank) {
                let caption = format!(
                    "{} play {} and have taken {} in all: {}.",
                    self.name(mover),
                    v.move_to_string(m),
                    match v.taken(next, mover) {
                        1 => "an enemy stone".to_string(),
                        n => format!("{n} enemy stones"),
                    },
                    v.describe_outcome(o)
                );
                let f = self.figure(key, pos, m, caption, (index, ply));
                self.offer(rank, f);
            }
        }
        if outcome.is_none() && self.wants((FigureKind::Adjudication, 0), (0, ply, index)) {
            self.adjudicated(pos, m, next, (index, ply));
        }
        if let Some(o) = outcome.filter(|o| o.reason == Reason::Reduced) {
            let rank = (0, ply, index);
            let loser = v.turn(next);
            let key = (
                FigureKind::Reduction,
                rule_index(v.rules(), WinField::Reduction, loser),
            );
            if self.wants(key, rank) {
                let towers = (v.geometry().cells())
                    .filter(|&c| v.stack(next, c).is_some_and(|s| s.0 == loser && s.1 >= 2))
                    .count();
                let caption = format!(
                    "{} play {}; {} start their turn with {} and {} {}: {}.",
                    self.name(v.turn(pos)),
                    v.move_to_string(m),
                    self.name(loser),
                    stones(v.stone_count(next, loser).min(255) as u8),
                    towers,
                    if towers == 1 { "tower" } else { "towers" },
                    v.describe_outcome_at(o, next)
                );
                let f = self.figure(key, pos, m, caption, (index, ply));
                self.offer(rank, f);
            }
        }
    }

    /// A position that the adjudication would give to one player, were the
    /// game to reach its ply cap there: `pos` and the move `m` that led to
    /// it, the cells counted (`by stacks on …`) shaded.
    fn adjudicated(&mut self, pos: &Position, m: Move, next: &Position, at: (usize, usize)) {
        let v = self.v;
        let Some(o) = v.adjudicated(next).filter(|o| o.winner.is_some()) else {
            return;
        };
        // A count, unless the adjudication names the player it goes to.
        let count = match v.rules().adjudicate {
            Some(Adjudication::Player(_)) => String::new(),
            _ => {
                let counts: Vec<String> = (0..v.player_count())
                    .filter(|&p| !v.is_out(next, p))
                    .map(|p| {
                        let n = v.adjudication_count(next, p).unwrap_or(0);
                        format!("{} {n}", self.name(p))
                    })
                    .collect();
                format!("; the count is {}", counts.join(", "))
            }
        };
        let caption = format!(
            "{} play {}. Had the game reached its ply limit here, it would end: {}{count}.",
            self.name(v.turn(pos)),
            v.move_to_string(m),
            v.describe_outcome(o),
        );
        let mut f = self.figure((FigureKind::Adjudication, 0), pos, m, caption, at);
        if let Some(Adjudication::Stacks(cells)) = &v.rules().adjudicate {
            f.highlights = cells.clone();
        }
        self.offer((0, at.1, at.0), f);
    }

    /// A win by occupation: the winner's last move, after which it held
    /// the cells until its turn came again.
    fn occupied(&mut self, o: Outcome, history: &[(Position, Move)], (index, ply): (usize, usize)) {
        let v = self.v;
        let Some(winner) = o.winner else { return };
        let Some(occupation) = v.rules().win(winner).occupation.as_ref() else {
            return;
        };
        let Some((back, (pos, m))) = self.last_move_of(winner, history) else {
            return;
        };
        let rank = (0, back, index);
        let key = (
            FigureKind::Occupation,
            rule_index(v.rules(), WinField::Occupation, winner),
        );
        if !self.wants(key, rank) {
            return;
        }
        let g = v.geometry();
        let cells: Vec<String> = occupation.cells.iter().map(|&c| g.name(c)).collect();
        let caption = format!(
            "{} play {}: they hold at least {} of {} and still do when their turn comes again; {}.",
            self.name(winner),
            v.move_to_string(*m),
            occupation.count,
            cells.join(", "),
            v.describe_outcome(o)
        );
        let f = self.figure(key, pos, *m, caption, (index, ply));
        self.offer(rank, f);
    }

    /// A delayed breakthrough: the winner's last move, which put the
    /// stone on an opponent's home that still stood there at the start of
    /// its next turn.
    fn delayed(&mut self, o: Outcome, history: &[(Position, Move)], (index, ply): (usize, usize)) {
        let v = self.v;
        let Some(winner) = o.winner else { return };
        let Some((back, (pos, m))) = self.last_move_of(winner, history) else {
            return;
        };
        let rank = (0, back, index);
        // By a throw if the winner's last move was one.
        let route = usize::from(matches!(m.action(), Action::Throw { .. }));
        let key = (FigureKind::Breakthrough, route);
        if !self.wants(key, rank) {
            return;
        }
        let caption = format!(
            "{} play {}: a stone reaches an opponent's home and still stands there when their turn comes again; {}.",
            self.name(winner),
            v.move_to_string(*m),
            v.describe_outcome(o)
        );
        let f = self.figure(key, pos, *m, caption, (index, ply));
        self.offer(rank, f);
    }
}
