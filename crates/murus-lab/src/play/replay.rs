//! A kept game checked against the rules: its moves replayed from the
//! start, each legal in turn, and its record (the end, the length, the
//! branching) what the replay gives. A line of `games.jsonl` edited by
//! hand, torn in the middle or written by other rules is caught before a
//! resumed run or a merge counts it.

use std::collections::{HashMap, HashSet};

use murus_engine::{DrawTracker, Engine, EngineTask, Move, MoveKind, Reason, Variant, Word};

use crate::record::{GameResult, reason_key};

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
    let mut pos = e.start();
    let mut line = DrawTracker::new(e.rules().draw, pos.hash()).with_ply_cap(Some(max_plies));
    let (mut sum, mut max, mut forced) = (0u64, 0u32, 0u32);
    let mut swaps = 0usize;
    for (ply, text) in g.moves.iter().enumerate() {
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
    let Some(end) = e.judge(&pos, moves.len(), &line) else {
        return Err(format!(
            "the game is not over after its {} recorded plies",
            g.moves.len()
        ));
    };
    let winner = end.winner.map(|w| v.letter(w));
    // The seat that holds the winning colour at the end: a pie swap
    // exchanges the first two seats' colours.
    let winner_seat = end.winner.map(|w| {
        let start_colour = if swaps % 2 == 1 && w < 2 { 1 - w } else { w };
        g.colours
            .iter()
            .position(|&c| v.player_by_letter(c) == Some(start_colour))
            .unwrap_or(players)
    });
    let said = |r: Reason, w: Option<char>| {
        format!(
            "{}{}",
            reason_key(r),
            w.map_or_else(String::new, |w| format!(" won by {w}"))
        )
    };
    if winner != s.winner || end.reason != s.reason || winner_seat != s.winner_seat {
        return Err(format!(
            "its moves end it by {}, where it records {}",
            said(end.reason, winner),
            said(s.reason, s.winner)
        ));
    }
    if (sum, max, forced) != (s.branching_sum, s.branching_max, s.forced) {
        return Err(format!(
            "its moves offer {sum} legal moves in all (at most {max}, {forced} forced), where it records {} ({}, {})",
            s.branching_sum, s.branching_max, s.forced
        ));
    }
    Ok(())
}
