//! The course of play on the report's page: the strongest level's games
//! by ply (curves of the median and the middle half), on the board (heat
//! maps drawn with [`Diagram::shade`]) and how every level's games end.
//! Every number outside the charts and the boards is a [`Num`] keyed by
//! its path in `report.json`.

use std::fmt::Write as _;

use murus_engine::Variant;
use murus_report::designer::{
    Band, BoardSection, CurvesSection, DesignerReport, EndingsSection, reason_words,
};

use super::chart::{
    DIVERGING, Frame, REASON_COLOURS, SEQUENTIAL, along, player_colour, range, scale_key,
    score_colour,
};
use super::{Num, open};
use crate::diagram::{Diagram, Shade};
use crate::html::{escape, figure};

/// The style of these sections, after the page's: charts two to a row,
/// boards three (one to a row on a phone).
pub(super) const CSS: &str = r#"
figure.half { width: 48%; }
figure.third { width: 31.5%; }
figure.third h3 { font-size: 10pt; }
figure.third figcaption { font-size: 8.5pt; }
@media (max-width: 600px) { figure.half, figure.third { width: 100%; } }
"#;

/// The course of play: the curves, the games still going, and a table.
pub(super) fn curves_section(b: &mut String, v: &Variant, r: &DesignerReport) {
    let Some(c) = &r.curves else {
        return;
    };
    open(b, "curves", "The course of play", &c.answer);
    let _ = writeln!(
        b,
        "<p>The {} games of {}, the strongest level the balance check played (the play a designer cares most about), followed ply by ply: at each ply, over the games still going there, the median (the line) and the middle half (between the quartiles, the band). The curves stop where fewer than {} games go on.</p>",
        Num::int("curves.games", c.games),
        escape(&c.level),
        Num::int("curves.min_going", c.min_going)
    );
    b.push_str("<div class=\"figures\">\n");
    let shown = c.moves.median.len();
    // Every chart spans the longest game, so that they line up.
    let last = c.going.len().saturating_sub(1);
    if shown > 0 {
        let (lo, hi) = range(&[&c.moves], 1.0);
        let mut f = Frame::new("legal moves by ply", "legal moves", last, lo.min(0.0), hi);
        f.band(&c.moves, 1.0, "#7a3b2e", "legal moves", false);
        b.push_str(&figure(
            " class=\"half\" data-kind=\"curve-moves\"",
            None,
            &f.finish(),
            "The legal moves of the side to move.",
        ));
        let bands: Vec<&Band> = c.material.iter().collect();
        let (_, hi) = range(&bands, 1.0);
        let mut f = Frame::new("stones by ply", "stones on the board", last, 0.0, hi);
        let mut names = Vec::new();
        for (p, band) in c.material.iter().enumerate() {
            f.band(band, 1.0, player_colour(p), &v.player_name(p), p > 0);
            names.push((v.player_name(p), player_colour(p)));
        }
        f.key(&names);
        b.push_str(&figure(
            " class=\"half\" data-kind=\"curve-material\"",
            None,
            &f.finish(),
            "Each player's material: the stones it has on the board (a stack of three is three stones).",
        ));
        let (lo, hi) = range(&[&c.score], 0.01);
        let mut f = Frame::new(
            "the static score by ply",
            "score (stones)",
            last,
            lo.min(0.0),
            hi.max(0.0),
        );
        f.band(&c.score, 0.01, "#2e5b7a", "score", false);
        b.push_str(&figure(
            " class=\"half\" data-kind=\"curve-score\"",
            None,
            &f.finish(),
            "The score: the bots' evaluation of the position without a search, the first player's lead in stones.",
        ));
    }
    let most = c.going.first().copied().unwrap_or(0) as f64;
    let mut f = Frame::new(
        "games still going by ply",
        "games going",
        last,
        0.0,
        most.max(1.0),
    );
    let mut steps = String::new();
    for (k, &n) in c.going.iter().enumerate() {
        let _ = write!(
            steps,
            "{}{:.1},{:.1} ",
            if k == 0 { "M" } else { "L" },
            f.x(k as f64),
            f.y(n as f64)
        );
    }
    let _ = write!(
        f.svg,
        "<path d=\"{steps}\" fill=\"none\" stroke=\"#555\" stroke-width=\"2\"/>"
    );
    if shown > 0 && shown < c.going.len() {
        let x = f.x((shown - 1) as f64);
        let _ = write!(
            f.svg,
            "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#7a3b2e\" stroke-dasharray=\"4 3\"/>",
            f.top,
            f.h - f.bottom
        );
    }
    b.push_str(&figure(
        " class=\"half\" data-kind=\"curve-going\"",
        None,
        &f.finish(),
        "How many games are still going at each ply; the dashed line is where the other curves stop.",
    ));
    b.push_str("</div>\n");
    if !c.table.is_empty() {
        curves_table(b, v, c);
    }
    let _ = writeln!(
        b,
        "<p class=\"note\">How: every game replayed from its moves; at each ply, for each game not yet over, the number of legal moves, each player's stones on the board and the score, the static evaluation the bots use (<code>{}</code>) with mobility and without the side to move's bonus, the first player's lead, no search. The middle half and the median are nearest-rank percentiles. The first {} plies of every game are the random openings of the balance check.</p>\n</section>",
        escape(&c.evaluation),
        Num::int("curves.openings", c.openings)
    );
}

/// The curves at a few plies.
fn curves_table(b: &mut String, v: &Variant, c: &CurvesSection) {
    b.push_str("<div class=\"scroll\"><table>\n<tr><th class=\"r\">ply</th><th class=\"r\">games going</th><th class=\"r\">legal moves</th>");
    for p in 0..c.material.len() {
        let _ = write!(
            b,
            "<th class=\"r\">stones, {}</th>",
            escape(&v.player_name(p))
        );
    }
    b.push_str("<th class=\"r\">score (stones)</th></tr>\n");
    let band = |key: &str, band: &Band, k: usize, scale: Option<f64>| {
        let cell = |which: &str, v: &[i32]| match scale {
            Some(_) => Num::stones(&format!("{key}.{which}.{k}"), v[k]),
            None => Num::int(&format!("{key}.{which}.{k}"), v[k]),
        };
        format!(
            "{} ({}–{})",
            cell("median", &band.median),
            cell("p25", &band.p25),
            cell("p75", &band.p75)
        )
    };
    for (i, &ply) in c.table.iter().enumerate() {
        let k = ply as usize;
        let _ = write!(
            b,
            "<tr><td class=\"r\">{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td>",
            Num::int(&format!("curves.table.{i}"), ply),
            Num::int(&format!("curves.going.{k}"), c.going[k]),
            band("curves.moves", &c.moves, k, None)
        );
        for (p, m) in c.material.iter().enumerate() {
            let _ = write!(
                b,
                "<td class=\"r\">{}</td>",
                band(&format!("curves.material.{p}"), m, k, None)
            );
        }
        let _ = writeln!(
            b,
            "<td class=\"r\">{}</td></tr>",
            band("curves.score", &c.score, k, Some(0.01))
        );
    }
    b.push_str("</table></div>\n<p class=\"note\">Each cell: the median (the lower and upper quartile).</p>\n");
}

/// A board figure: its heading, the board, the key, the caption.
fn board_figure(b: &mut String, kind: &str, heading: &str, board: &str, key: &str, caption: &str) {
    let _ = writeln!(
        b,
        "<figure class=\"third\" data-kind=\"{kind}\">\n<h3>{}</h3>\n{board}{key}<figcaption>{caption}</figcaption>\n</figure>",
        escape(heading)
    );
}

/// A percentage for a cell: whole numbers.
fn whole_percent(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// The heat maps: coverage, where games are won, the first moves.
pub(super) fn board_section(b: &mut String, v: &Variant, r: &DesignerReport) {
    let Some(s) = &r.board else {
        return;
    };
    let g = v.geometry();
    let slots: Vec<Option<usize>> = s.cells.iter().map(|c| g.parse_cell(c)).collect();
    open(b, "board", "On the board", &s.answer);
    let _ = writeln!(
        b,
        "<p>The {} games of {} on the board: how often each cell is occupied over the {} positions of the games (the start and the end included), where the winners' winning moves land, and how the first player fared after each first move.</p>\n<div class=\"figures\">",
        Num::int("board.games", s.games),
        escape(&s.level),
        Num::int("board.positions", s.positions)
    );
    // Coverage: one scale for all (the most occupied cell by anyone).
    let positions = s.positions.max(1) as f64;
    let most = s.occupied.iter().copied().max().unwrap_or(0) as f64 / positions;
    let coverage = |counts: &[u64], whose: &str| {
        let mut d = Diagram::new(v, v.start()).coordinates(true).stacks(false);
        for (i, slot) in slots.iter().enumerate() {
            let Some(slot) = *slot else { continue };
            let share = counts[i] as f64 / positions;
            d = d.shade(
                slot,
                Shade {
                    fill: along(&SEQUENTIAL, share / most.max(1e-9)),
                    text: Some(whole_percent(share)),
                    title: format!(
                        "{}: {whose} in {:.1}% of the positions",
                        s.cells[i],
                        share * 100.0
                    ),
                },
            );
        }
        d.to_svg()
    };
    let key = scale_key(&SEQUENTIAL, "0%", None, &whole_percent(most));
    board_figure(
        b,
        "coverage",
        "Occupied by anyone",
        &coverage(&s.occupied, "occupied"),
        &key,
        "The share of the positions in which the cell holds a stack.",
    );
    for (p, counts) in s.occupied_by.iter().enumerate() {
        let name = v.player_name(p);
        board_figure(
            b,
            "coverage",
            &format!("Occupied by {name}"),
            &coverage(counts, &format!("held by {name}")),
            &key,
            &format!(
                "The share of the positions in which the cell holds a stack of {}.",
                escape(&name)
            ),
        );
    }
    // Where games are won, per winner.
    for (p, (at, &wins)) in s.won_at.iter().zip(&s.wins).enumerate() {
        if wins == 0 {
            continue;
        }
        let name = v.player_name(p);
        let most = at.iter().copied().max().unwrap_or(0).max(1) as f64;
        let mut d = Diagram::new(v, v.start()).coordinates(true).stacks(false);
        for (i, slot) in slots.iter().enumerate() {
            let Some(slot) = *slot else { continue };
            let n = at[i];
            d = d.shade(
                slot,
                Shade {
                    fill: along(&SEQUENTIAL, n as f64 / most),
                    text: (n > 0).then(|| n.to_string()),
                    title: format!("{}: {n} of the {wins} wins of {name}", s.cells[i]),
                },
            );
        }
        let key = scale_key(&SEQUENTIAL, "0", None, &format!("{most:.0} wins"));
        board_figure(
            b,
            "won-at",
            &format!("Where {name} win"),
            &d.to_svg(),
            &key,
            &format!(
                "The cells the winning moves of {} ended on, over their {} wins: each game's last move by the winner.",
                escape(&name),
                Num::int(&format!("board.wins.{p}"), wins)
            ),
        );
    }
    first_moves_figure(b, v, s, &slots);
    b.push_str("</div>\n");
    first_moves_table(b, s);
    b.push_str("<p class=\"note\">How: every game replayed from its moves. A winning move is the winner's last move of the game (the sowing or throw that broke through, the move that stalemated or reduced the loser); its cells are where it ends: the farthest cell of a sowing, a throw's landing cell, the stack a sacrifice hits, both cells of a split.</p>\n</section>\n");
}

/// The first moves on the start: each cell a first move ends on, coloured
/// by the first player's score in the games that opened so, with the
/// number of those games.
fn first_moves_figure(b: &mut String, v: &Variant, s: &BoardSection, slots: &[Option<usize>]) {
    let fair = 1.0 / v.player_count().max(1) as f64;
    let mut by_cell: Vec<(u64, f64, Vec<String>)> = vec![(0, 0.0, Vec::new()); s.cells.len()];
    for f in &s.first_moves {
        for cell in &f.cells {
            if let Some(i) = s.cells.iter().position(|c| c == cell) {
                let e = &mut by_cell[i];
                e.0 += f.games;
                e.1 += f.score * f.games as f64;
                e.2.push(format!(
                    "{} ({} games, {:.1}%)",
                    f.first,
                    f.games,
                    f.score * 100.0
                ));
            }
        }
    }
    let mut d = Diagram::new(v, v.start()).coordinates(true);
    for (i, (games, points, moves)) in by_cell.iter().enumerate() {
        let Some(slot) = slots[i] else { continue };
        if *games == 0 {
            continue;
        }
        let score = points / *games as f64;
        d = d.shade(
            slot,
            Shade {
                fill: score_colour(score, fair),
                text: Some(games.to_string()),
                title: format!(
                    "{}: the first player scored {:.1}% in {games} games: {}",
                    s.cells[i],
                    score * 100.0,
                    moves.join(", ")
                ),
            },
        );
    }
    let key = scale_key(&DIVERGING, "0%", Some(&whole_percent(fair)), "100%");
    board_figure(
        b,
        "first-moves",
        "The first moves",
        &d.to_svg(),
        &key,
        "Each cell a first move ended on, with the number of games that opened so and, in colour, the first player's score in them (draws shared).",
    );
}

fn first_moves_table(b: &mut String, s: &BoardSection) {
    if s.first_moves.is_empty() {
        return;
    }
    b.push_str("<div class=\"scroll\"><table>\n<tr><th>first move</th><th>ends on</th><th class=\"r\">games</th><th class=\"r\">first player wins</th><th class=\"r\">draws</th><th class=\"r\">first player's score</th></tr>\n");
    for (i, f) in s.first_moves.iter().enumerate() {
        let k = format!("board.first_moves.{i}");
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td>{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td></tr>",
            escape(&f.first),
            escape(&f.cells.join(", ")),
            Num::int(&format!("{k}.games"), f.games),
            Num::int(&format!("{k}.first_wins"), f.first_wins),
            Num::int(&format!("{k}.draws"), f.draws),
            Num::pct(&format!("{k}.score"), f.score),
        );
    }
    let _ = writeln!(
        b,
        "</table></div>\n<p class=\"note\">The first move of every game of the check is one of its random openings: how often each was played says nothing of its strength, and a few games a move say little of its result (the answer ranks only the moves of at least {} games). The openings section studies each first move with strong replies.</p>",
        Num::int("board.min_first_games", s.min_first_games)
    );
}

/// How games end: a table by level, reason and winner, and a bar a level.
pub(super) fn endings_section(b: &mut String, v: &Variant, r: &DesignerReport) {
    let Some(e) = &r.endings else {
        return;
    };
    open(b, "endings", "How games end", &e.answer);
    let players = v.player_count();
    b.push_str("<div class=\"scroll\"><table>\n<tr><th>level</th><th>how</th>");
    for p in 0..players {
        let _ = write!(b, "<th class=\"r\">{} win</th>", escape(&v.player_name(p)));
    }
    b.push_str("<th class=\"r\">drawn</th><th class=\"r\">games</th></tr>\n");
    for (i, l) in e.levels.iter().enumerate() {
        for (j, end) in l.endings.iter().enumerate() {
            let k = format!("endings.levels.{i}.endings.{j}");
            let level = if j == 0 {
                format!(
                    "{} ({} games)",
                    escape(&l.level),
                    Num::int(&format!("endings.levels.{i}.games"), l.games)
                )
            } else {
                String::new()
            };
            let _ = write!(
                b,
                "<tr><td>{level}</td><td>{}</td>",
                escape(reason_words(&end.reason))
            );
            for (p, n) in end.wins.iter().enumerate() {
                let _ = write!(
                    b,
                    "<td class=\"r\">{}</td>",
                    Num::int(&format!("{k}.wins.{p}"), n)
                );
            }
            let _ = writeln!(
                b,
                "<td class=\"r\">{}</td><td class=\"r\">{}</td></tr>",
                Num::int(&format!("{k}.draws"), end.draws),
                Num::int(&format!("{k}.games"), end.games)
            );
        }
    }
    b.push_str("</table></div>\n");
    b.push_str(&endings_chart(v, e));
    b.push_str("<p class=\"note\">How: the end of every game of the balance check, at each level, as the rules gave it, counted by reason and by the winner's colour (not its seat: the colours rotate among the seats).</p>\n</section>\n");
}

/// A bar a level: its games by reason (the colour) and winner (the first
/// player's part darkest, a draw grey).
fn endings_chart(v: &Variant, e: &EndingsSection) -> String {
    let (w, row, left, right) = (480.0, 26.0, 70.0, 10.0);
    let mut reasons: Vec<&str> = Vec::new();
    for l in &e.levels {
        for end in &l.endings {
            if !reasons.contains(&end.reason.as_str()) {
                reasons.push(&end.reason);
            }
        }
    }
    let key_rows = reasons.len().div_ceil(2);
    let h = row * e.levels.len() as f64 + 16.0 * key_rows as f64 + 16.0;
    let mut svg = format!(
        "<svg class=\"chart\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"how games end by level\">"
    );
    let colour = |reason: &str| {
        let i = reasons.iter().position(|r| *r == reason).unwrap_or(0);
        REASON_COLOURS[i % REASON_COLOURS.len()]
    };
    let players = v.player_count();
    for (i, l) in e.levels.iter().enumerate() {
        let y = 6.0 + row * i as f64;
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"end\" fill=\"#333\">{}</text>",
            left - 6.0,
            y + row / 2.0,
            escape(&l.level)
        );
        let mut x = left;
        let per = (w - left - right) / l.games.max(1) as f64;
        for end in &l.endings {
            let parts = end
                .wins
                .iter()
                .enumerate()
                .map(|(p, &n)| (Some(p), n))
                .chain(std::iter::once((None, end.draws)));
            for (who, n) in parts.filter(|(_, n)| *n > 0) {
                let width = per * n as f64;
                let (fill, opacity) = match who {
                    Some(p) => (
                        colour(&end.reason),
                        1.0 - 0.6 * p as f64 / players.max(2).saturating_sub(1) as f64,
                    ),
                    None => ("#bbbbbb", 1.0),
                };
                let whose = who.map_or("drawn".to_string(), |p| {
                    format!("won by {}", v.player_name(p))
                });
                let _ = write!(
                    svg,
                    "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{width:.1}\" height=\"{:.1}\" fill=\"{fill}\" fill-opacity=\"{opacity:.2}\" stroke=\"#fff\" stroke-width=\"0.5\"><title>{}: {}, {whose}: {n} of {} games</title></rect>",
                    row - 8.0,
                    escape(&l.level),
                    escape(reason_words(&end.reason)),
                    l.games
                );
                x += width;
            }
        }
    }
    let key_top = 6.0 + row * e.levels.len() as f64 + 8.0;
    for (i, reason) in reasons.iter().enumerate() {
        let (col, line) = (i % 2, i / 2);
        let x = left + 200.0 * col as f64;
        let y = key_top + 16.0 * line as f64;
        let _ = write!(
            svg,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"12\" height=\"10\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#333\">{}</text>",
            colour(reason),
            x + 16.0,
            y + 9.0,
            escape(reason_words(reason))
        );
    }
    svg.push_str("</svg>");
    let names: Vec<String> = (0..players).map(|p| v.player_name(p)).collect();
    let who = match names.split_first() {
        Some((first, [second])) => format!("{first} darker, {second} lighter"),
        Some((first, rest)) if !rest.is_empty() => {
            format!("{first} darkest, then {} ever lighter", rest.join(", "))
        }
        _ => names.join(""),
    };
    figure(
        " class=\"wide\" data-kind=\"endings\"",
        None,
        &svg,
        &format!(
            "Each level's games by how they ended (the colour) and who won (in each colour, {who}); drawn games grey."
        ),
    )
}
