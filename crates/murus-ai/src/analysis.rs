//! Analysis: the alpha-beta search under limits a person or a protocol sets
//! (nodes, depth, time, or until stopped), reporting each finished
//! iteration with its score and principal variation.
//!
//! The lab's bots count nodes so that games reproduce; analysis and engine
//! protocols ([`crate::ugi`]) may also stop on the clock. A search takes a
//! [`Handler`]: asked every 1024 nodes whether to stop (a Cancel button,
//! the protocol's `stop`), told of each finished iteration ([`Info`]).
//!
//! ```
//! use murus_ai::analysis::{Analyser, Info, Limits, Score};
//! use murus_engine::job::HandlerExt;
//! use murus_engine::{Game, Variant};
//! use std::sync::Mutex;
//!
//! let v = Variant::standard();
//! // Romans to move break through at once (a5-a7 or a5-c7).
//! let pos = v.parse_position("4g2g2g2g2/8/r27/8/8/8/2r25 r").unwrap();
//! let game = Game::from_position(&v, pos);
//! let mut analyser = Analyser::new(1);
//! let depths = Mutex::new(Vec::new());
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! // Never stopped from outside; each finished depth is heard.
//! let handler = ().on_progress(|info: &Info| depths.lock().unwrap().push(info.depth));
//! let found = analyser.analyse(&game, limits, 1, &handler).unwrap();
//! assert_eq!(found.score, Score::Win(1));
//! assert_eq!(found.pv, [found.best]);
//! let mut after = game.clone();
//! assert!(after.play(found.best));
//! assert_eq!(after.outcome().unwrap().winner, Some(0));
//! assert_eq!(*depths.lock().unwrap(), [1]); // a proven win ends the search
//! ```

use std::fmt;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use murus_engine::job::{Handler, HandlerExt, Until};
use murus_engine::{Bits, DrawTracker, Engine, EngineTask, Game, Move, MoveKind, Pos};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::evalfile::Evaluation;
use crate::search::{self, Iteration, SearchFeatures, Searcher, Table, WIN};

/// How far a search may go; `None` everywhere: until stopped (or a proven
/// result, or the deepest iteration).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Nodes searched, at most.
    pub nodes: Option<u64>,
    /// Iterations (plies of full-width search), at most.
    pub depth: Option<u32>,
    /// Time on the clock, at most.
    pub time: Option<Duration>,
}

/// A search's value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// The evaluation, in centi-stones (100: about one stone ahead).
    Cp(i32),
    /// A proven win, this many plies from the position.
    Win(u32),
    /// A proven loss, this many plies from the position.
    Loss(u32),
}

impl Score {
    /// The score of a search value ([`WIN`] less the plies to a win).
    pub fn from_value(value: i32) -> Score {
        if value >= search::PROVEN {
            Score::Win((WIN - value) as u32)
        } else if value <= -search::PROVEN {
            Score::Loss((WIN + value) as u32)
        } else {
            Score::Cp(value)
        }
    }
}

/// As engine protocols write it: `cp 35`, `win 3`, `loss 4`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Win(n) => write!(f, "win {n}"),
            Score::Loss(n) => write!(f, "loss {n}"),
        }
    }
}

/// One finished iteration of a search, or its final answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The value of the position for the side to move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search began.
    pub time: Duration,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes a second.
    pub fn nps(&self) -> u64 {
        let secs = self.time.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            0
        }
    }
}

/// A search's answer: the move to play and what was last known of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub best: Move,
    pub score: Score,
    /// The deepest finished iteration (0: none finished).
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
    /// The best moves, best first, each with its score and line: as many
    /// as asked of [`Analyser::analyse_lines`] (at most the legal moves),
    /// from the deepest finished iteration; the best move alone otherwise.
    pub lines: Vec<Line>,
}

/// One of the best moves of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub first: Move,
    pub score: Score,
    /// The line, `first` first.
    pub pv: Vec<Move>,
}

/// An alpha-beta search with a transposition table kept from one search to
/// the next (of the same game, or a new one after [`Analyser::clear`]).
#[derive(Debug)]
pub struct Analyser {
    table: Table,
    /// How many threads search (Lazy SMP, [`crate::smp`]); 1 by default.
    threads: usize,
    features: SearchFeatures,
    /// `None`: the variant's own ([`Evaluation::for_variant`]).
    evaluation: Option<Evaluation>,
}

/// What a search is asked: its limits, how many lines, the seed that
/// orders equal moves and the evaluation.
struct Ask {
    limits: Limits,
    lines: usize,
    seed: u64,
    evaluation: Evaluation,
}

/// The caller's handler as the search sees it: stopped by it or by the
/// time limit, and each iteration turned into an [`Info`] for it (the last
/// kept for the answer).
struct Reports<'a> {
    handler: Until<&'a dyn Handler<Info>>,
    started: Instant,
    last: Mutex<Option<Info>>,
}

impl Handler<Iteration> for Reports<'_> {
    fn stop(&self) -> bool {
        Handler::<Info>::stop(&self.handler)
    }
    fn progress(&self, it: &Iteration) {
        let info = Info {
            depth: it.result.depth,
            score: Score::from_value(it.result.value),
            nodes: it.result.nodes,
            time: self.started.elapsed(),
            pv: it.pv.clone(),
        };
        self.handler.progress(&info);
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Some(info);
    }
}

/// Most nodes of a search without a node limit (about an hour's work).
const UNLIMITED: u64 = 1 << 40;

impl Analyser {
    /// An analyser whose table takes at most `megabytes`.
    pub fn new(megabytes: usize) -> Analyser {
        Analyser {
            table: Table::with_megabytes(megabytes),
            threads: 1,
            features: SearchFeatures::ALL,
            evaluation: None,
        }
    }

    /// Searches on `threads` threads from now on (at least 1; the default
    /// is 1). With more than one the search is Lazy SMP: helpers share the
    /// table with the main search, which answers as it would alone but
    /// sooner deeper; the answer is then not reproducible. A node limit
    /// counts the main search's nodes (the helpers' come on top, and the
    /// nodes reported are every thread's).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// How many threads search.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Values positions with `evaluation` from now on (`None`: each game's
    /// variant's own, [`Evaluation::for_variant`], the default).
    pub fn set_evaluation(&mut self, evaluation: Option<Evaluation>) {
        self.evaluation = evaluation;
    }

    /// The evaluation a search of `variant` uses: the one set, else the
    /// variant's own ([`Evaluation::for_variant`]). Its
    /// [`Evaluation::summary`] says which it is.
    pub fn evaluation(&self, variant: &murus_engine::Variant) -> Evaluation {
        self.evaluation
            .clone()
            .unwrap_or_else(|| Evaluation::for_variant(variant))
    }

    /// Searches with only these features from now on (for measuring what
    /// each is worth; the default is every feature).
    pub fn set_features(&mut self, features: SearchFeatures) {
        self.features = features;
    }

    /// Forgets what earlier searches stored.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Searches the game's current position, seeing its repetitions and
    /// ply cap, within `limits` or until `handler` says stop; `handler`
    /// hears of each finished iteration. `seed` orders equal moves. `None`
    /// when the game is over.
    pub fn analyse(
        &mut self,
        game: &Game,
        limits: Limits,
        seed: u64,
        handler: &dyn Handler<Info>,
    ) -> Option<Found> {
        self.analyse_lines(game, limits, 1, seed, handler)
    }

    /// [`Analyser::analyse`], finding the `lines` best moves with their
    /// exact scores ([`Found::lines`]); every root move is then searched
    /// with a full window, which costs more than finding the best alone.
    pub fn analyse_lines(
        &mut self,
        game: &Game,
        limits: Limits,
        lines: usize,
        seed: u64,
        handler: &dyn Handler<Info>,
    ) -> Option<Found> {
        if game.outcome().is_some() {
            return None;
        }
        if let Some(found) = self.forced(game, limits, seed, handler) {
            return found;
        }
        struct Task<'a> {
            analyser: &'a mut Analyser,
            game: &'a Game,
            ask: Ask,
            handler: &'a dyn Handler<Info>,
        }
        impl EngineTask for Task<'_> {
            type Output = Option<Found>;
            fn run<B: murus_engine::Word>(self, e: &Engine<B>) -> Option<Found> {
                let pos = B::unwrap(self.game.position()).expect("a position of this variant");
                let mut line = self.game.draw_tracker().clone();
                self.analyser.run(e, pos, &mut line, self.ask, self.handler)
            }
        }
        let variant = game.variant().clone();
        let ask = Ask {
            limits,
            lines,
            seed,
            evaluation: self.evaluation(&variant),
        };
        variant.run(Task {
            analyser: self,
            game,
            ask,
            handler,
        })
    }

    /// A position with one legal move (two players, no swap) is valued as
    /// the position after that move, searched with the same limits: its
    /// score is that position's turned to this side (a win or loss one ply
    /// further), its depth and nodes one more, its line the move and then
    /// that position's line. `None` where the position has a choice; then
    /// `Some` of what [`Analyser::analyse_lines`] answers.
    ///
    /// So a forced move never reads as a level position (`cp 0`): the
    /// search of a forced position is exactly the search of the one that
    /// follows, and a chain of forced moves is followed to its end.
    fn forced(
        &mut self,
        game: &Game,
        limits: Limits,
        seed: u64,
        handler: &dyn Handler<Info>,
    ) -> Option<Option<Found>> {
        let v = game.variant();
        if v.player_count() != 2 {
            return None;
        }
        let [m] = game.legal_moves()[..] else {
            return None;
        };
        if m.kind == MoveKind::Swap {
            return None;
        }
        let started = Instant::now();
        let mover = v.turn(game.position());
        let mut after = game.clone();
        after.play(m);
        let flip = v.turn(after.position()) != mover;
        let turn = |s: Score| turned(s, flip);
        let found = match after.outcome() {
            // The forced move ends the game.
            Some(o) => {
                let score = match o.winner {
                    Some(w) if w == mover => Score::Win(1),
                    Some(_) => Score::Loss(1),
                    None => Score::Cp(0),
                };
                let info = Info {
                    depth: 1,
                    score,
                    nodes: 1,
                    time: started.elapsed(),
                    pv: vec![m],
                };
                handler.progress(&info);
                Found {
                    best: m,
                    score,
                    depth: 1,
                    nodes: 1,
                    time: info.time,
                    pv: vec![m],
                    lines: vec![Line {
                        first: m,
                        score,
                        pv: vec![m],
                    }],
                }
            }
            None => {
                // The same budget; the forced move's own ply is counted in
                // the depth.
                let inner = Limits {
                    depth: limits.depth.map(|d| d.saturating_sub(1).max(1)),
                    ..limits
                };
                let heard = Turned {
                    inner: handler,
                    first: m,
                    flip,
                };
                let f = self.analyse_lines(&after, inner, 1, seed, &heard)?;
                let pv: Vec<Move> = std::iter::once(m).chain(f.pv).collect();
                let score = turn(f.score);
                Found {
                    best: m,
                    score,
                    depth: f.depth + 1,
                    nodes: f.nodes + 1,
                    time: started.elapsed(),
                    lines: vec![Line {
                        first: m,
                        score,
                        pv: pv.clone(),
                    }],
                    pv,
                }
            }
        };
        Some(Some(found))
    }

    fn run<B: Bits>(
        &mut self,
        e: &Engine<B>,
        pos: &Pos<B>,
        line: &mut DrawTracker,
        ask: Ask,
        handler: &dyn Handler<Info>,
    ) -> Option<Found> {
        let Ask {
            limits,
            lines,
            seed,
            evaluation,
        } = ask;
        let started = Instant::now();
        let reports = Reports {
            handler: handler.until(limits.time.map(|t| started + t)),
            started,
            last: Mutex::new(None),
        };
        let mut searcher = Searcher::new(
            e,
            &self.table,
            line,
            limits.nodes.unwrap_or(UNLIMITED),
            &reports,
        )
        .with_depth_limit(limits.depth.unwrap_or(search::MAX_DEPTH))
        .with_lines(lines)
        .with_features(self.features)
        .with_evaluation(&evaluation)
        .with_reports()
        .finishing_first_iteration();
        let result = crate::smp::run(
            &mut searcher,
            self.threads,
            pos,
            &mut SmallRng::seed_from_u64(seed),
        );
        let found_lines: Vec<Line> = std::mem::take(&mut searcher.lines)
            .into_iter()
            .map(|(first, value, pv)| Line {
                first,
                score: Score::from_value(value),
                pv,
            })
            .collect();
        drop(searcher);
        let last = reports
            .last
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let best = result.best?;
        let time = started.elapsed();
        // The last finished iteration's line, unless an unfinished one found
        // a better first move, or a helper thread's deeper search answered.
        let (score, depth, pv) = match last {
            Some(info) if info.pv.first() == Some(&best) => (info.score, info.depth, info.pv),
            Some(info) if result.depth > info.depth => {
                (Score::from_value(result.value), result.depth, vec![best])
            }
            Some(info) => (info.score, info.depth, vec![best]),
            None => (Score::Cp(0), 0, vec![best]),
        };
        let lines = if found_lines.first().map(|l| l.first) == Some(best) {
            found_lines
        } else {
            vec![Line {
                first: best,
                score,
                pv: pv.clone(),
            }]
        };
        Some(Found {
            best,
            score,
            depth,
            nodes: result.nodes,
            time,
            pv,
            lines,
        })
    }
}

/// A score of the position after a move as the side that made it sees
/// it (`flip`: the other side moves there), one ply further from the
/// result: a win or loss in `n` plies becomes one in `n + 1`.
fn turned(s: Score, flip: bool) -> Score {
    match if flip { negate(s) } else { s } {
        Score::Cp(v) => Score::Cp(v),
        Score::Win(n) => Score::Win(n + 1),
        Score::Loss(n) => Score::Loss(n + 1),
    }
}

/// The score the other side sees (two players).
pub fn negate(s: Score) -> Score {
    match s {
        Score::Cp(v) => Score::Cp(-v),
        Score::Win(n) => Score::Loss(n),
        Score::Loss(n) => Score::Win(n),
    }
}

/// The handler of a search of the position after a forced move, as the
/// caller's handler hears it: each iteration one ply deeper, turned to
/// the forced position's side, the forced move first in its line.
struct Turned<'a> {
    inner: &'a dyn Handler<Info>,
    first: Move,
    flip: bool,
}

impl Handler<Info> for Turned<'_> {
    fn stop(&self) -> bool {
        self.inner.stop()
    }
    fn progress(&self, info: &Info) {
        self.inner.progress(&Info {
            depth: info.depth + 1,
            score: turned(info.score, self.flip),
            nodes: info.nodes + 1,
            time: info.time,
            pv: std::iter::once(self.first)
                .chain(info.pv.iter().copied())
                .collect(),
        });
    }
}
