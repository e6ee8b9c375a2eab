//! Openings: the first moves ranked by the results and scores of strong
//! play, with intervals, each with strong play's best replies, and the
//! first moves strong play never chooses.
//!
//! For each first move (at most [`MOST_FIRST`], the best by the search's
//! score when there are more): its score (alpha-beta at the start, every
//! move searched with a full window), and the first player's results in
//! games that open with it. A report with a folder takes those games from
//! its balance check's strongest level ([`with_results`]: every game
//! opens with random plies, so with each first move about as often),
//! playing none of its own; without a folder, the games are its own: each
//! opens with the move and one of the [`REPLIES`] best replies, two games
//! a reply (colours rotated), played by the given level against itself.
//! Moves are ranked by that rate, then by score. The strongest
//! level's bot is asked for its first move with [`ASKS`] seeds (equal moves
//! are shuffled by the seed): the moves it never names are the ones strong
//! play never chooses.

use std::sync::Arc;

use murus_ai::analysis::{Analyser, Limits, Line, Score};
use murus_ai::review::for_player;
use murus_ai::{Bot, BotSpec};
use murus_engine::{Game, Move, Variant};
use serde::{Deserialize, Serialize};

use super::games::PROVEN_CP;
use crate::book::Book;
use crate::error::LabError;
use crate::folder::Shard;
use crate::record::GameResult;
use crate::runner::{Config, run};
use crate::stats::{round_to, wilson};
use crate::text::percent_interval;

/// First moves studied at most.
pub const MOST_FIRST: usize = 24;
/// Replies per first move that open its games.
pub const REPLIES: usize = 8;
/// Seeds the strongest bot is asked with.
pub const ASKS: u64 = 16;

pub use murus_report::designer::{OpeningMove, OpeningsSection};

fn cp(s: Score, mover: usize) -> i32 {
    match for_player(s, mover, 0) {
        Score::Cp(c) => c,
        Score::Win(_) => PROVEN_CP,
        Score::Loss(_) => -PROVEN_CP,
    }
}

/// Every move of `game`'s position with its score for the first player,
/// and the depth the search reached.
fn scored(game: &Game, nodes: u64) -> (Vec<(Move, Option<i32>)>, u32) {
    let v = game.variant();
    let mover = v.turn(game.position());
    let legal = game.legal_moves();
    let mut analyser = Analyser::new(16);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let seed = v.hash(game.position());
    let (lines, depth): (Vec<Line>, u32) = analyser
        .analyse_lines(game, limits, legal.len(), seed, &())
        .map(|f| (f.lines, f.depth))
        .unwrap_or_default();
    let mut out: Vec<(Move, Option<i32>)> = legal
        .iter()
        .map(|&m| {
            let s = lines
                .iter()
                .find(|l| l.first == m)
                .map(|l| cp(l.score, mover));
            (m, s)
        })
        .collect();
    // Best for the side to move first: its score, the first player's view.
    let sign = if mover == 0 { 1 } else { -1 };
    out.sort_by_key(|(_, s)| std::cmp::Reverse(s.map_or(i32::MIN, |s| s * sign)));
    (out, depth)
}

/// A share of the openings' study: the first moves a shard studies (or
/// all of them), each with its rank in the search's order; what the
/// strongest bot chooses is asked in every share alike.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct OpeningsShare {
    pub(super) level: String,
    pub(super) asked: String,
    pub(super) search_nodes: u64,
    #[serde(default)]
    pub(super) search_depth: u32,
    pub(super) moves: Vec<(usize, OpeningMove)>,
    pub(super) never: Vec<String>,
    pub(super) legal: usize,
    /// The games are the balance check's ([`with_results`]).
    #[serde(default)]
    pub(super) from_balance: bool,
}

impl OpeningsShare {
    /// The shares of one study as the whole study: `shares[0]`'s settings,
    /// every share's moves.
    pub(super) fn merged(shares: Vec<OpeningsShare>) -> Option<OpeningsShare> {
        let mut shares = shares.into_iter();
        let mut all = shares.next()?;
        all.moves.extend(shares.flat_map(|s| s.moves));
        all.moves.sort_by_key(|(i, _)| *i);
        Some(all)
    }
}

/// The openings of `v` (two players): `level` plays the games (none with
/// `own_games` false: [`with_results`] counts the balance check's),
/// `strongest` is asked for its first move; with `shard`, only the first
/// moves numbered `K-1 mod N` (in the search's order) are studied.
#[allow(clippy::too_many_arguments)]
pub(super) fn play(
    v: &Variant,
    level: (&str, &BotSpec),
    strongest: &BotSpec,
    nodes: u64,
    seed: u64,
    threads: usize,
    shard: Option<Shard>,
    own_games: bool,
) -> Result<OpeningsShare, LabError> {
    let start = Game::new(v);
    let (firsts, search_depth) = scored(&start, nodes);
    let legal = firsts.len();
    let mut chosen = Vec::new();
    for s in 0..ASKS {
        let mut bot = Bot::new(strongest.clone(), seed.wrapping_add(s));
        if let Some(m) = bot.choose(v, &v.start()) {
            chosen.push(m);
        }
    }
    let mut moves = Vec::new();
    for (i, &(first, score)) in firsts.iter().take(MOST_FIRST).enumerate() {
        if shard.is_some_and(|s| !s.plays(i as u64)) {
            continue;
        }
        let mut after = start.clone();
        after.play(first);
        let (replies, replies_depth): (Vec<(Move, Option<i32>)>, u32) = if after.outcome().is_some()
        {
            (Vec::new(), 0)
        } else {
            scored(&after, nodes)
        };
        let lines: Vec<String> = replies
            .iter()
            .take(REPLIES)
            .filter(|(r, _)| {
                let mut g = after.clone();
                g.play(*r);
                g.outcome().is_none()
            })
            .map(|(r, _)| format!("{} {}", v.move_to_string(first), v.move_to_string(*r)))
            .collect();
        let (games, first_wins, draws) = if let Some(o) = after.outcome() {
            (0, u64::from(o.winner == Some(0)), 0)
        } else if lines.is_empty() || !own_games {
            // Every strong reply ends the game at once, or the games are
            // the balance check's, counted by `with_results`.
            (0, 0, 0)
        } else {
            let book = Book::parse(&format!("opening-{}", i + 1), &lines.join("\n"), v)?;
            let config = Config::new(
                v,
                vec![level.1.clone()],
                lines.len() as u64 * 2,
                seed ^ (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            )
            .with_threads(threads)
            .with_book(Arc::new(book));
            let played = run(v, &config, &())?;
            let first_letter = v.letter(0);
            let wins = played
                .iter()
                .filter(|g| g.stats.winner == Some(first_letter))
                .count() as u64;
            let draws = played.iter().filter(|g| g.stats.winner.is_none()).count() as u64;
            (played.len() as u64, wins, draws)
        };
        let (lo, hi) = wilson(first_wins, games);
        moves.push((
            i,
            OpeningMove {
                first: v.move_to_string(first),
                score,
                games,
                first_wins,
                draws,
                rate: if games == 0 {
                    first_wins as f64
                } else {
                    round_to(first_wins as f64 / games as f64, 4)
                },
                ci95: [round_to(lo, 4), round_to(hi, 4)],
                replies: replies
                    .iter()
                    .take(3)
                    .map(|(r, s)| (v.move_to_string(*r), *s))
                    .collect(),
                replies_depth,
                chosen: chosen.contains(&first),
            },
        ));
    }
    let never: Vec<String> = firsts
        .iter()
        .filter(|(m, _)| !chosen.contains(m))
        .map(|(m, _)| v.move_to_string(*m))
        .collect();
    Ok(OpeningsShare {
        level: level.0.to_string(),
        asked: strongest.to_string(),
        search_nodes: nodes,
        search_depth,
        moves,
        never,
        legal,
        from_balance: false,
    })
}

/// The study's results from `games` (the balance check's games at
/// `level`, all of them, by number): each move's games are those that
/// open with it. A move that ends the game at once keeps its result.
pub(super) fn with_results(
    v: &Variant,
    mut study: OpeningsShare,
    level: &str,
    games: &[GameResult],
) -> OpeningsShare {
    let start = v.start();
    let first_letter = v.letter(0);
    let firsts: Vec<Option<Move>> = (games.iter())
        .map(|g| {
            let text = g.moves.first()?;
            v.parse_move(&start, text).ok()
        })
        .collect();
    for (_, m) in &mut study.moves {
        let Ok(first) = v.parse_move(&start, &m.first) else {
            continue;
        };
        if v.outcome(&v.play(&start, first)).is_some() {
            continue;
        }
        let opening: Vec<&GameResult> = (games.iter().zip(&firsts))
            .filter(|(_, f)| **f == Some(first))
            .map(|(g, _)| g)
            .collect();
        m.games = opening.len() as u64;
        m.first_wins = (opening.iter())
            .filter(|g| g.stats.winner == Some(first_letter))
            .count() as u64;
        m.draws = opening.iter().filter(|g| g.stats.winner.is_none()).count() as u64;
        let (lo, hi) = wilson(m.first_wins, m.games);
        m.rate = if m.games == 0 {
            0.0
        } else {
            round_to(m.first_wins as f64 / m.games as f64, 4)
        };
        m.ci95 = [round_to(lo, 4), round_to(hi, 4)];
    }
    study.level = level.to_string();
    study.from_balance = true;
    study
}

/// The section of a study (whole, or its shares merged): the moves
/// ranked, and the answer.
pub(super) fn section(study: OpeningsShare) -> OpeningsSection {
    let OpeningsShare {
        level,
        asked,
        search_nodes,
        search_depth,
        moves,
        never,
        legal,
        from_balance,
    } = study;
    let mut moves: Vec<OpeningMove> = moves.into_iter().map(|(_, m)| m).collect();
    moves.sort_by(|a, b| {
        b.rate.total_cmp(&a.rate).then(
            b.score
                .unwrap_or(i32::MIN)
                .cmp(&a.score.unwrap_or(i32::MIN)),
        )
    });
    // A best move only where its interval lies above every other's: with
    // overlapping intervals the games cannot tell the moves apart.
    let play = if from_balance {
        format!("the balance check's {level} games")
    } else {
        format!("{level} play")
    };
    let chooses = format!(
        "{asked} chooses {} of the {legal} first moves",
        legal - never.len()
    );
    let answer = match moves.split_first() {
        Some((best, others))
            if !others.is_empty() && others.iter().all(|m| best.ci95[0] > m.ci95[1]) =>
        {
            format!(
                "Best first move by the results of {play}: {} ({} for the first player, its interval above every other's); {chooses}.",
                best.first,
                percent_interval(best.rate, best.ci95),
            )
        }
        Some(_) => {
            let lo = moves.iter().map(|m| m.games).min().unwrap_or(0);
            let hi = moves.iter().map(|m| m.games).max().unwrap_or(0);
            let each = if lo == hi {
                format!("{lo} games each")
            } else {
                format!("{lo} to {hi} games each")
            };
            format!(
                "No first move stands out in {play}: the first player's results with the {} moves studied overlap ({each}); {chooses}.",
                moves.len()
            )
        }
        None => "No first move to study.".to_string(),
    };
    OpeningsSection {
        answer,
        level,
        asked,
        search_nodes,
        search_depth,
        moves,
        never,
        legal,
        from_balance,
    }
}
