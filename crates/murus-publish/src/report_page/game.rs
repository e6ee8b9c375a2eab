//! The report's representative game: three positions of it, the game as
//! an animation, the engine's score after each move with the depth each
//! search reached, and the game in record notation annotated as `murus
//! analyze --game` annotates it.

use std::fmt::Write as _;

use murus_engine::record::Token;
use murus_engine::{Move, Position, Record, RecordMove, Variant};
use murus_report::designer::{DesignerReport, GameSection, PROVEN_CP};

use super::{Num, base64, open};
use crate::diagram::{Diagram, GameGif};
use crate::html::{escape, figure};

/// The moves of a game in notation, read from `v`'s start.
fn read_moves(v: &Variant, texts: &[String]) -> Option<(Vec<Move>, Vec<Position>)> {
    let mut pos = v.start();
    let mut moves = Vec::new();
    let mut positions = vec![pos];
    for t in texts {
        let m = v.parse_move(&pos, t).ok()?;
        pos = v.play(&pos, m);
        moves.push(m);
        positions.push(pos);
    }
    Some((moves, positions))
}

pub(super) fn game_section(b: &mut String, v: &Variant, r: &DesignerReport) {
    let Some(g) = &r.game else {
        return;
    };
    let Some((moves, positions)) = read_moves(v, &g.moves) else {
        return;
    };
    open(b, "game", "A representative game", &g.answer);
    // The strip: after the random openings, when the winner became clear,
    // and the end.
    let mut shown: Vec<(usize, &str)> = vec![(g.openings as usize, "After the random openings")];
    if let Some(at) = g.clear_at
        && at > g.openings as usize
        && at < moves.len()
    {
        shown.push((at, "The winner's advantage becomes clear"));
    }
    shown.push((moves.len(), "The end"));
    shown.dedup_by_key(|s| s.0);
    b.push_str("<div class=\"figures\">\n");
    for (i, title) in shown {
        let Some(&pos) = positions.get(i) else {
            continue;
        };
        let mut d = Diagram::new(v, pos).coordinates(true);
        if let Some(&m) = i.checked_sub(1).and_then(|p| moves.get(p)) {
            d = d.highlight_move(m);
        }
        let view = match (g.scores.get(i).copied().flatten(), v.outcome(&pos)) {
            (_, Some(o)) => format!("{}.", v.describe_outcome_at(o, &pos)),
            (None, None) => "The engine's view: not searched.".to_string(),
            (Some(s), None) => {
                let score = if s.abs() >= PROVEN_CP {
                    format!(
                        "a proven {} for the first player",
                        if s > 0 { "win" } else { "loss" }
                    )
                } else {
                    format!(
                        "{} stones for the first player",
                        Num::stones(&format!("game.scores.{i}"), s)
                    )
                };
                match g.depths.get(i) {
                    Some(&d) if d > 0 => format!(
                        "The engine's view: {score}, searched to depth {}.",
                        Num::int(&format!("game.depths.{i}"), d)
                    ),
                    _ => format!("The engine's view: {score}."),
                }
            }
        };
        let _ = writeln!(
            b,
            "<figure data-kind=\"strip\">\n<h3>{}</h3>\n{}<figcaption>{view}</figcaption>\n</figure>",
            escape(title),
            d.to_svg()
        );
    }
    b.push_str("</div>\n");
    if let Ok(gif) = GameGif::new(v, v.start(), &moves).delay(80).encode() {
        let _ = writeln!(
            b,
            "<figure class=\"wide\" data-kind=\"animation\"><img alt=\"the game, move by move\" style=\"max-width:100%\" src=\"data:image/gif;base64,{}\"><figcaption>The whole game, one frame a move.</figcaption></figure>",
            base64(&gif)
        );
    }
    b.push_str(&score_chart(v, g));
    let record = g.record.clone().unwrap_or_else(|| Record {
        variant: v.name().to_string(),
        moves: g.moves.iter().map(RecordMove::new).collect(),
        ..Record::default()
    });
    let _ = writeln!(
        b,
        "<h3>The game</h3>\n<p class=\"movetext\" data-kind=\"record\">{}</p>",
        movetext_html(v, &record)
    );
    let _ = writeln!(
        b,
        "<p class=\"note\">Each position searched with alpha-beta ({} nodes); after each move, the score of the position it leads to (the first player's view, in stones) and the depth its search reached, as <code>murus analyze --game</code> writes them; <code>??</code> marks a blunder, with the better line found in brackets. The first moves are the random openings every game of the check starts with.</p>\n</section>",
        Num::int("game.nodes", g.nodes)
    );
}

/// A record's movetext as HTML: numbered moves, glyphs, comments and
/// variations in brackets, as [`Record::write`] numbers them.
fn movetext_html(v: &Variant, record: &Record) -> String {
    let mut out = String::new();
    for token in record.movetext(v) {
        match token {
            Token::Move {
                number,
                text,
                glyph,
            } => {
                out.push_str("<span class=\"mv\">");
                if let Some(n) = number {
                    let _ = write!(out, "{} ", escape(&n));
                }
                out.push_str(&escape(&text));
                if let Some(g) = glyph {
                    let _ = write!(out, "<b class=\"glyph\">{}</b>", escape(g.as_str()));
                }
                out.push_str("</span> ");
            }
            Token::Comment(c) => {
                let _ = write!(out, "<span class=\"comment\">{}</span> ", escape(&c));
            }
            Token::Open => out.push_str("<span class=\"variation\">("),
            Token::Close => {
                if out.ends_with(' ') {
                    out.pop();
                }
                out.push_str(")</span> ");
            }
            Token::Result(r) => {
                let _ = write!(out, "<span class=\"result\">{}</span>", escape(&r));
            }
        }
    }
    out
}

/// The scale of the chart in stones: the least of 2, 5 and 10 that holds
/// every evaluation (a proven result is drawn at the edge).
fn chart_scale(scores: &[Option<i32>]) -> f64 {
    let most = scores
        .iter()
        .flatten()
        .filter(|s| s.abs() < PROVEN_CP)
        .map(|s| f64::from(s.abs()) / 100.0)
        .fold(0.0, f64::max);
    [2.0, 5.0, 10.0]
        .into_iter()
        .find(|&t| most <= t)
        .unwrap_or(10.0)
}

/// The step between labelled move numbers: the least of 1, 2, 5, 10, 20,
/// 50… that leaves at most ten labels.
fn move_step(moves: usize) -> usize {
    [1, 2, 5]
        .iter()
        .flat_map(|s| [1, 10, 100, 1000].map(|m| s * m))
        .filter(|s| moves.div_ceil(*s) <= 10)
        .min()
        .unwrap_or(1000)
}

/// The score after each move with axes (stones; move numbers), the depth
/// each search reached as bars beneath, and the moment the winner became
/// clear.
fn score_chart(v: &Variant, g: &GameSection) -> String {
    let (w, left, right) = (520.0, 46.0, 12.0);
    let (top, mid_h) = (12.0, 120.0);
    let (depth_top, depth_h) = (top + mid_h + 26.0, 36.0);
    let h = depth_top + depth_h + 30.0;
    let scores = &g.scores;
    let plies = scores.len().max(2) - 1;
    let x = |i: usize| left + (w - left - right) * i as f64 / plies as f64;
    let scale = chart_scale(scores);
    let y = |cp: i32| {
        let stones = (f64::from(cp) / 100.0).clamp(-scale, scale);
        top + mid_h / 2.0 - mid_h / 2.0 * stones / scale
    };
    let grey = "#999";
    let mut svg = format!(
        "<svg class=\"chart\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"the score after each move, and the depth of each search\" font-size=\"10\" fill=\"#333\">"
    );
    // The score's axis: stones, from the first player's view.
    for k in [-1.0, -0.5, 0.0, 0.5, 1.0] {
        let value = k * scale;
        let yy = top + mid_h / 2.0 - mid_h / 2.0 * k;
        let label = if value == 0.0 {
            "0".to_string()
        } else {
            format!("{value:+}")
        };
        let dash = if value == 0.0 {
            ""
        } else {
            " stroke-dasharray=\"2 3\""
        };
        let _ = write!(
            svg,
            "<line x1=\"{left}\" y1=\"{yy:.1}\" x2=\"{:.1}\" y2=\"{yy:.1}\" stroke=\"{grey}\" stroke-width=\"0.6\"{dash}/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text>",
            w - right,
            left - 4.0,
            yy + 3.5
        );
    }
    let _ = write!(
        svg,
        "<text transform=\"translate(11 {:.1}) rotate(-90)\" text-anchor=\"middle\">stones</text>",
        top + mid_h / 2.0
    );
    // Move numbers under the score, and the depth's own axis.
    let n = v.player_count().max(1);
    let rounds = plies.div_ceil(n);
    let step = move_step(rounds);
    for round in (1..=rounds.max(1)).filter(|r| *r == 1 || r % step == 0) {
        let ply = (round - 1) * n;
        let xx = x(ply.min(plies));
        let _ = write!(
            svg,
            "<line x1=\"{xx:.1}\" y1=\"{0:.1}\" x2=\"{xx:.1}\" y2=\"{1:.1}\" stroke=\"{grey}\"/><text x=\"{xx:.1}\" y=\"{2:.1}\" text-anchor=\"middle\">{round}</text>",
            top + mid_h,
            top + mid_h + 4.0,
            top + mid_h + 15.0
        );
    }
    let _ = write!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">move</text>",
        w - right,
        top + mid_h + 15.0
    );
    let deepest = g.depths.iter().copied().max().unwrap_or(0).max(1);
    let bar = ((w - left - right) / (plies + 1) as f64 * 0.7).max(0.5);
    for (i, &d) in g.depths.iter().enumerate() {
        if d == 0 {
            continue;
        }
        let bh = depth_h * f64::from(d) / f64::from(deepest);
        let _ = write!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{bar:.1}\" height=\"{bh:.1}\" fill=\"#b8ad98\"><title>ply {i}: depth {d}</title></rect>",
            x(i) - bar / 2.0,
            depth_top + depth_h - bh
        );
    }
    let _ = write!(
        svg,
        "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke=\"{grey}\" stroke-width=\"0.6\"/><text x=\"{2:.1}\" y=\"{0:.1}\" text-anchor=\"end\">0</text><text x=\"{2:.1}\" y=\"{3:.1}\" text-anchor=\"end\">{deepest}</text><text transform=\"translate(11 {4:.1}) rotate(-90)\" text-anchor=\"middle\">depth</text>",
        depth_top + depth_h,
        w - right,
        left - 4.0,
        depth_top + 7.0,
        depth_top + depth_h / 2.0
    );
    // The score's line, a point a position with its move and depth.
    let mut path = String::new();
    let mut points = String::new();
    for (i, s) in scores.iter().enumerate() {
        let Some(s) = *s else {
            continue;
        };
        let (xx, yy) = (x(i), y(s));
        let _ = write!(
            path,
            "{}{xx:.1},{yy:.1} ",
            if path.is_empty() { "M" } else { "L" }
        );
        let value = if s.abs() >= PROVEN_CP {
            format!("a proven {}", if s > 0 { "win" } else { "loss" })
        } else {
            format!("{:+.2}", f64::from(s) / 100.0)
        };
        let after = match i.checked_sub(1).and_then(|p| g.moves.get(p)) {
            Some(m) => format!("after {} {m}", ply_number(i - 1, n)),
            None => "the start".to_string(),
        };
        let depth = g.depths.get(i).copied().unwrap_or(0);
        let _ = write!(
            points,
            "<circle cx=\"{xx:.1}\" cy=\"{yy:.1}\" r=\"1.6\" fill=\"#7a3b2e\"><title>{after}: {value}, depth {depth}</title></circle>"
        );
    }
    let _ = write!(
        svg,
        "<path d=\"{path}\" fill=\"none\" stroke=\"#7a3b2e\" stroke-width=\"1.6\"/>{points}"
    );
    if let Some(at) = g.clear_at {
        let _ = write!(
            svg,
            "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{1:.1}\" stroke=\"#2e5b7a\"/>",
            x(at),
            top + mid_h
        );
    }
    svg.push_str("</svg>");
    figure(
        " class=\"wide\" data-kind=\"scores\"",
        None,
        &svg,
        &format!(
            "The score after each move, the first player's view, in stones (up to {scale} either way; a proven result at the edge), by move number; beneath, the depth each search reached (deepest {deepest}); the blue line marks where the winner's advantage became clear."
        ),
    )
}

/// The number of the move played at `ply` (0: the first), as a record
/// writes it: `12.` for the round's first player, `12...` for the others.
fn ply_number(ply: usize, players: usize) -> String {
    let round = ply / players + 1;
    if ply % players == 0 {
        format!("{round}.")
    } else {
        format!("{round}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_movetext_numbers_moves_as_the_record_does_with_glyphs_comments_and_variations() {
        let v = Variant::standard();
        let mut blunder = RecordMove::new("d5-d3");
        blunder.glyph = Some(murus_engine::Glyph::Blunder);
        blunder.comment = Some("+0.19 (depth 3)".into());
        let mut better = RecordMove::new("d5-d7");
        better.comment = Some("better: Romans win in 1 ply (depth 1)".into());
        blunder.variations = vec![vec![better]];
        let record = Record {
            variant: "standard".into(),
            start: Some("g2g2g21g2g2g2g2/8/3r24/8/8/8/r2r2r21r2r2r2r2 r".into()),
            moves: vec![blunder, RecordMove::new("a7-a5")],
            ..Record::default()
        };
        let html = movetext_html(&v, &record);
        assert_eq!(
            html,
            "<span class=\"mv\">1. d5-d3<b class=\"glyph\">??</b></span> <span class=\"comment\">+0.19 (depth 3)</span> <span class=\"variation\">(<span class=\"mv\">1. d5-d7</span> <span class=\"comment\">better: Romans win in 1 ply (depth 1)</span>)</span> <span class=\"mv\">1... a7-a5</span> <span class=\"result\">*</span>"
        );
    }

    #[test]
    fn the_chart_scale_holds_every_evaluation_and_leaves_proven_results_at_the_edge() {
        assert_eq!(chart_scale(&[Some(150), None, Some(-199)]), 2.0);
        assert_eq!(chart_scale(&[Some(150), Some(PROVEN_CP), Some(-201)]), 5.0);
        assert_eq!(chart_scale(&[Some(2_000)]), 10.0);
        assert_eq!(move_step(9), 1);
        assert_eq!(move_step(27), 5);
        assert_eq!(move_step(150), 20);
        assert_eq!(ply_number(0, 2), "1.");
        assert_eq!(ply_number(53, 2), "27...");
    }
}
