//! Where the studio finds files, whatever folder it was launched from: the
//! shipped variants and puzzles are built in (murus-engine's
//! [`murus_engine::BUILTIN`], murus-mural's
//! [`murus_mural::collection::SHIPPED`]); the user's own live in the
//! platform's data folder (`~/.local/share/murus/{variants,puzzles}` on
//! Linux, created when first needed) and in any folder opened.
//!
//! `MURUS_DATA_DIR` names another data folder (scripts, CI); tests give a
//! scratch one with [`Places::at`], so that nothing is written into the
//! real user's.

use std::path::{Path, PathBuf};

/// The environment variable that replaces the platform's data folder.
pub const DATA_DIR_VAR: &str = "MURUS_DATA_DIR";

/// The user's data folder: `variants/` and `puzzles/` in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Places {
    data: PathBuf,
}

impl Default for Places {
    fn default() -> Self {
        Places::user()
    }
}

impl Places {
    /// The user's data folder: `MURUS_DATA_DIR` when set, else the
    /// platform's (eframe's `storage_dir("murus")`, the folder the
    /// `directories` crate gives too: `~/.local/share/murus` on Linux,
    /// `~/Library/Application Support/murus` on macOS,
    /// `%APPDATA%\murus\data` on Windows), else `murus-data` in the
    /// working folder.
    pub fn user() -> Places {
        let data = std::env::var_os(DATA_DIR_VAR)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| eframe::storage_dir("murus"))
            .unwrap_or_else(|| PathBuf::from("murus-data"));
        Places::at(&data)
    }

    /// A data folder of the caller's choosing (tests: a scratch folder).
    pub fn at(data: &Path) -> Places {
        Places {
            data: crate::files::absolute(data),
        }
    }

    /// The data folder.
    pub fn data(&self) -> &Path {
        &self.data
    }

    /// The user's rules files (`DATA/variants`; may not exist yet).
    pub fn variants(&self) -> PathBuf {
        self.data.join("variants")
    }

    /// The user's puzzles (`DATA/puzzles`; may not exist yet).
    pub fn puzzles(&self) -> PathBuf {
        self.data.join("puzzles")
    }
}

/// `dir`, created when missing, to propose in a Save dialog: a folder that
/// exists. Where it cannot be created, the nearest folder above it that
/// exists (or the working folder).
pub fn existing(dir: &Path) -> PathBuf {
    let dir = crate::files::absolute(dir);
    if dir.is_dir() || std::fs::create_dir_all(&dir).is_ok() {
        return dir;
    }
    dir.ancestors()
        .find(|d| d.is_dir())
        .map_or_else(|| crate::files::absolute(Path::new(".")), Path::to_path_buf)
}

/// The files with extension `ext` in each of `dirs` (a folder that does not
/// exist has none), sorted by name within a folder, each path once
/// (however the folders are written).
pub fn files_in(dirs: &[&Path], ext: &str) -> Vec<PathBuf> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for dir in dirs {
        if !seen.insert(crate::files::absolute(dir)) {
            continue;
        }
        out.extend(crate::files::list(dir, ext));
    }
    out
}

/// The `.mg` files a variant list offers beside the shipped variants: the
/// user's (in the data folder) and those of `dir`, a folder the user chose
/// (the Lab's variants folder). The shipped ones are
/// [`murus_engine::BUILTIN`].
pub fn variant_files(places: &Places, dir: &Path) -> Vec<PathBuf> {
    files_in(&[&places.variants(), dir], "mg")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_folder_holds_variants_and_puzzles_and_is_not_created_by_listing() {
        let data = std::env::temp_dir().join(format!("murus-places-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data);
        let p = Places::at(&data);
        assert_eq!(p.variants(), data.join("variants"));
        assert_eq!(p.puzzles(), data.join("puzzles"));
        assert_eq!(variant_files(&p, &data.join("none")), Vec::<PathBuf>::new());
        assert!(!data.exists(), "listing creates nothing");
        assert_eq!(existing(&p.puzzles()), p.puzzles());
        assert!(p.puzzles().is_dir(), "a folder to propose is created");
        std::fs::write(p.puzzles().join("a.toml"), "").unwrap();
        let twice = files_in(&[&p.puzzles(), &p.puzzles()], "toml");
        assert_eq!(twice, [p.puzzles().join("a.toml")], "each path once");
        let _ = std::fs::remove_dir_all(&data);
    }

    #[test]
    fn a_folder_that_cannot_be_made_gives_the_nearest_that_exists() {
        let file = std::env::temp_dir().join(format!("murus-places-file-{}", std::process::id()));
        std::fs::write(&file, "").unwrap();
        // A folder inside a file cannot be created.
        assert_eq!(existing(&file.join("x/y")), std::env::temp_dir());
        let _ = std::fs::remove_file(&file);
    }
}
