//! How a game ends: [`Outcome`] (who won) and [`Reason`] (why).

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A stone dropped by sowing reached an opponent's home.
    BreakthroughSow,
    /// A stone thrown onto an empty cell of an opponent's home.
    BreakthroughThrow,
    /// A stone still stood on an opponent's home at the start of its owner's turn.
    BreakthroughDelayed,
    /// The opponent could not act at the start of its turn.
    Stalemate,
    /// Every other player was eliminated by stalemate.
    Elimination,
    /// A position occurred for the variant's repetition limit.
    Repetition,
    /// The variant's ply cap was reached.
    PlyCap,
    /// The winner held the cells of `occupy` at the start of its turn.
    Occupation,
    /// The loser started its turn with no more stones (or towers) than
    /// `reduced to` allows.
    Reduced,
    /// The game reached the ply cap and `adjudicate by …` decided it: for
    /// the player with the most, or a draw on a tie.
    Adjudication,
    /// The winner took the enemy stones of its `capture N stones`.
    Capture,
    /// The loser resigned. Never produced by the engine's rules: games
    /// played by people (the playtest server) end so.
    Resignation,
    /// The players agreed a draw (no winner). Never produced by the
    /// engine's rules: games played by people end so.
    Agreement,
    /// The loser ran out of time on its clock. Never produced by the
    /// engine's rules: games played by people end so.
    Time,
}

impl Reason {
    /// Every reason.
    pub const ALL: [Reason; 14] = [
        Reason::BreakthroughSow,
        Reason::BreakthroughThrow,
        Reason::BreakthroughDelayed,
        Reason::Stalemate,
        Reason::Elimination,
        Reason::Repetition,
        Reason::PlyCap,
        Reason::Occupation,
        Reason::Reduced,
        Reason::Adjudication,
        Reason::Capture,
        Reason::Resignation,
        Reason::Agreement,
        Reason::Time,
    ];

    /// Whether the reason is one people give (a resignation, a draw
    /// agreed, a loss on time) rather than one the rules reach.
    pub fn by_people(self) -> bool {
        matches!(self, Reason::Resignation | Reason::Agreement | Reason::Time)
    }

    /// The reason written as [`Reason::as_str`] and [`Reason::by`] (as game
    /// records and lab files write it), if there is one.
    pub fn from_parts(reason: &str, by: Option<&str>) -> Option<Reason> {
        Reason::ALL
            .into_iter()
            .find(|r| r.as_str() == reason && r.by() == by)
    }

    /// `breakthrough`, `stalemate`, `elimination`, `repetition`, `ply-cap`,
    /// `occupation`, `reduced`, `adjudication`, `capture`, or the endings
    /// people give: `resignation`, `agreement` or `time`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::BreakthroughSow | Reason::BreakthroughThrow | Reason::BreakthroughDelayed => {
                "breakthrough"
            }
            Reason::Stalemate => "stalemate",
            Reason::Elimination => "elimination",
            Reason::Repetition => "repetition",
            Reason::PlyCap => "ply-cap",
            Reason::Occupation => "occupation",
            Reason::Reduced => "reduced",
            Reason::Adjudication => "adjudication",
            Reason::Capture => "capture",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
            Reason::Time => "time",
        }
    }
    /// For a breakthrough, how the stone got there: `sow`, `throw` or `delayed`.
    pub fn by(self) -> Option<&'static str> {
        match self {
            Reason::BreakthroughSow => Some("sow"),
            Reason::BreakthroughThrow => Some("throw"),
            Reason::BreakthroughDelayed => Some("delayed"),
            _ => None,
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winning player's index, or `None` for a draw.
    pub winner: Option<usize>,
    pub reason: Reason,
}

#[cfg(test)]
mod tests {
    use super::Reason;

    #[test]
    fn every_reason_is_listed_once_and_reads_back_from_its_parts() {
        // This match fails to compile when a reason is added, pointing here.
        let position = |r: Reason| match r {
            Reason::BreakthroughSow => 0,
            Reason::BreakthroughThrow => 1,
            Reason::BreakthroughDelayed => 2,
            Reason::Stalemate => 3,
            Reason::Elimination => 4,
            Reason::Repetition => 5,
            Reason::PlyCap => 6,
            Reason::Occupation => 7,
            Reason::Reduced => 8,
            Reason::Adjudication => 9,
            Reason::Capture => 10,
            Reason::Resignation => 11,
            Reason::Agreement => 12,
            Reason::Time => 13,
        };
        for (i, r) in Reason::ALL.into_iter().enumerate() {
            assert_eq!(position(r), i);
            assert_eq!(Reason::from_parts(r.as_str(), r.by()), Some(r));
        }
        assert_eq!(Reason::from_parts("breakthrough", None), None);
        assert_eq!(Reason::from_parts("stalemate", Some("sow")), None);
        assert_eq!(
            Reason::from_parts("resignation", None),
            Some(Reason::Resignation)
        );
        assert_eq!(Reason::from_parts("agreement", Some("sow")), None);
        let people: Vec<Reason> = Reason::ALL.into_iter().filter(|r| r.by_people()).collect();
        assert_eq!(
            people,
            [Reason::Resignation, Reason::Agreement, Reason::Time]
        );
    }
}
