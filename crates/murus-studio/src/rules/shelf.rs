//! Where the Rules panel's files are: the user's data folder and the
//! folder last opened from or saved to, the rule files they hold, and the
//! dialogs that start there. Without egui.

use std::path::{Path, PathBuf};

use crate::files::{self, PickRequest};
use crate::places::{self, Places};

/// The Rules panel's folders and the user's rule files in them.
#[derive(Debug)]
pub struct RulesShelf {
    /// Where the user's files are (the data folder).
    places: Places,
    /// The folder variants are opened from and saved to: the folder last
    /// used, at first the data folder's `variants`.
    dir: PathBuf,
    /// The user's rules files: the data folder's and [`RulesShelf::dir`]'s.
    files: Vec<PathBuf>,
    /// The folder last chosen, to persist (empty: none yet, the data
    /// folder's `variants`).
    saved_dir: String,
}

impl RulesShelf {
    /// The shelf of the user's data folder, opening files from `dir`
    /// (empty: the data folder's `variants`).
    pub(super) fn new(places: Places, saved_dir: &str) -> RulesShelf {
        let dir = if saved_dir.is_empty() {
            places.variants()
        } else {
            PathBuf::from(saved_dir)
        };
        let mut s = RulesShelf {
            places,
            dir,
            files: Vec::new(),
            saved_dir: saved_dir.to_string(),
        };
        s.refresh_files();
        s
    }

    /// The folder files are opened from and saved to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Opens and saves files in `dir` from now on.
    pub fn set_dir(&mut self, dir: impl Into<PathBuf>) {
        self.dir = dir.into();
        self.saved_dir = self.dir.display().to_string();
        self.refresh_files();
    }

    /// The folder last chosen, to persist (empty: none yet).
    pub(super) fn saved_dir(&self) -> &str {
        &self.saved_dir
    }

    /// Takes the user's files from `places` (tests: a scratch data
    /// folder); files are opened from and saved to its `variants` from now
    /// on.
    pub fn set_places(&mut self, places: Places) {
        self.places = places;
        self.set_dir(self.places.variants());
    }

    /// The user's data folder and its kin.
    pub fn places(&self) -> &Places {
        &self.places
    }

    /// The user's rule files (the data folder's, then
    /// [`RulesShelf::dir`]'s), as last read.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Re-reads the list of the user's files.
    pub fn refresh_files(&mut self) {
        self.files = places::variant_files(&self.places, &self.dir);
    }

    /// A file was opened from or saved to `path`: its folder is the one
    /// used from now on.
    pub(super) fn used(&mut self, path: &Path) {
        match path.parent().filter(|d| !d.as_os_str().is_empty()) {
            Some(d) if files::absolute(d) != files::absolute(&self.dir) => {
                self.set_dir(d.to_path_buf());
            }
            _ => self.refresh_files(),
        }
    }

    /// The folder a Save dialog starts in: the one `file` is in, or
    /// [`RulesShelf::dir`] (if it is not there yet, the nearest one that
    /// is).
    pub(super) fn save_dir(&self, file: Option<&Path>) -> PathBuf {
        file.and_then(Path::parent)
            .map_or_else(|| places::existing(&self.dir), Path::to_path_buf)
    }

    /// The "Open" dialog, in [`RulesShelf::dir`].
    pub fn open_request(&self) -> PickRequest {
        PickRequest::open("Open a rules file", "Rules", &["mg"])
            .in_dir(&places::existing(&self.dir))
    }
}
