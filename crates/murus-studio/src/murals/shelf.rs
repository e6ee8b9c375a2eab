//! The puzzles Murals offers, whatever folder the studio runs from: the
//! shipped ones (built in, read-only: saving one asks where to save a copy)
//! and the user's own, in the data folder ([`Places::puzzles`]) and in the
//! folder last opened from.

use std::path::{Path, PathBuf};

use murus_mural::collection::SHIPPED;

use crate::places::{self, Places};

/// The puzzle lists and the folder puzzles are saved to.
#[derive(Clone, Debug)]
pub struct Shelf {
    places: Places,
    /// The folder last opened from or saved to (the data folder's
    /// `puzzles` at first).
    dir: PathBuf,
    files: Vec<PathBuf>,
}

impl Shelf {
    /// The shelf of `places`, browsing `dir` too (`None`: the data
    /// folder's puzzles only).
    pub fn new(places: Places, dir: Option<PathBuf>) -> Shelf {
        let dir = dir.unwrap_or_else(|| places.puzzles());
        let mut s = Shelf {
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

    /// The folder a Save dialog starts in: [`Shelf::dir`], created when
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
}

/// The text of the shipped puzzle `name` (`02-5x5-easy.toml`, or without
/// its `.toml`).
pub fn shipped_text(name: &str) -> Option<&'static str> {
    murus_mural::collection::shipped(name)
        .or_else(|| murus_mural::collection::shipped(&format!("{name}.toml")))
}
