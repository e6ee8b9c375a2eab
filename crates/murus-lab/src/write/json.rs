//! The sweep's report as pretty JSON with a final newline (`sweep.json`;
//! `report.json` and `balance.json` are written by their types' own
//! `to_json`, in `murus_report`).

use crate::report::SweepReport;

impl SweepReport {
    /// The report as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("sweep reports serialise") + "\n"
    }
}
