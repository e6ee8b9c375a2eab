//! Alpha-beta search: iterative deepening, a Zobrist transposition table,
//! move ordering (hash move, captures, killers, history), late-move
//! reductions, breakthrough threats, and a node budget; a
//! [`Handler`] stops it (a cancel, a clock) and hears of each iteration.
//!
//! The search plays along the game's [`DrawTracker`]: it pushes and pops as
//! it makes and unmakes moves, and a node that the rules end (a
//! breakthrough, a stalemate) or the draw rules end (a repetition since the
//! last capture, the ply cap) scores as the game would end there, judged by
//! [`Engine::judge`] as in a game.
//!
//! More than two players: *paranoid* search. The bot maximises its own
//! evaluation and assumes every other player minimises it; with two players
//! this is plain minimax (negamax in spirit). A pie-rule `swap` hands the bot
//! the other colour, so below a swap the bot's colour changes.

use std::sync::Arc;

use murus_engine::job::Handler;
use murus_engine::{Bits, DrawTracker, Engine, Move, MoveKind, Outcome, Phase, Pos};
use rand::Rng;
use rand::rngs::SmallRng;

use crate::eval::{Weights, evaluate, evaluate_counted};
use crate::evalfile::Evaluation;
use crate::nnue::Network;
use crate::pool::{Pool, skips};
use crate::tt::Entry;
pub use crate::tt::Table;
pub use features::SearchFeatures;
use lmr::reduction;

/// A proven win is worth this much, less the plies to reach it.
pub const WIN: i32 = 1_000_000;
/// The deepest iteration of the search.
pub const MAX_DEPTH: u32 = 64;
/// Scores at least this far from zero are proven wins or losses: no
/// evaluation comes near it, and no line is a thousand plies deep.
pub(crate) const PROVEN: i32 = WIN - 1_000;

/// A score as the table keeps it: a proven result counted from the node,
/// not from the root, so that it holds wherever the position recurs.
///
/// The standard mate-score adjustment: Chess Programming Wiki, "Mate
/// scores"; Stockfish's `value_to_tt` and `value_from_tt`.
fn to_table(value: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if value >= PROVEN {
        value + ply
    } else if value <= -PROVEN {
        value - ply
    } else {
        value
    }
}

/// A score from the table, counted again from the root of this search.
fn from_table(value: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if value >= PROVEN {
        value - ply
    } else if value <= -PROVEN {
        value + ply
    } else {
        value
    }
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
/// The bound's kind in an entry's flag.
const BOUND: u8 = 3;
/// Beside the bound: the node was searched whole, without reductions or
/// pruning (see [`proven_window`]), so its value also bounds how fast a win
/// can be.
const WHOLE: u8 = 4;

/// Whether a window asks only about proven results: how fast a known win
/// can be made (`alpha` a win) or how long a known loss delayed (`beta` a
/// loss). Once a win is known at the root, such nodes are searched whole,
/// without reductions and with only the table's whole entries, so that the
/// search finds the fastest win within its depth instead of the first:
/// reductions and pruning judge by the evaluation, which cannot tell a win
/// in 5 from one in 7.
fn proven_window(alpha: i32, beta: i32) -> bool {
    alpha >= PROVEN || beta <= -PROVEN
}

/// What a search found.
#[derive(Clone, Copy, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub value: i32,
    /// Deepest fully searched depth.
    pub depth: u32,
    pub nodes: u64,
}

/// What a search reports of each finished iteration (see
/// [`Searcher::with_reports`]): its result and principal variation, best
/// move first.
#[derive(Clone, Debug)]
pub(crate) struct Iteration {
    pub result: SearchResult,
    pub pv: Vec<Move>,
}

/// A handler that passes on a job's stop and hears none of its progress:
/// a bot's search, which reports nothing, stopped by a `Handler<()>`.
pub(crate) struct StopOnly<'a>(pub &'a dyn Handler);

impl<P: ?Sized> Handler<P> for StopOnly<'_> {
    fn stop(&self) -> bool {
        self.0.stop()
    }
}

/// The deepest a line of the search goes, iterations and extensions
/// together.
const MAX_PLY: u32 = 2 * MAX_DEPTH + 2;
/// History scores stay within this bound (the "gravity" update).
const HISTORY_MAX: i32 = 1 << 14;

pub(crate) struct Searcher<'a, B: Bits> {
    e: &'a Engine<B>,
    w: Weights,
    /// A trained network, which values positions instead of the weights
    /// (or with them, when `hybrid`).
    net: Option<&'a Network>,
    /// Whether the network's value is added to the weights' (a network
    /// correcting the features).
    hybrid: bool,
    /// The network's accumulators, `hidden` numbers per ply of the path.
    acc: Vec<i32>,
    features: SearchFeatures,
    /// Whether a breakthrough wins as the stone lands: a threat of the side
    /// to move is then a win in one.
    immediate: bool,
    tt: &'a Table,
    /// The game's line so far, then the search's own path.
    line: &'a mut DrawTracker,
    /// The ply cap, counted in the line's plies (`u32::MAX`: none).
    ply_cap: u32,
    /// Asked every 1024 nodes whether to stop (a cancel, a clock); told of
    /// each finished iteration when `reports`. Budgets count nodes, never
    /// time, so that a node budget gives the same move on any machine.
    handler: &'a dyn Handler<Iteration>,
    /// Whether the handler hears of each iteration (with its principal
    /// variation, which costs a walk of the table).
    reports: bool,
    /// The deepest iteration to search.
    depth_limit: u32,
    /// The depth of the iteration under way (bounds threat extensions).
    root_depth: u32,
    /// Whether the first iteration always finishes, whatever the budget or
    /// the handler say (a few hundred nodes at most): set by the analysis,
    /// whose every answer must be a searched value. A bot's budget is
    /// counted from the first node, so that smaller budgets than one
    /// iteration remain weaker players (the best of the root moves they
    /// had time to look at).
    finish_first: bool,
    /// Whether nodes with a [`proven_window`] are searched whole: in the
    /// iterations that look for a win faster than the one known at the
    /// root (until then the search is as fast as it can be at finding one).
    seek_faster: bool,
    /// How many of the best root moves get an exact value (1: the best).
    lines_wanted: usize,
    /// After an iteration with several lines wanted: the best root moves,
    /// best first, each with its value and principal variation.
    pub(crate) lines: Vec<(Move, i32, Vec<Move>)>,
    budget: u64,
    nodes: u64,
    aborted: bool,
    buffers: Vec<Vec<Move>>,
    scores: Vec<Vec<i32>>,
    killers: Vec<[Option<Move>; 2]>,
    /// `history[player << 16 | move key]`: how often the move caused a
    /// cut-off, weighted by depth.
    history: Vec<i32>,
    /// The parallel search this one is a thread of (`None`: searching
    /// alone): its stop, its nodes and their budget.
    pool: Option<Arc<Pool>>,
    /// Which thread of a parallel search this is: 0 the main search, which
    /// alone answers, reports and looks for faster wins; above 0 a helper,
    /// which only fills the shared table.
    helper: usize,
}

fn key(hash: u64, me: usize) -> u64 {
    hash ^ (me as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Reverse futility pruning: the deepest node it prunes, and its margin
/// per ply of depth.
const RFP_DEPTH: u32 = 3;
const RFP_MARGIN: i32 = 150;
/// The side to move's bonus in the evaluation.
const TEMPO: i32 = 20;

impl<'a, B: Bits> Searcher<'a, B> {
    /// The static value of `pos` for the side to move, which has `legal`
    /// legal moves.
    fn static_value(&self, pos: &Pos<B>, me: usize, legal: usize, ply: u32) -> i32 {
        let features = || {
            if pos.phase() == Phase::Normal {
                evaluate_counted(self.e, &self.w, pos, me, legal as u64)
            } else {
                evaluate(self.e, &self.w, pos, me, true)
            }
        };
        let mut value = 0;
        if let Some(net) = self.net {
            // `me`'s value, turned to the side to move's (with two players,
            // simply the side to move's own row).
            let h = net.hidden;
            value = net.value_for(&self.acc[ply as usize * h..][..h], pos.turn(), me);
            if !self.hybrid {
                return if pos.turn() == me { value } else { -value };
            }
        }
        // The features, with the network's correction where it has one.
        value += features();
        let sign = if pos.turn() == me { 1 } else { -1 };
        sign * value + if self.features.tempo { TEMPO } else { 0 }
    }

    /// A search along `line`, the game so far, which ends at the position
    /// [`Searcher::run`] is given.
    pub(crate) fn new(
        e: &'a Engine<B>,
        tt: &'a Table,
        line: &'a mut DrawTracker,
        budget: u64,
        handler: &'a dyn Handler<Iteration>,
    ) -> Self {
        Searcher {
            e,
            w: Weights::for_engine(e),
            net: None,
            hybrid: false,
            acc: Vec::new(),
            features: SearchFeatures::ALL,
            immediate: e.breakthrough_is_immediate(),
            tt,
            ply_cap: line.ply_cap().unwrap_or(u32::MAX),
            line,
            handler,
            reports: false,
            depth_limit: MAX_DEPTH,
            root_depth: 1,
            finish_first: false,
            seek_faster: false,
            lines_wanted: 1,
            lines: Vec::new(),
            budget,
            nodes: 0,
            aborted: false,
            buffers: (0..=MAX_PLY + 1).map(|_| e.move_list()).collect(),
            scores: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            killers: vec![[None; 2]; MAX_PLY as usize + 2],
            history: vec![0; e.players() << 16],
            pool: None,
            helper: 0,
        }
    }

    /// A helper of this search in a parallel search ([`crate::smp`]): the
    /// same engine, table, evaluation and limits; its own line and state.
    pub(crate) fn helper<'b>(
        &self,
        index: usize,
        line: &'b mut DrawTracker,
        pool: Arc<Pool>,
    ) -> Searcher<'b, B>
    where
        'a: 'b,
    {
        let mut h = Searcher::new(self.e, self.tt, line, u64::MAX, &());
        h.w = self.w;
        h.net = self.net;
        h.hybrid = self.hybrid;
        h.acc = vec![0; self.acc.len()];
        h.features = self.features;
        // A helper searches on past the main search's depth limit until it
        // is stopped (as Stockfish's helpers do): stopping there would
        // leave its core idle while the main search finishes.
        h.pool = Some(pool);
        h.helper = index;
        h
    }

    /// The game's line, which ends at the position searched.
    pub(crate) fn line(&self) -> &DrawTracker {
        self.line
    }

    /// How many lines (best root moves) the search is asked for.
    pub(crate) fn lines_wanted(&self) -> usize {
        self.lines_wanted
    }

    /// The deepest iteration the search is asked for.
    pub(crate) fn depth_limit(&self) -> u32 {
        self.depth_limit
    }

    /// Makes this search a parallel search's main thread, or alone again.
    pub(crate) fn set_pool(&mut self, pool: Option<Arc<Pool>>) {
        self.pool = pool;
    }

    /// Whether to stop (asked every 1024 nodes, counted into the pool's).
    fn stopped(&self) -> bool {
        self.handler.stop() || self.pool.as_ref().is_some_and(|p| p.tick())
    }

    /// The nodes so far: this search's, or all the threads' (as counted).
    fn nodes_so_far(&self) -> u64 {
        match &self.pool {
            Some(p) => p.nodes() + (self.nodes & 1023),
            None => self.nodes,
        }
    }

    /// Searches with only the given features.
    pub(crate) fn with_features(mut self, features: SearchFeatures) -> Self {
        self.features = features;
        self
    }

    /// Values positions with `evaluation` (a network that does not fit the
    /// engine's positions is not used).
    pub(crate) fn with_evaluation(mut self, evaluation: &'a Evaluation) -> Self {
        if let Some(w) = evaluation.weights() {
            self.w = w;
        }
        if let Some(net) = evaluation.network().filter(|n| n.fits(self.e)) {
            self.net = Some(net);
            self.hybrid = evaluation.adds_features();
            self.acc = vec![0; (MAX_PLY as usize + 2) * net.hidden];
        }
        self
    }

    /// Searches no deeper than `depth` plies (at least 1).
    pub(crate) fn with_depth_limit(mut self, depth: u32) -> Self {
        self.depth_limit = depth.clamp(1, MAX_DEPTH);
        self
    }

    /// Finds the `k` best root moves with exact values ([`Searcher::lines`]),
    /// not only the best: slower, for analysis.
    pub(crate) fn with_lines(mut self, k: usize) -> Self {
        self.lines_wanted = k.max(1);
        self
    }

    /// Tells the handler of each finished iteration: its result and
    /// principal variation (from the root, best move first).
    pub(crate) fn with_reports(mut self) -> Self {
        self.reports = true;
        self
    }

    /// Finishes the first iteration whatever the budget and the handler
    /// say, so that every search has a searched value (depth 1 at least).
    pub(crate) fn finishing_first_iteration(mut self) -> Self {
        self.finish_first = true;
        self
    }

    /// The best line from `pos` as the table holds it after an iteration
    /// whose best root move is `first`: at most `depth` moves, each legal,
    /// stopping at the end of the game or a position seen before.
    fn principal_variation(&mut self, pos: &Pos<B>, first: Move, depth: u32) -> Vec<Move> {
        let mut pv = vec![first];
        let mut me = pos.turn();
        let mut cur = *pos;
        let mut seen = vec![cur.hash()];
        let mut m = first;
        let mut moves = self.e.move_list();
        while (pv.len() as u32) <= depth {
            if m.kind == MoveKind::Swap {
                me = 1 - me;
            }
            self.e.apply(&mut cur, m);
            if seen.contains(&cur.hash()) {
                break;
            }
            seen.push(cur.hash());
            moves.clear();
            self.e.legal_moves(&cur, &mut moves);
            if moves.is_empty() || self.e.outcome(&cur).is_some() || pv.len() as u32 == depth {
                break;
            }
            match self.tt.get(key(cur.hash(), me)).and_then(|t| t.best) {
                Some(next) if moves.contains(&next) => {
                    pv.push(next);
                    m = next;
                }
                _ => break,
            }
        }
        pv
    }

    /// Iterative deepening from `pos` for the player to move.
    ///
    /// A proven result does not end the search at once: a win found first is
    /// not always the fastest (reductions and pruning may have hidden a
    /// shorter one). Once one is known, later iterations search every root
    /// move for a win at least as fast (a window above the known win, so
    /// that the whole tree is searched whole: [`proven_window`]), and the
    /// search ends when such an iteration reaches within one ply of the
    /// win's distance, deep enough to have seen every faster one. A proven
    /// loss ends it once the iteration reaches within a ply of its distance.
    pub(crate) fn run(&mut self, pos: &Pos<B>, rng: &mut SmallRng) -> SearchResult {
        debug_assert_eq!(self.line.current(), pos.hash(), "the line ends at `pos`");
        let me = pos.turn();
        let mut root = self.e.move_list();
        self.e.legal_moves(pos, &mut root);
        if let Some(net) = self.net {
            net.refresh(pos, &mut self.acc[..net.hidden]);
        }
        // Shuffle so that equal moves vary from game to game (seeded).
        for i in (1..root.len()).rev() {
            root.swap(i, rng.random_range(0..=i));
        }
        let mut result = SearchResult {
            best: root.first().copied(),
            value: 0,
            depth: 0,
            nodes: 0,
        };
        // A forced move is searched like any other: its value is the value
        // of the position it leads to, never a level 0.
        if root.is_empty() {
            return result;
        }
        let mut values = vec![0; root.len()];
        // The best proven win of a finished iteration: later iterations look
        // only for wins at least as fast.
        let mut known_win: Option<i32> = None;
        for depth in 1..=self.depth_limit {
            if self.helper > 0 && skips(self.helper, depth) {
                continue;
            }
            self.root_depth = depth;
            let floor = known_win.map_or(-WIN - 1, |v| v - 1);
            self.seek_faster = known_win.is_some();
            let (best, value) = self.root_iteration(pos, &root, depth, me, &mut values, floor);
            if self.aborted {
                // A partial iteration still improves on the last one if a
                // move other than the first (the previous best) was searched
                // to an exact value above it. With several lines wanted, the
                // last finished iteration's lines stand, best first.
                if let Some(i) = best.filter(|&i| i != 0 && self.lines_wanted == 1) {
                    result.best = Some(root[i]);
                }
                break;
            }
            let Some(mut best) = best else {
                // No win as fast as the known one within this depth (it was
                // found beyond it, by an extension): the last answer stands.
                if known_win.is_some_and(|v| depth + 1 >= (WIN - v) as u32) {
                    break;
                }
                continue;
            };
            if self.lines_wanted > 1 {
                // Best first; a stable sort keeps the earlier order of equals.
                let mut order: Vec<usize> = (0..root.len()).collect();
                order.sort_by_key(|&i| std::cmp::Reverse(values[i]));
                root = order.iter().map(|&i| root[i]).collect();
                values = order.iter().map(|&i| values[i]).collect();
                best = 0;
                self.lines = (0..self.lines_wanted.min(root.len()))
                    .map(|j| {
                        let pv = self.principal_variation(pos, root[j], depth);
                        (root[j], values[j], pv)
                    })
                    .collect();
            }
            result.best = Some(root[best]);
            result.value = value;
            result.depth = depth;
            // Search the best move first next time.
            let m = root.remove(best);
            root.insert(0, m);
            let v = values.remove(best);
            values.insert(0, v);
            if self.reports {
                result.nodes = self.nodes_so_far();
                let pv = self.principal_variation(pos, m, depth);
                self.handler.progress(&Iteration { result, pv });
            }
            if value.abs() >= PROVEN {
                let distance = (WIN - value.abs()) as u32;
                // A win counts as the fastest once an iteration that looked
                // only for wins as fast (every root move searched whole)
                // reached within a ply of it; nothing beats a win in one.
                let checked = value < 0 || known_win.is_some() || distance <= 1;
                // Only the main search looks for faster wins.
                if value > 0 && self.helper == 0 {
                    known_win = Some(value);
                }
                // With several lines, the other lines' wins as fast as the
                // best need an iteration as deep as the win (one ply less
                // sees every faster win, but not every other win as fast:
                // the helpers of a parallel search often bring the best
                // move's win an iteration early).
                let deep = if self.lines_wanted > 1 {
                    depth
                } else {
                    depth + 1
                };
                if checked && deep >= distance {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// One iteration over the root moves: the index of the best move and
    /// its value (`None` if stopped before the first was searched, or if no
    /// move beat `floor`). With several lines wanted, every move gets its
    /// exact value in `values`: a move whose value there is a proven win
    /// looks only for wins at least as fast, and keeps its value if it finds
    /// none within this depth; another looks first for a win above `floor`.
    fn root_iteration(
        &mut self,
        pos: &Pos<B>,
        root: &[Move],
        depth: u32,
        me: usize,
        values: &mut [i32],
        floor: i32,
    ) -> (Option<usize>, i32) {
        let mut best = None;
        let all = self.lines_wanted > 1;
        let mut alpha = if all { -WIN - 1 } else { floor };
        for (i, &m) in root.iter().enumerate() {
            let v = if all {
                // A move looks first for a win as fast as its own (when it
                // has one) or as the best known; then, finding none, for its
                // own value.
                let own = values[i];
                let low = if own >= PROVEN { own - 1 } else { floor };
                let v = self.child(pos, m, depth - 1, 1, (low, WIN + 1), me);
                if v > low || self.aborted {
                    v
                } else if own >= PROVEN {
                    own
                } else if low > -WIN - 1 {
                    self.child(pos, m, depth - 1, 1, (-WIN - 1, WIN + 1), me)
                } else {
                    v
                }
            } else {
                self.child(pos, m, depth - 1, 1, (alpha, WIN + 1), me)
            };
            if self.aborted {
                break;
            }
            values[i] = v;
            if v > alpha {
                alpha = v;
                best = Some(i);
            }
        }
        (best, alpha)
    }

    /// The value for `me` of a game that ended `ply` plies from the root.
    fn terminal(end: Outcome, ply: u32, me: usize) -> i32 {
        match end.winner {
            Some(w) if w == me => WIN - ply as i32,
            Some(_) => -(WIN - ply as i32),
            None => 0,
        }
    }

    /// Plays `m` in `pos` along the line, searches the position it leads
    /// to within `(alpha, beta)`, and takes the move back. Values are the
    /// side to move's in `pos`: `me`'s when `me` is to move, its opponents'
    /// (the negated value for `me`) otherwise.
    fn child(
        &mut self,
        pos: &Pos<B>,
        m: Move,
        depth: u32,
        ply: u32,
        (alpha, beta): (i32, i32),
        me: usize,
    ) -> i32 {
        let mut child = *pos;
        let capture = self.e.is_capture(pos, m);
        self.e.apply(&mut child, m);
        let child_me = if m.kind == MoveKind::Swap { 1 - me } else { me };
        // The child probes the table unless it is a leaf: its slot is
        // fetched now, while the evaluation is brought up to date.
        if depth > 0 {
            self.tt.prefetch(key(child.hash(), child_me));
        }
        if let Some(net) = self.net {
            let h = net.hidden;
            let (parent, rest) = self.acc.split_at_mut(ply as usize * h);
            net.update(pos, &child, &parent[parent.len() - h..], &mut rest[..h]);
        }
        self.line.push(child.hash(), capture);
        // Paranoid search with more than two players: two opponents in a
        // row are one side, and the window is not turned round.
        let same_side = (child.turn() == child_me) == (pos.turn() == me);
        let v = if same_side {
            self.search(&child, depth, ply, alpha, beta, child_me)
        } else {
            -self.search(&child, depth, ply, -beta, -alpha, child_me)
        };
        self.line.pop();
        v
    }

    /// Whether a player other than the one to move threatens to break
    /// through.
    fn opponent_threatens(&self, pos: &Pos<B>) -> bool {
        let stm = pos.turn();
        (0..self.e.players())
            .any(|q| q != stm && !pos.is_out(q) && self.e.threatens_breakthrough(pos, q))
    }

    /// The value of `pos` for the side to move (negamax), searched `depth`
    /// plies deep within `(alpha, beta)`.
    fn search(
        &mut self,
        pos: &Pos<B>,
        mut depth: u32,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
        me: usize,
    ) -> i32 {
        self.nodes += 1;
        // The analysis's first iteration always finishes (a few hundred
        // nodes at most): every answer it gives is a searched value.
        if (self.root_depth > 1 || !self.finish_first)
            && (self.nodes >= self.budget || (self.nodes & 1023 == 0 && self.stopped()))
        {
            self.aborted = true;
            return 0;
        }
        let stm = pos.turn();
        let sign = if stm == me { 1 } else { -1 };
        let ply_i = ply as usize;
        let mut moves = std::mem::take(&mut self.buffers[ply_i]);
        moves.clear();
        // On the horizon the moves are counted, not listed, unless a threat
        // makes the node search on.
        let leaf = depth == 0 || ply >= MAX_PLY;
        let legal = if leaf {
            self.e.count_moves(pos) as usize
        } else {
            self.e.legal_moves(pos, &mut moves);
            moves.len()
        };
        // The rules' own end first, then the draws, as in a game.
        if let Some(end) = self.e.judge(pos, legal, self.line) {
            self.buffers[ply_i] = moves;
            return sign * Self::terminal(end, ply, me);
        }
        let threats = self.features.threats;
        // A side that can break through at once wins on the next ply.
        if threats && self.immediate && self.e.threatens_breakthrough(pos, stm) {
            self.buffers[ply_i] = moves;
            return WIN - (ply as i32 + 1);
        }
        let threatened = threats && self.opponent_threatens(pos);
        if leaf {
            // On the horizon, a threat to break through is looked at one
            // ply further: parried, or a loss.
            if threatened && ply < (2 * self.root_depth).min(MAX_PLY) {
                depth = 1;
                self.e.legal_moves(pos, &mut moves);
            } else {
                self.buffers[ply_i] = moves;
                return self.static_value(pos, me, legal, ply);
            }
        }
        // A node whose horizon reaches the ply cap is worth what its distance
        // from the game's start allows, which the table's key does not hold:
        // its entry only orders the moves, and it stores nothing.
        //
        // Repetitions take the standard graph-history compromise (Chess
        // Programming Wiki, "Graph History Interaction"): a repeated position
        // scores as a draw before the table is probed and is never stored,
        // but the values of its ancestors, which a draw below may have
        // shaped, are stored as usual and may be met again along another
        // path, or in a later search of the game.
        let trusted = self.line.plies().saturating_add(depth) < self.ply_cap;
        // Asked about proven results only: searched whole (no reductions),
        // trusting only entries searched whole.
        let whole = self.seek_faster && proven_window(alpha, beta);
        let k = key(pos.hash(), me);
        let mut hash_move = None;
        if let Some(t) = self.tt.get(k) {
            hash_move = t.best;
            if trusted && u32::from(t.depth) >= depth && (!whole || t.flag & WHOLE != 0) {
                let value = from_table(t.value, ply);
                match t.flag & BOUND {
                    EXACT => {
                        self.buffers[ply_i] = moves;
                        return value;
                    }
                    LOWER => alpha = alpha.max(value),
                    _ => beta = beta.min(value),
                }
                if alpha >= beta {
                    self.buffers[ply_i] = moves;
                    return value;
                }
            }
        }
        // Far above beta near the horizon, with no threat to answer: the
        // node is not searched.
        if self.features.rfp && depth <= RFP_DEPTH && !threatened && beta.abs() < PROVEN {
            let v = self.static_value(pos, me, legal, ply);
            if v - RFP_MARGIN * depth as i32 >= beta {
                self.buffers[ply_i] = moves;
                return v;
            }
        }
        // Order: hash move, captures, killers, then by history.
        let killers = self.killers[ply_i];
        let hist = stm << 16;
        let mut scores = std::mem::take(&mut self.scores[ply_i]);
        scores.clear();
        scores.extend(moves.iter().map(|m| {
            if Some(*m) == hash_move {
                i32::MAX
            } else if self.e.is_capture(pos, *m) {
                1 << 30
            } else if killers[0] == Some(*m) {
                (1 << 29) + 1
            } else if killers[1] == Some(*m) {
                1 << 29
            } else if self.features.history {
                self.history[hist | m.key16()]
            } else {
                0
            }
        }));

        let (alpha0, beta0) = (alpha, beta);
        let mut best_value = -WIN - 1;
        let mut best_move = None;
        for i in 0..moves.len() {
            // Selection sort, one move at a time: a cut-off sorts no more.
            let mut j = i;
            for k in i + 1..moves.len() {
                if scores[k] > scores[j] {
                    j = k;
                }
            }
            moves.swap(i, j);
            scores.swap(i, j);
            let m = moves[i];
            let quiet = scores[i] < 1 << 29;
            // A late quiet move is searched less deep first, and again at
            // full depth if it beats the best so far.
            let r = if self.features.lmr
                && depth >= 3
                && i >= 3
                && quiet
                && !threatened
                && !(self.seek_faster && proven_window(alpha, beta))
            {
                reduction(depth, i).min(depth - 2)
            } else {
                0
            };
            let mut v = self.child(pos, m, depth - 1 - r, ply + 1, (alpha, beta), me);
            if r > 0 && v > alpha && !self.aborted {
                v = self.child(pos, m, depth - 1, ply + 1, (alpha, beta), me);
            }
            if self.aborted {
                self.buffers[ply_i] = moves;
                self.scores[ply_i] = scores;
                return 0;
            }
            if v > best_value {
                best_value = v;
                best_move = Some(m);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                if quiet {
                    let k = &mut self.killers[ply_i];
                    if k[0] != Some(m) {
                        k[1] = k[0];
                        k[0] = Some(m);
                    }
                }
                if self.features.history && quiet {
                    let bonus = (depth * depth).min(400) as i32;
                    let h = &mut self.history[hist | m.key16()];
                    *h += bonus - *h * bonus / HISTORY_MAX;
                    // The quiet moves tried before it failed here.
                    for &q in &moves[..i] {
                        if !self.e.is_capture(pos, q) {
                            let h = &mut self.history[hist | q.key16()];
                            *h -= bonus + *h * bonus / HISTORY_MAX;
                        }
                    }
                }
                break;
            }
        }
        self.buffers[ply_i] = moves;
        self.scores[ply_i] = scores;
        if trusted {
            let bound = if best_value <= alpha0 {
                UPPER
            } else if best_value >= beta0 {
                LOWER
            } else {
                EXACT
            };
            let flag = if whole { bound | WHOLE } else { bound };
            self.tt.put(Entry {
                key: k,
                value: to_table(best_value, ply),
                depth: depth.min(255) as u8,
                flag,
                best: best_move,
            });
        }
        best_value
    }
}

mod features;
mod lmr;
#[cfg(test)]
mod tests;
