//! Players and turns: each `player` block (letter, colour, home, forward)
//! and the order `turns` gives them.

use std::collections::HashMap;

use super::Lowerer;
use super::cellset::eval_cellset;
use super::directions::{direction_help, is_compass};
use super::text::{direction_list, join_and, shape_name};
use crate::ast::*;
use crate::diagnostic::{Diagnostic, Span};
use crate::geometry::Relative;
use crate::rules::{MAX_PLAYERS, TurnOrder};

/// What lowering knows about one player so far.
#[derive(Clone, Debug)]
pub(super) struct PlayerInfo {
    pub(super) name: String,
    pub(super) head: Span,
    pub(super) letter: Option<char>,
    pub(super) colour: Option<u32>,
    pub(super) home: Option<Vec<usize>>,
    pub(super) forward: Option<usize>,
    /// The `forward` statement, for whole-file checks that blame it.
    pub(super) forward_span: Option<Span>,
}

impl PlayerInfo {
    /// `the Romans (`r`)`, for messages.
    pub(super) fn describe(&self) -> String {
        match self.letter {
            Some(l) => format!("the {} (`{l}`)", self.name),
            None => format!("the {}", self.name),
        }
    }
}

impl Lowerer {
    fn letters_note(&self) -> String {
        let letters: Vec<String> = self
            .players
            .iter()
            .filter_map(|p| p.letter.map(|l| format!("`{l}` ({})", p.name)))
            .collect();
        if letters.is_empty() {
            "no player letter is declared".to_string()
        } else {
            format!("the players are {}", join_and(&letters))
        }
    }

    /// The index (in turn order) of the player with this letter, or an
    /// "unknown player" error.
    pub(super) fn player_index(&mut self, name: &Name) -> Option<usize> {
        let found = self
            .players
            .iter()
            .position(|p| p.letter.is_some_and(|l| name.value.chars().eq([l])));
        if found.is_none() && !self.duplicate_letters {
            let note = self.letters_note();
            self.error(name.span, format!("unknown player `{}`", name.value))
                .notes
                .push(note);
        }
        found
    }

    pub(super) fn lower_players(&mut self, players: &[&Player]) {
        match players.len() {
            0 => {
                self.missing(
                    "player",
                    "player \"Romans\" {\n    letter r\n    colour \"#e8dcc0\"\n    home rank 1\n    forward n\n}",
                );
            }
            1 => {
                self.error(players[0].head, "a variant needs at least 2 players, this one has 1")
                    .notes
                    .push("declare each player with `player \"NAME\" { … }`; the first declared moves first".to_string());
            }
            _ => {}
        }
        for extra in players.iter().skip(MAX_PLAYERS) {
            self.error(
                extra.head,
                format!("too many players: a variant has at most {MAX_PLAYERS}"),
            );
        }

        let mut names: HashMap<&str, Span> = HashMap::new();
        let mut letters: HashMap<char, Span> = HashMap::new();
        for p in players {
            let info = self.lower_player(p);
            if p.name.value.is_empty() {
                self.error(p.name.span, "the player name is empty");
            } else if let Some(&first) = names.get(p.name.value.as_str()) {
                self.push(
                    Diagnostic::error(
                        p.name.span,
                        format!("duplicate player name `{}`", p.name.value),
                    )
                    .with_label(first, "first defined here"),
                );
            } else {
                names.insert(&p.name.value, p.name.span);
            }
            if let (Some(letter), Some(span)) = (info.letter, letter_span(p)) {
                if let Some(&first) = letters.get(&letter) {
                    self.duplicate_letters = true;
                    self.push(
                        Diagnostic::error(span, format!("duplicate player letter `{letter}`"))
                            .with_label(first, "first defined here")
                            .with_note("every player needs a letter of its own"),
                    );
                } else {
                    letters.insert(letter, span);
                }
            }
            self.players.push(info);
        }
    }

    fn lower_player(&mut self, p: &Player) -> PlayerInfo {
        let mut info = PlayerInfo {
            name: p.name.value.clone(),
            head: p.head,
            letter: None,
            colour: None,
            home: None,
            forward: None,
            forward_span: None,
        };
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for field in &p.fields {
            let keyword = field.value.keyword();
            if let Some(&first) = seen.get(keyword) {
                self.push(
                    Diagnostic::error(
                        field.span,
                        format!("duplicate `{keyword}` in player `{}`", p.name.value),
                    )
                    .with_label(first, "first defined here"),
                );
                continue;
            }
            seen.insert(keyword, field.span);
            match &field.value {
                PlayerField::Letter(l) => info.letter = l.value.chars().next(),
                PlayerField::Colour(c) => info.colour = self.lower_colour(c),
                PlayerField::Home(set) => info.home = self.lower_home(&p.name.value, set),
                PlayerField::Forward(d) => {
                    info.forward = self.lower_forward(d);
                    info.forward_span = Some(field.span);
                }
            }
        }
        for (keyword, example) in [
            ("letter", "letter r"),
            ("colour", "colour \"#e8dcc0\""),
            ("home", "home rank 1"),
            ("forward", "forward n"),
        ] {
            if !seen.contains_key(keyword) {
                self.error(
                    p.head,
                    format!("missing `{keyword}` in player `{}`", p.name.value),
                )
                .notes
                .push(format!("for example: `{example}`"));
            }
        }
        info
    }

    fn lower_colour(&mut self, c: &Str) -> Option<u32> {
        let hex = c.value.strip_prefix('#').unwrap_or("");
        if hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            u32::from_str_radix(hex, 16).ok()
        } else {
            self.error(c.span, format!("`{}` is not a colour", c.value))
                .notes
                .push("write a colour as `#` and six hex digits, like `\"#e8dcc0\"`".to_string());
            None
        }
    }

    fn lower_home(&mut self, player: &str, set: &CellSet) -> Option<Vec<usize>> {
        let g = self.geometry.as_ref()?;
        let cells = eval_cellset(g, set, &mut self.diags)?;
        if cells.is_empty() {
            self.error(
                set.span,
                format!("home of {player} has no cell on this board"),
            )
            .notes
            .push("the home is what an opponent must reach to break through".to_string());
            return None;
        }
        Some(cells)
    }

    fn lower_forward(&mut self, d: &Name) -> Option<usize> {
        let g = self.geometry.as_ref()?;
        if let Some(i) = g.direction_index(&d.value) {
            return Some(i);
        }
        let note = format!(
            "the directions of a {} board are {}",
            shape_name(g),
            direction_list(g)
        );
        let message = if Relative::from_name(&d.value).is_some() {
            format!("`forward` is an absolute direction, not `{}`", d.value)
        } else if is_compass(&d.value) {
            format!("a {} board has no direction `{}`", shape_name(g), d.value)
        } else {
            format!("unknown direction `{}`", d.value)
        };
        let help = direction_help(&d.value, g, g.directions().iter().map(|d| d.name));
        let diag = self.error(d.span, message);
        diag.notes.push(note);
        diag.help = help;
        None
    }

    /// `turns …`: reorders the players by their first turn and, when the
    /// order repeats a player or has a first round (`then`), keeps it in
    /// `self.turn_order` (as indices into the reordered players).
    pub(super) fn lower_turns(&mut self, turns: &Spanned<Turns>) {
        let Turns { first, then } = &turns.value;
        let cycle = then.as_ref().unwrap_or(first);
        let first: &[Name] = if then.is_some() { first } else { &[] };
        let mut ok = true;
        let mut resolve = |l: &mut Lowerer, letters: &[Name]| -> Vec<usize> {
            letters
                .iter()
                .filter_map(|letter| {
                    let i = l.player_index(letter);
                    ok &= i.is_some();
                    i
                })
                .collect()
        };
        let first_idx = resolve(self, first);
        let cycle_idx = resolve(self, cycle);
        // Each player once, without `then`: the plain order of old.
        let plain = then.is_none() && {
            let mut seen = cycle_idx.clone();
            seen.sort_unstable();
            seen.dedup();
            seen.len() == cycle_idx.len()
        };
        let missing: Vec<String> = (0..self.players.len())
            .filter(|i| !cycle_idx.contains(i) && self.players[*i].letter.is_some())
            .map(|i| self.players[i].describe())
            .collect();
        if !missing.is_empty() && ok {
            let (message, note) = if then.is_some() {
                (
                    format!("the cycle after `then` leaves out {}", join_and(&missing)),
                    "the turns after `then` repeat for the rest of the game, so every player \
                     needs a turn in them",
                )
            } else {
                (
                    format!("`turns` does not list {}", join_and(&missing)),
                    "`turns` lists every player's letter, in the order they move (a letter may \
                     come back: `turns r g g r`)",
                )
            };
            self.error(turns.span, message).notes.push(note.to_string());
            ok = false;
        }
        if !ok {
            return;
        }
        // Players in the order of their first turn.
        let mut order: Vec<usize> = Vec::new();
        for &i in first_idx.iter().chain(&cycle_idx) {
            if !order.contains(&i) {
                order.push(i);
            }
        }
        let old = std::mem::take(&mut self.players);
        self.players = order.iter().map(|&i| old[i].clone()).collect();
        if !plain {
            let new = |i: &usize| order.iter().position(|o| o == i).unwrap_or(0);
            self.turn_order = Some(TurnOrder {
                first: first_idx.iter().map(new).collect(),
                cycle: cycle_idx.iter().map(new).collect(),
            });
        }
    }
}

/// The span of a player's `letter` value, if it declares one.
fn letter_span(p: &Player) -> Option<Span> {
    p.fields.iter().find_map(|f| match &f.value {
        PlayerField::Letter(l) => Some(l.span),
        _ => None,
    })
}
