//! What the lab's test modules share.

use std::path::PathBuf;

/// A folder for a test's files under the system's temporary folder, named
/// after the test module (`module_path!()`'s last part), the process and
/// `name`, removed first if there (the folder of an earlier run).
pub fn temp_in(module: &str, name: &str) -> PathBuf {
    let module = module.rsplit("::").next().unwrap_or(module);
    let dir =
        std::env::temp_dir().join(format!("murus-lab-{module}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// [`temp_in`] for the module that calls it: `temp!("train")` in
/// `folders` and in `progress` are two folders.
macro_rules! temp {
    ($name:expr) => {
        $crate::util::temp_in(module_path!(), $name)
    };
}
pub(crate) use temp;
