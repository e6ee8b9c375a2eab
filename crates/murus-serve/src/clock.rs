//! A live game's clocks, computed from the moves' committed times: each
//! person's time left (the starting time, plus the Fischer increment after
//! each of their moves, less the time their moves took), the seat whose
//! clock runs, and when its flag falls.
//!
//! The clocks start with the first move: the time until a game's first
//! move is nobody's (the seats join from their invitations), and from
//! then on the seat to move is charged from the last move's commit. A
//! bot's seat has no clock: a bot searches within its level's time bound,
//! clock or none, and its thinking time is charged to nobody.

use serde::Serialize;

use crate::store::ClockSpec;

/// The longest clock taken: a day, in minutes (beyond that, a game is a
/// correspondence game).
pub const MAX_MINUTES: f64 = 24.0 * 60.0;
/// The largest increment taken, in seconds.
pub const MAX_INCREMENT: f64 = 3600.0;

/// A clock asked for by `POST /api/games`: minutes each, and a Fischer
/// increment in seconds.
#[derive(Clone, Copy, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockAsked {
    pub minutes: f64,
    #[serde(default)]
    pub increment: f64,
}

impl ClockAsked {
    /// The time control asked for, checked.
    pub fn spec(&self) -> Result<ClockSpec, String> {
        let ClockAsked { minutes, increment } = *self;
        if !(minutes.is_finite() && minutes > 0.0 && minutes <= MAX_MINUTES) {
            return Err(format!(
                "clock minutes {minutes}: expected more than 0 and at most {MAX_MINUTES} (a day); leave the clock out for a correspondence game"
            ));
        }
        if !(increment.is_finite() && (0.0..=MAX_INCREMENT).contains(&increment)) {
            return Err(format!(
                "clock increment {increment}: expected seconds from 0 to {MAX_INCREMENT}"
            ));
        }
        Ok(ClockSpec {
            initial_ms: (minutes * 60_000.0).round() as i64,
            increment_ms: (increment * 1000.0).round() as i64,
        })
    }
}

/// A game's clocks as `GET /api/games/{id}` shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// Each seat's time at the start, in ms.
    pub initial_ms: i64,
    /// The Fischer increment, in ms.
    pub increment_ms: i64,
    /// Each seat's time left at `at_ms`, in seat order (`null` for a bot's
    /// seat, which has no clock); never below 0.
    pub left_ms: Vec<Option<i64>>,
    /// The seat whose clock runs; `null` before the first move, on a bot's
    /// turn and once the game is over.
    pub running: Option<usize>,
    /// The server's time of this answer, in ms since the Unix epoch.
    pub at_ms: i64,
}

/// A game's clocks worked out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    pub view: ClockView,
    /// When the running seat's flag falls (ms since the Unix epoch).
    pub flag_at: Option<i64>,
}

impl Clocks {
    /// Whether the running seat's flag has fallen.
    pub fn flag_fell(&self) -> bool {
        self.flag_at.is_some_and(|at| at <= self.view.at_ms)
    }
}

/// The clocks of a game under `spec` at `now`: `clocked` says which seats
/// have a clock (the people's), `plies` who moved at each ply and when
/// the move was committed, `to_move` the seat to move (`None` once the
/// game is over, when no clock runs).
pub fn clocks(
    spec: ClockSpec,
    clocked: &[bool],
    plies: &[(usize, Option<i64>)],
    to_move: Option<usize>,
    now: i64,
) -> Clocks {
    let mut left: Vec<i64> = vec![spec.initial_ms; clocked.len()];
    let mut last: Option<i64> = None;
    for &(seat, at) in plies {
        if let Some(l) = left.get_mut(seat) {
            if let (Some(before), Some(at)) = (last, at) {
                *l -= (at - before).max(0);
            }
            *l += spec.increment_ms;
        }
        last = at.or(last);
    }
    let running = match (to_move, last) {
        (Some(s), Some(_)) if clocked.get(s) == Some(&true) && !plies.is_empty() => Some(s),
        _ => None,
    };
    let mut flag_at = None;
    if let (Some(s), Some(since)) = (running, last) {
        flag_at = Some(since + left[s]);
        left[s] -= (now - since).max(0);
    }
    Clocks {
        view: ClockView {
            initial_ms: spec.initial_ms,
            increment_ms: spec.increment_ms,
            left_ms: left
                .iter()
                .zip(clocked)
                .map(|(&l, &c)| c.then_some(l.max(0)))
                .collect(),
            running,
            at_ms: now,
        },
        flag_at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: ClockSpec = ClockSpec {
        initial_ms: 60_000,
        increment_ms: 2_000,
    };

    #[test]
    fn no_clock_runs_before_the_first_move() {
        let c = clocks(SPEC, &[true, true], &[], Some(0), 1_000_000);
        assert_eq!(c.view.left_ms, vec![Some(60_000), Some(60_000)]);
        assert_eq!(c.view.running, None);
        assert_eq!(c.flag_at, None);
    }

    #[test]
    fn each_move_charges_its_seat_and_adds_the_increment() {
        // Seat 0 moves at 0 (free), seat 1 after 5 s, seat 0 after 10 s.
        let plies = [(0, Some(0)), (1, Some(5_000)), (0, Some(15_000))];
        let c = clocks(SPEC, &[true, true], &plies, Some(1), 18_000);
        assert_eq!(c.view.left_ms, vec![Some(54_000), Some(54_000)]);
        assert_eq!(c.view.running, Some(1));
        assert_eq!(c.flag_at, Some(15_000 + 57_000));
        assert!(!c.flag_fell());
        let late = clocks(SPEC, &[true, true], &plies, Some(1), 72_000);
        assert!(late.flag_fell());
        assert_eq!(late.view.left_ms[1], Some(0));
    }

    #[test]
    fn a_bots_seat_has_no_clock() {
        let plies = [(0, Some(0)), (1, Some(5_000))];
        let c = clocks(SPEC, &[true, false], &plies, Some(0), 9_000);
        assert_eq!(c.view.left_ms, vec![Some(58_000), None]);
        assert_eq!(c.view.running, Some(0));
        let bot = clocks(SPEC, &[true, false], &plies[..1], Some(1), 9_000);
        assert_eq!(bot.view.running, None);
    }

    #[test]
    fn bad_clocks_are_refused() {
        for (minutes, increment) in [
            (0.0, 0.0),
            (-1.0, 0.0),
            (f64::NAN, 0.0),
            (5.0, -1.0),
            (1e9, 0.0),
        ] {
            assert!(ClockAsked { minutes, increment }.spec().is_err());
        }
        assert_eq!(
            ClockAsked {
                minutes: 5.0,
                increment: 3.0
            }
            .spec(),
            Ok(ClockSpec {
                initial_ms: 300_000,
                increment_ms: 3_000
            })
        );
    }
}
