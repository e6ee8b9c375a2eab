//! What the strongest level's games show: a representative game (of
//! median length) with the engine's scores and the moment its winner
//! became clear, and the tactics harvested from every game (positions where
//! the side to move wins by force within a few moves with one move only),
//! with how often the loser had a forced win and missed it.

use std::collections::HashSet;
use std::path::Path;

use murus_ai::analysis::{Analyser, Limits, Score};
use murus_ai::review::{annotate, for_player, review_line};
use murus_ai::tactics;
use murus_engine::{Game, Move, Position, Record, Variant};

use crate::error::LabError;
use crate::folder::read_outputs;
use crate::record::GameResult;
use crate::text::reason_words;

pub use murus_report::designer::{CLEAR_CP, GameSection, PROVEN_CP, PuzzleEntry, TacticsSection};

/// The strongest level's games, read from its folder in `balance`.
pub(super) fn level_games(balance: &Path, level: &str) -> Result<Vec<GameResult>, LabError> {
    let (_, mut games) = read_outputs(&balance.join("levels").join(level))?;
    games.sort_by_key(|g| g.stats.index);
    Ok(games)
}

/// The moves of `g` from `v`'s start; `None` if one does not read.
pub(super) fn moves_of(v: &Variant, g: &GameResult) -> Option<Vec<Move>> {
    let mut pos = v.start();
    let mut out = Vec::with_capacity(g.moves.len());
    for text in &g.moves {
        let m = v.parse_move(&pos, text).ok()?;
        pos = v.play(&pos, m);
        out.push(m);
    }
    Some(out)
}

/// The game of median length (the shorter of the two middle ones, the
/// lower number first), searched position by position within `nodes`.
pub(super) fn representative(
    v: &Variant,
    level: &str,
    games: &[GameResult],
    openings: u32,
    nodes: u64,
) -> Option<GameSection> {
    let mut order: Vec<&GameResult> = games.iter().collect();
    order.sort_by_key(|g| (g.stats.plies, g.stats.index));
    let g = *order.get((order.len().max(1) - 1) / 2)?;
    let moves = moves_of(v, g)?;
    let mut analyser = Analyser::new(16);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let reviewed = review_line(&mut analyser, v, v.start(), &moves, limits, &());
    let depths: Vec<u32> = reviewed.iter().map(|r| r.depth).collect();
    let mut game = Game::new(v);
    for &m in &moves {
        game.play(m);
    }
    let mut record = Record::from_game_record(&game.record());
    annotate(&mut record, v, &reviewed);
    let scores: Vec<Option<i32>> = reviewed
        .iter()
        .map(|r| {
            r.score.map(|s| match for_player(s, r.mover, 0) {
                Score::Cp(c) => c,
                Score::Win(_) => PROVEN_CP,
                Score::Loss(_) => -PROVEN_CP,
            })
        })
        .collect();
    let winner = g.stats.winner;
    let sign = match winner.and_then(|w| v.player_by_letter(w)) {
        Some(0) => 1,
        Some(_) => -1,
        None => 0,
    };
    let clear_at = (sign != 0)
        .then(|| {
            let mut at = None;
            for (i, s) in scores.iter().enumerate().rev() {
                match s {
                    Some(s) if s * sign >= CLEAR_CP => at = Some(i),
                    _ => break,
                }
            }
            at
        })
        .flatten();
    let name = |c: char| {
        v.player_by_letter(c)
            .map_or_else(|| c.to_string(), |p| v.player_name(p))
    };
    let reason = g.stats.reason.as_str().to_string();
    let words = reason_words(&reason);
    let answer = match (winner, clear_at) {
        (Some(w), Some(at)) => format!(
            "A game of median length at {level} ({} plies): {} won by {words}, clear from ply {at} on.",
            moves.len(),
            name(w)
        ),
        (Some(w), None) => format!(
            "A game of median length at {level} ({} plies): {} won by {words}, in doubt almost to the end.",
            moves.len(),
            name(w)
        ),
        (None, _) => format!(
            "A game of median length at {level} ({} plies): drawn by {words}.",
            moves.len()
        ),
    };
    Some(GameSection {
        answer,
        level: level.to_string(),
        game: g.stats.index,
        start: v.position_string(&v.start()),
        moves: g.moves.clone(),
        openings,
        winner,
        reason,
        scores,
        depths,
        record: Some(record),
        nodes,
        clear_at,
    })
}

/// The puzzles of `games` (each position after the random openings; wins
/// within `most_n` moves), the first `keep` kept, and the games the loser
/// could have won.
pub(super) fn harvest(
    v: &Variant,
    level: &str,
    games: &[GameResult],
    openings: u32,
    most_n: u32,
    keep: usize,
) -> TacticsSection {
    let mut puzzles = Vec::new();
    let mut seen: HashSet<Position> = HashSet::new();
    let mut positions = 0;
    let mut decisive = 0;
    let mut missed = 0;
    for g in games {
        let Some(moves) = moves_of(v, g) else {
            continue;
        };
        let loser = match g.stats.winner {
            Some(w) => {
                decisive += 1;
                v.player_by_letter(w).map(|w| 1 - w.min(1))
            }
            None => None,
        };
        let mut pos = v.start();
        let mut missed_here = false;
        for (ply, &m) in moves.iter().enumerate() {
            if ply >= openings as usize && seen.insert(pos) {
                positions += 1;
                let mover = v.turn(&pos);
                if Some(mover) == loser && !missed_here {
                    missed_here = tactics::wins_within(v, &pos, most_n);
                }
                if let Some(p) = tactics::puzzle(v, &pos, most_n) {
                    puzzles.push(PuzzleEntry {
                        position: v.position_string(&pos),
                        mover: v.letter(mover),
                        n: p.n,
                        solution: v.move_to_string(p.solution),
                        game: g.stats.index,
                        ply,
                    });
                }
            }
            pos = v.play(&pos, m);
        }
        missed += u64::from(missed_here);
    }
    let found = puzzles.len();
    puzzles.sort_by(|a, b| {
        b.n.cmp(&a.n)
            .then(a.game.cmp(&b.game))
            .then(a.ply.cmp(&b.ply))
    });
    puzzles.truncate(keep);
    let answer = format!(
        "{} (a unique forced win within {most_n} moves) in {positions} positions of the {level} games; the loser had a forced win and missed it in {missed} of {decisive} decisive games.",
        murus_engine::text::plural(found as u64, "puzzle"),
    );
    TacticsSection {
        answer,
        level: level.to_string(),
        most_n,
        positions,
        found: found as u64,
        puzzles,
        decisive,
        missed,
    }
}

/// A game of `v` from its start along `moves` (for the page and the
/// records).
pub fn replay(v: &Variant, moves: &[String]) -> Option<Game> {
    let mut game = Game::new(v);
    for m in moves {
        game.play_str(m).ok()?;
    }
    Some(game)
}
