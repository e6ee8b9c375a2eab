//! Compiling [`Rules`] into an [`Engine`]: shifts and masks per direction,
//! goals, the compiled sowing, sacrifice and catapult rules, Zobrist keys,
//! distances to the goals, and a bound on the legal moves.

use std::sync::Arc;

use murus_dsl::rules::{Adjudication, Material, Opening, Rules, SacrificeRule, Stalemate};

use crate::bits::{Bits, Shift};
use crate::moves::Move;

use super::{
    Adjudge, Cat, Dirs, Engine, Heights, INLINE_DIRS, MAXD, MAXH, MAXK, MAXP, ManyDirs, PlainSow,
    Sac, SowTab,
};

/// SplitMix64: a fixed, seedable source for Zobrist keys.
fn splitmix(state: &mut u64) -> u64 {
    let mut g = crate::util::SplitMix64(*state);
    let z = g.next();
    *state = g.0;
    z
}

/// Each player's list of a rule, inline (empty where the lists are kept
/// apart, in [`ManyDirs`]).
fn per_player(rules: &Rules, dirs: &[Vec<usize>], many: bool) -> [Dirs; MAXP] {
    let mut out = [Dirs::default(); MAXP];
    if !many {
        for (p, list) in dirs.iter().enumerate().take(rules.players.len()) {
            out[p] = Dirs::new(list);
        }
    }
    out
}

/// A list of directions as [`ManyDirs`] keeps it.
fn apart(list: &[usize]) -> Vec<u8> {
    list.iter().map(|&d| d as u8).collect()
}

/// Each player's list of a rule, as [`ManyDirs`] keeps it.
fn per_player_apart(rules: &Rules, dirs: &[Vec<usize>]) -> [Vec<u8>; MAXP] {
    std::array::from_fn(|p| match dirs.get(p) {
        Some(list) if p < rules.players.len() => apart(list),
        _ => Vec::new(),
    })
}

/// Whether some rule has more directions for some player than a [`Dirs`]
/// holds, and so keeps its lists in [`ManyDirs`].
fn many_dirs(rules: &Rules) -> bool {
    let long = |dirs: &[Vec<usize>]| dirs.iter().any(|list| list.len() > INLINE_DIRS);
    (0..rules.players.len()).any(|p| rules.sow_of(p).is_some_and(|s| long(&s.directions)))
        || rules.sacrifices.iter().any(|r| long(&r.directions))
        || rules.catapults.iter().any(|c| long(&c.directions))
}

impl<B: Bits> Engine<B> {
    /// Builds the tables. The rules must fit: `rules.geometry.slots() <= B::SLOTS`.
    pub fn new(rules: Arc<Rules>) -> Engine<B> {
        let g = &rules.geometry;
        assert!(g.slots() <= B::SLOTS, "board too wide for this bitboard");
        let set = |cells: &[usize]| cells.iter().fold(B::EMPTY, |b, &s| b | B::bit(s));
        let board = set(&g.cells().collect::<Vec<_>>());
        let mut offset = [0; MAXD];
        let mut shift = [[Shift::default(); MAXK + 1]; MAXD];
        let mut has = [[B::EMPTY; MAXK + 1]; MAXD];
        let mut ray = [[B::EMPTY; MAXH + 1]; MAXD];
        // The board's directions, then the step vectors.
        for d in 0..rules.direction_count().min(MAXD) {
            let dir = rules.direction(d).expect("a direction of the rules");
            offset[d] = i32::from(dir.dx) + i32::from(dir.dy) * g.width() as i32;
            for k in 0..=MAXK {
                has[d][k] = set(&g
                    .cells()
                    .filter(|&s| g.step(s, dir, k as i32).is_some())
                    .collect::<Vec<_>>());
                // A shift past the whole bitboard would overflow; no cell
                // has a cell that far (`has` is empty), so any shift will do.
                let by = offset[d] * k as i32;
                shift[d][k] = match by.unsigned_abs() as usize >= B::SLOTS {
                    true => Shift::new(0),
                    false => Shift::new(by),
                };
            }
            ray[d][0] = board;
            for h in 1..=MAXH {
                ray[d][h] = ray[d][h - 1] & has[d][h];
            }
        }
        let players = rules.players.len();
        let mut goal = [B::EMPTY; MAXP];
        for (p, slot) in goal.iter_mut().enumerate().take(players) {
            for (q, other) in rules.players.iter().enumerate() {
                if q != p {
                    *slot |= set(&other.home);
                }
            }
        }
        let many = many_dirs(&rules);
        let sow: [SowTab; MAXP] = std::array::from_fn(|p| match rules.sow_of(p) {
            Some(s) if p < players => SowTab {
                heights: Heights::new(&s.heights),
                dirs: match many {
                    true => Dirs::default(),
                    false => Dirs::new(&s.directions[p]),
                },
                empty: s.onto_empty,
                // A stone lands on an own stack only within the player's limit.
                own: Heights::new(
                    &(s.onto_own.iter().copied())
                        .filter(|&h| h < rules.players[p].stack_limit)
                        .collect::<Vec<u8>>(),
                ),
                enemy: Heights::new(&s.onto_enemy),
                capture: (!s.onto_enemy.is_empty()).then_some(s.on_enemy),
            },
            _ => SowTab::default(),
        });
        let win = |p: usize| rules.players.get(p).map(|q| &q.win);
        let breakthrough = std::array::from_fn(|p| win(p).and_then(|w| w.breakthrough));
        let stalemate = std::array::from_fn(|p| win(p).map_or(Stalemate::Loses, |w| w.stalemate));
        let occupy_or_reduce = rules
            .wins()
            .any(|w| w.occupation.is_some() || w.reduced.is_some());
        let occupy = std::array::from_fn(|p| {
            let o = win(p)?.occupation.as_ref()?;
            Some((set(&o.cells), o.count))
        });
        let reduced = std::array::from_fn(|p| win(p).and_then(|w| w.reduced));
        let adjudicate = rules.adjudicate.as_ref().map(|a| match a {
            Adjudication::Material(Material::Stones) => Adjudge::Stones,
            Adjudication::Material(Material::Towers) => Adjudge::Towers,
            Adjudication::Stacks(cells) => Adjudge::Stacks(set(cells)),
            Adjudication::Player(p) => Adjudge::Player(*p),
        });
        let sacs = rules
            .sacrifices
            .iter()
            .map(|r: &SacrificeRule| Sac {
                attacker: r.attacker,
                target: r.target,
                lose: r.lose,
                remove: r.remove,
                dirs: per_player(&rules, &r.directions, many),
            })
            .collect();
        let cats = rules.catapults.iter().map(|c| Cat {
            height: c.height,
            dirs: per_player(&rules, &c.directions, many),
            ranges: c
                .ranges
                .iter()
                .copied()
                .filter(|&r| r as usize <= MAXK)
                .collect(),
            onto_empty: c.onto_empty,
            onto_enemy: c.onto_enemy.clone(),
            wall_on_empty: c.wall_on_empty,
            hit_removes: c.hit_removes.max(1),
        });
        let cats = cats.collect();
        let pie = match &rules.opening {
            Opening::None => None,
            Opening::Pie { from, to } => {
                Some(([set(&from[0]), set(&from[1])], [set(&to[0]), set(&to[1])]))
            }
        };
        let mut seed = 0x6d75_7275_735f_7a6f; // "murus_zo"
        let zobrist = (0..g.slots())
            .map(|_| {
                let mut t = [[0; MAXH + 1]; MAXP];
                for row in &mut t {
                    for key in row.iter_mut().skip(1) {
                        *key = splitmix(&mut seed);
                    }
                }
                t
            })
            .collect();
        let mut keys = [0u64; MAXP];
        let z_turn = keys.map(|_| splitmix(&mut seed));
        let z_phase = [
            0,
            splitmix(&mut seed),
            splitmix(&mut seed),
            splitmix(&mut seed),
        ];
        keys = keys.map(|_| splitmix(&mut seed));
        // Drawn after every other key, so that those stay as they were.
        let seq: Vec<u8> = rules.turn_steps().iter().map(|&p| p as u8).collect();
        let z_step = match &rules.turn_order {
            Some(_) => seq.iter().map(|_| splitmix(&mut seed)).collect(),
            None => vec![0; seq.len()],
        };
        // Stones taken, counted only where taking them wins (`capture N
        // stones`): keys for 0 ..= 255 per player, 0 for none taken.
        let capture: [u32; MAXP] =
            std::array::from_fn(|p| win(p).and_then(|w| w.capture).unwrap_or(u32::MAX));
        let counts_taken = capture.iter().any(|&n| n != u32::MAX);
        let z_taken = match counts_taken {
            true => (0..players)
                .map(|_| {
                    (0..256)
                        .map(|n| if n == 0 { 0 } else { splitmix(&mut seed) })
                        .collect()
                })
                .collect(),
            false => Vec::new(),
        };
        let many_dirs = many.then(|| {
            Box::new(ManyDirs {
                sow: std::array::from_fn(|p| match rules.sow_of(p) {
                    Some(s) if p < players => apart(&s.directions[p]),
                    _ => Vec::new(),
                }),
                sacs: (rules.sacrifices.iter())
                    .map(|r| per_player_apart(&rules, &r.directions))
                    .collect(),
                cats: (rules.catapults.iter())
                    .map(|c| per_player_apart(&rules, &c.directions))
                    .collect(),
            })
        });
        let plain_sow = std::array::from_fn(|p| {
            let tab: &SowTab = &sow[p];
            let mut plain = PlainSow::default();
            if many || tab.heights.len() != 1 || tab.capture.is_some() {
                return plain;
            }
            let h = tab.heights[0] as usize;
            plain.h = h as u8;
            for (i, &d) in tab.dirs.iter().enumerate() {
                plain.ray[i] = ray[d as usize][h];
                plain.step[i] = shift[d as usize][1];
                plain.dir[i] = d;
            }
            plain
        });
        let mut engine = Engine {
            players,
            board,
            offset,
            shift,
            has,
            ray,
            goal,
            sow,
            plain_sow,
            sacs,
            cats,
            breakthrough,
            stalemate,
            seq,
            cycle_start: rules.cycle_start(),
            ordered: rules.turn_order.is_some(),
            z_step,
            occupy_or_reduce,
            occupy,
            reduced,
            adjudicate,
            capture,
            counts_taken,
            z_taken,
            pie,
            zobrist,
            z_turn,
            z_phase,
            z_out: keys,
            max_moves: 0,
            distance: Default::default(),
            near: [[B::EMPTY; MAXH + 1]; MAXP],
            many_dirs,
            leaf: None,
            rules,
        };
        engine.max_moves = engine.move_bound();
        engine.leaf = engine.leaf_tables();
        // A sowing step may be a step vector, `stride` king steps long.
        let kind = engine.rules.geometry.kind();
        let stride = (0..engine.rules.direction_count())
            .filter_map(|d| engine.rules.direction(d))
            .map(|d| kind.king_steps(i32::from(d.dx), i32::from(d.dy)) as usize)
            .max()
            .unwrap_or(1);
        for p in 0..players {
            engine.distance[p] = engine.distance_masks(engine.goal[p]);
            for k in 0..=MAXH {
                let masks = engine.distance[p].iter().take(k * stride + 1);
                engine.near[p][k] = masks.fold(B::EMPTY, |near, &m| near | m);
            }
        }
        engine
    }

    /// Cells by king-step distance from `goal` (breadth-first over every
    /// direction of the board).
    fn distance_masks(&self, goal: B) -> Vec<B> {
        let mut out = Vec::new();
        let mut seen = goal;
        let mut ring = goal;
        while !ring.is_empty() {
            out.push(ring);
            let next = self.neighbours(ring) & !seen;
            seen |= next;
            ring = next;
        }
        out
    }

    /// Cells one step from any cell of `set`, in any direction of the board.
    #[inline]
    pub fn neighbours(&self, set: B) -> B {
        let mut out = B::EMPTY;
        for d in 0..self.rules.geometry.directions().len() {
            out |= self.shift[d][1].fwd(set & self.has[d][1]);
        }
        out & self.board
    }

    /// Player `p`'s cells to hold (`occupy`), and how many of them win.
    pub fn occupy_cells(&self, p: usize) -> Option<(B, u32)> {
        self.occupy[p]
    }

    /// `masks[k]`: the cells `k` king steps from player `p`'s goal (the other
    /// players' homes). Empty for a player without a goal.
    pub fn goal_distance_masks(&self, p: usize) -> &[B] {
        &self.distance[p]
    }

    /// A bound on the legal moves of any position, used to size move lists:
    /// every cell holds one stack, which can act in at most every direction
    /// with every rule, plus the pie rule's splits (towers × pairs) and swap.
    fn move_bound(&self) -> usize {
        let cells = self.board.count() as usize;
        let dirs = self.rules.direction_count();
        let per_cell = dirs
            * (self.sow.iter().map(|s| s.heights.len()).max().unwrap_or(0)
                + self.sacs.len()
                + self.cats.iter().map(|c| c.ranges.len()).sum::<usize>());
        let pie = self.pie.map_or(0, |(from, to)| {
            let t = from[0].count().max(from[1].count()) as usize;
            let k = to[0].count().max(to[1].count()) as usize;
            t * k * k.saturating_sub(1) / 2 + 1
        });
        cells * per_cell + pie
    }

    /// The rules this engine was compiled from.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// An empty move list with room for any position's moves.
    pub fn move_list(&self) -> Vec<Move> {
        Vec::with_capacity(self.max_moves)
    }

    /// The existing cells.
    pub fn board(&self) -> B {
        self.board
    }

    /// Cells a player breaks through on.
    pub fn goal(&self, p: usize) -> B {
        self.goal[p]
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players
    }
}
