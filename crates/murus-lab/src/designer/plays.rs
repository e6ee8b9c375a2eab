//! How play goes, read off the balance check's kept games (after Ai Ai's
//! "Full Report"): over the strongest level's games, by ply, the median
//! and the middle half (25%–75%) of the legal moves, each player's stones
//! and the static score ([`CurvesSection`]); on the board, how often each
//! cell is occupied, where the winners' last moves land and how each first
//! move fared ([`BoardSection`]); and, at every level, how the games end,
//! by reason and winner ([`EndingsSection`]).
//!
//! Replaying games and a static evaluation per position are cheap: the
//! section costs a fraction of a second for a quick report's games.

use std::collections::BTreeMap;

use murus_ai::Evaluation;
use murus_ai::eval::{Weights, evaluate, evaluate_counted};
use murus_engine::{Engine, EngineTask, Move, Phase, Pos, Reason, Variant, Word};

use super::games::moves_of;
use crate::record::{GameResult, reason_key};
use crate::stats::round_to;
use crate::text::{percent, reason_words};

/// Rows of the curves' table, at most.
const TABLE_ROWS: u32 = 8;

pub use murus_report::designer::{
    Band, BoardSection, CurvesSection, Ending, EndingsSection, FirstMove, LevelEndings,
    MIN_FIRST_GAMES, MIN_GOING,
};

/// One game as the walk reads it.
struct Walked {
    moves: Vec<Move>,
    winner: Option<usize>,
}

/// What the walk over the games counts.
struct Counts {
    /// Per ply: the legal moves, each player's stones and the score of
    /// every game still going there.
    moves: Vec<Vec<i32>>,
    material: Vec<Vec<Vec<i32>>>,
    score: Vec<Vec<i32>>,
    positions: u64,
    /// Per slot.
    occupied: Vec<u64>,
    occupied_by: Vec<Vec<u64>>,
    won_at: Vec<Vec<u64>>,
}

struct Walk<'a> {
    games: &'a [Walked],
    evaluation: &'a Evaluation,
    slots: usize,
}

impl EngineTask for Walk<'_> {
    type Output = Counts;
    fn run<B: Word>(self, e: &Engine<B>) -> Counts {
        let players = e.players();
        let weights = self
            .evaluation
            .weights()
            .unwrap_or_else(|| Weights::for_engine(e));
        let net = self.evaluation.network().filter(|n| n.fits(e));
        let hybrid = self.evaluation.adds_features();
        // The search's static value, the first player's view, without the
        // side to move's bonus (`murus_ai::search`).
        let score = |pos: &Pos<B>, legal: usize| {
            let features = || {
                if pos.phase() == Phase::Normal {
                    evaluate_counted(e, &weights, pos, 0, legal as u64)
                } else {
                    evaluate(e, &weights, pos, 0, true)
                }
            };
            match net {
                Some(n) => n.evaluate_for(pos, 0) + if hybrid { features() } else { 0 },
                None => features(),
            }
        };
        let mut c = Counts {
            moves: Vec::new(),
            material: vec![Vec::new(); players],
            score: Vec::new(),
            positions: 0,
            occupied: vec![0; self.slots],
            occupied_by: vec![vec![0; self.slots]; players],
            won_at: vec![vec![0; self.slots]; players],
        };
        let mut legal = e.move_list();
        for g in self.games {
            let mut pos = e.start();
            let mut winning: Option<Move> = None;
            for (ply, &m) in g.moves.iter().enumerate() {
                legal.clear();
                e.legal_moves(&pos, &mut legal);
                if c.moves.len() <= ply {
                    c.moves.push(Vec::new());
                    c.score.push(Vec::new());
                    for per in &mut c.material {
                        per.push(Vec::new());
                    }
                }
                c.moves[ply].push(legal.len() as i32);
                for (p, per) in c.material.iter_mut().enumerate() {
                    per[ply].push(pos.stone_count(p) as i32);
                }
                c.score[ply].push(score(&pos, legal.len()));
                count_cells(&pos, players, &mut c);
                if Some(pos.turn()) == g.winner && m.origin().is_some() {
                    winning = Some(m);
                }
                e.apply(&mut pos, m);
            }
            count_cells(&pos, players, &mut c);
            if let (Some(w), Some(m)) = (g.winner, winning) {
                for cell in m.targets() {
                    c.won_at[w][cell] += 1;
                }
            }
        }
        c
    }
}

/// Counts the cells `pos` occupies.
fn count_cells<B: Word>(pos: &Pos<B>, players: usize, c: &mut Counts) {
    c.positions += 1;
    for p in 0..players {
        for slot in pos.stones_of(p).iter() {
            c.occupied[slot] += 1;
            c.occupied_by[p][slot] += 1;
        }
    }
}

/// The plies a table of `shown` plies lists: the start, every 2, 5, 10,
/// 20, … plies (at most [`TABLE_ROWS`] rows), and the last.
fn table_plies(shown: usize) -> Vec<u32> {
    let Some(last) = (shown as u32).checked_sub(1) else {
        return Vec::new();
    };
    let step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
        .into_iter()
        .find(|s| last / s < TABLE_ROWS)
        .unwrap_or(1000);
    let mut plies: Vec<u32> = (0..=last).step_by(step as usize).collect();
    if plies.last() != Some(&last) {
        plies.push(last);
    }
    plies
}

/// The curves and the board of `games`, the games of `level`, whose first
/// `openings` plies are random.
pub(super) fn curves_and_board(
    v: &Variant,
    level: &str,
    games: &[GameResult],
    openings: u32,
) -> (CurvesSection, BoardSection) {
    let walked: Vec<Walked> = games
        .iter()
        .filter_map(|g| {
            Some(Walked {
                moves: moves_of(v, g)?,
                winner: g.stats.winner.and_then(|w| v.player_by_letter(w)),
            })
        })
        .collect();
    let evaluation = Evaluation::for_variant(v);
    let geometry = v.geometry();
    let slots = geometry.cells().max().map_or(0, |s| s + 1);
    let mut c = v.run(Walk {
        games: &walked,
        evaluation: &evaluation,
        slots,
    });
    let players = v.player_count();
    let going: Vec<u64> = c.moves.iter().map(|m| m.len() as u64).collect();
    let shown = going.iter().take_while(|&&n| n >= MIN_GOING).count();
    c.moves.truncate(shown);
    c.score.truncate(shown);
    let curves = CurvesSection {
        answer: String::new(),
        level: level.to_string(),
        games: walked.len() as u64,
        openings,
        min_going: MIN_GOING,
        going,
        moves: Band::of(&mut c.moves),
        material: c
            .material
            .iter_mut()
            .map(|m| {
                m.truncate(shown);
                Band::of(m)
            })
            .collect(),
        score: Band::of(&mut c.score),
        evaluation: evaluation.id(),
        table: table_plies(shown),
    };
    let by_cell =
        |per_slot: &[u64]| -> Vec<u64> { geometry.cells().map(|s| per_slot[s]).collect() };
    let wins: Vec<u64> = (0..players)
        .map(|p| walked.iter().filter(|g| g.winner == Some(p)).count() as u64)
        .collect();
    let board = BoardSection {
        answer: String::new(),
        level: level.to_string(),
        games: walked.len() as u64,
        cells: geometry.cells().map(|s| geometry.name(s)).collect(),
        positions: c.positions,
        occupied: by_cell(&c.occupied),
        occupied_by: c.occupied_by.iter().map(|o| by_cell(o)).collect(),
        wins,
        won_at: c.won_at.iter().map(|w| by_cell(w)).collect(),
        first_moves: first_moves(v, &walked),
        min_first_games: MIN_FIRST_GAMES,
    };
    (
        CurvesSection {
            answer: curves_answer(v, &curves),
            ..curves
        },
        BoardSection {
            answer: board_answer(v, &board),
            ..board
        },
    )
}

/// Each first move played, with the first player's results.
fn first_moves(v: &Variant, games: &[Walked]) -> Vec<FirstMove> {
    let players = v.player_count().max(1) as f64;
    let mut by: BTreeMap<String, FirstMove> = BTreeMap::new();
    for g in games {
        let Some(&m) = g.moves.first() else { continue };
        let text = v.move_to_string(m);
        let f = by.entry(text.clone()).or_insert_with(|| FirstMove {
            first: text,
            cells: m.targets().map(|c| v.geometry().name(c)).collect(),
            games: 0,
            first_wins: 0,
            draws: 0,
            score: 0.0,
        });
        f.games += 1;
        f.first_wins += u64::from(g.winner == Some(0));
        f.draws += u64::from(g.winner.is_none());
    }
    let mut out: Vec<FirstMove> = by
        .into_values()
        .map(|f| FirstMove {
            score: round_to(
                (f.first_wins as f64 + f.draws as f64 / players) / f.games as f64,
                4,
            ),
            ..f
        })
        .collect();
    out.sort_by(|a, b| b.games.cmp(&a.games).then(a.first.cmp(&b.first)));
    out
}

/// `+1.25` stones from centi-stones (`0.00` without a sign).
fn stones(cp: i32) -> String {
    if cp == 0 {
        "0.00".to_string()
    } else {
        format!("{:+.2}", f64::from(cp) / 100.0)
    }
}

fn curves_answer(v: &Variant, c: &CurvesSection) -> String {
    let shown = c.moves.median.len();
    if shown == 0 {
        return format!(
            "Too few games at {} to draw curves: fewer than {MIN_GOING} reach their first move.",
            c.level
        );
    }
    let last = shown - 1;
    let (peak_at, peak) = c
        .moves
        .median
        .iter()
        .enumerate()
        .fold(
            (0, i32::MIN),
            |best, (i, &m)| {
                if m > best.1 { (i, m) } else { best }
            },
        );
    let material: Vec<String> = c
        .material
        .iter()
        .enumerate()
        .map(|(p, b)| {
            format!(
                "from {} to {} ({})",
                b.median[0],
                b.median[last],
                v.player_name(p)
            )
        })
        .collect();
    let start = c.moves.median[0];
    let moves = if peak_at == 0 {
        format!("{start} moves at the start, more than at any later ply")
    } else {
        format!("{start} moves at the start and the most, {peak}, at ply {peak_at}")
    };
    format!(
        "Over the {} games at {} (to ply {last}, the last with at least {MIN_GOING} games going): the median position offers {moves}; the median stones on the board go {}; the first player's median static score goes from {} to {} stones.",
        c.games,
        c.level,
        material.join(" and "),
        stones(c.score.median[0]),
        stones(c.score.median[last]),
    )
}

fn board_answer(v: &Variant, b: &BoardSection) -> String {
    let share = |n: u64| n as f64 / b.positions.max(1) as f64;
    let most = (b.cells.iter().zip(&b.occupied)).max_by(|x, y| x.1.cmp(y.1).then(y.0.cmp(x.0)));
    let least = (b.cells.iter().zip(&b.occupied)).min_by(|x, y| x.1.cmp(y.1).then(x.0.cmp(y.0)));
    let mut parts = Vec::new();
    if let (Some(most), Some(least)) = (most, least) {
        parts.push(format!(
            "the cell most often occupied is {} (in {} of the positions), the least {} ({})",
            most.0,
            percent(share(*most.1)),
            least.0,
            percent(share(*least.1))
        ));
    }
    let won: Vec<String> = (b.wins.iter().zip(&b.won_at).enumerate())
        .filter(|(_, (w, _))| **w > 0)
        .filter_map(|(p, (w, at))| {
            let (cell, n) = b
                .cells
                .iter()
                .zip(at)
                .max_by(|x, y| x.1.cmp(y.1).then(y.0.cmp(x.0)))?;
            Some(format!(
                "{} most often win with a move to {cell} ({n} of {w} wins)",
                v.player_name(p)
            ))
        })
        .collect();
    if !won.is_empty() {
        parts.push(won.join(", "));
    }
    let ranked: Vec<&FirstMove> = b
        .first_moves
        .iter()
        .filter(|f| f.games >= MIN_FIRST_GAMES)
        .collect();
    let best = ranked
        .iter()
        .max_by(|x, y| x.score.total_cmp(&y.score).then(y.first.cmp(&x.first)));
    let worst = ranked
        .iter()
        .min_by(|x, y| x.score.total_cmp(&y.score).then(x.first.cmp(&y.first)));
    if let (Some(best), Some(worst)) = (best, worst)
        && ranked.len() >= 2
    {
        parts.push(format!(
            "of the first moves played in at least {MIN_FIRST_GAMES} games, {} did best for the first player ({} in {} games) and {} worst ({} in {})",
            best.first,
            percent(best.score),
            best.games,
            worst.first,
            percent(worst.score),
            worst.games
        ));
    }
    let mut answer = format!("Over the {} games at {}: ", b.games, b.level);
    answer += &parts.join("; ");
    answer.push('.');
    answer
}

/// The endings of each level's games (`levels`: each level's name and
/// games, weakest first).
pub(super) fn endings(v: &Variant, levels: &[(String, Vec<GameResult>)]) -> EndingsSection {
    let players = v.player_count();
    let levels: Vec<LevelEndings> = levels
        .iter()
        .map(|(level, games)| {
            let mut by: BTreeMap<usize, Ending> = BTreeMap::new();
            for g in games {
                let r = g.stats.reason;
                let at = Reason::ALL.iter().position(|&x| x == r).unwrap_or(0);
                let e = by.entry(at).or_insert_with(|| Ending {
                    reason: reason_key(r),
                    games: 0,
                    wins: vec![0; players],
                    draws: 0,
                });
                e.games += 1;
                match g.stats.winner.and_then(|w| v.player_by_letter(w)) {
                    Some(p) => e.wins[p] += 1,
                    None => e.draws += 1,
                }
            }
            // In the reasons' order, alike at every level.
            let endings: Vec<Ending> = by.into_values().collect();
            LevelEndings {
                level: level.clone(),
                games: games.len() as u64,
                endings,
            }
        })
        .collect();
    let answer = match levels.iter().rev().find(|l| l.games > 0) {
        Some(l) => {
            let mut ranked: Vec<&Ending> = l.endings.iter().collect();
            // The most frequent first; ties in the reasons' order.
            ranked.sort_by_key(|e| std::cmp::Reverse(e.games));
            let each: Vec<String> = ranked
                .iter()
                .map(|e| {
                    let mut who: Vec<String> = (e.wins.iter().enumerate())
                        .filter(|(_, n)| **n > 0)
                        .map(|(p, n)| format!("{} {n}", v.player_name(p)))
                        .collect();
                    if e.draws > 0 {
                        who.push(format!("drawn {}", e.draws));
                    }
                    format!(
                        "{} {} ({})",
                        reason_words(&e.reason),
                        e.games,
                        who.join(", ")
                    )
                })
                .collect();
            format!(
                "Of the {} games at {}, the strongest level: {}.",
                l.games,
                l.level,
                each.join("; ")
            )
        }
        None => "No level played a game.".to_string(),
    };
    EndingsSection { answer, levels }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_the_start_then_every_few_plies() {
        assert_eq!(table_plies(0), Vec::<u32>::new());
        assert_eq!(table_plies(1), [0]);
        assert_eq!(table_plies(8), [0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(table_plies(9), [0, 2, 4, 6, 8]);
        assert_eq!(table_plies(16), [0, 2, 4, 6, 8, 10, 12, 14, 15]);
        assert_eq!(table_plies(61), [0, 10, 20, 30, 40, 50, 60]);
        assert!(table_plies(5000).len() <= TABLE_ROWS as usize + 1);
    }

    #[test]
    fn reasons_read_as_words() {
        assert_eq!(
            reason_words("breakthrough-throw"),
            "breakthrough by a throw"
        );
        assert_eq!(reason_words("stalemate"), "stalemate");
    }
}
