//! A whole game reviewed: each position of a line searched for its side to
//! move, the moves that threw much away (blunders), and the record written
//! back annotated: a score after each move, `??` on each blunder with the
//! better line as a variation. The studio's "Analyze game" and `murus
//! analyze --game` share it.
//!
//! # Whose point of view
//! A search scores a position for its side to move. With two players the
//! scores written are the first player's (`+0.35` is good for the first
//! player whoever is to move); with three or four, each position's side to
//! move's, and no blunders are marked.

use murus_engine::job::Handler;
use murus_engine::{Game, Glyph, Move, Position, Record, RecordMove, Variant};

pub use crate::analysis::negate;
use crate::analysis::{Analyser, Info, Limits, Score};

/// A move that costs its mover more than this (centi-stones, 100: about a
/// stone), or turns a proven win into something less, or a position not
/// proven lost into a proven loss, is a blunder.
pub const BLUNDER_CP: i32 = 150;

/// Whether a move that takes its mover's score from `before` to `after`
/// is a blunder: it throws away a proven win, walks into a proven loss, or
/// costs more than [`BLUNDER_CP`].
pub fn is_blunder(before: Score, after: Score) -> bool {
    match (before, after) {
        (Score::Win(_), Score::Win(_)) => false,
        (Score::Win(_), _) => true,
        (Score::Loss(_), _) => false,
        (_, Score::Loss(_)) => true,
        (Score::Cp(b), Score::Cp(a)) => b - a > BLUNDER_CP,
        (Score::Cp(_), Score::Win(_)) => false,
    }
}

/// A two-player score for `mover` seen by `viewer`.
pub fn for_player(s: Score, mover: usize, viewer: usize) -> Score {
    if mover == viewer { s } else { negate(s) }
}

/// A score seen by `viewer`, in words: `+0.35` (stones), `Romans win in 3
/// plies`, `Gauls win in 1 ply` (two players), `Blue lose in 2 plies`.
pub fn score_text(s: Score, viewer: usize, variant: &Variant) -> String {
    let name = |p: usize| variant.player_name(p);
    let plies = |n: u32| {
        if n == 1 {
            "1 ply".to_string()
        } else {
            format!("{n} plies")
        }
    };
    match s {
        Score::Cp(v) => format!("{:+.2}", f64::from(v) / 100.0),
        Score::Win(n) => format!("{} win in {}", name(viewer), plies(n)),
        Score::Loss(n) if variant.player_count() == 2 => {
            format!("{} win in {}", name(1 - viewer.min(1)), plies(n))
        }
        Score::Loss(n) => format!("{} lose in {}", name(viewer), plies(n)),
    }
}

/// A move that lost much of its mover's evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blunder {
    /// The move's index in the line (0: the first move); the position
    /// before it is ply `index`, after it `index + 1`.
    pub index: usize,
    /// The player who played it.
    pub mover: usize,
    /// The mover's score before the move.
    pub before: Score,
    /// The mover's score after it.
    pub after: Score,
}

/// The blunders of a line (none with more than two players): `line[i]` is
/// the review of position `i` (the start, then after each move) and
/// `moves[i]` the move played from it. A move is a blunder when
/// [`is_blunder`] holds between its mover's scores before and after it,
/// except where that cannot be so or is not known:
/// - a forced move (the only legal one) is never a blunder: there was no
///   choice;
/// - the move the search found best is never a blunder;
/// - a proven win is thrown away only if the search after the move went
///   deep enough to have seen it go on (at least the plies the win still
///   needed): a shallower search that finds no win has not shown that the
///   move lost it.
pub fn blunders(line: &[Reviewed], moves: &[Move], players: usize) -> Vec<Blunder> {
    if players != 2 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (index, &played) in moves.iter().enumerate() {
        let (Some(b), Some(a)) = (line.get(index), line.get(index + 1)) else {
            break;
        };
        let (Some(before), Some(after)) = (b.score, a.score) else {
            continue;
        };
        if b.legal == 1 || b.pv.first() == Some(&played) {
            continue;
        }
        let after = for_player(after, a.mover, b.mover);
        let unseen = match (before, after) {
            (Score::Win(n), Score::Cp(_)) => !a.over && a.depth + 1 < n,
            _ => false,
        };
        if is_blunder(before, after) && !unseen {
            out.push(Blunder {
                index,
                mover: b.mover,
                before,
                after,
            });
        }
    }
    out
}

/// One position of a line, reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reviewed {
    /// The player to move.
    pub mover: usize,
    /// Its score for the side to move: the search's, or the result's where
    /// the game is over (`None`: not searched, or the search was stopped
    /// first).
    pub score: Option<Score>,
    /// The depth the search reached (0 where the game is over or nothing
    /// was searched).
    pub depth: u32,
    /// The best line found, best move first (empty where the game is over).
    pub pv: Vec<Move>,
    /// The position's legal moves (1: the move is forced; 0 where the game
    /// is over).
    pub legal: usize,
    /// The game is over here: its score is the result's.
    pub over: bool,
}

impl Reviewed {
    /// A position of `mover`'s not searched yet.
    pub fn unsearched(mover: usize) -> Reviewed {
        Reviewed {
            mover,
            score: None,
            depth: 0,
            pv: Vec::new(),
            legal: 0,
            over: false,
        }
    }
}

/// Stops a search when the review's handler says so.
struct StopWith<'a>(&'a dyn Handler<usize>);

impl Handler<Info> for StopWith<'_> {
    fn stop(&self) -> bool {
        self.0.stop()
    }
}

/// Searches one position of a game for its side to move within `limits`
/// (a finished game scores 0 plies to its end, with no line).
pub fn review_position(
    analyser: &mut Analyser,
    game: &Game,
    limits: Limits,
    handler: &dyn Handler<Info>,
) -> Reviewed {
    let v = game.variant();
    let mover = v.turn(game.position());
    let mut out = Reviewed::unsearched(mover);
    match game.outcome() {
        Some(o) => {
            out.over = true;
            out.score = Some(match o.winner {
                Some(w) if w == mover => Score::Win(0),
                Some(_) => Score::Loss(0),
                None => Score::Cp(0),
            });
        }
        None => {
            out.legal = game.legal_moves().len();
            let seed = v.hash(game.position());
            if let Some(f) = analyser.analyse(game, limits, seed, handler) {
                out.score = Some(f.score);
                out.depth = f.depth;
                out.pv = f.pv;
            }
        }
    }
    out
}

/// Searches every position of the line `moves` from `start`, in order, for
/// its side to move, within `limits` each; `handler` may stop the review and
/// hears how many positions are done. The positions not reached (stopped,
/// or after a move that is not legal) are left out.
pub fn review_line(
    analyser: &mut Analyser,
    v: &Variant,
    start: Position,
    moves: &[Move],
    limits: Limits,
    handler: &dyn Handler<usize>,
) -> Vec<Reviewed> {
    let mut game = Game::from_position(v, start);
    let mut out = Vec::with_capacity(moves.len() + 1);
    for index in 0..=moves.len() {
        if handler.stop() {
            break;
        }
        out.push(review_position(analyser, &game, limits, &StopWith(handler)));
        handler.progress(&(index + 1));
        if let Some(&m) = moves.get(index)
            && !game.play(m)
        {
            break;
        }
    }
    out
}

/// Writes a review into the record of its main line: each move's comment
/// gets the score after it with the depth searched (`+0.35 (depth 9)`;
/// the first player's view with two players, else the side to move's),
/// but for a move that ends the game (the record's result says how), and
/// each blunder ([`blunders`]) gets `??` and, as its first variation, the
/// best line from the position before it with its score.
pub fn annotate(record: &mut Record, v: &Variant, review: &[Reviewed]) {
    let players = v.player_count();
    let viewer = |mover: usize| if players == 2 { 0 } else { mover };
    let shown = |s: Score, mover: usize, depth: u32| {
        let view = viewer(mover);
        let s = if players == 2 {
            for_player(s, mover, view)
        } else {
            s
        };
        format!("{} (depth {depth})", score_text(s, view, v))
    };
    for (i, m) in record.moves.iter_mut().enumerate() {
        let Some(after) = review.get(i + 1) else {
            break;
        };
        if let Some(s) = after.score.filter(|_| !after.over) {
            add_comment(m, &shown(s, after.mover, after.depth));
        }
    }
    let played: Vec<Move> = record
        .replay(v)
        .map(|g| g.moves().to_vec())
        .unwrap_or_default();
    for b in blunders(review, &played, players) {
        let before = &review[b.index];
        let Some(m) = record.moves.get_mut(b.index) else {
            continue;
        };
        m.glyph = Some(Glyph::Blunder);
        let played = m.text.clone();
        let line: Vec<RecordMove> = before
            .pv
            .iter()
            .map(|&x| RecordMove::new(v.move_to_string(x)))
            .collect();
        if let Some(first) = line.first().filter(|f| f.text != played) {
            let mut line = line.clone();
            let mut best = first.clone();
            let better = shown(b.before, b.mover, before.depth);
            add_comment(&mut best, &format!("better: {better}"));
            line[0] = best;
            m.variations.insert(0, line);
        }
    }
}

fn add_comment(m: &mut RecordMove, text: &str) {
    match &mut m.comment {
        Some(c) => {
            c.push(' ');
            c.push_str(text);
        }
        None => m.comment = Some(text.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Standard, Romans to move, a Roman tower on d5: `d5-d7` breaks
    /// through at once.
    const ONE_MOVE_FROM_A_WIN: &str = "g2g2g21g2g2g2g2/8/3r24/8/8/8/r2r2r21r2r2r2r2 r";

    #[test]
    fn a_move_that_lets_a_win_go_is_marked_with_the_win_as_a_variation() {
        let v = Variant::standard();
        let start = v.parse_position(ONE_MOVE_FROM_A_WIN).unwrap();
        let mut game = Game::from_position(&v, start);
        let moves: Vec<Move> = ["d5-d3", "a7-a5"]
            .iter()
            .map(|t| game.play_str(t).unwrap())
            .collect();
        let mut analyser = Analyser::new(4);
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let review = review_line(&mut analyser, &v, start, &moves, limits, &());
        assert_eq!(review.len(), 3);
        assert_eq!(review[0].score, Some(Score::Win(1)));
        let mut record = Record {
            variant: "standard".into(),
            start: Some(ONE_MOVE_FROM_A_WIN.into()),
            moves: vec![RecordMove::new("d5-d3"), RecordMove::new("a7-a5")],
            ..Record::default()
        };
        annotate(&mut record, &v, &review);
        let blunder = &record.moves[0];
        assert_eq!(blunder.glyph, Some(Glyph::Blunder));
        let better = &blunder.variations[0][0];
        assert_eq!(better.text, "d5-d7");
        assert_eq!(
            better.comment.as_deref(),
            Some("better: Romans win in 1 ply (depth 1)")
        );
        assert!(blunder.comment.is_some(), "the score after the move");
        // The annotated record is a valid record of the game.
        let text = record.write(&v);
        let (back, _) = murus_engine::record::read(&text, None).unwrap();
        assert_eq!(back, record);
    }

    #[test]
    fn blunders_are_big_drops_lost_wins_and_walks_into_a_loss() {
        assert!(is_blunder(Score::Win(3), Score::Cp(900)));
        assert!(!is_blunder(Score::Win(3), Score::Win(5)));
        assert!(is_blunder(Score::Cp(0), Score::Loss(4)));
        assert!(!is_blunder(Score::Loss(2), Score::Loss(1)));
        assert!(is_blunder(Score::Cp(100), Score::Cp(-51)));
        assert!(!is_blunder(Score::Cp(100), Score::Cp(-50)));
        let at = |mover, score| Reviewed {
            score: Some(score),
            depth: 4,
            legal: 10,
            ..Reviewed::unsearched(mover)
        };
        let v = Variant::standard();
        let m: Vec<Move> = v.legal_moves(&v.start())[..2].to_vec();
        let line = [
            at(0, Score::Cp(0)),
            at(1, Score::Win(2)),
            at(2, Score::Cp(0)),
        ];
        assert!(blunders(&line, &m, 3).is_empty(), "none with three players");
        let line = [at(0, Score::Cp(0)), at(1, Score::Win(2))];
        assert_eq!(blunders(&line, &m[..1], 2).len(), 1, "a walk into a loss");
    }
}
