//! `report.svg` is readable: seats numbered from 1 with their bots, colours
//! by letter, axis titles, and no two labels on top of each other.

use murus_engine::{Reason, Variant};
use murus_lab::report::Bin;
use murus_lab::{Config, Control, GameStats, Report, run, stats_of};

/// A report of a short real run.
fn report(variant: &str, bots: &str, games: u64) -> Report {
    let v = Variant::builtin(variant).unwrap();
    let config = Config::new(&v, murus_ai::parse_specs(bots).unwrap(), games, 1)
        .with_threads(1)
        .with_max_plies(120);
    let played = run(&v, &config, &Control::default());
    config.report(&stats_of(&played))
}

/// A `<text>` element's box: `(left, top, right, bottom)`, estimated from
/// its position, anchor, size and length (0.6 em a character, a bound for
/// ordinary letters); a title turned upright by `rotate(-90 …)` is
/// measured turned.
fn text_boxes(svg: &str) -> Vec<(String, [f64; 4])> {
    let attr = |tag: &str, name: &str| -> Option<String> {
        let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[start..].split('"').next()?.to_string())
    };
    let mut boxes = Vec::new();
    for part in svg.split("<text").skip(1) {
        let (tag, rest) = part.split_once('>').unwrap();
        let body = rest.split("</text>").next().unwrap();
        // The tooltip is not drawn.
        let body = match body.split_once("</title>") {
            Some((_, shown)) => shown,
            None => body,
        };
        let body = body
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">");
        let num = |name: &str| attr(tag, name).unwrap().parse::<f64>().unwrap();
        let (x, y) = (num("x"), num("y"));
        let size = attr(tag, "font-size").map_or(11.0, |s| s.parse().unwrap());
        let w = body.chars().count() as f64 * size * 0.6;
        let (lo, hi) = match attr(tag, "text-anchor").as_deref() {
            Some("middle") => (-w / 2.0, w / 2.0),
            Some("end") => (-w, 0.0),
            _ => (0.0, w),
        };
        let b = if attr(tag, "transform").is_some_and(|t| t.starts_with("rotate(-90")) {
            [x - size * 0.8, y - hi, x + size * 0.2, y - lo]
        } else {
            [x + lo, y - size * 0.8, x + hi, y + size * 0.2]
        };
        boxes.push((body, b));
    }
    boxes
}

fn assert_no_overlap(svg: &str) {
    let boxes = text_boxes(svg);
    let width: f64 = svg
        .split("width=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    for (i, (a, p)) in boxes.iter().enumerate() {
        assert!(
            p[0] >= 0.0 && p[2] <= width,
            "`{a}` leaves the picture: {p:?}"
        );
        for (b, q) in &boxes[i + 1..] {
            let apart = p[2] <= q[0] || q[2] <= p[0] || p[3] <= q[1] || q[3] <= p[1];
            assert!(apart, "`{a}` {p:?} overlaps `{b}` {q:?}");
        }
    }
}

/// The report of thirty made-up games of `greedy` against `random`: the
/// snapshot does not move when the bots or the engine change.
fn fixed_report() -> Report {
    let v = Variant::standard();
    let config = Config::new(&v, murus_ai::parse_specs("greedy,random").unwrap(), 30, 1);
    let games: Vec<GameStats> = (0..30u64)
        .map(|i| {
            let seat = usize::from(i % 5 == 4);
            let colour = (seat + i as usize) % 2;
            let draw = i % 10 == 9;
            let plies = 12 + (i * 7 % 41) as u32;
            GameStats {
                index: i,
                winner: (!draw).then(|| v.letter(colour)),
                winner_seat: (!draw).then_some(seat),
                reason: if draw {
                    Reason::Repetition
                } else {
                    Reason::BreakthroughSow
                },
                plies,
                branching_sum: u64::from(plies) * 12,
                branching_max: 30,
                forced: 1,
                lead_changes: 2,
                leader_at_three_quarters: Some(v.letter(colour)),
            }
        })
        .collect();
    config.report(&games)
}

#[test]
fn svg_labels_name_seats_from_one_with_their_bots_and_have_axis_titles() {
    let r = fixed_report();
    let svg = r.to_svg();
    insta::assert_snapshot!(svg);
    let texts: Vec<String> = text_boxes(&svg).into_iter().map(|(t, _)| t).collect();
    for label in [
        "seat 1: greedy",
        "seat 2: random",
        "colour r",
        "colour g",
        "draws",
        "share of games (whiskers: 95% interval)",
        "won by",
        "game length (plies)",
        "games",
    ] {
        assert!(
            texts.iter().any(|t| t == label),
            "no label `{label}` in {texts:?}"
        );
    }
    assert!(!svg.contains("seat 0"), "seats are numbered from 1");
    assert_no_overlap(&svg);
}

#[test]
fn svg_labels_do_not_overlap_with_four_seats_long_bots_and_many_lengths() {
    let mut r = report("escape4", "mcts-guided:30,alphabeta:200,random,greedy", 4);
    r.bots = vec!["mcts-guided:1000000".into(); 4];
    r.bots[3] = "greedy".into();
    r.games = 123_456_789;
    r.by_seat[0].bot = "mcts-guided:1000000".into();
    r.by_seat[1].bot = "a-bot-with-a-name-far-too-long-for-any-column".into();
    r.interrupted = true;
    // A hundred length bins, one of them with many games.
    r.length.histogram = (0..100)
        .map(|b| Bin {
            from: b * 10,
            to: b * 10 + 9,
            count: if b == 3 { 123_456_789 } else { b.into() },
        })
        .collect();
    let svg = r.to_svg();
    assert_no_overlap(&svg);
    assert!(svg.contains("seat 4: greedy"));
    assert!(
        svg.contains("123456789 games (interrupted): mcts-guided"),
        "{svg}"
    );
    assert!(
        svg.contains("vs greedy</title>"),
        "the whole title in a tooltip"
    );
    // The long name is cut in the chart and whole in its tooltip.
    assert!(svg.contains("<title>seat 2: a-bot-with-a-name-far-too-long-for-any-column</title>"));
    assert!(svg.contains("seat 2: a-bot-with-a-name-…"), "{svg}");
}
