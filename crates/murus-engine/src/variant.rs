//! [`Variant`]: a compiled rule file, hiding the bitboard width. This is
//! the facade: compiling, the start, legal moves, playing, outcomes. Other
//! modules add what needs names: [`crate::notation`] (moves as text),
//! [`crate::position_string`] (positions as text), [`crate::render`]
//! (drawings) and [`crate::setup`] (positions assembled cell by cell).

use std::sync::Arc;

use murus_dsl::rules::{Adjudication, DrawRules, MAX_PLAYERS, Material, Rules};
use murus_dsl::text::count;
use murus_dsl::{Diagnostic, Geometry, RulesKey};

use crate::bits::Bits;
use crate::core::{Engine, Phase, Pos, StonesRemoved};
use crate::draw::DrawTracker;
use crate::moves::{Action, Move};
use crate::outcome::{Outcome, Reason};

/// The shipped variants, written once: each name `NAME` embeds
/// `variants/NAME.mg` in [`BUILTIN`] and its trained evaluation
/// `variants/NAME.eval` in [`BUILTIN_EVALUATIONS`], so that neither list can
/// lose or gain a variant the other lacks (a variant without its `.eval`
/// does not build).
macro_rules! shipped {
    ($($name:literal),* $(,)?) => {
        /// The variants shipped in `variants/`, embedded in the binary:
        /// `(name, source)`.
        pub const BUILTIN: &[(&str, &str)] =
            &[$(($name, include_str!(concat!("../../../variants/", $name, ".mg")))),*];
        /// The trained evaluation shipped beside each variant of
        /// [`BUILTIN`], in the same order: `(name, bytes of NAME.eval)`.
        /// `murus_ai::evalfile` reads them.
        pub const BUILTIN_EVALUATIONS: &[(&str, &[u8])] =
            &[$(($name, include_bytes!(concat!("../../../variants/", $name, ".eval")))),*];
    };
}

shipped!(
    "standard",
    "houdini",
    "escape",
    "checkerboard",
    "small",
    "large",
    "advanced",
    "advanced-delayed",
    "pie",
    "hex",
    "hex3-escape",
    "escape4",
    "ballista",
    "hill",
    "attrition",
    "siege",
    "alesia",
    "cavalry",
);

/// A bitboard word the facade knows how to wrap.
pub trait Word: Bits {
    #[doc(hidden)]
    fn wrap(pos: Pos<Self>) -> Position;
    #[doc(hidden)]
    fn unwrap(pos: &Position) -> Option<&Pos<Self>>;
}

impl Word for u64 {
    fn wrap(pos: Pos<u64>) -> Position {
        Position(Repr::Narrow(pos))
    }
    fn unwrap(pos: &Position) -> Option<&Pos<u64>> {
        match &pos.0 {
            Repr::Narrow(p) => Some(p),
            Repr::Wide(_) => None,
        }
    }
}

impl Word for u128 {
    fn wrap(pos: Pos<u128>) -> Position {
        Position(Repr::Wide(pos))
    }
    fn unwrap(pos: &Position) -> Option<&Pos<u128>> {
        match &pos.0 {
            Repr::Wide(p) => Some(p),
            Repr::Narrow(_) => None,
        }
    }
}

/// Code that runs on a variant's engine at its own bitboard width, so hot
/// loops (search, playouts) are monomorphised once per call.
pub trait EngineTask {
    type Output;
    fn run<B: Word>(self, engine: &Engine<B>) -> Self::Output;
}

#[derive(Clone, Debug)]
enum Imp {
    Narrow(Box<Engine<u64>>),
    Wide(Box<Engine<u128>>),
}

/// A position of some variant. Use it only with the variant that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position(Repr);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Repr {
    Narrow(Pos<u64>),
    Wide(Pos<u128>),
}

/// Runs `$body` with `$e` bound to the engine and `$p` to the position.
macro_rules! with {
    ($v:expr, $pos:expr, |$e:ident, $p:ident| $body:expr) => {
        match (&$v.imp, &$pos.0) {
            (Imp::Narrow($e), Repr::Narrow($p)) => $body,
            (Imp::Wide($e), Repr::Wide($p)) => $body,
            _ => panic!("a position was used with a variant of another board size"),
        }
    };
}

/// A compiled variant: rules, engine tables, and everything that needs
/// names (notation, position strings, drawings).
#[derive(Clone, Debug)]
pub struct Variant {
    rules: Arc<Rules>,
    source: Arc<str>,
    key: RulesKey,
    imp: Imp,
    /// The evaluation kept with these rules, if any ([`Variant::with_evaluation`]).
    evaluation: Option<KeptEvaluation>,
    /// Where the rules are the same in a left-right mirror, the slot each
    /// slot goes to ([`Variant::mirror`]).
    mirror: Option<Arc<[u8]>>,
}

/// An evaluation file's bytes kept with a variant: murus-ai reads them.
/// Shown by its size, not its bytes.
#[derive(Clone)]
struct KeptEvaluation(Arc<[u8]>);

impl std::fmt::Debug for KeptEvaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KeptEvaluation({} bytes)", self.0.len())
    }
}

impl Variant {
    /// Compiles rule-file text. Declared parameters (`param files = 7..9`)
    /// take their defaults, and [`Variant::source`] is `source` itself.
    pub fn compile(source: &str) -> Result<Variant, Vec<Diagnostic>> {
        let compiled = murus_dsl::compile(source)?;
        Ok(Variant::from_rules(compiled.rules, source))
    }

    /// Compiles one combination of a rule file's parameters: `("files", 9)`
    /// sets `$files` to 9, the others keep their defaults. The variant is
    /// compiled from [`murus_dsl::instantiate`]'s text, each declaration
    /// rewritten to its one value (`param files = 9`), and that text is its
    /// [`Variant::source`], so that records name the combination they were
    /// played under; its [`Variant::rules_key`] is that of the rules it
    /// compiles to.
    ///
    /// Diagnostics point into `source` (as [`murus_dsl::compile_with`] gives
    /// them), not into the rewritten text.
    pub fn compile_with(
        source: &str,
        settings: &[(String, u32)],
    ) -> Result<Variant, Vec<Diagnostic>> {
        // Checked against `source` first, so that errors point into it.
        murus_dsl::compile_with(source, settings)?;
        let text = murus_dsl::instantiate(source, settings)?;
        Variant::compile(&text)
    }

    /// Wraps already validated rules.
    pub fn from_rules(rules: Rules, source: &str) -> Variant {
        let rules = Arc::new(rules);
        let imp = if rules.geometry.slots() <= u64::SLOTS {
            Imp::Narrow(Box::new(Engine::new(rules.clone())))
        } else {
            Imp::Wide(Box::new(Engine::new(rules.clone())))
        };
        let mirror = (rules.left_right_mirror())
            .map(|m| m.into_iter().map(|s| s as u8).collect::<Arc<[u8]>>());
        Variant {
            key: rules.key(),
            rules,
            source: source.into(),
            imp,
            evaluation: None,
            mirror,
        }
    }

    /// The variant with `bytes`, an evaluation file (`.eval`) trained for
    /// these rules, kept with it: a rules file's own evaluation beside it
    /// (`foo.eval` beside `foo.mg`), or one just trained. Bots given this
    /// variant use it unless their spec names another file; it travels with
    /// the variant, so nothing else in the process sees it. Not part of
    /// the rules' identity ([`Variant::rules_key`]). murus-ai reads and
    /// checks it (`murus_ai::Evaluation::for_variant`); bytes that do not
    /// read as an evaluation of these rules are ignored there.
    pub fn with_evaluation(mut self, bytes: impl Into<Arc<[u8]>>) -> Variant {
        self.evaluation = Some(KeptEvaluation(bytes.into()));
        self
    }

    /// The evaluation file's bytes kept with the variant
    /// ([`Variant::with_evaluation`]), if any.
    pub fn kept_evaluation(&self) -> Option<&[u8]> {
        self.evaluation.as_ref().map(|e| &*e.0)
    }

    /// A shipped variant by name (`standard`, `advanced`, …).
    pub fn builtin(name: &str) -> Option<Variant> {
        let (_, src) = BUILTIN.iter().find(|(n, _)| *n == name)?;
        Variant::compile(src).ok()
    }

    /// The standard game, from the embedded `variants/standard.mg`.
    pub fn standard() -> Variant {
        Variant::builtin("standard").expect("the embedded standard variant compiles")
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The rule-file text it was compiled from.
    pub fn source(&self) -> &str {
        &self.source
    }
    /// The identity of the rules, whatever the text that states them
    /// ([`RulesKey`]): trained evaluations belong to it, so a comment or a
    /// new title in the rule file keeps them.
    pub fn rules_key(&self) -> RulesKey {
        self.key
    }
    /// The variant's short name.
    pub fn name(&self) -> &str {
        &self.rules.name
    }
    /// The board.
    pub fn geometry(&self) -> &Geometry {
        &self.rules.geometry
    }
    /// Number of players.
    pub fn player_count(&self) -> usize {
        self.rules.players.len()
    }
    /// The name of player `p` ("Romans"), or "player N" for a player the
    /// rules do not have.
    pub fn player_name(&self, p: usize) -> String {
        self.rules
            .players
            .get(p)
            .map_or_else(|| format!("player {}", p + 1), |x| x.name.clone())
    }
    /// The letter of player `p`.
    pub fn letter(&self, p: usize) -> char {
        self.rules.players[p].letter
    }
    /// The player with this letter.
    pub fn player_by_letter(&self, letter: char) -> Option<usize> {
        self.rules.players.iter().position(|p| p.letter == letter)
    }

    /// Runs `task` on the engine at its native width.
    pub fn run<T: EngineTask>(&self, task: T) -> T::Output {
        match &self.imp {
            Imp::Narrow(e) => task.run(e),
            Imp::Wide(e) => task.run(e),
        }
    }

    /// The start position.
    pub fn start(&self) -> Position {
        match &self.imp {
            Imp::Narrow(e) => Position(Repr::Narrow(e.start())),
            Imp::Wide(e) => Position(Repr::Wide(e.start())),
        }
    }

    /// The legal moves, in generation order.
    pub fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        with!(self, pos, |e, p| {
            let mut v = e.move_list();
            e.legal_moves(p, &mut v);
            v
        })
    }

    /// Whether `m` is legal in `pos`.
    pub fn is_legal(&self, pos: &Position, m: Move) -> bool {
        self.legal_moves(pos).contains(&m)
    }

    /// Plays `m`, which must be legal in `pos`.
    pub fn play(&self, pos: &Position, m: Move) -> Position {
        let mut next = *pos;
        match (&self.imp, &mut next.0) {
            (Imp::Narrow(e), Repr::Narrow(p)) => e.apply(p, m),
            (Imp::Wide(e), Repr::Wide(p)) => e.apply(p, m),
            _ => panic!("a position was used with a variant of another board size"),
        }
        next
    }

    /// The result, if the game is over at `pos`.
    pub fn outcome(&self, pos: &Position) -> Option<Outcome> {
        with!(self, pos, |e, p| e.outcome(p))
    }

    /// The outcome as a sentence with the players' names: "Gauls win by
    /// breakthrough", "Romans win by breakthrough with a thrown stone",
    /// "Draw by repetition (the same position 3 times)".
    pub fn describe_outcome(&self, o: Outcome) -> String {
        self.describe_outcome_under(o, self.rules.draw)
    }

    /// [`Variant::describe_outcome`] for the game ended at `pos`: a
    /// reduction says what the loser was left with ("the loser down to 3
    /// stones"), where the position-free sentence can only give the most
    /// the rule allows.
    pub fn describe_outcome_at(&self, o: Outcome, pos: &Position) -> String {
        self.describe(o, self.rules.draw, Some(pos))
    }

    /// [`Variant::describe_outcome`] for a game played under other draw
    /// rules than the variant's own, such as a lab run's `--max-plies`.
    pub fn describe_outcome_under(&self, o: Outcome, draw: DrawRules) -> String {
        self.describe(o, draw, None)
    }

    /// How many stones, or towers (stacks of two or more), `player` has.
    fn material(&self, pos: &Position, player: usize, material: Material) -> u32 {
        match material {
            Material::Stones => self.stone_count(pos, player),
            Material::Towers => self
                .geometry()
                .cells()
                .filter(|&c| {
                    self.stack(pos, c)
                        .is_some_and(|(q, h)| q == player && h >= 2)
                })
                .count() as u32,
        }
    }

    fn describe(&self, o: Outcome, draw: DrawRules, pos: Option<&Position>) -> String {
        let how = match o.reason {
            Reason::BreakthroughSow => "breakthrough".to_string(),
            Reason::BreakthroughThrow => "breakthrough with a thrown stone".to_string(),
            Reason::BreakthroughDelayed => "delayed breakthrough".to_string(),
            Reason::Stalemate => "stalemate".to_string(),
            Reason::Elimination => "elimination".to_string(),
            Reason::Repetition => match draw.repetition {
                Some(n) => format!("repetition (the same position {n} times)"),
                None => "repetition".to_string(),
            },
            Reason::PlyCap => match draw.ply_cap {
                Some(n) => format!("the ply cap ({})", count(n, "ply", "plies")),
                None => "the ply cap".to_string(),
            },
            Reason::Occupation => "occupation".to_string(),
            // The loser's rule: with two players, the one who did not win.
            Reason::Reduced => match o
                .winner
                .filter(|_| self.rules.players.len() == 2)
                .and_then(|w| self.rules.win(1 - w).reduced)
                .or_else(|| self.rules.wins().find_map(|w| w.reduced))
            {
                Some(r) => {
                    let what = match r.material {
                        Material::Stones => ("stone", "stones"),
                        Material::Towers => ("tower", "towers"),
                    };
                    // What the loser has left, where the position is known;
                    // else the most the rule leaves it.
                    match (pos, o.winner) {
                        (Some(p), Some(w)) if self.rules.players.len() == 2 => format!(
                            "reduction (the loser down to {})",
                            count(self.material(p, 1 - w, r.material), what.0, what.1)
                        ),
                        _ => format!(
                            "reduction (the loser down to at most {})",
                            count(r.at_most, what.0, what.1)
                        ),
                    }
                }
                None => "reduction".to_string(),
            },
            Reason::Capture => match o.winner.and_then(|w| self.rules.win(w).capture) {
                Some(n) => format!(
                    "capture ({} taken)",
                    count(n, "enemy stone", "enemy stones")
                ),
                None => "capture".to_string(),
            },
            // Endings people give (the playtest server), never the rules'.
            Reason::Resignation => "resignation".to_string(),
            Reason::Agreement => "a draw agreed".to_string(),
            Reason::Time => "time".to_string(),
            Reason::Adjudication
                if matches!(self.rules.adjudicate, Some(Adjudication::Player(_))) =>
            {
                match (o.winner, draw.ply_cap) {
                    (Some(_), Some(n)) => {
                        format!("adjudication (held out for {})", count(n, "ply", "plies"))
                    }
                    (Some(_), None) => "adjudication (held out)".to_string(),
                    // The player the adjudication names is out of the game.
                    (None, _) => "adjudication (its player is out of the game)".to_string(),
                }
            }
            Reason::Adjudication => {
                let what = match &self.rules.adjudicate {
                    Some(Adjudication::Material(Material::Stones)) => "stones",
                    Some(Adjudication::Material(Material::Towers)) => "towers",
                    Some(Adjudication::Stacks(_)) => "stacks on the counted cells",
                    Some(Adjudication::Player(_)) | None => "of the count",
                };
                let most = if o.winner.is_some() {
                    "the most"
                } else {
                    "equal"
                };
                match draw.ply_cap {
                    Some(n) => format!(
                        "adjudication ({most} {what} after {})",
                        count(n, "ply", "plies")
                    ),
                    None => format!("adjudication ({most} {what})"),
                }
            }
        };
        match (o.winner.and_then(|w| self.rules.players.get(w)), o.reason) {
            (Some(winner), Reason::Time) => format!("{} win on time", winner.name),
            (Some(winner), _) => format!("{} win by {how}", winner.name),
            (None, Reason::Agreement) => "Draw agreed".to_string(),
            (None, _) => format!("Draw by {how}"),
        }
    }

    /// Whether `m` removes stones from the board (no earlier position can
    /// occur again after it).
    pub fn is_capture(&self, pos: &Position, m: Move) -> bool {
        with!(self, pos, |e, p| e.is_capture(p, m))
    }

    /// The stones `m`, a legal move of `pos`, takes off the board: for a
    /// sacrifice, what its rule costs each side (`b4xc5` loses one own
    /// stone, `d5xxd4` both); for a throw, the thrown stone and the stones
    /// it knocks off, or the stone alone where a throw onto an empty cell
    /// loses it; nothing for sowings, splits and swaps.
    pub fn stones_removed(&self, pos: &Position, m: Move) -> StonesRemoved {
        with!(self, pos, |e, p| e.stones_removed(p, m))
    }

    /// The cells `m` touches, in order, for highlighting: its origin, then
    /// every cell a sowing drops a stone on, the stack a sacrifice hits, a
    /// throw's landing cell (the stone flies over the cells between), a
    /// split's two cells; none for a swap.
    pub fn move_cells(&self, m: Move) -> Vec<usize> {
        let Action::Sow {
            from,
            to,
            direction,
        } = m.action()
        else {
            return m.origin().into_iter().chain(m.targets()).collect();
        };
        let g = self.geometry();
        let mut cells = vec![from];
        if let Some(d) = self.rules.direction(direction) {
            let mut at = from;
            while at != to {
                let Some(next) = g.step(at, d, 1) else { break };
                cells.push(next);
                at = next;
            }
        }
        if cells.last() != Some(&to) {
            cells.push(to);
        }
        cells
    }

    /// Whether the game is over at `pos`, reached along `line`: the rules'
    /// own result first, then the draw rules (see [`Engine::judge`]).
    pub fn end_of_game(&self, pos: &Position, line: &DrawTracker) -> Option<Outcome> {
        with!(self, pos, |e, p| e.end_of_game(p, line))
    }

    /// Leaf count `depth` plies ahead.
    pub fn perft(&self, pos: &Position, depth: u32) -> u64 {
        with!(self, pos, |e, p| e.perft(p, depth))
    }

    /// [`Variant::perft`] on the copy of the generator's loop `path` names
    /// (see [`crate::simd`]; the plain one where the CPU lacks the other).
    pub fn perft_on(&self, pos: &Position, depth: u32, path: crate::simd::Path) -> u64 {
        with!(self, pos, |e, p| e.perft_on(p, depth, path))
    }

    /// Leaf count below each legal move.
    pub fn perft_divide(&self, pos: &Position, depth: u32) -> Vec<(Move, u64)> {
        let depth = depth.max(1);
        self.legal_moves(pos)
            .into_iter()
            .map(|m| (m, self.perft(&self.play(pos, m), depth - 1)))
            .collect()
    }

    /// The player to move.
    pub fn turn(&self, pos: &Position) -> usize {
        with!(self, pos, |_e, p| p.turn())
    }
    /// The opening phase.
    pub fn phase(&self, pos: &Position) -> Phase {
        with!(self, pos, |_e, p| p.phase())
    }
    /// Whether player `player` has been eliminated.
    pub fn is_out(&self, pos: &Position, player: usize) -> bool {
        with!(self, pos, |_e, p| p.is_out(player))
    }
    /// The incrementally kept Zobrist hash.
    pub fn hash(&self, pos: &Position) -> u64 {
        with!(self, pos, |_e, p| p.hash())
    }
    /// Where the rules play the same in a mirror that swaps the files (see
    /// [`Rules::left_right_mirror`]), the slot each slot goes to; `None`
    /// otherwise. A position and its mirror image then have the same value.
    pub fn mirror(&self) -> Option<&[u8]> {
        self.mirror.as_deref()
    }
    /// The hash of `pos`'s mirror image, where the rules are symmetric
    /// ([`Variant::mirror`]).
    pub fn mirrored_hash(&self, pos: &Position) -> Option<u64> {
        let m = self.mirror()?;
        Some(with!(self, pos, |e, p| e.mirrored_hash(p, m)))
    }
    /// One hash for a position and its mirror image where the rules are
    /// symmetric (the smaller of the two), the hash itself otherwise.
    pub fn symmetric_hash(&self, pos: &Position) -> u64 {
        with!(self, pos, |e, p| e.symmetric_hash(p, self.mirror()))
    }
    /// The mirror image of `pos` where the rules are symmetric
    /// ([`Variant::mirror`]): each stack moved to the mirrored cell, the
    /// rest (turn, phase, stones taken) as it is.
    pub fn mirror_position(&self, pos: &Position) -> Option<Position> {
        let m = self.mirror()?;
        let mut setup = crate::Setup::from(pos);
        setup.clear_stacks();
        for (cell, stack) in crate::Setup::from(pos).stacks() {
            setup.set_stack(usize::from(m[cell]), Some(stack));
        }
        setup.build(self).ok()
    }
    /// The Zobrist hash recomputed from scratch.
    pub fn hash_from_scratch(&self, pos: &Position) -> u64 {
        with!(self, pos, |e, p| e.hash_of(p))
    }
    /// The stack on a cell: `(player, height)`.
    pub fn stack(&self, pos: &Position, slot: usize) -> Option<(usize, u8)> {
        with!(self, pos, |_e, p| p.stack(slot))
    }
    /// Stones player `player` has on the board.
    pub fn stone_count(&self, pos: &Position, player: usize) -> u32 {
        with!(self, pos, |_e, p| p.stone_count(player))
    }
    /// How the game would end were it to reach the ply cap at `pos`: the
    /// adjudication's result (a winner, or a draw on a tie for the most);
    /// `None` where the rules simply draw such a game.
    pub fn adjudicated(&self, pos: &Position) -> Option<Outcome> {
        self.rules.adjudicate.as_ref()?;
        Some(with!(self, pos, |e, p| e.drawn(p, Reason::PlyCap)))
    }
    /// What `adjudicate …` counts for `player` in `pos` (its stones, towers
    /// or stacks on the counted cells; with `adjudicate for L`, 1 for `L`
    /// and 0 for the others); `None` where the rules draw a game at the ply
    /// cap.
    pub fn adjudication_count(&self, pos: &Position, player: usize) -> Option<u32> {
        with!(self, pos, |e, p| e.adjudication_count(p, player))
    }
    /// Enemy stones player `player` has taken in the game so far, where the
    /// rules count them (`capture N stones`); 0 otherwise. At most 255.
    pub fn taken(&self, pos: &Position, player: usize) -> u32 {
        pos.taken().get(player).map_or(0, |&n| u32::from(n))
    }
    /// Whether positions count the stones each player has taken: some
    /// player wins by `capture N stones`.
    pub fn counts_taken(&self) -> bool {
        self.rules.wins().any(|w| w.capture.is_some())
    }
    /// Where the variant counts the stones taken, each player's count as
    /// `Romans 2 of 6, Gauls 1` (`of N`: its `capture N stones`); `None`
    /// elsewhere. For status lines and diagrams.
    pub fn taken_summary(&self, pos: &Position) -> Option<String> {
        if !self.counts_taken() {
            return None;
        }
        let counts: Vec<String> = (self.rules.players.iter().enumerate())
            .map(|(p, player)| {
                let n = self.taken(pos, p);
                match self.rules.win(p).capture {
                    Some(goal) => format!("{} {n} of {goal}", player.name),
                    None => format!("{} {n}", player.name),
                }
            })
            .collect();
        Some(counts.join(", "))
    }

    /// A position of stacks `(slot, player, height)`, which [`crate::Setup`]
    /// has checked, after the start-of-turn rules; `won` marks a game
    /// already won by an immediate breakthrough.
    pub(crate) fn assemble(
        &self,
        stacks: &[(usize, usize, u8)],
        turn: (usize, usize),
        phase: Phase,
        out: (u8, [u8; MAX_PLAYERS]),
        won: Option<Outcome>,
    ) -> Position {
        match &self.imp {
            Imp::Narrow(e) => Position(Repr::Narrow(e.make(stacks, turn, phase, out, won))),
            Imp::Wide(e) => Position(Repr::Wide(e.make(stacks, turn, phase, out, won))),
        }
    }
}

impl Position {
    /// Every stack as `(slot, player, height)`, in no particular order.
    pub(crate) fn stacks(&self) -> Vec<(usize, usize, u8)> {
        match &self.0 {
            Repr::Narrow(p) => p.stacks().collect(),
            Repr::Wide(p) => p.stacks().collect(),
        }
    }
    /// The side to move, the phase and the eliminated players (one bit each).
    pub(crate) fn turn_phase_out(&self) -> (usize, Phase, u8) {
        match &self.0 {
            Repr::Narrow(p) => (p.turn(), p.phase(), p.out),
            Repr::Wide(p) => (p.turn(), p.phase(), p.out),
        }
    }

    /// The enemy stones each player has taken (all 0 unless the rules
    /// count them: `capture N stones`).
    pub(crate) fn taken(&self) -> [u8; MAX_PLAYERS] {
        match &self.0 {
            Repr::Narrow(p) => p.taken,
            Repr::Wide(p) => p.taken,
        }
    }

    /// The step of the turn order ([`Pos::step`]).
    pub(crate) fn step(&self) -> usize {
        match &self.0 {
            Repr::Narrow(p) => p.step(),
            Repr::Wide(p) => p.step(),
        }
    }
}
