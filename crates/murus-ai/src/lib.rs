//! Bots for any compiled Murus Gallicus variant.
//!
//! A bot is named by a spec string, usable on the command line, in the lab
//! and in the studio:
//!
//! | spec | bot |
//! |---|---|
//! | `random` | a uniformly random legal move |
//! | `greedy` | one ply: the move with the best [evaluation](eval) (a win first) |
//! | `alphabeta[:NODES]` | paranoid alpha-beta, iterative deepening, transposition table; budget in nodes (default 20 000) |
//! | `mcts[:ITERATIONS]` | UCT with proven wins and losses backed up (MCTS-Solver), nodes expanded whole with each child evaluated, implicit minimax backups, tree reuse; budget in iterations (default 10 000) |
//! | `mcts-guided[:ITERATIONS]` | the same, valuing leaves by playouts that take the greedy move one ply in four |
//! | `easy`, `medium`, `hard`, `expert` | named levels: `greedy`, `alphabeta:5000`, `alphabeta:50000`, `alphabeta:500000` |
//! | `ugi:[SETTING …] COMMAND …` | an [external] engine asked over UGI, such as an older build of Murus |
//!
//! Budgets count nodes or iterations, never time, so a game is reproducible
//! from its seed. [`analysis`] runs the alpha-beta search under other
//! limits (depth, time, until stopped) and reports each iteration with its
//! principal variation; [`ugi`] serves it over the UGI engine protocol.
//!
//! The searching bots judge the end of a game as the game does: the rules'
//! own results first, then the variant's draws (a position's repetition
//! since the last capture, the ply cap), through the game's
//! [`DrawTracker`]. [`Bot::choose_in_game`] sees the whole game so far;
//! [`Bot::choose`] starts the line at the position it is given.
//!
//! ```
//! use murus_ai::{Bot, BotSpec};
//! use murus_engine::Variant;
//!
//! let variant = Variant::standard();
//! let spec: BotSpec = "alphabeta:2000".parse().unwrap();
//! let mut bot = Bot::new(spec, 42);
//! let start = variant.start();
//! let m = bot.choose(&variant, &start).expect("the start has moves");
//! assert!(variant.is_legal(&start, m));
//!
//! let mut game = murus_engine::Game::new(&variant);
//! game.play(m);
//! let reply = bot.choose_in_game(&game).expect("the game goes on");
//! assert!(game.play(reply));
//! assert!("alphabeta:lots".parse::<BotSpec>().is_err());
//! ```

pub mod analysis;
pub mod eval;
pub mod evalfile;
pub mod external;
mod mcts;
pub mod nnue;
mod pool;
pub mod proof;
pub mod review;
mod search;
mod smp;
pub mod tactics;
mod tt;
pub mod ugi;

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use murus_engine::job::Handler;
use murus_engine::{
    Bits, DrawTracker, Engine, EngineTask, Game, Move, Pos, Position, Variant, Word,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

pub use evalfile::{EvalFile, EvalFileError, Evaluation, Trained};
pub use external::{ExternalError, UgiEngine, UgiSpec};
pub use mcts::Tree;
pub use search::{SearchFeatures, SearchResult, Table, WIN};

/// Default node budget of `alphabeta`.
pub const DEFAULT_NODES: u64 = 20_000;
/// Default iteration budget of `mcts`.
pub const DEFAULT_ITERATIONS: u32 = 10_000;

/// Which bot, with its budget.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BotSpec {
    Random,
    Greedy,
    AlphaBeta {
        nodes: u64,
        /// An evaluation file (`:eval=FILE`); `None`: the variant's own.
        eval: Option<EvalRef>,
    },
    Mcts {
        iterations: u32,
        guided: bool,
        /// An evaluation file (`:eval=FILE`); `None`: the variant's own.
        eval: Option<EvalRef>,
    },
    /// An external engine over UGI.
    Ugi(UgiSpec),
}

/// An evaluation file named in a bot spec (`alphabeta:20000:eval=FILE`):
/// its path, and its content once read (clones share it, so a lab run
/// reads the file once).
#[derive(Clone, Debug)]
pub struct EvalRef {
    path: String,
    read: Arc<OnceLock<Result<EvalFile, String>>>,
}

impl EvalRef {
    /// A reference to the file at `path` (read when first needed).
    pub fn new(path: &str) -> EvalRef {
        EvalRef {
            path: path.to_string(),
            read: Arc::default(),
        }
    }

    /// The file's path as given.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The file's evaluation for `variant`, or why it cannot be used (it
    /// does not read, or was trained on other rules), with the path.
    pub fn evaluation_for(&self, variant: &Variant) -> Result<Evaluation, String> {
        let file = self.read.get_or_init(|| {
            let bytes = std::fs::read(&self.path).map_err(|e| e.to_string())?;
            EvalFile::from_bytes(&bytes).map_err(|e| e.to_string())
        });
        let path = &self.path;
        let file = file.as_ref().map_err(|e| format!("{path}: {e}"))?;
        file.check_variant(variant)
            .map_err(|e| format!("{path}: {e}"))?;
        Ok(file.clone().evaluation())
    }
}

impl PartialEq for EvalRef {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
    }
}

impl Eq for EvalRef {}

impl std::hash::Hash for EvalRef {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.path.hash(state);
    }
}

impl BotSpec {
    /// The evaluation file the spec names, if any.
    pub fn eval_file(&self) -> Option<&EvalRef> {
        match self {
            BotSpec::AlphaBeta { eval, .. } | BotSpec::Mcts { eval, .. } => eval.as_ref(),
            _ => None,
        }
    }

    /// Checks what the spec needs from `variant`: its evaluation file reads
    /// and was trained on these rules. The lab and the command line ask
    /// before playing, so that a bad file is an error, not a silent
    /// fallback.
    pub fn check(&self, variant: &Variant) -> Result<(), String> {
        match self.eval_file() {
            Some(r) => r.evaluation_for(variant).map(|_| ()),
            None => Ok(()),
        }
    }

    /// Whether the bot searches (and so asks its handler whether to stop).
    pub fn searches(&self) -> bool {
        !matches!(self, BotSpec::Random | BotSpec::Greedy)
    }
}

/// The named levels, weakest first, with their specs. Budgets count nodes,
/// so the lab reproduces them; the studio also bounds their time
/// ([`BotSpec::time_bound`]), so nobody waits long on a big board. The
/// measured gaps between them are in `docs/bots.md`.
pub const LEVELS: [(&str, BotSpec); 4] = [
    ("easy", BotSpec::Greedy),
    (
        "medium",
        BotSpec::AlphaBeta {
            nodes: 5_000,
            eval: None,
        },
    ),
    (
        "hard",
        BotSpec::AlphaBeta {
            nodes: 50_000,
            eval: None,
        },
    ),
    (
        "expert",
        BotSpec::AlphaBeta {
            nodes: 500_000,
            eval: None,
        },
    ),
];

/// Nodes a second of alpha-beta, and iterations a second of MCTS, on the
/// standard board on an ordinary core: [`BotSpec::time_bound`]'s rates.
const NOMINAL_NODES_PER_SECOND: u64 = 1_000_000;
const NOMINAL_ITERATIONS_PER_SECOND: u64 = 100_000;

impl BotSpec {
    /// The longest a player waits for this bot in the studio: its budget at
    /// a nominal rate (1 M nodes or 100 000 MCTS iterations a second,
    /// about the standard board's on an ordinary core), at least a quarter
    /// of a second. On a board where the search runs slower the bot stops
    /// at this time with its best move so far, where the lab, which counts
    /// only nodes, would go on. `None` for bots that do not search, and for
    /// external engines (their settings bound them).
    pub fn time_bound(&self) -> Option<Duration> {
        let ms = match self {
            BotSpec::AlphaBeta { nodes, .. } => {
                nodes.saturating_mul(1000) / NOMINAL_NODES_PER_SECOND
            }
            BotSpec::Mcts { iterations, .. } => {
                u64::from(*iterations) * 1000 / NOMINAL_ITERATIONS_PER_SECOND
            }
            _ => return None,
        };
        Some(Duration::from_millis(ms.max(250)))
    }
}

/// A bot spec that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error(
        "unknown bot `{0}`: expected random, greedy, alphabeta[:NODES], mcts[:ITERATIONS], mcts-guided[:ITERATIONS], easy, medium, hard, expert or ugi:COMMAND"
    )]
    Unknown(String),
    #[error("bot `{0}`: an external engine needs its command: ugi:[KEY=VALUE …] COMMAND [ARG …]")]
    NoCommand(String),
    #[error("bot `{spec}`: the budget `{budget}` is not a whole number from 1 to {max}")]
    Budget {
        spec: String,
        budget: String,
        max: u64,
    },
    #[error("bot `{0}` takes no budget")]
    NoBudget(String),
    #[error("bot `{0}`: only alphabeta, mcts and the searching levels take an evaluation file")]
    NoEval(String),
    #[error("bot `{0}`: `eval=` needs a file")]
    NoEvalFile(String),
}

impl FromStr for BotSpec {
    type Err = SpecError;
    fn from_str(text: &str) -> Result<BotSpec, SpecError> {
        let text = text.trim();
        if let Some(rest) = text
            .get(..4)
            .filter(|p| p.eq_ignore_ascii_case("ugi:"))
            .map(|_| &text[4..])
        {
            return UgiSpec::parse(rest)
                .map(BotSpec::Ugi)
                .ok_or_else(|| SpecError::NoCommand(text.to_string()));
        }
        // `…:eval=FILE` last; the file's path may hold colons.
        let (text, eval) = match text.to_ascii_lowercase().find(":eval=") {
            Some(i) => {
                let path = text[i + 6..].trim();
                if path.is_empty() {
                    return Err(SpecError::NoEvalFile(text.to_string()));
                }
                (&text[..i], Some(EvalRef::new(path)))
            }
            None => (text, None),
        };
        let whole = match &eval {
            Some(r) => format!("{text}:eval={}", r.path()),
            None => text.to_string(),
        };
        let full = || whole.clone();
        let (name, budget) = match text.split_once(':') {
            Some((n, b)) => (n, Some(b)),
            None => (text, None),
        };
        let number = |max: u64| -> Result<Option<u64>, SpecError> {
            match budget {
                None => Ok(None),
                Some(b) => match b.trim().replace('_', "").parse::<u64>() {
                    Ok(n) if (1..=max).contains(&n) => Ok(Some(n)),
                    _ => Err(SpecError::Budget {
                        spec: text.to_string(),
                        budget: b.to_string(),
                        max,
                    }),
                },
            }
        };
        let no_budget = |spec: BotSpec| match budget {
            None => Ok(spec),
            Some(_) => Err(SpecError::NoBudget(full())),
        };
        let spec = match name.to_ascii_lowercase().as_str() {
            "random" => no_budget(BotSpec::Random),
            "greedy" => no_budget(BotSpec::Greedy),
            "alphabeta" | "ab" => Ok(BotSpec::AlphaBeta {
                nodes: number(1_000_000_000_000)?.unwrap_or(DEFAULT_NODES),
                eval: None,
            }),
            "mcts" | "mcts-guided" => Ok(BotSpec::Mcts {
                iterations: number(u64::from(u32::MAX))?.map_or(DEFAULT_ITERATIONS, |n| n as u32),
                guided: name.eq_ignore_ascii_case("mcts-guided"),
                eval: None,
            }),
            level => match LEVELS.iter().find(|(n, _)| *n == level) {
                Some((_, spec)) => no_budget(spec.clone()),
                None => Err(SpecError::Unknown(full())),
            },
        }?;
        match (spec, eval) {
            (spec, None) => Ok(spec),
            (BotSpec::AlphaBeta { nodes, .. }, eval) => Ok(BotSpec::AlphaBeta { nodes, eval }),
            (
                BotSpec::Mcts {
                    iterations, guided, ..
                },
                eval,
            ) => Ok(BotSpec::Mcts {
                iterations,
                guided,
                eval,
            }),
            (_, Some(_)) => Err(SpecError::NoEval(full())),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => write!(f, "random"),
            BotSpec::Greedy => write!(f, "greedy"),
            BotSpec::AlphaBeta { nodes, .. } => write!(f, "alphabeta:{nodes}"),
            BotSpec::Mcts {
                iterations,
                guided: false,
                ..
            } => write!(f, "mcts:{iterations}"),
            BotSpec::Mcts {
                iterations,
                guided: true,
                ..
            } => write!(f, "mcts-guided:{iterations}"),
            BotSpec::Ugi(spec) => write!(f, "{spec}"),
        }?;
        match self.eval_file() {
            Some(r) => write!(f, ":eval={}", r.path()),
            None => Ok(()),
        }
    }
}

/// A bot playing one game: its spec, its seeded random source and what it
/// keeps between moves (transposition table, search tree).
#[derive(Debug)]
pub struct Bot {
    spec: BotSpec,
    rng: SmallRng,
    table: Option<Table>,
    tree: Tree,
    /// The game's line, copied here before each search (which pushes and
    /// pops along it), so that a move allocates nothing once it has room.
    line: Option<DrawTracker>,
    /// An external engine, started on the first move.
    engine: Option<UgiEngine>,
    /// What went wrong with the external engine on the last move.
    error: Option<ExternalError>,
    /// How the searching bots value positions; `None` until set, or until
    /// the bot first sees its variant ([`Bot::prepare`]).
    evaluation: Option<Evaluation>,
    /// Nodes (alpha-beta) or iterations (MCTS) of the last move.
    pub last_nodes: u64,
    /// Depth reached by the last alpha-beta search; 0 when the last move
    /// was not searched (a forced move, played at once, or a bot that does
    /// not search): then [`Bot::last_value`] is no score.
    pub last_depth: u32,
    /// The last alpha-beta search's value for the side to move, in
    /// centi-stones (a proven win or loss: near ±[`WIN`]); meaningful only
    /// where [`Bot::last_depth`] is at least 1 (a score of a forced move
    /// comes from [`analysis::Analyser`], which searches it).
    pub last_value: i32,
}

impl Bot {
    /// A bot for one game, seeded.
    pub fn new(spec: BotSpec, seed: u64) -> Bot {
        Bot {
            spec,
            rng: SmallRng::seed_from_u64(seed),
            table: None,
            tree: Tree::default(),
            line: None,
            engine: None,
            error: None,
            evaluation: None,
            last_nodes: 0,
            last_depth: 0,
            last_value: 0,
        }
    }

    /// The MCTS tree the bot keeps between moves (empty for other bots).
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// Goes on from `tree`, an MCTS tree of this game kept from elsewhere
    /// (the UGI server's last search); its root is found again by position.
    pub fn set_tree(&mut self, tree: Tree) {
        self.tree = tree;
    }

    /// Hands the MCTS tree over, leaving an empty one.
    pub fn take_tree(&mut self) -> Tree {
        std::mem::take(&mut self.tree)
    }

    /// Values positions with `evaluation` from now on (an evaluation file
    /// checked against the variant: [`EvalFile::check_variant`]).
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = Some(evaluation);
    }

    /// Settles what the bot takes from its variant before
    /// [`Bot::choose_fast`]: the variant's own evaluation
    /// ([`Evaluation::for_variant`]: a trained one kept with it or shipped for
    /// it, else the generic features), unless one was set.
    /// [`Bot::choose`] and [`Bot::choose_in_game`] do this themselves.
    pub fn prepare(&mut self, variant: &Variant) {
        if self.evaluation.is_none() {
            // A file that cannot be used was reported by `BotSpec::check`.
            let named = self
                .spec
                .eval_file()
                .and_then(|r| r.evaluation_for(variant).ok());
            self.evaluation = Some(named.unwrap_or_else(|| Evaluation::for_variant(variant)));
        }
    }

    /// How the bot values positions (the generic features until
    /// [`Bot::prepare`] or [`Bot::set_evaluation`]).
    pub fn evaluation(&self) -> &Evaluation {
        self.evaluation.as_ref().unwrap_or(&Evaluation::Generic)
    }

    /// The bot's spec.
    pub fn spec(&self) -> &BotSpec {
        &self.spec
    }

    /// Whether the bot is an external engine: asked with the game's moves
    /// ([`Bot::choose_external`], or [`Bot::choose_in_game`]), never with
    /// [`Bot::choose_fast`].
    pub fn is_external(&self) -> bool {
        matches!(self.spec, BotSpec::Ugi(_))
    }

    /// What went wrong with an external engine when the last
    /// [`Bot::choose`] or [`Bot::choose_in_game`] answered `None`.
    pub fn error(&self) -> Option<&ExternalError> {
        self.error.as_ref()
    }

    /// An external engine's move in the game that started at `start` and
    /// went on with `moves`; once `handler` says stop, the engine is told to
    /// answer at once. The engine is started on the first call.
    pub fn choose_external(
        &mut self,
        variant: &Variant,
        start: &Position,
        moves: &[Move],
        handler: &dyn Handler,
    ) -> Result<Move, ExternalError> {
        let BotSpec::Ugi(spec) = &self.spec else {
            return Err(ExternalError {
                command: self.spec.to_string(),
                what: "not an external engine".into(),
            });
        };
        let engine = match &mut self.engine {
            Some(engine) => engine,
            None => self.engine.insert(UgiEngine::start(spec)?),
        };
        engine.choose(variant, start, moves, handler)
    }

    /// [`Bot::choose_external`], keeping its error for [`Bot::error`].
    fn external_or_none(
        &mut self,
        variant: &Variant,
        start: &Position,
        moves: &[Move],
        handler: &dyn Handler,
    ) -> Option<Move> {
        match self.choose_external(variant, start, moves, handler) {
            Ok(m) => {
                self.error = None;
                Some(m)
            }
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }

    /// Nodes of the MCTS search tree kept for the next move (it is re-rooted
    /// at the position the bot is next asked about); 0 for other bots.
    pub fn tree_size(&self) -> usize {
        self.tree.len()
    }

    /// Chooses a move in `pos`, taken as the start of a line of play: no
    /// earlier position counts towards a repetition, and the ply cap is
    /// counted from `pos`. `None` when there is no move (the game is over).
    /// In a game, [`Bot::choose_in_game`] sees the game's repetitions and
    /// ply cap. The search runs to its budget; [`Bot::choose_with`] may stop
    /// it sooner.
    pub fn choose(&mut self, variant: &Variant, pos: &Position) -> Option<Move> {
        self.choose_with(variant, pos, &())
    }

    /// [`Bot::choose`], asking `handler` whether to stop: a search then
    /// returns its best move so far (the studio's Cancel button, a time
    /// bound such as [`BotSpec::time_bound`]). Only a handler that never
    /// stops keeps a game reproducible from its seed.
    pub fn choose_with(
        &mut self,
        variant: &Variant,
        pos: &Position,
        handler: &dyn Handler,
    ) -> Option<Move> {
        if self.is_external() {
            if variant.legal_moves(pos).is_empty() {
                return None;
            }
            return self.external_or_none(variant, pos, &[], handler);
        }
        let line = DrawTracker::new(variant.rules().draw, variant.hash(pos));
        self.choose_along(variant, pos, &line, handler)
    }

    /// Chooses a move in the game's current position, judging repetitions
    /// and the ply cap along the whole game; `None` when the game is over,
    /// drawn games included.
    pub fn choose_in_game(&mut self, game: &Game) -> Option<Move> {
        self.choose_in_game_with(game, &())
    }

    /// [`Bot::choose_in_game`], asking `handler` whether to stop (see
    /// [`Bot::choose_with`]).
    pub fn choose_in_game_with(&mut self, game: &Game, handler: &dyn Handler) -> Option<Move> {
        if self.is_external() {
            if game.outcome().is_some() {
                return None;
            }
            return self.external_or_none(game.variant(), game.start(), game.moves(), handler);
        }
        self.choose_along(
            game.variant(),
            game.position(),
            game.draw_tracker(),
            handler,
        )
    }

    /// Chooses a move in `pos`, reached along `line`.
    fn choose_along(
        &mut self,
        variant: &Variant,
        pos: &Position,
        line: &DrawTracker,
        handler: &dyn Handler,
    ) -> Option<Move> {
        self.prepare(variant);
        struct Task<'a> {
            bot: &'a mut Bot,
            pos: &'a Position,
            line: &'a DrawTracker,
            handler: &'a dyn Handler,
        }
        impl EngineTask for Task<'_> {
            type Output = Option<Move>;
            fn run<B: Word>(self, e: &Engine<B>) -> Option<Move> {
                let pos = B::unwrap(self.pos).expect("a position of this variant");
                let mut moves = e.move_list();
                e.legal_moves(pos, &mut moves);
                self.bot
                    .choose_fast(e, pos, self.line, &moves, self.handler)
            }
        }
        variant.run(Task {
            bot: self,
            pos,
            line,
            handler,
        })
    }

    /// [`Bot::choose`] on the engine at its native width, for `pos` reached
    /// along `line` (whose current position is `pos`), given the legal
    /// moves of `pos` (the lab's hot loop generates them once). `None` when
    /// there is no move or `line` is drawn, and for an external engine
    /// ([`Bot::is_external`]), which needs the game's moves. A search asks
    /// `handler` whether to stop every few thousand nodes.
    pub fn choose_fast<B: Bits>(
        &mut self,
        e: &Engine<B>,
        pos: &Pos<B>,
        line: &DrawTracker,
        buffer: &[Move],
        handler: &dyn Handler,
    ) -> Option<Move> {
        debug_assert_eq!(line.current(), pos.hash(), "the line ends at `pos`");
        if buffer.is_empty() || line.draw().is_some() {
            return None;
        }
        self.last_nodes = 0;
        self.last_depth = 0;
        self.last_value = 0;
        // A forced move is played at once in the lab's games: nothing to
        // choose, and no score is kept of it (`last_depth` 0 says so; the
        // training data leaves such positions out).
        if buffer.len() == 1 {
            return Some(buffer[0]);
        }
        match self.spec {
            // Asked with the game's moves, which this call does not have.
            BotSpec::Ugi(_) => None,
            BotSpec::Random => Some(buffer[self.rng.random_range(0..buffer.len())]),
            BotSpec::Greedy => Some(self.greedy(e, pos, line, buffer)),
            BotSpec::AlphaBeta { nodes, .. } => {
                let bits = (nodes.max(1024).next_power_of_two().trailing_zeros()).min(20);
                let table = self.table.get_or_insert_with(|| Table::new(bits));
                let line = scratch(&mut self.line, line);
                let stop = search::StopOnly(handler);
                let mut s = search::Searcher::new(e, table, line, nodes, &stop)
                    .with_evaluation(self.evaluation.as_ref().unwrap_or(&Evaluation::Generic));
                let r = s.run(pos, &mut self.rng);
                self.last_nodes = r.nodes;
                self.last_depth = r.depth;
                self.last_value = r.value;
                r.best
            }
            BotSpec::Mcts {
                iterations, guided, ..
            } => {
                let m = mcts::Mcts {
                    e,
                    iterations,
                    guided,
                    handler,
                    evaluation: self.evaluation.as_ref().unwrap_or(&Evaluation::Generic),
                };
                let line = scratch(&mut self.line, line);
                let (best, done) = m.run(&mut self.tree, pos, line, &mut self.rng);
                self.last_nodes = done;
                // Stopped at once, the root has one child at most: still a
                // legal move, never `None` while moves exist.
                best.or_else(|| Some(buffer[self.rng.random_range(0..buffer.len())]))
            }
        }
    }

    fn greedy<B: Bits>(
        &mut self,
        e: &Engine<B>,
        pos: &Pos<B>,
        line: &DrawTracker,
        moves: &[Move],
    ) -> Move {
        let me = pos.turn();
        let evaluation = self.evaluation.as_ref().unwrap_or(&Evaluation::Generic);
        let w = evaluation
            .weights()
            .unwrap_or_else(|| eval::Weights::for_engine(e));
        let net = evaluation.network().filter(|n| n.fits(e));
        let line = scratch(&mut self.line, line);
        let mut best: Vec<Move> = Vec::new();
        let mut best_value = i32::MIN;
        for &m in moves {
            let mut child = *pos;
            let capture = e.is_capture(pos, m);
            e.apply(&mut child, m);
            line.push(child.hash(), capture);
            let end = e.end_of_game(&child, line);
            line.pop();
            let value = match end {
                Some(o) if o.winner == Some(me) => i32::MAX,
                Some(o) if o.winner.is_some() => i32::MIN + 1,
                Some(_) => 0,
                None => match net {
                    Some(n) if evaluation.adds_features() => {
                        n.evaluate_for(&child, me) + eval::evaluate(e, &w, &child, me, true)
                    }
                    Some(n) => n.evaluate_for(&child, me),
                    None => eval::evaluate(e, &w, &child, me, true),
                },
            };
            if value > best_value {
                best_value = value;
                best.clear();
            }
            if value == best_value {
                best.push(m);
            }
        }
        best[self.rng.random_range(0..best.len())]
    }
}

/// Parses a comma-separated list of bot specs (`random,alphabeta:2000`).
pub fn parse_specs(text: &str) -> Result<Vec<BotSpec>, SpecError> {
    text.split(',').map(str::parse).collect()
}

/// The bot's own copy of the game's `line`, in `slot`'s memory (see
/// [`DrawTracker::copy_from`]).
fn scratch<'a>(slot: &'a mut Option<DrawTracker>, line: &DrawTracker) -> &'a mut DrawTracker {
    let copy = slot.get_or_insert_with(|| line.clone());
    copy.copy_from(line);
    copy
}
