//! The compiled move generator: tables built from [`Rules`], positions over
//! bitboards, legal moves, apply and outcome.
//!
//! Everything here is generic over the bitboard word `B` and monomorphised
//! for `u64` and `u128`; [`crate::Variant`] picks one and hides the choice.
//! One file per job, each adding methods to [`Engine`]:
//!
//! - `pos`: the position over bitboards ([`Pos`], [`Phase`]);
//! - `tables`: compiling [`Rules`] into the engine's tables;
//! - `start`: the start position, positions from stacks, hashes;
//! - `movegen`: legal moves, listed or counted in batches;
//! - `leaf`: the bulk count without the generator, from tables of the
//!   rules' shape;
//! - `apply`: playing a move, the start-of-turn rules, the outcome;
//! - `threats`: breakthrough threats, for the search;
//! - `playout`: the end of a line of play under the draw rules, playouts
//!   and perft.

use std::sync::Arc;

use murus_dsl::rules::{
    Breakthrough, MAX_HEIGHT, MAX_PLAYERS, Reduction, Rules, SowCapture, Stalemate,
};

use crate::bits::{Bits, Shift};

mod apply;
mod leaf;
mod mirror;
mod movegen;
mod playout;
mod pos;
mod start;
mod tables;
mod threats;

pub use playout::{PlayoutResult, Scratch};
pub use pos::{Phase, Pos, StonesRemoved};

/// Highest stack height, as an array bound.
pub(crate) const MAXH: usize = MAX_HEIGHT as usize;
/// Most players, as an array bound.
pub(crate) const MAXP: usize = MAX_PLAYERS;
/// Most directions of any rules: the board's (8 at most), then the step
/// vectors ([`murus_dsl::rules::MAX_STEPS`]).
const MAXD: usize = 8 + murus_dsl::rules::MAX_STEPS;
/// Longest step along a direction that tables cover (26 files).
const MAXK: usize = 26;

/// One sacrifice rule, compiled.
#[derive(Clone, Debug)]
struct Sac {
    attacker: u8,
    target: u8,
    lose: u8,
    remove: u8,
    dirs: [Dirs; MAXP],
}

/// Most directions a rule's inline list ([`Dirs`]) holds: the board's 8.
/// Rules with more in some list (step vectors) keep every list in
/// [`ManyDirs`] instead, so that the lists of every other game stay 8 bytes
/// (16 cost the standard perft about 3% of its speed; docs/speed.md).
const INLINE_DIRS: usize = 8;

/// A short list of direction indices, kept inline.
#[derive(Clone, Copy, Debug, Default)]
struct Dirs {
    n: u8,
    d: [u8; INLINE_DIRS],
}

impl Dirs {
    /// The list, which must hold at most [`INLINE_DIRS`] directions.
    fn new(list: &[usize]) -> Dirs {
        debug_assert!(list.len() <= INLINE_DIRS);
        let mut out = Dirs::default();
        for &d in list.iter().take(INLINE_DIRS) {
            out.d[out.n as usize] = d as u8;
            out.n += 1;
        }
        out
    }
}

impl std::ops::Deref for Dirs {
    type Target = [u8];
    #[inline(always)]
    fn deref(&self) -> &[u8] {
        &self.d[..self.n as usize]
    }
}

/// Every rule's directions, each player's, for the rules with more than
/// [`INLINE_DIRS`] directions in some list; the inline lists are then
/// empty. Read by a second copy of the move generator (see [`DirLists`]).
#[derive(Clone, Debug, Default)]
struct ManyDirs {
    sow: [Vec<u8>; MAXP],
    sacs: Vec<[Vec<u8>; MAXP]>,
    cats: Vec<[Vec<u8>; MAXP]>,
}

/// Where the move generator and the threat check read each rule's
/// directions: inline in the rule ([`Inline`]) or in [`ManyDirs`].
trait DirLists {
    /// Player `p`'s sowing directions.
    fn sow<'a>(&'a self, tab: &'a SowTab, p: usize) -> &'a [u8];
    /// Sacrifice rule `i`'s directions for player `p`.
    fn sac<'a>(&'a self, sac: &'a Sac, i: usize, p: usize) -> &'a [u8];
    /// Catapult rule `i`'s directions for player `p`.
    fn cat<'a>(&'a self, cat: &'a Cat, i: usize, p: usize) -> &'a [u8];
}

/// The lists kept in the rules themselves.
struct Inline;

impl DirLists for Inline {
    #[inline(always)]
    fn sow<'a>(&'a self, tab: &'a SowTab, _p: usize) -> &'a [u8] {
        &tab.dirs
    }
    #[inline(always)]
    fn sac<'a>(&'a self, sac: &'a Sac, _i: usize, p: usize) -> &'a [u8] {
        &sac.dirs[p]
    }
    #[inline(always)]
    fn cat<'a>(&'a self, cat: &'a Cat, _i: usize, p: usize) -> &'a [u8] {
        &cat.dirs[p]
    }
}

impl DirLists for ManyDirs {
    #[inline(always)]
    fn sow<'a>(&'a self, _tab: &'a SowTab, p: usize) -> &'a [u8] {
        &self.sow[p]
    }
    #[inline(always)]
    fn sac<'a>(&'a self, _sac: &'a Sac, i: usize, p: usize) -> &'a [u8] {
        &self.sacs[i][p]
    }
    #[inline(always)]
    fn cat<'a>(&'a self, _cat: &'a Cat, i: usize, p: usize) -> &'a [u8] {
        &self.cats[i][p]
    }
}

/// A short list of stack heights, kept inline (no pointer to follow in
/// the move generator).
#[derive(Clone, Copy, Debug, Default)]
struct Heights {
    n: u8,
    h: [u8; MAXH],
}

impl Heights {
    fn new(list: &[u8]) -> Heights {
        let mut out = Heights::default();
        for &h in list.iter().take(MAXH) {
            out.h[out.n as usize] = h;
            out.n += 1;
        }
        out
    }
}

impl std::ops::Deref for Heights {
    type Target = [u8];
    #[inline(always)]
    fn deref(&self) -> &[u8] {
        &self.h[..self.n as usize]
    }
}

/// One player's sowing rule, compiled (empty `heights`: it does not sow).
#[derive(Clone, Copy, Debug, Default)]
struct SowTab {
    heights: Heights,
    dirs: Dirs,
    /// Whether a stone may land on an empty cell.
    empty: bool,
    /// Heights of own stacks a stone may land on, within the player's
    /// stack limit.
    own: Heights,
    /// Heights of enemy stacks a sown stone may land on (`onto enemy H`).
    enemy: Heights,
    /// What it does there; `None` when `enemy` is empty, so that the
    /// games without captures by sowing test one flag per dropped stone.
    capture: Option<SowCapture>,
}

impl SowTab {
    /// The cells a sown stone may land on without capturing: the empty
    /// cells where the rule allows them and the player's own stacks of the
    /// heights it may grow.
    #[inline(always)]
    fn own_landing<B: Bits>(&self, pos: &Pos<B>, own: B, empty: B) -> B {
        let mut land = if self.empty { empty } else { B::EMPTY };
        for &h in self.own.iter() {
            land |= own & pos.height[h as usize];
        }
        land
    }

    /// Every cell a sown stone may land on: [`SowTab::own_landing`] and,
    /// when the rule captures, the enemy stacks of the heights it names.
    /// The move generator and the leaf count both read it, so that the
    /// two cannot drift apart.
    #[inline(always)]
    fn landing<B: Bits>(&self, pos: &Pos<B>, own: B, empty: B, enemy: B) -> B {
        let mut land = self.own_landing(pos, own, empty);
        if self.capture.is_some() {
            for &h in self.enemy.iter() {
                land |= enemy & pos.height[h as usize];
            }
        }
        land
    }
}

/// One player's sowing, for the rules where it has one height and at most
/// [`INLINE_DIRS`] directions: each direction's mask and one-step shift
/// (`ray[d][h]`, `shift[d][1]`) side by side, and the list padded to
/// [`INLINE_DIRS`] with empty masks, so that the move generator's loop over
/// it has a fixed count and unrolls (`h` 0: not this kind of sowing).
#[derive(Clone, Copy, Debug, Default)]
struct PlainSow<B> {
    h: u8,
    ray: [B; INLINE_DIRS],
    step: [Shift; INLINE_DIRS],
    dir: [u8; INLINE_DIRS],
}

/// Where a throw move's `aux` keeps the catapult rule's index (see
/// [`crate::moves::THROW_RULE_SHIFT`]); every direction index fits below.
pub(crate) const CAT_SHIFT: u32 = crate::moves::THROW_RULE_SHIFT;
const _: () = assert!(MAXD <= 1 << CAT_SHIFT);
const _: () = assert!(murus_dsl::rules::MAX_CATAPULTS <= 1 << (8 - CAT_SHIFT));

/// One compiled catapult rule.
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

/// What an `adjudicate by …` counts for each player at the ply cap.
#[derive(Clone, Copy, Debug)]
enum Adjudge<B> {
    Stones,
    Towers,
    /// Own stacks on these cells.
    Stacks(B),
    /// This player counts 1, the others 0 (`adjudicate for L`).
    Player(usize),
}

impl<B: Bits> Adjudge<B> {
    /// Player `p`'s count in `pos`.
    fn count(self, pos: &Pos<B>, p: usize) -> u32 {
        match self {
            Adjudge::Stones => pos.stone_count(p),
            Adjudge::Towers => (pos.owner[p] & !pos.height[1]).count(),
            Adjudge::Stacks(cells) => (pos.owner[p] & cells).count(),
            Adjudge::Player(q) => u32::from(p == q),
        }
    }
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
    /// Each player's sowing.
    sow: [SowTab; MAXP],
    /// The same, padded for the generator, where it has one height.
    plain_sow: [PlainSow<B>; MAXP],
    sacs: Vec<Sac>,
    /// The catapult rules, in the file's order.
    cats: Vec<Cat>,
    /// Each player's breakthrough, if it wins by one.
    breakthrough: [Option<Breakthrough>; MAXP],
    /// What a stalemate does to each player.
    stalemate: [Stalemate; MAXP],
    /// The turn order, as players: the first round, then the cycle, which
    /// starts at `cycle_start` (`0, 1, …` and 0 when each player moves once
    /// in turn). [`Pos::step`] indexes it.
    seq: Vec<u8>,
    cycle_start: usize,
    /// Whether the variant has a turn order of its own (`seq` is not
    /// `0, 1, …`).
    ordered: bool,
    /// Zobrist keys of the steps: all 0 with the plain turn order, so that
    /// its hashes are those of a position without steps.
    z_step: Vec<u64>,
    /// Each player's `occupy`: the cells, and how many of them win.
    occupy: [Option<(B, u32)>; MAXP],
    /// Each player's `reduced to`: running short of stones or towers loses.
    reduced: [Option<Reduction>; MAXP],
    /// Whether `occupy` or `reduced` is there (one flag for `begin_turn`).
    occupy_or_reduce: bool,
    /// What decides a game at the ply cap (`adjudicate by …`), if not a draw.
    adjudicate: Option<Adjudge<B>>,
    /// Each player's `capture N stones` (`u32::MAX`: none).
    capture: [u32; MAXP],
    /// Whether positions count the stones each player has taken (some
    /// player wins by `capture`); they stay 0 otherwise.
    counts_taken: bool,
    /// Zobrist keys of the stones taken, `[player][count]` (empty unless
    /// `counts_taken`; 0 for none taken).
    z_taken: Vec<Vec<u64>>,
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
    /// `near[p][k]`: cells at most `k` king steps from player `p`'s goal
    /// (`k` times the longest step vector's, where the rules have them),
    /// from which a sowing of `k` stones may reach it.
    near: [[B; MAXH + 1]; MAXP],
    /// The rules' direction lists where some list is longer than
    /// [`INLINE_DIRS`] (`None`: they are inline, in `sow`, `sacs` and `cats`).
    many_dirs: Option<Box<ManyDirs>>,
    /// Each player's tables for the bulk count without the generator
    /// (`leaf`), where the rules fit them.
    leaf: Option<Vec<leaf::Leaf<B>>>,
}
