//! What every CLI test needs: the `murus` binary run in the repository
//! root or in a folder of the test's own, its output read as text or JSON,
//! and temporary folders (after ripgrep's `tests/util.rs`).

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The repository root: the folder `variants/`, `puzzles/` and `tests/`
/// are in, where [`murus`] runs.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A path under the repository root.
pub fn repo(path: &str) -> PathBuf {
    root().join(path)
}

/// The `murus` binary of this build as a command, in the repository root
/// (for tests that feed its stdin, spawn or kill it).
pub fn command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_murus"));
    c.current_dir(root());
    c
}

/// Runs `murus ARGS` in the repository root to its end.
pub fn murus<S: AsRef<OsStr>>(args: &[S]) -> Output {
    command()
        .args(args)
        .output()
        .expect("the murus binary runs")
}

/// Runs `murus ARGS` in `dir` to its end.
pub fn murus_in<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Output {
    command()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the murus binary runs")
}

/// What a run printed on stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What a run printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Everything a run printed, stdout then stderr (for failure messages).
pub fn text(o: &Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

/// A run's stdout as one JSON value; a failure shows what it printed.
pub fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(o)))
}

/// Waits until the file at `path` holds at least `lines` whole lines
/// while `child` runs; fails the test if it ends first or takes two
/// minutes.
pub fn wait_for_lines(child: &mut Child, path: &Path, lines: usize) {
    let started = Instant::now();
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if text.matches('\n').count() >= lines {
            return;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "it ended before {lines} lines were in {}",
            path.display()
        );
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no {lines} lines in {} after two minutes",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Runs `murus ARGS` in the repository root with stdout and stderr on a
/// terminal (a pseudo-terminal of `script`, from util-linux) and returns
/// what the terminal showed; `None` where `script` is not installed.
#[cfg(unix)]
pub fn on_terminal(args: &[&str]) -> Option<String> {
    let quote = |a: &str| format!("'{}'", a.replace('\'', r"'\''"));
    let line: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_murus"))
        .chain(args.iter().copied())
        .map(quote)
        .collect();
    let o = Command::new("script")
        .args(["-qec", &line.join(" "), "/dev/null"])
        .current_dir(root())
        .env("TERM", "xterm")
        .output()
        .ok()?;
    assert!(
        o.status.success(),
        "murus {args:?} on a terminal: {}",
        text(&o)
    );
    Some(stdout(&o))
}

/// Sends the signal `name` (`TERM`, `HUP`, `INT`, `KILL`) to `child`.
#[cfg(unix)]
pub fn signal(child: &Child, name: &str) {
    let sent = Command::new("kill")
        .args([format!("-{name}"), child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{name} {}", child.id());
}

/// Waits for `child` to end and returns what it printed and its status;
/// a child still running after two minutes is killed and the test fails.
pub fn finish(child: Child) -> Output {
    let pid = child.id().to_string();
    let (done, watch) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let late = watch.recv_timeout(Duration::from_secs(120)).is_err();
        if late {
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
        }
        late
    });
    let output = child
        .wait_with_output()
        .expect("the child can be waited for");
    let _ = done.send(());
    assert!(
        !watchdog.join().unwrap(),
        "it did not end within two minutes"
    );
    output
}

/// The temporary folders made so far by this test process.
static MADE: AtomicUsize = AtomicUsize::new(0);

/// A temporary folder of one test: unique to it (named after it, the test
/// process and a counter), created empty, removed when dropped, and kept
/// when the test fails, so that its files can be read.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// A fresh, empty folder named after `name` under Cargo's temporary
    /// folder for tests (`target/tmp`).
    pub fn new(name: &str) -> TempDir {
        let n = MADE.fetch_add(1, Ordering::SeqCst);
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join("murus-cli")
            .join(format!("{name}-{}-{n}", std::process::id()));
        if path.exists() {
            std::fs::remove_dir_all(&path)
                .unwrap_or_else(|e| panic!("{}: cannot clear it: {e}", path.display()));
        }
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("{}: cannot create it: {e}", path.display()));
        TempDir { path }
    }

    /// A fresh folder named after `name` holding `files` (name, text).
    pub fn with(name: &str, files: &[(&str, &str)]) -> TempDir {
        let dir = TempDir::new(name);
        for (file, text) in files {
            dir.write(file, text);
        }
        dir
    }

    /// Writes `text` to the file `name` in this folder (creating the
    /// folders on its way) and returns its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.path.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{}: {e}", parent.display()));
        }
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        path
    }

    /// The text of the file `name` in this folder.
    pub fn read(&self, name: &str) -> String {
        let path = self.path.join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}

impl Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept the failed test's folder {}", self.path.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

#[test]
fn temporary_folders_are_fresh_unique_and_removed_on_drop() {
    let a = TempDir::new("util");
    let b = TempDir::new("util");
    assert_ne!(a.to_path_buf(), b.to_path_buf(), "one folder a call");
    assert!(a.is_dir() && std::fs::read_dir(&*a).unwrap().next().is_none());
    let file = a.write("sub/x.txt", "text");
    assert_eq!(a.read("sub/x.txt"), "text");
    assert!(file.starts_with(&*a));
    let path = a.to_path_buf();
    drop(a);
    assert!(!path.exists(), "removed on drop");
    assert!(b.is_dir());
}
