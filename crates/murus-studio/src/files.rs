//! The file handling the panels share: listing a folder, writing a file, a
//! short name to show, and the Open and Save dialogs.
//!
//! # File dialogs
//! A view asks for a file with a [`PickRequest`] (open or save, a title, a
//! filter, where to start) and says what to do with the answer (the app's
//! [`crate::Then`]); [`FileDialogs`] runs the [`Picker`] on a background
//! thread and hands back the full path chosen. The system picker is the
//! desktop's own dialog (rfd: the XDG desktop portal, or zenity); tests give
//! a picker of their own. Where the desktop has neither, the user is told so
//! and types the path instead, and a typed path that would replace a file
//! is asked about first (the desktop's Save dialog asks by itself).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::Message;
use crate::dialog::{self, Answer, Confirm};
use crate::worker::{Waker, Worker};

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

/// What went wrong with a file the studio reads or writes, naming it; the
/// cause kept as its source.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot make the folder {}: {source}", dir.display())]
    Folder {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The write's error names the file already
    /// ([`murus_engine::util::write_atomic`]).
    #[error("{source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("give a plain file name, like {example}")]
    NotAFileName { example: String },
    #[error(
        "no file dialog is available here (neither an XDG desktop portal nor zenity was found)"
    )]
    NoDialog,
}

impl From<FileError> for Message {
    fn from(e: FileError) -> Message {
        Message::error(e.to_string())
    }
}

/// The text of the file at `path`.
pub fn read(path: &Path) -> Result<String, FileError> {
    std::fs::read_to_string(path).map_err(|source| FileError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `text` to `path` whole or not at all, creating its folder; the
/// message that says so.
pub fn write(path: &Path, text: &str) -> Result<Message, FileError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| FileError::Folder {
            dir: dir.to_path_buf(),
            source,
        })?;
    }
    murus_engine::util::write_atomic(path, text).map_err(|source| FileError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(Message::info(format!("saved {}", path.display())))
}

/// Where "Save as" writes `name` in `dir`: `.ext` is added when missing, and
/// a name that is empty or has a folder in it is refused (`example` shows a
/// good one).
pub fn save_as_path(
    dir: &Path,
    name: &str,
    ext: &str,
    example: &str,
) -> Result<PathBuf, FileError> {
    let mut n = name.trim().to_string();
    if n.is_empty() || n.contains('/') || n.contains('\\') {
        return Err(FileError::NotAFileName {
            example: example.to_string(),
        });
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

/// What a file dialog is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PickRequest {
    /// A file to write (`true`) or to read.
    pub save: bool,
    /// The dialog's title ("Open a rules file").
    pub title: String,
    /// The files offered: a name and their extensions (`("Rules", ["mg"])`).
    pub filter: Option<(String, Vec<String>)>,
    /// The folder the dialog starts in.
    pub dir: Option<PathBuf>,
    /// The file name a Save dialog proposes.
    pub name: Option<String>,
}

impl PickRequest {
    /// A dialog that opens a file of kind `what` (`"Rules"`) with one of
    /// `exts`.
    pub fn open(title: impl Into<String>, what: &str, exts: &[&str]) -> PickRequest {
        PickRequest {
            save: false,
            title: title.into(),
            filter: Some((what.into(), exts.iter().map(|e| (*e).to_string()).collect())),
            dir: None,
            name: None,
        }
    }

    /// A dialog that saves a file of kind `what` with one of `exts`.
    pub fn save(title: impl Into<String>, what: &str, exts: &[&str]) -> PickRequest {
        PickRequest {
            save: true,
            ..PickRequest::open(title, what, exts)
        }
    }

    /// Starts in `dir` (made absolute, so that the dialog shows where it
    /// is); where `dir` does not exist, in the nearest folder above it that
    /// does.
    #[must_use]
    pub fn in_dir(mut self, dir: &Path) -> PickRequest {
        let dir = absolute(dir);
        let existing = dir.ancestors().find(|d| d.is_dir()).map(Path::to_path_buf);
        self.dir = Some(existing.unwrap_or(dir));
        self
    }

    /// Starts in the folder of `path` and proposes its name.
    #[must_use]
    pub fn near(self, path: &Path) -> PickRequest {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        let name = path.file_name().map(|n| n.to_string_lossy().to_string());
        let mut r = self.in_dir(dir.unwrap_or(Path::new(".")));
        r.name = name;
        r
    }

    /// Proposes `name` (a Save dialog).
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> PickRequest {
        self.name = Some(name.into());
        self
    }

    /// The full path the typed fallback starts from: the folder, and the
    /// proposed name.
    pub fn suggested(&self) -> String {
        let dir = self.dir.clone().unwrap_or_else(|| absolute(Path::new(".")));
        match &self.name {
            Some(n) => dir.join(n).display().to_string(),
            None => format!("{}{}", dir.display(), std::path::MAIN_SEPARATOR),
        }
    }

    /// `path` with the filter's first extension added when it has none (a
    /// typed name).
    fn with_extension(&self, path: PathBuf) -> PathBuf {
        match &self.filter {
            Some((_, exts)) if self.save && path.extension().is_none() => exts
                .first()
                .map_or(path.clone(), |e| path.with_extension(e)),
            _ => path,
        }
    }
}

/// What a file dialog answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Picked {
    /// The full path chosen.
    Path(PathBuf),
    /// The user closed the dialog.
    Cancelled,
    /// No dialog could be shown (why, in a sentence).
    Unavailable(String),
}

/// Shows a file dialog and waits for its answer (on a background thread).
pub type Picker = Arc<dyn Fn(&PickRequest) -> Picked + Send + Sync>;

/// The desktop's own file dialogs (rfd), when the desktop has a portal or
/// zenity; [`Picked::Unavailable`] otherwise.
pub fn system_picker() -> Picker {
    Arc::new(|request: &PickRequest| {
        if let Err(why) = dialogs_available() {
            return Picked::Unavailable(why.to_string());
        }
        let mut d = rfd::FileDialog::new().set_title(&request.title);
        if let Some((what, exts)) = &request.filter {
            d = d.add_filter(what, exts);
        }
        d = d.add_filter("All files", &["*"]);
        if let Some(dir) = &request.dir {
            d = d.set_directory(dir);
        }
        if let Some(name) = &request.name {
            d = d.set_file_name(name);
        }
        let chosen = if request.save {
            d.save_file()
        } else {
            d.pick_file()
        };
        chosen.map_or(Picked::Cancelled, Picked::Path)
    })
}

/// Whether the desktop can show file dialogs: an XDG desktop portal on the
/// session bus (running or startable), or zenity (rfd's fallback).
fn dialogs_available() -> Result<(), FileError> {
    if portal_on_session_bus() || zenity_on_path() {
        return Ok(());
    }
    Err(FileError::NoDialog)
}

fn portal_on_session_bus() -> bool {
    const PORTAL: &str = "org.freedesktop.portal.Desktop";
    let Ok(conn) = zbus::blocking::Connection::session() else {
        return false;
    };
    let Ok(bus) = zbus::blocking::fdo::DBusProxy::new(&conn) else {
        return false;
    };
    let Ok(name) = zbus::names::BusName::try_from(PORTAL) else {
        return false;
    };
    bus.name_has_owner(name).unwrap_or(false)
        || bus
            .list_activatable_names()
            .is_ok_and(|names| names.iter().any(|n| n.as_str() == PORTAL))
}

fn zenity_on_path() -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join("zenity").is_file()))
}

/// `path` made absolute against the working folder (left as it is if the
/// working folder is unknown).
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// A path being typed because no dialog could be shown.
#[derive(Debug)]
struct Typed<T> {
    request: PickRequest,
    then: T,
    text: String,
    why: String,
}

/// The studio's file dialogs: one at a time, run on a background thread,
/// the typed path where the desktop has none. `T` says what to do with the
/// path chosen (the app's [`crate::Then`]).
pub struct FileDialogs<T> {
    picker: Picker,
    worker: Worker<(T, PickRequest, Picked)>,
    typed: Option<Typed<T>>,
    replace: Option<Confirm<(T, PathBuf)>>,
    chosen: Vec<(T, PathBuf)>,
    /// The title of the dialog open (or last opened).
    title: String,
}

impl<T> std::fmt::Debug for FileDialogs<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileDialogs")
            .field("worker", &self.worker)
            .finish_non_exhaustive()
    }
}

impl<T: Clone + Send + 'static> FileDialogs<T> {
    /// Dialogs shown by `picker`, waking the UI with `waker` when answered.
    pub fn new(picker: Picker, waker: Waker) -> FileDialogs<T> {
        FileDialogs {
            picker,
            worker: Worker::new(waker),
            typed: None,
            replace: None,
            chosen: Vec::new(),
            title: String::new(),
        }
    }

    /// Shows dialogs with `picker` from now on (tests give their own).
    pub fn set_picker(&mut self, picker: Picker) {
        self.picker = picker;
    }

    /// Shows a dialog for `request`; its path will come back with `then`.
    /// Refused while another dialog is open (the answer names it).
    pub fn ask(&mut self, request: PickRequest, then: T) -> Result<(), crate::worker::Busy> {
        if self.is_open() {
            return Err(crate::worker::Busy {
                what: format!("the file dialog \u{201c}{}\u{201d}", self.title),
            });
        }
        self.title = request.title.clone();
        let picker = self.picker.clone();
        self.worker.start("a file dialog", move |r| {
            let picked = picker(&request);
            r.send((then, request, picked));
        })
    }

    /// Whether a dialog (or the typed path, or its question) is open.
    pub fn is_open(&self) -> bool {
        self.worker.is_running() || self.typed.is_some() || self.replace.is_some()
    }

    /// The paths chosen since the last call, with what to do with them
    /// (every frame; never waits).
    pub fn poll(&mut self) -> Vec<(T, PathBuf)> {
        for (then, request, picked) in self.worker.poll() {
            match picked {
                Picked::Path(path) => self.chosen.push((then, path)),
                Picked::Cancelled => {}
                Picked::Unavailable(why) => {
                    self.typed = Some(Typed {
                        text: request.suggested(),
                        request,
                        then,
                        why,
                    });
                }
            }
        }
        std::mem::take(&mut self.chosen)
    }

    /// Waits for the dialog going on to answer (tests and scripts).
    pub fn wait(&mut self) {
        self.worker.wait();
    }

    /// The path being typed, when no dialog could be shown: the request's
    /// title and why there is no dialog.
    pub fn typing(&self) -> Option<(&str, &str)> {
        self.typed
            .as_ref()
            .map(|t| (t.request.title.as_str(), t.why.as_str()))
    }

    /// Takes the typed path (`None`: cancelled). A Save that would replace
    /// an existing file asks first.
    pub fn typed(&mut self, text: Option<&str>) {
        let Some(t) = self.typed.take() else { return };
        let Some(text) = text.map(str::trim).filter(|s| !s.is_empty()) else {
            return;
        };
        let path = t.request.with_extension(absolute(Path::new(text)));
        if t.request.save && path.exists() {
            self.replace = Some(Confirm::new(
                "The file exists",
                format!(
                    "Replace {}? What it holds now will be lost.",
                    path.display()
                ),
                "Replace",
                "Cancel",
                (t.then, path),
            ));
        } else {
            self.chosen.push((t.then, path));
        }
    }

    /// The question asked before a typed path replaces a file.
    pub fn replace_question(&self) -> Option<&Confirm<(T, PathBuf)>> {
        self.replace.as_ref()
    }

    /// Takes the answer to [`FileDialogs::replace_question`].
    pub fn answer_replace(&mut self, answer: Answer<(T, PathBuf)>) {
        self.replace = None;
        if let Answer::Go(chosen) = answer {
            self.chosen.push(chosen);
        }
    }

    /// Draws the typed path and the question about replacing a file, when
    /// open.
    pub fn show(&mut self, ctx: &egui::Context) {
        let mut question = self.replace.clone();
        if let Some(answer) = dialog::show(ctx, "files-replace", &mut question) {
            self.answer_replace(answer);
        }
        let Some(t) = &mut self.typed else { return };
        let mut answer = None;
        let modal = egui::Modal::new(egui::Id::unique("files-typed")).show(ctx, |ui| {
            ui.set_max_width(520.0);
            ui.heading(&t.request.title);
            ui.add(egui::Label::new(format!("{}: type the file's full path.", t.why)).wrap());
            let label = ui.label("Path");
            let field = ui
                .add(egui::TextEdit::singleline(&mut t.text).desired_width(f32::INFINITY))
                .labelled_by(label.id);
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.horizontal(|ui| {
                let go = if t.request.save {
                    "Save to this path"
                } else {
                    "Open this path"
                };
                if ui.button(go).clicked() || entered {
                    answer = Some(Some(t.text.clone()));
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(None);
                }
            });
        });
        if answer.is_none() && modal.should_close() {
            answer = Some(None);
        }
        if let Some(text) = answer {
            self.typed(text.as_deref());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_error_names_the_file_or_folder_and_keeps_its_cause() {
        use std::error::Error as _;
        let dir = std::env::temp_dir().join(format!("murus-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A file where the folder should be: the folder cannot be made,
        // and that is what is said (it was not, once: only the write's
        // failure was).
        let blocker = dir.join("blocker");
        std::fs::write(&blocker, "").unwrap();
        let e = write(&blocker.join("sub/x.mg"), "text").unwrap_err();
        assert!(matches!(e, FileError::Folder { .. }), "{e:?}");
        assert!(
            e.to_string().starts_with(&format!(
                "cannot make the folder {}",
                blocker.join("sub").display()
            )),
            "{e}"
        );
        assert!(e.source().is_some(), "the io error is kept as the cause");
        let e = read(&dir.join("missing.mg")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("cannot read {}", dir.join("missing.mg").display())),
            "{e}"
        );
        assert!(e.source().is_some());
        assert_eq!(Message::from(e).tone, crate::Tone::Error);
        assert!(write(&dir.join("a/b/ok.mg"), "text").is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn requests_start_in_absolute_folders_and_propose_names() {
        let variants = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
        let r = PickRequest::save("Save", "Rules", &["mg"]).near(&variants.join("x.mg"));
        assert!(r.dir.as_ref().is_some_and(|d| d.is_absolute()));
        assert!(r.dir.as_ref().is_some_and(|d| d.ends_with("variants")));
        // A folder that does not exist is never proposed.
        let gone = PickRequest::save("Save", "Rules", &["mg"]).near(&variants.join("no/such/x.mg"));
        assert_eq!(gone.dir, Some(absolute(&variants)));
        assert_eq!(r.name.as_deref(), Some("x.mg"));
        assert!(
            r.suggested().ends_with("variants/x.mg"),
            "{}",
            r.suggested()
        );
        let bare = PickRequest::open("Open", "Rules", &["mg"]).near(Path::new("x.mg"));
        assert_eq!(bare.dir, Some(absolute(Path::new("."))));
        assert_eq!(
            r.with_extension(PathBuf::from("/a/b")),
            PathBuf::from("/a/b.mg")
        );
        assert_eq!(
            bare.with_extension(PathBuf::from("/a/b")),
            PathBuf::from("/a/b"),
            "an Open takes the path as typed"
        );
    }

    #[test]
    fn without_a_dialog_a_typed_save_asks_before_replacing_a_file() {
        let dir = std::env::temp_dir().join(format!("murus-files-typed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("old.mg"), "// old\n").unwrap();
        let picker: Picker = Arc::new(|_: &PickRequest| Picked::Unavailable("no dialog".into()));
        let mut d: FileDialogs<u8> = FileDialogs::new(picker, crate::worker::no_waker());
        let save = PickRequest::save("Save", "Rules", &["mg"]).in_dir(&dir);
        assert_eq!(d.ask(save.clone(), 1), Ok(()));
        assert!(d.ask(save.clone(), 2).is_err(), "one dialog at a time");
        d.wait();
        assert_eq!(d.poll(), []);
        assert_eq!(d.typing(), Some(("Save", "no dialog")));
        // A new name: taken at once, with its extension.
        d.typed(Some(&dir.join("new").display().to_string()));
        assert_eq!(d.poll(), [(1, dir.join("new.mg"))]);
        assert!(!d.is_open());
        // An existing file: asked first.
        d.ask(save.clone(), 3).unwrap();
        d.wait();
        d.poll();
        d.typed(Some(&dir.join("old.mg").display().to_string()));
        assert_eq!(d.poll(), []);
        let q = d.replace_question().expect("a question");
        assert!(q.text.starts_with("Replace "), "{}", q.text);
        d.answer_replace(Answer::Keep);
        assert_eq!(d.poll(), []);
        // Cancelled: nothing.
        d.ask(save, 4).unwrap();
        d.wait();
        d.poll();
        d.typed(None);
        assert_eq!(d.poll(), []);
        assert!(!d.is_open());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn save_as_adds_the_extension_and_refuses_folders() {
        let dir = Path::new("variants");
        assert_eq!(
            save_as_path(dir, " mine ", "mg", "x.mg").ok(),
            Some(dir.join("mine.mg"))
        );
        assert_eq!(
            save_as_path(dir, "mine.mg", "mg", "x.mg").ok(),
            Some(dir.join("mine.mg"))
        );
        for bad in ["", "  ", "a/b.mg", "a\\b.mg"] {
            let e = save_as_path(dir, bad, "mg", "my-variant.mg").unwrap_err();
            assert_eq!(e.to_string(), "give a plain file name, like my-variant.mg");
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
