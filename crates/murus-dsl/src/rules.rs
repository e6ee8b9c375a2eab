//! Validated rules: what a rule file means, with every name resolved.
//!
//! A [`Rules`] value is only produced by the compiler after all checks
//! passed, so the engine may trust it: cells exist, heights are within the
//! stack limit, directions exist on the board, and so on. Cells are slots of
//! [`Geometry`]; players are indices into [`Rules::players`], which is also
//! the turn order.

use crate::geometry::{Direction, Geometry};

/// Most players a variant may have.
pub const MAX_PLAYERS: usize = 4;
/// Highest stack limit a variant may declare.
pub const MAX_HEIGHT: u8 = 4;

/// A compiled, validated variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Short name (`standard`, `advanced`, …) from `variant "…"`.
    pub name: String,
    /// Display title, defaulting to the name.
    pub title: String,
    /// The board.
    pub geometry: Geometry,
    /// Players in turn order (by first turn, with a [`TurnOrder`]); the
    /// first moves first.
    pub players: Vec<PlayerRules>,
    /// A turn order that repeats players (`turns r g g r`), or has a first
    /// round of its own (`turns r then g g r r`); `None`: each player once,
    /// in the order of [`Rules::players`].
    pub turn_order: Option<TurnOrder>,
    /// Starting stacks: `(cell, player, height)`, each cell at most once.
    pub setup: Vec<(usize, usize, u8)>,
    /// Highest stack allowed (2 in the standard game, 3 with catapults):
    /// the highest of the players' limits ([`PlayerRules::stack_limit`]).
    pub stack_limit: u8,
    /// Sowing rules: one shared by every player in the published games,
    /// none when no stack may sow. A rule applies to the players it gives
    /// directions to ([`SowRule::directions`]); the compiler guarantees
    /// that no player has two, and sorts them by their first player.
    pub sow: Vec<SowRule>,
    /// Sacrifice rules (empty: no sacrifices, as in Houdini). A rule applies
    /// to the players it gives directions to.
    pub sacrifices: Vec<SacrificeRule>,
    /// Catapult throws, one rule per `catapult` block, in the file's order
    /// (empty: no catapults). A rule applies to the players it gives
    /// directions to. The compiler guarantees that no two rules give one
    /// player the same throw (same height, direction and range), so a
    /// throw's cells say which rule made it.
    pub catapults: Vec<CatapultRule>,
    /// Step vectors (`(1, 2)` in a direction set) beyond the board's own
    /// directions, as `(dx, dy)` along files and ranks, for whichever
    /// players use them: direction index `n + i`, with `n` the board's
    /// directions, is `steps[i]` ([`Rules::direction`]). Empty unless a
    /// rule names one.
    pub steps: Vec<(i8, i8)>,
    /// How games are drawn.
    pub draw: DrawRules,
    /// How a game that reaches the ply cap is decided instead of drawn
    /// (`adjudicate by …` in the `draw` block); `None`: it is drawn.
    pub adjudicate: Option<Adjudication>,
    /// Opening protocol.
    pub opening: Opening,
    /// The designer's words for published pages (`introduction`,
    /// `caption`). Play ignores them, and so does the rules key.
    pub about: About,
}

/// What the designer says about the game, beyond its rules: shown on the
/// rules sheet and the report page, never read by play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct About {
    /// The introduction, a string a paragraph (`introduction "…" "…"`).
    pub introduction: Vec<String>,
    /// Captions of the rules sheet's figures, `(figure, text)`, in the
    /// file's order, each figure at most once: a name of [`FIGURES`].
    pub captions: Vec<(String, String)>,
}

impl About {
    /// The designer's caption of `figure` (a name of [`FIGURES`]), if any.
    pub fn caption(&self, figure: &str) -> Option<&str> {
        (self.captions.iter())
            .find(|(f, _)| f == figure)
            .map(|(_, text)| text.as_str())
    }
}

/// The figures a `caption` may name: the start position, then the rules
/// sheet's figures of the moves and outcomes the rules allow, by their
/// names in the sheet (`data-kind`, docs/sheets.md).
pub const FIGURES: &[&str] = &[
    "start",
    "sow-empty",
    "sow-own",
    "sow-enemy",
    "sow-step",
    "blocked",
    "sacrifice",
    "throw",
    "breakthrough",
    "stalemate",
    "pie",
    "occupation",
    "reduction",
    "capture",
    "adjudication",
];

/// Who moves when, as player indices: the `first` round once, then the
/// `cycle` over and over. Every player is in the cycle; the first player
/// (index 0) has the first turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnOrder {
    pub first: Vec<usize>,
    pub cycle: Vec<usize>,
}

impl TurnOrder {
    /// The whole sequence of turns: the first round, then one cycle.
    pub fn steps(&self) -> Vec<usize> {
        self.first.iter().chain(&self.cycle).copied().collect()
    }
}

/// One player (a colour).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRules {
    /// Display name (`Romans`).
    pub name: String,
    /// One lower-case letter used in position strings and records (`r`).
    pub letter: char,
    /// Display colour, `0xRRGGBB`.
    pub colour: u32,
    /// Home cells: the cells an opponent must reach to break through.
    pub home: Vec<usize>,
    /// Forward direction, an index into [`Geometry::directions`].
    pub forward: usize,
    /// Highest stack this player's stacks may reach (`stack limit N`, or
    /// `stack limit N for L`): a sown stone lands on one of its own stacks
    /// only if the stack stays within it. At most [`Rules::stack_limit`].
    pub stack_limit: u8,
    /// How this player wins, and what a stalemate does to it (`win`, or
    /// `win for L`).
    pub win: WinRules,
}

/// Which stacks sow, where, and onto what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SowRule {
    /// Stack heights that may sow. A stack of height `h` lifts all its stones
    /// and drops one on each of the `h` nearest cells in one direction.
    pub heights: Vec<u8>,
    /// Per player, the absolute direction indices it may sow in.
    pub directions: Vec<Vec<usize>>,
    /// Whether a stone may be dropped on an empty cell.
    pub onto_empty: bool,
    /// Heights of own stacks that may receive a stone (1 = own wall). The
    /// compiler guarantees `h + 1 <= stack_limit` for each.
    pub onto_own: Vec<u8>,
    /// Heights of enemy stacks that may receive a stone (`onto enemy H`);
    /// empty in the published games.
    pub onto_enemy: Vec<u8>,
    /// What a stone dropped on an enemy stack does.
    pub on_enemy: SowCapture,
}

impl SowRule {
    /// Whether player `p` sows by this rule.
    pub fn applies_to(&self, p: usize) -> bool {
        self.directions.get(p).is_some_and(|d| !d.is_empty())
    }
}

/// What a stone sown onto an enemy stack does (`on enemy: …`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SowCapture {
    /// `capture` (the default): the enemy stack leaves the game and the
    /// stone stays there as a wall of the sower's.
    Capture,
    /// `remove N`: the stone and `N` stones of the enemy stack leave the
    /// game (the whole stack if it has fewer).
    Remove(u8),
}

/// A sacrifice: an own stack of height `attacker`, adjacent (in one of
/// `directions`) to an enemy stack of height `target`, loses `lose` stones
/// and the enemy stack loses `remove` stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SacrificeRule {
    pub attacker: u8,
    pub target: u8,
    /// Stones the attacker gives up (1 ..= attacker). Notation writes one `x`
    /// per stone: `d5xd4`, `d5xxd4`.
    pub lose: u8,
    /// Stones the target loses (1 ..= target).
    pub remove: u8,
    /// Per player, absolute direction indices in which adjacency counts.
    pub directions: Vec<Vec<usize>>,
}

/// Catapult throws: one `catapult` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatapultRule {
    /// Height of a catapult (it throws one stone and becomes one lower).
    pub height: u8,
    /// Per player, absolute direction indices it may throw in.
    pub directions: Vec<Vec<usize>>,
    /// Exact distances a stone flies (it passes over anything).
    pub ranges: Vec<u8>,
    /// Whether a stone may land on an empty cell.
    pub onto_empty: bool,
    /// Heights of enemy stacks a stone may hit.
    pub onto_enemy: Vec<u8>,
    /// What landing on an empty cell does: `true` (`on empty: wall`, the
    /// default) leaves the thrown stone there as an own wall, which may break
    /// through; `false` (`on empty: lost`) takes it out of the game.
    pub wall_on_empty: bool,
    /// What a hit does (`on enemy: remove N`, default 1): the thrown stone
    /// and `N` stones of the enemy stack leave the game (its whole height if
    /// it has fewer). The compiler guarantees `1 <= N <= stack_limit`.
    pub hit_removes: u8,
}

/// The most `catapult` blocks one rules file may have.
pub const MAX_CATAPULTS: usize = 8;

/// The most step vectors one rules file may name (beyond the board's own
/// directions): a hex board's knight has twelve leaps.
pub const MAX_STEPS: usize = 12;

impl Rules {
    /// The stones the setup gives player `p`. Stones never grow in number
    /// (sowing and throwing move them, captures remove them, the pie rule's
    /// split keeps them), so it is the most the player ever has.
    pub fn starting_stones(&self, p: usize) -> u32 {
        (self.setup.iter())
            .filter(|&&(_, q, _)| q == p)
            .map(|&(_, _, h)| u32::from(h))
            .sum()
    }

    /// The number of direction indices: the board's directions, then the
    /// step vectors ([`Rules::steps`]).
    pub fn direction_count(&self) -> usize {
        self.geometry.directions().len() + self.steps.len()
    }

    /// Direction `d` of the rules' direction lists: one of the board's, or
    /// a step vector (named `""`).
    pub fn direction(&self, d: usize) -> Option<Direction> {
        let board = self.geometry.directions();
        match board.get(d) {
            Some(&dir) => Some(dir),
            None => self
                .steps
                .get(d - board.len())
                .map(|&(dx, dy)| Direction { name: "", dx, dy }),
        }
    }

    /// The name of direction `d`: `n`, `ne`, … or a step vector `(1,2)`
    /// (cells along files, then ranks).
    pub fn direction_name(&self, d: usize) -> String {
        match self.direction(d) {
            Some(dir) if !dir.name.is_empty() => dir.name.to_string(),
            Some(dir) => format!("({},{})", dir.dx, dir.dy),
            None => format!("direction {d}"),
        }
    }

    /// The turn order's steps, as players: the first round, then one cycle
    /// (each player once, in turn, with the plain order).
    pub fn turn_steps(&self) -> Vec<usize> {
        match &self.turn_order {
            Some(t) => t.steps(),
            None => (0..self.players.len()).collect(),
        }
    }

    /// Where the cycle starts in [`Rules::turn_steps`]: after the first
    /// round (0 with the plain order).
    pub fn cycle_start(&self) -> usize {
        self.turn_order.as_ref().map_or(0, |t| t.first.len())
    }

    /// Player `p`'s sowing rule, if it sows.
    pub fn sow_of(&self, p: usize) -> Option<&SowRule> {
        self.sow.iter().find(|s| s.applies_to(p))
    }

    /// Player `p`'s win rules.
    pub fn win(&self, p: usize) -> &WinRules {
        &self.players[p].win
    }

    /// Every player's win rules, in turn order.
    pub fn wins(&self) -> impl Iterator<Item = &WinRules> + '_ {
        self.players.iter().map(|p| &p.win)
    }

    /// The win rules every player shares, or `None` when some player has
    /// its own (`win for L`).
    pub fn shared_win(&self) -> Option<&WinRules> {
        let first = &self.players.first()?.win;
        self.wins().all(|w| w == first).then_some(first)
    }

    /// Whether a stack of height `h` is a catapult under some rule.
    pub fn is_catapult_height(&self, h: u8) -> bool {
        self.catapults.iter().any(|c| c.height == h)
    }
}

/// When a breakthrough wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// At the end of the turn that dropped a stone on an opponent's home.
    Immediate,
    /// At the start of the owner's next turn, if one of its stones stands on
    /// an opponent's home then.
    Delayed,
}

/// Breakthrough: reaching any opponent's home cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breakthrough {
    pub timing: Timing,
    /// Stones dropped by sowing count.
    pub by_sow: bool,
    /// Stones thrown onto an empty cell count.
    pub by_throw: bool,
    /// The least height of the stack that breaks through (`height H`; 1,
    /// any stack, without it): an arrival counts only if the stack it makes
    /// on the home is at least this tall, and a delayed breakthrough needs
    /// such a stack there at the start of the turn.
    pub min_height: u8,
    /// The least number of the player's stones (in stacks of at least
    /// `min_height`) on opponents' homes at once (`count K`; 1 without
    /// it): an arrival breaks through only if they are then at least this
    /// many, and a delayed breakthrough needs as many at the start of the
    /// turn.
    pub count: u32,
}

/// What happens to a player who cannot act at the start of its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stalemate {
    /// It loses; with more than two players it is eliminated (its stones stay
    /// on the board) and the last player able to act wins.
    Loses,
    /// The game is drawn.
    Draws,
}

/// The most stones a `capture N stones` may ask for (positions count the
/// stones taken in a byte).
pub const MAX_CAPTURE: u32 = 255;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinRules {
    /// `None`: reaching a home wins nothing (Escape).
    pub breakthrough: Option<Breakthrough>,
    pub stalemate: Stalemate,
    /// `occupy …`: holding cells wins (king of the hill).
    pub occupation: Option<Occupation>,
    /// `reduced to …`: running short of stones or towers loses.
    pub reduced: Option<Reduction>,
    /// `capture N stones`: a player who has taken at least this many enemy
    /// stones in all (by sacrifices, throws and sowing onto enemy stacks)
    /// wins at once, with the move that takes the last of them.
    pub capture: Option<u32>,
}

/// Occupation: a player who, at the start of its turn, has a stack of its
/// own on at least `count` of `cells` wins. Checked after a delayed
/// breakthrough, before anything else of the turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occupation {
    /// The cells to hold, sorted.
    pub cells: Vec<usize>,
    /// How many of them (1 ..= `cells.len()`).
    pub count: u32,
}

/// What a [`Reduction`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Material {
    /// Every stone a player has on the board.
    Stones,
    /// A player's stacks of two or more stones.
    Towers,
}

/// Reduction: a player who starts its turn with at most `at_most` stones
/// (or towers) loses; with more than two players it is eliminated, as by
/// stalemate, and its stacks stay on the board. Checked after occupation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reduction {
    pub at_most: u32,
    pub material: Material,
}

/// Draw rules for self-play; the original rules have none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DrawRules {
    /// The game is drawn when a position occurs for the `n`th time.
    pub repetition: Option<u32>,
    /// The game is drawn after this many plies.
    pub ply_cap: Option<u32>,
}

/// What decides a game at the ply cap: the player (still in the game) with
/// the most of it wins; a tie for the most draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Adjudication {
    /// Stones on the board, or towers (stacks of two or more stones).
    Material(Material),
    /// Stacks on these cells (sorted), one per cell held.
    Stacks(Vec<usize>),
    /// This player (`adjudicate for L`): it wins if it is still in the
    /// game (it counts 1, the others 0; out of the game, all tie at 0 and
    /// the game is drawn).
    Player(usize),
}

/// Opening protocol.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Opening {
    /// Normal play from the first move.
    #[default]
    None,
    /// The pie rule (two players only). The first player's first action
    /// takes one of its towers standing on `from[0]` and drops its two stones
    /// as walls on two distinct empty cells of `to[0]`. The second player
    /// then either swaps seats or makes the same kind of first action with
    /// `from[1]`/`to[1]`; after a swap, the second colour (now played by the
    /// first seat) still makes its special first action.
    Pie {
        from: [Vec<usize>; 2],
        to: [Vec<usize>; 2],
    },
}
