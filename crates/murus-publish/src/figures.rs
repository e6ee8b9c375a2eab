//! The rules' own figures, found by Murus on real positions
//! ([`find_figures`]): for each kind of move the rules allow (a sowing onto
//! empty cells, a sowing onto an own stack, a blocked sowing, a sacrifice,
//! a throw, a breakthrough, a stalemate, the pie rule's split), the
//! earliest position of a few seeded playouts where it happens, with the
//! move to draw and a caption in words.
//!
//! Nothing here knows a variant: the kinds come from the compiled rules and
//! the positions from playing them, so any rules file gets its figures.

use murus_ai::{Bot, BotSpec};
use murus_dsl::ShapeKind;
use murus_dsl::rules::{Adjudication, Opening, Rules, Stalemate};
use murus_engine::util::SplitMix64;
use murus_engine::{Action, Move, Outcome, Position, Reason, Variant};

/// A kind of move the sheet draws a figure of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FigureKind {
    /// A sowing whose stones all drop on empty cells.
    SowEmpty,
    /// A sowing that drops a stone on an own stack.
    SowOwn,
    /// A stack that may sow, stopped by a stack in its way.
    Blocked,
    /// A sacrifice.
    Sacrifice,
    /// A catapult's throw.
    Throw,
    /// A move that wins by breakthrough.
    Breakthrough,
    /// A move after which a player has no move.
    Stalemate,
    /// The pie rule's first move.
    Pie,
    /// The move that wins by holding cells (`occupy`), at the start of the
    /// player's next turn.
    Occupation,
    /// A move after which a player starts its turn reduced (`reduced to`).
    Reduction,
    /// The move that takes the last stone a player's `capture` asks for.
    Capture,
    /// A move after which, were the game at its ply cap, the adjudication
    /// (`adjudicate by …`) would give it to one player.
    Adjudication,
}

impl FigureKind {
    /// Every kind, in the sheet's order.
    pub const ALL: [FigureKind; 12] = [
        FigureKind::SowEmpty,
        FigureKind::SowOwn,
        FigureKind::Blocked,
        FigureKind::Sacrifice,
        FigureKind::Throw,
        FigureKind::Breakthrough,
        FigureKind::Stalemate,
        FigureKind::Pie,
        FigureKind::Occupation,
        FigureKind::Reduction,
        FigureKind::Capture,
        FigureKind::Adjudication,
    ];

    /// The kind's name in the sheet's HTML (`data-kind`).
    pub fn id(self) -> &'static str {
        match self {
            FigureKind::SowEmpty => "sow-empty",
            FigureKind::SowOwn => "sow-own",
            FigureKind::Blocked => "blocked",
            FigureKind::Sacrifice => "sacrifice",
            FigureKind::Throw => "throw",
            FigureKind::Breakthrough => "breakthrough",
            FigureKind::Stalemate => "stalemate",
            FigureKind::Pie => "pie",
            FigureKind::Occupation => "occupation",
            FigureKind::Reduction => "reduction",
            FigureKind::Capture => "capture",
            FigureKind::Adjudication => "adjudication",
        }
    }

    /// The figure's heading.
    pub fn title(self) -> &'static str {
        match self {
            FigureKind::SowEmpty => "Sowing onto empty cells",
            FigureKind::SowOwn => "Sowing onto an own stack",
            FigureKind::Blocked => "A blocked sowing",
            FigureKind::Sacrifice => "A sacrifice",
            FigureKind::Throw => "A throw",
            FigureKind::Breakthrough => "A breakthrough",
            FigureKind::Stalemate => "No move left",
            FigureKind::Pie => "The pie rule",
            FigureKind::Occupation => "Holding the cells",
            FigureKind::Reduction => "Worn down",
            FigureKind::Capture => "The last stone taken",
            FigureKind::Adjudication => "Counted at the ply limit",
        }
    }

    /// Whether the rules allow this kind of move at all.
    pub fn allowed(self, rules: &Rules) -> bool {
        let mut sow = rules.sow.iter();
        match self {
            FigureKind::SowEmpty => sow.any(|s| s.onto_empty && !s.heights.is_empty()),
            FigureKind::SowOwn => sow.any(|s| !s.onto_own.is_empty()),
            FigureKind::Blocked => sow.any(|s| !s.heights.is_empty()),
            FigureKind::Sacrifice => !rules.sacrifices.is_empty(),
            FigureKind::Throw => !rules.catapults.is_empty(),
            FigureKind::Breakthrough => rules.wins().any(|w| w.breakthrough.is_some()),
            FigureKind::Stalemate => true,
            FigureKind::Pie => matches!(rules.opening, Opening::Pie { .. }),
            FigureKind::Occupation => rules.wins().any(|w| w.occupation.is_some()),
            FigureKind::Reduction => rules.wins().any(|w| w.reduced.is_some()),
            FigureKind::Capture => rules.wins().any(|w| w.capture.is_some()),
            FigureKind::Adjudication => rules.adjudicate.is_some(),
        }
    }
}

/// A figure: a position, what to draw on it, and its caption in words.
#[derive(Clone, Debug)]
pub struct Figure {
    pub kind: FigureKind,
    pub position: Position,
    /// The move shown (drawn as an arrow); `None` for a blocked sowing.
    pub arrow: Option<Move>,
    /// Cells with a dot: where a sowing is blocked.
    pub marks: Vec<usize>,
    /// Cells shaded: the blocked stack and its path.
    pub highlights: Vec<usize>,
    /// What the figure shows, in words.
    pub caption: String,
    /// The playout and ply it was found at.
    pub found_at: (usize, usize),
}

/// How hard [`find_figures`] looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    /// The first playout's seed; playout `i` uses `seed + i`.
    pub seed: u64,
    /// Playouts played (random, squeezing the opponent's moves, greedy,
    /// rushing forward, by turns).
    pub playouts: usize,
    /// Plies at most per playout.
    pub max_plies: usize,
}

impl Default for Search {
    fn default() -> Search {
        Search {
            seed: 1,
            playouts: 16,
            max_plies: 160,
        }
    }
}

/// The figures of `variant`, one per kind its rules allow, in
/// [`FigureKind::ALL`] order, and the allowed kinds no playout showed.
///
/// Deterministic: the same variant and search give the same figures. Each
/// is the earliest (so the smallest, clearest) position of the playouts
/// where its kind happens; a blocked sowing prefers an enemy in the way.
pub fn find_figures(variant: &Variant, search: &Search) -> (Vec<Figure>, Vec<FigureKind>) {
    let rules = variant.rules();
    let allowed: Vec<FigureKind> = FigureKind::ALL
        .into_iter()
        .filter(|k| k.allowed(rules))
        .collect();
    let mut finder = Finder {
        v: variant,
        best: Vec::new(),
        allowed: allowed.clone(),
    };
    for i in 0..search.playouts {
        finder.playout(
            i,
            search.seed.wrapping_add(i as u64),
            search.max_plies,
            false,
        );
    }
    // Kinds still missing (a player worn down takes many captures): as many
    // playouts again, one player capturing whenever it can and the others
    // never, looking for those kinds alone so that the figures found
    // already stay.
    finder
        .allowed
        .retain(|k| finder.best.iter().all(|(_, f)| f.kind != *k));
    if !finder.allowed.is_empty() {
        for i in search.playouts..2 * search.playouts {
            finder.playout(
                i,
                search.seed.wrapping_add(i as u64),
                search.max_plies,
                true,
            );
        }
    }
    let mut found = finder.best;
    found.sort_by_key(|(rank, f)| (key(f), *rank));
    let figures: Vec<Figure> = found.into_iter().map(|(_, f)| f).collect();
    let missing = allowed
        .into_iter()
        .filter(|k| figures.iter().all(|f| f.kind != *k))
        .collect();
    (figures, missing)
}

/// A candidate's rank: lower is better (preference, ply, playout).
type Rank = (u8, usize, usize);

/// What a figure shows one of: its kind, and for a throw the catapult rule
/// (a variant with several kinds of throw gets a figure of each).
fn key(f: &Figure) -> (FigureKind, usize) {
    match f.arrow.map(Move::action) {
        Some(Action::Throw { rule, .. }) => (f.kind, rule),
        _ => (f.kind, 0),
    }
}

struct Finder<'v> {
    v: &'v Variant,
    best: Vec<(Rank, Figure)>,
    allowed: Vec<FigureKind>,
}

impl Finder<'_> {
    /// Whether a candidate of `kind` with `rank` would be kept.
    fn wants(&self, kind: FigureKind, rank: Rank) -> bool {
        self.wants_key((kind, 0), rank)
    }

    /// The same for a figure's whole [`key`].
    fn wants_key(&self, key_: (FigureKind, usize), rank: Rank) -> bool {
        self.allowed.contains(&key_.0)
            && self
                .best
                .iter()
                .find(|(_, f)| key(f) == key_)
                .is_none_or(|(r, _)| rank < *r)
    }

    fn offer(&mut self, rank: Rank, figure: Figure) {
        let k = key(&figure);
        if !self.wants_key(k, rank) {
            return;
        }
        self.best.retain(|(_, f)| key(f) != k);
        self.best.push((rank, figure));
    }

    /// One playout, looking at every position on the way: by turns, random
    /// moves, moves that leave the next player the fewest moves (which
    /// find stalemates), a greedy bot's, or random forward moves (which
    /// reach an opponent's home: breakthroughs).
    /// With `captures`, player `index % players` captures whenever it can,
    /// and otherwise, like the others, plays the greedy bot's move.
    fn playout(&mut self, index: usize, seed: u64, max_plies: usize, captures: bool) {
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
                _ if captures => {
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
        let keeps = |m: &Move| {
            matches!(m.action(), Action::Sow { .. })
                && v.move_cells(*m)[1..]
                    .iter()
                    .any(|&c| v.stack(pos, c).is_some())
        };
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

    /// The kinds a position's legal moves show.
    fn look(&mut self, pos: &Position, moves: &[Move], (index, ply): (usize, usize)) {
        let v = self.v;
        let mover = v.turn(pos);
        let rank = (0, ply, index);
        for &m in moves {
            let (kind, sub) = match m.action() {
                Action::Sow { .. } => {
                    let cells = v.move_cells(m);
                    if cells[1..].iter().all(|&c| v.stack(pos, c).is_none()) {
                        (FigureKind::SowEmpty, 0)
                    } else {
                        (FigureKind::SowOwn, 0)
                    }
                }
                Action::Sacrifice { .. } => (FigureKind::Sacrifice, 0),
                Action::Throw { rule, .. } => (FigureKind::Throw, rule),
                Action::Split { .. } => (FigureKind::Pie, 0),
                Action::Swap => continue,
            };
            if self.wants_key((kind, sub), rank) {
                let caption = self.caption(kind, pos, m);
                self.offer(rank, self.figure(kind, pos, m, caption, (index, ply)));
            }
            if self.wants(FigureKind::Breakthrough, rank) {
                let next = v.play(pos, m);
                if let Some(o) = v.outcome(&next).filter(|o| {
                    matches!(
                        o.reason,
                        Reason::BreakthroughSow | Reason::BreakthroughThrow
                    ) && o.winner == Some(mover)
                }) {
                    let caption = format!(
                        "{} play {}: a stone reaches an opponent's home; {}.",
                        self.name(mover),
                        v.move_to_string(m),
                        v.describe_outcome(o)
                    );
                    let f = self.figure(FigureKind::Breakthrough, pos, m, caption, (index, ply));
                    self.offer(rank, f);
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
                if !self.wants(FigureKind::Blocked, rank) {
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
    fn after(
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
        if (stuck_end.is_some() || !newly_out.is_empty())
            && self.wants(FigureKind::Stalemate, (0, ply, index))
        {
            let stuck: Vec<usize> = if !newly_out.is_empty() {
                newly_out
            } else {
                match stuck_end.and_then(|o| o.winner) {
                    Some(w) if players == 2 => vec![1 - w],
                    _ => vec![v.turn(next)],
                }
            };
            let names: Vec<String> = stuck.iter().map(|&p| self.name(p)).collect();
            let then = match stuck_end {
                Some(o) => format!("{}.", v.describe_outcome(o)),
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
            let f = self.figure(FigureKind::Stalemate, pos, m, caption, (index, ply));
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
            if self.wants(FigureKind::Capture, rank) {
                let mover = v.turn(pos);
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
                let f = self.figure(FigureKind::Capture, pos, m, caption, (index, ply));
                self.offer(rank, f);
            }
        }
        if outcome.is_none() && self.wants(FigureKind::Adjudication, (0, ply, index)) {
            self.adjudicated(pos, m, next, (index, ply));
        }
        if let Some(o) = outcome.filter(|o| o.reason == Reason::Reduced) {
            let rank = (0, ply, index);
            if self.wants(FigureKind::Reduction, rank) {
                let loser = v.turn(next);
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
                    v.describe_outcome(o)
                );
                let f = self.figure(FigureKind::Reduction, pos, m, caption, (index, ply));
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
        let mut f = self.figure(FigureKind::Adjudication, pos, m, caption, at);
        if let Some(Adjudication::Stacks(cells)) = &v.rules().adjudicate {
            f.highlights = cells.clone();
        }
        self.offer((0, at.1, at.0), f);
    }

    /// `player`'s last move in `history`, and its ply.
    fn last_move_of<'h>(
        &self,
        player: usize,
        history: &'h [(Position, Move)],
    ) -> Option<(usize, &'h (Position, Move))> {
        (history.iter().enumerate().rev()).find(|(_, (p, _))| self.v.turn(p) == player)
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
        if !self.wants(FigureKind::Occupation, rank) {
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
        let f = self.figure(FigureKind::Occupation, pos, *m, caption, (index, ply));
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
        if !self.wants(FigureKind::Breakthrough, rank) {
            return;
        }
        let caption = format!(
            "{} play {}: a stone reaches an opponent's home and still stands there when their turn comes again; {}.",
            self.name(winner),
            v.move_to_string(*m),
            v.describe_outcome(o)
        );
        let f = self.figure(FigureKind::Breakthrough, pos, *m, caption, (index, ply));
        self.offer(rank, f);
    }

    fn figure(
        &self,
        kind: FigureKind,
        pos: &Position,
        m: Move,
        caption: String,
        found_at: (usize, usize),
    ) -> Figure {
        Figure {
            kind,
            position: *pos,
            arrow: Some(m),
            marks: Vec::new(),
            highlights: Vec::new(),
            caption,
            found_at,
        }
    }

    /// The caption of a move of `kind` (sowings, sacrifices, throws, splits).
    fn caption(&self, kind: FigureKind, pos: &Position, m: Move) -> String {
        let v = self.v;
        let g = v.geometry();
        let mover = v.turn(pos);
        let who = self.name(mover);
        let text = v.move_to_string(m);
        let height = |c: usize| v.stack(pos, c).map_or(0, |(_, h)| h);
        match m.action() {
            Action::Sow { from, .. } => {
                let cells = v.move_cells(m);
                let dropped: Vec<String> = cells[1..].iter().map(|&c| g.name(c)).collect();
                let own: Vec<String> = cells[1..]
                    .iter()
                    .filter(|&&c| v.stack(pos, c).is_some())
                    .map(|&c| {
                        format!(
                            "the {} on {} becomes {}",
                            self.stack_name(height(c)),
                            g.name(c),
                            with_article(&self.stack_name(height(c) + 1))
                        )
                    })
                    .collect();
                let base = format!(
                    "{who} play {text}: the {} on {} lifts its stones and drops one on each of {}",
                    self.stack_name(height(from)),
                    g.name(from),
                    dropped.join(" and ")
                );
                if kind == FigureKind::SowEmpty {
                    format!("{base}, all empty.")
                } else {
                    format!("{base}; {}.", own.join(", and "))
                }
            }
            Action::Sacrifice { from, target, .. } => {
                let removed = v.stones_removed(pos, m);
                let enemy = v.stack(pos, target).map_or(mover, |(p, _)| p);
                format!(
                    "{who} play {text}: the {} on {} gives up {} to take {} off the {} of the {} on {}.",
                    self.stack_name(height(from)),
                    g.name(from),
                    stones(removed.own),
                    stones(removed.enemy),
                    self.stack_name(height(target)),
                    self.name(enemy),
                    g.name(target)
                )
            }
            Action::Throw { from, to, .. } => {
                let removed = v.stones_removed(pos, m);
                let landing = match v.stack(pos, to) {
                    None if removed.own > 0 => {
                        format!("onto the empty cell {}, where it is lost", g.name(to))
                    }
                    None => format!("onto the empty cell {}", g.name(to)),
                    Some((p, h)) => format!(
                        "at the {} of the {} on {} (the thrown stone and {} of its stones leave the game)",
                        self.stack_name(h),
                        self.name(p),
                        g.name(to),
                        match removed.enemy {
                            1 => "one".to_string(),
                            n if n == h => "all".to_string(),
                            n => n.to_string(),
                        }
                    ),
                };
                format!(
                    "{who} play {text}: the catapult on {} throws a stone over everything {landing}.",
                    g.name(from)
                )
            }
            Action::Split { tower, cells } => format!(
                "{who} play {text}: instead of a normal first move, the tower on {} is split into two walls on {} and {}; the next player may then swap sides.",
                g.name(tower),
                g.name(cells.0),
                g.name(cells.1)
            ),
            Action::Swap => String::new(),
        }
    }

    fn name(&self, player: usize) -> String {
        self.v
            .rules()
            .players
            .get(player)
            .map_or_else(|| format!("player {}", player + 1), |p| p.name.clone())
    }

    /// A stack of `h` stones by its name.
    fn stack_name(&self, h: u8) -> String {
        stack_name(self.v, h)
    }
}

/// A stack of `h` stones by its name: wall, tower, catapult.
pub(crate) fn stack_name(v: &Variant, h: u8) -> String {
    match h {
        1 => "wall".into(),
        h if v.rules().is_catapult_height(h) => "catapult".into(),
        2 => "tower".into(),
        h => format!("stack of {h}"),
    }
}

fn with_article(noun: &str) -> String {
    format!("a {noun}")
}

fn stones(n: u8) -> String {
    match n {
        1 => "one stone".into(),
        2 => "two stones".into(),
        n => format!("{n} stones"),
    }
}
