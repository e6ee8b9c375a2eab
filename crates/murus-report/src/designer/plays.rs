//! How play goes, as the report keeps it: the strongest level's games by
//! ply ([`CurvesSection`]), on the board ([`BoardSection`]), and how games
//! end at every level ([`EndingsSection`]). `murus_lab::designer` reads
//! them off the balance check's kept games.

use murus_engine::util::percentile;
use serde::{Deserialize, Serialize};

/// The curves are drawn while at least this many games go on: a band of
/// fewer games is not a band.
pub const MIN_GOING: u64 = 5;

/// First moves played in at least this many games are ranked in the
/// board's answer.
pub const MIN_FIRST_GAMES: u64 = 5;

/// A figure at each ply: the 25th percentile, the median and the 75th
/// (nearest rank, [`percentile`]) over the games still going there.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Band {
    pub p25: Vec<i32>,
    pub median: Vec<i32>,
    pub p75: Vec<i32>,
}

impl Band {
    /// The band of `by_ply`'s values (each ply's, in any order).
    pub fn of(by_ply: &mut [Vec<i32>]) -> Band {
        let mut b = Band::default();
        for values in by_ply {
            values.sort_unstable();
            b.p25.push(percentile(values, 25.0));
            b.median.push(percentile(values, 50.0));
            b.p75.push(percentile(values, 75.0));
        }
        b
    }
}

/// The strongest level's games by ply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvesSection {
    pub answer: String,
    /// The level whose games these are, and how many.
    pub level: String,
    pub games: u64,
    /// The random plies every game opens with.
    pub openings: u32,
    /// The curves are drawn while at least this many games go on
    /// ([`MIN_GOING`]).
    pub min_going: u64,
    /// Games still going at each ply (a move still to be made there), from
    /// ply 0 (the start) to the longest game's last move.
    pub going: Vec<u64>,
    /// Legal moves of the side to move, at each ply while at least
    /// [`MIN_GOING`] games go on (as long as `going` is at least that).
    pub moves: Band,
    /// Each player's stones on the board (a stack of three is three
    /// stones), in the players' order.
    pub material: Vec<Band>,
    /// The static evaluation, the first player's lead in centi-stones:
    /// the bots' evaluation (`evaluation`: `generic` or a trained one's
    /// id), with mobility, without the side to move's bonus; no search.
    pub score: Band,
    pub evaluation: String,
    /// The plies the page's table shows (the start, then every few plies).
    pub table: Vec<u32>,
}

/// One first move of the strongest level's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirstMove {
    #[serde(rename = "move")]
    pub first: String,
    /// The cells it ends on (the farthest of a sowing, a throw's landing
    /// cell, the stack a sacrifice hits, both of a split).
    pub cells: Vec<String>,
    pub games: u64,
    pub first_wins: u64,
    pub draws: u64,
    /// The first player's score in those games: wins, and draws as a share
    /// (a half with two players).
    pub score: f64,
}

/// The strongest level's games on the board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardSection {
    pub answer: String,
    pub level: String,
    pub games: u64,
    /// The board's cells by name; the counts below are in this order.
    pub cells: Vec<String>,
    /// Positions counted: every position of every game, the start and the
    /// end included.
    pub positions: u64,
    /// Per cell, the positions in which it holds a stack, and per player
    /// (in the players' order) those in which it holds one of theirs.
    pub occupied: Vec<u64>,
    pub occupied_by: Vec<Vec<u64>>,
    /// Per player, the games it won, and per cell the games whose winning
    /// move (the winner's last move) ended there.
    pub wins: Vec<u64>,
    pub won_at: Vec<Vec<u64>>,
    /// Every first move played, the most played first.
    pub first_moves: Vec<FirstMove>,
    /// The answer ranks the first moves played in at least this many
    /// games ([`MIN_FIRST_GAMES`]).
    pub min_first_games: u64,
}

/// How one level's games ended for one reason.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ending {
    /// `breakthrough-sow`, `stalemate`, … (as `end_reasons` writes them).
    pub reason: String,
    pub games: u64,
    /// Games won this way by each player, in the players' order.
    pub wins: Vec<u64>,
    pub draws: u64,
}

/// One level's endings, in the order of `murus_engine::Reason::ALL`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelEndings {
    pub level: String,
    pub games: u64,
    pub endings: Vec<Ending>,
}

/// How games end at each level of the balance check, by reason and winner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EndingsSection {
    pub answer: String,
    /// Weakest level first, as the check plays them.
    pub levels: Vec<LevelEndings>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_take_nearest_rank_percentiles_of_each_ply() {
        let mut by_ply = vec![vec![4, 1, 3, 2], vec![7]];
        let b = Band::of(&mut by_ply);
        assert_eq!(b.p25, [1, 7]);
        assert_eq!(b.median, [2, 7]);
        assert_eq!(b.p75, [3, 7]);
    }
}
