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
//! | `siege` | towers one or two king steps from the goal: on the opponent's third or second rank; and, where holding cells wins (`occupy`), own stacks on those cells | the designer's "siege towers": a breakthrough threat; a hold on the hill |
//! | `blockers` | own walls next to (one step from) an enemy tower | walls that stop enemy sowing |
//! | `threats` | catapult threats: enemy stacks an own catapult can hit, plus empty goal cells it can throw onto when a throw breaks through | pressure at range, and a win in one throw |
//!
//! Advancement and siege count only in variants with a breakthrough rule
//! (siege also with `occupy`);
//! in Escape variants mobility weighs more. A position's value for player `p`
//! is `score(p) - max(score(q))` over the other players still in the game.
//!
//! Two features read the designer's and the strategy texts' words loosely:
//!
//! * **Siege towers.** The texts speak of towers on the opponent's third
//!   rank, from which one forward sowing drops a stone on the home rank. The
//!   feature counts towers one *or* two king steps from the goal: the
//!   opponent's third rank and also its second. A second-rank tower cannot
//!   break through by itself on a rectangular board (its far stone would
//!   leave the board), but it is one step from the third rank, and the
//!   defenders must still watch it; the default weights and the strength
//!   ladder were tuned with this count. On boards whose goal is not a rank
//!   (hexagons, four edges) king-step distance to the goal is what
//!   generalises. Siege counts in addition to `advancement`.
//! * **Blocking walls.** "Walls that block enemy towers" are counted as own
//!   walls standing one step from an enemy tower, in any direction of the
//!   board: each such wall closes that direction to the tower's sowing
//!   (enemy stones block), whatever the tower's own directions. Whether the
//!   wall could be taken by a sacrifice is not considered.
//!
//! Catapult threats come from the compiled catapult rule alone (its height,
//! each player's throwing directions, ranges and what a stone may land on),
//! so they follow any variant's catapults; a variant without catapults has
//! no threats and gives the feature no weight.

use murus_dsl::rules::Material;
use murus_engine::{Bits, Engine, Pos, Variant};

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
    pub threats: i32,
}

/// The features' names, in the order of [`Features::to_array`] and
/// [`Weights::to_array`].
pub const FEATURE_NAMES: [&str; 8] = [
    "material",
    "towers",
    "catapults",
    "mobility",
    "advancement",
    "siege",
    "blockers",
    "threats",
];

impl Features {
    /// Which features can be other than 0 in `variant`'s games, in the
    /// order of [`FEATURE_NAMES`]: a fit of weights (`murus train`) should
    /// leave the others out (or at 0) rather than report a weight for what
    /// never occurs. `material` and `mobility` always count; `towers` and
    /// `blockers` need sowing (towers are the stacks that sow);
    /// `advancement` and `siege` also need a breakthrough; `catapults` needs
    /// the catapult rule, and `threats` a catapult that may hit an enemy
    /// stack or break through with a throw.
    pub fn applicable(variant: &Variant) -> [bool; 8] {
        let rules = variant.rules();
        let sow = !rules.sow.is_empty();
        let race = sow && rules.wins().any(|w| w.breakthrough.is_some());
        let hill = rules.wins().any(|w| w.occupation.is_some());
        let by_throw = rules
            .wins()
            .any(|w| w.breakthrough.is_some_and(|b| b.by_throw));
        let threats = rules
            .catapults
            .iter()
            .any(|c| !c.onto_enemy.is_empty() || c.onto_empty && by_throw);
        let cat = !rules.catapults.is_empty();
        [true, sow, cat, true, race, race || hill, sow, threats]
    }

    /// The names of [`Features::applicable`]'s features, in order.
    pub fn applicable_names(variant: &Variant) -> Vec<&'static str> {
        FEATURE_NAMES
            .iter()
            .zip(Features::applicable(variant))
            .filter_map(|(&name, on)| on.then_some(name))
            .collect()
    }

    /// The features in the order of [`FEATURE_NAMES`].
    pub fn to_array(&self) -> [i32; 8] {
        [
            self.material,
            self.towers,
            self.catapults,
            self.mobility,
            self.advancement,
            self.siege,
            self.blockers,
            self.threats,
        ]
    }
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
    pub threats: i32,
}

impl Weights {
    /// The weights in the order of [`FEATURE_NAMES`].
    pub fn to_array(&self) -> [i32; 8] {
        [
            self.material,
            self.towers,
            self.catapults,
            self.mobility,
            self.advancement,
            self.siege,
            self.blockers,
            self.threats,
        ]
    }

    /// Weights from an array in the order of [`FEATURE_NAMES`].
    pub fn from_array(a: [i32; 8]) -> Weights {
        let [
            material,
            towers,
            catapults,
            mobility,
            advancement,
            siege,
            blockers,
            threats,
        ] = a;
        Weights {
            material,
            towers,
            catapults,
            mobility,
            advancement,
            siege,
            blockers,
            threats,
        }
    }

    /// The default weights for a variant: breakthrough games reward racing,
    /// Escape games reward mobility.
    ///
    /// The breakthrough weights were fitted to game results (Texel tuning:
    /// least squares of the logistic of the evaluation against each
    /// position's result, 600 games of `alphabeta:3000` self-play from six
    /// random plies per variant), on the standard and Advanced games, and
    /// rounded to one set for both (`docs/ai.md`, 2026-11-23). A tower's
    /// own weight is slightly negative because `advancement` and `siege`
    /// already count every tower; `material` does not move the fit in these
    /// games, where each sacrifice costs both sides a stone.
    pub fn for_engine<B: Bits>(e: &Engine<B>) -> Weights {
        // One set of weights serves every player: where players' rules
        // differ, what any player's does.
        let race = e.rules().wins().any(|w| w.breakthrough.is_some());
        // Where running short of stones (or towers) loses, they are what
        // the game is about (attrition's fitted weights: material 324).
        let reduced = e.rules().wins().find_map(|w| w.reduced).map(|r| r.material);
        // Where holding cells wins, `siege` counts the stacks on them.
        let hill = e.rules().wins().any(|w| w.occupation.is_some());
        // Where taking stones wins, the stones each side keeps are what the
        // race is about, as where running short of them loses.
        let capture = e.rules().wins().any(|w| w.capture.is_some());
        Weights {
            material: if reduced == Some(Material::Stones) || capture {
                200
            } else {
                40
            },
            towers: match (reduced, race) {
                (Some(Material::Towers), _) => 200,
                (_, true) => -20,
                (_, false) => 60,
            },
            catapults: 90,
            mobility: if race { 35 } else { 20 },
            advancement: if race { 55 } else { 0 },
            siege: if race || hill { 250 } else { 0 },
            blockers: if race { 90 } else { 10 },
            threats: if e.rules().catapults.is_empty() {
                0
            } else {
                50
            },
        }
    }

    /// The score of features `f` under these weights.
    pub fn apply(&self, f: &Features) -> i32 {
        self.material * f.material
            + self.towers * f.towers
            + self.catapults * f.catapults
            + self.mobility * f.mobility
            + self.advancement * f.advancement
            + self.siege * f.siege
            + self.blockers * f.blockers
            + self.threats * f.threats
    }
}

/// Computes the features of player `p`. `with_mobility` adds the one costly
/// feature (a move count).
pub fn features<B: Bits>(e: &Engine<B>, pos: &Pos<B>, p: usize, with_mobility: bool) -> Features {
    let mobility = if with_mobility {
        e.count_moves_for(pos, p) as i32
    } else {
        0
    };
    features_with(e, pos, p, mobility)
}

/// The features of player `p`, its mobility given.
fn features_with<B: Bits>(e: &Engine<B>, pos: &Pos<B>, p: usize, mobility: i32) -> Features {
    let rules = e.rules();
    let own = pos.stones_of(p);
    let mut towers = B::EMPTY;
    if let Some(sow) = rules.sow_of(p) {
        for &h in &sow.heights {
            towers |= own & pos.with_height(h);
        }
    }
    let catapults = rules
        .catapults
        .iter()
        .filter(|c| c.directions.get(p).is_some_and(|d| !d.is_empty()))
        .fold(B::EMPTY, |b, c| b | own & pos.with_height(c.height));
    let masks = e.goal_distance_masks(p);
    let mut advancement = 0;
    let mut siege = 0;
    if rules.win(p).breakthrough.is_some() && !masks.is_empty() {
        let far = masks.len() as i32;
        for (k, m) in masks.iter().enumerate() {
            let n = (towers & *m).count() as i32;
            advancement += n * (far - k as i32);
            if (1..=2).contains(&k) {
                siege += n;
            }
        }
    }
    // Where holding cells wins, a stack on one of them is as near a win.
    if let Some((cells, _)) = e.occupy_cells(p) {
        siege += (own & cells).count() as i32;
    }
    let mut enemy_towers = B::EMPTY;
    for q in 0..e.players() {
        if q != p {
            let theirs = pos.stones_of(q);
            if let Some(sow) = rules.sow_of(q) {
                for &h in &sow.heights {
                    enemy_towers |= theirs & pos.with_height(h);
                }
            }
        }
    }
    let walls = own & pos.with_height(1);
    let blockers = (walls & e.neighbours(enemy_towers)).count() as i32;
    let threats = if catapults.is_empty() {
        0
    } else {
        catapult_threats(e, pos, p, catapults) as i32
    };
    Features {
        material: pos.stone_count(p) as i32,
        towers: towers.count() as i32,
        catapults: catapults.count() as i32,
        mobility,
        advancement,
        siege,
        blockers,
        threats,
    }
}

/// The cells player `p`'s `catapults` threaten: enemy stacks of a height a
/// stone may hit, and, when a throw onto an empty cell breaks through, the
/// empty cells of the player's goal; each cell counts once however many
/// throws (of however many catapult rules) reach it.
fn catapult_threats<B: Bits>(e: &Engine<B>, pos: &Pos<B>, p: usize, catapults: B) -> u32 {
    let rules = e.rules();
    let own = pos.stones_of(p);
    let occupied = (0..e.players()).fold(B::EMPTY, |b, q| b | pos.stones_of(q));
    let enemy = occupied & !own;
    let g = &rules.geometry;
    let mut threatened = B::EMPTY;
    for cat in &rules.catapults {
        let Some(dirs) = cat.directions.get(p) else {
            continue;
        };
        let mut targets = B::EMPTY;
        for &h in &cat.onto_enemy {
            targets |= enemy & pos.with_height(h);
        }
        if cat.onto_empty && rules.win(p).breakthrough.is_some_and(|b| b.by_throw) {
            targets |= e.goal(p) & e.board() & !occupied;
        }
        if targets.is_empty() {
            continue;
        }
        let mut reach = B::EMPTY;
        for s in (catapults & pos.with_height(cat.height)).iter() {
            for dir in dirs.iter().filter_map(|&d| rules.direction(d)) {
                for &r in &cat.ranges {
                    if let Some(t) = g.step(s, dir, i32::from(r)) {
                        reach |= B::bit(t);
                    }
                }
            }
        }
        threatened |= reach & targets;
    }
    threatened.count()
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
    lead(e, pos, p, |q| score(e, w, pos, q, mobility))
}

/// [`evaluate`] with mobility, given the number of legal moves of the side
/// to move (which a search has counted already). In normal play only.
pub fn evaluate_counted<B: Bits>(
    e: &Engine<B>,
    w: &Weights,
    pos: &Pos<B>,
    p: usize,
    moves_of_side_to_move: u64,
) -> i32 {
    lead(e, pos, p, |q| {
        let mobility = if q == pos.turn() {
            moves_of_side_to_move
        } else {
            e.count_moves_for(pos, q)
        };
        w.apply(&features_with(e, pos, q, mobility as i32))
    })
}

/// `p`'s score less the best score of the other players still in the game.
fn lead<B: Bits>(e: &Engine<B>, pos: &Pos<B>, p: usize, score: impl Fn(usize) -> i32) -> i32 {
    let best_other = (0..e.players())
        .filter(|&q| q != p && !pos.is_out(q))
        .map(&score)
        .max()
        .unwrap_or(0);
    score(p) - best_other
}

#[cfg(test)]
mod tests {
    use super::*;
    use murus_engine::{EngineTask, Position, Variant, Word};

    /// The features of `player` (by letter) and the evaluation without
    /// mobility, in a position of `variant`.
    fn look(variant: &str, position: &str, player: char) -> (Features, i32, Weights) {
        struct Task<'a>(&'a Position, usize);
        impl EngineTask for Task<'_> {
            type Output = (Features, i32, Weights);
            fn run<B: Word>(self, e: &Engine<B>) -> Self::Output {
                let pos = B::unwrap(self.0).expect("a position of this variant");
                let w = Weights::for_engine(e);
                (
                    features(e, pos, self.1, false),
                    evaluate(e, &w, pos, self.1, false),
                    w,
                )
            }
        }
        let v = Variant::builtin(variant).unwrap();
        let pos = v
            .parse_position(position)
            .unwrap_or_else(|e| panic!("{position}: {e}"));
        let p = v.player_by_letter(player).unwrap();
        v.run(Task(&pos, p))
    }

    #[test]
    fn catapult_threats_follow_the_catapult_rule() {
        // A Roman catapult on d3. A Gaul wall two cells forward (d5) is in
        // range; one cell forward (d4) is not; behind it (d1) is not a
        // direction Romans throw in.
        let (f, in_range, w) = look("advanced", "8/8/3g14/8/3r34/8/8 r", 'r');
        assert_eq!((f.catapults, f.threats), (1, 1));
        assert_eq!(w.threats, 50);
        let (f, too_close, _) = look("advanced", "8/8/8/3g14/3r34/8/8 r", 'r');
        assert_eq!(f.threats, 0);
        let (f, behind, _) = look("advanced", "8/8/8/8/3r34/8/3g14 r", 'r');
        assert_eq!(f.threats, 0);
        // Only the threat differs between these positions.
        assert_eq!(in_range - too_close, w.threats);
        assert_eq!(in_range - behind, w.threats);
        // Forward is the owner's: a Gaul catapult on d5 threatens d3.
        let (f, _, _) = look("advanced", "8/8/3g34/8/3r14/8/8 g", 'g');
        assert_eq!(f.threats, 1);
        let (f, _, _) = look("advanced", "3r14/8/3g34/8/8/8/8 g", 'g');
        assert_eq!(f.threats, 0, "d7 is behind a Gaul catapult on d5");
    }

    #[test]
    fn a_catapult_near_the_goal_threatens_to_throw_in() {
        // A Roman catapult on d5 reaches b7, d7 and f7 on the Gauls' home
        // rank (left, right and the longer throws leave the goal or the
        // board): three empty goal cells, each a winning throw.
        let (f, _, _) = look("advanced", "8/8/3r34/8/8/8/8 r", 'r');
        assert_eq!(f.threats, 3);
        // A Gaul stack there is a target too.
        let (f, _, _) = look("advanced", "1g11g24/8/3r34/8/8/8/8 r", 'r');
        assert_eq!(f.threats, 3);
        // An own unit is never one.
        let (f, _, _) = look("advanced", "8/8/3r14/8/3r34/8/8 r", 'r');
        assert_eq!(f.threats, 0);
        // The delayed variant's throws count the same way.
        let (f, _, _) = look("advanced-delayed", "8/8/3r34/8/8/8/8 r", 'r');
        assert_eq!(f.threats, 3);
    }

    /// A feature that does not apply to a variant is 0 in every position
    /// of its random games, for every player; one that applies is not 0 in
    /// some of them.
    #[test]
    fn features_that_do_not_apply_never_occur_and_those_that_do_do() {
        struct Task(Vec<Position>);
        impl EngineTask for Task {
            type Output = Vec<[i32; 8]>;
            fn run<B: Word>(self, e: &Engine<B>) -> Self::Output {
                let mut out = Vec::new();
                for pos in &self.0 {
                    let pos = B::unwrap(pos).expect("a position of this variant");
                    for p in 0..e.players() {
                        out.push(features(e, pos, p, true).to_array());
                    }
                }
                out
            }
        }
        for &(name, _) in murus_engine::BUILTIN {
            let v = Variant::builtin(name).unwrap();
            let mut positions = Vec::new();
            let mut state = 0x9e37_79b9_u64;
            for _ in 0..20 {
                let mut pos = v.start();
                for _ in 0..60 {
                    positions.push(pos);
                    let moves = v.legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    pos = v.play(&pos, moves[(state % moves.len() as u64) as usize]);
                }
            }
            let seen = v.run(Task(positions));
            let applicable = Features::applicable(&v);
            for (i, name_of) in FEATURE_NAMES.iter().enumerate() {
                let occurs = seen.iter().any(|f| f[i] != 0);
                if !applicable[i] {
                    assert!(!occurs, "{name}: {name_of} does not apply but occurs");
                }
            }
            // Every feature of the standard and Advanced games occurs.
            if ["standard", "advanced"].contains(&name) {
                for (i, name_of) in FEATURE_NAMES.iter().enumerate() {
                    if applicable[i] {
                        assert!(seen.iter().any(|f| f[i] != 0), "{name}: {name_of}");
                    }
                }
            }
        }
        let names = |n: &str| Features::applicable_names(&Variant::builtin(n).unwrap());
        assert_eq!(
            names("standard"),
            [
                "material",
                "towers",
                "mobility",
                "advancement",
                "siege",
                "blockers"
            ]
        );
        assert_eq!(names("advanced"), FEATURE_NAMES);
        assert_eq!(
            names("escape"),
            ["material", "towers", "mobility", "blockers"]
        );
    }

    /// Where running short of stones (or towers) loses, the generic
    /// weights make them count (docs/ai.md, 2026-11-26: +636 Elo on
    /// attrition); elsewhere the weights are as they were.
    #[test]
    fn a_reduction_rule_weighs_what_it_counts() {
        let (_, _, w) = look(
            "attrition",
            "g2g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2 r",
            'r',
        );
        assert_eq!((w.material, w.towers), (200, 60));
        let (_, _, w) = look(
            "standard",
            "g2g2g2g2g2g2g2g2/8/8/8/8/8/r2r2r2r2r2r2r2r2 r",
            'r',
        );
        assert_eq!((w.material, w.towers), (40, -20));
        let text = Variant::builtin("attrition")
            .unwrap()
            .source()
            .replace("reduced to 8 stones", "reduced to 3 towers");
        let v = Variant::compile(&text).unwrap();
        struct GenericWeights;
        impl EngineTask for GenericWeights {
            type Output = Weights;
            fn run<B: Word>(self, e: &Engine<B>) -> Weights {
                Weights::for_engine(e)
            }
        }
        let w = v.run(GenericWeights);
        assert_eq!((w.material, w.towers), (40, 200));
        // Where taking stones wins, they count as much (docs/ai.md,
        // 2026-11-26: +363 Elo on a capture race).
        let text = Variant::builtin("attrition")
            .unwrap()
            .source()
            .replace("reduced to 8 stones", "capture 8 stones");
        let w = Variant::compile(&text).unwrap().run(GenericWeights);
        assert_eq!((w.material, w.towers), (200, 60));
    }

    #[test]
    fn variants_without_catapults_have_no_threats_and_no_weight() {
        for name in ["standard", "houdini", "escape", "hex"] {
            let v = Variant::builtin(name).unwrap();
            let start = v.position_string(&v.start());
            let letter = v.letter(0);
            let (f, _, w) = look(name, &start, letter);
            assert_eq!((f.threats, w.threats), (0, 0), "{name}");
        }
    }
}
