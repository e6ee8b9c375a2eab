//! A printable page of Murals ([`mural_sheet_html`]): each puzzle's start
//! with its targets marked, its par and difficulty, and on a second page
//! the solutions found by the mural solver, drawn as arrows numbered in
//! the order played, with the puzzles' notes (which may give the answer
//! away).

use std::fmt::Write as _;

use murus_mural::difficulty::rate;
use murus_mural::solve::{Mode, Status, solve};
use murus_mural::{Puzzle, State, count};

use crate::diagram::{Diagram, DiagramError, Theme};
use crate::html::{escape, figure, page};

/// How a puzzle sheet is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MuralSheetOptions {
    /// The diagrams' look.
    pub theme: Theme,
    /// The solver's budget per puzzle, in nodes.
    pub budget: u64,
}

impl Default for MuralSheetOptions {
    fn default() -> MuralSheetOptions {
        MuralSheetOptions {
            theme: Theme::Colour,
            budget: 50_000_000,
        }
    }
}

/// Why a puzzle sheet cannot be made; each names the puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MuralSheetError {
    /// No puzzle was given.
    #[error("a puzzle sheet needs at least one puzzle")]
    Empty,
    /// The solver proved the puzzle has no solution.
    #[error("{name}: the puzzle has no solution, so the sheet would have none to print")]
    Unsolvable { name: String },
    /// The solver ran out of budget first.
    #[error("{name}: the solver found no solution within {budget} nodes")]
    Unproven { name: String, budget: u64 },
    /// The puzzle's rules or a move did not go through the game engine
    /// (a bug: the puzzle was already checked).
    #[error("{name}: {message}")]
    Engine { name: String, message: String },
    /// A diagram could not be drawn.
    #[error("{name}: {error}")]
    Diagram { name: String, error: DiagramError },
}

/// A sheet of `puzzles` (each with a name for errors, such as its file) as
/// one self-contained HTML document: the puzzles on the first page, their
/// solutions and notes on the second.
///
/// ```
/// use murus_mural::Puzzle;
/// use murus_publish::mural_sheet::{MuralSheetOptions, mural_sheet_html};
///
/// let p = Puzzle::from_toml(r#"
/// title = "Leapfrog"
/// board = "5x1"
/// start = "1r2r22"
/// targets = ["a1", "c1", "d1", "e1"]
/// "#).unwrap();
/// let html = mural_sheet_html(&[("leapfrog.toml".into(), p)], &MuralSheetOptions::default()).unwrap();
/// assert!(html.contains(r#"data-move="c1-e1""#));
/// ```
pub fn mural_sheet_html(
    puzzles: &[(String, Puzzle)],
    options: &MuralSheetOptions,
) -> Result<String, MuralSheetError> {
    if puzzles.is_empty() {
        return Err(MuralSheetError::Empty);
    }
    let mut first = String::from(
        "<header>\n<h1>Murals</h1>\n<p class=\"sub\">Solitaire puzzles of Murus Gallicus. \
         Sow the towers (any colour, in any order) until every marked cell, and no other, holds a wall \
         and no tower is left. Par is the fewest moves that solve it.</p>\n</header>\n\
         <section class=\"puzzles\">\n<div class=\"figures\">\n",
    );
    let mut second = String::from(
        "<section class=\"page solutions\">\n<h2>Solutions</h2>\n<div class=\"figures\">\n",
    );
    for (i, (name, p)) in puzzles.iter().enumerate() {
        let n = i + 1;
        let drawn = draw(name, p, options)?;
        let heading = format!("{n}. {}", p.title);
        let mut about = vec![format!("Par {}", drawn.par)];
        if let Some(d) = &drawn.difficulty {
            about.push(d.clone());
        }
        if p.sacrifice {
            about.push("sacrifices allowed".into());
        }
        if !p.author.is_empty() {
            about.push(p.author.clone());
        }
        let caption = about.join(" · ");
        let attrs = format!(
            " data-kind=\"mural\" data-puzzle=\"{n}\" data-par=\"{}\"",
            drawn.par
        );
        first.push_str(&figure(&attrs, Some(&heading), &drawn.puzzle, &caption));
        let attrs = format!(
            " data-kind=\"solution\" data-puzzle=\"{n}\" data-moves=\"{}\"",
            escape(&drawn.moves.join(" "))
        );
        let list: Vec<String> = drawn
            .moves
            .iter()
            .enumerate()
            .map(|(k, m)| format!("{}. {m}", k + 1))
            .collect();
        let mut caption = format!("{}.", list.join("  "));
        if let Some(notes) = p.notes.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
            let _ = write!(caption, " {notes}");
        }
        second.push_str(&figure(&attrs, Some(&heading), &drawn.solution, &caption));
    }
    first.push_str("</div>\n</section>\n");
    second.push_str("</div>\n</section>\n");
    Ok(page("Murals", &format!("{first}{second}")))
}

/// `d` with a dot on each target.
fn marked<'v>(d: Diagram<'v>, targets: &[usize]) -> Diagram<'v> {
    targets.iter().fold(d, |d, &c| d.mark(c))
}

/// One puzzle drawn: its diagram, its solution's diagram and moves.
struct Drawn {
    puzzle: String,
    solution: String,
    moves: Vec<String>,
    par: usize,
    difficulty: Option<String>,
}

fn draw(name: &str, p: &Puzzle, options: &MuralSheetOptions) -> Result<Drawn, MuralSheetError> {
    let engine = |message: String| MuralSheetError::Engine {
        name: name.to_string(),
        message,
    };
    let solution = solve(p, &p.start, Mode::Optimal, options.budget, &());
    match solution.status {
        Status::Solved => {}
        Status::Unsolvable => {
            return Err(MuralSheetError::Unsolvable {
                name: name.to_string(),
            });
        }
        Status::Unproven => {
            return Err(MuralSheetError::Unproven {
                name: name.to_string(),
                budget: options.budget,
            });
        }
    }
    let v = murus_mural::engine::variant(p).map_err(|e| engine(e.to_string()))?;
    let start =
        murus_mural::engine::position(p, &v, &p.start, 0).map_err(|e| engine(e.to_string()))?;
    let targets: Vec<usize> = p
        .target_cells()
        .into_iter()
        .filter_map(|s| v.geometry().parse_cell(&p.board.name(s)))
        .collect();
    let puzzle = marked(
        Diagram::new(&v, start)
            .coordinates(true)
            .theme(options.theme),
        &targets,
    )
    .to_svg();

    // Each move parsed by the engine in the position it is played from,
    // with its tower's colour to move; all arrows drawn on the start,
    // numbered in the order played.
    let mut state: State = p.start.clone();
    let mut d = marked(
        Diagram::new(&v, start)
            .coordinates(true)
            .numbered(true)
            .theme(options.theme),
        &targets,
    );
    let mut moves = Vec::new();
    for m in &solution.moves {
        let text = m.notation(&p.board);
        let from = match *m {
            murus_mural::MuralMove::Sow { from, .. }
            | murus_mural::MuralMove::Sacrifice { from, .. } => from as usize,
        };
        let (colour, _) = state
            .get(from)
            .ok_or_else(|| engine(format!("no stack on the first cell of `{text}`")))?;
        let pos = murus_mural::engine::position(p, &v, &state, colour)
            .map_err(|e| engine(e.to_string()))?;
        let em = v
            .parse_move(&pos, &text)
            .map_err(|e| engine(format!("the engine rejects `{text}`: {e}")))?;
        d = d.arrow(em).map_err(|error| MuralSheetError::Diagram {
            name: name.to_string(),
            error,
        })?;
        state.apply(*m);
        moves.push(text);
    }
    let par = moves.len();
    let solution_svg = d
        .caption(format!(
            "Solved in {}",
            murus_engine::text::plural(par as u64, "move")
        ))
        .to_svg();
    let difficulty = p.difficulty.clone().or_else(|| {
        let c = count(p, &p.start, options.budget, &());
        rate(p, &c).map(|r| r.band)
    });
    Ok(Drawn {
        puzzle,
        solution: solution_svg,
        moves,
        par,
        difficulty,
    })
}
