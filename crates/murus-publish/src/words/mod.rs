//! The compiled rules in English, laid out as a rulebook
//! ([`rules_in_words`]), after Ludii's `toEnglish`: numbered sections
//! (the board, the players, the setup, the moves, winning, draws and the
//! opening), each a list of numbered rules, one paragraph each with a list
//! where a rule has parts, and a sub-heading for the players whose rules
//! differ from the others'.
//!
//! Every construct has its sentence, and the list stays complete by
//! construction: each rules structure is taken apart field by field, with
//! no `..`, and each enum is matched whole, so a construct added to the
//! language without its sentence does not compile. A rule that is some
//! players' own names them in its own sentence ("Romans lose if they
//! start their turn with at most 4 stones"), and records them in
//! [`Rule::players`].
//!
//! [`rulebook_text`] writes the rulebook as plain text (`murus rules`);
//! `crate::html::rulebook_html` as HTML (the rules sheet, the report page).

mod moves;
mod outcome;

use murus_dsl::ShapeKind;
use murus_dsl::rules::{About, PlayerRules, Rules};
use murus_engine::Variant;

/// The rules of a variant as a rulebook: the title, the designer's
/// introduction (from the rules file) and the numbered sections.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rulebook {
    pub title: String,
    /// The designer's paragraphs (`introduction` in the rules file), or
    /// none.
    pub introduction: Vec<String>,
    pub sections: Vec<Section>,
}

/// A part of the rules: `4. Moves`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Section {
    /// 1, 2, … in order.
    pub number: usize,
    pub heading: &'static str,
    /// The rules for every player first (a group without a heading, left
    /// out when there is none), then a group for each set of players whose
    /// rules differ from the others', by their first player.
    pub groups: Vec<Group>,
}

/// Rules under one sub-heading, or none.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Group {
    /// The players' names (`Romans`, `Romans and Gauls`); `None` for the
    /// rules every player follows.
    pub heading: Option<String>,
    /// The letters of the players the group is for (every player's for the
    /// group without a heading).
    pub players: Vec<char>,
    pub rules: Vec<Rule>,
}

/// One numbered rule: a paragraph, and a list where it has parts.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rule {
    /// `4.2`: the section's number, then the rule's place in it.
    pub number: String,
    /// The rule's name, run in before its text (`Sowing`), if it has one.
    pub name: Option<String>,
    /// The paragraph: whole sentences, the last ending with `:` when a
    /// list follows.
    pub text: String,
    /// The parts, in order: each a phrase without a full stop.
    pub list: Vec<String>,
    /// The letters of the players the rule names as its own; every
    /// player's for a rule everyone follows.
    pub players: Vec<char>,
}

/// The rules of `variant` as a rulebook.
pub fn rules_in_words(variant: &Variant) -> Rulebook {
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
        about,
    } = variant.rules();
    let About {
        introduction,
        captions: _,
    } = about;
    let w = Words { variant };
    let all: Vec<usize> = (0..players.len()).collect();
    let board = vec![
        Draft::shared(&all, None, w.board()),
        Draft::shared(&all, None, w.stack_limit(*stack_limit, players)),
    ];
    let mut side = vec![Draft::shared(&all, None, w.turn_order(players))];
    side.extend((0..players.len()).map(|p| Draft::shared(&[p], None, w.player(p))));
    let start = (0..players.len())
        .map(|p| Draft::shared(&[p], None, w.setup(setup, p)))
        .collect();
    let moves = w.moves(steps, sow, sacrifices, catapults);
    let winning = w.winning();
    let draws = w.draw(draw, adjudicate.as_ref());
    let opening = w.opening(opening);
    let parts = [
        ("Board", board),
        ("Players", side),
        ("Setup", start),
        ("Moves", moves),
        ("Winning", winning),
        ("Draws", draws),
        ("Opening", opening),
    ];
    let sections = parts
        .into_iter()
        .enumerate()
        .map(|(i, (heading, drafts))| w.section(i + 1, heading, drafts))
        .collect();
    Rulebook {
        title: title.clone(),
        introduction: introduction.clone(),
        sections,
    }
}

/// The rules in words as plain text ([`rulebook_text`]).
pub fn rules_text(variant: &Variant) -> String {
    rulebook_text(&rules_in_words(variant))
}

/// `book` as plain text: the title, the introduction, then each section's
/// number and heading, its rules a paragraph a line (`4.2 Sowing. …`) with
/// their lists below (`    - an empty cell`), and each sub-heading on a
/// line of its own; a blank line between sections and before a
/// sub-heading.
pub fn rulebook_text(book: &Rulebook) -> String {
    let mut out = format!("{}\n", book.title);
    for p in &book.introduction {
        out.push('\n');
        out.push_str(p);
        out.push('\n');
    }
    for s in &book.sections {
        out.push_str(&format!("\n{}. {}\n", s.number, s.heading));
        for g in &s.groups {
            if let Some(h) = &g.heading {
                out.push_str(&format!("\n{h}\n"));
            }
            for r in &g.rules {
                out.push_str(&r.number);
                out.push(' ');
                if let Some(name) = &r.name {
                    out.push_str(name);
                    out.push_str(". ");
                }
                out.push_str(&r.text);
                out.push('\n');
                for item in &r.list {
                    out.push_str("    - ");
                    out.push_str(item);
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// A rule before it is numbered: its group (`None`: every player's) and
/// the players it names.
struct Draft {
    group: Option<Vec<usize>>,
    players: Vec<usize>,
    name: Option<String>,
    text: String,
    list: Vec<String>,
}

impl Draft {
    /// A rule in the group every player follows, naming `players`.
    fn shared(players: &[usize], name: Option<&str>, text: String) -> Draft {
        Draft {
            group: None,
            players: players.to_vec(),
            name: name.map(str::to_string),
            text,
            list: Vec::new(),
        }
    }

    /// A rule of `owners` alone: under their sub-heading unless they are
    /// every one of the `count` players.
    fn owned(owners: &[usize], count: usize, name: Option<&str>, text: String) -> Draft {
        let every = owners.len() == count;
        Draft {
            group: (!every).then(|| owners.to_vec()),
            ..Draft::shared(owners, name, text)
        }
    }

    fn with_list(mut self, list: Vec<String>) -> Draft {
        self.list = list;
        self
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

/// "1 stone", "3 stones".
fn stones(n: u32) -> String {
    if n == 1 {
        "1 stone".into()
    } else {
        format!("{n} stones")
    }
}

/// `text` with its first letter in upper case.
fn capital(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
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

/// One or more players as the subject of a sentence: `Romans`, `Belgae`
/// (a name is a people or a team, so a plural: "Romans win"), `Red` or
/// `Player 2` (a colour, or a name ending in a number, is one player, as
/// in chess: "Red wins"), `Romans and Gauls`.
struct Who {
    names: Vec<String>,
    plural: bool,
}

impl Who {
    fn of(players: &[PlayerRules], owners: &[usize]) -> Who {
        let names: Vec<String> = (owners.iter())
            .filter_map(|&p| players.get(p).map(|q| q.name.clone()))
            .collect();
        let plural = names.len() != 1 || !names.iter().all(|n| singular(n));
        Who { names, plural }
    }

    /// The names: `Romans and Gauls`.
    fn name(&self) -> String {
        and_list(&self.names)
    }

    /// `verb` (its plural form, `win`) agreeing with the subject.
    fn verb(&self, verb: &str) -> String {
        if self.plural {
            return verb.to_string();
        }
        match verb {
            "do" => "does".into(),
            "have" => "has".into(),
            "are" => "is".into(),
            v if v.ends_with('s') || v.ends_with("sh") || v.ends_with("ch") => format!("{v}es"),
            v => format!("{v}s"),
        }
    }

    /// `Romans win`, `Red wins`.
    fn says(&self, verb: &str) -> String {
        format!("{} {}", self.name(), self.verb(verb))
    }

    /// `they` or `it`.
    fn they(&self) -> &'static str {
        if self.plural { "they" } else { "it" }
    }

    /// `their` or `its`.
    fn their(&self) -> &'static str {
        if self.plural { "their" } else { "its" }
    }

    /// `them` or `it`.
    fn them(&self) -> &'static str {
        if self.plural { "them" } else { "it" }
    }

    /// `Romans'`, `Red's`, `Romans' and Gauls'`.
    fn possessive(&self) -> String {
        let each: Vec<String> = self.names.iter().map(|n| possessive(n)).collect();
        and_list(&each)
    }
}

/// Whether a player's name is one player's (`Red`, `White`, `Player 2`)
/// rather than a people's or a team's (`Romans`, `Belgae`).
fn singular(name: &str) -> bool {
    const COLOURS: [&str; 16] = [
        "red", "blue", "green", "white", "black", "yellow", "orange", "purple", "brown", "grey",
        "gray", "pink", "gold", "silver", "light", "dark",
    ];
    let lower = name.to_lowercase();
    COLOURS.contains(&lower.as_str()) || name.ends_with(|c: char| c.is_ascii_digit())
}

struct Words<'v> {
    variant: &'v Variant,
}

impl Words<'_> {
    fn rules(&self) -> &Rules {
        self.variant.rules()
    }

    fn players(&self) -> &[PlayerRules] {
        &self.variant.rules().players
    }

    fn who(&self, owners: &[usize]) -> Who {
        Who::of(self.players(), owners)
    }

    /// Numbers the drafts of section `number` and sorts them into groups:
    /// every player's first, then each set of players' own, by its first
    /// player (and in the order first met among equals).
    fn section(&self, number: usize, heading: &'static str, drafts: Vec<Draft>) -> Section {
        let letters = |ps: &[usize]| -> Vec<char> {
            ps.iter()
                .filter_map(|&p| self.players().get(p).map(|q| q.letter))
                .collect()
        };
        let mut keys: Vec<Option<Vec<usize>>> = Vec::new();
        for d in &drafts {
            if !keys.contains(&d.group) {
                keys.push(d.group.clone());
            }
        }
        keys.sort_by_key(|k| k.as_ref().map(|g| g.first().copied().unwrap_or(0)));
        let all: Vec<usize> = (0..self.players().len()).collect();
        let mut drafts: Vec<Option<Draft>> = drafts.into_iter().map(Some).collect();
        let mut counter = 0;
        let groups = keys
            .into_iter()
            .map(|key| {
                let rules = (drafts.iter_mut())
                    .filter(|d| d.as_ref().is_some_and(|d| d.group == key))
                    .filter_map(Option::take)
                    .map(|d| {
                        counter += 1;
                        Rule {
                            number: format!("{number}.{counter}"),
                            name: d.name,
                            text: d.text,
                            list: d.list,
                            players: letters(&d.players),
                        }
                    })
                    .collect();
                Group {
                    heading: key.as_ref().map(|g| self.who(g).name()),
                    players: letters(key.as_deref().unwrap_or(&all)),
                    rules,
                }
            })
            .collect();
        Section {
            number,
            heading,
            groups,
        }
    }

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
        let catapult = self.rules().is_catapult_height(h);
        match h {
            1 => "a wall (1 stone)".into(),
            2 if !catapult => "a tower (2 stones)".into(),
            h if catapult => format!("a catapult ({})", stones(u32::from(h))),
            h => format!("a stack of {}", stones(u32::from(h))),
        }
    }

    /// [`Words::stack`] without its article: `wall (1 stone)`.
    fn stack_noun(&self, h: u8) -> String {
        self.stack(h).trim_start_matches("a ").to_string()
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
        let Some(order) = &self.rules().turn_order else {
            return format!(
                "{count} players take turns in this order: {}; {} first.",
                and_list(&names),
                self.who(&[0]).says("move")
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

    fn player(&self, p: usize) -> String {
        let PlayerRules {
            name: _,
            letter: _,
            colour: _,
            home,
            forward,
            stack_limit: _,
            win: _,
        } = &self.players()[p];
        let who = self.who(&[p]);
        let forward = self.variant.geometry().directions()[*forward].name;
        format!(
            "{} home is {}; {} forward direction is {forward}.",
            who.possessive(),
            self.cells(home),
            who.their()
        )
    }

    fn setup(&self, setup: &[(usize, usize, u8)], p: usize) -> String {
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
                let kind = self.stack_noun(h);
                let kind = kind.split(" (").next().unwrap_or(&kind);
                format!("{kind}s on {}", self.cells(&cells))
            })
            .collect();
        let who = self.who(&[p]);
        if parts.is_empty() {
            format!("{} with no stones.", who.says("start"))
        } else {
            format!("{} with {}.", who.says("start"), and_list(&parts))
        }
    }
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
        assert_eq!(capital("a tower"), "A tower");
    }

    #[test]
    fn a_people_is_plural_and_a_colour_singular() {
        let player = |name: &str| PlayerRules {
            name: name.into(),
            letter: 'r',
            colour: 0,
            home: Vec::new(),
            forward: 0,
            stack_limit: 2,
            win: murus_dsl::rules::WinRules {
                breakthrough: None,
                stalemate: murus_dsl::rules::Stalemate::Loses,
                occupation: None,
                reduced: None,
                capture: None,
            },
        };
        let players = [
            player("Romans"),
            player("Red"),
            player("Blue"),
            player("Belgae"),
            player("P2"),
        ];
        assert_eq!(Who::of(&players, &[0]).says("win"), "Romans win");
        assert_eq!(Who::of(&players, &[1]).says("win"), "Red wins");
        assert_eq!(Who::of(&players, &[1]).says("do"), "Red does");
        assert_eq!(Who::of(&players, &[1, 2]).says("lose"), "Red and Blue lose");
        assert_eq!(Who::of(&players, &[1]).possessive(), "Red's");
        assert_eq!(Who::of(&players, &[0, 1]).possessive(), "Romans' and Red's");
        assert_eq!(Who::of(&players, &[3]).says("start"), "Belgae start");
        assert_eq!(Who::of(&players, &[4]).says("move"), "P2 moves");
    }
}
