//! Figures' captions: a move of a figure put into words.

use murus_dsl::rules::SowCapture;
use murus_engine::{Action, Move, Position};

use super::play::Finder;
use super::stack_name;

impl Finder<'_> {
    /// The caption of a move (a sowing, sacrifice, throw or split).
    pub(super) fn caption(&self, pos: &Position, m: Move) -> String {
        let v = self.v;
        let g = v.geometry();
        let mover = v.turn(pos);
        let who = self.name(mover);
        let text = v.move_to_string(m);
        let height = |c: usize| v.stack(pos, c).map_or(0, |(_, h)| h);
        match m.action() {
            Action::Sow {
                from, direction, ..
            } => {
                let cells = v.move_cells(m);
                let dropped: Vec<String> = cells[1..].iter().map(|&c| g.name(c)).collect();
                let rule = v.rules().sow_of(mover);
                let effects: Vec<String> = cells[1..]
                    .iter()
                    .filter_map(|&c| {
                        let (owner, h) = v.stack(pos, c)?;
                        Some(if owner == mover {
                            format!(
                                "the {} on {} becomes {}",
                                self.stack_name(h),
                                g.name(c),
                                with_article(&self.stack_name(h + 1))
                            )
                        } else {
                            let whose = format!("{}' {}", self.name(owner), self.stack_name(h));
                            match rule.map(|r| r.on_enemy) {
                                Some(SowCapture::Remove(n)) => format!(
                                    "the stone and {} of the {whose} on {} leave the game",
                                    stones(n.min(h)),
                                    g.name(c)
                                ),
                                _ => format!(
                                    "the {whose} on {} leaves the game and the stone stays there",
                                    g.name(c)
                                ),
                            }
                        })
                    })
                    .collect();
                // Along a step vector the stones leap.
                let leap = (direction >= g.directions().len())
                    .then(|| v.rules().direction(direction))
                    .flatten()
                    .map(|d| {
                        format!(
                            ", each a leap of {} from the one before, over whatever stands between",
                            leap_words(d.dx, d.dy)
                        )
                    })
                    .unwrap_or_default();
                let base = format!(
                    "{who} play {text}: the {} on {} lifts its stones and drops one on each of {}{leap}",
                    self.stack_name(height(from)),
                    g.name(from),
                    dropped.join(" and ")
                );
                if effects.is_empty() {
                    format!("{base}, all empty.")
                } else {
                    format!("{base}; {}.", effects.join(", and "))
                }
            }
            Action::Sacrifice { from, target, .. } => {
                let removed = v.stones_removed(pos, m);
                let enemy = v.stack(pos, target).map_or(mover, |(p, _)| p);
                format!(
                    "{who} play {text}: the {} on {} gives up {} to take {} off the {} of the {} on {}.",
                    self.stack_name(height(from)),
                    g.name(from),
                    stones(removed.own),
                    stones(removed.enemy),
                    self.stack_name(height(target)),
                    self.name(enemy),
                    g.name(target)
                )
            }
            Action::Throw { from, to, .. } => {
                let removed = v.stones_removed(pos, m);
                let landing = match v.stack(pos, to) {
                    None if removed.own > 0 => {
                        format!("onto the empty cell {}, where it is lost", g.name(to))
                    }
                    None => format!("onto the empty cell {}", g.name(to)),
                    Some((p, h)) => format!(
                        "at the {} of the {} on {} (the thrown stone and {} of its stones leave the game)",
                        self.stack_name(h),
                        self.name(p),
                        g.name(to),
                        match removed.enemy {
                            1 => "one".to_string(),
                            n if n == h => "all".to_string(),
                            n => n.to_string(),
                        }
                    ),
                };
                format!(
                    "{who} play {text}: the catapult on {} throws a stone over everything {landing}.",
                    g.name(from)
                )
            }
            Action::Split { tower, cells } => format!(
                "{who} play {text}: instead of a normal first move, the tower on {} is split into two walls on {} and {}; the next player may then swap sides.",
                g.name(tower),
                g.name(cells.0),
                g.name(cells.1)
            ),
            Action::Swap => String::new(),
        }
    }

    pub(super) fn name(&self, player: usize) -> String {
        self.v
            .rules()
            .players
            .get(player)
            .map_or_else(|| format!("player {}", player + 1), |p| p.name.clone())
    }

    /// A stack of `h` stones by its name.
    pub(super) fn stack_name(&self, h: u8) -> String {
        stack_name(self.v.rules(), h)
    }
}

fn with_article(noun: &str) -> String {
    format!("a {noun}")
}

pub(super) fn stones(n: u8) -> String {
    match n {
        1 => "one stone".into(),
        2 => "two stones".into(),
        n => format!("{n} stones"),
    }
}

/// A step's length in words: "one file and two ranks", "two ranks".
fn leap_words(dx: i8, dy: i8) -> String {
    let count = |n: i8, one: &str, many: &str| {
        let n = n.unsigned_abs();
        let word = match n {
            1 => "one".to_string(),
            2 => "two".to_string(),
            3 => "three".to_string(),
            n => n.to_string(),
        };
        format!("{word} {}", if n == 1 { one } else { many })
    };
    match (dx, dy) {
        (0, dy) => count(dy, "rank", "ranks"),
        (dx, 0) => count(dx, "file", "files"),
        (dx, dy) => format!(
            "{} and {}",
            count(dx, "file", "files"),
            count(dy, "rank", "ranks")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::leap_words;

    #[test]
    fn leaps_read_as_files_and_ranks() {
        assert_eq!(leap_words(-1, -2), "one file and two ranks");
        assert_eq!(leap_words(0, 3), "three ranks");
        assert_eq!(leap_words(2, 0), "two files");
    }
}
