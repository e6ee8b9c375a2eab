//! Seeds: every game's own, derived from the run's seed and the game's
//! number, and the salts that keep a game's other random draws (its
//! opening plies, the metrics' sample of plies) apart from it.

use murus_engine::util::SplitMix64;

/// One SplitMix64 step from `z` ([`murus_engine::util::SplitMix64`]).
pub(crate) fn mix(z: u64) -> u64 {
    SplitMix64(z).next()
}

/// The seed of game `index` of a run seeded with `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix(seed ^ mix(index))
}

/// Separates the openings' random moves from the games' own seeds.
pub(crate) const OPENING_SALT: u64 = 0x6f70_656e_696e_6773;

/// Separates the metrics' sample of plies from the game's own seed.
pub(crate) const METRICS_SALT: u64 = 0x6d65_7472_6963_7321;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_seeds_are_the_splitmix_steps_they_always_were() {
        // The step written out, as the lab had it before it used
        // murus_engine::util: game files of earlier runs keep their seeds.
        let step = |mut z: u64| {
            z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        for (seed, index) in [(0, 0), (1, 7), (u64::MAX, 123_456)] {
            assert_eq!(mix(index), step(index));
            assert_eq!(game_seed(seed, index), step(seed ^ step(index)));
        }
    }
}
