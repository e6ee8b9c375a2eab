//! Evaluation: generic features of a position, for any compiled variant.
//!
//! Every feature is computed for each player from bitboards and the
//! variant's own rules; nothing names a particular game.
//!
//! | feature | what it counts | why |
//! |---|---|---|
//! | `material` | stones on the board | each stone is a future wall or tower |
//! | `towers` | stacks of a sowing height | towers are the only pieces that move |
//! | `catapults` | stacks of the catapult height | they throw and threaten at range |
//! | `mobility` | legal actions the player would have | no action means defeat |
//! | `advancement` | towers' closeness to the player's goal | breakthrough races |
//! | `siege` | towers one or two steps from the goal (on the opponent's third rank or nearer) | the designer's "siege towers": a breakthrough threat |
//! | `blockers` | own walls next to enemy towers | walls that stop enemy sowing |
//!
//! Advancement and siege count only in variants with a breakthrough rule;
//! in Escape variants mobility weighs more. A position's value for player `p`
//! is `score(p) - max(score(q))` over the other players still in the game.

use murus_engine::{Bits, Engine, Pos};

/// The features of one player in one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    pub material: i32,
    pub towers: i32,
    pub catapults: i32,
    pub mobility: i32,
    pub advancement: i32,
    pub siege: i32,
    pub blockers: i32,
}

/// Weights of the features (centi-stones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub material: i32,
    pub towers: i32,
    pub catapults: i32,
    pub mobility: i32,
    pub advancement: i32,
    pub siege: i32,
    pub blockers: i32,
}

impl Weights {
    /// The default weights for a variant: breakthrough games reward racing,
    /// Escape games reward mobility.
    pub fn for_engine<B: Bits>(e: &Engine<B>) -> Weights {
        let race = e.rules().win.breakthrough.is_some();
        Weights {
            material: 40,
            towers: 60,
            catapults: 90,
            mobility: if race { 6 } else { 20 },
            advancement: if race { 12 } else { 0 },
            siege: if race { 80 } else { 0 },
            blockers: 10,
        }
    }

    fn apply(&self, f: &Features) -> i32 {
        self.material * f.material
            + self.towers * f.towers
            + self.catapults * f.catapults
            + self.mobility * f.mobility
            + self.advancement * f.advancement
            + self.siege * f.siege
            + self.blockers * f.blockers
    }
}

/// Computes the features of player `p`. `with_mobility` adds the one costly
/// feature (a move count).
pub fn features<B: Bits>(e: &Engine<B>, pos: &Pos<B>, p: usize, with_mobility: bool) -> Features {
    let rules = e.rules();
    let own = pos.stones_of(p);
    let mut towers = B::EMPTY;
    if let Some(sow) = &rules.sow {
        for &h in &sow.heights {
            towers |= own & pos.with_height(h);
        }
    }
    let catapults = rules
        .catapult
        .as_ref()
        .map_or(B::EMPTY, |c| own & pos.with_height(c.height));
    let masks = e.goal_distance_masks(p);
    let mut advancement = 0;
    let mut siege = 0;
    if rules.win.breakthrough.is_some() && !masks.is_empty() {
        let far = masks.len() as i32;
        for (k, m) in masks.iter().enumerate() {
            let n = (towers & *m).count() as i32;
            advancement += n * (far - k as i32);
            if (1..=2).contains(&k) {
                siege += n;
            }
        }
    }
    let mut enemy_towers = B::EMPTY;
    for q in 0..e.players() {
        if q != p {
            let theirs = pos.stones_of(q);
            if let Some(sow) = &rules.sow {
                for &h in &sow.heights {
                    enemy_towers |= theirs & pos.with_height(h);
                }
            }
        }
    }
    let walls = own & pos.with_height(1);
    let blockers = (walls & e.neighbours(enemy_towers)).count() as i32;
    Features {
        material: pos.stone_count(p) as i32,
        towers: towers.count() as i32,
        catapults: catapults.count() as i32,
        mobility: if with_mobility {
            e.count_moves_for(pos, p) as i32
        } else {
            0
        },
        advancement,
        siege,
        blockers,
    }
}

/// A player's absolute score.
pub fn score<B: Bits>(e: &Engine<B>, w: &Weights, pos: &Pos<B>, p: usize, mobility: bool) -> i32 {
    w.apply(&features(e, pos, p, mobility))
}

/// The value of `pos` for player `p`: its score minus the best other
/// player's (players already eliminated are ignored).
pub fn evaluate<B: Bits>(
    e: &Engine<B>,
    w: &Weights,
    pos: &Pos<B>,
    p: usize,
    mobility: bool,
) -> i32 {
    let mine = score(e, w, pos, p, mobility);
    let best_other = (0..e.players())
        .filter(|&q| q != p && !pos.is_out(q))
        .map(|q| score(e, w, pos, q, mobility))
        .max()
        .unwrap_or(0);
    mine - best_other
}
