//! The compiled move generator: tables built from [`Rules`], positions over
//! bitboards, legal moves, apply and outcome.
//!
//! Everything here is generic over the bitboard word `B` and monomorphised
//! for `u64` and `u128`; [`crate::Variant`] picks one and hides the choice.

use std::sync::Arc;

use murus_dsl::rules::{
    Breakthrough, MAX_HEIGHT, MAX_PLAYERS, Opening, Rules, SacrificeRule, Stalemate, Timing,
};

use crate::bits::{Bits, Shift};
use crate::draw::DrawTracker;
use crate::moves::{Move, MoveKind};

/// Highest stack height, as an array bound.
pub(crate) const MAXH: usize = MAX_HEIGHT as usize;
/// Most players, as an array bound.
pub(crate) const MAXP: usize = MAX_PLAYERS;
/// Most directions of any topology.
const MAXD: usize = 8;
/// Longest step along a direction that tables cover (26 files).
const MAXK: usize = 26;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A stone dropped by sowing reached an opponent's home.
    BreakthroughSow,
    /// A stone thrown onto an empty cell of an opponent's home.
    BreakthroughThrow,
    /// A stone still stood on an opponent's home at the start of its owner's turn.
    BreakthroughDelayed,
    /// The opponent could not act at the start of its turn.
    Stalemate,
    /// Every other player was eliminated by stalemate.
    Elimination,
    /// A position occurred for the variant's repetition limit.
    Repetition,
    /// The variant's ply cap was reached.
    PlyCap,
}

impl Reason {
    /// Every reason.
    pub const ALL: [Reason; 7] = [
        Reason::BreakthroughSow,
        Reason::BreakthroughThrow,
        Reason::BreakthroughDelayed,
        Reason::Stalemate,
        Reason::Elimination,
        Reason::Repetition,
        Reason::PlyCap,
    ];

    /// The reason written as [`Reason::as_str`] and [`Reason::by`] (as game
    /// records and lab files write it), if there is one.
    pub fn from_parts(reason: &str, by: Option<&str>) -> Option<Reason> {
        Reason::ALL
            .into_iter()
            .find(|r| r.as_str() == reason && r.by() == by)
    }

    /// `breakthrough`, `stalemate`, `elimination`, `repetition` or `ply-cap`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::BreakthroughSow | Reason::BreakthroughThrow | Reason::BreakthroughDelayed => {
                "breakthrough"
            }
            Reason::Stalemate => "stalemate",
            Reason::Elimination => "elimination",
            Reason::Repetition => "repetition",
            Reason::PlyCap => "ply-cap",
        }
    }
    /// For a breakthrough, how the stone got there: `sow`, `throw` or `delayed`.
    pub fn by(self) -> Option<&'static str> {
        match self {
            Reason::BreakthroughSow => Some("sow"),
            Reason::BreakthroughThrow => Some("throw"),
            Reason::BreakthroughDelayed => Some("delayed"),
            _ => None,
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winning player's index, or `None` for a draw.
    pub winner: Option<usize>,
    pub reason: Reason,
}

/// Where a game stands in its opening protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Phase {
    /// Normal play.
    #[default]
    Normal,
    /// Pie rule: the first player's special first action is due.
    PieOpen,
    /// Pie rule: the second player may swap or make its special first action.
    PieReply,
    /// Pie rule: seats were swapped; the second colour's special first action is due.
    PieSwapped,
}

impl Phase {
    fn index(self) -> usize {
        self as usize
    }
    /// The word a position string writes after `pie:` (`open`, `reply`,
    /// `swapped`); `None` in normal play.
    pub fn pie_word(self) -> Option<&'static str> {
        match self {
            Phase::Normal => None,
            Phase::PieOpen => Some("open"),
            Phase::PieReply => Some("reply"),
            Phase::PieSwapped => Some("swapped"),
        }
    }
}

/// The stones a move takes off the board (see
/// [`crate::Variant::stones_removed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct StonesRemoved {
    /// Stones of the player who moves.
    pub own: u8,
    /// Stones of the player whose stack it hits.
    pub enemy: u8,
}

/// A position over bitboards of width `B`.
///
/// `height[h]` holds the cells with exactly `h` stones (index 0 is unused)
/// and `owner[p]` the cells holding player `p`'s stones; stones of two
/// players never share a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pos<B: Bits> {
    pub(crate) height: [B; MAXH + 1],
    pub(crate) owner: [B; MAXP],
    pub(crate) turn: u8,
    pub(crate) phase: Phase,
    /// Eliminated players, one bit each.
    pub(crate) out: u8,
    /// A finished game's result, set by apply. Stalemate of two players is
    /// found lazily (see [`Engine::outcome`]).
    pub(crate) status: Option<Outcome>,
    pub(crate) hash: u64,
}

impl<B: Bits> Pos<B> {
    /// The player to move.
    pub fn turn(&self) -> usize {
        self.turn as usize
    }
    /// The opening phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The Zobrist hash.
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Whether player `p` has been eliminated.
    pub fn is_out(&self, p: usize) -> bool {
        self.out & (1 << p) != 0
    }
    /// The stack on `slot`: `(player, height)`.
    #[inline]
    pub fn stack(&self, slot: usize) -> Option<(usize, u8)> {
        let h = (1..=MAXH).find(|&h| self.height[h].has(slot))?;
        let p = (0..MAXP).find(|&p| self.owner[p].has(slot))?;
        Some((p, h as u8))
    }
    /// Cells with a stone of player `p`.
    pub fn stones_of(&self, p: usize) -> B {
        self.owner[p]
    }
    /// Cells with a stack of exactly `h` stones (any player).
    pub fn with_height(&self, h: u8) -> B {
        self.height.get(h as usize).copied().unwrap_or(B::EMPTY)
    }
    /// Total stones of player `p`.
    pub fn stone_count(&self, p: usize) -> u32 {
        (1..=MAXH)
            .map(|h| (self.height[h] & self.owner[p]).count() * h as u32)
            .sum()
    }
    /// Every stack as `(slot, player, height)`.
    pub(crate) fn stacks(&self) -> impl Iterator<Item = (usize, usize, u8)> + '_ {
        (0..MAXP).flat_map(move |p| {
            (1..=MAXH).flat_map(move |h| {
                (self.owner[p] & self.height[h])
                    .iter()
                    .map(move |s| (s, p, h as u8))
            })
        })
    }
    #[inline(always)]
    fn occupied(&self) -> B {
        self.owner[0] | self.owner[1] | self.owner[2] | self.owner[3]
    }
}

/// One sacrifice rule, compiled.
#[derive(Clone, Debug)]
struct Sac {
    attacker: u8,
    target: u8,
    lose: u8,
    remove: u8,
    dirs: [Dirs; MAXP],
}

/// A short list of direction indices.
#[derive(Clone, Copy, Debug, Default)]
struct Dirs {
    n: u8,
    d: [u8; MAXD],
}

impl Dirs {
    fn new(list: &[usize]) -> Dirs {
        let mut out = Dirs::default();
        for &d in list.iter().take(MAXD) {
            out.d[out.n as usize] = d as u8;
            out.n += 1;
        }
        out
    }
    #[inline(always)]
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.d[..self.n as usize].iter().map(|&d| d as usize)
    }
}

/// The compiled catapult rule.
#[derive(Clone, Debug)]
struct Cat {
    height: u8,
    dirs: [Dirs; MAXP],
    ranges: Vec<u8>,
    onto_empty: bool,
    onto_enemy: Vec<u8>,
    /// The thrown stone stays on an empty landing cell as an own wall.
    wall_on_empty: bool,
    /// Enemy stones a hit removes (at most the stack's height).
    hit_removes: u8,
}

/// A variant compiled into tables over bitboards of width `B`.
#[derive(Clone, Debug)]
pub struct Engine<B: Bits> {
    rules: Arc<Rules>,
    players: usize,
    /// Existing cells.
    board: B,
    /// Slot offset of one step in each direction.
    offset: [i32; MAXD],
    /// `shift[d][k]` moves a slot `k` steps in direction `d`.
    shift: [[Shift; MAXK + 1]; MAXD],
    /// `has[d][k]`: cells whose `k`-th step in direction `d` is a cell.
    has: [[B; MAXK + 1]; MAXD],
    /// `ray[d][h]`: cells whose steps `1..=h` in direction `d` are all cells.
    ray: [[B; MAXH + 1]; MAXD],
    /// Cells a player breaks through on: every other player's home.
    goal: [B; MAXP],
    sow_heights: Vec<u8>,
    sow_dirs: [Dirs; MAXP],
    sow_empty: bool,
    sow_own: Vec<u8>,
    sacs: Vec<Sac>,
    cat: Option<Cat>,
    breakthrough: Option<Breakthrough>,
    stalemate: Stalemate,
    pie: Option<([B; 2], [B; 2])>,
    zobrist: Vec<[[u64; MAXH + 1]; MAXP]>,
    z_turn: [u64; MAXP],
    z_phase: [u64; 4],
    z_out: [u64; MAXP],
    /// A bound on the number of legal moves in any position (see `move_bound`).
    max_moves: usize,
    /// `distance[p][k]`: cells `k` king steps from player `p`'s goal (empty
    /// when the goal is empty or unreachable).
    distance: [Vec<B>; MAXP],
    /// `near[p][k]`: cells at most `k` king steps from player `p`'s goal,
    /// from which a sowing of `k` stones may reach it.
    near: [[B; MAXH + 1]; MAXP],
}

/// SplitMix64: a fixed, seedable source for Zobrist keys.
fn splitmix(state: &mut u64) -> u64 {
    let mut g = crate::util::SplitMix64(*state);
    let z = g.next();
    *state = g.0;
    z
}

fn per_player(rules: &Rules, dirs: &[Vec<usize>]) -> [Dirs; MAXP] {
    let mut out = [Dirs::default(); MAXP];
    for (p, list) in dirs.iter().enumerate().take(rules.players.len()) {
        out[p] = Dirs::new(list);
    }
    out
}

impl<B: Bits> Engine<B> {
    /// Builds the tables. The rules must fit: `rules.geometry.slots() <= B::SLOTS`.
    pub fn new(rules: Arc<Rules>) -> Engine<B> {
        let g = &rules.geometry;
        assert!(g.slots() <= B::SLOTS, "board too wide for this bitboard");
        let set = |cells: &[usize]| cells.iter().fold(B::EMPTY, |b, &s| b | B::bit(s));
        let board = set(&g.cells().collect::<Vec<_>>());
        let mut offset = [0; MAXD];
        let mut shift = [[Shift::default(); MAXK + 1]; MAXD];
        let mut has = [[B::EMPTY; MAXK + 1]; MAXD];
        let mut ray = [[B::EMPTY; MAXH + 1]; MAXD];
        for (d, dir) in g.directions().iter().enumerate() {
            offset[d] = i32::from(dir.dx) + i32::from(dir.dy) * g.width() as i32;
            for k in 0..=MAXK {
                shift[d][k] = Shift::new(offset[d] * k as i32);
                has[d][k] = set(&g
                    .cells()
                    .filter(|&s| g.step(s, *dir, k as i32).is_some())
                    .collect::<Vec<_>>());
            }
            ray[d][0] = board;
            for h in 1..=MAXH {
                ray[d][h] = ray[d][h - 1] & has[d][h];
            }
        }
        let players = rules.players.len();
        let mut goal = [B::EMPTY; MAXP];
        for (p, slot) in goal.iter_mut().enumerate().take(players) {
            for (q, other) in rules.players.iter().enumerate() {
                if q != p {
                    *slot |= set(&other.home);
                }
            }
        }
        let (sow_heights, sow_dirs, sow_empty, sow_own) = match &rules.sow {
            Some(s) => (
                s.heights.clone(),
                per_player(&rules, &s.directions),
                s.onto_empty,
                s.onto_own.clone(),
            ),
            None => (Vec::new(), [Dirs::default(); MAXP], false, Vec::new()),
        };
        let sacs = rules
            .sacrifices
            .iter()
            .map(|r: &SacrificeRule| Sac {
                attacker: r.attacker,
                target: r.target,
                lose: r.lose,
                remove: r.remove,
                dirs: per_player(&rules, &r.directions),
            })
            .collect();
        let cat = rules.catapult.as_ref().map(|c| Cat {
            height: c.height,
            dirs: per_player(&rules, &c.directions),
            ranges: c
                .ranges
                .iter()
                .copied()
                .filter(|&r| r as usize <= MAXK)
                .collect(),
            onto_empty: c.onto_empty,
            onto_enemy: c.onto_enemy.clone(),
            wall_on_empty: c.wall_on_empty,
            hit_removes: c.hit_removes.max(1),
        });
        let pie = match &rules.opening {
            Opening::None => None,
            Opening::Pie { from, to } => {
                Some(([set(&from[0]), set(&from[1])], [set(&to[0]), set(&to[1])]))
            }
        };
        let mut seed = 0x6d75_7275_735f_7a6f; // "murus_zo"
        let zobrist = (0..g.slots())
            .map(|_| {
                let mut t = [[0; MAXH + 1]; MAXP];
                for row in &mut t {
                    for key in row.iter_mut().skip(1) {
                        *key = splitmix(&mut seed);
                    }
                }
                t
            })
            .collect();
        let mut keys = [0u64; MAXP];
        let z_turn = keys.map(|_| splitmix(&mut seed));
        let z_phase = [
            0,
            splitmix(&mut seed),
            splitmix(&mut seed),
            splitmix(&mut seed),
        ];
        keys = keys.map(|_| splitmix(&mut seed));
        let mut engine = Engine {
            players,
            board,
            offset,
            shift,
            has,
            ray,
            goal,
            sow_heights,
            sow_dirs,
            sow_empty,
            sow_own,
            sacs,
            cat,
            breakthrough: rules.win.breakthrough,
            stalemate: rules.win.stalemate,
            pie,
            zobrist,
            z_turn,
            z_phase,
            z_out: keys,
            max_moves: 0,
            distance: Default::default(),
            near: [[B::EMPTY; MAXH + 1]; MAXP],
            rules,
        };
        engine.max_moves = engine.move_bound();
        for p in 0..players {
            engine.distance[p] = engine.distance_masks(engine.goal[p]);
            let mut near = B::EMPTY;
            for k in 0..=MAXH {
                near |= engine.distance[p].get(k).copied().unwrap_or(B::EMPTY);
                engine.near[p][k] = near;
            }
        }
        engine
    }

    /// Cells by king-step distance from `goal` (breadth-first over every
    /// direction of the board).
    fn distance_masks(&self, goal: B) -> Vec<B> {
        let mut out = Vec::new();
        let mut seen = goal;
        let mut ring = goal;
        while !ring.is_empty() {
            out.push(ring);
            let next = self.neighbours(ring) & !seen;
            seen |= next;
            ring = next;
        }
        out
    }

    /// Cells one step from any cell of `set`, in any direction of the board.
    #[inline]
    pub fn neighbours(&self, set: B) -> B {
        let mut out = B::EMPTY;
        for d in 0..self.rules.geometry.directions().len() {
            out |= self.shift[d][1].fwd(set & self.has[d][1]);
        }
        out & self.board
    }

    /// `masks[k]`: the cells `k` king steps from player `p`'s goal (the other
    /// players' homes). Empty for a player without a goal.
    pub fn goal_distance_masks(&self, p: usize) -> &[B] {
        &self.distance[p]
    }

    /// Number of legal actions player `p` would have in `pos` if it were its
    /// turn (normal play; for evaluation).
    pub fn count_moves_for(&self, pos: &Pos<B>, p: usize) -> u64 {
        let mut view = *pos;
        view.turn = p as u8;
        view.phase = Phase::Normal;
        view.status = None;
        self.count_moves(&view)
    }

    /// Whether player `p`, were it to act now in normal play, has a sowing
    /// or a throw that drops a stone on its goal in a way the breakthrough
    /// rule counts. Under an immediate breakthrough that is a win in one;
    /// under a delayed one, a stone that wins at the start of `p`'s next turn
    /// unless it is taken first. For the search's threat checks: cheap, from
    /// bitboards, without listing moves.
    pub fn threatens_breakthrough(&self, pos: &Pos<B>, p: usize) -> bool {
        let Some(b) = self.breakthrough else {
            return false;
        };
        let goal = self.goal[p] & self.board;
        if goal.is_empty() || pos.status.is_some() || pos.phase != Phase::Normal {
            return false;
        }
        let own = pos.owner[p];
        let occupied = pos.occupied();
        let empty = self.board & !occupied;
        let near_sowers = self.sow_heights.iter().fold(B::EMPTY, |acc, &h| {
            acc | pos.height[h as usize] & self.near[p][h as usize]
        });
        if b.by_sow && !(own & near_sowers).is_empty() {
            let mut land = if self.sow_empty { empty } else { B::EMPTY };
            for &h in &self.sow_own {
                land |= own & pos.height[h as usize];
            }
            for &h in &self.sow_heights {
                let sowers = own & pos.height[h as usize] & self.near[p][h as usize];
                if sowers.is_empty() {
                    continue;
                }
                for d in self.sow_dirs[p].iter() {
                    let mut src = sowers & self.ray[d][h as usize];
                    let mut reach = B::EMPTY;
                    for k in 1..=h as usize {
                        src &= self.shift[d][k].back(land);
                        reach |= self.shift[d][k].back(goal);
                    }
                    if !(src & reach).is_empty() {
                        return true;
                    }
                }
            }
        }
        if let Some(cat) = &self.cat {
            if b.by_throw && cat.onto_empty && cat.wall_on_empty {
                let catapults = own & pos.height[cat.height as usize];
                let land = empty & goal;
                if !catapults.is_empty() && !land.is_empty() {
                    for d in cat.dirs[p].iter() {
                        for &r in &cat.ranges {
                            let r = r as usize;
                            if !(catapults & self.has[d][r] & self.shift[d][r].back(land))
                                .is_empty()
                            {
                                return true;
                            }
                        }
                    }
                }
            }
        }
        false
    }

    /// Whether a breakthrough wins the moment the stone lands (not at the
    /// start of the player's next turn).
    pub fn breakthrough_is_immediate(&self) -> bool {
        self.breakthrough
            .is_some_and(|b| b.timing == Timing::Immediate)
    }

    /// A bound on the legal moves of any position, used to size move lists:
    /// every cell holds one stack, which can act in at most every direction
    /// with every rule, plus the pie rule's splits (towers × pairs) and swap.
    fn move_bound(&self) -> usize {
        let cells = self.board.count() as usize;
        let dirs = self.rules.geometry.directions().len();
        let per_cell = dirs
            * (self.sow_heights.len()
                + self.sacs.len()
                + self.cat.as_ref().map_or(0, |c| c.ranges.len()));
        let pie = self.pie.map_or(0, |(from, to)| {
            let t = from[0].count().max(from[1].count()) as usize;
            let k = to[0].count().max(to[1].count()) as usize;
            t * k * k.saturating_sub(1) / 2 + 1
        });
        cells * per_cell + pie
    }

    /// The rules this engine was compiled from.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// An empty move list with room for any position's moves.
    pub fn move_list(&self) -> Vec<Move> {
        Vec::with_capacity(self.max_moves)
    }

    /// The existing cells.
    pub fn board(&self) -> B {
        self.board
    }

    /// The start position of the rules.
    pub fn start(&self) -> Pos<B> {
        let mut stacks = Vec::new();
        for &(s, p, h) in &self.rules.setup {
            stacks.push((s, p, h));
        }
        let phase = if self.pie.is_some() {
            Phase::PieOpen
        } else {
            Phase::Normal
        };
        self.make(&stacks, 0, phase, 0, None)
    }

    /// Builds a position from stacks `(slot, player, height)`, then runs the
    /// start-of-turn checks; `won` marks a game already won. The caller has
    /// validated the stacks.
    pub(crate) fn make(
        &self,
        stacks: &[(usize, usize, u8)],
        turn: usize,
        phase: Phase,
        out: u8,
        won: Option<Outcome>,
    ) -> Pos<B> {
        let mut pos = Pos {
            height: [B::EMPTY; MAXH + 1],
            owner: [B::EMPTY; MAXP],
            turn: turn as u8,
            phase,
            out,
            status: None,
            hash: 0,
        };
        for &(s, p, h) in stacks {
            pos.height[h as usize] |= B::bit(s);
            pos.owner[p] |= B::bit(s);
        }
        pos.hash = self.hash_of(&pos);
        self.begin_turn(&mut pos);
        if won.is_some() {
            pos.status = won;
        }
        pos
    }

    /// The Zobrist hash computed from scratch (the reference for the
    /// incremental one).
    pub fn hash_of(&self, pos: &Pos<B>) -> u64 {
        let mut h = self.z_turn[pos.turn as usize] ^ self.z_phase[pos.phase.index()];
        for p in 0..self.players {
            if pos.is_out(p) {
                h ^= self.z_out[p];
            }
            for height in 1..=MAXH {
                for s in (pos.owner[p] & pos.height[height]).iter() {
                    h ^= self.zobrist[s][p][height];
                }
            }
        }
        h
    }

    /// Cells a player breaks through on.
    pub fn goal(&self, p: usize) -> B {
        self.goal[p]
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    #[inline(always)]
    fn height_at(&self, pos: &Pos<B>, s: usize) -> u8 {
        let b = B::bit(s);
        for h in 1..=self.rules.stack_limit as usize {
            if !(pos.height[h] & b).is_empty() {
                return h as u8;
            }
        }
        0
    }

    /// Changes the stack of player `p` on `s` from `old` to `new` stones,
    /// keeping the hash up to date. `old` and `new` differ.
    #[inline(always)]
    fn restack(&self, pos: &mut Pos<B>, s: usize, p: usize, old: u8, new: u8) {
        let b = B::bit(s);
        let z = &self.zobrist[s][p];
        if old > 0 {
            pos.height[old as usize] ^= b;
            pos.hash ^= z[old as usize];
        } else {
            pos.owner[p] |= b;
        }
        if new > 0 {
            pos.height[new as usize] ^= b;
            pos.hash ^= z[new as usize];
        } else {
            pos.owner[p] ^= b;
        }
    }

    /// Feeds the legal moves of `pos` to `sink`, in batches where possible.
    #[inline(always)]
    pub(crate) fn generate<S: Sink<B>>(&self, pos: &Pos<B>, sink: &mut S) {
        if pos.status.is_some() {
            return;
        }
        if pos.phase != Phase::Normal {
            self.generate_pie(pos, sink);
            return;
        }
        let p = pos.turn as usize;
        let own = pos.owner[p];
        let occupied = pos.occupied();
        let empty = self.board & !occupied;
        let enemy = occupied & !own;

        if !self.sow_heights.is_empty() {
            let mut land = if self.sow_empty { empty } else { B::EMPTY };
            for &h in &self.sow_own {
                land |= own & pos.height[h as usize];
            }
            for &h in &self.sow_heights {
                let sowers = own & pos.height[h as usize];
                if sowers.is_empty() {
                    continue;
                }
                for d in self.sow_dirs[p].iter() {
                    let mut src = sowers & self.ray[d][h as usize];
                    for k in 1..=h as usize {
                        src &= self.shift[d][k].back(land);
                    }
                    sink.batch(MoveKind::Sow, src, self.offset[d] * i32::from(h), d as u8);
                }
            }
        }

        for (i, sac) in self.sacs.iter().enumerate() {
            let attackers = own & pos.height[sac.attacker as usize];
            if attackers.is_empty() {
                continue;
            }
            let targets = enemy & pos.height[sac.target as usize];
            if targets.is_empty() {
                continue;
            }
            for d in sac.dirs[p].iter() {
                let src = attackers & self.has[d][1] & self.shift[d][1].back(targets);
                sink.batch(MoveKind::Sacrifice, src, self.offset[d], i as u8);
            }
        }

        if let Some(cat) = &self.cat {
            let catapults = own & pos.height[cat.height as usize];
            if !catapults.is_empty() {
                let mut land = if cat.onto_empty { empty } else { B::EMPTY };
                for &h in &cat.onto_enemy {
                    land |= enemy & pos.height[h as usize];
                }
                for d in cat.dirs[p].iter() {
                    for &r in &cat.ranges {
                        let r = r as usize;
                        let src = catapults & self.has[d][r] & self.shift[d][r].back(land);
                        sink.batch(MoveKind::Throw, src, self.offset[d] * r as i32, d as u8);
                    }
                }
            }
        }
    }

    fn generate_pie<S: Sink<B>>(&self, pos: &Pos<B>, sink: &mut S) {
        let Some((from, to)) = self.pie else { return };
        let p = pos.turn as usize;
        let towers = pos.owner[p] & pos.height[2] & from[p.min(1)];
        let targets = to[p.min(1)] & self.board & !pos.occupied();
        if S::COUNT_ONLY {
            let k = u64::from(targets.count());
            sink.add(u64::from(towers.count()) * (k * k.saturating_sub(1) / 2));
        } else {
            for t in towers.iter() {
                for a in targets.iter() {
                    for b in targets.iter().filter(|&b| b > a) {
                        sink.push(Move::new(MoveKind::Split, t, a, b as u8));
                    }
                }
            }
        }
        if pos.phase == Phase::PieReply {
            sink.push(Move::SWAP);
        }
    }

    /// Appends the legal moves of `pos` to `moves`.
    pub fn legal_moves(&self, pos: &Pos<B>, moves: &mut Vec<Move>) {
        self.generate(pos, moves);
    }

    /// Number of legal moves of `pos`, counted in bulk.
    pub fn count_moves(&self, pos: &Pos<B>) -> u64 {
        let mut c = Counter(0);
        self.generate(pos, &mut c);
        c.0
    }

    /// Plays a legal move of `pos`.
    #[inline]
    pub fn apply(&self, pos: &mut Pos<B>, m: Move) {
        let p = pos.turn as usize;
        let from = m.from as usize;
        let to = m.to as usize;
        match m.kind {
            MoveKind::Sow => {
                let h = self.height_at(pos, from);
                self.restack(pos, from, p, h, 0);
                let step = self.offset[m.aux as usize];
                let mut landed = B::EMPTY;
                let mut s = from as i32;
                for _ in 0..h {
                    s += step;
                    let c = self.height_at(pos, s as usize);
                    self.restack(pos, s as usize, p, c, c + 1);
                    landed |= B::bit(s as usize);
                }
                if let Some(b) = self.breakthrough {
                    if b.timing == Timing::Immediate
                        && b.by_sow
                        && !(landed & self.goal[p]).is_empty()
                    {
                        pos.status = Some(Outcome {
                            winner: Some(p),
                            reason: Reason::BreakthroughSow,
                        });
                    }
                }
            }
            MoveKind::Sacrifice => {
                let sac = &self.sacs[m.aux as usize];
                let (a, t) = (sac.attacker, sac.target);
                let (lose, remove) = (sac.lose, sac.remove);
                self.restack(pos, from, p, a, a - lose);
                let q = self.owner_at(pos, to);
                self.restack(pos, to, q, t, t - remove);
            }
            MoveKind::Throw => {
                let h = self.height_at(pos, from);
                self.restack(pos, from, p, h, h - 1);
                let c = self.height_at(pos, to);
                let (wall, hit) = self.landing();
                if c == 0 && !wall {
                    // `on empty: lost`: the stone leaves the game.
                } else if c == 0 {
                    self.restack(pos, to, p, 0, 1);
                    if let Some(b) = self.breakthrough {
                        if b.timing == Timing::Immediate && b.by_throw && self.goal[p].has(to) {
                            pos.status = Some(Outcome {
                                winner: Some(p),
                                reason: Reason::BreakthroughThrow,
                            });
                        }
                    }
                } else {
                    let q = self.owner_at(pos, to);
                    self.restack(pos, to, q, c, c - hit.min(c));
                }
            }
            MoveKind::Split => {
                self.restack(pos, from, p, 2, 0);
                self.restack(pos, to, p, 0, 1);
                self.restack(pos, m.aux as usize, p, 0, 1);
            }
            MoveKind::Swap => {
                self.set_phase(pos, Phase::PieSwapped);
                return;
            }
        }
        // The turn passes even when the move ended the game, as in chess:
        // after a breakthrough the loser is "to move" and has no moves.
        match pos.phase {
            Phase::Normal => {
                let next = self.next_player(pos, p);
                self.set_turn(pos, next);
            }
            Phase::PieOpen => {
                self.set_phase(pos, Phase::PieReply);
                self.set_turn(pos, 1);
            }
            Phase::PieReply | Phase::PieSwapped => {
                self.set_phase(pos, Phase::Normal);
                self.set_turn(pos, 0);
            }
        }
        if pos.status.is_none() {
            self.begin_turn(pos);
        }
    }

    /// What a thrown stone does: whether it stays as a wall on an empty
    /// cell, and how many enemy stones a hit removes. Only a variant with
    /// throws has throw moves, so the default never plays.
    #[inline(always)]
    fn landing(&self) -> (bool, u8) {
        self.cat
            .as_ref()
            .map_or((true, 1), |cat| (cat.wall_on_empty, cat.hit_removes))
    }

    #[inline(always)]
    fn owner_at(&self, pos: &Pos<B>, s: usize) -> usize {
        (0..self.players)
            .find(|&q| pos.owner[q].has(s))
            .unwrap_or(0)
    }

    fn set_phase(&self, pos: &mut Pos<B>, phase: Phase) {
        pos.hash ^= self.z_phase[pos.phase.index()] ^ self.z_phase[phase.index()];
        pos.phase = phase;
    }

    #[inline(always)]
    fn set_turn(&self, pos: &mut Pos<B>, p: usize) {
        pos.hash ^= self.z_turn[pos.turn as usize] ^ self.z_turn[p];
        pos.turn = p as u8;
    }

    /// The next player after `p` still in the game.
    #[inline(always)]
    fn next_player(&self, pos: &Pos<B>, p: usize) -> usize {
        let mut q = p;
        for _ in 0..self.players {
            q += 1;
            if q == self.players {
                q = 0;
            }
            if !pos.is_out(q) {
                return q;
            }
        }
        p
    }

    /// Start-of-turn rules: a delayed breakthrough wins now; with more than
    /// two players, a player who cannot act is eliminated.
    #[inline(always)]
    fn begin_turn(&self, pos: &mut Pos<B>) {
        loop {
            let p = pos.turn as usize;
            if self.players > 2 && (0..self.players).filter(|&q| !pos.is_out(q)).count() <= 1 {
                // The last player able to act has won; it stays "to move".
                pos.status = Some(Outcome {
                    winner: Some(p),
                    reason: Reason::Elimination,
                });
                return;
            }
            if let Some(b) = self.breakthrough {
                if b.timing == Timing::Delayed && !(pos.owner[p] & self.goal[p]).is_empty() {
                    pos.status = Some(Outcome {
                        winner: Some(p),
                        reason: Reason::BreakthroughDelayed,
                    });
                    return;
                }
            }
            if self.players <= 2 || self.stalemate != Stalemate::Loses || self.count_moves(pos) > 0
            {
                return;
            }
            pos.out |= 1 << p;
            pos.hash ^= self.z_out[p];
            let next = self.next_player(pos, p);
            self.set_turn(pos, next);
        }
    }

    /// The result of the game at `pos`, if it is over: a finished game's
    /// status, or a stalemate of the side to move.
    pub fn outcome(&self, pos: &Pos<B>) -> Option<Outcome> {
        if pos.status.is_some() {
            return pos.status;
        }
        if self.count_moves(pos) > 0 {
            return None;
        }
        Some(match self.stalemate {
            Stalemate::Draws => Outcome {
                winner: None,
                reason: Reason::Stalemate,
            },
            Stalemate::Loses => {
                let p = pos.turn as usize;
                let next = self.next_player(pos, p);
                let reason = if self.players > 2 {
                    Reason::Elimination
                } else {
                    Reason::Stalemate
                };
                Outcome {
                    winner: (next != p).then_some(next),
                    reason,
                }
            }
        })
    }

    /// Number of leaf nodes `depth` plies from `pos` (moves counted in bulk
    /// at the last ply).
    pub fn perft(&self, pos: &Pos<B>, depth: u32) -> u64 {
        // One move buffer per ply, allocated once.
        let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| self.move_list()).collect();
        self.perft_with(pos, depth, &mut buffers)
    }

    fn perft_with(&self, pos: &Pos<B>, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(pos),
            _ => {
                let (moves, rest) = buffers.split_first_mut().expect("a buffer per ply");
                moves.clear();
                self.generate(pos, moves);
                let mut total = 0;
                for &m in moves.iter() {
                    let mut child = *pos;
                    self.apply(&mut child, m);
                    total += self.perft_with(&child, depth - 1, rest);
                }
                total
            }
        }
    }
}

/// Where the generator puts moves: a list, or a counter.
pub(crate) trait Sink<B: Bits> {
    /// Whether only the number of moves is wanted.
    const COUNT_ONLY: bool;
    /// One move from each slot of `sources`, landing `offset` slots away.
    fn batch(&mut self, kind: MoveKind, sources: B, offset: i32, aux: u8);
    /// One move.
    fn push(&mut self, m: Move);
    /// `n` moves, counted only.
    fn add(&mut self, n: u64);
}

impl<B: Bits> Sink<B> for Vec<Move> {
    const COUNT_ONLY: bool = false;
    #[inline(always)]
    fn batch(&mut self, kind: MoveKind, sources: B, offset: i32, aux: u8) {
        for s in sources.iter() {
            self.push(Move::new(kind, s, (s as i32 + offset) as usize, aux));
        }
    }
    #[inline(always)]
    fn push(&mut self, m: Move) {
        Vec::push(self, m);
    }
    fn add(&mut self, _n: u64) {
        unreachable!("a move list is never asked to count")
    }
}

/// Counts moves without listing them.
pub(crate) struct Counter(pub u64);

impl<B: Bits> Sink<B> for Counter {
    const COUNT_ONLY: bool = true;
    #[inline(always)]
    fn batch(&mut self, _kind: MoveKind, sources: B, _offset: i32, _aux: u8) {
        self.0 += u64::from(sources.count());
    }
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn add(&mut self, n: u64) {
        self.0 += n;
    }
}

/// Buffers a playout reuses, so that playing a game allocates nothing.
#[derive(Debug, Default)]
pub struct Scratch {
    moves: Vec<Move>,
    line: Option<DrawTracker>,
}

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutResult {
    pub outcome: Outcome,
    /// Plies played.
    pub plies: u32,
    /// Sum over plies of the number of legal moves (for branching factors).
    pub branching_sum: u64,
}

impl<B: Bits> Engine<B> {
    /// Whether `m` removes stones from the board, after which no earlier
    /// position can occur again.
    #[inline(always)]
    pub fn is_capture(&self, pos: &Pos<B>, m: Move) -> bool {
        match m.kind {
            MoveKind::Sacrifice => true,
            // A hit, or a stone lost on an empty cell (`on empty: lost`).
            MoveKind::Throw => {
                pos.occupied().has(m.to as usize)
                    || self.cat.as_ref().is_some_and(|c| !c.wall_on_empty)
            }
            _ => false,
        }
    }

    /// The stones `m`, a legal move of `pos`, takes off the board.
    pub fn stones_removed(&self, pos: &Pos<B>, m: Move) -> StonesRemoved {
        match m.kind {
            MoveKind::Sacrifice => {
                self.sacs
                    .get(m.aux as usize)
                    .map_or_else(StonesRemoved::default, |sac| StonesRemoved {
                        own: sac.lose,
                        enemy: sac.remove,
                    })
            }
            MoveKind::Throw => {
                let landing = self.height_at(pos, m.to as usize);
                let (wall, hit) = self.landing();
                StonesRemoved {
                    own: u8::from(landing > 0 || !wall),
                    enemy: hit.min(landing),
                }
            }
            MoveKind::Sow | MoveKind::Split | MoveKind::Swap => StonesRemoved::default(),
        }
    }

    /// Plays `pos` out with moves chosen by `choose(number_of_moves)`, under
    /// the variant's draw rules (repetition counted since the last capture,
    /// ply cap counted from `pos`).
    #[inline]
    pub fn playout(
        &self,
        mut pos: Pos<B>,
        scratch: &mut Scratch,
        mut choose: impl FnMut(usize) -> usize,
    ) -> PlayoutResult {
        let line = scratch
            .line
            .get_or_insert_with(|| DrawTracker::new(self.rules.draw, pos.hash));
        line.reset(pos.hash);
        let mut branching_sum = 0;
        loop {
            scratch.moves.clear();
            self.generate(&pos, &mut scratch.moves);
            if let Some(outcome) = self.judge(&pos, scratch.moves.len(), line) {
                return PlayoutResult {
                    outcome,
                    plies: line.plies(),
                    branching_sum,
                };
            }
            branching_sum += scratch.moves.len() as u64;
            let m = scratch.moves[choose(scratch.moves.len())];
            let capture = self.is_capture(&pos, m);
            self.apply(&mut pos, m);
            line.push(pos.hash, capture);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Reason;

    #[test]
    fn every_reason_is_listed_once_and_reads_back_from_its_parts() {
        // This match fails to compile when a reason is added, pointing here.
        let position = |r: Reason| match r {
            Reason::BreakthroughSow => 0,
            Reason::BreakthroughThrow => 1,
            Reason::BreakthroughDelayed => 2,
            Reason::Stalemate => 3,
            Reason::Elimination => 4,
            Reason::Repetition => 5,
            Reason::PlyCap => 6,
        };
        for (i, r) in Reason::ALL.into_iter().enumerate() {
            assert_eq!(position(r), i);
            assert_eq!(Reason::from_parts(r.as_str(), r.by()), Some(r));
        }
        assert_eq!(Reason::from_parts("breakthrough", None), None);
        assert_eq!(Reason::from_parts("stalemate", Some("sow")), None);
        assert_eq!(Reason::from_parts("resignation", None), None);
    }
}
