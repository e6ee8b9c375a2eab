//! A run's log: one JSON record a line (`games.jsonl`, `data.jsonl`),
//! appended and flushed as each record is finished. A kill can tear only
//! the last line, which has no newline yet: reading leaves it out (and a
//! run that goes on cuts it off); any other line that does not read is an
//! error naming its `file:line`.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::io;
use crate::error::LabError;

/// The records of the log at `path`, each with its line number (blank
/// lines skipped), and the length in bytes of its whole lines. A missing
/// file holds no records. `what` names a record in errors: `not a game`.
pub(crate) fn read<T: DeserializeOwned>(
    path: &Path,
    what: &str,
) -> Result<(Vec<(usize, T)>, u64), LabError> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(e) => return Err(io(path)(e)),
    };
    let mut reader = BufReader::new(file);
    let mut records = Vec::new();
    let mut whole = 0u64;
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let n = reader.read_until(b'\n', &mut line).map_err(io(path))?;
        if n == 0 || line.last() != Some(&b'\n') {
            // The end, or a last line torn by a kill.
            break;
        }
        whole += n as u64;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let record = serde_json::from_slice(&line).map_err(|e| LabError::Parse {
            path: path.display().to_string(),
            line: number,
            message: format!("{what}: {e}"),
        })?;
        records.push((number, record));
    }
    Ok((records, whole))
}

/// A log open for appending records.
#[derive(Debug)]
pub(crate) struct Appender {
    path: PathBuf,
    file: File,
}

impl Appender {
    /// Opens the log at `path` (created if missing) to append to it, cut
    /// to its first `whole` bytes: a torn last line is dropped, so that the
    /// next record starts a line. A new log is created empty (`create_new`:
    /// never over a file that is there).
    pub(crate) fn open(path: &Path, whole: Option<u64>) -> Result<Appender, LabError> {
        let mut options = OpenOptions::new();
        options.append(true);
        match whole {
            None => options.create_new(true),
            Some(_) => options.create(true),
        };
        let file = options.open(path).map_err(io(path))?;
        if let Some(whole) = whole
            && file.metadata().map_err(io(path))?.len() > whole
        {
            file.set_len(whole).map_err(io(path))?;
        }
        Ok(Appender {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Appends `record` as a line, written through to the file at once (a
    /// kill of the process right after loses nothing).
    pub(crate) fn append<T: Serialize>(&mut self, record: &T) -> Result<(), LabError> {
        let mut line = serde_json::to_string(record).expect("a record serialises");
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(io(&self.path))
    }
}

/// `records` as the text of a log.
pub(crate) fn text<T: Serialize>(records: &[T]) -> String {
    let mut out = String::new();
    for r in records {
        out.push_str(&serde_json::to_string(r).expect("a record serialises"));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torn_last_line_is_left_out_and_cut_off_when_the_log_goes_on() {
        let dir = std::env::temp_dir().join(format!("murus-lines-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("log.jsonl");
        std::fs::write(&path, "[1]\n\n[2]\n[3, 4").unwrap();
        let (records, whole) = read::<Vec<u32>>(&path, "not a list").unwrap();
        assert_eq!(records, [(1, vec![1]), (3, vec![2])]);
        assert_eq!(whole, 9);
        let mut log = Appender::open(&path, Some(whole)).unwrap();
        log.append(&[5]).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "[1]\n\n[2]\n[5]\n");
        // A bad line before the last is an error at its place.
        std::fs::write(&path, "[1]\n{\n[2]\n").unwrap();
        let e = read::<Vec<u32>>(&path, "not a list").unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("{}:2: not a list: ", path.display())),
            "{e}"
        );
        // No file, no records; a new log never replaces a file.
        assert_eq!(read::<u32>(&dir.join("none"), "x").unwrap().0, []);
        assert!(Appender::open(&path, None).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
