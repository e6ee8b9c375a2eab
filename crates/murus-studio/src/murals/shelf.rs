//! The puzzles Murals offers, whatever folder the studio runs from: the
//! shipped ones (built in, read-only: saving one asks where to save a copy)
//! and the user's own, in the data folder ([`Places::puzzles`]) and in the
//! folder last opened from; and where the file dialogs for puzzles start.

use std::path::{Path, PathBuf};

use murus_mural::collection::SHIPPED;

use super::MuralDocument;
use crate::files::PickRequest;
use crate::places::{self, Places};

/// The puzzle lists and the folder puzzles are saved to; its fields are
/// private, the lists follow the folders.
#[derive(Clone, Debug)]
pub struct MuralShelf {
    places: Places,
    /// The folder last opened from or saved to (the data folder's
    /// `puzzles` at first).
    dir: PathBuf,
    files: Vec<PathBuf>,
}

impl MuralShelf {
    /// The shelf of `places`, browsing `dir` too (`None`: the data
    /// folder's puzzles only).
    pub fn new(places: Places, dir: Option<PathBuf>) -> MuralShelf {
        let dir = dir.unwrap_or_else(|| places.puzzles());
        let mut s = MuralShelf {
            places,
            dir,
            files: Vec::new(),
        };
        s.refresh();
        s
    }

    /// Takes the user's files from `places` (tests: a scratch data folder);
    /// the folder browsed becomes its `puzzles`.
    pub fn set_places(&mut self, places: Places) {
        self.dir = places.puzzles();
        self.places = places;
        self.refresh();
    }

    /// The data folder and its kin.
    pub fn places(&self) -> &Places {
        &self.places
    }

    /// Browses (and saves to) `dir` too.
    pub fn set_dir(&mut self, dir: PathBuf) {
        self.dir = dir;
        self.refresh();
    }

    /// The folder last opened from or saved to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The folder a Save dialog starts in: [`MuralShelf::dir`], created when
    /// missing (the data folder the first time), or the nearest folder that
    /// exists.
    pub fn save_dir(&self) -> PathBuf {
        places::existing(&self.dir)
    }

    /// A puzzle was opened from or saved to `path`: its folder is browsed
    /// from now on.
    pub fn used(&mut self, path: &Path) {
        match path.parent().filter(|d| !d.as_os_str().is_empty()) {
            Some(d) if crate::files::absolute(d) != crate::files::absolute(&self.dir) => {
                self.set_dir(d.to_path_buf());
            }
            _ => self.refresh(),
        }
    }

    /// Reads the folders again.
    pub fn refresh(&mut self) {
        self.files = places::files_in(&[&self.places.puzzles(), &self.dir], "toml");
    }

    /// The user's puzzle files: the data folder's, then the folder last
    /// used's, each sorted.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// The shipped puzzles offered, by file name: all but those a listed
    /// file stands for (a `puzzles/` folder of the repository, opened).
    pub fn shipped(&self) -> Vec<&'static str> {
        SHIPPED
            .iter()
            .map(|&(name, _)| name)
            .filter(|name| {
                !self
                    .files
                    .iter()
                    .any(|f| f.file_name().is_some_and(|n| n == *name))
            })
            .collect()
    }

    /// The "Open a puzzle" dialog, in the folder last used.
    pub fn open_request(&self) -> PickRequest {
        PickRequest::open("Open a puzzle", "Murals", &["toml"]).in_dir(&self.save_dir())
    }

    /// The "Save puzzle as" dialog for `doc`: beside its file, proposing
    /// its name; for an untitled puzzle (or a shipped one), in the folder
    /// last used (at first the data folder's `puzzles`, created then),
    /// proposing a name made of its title.
    pub fn save_as_request(&self, doc: &MuralDocument) -> PickRequest {
        let request = PickRequest::save("Save the puzzle as", "Murals", &["toml"]);
        if !doc.path().is_empty() {
            return request.near(Path::new(doc.path()));
        }
        let title = doc.puzzle().map(|p| p.title.clone()).unwrap_or_default();
        let name: String = title
            .to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        let name = if name.is_empty() {
            "my-mural".into()
        } else {
            name
        };
        request
            .in_dir(&self.save_dir())
            .named(format!("{name}.toml"))
    }

    /// The Save dialog of `doc`'s puzzle sheet, beside its file (an
    /// untitled or shipped puzzle's: in the folder last used).
    pub fn sheet_request(&self, doc: &MuralDocument) -> PickRequest {
        let request = PickRequest::save("Save the puzzle sheet", "HTML page", &["html"]);
        match doc.path() {
            "" => request.in_dir(&self.save_dir()).named("puzzle-sheet.html"),
            file => {
                let stem = Path::new(file)
                    .file_stem()
                    .map_or("puzzle".into(), |s| s.to_string_lossy().into_owned());
                request
                    .near(Path::new(file))
                    .named(format!("{stem}-sheet.html"))
            }
        }
    }
}
