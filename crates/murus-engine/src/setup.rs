//! [`Setup`]: a position assembled cell by cell and not yet checked against
//! the rules, as an editor holds it. [`Setup::problems`] lists everything
//! that keeps it from being a position of a variant; [`Setup::build`] makes
//! the [`Position`] or names the first problem.
//!
//! A set-up is to a [`Position`] what shakmaty's `Setup` is to its
//! `Position`: any stacks on any slots, any side to move, any phase; a
//! position is one the rules can reach.

use std::collections::{BTreeMap, BTreeSet};

use murus_dsl::rules::{MAX_PLAYERS, Opening, Timing};

use crate::core::Phase;
use crate::outcome::{Outcome, Reason};
use crate::variant::{Position, Variant};

/// Stacks on cells, the side to move, the opening phase and the eliminated
/// players, unchecked.
///
/// Cells are slots of the variant's [`murus_dsl::Geometry`]; a stack is
/// `(player, height)` as [`Variant::stack`] gives it. Nothing is checked
/// until [`Setup::problems`] or [`Setup::build`], so an editor can hold a
/// set-up that is wrong in several ways at once and show each problem where
/// it is.
///
/// ```
/// use murus_engine::{Setup, SetupErrorKind, Variant};
///
/// let v = Variant::standard();
/// let d4 = v.geometry().parse_cell("d4").unwrap();
/// let mut setup = Setup::from(v.start());
/// setup.set_stack(d4, Some((0, 2))); // one Roman tower too many
/// assert_eq!(
///     setup.problems(&v)[0].kind(),
///     &SetupErrorKind::TooManyStones { player: 0, has: 18, most: 16 }
/// );
/// setup.set_stack(d4, None);
/// assert_eq!(setup.build(&v), Ok(v.start()));
/// assert_eq!(v.setup_string(&setup), v.position_string(&v.start()));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Setup {
    stacks: BTreeMap<usize, (usize, u8)>,
    turn: usize,
    /// The step of the turn order (see [`Setup::step`]).
    step: Option<usize>,
    phase: Phase,
    out: BTreeSet<usize>,
    /// Enemy stones each player has taken (`capture N stones`), where not 0.
    taken: BTreeMap<usize, u32>,
}

/// Something that keeps a [`Setup`] from being a position of a variant:
/// what it is ([`SetupError::kind`], with the cells and players it is
/// about) and a sentence that says so with the players' and cells' names.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{message}")]
pub struct SetupError {
    kind: SetupErrorKind,
    message: String,
}

/// The kinds of [`SetupError`]. Players are indices into the variant's
/// players, cells are slots.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SetupErrorKind {
    /// A stack stands on `cell`, which is not a cell of the board.
    NoSuchCell { cell: usize },
    /// `player` is not a player of the variant: the owner of the stack on
    /// `cell`, or (without a cell) the side to move or an eliminated player.
    NoSuchPlayer { player: usize, cell: Option<usize> },
    /// The stack on `cell` has `height` stones: none, or more than the
    /// stack `limit`.
    HeightOutOfRange { cell: usize, height: u8, limit: u8 },
    /// `player` has `has` stones, more than the `most` the variant's setup
    /// gives it (stones are never added). A player the variant's setup gives
    /// no stones is not checked (a mural's rules give none).
    TooManyStones { player: usize, has: u32, most: u32 },
    /// Under an immediate breakthrough, the side to move `player` stands
    /// on an opponent's home (on `cells`) with stacks that only a winning
    /// arrival can have put there (see [`Setup::build`]): it would have won
    /// before its turn.
    SideToMoveOnGoal { player: usize, cells: Vec<usize> },
    /// Under an immediate breakthrough, several `players` stand on an
    /// opponent's home (on `cells`) with stacks that only a winning arrival
    /// can have put there: only one can have broken through.
    SeveralOnGoal {
        players: Vec<usize>,
        cells: Vec<usize>,
    },
    /// Under an immediate breakthrough, `player` stands on an opponent's
    /// home (on `cells`) with stacks that only a winning arrival can have
    /// put there, so it won with the game's last move; but the side to move
    /// (or the opening phase) says that the last move was not its own.
    WonOutOfTurn { player: usize, cells: Vec<usize> },
    /// A pie phase in a variant without the pie rule.
    NoPieRule,
    /// In pie `phase`, player `due` moves, not the set-up's side to move.
    PieTurn { phase: Phase, due: usize },
    /// The side to move, `player`, is among the eliminated players.
    EliminatedToMove { player: usize },
    /// Eliminated players in a game of two: players are eliminated only in
    /// games of three or four.
    EliminationWithTwoPlayers,
    /// Step `step` (0-based) of the variant's turn order is not a turn of
    /// `player`, the side to move, or there is no such step.
    TurnOrderStep { step: usize, player: usize },
    /// Stones taken are set, but the variant does not count them: no
    /// player wins by `capture N stones`.
    TakenNotCounted,
    /// `players` have taken `taken` enemy stones together (one player: from
    /// the others), more than the `missing` stones of the players they took
    /// them from: the stones their setup gives that are no longer on the
    /// board. At most 255 per player are counted.
    TooManyTaken {
        players: Vec<usize>,
        taken: u32,
        missing: u32,
    },
    /// Several `players` have taken the stones of their `capture`: only one
    /// can have won.
    SeveralCaptured { players: Vec<usize> },
    /// `player` has taken the stones of its `capture`, so it won with the
    /// last move, but the last move was not its own.
    CapturedOutOfTurn { player: usize },
}

impl SetupErrorKind {
    /// The cells the problem is about, to point at on a board.
    pub fn cells(&self) -> &[usize] {
        match self {
            SetupErrorKind::NoSuchCell { cell } | SetupErrorKind::HeightOutOfRange { cell, .. } => {
                std::slice::from_ref(cell)
            }
            SetupErrorKind::NoSuchPlayer { cell, .. } => cell.as_slice(),
            SetupErrorKind::SideToMoveOnGoal { cells, .. }
            | SetupErrorKind::SeveralOnGoal { cells, .. }
            | SetupErrorKind::WonOutOfTurn { cells, .. } => cells,
            _ => &[],
        }
    }

    /// The players the problem is about.
    pub fn players(&self) -> &[usize] {
        match self {
            SetupErrorKind::NoSuchPlayer { player, .. }
            | SetupErrorKind::TooManyStones { player, .. }
            | SetupErrorKind::SideToMoveOnGoal { player, .. }
            | SetupErrorKind::WonOutOfTurn { player, .. }
            | SetupErrorKind::EliminatedToMove { player }
            | SetupErrorKind::PieTurn { due: player, .. } => std::slice::from_ref(player),
            SetupErrorKind::SeveralOnGoal { players, .. }
            | SetupErrorKind::TooManyTaken { players, .. }
            | SetupErrorKind::SeveralCaptured { players } => players,
            SetupErrorKind::CapturedOutOfTurn { player } => std::slice::from_ref(player),
            _ => &[],
        }
    }
}

impl SetupError {
    /// What is wrong, and where.
    pub fn kind(&self) -> &SetupErrorKind {
        &self.kind
    }
    /// The problem as a sentence (also the error's `Display`).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The error with its message in `v`'s names.
    fn new(v: &Variant, kind: SetupErrorKind) -> SetupError {
        let g = v.geometry();
        let cell = |s: usize| {
            if s < g.slots() {
                g.name(s)
            } else {
                format!("slot {s}")
            }
        };
        let players = v.rules().players.as_slice();
        let name = |p: usize| players.get(p).map_or("?", |pl| pl.name.as_str());
        let message = match &kind {
            SetupErrorKind::NoSuchCell { cell: s } => {
                format!(
                    "a stack stands on {}, which is not a cell of this board",
                    cell(*s)
                )
            }
            SetupErrorKind::NoSuchPlayer { player, cell: at } => {
                let what = match at {
                    Some(s) => format!("the stack on {} belongs to", cell(*s)),
                    None => "the set-up names".to_string(),
                };
                format!(
                    "{what} player number {player}, but the players of this variant are numbered 0 to {}",
                    players.len().saturating_sub(1)
                )
            }
            SetupErrorKind::HeightOutOfRange {
                cell: s,
                height,
                limit,
            } => format!(
                "a stack of {height} on {} is not allowed: heights run from 1 to the stack limit {limit}",
                cell(*s)
            ),
            SetupErrorKind::TooManyStones { player, has, most } => format!(
                "impossible position: the {} (`{}`) have {has} stones, but the setup gives them {most} and stones are never added",
                name(*player),
                players.get(*player).map_or('?', |pl| pl.letter)
            ),
            SetupErrorKind::SideToMoveOnGoal { player, .. } => format!(
                "impossible position: {} already stand on an opponent's home, so they won before it was their turn",
                name(*player)
            ),
            SetupErrorKind::WonOutOfTurn { player, .. } => format!(
                "impossible position: the {} stand on an opponent's home, so they won with the last move, but the last move was not theirs",
                name(*player)
            ),
            SetupErrorKind::SeveralOnGoal { players: who, .. } => {
                let names: Vec<&str> = who.iter().map(|&p| name(p)).collect();
                format!(
                    "impossible position: the {} stand on an opponent's home, but only one player can have broken through",
                    join_list(&names, "and")
                )
            }
            SetupErrorKind::NoPieRule => "this variant has no pie rule".to_string(),
            SetupErrorKind::PieTurn { phase, due } => format!(
                "in phase `{}` the side to move is `{}`",
                phase.pie_word().unwrap_or("normal"),
                players.get(*due).map_or('?', |pl| pl.letter)
            ),
            SetupErrorKind::EliminatedToMove { .. } => {
                "the side to move cannot be eliminated".to_string()
            }
            SetupErrorKind::EliminationWithTwoPlayers => {
                "players are eliminated only in games of three or four".to_string()
            }
            SetupErrorKind::TurnOrderStep { step, player } => {
                let steps = v.rules().turn_steps();
                match steps.get(*step) {
                    Some(&p) => format!(
                        "turn {} of the turn order is the {}', not the {}'",
                        step + 1,
                        name(p),
                        name(*player)
                    ),
                    None => format!("the turn order has {} turns, not {}", steps.len(), step + 1),
                }
            }
            SetupErrorKind::TakenNotCounted => {
                "this variant does not count the stones taken: no player wins by `capture N stones`"
                    .to_string()
            }
            SetupErrorKind::TooManyTaken {
                players: who,
                taken,
                missing,
            } => {
                let whom = match who.as_slice() {
                    [p] => format!("the {} have", name(*p)),
                    _ => "the players have".to_string(),
                };
                format!(
                    "impossible position: {whom} taken {}, but only {missing} {} missing from the board",
                    murus_dsl::text::count(*taken, "enemy stone", "enemy stones"),
                    if *missing == 1 { "is" } else { "are" }
                )
            }
            SetupErrorKind::SeveralCaptured { players: who } => {
                let names: Vec<&str> = who.iter().map(|&p| name(p)).collect();
                format!(
                    "impossible position: the {} have each taken enough stones to win, but only one can have won",
                    join_list(&names, "and")
                )
            }
            SetupErrorKind::CapturedOutOfTurn { player } => format!(
                "impossible position: the {} have taken enough stones to win, so they won with the last move, but the last move was not theirs",
                name(*player)
            ),
        };
        SetupError { kind, message }
    }
}

/// `a`, `a and b`, `a, b and c` (with `word` for "and").
pub(crate) fn join_list<S: AsRef<str>>(items: &[S], word: &str) -> String {
    let items: Vec<&str> = items.iter().map(AsRef::as_ref).collect();
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} {word} {last}", rest.join(", ")),
        _ => items.concat(),
    }
}

/// Whether `cell` is the home of a player other than `player`.
fn on_opponents_home(v: &Variant, cell: usize, player: usize) -> bool {
    v.rules()
        .players
        .iter()
        .enumerate()
        .any(|(o, pl)| o != player && pl.home.contains(&cell))
}

/// Whether a stack of `height` stones of `player` can stand on `cell`, an
/// opponent's home, after arrivals that an immediate breakthrough does not
/// count: the setup's own stack there (or what is left of it), a wall that
/// the pie rule's split dropped there, a stone thrown onto it where only
/// sowing breaks through, and any stack sown onto it where only throwing
/// does. Everything else got there by an arrival that won.
fn quiet_arrival(v: &Variant, cell: usize, player: usize, height: u8) -> bool {
    let rules = v.rules();
    let Some(b) = rules.win(player).breakthrough else {
        return true;
    };
    let from_setup = rules
        .setup
        .iter()
        .any(|&(s, p, h)| s == cell && p == player && height <= h);
    let split = match &rules.opening {
        Opening::Pie { to, .. } => height == 1 && to.get(player).is_some_and(|t| t.contains(&cell)),
        Opening::None => false,
    };
    let thrown = !b.by_throw
        && height == 1
        && rules.catapults.iter().any(|c| {
            c.onto_empty
                && c.wall_on_empty
                && c.directions.get(player).is_some_and(|d| !d.is_empty())
        });
    // Sown stones pile up: an own stack sown onto grows, quietly too.
    let sown = !b.by_sow && rules.sow_of(player).is_some();
    // Below the breakthrough's height (`height H`) no stack wins.
    let short = height < b.min_height;
    from_setup || split || thrown || sown || short
}

impl Setup {
    /// An empty board, the first player to move, normal play, nobody
    /// eliminated.
    pub fn empty() -> Setup {
        Setup::default()
    }

    /// The stack on `cell`: `(player, height)`.
    pub fn stack(&self, cell: usize) -> Option<(usize, u8)> {
        self.stacks.get(&cell).copied()
    }
    /// Puts `stack` (`(player, height)`, or `None` for nothing) on `cell`;
    /// returns what stood there.
    pub fn set_stack(&mut self, cell: usize, stack: Option<(usize, u8)>) -> Option<(usize, u8)> {
        match stack {
            Some(st) => self.stacks.insert(cell, st),
            None => self.stacks.remove(&cell),
        }
    }
    /// Every stack as `(cell, (player, height))`, in slot order.
    pub fn stacks(&self) -> impl Iterator<Item = (usize, (usize, u8))> + '_ {
        self.stacks.iter().map(|(&s, &st)| (s, st))
    }
    /// Removes every stack.
    pub fn clear_stacks(&mut self) {
        self.stacks.clear();
    }
    /// Stones `player` has on the board.
    pub fn stone_count(&self, player: usize) -> u32 {
        self.stacks
            .values()
            .filter(|&&(p, _)| p == player)
            .map(|&(_, h)| u32::from(h))
            .sum()
    }

    /// The player to move.
    pub fn turn(&self) -> usize {
        self.turn
    }
    /// Sets the player to move (and forgets the step of the turn order).
    pub fn set_turn(&mut self, player: usize) {
        self.turn = player;
        self.step = None;
    }
    /// The step of the variant's turn order (0-based: with `turns r g g r`,
    /// 2 is the second `g`); `None` for the side to move's first turn in
    /// the order (always, with the plain order).
    pub fn step(&self) -> Option<usize> {
        self.step
    }
    /// Sets the step of the turn order (see [`Setup::step`]).
    pub fn set_step(&mut self, step: Option<usize>) {
        self.step = step;
    }
    /// The opening phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// Sets the opening phase.
    pub fn set_phase(&mut self, phase: Phase) {
        self.phase = phase;
    }
    /// Whether `player` is eliminated.
    pub fn is_out(&self, player: usize) -> bool {
        self.out.contains(&player)
    }
    /// Marks `player` eliminated or not.
    pub fn set_out(&mut self, player: usize, out: bool) {
        if out {
            self.out.insert(player);
        } else {
            self.out.remove(&player);
        }
    }
    /// The eliminated players, in turn order.
    pub fn eliminated(&self) -> impl Iterator<Item = usize> + '_ {
        self.out.iter().copied()
    }
    /// Enemy stones `player` has taken (counted where the variant has
    /// `capture N stones`).
    pub fn taken(&self, player: usize) -> u32 {
        self.taken.get(&player).copied().unwrap_or(0)
    }
    /// Sets the enemy stones `player` has taken.
    pub fn set_taken(&mut self, player: usize, stones: u32) {
        if stones == 0 {
            self.taken.remove(&player);
        } else {
            self.taken.insert(player, stones);
        }
    }
    /// The players who have taken stones, with how many, in turn order.
    pub fn takers(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.taken.iter().map(|(&p, &n)| (p, n))
    }

    /// Everything that keeps the set-up from being a position of `v`, each
    /// problem once: stacks on missing cells, of unknown players or of
    /// heights the variant does not allow; more stones than the variant's
    /// setup gives; a finished game no move could have reached (see
    /// [`SetupErrorKind`]); a pie phase or eliminated players the variant
    /// or the side to move rules out. Empty when [`Setup::build`] succeeds.
    ///
    /// Stacks come first (in slot order), then the side to move, the phase,
    /// the eliminated players, stone counts and breakthroughs.
    pub fn problems(&self, v: &Variant) -> Vec<SetupError> {
        self.check(v).err().unwrap_or_default()
    }

    /// The position, or the first of [`Setup::problems`].
    ///
    /// A stone on an opponent's home is a finished game only where the
    /// rules say so. Under an immediate breakthrough, a stack there that
    /// only an arrival the breakthrough counts can have put there means that
    /// its owner won with the last move; one that may have got there
    /// otherwise (a stone thrown where only sowing breaks through, a sowing
    /// where only throwing does, the setup's own stack, a wall of the pie
    /// rule's split) is read as such, and the game goes on. Under a delayed
    /// breakthrough the start-of-turn rule decides, as in play.
    ///
    /// A set-up made from a position builds that position again, hash
    /// included, except where the board cannot tell how a stone arrived:
    /// where both sowing and throwing break through, a game won by a throw
    /// is read as won by sowing; and where a stone that may have arrived
    /// quietly is what won (a wall sown onto the goal where a thrown wall
    /// would not have won), the game reads as going on.
    pub fn build(&self, v: &Variant) -> Result<Position, SetupError> {
        let won = self
            .check(v)
            .map_err(|problems| problems.into_iter().next().expect("a problem"))?;
        let stacks: Vec<(usize, usize, u8)> =
            self.stacks.iter().map(|(&s, &(p, h))| (s, p, h)).collect();
        let out = self.out.iter().fold(0u8, |bits, &p| bits | 1 << p);
        let mut taken = [0u8; MAX_PLAYERS];
        for (&p, &n) in &self.taken {
            taken[p] = n.min(255) as u8;
        }
        let step = self.resolved_step(v).unwrap_or(0);
        Ok(v.assemble(&stacks, (self.turn, step), self.phase, (out, taken), won))
    }

    /// The step of the turn order: the one set, or the side to move's
    /// first (0 in a pie phase, which comes before the turn order).
    fn resolved_step(&self, v: &Variant) -> Option<usize> {
        if self.phase != Phase::Normal {
            return Some(0);
        }
        let steps = v.rules().turn_steps();
        match self.step {
            Some(k) => (steps.get(k) == Some(&self.turn)).then_some(k),
            None => steps.iter().position(|&p| p == self.turn),
        }
    }

    /// The players who may have moved last, were the game going on: the
    /// player of the turn before this one in the turn order still in the
    /// game (none when the side to move is not a player, or nobody has
    /// moved); at the start of the cycle after a first round, either round's
    /// last.
    fn last_to_move(&self, v: &Variant) -> Vec<usize> {
        if self.turn >= v.rules().players.len() {
            return Vec::new();
        }
        let steps = v.rules().turn_steps();
        let cycle_start = v.rules().cycle_start();
        let Some(k) = self.resolved_step(v) else {
            return Vec::new();
        };
        // The turns before step `k`: at the start of the cycle after a
        // first round, either round's last; none before the first turn.
        let before = |k: usize| -> Vec<usize> {
            if k == cycle_start {
                let mut out = vec![steps.len() - 1];
                if cycle_start > 0 {
                    out.push(cycle_start - 1);
                }
                out
            } else if k == 0 {
                Vec::new()
            } else {
                vec![k - 1]
            }
        };
        // Walk back over the turns of eliminated players.
        let (mut out, mut seen, mut todo) = (Vec::new(), vec![k], vec![k]);
        while let Some(k) = todo.pop() {
            for b in before(k) {
                if !self.out.contains(&steps[b]) {
                    out.push(steps[b]);
                } else if !seen.contains(&b) {
                    seen.push(b);
                    todo.push(b);
                }
            }
        }
        out
    }

    /// The problems (never an empty list), or, when there are none, who has
    /// already won by an immediate breakthrough.
    fn check(&self, v: &Variant) -> Result<Option<Outcome>, Vec<SetupError>> {
        let rules = v.rules();
        let g = v.geometry();
        let players = rules.players.len();
        let mut problems = Vec::new();
        let mut problem = |kind| problems.push(SetupError::new(v, kind));

        for (&cell, &(player, height)) in &self.stacks {
            if !g.exists(cell) {
                problem(SetupErrorKind::NoSuchCell { cell });
            }
            if player >= players {
                problem(SetupErrorKind::NoSuchPlayer {
                    player,
                    cell: Some(cell),
                });
            }
            if height == 0 || height > rules.stack_limit {
                problem(SetupErrorKind::HeightOutOfRange {
                    cell,
                    height,
                    limit: rules.stack_limit,
                });
            }
        }
        if self.turn >= players {
            problem(SetupErrorKind::NoSuchPlayer {
                player: self.turn,
                cell: None,
            });
        }
        if self.phase != Phase::Normal {
            if !matches!(rules.opening, Opening::Pie { .. }) {
                problem(SetupErrorKind::NoPieRule);
            } else {
                let due = usize::from(self.phase != Phase::PieOpen);
                if self.turn != due {
                    problem(SetupErrorKind::PieTurn {
                        phase: self.phase,
                        due,
                    });
                }
            }
        }
        for &player in self.out.iter().filter(|&&p| p >= players) {
            problem(SetupErrorKind::NoSuchPlayer { player, cell: None });
        }
        if self.out.contains(&self.turn) {
            problem(SetupErrorKind::EliminatedToMove { player: self.turn });
        }
        if self.turn < players && self.resolved_step(v).is_none() {
            problem(SetupErrorKind::TurnOrderStep {
                step: self.step.unwrap_or(0),
                player: self.turn,
            });
        }
        if !self.out.is_empty() && players <= 2 {
            problem(SetupErrorKind::EliminationWithTwoPlayers);
        }
        // Stones never increase (sowing and throwing move them, captures
        // remove them, the pie rule's split keeps them), so no player can
        // have more than the variant's setup gives it.
        for player in 0..players {
            let most = rules.starting_stones(player);
            let has = self.stone_count(player);
            if most > 0 && has > most {
                problem(SetupErrorKind::TooManyStones { player, has, most });
            }
        }
        // Under an immediate breakthrough, a stack on an opponent's home
        // that no quiet arrival can have put there means that its owner won
        // with the move that put it there: the game's last.
        let mut won = None;
        let immediate = |p: usize| {
            rules
                .win(p)
                .breakthrough
                .filter(|b| b.timing == Timing::Immediate)
        };
        if (0..players).any(|p| immediate(p).is_some()) {
            let mut winners = Vec::new();
            let mut winners_cells = Vec::new();
            for player in (0..players).filter(|&p| immediate(p).is_some()) {
                // With `count K`, fewer than K stones there won nothing.
                let low = immediate(player).map_or(1, |b| b.min_height);
                let stones: u32 = (self.stacks.iter())
                    .filter(|&(&s, &(q, h))| q == player && h >= low && on_opponents_home(v, s, q))
                    .map(|(_, &(_, h))| u32::from(h))
                    .sum();
                let few = immediate(player).is_some_and(|b| stones < b.count);
                let on_goal: Vec<usize> = self
                    .stacks
                    .iter()
                    .filter(|&(&s, &(q, h))| {
                        q == player
                            && !few
                            && on_opponents_home(v, s, q)
                            && !quiet_arrival(v, s, q, h)
                    })
                    .map(|(&s, _)| s)
                    .collect();
                if on_goal.is_empty() {
                    continue;
                }
                // With a turn order that repeats players, the side to move
                // may be the one that moved last, and won.
                let moved_last = self.phase == Phase::Normal
                    && rules.turn_order.is_some()
                    && self.last_to_move(v).contains(&player);
                if player == self.turn && !moved_last {
                    problem(SetupErrorKind::SideToMoveOnGoal {
                        player,
                        cells: on_goal,
                    });
                } else {
                    winners.push(player);
                    winners_cells.push(on_goal);
                }
            }
            if winners.len() > 1 {
                problem(SetupErrorKind::SeveralOnGoal {
                    players: winners,
                    cells: winners_cells.concat(),
                });
            } else if let (Some(&winner), Some(cells)) = (winners.first(), winners_cells.pop()) {
                // The winner's move ended the game and passed the turn on
                // to the next player still in it, in normal play.
                let last = self.last_to_move(v);
                if self.phase != Phase::Normal || !last.is_empty() && !last.contains(&winner) {
                    problem(SetupErrorKind::WonOutOfTurn {
                        player: winner,
                        cells,
                    });
                } else if let Some(b) = immediate(winner) {
                    let reason = if b.by_sow {
                        Reason::BreakthroughSow
                    } else {
                        Reason::BreakthroughThrow
                    };
                    won = Some(Outcome {
                        winner: Some(winner),
                        reason,
                    });
                }
            }
        }
        self.check_taken(v, &mut problem, &mut won);
        if problems.is_empty() {
            Ok(won)
        } else {
            Err(problems)
        }
    }

    /// The stones taken: only where the variant counts them, no more than
    /// are missing from the board, and a player who has taken those of its
    /// `capture` won with the last move (unless the game was already won).
    fn check_taken(
        &self,
        v: &Variant,
        problem: &mut impl FnMut(SetupErrorKind),
        won: &mut Option<Outcome>,
    ) {
        if self.taken.is_empty() {
            return;
        }
        let rules = v.rules();
        let players = rules.players.len();
        if !v.counts_taken() {
            problem(SetupErrorKind::TakenNotCounted);
            return;
        }
        if let Some(&player) = self.taken.keys().find(|&&p| p >= players) {
            problem(SetupErrorKind::NoSuchPlayer { player, cell: None });
            return;
        }
        let missing =
            |p: usize| -> u32 { rules.starting_stones(p).saturating_sub(self.stone_count(p)) };
        let counted = |n: u32| n.min(255);
        for (&p, &n) in &self.taken {
            let others: u32 = (0..players).filter(|&q| q != p).map(missing).sum();
            if counted(n) > others {
                problem(SetupErrorKind::TooManyTaken {
                    players: vec![p],
                    taken: counted(n),
                    missing: others,
                });
                return;
            }
        }
        let total: u32 = self.taken.values().map(|&n| counted(n)).sum();
        let all: u32 = (0..players).map(missing).sum();
        if total > all {
            problem(SetupErrorKind::TooManyTaken {
                players: self.taken.keys().copied().collect(),
                taken: total,
                missing: all,
            });
            return;
        }
        let winners: Vec<usize> = (self.taken.iter())
            .filter(|&(&p, &n)| rules.win(p).capture.is_some_and(|c| counted(n) >= c))
            .map(|(&p, _)| p)
            .collect();
        match winners.as_slice() {
            [] => {}
            [p] if won.is_some_and(|o| o.winner == Some(*p)) => {}
            &[p] => {
                let last = self.last_to_move(v);
                if won.is_some() || self.phase != Phase::Normal || !last.contains(&p) {
                    problem(SetupErrorKind::CapturedOutOfTurn { player: p });
                } else {
                    *won = Some(Outcome {
                        winner: Some(p),
                        reason: Reason::Capture,
                    });
                }
            }
            _ => problem(SetupErrorKind::SeveralCaptured { players: winners }),
        }
    }
}

impl From<Position> for Setup {
    /// The set-up of a position: its stacks, side to move, phase and
    /// eliminated players.
    fn from(pos: Position) -> Setup {
        let (turn, phase, out) = pos.turn_phase_out();
        // The step is kept only where it is not the side to move's first
        // turn in the order: a player's first turn is at the step numbered
        // as the player (players are numbered by their first turn), and a
        // pie phase comes before the order (step 0).
        let step = (phase == Phase::Normal && pos.step() != turn).then_some(pos.step());
        Setup {
            stacks: pos
                .stacks()
                .into_iter()
                .map(|(s, p, h)| (s, (p, h)))
                .collect(),
            turn,
            step,
            phase,
            out: (0..MAX_PLAYERS).filter(|&p| out & (1 << p) != 0).collect(),
            taken: (0..MAX_PLAYERS)
                .filter(|&p| pos.taken()[p] > 0)
                .map(|p| (p, u32::from(pos.taken()[p])))
                .collect(),
        }
    }
}

impl From<&Position> for Setup {
    fn from(pos: &Position) -> Setup {
        Setup::from(*pos)
    }
}
