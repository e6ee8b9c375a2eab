//! The lab's one error type: bad inputs, files that cannot be read or
//! written or do not hold what the lab wrote, run folders of other runs,
//! and failures of the games themselves.

/// Errors of the lab's inputs and files.
#[derive(Debug, thiserror::Error)]
pub enum LabError {
    /// An input the lab cannot use (a bad shard, a match of three players).
    #[error("{0}")]
    Invalid(String),
    /// A file or folder could not be read or written.
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// A file's content is not what the lab wrote.
    #[error("{path}:{line}: {message}")]
    Parse {
        path: String,
        line: usize,
        message: String,
    },
    /// An opening book ([`crate::Book::parse`]) with lines that cannot open a
    /// game: the first bad move's place and problem, as
    /// ``book.txt:2:7: `d7-d6` is not legal at ply 2 (g to move; 20 legal moves)``,
    /// and how many lines are bad.
    #[error("{path}:{line}:{column}: {message}{}", more_errors(*.errors))]
    Book {
        path: String,
        /// The line (from 1) and column (from 1, in characters) of the first
        /// bad move.
        line: usize,
        column: usize,
        message: String,
        /// Bad lines in the book (each reported at its first problem).
        errors: usize,
        /// Every bad line's diagnostic as rustc renders its own: the
        /// header, the line with a caret under the move, notes (the legal
        /// moves).
        rendered: String,
    },
    /// A file could not be written whole (the error names the file).
    #[error("{0}")]
    Write(std::io::Error),
    /// A new run was asked to start in a folder that already keeps one
    /// (`what` it is: `run`, `check`, `sweep`; `file`: the file of it found).
    #[error("{path} already holds a {what} ({file}); resume it, or choose another folder")]
    RunExists {
        path: String,
        what: &'static str,
        file: String,
    },
    /// A run was asked to resume from a folder that keeps none.
    #[error("{path}: no {what} to resume: {why}")]
    NoRun {
        path: String,
        what: &'static str,
        why: String,
    },
    /// A run was asked to resume from a folder that keeps a run of other
    /// settings.
    #[error("{path} holds a different {what}: {}", .differences.join("; "))]
    Mismatch {
        path: String,
        what: &'static str,
        /// One sentence per differing setting: `seed 4 there, 5 asked`.
        differences: Vec<String>,
    },
    /// A merge of shards that do not make the whole run (shards missing,
    /// shards interrupted) was not asked to merge what is there: one
    /// sentence per problem, `shards 3/8 and 5/8 are missing`.
    #[error("{}", .0.join("; "))]
    Partial(Vec<String>),
    /// A self-play worker panicked (a bug); the games it finished are kept.
    #[error("a self-play worker stopped on an internal error: {0}")]
    Panicked(String),
    /// An external engine failed (it did not start, exited, timed out or
    /// named an illegal move) in game `game` (counted from 1); the games
    /// finished before are kept.
    #[error("game {game}: {error}")]
    Engine {
        game: u64,
        error: murus_ai::ExternalError,
    },
}

/// The end of a book error's message: how many more lines are bad.
fn more_errors(errors: usize) -> String {
    match errors {
        0 | 1 => String::new(),
        2 => " (and 1 more error in the book)".into(),
        n => format!(" (and {} more errors in the book)", n - 1),
    }
}
