//! A kept game checked against the rules: its moves replayed from the
//! start, each legal in turn, and its record (the end, the length, the
//! branching) what the replay gives. A line of `games.jsonl` edited by
//! hand, torn in the middle or written by other rules is caught before a
//! resumed run or a merge counts it.
//!
//! A game people ended (a resignation, a draw agreed, a loss on time: games
//! of the playtest server) is checked as far as its record allows: its
//! moves legal, the game not over by the rules after them, and its winner
//! as the ending says (none for a draw agreed, a player for the others).

use std::collections::{HashMap, HashSet};

use std::sync::Arc;

use murus_engine::{
    DrawTracker, Engine, EngineTask, Move, MoveKind, Outcome, Reason, Variant, Word,
};

use crate::record::{GameResult, GameStats, reason_key};

/// Replays each of `games` (with the ply cap `max_plies`) and returns the
/// first that does not replay as recorded: its place in `games` and why
/// (``game 7: ply 5: `d7-d6` is not legal there``).
pub(crate) fn first_wrong(
    variant: &Variant,
    games: &[&GameResult],
    max_plies: u32,
) -> Option<(usize, String)> {
    variant.run(Replay {
        variant,
        games,
        max_plies,
    })
}

struct Replay<'a> {
    variant: &'a Variant,
    games: &'a [&'a GameResult],
    max_plies: u32,
}

impl EngineTask for Replay<'_> {
    type Output = Option<(usize, String)>;
    fn run<B: Word>(self, e: &Engine<B>) -> Self::Output {
        let mut moves = e.move_list();
        let mut names = Names::new(self.variant);
        self.games.iter().enumerate().find_map(|(i, g)| {
            replay(e, self.variant, g, self.max_plies, &mut moves, &mut names)
                .err()
                .map(|why| (i, format!("game {}: {why}", g.stats.index)))
        })
    }
}

/// The notation of the moves met so far, both ways: a move is written out
/// once per replay, not once per legal move of every ply (a variant has a
/// few hundred moves; a replay of ten thousand games meets millions).
struct Names<'a> {
    variant: &'a Variant,
    /// The moves written so.
    by_text: HashMap<String, Vec<Move>>,
    /// The moves written out so far.
    seen: HashSet<Move>,
}

impl<'a> Names<'a> {
    fn new(variant: &'a Variant) -> Names<'a> {
        Names {
            variant,
            by_text: HashMap::new(),
            seen: HashSet::new(),
        }
    }

    /// The place in `legal` of the move written `text`, if one is.
    fn find(&mut self, legal: &[Move], text: &str) -> Option<usize> {
        let lookup = |by_text: &HashMap<String, Vec<Move>>| {
            let written = by_text.get(text)?;
            legal.iter().position(|m| written.contains(m))
        };
        if let Some(at) = lookup(&self.by_text) {
            return Some(at);
        }
        // Learn the legal moves not met yet, then look again.
        let mut learned = false;
        for &m in legal {
            if self.seen.insert(m) {
                let name = self.variant.move_to_string(m);
                self.by_text.entry(name).or_default().push(m);
                learned = true;
            }
        }
        if learned { lookup(&self.by_text) } else { None }
    }
}

/// What a replay of a game's moves finds: the branching figures, the pie
/// swaps played and how the rules end the game after them, if they do.
struct Walk {
    sum: u64,
    max: u32,
    forced: u32,
    swaps: usize,
    end: Option<Outcome>,
}

/// Replays the moves written `texts` from the start, each legal in turn
/// and none after the rules ended the game; `moves` is room for the legal
/// moves.
fn walk<B: Word>(
    e: &Engine<B>,
    v: &Variant,
    texts: &[String],
    max_plies: u32,
    moves: &mut Vec<Move>,
    names: &mut Names,
) -> Result<Walk, String> {
    let mut pos = e.start();
    let mut line = DrawTracker::new(e.rules().draw, pos.hash()).with_ply_cap(Some(max_plies));
    let (mut sum, mut max, mut forced) = (0u64, 0u32, 0u32);
    let mut swaps = 0usize;
    for (ply, text) in texts.iter().enumerate() {
        moves.clear();
        e.legal_moves(&pos, moves);
        if let Some(end) = e.judge(&pos, moves.len(), &line) {
            return Err(format!(
                "ply {}: `{text}` is played after the game ended ({})",
                ply + 1,
                reason_key(end.reason)
            ));
        }
        // A kept line writes its moves as the lab does: in the notation
        // `move_to_string` gives.
        let found = names.find(moves, text);
        let Some(at) = found else {
            return Err(format!(
                "ply {}: `{text}` is not legal there ({} to move; {} legal moves)",
                ply + 1,
                v.letter(pos.turn()),
                moves.len()
            ));
        };
        let n = moves.len() as u32;
        sum += u64::from(n);
        max = max.max(n);
        forced += u32::from(n == 1);
        let m = moves[at];
        swaps += usize::from(m.kind == MoveKind::Swap);
        let capture = e.is_capture(&pos, m);
        e.apply(&mut pos, m);
        line.push(pos.hash(), capture);
    }
    moves.clear();
    e.legal_moves(&pos, moves);
    let end = e.judge(&pos, moves.len(), &line);
    Ok(Walk {
        sum,
        max,
        forced,
        swaps,
        end,
    })
}

/// The colour seat `seat` holds after `swaps` pie swaps (a swap exchanges
/// the first two seats' colours), seat `s` having started with colour `s`.
fn colour_after(seat: usize, swaps: usize) -> usize {
    if swaps % 2 == 1 && seat < 2 {
        1 - seat
    } else {
        seat
    }
}

/// Replays `g`; `moves` is room for the legal moves.
fn replay<B: Word>(
    e: &Engine<B>,
    v: &Variant,
    g: &GameResult,
    max_plies: u32,
    moves: &mut Vec<Move>,
    names: &mut Names,
) -> Result<(), String> {
    let s = &g.stats;
    if g.moves.len() != s.plies as usize {
        return Err(format!(
            "it records {} plies and {} moves",
            s.plies,
            g.moves.len()
        ));
    }
    let players = e.players();
    let Walk {
        sum,
        max,
        forced,
        swaps,
        end,
    } = walk(e, v, &g.moves, max_plies, moves, names)?;
    // The seat that holds colour `w` at the end: a pie swap exchanges the
    // first two seats' colours.
    let seat_of = |w: usize| {
        let start_colour = colour_after(w, swaps);
        g.colours
            .iter()
            .position(|&c| v.player_by_letter(c) == Some(start_colour))
            .unwrap_or(players)
    };
    let said = |r: Reason, w: Option<char>| {
        format!(
            "{}{}",
            reason_key(r),
            w.map_or_else(String::new, |w| format!(" won by {w}"))
        )
    };
    match end {
        // An ending people give (a resignation, a draw agreed, a loss on
        // time) comes before the rules end the game.
        Some(end) if s.reason.by_people() => {
            return Err(format!(
                "its moves end it by {}, where it records {}",
                said(end.reason, end.winner.map(|w| v.letter(w))),
                said(s.reason, s.winner)
            ));
        }
        Some(end) => {
            let winner = end.winner.map(|w| v.letter(w));
            let winner_seat = end.winner.map(seat_of);
            if winner != s.winner || end.reason != s.reason || winner_seat != s.winner_seat {
                return Err(format!(
                    "its moves end it by {}, where it records {}",
                    said(end.reason, winner),
                    said(s.reason, s.winner)
                ));
            }
        }
        None if !s.reason.by_people() => {
            return Err(format!(
                "the game is not over after its {} recorded plies",
                g.moves.len()
            ));
        }
        None => people_end(v, s, players, seat_of)?,
    }
    if (sum, max, forced) != (s.branching_sum, s.branching_max, s.forced) {
        return Err(format!(
            "its moves offer {sum} legal moves in all (at most {max}, {forced} forced), where it records {} ({}, {})",
            s.branching_sum, s.branching_max, s.forced
        ));
    }
    Ok(())
}

/// Checks the winner of a game that people ended (`s.reason` is one of
/// [`Reason::by_people`]): a draw agreed has no winner; a resignation or a
/// loss on time has one, a player of the rules, in the seat that holds its
/// colour at the end.
fn people_end(
    v: &Variant,
    s: &GameStats,
    players: usize,
    seat_of: impl Fn(usize) -> usize,
) -> Result<(), String> {
    let key = reason_key(s.reason);
    match (s.reason, s.winner) {
        (Reason::Agreement, None) if s.winner_seat.is_none() => Ok(()),
        (Reason::Agreement, _) => Err(format!("it records {key} (a draw) with a winner")),
        (_, None) => Err(format!("it records {key} without a winner")),
        (_, Some(w)) => {
            let Some(p) = v.player_by_letter(w).filter(|&p| p < players) else {
                return Err(format!(
                    "it records {key} won by `{w}`, not a player's colour"
                ));
            };
            match s.winner_seat {
                Some(seat) if seat == seat_of(p) => Ok(()),
                seat => Err(format!(
                    "it records {key} won by {w} in seat {}, where {w} holds seat {}",
                    seat.map_or_else(|| "none".to_string(), |s| s.to_string()),
                    seat_of(p)
                )),
            }
        }
    }
}

/// How people ended a game the rules had not ended: the winner's seat
/// (`None`: a draw) and the reason, one of [`Reason::by_people`].
pub type PeoplesEnd = (Option<usize>, Reason);

/// A game played by people (the playtest server's: each seat a person or
/// a bot level), as a line of a run's `games.jsonl`: game number `index`,
/// `seats` (each seat's kind, seat `s` starting with the colour of player
/// `s`), its `moves` replayed under the ply cap `max_plies` for the
/// branching figures and the rules' end. A game the rules end takes their
/// ending; one they do not takes `ended`, the ending people gave. Seed 0;
/// no evaluation's leader (0 lead changes), no game-quality metrics: the
/// moves are people's, not a bot's that the lab measures.
///
/// An error says why the moves are not such a game: a move not legal, the
/// game not over and no ending given, or an ending people gave to a game
/// the rules had already ended.
pub fn people_game(
    variant: &Variant,
    index: u64,
    seats: Arc<[String]>,
    moves: Vec<String>,
    ended: Option<PeoplesEnd>,
    max_plies: u32,
) -> Result<GameResult, String> {
    variant.run(PeopleGame {
        variant,
        index,
        seats,
        moves,
        ended,
        max_plies,
    })
}

struct PeopleGame<'a> {
    variant: &'a Variant,
    index: u64,
    seats: Arc<[String]>,
    moves: Vec<String>,
    ended: Option<PeoplesEnd>,
    max_plies: u32,
}

impl EngineTask for PeopleGame<'_> {
    type Output = Result<GameResult, String>;
    fn run<B: Word>(self, e: &Engine<B>) -> Self::Output {
        let v = self.variant;
        let players = e.players();
        let mut names = Names::new(v);
        let w = walk(
            e,
            v,
            &self.moves,
            self.max_plies,
            &mut e.move_list(),
            &mut names,
        )?;
        // The seat holding colour `p` at the end, and the colour of seat `s`.
        let seat_of = |p: usize| colour_after(p, w.swaps);
        let (winner, winner_seat, reason) = match (w.end, self.ended) {
            (Some(end), None) => (end.winner, end.winner.map(seat_of), end.reason),
            (Some(end), Some((_, r))) => {
                return Err(format!(
                    "it records {} but the rules ended it by {}",
                    reason_key(r),
                    reason_key(end.reason)
                ));
            }
            (None, None) => {
                return Err(format!(
                    "the game is not over after its {} plies and no ending is given",
                    self.moves.len()
                ));
            }
            (None, Some((_, r))) if !r.by_people() => {
                return Err(format!(
                    "{} is the rules' ending, not one people give",
                    reason_key(r)
                ));
            }
            (None, Some((seat, r))) => {
                if seat.is_some_and(|s| s >= players) {
                    return Err(format!(
                        "no seat {} in a game of {players}",
                        seat.unwrap_or(0)
                    ));
                }
                (seat.map(|s| colour_after(s, w.swaps)), seat, r)
            }
        };
        let plies = self.moves.len() as u32;
        Ok(GameResult {
            stats: GameStats {
                index: self.index,
                winner: winner.map(|p| v.letter(p)),
                winner_seat,
                reason,
                plies,
                branching_sum: w.sum,
                branching_max: w.max,
                forced: w.forced,
                lead_changes: 0,
                leader_at_three_quarters: None,
                metrics: None,
            },
            seed: 0,
            seats: self.seats,
            colours: (0..players).map(|p| v.letter(p)).collect(),
            moves: self.moves,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of standard whose first `plies` first legal moves were
    /// played, then ended by people as `ended` says.
    fn by_people(plies: usize, ended: PeoplesEnd, max_plies: u32) -> Result<GameResult, String> {
        let v = Variant::builtin("standard").unwrap();
        let mut pos = v.start();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let m = v.legal_moves(&pos)[0];
            moves.push(v.move_to_string(m));
            pos = v.play(&pos, m);
        }
        let seats: Arc<[String]> = ["human".to_string(), "medium".to_string()].into();
        people_game(&v, 0, seats, moves, Some(ended), max_plies)
    }

    /// Why the replay check refuses `g` (`None`: it accepts it).
    fn refused(g: &GameResult, max_plies: u32) -> Option<String> {
        let v = Variant::builtin("standard").unwrap();
        first_wrong(&v, &[g], max_plies).map(|(_, why)| why)
    }

    #[test]
    fn games_people_ended_replay_when_the_rules_had_not_ended_them() {
        // Seat 0 resigned at ply 3: seat 1 (the Gauls) won.
        let g = by_people(3, (Some(1), Reason::Resignation), 300).unwrap();
        let s = &g.stats;
        assert_eq!(
            (s.winner, s.winner_seat, s.reason, s.plies),
            (Some('g'), Some(1), Reason::Resignation, 3)
        );
        assert_eq!((g.seed, &g.colours[..]), (0, &['r', 'g'][..]));
        assert!(s.branching_sum > 0 && s.branching_max > 0);
        assert_eq!(refused(&g, 300), None);
        let drawn = by_people(2, (None, Reason::Agreement), 300).unwrap();
        assert_eq!((drawn.stats.winner, drawn.stats.winner_seat), (None, None));
        assert_eq!(refused(&drawn, 300), None);
        let timed = by_people(0, (Some(0), Reason::Time), 300).unwrap();
        assert_eq!(timed.stats.winner, Some('r'));
        assert_eq!(refused(&timed, 300), None);
    }

    #[test]
    fn a_game_people_ended_is_refused_where_its_line_says_otherwise() {
        let g = by_people(3, (Some(1), Reason::Resignation), 300).unwrap();
        let edit = |f: &dyn Fn(&mut GameResult)| {
            let mut e = g.clone();
            f(&mut e);
            refused(&e, 300).unwrap()
        };
        assert_eq!(
            edit(&|e| e.stats.winner = None),
            "game 0: it records resignation without a winner"
        );
        assert_eq!(
            edit(&|e| e.stats.winner_seat = Some(0)),
            "game 0: it records resignation won by g in seat 0, where g holds seat 1"
        );
        assert_eq!(
            edit(&|e| e.stats.winner = Some('x')),
            "game 0: it records resignation won by `x`, not a player's colour"
        );
        assert_eq!(
            edit(&|e| e.stats.reason = Reason::Agreement),
            "game 0: it records agreement (a draw) with a winner"
        );
        // Its branching is checked as any game's.
        assert!(edit(&|e| e.stats.branching_sum += 1).contains("legal moves in all"),);
        // Over by the rules (here the ply cap, 3 plies): an ending people
        // gave after it is refused, naming the rules' ending.
        assert_eq!(
            refused(&g, 3).unwrap(),
            "game 0: its moves end it by ply-cap, where it records resignation won by g"
        );
        assert_eq!(
            by_people(3, (Some(1), Reason::Resignation), 3).unwrap_err(),
            "it records resignation but the rules ended it by ply-cap"
        );
        // And a game neither over nor ended by people is no game.
        let mut going = g.clone();
        going.stats.reason = Reason::Stalemate;
        assert_eq!(
            refused(&going, 300).unwrap(),
            "game 0: the game is not over after its 3 recorded plies"
        );
    }
}
