//! Breakthrough threats, read from bitboards for the search.

use murus_dsl::rules::{Breakthrough, SowCapture, Timing};

use crate::bits::Bits;
use crate::moves::MoveKind;

use super::{DirLists, Engine, Inline, MAXH, ManyDirs, Phase, Pos};

impl<B: Bits> Engine<B> {
    /// Whether player `p`, were it to act now in normal play, has a sowing
    /// or a throw that drops a stone on its goal in a way the breakthrough
    /// rule counts. Under an immediate breakthrough that is a win in one;
    /// under a delayed one, a stone that wins at the start of `p`'s next turn
    /// unless it is taken first. For the search's threat checks: cheap, from
    /// bitboards, without listing moves.
    pub fn threatens_breakthrough(&self, pos: &Pos<B>, p: usize) -> bool {
        let Some(b) = self.breakthrough[p] else {
            return false;
        };
        let goal = self.goal[p] & self.board;
        if goal.is_empty() || pos.status.is_some() || pos.phase != Phase::Normal {
            return false;
        }
        if b.min_height > 1 || b.count > 1 {
            return self.threatens_tall_breakthrough(pos, p);
        }
        match &self.many_dirs {
            None => self.threatens_with(pos, p, b, goal, &Inline),
            Some(many) => self.threatens_many(pos, p, b, goal, many),
        }
    }

    /// [`Engine::threatens_breakthrough`] for the rules whose direction
    /// lists are kept apart.
    #[inline(never)]
    fn threatens_many(
        &self,
        pos: &Pos<B>,
        p: usize,
        b: Breakthrough,
        goal: B,
        many: &ManyDirs,
    ) -> bool {
        self.threatens_with(pos, p, b, goal, many)
    }

    /// A stone of `p` one sowing or throw from its `goal` (breakthrough `b`,
    /// by a single stone), reading the rules' directions from `lists`.
    #[inline(always)]
    fn threatens_with<L: DirLists>(
        &self,
        pos: &Pos<B>,
        p: usize,
        b: Breakthrough,
        goal: B,
        lists: &L,
    ) -> bool {
        let sow = &self.sow[p];
        let own = pos.owner[p];
        let occupied = pos.occupied();
        let empty = self.board & !occupied;
        let near_sowers = sow.heights.iter().fold(B::EMPTY, |acc, &h| {
            acc | pos.height[h as usize] & self.near[p][h as usize]
        });
        if b.by_sow && !(own & near_sowers).is_empty() {
            let mut land = sow.own_landing(pos, own, empty);
            // A stone sown onto an enemy stack stays on it only by capture.
            let mut stays = goal;
            for &h in sow.enemy.iter() {
                let targets = occupied & !own & pos.height[h as usize];
                land |= targets;
                if sow.capture != Some(SowCapture::Capture) {
                    stays &= !targets;
                }
            }
            for &h in sow.heights.iter() {
                let sowers = own & pos.height[h as usize] & self.near[p][h as usize];
                if sowers.is_empty() {
                    continue;
                }
                for &d in lists.sow(sow, p) {
                    let d = d as usize;
                    let mut src = sowers & self.ray[d][h as usize];
                    let mut reach = B::EMPTY;
                    for k in 1..=h as usize {
                        src &= self.shift[d][k].back(land);
                        reach |= self.shift[d][k].back(stays);
                    }
                    if !(src & reach).is_empty() {
                        return true;
                    }
                }
            }
        }
        for (i, cat) in self.cats.iter().enumerate() {
            if b.by_throw && cat.onto_empty && cat.wall_on_empty {
                let catapults = own & pos.height[cat.height as usize];
                let land = empty & goal;
                if !catapults.is_empty() && !land.is_empty() {
                    for &d in lists.cat(cat, i, p) {
                        let d = d as usize;
                        for &r in &cat.ranges {
                            let r = r as usize;
                            if !(catapults & self.has[d][r] & self.shift[d][r].back(land))
                                .is_empty()
                            {
                                return true;
                            }
                        }
                    }
                }
            }
        }
        false
    }

    /// [`Engine::threatens_breakthrough`] where only a tall stack breaks
    /// through (`height H`): by playing `p`'s moves, which is exact and
    /// slower, for the few variants with the rule.
    #[cold]
    #[inline(never)]
    fn threatens_tall_breakthrough(&self, pos: &Pos<B>, p: usize) -> bool {
        let Some(b) = self.breakthrough[p] else {
            return false;
        };
        let mut view = *pos;
        view.turn = p as u8;
        let goal = self.goal[p] & self.board;
        let mut moves = Vec::new();
        self.legal_moves(&view, &mut moves);
        moves.into_iter().any(|m| {
            let counts = match m.kind {
                MoveKind::Sow => b.by_sow,
                MoveKind::Throw => b.by_throw,
                _ => false,
            };
            if !counts {
                return false;
            }
            // A new stone of `p` on its goal, in a stack tall enough.
            let before = view.owner[p] & goal;
            let mut after = view;
            self.apply(&mut after, m);
            let new = (b.min_height as usize..=MAXH).any(|h| {
                !(after.owner[p] & goal & after.height[h] & !(before & view.height[h])).is_empty()
            });
            // And, with `count`, enough stones there then.
            new && self.enough_on_goal(&after, p, after.owner[p] & goal, b)
        })
    }

    /// Whether a breakthrough wins the moment the stone lands (not at the
    /// start of the player's next turn): some player breaks through, and
    /// every player who does, does so at once.
    pub fn breakthrough_is_immediate(&self) -> bool {
        let mut wins = self.breakthrough[..self.players].iter().flatten();
        wins.clone().next().is_some() && wins.all(|b| b.timing == Timing::Immediate)
    }
}
