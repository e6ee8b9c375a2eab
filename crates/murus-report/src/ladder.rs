//! The skill ladder of a variant (`report.json`'s `ladder`): each climb's
//! rungs, its matches with their scores, Elo and tests' decisions, and the
//! ladder in a sentence. `murus_lab::ladder` climbs it and describes the
//! method (`docs/report.md` too).

use murus_engine::text::plural;
use serde::{Deserialize, Serialize};

use crate::balance::SkillGap;

/// What a match's sequential test decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// The upper bot scores `threshold` rather than 50%: a new rung.
    Rung,
    /// The upper bot scores 50% rather than `threshold`.
    NoGain,
    /// Neither, within the match's most games.
    Unclear,
}

/// One match of the ladder: a bot against the rung below it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The bots, the games, the upper bot's score and Elo with its 95%
    /// interval (an infinite bound as `null`), as the balance check's skill
    /// trace has them.
    #[serde(flatten)]
    pub gap: SkillGap,
    /// The upper bot clearly beat the lower: a new rung.
    pub clear: bool,
    /// The test's decision (`None` in ladders of fixed matches, before the
    /// test).
    #[serde(default)]
    pub decision: Option<Decision>,
    /// The test's log-likelihood ratio when it stopped (bounds ±2.94).
    #[serde(default)]
    pub llr: Option<f64>,
    /// The first player's share of the match's games won, and its 95%
    /// interval.
    pub first_player: f64,
    pub first_player_ci95: [f64; 2],
    pub draws: u64,
}

impl Step {
    /// The test's decision in words: `a rung`, `no gain`, `unclear` (`no
    /// rung` in ladders of fixed matches).
    pub fn verdict(&self) -> &'static str {
        match (self.decision, self.clear) {
            (Some(Decision::Rung), _) | (None, true) => "a rung",
            (Some(Decision::NoGain), _) => "no gain",
            (Some(Decision::Unclear), _) => "unclear",
            (None, false) => "no rung",
        }
    }
}

/// Why the ladder ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// Two steps in a row over the last rung found no gain (or, for the
    /// first rung, no budget tried beat random).
    NoGain,
    /// The next step would pass the largest budget allowed.
    MostNodes,
    /// Stopped first (its time budget, a cancel).
    Interrupted,
}

/// One climb of the ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Climb {
    pub seed: u64,
    /// The rungs, weakest first: `random`, then each bot that clearly beat
    /// the rung below.
    pub rungs: Vec<String>,
    /// Every match played, in order.
    pub steps: Vec<Step>,
    /// The mean Elo a doubling of the budget gains, over the steps that
    /// made rungs (not the first rung's win over random; a quadrupling
    /// counts its Elo as two doublings'); `None` without such a step or
    /// with an infinite Elo.
    pub elo_per_doubling: Option<f64>,
    /// The last match made a rung and the ladder ended for want of budget
    /// (its largest budget, its time), not for want of skill.
    pub still_rising: bool,
    pub end: End,
}

/// The skill ladder of a variant: its first climb, and the others.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    pub threshold: f64,
    /// The most games of each match.
    pub games: u64,
    /// Games between two looks of a match's test (0 in ladders of fixed
    /// matches, before the test).
    #[serde(default)]
    pub block: u64,
    /// The first climb's rungs, weakest first: `random`, then each bot that
    /// clearly beat the rung below.
    pub rungs: Vec<String>,
    /// The first climb's matches, in order.
    pub steps: Vec<Step>,
    /// The first climb's mean Elo a doubling gains ([`Climb::elo_per_doubling`]).
    pub elo_per_doubling: Option<f64>,
    /// The first climb's last match made a rung and the ladder ended for
    /// want of budget (its largest budget, its time), not for want of skill.
    pub still_rising: bool,
    pub end: End,
    /// Climbs, each with its own seed and games (1 in ladders before
    /// there were several).
    #[serde(default = "one")]
    pub climbs: usize,
    /// The other climbs than the first.
    #[serde(default)]
    pub other_climbs: Vec<Climb>,
    /// The least and the most rungs of the climbs (`None` for one climb).
    #[serde(default)]
    pub rung_range: Option<[usize; 2]>,
}

fn one() -> usize {
    1
}

impl Ladder {
    /// Whether the first climb ended without evidence that skill ends
    /// there: at the largest budget after steps its tests could not decide
    /// (neither a rung nor no gain within the match's most games), or, for
    /// the first rung, with every budget tried against random undecided.
    /// Its count is then a least count.
    pub fn ended_unclear(&self) -> bool {
        let last = self.steps.last().and_then(|s| s.decision);
        !self.still_rising && self.end != End::Interrupted && last == Some(Decision::Unclear)
    }

    /// The ladder in one sentence.
    pub fn answer(&self) -> String {
        let rungs = self.rungs.len();
        let upper = |i: usize| {
            self.steps
                .get(self.steps.len().wrapping_sub(i))
                .map_or("", |s| s.gap.upper.as_str())
        };
        let how = match (rungs, self.end, self.still_rising) {
            (_, End::Interrupted, _) if !self.other_climbs.is_empty() => {
                "stopped before its climbs ended".to_string()
            }
            (1, End::Interrupted, _) => "stopped before any bot clearly beat random".to_string(),
            (1, _, _) if self.ended_unclear() => format!(
                "no searching bot clearly beats random, but the tests could not tell within {} games a match",
                self.games
            ),
            (1, _, _) => "no searching bot clearly beats random: skill hardly matters".to_string(),
            (_, _, true) => "still rising when the budget ran out".to_string(),
            // Two steps whose tests found no gain: evidence that the
            // ladder ends here.
            (_, End::NoGain, _) => format!(
                "neither {} nor {} gains over the last rung (the tests found no gain)",
                upper(2),
                upper(1)
            ),
            // Steps the tests could not decide are no evidence of an end:
            // the count is a least count.
            _ if self.ended_unclear() => format!(
                "no larger budget up to {} clearly beats the last rung, but the tests could not tell within {} games a match: there may be more rungs, which a larger budget would show",
                upper(1),
                self.games
            ),
            _ => format!(
                "the last step ({}) found no gain, and the largest budget allows no larger one",
                upper(1)
            ),
        };
        let n = self.climbs;
        let spread = match self.rung_range {
            Some([lo, hi]) if lo == hi => {
                format!(" ({lo} in each of {n} climbs with their own seeds)")
            }
            Some([lo, hi]) => format!(
                " {} over {n} climbs with their own seeds",
                crate::text::interval(lo, hi)
            ),
            None => String::new(),
        };
        let per = self
            .elo_per_doubling
            .map(|e| format!(", {e:+.0} Elo a doubling"))
            .unwrap_or_default();
        let least = if self.ended_unclear() {
            "At least "
        } else {
            ""
        };
        let rungs = plural(rungs as u64, "rung");
        format!("{least}{rungs} of skill{spread}{per}; {how}")
    }
}

/// A share of a match's games won by one colour (the first player, or the
/// second) above which the colour, not the budget, decides the match's
/// games: a doubling can then win no more than the colours it is given
/// ([`Ladder::colour_warning`]).
pub const FIRST_PLAYER_DECIDES: f64 = 0.9;

impl Ladder {
    /// A warning where one colour's edge decides the ladder's matches: the
    /// matches (of every climb) whose first player won more than
    /// [`FIRST_PLAYER_DECIDES`] of the games, or less than its complement
    /// (the second player won as many), and what that means for the count;
    /// `None` where no match did.
    pub fn colour_warning(&self) -> Option<String> {
        let steps = self
            .steps
            .iter()
            .chain(self.other_climbs.iter().flat_map(|c| &c.steps));
        let (mut first, mut second, mut all) = (0, 0, 0);
        for s in steps {
            all += 1;
            first += usize::from(s.first_player > FIRST_PLAYER_DECIDES);
            second += usize::from(s.first_player < 1.0 - FIRST_PLAYER_DECIDES);
        }
        let who = match (first, second) {
            (0, 0) => return None,
            (_, 0) => "the first player".to_string(),
            (0, _) => "the second player".to_string(),
            _ => format!("the first player (in {first}) or the second (in {second})"),
        };
        Some(format!(
            "In {} of the ladder's {all} matches {who} won over {:.0}% of the games: there the colour, not the budget, decides the games (colours are swapped in pairs, so each side wins one game of each pair), and those steps cannot show a stronger bot. The count of rungs says little of the game's depth; a pie rule or a balancing change would let the ladder measure it.",
            first + second,
            FIRST_PLAYER_DECIDES * 100.0
        ))
    }
}
