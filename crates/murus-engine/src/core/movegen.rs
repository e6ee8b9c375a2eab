//! Legal moves: generated in bitboard batches into a [`Sink`], which lists
//! them or only counts them.

use crate::bits::Bits;
use crate::moves::{Move, MoveKind};

use super::{CAT_SHIFT, DirLists, Engine, Inline, ManyDirs, Phase, Pos};

impl<B: Bits> Engine<B> {
    /// Number of legal actions player `p` would have in `pos` if it were its
    /// turn (normal play; for evaluation).
    pub fn count_moves_for(&self, pos: &Pos<B>, p: usize) -> u64 {
        let mut view = *pos;
        view.turn = p as u8;
        view.phase = Phase::Normal;
        view.status = None;
        self.count_moves(&view)
    }

    /// Feeds the legal moves of `pos` to `sink`, in batches where possible.
    #[inline(always)]
    pub(crate) fn generate<S: Sink<B>>(&self, pos: &Pos<B>, sink: &mut S) {
        if pos.status.is_some() {
            return;
        }
        if pos.phase != Phase::Normal {
            self.generate_pie(pos, sink);
            return;
        }
        match &self.many_dirs {
            None => self.generate_normal(pos, sink, &Inline),
            Some(many) => self.generate_many(pos, sink, many),
        }
    }

    /// [`Engine::generate`] for the rules whose direction lists are kept
    /// apart: a copy of its own, so that the usual one reads them inline.
    #[inline(never)]
    fn generate_many<S: Sink<B>>(&self, pos: &Pos<B>, sink: &mut S, many: &ManyDirs) {
        self.generate_normal(pos, sink, many);
    }

    /// The moves of normal play, reading the rules' directions from `lists`.
    #[inline(always)]
    fn generate_normal<S: Sink<B>, L: DirLists>(&self, pos: &Pos<B>, sink: &mut S, lists: &L) {
        let p = pos.turn as usize;
        let own = pos.owner[p];
        let occupied = pos.occupied();
        let empty = self.board & !occupied;
        let enemy = occupied & !own;

        let sow = &self.sow[p];
        let plain = &self.plain_sow[p];
        if plain.h > 0 {
            // One height, no captures: the padded list, in a loop of a
            // fixed count (the compiler unrolls it).
            let land = sow.own_landing(pos, own, empty);
            let h = plain.h as usize;
            let sowers = own & pos.height[h];
            if !sowers.is_empty() {
                for i in 0..plain.dir.len() {
                    let step = plain.step[i];
                    let mut chain = land;
                    for _ in 1..h {
                        chain = land & step.back(chain);
                    }
                    let src = sowers & plain.ray[i] & step.back(chain);
                    let d = plain.dir[i];
                    let to = self.offset[d as usize] * h as i32;
                    sink.batch(MoveKind::Sow, src, to, d);
                }
            }
        } else if !sow.heights.is_empty() {
            let land = sow.landing(pos, own, empty, enemy);
            for &h in sow.heights.iter() {
                let sowers = own & pos.height[h as usize];
                if sowers.is_empty() {
                    continue;
                }
                for &d in lists.sow(sow, p) {
                    let d = d as usize;
                    // The cells whose next `h` steps all take a stone: the
                    // one-step shift chained `h` times (`ray` keeps every
                    // step on the board), one table entry read, not `h`.
                    let step = self.shift[d][1];
                    let mut chain = land;
                    for _ in 1..h {
                        chain = land & step.back(chain);
                    }
                    let src = sowers & self.ray[d][h as usize] & step.back(chain);
                    sink.batch(MoveKind::Sow, src, self.offset[d] * i32::from(h), d as u8);
                }
            }
        }

        for (i, sac) in self.sacs.iter().enumerate() {
            let attackers = own & pos.height[sac.attacker as usize];
            if attackers.is_empty() {
                continue;
            }
            let targets = enemy & pos.height[sac.target as usize];
            if targets.is_empty() {
                continue;
            }
            for &d in lists.sac(sac, i, p) {
                let d = d as usize;
                let src = attackers & self.has[d][1] & self.shift[d][1].back(targets);
                sink.batch(MoveKind::Sacrifice, src, self.offset[d], i as u8);
            }
        }

        for (i, cat) in self.cats.iter().enumerate() {
            let catapults = own & pos.height[cat.height as usize];
            if !catapults.is_empty() {
                let mut land = if cat.onto_empty { empty } else { B::EMPTY };
                for &h in &cat.onto_enemy {
                    land |= enemy & pos.height[h as usize];
                }
                let rule = (i as u8) << CAT_SHIFT;
                for &d in lists.cat(cat, i, p) {
                    let d = d as usize;
                    for &r in &cat.ranges {
                        let r = r as usize;
                        let src = catapults & self.has[d][r] & self.shift[d][r].back(land);
                        let aux = rule | d as u8;
                        sink.batch(MoveKind::Throw, src, self.offset[d] * r as i32, aux);
                    }
                }
            }
        }
    }

    fn generate_pie<S: Sink<B>>(&self, pos: &Pos<B>, sink: &mut S) {
        let Some((from, to)) = self.pie else { return };
        let p = pos.turn as usize;
        let towers = pos.owner[p] & pos.height[2] & from[p.min(1)];
        let targets = to[p.min(1)] & self.board & !pos.occupied();
        if S::COUNT_ONLY {
            let k = u64::from(targets.count());
            sink.add(u64::from(towers.count()) * (k * k.saturating_sub(1) / 2));
        } else {
            for t in towers.iter() {
                for a in targets.iter() {
                    for b in targets.iter().filter(|&b| b > a) {
                        sink.push(Move::new(MoveKind::Split, t, a, b as u8));
                    }
                }
            }
        }
        if pos.phase == Phase::PieReply {
            sink.push(Move::SWAP);
        }
    }

    /// Appends the legal moves of `pos` to `moves`.
    // Calls the copy for the CPU `crate::simd` checked: unsafe, and sound.
    #[allow(unsafe_code)]
    pub fn legal_moves(&self, pos: &Pos<B>, moves: &mut Vec<Move>) {
        #[cfg(target_arch = "x86_64")]
        if crate::simd::fast() {
            // SAFETY: `fast` holds only where the CPU has the copy's features.
            unsafe { self.legal_moves_fast(pos, moves) };
            return;
        }
        self.generate(pos, moves);
    }

    /// [`Engine::legal_moves`] compiled for the CPUs with `popcnt`, `bmi1`
    /// and `bmi2` ([`crate::simd`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    fn legal_moves_fast(&self, pos: &Pos<B>, moves: &mut Vec<Move>) {
        self.generate(pos, moves);
    }

    /// Number of legal moves of `pos`, counted in bulk.
    // Calls the copy for the CPU `crate::simd` checked: unsafe, and sound.
    #[allow(unsafe_code)]
    pub fn count_moves(&self, pos: &Pos<B>) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if crate::simd::fast() {
            // SAFETY: `fast` holds only where the CPU has the copy's features.
            return unsafe { self.count_moves_fast(pos) };
        }
        self.count_inline(pos)
    }

    /// [`Engine::count_moves`] compiled for the CPUs with `popcnt`, `bmi1`
    /// and `bmi2` ([`crate::simd`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    fn count_moves_fast(&self, pos: &Pos<B>) -> u64 {
        self.count_inline(pos)
    }

    /// The bulk count, compiled into each caller (the copies of the hot
    /// loops).
    #[inline(always)]
    pub(super) fn count_inline(&self, pos: &Pos<B>) -> u64 {
        if pos.status.is_some() {
            return 0;
        }
        if let Some(leaf) = self.leaf_for(pos) {
            return self.count_leaf(leaf, pos);
        }
        let mut c = Counter(0);
        self.generate(pos, &mut c);
        c.0
    }
}

/// Where the generator puts moves: a list, or a counter.
pub(crate) trait Sink<B: Bits> {
    /// Whether only the number of moves is wanted.
    const COUNT_ONLY: bool;
    /// One move from each slot of `sources`, landing `offset` slots away.
    fn batch(&mut self, kind: MoveKind, sources: B, offset: i32, aux: u8);
    /// One move.
    fn push(&mut self, m: Move);
    /// `n` moves, counted only.
    fn add(&mut self, n: u64);
}

impl<B: Bits> Sink<B> for Vec<Move> {
    const COUNT_ONLY: bool = false;
    #[inline(always)]
    fn batch(&mut self, kind: MoveKind, sources: B, offset: i32, aux: u8) {
        for s in sources.iter() {
            self.push(Move::new(kind, s, (s as i32 + offset) as usize, aux));
        }
    }
    #[inline(always)]
    fn push(&mut self, m: Move) {
        Vec::push(self, m);
    }
    fn add(&mut self, _n: u64) {
        unreachable!("a move list is never asked to count")
    }
}

/// Counts moves without listing them.
pub(crate) struct Counter(pub u64);

impl<B: Bits> Sink<B> for Counter {
    const COUNT_ONLY: bool = true;
    #[inline(always)]
    fn batch(&mut self, _kind: MoveKind, sources: B, _offset: i32, _aux: u8) {
        self.0 += u64::from(sources.count());
    }
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn add(&mut self, n: u64) {
        self.0 += n;
    }
}
