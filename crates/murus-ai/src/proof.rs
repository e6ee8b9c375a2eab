//! Solving positions exactly: depth-first proof-number search (df-pn) with
//! a transposition table.
//!
//! A position's *value* is that of the game without the ply cap, where play
//! that goes on for ever is a draw: a player wins when it can force a win in
//! a finite number of moves (so a winner never needs to repeat a position,
//! and the variant's repetition rule changes nothing). [`solve`] asks two
//! questions of the start, each a df-pn search: does the side to move win,
//! and if not, does the other side win? Neither: a draw.
//!
//! One search proves or disproves "the *attacker* wins": the attacker's
//! nodes are OR nodes, the other side's AND nodes (Allis's proof numbers;
//! df-pn is Nagai's depth-first form, with Pawlewicz and Lew's 1 + ε
//! thresholds to avoid thrashing). A position that repeats one on the
//! current path is a disproof (a cycle is not a win). Such a disproof holds
//! only along this path (the *graph history interaction* problem), so each
//! disproof carries the shallowest path position it relied on: a node whose
//! disproof relies only on itself and its descendants is disproved whatever
//! the path and goes into the table; one that relies on a position above it
//! is passed up but never stored. Proofs never rest on a repetition and are
//! always stored. (Kishimoto and Müller, "A solution to the GHI problem for
//! depth-first proof-number search", 2004, solve the general problem; this
//! simpler rule is sound and costs only re-search.)
//!
//! [`solve_line`] solves the game *with* its ply cap, as the rules define
//! it: a game that reaches the cap is drawn or adjudicated as the rules say
//! (`adjudicate by …`, `adjudicate for L`), and the repetition rule draws at
//! its `N`th occurrence (counted since the last capture). A node is then the
//! position, the plies left to the cap and the positions since the last
//! capture (as a multiset: what the repetition rule will count), which is
//! the whole state of the game, so every result holds whatever the path
//! and goes into the table, and no position repeats on a path (the plies
//! left fall). Moves that transpose to the same position by other
//! positions are different nodes: the price of exactness, paid on small
//! boards and short caps.
//!
//! [`Solver::solve`] runs on several threads sharing the table
//! (`parallel`: the questions raced, helpers, the first moves as jobs), and
//! [`Solver::strategy`] reads a proved win back as the winner's strategy
//! (`strategy`), the proof `murus solve --proof` writes.
//!
//! Budgets count nodes (a node: a position expanded), so a proof on one
//! thread is reproducible; a [`Handler`] may stop the search early (a clock, a
//! cancel), after which the answer is unknown. Two-player games only.

mod parallel;
mod strategy;
mod table;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use murus_dsl::rules::DrawRules;
use murus_engine::job::Handler;
use murus_engine::util::SplitMix64;
use murus_engine::{
    Bits, DrawTracker, Engine, EngineTask, Game, Move, Outcome, Pos, Position, Variant, Word,
};

use crate::eval;
pub use strategy::Strategy;
use table::Table;
pub use table::{ENTRY_BYTES, Usage};

/// A proof or disproof number that is final: the node is proven (`dn`) or
/// disproven (`pn`).
const INF: u32 = u32::MAX;
/// A disproof that rests on no position of the path.
const NO_LOOP: u32 = u32::MAX;
/// First guesses from the generic evaluation: one more in the proof or
/// disproof number for each step of the evaluation, at most this many.
/// Measured at one thread (deterministic node counts, 2026-11-29): without
/// it 382 936 nodes to 5×5's proof and 2 878 673 to 6×4's; with a step of
/// 30, 238 640 and 2 084 312 (100: 312 657 and 2 387 406).
const HEURISTIC_STEP: i32 = 30;
const HEURISTIC_MOST: i32 = 30;
/// Threshold growth beyond the second-best child: 1 + 1/4.
const EPSILON_DIV: u32 = 4;
/// Deepest path: a search that goes deeper gives up (unknown).
pub const MAX_PATH: usize = 4_000;
/// How many nodes between looks at the handler.
const POLL: u64 = 4_096;
/// How many nodes a search counts on its own before adding them to its
/// solver's count (which its threads share).
const FLUSH: u64 = 256;

/// The proven value of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// This player (an index) wins with perfect play.
    Win(usize),
    /// Neither side can force a win.
    Draw,
}

/// The answer to one question "does the attacker win?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The attacker wins.
    Proven,
    /// The attacker does not win (the other side wins or holds a draw).
    Disproven,
    /// The budget ran out, or the search was stopped.
    Unknown,
}

/// What a solve costs and may use.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most nodes in all, every search of the solve together.
    pub nodes: u64,
    /// Transposition table size in MiB.
    pub table_mib: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            nodes: u64::MAX,
            table_mib: 256,
        }
    }
}

/// The result of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The value, when proved within the budget.
    pub value: Option<Value>,
    /// When the side to move wins: its winning moves (each proved).
    pub winning: Vec<Move>,
    /// When the side to move wins: moves whose value the budget left
    /// unknown (neither shown to win nor not to).
    pub unsettled: Vec<Move>,
    /// When the value is unknown: a side proved *not* to win (the answer
    /// so far).
    pub cannot_win: Option<usize>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Solves `pos` of `variant` on one thread: its value, and the side to
/// move's winning moves when it wins. An error for games of more than two
/// players. [`Solver::solve`] takes threads, and keeps the table for a
/// proof ([`Solver::strategy`]).
pub fn solve(
    variant: &Variant,
    pos: &Position,
    limits: Limits,
    handler: &dyn Handler,
) -> Result<Solution, String> {
    Solver::new(limits.table_mib).solve(variant, pos, limits.nodes, 1, handler)
}

/// Solves the game of `line` with its ply cap, as the rules define it (see
/// the module's docs), on one thread: its value, and the side to move's
/// winning moves when it wins. An error for games of more than two
/// players.
pub fn solve_line(
    variant: &Variant,
    line: &Line,
    limits: Limits,
    handler: &dyn Handler,
) -> Result<Solution, String> {
    Solver::new(limits.table_mib).solve_line(variant, line, limits.nodes, 1, handler)
}

/// A position with the line of play that led to it, for [`solve_line`]:
/// the plies left to the ply cap and the positions the repetition rule
/// counts.
#[derive(Clone, Debug)]
pub struct Line {
    pos: Position,
    /// The rules' draws along the line, the cap counted from the line's
    /// first position.
    tracker: DrawTracker,
    /// The positions since the last capture, as a sum of their mixed
    /// hashes (0 where the rules have no repetition rule).
    window: u64,
}

impl Line {
    /// The start of `variant`'s game. An error where the rules have no ply
    /// cap.
    pub fn start(variant: &Variant) -> Result<Line, String> {
        Line::of_game(&Game::new(variant), 0)
    }

    /// The line of `game`, whose first position came `plies_before` plies
    /// into the game (a position string does not say how many). An error
    /// where the rules have no ply cap (`draw { plies N }`), or the line
    /// has reached it.
    pub fn of_game(game: &Game, plies_before: u32) -> Result<Line, String> {
        let v = game.variant();
        let tracker = game.draw_tracker().clone();
        let Some(cap) = tracker.ply_cap() else {
            return Err(format!(
                "`{}` has no ply cap (`draw {{ plies N }}`) to solve with",
                v.name()
            ));
        };
        let plies = u64::from(plies_before) + game.ply() as u64;
        if plies >= u64::from(cap) {
            return Err(format!(
                "the game has reached the ply cap: {plies} plies played, the cap is {cap}"
            ));
        }
        let (positions, moves) = (game.positions(), game.moves());
        let since = (0..moves.len())
            .rev()
            .find(|&i| v.is_capture(&positions[i], moves[i]))
            .map_or(0, |i| i + 1);
        let window = if tracker.repetition_limit().is_some() {
            positions[since..]
                .iter()
                .fold(0, |w: u64, p| w.wrapping_add(window_mix(v.hash(p))))
        } else {
            0
        };
        Ok(Line {
            pos: *game.position(),
            tracker: tracker.with_ply_cap(Some(cap - plies_before)),
            window,
        })
    }

    /// The position at the line's end.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Plies left before the ply cap.
    pub fn plies_left(&self) -> u32 {
        plies_left(&self.tracker)
    }

    /// The line after `m`, a legal move of its position.
    pub fn play(&self, variant: &Variant, m: Move) -> Line {
        let pos = variant.play(&self.pos, m);
        let capture = variant.is_capture(&self.pos, m);
        let mut tracker = self.tracker.clone();
        tracker.push(variant.hash(&pos), capture);
        let window = next_window(&tracker, self.window, variant.hash(&pos), capture);
        Line {
            pos,
            tracker,
            window,
        }
    }

    /// How the game ends at the line's end, if it does: by the rules of
    /// play, by repetition, or at the ply cap (drawn or adjudicated).
    pub fn outcome(&self, variant: &Variant) -> Option<Outcome> {
        variant.end_of_game(&self.pos, &self.tracker)
    }
}

/// Plies left before the ply cap along `tracker` (a line always has one).
fn plies_left(tracker: &DrawTracker) -> u32 {
    tracker
        .ply_cap()
        .map_or(u32::MAX, |c| c.saturating_sub(tracker.plies()))
}

/// A position's share of a line's window of positions.
fn window_mix(hash: u64) -> u64 {
    SplitMix64(hash ^ WINDOW_SALT).next()
}

/// The window after a move to a position with `hash`: the positions since
/// the last capture, the new one included (where the rules repeat).
fn next_window(tracker: &DrawTracker, window: u64, hash: u64, capture: bool) -> u64 {
    match (tracker.repetition_limit(), capture) {
        (None, _) => 0,
        (Some(_), true) => window_mix(hash),
        (Some(_), false) => window.wrapping_add(window_mix(hash)),
    }
}

/// The table key of a node of a line: the position, the window and the
/// plies left, asked of one attacker (`salt`).
fn line_key(hash: u64, salt: u64, window: u64, left: u32) -> u64 {
    hash ^ salt ^ SplitMix64(window ^ SplitMix64(u64::from(left) ^ LEFT_SALT).next()).next()
}

/// Keep a line's keys apart from the position's own.
const WINDOW_SALT: u64 = 0x7769_6e64_6f77_2121;
const LEFT_SALT: u64 = 0x706c_6965_736c_6566;

/// A df-pn searcher with its table, kept across questions (proofs and
/// path-free disproofs hold for every later question of the same attacker)
/// and shared by its threads.
#[derive(Debug)]
pub struct Solver {
    table: Table,
    /// Nodes searched since the solver was made, every thread's.
    nodes: AtomicU64,
    /// Whether a position and its mirror image share an entry where the
    /// rules are the same in a mirror ([`Solver::with_mirror`]).
    mirror: bool,
}

impl Solver {
    /// A solver whose table takes about `table_mib` MiB.
    pub fn new(table_mib: usize) -> Solver {
        Solver {
            table: Table::new(table_mib),
            nodes: AtomicU64::new(0),
            mirror: true,
        }
    }

    /// Whether a position and its mirror image share one table entry where
    /// the rules play the same with the files swapped
    /// ([`Variant::mirror`]; on by default): they have the same value, so a
    /// proof of one proves the other. Off, the search sees them apart (to
    /// measure what the mirror saves). Never with the ply cap, whose keys
    /// carry the line's positions.
    pub fn with_mirror(mut self, on: bool) -> Solver {
        self.mirror = on;
        self
    }

    /// The mirror the searches use for `variant`, if any.
    fn mirror_of<'v>(&self, variant: &'v Variant) -> Option<&'v [u8]> {
        variant.mirror().filter(|_| self.mirror)
    }

    /// The table's key of `pos` for `attacker`'s question (no ply cap).
    fn key_of(&self, variant: &Variant, pos: &Position, attacker: usize) -> u64 {
        let hash = match self.mirror_of(variant) {
            Some(_) => variant.symmetric_hash(pos),
            None => variant.hash(pos),
        };
        hash ^ SALT[attacker]
    }

    /// Nodes searched since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// What the table holds now (a scan of it).
    pub fn usage(&self) -> Usage {
        self.table.usage()
    }

    /// What the table knows of "`attacker` wins from `pos`": proven,
    /// disproven, or nothing settled (without searching).
    pub fn known(&self, variant: &Variant, pos: &Position, attacker: usize) -> Proof {
        match self.table.get(self.key_of(variant, pos, attacker)) {
            Some((0, _)) => Proof::Proven,
            Some((_, 0)) => Proof::Disproven,
            _ => Proof::Unknown,
        }
    }

    /// Whether `attacker` wins from `pos`, within `nodes` more nodes.
    pub fn prove(
        &self,
        variant: &Variant,
        pos: &Position,
        attacker: usize,
        nodes: u64,
        handler: &dyn Handler,
    ) -> Proof {
        let limit = self.nodes().saturating_add(nodes);
        self.run(variant, pos, None, attacker, limit, handler, 0)
    }

    /// Whether `attacker` wins the game of `line` with its ply cap (see
    /// the module's docs), within `nodes` more nodes.
    pub fn prove_line(
        &self,
        variant: &Variant,
        line: &Line,
        attacker: usize,
        nodes: u64,
        handler: &dyn Handler,
    ) -> Proof {
        let limit = self.nodes().saturating_add(nodes);
        self.run(variant, &line.pos, Some(line), attacker, limit, handler, 0)
    }

    /// Whether `attacker` wins from `pos` (with the ply cap: the game of
    /// `line`) before the solver's node count reaches `limit`. A helper
    /// thread on a question another thread is searching too gives a
    /// `seed` other than 0: it breaks ties between equally good children
    /// its own way, so that the two grow different parts of the tree.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        variant: &Variant,
        pos: &Position,
        line: Option<&Line>,
        attacker: usize,
        limit: u64,
        handler: &dyn Handler,
        seed: u64,
    ) -> Proof {
        struct Task<'a> {
            solver: &'a Solver,
            mirror: Option<&'a [u8]>,
            pos: &'a Position,
            line: Option<&'a Line>,
            attacker: usize,
            limit: u64,
            handler: &'a dyn Handler,
            seed: u64,
        }
        impl EngineTask for Task<'_> {
            type Output = Proof;
            fn run<B: Word>(self, engine: &Engine<B>) -> Proof {
                let pos = B::unwrap(self.pos).expect("a position of this variant");
                let salt = SALT[self.attacker];
                let mut search = Search {
                    engine,
                    table: &self.solver.table,
                    attacker: self.attacker,
                    salt,
                    nodes: 0,
                    flushed: 0,
                    seen: self.solver.nodes(),
                    shared: &self.solver.nodes,
                    limit: self.limit,
                    handler: self.handler,
                    seed: self.seed,
                    weights: eval::Weights::for_engine(engine),
                    stopped: false,
                    path: HashMap::default(),
                    buffers: Vec::new(),
                    line: self.line.map(|l| l.tracker.clone()),
                    mirror: self.mirror.filter(|_| self.line.is_none()),
                };
                let (key, window) = match self.line {
                    Some(l) => (
                        line_key(pos.hash(), salt, l.window, l.plies_left()),
                        l.window,
                    ),
                    None => (engine.symmetric_hash(pos, search.mirror) ^ salt, 0),
                };
                let root = search.mid(pos, key, window, INF, INF, 0);
                search.flush();
                match (root.pn, root.dn) {
                    (0, _) => Proof::Proven,
                    (_, 0) if !search.stopped => Proof::Disproven,
                    _ => Proof::Unknown,
                }
            }
        }
        variant.run(Task {
            solver: self,
            mirror: self.mirror_of(variant),
            pos,
            line,
            attacker,
            limit,
            handler,
            seed,
        })
    }
}

/// Keys of one attacker's questions differ from the other's.
const SALT: [u64; 2] = [0, 0x9e37_79b9_7f4a_7c15];

/// Proof and disproof numbers of a node, with the shallowest path position
/// a disproof relied on.
#[derive(Clone, Copy, Debug)]
struct Numbers {
    pn: u32,
    dn: u32,
    /// For a disproof: the path index of the highest position it repeated
    /// (`NO_LOOP`: none).
    lp: u32,
}

impl Numbers {
    const UNKNOWN: Numbers = Numbers {
        pn: 1,
        dn: 1,
        lp: NO_LOOP,
    };
    fn proven() -> Numbers {
        Numbers {
            pn: 0,
            dn: INF,
            lp: NO_LOOP,
        }
    }
    fn disproven(lp: u32) -> Numbers {
        Numbers { pn: INF, dn: 0, lp }
    }
}

/// One move of an expanded node, with what is known of its position.
#[derive(Clone, Copy, Debug)]
struct Child<B: Bits> {
    pos: Pos<B>,
    n: Numbers,
    /// Its table key.
    key: u64,
    /// With the ply cap: the window of positions after the move, and
    /// whether the move captured.
    window: u64,
    capture: bool,
}

/// A `HashMap` hasher for Zobrist keys, which are random already.
#[derive(Debug, Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// One question's search.
struct Search<'a, B: Word> {
    engine: &'a Engine<B>,
    table: &'a Table,
    attacker: usize,
    salt: u64,
    /// Nodes this search has searched, and how many of them it has added
    /// to the solver's count (`shared`).
    nodes: u64,
    flushed: u64,
    /// The solver's count as last seen.
    seen: u64,
    shared: &'a AtomicU64,
    /// The solver's count at which to stop.
    limit: u64,
    handler: &'a dyn Handler,
    /// 0, or a helper's tie-breaking seed (see [`Solver::run`]).
    seed: u64,
    /// The generic evaluation's weights, for first guesses.
    weights: eval::Weights,
    stopped: bool,
    /// Hashes of the positions on the path, with their depth.
    path: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    /// One move list and one child list per depth, reused.
    buffers: Vec<(Vec<Move>, Vec<Child<B>>)>,
    /// With the ply cap ([`solve_line`]): the draw rules along the path,
    /// from the line's first position.
    line: Option<DrawTracker>,
    /// Where a position and its mirror image share a key: the slot map.
    mirror: Option<&'a [u8]>,
}

impl<B: Word> Search<'_, B> {
    /// What is known of `pos` before searching it: the end of the game, a
    /// repetition of the path, the table, or the first guess from its
    /// number of moves (a node with many moves is harder to prove for the
    /// side to move's opponent) and the generic evaluation (a position the
    /// attacker leads in is harder to disprove, one it trails in harder to
    /// prove).
    /// With the ply cap, the line's draws are judged too (the move to `pos`
    /// pushed onto it).
    fn look(&self, pos: &Pos<B>, key: u64) -> Numbers {
        if self.line.is_none()
            && let Some(&depth) = self.path.get(&pos.hash())
        {
            return Numbers::disproven(depth);
        }
        if let Some((pn, dn)) = self.table.get(key) {
            return Numbers {
                pn,
                dn,
                lp: NO_LOOP,
            };
        }
        let legal = self.engine.count_moves(pos) as u32;
        if let Some(line) = &self.line {
            if let Some(o) = self.engine.judge(pos, legal as usize, line) {
                return self.numbers_of(o);
            }
        } else if legal == 0 {
            return self.ended(pos);
        }
        let (pn, dn) = if pos.turn() == self.attacker {
            (1, legal)
        } else {
            (legal, 1)
        };
        // The heuristic (df-pn+): the generic evaluation for the attacker,
        // a step of HEURISTIC_STEP a unit, raises the disproof number of a
        // position it likes and the proof number of one it does not.
        let v = (eval::evaluate(self.engine, &self.weights, pos, self.attacker, false)
            / HEURISTIC_STEP)
            .clamp(-HEURISTIC_MOST, HEURISTIC_MOST);
        Numbers {
            pn: pn + (-v).max(0) as u32,
            dn: dn + v.max(0) as u32,
            lp: NO_LOOP,
        }
    }

    /// The numbers of a finished game.
    fn ended(&self, pos: &Pos<B>) -> Numbers {
        let no_draws = DrawTracker::new(DrawRules::default(), pos.hash());
        match self.engine.judge(pos, 0, &no_draws) {
            Some(o) => self.numbers_of(o),
            None => Numbers::disproven(NO_LOOP),
        }
    }

    /// The numbers of a game that ended with `outcome`.
    fn numbers_of(&self, outcome: Outcome) -> Numbers {
        match outcome.winner {
            Some(w) if w == self.attacker => Numbers::proven(),
            _ => Numbers::disproven(NO_LOOP),
        }
    }

    /// Searches `pos` (its table key `key`, with the ply cap its window of
    /// positions `window`) at path index `depth` until its proof number
    /// reaches `th_pn` or its disproof number `th_dn` (or it is settled).
    fn mid(
        &mut self,
        pos: &Pos<B>,
        key: u64,
        window: u64,
        th_pn: u32,
        th_dn: u32,
        depth: usize,
    ) -> Numbers {
        self.nodes += 1;
        if self.nodes % FLUSH == 0 {
            self.flush();
        }
        if self.nodes % POLL == 0 && self.handler.stop() {
            self.stopped = true;
        }
        if self.seen + (self.nodes - self.flushed) >= self.limit || depth >= MAX_PATH {
            self.stopped = true;
        }
        if self.stopped {
            return Numbers::UNKNOWN;
        }
        let start_nodes = self.nodes;
        let or = pos.turn() == self.attacker;
        if self.buffers.len() <= depth {
            self.buffers.resize_with(depth + 1, Default::default);
        }
        let (mut moves, mut children) = std::mem::take(&mut self.buffers[depth]);
        moves.clear();
        children.clear();
        self.engine.legal_moves(pos, &mut moves);
        let over = match &self.line {
            Some(line) => self
                .engine
                .judge(pos, moves.len(), line)
                .map(|o| self.numbers_of(o)),
            None => moves.is_empty().then(|| self.ended(pos)),
        };
        if let Some(n) = over {
            self.buffers[depth] = (moves, children);
            return n;
        }
        if self.line.is_none() {
            self.path.insert(pos.hash(), depth as u32);
        }
        for &m in &moves {
            let mut child = *pos;
            self.engine.apply(&mut child, m);
            // With the ply cap, the move is pushed onto the line while its
            // child is looked at.
            let (key, window, capture) = match &mut self.line {
                Some(line) => {
                    let capture = self.engine.is_capture(pos, m);
                    line.push(child.hash(), capture);
                    let window = next_window(line, window, child.hash(), capture);
                    let key = line_key(child.hash(), self.salt, window, plies_left(line));
                    (key, window, capture)
                }
                None => (
                    self.engine.symmetric_hash(&child, self.mirror) ^ self.salt,
                    0,
                    false,
                ),
            };
            let n = self.look(&child, key);
            if let Some(line) = &mut self.line {
                line.pop();
            }
            children.push(Child {
                pos: child,
                n,
                key,
                window,
                capture,
            });
        }
        let mut n = combine(&children, or);
        while !self.stopped && n.pn < th_pn && n.dn < th_dn {
            let (best, second) = select(&children, or, self.seed);
            let c = children[best].n;
            let (c_pn, c_dn) = if or {
                (th_pn.min(grow(second)), sub_plus(th_dn, n.dn, c.dn))
            } else {
                (sub_plus(th_pn, n.pn, c.pn), th_dn.min(grow(second)))
            };
            let child = children[best];
            if let Some(line) = &mut self.line {
                line.push(child.pos.hash(), child.capture);
            }
            children[best].n = self.mid(&child.pos, child.key, child.window, c_pn, c_dn, depth + 1);
            if let Some(line) = &mut self.line {
                line.pop();
            }
            n = combine(&children, or);
        }
        if self.line.is_none() {
            self.path.remove(&pos.hash());
        }
        self.buffers[depth] = (moves, children);
        if n.dn == 0 && n.lp >= depth as u32 {
            n.lp = NO_LOOP;
        }
        if !self.stopped {
            let work = (self.nodes - start_nodes).min(u64::from(u32::MAX)) as u32;
            self.store(key, n, work);
        }
        n
    }

    /// Adds this search's nodes not yet counted to the solver's count.
    fn flush(&mut self) {
        let fresh = self.nodes - self.flushed;
        self.seen = self.shared.fetch_add(fresh, Relaxed) + fresh;
        self.flushed = self.nodes;
    }

    /// Keeps `n` under `key` unless it is a disproof that holds only along
    /// this path.
    fn store(&mut self, key: u64, n: Numbers, work: u32) {
        if n.dn == 0 && n.lp != NO_LOOP {
            return;
        }
        self.table.put(key, n.pn, n.dn, work);
    }
}

/// The threshold for the best child: the second-best child's number and a
/// quarter more (at least one more), so that the search does not switch
/// back and forth between two children of nearly equal numbers.
fn grow(second: u32) -> u32 {
    if second >= INF - 1 {
        return INF;
    }
    second
        .saturating_add((second / EPSILON_DIV).max(1))
        .min(INF - 1)
}

/// `th - total + part`, the threshold left for one child when the others
/// hold `total - part` (saturating; an infinite threshold stays so).
fn sub_plus(th: u32, total: u32, part: u32) -> u32 {
    if th == INF {
        return INF;
    }
    th.saturating_sub(total).saturating_add(part).min(INF - 1)
}

/// Sum of numbers, final only when one of them is.
fn sum(values: impl Iterator<Item = u32>) -> u32 {
    let mut total: u32 = 0;
    for v in values {
        if v == INF {
            return INF;
        }
        total = total.saturating_add(v).min(INF - 1);
    }
    total
}

/// A node's numbers from its children's. At an OR node the proof number is
/// the least child's and the disproof number the sum; at an AND node the
/// other way round. A disproof relies on the highest path position any
/// child's relies on (OR: all children are disproved) or on the best
/// disproved child's (AND: one is enough, the one relying least on the
/// path).
fn combine<B: Bits>(children: &[Child<B>], or: bool) -> Numbers {
    if or {
        let pn = children.iter().map(|c| c.n.pn).min().unwrap_or(INF);
        let dn = sum(children.iter().map(|c| c.n.dn));
        let lp = if dn == 0 {
            children.iter().map(|c| c.n.lp).min().unwrap_or(NO_LOOP)
        } else {
            NO_LOOP
        };
        Numbers { pn, dn, lp }
    } else {
        let pn = sum(children.iter().map(|c| c.n.pn));
        let dn = children.iter().map(|c| c.n.dn).min().unwrap_or(INF);
        let lp = children
            .iter()
            .filter(|c| c.n.dn == 0)
            .map(|c| c.n.lp)
            .max()
            .unwrap_or(NO_LOOP);
        Numbers { pn, dn, lp }
    }
}

/// The child to search (least proof number at an OR node, least disproof
/// number at an AND node) and the second-least number. Ties go to the
/// first such child, or with a helper's `seed` to the one whose key mixed
/// with the seed is least.
fn select<B: Bits>(children: &[Child<B>], or: bool, seed: u64) -> (usize, u32) {
    let key = |c: &Child<B>| if or { c.n.pn } else { c.n.dn };
    let order = |c: &Child<B>| SplitMix64(c.key ^ seed).next();
    let mut best = 0;
    let mut first = INF;
    let mut second = INF;
    for (i, c) in children.iter().enumerate() {
        let k = key(c);
        if k < first {
            second = first;
            first = k;
            best = i;
        } else {
            second = second.min(k);
            if seed != 0 && k == first && order(c) < order(&children[best]) {
                best = i;
            }
        }
    }
    (best, second)
}
