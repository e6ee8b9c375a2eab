//! The playouts that look for the figures: by turns random moves, moves
//! that squeeze the next player, a greedy bot's, and moves rushing
//! forward; and the figures kept, the earliest of each kind and rule.

use murus_ai::{Bot, BotSpec};
use murus_dsl::ShapeKind;
use murus_engine::util::SplitMix64;
use murus_engine::{Action, Move, Position, Variant};

use super::{Figure, FigureKind};

/// A candidate's rank: lower is better (preference, ply, playout).
pub(super) type Rank = (u8, usize, usize);

/// A figure's kind and which of its rules it shows ([`super::Wanted`]).
pub(super) type Key = (FigureKind, usize);

pub(super) struct Finder<'v> {
    pub(super) v: &'v Variant,
    best: Vec<(Rank, Figure)>,
    /// The figures still looked for.
    wanted: Vec<Key>,
}

/// How a playout chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// By turns with the playout's number: random, squeezing the
    /// opponent's moves, greedy, rushing forward.
    ByTurns,
    /// One player capturing whenever it can, the others greedy.
    Capture,
    /// One player (by the playout's number) building on its own stacks
    /// one move in two, else moving at random as the others do.
    Build,
}

impl<'v> Finder<'v> {
    pub(super) fn new(v: &'v Variant, wanted: Vec<Key>) -> Finder<'v> {
        Finder {
            v,
            best: Vec::new(),
            wanted,
        }
    }

    /// Looks only for the figures not found yet.
    pub(super) fn keep_looking_for_missing(&mut self) {
        let best = &self.best;
        self.wanted
            .retain(|k| !best.iter().any(|(_, f)| (f.kind, f.sub) == *k));
    }

    /// Whether any figure is still looked for.
    pub(super) fn looks_for_any(&self) -> bool {
        !self.wanted.is_empty()
    }

    /// The figures kept, each with its rank and key.
    pub(super) fn found(self) -> Vec<(Rank, Key, Figure)> {
        self.best
            .into_iter()
            .map(|(r, f)| (r, (f.kind, f.sub), f))
            .collect()
    }

    /// Whether a candidate for `key` with `rank` would be kept.
    pub(super) fn wants(&self, key: Key, rank: Rank) -> bool {
        self.wanted.contains(&key)
            && self
                .best
                .iter()
                .find(|(_, f)| (f.kind, f.sub) == key)
                .is_none_or(|(r, _)| rank < *r)
    }

    pub(super) fn offer(&mut self, rank: Rank, figure: Figure) {
        let k = (figure.kind, figure.sub);
        if !self.wants(k, rank) {
            return;
        }
        self.best.retain(|(_, f)| (f.kind, f.sub) != k);
        self.best.push((rank, figure));
    }

    /// One playout, looking at every position on the way: by turns, random
    /// moves, moves that leave the next player the fewest moves (which
    /// find stalemates), a greedy bot's, or random forward moves (which
    /// reach an opponent's home: breakthroughs).
    /// With `captures`, player `index % players` captures whenever it can,
    /// and otherwise, like the others, plays the greedy bot's move.
    pub(super) fn playout(&mut self, index: usize, seed: u64, max_plies: usize, mode: Mode) {
        let v = self.v;
        let mut rng = SplitMix64(seed);
        let mut greedy = Bot::new(BotSpec::Greedy, seed);
        let mut pos = v.start();
        let mut history: Vec<(Position, Move)> = Vec::new();
        for ply in 0..max_plies {
            if v.outcome(&pos).is_some() {
                break;
            }
            let moves = v.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            self.look(&pos, &moves, (index, ply));
            let m = match index % 4 {
                // One player building on its own stacks every other move,
                // the others moving at random.
                _ if mode == Mode::Build => {
                    let builds: Vec<Move> = if v.turn(&pos) == index % v.player_count() {
                        moves
                            .iter()
                            .copied()
                            .filter(|&m| self.builds(&pos, m))
                            .collect()
                    } else {
                        Vec::new()
                    };
                    if !builds.is_empty() && rng.next() % 2 == 0 {
                        builds[(rng.next() % builds.len() as u64) as usize]
                    } else {
                        moves[(rng.next() % moves.len() as u64) as usize]
                    }
                }
                _ if mode == Mode::Capture => {
                    let hunter = v.turn(&pos) == index % v.player_count();
                    let greedy = greedy.choose(v, &pos).unwrap_or(moves[0]);
                    self.capture(&pos, &moves, hunter, &mut rng)
                        .unwrap_or(greedy)
                }
                0 => moves[(rng.next() % moves.len() as u64) as usize],
                1 => self.squeeze(&pos, &moves, &mut rng),
                2 => greedy.choose(v, &pos).unwrap_or(moves[0]),
                _ => self.rush(&pos, &moves, &mut rng),
            };
            let next = v.play(&pos, m);
            self.after(&pos, m, &next, &history, (index, ply));
            history.push((pos, m));
            pos = next;
        }
    }

    /// A random capture, if `hunt` and there is one.
    fn capture(
        &self,
        pos: &Position,
        moves: &[Move],
        hunt: bool,
        rng: &mut SplitMix64,
    ) -> Option<Move> {
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| hunt && self.v.is_capture(pos, m))
            .collect();
        (!captures.is_empty()).then(|| captures[(rng.next() % captures.len() as u64) as usize])
    }

    /// A move that heads for an opponent's home: one that wins there at
    /// once, else a random one among the sowings and throws along the
    /// mover's forward direction or next to it, those that drop a stone on
    /// an own stack (so a tower goes on) first; any move where none does.
    fn rush(&self, pos: &Position, moves: &[Move], rng: &mut SplitMix64) -> Move {
        let v = self.v;
        let mover = v.turn(pos);
        if let Some(&m) = moves.iter().find(|&&m| {
            v.outcome(&v.play(pos, m))
                .is_some_and(|o| o.winner == Some(mover) && o.reason.as_str() == "breakthrough")
        }) {
            return m;
        }
        let n = v.geometry().directions().len();
        let forward = v.rules().players.get(mover).map_or(0, |p| p.forward);
        let ahead = |m: &Move| match m.action() {
            // A step vector (past the board's directions) is ahead when it
            // gains ground forward.
            Action::Sow { direction, .. } | Action::Throw { direction, .. } if direction >= n => {
                // On the page: a hex board's ranks are shifted half a cell
                // each and closer together.
                let page = |dx: i8, dy: i8| match v.geometry().kind() {
                    ShapeKind::Rect => (f64::from(dx), f64::from(dy)),
                    ShapeKind::Hex => (
                        f64::from(dx) + f64::from(dy) / 2.0,
                        f64::from(dy) * 3f64.sqrt() / 2.0,
                    ),
                };
                let f = v.geometry().directions()[forward];
                let (fx, fy) = page(f.dx, f.dy);
                v.rules().direction(direction).is_some_and(|d| {
                    let (x, y) = page(d.dx, d.dy);
                    x * fx + y * fy > 0.0
                })
            }
            Action::Sow { direction, .. } | Action::Throw { direction, .. } => {
                let turn = (direction + n - forward) % n;
                turn == 0 || turn == 1 || turn == n - 1
            }
            _ => false,
        };
        let keeps = |m: &Move| self.builds(pos, *m);
        let best: Vec<Move> = [
            moves
                .iter()
                .copied()
                .filter(|m| ahead(m) && keeps(m))
                .collect::<Vec<_>>(),
            moves.iter().copied().filter(ahead).collect(),
            moves.to_vec(),
        ]
        .into_iter()
        .find(|c| !c.is_empty())
        .unwrap_or_default();
        best[(rng.next() % best.len() as u64) as usize]
    }

    /// Whether `m` sows a stone onto a stack (its mover's: sowing onto an
    /// enemy stack captures), so that a taller stack goes on.
    fn builds(&self, pos: &Position, m: Move) -> bool {
        matches!(m.action(), Action::Sow { .. })
            && self.v.move_cells(m)[1..]
                .iter()
                .any(|&c| self.v.stack(pos, c).is_some())
    }

    /// The move leaving the next player the fewest moves, among those that
    /// do not end the game by breakthrough where another does not.
    fn squeeze(&self, pos: &Position, moves: &[Move], rng: &mut SplitMix64) -> Move {
        let v = self.v;
        let mut best: Option<(bool, usize, u64, Move)> = None;
        for &m in moves {
            let next = v.play(pos, m);
            let wins = v.outcome(&next).is_some_and(|o| {
                o.reason.as_str() == "breakthrough" && o.winner == Some(v.turn(pos))
            });
            let key = (wins, v.legal_moves(&next).len(), rng.next(), m);
            if best.is_none_or(|b| (key.0, key.1, key.2) < (b.0, b.1, b.2)) {
                best = Some(key);
            }
        }
        best.map_or(moves[0], |b| b.3)
    }

    /// `player`'s last move in `history`, and its ply.
    pub(super) fn last_move_of<'h>(
        &self,
        player: usize,
        history: &'h [(Position, Move)],
    ) -> Option<(usize, &'h (Position, Move))> {
        (history.iter().enumerate().rev()).find(|(_, (p, _))| self.v.turn(p) == player)
    }

    /// A figure of `key` showing move `m` played from `pos`.
    pub(super) fn figure(
        &self,
        (kind, sub): Key,
        pos: &Position,
        m: Move,
        caption: String,
        found_at: (usize, usize),
    ) -> Figure {
        // A sowing by leaps shades the cells its stones drop on: the cells
        // between stay clear.
        let board = self.v.geometry().directions().len();
        let highlights = match m.action() {
            Action::Sow { direction, .. } if direction >= board => {
                self.v.move_cells(m)[1..].to_vec()
            }
            _ => Vec::new(),
        };
        Figure {
            kind,
            sub,
            title: String::new(),
            position: *pos,
            arrow: Some(m),
            marks: Vec::new(),
            highlights,
            caption,
            found_at,
        }
    }
}
