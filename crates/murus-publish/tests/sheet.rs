//! Rules sheets and puzzle sheets (issue 23): the figures Murus finds by
//! itself are real (each move legal and of its kind, drawn with its
//! arrow), present where the rules allow them and absent where they do not;
//! the HTML is self-contained and printable.

use murus_engine::{Action, Reason, Variant};
use murus_mural::Puzzle;
use murus_publish::figures::figures_of;
use murus_publish::mural_sheet::{MuralSheetError, MuralSheetOptions, mural_sheet_html};
use murus_publish::{FigureKind, Search, SheetOptions, find_figures, rules_sheet_html};

fn shipped(name: &str) -> Variant {
    Variant::builtin(name).expect("a shipped variant")
}

/// A variant compiled from `source` with its first `from` written `to`.
fn edited(source: &str, from: &str, to: &str) -> Variant {
    assert!(source.contains(from), "{from}");
    Variant::compile(&source.replacen(from, to, 1)).unwrap_or_else(|e| panic!("{e:?}"))
}

/// The `<figure …>` elements of a sheet, each as its whole text.
fn figures(html: &str) -> Vec<&str> {
    html.split("<figure")
        .skip(1)
        .map(|f| &f[..f.find("</figure>").expect("closed")])
        .collect()
}

/// The value of attribute `name` in a figure's opening tag.
fn attr<'a>(figure: &'a str, name: &str) -> Option<&'a str> {
    let tag = &figure[..figure.find('>')?];
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    Some(&tag[start..start + tag[start..].find('"')?])
}

fn kinds(html: &str) -> Vec<&str> {
    figures(html)
        .into_iter()
        .filter_map(|f| attr(f, "data-kind"))
        .filter(|k| !matches!(*k, "start" | "game"))
        .collect()
}

#[test]
fn each_variant_gets_the_figures_its_rules_allow_and_no_other() {
    let cases: [(&str, &[&str]); 5] = [
        (
            "standard",
            &[
                "sow-empty",
                "sow-own",
                "blocked",
                "sacrifice",
                "breakthrough",
                "stalemate",
            ],
        ),
        (
            "advanced",
            &[
                "sow-empty",
                "sow-own",
                "sow-own",
                "blocked",
                "sacrifice",
                "sacrifice",
                "sacrifice",
                "throw",
                "breakthrough",
                "breakthrough",
                "stalemate",
            ],
        ),
        (
            "pie",
            &[
                "sow-empty",
                "sow-own",
                "blocked",
                "sacrifice",
                "breakthrough",
                "stalemate",
                "pie",
            ],
        ),
        (
            "houdini",
            &[
                "sow-empty",
                "sow-own",
                "blocked",
                "breakthrough",
                "stalemate",
            ],
        ),
        (
            "escape4",
            &["sow-empty", "sow-own", "blocked", "sacrifice", "stalemate"],
        ),
    ];
    for (name, expected) in cases {
        let html = rules_sheet_html(&shipped(name), &SheetOptions::default()).unwrap();
        assert_eq!(kinds(&html), expected, "{name}");
        assert!(!html.contains("no game Murus played showed"), "{name}");
    }
}

#[test]
fn each_figures_svg_draws_the_arrow_of_its_move_and_a_blocked_sowing_its_mark() {
    for name in [
        "standard",
        "advanced",
        "pie",
        "hex",
        "escape4",
        "hex3-escape",
    ] {
        let html = rules_sheet_html(&shipped(name), &SheetOptions::default()).unwrap();
        for f in figures(&html) {
            let kind = attr(f, "data-kind").unwrap();
            let arrows = f.matches("class=\"arrow\"").count();
            match kind {
                "start" => assert_eq!(arrows, 0, "{name}"),
                "game" => {
                    // The last move's cells are shaded, and nothing drawn on.
                    assert_eq!(arrows, 0, "{name}");
                    assert!(f.contains("class=\"highlight\""), "{name}: {f}");
                }
                "blocked" => {
                    assert_eq!(arrows, 0, "{name}");
                    let cell = attr(f, "data-blocked").unwrap();
                    assert!(
                        f.contains(&format!("class=\"mark\" data-cell=\"{cell}\"")),
                        "{name}: {f}"
                    );
                    // The blocking cell holds a stack.
                    assert!(
                        f.contains(&format!("class=\"stack\" data-cell=\"{cell}\"")),
                        "{name}"
                    );
                }
                _ => {
                    let m = attr(f, "data-move").expect("a figure names its move");
                    assert!(
                        f.contains(&format!("class=\"arrow\" data-move=\"{m}\"")),
                        "{name} {kind}: no arrow for {m}"
                    );
                    assert!(f.contains("<figcaption>"), "{name} {kind}");
                    assert!(f.contains(m), "{name} {kind}: the caption names {m}");
                }
            }
        }
    }
}

/// The variants whose figures are checked: shipped ones, and shipped ones
/// edited for the rules no shipped variant has.
fn figure_variants() -> Vec<(&'static str, Variant)> {
    let standard = include_str!("../../../variants/standard.mg");
    let mut out: Vec<(&'static str, Variant)> = [
        "standard",
        "advanced",
        "advanced-delayed",
        "pie",
        "hex",
        "escape4",
        "ballista",
        "hill",
        "attrition",
        "siege",
        "alesia",
        "cavalry",
    ]
    .into_iter()
    .map(|name| (name, shipped(name)))
    .collect();
    out.extend([
        // Attrition won by taking six stones, for the capture figure.
        (
            "capture-race",
            edited(
                include_str!("../../../variants/attrition.mg"),
                "reduced to 8 stones",
                "capture 6 stones",
            ),
        ),
        // The standard game and hill decided at the ply cap, for the
        // adjudication figure (the most towers: a sacrifice costs both
        // sides a stone, so stones stay level; the most stacks on rank 4);
        // and the Gauls winning at the cap.
        (
            "adjudicated",
            edited(standard, "plies 300", "plies 300 adjudicate by towers"),
        ),
        (
            "held",
            edited(standard, "plies 300", "plies 300 adjudicate for g"),
        ),
        (
            "hill-adjudicated",
            edited(
                include_str!("../../../variants/hill.mg"),
                "plies 300",
                "plies 300 adjudicate by stacks on rank 4",
            ),
        ),
        // Sowing by a knight's leaps only; leaps beside orthogonal steps,
        // and onto enemy walls (capture by sowing); the Gauls sowing
        // forward only, the Romans every way.
        (
            "knight",
            edited(
                standard,
                "directions all\n    onto empty",
                "directions (1, 2) mirrored\n    onto empty",
            ),
        ),
        (
            "leaps-and-captures",
            edited(
                standard,
                "directions all\n    onto empty, own 1",
                "directions n, e, s, w, (1, 2) mirrored\n    onto empty, own 1, enemy 1",
            ),
        ),
        (
            "forward-gauls",
            edited(
                standard,
                "sacrifice {",
                "sow for g {\n    heights 2\n    directions forward, forward-left, forward-right\n    onto empty, own 1\n}\n\nsacrifice {",
            ),
        ),
    ]);
    out
}

/// What is wrong with a figure: its move illegal or not of its kind, or
/// not of the rule it is filed under.
fn check_figure(name: &str, v: &Variant, f: &murus_publish::Figure) {
    let pos = &f.position;
    let mover = v.turn(pos);
    let Some(m) = f.arrow else {
        assert_eq!(f.kind, FigureKind::Blocked);
        let from = f.highlights[0];
        let blocker = f.marks[0];
        assert_eq!(v.stack(pos, from).map(|s| s.0), Some(mover), "{name}");
        assert!(f.highlights.contains(&blocker), "{name}");
        // No legal sowing from the tower passes the blocker.
        for lm in v.legal_moves(pos) {
            if matches!(lm.action(), Action::Sow { from: o, .. } if o == from) {
                assert!(!v.move_cells(lm).contains(&blocker), "{name}");
            }
        }
        return;
    };
    assert!(v.is_legal(pos, m), "{name} {:?}", f.kind);
    let next = v.play(pos, m);
    let cells = v.move_cells(m);
    let board = v.geometry().directions().len();
    let whose = |c: usize| v.stack(pos, c).map(|s| s.0);
    match (f.kind, m.action()) {
        (FigureKind::SowEmpty, Action::Sow { .. }) => {
            assert!(cells[1..].iter().all(|&c| whose(c).is_none()), "{name}");
        }
        (FigureKind::SowOwn, Action::Sow { .. }) => {
            // The tallest own stack sown onto is the one the title names.
            let h = (cells[1..].iter())
                .filter_map(|&c| v.stack(pos, c).filter(|s| s.0 == mover))
                .map(|s| s.1)
                .max()
                .expect("an own stack sown onto");
            assert_eq!(f.sub % murus_publish::figures::OWN_HEIGHTS, usize::from(h));
            let name_of = if h == 1 { "wall" } else { "stack" };
            assert!(
                f.title.contains(name_of) || h > 1,
                "{name}: {} for height {h}",
                f.title
            );
        }
        (FigureKind::SowEnemy, Action::Sow { .. }) => {
            assert!(
                cells[1..]
                    .iter()
                    .any(|&c| whose(c).is_some_and(|p| p != mover)),
                "{name}"
            );
        }
        (FigureKind::SowStep, Action::Sow { direction, .. }) => {
            assert!(direction >= board, "{name}: a leap");
        }
        (FigureKind::Sacrifice, Action::Sacrifice { rule, .. })
        | (FigureKind::Throw, Action::Throw { rule, .. }) => {
            assert_eq!(rule, f.sub, "{name}: filed under its rule");
        }
        (FigureKind::Pie, Action::Split { .. }) => {}
        (FigureKind::Breakthrough, action) => {
            // At once, or (delayed) a stone of the mover on a home; by a
            // throw where it is filed so.
            assert_eq!(
                f.sub,
                usize::from(matches!(action, Action::Throw { .. })),
                "{name}: {f:?}"
            );
            let now = v
                .outcome(&next)
                .is_some_and(|o| o.winner == Some(mover) && o.reason.as_str() == "breakthrough");
            let delayed = v
                .rules()
                .win(mover)
                .breakthrough
                .is_some_and(|b| b.timing == murus_dsl::rules::Timing::Delayed)
                && v.rules().players.iter().enumerate().any(|(p, r)| {
                    p != mover
                        && r.home
                            .iter()
                            .any(|&c| v.stack(&next, c).is_some_and(|s| s.0 == mover))
                });
            assert!(now || delayed, "{name}: {f:?}");
        }
        (FigureKind::Stalemate, _) => {
            let ended = v
                .outcome(&next)
                .is_some_and(|o| matches!(o.reason, Reason::Stalemate | Reason::Elimination));
            let out = (0..v.player_count()).any(|p| v.is_out(&next, p) && !v.is_out(pos, p));
            assert!(ended || out, "{name}: {f:?}");
        }
        (FigureKind::Occupation, _) => {
            // The mover then holds the cells it needs.
            let o = v.rules().win(mover).occupation.clone().unwrap();
            let held = o
                .cells
                .iter()
                .filter(|&&c| v.stack(&next, c).is_some_and(|s| s.0 == mover))
                .count();
            assert!(held >= o.count as usize, "{name}: {f:?}");
        }
        (FigureKind::Capture, _) => {
            let won = v
                .outcome(&next)
                .is_some_and(|o| o.reason == Reason::Capture && o.winner == Some(mover));
            assert!(won, "{name}: {f:?}");
        }
        (FigureKind::Adjudication, _) => {
            // At the ply cap the game would go to one player, whose count
            // of what the rules count is the highest.
            let o = v.adjudicated(&next).expect("an adjudicated variant");
            let winner = o.winner.expect("a winner");
            let count = |p| v.adjudication_count(&next, p).unwrap();
            assert!(
                (0..v.player_count()).all(|p| p == winner || count(p) < count(winner)),
                "{name}: {f:?}"
            );
            assert!(f.caption.contains("adjudication"), "{}", f.caption);
            if name == "hill-adjudicated" {
                assert_eq!(f.highlights.len(), 8, "{name}: rank 4 shaded");
            }
        }
        (FigureKind::Reduction, _) => {
            let reduced = v
                .outcome(&next)
                .is_some_and(|o| o.reason == Reason::Reduced);
            assert!(reduced, "{name}: {f:?}");
        }
        (kind, action) => panic!("{name}: a {kind:?} figure shows {action:?}"),
    }
    // A sowing by leaps shades the cells its stones drop on.
    if matches!(m.action(), Action::Sow { direction, .. } if direction >= board) {
        assert_eq!(f.highlights, cells[1..], "{name}: {f:?}");
    }
}

#[test]
fn the_figures_found_are_legal_moves_of_their_kind_on_real_positions() {
    let search = Search::default();
    for (name, v) in figure_variants() {
        let found = figures_of(&v, &search);
        assert!(found.missing.is_empty(), "{name}: {:?}", found.missing);
        // Exactly the figures the rules call for, each once.
        let keys: Vec<(FigureKind, usize)> =
            found.figures.iter().map(|f| (f.kind, f.sub)).collect();
        let wanted: Vec<(FigureKind, usize)> = murus_publish::figures::wanted(v.rules())
            .iter()
            .map(|w| (w.kind, w.sub))
            .collect();
        assert_eq!(keys, wanted, "{name}");
        // A throw of each kind (ballista has two).
        let mut kinds: Vec<usize> = found
            .figures
            .iter()
            .filter(|f| f.kind == FigureKind::Throw)
            .filter_map(|f| match f.arrow?.action() {
                Action::Throw { rule, .. } => Some(rule),
                _ => None,
            })
            .collect();
        kinds.dedup();
        assert_eq!(kinds.len(), v.rules().catapults.len(), "{name}");
        for f in &found.figures {
            check_figure(name, &v, f);
        }
    }
}

/// Every kind of rule the file has gets a figure of its own, titled with
/// the rule where the kind has several and with its players where not
/// every player has it.
#[test]
fn each_rule_gets_a_figure_titled_with_the_rule_and_its_players() {
    let titles = |v: &Variant| -> Vec<String> {
        figures_of(v, &Search::default())
            .figures
            .into_iter()
            .map(|f| f.title)
            .collect()
    };
    let advanced = titles(&shipped("advanced"));
    for t in [
        "Sowing onto an own wall",
        "Sowing onto an own tower",
        "A sacrifice: tower against wall",
        "A sacrifice: tower against catapult, losing one stone",
        "A sacrifice: tower against catapult, losing two stones",
        "A breakthrough by sowing",
        "A breakthrough by a throw",
    ] {
        assert!(advanced.iter().any(|a| a == t), "{t}: {advanced:?}");
    }
    let siege = titles(&shipped("siege"));
    for t in [
        "A throw (Romans)",
        "A breakthrough by a throw (Romans)",
        "Worn down (Romans)",
    ] {
        assert!(siege.iter().any(|a| a == t), "{t}: {siege:?}");
    }
    let ballista = titles(&shipped("ballista"));
    assert!(ballista.iter().any(|a| a == "A throw (kind 2 of 2)"));
    let variants = figure_variants();
    let by_name = |n: &str| &variants.iter().find(|(name, _)| *name == n).unwrap().1;
    let forward = titles(by_name("forward-gauls"));
    for t in [
        "Sowing onto empty cells (Romans)",
        "Sowing onto empty cells (Gauls)",
        "Sowing onto an own wall (Gauls)",
    ] {
        assert!(forward.iter().any(|a| a == t), "{t}: {forward:?}");
    }
    let leaps = titles(by_name("leaps-and-captures"));
    for t in ["Sowing by leaps", "Sowing onto an enemy stack"] {
        assert!(leaps.iter().any(|a| a == t), "{t}: {leaps:?}");
    }
    // Where a player only leaps, its sowings are the leaps: no figure twice.
    let knight = titles(by_name("knight"));
    assert!(!knight.iter().any(|a| a == "Sowing by leaps"), "{knight:?}");
    // The standard game has one rule of each: plain titles.
    let standard = titles(&shipped("standard"));
    assert!(
        standard
            .iter()
            .all(|t| !t.contains('(') && !t.contains(':')),
        "{standard:?}"
    );
}

/// A knight's sowing is drawn with the cells its stones drop on: a hop to
/// each, a bar on the first, both shaded; the caption says they leap.
#[test]
fn a_knights_sowing_is_drawn_with_its_drop_cells() {
    let variants = figure_variants();
    let v = &variants.iter().find(|(n, _)| *n == "knight").unwrap().1;
    let html = rules_sheet_html(v, &SheetOptions::default()).unwrap();
    let f = figures(&html)
        .into_iter()
        .find(|f| attr(f, "data-kind") == Some("sow-empty"))
        .expect("a sowing");
    let m = attr(f, "data-move").unwrap();
    let pos = figures_of(v, &Search::default()).figures[0].position;
    let cells = v.move_cells(v.parse_move(&pos, m).unwrap());
    let g = v.geometry();
    let (first, last) = (g.name(cells[1]), g.name(cells[2]));
    for cell in [&first, &last] {
        assert!(
            f.contains(&format!("class=\"highlight\" data-cell=\"{cell}\"")),
            "{cell} shaded: {f}"
        );
    }
    let arrow = f.split("class=\"arrow\"").nth(1).unwrap();
    let arrow = &arrow[..arrow.find("</g>").unwrap()];
    assert_eq!(arrow.matches("class=\"drop\"").count(), 1, "{arrow}");
    assert_eq!(arrow.matches(" Q ").count(), 2, "a hop to each: {arrow}");
    assert!(f.contains(&format!(
        "drops one on each of {first} and {last}, each a leap"
    )));
}

/// A rule no playout shows a move of is named in what was not found, with
/// its title, rather than left out.
#[test]
fn a_rule_no_playout_shows_is_named_as_missing() {
    // The Romans worn down at 10 stones, the Gauls at 12: the playouts
    // wear the Gauls down first every time.
    let v = edited(
        include_str!("../../../variants/standard.mg"),
        "win {\n    breakthrough immediate by sow\n    stalemate loses\n}",
        "win for r {\n    breakthrough immediate by sow\n    stalemate loses\n    reduced to 10 stones\n}\n\nwin for g {\n    stalemate draws\n    reduced to 12 stones\n}",
    );
    let found = figures_of(&v, &Search::default());
    let titles: Vec<&str> = found.figures.iter().map(|f| f.title.as_str()).collect();
    assert!(titles.contains(&"Worn down (Gauls)"), "{titles:?}");
    assert!(titles.contains(&"No move left (Romans)"), "{titles:?}");
    assert!(titles.contains(&"No move left (Gauls)"), "{titles:?}");
    let missing: Vec<&str> = found.missing.iter().map(|w| w.title.as_str()).collect();
    assert_eq!(missing, ["Worn down (Romans)"]);
    let (_, kinds) = find_figures(&v, &Search::default());
    assert_eq!(kinds, [FigureKind::Reduction]);
    let html = rules_sheet_html(&v, &SheetOptions::default()).unwrap();
    assert!(
        html.contains("no game Murus played showed: worn down"),
        "the sheet says so"
    );
}

#[test]
fn a_sheet_is_self_contained_printable_and_the_same_every_time() {
    let v = shipped("hex");
    let html = rules_sheet_html(&v, &SheetOptions::default()).unwrap();
    assert_eq!(
        html,
        rules_sheet_html(&v, &SheetOptions::default()).unwrap()
    );
    assert!(html.starts_with("<!DOCTYPE html>"));
    // Nothing is fetched: the only URL is the SVG namespace.
    let urls = html.matches("http").count();
    let namespaces = html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count();
    assert_eq!(urls, namespaces);
    for external in ["<script", "<link", "<img", "src=", "@import"] {
        assert!(!html.contains(external), "{external}");
    }
    assert!(html.contains("@page { size: auto; margin: 15mm; }"));
    assert!(html.contains("break-before: page"));
    assert!(html.contains("<h1>Murus Gallicus (hex)</h1>"));
    // The rules in words and the start come first, the game last.
    let rules = html.find("<h2>The rules</h2>").unwrap();
    let start = html.find("data-kind=\"start\"").unwrap();
    let moves = html.find("<h2>The moves, drawn</h2>").unwrap();
    let game = html.find("<h2>An example game</h2>").unwrap();
    assert!(rules < start && start < moves && moves < game);
    assert!(html.contains("<section class=\"page game\">"));
}

/// The rules are laid out as a rulebook: numbered sections and rules, a
/// sub-heading with the players' swatches where their rules differ, lists
/// for a rule's parts; the players' colours come from the rules file in
/// the colour theme (the print theme has none); headings stay with what
/// follows in print.
#[test]
fn the_rules_are_a_rulebook_in_the_players_colours() {
    let v = shipped("siege");
    let html = rules_sheet_html(&v, &SheetOptions::default()).unwrap();
    assert!(
        html.contains("<h3 id=\"rules-5\">5. Winning</h3>"),
        "{html}"
    );
    assert!(html.contains(
        "<p class=\"rule\" id=\"rule-5.3\"><span class=\"num\">5.3</span><strong>Reduction.</strong> Romans lose if they start their turn with at most 6 stones.</p>"
    ));
    assert!(html.contains(
        "<h4 class=\"own\" data-players=\"r\"><span class=\"swatch\" style=\"background: var(--player-r)\"></span>Romans</h4>"
    ));
    assert!(html.contains("<ul class=\"parts\">\n<li>an empty cell</li>"));
    // The colours are the rules file's, for the swatches and the stacks
    // of every diagram on the page (drawn in them), each with an outline
    // that shows on it.
    assert!(html.contains("--player-r: #e8dcc0; --player-g: #5b3a29;"));
    assert!(html.contains("data-player=\"r\" data-height=\"1\"><circle cx="));
    assert!(html.contains("fill=\"#e8dcc0\" stroke=\"#3a3a3a\""));
    assert!(html.contains("fill=\"#5b3a29\" stroke=\"#f0f0f0\""));
    let recoloured = edited(
        include_str!("../../../variants/siege.mg"),
        "colour \"#e8dcc0\"",
        "colour \"#aa0011\"",
    );
    let html2 = rules_sheet_html(&recoloured, &SheetOptions::default()).unwrap();
    assert!(html2.contains("--player-r: #aa0011;"));
    assert!(html2.contains("fill=\"#aa0011\" stroke=\"#f0f0f0\""));
    // A diagram alone draws them too (a PNG or GIF has no page style).
    let alone = murus_publish::Diagram::new(&recoloured, recoloured.start()).to_svg();
    assert!(alone.contains("fill=\"#aa0011\""));
    let print = SheetOptions {
        theme: murus_publish::Theme::Print,
        ..SheetOptions::default()
    };
    let html3 = rules_sheet_html(&v, &print).unwrap();
    assert!(!html3.contains("--player-") && !html3.contains("class=\"swatch\""));
    assert!(html.contains("h1, h2, h3, h4 { break-after: avoid; page-break-after: avoid; }"));
    assert!(html.contains("p.rule.lead { break-after: avoid;"));
}

/// The designer's introduction leads the rules, and a caption from the
/// rules file comes before Murus's own under its figure (for the start,
/// instead of it); each caption is printed once: the example game's
/// diagrams carry no caption of their own beside the figure's.
#[test]
fn the_designers_words_are_printed_once_each() {
    let source = include_str!("../../../variants/siege.mg").replace(
        "title \"Siege\"",
        "title \"Siege\"\nintroduction \"The Romans storm an oppidum.\" \"The Gauls hold.\"\n\
         caption start \"Before the storm.\"\ncaption throw \"An engine hurls a stone.\"",
    );
    let v = Variant::compile(&source).unwrap();
    let html = rules_sheet_html(&v, &SheetOptions::default()).unwrap();
    let intro = html.find("<p class=\"intro\">The Romans storm an oppidum.</p>\n<p class=\"intro\">The Gauls hold.</p>").unwrap();
    assert!(intro < html.find("1. Board").unwrap());
    let figs = figures(&html);
    let start = figs
        .iter()
        .find(|f| attr(f, "data-kind") == Some("start"))
        .unwrap();
    assert!(
        start.contains("<figcaption>Before the storm.</figcaption>"),
        "{start}"
    );
    let throw = figs
        .iter()
        .find(|f| attr(f, "data-kind") == Some("throw"))
        .unwrap();
    assert!(
        throw.contains(
            "<figcaption><span class=\"designer\">An engine hurls a stone.</span> Romans play "
        ),
        "{throw}"
    );
    assert_eq!(html.matches("An engine hurls a stone.").count(), 1);
    // Without the designer's words, nothing of them.
    let plain = rules_sheet_html(&shipped("siege"), &SheetOptions::default()).unwrap();
    assert!(!plain.contains("class=\"intro\"") && !plain.contains("class=\"designer\""));
    assert!(
        plain.contains("<h3>The start</h3>\n")
            && plain.contains(
                "<figcaption>The position before the first move, Romans to move.</figcaption>"
            )
    );
    for f in figures(&plain) {
        let caption = &f[f.find("<figcaption>").unwrap() + "<figcaption>".len()..];
        let caption = &caption[..caption.find("</figcaption>").unwrap()];
        assert!(
            !f.contains("class=\"caption\""),
            "a caption in the diagram too: {caption}"
        );
        assert_eq!(plain.matches(caption).count(), 1, "{caption}");
    }
}

/// In print, figures go in groups that never break (four to a page), and
/// no group holds one figure alone where there are several.
#[test]
fn no_printed_page_holds_one_figure_alone() {
    for name in ["standard", "siege", "hill", "ballista"] {
        let html = rules_sheet_html(&shipped(name), &SheetOptions::default()).unwrap();
        assert!(html.contains(".figure-page { break-inside: avoid;"));
        for part in html.split("<div class=\"figures\">").skip(1) {
            let part = &part[..part.find("</section>").unwrap()];
            let groups: Vec<usize> = part
                .split("<div class=\"figure-page\">")
                .skip(1)
                .map(|g| g.matches("<figure").count())
                .collect();
            let total: usize = groups.iter().sum();
            assert_eq!(total, part.matches("<figure").count(), "{name}");
            assert!(groups.iter().all(|&n| n <= 4), "{name}: {groups:?}");
            if total > 1 {
                assert!(!groups.contains(&1), "{name}: {groups:?}");
            }
        }
    }
}

/// Every figure the sheet draws can be captioned from the rules file: its
/// name is one of the rules language's figure names.
#[test]
fn every_figure_can_be_captioned_from_the_rules_file() {
    for kind in FigureKind::ALL {
        assert!(
            murus_dsl::rules::FIGURES.contains(&kind.id()),
            "`caption {}` is not in murus_dsl::rules::FIGURES",
            kind.id()
        );
    }
    assert!(murus_dsl::rules::FIGURES.contains(&"start"));
}

#[test]
fn the_example_game_has_its_moves_and_a_diagram_every_few_plies() {
    let v = shipped("standard");
    let html = rules_sheet_html(&v, &SheetOptions::default()).unwrap();
    let list_start = html.find("<p class=\"moves\">").unwrap();
    let list = &html[list_start..list_start + html[list_start..].find("</p>").unwrap()];
    assert!(list.starts_with("<p class=\"moves\">1. "), "{list}");
    let game: Vec<&str> = figures(&html)
        .into_iter()
        .filter(|f| attr(f, "data-kind") == Some("game"))
        .collect();
    assert!((2..=6).contains(&game.len()), "{}", game.len());
    for f in game {
        let last = attr(f, "data-last-move").unwrap();
        assert!(list.contains(last), "{last} is in the move list");
        // The last move's cells are the ones shaded.
        let (from, to) = last.split_once(['-', 'x']).unwrap();
        for cell in [from, to] {
            assert!(
                f.contains(&format!("class=\"highlight\" data-cell=\"{cell}\"")),
                "{last}"
            );
        }
    }
}

fn puzzle(text: &str) -> Puzzle {
    Puzzle::from_toml(text).unwrap()
}

const LEAPFROG: &str = r#"
title = "Leapfrog"
board = "5x1"
start = "1r2r22"
targets = ["a1", "c1", "d1", "e1"]
"#;

#[test]
fn a_puzzle_sheet_has_the_puzzles_then_their_solutions_drawn_as_arrows() {
    let easy = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../puzzles/02-5x5-easy.toml"
    ))
    .unwrap();
    let puzzles = vec![
        ("leapfrog.toml".to_string(), puzzle(LEAPFROG)),
        ("02-5x5-easy.toml".to_string(), puzzle(&easy)),
    ];
    let html = mural_sheet_html(&puzzles, &MuralSheetOptions::default()).unwrap();
    let all = figures(&html);
    let (murals, solutions): (Vec<&str>, Vec<&str>) = all
        .iter()
        .partition(|f| attr(f, "data-kind") == Some("mural"));
    assert_eq!(murals.len(), 2);
    assert_eq!(solutions.len(), 2);
    // The solutions are on the second page, after every puzzle.
    let page = html.find("<section class=\"page solutions\">").unwrap();
    assert!(html.rfind("data-kind=\"mural\"").unwrap() < page);
    assert!(html.find("data-kind=\"solution\"").unwrap() > page);
    for ((_, p), (m, s)) in puzzles.iter().zip(murals.iter().zip(&solutions)) {
        // The targets are marked, on the puzzle and on its solution.
        let targets = p.target_cells().len();
        assert_eq!(m.matches("class=\"mark\"").count(), targets);
        assert_eq!(s.matches("class=\"mark\"").count(), targets);
        // The solution is the solver's, optimal, and each move has its arrow.
        let moves: Vec<String> = attr(s, "data-moves")
            .unwrap()
            .split(' ')
            .map(String::from)
            .collect();
        assert!(
            murus_mural::replay(p, &moves)
                .unwrap()
                .is_solved(&p.targets)
        );
        assert_eq!(attr(m, "data-par"), Some(moves.len().to_string().as_str()));
        if let Some(par) = p.optimal {
            assert_eq!(moves.len(), par as usize);
        }
        for mv in &moves {
            assert!(
                s.contains(&format!("class=\"arrow\" data-move=\"{mv}\"")),
                "{mv}"
            );
        }
    }
    assert!(html.contains("<h3>1. Leapfrog</h3>"));
    assert!(html.contains("Par 5"));
    assert!(html.contains("Par 5 · easy"), "the declared difficulty");
}

/// A puzzle's notes may give the answer away: they are printed with its
/// solution, on the second page, not beside the puzzle; the solution's
/// arrows are numbered in the order its moves are played.
#[test]
fn a_puzzles_notes_go_with_its_solution_whose_arrows_are_numbered() {
    let noted = format!("{LEAPFROG}notes = \"Hint: the last tower stands on c1.\"\n");
    let html = mural_sheet_html(
        &[("leapfrog.toml".into(), puzzle(&noted))],
        &MuralSheetOptions::default(),
    )
    .unwrap();
    let page = html.find("<section class=\"page solutions\">").unwrap();
    let note = html
        .find("Hint: the last tower stands on c1.")
        .expect("the notes");
    assert!(note > page, "the notes are on the solutions page");
    assert_eq!(html.matches("Hint:").count(), 1);
    let all = figures(&html);
    let (mural, solution) = (all[0], all[1]);
    assert_eq!(attr(mural, "data-kind"), Some("mural"));
    assert!(!mural.contains("class=\"arrow-number\""));
    assert!(solution.contains("Hint: the last tower stands on c1."));
    // The numbers: 1, 2, 3 … each on the arrow of the move played then.
    let moves: Vec<&str> = attr(solution, "data-moves").unwrap().split(' ').collect();
    let numbered: Vec<(usize, &str)> = solution
        .split("<g class=\"arrow-number\" data-number=\"")
        .skip(1)
        .map(|rest| {
            let (n, rest) = rest.split_once('"').unwrap();
            let m = rest.split("data-move=\"").nth(1).unwrap();
            (n.parse().unwrap(), &m[..m.find('"').unwrap()])
        })
        .collect();
    let expected: Vec<(usize, &str)> = moves.iter().enumerate().map(|(i, m)| (i + 1, *m)).collect();
    assert_eq!(numbered, expected);
    for (n, _) in &numbered {
        assert!(
            solution.contains(&format!(">{n}</text></g>")),
            "{n} is drawn"
        );
    }
}

#[test]
fn a_puzzle_without_a_solution_is_refused_by_name() {
    let none = puzzle(
        "title = \"Stuck\"\nboard = \"3x1\"\nstart = \"1r21\"\ntargets = [\"a1\", \"c1\"]\n",
    );
    let e = mural_sheet_html(
        &[
            ("leapfrog.toml".into(), puzzle(LEAPFROG)),
            ("none.toml".into(), none),
        ],
        &MuralSheetOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        e,
        MuralSheetError::Unsolvable {
            name: "none.toml".into()
        }
    );
    assert!(e.to_string().starts_with("none.toml: "), "{e}");
    assert_eq!(
        mural_sheet_html(&[], &MuralSheetOptions::default()).unwrap_err(),
        MuralSheetError::Empty
    );
}
