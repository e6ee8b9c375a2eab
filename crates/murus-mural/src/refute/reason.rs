//! Why a mural can never be solved, in words a person can read.

use std::fmt;

use murus_engine::text::plural;

/// Why a mural position can never be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Fewer stones than targets: no move adds a stone.
    TooFewStones { stones: u32, targets: u32 },
    /// More stones than targets, and no stone can leave: sacrifice is not
    /// allowed, or (`one_colour`) it is but only one colour has stones.
    StonesLeftOver {
        stones: u32,
        targets: u32,
        one_colour: bool,
    },
    /// With sacrifice: the stones exceed the targets by an odd number.
    OddExcess { stones: u32, targets: u32 },
    /// The sacrifices needed cannot be shared out among the colours: each
    /// takes one stone from each of two colours that can meet.
    Pairing {
        sacrifices: u32,
        /// Stones per colour letter.
        stones: Vec<(char, u32)>,
        /// Pairs of colours whose tower and wall can never stand side by
        /// side.
        apart: Vec<(char, char)>,
    },
    /// No move can be the last one: it must empty a cell that is no target.
    NoLastMove {
        /// Whether every cell of the board is a target.
        all_targets: bool,
        /// Whether a last sacrifice was considered.
        sacrifice: bool,
    },
    /// Targets no stone can ever reach.
    Unreachable { cells: Vec<String> },
    /// A wall on a cell that is no target, which can never leave it.
    StrandedWall {
        cell: String,
        colour: char,
        /// Whether sacrifices happen in a solution (so one against this
        /// wall was considered).
        sacrifice: bool,
    },
    /// Towers that can never move again.
    StuckTowers {
        cells: Vec<String>,
        /// Whether sacrifices happen in a solution.
        sacrifice: bool,
    },
    /// Some colours have more stones than targets they can ever reach.
    Crowded {
        colours: Vec<char>,
        stones: u32,
        targets: Vec<String>,
    },
    /// A weighting of the cells modulo 3 that no sowing changes gives the
    /// stones and the targets different totals.
    Weights {
        weighing: Weighing,
        stones: u8,
        targets: u8,
    },
    /// Each colour's weights modulo 3 stay the same on their own, and no
    /// way of sharing the targets among the colours matches them all.
    ColourWeights,
    /// The search visited every reachable position and none is solved.
    Searched,
}

/// A weighting of the cells modulo 3, as shown in [`Reason::Weights`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Weighing {
    /// A cell weighs its file number (a = 1, b = 2, …).
    Files,
    /// A cell weighs its rank number.
    Ranks,
    /// The cells listed weigh 1 and 2, the others 0.
    Cells { one: Vec<String>, two: Vec<String> },
}

/// `a1`, `a1 and b2`, `a1, b2 and c3`.
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::TooFewStones { stones, targets } => write!(
                f,
                "{} cannot cover {}: no move ever adds a stone",
                plural(*stones, "stone"),
                plural(*targets, "target")
            ),
            Reason::StonesLeftOver {
                stones,
                targets,
                one_colour,
            } => write!(
                f,
                "{} for {}: {}, so no stone ever leaves the board, and the end holds one stone on each target",
                plural(*stones, "stone"),
                plural(*targets, "target"),
                if *one_colour {
                    "a sacrifice needs stones of two colours and only one colour is left"
                } else {
                    "without sacrifice"
                }
            ),
            Reason::OddExcess { stones, targets } => write!(
                f,
                "{} for {}: a sacrifice removes exactly two stones and no other move removes any, so the stones must exceed the targets by an even number",
                plural(*stones, "stone"),
                plural(*targets, "target")
            ),
            Reason::Pairing {
                sacrifices,
                stones,
                apart,
            } => {
                let counts: Vec<String> = stones.iter().map(|(c, n)| format!("{c} {n}")).collect();
                write!(
                    f,
                    "{} needed (one for every two stones over the targets), each removing one stone of each of two colours, but the stones ({}) cannot be paired off that often",
                    if *sacrifices == 1 {
                        "1 sacrifice is".to_string()
                    } else {
                        format!("{sacrifices} sacrifices are")
                    },
                    counts.join(", ")
                )?;
                if !apart.is_empty() {
                    let pairs: Vec<String> =
                        apart.iter().map(|(a, b)| format!("{a} and {b}")).collect();
                    write!(
                        f,
                        " ({} can never stand side by side as tower and wall)",
                        list(&pairs)
                    )?;
                }
                Ok(())
            }
            Reason::NoLastMove {
                all_targets: true,
                sacrifice,
            } => write!(
                f,
                "every cell is a target, but the last move always leaves a cell empty ({})",
                if *sacrifice {
                    "a sowing its tower's cell, a sacrifice the wall's cell"
                } else {
                    "the cell of the tower it sows"
                }
            ),
            Reason::NoLastMove {
                all_targets: false,
                sacrifice,
            } => {
                write!(
                    f,
                    "no move can be the last one: a last sowing must start from a tower on a cell that is no target and land on two targets"
                )?;
                if *sacrifice {
                    write!(
                        f,
                        ", a last sacrifice must remove a wall from a cell that is no target beside a tower on a target"
                    )?;
                }
                write!(f, ", and no cell allows it")
            }
            Reason::Unreachable { cells } => write!(
                f,
                "no stone can ever reach {} {}: a stone moves only when a tower sows it one or two cells along a line, and no tower can ever stand in line with {}",
                if cells.len() == 1 {
                    "target"
                } else {
                    "targets"
                },
                list(cells),
                if cells.len() == 1 { "it" } else { "them" }
            ),
            Reason::StrandedWall {
                cell,
                colour,
                sacrifice,
            } => {
                write!(
                    f,
                    "the {colour} wall on {cell} is not on a target and can never leave: no {colour} tower can ever land on it to lift it"
                )?;
                if *sacrifice {
                    write!(
                        f,
                        ", and no tower of another colour can ever stand beside it to sacrifice against it"
                    )?;
                }
                Ok(())
            }
            Reason::StuckTowers { cells, sacrifice } => {
                if let [one] = cells.as_slice() {
                    write!(
                        f,
                        "the tower on {one} can never move: it has no sowing line on the board"
                    )?;
                    if *sacrifice {
                        write!(f, " and no neighbour to sacrifice against")?;
                    }
                } else {
                    write!(
                        f,
                        "the towers on {} can never move: every sowing line of each runs through another of them, and nothing ever lands on a tower",
                        list(cells)
                    )?;
                    if *sacrifice {
                        write!(
                            f,
                            "; nor can they sacrifice, as they have only each other beside them"
                        )?;
                    }
                }
                Ok(())
            }
            Reason::Crowded {
                colours,
                stones,
                targets,
            } => {
                let names: Vec<String> = colours.iter().map(char::to_string).collect();
                write!(
                    f,
                    "the {} stones ({stones}) must all end on targets, one each, but only {} can ever hold one of them{}{}",
                    list(&names),
                    plural(targets.len() as u32, "target"),
                    if targets.is_empty() { "" } else { ": " },
                    list(targets)
                )
            }
            Reason::Weights {
                weighing,
                stones,
                targets,
            } => {
                let what = match weighing {
                    Weighing::Files => {
                        "the sum of the stones' file numbers (a = 1, b = 2, …)".to_string()
                    }
                    Weighing::Ranks => "the sum of the stones' rank numbers".to_string(),
                    Weighing::Cells { one, two } => {
                        let mut parts = Vec::new();
                        for (cells, w) in [(one, 1), (two, 2)] {
                            if !cells.is_empty() {
                                parts.push(format!("{} {w}", list(cells)));
                            }
                        }
                        parts.push("every other cell 0".into());
                        format!(
                            "the stones' total weight, weighing {} (so that every line's three cells weigh 0 together)",
                            list(&parts)
                        )
                    }
                };
                write!(
                    f,
                    "a sowing moves two stones one and two cells along a line, which never changes {what}, modulo 3: the stones give {stones}, one stone on each target would give {targets}"
                )
            }
            Reason::ColourWeights => write!(
                f,
                "each colour keeps its own stones, and no sowing changes the sum of their file numbers or of their rank numbers modulo 3 (nor other such weights); no way of sharing the targets among the colours gives every colour as many targets as it has stones with the same sums"
            ),
            Reason::Searched => write!(
                f,
                "no sequence of moves solves it: every reachable position was searched"
            ),
        }
    }
}
