//! How the game ends, in words: winning (each kind of win shared by every
//! player, or worded for the players whose own it is), draws and the
//! opening.

use murus_dsl::rules::{
    Adjudication, Breakthrough, DrawRules, Material, Occupation, Opening, Reduction, Stalemate,
    Timing, WinRules,
};

use super::{Draft, Who, Words, or_list, ordinal, possessive, stones};

/// A part of the win rules, compared across players: each kind of win is
/// one rule for every player who has it alike.
#[derive(Clone, PartialEq, Eq)]
enum Part {
    Breakthrough(Option<Breakthrough>),
    Occupation(Option<Occupation>),
    Reduction(Option<Reduction>),
    Capture(Option<u32>),
    Stalemate(Stalemate),
}

impl Part {
    /// The parts of one player's win rules, in the order they are read.
    fn of(win: &WinRules) -> [Part; 5] {
        let WinRules {
            breakthrough,
            stalemate,
            occupation,
            reduced,
            capture,
        } = win;
        [
            Part::Breakthrough(*breakthrough),
            Part::Occupation(occupation.clone()),
            Part::Reduction(*reduced),
            Part::Capture(*capture),
            Part::Stalemate(*stalemate),
        ]
    }
}

impl Words<'_> {
    /// The Winning section: each part every player has alike once, for
    /// everyone; the others for the players that have each, by name.
    pub(super) fn winning(&self) -> Vec<Draft> {
        let players = self.players();
        let n = players.len();
        let parts: Vec<[Part; 5]> = players.iter().map(|p| Part::of(&p.win)).collect();
        let anyone_breaks_through = parts
            .iter()
            .any(|p| matches!(p[0], Part::Breakthrough(Some(_))));
        let mut out = Vec::new();
        for k in 0..5 {
            // Players with the same part, in groups by their first player.
            let mut groups: Vec<(Part, Vec<usize>)> = Vec::new();
            for (p, part) in parts.iter().enumerate() {
                match groups.iter_mut().find(|(q, _)| *q == part[k]) {
                    Some(g) => g.1.push(p),
                    None => groups.push((part[k].clone(), vec![p])),
                }
            }
            for (part, owners) in groups {
                let who = (owners.len() < n).then(|| self.who(&owners));
                if let Some((name, text)) =
                    self.win_part(&part, who.as_ref(), anyone_breaks_through)
                {
                    out.push(Draft::owned(&owners, n, Some(name), text));
                }
            }
        }
        out
    }

    /// The sentence of one part of the win rules, for every player (`who`
    /// `None`) or for `who`; `None` for a part that says nothing (no
    /// occupation, no reduction, no capture; no breakthrough where nobody
    /// has one, said once for everyone).
    fn win_part(
        &self,
        part: &Part,
        who: Option<&Who>,
        anyone_breaks_through: bool,
    ) -> Option<(&'static str, String)> {
        let n = self.players().len();
        let out_of_game = "out of the game (its stones stay on the board)";
        Some(match part {
            Part::Breakthrough(None) => (
                "Breakthrough",
                match who {
                    None if anyone_breaks_through => return None,
                    None => "Reaching an opponent's home wins nothing.".into(),
                    Some(w) => format!("Reaching an opponent's home wins {} nothing.", w.name()),
                },
            ),
            Part::Breakthrough(Some(b)) => ("Breakthrough", self.breakthrough(b, who)),
            Part::Occupation(None) | Part::Reduction(None) | Part::Capture(None) => return None,
            Part::Occupation(Some(Occupation { cells, count })) => {
                let how = if *count as usize == cells.len() && cells.len() > 1 {
                    format!("a stack on every one of {}", self.cells(cells))
                } else if cells.len() == 1 {
                    format!("a stack on {}", self.cells(cells))
                } else {
                    format!("stacks on at least {} of {}", count, self.cells(cells))
                };
                let text = match who {
                    None => format!("A player who has {how} at the start of its turn wins."),
                    Some(w) => format!(
                        "{} when {} {} {how} at the start of {} turn.",
                        w.says("win"),
                        w.they(),
                        w.verb("have"),
                        w.their()
                    ),
                };
                ("Occupation", text)
            }
            Part::Reduction(Some(Reduction { at_most, material })) => {
                let what = match material {
                    Material::Stones => stones(*at_most),
                    Material::Towers if *at_most == 1 => {
                        "1 tower (stack of two or more stones)".into()
                    }
                    Material::Towers => format!("{at_most} towers (stacks of two or more stones)"),
                };
                let text = match (who, n > 2) {
                    (None, true) => format!(
                        "A player who starts its turn with at most {what} is {out_of_game}."
                    ),
                    (None, false) => {
                        format!("A player who starts its turn with at most {what} loses.")
                    }
                    (Some(w), true) => format!(
                        "{} out of the game if {} {} {} turn with at most {what} ({} stones stay on the board).",
                        w.says("are"),
                        w.they(),
                        w.verb("start"),
                        w.their(),
                        w.their()
                    ),
                    (Some(w), false) => format!(
                        "{} if {} {} {} turn with at most {what}.",
                        w.says("lose"),
                        w.they(),
                        w.verb("start"),
                        w.their()
                    ),
                };
                ("Reduction", text)
            }
            Part::Capture(Some(k)) => {
                let taken = match k {
                    1 => "an enemy stone".to_string(),
                    k => format!("{k} enemy stones"),
                };
                let how = "in all (by sacrifices, throws and sowing onto enemy stacks)";
                let text = match who {
                    None => format!(
                        "A player who has taken {taken} {how} wins at once, with the move that takes the last of them."
                    ),
                    Some(w) => format!(
                        "{} at once when {} {} taken {taken} {how}, with the move that takes the last of them.",
                        w.says("win"),
                        w.they(),
                        w.verb("have")
                    ),
                };
                ("Capture", text)
            }
            Part::Stalemate(s) => {
                let text = match (s, who, n > 2) {
                    (Stalemate::Loses, None, true) => format!(
                        "A player who cannot move at the start of its turn is {out_of_game}; the last player able to move wins."
                    ),
                    (Stalemate::Loses, None, false) => {
                        "A player who cannot move at the start of its turn loses.".into()
                    }
                    (Stalemate::Draws, None, _) => {
                        "A player who cannot move at the start of its turn draws the game.".into()
                    }
                    (Stalemate::Loses, Some(w), true) => format!(
                        "{} out of the game if {} cannot move at the start of {} turn ({} stones stay on the board); the last player able to move wins.",
                        w.says("are"),
                        w.they(),
                        w.their(),
                        w.their()
                    ),
                    (Stalemate::Loses, Some(w), false) => format!(
                        "{} if {} cannot move at the start of {} turn.",
                        w.says("lose"),
                        w.they(),
                        w.their()
                    ),
                    (Stalemate::Draws, Some(w), _) => format!(
                        "If {} cannot move at the start of {} turn, the game is drawn.",
                        w.name(),
                        w.their()
                    ),
                };
                ("Stalemate", text)
            }
        })
    }

    fn breakthrough(&self, b: &Breakthrough, who: Option<&Who>) -> String {
        let Breakthrough {
            timing,
            by_sow,
            by_throw,
            min_height,
            count,
        } = b;
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
        let tall = stones(u32::from(*min_height));
        let making = if *min_height > 1 {
            format!(", making a stack of at least {tall} there,")
        } else {
            String::new()
        };
        let mut text = match (timing, who) {
            (Timing::Immediate, None) => format!(
                "A player who puts a stone on an opponent's home by {how}{making} wins at once."
            ),
            (Timing::Immediate, Some(w)) => format!(
                "{} at once when {} {} a stone on an opponent's home by {how}{}.",
                w.says("win"),
                w.they(),
                w.verb("put"),
                making.trim_end_matches(',')
            ),
            (Timing::Delayed, _) => {
                // `a stack of at least 2 stones of its own`, `one of its stones`.
                let stands = |their: &str| {
                    if *min_height > 1 {
                        format!("a stack of at least {tall} of {their} own")
                    } else {
                        format!("one of {their} stones")
                    }
                };
                match who {
                    None => format!(
                        "A player who puts a stone on an opponent's home by {how} wins if {} still stands on that home at the start of its next turn.",
                        stands("its")
                    ),
                    Some(w) => format!(
                        "{} if, after {} {} put a stone on an opponent's home by {how}, {} still stands on that home at the start of {} next turn.",
                        w.says("win"),
                        w.they(),
                        w.verb("have"),
                        stands(w.their()),
                        w.their()
                    ),
                }
            }
        };
        if *count > 1 {
            let within = if *min_height > 1 {
                format!(" in stacks of at least {tall}")
            } else {
                String::new()
            };
            let (own, does) = match who {
                None => ("its", "does it break through".to_string()),
                Some(w) => (
                    w.their(),
                    format!(
                        "{} {} break through",
                        if w.plural { "do" } else { "does" },
                        w.name()
                    ),
                ),
            };
            text.push_str(&format!(
                " Only with at least {} of {own} own on opponents' homes at once{within} (counting the new one) {does}.",
                stones(*count)
            ));
        }
        text
    }

    pub(super) fn draw(&self, draw: &DrawRules, adjudicate: Option<&Adjudication>) -> Vec<Draft> {
        let DrawRules {
            repetition,
            ply_cap,
        } = draw;
        let all: Vec<usize> = (0..self.players().len()).collect();
        let mut out = Vec::new();
        if let Some(n) = repetition {
            out.push(Draft::shared(
                &all,
                Some("Repetition"),
                format!(
                    "The game is drawn when a position occurs for the {} time.",
                    ordinal(*n)
                ),
            ));
        }
        match (ply_cap, adjudicate) {
            (Some(n), Some(how)) => {
                let most = |what: String| {
                    format!(
                        "After {n} plies the game ends, and the player with the most {what} wins; when several players have the most, the game is drawn."
                    )
                };
                let (players, text) = match how {
                    Adjudication::Material(Material::Stones) => {
                        (all.clone(), most("stones".into()))
                    }
                    Adjudication::Material(Material::Towers) => (
                        all.clone(),
                        most("towers (stacks of two or more stones)".into()),
                    ),
                    Adjudication::Stacks(cells) => (
                        all.clone(),
                        most(format!("stacks on {}", self.cells(cells))),
                    ),
                    Adjudication::Player(p) => {
                        let w = self.who(&[*p]);
                        (
                            vec![*p],
                            format!(
                                "After {n} plies the game ends, and {} (should {} be out of the game by then, it is drawn).",
                                w.says("win"),
                                w.name()
                            ),
                        )
                    }
                };
                out.push(Draft::shared(&players, Some("Adjudication"), text));
            }
            (Some(n), None) => out.push(Draft::shared(
                &all,
                Some("Length"),
                format!("The game is drawn after {n} plies."),
            )),
            (None, _) => {}
        }
        if out.is_empty() {
            out.push(Draft::shared(&all, None, "No rule draws the game.".into()));
        }
        out
    }

    pub(super) fn opening(&self, opening: &Opening) -> Vec<Draft> {
        let all: Vec<usize> = (0..self.players().len()).collect();
        match opening {
            Opening::None => vec![Draft::shared(
                &all,
                None,
                "Play starts normally with the first move.".into(),
            )],
            Opening::Pie { from, to } => {
                let first = self.who(&[0]);
                let second = self.who(&[1]);
                let text = format!(
                    "{} first move lifts a tower from {} and drops its two stones as walls on two empty cells of {}. {} then either {} seats with {}, or {} the same kind of move from {} onto two empty cells of {}; after a swap, the second player still makes its first move this way.",
                    possessive(&first.name()),
                    self.cells_or(&from[0]),
                    self.cells(&to[0]),
                    second.name(),
                    second.verb("swap"),
                    first.them(),
                    second.verb("make"),
                    self.cells_or(&from[1]),
                    self.cells(&to[1])
                );
                vec![Draft::shared(&[0, 1], Some("Pie rule"), text)]
            }
        }
    }
}
