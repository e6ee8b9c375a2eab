//! What the studio keeps in a run's or a check's folder beside murus-lab's
//! files: the rules played (`variant.mg`: the lab keeps only their name and
//! digest) and a note of the studio's own ([`Note`]: when it started,
//! where its rules came from, whether the user stopped it). What decides
//! the games is the lab's spec file (`run.json`, `balance-run.json`), read
//! through the lab's API ([`murus_lab::RunFolder::read_spec`]) and checked
//! by it on every resume; the note never repeats it.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use murus_engine::Variant;
use murus_lab::VariantId;
use serde::{Deserialize, Serialize};

use super::job::JobError;

/// The rules a run or a check played, kept in its folder.
pub const VARIANT_FILE: &str = "variant.mg";

/// The studio's own note about a run or a check (older notes held more:
/// what they held besides is not read).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Note {
    /// When it started, in seconds since 1970 (UTC).
    pub started: u64,
    /// Where its rules came from: a shipped variant's name, the rules
    /// editor, or a file's path (empty for a folder the command line
    /// wrote).
    pub origin: String,
    /// Whether the user stopped it (Cancel, or Discard when it was offered
    /// for resuming): such work is not offered again after a restart.
    pub stopped_by_user: bool,
}

/// Seconds since 1970 now.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `2026-11-23 10:15` (UTC) for seconds since 1970.
pub fn date_time(secs: u64) -> String {
    let (y, m, d) = murus_engine::util::civil((secs / 86_400) as i64);
    let t = secs % 86_400;
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}", t / 3600, t % 3600 / 60)
}

/// A folder name for work on `variant` started at `secs`:
/// `20261123-101500-standard`.
pub(crate) fn folder_name(secs: u64, variant: &str) -> String {
    let (y, m, d) = murus_engine::util::civil((secs / 86_400) as i64);
    let t = secs % 86_400;
    let name = file_safe(variant);
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}-{name}",
        t / 3600,
        t % 3600 / 60,
        t % 60
    )
}

/// `name` fit for a folder's name: letters, digits and `-` kept, anything
/// else `_`.
pub(crate) fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// When the file at `path` was last written, in seconds since 1970 (0 when
/// it cannot be told).
pub(crate) fn written_at(path: &Path) -> u64 {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs())
}

/// Reads the note `file` of `folder`, if there is one that reads.
pub fn read(folder: &Path, file: &str) -> Option<Note> {
    let text = std::fs::read_to_string(folder.join(file)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Writes the note `file` of `folder`, whole or not at all
/// ([`murus_engine::util::write_atomic`]); the error names the file.
pub fn write(folder: &Path, file: &str, note: &Note) -> Result<(), JobError> {
    let text = serde_json::to_string_pretty(note).expect("a note serialises");
    murus_engine::util::write_atomic(&folder.join(file), text).map_err(JobError::Write)
}

/// Records in the note `file` of `folder` whether the user stopped its
/// work (a folder without a note gets one).
pub fn set_stopped_by_user(folder: &Path, file: &str, stopped: bool) -> Result<(), JobError> {
    let mut note = read(folder, file).unwrap_or_default();
    if note.stopped_by_user == stopped && folder.join(file).is_file() {
        return Ok(());
    }
    note.stopped_by_user = stopped;
    write(folder, file, &note)
}

/// The note `file` of `folder`; without one (a folder the command line
/// wrote), a note that says it started when its spec file `spec` was
/// written.
pub fn read_or_guess(folder: &Path, file: &str, spec: &str) -> Note {
    read(folder, file).unwrap_or_else(|| Note {
        started: written_at(&folder.join(spec)),
        ..Note::default()
    })
}

/// Makes a new folder in `parent` for work on `variant` starting now, and
/// writes the rules and the note `file` there (its rules from `origin`):
/// the folder, and its note.
pub fn create(
    parent: &Path,
    variant: &Variant,
    file: &str,
    origin: &str,
) -> Result<(PathBuf, Note), JobError> {
    let started = now();
    let base = parent.join(folder_name(started, variant.name()));
    let mut folder = base.clone();
    let mut n = 1;
    while folder.exists() {
        n += 1;
        folder = PathBuf::from(format!("{}-{n}", base.display()));
    }
    std::fs::create_dir_all(&folder).map_err(JobError::io(&folder))?;
    murus_engine::util::write_atomic(&folder.join(VARIANT_FILE), variant.source())
        .map_err(JobError::Write)?;
    let note = Note {
        started,
        origin: origin.to_string(),
        stopped_by_user: false,
    };
    write(&folder, file, &note)?;
    Ok((folder, note))
}

/// The rules played in `folder`: its `variant.mg`, or (a folder the studio
/// did not write) the shipped variant `id` names, when its source is the
/// one played. Rules that no longer compile say where and why.
pub fn rules_of(folder: &Path, id: &VariantId) -> Result<Variant, JobError> {
    let path = folder.join(VARIANT_FILE);
    match std::fs::read_to_string(&path) {
        Ok(source) => JobError::compile(&path.display().to_string(), &source),
        Err(_) => Variant::builtin(&id.name)
            .filter(|v| murus_lab::source_sha256(v.source()) == id.source_sha256)
            .ok_or_else(|| {
                JobError::refused(format!(
                    "{}: no {VARIANT_FILE}, and `{}` is not a shipped variant as it is now",
                    folder.display(),
                    id.name
                ))
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_folder_names_are_civil_utc() {
        assert_eq!(date_time(0), "1970-01-01 00:00");
        // 2000-02-29 12:34:56 UTC, a leap day.
        assert_eq!(date_time(951_827_696), "2000-02-29 12:34");
        assert_eq!(
            folder_name(951_827_696, "my variant"),
            "20000229-123456-my_variant"
        );
        assert_eq!(date_time(1_798_761_599), "2026-12-31 23:59");
    }

    #[test]
    fn a_note_keeps_only_the_studios_own_and_older_notes_load() {
        let note = Note {
            started: 5,
            origin: "small".into(),
            stopped_by_user: true,
        };
        let text = serde_json::to_string(&note).unwrap();
        assert_eq!(serde_json::from_str::<Note>(&text).unwrap(), note);
        // A note of an older studio kept the check's settings too.
        let old = r#"{"started": 7, "origin": "small", "variant": "small",
            "source_sha256": "ab", "settings": {"levels": ["random"]}}"#;
        let old: Note = serde_json::from_str(old).unwrap();
        assert_eq!((old.started, old.origin.as_str()), (7, "small"));
    }
}
