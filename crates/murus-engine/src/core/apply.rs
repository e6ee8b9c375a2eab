//! Playing a move: the stones it moves and removes, the hash kept up to
//! date, the turn passed on, the start-of-turn rules, and the outcome.

use murus_dsl::rules::{Breakthrough, Material, Reduction, SowCapture, Stalemate, Timing};

use crate::bits::Bits;
use crate::moves::{Move, MoveKind};
use crate::outcome::{Outcome, Reason};

use super::{CAT_SHIFT, Engine, MAXH, Phase, Pos, StonesRemoved};

/// What `occupy` or `reduced to` did at the start of a turn.
enum Ending {
    /// The game is over.
    Over(Outcome),
    /// The player to move is out.
    Out,
}

impl<B: Bits> Engine<B> {
    #[inline(always)]
    pub(super) fn height_at(&self, pos: &Pos<B>, s: usize) -> u8 {
        let b = B::bit(s);
        for h in 1..=self.rules.stack_limit as usize {
            if !(pos.height[h] & b).is_empty() {
                return h as u8;
            }
        }
        0
    }

    /// Changes the stack of player `p` on `s` from `old` to `new` stones,
    /// keeping the hash up to date. `old` and `new` differ.
    #[inline(always)]
    pub(super) fn restack(&self, pos: &mut Pos<B>, s: usize, p: usize, old: u8, new: u8) {
        let b = B::bit(s);
        let z = &self.zobrist[s][p];
        if old > 0 {
            pos.height[old as usize] ^= b;
            pos.hash ^= z[old as usize];
        } else {
            pos.owner[p] |= b;
        }
        if new > 0 {
            pos.height[new as usize] ^= b;
            pos.hash ^= z[new as usize];
        } else {
            pos.owner[p] ^= b;
        }
    }

    /// Plays a legal move of `pos`.
    #[inline]
    pub fn apply(&self, pos: &mut Pos<B>, m: Move) {
        self.apply_inline(pos, m);
    }

    /// [`Engine::apply`], compiled into each caller that asks for it (the
    /// perft copies, so that it runs on their instruction sets without a
    /// call).
    #[inline(always)]
    pub(super) fn apply_inline(&self, pos: &mut Pos<B>, m: Move) {
        let p = pos.turn as usize;
        let from = m.from as usize;
        let to = m.to as usize;
        match m.kind {
            MoveKind::Sow => {
                let landed = match self.plain_sow[p].h {
                    0 => self.sow_general(pos, from, m.aux, p),
                    1 => self.sow_plain::<1>(pos, from, m.aux, p),
                    2 => self.sow_plain::<2>(pos, from, m.aux, p),
                    3 => self.sow_plain::<3>(pos, from, m.aux, p),
                    _ => self.sow_plain::<4>(pos, from, m.aux, p),
                };
                if let Some(b) = self.breakthrough[p] {
                    if b.timing == Timing::Immediate
                        && b.by_sow
                        && !(landed & self.goal[p]).is_empty()
                        && self.tall_enough(pos, p, landed & self.goal[p], b)
                    {
                        pos.status = Some(Outcome {
                            winner: Some(p),
                            reason: Reason::BreakthroughSow,
                        });
                    }
                }
            }
            MoveKind::Sacrifice => {
                let sac = &self.sacs[m.aux as usize];
                let (a, t) = (sac.attacker, sac.target);
                let (lose, remove) = (sac.lose, sac.remove);
                self.restack(pos, from, p, a, a - lose);
                let q = self.owner_at(pos, to);
                self.restack(pos, to, q, t, t - remove);
                self.took(pos, p, remove);
            }
            MoveKind::Throw => {
                let h = self.height_at(pos, from);
                self.restack(pos, from, p, h, h - 1);
                let c = self.height_at(pos, to);
                let (wall, hit) = self.landing(m);
                if c == 0 && !wall {
                    // `on empty: lost`: the stone leaves the game.
                } else if c == 0 {
                    self.restack(pos, to, p, 0, 1);
                    if let Some(b) = self.breakthrough[p] {
                        // A thrown stone makes a wall: it breaks through
                        // only where any stack does.
                        if b.timing == Timing::Immediate
                            && b.by_throw
                            && self.goal[p].has(to)
                            && b.min_height <= 1
                            && self.tall_enough(pos, p, B::bit(to), b)
                        {
                            pos.status = Some(Outcome {
                                winner: Some(p),
                                reason: Reason::BreakthroughThrow,
                            });
                        }
                    }
                } else {
                    let q = self.owner_at(pos, to);
                    self.restack(pos, to, q, c, c - hit.min(c));
                    self.took(pos, p, hit.min(c));
                }
            }
            MoveKind::Split => {
                self.restack(pos, from, p, 2, 0);
                self.restack(pos, to, p, 0, 1);
                self.restack(pos, m.aux as usize, p, 0, 1);
            }
            MoveKind::Swap => {
                self.set_phase(pos, Phase::PieSwapped);
                return;
            }
        }
        // The turn passes even when the move ended the game, as in chess:
        // after a breakthrough the loser is "to move" and has no moves.
        match pos.phase {
            Phase::Normal => self.pass_turn(pos),
            Phase::PieOpen => {
                self.set_phase(pos, Phase::PieReply);
                self.set_turn(pos, 1);
            }
            Phase::PieReply | Phase::PieSwapped => {
                self.set_phase(pos, Phase::Normal);
                self.set_turn(pos, 0);
            }
        }
        if pos.status.is_none() {
            self.begin_turn(pos);
        }
    }

    /// A sowing from `from` in direction `d` by player `p`, by the general
    /// rules (several heights, or captures): returns the cells where a stone
    /// of `p` landed and stayed.
    #[inline(always)]
    fn sow_general(&self, pos: &mut Pos<B>, from: usize, d: u8, p: usize) -> B {
        let h = self.height_at(pos, from);
        self.restack(pos, from, p, h, 0);
        let step = self.offset[d as usize];
        match self.sow[p].capture {
            None => {
                let mut landed = B::EMPTY;
                let mut s = from as i32;
                for _ in 0..h {
                    s += step;
                    let c = self.height_at(pos, s as usize);
                    self.restack(pos, s as usize, p, c, c + 1);
                    landed |= B::bit(s as usize);
                }
                landed
            }
            Some(capture) => self.sow_onto_enemies(pos, (from, step, h), p, capture),
        }
    }

    /// [`Engine::sow_general`] where player `p` sows from `H` stones only
    /// and without captures (`plain_sow`): the source's height is known, the
    /// loop over the stones unrolls, and a landing cell's height is looked
    /// for among the own heights a stone may land on only.
    #[inline(always)]
    fn sow_plain<const H: usize>(&self, pos: &mut Pos<B>, from: usize, d: u8, p: usize) -> B {
        let b = B::bit(from);
        pos.height[H] ^= b;
        pos.owner[p] ^= b;
        pos.hash ^= self.zobrist[from][p][H];
        let step = self.offset[d as usize];
        let own = &self.sow[p].own;
        let mut landed = B::EMPTY;
        let mut s = from as i32;
        for _ in 0..H {
            s += step;
            let at = s as usize;
            let t = B::bit(at);
            let z = &self.zobrist[at][p];
            let mut c = 0;
            for &k in own.iter() {
                if !(pos.height[k as usize] & t).is_empty() {
                    c = k as usize;
                }
            }
            if c > 0 {
                pos.height[c] ^= t;
                pos.hash ^= z[c];
            } else {
                pos.owner[p] |= t;
            }
            pos.height[c + 1] ^= t;
            pos.hash ^= z[c + 1];
            landed |= t;
        }
        landed
    }

    /// The stones of a sowing from `from` (`h` of them, `step` slots apart)
    /// dropped where stones may be sown onto enemy stacks (`onto enemy H`):
    /// each takes the enemy stack it lands on, or leaves the game with some
    /// of its stones. Returns the cells where a stone of `p` landed and
    /// stayed.
    #[cold]
    #[inline(never)]
    fn sow_onto_enemies(
        &self,
        pos: &mut Pos<B>,
        (from, step, h): (usize, i32, u8),
        p: usize,
        capture: SowCapture,
    ) -> B {
        let mut landed = B::EMPTY;
        let mut s = from as i32;
        for _ in 0..h {
            s += step;
            let at = s as usize;
            let c = self.height_at(pos, at);
            if c > 0 && !pos.owner[p].has(at) {
                let q = self.owner_at(pos, at);
                match capture {
                    SowCapture::Capture => {
                        self.restack(pos, at, q, c, 0);
                        self.restack(pos, at, p, 0, 1);
                        self.took(pos, p, c);
                        landed |= B::bit(at);
                    }
                    SowCapture::Remove(n) => {
                        self.restack(pos, at, q, c, c - n.min(c));
                        self.took(pos, p, n.min(c));
                    }
                }
            } else {
                self.restack(pos, at, p, c, c + 1);
                landed |= B::bit(at);
            }
        }
        landed
    }

    /// Player `p` took `n` enemy stones: where the rules count them
    /// (`capture N stones`), its count grows, and reaching its `capture`
    /// wins at once.
    #[inline(always)]
    fn took(&self, pos: &mut Pos<B>, p: usize, n: u8) {
        if self.counts_taken {
            self.count_taken(pos, p, n);
        }
    }

    #[cold]
    #[inline(never)]
    fn count_taken(&self, pos: &mut Pos<B>, p: usize, n: u8) {
        let old = pos.taken[p];
        let new = old.saturating_add(n);
        pos.hash ^= self.z_taken[p][usize::from(old)] ^ self.z_taken[p][usize::from(new)];
        pos.taken[p] = new;
        if n > 0 && u32::from(new) >= self.capture[p] {
            pos.status = Some(Outcome {
                winner: Some(p),
                reason: Reason::Capture,
            });
        }
    }

    /// What the stone thrown by `m` (a throw) does: whether it stays as a
    /// wall on an empty cell, and how many enemy stones a hit removes, under
    /// the catapult rule that made the throw. Only a variant with catapults
    /// has throw moves, so the default never plays.
    #[inline(always)]
    pub(super) fn landing(&self, m: Move) -> (bool, u8) {
        self.cats
            .get(usize::from(m.aux >> CAT_SHIFT))
            .map_or((true, 1), |cat| (cat.wall_on_empty, cat.hit_removes))
    }

    #[inline(always)]
    fn owner_at(&self, pos: &Pos<B>, s: usize) -> usize {
        (0..self.players)
            .find(|&q| pos.owner[q].has(s))
            .unwrap_or(0)
    }

    fn set_phase(&self, pos: &mut Pos<B>, phase: Phase) {
        pos.hash ^= self.z_phase[pos.phase.index()] ^ self.z_phase[phase.index()];
        pos.phase = phase;
    }

    #[inline(always)]
    fn set_turn(&self, pos: &mut Pos<B>, p: usize) {
        pos.hash ^= self.z_turn[pos.turn as usize] ^ self.z_turn[p];
        pos.turn = p as u8;
    }

    /// The steps of the turn order after `step`, as many as the order has:
    /// the rest of the first round and cycle, then the cycle again.
    fn steps_after(&self, step: usize) -> impl Iterator<Item = usize> + '_ {
        let n = self.seq.len();
        (0..n).scan(step, move |k, _| {
            *k = if *k + 1 == n {
                self.cycle_start
            } else {
                *k + 1
            };
            Some(*k)
        })
    }

    /// The step of the turn order after `pos`'s whose player is still in
    /// the game (the step itself when there is none).
    fn next_step(&self, pos: &Pos<B>) -> usize {
        self.steps_after(pos.step as usize)
            .find(|&k| !pos.is_out(self.seq[k] as usize))
            .unwrap_or(pos.step as usize)
    }

    /// Passes the turn to the next step of the turn order whose player is
    /// still in the game.
    #[inline(always)]
    fn pass_turn(&self, pos: &mut Pos<B>) {
        if !self.ordered {
            // The plain order: the step is the player.
            let mut q = pos.turn as usize;
            if pos.out == 0 {
                // No one is out (always, with two players): the next one.
                q = if q + 1 == self.players { 0 } else { q + 1 };
                pos.step = q as u8;
                self.set_turn(pos, q);
                return;
            }
            for _ in 0..self.players {
                q += 1;
                if q == self.players {
                    q = 0;
                }
                if !pos.is_out(q) {
                    break;
                }
            }
            pos.step = q as u8;
            self.set_turn(pos, q);
            return;
        }
        self.pass_ordered_turn(pos);
    }

    /// [`Engine::pass_turn`] with a turn order of the variant's own.
    #[cold]
    #[inline(never)]
    fn pass_ordered_turn(&self, pos: &mut Pos<B>) {
        let k = self.next_step(pos);
        pos.hash ^= self.z_step[pos.step as usize] ^ self.z_step[k];
        pos.step = k as u8;
        self.set_turn(pos, self.seq[k] as usize);
    }

    /// The first player other than `p`, still in the game, to have a turn
    /// after `pos`'s: who wins when `p` loses with two players.
    pub(super) fn next_player(&self, pos: &Pos<B>, p: usize) -> usize {
        self.steps_after(pos.step as usize)
            .map(|k| self.seq[k] as usize)
            .find(|&q| q != p && !pos.is_out(q))
            .unwrap_or(p)
    }

    /// Start-of-turn rules, in this order: a delayed breakthrough wins now;
    /// holding the cells of `occupy` wins now; a player `reduced to` its
    /// limit loses (with more than two players it is eliminated); with more
    /// than two players, a player who cannot act is eliminated.
    #[inline(always)]
    pub(super) fn begin_turn(&self, pos: &mut Pos<B>) {
        if self.occupy_or_reduce {
            self.begin_turn_occupying(pos);
        } else {
            self.begin_turn_with::<false>(pos);
        }
    }

    /// [`Engine::begin_turn`] in a variant with `occupy` or `reduced to`:
    /// apart, so that the others' start of a turn has no trace of them.
    #[cold]
    #[inline(never)]
    fn begin_turn_occupying(&self, pos: &mut Pos<B>) {
        self.begin_turn_with::<true>(pos);
    }

    /// The start-of-turn rules, with `occupy` and `reduced to` when
    /// `OCCUPY` (see [`Engine::begin_turn`]).
    #[inline(always)]
    fn begin_turn_with<const OCCUPY: bool>(&self, pos: &mut Pos<B>) {
        loop {
            let p = pos.turn as usize;
            if self.players > 2 && (0..self.players).filter(|&q| !pos.is_out(q)).count() <= 1 {
                // The last player able to act has won; it stays "to move".
                pos.status = Some(Outcome {
                    winner: Some(p),
                    reason: Reason::Elimination,
                });
                return;
            }
            if let Some(b) = self.breakthrough[p] {
                if b.timing == Timing::Delayed
                    && !(pos.owner[p] & self.goal[p]).is_empty()
                    && self.tall_enough(pos, p, pos.owner[p] & self.goal[p], b)
                {
                    pos.status = Some(Outcome {
                        winner: Some(p),
                        reason: Reason::BreakthroughDelayed,
                    });
                    return;
                }
            }
            if OCCUPY {
                match self.occupation_or_reduction(pos, p) {
                    None => {}
                    Some(Ending::Over(outcome)) => {
                        pos.status = Some(outcome);
                        return;
                    }
                    Some(Ending::Out) => {
                        self.eliminate(pos, p);
                        continue;
                    }
                }
            }
            if self.players <= 2
                || self.stalemate[p] != Stalemate::Loses
                || self.count_moves(pos) > 0
            {
                return;
            }
            self.eliminate(pos, p);
        }
    }

    /// Player `p`, to move, is out of the game (its stacks stay); the turn
    /// passes on.
    #[inline(always)]
    fn eliminate(&self, pos: &mut Pos<B>, p: usize) {
        pos.out |= 1 << p;
        pos.hash ^= self.z_out[p];
        self.pass_turn(pos);
    }

    /// `occupy` and `reduced to`, at the start of `p`'s turn: the game is
    /// over, or `p` is out, or neither.
    fn occupation_or_reduction(&self, pos: &Pos<B>, p: usize) -> Option<Ending> {
        if let Some((cells, count)) = self.occupy[p] {
            if (pos.owner[p] & cells).count() >= count {
                return Some(Ending::Over(Outcome {
                    winner: Some(p),
                    reason: Reason::Occupation,
                }));
            }
        }
        let r = self.reduced[p]?;
        if !self.is_reduced(pos, p, r) {
            return None;
        }
        if self.players <= 2 {
            let next = self.next_player(pos, p);
            return Some(Ending::Over(Outcome {
                winner: (next != p).then_some(next),
                reason: Reason::Reduced,
            }));
        }
        Some(Ending::Out)
    }

    /// Whether some cell of `cells` (arrivals of `p` on its goal, or its
    /// stacks there) holds a stack of at least the breakthrough's `height`,
    /// and `p` then has at least its `count` stones on the goal in such
    /// stacks: always, without `height` and `count`.
    #[inline(always)]
    pub(super) fn tall_enough(&self, pos: &Pos<B>, p: usize, cells: B, b: Breakthrough) -> bool {
        b.min_height <= 1 && b.count <= 1 || self.enough_on_goal(pos, p, cells, b)
    }

    #[cold]
    #[inline(never)]
    pub(super) fn enough_on_goal(&self, pos: &Pos<B>, p: usize, cells: B, b: Breakthrough) -> bool {
        let low = usize::from(b.min_height.max(1));
        let tall = (low..=MAXH).any(|k| !(cells & pos.height[k]).is_empty());
        let mine = pos.owner[p] & self.goal[p];
        let stones: u32 = (low..=MAXH)
            .map(|k| k as u32 * (mine & pos.height[k]).count())
            .sum();
        tall && stones >= b.count
    }

    /// Whether player `p` has no more stones (or towers) than `r` allows.
    fn is_reduced(&self, pos: &Pos<B>, p: usize, r: Reduction) -> bool {
        let has = match r.material {
            Material::Stones => pos.stone_count(p),
            Material::Towers => {
                let walls = pos.height[1];
                (pos.owner[p] & !walls).count()
            }
        };
        has <= r.at_most
    }

    /// The result of the game at `pos`, if it is over: a finished game's
    /// status, or a stalemate of the side to move.
    pub fn outcome(&self, pos: &Pos<B>) -> Option<Outcome> {
        if pos.status.is_some() {
            return pos.status;
        }
        if self.count_moves(pos) > 0 {
            return None;
        }
        Some(match self.stalemate[pos.turn as usize] {
            Stalemate::Draws => Outcome {
                winner: None,
                reason: Reason::Stalemate,
            },
            Stalemate::Loses => {
                let p = pos.turn as usize;
                let next = self.next_player(pos, p);
                let reason = if self.players > 2 {
                    Reason::Elimination
                } else {
                    Reason::Stalemate
                };
                Outcome {
                    winner: (next != p).then_some(next),
                    reason,
                }
            }
        })
    }

    /// Whether `m` removes stones from the board, after which no earlier
    /// position can occur again.
    #[inline(always)]
    pub fn is_capture(&self, pos: &Pos<B>, m: Move) -> bool {
        match m.kind {
            MoveKind::Sacrifice => true,
            // A hit, or a stone lost on an empty cell (`on empty: lost`).
            MoveKind::Throw => pos.occupied().has(m.to as usize) || !self.landing(m).0,
            MoveKind::Sow => {
                self.sow[pos.turn as usize].capture.is_some()
                    && self.sown_onto_enemies(pos, m).enemy > 0
            }
            _ => false,
        }
    }

    /// The stones a sowing `m` of `pos` takes off the board by landing on
    /// enemy stacks (`onto enemy H`): the stacks captured, or the stones
    /// removed with the sown stones.
    fn sown_onto_enemies(&self, pos: &Pos<B>, m: Move) -> StonesRemoved {
        let mut out = StonesRemoved::default();
        let p = pos.turn as usize;
        let Some(capture) = self.sow[p].capture else {
            return out;
        };
        let from = m.from as usize;
        let step = self.offset[m.aux as usize];
        let mut s = from as i32;
        for _ in 0..self.height_at(pos, from) {
            s += step;
            let c = self.height_at(pos, s as usize);
            if c == 0 || pos.owner[p].has(s as usize) {
                continue;
            }
            match capture {
                SowCapture::Capture => out.enemy += c,
                SowCapture::Remove(n) => {
                    out.own += 1;
                    out.enemy += n.min(c);
                }
            }
        }
        out
    }

    /// The stones `m`, a legal move of `pos`, takes off the board.
    pub fn stones_removed(&self, pos: &Pos<B>, m: Move) -> StonesRemoved {
        match m.kind {
            MoveKind::Sacrifice => {
                self.sacs
                    .get(m.aux as usize)
                    .map_or_else(StonesRemoved::default, |sac| StonesRemoved {
                        own: sac.lose,
                        enemy: sac.remove,
                    })
            }
            MoveKind::Throw => {
                let landing = self.height_at(pos, m.to as usize);
                let (wall, hit) = self.landing(m);
                StonesRemoved {
                    own: u8::from(landing > 0 || !wall),
                    enemy: hit.min(landing),
                }
            }
            MoveKind::Sow => self.sown_onto_enemies(pos, m),
            MoveKind::Split | MoveKind::Swap => StonesRemoved::default(),
        }
    }
}
