//! Analysis in the Play panel, without egui: the live analysis of the
//! position shown (every legal move's score, the best line, deepening until
//! a budget runs out) and the review of a whole game ("Analyze game": an
//! evaluation per position, blunders marked).
//!
//! Both run on background threads, each on a [`Worker`] of its own, and
//! never block the UI: the app calls [`Analysis::drive`] every frame, which
//! collects what arrived and starts or stops the searches the model's state
//! calls for.
//!
//! # Whose point of view
//! The search scores a position for its side to move. In a two-player
//! variant everything shown (the bar, the move scores, the graph) is turned
//! to the first player's point of view: `+0.35` is good for the first
//! player whoever is to move. With three or four players there is no single
//! such view: the bar and move scores are for the side to move, and the
//! review graphs each position for its side to move and marks no blunders.
//!
//! # When the live analysis runs
//! Only while nothing else searches: not while a bot thinks (the two would
//! share the machine's cores), not during a review, not in set-up mode and
//! not once the game is over. A search for a position the board no longer
//! shows is cancelled, and its messages (tagged with a token) are dropped.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use murus_ai::analysis::{Analyser, Limits, Line, Score};
use murus_ai::proof::{self, Value};
use murus_ai::review::{self, Reviewed};
pub use murus_ai::review::{BLUNDER_CP, Blunder, for_player, is_blunder, negate, score_text};
use murus_engine::{Action, Game, Move, Position, Variant};

use super::PlayModel;
use crate::worker::{Reporter, Waker, Worker, no_waker};

/// The most moves the live analysis scores (all of them in practice).
pub const MAX_LINES: usize = 128;

/// The transposition table of each search, in megabytes.
const TABLE_MB: usize = 16;

/// How far the live analysis of one position goes: it deepens one ply at a
/// time until one of these runs out (or a result is proven).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveBudget {
    /// Deepest iteration.
    pub max_depth: u32,
    /// Time for the whole analysis of the position.
    pub time: Option<Duration>,
    /// Nodes for the whole analysis of the position.
    pub nodes: Option<u64>,
    /// Nodes for the proof search that follows, in a two-player game (0:
    /// none): the position's exact value when it is small enough.
    pub proof_nodes: u64,
    /// Search threads (Lazy SMP above 1): by default the cores this
    /// process may use.
    pub threads: usize,
}

impl Default for LiveBudget {
    /// Depth 24 or 8 seconds, whichever comes first, on every core.
    fn default() -> Self {
        LiveBudget {
            max_depth: 24,
            time: Some(Duration::from_secs(8)),
            nodes: None,
            proof_nodes: PROOF_NODES,
            threads: murus_engine::util::default_threads(),
        }
    }
}

/// The live analysis's proof search: about a second on this machine's
/// cores, enough to solve the end of a game or a small board.
pub const PROOF_NODES: u64 = 300_000;

/// The proof search's transposition table, in megabytes.
const PROOF_TABLE_MB: usize = 32;

/// The budget of each position of a review: a node limit, so that a review
/// reproduces.
pub const REVIEW_NODES: u64 = 200_000;

/// What the live analysis knows of a position: the deepest finished
/// iteration's scores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionEval {
    /// The deepest finished iteration.
    pub depth: u32,
    /// Nodes searched for the position so far.
    pub nodes: u64,
    /// The player to move.
    pub mover: usize,
    /// Every legal move (up to [`MAX_LINES`]), best first, with its score
    /// for the side to move and its line.
    pub lines: Vec<Line>,
    /// The search has ended (its budget ran out, or the result is proven).
    pub done: bool,
    /// The exact value, when the proof search settled it.
    pub proven: Option<Proven>,
}

/// A position's value proved by the proof search (`murus_ai::proof`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proven {
    pub value: Value,
    /// The side to move's winning moves, when it wins.
    pub winning: Vec<Move>,
}

impl Proven {
    /// The value in words: "Romans win with perfect play".
    pub fn text(&self, variant: &Variant) -> String {
        match self.value {
            Value::Win(p) => format!("{} win with perfect play", variant.player_name(p)),
            Value::Draw => "a draw with perfect play".to_string(),
        }
    }
}

impl PositionEval {
    /// The position's score for the side to move.
    pub fn score(&self) -> Option<Score> {
        self.lines.first().map(|l| l.score)
    }
    /// The best line.
    pub fn pv(&self) -> &[Move] {
        self.lines.first().map_or(&[], |l| l.pv.as_slice())
    }
    /// The score of move `m` for the side to move.
    pub fn score_of(&self, m: Move) -> Option<Score> {
        self.lines.iter().find(|l| l.first == m).map(|l| l.score)
    }

    /// What the display says of the position: its proven value where the
    /// proof search settled it and the search's score says otherwise (a
    /// centipawn guess, or another result), else the search's score.
    pub fn judged(&self) -> Option<Judged> {
        let score = self.score()?;
        Some(judge(
            score,
            self.mover,
            self.proven.as_ref().map(|p| p.value),
        ))
    }

    /// [`PositionEval::judged`] for move `m` scored `score`: a move the
    /// proof search showed wins (one of the winning moves) or loses (every
    /// move of a lost position) is shown with that value.
    pub fn judged_move(&self, m: Move, score: Score) -> Judged {
        let value = self.proven.as_ref().and_then(|p| match p.value {
            Value::Win(w) if w == self.mover => p.winning.contains(&m).then_some(p.value),
            Value::Win(w) => Some(Value::Win(w)),
            Value::Draw => None,
        });
        judge(score, self.mover, value)
    }
}

/// A position's or a move's value as shown: the search's score, for the
/// side to move, or the value the proof search proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judged {
    Score(Score),
    Proven(Value),
}

/// `score` (for `mover`), unless `proven` says otherwise: a search's win
/// or loss agrees with a proof of the same (and tells in how many plies).
fn judge(score: Score, mover: usize, proven: Option<Value>) -> Judged {
    match (score, proven) {
        (_, None) => Judged::Score(score),
        (Score::Win(_), Some(Value::Win(w))) if w == mover => Judged::Score(score),
        (Score::Loss(_), Some(Value::Win(w))) if w != mover => Judged::Score(score),
        (_, Some(v)) => Judged::Proven(v),
    }
}

impl Judged {
    /// In words, from the display's point of view ([`shown_score`]):
    /// "+0.35", "Romans win in 3 plies", "Romans win (proven)", "a draw
    /// (proven)".
    pub fn text(self, mover: usize, variant: &Variant) -> String {
        match self {
            Judged::Score(s) => {
                let (s, viewer) = shown_score(s, mover, variant.player_count());
                score_text(s, viewer, variant)
            }
            Judged::Proven(Value::Win(p)) => format!("{} win (proven)", variant.player_name(p)),
            Judged::Proven(Value::Draw) => "a draw (proven)".to_string(),
        }
    }

    /// In a few characters, for the evaluation bar: "+0.4", "#3" (a win
    /// in 3 plies), "-#3", "win", "loss", "draw" (proven), from the
    /// display's point of view.
    pub fn short(self, mover: usize, players: usize) -> String {
        match self {
            Judged::Score(s) => match shown_score(s, mover, players).0 {
                Score::Cp(v) if v.abs() < 995 => format!("{:+.1}", f64::from(v) / 100.0),
                Score::Cp(v) => format!("{:+.0}", f64::from(v) / 100.0),
                Score::Win(n) => format!("#{n}"),
                Score::Loss(n) => format!("-#{n}"),
            },
            Judged::Proven(Value::Win(p)) if p == viewer(players, mover) => "win".into(),
            Judged::Proven(Value::Win(_)) => "loss".into(),
            Judged::Proven(Value::Draw) => "draw".into(),
        }
    }

    /// How full the evaluation bar is ([`bar_fraction`]).
    pub fn bar_fraction(self, mover: usize, players: usize) -> f32 {
        match self {
            Judged::Score(s) => bar_fraction(shown_score(s, mover, players).0),
            Judged::Proven(Value::Win(p)) if p == viewer(players, mover) => 1.0,
            Judged::Proven(Value::Win(_)) => 0.0,
            Judged::Proven(Value::Draw) => 0.5,
        }
    }
}

/// A message of the live analysis: an update for the search `token`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveMsg {
    pub token: u64,
    pub eval: PositionEval,
}

/// What an analysis is of: the variant, the start and the moves played.
/// (The search sees repetitions, so the position alone is not enough.)
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    source: String,
    start: Position,
    moves: Vec<Move>,
}

impl Key {
    fn of_game(game: &Game) -> Key {
        Key {
            source: game.variant().source().to_string(),
            start: *game.start(),
            moves: game.moves().to_vec(),
        }
    }
}

/// The live search going on: its token and the game it searches.
#[derive(Debug)]
struct LiveJob {
    token: u64,
    key: Key,
}

/// One position's evaluation in a review.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ReviewMsg {
    token: u64,
    /// The position after this many plies of the line.
    index: usize,
    /// Its score, depth and best line.
    reviewed: Reviewed,
}

/// A whole game's evaluation, position by position ("Analyze game").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    key: Key,
    /// Per position (`moves.len() + 1` of them, the start first): the
    /// player to move, and once searched its score for that player, the
    /// depth searched and the best line found.
    positions: Vec<Reviewed>,
    players: usize,
    /// Every position has been searched.
    complete: bool,
}

impl Review {
    /// The moves of the line reviewed.
    pub fn moves(&self) -> &[Move] {
        &self.key.moves
    }
    /// The best line found from the position after `index` plies (before
    /// move `index`); empty where not searched (yet).
    pub fn best_line(&self, index: usize) -> &[Move] {
        self.positions.get(index).map_or(&[], |r| r.pv.as_slice())
    }
    /// The depth the search of the position after `index` plies reached
    /// (0: not searched, or the game is over there).
    pub fn depth(&self, index: usize) -> u32 {
        self.positions.get(index).map_or(0, |r| r.depth)
    }
    /// The shallowest and deepest searches of the positions searched so
    /// far (`None`: none yet).
    pub fn depths(&self) -> Option<(u32, u32)> {
        let searched = self.positions.iter().filter(|r| r.depth > 0);
        let lo = searched.clone().map(|r| r.depth).min()?;
        Some((lo, searched.map(|r| r.depth).max().unwrap_or(lo)))
    }
    /// Positions searched so far, and in all.
    pub fn progress(&self) -> (usize, usize) {
        let done = self
            .positions
            .iter()
            .take_while(|r| r.score.is_some())
            .count();
        (done, self.positions.len())
    }
    /// Whether every position has been searched.
    pub fn is_complete(&self) -> bool {
        self.complete
    }
    /// The player whose point of view [`Review::evals`] takes: the first
    /// player with two players, `None` (each position's side to move)
    /// otherwise.
    pub fn viewer(&self) -> Option<usize> {
        (self.players == 2).then_some(0)
    }
    /// One evaluation per position of the line (the start, then after each
    /// ply), for [`Review::viewer`] (or the side to move); `None` where not
    /// searched (yet).
    pub fn evals(&self) -> Vec<Option<Score>> {
        self.positions
            .iter()
            .map(|r| match self.viewer() {
                Some(v) => r.score.map(|s| for_player(s, r.mover, v)),
                None => r.score,
            })
            .collect()
    }
    /// The blunders found so far (none with more than two players): moves
    /// for which [`is_blunder`] holds between the mover's scores before and
    /// after.
    pub fn blunders(&self) -> Vec<Blunder> {
        review::blunders(&self.positions, &self.key.moves, self.players)
    }
}

/// Whose point of view the live display takes in a position where `mover`
/// is to move: the first player's with two players, the mover's otherwise.
pub fn viewer(players: usize, mover: usize) -> usize {
    if players == 2 { 0 } else { mover }
}

/// A score for `mover` as the display shows it, and whose view that is
/// ([`viewer`]).
pub fn shown_score(s: Score, mover: usize, players: usize) -> (Score, usize) {
    let v = viewer(players, mover);
    (for_player(s, mover, v), v)
}

/// How full the evaluation bar is for the viewer: 0.5 even, 1 a proven
/// win, 0 a proven loss; four stones ahead fills about 88%.
pub fn bar_fraction(s: Score) -> f32 {
    match s {
        Score::Cp(v) => 1.0 / (1.0 + (-(v as f32) / 200.0).exp()),
        Score::Win(_) => 1.0,
        Score::Loss(_) => 0.0,
    }
}

/// A score on the graph's scale, in stones, clamped to ±10 (a proven win
/// is +10).
pub fn graph_value(s: Score) -> f64 {
    match s {
        Score::Cp(v) => (f64::from(v) / 100.0).clamp(-10.0, 10.0),
        Score::Win(_) => 10.0,
        Score::Loss(_) => -10.0,
    }
}

/// The cells an arrow for `m` joins: its origin and its (first) target.
pub fn arrow_cells(m: Move) -> Option<(usize, usize)> {
    match m.action() {
        Action::Swap => None,
        Action::Split { tower, cells } => Some((tower, cells.0)),
        _ => Some((m.origin()?, m.targets().next()?)),
    }
}

/// The Play panel's analysis: the toggle, the live search of the position
/// shown and the review of the game.
#[derive(Debug)]
pub struct Analysis {
    on: bool,
    /// How far the live analysis goes.
    pub live_budget: LiveBudget,
    /// What each position of a review gets.
    pub review_limits: Limits,
    live: Option<LiveJob>,
    live_worker: Worker<LiveMsg>,
    /// The latest result and the game it is of.
    shown: Option<(Key, PositionEval)>,
    /// The game whose live search last ran to its end (not cancelled).
    done_key: Option<Key>,
    /// The token of the review going on.
    review_token: Option<u64>,
    review_worker: Worker<ReviewMsg>,
    review: Option<Review>,
    next_token: u64,
}

impl Default for Analysis {
    /// An analysis whose searches wake nobody (tests).
    fn default() -> Self {
        Analysis::new(no_waker())
    }
}

impl Analysis {
    /// An analysis, off, whose searches call `waker` when they report.
    pub fn new(waker: Waker) -> Analysis {
        Analysis {
            on: false,
            live_budget: LiveBudget::default(),
            review_limits: Limits {
                nodes: Some(REVIEW_NODES),
                ..Limits::default()
            },
            live: None,
            live_worker: Worker::new(waker.clone()),
            shown: None,
            done_key: None,
            review_token: None,
            review_worker: Worker::new(waker),
            review: None,
            next_token: 0,
        }
    }

    /// Whether the live analysis is on.
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// Turns the live analysis on or off (off cancels its search).
    pub fn set_on(&mut self, on: bool) {
        self.on = on;
        if !on {
            self.stop_live();
            self.shown = None;
            self.done_key = None;
        }
    }

    /// Whether the live analysis is searching now.
    pub fn is_searching(&self) -> bool {
        self.live.is_some()
    }

    /// The live analysis of the position the model shows, when there is one
    /// (never one of another position).
    pub fn current(&self, model: &PlayModel) -> Option<&PositionEval> {
        let (key, eval) = self.shown.as_ref()?;
        (self.on && *key == Key::of_game(model.game().cursor().game())).then_some(eval)
    }

    /// The game the live analysis should search now, if any.
    fn wanted(&self, model: &PlayModel) -> Option<Key> {
        let idle = model.seats().thinking().is_none()
            && model.setup().is_none()
            && model.game().cursor().game().outcome().is_none()
            && self.review_token.is_none();
        (self.on && idle).then(|| Key::of_game(model.game().cursor().game()))
    }

    fn stop_live(&mut self) {
        self.live = None;
        self.live_worker.cancel(); // its search stops, its messages go
    }

    /// Collects what the searches sent and starts or stops them as the
    /// model's state calls for. Called every frame; never waits.
    pub fn drive(&mut self, model: &PlayModel) {
        self.drive_review();
        let wanted = self.wanted(model);
        if self
            .live
            .as_ref()
            .is_some_and(|j| Some(&j.key) != wanted.as_ref())
        {
            self.stop_live();
        }
        if self.live.is_some() {
            let msgs = self.live_worker.poll();
            let finished = !self.live_worker.is_running();
            for m in msgs {
                self.receive(m);
            }
            if finished && let Some(j) = self.live.take() {
                self.done_key = Some(j.key);
            }
            return;
        }
        let Some(key) = wanted else { return };
        if self.done_key.as_ref() == Some(&key) {
            return; // already analysed to the end of its budget
        }
        self.next_token += 1;
        let token = self.next_token;
        let game = model.game().cursor().game().clone();
        let budget = self.live_budget;
        self.live_worker.restart("the analysis", move |r| {
            live_search(&game, budget, token, &r);
        });
        self.live = Some(LiveJob { token, key });
    }

    /// Takes in a message of the live search: kept when it comes from the
    /// search running now (its token), dropped otherwise (a search of a
    /// position no longer shown). A shallower result never replaces a
    /// deeper one of the same game.
    pub fn receive(&mut self, msg: LiveMsg) {
        let Some(j) = self.live.as_ref().filter(|j| j.token == msg.token) else {
            return;
        };
        if let Some((key, eval)) = &self.shown
            && *key == j.key
            && eval.depth > msg.eval.depth
        {
            return;
        }
        self.shown = Some((j.key.clone(), msg.eval));
    }

    /// The token of the live search running now.
    pub fn live_token(&self) -> Option<u64> {
        self.live.as_ref().map(|j| j.token)
    }

    /// Waits until the live search and the review end, taking in their
    /// messages (for tests and scripts: the UI calls [`Analysis::drive`]).
    pub fn settle(&mut self, model: &PlayModel) {
        while self.review_token.is_some() {
            self.review_worker.wait();
            self.drive_review();
        }
        self.drive(model);
        while self.live.is_some() {
            self.live_worker.wait();
            self.drive(model);
        }
    }

    // --- Review ----------------------------------------------------------

    /// Starts reviewing the model's whole line (played moves and the moves
    /// ahead), position by position, replacing any earlier review.
    pub fn start_review(&mut self, model: &PlayModel) {
        let variant = model.game().cursor().variant().clone();
        let game = model.game().cursor().game();
        let moves: Vec<Move> = model.game().cursor().line().collect();
        let start = *game.start();
        let mut movers = Vec::with_capacity(moves.len() + 1);
        let mut pos = start;
        movers.push(variant.turn(&pos));
        for &m in &moves {
            pos = variant.play(&pos, m);
            movers.push(variant.turn(&pos));
        }
        self.next_token += 1;
        let token = self.next_token;
        self.review = Some(Review {
            key: Key {
                source: variant.source().to_string(),
                start,
                moves: moves.clone(),
            },
            positions: movers.into_iter().map(Reviewed::unsearched).collect(),
            players: variant.player_count(),
            complete: false,
        });
        let limits = self.review_limits;
        self.review_worker.restart("the game review", move |r| {
            review_search(&variant, start, &moves, limits, token, &r);
        });
        self.review_token = Some(token);
        self.stop_live(); // the review has the cores
    }

    /// Stops the review, keeping what it found so far.
    pub fn cancel_review(&mut self) {
        self.review_token = None;
        self.review_worker.cancel();
    }

    /// Whether a review is running.
    pub fn is_reviewing(&self) -> bool {
        self.review_token.is_some()
    }

    /// The review of the model's line, when there is one: kept while the
    /// line reviewed is still the start of the model's line (moving through
    /// the game keeps it; another branch drops it).
    pub fn review(&self, model: &PlayModel) -> Option<&Review> {
        let r = self.review.as_ref()?;
        let game = model.game().cursor().game();
        let same_start = r.key.source == game.variant().source() && r.key.start == *game.start();
        let mut line = model.game().cursor().line();
        let prefix = r.key.moves.iter().all(|&m| line.next() == Some(m));
        (same_start && prefix).then_some(r)
    }

    fn drive_review(&mut self) {
        let Some(token) = self.review_token else {
            return;
        };
        let msgs = self.review_worker.poll();
        // Ended by itself: a cancelled review is forgotten at once.
        let finished = !self.review_worker.is_running();
        if let Some(r) = &mut self.review {
            for m in msgs.into_iter().filter(|m| m.token == token) {
                if let Some(slot) = r.positions.get_mut(m.index) {
                    *slot = m.reviewed;
                }
            }
            if finished {
                r.complete = true;
            }
        }
        if finished {
            self.review_token = None;
        }
    }
}

/// The live search of `game`: deepens one ply at a time, every legal move
/// scored, sending each finished depth.
fn live_search(game: &Game, budget: LiveBudget, token: u64, r: &Reporter<LiveMsg>) {
    let stop = r.cancel_flag();
    let v = game.variant();
    let seed = v.hash(game.position());
    let lines = game.legal_moves().len().clamp(1, MAX_LINES);
    let mover = v.turn(game.position());
    let mut analyser = Analyser::new(TABLE_MB);
    analyser.set_threads(budget.threads);
    let started = Instant::now();
    let mut nodes = 0u64;
    let mut last: Option<PositionEval> = None;
    for depth in 1..=budget.max_depth {
        let time = budget.time.map(|t| t.saturating_sub(started.elapsed()));
        let node_left = budget.nodes.map(|n| n.saturating_sub(nodes));
        if time == Some(Duration::ZERO) || node_left == Some(0) {
            break;
        }
        let limits = Limits {
            nodes: node_left,
            depth: Some(depth),
            time,
        };
        let flag: &AtomicBool = &stop;
        let Some(found) = analyser.analyse_lines(game, limits, lines, seed, flag) else {
            break;
        };
        nodes += found.nodes;
        if r.cancelled() {
            return;
        }
        if found.depth > last.as_ref().map_or(0, |e| e.depth) {
            let eval = PositionEval {
                depth: found.depth,
                nodes,
                mover,
                lines: found.lines,
                done: false,
                proven: None,
            };
            if !r.send(LiveMsg {
                token,
                eval: eval.clone(),
            }) {
                return;
            }
            last = Some(eval);
        }
        if found.depth < depth {
            break; // stopped by a limit, or the result is proven
        }
    }
    if let Some(mut eval) = last {
        eval.done = true;
        eval.nodes = nodes;
        eval.proven = prove(game, budget.proof_nodes, &stop);
        if r.cancelled() {
            return;
        }
        r.send(LiveMsg { token, eval });
    }
}

/// The exact value of the game's position by proof-number search within
/// `nodes`, in a two-player game; `None` when not settled. (The proof
/// search judges repetitions by the position alone, not by the line that
/// led to it: its value is that of the position.)
fn prove(game: &Game, nodes: u64, stop: &AtomicBool) -> Option<Proven> {
    let v = game.variant();
    if nodes == 0 || v.player_count() != 2 {
        return None;
    }
    let limits = proof::Limits {
        nodes,
        table_mib: PROOF_TABLE_MB,
    };
    let found = proof::solve(v, game.position(), limits, stop).ok()?;
    Some(Proven {
        value: found.value?,
        winning: found.winning,
    })
}

/// The review's search: each position of the line, in order, for its side
/// to move; a finished game's position scores its result. On one thread,
/// so that a review (node-limited) reproduces.
fn review_search(
    v: &Variant,
    start: Position,
    moves: &[Move],
    limits: Limits,
    token: u64,
    r: &Reporter<ReviewMsg>,
) {
    let stop = r.cancel_flag();
    let mut game = Game::from_position(v, start);
    let mut analyser = Analyser::new(TABLE_MB);
    for index in 0..=moves.len() {
        let flag: &AtomicBool = &stop;
        let reviewed = murus_ai::review::review_position(&mut analyser, &game, limits, flag);
        if r.cancelled()
            || !r.send(ReviewMsg {
                token,
                index,
                reviewed,
            })
        {
            return;
        }
        if let Some(&m) = moves.get(index)
            && !game.play(m)
        {
            return;
        }
    }
}

#[cfg(test)]
mod tests;
