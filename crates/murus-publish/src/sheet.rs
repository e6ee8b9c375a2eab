//! A variant's printable rules sheet ([`rules_sheet_html`]): one
//! self-contained HTML page with the title, the designer's introduction,
//! the rules laid out as a rulebook, the start, one figure per kind of move
//! the rules allow, found and drawn by Murus on a real position
//! ([`crate::figures`]) with the designer's caption where the rules file
//! gives one, and an example game between two seeded bots with a diagram
//! every few plies.

use std::fmt::Write as _;

use murus_ai::{Bot, BotSpec};
use murus_engine::{Game, Variant};

use crate::diagram::{Diagram, DiagramError, Theme};
use crate::figures::{Figure, FigureKind, Figures, Search, figures_of};
use crate::html::{
    captioned, escape, figure, figure_groups, page_with, player_colours, rulebook_html,
};
use crate::words::rules_in_words;

/// How a rules sheet is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetOptions {
    /// The diagrams' look.
    pub theme: Theme,
    /// How the figures are looked for.
    pub search: Search,
    /// The example game's bots' seed.
    pub game_seed: u64,
    /// The example game's plies at most.
    pub game_plies: usize,
    /// The example game's diagrams at most (the last position always has one).
    pub game_diagrams: usize,
}

impl Default for SheetOptions {
    fn default() -> SheetOptions {
        SheetOptions {
            theme: Theme::Colour,
            search: Search::default(),
            game_seed: 1,
            game_plies: 60,
            game_diagrams: 6,
        }
    }
}

/// What a sheet cannot be made of.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    /// A diagram could not be drawn.
    #[error(transparent)]
    Diagram(#[from] DiagramError),
}

/// The rules sheet of `variant` as one self-contained HTML document.
///
/// ```
/// use murus_engine::Variant;
/// use murus_publish::sheet::{SheetOptions, rules_sheet_html};
///
/// let html = rules_sheet_html(&Variant::standard(), &SheetOptions::default()).unwrap();
/// assert!(html.contains(r#"data-kind="sacrifice""#));
/// assert!(!html.contains(r#"data-kind="throw""#));
/// ```
pub fn rules_sheet_html(variant: &Variant, options: &SheetOptions) -> Result<String, SheetError> {
    let rules = variant.rules();
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<header>\n<h1>{}</h1>\n<p class=\"sub\">A rules sheet written and drawn by Murus from the rules file of <code>{}</code>.</p>\n</header>",
        escape(&rules.title),
        escape(variant.name())
    );
    let colours = options.theme == Theme::Colour;
    body.push_str("<section class=\"rules\">\n<h2>The rules</h2>\n");
    body.push_str(&rules_part(variant, colours, options.theme));
    body.push_str("</section>\n");

    body.push_str(&figures_section(variant, options)?);
    body.push_str(&example_game(variant, options)?);
    let css = if colours {
        player_colours(rules)
    } else {
        String::new()
    };
    Ok(page_with(
        &format!("{} — rules sheet", rules.title),
        &css,
        &body,
    ))
}

/// The rules part of a page, shared by the rules sheet and the report
/// page: the designer's introduction and the rulebook (in a `div.words`;
/// with `colours`, its swatches in the players' colours, which the page
/// declares with [`player_colours`]), then the start with its caption
/// (the designer's, if the rules file gives one). The caller writes the
/// section around it and its heading.
pub fn rules_part(variant: &Variant, colours: bool, theme: Theme) -> String {
    let rules = variant.rules();
    let mut b = String::from("<div class=\"words\">\n");
    b.push_str(&rulebook_html(&rules_in_words(variant), colours));
    b.push_str("</div>\n");
    let start = Diagram::new(variant, variant.start())
        .coordinates(true)
        .theme(theme)
        .to_svg();
    // Not "The start of …" under the heading "The start": a caption says
    // something of its own.
    let first = rules.players.first().map_or("", |p| p.name.as_str());
    let ours = format!("The position before the first move, {first} to move.");
    let caption = rules.about.caption("start").unwrap_or(&ours);
    b.push_str(&figure(
        " class=\"wide\" data-kind=\"start\"",
        Some("The start"),
        &start,
        caption,
    ));
    b
}

/// The figures, one per kind of move the rules allow.
fn figures_section(variant: &Variant, options: &SheetOptions) -> Result<String, SheetError> {
    let Figures { figures, missing } = figures_of(variant, &options.search);
    let mut s = String::from(
        "<section class=\"page\">\n<h2>The moves, drawn</h2>\n\
         <p class=\"note\">Each figure is the first position where its kind of move happened in a few games Murus played by itself.</p>\n\
         <div class=\"figures\">\n",
    );
    let drawn = (figures.iter())
        .map(|f| figure_html(variant, f, options.theme))
        .collect::<Result<Vec<String>, SheetError>>()?;
    s.push_str(&figure_groups(&drawn));
    s.push_str("</div>\n");
    if !missing.is_empty() {
        let names: Vec<&str> = missing.iter().map(|w| w.title.as_str()).collect();
        let _ = writeln!(
            s,
            "<p class=\"note\">The rules allow it, but no game Murus played showed: {}.</p>",
            escape(&names.join("; ").to_lowercase())
        );
    }
    s.push_str("</section>\n");
    Ok(s)
}

fn figure_html(variant: &Variant, f: &Figure, theme: Theme) -> Result<String, SheetError> {
    let mut d = Diagram::new(variant, f.position)
        .coordinates(true)
        .theme(theme);
    let mut attrs = format!(" data-kind=\"{}\" data-rule=\"{}\"", f.kind.id(), f.sub);
    if let Some(m) = f.arrow {
        d = d.arrow(m)?;
        let _ = write!(
            attrs,
            " data-move=\"{}\"",
            escape(&variant.move_to_string(m))
        );
    }
    for &c in &f.highlights {
        d = d.highlight(c);
    }
    for &c in &f.marks {
        d = d.mark(c);
    }
    if f.kind == FigureKind::Blocked {
        let g = variant.geometry();
        let cells: Vec<String> = f.marks.iter().map(|&c| g.name(c)).collect();
        let _ = write!(attrs, " data-blocked=\"{}\"", cells.join(","));
    }
    // The figure's rule and whose it is ("A throw (kind 2 of 2)",
    // "Worn down (Romans)").
    let title = &f.title;
    let designer = variant.rules().about.caption(f.kind.id());
    Ok(captioned(
        &attrs,
        Some(title),
        &d.to_svg(),
        designer,
        &f.caption,
    ))
}

/// An example game between two seeded greedy bots: the moves, and a
/// diagram every few plies with the last move shaded.
fn example_game(variant: &Variant, options: &SheetOptions) -> Result<String, SheetError> {
    let players = variant.player_count();
    let mut bots: Vec<Bot> = (0..players)
        .map(|p| Bot::new(BotSpec::Greedy, options.game_seed.wrapping_add(p as u64)))
        .collect();
    let mut game = Game::new(variant);
    while game.ply() < options.game_plies && game.outcome().is_none() {
        let seat = game.seat_of(variant.turn(game.position()));
        let Some(m) = bots[seat % players].choose_in_game(&game) else {
            break;
        };
        if !game.play(m) {
            break;
        }
    }
    let moves = game.moves();
    let names: Vec<String> = moves.iter().map(|&m| variant.move_to_string(m)).collect();
    let mut list = String::new();
    for (i, name) in names.iter().enumerate() {
        if i % players == 0 {
            let _ = write!(
                list,
                "{}{}. ",
                if i == 0 { "" } else { " " },
                i / players + 1
            );
        } else {
            list.push(' ');
        }
        list.push_str(name);
    }
    let end = match game.outcome() {
        Some(o) => format!("{}.", variant.describe_outcome(o)),
        None => format!(
            "The game goes on; this is where the sheet stops, after {} plies.",
            moves.len()
        ),
    };
    let mut s = format!(
        "<section class=\"page game\">\n<h2>An example game</h2>\n\
         <p class=\"note\">Played by two greedy bots (each takes the move that looks best one ply ahead), seeded {}.</p>\n\
         <p class=\"moves\">{}</p>\n<p>{}</p>\n<div class=\"figures\">\n",
        options.game_seed,
        escape(&list),
        escape(&end)
    );
    let count = moves.len();
    let every = count.div_ceil(options.game_diagrams.max(1)).max(1);
    let mut plies: Vec<usize> = (1..=count).filter(|p| p % every == 0).collect();
    if plies.last() != Some(&count) && count > 0 {
        plies.push(count);
    }
    if plies.len() > options.game_diagrams.max(1) {
        plies.remove(plies.len() - 2);
    }
    let mut drawn = Vec::with_capacity(plies.len());
    for ply in plies {
        let m = moves[ply - 1];
        let pos = game.positions()[ply];
        let label = format!(
            "After {}.{} {}",
            (ply - 1) / players + 1,
            if (ply - 1) % players == 0 { "" } else { ".." },
            names[ply - 1]
        );
        // The label is the figure's caption, printed once: not in the SVG.
        let svg = Diagram::new(variant, pos)
            .coordinates(true)
            .theme(options.theme)
            .highlight_move(m)
            .to_svg();
        let attrs = format!(
            " data-kind=\"game\" data-ply=\"{ply}\" data-last-move=\"{}\"",
            escape(&names[ply - 1])
        );
        drawn.push(figure(&attrs, None, &svg, &format!("{label}.")));
    }
    s.push_str(&figure_groups(&drawn));
    s.push_str("</div>\n</section>\n");
    Ok(s)
}
