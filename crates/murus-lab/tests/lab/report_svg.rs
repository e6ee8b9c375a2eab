//! `report.svg` and `balance.svg` are readable: whole SVG documents, seats
//! numbered from 1 with their bots, colours by letter, levels, the fair
//! rate, axis titles, long names cut with `…`, and no two labels on top of
//! each other. `report.csv` keeps its rows.

use murus_engine::{Reason, Variant};
use murus_lab::balance::{BalanceConfig, BalanceReport, Stopping, parse_levels, run_balance};
use murus_lab::charts::report_svg;
use murus_lab::metrics::{Fixed, GameMetrics};
use murus_lab::report::Bin;
use murus_lab::write::report_csv;
use murus_lab::{Config, GameStats, Report, run, stats_of};

/// A report of a short real run.
fn report(variant: &str, bots: &str, games: u64) -> Report {
    let v = Variant::builtin(variant).unwrap();
    let config = Config::new(&v, murus_ai::parse_specs(bots).unwrap(), games, 1)
        .with_threads(1)
        .with_max_plies(120);
    let played = run(&v, &config, &()).unwrap();
    config.report(&stats_of(&played))
}

/// A `<text>` element's shown text and box, `(left, top, right, bottom)`,
/// estimated from its position, baseline shift (`dy`), anchor, size and
/// length (0.6 em a character, a bound for ordinary letters); an axis title
/// turned upright by `rotate(270, …)` is measured turned.
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
            .trim()
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&");
        let num = |name: &str| attr(tag, name).unwrap().parse::<f64>().unwrap();
        let (x, y) = (num("x"), num("y"));
        let size = attr(tag, "font-size").map_or(11.0, |s| s.parse().unwrap());
        // The baseline's shift, an ex being half an em.
        let dy = match attr(tag, "dy").as_deref() {
            None => 0.0,
            Some(d) if d.ends_with("em") => d[..d.len() - 2].parse::<f64>().unwrap() * size,
            Some(d) if d.ends_with("ex") => d[..d.len() - 2].parse::<f64>().unwrap() * size / 2.0,
            Some(d) => panic!("unexpected dy {d}"),
        };
        let w = body.chars().count() as f64 * size * 0.6;
        let (lo, hi) = match attr(tag, "text-anchor").as_deref() {
            Some("middle") => (-w / 2.0, w / 2.0),
            Some("end") => (-w, 0.0),
            _ => (0.0, w),
        };
        let b = match attr(tag, "transform") {
            // Turned a quarter anticlockwise: the text runs up from (x, y)
            // and its baseline's shift moves it right.
            Some(t) if t.starts_with("rotate(270") || t.starts_with("rotate(-90") => {
                [x + dy - size * 0.8, y - hi, x + dy + size * 0.2, y - lo]
            }
            Some(t) => panic!("unexpected transform {t}"),
            None => [x + lo, y + dy - size * 0.8, x + hi, y + dy + size * 0.2],
        };
        boxes.push((body, b));
    }
    boxes
}

/// The number in the `<svg>` element's attribute `name`.
fn svg_size(svg: &str, name: &str) -> f64 {
    let tag = svg.split('>').next().unwrap();
    tag.split(&format!(" {name}=\""))
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// A whole SVG document, every label inside the picture and clear of every
/// other.
fn assert_readable(svg: &str) {
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.trim_end().ends_with("</svg>"), "{svg}");
    assert_eq!(
        svg.matches("<text").count(),
        svg.matches("</text>").count(),
        "every text element is closed"
    );
    for size in svg.split(" font-size=\"").skip(1) {
        let size = size.split('"').next().unwrap();
        assert!(size.parse::<u32>().is_ok(), "font-size=\"{size}\"");
    }
    let boxes = text_boxes(svg);
    assert!(!boxes.is_empty());
    let (width, height) = (svg_size(svg, "width"), svg_size(svg, "height"));
    for (i, (a, p)) in boxes.iter().enumerate() {
        assert!(!a.is_empty(), "an empty label at {p:?}");
        assert!(
            p[0] >= 0.0 && p[2] <= width && p[1] >= 0.0 && p[3] <= height,
            "`{a}` leaves the picture ({width}×{height}): {p:?}"
        );
        for (b, q) in &boxes[i + 1..] {
            let apart = p[2] <= q[0] || q[2] <= p[0] || p[3] <= q[1] || q[3] <= p[1];
            assert!(apart, "`{a}` {p:?} overlaps `{b}` {q:?}");
        }
    }
}

fn texts(svg: &str) -> Vec<String> {
    text_boxes(svg).into_iter().map(|(t, _)| t).collect()
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
                metrics: Some(Box::new(made_up_metrics(i, plies, !draw))),
            }
        })
        .collect();
    config.report(&games)
}

/// Game-quality figures for made-up game `i` of `plies` plies.
fn made_up_metrics(i: u64, plies: u32, won: bool) -> GameMetrics {
    let x = |k: u64| Fixed::new((i * k % 100) as f64 / 100.0);
    GameMetrics {
        evaluated: plies / 2,
        drama: won.then(|| x(7)),
        lead_change: Some(x(3)),
        stability: Some(x(11)),
        decisiveness_threshold: won.then(|| x(13)),
        decisiveness_moves: won.then(|| x(17)),
        clarity: Some(x(19)),
        clarity_plies: plies,
        branching_trend: Some(Fixed::new(-0.25)),
        tree_digits: Fixed::new(f64::from(plies) * 12f64.log10()),
        covered: 40,
        cells: 56,
        repeated: u32::from(i % 10 == 9),
    }
}

#[test]
fn svg_labels_name_seats_from_one_with_their_bots_and_have_axis_titles() {
    let r = fixed_report();
    let svg = report_svg(&r);
    insta::assert_snapshot!(svg);
    let texts = texts(&svg);
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
        "game quality (docs/metrics.md)",
        "drama 0.499",
        "length 31.5, ideal 19–111",
    ] {
        assert!(
            texts.iter().any(|t| t == label),
            "no label `{label}` in {texts:?}"
        );
    }
    assert!(!svg.contains("seat 0"), "seats are numbered from 1");
    assert!(
        texts
            .iter()
            .any(|t| t == "standard — 30 games: greedy vs random"),
        "{texts:?}"
    );
    assert_readable(&svg);
}

#[test]
fn svg_labels_do_not_overlap_with_four_seats_long_bots_and_many_lengths() {
    let mut r = report("escape4", "mcts-guided:30,alphabeta:200,random,greedy", 4);
    r.provenance.bots = vec!["mcts-guided:1000000".into(); 4];
    r.provenance.bots[3] = "greedy".into();
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
    let svg = report_svg(&r);
    assert_readable(&svg);
    let texts = texts(&svg);
    assert!(texts.iter().any(|t| t == "seat 4: greedy"), "{texts:?}");
    assert!(
        svg.contains("123456789 games (interrupted): mcts-guided"),
        "{svg}"
    );
    assert!(
        svg.contains("vs greedy</title>"),
        "the whole title in a tooltip"
    );
    // The long name is cut to 28 characters in the chart and whole in its
    // tooltip.
    assert!(svg.contains("<title>seat 2: a-bot-with-a-name-far-too-long-for-any-column</title>"));
    let cut = "seat 2: a-bot-with-a-name-f…";
    assert_eq!(cut.chars().count(), murus_lab::charts::MAX_LABEL);
    assert!(texts.iter().any(|t| t == cut), "{texts:?}");
    assert!(!texts.iter().any(|t| t.contains("far-too-long")));
}

#[test]
fn svg_cuts_an_evaluated_bots_long_spec_and_keeps_labels_apart() {
    let mut r = fixed_report();
    let bot = "alphabeta:50000:eval=/some/path/to/a/trained.eval";
    r.provenance.bots[0] = bot.into();
    r.by_seat[0].bot = bot.into();
    let svg = report_svg(&r);
    assert_readable(&svg);
    let texts = texts(&svg);
    assert!(
        texts.iter().any(|t| t == "seat 1: alphabeta:50000:eva…"),
        "{texts:?}"
    );
    assert!(svg.contains(&format!("<title>seat 1: {bot}</title>")));
    // Each row's label sits on its own line, in order, top to bottom.
    let rows: Vec<f64> = text_boxes(&svg)
        .into_iter()
        .filter(|(t, _)| t.starts_with("seat ") || t.starts_with("colour ") || t == "draws")
        .map(|(_, b)| b[1])
        .collect();
    assert_eq!(rows.len(), 5);
    assert!(rows.windows(2).all(|w| w[1] - w[0] >= 11.0), "{rows:?}");
}

#[test]
fn csv_has_one_section_key_value_row_per_figure() {
    let csv = report_csv(&fixed_report());
    insta::assert_snapshot!(csv);
    // A bot whose spec holds a comma or a quote stays one field.
    let mut r = fixed_report();
    let bot = "external:./engine --flags a,b \"c\"";
    r.by_seat[0].bot = bot.into();
    let csv = report_csv(&r);
    let rows: Vec<csv::StringRecord> = csv::Reader::from_reader(csv.as_bytes())
        .records()
        .map(Result::unwrap)
        .collect();
    assert!(rows.iter().all(|r| r.len() == 3));
    assert_eq!(&rows[9][1], format!("seat0 {bot} wins"));
    assert_eq!(&rows[9][2], "24");
}

/// A real balance check of two levels, twenty games each: well under a
/// second.
fn balance() -> BalanceReport {
    let config = BalanceConfig {
        levels: parse_levels("random,easy").unwrap(),
        stopping: Stopping::Games(20),
        openings: 0,
        seed: 1,
        threads: 1,
        shard: None,
        skill_games: 0,
        max_plies: None,
        book: None,
    };
    run_balance(&Variant::standard(), &config, None, &()).unwrap()
}

#[test]
fn balance_svg_shows_each_levels_first_player_rate_against_the_fair_rate() {
    let report = balance();
    let svg = murus_lab::charts::balance_svg(&report);
    assert_readable(&svg);
    let texts = texts(&svg);
    for label in [
        "standard: the first player's wins by level",
        "random (20 games)",
        "easy (20 games)",
        "level, weakest first",
        "first player's wins (95% interval)",
        "fair 50.0%",
        "0%",
        "50%",
        "100%",
    ] {
        assert!(
            texts.iter().any(|t| t == label),
            "no label `{label}` in {texts:?}"
        );
    }
    // Levels weakest first, left to right.
    let x_of = |label: &str| {
        text_boxes(&svg)
            .into_iter()
            .find(|(t, _)| t == label)
            .unwrap()
            .1[0]
    };
    assert!(x_of("random (20 games)") < x_of("easy (20 games)"));
    // Each level's rate beside its point.
    for l in &report.levels {
        let rate = format!("{:.1}%", l.report.first_player_advantage.rate * 100.0);
        assert!(texts.contains(&rate), "no `{rate}` in {texts:?}");
    }
    // The fair line is dashed: many short segments in its colour, level
    // with its label.
    assert!(svg.matches("stroke=\"#C0392B\"").count() > 5, "{svg}");
}

#[test]
fn balance_svg_fair_rate_follows_the_number_of_players() {
    let mut report = balance();
    for l in &mut report.levels {
        l.report.provenance.players = vec!['r', 'g', 'b'];
        l.report.games = 12_345;
    }
    report.variant.name = "a-variant-with-a-rather-long-name".into();
    report.interrupted = true;
    let svg = murus_lab::charts::balance_svg(&report);
    assert_readable(&svg);
    let texts = texts(&svg);
    assert!(texts.iter().any(|t| t == "fair 33.3%"), "{texts:?}");
    assert!(
        texts.iter().any(|t| t == "easy (12 345 games)"),
        "{texts:?}"
    );
    // A title too long for the picture is cut, whole in its tooltip.
    let whole = "a-variant-with-a-rather-long-name: the first player's wins by level (interrupted)";
    assert!(svg.contains(&format!("<title>{}</title>", whole.replace('\'', "&apos;"))));
    assert!(
        texts
            .iter()
            .any(|t| t.ends_with('…') && whole.starts_with(t.trim_end_matches('…'))),
        "{texts:?}"
    );
}

#[test]
fn balance_svg_is_written_beside_the_json_and_the_table() {
    let report = balance();
    let dir = std::env::temp_dir().join(format!("murus-balance-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    murus_lab::balance::write_balance(&dir, &report).unwrap();
    let svg = std::fs::read_to_string(dir.join("balance.svg")).unwrap();
    assert_eq!(svg, murus_lab::charts::balance_svg(&report));
    assert!(dir.join("balance.csv").exists() && dir.join("balance.json").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn empty_reports_still_draw_whole_charts() {
    let v = Variant::standard();
    let config = Config::new(&v, murus_ai::parse_specs("random").unwrap(), 0, 1);
    let svg = report_svg(&config.report(&[]));
    assert_readable(&svg);
    assert!(
        texts(&svg)
            .iter()
            .any(|t| t == "standard — 0 games: random vs random")
    );
    let mut report = balance();
    report.levels.clear();
    let svg = murus_lab::charts::balance_svg(&report);
    assert_readable(&svg);
    assert!(texts(&svg).iter().any(|t| t == "fair 50.0%"));
}
