//! What the lab's test modules share.

use std::path::PathBuf;
use std::sync::OnceLock;

use murus_engine::Variant;
use murus_lab::designer::{Budget, DesignerReport, ReportConfig, run_report};

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

/// The small board with a ply cap of 6 at which the Gauls are given the
/// game (`adjudicate for g`), and its quick report (seed 3, two threads),
/// made once for the tests that read it.
pub fn capped_report() -> &'static (Variant, DesignerReport) {
    static MADE: OnceLock<(Variant, DesignerReport)> = OnceLock::new();
    MADE.get_or_init(|| {
        let source = include_str!("../../../../variants/sweeps/standard-small.mg");
        let text = source.replace("    plies 300\n", "    plies 6\n    adjudicate for g\n");
        let v = Variant::compile(&text).unwrap();
        let config = ReportConfig::new(Budget::Quick, 3, 2);
        let report = run_report(&v, "capped.mg", &config, None, &()).unwrap();
        (v, report)
    })
}
