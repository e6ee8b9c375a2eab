//! A report's files on disk, written by one call that `murus report` and
//! the studio's lab reports both make.

use std::io;
use std::path::Path;

use murus_engine::Variant;
use murus_report::designer::DesignerReport;

use super::{report_html, tactics_records, tactics_sheet_html};

/// Every file of a report's page, by its path in the report's folder: the
/// page (`index.html`), and with tactics the puzzle sheet (`tactics.html`)
/// and the puzzles' records (`tactics/puzzle-NN.mgn`).
pub fn report_files(v: &Variant, r: &DesignerReport) -> Vec<(String, String)> {
    let mut files = vec![("index.html".to_string(), report_html(v, r))];
    if let Some(sheet) = tactics_sheet_html(v, r) {
        files.push(("tactics.html".to_string(), sheet));
    }
    for (name, text) in tactics_records(v, r) {
        files.push((format!("tactics/{name}"), text));
    }
    files
}

/// Writes the page of `r`, the report of `v` kept in `dir` (beside its
/// `report.json`), and its other files ([`report_files`]), each whole or
/// not at all; with `compared`, the variant the report compares with, that
/// variant's own page too, in `compare/NAME/` beside its `report.json`.
/// The error names the file.
pub fn write_report(
    dir: &Path,
    v: &Variant,
    r: &DesignerReport,
    compared: Option<&Variant>,
) -> io::Result<()> {
    for (name, text) in report_files(v, r) {
        let path = dir.join(&name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", parent.display())))?;
        }
        murus_engine::util::write_atomic(&path, text)?;
    }
    if let Some(other) = compared {
        let theirs = dir.join("compare").join(other.name());
        let json = theirs.join("report.json");
        let named = |e: &dyn std::fmt::Display| format!("{}: {e}", json.display());
        let text =
            std::fs::read_to_string(&json).map_err(|e| io::Error::new(e.kind(), named(&e)))?;
        let report: DesignerReport = serde_json::from_str(&text)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, named(&e)))?;
        write_report(&theirs, other, &report, None)?;
    }
    Ok(())
}
