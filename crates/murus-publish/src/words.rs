//! The compiled rules in English ([`rules_in_words`]), after Ludii's
//! `toEnglish`: the board, the players and the setup, each kind of move,
//! captures and throws, how to win and draw, and the opening rule.
//!
//! Every construct has its sentence, and the list stays complete by
//! construction: each rules structure is taken apart field by field, with
//! no `..`, and each enum is matched whole, so a construct added to the
//! language without its sentence does not compile.

use murus_dsl::ShapeKind;
use murus_dsl::rules::{
    Adjudication, Breakthrough, CatapultRule, DrawRules, Material, Occupation, Opening,
    PlayerRules, Reduction, Rules, SacrificeRule, SowCapture, SowRule, Stalemate, Timing, WinRules,
};
use murus_engine::Variant;

/// A part of the rules, with its heading and its sentences.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Section {
    pub heading: &'static str,
    pub sentences: Vec<String>,
}

/// The rules of `variant` in words, section by section.
pub fn rules_in_words(variant: &Variant) -> Vec<Section> {
    let Rules {
        name: _,
        title,
        geometry: _,
        players,
        steps,
        turn_order: _,
        setup,
        stack_limit,
        sow,
        sacrifices,
        catapults,
        draw,
        adjudicate,
        opening,
        about: _,
    } = variant.rules();
    let w = Words { variant };
    let mut sections = vec![Section {
        heading: "Board",
        sentences: vec![
            format!("These are the rules of {title}."),
            w.board(),
            w.stack_limit(*stack_limit, players),
        ],
    }];
    let mut side = vec![w.turn_order(players)];
    side.extend(players.iter().map(|p| w.player(p)));
    sections.push(Section {
        heading: "Players",
        sentences: side,
    });
    sections.push(Section {
        heading: "Setup",
        sentences: w.setup(setup),
    });
    let mut moves = vec![
        "On a turn, a player makes one of the moves below with a stack of its own.".to_string(),
    ];
    if !steps.is_empty() {
        let g = variant.geometry();
        let last = (b'a' + (g.width() as u8).saturating_sub(1)) as char;
        let count = match g.kind() {
            ShapeKind::Rect => {
                format!(
                    "the first number counts files toward {last}, the second ranks up the board"
                )
            }
            ShapeKind::Hex => "the first number counts cells toward e, the second toward ne".into(),
        };
        moves.push(format!(
            "A step such as (1,2) leaps straight to its cell, over whatever is between: {count} (negative numbers the other way); a move along a step repeats it, cell to cell."
        ));
    }
    if sow.is_empty() {
        moves.push("No stack sows.".into());
    }
    for rule in sow {
        moves.extend(w.sow(rule));
    }
    let without = |dirs: &mut dyn Iterator<Item = &Vec<Vec<usize>>>| {
        let mut has = vec![false; players.len()];
        for d in dirs {
            for (p, list) in d.iter().enumerate() {
                has[p] |= !list.is_empty();
            }
        }
        players
            .iter()
            .zip(has)
            .filter(|&(_, has)| !has)
            .map(|(p, _)| p.name.clone())
            .collect::<Vec<String>>()
    };
    let idle = without(&mut sow.iter().map(|r| &r.directions));
    if !sow.is_empty() && !idle.is_empty() {
        moves.push(format!("{} do not sow.", and_list(&idle)));
    }
    if sacrifices.is_empty() {
        moves.push("No sacrifices: no stack gives up stones to take enemy ones.".into());
    }
    for rule in sacrifices {
        moves.push(w.sacrifice(rule));
    }
    let idle = without(&mut sacrifices.iter().map(|r| &r.directions));
    if !sacrifices.is_empty() && !idle.is_empty() {
        moves.push(format!("{} make no sacrifices.", and_list(&idle)));
    }
    for (i, rule) in catapults.iter().enumerate() {
        let which = (catapults.len() > 1).then_some((i + 1, catapults.len()));
        moves.extend(w.catapult(rule, which));
    }
    let idle = without(&mut catapults.iter().map(|r| &r.directions));
    if !catapults.is_empty() && !idle.is_empty() {
        moves.push(format!("{} do not throw.", and_list(&idle)));
    }
    sections.push(Section {
        heading: "Moves",
        sentences: moves,
    });
    let winning = match variant.rules().shared_win() {
        Some(win) => w.win(win, players.len()),
        // Each player's rules under its name.
        None => players
            .iter()
            .flat_map(|p| {
                let head = format!("The rules that follow are {} own.", possessive(&p.name));
                std::iter::once(head).chain(w.win(&p.win, players.len()))
            })
            .collect(),
    };
    sections.push(Section {
        heading: "Winning",
        sentences: winning,
    });
    sections.push(Section {
        heading: "Draws",
        sentences: w.draw(draw, adjudicate.as_ref()),
    });
    sections.push(Section {
        heading: "Opening",
        sentences: w.opening(opening, players),
    });
    sections
}

/// The rules in words as plain text: a heading a section, a sentence a
/// line, a blank line between sections.
pub fn rules_text(variant: &Variant) -> String {
    sections_text(&rules_in_words(variant))
}

/// `sections` as plain text, as [`rules_text`] writes them.
pub fn sections_text(sections: &[Section]) -> String {
    let mut out = String::new();
    for (i, s) in sections.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(s.heading);
        out.push('\n');
        for line in &s.sentences {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// "1 stone", "3 stones".
fn stones(n: u32) -> String {
    if n == 1 {
        "1 stone".into()
    } else {
        format!("{n} stones")
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

struct Words<'v> {
    variant: &'v Variant,
}

impl Words<'_> {
    fn cells(&self, slots: &[usize]) -> String {
        let g = self.variant.geometry();
        let names: Vec<String> = slots.iter().map(|&s| g.name(s)).collect();
        and_list(&names)
    }

    fn cells_or(&self, slots: &[usize]) -> String {
        let g = self.variant.geometry();
        let names: Vec<String> = slots.iter().map(|&s| g.name(s)).collect();
        or_list(&names)
    }

    fn directions(&self, indices: &[usize]) -> String {
        let rules = self.variant.rules();
        let names: Vec<String> = indices.iter().map(|&d| rules.direction_name(d)).collect();
        if self.every_direction(indices) {
            "any direction".into()
        } else {
            or_list(&names)
        }
    }

    /// Whether `indices` are the board's directions, all of them and no
    /// step vector.
    fn every_direction(&self, indices: &[usize]) -> bool {
        let all = self.variant.geometry().directions().len();
        indices.len() == all && indices.iter().all(|&d| d < all)
    }

    /// Each player's directions as a phrase: `in any direction`, `toward
    /// n, ne or nw`, or `toward n for Romans and s for Gauls`. Players
    /// without directions are left out (the rule is not theirs: see
    /// [`Words::only`]).
    fn per_player(&self, directions: &[Vec<usize>]) -> String {
        let players = &self.variant.rules().players;
        let theirs: Vec<(&Vec<usize>, &PlayerRules)> = directions
            .iter()
            .zip(players)
            .filter(|(d, _)| !d.is_empty())
            .collect();
        if theirs.windows(2).all(|w| w[0].0 == w[1].0) {
            return match theirs.first() {
                Some((d, _)) if self.every_direction(d) => "in any direction".into(),
                Some((d, _)) => format!("toward {}", self.directions(d)),
                None => String::new(),
            };
        }
        let parts: Vec<String> = theirs
            .iter()
            .map(|(d, p)| format!("{} for {}", self.directions(d), p.name))
            .collect();
        format!("toward {}", and_list(&parts))
    }

    /// ` (Romans only)` for a rule only some players have (directions for
    /// them alone), else nothing.
    fn only(&self, directions: &[Vec<usize>]) -> String {
        let players = &self.variant.rules().players;
        let names: Vec<String> = directions
            .iter()
            .zip(players)
            .filter(|(d, _)| !d.is_empty())
            .map(|(_, p)| p.name.clone())
            .collect();
        if names.len() == players.len() {
            String::new()
        } else {
            format!(" ({} only)", and_list(&names))
        }
    }

    /// The stack limit, each player's where they differ.
    fn stack_limit(&self, limit: u8, players: &[PlayerRules]) -> String {
        if players.iter().all(|p| p.stack_limit == limit) {
            return format!("A stack holds at most {}.", stones(u32::from(limit)));
        }
        let parts: Vec<String> = players
            .iter()
            .map(|p| format!("{} for {}", stones(u32::from(p.stack_limit)), p.name))
            .collect();
        format!(
            "A stack holds at most {}, by its owner: no move makes a stack taller than that.",
            and_list(&parts)
        )
    }

    /// A stack of `h` stones by its name: a wall, a tower, a catapult.
    fn stack(&self, h: u8) -> String {
        let catapult = self.variant.rules().is_catapult_height(h);
        match h {
            1 => "a wall (1 stone)".into(),
            2 if !catapult => "a tower (2 stones)".into(),
            h if catapult => format!("a catapult ({})", stones(u32::from(h))),
            h => format!("a stack of {}", stones(u32::from(h))),
        }
    }

    fn board(&self) -> String {
        let g = self.variant.geometry();
        let cells = g.cell_count();
        match g.kind() {
            ShapeKind::Rect => {
                let full = g.width() * g.height();
                let removed: Vec<usize> = (0..g.slots()).filter(|&s| !g.exists(s)).collect();
                let last = char::from(b'a' + (g.width() - 1) as u8);
                let mut s = format!(
                    "The board is a rectangle of {} files (a to {last}) and {} ranks (1 to {})",
                    g.width(),
                    g.height(),
                    g.height()
                );
                if removed.is_empty() {
                    s.push_str(&format!(", {full} cells."));
                } else {
                    s.push_str(&format!(
                        ", without {}: {cells} cells.",
                        self.cells(&removed)
                    ));
                }
                s
            }
            ShapeKind::Hex => format!(
                "The board is a hexagon of {} cells a side, {cells} cells; a cell has six neighbours.",
                g.width().div_ceil(2)
            ),
        }
    }

    fn turn_order(&self, players: &[PlayerRules]) -> String {
        let names: Vec<String> = players
            .iter()
            .map(|p| format!("{} ({})", p.name, p.letter))
            .collect();
        let count = match players.len() {
            2 => "Two".to_string(),
            3 => "Three".to_string(),
            4 => "Four".to_string(),
            n => format!("{n}"),
        };
        let Some(order) = &self.variant.rules().turn_order else {
            return format!(
                "{count} players take turns in this order: {}; {} move first.",
                and_list(&names),
                players.first().map_or("", |p| p.name.as_str())
            );
        };
        let name = |&p: &usize| players.get(p).map_or("?".to_string(), |p| p.name.clone());
        let cycle: Vec<String> = order.cycle.iter().map(name).collect();
        let first: Vec<String> = order.first.iter().map(name).collect();
        let first = if first.is_empty() {
            String::new()
        } else {
            format!("first {}, then ", first.join(", "))
        };
        format!(
            "{count} players: {}. Turns go {first}{} over and over, a player named twice in a row moving twice in a row.",
            and_list(&names),
            cycle.join(", ")
        )
    }

    fn player(&self, p: &PlayerRules) -> String {
        let PlayerRules {
            name,
            letter: _,
            colour: _,
            home,
            forward,
            stack_limit: _,
            win: _,
        } = p;
        let forward = self.variant.geometry().directions()[*forward].name;
        format!(
            "{} home is {}; their forward direction is {forward}.",
            possessive(name),
            self.cells(home)
        )
    }

    fn setup(&self, setup: &[(usize, usize, u8)]) -> Vec<String> {
        let players = &self.variant.rules().players;
        let mut out = Vec::new();
        for (p, player) in players.iter().enumerate() {
            let mut heights: Vec<u8> = setup.iter().filter(|s| s.1 == p).map(|s| s.2).collect();
            heights.sort_unstable();
            heights.dedup();
            let parts: Vec<String> = heights
                .iter()
                .map(|&h| {
                    let cells: Vec<usize> = setup
                        .iter()
                        .filter(|s| s.1 == p && s.2 == h)
                        .map(|s| s.0)
                        .collect();
                    let kind = self.stack(h);
                    let kind = kind.split(" (").next().unwrap_or(&kind);
                    let kind = kind.trim_start_matches("a ");
                    format!("{kind}s on {}", self.cells(&cells))
                })
                .collect();
            out.push(if parts.is_empty() {
                format!("{} start with no stones.", player.name)
            } else {
                format!("{} start with {}.", player.name, and_list(&parts))
            });
        }
        out
    }

    fn sow(&self, rule: &SowRule) -> Vec<String> {
        let SowRule {
            heights,
            directions,
            onto_empty,
            onto_own,
            onto_enemy,
            on_enemy,
        } = rule;
        let who: Vec<String> = heights.iter().map(|&h| self.stack(h)).collect();
        let mut out = vec![format!(
            "Sowing{}: {} lifts all its stones and drops one on each of the nearest cells in a line {}, as many cells as it had stones.",
            self.only(directions),
            or_list(&who),
            self.per_player(directions)
        )];
        let mut onto = Vec::new();
        if *onto_empty {
            onto.push("an empty cell".to_string());
        }
        for &h in onto_own {
            onto.push(format!("an own {}", self.stack(h).trim_start_matches("a ")));
        }
        let enemies: Vec<String> = onto_enemy
            .iter()
            .map(|&h| self.stack(h).trim_start_matches("a ").to_string())
            .collect();
        if !enemies.is_empty() {
            onto.push(format!("an enemy {}", or_list(&enemies)));
        }
        let elsewhere = if enemies.is_empty() {
            "off the board, on an enemy stack, on a stack that would grow too tall"
        } else {
            "off the board, on another enemy stack, on a stack that would grow too tall"
        };
        out.push(if onto.is_empty() {
            "A sown stone may not drop anywhere: no stack can sow.".into()
        } else {
            format!(
                "A stone may drop only on {}; a sowing that would drop one anywhere else ({elsewhere}) may not be made.",
                or_list(&onto)
            )
        });
        if !enemies.is_empty() {
            out.push(match on_enemy {
                SowCapture::Capture => "A stone sown onto an enemy stack captures it: the enemy stack leaves the game and the stone stays there as a wall of the sower's.".to_string(),
                SowCapture::Remove(n) => format!(
                    "A stone sown onto an enemy stack leaves the game with {} of it (all, if it has fewer).",
                    stones(u32::from(*n))
                ),
            });
        }
        out
    }

    fn sacrifice(&self, rule: &SacrificeRule) -> String {
        let SacrificeRule {
            attacker,
            target,
            lose,
            remove,
            directions,
        } = rule;
        format!(
            "Sacrifice{}: {} next to an enemy {} {} may give up {} to take {} from it.",
            self.only(directions),
            self.stack(*attacker),
            self.stack(*target).trim_start_matches("a "),
            self.per_player(directions),
            stones(u32::from(*lose)),
            stones(u32::from(*remove))
        )
    }

    /// The sentences of one catapult rule; `which` numbers it among several
    /// (`(1, 2)`: the first of two), so that each says which throws it makes.
    fn catapult(&self, rule: &CatapultRule, which: Option<(usize, usize)>) -> Vec<String> {
        let CatapultRule {
            height,
            directions,
            ranges,
            onto_empty,
            onto_enemy,
            wall_on_empty,
            hit_removes,
        } = rule;
        let ranges: Vec<String> = ranges.iter().map(ToString::to_string).collect();
        let (head, thrown) = match which {
            None => (format!("Throw{}", self.only(directions)), "thrown"),
            Some((i, n)) => (
                format!("Throw ({i} of {n} kinds){}", self.only(directions)),
                "thrown so",
            ),
        };
        let cells = if ranges == ["1"] { "cell" } else { "cells" };
        let mut out = vec![format!(
            "{head}: {} throws its top stone over anything, exactly {} {cells} away {}, and is one stone lower after.",
            self.stack(*height),
            or_list(&ranges),
            self.per_player(directions)
        )];
        if *onto_empty {
            out.push(if *wall_on_empty {
                format!(
                    "A stone {thrown} onto an empty cell stays there as a wall of the thrower's."
                )
            } else {
                format!("A stone {thrown} onto an empty cell is lost: it leaves the game.")
            });
        } else {
            out.push(format!("A stone may not be {thrown} onto an empty cell."));
        }
        if !onto_enemy.is_empty() {
            let targets: Vec<String> = onto_enemy
                .iter()
                .map(|&h| self.stack(h).trim_start_matches("a ").to_string())
                .collect();
            out.push(format!(
                "A stone {thrown} onto an enemy {} leaves the game with {} of it (all, if it has fewer).",
                or_list(&targets),
                stones(u32::from(*hit_removes))
            ));
        }
        out
    }

    fn win(&self, win: &WinRules, players: usize) -> Vec<String> {
        let WinRules {
            breakthrough,
            stalemate,
            occupation,
            reduced,
            capture,
        } = win;
        let mut out = Vec::new();
        match breakthrough {
            Some(Breakthrough {
                timing,
                by_sow,
                by_throw,
                min_height,
                count,
            }) => {
                let mut how = Vec::new();
                if *by_sow {
                    how.push("sowing".to_string());
                }
                if *by_throw {
                    how.push("a throw".to_string());
                }
                let how = if how.is_empty() {
                    "no move".to_string()
                } else {
                    or_list(&how)
                };
                let (making, stands) = if *min_height > 1 {
                    let tall = stones(u32::from(*min_height));
                    (
                        format!(", making a stack of at least {tall} there,"),
                        format!("a stack of at least {tall} of its"),
                    )
                } else {
                    (String::new(), "one of its stones".to_string())
                };
                out.push(match timing {
                    Timing::Immediate => format!(
                        "Breakthrough: a player who puts a stone on an opponent's home by {how}{making} wins at once."
                    ),
                    Timing::Delayed => format!(
                        "Breakthrough: a player who puts a stone on an opponent's home by {how} wins if {stands} still stands on that home at the start of its next turn."
                    ),
                });
                if *count > 1 {
                    let within = if *min_height > 1 {
                        format!(" in stacks of at least {}", stones(u32::from(*min_height)))
                    } else {
                        String::new()
                    };
                    out.push(format!(
                        "Only with at least {} of its own on opponents' homes at once{within} (counting the new one) does it break through.",
                        stones(*count)
                    ));
                }
            }
            None => out.push("Reaching an opponent's home wins nothing.".into()),
        }
        if let Some(Occupation { cells, count }) = occupation {
            let how = if *count as usize == cells.len() && cells.len() > 1 {
                format!("a stack on every one of {}", self.cells(cells))
            } else if cells.len() == 1 {
                format!("a stack on {}", self.cells(cells))
            } else {
                format!("stacks on at least {} of {}", count, self.cells(cells))
            };
            out.push(format!(
                "Occupation: a player who has {how} at the start of its turn wins."
            ));
        }
        if let Some(Reduction { at_most, material }) = reduced {
            let what = match material {
                Material::Stones => stones(*at_most),
                Material::Towers if *at_most == 1 => "1 tower (stack of two or more stones)".into(),
                Material::Towers => format!("{at_most} towers (stacks of two or more stones)"),
            };
            out.push(if players > 2 {
                format!(
                    "Reduction: a player who starts its turn with at most {what} is out of the game (its stones stay on the board)."
                )
            } else {
                format!("Reduction: a player who starts its turn with at most {what} loses.")
            });
        }
        if let Some(n) = capture {
            let taken = match n {
                1 => "an enemy stone".to_string(),
                n => format!("{n} enemy stones"),
            };
            out.push(format!(
                "Capture: a player who has taken {taken} in all (by sacrifices, throws and sowing onto enemy stacks) wins at once, with the move that takes the last of them."
            ));
        }
        out.push(match stalemate {
            Stalemate::Loses if players > 2 => "A player who cannot move at the start of its turn is out of the game (its stones stay on the board); the last player able to move wins.".into(),
            Stalemate::Loses => "A player who cannot move at the start of its turn loses.".into(),
            Stalemate::Draws => "A player who cannot move at the start of its turn draws the game.".into(),
        });
        out
    }

    fn draw(&self, draw: &DrawRules, adjudicate: Option<&Adjudication>) -> Vec<String> {
        let DrawRules {
            repetition,
            ply_cap,
        } = draw;
        let mut out = Vec::new();
        if let Some(n) = repetition {
            out.push(format!(
                "The game is drawn when a position occurs for the {} time.",
                ordinal(*n)
            ));
        }
        match (ply_cap, adjudicate) {
            (Some(n), Some(how)) => {
                let most = |what: String| {
                    format!(
                        "Adjudication: after {n} plies the game ends, and the player with the most {what} wins; when several players have the most, the game is drawn."
                    )
                };
                out.push(match how {
                    Adjudication::Material(Material::Stones) => most("stones".into()),
                    Adjudication::Material(Material::Towers) => {
                        most("towers (stacks of two or more stones)".into())
                    }
                    Adjudication::Stacks(cells) => most(format!("stacks on {}", self.cells(cells))),
                    Adjudication::Player(p) => {
                        let name = self.variant.rules().players.get(*p).map_or("?", |q| &q.name);
                        format!(
                            "Adjudication: after {n} plies the game ends, and {name} win (should {name} be out of the game by then, it is drawn)."
                        )
                    }
                });
            }
            (Some(n), None) => out.push(format!("The game is drawn after {n} plies.")),
            (None, _) => {}
        }
        if out.is_empty() {
            out.push("No rule draws the game.".into());
        }
        out
    }

    fn opening(&self, opening: &Opening, players: &[PlayerRules]) -> Vec<String> {
        match opening {
            Opening::None => vec!["Play starts normally with the first move.".into()],
            Opening::Pie { from, to } => {
                let name = |i: usize| players.get(i).map_or("", |p| p.name.as_str());
                vec![
                    format!(
                        "Pie rule: {} first move lifts a tower from {} and drops its two stones as walls on two empty cells of {}.",
                        possessive(name(0)),
                        self.cells_or(&from[0]),
                        self.cells(&to[0])
                    ),
                    format!(
                        "{} then either swap seats with them, or make the same kind of move from {} onto two empty cells of {}; after a swap, the second colour still makes its first move so.",
                        name(1),
                        self.cells_or(&from[1]),
                        self.cells(&to[1])
                    ),
                ]
            }
        }
    }
}

/// `Romans'`, `Red's`.
fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `21st`.
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_counts_read_as_english() {
        assert_eq!(and_list(&["a".into()]), "a");
        assert_eq!(and_list(&["a".into(), "b".into()]), "a and b");
        assert_eq!(or_list(&["a".into(), "b".into(), "c".into()]), "a, b or c");
        assert_eq!(stones(1), "1 stone");
        assert_eq!(stones(3), "3 stones");
        let ords: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal).to_vec();
        assert_eq!(
            ords,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"
            ]
        );
    }
}
