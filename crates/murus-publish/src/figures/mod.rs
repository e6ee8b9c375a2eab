//! The rules' own figures, found by Murus on real positions
//! ([`figures_of`]): for each kind of rule the rules file has, the
//! earliest position of a few seeded playouts where it acts, with the move
//! to draw and a caption in words. A kind of move gets a figure for each
//! of its rules ([`Wanted`]): each way of sowing (a player who sows in
//! other directions than another gets its own) onto empty cells, onto
//! each height of own stack and onto enemy stacks, and by leaps where it
//! also steps to neighbours; each
//! sacrifice rule; each kind of throw; a breakthrough by sowing and one by
//! a throw; each player's own stalemate, occupation, reduction and capture
//! rule; a blocked sowing, the pie rule's split and the adjudication.
//!
//! Nothing here knows a variant: the kinds come from the compiled rules and
//! the positions from playing them, so any rules file gets its figures.
//!
//! What is where: this file names the kinds and what a rules file wants;
//! `play` plays the playouts; `spot` recognises each kind on the way;
//! `caption` puts a move into words.

use murus_dsl::rules::{MAX_HEIGHT, Opening, Rules, WinRules};
use murus_engine::{Position, Variant};

mod caption;
mod play;
mod spot;

use play::{Finder, Mode};

/// A kind of move the sheet draws a figure of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FigureKind {
    /// A sowing whose stones all drop on empty cells.
    SowEmpty,
    /// A sowing that drops a stone on an own stack.
    SowOwn,
    /// A sowing that drops a stone on an enemy stack (`onto enemy`).
    SowEnemy,
    /// A sowing along a step vector: its stones leap from cell to cell.
    SowStep,
    /// A stack that may sow, stopped by a stack in its way.
    Blocked,
    /// A sacrifice.
    Sacrifice,
    /// A catapult's throw.
    Throw,
    /// A move that wins by breakthrough.
    Breakthrough,
    /// A move after which a player has no move.
    Stalemate,
    /// The pie rule's first move.
    Pie,
    /// The move that wins by holding cells (`occupy`), at the start of the
    /// player's next turn.
    Occupation,
    /// A move after which a player starts its turn reduced (`reduced to`).
    Reduction,
    /// The move that takes the last stone a player's `capture` asks for.
    Capture,
    /// A move after which, were the game at its ply cap, the adjudication
    /// (`adjudicate by …`) would give it to one player.
    Adjudication,
}

impl FigureKind {
    /// Every kind, in the sheet's order.
    pub const ALL: [FigureKind; 14] = [
        FigureKind::SowEmpty,
        FigureKind::SowOwn,
        FigureKind::SowEnemy,
        FigureKind::SowStep,
        FigureKind::Blocked,
        FigureKind::Sacrifice,
        FigureKind::Throw,
        FigureKind::Breakthrough,
        FigureKind::Stalemate,
        FigureKind::Pie,
        FigureKind::Occupation,
        FigureKind::Reduction,
        FigureKind::Capture,
        FigureKind::Adjudication,
    ];

    /// The kind's name in the sheet's HTML (`data-kind`).
    pub fn id(self) -> &'static str {
        match self {
            FigureKind::SowEmpty => "sow-empty",
            FigureKind::SowOwn => "sow-own",
            FigureKind::SowEnemy => "sow-enemy",
            FigureKind::SowStep => "sow-step",
            FigureKind::Blocked => "blocked",
            FigureKind::Sacrifice => "sacrifice",
            FigureKind::Throw => "throw",
            FigureKind::Breakthrough => "breakthrough",
            FigureKind::Stalemate => "stalemate",
            FigureKind::Pie => "pie",
            FigureKind::Occupation => "occupation",
            FigureKind::Reduction => "reduction",
            FigureKind::Capture => "capture",
            FigureKind::Adjudication => "adjudication",
        }
    }

    /// The kind's heading, the same for all its rules ([`Wanted::title`]
    /// says which rule a figure shows).
    pub fn title(self) -> &'static str {
        match self {
            FigureKind::SowEmpty => "Sowing onto empty cells",
            FigureKind::SowOwn => "Sowing onto an own stack",
            FigureKind::SowEnemy => "Sowing onto an enemy stack",
            FigureKind::SowStep => "Sowing by leaps",
            FigureKind::Blocked => "A blocked sowing",
            FigureKind::Sacrifice => "A sacrifice",
            FigureKind::Throw => "A throw",
            FigureKind::Breakthrough => "A breakthrough",
            FigureKind::Stalemate => "No move left",
            FigureKind::Pie => "The pie rule",
            FigureKind::Occupation => "Holding the cells",
            FigureKind::Reduction => "Worn down",
            FigureKind::Capture => "The last stone taken",
            FigureKind::Adjudication => "Counted at the ply limit",
        }
    }

    /// Whether the rules allow this kind of move at all.
    pub fn allowed(self, rules: &Rules) -> bool {
        wanted(rules).iter().any(|w| w.kind == self)
    }
}

/// A figure the rules call for: a kind of move, which of its rules
/// (`sub`, see [`wanted`]), and its heading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wanted {
    pub kind: FigureKind,
    /// Which rule of the kind: for sowings the way of sowing ([`sowers`]:
    /// a rule of [`Rules::sow`] and the players who sow alike by it; onto
    /// own stacks, times [`OWN_HEIGHTS`] plus the height of the own stack
    /// sown onto); for sacrifices and throws the
    /// rule's index; for a breakthrough 0 by sowing, 1 by a throw; for
    /// stalemate, occupation, reduction and capture the index of the
    /// player's rule among the players' different ones; 0 otherwise.
    pub sub: usize,
    /// The figure's heading: the kind's, and where the kind has several
    /// rules which one ("A sacrifice: tower against catapult, losing two
    /// stones"), and whose rule it is where not every player's
    /// ("Worn down (Romans)").
    pub title: String,
}

/// How many own heights a sowing rule's [`Wanted::sub`] counts per rule.
pub const OWN_HEIGHTS: usize = MAX_HEIGHT as usize + 1;

/// Every figure `rules` call for, in the sheet's order.
pub fn wanted(rules: &Rules) -> Vec<Wanted> {
    let mut out = Vec::new();
    let mut want = |kind: FigureKind, sub: usize, title: String| {
        out.push(Wanted { kind, sub, title });
    };
    let players = rules.players.len();
    let board = rules.geometry.directions().len();
    // Whose a rule is, when not every player's: " (Romans)".
    let whose = |ps: &[usize]| -> String {
        if ps.len() == players {
            return String::new();
        }
        let names: Vec<&str> = ps.iter().map(|&p| rules.players[p].name.as_str()).collect();
        format!(" ({})", names.join(" and "))
    };
    let users = |directions: &[Vec<usize>]| -> Vec<usize> {
        (0..players)
            .filter(|&p| directions.get(p).is_some_and(|d| !d.is_empty()))
            .collect()
    };
    let sowing = sowers(rules);
    for (g, (i, ps)) in sowing.iter().enumerate() {
        if rules.sow[*i].onto_empty {
            let title = format!("{}{}", FigureKind::SowEmpty.title(), whose(ps));
            want(FigureKind::SowEmpty, g, title);
        }
    }
    for (g, (i, ps)) in sowing.iter().enumerate() {
        for &h in &rules.sow[*i].onto_own {
            let title = format!("Sowing onto an own {}{}", stack_name(rules, h), whose(ps));
            want(FigureKind::SowOwn, g * OWN_HEIGHTS + usize::from(h), title);
        }
    }
    for (g, (i, ps)) in sowing.iter().enumerate() {
        if !rules.sow[*i].onto_enemy.is_empty() {
            let title = format!("{}{}", FigureKind::SowEnemy.title(), whose(ps));
            want(FigureKind::SowEnemy, g, title);
        }
    }
    // Leaps beside steps to neighbours: a figure of their own (where a
    // player only leaps, every figure of its sowing shows leaps).
    for (g, (i, ps)) in sowing.iter().enumerate() {
        let dirs = &rules.sow[*i].directions[ps[0]];
        if dirs.iter().any(|&d| d >= board) && dirs.iter().any(|&d| d < board) {
            let title = format!("{}{}", FigureKind::SowStep.title(), whose(ps));
            want(FigureKind::SowStep, g, title);
        }
    }
    if !sowing.is_empty() {
        want(FigureKind::Blocked, 0, FigureKind::Blocked.title().into());
    }
    let sacrifices = &rules.sacrifices;
    for (i, r) in sacrifices.iter().enumerate() {
        let ps = users(&r.directions);
        if ps.is_empty() {
            continue;
        }
        let title = if sacrifices.len() == 1 {
            format!("A sacrifice{}", whose(&ps))
        } else {
            // Losing how many, where another rule pits the same stacks.
            let twin = sacrifices
                .iter()
                .enumerate()
                .any(|(j, o)| j != i && (o.attacker, o.target) == (r.attacker, r.target));
            format!(
                "A sacrifice: {} against {}{}{}",
                stack_name(rules, r.attacker),
                stack_name(rules, r.target),
                if twin {
                    format!(", losing {}", caption::stones(r.lose))
                } else {
                    String::new()
                },
                whose(&ps)
            )
        };
        want(FigureKind::Sacrifice, i, title);
    }
    let kinds = rules.catapults.len();
    for (i, c) in rules.catapults.iter().enumerate() {
        let ps = users(&c.directions);
        if ps.is_empty() {
            continue;
        }
        let title = if kinds > 1 {
            format!("A throw (kind {} of {kinds}){}", i + 1, whose(&ps))
        } else {
            format!("A throw{}", whose(&ps))
        };
        want(FigureKind::Throw, i, title);
    }
    // A breakthrough by sowing, and by a throw onto an empty cell that
    // leaves a wall there.
    let by = |route: usize| -> Vec<usize> {
        (0..players)
            .filter(|&p| match rules.win(p).breakthrough {
                Some(b) if route == 0 => b.by_sow && rules.sow_of(p).is_some(),
                Some(b) => {
                    b.by_throw
                        && rules.catapults.iter().any(|c| {
                            c.onto_empty
                                && c.wall_on_empty
                                && c.directions.get(p).is_some_and(|d| !d.is_empty())
                        })
                }
                None => false,
            })
            .collect()
    };
    let routes: Vec<(usize, Vec<usize>)> = (0..2)
        .map(|r| (r, by(r)))
        .filter(|(_, ps)| !ps.is_empty())
        .collect();
    for (route, ps) in &routes {
        let how = match (routes.len(), route) {
            (1, _) => "",
            (_, 0) => " by sowing",
            _ => " by a throw",
        };
        want(
            FigureKind::Breakthrough,
            *route,
            format!("A breakthrough{how}{}", whose(ps)),
        );
    }
    for (kind, field) in [
        (FigureKind::Stalemate, WinField::Stalemate),
        (FigureKind::Pie, WinField::None),
        (FigureKind::Occupation, WinField::Occupation),
        (FigureKind::Reduction, WinField::Reduction),
        (FigureKind::Capture, WinField::Capture),
    ] {
        if kind == FigureKind::Pie {
            if matches!(rules.opening, Opening::Pie { .. }) {
                want(kind, 0, kind.title().into());
            }
            continue;
        }
        let rules_of = distinct(rules, field);
        for (sub, ps) in rules_of.iter().enumerate() {
            want(kind, sub, format!("{}{}", kind.title(), whose(ps)));
        }
    }
    if rules.adjudicate.is_some() {
        let kind = FigureKind::Adjudication;
        want(kind, 0, kind.title().into());
    }
    out
}

/// The ways of sowing: a sowing rule and the players who sow by it in the
/// same directions, turned to their own forward (two players who both
/// sow in every direction, or both forward only, sow alike; one who sows
/// only forward does not sow like one who sows every way). Each is a
/// sowing figure's [`Wanted::sub`] (times [`OWN_HEIGHTS`] onto own stacks).
pub(crate) fn sowers(rules: &Rules) -> Vec<(usize, Vec<usize>)> {
    let board = rules.geometry.directions().len();
    // A way of sowing: the rule, the directions turned to forward and
    // the number of leaps; and who sows that way.
    type Way = (usize, Vec<usize>, usize);
    let mut out: Vec<(Way, Vec<usize>)> = Vec::new();
    for (i, s) in rules.sow.iter().enumerate() {
        if s.heights.is_empty() {
            continue;
        }
        for p in 0..rules.players.len() {
            let Some(dirs) = s.directions.get(p).filter(|d| !d.is_empty()) else {
                continue;
            };
            let forward = rules.players[p].forward;
            let mut turned: Vec<usize> = dirs
                .iter()
                .filter(|&&d| d < board)
                .map(|&d| (d + board - forward) % board)
                .collect();
            turned.sort_unstable();
            let leaps = dirs.iter().filter(|&&d| d >= board).count();
            let key = (i, turned, leaps);
            match out.iter_mut().find(|(k, _)| *k == key) {
                Some((_, ps)) => ps.push(p),
                None => out.push((key, vec![p])),
            }
        }
    }
    out.into_iter().map(|((i, _, _), ps)| (i, ps)).collect()
}

/// Which way of sowing ([`sowers`]) player `p` sows by.
pub(crate) fn sower_index(rules: &Rules, p: usize) -> usize {
    sowers(rules)
        .iter()
        .position(|(_, ps)| ps.contains(&p))
        .unwrap_or(0)
}

/// A win rule that players may hold differently (`win for L`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum WinField {
    Stalemate,
    Occupation,
    Reduction,
    Capture,
    None,
}

/// Player `p`'s rule of `field`, as text to compare, if it has one.
fn rule_of(win: &WinRules, field: WinField) -> Option<String> {
    match field {
        WinField::Stalemate => Some(format!("{:?}", win.stalemate)),
        WinField::Occupation => win.occupation.as_ref().map(|o| format!("{o:?}")),
        WinField::Reduction => win.reduced.map(|r| format!("{r:?}")),
        WinField::Capture => win.capture.map(|c| c.to_string()),
        WinField::None => None,
    }
}

/// The players' different rules of `field`, each as the players who hold
/// it, in the order of their first player.
fn distinct(rules: &Rules, field: WinField) -> Vec<Vec<usize>> {
    let mut seen: Vec<(String, Vec<usize>)> = Vec::new();
    for p in 0..rules.players.len() {
        let Some(r) = rule_of(rules.win(p), field) else {
            continue;
        };
        match seen.iter_mut().find(|(s, _)| *s == r) {
            Some((_, ps)) => ps.push(p),
            None => seen.push((r, vec![p])),
        }
    }
    seen.into_iter().map(|(_, ps)| ps).collect()
}

/// Which of the players' different rules of `field` player `p` holds
/// ([`Wanted::sub`]).
pub(crate) fn rule_index(rules: &Rules, field: WinField, p: usize) -> usize {
    distinct(rules, field)
        .iter()
        .position(|ps| ps.contains(&p))
        .unwrap_or(0)
}

/// A figure: a position, what to draw on it, and its caption in words.
#[derive(Clone, Debug)]
pub struct Figure {
    pub kind: FigureKind,
    /// Which rule of the kind it shows ([`Wanted::sub`]).
    pub sub: usize,
    /// Its heading ([`Wanted::title`]).
    pub title: String,
    pub position: Position,
    /// The move shown (drawn as an arrow); `None` for a blocked sowing.
    pub arrow: Option<murus_engine::Move>,
    /// Cells with a dot: where a sowing is blocked.
    pub marks: Vec<usize>,
    /// Cells shaded: the blocked stack and its path; the cells a sowing by
    /// leaps drops its stones on.
    pub highlights: Vec<usize>,
    /// What the figure shows, in words.
    pub caption: String,
    /// The playout and ply it was found at.
    pub found_at: (usize, usize),
}

/// How hard [`figures_of`] looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    /// The first playout's seed; playout `i` uses `seed + i`.
    pub seed: u64,
    /// Playouts played (random, squeezing the opponent's moves, greedy,
    /// rushing forward, by turns).
    pub playouts: usize,
    /// Plies at most per playout.
    pub max_plies: usize,
}

impl Default for Search {
    fn default() -> Search {
        Search {
            seed: 1,
            playouts: 16,
            max_plies: 160,
        }
    }
}

/// What [`figures_of`] found: a figure for each [`Wanted`] that a playout
/// showed, in the sheet's order, and those none showed (which a sheet
/// names rather than leaving them out silently).
#[derive(Clone, Debug)]
pub struct Figures {
    pub figures: Vec<Figure>,
    pub missing: Vec<Wanted>,
}

/// The figures of `variant`, one for each its rules call for
/// ([`wanted`]), and those no playout showed.
///
/// Deterministic: the same variant and search give the same figures. Each
/// is the earliest (so the smallest, clearest) position of the playouts
/// where its kind happens; a blocked sowing prefers an enemy in the way,
/// a sowing along the board's directions one along a step vector.
pub fn figures_of(variant: &Variant, search: &Search) -> Figures {
    let wanted = wanted(variant.rules());
    let keys: Vec<(FigureKind, usize)> = wanted.iter().map(|w| (w.kind, w.sub)).collect();
    let mut finder = Finder::new(variant, keys.clone());
    for i in 0..search.playouts {
        let seed = search.seed.wrapping_add(i as u64);
        finder.playout(i, seed, search.max_plies, Mode::ByTurns);
    }
    // Kinds still missing (a player worn down takes many captures): as many
    // playouts again, one player capturing whenever it can and the others
    // never, looking for those kinds alone so that the figures found
    // already stay.
    finder.keep_looking_for_missing();
    if finder.looks_for_any() {
        for i in search.playouts..2 * search.playouts {
            let seed = search.seed.wrapping_add(i as u64);
            finder.playout(i, seed, search.max_plies, Mode::Capture);
        }
    }
    // Still missing (an engine's throw into an opponent's home takes a
    // tall stack, and a chance to use it): eight times as many, one player
    // building on its own stacks one move in two, the others at random.
    finder.keep_looking_for_missing();
    if finder.looks_for_any() {
        for i in 2 * search.playouts..10 * search.playouts {
            let seed = search.seed.wrapping_add(i as u64);
            finder.playout(i, seed, search.max_plies, Mode::Build);
        }
    }
    let mut found = finder.found();
    found.sort_by_key(|(rank, key, _)| (*key, *rank));
    let figures: Vec<Figure> = found
        .into_iter()
        .map(|(_, (kind, sub), mut f)| {
            f.sub = sub;
            f.title = wanted
                .iter()
                .find(|w| (w.kind, w.sub) == (kind, sub))
                .map_or_else(|| kind.title().to_string(), |w| w.title.clone());
            f
        })
        .collect();
    let missing = wanted
        .into_iter()
        .filter(|w| !figures.iter().any(|f| (f.kind, f.sub) == (w.kind, w.sub)))
        .collect();
    Figures { figures, missing }
}

/// [`figures_of`] as the kinds alone: the figures, and each kind that has
/// a figure missing.
pub fn find_figures(variant: &Variant, search: &Search) -> (Vec<Figure>, Vec<FigureKind>) {
    let Figures { figures, missing } = figures_of(variant, search);
    let mut kinds: Vec<FigureKind> = missing.iter().map(|w| w.kind).collect();
    kinds.dedup();
    (figures, kinds)
}

/// A stack of `h` stones by its name: wall, tower, catapult.
pub(crate) fn stack_name(rules: &Rules, h: u8) -> String {
    match h {
        1 => "wall".into(),
        h if rules.is_catapult_height(h) => "catapult".into(),
        2 => "tower".into(),
        h => format!("stack of {h}"),
    }
}
