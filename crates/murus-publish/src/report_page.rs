//! The designer's report as one self-contained HTML page (inline CSS and
//! SVG, no script, nothing fetched), readable on a phone and printed.
//!
//! Each section opens with its answer in one line (`p.answer`), then the
//! figures behind it. Every number the page shows outside the rules in
//! words, the charts and the answer lines is written by [`Num`] as
//! `<span class="n" data-key="speed.playouts.length.median">`: the key is
//! its path in `report.json`, so a test can check each against the JSON.

use std::fmt::Write as _;

mod chart;
mod plays;

use murus_engine::{Record, RecordMove, Variant};
use murus_report::designer::{DesignerReport, Distribution, PROVEN_CP, Playouts, PuzzleEntry};

use crate::diagram::{Diagram, Theme};
use crate::html::{escape, figure, page_with, player_colours};
use crate::sheet::rules_part;

mod files;
mod game;
pub use files::{report_files, write_report};
use game::game_section;

/// The page's own style, after the sheets' (`crate::html`).
const CSS: &str = r#"
p.answer { font-size: 12pt; font-weight: bold; margin: 0.4em 0 0.6em; }
table { border-collapse: collapse; margin: 0.4em 0; font-size: 9.5pt; }
th, td { border-bottom: 1px solid #ccc; padding: 0.15em 0.5em; text-align: left; vertical-align: top; }
td.r, th.r { text-align: right; }
.scroll { overflow-x: auto; max-width: 100%; }
svg.chart { display: block; width: 100%; max-width: 160mm; height: auto; }
nav { font-size: 9.5pt; margin: 0.5em 0; }
nav a { margin-right: 0.8em; }
code { font-size: 9pt; word-break: break-all; }
footer { margin-top: 2em; font-size: 9pt; color: #444; }
p.warning { border-left: 3px solid #a11; padding-left: 0.6em; }
.movetext { line-height: 1.7; }
.movetext .mv { white-space: nowrap; }
.movetext .comment { color: #555; font-size: 9pt; }
.movetext .glyph { color: #a11; }
.movetext .variation { color: #555; }
@media (max-width: 600px) { body { font-size: 11pt; } figure { width: 100%; } }
@media print { nav { display: none; } section { break-inside: auto; } }
"#;

/// A number of the report: its key in `report.json` and its text.
struct Num;

impl Num {
    fn span(key: &str, text: String) -> String {
        format!("<span class=\"n\" data-key=\"{key}\">{text}</span>")
    }
    fn int(key: &str, v: impl std::fmt::Display) -> String {
        Num::span(key, v.to_string())
    }
    fn fixed(key: &str, v: f64, digits: usize) -> String {
        Num::span(key, format!("{v:.digits$}"))
    }
    /// A share as a percentage with one decimal (`data-scale` 100).
    fn pct(key: &str, v: f64) -> String {
        format!(
            "<span class=\"n\" data-key=\"{key}\" data-scale=\"100\">{:.1}</span>%",
            v * 100.0
        )
    }
    /// An interval of shares, `[56.4, 65.9]` (percentages, as the figure
    /// beside it; `data-scale` 100).
    fn pct_interval(key: &str, ci: [f64; 2]) -> String {
        let bound = |i: usize| {
            format!(
                "<span class=\"n\" data-key=\"{key}.{i}\" data-scale=\"100\">{:.1}</span>",
                ci[i] * 100.0
            )
        };
        format!("[{}, {}]", bound(0), bound(1))
    }
    /// Centi-stones as stones with two decimals and a sign (`data-scale`
    /// 0.01).
    fn stones(key: &str, cp: i32) -> String {
        format!(
            "<span class=\"n\" data-key=\"{key}\" data-scale=\"0.01\">{:+.2}</span>",
            f64::from(cp) / 100.0
        )
    }
}

/// The page of `report`, made for `variant` (the rules it reports on).
pub fn report_html(variant: &Variant, report: &DesignerReport) -> String {
    let r = report;
    let mut b = String::new();
    let _ = writeln!(
        b,
        "<header>\n<h1>{}: the designer's report</h1>\n<p class=\"sub\">Written by Murus from the rules file of <code>{}</code>, budget {}, seed {}. Every figure is in <code>report.json</code> beside this page, with the command that made it.</p>\n</header>",
        escape(&r.rules.title),
        escape(&r.rules.variant.name),
        escape(r.budget.name()),
        Num::int("seed", r.seed),
    );
    b.push_str(
        "<nav><a href=\"#rules\">Rules</a><a href=\"#game\">A game</a><a href=\"#speed\">Speed and size</a><a href=\"#fairness\">Fairness</a><a href=\"#depth\">Depth</a><a href=\"#solved\">Solved</a><a href=\"#quality\">Game quality</a><a href=\"#curves\">Course of play</a><a href=\"#board\">On the board</a><a href=\"#endings\">Endings</a><a href=\"#openings\">Openings</a><a href=\"#tactics\">Tactics</a></nav>\n",
    );
    rules_section(&mut b, variant, r);
    game_section(&mut b, variant, r);
    speed_section(&mut b, r);
    fairness_section(&mut b, r);
    depth_section(&mut b, r);
    solved_section(&mut b, r);
    quality_section(&mut b, r);
    plays::curves_section(&mut b, variant, r);
    plays::board_section(&mut b, variant, r);
    plays::endings_section(&mut b, variant, r);
    openings_section(&mut b, r);
    tactics_section(&mut b, variant, r);
    comparison_section(&mut b, r);
    let _ = writeln!(
        b,
        "<footer><p>Made by <code>{}</code>. Timings (the only figures that depend on the machine) are in <code>report.json</code> under <code>timing</code>.</p></footer>",
        escape(&r.command)
    );
    page_with(
        &format!("{} — the designer's report", r.rules.title),
        &format!("{CSS}{}{}", plays::CSS, player_colours(variant.rules())),
        &b,
    )
}

fn open(b: &mut String, id: &str, title: &str, answer: &str) {
    let _ = writeln!(
        b,
        "<section id=\"{id}\">\n<h2>{}</h2>\n<p class=\"answer\" data-section=\"{id}\">{}</p>",
        escape(title),
        escape(answer)
    );
}

fn rules_section(b: &mut String, variant: &Variant, r: &DesignerReport) {
    open(b, "rules", "The rules", &r.rules.answer);
    b.push_str(&rules_part(variant, true, Theme::Colour));
    let _ = writeln!(
        b,
        "<p class=\"note\">Rules SHA-256 <code>{}</code>. Evaluation: {} (<code>{}</code>){}.</p>\n</section>",
        escape(&r.rules.variant.source_sha256),
        escape(&r.rules.evaluation_summary),
        escape(&r.rules.evaluation),
        r.training
            .as_ref()
            .map_or(String::new(), |t| format!("; {}", escape(t)))
    );
}

fn speed_section(b: &mut String, r: &DesignerReport) {
    let s = &r.speed;
    open(b, "speed", "Speed and size", &s.answer);
    let row = |b: &mut String, label: &str, f: &dyn Fn(&str, &Playouts) -> String| {
        let _ = write!(
            b,
            "<tr><th>{}</th><td class=\"r\">{}</td>",
            escape(label),
            f("speed.playouts", &s.playouts)
        );
        if let Some(std) = &s.standard {
            let _ = write!(b, "<td class=\"r\">{}</td>", f("speed.standard", std));
        }
        b.push_str("</tr>\n");
    };
    b.push_str("<div class=\"scroll\"><table>\n<tr><th></th><th class=\"r\">this variant</th>");
    if s.standard.is_some() {
        b.push_str("<th class=\"r\">standard game</th>");
    }
    b.push_str("</tr>\n");
    row(b, "random games", &|k, p| {
        Num::int(&format!("{k}.games"), p.games)
    });
    row(b, "length, median (plies)", &|k, p| {
        Num::int(&format!("{k}.length.median"), p.length.median)
    });
    row(b, "length, 5%–95%", &|k, p| {
        format!(
            "{}–{}",
            Num::int(&format!("{k}.length.p5"), p.length.p5),
            Num::int(&format!("{k}.length.p95"), p.length.p95)
        )
    });
    row(b, "length, mean", &|k, p| {
        Num::fixed(&format!("{k}.length.mean"), p.length.mean, 2)
    });
    row(b, "moves a position, mean", &|k, p| {
        Num::fixed(&format!("{k}.branching.mean"), p.branching.mean, 2)
    });
    row(b, "moves a position, median", &|k, p| {
        Num::int(&format!("{k}.branching.median"), p.branching.median)
    });
    row(b, "first player wins", &|k, p| {
        Num::pct(&format!("{k}.first_player_wins"), p.first_player_wins)
    });
    row(b, "draws", &|k, p| Num::pct(&format!("{k}.draws"), p.draws));
    row(b, "game tree, log10", &|k, p| {
        Num::fixed(&format!("{k}.game_tree_log10"), p.game_tree_log10, 1)
    });
    row(b, "state space, log10", &|k, p| {
        Num::fixed(&format!("{k}.state_space_log10"), p.state_space_log10, 1)
    });
    // The one machine figure: playouts a second on one thread, here.
    let _ = write!(
        b,
        "<tr><th>random games a second (one thread of the machine that made the report)</th><td class=\"r\">{}</td>",
        Num::fixed(
            "timing.playouts_per_second",
            r.timing.playouts_per_second,
            0
        )
    );
    if s.standard.is_some() {
        let _ = write!(
            b,
            "<td class=\"r\">{}</td>",
            r.timing
                .standard_playouts_per_second
                .map_or("–".to_string(), |x| Num::fixed(
                    "timing.standard_playouts_per_second",
                    x,
                    0
                ))
        );
    }
    b.push_str("</tr>\n");
    b.push_str("</table></div>\n");
    b.push_str(&histogram(
        "Length of random games (plies)",
        &s.playouts.length,
    ));
    b.push_str(&histogram(
        "Legal moves a position in random games",
        &s.playouts.branching,
    ));
    b.push_str(
        "<p class=\"note\">How: random games from the start, seeded. The game tree is b<sup>d</sup> with b the mean number of moves a position and d the mean length. The state space sums, over every material seen in the games (stacks of each height of each player), the ways to place it on the board, times the players who may be to move: an estimate from above of the positions play reaches.</p>\n</section>\n",
    );
}

/// A bar chart of a distribution's histogram, inline SVG.
fn histogram(title: &str, d: &Distribution) -> String {
    let (w, h, pad) = (480.0, 150.0, 28.0);
    let most = d.histogram.iter().map(|b| b.2).max().unwrap_or(1).max(1) as f64;
    let n = d.histogram.len().max(1) as f64;
    let bar = (w - 2.0 * pad) / n;
    let mut svg = format!(
        "<svg class=\"chart\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"{}\">",
        escape(title)
    );
    for (i, (from, to, count)) in d.histogram.iter().enumerate() {
        let bh = (h - 2.0 * pad) * (*count as f64) / most;
        let x = pad + bar * i as f64;
        let _ = write!(
            svg,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"#7a6a4f\"><title>{from}–{to}: {count}</title></rect>",
            h - pad - bh,
            (bar - 2.0).max(1.0)
        );
        if i % 2 == 0 || d.histogram.len() <= 8 {
            let _ = write!(
                svg,
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"middle\" fill=\"#333\">{from}</text>",
                x + bar / 2.0,
                h - pad + 12.0
            );
        }
    }
    let _ = write!(
        svg,
        "<line x1=\"{pad}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"#333\"/></svg>",
        h - pad,
        w - pad
    );
    figure(" class=\"wide\"", None, &svg, title)
}

fn fairness_section(b: &mut String, r: &DesignerReport) {
    let f = &r.fairness;
    open(b, "fairness", "Fairness by level", &f.answer);
    b.push_str("<div class=\"scroll\"><table>\n<tr><th>level</th><th>bot</th><th class=\"r\">games</th><th class=\"r\">first player wins</th><th class=\"r\">95% interval</th><th class=\"r\">draws</th><th class=\"r\">mean length</th></tr>\n");
    for (i, l) in f.balance.levels.iter().enumerate() {
        let k = format!("fairness.balance.levels.{i}.report");
        let a = &l.report.first_player_advantage;
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td>{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td></tr>",
            escape(&l.level),
            escape(&l.bot),
            Num::int(&format!("{k}.games"), l.report.games),
            Num::pct(&format!("{k}.first_player_advantage.rate"), a.rate),
            Num::pct_interval(&format!("{k}.first_player_advantage.ci95"), a.ci95),
            Num::pct(&format!("{k}.draws.rate"), l.report.draws.rate),
            Num::fixed(&format!("{k}.length.mean"), l.report.length.mean, 1),
        );
    }
    b.push_str("</table></div>\n");
    b.push_str(&fairness_chart(r));
    b.push_str("<h3>Verdict</h3>\n<ul class=\"verdict\">\n");
    for line in &f.balance.verdict {
        let _ = writeln!(b, "<li>{}</li>", escape(line));
    }
    let _ = writeln!(
        b,
        "</ul>\n<p class=\"note\">The same check alone: <code>{}</code> (the method is in <code>docs/balance.md</code>: each level plays itself from varied openings, colours rotated).</p>\n</section>",
        escape(&f.command)
    );
}

/// The first player's rate per level with its interval, and the fair line.
fn fairness_chart(r: &DesignerReport) -> String {
    let levels = &r.fairness.balance.levels;
    let (w, h, pad) = (480.0, 160.0, 30.0);
    let n = levels.len().max(1) as f64;
    let y = |v: f64| h - pad - (h - 2.0 * pad) * v;
    let mut svg = format!(
        "<svg class=\"chart\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"first player's rate by level\">"
    );
    let fair = levels
        .first()
        .map_or(0.5, |l| l.report.first_player_advantage.fair);
    let _ = write!(
        svg,
        "<line x1=\"{pad}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>",
        y(fair),
        w - pad
    );
    for v in [0.0, 0.5, 1.0] {
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"end\" fill=\"#555\">{:.0}%</text>",
            pad - 4.0,
            y(v) + 3.0,
            v * 100.0
        );
    }
    for (i, l) in levels.iter().enumerate() {
        let a = &l.report.first_player_advantage;
        let x = pad + (w - 2.0 * pad) * (i as f64 + 0.5) / n;
        let _ = write!(
            svg,
            "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#333\"/><circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"#7a3b2e\"/><text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\">{}</text>",
            y(a.ci95[0]),
            y(a.ci95[1]),
            y(a.rate),
            h - 8.0,
            escape(&l.level)
        );
    }
    svg.push_str("</svg>");
    figure(
        " class=\"wide\"",
        None,
        &svg,
        "The first player's share of wins at each level, with its 95% interval; the dashed line is a fair game.",
    )
}

fn depth_section(b: &mut String, r: &DesignerReport) {
    let Some(d) = &r.ladder else {
        return;
    };
    let l = &d.ladder;
    open(b, "depth", "Depth: the skill ladder", &d.answer);
    let spread = l.rung_range.map_or(String::new(), |[lo, hi]| {
        let n = Num::int("ladder.ladder.climbs", l.climbs);
        let lo_n = Num::int("ladder.ladder.rung_range.0", lo);
        if hi == lo {
            format!(", {lo_n} in each of {n} climbs with their own seeds")
        } else {
            let hi = Num::int("ladder.ladder.rung_range.1", hi);
            format!(" [{lo_n}, {hi}] over {n} climbs with their own seeds")
        }
    });
    let _ = writeln!(
        b,
        "<p>Rungs: {}{spread} ({}).</p>",
        Num::int("ladder.ladder.rungs.length", l.rungs.len()),
        escape(&l.rungs.join(", "))
    );
    b.push_str("<div class=\"scroll\"><table>\n<tr><th>match</th><th class=\"r\">games</th><th class=\"r\">score</th><th class=\"r\">Elo</th><th class=\"r\">95% interval</th><th>the test</th><th class=\"r\">first player wins</th></tr>\n");
    let elo = |key: String, v: Option<f64>| match v {
        Some(v) => Num::fixed(&key, v, 0),
        None => "∞".to_string(),
    };
    for (i, s) in l.steps.iter().enumerate() {
        let k = format!("ladder.ladder.steps.{i}");
        let _ = writeln!(
            b,
            "<tr><td>{} over {}</td><td class=\"r\">{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td><td class=\"r\">[{}, {}]</td><td>{}</td><td class=\"r\">{}</td></tr>",
            escape(&s.gap.upper),
            escape(&s.gap.lower),
            Num::int(&format!("{k}.games"), s.gap.games),
            Num::pct(&format!("{k}.score"), s.gap.score),
            elo(format!("{k}.elo"), s.gap.elo),
            elo(format!("{k}.elo_ci95.0"), s.gap.elo_ci95[0]),
            elo(format!("{k}.elo_ci95.1"), s.gap.elo_ci95[1]),
            s.verdict(),
            Num::pct(&format!("{k}.first_player"), s.first_player),
        );
    }
    b.push_str("</table></div>\n");
    if let Some(w) = &d.warning {
        let _ = writeln!(b, "<p class=\"warning\">{}</p>", escape(w));
    }
    if let Some(e) = l.elo_per_doubling {
        let _ = writeln!(
            b,
            "<p>A doubling of the budget gains {} Elo on average{}.</p>",
            Num::fixed("ladder.ladder.elo_per_doubling", e, 0),
            if l.still_rising {
                ", and the ladder was still rising when its budget ended it"
            } else {
                ""
            }
        );
    }
    for (i, c) in l.other_climbs.iter().enumerate() {
        let n = Num::int(
            &format!("ladder.ladder.other_climbs.{i}.rungs.length"),
            c.rungs.len(),
        );
        let rungs = escape(&c.rungs.join(", "));
        let _ = writeln!(
            b,
            "<p>Another climb, with its own seed and games: {n} rungs ({rungs}).</p>"
        );
    }
    let (t, g) = (
        Num::pct("ladder.ladder.threshold", l.threshold),
        Num::int("ladder.ladder.games", l.games),
    );
    let test = match l.block {
        0 => format!(
            "it scores at least {t} with its Elo interval above zero, in matches of {g} games"
        ),
        k => format!(
            "a sequential test (the generalised SPRT, each error at most one in twenty) accepts that it scores {t} rather than an even score, looking at the games after every {} and stopping as soon as it decides either way or after {g}",
            Num::int("ladder.ladder.block", k)
        ),
    };
    let _ = writeln!(
        b,
        "<p class=\"note\">How: a rung clearly beats the rung below with twice its alpha-beta budget, or where twice is no rung, four times, eight times, and so on; clearly: {test}. Matches are of paired games with colours swapped from varied openings; the first searching rung is the weakest budget that clearly beats random, and a climb ends after two steps in a row whose tests found no gain, or at the largest budget. Each climb plays its own games; the spread of their counts is the count's uncertainty. See <code>docs/report.md</code>.</p>\n</section>"
    );
}

fn solved_section(b: &mut String, r: &DesignerReport) {
    let Some(s) = &r.solved else {
        return;
    };
    open(b, "solved", "Solved?", &s.answer);
    let rules = match s.ply_cap {
        Some(cap) if s.with_cap => format!(
            "The value is that of the game with its ply cap of {} plies, as the rules define it: a game that reaches the cap ends as the rules decide it there, and repetitions are counted as the rules count them (the rules decide a game at the cap, so the cap is part of the game).",
            Num::int("solved.ply_cap", cap)
        ),
        _ => "The value is that of play without the ply cap, where a position repeated for ever is a draw: the rules decide no game at a ply cap (where they have one, they draw it there), so the cap is left out.".to_string(),
    };
    if let Some(cells) = s.not_attempted {
        let _ = writeln!(
            b,
            "<p>Proof-number search (df-pn) of the start was not attempted: the board has {} cells, and a report tries boards of at most {} (the largest the search has solved, with far more nodes than a report's budget of {}). {rules}</p>\n<p class=\"note\">Alone, with a budget of your own: <code>{}</code>.</p>\n</section>",
            Num::int("solved.not_attempted", cells),
            murus_report::designer::SOLVE_MOST_CELLS,
            Num::int("solved.budget_nodes", s.budget_nodes),
            escape(&s.command)
        );
        return;
    }
    let _ = writeln!(
        b,
        "<p>Proof-number search (df-pn) of the start: {} nodes of a budget of {}. {rules}</p>\n<p class=\"note\">Alone: <code>{}</code>.</p>\n</section>",
        Num::int("solved.nodes", s.nodes),
        Num::int("solved.budget_nodes", s.budget_nodes),
        escape(&s.command)
    );
}

fn quality_section(b: &mut String, r: &DesignerReport) {
    let q = &r.quality;
    open(b, "quality", "Game quality", &q.answer);
    let m = &q.metrics;
    b.push_str(
        "<div class=\"scroll\"><table>\n<tr><th>metric</th><th class=\"r\">value</th></tr>\n",
    );
    let opt = |b: &mut String, label: &str, key: &str, v: Option<f64>, digits: usize| {
        let text = v.map_or("–".to_string(), |v| Num::fixed(key, v, digits));
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td class=\"r\">{text}</td></tr>",
            escape(label)
        );
    };
    opt(b, "drama", "quality.metrics.drama", m.drama, 3);
    opt(
        b,
        "lead change",
        "quality.metrics.lead_change",
        m.lead_change,
        3,
    );
    opt(b, "stability", "quality.metrics.stability", m.stability, 3);
    opt(
        b,
        "decisiveness (share of the game before the winner is clear)",
        "quality.metrics.decisiveness_moves",
        m.decisiveness_moves,
        3,
    );
    opt(b, "clarity", "quality.metrics.clarity", m.clarity, 3);
    opt(
        b,
        "decision moves",
        "quality.metrics.decision_moves",
        m.decision_moves,
        3,
    );
    opt(
        b,
        "board coverage",
        "quality.metrics.board_coverage",
        m.board_coverage,
        3,
    );
    opt(
        b,
        "repetition",
        "quality.metrics.repetition",
        m.repetition,
        3,
    );
    opt(
        b,
        "duration score",
        "quality.metrics.duration.score",
        m.duration.score,
        3,
    );
    b.push_str("</table></div>\n");
    if !q.flags.is_empty() {
        b.push_str("<h3>Flags</h3>\n<ul class=\"flags\">\n");
        for f in &q.flags {
            let _ = writeln!(b, "<li>{}</li>", escape(f));
        }
        b.push_str("</ul>\n");
    }
    b.push_str("<p class=\"note\">The metrics of the strongest level's games, as <code>docs/metrics.md</code> defines them.</p>\n</section>\n");
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ABC[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// "Romans to play and win in 2".
pub fn puzzle_title(v: &Variant, p: &PuzzleEntry, n: &str) -> String {
    let name = v
        .player_by_letter(p.mover)
        .map_or_else(|| p.mover.to_string(), |i| v.player_name(i));
    format!("{} to play and win in {n}", escape(&name))
}

fn tactics_section(b: &mut String, v: &Variant, r: &DesignerReport) {
    let Some(t) = &r.tactics else {
        return;
    };
    open(b, "tactics", "Tactics", &t.answer);
    let _ = writeln!(
        b,
        "<p>{} positions searched, {} puzzles found; the loser missed a forced win in {} of {} decisive games.</p>\n<div class=\"figures\">",
        Num::int("tactics.positions", t.positions),
        Num::int("tactics.found", t.found),
        Num::int("tactics.missed", t.missed),
        Num::int("tactics.decisive", t.decisive),
    );
    for (i, p) in t.puzzles.iter().enumerate() {
        let Ok(pos) = v.parse_position(&p.position) else {
            continue;
        };
        let title = puzzle_title(v, p, &Num::int(&format!("tactics.puzzles.{i}.n"), p.n));
        let _ = writeln!(
            b,
            "<figure data-kind=\"puzzle\">\n<h3>{title}</h3>\n{}<figcaption>Solution: {} (game {}, ply {}).</figcaption>\n</figure>",
            Diagram::new(v, pos).coordinates(true).to_svg(),
            escape(&p.solution),
            Num::int(&format!("tactics.puzzles.{i}.game"), p.game),
            Num::int(&format!("tactics.puzzles.{i}.ply"), p.ply),
        );
    }
    b.push_str(
        "</div>\n<p class=\"note\">Each puzzle is a position of the games where the side to move wins by force within that many of its moves with one first move only, and not sooner; proved by a plain search over every move. They are also in <code>tactics.html</code> (a sheet) and <code>tactics/</code> (one record each).</p>\n</section>\n",
    );
}

/// The puzzles as a printable sheet: the positions, then the solutions.
pub fn tactics_sheet_html(v: &Variant, r: &DesignerReport) -> Option<String> {
    let t = r.tactics.as_ref()?;
    let mut b = format!(
        "<header>\n<h1>{}: puzzles from play</h1>\n<p class=\"sub\">Positions from games Murus played at {}: each side to move wins by force, with one move only.</p>\n</header>\n<div class=\"figures\">\n",
        escape(&r.rules.title),
        escape(&t.level)
    );
    for (i, p) in t.puzzles.iter().enumerate() {
        let pos = v.parse_position(&p.position).ok()?;
        let _ = writeln!(
            b,
            "<figure data-kind=\"puzzle\">\n<h3>{}. {}</h3>\n{}</figure>",
            i + 1,
            puzzle_title(v, p, &p.n.to_string()),
            Diagram::new(v, pos).coordinates(true).to_svg()
        );
    }
    b.push_str("</div>\n<section class=\"page\">\n<h2>Solutions</h2>\n<ol>\n");
    for p in &t.puzzles {
        let _ = writeln!(b, "<li>{}</li>", escape(&p.solution));
    }
    b.push_str("</ol>\n</section>\n");
    Some(crate::html::page(
        &format!("{} — puzzles", r.rules.title),
        &b,
    ))
}

/// The puzzles as records, one a file (`puzzle-01.mgn`, …): the position,
/// the task as the first comment, the solution as the one move; a variant
/// that is not shipped embeds its rules.
pub fn tactics_records(v: &Variant, r: &DesignerReport) -> Vec<(String, String)> {
    let Some(t) = &r.tactics else {
        return Vec::new();
    };
    t.puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut record = Record {
                variant: v.name().to_string(),
                start: Some(p.position.clone()),
                comment: Some(format!(
                    "{}. From game {} of the {} level, ply {}.",
                    puzzle_title(v, p, &p.n.to_string()),
                    p.game,
                    t.level,
                    p.ply
                )),
                moves: vec![RecordMove::new(p.solution.clone())],
                ..Record::default()
            };
            record.embed_rules(v);
            (format!("puzzle-{:02}.mgn", i + 1), record.write(v))
        })
        .collect()
}

/// A score for the page: stones with a sign, or a proven result in words.
fn score_cell(key: &str, s: Option<i32>) -> String {
    match s {
        None => "–".to_string(),
        Some(s) if s >= PROVEN_CP => "proven win".to_string(),
        Some(s) if s <= -PROVEN_CP => "proven loss".to_string(),
        Some(s) => Num::stones(key, s),
    }
}

fn openings_section(b: &mut String, r: &DesignerReport) {
    let Some(o) = &r.openings else {
        return;
    };
    open(b, "openings", "Openings", &o.answer);
    b.push_str("<div class=\"scroll\"><table>\n<tr><th>first move</th><th class=\"r\">score</th><th class=\"r\">games</th><th class=\"r\">first player wins</th><th class=\"r\">95% interval</th><th>strong replies (score)</th><th class=\"r\">their depth</th><th>chosen by the strongest bot</th></tr>\n");
    for (i, m) in o.moves.iter().enumerate() {
        let k = format!("openings.moves.{i}");
        let replies: Vec<String> = m
            .replies
            .iter()
            .enumerate()
            .map(|(j, (reply, s))| {
                format!(
                    "{} ({})",
                    escape(reply),
                    score_cell(&format!("{k}.replies.{j}.1"), *s)
                )
            })
            .collect();
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td><td>{}</td><td class=\"r\">{}</td><td>{}</td></tr>",
            escape(&m.first),
            score_cell(&format!("{k}.score"), m.score),
            Num::int(&format!("{k}.games"), m.games),
            Num::pct(&format!("{k}.rate"), m.rate),
            Num::pct_interval(&format!("{k}.ci95"), m.ci95),
            replies.join(", "),
            match m.replies_depth {
                0 => "–".to_string(),
                d => Num::int(&format!("{k}.replies_depth"), d),
            },
            if m.chosen { "yes" } else { "no" },
        );
    }
    b.push_str("</table></div>\n");
    if !o.never.is_empty() {
        let _ = writeln!(
            b,
            "<p>Never chosen by {} (asked with sixteen seeds): {}.</p>",
            escape(&o.asked),
            escape(&o.never.join(", "))
        );
    }
    let games = if o.from_balance {
        format!(
            "its games are the balance check's at {} that open with it (each of those games opens with random plies, so with every first move about as often)",
            escape(&o.level)
        )
    } else {
        format!(
            "its games open with it and one of the search's best replies, two games a reply, played by {} against itself",
            escape(&o.level)
        )
    };
    let _ = writeln!(
        b,
        "<p class=\"note\">How: each first move's score is the search's at the start ({} nodes, every move with a full window, searched to depth {}, the first player's view in stones); its replies' scores the search's after it, with the depth it reached; {games}. Moves are ranked by the first player's results, then by score.</p>\n</section>",
        Num::int("openings.search_nodes", o.search_nodes),
        Num::int("openings.search_depth", o.search_depth),
    );
}

fn comparison_section(b: &mut String, r: &DesignerReport) {
    let Some(c) = &r.comparison else {
        return;
    };
    open(
        b,
        "comparison",
        &format!("Comparison with {}", c.other_title),
        &c.answer,
    );
    let _ = writeln!(
        b,
        "<div class=\"scroll\"><table>\n<tr><th>figure</th><th class=\"r\">{}</th><th class=\"r\">{}</th><th>differs?</th><th>test</th></tr>",
        escape(&r.rules.title),
        escape(&c.other_title)
    );
    for (i, row) in c.rows.iter().enumerate() {
        let cell = |side: &str, v: Option<f64>| match v {
            None => "–".to_string(),
            Some(x) if row.percent => Num::pct(&format!("comparison.rows.{i}.{side}"), x),
            Some(x) if row.count => Num::int(&format!("comparison.rows.{i}.{side}"), x.round()),
            Some(x) => Num::fixed(&format!("comparison.rows.{i}.{side}"), x, 2),
        };
        let differs = match row.significant {
            Some(true) => "<strong>yes</strong>",
            Some(false) => "no",
            None => "",
        };
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td><td>{differs}</td><td>{}</td></tr>",
            escape(&row.figure),
            cell("this", row.this),
            cell("other", row.other),
            escape(&row.test)
        );
    }
    let _ = writeln!(
        b,
        "</table></div>\n<p class=\"note\">Both reports were made alike (budget, seed); evaluations: <code>{}</code> here, <code>{}</code> there{}. The other variant's own page is <code>compare/{}/index.html</code>.</p>\n</section>",
        escape(&c.evaluations[0]),
        escape(&c.evaluations[1]),
        if c.equal_footing {
            ""
        } else {
            " (not on equal footing: train the generic side's evaluation with murus train)"
        },
        escape(&c.other)
    );
}
