//! The generator: work backwards from a finished mural with inverse moves,
//! keep puzzles whose minimal solution is unique, and band them by
//! difficulty ([`crate::difficulty`]).

use murus_engine::job::Handler;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::board::{Board, BoardError, State};
use crate::puzzle::{DIFFICULTIES, Puzzle};
use crate::solve::{self, Status};

/// The ratings the generator bands its puzzles by.
pub use crate::difficulty::{Rating, band, rate};

/// What to generate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Board text (`5x5`, `hex 3`, `rect 6 x 5 without cells a1`).
    pub board: String,
    /// Colours (1 to 3), named `r`, `g`, `b`.
    pub colours: usize,
    pub sacrifice: bool,
    /// `easy`, `medium`, `hard`, or any.
    pub difficulty: Option<String>,
    pub seed: u64,
    /// Solver budget per candidate, in nodes.
    pub budget: u64,
}

const LETTERS: [char; 3] = ['r', 'g', 'b'];

/// One backwards walk: from targets holding walls, undo sowings (and, with
/// sacrifice, sacrifices) until every target wall is accounted for. With
/// `walls`, an undone sowing may also take a stone back from a tower (the
/// forward move landed on an own wall), which leaves walls in the start.
fn walk(
    board: &Board,
    colours: usize,
    sacrifice: bool,
    walls: bool,
    rng: &mut SmallRng,
) -> Option<(State, Vec<bool>)> {
    let cells: Vec<usize> = board.geometry.cells().collect();
    let n = cells.len();
    let pairs = rng.random_range(2..=(n * 2 / 5).max(3));
    let mut targets = vec![false; board.slots()];
    let mut order = cells.clone();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    let mut state = State::empty(board.slots());
    // `fin[s]`: a wall the forward play must still put there.
    let mut fin = vec![false; board.slots()];
    for &t in order.iter().take(2 * pairs) {
        targets[t] = true;
        fin[t] = true;
        state.set(t, Some((rng.random_range(0..colours) as u8, 1)));
    }
    let planned = if sacrifice && colours > 1 {
        rng.random_range(1..=2)
    } else {
        0
    };
    let mut sacrificed = 0;
    for _ in 0..4 * n {
        let open = cells
            .iter()
            .filter(|&&s| fin[s] && state.get(s).is_some_and(|(_, h)| h == 1))
            .count();
        if open == 0 && sacrificed >= planned {
            return Some((state, targets));
        }
        // (origin, near, far, is_sacrifice)
        let mut options: Vec<(usize, u8, u8, bool)> = Vec::new();
        for &s in &cells {
            if state.get(s).is_some() {
                continue;
            }
            for &(a, b) in board.lines(s) {
                let take = |x: u8| match state.get(x as usize) {
                    Some((c, 1)) if fin[x as usize] => Some((c, true)),
                    Some((c, 2)) if walls => Some((c, false)),
                    _ => None,
                };
                if let (Some((ca, fa)), Some((cb, fb))) = (take(a), take(b)) {
                    if ca == cb && (fa || fb) {
                        options.push((s, a, b, false));
                    }
                }
            }
        }
        if sacrificed < planned {
            for &s in &cells {
                if !(fin[s] && state.get(s).is_some_and(|(_, h)| h == 1)) {
                    continue;
                }
                for &t in board.adjacent(s) {
                    if state.get(t as usize).is_none() {
                        options.push((s, t, t, true));
                    }
                }
            }
        }
        if options.is_empty() {
            return None;
        }
        let (s, a, b, is_sacrifice) = options[rng.random_range(0..options.len())];
        if is_sacrifice {
            let (c, _) = state.get(s).expect("a wall");
            let other = (c as usize + rng.random_range(1..colours)) % colours;
            state.set(s, Some((c, 2)));
            fin[s] = false;
            state.set(a as usize, Some((other as u8, 1)));
            // The sacrificed wall was sown there, or stood there from the start.
            fin[a as usize] = rng.random_bool(0.5);
            sacrificed += 1;
        } else {
            let (c, _) = state.get(a as usize).expect("a stone");
            for x in [a, b] {
                let x = x as usize;
                match state.get(x) {
                    Some((_, 2)) => state.set(x, Some((c, 1))),
                    _ => state.set(x, None),
                }
                fin[x] = false;
            }
            state.set(s, Some((c, 2)));
        }
    }
    None
}

/// Where a generation stands, reported to its [`Handler`] every few
/// candidates and at each puzzle found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Candidate puzzles tried so far.
    pub attempts: u64,
    /// Puzzles kept so far.
    pub found: usize,
}

/// Candidates tried between two progress reports.
const REPORT_EVERY: u64 = 32;

/// The generator's handler as each candidate's count sees it: the count
/// stops when the generation is stopped, and its node counts stay quiet.
struct StopWith<'a>(&'a dyn Handler<Progress>);

impl Handler<solve::Progress> for StopWith<'_> {
    fn stop(&self) -> bool {
        self.0.stop()
    }
}

/// Why [`generate`] made no puzzles.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    #[error("--colours {0}: choose 1, 2 or 3")]
    Colours(usize),
    #[error(
        "--sacrifice needs at least two colours (a tower sacrifices against another colour's wall)"
    )]
    SacrificeOneColour,
    #[error("difficulty `{0}`: expected easy, medium or hard")]
    Difficulty(String),
    #[error("bad board `{board}`: {source}")]
    Board { board: String, source: BoardError },
    /// Too many fruitless attempts: `found` of `count` puzzles made.
    #[error(
        "gave up after {attempts} attempts with {found} of {count} puzzles; try another board, difficulty or seed"
    )]
    GaveUp {
        attempts: u64,
        found: usize,
        count: usize,
    },
}

/// Generates `count` puzzles with unique minimal solutions. Deterministic
/// for a seed. Gives up after many fruitless attempts; when `handler` stops
/// it, returns the puzzles found so far.
pub fn generate(
    opts: &Options,
    count: usize,
    handler: &dyn Handler<Progress>,
) -> Result<Vec<(Puzzle, Rating)>, GenerateError> {
    if !(1..=3).contains(&opts.colours) {
        return Err(GenerateError::Colours(opts.colours));
    }
    if opts.sacrifice && opts.colours < 2 {
        return Err(GenerateError::SacrificeOneColour);
    }
    if let Some(d) = &opts.difficulty {
        if !DIFFICULTIES.contains(&d.as_str()) {
            return Err(GenerateError::Difficulty(d.clone()));
        }
    }
    let board = Board::parse(&opts.board).map_err(|source| GenerateError::Board {
        board: opts.board.clone(),
        source,
    })?;
    let mut rng = SmallRng::seed_from_u64(opts.seed);
    let mut out = Vec::new();
    let colours: Vec<char> = LETTERS[..opts.colours].to_vec();
    let mut attempts = 0u64;
    while out.len() < count {
        if handler.stop() {
            break;
        }
        if attempts % REPORT_EVERY == 0 {
            handler.progress(&Progress {
                attempts,
                found: out.len(),
            });
        }
        attempts += 1;
        if attempts > 20_000 + 2_000 * count as u64 {
            return Err(GenerateError::GaveUp {
                attempts,
                found: out.len(),
                count,
            });
        }
        let walls = rng.random_bool(0.4);
        let Some((start, targets)) = walk(&board, opts.colours, opts.sacrifice, walls, &mut rng)
        else {
            continue;
        };
        // Every colour must have stones.
        if (0..opts.colours).any(|c| {
            !board
                .geometry
                .cells()
                .any(|s| start.get(s).is_some_and(|(k, _)| k as usize == c))
        }) {
            continue;
        }
        let mut p = Puzzle {
            title: String::new(),
            author: "murus mural generate".to_string(),
            board: board.clone(),
            colours: colours.clone(),
            sacrifice: opts.sacrifice,
            start,
            targets,
            notes: None,
            optimal: None,
            difficulty: None,
        };
        let c = solve::count(&p, &p.start, opts.budget, &StopWith(handler));
        if c.status != Status::Solved || c.sets != 1 {
            continue;
        }
        let Some(r) = rate(&p, &c) else { continue };
        if opts.sacrifice && r.sacrifices == 0 {
            continue;
        }
        if opts.difficulty.as_ref().is_some_and(|d| *d != r.band) {
            continue;
        }
        p.optimal = Some(r.length);
        p.difficulty = Some(r.band.clone());
        p.title = format!("{} {} #{}", opts.board, r.band, out.len() + 1);
        out.push((p, r));
        handler.progress(&Progress {
            attempts,
            found: out.len(),
        });
    }
    Ok(out)
}
