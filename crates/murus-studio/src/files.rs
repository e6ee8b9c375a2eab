//! The file handling the Rules and Murals panels share: listing a folder,
//! writing a file, the path "Save as" writes and a short name to show.

use std::path::{Path, PathBuf};

use crate::Message;

/// The files in `dir` whose extension is `ext`, sorted (none if the folder
/// cannot be read).
pub fn list(dir: &Path, ext: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|d| {
            let mut v: Vec<PathBuf> = d
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == ext))
                .collect();
            v.sort();
            v
        })
        .unwrap_or_default()
}

/// Writes `text` to `path`, creating its folder; the message to show either
/// way.
pub fn write(path: &Path, text: &str) -> Result<Message, Message> {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    match std::fs::write(path, text) {
        Ok(()) => Ok(Message::info(format!("saved {}", path.display()))),
        Err(e) => Err(Message::error(format!("{}: {e}", path.display()))),
    }
}

/// Where "Save as" writes `name` in `dir`: `.ext` is added when missing, and
/// a name that is empty or has a folder in it is refused (`example` shows a
/// good one).
pub fn save_as_path(dir: &Path, name: &str, ext: &str, example: &str) -> Result<PathBuf, Message> {
    let mut n = name.trim().to_string();
    if n.is_empty() || n.contains('/') || n.contains('\\') {
        return Err(Message::error(format!(
            "give a plain file name, like {example}"
        )));
    }
    if !n.ends_with(&format!(".{ext}")) {
        n.push('.');
        n.push_str(ext);
    }
    Ok(dir.join(n))
}

/// `path` as its folder's name and its file name (`variants/x.mg`), short
/// enough for a question or a title.
pub fn short_name(path: &Path) -> String {
    let file = path.file_name().unwrap_or(path.as_os_str());
    match path.parent().and_then(Path::file_name) {
        Some(dir) => Path::new(dir).join(file).display().to_string(),
        None => Path::new(file).display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_as_adds_the_extension_and_refuses_folders() {
        let dir = Path::new("variants");
        assert_eq!(
            save_as_path(dir, " mine ", "mg", "x.mg"),
            Ok(dir.join("mine.mg"))
        );
        assert_eq!(
            save_as_path(dir, "mine.mg", "mg", "x.mg"),
            Ok(dir.join("mine.mg"))
        );
        for bad in ["", "  ", "a/b.mg", "a\\b.mg"] {
            let e = save_as_path(dir, bad, "mg", "my-variant.mg").unwrap_err();
            assert_eq!(e.text, "give a plain file name, like my-variant.mg");
        }
    }

    #[test]
    fn short_names_keep_the_folder_and_the_file() {
        assert_eq!(
            short_name(Path::new("/home/me/variants/x.mg")),
            "variants/x.mg"
        );
        assert_eq!(short_name(Path::new("variants/x.mg")), "variants/x.mg");
        assert_eq!(short_name(Path::new("x.mg")), "x.mg");
    }
}
