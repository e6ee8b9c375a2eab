//! The yardstick for `murus bench`: a plain hand-written u64-bitboard
//! generator for the standard game only (8×7, towers sow onto empty cells and
//! own walls, towers sacrifice against walls, immediate breakthrough).
//!
//! It exists so the benchmark can report the compiled engine's speed as a
//! ratio to a hand-written one measured in the same run on the same machine.
//! Nothing else uses it; the product's rules come from rule files.

use murus_engine::simd;

const W: i32 = 8;
const BOARD: u64 = (1 << 56) - 1;
const FILE_A: u64 = 0x0001_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_1: u64 = 0xff;
const RANK_7: u64 = 0xff << 48;

/// The eight directions: slot offset and the cells that can take one step.
const DIRS: [(i32, u64); 8] = [
    (W, BOARD & !RANK_7),
    (W + 1, BOARD & !RANK_7 & !FILE_H),
    (1, BOARD & !FILE_H),
    (1 - W, BOARD & !RANK_1 & !FILE_H),
    (-W, BOARD & !RANK_1),
    (-W - 1, BOARD & !RANK_1 & !FILE_A),
    (-1, BOARD & !FILE_A),
    (W - 1, BOARD & !RANK_7 & !FILE_A),
];

#[inline(always)]
fn shift(b: u64, o: i32) -> u64 {
    if o >= 0 { (b << o) & BOARD } else { b >> -o }
}

/// Walls and towers of the side to move (`us`) and the other side (`them`).
#[derive(Clone, Copy)]
pub struct Pos {
    us_walls: u64,
    us_towers: u64,
    them_walls: u64,
    them_towers: u64,
    /// Whether the side to move is the Romans (their goal is rank 7).
    romans: bool,
    over: bool,
}

#[derive(Clone, Copy)]
enum Mv {
    Sow(u8, u8),
    Sac(u8, u8),
}

impl Pos {
    pub fn start() -> Pos {
        Pos {
            us_walls: 0,
            us_towers: RANK_1,
            them_walls: 0,
            them_towers: RANK_7,
            romans: true,
            over: false,
        }
    }

    #[inline(always)]
    fn generate(&self, mut f: impl FnMut(u64, usize, bool)) {
        if self.over {
            return;
        }
        let empty = BOARD & !(self.us_walls | self.us_towers | self.them_walls | self.them_towers);
        let land = empty | self.us_walls;
        for (d, &(o, m)) in DIRS.iter().enumerate() {
            // c1: can step and the first cell takes a stone; then the same
            // one step further on.
            let c1 = m & shift(land, -o);
            f(self.us_towers & c1 & shift(c1, -o), d, false);
            f(self.us_towers & m & shift(self.them_walls, -o), d, true);
        }
    }

    #[inline(always)]
    fn count(&self) -> u64 {
        let mut n = 0;
        self.generate(|b, _, _| n += u64::from(b.count_ones()));
        n
    }

    #[inline(always)]
    fn moves(&self, out: &mut Vec<Mv>) {
        self.generate(|mut b, d, sac| {
            while b != 0 {
                let s = b.trailing_zeros() as u8;
                b &= b - 1;
                out.push(if sac {
                    Mv::Sac(s, d as u8)
                } else {
                    Mv::Sow(s, d as u8)
                });
            }
        });
    }

    #[inline(always)]
    fn apply(&mut self, m: Mv) {
        match m {
            Mv::Sow(s, d) => {
                let o = DIRS[d as usize].0;
                self.us_towers ^= 1 << s;
                let mut landed = 0;
                for k in 1..=2 {
                    let t = 1u64 << (i32::from(s) + k * o);
                    landed |= t;
                    if self.us_walls & t != 0 {
                        self.us_walls ^= t;
                        self.us_towers |= t;
                    } else {
                        self.us_walls |= t;
                    }
                }
                let goal = if self.romans { RANK_7 } else { RANK_1 };
                self.over = landed & goal != 0;
            }
            Mv::Sac(s, d) => {
                let t = i32::from(s) + DIRS[d as usize].0;
                self.us_towers ^= 1 << s;
                self.us_walls |= 1 << s;
                self.them_walls ^= 1 << t;
            }
        }
        std::mem::swap(&mut self.us_walls, &mut self.them_walls);
        std::mem::swap(&mut self.us_towers, &mut self.them_towers);
        self.romans = !self.romans;
    }
}

/// The body of a perft copy, recursing into the copy `$this`.
macro_rules! perft_body {
    ($p:ident, $depth:ident, $this:ident) => {{
        if $depth == 1 {
            return $p.count();
        }
        let mut moves = Vec::with_capacity(64);
        $p.moves(&mut moves);
        let mut total = 0;
        for &m in &moves {
            let mut c = *$p;
            c.apply(m);
            total += $this(&c, $depth - 1);
        }
        total
    }};
}

/// Leaf count, bulk-counted at the last ply. Like the compiled engine's
/// loops, the yardstick's come in a plain copy and one for the CPUs with
/// `popcnt`, `bmi1` and `bmi2`, and run on the path
/// [`murus_engine::simd`] chose, so that the two are compared on the same
/// instructions.
// Calls the copy for the CPU `simd` checked: unsafe, and sound.
#[allow(unsafe_code)]
pub fn perft(p: &Pos, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if simd::path() == simd::Path::Popcnt {
        // SAFETY: the path is Popcnt only where the CPU has the features.
        return unsafe { perft_fast(p, depth) };
    }
    perft_plain(p, depth)
}

fn perft_plain(p: &Pos, depth: u32) -> u64 {
    perft_body!(p, depth, perft_plain)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn perft_fast(p: &Pos, depth: u32) -> u64 {
    perft_body!(p, depth, perft_fast)
}

/// Plays `games` uniformly random games (ply cap 300); returns total plies.
/// On the path [`murus_engine::simd`] chose, as [`perft`].
// Calls the copy for the CPU `simd` checked: unsafe, and sound.
#[allow(unsafe_code)]
pub fn random_games(games: u32, choose: impl FnMut(usize) -> usize) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if simd::path() == simd::Path::Popcnt {
        // SAFETY: the path is Popcnt only where the CPU has the features.
        return unsafe { random_games_fast(games, choose) };
    }
    random_games_in(games, choose)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn random_games_fast(games: u32, choose: impl FnMut(usize) -> usize) -> u64 {
    random_games_in(games, choose)
}

#[inline(always)]
fn random_games_in(games: u32, mut choose: impl FnMut(usize) -> usize) -> u64 {
    let mut moves = Vec::with_capacity(64);
    let mut plies = 0;
    for _ in 0..games {
        let mut p = Pos::start();
        for _ in 0..300 {
            moves.clear();
            p.moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            p.apply(moves[choose(moves.len())]);
            plies += 1;
        }
    }
    plies
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_yardstick_counts_the_standard_game_correctly() {
        let p = super::Pos::start();
        let expected = [20, 400, 6960, 121_104, 1_953_664];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(super::perft(&p, d as u32 + 1), n);
        }
    }
}
