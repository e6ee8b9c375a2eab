//! The puzzle being authored: its text, the file it belongs to and that
//! file's text, and what the text reads as: the puzzle (shown and painted
//! even while it is wrong as a whole, a count of stones against targets
//! for instance), its problems, and whether its recorded `optimal` and
//! `difficulty` were found for it.

use std::path::Path;

use murus_mural::Puzzle;

use super::{EXAMPLE, shipped_text};
use crate::files;

/// A problem of the puzzle text, at its line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// The puzzle's recorded `optimal` and `difficulty`, and whether they were
/// found for the puzzle as it is now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figures {
    pub optimal: Option<u32>,
    pub difficulty: Option<String>,
    /// The puzzle was edited since they were found (by the file's author,
    /// the generator or a count): they may no longer hold.
    pub stale: bool,
}

/// What the edit history keeps of a document: its text and its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub text: String,
    /// The file the text belongs to (empty: never saved).
    pub path: String,
}

/// The puzzle being authored: its text and file, and what the text reads
/// as. It changes only as a whole ([`MuralDocument::set`]); the
/// [`super::MuralEditor`] makes each change an undoable edit.
#[derive(Clone, Debug)]
pub struct MuralDocument {
    text: String,
    path: String,
    /// The file's text as last read or written.
    disk_text: String,
    /// The puzzle the text reads as; while the text does not read, the last
    /// one that did (shown, not painted).
    puzzle: Option<Puzzle>,
    /// Whether [`MuralDocument::puzzle`] is the text's.
    reads: bool,
    problems: Vec<Problem>,
    /// The mural (board, stacks, targets, rules) the recorded `optimal` and
    /// `difficulty` were found for.
    figures_for: Option<String>,
}

/// The mural without its title, author, notes and recorded figures: what
/// `optimal` and `difficulty` depend on.
fn mural_key(p: &Puzzle) -> String {
    let mut bare = p.clone();
    bare.title.clear();
    bare.author.clear();
    bare.notes = None;
    bare.optimal = None;
    bare.difficulty = None;
    bare.to_toml()
}

impl MuralDocument {
    /// A document as saved: `text` belongs to the file `path` (empty: none),
    /// whose text was `disk_text`. Recorded figures are trusted unless the
    /// text differs from the file's (unsaved edits from before a restart:
    /// whether the figures still hold is unknown).
    pub fn new(text: String, path: String, disk_text: String) -> MuralDocument {
        let mut d = MuralDocument {
            text,
            path,
            disk_text,
            puzzle: None,
            reads: false,
            problems: Vec::new(),
            figures_for: None,
        };
        d.reread();
        if !d.is_dirty() {
            d.trust_figures();
        }
        d
    }

    /// The puzzle text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The file the text belongs to (empty: never saved).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The file's text as last read or written.
    pub fn disk_text(&self) -> &str {
        &self.disk_text
    }

    /// The puzzle on the board: the text's, even when it is wrong as a whole;
    /// while the text does not read, the last one that did.
    pub fn puzzle(&self) -> Option<&Puzzle> {
        self.puzzle.as_ref()
    }

    /// Problems of the text (empty: a valid puzzle).
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// Whether the text is a valid puzzle.
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty() && self.reads
    }

    /// Whether the board shows the text's puzzle, so painting on it edits
    /// the text (a text that does not read is never overwritten).
    pub fn can_paint(&self) -> bool {
        self.reads
    }

    /// Whether the text has changes that are in no file (the example,
    /// untouched, has nothing to lose).
    pub fn is_dirty(&self) -> bool {
        self.text != self.disk_text && !(self.path.is_empty() && self.text == EXAMPLE)
    }

    /// Whether the text belongs to the file `path` (however either is
    /// written: relative to the working folder or in full).
    pub fn is_file(&self, path: &Path) -> bool {
        !self.path.is_empty() && files::absolute(Path::new(&self.path)) == files::absolute(path)
    }

    /// Whether the text is the shipped puzzle `name` as shipped (opened
    /// from the list, not saved anywhere yet).
    pub fn is_shipped(&self, name: &str) -> bool {
        self.path.is_empty() && shipped_text(name).is_some_and(|t| t == self.disk_text)
    }

    /// Why the puzzle cannot be saved now, if it cannot.
    pub fn why_not_save(&self) -> Result<(), String> {
        match self.problems.len() {
            0 => Ok(()),
            1 => Err("fix the puzzle's problem before saving".into()),
            n => Err(format!("fix the puzzle's {n} problems before saving")),
        }
    }

    /// The text and file, for the history.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            text: self.text.clone(),
            path: self.path.clone(),
        }
    }

    /// Takes `s`'s text and file. `disk_text` is the file's text when the
    /// file changes (`None`: read it from the file).
    pub fn set(&mut self, s: Snapshot, disk_text: Option<String>) {
        if let Some(t) = disk_text {
            self.disk_text = t;
        } else if s.path != self.path {
            self.disk_text = std::fs::read_to_string(&s.path).unwrap_or_default();
        }
        self.text = s.text;
        self.path = s.path;
        self.reread();
    }

    /// The text is now in the file `path`.
    pub fn saved_to(&mut self, path: String) {
        self.disk_text = self.text.clone();
        self.path = path;
    }

    /// Reads the text: its puzzle (kept from before when it does not read)
    /// and problems.
    fn reread(&mut self) {
        let draft = Puzzle::read(&self.text);
        self.reads = draft.puzzle.is_some();
        if let Some(p) = draft.puzzle {
            self.puzzle = Some(p);
        }
        self.problems = draft
            .problems
            .iter()
            .map(|d| {
                let (line, col) = d.line_col(&self.text);
                Problem {
                    line,
                    col,
                    message: d.message.clone(),
                }
            })
            .collect();
    }

    /// The recorded `optimal` and `difficulty` of a valid puzzle that has
    /// either.
    pub fn figures(&self) -> Option<Figures> {
        let p = self.puzzle.as_ref().filter(|_| self.is_valid())?;
        if p.optimal.is_none() && p.difficulty.is_none() {
            return None;
        }
        Some(Figures {
            optimal: p.optimal,
            difficulty: p.difficulty.clone(),
            stale: self.figures_for.as_deref() != Some(mural_key(p).as_str()),
        })
    }

    /// Whether the puzzle records figures found before its edits.
    pub fn figures_stale(&self) -> bool {
        self.figures().is_some_and(|f| f.stale)
    }

    /// Takes the puzzle's recorded figures as found for it (a file's, the
    /// generator's, or confirmed by a count).
    pub fn trust_figures(&mut self) {
        self.figures_for = self
            .puzzle
            .as_ref()
            .filter(|_| self.is_valid())
            .map(mural_key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> MuralDocument {
        MuralDocument::new(text.into(), String::new(), String::new())
    }

    /// Leapfrog with an extra wall on a1: five stones for four targets.
    const WALLED: &str = "title = \"Leapfrog\"\nboard = \"5x1\"\nstart = \"r1r2r22\"\ntargets = [\"a1\", \"c1\", \"d1\", \"e1\"]\n";

    #[test]
    fn a_mural_wrong_as_a_whole_shows_and_paints_with_its_problem() {
        let d = doc(WALLED);
        assert_eq!(d.puzzle().map(|p| p.start.stones()), Some(5));
        assert!(d.can_paint());
        assert!(!d.is_valid());
        assert_eq!(d.problems()[0].message, "4 targets for 5 stones");
        assert_eq!((d.problems()[0].line, d.problems()[0].col), (4, 11));
    }

    #[test]
    fn a_text_that_does_not_read_keeps_the_last_board_but_not_the_brush() {
        let mut d = doc(EXAMPLE);
        d.set(
            Snapshot {
                text: "title = \"x\"\nboard = \"5x\"\n".into(),
                path: String::new(),
            },
            None,
        );
        assert_eq!(d.puzzle().map(|p| p.title.as_str()), Some("Leapfrog"));
        assert!(!d.can_paint() && !d.is_valid());
        assert!(!d.problems().is_empty());
    }

    #[test]
    fn figures_are_stale_once_the_mural_changes_and_fresh_when_trusted() {
        let with = format!("{EXAMPLE}optimal = 5\n");
        let mut d = MuralDocument::new(with.clone(), "x.toml".into(), with.clone());
        assert_eq!(d.figures().map(|f| f.stale), Some(false), "a file's");
        // A new title is no new mural; a new target is.
        let retitled = with.replace("Leapfrog", "Frog");
        d.set(
            Snapshot {
                text: retitled,
                path: "x.toml".into(),
            },
            Some(with.clone()),
        );
        assert!(!d.figures_stale());
        d.set(
            Snapshot {
                text: with
                    .replace("\"e1\"]", "\"e1\", \"b1\"]")
                    .replace("1r2r22", "r11r2r21"),
                path: "x.toml".into(),
            },
            Some(with.clone()),
        );
        assert!(d.is_valid(), "{:?}", d.problems());
        assert!(d.figures_stale());
        d.trust_figures();
        assert!(!d.figures_stale());
        // Unsaved edits from before a restart are not trusted.
        let d = MuralDocument::new(
            format!("{EXAMPLE}optimal = 4\n"),
            String::new(),
            String::new(),
        );
        assert!(d.figures_stale());
    }

    #[test]
    fn the_untouched_example_is_nothing_to_lose() {
        assert!(!doc(EXAMPLE).is_dirty());
        assert!(doc(WALLED).is_dirty());
        let mut d = MuralDocument::new(EXAMPLE.into(), "x.toml".into(), EXAMPLE.into());
        assert!(!d.is_dirty());
        d.set(
            Snapshot {
                text: WALLED.into(),
                path: "x.toml".into(),
            },
            None,
        );
        assert!(d.is_dirty());
        d.saved_to("y.toml".into());
        assert!(!d.is_dirty());
        assert_eq!(d.path(), "y.toml");
    }
}
