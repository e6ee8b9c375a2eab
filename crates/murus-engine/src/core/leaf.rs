//! The bulk count of legal moves without the generator, where perft and the
//! searches spend most of their time (the last ply): for each rule, each
//! direction's source cells counted with one population count, as a
//! hand-written generator counts them.
//!
//! The count reads tables built once from the rules' shape ([`Leaf`]): each
//! rule's directions split by the sign of their slot offset into two lists
//! of at most [`SIDE`] entries, padded with empty masks, so that the loops
//! have a fixed count and unroll, and each shift is one instruction of a
//! known direction. Sowing heights are constants of a copy of the loop
//! (one per height), so that the chain of steps unrolls too. Rules that do
//! not fit (more than [`SIDE`] directions of one sign in a list, step
//! vectors kept apart in `ManyDirs`) keep the generator's count; the pie
//! rule's opening moves always do.

use crate::bits::Bits;

use super::{Engine, MAXH, MAXP, Phase, Pos};

/// Most entries of one sign in a [`Fan`] (a rectangle's eight directions
/// are four and four).
const SIDE: usize = 4;

/// Entries of one sign: a mask of source cells and the shift that brings a
/// cell's neighbour along the entry's offset back onto the cell.
#[derive(Clone, Copy, Debug, Default)]
struct Side<B> {
    mask: [B; SIDE],
    by: [u32; SIDE],
}

/// One rule's directions for one player, as masks and offsets: `up` holds
/// the positive offsets (a neighbour is read back by a right shift), `down`
/// the negative ones (a left shift).
#[derive(Clone, Copy, Debug, Default)]
struct Fan<B> {
    up: Side<B>,
    down: Side<B>,
}

impl<B: Bits> Fan<B> {
    /// The fan of `entries` (`(mask, offset)`), or `None` where one sign
    /// has more than [`SIDE`] of them. Entries whose offset runs past the
    /// bitboard have no source (their mask is empty) and are left out.
    fn new(entries: impl IntoIterator<Item = (B, i32)>) -> Option<Fan<B>> {
        let mut fan = Fan::default();
        let (mut up, mut down) = (0, 0);
        for (mask, offset) in entries {
            if mask.is_empty() || offset.unsigned_abs() as usize >= B::SLOTS {
                continue;
            }
            let (side, n) = match offset > 0 {
                true => (&mut fan.up, &mut up),
                false => (&mut fan.down, &mut down),
            };
            if *n == SIDE {
                return None;
            }
            side.mask[*n] = mask;
            side.by[*n] = offset.unsigned_abs();
            *n += 1;
        }
        Some(fan)
    }

    /// Sources in `src` whose neighbour along each entry is in `targets`,
    /// counted over the entries.
    #[inline(always)]
    fn step(&self, src: B, targets: B) -> u32 {
        let mut n = 0;
        for i in 0..SIDE {
            n += (src & self.up.mask[i] & targets.shift(0, self.up.by[i])).count();
        }
        for i in 0..SIDE {
            n += (src & self.down.mask[i] & targets.shift(self.down.by[i], 0)).count();
        }
        n
    }

    /// Sources in `src` whose next `H` cells along each entry are all in
    /// `land` (the masks keep every step on the board), counted.
    #[inline(always)]
    fn chain<const H: usize>(&self, src: B, land: B) -> u32 {
        let mut n = 0;
        for i in 0..SIDE {
            let by = self.up.by[i];
            let mut c = land;
            for _ in 1..H {
                c = land & c.shift(0, by);
            }
            n += (src & self.up.mask[i] & c.shift(0, by)).count();
        }
        for i in 0..SIDE {
            let by = self.down.by[i];
            let mut c = land;
            for _ in 1..H {
                c = land & c.shift(by, 0);
            }
            n += (src & self.down.mask[i] & c.shift(by, 0)).count();
        }
        n
    }
}

/// One catapult rule for one player: its sources' height, where a stone
/// lands, and its `(mask, offset)` entries over directions and ranges.
#[derive(Clone, Debug)]
struct CatLeaf<B> {
    height: u8,
    onto_empty: bool,
    onto_enemy: Vec<u8>,
    up: Vec<(B, u32)>,
    down: Vec<(B, u32)>,
}

/// One player's tables for the count.
#[derive(Clone, Debug)]
pub(super) struct Leaf<B> {
    /// The sowing's fan at each of its heights (an unused height: empty).
    sow: [Fan<B>; MAXH + 1],
    /// Each sacrifice rule: attacker and target heights, and its fan.
    sacs: Vec<(u8, u8, Fan<B>)>,
    cats: Vec<CatLeaf<B>>,
}

impl<B: Bits> Engine<B> {
    /// Every player's [`Leaf`], or `None` where the rules do not fit it.
    pub(super) fn leaf_tables(&self) -> Option<Vec<Leaf<B>>> {
        if self.many_dirs.is_some() {
            return None;
        }
        (0..self.players.min(MAXP))
            .map(|p| {
                let sow = &self.sow[p];
                let mut fans = [Fan::default(); MAXH + 1];
                for &h in sow.heights.iter() {
                    let h = usize::from(h);
                    let entries = sow.dirs.iter().map(|&d| {
                        let d = usize::from(d);
                        (self.ray[d][h], self.offset[d])
                    });
                    fans[h] = Fan::new(entries)?;
                }
                let sacs = (self.sacs.iter())
                    .map(|sac| {
                        let entries = sac.dirs[p].iter().map(|&d| {
                            let d = usize::from(d);
                            (self.has[d][1], self.offset[d])
                        });
                        Some((sac.attacker, sac.target, Fan::new(entries)?))
                    })
                    .collect::<Option<Vec<_>>>()?;
                let cats = (self.cats.iter())
                    .map(|cat| {
                        let mut leaf = CatLeaf {
                            height: cat.height,
                            onto_empty: cat.onto_empty,
                            onto_enemy: cat.onto_enemy.clone(),
                            up: Vec::new(),
                            down: Vec::new(),
                        };
                        for &d in cat.dirs[p].iter() {
                            let d = usize::from(d);
                            for &r in &cat.ranges {
                                let (mask, by) =
                                    (self.has[d][usize::from(r)], self.offset[d] * i32::from(r));
                                if mask.is_empty() || by.unsigned_abs() as usize >= B::SLOTS {
                                    continue;
                                }
                                match by > 0 {
                                    true => leaf.up.push((mask, by.unsigned_abs())),
                                    false => leaf.down.push((mask, by.unsigned_abs())),
                                }
                            }
                        }
                        leaf
                    })
                    .collect();
                Some(Leaf {
                    sow: fans,
                    sacs,
                    cats,
                })
            })
            .collect()
    }

    /// The number of legal moves of `pos`, a position of normal play with
    /// no result, from the player's [`Leaf`] (the generator's count, move
    /// for move: one move per source cell and entry).
    #[inline(always)]
    pub(super) fn count_leaf(&self, leaf: &Leaf<B>, pos: &Pos<B>) -> u64 {
        let p = pos.turn as usize;
        let own = pos.owner[p];
        let occupied = pos.occupied();
        let empty = self.board & !occupied;
        let enemy = occupied & !own;
        let mut n = 0;

        let sow = &self.sow[p];
        if !sow.heights.is_empty() {
            let land = sow.landing(pos, own, empty, enemy);
            for &h in sow.heights.iter() {
                let h = usize::from(h);
                let sowers = own & pos.height[h];
                if sowers.is_empty() {
                    continue;
                }
                let fan = &leaf.sow[h];
                n += match h {
                    1 => fan.chain::<1>(sowers, land),
                    2 => fan.chain::<2>(sowers, land),
                    3 => fan.chain::<3>(sowers, land),
                    _ => fan.chain::<4>(sowers, land),
                };
            }
        }

        for &(a, t, ref fan) in &leaf.sacs {
            let attackers = own & pos.height[a as usize];
            let targets = enemy & pos.height[t as usize];
            if !attackers.is_empty() && !targets.is_empty() {
                n += fan.step(attackers, targets);
            }
        }

        for cat in &leaf.cats {
            let catapults = own & pos.height[cat.height as usize];
            if catapults.is_empty() {
                continue;
            }
            let mut land = if cat.onto_empty { empty } else { B::EMPTY };
            for &h in &cat.onto_enemy {
                land |= enemy & pos.height[h as usize];
            }
            for &(mask, by) in &cat.up {
                n += (catapults & mask & land.shift(0, by)).count();
            }
            for &(mask, by) in &cat.down {
                n += (catapults & mask & land.shift(by, 0)).count();
            }
        }
        u64::from(n)
    }

    /// Whether [`Engine::count_leaf`] counts `pos`: normal play (a
    /// finished game has no moves; the pie rule's opening keeps the
    /// generator).
    #[inline(always)]
    pub(super) fn leaf_for(&self, pos: &Pos<B>) -> Option<&Leaf<B>> {
        let leaf = self.leaf.as_deref()?;
        match pos.phase {
            Phase::Normal => leaf.get(pos.turn as usize),
            _ => None,
        }
    }
}
